package rules_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/rules"
)

// BenchmarkOfflineTurn runs a whole turn on the demo conference with the
// builtin model and the hash embedder: plan, search, one reflection round
// (the question's abbreviation is rewritten), search again, answer.
func BenchmarkOfflineTurn(b *testing.B) {
	eng := demoEngine(b)
	a := agent.New(rules.New(), eng, agent.Options{})
	req := agent.Request{Message: "Are there sessions on RAG?", Conference: demo}
	var times []time.Duration
	for b.Loop() {
		t0 := time.Now()
		st, err := a.Run(context.Background(), req, nil)
		times = append(times, time.Since(t0))
		if err != nil || len(st.Reflections) != 1 || len(st.Citations) == 0 {
			b.Fatalf("turn: err %v, %d reflection rounds, %d citations", err, len(st.Reflections), len(st.Citations))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}
