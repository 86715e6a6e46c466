package chat

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/erleah/erleah-agent/agent"
)

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
		s.handBack(assistantID, of.meta, "shutdown before the turn started")
		return nil, err
	case err != nil:
		s.finalise(assistantID, of.meta, failed(err.Error()))
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
		w.finish(fctx, completed(st).fields(of.meta))
		answered = true
	case errors.Is(ctx.Err(), context.Canceled): // shutting down: give it back
		w.finish(fctx, handedBack("shutdown during the turn").fields(of.meta))
	case errors.Is(err, agent.ErrSearchUnavailable):
		w.finish(fctx, searchDown(err.Error()).fields(of.meta))
	default:
		w.finish(fctx, failed(err.Error()).fields(of.meta))
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
	if err := s.opts.Store.Patch(ctx, id, map[string]any{"metadata": overClaim(claim, completedMetadata(st))}); err != nil {
		s.directusError("patch_message", err)
	}
}

// replyPatch is one write of a reply's state (its answer, failure, hand
// back or restart), encoded in one place (fields): status and text are
// always written, thinking notes when set (cleared ones as an explicit
// null), and metadata laid over what the reply was claimed with, never
// replacing it (Directus writes a JSON field whole).
type replyPatch struct {
	status, text string
	// setThinking writes thinking (none: null); unset, the notes stay.
	setThinking bool
	thinking    []agent.ThinkingRecord
	meta        map[string]any
}

// fields are p as a PATCH of a reply claimed with claim.
func (p replyPatch) fields(claim map[string]any) map[string]any {
	f := map[string]any{"status": p.status, "messageText": p.text, "metadata": overClaim(claim, p.meta)}
	if p.setThinking {
		f["thinking_output"] = nullIfEmpty(p.thinking)
	}
	return f
}

// overClaim is md laid over a copy of claim.
func overClaim(claim, md map[string]any) map[string]any {
	out := make(map[string]any, len(claim)+len(md))
	maps.Copy(out, claim)
	maps.Copy(out, md)
	return out
}

// completed is the final write of an answered message.
func completed(st *agent.State) replyPatch {
	return replyPatch{status: StatusCompleted, text: st.ResponseText, setThinking: true, thinking: st.ThinkingUpdates, meta: completedMetadata(st)}
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

// failed is the final write of a message the agent could not answer; its
// thinking notes stay.
func failed(reason string) replyPatch {
	return replyPatch{status: StatusFailed, text: agent.Apology, meta: map[string]any{"error": reason}}
}

// handedBack returns a message to pending so that the reconciler (here
// after a restart, or on another replica) answers it again once it has not
// changed for AbandonAfter.
func handedBack(reason string) replyPatch {
	return replyPatch{status: StatusPending, setThinking: true, meta: map[string]any{"handed_back": true, "reason": reason}}
}

// SearchDown is the text of a reply handed back because search failed.
const SearchDown = "Sorry, I can't search the programme just now. I'll answer here as soon as I can."

// searchDown hands a reply back when the search index failed: the attendee
// reads why at once, and the reconciler answers again once the reply has
// not changed for AbandonAfter (at most three times, then it fails).
func searchDown(reason string) replyPatch {
	p := handedBack(reason)
	p.text = SearchDown
	return p
}

// finalise writes a reply's last state outside a turn's writer.
func (s *Service) finalise(id string, claim map[string]any, p replyPatch) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := s.opts.Store.PatchFinal(ctx, id, p.fields(claim))
	if err != nil {
		s.directusError("finalise_message", err)
		s.log.Warn("cannot finalise message; the reconciler will", "assistant", id, "err", err)
	}
}

// handBack returns a reply to pending, keeping the metadata it was claimed
// with.
func (s *Service) handBack(id string, claim map[string]any, reason string) {
	s.finalise(id, claim, handedBack(reason))
}

func (s *Service) directusError(op string, err error) {
	if err != nil {
		s.m.DirectusErrors.WithLabelValues(op).Inc()
	}
}
