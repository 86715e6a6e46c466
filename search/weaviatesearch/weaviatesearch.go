// Package weaviatesearch is the search.Index driver for Weaviate. Searches
// and batch writes go over Weaviate's gRPC API (the generated protocol
// package of Weaviate's own module, without the official client's module
// graph), where vectors travel as bytes: a filtered top-10 took 0.8 ms over
// gRPC against 2.5–4.5 ms over GraphQL, which spells every float in text.
// Schema changes, deletes and listings use the REST and GraphQL APIs with
// net/http.
//
// # Data model
//
// One collection holds every conference. Each entity is stored as one entity
// object, whose vector is the master vector and whose properties carry every
// vector of the entity (master then facets, float32 in a blob) with the facet
// keys, plus one facet object per facet, whose vector is that facet's. All
// objects carry conference, table and entity id; their ids are UUIDv5 of
// (conference, table, id, facet), so writing an entity again overwrites its
// objects and never duplicates them.
//
// Facet keys are open (a bundle may name its own), so they are a property,
// not Weaviate named vectors: named vectors are fixed in the collection's
// schema, one vector index each, and Weaviate's multi-target search cannot
// express "best facet of the entities that have it". One object per
// (entity, facet) keeps one vector index whatever the keys.
//
// # Search
//
// Conference, table and object kind (and VectorQuery.IDs) are server-side
// where filters of every query; nothing is filtered in the driver.
//
// Master mode is one filtered nearVector over entity objects: the score is
// Weaviate's cosine similarity (1 − cosine distance), which depends on one
// vector, so it is always one version's.
//
// Faceted mode finds candidates with a filtered nearVector over facet
// objects, k×8 nearest first and four times as many each further round.
// An entity's faceted score never exceeds its best facet similarity, so once
// the k-th best lower bound of the entities seen (FacetScore of the facets
// found) exceeds the last candidate's similarity, no entity not seen can
// rank. Entities whose upper bound (each facet not seen scoring as the last
// candidate) reaches that k-th lower bound get all their facet similarities
// from Weaviate in one more filtered nearVector, and the few whose score from
// those ranks are scored exactly from the vectors their entity objects carry,
// with search.FacetScore and the coverage denominator widened by every
// facet key outside the schema that the conference's table holds (one key
// marker object per such key). Ties break by id as in memsearch.
//
// Every nearVector carries a distance limit: a facet below the floor, or an
// entity below the threshold, cannot count, so Weaviate does not return it.
//
// When a faceted round returns fewer candidates than it asked for, it holds
// every facet at or above the floor, so the contenders need no further
// request for their other facets.
//
// With an exact vector search this returns exactly the brute-force top k.
// The collection's HNSW index searches exactly whenever the filter keeps
// fewer objects than its flatSearchCutoff (set to 200,000: any table of a
// conference), by brute force over its in-memory vectors, so its graph is
// built light (see collectionSchema). Measured with bench_test.go (33
// conferences in one collection, each query filtered to one, 3 % of the
// objects): see BENCHMARKS.md.
//
// The collection has one shard (Config.Replicas copies of it): Weaviate
// sorts each shard's results on its own, and Refs pages through one sorted
// list.
//
// # Consistency
//
// A faceted score is computed only from an entity object, which Weaviate
// writes atomically, so a search during an upsert sees the old or the new
// version of each entity, never a mix. Weaviate's distances do not have that
// property: while an object is replaced, a facet object's distance and its
// properties may come from different writes (measured: the concurrent
// conformance test failed when scores were summed from facet distances), so
// distances only choose which entities to score. Upsert writes the key
// markers before any object that uses their keys, then the objects (a few
// batches in flight, so in no guaranteed order), and then deletes the facet
// objects whose keys the new version dropped.
//
// Upsert checks the whole batch before writing anything; a bad batch
// changes nothing. A server failure during a write can leave part of a
// batch written; writing it again converges. Requests are retried a bounded
// number of times on connection errors, 429 and 5xx (over gRPC: unavailable,
// resource exhausted, aborted), and honour the context.
//
// An Index is safe for concurrent use.
package weaviatesearch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// Config says which Weaviate and collection an Index uses.
type Config struct {
	// URL is Weaviate's base URL, such as http://127.0.0.1:8080, or the
	// base URLs of several nodes of a cluster separated by commas: requests
	// then go to another node when one does not answer.
	URL string
	// GRPCAddr is Weaviate's gRPC host:port, which searches and batch
	// writes use (several nodes': separated by commas, spread over those
	// that answer); default each URL's host on port 50051 (Weaviate's
	// default). gRPC uses TLS when a URL is https.
	GRPCAddr string
	// APIKey, when set, is sent as a bearer token.
	APIKey string
	// Collection is the Weaviate collection (class) name; it must start
	// with a capital letter. Default "ErleahEntities".
	Collection string
	// Dim is the vector dimension; required.
	Dim int
	// VectorIndex is "hnsw" (default) or "flat", used when the collection
	// is created.
	VectorIndex string
	// Replicas is the replication factor of the collection's one shard
	// (default 1; at most the number of nodes), used when the collection
	// is created.
	Replicas int
	// HTTPClient sends the requests; default a client with a 30 s timeout.
	HTTPClient *http.Client
}

// Index is a search.Index stored in a Weaviate collection. Use New, and
// Close when done.
type Index struct {
	c     client // REST and GraphQL: schema, deletes, listings
	g     *rpc   // gRPC: searches and batch writes
	class string
	dim   int
}

var classPattern = regexp.MustCompile(`^[A-Z][_0-9A-Za-z]*$`)

// New returns an Index on cfg's collection, creating the collection when it
// does not exist.
func New(ctx context.Context, cfg Config) (*Index, error) {
	if cfg.Collection == "" {
		cfg.Collection = "ErleahEntities"
	}
	if cfg.VectorIndex == "" {
		cfg.VectorIndex = "hnsw"
	}
	if cfg.Replicas == 0 {
		cfg.Replicas = 1
	}
	if err := cfg.check(); err != nil {
		return nil, fmt.Errorf("weaviatesearch: %w", err)
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	urls := list(cfg.URL)
	targets, useTLS, err := grpcTargets(urls, list(cfg.GRPCAddr))
	if err != nil {
		return nil, fmt.Errorf("weaviatesearch: %w", err)
	}
	g, err := dial(targets, useTLS, cfg.APIKey)
	if err != nil {
		return nil, fmt.Errorf("weaviatesearch: %w", err)
	}
	for i := range urls {
		urls[i] = strings.TrimRight(urls[i], "/")
	}
	x := &Index{c: client{bases: urls, apiKey: cfg.APIKey, http: cfg.HTTPClient}, g: g, class: cfg.Collection, dim: cfg.Dim}
	if err := x.ensureCollection(ctx, cfg); err != nil {
		g.close()
		return nil, fmt.Errorf("weaviatesearch: collection %s: %w", x.class, err)
	}
	return x, nil
}

// Close releases the gRPC connection.
func (x *Index) Close() error { return x.g.close() }

// list splits a comma-separated list, dropping blanks.
func list(s string) []string {
	var out []string
	for _, part := range strings.Split(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

func (cfg Config) check() error {
	urls, addrs := len(list(cfg.URL)), len(list(cfg.GRPCAddr))
	switch {
	case urls == 0:
		return errors.New("URL is required")
	case addrs > 0 && addrs != urls:
		return fmt.Errorf("%d gRPC addresses for %d URLs: give one per node, in the same order", addrs, urls)
	case cfg.Dim < 1:
		return fmt.Errorf("dimension %d, want at least 1", cfg.Dim)
	case !classPattern.MatchString(cfg.Collection):
		return fmt.Errorf("collection name %q must match %s", cfg.Collection, classPattern)
	case cfg.VectorIndex != "hnsw" && cfg.VectorIndex != "flat":
		return fmt.Errorf("vector index %q, want hnsw or flat", cfg.VectorIndex)
	case cfg.Replicas < 1:
		return fmt.Errorf("%d replicas, want at least 1", cfg.Replicas)
	}
	return nil
}

// Dim returns the vector dimension the index accepts.
func (x *Index) Dim() int { return x.dim }

// Drop deletes the whole collection and everything in it.
func (x *Index) Drop(ctx context.Context) error {
	err := x.c.do(ctx, http.MethodDelete, "/v1/schema/"+x.class, nil, nil)
	if err != nil {
		return fmt.Errorf("weaviatesearch: drop %s: %w", x.class, err)
	}
	return nil
}

// Upsert adds or replaces entities. The whole batch is checked before any
// object is written.
func (x *Index) Upsert(ctx context.Context, entities []search.Entity) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for i := range entities {
		if err := entities[i].Check(x.dim); err != nil {
			return fmt.Errorf("weaviatesearch: upsert entity %d (%s): %w", i, entities[i].Key(), err)
		}
	}
	if err := x.write(ctx, entities); err != nil {
		return fmt.Errorf("weaviatesearch: upsert: %w", err)
	}
	if err := x.dropStaleFacets(ctx, entities); err != nil {
		return fmt.Errorf("weaviatesearch: upsert: %w", err)
	}
	return nil
}

// Delete removes entities; unknown refs are ignored.
func (x *Index) Delete(ctx context.Context, refs []search.Ref) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for k, ids := range groupRefs(refs) {
		deleted := 0
		for chunk := range chunks(ids, filterChunk) {
			w := and(equal(propConference, k.conference), equal(propTable, string(k.table)), containsAny(propEntity, chunk))
			n, err := x.deleteWhere(ctx, w)
			if err != nil {
				return fmt.Errorf("weaviatesearch: delete from %s %s: %w", k.conference, k.table, err)
			}
			deleted += n
		}
		if err := x.pruneMarkers(ctx, k, deleted); err != nil {
			return fmt.Errorf("weaviatesearch: delete from %s %s: prune key markers: %w", k.conference, k.table, err)
		}
	}
	return nil
}

type shardKey struct {
	conference string
	table      search.Table
}

func groupRefs(refs []search.Ref) map[shardKey][]string {
	out := map[shardKey][]string{}
	for _, r := range refs {
		k := shardKey{r.Conference, r.Table}
		out[k] = append(out[k], r.ID)
	}
	return out
}

// Refs lists the stored entities of one conference and table, sorted by id.
func (x *Index) Refs(ctx context.Context, conference string, table search.Table) ([]search.Ref, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ents, err := x.listEntities(ctx, conference, table)
	if err != nil {
		return nil, fmt.Errorf("weaviatesearch: refs of %s %s: %w", conference, table, err)
	}
	refs := make([]search.Ref, len(ents))
	for i, e := range ents {
		refs[i] = search.Ref{Conference: conference, Table: table, ID: e.id}
	}
	return refs, nil
}

// Hashes returns the content hash (search.Entity.ContentHash) of every
// stored entity of one conference and table, by id: search.Stored.
func (x *Index) Hashes(ctx context.Context, conference string, table search.Table) (map[string]string, error) {
	ents, err := x.listEntities(ctx, conference, table)
	if err != nil {
		return nil, fmt.Errorf("weaviatesearch: hashes of %s %s: %w", conference, table, err)
	}
	out := make(map[string]string, len(ents))
	for _, e := range ents {
		out[e.id] = e.hash
	}
	return out, nil
}

// Ready reports whether a node answers Weaviate's readiness probe (each
// node asked once, the current one first) and a one-object read of the
// collection over gRPC (the searches' path) succeeds, asked once: a probe
// that retried would outlast the caller's check and hide the cause.
func (x *Index) Ready(ctx context.Context) error {
	var err error
	for range x.c.bases {
		if err = x.c.once(ctx, http.MethodGet, "/v1/.well-known/ready", nil, nil); err == nil {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("weaviatesearch: not ready: %w", err)
	}
	if err := x.g.ping(ctx, x.class); err != nil {
		return fmt.Errorf("weaviatesearch: not ready: %w", err)
	}
	return nil
}
