package memsearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// synthetic builds n exhibitors of one conference with 7 facets each, random
// unit vectors of dimension dim. Vectors share one backing array so building
// them is cheap; the index copies them.
func synthetic(n, dim int) []search.Entity {
	const facets = 7
	r := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	backing := make([]float32, n*(facets+1)*dim)
	for i := range backing {
		backing[i] = r.Float32()*2 - 1
	}
	next := func() []float32 {
		v := backing[:dim:dim]
		backing = backing[dim:]
		search.Normalise(v)
		return v
	}
	keys := search.Facets(search.Exhibitors)[:facets]
	ents := make([]search.Entity, n)
	for i := range ents {
		e := search.Entity{Ref: search.Ref{Conference: "bench", Table: search.Exhibitors, ID: fmt.Sprintf("e%06d", i)}, Master: next()}
		for _, k := range keys {
			e.Facets = append(e.Facets, search.FacetVector{Key: k.Key, Vector: next()})
		}
		ents[i] = e
	}
	return ents
}

func heap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkFacetedTop10 measures one faceted top-10 query over a whole
// synthetic conference, and the memory the index holds per vector. Run it on
// one core with -cpu 1.
func BenchmarkFacetedTop10(b *testing.B) {
	for _, c := range []struct{ n, dim int }{{2000, 512}, {2000, 1536}, {20000, 512}, {20000, 1536}} {
		ents := synthetic(c.n, c.dim)
		before := heap()
		idx := New(c.dim)
		if err := idx.Upsert(context.Background(), ents); err != nil {
			b.Fatal(err)
		}
		held := heap() - before
		st := idx.Stats()
		raw := float64(st.Vectors * c.dim * 4)
		scanned := float64((st.Vectors - st.Entities) * c.dim * 4) // faceted mode reads the facet rows
		q := search.VectorQuery{Conference: "bench", Table: search.Exhibitors, Mode: search.Faceted,
			Vector: ents[c.n/2].Facets[0].Vector, Limit: 10, Threshold: 0.05, FacetFloor: 0.05}
		b.Run(fmt.Sprintf("%dk_entities×7facets/%d_vectors/dim%d", c.n/1000, st.Vectors, c.dim), func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				t0 := time.Now()
				hits, err := idx.Search(context.Background(), q)
				times = append(times, time.Since(t0))
				if err != nil || len(hits) == 0 || hits[0].ID != ents[c.n/2].ID {
					b.Fatalf("search: %v, %d hits", err, len(hits))
				}
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(st.VectorBytes)/float64(st.Vectors), "B/vector")
			b.ReportMetric(float64(held)/raw, "heap/raw")
			b.ReportMetric(scanned/times[len(times)/2].Seconds()/1e9, "scan-GB/s")
		})
		runtime.KeepAlive(ents)
	}
}

// BenchmarkReadBandwidth is the bound for the scan: the same kernel reading
// 1 GiB of vectors with nothing else to do, on one core.
func BenchmarkReadBandwidth(b *testing.B) {
	const dim = 1536
	rows := (1 << 30) / (dim * 4)
	m := make([]float32, rows*dim)
	for i := range m {
		m[i] = 1
	}
	out := make([]float32, rows)
	b.SetBytes(int64(len(m) * 4))
	for b.Loop() {
		dotRows(m[:dim], m, dim, out)
	}
}
