package weaviatesearch

import (
	"github.com/erleah/erleah-agent/search"
)

func dot(a, b []float32) float32 {
	var sum float64
	for i := range a {
		sum += float64(a[i]) * float64(b[i])
	}
	return float32(sum)
}

// matched are an entity's facet keys and their similarities (faceted mode).
type matched struct {
	keys []string
	sims []float32
}

// hits turns the kept entities into hits above the threshold, with the
// matched facets of each (best first) in faceted mode.
func hits(top *search.TopK[matched], q search.VectorQuery) []search.Hit {
	best := top.Best()
	out := make([]search.Hit, 0, len(best))
	for _, c := range best {
		if c.Score < q.Threshold {
			continue
		}
		h := search.Hit{Ref: search.Ref{Conference: q.Conference, Table: q.Table, ID: c.ID}, Score: c.Score}
		for i, sim := range c.Item.sims {
			if sim >= q.FacetFloor && sim > 0 {
				h.Facets = append(h.Facets, search.FacetMatch{Key: c.Item.keys[i], Score: sim})
			}
		}
		search.SortFacets(h.Facets)
		out = append(out, h)
	}
	return out
}
