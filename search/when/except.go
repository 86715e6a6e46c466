package when

import (
	"regexp"
	"strings"
	"time"
)

// turnDown opens a phrase saying what the attendee does not want or
// cannot come to: "no panels", "not on Wednesday", "except workshops", "I
// can't do mornings", "I'm away on Thursday", "I won't be there after 4".
// "Not only" and "not just" add rather than turn down.
var turnDown = regexp.MustCompile(`(?i)(?:^|[\s,;:(])(?:no|not|except(?:\s+for)?|excluding|other\s+than|apart\s+from|without|avoid(?:ing)?|skip(?:ping)?|` +
	`(?:i|we)\s+(?:can'?t|cannot|won'?t\s+be\s+able\s+to)\s+(?:do|make|attend)|` +
	`(?:i|we)(?:'m|'re|\s+am|\s+are|'ll\s+be|\s+will\s+be)\s+(?:away|busy|gone|unavailable|not\s+(?:there|here|around|free|available))|` +
	`(?:i|we)\s+(?:won'?t|will\s+not)\s+be\s+(?:there|here|around|free|available))\s+`)

// clauseEnd ends the phrase turned down: punctuation, a dash, or a word
// that goes on to what is wanted ("no panels, just talks on MLOps").
var clauseEnd = regexp.MustCompile(`(?i)[,.;!?()]|\s[-–—]\s|\s(?:but|just|only|and|so|because|though|although|instead|rather)\s`)

// adding are the words after "not" that add rather than turn down.
var adding = map[string]bool{"only": true, "just": true, "necessarily": true, "sure": true, "too": true, "much": true, "many": true}

// turnedDown finds the first phrase of message that turns down a time,
// place or format, and returns it read as filters and the message without
// it. A phrase with a topic in it ("no problem if it's tomorrow", "not
// interested in renting GPUs") is not one.
func turnedDown(message string, now time.Time, cal Calendar) ([]Filter, string, bool) {
	for _, m := range turnDown.FindAllStringIndex(message, -1) {
		rest := message[m[1]:]
		if first, _, _ := strings.Cut(strings.ToLower(rest), " "); adding[first] {
			continue
		}
		end := len(rest)
		if e := clauseEnd.FindStringIndex(rest); e != nil {
			end = e[0]
		}
		p := parse(rest[:end], now, cal)
		if p.Filter.IsZero() || p.Outside != "" || saysMore(p.Rest) {
			continue
		}
		return everyDay(rest[:end], p.Filter, now, cal), cut(message[:m[0]], rest[end:]), true
	}
	return nil, message, false
}

// cut joins what is left on either side of a phrase taken out, without
// the punctuation that bordered it: "rust talks, not in Hall 1" leaves
// "rust talks", "no panels, just talks" leaves "just talks".
func cut(before, after string) string {
	return strings.Trim(strings.Join(strings.Fields(before+" "+after), " "), " ,;:-–—")
}

// anchored is a phrase that names its day.
var anchored = regexp.MustCompile(`(?i)\b(?:today|tonight|tomorrow|yesterday|this|next|(?:mon|tues|wednes|thurs|fri|satur|sun)day|day\s+\w+|\w+\s+day|` + months + `)\b|\d{1,2}[/.-]\d{1,2}`)

// everyDay is a phrase turned down as filters: f, or, for a time of day
// that names no day ("not in the afternoon", "I can't do mornings", "no
// later than 4pm"), that time on every conference day.
func everyDay(phrase string, f Filter, now time.Time, cal Calendar) []Filter {
	c := cal.conf()
	if f.Ongoing || f.Next || f.Last || f.From.IsZero() || f.To.IsZero() || len(c.days) < 2 || anchored.MatchString(phrase) {
		return []Filter{f} // "not today", "not this afternoon", "not on Wednesday": that day's
	}
	d, lo := c.clockOf(f.From, false)
	d2, hi := c.clockOf(f.To, true)
	if !d.Equal(d2) || lo == 0 && hi == 1440 {
		return []Filter{f}
	}
	var out []Filter
	for _, day := range c.days {
		g := f
		g.From, g.To = c.at(day, lo), c.at(day, hi)
		out = append(out, g)
	}
	out[0].Label = strings.TrimSpace(partWords(lo, hi) + " " + label("", Filter{Rooms: f.Rooms, Tracks: f.Tracks, Formats: f.Formats}))
	return out
}

// saysMore reports whether what is left of a phrase turned down holds a
// word besides filler: then it turns down a topic, not a time or place.
func saysMore(rest string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(rest), func(r rune) bool { return r < 'a' || r > 'z' }) {
		if !downFiller[w] {
			return true
		}
	}
	return false
}

var downFiller = map[string]bool{"a": true, "an": true, "the": true, "any": true, "please": true, "thanks": true, "thank": true,
	"you": true, "for": true, "me": true, "us": true, "sessions": true, "session": true, "talks": true, "talk": true, "really": true,
	"though": true, "on": true, "in": true, "at": true, "during": true, "s": true, "more": true, "of": true, "those": true, "them": true}
