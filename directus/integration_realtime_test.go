package directus

import (
	"context"
	"encoding/json"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
			OnError: func(err error) { assert.NoError(t, err, "realtime") },
		})
	}()
	defer func() {
		cancel()
		assert.ErrorIs(t, <-done, context.Canceled, "Realtime")
	}()
	e := waitEvent(t, events, "init")
	assert.Contains(t, string(e.Data), id, "init data")

	thinking := []map[string]any{{"message": "Looking for sessions about keynotes.", "strategy": "relax", "retry_count": 1, "ts": 1738000000.123}}
	sent := time.Now()
	require.NoError(t, c.UpdateItem(ctx, "messages", id, map[string]any{"thinking_output": thinking, "status": "streaming"}, nil))
	returned := time.Now()
	e = waitEvent(t, events, "update")
	t.Logf("PATCH → realtime update: %v after sending the PATCH, %v after it returned (PATCH took %v)",
		e.at.Sub(sent).Round(time.Microsecond), e.at.Sub(returned).Round(time.Microsecond), returned.Sub(sent).Round(time.Microsecond))
	var items []message
	if assert.NoError(t, json.Unmarshal(e.Data, &items), "update data = %s", e.Data) &&
		assert.Len(t, items, 1, "update data = %s", e.Data) {
		assert.Len(t, items[0].ThinkingOutput, 1, "update data = %s", e.Data)
		assert.Equal(t, "streaming", items[0].Status, "update data = %s", e.Data)
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
	if assert.ErrorAs(t, err, &e, "Realtime with a bad token: want a coded *Error") {
		assert.NotEmpty(t, e.Code, "Realtime with a bad token = %v, want a coded *Error", err)
	}
	assert.NotErrorIs(t, err, context.DeadlineExceeded, "Realtime with a bad token: want a coded *Error")
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
	require.ErrorIs(t, err, context.Canceled, "Realtime: want Canceled by OnConnect")
	if assert.Len(t, events, 1, "events before OnConnect = %+v, want the init of updates", events) {
		assert.Equal(t, "updates", events[0].UID, "events before OnConnect = %+v, want the init of updates", events)
		assert.Equal(t, "init", events[0].Type, "events before OnConnect = %+v, want the init of updates", events)
	}
	if assert.Len(t, refused, 1, "errors before OnConnect = %v, want FORBIDDEN for missing", refused) {
		assert.True(t, HasCode(refused[0], CodeForbidden), "errors before OnConnect = %v, want FORBIDDEN for missing", refused)
	}
	t.Logf("refused subscription: %v", refused)
}
