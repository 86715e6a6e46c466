// Package search is the portable vocabulary of conference search: the tables
// and modes a plan may name, the facet schema with its weights, the one 0–1
// score scale shared by faceted and master search, the Embedder and Index
// contracts that drivers implement, and the Engine that ties an embedder, an
// index and a conference catalogue together.
//
// Drivers live in sub-packages (memsearch is the exact in-memory driver);
// searchtest holds the conformance suite every driver must pass.
package search

import (
	"errors"
	"fmt"
)

// Table is an entity collection that can be searched.
type Table string

// The searchable tables.
const (
	Sessions   Table = "sessions"
	Exhibitors Table = "exhibitors"
	Speakers   Table = "speakers"
)

// Tables lists every searchable table in a fixed order.
var Tables = []Table{Sessions, Exhibitors, Speakers}

// Valid reports whether t is one of Tables.
func (t Table) Valid() bool {
	return t == Sessions || t == Exhibitors || t == Speakers
}

// Mode selects how an entity is scored against a query.
type Mode string

// The search modes.
const (
	// Faceted scores an entity from its facet vectors: the best facet match
	// plus a weighted coverage of all matching facets (see FacetScore).
	Faceted Mode = "faceted"
	// Master scores an entity by the cosine similarity of one vector that
	// embeds the whole entity.
	Master Mode = "master"
)

// Valid reports whether m is Faceted or Master.
func (m Mode) Valid() bool { return m == Faceted || m == Master }

// Other is the other mode: master for faceted, faceted for master.
func (m Mode) Other() Mode {
	if m == Master {
		return Faceted
	}
	return Master
}

// Limits on a single query.
const (
	DefaultLimit = 10
	MaxLimit     = 50
)

// Ref identifies one entity of one conference.
type Ref struct {
	Conference string `json:"conference_id"`
	Table      Table  `json:"table"`
	ID         string `json:"id"`
}

// Key is the citation form of a reference: "sessions/s12".
func (r Ref) Key() string { return string(r.Table) + "/" + r.ID }

// FacetMatch is the similarity of a query to one facet of an entity.
type FacetMatch struct {
	Key   string  `json:"key"`
	Score float32 `json:"score"`
}

// Hit is one entity returned by an Index, with its score on the shared 0–1
// scale. In faceted mode Facets lists the facets that matched, best first.
type Hit struct {
	Ref
	Score  float32      `json:"score"`
	Facets []FacetMatch `json:"facets,omitempty"`
}

// Errors returned by indexes and the engine. Callers branch on them with
// errors.Is.
var (
	ErrInvalidQuery = errors.New("invalid query")
	ErrDimension    = errors.New("vector dimension mismatch")
)

// VectorQuery is a nearest-entity query in vector form, as an Index receives it.
type VectorQuery struct {
	Conference string
	Table      Table
	Mode       Mode
	Vector     []float32
	Limit      int
	// Threshold drops hits scoring below it. Zero keeps every hit with a
	// positive score.
	Threshold float32
	// FacetFloor is the similarity below which a facet does not count as a
	// match in faceted mode; it comes from the embedder's Calibration.
	FacetFloor float32
	// IDs, when not nil, restricts the search to these entity ids (a time or
	// place filter); an empty non-nil list finds nothing.
	IDs []string
}

// Validate reports what is wrong with q, wrapping ErrInvalidQuery.
func (q VectorQuery) Validate() error {
	switch {
	case q.Conference == "":
		return fmt.Errorf("%w: conference is required", ErrInvalidQuery)
	case len(q.Vector) == 0:
		return fmt.Errorf("%w: empty vector", ErrInvalidQuery)
	}
	return checkQuery(q.Table, q.Mode, q.Limit, q.Threshold)
}

// Check is Validate and, for an index of dimension dim, the length of
// q.Vector (ErrDimension): what every driver checks before searching.
func (q VectorQuery) Check(dim int) error {
	if err := q.Validate(); err != nil {
		return err
	}
	if len(q.Vector) != dim {
		return fmt.Errorf("query has %d dimensions, want %d: %w", len(q.Vector), dim, ErrDimension)
	}
	return nil
}

// checkQuery checks what text and vector queries share.
func checkQuery(t Table, m Mode, limit int, threshold float32) error {
	switch {
	case !t.Valid():
		return fmt.Errorf("%w: unknown table %q", ErrInvalidQuery, t)
	case !m.Valid():
		return fmt.Errorf("%w: unknown mode %q", ErrInvalidQuery, m)
	case limit < 1 || limit > MaxLimit:
		return fmt.Errorf("%w: limit %d outside 1..%d", ErrInvalidQuery, limit, MaxLimit)
	case threshold < 0 || threshold > 1:
		return fmt.Errorf("%w: threshold %g outside 0..1", ErrInvalidQuery, threshold)
	}
	return nil
}
