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
	if err != nil {
		t.Fatal(err)
	}
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
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Trace-ID") == "" {
		t.Fatalf("status %d, trace id %q", resp.StatusCode, resp.Header.Get("X-Trace-ID"))
	}
	seq := names(events)
	for _, want := range []string{"progress", "thinking", "chunk", "answer done"} {
		if !strings.Contains(seq, want) {
			t.Fatalf("events %q lack %q", seq, want)
		}
	}
	if !strings.HasSuffix(seq, "chunk answer done") || strings.Index(seq, "thinking") > strings.Index(seq, "chunk") {
		t.Fatalf("events out of order: %s", seq)
	}
	var text strings.Builder
	for i, e := range events {
		if e.id != strconv.Itoa(i+1) {
			t.Fatalf("event %d has id %q", i+1, e.id)
		}
		if e.name == "chunk" {
			text.WriteString(e.data["text"].(string))
		}
		if e.name == "thinking" {
			for _, k := range []string{"message", "strategy", "retry_count", "ts"} {
				if _, ok := e.data[k]; !ok {
					t.Fatalf("thinking event lacks %s: %v", k, e.data)
				}
			}
		}
	}
	answer := events[len(events)-2].data
	if answer["text"] != text.String() || len(answer["citations"].([]any)) == 0 {
		t.Fatalf("answer %v does not equal the chunks %q", answer, text.String())
	}
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
	if len(off) == 0 || slices.ContainsFunc(off, func(s string) bool { return s != "mechanical" }) {
		t.Fatalf("reflection off: rounds decided by %v, want only the mechanical ladder", off)
	}
	if len(on) == 0 || slices.Contains(on, "mechanical") {
		t.Fatalf("reflection on: rounds decided by %v, want the model", on)
	}
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
	if plan == nil || plan["duration_ms"] == nil || len(calls) != 1 || calls[0].(map[string]any)["model"] != "builtin" {
		t.Fatalf("step_end for planning: %v", plan)
	}
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
		if resp.StatusCode != tc.code || !strings.Contains(string(body), tc.want) || strings.Count(string(body), "invalid request") > 1 {
			t.Errorf("%.40s…: %d %s; want %d %q", tc.body, resp.StatusCode, body, tc.code, tc.want)
		}
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
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code || resp.Header.Get("Allow") != tc.allow || !strings.Contains(string(body), tc.want) ||
			resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s %s: %d Allow %q %s; want %d Allow %q %q", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Allow"), body, tc.code, tc.allow, tc.want)
		}
	}
}

func TestAuth(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{APIToken: "s3cret"})
	body := `{"message":"k8s?","conference_id":"aidata26"}`
	if resp, _ := post(t, f.url+"/v1/chat/stream", "", body); resp.StatusCode != 401 {
		t.Fatalf("stream without token: %d", resp.StatusCode)
	}
	if resp, _ := post(t, f.url+"/v1/chat/stream", "wrong", body); resp.StatusCode != 401 {
		t.Fatalf("stream with a wrong token: %d", resp.StatusCode)
	}
	if resp, events := post(t, f.url+"/v1/chat/stream", "s3cret", body); resp.StatusCode != 200 || len(events) == 0 {
		t.Fatalf("stream with the token: %d", resp.StatusCode)
	}
	for _, token := range []string{"", "wrong"} {
		req, _ := http.NewRequest(http.MethodGet, f.url+"/v1/admin/prompts", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		if resp, _ := http.DefaultClient.Do(req); resp.StatusCode != 401 {
			t.Fatalf("admin with token %q: %d", token, resp.StatusCode)
		}
	}
	off := start(t, nil, chat.Options{}, server.Options{})
	resp, _ := http.Get(off.url + "/v1/admin/prompts")
	body2, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 404 || !strings.Contains(string(body2), "set API_TOKEN") {
		t.Fatalf("admin without API_TOKEN: %d %s", resp.StatusCode, body2)
	}
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
	deadline := time.Now().Add(5 * time.Second)
	for !queued(f) {
		if time.Now().After(deadline) {
			t.Fatal("the second request never waited in the queue")
		}
		time.Sleep(5 * time.Millisecond)
	}
	resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third request: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	close(m.release)
	for range 2 {
		if code := <-results; code != 200 {
			t.Fatalf("an accepted turn ended with %d", code)
		}
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
	if err != nil {
		t.Fatal(err)
	}
	f := start(t, router, chat.Options{}, server.Options{APIToken: "tok", Prompts: p, Models: router})
	cur, _ := p.Get(agent.StepPlan)
	edited := strings.Replace(cur.Value, "You plan searches for a conference assistant.", "You plan searches for a conference assistant. EDITED.", 1)
	b, _ := json.Marshal(map[string]string{"text": edited})
	req, _ := http.NewRequest(http.MethodPut, f.url+"/v1/admin/prompts/plan_queries", strings.NewReader(string(b)))
	req.Header.Set("Authorization", "Bearer tok")
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("PUT prompt: %v %d", err, resp.StatusCode)
	}
	bad, _ := http.NewRequest(http.MethodPut, f.url+"/v1/admin/prompts/plan_queries", strings.NewReader(`{"text":"{{define \"system\"}}x{{end}}"}`))
	bad.Header.Set("Authorization", "Bearer tok")
	if resp, _ := http.DefaultClient.Do(bad); resp.StatusCode != 422 {
		t.Fatalf("an invalid prompt got %d", resp.StatusCode)
	}
	post(t, f.url+"/v1/chat/stream", "tok", `{"message":"k8s?","conference_id":"aidata26"}`)
	plans := srv.plans()
	if len(plans) != 1 || !strings.Contains(plans[0], "EDITED.") {
		t.Fatalf("the next turn's plan prompt: %q", plans)
	}
}

func TestRateLimitPerClient(t *testing.T) {
	f := start(t, nil, chat.Options{}, server.Options{PerIP: server.Rate{PerSecond: 0.01, Burst: 2}})
	body := `{"message":"k8s?","conference_id":"aidata26"}`
	for i := range 2 {
		if resp, _ := post(t, f.url+"/v1/chat/stream", "", body); resp.StatusCode != 200 {
			t.Fatalf("request %d: %d", i+1, resp.StatusCode)
		}
	}
	resp, _ := post(t, f.url+"/v1/chat/stream", "", body)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("third request: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
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
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if resp := get("s3cret"); resp.StatusCode != 200 {
		t.Fatalf("the right token first: %d", resp.StatusCode)
	}
	for i := range 3 {
		if resp := get(fmt.Sprint("guess", i)); resp.StatusCode != 401 {
			t.Fatalf("wrong token %d: %d, want 401", i, resp.StatusCode)
		}
	}
	resp := get("s3cret")
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after 3 wrong tokens the right one got %d (Retry-After %q); want 429 while locked out", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if resp, _ := http.Get(f.url + "/healthz"); resp.StatusCode != 200 {
		t.Fatalf("healthz while locked out: %d", resp.StatusCode)
	}
}
