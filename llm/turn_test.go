package llm_test

import (
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		require.Equal(t, "claude-test-1", r.Model, "%s request: model", r.Step)
		require.Equal(t, "sk-test", r.Header.Get("X-Api-Key"), "%s request: key", r.Step)
		require.Equal(t, "2023-06-01", r.Header.Get("Anthropic-Version"), "%s request: version", r.Step)
	}
	plan := srv.Of(agent.StepPlan)
	require.Len(t, plan, 1, "plan request: %+v", plan)
	require.Contains(t, plan[0].System, "Reply with one JSON object", "plan request")
	require.Contains(t, plan[0].User, `"Any k8s workshops?"`, "plan request")
	refl := srv.Of(agent.StepReflect)
	require.Len(t, refl, 1, "reflect request lacks its evidence: %+v", refl)
	require.Contains(t, refl[0].User, `"term":"k8s"`, "reflect request lacks its evidence")
	require.Contains(t, refl[0].User, "already_tried", "reflect request lacks its evidence")
	resp := srv.Of(agent.StepRespond)
	require.Len(t, resp, 1, "the answer was not streamed: %+v", resp)
	require.True(t, resp[0].Stream, "the answer was not streamed: %+v", resp)

	require.Equal(t, agent.FromModel, st.PlanSource, "plan source; reflections %+v", st.Reflections)
	require.Len(t, st.Reflections, 1, "reflections %+v", st.Reflections)
	require.Equal(t, agent.FromModel, st.Reflections[0].Source, "reflections %+v", st.Reflections)
	th := res.thinking() // the acknowledgment is the first thinking record
	require.Len(t, th, 2, "thinking = %+v", th)
	require.Equal(t, agent.Acknowledge, th[0].Strategy, "thinking = %+v", th)
	require.Equal(t, agent.Rewrite, th[1].Strategy, "thinking = %+v", th)
	require.Contains(t, th[1].Message, "Kubernetes", "thinking = %+v", th)
	require.Equal(t, 1, th[1].RetryCount, "thinking = %+v", th)
	text, ans, _ := res.streamed()
	require.Equal(t, st.ResponseText, text, "streamed vs final")
	require.Equal(t, text, ans.Text, "answer event vs streamed")
	require.Contains(t, text, "[sessions/s010]", "streamed")
	require.NotContains(t, text, "s999", "streamed")
	require.Len(t, st.Citations, 1, "citations %+v", st.Citations)
	require.Equal(t, "sessions/s010", st.Citations[0].Key(), "citations %+v", st.Citations)
	require.NotNil(t, st.Evaluation, "evaluation; ack %q", st.Acknowledgment)
	require.Equal(t, 0.9, st.Evaluation.QualityScore, "evaluation %+v", st.Evaluation)
	require.False(t, st.Regenerated, "regenerated")
	require.NotEmpty(t, st.Acknowledgment, "ack")
	require.NotEmpty(t, st.ModelCalls, "model calls")
	for _, c := range st.ModelCalls {
		assert.Equal(t, "anthropic:claude-test-1", c.Model, "model call %+v lacks model, prompt version or tokens", c)
		assert.Equal(t, 1, c.PromptVersion, "model call %+v lacks model, prompt version or tokens", c)
		assert.NotZero(t, c.Usage.InputTokens, "model call %+v lacks model, prompt version or tokens", c)
		assert.NotZero(t, c.Usage.OutputTokens, "model call %+v lacks model, prompt version or tokens", c)
		assert.Empty(t, c.Failed, "model call %+v lacks model, prompt version or tokens", c)
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
		require.Equal(t, "gpt-test", r.Model, "%s request: model", r.Step)
		require.Equal(t, "Bearer sk-openai", r.Header.Get("Authorization"), "%s request: auth", r.Step)
		wantJSON := r.Step == agent.StepPlan || r.Step == agent.StepReflect
		require.Equal(t, wantJSON, r.JSONMode, "%s request: JSON mode", r.Step)
	}
	resp := srv.Of(agent.StepRespond)
	require.Len(t, resp, 1, "the answer was not streamed")
	require.True(t, resp[0].Stream, "the answer was not streamed")
	st := res.st
	th := res.thinking()
	require.Len(t, th, 1, "thinking = %+v", th)
	require.Equal(t, agent.Pivot, th[0].Strategy, "thinking = %+v", th)
	require.Equal(t, agent.FromModel, th[0].Source, "thinking = %+v", th)
	require.Contains(t, th[0].Message, "exhibitors", "thinking = %+v", th)
	q := st.PlannedQueries
	require.Len(t, q, 1, "plan after pivot: %+v", q)
	require.EqualValues(t, "exhibitors", q[0].Table, "plan after pivot: %+v", q)
	text, _, _ := res.streamed()
	assert.Equal(t, st.ResponseText, text, "answer vs streamed")
	if assert.Len(t, st.Citations, 1, "citations %+v", st.Citations) {
		assert.Equal(t, "exhibitors/e001", st.Citations[0].Key(), "citations %+v", st.Citations)
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
	require.Len(t, plan, 1, "plan request: %+v", plan)
	require.Equal(t, "llama-test", plan[0].Model, "plan request: %+v", plan)
	require.True(t, plan[0].JSONMode, "plan request: %+v", plan)
	resp := srv.Of(agent.StepRespond)
	require.Len(t, resp, 1, "the answer was not streamed")
	require.True(t, resp[0].Stream, "the answer was not streamed")
	text, _, _ := res.streamed()
	assert.Equal(t, agent.FromModel, res.st.PlanSource, "plan source")
	assert.Equal(t, res.st.ResponseText, text, "answer vs streamed")
	assert.Len(t, res.st.Citations, 1, "citations %+v", res.st.Citations)
}
