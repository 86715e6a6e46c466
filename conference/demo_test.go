package conference_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
)

func TestDemoBundleIsValidAndRich(t *testing.T) {
	b, err := conference.Demo()
	require.NoError(t, err, "the demo bundle does not validate")
	require.GreaterOrEqual(t, len(b.Conferences), 2, "conferences")
	main := b.Of(b.Conferences[0].ID)
	assert.GreaterOrEqual(t, len(main.Sessions), 80, "main conference sessions")
	assert.GreaterOrEqual(t, len(main.Exhibitors), 40, "main conference exhibitors")
	assert.GreaterOrEqual(t, len(main.Speakers), 50, "main conference speakers")
	formats, sparse, other := map[string]int{}, 0, 0
	for _, s := range main.Sessions {
		formats[s.Format]++
		if len(s.Description) < 30 {
			sparse++
		}
	}
	for _, e := range main.Exhibitors {
		if e.Description == "" {
			other++
		}
	}
	assert.GreaterOrEqual(t, len(formats), 5, "formats %v", formats)
	assert.GreaterOrEqual(t, sparse, 5, "sparse sessions")
	assert.GreaterOrEqual(t, formats[conference.FormatOther], 5, "sessions of format other; formats %v", formats)
	assert.NotZero(t, other, "exhibitors without description")
}
