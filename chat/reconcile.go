package chat

import (
	"context"
	"errors"
	"time"
)

// Reconcile finds what deliveries missed and crashes left behind, and
// answers it: user messages older than the grace period without a reply (a
// Flow delivery that failed, a message created while the agent was down),
// and assistant messages still pending or streaming long after any turn
// would have finished, or handed back at shutdown. It returns how many
// messages it took up.
func (s *Service) Reconcile(ctx context.Context) (int, error) {
	if s.opts.Store == nil {
		return 0, ErrNoStore
	}
	if s.shuttingDown() {
		return 0, ErrShuttingDown
	}
	now := s.opts.Now()
	n, err1 := s.restartAbandoned(ctx, now)
	m, err2 := s.answerMissed(ctx, now)
	return n + m, errors.Join(err1, err2)
}

func (s *Service) answerMissed(ctx context.Context, now time.Time) (int, error) {
	msgs, err := s.opts.Store.Unanswered(ctx, now.Add(-s.opts.ReconcileWindow), now.Add(-s.opts.ReconcileGrace), 200)
	if err != nil {
		s.directusError("reconcile", err)
		return 0, err
	}
	n := 0
	for _, m := range msgs {
		if _, dup := s.seen.known(m.ID); dup {
			continue // being answered here
		}
		if !s.limit.Reserve() {
			break // full: the next sweep takes up the rest
		}
		id, _ := s.seen.remember(m.ID)
		s.log.Info("reconciler answers a missed message", "message", m.ID)
		s.start(Delivery{MessageID: m.ID, ConversationID: m.Conversation, assistantID: id})
		n++
	}
	return n, nil
}

func (s *Service) restartAbandoned(ctx context.Context, now time.Time) (int, error) {
	msgs, err := s.opts.Store.Abandoned(ctx, now.Add(-s.opts.AbandonAfter), 200)
	if err != nil {
		s.directusError("reconcile", err)
		return 0, err
	}
	n := 0
	for _, m := range msgs {
		switch {
		case s.inflight.has(m.ID):
			continue
		case m.ReplyTo == "": // its question was deleted (reply_to set null): nothing to answer
			s.finalise(m.ID, failed("its question was deleted"))
			continue
		case attempts(m) >= 3:
			s.finalise(m.ID, failed("abandoned three times"))
			continue
		case !s.limit.Reserve():
			return n, nil // full: the next sweep takes up the rest
		}
		s.seen.rememberAs(m.ReplyTo, m.ID) // not in flight here: whatever was known is over
		s.log.Info("reconciler restarts an abandoned reply", "assistant", m.ID, "status", m.Status)
		s.start(Delivery{MessageID: m.ReplyTo, ConversationID: m.Conversation, assistantID: m.ID, restart: true, attempts: attempts(m) + 1,
			meta: m.Metadata})
		n++
	}
	return n, nil
}

// attempts counts how often a reply was restarted.
func attempts(m Message) int {
	if v, ok := m.Metadata["attempts"].(float64); ok {
		return int(v)
	}
	return 0
}

// RunReconciler reconciles now and then every interval until ctx ends.
func (s *Service) RunReconciler(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if n, err := s.Reconcile(ctx); err != nil {
			s.log.Warn("reconcile failed", "err", err)
		} else if n > 0 {
			s.log.Info("reconciled", "messages", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
