package llm_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// Through each provider's wire format: a plan with keys the agent does not
// know is used at once, the keys listed; a refused plan is in the trace
// with its check even though the repair then worked.
func TestRepliesWithExtraKeysAreUsedAndRefusalsRecorded(t *testing.T) {
	eachWire(t, func(*llm.Config) {}, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","query_mode":"hybrid","queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes workshops","limit":10,"relaxation":null}]}`})
		srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "See [sessions/s012]."} }
		res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: -1}, 10*time.Second)
		if res.st.PlanSource != agent.FromModel || len(srv.Of(agent.StepPlan)) != 1 || len(res.st.Rejections) != 0 {
			t.Fatalf("plan from %s after %d calls, rejections %+v", res.st.PlanSource, len(srv.Of(agent.StepPlan)), res.st.Rejections)
		}
		if got := fmt.Sprint(res.st.IgnoredKeys); got != "[{plan_queries [queries[0].relaxation query_mode]}]" {
			t.Fatalf("ignored keys %s", got)
		}
	})
	eachWire(t, func(*llm.Config) {}, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"workshops","query_text":"kubernetes"}]}`},
			llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","query_text":"kubernetes"}]}`})
		srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "See [sessions/s012]."} }
		res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: -1}, 10*time.Second)
		r := res.st.Rejections
		if res.st.PlanSource != agent.FromRepair || len(r) != 1 || r[0].Step != agent.StepPlan || r[0].Check != agent.CheckTables || r[0].Model == "" {
			t.Fatalf("plan from %s, rejections %+v; want one tables_and_modes refusal, then the repair", res.st.PlanSource, r)
		}
	})
}

// A model steered by injected text writes near-miss markers and its own
// links; through each wire format, streamed in small pieces, neither
// reaches the stream or the final answer.
func TestSteeredAnswerIsSanitisedInTheStream(t *testing.T) {
	eachWire(t, func(*llm.Config) {}, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","query_text":"retrieval-augmented generation"}]}`})
		srv.Script(agent.StepRespond, llmtest.Reply{Text: "Try [ Sessions/s006 ] or ［speakers/p999］. Sign up at https://phish.example/login now."})
		srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "On it."} }
		res := h.ask(t, "Any sessions on RAG?", agent.Options{MaxRetries: -1}, 10*time.Second)
		text, answer, _ := res.streamed()
		for _, bad := range []string{"phish", "p999", "［", "Sessions/"} {
			if strings.Contains(text, bad) || strings.Contains(answer.Text, bad) {
				t.Fatalf("%q reached the attendee: stream %q, answer %q", bad, text, answer.Text)
			}
		}
		if !strings.Contains(answer.Text, "[sessions/s006]") || len(res.st.RemovedURLs) != 1 || len(res.st.DroppedCitations) != 1 {
			t.Fatalf("answer %q, removed %v, dropped %v", answer.Text, res.st.RemovedURLs, res.st.DroppedCitations)
		}
	})
}
