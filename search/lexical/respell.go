package lexical

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/erleah/erleah-agent/search/terms"
)

// askingWords are the words of request phrasing, and the words that ask
// for a kind of item, long enough that one typo in them ("aything",
// "intrested", "vendrs") still reads as them.
var askingWords = strings.Fields(`anything something anyone someone anybody somebody everything everyone
	about there where which please interested looking recommend recommendation
	speaker speakers presenter presenters exhibitor exhibitors exhibiting vendor vendors supplier suppliers
	company companies product products session sessions workshop workshops keynote keynotes lecture lectures
	tutorial tutorials presentation presentations`)

// timeWords are the words that say when, long enough to be recognised
// mistyped: one slip in a word of six letters or fewer, two in a longer
// one ("tomoro", "wensday", "thursdy").
var timeWords = strings.Fields(`tomorrow tonight morning afternoon evening monday tuesday wednesday thursday friday saturday sunday`)

var wordRun = regexp.MustCompile(`\p{L}+`)

// Respelled writes a misspelt asking word as itself, so that "aything on
// distributed training?" is read as asking about distributed training and
// "which vendrs sell…" as asking for vendors: a word of five letters or
// more, not English, one typo from exactly one asking word; else a time
// word a slip or two away ("tomoro").
func Respelled(text string) string {
	return wordRun.ReplaceAllStringFunc(Unshortened(text), func(w string) string {
		lw := strings.ToLower(w)
		if len(lw) < 5 || terms.IsEnglish(lw) || terms.IsStop(lw) {
			return w
		}
		fix, n := nearest(lw, askingWords, func(string) int { return 1 })
		if n == 0 {
			fix, n = nearest(lw, timeWords, func(a string) int { return 1 + len(a)/7 })
		}
		if n != 1 {
			return w // none fits, or two do: leave it
		}
		if unicode.IsUpper([]rune(w)[0]) {
			fix = strings.ToUpper(fix[:1]) + fix[1:]
		}
		return fix
	})
}

// nearest is a word of list within slips(word) edits of w, and how many
// are.
func nearest(w string, list []string, slips func(string) int) (string, int) {
	fix, n := "", 0
	for _, a := range list {
		if d := distance(w, a, slips(a)); d >= 1 && d <= slips(a) {
			fix, n = a, n+1
		}
	}
	return fix, n
}

// shorthand is how chat writes common words ("wen is the dante talk", "any
// talks abt rigging tmrw", "generators n power"): each read as the word it
// stands for. "r" is left alone (the R language), "b4" too (a room as often
// as "before"), and so is "rn" (right now), which the time parser reads
// itself.
var shorthand = map[string]string{
	"wen": "when", "wat": "what", "wht": "what", "whr": "where", "abt": "about", "bout": "about",
	"tmrw": "tomorrow", "tmr": "tomorrow", "tmrrw": "tomorrow", "2moro": "tomorrow", "2morrow": "tomorrow", "tomoz": "tomorrow",
	"2day": "today", "tdy": "today", "2nite": "tonight", "tonite": "tonight", "nxt": "next", "ppl": "people",
	"u": "you", "n": "and", "smth": "something", "sth": "something", "thx": "thanks", "thnx": "thanks",
	"wheres": "where's", "whens": "when's", "goodmorning": "good morning", "gm": "good morning",
}

var shortWord = regexp.MustCompile(`\b[\p{L}0-9]+\b`)

// Unshortened writes chat shorthand out in full (see shorthand), typed in
// lower case or capitalised at a sentence's start ("Tmrw"): "U", "N" or
// "B4" (a room) are names, not shorthand.
func Unshortened(text string) string {
	return shortWord.ReplaceAllStringFunc(text, func(w string) string {
		full, ok := shorthand[strings.ToLower(w)]
		if !ok || w != strings.ToLower(w) && !capitalised(w) {
			return w
		}
		return full
	})
}

// capitalised reports whether w is a capital then lower-case letters only.
func capitalised(w string) bool {
	rs := []rune(w)
	if len(rs) < 3 || !unicode.IsUpper(rs[0]) {
		return false
	}
	for _, r := range rs[1:] {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return true
}
