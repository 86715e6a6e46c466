package agent

import (
	"context"
	"time"
)

// ackTimeout bounds the acknowledgment: it is only useful early.
const ackTimeout = 5 * time.Second

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
}

// startAck asks for a short acknowledgment on its own goroutine, so that
// planning never waits for it.
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
	in := &AckInput{Message: t.st.Message, Language: t.st.Language, Conference: t.st.Conference, History: t.st.History}
	now := t.agent.opts.Now
	go func() {
		defer close(p.done)
		start := now()
		p.comp, p.err = a.m.Complete(actx, Call{Step: StepAck, Ack: in})
		p.took = now().Sub(start)
	}()
	t.ack = p
}

// deliverAck emits the acknowledgment once it is ready. When last is true
// (the answer is about to start) one still being written is abandoned.
func (t *turn) deliverAck(last bool) {
	p := t.ack
	if p == nil {
		return
	}
	select {
	case <-p.done:
	default:
		if last {
			t.dropAck()
		}
		return
	}
	t.ack = nil
	p.cancel()
	t.record(StepAck, p.comp, p.err, p.fallback, p.took)
	if p.err != nil {
		if !p.fallback && isPermanent(p.err) {
			t.c.down = true
		}
		return
	}
	if text, ok := plain(p.comp.Text, 240); ok {
		t.st.Acknowledgment = text
		t.emit(Acknowledgment{Text: text})
	}
}

// dropAck abandons an acknowledgment still being written.
func (t *turn) dropAck() {
	if t.ack != nil {
		t.ack.cancel()
		t.st.ModelCalls = append(t.st.ModelCalls, CallInfo{Step: StepAck, Fallback: t.ack.fallback, Failed: "dropped: the answer was ready first"})
		t.ack = nil
	}
}
