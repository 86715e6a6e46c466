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
