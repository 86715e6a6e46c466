package memsearch

import (
	"slices"
	"strings"
	"sync"

	"github.com/erleah/erleah-agent/search"
)

// scratch holds one similarity per row during a scan; pooled so a search
// allocates only its result.
var scratch = sync.Pool{New: func() any { return new([]float32) }}

func (s *shard) search(q search.VectorQuery) []search.Hit {
	buf := scratch.Get().(*[]float32)
	defer scratch.Put(buf)
	top := topK{k: q.Limit}
	allowed := allowSet(q.IDs)
	if q.Mode == search.Master {
		sims := rowSims(buf, q.Vector, s.masters, s.dim)
		for _, e := range s.ents {
			if e.live && allowed.has(e.id) {
				top.offer(sims[e.master], e)
			}
		}
	} else {
		sims := rowSims(buf, q.Vector, s.facets, s.dim)
		for _, e := range s.ents {
			if e.live && e.facetN > 0 && allowed.has(e.id) {
				end := e.facetOff + e.facetN
				top.offer(search.FacetScore(sims[e.facetOff:end], s.weights[e.facetOff:end], s.total, q.FacetFloor), e)
			}
		}
	}
	return s.hits(q, top.sorted(), *buf)
}

// allow is the set of ids a query may return; nil allows every id.
type allow map[string]bool

func allowSet(ids []string) allow {
	if ids == nil {
		return nil
	}
	out := make(allow, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

func (a allow) has(id string) bool { return a == nil || a[id] }

// rowSims computes the similarity of v with every row of m into the pooled
// buffer.
func rowSims(buf *[]float32, v, m []float32, dim int) []float32 {
	n := len(m) / dim
	if cap(*buf) < n {
		*buf = make([]float32, n)
	}
	out := (*buf)[:n]
	dotRows(v, m, dim, out)
	return out
}

// hits turns ranked candidates into hits above the threshold, with the
// matched facets of each (best first) in faceted mode.
func (s *shard) hits(q search.VectorQuery, ranked []candidate, sims []float32) []search.Hit {
	out := make([]search.Hit, 0, len(ranked))
	for _, c := range ranked {
		if c.score <= 0 || c.score < q.Threshold {
			continue
		}
		h := search.Hit{Ref: search.Ref{Conference: q.Conference, Table: q.Table, ID: c.e.id}, Score: c.score}
		if q.Mode == search.Faceted {
			for r := c.e.facetOff; r < c.e.facetOff+c.e.facetN; r++ {
				if sims[r] >= q.FacetFloor && sims[r] > 0 {
					h.Facets = append(h.Facets, search.FacetMatch{Key: s.names[s.keys[r]], Score: sims[r]})
				}
			}
			slices.SortStableFunc(h.Facets, func(a, b search.FacetMatch) int { return cmpDesc(a.Score, b.Score) })
		}
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

type candidate struct {
	score float32
	e     entity
}

// topK keeps the k best candidates, best first; equal scores rank by id.
type topK struct {
	k    int
	best []candidate
}

func better(a, b candidate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return strings.Compare(a.e.id, b.e.id) < 0
}

func (t *topK) offer(score float32, e entity) {
	if score <= 0 {
		return
	}
	c := candidate{score: score, e: e}
	if len(t.best) == t.k && !better(c, t.best[len(t.best)-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(t.best, c, func(x, y candidate) int {
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

func (t *topK) sorted() []candidate { return t.best }
