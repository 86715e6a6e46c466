package rules

import (
	"fmt"
	"strings"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// minSpelling is the character-trigram similarity above which an unknown
// word is taken as a misspelling of a conference word.
const minSpelling = 0.5

// rewritten is a query text in the conference's own words.
type rewritten struct {
	text     string
	changed  bool
	expanded [][2]string // jargon → expansion
	spelled  [][2]string // misspelling → conference word
	dropped  []string    // unknown words with no substitute
}

// rewrite replaces jargon and abbreviations by their glossary expansions
// (preferring the ones this conference uses), corrects misspellings to the
// nearest conference word and drops words the conference never uses. It
// leaves known words alone.
func rewrite(lex *search.Lexicon, text string) rewritten {
	words := terms.Words(text)
	var out []string
	var r rewritten
	for i := 0; i < len(words); i++ {
		w := words[i]
		if exp, n := expand(words, i); n > 0 && (n > 1 || isAbbreviation(w) || !knows(lex, w)) && !allKnown(lex, words[i:i+n]) {
			use := knownExpansions(lex, exp)
			out = append(out, use...)
			r.expanded = append(r.expanded, [2]string{strings.Join(words[i:i+n], " "), strings.Join(use, ", ")})
			i += n - 1
			continue
		}
		switch {
		case terms.IsStop(w) || fillerWords[w]:
		case knows(lex, w):
			out = append(out, w)
		default:
			if near, sim := nearest(lex, w); sim >= minSpelling {
				out = append(out, near)
				r.spelled = append(r.spelled, [2]string{w, near})
			} else {
				r.dropped = append(r.dropped, w)
			}
		}
	}
	r.text = strings.Join(dedupe(out), " ")
	r.changed = r.text != "" && len(r.expanded)+len(r.spelled)+len(r.dropped) > 0
	if !r.changed {
		r.text = text
	}
	return r
}

// allKnown reports whether a multi-word term is already in the conference's
// words, so "feature store" is not expanded when the programme says so.
func allKnown(lex *search.Lexicon, words []string) bool {
	if len(words) == 1 && isAbbreviation(words[0]) {
		return false
	}
	for _, w := range words {
		if !terms.IsStop(w) && !knows(lex, w) {
			return false
		}
	}
	return true
}

// isAbbreviation is a short word, or one mixing letters and digits ("k8s").
func isAbbreviation(w string) bool {
	return len(w) <= 4 || strings.ContainsAny(w, "0123456789")
}

// knownExpansions keeps up to two expansions whose words the conference
// uses; when none is known it keeps the first, which is still the best guess.
func knownExpansions(lex *search.Lexicon, exp []string) []string {
	var out []string
	for _, e := range exp {
		if len(out) < 2 && allWordsKnown(lex, e) {
			out = append(out, e)
		}
	}
	if len(out) == 0 && len(exp) > 0 {
		out = exp[:1]
	}
	return out
}

func allWordsKnown(lex *search.Lexicon, phrase string) bool {
	for _, t := range terms.Content(phrase) {
		if !knows(lex, t.Raw) {
			return false
		}
	}
	return true
}

func knows(lex *search.Lexicon, w string) bool { return lex != nil && lex.Knows(w) }

func nearest(lex *search.Lexicon, w string) (string, float64) {
	if lex == nil || len(w) < 4 {
		return "", 0
	}
	return lex.Nearest(w)
}

func dedupe(words []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// reason explains the rewrite for the developer-facing reasoning.
func (r rewritten) reason() string {
	var parts []string
	for _, e := range r.expanded {
		parts = append(parts, fmt.Sprintf("%q→%q", e[0], e[1]))
	}
	for _, s := range r.spelled {
		parts = append(parts, fmt.Sprintf("%q looks like %q", s[0], s[1]))
	}
	if len(r.dropped) > 0 {
		parts = append(parts, fmt.Sprintf("unknown here: %s", strings.Join(r.dropped, ", ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, "; ")
}

// note tells the attendee what the rewrite does, in one sentence.
func (r rewritten) note() string {
	switch {
	case len(r.expanded) > 0:
		e := r.expanded[0]
		return fmt.Sprintf("This programme doesn't use the term %s, so I'm searching for %s instead.", quote(e[0]), quote(strings.SplitN(e[1], ", ", 2)[0]))
	case len(r.spelled) > 0:
		return fmt.Sprintf("I couldn't find %s, so I'm searching for %s instead.", quote(r.spelled[0][0]), quote(r.spelled[0][1]))
	}
	return fmt.Sprintf("Some of your words don't appear in this programme, so I'm searching for %s instead.", quote(shorten(r.text, 8)))
}
