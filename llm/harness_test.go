package llm_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"time"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/prompts"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

func engine(t *testing.T) *search.Engine {
	_, eng := searchtest.Demo(t)
	return eng
}

var demo = agent.Conference{ID: "aidata26", Name: "Applied AI & Data Infrastructure Summit 2026"}

// fastRetry keeps retry tests quick.
var fastRetry = llm.RetryPolicy{MaxAttempts: 3, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond}

type harness struct {
	prompts *prompts.Registry
	router  *llm.Router
	dir     string
}

// newHarness wires a router whose every step uses model, with registries
// persisted in dir ("" for a fresh temporary directory).
func newHarness(t *testing.T, model string, cfg llm.Config, dir string) *harness {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
	}
	if cfg.Retry == (llm.RetryPolicy{}) {
		cfg.Retry = fastRetry
	}
	p, warn, err := prompts.Open(dir + "/prompts.json")
	require.NoError(t, err)
	require.Empty(t, warn)
	spec, err := llm.ParseSpec(model)
	require.NoError(t, err)
	defaults := map[agent.Step]llm.Spec{}
	for _, s := range agent.ModelSteps {
		defaults[s] = spec
	}
	r, warn, err := llm.OpenRouter(dir+"/models.json", defaults, cfg, p, rules.New())
	require.NoError(t, err)
	require.Empty(t, warn)
	return &harness{prompts: p, router: r, dir: dir}
}

type turnResult struct {
	st     *agent.State
	events []agent.Event
	took   time.Duration
	err    error
}

func (h *harness) ask(t *testing.T, msg string, opts agent.Options, timeout time.Duration) turnResult {
	t.Helper()
	opts.Fallback = rules.New()
	a := agent.New(h.router, engine(t), opts)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var res turnResult
	var mu sync.Mutex
	start := time.Now()
	res.st, res.err = a.Run(ctx, agent.Request{TraceID: "t", Message: msg, Conference: demo}, func(e agent.Event) {
		mu.Lock()
		res.events = append(res.events, e)
		mu.Unlock()
	})
	res.took = time.Since(start)
	require.NoError(t, res.err, "Run")
	return res
}

// streamed returns the answer as an observer saw it: chunks after the last
// reset, and the final answer event.
func (r turnResult) streamed() (string, agent.Answer, int) {
	var b strings.Builder
	var ans agent.Answer
	resets := 0
	for _, e := range r.events {
		switch e := e.(type) {
		case agent.Chunk:
			b.WriteString(e.Text)
		case agent.Reset:
			b.Reset()
			resets++
		case agent.Answer:
			ans = e
		}
	}
	return b.String(), ans, resets
}

func (r turnResult) thinking() []agent.ThinkingRecord {
	var out []agent.ThinkingRecord
	for _, e := range r.events {
		if th, ok := e.(agent.Thinking); ok {
			out = append(out, th.Record)
		}
	}
	return out
}

const (
	planK8s   = `{"intent":"find kubernetes workshops","queries":[{"table":"sessions","search_mode":"faceted","query_text":"k8s","limit":10}]}`
	rewriteK8 = `{"reasoning":"k8s is jargon; the catalogue says Kubernetes","strategy":"rewrite","user_message":"This programme says Kubernetes rather than k8s, so I'm searching for that.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes","limit":10}]}`
	answerK8s = "The hands-on workshop fits best: Hands-on: Running Machine Learning Workloads on Kubernetes [sessions/s010]. Skip [sessions/s999]."
	goodEval  = `{"quality_score":0.9,"confidence_score":0.8,"issues":[],"improvement_hint":null}`
)
