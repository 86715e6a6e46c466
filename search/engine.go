package search

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/when"
)

// Query is one planned search in text form, as plans and reflection
// decisions carry it.
type Query struct {
	Table Table  `json:"table"`
	Mode  Mode   `json:"search_mode"`
	Text  string `json:"query_text"`
	Limit int    `json:"limit"`
	// Threshold overrides the default threshold (Levels.Threshold) when set.
	Threshold *float32 `json:"score_threshold,omitempty"`
	// Filter, when set, keeps only the sessions (and the speakers of the
	// sessions) that meet its time, room, track and format constraints.
	Filter *when.Filter `json:"filter,omitempty"`
}

// Result is one hit with what the catalogue knows about the entity.
// Score is the hybrid score (see LexicalShare); Coverage the share of the
// query's word weight the entity contains.
type Result struct {
	Item
	Score    float32      `json:"score"`
	Coverage float64      `json:"coverage"`
	Matched  []FacetMatch `json:"matched_facets,omitempty"`
}

// Engine runs text queries: it embeds conference documents into an Index,
// embeds query texts with the same Embedder and attaches catalogue items to
// hits. It is safe for concurrent use; Load may run while searches do.
type Engine struct {
	embedder Embedder
	index    Index

	mu    sync.RWMutex
	items map[Ref]*Item
	confs map[string]*loaded
	off   Ablation
}

// loaded is what the engine built for one conference at its last Load.
type loaded struct {
	lex    *Lexicon
	levels map[tableMode]levels
	alike  float32 // see Meaning
	sched  *schedule
}

// Ablate turns techniques off for measuring what each adds; call it
// before Load.
func (e *Engine) Ablate(off Ablation) { e.off = off }

// Ready reports whether the index can answer: an index kept in another
// server (Weaviate) says whether that server is up; one in memory always can.
func (e *Engine) Ready(ctx context.Context) error {
	if r, ok := e.index.(interface{ Ready(context.Context) error }); ok {
		return r.Ready(ctx)
	}
	return nil
}

// NewEngine returns an engine over an embedder and an index of the same
// dimension.
func NewEngine(e Embedder, idx Index) (*Engine, error) {
	if e.Dim() != idx.Dim() {
		return nil, fmt.Errorf("search: embedder %s has dimension %d, index %d: %w", e.Name(), e.Dim(), idx.Dim(), ErrDimension)
	}
	return &Engine{embedder: e, index: idx, items: map[Ref]*Item{}, confs: map[string]*loaded{}}, nil
}

// Calibration returns the score levels of the hybrid scale, with the
// embedder's facet floor.
func (e *Engine) Calibration() Calibration {
	c := Levels
	c.FacetFloor = e.embedder.Calibration().FacetFloor
	return c
}

// Load indexes every conference of b, replacing what the engine held for
// those conferences: entities no longer in b are deleted. The report says
// what was indexed and where the facets came from.
func (e *Engine) Load(ctx context.Context, b *conference.Bundle) (LoadReport, error) {
	return e.load(ctx, b, false)
}

// Rebuild is Load writing every entity, even those a Stored index already
// holds with the same content: it repairs what Drift reports.
func (e *Engine) Rebuild(ctx context.Context, b *conference.Bundle) (LoadReport, error) {
	return e.load(ctx, b, true)
}

func (e *Engine) load(ctx context.Context, b *conference.Bundle, force bool) (LoadReport, error) {
	docs := Documents(b)
	entities, err := e.embedDocuments(ctx, docs)
	if err != nil {
		return LoadReport{}, err
	}
	d, err := e.loadDelta(ctx, b.ConferenceIDs(), entities, force)
	if err != nil {
		return LoadReport{}, err
	}
	if err := e.index.Upsert(ctx, d.write); err != nil {
		return LoadReport{}, fmt.Errorf("search: index %d entities: %w", len(d.write), err)
	}
	if err := e.dropStale(ctx, d.extra); err != nil {
		return LoadReport{}, err
	}
	byConf := map[string][]Document{}
	for _, d := range docs {
		byConf[d.Conference] = append(byConf[d.Conference], d)
	}
	confs := map[string]*loaded{}
	talks := speakerSessions(b)
	for _, c := range b.Conferences { // built before locking: searches go on meanwhile
		l := &loaded{lex: lexiconOf(byConf[c.ID], e.off), sched: scheduleOf(c, byConf[c.ID], talks)}
		if l.levels, l.alike, err = e.calibrate(ctx, byConf[c.ID], l.lex); err != nil {
			return LoadReport{}, err
		}
		confs[c.ID] = l
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	maps.Copy(e.confs, confs)
	for i := range docs {
		e.items[docs[i].Ref] = &docs[i].Item
	}
	rep := report(b.ConferenceIDs(), docs)
	for i := range rep.Conferences {
		rep.Conferences[i].Unchanged = d.unchanged[rep.Conferences[i].ID]
	}
	return rep, nil
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

// dropStale deletes entities the conferences no longer have.
func (e *Engine) dropStale(ctx context.Context, stale []Ref) error {
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
	return slices.Sorted(maps.Keys(e.confs))
}

// conf is what the engine holds for a conference, nil when unknown.
func (e *Engine) conf(id string) *loaded {
	e.mu.RLock()
	defer e.mu.RUnlock()
	return e.confs[id]
}

// Calendar describes a loaded conference's days, rooms and tracks for
// reading time and place in questions; the zero Calendar when unknown.
func (e *Engine) Calendar(conference string) when.Calendar {
	if c := e.conf(conference); c != nil {
		return c.sched.cal
	}
	return when.Calendar{}
}

// Lexicon returns the vocabulary of a loaded conference, or nil.
func (e *Engine) Lexicon(conference string) *Lexicon {
	if c := e.conf(conference); c != nil {
		return c.lex
	}
	return nil
}

// Items returns the catalogue items of refs in a conference, in the order
// asked, as results that match fully; unknown refs are left out.
func (e *Engine) Items(conference string, refs []Ref) []Result {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []Result
	for _, r := range refs {
		r.Conference = conference
		if item, ok := e.items[r]; ok {
			out = append(out, Result{Item: *item, Score: 1, Coverage: 1})
		}
	}
	return out
}

// Catalogue returns every item of table tb in a conference, by title, as
// results that match fully.
func (e *Engine) Catalogue(conference string, tb Table) []Result {
	e.mu.RLock()
	defer e.mu.RUnlock()
	var out []Result
	for r, item := range e.items {
		if r.Conference == conference && r.Table == tb {
			out = append(out, Result{Item: *item, Score: 1, Coverage: 1})
		}
	}
	slices.SortFunc(out, func(a, b Result) int {
		return cmp.Or(cmp.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title)), cmp.Compare(a.ID, b.ID))
	})
	return out
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

// Search runs one text query against a conference: the query is read
// against the conference's text (topic, stems, corrections), ranked
// lexically and by vector, and the two are fused on the hybrid scale.
// Results scoring at least the query's threshold come back best first with
// their catalogue items.
func (e *Engine) Search(ctx context.Context, conference string, q Query) ([]Result, error) {
	q = e.Resolve(q)
	if err := q.validate(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	c := e.conf(conference)
	if c == nil {
		return []Result{}, nil // nothing is loaded for it: it has nothing
	}
	a := c.lex.Analyze(q.Text)
	allowed := c.sched.allowed(q.Table, q.Filter)
	switch {
	case allowed != nil && len(allowed) == 0:
		return []Result{}, nil
	case allowed != nil && len(a.Concepts) == 0:
		return e.listed(conference, q, allowed, c.sched), nil // the filter is the whole question
	}
	vec, err := e.embedQuestion(ctx, a, q.Text)
	if err != nil {
		return nil, err
	}
	vq := VectorQuery{
		Conference: conference, Table: q.Table, Mode: q.Mode, Vector: vec,
		Limit: min(max(q.Limit, candidates), MaxLimit), FacetFloor: e.Calibration().FacetFloor, IDs: ids(allowed),
	}
	if err := vq.Validate(); err != nil {
		return nil, fmt.Errorf("search: %w", err)
	}
	hits, err := e.index.Search(ctx, vq)
	if err != nil {
		return nil, fmt.Errorf("search: %s %s in %s: %w", q.Mode, q.Table, conference, err)
	}
	return e.hybrid(conference, q, hits, c, a, allowed), nil
}

func ids(set map[string]bool) []string {
	if set == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(set))
}

// listed answers a question that is only a filter ("any workshops on day
// 2?"): every entity the filter keeps matches it fully, sessions in the
// order they start.
func (e *Engine) listed(conference string, q Query, allowed map[string]bool, s *schedule) []Result {
	keys := ids(allowed)
	slices.SortStableFunc(keys, func(a, b string) int { return s.start(a).Compare(s.start(b)) })
	refs := make([]Ref, 0, min(len(keys), q.Limit))
	for _, id := range keys[:min(len(keys), q.Limit)] {
		refs = append(refs, Ref{Table: q.Table, ID: id})
	}
	return e.Items(conference, refs)
}

// validate checks a resolved query before any early answer (a filter that
// keeps nothing must not hide a bad query); its vector form is wider (more
// candidates, no threshold), so checking that alone would not do.
func (q Query) validate() error { return checkQuery(q.Table, q.Mode, q.Limit, *q.Threshold) }

// hybrid fuses vector hits with the lexical ranking and keeps what reaches
// the query's threshold, at most its limit.
func (e *Engine) hybrid(conference string, q Query, hits []Hit, c *loaded, a lexical.Analysis, allowed map[string]bool) []Result {
	var matches []lexical.Match
	var keep func(string) bool
	if allowed != nil {
		keep = func(key string) bool { return allowed[refOf(conference, key).ID] }
	}
	if !e.off.Off("lexical") {
		matches = c.lex.corpus.Rank(string(q.Table), a, keep)
	}
	ranked := scored(fuse(hits, matches, conference), e.levelsOf(c, q.Table, q.Mode), e.off.Off("lexical"))
	e.mu.RLock()
	defer e.mu.RUnlock()
	out := make([]Result, 0, q.Limit)
	for _, h := range ranked {
		if len(out) == q.Limit || h.score < *q.Threshold || h.score <= 0 {
			break
		}
		item, ok := e.items[h.ref]
		if !ok {
			item = &Item{Ref: h.ref, Title: h.ref.ID}
		}
		out = append(out, Result{Item: *item, Score: h.score, Coverage: h.coverage, Matched: h.facets})
	}
	return out
}

func (e *Engine) levelsOf(c *loaded, tb Table, m Mode) levels {
	if lv, ok := c.levels[tableMode{tb, m}]; ok {
		return lv
	}
	return e.ownLevels()
}

// ownLevels are the embedder's own levels, for tables too small to
// calibrate (or with calibration turned off).
func (e *Engine) ownLevels() levels {
	own := e.embedder.Calibration()
	return levels{bg: own.Threshold, pos: own.Confident}
}

// Meaning is a text embedded for comparing it with other texts of one
// conference (recalling a lesson learnt on a similar question, say):
// Vector by Embedder, and Alike, the cosine above which two of the
// conference's texts are more alike than texts that share no word (0 when
// the conference is too small to measure it).
type Meaning struct {
	Vector   []float32
	Embedder string
	Alike    float32
}

// Meaning embeds text as a question of the conference is embedded for
// search (its topic, corrections applied).
func (e *Engine) Meaning(ctx context.Context, conference, text string) (Meaning, error) {
	c := e.conf(conference)
	if c == nil {
		return Meaning{}, fmt.Errorf("search: no conference %q is loaded", conference)
	}
	vec, err := e.embedQuestion(ctx, c.lex.Analyze(text), text)
	if err != nil {
		return Meaning{}, err
	}
	return Meaning{Vector: vec, Embedder: e.embedder.Name(), Alike: c.alike}, nil
}

// embedQuestion embeds a question as the conference reads it (a: its
// topic, corrections applied), or as written when that leaves nothing.
func (e *Engine) embedQuestion(ctx context.Context, a lexical.Analysis, raw string) ([]float32, error) {
	text := a.Text()
	if strings.TrimSpace(text) == "" {
		text = raw
	}
	vecs, err := e.embedder.Embed(ctx, []string{text})
	if err != nil {
		return nil, fmt.Errorf("search: embed query: %w", err)
	}
	return vecs[0], nil
}
