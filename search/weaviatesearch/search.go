package weaviatesearch

import (
	"context"
	"fmt"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
)

// Candidate rounds: the first asks for firstRoundFaceted×limit facet
// vectors (an entity has several facets, and the best entities' facets
// crowd the top), or limit+1 entity vectors in master mode (one per entity:
// the one beyond the limit shows no tie at the k-th is cut off, and every
// result Weaviate returns costs time); each further round asks for growth
// times more, up to maxCandidates (Weaviate's default
// QUERY_MAXIMUM_RESULTS).
const (
	firstRoundFaceted = 8
	growth            = 4
	maxCandidates     = 10000
	// slack covers the difference between Weaviate's float32 cosine
	// distance and an exact dot product.
	slack = 1e-4
)

// Search returns the best entities of q.Table in q.Conference (see the
// package comment for how).
func (x *Index) Search(ctx context.Context, q search.VectorQuery) ([]search.Hit, error) {
	if err := q.Check(x.dim); err != nil {
		return nil, fmt.Errorf("weaviatesearch: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if q.IDs != nil && len(q.IDs) == 0 {
		return []search.Hit{}, nil
	}
	s := &scan{x: x, q: q, vector: vectorBytes(q.Vector), top: search.TopK[matched]{K: q.Limit}, scored: map[string]bool{}, total: search.TotalWeight(q.Table)}
	hits, err := s.run(ctx)
	if err != nil {
		return nil, fmt.Errorf("weaviatesearch: %s %s in %s: %w", q.Mode, q.Table, q.Conference, err)
	}
	return hits, nil
}

// scan is one search: the candidate rounds and the best entities so far.
type scan struct {
	x      *Index
	q      search.VectorQuery
	vector []byte // q.Vector as the gRPC API takes it
	top    search.TopK[matched]
	scored map[string]bool // master mode: entities offered to top
	total  float32         // coverage denominator (faceted mode)
	// complete: the candidates hold every facet that counts (at or above
	// the floor), so no entity needs its other facets asked for.
	complete bool
}

// candidate is one vector Weaviate found.
type candidate struct {
	entity, facet string
	sim           float32
}

func (s *scan) run(ctx context.Context) ([]search.Hit, error) {
	n := s.q.Limit + 1
	if s.q.Mode == search.Faceted {
		n = s.q.Limit * firstRoundFaceted
	}
	var markers <-chan markersRead
	if s.q.Mode == search.Faceted {
		markers = s.x.readMarkers(ctx, s.q.Conference, s.q.Table)
	}
	for round := 0; ; round++ {
		n = min(n, maxCandidates)
		cands, err := s.candidates(ctx, n)
		if err != nil {
			return nil, err
		}
		if round == 0 && markers != nil {
			if err := s.addMarkers(<-markers); err != nil {
				return nil, err
			}
		}
		last := float32(-1)
		if len(cands) > 0 {
			last = cands[len(cands)-1].sim
		}
		final := len(cands) < n || n == maxCandidates
		if s.q.Mode == search.Master && (final || s.outranks(s.top.Kth(), last)) {
			return hits(&s.top, s.q), nil
		}
		if s.q.Mode == search.Faceted {
			seen, order := s.seen(cands)
			if kth := s.kthLower(seen); final || s.outranks(kth, last) {
				if len(cands) < n {
					// Every facet at or above the cut-off was found: those not
					// seen score below it.
					last = s.unseenBound()
					s.complete = last < 0
				}
				if err := s.scoreFaceted(ctx, seen, order, kth, last); err != nil {
					return nil, err
				}
				return hits(&s.top, s.q), nil
			}
		}
		n *= growth
	}
}

// outranks reports whether no entity outside the candidates can make the
// result once kth is the k-th best score (0 while fewer than k score): an
// entity's score is at most its best similarity, at most last for an
// entity with no vector among the candidates, and 0 in faceted mode when
// last is below the facet floor.
func (s *scan) outranks(kth, last float32) bool {
	if s.q.Mode == search.Faceted && last < s.q.FacetFloor-slack {
		return true
	}
	bound := last + slack
	return bound <= 0 || bound < s.q.Threshold || kth > 0 && bound < kth
}

// addMarkers widens the coverage denominator by the weight of each facet
// key outside the schema that the table holds.
func (s *scan) addMarkers(m markersRead) error {
	for _, key := range m.keys {
		s.total += search.FacetWeight(s.q.Table, key)
	}
	return m.err
}

// filter is the server-side filter of the scan's objects of kind.
func (s *scan) filter(kind string) where {
	w := shardFilter(s.q.Conference, s.q.Table, kind)
	if s.q.IDs != nil {
		w.Operands = append(w.Operands, containsAny(propEntity, s.q.IDs))
	}
	return w
}

// candidates asks Weaviate for the n vectors nearest the query: entity
// objects in master mode, whose similarity is the score, facet objects in
// faceted mode.
func (s *scan) candidates(ctx context.Context, n int) ([]candidate, error) {
	kind, props := kindFacet, []string{propEntity, propFacet}
	if s.q.Mode == search.Master {
		kind, props = kindEntity, []string{propEntity}
	}
	// A vector below the threshold (or, of a facet, below the floor) cannot
	// lift any entity to a score that counts.
	results, err := s.x.g.searchFor(ctx, &pb.SearchRequest{
		Collection: s.x.class, Limit: uint32(n), Filters: s.filter(kind).proto(),
		NearVector: s.nearVector(max(s.q.Threshold, s.floor())),
		Metadata:   &pb.MetadataRequest{Distance: true},
		Properties: &pb.PropertiesRequest{NonRefProperties: props},
	})
	if err != nil {
		return nil, err
	}
	cands := make([]candidate, len(results))
	for i, r := range results {
		cands[i] = candidate{entity: text(r, propEntity), facet: text(r, propFacet), sim: 1 - r.GetMetadata().GetDistance()}
		if s.q.Mode == search.Master && !s.scored[cands[i].entity] {
			s.scored[cands[i].entity] = true
			s.top.Offer(cands[i].sim, cands[i].entity, matched{})
		}
	}
	return cands, nil
}

// text is a text property of a search result ("" when absent).
func text(r *pb.SearchResult, prop string) string {
	return r.GetProperties().GetNonRefProps().GetFields()[prop].GetTextValue()
}

// texts is a text[] property of a search result.
func texts(r *pb.SearchResult, prop string) []string {
	return r.GetProperties().GetNonRefProps().GetFields()[prop].GetListValue().GetTextValues().GetValues()
}

// nearVector is the query's nearVector argument, keeping only vectors whose
// similarity is at least min (less the slack).
func (s *scan) nearVector(min float32) *pb.NearVector {
	d := float64(1 - min + slack)
	return &pb.NearVector{Distance: &d, Vectors: []*pb.Vectors{{VectorBytes: s.vector, Type: pb.Vectors_VECTOR_TYPE_SINGLE_FP32}}}
}

// unseenBound bounds the similarity of a facet that an exhaustive faceted
// round did not return: below the threshold when that cuts above the floor,
// else below the floor (so it does not count).
func (s *scan) unseenBound() float32 {
	if s.q.Threshold > s.q.FacetFloor {
		return s.q.Threshold
	}
	return -1
}

// floor is the facet floor in faceted mode, 0 in master mode.
func (s *scan) floor() float32 {
	if s.q.Mode == search.Faceted {
		return s.q.FacetFloor
	}
	return 0
}

// vectorBytes is v as the gRPC API takes it: little-endian float32.
func vectorBytes(v []float32) []byte { return search.AppendFloats(make([]byte, 0, 4*len(v)), v) }
