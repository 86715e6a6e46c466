package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// cli runs the command line in-process and returns exit code, stdout and stderr.
func cli(t *testing.T, env map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if env == nil {
		env = map[string]string{}
	}
	if _, ok := env["STATE_DIR"]; !ok {
		env["STATE_DIR"] = t.TempDir()
	}
	code := run(context.Background(), args, &out, &errb, env)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestUsageErrorsExitTwo(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no command", nil, nil, "no command"},
		{"unknown command", nil, []string{"fly"}, `unknown command "fly"`},
		{"empty question", nil, []string{"ask", "   "}, "the question is empty"},
		{"no question", nil, []string{"ask"}, "the question is empty"},
		{"long question", nil, []string{"ask", strings.Repeat("a", 4001)}, "4001 characters, at most 4000"},
		{"unknown conference", nil, []string{"ask", "--conference", "nope", "hi"}, `unknown conference "nope"; available: aidata26, climate26`},
		{"bad flag", nil, []string{"ask", "--bogus", "hi"}, "flag provided but not defined"},
		{"bad reflection", nil, []string{"ask", "--reflection", "maybe", "hi"}, `--reflection "maybe"`},
		{"bad retries", nil, []string{"ask", "--max-retries", "9", "hi"}, "outside 0..5"},
		{"bad environment", map[string]string{"MAX_RETRY_COUNT": "lots", "TURN_TIMEOUT": "soon", "MODEL": "anthropic:claude-x", "EMBEDDER": "word2vec"}, []string{"ask", "hi"},
			`bad environment: MAX_RETRY_COUNT="lots" is not a valid int; TURN_TIMEOUT="soon" is not a valid time.Duration; MODEL: model anthropic:claude-x needs ANTHROPIC_API_KEY; EMBEDDER="word2vec": want hash, openai:<model> or ollama:<model>`},
		{"eval bad mode", nil, []string{"eval", "--reflection", "sometimes"}, "want on, off or both"},
		{"eval cases needed with data", nil, []string{"eval", "--data", "x.json"}, "--data needs --cases"},
		{"bad clock", nil, []string{"ask", "--now", "tomorrow", "hi"}, `--now "tomorrow": want an RFC 3339 time`},
		{"unknown set", nil, []string{"eval", "--set", "nope"}, `unknown set "nope"`},
		{"unknown technique", nil, []string{"eval", "--ablate", "magic"}, `unknown technique "magic"`},
		{"cases and set", nil, []string{"eval", "--set", "demo", "--cases", "x.jsonl"}, "exclude each other"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := cli(t, tc.env, tc.args...)
			if code != 2 || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, errOut, tc.want)
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(out, "goroutine") {
				t.Fatal("stack trace printed")
			}
		})
	}
}

func TestMalformedBundleExitsOneWithEveryProblem(t *testing.T) {
	bad := writeFile(t, "bad.json", `{"conferences":[{"id":"c1","name":"C"}],
		"sessions":[{"id":"s1","conference_id":"c1","title":"T","speaker_ids":["p99"]},{"id":"s1","conference_id":"c2","title":""}],
		"speakers":[]}`)
	code, out, errOut := cli(t, nil, "ask", "--data", bad, "anything?")
	for _, want := range []string{`sessions[0].speaker_ids[0]: unknown speaker "p99"`, `sessions[1].id: duplicate id "s1"`,
		`sessions[1].conference_id: unknown conference "c2"`, "sessions[1].title: required", "4 problems"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q; want 1 and nothing on stdout", code, out)
	}
	code, _, errOut = cli(t, nil, "ask", "--data", filepath.Join(t.TempDir(), "missing.json"), "hi")
	if code != 1 || !strings.Contains(errOut, "no such file") {
		t.Fatalf("missing bundle: exit %d, %q", code, errOut)
	}
}

func TestAskPrintsThinkingThenAnswer(t *testing.T) {
	code, out, errOut := cli(t, nil, "ask", "Who can help me deploy ML models on-prem?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	note := strings.Index(out, "~ ")
	answer := strings.Index(out, "Here is what I found")
	if note < 0 || answer < note || !strings.Contains(out, "[exhibitors/e") || !strings.Contains(out, "Cited: ") {
		t.Fatalf("want a thinking note, then an answer citing an exhibitor:\n%s", out)
	}
}

func TestAskJSONIsOnlyJSON(t *testing.T) {
	code, out, errOut := cli(t, nil, "ask", "--json", "k8s workshops?", "--conference", "aidata26")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Answer    string `json:"answer"`
		Citations []struct {
			Collection, ID string
		} `json:"citations"`
		Thinking []map[string]any `json:"thinking_output"`
		Trace    struct {
			QueryResults map[string][]struct{ ID string } `json:"query_results"`
		} `json:"trace"`
	}
	dec := json.NewDecoder(strings.NewReader(out))
	if err := dec.Decode(&got); err != nil || dec.More() {
		t.Fatalf("stdout is not one JSON document (%v):\n%s", err, out)
	}
	if got.Answer == "" || len(got.Citations) == 0 || len(got.Thinking) == 0 {
		t.Fatalf("answer %q, %d citations, %d thinking records", got.Answer, len(got.Citations), len(got.Thinking))
	}
	for _, rec := range got.Thinking {
		for _, k := range []string{"message", "strategy", "retry_count", "ts"} {
			if _, ok := rec[k]; !ok {
				t.Fatalf("thinking record lacks %q: %v", k, rec)
			}
		}
	}
	for _, c := range got.Citations {
		found := false
		for _, r := range got.Trace.QueryResults[c.Collection] {
			found = found || r.ID == c.ID
		}
		if !found {
			t.Fatalf("cited %s/%s was not retrieved", c.Collection, c.ID)
		}
	}
}

func TestEvalJSONAndBadCases(t *testing.T) {
	cases := writeFile(t, "cases.jsonl", `{"id":"a","conference_id":"aidata26","message":"k8s workshops","relevant":{"sessions":["s010"]}}
{"id":"b","conference_id":"aidata26","message":"a sauna","relevant":{"sessions":[],"exhibitors":[],"speakers":[]}}
`)
	demo := writeFile(t, "demo.json", string(mustDemo(t)))
	code, out, errOut := cli(t, nil, "eval", "--data", demo, "--cases", cases, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Summary map[string]map[string]any `json:"summary"`
		Cases   []map[string]any          `json:"cases"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("eval --json is not JSON: %v", err)
	}
	for _, mode := range []string{"reflection", "mechanical"} {
		for _, k := range []string{"cases", "first_pass_hit_rate", "final_hit_rate", "recovery_rate", "recall_at_10", "mrr", "false_citation_rate", "mean_attempts", "llm_calls", "p50_ms", "p95_ms",
			"answer_hit_rate", "answer_precision", "nothing_fits_rate", "by_kind"} {
			if _, ok := rep.Summary[mode][k]; !ok {
				t.Fatalf("summary.%s lacks %q", mode, k)
			}
		}
	}
	if len(rep.Cases) != 4 {
		t.Fatalf("%d case results, want 2 cases × 2 modes", len(rep.Cases))
	}
	broken := writeFile(t, "broken.jsonl", "{\"id\":\"a\",\"conference_id\":\"aidata26\",\"message\":\"x\"}\nnot json\n{\"id\":\"a\",\"conference_id\":\"aidata26\",\"message\":\"y\"}\n")
	code, _, errOut = cli(t, nil, "eval", "--data", demo, "--cases", broken)
	if code != 1 || !strings.Contains(errOut, "line 2:") || !strings.Contains(errOut, `line 3: duplicate id "a"`) {
		t.Fatalf("bad cases: exit %d, %s", code, errOut)
	}
	wrong := writeFile(t, "wrong.jsonl", `{"id":"a","conference_id":"aidata26","message":"x","relevant":{"sessions":["cs01","s999"]}}`)
	code, _, errOut = cli(t, nil, "eval", "--data", demo, "--cases", wrong)
	if code != 1 || !strings.Contains(errOut, "sessions/cs01 belongs to climate26") || !strings.Contains(errOut, "unknown relevant item sessions/s999") {
		t.Fatalf("cases not matching the bundle: exit %d, %s", code, errOut)
	}
}

func mustDemo(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../conference/demo/bundle.json")
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestVersion(t *testing.T) {
	code, out, _ := cli(t, nil, "version")
	if code != 0 || !strings.HasPrefix(out, "erleah-agent ") {
		t.Fatalf("version: %d %q", code, out)
	}
}

func TestAskUsesTheConfiguredProvider(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"retrieval-augmented generation","limit":10}]}`})
	srv.Script(agent.StepRespond, llmtest.Reply{Text: "Go to [sessions/s006]."})
	srv.Script(agent.StepEval, llmtest.Reply{Text: `{"quality_score":0.8,"confidence_score":0.8,"issues":[],"improvement_hint":null}`})
	env := map[string]string{"MODEL": "openai:gpt-test", "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL + "/v1", "MAX_RETRY_COUNT": "0"}
	code, out, errOut := cli(t, env, "ask", "--json", "sessions on RAG?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Answer string `json:"answer"`
		Trace  struct {
			PlanSource string `json:"plan_source"`
			Evaluation struct {
				Quality float64 `json:"quality_score"`
			} `json:"evaluation"`
		} `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Answer != "Go to [sessions/s006]." || got.Trace.PlanSource != "model" || got.Trace.Evaluation.Quality != 0.8 {
		t.Fatalf("answer %q, plan from %s, evaluation %v", got.Answer, got.Trace.PlanSource, got.Trace.Evaluation)
	}
}

// TestAskSaysWhatTheModelGotWrong: a refused reply and ignored keys are
// shown on stderr, not only in the JSON trace.
func TestAskSaysWhatTheModelGotWrong(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	bad := llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"attendees","query_text":"rag"}]}`}
	srv.Script(agent.StepPlan, bad, llmtest.Reply{Text: `{"intent":"x","confidence":1,"queries":[{"table":"sessions","query_text":"rag"}]}`})
	srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "Go to [sessions/s006]."} }
	env := map[string]string{"MODEL": "anthropic:claude-test", "ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL + "/v1", "MAX_RETRY_COUNT": "0"}
	code, _, errOut := cli(t, env, "ask", "sessions on RAG?")
	if code != 0 || !strings.Contains(errOut, "plan_queries reply from anthropic:claude-test refused by check tables_and_modes") ||
		!strings.Contains(errOut, "ignored: confidence") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
}

func TestAskAnswersWhenTheProviderRejectsTheKey(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Default = func(agent.Step) llmtest.Reply {
		return llmtest.Reply{Status: 401, Text: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "bad", "ANTHROPIC_BASE_URL": srv.URL + "/v1"}
	code, out, errOut := cli(t, env, "ask", "Who can help me deploy ML models on-prem?")
	if code != 0 || !strings.Contains(out, "[exhibitors/") || strings.Contains(out+errOut, "x-api-key") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
}

func TestAskAtAGivenMoment(t *testing.T) {
	code, out, errOut := cli(t, nil, "ask", "--json", "--now", "2026-06-10T09:30:00+02:00", "what's next?")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Citations []agent.Citation `json:"citations"`
		Trace     agent.State      `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Trace.Filter == nil || !got.Trace.Filter.Next || !got.Trace.AskedAt.Equal(time.Date(2026, 6, 10, 7, 30, 0, 0, time.UTC)) || len(got.Citations) == 0 {
		t.Fatalf("asked at %v, filter %+v, citations %v", got.Trace.AskedAt, got.Trace.Filter, got.Citations)
	}
	for _, c := range got.Citations {
		if c.Collection != "sessions" && c.Collection != "speakers" {
			t.Fatalf("what's next cites %s", c.Key())
		}
	}
}

func TestAblationsTakeNoOtherOutputFlags(t *testing.T) {
	code, _, errOut := cli(t, nil, "eval", "--ablations", "--json")
	if code != 2 || !strings.Contains(errOut, "--ablations prints its own table") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestDirectusCheckWithANonAdminTokenSaysSo: a 403 on the schema is
// explained, not printed raw.
func TestDirectusCheckWithANonAdminTokenSaysSo(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"errors":[{"message":"You don't have permission to access this.","extensions":{"code":"FORBIDDEN"}}]}`)
	}))
	defer srv.Close()
	code, _, errOut := cli(t, map[string]string{"DIRECTUS_URL": srv.URL, "DIRECTUS_TOKEN": "agent-token"}, "directus", "check")
	if code != 1 || !strings.Contains(errOut, "needs an admin token") || strings.Contains(errOut, "/fields") || strings.Contains(errOut, "/collections") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

// TestAskPrintsEachBlockOnce: header, notes (the acknowledgment first) and
// answer are separated by one blank line each, whether or not there is an
// acknowledgment or a note.
func TestAskPrintsEachBlockOnce(t *testing.T) {
	for _, q := range []string{"hi", "Who can help me deploy ML models on-prem?"} {
		code, out, errOut := cli(t, nil, "ask", q)
		if code != 0 || strings.Contains(out, "\n\n\n") {
			t.Fatalf("%q: exit %d, output with a doubled blank line:\n%s%s", q, code, out, errOut)
		}
		if ack, note := strings.Index(out, "Let me"), strings.Index(out, "\n~ "); ack >= 0 && note >= 0 && ack > note {
			t.Fatalf("%q: a thinking note before the acknowledgment:\n%s", q, out)
		}
	}
}

func TestDotEnvFillsWhatTheEnvironmentLeavesUnset(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("# settings\nMAX_TURNS=8\nexport TURN_QUEUE = 16\nAPI_TOKEN=\nPUBLIC_URL=\"http://x:1\"\nMODEL='builtin'\nLOG_LEVEL=debug\n"), 0o600)
	env := map[string]string{"LOG_LEVEL": "warn"}
	if err := dotEnv(path, env); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"MAX_TURNS": "8", "TURN_QUEUE": "16", "PUBLIC_URL": "http://x:1", "MODEL": "builtin", "LOG_LEVEL": "warn"}
	if fmt.Sprint(env) != fmt.Sprint(want) {
		t.Fatalf("env %v, want %v (the environment wins, empty values are unset)", env, want)
	}
	os.WriteFile(path, []byte("MAX_TURNS=8\nthis is not a setting\n"), 0o600)
	if err := dotEnv(path, map[string]string{}); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a malformed line: %v", err)
	}
	if err := dotEnv(filepath.Join(t.TempDir(), "none"), map[string]string{}); err != nil {
		t.Fatalf("a missing file: %v", err)
	}
}
