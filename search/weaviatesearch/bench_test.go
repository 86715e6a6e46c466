package weaviatesearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// synthetic builds n exhibitors of one conference with 7 facets each, random
// unit vectors of dimension dim (memsearch's benchmark data).
func synthetic(conference string, n, dim int) []search.Entity {
	const facets = 7
	r := rand.New(rand.NewPCG(uint64(n), uint64(dim)))
	next := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		search.Normalise(v)
		return v
	}
	keys := search.Facets(search.Exhibitors)[:facets]
	ents := make([]search.Entity, n)
	for i := range ents {
		e := search.Entity{Ref: search.Ref{Conference: conference, Table: search.Exhibitors, ID: fmt.Sprintf("e%06d", i)}, Master: next()}
		for _, k := range keys {
			e.Facets = append(e.Facets, search.FacetVector{Key: k.Key, Vector: next()})
		}
		ents[i] = e
	}
	return ents
}

// BenchmarkFacetedTop10 loads 2,000 exhibitors × 7 facets (14,000 facet
// vectors, 16,000 with the masters) of dimension 512 into a fresh
// collection, reports the ingestion rate, then measures one faceted top-10
// query at a time (p50, p99) and 8 concurrent clients (QPS).
func BenchmarkFacetedTop10(b *testing.B) {
	const n, dim = 2000, 512
	ents := synthetic("bench", n, dim)
	for _, vi := range []string{"hnsw", "flat"} {
		idx := newIndex(b, dim, vi)
		t0 := time.Now()
		for batch := range slices.Chunk(ents, 100) {
			if err := idx.Upsert(context.Background(), batch); err != nil {
				b.Fatal(err)
			}
		}
		ingest := time.Since(t0)
		q := search.VectorQuery{Conference: "bench", Table: search.Exhibitors, Mode: search.Faceted,
			Vector: ents[n/2].Facets[0].Vector, Limit: 10, Threshold: 0.05, FacetFloor: 0.05}
		name := fmt.Sprintf("%s/%dk_entities×7facets/%d_vectors/dim%d", vi, n/1000, n*8, dim)
		b.Run(name+"/serial", func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				t1 := time.Now()
				searchOnce(b, idx, q, ents[n/2].ID)
				times = append(times, time.Since(t1))
			}
			slices.Sort(times)
			b.ReportMetric(ms(times[len(times)/2]), "p50-ms")
			b.ReportMetric(ms(times[len(times)*99/100]), "p99-ms")
			b.ReportMetric(float64(n*8)/ingest.Seconds(), "ingest-vectors/s")
		})
		b.Run(name+"/8clients", func(b *testing.B) {
			t1 := time.Now()
			var wg sync.WaitGroup
			per := b.N/8 + 1
			for range 8 {
				wg.Go(func() {
					for range per {
						searchOnce(b, idx, q, ents[n/2].ID)
					}
				})
			}
			wg.Wait()
			b.ReportMetric(float64(8*per)/time.Since(t1).Seconds(), "QPS")
		})
	}
}

func searchOnce(b *testing.B, idx *Index, q search.VectorQuery, want string) {
	hits, err := idx.Search(context.Background(), q)
	if err != nil || len(hits) == 0 || hits[0].ID != want {
		b.Errorf("search: %v, %d hits", err, len(hits))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
