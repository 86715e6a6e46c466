package weaviatesearch

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
)

// flatSearchCutoff is the collection's flatSearchCutoff: a filter keeping
// fewer objects is searched exactly.
const flatSearchCutoff = 200_000

// Batch sizes: objects per batch write and batches in flight, entity ids
// per filter.
const (
	batchObjects    = 100
	batchesInFlight = 2
	filterChunk     = 200
	refsPage        = 1000
)

func chunks[T any](s []T, n int) iter.Seq[[]T] {
	return func(yield func([]T) bool) {
		for len(s) > 0 {
			k := min(n, len(s))
			if !yield(s[:k]) {
				return
			}
			s = s[k:]
		}
	}
}

// ensureCollection creates the collection unless it exists, and adds to an
// existing one the properties it lacks (made by an older version).
// https://weaviate.io/developers/weaviate/api/rest#tag/schema
func (x *Index) ensureCollection(ctx context.Context, cfg Config) error {
	var have classSchema
	err := x.c.do(ctx, http.MethodGet, "/v1/schema/"+x.class, nil, &have)
	var we *Error
	switch {
	case err == nil:
		return x.addMissing(ctx, cfg, have.has)
	case !errors.As(err, &we) || we.Status != http.StatusNotFound:
		return err
	}
	err = x.c.do(ctx, http.MethodPost, "/v1/schema", collectionSchema(x.class, cfg), nil)
	if errors.As(err, &we) && we.Status == http.StatusUnprocessableEntity && strings.Contains(we.Message, "already exists") {
		return nil // created concurrently by another index
	}
	return err
}

// classSchema is what ensureCollection reads of an existing collection.
type classSchema struct {
	Properties []struct {
		Name string `json:"name"`
	} `json:"properties"`
}

func (c classSchema) has(name string) bool {
	for _, p := range c.Properties {
		if p.Name == name {
			return true
		}
	}
	return false
}

// addMissing adds each property of the schema that has says is missing.
func (x *Index) addMissing(ctx context.Context, cfg Config, has func(string) bool) error {
	for _, p := range collectionSchema(x.class, cfg)["properties"].([]map[string]any) {
		name := p["name"].(string)
		if has(name) {
			continue
		}
		if err := x.c.do(ctx, http.MethodPost, "/v1/schema/"+x.class+"/properties", p, nil); err != nil {
			return fmt.Errorf("add property %s: %w", name, err)
		}
	}
	return nil
}

// collectionSchema is the collection's definition: one shard (replicated
// cfg.Replicas times), because Weaviate sorts each shard's results on its
// own and Refs pages through one sorted list.
func collectionSchema(class string, cfg Config) map[string]any {
	filterable := func(name string) map[string]any {
		return map[string]any{"name": name, "dataType": []string{"text"}, "tokenization": "field",
			"indexFilterable": true, "indexSearchable": false}
	}
	textProperty := func(name string) map[string]any {
		return map[string]any{"name": name, "dataType": []string{"text"}, "tokenization": "field",
			"indexFilterable": false, "indexSearchable": false}
	}
	return map[string]any{
		"class":           class,
		"description":     fmt.Sprintf("erleah-agent search index: entity and facet vectors of dimension %d", cfg.Dim),
		"vectorizer":      "none",
		"vectorIndexType": cfg.VectorIndex,
		"shardingConfig":  map[string]any{"desiredCount": 1},
		// Asynchronous replication repairs a replica that missed writes
		// (a node that was down) in the background: searches find
		// candidates in one replica's vector index, which read repair
		// does not fix.
		"replicationConfig": map[string]any{"factor": cfg.Replicas, "asyncEnabled": cfg.Replicas > 1},
		// Every query is filtered to one conference's table, which Weaviate
		// searches exactly, by brute force over the HNSW index's in-memory
		// vectors, when the filter keeps fewer objects than flatSearchCutoff
		// (default 40,000; here 200,000, so that searches stay exact for any
		// table a conference has). The graph then serves no query of ours,
		// and building it was most of an ingestion, so it is a minimal one
		// (Weaviate's defaults: efConstruction 128, maxConnections 32).
		// Measured with bench_test.go, 16k vectors: 1,850 vectors/s with the
		// defaults, 2,500 with (32, 16), 3,200–3,700 with (8, 4), the same
		// query latency. (The flat index type builds no graph, 4,300
		// vectors/s, but reads every vector from disk per query: faceted p50
		// 4.9 ms against 2.9 ms.)
		"vectorIndexConfig": map[string]any{"distance": "cosine", "efConstruction": 8, "maxConnections": 4,
			"flatSearchCutoff": flatSearchCutoff},
		"properties": []map[string]any{
			filterable(propConference), filterable(propTable), filterable(propEntity),
			filterable(propKind), filterable(propFacet), filterable(propOrder),
			{"name": propFacetKeys, "dataType": []string{"text[]"}, "tokenization": "field",
				"indexFilterable": false, "indexSearchable": false},
			{"name": propVectors, "dataType": []string{"blob"}},
			textProperty(propHash),
		},
	}
}

// write stores the key markers, then the entities' objects (each entity's
// facet objects and its entity object), in batches with a few in flight:
// measured with bench_test.go, two batches of 100 in flight ingest 3,000
// vectors/s where one at a time ingested 2,300; keeping facet and entity
// objects apart (fewer mixed batches) ingested 2,200. The markers go first:
// a search must not see a facet key outside the schema before its marker
// widens the coverage denominator.
// https://weaviate.io/developers/weaviate/api/grpc
func (x *Index) write(ctx context.Context, entities []search.Entity) error {
	var objs []*pb.BatchObject
	for i := range entities {
		f, e := objects(x.class, &entities[i])
		objs = append(append(objs, f...), e)
	}
	for _, phase := range [][]*pb.BatchObject{markers(x.class, entities), objs} {
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(batchesInFlight)
		for batch := range chunks(phase, batchObjects) {
			g.Go(func() error { return x.writeBatch(gctx, batch) })
		}
		if err := g.Wait(); err != nil {
			return err
		}
	}
	return nil
}

func (x *Index) writeBatch(ctx context.Context, objs []*pb.BatchObject) error {
	if err := x.g.batch(ctx, objs); err != nil {
		return fmt.Errorf("batch of %d objects: %w", len(objs), err)
	}
	return nil
}

// dropStaleFacets deletes the facet objects of the entities whose keys the
// entities no longer have.
func (x *Index) dropStaleFacets(ctx context.Context, entities []search.Entity) error {
	byShard := map[shardKey][]where{}
	for _, e := range entities {
		keys := make([]string, len(e.Facets))
		for i, f := range e.Facets {
			keys[i] = f.Key
		}
		stale := equal(propEntity, e.ID)
		if len(keys) > 0 {
			stale = and(stale, containsNone(propFacet, keys))
		}
		k := shardKey{e.Conference, e.Table}
		byShard[k] = append(byShard[k], stale)
	}
	for k, stale := range byShard {
		deleted := 0
		for chunk := range chunks(stale, filterChunk) {
			n, err := x.deleteWhere(ctx, and(shardFilter(k.conference, k.table, kindFacet), or(chunk...)))
			if err != nil {
				return fmt.Errorf("drop stale facets in %s %s: %w", k.conference, k.table, err)
			}
			deleted += n
		}
		if err := x.pruneMarkers(ctx, k, deleted); err != nil {
			return fmt.Errorf("prune key markers of %s %s: %w", k.conference, k.table, err)
		}
	}
	return nil
}

// pruneMarkers deletes the key markers of a conference's table whose key no
// facet object has any more, so a key a reload dropped stops widening the
// coverage denominator. Only a deletion can leave a marker without facet
// objects: after none (deleted == 0) it asks nothing.
func (x *Index) pruneMarkers(ctx context.Context, k shardKey, deleted int) error {
	if deleted == 0 {
		return nil
	}
	keys, err := x.markerKeys(ctx, x.g.search, k.conference, k.table)
	if err != nil || len(keys) == 0 {
		return err
	}
	var q strings.Builder
	q.WriteString("{Get{")
	for i, key := range keys {
		w := and(shardFilter(k.conference, k.table, kindFacet), equal(propFacet, key))
		fmt.Fprintf(&q, "k%d: %s(where: %s, limit: 1){%s} ", i, x.class, w.gql(), propEntity)
	}
	q.WriteString("}}")
	var data struct{ Get map[string][]map[string]any }
	if err := x.c.graphql(ctx, q.String(), &data); err != nil {
		return err
	}
	for i, key := range keys {
		if len(data.Get[fmt.Sprintf("k%d", i)]) == 0 {
			if _, err := x.deleteWhere(ctx, and(shardFilter(k.conference, k.table, kindKey), equal(propFacet, key))); err != nil {
				return err
			}
		}
	}
	return nil
}

// searcher is rpc.search or rpc.searchFor.
type searcher func(context.Context, *pb.SearchRequest) ([]*pb.SearchResult, error)

// markerKeys lists the facet keys outside the schema that a conference's
// table holds (its key markers).
func (x *Index) markerKeys(ctx context.Context, read searcher, conference string, table search.Table) ([]string, error) {
	results, err := read(ctx, &pb.SearchRequest{
		Collection: x.class, Limit: maxFacetKeys, Filters: shardFilter(conference, table, kindKey).proto(),
		Properties: &pb.PropertiesRequest{NonRefProperties: []string{propFacet}},
	})
	if err != nil {
		return nil, err
	}
	keys := make([]string, len(results))
	for i, r := range results {
		keys[i] = text(r, propFacet)
	}
	return keys, nil
}

// maxFacetKeys bounds the facet keys outside the schema one table lists.
const maxFacetKeys = 1000

// markersRead is the outcome of markerKeys.
type markersRead struct {
	keys []string
	err  error
}

// readMarkers runs markerKeys in the background, for the search's caller:
// a faceted search needs the keys only after its first candidate round.
func (x *Index) readMarkers(ctx context.Context, conference string, table search.Table) <-chan markersRead {
	ch := make(chan markersRead, 1)
	go func() {
		keys, err := x.markerKeys(ctx, x.g.searchFor, conference, table)
		ch <- markersRead{keys, err}
	}()
	return ch
}

// deleteWhere deletes every object w matches, in as many requests as the
// server's per-request limit needs, and returns how many it deleted.
// https://weaviate.io/developers/weaviate/api/rest#tag/batch/delete/batch/objects
func (x *Index) deleteWhere(ctx context.Context, w where) (int, error) {
	if len(w.Operands) == 1 && w.Operator != "Not" {
		w = w.Operands[0] // Weaviate wants two operands or more
	}
	body := map[string]any{"match": map[string]any{"class": x.class, "where": w}, "output": "minimal"}
	deleted := 0
	for {
		var resp struct {
			Results struct {
				Matches, Limit, Successful, Failed int
			} `json:"results"`
		}
		if err := x.c.do(ctx, http.MethodDelete, "/v1/batch/objects", body, &resp); err != nil {
			return deleted, err
		}
		r := resp.Results
		deleted += r.Successful
		if r.Failed > 0 {
			return deleted, fmt.Errorf("%d of %d objects not deleted", r.Failed, r.Matches)
		}
		if r.Limit == 0 || r.Matches < r.Limit {
			return deleted, nil
		}
	}
}

// listed is a stored entity: its id and content hash.
type listed struct{ id, hash string }

// listEntities lists the stored entities of one conference and table,
// sorted by id, a page at a time. Weaviate sorts text ignoring case, so
// pages are sorted and cut on the id's hex form, whose order is the ids'
// byte order.
func (x *Index) listEntities(ctx context.Context, conference string, table search.Table) ([]listed, error) {
	var out []listed
	for {
		w := shardFilter(conference, table, kindEntity)
		if len(out) > 0 {
			w.Operands = append(w.Operands, greater(propOrder, hex.EncodeToString([]byte(out[len(out)-1].id))))
		}
		results, err := x.g.search(ctx, &pb.SearchRequest{
			Collection: x.class, Limit: refsPage, Filters: w.proto(),
			SortBy:     []*pb.SortBy{{Ascending: true, Path: []string{propOrder}}},
			Properties: &pb.PropertiesRequest{NonRefProperties: []string{propEntity, propHash}},
		})
		if err != nil {
			return nil, err
		}
		for _, r := range results {
			out = append(out, listed{text(r, propEntity), text(r, propHash)})
		}
		if len(results) < refsPage {
			return out, nil
		}
	}
}
