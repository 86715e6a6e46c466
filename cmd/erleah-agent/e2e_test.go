package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

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
	time.Sleep(300 * time.Millisecond) // the last update event follows the REST read
	events := w.of(r.ID)
	if len(events) < 3 || events[0].event != "create" || events[0].items[0]["status"] != "pending" {
		t.Fatalf("the widget saw %d events for the reply, first %+v; want it created pending", len(events), events)
	}
	var thinking, streaming, completed int
	for i, e := range events[1:] {
		it := e.items[0]
		if recs, ok := it["thinking_output"].([]any); ok && len(recs) > 0 && thinking == 0 {
			thinking = i + 1
			checkRecords(t, recs)
		}
		if it["status"] == "streaming" && streaming == 0 && it["messageText"] != "" {
			streaming = i + 1
		}
		if it["status"] == "completed" {
			completed = i + 1
		}
	}
	if thinking == 0 || streaming == 0 || completed == 0 || !(thinking <= streaming && streaming < completed) {
		t.Fatalf("order of the widget's events: thinking %d, streaming %d, completed %d (of %d)", thinking, streaming, completed, len(events))
	}
	last := events[len(events)-1].items[0]
	meta, _ := last["metadata"].(map[string]any)
	if last["status"] != "completed" || meta == nil || len(meta["citations"].([]any)) == 0 || meta["trace_id"] == nil {
		t.Fatalf("the last event is not the completed reply with citations: %+v", last)
	}
	// The turn reflected, so its lessons reach agent_reflections, written
	// with the agent's own token in the background.
	agentClient, err := directus.New(directus.Options{BaseURL: d.url, Token: d.agentToken})
	if err != nil {
		t.Fatal(err)
	}
	var lessons []struct {
		Conference string         `json:"conference"`
		Lesson     map[string]any `json:"lesson"`
	}
	deadline := time.Now().Add(15 * time.Second)
	for len(lessons) == 0 && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		if err := agentClient.ReadItems(context.Background(), "agent_reflections", directus.Query{Fields: []string{"conference", "lesson"},
			Filter: map[string]any{"conference": map[string]any{"_eq": "aidata26"}}}, &lessons); err != nil {
			t.Fatalf("the agent cannot read its memory: %v", err)
		}
	}
	if len(lessons) == 0 || lessons[0].Lesson["strategy"] == nil || lessons[0].Lesson["text"] == "" {
		t.Fatalf("no lesson of the reflected turn in agent_reflections: %+v", lessons)
	}
}

func checkRecords(t *testing.T, recs []any) {
	t.Helper()
	prev, round := 0.0, 0
	for i, r := range recs {
		rec := r.(map[string]any)
		for _, k := range []string{"message", "strategy", "retry_count", "ts"} {
			if _, ok := rec[k]; !ok {
				t.Fatalf("thinking record %d lacks %s: %v", i, k, rec)
			}
		}
		if rec["strategy"] == "acknowledgment" { // the first record, when there is one
			if i != 0 {
				t.Fatalf("the acknowledgment is record %d: %v", i, recs)
			}
		} else if round++; int(rec["retry_count"].(float64)) != round {
			t.Fatalf("thinking records out of order: %v", recs)
		}
		if rec["ts"].(float64) < prev {
			t.Fatalf("thinking records out of order: %v", recs)
		}
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
			if code, body := a.webhook(t, a.secret, flowBody(user, conv)); code != 200 && code != 202 {
				t.Errorf("duplicate delivery: %d %v", code, body)
			}
		}()
	}
	wg.Wait()
	d.finished(t, user, 20*time.Second)
	time.Sleep(500 * time.Millisecond)
	if n := len(d.replies(t, user)); n != 1 {
		t.Fatalf("%d replies", n)
	}
}

func TestE2EBadDeliveriesAreRefusedAndNothingIsLost(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, map[string]string{"RECONCILE_GRACE": "3s"})
	conv := d.conversation(t)
	pauseFlow(t, d, true) // this message reaches the agent only through the bad calls below
	user := d.ask(t, conv, "Any sessions on RAG?")
	pauseFlow(t, d, false)
	for _, secret := range []string{"", "wrong"} {
		if code, _ := a.webhook(t, secret, flowBody(user, conv)); code != 401 {
			t.Fatalf("secret %q: %d, want 401", secret, code)
		}
	}
	if code, _ := a.webhook(t, a.secret, `{"event": "messages.items.create", "key": `); code != 400 {
		t.Fatalf("malformed body: %d, want 400", code)
	}
	time.Sleep(time.Second)
	if n := len(d.replies(t, user)); n != 0 {
		t.Fatalf("a refused delivery produced %d replies", n)
	}
	r := d.finished(t, user, 15*time.Second) // the reconciler finds it after the grace period
	if r.Status != "completed" {
		t.Fatalf("reconciled reply: %+v", r)
	}
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
	if err := d.admin.Do(context.Background(), "GET", "/flows", q, nil, &flows); err != nil || len(flows) != 1 {
		t.Fatalf("find the flow: %v (%d)", err, len(flows))
	}
	if err := d.admin.Do(context.Background(), "PATCH", "/flows/"+flows[0].ID, nil, map[string]any{"status": status}, nil); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // flows reload asynchronously
}

func TestE2EMessageCreatedWhileTheAgentWasDown(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, nil)
	if code := a.stop(); code != 0 {
		t.Fatalf("stop: exit %d", code)
	}
	conv := d.conversation(t)
	user := d.ask(t, conv, "Where can I get coffee?") // the Flow's delivery fails: nobody listens
	time.Sleep(500 * time.Millisecond)
	d.startAgent(t, map[string]string{"RECONCILE_GRACE": "1s"})
	if r := d.finished(t, user, 15*time.Second); r.Status != "completed" {
		t.Fatalf("reply after the restart: %+v", r)
	}
}

func TestE2ERealtimeTrigger(t *testing.T) {
	d := needDirectus(t)
	d.startAgent(t, map[string]string{"TRIGGER": "realtime", "RECONCILE_GRACE": "1m"})
	pauseFlow(t, d, true)
	defer pauseFlow(t, d, false)
	time.Sleep(time.Second) // the agent's subscription is up
	conv := d.conversation(t)
	user := d.ask(t, conv, "Any k8s workshops?")
	if r := d.finished(t, user, 10*time.Second); r.Status != "completed" {
		t.Fatalf("reply through the realtime trigger: %+v", r)
	}
}

func TestE2ESetupChangesNothingTheSecondTimeAndKeepsOtherCollections(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	name := "unrelated_notes_" + strings.ReplaceAll(time.Now().Format("150405.000"), ".", "")
	if err := d.admin.Do(ctx, "POST", "/collections", nil, map[string]any{"collection": name, "schema": map[string]any{},
		"fields": []any{map[string]any{"field": "id", "type": "integer", "schema": map[string]any{"is_primary_key": true, "has_auto_increment": true}},
			map[string]any{"field": "note", "type": "string"}}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := d.admin.CreateItem(ctx, name, map[string]any{"note": "keep me"}, nil); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.adminToken, "WEBHOOK_SECRET": "s", "PUBLIC_URL": "http://127.0.0.1:9"}
	code, out, errOut := cli(t, env, "directus", "setup", "--agent-email", "erleah-agent-setup@example.com")
	if code != 0 {
		t.Fatalf("first setup: exit %d: %s", code, errOut)
	}
	code, out, errOut = cli(t, env, "directus", "setup", "--agent-email", "erleah-agent-setup@example.com")
	if code != 0 || !strings.Contains(out, "nothing changed") || strings.Contains(out, "token") {
		t.Fatalf("second setup: exit %d\n%s%s", code, out, errOut)
	}
	var notes []map[string]any
	if err := d.admin.ReadItems(ctx, name, directus.Query{}, &notes); err != nil || len(notes) != 1 || notes[0]["note"] != "keep me" {
		t.Fatalf("the unrelated collection after setup: %v %v", notes, err)
	}
	if code, out, _ := cli(t, env, "directus", "check"); code != 0 || !strings.Contains(out, "ok:") {
		t.Fatalf("check: exit %d %s", code, out)
	}
	code, out, _ = cli(t, env, "directus", "import")
	if code != 0 || !strings.Contains(out, "nothing changed") {
		t.Fatalf("importing the demo again: exit %d\n%s", code, out)
	}
	// Restore the Flow for the other tests.
	if _, err := provision.Flow(ctx, d.admin, provision.FlowOptions{URL: "http://127.0.0.1:9/v1/webhooks/directus", Secret: "s"}); err != nil {
		t.Fatal(err)
	}
	problems, err := provision.Check(ctx, d.admin, migrations.DirectusSchema)
	if err != nil || len(problems) != 0 {
		t.Fatalf("check after setup: %v %v", problems, err)
	}
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
		if code, out := a.chat(t, c.token, c.body); code != c.want {
			t.Fatalf("token %.8q body %s: %d %v, want %d", c.token, c.body, code, out, c.want)
		}
	}
	time.Sleep(500 * time.Millisecond)
	if n := len(d.replies(t, user)); n != 0 {
		t.Fatalf("refused calls produced %d replies", n)
	}
	code, out := a.chat(t, d.adminToken, body)
	if code != 202 || out["status"] != "accepted" {
		t.Fatalf("the owner's call: %d %v", code, out)
	}
	r := d.finished(t, user, 15*time.Second)
	if r.Status != "completed" || r.ID != out["assistant_message_id"] {
		t.Fatalf("reply %+v; accepted as %v", r, out["assistant_message_id"])
	}
}

// userWithoutAccess creates a Directus user with a static token and no
// role or policy: it can log in but read nothing.
func (d *realDirectus) userWithoutAccess(t testing.TB) string {
	t.Helper()
	token := fmt.Sprintf("stranger-%d", time.Now().UnixNano())
	body := map[string]any{"email": token + "@example.com", "token": token, "status": "active"}
	if err := d.admin.Do(context.Background(), "POST", "/users", nil, body, nil); err != nil {
		t.Fatal(err)
	}
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
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range got {
		found = found || m.ID == missed
		if len(d.replies(t, m.ID)) != 0 || m.Role != "user" {
			t.Fatalf("Unanswered returned %+v, which is answered or not a user's", m)
		}
	}
	if !found && len(got) < limit { // a full page of other tests' unanswered messages would be fair
		t.Fatalf("Unanswered(limit %d) = %d messages without %s", limit, len(got), missed)
	}
}
