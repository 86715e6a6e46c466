package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/metrics"
	"github.com/erleah/erleah-agent/prompts"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
	"github.com/erleah/erleah-agent/server"
)

func demo(t *testing.T) (*conference.Bundle, *search.Engine) { return searchtest.Demo(t) }

func confs(b *conference.Bundle) func(string) (agent.Conference, bool) {
	return func(id string) (agent.Conference, bool) {
		c, ok := b.Conference(id)
		return agent.Conference{ID: c.ID, Name: c.Name}, ok
	}
}

type fixture struct {
	url     string
	svc     *chat.Service
	prompts *prompts.Registry
}

// start serves the API over a chat service whose agent uses model (the
// builtin rules when nil).
func start(t *testing.T, model agent.Model, svcOpts chat.Options, opts server.Options) fixture {
	t.Helper()
	b, e := demo(t)
	if model == nil {
		model = rules.New()
	}
	a := agent.New(model, e, agent.Options{Fallback: rules.New(), Acknowledge: true})
	m := metrics.New()
	svcOpts.Metrics, opts.Metrics = m, m
	svc := chat.New(a, confs(b), svcOpts)
	p, _, _ := prompts.Open("")
	if opts.Prompts == nil {
		opts.Prompts = p
	}
	opts.Turns, opts.Traces = svc, svc.Traces()
	ts := httptest.NewServer(server.New(opts))
	t.Cleanup(ts.Close)
	return fixture{url: ts.URL, svc: svc, prompts: p}
}

type event struct {
	id, name string
	data     map[string]any
}

// post sends a request and, for event streams, reads every event.
func post(t *testing.T, url, token, body string) (*http.Response, []event) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		data, _ := io.ReadAll(resp.Body)
		resp.Body = io.NopCloser(strings.NewReader(string(data)))
		return resp, nil
	}
	var events []event
	var cur event
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "id: "):
			cur.id = line[4:]
		case strings.HasPrefix(line, "event: "):
			cur.name = line[7:]
		case strings.HasPrefix(line, "data: "):
			json.Unmarshal([]byte(line[6:]), &cur.data)
		case line == "" && cur.name != "":
			events = append(events, cur)
			cur = event{}
		}
	}
	return resp, events
}

func names(events []event) string {
	var out []string
	last := ""
	for _, e := range events {
		if e.name != last { // collapse runs of chunks and progress
			out = append(out, e.name)
		}
		last = e.name
	}
	return strings.Join(out, " ")
}

func TestStreamSendsATurnWithAReflectionRound(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{})
	resp, events := post(t, f.url+"/v1/chat/stream", "", `{"message":"Are there sessions on RAG?","conference_id":"aidata26"}`)
	require.Equal(t, http.StatusOK, resp.StatusCode, "status")
	require.NotEmpty(t, resp.Header.Get("X-Trace-ID"), "trace id")
	seq := names(events)
	for _, want := range []string{"progress", "thinking", "chunk", "answer done"} {
		require.Contains(t, seq, want, "events %q lack %q", seq, want)
	}
	require.True(t, strings.HasSuffix(seq, "chunk answer done"), "events out of order: %s", seq)
	require.LessOrEqual(t, strings.Index(seq, "thinking"), strings.Index(seq, "chunk"), "events out of order: %s", seq)
	var text strings.Builder
	for i, e := range events {
		require.Equal(t, strconv.Itoa(i+1), e.id, "event %d id", i+1)
		if e.name == "chunk" {
			text.WriteString(e.data["text"].(string))
		}
		if e.name == "thinking" {
			for _, k := range []string{"message", "strategy", "retry_count", "ts"} {
				require.Contains(t, e.data, k, "thinking event lacks %s: %v", k, e.data)
			}
		}
	}
	answer := events[len(events)-2].data
	assert.Equal(t, text.String(), answer["text"], "answer %v does not equal the chunks", answer)
	assert.NotEmpty(t, answer["citations"].([]any), "answer %v has no citations", answer)
}

// TestReflectionCanBeTurnedOffPerRequest: an operator's A/B request runs
// the mechanical ladder, another in the same service reflects.
func TestReflectionCanBeTurnedOffPerRequest(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{})
	sources := func(mode string) []string {
		_, events := post(t, f.url+"/v1/chat/stream", "", `{"message":"Are there sessions on RAG?","conference_id":"aidata26","reflection":"`+mode+`"}`)
		var out []string
		for _, e := range events {
			if s, _ := e.data["strategy"].(string); e.name == "thinking" && s != "acknowledgment" {
				out = append(out, e.data["source"].(string))
			}
		}
		return out
	}
	off, on := sources("off"), sources("on")
	assert.NotEmpty(t, off, "reflection off: no rounds")
	assert.False(t, slices.ContainsFunc(off, func(s string) bool { return s != "mechanical" }), "reflection off: rounds decided by %v, want only the mechanical ladder", off)
	assert.NotEmpty(t, on, "reflection on: no rounds")
	assert.NotContains(t, on, "mechanical", "reflection on: rounds decided by %v, want the model", on)
}

func TestDebugEventsCarryStepsAndModels(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{DebugEvents: true})
	_, events := post(t, f.url+"/v1/chat/stream", "", `{"message":"Are there sessions on RAG?","conference_id":"aidata26"}`)
	var plan map[string]any
	for _, e := range events {
		if e.name == "step_end" && e.data["step"] == "plan_queries" {
			plan = e.data
		}
	}
	calls, _ := plan["calls"].([]any)
	require.NotNil(t, plan, "no step_end for planning")
	assert.NotNil(t, plan["duration_ms"], "step_end for planning: %v", plan)
	require.Len(t, calls, 1, "step_end for planning: %v", plan)
	assert.Equal(t, "builtin", calls[0].(map[string]any)["model"], "step_end for planning: %v", plan)
}

func TestBadRequestsAreRefusedBeforeTheStream(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{MaxBody: 1024})
	cases := []struct {
		body string
		code int
		want string
	}{
		{`{"message":"hi","conference_id":"nope"}`, 400, `unknown conference \"nope\"`},
		{`{"message":"  ","conference_id":"aidata26"}`, 400, "the question is empty"},
		{`{"message":"` + strings.Repeat("a", 900) + `","conference_id":"aidata26","extra":1}`, 400, "unknown field"},
		{`{"message":"` + strings.Repeat("a", 2000) + `","conference_id":"aidata26"}`, 413, "larger than 1024 bytes"},
		{`{"message": `, 400, "malformed JSON"},
		{`{"message":"what's next?","conference_id":"aidata26","now":"tomorrow"}`, 400, "now"},
		{`{"message":"rag","conference_id":"aidata26","reflection":"maybe"}`, 400, `want \"on\" or \"off\"`},
	}
	for _, tc := range cases {
		resp, _ := post(t, f.url+"/v1/chat/stream", "", tc.body)
		body, _ := io.ReadAll(resp.Body)
		assert.Equal(t, tc.code, resp.StatusCode, "%.40s…: %s", tc.body, body)
		assert.Contains(t, string(body), tc.want, "%.40s…", tc.body)
		assert.LessOrEqual(t, strings.Count(string(body), "invalid request"), 1, "%.40s…: %s", tc.body, body)
	}
}

func TestUnknownRoutesAndWrongMethods(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{APIToken: "s3cret"})
	cases := []struct {
		method, path string
		code         int
		allow, want  string
	}{
		{"GET", "/v1/chat/stream", 405, "POST", "use POST"},
		{"DELETE", "/healthz", 405, "GET", "DELETE is not allowed"},
		{"DELETE", "/v1/admin/prompts/plan_queries", 405, "GET, PUT", "use GET or PUT"},
		{"GET", "/v1/nothing", 404, "", "no such route: GET /v1/nothing"},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, f.url+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, tc.code, resp.StatusCode, "%s %s: %s", tc.method, tc.path, body)
		assert.Equal(t, tc.allow, resp.Header.Get("Allow"), "%s %s: Allow", tc.method, tc.path)
		assert.Contains(t, string(body), tc.want, "%s %s", tc.method, tc.path)
		assert.Equal(t, "application/json", resp.Header.Get("Content-Type"), "%s %s: Content-Type", tc.method, tc.path)
	}
}

func TestAuth(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{APIToken: "s3cret"})
	body := `{"message":"k8s?","conference_id":"aidata26"}`
	resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
	assert.Equal(t, 401, resp.StatusCode, "stream without token")
	resp, _ = post(t, f.url+"/v1/chat/stream", "wrong", body)
	assert.Equal(t, 401, resp.StatusCode, "stream with a wrong token")
	resp, events := post(t, f.url+"/v1/chat/stream", "s3cret", body)
	assert.Equal(t, 200, resp.StatusCode, "stream with the token")
	assert.NotEmpty(t, events, "stream with the token: no events")
	for _, token := range []string{"", "wrong"} {
		req, _ := http.NewRequest(http.MethodGet, f.url+"/v1/admin/prompts", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, _ := http.DefaultClient.Do(req)
		assert.Equal(t, 401, resp.StatusCode, "admin with token %q", token)
	}
	off := start(t, nil, chat.Options{}, server.Options{})
	resp, _ = http.Get(off.url + "/v1/admin/prompts")
	body2, _ := io.ReadAll(resp.Body)
	assert.Equal(t, 404, resp.StatusCode, "admin without API_TOKEN: %s", body2)
	assert.Contains(t, string(body2), "set API_TOKEN", "admin without API_TOKEN")
}

// blocking answers plans only when released.
type blocking struct {
	release chan struct{}
	entered chan struct{}
}

func (b *blocking) Complete(ctx context.Context, call agent.Call) (agent.Completion, error) {
	if call.Step == agent.StepPlan {
		b.entered <- struct{}{}
		select {
		case <-b.release:
		case <-ctx.Done():
			return agent.Completion{}, ctx.Err()
		}
	}
	return rules.New().Complete(ctx, call)
}

func TestOverloadIsRefusedWithRetryAfter(t *testing.T) {
	m := &blocking{release: make(chan struct{}), entered: make(chan struct{}, 4)}
	f := start(t, m, chat.Options{MaxTurns: 1, QueueSize: 1}, server.Options{})
	body := `{"message":"k8s?","conference_id":"aidata26"}`
	results := make(chan int, 2)
	for range 2 { // one runs, one waits in the queue
		go func() {
			resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
			results <- resp.StatusCode
		}()
	}
	<-m.entered
	require.Eventually(t, func() bool { return queued(f) }, 5*time.Second, 5*time.Millisecond,
		"the second request never waited in the queue")
	resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
	require.Equal(t, http.StatusServiceUnavailable, resp.StatusCode, "third request")
	require.NotEmpty(t, resp.Header.Get("Retry-After"), "third request: Retry-After")
	close(m.release)
	for range 2 {
		require.Equal(t, 200, <-results, "an accepted turn ended badly")
	}
}

func queued(f fixture) bool {
	resp, err := http.Get(f.url + "/metrics")
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.Contains(string(b), "erleah_turn_queue_depth 1")
}

func TestPromptReplacedThroughAdminIsUsedNextTurn(t *testing.T) {
	p, _, _ := prompts.Open("")
	srv := llmtestServer(t)
	router, _, err := llm.OpenRouter("", map[agent.Step]llm.Spec{agent.StepPlan: {Provider: llm.Anthropic, Model: "claude-t"}},
		llm.Config{AnthropicKey: "k", AnthropicBaseURL: srv.URL + "/v1"}, p, rules.New())
	require.NoError(t, err)
	f := start(t, router, chat.Options{}, server.Options{APIToken: "tok", Prompts: p, Models: router})
	cur, _ := p.Get(agent.StepPlan)
	edited := strings.Replace(cur.Value, "You plan searches for a conference assistant.", "You plan searches for a conference assistant. EDITED.", 1)
	b, _ := json.Marshal(map[string]string{"text": edited})
	req, _ := http.NewRequest(http.MethodPut, f.url+"/v1/admin/prompts/plan_queries", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err, "PUT prompt")
	require.Equal(t, 200, resp.StatusCode, "PUT prompt")
	bad, _ := http.NewRequest(http.MethodPut, f.url+"/v1/admin/prompts/plan_queries", strings.NewReader(`{"text":"{{define \"system\"}}x{{end}}"}`))
	bad.Header.Set("Authorization", "Bearer tok")
	resp, _ = http.DefaultClient.Do(bad)
	require.Equal(t, 422, resp.StatusCode, "an invalid prompt")
	post(t, f.url+"/v1/chat/stream", "tok", `{"message":"k8s?","conference_id":"aidata26"}`)
	plans := srv.plans()
	require.Len(t, plans, 1, "the next turn's plan prompt: %q", plans)
	assert.Contains(t, plans[0], "EDITED.", "the next turn's plan prompt")
}

func TestRateLimitPerClient(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{PerIP: server.Rate{PerSecond: 0.01, Burst: 2}})
	body := `{"message":"k8s?","conference_id":"aidata26"}`
	for i := range 2 {
		resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
		require.Equal(t, 200, resp.StatusCode, "request %d", i+1)
	}
	resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
	assert.Equal(t, 429, resp.StatusCode, "third request")
	assert.NotEmpty(t, resp.Header.Get("Retry-After"), "third request: Retry-After")
}

// TestWrongTokensLockTheAddressOut: after the allowed wrong tokens an
// address gets 429 with Retry-After, even with the right token, until a
// try is earned back; other routes are not affected.
func TestWrongTokensLockTheAddressOut(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{APIToken: "s3cret", BadTokens: server.Rate{PerSecond: 0.001, Burst: 3}})
	get := func(token string) *http.Response {
		req, _ := http.NewRequest(http.MethodGet, f.url+"/v1/admin/prompts", nil)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		return resp
	}
	require.Equal(t, 200, get("s3cret").StatusCode, "the right token first")
	for i := range 3 {
		require.Equal(t, 401, get(fmt.Sprint("guess", i)).StatusCode, "wrong token %d", i)
	}
	resp := get("s3cret")
	assert.Equal(t, 429, resp.StatusCode, "after 3 wrong tokens the right one: want 429 while locked out")
	assert.NotEmpty(t, resp.Header.Get("Retry-After"), "after 3 wrong tokens the right one: want Retry-After while locked out")
	resp, _ = http.Get(f.url + "/healthz")
	assert.Equal(t, 200, resp.StatusCode, "healthz while locked out")
}
