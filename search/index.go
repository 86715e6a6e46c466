package search

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
)

// Calibration holds the score levels that make sense for one embedder. Score
// distributions differ between embedders (a hashed bag of words and a neural
// model do not agree on what 0.3 means), so thresholds are never global
// constants.
type Calibration struct {
	// FacetFloor is the facet similarity below which a facet does not count
	// as matched.
	FacetFloor float32 `json:"facet_floor"`
	// Threshold is the default score threshold of a query.
	Threshold float32 `json:"threshold"`
	// Confident is the confidence band: a table whose best score is below it
	// came back weak and needs another round.
	Confident float32 `json:"confident"`
	// Relaxed is the threshold of the first relaxation step.
	Relaxed float32 `json:"relaxed"`
	// Loosest is the lowest threshold any step uses.
	Loosest float32 `json:"loosest"`
}

// Embedder turns texts into vectors of a fixed dimension.
//
// Implementations must be safe for concurrent use and deterministic enough
// that embedding the same text twice gives vectors with cosine ≈ 1.
type Embedder interface {
	// Name identifies the embedder and model, such as "hash" or
	// "openai:text-embedding-3-small".
	Name() string
	// Dim is the length of every vector Embed returns.
	Dim() int
	// Embed returns one unit-length vector per text, in order. An empty text
	// gives a zero vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	// Calibration returns the score levels that suit this embedder.
	Calibration() Calibration
}

// FacetVector is the vector of one facet of an entity.
type FacetVector struct {
	Key    string
	Vector []float32
}

// Entity is what an Index stores for one conference entity: one master vector
// and one vector per facet the entity has.
type Entity struct {
	Ref
	Master []float32
	Facets []FacetVector
}

// MaxFacets bounds the facets of one entity, in every driver.
const MaxFacets = 64

// Check reports what makes e unfit for an index of dimension dim: a
// missing conference or id, an unknown table, more than MaxFacets facets,
// an empty or repeated facet key (ErrInvalidQuery), or a vector of another
// length (ErrDimension). Every driver checks a whole batch with it before
// changing anything.
func (e *Entity) Check(dim int) error {
	switch {
	case e.Conference == "" || e.ID == "":
		return fmt.Errorf("%w: conference and id are required", ErrInvalidQuery)
	case !e.Table.Valid():
		return fmt.Errorf("%w: unknown table %q", ErrInvalidQuery, e.Table)
	case len(e.Master) != dim:
		return fmt.Errorf("%w: master vector has %d dimensions, want %d", ErrDimension, len(e.Master), dim)
	case len(e.Facets) > MaxFacets:
		return fmt.Errorf("%w: %d facets, at most %d", ErrInvalidQuery, len(e.Facets), MaxFacets)
	}
	seen := make(map[string]bool, len(e.Facets))
	for _, f := range e.Facets {
		if f.Key == "" || seen[f.Key] {
			return fmt.Errorf("%w: facet %q empty or repeated for %s", ErrInvalidQuery, f.Key, e.Table)
		}
		seen[f.Key] = true
		if len(f.Vector) != dim {
			return fmt.Errorf("%w: facet %s has %d dimensions, want %d", ErrDimension, f.Key, len(f.Vector), dim)
		}
	}
	return nil
}

// Index stores entity vectors and answers nearest-entity queries filtered by
// conference and table. It is the one producer-side contract of the search
// subsystem: drivers implement it and pass searchtest.Run.
//
// Implementations must be safe for concurrent use; a search running during
// an upsert sees either the old or the new version of each entity.
type Index interface {
	// Dim is the vector dimension the index accepts.
	Dim() int
	// Upsert adds entities or replaces them (matched by Ref). It fails with
	// ErrDimension, leaving the index unchanged, when any vector has the
	// wrong length, and with ErrInvalidQuery when a ref or facet key is
	// invalid.
	Upsert(ctx context.Context, entities []Entity) error
	// Delete removes entities; unknown refs are ignored.
	Delete(ctx context.Context, refs []Ref) error
	// Refs lists the stored entities of one conference and table, sorted by id.
	Refs(ctx context.Context, conference string, table Table) ([]Ref, error)
	// Search returns at most q.Limit hits of q.Table in q.Conference scoring
	// at least q.Threshold (and above zero), best first, ties broken by id.
	// Faceted scores follow FacetScore; master scores are cosine similarity.
	Search(ctx context.Context, q VectorQuery) ([]Hit, error)
}

// Normalise scales v to unit length in place (a zero vector stays zero), so
// that a dot product is the cosine.
func Normalise(v []float32) {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 {
		return
	}
	inv := float32(1 / math.Sqrt(sum))
	for i := range v {
		v[i] *= inv
	}
}

// Dot is the dot product of two vectors of the same length (their cosine
// when both are unit vectors), with four independent accumulators so the
// loop is not bound by one addition chain.
func Dot(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float32
	i := 0
	for ; i+4 <= len(a); i += 4 {
		s0 += a[i] * b[i]
		s1 += a[i+1] * b[i+1]
		s2 += a[i+2] * b[i+2]
		s3 += a[i+3] * b[i+3]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// AppendFloats appends v's values to buf as little-endian float32 bytes,
// the one byte form vectors take here (index objects, the embedding cache,
// content hashes, stored lessons).
func AppendFloats(buf []byte, v []float32) []byte {
	for _, x := range v {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
	}
	return buf
}

// Floats reads raw, little-endian float32 bytes as AppendFloats writes
// them; a trailing part shorter than four bytes is ignored.
func Floats(raw []byte) []float32 {
	out := make([]float32, len(raw)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
	}
	return out
}
