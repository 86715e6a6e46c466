// Package when turns the time, place and format constraints in an attendee's
// English question about a conference ("what's on tomorrow morning in room
// B?", "any workshops on day 2?", "what's next?") into a structured Filter,
// evaluated in the conference's time zone against a clock the caller gives.
//
// Parse reads a message; Filter.Match and Filter.Apply select sessions;
// Filter.Widen loosens a filter that found nothing, one constraint at a time,
// saying in words what it gave up. The package holds no state: every
// function and method is safe for concurrent use.
package when

import (
	"slices"
	"time"
)

// Calendar is what the parser knows about one conference. The zero Calendar
// works: UTC, no known days, rooms or tracks.
type Calendar struct {
	// Name starts the sentences of Parsed.Outside ("FOSSASIA Summit runs
	// from ..."); "The conference" when empty.
	Name string
	// Location is the conference's time zone; UTC when nil.
	Location *time.Location
	// Days are the conference days. Only the calendar date of each counts,
	// read in the time's own location, so midnight in Location and a date
	// parsed as UTC midnight both work (the latter also where a DST change
	// skips midnight); order and duplicates do not matter.
	Days []time.Time
	// Rooms are room names as the programme writes them, such as
	// "Einstein (Floor 2)", "Hall 1" or "Room B".
	Rooms []string
	// Tracks are track names, such as "DevOps" or "Security and Privacy".
	Tracks []string
	// Landmarks are the sessions attendees place themselves by: keynotes
	// (their titles with the word "keynote") and breaks, for "after the
	// keynote" or "during the coffee break".
	Landmarks []Landmark
	// Venue is where the conference is held, as its record says.
	Venue string
	// Opening and Closing are the programme's first session (by start)
	// and its last (by end); zero when no session has times.
	Opening, Closing Landmark
	// LastTalk is the last session (by end) of a talk's format (talk,
	// keynote, panel, workshop), when a social event or tour ("other")
	// ends the programme after it: what attendees mean by its end.
	LastTalk Landmark
	// Hours are each programme day's first start and last end, in order.
	Hours []Span
	// Uses, when set, is in how many of the programme's sessions (titles,
	// descriptions, facets) a word occurs: a room's first word that two or
	// more sessions use for their topic ("quay" of "Quay Lab" at a port
	// conference) does not name the room on its own.
	Uses func(word string) int
}

// Uses counts, for each word, the texts it occurs in (see Calendar.Uses).
func Uses(texts []string) func(word string) int {
	n := map[string]int{}
	for _, t := range texts {
		seen := map[string]bool{}
		for _, w := range wordsOf(t) {
			if !seen[w] {
				seen[w] = true
				n[w]++
			}
		}
	}
	return func(w string) int { return n[w] }
}

// Span is a stretch of time, From to To.
type Span struct{ From, To time.Time }

// conf is a Calendar made ready for use: a location that is never nil and
// the conference days as sorted, distinct UTC-midnight dates.
type conf struct {
	name      string
	loc       *time.Location
	days      []time.Time
	landmarks []Landmark
}

func (cal Calendar) conf() conf {
	c := conf{name: cal.Name, loc: cal.Location}
	if c.name == "" {
		c.name = "The conference"
	}
	if c.loc == nil {
		c.loc = time.UTC
	}
	for _, d := range cal.Days {
		c.days = append(c.days, civil(d))
	}
	slices.SortFunc(c.days, func(a, b time.Time) int { return a.Compare(b) })
	c.days = slices.Compact(c.days)
	c.landmarks = cal.Landmarks
	return c
}

// civil returns t's calendar date, read in t's own location, as UTC midnight.
// Dates are kept this way so that day arithmetic never meets a DST change.
func civil(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// today returns the conference's local date at instant now.
func (c conf) today(now time.Time) time.Time { return civil(now.In(c.loc)) }

// at returns the instant min minutes after local midnight of date d, built
// with time.Date so that a window spans the real local day across a DST
// change; min 1440 is the next local midnight. Where a DST change skips
// midnight itself (America/Santiago), a day starts at the change.
func (c conf) at(d time.Time, min int) time.Time {
	t := time.Date(d.Year(), d.Month(), d.Day(), 0, min, 0, 0, c.loc)
	if min%1440 == 0 && c.today(t).Before(d.AddDate(0, 0, min/1440)) {
		if _, change := t.ZoneBounds(); !change.IsZero() {
			return change
		}
	}
	return t
}

// isDay reports whether date d is a conference day.
func (c conf) isDay(d time.Time) bool {
	_, ok := slices.BinarySearchFunc(c.days, d, func(a, b time.Time) int { return a.Compare(b) })
	return ok
}

// after returns the first conference day after date d.
func (c conf) after(d time.Time) (time.Time, bool) {
	for _, x := range c.days {
		if x.After(d) {
			return x, true
		}
	}
	return time.Time{}, false
}

// nearest returns the conference day satisfying ok that is nearest to date
// from, preferring days on or after it.
func (c conf) nearest(from time.Time, ok func(time.Time) bool) (time.Time, bool) {
	var past time.Time
	for _, d := range c.days {
		switch {
		case !ok(d):
		case !d.Before(from):
			return d, true
		default:
			past = d
		}
	}
	return past, !past.IsZero()
}

// clockOf returns the local date of instant t and its minutes after that
// day's midnight on the wall clock. A day's first instant is minute 0 even
// where a DST change skips midnight; with end set, it is minute 1440 of the
// day before.
func (c conf) clockOf(t time.Time, end bool) (time.Time, int) {
	d := c.today(t)
	switch {
	case !c.at(d, 0).Equal(t):
	case end:
		return d.AddDate(0, 0, -1), 1440
	default:
		return d, 0
	}
	l := t.In(c.loc)
	return d, l.Hour()*60 + l.Minute()
}
