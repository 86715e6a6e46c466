package weaviatesearch

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/erleah/erleah-agent/search"
)

// Candidate rounds: the first asks for firstRound×limit vectors (an entity
// has several facets, and the best entities' facets crowd the top), each
// further round for growth times more, up to maxCandidates (Weaviate's
// default QUERY_MAXIMUM_RESULTS).
const (
	firstRoundMaster  = 2
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
	s := &scan{x: x, q: q, vector: gqlVector(q.Vector), top: search.TopK[matched]{K: q.Limit}, scored: map[string]bool{}, total: search.TotalWeight(q.Table)}
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
	vector string // q.Vector in GraphQL
	top    search.TopK[matched]
	scored map[string]bool // master mode: entities offered to top
	total  float32         // coverage denominator (faceted mode)
}

// candidate is one vector Weaviate found.
type candidate struct {
	entity, facet string
	sim           float32
}

func (s *scan) run(ctx context.Context) ([]search.Hit, error) {
	n := s.q.Limit * firstRoundMaster
	if s.q.Mode == search.Faceted {
		n = s.q.Limit * firstRoundFaceted
	}
	for round := 0; ; round++ {
		n = min(n, maxCandidates)
		cands, err := s.candidates(ctx, n, round == 0)
		if err != nil {
			return nil, err
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
// faceted mode. The first faceted round also reads the table's facet keys
// outside the schema, for the coverage denominator.
func (s *scan) candidates(ctx context.Context, n int, first bool) ([]candidate, error) {
	kind := kindFacet
	if s.q.Mode == search.Master {
		kind = kindEntity
	}
	// A vector below the threshold (or, of a facet, below the floor) cannot
	// lift any entity to a score that counts.
	query := fmt.Sprintf(`{Get{%s(%s, where: %s, limit: %d){%s %s _additional{distance}}`,
		s.x.class, s.nearVector(max(s.q.Threshold, s.floor())), s.filter(kind).gql(), n, propEntity, propFacet)
	if first && s.q.Mode == search.Faceted {
		query += s.x.markerQuery("markers", s.q.Conference, s.q.Table)
	}
	query += "}}"
	var data struct {
		Get map[string][]objectFields
	}
	if err := s.x.c.graphql(ctx, query, &data); err != nil {
		return nil, err
	}
	for _, key := range markerKeys(data.Get["markers"]) {
		s.total += search.FacetWeight(s.q.Table, key)
	}
	objs := data.Get[s.x.class]
	cands := make([]candidate, len(objs))
	for i, o := range objs {
		cands[i] = candidate{entity: o.Entity, facet: o.Facet, sim: 1 - o.Additional.Distance}
		if s.q.Mode == search.Master && !s.scored[o.Entity] {
			s.scored[o.Entity] = true
			s.top.Offer(cands[i].sim, o.Entity, matched{})
		}
	}
	return cands, nil
}

// objectFields is what a query reads of an object.
type objectFields struct {
	Entity     string   `json:"entity"`
	Facet      string   `json:"facet"`
	FacetKeys  []string `json:"facetKeys"`
	Vectors    string   `json:"vectors"`
	Additional struct {
		Distance float32 `json:"distance"`
	} `json:"_additional"`
}

// nearVector is the query's nearVector argument, keeping only vectors whose
// similarity is at least min (less the slack).
func (s *scan) nearVector(min float32) string {
	return fmt.Sprintf("nearVector: {vector: %s, distance: %g}", s.vector, 1-min+slack)
}

// floor is the facet floor in faceted mode, 0 in master mode.
func (s *scan) floor() float32 {
	if s.q.Mode == search.Faceted {
		return s.q.FacetFloor
	}
	return 0
}

// gqlVector writes v as a GraphQL list of floats.
func gqlVector(v []float32) string {
	var b strings.Builder
	b.Grow(len(v) * 12)
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatFloat(float64(x), 'g', -1, 32))
	}
	b.WriteByte(']')
	return b.String()
}
