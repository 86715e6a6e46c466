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
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm/llmtest"
	"github.com/erleah/erleah-agent/search"
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
	require.NoError(t, os.WriteFile(p, []byte(body), 0o600))
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
		{"paraphrases without memory", nil, []string{"eval", "--paraphrases", "demo"}, "--paraphrases goes with --memory"},
		{"unknown paraphrases", nil, []string{"eval", "--memory", "--paraphrases", "nope"}, `unknown paraphrase set "nope"`},
		{"index without a flag", map[string]string{"SEARCH_BACKEND": "weaviate", "WEAVIATE_URL": "http://127.0.0.1:1"}, []string{"index"}, "give one of --check or --rebuild"},
		{"index in memory", nil, []string{"index", "--check"}, "SEARCH_BACKEND=memory keeps the index in memory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := cli(t, tc.env, tc.args...)
			require.Equal(t, 2, code, "exit code; stderr %q; want 2 and %q", errOut, tc.want)
			require.Contains(t, errOut, tc.want, "stderr")
			assert.NotContains(t, errOut, "goroutine", "stack trace printed")
			assert.NotContains(t, out, "goroutine", "stack trace printed")
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
		assert.Contains(t, errOut, want, "stderr lacks %q", want)
	}
	require.Equal(t, 1, code, "exit code, stdout %q; want 1 and nothing on stdout", out)
	require.Empty(t, out, "stdout; want nothing on stdout")
	code, _, errOut = cli(t, nil, "ask", "--data", filepath.Join(t.TempDir(), "missing.json"), "hi")
	assert.Equal(t, 1, code, "missing bundle: exit code; stderr %q", errOut)
	assert.Contains(t, errOut, "no such file", "missing bundle")
}

func TestAskPrintsThinkingThenAnswer(t *testing.T) {
	code, out, errOut := cli(t, nil, "ask", "Who can help me deploy ML models on-prem?")
	require.Zero(t, code, "exit code; stderr %s", errOut)
	note := strings.Index(out, "~ ")
	answer := strings.Index(out, "Here is what I found")
	const want = "want a thinking note, then an answer citing an exhibitor:\n%s"
	require.GreaterOrEqual(t, note, 0, want, out)
	require.GreaterOrEqual(t, answer, note, want, out)
	assert.Contains(t, out, "[exhibitors/e", want, out)
	assert.Contains(t, out, "Cited: ", want, out)
}

func TestAskJSONIsOnlyJSON(t *testing.T) {
	code, out, errOut := cli(t, nil, "ask", "--json", "k8s workshops?", "--conference", "aidata26")
	require.Zero(t, code, "exit code; stderr %s", errOut)
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
	require.NoError(t, dec.Decode(&got), "stdout is not one JSON document:\n%s", out)
	require.False(t, dec.More(), "stdout is not one JSON document:\n%s", out)
	require.NotEmpty(t, got.Answer, "answer")
	require.NotEmpty(t, got.Citations, "citations")
	require.NotEmpty(t, got.Thinking, "thinking records")
	for _, rec := range got.Thinking {
		for _, k := range []string{"message", "strategy", "retry_count", "ts"} {
			require.Contains(t, rec, k, "thinking record lacks %q: %v", k, rec)
		}
	}
	for _, c := range got.Citations {
		found := false
		for _, r := range got.Trace.QueryResults[c.Collection] {
			found = found || r.ID == c.ID
		}
		require.True(t, found, "cited %s/%s was not retrieved", c.Collection, c.ID)
	}
}

// twoCases writes a cases file of one answerable and one unanswerable
// question on the demo bundle, and the bundle.
func twoCases(t *testing.T) (cases, bundle string) {
	t.Helper()
	cases = writeFile(t, "cases.jsonl", `{"id":"a","conference_id":"aidata26","message":"k8s workshops","relevant":{"sessions":["s010"]}}
{"id":"b","conference_id":"aidata26","message":"a sauna","relevant":{"sessions":[],"exhibitors":[],"speakers":[]}}
`)
	return cases, writeFile(t, "demo.json", string(mustDemo(t)))
}

func TestEvalJSONAndBadCases(t *testing.T) {
	cases, demo := twoCases(t)
	code, out, errOut := cli(t, nil, "eval", "--data", demo, "--cases", cases, "--json")
	require.Zero(t, code, "exit code; stderr %s", errOut)
	var rep struct {
		Summary map[string]map[string]any `json:"summary"`
		Cases   []map[string]any          `json:"cases"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), "eval --json is not JSON")
	for _, mode := range []string{"reflection", "mechanical"} {
		for _, k := range []string{"cases", "first_pass_hit_rate", "final_hit_rate", "recovery_rate", "recall_at_10", "mrr", "false_citation_rate", "mean_attempts", "llm_calls", "p50_ms", "p95_ms",
			"answer_hit_rate", "answer_precision", "nothing_fits_rate", "by_kind"} {
			require.Contains(t, rep.Summary[mode], k, "summary.%s lacks %q", mode, k)
		}
	}
	require.Len(t, rep.Cases, 4, "case results, want 2 cases × 2 modes")
	broken := writeFile(t, "broken.jsonl", "{\"id\":\"a\",\"conference_id\":\"aidata26\",\"message\":\"x\"}\nnot json\n{\"id\":\"a\",\"conference_id\":\"aidata26\",\"message\":\"y\"}\n")
	code, _, errOut = cli(t, nil, "eval", "--data", demo, "--cases", broken)
	require.Equal(t, 1, code, "bad cases: exit code; stderr %s", errOut)
	require.Contains(t, errOut, "line 2:", "bad cases")
	require.Contains(t, errOut, `line 3: duplicate id "a"`, "bad cases")
	wrong := writeFile(t, "wrong.jsonl", `{"id":"a","conference_id":"aidata26","message":"x","relevant":{"sessions":["cs01","s999"]}}`)
	code, _, errOut = cli(t, nil, "eval", "--data", demo, "--cases", wrong)
	assert.Equal(t, 1, code, "cases not matching the bundle: exit code; stderr %s", errOut)
	assert.Contains(t, errOut, "sessions/cs01 belongs to climate26", "cases not matching the bundle")
	assert.Contains(t, errOut, "unknown relevant item sessions/s999", "cases not matching the bundle")
}

func mustDemo(t *testing.T) []byte {
	t.Helper()
	data, err := os.ReadFile("../../conference/demo/bundle.json")
	require.NoError(t, err)
	return data
}

func TestVersion(t *testing.T) {
	code, out, _ := cli(t, nil, "version")
	assert.Zero(t, code, "version: exit code")
	assert.True(t, strings.HasPrefix(out, "erleah-agent "), "version: %q", out)
}

func TestAskUsesTheConfiguredProvider(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"retrieval-augmented generation","limit":10}]}`})
	srv.Script(agent.StepRespond, llmtest.Reply{Text: "Go to [sessions/s006]."})
	srv.Script(agent.StepEval, llmtest.Reply{Text: `{"quality_score":0.8,"confidence_score":0.8,"issues":[],"improvement_hint":null}`})
	env := map[string]string{"MODEL": "openai:gpt-test", "OPENAI_API_KEY": "k", "OPENAI_BASE_URL": srv.URL + "/v1", "MAX_RETRY_COUNT": "0"}
	code, out, errOut := cli(t, env, "ask", "--json", "sessions on RAG?")
	require.Zero(t, code, "exit code; stderr %s", errOut)
	var got struct {
		Answer string `json:"answer"`
		Trace  struct {
			PlanSource string `json:"plan_source"`
			Evaluation struct {
				Quality float64 `json:"quality_score"`
			} `json:"evaluation"`
		} `json:"trace"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	assert.Equal(t, "Go to [sessions/s006].", got.Answer, "answer")
	assert.Equal(t, "model", got.Trace.PlanSource, "plan from")
	assert.Equal(t, 0.8, got.Trace.Evaluation.Quality, "evaluation %v", got.Trace.Evaluation)
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
	assert.Zero(t, code, "exit code; stderr:\n%s", errOut)
	assert.Contains(t, errOut, "plan_queries reply from anthropic:claude-test refused by check tables_and_modes", "stderr")
	assert.Contains(t, errOut, "ignored: confidence", "stderr")
}

func TestAskAnswersWhenTheProviderRejectsTheKey(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Default = func(agent.Step) llmtest.Reply {
		return llmtest.Reply{Status: 401, Text: `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`}
	}
	env := map[string]string{"ANTHROPIC_API_KEY": "bad", "ANTHROPIC_BASE_URL": srv.URL + "/v1"}
	code, out, errOut := cli(t, env, "ask", "Who can help me deploy ML models on-prem?")
	assert.Zero(t, code, "exit code\nstdout %s\nstderr %s", out, errOut)
	assert.Contains(t, out, "[exhibitors/", "stdout; stderr %s", errOut)
	assert.NotContains(t, out+errOut, "x-api-key", "stdout and stderr")
}

func TestAskAtAGivenMoment(t *testing.T) {
	code, out, errOut := cli(t, nil, "ask", "--json", "--now", "2026-06-10T09:30:00+02:00", "what's next?")
	require.Zero(t, code, "exit code; stderr %s", errOut)
	var got struct {
		Citations []agent.Citation `json:"citations"`
		Trace     agent.State      `json:"trace"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &got))
	const moment = "asked at %v, filter %+v, citations %v"
	require.NotNil(t, got.Trace.Filter, moment, got.Trace.AskedAt, got.Trace.Filter, got.Citations)
	require.True(t, got.Trace.Filter.Next, moment, got.Trace.AskedAt, got.Trace.Filter, got.Citations)
	require.True(t, got.Trace.AskedAt.Equal(time.Date(2026, 6, 10, 7, 30, 0, 0, time.UTC)), moment, got.Trace.AskedAt, got.Trace.Filter, got.Citations)
	require.NotEmpty(t, got.Citations, moment, got.Trace.AskedAt, got.Trace.Filter, got.Citations)
	for _, c := range got.Citations {
		require.True(t, c.Collection == "sessions" || c.Collection == "speakers", "what's next cites %s", c.Key())
	}
}

func TestAblationsTakeNoOtherOutputFlags(t *testing.T) {
	code, _, errOut := cli(t, nil, "eval", "--ablations", "--json")
	assert.Equal(t, 2, code, "exit code; stderr %s", errOut)
	assert.Contains(t, errOut, "--ablations prints its own table")
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
	assert.Equal(t, 1, code, "exit code; stderr %s", errOut)
	assert.Contains(t, errOut, "needs an admin token")
	assert.NotContains(t, errOut, "/fields")
	assert.NotContains(t, errOut, "/collections")
}

// TestAskPrintsEachBlockOnce: header, notes (the acknowledgment first) and
// answer are separated by one blank line each, whether or not there is an
// acknowledgment or a note.
func TestAskPrintsEachBlockOnce(t *testing.T) {
	for _, q := range []string{"hi", "Who can help me deploy ML models on-prem?"} {
		code, out, errOut := cli(t, nil, "ask", q)
		require.Zero(t, code, "%q: exit code; stderr %s", q, errOut)
		require.NotContains(t, out, "\n\n\n", "%q: output with a doubled blank line; stderr %s", q, errOut)
		if ack, note := strings.Index(out, "Let me"), strings.Index(out, "\n~ "); ack >= 0 && note >= 0 {
			require.LessOrEqual(t, ack, note, "%q: a thinking note before the acknowledgment:\n%s", q, out)
		}
	}
}

func TestDotEnvFillsWhatTheEnvironmentLeavesUnset(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	os.WriteFile(path, []byte("# settings\nMAX_TURNS=8\nexport TURN_QUEUE = 16\nAPI_TOKEN=\nPUBLIC_URL=\"http://x:1\"\nMODEL='builtin'\nLOG_LEVEL=debug\n"), 0o600)
	env := map[string]string{"LOG_LEVEL": "warn"}
	require.NoError(t, dotEnv(path, env))
	want := map[string]string{"MAX_TURNS": "8", "TURN_QUEUE": "16", "PUBLIC_URL": "http://x:1", "MODEL": "builtin", "LOG_LEVEL": "warn"}
	require.Equal(t, want, env, "env (the environment wins, empty values are unset)")
	os.WriteFile(path, []byte("MAX_TURNS=8\nthis is not a setting\n"), 0o600)
	require.ErrorContains(t, dotEnv(path, map[string]string{}), "line 2", "a malformed line")
	assert.NoError(t, dotEnv(filepath.Join(t.TempDir(), "none"), map[string]string{}), "a missing file")
}

func TestARequiredTranslatorThatIsMissingStopsTheCommand(t *testing.T) {
	env := map[string]string{"TRANSLATE": "on", "APERTIUM_BIN": filepath.Join(t.TempDir(), "apertium"), "DICT_DIR": t.TempDir()}
	code, out, errOut := cli(t, env, "ask", "¿Hay talleres sobre seguridad?")
	assert.NotZero(t, code)
	assert.Empty(t, out, "no answer without the translator asked for")
	assert.Contains(t, errOut, "TRANSLATE=on: translate: find apertium")
	assert.NotContains(t, errOut, "goroutine", "no stack trace")
	code, out, _ = cli(t, map[string]string{"TRANSLATE": "auto", "APERTIUM_BIN": env["APERTIUM_BIN"], "DICT_DIR": env["DICT_DIR"]}, "ask", "¿Hay talleres sobre seguridad?")
	assert.Zero(t, code, "auto goes on without it")
	assert.Contains(t, out, "by the words I recognised")
}

// The ablation table has a row with everything on and one per technique,
// each cell counting the cases of its column: here one answerable case and
// one that nothing fits.
func TestAblationsTableCountsEveryTechnique(t *testing.T) {
	cases, demo := twoCases(t)
	code, out, errOut := cli(t, nil, "eval", "--data", demo, "--cases", cases, "--ablations")
	require.Zero(t, code, "exit code; stderr %s", errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2+1+len(search.Techniques), "header, separator, all on, one row per technique:\n%s", out)
	assert.Contains(t, lines[0], cases, "a single set's column is named for it")
	cell := regexp.MustCompile(`^\| [a-z (]+\)? \| [01]/1 / [01]\.\d{3} / [01]/1 / [01] \([01], [01]\) \|$`)
	for _, l := range lines[2:] {
		assert.Regexp(t, cell, l)
	}
	assert.True(t, strings.HasPrefix(lines[2], "| nothing (all on) |"), lines[2])
}
