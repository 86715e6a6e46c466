package search

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/erleah/erleah-agent/conference"
)

// Query is one planned search in text form, as plans and reflection
// decisions carry it.
type Query struct {
	Table Table  `json:"table"`
	Mode  Mode   `json:"search_mode"`
	Text  string `json:"query_text"`
	Limit int    `json:"limit"`
	// Threshold overrides the embedder's default threshold when set.
	Threshold *float32 `json:"score_threshold,omitempty"`
}

// Result is one hit with what the catalogue knows about the entity.
type Result struct {
	Item
	Score   float32      `json:"score"`
	Matched []FacetMatch `json:"matched_facets,omitempty"`
}

// Engine runs text queries: it embeds conference documents into an Index,
// embeds query texts with the same Embedder and attaches catalogue items to
// hits. It is safe for concurrent use; Load may run while searches do.
type Engine struct {
	embedder Embedder
	index    Index

	mu       sync.RWMutex
	items    map[Ref]*Item
	lexicons map[string]*Lexicon
}

// NewEngine returns an engine over an embedder and an index of the same
// dimension.
func NewEngine(e Embedder, idx Index) (*Engine, error) {
	if e.Dim() != idx.Dim() {
		return nil, fmt.Errorf("search: embedder %s has dimension %d, index %d: %w", e.Name(), e.Dim(), idx.Dim(), ErrDimension)
	}
	return &Engine{embedder: e, index: idx, items: map[Ref]*Item{}, lexicons: map[string]*Lexicon{}}, nil
}

// Calibration returns the score levels of the engine's embedder.
func (e *Engine) Calibration() Calibration { return e.embedder.Calibration() }

// Load indexes every conference of b, replacing what the engine held for
// those conferences: entities no longer in b are deleted.
func (e *Engine) Load(ctx context.Context, b *conference.Bundle) error {
	docs := Documents(b)
	entities, err := e.embedDocuments(ctx, docs)
	if err != nil {
		return err
	}
	if err := e.index.Upsert(ctx, entities); err != nil {
		return fmt.Errorf("search: index %d entities: %w", len(entities), err)
	}
	if err := e.dropStale(ctx, b.ConferenceIDs(), docs); err != nil {
		return err
	}
	byConf := map[string][]Document{}
	for _, d := range docs {
		byConf[d.Conference] = append(byConf[d.Conference], d)
	}
	lexicons := map[string]*Lexicon{}
	for _, id := range b.ConferenceIDs() { // built before locking: searches go on meanwhile
		lexicons[id] = lexiconOf(byConf[id])
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	maps.Copy(e.lexicons, lexicons)
	for i := range docs {
		e.items[docs[i].Ref] = &docs[i].Item
	}
	return nil
}

// embedDocuments embeds each document's master text and facet texts in one
// batch per document group.
func (e *Engine) embedDocuments(ctx context.Context, docs []Document) ([]Entity, error) {
	var texts []string
	for _, d := range docs {
		texts = append(texts, d.MasterText)
		for _, f := range d.Facets {
			texts = append(texts, f.Text)
		}
	}
	vecs, err := e.embedder.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("search: embed %d texts with %s: %w", len(texts), e.embedder.Name(), err)
	}
	entities := make([]Entity, len(docs))
	next := 0
	for i, d := range docs {
		ent := Entity{Ref: d.Ref, Master: vecs[next]}
		next++
		for _, f := range d.Facets {
			ent.Facets = append(ent.Facets, FacetVector{Key: f.Key, Vector: vecs[next]})
			next++
		}
		entities[i] = ent
	}
	return entities, nil
}

func (e *Engine) dropStale(ctx context.Context, conferences []string, docs []Document) error {
	keep := make(map[Ref]bool, len(docs))
	for _, d := range docs {
		keep[d.Ref] = true
	}
	var stale []Ref
	for _, c := range conferences {
		for _, t := range Tables {
			refs, err := e.index.Refs(ctx, c, t)
			if err != nil {
				return fmt.Errorf("search: list %s of %s: %w", t, c, err)
			}
			for _, r := range refs {
				if !keep[r] {
					stale = append(stale, r)
				}
			}
		}
	}
	if len(stale) == 0 {
		return nil
	}
	if err := e.index.Delete(ctx, stale); err != nil {
		return fmt.Errorf("search: delete %d stale entities: %w", len(stale), err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, r := range stale {
		delete(e.items, r)
	}
	return nil
}

// Conferences lists the ids of loaded conferences, sorted.
func (e *Engine) Conferences() []string {
	e.mu.RLock()
	defer e.mu.RUnlock()
	ids := make([]string, 0, len(e.lexicons))
	for id := range e.lexicons {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Lexicon returns the vocabulary of a loaded conference, or nil.
func (e *Engine) Lexicon(conference string) *Lexicon {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.lexicons[conference]
}

// Resolve fills a query's defaults: DefaultLimit for a zero limit and the
// embedder's threshold when none is set.
func (e *Engine) Resolve(q Query) Query {
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Threshold == nil {
		t := e.Calibration().Threshold
		q.Threshold = &t
	}
	return q
}

// Search runs one text query against a conference. Hits come back best
// first with their catalogue items.
func (e *Engine) Search(ctx context.Context, conference string, q Query) ([]Result, error) {
	q = e.Resolve(q)
	vecs, err := e.embedder.Embed(ctx, []string{q.Text})
	if err != nil {
		return nil, fmt.Errorf("search: embed query: %w", err)
	}
	vq := VectorQuery{
		Conference: conference, Table: q.Table, Mode: q.Mode, Vector: vecs[0],
		Limit: q.Limit, Threshold: *q.Threshold, FacetFloor: e.Calibration().FacetFloor,
	}
	if err := vq.Validate(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	hits, err := e.index.Search(ctx, vq)
	if err != nil {
		return nil, fmt.Errorf("search: %s %s in %s: %w", q.Mode, q.Table, conference, err)
	}
	return e.results(hits), nil
}

func (e *Engine) results(hits []Hit) []Result {
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]Result, 0, len(hits))
	for _, h := range hits {
		item, ok := e.items[h.Ref]
		if !ok {
			item = &Item{Ref: h.Ref, Title: h.ID}
		}
		out = append(out, Result{Item: *item, Score: h.Score, Matched: h.Facets})
	}
	return out
}
