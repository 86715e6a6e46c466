package weaviatesearch

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// The tests in this file run against a real Weaviate. Each index lives in
// its own collection, dropped when its test ends, so tests can run again and
// again against one instance.

var collections atomic.Int64

// newIndex returns an index in a fresh collection, or skips the test.
func newIndex(t testing.TB, dim int, vectorIndex string) *Index {
	t.Helper()
	url := os.Getenv("WEAVIATE_URL")
	if url == "" {
		t.Skip("set WEAVIATE_URL to run against a real Weaviate (scripts/weaviate/start.sh)")
	}
	name := fmt.Sprintf("Test%08x_%d", rand.Uint32(), collections.Add(1))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	replicas := 1
	if urls := os.Getenv("WEAVIATE_URLS"); urls != "" {
		replicas = len(strings.Fields(urls)) // a cluster from start.sh --nodes N: replicate on every node
	}
	idx, err := New(ctx, Config{URL: url, GRPCAddr: os.Getenv("WEAVIATE_GRPC_ADDR"), APIKey: os.Getenv("WEAVIATE_API_KEY"),
		Collection: name, Dim: dim, VectorIndex: vectorIndex, Replicas: replicas})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := idx.Drop(ctx); err != nil {
			t.Errorf("drop %s: %v", name, err)
		}
		assert.NoError(t, idx.Close())
	})
	return idx
}

func TestConformance(t *testing.T) {
	for _, vi := range []string{"hnsw", "flat"} {
		t.Run(vi, func(t *testing.T) {
			searchtest.Run(t, func(t *testing.T, dim int) search.Index { return newIndex(t, dim, vi) })
		})
	}
}

// count returns how many objects of kind the collection holds for one
// conference and table.
func count(t *testing.T, x *Index, conference string, table search.Table, kind string) int {
	t.Helper()
	query := fmt.Sprintf(`{Aggregate{%s(where: %s){meta{count}}}}`, x.class, shardFilter(conference, table, kind).gql())
	var data struct {
		Aggregate map[string][]struct{ Meta struct{ Count int } }
	}
	require.NoError(t, x.c.graphql(context.Background(), query, &data))
	require.Len(t, data.Aggregate[x.class], 1)
	return data.Aggregate[x.class][0].Meta.Count
}

func TestReindexingNeverDuplicates(t *testing.T) {
	x := newIndex(t, 2, "hnsw")
	ctx := context.Background()
	v := []float32{1, 0}
	ent := func(keys ...string) search.Entity {
		e := search.Entity{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: "s"}, Master: v}
		for _, k := range keys {
			e.Facets = append(e.Facets, search.FacetVector{Key: k, Vector: v})
		}
		return e
	}
	require.NoError(t, x.Upsert(ctx, []search.Entity{ent("a", "b", "c")}))
	require.NoError(t, x.Upsert(ctx, []search.Entity{ent("a", "b", "c")}))
	assert.Equal(t, 1, count(t, x, "c", search.Sessions, kindEntity))
	assert.Equal(t, 3, count(t, x, "c", search.Sessions, kindFacet))
	require.NoError(t, x.Upsert(ctx, []search.Entity{ent("b")}))
	assert.Equal(t, 1, count(t, x, "c", search.Sessions, kindFacet), "facets the new version dropped are deleted")
	require.NoError(t, x.Upsert(ctx, []search.Entity{ent()}))
	assert.Equal(t, 0, count(t, x, "c", search.Sessions, kindFacet))
	require.NoError(t, x.Delete(ctx, []search.Ref{ent().Ref}))
	assert.Equal(t, 0, count(t, x, "c", search.Sessions, kindEntity))
}

func TestRefsPagesThroughLargeTables(t *testing.T) {
	x := newIndex(t, 2, "hnsw")
	var ents []search.Entity
	for i := range refsPage*2 + 7 {
		prefix := []string{"P", "p", "Q", "é"}[i%4] // byte order, not Weaviate's case-insensitive one
		ents = append(ents, search.Entity{Ref: search.Ref{Conference: "c", Table: search.Speakers, ID: fmt.Sprintf("%s%05d", prefix, i)},
			Master: []float32{1, float32(i)}})
	}
	require.NoError(t, x.Upsert(context.Background(), ents))
	slices.SortFunc(ents, func(a, b search.Entity) int { return strings.Compare(a.ID, b.ID) })
	refs, err := x.Refs(context.Background(), "c", search.Speakers)
	require.NoError(t, err)
	require.Len(t, refs, len(ents))
	for i, r := range refs {
		require.Equal(t, ents[i].Ref, r)
	}
}

// A facet key outside the schema widens the coverage denominator while an
// entity has it, and stops once none does.
func TestDroppedOwnFacetKeysStopCounting(t *testing.T) {
	x := newIndex(t, 4, "hnsw")
	ctx := context.Background()
	v := []float32{1, 0, 0, 0}
	ent := func(id, key string) search.Entity {
		return search.Entity{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: id}, Master: v,
			Facets: []search.FacetVector{{Key: key, Vector: v}}}
	}
	score := func() float32 {
		hits, err := x.Search(ctx, search.VectorQuery{Conference: "c", Table: search.Sessions, Mode: search.Faceted, Vector: v, Limit: 1})
		require.NoError(t, err)
		require.NotEmpty(t, hits)
		return hits[0].Score
	}
	known := search.Facets(search.Sessions)[0].Key
	require.NoError(t, x.Upsert(ctx, []search.Entity{ent("s1", known), ent("own", "talks_about")}))
	with := score()
	require.NoError(t, x.Delete(ctx, []search.Ref{ent("own", "").Ref}))
	assert.Greater(t, score(), with, "the denominator still counts the dropped key")
	require.NoError(t, x.Upsert(ctx, []search.Entity{ent("own", "talks_about")}))
	assert.Equal(t, with, score(), "the key counts again")
}

// Ready answers from Weaviate's readiness probe; with the server gone it
// is an error, not a hang.
func TestReadyFollowsTheServer(t *testing.T) {
	idx := newIndex(t, 8, "hnsw")
	require.NoError(t, idx.Ready(context.Background()))
	gone := &Index{c: client{bases: []string{"http://127.0.0.1:1"}, http: idx.c.http}, g: idx.g, class: idx.class, dim: idx.dim}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	assert.ErrorContains(t, gone.Ready(ctx), "not ready")
}

// Hashes returns each stored entity's content hash, and a collection made
// before the hash property existed gains it when an Index opens it.
func TestHashesAndOlderCollections(t *testing.T) {
	x := newIndex(t, 2, "hnsw")
	ctx := context.Background()
	props := collectionSchema(x.class, Config{Dim: 2, VectorIndex: "hnsw", Replicas: 1})["properties"].([]map[string]any)
	require.NoError(t, x.Drop(ctx))
	older := collectionSchema(x.class, Config{Dim: 2, VectorIndex: "hnsw", Replicas: 1})
	older["properties"] = slices.DeleteFunc(slices.Clone(props), func(p map[string]any) bool { return p["name"] == propHash })
	require.NoError(t, x.c.do(ctx, "POST", "/v1/schema", older, nil), "create a collection without the hash property")

	reopened, err := New(ctx, Config{URL: x.c.base(), GRPCAddr: os.Getenv("WEAVIATE_GRPC_ADDR"), Collection: x.class, Dim: 2})
	require.NoError(t, err)
	defer reopened.Close()
	var have classSchema
	require.NoError(t, x.c.do(ctx, "GET", "/v1/schema/"+x.class, nil, &have))
	assert.True(t, have.has(propHash), "the older collection did not gain the hash property: %+v", have)

	ents := []search.Entity{
		{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: "s1"}, Master: []float32{1, 0}},
		{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: "s2"}, Master: []float32{0, 1},
			Facets: []search.FacetVector{{Key: "talks_about", Vector: []float32{1, 0}}}},
	}
	require.NoError(t, reopened.Upsert(ctx, ents))
	hashes, err := reopened.Hashes(ctx, "c", search.Sessions)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"s1": ents[0].ContentHash(), "s2": ents[1].ContentHash()}, hashes)
	other, err := reopened.Hashes(ctx, "c", search.Speakers)
	require.NoError(t, err)
	assert.Empty(t, other, "another table's hashes")
}
