package when_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search/when"
)

// widenStep is what one call of Widen must give.
type widenStep struct {
	why   string
	want  parseCase // the filter after the step (msg, rest and outside unused)
	label string
}

// runWiden parses msg at sgNow and widens it step by step, then checks that
// nothing is left to widen and the last filter comes back unchanged.
func runWiden(t *testing.T, msg string, cal when.Calendar, steps []widenStep) {
	t.Helper()
	f := when.Parse(msg, sgNow, cal).Filter
	for i, s := range steps {
		g, why, ok := f.Widen(cal)
		require.True(t, ok, "step %d: Widen = %q, %v; want %q", i+1, why, ok, s.why)
		require.Equal(t, s.why, why, "step %d: Widen", i+1)
		checkFilter(t, g, s.want)
		assert.Equal(t, s.label, g.Label, "step %d: Label", i+1)
		f = g
	}
	_, why, ok := f.Widen(cal)
	assert.False(t, ok, "after %d steps: Widen = %q, %v; want nothing left", len(steps), why, ok)
	assert.Empty(t, why, "after %d steps: Widen; want nothing left", len(steps))
}

func TestWidenEveryConstraintInOrder(t *testing.T) {
	runWiden(t, "workshops tomorrow morning in Hall 1 in the devops track", sgCal, []widenStep{
		{"the whole of Wednesday 21 October instead of the morning",
			parseCase{from: sg(21, 0, 0), to: sg(22, 0, 0), rooms: []string{"Hall 1"}, tracks: []string{"DevOps"}, formats: []string{"workshop"}},
			"Wed 21 Oct, in Hall 1, in the DevOps track, workshops"},
		{"any room instead of Hall 1",
			parseCase{from: sg(21, 0, 0), to: sg(22, 0, 0), tracks: []string{"DevOps"}, formats: []string{"workshop"}},
			"Wed 21 Oct, in the DevOps track, workshops"},
		{"any track instead of the DevOps track",
			parseCase{from: sg(21, 0, 0), to: sg(22, 0, 0), formats: []string{"workshop"}},
			"Wed 21 Oct, workshops"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Wed 21 Oct",
			parseCase{formats: []string{"workshop"}},
			"workshops"},
		{"any kind of session instead of only workshops", parseCase{}, ""},
	})
}

func TestWidenTheLastTalk(t *testing.T) {
	runWiden(t, "last talk of the day in Fermi", sgCal, []widenStep{
		{"any room instead of Fermi (Floor 3)", parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0), last: true}, "the last slot of Tue 20 Oct"},
		{"all of Tue 20 Oct instead of only its last slot", parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0)}, "Tue 20 Oct"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Tue 20 Oct", parseCase{}, ""},
	})
}

func TestWidenClockTime(t *testing.T) {
	runWiden(t, "after 4pm", sgCal, []widenStep{
		{"the whole of Tuesday 20 October instead of after 16:00", parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0)}, "Tue 20 Oct"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Tue 20 Oct", parseCase{}, ""},
	})
}

func TestWidenNext(t *testing.T) {
	runWiden(t, "what's next in hall 1", sgCal, []widenStep{
		{"any room instead of Hall 1", parseCase{from: sgNow, next: true}, "next"},
		{"the rest of Tuesday 20 October instead of only what starts next", parseCase{from: sgNow, to: sg(21, 0, 0)}, "Tue 20 Oct after 10:30"},
		{"the whole of Tuesday 20 October instead of after 10:30", parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0)}, "Tue 20 Oct"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Tue 20 Oct", parseCase{}, ""},
	})
}

func TestWidenOngoing(t *testing.T) {
	runWiden(t, "keynotes now", sgCal, []widenStep{
		{"the whole of Tuesday 20 October instead of only what is on now",
			parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0), formats: []string{"keynote"}}, "Tue 20 Oct, keynotes"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Tue 20 Oct", parseCase{formats: []string{"keynote"}}, "keynotes"},
		{"any kind of session instead of only keynotes", parseCase{}, ""},
	})
}

func TestWidenAtATime(t *testing.T) {
	runWiden(t, "what's on at 3pm", sgCal, []widenStep{
		{"the whole of Tuesday 20 October instead of 15:00–15:15", parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0)}, "Tue 20 Oct"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Tue 20 Oct", parseCase{}, ""},
	})
}

// A window from now widens forward: what is over is no answer.
func TestWidenAWindowFromNowKeepsItsStart(t *testing.T) {
	runWiden(t, "anything in the next 30 minutes?", sgCal, []widenStep{
		{"the rest of Tuesday 20 October instead of the next 30 minutes", parseCase{from: sgNow, to: sg(21, 0, 0)}, "Tue 20 Oct after 10:30"},
		{"the rest of the conference instead of Tue 20 Oct after 10:30", parseCase{from: sgNow}, "from Tue 20 Oct 10:30 on"},
	})
}

func TestWidenStillOn(t *testing.T) {
	runWiden(t, "workshops still on today", sgCal, []widenStep{
		{"the whole of Tuesday 20 October instead of after 10:30",
			parseCase{from: sg(20, 0, 0), to: sg(21, 0, 0), formats: []string{"workshop"}}, "Tue 20 Oct, workshops"},
		{"the whole conference (Tue 20 to Thu 22 Oct) instead of Tue 20 Oct", parseCase{formats: []string{"workshop"}}, "workshops"},
		{"any kind of session instead of only workshops", parseCase{}, ""},
	})
}

func TestWidenAcrossTheEndOfSummerTime(t *testing.T) {
	f := when.Filter{From: time.Date(2026, 10, 25, 9, 0, 0, 0, amsterdam), To: time.Date(2026, 10, 25, 12, 0, 0, 0, amsterdam)}
	g, why, ok := f.Widen(amsCal)
	assert.True(t, ok, "Widen = [%v, %v), %q, %v; want the 25 hours of Sunday", g.From, g.To, why, ok)
	assert.Equal(t, "the whole of Sunday 25 October instead of 09:00–12:00", why, "Widen")
	assert.Equal(t, 25*time.Hour, g.To.Sub(g.From), "Widen = [%v, %v); want the 25 hours of Sunday", g.From, g.To)
}

func TestWidenZeroFilter(t *testing.T) {
	_, why, ok := (when.Filter{}).Widen(sgCal)
	assert.False(t, ok, "Widen of the zero filter = %q, %v", why, ok)
	assert.Empty(t, why, "Widen of the zero filter")
}
