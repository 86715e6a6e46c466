package when

import (
	"regexp"
	"slices"
	"strings"
	"time"
)

// Landmark is a session attendees place themselves by ("after the
// keynote", "during the coffee break"): its title, time and format.
type Landmark struct {
	Title  string    `json:"title"`
	Start  time.Time `json:"start"`
	End    time.Time `json:"end"`
	Format string    `json:"format,omitempty"`
}

// reLandmark finds a time said relative to a keynote or a break in the
// programme; what names the kind of session.
var reLandmark = regexp.MustCompile(`(?:\b(?P<soon>right|just|straight|immediately|shortly)\s+)?\b(?P<rel>after|following|before|during)\s+(?:the\s+|(?P<this>this)\s+|today'?s\s+)?(?:(?P<qual>[a-z]+)\s+)?(?P<what>keynote|coffee\s+break|tea\s+break|break|reception)(?:\s+(?:talk|session|speech))?\b`)

// ordinalQualifiers place a landmark without naming it ("the opening
// keynote", "the afternoon break"): when no such session's title has the
// word, the day's sessions of the kind are chosen from as usual.
var ordinalQualifiers = []string{"opening", "closing", "morning", "afternoon", "main", "first", "next", "last", "final", "evening", "welcome"}

// landmarkRel records a time relative to the programme's session of that
// kind on the day named ("after the keynote on day 2": its first) or
// today (the first not over yet, else the last): after it, before it or
// during it; "straight after" is the first slot then. A day without such a
// session leaves the words as they are.
func (p *found) landmarkRel(m match) bool {
	day, phrase := p.today, "today"
	if len(p.days) > 0 {
		day, phrase = p.days[0].first, ""
	}
	what := strings.Join(strings.Fields(m.group("what")), " ")
	k, ok := p.landmarkOn(what, m.group("qual"), day, phrase == "today")
	if !ok {
		return false
	}
	if phrase != "" {
		p.relDay(day, phrase)
	}
	p.notTonight()
	_, start := p.c.clockOf(k.Start, false)
	_, end := p.c.clockOf(k.End, true)
	said := strings.TrimSpace(m.group("qual") + " " + what)
	switch m.group("rel") {
	case "before":
		return p.addClock(0, start, "before the "+said+" ("+hhmm(start)+")")
	case "during":
		p.not = append(p.not, k)
		return p.addClock(start, end, "during the "+said+" ("+hhmm(start)+"–"+hhmm(end)+")")
	}
	p.first = p.first || m.group("soon") != "" || m.group("this") != "" // "after this break": the next slot
	return p.addClock(end, 1440, "after the "+said+" ("+hhmm(end)+")")
}

// notTonight reads "tonight" said with a landmark ("before the reception
// tonight") as the day it places the landmark on, not as the evening the
// window must fall in.
func (p *found) notTonight() {
	for i, d := range p.days {
		if d.phrase == "tonight" {
			p.days[i].phrase = "today"
			p.parts = slices.DeleteFunc(p.parts, func(s span) bool { return s == evening })
		}
	}
}

// landmarkOn returns the session of a kind on a day: when the day is
// today, the first not yet over at the moment of the question, else the
// last; on another day, the first. A session is of the kind when its
// title has the kind's words ("Coffee Break & Exhibit Hall Opening" is a
// coffee break, "Afternoon Break" a break), and the qualifier's when one
// is said ("the climate keynote"); an ordinal one ("the opening keynote")
// may also only place it.
func (p *found) landmarkOn(what, qual string, day time.Time, today bool) (Landmark, bool) {
	on := p.landmarksOn(day, wordsOf(what), qual)
	if len(on) == 0 && slices.Contains(ordinalQualifiers, qual) {
		on = p.landmarksOn(day, wordsOf(what), "")
	}
	if len(on) == 0 {
		return Landmark{}, false
	}
	if !today {
		return on[0], true
	}
	if i := slices.IndexFunc(on, func(k Landmark) bool { return k.End.After(p.now) }); i >= 0 {
		return on[i], true
	}
	return on[len(on)-1], true
}

// landmarksOn are a day's sessions whose titles have the words, and the
// qualifier when one is given, by start: sorted here, when a message names
// one, not for every message.
func (p *found) landmarksOn(day time.Time, words []string, qual string) []Landmark {
	var on []Landmark
	for _, k := range p.c.landmarks {
		title := wordsOf(k.Title)
		if p.c.today(k.Start).Equal(day) && containsSeq(title, words) && (qual == "" || slices.Contains(title, qual)) {
			on = append(on, k)
		}
	}
	slices.SortFunc(on, func(a, b Landmark) int { return a.Start.Compare(b.Start) })
	return on
}
