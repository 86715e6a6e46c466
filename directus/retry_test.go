package directus

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRetryOn503ThenSuccess(t *testing.T) {
	calls := map[string]func(*Client) error{
		"GET": func(c *Client) error {
			return c.ReadItems(context.Background(), "messages", Query{}, &[]map[string]any{})
		},
		"PATCH": func(c *Client) error {
			return c.UpdateItem(context.Background(), "messages", "m1", map[string]any{"status": "completed"}, nil)
		},
		"DELETE": func(c *Client) error { return c.DeleteItems(context.Background(), "messages", []string{"m1"}) },
		"schema diff": func(c *Client) error {
			_, _, err := c.SchemaDiff(context.Background(), []byte(`{}`), false)
			return err
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			var hits atomic.Int32
			c := newTestClient(t, flaky(&hits, 2, http.StatusServiceUnavailable, []any{}))
			require.NoError(t, call(c))
			assert.Equal(t, int32(3), hits.Load(), "hits")
		})
	}
}

func TestRetriesGiveUpAfterAttempts(t *testing.T) {
	var hits atomic.Int32
	c := newTestClient(t, flaky(&hits, 100, http.StatusTooManyRequests, nil))
	err := c.ReadItems(context.Background(), "messages", Query{}, &[]any{})
	var e *Error
	require.ErrorAs(t, err, &e, "want the 429")
	require.Equal(t, 429, e.Status, "err = %v, want the 429", err)
	assert.Equal(t, int32(3), hits.Load(), "hits, want the default 3 attempts")
}

func TestNoRetry(t *testing.T) {
	cases := []struct {
		name   string
		status int
		call   func(*Client) error
	}{
		{"POST create", 503, func(c *Client) error {
			return c.CreateItem(context.Background(), "messages", map[string]any{}, nil)
		}},
		{"POST create many", 503, func(c *Client) error {
			return c.CreateItems(context.Background(), "messages", []any{map[string]any{}})
		}},
		{"POST schema apply", 503, func(c *Client) error {
			return c.SchemaApply(context.Background(), []byte(`{}`), false)
		}},
		{"POST via Do", 503, func(c *Client) error {
			return c.Do(context.Background(), "POST", "/flows", nil, map[string]any{}, nil)
		}},
		{"GET 400", 400, func(c *Client) error { return c.Ping(context.Background()) }},
		{"GET 401", 401, func(c *Client) error { _, err := c.Me(context.Background()); return err }},
		{"PATCH 403", 403, func(c *Client) error {
			return c.UpdateItem(context.Background(), "messages", "m1", map[string]any{}, nil)
		}},
		{"GET 500", 500, func(c *Client) error { _, err := c.ServerInfo(context.Background()); return err }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var hits atomic.Int32
			c := newTestClient(t, flaky(&hits, 100, tc.status, nil))
			var e *Error
			err := tc.call(c)
			require.ErrorAs(t, err, &e, "want a %d *Error", tc.status)
			require.Equal(t, tc.status, e.Status, "err = %v, want a %d *Error", err, tc.status)
			assert.Equal(t, int32(1), hits.Load(), "hits")
		})
	}
}

func TestNegativeRetriesDisableRetry(t *testing.T) {
	var hits atomic.Int32
	c := newTestClient(t, flaky(&hits, 1, 503, []any{}))
	c.attempts = attempts(-1)
	require.Error(t, c.ReadItems(context.Background(), "messages", Query{}, &[]any{}), "no error")
	assert.Equal(t, int32(1), hits.Load(), "hits")
}

func TestRetryOnTransportError(t *testing.T) {
	var hits atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			_ = conn.Close() // no answer at all
			return
		}
		writeJSON(w, 200, map[string]any{"data": map[string]any{"version": "12.4.0"}})
	})
	info, err := c.ServerInfo(context.Background())
	require.NoError(t, err, "ServerInfo")
	require.Equal(t, "12.4.0", info.Version, "ServerInfo = %+v", info)
	assert.GreaterOrEqual(t, hits.Load(), int32(2), "hits, want a retry")
}

func TestRetryAfterHonoured(t *testing.T) {
	var hits atomic.Int32
	var first time.Time
	var gap time.Duration
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			first = time.Now()
			w.Header().Set("Retry-After", "1")
			writeJSON(w, 429, directusError("REQUESTS_EXCEEDED", "Too many requests"))
			return
		}
		gap = time.Since(first)
		writeJSON(w, 200, map[string]any{"data": []any{}})
	})
	require.NoError(t, c.ReadItems(context.Background(), "messages", Query{}, &[]any{}))
	assert.GreaterOrEqual(t, gap, 900*time.Millisecond, "retried too early, want ≥ 1 s (Retry-After)")
}

func TestRetryAfterBeyondDeadlineGivesUpAtOnce(t *testing.T) {
	var hits atomic.Int32
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Retry-After", "30")
		writeJSON(w, 503, directusError("SERVICE_UNAVAILABLE", "down"))
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	start := time.Now()
	err := c.ReadItems(ctx, "messages", Query{}, &[]any{})
	assert.True(t, HasCode(err, "SERVICE_UNAVAILABLE"), "err = %v, want the 503", err)
	assert.Equal(t, int32(1), hits.Load(), "hits, want the 503 after 1")
	assert.LessOrEqual(t, time.Since(start), time.Second, "slept towards the deadline")
}

func TestContextDeadlineRespected(t *testing.T) {
	t.Run("backoff", func(t *testing.T) {
		var hits atomic.Int32
		c := newTestClient(t, flaky(&hits, 100, 503, nil))
		c.retryWait = 2 * time.Second
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := c.ReadItems(ctx, "messages", Query{}, &[]any{})
		took := time.Since(start)
		assert.Error(t, err, "want the 503 at once")
		assert.LessOrEqual(t, took, 250*time.Millisecond, "err = %v: want the 503 at once", err)
	})
	t.Run("slow server", func(t *testing.T) {
		release := make(chan struct{})
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) { <-release })
		defer close(release)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := c.ReadItems(ctx, "messages", Query{}, &[]any{})
		took := time.Since(start)
		assert.ErrorIs(t, err, context.DeadlineExceeded, "want DeadlineExceeded soon")
		assert.LessOrEqual(t, took, time.Second, "want DeadlineExceeded soon")
	})
	t.Run("cancel during backoff", func(t *testing.T) {
		var hits atomic.Int32
		c := newTestClient(t, flaky(&hits, 100, 503, nil))
		c.retryWait = 2 * time.Second
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		err := c.ReadItems(ctx, "messages", Query{}, &[]any{})
		assert.ErrorIs(t, err, context.Canceled)
	})
}

func TestPerAttemptTimeoutIsRetried(t *testing.T) {
	var hits atomic.Int32
	release := make(chan struct{})
	defer close(release)
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			<-release
			return
		}
		writeJSON(w, 200, map[string]any{"data": []any{}})
	})
	c.timeout = 100 * time.Millisecond
	require.NoError(t, c.ReadItems(context.Background(), "messages", Query{}, &[]any{}))
	assert.Equal(t, int32(2), hits.Load(), "hits")
}

func TestBackoffBounds(t *testing.T) {
	for attempt := range 10 {
		want := min(100*time.Millisecond<<attempt, time.Second)
		for range 50 {
			d := backoff(100*time.Millisecond, time.Second, attempt)
			require.GreaterOrEqual(t, d, want/2, "backoff(attempt %d), want in [%v, %v]", attempt, want/2, want)
			require.LessOrEqual(t, d, want, "backoff(attempt %d), want in [%v, %v]", attempt, want/2, want)
		}
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for value, want := range map[string]time.Duration{
		"2": 2 * time.Second,
		now.Add(5 * time.Second).Format(http.TimeFormat): 5 * time.Second,
		now.Add(-time.Hour).Format(http.TimeFormat):      0,
	} {
		got, ok := retryAfterValue(value, now)
		assert.True(t, ok, "Retry-After %q not accepted", value)
		assert.Equal(t, want, got, "Retry-After %q", value)
	}
	_, ok := retryAfterValue("soon", now)
	assert.False(t, ok, `Retry-After "soon" accepted`)
}

// unusedPort returns a loopback address nobody listens on.
func unusedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func TestTransportErrorIsWrappedWithCall(t *testing.T) {
	c, err := New(Options{BaseURL: "http://" + unusedPort(t), Retries: 2, RetryWait: time.Millisecond})
	require.NoError(t, err)
	err = c.ReadItem(context.Background(), "messages", "m1", nil, &map[string]any{})
	var e *Error
	require.Error(t, err, "want a transport error")
	require.NotErrorAs(t, err, &e, "want a transport error")
	want := "directus: GET /items/messages/m1: "
	assert.True(t, strings.HasPrefix(err.Error(), want), "err = %q, want prefix %q", err, want)
}
