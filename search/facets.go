package search

import (
	_ "embed"
	"encoding/json"
	"fmt"
)

// FacetDef describes one facet of an entity kind. Weight says how much a
// match on this facet counts towards an entity's coverage.
type FacetDef struct {
	Key         string  `json:"key"`
	Weight      float32 `json:"weight"`
	Description string  `json:"description"`
}

//go:embed facets.json
var facetsJSON []byte

// schema is the one facet vocabulary of the project, loaded from facets.json.
var schema = mustSchema(facetsJSON)

func mustSchema(data []byte) map[Table][]FacetDef {
	var s map[Table][]FacetDef
	if err := json.Unmarshal(data, &s); err != nil {
		panic(fmt.Sprintf("search: facets.json: %v", err)) // a build-time asset; tests cover it
	}
	for _, t := range Tables {
		if len(s[t]) == 0 {
			panic(fmt.Sprintf("search: facets.json: no facets for %s", t))
		}
	}
	return s
}

// Facets returns the facet definitions of table t in schema order. The
// returned slice must not be modified.
func Facets(t Table) []FacetDef { return schema[t] }

// DefaultFacetWeight is the weight of a facet key the schema does not know:
// bundles may name their facets as they like (contract §2), and such a
// facet counts like an average one of ours.
const DefaultFacetWeight = 1.0

// FacetWeight returns the weight of facet key in table t: its tuned weight
// when the schema knows the key, DefaultFacetWeight otherwise.
func FacetWeight(t Table, key string) float32 {
	w, _ := knownFacet(t, key)
	return w
}

// KnownFacet reports whether key belongs to t's schema.
func KnownFacet(t Table, key string) bool {
	_, ok := knownFacet(t, key)
	return ok
}

func knownFacet(t Table, key string) (float32, bool) {
	for _, f := range schema[t] {
		if f.Key == key {
			return f.Weight, true
		}
	}
	return DefaultFacetWeight, false
}

// TotalWeight is the sum of the weights of every facet table t's schema
// defines: with the extra facets an index holds, the denominator of an
// entity's coverage.
func TotalWeight(t Table) float32 {
	var sum float32
	for _, f := range schema[t] {
		sum += f.Weight
	}
	return sum
}

// Score composition. An entity's faceted score is
//
//	DepthShare × best + CoverageShare × coverage
//
// where best is its highest facet similarity and coverage is the
// weight-averaged similarity over every facet the table defines, counting
// facets below the floor (and facets the entity lacks) as zero. Both parts
// are on the cosine scale, so the score is bounded by the best facet
// similarity, reaches it only when every facet matches that well, never
// decreases when another facet matches, and is directly comparable with the
// cosine score of master mode.
const (
	DepthShare    = 0.6
	CoverageShare = 0.4
)

// FacetScore combines an entity's per-facet similarities into its score.
// sims[i] and weights[i] belong to the entity's i-th facet; total is
// TotalWeight of the table; facets scoring below floor do not count.
func FacetScore(sims, weights []float32, total, floor float32) float32 {
	var best, covered float32
	for i, s := range sims {
		if s < floor {
			continue
		}
		best = max(best, s)
		covered += weights[i] * s
	}
	if best == 0 || total <= 0 {
		return 0
	}
	return DepthShare*best + CoverageShare*covered/total
}
