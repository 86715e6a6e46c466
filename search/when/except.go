package when

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// turnDown opens a phrase saying what the attendee does not want or
// cannot come to: "no panels", "not on Wednesday", "except workshops", "I
// can't do mornings", "I'm away on Thursday", "I won't be there after 4",
// with a straight or a typographic apostrophe.
// "Not only" and "not just" add rather than turn down.
var turnDown = regexp.MustCompile(`(?i)(?:^|[\s,;:(])(?:no|not|nor|neither|except(?:\s+for)?|excluding|other\s+than|apart\s+from|without|avoid(?:ing)?|skip(?:ping)?|` +
	`(?:i|we)\s+(?:can['’]?t|cannot|(?:won['’]?t|will\s+not)\s+be\s+able\s+to)\s+(?:do|make|attend|come|join)|` +
	`(?:i|we)(?:['’]m|['’]re|\s+am|\s+are|['’]ll\s+be|\s+will\s+be)\s+(?:away|busy|gone|unavailable|not\s+(?:there|here|around|free|available|coming))|` +
	`(?:i|we)\s+(?:won['’]?t|will\s+not)\s+be\s+(?:there|here|around|free|available))\s+`)

// clauseEnd ends the phrase turned down: punctuation, a dash, or a word
// that goes on to what is wanted ("no panels, just talks on MLOps"). "And"
// and "or" may join what is turned down ("not on Wednesday and Thursday",
// "not between 9 and 11"), so they are weighed in listed.
var clauseEnd = regexp.MustCompile(`(?i)[,.;!?()]|\s[-–—]\s|\s(?:but|just|only|so|because|though|although|instead|rather)\s`)

// conjunction joins the parts of a phrase turned down.
var conjunction = regexp.MustCompile(`(?i)\s(?:and|or|nor)\s`)

// adding are the words after "not" that add rather than turn down.
var adding = map[string]bool{"only": true, "just": true, "necessarily": true, "sure": true, "too": true, "much": true, "many": true}

// maxDown bounds how far a phrase turned down is read after its opening
// word, so that a long message costs no more than a short one per phrase.
const maxDown = 120

// turnedDown finds the phrases of message that turn down a time, place or
// format ("no panels, no workshops", "not on Wednesday, not in Hall 1"), and
// returns them read as filters and the message without them. Each opening
// word is weighed once: the search resumes where a phrase was taken out.
func turnedDown(message string, now time.Time, cal Calendar) ([]Filter, string, bool) {
	var except []Filter
	seen := map[string]bool{}
	from := 0
	for {
		f, rest, at, ok := turnedDownFrom(message, from, now, cal)
		if !ok {
			break
		}
		message, from = rest, at
		for _, e := range f {
			if k := e.key(); !seen[k] && len(seen) < maxExcept {
				seen[k] = true
				except = append(except, e)
			}
		}
	}
	return except, strings.Join(strings.Fields(message), " "), len(except) > 0
}

// maxExcept bounds how many different things one message turns down; past
// it, a phrase is still taken out, its filter not kept ("no panels" said
// three hundred times is one).
const maxExcept = 64

// key tells filters apart by what they match, whatever their labels.
func (f Filter) key() string {
	return fmt.Sprint(f.From.Unix(), f.To.Unix(), f.Ongoing, f.Next, f.Last, f.Rooms, f.Tracks, f.Formats)
}

// turnedDownFrom finds the first phrase of message from byte from on that
// turns down a time, place or format, and returns it read as filters, the
// message without it, and where it was. A phrase with a topic in it ("no
// problem if it's tomorrow", "not interested in renting GPUs") is not one.
// Only the next opening word is looked for each time, so a long message is
// read once.
func turnedDownFrom(message string, from int, now time.Time, cal Calendar) ([]Filter, string, int, bool) {
	for from < len(message) {
		m := turnDown.FindStringIndex(message[from:])
		if m == nil {
			break
		}
		start, end := from+m[0], from+m[1]
		from = end - 1 // the space that ended the opening word may start the next
		rest := message[end:]
		if first, _, _ := strings.Cut(strings.ToLower(rest), " "); adding[first] {
			continue
		}
		if f, n, left := listed(downPhrase(rest), now, cal); n > 0 {
			before, after := cut(message[:start], left+" "+rest[n:])
			return f, before + " " + after, len(before), true
		}
	}
	return nil, message, 0, false
}

// downPhrase is the start of rest up to where the phrase turned down ends,
// at most maxDown bytes of it, cut at a space.
func downPhrase(rest string) string {
	window := rest
	if len(rest) > maxDown {
		window = rest[:maxDown]
		if i := strings.LastIndexByte(window, ' '); i > 0 {
			window = window[:i]
		}
	}
	if e := clauseEnd.FindStringIndex(window); e != nil {
		return window[:e[0]]
	}
	return window
}

// listed reads the longest run of a phrase's parts, joined by "and", "or"
// or "nor", that says only a time, place or format, and returns it as
// filters with its length in bytes (0 when no run does) and what is left of
// it to put back. Parts that each say one on their own are turned down
// each ("no mornings or evenings", "not on Wednesday and Thursday");
// otherwise the run is one ("not between 9 and 11"). A part after "or" or
// "nor" that goes on to a topic is turned down too, its topic put back:
// "no panels or workshops on RAG" turns down both and leaves "on RAG";
// after "and", what follows is wanted ("no panels and talks on MLOps").
func listed(phrase string, now time.Time, cal Calendar) ([]Filter, int, string) {
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
		out, ok := each(run, joins[:k], now, cal)
		if !ok {
			out = everyDay(run, f, now, cal)
		}
		if more, n, left := alternative(phrase, joins, k, now, cal); n > 0 {
			return append(out, more...), n, left
		}
		return out, len(run), ""
	}
	return nil, 0, ""
}

// alternative reads the part of a phrase after its k-th join when that is
// "or" or "nor" ("or workshops on RAG") as turned down with what came
// before: its time, place or format, and the rest of it to put back. It
// reports 0 when there is no such part or it says none.
func alternative(phrase string, joins [][]int, k int, now time.Time, cal Calendar) ([]Filter, int, string) {
	if k >= len(joins) || strings.EqualFold(strings.TrimSpace(phrase[joins[k][0]:joins[k][1]]), "and") {
		return nil, 0, ""
	}
	end := len(phrase)
	if k+1 < len(joins) {
		end = joins[k+1][0]
	}
	part := phrase[joins[k][1]:end]
	if goesOn.MatchString(part) { // "not on Wednesday or I'll miss my flight", "no panels or maybe a workshop"
		return nil, 0, ""
	}
	p := parse(part, now, cal)
	if p.Filter.IsZero() || p.Outside != "" {
		return nil, 0, ""
	}
	return everyDay(part, p.Filter, now, cal), end, p.Rest
}

// goesOn opens a part after "or" that says something else than what is
// turned down: a clause of its own, or a wish.
var goesOn = regexp.MustCompile(`(?i)^\s*(?:(?:i|we|you|they|he|she|it)(?:'\w+)?|maybe|perhaps|possibly|else|otherwise|rather|instead)\b`)

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

// cut returns what is left on either side of a phrase taken out, without
// the punctuation and the conjunctions that bordered it: "rust talks, not in
// Hall 1" leaves "rust talks", "no panels, just talks" leaves "just talks",
// "Any talks? I'm busy tomorrow." leaves "Any talks?".
func cut(before, after string) (string, string) {
	before = strings.TrimRight(before, " ")
	after = strings.TrimSpace(after)
	if before == "" || strings.HasSuffix(before, "?") || strings.HasSuffix(before, ".") || strings.HasSuffix(before, "!") {
		after = strings.TrimLeft(after, " .!?")
	}
	before = strings.TrimRight(trailingJoin.ReplaceAllString(before, ""), " ,;:-–—")
	after = strings.TrimLeft(leadingJoin.ReplaceAllString(after, ""), " ,;:-–—")
	return before, after
}

// trailingJoin and leadingJoin are the conjunctions left over where a
// phrase was taken out ("rust talks and", "or", "but").
var (
	trailingJoin = regexp.MustCompile(`(?i)(?:[\s,]+(?:and|or|nor|but))+\s*$|^(?:and|or|nor|but)\s*$`)
	leadingJoin  = regexp.MustCompile(`(?i)^(?:(?:and|or|nor|but)\b[\s,]*)+`)
)

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
	"all": true, "sadly": true, "unfortunately": true, "anyway": true, "either": true, "myself": true, "ourselves": true,
	"and": true, "or": true, "nor": true, "neither": true}
