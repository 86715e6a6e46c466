package when

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/conference"
)

var (
	reWithin    = regexp.MustCompile(`(?:\b(?:in|within|during|over|for)\s+)?(?:\bthe\s+)?\b(?:next|coming)\s+(?:(?P<n>\d{1,3}|an?|one|two|three|four|five|six|couple(?:\s+of)?|half(?:\s+an?)?)\s+)?(?P<unit>hours?|hrs?|minutes?|mins?|days?)\b`)
	reRestOfDay = regexp.MustCompile(`(?:\bfor\s+)?(?:\bthe\s+)?\brest\s+of\s+(?:the\s+day|today)\b`)
	reUpcoming  = regexp.MustCompile(`\b(?:upcoming|still\s+to\s+come|yet\s+to\s+come|from\s+now\s+on|(?:for\s+)?the\s+rest\s+of\s+the\s+(?:week|conference|event|summit|programme|program))\b`)
	reLater     = regexp.MustCompile(`\blater(?:\s+on)?\b`)
	reToCome    = regexp.MustCompile(`\bto\s+come\b[\s\x1f]*(?:[?.!,;]|$)`) // "is there still a panel to come today?"
	reLeft      = regexp.MustCompile(`\b(?:(?:still\s+)?(?:left|remaining)|still(?:\s+(?:going\s+on|going|on|running|happening|open))?)\b`)
	reCatch     = regexp.MustCompile(`\b(?:(?:i|we)\s+(?:can|could|might)|(?:can|could|might)\s+(?:i|we))\s+still\s+(?:catch|make|attend|get\s+to|see|join|go\s+to)\b`)
	reNow       = regexp.MustCompile(`\b(?:happening\s+(?:right\s+)?now|right\s+now|now|currently|at\s+the\s+moment|at\s+present|at\s+this\s+moment|in\s+progress|under\s*way|rn|atm|yet)\b`)
	reNext      = regexp.MustCompile(`\b(?:what(?:'|’)?s|what\s+is|what\s+comes)\s+(?:up\s+)?next\b|\b(?:what(?:'|’)?s|what\s+is|what\s+comes|anything)\s+(?:on\s+)?(?:right\s+|straight\s+)?after\s+(?:this|that)(?:\s+one)?\b|\b(?:right\s+|straight\s+)?after\s+(?:this|that)(?:\s+(?:one|talk|session|workshop|panel))?\s*[?.!]*\s*$|\b(?:up\s+next|next\s+up|coming\s+up(?:\s+next)?|(?:start|starting|starts|coming|begin|beginning|begins)\s+(?:soon|shortly)|(?:starting|starts|beginning|begins)\s+(?:right\s+)?now|(?:about|going)\s+to\s+(?:start|begin|kick\s+off)|soon|next)\b|\b(?:talks?|sessions?|workshops?|keynotes?|panels?|what(?:'|’)?s|anything|something)\s+(?:(?:is|are)\s+)?(?:starting|beginning)\s*[?.!]*\s*$`)
	// reBreakSaid is the attendee saying where they are in the day at the
	// start of a message ("Coffee break - what's next on AI?"): the clock
	// says when, so it is no filter and no topic.
	reBreakSaid = regexp.MustCompile(`^\s*(?:(?:on|at|in|during)\s+)?(?:(?:a|the|my)\s+)?(?:coffee\s+|tea\s+|lunch\s+)?(?:break|lunch)\s*(?:[-–—:,!.]|\.\.\.)`)
	// reFree is the attendee saying they are free: "a free slot", "a free
	// hour", or "free" right after the time it is said of ("the rest of the
	// afternoon free").
	reFree = regexp.MustCompile(`\bfree(?:\s+(?P<gap>slot|hour|half\s+hour|period|gap|moment))?\b`)
	// reClockSaid is the attendee telling the time ("it's almost ten",
	// "it's 3pm already"): the caller's clock says it, so it is no filter
	// and no topic.
	reClockSaid = regexp.MustCompile(`\bit(?:'|’)?s\s+(?P<hedge>(?:(?:almost|nearly|just|already|now|about|around|gone|past|after|before)\s+)*)(?:` + tm("a") + `|\b(?P<aw>` + strings.Join(hourWords, "|") + `)\b)(?:\s+(?:already|now))?`)
)

// within records "in the next 2 hours", "within the next 30 minutes", "in
// the next half hour", "over the next two days": a window from now, of at
// most a week.
func (p *found) withinStep(m match) bool {
	unit := time.Minute
	switch m.group("unit")[0] {
	case 'h':
		unit = time.Hour
	case 'd':
		unit = 24 * time.Hour
	}
	n := m.group("n")
	var d time.Duration
	switch {
	case n == "" || n == "a" || n == "an" || n == "one":
		d = unit
	case strings.HasPrefix(n, "half"):
		d = unit / 2
	case strings.HasPrefix(n, "couple"):
		d = 2 * unit
	default:
		k, err := strconv.Atoi(n)
		if err != nil {
			k = slices.Index(numberWords, n)
		}
		d = time.Duration(k) * unit
	}
	if d <= 0 || d > 7*24*time.Hour {
		return false
	}
	p.within = d
	return true
}

// withinWords says a window from now: "in the next hour", "in the next 2
// hours", "in the next 30 minutes".
func withinWords(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "in the next hour"
	case d == 24*time.Hour:
		return "in the next day"
	case d%(24*time.Hour) == 0:
		return "in the next " + strconv.Itoa(int(d/(24*time.Hour))) + " days"
	case d%time.Hour == 0:
		return "in the next " + strconv.Itoa(int(d/time.Hour)) + " hours"
	}
	return "in the next " + strconv.Itoa(int(d/time.Minute)) + " minutes"
}

// upcomingStep records "upcoming", "still to come": everything from now.
func (p *found) upcomingStep(match) bool {
	p.upcoming = true
	return true
}

// toComeStep records "… to come" of what is on ("is there still a panel to
// come?"), not of the attendee ("the best day for me to come").
func (p *found) toComeStep(m match) bool {
	if slices.Contains([]string{"me", "us", "i", "we", "you", "them", "want", "like", "able", "time"}, prevWord(m)) {
		return false
	}
	p.upcoming = true
	return true
}

// laterStep records "later" ("later today", "later this afternoon"):
// nothing before now.
func (p *found) laterStep(match) bool {
	p.later = true
	return true
}

// laterWord records a bare "later" where it asks what is on later: at
// the end of a clause ("any roundtable on the main stage later?"), before
// a part of the day (consumed before it), or after what asks for what is
// on ("anything later", "talks later today"). In a story it is not the
// time asked about: "and later maybe a hands-on session", "later this
// year".
func (p *found) laterWord(m match) bool {
	if nextWord(m) != "" && !slices.Contains(nowAfter, prevWord(m)) {
		return false
	}
	return p.laterStep(m)
}

// leftWords may follow "still on", "left" or "remaining" when they mean what
// has not ended yet ("anything left today?", "what's remaining this
// afternoon"); before any other word ("left of the stage", "still on the
// fence", "remaining budget") they do not.
var leftWords = append([]string{"today", "tonight", "this", "for", "to", "about"}, nextWords...)

// leftStep records "still on", "still going on", "left", "remaining": the
// sessions not ended yet, those running now included.
func (p *found) leftStep(m match) bool {
	if !slices.Contains(leftWords, nextWord(m)) {
		return false
	}
	p.left = true
	return true
}

// catchStep records "… I can still catch": what has not ended yet.
func (p *found) catchStep(match) bool {
	p.left = true
	return true
}

// nowStep records "now", "right now", "currently", "at the moment". A bare
// "now" is the time asked about only after what asks for what is on ("on
// now", "anything now", "happening now"), opening the message or in one
// that names a room or track ("what's in Room C6.1 now"): "how others
// word their treaties now" means nowadays.
func (p *found) nowStep(m match) bool {
	if string(m.s.text[m.idx[0]:m.idx[1]]) == "yet" && !askedYet(m) {
		return false
	}
	if bareNow[string(m.s.text[m.idx[0]:m.idx[1]])] && m.idx[0] > 0 && !slices.Contains(nowAfter, prevWord(m)) && len(p.rooms)+len(p.tracks) == 0 {
		return false
	}
	p.ongoing = true
	return true
}

// askedYet reports whether "yet" asks whether something has begun: "is
// there coffee yet?", "is registration open yet" (what is on now), where it
// ends the question; not "not yet", "I haven't decided yet" or "yet another
// RAG talk".
func askedYet(m match) bool {
	after := strings.TrimSpace(string(m.s.text[m.idx[1]:]))
	if after != "" && !strings.ContainsAny(after[:1], "?!.") {
		return false
	}
	before := string(m.s.text[:m.idx[0]])
	return !negated.MatchString(before[strings.LastIndexAny(before, ".!?")+1:])
}

// negated is a sentence that says no: "not", "n't", "never".
var negated = regexp.MustCompile(`\bnot\b|n['’]t\b|\b(?:dont|didnt|havent|hasnt|isnt|arent|wont|cant|never|no)\b`)

// bareNow are "now" and how chat writes it ("rn", "atm"), which ask what is
// on now only after asking for it ("an atm" is a cash machine).
var bareNow = map[string]bool{"now": true, "rn": true, "atm": true}

// nowAfter are the words after which a bare "now" asks what is on now.
var nowAfter = []string{"on", "happening", "running", "going", "there", "anything", "something", "available", "open",
	"is", "are", "s", "talks", "talk", "sessions", "session", "workshops", "workshop", "keynotes", "keynote", "panels", "panel",
	"live", "here", "what", "whats", "me", "just"} // "starting now" is what's next

// nextWords are the words after a bare "next" that make it "what's next"
// ("next talk", "next in Hall 1", "next?"); before any other word ("next
// quarter", "next steps") it is not about the programme.
var nextWords = []string{"", "talk", "talks", "session", "sessions", "slot", "one", "ones", "up", "in", "on", "at", "here",
	"keynote", "keynotes", "workshop", "workshops", "panel", "panels", "thing", "item", "event", "presentation"}

// reFirst is "first thing tomorrow", "first thing in the morning": the
// earliest slot of its day.
var reFirst = regexp.MustCompile(`\bfirst\s+thing\b(?:\s+in\s+the\s+morning\b)?`)

// firstStep records the earliest slot.
func (p *found) firstStep(match) bool {
	p.first = true
	return true
}

// reLast is "the last talk", "the final session of the day", "the last
// workshop": the latest slot ("last day", "last year" are not).
var reLast = regexp.MustCompile(`(?:\bthe\s+)?(?:\bvery\s+)?\b(?:last|final)\s+(?:(?:talk|session|thing|event|one|item|slot|presentation)s?\b|(?P<f>workshop|tutorial|panel|keynote)s?\b)(?:\s+of\s+the\s+day\b)?`)

// lastStep records the latest slot, and the format it names.
func (p *found) lastStep(m match) bool {
	p.last = true
	if m.group("f") != "" {
		p.format(m)
	}
	return true
}

// reOpening is "the opening keynote", "the closing session": the
// conference's first or last slot of that kind (after the landmarks, which
// read "after the opening keynote").
var reOpening = regexp.MustCompile(`(?:\bthe\s+)?\b(?P<end>opening|closing)\s+(?:(?P<f>keynote|panel)s?|plenary|session|talk|address|remarks|ceremony)\b`)

// openingStep records the conference's first or last slot, and the format
// it names.
func (p *found) openingStep(m match) bool {
	p.whole = true
	if m.group("end") == "closing" {
		p.last = true
	} else {
		p.first = true
	}
	if m.group("f") != "" {
		p.format(m)
	}
	return true
}

// reFreeFor is how long the attendee has ("I've got 30 min before a call",
// "I have an hour to kill"): from now for that long, unless a day or a part
// of one is named ("2 hours free tomorrow afternoon" is that afternoon).
var reFreeFor = regexp.MustCompile(`\b(?:(?:i|we)(?:(?:'|’)ve|\s+have)?\s+(?:got\s+)?|(?:i|we)\s+have\s+|have\s+|got\s+)(?:only\s+|just\s+|about\s+|around\s+)?(?P<n>\d{1,3}|an?|one|two|three|half\s+an?)\s*(?P<unit>hours?|hrs?|minutes?|mins?)\b(?:\s+(?:free|spare|to\s+kill|to\s+spare|left)\b|\s+before\s+(?:a|an|my|our|the)\s+(?:\w+\s+)?(?:call|meeting|flight|train|bus|appointment)\b|\s*[,.;!?]|\s*$)`)

// freeFor records how long the attendee has, from now (see reFreeFor).
func (p *found) freeFor(m match) bool {
	if len(p.days) > 0 || len(p.parts) > 0 || len(p.clock) > 0 {
		return true
	}
	return p.withinStep(m)
}

// reDayBounds asks when a day's programme starts or ends: "when does
// everything wrap up today?", "what time do things kick off tomorrow?".
var reDayBounds = regexp.MustCompile(`\b(?:everything|things|it\s+all|the\s+day|the\s+programme|the\s+program|the\s+sessions)\s+(?:(?P<end>wrap(?:s)?\s+up|end(?:s)?|finish(?:es)?|close(?:s)?)|start(?:s)?|begin(?:s)?|kick(?:s)?\s+off|get(?:s)?\s+going)\b`)

// dayBounds records the first or last slot of the day named; without a
// day, the question is about the conference itself (see About).
func (p *found) dayBounds(m match) bool {
	if len(p.days) == 0 {
		return false
	}
	if m.group("end") != "" {
		p.last = true
	} else {
		p.first = true
	}
	return true
}

// nextStep records "what's next", "next", "coming up", "up next",
// "starting soon" ("next week" and "next to" are not).
func (p *found) nextStep(m match) bool {
	if p.upcoming { // "still coming up for the rest of the week": all of it
		return true
	}
	if string(m.s.text[m.idx[0]:m.idx[1]]) == "next" && !slices.Contains(nextWords, nextWord(m)) {
		return false
	}
	p.next = true
	return true
}

var reFormat = regexp.MustCompile(`\b(?:hands[\s-]*on\s+)?(?P<f>workshops?|tutorials?|hands[\s-]*on|(?:panels?|round[\s-]?tables?|debates?)(?:\s+discus{1,2}ions?)?|keynotes?)\b(?:\s+(?:talks?|sessions?|presentations?|speech(?:es)?|discussions?|events?)\b)?`)

// format records "workshops", "hands-on", "tutorials" (workshop), "panel
// discussion", "roundtable", "debate" (panel) and "keynotes" (keynote),
// with a generic word after them ("keynote talk"). "Talk" and "session"
// alone are no format, and one offered beside them ("talks or workshops")
// asks for any.
func (p *found) format(m match) bool {
	if orGeneric.Match(m.s.text[:m.idx[0]]) || genericOr.Match(m.s.text[m.idx[1]:]) {
		return true
	}
	f := conference.FormatWorkshop
	switch w := m.group("f"); {
	case w[0] == 'p', w[0] == 'd', strings.HasPrefix(w, "round"):
		f = conference.FormatPanel
	case w[0] == 'k':
		f = conference.FormatKeynote
	}
	p.formats = addOnce(p.formats, f)
	return true
}

// orGeneric and genericOr find a generic word for sessions offered beside
// a format: "talks or workshops", "workshops and other sessions".
var (
	orGeneric = regexp.MustCompile(`\b(?:talks?|sessions?|presentations?|lectures?|events?)\s*(?:,|\bor\b|\band\b|\band/or\b|&|/)\s*$`)
	genericOr = regexp.MustCompile(`^\s*(?:,|\bor\b|\band\b|\band/or\b|&|/)\s*(?:other\s+|regular\s+)?(?:talks?|sessions?|presentations?|lectures?|events?)\b`)
)

// step is one pattern and what a match of it records; a step returning
// false leaves the match in the message.
type step struct {
	re *regexp.Regexp
	fn func(p *found, m match) bool
}

// reThisYear is the conference's own edition ("the keynotes this year",
// "this year's workshops"): the whole programme, no window.
var reThisYear = regexp.MustCompile(`\b(?:this|the\s+current)\s+year(?:'s|’s)?\b`)

// thisYear takes "this year" out of the topic and constrains nothing;
// after a word that places something in the year ("later this year", "by
// the end of this year") it is the attendee's own plan and stays.
func (p *found) thisYear(m match) bool { return !slices.Contains(inTheYear, prevWord(m)) }

// inTheYear are the words before "this year" that place a plan in it.
var inTheYear = []string{"later", "earlier", "of", "by", "until", "till", "since", "throughout", "in"}

// steps run in order: longer and more specific expressions first, so that
// "the day after tomorrow" is not read as "tomorrow", nor "next Friday" as
// "what's next".
var steps = []step{
	{reBreakSaid, (*found).said},
	{reClockSaid, (*found).clockSaid},
	{reWithin, (*found).withinStep},
	{reThisYear, (*found).thisYear},
	{reRestOfDay, (*found).laterStep}, // "the rest of the day" is later today
	{reDayAfter, (*found).dayAfterTomorrow},
	{reWeekend, (*found).weekend},
	{reDayN, (*found).dayN},
	{reISO, (*found).dateStep},
	{reDayMonth, (*found).dateStep},
	{reMonthDay, (*found).dateStep},
	{reNumeric, (*found).numeric},
	{reOrdinal, (*found).ordinal},
	{reWeekday, (*found).weekday},
	{reWeekAbbr, (*found).weekday},
	{reRelDay, (*found).relDayStep},
	{reSameDay, (*found).sameDay},
	{reLandmark, (*found).landmarkRel}, // before "after" reads a clock and "keynote" a format
	{reLandmarkEnds, (*found).landmarkRel},
	{reLandmarkNamed, (*found).landmarkNamed},
	{reParts, (*found).part},
	{reNight, (*found).night},
	{reByLunch, (*found).byLunch},
	{reLunch, (*found).lunch},
	{reRange, (*found).between},
	{reAfter, (*found).after},
	{reBefore, (*found).before},
	{reLeave, (*found).leave}, // "I have to leave for my train at 3:15", "before my flight at 4": from now until then
	{reArrive, (*found).arrive},
	{reAround, (*found).around},
	{reAt, (*found).at},
	{reBare, (*found).bareTime},
	{reBeforeThen, (*found).beforeThen}, // after the time it points back at
	{reBeforeLeaving, (*found).beforeLeaving},
	{reOnceThere, (*found).onceThere},
	{reUpcoming, (*found).upcomingStep},
	{reToCome, (*found).toComeStep},
	{reCatch, (*found).catchStep},
	{reLeft, (*found).leftStep},
	{reLater, (*found).laterWord},
	{reNow, (*found).nowStep},
	{reOpening, (*found).openingStep},
	{reDayBounds, (*found).dayBounds},
	{reFreeFor, (*found).freeFor},
	{reLast, (*found).lastStep},
	{reFirst, (*found).firstStep},
	{reNext, (*found).nextStep},
	{reFormat, (*found).format},
	{reFree, (*found).free},
}

// said takes out what the attendee tells about their day: it filters
// nothing.
func (p *found) said(match) bool { return true }

// clockSaid takes the attendee telling the time out of the message: a time
// hedged ("it's almost ten") or unmistakably one ("it's 3pm", "it's
// 10:30"); "it's 2 days away" tells none.
func (p *found) clockSaid(m match) bool {
	return m.group("hedge") != "" || m.group("as") != "" || m.group("ap") != "" || m.group("adot") != "" || m.group("an") != ""
}

// free takes "free" out when it says the attendee has time, not what they
// look for ("free software"): before a gap in the day, or right beside a
// time already read ("the afternoon free", "free after lunch"). Free until
// a time is free from now ("I'm free till 3": not the morning's talks).
func (p *found) free(m match) bool {
	if m.group("gap") != "" {
		return true
	}
	before := bytes.TrimRight(m.s.text[:m.idx[0]], " ")
	after := bytes.TrimLeft(m.s.text[m.idx[1]:], " ")
	beside := len(before) > 0 && before[len(before)-1] == mask || len(after) > 0 && after[0] == mask
	p.later = p.later || beside && len(p.clock) > 0
	return beside
}
