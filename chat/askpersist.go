package chat

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
)

// reader is a store that can check a caller's own token.
type reader interface {
	CanRead(ctx context.Context, token, id string) (Message, error)
}

// CanRead checks, with the caller's own token, that the caller may read the
// message, and returns it (/v1/chat).
func (s *Service) CanRead(ctx context.Context, token, id string) (Message, error) {
	r, ok := s.opts.Store.(reader)
	if !ok {
		return Message{}, ErrNoStore
	}
	return r.CanRead(ctx, token, id)
}

// askPersisted stores the question in its conversation and answers it into
// a new assistant message, on the service's context: the caller's events
// stop when the caller leaves, the turn does not.
func (s *Service) askPersisted(ctx context.Context, q Question, obs agent.Observer, release func()) (*agent.State, error) {
	st := s.opts.Store
	conv, err := st.Conversation(ctx, q.ConversationID)
	if err != nil {
		release()
		s.log.Warn("reading the stream's conversation failed", "conversation", q.ConversationID, "err", err)
		return nil, fmt.Errorf("%w: conversation %q cannot be read", ErrInvalid, q.ConversationID)
	}
	if conv.Conference != q.ConferenceID {
		release()
		return nil, fmt.Errorf("%w: conversation %q belongs to conference %q", ErrInvalid, q.ConversationID, conv.Conference)
	}
	user := Message{ID: newUUID(), Conversation: conv.ID, Role: "user", Text: q.Message, Status: StatusCompleted, Created: s.opts.Now()}
	reply, _ := s.seen.remember(user.ID) // the Flow will deliver it too: a duplicate
	// The question and its reply are written even if the caller leaves now.
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := st.Create(wctx, user); err != nil {
		release()
		s.seen.forget(user.ID)
		s.directusError("create_message", err)
		return nil, fmt.Errorf("store the question: %w", err)
	}
	d := Delivery{MessageID: user.ID, TraceID: q.TraceID, assistantID: reply}
	k, err := s.claim(wctx, s.bgCtx, d, user)
	if err != nil {
		release()
		s.seen.forget(user.ID) // stored but unanswered: the reconciler takes it up
		return nil, fmt.Errorf("create the reply: %w", err)
	}
	type result struct {
		st  *agent.State
		err error
	}
	done := make(chan result, 1)
	var mu sync.Mutex
	gone := false
	if !s.begin() {
		release()
		s.handBack(reply, s.claimMeta(d), "shutdown before the turn started")
		k.stop()
		return nil, ErrShuttingDown
	}
	go func() {
		defer s.bg.Done()
		defer release()
		defer k.stop()
		of := turnOf{traceID: q.TraceID, meta: s.claimMeta(d), reflection: q.Reflection, lease: k}
		st, err := s.persisted(k.ctx, reply, user, of, func(e agent.Event) {
			mu.Lock()
			defer mu.Unlock()
			if !gone && obs != nil {
				obs(e)
			}
		})
		done <- result{st, err}
	}()
	select {
	case r := <-done:
		return r.st, r.err
	case <-ctx.Done():
		mu.Lock()
		gone = true
		mu.Unlock()
		return nil, ctx.Err()
	}
}
