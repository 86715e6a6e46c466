package memory_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/memory"
)

func lesson(conf, text string, terms map[string]float64, importance float64) memory.Lesson {
	return memory.Lesson{Conference: conf, Text: text, Terms: terms, Failure: "unknown_terms", Tables: []string{"sessions"},
		Strategy: "rewrite", Recovered: true, Importance: importance}
}

func TestRecallFindsSimilarFailuresOfTheSameConference(t *testing.T) {
	ctx := context.Background()
	b, err := memory.Open(ctx, nil, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mlops := lesson("c1", "mlops talks", map[string]float64{"mlop": 3, "talk": 0.5}, 1)
	gpu := lesson("c1", "gpu sharing", map[string]float64{"gpu": 2, "share": 1}, 1)
	other := lesson("c2", "mlops talks", map[string]float64{"mlop": 3, "talk": 0.5}, 1)
	if err := b.Remember(ctx, []memory.Lesson{mlops, gpu, other}); err != nil {
		t.Fatal(err)
	}
	got := b.Recall("c1", memory.Cue{Terms: map[string]float64{"mlop": 3, "team": 1}, Tables: []string{"sessions"}, Failure: "unknown_terms"}, 3)
	if len(got) != 1 || got[0].Text != "mlops talks" || got[0].Conference != "c1" || got[0].Similarity < memory.MinSimilarity {
		t.Fatalf("recalled %+v, want the c1 mlops lesson only", got)
	}
	if got := b.Recall("c1", memory.Cue{Terms: map[string]float64{"sauna": 4}}, 3); len(got) != 0 {
		t.Fatalf("an unrelated failure recalled %+v", got)
	}
	if err := b.Remember(ctx, []memory.Lesson{{Conference: "c1"}}); !errors.Is(err, memory.ErrInvalid) {
		t.Fatalf("a lesson without terms: %v", err)
	}
}

func TestMemoryIsBoundedPersistedAndCleared(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "reflections.json")
	now := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	opts := memory.Options{PerConference: 2, HalfLife: 24 * time.Hour, Now: func() time.Time { return now }}
	b, err := memory.Open(ctx, memory.NewFile(path), opts)
	if err != nil {
		t.Fatal(err)
	}
	old := lesson("c1", "old", map[string]float64{"old": 1}, 1)
	old.At = now.Add(-72 * time.Hour) // three half-lives: worth 1/8
	weak := lesson("c1", "weak", map[string]float64{"weak": 1}, 0.2)
	strong := lesson("c1", "strong", map[string]float64{"strong": 1}, 0.9)
	if err := b.Remember(ctx, []memory.Lesson{old, weak, strong}); err != nil {
		t.Fatal(err)
	}
	texts := func(ls []memory.Lesson) map[string]bool {
		out := map[string]bool{}
		for _, l := range ls {
			out[l.Text] = true
		}
		return out
	}
	if got := texts(b.List("c1")); len(got) != 2 || !got["strong"] || !got["weak"] {
		t.Fatalf("kept %v, want the two most valuable (strong, weak; old has decayed)", got)
	}
	reopened, err := memory.Open(ctx, memory.NewFile(path), opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(reopened.List("")); len(got) != 2 || !got["strong"] {
		t.Fatalf("after reopening: %v", got)
	}
	if n, err := reopened.Clear(ctx, "c1"); err != nil || n != 2 {
		t.Fatalf("clear: %d, %v", n, err)
	}
	again, _ := memory.Open(ctx, memory.NewFile(path), opts)
	if n := len(again.List("")); n != 0 {
		t.Fatalf("%d lessons after clearing", n)
	}
}

func TestUnhelpfulLessonsLoseValue(t *testing.T) {
	ctx := context.Background()
	b, _ := memory.Open(ctx, nil, memory.Options{PerConference: 1})
	a := lesson("c1", "a", map[string]float64{"a": 1}, 0.5)
	if err := b.Remember(ctx, []memory.Lesson{a}); err != nil {
		t.Fatal(err)
	}
	id := b.List("c1")[0].ID
	for range 3 {
		_ = b.Used(ctx, []string{id}, false)
	}
	// a is now worth 0.5/4; a new lesson of importance 0.3 replaces it.
	_ = b.Remember(ctx, []memory.Lesson{lesson("c1", "b", map[string]float64{"b": 1}, 0.3)})
	if ls := b.List("c1"); len(ls) != 1 || ls[0].Text != "b" || ls[0].Uses != 0 {
		t.Fatalf("kept %+v, want the new lesson over the unhelpful one", ls)
	}
}
