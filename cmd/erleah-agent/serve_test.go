package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// serveForTest runs `serve` in-process and returns its address and a stop
// function that plays SIGTERM and returns the exit code.
func serveForTest(t testing.TB, env map[string]string) (string, func() int) {
	t.Helper()
	env["LISTEN_ADDR"] = "127.0.0.1:0"
	if env["STATE_DIR"] == "" {
		env["STATE_DIR"] = t.TempDir()
	}
	addr := make(chan string, 1)
	onListen = func(a string) { addr <- a }
	t.Cleanup(func() { onListen = nil })
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	var logs syncBuffer
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve's log:\n%s", logs.String())
		}
	})
	go func() { done <- run(ctx, []string{"serve"}, io.Discard, &logs, env) }()
	select {
	case a := <-addr:
		return "http://" + a, func() int { cancel(); return <-done }
	case code := <-done:
		t.Fatalf("serve exited with %d:\n%s", code, logs.String())
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start")
	}
	cancel()
	return "", nil
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeFinishesAnInFlightTurnOnShutdown(t *testing.T) {
	model := llmtest.NewOpenAI(t)
	model.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"retrieval-augmented generation","limit":10}]}`})
	model.Script(agent.StepRespond, llmtest.Reply{Text: "Go to [sessions/s006].", Delay: 700 * time.Millisecond})
	model.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "Looking into it."} }
	url, stop := serveForTest(t, map[string]string{"MODEL": "openai:slow", "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": model.URL + "/v1",
		"MAX_RETRY_COUNT": "0", "SHUTDOWN_GRACE": "10s"})
	body := make(chan string, 1)
	go func() {
		resp, err := http.Post(url+"/v1/chat/stream", "application/json", strings.NewReader(`{"message":"RAG sessions?","conference_id":"aidata26"}`))
		if err != nil {
			body <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		body <- string(b)
	}()
	for deadline := time.Now().Add(5 * time.Second); len(model.Of(agent.StepRespond)) == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the turn never reached its answer")
		}
	}
	code := stop() // SIGTERM while the answer is being written
	got := <-body
	if code != 0 || !strings.Contains(got, "event: answer") || !strings.Contains(got, "event: done") || !strings.Contains(got, "sessions/s006") {
		t.Fatalf("exit %d; stream:\n%s", code, got)
	}
	if _, err := http.Get(url + "/healthz"); err == nil {
		t.Fatal("still accepting after shutdown")
	}
}

func TestServeHealthReadinessAndMetrics(t *testing.T) {
	url, stop := serveForTest(t, map[string]string{})
	defer stop()
	for path, want := range map[string]string{"/healthz": `"ok"`, "/readyz": `"ready"`, "/metrics": "erleah_turns_total"} {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Fatalf("%s: %d %.200s", path, resp.StatusCode, b)
		}
	}
}

// A provider's 429 with Retry-After opens its model's breaker: /readyz
// fails and /metrics shows it open until the pause is over; then it is
// half-open, which is ready.
func TestServeReportsAnOpenBreaker(t *testing.T) {
	model := llmtest.NewOpenAI(t)
	model.Default = func(agent.Step) llmtest.Reply {
		return llmtest.Reply{Status: http.StatusTooManyRequests, Text: `{"error":{"message":"slow down"}}`, Header: http.Header{"Retry-After": {"1"}}}
	}
	url, stop := serveForTest(t, map[string]string{"MODEL": "openai:gpt-x", "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": model.URL + "/v1",
		"MODEL_CALL_TIMEOUT": "300ms"})
	defer stop()
	opened := time.Now()
	if got := fetch(t, url+"/v1/chat/stream", `{"message":"RAG sessions?","conference_id":"aidata26"}`); !strings.Contains(got, "event: answer") {
		t.Fatalf("no fallback answer while the model is rate-limited:\n%s", got)
	}
	if got := fetch(t, url+"/readyz", ""); !strings.Contains(got, `"models":"failing"`) {
		t.Fatalf("/readyz with the breaker open: %s", got)
	}
	metrics := fetch(t, url+"/metrics", "")
	for _, want := range []string{`erleah_model_breaker_state{model="openai:gpt-x"} 2`, `erleah_model_breaker_opened_total{model="openai:gpt-x"} 1`} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("/metrics lacks %s", want)
		}
	}
	for !strings.Contains(fetch(t, url+"/readyz", ""), `"ready"`) {
		if time.Since(opened) > 10*time.Second {
			t.Fatal("/readyz never became ready once the breaker's second was over")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if time.Since(opened) < time.Second {
		t.Fatalf("ready again %v after the 429 asked for a second", time.Since(opened))
	}
	if !strings.Contains(fetch(t, url+"/metrics", ""), `erleah_model_breaker_state{model="openai:gpt-x"} 1`) {
		t.Fatal("/metrics does not show the breaker half-open")
	}
}

// fetch gets url, or POSTs body to it when body is set, and returns the
// response's body.
func fetch(t *testing.T, url, body string) string {
	t.Helper()
	var resp *http.Response
	var err error
	if body == "" {
		resp, err = http.Get(url)
	} else {
		resp, err = http.Post(url, "application/json", strings.NewReader(body))
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestServeRemembersReflectionsAndClearsThem: a reflected turn leaves
// lessons in STATE_DIR that the admin API lists and clears; with
// MEMORY_ENABLED=false there is no memory to list.
func TestServeRemembersReflectionsAndClearsThem(t *testing.T) {
	state := t.TempDir()
	url, stop := serveForTest(t, map[string]string{"STATE_DIR": state, "API_TOKEN": "tok", "RATE_PER_IP": "0"})
	call := func(method, path, body string) (int, map[string]any) {
		req, _ := http.NewRequest(method, url+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer tok")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body) // a stream to its end: leaving early cancels the turn
		var out map[string]any
		_ = json.Unmarshal(data, &out)
		return resp.StatusCode, out
	}
	if code, _ := call("POST", "/v1/chat/stream", `{"message":"any good MLOps talks?","conference_id":"aidata26"}`); code != 200 {
		t.Fatalf("stream: %d", code)
	}
	var listed map[string]any
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, listed = call("GET", "/v1/admin/memory?conference=aidata26", ""); listed["count"] != nil && listed["count"].(float64) > 0 {
			break
		}
	}
	if n, _ := listed["count"].(float64); n == 0 {
		t.Fatalf("no lesson after a reflected turn: %v", listed)
	}
	if _, err := os.Stat(filepath.Join(state, "reflections.json")); err != nil {
		t.Fatalf("the memory file: %v", err)
	}
	if code, out := call("DELETE", "/v1/admin/memory", ""); code != 400 {
		t.Fatalf("clearing without naming a conference: %d %v", code, out)
	}
	if code, out := call("DELETE", "/v1/admin/memory?conference=aidata26", ""); code != 200 || out["cleared"] != listed["count"] {
		t.Fatalf("clear: %d %v, want %v cleared", code, out, listed["count"])
	}
	stop()
	url, stop = serveForTest(t, map[string]string{"STATE_DIR": state, "API_TOKEN": "tok", "MEMORY_ENABLED": "false"})
	defer stop()
	if code, _ := call("GET", "/v1/admin/memory", ""); code != 404 {
		t.Fatalf("memory off: listing gives %d, want 404", code)
	}
}
