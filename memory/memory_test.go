package memory_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/memory"
)

func lesson(conf, text string, terms map[string]float64, importance float64) memory.Lesson {
	return memory.Lesson{Conference: conf, Text: text, Terms: terms, Failure: "unknown_terms", Tables: []string{"sessions"},
		Strategy: "rewrite", Recovered: true, Importance: importance}
}

func TestRecallFindsSimilarFailuresOfTheSameConference(t *testing.T) {
	ctx := context.Background()
	b, err := memory.Open(ctx, nil, memory.Options{})
	require.NoError(t, err)
	mlops := lesson("c1", "mlops talks", map[string]float64{"mlop": 3, "talk": 0.5}, 1)
	gpu := lesson("c1", "gpu sharing", map[string]float64{"gpu": 2, "share": 1}, 1)
	other := lesson("c2", "mlops talks", map[string]float64{"mlop": 3, "talk": 0.5}, 1)
	require.NoError(t, b.Remember(ctx, []memory.Lesson{mlops, gpu, other}))
	got := b.Recall("c1", memory.Cue{Terms: map[string]float64{"mlop": 3, "team": 1}, Tables: []string{"sessions"}, Failure: "unknown_terms"}, 3)
	require.Len(t, got, 1, "recalled %+v, want the c1 mlops lesson only", got)
	assert.Equal(t, "mlops talks", got[0].Text, "recalled %+v, want the c1 mlops lesson only", got)
	assert.Equal(t, "c1", got[0].Conference, "recalled %+v, want the c1 mlops lesson only", got)
	assert.GreaterOrEqual(t, got[0].Similarity, memory.MinSimilarity, "recalled %+v, want the c1 mlops lesson only", got)
	assert.Empty(t, b.Recall("c1", memory.Cue{Terms: map[string]float64{"sauna": 4}}, 3), "an unrelated failure recalled something")
	assert.ErrorIs(t, b.Remember(ctx, []memory.Lesson{{Conference: "c1"}}), memory.ErrInvalid, "a lesson without terms")
}

// A failure worded without one word of a lesson's is recalled when both
// texts were embedded by the same embedder and their cosine is above the
// conference's alike level; not below it, and not across embedders.
func TestRecallByMeaning(t *testing.T) {
	ctx := context.Background()
	b, err := memory.Open(ctx, nil, memory.Options{})
	require.NoError(t, err)
	k8s := lesson("c1", "k8s autoscaling", map[string]float64{"k8": 3, "autosc": 2}, 1)
	k8s.Vector, k8s.Embedder = []float32{1, 0, 0}, "e1"
	require.NoError(t, b.Remember(ctx, []memory.Lesson{k8s}))
	cue := func(v []float32, embedder string, alike float64) memory.Cue {
		return memory.Cue{Terms: map[string]float64{"kube": 2, "scale": 1}, Tables: []string{"sessions"}, Failure: "unknown_terms",
			Vector: v, Embedder: embedder, Alike: alike}
	}
	near := []float32{0.8, 0.6, 0} // cosine 0.8
	got := b.Recall("c1", cue(near, "e1", 0.5), 3)
	require.Len(t, got, 1, "a close meaning was not recalled")
	assert.InDelta(t, 0.9*(0.5+0.5*0.6)+0.1, got[0].Similarity, 1e-6, "similarity: 0.9 × meaning (0.8 is 60 %% of the way from alike 0.5 to 1) + both tags")
	assert.Empty(t, b.Recall("c1", cue(near, "e1", 0.85), 3), "recalled below the alike level")
	assert.Empty(t, b.Recall("c1", cue(near, "e2", 0.5), 3), "recalled across embedders")
	assert.Empty(t, b.Recall("c1", cue(near, "e1", 0), 3), "recalled with no alike level measured")
	assert.Empty(t, b.Recall("c1", cue(nil, "", 0), 3), "recalled by words it does not share")
}

func TestMemoryIsBoundedPersistedAndCleared(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "reflections.json")
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	opts := memory.Options{PerConference: 2, HalfLife: 24 * time.Hour, Now: func() time.Time { return now }}
	b, err := memory.Open(ctx, memory.NewFile(path), opts)
	require.NoError(t, err)
	old := lesson("c1", "old", map[string]float64{"old": 1}, 1)
	old.At = now.Add(-72 * time.Hour) // three half-lives: worth 1/8
	weak := lesson("c1", "weak", map[string]float64{"weak": 1}, 0.2)
	strong := lesson("c1", "strong", map[string]float64{"strong": 1}, 0.9)
	require.NoError(t, b.Remember(ctx, []memory.Lesson{old, weak, strong}))
	texts := func(ls []memory.Lesson) map[string]bool {
		out := map[string]bool{}
		for _, l := range ls {
			out[l.Text] = true
		}
		return out
	}
	got := texts(b.List("c1"))
	require.Len(t, got, 2, "kept %v, want the two most valuable (strong, weak; old has decayed)", got)
	require.True(t, got["strong"], "kept %v, want the two most valuable (strong, weak; old has decayed)", got)
	require.True(t, got["weak"], "kept %v, want the two most valuable (strong, weak; old has decayed)", got)
	reopened, err := memory.Open(ctx, memory.NewFile(path), opts)
	require.NoError(t, err)
	got = texts(reopened.List(""))
	require.Len(t, got, 2, "after reopening: %v", got)
	require.True(t, got["strong"], "after reopening: %v", got)
	n, err := reopened.Clear(ctx, "c1")
	require.NoError(t, err, "clear")
	require.Equal(t, 2, n, "clear")
	again, _ := memory.Open(ctx, memory.NewFile(path), opts)
	assert.Empty(t, again.List(""), "lessons after clearing")
}

func TestUnhelpfulLessonsLoseValue(t *testing.T) {
	ctx := context.Background()
	b, _ := memory.Open(ctx, nil, memory.Options{PerConference: 1})
	a := lesson("c1", "a", map[string]float64{"a": 1}, 0.5)
	require.NoError(t, b.Remember(ctx, []memory.Lesson{a}))
	id := b.List("c1")[0].ID
	for range 3 {
		_ = b.Used(ctx, []string{id}, false)
	}
	// a is now worth 0.5/4; a new lesson of importance 0.3 replaces it.
	_ = b.Remember(ctx, []memory.Lesson{lesson("c1", "b", map[string]float64{"b": 1}, 0.3)})
	ls := b.List("c1")
	require.Len(t, ls, 1, "kept %+v, want the new lesson over the unhelpful one", ls)
	assert.Equal(t, "b", ls[0].Text, "kept %+v, want the new lesson over the unhelpful one", ls)
	assert.Zero(t, ls[0].Uses, "kept %+v, want the new lesson over the unhelpful one", ls)
}

// A lesson's vector survives the file backend exactly, kept as base64;
// a list of numbers is read too, and anything else is refused.
func TestVectorsAreKeptCompactly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "reflections.json")
	b, err := memory.Open(ctx, memory.NewFile(path), memory.Options{})
	require.NoError(t, err)
	l := lesson("c1", "k8s", map[string]float64{"k8": 1}, 1)
	l.Vector, l.Embedder = memory.Vector{0.25, -1, 3.5e-7}, "hash"
	require.NoError(t, b.Remember(ctx, []memory.Lesson{l}))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"vector":"AACAPgAAgL+i57s0"`, "the vector is not base64 float32: %s", raw)
	again, err := memory.Open(ctx, memory.NewFile(path), memory.Options{})
	require.NoError(t, err)
	require.Len(t, again.List("c1"), 1)
	assert.Equal(t, l.Vector, again.List("c1")[0].Vector)

	var v memory.Vector
	require.NoError(t, json.Unmarshal([]byte(`[0.5, 1]`), &v))
	assert.Equal(t, memory.Vector{0.5, 1}, v)
	assert.Error(t, json.Unmarshal([]byte(`"AAA"`), &v), "3 bytes are no float32 values")
	assert.Error(t, json.Unmarshal([]byte(`{"x": 1}`), &v))
}
