package chat

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"errors"
	"fmt"
	"time"
)

// Store is where conversations live (Directus): what persisted turns read
// and write.
type Store interface {
	Patcher
	// Message reads one message.
	Message(ctx context.Context, id string) (Message, error)
	// Conversation reads one conversation.
	Conversation(ctx context.Context, id string) (Conversation, error)
	// Recent returns up to n completed messages of a conversation created
	// before t, oldest first.
	Recent(ctx context.Context, conversation string, before time.Time, n int) ([]Message, error)
	// Create creates a message; it fails with ErrDuplicate when the user
	// message already has a reply (or the id is taken). The store records
	// who created it (Author: the store's own user).
	Create(ctx context.Context, m Message) error
	// Reply returns the message whose reply_to is the given user message,
	// if there is one (there is at most one).
	Reply(ctx context.Context, user string) (Message, bool, error)
	// Self returns the id of the store's own user (the agent's): the author
	// of everything it creates.
	Self(ctx context.Context) (string, error)
	// Unanswered returns user messages created in [since, until) that have
	// no reply.
	Unanswered(ctx context.Context, since, until time.Time, limit int) ([]Message, error)
	// Abandoned returns assistant messages still pending or streaming that
	// were last updated before t.
	Abandoned(ctx context.Context, before time.Time, limit int) ([]Message, error)
	// OpenBefore reports whether the conversation has a user message
	// created in [since, before) whose reply is missing, pending or
	// streaming: an earlier question still open.
	OpenBefore(ctx context.Context, conversation string, since, before time.Time) (bool, error)

	// Leases on replies (lease.go): which replica may write a reply.
	// Lease takes the reply's lease for owner until now+ttl, or finds it
	// held by owner (and extends it); ErrLeaseLost when another owner's
	// lease is live or another replica created the next generation first.
	Lease(ctx context.Context, reply, owner string, now time.Time, ttl time.Duration) (Lease, error)
	// Renew extends a held lease until now+ttl; ErrLeaseLost when a newer
	// generation exists.
	Renew(ctx context.Context, l Lease, now time.Time, ttl time.Duration) (Lease, error)
	// Holds checks that l is still the reply's latest claim (ErrLeaseLost
	// otherwise).
	Holds(ctx context.Context, l Lease) error
}

// Message is a message as the agent sees it.
type Message struct {
	ID           string
	Conversation string
	Role         string // "user" or "assistant"
	Text         string
	Status       string
	ReplyTo      string
	Author       string // user_created: who created it (Directus sets it from the token, whatever the client sends); "" when no user did (a Flow, an import)
	Created      time.Time
	Updated      time.Time
	Metadata     map[string]any
}

// Conversation is a chat between an attendee and the assistant.
type Conversation struct {
	ID         string `json:"id"`
	Conference string `json:"conference"`
	// Owner is the user who created the conversation (user_created).
	Owner string `json:"user_created"`
	// UserID names the attendee it is for (user_id), when whoever created
	// it (the widget's backend, say) set it.
	UserID string `json:"user_id"`
}

// ErrDuplicate means the user message already has a reply.
var ErrDuplicate = errors.New("chat: the message already has a reply")

// ErrNotOwner means a user message was not answered because its author
// does not own its conversation; its reply was written failed instead, so
// it is also an ErrDuplicate: the message has its (refused) reply.
var ErrNotOwner = fmt.Errorf("chat: the conversation is not the author's (%w)", ErrDuplicate)

// ErrNoStore means no Store is configured (no Directus).
var ErrNoStore = errors.New("chat: no message store configured")

// replyID is the id of the reply to a user message: a name-based (version
// 5 style) UUID of the message's id, the same in every process and after a
// restart, so a replayed delivery is told the id of the reply that exists.
func replyID(message string) string {
	sum := sha1.Sum([]byte("erleah-agent reply to " + message))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// newUUID returns a random (version 4) UUID: assistant messages get their id
// here, so that it can be returned before Directus has stored them.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
