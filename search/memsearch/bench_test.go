package memsearch

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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
// synthetic conference, and the memory the index holds per vector, with the
// exact float scan and with the int8 scan and exact re-ranking. Run it on one
// core with -cpu 1.
func BenchmarkFacetedTop10(b *testing.B) {
	for _, c := range []struct{ n, dim int }{{2000, 512}, {2000, 1536}, {20000, 512}, {20000, 1536}} {
		ents := synthetic(c.n, c.dim)
		q := search.VectorQuery{Conference: "bench", Table: search.Exhibitors, Mode: search.Faceted,
			Vector: ents[c.n/2].Facets[0].Vector, Limit: 10, Threshold: 0.05, FacetFloor: 0.05}
		for _, scan := range []struct {
			name  string
			above int
		}{{"float", math.MaxInt}, {"int8", 0}} {
			benchScan(b, ents, c.dim, q, scan.name, QuantiseAbove(scan.above))
		}
		runtime.KeepAlive(ents)
	}
}

func benchScan(b *testing.B, ents []search.Entity, dim int, q search.VectorQuery, scan string, opt Option) {
	before := heap()
	idx := New(dim, opt)
	require.NoError(b, idx.Upsert(context.Background(), ents))
	held := heap() - before
	st := idx.Stats()
	raw := float64(st.Vectors * dim * 4)
	want := ents[len(ents)/2].ID
	b.Run(fmt.Sprintf("%dk_entities×7facets/%d_vectors/dim%d/%s", len(ents)/1000, st.Vectors, dim, scan), func(b *testing.B) {
		var times []time.Duration
		for b.Loop() {
			t0 := time.Now()
			hits, err := idx.Search(context.Background(), q)
			times = append(times, time.Since(t0))
			if err != nil || len(hits) == 0 || hits[0].ID != want {
				b.Fatalf("search: %v, %d hits", err, len(hits))
			}
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(st.VectorBytes)/float64(st.Vectors), "B/vector")
		b.ReportMetric(float64(held)/raw, "heap/raw")
	})
	runtime.KeepAlive(idx)
}

// BenchmarkQuantisedRecall measures recall@10 of the int8 scan against the
// exact scan, over queries near an entity's facet (cosine 0.3–0.7 with it,
// so many entities compete), in faceted and master mode.
func BenchmarkQuantisedRecall(b *testing.B) {
	for _, c := range []struct{ n, dim int }{{20000, 512}, {20000, 1536}} {
		ents := synthetic(c.n, c.dim)
		exact, quant := New(c.dim, QuantiseAbove(math.MaxInt)), New(c.dim, QuantiseAbove(0))
		for _, idx := range []*Index{exact, quant} {
			require.NoError(b, idx.Upsert(context.Background(), ents))
		}
		for _, mode := range []search.Mode{search.Faceted, search.Master} {
			b.Run(fmt.Sprintf("%dk×%d/%s", c.n/1000, c.dim, mode), func(b *testing.B) {
				var recall float64
				for b.Loop() {
					recall = recallAt10(b, ents, exact, quant, mode, 200)
				}
				b.ReportMetric(recall, "recall@10")
			})
		}
	}
}

func recallAt10(b *testing.B, ents []search.Entity, exact, quant *Index, mode search.Mode, queries int) float64 {
	r := rand.New(rand.NewPCG(5, 8))
	var found, total int
	for i := range queries {
		base := ents[r.IntN(len(ents))].Facets[i%7].Vector
		q := search.VectorQuery{Conference: "bench", Table: search.Exhibitors, Mode: mode,
			Vector: noisy(r, base, 0.3+0.4*r.Float64()), Limit: 10, FacetFloor: 0.02}
		want, err1 := exact.Search(context.Background(), q)
		got, err2 := quant.Search(context.Background(), q)
		if err1 != nil || err2 != nil {
			b.Fatal(err1, err2)
		}
		ids := map[string]bool{}
		for _, h := range got {
			ids[h.ID] = true
		}
		for _, h := range want {
			total++
			if ids[h.ID] {
				found++
			}
		}
	}
	return float64(found) / float64(total)
}

// noisy returns a unit vector whose cosine with the unit vector base is c.
func noisy(r *rand.Rand, base []float32, c float64) []float32 {
	out := make([]float32, len(base))
	for i := range out {
		out[i] = float32(r.NormFloat64())
	}
	var d float32
	for i := range out {
		d += out[i] * base[i]
	}
	for i := range out {
		out[i] -= d * base[i]
	}
	search.Normalise(out)
	s := float32(math.Sqrt(1 - c*c))
	for i := range out {
		out[i] = float32(c)*base[i] + s*out[i]
	}
	return out
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
