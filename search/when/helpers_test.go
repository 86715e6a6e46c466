package when_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/when"
)

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err) // the tests cannot run without the zone database
	}
	return loc
}

var (
	singapore = mustLoad("Asia/Singapore")
	amsterdam = mustLoad("Europe/Amsterdam")
	newYork   = mustLoad("America/New_York")
)

// days returns the dates first..last (inclusive) of month m 2026, each
// midnight in loc.
func days(loc *time.Location, m time.Month, first, last int) []time.Time {
	var out []time.Time
	for d := first; d <= last; d++ {
		out = append(out, time.Date(2026, m, d, 0, 0, 0, 0, loc))
	}
	return out
}

// sgCal is a three-day conference in Singapore, Tue 20 to Thu 22 Oct 2026.
var sgCal = when.Calendar{
	Name:     "FOSSASIA Summit",
	Location: singapore,
	Days:     days(singapore, time.October, 20, 22),
	Rooms:    []string{"Einstein (Floor 2)", "Fermi (Floor 3)", "Hall 1", "Room B"},
	Tracks:   []string{"DevOps", "Security and Privacy"},
}

// sg is an instant in October 2026, Singapore time.
func sg(day, h, m int) time.Time { return time.Date(2026, time.October, day, h, m, 0, 0, singapore) }

// sgNow is mid-morning of the first day.
var sgNow = sg(20, 10, 30)

// parseCase is one message and what Parse must make of it. Label is checked
// only when set; everything else always.
type parseCase struct {
	msg           string
	now           time.Time // sgNow when zero
	from, to      time.Time
	ongoing, next bool
	last          bool
	rooms, tracks []string
	formats       []string
	rest          string
	label         string
	outside       string
}

func runParse(t *testing.T, cal when.Calendar, cases []parseCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.msg, func(t *testing.T) {
			now := c.now
			if now.IsZero() {
				now = sgNow
			}
			got := when.Parse(c.msg, now, cal)
			checkFilter(t, got.Filter, c)
			assert.Equal(t, c.rest, got.Rest, "Rest")
			assert.Equal(t, c.outside, got.Outside, "Outside")
			if c.label != "" {
				assert.Equal(t, c.label, got.Filter.Label, "Label")
			}
		})
	}
}

func checkFilter(t *testing.T, f when.Filter, c parseCase) {
	t.Helper()
	assert.True(t, f.From.Equal(c.from) && f.To.Equal(c.to), "window = [%v, %v), want [%v, %v)", f.From, f.To, c.from, c.to)
	assert.Equal(t, c.ongoing, f.Ongoing, "Ongoing")
	assert.Equal(t, c.next, f.Next, "Next")
	assert.Equal(t, c.last, f.Last, "Last")
	for _, l := range []struct {
		name      string
		got, want []string
	}{{"Rooms", f.Rooms, c.rooms}, {"Tracks", f.Tracks, c.tracks}, {"Formats", f.Formats, c.formats}} {
		assertSlice(t, l.want, l.got, l.name)
	}
}

// assertSlice is assert.Equal for slices where, as for slices.Equal, a nil
// and an empty slice are the same.
func assertSlice[S ~[]E, E any](t *testing.T, want, got S, msgAndArgs ...any) bool {
	t.Helper()
	if len(want) == 0 {
		return assert.Empty(t, got, msgAndArgs...)
	}
	return assert.Equal(t, want, got, msgAndArgs...)
}
