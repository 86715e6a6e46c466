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

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		require.Failf(t, "serve exited", "serve exited with %d:\n%s", code, logs.String())
	case <-time.After(10 * time.Second):
		require.Fail(t, "serve did not start")
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
	require.Eventually(t, func() bool { return len(model.Of(agent.StepRespond)) != 0 }, 5*time.Second, 5*time.Millisecond,
		"the turn never reached its answer")
	code := stop() // SIGTERM while the answer is being written
	got := <-body
	require.Zero(t, code, "exit code; stream:\n%s", got)
	require.Contains(t, got, "event: answer", "stream")
	require.Contains(t, got, "event: done", "stream")
	require.Contains(t, got, "sessions/s006", "stream")
	_, err := http.Get(url + "/healthz")
	assert.Error(t, err, "still accepting after shutdown")
}

func TestServeHealthReadinessAndMetrics(t *testing.T) {
	url, stop := serveForTest(t, map[string]string{})
	defer stop()
	for path, want := range map[string]string{"/healthz": `"ok"`, "/readyz": `"ready"`, "/metrics": "erleah_turns_total"} {
		resp, err := http.Get(url + path)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		require.Equal(t, 200, resp.StatusCode, "%s: %.200s", path, b)
		require.True(t, strings.Contains(string(b), want), "%s: %.200s", path, b)
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
	require.Contains(t, fetch(t, url+"/v1/chat/stream", `{"message":"RAG sessions?","conference_id":"aidata26"}`), "event: answer",
		"no fallback answer while the model is rate-limited")
	require.Contains(t, fetch(t, url+"/readyz", ""), `"models":"failing"`, "/readyz with the breaker open")
	metrics := fetch(t, url+"/metrics", "")
	for _, want := range []string{`erleah_model_breaker_state{model="openai:gpt-x"} 2`, `erleah_model_breaker_opened_total{model="openai:gpt-x"} 1`} {
		require.Contains(t, metrics, want, "/metrics lacks %s", want)
	}
	// Ten seconds from the 429, as before.
	eventually(t, 10*time.Second-time.Since(opened), saying("/readyz to be ready once the breaker's second was over"),
		func() bool { return strings.Contains(fetch(t, url+"/readyz", ""), `"ready"`) })
	require.GreaterOrEqual(t, time.Since(opened), time.Second, "ready again too soon after the 429 asked for a second")
	assert.Contains(t, fetch(t, url+"/metrics", ""), `erleah_model_breaker_state{model="openai:gpt-x"} 1`, "/metrics does not show the breaker half-open")
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
	require.NoError(t, err)
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
		require.NoError(t, err)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body) // a stream to its end: leaving early cancels the turn
		var out map[string]any
		_ = json.Unmarshal(data, &out)
		return resp.StatusCode, out
	}
	code, _ := call("POST", "/v1/chat/stream", `{"message":"any good MLOps talks?","conference_id":"aidata26"}`)
	require.Equal(t, 200, code, "stream")
	var listed map[string]any
	eventually(t, 10*time.Second, saying("a lesson after a reflected turn"), func() bool {
		_, listed = call("GET", "/v1/admin/memory?conference=aidata26", "")
		return listed["count"] != nil && listed["count"].(float64) > 0
	})
	// The bank lists a lesson as soon as it holds it; the file is written
	// just after, outside the bank's lock.
	eventually(t, 10*time.Second, saying("the memory file"), func() bool {
		_, err := os.Stat(filepath.Join(state, "reflections.json"))
		return err == nil
	})
	code, out := call("DELETE", "/v1/admin/memory", "")
	require.Equal(t, 400, code, "clearing without naming a conference: %v", out)
	code, out = call("DELETE", "/v1/admin/memory?conference=aidata26", "")
	require.Equal(t, 200, code, "clear: %v", out)
	require.Equal(t, listed["count"], out["cleared"], "clear: %v", out)
	stop()
	url, stop = serveForTest(t, map[string]string{"STATE_DIR": state, "API_TOKEN": "tok", "MEMORY_ENABLED": "false"})
	defer stop()
	code, _ = call("GET", "/v1/admin/memory", "")
	assert.Equal(t, 404, code, "memory off: listing")
}
