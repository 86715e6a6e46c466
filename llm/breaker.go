package llm

import (
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// BreakerPolicy says when a model's circuit breaker opens and for how long.
type BreakerPolicy struct {
	// Failures is how many consecutive failed calls open the breaker: 5xx,
	// 429 without Retry-After, transport errors, and calls that ran out of
	// the call or idle timeout. 3 when zero.
	Failures int
	// Cooldown is how long it then stays open; 30 s when zero.
	Cooldown time.Duration
	// MinRetryAfter is the shortest opening a Retry-After causes; 1 s when
	// zero.
	MinRetryAfter time.Duration
}

func (p BreakerPolicy) withDefaults() BreakerPolicy {
	if p.Failures <= 0 {
		p.Failures = 3
	}
	if p.Cooldown <= 0 {
		p.Cooldown = 30 * time.Second
	}
	if p.MinRetryAfter <= 0 {
		p.MinRetryAfter = time.Second
	}
	return p
}

// Breaker states.
const (
	BreakerClosed   = "closed"
	BreakerHalfOpen = "half_open"
	BreakerOpen     = "open"
)

// BreakerState is a model's circuit breaker as operators see it. OpenUntil
// is when the last opening ends (or ended), zero while closed.
type BreakerState struct {
	Model     string    `json:"model"`
	State     string    `json:"state"`
	OpenUntil time.Time `json:"open_until,omitzero"`
	Failures  int       `json:"consecutive_failures"`
}

// breaker keeps every turn away from a provider model that is down or asked
// for a pause, so that turns fall back at once instead of each spending its
// time budget on the same failure. Closed, it lets calls through and counts
// consecutive failures; open, it refuses them until a time; then half-open,
// it lets exactly one probe call through, whose outcome closes or re-opens
// it. The open → half-open change happens when the next call or snapshot
// looks, since nothing else needs it sooner.
type breaker struct {
	model    string
	policy   BreakerPolicy
	now      func() time.Time
	onChange func(model, state string)

	mu       sync.Mutex
	state    string
	until    time.Time
	reason   string
	failures int
	probing  bool // a half-open breaker's probe call is in flight
}

func newBreaker(model string, cfg Config) *breaker {
	b := &breaker{model: model, policy: cfg.Breaker.withDefaults(), now: cfg.Now, onChange: cfg.OnBreakerChange}
	if b.now == nil {
		b.now = time.Now
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.set(BreakerClosed) // the hook hears of every model from its first call
	return b
}

// admit lets a call through, or refuses it while the breaker is open or a
// probe is in flight. probe reports that this call is the half-open probe.
func (b *breaker) admit() (probe bool, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	switch {
	case b.state == BreakerClosed:
		return false, nil
	case b.state == BreakerHalfOpen && !b.probing:
		b.probing = true
		return true, nil
	case b.state == BreakerHalfOpen:
		return false, fmt.Errorf("circuit breaker half-open (was open until %s: %s): waiting for the probe call", stamp(b.until), b.reason)
	}
	return false, fmt.Errorf("circuit breaker open until %s: %s", stamp(b.until), b.reason)
}

// record learns from a call's outcome. While the breaker is not closed,
// only the probe counts: calls let through before it opened say nothing
// the opening did not.
func (b *breaker) record(probe bool, err error) {
	o := outcomeOf(err)
	b.mu.Lock()
	defer b.mu.Unlock()
	if probe {
		b.probing = false
	} else if b.state != BreakerClosed {
		return
	}
	switch o.kind {
	case succeeded:
		b.failures = 0
		b.set(BreakerClosed)
	case failed:
		b.failures++
		switch {
		case probe:
			b.open(b.policy.Cooldown, "the probe call "+o.what)
		case b.failures >= b.policy.Failures:
			b.open(b.policy.Cooldown, fmt.Sprintf("%d consecutive failed calls, the last %s", b.failures, o.what))
		}
	case rateLimited:
		b.failures++
		b.open(max(o.wait, b.policy.MinRetryAfter), fmt.Sprintf("%s with Retry-After %s", o.what, o.wait))
	}
}

func (b *breaker) open(d time.Duration, reason string) {
	b.until, b.reason = b.now().Add(d), reason
	b.set(BreakerOpen)
}

// settle moves an open breaker whose time is up to half-open.
func (b *breaker) settle() {
	if b.state == BreakerOpen && !b.now().Before(b.until) {
		b.set(BreakerHalfOpen)
	}
}

// set changes the state and tells the hook, under the lock so that the
// hook hears changes in order.
func (b *breaker) set(state string) {
	if b.state == state {
		return
	}
	b.state = state
	if b.onChange != nil {
		b.onChange(b.model, state)
	}
}

// isOpen reports whether calls are refused now (not counting a probe in
// flight).
func (b *breaker) isOpen() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	return b.state == BreakerOpen
}

func (b *breaker) snapshot() BreakerState {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.settle()
	st := BreakerState{Model: b.model, State: b.state, Failures: b.failures}
	if b.state != BreakerClosed {
		st.OpenUntil = b.until
	}
	return st
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

type outcomeKind int

const (
	neutral     outcomeKind = iota // says nothing about the provider's health
	succeeded                      // the provider answered
	failed                         // the provider is failing or hung
	rateLimited                    // the provider asked for a pause
)

type outcome struct {
	kind outcomeKind
	what string        // the failure, for operators
	wait time.Duration // the pause asked for
}

// outcomeOf sorts a call's result for the breaker. A 4xx, a reply that
// could not be used, a cancellation or a call cut by the caller's own
// deadline say nothing certain about the provider's health: the turn's
// deadline may simply have been near.
func outcomeOf(err error) outcome {
	var e *Error
	switch {
	case err == nil:
		return outcome{kind: succeeded}
	case !errors.As(err, &e):
		return outcome{}
	case e.Class == Timeout:
		var budget *budgetError
		if errors.As(e.Err, &budget) {
			return outcome{kind: failed, what: "timed out: " + budget.Error()}
		}
		return outcome{}
	case e.Class != Transient:
		return outcome{}
	}
	what := fmt.Sprintf("got HTTP %d", e.Status)
	switch {
	case e.Status == 0:
		return outcome{kind: failed, what: "failed: " + e.Err.Error()}
	case e.RetryAfter > 0 && pausing(e.Status):
		return outcome{kind: rateLimited, what: what, wait: e.RetryAfter}
	case e.Status == http.StatusTooManyRequests || e.Status >= 500:
		return outcome{kind: failed, what: what}
	}
	return outcome{}
}

// pausing statuses ask the client to come back later.
func pausing(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable || status == 529
}
