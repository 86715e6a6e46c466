// Package directus is a client for the Directus REST API and its realtime
// WebSocket (https://directus.io/docs/api): items, schema import, server
// checks and subscriptions to item changes, as erleah-agent needs them.
//
// Every non-2xx answer becomes an *Error carrying the HTTP status and the
// Directus error code. Directus answers 403 FORBIDDEN for items that do not
// exist, so a 403 is never reported as "not found". The package never logs.
package directus

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/go-resty/resty/v2"
)

const (
	defaultTimeout   = 10 * time.Second
	defaultRetries   = 3
	defaultRetryWait = 200 * time.Millisecond
	maxRetryWait     = 3 * time.Second
	// idleConnTimeout is below Node's default keep-alive timeout (5 s).
	idleConnTimeout = 4 * time.Second
	// maxRetryAfter is the longest Retry-After the client waits for; a
	// longer one ends the call with the server's error.
	maxRetryAfter = time.Minute
)

// Options configures a Client. Every field but BaseURL has a working zero value.
type Options struct {
	// BaseURL is the Directus address, e.g. http://127.0.0.1:8055, optionally
	// with a path prefix. A trailing slash is ignored.
	BaseURL string
	// Token is a static token, sent as "Authorization: Bearer <Token>".
	// Empty: requests are anonymous (Directus's public role).
	Token string
	// HTTPClient sends the REST requests (Realtime dials its WebSocket
	// itself). Nil: a client with sane dial, TLS and idle timeouts. It is
	// copied, never modified.
	HTTPClient *http.Client
	// Timeout bounds each attempt of a request; 10 s when zero.
	Timeout time.Duration
	// Retries is the number of attempts for retryable calls; 3 when zero,
	// a negative value disables retries.
	Retries int
	// RetryWait is the base of the exponential backoff between attempts;
	// 200 ms when zero. Waits are jittered and capped at 3 s.
	RetryWait time.Duration
}

// Client is a Directus REST client (https://directus.io/docs/api). It is safe
// for concurrent use; its methods never modify it.
type Client struct {
	rc        *resty.Client
	base      *url.URL
	token     string
	timeout   time.Duration
	attempts  int
	retryWait time.Duration
}

// New returns a client for opts.BaseURL, which must be an absolute http or
// https URL without query or fragment.
func New(opts Options) (*Client, error) {
	base, err := parseBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	rc := resty.NewWithClient(httpClient(opts.HTTPClient)).
		SetBaseURL(base.String()).
		SetLogger(discardLogger{}).
		SetDisableWarn(true)
	return &Client{
		rc:        rc,
		base:      base,
		token:     opts.Token,
		timeout:   positive(opts.Timeout, defaultTimeout),
		attempts:  attempts(opts.Retries),
		retryWait: positive(opts.RetryWait, defaultRetryWait),
	}, nil
}

// WithToken returns a client with the same base URL, transport and retry
// settings that authenticates with token instead.
func (c *Client) WithToken(token string) *Client {
	clone := *c
	clone.token = token
	return &clone
}

// WithRetries returns a client like c whose retryable calls make at most
// attempts requests (1: no retry), waiting from wait between them (doubling,
// jittered, capped at 3 s): the one retry policy of the client, chosen per
// kind of write by whoever makes them (chat's final reply writes ride out a
// brief outage).
func (c *Client) WithRetries(attempts int, wait time.Duration) *Client {
	clone := *c
	clone.attempts = max(attempts, 1)
	clone.retryWait = positive(wait, defaultRetryWait)
	return &clone
}

// parseBaseURL validates a base URL and drops its trailing slash.
func parseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil, fmt.Errorf("directus: base URL: %w", err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("directus: base URL %q: want an absolute http or https URL", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.User != nil {
		return nil, errors.New("directus: base URL: query, fragment and user info are not allowed")
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// httpClient copies hc (so that resty cannot modify the caller's client) or
// builds the default one.
func httpClient(hc *http.Client) *http.Client {
	if hc != nil {
		clone := *hc
		return &clone
	}
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 5 * time.Second
	// Directus (Node's http server) closes a keep-alive connection idle for
	// 5 s; a request sent on it at that moment meets "connection reset by
	// peer", and a POST is not tried again. Closing idle connections first
	// leaves no such race.
	t.IdleConnTimeout = idleConnTimeout
	t.MaxIdleConnsPerHost = 16
	return &http.Client{Transport: t}
}

func positive(d, fallback time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return fallback
}

func attempts(retries int) int {
	switch {
	case retries < 0:
		return 1
	case retries == 0:
		return defaultRetries
	}
	return retries
}

// request is one API call. path is escaped and relative to the base URL.
type request struct {
	method string
	path   string
	query  url.Values
	body   []byte // JSON; nil: no body
	retry  bool
}

// wrap prefixes err with the call, e.g. "directus: GET /items/messages: …".
func (r request) wrap(err error) error {
	return fmt.Errorf("directus: %s %s: %w", r.method, r.path, err)
}

// call sends r and decodes the answer's "data" member into dst (nil: discard).
func (c *Client) call(ctx context.Context, r request, dst any) error {
	resp, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	if err := decodeData(resp.Body(), dst); err != nil {
		return r.wrap(fmt.Errorf("decode response: %w", err))
	}
	return nil
}

// decodeData unmarshals the "data" member of a Directus answer into dst.
// An empty body (204) or a missing "data" leaves dst untouched.
func decodeData(body []byte, dst any) error {
	if dst == nil || len(body) == 0 {
		return nil
	}
	var envelope struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &envelope); err != nil {
		return err
	}
	if len(envelope.Data) == 0 {
		return nil
	}
	return json.Unmarshal(envelope.Data, dst)
}

// encodeBody turns a request body into JSON: nil stays nil, []byte and
// json.RawMessage are sent as they are, anything else is marshalled.
func encodeBody(body any) ([]byte, error) {
	switch b := body.(type) {
	case nil:
		return nil, nil
	case []byte:
		return b, nil
	case json.RawMessage:
		return b, nil
	}
	return marshal(body)
}

// marshal is json.Marshal without HTML escaping, so that filters and bodies
// reach Directus as written ("&", not "\u0026").
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// idempotent reports whether a method may be repeated without changing the
// outcome, which makes it retryable.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// Do is the escape hatch for endpoints without a typed method (flows,
// operations, roles, policies, permissions, users). It sends body as JSON
// (nil: no body; []byte and json.RawMessage as they are) to path, which is
// relative to the base URL and already escaped, with query, and decodes the
// answer's "data" into dst (nil: discard). GET, PUT, PATCH and DELETE are
// retried; POST is not.
func (c *Client) Do(ctx context.Context, method, path string, query url.Values, body any, dst any) error {
	method = strings.ToUpper(method)
	r := request{method: method, path: path, query: query, retry: idempotent(method)}
	if err := checkPath(path); err != nil {
		return r.wrap(err)
	}
	if !strings.HasPrefix(r.path, "/") {
		r.path = "/" + r.path
	}
	b, err := encodeBody(body)
	if err != nil {
		return r.wrap(fmt.Errorf("encode body: %w", err))
	}
	r.body = b
	return c.call(ctx, r, dst)
}

// checkPath refuses paths that would send the token elsewhere or smuggle a
// query past the query parameter.
func checkPath(path string) error {
	u, err := url.Parse(path)
	if err != nil {
		return err
	}
	if u.IsAbs() || u.Host != "" || strings.ContainsAny(path, "?#") {
		return errors.New("path must be relative to the base URL, without query or fragment")
	}
	return nil
}

// discardLogger silences resty: client packages return errors, they do not log.
type discardLogger struct{}

func (discardLogger) Errorf(string, ...any) {}
func (discardLogger) Warnf(string, ...any)  {}
func (discardLogger) Debugf(string, ...any) {}
