package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// secondInstance is the other Directus instance on the same database and
// Redis (scripts/directus/start.sh with DIRECTUS_INSTANCES=2); tests needing
// it skip without DIRECTUS_URL_2.
func secondInstance(t *testing.T) (*realDirectus, *directus.Client, string) {
	t.Helper()
	url2 := os.Getenv("DIRECTUS_URL_2")
	if url2 == "" {
		t.Skip("set DIRECTUS_URL_2 to a second Directus on the same database and Redis (DIRECTUS_INSTANCES=2 scripts/directus/start.sh)")
	}
	d := needDirectus(t)
	c, err := directus.New(directus.Options{BaseURL: url2, Token: d.adminToken})
	require.NoError(t, err)
	return d, c, url2
}

// realtimeWatch subscribes, through c's instance, to the messages of one
// conversation and collects the events; it returns once Directus has
// confirmed the subscription.
type realtimeWatch struct {
	mu     sync.Mutex
	events []directus.Event
	at     []time.Time // when each event arrived
}

func watchMessages(t *testing.T, c *directus.Client, conv string) *realtimeWatch {
	t.Helper()
	w := &realtimeWatch{}
	ctx, cancel := context.WithCancel(context.Background())
	connected := make(chan struct{})
	var once sync.Once
	done := make(chan error, 1)
	go func() {
		done <- c.Realtime(ctx, directus.RealtimeOptions{
			Subscriptions: []directus.Subscription{{UID: "two-instances", Collection: "messages",
				Query: map[string]any{"fields": []string{"id", "status", "messageText"},
					"filter": map[string]any{"conversation": map[string]any{"_eq": conv}}}}},
			OnEvent: func(e directus.Event) {
				w.mu.Lock()
				w.events = append(w.events, e)
				w.at = append(w.at, time.Now())
				w.mu.Unlock()
			},
			OnConnect:    func() { once.Do(func() { close(connected) }) },
			OnDisconnect: func(err error) { t.Logf("realtime on %s: %v", c.WebSocketURL(), err) },
		})
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case <-connected:
	case err := <-done:
		require.FailNow(t, "realtime ended before subscribing", "%v", err)
	case <-time.After(10 * time.Second):
		require.FailNow(t, "no realtime subscription after 10s", c.WebSocketURL())
	}
	return w
}

// saw reports whether an event of type typ carried the message id with the
// given text.
func (w *realtimeWatch) saw(typ, id, text string) bool {
	_, ok := w.arrival(typ, id, text)
	return ok
}

// arrival is when the first event of type typ carrying the message id with
// the given text arrived.
func (w *realtimeWatch) arrival(typ, id, text string) (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i, e := range w.events {
		if e.Type != typ {
			continue
		}
		var items []map[string]any
		if json.Unmarshal(e.Data, &items) != nil {
			continue
		}
		for _, it := range items {
			if fmt.Sprint(it["id"]) == id && fmt.Sprint(it["messageText"]) == text {
				return w.at[i], true
			}
		}
	}
	return time.Time{}, false
}

func (w *realtimeWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for _, e := range w.events {
		fmt.Fprintf(&b, "%s %s\n", e.Type, e.Data)
	}
	return b.String()
}

// TestE2ETwoInstancesRealtimeSeesTheOthersWrites: a realtime subscriber of
// one Directus instance sees the messages created and PATCHed through the
// other (Directus's message bus on Redis), both ways, within seconds — what
// the widget on instance 1 needs while the agent writes to instance 2.
func TestE2ETwoInstancesRealtimeSeesTheOthersWrites(t *testing.T) {
	d, two, url2 := secondInstance(t)
	ctx := context.Background()
	for _, c := range []struct {
		name       string
		sub, write *directus.Client
	}{
		{"subscribed to 1, written through 2", d.admin, two},
		{"subscribed to 2, written through 1", two, d.admin},
	} {
		t.Run(c.name, func(t *testing.T) {
			var conv struct {
				ID string `json:"id"`
			}
			require.NoError(t, c.write.CreateItem(ctx, "conversations",
				map[string]any{"conference": "aidata26", "user_id": "e2e", "title": t.Name()}, &conv))
			w := watchMessages(t, c.sub, conv.ID)
			// An assistant message, as the agent streams one (no Flow delivery:
			// the webhook Flow answers user messages only).
			var msg struct {
				ID string `json:"id"`
			}
			require.NoError(t, c.write.CreateItem(ctx, "messages", map[string]any{"conversation": conv.ID,
				"role": "assistant", "status": "streaming", "messageText": "Part 0"}, &msg))
			eventually(t, 5*time.Second, func() string {
				return fmt.Sprintf("the create of %s (%s) on the other instance; events:\n%v", msg.ID, url2, w)
			}, func() bool { return w.saw("create", msg.ID, "Part 0") })
			for i := 1; i <= 3; i++ {
				text := fmt.Sprintf("Part %d", i)
				start := time.Now()
				require.NoError(t, c.write.UpdateItem(ctx, "messages", msg.ID, map[string]any{"messageText": text}, nil))
				eventually(t, 5*time.Second, func() string {
					return fmt.Sprintf("the update %q of %s on the other instance; events:\n%v", text, msg.ID, w)
				}, func() bool { return w.saw("update", msg.ID, text) })
				at, _ := w.arrival("update", msg.ID, text)
				t.Logf("PATCH %d reached the other instance's subscriber %v after it was sent", i, at.Sub(start).Round(time.Millisecond))
			}
		})
	}
}

// TestE2ETwoInstancesWidgetSeesTheAgentsTurn: the agent writes through
// instance 2, the widget watches instance 1, and sees the reply created,
// streamed and completed. It logs the revision and activity rows the turn
// left in Directus, per collection: one streamed turn costs one row of each
// per create and PATCH while messages is tracked. (To measure on a single
// instance, e.g. SQLite, set DIRECTUS_URL_2=$DIRECTUS_URL.)
func TestE2ETwoInstancesWidgetSeesTheAgentsTurn(t *testing.T) {
	d, _, agentURL := secondInstance(t)
	// A paced answer: about 4 s of streamed text, so the writer's coalescing
	// (one PATCH per 250 ms) shows in the counts.
	answer := strings.Repeat("The RAG session [sessions/s006] covers retrieval, chunking and evaluation in depth. ", 8)
	env := scriptedModel(t, llmtest.Reply{Text: answer, ChunkDelay: 25 * time.Millisecond})
	env["DIRECTUS_URL"] = agentURL
	d.startAgent(t, env)
	conv := d.conversation(t)
	w := d.subscribe(t, conv)
	before := d.lastIDs(t)
	user := d.ask(t, conv, "Any sessions on RAG?")
	r := d.finished(t, user, 60*time.Second)
	require.Equal(t, "completed", r.Status, "reply %+v", r)
	time.Sleep(2 * time.Second) // the last events, and background writes (reflection, lease release)

	events := w.of(r.ID)
	var kinds []string
	streaming, completed := 0, 0
	for _, e := range events {
		st := fmt.Sprint(e.items[0]["status"])
		kinds = append(kinds, e.event+":"+st)
		if e.event == "update" && st == "streaming" {
			streaming++
		}
		if st == "completed" {
			completed++
		}
	}
	require.NotEmpty(t, events, "the widget on %s saw nothing of the reply written through %s", d.url, agentURL)
	assert.Equal(t, "create", events[0].event, "the widget's events: %v", kinds)
	assert.Positive(t, streaming, "no streaming update reached the widget: %v", kinds)
	assert.Positive(t, completed, "the widget's events: %v", kinds)
	last := events[len(events)-1].items[0]
	assert.Equal(t, "completed", last["status"], "the widget's last event: %v", kinds)
	assert.Equal(t, r.Text, last["messageText"], "the widget's last event carries the final text")

	revs, acts := d.rowsSince(t, "revisions", before.revision), d.rowsSince(t, "activity", before.activity)
	t.Logf("one streamed turn (%d answer chars, agent on %s, widget on %s): the widget saw %d events for the reply: %v",
		len(r.Text), agentURL, d.url, len(events), kinds)
	t.Logf("directus_revisions rows: reply %d, question %d; by collection: %v",
		countItem(revs, "messages", r.ID), countItem(revs, "messages", user), byCollection(revs))
	t.Logf("directus_activity rows:  reply %d, question %d; by collection and action: %v",
		countItem(acts, "messages", r.ID), countItem(acts, "messages", user), byCollectionAction(acts))
}

type lastIDs struct{ revision, activity int }

// lastIDs are the newest ids of directus_revisions and directus_activity.
func (d *realDirectus) lastIDs(t *testing.T) lastIDs {
	t.Helper()
	newest := func(path string) int {
		var rows []struct {
			ID int `json:"id"`
		}
		q := url.Values{"fields": {"id"}, "sort": {"-id"}, "limit": {"1"}}
		require.NoError(t, d.admin.Do(context.Background(), "GET", path, q, nil, &rows), "GET %s", path)
		if len(rows) == 0 {
			return 0
		}
		return rows[0].ID
	}
	return lastIDs{revision: newest("/revisions"), activity: newest("/activity")}
}

type trackedRow struct {
	Collection string `json:"collection"`
	Item       string `json:"item"`
	Action     string `json:"action"`
}

// rowsSince reads the rows of /revisions or /activity newer than id.
func (d *realDirectus) rowsSince(t *testing.T, what string, id int) []trackedRow {
	t.Helper()
	fields := "collection,item"
	if what == "activity" {
		fields += ",action"
	}
	q := url.Values{"fields": {fields}, "limit": {"-1"}, "filter": {fmt.Sprintf(`{"id":{"_gt":%d}}`, id)}}
	var rows []trackedRow
	require.NoError(t, d.admin.Do(context.Background(), "GET", "/"+what, q, nil, &rows), "GET /%s", what)
	return rows
}

func countItem(rows []trackedRow, collection, item string) int {
	n := 0
	for _, r := range rows {
		if r.Collection == collection && r.Item == item {
			n++
		}
	}
	return n
}

func byCollection(rows []trackedRow) string {
	return tally(rows, func(r trackedRow) string { return r.Collection })
}

func byCollectionAction(rows []trackedRow) string {
	return tally(rows, func(r trackedRow) string { return r.Collection + " " + r.Action })
}

func tally(rows []trackedRow, key func(trackedRow) string) string {
	n := map[string]int{}
	for _, r := range rows {
		n[key(r)]++
	}
	keys := make([]string, 0, len(n))
	for k := range n {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%d", k, n[k]))
	}
	return strings.Join(parts, ", ")
}
