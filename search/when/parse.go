package when

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// Parsed is what Parse found in a message.
type Parsed struct {
	// Filter holds the constraints found; zero when none were.
	Filter Filter
	// Rest is the message without the recognised expressions, white space
	// tidied: the topic to search. It is the message unchanged when nothing
	// was recognised, and never longer than the message.
	Rest string
	// Outside is one plain sentence when the message names a day outside the
	// conference ("The conference runs from Fri 17 to Sun 19 March; Monday
	// 20 March is after it."), and "" otherwise. The Filter then selects
	// that day, so a search finds nothing rather than everything.
	Outside string
}

// Parse reads the time, place and format constraints of an English
// question, evaluated at instant now (in any zone) in the conference's time
// zone. It never panics; a message with nothing it recognises gives a zero
// Filter and the message as Rest.
//
// It recognises, ignoring case:
//   - days: today, tomorrow, yesterday, tonight, the day after tomorrow,
//     weekdays ("on Friday", "next fri"), "day 2", "the second day", "the
//     last day", dates ("18 March", "March 18th", "the 18th", "2026-10-21",
//     and "21/10" or "10/21" when exactly one reading is a conference day),
//     "this weekend". A weekday or date is the nearest conference day that
//     matches, on or after today when there is one; else the nearest
//     matching date, with Outside set;
//   - parts of the day: morning [06:00, 12:00), afternoon [12:00, 17:00),
//     evening or night [17:00, 24:00), lunchtime [11:30, 14:00). Without a
//     day, a time of day is today's while today is a conference day and it
//     has not ended, else the next conference day's; said bare ("morning
//     yoga") or once the conference is over, it sets no window (any day's
//     morning will do);
//   - clock times: "at 3pm" (15 minutes either side), "around 10" (45),
//     "after 4", "before noon", "between 2 and 4 pm", "from 14:00 to 16:00".
//     A bare hour from 1 to 7 is pm, from 8 to 11 am;
//   - now ("right now", "currently", "at the moment"), what's next ("up
//     next", "coming up", "starting soon"), "later today", "upcoming", "in
//     the next 2 hours";
//   - rooms, by full name or distinctive leading words ("in Einstein",
//     "room b"); a plain word ("lab", "studio") only after a cue ("in the");
//   - tracks, only next to the word "track" ("the devops track") or in full
//     inside quotes;
//   - formats: workshop, hands-on, tutorial (workshop); panel; keynote.
//
// Several days make one window from the first to the last; a time of day
// then runs from its start on the first day to its end on the last.
func Parse(message string, now time.Time, cal Calendar) Parsed {
	except, rest, ok := turnedDown(message, now, cal)
	if !ok {
		return parse(message, now, cal)
	}
	p := parse(rest, now, cal)
	p.Filter.Except = except
	p.Filter.Label = butNot(p.Filter.Label, except)
	return p
}

func parse(message string, now time.Time, cal Calendar) Parsed {
	c := cal.conf()
	p := &found{now: now, c: c, today: c.today(now)}
	s := newScan(message)
	p.rooms = matchRooms(s, cal.Rooms, cal.Uses)
	p.tracks = matchTracks(s, cal.Tracks)
	for _, step := range steps {
		s.each(step.re, func(m match) bool { return step.fn(p, m) })
	}
	rest := s.rest()
	p.bareParts = p.bareParts && topical(rest) // "morning yoga", but "what's on this morning"
	return Parsed{Filter: p.filter(), Rest: rest, Outside: p.outside}
}

// topical reports whether text has a word besides the asking ("what's on",
// "anything happening").
func topical(text string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if len(w) > 2 && !asking[w] {
			return true
		}
	}
	return false
}

var asking = map[string]bool{"what": true, "whats": true, "there": true, "anything": true, "any": true, "happening": true,
	"going": true, "good": true, "something": true, "else": true, "the": true, "are": true, "for": true}

// found collects what the steps recognised in one message.
type found struct {
	now   time.Time
	c     conf
	today time.Time

	days       []dayRef
	parts      []span   // named parts of the day ("morning"), joined
	clock      []span   // clock constraints ("after 4pm"), intersected
	clockWords []string // how each clock constraint reads in a label
	within     time.Duration
	ongoing    bool
	next       bool
	last       bool // "the last talk": the latest slot
	first      bool // "first thing tomorrow": the earliest slot of the day
	whole      bool // "the opening keynote": first or last of the conference, not of today
	later      bool
	upcoming   bool
	left       bool // "still on", "anything left": not ended yet
	arrives    bool // the window opens when the attendee gets there: nothing started before it is still to catch
	instant    int  // the time of "at 3pm", in minutes after midnight
	atTime     bool // instant was said
	atClock    int  // where in clock the window around instant is

	rooms, tracks, formats []string
	not                    []Landmark // the landmark a window is said by ("during the break")
	placedAt               int        // where the words placing a time by a landmark end, 0 for none
	outside                string
	bareParts              bool // a part of the day named without "the" or "this"
}

// dayRef is one day (or a run of days) the message names.
type dayRef struct {
	first, last time.Time
	phrase      string // "today", "day 2", "this weekend"; "" for dates and weekdays
}

// span is a time of day, [lo, hi) in minutes after local midnight.
type span struct{ lo, hi int }

var wholeDay = span{0, 1440}

// addDay records a day (once) and, when it lies outside the conference,
// the sentence saying so (the first such sentence wins).
func (p *found) addDay(d dayRef, subject string) {
	if slices.Contains(p.days, d) {
		return
	}
	p.days = append(p.days, d)
	if p.outside == "" {
		p.outside = p.c.outside(subject, d.first, d.last)
	}
}

// relDay records a day named by a phrase ("tomorrow", "today").
func (p *found) relDay(d time.Time, phrase string) {
	p.addDay(dayRef{first: d, last: d, phrase: phrase}, phrase+" ("+short(d)+")")
}

// absDay records a day named by date or weekday.
func (p *found) absDay(d time.Time) { p.addDay(dayRef{first: d, last: d}, long(d)) }

// timeOfDay joins the named parts and intersects the clock constraints;
// when the two do not overlap, the clock wins. It reports whether the
// message gave any time of day.
func (p *found) timeOfDay() (span, bool) {
	t := wholeDay
	if len(p.parts) > 0 {
		t = p.parts[0]
		for _, x := range p.parts[1:] {
			t = span{min(t.lo, x.lo), max(t.hi, x.hi)}
		}
	}
	if len(p.clock) > 0 {
		c := wholeDay
		for _, x := range p.clock {
			c = span{max(c.lo, x.lo), min(c.hi, x.hi)}
		}
		if c.lo >= c.hi { // "after 5 before 3": the last one said
			c = p.clock[len(p.clock)-1]
		}
		if both := (span{max(t.lo, c.lo), min(t.hi, c.hi)}); both.lo < both.hi {
			c = both
		}
		t = c
	}
	return t, len(p.parts)+len(p.clock) > 0
}

// filter turns what was found into a Filter with its Label.
func (p *found) filter() Filter {
	f := Filter{Rooms: p.rooms, Tracks: p.tracks, Formats: p.formats, Not: p.not}
	f.Label = label(p.window(&f), f)
	return f
}

// relativeWord reports whether the message places its window relative to
// now or to the day's slots ("now", "next", "the last talk", "later",
// "still on").
func (p *found) relativeWord() bool {
	return p.ongoing || p.next || p.last || p.first || p.later || p.upcoming || p.left
}

// window sets the time constraint of f and returns how it reads.
func (p *found) window(f *Filter) string {
	if p.within > 0 {
		f.From, f.To, f.FromNow = p.now, p.now.Add(p.within), true
		return withinWords(p.within)
	}
	tod, timed := p.timeOfDay()
	relative := p.relativeWord()
	if len(p.days) == 0 && !timed {
		return p.relative(f)
	}
	if len(p.days) == 0 && !relative && (p.over() || p.bareParts && len(p.clock) == 0) {
		return "" // "morning yoga", or a time of day after the conference: any day's, so no window
	}
	first, last, phrase := p.dayRange(tod, relative)
	from, to := p.c.at(first, tod.lo), p.c.at(last, tod.hi)
	when := p.dayWords(first, last, phrase, tod)
	switch {
	case p.ongoing && !p.now.Before(from) && p.now.Before(to):
		f.Ongoing, f.From = true, p.now
		return "now"
	case p.next:
		f.Next, f.From, f.To = true, p.notBeforeNow(from, to), to
		return "next, " + when
	case p.last:
		f.Last, f.From, f.To = true, from, to
		return "the last slot of " + when
	case p.first:
		f.Next, f.From, f.To = true, from, to
		return "the first slot of " + when
	case p.left && !p.arrives:
		f.Ongoing, f.From, f.To = true, p.notBeforeNow(from, to), to
		if f.From.After(from) {
			return "the rest of " + when
		}
		return when
	case p.later || p.upcoming:
		f.From, f.To = p.notBeforeNow(from, to), to
		return "later " + when
	case p.atTime && len(p.clock) == 1 && first.Equal(last) && tod.lo <= p.instant && p.instant < tod.hi:
		f.Ongoing, f.From, f.To = true, p.c.at(first, p.instant), to // what is on then
		return when
	}
	f.From, f.To = from, to
	return when
}

// notBeforeNow moves the start of window [from, to) up to now, unless the
// window has ended ("later this morning" asked in the afternoon).
func (p *found) notBeforeNow(from, to time.Time) time.Time {
	if p.now.Before(to) {
		return latest(from, p.now)
	}
	return from
}

// relative sets a constraint that names no day or time of day: "now",
// "what's next", "later", "upcoming".
func (p *found) relative(f *Filter) string {
	today := func() { p.relDay(p.today, "today") }
	if p.over() && p.relativeWord() {
		today() // "what's next" once it is all over: today is after it
	}
	switch {
	case p.ongoing:
		today()
		f.Ongoing, f.From = true, p.now
		return "now"
	case p.next:
		f.Next, f.From = true, p.now
		return "next"
	case p.whole && (p.first || p.last) && len(p.c.days) > 0:
		f.From, f.To = p.c.at(p.c.days[0], 0), p.c.at(p.c.days[len(p.c.days)-1], 1440)
		if p.last {
			f.Last = true
			return "the last slot of the conference"
		}
		f.Next = true
		return "the first slot of the conference"
	case p.last:
		today()
		f.Last, f.From, f.To = true, p.c.at(p.today, 0), p.c.at(p.today, 1440)
		return "the last slot of today (" + short(p.today) + ")"
	case p.first:
		today()
		f.Next, f.From, f.To = true, p.c.at(p.today, 0), p.c.at(p.today, 1440)
		return "the first slot of today (" + short(p.today) + ")"
	case p.upcoming:
		f.From = p.now
		return "the rest of the conference"
	case p.left:
		today()
		f.Ongoing, f.From, f.To = true, p.now, p.c.at(p.today, 1440)
		return "the rest of today (" + short(p.today) + ")"
	case p.later:
		today()
		f.From, f.To = p.now, p.c.at(p.today, 1440)
		return "later today (" + short(p.today) + ")"
	}
	return ""
}

// dayRange returns the days the window covers and their phrase: the days
// the message named or, when it named none, the default day.
func (p *found) dayRange(tod span, relative bool) (first, last time.Time, phrase string) {
	if len(p.days) == 0 {
		p.defaultDay(tod, relative)
	}
	first, last = p.days[0].first, p.days[0].last
	for _, d := range p.days[1:] {
		first, last = earliest(first, d.first), latest(last, d.last)
	}
	if len(p.days) == 1 {
		phrase = p.days[0].phrase
	}
	return first, last, phrase
}

// over reports whether the conference has days and all of them are
// before today.
func (p *found) over() bool {
	n := len(p.c.days)
	return n > 0 && p.c.days[n-1].Before(p.today)
}

// defaultDay records the day of a time of day given without one: today
// when the question is relative to now; else today, when it is a conference
// day and that time has not ended, or else the next conference day. Without
// known conference days: today, or tomorrow once that time has ended.
func (p *found) defaultDay(tod span, relative bool) {
	t := p.today
	ended := !p.now.Before(p.c.at(t, tod.hi))
	switch {
	case relative || (p.c.isDay(t) && !ended):
	case len(p.c.days) == 0 && ended:
		t = t.AddDate(0, 0, 1)
	default:
		if d, ok := p.c.after(t); ok {
			t = d
		}
	}
	switch {
	case t.Equal(p.today):
		p.relDay(t, "today")
	case t.Equal(p.today.AddDate(0, 0, 1)):
		p.relDay(t, "tomorrow")
	default:
		p.absDay(t)
	}
}

// dayWords says a day and time of day for a label: "tomorrow morning (Wed
// 21 Oct)", "this afternoon (Tue 20 Oct)", "the morning of Thu 22 Oct".
func (p *found) dayWords(first, last time.Time, phrase string, tod span) string {
	part := partWords(tod.lo, tod.hi)
	if len(p.parts) == 0 && len(p.clockWords) == 1 {
		part = p.clockWords[0]
	}
	date := dateRange(first, last, "Jan")
	switch {
	case phrase == "":
		return withPart(date, part)
	case !slices.Contains(relPhrases, phrase):
		return withPart(phrase, part) + " (" + date + ")"
	case phrase == "tonight" && part == "the evening":
		part = ""
	case phrase == "today" && strings.HasPrefix(part, "the "):
		phrase = "this"
	}
	return strings.TrimSpace(phrase+" "+strings.TrimPrefix(part, "the ")) + " (" + date + ")"
}

// relPhrases go before a part of the day ("tomorrow morning"); other phrases
// take it after ("the morning of day 2").
var relPhrases = []string{"today", "tonight", "tomorrow", "yesterday", "this weekend"}

func latest(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earliest(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// addOnce appends s to list unless it is there already.
func addOnce(list []string, s ...string) []string {
	for _, x := range s {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}
