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
// that goes on to what is wanted ("no panels, just talks on MLOps"). "And"
// and "or" may join what is turned down ("not on Wednesday and Thursday",
// "not between 9 and 11"), so they are weighed in listed.
var clauseEnd = regexp.MustCompile(`(?i)[,.;!?()]|\s[-–—]\s|\s(?:but|just|only|so|because|though|although|instead|rather)\s`)

// conjunction joins the parts of a phrase turned down.
var conjunction = regexp.MustCompile(`(?i)\s(?:and|or|nor)\s`)

// adding are the words after "not" that add rather than turn down.
var adding = map[string]bool{"only": true, "just": true, "necessarily": true, "sure": true, "too": true, "much": true, "many": true}

// maxDown bounds how far a phrase turned down is looked for after its
// opening word, and how many phrases one message turns down, so that a
// long message costs no more than a short one per phrase.
const (
	maxDown       = 120
	maxDownPhrase = 8
)

// turnedDown finds the phrases of message that turn down a time, place or
// format ("no panels, no workshops", "not on Wednesday, not in Hall 1"), and
// returns them read as filters and the message without them.
func turnedDown(message string, now time.Time, cal Calendar) ([]Filter, string, bool) {
	var except []Filter
	for range maxDownPhrase {
		f, rest, ok := turnedDownOnce(message, now, cal)
		if !ok {
			break
		}
		except, message = append(except, f...), rest
	}
	return except, message, len(except) > 0
}

// turnedDownOnce finds the first phrase of message that turns down a time,
// place or format. A phrase with a topic in it ("no problem if it's
// tomorrow", "not interested in renting GPUs") is not one.
func turnedDownOnce(message string, now time.Time, cal Calendar) ([]Filter, string, bool) {
	for _, m := range turnDown.FindAllStringIndex(message, -1) {
		rest := message[m[1]:]
		if first, _, _ := strings.Cut(strings.ToLower(rest), " "); adding[first] {
			continue
		}
		phrase, ok := downPhrase(rest)
		if !ok {
			continue
		}
		if f, n := listed(phrase, now, cal); n > 0 {
			return f, cut(message[:m[0]], rest[n:]), true
		}
	}
	return nil, message, false
}

// downPhrase is the start of rest up to where the phrase turned down ends,
// or false when it runs on past maxDown bytes.
func downPhrase(rest string) (string, bool) {
	window := rest[:min(len(rest), maxDown)]
	if e := clauseEnd.FindStringIndex(window); e != nil {
		return window[:e[0]], true
	}
	return rest, len(rest) <= maxDown
}

// listed reads the longest run of a phrase's parts, joined by "and" or "or",
// that says only a time, place or format, and returns it as filters with
// its length in bytes (0 when no run does). Parts that each say one on
// their own are turned down each ("no mornings or evenings", "not on
// Wednesday and Thursday"); otherwise the run is one ("not between 9 and
// 11").
func listed(phrase string, now time.Time, cal Calendar) ([]Filter, int) {
	joins := conjunction.FindAllStringIndex(phrase, -1)
	for k := len(joins); k >= 0; k-- {
		run := phrase
		if k < len(joins) {
			run = phrase[:joins[k][0]]
		}
		f, ok := pure(run, now, cal)
		if !ok {
			continue
		}
		if parts, ok := each(run, joins[:k], now, cal); ok {
			return parts, len(run)
		}
		return everyDay(run, f, now, cal), len(run)
	}
	return nil, 0
}

// each reads every part of a run on its own, or reports false when one
// part is no time, place or format by itself.
func each(run string, joins [][]int, now time.Time, cal Calendar) ([]Filter, bool) {
	if len(joins) == 0 {
		return nil, false
	}
	var out []Filter
	from := 0
	for i := 0; i <= len(joins); i++ {
		to := len(run)
		if i < len(joins) {
			to = joins[i][0]
		}
		f, ok := pure(run[from:to], now, cal)
		if !ok {
			return nil, false
		}
		out = append(out, everyDay(run[from:to], f, now, cal)...)
		if i < len(joins) {
			from = joins[i][1]
		}
	}
	return out, true
}

// pure reads a phrase as a filter when it says only a time, place or
// format.
func pure(phrase string, now time.Time, cal Calendar) (Filter, bool) {
	p := parse(phrase, now, cal)
	return p.Filter, !p.Filter.IsZero() && p.Outside == "" && !saysMore(p.Rest)
}

// cut joins what is left on either side of a phrase taken out, without
// the punctuation that bordered it: "rust talks, not in Hall 1" leaves
// "rust talks", "no panels, just talks" leaves "just talks", "Any talks?
// I'm busy tomorrow." leaves "Any talks?".
func cut(before, after string) string {
	before = strings.TrimRight(before, " ")
	if strings.HasSuffix(before, "?") || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "!") {
		after = strings.TrimLeft(after, " .!?")
	}
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
		g.From, g.To, g.Label = c.at(day, lo), c.at(day, hi), ""
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
	"though": true, "on": true, "in": true, "at": true, "during": true, "s": true, "more": true, "of": true, "those": true, "them": true,
	"all": true, "sadly": true, "unfortunately": true, "anyway": true, "either": true, "myself": true, "ourselves": true}
