package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/migrations"
	"github.com/erleah/erleah-agent/provision"
)

// TestE2EWidgetSeesTheTurn creates a user message as the widget does and
// watches, through the widget's WebSocket subscription, the assistant message
// go pending → thinking → streaming → completed with citations.
func TestE2EWidgetSeesTheTurn(t *testing.T) {
	d := needDirectus(t)
	d.startAgent(t, nil)
	conv := d.conversation(t)
	w := d.subscribe(t, conv)
	user := d.ask(t, conv, "Who can help me deploy ML models on-prem?")
	r := d.finished(t, user, 20*time.Second)
	events := w.settled(t, r.ID)
	const created = "the widget saw %d events for the reply, first %+v; want it created pending"
	require.GreaterOrEqual(t, len(events), 3, created, len(events), events)
	require.Equal(t, "create", events[0].event, created, len(events), events)
	require.Equal(t, "pending", events[0].items[0]["status"], created, len(events), events)
	var thinking, streaming, completed int
	for i, e := range events[1:] {
		it := e.items[0]
		if recs, ok := it["thinking_output"].([]any); ok && len(recs) > 0 && thinking == 0 {
			thinking = i + 1
			checkRecords(t, recs)
		}
		// Directus reads the item when it sends an event, not when it was
		// written: under load the streaming write's event can already show
		// the message completed. Either way the widget must see the text in
		// an update before the last one.
		if (it["status"] == "streaming" || it["status"] == "completed") && streaming == 0 && it["messageText"] != "" {
			streaming = i + 1
		}
		if it["status"] == "completed" {
			completed = i + 1
		}
	}
	const order = "order of the widget's events: thinking %d, streaming %d, completed %d (of %d)"
	require.NotZero(t, thinking, order, thinking, streaming, completed, len(events))
	require.NotZero(t, streaming, order, thinking, streaming, completed, len(events))
	require.NotZero(t, completed, order, thinking, streaming, completed, len(events))
	require.LessOrEqual(t, thinking, streaming, order, thinking, streaming, completed, len(events))
	require.Less(t, streaming, completed, order, thinking, streaming, completed, len(events))
	last := events[len(events)-1].items[0]
	meta, _ := last["metadata"].(map[string]any)
	const final = "the last event is not the completed reply with citations: %+v"
	require.Equal(t, "completed", last["status"], final, last)
	require.NotNil(t, meta, final, last)
	require.NotEmpty(t, meta["citations"].([]any), final, last)
	require.NotNil(t, meta["trace_id"], final, last)
	// The turn reflected, so its lessons reach agent_reflections, written
	// with the agent's own token in the background.
	agentClient := d.agent
	var lessons []struct {
		Conference string         `json:"conference"`
		Lesson     map[string]any `json:"lesson"`
	}
	var readErr error
	require.Eventually(t, func() bool {
		readErr = agentClient.ReadItems(context.Background(), "agent_reflections", directus.Query{Fields: []string{"conference", "lesson"},
			Filter: map[string]any{"conference": map[string]any{"_eq": "aidata26"}}}, &lessons)
		return readErr != nil || len(lessons) != 0 // an error ends the wait: the check below fails the test
	}, 15*time.Second, 200*time.Millisecond, "no lesson of the reflected turn in agent_reflections")
	require.NoError(t, readErr, "the agent cannot read its memory")
	const lesson = "no lesson of the reflected turn in agent_reflections: %+v"
	require.NotEmpty(t, lessons, lesson, lessons)
	require.NotNil(t, lessons[0].Lesson["strategy"], lesson, lessons)
	assert.NotEqual(t, "", lessons[0].Lesson["text"], lesson, lessons)
}

func checkRecords(t *testing.T, recs []any) {
	t.Helper()
	prev, round := 0.0, 0
	for i, r := range recs {
		rec := r.(map[string]any)
		for _, k := range []string{"message", "strategy", "retry_count", "ts"} {
			require.Contains(t, rec, k, "thinking record %d lacks %s: %v", i, k, rec)
		}
		if rec["strategy"] == "acknowledgment" { // the first record, when there is one
			require.Zero(t, i, "the acknowledgment is record %d: %v", i, recs)
		} else {
			round++
			require.Equal(t, round, int(rec["retry_count"].(float64)), "thinking records out of order: %v", recs)
		}
		require.GreaterOrEqual(t, rec["ts"].(float64), prev, "thinking records out of order: %v", recs)
		prev = rec["ts"].(float64)
	}
}

func TestE2EDuplicateDeliveriesGiveOneReply(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, nil)
	conv := d.conversation(t)
	user := d.ask(t, conv, "Any k8s workshops?") // the Flow delivers it once
	var wg sync.WaitGroup
	for range 2 { // and the same delivery arrives twice more, at once
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, body := a.webhook(t, a.secret, flowBody(user, conv))
			assert.Contains(t, []int{200, 202}, code, "duplicate delivery: %v", body)
		}()
	}
	wg.Wait()
	d.finished(t, user, 20*time.Second)
	time.Sleep(500 * time.Millisecond)
	assert.Len(t, d.replies(t, user), 1, "replies")
}

func TestE2EBadDeliveriesAreRefusedAndNothingIsLost(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, map[string]string{"RECONCILE_GRACE": "3s"})
	conv := d.conversation(t)
	pauseFlow(t, d, true) // this message reaches the agent only through the bad calls below
	user := d.ask(t, conv, "Any sessions on RAG?")
	pauseFlow(t, d, false)
	for _, secret := range []string{"", "wrong"} {
		code, _ := a.webhook(t, secret, flowBody(user, conv))
		require.Equal(t, 401, code, "secret %q", secret)
	}
	code, _ := a.webhook(t, a.secret, `{"event": "messages.items.create", "key": `)
	require.Equal(t, 400, code, "malformed body")
	time.Sleep(time.Second)
	require.Empty(t, d.replies(t, user), "a refused delivery produced replies")
	r := d.finished(t, user, 15*time.Second) // the reconciler finds it after the grace period
	assert.Equal(t, "completed", r.Status, "reconciled reply: %+v", r)
}

// pauseFlow makes the webhook Flow inactive or active again.
func pauseFlow(t testing.TB, d *realDirectus, pause bool) {
	t.Helper()
	status := "active"
	if pause {
		status = "inactive"
	}
	var flows []struct {
		ID string `json:"id"`
	}
	q := map[string][]string{"filter": {`{"name":{"_eq":"` + provision.FlowName + `"}}`}, "fields": {"id"}}
	require.NoError(t, d.admin.Do(context.Background(), "GET", "/flows", q, nil, &flows), "find the flow")
	require.Len(t, flows, 1, "find the flow")
	require.NoError(t, d.admin.Do(context.Background(), "PATCH", "/flows/"+flows[0].ID, nil, map[string]any{"status": status}, nil))
	time.Sleep(200 * time.Millisecond) // flows reload asynchronously
}

func TestE2EMessageCreatedWhileTheAgentWasDown(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, nil)
	require.Zero(t, a.stop(), "stop: exit code")
	conv := d.conversation(t)
	user := d.ask(t, conv, "Where can I get coffee?") // the Flow's delivery fails: nobody listens
	time.Sleep(500 * time.Millisecond)
	d.startAgent(t, map[string]string{"RECONCILE_GRACE": "1s"})
	r := d.finished(t, user, 15*time.Second)
	assert.Equal(t, "completed", r.Status, "reply after the restart: %+v", r)
}

func TestE2ERealtimeTrigger(t *testing.T) {
	d := needDirectus(t)
	d.startAgent(t, map[string]string{"TRIGGER": "realtime", "RECONCILE_GRACE": "1m"})
	pauseFlow(t, d, true)
	defer pauseFlow(t, d, false)
	time.Sleep(time.Second) // the agent's subscription is up
	conv := d.conversation(t)
	user := d.ask(t, conv, "Any k8s workshops?")
	r := d.finished(t, user, 10*time.Second)
	assert.Equal(t, "completed", r.Status, "reply through the realtime trigger: %+v", r)
}

func TestE2ESetupChangesNothingTheSecondTimeAndKeepsOtherCollections(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	name := "unrelated_notes_" + strings.ReplaceAll(time.Now().Format("150405.000"), ".", "")
	require.NoError(t, d.admin.Do(ctx, "POST", "/collections", nil, map[string]any{"collection": name, "schema": map[string]any{},
		"fields": []any{map[string]any{"field": "id", "type": "integer", "schema": map[string]any{"is_primary_key": true, "has_auto_increment": true}},
			map[string]any{"field": "note", "type": "string"}}}, nil))
	require.NoError(t, d.admin.CreateItem(ctx, name, map[string]any{"note": "keep me"}, nil))
	env := map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.adminToken, "WEBHOOK_SECRET": "s", "PUBLIC_URL": "http://127.0.0.1:9"}
	code, out, errOut := cli(t, env, "directus", "setup", "--agent-email", "erleah-agent-setup@example.com")
	require.Zero(t, code, "first setup: exit code; stderr %s", errOut)
	code, out, errOut = cli(t, env, "directus", "setup", "--agent-email", "erleah-agent-setup@example.com")
	const second = "second setup: exit %d\n%s%s"
	require.Zero(t, code, second, code, out, errOut)
	require.Contains(t, out, "nothing changed", second, code, out, errOut)
	require.NotContains(t, out, "token", second, code, out, errOut)
	var notes []map[string]any
	require.NoError(t, d.admin.ReadItems(ctx, name, directus.Query{}, &notes), "the unrelated collection after setup")
	require.Len(t, notes, 1, "the unrelated collection after setup: %v", notes)
	require.Equal(t, "keep me", notes[0]["note"], "the unrelated collection after setup: %v", notes)
	code, out, _ = cli(t, env, "directus", "check")
	require.Zero(t, code, "check: exit code; stdout %s", out)
	require.Contains(t, out, "ok:", "check")
	code, out, _ = cli(t, env, "directus", "import")
	require.Zero(t, code, "importing the demo again: exit code\n%s", out)
	require.Contains(t, out, "nothing changed", "importing the demo again")
	// Restore the Flow for the other tests.
	_, err := provision.Flow(ctx, d.admin, provision.FlowOptions{URL: "http://127.0.0.1:9/v1/webhooks/directus", Secret: "s"})
	require.NoError(t, err)
	problems, err := provision.Check(ctx, d.admin, migrations.DirectusSchema)
	require.NoError(t, err, "check after setup")
	assert.Empty(t, problems, "check after setup")
}

// TestE2EChatWithTheCallersToken is the widget's own trigger: POST /v1/chat
// with the caller's Directus token, which must be able to read the message.
func TestE2EChatWithTheCallersToken(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, map[string]string{"RECONCILE_GRACE": "1m"})
	conv := d.conversation(t)
	pauseFlow(t, d, true) // the message reaches the agent only through /v1/chat
	user := d.ask(t, conv, "Any k8s workshops?")
	pauseFlow(t, d, false)
	stranger := d.userWithoutAccess(t)
	body := `{"conversation_id":"` + conv + `","message_id":"` + user + `"}`
	for _, c := range []struct {
		token string
		body  string
		want  int
	}{
		{"", body, 401},
		{"not-a-token-directus-knows", body, 401},
		{stranger, body, 403},
		{d.adminToken, `{"conversation_id":"` + conv + `"}`, 400},
		{d.adminToken, `{"conversation_id":"` + d.conversation(t) + `","message_id":"` + user + `"}`, 400},
	} {
		code, out := a.chat(t, c.token, c.body)
		require.Equal(t, c.want, code, "token %.8q body %s: %v", c.token, c.body, out)
	}
	time.Sleep(500 * time.Millisecond)
	require.Empty(t, d.replies(t, user), "refused calls produced replies")
	code, out := a.chat(t, d.adminToken, body)
	require.Equal(t, 202, code, "the owner's call: %v", out)
	require.Equal(t, "accepted", out["status"], "the owner's call: %v", out)
	r := d.finished(t, user, 15*time.Second)
	assert.Equal(t, "completed", r.Status, "reply %+v; accepted as %v", r, out["assistant_message_id"])
	assert.Equal(t, out["assistant_message_id"], r.ID, "reply %+v; accepted as", r)
}

// userWithoutAccess creates a Directus user with a static token and no
// role or policy: it can log in but read nothing.
func (d *realDirectus) userWithoutAccess(t testing.TB) string {
	t.Helper()
	token := fmt.Sprintf("stranger-%d", time.Now().UnixNano())
	body := map[string]any{"email": token + "@example.com", "token": token, "status": "active"}
	require.NoError(t, d.admin.Do(context.Background(), "POST", "/users", nil, body, nil))
	return token
}

// TestE2EUnansweredIsFoundBehindManyAnswered: the reconciler's query must
// find an unanswered message however many answered ones came before it in
// its window (it once read the first page of user messages and filtered).
func TestE2EUnansweredIsFoundBehindManyAnswered(t *testing.T) {
	const limit = 5
	d := needDirectus(t)
	pauseFlow(t, d, true) // nobody answers these but this test
	defer pauseFlow(t, d, false)
	since := time.Now().Add(-time.Second)
	conv := d.conversation(t)
	for range limit {
		user := d.ask(t, conv, "answered")
		d.item(t, "messages", map[string]any{"conversation": conv, "role": "assistant", "status": "completed", "messageText": "yes", "reply_to": user})
	}
	missed := d.ask(t, conv, "never answered")
	got, err := chat.NewDirectusStore(d.admin).Unanswered(context.Background(), since, time.Now().Add(time.Second), limit)
	require.NoError(t, err)
	found := false
	for _, m := range got {
		found = found || m.ID == missed
		require.Empty(t, d.replies(t, m.ID), "Unanswered returned %+v, which is answered", m)
		require.Equal(t, "user", m.Role, "Unanswered returned %+v, which is not a user's", m)
	}
	// a full page of other tests' unanswered messages would be fair
	assert.True(t, found || len(got) >= limit, "Unanswered(limit %d) = %d messages without %s", limit, len(got), missed)
}
