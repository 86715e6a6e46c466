package rules

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// rewritten is a query text in the conference's own words.
type rewritten struct {
	text     string
	changed  bool
	expanded [][2]string // word → expansion (mined from the conference, or the glossary)
	dropped  []string    // unknown words nothing explains
	related  []string    // words that co-occur with the query's in the conference
	// outweighed: the dropped words weigh more than those left, so the
	// rewrite would ask about something else ("ISO 17025 for our tool
	// room" → "tool").
	outweighed bool
}

// droppedShare is the share of a's word weight that the dropped words
// carry: the rewrite's own reading of the words, which is not always the
// analysis's set of unexplained concepts (see unexplained).
func droppedShare(a lexical.Analysis, dropped []string) float64 {
	var w float64
	for _, k := range a.Concepts {
		if slices.Contains(dropped, k.Word) {
			w += k.Weight
		}
	}
	return w / max(a.Weight(), 1e-9)
}

// rewrite puts a failing query in the conference's words. Words the
// conference never uses are replaced by the phrases they abbreviate there
// (mined from its text), else by the general glossary's expansions the
// conference uses, else dropped; a phrase the conference writes as an
// acronym gains it. When every word is known, the words that co-occur with
// them in the best-matching entities are added instead (pseudo-relevance
// feedback), which widens the query to how this programme talks about it.
func rewrite(lex *search.Lexicon, tb search.Table, text string, off search.Ablation) rewritten {
	if lex == nil {
		return rewritten{text: text}
	}
	a := lex.Analyze(text)
	r := rewritten{}
	words := strings.Fields(a.Topic)
	var out []string
	for i := 0; i < len(words); i++ {
		if form, ok := lex.Corpus().Hyphenated(clean(words[i])); ok {
			out = append(out, form) // "wifi" is the programme's "Wi-Fi", not a word it lacks
			continue
		}
		if exp, n := glossaryAt(lex, words, i); n > 0 {
			out = append(out, exp)
			r.expanded = append(r.expanded, [2]string{clean(strings.Join(words[i:i+n], " ")), exp})
			i += n - 1
			continue
		}
		if parts := split(lex, words[i]); len(parts) > 1 {
			words = slices.Insert(slices.Delete(words, i, i+1), i, parts...) // "AR/VR": each on its own
			i--
			continue
		}
		out = append(out, r.word(lex, words[i], properName(words, i))...)
	}
	if acr := acronymFor(lex, words); acr != "" {
		out = append(out, acr)
		r.expanded = append(r.expanded, [2]string{acr, acr})
	}
	r.text = strings.Join(trimStops(dedupe(out)), " ")
	if len(r.expanded)+len(r.dropped) == 0 && !off.Off("prf") {
		r.related = related(lex, tb, a)
		r.text = strings.TrimSpace(r.text + " " + strings.Join(r.related, " "))
	}
	r.outweighed = len(r.expanded) == 0 && len(a.Concepts)-len(r.dropped) <= 1 && droppedShare(a, r.dropped) > 0.5
	r.changed = strings.TrimSpace(r.text) != "" && len(r.expanded)+len(r.dropped)+len(r.related) > 0
	if !r.changed {
		r.text = text
	}
	return r
}

// word rewrites one written word: kept when the conference knows it (or a
// spelling of it), expanded when the conference's text or the glossary says
// what it abbreviates, dropped otherwise.
func (r *rewritten) word(lex *search.Lexicon, written string, name bool) []string {
	w := clean(written)
	switch {
	case w == "" || terms.IsStop(w):
		return []string{written}
	case !known(lex, w) && terms.IsStopMisspelled(w): // "wher": a function word mistyped, neither searched nor missing
		return nil
	case lexical.Generic(w): // says nothing to search for: not searched, not shown
		return nil
	case known(lex, w):
		return []string{written}
	}
	if exp := lex.Corpus().Expansions(unpunctuated(written)); len(exp) > 0 && !name && abbreviation(written) {
		r.expanded = append(r.expanded, [2]string{w, exp[0]})
		return []string{exp[0]}
	}
	r.dropped = append(r.dropped, w)
	return nil
}

// abbreviation reports whether a written word may be short for something:
// not a word of another language, and not an English word of four letters
// or more written in lower case ("came", "farms", "docs"; "LoRA", "rag" and
// "ml" may be).
func abbreviation(written string) bool {
	w := unpunctuated(written)
	lower := strings.ToLower(w)
	if lower == w && utf8.RuneCountInString(w) >= 4 && terms.IsEnglish(w) {
		return false
	}
	return !lexical.OtherLanguageWord(w)
}

// split cuts a written word at its slashes ("AR/VR"), and at its hyphens
// when the conference lacks one of its parts: "CPOE-to-smart-pump" is
// CPOE, to, smart and pump, each rewritten on its own, where "end-to-end"
// or "on-site" stay one word, and so does an idiom with an article inside
// ("round-the-clock" is no clock).
func split(lex *search.Lexicon, written string) []string {
	if parts := strings.FieldsFunc(written, func(r rune) bool { return r == '/' }); len(parts) > 1 {
		return parts
	}
	w := clean(written)
	if !strings.Contains(w, "-") || allKnown(lex, terms.Words(w)) || slices.ContainsFunc(terms.Words(w), article) {
		return nil
	}
	return strings.FieldsFunc(written, func(r rune) bool { return r == '-' })
}

func article(w string) bool { return w == "the" || w == "a" || w == "an" }

// trimStops drops the stop words left at either end once a word is
// dropped: "eye care or optometry" searches "eye care", not "eye care or".
func trimStops(words []string) []string {
	isStop := func(w string) bool { return terms.IsStop(clean(w)) }
	for len(words) > 0 && isStop(words[0]) {
		words = words[1:]
	}
	for len(words) > 0 && isStop(words[len(words)-1]) {
		words = words[:len(words)-1]
	}
	return words
}

// known reports whether the conference uses a word, or a correction of it.
func known(lex *search.Lexicon, w string) bool { return lex.Corpus().Explains(w) }

func clean(w string) string {
	return strings.ToLower(unpunctuated(w))
}

// unpunctuated is a written word without the punctuation around it, its
// case kept.
func unpunctuated(w string) string { return strings.Trim(w, `.,;:!?¿¡"'“”‘’()[]{}`) }

// glossaryAt finds a general abbreviation at words[i:] that the conference
// does not use but whose expansion it does, longest first.
func glossaryAt(lex *search.Lexicon, words []string, i int) (string, int) {
	norm := make([]string, 0, len(words)-i)
	for _, w := range words[i:] {
		norm = append(norm, terms.Words(w)...)
	}
	exp, n := expand(norm, 0)
	if n == 0 || allKnown(lex, norm[:n]) {
		return "", 0
	}
	span, got := 0, 0 // written tokens covering the n normalised words ("on-prem" is one)
	for got < n && i+span < len(words) {
		got += len(terms.Words(words[i+span]))
		span++
	}
	if got != n {
		return "", 0
	}
	for _, e := range exp {
		if allKnown(lex, terms.Words(e)) {
			return e, span
		}
	}
	return "", 0
}

func allKnown(lex *search.Lexicon, words []string) bool {
	for _, w := range words {
		if !terms.IsStop(w) && !known(lex, w) {
			return false
		}
	}
	return true
}

// related is pseudo-relevance feedback: two words that co-occur with the
// query's in the entities that match it best.
func related(lex *search.Lexicon, tb search.Table, a lexical.Analysis) []string {
	if len(a.Unknown()) > 0 || len(a.Concepts) == 0 {
		return nil
	}
	return lex.Corpus().Related(string(tb), a, 2)
}

func dedupe(words []string) []string {
	var out []string
	for _, w := range words {
		if !slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, w) }) {
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
	if len(r.dropped) > 0 {
		parts = append(parts, "unknown here: "+strings.Join(r.dropped, ", "))
	}
	if len(r.related) > 0 {
		parts = append(parts, "co-occurring here: "+strings.Join(r.related, ", "))
	}
	if len(parts) == 0 {
		return ""
	}
	return " " + strings.Join(parts, "; ")
}

// note tells the attendee what the rewrite does, in one sentence, quoting
// their message only where it reads as they wrote it.
func (r rewritten) note(message string) string {
	switch {
	case len(r.expanded) > 0 && r.expanded[0][0] != r.expanded[0][1]:
		e := r.expanded[0]
		return fmt.Sprintf("This programme doesn't use the term %s, so I'm searching for %s instead.", quote(e[0]), quote(e[1]))
	case len(r.expanded) > 0:
		return fmt.Sprintf("This programme writes it as %s, so I'm searching for that too.", quote(strings.ToUpper(r.expanded[0][0])))
	case len(r.dropped) > 0:
		return fmt.Sprintf("This programme never mentions %s, so I'm searching for %s instead.", wordList(dedupe(r.dropped)),
			quotedOr(message, r.text, "the rest of your question"))
	}
	// The words themselves stay in the trace: the ones a programme shares
	// across the best matches are often a name of a place or product, which
	// would read as a non sequitur.
	return "Nothing matched closely, so I'm adding words this programme often uses alongside yours."
}

// acronymFor is the acronym the conference writes, without spelling it
// out, for a phrase of two to five words, longest first ("computational
// fluid dynamics" in a programme that says only CFD).
func acronymFor(lex *search.Lexicon, words []string) string {
	for n := min(5, len(words)); n >= 2; n-- {
		for i := 0; i+n <= len(words); i++ {
			if acr := lex.Corpus().Abbreviation(strings.Join(words[i:i+n], " ")); acr != "" {
				return acr
			}
		}
	}
	return ""
}
