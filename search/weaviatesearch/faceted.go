package weaviatesearch

import (
	"cmp"
	"context"
	"slices"

	"github.com/erleah/erleah-agent/search"
	pb "github.com/weaviate/weaviate/grpc/generated/protocol/v1"
)

// Faceted scoring. A candidate round finds every facet whose similarity is
// at least the last candidate's (exactly so with an exact vector search).
// From the facets seen, each entity gets a lower bound (its score counting
// only those) and an upper bound (every facet not seen scoring as the last
// candidate, up to the whole coverage denominator). Rounds go deeper until
// the k-th best lower bound exceeds the last similarity (no entity not seen
// can rank); then only entities whose upper bound reaches that k-th lower
// bound can rank, and only those are read and scored exactly: reading an
// entity's vectors is the expensive part of a search.

// seenFacets are the facets of one entity found among the candidates.
type seenFacets struct {
	sims, weights []float32
}

// seen groups the candidates by entity, in order of each entity's best.
func (s *scan) seen(cands []candidate) (map[string]*seenFacets, []string) {
	seen := map[string]*seenFacets{}
	var order []string
	for _, c := range cands {
		f := seen[c.entity]
		if f == nil {
			f = &seenFacets{}
			seen[c.entity] = f
			order = append(order, c.entity)
		}
		f.sims = append(f.sims, c.sim)
		f.weights = append(f.weights, search.FacetWeight(s.q.Table, c.facet))
	}
	return seen, order
}

// scoreFaceted scores exactly the seen entities that can reach kth. Their
// upper bounds are loose (a facet not seen may score as much as the last
// candidate), so Weaviate first computes the similarity of every facet of
// theirs, and only the entities whose score from those reaches the k-th
// best such score are read and scored exactly.
func (s *scan) scoreFaceted(ctx context.Context, seen map[string]*seenFacets, order []string, kth, last float32) error {
	cut := max(kth, s.q.Threshold) - slack
	var ids []string
	for _, id := range order {
		if up := s.upper(seen[id], last); up > 0 && up >= cut {
			ids = append(ids, id)
		}
	}
	if len(ids) > s.q.Limit && !s.complete {
		var err error
		if ids, err = s.narrow(ctx, ids); err != nil {
			return err
		}
	}
	for chunk := range chunks(ids, exactChunk) {
		if err := s.exact(ctx, chunk); err != nil {
			return err
		}
	}
	return nil
}

// narrow keeps the entities whose score from Weaviate's similarities of all
// their facets (those at or above the floor) reaches the k-th best such
// score (and the threshold).
func (s *scan) narrow(ctx context.Context, ids []string) ([]string, error) {
	all := map[string]*seenFacets{}
	for chunk := range chunks(ids, exactChunk) {
		facets := s.filter(kindFacet)
		facets.Operands = append(facets.Operands, containsAny(propEntity, chunk))
		// Facets below the floor do not count.
		results, err := s.x.g.searchFor(ctx, &pb.SearchRequest{
			Collection: s.x.class, Limit: maxCandidates, Filters: facets.proto(),
			NearVector: s.nearVector(s.q.FacetFloor), Metadata: &pb.MetadataRequest{Distance: true},
			Properties: &pb.PropertiesRequest{NonRefProperties: []string{propEntity, propFacet}},
		})
		if err != nil {
			return nil, err
		}
		for _, r := range results {
			id := text(r, propEntity)
			f := all[id]
			if f == nil {
				f = &seenFacets{}
				all[id] = f
			}
			f.sims = append(f.sims, 1-r.GetMetadata().GetDistance())
			f.weights = append(f.weights, search.FacetWeight(s.q.Table, text(r, propFacet)))
		}
	}
	cut := max(s.kthLower(all), s.q.Threshold) - slack
	var keep []string
	for _, id := range ids {
		if f := all[id]; f != nil && search.FacetScore(f.sims, f.weights, s.total, s.q.FacetFloor) >= cut {
			keep = append(keep, id)
		}
	}
	return keep, nil
}

// exactChunk bounds the entities scored in one request.
const exactChunk = 100

// kthLower is the k-th best lower bound of the entities seen (0 when fewer
// than k are seen): at least k entities score that much.
func (s *scan) kthLower(seen map[string]*seenFacets) float32 {
	all := make([]float32, 0, len(seen))
	for _, f := range seen {
		all = append(all, search.FacetScore(f.sims, f.weights, s.total, s.q.FacetFloor))
	}
	if len(all) < s.q.Limit {
		return 0
	}
	slices.SortFunc(all, func(a, b float32) int { return cmp.Compare(b, a) })
	return all[s.q.Limit-1]
}

// upper bounds the score of an entity of which f was seen, when every
// facet not seen scores at most last: FacetScore with the weight of the
// facets not seen at that similarity (every seen one is at least last, so
// the depth is the seen best; below the floor the rest does not count).
func (s *scan) upper(f *seenFacets, last float32) float32 {
	var seenW float32
	for _, w := range f.weights {
		seenW += w
	}
	sims := append(slices.Clip(f.sims), last)
	weights := append(slices.Clip(f.weights), max(0, s.total-seenW))
	return search.FacetScore(sims, weights, s.total, s.q.FacetFloor)
}

func (s *scan) offerSims(id string, keys []string, sims []float32) {
	weights := make([]float32, len(keys))
	for i, k := range keys {
		weights[i] = search.FacetWeight(s.q.Table, k)
	}
	score := search.FacetScore(sims, weights, s.total, s.q.FacetFloor)
	s.top.Offer(score, id, matched{keys: keys, sims: sims})
}

// exact scores entities from the vectors their entity objects carry: one
// object, written atomically, so a score is always one version's. (Weaviate's
// distances are not: during an update, a facet object's distance and its
// properties can come from different writes, so the candidates' similarities
// only bound scores.) Entities deleted since they were found are skipped.
func (s *scan) exact(ctx context.Context, ids []string) error {
	w := s.filter(kindEntity)
	w.Operands = append(w.Operands, containsAny(propEntity, ids))
	results, err := s.x.g.searchFor(ctx, &pb.SearchRequest{
		Collection: s.x.class, Limit: uint32(len(ids)), Filters: w.proto(),
		Properties: &pb.PropertiesRequest{NonRefProperties: []string{propEntity, propFacetKeys, propVectors}},
	})
	if err != nil {
		return err
	}
	for _, r := range results {
		e, err := decodeStored(text(r, propEntity), texts(r, propFacetKeys), r.GetProperties().GetNonRefProps().GetFields()[propVectors].GetBlobValue(), s.x.dim)
		if err != nil {
			return err
		}
		sims := make([]float32, len(e.facets))
		for i, f := range e.facets {
			sims[i] = dot(s.q.Vector, f)
		}
		if len(sims) > 0 {
			s.offerSims(e.id, e.keys, sims)
		}
	}
	return nil
}
