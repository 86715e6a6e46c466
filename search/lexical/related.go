package lexical

import (
	"cmp"
	"slices"
	"strings"
	"unicode"

	"github.com/erleah/erleah-agent/search/terms"
)

// Expansions lists the phrases of the conference that an abbreviation
// stands for, most frequent first (at most two): the long form its text
// defines ("software bill of materials (SBOM)"), or phrases whose initials
// spell it. A word the conference writes in full gives none.
func (c *Corpus) Expansions(word string) []string {
	if c.off.Acronyms {
		return nil
	}
	out := c.acronyms.expansions(word)
	if one, ok := singular(word); ok && len(out) == 0 {
		out = c.acronyms.expansions(one) // "PROMs" are patient-reported outcome measures
	}
	if len(out) == 0 && IsCapitals(word) && !terms.IsEnglish(strings.ToLower(word)) {
		out = c.acronyms.swapped(strings.ToLower(word)) // "RHLF" typed for RLHF; "cert" is no ECRT typed
	}
	if len(out) == 0 {
		if long := c.vocab.clipped(strings.ToLower(word)); long != "" {
			out = []string{long} // "wasm" is WebAssembly, "mgmt" management
		}
	}
	return slices.DeleteFunc(out, func(p string) bool { return strings.EqualFold(p, word) || c.aName(p) })
}

// aName reports whether every word of a phrase is a word of people's names
// here: a question's short word does not stand for a speaker ("PR" is no
// Priya Raghunathan).
func (c *Corpus) aName(phrase string) bool {
	ws := terms.Content(phrase)
	for _, t := range ws {
		if !c.vocab.named[t.Stem] {
			return false
		}
	}
	return len(ws) > 0
}

// singular is an acronym's singular when word may be its plural: at least
// three letters and an s ("PROMs", "APIs"), not a double s ("SaaS").
func singular(word string) (string, bool) {
	n := len(word)
	if n < 4 || (word[n-1] != 's' && word[n-1] != 'S') || word[n-2] == 's' || word[n-2] == 'S' {
		return "", false
	}
	return word[:n-1], true
}

// Abbreviation returns the conference's acronym for a phrase a question
// spells out ("software bill of materials" → "sbom"), when the conference
// writes the acronym in capitals.
func (c *Corpus) Abbreviation(phrase string) string {
	if c.off.Acronyms {
		return ""
	}
	return c.acronyms.abbreviation(terms.Words(phrase))
}

// Related returns up to n words that co-occur with the analysis's known
// concepts in the conference: the words that weigh most (frequency in the
// best-matching documents × rarity) across the documents of group that
// cover the most of the question (pseudo-relevance feedback). Words of the
// question and words most documents share are left out.
func (c *Corpus) Related(group string, a Analysis, n int) []string {
	x := c.groups[group]
	if x == nil {
		return nil
	}
	top := c.Rank(group, a, nil)
	if len(top) == 0 {
		return nil
	}
	top = top[:min(len(top), 5)]
	weight := c.feedback(x, a, top)
	var out []string
	for _, s := range sortedByWeight(weight) {
		if len(out) == n {
			break
		}
		out = append(out, c.Surface(s))
	}
	return out
}

// feedback weighs the stems of the top documents as a relevance model: the
// share of those documents having the stem, each document counted by how
// much of the question it covers, times the stem's rarity here and its
// specificity in general English, so that a word the matching documents
// share by chance (a number, a first name, "new") does not outweigh the
// words they are about. Only stems in at least two of them (or the one
// document when only one matched) count, and no stem of a person's name.
func (c *Corpus) feedback(x *index, a Analysis, top []Match) map[string]float64 {
	asked := map[string]bool{}
	for _, k := range a.Concepts {
		asked[k.Stem] = true
	}
	need := min(2, len(top))
	in, docs := map[string]int{}, map[string]float64{} // stem → top documents having it, and their coverage
	var total float64
	for _, m := range top {
		total += m.Coverage
		for _, s := range x.stems[x.byKey[m.Key]] {
			in[s]++
			docs[s] += m.Coverage
		}
	}
	weight := map[string]float64{}
	for s, n := range in {
		if asked[s] || terms.IsStop(s) || c.vocab.named[s] || strings.ContainsFunc(s, unicode.IsDigit) || float64(c.vocab.df[s]) > 0.2*float64(c.vocab.docs) || n < need {
			continue
		}
		weight[s] = c.vocab.idf(c.vocab.df[s]) * docs[s] / max(total, 1e-9) * terms.Specificity(c.Surface(s))
	}
	return weight
}

func sortedByWeight(w map[string]float64) []string {
	out := make([]string, 0, len(w))
	for s := range w {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(w[b], w[a]), strings.Compare(a, b))
	})
	return out
}
