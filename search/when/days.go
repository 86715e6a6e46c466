package when

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/erleah/erleah-agent/search/terms"
)

// pre is a preposition that belongs to a day expression ("on Friday",
// "of day 2") and goes with it.
const pre = `(?:\b(?:on|for|of|during)\s+)?`

const months = `jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?`

var (
	reDayAfter = regexp.MustCompile(pre + `(?:\bthe\s+)?\bday\s+after\s+tomorrow\b`)
	reWeekend  = regexp.MustCompile(`(?:\b(?:on|for|during|over|at|this|next)\s+)?(?:\b(?:the|this)\s+)?(?:\bcoming\s+)?\bweekend\b`)
	reDayN     = regexp.MustCompile(pre + `(?:\bthe\s+)?(?:\bday\s+(?P<n>\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten)\b|\b(?P<ord>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|final|opening|closing|\d{1,2}(?:st|nd|rd|th))\s+day\b)`)
	reISO      = regexp.MustCompile(pre + `\b(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})\b`)
	reDayMonth = regexp.MustCompile(pre + `(?:\bthe\s+)?\b(?P<d>\d{1,2})(?:st|nd|rd|th)?(?:\s+of)?\s+(?P<m>` + months + `)\b\.?(?:,?\s+(?P<y>20\d\d)\b)?`)
	reMonthDay = regexp.MustCompile(pre + `\b(?P<m>` + months + `)\b\.?\s+(?:the\s+)?(?P<d>\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(?P<y>20\d\d)\b)?`)
	reNumeric  = regexp.MustCompile(pre + `\b(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<y>\d{4}|\d{2}))?\b`)
	reOrdinal  = regexp.MustCompile(pre + `(?:\bthe\s+)?\b(?P<d>\d{1,2})(?:st|nd|rd|th)\b`)
	reWeekday  = regexp.MustCompile(`(?:\b(?:on|for|of|during|this|next|coming|this\s+coming|on\s+the)\s+)?\b(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)(?:s|'s|’s)?\b(?:\s+(?P<night>night))?`)
	reWeekAbbr = regexp.MustCompile(`\b(?:on|for|this|next|coming)\s+(?P<wd>mon|tues?|weds?|thu(?:rs?)?|fri|sat|sun)\b\.?`)
	reSameDay  = regexp.MustCompile(pre + `\b(?:that|the\s+same)\s+day\b`)
	reRelDay   = regexp.MustCompile(pre + `\b(?P<rel>today|tomorrow|tmrw|tmr|tomorow|yesterday|tonight|tonite)(?:'s|’s)?\b(?:\s+(?P<night>night))?`)
)

// sameDay reads "that day" and "the same day" as the day already named
// ("I can only come on the 18th: anything on blockchain that day?"); with
// none named, the words stay.
func (p *found) sameDay(match) bool { return len(p.days) > 0 }

// dayAfterTomorrow records "the day after tomorrow".
func (p *found) dayAfterTomorrow(match) bool {
	p.relDay(p.today.AddDate(0, 0, 2), "the day after tomorrow")
	return true
}

// notThisWeekend is what before "weekend" makes it no date: "a weekend
// coding club", "every weekend".
var notThisWeekend = regexp.MustCompile(`\b(?:a|an|every|each|per|one|some)\s+$`)

// ownWeekend reports a bare "weekend" after a word naming which one ("the
// cutover weekend", "a long weekend", "our launch weekend"): not this
// weekend, unless the word asks what is on ("anything weekend?", "any
// weekend workshops").
func ownWeekend(m match) bool {
	prev := prevWord(m)
	return string(m.s.text[m.idx[0]:m.idx[1]]) == "weekend" && prev != "" && !wholeWeekend[prev] && !slices.Contains(nowAfter, prev)
}

// wholeWeekend are the words before a bare "weekend" that still mean this
// one ("the whole weekend", "all weekend", "over the weekend").
var wholeWeekend = map[string]bool{"any": true, "the": true, "all": true, "whole": true, "entire": true, "during": true, "over": true, "at": true}

// weekend records this weekend: the one under way on a Saturday or Sunday,
// else the coming one.
func (p *found) weekend(m match) bool {
	if notThisWeekend.Match(m.s.text[:m.idx[0]]) || ownWeekend(m) {
		return false
	}
	back := (int(p.today.Weekday()) + 1) % 7 // days since Saturday
	sat := p.today.AddDate(0, 0, -back)
	if back > 1 {
		sat = sat.AddDate(0, 0, 7)
	}
	sun := sat.AddDate(0, 0, 1)
	p.addDay(dayRef{first: sat, last: sun, phrase: "this weekend"}, "this weekend ("+dateRange(sat, sun, "Jan")+")")
	return true
}

var numberWords = []string{"", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
var ordinalWords = []string{"", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}

// dayN records "day 2", "the second day", "the last day". A day past the
// conference's end selects the date it would have had and says there is no
// such day. Without known conference days it recognises nothing.
func (p *found) dayN(m match) bool {
	days := p.c.days
	if len(days) == 0 {
		return false
	}
	n, phrase := dayNumber(m.group("n"), m.group("ord"), len(days))
	switch {
	case n < 1:
		p.days = append(p.days, dayRef{first: days[0].AddDate(0, 0, -1), last: days[0].AddDate(0, 0, -1), phrase: phrase})
	case n > len(days):
		d := days[len(days)-1].AddDate(0, 0, n-len(days))
		p.days = append(p.days, dayRef{first: d, last: d, phrase: phrase})
	default:
		p.days = append(p.days, dayRef{first: days[n-1], last: days[n-1], phrase: phrase})
		return true
	}
	if p.outside == "" {
		p.outside = p.c.noDay(n)
	}
	return true
}

// dayNumber reads the number of "day 2", "day two", "the 2nd day", "the
// last day" and says it back as "day 2" or "the last day".
func dayNumber(num, ord string, last int) (int, string) {
	switch ord {
	case "":
	case "last", "final", "closing":
		return last, "the last day"
	case "opening":
		return 1, "day 1"
	default:
		if i := slices.Index(ordinalWords, ord); i > 0 {
			num = strconv.Itoa(i)
		} else {
			num = ord[:len(ord)-2]
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil {
		n = slices.Index(numberWords, num)
	}
	return n, "day " + strconv.Itoa(n)
}

// dateStep records "2026-10-21", "18 March", "March 18th", "the 18th of
// March 2026".
func (p *found) dateStep(m match) bool {
	return p.date(atoi(m.group("y")), month(m.group("m")), atoi(m.group("d")))
}

// date records a day of a month: in year y when y > 0; else in the year, of
// the one before, this one or the next, that makes it a conference day,
// or failing that nearest to today.
func (p *found) date(y int, mon time.Month, d int) bool {
	years := []int{y}
	if y <= 0 {
		years = []int{p.today.Year() - 1, p.today.Year(), p.today.Year() + 1}
	}
	var cands []time.Time
	for _, y := range years {
		if t, ok := validDate(y, mon, d); ok {
			cands = append(cands, t)
		}
	}
	if len(cands) == 0 {
		if mon < time.January || mon > time.December || d < 1 || d > 31 || len(p.c.days) == 0 {
			return false
		}
		// "the 31st of February": said, rather than read as another day.
		if p.outside == "" {
			p.outside = fmt.Sprintf("%s; %s has no day %d.", p.c.runs(), mon, d)
		}
		return true
	}
	p.absDay(p.pick(cands))
	return true
}

// pick returns the candidate date that is a conference day, or else the one
// nearest to today.
func (p *found) pick(cands []time.Time) time.Time {
	best := cands[0]
	for _, t := range cands {
		if p.c.isDay(t) {
			return t
		}
		if absDays(t, p.today) < absDays(best, p.today) {
			best = t
		}
	}
	return best
}

func absDays(a, b time.Time) time.Duration {
	d := a.Sub(b)
	return max(d, -d)
}

// validDate returns y-m-d as a date when that day exists.
func validDate(y int, m time.Month, d int) (time.Time, bool) {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return t, y > 0 && t.Month() == m && t.Day() == d
}

// numeric records "21/10" or "10/21" when exactly one reading of it is a
// conference day; otherwise (a fraction, "24/7", an ambiguous date) nothing.
func (p *found) numeric(m match) bool {
	a, b, y := atoi(m.group("a")), atoi(m.group("b")), atoi(m.group("y"))
	if y > 0 && y < 100 {
		y += 2000
	}
	var hits []time.Time
	for _, d := range p.c.days {
		dayFirst := d.Day() == a && int(d.Month()) == b
		monthFirst := int(d.Month()) == a && d.Day() == b
		if (dayFirst || monthFirst) && (y == 0 || d.Year() == y) {
			hits = append(hits, d)
		}
	}
	if len(hits) != 1 {
		return false
	}
	p.absDay(hits[0])
	return true
}

// dayParts are the parts of a day a date may come before.
var dayParts = map[string]bool{"morning": true, "mornings": true, "afternoon": true, "afternoons": true, "arvo": true, "evening": true, "evenings": true, "night": true, "nights": true}

// ordinal records "the 18th": the conference day with that day of the
// month, or else the next date with it. Followed by a word of content it
// is no date but what it counts ("the 18th floor", "a 7th axis"), unless
// that word is a part of the day ("the 18th morning").
func (p *found) ordinal(m match) bool {
	n := atoi(m.group("d"))
	if next := nextWord(m); n < 1 || n > 31 || (next != "" && !terms.IsStop(next) && !dayParts[next]) {
		return false
	}
	if d, ok := p.c.nearest(p.today, func(d time.Time) bool { return d.Day() == n }); ok {
		p.absDay(d)
		return true
	}
	for k := range 13 {
		first := time.Date(p.today.Year(), p.today.Month()+time.Month(k), 1, 0, 0, 0, 0, time.UTC)
		if t, ok := validDate(first.Year(), first.Month(), n); ok && !t.Before(p.today) {
			p.absDay(t)
			return true
		}
	}
	return false
}

// weekday records "Friday", "on Fri", "Friday night": the nearest conference
// day on that weekday, on or after today if there is one; or else the next
// date on that weekday.
func (p *found) weekday(m match) bool {
	wd := weekdayOf(m.group("wd"))
	d, ok := p.c.nearest(p.today, func(d time.Time) bool { return d.Weekday() == wd })
	if !ok {
		d = p.today.AddDate(0, 0, (int(wd)-int(p.today.Weekday())+7)%7)
	}
	p.absDay(d)
	if m.group("night") != "" {
		p.parts = append(p.parts, evening)
	}
	return true
}

// relDayStep records today, tomorrow, yesterday and tonight.
func (p *found) relDayStep(m match) bool {
	word := m.group("rel")
	switch word {
	case "today":
		p.relDay(p.today, "today")
	case "yesterday":
		p.relDay(p.today.AddDate(0, 0, -1), "yesterday")
	case "tonight", "tonite":
		p.relDay(p.today, "tonight")
		p.parts = append(p.parts, evening)
	default:
		p.relDay(p.today.AddDate(0, 0, 1), "tomorrow")
	}
	if m.group("night") != "" {
		p.parts = append(p.parts, evening)
	}
	return true
}

var evening = span{17 * 60, 24 * 60}

// weekdays maps the first two letters of a weekday's name to it.
var weekdays = map[string]time.Weekday{
	"su": time.Sunday, "mo": time.Monday, "tu": time.Tuesday, "we": time.Wednesday,
	"th": time.Thursday, "fr": time.Friday, "sa": time.Saturday,
}

func weekdayOf(s string) time.Weekday { return weekdays[s[:min(2, len(s))]] }

// month reads a month's name or number.
func month(s string) time.Month {
	if n, err := strconv.Atoi(s); err == nil {
		return time.Month(n)
	}
	for m := time.January; m <= time.December; m++ {
		if len(s) >= 3 && string(fold(m.String()[:3])) == s[:3] {
			return m
		}
	}
	return 0
}

// atoi reads a small decimal number; 0 when s is not one.
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || len(s) > 4 {
		return 0
	}
	return n
}

// nextWord returns the word right after a match, if any.
func nextWord(m match) string {
	rest := m.s.text[m.idx[1]:]
	i := 0
	for i < len(rest) && rest[i] == ' ' {
		i++
	}
	j := i
	for j < len(rest) && rest[j] >= 'a' && rest[j] <= 'z' {
		j++
	}
	return string(rest[i:j])
}
