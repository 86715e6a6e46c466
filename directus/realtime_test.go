package directus

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRealtimeConfirmsSubscriptionsBeforeOnConnect(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	require.Len(t, s.events, 2, "events before OnConnect, want the 2 inits")
	for _, want := range []string{`msg init []`, `conv init `} {
		e := <-s.events
		assert.Equal(t, want, e.UID+" "+e.Type+" "+string(e.Data), "init event = %+v (data %s)", e, e.Data)
	}
}

func TestRealtimeDeliversEventsInOrder(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	<-s.events
	<-s.events // the inits
	sent := []map[string]any{
		{"type": "subscription", "event": "create", "uid": "msg", "data": []any{map[string]any{"id": "m1"}}},
		{"type": "subscription", "event": "update", "uid": "msg", "data": []any{map[string]any{"id": "m1", "thinking_output": []any{"x"}}}},
		{"type": "subscription", "event": "update", "uid": "conv", "data": []any{map[string]any{"id": "c1"}}},
		{"type": "subscription", "event": "delete", "uid": "msg", "data": []any{"m1"}},
	}
	for _, m := range sent {
		require.NoError(t, s.fc.write(m))
	}
	for _, m := range sent {
		e := receive(t, s.events, "event")
		data, _ := json.Marshal(m["data"])
		assert.Equal(t, m["uid"], e.UID, "event = %+v (data %s), want %v", e, e.Data, m)
		assert.Equal(t, m["event"], e.Type, "event = %+v (data %s), want %v", e, e.Data, m)
		assert.Equal(t, string(data), string(e.Data), "event = %+v, want %v", e, m)
	}
}

func TestRealtimeAnswersPing(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	_ = s.fc.write(map[string]any{"type": "ping"})
	assert.Equal(t, map[string]any{"type": "pong"}, receive(t, s.fc.in, "pong"), "answer to ping")
}

func TestRealtimeCancelStopsPromptlyWithNormalClose(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	start := time.Now()
	s.cancel()
	assert.ErrorIs(t, receive(t, s.done, "Realtime to return"), context.Canceled, "Realtime")
	assert.LessOrEqual(t, time.Since(start), time.Second, "Realtime took too long to stop")
	for range s.fc.in {
	}
	assert.Equal(t, websocket.CloseNormalClosure, s.fc.closeCode, "close code, want a normal closure")
}

func TestRealtimeAuthErrorIsReturned(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	connected := false
	done, cancel := run(c.WithToken("wrong"), RealtimeOptions{
		Subscriptions: testSubs,
		OnConnect:     func() { connected = true },
	})
	defer cancel()
	err := receive(t, done, "Realtime to return")
	var e *Error
	require.ErrorAs(t, err, &e, "want an AUTH_FAILED *Error")
	require.Equal(t, CodeAuthFailed, e.Code, "Realtime = %v, want an AUTH_FAILED *Error", err)
	require.Equal(t, "/prefix/websocket", e.Path, "Realtime = %v, want an AUTH_FAILED *Error", err)
	assert.False(t, connected, "connected despite bad credentials")
	assert.Empty(t, f.conns, "connected despite bad credentials")
}

func TestRealtimeRefusedUpgrade(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	f.refuse = http.StatusNotFound
	done, cancel := run(c, RealtimeOptions{})
	defer cancel()
	var e *Error
	err := receive(t, done, "Realtime to return")
	require.ErrorAs(t, err, &e, "want the 404")
	require.Equal(t, 404, e.Status, "Realtime = %v, want the 404", err)
	require.Equal(t, "ROUTE_NOT_FOUND", e.Code, "Realtime = %v, want the 404", err)
}

func TestRealtimeRetriesUnavailableServerUntilCancelled(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	f.refuse = http.StatusServiceUnavailable
	failures := make(chan error, 64)
	done, cancel := run(c, RealtimeOptions{
		MinBackoff:   time.Millisecond,
		MaxBackoff:   5 * time.Millisecond,
		OnDisconnect: func(err error) { failures <- err },
	})
	var e *Error
	for range 3 {
		err := receive(t, failures, "a failed attempt")
		if assert.ErrorAs(t, err, &e, "OnDisconnect: want the 503") {
			assert.Equal(t, 503, e.Status, "OnDisconnect(%v), want the 503", err)
		}
	}
	cancel()
	assert.ErrorIs(t, receive(t, done, "Realtime to return"), context.Canceled, "Realtime")
}

func TestRealtimeReconnectsAndResubscribes(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	events := make(chan Event, 16)
	connects := make(chan struct{}, 4)
	disconnects := make(chan error, 4)
	done, cancel := run(c, RealtimeOptions{
		Subscriptions: testSubs,
		OnEvent:       func(e Event) { events <- e },
		OnConnect:     func() { connects <- struct{}{} },
		OnDisconnect:  func(err error) { disconnects <- err },
		MinBackoff:    10 * time.Millisecond,
	})
	defer cancel()
	first := receive(t, f.conns, "first connection")
	expectSubscribes(t, first)
	receive(t, connects, "first OnConnect")
	_ = first.writeMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "restart"))
	_ = first.conn.Close()

	assert.Error(t, receive(t, disconnects, "OnDisconnect"), "OnDisconnect(nil)")
	second := receive(t, f.conns, "second connection")
	expectSubscribes(t, second)
	receive(t, connects, "second OnConnect")
	_ = second.write(map[string]any{"type": "subscription", "event": "create", "uid": "conv", "data": []any{}})
	var types []string
	for len(types) < 5 {
		types = append(types, receive(t, events, "event").Type)
	}
	assert.Equal(t, "init init init init create", strings.Join(types, " "), "events, want the inits of both connections, then create")
	cancel()
	assert.ErrorIs(t, receive(t, done, "Realtime to return"), context.Canceled, "Realtime")
}

func TestRealtimeServerErrorsKeepConnection(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	serverErrs := make(chan error, 4)
	events := make(chan Event, 4)
	_, cancel := run(c, RealtimeOptions{
		OnEvent: func(e Event) { events <- e },
		OnError: func(err error) { serverErrs <- err },
	})
	defer cancel()
	fc := receive(t, f.conns, "connection")
	_ = fc.write(map[string]any{"type": "subscribe", "status": "error", "uid": "msg",
		"error": map[string]any{"code": "FORBIDDEN", "message": "You don't have permission to access this."}})
	_ = fc.writeMessage(websocket.TextMessage, []byte("not json"))
	_ = fc.write(map[string]any{"type": "subscription", "event": "init", "uid": "after"})

	err := receive(t, serverErrs, "server error")
	assert.True(t, HasCode(err, CodeForbidden), "OnError(%v), want FORBIDDEN", err)
	assert.ErrorIs(t, receive(t, serverErrs, "malformed message error"), errMalformed, "OnError: want a malformed message")
	e := receive(t, events, "event after the errors")
	assert.Equal(t, "after", e.UID, "event = %+v", e)
}

func TestRealtimeKeepAlive(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	done, cancel := run(c, RealtimeOptions{PingInterval: 50 * time.Millisecond, MinBackoff: time.Millisecond})
	defer cancel()
	fc := receive(t, f.conns, "connection")
	got := receive(t, fc.in, "client ping")
	assert.Equal(t, "ping", got["type"], "client sent %v, want a ping", got)
	// No pong: after 2×PingInterval of silence the client gives up and reconnects.
	receive(t, f.conns, "reconnection after a silent server")
	cancel()
	receive(t, done, "Realtime to return")
}

func TestRealtimeCancelDuringBackoff(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	f.refuse = http.StatusServiceUnavailable
	disconnected := make(chan error, 1)
	done, cancel := run(c, RealtimeOptions{
		MinBackoff:   time.Hour,
		OnDisconnect: func(err error) { disconnected <- err },
	})
	receive(t, disconnected, "first failure")
	start := time.Now()
	cancel()
	receive(t, done, "Realtime to return")
	assert.LessOrEqual(t, time.Since(start), 500*time.Millisecond, "stopping took too long")
}

func TestRealtimeRefusedSubscriptionStillConnects(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	f.refuseUID = "conv"
	serverErrs := make(chan error, 4)
	connects := make(chan struct{}, 1)
	_, cancel := run(c, RealtimeOptions{
		Subscriptions: testSubs,
		OnError:       func(err error) { serverErrs <- err },
		OnConnect:     func() { connects <- struct{}{} },
	})
	defer cancel()
	receive(t, connects, "OnConnect")
	err := receive(t, serverErrs, "refusal")
	var e *Error
	if assert.ErrorAs(t, err, &e, "OnError: want FORBIDDEN for uid conv") {
		assert.Equal(t, CodeForbidden, e.Code, "OnError(%v), want FORBIDDEN for uid conv", err)
		assert.Contains(t, e.Message, "uid conv", "OnError(%v), want FORBIDDEN for uid conv", err)
	}
}

func TestRealtimeValidatesSubscriptions(t *testing.T) {
	c, _ := New(Options{BaseURL: "http://127.0.0.1:1"})
	for _, subs := range [][]Subscription{
		{{Collection: "messages"}},
		{{UID: "a"}},
		{{UID: "a", Collection: "messages"}, {UID: "a", Collection: "conversations"}},
	} {
		assert.Error(t, c.Realtime(context.Background(), RealtimeOptions{Subscriptions: subs}), "Realtime accepted %+v", subs)
	}
}

func TestRealtimeUnconfirmedSubscriptionTimesOut(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	f.silent = true
	c.timeout = 100 * time.Millisecond
	disconnects := make(chan error, 4)
	connected := make(chan struct{}, 1)
	_, cancel := run(c, RealtimeOptions{
		Subscriptions: testSubs,
		OnConnect:     func() { connected <- struct{}{} },
		OnDisconnect:  func(err error) { disconnects <- err },
		MinBackoff:    time.Hour,
	})
	defer cancel()
	var ne net.Error
	err := receive(t, disconnects, "OnDisconnect")
	if assert.ErrorAs(t, err, &ne, "OnDisconnect: want a read timeout") {
		assert.True(t, ne.Timeout(), "OnDisconnect(%v), want a read timeout", err)
	}
	assert.Empty(t, connected, "OnConnect without confirmations")
}
