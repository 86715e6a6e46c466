package chat

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/directus"
)

// DirectusStore is the Store of conversations and messages in Directus
// (collections of contract §5). It is safe for concurrent use.
type DirectusStore struct {
	c     *directus.Client
	final *directus.Client // c retrying as final writes do

	mu   sync.Mutex
	self string // the token's user, once known
}

// NewDirectusStore reads and writes through c, whose token must be allowed
// to read conversations and messages and to create and update messages.
func NewDirectusStore(c *directus.Client) *DirectusStore {
	return &DirectusStore{c: c, final: c.WithRetries(FinalWriteAttempts, finalWriteWait)}
}

// FinalWriteAttempts bounds the requests of a reply's final write: the
// client's backoff from finalWriteWait (doubling, capped at 3 s, drawn
// from the upper half) waits 5–10 s in all, riding out a Directus restart.
// Every other call makes at most the client's own attempts (3 by default):
// no call is retried by more than one layer.
const FinalWriteAttempts = 7

// finalWriteWait is the first wait between two requests of a final write.
var finalWriteWait = 250 * time.Millisecond

var messageFields = []string{"id", "conversation", "role", "messageText", "status", "reply_to", "metadata", "user_created", "date_created", "date_updated"}

var conversationFields = []string{"id", "conference", "user_created", "user_id"}

// item is a messages item as Directus returns it.
type item struct {
	ID           string         `json:"id"`
	Conversation string         `json:"conversation"`
	Role         string         `json:"role"`
	Text         *string        `json:"messageText"`
	Status       *string        `json:"status"`
	ReplyTo      *string        `json:"reply_to"`
	Metadata     map[string]any `json:"metadata"`
	Author       *string        `json:"user_created"`
	Created      *string        `json:"date_created"`
	Updated      *string        `json:"date_updated"`
}

func (it item) message() Message {
	m := Message{ID: it.ID, Conversation: it.Conversation, Role: it.Role, Text: deref(it.Text), Status: deref(it.Status),
		ReplyTo: deref(it.ReplyTo), Author: deref(it.Author), Metadata: it.Metadata, Created: parseTime(it.Created), Updated: parseTime(it.Updated)}
	if m.Updated.IsZero() {
		m.Updated = m.Created
	}
	return m
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// parseTime reads Directus timestamps ("2026-06-09T10:00:00.000Z"; SQLite
// may omit the zone).
func parseTime(s *string) time.Time {
	if s == nil {
		return time.Time{}
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, *s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// Patch updates one message.
func (s *DirectusStore) Patch(ctx context.Context, id string, fields map[string]any) error {
	return s.c.UpdateItem(ctx, "messages", id, fields, nil)
}

// PatchFinal updates one message, retrying up to FinalWriteAttempts
// requests while Directus does not answer or answers 429, 502, 503 or 504.
func (s *DirectusStore) PatchFinal(ctx context.Context, id string, fields map[string]any) error {
	return s.final.UpdateItem(ctx, "messages", id, fields, nil)
}

// Message reads one message. Directus answers 403 for a message that does
// not exist as for one the token may not read; the error says which call.
func (s *DirectusStore) Message(ctx context.Context, id string) (Message, error) {
	var it item
	if err := s.c.ReadItem(ctx, "messages", id, messageFields, &it); err != nil {
		return Message{}, err
	}
	return it.message(), nil
}

// Conversation reads one conversation.
func (s *DirectusStore) Conversation(ctx context.Context, id string) (Conversation, error) {
	var c Conversation // null fields stay empty
	if err := s.c.ReadItem(ctx, "conversations", id, conversationFields, &c); err != nil {
		return Conversation{}, err
	}
	return c, nil
}

// Recent returns the conversation's last n user messages and completed
// replies created before t, oldest first.
func (s *DirectusStore) Recent(ctx context.Context, conv string, before time.Time, n int) ([]Message, error) {
	filter := map[string]any{"_and": []any{
		map[string]any{"conversation": map[string]any{"_eq": conv}},
		map[string]any{"date_created": map[string]any{"_lt": before.UTC().Format(time.RFC3339Nano)}},
		map[string]any{"_or": []any{
			map[string]any{"role": map[string]any{"_eq": "user"}},
			map[string]any{"status": map[string]any{"_eq": StatusCompleted}},
		}},
	}}
	var items []item
	if err := s.c.ReadItems(ctx, "messages", directus.Query{Fields: messageFields, Filter: filter, Sort: []string{"-date_created"}, Limit: n}, &items); err != nil {
		return nil, err
	}
	out := make([]Message, len(items))
	for i, it := range items {
		out[len(items)-1-i] = it.message()
	}
	return out, nil
}

// Create creates a message with its own id; a second reply to the same
// user message is refused by the unique reply_to field. A message that
// answers nothing has no reply_to (null, not an empty id).
func (s *DirectusStore) Create(ctx context.Context, m Message) error {
	body := map[string]any{"id": m.ID, "conversation": m.Conversation, "role": m.Role, "messageText": m.Text,
		"status": m.Status, "metadata": m.Metadata}
	if m.ReplyTo != "" {
		body["reply_to"] = m.ReplyTo
	}
	err := s.c.CreateItem(ctx, "messages", body, nil)
	if directus.IsUnique(err) {
		return ErrDuplicate
	}
	return err
}

// Reply returns the message answering the user message (reply_to is
// unique: at most one), whoever wrote it.
func (s *DirectusStore) Reply(ctx context.Context, user string) (Message, bool, error) {
	var items []item
	q := directus.Query{Fields: messageFields, Filter: map[string]any{"reply_to": map[string]any{"_eq": user}}, Limit: 1}
	if err := s.c.ReadItems(ctx, "messages", q, &items); err != nil {
		return Message{}, false, err
	}
	if len(items) == 0 {
		return Message{}, false, nil
	}
	return items[0].message(), true, nil
}

// Self returns the id of the token's user (GET /users/me), read once: the
// author Directus records on every message the agent creates.
func (s *DirectusStore) Self(ctx context.Context) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.self != "" {
		return s.self, nil
	}
	u, err := s.c.Me(ctx)
	if err != nil {
		return "", fmt.Errorf("chat: who the agent is in Directus: %w", err)
	}
	if u.ID == "" {
		return "", fmt.Errorf("chat: Directus names no user for the agent's token")
	}
	s.self = u.ID
	return s.self, nil
}

// Unanswered returns user messages created in [since, until) without a
// reply, oldest first. Directus finds them (the replies alias of reply_to),
// so answered messages, however many, never hide an unanswered one.
func (s *DirectusStore) Unanswered(ctx context.Context, since, until time.Time, limit int) ([]Message, error) {
	filter := map[string]any{"_and": []any{
		map[string]any{"role": map[string]any{"_eq": "user"}},
		map[string]any{"date_created": map[string]any{"_gte": since.UTC().Format(time.RFC3339Nano)}},
		map[string]any{"date_created": map[string]any{"_lt": until.UTC().Format(time.RFC3339Nano)}},
		map[string]any{"replies": map[string]any{"_none": map[string]any{"id": map[string]any{"_nnull": true}}}},
	}}
	var users []item
	if err := s.c.ReadItems(ctx, "messages", directus.Query{Fields: messageFields, Filter: filter, Sort: []string{"date_created"}, Limit: limit}, &users); err != nil {
		return nil, err
	}
	out := make([]Message, 0, len(users))
	for _, u := range users {
		out = append(out, u.message())
	}
	return out, nil
}

// Abandoned returns assistant messages pending or streaming whose last
// update (or creation, if never updated) is before t.
func (s *DirectusStore) Abandoned(ctx context.Context, before time.Time, limit int) ([]Message, error) {
	at := before.UTC().Format(time.RFC3339Nano)
	filter := map[string]any{"_and": []any{
		map[string]any{"role": map[string]any{"_eq": "assistant"}},
		map[string]any{"status": map[string]any{"_in": []string{StatusPending, StatusStreaming}}},
		map[string]any{"_or": []any{
			map[string]any{"date_updated": map[string]any{"_lt": at}},
			map[string]any{"_and": []any{
				map[string]any{"date_updated": map[string]any{"_null": true}},
				map[string]any{"date_created": map[string]any{"_lt": at}},
			}},
		}},
	}}
	var items []item
	if err := s.c.ReadItems(ctx, "messages", directus.Query{Fields: messageFields, Filter: filter, Limit: limit}, &items); err != nil {
		return nil, err
	}
	out := make([]Message, 0, len(items))
	for _, it := range items {
		out = append(out, it.message())
	}
	slices.SortFunc(out, func(a, b Message) int { return a.Created.Compare(b.Created) })
	return out, nil
}

// OpenBefore reports whether the conversation has a user message created
// in [since, before) whose reply is missing, pending or streaming: one GET.
func (s *DirectusStore) OpenBefore(ctx context.Context, conv string, since, before time.Time) (bool, error) {
	filter := map[string]any{"_and": []any{
		map[string]any{"conversation": map[string]any{"_eq": conv}},
		map[string]any{"role": map[string]any{"_eq": "user"}},
		map[string]any{"date_created": map[string]any{"_gte": stamp(since)}},
		map[string]any{"date_created": map[string]any{"_lt": stamp(before)}},
		map[string]any{"_or": []any{
			map[string]any{"replies": map[string]any{"_none": map[string]any{"id": map[string]any{"_nnull": true}}}},
			map[string]any{"replies": map[string]any{"_some": map[string]any{"status": map[string]any{"_in": []string{StatusPending, StatusStreaming}}}}},
		}},
	}}
	var items []item
	if err := s.c.ReadItems(ctx, "messages", directus.Query{Fields: []string{"id"}, Filter: filter, Limit: 1}, &items); err != nil {
		return false, err
	}
	return len(items) > 0, nil
}

// CanRead checks that token may read the message (a widget's own token on
// /v1/chat) and returns it.
func (s *DirectusStore) CanRead(ctx context.Context, token, id string) (Message, error) {
	var it item
	if err := s.c.WithToken(token).ReadItem(ctx, "messages", id, []string{"id", "conversation", "role"}, &it); err != nil {
		return Message{}, fmt.Errorf("chat: read message with the caller's token: %w", err)
	}
	return it.message(), nil
}

// UserOf returns the Directus user a token belongs to.
func (s *DirectusStore) UserOf(ctx context.Context, token string) (string, error) {
	u, err := s.c.WithToken(token).Me(ctx)
	if err != nil {
		return "", fmt.Errorf("chat: who holds the caller's token: %w", err)
	}
	return u.ID, nil
}

// ConversationAs reads a conversation with the caller's token.
func (s *DirectusStore) ConversationAs(ctx context.Context, token, id string) (Conversation, error) {
	var c Conversation
	if err := s.c.WithToken(token).ReadItem(ctx, "conversations", id, conversationFields, &c); err != nil {
		return Conversation{}, fmt.Errorf("chat: read the conversation with the caller's token: %w", err)
	}
	return c, nil
}
