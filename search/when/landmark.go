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
// programme ("after coffee" is after the coffee break); what names the kind
// of session.
var reLandmark = regexp.MustCompile(`(?:\b(?P<soon>right|just|straight|immediately|shortly)\s+)?\b(?P<rel>after|following|before|until|till|during)\s+(?:the\s+|(?P<this>this)\s+|today'?s\s+)?(?:(?P<qual>[a-z]+)\s+)?(?P<what>keynote|coffee(?:\s+break)?|tea(?:\s+break)?|break|reception)(?:\s+(?:talk|session|speech))?\b`)

// reLandmarkNamed finds a time said relative to another session of the
// programme's keynotes, breaks and social events by the words its title
// ends with ("until the boat tour" for "Harbour Boat Tour", "after the
// dinner" for "Conference Dinner").
var reLandmarkNamed = regexp.MustCompile(`(?:\b(?P<soon>right|just|straight|immediately|shortly)\s+)?\b(?P<rel>after|following|before|until|till|during)\s+(?:the\s+|(?P<this>this)\s+|today'?s\s+)(?P<what>[a-z]+(?:\s+[a-z]+)?)\b`)

// eventWords end titles of many kinds ("Welcome to the Conference") and
// phrases that name no session ("during the conference"), and lunch has
// its own reading (see lunch): none names a landmark by itself.
var eventWords = []string{"conference", "event", "summit", "congress", "forum", "show", "fair", "expo", "exhibition", "festival", "convention", "day", "days", "week", "weekend", "programme", "program", "session", "sessions", "talk", "talks", "lunch", "end", "start"}

// reLandmarkEnds finds the end of a keynote or a break said as an event
// ("once this keynote finishes", "when the break is over"): after it.
var reLandmarkEnds = regexp.MustCompile(`\b(?:once|as\s+soon\s+as)\s+(?:the\s+|(?P<this>this)\s+)?(?:(?P<qual>[a-z]+)\s+)?(?P<what>keynote|coffee\s+break|tea\s+break|break|reception)(?:\s+(?:talk|session|speech))?\s+(?:finishes|ends|is\s+over|is\s+done|wraps\s+up)\b`)

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
	what := strings.Join(strings.Fields(m.group("what")), " ")
	day, today := p.landmarkDay()
	k, ok := p.landmarkOn(what, m.group("qual"), day, today)
	if !ok {
		return false
	}
	return p.relativeTo(k, m, strings.TrimSpace(m.group("qual")+" "+what), day, today)
}

// landmarkNamed records a time relative to a keynote, break or social
// event of the day named by the last words of its title (see
// reLandmarkNamed); the first of them when those words are not its title.
func (p *found) landmarkNamed(m match) bool {
	words := wordsOf(m.group("what"))
	day, today := p.landmarkDay()
	for n := len(words); n >= 1; n-- {
		if slices.Contains(eventWords, words[n-1]) || slices.Contains(words[:n], "lunch") {
			continue
		}
		if k, ok := p.pickLandmark(p.landmarksTitled(day, words[:n]), today); ok {
			return p.relativeTo(k, m, strings.Join(words[:n], " "), day, today)
		}
	}
	return false
}

// landmarkDay is the day a landmark is looked for on: the first day named,
// else today.
func (p *found) landmarkDay() (time.Time, bool) {
	if len(p.days) > 0 {
		return p.days[0].first, false
	}
	return p.today, true
}

// minutes are a landmark's start and end in minutes after local midnight.
func (p *found) minutes(k Landmark) (start, end int) {
	_, start = p.c.clockOf(k.Start, false)
	_, end = p.c.clockOf(k.End, true)
	return start, end
}

// relativeTo records the window after, before or during landmark k.
func (p *found) relativeTo(k Landmark, m match, said string, day time.Time, today bool) bool {
	if today {
		p.relDay(day, "today")
	}
	p.notTonight()
	p.placedAt = m.idx[1]
	start, end := p.minutes(k)
	switch m.group("rel") { // none in reLandmarkEnds: after it
	case "before", "until", "till":
		p.later = p.later || today // before it today: what is still to come
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
	return p.pickLandmark(on, today)
}

// pickLandmark chooses among a day's landmarks of a kind: on another day the
// first; today the first not yet over, else the last.
func (p *found) pickLandmark(on []Landmark, today bool) (Landmark, bool) {
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

// landmarksTitled are a day's landmarks whose titles end or begin with
// words ("the boat tour": "Harbour Boat Tour"; "the drinks": "Drinks
// reception and awards"), by start.
func (p *found) landmarksTitled(day time.Time, words []string) []Landmark {
	var on []Landmark
	for _, k := range p.c.landmarks {
		head, whole := wordsOf(headOf(k.Title)), wordsOf(k.Title) // "Harbour Boat Tour: Rotterdam from the Water", "RoboMotion Night – Evening Party"
		if p.c.today(k.Start).Equal(day) && (endsOrStarts(head, words) || endsOrStarts(whole, words)) {
			on = append(on, k)
		}
	}
	slices.SortFunc(on, func(a, b Landmark) int { return a.Start.Compare(b.Start) })
	return on
}

// endsOrStarts reports whether title's words end or start with words.
func endsOrStarts(title, words []string) bool {
	return len(title) >= len(words) && (slices.Equal(title[len(title)-len(words):], words) || slices.Equal(title[:len(words)], words))
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
