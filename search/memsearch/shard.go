package memsearch

import (
	"github.com/erleah/erleah-agent/search"
)

// shard holds the entities of one conference and table. Row r of masters is
// masters[r*dim:(r+1)*dim]; an entity's facets are consecutive facet rows.
type shard struct {
	dim   int
	table search.Table
	total float32 // search.TotalWeight(table) plus the weight of each extra facet key seen

	ents []entity
	byID map[string]int // id → index in ents (live entities only)

	masters []float32
	facets  []float32
	weights []float32 // weight of each facet row
	keys    []uint16  // index in names, per facet row
	names   []string  // the facet keys this shard has seen
	nameIdx map[string]uint16

	liveFacets int
	deadRows   int // master and facet rows no live entity uses

	quantAbove        int      // rows from which a matrix gets an int8 copy
	qmasters, qfacets *qmatrix // int8 copies of masters and facets, nil below quantAbove
}

type entity struct {
	id       string
	master   int // master row
	facetOff int // first facet row
	facetN   int
	live     bool
}

func newShard(dim int, t search.Table, quantAbove int) *shard {
	return &shard{dim: dim, table: t, total: search.TotalWeight(t), byID: map[string]int{}, nameIdx: map[string]uint16{}, quantAbove: quantAbove}
}

// upsert replaces or appends entities, growing storage once for the batch.
func (s *shard) upsert(ents []*search.Entity) {
	need := 0
	for _, e := range ents {
		need += len(e.Facets)
	}
	s.masters = grow(s.masters, len(ents)*s.dim)
	s.facets = grow(s.facets, need*s.dim)
	for _, e := range ents {
		s.remove(e.ID)
		s.append(e)
	}
	s.maybeCompact()
	s.qmasters = s.syncQuant(s.qmasters, s.masters)
	s.qfacets = s.syncQuant(s.qfacets, s.facets)
}

// syncQuant brings a matrix's int8 copy up to date with its float rows
// (rows are only ever appended between compactions), or drops it below the
// size that needs one.
func (s *shard) syncQuant(q *qmatrix, m []float32) *qmatrix {
	if len(m)/s.dim < max(s.quantAbove, 1) {
		return nil
	}
	if q == nil {
		q = &qmatrix{}
	}
	q.appendRows(m[len(q.scales)*s.dim:], s.dim)
	return q
}

// grow makes room for n more values with a sixteenth of headroom, so bulk
// loads do not double the memory as append would.
func grow(v []float32, n int) []float32 {
	if cap(v)-len(v) >= n {
		return v
	}
	out := make([]float32, len(v), len(v)+n+(len(v)+n)/16)
	copy(out, v)
	return out
}

func (s *shard) append(e *search.Entity) {
	ent := entity{id: e.ID, master: len(s.masters) / s.dim, facetOff: len(s.facets) / s.dim, facetN: len(e.Facets), live: true}
	s.masters = append(s.masters, e.Master...)
	for _, f := range e.Facets {
		s.facets = append(s.facets, f.Vector...)
		s.weights = append(s.weights, search.FacetWeight(s.table, f.Key))
		s.keys = append(s.keys, s.keyIndex(f.Key))
	}
	s.byID[e.ID] = len(s.ents)
	s.ents = append(s.ents, ent)
	s.liveFacets += ent.facetN
}

// keyIndex numbers a facet key within the shard; a key outside the table's
// schema seen for the first time adds its weight to the coverage
// denominator, so entities of bundles with their own facet names are scored
// on the same footing.
func (s *shard) keyIndex(key string) uint16 {
	if i, ok := s.nameIdx[key]; ok {
		return i
	}
	i := uint16(len(s.names))
	s.names = append(s.names, key)
	s.nameIdx[key] = i
	if !search.KnownFacet(s.table, key) {
		s.total += search.FacetWeight(s.table, key)
	}
	return i
}

// remove marks an entity's rows dead.
func (s *shard) remove(id string) {
	i, ok := s.byID[id]
	if !ok {
		return
	}
	delete(s.byID, id)
	s.ents[i].live = false
	s.liveFacets -= s.ents[i].facetN
	s.deadRows += 1 + s.ents[i].facetN
}

// maybeCompact rewrites the shard without dead rows once they exceed an
// eighth of all rows.
func (s *shard) maybeCompact() {
	rows := len(s.masters)/s.dim + len(s.facets)/s.dim
	if s.deadRows == 0 || s.deadRows*8 < rows {
		return
	}
	live := len(s.byID)
	old := *s
	s.ents = make([]entity, 0, live)
	s.byID = make(map[string]int, live)
	s.masters = make([]float32, 0, live*s.dim)
	s.facets = make([]float32, 0, s.liveFacets*s.dim)
	s.weights = make([]float32, 0, s.liveFacets)
	s.keys = make([]uint16, 0, s.liveFacets)
	s.liveFacets, s.deadRows = 0, 0
	s.qmasters, s.qfacets = nil, nil
	for _, e := range old.ents {
		if e.live {
			s.copyFrom(&old, e)
		}
	}
	s.renumberKeys()
}

// renumberKeys numbers again the facet keys live entities use, and with
// them the coverage denominator, so a key no entity has any more (a reload
// dropped it) stops counting, and counts again if it comes back.
func (s *shard) renumberKeys() {
	old := s.names
	s.names, s.nameIdx, s.total = nil, map[string]uint16{}, search.TotalWeight(s.table)
	for i, k := range s.keys {
		s.keys[i] = s.keyIndex(old[k])
	}
}

func (s *shard) copyFrom(old *shard, e entity) {
	d := s.dim
	ne := entity{id: e.id, master: len(s.masters) / d, facetOff: len(s.facets) / d, facetN: e.facetN, live: true}
	s.masters = append(s.masters, old.masters[e.master*d:(e.master+1)*d]...)
	s.facets = append(s.facets, old.facets[e.facetOff*d:(e.facetOff+e.facetN)*d]...)
	s.weights = append(s.weights, old.weights[e.facetOff:e.facetOff+e.facetN]...)
	s.keys = append(s.keys, old.keys[e.facetOff:e.facetOff+e.facetN]...)
	s.byID[e.id] = len(s.ents)
	s.ents = append(s.ents, ne)
	s.liveFacets += e.facetN
}
