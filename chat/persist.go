package chat

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
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

	assistantID string // the reply's id
	restart     bool   // the reply exists and is answered again (reconciler)
	attempts    int    // how often it was restarted, this time included
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
		log.Warn("cannot read delivered message; the reconciler will retry", "err", err)
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
			log.Info("another replica holds the reply", "assistant", d.assistantID)
			return
		}
		s.seen.forget(d.MessageID)
		log.Warn("cannot create the reply; the reconciler will retry", "err", err)
		return
	}
	defer k.stop()
	release, err := s.limit.Wait(k.ctx)
	if err != nil {
		if k.alive() && !leaseLost(k.ctx) {
			s.handBack(d.assistantID, "shutdown before the turn started")
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
		err = s.opts.Store.Patch(ctx, d.assistantID, map[string]any{"status": StatusPending, "messageText": "", "thinking_output": nil,
			"metadata": s.claimMeta(d)})
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
	md := map[string]any{}
	for k, v := range d.meta {
		md[k] = v
	}
	if !d.restart {
		md["accepted_by"] = s.instance
		return md
	}
	for _, k := range []string{"handed_back", "reason", "error"} { // the last run's ending, not this one's
		delete(md, k)
	}
	md["restarted_by"], md["attempts"] = s.instance, d.attempts
	return md
}

// withMeta returns fields with their metadata laid over the claim's.
func withMeta(claim map[string]any, fields map[string]any) map[string]any {
	md := map[string]any{}
	for k, v := range claim {
		md[k] = v
	}
	if own, ok := fields["metadata"].(map[string]any); ok {
		for k, v := range own {
			md[k] = v
		}
	}
	fields["metadata"] = md
	return fields
}

// persisted runs one turn into an assistant message: thinking records and
// the streamed answer go through the message's ordered writer, and the turn
// ends completed, or failed with an apology, never left open. Extra
// observers (a developer's stream) get the events too; reflection, when
// set, overrides the service's reflection mode for this turn.
func (s *Service) persisted(ctx context.Context, assistantID string, user Message, of turnOf, extra agent.Observer) (*agent.State, error) {
	log := s.log.With("assistant", assistantID)
	req, err := s.persistedRequest(ctx, user, of.traceID)
	switch {
	case err != nil && (leaseLost(ctx) || !of.lease.alive()): // another replica has it: write nothing
		return nil, err
	case err != nil && ctx.Err() != nil: // shutting down: give it back
		s.finalise(assistantID, withMeta(of.meta, handedBack("shutdown before the turn started")))
		return nil, err
	case err != nil:
		s.finalise(assistantID, withMeta(of.meta, failed(err.Error())))
		return nil, err
	}
	w := newWriter(s.opts.Store, assistantID, s.opts.FlushEvery, func(err error) { s.directusError("patch_message", err) })
	w.gate = of.lease.alive // no write once the lease is lost or expired
	w.start(context.WithoutCancel(ctx))
	s.inflight.add(assistantID)
	defer s.inflight.remove(assistantID)
	if of.reflection != nil {
		req.Reflection = of.reflection
	}
	answered := false
	written := make(chan struct{}) // closed once the final write is done; answered is set before
	defer close(written)
	st, err := s.run(ctx, req, func(e agent.Event) {
		w.observe(e)
		if extra != nil {
			extra(e)
		}
	}, func(scored *agent.State) { s.writeScore(assistantID, of.meta, scored, written, &answered) })
	fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if lerr := of.lease.check(fctx); leaseLost(ctx) || errors.Is(lerr, ErrLeaseLost) {
		w.drop()
		log.Warn("the reply's lease was lost during the turn: its final fields are not written", "trace_id", req.TraceID)
		return st, ErrLeaseLost
	}
	switch {
	case err == nil:
		w.finish(fctx, withMeta(of.meta, completed(st)))
		answered = true
	case errors.Is(ctx.Err(), context.Canceled): // shutting down: give it back
		w.finish(fctx, withMeta(of.meta, handedBack("shutdown during the turn")))
	default:
		f := failed(err.Error())
		if errors.Is(err, agent.ErrSearchUnavailable) {
			f["messageText"] = agent.SearchUnavailable
		}
		w.finish(fctx, withMeta(of.meta, f))
	}
	sent, bad := w.counts()
	log.Info("reply written", "trace_id", req.TraceID, "patches", sent, "failed_patches", bad)
	return st, err
}

// persistedRequest builds the agent's request from Directus: the
// conversation's conference and its last messages, without those written
// by someone who may not post there (mayPost: another attendee's question
// or fake answer must not steer the owner's turns).
func (s *Service) persistedRequest(ctx context.Context, user Message, traceID string) (agent.Request, error) {
	conv, err := s.opts.Store.Conversation(ctx, user.Conversation)
	if err != nil {
		s.directusError("read_conversation", err)
		return agent.Request{}, fmt.Errorf("read conversation: %w", err)
	}
	recent, err := s.opts.Store.Recent(ctx, user.Conversation, user.Created, s.opts.HistoryTurns)
	if err != nil {
		s.directusError("read_history", err)
		recent = nil // answer without context rather than not at all
	}
	self, err := s.opts.Store.Self(ctx)
	if err != nil {
		s.directusError("read_self", err)
		recent = nil // whose messages they are is unknown: none
	}
	var history []agent.Turn
	for _, m := range recent {
		if m.ID != user.ID && mayPost(conv, m.Author, self) {
			history = append(history, agent.Turn{Role: m.Role, Text: m.Text})
		}
	}
	return s.request(Question{Message: user.Text, ConferenceID: conv.Conference, History: history, TraceID: traceID})
}

// writeScore adds a background evaluation to an answered message's
// metadata, after the message's final write (the metadata field is written
// whole, so it must not race it).
func (s *Service) writeScore(id string, claim map[string]any, st *agent.State, written <-chan struct{}, answered *bool) {
	select {
	case <-written:
	case <-s.bgCtx.Done():
		return
	}
	if !*answered {
		return
	}
	ctx, cancel := context.WithTimeout(s.bgCtx, 30*time.Second)
	defer cancel()
	if err := s.opts.Store.Patch(ctx, id, withMeta(claim, map[string]any{"metadata": completedMetadata(st)})); err != nil {
		s.directusError("patch_message", err)
	}
}

// completed are the final fields of an answered message.
func completed(st *agent.State) map[string]any {
	return map[string]any{
		"status": StatusCompleted, "messageText": st.ResponseText, "thinking_output": nullIfEmpty(st.ThinkingUpdates),
		"metadata": completedMetadata(st),
	}
}

// completedMetadata is an answered message's metadata: what was cited, how
// the turn went, whether it reflected and, once scored, the evaluation.
func completedMetadata(st *agent.State) map[string]any {
	var usage []map[string]any
	for _, c := range st.ModelCalls {
		usage = append(usage, map[string]any{"step": c.Step, "model": c.Model, "input_tokens": c.Usage.InputTokens,
			"output_tokens": c.Usage.OutputTokens, "ms": c.MS, "fallback": c.Fallback})
	}
	mode := "off"
	if st.Reflection {
		mode = "on"
	}
	md := map[string]any{"trace_id": st.TraceID, "citations": st.Citations, "strategies": st.Strategies(),
		"model_usage": usage, "timings_ms": st.StepDurationsMS, "response_source": st.ResponseSource, "reflection": mode}
	if ev := st.Evaluation; ev != nil {
		md["evaluation"] = map[string]any{"quality_score": ev.QualityScore, "confidence_score": ev.ConfidenceScore,
			"issues": ev.Issues, "source": ev.Source}
	}
	return md
}

func nullIfEmpty(r []agent.ThinkingRecord) any {
	if len(r) == 0 {
		return nil
	}
	return r
}

// failed are the final fields of a message the agent could not answer.
func failed(reason string) map[string]any {
	return map[string]any{"status": StatusFailed, "messageText": agent.Apology, "metadata": map[string]any{"error": reason}}
}

// handedBack returns a message to pending so that the reconciler (here
// after a restart, or on another replica) answers it again once it has not
// changed for AbandonAfter.
func handedBack(reason string) map[string]any {
	return map[string]any{"status": StatusPending, "messageText": "", "thinking_output": nil,
		"metadata": map[string]any{"handed_back": true, "reason": reason}}
}

func (s *Service) finalise(id string, fields map[string]any) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := patchRetrying(ctx, s.opts.Store, id, fields, func(err error) {
		if err != nil {
			s.directusError("finalise_message", err)
		}
	})
	if err != nil {
		s.log.Warn("cannot finalise message; the reconciler will", "assistant", id, "err", err)
	}
}

func (s *Service) handBack(id, reason string) { s.finalise(id, handedBack(reason)) }

func (s *Service) directusError(op string, err error) {
	if err != nil {
		s.m.DirectusErrors.WithLabelValues(op).Inc()
	}
}

// seenSet remembers the most recently accepted user messages (a bounded
// number) and the reply id given to each, so that a second delivery of the
// same message is recognised at once.
type seenSet struct {
	mu    sync.Mutex
	max   int
	ids   map[string]*list.Element
	order *list.List // front: most recent
}

type seenEntry struct{ message, assistant string }

func newSeenSet(max int) *seenSet {
	return &seenSet{max: max, ids: map[string]*list.Element{}, order: list.New()}
}

// remember records a message with a new reply id, or reports it as a
// duplicate with the id it got before.
func (s *seenSet) remember(message string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		return e.Value.(seenEntry).assistant, true
	}
	if s.order.Len() >= s.max {
		oldest := s.order.Back()
		delete(s.ids, oldest.Value.(seenEntry).message)
		s.order.Remove(oldest)
	}
	id := replyID(message)
	s.ids[message] = s.order.PushFront(seenEntry{message, id})
	return id, false
}

// known reports a message already remembered, with its reply's id.
func (s *seenSet) known(message string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		return e.Value.(seenEntry).assistant, true
	}
	return "", false
}

// rememberAs records a message whose reply already has an id (a restart),
// replacing what was known of it.
func (s *seenSet) rememberAs(message, assistant string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		s.order.Remove(e)
	} else if s.order.Len() >= s.max {
		oldest := s.order.Back()
		delete(s.ids, oldest.Value.(seenEntry).message)
		s.order.Remove(oldest)
	}
	s.ids[message] = s.order.PushFront(seenEntry{message, assistant})
}

// forget drops a message whose delivery failed, so that a later one is
// not taken for a duplicate.
func (s *seenSet) forget(message string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.ids[message]; ok {
		s.order.Remove(e)
		delete(s.ids, message)
	}
}

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
	k, err := s.claim(wctx, s.bgCtx, Delivery{MessageID: user.ID, assistantID: reply}, user)
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
		s.handBack(reply, "shutdown before the turn started")
		k.stop()
		return nil, ErrShuttingDown
	}
	go func() {
		defer s.bg.Done()
		defer release()
		defer k.stop()
		of := turnOf{traceID: q.TraceID, meta: map[string]any{"accepted_by": s.instance}, reflection: q.Reflection, lease: k}
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
