package directus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// The tests in this file run against a real Directus with the project's
// schema. Each run uses its own ids, so they can run again and again against
// one instance; they delete what they create.

// integrationClient returns an admin client, or skips the test.
func integrationClient(t *testing.T) *Client {
	t.Helper()
	base, token := os.Getenv("DIRECTUS_URL"), os.Getenv("DIRECTUS_ADMIN_TOKEN")
	if base == "" || token == "" {
		t.Skip("set DIRECTUS_URL and DIRECTUS_ADMIN_TOKEN to run against a real Directus (scripts/directus/start.sh)")
	}
	c, err := New(Options{BaseURL: base, Token: token})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// applySchema brings migrations/directus-schema.json into the instance
// (merge mode), with force when the instance's version or vendor differs.
// A concurrent change between diff and apply makes it diff again.
func applySchema(ctx context.Context, t *testing.T, c *Client) {
	t.Helper()
	snapshot, err := os.ReadFile(filepath.Join("..", "migrations", "directus-schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	force := false
	for range 3 {
		diff, changed, err := c.SchemaDiff(ctx, snapshot, force)
		if !force && HasCode(err, CodeInvalidPayload) && strings.Contains(err.Error(), "force") {
			t.Logf("schema diff needs force: %v", err)
			force = true
			continue
		}
		if err != nil {
			t.Fatalf("schema diff: %v", err)
		}
		if !changed {
			t.Logf("schema already applied (diff: 204)")
			return
		}
		if err = c.SchemaApply(ctx, diff, force); err == nil {
			t.Logf("schema applied (force=%v)", force)
			return
		}
		t.Logf("schema apply: %v; diffing again", err)
	}
	t.Fatal("could not apply the schema")
}

// checkSchema asserts what the tests rely on, whatever the diff said.
func checkSchema(ctx context.Context, t *testing.T, c *Client) {
	t.Helper()
	fields, err := c.Fields(ctx, "messages")
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(fields, func(f Field) bool { return f.Field == "reply_to" })
	if i < 0 || fields[i].Schema == nil || !fields[i].Schema.IsUnique || fields[i].Schema.ForeignKeyTable != "messages" {
		t.Fatalf("messages.reply_to is not a unique m2o to messages: %+v", fields)
	}
}

// fixture is one run's conference and conversation.
type fixture struct {
	run          string
	conference   string
	conversation string
}

type message struct {
	ID             string            `json:"id"`
	Conversation   string            `json:"conversation"`
	Role           string            `json:"role"`
	MessageText    string            `json:"messageText"`
	Status         string            `json:"status"`
	ReplyTo        *string           `json:"reply_to"`
	ThinkingOutput []json.RawMessage `json:"thinking_output"`
}

func newFixture(ctx context.Context, t *testing.T, c *Client) fixture {
	t.Helper()
	f := fixture{run: fmt.Sprintf("%d-%04x", time.Now().UnixNano(), rand.N(1<<16))}
	f.conference = "itest-" + f.run
	conf := map[string]any{"id": f.conference, "name": "Integration " + f.run, "timezone": "UTC"}
	if err := c.CreateItem(ctx, "conferences", conf, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cleanup(t, c, f) })
	f.conversation = createConversation(ctx, t, c, f)
	return f
}

func createConversation(ctx context.Context, t *testing.T, c *Client, f fixture) string {
	t.Helper()
	var conv struct{ ID string }
	item := map[string]any{"conference": f.conference, "user_id": "itest-user-" + f.run, "title": "run " + f.run}
	if err := c.CreateItem(ctx, "conversations", item, &conv); err != nil || conv.ID == "" {
		t.Fatalf("create conversation: %v (id %q)", err, conv.ID)
	}
	return conv.ID
}

// cleanup deletes the run's messages, conversations and conference.
func cleanup(t *testing.T, c *Client, f fixture) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var convs, msgs []struct{ ID string }
	byConference := map[string]any{"conference": map[string]any{"_eq": f.conference}}
	if err := c.ReadAll(ctx, "conversations", Query{Fields: []string{"id"}, Filter: byConference}, &convs); err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	byConversation := map[string]any{"conversation": map[string]any{"conference": map[string]any{"_eq": f.conference}}}
	if err := c.ReadAll(ctx, "messages", Query{Fields: []string{"id"}, Filter: byConversation}, &msgs); err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	for _, step := range []struct {
		collection string
		ids        []string
	}{{"messages", ids(msgs)}, {"conversations", ids(convs)}, {"conferences", []string{f.conference}}} {
		if err := c.DeleteItems(ctx, step.collection, step.ids); err != nil {
			t.Errorf("cleanup %s: %v", step.collection, err)
		}
	}
}

func ids(items []struct{ ID string }) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.ID
	}
	return out
}

func TestIntegration(t *testing.T) {
	c := integrationClient(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	applySchema(ctx, t, c)
	checkSchema(ctx, t, c)
	f := newFixture(ctx, t, c)

	t.Run("server", func(t *testing.T) { testServer(ctx, t, c) })
	t.Run("messages", func(t *testing.T) { testMessages(ctx, t, c, f) })
	t.Run("read all and count", func(t *testing.T) { testReadAll(ctx, t, c, f) })
	t.Run("realtime bad token", func(t *testing.T) { testRealtimeBadToken(ctx, t, c) })
	t.Run("realtime confirmations", func(t *testing.T) { testRealtimeConfirmations(ctx, t, c) })
	t.Run("schema version check", func(t *testing.T) { testSchemaVersionCheck(ctx, t, c) })
}

func testServer(ctx context.Context, t *testing.T, c *Client) {
	info, err := c.ServerInfo(ctx)
	if err != nil || info.Version == "" {
		t.Errorf("ServerInfo = %+v, %v", info, err)
	}
	t.Logf("Directus %s", info.Version)
	if me, err := c.Me(ctx); err != nil || me.ID == "" {
		t.Errorf("Me = %+v, %v", me, err)
	}
	if _, err := c.WithToken("not-a-token").Me(ctx); !HasCode(err, CodeInvalidCredentials) {
		t.Errorf("Me with a bad token = %v, want INVALID_CREDENTIALS", err)
	}
	snap, err := c.SchemaSnapshot(ctx, []string{"messages"})
	if err != nil || !strings.Contains(string(snap), `"messageText"`) {
		t.Errorf("SchemaSnapshot = %.200s, %v", snap, err)
	}
	cs, err := c.Collections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"conferences", "conversations", "messages", "sessions", "exhibitors", "speakers"} {
		if !slices.ContainsFunc(cs, func(c Collection) bool { return c.Collection == want && c.Schema != nil }) {
			t.Errorf("collection %s missing", want)
		}
	}
}

func testMessages(ctx context.Context, t *testing.T, c *Client, f fixture) {
	var user message
	item := map[string]any{"conversation": f.conversation, "role": "user", "messageText": "Where is the keynote? " + f.run}
	if err := c.CreateItem(ctx, "messages", item, &user); err != nil {
		t.Fatal(err)
	}
	var found []message
	q := Query{
		Fields: []string{"id", "conversation", "role", "messageText"},
		Filter: map[string]any{"conversation": map[string]any{"_eq": f.conversation}, "role": map[string]any{"_eq": "user"}},
	}
	if err := c.ReadItems(ctx, "messages", q, &found); err != nil {
		t.Fatal(err)
	}
	if len(found) != 1 || found[0].ID != user.ID || found[0].MessageText != item["messageText"] {
		t.Fatalf("read back %+v, want the message %s", found, user.ID)
	}
	var reply message
	replyItem := map[string]any{"conversation": f.conversation, "role": "assistant", "status": "pending", "reply_to": user.ID}
	if err := c.CreateItem(ctx, "messages", replyItem, &reply); err != nil {
		t.Fatal(err)
	}
	testThinkingUpdate(ctx, t, c, reply.ID)

	err := c.CreateItem(ctx, "messages", replyItem, nil)
	if !IsUnique(err) {
		t.Errorf("second reply to %s: %v, want RECORD_NOT_UNIQUE", user.ID, err)
	}
	t.Logf("second reply: %v", err)
	testMissingItemIsForbidden(ctx, t, c)
}

func testMissingItemIsForbidden(ctx context.Context, t *testing.T, c *Client) {
	var m message
	err := c.ReadItem(ctx, "messages", "00000000-0000-4000-8000-000000000000", nil, &m)
	var e *Error
	if !errors.As(err, &e) || e.Status != 403 || e.Code != CodeForbidden {
		t.Errorf("reading a missing message: %v, want 403 FORBIDDEN", err)
	}
}

// testReadAll creates 520 throwaway messages (role "assistant", so that a
// webhook Flow filtering on role "user" ignores them), pages through them,
// counts and deletes them.
func testReadAll(ctx context.Context, t *testing.T, c *Client, f fixture) {
	const n = 520
	conv := createConversation(ctx, t, c, f)
	items := make([]map[string]any, n)
	for i := range items {
		items[i] = map[string]any{"conversation": conv, "role": "assistant", "status": "completed", "messageText": fmt.Sprint("bulk ", i)}
	}
	if err := c.CreateItems(ctx, "messages", items); err != nil {
		t.Fatal(err)
	}
	byConv := map[string]any{"conversation": map[string]any{"_eq": conv}}
	var got []struct{ ID string }
	if err := c.ReadAll(ctx, "messages", Query{Fields: []string{"id"}, Filter: byConv}, &got); err != nil {
		t.Fatal(err)
	}
	unique := map[string]bool{}
	for _, m := range got {
		unique[m.ID] = true
	}
	if len(got) != n || len(unique) != n {
		t.Errorf("ReadAll: %d items, %d distinct, want %d", len(got), len(unique), n)
	}
	if count, err := c.Count(ctx, "messages", byConv); err != nil || count != n {
		t.Errorf("Count = %d, %v; want %d", count, err, n)
	}
	if err := c.DeleteItems(ctx, "messages", ids(got)); err != nil {
		t.Fatal(err)
	}
	if count, err := c.Count(ctx, "messages", byConv); err != nil || count != 0 {
		t.Errorf("Count after delete = %d, %v; want 0", count, err)
	}
}

// testSchemaVersionCheck checks the error applySchema relies on to add force.
func testSchemaVersionCheck(ctx context.Context, t *testing.T, c *Client) {
	snap, err := c.SchemaSnapshot(ctx, []string{"conferences"})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(snap, &m); err != nil {
		t.Fatal(err)
	}
	m["directus"] = "1.0.0"
	old, _ := json.Marshal(m)
	_, _, err = c.SchemaDiff(ctx, old, false)
	if !HasCode(err, CodeInvalidPayload) || !strings.Contains(err.Error(), "force") {
		t.Errorf("diff of a 1.0.0 snapshot = %v, want INVALID_PAYLOAD mentioning force", err)
	}
	if _, changed, err := c.SchemaDiff(ctx, old, true); err != nil || changed {
		t.Errorf("forced diff of the instance's own snapshot = changed %v, %v; want no change", changed, err)
	}
}
