package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/migrations"
	"github.com/erleah/erleah-agent/provision"
)

// realDirectus is a Directus 12.4.0 prepared for the agent: schema, the demo
// conferences and the agent's own user. Tests needing it skip without it.
type realDirectus struct {
	url, adminToken, agentToken string
	admin                       *directus.Client
	agent                       *directus.Client // the agent's own user, with its least-privilege token
}

var (
	prepOnce sync.Once
	prepared *realDirectus
	prepErr  error
)

func needDirectus(t testing.TB) *realDirectus {
	t.Helper()
	url, token := os.Getenv("DIRECTUS_URL"), os.Getenv("DIRECTUS_ADMIN_TOKEN")
	if url == "" || token == "" {
		t.Skip("set DIRECTUS_URL and DIRECTUS_ADMIN_TOKEN to run against a real Directus (scripts/directus/start.sh; scripts/test.sh does it)")
	}
	prepOnce.Do(func() { prepared, prepErr = prepare(url, token) })
	require.NoError(t, prepErr)
	return prepared
}

func prepare(url, token string) (*realDirectus, error) {
	ctx := context.Background()
	admin, err := directus.New(directus.Options{BaseURL: url, Token: token})
	if err != nil {
		return nil, err
	}
	if _, err := provision.ApplySchema(ctx, admin, migrations.DirectusSchema); err != nil {
		return nil, err
	}
	b, err := conference.Demo()
	if err != nil {
		return nil, err
	}
	if _, err := provision.Import(ctx, admin, b); err != nil {
		return nil, err
	}
	agent, err := provision.AgentUser(ctx, admin, "erleah-agent-e2e@example.com", true)
	if err != nil {
		return nil, err
	}
	return &realDirectus{url: url, adminToken: token, agentToken: agent.Token, admin: admin, agent: admin.WithToken(agent.Token)}, nil
}

// agentProc is an agent serving in-process against the real Directus, the
// target of the Flow while it runs.
type agentProc struct {
	url    string
	secret string
	stop   func() int
}

// startAgent runs serve with the agent's token, points the Flow at it and
// returns; the test stops it (or Cleanup does).
func (d *realDirectus) startAgent(t testing.TB, extra map[string]string) *agentProc {
	t.Helper()
	secret := fmt.Sprintf("hook-%d", time.Now().UnixNano())
	env := map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.agentToken, "WEBHOOK_SECRET": secret,
		"RECONCILE_INTERVAL": "1s", "RECONCILE_GRACE": "4s", "LOG_LEVEL": "warn", "RATE_PER_USER": "0", "RATE_PER_IP": "0"}
	for k, v := range extra {
		env[k] = v
	}
	url, stop := serveForTest(t, env)
	_, err := provision.Flow(context.Background(), d.admin, provision.FlowOptions{URL: url + "/v1/webhooks/directus", Secret: secret})
	require.NoError(t, err)
	p := &agentProc{url: url, secret: secret, stop: stop}
	stopped := false
	p.stop = func() int { stopped = true; return stop() }
	t.Cleanup(func() {
		if !stopped {
			stop()
		}
	})
	return p
}

// item creates an item with the admin's token, as the widget's backend
// would, and returns its id.
func (d *realDirectus) item(t testing.TB, collection string, body map[string]any) string {
	t.Helper()
	var out struct {
		ID string `json:"id"`
	}
	require.NoError(t, d.admin.CreateItem(context.Background(), collection, body, &out), "create %s", collection)
	return out.ID
}

func (d *realDirectus) conversation(t testing.TB) string {
	return d.item(t, "conversations", map[string]any{"conference": "aidata26", "user_id": "e2e", "title": t.Name()})
}

// ask creates a user message exactly as the widget does.
func (d *realDirectus) ask(t testing.TB, conv, text string) string {
	return d.item(t, "messages", map[string]any{"conversation": conv, "role": "user", "messageText": text, "status": "completed"})
}

type reply struct {
	ID       string           `json:"id"`
	Status   string           `json:"status"`
	Text     string           `json:"messageText"`
	Thinking []map[string]any `json:"thinking_output"`
	Metadata map[string]any   `json:"metadata"`
}

func (d *realDirectus) replies(t testing.TB, user string) []reply {
	t.Helper()
	var out []reply
	q := directus.Query{Fields: []string{"id", "status", "messageText", "thinking_output", "metadata"}, Filter: map[string]any{"reply_to": map[string]any{"_eq": user}}}
	require.NoError(t, d.admin.ReadItems(context.Background(), "messages", q, &out))
	return out
}

// finished waits until the user message has exactly one reply that is
// completed or failed.
func (d *realDirectus) finished(t testing.TB, user string, within time.Duration) reply {
	t.Helper()
	var rs []reply
	eventually(t, within, func() string { return fmt.Sprintf("a finished reply to %s (have %+v)", user, rs) }, func() bool {
		rs = d.replies(t, user)
		// More than one reply ends the wait: the check below fails the test.
		return len(rs) > 1 || len(rs) == 1 && (rs[0].Status == "completed" || rs[0].Status == "failed")
	})
	require.LessOrEqual(t, len(rs), 1, "replies to %s", user)
	return rs[0]
}

// eventually checks cond every 100 ms on the test's goroutine (cond may
// call require) and fails the test, saying what it waited for, if cond
// does not hold within the time given.
func eventually(t testing.TB, within time.Duration, what func() string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", within, what())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// saying makes a constant description for eventually.
func saying(what string) func() string { return func() string { return what } }

// widget plays the chat widget: a WebSocket subscription to a
// conversation's messages, recording every event it receives.
type widget struct {
	mu     sync.Mutex
	events []widgetEvent
	conn   *websocket.Conn
}

type widgetEvent struct {
	at    time.Time
	event string
	items []map[string]any
}

func (d *realDirectus) subscribe(t testing.TB, conv string) *widget {
	t.Helper()
	ws := "ws" + strings.TrimPrefix(d.url, "http") + "/websocket"
	conn, _, err := websocket.DefaultDialer.Dial(ws, http.Header{})
	require.NoError(t, err)
	w := &widget{conn: conn}
	t.Cleanup(func() { conn.Close() })
	send := func(v any) {
		require.NoError(t, conn.WriteJSON(v))
	}
	send(map[string]any{"type": "auth", "access_token": d.adminToken})
	var auth struct{ Type, Status string }
	require.NoError(t, conn.ReadJSON(&auth), "widget auth")
	require.Equal(t, "ok", auth.Status, "widget auth: %+v", auth)
	send(map[string]any{"type": "subscribe", "collection": "messages", "uid": "widget",
		"query": map[string]any{"fields": []string{"id", "role", "status", "messageText", "thinking_output", "metadata", "reply_to"},
			"filter": map[string]any{"conversation": map[string]any{"_eq": conv}}}})
	ready := make(chan struct{})
	go w.read(ready, send)
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		require.Fail(t, "the widget's subscription never started")
	}
	return w
}

func (w *widget) read(ready chan struct{}, send func(any)) {
	once := sync.Once{}
	for {
		var msg struct {
			Type  string           `json:"type"`
			Event string           `json:"event"`
			Data  []map[string]any `json:"data"`
		}
		if err := w.conn.ReadJSON(&msg); err != nil {
			return
		}
		switch {
		case msg.Type == "ping":
			_ = w.conn.WriteJSON(map[string]any{"type": "pong"})
		case msg.Type == "subscription" && msg.Event == "init":
			once.Do(func() { close(ready) })
		case msg.Type == "subscription":
			w.mu.Lock()
			w.events = append(w.events, widgetEvent{at: time.Now(), event: msg.Event, items: msg.Data})
			w.mu.Unlock()
		}
	}
}

// of returns the events about one message, in order.
func (w *widget) of(id string) []widgetEvent {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []widgetEvent
	for _, e := range w.events {
		for _, it := range e.items {
			if fmt.Sprint(it["id"]) == id {
				out = append(out, widgetEvent{at: e.at, event: e.event, items: []map[string]any{it}})
			}
		}
	}
	return out
}

// settled waits until the widget has seen the reply's final write (an
// event that ends it completed or failed: it follows the REST read that
// saw it) and returns the reply's events.
func (w *widget) settled(t testing.TB, id string) []widgetEvent {
	t.Helper()
	var events []widgetEvent
	eventually(t, 5*time.Second, func() string { return fmt.Sprintf("the widget to see reply %s finished (%d events)", id, len(events)) },
		func() bool {
			events = w.of(id)
			return len(events) > 0 && finalStatus(fmt.Sprint(events[len(events)-1].items[0]["status"]))
		})
	return events
}

// webhook posts a Flow-shaped delivery to the agent.
func (p *agentProc) webhook(t testing.TB, secret, body string) (int, map[string]any) {
	return p.post(t, "/v1/webhooks/directus", "X-Webhook-Secret", secret, body)
}

// chat posts to /v1/chat with a bearer token (none when empty).
func (p *agentProc) chat(t testing.TB, token, body string) (int, map[string]any) {
	if token != "" {
		token = "Bearer " + token
	}
	return p.post(t, "/v1/chat", "Authorization", token, body)
}

// post sends a JSON body with one header (left out when empty) and decodes
// the JSON answer.
func (p *agentProc) post(t testing.TB, path, header, value, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, p.url+path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if value != "" {
		req.Header.Set(header, value)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	return resp.StatusCode, out
}

func flowBody(id, conv string) string {
	return fmt.Sprintf(`{"event":"messages.items.create","collection":"messages","key":%q,"payload":{"conversation":%q,"role":"user","messageText":"x"}}`, id, conv)
}

// TestE2ESetupMakesOneAttendeeRole: directus setup, run twice, leaves one
// attendees' role holding one policy with exactly the README's grants, and
// an attendee may not update a message. directus check reports a grant too
// many, another policy on the role and a parent role; setup takes them
// away.
func TestE2ESetupMakesOneAttendeeRole(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	env := map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.adminToken, "WEBHOOK_SECRET": "s", "PUBLIC_URL": "http://127.0.0.1:9"}
	for _, want := range []string{"attendee role: ", "attendee role: already up to date"} {
		code, out, errOut := cli(t, env, "directus", "setup", "--agent-email", "erleah-agent-setup@example.com")
		require.Zero(t, code, errOut)
		assert.Contains(t, out, want)
	}
	role, policy := d.onlyOne(t, "/roles"), d.onlyOne(t, "/policies")
	assert.Equal(t, []string{"conferences read", "conversations create", "conversations read", "exhibitors read",
		"messages create", "messages read", "sessions read", "speakers read"}, d.grants(t, policy))
	assert.Equal(t, []string{policy}, d.rolePolicies(t, role))

	carol := d.attendee(t, "carol")
	pauseFlow(t, d, true) // no agent answers here
	q := carol.ask(t, carol.conversation(t), "Any k8s workshops?")
	pauseFlow(t, d, false)
	var de *directus.Error
	err := carol.c.UpdateItem(ctx, "messages", q, map[string]any{"messageText": "changed"}, nil)
	assert.True(t, errors.As(err, &de) && de.Status == 403, "an attendee updating a message: %v", err)

	d.loosenAttendee(t, role, policy)
	code, _, errOut := cli(t, env, "directus", "check")
	assert.NotZero(t, code)
	for _, want := range []string{`messages: the role "erleah-attendee" may update`, `the role "erleah-attendee" does not hold just the policy`} {
		assert.Contains(t, errOut, want)
	}
	res, err := provision.Attendee(ctx, d.admin)
	require.NoError(t, err)
	assert.Equal(t, 2, res.Changes, "a grant revoked; the other policy and the parent dropped")
	assert.Equal(t, []string{policy}, d.rolePolicies(t, role))
	problems, err := provision.CheckAttendee(ctx, d.admin)
	assert.NoError(t, err)
	assert.Empty(t, problems)
}

// onlyOne is the id of the one item of path (/roles or /policies) named
// for attendees; the test fails when there is not exactly one.
func (d *realDirectus) onlyOne(t *testing.T, path string) string {
	t.Helper()
	var found []struct {
		ID string `json:"id"`
	}
	q := url.Values{"filter": {`{"name":{"_eq":"` + provision.AttendeeName + `"}}`}, "fields": {"id"}}
	require.NoError(t, d.admin.Do(context.Background(), "GET", path, q, nil, &found))
	require.Len(t, found, 1, "%s named %s", path, provision.AttendeeName)
	return found[0].ID
}

// grants are the policy's permissions as sorted "collection action" pairs.
func (d *realDirectus) grants(t *testing.T, policy string) []string {
	t.Helper()
	var perms []struct {
		Collection string   `json:"collection"`
		Action     string   `json:"action"`
		Fields     []string `json:"fields"`
	}
	q := url.Values{"filter": {`{"policy":{"_eq":"` + policy + `"}}`}, "fields": {"collection,action,fields"}, "limit": {"-1"}}
	require.NoError(t, d.admin.Do(context.Background(), "GET", "/permissions", q, nil, &perms))
	var out []string
	for _, p := range perms {
		assert.Equal(t, []string{"*"}, p.Fields, "fields of %s %s", p.Action, p.Collection)
		out = append(out, p.Collection+" "+p.Action)
	}
	slices.Sort(out)
	return out
}

// rolePolicies are the policies the role holds.
func (d *realDirectus) rolePolicies(t *testing.T, role string) []string {
	t.Helper()
	var r struct {
		Policies []struct {
			Policy string `json:"policy"`
		} `json:"policies"`
	}
	require.NoError(t, d.admin.Do(context.Background(), "GET", "/roles/"+role, url.Values{"fields": {"policies.policy"}}, nil, &r))
	var out []string
	for _, p := range r.Policies {
		out = append(out, p.Policy)
	}
	return out
}

// loosenAttendee gives attendees more than setup does: update on messages,
// and a second policy and a parent on their role (deleted when the test
// ends). Directus without a licence refuses app access to a policy whose
// users would need more seats than it has.
func (d *realDirectus) loosenAttendee(t *testing.T, role, policy string) {
	t.Helper()
	ctx := context.Background()
	grant := map[string]any{"policy": policy, "collection": "messages", "action": "update", "fields": []string{"*"}}
	require.NoError(t, d.admin.Do(ctx, "POST", "/permissions", nil, grant, nil))
	name := fmt.Sprintf("e2e-extra-%d", time.Now().UnixNano())
	extra, parent := d.deletedLater(t, "/policies", name), d.deletedLater(t, "/roles", name)
	patch := map[string]any{"parent": parent, "policies": map[string]any{"create": []any{map[string]any{"policy": extra}}}}
	require.NoError(t, d.admin.Do(ctx, "PATCH", "/roles/"+role, nil, patch, nil))
}

// deletedLater creates a role or policy with nothing in it, deleted when
// the test ends, and returns its id.
func (d *realDirectus) deletedLater(t *testing.T, path, name string) string {
	t.Helper()
	var created struct {
		ID string `json:"id"`
	}
	require.NoError(t, d.admin.Do(context.Background(), "POST", path, nil, map[string]any{"name": name}, &created))
	t.Cleanup(func() { _ = d.admin.Do(context.Background(), "DELETE", path+"/"+created.ID, nil, nil, nil) })
	return created.ID
}
