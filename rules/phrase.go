package rules

import (
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// phraseWords is the most words a note quotes of the attendee's message.
const phraseWords = 8

// attendeePhrase is what a note may quote of a search text: the stretch of
// the attendee's own message that holds every content word of text and no
// other, as they wrote it ("refill my water" for "refill water"), or ""
// when there is none. A text with words taken out of its middle ("sport
// with and sliding it video"), with words the message lacks (a translation,
// a correction, the programme's own words), or longer than phraseWords
// would read as mangled, so it is not quoted.
func attendeePhrase(message, text string) string {
	want := map[string]bool{}
	for _, w := range strings.Fields(text) {
		if c := clean(w); c != "" && !terms.IsStop(c) {
			want[c] = true
		}
	}
	msg := strings.Fields(message)
	words := make([]string, len(msg))
	for i, w := range msg {
		words[i] = clean(w)
	}
	lo, hi, ok := smallestWindow(words, want)
	if !ok || hi-lo+1 > phraseWords {
		return ""
	}
	for _, w := range words[lo : hi+1] {
		if w != "" && !terms.IsStop(w) && !want[w] {
			return ""
		}
	}
	return strings.Trim(strings.Join(msg[lo:hi+1], " "), `.,;:!?¿¡"'“”‘’()[]{}-–—`)
}

// smallestWindow is the shortest run of words holding every wanted word.
func smallestWindow(words []string, want map[string]bool) (int, int, bool) {
	if len(want) == 0 {
		return 0, 0, false
	}
	lo, hi, found := 0, 0, false
	for i := range words {
		if !want[words[i]] {
			continue
		}
		seen := map[string]bool{}
		for j := i; j < len(words); j++ {
			if want[words[j]] {
				seen[words[j]] = true
			}
			if len(seen) == len(want) {
				if !found || j-i < hi-lo {
					lo, hi, found = i, j, true
				}
				break
			}
		}
	}
	return lo, hi, found
}

// quotedOr is the attendee's phrase for text, quoted, or else the words
// given ("what you asked").
func quotedOr(message, text, otherwise string) string {
	if p := attendeePhrase(message, text); p != "" {
		return quote(p)
	}
	return otherwise
}

// wordList quotes up to four words, "“a”, “b” or “c”", and says when
// there are more.
func wordList(words []string) string {
	const most = 4
	q := make([]string, 0, most)
	for _, w := range words[:min(len(words), most)] {
		q = append(q, quote(w))
	}
	switch {
	case len(words) > most:
		return strings.Join(q, ", ") + " and other words you used"
	case len(q) == 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}
