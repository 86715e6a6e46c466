// Package memsearch is the exact in-memory search.Index driver.
//
// Each (conference, table) pair is a shard holding its master vectors and its
// facet vectors in two contiguous float32 matrices, rows in entity order, so a
// query scans exactly the shard's memory once and compares the query with
// every vector: results are exact, never approximate. Replaced and deleted
// rows are reclaimed by compaction once they exceed an eighth of a shard.
//
// Shards of DefaultQuantiseAbove rows or more also keep an int8 copy of their
// rows and scan that (a quarter of the bytes), then score the best candidates
// again from the float rows: hits still carry exact scores, and the ranking
// matches the exact scan unless an entity outside the candidates would have
// beaten one inside (recall@10 is measured in BenchmarkQuantisedRecall).
//
// An Index is safe for concurrent use: searches share a read lock, writes
// take the write lock, so a search sees each entity either before or after an
// upsert, never half-written.
package memsearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/erleah/erleah-agent/search"
)

// Index is an exact in-memory search.Index. Use New to create one.
type Index struct {
	dim        int
	quantAbove int
	mu         sync.RWMutex
	shards     map[shardKey]*shard
}

type shardKey struct {
	conference string
	table      search.Table
}

// New returns an empty index for vectors of dimension dim.
func New(dim int, opts ...Option) *Index {
	x := &Index{dim: dim, quantAbove: DefaultQuantiseAbove, shards: map[shardKey]*shard{}}
	for _, o := range opts {
		o(x)
	}
	return x
}

// Dim returns the vector dimension the index accepts.
func (x *Index) Dim() int { return x.dim }

// Upsert adds or replaces entities. The whole batch is checked before any
// change is made.
func (x *Index) Upsert(ctx context.Context, entities []search.Entity) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	for i := range entities {
		if err := entities[i].Check(x.dim); err != nil {
			return fmt.Errorf("memsearch: upsert entity %d (%s): %w", i, entities[i].Key(), err)
		}
	}
	groups := map[shardKey][]*search.Entity{}
	for i := range entities {
		k := shardKey{entities[i].Conference, entities[i].Table}
		groups[k] = append(groups[k], &entities[i])
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for k, ents := range groups {
		s := x.shards[k]
		if s == nil {
			s = newShard(x.dim, k.table, x.quantAbove)
			x.shards[k] = s
		}
		s.upsert(ents)
	}
	return nil
}

// Delete removes entities; unknown refs are ignored.
func (x *Index) Delete(ctx context.Context, refs []search.Ref) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, r := range refs {
		if s := x.shards[shardKey{r.Conference, r.Table}]; s != nil {
			s.remove(r.ID)
		}
	}
	return nil
}

// Refs lists the stored entities of one conference and table, sorted by id.
func (x *Index) Refs(ctx context.Context, conference string, table search.Table) ([]search.Ref, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	s := x.shards[shardKey{conference, table}]
	if s == nil {
		return nil, nil
	}
	refs := make([]search.Ref, 0, len(s.byID))
	for id := range s.byID {
		refs = append(refs, search.Ref{Conference: conference, Table: table, ID: id})
	}
	slices.SortFunc(refs, func(a, b search.Ref) int { return strings.Compare(a.ID, b.ID) })
	return refs, nil
}

// Search scans the conference's shard of q.Table and returns the best hits.
func (x *Index) Search(ctx context.Context, q search.VectorQuery) ([]search.Hit, error) {
	if err := q.Check(x.dim); err != nil {
		return nil, fmt.Errorf("memsearch: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	s := x.shards[shardKey{q.Conference, q.Table}]
	if s == nil {
		return []search.Hit{}, nil
	}
	return s.search(q), nil
}

// Stats describes the memory an index holds.
type Stats struct {
	Entities    int   // live entities
	Vectors     int   // live vectors (master and facet)
	VectorBytes int64 // bytes allocated for vector storage (float rows and their int8 copies), dead rows and spare capacity included
}

// Stats returns the index's current size.
func (x *Index) Stats() Stats {
	x.mu.RLock()
	defer x.mu.RUnlock()
	var st Stats
	for _, s := range x.shards {
		st.Entities += len(s.byID)
		st.Vectors += len(s.byID) + s.liveFacets
		st.VectorBytes += int64(cap(s.masters)+cap(s.facets)) * 4
		st.VectorBytes += s.qmasters.bytes() + s.qfacets.bytes()
	}
	return st
}
