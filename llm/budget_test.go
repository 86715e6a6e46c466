package llm_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// wire is one provider's wire format: its fake server and a configuration
// pointing a client at it.
type wire struct {
	name  string
	model string
	start func(testing.TB) *llmtest.Server
	cfg   func(url string) llm.Config
}

var wires = []wire{
	{"anthropic", "anthropic:claude-test-1", llmtest.NewAnthropic, func(u string) llm.Config {
		return llm.Config{AnthropicKey: "sk-test", AnthropicBaseURL: u + "/v1"}
	}},
	{"openai", "openai:gpt-test", llmtest.NewOpenAI, func(u string) llm.Config { return llm.Config{OpenAIKey: "k", OpenAIBaseURL: u + "/v1"} }},
}

// eachWire runs a test against every wire format; tune adjusts the
// configuration.
func eachWire(t *testing.T, tune func(*llm.Config), test func(t *testing.T, srv *llmtest.Server, h *harness)) {
	for _, w := range wires {
		t.Run(w.name, func(t *testing.T) {
			srv := w.start(t)
			cfg := w.cfg(srv.URL)
			tune(&cfg)
			test(t, srv, newHarness(t, w.model, cfg, ""))
		})
	}
}

var planCall = agent.Call{Step: agent.StepPlan, Plan: &agent.PlanInput{Message: "Any k8s workshops?", Topic: "k8s workshops", Conference: demo, MaxQueries: 3, MaxLimit: 10}}

// respondCall is an answer call whose stream appends to the returned text.
func respondCall() (agent.Call, func() string) {
	var mu sync.Mutex
	var b strings.Builder
	call := agent.Call{Step: agent.StepRespond, Respond: &agent.RespondInput{Message: "Any k8s workshops?", Conference: demo, Intent: "find workshops"},
		Stream: func(s string) { mu.Lock(); b.WriteString(s); mu.Unlock() }}
	return call, func() string { mu.Lock(); defer mu.Unlock(); return b.String() }
}

// llmError asserts that err is an *llm.Error of class c.
func llmError(t *testing.T, err error, c llm.Class) *llm.Error {
	t.Helper()
	var e *llm.Error
	require.ErrorAs(t, err, &e, "want an *llm.Error of class %s", c)
	require.Equal(t, c, e.Class, "err = %v, want an *llm.Error of class %s", err, c)
	return e
}

func timed(t *testing.T, h *harness, call agent.Call) (time.Duration, error) {
	t.Helper()
	start := time.Now()
	_, err := h.router.Complete(context.Background(), call)
	return time.Since(start), err
}

func TestHungCallTimesOutWithinCallTimeout(t *testing.T) {
	const timeout = 100 * time.Millisecond
	eachWire(t, func(c *llm.Config) { c.CallTimeout = timeout }, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, llmtest.Reply{Hang: true})
		took, err := timed(t, h, planCall)
		e := llmError(t, err, llm.Timeout)
		require.LessOrEqual(t, took, 10*timeout, "the call took too long with a call timeout of %v", timeout)
		require.True(t, e.Permanent(), "%v: want a permanent error naming the call timeout", e)
		require.Contains(t, e.Error(), "call timeout", "want a permanent error naming the call timeout")
		assert.Len(t, srv.Requests(), 1, "requests: a call out of time is not retried")
	})
}

// The call timeout bounds the call with its retries, not each attempt.
func TestCallTimeoutCoversRetries(t *testing.T) {
	const timeout = 300 * time.Millisecond
	srv := llmtest.NewAnthropic(t)
	h := newHarness(t, "anthropic:claude-test-1", llm.Config{AnthropicKey: "k", AnthropicBaseURL: srv.URL + "/v1", CallTimeout: timeout}, "")
	srv.Script(agent.StepPlan, llmtest.Reply{Text: planK8s, Delay: 100 * time.Millisecond, Status: 503}, llmtest.Reply{Hang: true})
	took, err := timed(t, h, planCall)
	llmError(t, err, llm.Timeout)
	assert.Len(t, srv.Requests(), 2, "requests in %v: want the 503, one retry cut by the call timeout", took)
	assert.LessOrEqual(t, took, 10*timeout, "want the 503, one retry cut by the call timeout")
}

func TestIdleStreamTimesOutAfterItsFirstChunk(t *testing.T) {
	const idle = 100 * time.Millisecond
	eachWire(t, func(c *llm.Config) { c.CallTimeout, c.StreamIdleTimeout = 5*time.Second, idle }, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepRespond, llmtest.Reply{Text: answerK8s, Stall: true, StallAfter: 1})
		call, streamed := respondCall()
		took, err := timed(t, h, call)
		e := llmError(t, err, llm.Timeout)
		require.Contains(t, e.Error(), "stream went idle", "want a permanent error saying the stream went idle")
		require.True(t, e.Permanent(), "%v: want a permanent error saying the stream went idle", e)
		got := streamed()
		require.NotEmpty(t, got, "streamed nothing: want the first chunk of the answer only")
		require.True(t, strings.HasPrefix(answerK8s, got), "streamed %q: want the first chunk of the answer only", got)
		require.Less(t, len(got), len(answerK8s), "streamed %q: want the first chunk of the answer only", got)
		assert.GreaterOrEqual(t, took, idle, "the call took too little with an idle timeout of %v", idle)
		assert.LessOrEqual(t, took, 10*idle, "the call took too long with an idle timeout of %v", idle)
	})
}

// A stream that keeps producing text outlives both the call timeout and
// the idle timeout.
func TestFlowingStreamOutlivesCallAndIdleTimeouts(t *testing.T) {
	const timeout, idle = 100 * time.Millisecond, 300 * time.Millisecond
	eachWire(t, func(c *llm.Config) { c.CallTimeout, c.StreamIdleTimeout = timeout, idle }, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepRespond, llmtest.Reply{Text: answerK8s, ChunkDelay: 25 * time.Millisecond}) // 19 chunks
		call, streamed := respondCall()
		took, err := timed(t, h, call)
		require.NoError(t, err)
		require.Equal(t, answerK8s, streamed(), "streamed")
		assert.GreaterOrEqual(t, took, idle, "the stream took too short to show anything")
	})
}

// A stream that never produces text ends at the call timeout, even with a
// longer idle timeout.
func TestSilentStreamTimesOutAtCallTimeout(t *testing.T) {
	const timeout = 100 * time.Millisecond
	eachWire(t, func(c *llm.Config) { c.CallTimeout, c.StreamIdleTimeout = timeout, time.Minute }, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepRespond, llmtest.Reply{Text: answerK8s, Stall: true})
		call, streamed := respondCall()
		took, err := timed(t, h, call)
		e := llmError(t, err, llm.Timeout)
		assert.Contains(t, e.Error(), "first chunk", "after %v", took)
		assert.Empty(t, streamed(), "streamed")
		assert.LessOrEqual(t, took, 10*timeout, "%v after too long", e)
	})
}

// A timeout is permanent for the turn: the agent stops calling the model and
// answers from its fallback long before the turn's deadline.
func TestHungModelFallsBackWithinCallTimeout(t *testing.T) {
	srv := llmtest.NewAnthropic(t)
	h := newHarness(t, "anthropic:claude-test-1", llm.Config{AnthropicKey: "k", AnthropicBaseURL: srv.URL + "/v1", CallTimeout: 100 * time.Millisecond}, "")
	srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Hang: true} }
	res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: 1}, 20*time.Second)
	require.Len(t, srv.Requests(), 1, "turn took %v: want one hung call, then the fallback", res.took)
	require.LessOrEqual(t, res.took, 5*time.Second, "turn took too long: want one hung call, then the fallback")
	assert.Equal(t, agent.FromFallbackModel, res.st.PlanSource, "plan source")
	assert.Equal(t, agent.FromFallbackModel, res.st.ResponseSource, "answer source")
}

// A stalled answer ends at the idle timeout: observers are told to drop
// the half-text, and the fallback answers well before the turn's deadline.
func TestStalledAnswerFallsBackWithAReset(t *testing.T) {
	eachWire(t, func(c *llm.Config) { c.StreamIdleTimeout = 150 * time.Millisecond }, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, llmtest.Reply{Text: `{"intent":"x","queries":[{"table":"sessions","query_text":"kubernetes workshops"}]}`})
		srv.Script(agent.StepRespond, llmtest.Reply{Text: "Half of an answer that never ends", Stall: true, StallAfter: 2})
		srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Text: "Looking into it."} }
		res := h.ask(t, "Any k8s workshops?", agent.Options{MaxRetries: -1}, 20*time.Second)
		text, answer, resets := res.streamed()
		require.Equal(t, 1, resets, "resets; answer from %s: %q", res.st.ResponseSource, text)
		require.Equal(t, agent.FromFallbackModel, res.st.ResponseSource, "answer source: %q", text)
		require.Equal(t, text, answer.Text, "answer text vs streamed")
		require.NotContains(t, text, "never ends", "streamed text")
		assert.LessOrEqual(t, res.took, 5*time.Second, "the turn took too long with a 150ms idle timeout")
	})
}
