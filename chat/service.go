// Package chat runs conversational turns as a service: it bounds how many
// turns run and wait, gives every turn its deadline and trace id, keeps the
// recent traces, evaluates answers in the background on a context that
// shutdown waits for, records metrics, and (with a Directus store) persists
// each turn into the assistant message the chat widget watches.
//
// A Service is safe for concurrent use.
package chat

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/metrics"
)

// Errors a request can be refused with. Callers branch with errors.Is.
var (
	ErrInvalid      = errors.New("chat: invalid request")
	ErrUnknownConf  = errors.New("chat: unknown conference")
	ErrShuttingDown = errors.New("chat: shutting down")
)

// Options tune a Service. Zero values get the defaults shown.
type Options struct {
	MaxTurns    int           // turns running at once (32)
	QueueSize   int           // interactive turns waiting for a slot (64; negative: none)
	TurnTimeout time.Duration // deadline of a turn (30 s)
	EvalTimeout time.Duration // deadline of a background evaluation (20 s)
	Traces      int           // recent traces kept (200)
	Evaluate    bool          // evaluate answers in the background
	Logger      *slog.Logger

	// Store persists turns into conversations (Directus); without one only
	// interactive turns run.
	Store           Store
	FlushEvery      time.Duration // least time between partial answer writes (250 ms)
	HistoryTurns    int           // earlier messages given as context (10)
	ReconcileGrace  time.Duration // a user message unanswered this long is taken up (30 s)
	ReconcileWindow time.Duration // how far back the reconciler looks (24 h)
	AbandonAfter    time.Duration // a reply not updated this long is restarted (TurnTimeout + 30 s; at least LeaseTTL)
	// LeaseTTL is how long a reply's lease lasts unrenewed (lease.go;
	// renewed every LeaseTTL/3): LeaseTTL (30 s), but never more than
	// AbandonAfter, so that a reply found abandoned has no live lease
	// unless its holder is still renewing it.
	LeaseTTL time.Duration
	Instance string // names this process in message metadata (hostname-pid)
	// Memory, when set, learns from every finished turn (after its
	// evaluation, when there is one): its reflection rounds and how the
	// lessons it recalled served it.
	Memory  Learner
	Metrics *metrics.Metrics
	Now     func() time.Time
}

// Service runs turns.
type Service struct {
	agent  *agent.Agent
	confs  func(id string) (agent.Conference, bool)
	opts   Options
	limit  *Limiter
	traces *Traces
	log    *slog.Logger
	m      *metrics.Metrics

	seen     *seenSet
	convs    *convQueues
	inflight inflight
	instance string

	bg       sync.WaitGroup // background evaluations and detached turns
	bgCtx    context.Context
	bgCancel context.CancelFunc
	mu       sync.Mutex
	closing  bool
}

// New returns a service running turns with a, for the conferences confs knows.
func New(a *agent.Agent, confs func(string) (agent.Conference, bool), opts Options) *Service {
	opts = withDefaults(opts)
	s := &Service{agent: a, confs: confs, opts: opts, traces: NewTraces(opts.Traces), log: opts.Logger, m: opts.Metrics,
		seen: newSeenSet(10000), convs: newConvQueues(), instance: opts.Instance}
	s.limit = NewLimiter(opts.MaxTurns, opts.QueueSize, func(n int) { s.m.QueueDepth.Set(float64(n)) })
	s.bgCtx, s.bgCancel = context.WithCancel(context.Background())
	return s
}

func withDefaults(o Options) Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxTurns, 32)
	if o.QueueSize == 0 {
		o.QueueSize = 64
	}
	def(&o.Traces, 200)
	def(&o.HistoryTurns, 10)
	if o.TurnTimeout <= 0 {
		o.TurnTimeout = 30 * time.Second
	}
	durations := map[*time.Duration]time.Duration{&o.ReconcileGrace: 30 * time.Second, &o.ReconcileWindow: 24 * time.Hour,
		&o.AbandonAfter: o.TurnTimeout + 30*time.Second}
	for p, d := range durations {
		if *p <= 0 {
			*p = d
		}
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = LeaseTTL
	}
	o.LeaseTTL = min(o.LeaseTTL, o.AbandonAfter)
	if o.EvalTimeout <= 0 {
		o.EvalTimeout = 20 * time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Metrics == nil {
		o.Metrics = metrics.New()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// Traces returns the recent turns.
func (s *Service) Traces() *Traces { return s.traces }

// Question is an interactive question. With a ConversationID and a store,
// the question and its answer are stored in that conversation, and the turn
// finishes and persists even if the caller leaves.
type Question struct {
	Message        string
	ConferenceID   string
	ConversationID string
	History        []agent.Turn
	TraceID        string
	// Now, when set, is the moment the question counts as asked at ("what's
	// next?"); the service's clock otherwise.
	Now time.Time
	// Reflection, when set, turns reflection on or off for this turn.
	Reflection *bool
}

// Ask runs one interactive turn, sending its events to obs. It refuses at
// once, with ErrOverloaded, when every slot is busy and the queue is full.
// The turn ends with ctx (a client that leaves stops it) or its deadline.
func (s *Service) Ask(ctx context.Context, q Question, obs agent.Observer) (*agent.State, error) {
	req, err := s.request(q)
	if err != nil {
		return nil, err
	}
	if s.shuttingDown() {
		return nil, ErrShuttingDown
	}
	release, err := s.limit.Acquire(ctx)
	if err != nil {
		s.m.Rejected.WithLabelValues(reason(err)).Inc()
		return nil, err
	}
	if q.ConversationID != "" && s.opts.Store != nil {
		return s.askPersisted(ctx, q, obs, release)
	}
	defer release()
	return s.run(ctx, req, obs, nil)
}

// request checks a question and builds the agent's request.
func (s *Service) request(q Question) (agent.Request, error) {
	if err := agent.ValidateMessage(q.Message); err != nil { // "invalid request: …": say it once
		return agent.Request{}, fmt.Errorf("%w: %s", ErrInvalid, strings.TrimPrefix(err.Error(), agent.ErrInvalidRequest.Error()+": "))
	}
	conf, ok := s.confs(q.ConferenceID)
	if !ok {
		return agent.Request{}, fmt.Errorf("%w %q", ErrUnknownConf, q.ConferenceID)
	}
	if q.TraceID == "" {
		q.TraceID = NewTraceID()
	}
	return agent.Request{TraceID: q.TraceID, Message: q.Message, Conference: conf, History: q.History, Now: q.Now, Reflection: q.Reflection}, nil
}

// run runs a turn holding a slot: deadline, metrics, trace, background
// evaluation.
func (s *Service) run(ctx context.Context, req agent.Request, obs agent.Observer, scored func(*agent.State)) (*agent.State, error) {
	ctx, cancel := context.WithTimeout(ctx, s.opts.TurnTimeout)
	defer cancel()
	s.m.ActiveTurns.Inc()
	defer s.m.ActiveTurns.Dec()
	start := s.opts.Now()
	log := s.log.With("trace_id", req.TraceID)
	st, err := s.agent.Run(ctx, req, func(e agent.Event) {
		s.m.Observe(e)
		if obs != nil {
			obs(e)
		}
	})
	outcome := Outcome(st, err)
	s.m.Turn(outcome, st)
	if st != nil && st.Evaluation != nil {
		s.m.Quality(st)
	}
	took := s.opts.Now().Sub(start)
	log.Info("turn finished", "outcome", outcome, "ms", took.Milliseconds(), "conference", req.Conference.ID)
	if st != nil {
		s.traces.Add(Trace{TraceID: req.TraceID, Outcome: outcome, StartedAt: start, DurationMS: float64(took.Microseconds()) / 1000, State: st})
	}
	switch {
	case err == nil && s.opts.Evaluate && st.Evaluation == nil:
		s.evaluateLater(st, outcome, start, took, scored)
	case err == nil:
		s.learnLater(st)
	}
	return st, err
}

// Learner keeps what turns teach: reflection memory.
type Learner interface {
	Remember(ctx context.Context, lessons []memory.Lesson) error
	Used(ctx context.Context, ids []string, helped bool) error
}

// learnLater stores what a turn taught, in the background: memory writes
// may reach Directus and must not hold up the answer.
func (s *Service) learnLater(st *agent.State) {
	if s.opts.Memory == nil || !s.begin() {
		return
	}
	go func() {
		defer s.bg.Done()
		s.learn(st)
	}()
}

// learn stores a finished turn's lessons and credits those it recalled.
func (s *Service) learn(st *agent.State) {
	if s.opts.Memory == nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.bgCtx, 30*time.Second)
	defer cancel()
	if err := s.opts.Memory.Used(ctx, st.RecalledIDs(), st.Helped()); err != nil {
		s.log.Warn("memory: crediting recalled lessons failed", "trace_id", st.TraceID, "err", err)
	}
	if err := s.opts.Memory.Remember(ctx, s.agent.Lessons(ctx, st)); err != nil {
		s.log.Warn("memory: storing lessons failed", "trace_id", st.TraceID, "err", err)
	}
}

// evaluateLater scores the answer after it was delivered, on a context
// detached from the request; Shutdown waits for it. It works on its own copy
// of the state: the caller still reads the original to deliver the answer.
// scored, when set, gets the scored copy.
func (s *Service) evaluateLater(orig *agent.State, outcome string, start time.Time, took time.Duration, scored func(*agent.State)) {
	cp := *orig
	cp.ModelCalls = slices.Clone(orig.ModelCalls)
	st := &cp
	if !s.begin() {
		return // shutting down: the answer stands unscored
	}
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(s.bgCtx, s.opts.EvalTimeout)
		defer cancel()
		n := len(st.ModelCalls)
		if _, err := s.agent.Evaluate(ctx, st); err != nil {
			s.log.Warn("evaluation failed", "trace_id", st.TraceID, "err", err)
		} else {
			s.m.Quality(st)
			if scored != nil {
				scored(st)
			}
		}
		s.learn(st)
		s.m.Calls(st.ModelCalls[n:])
		s.traces.Update(Trace{TraceID: st.TraceID, Outcome: outcome, StartedAt: start, DurationMS: float64(took.Microseconds()) / 1000, State: st})
	}()
}

// Outcome names how a turn ended, for metrics, traces and the stream.
func Outcome(st *agent.State, err error) string {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case err != nil || st == nil:
		return "failed"
	case st.ResponseSource == agent.FromMechanical:
		return "apology"
	case st.ResponseSource == agent.FromFallbackModel:
		return "fallback_answer"
	}
	return "answered"
}

func reason(err error) string {
	if errors.Is(err, ErrOverloaded) {
		return "overloaded"
	}
	return "canceled"
}

// begin counts a piece of background work that Shutdown waits for; false
// once shutting down. Checked and counted under one lock, so nothing is
// added after Shutdown started waiting.
func (s *Service) begin() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.bg.Add(1)
	return true
}

func (s *Service) shuttingDown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closing
}

// Shutdown refuses new turns and waits for background work (evaluations,
// detached turns) until ctx ends, then cancels what is left and waits for it
// to stop.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	done := make(chan struct{})
	go func() { s.bg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		s.bgCancel()
		<-done
		return fmt.Errorf("chat: shutdown: %w", ctx.Err())
	}
}

// NewTraceID returns a random 16-hex-digit trace id.
func NewTraceID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
