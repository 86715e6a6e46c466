package weaviatesearch

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/memsearch"
)

// Side-by-side benchmark of the two drivers on the same data: several
// conferences in one index, each query filtered to one of them (3 % of the
// objects, as in the reference the issue measured with the official client).
//
//	eval "$(scripts/weaviate/start.sh)"
//	go test -run '^$' -bench SideBySide -benchtime 1x -count 1 -timeout 30m ./search/weaviatesearch/
//
// Entities are random unit vectors with 7 facets, generated one conference
// at a time and dropped once written, so the benchmark process holds only
// what the driver under test keeps.

const (
	benchConferences = 33
	benchFacets      = 7
	serialQueries    = 200
	clientQueries    = 50 // per client, 8 clients
)

// benchSizes: ≈16k vectors of dimension 512 and ≈140k of dimension 1536
// (entities × (7 facets + master) × 33 conferences).
var benchSizes = []struct {
	name          string
	perConference int
	dim           int
}{
	{"16k_vectors_dim512", 60, 512},
	{"140k_vectors_dim1536", 530, 1536},
}

// benchIndex is what the benchmark needs of a driver.
type benchIndex interface {
	Upsert(context.Context, []search.Entity) error
	Search(context.Context, search.VectorQuery) ([]search.Hit, error)
}

func BenchmarkSideBySide(b *testing.B) {
	for _, size := range benchSizes {
		for _, driver := range []string{"memsearch", "weaviate"} {
			b.Run(size.name+"/"+driver, func(b *testing.B) {
				var idx benchIndex = memsearch.New(size.dim)
				if driver == "weaviate" {
					idx = newIndex(b, size.dim, "hnsw")
				}
				benchDriver(b, idx, size.perConference, size.dim)
			})
		}
	}
}

func benchDriver(b *testing.B, idx benchIndex, perConference, dim int) {
	server := 0.0
	if _, ok := idx.(*Index); ok {
		server = serverRSS()
	}
	queries, ingest := loadConferences(b, idx, perConference, dim)
	vectors := benchConferences * perConference * (benchFacets + 1)
	debug.FreeOSMemory()
	self, weaviateRSS, disk := selfRSS(), serverRSS(), weaviateDiskMB()
	var times []time.Duration
	for b.Loop() {
		times = times[:0]
		for i := range serialQueries {
			t0 := time.Now()
			benchSearch(b, idx, queries[i%len(queries)])
			times = append(times, time.Since(t0))
		}
	}
	slices.Sort(times)
	b.ReportMetric(ms(times[len(times)/2]), "p50-ms")
	b.ReportMetric(ms(times[len(times)*99/100]), "p99-ms")
	b.ReportMetric(qps(b, idx, queries), "QPS-8-clients")
	b.ReportMetric(masterP50(b, idx, queries), "master-p50-ms")
	b.ReportMetric(float64(vectors)/ingest.Seconds(), "ingest-vectors/s")
	b.ReportMetric(ingest.Seconds(), "ingest-s")
	b.ReportMetric(self, "bench-process-RSS-MB")
	if server > 0 {
		b.ReportMetric(weaviateRSS, "weaviate-RSS-MB")
		b.ReportMetric(disk, "weaviate-disk-MB")
	}
}

// benchQuery is a faceted top-10 for one entity's first facet vector, which
// that entity must top.
type benchQuery struct {
	q    search.VectorQuery
	want string
}

// loadConferences writes benchConferences conferences of perConference
// exhibitors, 100 entities per Upsert, and returns a query for a few
// entities of each and the time the writes took.
func loadConferences(b *testing.B, idx benchIndex, perConference, dim int) ([]benchQuery, time.Duration) {
	var queries []benchQuery
	var took time.Duration
	for c := range benchConferences {
		conf := fmt.Sprintf("conf%02d", c)
		ents := synthetic(conf, perConference, dim)
		t0 := time.Now()
		for batch := range slices.Chunk(ents, 100) {
			if err := idx.Upsert(context.Background(), batch); err != nil {
				b.Fatal(err)
			}
		}
		took += time.Since(t0)
		for _, e := range []search.Entity{ents[0], ents[perConference/2], ents[perConference-1]} {
			queries = append(queries, benchQuery{want: e.ID, q: search.VectorQuery{Conference: conf, Table: search.Exhibitors,
				Mode: search.Faceted, Vector: e.Facets[0].Vector, Limit: 10, FacetFloor: 0.1}})
		}
	}
	rand.New(rand.NewPCG(1, 2)).Shuffle(len(queries), func(i, j int) { queries[i], queries[j] = queries[j], queries[i] })
	return queries, took
}

func benchSearch(b *testing.B, idx benchIndex, bq benchQuery) {
	hits, err := idx.Search(context.Background(), bq.q)
	if err != nil || len(hits) == 0 || hits[0].ID != bq.want {
		b.Errorf("search %s: %v, %d hits", bq.q.Conference, err, len(hits))
	}
}

// masterP50 is the p50 of master-mode top-10s (one nearVector in Weaviate,
// the operation of the reference), the same queries' vectors.
func masterP50(b *testing.B, idx benchIndex, queries []benchQuery) float64 {
	var times []time.Duration
	for i := range serialQueries {
		q := queries[i%len(queries)].q
		q.Mode = search.Master
		t0 := time.Now()
		if _, err := idx.Search(context.Background(), q); err != nil {
			b.Error(err)
		}
		times = append(times, time.Since(t0))
	}
	slices.Sort(times)
	return ms(times[len(times)/2])
}

// qps runs 8 clients, clientQueries queries each, and returns queries per
// second.
func qps(b *testing.B, idx benchIndex, queries []benchQuery) float64 {
	t0 := time.Now()
	var wg sync.WaitGroup
	for c := range 8 {
		wg.Go(func() {
			for i := range clientQueries {
				benchSearch(b, idx, queries[(c*clientQueries+i)%len(queries)])
			}
		})
	}
	wg.Wait()
	return float64(8*clientQueries) / time.Since(t0).Seconds()
}

// synthetic builds n exhibitors of one conference with 7 facets each, random
// unit vectors of dimension dim.
func synthetic(conference string, n, dim int) []search.Entity {
	h := fnv.New64a()
	h.Write([]byte(conference))
	r := rand.New(rand.NewPCG(h.Sum64(), uint64(n*dim)))
	next := func() []float32 {
		v := make([]float32, dim)
		for i := range v {
			v[i] = r.Float32()*2 - 1
		}
		search.Normalise(v)
		return v
	}
	keys := search.Facets(search.Exhibitors)[:benchFacets]
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

// selfRSS is this process's resident set in MB.
func selfRSS() float64 { return rssOf("self") }

// serverRSS is the resident set of the Weaviate that start.sh started
// (WEAVIATE_PID, its first node), in MB; 0 when unknown.
func serverRSS() float64 {
	pid := strings.Fields(os.Getenv("WEAVIATE_PID"))
	if len(pid) == 0 {
		return 0
	}
	return rssOf(pid[0])
}

func rssOf(pid string) float64 {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// weaviateDiskMB is the size of the Weaviate data directory (WEAVIATE_DIR)
// in MB; 0 when unknown.
func weaviateDiskMB() float64 {
	dir := os.Getenv("WEAVIATE_DIR")
	if dir == "" {
		return 0
	}
	out, err := exec.Command("du", "-sk", dir).Output()
	if err != nil {
		return 0
	}
	kb, _ := strconv.ParseFloat(strings.Fields(string(out))[0], 64)
	return kb / 1024
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
