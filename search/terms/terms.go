// Package terms turns free text into the normalised terms that the offline
// embedder hashes and that reflection uses as vocabulary evidence.
//
// Normalisation is deliberately simple and deterministic: lower-casing,
// splitting on anything that is not a letter or digit, dropping stop words and
// a light suffix-stripping stemmer. All functions are safe for concurrent use.
package terms

import (
	"strings"
	"unicode"
	"unicode/utf8"
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

// Stem strips common English inflections so that "deployments", "deploying"
// and "deployed" share the stem "deploy". It never shortens a word below
// three letters and leaves words with digits alone.
func Stem(w string) string {
	if len(w) <= 3 || strings.ContainsFunc(w, unicode.IsDigit) {
		return w
	}
	for _, rule := range suffixRules {
		if !strings.HasSuffix(w, rule.suffix) {
			continue
		}
		base := w[:len(w)-len(rule.suffix)]
		if len(base)+len(rule.repl) < 3 {
			continue
		}
		return undouble(base) + rule.repl
	}
	return w
}

// undouble turns "runn" (from "running") into "run".
func undouble(base string) string {
	n := len(base)
	if n >= 4 && base[n-1] == base[n-2] && !strings.ContainsRune("lsz", rune(base[n-1])) && !strings.ContainsRune("aeiou", rune(base[n-1])) {
		return base[:n-1]
	}
	return base
}

type suffixRule struct{ suffix, repl string }

// suffixRules are tried in order; the first that applies wins.
var suffixRules = []suffixRule{
	{"ational", "ate"},
	{"izations", "ize"},
	{"ization", "ize"},
	{"isations", "ize"},
	{"isation", "ize"},
	{"ments", ""},
	{"ment", ""},
	{"ings", ""},
	{"ing", ""},
	{"ies", "y"},
	{"ied", "y"},
	{"sses", "ss"},
	{"ised", "ize"},
	{"ises", "ize"},
	{"ise", "ize"},
	{"ized", "ize"},
	{"izes", "ize"},
	{"ed", ""},
	{"ers", "er"},
	{"ss", "ss"},
	{"us", "us"},
	{"is", "is"},
	{"es", "e"},
	{"s", ""},
}
