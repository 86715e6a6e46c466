package llm_test

import (
	"strings"
	"testing"
	"time"

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
	if len(resp) != 2 || !strings.Contains(resp[1].System, "Recommend the Kubernetes workshop") || !strings.Contains(resp[1].User, "I could not find anything.") {
		t.Fatalf("second answer request lacks the hint or the previous answer: %d requests", len(resp))
	}
	if n := len(srv.Of(agent.StepEval)); n != 1 {
		t.Fatalf("%d evaluations: the regenerated answer is not evaluated again and never regenerated twice", n)
	}
	th := res.thinking()
	if len(th) != 2 || th[1].Strategy != agent.Regenerate {
		t.Fatalf("thinking = %+v, want a regenerate record", th)
	}
	text, ans, resets := res.streamed()
	if resets != 1 {
		t.Fatalf("%d resets, want one before the regenerated answer", resets)
	}
	if text != st.ResponseText || ans.Text != st.ResponseText || strings.Contains(text, "could not find") || !st.Regenerated {
		t.Fatalf("final %q, streamed %q: answers mixed or not regenerated", st.ResponseText, text)
	}
	if st.Evaluation.QualityScore != 0.2 {
		t.Fatalf("evaluation recorded: %+v", st.Evaluation)
	}
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
	if n := len(srv.Requests()); n > agent.DefaultBudget || calls > agent.DefaultBudget {
		t.Fatalf("%d requests, %d model calls: over the budget of %d", n, calls, agent.DefaultBudget)
	}
	if res.st.ResponseSource != agent.FromModel {
		t.Fatalf("the answer lost its reserved call: from %s", res.st.ResponseSource)
	}
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
	if _, err := h.prompts.Set(agent.StepPlan, newPlan); err != nil {
		t.Fatal(err)
	}
	if _, err := h.router.SetModel(agent.StepRespond, "openai:gpt-answer"); err != nil {
		t.Fatal(err)
	}
	if _, err := h.router.SetModel(agent.StepRespond, "anthropic"); err == nil {
		t.Fatal("a model without a name was accepted")
	}
	check := func(h *harness) {
		t.Helper()
		res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: -1}, 10*time.Second)
		plans := anth.Of(agent.StepPlan)
		if last := plans[len(plans)-1]; !strings.Contains(last.System, "Prefer workshops.") {
			t.Fatal("the plan request does not use the new prompt")
		}
		answers := oai.Of(agent.StepRespond)
		if len(answers) == 0 || answers[len(answers)-1].Model != "gpt-answer" {
			t.Fatal("the answer did not go to the new model")
		}
		for _, c := range res.st.ModelCalls {
			want := map[agent.Step]string{agent.StepPlan: "anthropic:claude-test-1", agent.StepRespond: "openai:gpt-answer"}[c.Step]
			if c.Model != want || (c.Step == agent.StepPlan && c.PromptVersion != 2) {
				t.Fatalf("trace: %+v", c)
			}
		}
	}
	check(h)
	check(newHarness(t, "anthropic:claude-test-1", cfg, h.dir)) // a restart: registries read back from disk
}

func mustPrompt(t *testing.T, h *harness, s agent.Step) string {
	t.Helper()
	p, err := h.prompts.Get(s)
	if err != nil {
		t.Fatal(err)
	}
	return p.Value
}

func TestRouterRejectsModelsWithoutCredentials(t *testing.T) {
	h := newHarness(t, "builtin", llm.Config{}, "")
	if _, err := h.router.SetModel(agent.StepPlan, "anthropic:claude-x"); err == nil || !strings.Contains(err.Error(), "ANTHROPIC_API_KEY") {
		t.Fatalf("err = %v", err)
	}
	if _, err := h.router.SetModel(agent.StepPlan, "mystery:model"); err == nil {
		t.Fatal("unknown provider accepted")
	}
	if e, _ := h.router.Model(agent.StepPlan); e.Value != "builtin" || e.Version != 1 {
		t.Fatalf("a rejected change changed the model: %+v", e)
	}
}
