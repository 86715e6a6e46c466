package search

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/conference"
)

// Stored is an Index that outlives the process (a server shared by the
// replicas) and keeps each entity's ContentHash, so that a load writes only
// the entities whose vectors changed, and drift can be checked.
type Stored interface {
	// Hashes returns the content hash of every stored entity of one
	// conference and table, by id.
	Hashes(ctx context.Context, conference string, table Table) (map[string]string, error)
}

// ErrNotStored is Drift on an index that keeps no content hashes (the
// in-memory one, rebuilt at each start).
var ErrNotStored = errors.New("the index keeps no content hashes (in memory, it is rebuilt at each start)")

// ContentHash identifies an entity's content: its master vector, then each
// facet's key and vector, in order (hex of a truncated SHA-256).
func (e *Entity) ContentHash() string {
	h := sha256.New()
	buf := make([]byte, 0, 4*len(e.Master))
	write := func(v []float32) {
		buf = AppendFloats(buf[:0], v)
		h.Write(buf)
	}
	write(e.Master)
	for _, f := range e.Facets {
		fmt.Fprintf(h, "%d:%s", len(f.Key), f.Key)
		write(f.Vector)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// ConferenceDrift is how the index differs from what a load of one
// conference would write: entities it lacks, holds with other content, or
// holds but the conference no longer has.
type ConferenceDrift struct {
	ID                      string
	Missing, Changed, Extra []Ref
}

// InSync reports whether the index holds exactly the conference.
func (d ConferenceDrift) InSync() bool {
	return len(d.Missing)+len(d.Changed)+len(d.Extra) == 0
}

// Drift compares what a Stored index holds of b's conferences with what
// loading b would write, without writing anything.
func (e *Engine) Drift(ctx context.Context, b *conference.Bundle) ([]ConferenceDrift, error) {
	st, ok := e.index.(Stored)
	if !ok {
		return nil, ErrNotStored
	}
	entities, err := e.embedDocuments(ctx, Documents(b))
	if err != nil {
		return nil, err
	}
	ids := b.ConferenceIDs()
	stored, err := storedHashes(ctx, st, ids)
	if err != nil {
		return nil, err
	}
	d := compare(stored, entities)
	out := make([]ConferenceDrift, len(ids))
	at := map[string]*ConferenceDrift{}
	for i, id := range ids {
		out[i].ID = id
		at[id] = &out[i]
	}
	for _, r := range d.missing {
		at[r.Conference].Missing = append(at[r.Conference].Missing, r)
	}
	for _, r := range d.changed {
		at[r.Conference].Changed = append(at[r.Conference].Changed, r)
	}
	for _, r := range d.extra {
		at[r.Conference].Extra = append(at[r.Conference].Extra, r)
	}
	return out, nil
}

// delta is how an index differs from the entities a load writes.
type delta struct {
	write                   []Entity       // the missing and changed entities
	missing, changed, extra []Ref          // extra: held but not among the entities, sorted
	unchanged               map[string]int // per conference
}

// compare sets the entities against the content hashes an index holds
// (stored, which it empties).
func compare(stored map[Ref]string, entities []Entity) delta {
	d := delta{unchanged: map[string]int{}}
	for i := range entities {
		ent := &entities[i]
		switch h, ok := stored[ent.Ref]; {
		case !ok:
			d.missing = append(d.missing, ent.Ref)
			d.write = append(d.write, *ent)
		case h != ent.ContentHash():
			d.changed = append(d.changed, ent.Ref)
			d.write = append(d.write, *ent)
		default:
			d.unchanged[ent.Conference]++
		}
		delete(stored, ent.Ref)
	}
	for r := range stored {
		d.extra = append(d.extra, r)
	}
	slices.SortFunc(d.extra, func(a, b Ref) int { return strings.Compare(a.Key(), b.Key()) })
	return d
}

// loadDelta is what a load of entities into the index writes and deletes:
// in a Stored index (unless force) only what differs, listed once with
// its hashes; otherwise every entity, and whatever else the index lists.
func (e *Engine) loadDelta(ctx context.Context, conferences []string, entities []Entity, force bool) (delta, error) {
	if st, ok := e.index.(Stored); ok && !force {
		stored, err := storedHashes(ctx, st, conferences)
		if err != nil {
			return delta{}, err
		}
		return compare(stored, entities), nil
	}
	keep := make(map[Ref]bool, len(entities))
	for _, ent := range entities {
		keep[ent.Ref] = true
	}
	d := delta{write: entities}
	for _, c := range conferences {
		for _, t := range Tables {
			refs, err := e.index.Refs(ctx, c, t)
			if err != nil {
				return delta{}, fmt.Errorf("search: list %s of %s: %w", t, c, err)
			}
			for _, r := range refs {
				if !keep[r] {
					d.extra = append(d.extra, r)
				}
			}
		}
	}
	return d, nil
}

// storedHashes reads the content hashes of every entity of the conferences.
func storedHashes(ctx context.Context, st Stored, conferences []string) (map[Ref]string, error) {
	out := map[Ref]string{}
	for _, c := range conferences {
		for _, t := range Tables {
			hs, err := st.Hashes(ctx, c, t)
			if err != nil {
				return nil, fmt.Errorf("search: stored hashes of %s in %s: %w", t, c, err)
			}
			for id, h := range hs {
				out[Ref{Conference: c, Table: t, ID: id}] = h
			}
		}
	}
	return out, nil
}
