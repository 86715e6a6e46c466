package chat

import (
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
)

// Trace is a finished turn as operators see it.
type Trace struct {
	TraceID    string       `json:"trace_id"`
	Outcome    string       `json:"outcome"`
	StartedAt  time.Time    `json:"started_at"`
	DurationMS float64      `json:"duration_ms"`
	State      *agent.State `json:"state"`
}

// Traces keeps the most recent turns in a fixed-size ring. It is safe for
// concurrent use.
type Traces struct {
	mu   sync.Mutex
	ring []Trace
	next int
	full bool
}

// NewTraces keeps up to n traces.
func NewTraces(n int) *Traces { return &Traces{ring: make([]Trace, max(1, n))} }

// Add records a trace, replacing the oldest when full.
func (t *Traces) Add(tr Trace) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ring[t.next] = tr
	t.next = (t.next + 1) % len(t.ring)
	t.full = t.full || t.next == 0
}

// Update replaces the trace with the same id, if it is still kept.
func (t *Traces) Update(tr Trace) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for i := range t.ring {
		if t.ring[i].TraceID == tr.TraceID && t.ring[i].State != nil {
			t.ring[i] = tr
			return
		}
	}
}

// List returns the kept traces, newest first, without their states.
func (t *Traces) List() []Trace {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []Trace
	n := len(t.ring)
	for i := 1; i <= n; i++ {
		tr := t.ring[(t.next-i+n)%n]
		if tr.State == nil {
			break
		}
		tr.State = nil
		out = append(out, tr)
	}
	return out
}

// Get returns one kept trace with its state.
func (t *Traces) Get(id string) (Trace, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tr := range t.ring {
		if tr.TraceID == id && tr.State != nil {
			return tr, true
		}
	}
	return Trace{}, false
}
