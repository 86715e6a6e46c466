package memory_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
)

// BenchmarkRecall looks up a failure among a full conference (200 lessons)
// of a bank holding 20 conferences.
func BenchmarkRecall(b *testing.B) {
	ctx := context.Background()
	bank, _ := memory.Open(ctx, nil, memory.Options{})
	for c := range 20 {
		var ls []memory.Lesson
		for i := range 200 {
			terms := map[string]float64{fmt.Sprint("w", i%50): 2, fmt.Sprint("w", (i*7+3)%50): 1, fmt.Sprint("v", i%13): 0.5}
			ls = append(ls, memory.Lesson{Conference: fmt.Sprint("c", c), Terms: terms, Tables: []string{"sessions"}, Importance: 0.5, Recovered: true,
				Vector: unitVector(c*200+i, 512), Embedder: "hash"})
		}
		if err := bank.Remember(ctx, ls); err != nil {
			b.Fatal(err)
		}
	}
	cue := memory.Cue{Terms: map[string]float64{"w3": 2, "w24": 1, "v3": 0.5}, Tables: []string{"sessions"},
		Vector: unitVector(-1, 512), Embedder: "hash", Alike: 0.3}
	for b.Loop() {
		if len(bank.Recall("c7", cue, 3)) == 0 {
			b.Fatal("nothing recalled")
		}
	}
}

// unitVector is a deterministic pseudo-random unit vector of dimension dim.
func unitVector(seed, dim int) []float32 {
	r := rand.New(rand.NewPCG(uint64(seed), 7))
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	search.Normalise(v)
	return v
}

// BenchmarkFileWrite is what a turn's lessons cost the file backend when
// it holds 20 conferences of 200 lessons with 512-dimension vectors: one
// lesson stored (a turn's learning, or a lesson's use counted).
func BenchmarkFileWrite(b *testing.B) {
	ctx := context.Background()
	f := memory.NewFile(b.TempDir() + "/reflections.json")
	var all []memory.Lesson
	for c := range 20 {
		for i := range 200 {
			all = append(all, memory.Lesson{ID: fmt.Sprint(c, "-", i), Conference: fmt.Sprint("c", c), Terms: map[string]float64{fmt.Sprint("w", i): 1},
				Tables: []string{"sessions"}, Importance: 0.5, Vector: unitVector(c*200+i, 512), Embedder: "hash"})
		}
	}
	if err := f.Put(ctx, all); err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		l := all[i%len(all)]
		l.Uses = i
		if err := f.Put(ctx, []memory.Lesson{l}); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
