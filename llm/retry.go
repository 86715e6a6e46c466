package llm

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// retryTransport retries transient failures of idempotent-by-design model
// calls (a call has no effect on the provider but its cost): transport
// errors, 429 and 5xx. It waits with capped exponential backoff and full
// jitter, or as long as Retry-After asks if that is longer, and never past
// the request's deadline: when the wait would cross it, it gives up at once.
// What it saw is written to the call's record for error classification.
// A request marked search.TryOnce (a turn's search embedding its query,
// which the agent retries) is sent once.
type retryTransport struct {
	base   http.RoundTripper
	policy RetryPolicy
	sleep  func(ctx context.Context, d time.Duration) error
}

func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rec := recordOf(req.Context())
	for attempt := 1; ; attempt++ {
		r, err := rewind(req, attempt)
		if err != nil {
			return nil, err
		}
		resp, err := t.base.RoundTrip(r)
		status := 0
		if resp != nil {
			status = resp.StatusCode
		}
		wait, retry := retryable(resp, err)
		rec.note(status, wait)
		if !retry || attempt >= t.policy.MaxAttempts || search.TriesOnce(req.Context()) || (req.Body != nil && req.GetBody == nil) {
			return resp, err
		}
		delay := max(t.backoff(attempt), wait)
		if !rec.mayWait(req.Context(), delay) {
			return resp, err // no time left to wait, or the breaker opened: let the caller fall back now
		}
		if resp != nil {
			io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
			resp.Body.Close()
		}
		if err := t.sleep(req.Context(), delay); err != nil {
			return nil, err
		}
	}
}

// rewind returns the request for an attempt, with a fresh body after the first.
func rewind(req *http.Request, attempt int) (*http.Request, error) {
	if attempt == 1 || req.Body == nil {
		return req, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Body = body
	return r, nil
}

// retryable says whether a result is worth another attempt, and how long
// the server asked to wait.
func retryable(resp *http.Response, err error) (time.Duration, bool) {
	if err != nil {
		return 0, !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded)
	}
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout, 529: // 529: Anthropic overloaded
		return retryAfter(resp.Header.Get("Retry-After")), true
	}
	return 0, false
}

// retryAfter reads Retry-After in seconds or as an HTTP date.
func retryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, time.Until(t))
	}
	return 0
}

// backoff is base × 2^(attempt−1), capped, with full jitter.
func (t *retryTransport) backoff(attempt int) time.Duration {
	d := t.policy.BaseDelay << (attempt - 1)
	if d <= 0 || d > t.policy.MaxDelay {
		d = t.policy.MaxDelay
	}
	return time.Duration(rand.Int64N(int64(d) + 1))
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}

// record is what the transport saw during one model call, and what bounds
// its retries besides the request's deadline.
type record struct {
	// retryBy, when set, is when the call's first chunk is due (a streamed
	// call has no deadline the transport could see); halted, when set,
	// reports that the model's breaker opened meanwhile. Both are set before
	// the call starts and never change.
	retryBy time.Time
	halted  func() bool

	mu         sync.Mutex
	attempts   int
	status     int           // last HTTP status, 0 if none
	retryAfter time.Duration // what the last response asked to wait, 0 if nothing
}

type recordKey struct{}

func withRecord(ctx context.Context, r *record) context.Context {
	return context.WithValue(ctx, recordKey{}, r)
}

func recordOf(ctx context.Context) *record {
	if r, ok := ctx.Value(recordKey{}).(*record); ok {
		return r
	}
	return &record{}
}

func (r *record) note(status int, retryAfter time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts++
	r.status = status
	r.retryAfter = retryAfter
}

func (r *record) get() (attempts, status int, retryAfter time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attempts, r.status, r.retryAfter
}

// mayWait says whether another attempt after waiting d still fits the call:
// before its deadline and its first chunk's due time, and with the model's
// breaker not open (retrying a model that other calls found down only
// delays the fallback).
func (r *record) mayWait(ctx context.Context, d time.Duration) bool {
	end := time.Now().Add(d)
	if dl, ok := ctx.Deadline(); ok && dl.Before(end) {
		return false
	}
	if !r.retryBy.IsZero() && r.retryBy.Before(end) {
		return false
	}
	return r.halted == nil || !r.halted()
}
