package search

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"

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
		buf = buf[:0]
		for _, x := range v {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(x))
		}
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
	docs := Documents(b)
	entities, err := e.embedDocuments(ctx, docs)
	if err != nil {
		return nil, err
	}
	stored, err := storedHashes(ctx, st, b.ConferenceIDs())
	if err != nil {
		return nil, err
	}
	byConf := map[string]*ConferenceDrift{}
	var out []ConferenceDrift
	for _, id := range b.ConferenceIDs() {
		out = append(out, ConferenceDrift{ID: id})
	}
	for i := range out {
		byConf[out[i].ID] = &out[i]
	}
	for i := range entities {
		ent := &entities[i]
		d := byConf[ent.Conference]
		switch h, ok := stored[ent.Ref]; {
		case !ok:
			d.Missing = append(d.Missing, ent.Ref)
		case h != ent.ContentHash():
			d.Changed = append(d.Changed, ent.Ref)
		}
		delete(stored, ent.Ref)
	}
	for r := range stored {
		byConf[r.Conference].Extra = append(byConf[r.Conference].Extra, r)
	}
	for i := range out {
		slices.SortFunc(out[i].Extra, compareRefs)
	}
	return out, nil
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

// changedOnly keeps the entities a Stored index does not already hold with
// the same content, and counts the others per conference; with any other
// index, or when force is set, it keeps them all.
func (e *Engine) changedOnly(ctx context.Context, conferences []string, entities []Entity, force bool) ([]Entity, map[string]int, error) {
	st, ok := e.index.(Stored)
	if !ok || force {
		return entities, nil, nil
	}
	stored, err := storedHashes(ctx, st, conferences)
	if err != nil {
		return nil, nil, err
	}
	same := map[string]int{}
	out := entities[:0:0]
	for _, ent := range entities {
		if h, ok := stored[ent.Ref]; ok && h == ent.ContentHash() {
			same[ent.Conference]++
			continue
		}
		out = append(out, ent)
	}
	return out, same, nil
}

func compareRefs(a, b Ref) int {
	return cmp.Or(cmp.Compare(a.Table, b.Table), cmp.Compare(a.ID, b.ID))
}
