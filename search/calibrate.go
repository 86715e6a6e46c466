package search

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// Calibration samples: at most this many pseudo-questions per table, and
// at least this many measured before their levels are trusted.
const (
	maxProbes = 40
	minProbes = 5
)

type tableMode struct {
	table Table
	mode  Mode
}

// probe is a pseudo-question made of an entity's rarest title words, whose
// true match is that entity.
type probe struct {
	ref      Ref
	text     string
	analysis lexical.Analysis
}

// calibrate measures, for each table and mode of one conference, where the
// embedder scores entities that share no word with a question (the
// background: the 90th percentile of the best of them) and where it
// scores the entity a question was made from (the median). Scores are
// placed between the two, so "weak" and "strong" mean the same whatever the
// embedder and the conference's writing. Tables too small to measure keep
// the embedder's own levels. It also returns the conference's alike level
// (see Meaning), measured on the same pseudo-questions.
func (e *Engine) calibrate(ctx context.Context, docs []Document, lex *Lexicon) (map[tableMode]levels, float32, error) {
	if e.off.Off("calibration") {
		return nil, 0, nil
	}
	byTable := map[Table][]probe{}
	var all []probe // every table's, in Tables order
	var texts []string
	for _, tb := range Tables {
		if probes := probesOf(docs, tb, lex); len(probes) >= minProbes { // fewer cannot be measured
			byTable[tb] = probes
			all = append(all, probes...)
			for _, p := range probes {
				texts = append(texts, p.text)
			}
		}
	}
	vecs, err := e.embedder.Embed(ctx, texts) // one batch for the conference
	if err != nil {
		return nil, 0, fmt.Errorf("search: embed calibration questions: %w", err)
	}
	alike := alikeLevel(all, vecs)
	out := map[tableMode]levels{} // a table missing here keeps the embedder's own levels
	for _, tb := range Tables {
		probes := byTable[tb]
		if probes == nil {
			continue
		}
		for _, m := range []Mode{Faceted, Master} {
			lv, err := e.measure(ctx, tb, m, probes, vecs[:len(probes)], lex)
			if err != nil {
				return nil, 0, err
			}
			out[tableMode{tb, m}] = lv
		}
		vecs = vecs[len(probes):]
	}
	return out, alike, nil
}

// alikeLevel is where the embedder places two of the conference's
// questions that share no word: the 90th percentile, over the
// pseudo-questions, of each one's best cosine with another that shares none
// of its words (the background, as for search levels). Texts above it are
// more alike than unrelated ones. 0 (unmeasured) with fewer than minProbes.
func alikeLevel(probes []probe, vecs [][]float32) float32 {
	if len(probes) < minProbes {
		return 0
	}
	stems := make([]map[string]bool, len(probes))
	for i, p := range probes {
		stems[i] = map[string]bool{}
		for _, c := range p.analysis.Concepts {
			stems[i][c.Stem] = true
		}
	}
	var best []float32
	for i := range probes {
		b := float32(-1)
		for j := range probes {
			if i != j && disjoint(stems[i], stems[j]) {
				b = max(b, Dot(vecs[i], vecs[j]))
			}
		}
		if b > -1 {
			best = append(best, b)
		}
	}
	if len(best) < minProbes {
		return 0
	}
	return quantile(best, 0.9)
}

func disjoint(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return false
		}
	}
	return true
}

func (e *Engine) measure(ctx context.Context, tb Table, m Mode, probes []probe, vecs [][]float32, lex *Lexicon) (levels, error) {
	var pos, bg []float32
	for i, p := range probes {
		hits, err := e.index.Search(ctx, VectorQuery{Conference: p.ref.Conference, Table: tb, Mode: m, Vector: vecs[i],
			Limit: MaxLimit, FacetFloor: e.embedder.Calibration().FacetFloor})
		if err != nil {
			return levels{}, fmt.Errorf("search: calibration search: %w", err)
		}
		bestOther := float32(0)
		for _, h := range hits {
			switch {
			case h.Ref == p.ref:
				pos = append(pos, h.Score)
			case lex.corpus.Coverage(string(tb), h.Key(), p.analysis) == 0:
				bestOther = max(bestOther, h.Score)
			}
		}
		bg = append(bg, bestOther)
	}
	if len(pos) < minProbes {
		return e.ownLevels(), nil
	}
	return levels{bg: quantile(bg, 0.9), pos: quantile(pos, 0.5)}, nil
}

// probesOf makes pseudo-questions from up to maxProbes entities of table
// tb, evenly spread: each entity's one to three rarest title words.
func probesOf(docs []Document, tb Table, lex *Lexicon) []probe {
	var of []Document
	for _, d := range docs {
		if d.Table == tb {
			of = append(of, d)
		}
	}
	stride := max(1, (len(of)+maxProbes-1)/maxProbes)
	var out []probe
	for i := 0; i < len(of); i += stride {
		if text := rarestWords(of[i].Title, lex, 3); text != "" {
			out = append(out, probe{ref: of[i].Ref, text: text, analysis: lex.Analyze(text)})
		}
	}
	return out
}

func rarestWords(title string, lex *Lexicon, n int) string {
	var words []string
	seen := map[string]bool{}
	for _, t := range terms.Content(title) {
		if !seen[t.Stem] {
			seen[t.Stem] = true
			words = append(words, t.Raw)
		}
	}
	slices.SortStableFunc(words, func(a, b string) int { return lex.corpus.DF(a) - lex.corpus.DF(b) })
	return strings.Join(words[:min(n, len(words))], " ")
}

func quantile(xs []float32, q float64) float32 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}
