package when

import (
	"strings"
	"time"
)

// widenStep loosens one constraint of f, saying in a sentence what it gave
// up, or reports false when that constraint is not there.
type widenStep func(f Filter, c conf) (Filter, string, bool)

// widenSteps are tried in order; the first that applies is taken.
var widenSteps = []widenStep{
	widenTimeOfDay, widenRoom, widenTrack, widenLast, widenDays, widenOngoing, widenNext, widenFormats,
}

// Widen returns a looser filter, with its Label rewritten, and a plain
// phrase saying what was widened ("the whole of Wednesday 21 October instead
// of the morning", "any room instead of Hall 1"), or ok=false when nothing
// is left to widen. Each call loosens one constraint, in this order: a time
// of day becomes the whole day; rooms go; tracks go; "the last talk"
// becomes all of its window; a day or window becomes
// the whole conference; "now" becomes the whole of today; "what's next"
// becomes the rest of its day; and, when nothing else is left, formats go.
// No constraint is ever dropped without its phrase.
func (f Filter) Widen(cal Calendar) (Filter, string, bool) {
	c := cal.conf()
	for _, step := range widenSteps {
		if g, why, ok := step(f, c); ok {
			g.Label = label(c.describe(g), g)
			return g, why, true
		}
	}
	return f, "", false
}

// widenTimeOfDay turns a window inside one local day into the whole day.
func widenTimeOfDay(f Filter, c conf) (Filter, string, bool) {
	if f.Ongoing || f.Next || f.From.IsZero() || f.To.IsZero() {
		return f, "", false
	}
	d1, lo := c.clockOf(f.From, false)
	d2, hi := c.clockOf(f.To, true)
	if !d1.Equal(d2) || (lo == 0 && hi == 1440) {
		return f, "", false
	}
	if f.FromNow { // forward only: the rest of the day, then of the conference
		if hi == 1440 {
			return f, "", false
		}
		why := "the rest of " + long(d1) + " instead of " + fromNowWords(f, c)
		f.To = c.at(d1, 1440)
		return f, why, true
	}
	f.From, f.To = c.at(d1, 0), c.at(d1, 1440)
	return f, "the whole of " + long(d1) + " instead of " + partWords(lo, hi), true
}

func widenRoom(f Filter, _ conf) (Filter, string, bool) {
	if len(f.Rooms) == 0 {
		return f, "", false
	}
	why := "any room instead of " + strings.Join(f.Rooms, " or ")
	f.Rooms = nil
	return f, why, true
}

func widenTrack(f Filter, _ conf) (Filter, string, bool) {
	if len(f.Tracks) == 0 {
		return f, "", false
	}
	why := "any track instead of " + label("", Filter{Tracks: f.Tracks})[len("in "):]
	f.Tracks = nil
	return f, why, true
}

// widenDays drops a window of whole days (or any window left) for the whole
// conference.
func widenDays(f Filter, c conf) (Filter, string, bool) {
	if f.Ongoing || f.Next || (f.From.IsZero() && f.To.IsZero()) {
		return f, "", false
	}
	whole := "the whole conference"
	if len(c.days) > 0 {
		whole += " (" + dateRange(c.days[0], c.days[len(c.days)-1], "Jan") + ")"
	}
	why := whole + " instead of " + c.describe(f)
	if f.FromNow {
		if f.To.IsZero() {
			return f, "", false // already the rest of it
		}
		why = "the rest of the conference instead of " + fromNowWords(f, c)
		f.To = time.Time{}
		return f, why, true
	}
	f.From, f.To = time.Time{}, time.Time{}
	return f, why, true
}

// widenOngoing turns "now" into the whole of today, which holds every
// session running now that started today.
func widenOngoing(f Filter, c conf) (Filter, string, bool) {
	if !f.Ongoing {
		return f, "", false
	}
	f.Ongoing = false
	what := "only what is on now"
	if !f.From.IsZero() && !f.To.IsZero() {
		_, lo := c.clockOf(f.From, false)
		_, hi := c.clockOf(f.To, true)
		what = partWords(lo, hi)
	}
	if f.From.IsZero() {
		return f, "any time instead of " + what, true
	}
	d := c.today(f.From)
	f.From, f.To = c.at(d, 0), c.at(d, 1440)
	return f, "the whole of " + long(d) + " instead of " + what, true
}

// widenLast turns "the last talk" into everything in its window.
func widenLast(f Filter, c conf) (Filter, string, bool) {
	if !f.Last {
		return f, "", false
	}
	f.Last = false
	if d := c.describe(f); d != "" {
		return f, "all of " + d + " instead of only its last slot", true
	}
	return f, "any time instead of only the last slot", true
}

// widenNext turns "what's next" into everything from From to the end of its
// day (or to To, when set).
func widenNext(f Filter, c conf) (Filter, string, bool) {
	if !f.Next {
		return f, "", false
	}
	f.Next = false
	switch {
	case f.From.IsZero():
		return f, "any time instead of only what starts next", true
	case f.To.IsZero():
		d := c.today(f.From)
		f.To = c.at(d, 1440)
		return f, "the rest of " + long(d) + " instead of only what starts next", true
	}
	return f, "all of " + c.describe(f) + " instead of only what starts next", true
}

// widenFormats drops the formats, the attendee's own ask, only once nothing
// else is left.
func widenFormats(f Filter, _ conf) (Filter, string, bool) {
	g := f
	g.Formats = nil
	rest := g
	rest.Except = nil // what was turned down stays turned down
	if len(f.Formats) == 0 || !rest.IsZero() {
		return f, "", false
	}
	return g, "any kind of session instead of only " + formatWords(f.Formats), true
}

// fromNowWords says a window from now as the attendee did ("the next 30
// minutes").
func fromNowWords(f Filter, c conf) string {
	if w, ok := strings.CutPrefix(f.Label, "in "); ok {
		return w
	}
	return c.describe(f)
}
