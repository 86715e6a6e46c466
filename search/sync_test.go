package search_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/hashembed"
	"github.com/erleah/erleah-agent/search/memsearch"
)

// storedIndex is memsearch keeping content hashes, as an index that
// outlives the process does, and counting the entities written.
type storedIndex struct {
	*memsearch.Index
	mu      sync.Mutex
	hashes  map[search.Ref]string
	written int
}

func (x *storedIndex) Upsert(ctx context.Context, es []search.Entity) error {
	if err := x.Index.Upsert(ctx, es); err != nil {
		return err
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	for i := range es {
		x.hashes[es[i].Ref] = es[i].ContentHash()
	}
	x.written += len(es)
	return nil
}

func (x *storedIndex) Delete(ctx context.Context, refs []search.Ref) error {
	x.mu.Lock()
	for _, r := range refs {
		delete(x.hashes, r)
	}
	x.mu.Unlock()
	return x.Index.Delete(ctx, refs)
}

func (x *storedIndex) Hashes(_ context.Context, conference string, table search.Table) (map[string]string, error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	out := map[string]string{}
	for r, h := range x.hashes {
		if r.Conference == conference && r.Table == table {
			out[r.ID] = h
		}
	}
	return out, nil
}

// A load into a Stored index writes only what changed; Drift reports what
// a load would change, per conference; Rebuild writes everything.
func TestLoadWritesOnlyWhatChanged(t *testing.T) {
	ctx := context.Background()
	emb := hashembed.New(0)
	idx := &storedIndex{Index: memsearch.New(emb.Dim()), hashes: map[search.Ref]string{}}
	eng, err := search.NewEngine(emb, idx)
	require.NoError(t, err)
	b := tinyBundle(t)
	total := len(search.Documents(b))
	_, err = eng.Load(ctx, b)
	require.NoError(t, err)
	require.Equal(t, total, idx.written, "the first load writes every entity")

	drift, err := eng.Drift(ctx, b)
	require.NoError(t, err)
	for _, d := range drift {
		assert.True(t, d.InSync(), "drift right after a load: %+v", d)
	}
	rep, err := eng.Load(ctx, b)
	require.NoError(t, err)
	assert.Equal(t, total, idx.written, "loading the same bundle again writes nothing")
	unchanged := 0
	for _, c := range rep.Conferences {
		unchanged += c.Unchanged
	}
	assert.Equal(t, total, unchanged, "the report counts every entity unchanged: %+v", rep)

	edited := *b
	edited.Sessions = slices.Clone(b.Sessions)
	edited.Sessions[0].Description += " Now with a hands-on lab."
	gone := edited.Sessions[1].ID
	edited.Sessions = slices.Delete(edited.Sessions, 1, 2)
	edited.Speakers = dropTalk(b.Speakers, gone)
	drift, err = eng.Drift(ctx, &edited)
	require.NoError(t, err)
	c1 := drift[slices.IndexFunc(drift, func(d search.ConferenceDrift) bool { return d.ID == edited.Sessions[0].ConferenceID })]
	assert.Equal(t, []search.Ref{{Conference: c1.ID, Table: search.Sessions, ID: edited.Sessions[0].ID}}, c1.Changed, "changed")
	assert.Equal(t, []search.Ref{{Conference: c1.ID, Table: search.Sessions, ID: gone}}, c1.Extra, "extra")
	assert.Empty(t, c1.Missing, "missing")
	assert.Equal(t, total, idx.written, "Drift writes nothing")

	_, err = eng.Load(ctx, &edited)
	require.NoError(t, err)
	assert.Equal(t, total+1, idx.written, "a load after one edit writes the one edited entity")
	drift, err = eng.Drift(ctx, &edited)
	require.NoError(t, err)
	for _, d := range drift {
		assert.True(t, d.InSync(), "drift after loading the edit: %+v", d)
	}
	_, err = eng.Rebuild(ctx, &edited)
	require.NoError(t, err)
	assert.Equal(t, total+1+total-1, idx.written, "Rebuild writes every entity")
}

// dropTalk removes a session from the speakers' talks.
func dropTalk(speakers []conference.Speaker, session string) []conference.Speaker {
	out := slices.Clone(speakers)
	for i := range out {
		out[i].SessionIDs = slices.DeleteFunc(slices.Clone(out[i].SessionIDs), func(s string) bool { return s == session })
	}
	return out
}

func TestDriftNeedsAStoredIndex(t *testing.T) {
	_, err := newEngine(t).Drift(context.Background(), tinyBundle(t))
	assert.ErrorIs(t, err, search.ErrNotStored)
}
