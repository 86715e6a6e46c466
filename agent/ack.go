package agent

import (
	"context"
	"slices"
	"strings"
	"time"
)

// ackTimeout bounds the acknowledgment: it is only useful early.
const ackTimeout = 5 * time.Second

// MaxAckWords is the longest acknowledgment shown, in words.
const MaxAckWords = 25

// pendingAck is an acknowledgment being written beside planning. Its
// goroutine writes the fields, then closes done; the turn reads them only
// after done is closed.
type pendingAck struct {
	done     chan struct{}
	cancel   context.CancelFunc
	comp     Completion
	err      error
	fallback bool
	took     time.Duration
	dropped  string // why a written acknowledgment was not shown
}

// startAck asks for a short acknowledgment on its own goroutine, so that
// planning never waits for it; it goes out the moment it is ready.
func (t *turn) startAck(ctx context.Context) {
	as := t.c.attempts(StepAck)
	if len(as) == 0 {
		return
	}
	a := as[0]
	if !a.fallback {
		t.c.used++
	}
	actx, cancel := context.WithTimeout(ctx, ackTimeout)
	p := &pendingAck{done: make(chan struct{}), cancel: cancel, fallback: a.fallback}
	in := &AckInput{Message: t.st.Message, Reading: t.st.Reading, Language: t.st.Language, Conference: t.st.Conference, History: t.st.History}
	now := t.agent.opts.Now
	go func() {
		defer close(p.done)
		start := now()
		p.comp, p.err = a.m.Complete(actx, Call{Step: StepAck, Ack: in})
		p.took = now().Sub(start)
		if p.err == nil {
			p.dropped = t.offerAck(p.comp.Text)
		}
	}()
	t.ack = p
}

// offerAck sends an acknowledgment and its thinking record, unless a
// thinking note or the answer went out first or the text is not a short
// plain note; it says why it did not.
func (t *turn) offerAck(text string) string {
	text, ok := ackText(text)
	if !ok {
		return "not a plain note of at most 25 words"
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ackClosed {
		return tooLate
	}
	t.ackClosed = true
	t.st.Acknowledgment = text
	rec := ThinkingRecord{Message: text, Strategy: Acknowledge, TS: float64(t.agent.opts.Now().UnixMicro()) / 1e6}
	t.st.ThinkingUpdates = append(t.st.ThinkingUpdates, rec)
	t.obs(Acknowledgment{Text: text})
	t.obs(Thinking{Record: rec, All: slices.Clone(t.st.ThinkingUpdates)})
	return ""
}

const tooLate = "too late: a thinking note or the answer went first"

// ackText returns an acknowledgment fit to show: plain, at most
// MaxAckWords words; a longer one is cut to its first sentence when that
// fits, else refused.
func ackText(text string) (string, bool) {
	text, ok := plain(text, 240)
	if !ok {
		return "", false
	}
	if len(strings.Fields(text)) <= MaxAckWords {
		return text, true
	}
	if i := strings.IndexAny(text, ".!?"); i > 0 && len(strings.Fields(text[:i+1])) <= MaxAckWords {
		return text[:i+1], true
	}
	return "", false
}

// endAck closes the acknowledgment's window (the answer is about to start)
// and records its call: done, or abandoned while still being written.
func (t *turn) endAck() {
	t.mu.Lock()
	t.ackClosed = true
	delivered := t.st.Acknowledgment != ""
	t.mu.Unlock()
	p := t.ack
	if p == nil {
		return
	}
	t.ack = nil
	if delivered {
		<-p.done // it has gone out; its goroutine is returning
	}
	p.cancel()
	select {
	case <-p.done:
	default:
		t.st.AckDropped = tooLate
		t.st.ModelCalls = append(t.st.ModelCalls, CallInfo{Step: StepAck, Fallback: p.fallback, Failed: "abandoned: " + tooLate})
		return
	}
	t.st.AckDropped = p.dropped
	t.record(StepAck, p.comp, p.err, p.fallback, p.took)
	if p.err != nil && !p.fallback && isPermanent(p.err) {
		t.c.down = true
	}
}
