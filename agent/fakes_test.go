package agent_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// scripted is a hand-written model: each step replies from its list in
// order (the last reply repeats); errs makes a step fail.
type scripted struct {
	mu      sync.Mutex
	replies map[agent.Step][]string
	errs    map[agent.Step]error
	stream  bool
	calls   []agent.Call
}

func (m *scripted) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls = append(m.calls, call)
	if err := m.errs[call.Step]; err != nil {
		return agent.Completion{Model: "scripted"}, err
	}
	rs := m.replies[call.Step]
	if len(rs) == 0 {
		return agent.Completion{Model: "scripted"}, errors.New("no scripted reply")
	}
	text := rs[0]
	if len(rs) > 1 {
		m.replies[call.Step] = rs[1:]
	}
	if m.stream && call.Stream != nil {
		for _, part := range strings.SplitAfter(text, " ") {
			call.Stream(part)
		}
	}
	return agent.Completion{Text: text, Model: "scripted", Usage: agent.Usage{InputTokens: 10, OutputTokens: 5}}, nil
}

func (m *scripted) count(s agent.Step) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for _, c := range m.calls {
		if c.Step == s {
			n++
		}
	}
	return n
}

func (m *scripted) last(s agent.Step) agent.Call {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.calls) - 1; i >= 0; i-- {
		if m.calls[i].Step == s {
			return m.calls[i]
		}
	}
	return agent.Call{}
}

var cal = search.Calibration{FacetFloor: 0.1, Threshold: 0.2, Confident: 0.3, Relaxed: 0.12, Loosest: 0.08}

// fakeSearch answers from a function of the query and records every query.
type fakeSearch struct {
	mu      sync.Mutex
	lex     *search.Lexicon
	results func(search.Query) []search.Result
	fail    func(search.Query) error
	// meaning embeds texts for memory (none: Meaning fails, words only)
	meaning func(text string) []float32
	queries []search.Query
	// unmarked counts searches whose context does not say to try them
	// once (search.TryOnce): the agent retries them itself.
	unmarked int
}

func (f *fakeSearch) Search(ctx context.Context, conf string, q search.Query) ([]search.Result, error) {
	f.mu.Lock()
	f.queries = append(f.queries, q)
	if !search.TriesOnce(ctx) {
		f.unmarked++
	}
	f.mu.Unlock()
	if f.fail != nil {
		if err := f.fail(q); err != nil {
			return nil, err
		}
	}
	var out []search.Result
	for _, r := range f.results(q) {
		if q.Threshold == nil || r.Score >= *q.Threshold {
			out = append(out, r)
		}
	}
	return out, nil
}

func (f *fakeSearch) Calibration() search.Calibration { return cal }

// Meaning embeds with f.meaning, texts alike above 0.5; without it it
// fails, and reflection memory recalls by words alone.
func (f *fakeSearch) Meaning(_ context.Context, _ string, text string) (search.Meaning, error) {
	if f.meaning == nil {
		return search.Meaning{}, errors.New("fake search: no embedder")
	}
	return search.Meaning{Vector: f.meaning(text), Embedder: "fake", Alike: 0.5}, nil
}

func (f *fakeSearch) Calendar(string) when.Calendar { return when.Calendar{} }

// Items knows the first item of each table (s1, e1, p1).
func (f *fakeSearch) Items(_ string, refs []search.Ref) []search.Result {
	var out []search.Result
	for _, r := range refs {
		if r.ID == idFor(r.Table) {
			out = append(out, result(r.Table, r.ID, 1))
		}
	}
	return out
}

// Catalogue knows the first item of each table.
func (f *fakeSearch) Catalogue(_ string, tb search.Table) []search.Result {
	return []search.Result{result(tb, idFor(tb), 1)}
}

func (f *fakeSearch) Lexicon(id string) *search.Lexicon {
	if id == "c1" {
		return f.lex
	}
	return nil
}

// searched returns the non-probe queries (probes use threshold 0).
func (f *fakeSearch) searched() []search.Query {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []search.Query
	for _, q := range f.queries {
		if q.Threshold != nil && *q.Threshold > 0 {
			out = append(out, q)
		}
	}
	return out
}

func tinyLexicon(t *testing.T) *search.Lexicon {
	t.Helper()
	b, err := conference.Parse("tiny", []byte(`{"conferences":[{"id":"c1","name":"Tiny Conf"}],
	 "sessions":[{"id":"s1","conference_id":"c1","title":"Kubernetes for machine learning"}],
	 "exhibitors":[{"id":"e1","conference_id":"c1","name":"Harbour Hosting","description":"On-premises model serving."}],
	 "speakers":[{"id":"p1","conference_id":"c1","name":"Ada Lovelace"}]}`))
	require.NoError(t, err)
	return search.NewLexicon(b)
}

func result(tb search.Table, id string, score float32) search.Result {
	return search.Result{Item: search.Item{Ref: search.Ref{Conference: "c1", Table: tb, ID: id}, Title: "Item " + id}, Score: score, Coverage: 1}
}

// idFor names the first item of a table: s1, e1 or p1.
func idFor(tb search.Table) string {
	return map[search.Table]string{search.Sessions: "s1", search.Exhibitors: "e1", search.Speakers: "p1"}[tb]
}

// weakEverywhere returns one weak result (below the band) for every table.
func weakEverywhere(q search.Query) []search.Result {
	return []search.Result{result(q.Table, idFor(q.Table), 0.25)}
}

var conf1 = agent.Conference{ID: "c1", Name: "Tiny Conf"}

// fixedClock ticks one second per call.
func fixedClock() func() time.Time {
	var mu sync.Mutex
	t := time.Unix(1_738_000_000, 0)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Second)
		return t
	}
}

func run(t *testing.T, m agent.Model, s agent.Searcher, opts agent.Options, msg string) (*agent.State, []agent.Event) {
	t.Helper()
	var events []agent.Event
	if opts.Now == nil {
		opts.Now = fixedClock()
	}
	st, err := agent.New(m, s, opts).Run(context.Background(), agent.Request{TraceID: "t1", Message: msg, Conference: conf1}, func(e agent.Event) {
		events = append(events, e)
	})
	require.NoError(t, err, "Run")
	return st, events
}

const planSessions = `{"intent":"find sessions","queries":[{"table":"sessions","search_mode":"faceted","query_text":"k8s","limit":10}]}`
