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
)

const testToken = "tok-S3CRET-1234567890"

// newTestClient serves h and returns a client for it with fast retries.
func newTestClient(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(Options{BaseURL: srv.URL, Token: testToken, RetryWait: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
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
		if _, err := New(Options{BaseURL: raw}); err == nil {
			t.Errorf("New(%q): no error", raw)
		}
	}
	c, err := New(Options{BaseURL: "https://cms.example.com/api/"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.WebSocketURL(), "wss://cms.example.com/api/websocket"; got != want {
		t.Errorf("WebSocketURL = %q, want %q", got, want)
	}
	c, _ = New(Options{BaseURL: "http://127.0.0.1:8055"})
	if got, want := c.WebSocketURL(), "ws://127.0.0.1:8055/websocket"; got != want {
		t.Errorf("WebSocketURL = %q, want %q", got, want)
	}
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
	if err := c.ReadItems(context.Background(), "messages", q, &items); err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || items[0].ID != "m1" || items[0].Role != "user" {
		t.Errorf("items = %+v", items)
	}
	if got.Method != "GET" || got.URL.Path != "/items/messages" {
		t.Errorf("request = %s %s", got.Method, got.URL.Path)
	}
	want := url.Values{
		"fields": {"id,role,conversation.title"},
		"filter": {`{"conversation":{"_eq":"c 1&x"}}`},
		"sort":   {"-date_created,id"}, "limit": {"10"}, "offset": {"20"},
	}
	if q := got.URL.Query(); q.Encode() != want.Encode() {
		t.Errorf("query = %v, want %v", q, want)
	}
	if h := got.Header.Get("Authorization"); h != "Bearer "+testToken {
		t.Errorf("Authorization = %q", h)
	}
}

func TestQueryLimitAllAndDefaults(t *testing.T) {
	v, err := Query{Limit: -1}.values()
	if err != nil || v.Encode() != "limit=-1" {
		t.Errorf("Limit -1: %q, %v", v.Encode(), err)
	}
	if v, _ := (Query{}).values(); len(v) != 0 {
		t.Errorf("zero Query: %v", v)
	}
	if _, err := (Query{Filter: map[string]any{"x": func() {}}}).values(); err == nil {
		t.Error("unencodable filter: no error")
	}
}

func TestWithTokenKeepsServerAndChangesToken(t *testing.T) {
	var auth []string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		auth = append(auth, r.Header.Get("Authorization"))
		writeJSON(w, 200, map[string]any{"data": map[string]any{"id": "u1", "email": "a@b", "role": "r1"}})
	})
	u, err := c.WithToken("other").Me(context.Background())
	if err != nil || u != (User{ID: "u1", Email: "a@b", Role: "r1"}) {
		t.Fatalf("Me = %+v, %v", u, err)
	}
	_, _ = c.Me(context.Background())
	if len(auth) != 2 || auth[0] != "Bearer other" || auth[1] != "Bearer "+testToken {
		t.Errorf("Authorization headers = %q", auth)
	}
	anon := c.WithToken("")
	_, _ = anon.Me(context.Background())
	if auth[2] != "" {
		t.Errorf("anonymous Authorization = %q", auth[2])
	}
}

func TestErrorBodyParsed(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 403, directusError("FORBIDDEN", "You don't have permission to access this."))
	})
	err := c.UpdateItem(context.Background(), "messages", "m1", map[string]any{"status": "x"}, nil)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *Error", err, err)
	}
	want := Error{Status: 403, Code: "FORBIDDEN", Message: "You don't have permission to access this.", Method: "PATCH", Path: "/items/messages/m1"}
	if *e != want {
		t.Errorf("err = %+v, want %+v", *e, want)
	}
	if s := e.Error(); s != "directus: PATCH /items/messages/m1: 403 FORBIDDEN: You don't have permission to access this." {
		t.Errorf("Error() = %q", s)
	}
	if !HasCode(err, CodeForbidden) || IsUnique(err) {
		t.Error("HasCode/IsUnique disagree with the code")
	}
}

func TestMissingItemStaysForbidden(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 403, directusError("FORBIDDEN", "You don't have permission to access this."))
	})
	var item map[string]any
	err := c.ReadItem(context.Background(), "messages", "does-not-exist", []string{"id"}, &item)
	var e *Error
	if !errors.As(err, &e) || e.Status != 403 || e.Code != "FORBIDDEN" {
		t.Fatalf("err = %v, want a 403 FORBIDDEN *Error", err)
	}
	if strings.Contains(strings.ToLower(err.Error()), "not found") {
		t.Errorf("a 403 became not found: %v", err)
	}
}

func TestErrorWithoutDirectusBody(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
	})
	err := c.Ping(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 502 || e.Code != "" || e.Message != "Bad Gateway" {
		t.Fatalf("err = %#v", err)
	}
	if s := e.Error(); s != "directus: GET /server/ping: 502: Bad Gateway" {
		t.Errorf("Error() = %q", s)
	}
}

func TestIsUnique(t *testing.T) {
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, directusError("RECORD_NOT_UNIQUE", `Value for field "reply_to" in collection "messages" has to be unique.`))
	})
	err := c.CreateItem(context.Background(), "messages", map[string]any{"reply_to": "m1"}, nil)
	if !IsUnique(err) {
		t.Errorf("IsUnique(%v) = false", err)
	}
	if IsUnique(errors.New("RECORD_NOT_UNIQUE")) || HasCode(nil, "") {
		t.Error("IsUnique or HasCode true for a foreign error")
	}
}

func TestTokenNeverInErrors(t *testing.T) {
	echo := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 401, directusError("INVALID_CREDENTIALS", "bad token "+r.Header.Get("Authorization")))
	})
	dead, err := New(Options{BaseURL: "http://127.0.0.1:1", Token: testToken, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	q := Query{Filter: map[string]any{"secret": map[string]any{"_eq": testToken}}}
	errs := []error{
		echo.ReadItems(context.Background(), "messages", q, &[]any{}),
		dead.ReadItems(context.Background(), "messages", q, &[]any{}),
		echo.Do(context.Background(), "GET", "/users", url.Values{"access_token": {testToken}}, nil, nil),
	}
	for i, err := range errs {
		if err == nil || strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), "S3CRET") {
			t.Errorf("error %d = %v: want an error without the token", i, err)
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
	if err := c.Do(context.Background(), "post", "flows", nil, map[string]string{"name": "n"}, &out); err != nil {
		t.Fatal(err)
	}
	if method != "POST /flows" || body != `{"name":"n"}` || ctype != "application/json" || out.ID != "f1" {
		t.Errorf("got %s %s (%s) → %+v", method, body, ctype, out)
	}
	for _, p := range []string{"http://evil.example/x", "/flows?x=1"} {
		if err := c.Do(context.Background(), "GET", p, nil, nil, nil); err == nil {
			t.Errorf("Do(%q): no error", p)
		}
	}
}

func TestDeleteItemsSendsArray(t *testing.T) {
	var got string
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = r.Method + " " + r.URL.Path + " " + string(b)
		w.WriteHeader(http.StatusNoContent)
	})
	if err := c.DeleteItems(context.Background(), "messages", []string{"a", "b"}); err != nil {
		t.Fatal(err)
	}
	if got != `DELETE /items/messages ["a","b"]` {
		t.Errorf("request = %s", got)
	}
	got = ""
	if err := c.DeleteItems(context.Background(), "messages", nil); err != nil || got != "" {
		t.Errorf("no ids: sent %q, err %v", got, err)
	}
}

func TestPing(t *testing.T) {
	answer := "pong"
	c := newTestClient(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/server/ping" {
			http.NotFound(w, r)
		}
		_, _ = io.WriteString(w, answer)
	})
	if err := c.Ping(context.Background()); err != nil {
		t.Errorf("Ping: %v", err)
	}
	answer = "ping?"
	if err := c.Ping(context.Background()); err == nil {
		t.Error("Ping accepted a wrong answer")
	}
}
