// Package terms turns free text into the normalised terms that the offline
// embedder hashes and that reflection uses as vocabulary evidence.
//
// Normalisation is deterministic: lower-casing, splitting on anything that is
// not a letter or digit, dropping stop words and Snowball English stemming.
// IsEnglish tells general English words from others. All functions are safe
// for concurrent use.
package terms

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/kljensen/snowball/english"
)

// Token is one word of a text after normalisation.
type Token struct {
	Raw  string // the lower-cased word as written
	Stem string // the stemmed form used for matching
}

// Words splits text into lower-cased words, keeping stop words. Letters and
// digits form words; everything else separates them, so "on-prem" gives
// "on", "prem" and "CI/CD" gives "ci", "cd".
func Words(text string) []string {
	words := make([]string, 0, len(text)/6+1)
	start := -1
	for i, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			words = append(words, strings.ToLower(text[start:i]))
			start = -1
		}
	}
	if start >= 0 {
		words = append(words, strings.ToLower(text[start:]))
	}
	return words
}

// Written splits text into its words as written, case kept ("SPS", "GPU"):
// letters and digits form words, as in Words.
func Written(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Content returns the content tokens of text: its words without stop words,
// each with its stem, in order of appearance.
func Content(text string) []Token {
	words := Words(text)
	out := make([]Token, 0, len(words))
	for _, w := range words {
		if IsStop(w) {
			continue
		}
		out = append(out, Token{Raw: w, Stem: Stem(w)})
	}
	return out
}

// Stems returns the distinct stems of the content tokens of text, in order of
// first appearance.
func Stems(text string) []string {
	seen := make(map[string]bool)
	var out []string
	for _, t := range Content(text) {
		if !seen[t.Stem] {
			seen[t.Stem] = true
			out = append(out, t.Stem)
		}
	}
	return out
}

// IsStop reports whether w (lower-cased) carries no topical meaning: function
// words, question words and single characters.
func IsStop(w string) bool {
	if utf8.RuneCountInString(w) < 2 && !isDigit(w) {
		return true
	}
	return stopWords[w]
}

func isDigit(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) < 0
}

// Stem reduces a word to its Snowball (Porter2) English stem, so that
// "deployments", "deploying" and "deployed" share the stem "deploy". Words
// with digits ("k8s") and words of three letters or fewer stay as they are.
func Stem(w string) string {
	if len(w) <= 3 || strings.ContainsFunc(w, unicode.IsDigit) {
		return w
	}
	stems.RLock()
	s, ok := stems.m[w]
	stems.RUnlock()
	if ok {
		return s
	}
	s = stem(w)
	stems.Lock()
	if len(stems.m) < maxMemoStems {
		stems.m[strings.Clone(w)] = s // w may be a slice of a long text: keep only the word
	}
	stems.Unlock()
	return s
}

// stem is w's stem, not remembered: for words read once, such as a word
// list at load, which would crowd the memo out.
func stem(w string) string {
	if len(w) <= 3 || strings.ContainsFunc(w, unicode.IsDigit) {
		return w
	}
	return english.Stem(american(w), true)
}

// maxMemoStems bounds the stems remembered: about 5 MB at most, the
// vocabulary of many conferences; words past it are stemmed each time.
const maxMemoStems = 1 << 16

// stems remembers words' stems: stemming was half of an offline turn.
var stems = struct {
	sync.RWMutex
	m map[string]string
}{m: map[string]string{}}

// britishEndings are spelling endings that British and American English
// write differently, with the American form.
var britishEndings = [][2]string{
	{"isations", "izations"}, {"isation", "ization"}, {"ising", "izing"}, {"ised", "ized"}, {"ises", "izes"},
	{"ise", "ize"}, {"isers", "izers"}, {"iser", "izer"}, {"yse", "yze"}, {"ysed", "yzed"}, {"ysing", "yzing"},
	{"ours", "ors"}, {"our", "or"}, {"tres", "ters"}, {"tre", "ter"}, {"ogues", "ogs"}, {"ogue", "og"},
	{"ences", "enses"}, {"ence", "ense"}, {"mmes", "ms"}, {"mme", "m"}, {"bres", "bers"}, {"bre", "ber"},
}

// american spells a British word the American way when the dictionary
// knows that spelling, or its singular ("organisation" → "organization",
// "centre" → "center", "licences" → "licenses", "behaviours" →
// "behaviors"), so both stem alike; "expertise" stays, there is no
// "expertize", nor "conferense". Only "-isation" is always British.
func american(w string) string {
	for _, e := range britishEndings {
		if base, ok := strings.CutSuffix(w, e[0]); ok && len(base) > 1 {
			if alt := base + e[1]; strings.HasPrefix(e[0], "isation") || IsEnglish(alt) || IsEnglish(strings.TrimSuffix(alt, "s")) {
				return alt
			}
			return w
		}
	}
	return w
}

// IsStopMisspelled reports whether w (lower-cased) is a function word of
// five letters or more typed with one letter missing ("wher", "ther",
// "abot"): no English word, and nothing a question asks about.
func IsStopMisspelled(w string) bool {
	n := len(w)
	if n < 4 || n > 7 || stopWords[w] || IsEnglish(w) {
		return false
	}
	for i := 0; i <= n; i++ {
		for c := byte('a'); c <= 'z'; c++ {
			if stopWords[w[:i]+string(c)+w[i:]] {
				return true
			}
		}
	}
	return false
}
