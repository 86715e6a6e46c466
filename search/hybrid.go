package search

import (
	"cmp"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search/lexical"
)

// Hybrid scoring. A result's score is
//
//	LexicalShare × lexical + VectorShare × vector
//
// where lexical = 0.8 × coverage + 0.2 × BM25 over its ceiling (coverage:
// the share of the question's word weight, by rarity in the conference,
// that the entity contains; BM25 adds how often and how prominently) and vector is the vector
// similarity placed between this conference's background and a typical
// true match (see levels). Both parts are 0–1 and mean the same in every
// conference and with every embedder, so the score levels below are not
// constants of one data set: 1 is a full match, 0.6 most of the question
// well supported, 0.3 a partial match.
const (
	LexicalShare = 0.6
	VectorShare  = 0.4
	coverShare   = 0.8
	// candidates is how many vector hits are fused with the lexical
	// ranking, at least.
	candidates = 30
)

// Levels are the score levels of the hybrid scale (Calibration's Threshold,
// Confident, Relaxed and Loosest).
var Levels = Calibration{Threshold: 0.3, Confident: 0.6, Relaxed: 0.2, Loosest: 0.1}

// MinCoverage is the share of a question's word weight an entity must
// contain to count as an answer: whatever its vector says, an entity that
// has less than a third of what was asked does not answer it.
const MinCoverage = 1.0 / 3

// fused is one candidate of a hybrid search.
type fused struct {
	ref      Ref
	vector   float32
	facets   []FacetMatch
	bm25     float64
	coverage float64
}

// fuse merges vector hits and lexical matches into candidates. A hit with
// no lexical match contains none of the question's words: coverage 0.
func fuse(hits []Hit, matches []lexical.Match, conf string) []fused {
	byKey := map[string]*fused{}
	for _, h := range hits {
		byKey[h.Key()] = &fused{ref: h.Ref, vector: h.Score, facets: h.Facets}
	}
	for _, m := range matches {
		f := byKey[m.Key]
		if f == nil {
			f = &fused{ref: refOf(conf, m.Key)}
			byKey[m.Key] = f
		}
		f.bm25, f.coverage = m.BM25, m.Coverage
	}
	out := make([]fused, 0, len(byKey))
	for _, f := range byKey {
		out = append(out, *f)
	}
	return out
}

func refOf(conf, key string) Ref {
	table, id, _ := strings.Cut(key, "/")
	return Ref{Conference: conf, Table: Table(table), ID: id}
}

// scored ranks fused candidates by their hybrid score.
func scored(fs []fused, lv levels, vectorOnly bool) []scoredHit {
	out := make([]scoredHit, len(fs))
	for i, f := range fs {
		lexicalPart := coverShare*f.coverage + (1-coverShare)*min(f.bm25, 1)
		s := LexicalShare*lexicalPart + VectorShare*lv.place(f.vector)
		if vectorOnly { // ablation: the vector alone, on the same scale
			s = lv.place(f.vector)
		}
		out[i] = scoredHit{fused: f, score: float32(s)}
	}
	slices.SortFunc(out, func(a, b scoredHit) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.ref.ID, b.ref.ID)
	})
	return out
}

type scoredHit struct {
	fused
	score float32
}

// levels place a vector similarity on the 0–1 scale of one conference,
// table and mode: bg is where unrelated entities score, pos where a true
// match typically scores.
type levels struct{ bg, pos float32 }

func (lv levels) place(v float32) float64 {
	if lv.pos <= lv.bg {
		return 0
	}
	return float64(min(max((v-lv.bg)/(lv.pos-lv.bg), 0), 1))
}
