package memsearch

import (
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
	var top search.TopK[entity]
	if quant == nil {
		sims := rowSims(buf, q.Vector, rows, s.dim)
		top = s.rank(q, allowed, sims, search.TopK[entity]{K: q.Limit})
	} else {
		top = s.rerank(q, allowed, buf, quant)
	}
	return s.hits(q, top.Best(), *buf)
}

// rank offers every allowed live entity to top, scored from sims (one per
// row of the query's matrix).
func (s *shard) rank(q search.VectorQuery, allowed allow, sims []float32, top search.TopK[entity]) search.TopK[entity] {
	for _, e := range s.ents {
		if e.live && allowed.has(e.id) {
			top.Offer(s.score(q, sims, e), e.id, e)
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
func (s *shard) rerank(q search.VectorQuery, allowed allow, buf *[]float32, quant *qmatrix) search.TopK[entity] {
	sims := quant.approxSims(buf, q.Vector, s.dim)
	cands := s.rank(q, allowed, sims, search.TopK[entity]{K: candidates(q.Limit), KeepAll: true})
	top := search.TopK[entity]{K: q.Limit}
	for _, c := range cands.Best() {
		e := c.Item
		off, n, rows := e.facetOff, e.facetN, s.facets
		if q.Mode == search.Master {
			off, n, rows = e.master, 1, s.masters
		}
		dotRows(q.Vector, rows[off*s.dim:(off+n)*s.dim], s.dim, sims[off:off+n])
		top.Offer(s.score(q, sims, e), e.id, e)
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
func (s *shard) hits(q search.VectorQuery, ranked []search.Ranked[entity], sims []float32) []search.Hit {
	out := make([]search.Hit, 0, len(ranked))
	for _, c := range ranked {
		if c.Score <= 0 || c.Score < q.Threshold {
			continue
		}
		h := search.Hit{Ref: search.Ref{Conference: q.Conference, Table: q.Table, ID: c.ID}, Score: c.Score}
		if q.Mode == search.Faceted {
			e := c.Item
			for r := e.facetOff; r < e.facetOff+e.facetN; r++ {
				if sims[r] >= q.FacetFloor && sims[r] > 0 {
					h.Facets = append(h.Facets, search.FacetMatch{Key: s.names[s.keys[r]], Score: sims[r]})
				}
			}
			search.SortFacets(h.Facets)
		}
		out = append(out, h)
	}
	return out
}
