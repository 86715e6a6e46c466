package directus

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testToken = "tok-S3CRET-1234567890"

// newTestClient serves h and returns a client for it with fast retries.
func newTestClient(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL, Token: testToken, RetryWait: time.Millisecond})
	require.NoError(t, err)
	return c
}

// writeJSON answers status with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// directusError is Directus's error body.
func directusError(code, message string) map[string]any {
	return map[string]any{"errors": []any{map[string]any{
		"message": message, "extensions": map[string]any{"code": code},
	}}}
}

// flaky answers status for the first fails requests, then 200 with data;
// *hits counts requests.
func flaky(hits *atomic.Int32, fails int32, status int, data any) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= fails {
			writeJSON(w, status, directusError("SERVICE_UNAVAILABLE", "busy"))
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"data": data})
	}
}

func TestNewValidatesBaseURL(t *testing.T) {
	for _, raw := range []string{"", "127.0.0.1:8055", "ftp://host", "http://", "http://h/?a=1", "http://u:p@h"} {
		_, err := New(Options{BaseURL: raw})
		assert.Error(t, err, "New(%q): no error", raw)
	}
	c, err := New(Options{BaseURL: "https://cms.example.com/api/"})
	require.NoError(t, err)
	assert.Equal(t, "wss://cms.example.com/api/websocket", c.WebSocketURL(), "WebSocketURL")
	c, _ = New(Options{BaseURL: "http://127.0.0.1:8055"})
	assert.Equal(t, "ws://127.0.0.1:8055/websocket", c.WebSocketURL(), "WebSocketURL")
}

func TestReadItemsBuildsQueryAndSendsBearer(t *testing.T) {
	var got *http.Request
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		got = r
		writeJSON(w, 200, map[string]any{"data": []any{map[string]any{"id": "m1", "role": "user"}}})
	})
	q := Query{
		Fields: []string{"id", "role", "conversation.title"},
		Filter: map[string]any{"conversation": map[string]any{"_eq": "c 1&x"}},
		Sort:   []string{"-date_created", "id"},
		Limit:  10, Offset: 20,
	}
	var items []struct{ ID, Role string }
	require.NoError(t, c.ReadItems(context.Background(), "messages", q, &items))
	if assert.Len(t, items, 1, "items = %+v", items) {
		assert.Equal(t, "m1", items[0].ID, "items = %+v", items)
		assert.Equal(t, "user", items[0].Role, "items = %+v", items)
	}
	assert.Equal(t, "GET", got.Method, "request method")
	assert.Equal(t, "/items/messages", got.URL.Path, "request path")
	want := url.Values{
		"fields": {"id,role,conversation.title"},
		"filter": {`{"conversation":{"_eq":"c 1&x"}}`},
		"sort":   {"-date_created,id"}, "limit": {"10"}, "offset": {"20"},
	}
	assert.Equal(t, want.Encode(), got.URL.Query().Encode(), "query")
	assert.Equal(t, "Bearer "+testToken, got.Header.Get("Authorization"), "Authorization")
}

func TestQueryLimitAllAndDefaults(t *testing.T) {
	v, err := Query{Limit: -1}.values()
	assert.NoError(t, err, "Limit -1")
	assert.Equal(t, "limit=-1", v.Encode(), "Limit -1")
	v, _ = (Query{}).values()
	assert.Empty(t, v, "zero Query")
	_, err = (Query{Filter: map[string]any{"x": func() {}}}).values()
	assert.Error(t, err, "unencodable filter: no error")
}

func TestWithTokenKeepsServerAndChangesToken(t *testing.T) {
	var auth []string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		writeJSON(w, 200, map[string]any{"data": map[string]any{"id": "u1", "email": "a@b", "role": "r1"}})
	})
	u, err := c.WithToken("other").Me(context.Background())
	require.NoError(t, err, "Me")
	require.Equal(t, User{ID: "u1", Email: "a@b", Role: "r1"}, u, "Me")
	_, _ = c.Me(context.Background())
	assert.Equal(t, []string{"Bearer other", "Bearer " + testToken}, auth, "Authorization headers")
	anon := c.WithToken("")
	_, _ = anon.Me(context.Background())
	assert.Empty(t, auth[2], "anonymous Authorization")
}

func TestErrorBodyParsed(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 403, directusError("FORBIDDEN", "You don't have permission to access this."))
	})
	err := c.UpdateItem(context.Background(), "messages", "m1", map[string]any{"status": "x"}, nil)
	var e *Error
	require.ErrorAs(t, err, &e, "want *Error")
	want := Error{Status: 403, Code: "FORBIDDEN", Message: "You don't have permission to access this.", Method: "PATCH", Path: "/items/messages/m1"}
	assert.Equal(t, want, *e, "err")
	assert.Equal(t, "directus: PATCH /items/messages/m1: 403 FORBIDDEN: You don't have permission to access this.", e.Error(), "Error()")
	assert.True(t, HasCode(err, CodeForbidden), "HasCode disagrees with the code")
	assert.False(t, IsUnique(err), "IsUnique disagrees with the code")
}

func TestMissingItemStaysForbidden(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 403, directusError("FORBIDDEN", "You don't have permission to access this."))
	})
	var item map[string]any
	err := c.ReadItem(context.Background(), "messages", "does-not-exist", []string{"id"}, &item)
	var e *Error
	require.ErrorAs(t, err, &e, "want a 403 FORBIDDEN *Error")
	require.Equal(t, 403, e.Status, "err = %v, want a 403 FORBIDDEN *Error", err)
	require.Equal(t, "FORBIDDEN", e.Code, "err = %v, want a 403 FORBIDDEN *Error", err)
	assert.NotContains(t, strings.ToLower(err.Error()), "not found", "a 403 became not found: %v", err)
}

func TestErrorWithoutDirectusBody(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
	})
	err := c.Ping(context.Background())
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, 502, e.Status, "err = %#v", err)
	require.Empty(t, e.Code, "err = %#v", err)
	require.Equal(t, "Bad Gateway", e.Message, "err = %#v", err)
	assert.Equal(t, "directus: GET /server/ping: 502: Bad Gateway", e.Error(), "Error()")
}

func TestIsUnique(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, directusError("RECORD_NOT_UNIQUE", `Value for field "reply_to" in collection "messages" has to be unique.`))
	})
	err := c.CreateItem(context.Background(), "messages", map[string]any{"reply_to": "m1"}, nil)
	assert.True(t, IsUnique(err), "IsUnique(%v) = false", err)
	assert.False(t, IsUnique(errors.New("RECORD_NOT_UNIQUE")), "IsUnique true for a foreign error")
	assert.False(t, HasCode(nil, ""), "HasCode true for a foreign error")
}

func TestIsTransient(t *testing.T) {
	status := func(code int) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, code, directusError("X", "x"))
		}))
	}
	for code, want := range map[int]bool{400: false, 403: false, 404: false, 429: true, 500: true, 502: true, 503: true} {
		srv := status(code)
		c, err := New(Options{BaseURL: srv.URL, Token: testToken, Retries: -1})
		require.NoError(t, err)
		err = c.CreateItem(context.Background(), "messages", map[string]any{}, nil)
		assert.Equal(t, want, IsTransient(err), "status %d: %v", code, err)
		srv.Close()
	}
	dead, err := New(Options{BaseURL: "http://127.0.0.1:1", Token: testToken, Retries: -1})
	require.NoError(t, err)
	err = dead.CreateItem(context.Background(), "messages", map[string]any{}, nil)
	assert.True(t, IsTransient(err), "no answer at all: %v", err)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) }))
	defer slow.Close()
	late, err := New(Options{BaseURL: slow.URL, Token: testToken, Retries: -1, Timeout: 50 * time.Millisecond})
	require.NoError(t, err)
	err = late.CreateItem(context.Background(), "messages", map[string]any{}, nil)
	assert.True(t, IsTransient(err), "an attempt that timed out: %v", err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = dead.CreateItem(ctx, "messages", map[string]any{}, nil)
	assert.False(t, IsTransient(err), "a cancelled call: %v", err)
	assert.False(t, IsTransient(nil), "no error")
}

func TestTokenNeverInErrors(t *testing.T) {
	echo := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 401, directusError("INVALID_CREDENTIALS", "bad token "+r.Header.Get("Authorization")))
	})
	dead, err := New(Options{BaseURL: "http://127.0.0.1:1", Token: testToken, Retries: -1})
	require.NoError(t, err)
	q := Query{Filter: map[string]any{"secret": map[string]any{"_eq": testToken}}}
	errs := []error{
		echo.ReadItems(context.Background(), "messages", q, &[]any{}),
		dead.ReadItems(context.Background(), "messages", q, &[]any{}),
		echo.Do(context.Background(), "GET", "/users", url.Values{"access_token": {testToken}}, nil, nil),
	}
	for i, err := range errs {
		if assert.Error(t, err, "error %d: want an error without the token", i) {
			assert.NotContains(t, err.Error(), testToken, "error %d: want an error without the token", i)
			assert.NotContains(t, err.Error(), "S3CRET", "error %d: want an error without the token", i)
		}
	}
}

func TestDoSendsJSONAndRefusesForeignURLs(t *testing.T) {
	var method, body, ctype string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		method, body, ctype = r.Method+" "+r.URL.Path, string(b), r.Header.Get("Content-Type")
		writeJSON(w, 200, map[string]any{"data": map[string]any{"id": "f1"}})
	})
	var out struct{ ID string }
	require.NoError(t, c.Do(context.Background(), "post", "flows", nil, map[string]string{"name": "n"}, &out))
	assert.Equal(t, "POST /flows", method, "method")
	assert.Equal(t, `{"name":"n"}`, body, "body")
	assert.Equal(t, "application/json", ctype, "Content-Type")
	assert.Equal(t, "f1", out.ID, "decoded %+v", out)
	for _, p := range []string{"http://evil.example/x", "/flows?x=1"} {
		assert.Error(t, c.Do(context.Background(), "GET", p, nil, nil, nil), "Do(%q): no error", p)
	}
}

func TestDeleteItemsSendsArray(t *testing.T) {
	var got string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = r.Method + " " + r.URL.Path + " " + string(b)
		w.WriteHeader(http.StatusNoContent)
	})
	require.NoError(t, c.DeleteItems(context.Background(), "messages", []string{"a", "b"}))
	assert.Equal(t, `DELETE /items/messages ["a","b"]`, got, "request")
	got = ""
	assert.NoError(t, c.DeleteItems(context.Background(), "messages", nil), "no ids")
	assert.Empty(t, got, "no ids: sent a request")
}

func TestPing(t *testing.T) {
	answer := "pong"
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/server/ping" {
			http.NotFound(w, r)
		}
		_, _ = io.WriteString(w, answer)
	})
	assert.NoError(t, c.Ping(context.Background()), "Ping")
	answer = "ping?"
	assert.Error(t, c.Ping(context.Background()), "Ping accepted a wrong answer")
}
