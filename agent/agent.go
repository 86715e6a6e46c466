// Package agent runs one conversational turn of the conference assistant:
//
//	plan_queries → execute_queries → check_results
//	  → (reflect_and_replan | relax_and_retry) → execute_queries → check_results …
//	  → generate_response
//
// The loop is plain Go: a typed State, one method per step and one bounded
// loop of retry rounds (MaxRetries). Reflection asks the Model why a search
// came back empty or weak and what to try instead (relax, rewrite or pivot);
// its decision is validated in order before it is used, and anything invalid
// falls back to the mechanical relax-and-retry ladder. Observers receive typed
// events as the turn runs.
//
// An Agent is safe for concurrent use; each Run has its own State.
package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/when"
)

// Limits of a turn.
const (
	MaxMessageChars   = 4000 // longest question accepted
	MaxQueries        = 5    // queries in one plan
	MaxPlanLimit      = 25   // results one planned query may ask for
	AnswerLimit       = 10   // results per table the answer may cite
	DefaultMaxRetries = 2    // reflection rounds unless Options say otherwise
	maxParallel       = 5    // queries running at once
)

// Searcher runs text queries against one conference.
type Searcher interface {
	Search(ctx context.Context, conference string, q search.Query) ([]search.Result, error)
	Calibration() search.Calibration
	Lexicon(conference string) *search.Lexicon
	Calendar(conference string) when.Calendar
	Items(conference string, refs []search.Ref) []search.Result
	// Catalogue is every item of a table of the conference, by title.
	Catalogue(conference string, tb search.Table) []search.Result
	// Meaning embeds a text for comparing it with others of the conference
	// (reflection memory's recall by meaning).
	Meaning(ctx context.Context, conference, text string) (search.Meaning, error)
}

// Options tune an Agent. The zero value reflects, allows DefaultMaxRetries
// rounds and DefaultBudget model calls, evaluates nothing and logs nowhere.
type Options struct {
	// Mechanical turns reflection off: weak tables go through the
	// relax-and-retry ladder instead (REFLECTION_ENABLED=false).
	Mechanical bool
	// MaxRetries bounds the retry rounds after the first search; zero means
	// DefaultMaxRetries and a negative value means none.
	MaxRetries int
	// Fallback answers a step when the model fails, replies invalidly twice,
	// is out of budget or out of time. Its calls are not counted.
	Fallback Model
	// Budget bounds the calls to the model per turn (DefaultBudget when zero).
	Budget int
	// Reserve is the part of a turn's deadline kept for the fallback when a
	// model call hangs: a call gives up Reserve before the turn's deadline.
	// Zero means a quarter of the turn's time, at most one second.
	Reserve time.Duration
	// Acknowledge asks for a short acknowledgment in parallel with planning.
	Acknowledge bool
	// EvaluateFeedback evaluates the answer before it is final and writes it
	// once more, with the evaluator's hint, when its quality score is below
	// RegenerationThreshold (EVALUATE_FEEDBACK_ENABLED).
	EvaluateFeedback bool
	// RegenerationThreshold is DefaultRegenerationThreshold when zero.
	RegenerationThreshold float64
	// Off turns techniques off to measure what each adds; with "filters"
	// off a question's time, place and format words stay in its topic.
	Off search.Ablation
	// Memory, when set, recalls what recovered similar failures before:
	// planning adds its searches, reflection weighs it (MEMORY_ENABLED).
	Memory Memory
	// Translator, when set, reads a question in another language in
	// English before it is searched (TRANSLATE).
	Translator Translator
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Logger receives operator logs; nothing is logged when nil.
	Logger *slog.Logger
}

// Agent runs turns. Create one with New.
type Agent struct {
	model  Model
	search Searcher
	opts   Options
	log    *slog.Logger
}

// New returns an agent asking model and searching with s.
func New(model Model, s Searcher, opts Options) *Agent {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	switch {
	case opts.MaxRetries == 0:
		opts.MaxRetries = DefaultMaxRetries
	case opts.MaxRetries < 0:
		opts.MaxRetries = 0
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	if opts.RegenerationThreshold == 0 {
		opts.RegenerationThreshold = DefaultRegenerationThreshold
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Agent{model: model, search: s, opts: opts, log: log}
}

// Request is one question to answer.
type Request struct {
	TraceID    string
	Message    string
	Conference Conference
	History    []Turn
	// Now is the moment the question is asked, against which "tomorrow" or
	// "what's next" are read; the agent's clock when zero.
	Now time.Time
	// Reflection, when set, turns reflection on or off for this turn
	// whatever Options.Mechanical says (an operator's A/B test).
	Reflection *bool
}

// Errors a turn can end with. Callers branch on them with errors.Is.
var (
	ErrInvalidRequest    = errors.New("invalid request")
	ErrUnknownConference = errors.New("unknown conference")
	// ErrSearchUnavailable ends a turn whose every search failed, retries
	// included, with nothing found before: there is nothing to answer from.
	ErrSearchUnavailable = errors.New("search unavailable")
)

// ParseClock reads the moment a question counts as asked at, as a caller
// gives it (RFC 3339 with an offset); "" is the zero time: the agent's
// clock.
func ParseClock(v string) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%q: want an RFC 3339 time with offset, such as 2026-06-10T09:30:00+02:00", v)
	}
	return t, nil
}

// Validate reports what is wrong with a request, wrapping ErrInvalidRequest.
func (r Request) Validate() error {
	if err := ValidateMessage(r.Message); err != nil {
		return err
	}
	if r.Conference.ID == "" {
		return fmt.Errorf("%w: no conference given", ErrInvalidRequest)
	}
	return nil
}

// ValidateMessage checks a question: not empty, at most MaxMessageChars
// characters. The error wraps ErrInvalidRequest.
func ValidateMessage(msg string) error {
	msg = strings.TrimSpace(msg)
	switch n := utf8.RuneCountInString(msg); {
	case n == 0:
		return fmt.Errorf("%w: the question is empty", ErrInvalidRequest)
	case n > MaxMessageChars:
		return fmt.Errorf("%w: the question has %d characters, at most %d are accepted", ErrInvalidRequest, n, MaxMessageChars)
	}
	return nil
}

// Run answers one question. It returns the turn's whole state, which is its
// trace; the error is non-nil only for an invalid request, an unknown
// conference or a context that ended the turn.
func (a *Agent) Run(ctx context.Context, req Request, obs Observer) (*State, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	if a.search.Lexicon(req.Conference.ID) == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownConference, req.Conference.ID)
	}
	if obs == nil {
		obs = func(Event) {}
	}
	t := a.newTurn(ctx, req, obs)
	if err := t.run(ctx); err != nil {
		return t.st, err
	}
	return t.st, nil
}

func (a *Agent) newTurn(ctx context.Context, req Request, obs Observer) *turn {
	if req.Now.IsZero() {
		req.Now = a.opts.Now()
	}
	reflection := !a.opts.Mechanical
	if req.Reflection != nil {
		reflection = *req.Reflection
	}
	t := &turn{agent: a, st: newState(req, reflection), obs: obs}
	t.c = &caller{t: t}
	if d, ok := ctx.Deadline(); ok {
		t.deadline = d
		t.reserve = a.opts.Reserve
		if t.reserve <= 0 {
			t.reserve = min(time.Second, time.Until(d)/4)
		}
	}
	return t
}

func newState(req Request, reflection bool) *State {
	return &State{
		TraceID:      req.TraceID,
		Message:      strings.TrimSpace(req.Message),
		Conference:   req.Conference,
		History:      req.History,
		AskedAt:      req.Now,
		Reflection:   reflection,
		QueryResults: map[search.Table][]search.Result{},
	}
}

// turn is one Run in progress.
type turn struct {
	agent    *Agent
	st       *State
	obs      Observer
	c        *caller
	deadline time.Time     // the turn's deadline, if it has one
	reserve  time.Duration // kept for the fallback at the end of the turn
	ack      *pendingAck
	// failedRound marks the tables whose every query of the last round
	// failed to run.
	failedRound map[search.Table]bool
	// named are the entities the question names where it asks (mentions),
	// once read; nil before.
	named []search.Mention

	// mu orders events, which come from the turn's goroutine and the
	// acknowledgment's, and guards what the acknowledgment writes:
	// ackClosed, Acknowledgment and ThinkingUpdates.
	mu        sync.Mutex
	ackClosed bool // a thinking note or the answer went out: too late to acknowledge
}

func (t *turn) run(ctx context.Context) error {
	t.readQuestion(ctx)
	if kind := lexical.SmallTalk(t.asked()); kind != "" {
		t.st.Intent = "small talk: " + kind
		return t.answerPlainly(ctx, t.say(smallTalkReply(kind, t.st.Conference.Name)+"\n"))
	}
	question := lexical.Respelled(t.asked())
	if t.aboutConference(question) {
		return t.answerPlainly(ctx, t.say(t.st.About+"\n"))
	}
	if kind := t.listing(question); kind != "" {
		return t.answerPlainly(ctx, t.tellList(kind))
	}
	switch {
	case t.vague():
		return t.answerPlainly(ctx, t.say(lookingFor(t.agent.search.Catalogue(t.st.Conference.ID, search.Sessions))))
	case t.st.Outside != "": // a day outside the conference: nothing to search, say so
		return t.answerTurn(ctx)
	case t.details():
		return t.answerTurn(ctx)
	}
	if t.agent.opts.Acknowledge {
		t.startAck(ctx)
		defer t.endAck()
	}
	if err := t.step(ctx, StepPlan, t.plan); err != nil {
		return err
	}
	for {
		if err := t.step(ctx, StepExecute, t.execute); err != nil {
			return err
		}
		if err := t.step(ctx, StepCheck, t.check); err != nil {
			return err
		}
		if err := t.searchFailed(); err != nil {
			return err
		}
		if !t.st.NeedsRetry {
			break
		}
		next, retry := t.reflect, StepReflect
		if !t.st.Reflection {
			next, retry = t.relax, StepRelax
		}
		if err := t.step(ctx, retry, next); err != nil {
			return err
		}
		if len(t.st.PlannedQueries) == 0 {
			break // nothing new left to try
		}
	}
	return t.answerTurn(ctx)
}

// answerPlainly answers with write, which neither searches nor calls a
// model.
func (t *turn) answerPlainly(ctx context.Context, write func(context.Context) error) error {
	if err := t.step(ctx, StepRespond, write); err != nil {
		return err
	}
	t.emit(Answer{Text: t.st.ResponseText})
	return nil
}

// answerTurn writes the answer, evaluates it when feedback is on, and
// tells observers.
func (t *turn) answerTurn(ctx context.Context) error {
	t.endAck()
	if err := t.step(ctx, StepRespond, t.respond); err != nil {
		return err
	}
	if t.agent.opts.EvaluateFeedback {
		if err := t.step(ctx, StepEval, t.feedback); err != nil {
			return err
		}
	}
	t.emit(Answer{Text: t.st.ResponseText, Citations: t.st.Citations})
	return nil
}

// step runs one step between its start and end events and records its
// duration. A step only fails when the context ends.
func (t *turn) step(ctx context.Context, s Step, fn func(context.Context) error) error {
	round := t.st.RetryCount
	t.emit(StepStarted{Step: s, Round: round})
	calls := len(t.st.ModelCalls)
	start := t.agent.opts.Now()
	err := ctx.Err()
	if err == nil {
		err = fn(ctx)
	}
	d := t.agent.opts.Now().Sub(start)
	t.st.StepDurationsMS = append(t.st.StepDurationsMS, StepTime{Step: s, MS: float64(d.Microseconds()) / 1000})
	t.emit(StepFinished{Step: s, Round: round, Duration: d, Calls: slices.Clone(t.st.ModelCalls[calls:]), Err: err})
	if err != nil {
		return fmt.Errorf("agent: %s: %w", s, err)
	}
	return nil
}

func (t *turn) progress(s Step, msg string) { t.emit(Progress{Step: s, Message: msg}) }

// emit tells the observer about e, one event at a time whichever goroutine
// sends it.
func (t *turn) emit(e Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.emitLocked(e)
}

// emitLocked is emit with t.mu held. A thinking note or answer text closes
// the acknowledgment's window.
func (t *turn) emitLocked(e Event) {
	switch e.(type) {
	case Thinking, Chunk, Reset, Answer:
		t.ackClosed = true
	}
	t.obs(e)
}

func (t *turn) calibration() search.Calibration { return t.agent.search.Calibration() }

func (t *turn) lexicon() *search.Lexicon { return t.agent.search.Lexicon(t.st.Conference.ID) }
