package llm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// TestAnthropicTurnWithRewrite drives a whole turn through langchaingo's
// Anthropic client against a server speaking the Messages API: plan,
// reflection (rewrite), a streamed answer and its evaluation.
func TestAnthropicTurnWithRewrite(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	srv.Script(agent.StepAck, llmtest.Reply{Text: "Let me look into that for you."})
	// A slow plan: the acknowledgment, asked at the same time, is surely
	// ready before the answer (it is dropped otherwise, by design).
	srv.Script(agent.StepPlan, llmtest.Reply{Text: planK8s, Delay: 300 * time.Millisecond})
	srv.Script(agent.StepReflect, llmtest.Reply{Text: "```json\n" + rewriteK8 + "\n```"})
	srv.Script(agent.StepRespond, llmtest.Reply{Text: answerK8s})
	srv.Script(agent.StepEval, llmtest.Reply{Text: goodEval})
	h := newHarness(t, "anthropic:claude-test-1", llm.Config{AnthropicKey: "sk-test", AnthropicBaseURL: srv.URL + "/v1"}, "")
	res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: 1, Acknowledge: true, EvaluateFeedback: true}, 10*time.Second)
	st := res.st

	for _, r := range srv.Requests() {
		if r.Model != "claude-test-1" || r.Header.Get("X-Api-Key") != "sk-test" || r.Header.Get("Anthropic-Version") != "2023-06-01" {
			t.Fatalf("%s request: model %q, key %q, version %q", r.Step, r.Model, r.Header.Get("X-Api-Key"), r.Header.Get("Anthropic-Version"))
		}
	}
	plan := srv.Of(agent.StepPlan)
	if len(plan) != 1 || !strings.Contains(plan[0].System, "Reply with one JSON object") || !strings.Contains(plan[0].User, `"Any k8s workshops?"`) {
		t.Fatalf("plan request: %+v", plan)
	}
	refl := srv.Of(agent.StepReflect)
	if len(refl) != 1 || !strings.Contains(refl[0].User, `"term":"k8s"`) || !strings.Contains(refl[0].User, "already_tried") {
		t.Fatalf("reflect request lacks its evidence: %+v", refl)
	}
	if resp := srv.Of(agent.StepRespond); len(resp) != 1 || !resp[0].Stream {
		t.Fatalf("the answer was not streamed: %+v", resp)
	}

	if st.PlanSource != agent.FromModel || len(st.Reflections) != 1 || st.Reflections[0].Source != agent.FromModel {
		t.Fatalf("plan from %s, reflections %+v", st.PlanSource, st.Reflections)
	}
	th := res.thinking() // the acknowledgment is the first thinking record
	if len(th) != 2 || th[0].Strategy != agent.Acknowledge || th[1].Strategy != agent.Rewrite || !strings.Contains(th[1].Message, "Kubernetes") || th[1].RetryCount != 1 {
		t.Fatalf("thinking = %+v", th)
	}
	text, ans, _ := res.streamed()
	if text != st.ResponseText || ans.Text != text || !strings.Contains(text, "[sessions/s010]") || strings.Contains(text, "s999") {
		t.Fatalf("streamed %q, final %q", text, st.ResponseText)
	}
	if len(st.Citations) != 1 || st.Citations[0].Key() != "sessions/s010" {
		t.Fatalf("citations %+v", st.Citations)
	}
	if st.Evaluation == nil || st.Evaluation.QualityScore != 0.9 || st.Regenerated || st.Acknowledgment == "" {
		t.Fatalf("evaluation %+v, ack %q", st.Evaluation, st.Acknowledgment)
	}
	for _, c := range st.ModelCalls {
		if c.Model != "anthropic:claude-test-1" || c.PromptVersion != 1 || c.Usage.InputTokens == 0 || c.Usage.OutputTokens == 0 || c.Failed != "" {
			t.Fatalf("model call %+v lacks model, prompt version or tokens", c)
		}
	}
}

// TestOpenAITurnWithPivot drives a turn through langchaingo's OpenAI client
// against a Chat Completions server: JSON mode for structured steps, a pivot
// from speakers to exhibitors, and an answer streamed as chunks.
func TestOpenAITurnWithPivot(t *testing.T) {
	srv := llmtest.NewOpenAI(t)
	srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"find people for on-premises deployment","queries":[{"table":"speakers","search_mode":"faceted","query_text":"ML hosting vendor on-prem","limit":10}]}`})
	srv.Script(agent.StepReflect, llmtest.Reply{Text: `{"reasoning":"a vendor need, not a person","strategy":"pivot","user_message":"No speaker covers this directly; the exhibitors offering model hosting look like a better fit, let me check them.","new_queries":[{"table":"exhibitors","search_mode":"faceted","query_text":"serving machine learning models on-premises inside your own data centre","limit":10}]}`})
	srv.Script(agent.StepRespond, llmtest.Reply{Text: "Visit Harbourline Inference (Booth A-01) [exhibitors/e001]."})
	h := newHarness(t, "openai:gpt-test", llm.Config{OpenAIKey: "sk-openai", OpenAIBaseURL: srv.URL + "/v1"}, "")
	res := h.ask(t, "Who can help me deploy ML models on-prem?", agent.Options{MaxRetries: 1}, 10*time.Second)

	for _, r := range srv.Requests() {
		if r.Model != "gpt-test" || r.Header.Get("Authorization") != "Bearer sk-openai" {
			t.Fatalf("%s request: model %q auth %q", r.Step, r.Model, r.Header.Get("Authorization"))
		}
		wantJSON := r.Step == agent.StepPlan || r.Step == agent.StepReflect
		if r.JSONMode != wantJSON {
			t.Fatalf("%s request: JSON mode %v", r.Step, r.JSONMode)
		}
	}
	if resp := srv.Of(agent.StepRespond); len(resp) != 1 || !resp[0].Stream {
		t.Fatal("the answer was not streamed")
	}
	st := res.st
	th := res.thinking()
	if len(th) != 1 || th[0].Strategy != agent.Pivot || th[0].Source != agent.FromModel || !strings.Contains(th[0].Message, "exhibitors") {
		t.Fatalf("thinking = %+v", th)
	}
	if q := st.PlannedQueries; len(q) != 1 || q[0].Table != "exhibitors" {
		t.Fatalf("plan after pivot: %+v", q)
	}
	text, _, _ := res.streamed()
	if text != st.ResponseText || len(st.Citations) != 1 || st.Citations[0].Key() != "exhibitors/e001" {
		t.Fatalf("answer %q (streamed %q), citations %+v", st.ResponseText, text, st.Citations)
	}
}

// TestOllamaTurn drives a turn through langchaingo's Ollama client.
func TestOllamaTurn(t *testing.T) {
	srv := llmtest.NewOllama(t)
	srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"retrieval-augmented generation","limit":10}]}`})
	srv.Script(agent.StepRespond, llmtest.Reply{Text: "Try Retrieval-Augmented Generation over Messy Enterprise Documents [sessions/s006]."})
	h := newHarness(t, "ollama:llama-test", llm.Config{OllamaURL: srv.URL}, "")
	res := h.ask(t, "Sessions on RAG?", agent.Options{MaxRetries: -1}, 10*time.Second)
	plan := srv.Of(agent.StepPlan)
	if len(plan) != 1 || plan[0].Model != "llama-test" || !plan[0].JSONMode {
		t.Fatalf("plan request: %+v", plan)
	}
	if resp := srv.Of(agent.StepRespond); len(resp) != 1 || !resp[0].Stream {
		t.Fatal("the answer was not streamed")
	}
	text, _, _ := res.streamed()
	if res.st.PlanSource != agent.FromModel || text != res.st.ResponseText || len(res.st.Citations) != 1 {
		t.Fatalf("plan from %s, answer %q, citations %+v", res.st.PlanSource, res.st.ResponseText, res.st.Citations)
	}
}
