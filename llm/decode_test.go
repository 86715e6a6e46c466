package llm_test

import (
	"fmt"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
		require.Equal(t, agent.FromModel, res.st.PlanSource, "plan source")
		require.Len(t, srv.Of(agent.StepPlan), 1, "plan calls")
		require.Empty(t, res.st.Rejections, "rejections")
		assert.Equal(t, "[{plan_queries [queries[0].relaxation query_mode]}]", fmt.Sprint(res.st.IgnoredKeys), "ignored keys")
	})
	eachWire(t, func(*llm.Config) {}, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"workshops","query_text":"kubernetes"}]}`},
			llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","query_text":"kubernetes"}]}`})
		srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "See [sessions/s012]."} }
		res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: -1}, 10*time.Second)
		r := res.st.Rejections
		require.Equal(t, agent.FromRepair, res.st.PlanSource, "plan source; rejections %+v", r)
		require.Len(t, r, 1, "rejections %+v; want one tables_and_modes refusal, then the repair", r)
		assert.Equal(t, agent.StepPlan, r[0].Step, "rejections %+v; want one tables_and_modes refusal, then the repair", r)
		assert.Equal(t, agent.CheckTables, r[0].Check, "rejections %+v; want one tables_and_modes refusal, then the repair", r)
		assert.NotEmpty(t, r[0].Model, "rejections %+v; want one tables_and_modes refusal, then the repair", r)
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
			require.NotContains(t, text, bad, "%q reached the attendee through the stream", bad)
			require.NotContains(t, answer.Text, bad, "%q reached the attendee through the answer", bad)
		}
		assert.Contains(t, answer.Text, "[sessions/s006]", "answer")
		assert.Len(t, res.st.RemovedURLs, 1, "removed URLs")
		assert.Len(t, res.st.DroppedCitations, 1, "dropped citations")
	})
}
