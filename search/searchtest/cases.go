package searchtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/erleah/erleah-agent/search"
)

func testMasterScore(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(1, 1))
	idx := newIndex(t, dim)
	q := vec(r)
	a := entity(r, ref("c1", search.Sessions, "a"), 3)
	a.Master = near(r, q, 0.8)
	upsert(t, idx, a)
	hits := mustSearch(t, idx, query("c1", search.Sessions, search.Master, q, 5))
	if len(hits) != 1 || !approx(hits[0].Score, cosine(q, a.Master)) {
		t.Fatalf("hits = %+v, want one hit scoring cosine %.4f", hits, cosine(q, a.Master))
	}
	if hits[0].Ref != a.Ref {
		t.Fatalf("hit ref = %+v, want %+v", hits[0].Ref, a.Ref)
	}
}

func testFacetedScore(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(2, 2))
	idx := newIndex(t, dim)
	q := vec(r)
	e := entity(r, ref("c1", search.Exhibitors, "e1"), 4)
	e.Facets[0].Vector = near(r, q, 0.9)
	e.Facets[2].Vector = near(r, q, 0.5)
	upsert(t, idx, e)
	hits := mustSearch(t, idx, query("c1", search.Exhibitors, search.Faceted, q, 5))
	want := expected(e, search.Faceted, q, 0.1)
	if len(hits) != 1 || !approx(hits[0].Score, want) {
		t.Fatalf("hits = %+v, want score %.4f", hits, want)
	}
	if want > 0.9 || want < 0.6*0.85 {
		t.Fatalf("reference score %.3f not on the cosine scale of its best facet", want)
	}
	got := hits[0].Facets
	if len(got) < 2 || got[0].Key != e.Facets[0].Key || got[1].Key != e.Facets[2].Key {
		t.Fatalf("matched facets = %+v, want %s then %s first", got, e.Facets[0].Key, e.Facets[2].Key)
	}
	for _, m := range got {
		if m.Score < 0.1 {
			t.Fatalf("facet %s below the floor listed as matched: %+v", m.Key, got)
		}
	}
}

// testOpenFacets indexes facets under keys the schema does not know: they
// are searched with the default weight, named in matched facets, and widen
// the coverage denominator of every entity of the shard alike.
func testOpenFacets(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(3, 3))
	idx := newIndex(t, dim)
	q := vec(r)
	own := entity(r, ref("c1", search.Speakers, "own"), 1)
	own.Facets = append(own.Facets, search.FacetVector{Key: "talks_about", Vector: near(r, q, 0.9)})
	plain := entity(r, ref("c1", search.Speakers, "plain"), 2)
	plain.Facets[1].Vector = near(r, q, 0.7)
	upsert(t, idx, own, plain)
	total := search.TotalWeight(search.Speakers) + search.DefaultFacetWeight
	hits := mustSearch(t, idx, query("c1", search.Speakers, search.Faceted, q, 5))
	if len(hits) != 2 || hits[0].ID != "own" {
		t.Fatalf("hits = %+v, want own then plain", hits)
	}
	for i, e := range []search.Entity{own, plain} {
		if want := expectedIn(e, search.Faceted, q, 0.1, total); !approx(hits[i].Score, want) {
			t.Fatalf("%s scores %.4f, want %.4f", e.ID, hits[i].Score, want)
		}
	}
	if len(hits[0].Facets) == 0 || hits[0].Facets[0].Key != "talks_about" {
		t.Fatalf("matched facets of own = %+v, want talks_about first", hits[0].Facets)
	}
}

// testIDs checks VectorQuery.IDs: nil searches every entity, an empty list
// none, a list only those, in both modes.
func testIDs(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(4, 4))
	idx := newIndex(t, dim)
	q := vec(r)
	var ents []search.Entity
	for _, id := range []string{"a", "b", "c"} {
		e := entity(r, ref("c1", search.Sessions, id), 2)
		e.Master, e.Facets[0].Vector = near(r, q, 0.8), near(r, q, 0.8)
		ents = append(ents, e)
	}
	upsert(t, idx, ents...)
	for _, mode := range []search.Mode{search.Master, search.Faceted} {
		vq := query("c1", search.Sessions, mode, q, 10)
		if got := ids(mustSearch(t, idx, vq)); len(got) != 3 {
			t.Fatalf("%s without IDs: %v", mode, got)
		}
		vq.IDs = []string{"c", "a", "zz"}
		if got := ids(mustSearch(t, idx, vq)); !slices.Equal(slices.Sorted(slices.Values(got)), []string{"a", "c"}) {
			t.Fatalf("%s with IDs a, c: %v", mode, got)
		}
		vq.IDs = []string{}
		if got := mustSearch(t, idx, vq); len(got) != 0 {
			t.Fatalf("%s with no IDs: %v", mode, got)
		}
	}
}

// testBruteForce compares top-k results with a reference ranking over many
// random entities, in both modes.
func testBruteForce(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(3, 3))
	idx := newIndex(t, dim)
	var ents []search.Entity
	for i := range 300 {
		e := entity(r, ref("c1", search.Sessions, fmt.Sprintf("s%03d", i)), 1+i%6)
		ents = append(ents, e)
	}
	upsert(t, idx, ents...)
	for trial := range 10 {
		q := near(r, ents[trial*7].Master, 0.6)
		for _, mode := range []search.Mode{search.Master, search.Faceted} {
			hits := mustSearch(t, idx, query("c1", search.Sessions, mode, q, 10))
			want := reference(ents, mode, q, 10)
			if !slices.Equal(ids(hits), want) {
				t.Fatalf("%s trial %d: got %v, want %v", mode, trial, ids(hits), want)
			}
		}
	}
}

func reference(ents []search.Entity, mode search.Mode, q []float32, k int) []string {
	type scored struct {
		id string
		s  float32
	}
	var all []scored
	for _, e := range ents {
		if s := expected(e, mode, q, 0.1); s > 0 {
			all = append(all, scored{e.ID, s})
		}
	}
	slices.SortFunc(all, func(a, b scored) int {
		if a.s != b.s {
			if a.s > b.s {
				return -1
			}
			return 1
		}
		if a.id < b.id {
			return -1
		}
		return 1
	})
	var out []string
	for i := 0; i < len(all) && i < k; i++ {
		out = append(out, all[i].id)
	}
	return out
}

func testConferenceIsolation(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(4, 4))
	idx := newIndex(t, dim)
	q := vec(r)
	mine := entity(r, ref("c1", search.Sessions, "x"), 2)
	mine.Master, mine.Facets[0].Vector = near(r, q, 0.3), near(r, q, 0.3)
	theirs := entity(r, ref("c2", search.Sessions, "x"), 2) // same id, other conference
	theirs.Master, theirs.Facets[0].Vector = near(r, q, 0.99), near(r, q, 0.99)
	other := entity(r, ref("c2", search.Sessions, "y"), 2)
	other.Master, other.Facets[0].Vector = near(r, q, 0.95), near(r, q, 0.95)
	upsert(t, idx, mine, theirs, other)
	for _, mode := range []search.Mode{search.Master, search.Faceted} {
		hits := mustSearch(t, idx, query("c1", search.Sessions, mode, q, 10))
		for _, h := range hits {
			if h.Conference != "c1" || h.ID != "x" {
				t.Fatalf("%s: conference c1 returned %+v", mode, h.Ref)
			}
		}
		// c2's entities score far higher: only the conference filter keeps them out.
		if want := expected(mine, mode, q, 0.1); len(hits) != 1 || !approx(hits[0].Score, want) {
			t.Fatalf("%s: c1 hits = %+v, want its own entity alone with score %.3f", mode, hits, want)
		}
	}
	hits := mustSearch(t, idx, query("c1", search.Sessions, search.Master, q, 10))
	if len(hits) != 1 || !approx(hits[0].Score, cosine(q, mine.Master)) {
		t.Fatalf("c1 hit = %+v, want its own entity with score %.3f", hits, cosine(q, mine.Master))
	}
}

func testTableIsolation(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(5, 5))
	idx := newIndex(t, dim)
	q := vec(r)
	sp := entity(r, ref("c1", search.Speakers, "p1"), 3)
	sp.Master = near(r, q, 0.9)
	ex := entity(r, ref("c1", search.Exhibitors, "e1"), 3)
	upsert(t, idx, sp, ex)
	hits := mustSearch(t, idx, query("c1", search.Exhibitors, search.Master, q, 10))
	for _, h := range hits {
		if h.Table != search.Exhibitors || h.ID != "e1" {
			t.Fatalf("exhibitor search returned %+v", h.Ref)
		}
	}
	// The speaker scores far higher: only the table filter keeps it out.
	if len(hits) != 1 || !approx(hits[0].Score, cosine(q, ex.Master)) {
		t.Fatalf("exhibitor hits = %+v, want the exhibitor alone with score %.3f", hits, cosine(q, ex.Master))
	}
}

func testLimitOrderTies(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(6, 6))
	idx := newIndex(t, dim)
	q := vec(r)
	var ents []search.Entity
	for i := range 20 {
		e := entity(r, ref("c1", search.Speakers, fmt.Sprintf("p%02d", 19-i)), 2)
		e.Master = near(r, q, 0.2+float64(i%5)*0.1)
		ents = append(ents, e)
	}
	// Two entities with identical vectors tie; the smaller id ranks first.
	ents[3].Master = slices.Clone(ents[8].Master)
	upsert(t, idx, ents...)
	hits := mustSearch(t, idx, query("c1", search.Speakers, search.Master, q, 7))
	if len(hits) != 7 {
		t.Fatalf("limit 7 returned %d hits", len(hits))
	}
	if !sortedByScore(hits) {
		t.Fatalf("hits not sorted by score then id: %+v", hits)
	}
}

func testThreshold(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(7, 7))
	idx := newIndex(t, dim)
	q := vec(r)
	var ents []search.Entity
	for i := range 10 {
		e := entity(r, ref("c1", search.Sessions, fmt.Sprintf("s%d", i)), 3)
		e.Master = near(r, q, float64(i)/10)
		ents = append(ents, e)
	}
	upsert(t, idx, ents...)
	q1 := query("c1", search.Sessions, search.Master, q, 50)
	q1.Threshold = 0.45
	hits := mustSearch(t, idx, q1)
	want := 0
	for _, e := range ents {
		if cosine(q, e.Master) >= 0.45 {
			want++
		}
	}
	if len(hits) != want {
		t.Fatalf("threshold 0.45 kept %d hits, want %d", len(hits), want)
	}
	for _, h := range hits {
		if h.Score < 0.45 {
			t.Fatalf("hit %s scores %.3f under the threshold", h.ID, h.Score)
		}
	}
	for _, h := range mustSearch(t, idx, query("c1", search.Sessions, search.Master, q, 50)) {
		if h.Score <= 0 {
			t.Fatalf("hit %s with non-positive score %.3f returned", h.ID, h.Score)
		}
	}
}

func testUpsertReplaces(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(8, 8))
	idx := newIndex(t, dim)
	q := vec(r)
	e := entity(r, ref("c1", search.Sessions, "s1"), 6)
	upsert(t, idx, e)
	e2 := entity(r, ref("c1", search.Sessions, "s1"), 2)
	e2.Facets[1].Vector = near(r, q, 0.95)
	e2.Master = near(r, q, 0.7)
	upsert(t, idx, e2)
	for _, mode := range []search.Mode{search.Master, search.Faceted} {
		hits := mustSearch(t, idx, query("c1", search.Sessions, mode, q, 5))
		if len(hits) != 1 || !approx(hits[0].Score, expected(e2, mode, q, 0.1)) {
			t.Fatalf("%s after replace: %+v, want one hit scoring %.3f", mode, hits, expected(e2, mode, q, 0.1))
		}
	}
}

func testDeleteAndRefs(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(9, 9))
	idx := newIndex(t, dim)
	ctx := context.Background()
	upsert(t, idx, entity(r, ref("c1", search.Speakers, "b"), 1), entity(r, ref("c1", search.Speakers, "a"), 1), entity(r, ref("c1", search.Speakers, "c"), 1))
	if err := idx.Delete(ctx, []search.Ref{ref("c1", search.Speakers, "b"), ref("c1", search.Speakers, "zz"), ref("c9", search.Sessions, "a")}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	refs, err := idx.Refs(ctx, "c1", search.Speakers)
	if err != nil {
		t.Fatal(err)
	}
	if got := refIDs(refs); !slices.Equal(got, []string{"a", "c"}) {
		t.Fatalf("Refs after delete = %v, want [a c]", got)
	}
	for _, h := range mustSearch(t, idx, query("c1", search.Speakers, search.Master, vec(r), 10)) {
		if h.ID == "b" {
			t.Fatal("deleted entity returned by search")
		}
	}
}

func refIDs(refs []search.Ref) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.ID
	}
	return out
}

// testChurn replaces and deletes most entities many times (which makes a
// driver reclaim space) and checks results stay exact.
func testChurn(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(10, 10))
	idx := newIndex(t, dim)
	live := map[string]search.Entity{}
	for round := range 12 {
		var batch []search.Entity
		for i := range 40 {
			e := entity(r, ref("c1", search.Exhibitors, fmt.Sprintf("e%02d", i)), 1+(i+round)%8)
			batch = append(batch, e)
			live[e.ID] = e
		}
		upsert(t, idx, batch...)
		var gone []search.Ref
		for i := round % 3; i < 40; i += 3 {
			id := fmt.Sprintf("e%02d", i)
			gone = append(gone, ref("c1", search.Exhibitors, id))
			delete(live, id)
		}
		if err := idx.Delete(context.Background(), gone); err != nil {
			t.Fatal(err)
		}
	}
	var ents []search.Entity
	for _, e := range live {
		ents = append(ents, e)
	}
	q := vec(r)
	for _, mode := range []search.Mode{search.Master, search.Faceted} {
		hits := mustSearch(t, idx, query("c1", search.Exhibitors, mode, q, 50))
		if want := reference(ents, mode, q, 50); !slices.Equal(ids(hits), want) {
			t.Fatalf("%s after churn: got %v, want %v", mode, ids(hits), want)
		}
	}
}

func testBadBatch(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(11, 11))
	idx := newIndex(t, dim)
	ok := entity(r, ref("c1", search.Sessions, "ok"), 2)
	short := entity(r, ref("c1", search.Sessions, "short"), 2)
	short.Facets[1].Vector = short.Facets[1].Vector[:dim-1]
	if err := idx.Upsert(context.Background(), []search.Entity{ok, short}); !errors.Is(err, search.ErrDimension) {
		t.Fatalf("Upsert with a short vector: err = %v, want ErrDimension", err)
	}
	badKey := entity(r, ref("c1", search.Sessions, "bad"), 2)
	badKey.Facets[1].Key = badKey.Facets[0].Key
	if err := idx.Upsert(context.Background(), []search.Entity{ok, badKey}); !errors.Is(err, search.ErrInvalidQuery) {
		t.Fatalf("Upsert with a repeated facet key: err = %v, want ErrInvalidQuery", err)
	}
	badKey.Facets[1].Key = ""
	if err := idx.Upsert(context.Background(), []search.Entity{ok, badKey}); !errors.Is(err, search.ErrInvalidQuery) {
		t.Fatalf("Upsert with an empty facet key: err = %v, want ErrInvalidQuery", err)
	}
	refs, _ := idx.Refs(context.Background(), "c1", search.Sessions)
	if len(refs) != 0 {
		t.Fatalf("rejected batches left %v in the index", refs)
	}
}

func testInvalidQueries(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(12, 12))
	idx := newIndex(t, dim)
	upsert(t, idx, entity(r, ref("c1", search.Sessions, "s"), 2))
	good := query("c1", search.Sessions, search.Master, vec(r), 5)
	bad := map[string]func(*search.VectorQuery){
		"no conference":    func(q *search.VectorQuery) { q.Conference = "" },
		"unknown table":    func(q *search.VectorQuery) { q.Table = "attendees" },
		"unknown mode":     func(q *search.VectorQuery) { q.Mode = "hybrid" },
		"zero limit":       func(q *search.VectorQuery) { q.Limit = 0 },
		"huge limit":       func(q *search.VectorQuery) { q.Limit = search.MaxLimit + 1 },
		"threshold over 1": func(q *search.VectorQuery) { q.Threshold = 1.5 },
		"short vector":     func(q *search.VectorQuery) { q.Vector = q.Vector[:3] },
	}
	for name, mutate := range bad {
		q := good
		mutate(&q)
		if _, err := idx.Search(context.Background(), q); !isInvalid(err) {
			t.Errorf("%s: err = %v, want ErrInvalidQuery or ErrDimension", name, err)
		}
	}
}

func testEmptyConference(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(13, 13))
	idx := newIndex(t, dim)
	hits, err := idx.Search(context.Background(), query("nobody", search.Speakers, search.Faceted, vec(r), 5))
	if err != nil || len(hits) != 0 {
		t.Fatalf("empty conference: hits %v, err %v; want none and no error", hits, err)
	}
}

func testCanceled(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(14, 14))
	idx := newIndex(t, dim)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := idx.Search(ctx, query("c1", search.Sessions, search.Master, vec(r), 5)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Search with canceled context: err = %v", err)
	}
	if err := idx.Upsert(ctx, []search.Entity{entity(r, ref("c1", search.Sessions, "s"), 1)}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Upsert with canceled context: err = %v", err)
	}
}

// testConcurrent flips entities between two versions while readers search;
// every score a reader sees must be one version's score, never a mix.
func testConcurrent(t *testing.T, newIndex NewIndex) {
	r := rand.New(rand.NewPCG(15, 15))
	idx := newIndex(t, dim)
	q := vec(r)
	versions := [2][]search.Entity{}
	for v := range 2 {
		for i := range 30 {
			versions[v] = append(versions[v], entity(r, ref("c1", search.Sessions, fmt.Sprintf("s%02d", i)), 1+(i+v*3)%6))
		}
	}
	allowed := map[string][]float32{}
	for _, vs := range versions {
		for _, e := range vs {
			allowed[e.ID] = append(allowed[e.ID], expected(e, search.Faceted, q, 0.1))
		}
	}
	upsert(t, idx, versions[0]...)
	stop := make(chan struct{})
	writerErr := make(chan error, 1)
	go func() {
		defer close(writerErr)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if err := idx.Upsert(context.Background(), versions[i%2]); err != nil {
				writerErr <- err
				return
			}
		}
	}()
	var readers sync.WaitGroup
	readerErrs := make(chan error, 4)
	for range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			readerErrs <- readScores(idx, q, allowed)
		}()
	}
	readers.Wait()
	close(stop)
	close(readerErrs)
	for err := range readerErrs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := <-writerErr; err != nil {
		t.Fatalf("writer: %v", err)
	}
}

func readScores(idx search.Index, q []float32, allowed map[string][]float32) error {
	for range 200 {
		hits, err := idx.Search(context.Background(), query("c1", search.Sessions, search.Faceted, q, 50))
		if err != nil {
			return err
		}
		for _, h := range hits {
			if !slices.ContainsFunc(allowed[h.ID], func(s float32) bool { return approx(s, h.Score) }) {
				return fmt.Errorf("entity %s scored %.4f, not one of its versions %v", h.ID, h.Score, allowed[h.ID])
			}
		}
	}
	return nil
}
