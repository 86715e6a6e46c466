package when

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// reClocks asks whether the clocks change: "do the clocks go forward
// tonight?", "is there a daylight saving change?".
var reClocks = regexp.MustCompile(`\b(?:clocks?\s+(?:change|changes|changing|go|goes|going|went|gone|spring|fall)(?:\s+(?:forward|back|ahead))?|(?:(?:daylight\s+sav(?:ing|ings)|summer)(?:\s+time)?|dst)(?:\s+(?:change|changes|switch|ends?|starts?|begins?))?|(?:time|clock)\s+change)\b`)

// AsksClocks reports whether a message asks whether the clocks change.
func AsksClocks(message string) bool { return reClocks.MatchString(strings.ToLower(message)) }

// clockChange is a change of the conference's local time.
type clockChange struct {
	at      time.Time // the instant it happens
	forward bool
	by      time.Duration
	from    string // the zone's abbreviations before and after ("GMT", "BST")
	to      string
}

// clockChanges are the changes of local time from the first conference
// day's midnight to the last one's end, found hour by hour (the time zone
// database has no lookup of transitions) and narrowed to the minute.
func (c conf) clockChanges() []clockChange {
	if len(c.days) == 0 {
		return nil
	}
	first, last := c.days[0], c.days[len(c.days)-1]
	start := time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, c.loc).Add(-12 * time.Hour)
	end := time.Date(last.Year(), last.Month(), last.Day()+1, 0, 0, 0, 0, c.loc)
	var out []clockChange
	for t := start; t.Before(end); t = t.Add(time.Hour) {
		name0, off0 := t.Zone()
		if name1, off1 := t.Add(time.Hour).Zone(); off1 != off0 {
			at := t
			for _, off := at.Zone(); off == off0; _, off = at.Zone() {
				at = at.Add(time.Minute)
			}
			out = append(out, clockChange{at: at, forward: off1 > off0, by: time.Duration(abs(off1-off0)) * time.Second,
				from: zoneName(name0, off0), to: zoneName(name1, off1)})
		}
	}
	return out
}

// zoneName is a zone's abbreviation ("BST"), or its offset from UTC when
// the database has none ("UTC−03:00" for "-03").
func zoneName(abbr string, offset int) string {
	if abbr != "" && abbr[0] != '+' && abbr[0] != '-' {
		return abbr
	}
	sign := "+"
	if offset < 0 {
		sign, offset = "−", -offset
	}
	return fmt.Sprintf("UTC%s%02d:%02d", sign, offset/3600, offset%3600/60)
}

func abs(n int) int { return max(n, -n) }

// clocks answers whether the clocks change during the conference.
func (c conf) clocks(now time.Time) string {
	chs := c.clockChanges()
	if len(chs) == 0 {
		return fmt.Sprintf("The clocks don't change during %s; all its times are %s time.", c.name, c.loc)
	}
	var out string
	for _, ch := range chs {
		out += c.clockSentence(ch, now)
	}
	return out[1:]
}

// clockSentence says one change: "The clocks go forward one hour at 01:00
// on Sun 28 Mar (GMT to BST); the programme's times after it are BST."
func (c conf) clockSentence(ch clockChange, now time.Time) string {
	way := map[bool]string{true: "forward", false: "back"}[ch.forward]
	t := ch.at.Add(-time.Minute).In(c.loc) // the wall clock a minute before, then as it would read at the change
	wall := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, time.UTC).Add(time.Minute)
	verb := "go"
	if !now.IsZero() && !now.Before(ch.at) {
		verb = "went"
	}
	return fmt.Sprintf(" The clocks %s %s %s at %s local time on %s (%s to %s); the programme's times after it are %s.",
		verb, way, shiftWords(ch.by), wall.Format("15:04"), short(civil(wall)), ch.from, ch.to, ch.to)
}

// shiftWords says by how much the clocks change: "one hour", "0.5 hours".
func shiftWords(d time.Duration) string {
	if d == time.Hour {
		return "one hour"
	}
	return fmt.Sprintf("%g hours", d.Hours())
}
