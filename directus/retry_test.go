package directus

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
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
			if err := call(c); err != nil {
				t.Fatalf("err = %v", err)
			}
			if n := hits.Load(); n != 3 {
				t.Errorf("hits = %d, want 3", n)
			}
		})
	}
}

func TestRetriesGiveUpAfterAttempts(t *testing.T) {
	var hits atomic.Int32
	c := newTestClient(t, flaky(&hits, 100, http.StatusTooManyRequests, nil))
	err := c.ReadItems(context.Background(), "messages", Query{}, &[]any{})
	var e *Error
	if !errors.As(err, &e) || e.Status != 429 {
		t.Fatalf("err = %v, want the 429", err)
	}
	if n := hits.Load(); n != 3 {
		t.Errorf("hits = %d, want the default 3 attempts", n)
	}
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
			if err := tc.call(c); !errors.As(err, &e) || e.Status != tc.status {
				t.Fatalf("err = %v, want a %d *Error", err, tc.status)
			}
			if n := hits.Load(); n != 1 {
				t.Errorf("hits = %d, want 1", n)
			}
		})
	}
}

func TestNegativeRetriesDisableRetry(t *testing.T) {
	var hits atomic.Int32
	c := newTestClient(t, flaky(&hits, 1, 503, []any{}))
	c.attempts = attempts(-1)
	if err := c.ReadItems(context.Background(), "messages", Query{}, &[]any{}); err == nil {
		t.Fatal("no error")
	}
	if hits.Load() != 1 {
		t.Errorf("hits = %d, want 1", hits.Load())
	}
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
	if err != nil || info.Version != "12.4.0" {
		t.Fatalf("ServerInfo = %+v, %v", info, err)
	}
	if hits.Load() < 2 {
		t.Errorf("hits = %d, want a retry", hits.Load())
	}
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
	if err := c.ReadItems(context.Background(), "messages", Query{}, &[]any{}); err != nil {
		t.Fatal(err)
	}
	if gap < 900*time.Millisecond {
		t.Errorf("retried after %v, want ≥ 1 s (Retry-After)", gap)
	}
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
	if !HasCode(err, "SERVICE_UNAVAILABLE") || hits.Load() != 1 {
		t.Errorf("err = %v after %d hits, want the 503 after 1", err, hits.Load())
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v: slept towards the deadline", d)
	}
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
		if err == nil || time.Since(start) > 250*time.Millisecond {
			t.Errorf("err = %v after %v: want the 503 at once", err, time.Since(start))
		}
	})
	t.Run("slow server", func(t *testing.T) {
		release := make(chan struct{})
		c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) { <-release })
		defer close(release)
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		err := c.ReadItems(ctx, "messages", Query{}, &[]any{})
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Second {
			t.Errorf("err = %v after %v, want DeadlineExceeded soon", err, time.Since(start))
		}
	})
	t.Run("cancel during backoff", func(t *testing.T) {
		var hits atomic.Int32
		c := newTestClient(t, flaky(&hits, 100, 503, nil))
		c.retryWait = 2 * time.Second
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(100*time.Millisecond, cancel)
		err := c.ReadItems(ctx, "messages", Query{}, &[]any{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want Canceled", err)
		}
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
	if err := c.ReadItems(context.Background(), "messages", Query{}, &[]any{}); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 2 {
		t.Errorf("hits = %d, want 2", hits.Load())
	}
}

func TestBackoffBounds(t *testing.T) {
	for attempt := range 10 {
		want := min(100*time.Millisecond<<attempt, time.Second)
		for range 50 {
			if d := backoff(100*time.Millisecond, time.Second, attempt); d < want/2 || d > want {
				t.Fatalf("backoff(attempt %d) = %v, want in [%v, %v]", attempt, d, want/2, want)
			}
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
		if !ok || got != want {
			t.Errorf("Retry-After %q = %v, %v; want %v", value, got, ok, want)
		}
	}
	if _, ok := retryAfterValue("soon", now); ok {
		t.Error(`Retry-After "soon" accepted`)
	}
}

// unusedPort returns a loopback address nobody listens on.
func unusedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return addr
}

func TestTransportErrorIsWrappedWithCall(t *testing.T) {
	c, err := New(Options{BaseURL: "http://" + unusedPort(t), Retries: 2, RetryWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = c.ReadItem(context.Background(), "messages", "m1", nil, &map[string]any{})
	var e *Error
	if err == nil || errors.As(err, &e) {
		t.Fatalf("err = %v, want a transport error", err)
	}
	if want := "directus: GET /items/messages/m1: "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("err = %q, want prefix %q", err, want)
	}
}
