package conference_test

import (
	"testing"

	"github.com/erleah/erleah-agent/conference"
)

func TestDemoBundleIsValidAndRich(t *testing.T) {
	b, err := conference.Demo()
	if err != nil {
		t.Fatalf("the demo bundle does not validate: %v", err)
	}
	if len(b.Conferences) < 2 {
		t.Fatalf("%d conferences, want at least 2", len(b.Conferences))
	}
	main := b.Of(b.Conferences[0].ID)
	if len(main.Sessions) < 80 || len(main.Exhibitors) < 40 || len(main.Speakers) < 50 {
		t.Fatalf("main conference has %d sessions, %d exhibitors, %d speakers", len(main.Sessions), len(main.Exhibitors), len(main.Speakers))
	}
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
	if len(formats) < 5 || sparse < 5 || formats[conference.FormatOther] < 5 || other == 0 {
		t.Fatalf("formats %v, %d sparse sessions, %d exhibitors without description", formats, sparse, other)
	}
}
