package llm_test

import (
	"strings"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

func TestPoorAnswerIsRegeneratedOnce(t *testing.T) {
	srv, h := anthropicHarness(t)
	srv.Script(agent.StepPlan, llmtest.Reply{Text: planK8s})
	srv.Script(agent.StepReflect, llmtest.Reply{Text: rewriteK8})
	srv.Script(agent.StepRespond, llmtest.Reply{Text: "I could not find anything."}, llmtest.Reply{Text: answerK8s})
	srv.Script(agent.StepEval, llmtest.Reply{Text: `{"quality_score":0.2,"confidence_score":0.9,"issues":["ignores a matching workshop"],"improvement_hint":"Recommend the Kubernetes workshop [sessions/s010]."}`},
		llmtest.Reply{Text: `{"quality_score":0.1,"confidence_score":0.9,"issues":[],"improvement_hint":"again"}`})
	res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: 1, EvaluateFeedback: true}, 10*time.Second)
	st := res.st
	resp := srv.Of(agent.StepRespond)
	require.Len(t, resp, 2, "answer requests")
	require.Contains(t, resp[1].System, "Recommend the Kubernetes workshop", "second answer request lacks the hint")
	require.Contains(t, resp[1].User, "I could not find anything.", "second answer request lacks the previous answer")
	require.Len(t, srv.Of(agent.StepEval), 1, "evaluations: the regenerated answer is not evaluated again and never regenerated twice")
	th := res.thinking()
	require.Len(t, th, 2, "thinking = %+v, want a regenerate record", th)
	require.Equal(t, agent.Regenerate, th[1].Strategy, "thinking = %+v, want a regenerate record", th)
	text, ans, resets := res.streamed()
	require.Equal(t, 1, resets, "resets, want one before the regenerated answer")
	require.Equal(t, st.ResponseText, text, "streamed vs final: answers mixed")
	require.Equal(t, st.ResponseText, ans.Text, "answer event vs final: answers mixed")
	require.NotContains(t, text, "could not find", "answers mixed")
	require.True(t, st.Regenerated, "not regenerated")
	assert.Equal(t, 0.2, st.Evaluation.QualityScore, "evaluation recorded: %+v", st.Evaluation)
}

// TestCallBudgetIsEnforced makes every structured reply invalid, so each
// step wants a repair; the turn still makes at most six calls to the model.
func TestCallBudgetIsEnforced(t *testing.T) {
	srv, h := anthropicHarness(t)
	srv.Default = func(s agent.Step) llmtest.Reply {
		if s == agent.StepRespond || s == agent.StepAck {
			return llmtest.Reply{Text: "Here you go [sessions/s010]."}
		}
		return llmtest.Reply{Text: "not json at all"}
	}
	res := h.ask(t, "Any k8s workshops?", agent.Options{Acknowledge: true, EvaluateFeedback: true}, 10*time.Second)
	calls := 0
	for _, c := range res.st.ModelCalls {
		if !c.Fallback {
			calls++
		}
	}
	require.LessOrEqual(t, len(srv.Requests()), agent.DefaultBudget, "requests over the budget")
	require.LessOrEqual(t, calls, agent.DefaultBudget, "model calls over the budget")
	assert.Equal(t, agent.FromModel, res.st.ResponseSource, "the answer lost its reserved call")
}

// TestRuntimeChangesApplyNextTurnAndSurviveRestart replaces the plan prompt
// and the answer's model through the registries, checks the next turn uses
// both, then reopens the registries from disk.
func TestRuntimeChangesApplyNextTurnAndSurviveRestart(t *testing.T) {
	anth := llmtest.NewAnthropic(t)
	oai := llmtest.NewOpenAI(t)
	cfg := llm.Config{AnthropicKey: "k", AnthropicBaseURL: anth.URL + "/v1", OpenAIKey: "k2", OpenAIBaseURL: oai.URL + "/v1"}
	for _, s := range []*llmtest.Server{anth, oai} {
		s.Default = func(step agent.Step) llmtest.Reply {
			if step == agent.StepRespond {
				return llmtest.Reply{Text: "See [sessions/s010]."}
			}
			return llmtest.Reply{Text: planK8s}
		}
	}
	h := newHarness(t, "anthropic:claude-test-1", cfg, "")
	newPlan := strings.Replace(mustPrompt(t, h, agent.StepPlan), "You plan searches for a conference assistant.", "You plan searches for a conference assistant. Prefer workshops.", 1)
	_, err := h.prompts.Set(agent.StepPlan, newPlan)
	require.NoError(t, err)
	_, err = h.router.SetModel(agent.StepRespond, "openai:gpt-answer")
	require.NoError(t, err)
	_, err = h.router.SetModel(agent.StepRespond, "anthropic")
	require.Error(t, err, "a model without a name was accepted")
	check := func(h *harness) {
		t.Helper()
		res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: -1}, 10*time.Second)
		plans := anth.Of(agent.StepPlan)
		last := plans[len(plans)-1]
		require.Contains(t, last.System, "Prefer workshops.", "the plan request does not use the new prompt")
		answers := oai.Of(agent.StepRespond)
		require.NotEmpty(t, answers, "the answer did not go to the new model")
		require.Equal(t, "gpt-answer", answers[len(answers)-1].Model, "the answer did not go to the new model")
		for _, c := range res.st.ModelCalls {
			want := map[agent.Step]string{agent.StepPlan: "anthropic:claude-test-1", agent.StepRespond: "openai:gpt-answer"}[c.Step]
			require.Equal(t, want, c.Model, "trace: %+v", c)
			if c.Step == agent.StepPlan {
				require.Equal(t, 2, c.PromptVersion, "trace: %+v", c)
			}
		}
	}
	check(h)
	check(newHarness(t, "anthropic:claude-test-1", cfg, h.dir)) // a restart: registries read back from disk
}

func mustPrompt(t *testing.T, h *harness, s agent.Step) string {
	t.Helper()
	p, err := h.prompts.Get(s)
	require.NoError(t, err)
	return p.Value
}

func TestRouterRejectsModelsWithoutCredentials(t *testing.T) {
	h := newHarness(t, "builtin", llm.Config{}, "")
	_, err := h.router.SetModel(agent.StepPlan, "anthropic:claude-x")
	require.Error(t, err)
	require.Contains(t, err.Error(), "ANTHROPIC_API_KEY")
	_, err = h.router.SetModel(agent.StepPlan, "mystery:model")
	require.Error(t, err, "unknown provider accepted")
	e, _ := h.router.Model(agent.StepPlan)
	assert.Equal(t, "builtin", e.Value, "a rejected change changed the model: %+v", e)
	assert.Equal(t, 1, e.Version, "a rejected change changed the model: %+v", e)
}
