package when

import (
	"regexp"
	"slices"
	"strings"
)

// tm is a clock time ("3pm", "15:00", "10.30 a.m.", "noon", "half past
// two", "quarter to 4"); p prefixes its group names so that one pattern can
// hold two.
func tm(p string) string {
	return `(?:\b(?P<` + p + `h>\d{1,2})(?:(?P<` + p + `s>[:.h])(?P<` + p + `m>\d{2}))?` +
		`(?:\s*(?P<` + p + `ap>am|pm|o'clock|o’clock)\b|\s*(?P<` + p + `dot>a\.m\.|p\.m\.)|-?ish\b|\b)` +
		`|\b(?P<` + p + `n>noon|midday|midnight)\b` +
		`|\b(?:a\s+)?(?P<` + p + `q>half|quarter)\s+(?P<` + p + `d>past|to)\s+(?P<` + p + `w>` + strings.Join(hourWords, "|") + `|\d{1,2})\b)`
}

// hourWords are the hours written as words, for "half past two".
var hourWords = []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// hourNumber reads an hour written as a word or in digits.
func hourNumber(s string) int {
	if i := slices.Index(hourWords, s); i >= 0 {
		return i + 1
	}
	return atoi(s)
}

var (
	reParts   = regexp.MustCompile(`(?:\b(?:for\s+)?(?P<rest>the\s+rest)\s+of\s+)?(?:\b(?:in|during|on|for|over|of)\s+)?(?:\b(?P<the>the|this)\s+)?(?:\b(?P<half>early|late)[\s-]+)?\b(?P<part>morning|afternoon|arvo|evening)s?\b(?:\s+slots?\b)?`)
	reNight   = regexp.MustCompile(`\b(?:at|in\s+the|during\s+the)\s+night\b`)
	reLunch   = regexp.MustCompile(`(?:\b(?:over|during|at|around|for|in)\s+)?(?:\bthe\s+)?\blunch\s*(?:time|break)s?\b|\b(?:over|during|at|around)\s+lunch\b`)
	reByLunch = regexp.MustCompile(`(?:\b(?P<soon>right|just|straight|immediately|shortly)\s+)?\b(?P<cue>after|before)\s+(?:the\s+)?lunch(?:\s*(?:time|break))?\b`)
	reRange   = regexp.MustCompile(`(?:\b(?P<cue>between|from)\s+)?` + tm("a") + `\s*(?:and|to|till|until|-|–)\s*` + tm("b"))
	reAfter   = regexp.MustCompile(`(?:\b(?:right|just|straight|immediately|shortly)\s+)?\b(?P<cue>after|from|since|starting\s+at|starting\s+from|starting|later\s+than|past)\s+` + roughly + tm("a"))
	reBefore  = regexp.MustCompile(`(?:\b(?:right|just|straight|immediately|shortly)\s+)?\b(?:before|until|till|til|up\s+until|earlier\s+than|no\s+later\s+than)\s+` + roughly + tm("a"))
	reAround  = regexp.MustCompile(`(?:\b(?P<at>at)\s+)?\b(?P<cue>around|about|approximately|approx\.?|roughly|circa)\s*` + tm("a"))
	reLeave   = regexp.MustCompile(`\b(?:leave|leaving|head\s+off|heading\s+off)\b(?:\s+(?:here|early|the\s+venue|the\s+conference))?(?:\s+(?:for|to)\s+(?:my|the|a|our)\s+\w+)?\s+(?:at|by|around|about)\s+` + tm("a") +
		`|\b(?:before|until|till)\s+(?:my|our|the)\s+(?:\w+\s+)?(?:flight|train|bus|plane|ferry|meeting|call|appointment)s?\s+(?:(?:is|leaves|departs|starts)\s+)?(?:at|around|about)\s+` + tm("a") +
		`|\b(?:before|until|till)\s+(?:my|our|the)\s+` + tm("a") + `\s+(?:\w+\s+)?(?:flight|train|bus|plane|ferry|meeting|call|appointment)s?\b` +
		`|\b(?:my|our)\s+(?:\w+\s+)?(?:flight|train|bus|plane|ferry)(?:(?:'|’)s|\s+is|\s+leaves|\s+departs|\s+goes)?\s+(?:at|around|about)\s+` + tm("a") +
		`|(?:\b(?:i|we)(?:(?:'|’)ve|\s+have)?\s+got\s+)?\b(?:a|an|my|our|the)\s+(?:` + tm("a") + `)\s+(?:flight|train|bus|plane|ferry)\b` +
		`(?:\s+(?:home|(?:out\s+of|from|to|back\s+to|back\s+home\s+to)\s+\w+))?`)
	// reArrive is when the attendee gets there ("should reach by 10:15ish",
	// "I'll be there around 2pm"): from then on.
	reArrive = regexp.MustCompile(`\b(?:reach(?:ing)?|arriv(?:e|ing)|get(?:ting)?\s+(?:there|here|in|to\s+the\s+(?:venue|conference|centre|center))|be\s+(?:there|here|in)|mak(?:e|ing)\s+it(?:\s+(?:there|in))?|turn(?:ing)?\s+up|show(?:ing)?\s+up)\s+(?:by|at|around|about|for)\s+` + roughly + tm("a"))
	reAt     = regexp.MustCompile(`(?:\bat\s+|@\s*)` + tm("a"))
	reBare   = regexp.MustCompile(tm("a"))
)

// eventNouns after "the morning", "the evening" make it the name of an
// event ("the evening reception", "the morning run"), not a time.
var eventNouns = []string{"reception", "dinner", "party", "gig", "show", "drinks", "social", "mixer", "tour", "concert", "gala", "run", "walk", "swim", "yoga", "meetup", "cruise"}

// roughly is a hedge between a bound and its time ("until about 1pm").
const roughly = `(?:(?:about|around|approximately|roughly)\s+)?`

// The slack of "at 3pm" and "around 10", in minutes either side.
const (
	atSlack     = 15
	aroundSlack = 45
)

// part records "morning", "this afternoon", "in the evening"; "good
// morning" is a greeting, not a time, and "in the mornings" any day's.
func (p *found) part(m match) bool {
	if prevWord(m) == "good" && m.group("the") == "" || m.group("the") == "the" && slices.Contains(eventNouns, nextWord(m)) {
		return false // "the evening reception" names an event
	}
	if p.placedAt > 0 && p.placedAt <= m.idx[0] && m.group("the") == "this" && blank(m.s.text[p.placedAt:m.idx[0]]) {
		return true // "until the boat tour this evening": when the landmark is, not a window
	}
	for _, x := range parts {
		if x.name == m.group("part") {
			p.parts = append(p.parts, halfOf(span{x.lo, x.hi}, m.group("half")))
		}
	}
	plural := strings.HasSuffix(strings.TrimSpace(string(m.s.text[m.idx[0]:m.idx[1]])), "s")
	p.later = p.later || m.group("rest") != "" // "the rest of this morning": from now
	switch {
	case m.group("the") == "this":
		p.relDay(p.today, "today")
	case m.group("the") == "", plural:
		p.bareParts = true // "morning yoga", "in the mornings": a kind of time, not this morning
	}
	return true
}

// blank reports whether text holds only spaces and consumed bytes.
func blank(text []byte) bool {
	for _, b := range text {
		if b != ' ' && b != mask {
			return false
		}
	}
	return true
}

// halfOf is the early or late half of a part of the day ("late
// afternoon"), or the whole part.
func halfOf(s span, half string) span {
	mid := (s.lo + s.hi) / 2
	switch half {
	case "early":
		s.hi = mid
	case "late":
		s.lo = mid
	}
	return s
}

// night records "at night" as the evening.
func (p *found) night(match) bool {
	p.parts = append(p.parts, evening)
	return true
}

// lunch records "lunchtime", "over lunch": the programme's lunch that day
// when it lists one, else [11:30, 14:00).
func (p *found) lunch(match) bool {
	if k, ok := p.programmeLunch(); ok {
		lo, hi := p.minutes(k)
		p.not = append(p.not, k)
		return p.addClock(lo, hi, "during lunch ("+hhmm(lo)+"–"+hhmm(hi)+")")
	}
	p.parts = append(p.parts, span{11*60 + 30, 14 * 60})
	return true
}

// byLunch records "after lunch" (the afternoon once the lunch break is
// over; "straight after lunch" its first slot) and "before lunch" (the
// morning), by the programme's lunch that day when it lists one.
func (p *found) byLunch(m match) bool {
	before := m.group("cue") == "before"
	k, listed := p.programmeLunch()
	if !listed {
		usual := span{13 * 60, 17 * 60} // the afternoon once lunch is over
		if before {
			usual = span{6 * 60, 12 * 60} // the morning
		}
		p.parts = append(p.parts, usual)
		return true
	}
	lo, hi := p.minutes(k)
	switch {
	case before:
		return p.addClock(6*60, lo, "before lunch ("+hhmm(lo)+")")
	case hi < 17*60:
		p.first = p.first || m.group("soon") != ""
		return p.addClock(hi, 17*60, "after lunch ("+hhmm(hi)+")")
	}
	p.parts = append(p.parts, span{13 * 60, 17 * 60})
	return true
}

// programmeLunch is the session the programme calls lunch on the day named,
// or today when none is: its first that day.
func (p *found) programmeLunch() (Landmark, bool) {
	day, _ := p.landmarkDay()
	on := p.landmarksOn(day, []string{"lunch"}, "")
	if len(on) == 0 || !on[0].Start.Before(on[0].End) {
		return Landmark{}, false
	}
	return on[0], true
}

// clockTime is a time as the message says it.
type clockTime struct {
	h, m    int
	mer     string // "am" or "pm" when said
	literal bool   // a 24-hour time ("09:00", "15:00") or a name ("noon")
	said    bool   // unmistakably a time: am/pm, o'clock, hh:mm, or a name
}

// minutes reads the time: a bare hour from 1 to 7 is in the afternoon, one
// from 8 to 11 in the morning.
func (t clockTime) minutes() int {
	switch {
	case t.mer == "am":
		return (t.h%12)*60 + t.m
	case t.mer == "pm":
		return (t.h%12+12)*60 + t.m
	case !t.literal && t.h >= 1 && t.h <= 7:
		return (t.h+12)*60 + t.m
	}
	return t.h*60 + t.m
}

// readTime reads the clock time whose groups are prefixed p.
func readTime(m match, p string) (clockTime, bool) {
	switch m.group(p + "n") {
	case "noon", "midday":
		return clockTime{h: 12, literal: true, said: true}, true
	case "midnight":
		return clockTime{literal: true, said: true}, true
	}
	if q := m.group(p + "q"); q != "" { // "half past two", "quarter to four"
		t := clockTime{h: hourNumber(m.group(p + "w")), m: 30, said: true}
		if q == "quarter" {
			t.m = 15
		}
		if m.group(p+"d") == "to" {
			t.h, t.m = (t.h+10)%12+1, 60-t.m // "quarter to one" is 12:45
		}
		return t, t.h <= 12
	}
	hs, sep := m.group(p+"h"), m.group(p+"s")
	t := clockTime{h: atoi(hs), m: atoi(m.group(p + "m"))}
	t.mer = strings.ReplaceAll(m.group(p+"ap")+m.group(p+"dot"), ".", "")
	t.literal = t.mer == "" && (strings.HasPrefix(hs, "0") || t.h == 0 || t.h >= 13)
	t.said = t.mer != "" || sep == ":" || sep == "h"
	if t.mer == "am" || t.mer == "pm" {
		return t, t.h >= 1 && t.h <= 12 && t.m < 60
	}
	return t, t.m < 60 && (t.h < 24 || (t.h == 24 && t.m == 0))
}

// addClock records a clock constraint [lo, hi) and how it reads.
func (p *found) addClock(lo, hi int, words string) bool {
	p.clock = append(p.clock, span{max(lo, 0), min(hi, 1440)})
	p.clockWords = append(p.clockWords, words)
	return true
}

// between records "between 2 and 4 pm", "from 14:00 to 16:00", "2-4pm". Bare
// numbers need "between" or "from" before them.
func (p *found) between(m match) bool {
	a, okA := readTime(m, "a")
	b, okB := readTime(m, "b")
	if !okA || !okB || (m.group("cue") == "" && !a.said && !b.said) {
		return false
	}
	a, b = shareMeridiem(a, b)
	lo, hi := a.minutes(), b.minutes()
	if hi <= lo && b.mer == "" && !b.literal && hi < 720 {
		hi += 720
	}
	if hi == 0 {
		hi = 1440
	}
	if hi <= lo {
		return false
	}
	return p.addClock(lo, hi, hhmm(lo)+"–"+hhmm(hi))
}

// shareMeridiem lets one end of a range lend its am or pm to the other end,
// which said neither: "between 2 and 4 pm", "from 11am to 2".
func shareMeridiem(a, b clockTime) (clockTime, clockTime) {
	bare := func(t clockTime) bool { return t.mer == "" && !t.literal && t.h >= 1 && t.h <= 12 }
	if bare(a) && (b.mer == "am" || b.mer == "pm") {
		x := a
		x.mer = b.mer
		if x.minutes() < b.minutes() {
			a = x
		}
	}
	if bare(b) && (a.mer == "am" || a.mer == "pm") {
		x := b
		x.mer = a.mer
		if x.minutes() > a.minutes() {
			b = x
		}
	}
	return a, b
}

// after records "after 4", "from 4pm", "since 14:00"; "from", "since" and
// "past" need an unmistakable time.
func (p *found) after(m match) bool {
	t, ok := readTime(m, "a")
	cue := m.group("cue")
	if !ok || (!t.said && (cue == "from" || cue == "since" || cue == "past")) {
		return false
	}
	return p.addClock(t.minutes(), 1440, "after "+hhmm(t.minutes()))
}

// arrive records the time the attendee gets there: what starts from then.
func (p *found) arrive(m match) bool {
	t, ok := readTime(m, "a")
	if !ok {
		return false
	}
	p.arrives = true
	return p.addClock(t.minutes(), 1440, "from "+hhmm(t.minutes()))
}

// before records "before noon", "before 11", "until 3pm".
func (p *found) before(m match) bool {
	t, ok := readTime(m, "a")
	if !ok {
		return false
	}
	hi := t.minutes()
	if hi == 0 {
		hi = 1440 // before midnight
	}
	return p.addClock(0, hi, "before "+hhmm(hi))
}

// leave records "I have to leave at 3:15", "before my flight at 4", "my
// train's at 5": what is still to come before then.
func (p *found) leave(m match) bool {
	if !p.before(m) {
		return false
	}
	p.later = true
	return true
}

// around records "around 10" as 45 minutes either side; "about" needs "at"
// before it or an unmistakable time ("talks about 5 tools" is no time).
func (p *found) around(m match) bool {
	t, ok := readTime(m, "a")
	if !ok || (m.group("cue") == "about" && m.group("at") == "" && !t.said) {
		return false
	}
	c := t.minutes()
	return p.addClock(c-aroundSlack, c+aroundSlack, "around "+hhmm(c))
}

// at records "at 3pm", "at 15:00": on one day, the sessions running then
// or starting within 15 minutes of it; else those starting within 15
// minutes either side.
func (p *found) at(m match) bool {
	t, ok := readTime(m, "a")
	if !ok {
		return false
	}
	c := t.minutes()
	p.instant, p.atTime, p.atClock = c, true, len(p.clock)
	return p.addClock(c-atSlack, c+atSlack, "at "+hhmm(c))
}

// reBeforeLeaving is "before I leave" or "until we have to go", said of a
// time to leave already read ("a 1pm flight … what can I catch before I
// leave?").
var reBeforeLeaving = regexp.MustCompile(`\b(?:before|until|till)\s+(?:i|we)\s+(?:have\s+to\s+|need\s+to\s+|must\s+)?(?:leave|go|head\s+(?:off|out|home)|fly(?:\s+out)?)\b`)

// beforeLeaving takes "before I leave" out when a time to leave was read.
func (p *found) beforeLeaving(match) bool { return p.later && len(p.clock) > 0 }

// reBeforeThen is "before it" or "before then", pointing back at a time
// said earlier in the question ("a call at 1:30 … before it").
var reBeforeThen = regexp.MustCompile(`\b(?:before|until|till)\s+(?:it|then|that)\b`)

// reOnceThere points back at the time the attendee arrives ("whats on
// once I get there?", "anything when I arrive?"), said elsewhere.
var reOnceThere = regexp.MustCompile(`\b(?:once|when|after)\s+(?:i|we)(?:(?:'|’)m|\s+am|\s+are)?\s+(?:get\s+(?:there|here|in)|arrive|reach|there|here|in)\b|\b(?:by|from)\s+then\b`)

// onceThere consumes the words pointing back at the arrival.
func (p *found) onceThere(match) bool { return true }

// PointsBack reports whether text bounds a time by one said elsewhere
// ("… anything I can catch before then?", "whats on once I get there?"):
// the time it points back at belongs to the question even when said in a
// sentence of its own.
func PointsBack(text string) bool {
	t := strings.ToLower(text)
	return reBeforeThen.MatchString(t) || reOnceThere.MatchString(t)
}

// beforeThen turns the time said with "at" into the end of the window: "I've
// got a call at 1:30, which talks can I fit in before it?" asks for what ends
// by 13:30, not for what is on at 13:30. Without such a time the words stay.
func (p *found) beforeThen(match) bool {
	if !p.atTime {
		return false
	}
	p.clock = slices.Delete(p.clock, p.atClock, p.atClock+1)
	p.clockWords = slices.Delete(p.clockWords, p.atClock, p.atClock+1)
	p.atTime, p.later = false, true // the attendee's own engagement: what is still to come before it
	return p.addClock(0, p.instant, "before "+hhmm(p.instant))
}

// bareTime records a time said without a cue, when it is unmistakably one:
// "3pm", "15:00" (not "2.10", not "3").
func (p *found) bareTime(m match) bool {
	t, ok := readTime(m, "a")
	if !ok || !t.said || m.group("an") != "" {
		return false
	}
	return p.at(m)
}

// prevWord returns the word right before a match, if any.
func prevWord(m match) string {
	before := m.s.text[:m.idx[0]]
	j := len(before)
	for j > 0 && before[j-1] == ' ' {
		j--
	}
	i := j
	for i > 0 && before[i-1] >= 'a' && before[i-1] <= 'z' {
		i--
	}
	return string(before[i:j])
}
