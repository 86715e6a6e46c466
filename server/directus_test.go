package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/chat"
	"github.com/erleah/erleah-agent/directus"
	"github.com/erleah/erleah-agent/server"
)

// fakeInbox accepts each message once and knows one readable message.
type fakeInbox struct {
	mu        sync.Mutex
	delivered []chat.Delivery
	closing   bool
	broken    error // Accept fails with it
}

func (f *fakeInbox) Accept(ctx context.Context, d chat.Delivery) (chat.Accepted, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closing {
		return chat.Accepted{}, chat.ErrShuttingDown
	}
	if f.broken != nil {
		return chat.Accepted{}, f.broken
	}
	if d.Role != "" && d.Role != "user" {
		return chat.Accepted{Status: "ignored"}, nil
	}
	for _, old := range f.delivered {
		if old.MessageID == d.MessageID {
			return chat.Accepted{Status: "duplicate", AssistantID: "a-" + d.MessageID}, nil
		}
	}
	f.delivered = append(f.delivered, d)
	return chat.Accepted{Status: "accepted", AssistantID: "a-" + d.MessageID}, nil
}

func (f *fakeInbox) CanRead(ctx context.Context, token, id string) (chat.Message, error) {
	switch {
	case token == "expired":
		return chat.Message{}, &directus.Error{Status: 401, Code: "INVALID_CREDENTIALS"}
	case token != "alice" || id != "m1":
		return chat.Message{}, &directus.Error{Status: 403, Code: "FORBIDDEN"}
	}
	return chat.Message{ID: "m1", Conversation: "c1", Role: "user"}, nil
}

func (f *fakeInbox) MayWrite(ctx context.Context, token, conv string) error {
	switch {
	case token == "expired":
		return &directus.Error{Status: 401, Code: "INVALID_CREDENTIALS"}
	case token != "alice" || conv != "c1":
		return chat.ErrNotYours
	}
	return nil
}

func inboxServer(t *testing.T, in *fakeInbox) string {
	ts := httptest.NewServer(server.New(server.Options{Inbox: in, WebhookSecret: "hook-secret", Turns: nil}))
	t.Cleanup(ts.Close)
	return ts.URL
}

func call(t *testing.T, url string, headers map[string]string, body string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	json.Unmarshal(b, &out)
	return resp.StatusCode, out
}

const created = `{"event":"messages.items.create","collection":"messages","key":"m1","payload":{"role":"user","conversation":"c1","messageText":"hi"}}`

func TestWebhook(t *testing.T) {
	in := &fakeInbox{}
	url := inboxServer(t, in) + "/v1/webhooks/directus"
	secret := map[string]string{"X-Webhook-Secret": "hook-secret"}
	cases := []struct {
		name    string
		headers map[string]string
		body    string
		code    int
		status  string
	}{
		{"no secret", nil, created, 401, ""},
		{"wrong secret", map[string]string{"X-Webhook-Secret": "guess"}, created, 401, ""},
		{"malformed", secret, `{"event": `, 400, ""},
		{"no key", secret, `{"event":"messages.items.create","collection":"messages","payload":{}}`, 400, ""},
		{"assistant message", secret, `{"event":"messages.items.create","collection":"messages","key":"m9","payload":{"role":"assistant"}}`, 200, "ignored"},
		{"other collection", secret, `{"event":"sessions.items.create","collection":"sessions","key":"s1","payload":{}}`, 200, "ignored"},
		{"an update (keys, no key)", secret, `{"event":"messages.items.update","collection":"messages","keys":["m1"],"payload":{"status":"completed"}}`, 200, "ignored"},
		{"user message", secret, created, 202, "accepted"},
		{"again", secret, created, 200, "duplicate"},
	}
	for _, tc := range cases {
		code, body := call(t, url, tc.headers, tc.body)
		assert.Equal(t, tc.code, code, "%s: %v", tc.name, body)
		if tc.status != "" {
			assert.Equal(t, tc.status, body["status"], "%s: %d %v", tc.name, code, body)
		}
	}
	require.Len(t, in.delivered, 1, "deliveries %+v", in.delivered)
	assert.Equal(t, "c1", in.delivered[0].ConversationID, "deliveries %+v", in.delivered)
	assert.Equal(t, "user", in.delivered[0].Role, "deliveries %+v", in.delivered)
	in.closing = true
	code, _ := call(t, url, secret, strings.Replace(created, "m1", "m2", 1))
	require.Equal(t, 503, code, "while shutting down")
	in.closing, in.broken = false, chat.ErrNoStore
	code, body := call(t, url, secret, strings.Replace(created, "m1", "m3", 1))
	assert.Equal(t, 503, code, "when the service cannot take it: %v; want 503, not the sender's fault", body)
	assert.Contains(t, fmt.Sprint(body["error"]), "reconciler", "when the service cannot take it: %d %v; want 503, not the sender's fault", code, body)
}

func TestChatUsesTheCallersToken(t *testing.T) {
	in := &fakeInbox{}
	url := inboxServer(t, in) + "/v1/chat"
	body := `{"conversation_id":"c1","message_id":"m1"}`
	cases := []struct {
		token, body string
		code        int
	}{
		{"", body, 401},
		{"expired", body, 401},
		{"mallory", body, 403},
		{"alice", `{"conversation_id":"c2","message_id":"m1"}`, 400},
		{"alice", `{"message_id":"m1"}`, 400},
		{"alice", body, 202},
	}
	for _, tc := range cases {
		h := map[string]string{}
		if tc.token != "" {
			h["Authorization"] = "Bearer " + tc.token
		}
		code, resp := call(t, url, h, tc.body)
		assert.Equal(t, tc.code, code, "token %q body %s: %v", tc.token, tc.body, resp)
		if code == 202 {
			assert.Equal(t, "a-m1", resp["assistant_message_id"], "202 without the reply's id: %v", resp)
		}
	}
}

// TestWebhookOverloadAndRate: a delivery the agent has no room for gets
// 503 with Retry-After (the reconciler answers it later); a sender beyond
// the webhook's rate gets 429.
func TestWebhookOverloadAndRate(t *testing.T) {
	in := &fakeInbox{broken: chat.ErrOverloaded}
	ts := httptest.NewServer(server.New(server.Options{Inbox: in, WebhookSecret: "hook-secret", RetryAfter: 5 * time.Second,
		PerHook: server.Rate{PerSecond: 0.001, Burst: 2}}))
	t.Cleanup(ts.Close)
	secret := map[string]string{"X-Webhook-Secret": "hook-secret"}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/webhooks/directus", strings.NewReader(created))
	req.Header.Set("X-Webhook-Secret", "hook-secret")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, 503, resp.StatusCode, "overloaded: want 503 with Retry-After 5")
	require.Equal(t, "5", resp.Header.Get("Retry-After"), "overloaded: want 503 with Retry-After 5")
	call(t, ts.URL+"/v1/webhooks/directus", secret, created)
	code, _ := call(t, ts.URL+"/v1/webhooks/directus", secret, created)
	assert.Equal(t, 429, code, "beyond the webhook's rate")
}

// TestOpenStreamWritesOnlyIntoTheCallersConversation: without API_TOKEN, a
// stream naming a conversation needs the caller's Directus token, and the
// conversation must be theirs; nothing is written otherwise.
func TestOpenStreamWritesOnlyIntoTheCallersConversation(t *testing.T) {
	in := &fakeInbox{}
	ts := httptest.NewServer(server.New(server.Options{Inbox: in, WebhookSecret: "s"}))
	t.Cleanup(ts.Close)
	body := `{"message":"k8s?","conference_id":"aidata26","conversation_id":"%s"}`
	for _, tc := range []struct {
		token, conv string
		code        int
	}{
		{"", "c1", 401}, {"expired", "c1", 401}, {"bob", "c1", 403}, {"alice", "c2", 403},
	} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/v1/chat/stream", strings.NewReader(fmt.Sprintf(body, tc.conv)))
		if tc.token != "" {
			req.Header.Set("X-Directus-Token", tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, tc.code, resp.StatusCode, "token %q, conversation %s", tc.token, tc.conv)
	}
}
