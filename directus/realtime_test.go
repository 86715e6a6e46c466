package directus

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestRealtimeConfirmsSubscriptionsBeforeOnConnect(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	if len(s.events) != 2 {
		t.Fatalf("%d events before OnConnect, want the 2 inits", len(s.events))
	}
	for _, want := range []string{`msg init []`, `conv init `} {
		if e := <-s.events; e.UID+" "+e.Type+" "+string(e.Data) != want {
			t.Errorf("init event = %+v (data %s), want %s", e, e.Data, want)
		}
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
		if err := s.fc.write(m); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range sent {
		e := receive(t, s.events, "event")
		data, _ := json.Marshal(m["data"])
		if e.UID != m["uid"] || e.Type != m["event"] || string(e.Data) != string(data) {
			t.Errorf("event = %+v (data %s), want %v", e, e.Data, m)
		}
	}
}

func TestRealtimeAnswersPing(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	_ = s.fc.write(map[string]any{"type": "ping"})
	if got := receive(t, s.fc.in, "pong"); !reflect.DeepEqual(got, map[string]any{"type": "pong"}) {
		t.Errorf("answer to ping = %v", got)
	}
}

func TestRealtimeCancelStopsPromptlyWithNormalClose(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	s := startSession(t, f, c)
	start := time.Now()
	s.cancel()
	if err := receive(t, s.done, "Realtime to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("Realtime = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Realtime took %v to stop", d)
	}
	for range s.fc.in {
	}
	if s.fc.closeCode != websocket.CloseNormalClosure {
		t.Errorf("close code = %d, want a normal closure", s.fc.closeCode)
	}
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
	if !errors.As(err, &e) || e.Code != CodeAuthFailed || e.Path != "/prefix/websocket" {
		t.Fatalf("Realtime = %v, want an AUTH_FAILED *Error", err)
	}
	if connected || len(f.conns) != 0 {
		t.Error("connected despite bad credentials")
	}
}

func TestRealtimeRefusedUpgrade(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	f.refuse = http.StatusNotFound
	done, cancel := run(c, RealtimeOptions{})
	defer cancel()
	var e *Error
	if err := receive(t, done, "Realtime to return"); !errors.As(err, &e) || e.Status != 404 || e.Code != "ROUTE_NOT_FOUND" {
		t.Fatalf("Realtime = %v, want the 404", err)
	}
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
		if err := receive(t, failures, "a failed attempt"); !errors.As(err, &e) || e.Status != 503 {
			t.Errorf("OnDisconnect(%v), want the 503", err)
		}
	}
	cancel()
	if err := receive(t, done, "Realtime to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("Realtime = %v", err)
	}
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

	if err := receive(t, disconnects, "OnDisconnect"); err == nil {
		t.Error("OnDisconnect(nil)")
	}
	second := receive(t, f.conns, "second connection")
	expectSubscribes(t, second)
	receive(t, connects, "second OnConnect")
	_ = second.write(map[string]any{"type": "subscription", "event": "create", "uid": "conv", "data": []any{}})
	var types []string
	for len(types) < 5 {
		types = append(types, receive(t, events, "event").Type)
	}
	if got := strings.Join(types, " "); got != "init init init init create" {
		t.Errorf("events = %s, want the inits of both connections, then create", got)
	}
	cancel()
	if err := receive(t, done, "Realtime to return"); !errors.Is(err, context.Canceled) {
		t.Errorf("Realtime = %v", err)
	}
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
	if !HasCode(err, CodeForbidden) {
		t.Errorf("OnError(%v), want FORBIDDEN", err)
	}
	if err := receive(t, serverErrs, "malformed message error"); !errors.Is(err, errMalformed) {
		t.Errorf("OnError(%v), want a malformed message", err)
	}
	if e := receive(t, events, "event after the errors"); e.UID != "after" {
		t.Errorf("event = %+v", e)
	}
}

func TestRealtimeKeepAlive(t *testing.T) {
	f, c := newFakeRealtime(t, testToken)
	done, cancel := run(c, RealtimeOptions{PingInterval: 50 * time.Millisecond, MinBackoff: time.Millisecond})
	defer cancel()
	fc := receive(t, f.conns, "connection")
	if got := receive(t, fc.in, "client ping"); got["type"] != "ping" {
		t.Errorf("client sent %v, want a ping", got)
	}
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
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("stopping took %v", d)
	}
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
	if !errors.As(err, &e) || e.Code != CodeForbidden || !strings.Contains(e.Message, "uid conv") {
		t.Errorf("OnError(%v), want FORBIDDEN for uid conv", err)
	}
}

func TestRealtimeValidatesSubscriptions(t *testing.T) {
	c, _ := New(Options{BaseURL: "http://127.0.0.1:1"})
	for _, subs := range [][]Subscription{
		{{Collection: "messages"}},
		{{UID: "a"}},
		{{UID: "a", Collection: "messages"}, {UID: "a", Collection: "conversations"}},
	} {
		if err := c.Realtime(context.Background(), RealtimeOptions{Subscriptions: subs}); err == nil {
			t.Errorf("Realtime accepted %+v", subs)
		}
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
	if err := receive(t, disconnects, "OnDisconnect"); !errors.As(err, &ne) || !ne.Timeout() {
		t.Errorf("OnDisconnect(%v), want a read timeout", err)
	}
	if len(connected) != 0 {
		t.Error("OnConnect without confirmations")
	}
}
