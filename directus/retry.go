package directus

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/go-resty/resty/v2"
)

// send performs r, retrying it when r.retry is set and the failure is
// transient (retryable): a transport error (not the caller's cancellation), 429,
// 502, 503 or 504.
// It returns the 2xx response, or an *Error, or a wrapped transport error.
func (c *Client) send(ctx context.Context, r request) (*resty.Response, error) {
	for attempt := 0; ; attempt++ {
		resp, err := c.attempt(ctx, r)
		if err == nil {
			return resp, nil
		}
		wait, ok := c.retryDelay(ctx, r, resp, attempt)
		if !ok {
			return nil, err
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, r.wrap(err)
		}
	}
}

// attempt performs r once, bounded by the client's per-attempt timeout. The
// response is returned with status errors so that its headers can be read.
func (c *Client) attempt(ctx context.Context, r request) (*resty.Response, error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	resp, err := c.newRequest(actx, r).Execute(r.method, r.path)
	if err != nil {
		return nil, r.wrap(transportCause(err))
	}
	if status := resp.StatusCode(); status < 200 || status > 299 {
		return resp, parseError(r.method, r.path, status, resp.Body(), c.token)
	}
	return resp, nil
}

func (c *Client) newRequest(ctx context.Context, r request) *resty.Request {
	req := c.rc.R().SetContext(ctx).SetHeader("Accept", "application/json")
	if len(r.query) > 0 {
		req.SetQueryParamsFromValues(r.query)
	}
	if c.token != "" {
		req.SetAuthToken(c.token)
	}
	if r.body != nil {
		req.SetHeader("Content-Type", "application/json").SetBody(r.body)
	}
	return req
}

// transportCause drops the *url.Error layer, whose message repeats the full
// URL including the query string.
func transportCause(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryDelay decides whether the failed attempt number attempt (0-based) is
// retried and after how long. resp is nil for transport errors. It never
// plans a wait that ends after ctx's deadline.
func (c *Client) retryDelay(ctx context.Context, r request, resp *resty.Response, attempt int) (time.Duration, bool) {
	if !r.retry || attempt+1 >= c.attempts || ctx.Err() != nil || !retryable(resp) {
		return 0, false
	}
	wait := backoff(c.retryWait, maxRetryWait, attempt)
	if after, ok := retryAfter(resp, time.Now()); ok {
		if after > maxRetryAfter {
			return 0, false
		}
		wait = after
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) <= wait {
		return 0, false
	}
	return wait, true
}

// retryable reports whether a failed attempt is transient: no response at
// all (transport error), 429 Too Many Requests, or a 502, 503 or 504 (a
// proxy without Directus behind it, or Directus starting or overloaded). A
// 500 is Directus's own answer and is not tried again.
func retryable(resp *resty.Response) bool {
	if resp == nil {
		return true
	}
	switch resp.StatusCode() {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// retryAfter reads a Retry-After header given in seconds or as an HTTP date.
func retryAfter(resp *resty.Response, now time.Time) (time.Duration, bool) {
	if resp == nil {
		return 0, false
	}
	return retryAfterValue(resp.Header().Get("Retry-After"), now)
}

// retryAfterValue parses a Retry-After value; a date in the past means now.
func retryAfterValue(v string, now time.Time) (time.Duration, bool) {
	if secs, err := strconv.Atoi(v); err == nil && secs >= 0 {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// backoff is the jittered exponential wait before retry number attempt+1:
// base·2^attempt capped at limit, then drawn uniformly from its upper half.
func backoff(base, limit time.Duration, attempt int) time.Duration {
	d := base
	for i := 0; i < attempt && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	half := d / 2
	return half + rand.N(d-half+1)
}

// sleep waits for d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
