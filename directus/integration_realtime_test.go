package directus

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// testThinkingUpdate subscribes to one message, patches its
// thinking_output and measures when the update arrives.
func testThinkingUpdate(ctx context.Context, t *testing.T, c *Client, id string) {
	events := make(chan arrival, 16)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- c.Realtime(rctx, RealtimeOptions{
			Subscriptions: []Subscription{{UID: "thinking-" + id, Collection: "messages", Query: map[string]any{
				"fields": []string{"id", "status", "thinking_output"},
				"filter": map[string]any{"id": map[string]any{"_eq": id}},
			}}},
			OnEvent: func(e Event) { events <- arrival{e, time.Now()} },
			OnError: func(err error) { t.Errorf("realtime: %v", err) },
		})
	}()
	defer func() {
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("Realtime = %v", err)
		}
	}()
	if e := waitEvent(t, events, "init"); !strings.Contains(string(e.Data), id) {
		t.Errorf("init data = %s", e.Data)
	}

	thinking := []map[string]any{{"message": "Looking for sessions about keynotes.", "strategy": "relax", "retry_count": 1, "ts": 1738000000.123}}
	sent := time.Now()
	if err := c.UpdateItem(ctx, "messages", id, map[string]any{"thinking_output": thinking, "status": "streaming"}, nil); err != nil {
		t.Fatal(err)
	}
	returned := time.Now()
	e := waitEvent(t, events, "update")
	t.Logf("PATCH → realtime update: %v after sending the PATCH, %v after it returned (PATCH took %v)",
		e.at.Sub(sent).Round(time.Microsecond), e.at.Sub(returned).Round(time.Microsecond), returned.Sub(sent).Round(time.Microsecond))
	var items []message
	if err := json.Unmarshal(e.Data, &items); err != nil || len(items) != 1 || len(items[0].ThinkingOutput) != 1 || items[0].Status != "streaming" {
		t.Errorf("update data = %s (%v)", e.Data, err)
	}
}

// arrival is an event and when OnEvent got it.
type arrival struct {
	Event
	at time.Time
}

// waitEvent returns the next event of type typ, skipping others.
func waitEvent(t *testing.T, events <-chan arrival, typ string) arrival {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e := <-events:
			if e.Type == typ {
				return e
			}
			t.Logf("skipping %s event", e.Type)
		case <-timeout:
			t.Fatalf("no %s event within 10 s", typ)
		}
	}
}

func testRealtimeBadToken(ctx context.Context, t *testing.T, c *Client) {
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	err := c.WithToken("not-a-token").Realtime(rctx, RealtimeOptions{})
	var e *Error
	if !errors.As(err, &e) || e.Code == "" || errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Realtime with a bad token = %v, want a coded *Error", err)
	}
	t.Logf("realtime with a bad token: %v", err)
}

// testRealtimeConfirmations checks that OnConnect waits for Directus's
// answers: an init for a subscription limited to one event, an error for a
// collection that does not exist.
func testRealtimeConfirmations(ctx context.Context, t *testing.T, c *Client) {
	rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	var events []Event
	var refused []error
	err := c.Realtime(rctx, RealtimeOptions{
		Subscriptions: []Subscription{
			{UID: "missing", Collection: "no_such_collection"},
			{UID: "updates", Collection: "messages", Event: "update"},
		},
		OnEvent:   func(e Event) { events = append(events, e) },
		OnError:   func(err error) { refused = append(refused, err) },
		OnConnect: cancel,
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Realtime = %v, want Canceled by OnConnect", err)
	}
	if len(events) != 1 || events[0].UID != "updates" || events[0].Type != "init" {
		t.Errorf("events before OnConnect = %+v, want the init of updates", events)
	}
	if len(refused) != 1 || !HasCode(refused[0], CodeForbidden) {
		t.Errorf("errors before OnConnect = %v, want FORBIDDEN for missing", refused)
	}
	t.Logf("refused subscription: %v", refused)
}
