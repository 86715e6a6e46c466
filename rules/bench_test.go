package rules_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/eval"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// BenchmarkOfflineTurn runs a whole turn on the demo conference with the
// builtin model and the hash embedder: plan, search, one reflection round
// (the question's abbreviation is rewritten), search again, answer.
func BenchmarkOfflineTurn(b *testing.B) {
	eng := demoEngine(b)
	a := agent.New(rules.New(), eng, agent.Options{})
	req := agent.Request{Message: "Are there sessions on RAG?", Conference: demo}
	p50Turns(b, a, req, func(st *agent.State) bool { return len(st.Reflections) == 1 && len(st.Citations) > 0 })
}

// p50Turns runs a turn per iteration, fails when check says a turn is not
// the one measured, and reports the p50 turn time.
func p50Turns(b *testing.B, a *agent.Agent, req agent.Request, check func(*agent.State) bool) {
	b.Helper()
	var times []time.Duration
	for b.Loop() {
		lexical.ForgetNeeds() // each turn reads its question afresh, as a new question would be
		t0 := time.Now()
		st, err := a.Run(context.Background(), req, nil)
		times = append(times, time.Since(t0))
		if err != nil || !check(st) {
			b.Fatalf("turn: err %v, %d reflection rounds, %d citations", err, len(st.Reflections), len(st.Citations))
		}
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkOfflineTurnWithMemory is BenchmarkOfflineTurn with reflection
// memory on and full (the conference's cap of 200 lessons). "unrelated":
// lessons made of the conference's words that match nothing this question
// does, so the turn is the same and the difference from
// BenchmarkOfflineTurn is the lookups alone (the issue allows 1 ms).
// "learnt": 62 lessons from the demo cases first, which this turn uses.
func BenchmarkOfflineTurnWithMemory(b *testing.B) {
	eng := demoEngine(b)
	for _, learnt := range []bool{false, true} {
		name := map[bool]string{false: "unrelated", true: "learnt"}[learnt]
		b.Run(name, func(b *testing.B) {
			bank := fullBank(b, eng, learnt)
			a := agent.New(rules.New(), eng, agent.Options{Memory: bank})
			req := agent.Request{Message: "Are there sessions on RAG?", Conference: demo}
			p50Turns(b, a, req, func(st *agent.State) bool { return len(st.Citations) > 0 && (learnt || len(st.Reflections) == 1) })
		})
	}
}

// fullBank is a memory holding 200 lessons of the demo conference: with
// learnt, first those the demo cases teach.
func fullBank(b *testing.B, eng *search.Engine, learnt bool) *memory.Bank {
	ctx := context.Background()
	bank, _ := memory.Open(ctx, nil, memory.Options{})
	if learnt {
		cases, err := eval.DemoCases()
		require.NoError(b, err)
		r := &eval.Runner{Conference: func(string) (agent.Conference, bool) { return demo, true }, Calendar: eng.Calendar, Bank: bank,
			Agents: map[eval.Mode]*agent.Agent{eval.Reflection: agent.New(rules.New(), eng, agent.Options{Memory: bank})}}
		_, err = r.Run(ctx, cases)
		require.NoError(b, err)
	}
	words := strings.Fields("graph privacy streaming vector inference training agents governance robotics edge audio vision " +
		"labelling lineage catalog quality cost scheduling serving tuning security testing feature search ranking")
	var filler []memory.Lesson
	for i := len(bank.List("aidata26")); i < 200; i++ {
		terms := map[string]float64{words[i%len(words)]: 2, words[(i*7+3)%len(words)]: 1}
		m, err := eng.Meaning(ctx, "aidata26", words[i%len(words)]+" "+words[(i*7+3)%len(words)])
		require.NoError(b, err)
		filler = append(filler, memory.Lesson{Conference: "aidata26", Terms: terms, Vector: m.Vector, Embedder: m.Embedder,
			Tables: []string{"sessions"}, Strategy: "rewrite", Recovered: i%2 == 0, Importance: 0.5,
			Queries: []search.Query{{Table: search.Sessions, Text: words[i%len(words)]}}})
	}
	require.NoError(b, bank.Remember(ctx, filler))
	return bank
}

// BenchmarkOfflineTurnRealProgramme runs whole turns on the real FOSSASIA
// Summit 2017 programme (214 sessions, 184 speakers; read from beside the
// checkout, skipped without it) for a short question, a typo, a long
// chatty question and two time questions, one told beside a story.
// realProgramme is the search engine over the FOSSASIA Summit 2017
// programme, read from beside the checkout; the test is skipped without it.
func realProgramme(tb testing.TB) (*search.Engine, agent.Conference) {
	tb.Helper()
	set, err := eval.SetNamed("realconf")
	require.NoError(tb, err)
	bundle, err := set.Bundle("")
	if err != nil {
		tb.Skipf("real programme not found: %v", err)
	}
	return searchtest.Engine(tb, bundle), agent.Conference{ID: "fossasia-summit-2017", Name: "FOSSASIA Summit 2017"}
}

func BenchmarkOfflineTurnRealProgramme(b *testing.B) {
	eng, conf := realProgramme(b)
	a := agent.New(rules.New(), eng, agent.Options{})
	now := time.Date(2017, 3, 18, 10, 0, 0, 0, time.UTC)
	for _, msg := range []string{
		"any talks about kubernetes?",
		"elastic serch and kibanna dashboards",
		"Hi! I teach physics and maths at a secondary school and I'd really like to know which sessions would give me free software or hands-on projects I could bring into my classroom to get the kids more engaged. Thanks!",
		"any workshops this afternoon about databases?",
		"Just back from lunch and the coffee is wearing off. Anything on databases this afternoon?",
	} {
		b.Run(strings.Fields(msg)[0]+"…", func(b *testing.B) {
			var times []time.Duration
			for b.Loop() {
				lexical.ForgetNeeds()
				t0 := time.Now()
				if _, err := a.Run(context.Background(), agent.Request{Message: msg, Conference: conf, Now: now}, nil); err != nil {
					b.Fatal(err)
				}
				times = append(times, time.Since(t0))
			}
			slices.Sort(times)
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
		})
	}
}
