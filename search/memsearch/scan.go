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
	allowed := allowSet(q.IDs)
	rows, quant := s.facets, s.qfacets
	if q.Mode == search.Master {
		rows, quant = s.masters, s.qmasters
	}
	var top topK
	if quant == nil {
		sims := rowSims(buf, q.Vector, rows, s.dim)
		top = s.rank(q, allowed, sims, topK{k: q.Limit})
	} else {
		top = s.rerank(q, allowed, buf, quant)
	}
	return s.hits(q, top.sorted(), *buf)
}

// rank offers every allowed live entity to top, scored from sims (one per
// row of the query's matrix).
func (s *shard) rank(q search.VectorQuery, allowed allow, sims []float32, top topK) topK {
	for _, e := range s.ents {
		if e.live && allowed.has(e.id) {
			top.offer(s.score(q, sims, e), e)
		}
	}
	return top
}

// score is an entity's score from the similarities of its rows.
func (s *shard) score(q search.VectorQuery, sims []float32, e entity) float32 {
	if q.Mode == search.Master {
		return sims[e.master]
	}
	if e.facetN == 0 {
		return 0
	}
	end := e.facetOff + e.facetN
	return search.FacetScore(sims[e.facetOff:end], s.weights[e.facetOff:end], s.total, q.FacetFloor)
}

// rerank picks candidates from the int8 scan, then scores them again from
// the float rows, writing their exact similarities over the approximate ones
// in buf.
func (s *shard) rerank(q search.VectorQuery, allowed allow, buf *[]float32, quant *qmatrix) topK {
	sims := quant.approxSims(buf, q.Vector, s.dim)
	cands := s.rank(q, allowed, sims, topK{k: candidates(q.Limit), keepAll: true})
	top := topK{k: q.Limit}
	for _, c := range cands.sorted() {
		off, n, rows := c.e.facetOff, c.e.facetN, s.facets
		if q.Mode == search.Master {
			off, n, rows = c.e.master, 1, s.masters
		}
		dotRows(q.Vector, rows[off*s.dim:(off+n)*s.dim], s.dim, sims[off:off+n])
		top.offer(s.score(q, sims, c.e), c.e)
	}
	return top
}

// candidates is how many entities the int8 scan hands to the exact scoring.
func candidates(limit int) int { return max(8*limit, 128) }

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
	k       int
	keepAll bool // keep scores ≤ 0 too (candidates, whose scores are approximate)
	best    []candidate
}

func better(a, b candidate) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return strings.Compare(a.e.id, b.e.id) < 0
}

func (t *topK) offer(score float32, e entity) {
	if score <= 0 && !t.keepAll {
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
