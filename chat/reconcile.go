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
	return n + m, errors.Join(err1, err2, s.pruneClaims(ctx, now))
}

// claimPruner deletes the claims of finished replies that expired long ago
// (DirectusStore.PruneClaims), so that reply_claims does not grow with
// every reply ever written.
type claimPruner interface {
	PruneClaims(ctx context.Context, before time.Time, limit int) (int, error)
}

func (s *Service) pruneClaims(ctx context.Context, now time.Time) error {
	p, ok := s.opts.Store.(claimPruner)
	if !ok {
		return nil
	}
	n, err := p.PruneClaims(ctx, now.Add(-ClaimRetention), 100)
	if err != nil {
		s.directusError("prune_claims", err)
		return err
	}
	if n > 0 {
		s.log.Info("deleted expired claims of finished replies", "claims", n)
	}
	return nil
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
		if s.inflight.has(m.ID) {
			continue
		}
		// Closing a reply failed is a write like a restart: it needs the lease.
		k, cur, err := s.leaseToRestart(ctx, m)
		if err != nil {
			s.log.Warn("cannot take the abandoned reply's lease; the next sweep retries", "assistant", m.ID, "err", err)
		}
		if k == nil {
			continue
		}
		m = cur
		switch {
		case m.ReplyTo == "": // its question was deleted (reply_to set null): nothing to answer
			s.finalise(m.ID, withoutEnding(m.Metadata), failed("its question was deleted"))
			k.stop()
			continue
		case attempts(m) >= 3:
			s.finalise(m.ID, withoutEnding(m.Metadata), failed("abandoned three times"))
			k.stop()
			continue
		case !s.limit.Reserve():
			k.stop() // unused, it expires: another replica (or the next sweep) restarts the reply then
			return n, nil
		}
		s.seen.rememberAs(m.ReplyTo, m.ID) // not in flight here: whatever was known is over
		s.log.Info("reconciler restarts an abandoned reply", "assistant", m.ID, "status", m.Status)
		s.start(Delivery{MessageID: m.ReplyTo, ConversationID: m.Conversation, assistantID: m.ID, restart: true, attempts: attempts(m) + 1,
			meta: m.Metadata, lease: k})
		n++
	}
	return n, nil
}

// leaseToRestart takes the lease of a reply found abandoned, then reads
// the reply again: only a reply still pending or streaming once the lease
// is held is restarted (a finished reply is never reopened; its lease is
// not released, it expires). A lease another replica holds is no error: nil,
// nil (logged at info).
func (s *Service) leaseToRestart(ctx context.Context, m Message) (*keeper, Message, error) {
	k, err := s.takeLease(ctx, s.bgCtx, m.ID)
	switch {
	case errors.Is(err, ErrLeaseLost):
		s.log.Info("another replica holds the reply", "assistant", m.ID)
		return nil, m, nil
	case err != nil:
		return nil, m, err
	}
	cur, err := s.opts.Store.Message(ctx, m.ID)
	switch {
	case err != nil:
		k.stop()
		s.directusError("read_reply", err)
		return nil, m, err
	case cur.Status != StatusPending && cur.Status != StatusStreaming:
		k.stop()
		s.log.Info("the abandoned reply was finished meanwhile: not restarted", "assistant", m.ID, "status", cur.Status)
		return nil, m, nil
	}
	return k, cur, nil
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
