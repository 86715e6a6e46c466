package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/provision"
)

// attendee is a Directus user with the role directus setup makes for the
// chat widget's users (provision.AttendeeName): whole-collection create and
// read on conversations and messages (Directus 12 without a licence refuses
// anything finer).
type attendee struct {
	id    string
	token string
	c     *directus.Client
}

// attendee creates a user with the attendee role and a static token.
func (d *realDirectus) attendee(t testing.TB, name string) attendee {
	t.Helper()
	token := fmt.Sprintf("%s-%d", name, time.Now().UnixNano())
	var u struct {
		ID string `json:"id"`
	}
	body := map[string]any{"email": token + "@example.com", "first_name": name, "token": token, "status": "active", "role": d.attendeeRole(t)}
	require.NoError(t, d.admin.Do(context.Background(), "POST", "/users", nil, body, &u))
	return attendee{id: u.ID, token: token, c: d.admin.WithToken(token)}
}

// attendeeRole is the id of the attendees' role as directus setup made it
// (scripts/test.sh runs setup before the tests).
func (d *realDirectus) attendeeRole(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	problems, err := provision.CheckAttendee(ctx, d.admin)
	require.NoError(t, err)
	require.Empty(t, problems, "the attendees' role is not as directus setup makes it: run erleah-agent directus setup first (scripts/test.sh does)")
	var roles []struct {
		ID string `json:"id"`
	}
	q := url.Values{"filter": {`{"name":{"_eq":"` + provision.AttendeeName + `"}}`}, "fields": {"id"}}
	require.NoError(t, d.admin.Do(ctx, "GET", "/roles", q, nil, &roles))
	require.Len(t, roles, 1, "roles named %s", provision.AttendeeName)
	return roles[0].ID
}

// create creates an item with the attendee's own token.
func (a attendee) create(t testing.TB, collection string, body map[string]any) string {
	t.Helper()
	var out struct {
		ID string `json:"id"`
	}
	require.NoError(t, a.c.CreateItem(context.Background(), collection, body, &out), "create %s as an attendee", collection)
	return out.ID
}

func (a attendee) conversation(t testing.TB) string {
	return a.create(t, "conversations", map[string]any{"conference": "aidata26", "title": t.Name()})
}

func (a attendee) ask(t testing.TB, conv, text string) string {
	return a.create(t, "messages", map[string]any{"conversation": conv, "role": "user", "messageText": text, "status": "completed"})
}

// authored is a message with its author and link.
type authored struct {
	ID           string         `json:"id"`
	Conversation string         `json:"conversation"`
	Role         string         `json:"role"`
	Status       string         `json:"status"`
	Text         string         `json:"messageText"`
	ReplyTo      *string        `json:"reply_to"`
	Author       string         `json:"user_created"`
	Metadata     map[string]any `json:"metadata"`
}

var authoredFields = []string{"id", "conversation", "role", "status", "messageText", "reply_to", "user_created", "metadata"}

func (d *realDirectus) repliesBy(t testing.TB, user string) []authored {
	t.Helper()
	var out []authored
	q := directus.Query{Fields: authoredFields, Filter: map[string]any{"reply_to": map[string]any{"_eq": user}}}
	require.NoError(t, d.admin.ReadItems(context.Background(), "messages", q, &out))
	return out
}

func (d *realDirectus) message(t testing.TB, id string) authored {
	t.Helper()
	var m authored
	require.NoError(t, d.admin.ReadItem(context.Background(), "messages", id, authoredFields, &m))
	return m
}

// agentUser is the id of the agent's own Directus user.
func (d *realDirectus) agentUser(t testing.TB) string {
	t.Helper()
	me, err := d.agent.Me(context.Background())
	require.NoError(t, err)
	return me.ID
}

// guard sets the guard Flow up (or repairs it) for the agent's role, as
// directus setup does, and returns the role.
func (d *realDirectus) guard(t testing.TB) string {
	t.Helper()
	ctx := context.Background()
	res, err := provision.AgentUser(ctx, d.admin, "erleah-agent-e2e@example.com", false) // keeps the token
	require.NoError(t, err)
	_, err = provision.Guard(ctx, d.admin, res.RoleID)
	require.NoError(t, err)
	time.Sleep(200 * time.Millisecond) // flows reload asynchronously
	return res.RoleID
}

// setGuard makes the guard Flow, when there is one, active or inactive;
// it reports whether there is one.
func setGuard(t testing.TB, d *realDirectus, status string) bool {
	t.Helper()
	var flows []struct {
		ID string `json:"id"`
	}
	q := map[string][]string{"filter": {`{"name":{"_eq":"` + provision.GuardName + `"}}`}, "fields": {"id"}}
	require.NoError(t, d.admin.Do(context.Background(), "GET", "/flows", q, nil, &flows))
	for _, f := range flows {
		require.NoError(t, d.admin.Do(context.Background(), "PATCH", "/flows/"+f.ID, nil, map[string]any{"status": status}, nil))
	}
	time.Sleep(200 * time.Millisecond)
	return len(flows) > 0
}

// withoutGuard runs the rest of the test as on a Directus where the guard
// Flow is not installed (or cannot run): the agent alone keeps attendees
// apart.
func withoutGuard(t testing.TB, d *realDirectus) {
	t.Helper()
	if setGuard(t, d, "inactive") {
		t.Cleanup(func() { setGuard(t, d, "active") })
	}
}

// TestE2EAForeignReplyDoesNotSilenceTheQuestion: Bob, an attendee, creates
// an assistant message whose reply_to is Alice's question (in his own
// conversation) before the agent answers it. Alice still gets the agent's
// completed reply; Bob's message is detached from her question.
func TestE2EAForeignReplyDoesNotSilenceTheQuestion(t *testing.T) {
	d := needDirectus(t)
	withoutGuard(t, d)
	a := d.startAgent(t, map[string]string{"RECONCILE_GRACE": "1m"})
	alice, bob := d.attendee(t, "alice"), d.attendee(t, "bob")
	aliceConv, bobConv := alice.conversation(t), bob.conversation(t)
	pauseFlow(t, d, true) // Bob gets in first: the delivery comes below
	q := alice.ask(t, aliceConv, "Any k8s workshops?")
	fake := bob.create(t, "messages", map[string]any{"conversation": bobConv, "role": "assistant", "status": "completed",
		"messageText": "No workshops for you.", "reply_to": q})
	pauseFlow(t, d, false)
	code, out := a.webhook(t, a.secret, flowBody(q, aliceConv))
	require.Equal(t, 202, code, "delivery: %v", out)
	agent := d.agentUser(t)
	var rs []authored
	eventually(t, 20*time.Second, func() string { return fmt.Sprintf("the agent's completed reply to %s (replies %+v)", q, rs) }, func() bool {
		rs = d.repliesBy(t, q)
		return len(rs) == 1 && rs[0].Author == agent && rs[0].Status == "completed"
	})
	r := rs[0]
	const accepted = "reply %+v; accepted as %v"
	require.Equal(t, out["assistant_message_id"], r.ID, accepted, r, out["assistant_message_id"])
	require.Equal(t, aliceConv, r.Conversation, accepted, r, out["assistant_message_id"])
	require.Equal(t, "assistant", r.Role, accepted, r, out["assistant_message_id"])
	m := d.message(t, fake)
	const detached = "Bob's message after the turn: %+v; want it detached from the question, otherwise untouched"
	assert.Nil(t, m.ReplyTo, detached, m)
	assert.Equal(t, bob.id, m.Author, detached, m)
	assert.Equal(t, "No workshops for you.", m.Text, detached, m)
}

// TestE2EAStrangersMessageIsNotAnswered: Bob posts a question into Alice's
// conversation (attendees may read and write every conversation). The
// agent does not answer it there: its reply is closed failed at once with
// the reason, and no turn runs. Each attendee's own questions, in their own
// conversation or one made for them (user_id), are answered.
func TestE2EAStrangersMessageIsNotAnswered(t *testing.T) {
	d := needDirectus(t)
	d.startAgent(t, map[string]string{"RECONCILE_GRACE": "2s"})
	alice, bob := d.attendee(t, "alice"), d.attendee(t, "bob")
	aliceConv, bobConv := alice.conversation(t), bob.conversation(t)
	forAlice := d.item(t, "conversations", map[string]any{"conference": "aidata26", "user_id": alice.id, "title": t.Name()}) // a backend made it for her
	intruder := bob.ask(t, aliceConv, "Any k8s workshops?")
	intruder2 := bob.ask(t, forAlice, "Any k8s workshops?")
	own := []string{alice.ask(t, aliceConv, "Any k8s workshops?"), alice.ask(t, forAlice, "Any k8s workshops?"), bob.ask(t, bobConv, "Any k8s workshops?")}
	for _, id := range own {
		r := d.finished(t, id, 20*time.Second)
		require.Equal(t, "completed", r.Status, "an attendee's own question %s got %+v", id, r)
	}
	time.Sleep(3 * time.Second) // past the reconciler's grace: it does not answer them either
	for _, id := range []string{intruder, intruder2} {
		rs := d.repliesBy(t, id)
		const want = "replies to Bob's message in a conversation of Alice's: %+v; want one, failed with the reason, no turn"
		require.Len(t, rs, 1, want, rs)
		require.Equal(t, "failed", rs[0].Status, want, rs)
		require.Equal(t, "the conversation is not the author's", rs[0].Metadata["error"], want, rs)
		require.Nil(t, rs[0].Metadata["trace_id"], want, rs)
	}
}

// TestE2EGuardFlowRefusesAttendeeReplies: the guard Flow (directus setup)
// makes Directus itself refuse an attendee's assistant message, reply_to or
// chosen id, and lets user messages, the agent and admins through. It is
// idempotent, and directus check reports it missing.
func TestE2EGuardFlowRefusesAttendeeReplies(t *testing.T) {
	d := needDirectus(t)
	ctx := context.Background()
	role := d.guard(t)
	pauseFlow(t, d, true) // no agent answers here
	defer pauseFlow(t, d, false)
	alice, bob := d.attendee(t, "alice"), d.attendee(t, "bob")
	aliceConv, bobConv := alice.conversation(t), bob.conversation(t)
	q := alice.ask(t, aliceConv, "Any k8s workshops?")
	for _, c := range []struct {
		name string
		body any
	}{
		{"an assistant message", map[string]any{"conversation": bobConv, "role": "assistant", "status": "completed", "messageText": "no", "reply_to": q}},
		{"an assistant message without reply_to", map[string]any{"conversation": aliceConv, "role": "assistant", "status": "completed", "messageText": "no"}},
		{"a user message with reply_to", map[string]any{"conversation": bobConv, "role": "user", "messageText": "no", "reply_to": q}},
		{"a user message with a chosen id", map[string]any{"id": "00000000-0000-5000-8000-000000000001", "conversation": bobConv, "role": "user", "messageText": "no"}},
		{"a batch with an assistant message", []any{map[string]any{"conversation": bobConv, "role": "user", "messageText": "batch"},
			map[string]any{"conversation": bobConv, "role": "assistant", "messageText": "batch"}}},
	} {
		err := bob.c.CreateItem(ctx, "messages", c.body, nil)
		var de *directus.Error
		const refused = "Bob creating %s: %v; want 403 %q"
		require.True(t, errors.As(err, &de), refused, c.name, err, provision.GuardMessage)
		require.Equal(t, 403, de.Status, refused, c.name, err, provision.GuardMessage)
		require.Equal(t, provision.GuardMessage, de.Message, refused, c.name, err, provision.GuardMessage)
	}
	var batch []authored
	require.NoError(t, d.admin.ReadItems(ctx, "messages", directus.Query{Fields: authoredFields, Filter: map[string]any{"messageText": map[string]any{"_eq": "batch"}}}, &batch), "a refused batch")
	require.Empty(t, batch, "a refused batch left")
	require.Empty(t, d.repliesBy(t, q), "refused creates left replies")
	m := d.message(t, bob.ask(t, bobConv, "Any k8s workshops?"))
	const own = "Bob's own question, through the guard: %+v"
	require.Equal(t, "Any k8s workshops?", m.Text, own, m)
	require.Equal(t, "user", m.Role, own, m)
	require.Equal(t, bob.id, m.Author, own, m)
	agent := d.agent
	require.NoError(t, agent.CreateItem(ctx, "messages", map[string]any{"conversation": aliceConv, "role": "assistant", "status": "completed", "messageText": "yes", "reply_to": q}, nil),
		"the agent's reply")
	d.item(t, "messages", map[string]any{"conversation": aliceConv, "role": "assistant", "status": "completed", "messageText": "an admin's"})

	n, err := provision.Guard(ctx, d.admin, role)
	require.NoError(t, err, "the guard set up again")
	require.Zero(t, n, "the guard set up again: changes")
	problems, err := provision.CheckGuard(ctx, d.admin)
	require.NoError(t, err, "CheckGuard")
	require.Empty(t, problems, "CheckGuard")
	env := map[string]string{"DIRECTUS_URL": d.url, "DIRECTUS_TOKEN": d.adminToken}
	setGuard(t, d, "inactive")
	code, _, errOut := cli(t, env, "directus", "check")
	require.NotZero(t, code, "check with the guard inactive: exit code\n%s", errOut)
	require.Contains(t, errOut, provision.GuardName, "check with the guard inactive")
	n, err = provision.Guard(ctx, d.admin, role)
	require.NoError(t, err, "the guard repaired")
	require.Equal(t, 1, n, "the guard repaired: changes")
	code, out, errOut := cli(t, env, "directus", "check")
	assert.Zero(t, code, "check after the repair: exit code\n%s%s", out, errOut)
	assert.Contains(t, out, "ok:", "check after the repair; stderr %s", errOut)
}

// TestE2EOpenStreamWritesOnlyIntoTheCallersConversation: an open stream
// (no API_TOKEN) with Bob's Directus token cannot store a question in
// Alice's conversation; with Alice's it can.
func TestE2EOpenStreamWritesOnlyIntoTheCallersConversation(t *testing.T) {
	d := needDirectus(t)
	a := d.startAgent(t, nil)
	alice, bob := d.attendee(t, "alice"), d.attendee(t, "bob")
	conv := alice.conversation(t)
	stream := func(token string) int {
		body := `{"message":"Any sessions on RAG?","conference_id":"aidata26","conversation_id":"` + conv + `"}`
		req, _ := http.NewRequest(http.MethodPost, a.url+"/v1/chat/stream", strings.NewReader(body))
		req.Header.Set("X-Directus-Token", token)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	count := func() int {
		n, err := d.admin.Count(context.Background(), "messages", map[string]any{"conversation": map[string]any{"_eq": conv}})
		require.NoError(t, err)
		return n
	}
	code, n := stream(bob.token), count()
	require.Equal(t, http.StatusForbidden, code, "Bob's stream into Alice's conversation: %d messages there; want 403 and none", n)
	require.Zero(t, n, "Bob's stream into Alice's conversation: messages there; want 403 and none")
	code, n = stream(alice.token), count()
	assert.Equal(t, http.StatusOK, code, "Alice's stream: %d messages; want 200 and her question with its reply", n)
	assert.Equal(t, 2, n, "Alice's stream: messages; want 200 and her question with its reply")
}
