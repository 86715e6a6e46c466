package chat

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
)

// Message statuses (contract §5).
const (
	StatusPending   = "pending"
	StatusStreaming = "streaming"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
)

// Patcher updates one message.
type Patcher interface {
	// Patch writes fields once through the store's usual retries (a
	// partial answer, a thinking note: the next one overtakes it).
	Patch(ctx context.Context, id string, fields map[string]any) error
	// PatchFinal writes a reply's last fields (its answer, failure or hand
	// back), riding out an outage of a few seconds within a stated number
	// of requests (DirectusStore: FinalWriteAttempts).
	PatchFinal(ctx context.Context, id string, fields map[string]any) error
}

// DefaultFlushEvery is the least time between two partial answer updates.
const DefaultFlushEvery = 250 * time.Millisecond

// writer is the one ordered writer of an assistant message. Everything goes
// through its goroutine, one PATCH at a time, so a partial update never lands
// after the final one. Thinking records and the first words of the answer
// (with status streaming) are written as soon as they come; later answer
// text is coalesced to at most one PATCH per flushEvery.
type writer struct {
	p     Patcher
	id    string
	every time.Duration

	mu       sync.Mutex
	text     []byte
	thinking []agent.ThinkingRecord
	dirty    bool // text changed since the last flush
	urgent   bool // thinking changed: flush now
	status   string
	final    map[string]any
	wake     chan struct{}
	done     chan struct{}

	// gate, when set, says whether the message may still be written (the
	// reply's lease is held); writes it refuses are dropped.
	gate    func() bool
	dropped bool // drop was called: the loop ends without a final write

	patches int // PATCH requests sent, for benchmarks
	failed  int
	onError func(error)
}

func newWriter(p Patcher, id string, every time.Duration, onError func(error)) *writer {
	if every <= 0 {
		every = DefaultFlushEvery
	}
	if onError == nil {
		onError = func(error) {}
	}
	w := &writer{p: p, id: id, every: every, status: StatusPending,
		wake: make(chan struct{}, 1), done: make(chan struct{}), onError: onError}
	return w
}

// start runs the writer's goroutine until the final write is done.
func (w *writer) start(ctx context.Context) { go w.loop(ctx) }

func (w *writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// observe feeds the turn's events to the writer.
func (w *writer) observe(e agent.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch e := e.(type) {
	case agent.Thinking:
		w.thinking = e.All
		w.urgent = true
	case agent.Chunk:
		w.text = append(w.text, e.Text...)
		w.dirty = true
	case agent.Reset:
		w.text = w.text[:0]
		w.dirty = true
	default:
		return
	}
	w.signal()
}

// drop ends the writer without a final write (the lease was lost).
func (w *writer) drop() {
	w.mu.Lock()
	w.dropped = true
	w.mu.Unlock()
	w.signal()
}

// finish asks for the final write and waits until it is done (or ctx ends).
func (w *writer) finish(ctx context.Context, fields map[string]any) {
	w.mu.Lock()
	w.final = fields
	w.mu.Unlock()
	w.signal()
	select {
	case <-w.done:
	case <-ctx.Done():
	}
}

func (w *writer) loop(ctx context.Context) {
	defer close(w.done)
	last := time.Time{}
	for {
		select {
		case <-w.wake:
		case <-ctx.Done():
			return
		}
		for {
			fields, final, wait := w.next(last)
			if fields == nil && !final {
				if wait > 0 {
					w.sleep(ctx, wait)
					continue
				}
				break
			}
			if final {
				if fields != nil {
					w.patchFinal(ctx, fields)
				}
				return
			}
			w.patch(ctx, fields)
			last = time.Now()
		}
	}
}

func (w *writer) sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-w.wake: // a thinking record or the final write does not wait
	case <-ctx.Done():
	}
}

// next decides what to write now: the final fields, urgent thinking (with
// any pending text), or text once flushEvery has passed since the last write.
func (w *writer) next(last time.Time) (fields map[string]any, final bool, wait time.Duration) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.dropped {
		return nil, true, 0
	}
	if w.final != nil && !(w.dirty && w.status == StatusPending) { // the widget sees streaming before completed
		f := w.final
		if _, ok := f["thinking_output"]; !ok && len(w.thinking) > 0 {
			f["thinking_output"] = w.thinking
		}
		return f, true, 0
	}
	if !w.urgent && !w.dirty {
		return nil, false, 0
	}
	if !w.urgent && w.status != StatusPending { // the first words go out at once
		if d := w.every - time.Since(last); d > 0 {
			return nil, false, d
		}
	}
	fields = map[string]any{}
	if w.urgent {
		fields["thinking_output"] = json.RawMessage(mustJSON(w.thinking))
	}
	if w.dirty {
		fields["messageText"] = string(w.text)
		if w.status == StatusPending {
			w.status = StatusStreaming
			fields["status"] = StatusStreaming
		}
	}
	w.urgent, w.dirty = false, false
	return fields, false, 0
}

func (w *writer) patch(ctx context.Context, fields map[string]any) {
	if w.gate != nil && !w.gate() {
		return
	}
	w.mu.Lock()
	w.patches++
	w.mu.Unlock()
	if err := w.p.Patch(ctx, w.id, fields); err != nil {
		w.mu.Lock()
		w.failed++
		w.mu.Unlock()
		w.onError(err)
	}
}

// patchFinal writes the final fields through the store's final writes,
// which ride out a brief outage: a partial that fails is overtaken by the
// next one, the final is not. If it still fails, the reconciler will find
// the message left streaming.
func (w *writer) patchFinal(ctx context.Context, fields map[string]any) {
	if w.gate != nil && !w.gate() {
		return
	}
	err := w.p.PatchFinal(ctx, w.id, fields)
	w.mu.Lock()
	w.patches++
	if err != nil {
		w.failed++
	}
	w.mu.Unlock()
	if err != nil {
		w.onError(err)
	}
}

// counts returns how many PATCHes were sent and how many failed.
func (w *writer) counts() (sent, failed int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.patches, w.failed
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}
