// Package searchtest is the conformance suite every search.Index driver must
// pass: exact scores on the shared scale, conference and table isolation,
// limits, thresholds, ordering, replacement, deletion, atomic batches,
// validation errors and safety under concurrent use.
//
// A driver's test calls Run with a constructor:
//
//	func TestConformance(t *testing.T) {
//		searchtest.Run(t, func(t *testing.T, dim int) search.Index { return memsearch.New(dim) })
//	}
package searchtest

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/erleah/erleah-agent/search"
)

// NewIndex returns an empty index for vectors of dimension dim.
type NewIndex func(t *testing.T, dim int) search.Index

const dim = 32

// Run runs the whole suite against indexes made by newIndex.
func Run(t *testing.T, newIndex NewIndex) {
	tests := []struct {
		name string
		fn   func(*testing.T, NewIndex)
	}{
		{"MasterScoreIsCosine", testMasterScore},
		{"FacetedScoreFollowsFacetScore", testFacetedScore},
		{"OpenFacetKeys", testOpenFacets},
		{"IDsRestrictTheSearch", testIDs},
		{"MatchesBruteForce", testBruteForce},
		{"ConferenceIsolation", testConferenceIsolation},
		{"TableIsolation", testTableIsolation},
		{"LimitOrderAndTies", testLimitOrderTies},
		{"Threshold", testThreshold},
		{"UpsertReplaces", testUpsertReplaces},
		{"DeleteAndRefs", testDeleteAndRefs},
		{"ChurnKeepsResultsExact", testChurn},
		{"BadBatchChangesNothing", testBadBatch},
		{"InvalidQueries", testInvalidQueries},
		{"EmptyConference", testEmptyConference},
		{"CanceledContext", testCanceled},
		{"ConcurrentReadersSeeWholeEntities", testConcurrent},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newIndex) })
	}
}

// vec returns a deterministic random unit vector.
func vec(r *rand.Rand) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	search.Normalise(v)
	return v
}

// near returns a unit vector at cosine ≈ c from base.
func near(r *rand.Rand, base []float32, c float64) []float32 {
	noise := vec(r)
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(c)*base[i] + float32(math.Sqrt(1-c*c))*noise[i]
	}
	search.Normalise(v)
	return v
}

func cosine(a, b []float32) float32 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return float32(s)
}

func ref(conf string, t search.Table, id string) search.Ref {
	return search.Ref{Conference: conf, Table: t, ID: id}
}

// entity builds an entity of table t with the first n facets of its schema.
func entity(r *rand.Rand, rf search.Ref, n int) search.Entity {
	e := search.Entity{Ref: rf, Master: vec(r)}
	for _, f := range search.Facets(rf.Table)[:n] {
		e.Facets = append(e.Facets, search.FacetVector{Key: f.Key, Vector: vec(r)})
	}
	return e
}

// expected computes the reference score of e for query v in a shard whose
// entities use only the schema's facet keys.
func expected(e search.Entity, mode search.Mode, v []float32, floor float32) float32 {
	return expectedIn(e, mode, v, floor, search.TotalWeight(e.Table))
}

// expectedIn computes the reference score of e for query v with total as
// the coverage denominator.
func expectedIn(e search.Entity, mode search.Mode, v []float32, floor, total float32) float32 {
	if mode == search.Master {
		return cosine(v, e.Master)
	}
	sims := make([]float32, len(e.Facets))
	weights := make([]float32, len(e.Facets))
	for i, f := range e.Facets {
		sims[i] = cosine(v, f.Vector)
		weights[i] = search.FacetWeight(e.Table, f.Key)
	}
	return search.FacetScore(sims, weights, total, floor)
}

func upsert(t *testing.T, idx search.Index, ents ...search.Entity) {
	t.Helper()
	if err := idx.Upsert(context.Background(), ents); err != nil {
		t.Fatalf("Upsert: %v", err)
	}
}

func query(conf string, tb search.Table, mode search.Mode, v []float32, limit int) search.VectorQuery {
	return search.VectorQuery{Conference: conf, Table: tb, Mode: mode, Vector: v, Limit: limit, FacetFloor: 0.1}
}

func mustSearch(t *testing.T, idx search.Index, q search.VectorQuery) []search.Hit {
	t.Helper()
	hits, err := idx.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("Search(%s %s): %v", q.Mode, q.Table, err)
	}
	return hits
}

func ids(hits []search.Hit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.ID
	}
	return out
}

func approx(a, b float32) bool { return math.Abs(float64(a-b)) <= 1e-4 }

func isInvalid(err error) bool {
	return errors.Is(err, search.ErrInvalidQuery) || errors.Is(err, search.ErrDimension)
}

func sortedByScore(hits []search.Hit) bool {
	return slices.IsSortedFunc(hits, func(a, b search.Hit) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
}
