package llm

import (
	"context"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
)

// budget bounds one call by the client's time budgets, on top of the
// caller's deadline. A plain call gets the call timeout as its deadline,
// retries included. A streamed call must deliver its first chunk within the
// call timeout and must never go the idle timeout without a chunk, counting
// from its start; once text flows, only the idle timeout and the caller's
// deadline bound it, so that a long answer that keeps coming is not cut.
// The returned function releases the budget and must be called.
func (c *Client) budget(ctx context.Context, call agent.Call, rec *record) (context.Context, *watch, context.CancelFunc) {
	if call.Stream != nil && (c.callTimeout > 0 || c.idleTimeout > 0) {
		return watchStream(ctx, c.callTimeout, c.idleTimeout, rec)
	}
	if c.callTimeout > 0 {
		ctx, cancel := context.WithTimeoutCause(ctx, c.callTimeout, &budgetError{"no reply within the call timeout", c.callTimeout})
		return ctx, nil, cancel
	}
	ctx, cancel := context.WithCancel(ctx)
	return ctx, nil, cancel
}

// watch cancels a streamed call whose first chunk is late or whose chunks
// stop coming. Its timers run no goroutine until they fire, and stop
// disarms them for good.
type watch struct {
	idleFor time.Duration

	mu      sync.Mutex
	first   *time.Timer // nil once the first chunk came, or with no call timeout
	idle    *time.Timer // nil with no idle timeout
	stopped bool
}

func watchStream(ctx context.Context, callTimeout, idle time.Duration, rec *record) (context.Context, *watch, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &watch{idleFor: idle}
	due := func(d time.Duration, what string) *time.Timer {
		if by := time.Now().Add(d); rec.retryBy.IsZero() || by.Before(rec.retryBy) {
			rec.retryBy = by // retries happen before the first chunk, so within this
		}
		return time.AfterFunc(d, func() { cancel(&budgetError{what, d}) })
	}
	if callTimeout > 0 {
		w.first = due(callTimeout, "no first chunk within the call timeout")
	}
	if idle > 0 {
		w.idle = due(idle, "the stream went idle: no chunk within the idle timeout")
	}
	return ctx, w, func() { w.stop(); cancel(nil) }
}

// chunk notes that text arrived: the first chunk ends the call timeout, and
// every chunk restarts the idle timeout.
func (w *watch) chunk() {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if w.first != nil {
		w.first.Stop()
		w.first = nil
	}
	if w.idle != nil {
		w.idle.Reset(w.idleFor)
	}
}

func (w *watch) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	for _, t := range []*time.Timer{w.first, w.idle} {
		if t != nil {
			t.Stop()
		}
	}
}
