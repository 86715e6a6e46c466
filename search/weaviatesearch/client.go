package weaviatesearch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"google.golang.org/grpc/codes"
)

// Error is a failed Weaviate request: the HTTP status (0 when the server
// answered 200 with GraphQL errors, or for a gRPC call), the gRPC code of a
// gRPC call, and the server's messages.
type Error struct {
	Status  int
	Code    codes.Code
	Message string
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return "weaviate: " + e.Message
	}
	return fmt.Sprintf("weaviate: %d %s: %s", e.Status, http.StatusText(e.Status), e.Message)
}

// Temporary reports whether the request may succeed when tried again: the
// server failed (5xx) or is overloaded (429), or over gRPC is unavailable
// or out of resources.
func (e *Error) Temporary() bool {
	return e.Status >= 500 || e.Status == http.StatusTooManyRequests ||
		e.Code == codes.Unavailable || e.Code == codes.ResourceExhausted
}

// client is the one HTTP client of the driver: one request builder, one
// response checker, one retry policy. With several nodes' URLs, a request
// that gets no answer moves the client to the next node.
type client struct {
	bases  []string
	cur    atomic.Uint32 // index of the node requests go to
	apiKey string
	http   *http.Client
}

// base is the URL of the node requests go to now.
func (c *client) base() string { return c.bases[int(c.cur.Load())%len(c.bases)] }

// failover moves the client from the node at base to the next one, unless
// another request already did.
func (c *client) failover(base string) {
	if n := c.cur.Load(); c.bases[int(n)%len(c.bases)] == base {
		c.cur.CompareAndSwap(n, n+1)
	}
}

// Retry policy: every request the driver sends is idempotent (reads, and
// writes of objects with deterministic ids), so connection errors, 429 and
// 5xx are retried a bounded number of times with growing pauses.
var retryPauses = []time.Duration{100 * time.Millisecond, 400 * time.Millisecond, 1600 * time.Millisecond}

// do sends a JSON request and decodes a JSON answer into out (when not nil),
// retrying as retryPauses says.
func (c *client) do(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
	}
	for attempt := 0; ; attempt++ {
		err := c.once(ctx, method, path, body, out)
		if err == nil || !retryable(ctx, err) || attempt == len(retryPauses) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(retryPauses[attempt]):
		}
	}
}

func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var we *Error
	var te *transportError
	return errors.As(err, &te) || errors.As(err, &we) && we.Temporary()
}

// transportError is a request that got no answer (refused, reset, timed
// out): worth trying again.
type transportError struct{ err error }

func (e *transportError) Error() string { return e.err.Error() }
func (e *transportError) Unwrap() error { return e.err }

func (c *client) once(ctx context.Context, method, path string, body []byte, out any) error {
	base := c.base()
	err := c.onceAt(ctx, base, method, path, body, out)
	var te *transportError
	if errors.As(err, &te) {
		c.failover(base)
	}
	return err
}

func (c *client) onceAt(ctx context.Context, base, method, path string, body []byte, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return &transportError{err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return &transportError{fmt.Errorf("read answer: %w", err)}
	}
	if resp.StatusCode >= 300 {
		return &Error{Status: resp.StatusCode, Message: errorMessage(data)}
	}
	if out == nil || len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("decode answer: %w", err)
	}
	return nil
}

// errorMessage extracts Weaviate's messages from an error body
// ({"error":[{"message":…}]}), or returns the body itself.
func errorMessage(data []byte) string {
	var body struct {
		Error []struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(data, &body) == nil && len(body.Error) > 0 {
		msgs := make([]string, len(body.Error))
		for i, e := range body.Error {
			msgs[i] = e.Message
		}
		return strings.Join(msgs, "; ")
	}
	return strings.TrimSpace(string(data))
}

// graphql runs a GraphQL query and decodes its data into out; GraphQL
// errors (returned with status 200) become an *Error with status 0.
// https://weaviate.io/developers/weaviate/api/graphql
func (c *client) graphql(ctx context.Context, query string, out any) error {
	var resp struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if err := c.do(ctx, http.MethodPost, "/v1/graphql", map[string]string{"query": query}, &resp); err != nil {
		return err
	}
	if len(resp.Errors) > 0 {
		msgs := make([]string, len(resp.Errors))
		for i, e := range resp.Errors {
			msgs[i] = e.Message
		}
		return &Error{Message: strings.Join(msgs, "; ")}
	}
	if err := json.Unmarshal(resp.Data, out); err != nil {
		return fmt.Errorf("decode graphql data: %w", err)
	}
	return nil
}
