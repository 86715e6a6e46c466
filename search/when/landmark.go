package when

import (
	"regexp"
	"time"
)

// Span is a session's time: where a question can place itself relative to
// it ("after the keynote").
type Span struct{ Start, End time.Time }

var reKeynoteRel = regexp.MustCompile(`(?:\b(?P<soon>right|just|straight|immediately|shortly)\s+)?\b(?P<rel>after|following|before)\s+(?:the\s+|this\s+|today'?s\s+)?(?:(?:opening|closing|morning|afternoon|main)\s+)?keynote(?:\s+(?:talk|session|speech))?\b`)

// keynoteRel records "after the keynote" and "before the keynote" as a time
// of the day of a keynote: the one named ("after the keynote on day 2": its
// first keynote) or today's, that still to come or under way, else its
// last; "straight after" it is the first slot then. A day with no keynote
// leaves the words as they are.
func (p *found) keynoteRel(m match) bool {
	day, phrase := p.today, "today"
	if len(p.days) > 0 {
		day, phrase = p.days[0].first, ""
	}
	k, ok := p.keynoteOn(day, phrase == "today")
	if !ok {
		return false
	}
	if phrase != "" {
		p.relDay(day, phrase)
	}
	start, end := p.minutesOf(k.Start), p.minutesOf(k.End)
	if m.group("rel") == "before" {
		return p.addClock(0, start, "before the keynote ("+hhmm(start)+")")
	}
	p.first = p.first || m.group("soon") != ""
	return p.addClock(end, 1440, "after the keynote ("+hhmm(end)+")")
}

// keynoteOn returns the keynote of a day: when the day is today, the first
// not yet over at the moment of the question, else the last; on another
// day, the first.
func (p *found) keynoteOn(day time.Time, today bool) (Span, bool) {
	var on []Span
	for _, k := range p.c.keynotes {
		if p.c.today(k.Start).Equal(day) {
			on = append(on, k)
		}
	}
	if len(on) == 0 {
		return Span{}, false
	}
	if !today {
		return on[0], true
	}
	for _, k := range on {
		if k.End.After(p.now) {
			return k, true
		}
	}
	return on[len(on)-1], true
}

// minutesOf is t in minutes after local midnight.
func (p *found) minutesOf(t time.Time) int {
	l := t.In(p.c.loc)
	return l.Hour()*60 + l.Minute()
}
