package lexical

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search/terms"
)

// connectors may sit inside a phrase without giving it a letter
// ("software bill of materials" is SBOM, "research and development" R&D,
// "mechanical ventilation with heat recovery" MVHR, "reinforcement learning
// from human feedback" RLHF).
var connectors = map[string]bool{"of": true, "and": true, "for": true, "the": true, "to": true, "in": true, "on": true, "as": true, "a": true, "with": true, "from": true}

// definition matches "long form (ACR)", the way texts introduce acronyms.
var definition = regexp.MustCompile(`\(([A-Za-z][A-Za-z0-9&/-]{1,9})\)`)

// acronyms is what a corpus knows about its abbreviations.
type acronyms struct {
	defined map[string]string         // "sbom" → "software bill of materials", from "… (SBOM)"
	upper   map[string]bool           // words written in capitals somewhere ("sbom")
	upperBy map[byte][]string         // the same, by first letter
	spelt   map[string]string         // each of them as its words must spell it ("b2b"), "" for "k8s"
	seqs    [][]string                // every distinct sentence's words in order, stop words included
	byFirst map[byte][]position       // where each initial letter starts a word
	xFirst  []position                // where a word giving an acronym's X starts (see gives)
	camel   map[string]map[string]int // "osm" → "openstreetmap" → occurrences, from OpenStreetMap
	spoken  map[byte]int              // how often the words a numeral stands for occur ("to" for 2)
}

type position struct{ seq, at int }

func mineAcronyms(docs []Doc, v *vocabulary) acronyms {
	a := acronyms{defined: map[string]string{}, upper: map[string]bool{}, byFirst: map[byte][]position{}, camel: map[string]map[string]int{}, spoken: map[byte]int{}}
	seen := map[string]bool{} // sentences already read
	for _, d := range docs {
		for _, f := range d.Fields {
			a.addText(f.Text, seen)
		}
	}
	for _, first := range initialsOf('x') {
		for _, p := range a.byFirst[first] {
			if gives(a.seqs[p.seq][p.at], 'x', true) {
				a.xFirst = append(a.xFirst, p)
			}
		}
	}
	a.upperBy, a.spelt = map[byte][]string{}, map[string]string{}
	for acr := range a.upper {
		a.upperBy[acr[0]] = append(a.upperBy[acr[0]], acr)
		a.spelt[acr], _ = spelling(acr)
	}
	return a
}

// addText reads a text sentence by sentence, each distinct sentence once:
// a sentence that recurs because it was copied (a talk's title in its
// speaker's entry too) is one occurrence of its words and phrases, not two.
func (a *acronyms) addText(text string, seen map[string]bool) {
	for _, m := range definition.FindAllStringSubmatchIndex(text, -1) {
		acr := text[m[2]:m[3]]
		want, ok := spelling(acr)
		if long := longFormBefore(terms.Words(text[:m[0]]), want); ok && long != "" && IsCapitals(acr) {
			a.defined[want] = long
		}
	}
	for _, sentence := range sentenceEnd.Split(text, -1) {
		seq := terms.Words(sentence)
		key := strings.Join(seq, " ")
		if key == "" || seen[key] {
			continue
		}
		seen[key] = true
		a.addWords(sentence)
		a.addSentence(seq)
	}
}

// addWords notes the words of a sentence written in capitals or in joined
// capitalised parts.
func (a *acronyms) addWords(sentence string) {
	for _, w := range strings.Fields(sentence) {
		w = unpunctuated(w)
		if IsCapitals(w) {
			a.upper[strings.ToLower(w)] = true
		}
		if init := camelInitials(w); init != "" {
			if a.camel[init] == nil {
				a.camel[init] = map[string]int{}
			}
			a.camel[init][strings.ToLower(w)]++
		}
	}
}

// sentenceEnd splits a text into sentences.
var sentenceEnd = regexp.MustCompile(`[.!?;]\s+`)

// addSentence indexes a sentence's words by initial.
func (a *acronyms) addSentence(seq []string) {
	n := len(a.seqs)
	a.seqs = append(a.seqs, seq)
	for i, w := range seq {
		if w != "" && !connectors[w] {
			a.byFirst[w[0]] = append(a.byFirst[w[0]], position{n, i})
		}
		for _, c := range []byte{'2', '4'} {
			if gives(w, c, false) {
				a.spoken[c]++
			}
		}
	}
}

// transposed returns the acronym written in capitals that w spells with
// its letters in another order ("wgac" for WCAG, "rhlf" for RLHF), when
// exactly one does; three letters in another order are as often another
// acronym (PAI, a pre-approval inspection, is not API).
func (a *acronyms) transposed(w string) (string, bool) {
	if n := len(w); n < 4 || n > 6 || a.upper[w] {
		return "", false
	}
	found := ""
	for u := range a.upper {
		if len(u) == len(w) && sameLetters(u, w) {
			if found != "" {
				return "", false
			}
			found = u
		}
	}
	return found, found != ""
}

// swapped returns the long forms of the acronym w spells with two
// neighbouring letters swapped ("rhlf" for RLHF, spelt out as
// "reinforcement learning from human feedback"), when exactly one such
// acronym has any.
func (a *acronyms) swapped(w string) []string {
	if n := len(w); n < 3 || n > 6 {
		return nil
	}
	var found []string
	for i := 0; i+1 < len(w); i++ {
		if !isLetter(w[i]) || !isLetter(w[i+1]) {
			continue // a numeral is no slip of the finger
		}
		b := []byte(w)
		b[i], b[i+1] = b[i+1], b[i]
		if s := string(b); s != w {
			if exp := a.expansions(s); len(exp) > 0 {
				if found != nil {
					return nil
				}
				found = exp
			}
		}
	}
	return found
}

// expansions lists the phrases of the corpus that acr abbreviates, most
// frequent first: the long form a text defines, then phrases whose words'
// initials spell it, found at least twice; the two most frequent are kept.
func (a *acronyms) expansions(acr string) []string {
	want, ok := spelling(acr)
	if !ok || len(want) < 2 || len(want) > 6 {
		return nil
	}
	counts := map[string]int{}     // by the phrase's stems: "systems" and "system" are one phrase
	surface := map[string]string{} // stems → the first written form
	add := func(phrase string, n int) {
		key := strings.Join(stemsOf(phrase), " ")
		if _, ok := surface[key]; !ok {
			surface[key] = phrase
		}
		counts[key] += n
	}
	next := map[string]map[string]int{} // phrase → the words that follow it
	for _, p := range a.startingWith(want[0]) {
		if found := a.phraseAt(p, want); found != "" {
			phrase, follower, _ := strings.Cut(found, "\x00")
			add(phrase, 1)
			key := strings.Join(stemsOf(phrase), " ")
			if next[key] == nil {
				next[key] = map[string]int{}
			}
			next[key][follower]++
		}
	}
	for key, followers := range next {
		if fragment(followers, counts[key]) {
			delete(counts, key)
		}
	}
	if long, ok := a.defined[want]; ok {
		add(long, 2)
	}
	for word, n := range a.camel[want] {
		add(word, n)
	}
	var out []string
	for _, key := range rank(counts) {
		out = append(out, surface[key])
	}
	if len(out) == 0 {
		if key, ok := a.once(counts, want); ok {
			out = append(out, surface[key])
		}
	}
	return slices.DeleteFunc(out, onlyFunctionWords) // "or at" spells OA, and stands for nothing
}

// onlyFunctionWords reports whether a phrase has no content word.
func onlyFunctionWords(phrase string) bool { return len(terms.Content(phrase)) == 0 }

// maxChance is how likely, at most, the corpus may be to hold a phrase
// spelling an acronym by chance for a phrase found once to be read as what
// it abbreviates: less than one in ten.
const maxChance = 0.1

// once returns the one phrase found once that spells want, when no other
// does, it does not hold the acronym itself ("software bill of materials
// SBOM" does not spell SBOMs), and a phrase with those initials is unlikely
// to occur by chance in this corpus: "computerized provider order entry"
// for CPOE, which four letters rarely spell, but no single phrase for a
// three-letter acronym in a large programme, where several would by chance.
func (a *acronyms) once(counts map[string]int, want string) (string, bool) {
	if len(counts) != 1 {
		return "", false
	}
	for key, n := range counts {
		if n == 1 && !strings.Contains(" "+key+" ", " "+strings.TrimSuffix(want, "s")) && a.chance(want) <= maxChance {
			return key, true
		}
	}
	return "", false
}

// chance is the probability that the corpus holds at least one phrase
// whose words' initials spell want by chance: with N word positions and
// p(c) the share of words starting with c, about N·Πp(c) phrases are
// expected (a Poisson count), so 1 − e^(−N·Πp(c)).
func (a *acronyms) chance(want string) float64 {
	n := 0
	for _, ps := range a.byFirst {
		n += len(ps)
	}
	if n == 0 {
		return 1
	}
	expected := float64(n)
	for i := range len(want) {
		if numeral(want[i]) {
			expected *= float64(a.spoken[want[i]]) / float64(n)
			continue
		}
		k := len(a.startingWith(want[i]))
		if want[i] == 'x' && i > 0 {
			k += len(a.byFirst['e']) // past the first letter, ex- words too (see gives): counted generously
		}
		expected *= float64(k) / float64(n)
	}
	return 1 - math.Exp(-expected)
}

// fragment reports whether a phrase is mostly the start of a longer one:
// the same content word follows it in two thirds of its occurrences ("open
// source machine" is always "open source machine learning"), so its
// initials are not what it abbreviates.
func fragment(followers map[string]int, n int) bool {
	for w, c := range followers {
		if w != "" && !terms.IsStop(w) && !connectors[w] && 3*c >= 2*n {
			return true
		}
	}
	return false
}

// startingWith lists the word positions where a word giving letter c may
// start a phrase (see gives): for an X, those of cross-, trans- and ex-
// words too, gathered once.
func (a *acronyms) startingWith(c byte) []position {
	if c == 'x' {
		return a.xFirst
	}
	return a.byFirst[c]
}

func stemsOf(phrase string) []string {
	var out []string
	for _, w := range terms.Words(phrase) {
		out = append(out, terms.Stem(w))
	}
	return out
}

// phraseAt reads, from a word position, a phrase whose initials spell
// want, allowing connectors between its words but not at its ends.
func (a *acronyms) phraseAt(p position, want string) string {
	seq := a.seqs[p.seq]
	words := make([]string, 0, 8) // on the stack: most starts match no phrase
	k, lent := 0, 0               // letters matched, and those a connector lent
	for i := p.at; i < len(seq) && k < len(want); i++ {
		w := seq[i]
		switch {
		case numeral(want[k]) && gives(w, want[k], false) && len(words) > 0:
			words = append(words, w) // the "to" of "end to end"
			k++
		case gives(w, want[k], k == 0) && !connectors[w]:
			words = append(words, w)
			k++
		case connectors[w] && len(words) > 0:
			words = append(words, w)
			if w[0] == want[k] && k+1 < len(want) && a.letterAhead(seq, i+1, want[k+1]) {
				k++ // "bill of materials": the connector gives the O of SBOM
				lent++
			}
		default:
			return ""
		}
	}
	// Two content words and a lent letter spell three-letter words by
	// chance ("security and privacy" is not SAP); the common ones of that
	// shape (IoT, PoC) are the general glossary's.
	if k < len(want) || len(words) < 2 || words[len(words)-1] == want || (lent > 0 && k-lent < 3) {
		return ""
	}
	return strings.Join(words, " ") + "\x00" + after(seq, p.at+len(words))
}

// after is the word that follows a phrase, "" at the end of its text.
func after(seq []string, i int) string {
	if i < len(seq) {
		return seq[i]
	}
	return ""
}

// letterAhead reports whether the next word starts with letter.
func (a *acronyms) letterAhead(seq []string, i int, letter byte) bool {
	return i < len(seq) && seq[i] != "" && seq[i][0] == letter
}

// rank keeps the phrases seen at least twice (a definition counts twice),
// most frequent first, at most two: one phrase whose initials happen to
// spell a word is a coincidence, not an expansion.
func rank(counts map[string]int) []string {
	var out []string
	for phrase, n := range counts {
		if n >= 2 {
			out = append(out, phrase)
		}
	}
	slices.SortFunc(out, func(x, y string) int {
		if counts[x] != counts[y] {
			return counts[y] - counts[x]
		}
		return strings.Compare(x, y)
	})
	return out[:min(2, len(out))]
}

// abbreviation returns the corpus's acronym for a phrase of three or more
// words of the question ("software bill of materials" → "sbom") when the
// corpus writes that acronym in capitals; two letters are too ambiguous.
// The phrase's words are content words, connectors only inside it.
func (a *acronyms) abbreviation(words []string) string {
	if len(words) < 2 {
		return ""
	}
	n := 0 // the phrase's initials
	for _, w := range words {
		if !connectors[w] {
			n++
		}
		if w == "" || !connectors[w] && (terms.IsStop(w) || generic[w]) {
			return "" // a long form is a run of content words: "i can use" is not ICU
		}
	}
	if connectors[words[0]] || connectors[words[len(words)-1]] || n < 3 {
		return ""
	}
	var found []string
	firsts := []byte{words[0][0]}
	if words[0][0] != 'x' && gives(words[0], 'x', true) {
		firsts = append(firsts, 'x') // "cross site scripting" is XSS
	}
	for _, first := range firsts {
		for _, acr := range a.upperBy[first] {
			if want := a.spelt[acr]; want != "" && len(acr) >= n && spells(words, want) && !slices.Contains(found, acr) {
				found = append(found, acr)
			}
		}
	}
	found = slices.DeleteFunc(found, func(acr string) bool { return !a.mayStandFor(acr, words) })
	slices.Sort(found)
	if len(found) == 0 {
		return ""
	}
	return found[len(found)-1]
}

// mayStandFor reports whether an acronym may abbreviate a phrase: the
// conference spells it out nowhere ("CFD" alone), or mostly as that
// phrase. Where it writes OSS and "open source software" most,
// "open source spectrometer" (a title seen twice) is not OSS.
func (a *acronyms) mayStandFor(acr string, words []string) bool {
	long := a.expansions(acr)
	return len(long) == 0 || slices.Equal(stemsOf(long[0]), stemsOf(strings.Join(words, " ")))
}
