package when

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/search/terms"
)

// Questions about the conference itself: when it runs, starts or ends, how
// long it lasts, where it is held. The programme's sessions cannot answer
// them; its record and calendar can.

var (
	// reSelf names the conference as the subject of a question: "the
	// conference", "this summit", "it all", "the whole thing", or "it"
	// when nothing else is named.
	reSelf  = regexp.MustCompile(`\b(?:(?:the|this|this\s+year(?:'|’)?s|your)\s+(?:whole\s+)?(?:conference|summit|congress|convention|symposium|forum|event|festival)|it\s+all|the\s+whole\s+thing|everything|things|it)\b`)
	reVenue = regexp.MustCompile(`\b(?:the\s+)?(?:venue|address|location)\b`)
	reStart = regexp.MustCompile(`\b(?:start(?:s|ing)?|begin(?:s|ning)?|open(?:s|ing)?|kick(?:s|ing)?\s+off|get(?:s|ting)?\s+(?:going|started|underway)|commence(?:s)?)\b`)
	reEnd   = regexp.MustCompile(`\b(?:end(?:s|ing)?|finish(?:es|ing)?|close(?:s)?|closing|wrap(?:s|ping)?\s+up|over)\b`)
	reWhen  = regexp.MustCompile(`\b(?:when(?:'|’)?s|when|what\s+time|what\s+day|which\s+day|(?:what|which)\s+days)\b`)
	// reDates asks for the dates, which are the conference's unless the
	// question names something else.
	reDates = regexp.MustCompile(`\b(?:(?:what|which)\s+(?:are\s+the\s+|is\s+the\s+)?dates?|the\s+dates)\b`)
	reLong  = regexp.MustCompile(`\bhow\s+(?:long|many\s+days)\b`)
	// reDaily asks it of every day: "what time does each day finish?".
	reDaily = regexp.MustCompile(`\b(?:(?:each|every|per)\s+day|daily|the\s+days)\b`)
	reWhere = regexp.MustCompile(`\b(?:where(?:'|’)?s|where|located)\b`)
	// reHeld is how a question says a conference takes place ("where is it
	// held exactly?"), which asks nothing by itself.
	reHeld = regexp.MustCompile(`\b(?:held|hosted|tak(?:e|es|ing)\s+place|happen(?:s|ing)?|run(?:s|ning)?|last(?:s)?|go(?:es)?\s+on|exactly|precisely|again)\b`)
)

// asked is what a question asks about the conference.
type asked struct{ start, end, when, long, where, daily bool }

func (a asked) any() bool { return a.start || a.end || a.when || a.long || a.where }

// About answers a message that asks when the conference runs, starts or
// ends, how long it lasts or where it is held, from the calendar and the
// clock: the answer, and the words of the message that are not part of
// that question (the caller decides whether they ask for something more:
// "when does the conference dinner start?" leaves "dinner"). The answer is
// "" when the message asks none of this of the conference.
func About(message string, now time.Time, cal Calendar) (answer, rest string) {
	s := newScan(message)
	var a asked
	self, venue := false, false
	consume := func(re *regexp.Regexp, seen *bool) {
		s.each(re, func(match) bool { *seen = true; return true })
	}
	consume(reVenue, &venue)
	consume(reSelf, &self)
	if name := nameWords(cal.Name); name != nil {
		consume(name, &self)
	}
	var dates bool
	consume(reDates, &dates)
	consume(reDaily, &a.daily)
	consume(reLong, &a.long)
	consume(reWhen, &a.when)
	consume(reWhere, &a.where)
	consume(reStart, &a.start)
	consume(reEnd, &a.end)
	var held, clocks bool
	consume(reHeld, &held)
	consume(reClocks, &clocks)
	if clocks && (!a.any() || !self && !venue && !dates) { // "when do the clocks change?"
		if c := cal.conf(); len(c.days) > 0 {
			return c.clocks(now), s.rest()
		}
		return "", message
	}
	a.where = a.where || venue && !a.when && !a.long
	a.when = a.when || dates
	if !a.any() || !self && !venue && !dates && !a.daily || (a.start || a.end) && !a.when && !a.long {
		return "", message
	}
	c := cal.conf()
	if len(c.days) == 0 {
		return "", message
	}
	return c.about(a, now, cal), s.rest()
}

// nameWords matches the conference's name, or the start of it ("the
// FOSSASIA Summit", "FOSSASIA"), nil when its first word is a number or
// has three letters or fewer.
func nameWords(name string) *regexp.Regexp {
	if re, ok := names.Load(name); ok {
		return re.(*regexp.Regexp)
	}
	re := nameRegexp(name)
	names.Store(name, re)
	return re
}

// names holds each conference name's nameWords, built once.
var names sync.Map

func nameRegexp(name string) *regexp.Regexp {
	var words []string
	for _, w := range strings.Fields(strings.ToLower(name)) {
		if w = strings.Trim(w, `.,:;!?"'()–—-`); w != "" {
			words = append(words, regexp.QuoteMeta(w))
		}
	}
	if len(words) == 0 || len(words[0]) <= 3 || strings.Trim(words[0], "0123456789") == "" {
		return nil
	}
	rest := ""
	for i := len(words) - 1; i > 0; i-- { // "StageLight", "StageLight Mumbai", "StageLight Mumbai 2027"
		rest = `(?:\s+` + words[i] + rest + `)?`
	}
	return regexp.MustCompile(`\b(?:the\s+)?` + words[0] + rest + `\b`)
}

// about writes the answer to what a asks.
func (c conf) about(a asked, now time.Time, cal Calendar) string {
	last := c.days[len(c.days)-1]
	var b strings.Builder
	switch {
	case a.where && cal.Venue != "":
		fmt.Fprintf(&b, "%s is at %s, %s.", c.name, cal.Venue, c.span())
	case a.where:
		fmt.Fprintf(&b, "The programme does not say where %s is held; it runs %s.", c.name, c.span())
	case a.long:
		b.WriteString(c.runsFor() + ".")
	default:
		b.WriteString(c.runs() + ".")
	}
	if a.daily && len(cal.Hours) > 0 && (a.start || a.end) {
		b.WriteString(" Each day: " + c.hours(cal.Hours) + ".")
		a.start, a.end = false, false // said for every day
		b.WriteString(c.localTimes(cal.Location))
	}
	if a.start && !cal.Opening.Start.IsZero() {
		o := cal.Opening
		fmt.Fprintf(&b, " The programme starts at %s on %s with “%s”.", clock(o.Start, c.loc), short(c.date(o.Start)), o.Title)
	}
	if a.end && !cal.Closing.End.IsZero() {
		b.WriteString(c.ending(cal))
	}
	if a.start || a.end {
		b.WriteString(c.localTimes(cal.Location))
	}
	if !a.where || a.when {
		b.WriteString(c.relative(now))
	}
	if !now.IsZero() && c.today(now).After(last) { // over: said in the past
		return pastTense.Replace(b.String())
	}
	return b.String()
}

// ending says when the programme ends: its last session, or, when a
// social event or tour follows the last talk, the talk and then the event
// ("The last talk, “Closing keynote”, ends at 13:00 on Sun 28 Mar;
// “Library walking tour” follows until 16:30.").
func (c conf) ending(cal Calendar) string {
	l, t := cal.Closing, cal.LastTalk
	if (l.Format == "" || l.Format == "other") && !t.End.IsZero() && t.End.Before(l.End) {
		return fmt.Sprintf(" The last talk, “%s”, ends at %s on %s; “%s” follows until %s.",
			t.Title, clock(t.End, c.loc), short(c.date(t.End)), l.Title, clock(l.End, c.loc))
	}
	return fmt.Sprintf(" The last session, “%s”, ends at %s on %s.", l.Title, clock(l.End, c.loc), short(c.date(l.End)))
}

// pastTense says the conference's own sentences of a conference that is
// over.
var pastTense = strings.NewReplacer(" runs from ", " ran from ", " runs for ", " ran for ", " runs on ", " ran on ",
	" is at ", " was at ", "The programme starts at", "The programme started at", " ends at ", " ended at ", " follows until ", " followed until ", "does not say where", "did not say where")

// localTimes says in which time zone the answer's times are, and when the
// clocks change during the conference; "" when the calendar has no zone.
func (c conf) localTimes(loc *time.Location) string {
	if loc == nil {
		return ""
	}
	out := fmt.Sprintf(" Times are local (%s).", loc)
	for _, ch := range c.clockChanges() {
		out += c.clockSentence(ch, time.Time{})
	}
	return out
}

// hours writes each day's first start and last end: "Thu 11 Feb
// 08:00–21:30, Fri 12 Feb 08:30–20:30 and Sat 13 Feb 08:30–16:30".
func (c conf) hours(hs []Span) string {
	parts := make([]string, len(hs))
	for i, h := range hs {
		parts[i] = fmt.Sprintf("%s %s–%s", short(c.date(h.From)), clock(h.From, c.loc), clock(h.To, c.loc))
	}
	return terms.Series(parts, "and")
}

// relative places now against the conference days: " That is in 3 days.",
// " Today is day 2 of 4.", " It ended on Sun 19 Mar." ("" without a clock).
func (c conf) relative(now time.Time) string {
	if now.IsZero() {
		return ""
	}
	today := c.today(now)
	first, last := c.days[0], c.days[len(c.days)-1]
	switch {
	case today.Before(first):
		n := int(first.Sub(today).Hours() / 24)
		if n == 1 {
			return " That is tomorrow."
		}
		return fmt.Sprintf(" That is in %d days.", n)
	case today.After(last):
		return " It ended on " + short(last) + "."
	}
	for i, d := range c.days {
		if d.Equal(today) {
			return fmt.Sprintf(" It is on now: today is day %d of %d.", i+1, len(c.days))
		}
	}
	return " It is on now."
}

// date is t's local calendar date in the conference's location.
func (c conf) date(t time.Time) time.Time { return civil(t.In(c.loc)) }

// clock writes t's local time of day: "09:30".
func clock(t time.Time, loc *time.Location) string { return t.In(loc).Format("15:04") }
