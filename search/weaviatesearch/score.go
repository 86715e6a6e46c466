package weaviatesearch

import (
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/search"
)

func dot(a, b []float32) float32 {
	var sum float64
	for i := range a {
		sum += float64(a[i]) * float64(b[i])
	}
	return float32(sum)
}

// scoredEntity is an entity with its exact score and, in faceted mode, the
// similarity of each of its facets.
type scoredEntity struct {
	id    string
	score float32
	keys  []string
	sims  []float32
}

// topK keeps the k best entities, best first; equal scores rank by id.
type topK struct {
	k    int
	best []scoredEntity
}

func better(a, b scoredEntity) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return strings.Compare(a.id, b.id) < 0
}

// kthOrZero is the score of the k-th entity, 0 while fewer are kept.
func (t *topK) kthOrZero() float32 {
	if len(t.best) < t.k {
		return 0
	}
	return t.best[t.k-1].score
}

func (t *topK) offer(c scoredEntity) {
	if c.score <= 0 {
		return
	}
	if len(t.best) == t.k && !better(c, t.best[len(t.best)-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(t.best, c, func(x, y scoredEntity) int {
		if better(x, y) {
			return -1
		}
		return 1
	})
	t.best = slices.Insert(t.best, i, c)
	if len(t.best) > t.k {
		t.best = t.best[:t.k]
	}
}

// hits turns the kept entities into hits above the threshold, with the
// matched facets of each (best first) in faceted mode.
func (t *topK) hits(q search.VectorQuery) []search.Hit {
	out := make([]search.Hit, 0, len(t.best))
	for _, c := range t.best {
		if c.score < q.Threshold {
			continue
		}
		h := search.Hit{Ref: search.Ref{Conference: q.Conference, Table: q.Table, ID: c.id}, Score: c.score}
		for i, sim := range c.sims {
			if sim >= q.FacetFloor && sim > 0 {
				h.Facets = append(h.Facets, search.FacetMatch{Key: c.keys[i], Score: sim})
			}
		}
		slices.SortStableFunc(h.Facets, func(a, b search.FacetMatch) int { return cmpDesc(a.Score, b.Score) })
		out = append(out, h)
	}
	return out
}

func cmpDesc(a, b float32) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return 0
}
