package memory_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/erleah/erleah-agent/memory"
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
			ls = append(ls, memory.Lesson{Conference: fmt.Sprint("c", c), Terms: terms, Tables: []string{"sessions"}, Importance: 0.5, Recovered: true})
		}
		if err := bank.Remember(ctx, ls); err != nil {
			b.Fatal(err)
		}
	}
	cue := memory.Cue{Terms: map[string]float64{"w3": 2, "w24": 1, "v3": 0.5}, Tables: []string{"sessions"}}
	for b.Loop() {
		if len(bank.Recall("c7", cue, 3)) == 0 {
			b.Fatal("nothing recalled")
		}
	}
}
