package lexical

import (
	"cmp"
	"slices"
	"strings"
)

// Match is one document's lexical evidence for a question.
type Match struct {
	Key string
	// BM25 is the document's BM25 score for the question's concepts, each
	// weighed by its share of the question's weight, over the most any
	// document could score: 0–1.
	BM25 float64
	// Coverage is the share of the question's concept weight the document
	// contains, 0–1.
	Coverage float64
}

// Rank scores the documents of group that contain at least one of the
// analysis's concepts, best first (coverage, then BM25, then key). allow,
// when not nil, keeps only the documents it accepts.
func (c *Corpus) Rank(group string, a Analysis, allow func(key string) bool) []Match {
	x := c.groups[group]
	if x == nil || len(a.Concepts) == 0 {
		return nil
	}
	var allowed map[int32]bool
	if allow != nil {
		allowed = map[int32]bool{}
		for i, k := range x.keys {
			if allow(k) {
				allowed[int32(i)] = true
			}
		}
	}
	scores := map[int32]float64{}
	ceiling, total := 0.0, a.Weight()
	for _, k := range a.Concepts {
		share := k.Weight / max(total, 1e-9)
		x.score(k.Stem, share, scores, allowed)
		ceil := x.idf[k.Stem]
		for _, alt := range k.Alts { // another way to write it scores too
			for _, s := range alt {
				x.score(s, share/float64(len(alt)), scores, allowed)
				ceil = max(ceil, x.idf[s])
			}
		}
		ceiling += share * ceil * (k1 + 1)
	}
	out := make([]Match, 0, len(scores))
	for doc, s := range scores {
		out = append(out, Match{Key: x.keys[doc], BM25: s / max(ceiling, 1e-9), Coverage: coverage(x, doc, a, total)})
	}
	slices.SortFunc(out, func(p, q Match) int {
		return cmp.Or(cmp.Compare(q.Coverage, p.Coverage), cmp.Compare(q.BM25, p.BM25), strings.Compare(p.Key, q.Key))
	})
	return out
}

// Coverage is the share of a's concept weight that the document key of
// group contains; 0 for a document the corpus does not have.
func (c *Corpus) Coverage(group, key string, a Analysis) float64 {
	x := c.groups[group]
	if x == nil {
		return 0
	}
	doc, ok := x.byKey[key]
	if !ok {
		return 0
	}
	return coverage(x, doc, a, a.Weight())
}

// coverage is the share of total, a's weight, that document doc has.
func coverage(x *index, doc int32, a Analysis, total float64) float64 {
	got := 0.0
	for _, k := range a.Concepts {
		if x.hasConcept(k, doc) {
			got += k.Weight
		}
	}
	if total <= 0 {
		return 0
	}
	return got / total
}

// hasConcept reports whether a document has a concept's stem or one of its
// alternatives (see hasPhrase).
func (x *index) hasConcept(k Concept, doc int32) bool {
	if x.has(k.Stem, doc) {
		return true
	}
	for _, alt := range k.Alts {
		if x.hasPhrase(alt, doc) {
			return true
		}
	}
	return false
}

// hasPhrase reports whether a document has every stem of a phrase, or,
// for a phrase of three words or more, every one but the least telling:
// its commonest in this table, or one the table never uses ("money
// laundering" for anti-money laundering).
func (x *index) hasPhrase(alt []string, doc int32) bool {
	missing, commonest := -1, -1
	for i, s := range alt {
		if !x.has(s, doc) {
			if missing >= 0 {
				return false
			}
			missing = i
		}
		if commonest < 0 || x.idf[s] < x.idf[alt[commonest]] { // a stem the table never uses has no idf here
			commonest = i
		}
	}
	return len(alt) > 0 && (missing < 0 || (len(alt) >= 3 && missing == commonest))
}
