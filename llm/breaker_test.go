package llm_test

import (
	"context"
	"net/http"
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

// clock is a breaker clock that tests move by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock { return &clock{t: time.Date(2026, 5, 12, 9, 0, 0, 0, time.UTC)} }

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// transitions records what the breakers' hook heard.
type transitions struct {
	mu   sync.Mutex
	seen []string
}

func (tr *transitions) hook(model, state string) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.seen = append(tr.seen, model+" "+state)
}

func (tr *transitions) states() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	var out []string
	for _, s := range tr.seen {
		out = append(out, s[strings.LastIndex(s, " ")+1:])
	}
	return out
}

// breakerConfig gives a configuration the test's clock and hook, and a
// call timeout shorter than any Retry-After the tests send, so that the
// transport gives up on those at once.
func breakerConfig(clk *clock, tr *transitions) func(*llm.Config) {
	return func(c *llm.Config) {
		c.Now, c.OnBreakerChange, c.CallTimeout = clk.Now, tr.hook, 5*time.Second
		c.Breaker.Cooldown = 10 * time.Second
	}
}

func rateLimited(retryAfter string) llmtest.Reply {
	return llmtest.Reply{Status: http.StatusTooManyRequests, Text: `{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}`,
		Header: http.Header{"Retry-After": {retryAfter}}}
}

var unavailable = llmtest.Reply{Status: http.StatusServiceUnavailable, Text: `{"error":{"message":"busy"}}`}

// onlyBreaker returns the router's one breaker.
func onlyBreaker(t *testing.T, h *harness) llm.BreakerState {
	t.Helper()
	bs := h.router.Breakers()
	require.Len(t, bs, 1, "breakers = %+v, want one", bs)
	return bs[0]
}

// refused asserts that a call is refused as cooling down without reaching
// the provider.
func refused(t *testing.T, srv *llmtest.Server, h *harness, want string) {
	t.Helper()
	before := len(srv.Requests())
	_, err := h.router.Complete(context.Background(), planCall)
	e := llmError(t, err, llm.Cooldown)
	require.True(t, e.Permanent(), "%v: want a permanent error saying %q", e, want)
	require.Contains(t, e.Error(), want, "want a permanent error saying %q", want)
	require.Len(t, srv.Requests(), before, "the provider got requests while the breaker was open")
}

func TestRetryAfterOpensBreakerUntilAProbeSucceeds(t *testing.T) {
	clk, tr := newClock(), &transitions{}
	eachWire(t, breakerConfig(clk, tr), func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, rateLimited("30"))
		_, err := h.router.Complete(context.Background(), planCall)
		e := llmError(t, err, llm.Transient)
		require.Equal(t, 429, e.Status, "%v: want the 429 and its Retry-After", e)
		require.Equal(t, 30*time.Second, e.RetryAfter, "%v: want the 429 and its Retry-After", e)
		until := clk.Now().Add(30 * time.Second)
		b := onlyBreaker(t, h)
		require.Equal(t, llm.BreakerOpen, b.State, "breaker %+v, want open until %v", b, until)
		require.True(t, b.OpenUntil.Equal(until), "breaker %+v, want open until %v", b, until)
		refused(t, srv, h, "open until "+until.Format(time.RFC3339))
		clk.Advance(29 * time.Second)
		refused(t, srv, h, "Retry-After 30s")
		clk.Advance(2 * time.Second)
		b = onlyBreaker(t, h)
		require.Equal(t, llm.BreakerHalfOpen, b.State, "breaker %+v after the cooldown, want half-open", b)
		probeAlone(t, srv, h)
		b = onlyBreaker(t, h)
		require.Equal(t, llm.BreakerClosed, b.State, "breaker %+v after a good probe, want closed", b)
		require.Zero(t, b.Failures, "breaker %+v after a good probe, want closed", b)
		srv.Script(agent.StepPlan, llmtest.Reply{Text: planK8s})
		_, err = h.router.Complete(context.Background(), planCall)
		require.NoError(t, err, "closed again, a call failed")
	})
	want := []string{"closed", "open", "half_open", "closed"}
	assert.Equal(t, append(want, want...), tr.states(), "the hook heard, want %v for each provider", want)
}

// probeAlone lets a slow probe through and checks that a call made while it
// is in flight is refused.
func probeAlone(t *testing.T, srv *llmtest.Server, h *harness) {
	t.Helper()
	srv.Script(agent.StepPlan, llmtest.Reply{Text: planK8s, Delay: 300 * time.Millisecond})
	before := len(srv.Requests())
	probe := make(chan error, 1)
	go func() { _, err := h.router.Complete(context.Background(), planCall); probe <- err }()
	require.Eventually(t, func() bool { return len(srv.Requests()) != before }, 5*time.Second, time.Millisecond,
		"the probe never reached the provider")
	refused(t, srv, h, "waiting for the probe")
	require.NoError(t, <-probe, "probe")
	require.Equal(t, 1, len(srv.Requests())-before, "requests while half-open, want the probe alone")
}

func TestFailedProbeReopensBreaker(t *testing.T) {
	clk, tr := newClock(), &transitions{}
	eachWire(t, breakerConfig(clk, tr), func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Script(agent.StepPlan, rateLimited("30"))
		h.router.Complete(context.Background(), planCall)
		clk.Advance(31 * time.Second)
		srv.Script(agent.StepPlan, unavailable, unavailable, unavailable)
		_, err := h.router.Complete(context.Background(), planCall)
		llmError(t, err, llm.Transient)
		until := clk.Now().Add(10 * time.Second) // the policy's cooldown
		b := onlyBreaker(t, h)
		require.Equal(t, llm.BreakerOpen, b.State, "breaker %+v after a failed probe, want open until %v", b, until)
		require.True(t, b.OpenUntil.Equal(until), "breaker %+v after a failed probe, want open until %v", b, until)
		refused(t, srv, h, "HTTP 503")
	})
	want := []string{"closed", "open", "half_open", "open"}
	assert.Equal(t, append(want, want...), tr.states(), "the hook heard, want %v for each provider", want)
}

func TestConsecutiveServerErrorsOpenBreaker(t *testing.T) {
	clk := newClock()
	eachWire(t, breakerConfig(clk, &transitions{}), func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Default = func(agent.Step) llmtest.Reply { return unavailable }
		for i := 1; i <= 3; i++ {
			_, err := h.router.Complete(context.Background(), planCall)
			llmError(t, err, llm.Transient)
			b := onlyBreaker(t, h)
			require.Equal(t, i, b.Failures, "after %d failed calls: %+v", i, b)
			require.Equal(t, i == 3, b.State == llm.BreakerOpen, "after %d failed calls: %+v", i, b)
		}
		b := onlyBreaker(t, h)
		require.True(t, b.OpenUntil.Equal(clk.Now().Add(10*time.Second)), "breaker %+v: want open for the policy's cooldown", b)
		refused(t, srv, h, "3 consecutive failed calls")
	})
}

// Only consecutive failures count: a success in between starts again.
func TestBreakerCountsOnlyConsecutiveFailures(t *testing.T) {
	eachWire(t, breakerConfig(newClock(), &transitions{}), func(t *testing.T, srv *llmtest.Server, h *harness) {
		failing := []llmtest.Reply{unavailable, unavailable, unavailable} // one call's three attempts
		for _, r := range [][]llmtest.Reply{failing, failing, {{Text: planK8s}}, failing, failing} {
			srv.Script(agent.StepPlan, r...)
		}
		for range 5 {
			h.router.Complete(context.Background(), planCall)
		}
		b := onlyBreaker(t, h)
		assert.Equal(t, llm.BreakerClosed, b.State, "after fail, fail, succeed, fail, fail: %+v", b)
		assert.Equal(t, 2, b.Failures, "after fail, fail, succeed, fail, fail: %+v", b)
		assert.Len(t, srv.Requests(), 13, "after fail, fail, succeed, fail, fail: requests")
	})
}

// Calls that hang until the call timeout count as failures; calls cut by
// the caller's own deadline do not, since the turn's time may just have
// been short.
func TestOnlyTheCallsOwnTimeoutsOpenBreaker(t *testing.T) {
	tune := func(c *llm.Config) { c.Now, c.CallTimeout = newClock().Now, 50*time.Millisecond }
	eachWire(t, tune, func(t *testing.T, srv *llmtest.Server, h *harness) {
		srv.Default = func(agent.Step) llmtest.Reply { return llmtest.Reply{Hang: true} }
		for range 3 {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			_, err := h.router.Complete(ctx, planCall)
			cancel()
			llmError(t, err, llm.Timeout)
		}
		b := onlyBreaker(t, h)
		require.Equal(t, llm.BreakerClosed, b.State, "after three calls cut by the caller: %+v", b)
		require.Zero(t, b.Failures, "after three calls cut by the caller: %+v", b)
		for range 3 {
			timed(t, h, planCall)
		}
		b = onlyBreaker(t, h)
		require.Equal(t, llm.BreakerOpen, b.State, "after three hung calls: %+v", b)
		refused(t, srv, h, "call timeout")
	})
}

// A 429 without Retry-After counts as one failure; it does not open the
// breaker alone.
func TestBreakerCountsABareRateLimitAsAFailure(t *testing.T) {
	eachWire(t, breakerConfig(newClock(), &transitions{}), func(t *testing.T, srv *llmtest.Server, h *harness) {
		bare := rateLimited("")
		bare.Header = nil
		srv.Script(agent.StepPlan, bare, bare, bare)
		h.router.Complete(context.Background(), planCall)
		b := onlyBreaker(t, h)
		assert.Equal(t, llm.BreakerClosed, b.State, "after a bare 429: %+v", b)
		assert.Equal(t, 1, b.Failures, "after a bare 429: %+v", b)
	})
}

// Breakers lists one breaker per provider model, sorted, and none for the
// builtin rules.
func TestRouterReportsEachModelsBreaker(t *testing.T) {
	anth, oai := llmtest.NewAnthropic(t), llmtest.NewOpenAI(t)
	cfg := llm.Config{AnthropicKey: "k", AnthropicBaseURL: anth.URL + "/v1", OpenAIKey: "k", OpenAIBaseURL: oai.URL + "/v1",
		Now: newClock().Now, CallTimeout: 5 * time.Second}
	h := newHarness(t, "anthropic:claude-test-1", cfg, "")
	require.Empty(t, h.router.Breakers(), "breakers before any call")
	oai.Script(agent.StepRespond, rateLimited("30"))
	anth.Script(agent.StepPlan, llmtest.Reply{Text: planK8s})
	_, err := h.router.SetModel(agent.StepRespond, "openai:gpt-answer")
	require.NoError(t, err)
	call, _ := respondCall()
	h.router.Complete(context.Background(), planCall)
	h.router.Complete(context.Background(), call)
	_, err = h.router.SetModel(agent.StepPlan, "builtin")
	require.NoError(t, err)
	_, err = h.router.Complete(context.Background(), planCall)
	require.NoError(t, err, "builtin plan")
	bs := h.router.Breakers()
	require.Len(t, bs, 2, "breakers = %+v", bs)
	assert.Equal(t, "anthropic:claude-test-1", bs[0].Model, "breakers = %+v", bs)
	assert.Equal(t, llm.BreakerClosed, bs[0].State, "breakers = %+v", bs)
	assert.Equal(t, "openai:gpt-answer", bs[1].Model, "breakers = %+v", bs)
	assert.Equal(t, llm.BreakerOpen, bs[1].State, "breakers = %+v", bs)
	assert.Equal(t, 1, bs[1].Failures, "breakers = %+v", bs)
}

// A call waiting to retry gives up once another call opened the breaker:
// its retry would only delay its fallback.
func TestRetriesStopOnceTheBreakerOpens(t *testing.T) {
	eachWire(t, breakerConfig(newClock(), &transitions{}), func(t *testing.T, srv *llmtest.Server, h *harness) {
		slow := unavailable
		slow.Delay = 300 * time.Millisecond
		srv.Script(agent.StepPlan, slow, rateLimited("30"))
		first := make(chan error, 1)
		go func() { _, err := h.router.Complete(context.Background(), planCall); first <- err }()
		require.Eventually(t, func() bool { return len(srv.Requests()) != 0 }, 5*time.Second, time.Millisecond,
			"the first call never reached the provider")
		h.router.Complete(context.Background(), planCall) // the 429 opens the breaker
		e := llmError(t, <-first, llm.Transient)
		require.Equal(t, 1, e.Attempts, "%v: want the 503 alone, not retried", e)
		require.Equal(t, 503, e.Status, "%v: want the 503 alone, not retried", e)
		assert.Len(t, srv.Requests(), 2, "requests: want the 503 and the 429")
	})
}
