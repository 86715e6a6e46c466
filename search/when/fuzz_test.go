package when_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search/when"
)

// FuzzParse checks that Parse never panics, that Rest never grows, and that
// widening any parsed filter ends within a few steps.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"what's on tomorrow morning in room B about security?", "any workshops on day 2?", "what's next?",
		"anything in Einstein this afternoon", "keynotes on Friday", "what's happening now",
		"talks after 4pm about databases", "anything on Monday?", "between 2 and 4 pm", "from 14:00 to 16:00",
		"the devops and privacy tracks", `"Security and Privacy"`, "21/10 or 10/21 or 2026-10-21", "day 99999",
		"at 99:99", "in the next 999 hours", "the 31st of february", "", "🙂", "\xff\xfe on friday", "İstanbul ŞAHİN K",
	} {
		f.Add(seed)
	}
	cals := []when.Calendar{sgCal, amsCal, {}}
	f.Fuzz(func(t *testing.T, msg string) {
		for _, cal := range cals {
			p := when.Parse(msg, sgNow, cal)
			require.LessOrEqual(t, len(p.Rest), len(msg), "Rest %q is longer than the message %q", p.Rest, msg)
			widenAll(t, p.Filter, cal)
		}
	})
}

func widenAll(t *testing.T, f when.Filter, cal when.Calendar) {
	t.Helper()
	for range 10 {
		g, why, ok := f.Widen(cal)
		if !ok {
			return
		}
		require.NotEmpty(t, why, "Widen(%+v) gave no sentence", f)
		f = g
	}
	require.Fail(t, "Widen did not end within 10 steps", "%+v", f)
}

func TestParseLongMessage(t *testing.T) {
	msg := strings.Repeat("workshops tomorrow morning in hall 1 about security, ", 80)[:4000]
	for _, cal := range []when.Calendar{sgCal, {}} {
		p := when.Parse(msg, time.Time{}, cal)
		assert.LessOrEqual(t, len(p.Rest), len(msg), "Parse of a 4,000-character message: Rest %d bytes", len(p.Rest))
		assert.False(t, p.Filter.IsZero(), "Parse of a 4,000-character message: filter %+v", p.Filter)
	}
}
