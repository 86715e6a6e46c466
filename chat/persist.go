package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"time"

	"github.com/erleah/erleah-agent/directus"
)

// Delivery is news of a user message: from the Directus Flow webhook, from
// a widget's /v1/chat call, from the realtime subscription or from the
// reconciler.
type Delivery struct {
	MessageID      string
	ConversationID string // optional: read from the message when empty
	Role           string // optional: checked before anything is read when set
	// TraceID, when set, names the turn (the webhook request's own id, so
	// that its log lines and the turn's join).
	TraceID string

	assistantID string    // the reply's id
	restart     bool      // the reply exists and is answered again (reconciler)
	attempts    int       // how often it was restarted, this time included
	waits       int       // how often it waited for an earlier question (retryLater)
	waitSince   time.Time // when it first did
	// meta is the reply's metadata as claimed (who accepted or restarted
	// it, how often); every later write keeps it.
	meta map[string]any
	// lease, when set, is the reply's lease, taken already (a restart:
	// the reconciler takes it before it restarts the reply).
	lease *keeper
}

// Accepted says what happened to a delivery.
type Accepted struct {
	Status      string `json:"status"` // accepted, ignored, duplicate
	AssistantID string `json:"assistant_message_id,omitempty"`
}

// Accept takes a delivered user message and answers at once: the assistant
// message's id is chosen here and the turn runs in the background, in order
// with the conversation's other messages. A message already accepted here is
// a duplicate; one already answered elsewhere is found when its reply is
// created (the store refuses a second reply). If this process stops before
// the turn starts, the reconciler answers the message later.
func (s *Service) Accept(ctx context.Context, d Delivery) (Accepted, error) {
	if s.opts.Store == nil {
		return Accepted{}, ErrNoStore
	}
	if d.MessageID == "" {
		return Accepted{}, fmt.Errorf("%w: no message id", ErrInvalid)
	}
	if d.Role != "" && d.Role != "user" {
		return Accepted{Status: "ignored"}, nil
	}
	if s.shuttingDown() {
		return Accepted{}, ErrShuttingDown
	}
	if id, dup := s.seen.known(d.MessageID); dup {
		return Accepted{Status: "duplicate", AssistantID: id}, nil
	}
	if !s.limit.Reserve() { // admission at the door: before any goroutine or Directus read
		s.m.Rejected.WithLabelValues("backlog_full").Inc()
		return Accepted{}, ErrOverloaded
	}
	id, dup := s.seen.remember(d.MessageID)
	if dup {
		s.limit.Unreserve()
		return Accepted{Status: "duplicate", AssistantID: id}, nil
	}
	d.assistantID = id
	s.start(d)
	return Accepted{Status: "accepted", AssistantID: id}, nil
}

// start delivers in the background; Shutdown waits for it. The caller
// holds a reservation of the limiter, which the delivery gives back when it
// does not run a turn. A delivery that names its conversation is queued at
// once behind that conversation's earlier deliveries, so a slow read of one
// message cannot let a later one overtake it; otherwise the message is read
// first.
func (s *Service) start(d Delivery) {
	if !s.begin() { // shutting down: the reconciler of the next process takes it up
		s.seen.forget(d.MessageID)
		s.limit.Unreserve()
		d.lease.stop()
		return
	}
	s.inflight.add(d.assistantID) // removed when the delivery ends (deliver, answer)
	job := func() {
		defer s.bg.Done()
		s.deliver(d)
	}
	if d.ConversationID != "" {
		s.convs.run(d.ConversationID, &s.bg, job)
		return
	}
	go job()
}

// deliver reads the message and answers it, in its conversation's queue:
// the one it already runs in, or (when the delivery named none, or the
// wrong one) the message's own.
func (s *Service) deliver(d Delivery) {
	ctx := s.bgCtx
	log := s.log.With("message", d.MessageID)
	user, err := s.opts.Store.Message(ctx, d.MessageID)
	if err != nil {
		s.inflight.remove(d.assistantID)
		s.seen.forget(d.MessageID)
		s.limit.Unreserve()
		d.lease.stop()
		s.directusError("read_message", err)
		log.Warn("cannot read delivered message; tried again later", "err", err)
		s.retryTransient(d, err)
		return
	}
	if user.Role != "user" {
		s.inflight.remove(d.assistantID)
		s.limit.Unreserve()
		d.lease.stop()
		return
	}
	if user.Conversation == d.ConversationID {
		s.answer(ctx, d, user, log)
		return
	}
	d.ConversationID = user.Conversation
	s.convs.run(user.Conversation, &s.bg, func() { s.answer(ctx, d, user, log) })
}

// answer creates (or restarts) the assistant message and runs the turn
// when a slot is free, with the reservation its delivery holds. It does
// neither while an earlier question of the conversation is open (waitsFor),
// nor without the reply's lease (claim).
func (s *Service) answer(ctx context.Context, d Delivery, user Message, log *slog.Logger) {
	defer s.inflight.remove(d.assistantID)
	if s.waitsFor(ctx, d, user, log) {
		s.limit.Unreserve()
		s.seen.forget(d.MessageID) // the reconciler takes it up once the earlier one is done
		d.lease.stop()
		s.retryLater(d)
		return
	}
	k, err := s.claim(ctx, ctx, d, user)
	if err != nil {
		s.limit.Unreserve()
		switch {
		case errors.Is(err, ErrNotOwner):
			return // refused and closed failed; claim logged why
		case errors.Is(err, ErrDuplicate):
			log.Info("message already answered")
			return
		case errors.Is(err, ErrLeaseLost):
			// The holder may die before it writes anything: forget the
			// message so that this replica's reconciler tries again once
			// the lease has expired.
			s.seen.forget(d.MessageID)
			log.Info("another replica holds the reply", "assistant", d.assistantID)
			return
		}
		s.seen.forget(d.MessageID)
		log.Warn("cannot create the reply; tried again later", "err", err)
		s.retryTransient(d, err)
		return
	}
	defer k.stop()
	release, err := s.limit.Wait(k.ctx)
	if err != nil {
		if k.alive() && !leaseLost(k.ctx) {
			s.handBack(d.assistantID, s.claimMeta(d), "shutdown before the turn started")
		}
		return
	}
	defer release()
	s.persisted(k.ctx, d.assistantID, user, turnOf{traceID: d.TraceID, meta: s.claimMeta(d), lease: k}, nil)
}

// waitsFor keeps a conversation's questions in order across replicas and
// after a crash: a question is not started (its reply neither created nor
// restarted) while an earlier user message of the same conversation,
// created within the reconcile window, has a reply still pending or
// streaming, or none yet. Such a question is left to the reconciler, which
// takes a conversation's questions oldest first, and tries it again on a
// later sweep (a missed one after ReconcileGrace, a restart after
// AbandonAfter). In one process a conversation's deliveries already run one
// after another, so the earlier one is finished when this check runs unless
// another replica holds it, or it was handed back or abandoned. One GET.
// When Directus cannot say, the question waits too.
func (s *Service) waitsFor(ctx context.Context, d Delivery, user Message, log *slog.Logger) bool {
	if user.Created.IsZero() {
		return false
	}
	open, err := s.opts.Store.OpenBefore(ctx, user.Conversation, s.opts.Now().Add(-s.opts.ReconcileWindow), user.Created)
	switch {
	case err != nil:
		s.directusError("read_open", err)
		log.Warn("cannot check the conversation's earlier questions; the reconciler will retry", "err", err)
		return true
	case open:
		log.Info("an earlier question of the conversation is still open: this one waits for the reconciler", "assistant", d.assistantID)
		return true
	}
	return false
}

// A question that waits for an earlier one of its conversation (or that
// met a transient Directus failure) is delivered again after waitBackoff,
// doubling up to waitBackoffMax, until the earlier one is done: deliveries
// that arrive out of order (the Flow sends them concurrently) then run in
// order as soon as they can, not after the reconciler's grace. It stops after AbandonAfter (by then the
// reconciler restarts an earlier reply that is stuck, and takes this one up
// after it), or when it cannot be accepted (shutting down, overloaded).
const (
	waitBackoff    = 250 * time.Millisecond
	waitBackoffMax = 4 * time.Second
)

// retryTransient delivers a question again later, like a waiting one,
// when what stopped it may pass (Directus did not answer, or answered 429
// or 5xx): a create whose answer was lost may have been written, and only
// the agent that wrote it takes such a reply up before AbandonAfter. A
// refusal is left to the reconciler.
func (s *Service) retryTransient(d Delivery, err error) {
	if directus.IsTransient(err) {
		s.retryLater(d)
	}
}

// retryLater delivers a question again later.
func (s *Service) retryLater(d Delivery) {
	if d.restart {
		return
	}
	now := s.opts.Now()
	if d.waitSince.IsZero() {
		d.waitSince = now
	}
	if now.Sub(d.waitSince) >= s.opts.AbandonAfter {
		return
	}
	delay := min(waitBackoff<<min(d.waits, 8), waitBackoffMax)
	d.waits++
	time.AfterFunc(delay, func() {
		if _, err := s.Accept(s.bgCtx, d); err != nil {
			s.log.Info("a waiting question is left to the reconciler", "message", d.MessageID, "err", err)
		}
	})
}

// turnOf is what a persisted turn carries from its delivery: the trace id
// to use, the claim's metadata, and the reflection mode asked for.
type turnOf struct {
	traceID    string
	meta       map[string]any
	reflection *bool
	lease      *keeper // the reply's lease (nil: none is kept)
}

// claim takes the reply's lease (unless the delivery holds it already: a
// restart), then creates the pending reply, or resets the one being
// restarted, for a message whose author may be answered in its
// conversation (checkAuthor: otherwise the reply is closed failed and the
// result is ErrNotOwner). An existing reply counts only when it is the
// agent's own (createReply). The lease comes first, before the reply
// exists: a replica that loses it (ErrLeaseLost) writes nothing at all,
// not even the reply's creation, and no reply is ever visible to another
// replica's reconciler without a claim naming its writer. The lease is kept
// on a context derived from parent; the caller stops it.
func (s *Service) claim(ctx, parent context.Context, d Delivery, user Message) (*keeper, error) {
	k := d.lease
	if k == nil {
		var err error
		if k, err = s.takeLease(ctx, parent, d.assistantID); err != nil {
			return nil, err
		}
	}
	err := s.checkAuthor(ctx, d, user)
	switch {
	case err != nil:
	case d.restart:
		err = s.opts.Store.Patch(ctx, d.assistantID, replyPatch{status: StatusPending, setThinking: true}.fields(s.claimMeta(d)))
	default:
		err = s.createReply(ctx, d.assistantID, user)
	}
	if err != nil {
		k.stop()
		return nil, err
	}
	return k, nil
}

// claimMeta is the metadata a reply is claimed with: who accepted it or,
// for a restart, what it had (its first acceptor among it) with who
// restarted it and how often. Every later write of the reply keeps it:
// Directus replaces a JSON field whole.
func (s *Service) claimMeta(d Delivery) map[string]any {
	md := withoutEnding(d.meta)
	if !d.restart {
		md["accepted_by"] = s.instance
		return md
	}
	md["restarted_by"], md["attempts"] = s.instance, d.attempts
	return md
}

// withoutEnding is a copy of a reply's metadata without how its last run
// ended (a hand-back or a failure): what a new ending is laid over.
func withoutEnding(md map[string]any) map[string]any {
	out := make(map[string]any, len(md)+3)
	maps.Copy(out, md)
	for _, k := range []string{"handed_back", "reason", "error"} {
		delete(out, k)
	}
	return out
}
