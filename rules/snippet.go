package rules

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// snippet is what a bullet quotes of an item: its summary, or, when a later
// sentence of its description holds more of what the question asks for,
// that sentence ("Wi-Fi: … the password is on your badge", "Exhibition
// opening hours: …"). A question asking when counts a clock time as one of
// its words. After a summary comes the sentence with the detail asked for,
// when the summary lacks it (see detail).
func snippet(r search.Result, want []string, asksWhen bool) string {
	best, most := 0, 0
	for i, s := range r.Sentences {
		if n := overlap(s, want, asksWhen); n > most {
			best, most = i, n
		}
	}
	if best == 0 || best < summarySentences && len(r.Summary) <= summaryClip { // the summary shows it whole
		return withDetail(r, want)
	}
	return "… " + lexical.Clip(r.Sentences[best], sentenceClip)
}

// withDetail is the item's summary as shown, with the sentence that holds
// a word of the question which neither the item's title nor that summary
// has (see detail): after it ("what do I bring to the radar calibration
// hands-on?" is answered by "Bring safety glasses", beside the summary
// that says what the session is), or instead of the summary's own
// sentence that clipping cut before it ("do I need to sign up?" and "…
// places are limited to 80 — sign up in the congress app").
func withDetail(r search.Result, want []string) string {
	shown := lexical.Clip(r.Summary, summaryClip)
	d := detail(r, want, shown)
	if d == "" {
		return shown
	}
	if i := strings.Index(r.Summary, d); i >= 0 {
		return strings.TrimSpace(strings.TrimSpace(r.Summary[:i]) + " " + lexical.Clip(d, sentenceClip))
	}
	return shown + " … " + lexical.Clip(d, sentenceClip)
}

// detail is the sentence not shown whole that holds the most words of the
// question which neither the item's title nor what is shown has: on a
// tie, one after the summary before the summary's own, then the first.
func detail(r search.Result, want []string, shown string) string {
	named := terms.Stems(r.Title + " " + shown)
	ask := slices.DeleteFunc(slices.Clone(want), func(w string) bool { return slices.Contains(named, w) })
	best, most := "", 0
	for i, s := range r.Sentences {
		n := 2 * overlap(s, ask, false)
		if n > 0 && i >= summarySentences {
			n++ // on a tie, a sentence not shown at all before one shown in part
		}
		if n > most && !strings.Contains(shown, s) {
			best, most = s, n
		}
	}
	return best
}

const (
	summarySentences = 2 // see search.Item.Summary
	summaryClip      = 160
	sentenceClip     = 220
)

// overlap counts the words of want a sentence uses, and a clock time when
// the question asks when.
func overlap(sentence string, want []string, asksWhen bool) int {
	have := terms.Stems(sentence)
	n := 0
	for _, w := range want {
		if slices.Contains(have, w) {
			n++
		}
	}
	if n > 0 && asksWhen && clock.MatchString(sentence) {
		n++
	}
	return n
}

var (
	clock = regexp.MustCompile(`\b\d{1,2}[:.]\d{2}\b|\b\d{1,2}\s*(?:am|pm)\b`)
	// whenAsked is a question about a time: when, what time, how long, the hours.
	whenAsked = regexp.MustCompile(`(?i)\b(?:when|what\s+time|how\s+long|hours|until\s+when|till\s+when)\b`)
)

// quoting is what a bullet is written for: the words of the question's
// topic, whether it asks when, and when it was asked.
type quoting struct {
	want     []string
	asksWhen bool
	now      time.Time
}

// runningAt says of a session that is on, or over, when the question was
// asked: an attendee should not walk to a talk that has ended.
func runningAt(r search.Result, now time.Time) string {
	s := r.Session
	switch {
	case s == nil || now.IsZero() || s.Starts.IsZero() || s.Ends.IsZero():
		return ""
	case !s.Ends.After(now):
		return " · already over"
	case !s.Starts.After(now):
		return " · on now"
	}
	return ""
}
