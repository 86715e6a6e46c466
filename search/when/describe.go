package when

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/conference"
)

// short writes a date as labels show it: "Wed 21 Oct".
func short(d time.Time) string { return d.Format("Mon 2 Jan") }

// long writes a date as sentences name it: "Monday 20 March".
func long(d time.Time) string { return d.Format("Monday 2 January") }

// dateRange writes first to last, naming month and year once where they
// agree: "Fri 17 to Sun 19 March"; month is "January" or "Jan".
func dateRange(first, last time.Time, month string) string {
	if first.Equal(last) {
		return first.Format("Mon 2 " + month)
	}
	switch {
	case first.Year() != last.Year():
		return first.Format("Mon 2 "+month+" 2006") + " to " + last.Format("Mon 2 "+month+" 2006")
	case first.Month() != last.Month():
		return first.Format("Mon 2 "+month) + " to " + last.Format("Mon 2 "+month)
	}
	return first.Format("Mon 2") + " to " + last.Format("Mon 2 "+month)
}

// runs says when the conference runs: "FOSSASIA Summit runs from Fri 17 to
// Sun 19 March".
func (c conf) runs() string { return c.name + " runs " + c.span() }

// span is the conference's days as a sentence says them: "from Fri 17 to
// Sun 19 March", or "on Fri 17 March" for one day.
func (c conf) span() string {
	first, last := c.days[0], c.days[len(c.days)-1]
	if first.Equal(last) {
		return "on " + dateRange(first, last, "January")
	}
	return "from " + dateRange(first, last, "January")
}

// runsFor says how long the conference runs: "FOSSASIA Summit runs for 3
// days, from Fri 17 to Sun 19 March".
func (c conf) runsFor() string {
	return fmt.Sprintf("%s runs for %s, %s", c.name, days(len(c.days)), c.span())
}

func days(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}

// outside says how dates first..last, named subject, relate to the
// conference, or returns "" when one of them is a conference day or no days
// are known.
func (c conf) outside(subject string, first, last time.Time) string {
	if len(c.days) == 0 {
		return ""
	}
	for d := first; !d.After(last); d = d.AddDate(0, 0, 1) {
		if c.isDay(d) {
			return ""
		}
	}
	switch {
	case last.Before(c.days[0]):
		return c.runs() + "; " + subject + " is before it."
	case first.After(c.days[len(c.days)-1]):
		return c.runs() + "; " + subject + " is after it."
	}
	return c.runs() + "; " + subject + " is not one of its days."
}

// noDay says that day n of the conference does not exist: "FOSSASIA Summit
// runs for 3 days, from Fri 17 to Sun 19 March; there is no day 5."
func (c conf) noDay(n int) string { return fmt.Sprintf("%s; there is no day %d.", c.runsFor(), n) }

// hhmm writes minutes after midnight as "16:05".
func hhmm(min int) string { return fmt.Sprintf("%02d:%02d", min/60, min%60) }

// parts are the named parts of a day, in minutes after local midnight.
var parts = []struct {
	name   string
	lo, hi int
}{
	{"morning", 6 * 60, 12 * 60},
	{"afternoon", 12 * 60, 17 * 60},
	{"arvo", 12 * 60, 17 * 60}, // Australian English; described as the afternoon, the first part with its span
	{"evening", 17 * 60, 24 * 60},
	{"lunchtime", 11*60 + 30, 14 * 60},
	{"after lunch", 13 * 60, 17 * 60},
}

// partWords describes a time of day [lo, hi): "the morning", "lunchtime",
// "after 16:00", "14:00–16:00", or "" for the whole day.
func partWords(lo, hi int) string {
	for _, p := range parts {
		if p.lo == lo && p.hi == hi && strings.Contains(p.name, "lunch") {
			return p.name // "tomorrow lunchtime"
		}
		if p.lo == lo && p.hi == hi {
			return "the " + p.name
		}
	}
	switch {
	case lo <= 0 && hi >= 1440:
		return ""
	case lo <= 0:
		return "before " + hhmm(hi)
	case hi >= 1440:
		return "after " + hhmm(lo)
	}
	return hhmm(lo) + "–" + hhmm(hi)
}

// describe writes the time constraint of f in absolute words, as Widen's
// sentences and labels need it: "the morning of Wed 21 Oct", "Wed 21 Oct",
// "Sat 24 to Sun 25 Oct", "now", "next".
func (c conf) describe(f Filter) string {
	switch {
	case f.Ongoing && !f.To.IsZero():
		g := f
		g.Ongoing = false
		return c.describe(g)
	case f.Ongoing:
		return "now"
	case f.Next:
		return "next"
	case f.Last:
		g := f
		g.Last = false
		if d := c.describe(g); d != "" {
			return "the last slot of " + d
		}
		return "the last slot"
	case f.From.IsZero() && f.To.IsZero():
		return ""
	case f.To.IsZero():
		return "from " + c.instant(f.From) + " on"
	case f.From.IsZero():
		return "until " + c.instant(f.To)
	}
	d1, lo := c.clockOf(f.From, false)
	d2, hi := c.clockOf(f.To, true)
	if d1.Equal(d2) {
		return withPart(short(d1), partWords(lo, hi))
	}
	if lo == 0 && hi == 1440 {
		return dateRange(d1, d2, "Jan")
	}
	return "from " + c.instant(f.From) + " to " + c.instant(f.To)
}

// withPart joins a day and a time of day: "the morning of Wed 21 Oct",
// "Wed 21 Oct after 16:00".
func withPart(day, part string) string {
	switch {
	case part == "":
		return day
	case strings.HasPrefix(part, "the "):
		return part + " of " + day
	}
	return day + " " + part
}

// instant writes an instant in the conference's time zone: "Wed 21 Oct 14:30".
func (c conf) instant(t time.Time) string { return t.In(c.loc).Format("Mon 2 Jan 15:04") }

// label joins the plain-words parts of a filter: when, rooms, tracks, formats.
func label(when string, f Filter) string {
	var parts []string
	if when != "" {
		parts = append(parts, when)
	}
	if len(f.Rooms) > 0 {
		parts = append(parts, "in "+strings.Join(f.Rooms, " or "))
	}
	switch len(f.Tracks) {
	case 0:
	case 1:
		parts = append(parts, "in the "+f.Tracks[0]+" track")
	default:
		parts = append(parts, "in the "+strings.Join(f.Tracks, " or ")+" tracks")
	}
	if len(f.Formats) > 0 {
		parts = append(parts, formatWords(f.Formats))
	}
	return butNot(strings.Join(parts, ", "), f.Except)
}

// butNot adds to a filter's label what it turns down: "tomorrow (Wed 21
// Oct), but not panels", or "anything but panels" alone.
func butNot(l string, except []Filter) string {
	t := turned(except)
	switch {
	case t == "":
		return l
	case l == "":
		return "anything but " + t
	}
	return l + ", but not " + t
}

// ButNot returns f turning down except as well, its Label saying so.
func (f Filter) ButNot(except []Filter) Filter {
	asked := f.AskedLabel()
	f.Except = append(slices.Clip(f.Except), except...)
	f.Label = butNot(asked, f.Except)
	return f
}

// AskedLabel is f's Label without what it turns down: the time and place
// asked for, or "" when it only turns down.
func (f Filter) AskedLabel() string {
	t := turned(f.Except)
	switch {
	case t == "":
		return f.Label
	case f.Label == "anything but "+t:
		return ""
	}
	return strings.TrimSuffix(f.Label, ", but not "+t)
}

// turned says in plain words what a filter turns down ("panels or Wed 21
// Oct"), or "" when it turns nothing down.
func turned(except []Filter) string {
	var labels []string
	for _, e := range except {
		if e.Label != "" && !slices.Contains(labels, e.Label) {
			labels = append(labels, e.Label)
		}
	}
	return strings.Join(labels, " or ")
}

// formatWords writes formats in the plural: "workshops or panels".
func formatWords(formats []string) string {
	words := make([]string, len(formats))
	for i, f := range formats {
		words[i] = f + "s"
		if f == conference.FormatOther {
			words[i] = "other sessions"
		}
	}
	return strings.Join(words, " or ")
}
