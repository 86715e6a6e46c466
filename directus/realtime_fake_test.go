package directus

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeRealtime is a Directus realtime endpoint: it checks the auth message
// and hands each authenticated connection to the test through conns.
type fakeRealtime struct {
	token     string
	refuse    int    // if set, the upgrade is refused with this status
	refuseUID string // if set, subscribing this UID fails with FORBIDDEN
	silent    bool   // if set, subscribe frames are not answered
	conns     chan *fakeConn

	mu  sync.Mutex
	all []*websocket.Conn
}

// fakeConn is one authenticated connection. It answers subscribe frames
// like Directus (init, or an error); every message the client sends arrives
// on in, which closes with the connection. Tests write with write.
type fakeConn struct {
	conn      *websocket.Conn
	refuseUID string
	silent    bool
	in        chan map[string]any
	closeCode int // valid once in is closed

	mu sync.Mutex // serialises writes
}

func (fc *fakeConn) writeMessage(kind int, data []byte) error {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.conn.WriteMessage(kind, data)
}

func (fc *fakeConn) write(v any) error {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	return fc.conn.WriteJSON(v)
}

// confirm answers a subscribe frame as Directus 12 does.
func (fc *fakeConn) confirm(m map[string]any) {
	switch {
	case m["uid"] == fc.refuseUID:
		_ = fc.write(map[string]any{"type": "subscribe", "status": "error", "uid": m["uid"],
			"error": map[string]any{"code": "FORBIDDEN", "message": "You don't have permission to access this."}})
	case m["event"] != nil:
		_ = fc.write(map[string]any{"type": "subscription", "event": "init", "uid": m["uid"]})
	default:
		_ = fc.write(map[string]any{"type": "subscription", "event": "init", "uid": m["uid"], "data": []any{}})
	}
}

func newFakeRealtime(t *testing.T, token string) (*fakeRealtime, *Client) {
	t.Helper()
	f := &fakeRealtime{token: token, conns: make(chan *fakeConn, 16)}
	mux := http.NewServeMux()
	mux.HandleFunc("/prefix/websocket", f.handle)
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		f.mu.Lock()
		defer f.mu.Unlock()
		for _, c := range f.all {
			_ = c.Close()
		}
	})
	c, err := New(Options{BaseURL: srv.URL + "/prefix", Token: testToken, Timeout: 2 * time.Second})
	require.NoError(t, err)
	return f, c
}

func (f *fakeRealtime) handle(w http.ResponseWriter, r *http.Request) {
	if f.refuse != 0 {
		writeJSON(w, f.refuse, directusError("ROUTE_NOT_FOUND", "Route /websocket doesn't exist."))
		return
	}
	conn, err := (&websocket.Upgrader{}).Upgrade(w, r, nil)
	if err != nil {
		return
	}
	f.mu.Lock()
	f.all = append(f.all, conn)
	f.mu.Unlock()
	var auth map[string]any
	if conn.ReadJSON(&auth) != nil {
		return
	}
	if auth["type"] != "auth" || auth["access_token"] != f.token {
		_ = conn.WriteJSON(map[string]any{"type": "auth", "status": "error",
			"error": map[string]any{"code": "AUTH_FAILED", "message": "Authentication failed."}})
		_ = conn.Close()
		return
	}
	_ = conn.WriteJSON(map[string]any{"type": "auth", "status": "ok"})
	fc := &fakeConn{conn: conn, refuseUID: f.refuseUID, silent: f.silent, in: make(chan map[string]any, 64)}
	f.conns <- fc
	fc.readAll()
}

func (fc *fakeConn) readAll() {
	defer close(fc.in)
	for {
		var m map[string]any
		err := fc.conn.ReadJSON(&m)
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			fc.closeCode = ce.Code
		}
		if err != nil {
			return
		}
		if m["type"] == "subscribe" && !fc.silent {
			fc.confirm(m)
		}
		fc.in <- m
	}
}

// receive waits for the next value of ch.
func receive[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// run starts Realtime and returns its result channel and cancel function.
func run(c *Client, opts RealtimeOptions) (<-chan error, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Realtime(ctx, opts) }()
	return done, cancel
}

// jsonMap turns v into the map a JSON decoder would give.
func jsonMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(v)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	return m
}

var testSubs = []Subscription{
	{UID: "msg", Collection: "messages", Query: map[string]any{
		"fields": []string{"id", "thinking_output"}, "filter": map[string]any{"id": map[string]any{"_eq": "m1"}}}},
	{UID: "conv", Collection: "conversations", Event: "update"},
}

func expectSubscribes(t *testing.T, fc *fakeConn) {
	t.Helper()
	want := []map[string]any{
		jsonMap(t, map[string]any{"type": "subscribe", "collection": "messages", "uid": "msg", "query": testSubs[0].Query}),
		jsonMap(t, map[string]any{"type": "subscribe", "collection": "conversations", "uid": "conv", "event": "update"}),
	}
	for _, w := range want {
		assert.Equal(t, w, receive(t, fc.in, "subscribe frame"), "subscribe frame")
	}
}

// liveSession is a Realtime call connected to a fake server with testSubs,
// past OnConnect.
type liveSession struct {
	fc     *fakeConn
	events chan Event
	done   <-chan error
	cancel context.CancelFunc
}

func startSession(t *testing.T, f *fakeRealtime, c *Client) liveSession {
	t.Helper()
	s := liveSession{events: make(chan Event, 16)}
	connects := make(chan struct{}, 4)
	s.done, s.cancel = run(c, RealtimeOptions{
		Subscriptions: testSubs,
		OnEvent:       func(e Event) { s.events <- e },
		OnConnect:     func() { connects <- struct{}{} },
	})
	t.Cleanup(s.cancel)
	s.fc = receive(t, f.conns, "connection")
	expectSubscribes(t, s.fc)
	receive(t, connects, "OnConnect")
	return s
}
