package eval

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// Mode names how a case is run.
type Mode string

// The two ways to recover from a weak first search.
const (
	Reflection Mode = "reflection"
	Mechanical Mode = "mechanical"
)

// Runner runs cases through one agent per mode.
type Runner struct {
	Agents map[Mode]*agent.Agent
	// Conference describes a conference by id.
	Conference func(id string) (agent.Conference, bool)
	// Calendar gives a conference's days and time zone, for the clock of
	// cases that have none; without it such cases run at the real time.
	Calendar func(id string) when.Calendar
	// Timeout bounds each turn; 30 s when zero.
	Timeout time.Duration
	// Progress, when set, is called after each case.
	Progress func(done, total int)
	// NoHistory runs every case as if it started the conversation, to
	// measure what reading the history adds.
	NoHistory bool
	// Bank, when set, learns from every turn: its reflection rounds are
	// remembered, the lessons it recalled are credited.
	Bank *memory.Bank
}

// CaseResult is one case run in one mode (contract §4, plus the extra keys
// recall_at_10, reciprocal_rank, false_citations, kind, answerable).
type CaseResult struct {
	ID             string           `json:"id"`
	Mode           Mode             `json:"mode"`
	Kind           string           `json:"kind"`
	Answerable     bool             `json:"answerable"`
	FirstPassHit   bool             `json:"first_pass_hit"`
	FinalHit       bool             `json:"final_hit"`
	Attempts       int              `json:"attempts"`
	Strategies     []agent.Strategy `json:"strategies"`
	Cited          []string         `json:"cited"`
	FalseCitations int              `json:"false_citations"`
	Recall         float64          `json:"recall_at_10"`
	RR             float64          `json:"reciprocal_rank"`
	ModelCalls     int              `json:"model_calls"`
	Recalled       int              `json:"recalled,omitempty"`
	MS             float64          `json:"ms"`
	Error          string           `json:"error,omitempty"`
}

// Report is the whole evaluation.
type Report struct {
	Summary map[Mode]Summary `json:"summary"`
	// Paired compares the modes case by case, when both ran.
	Paired *Paired      `json:"paired,omitempty"`
	Cases  []CaseResult `json:"cases"`
}

// Run evaluates every case in every mode of the runner, modes in a fixed
// order (reflection first). A turn that fails is recorded, not fatal.
func (r *Runner) Run(ctx context.Context, cases []Case) (*Report, error) {
	modes := r.modes()
	rep := &Report{Summary: map[Mode]Summary{}}
	total, done := len(cases)*len(modes), 0
	for _, m := range modes {
		var results []CaseResult
		for _, c := range cases {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			res := r.runCase(ctx, m, c)
			results = append(results, res)
			done++
			if r.Progress != nil {
				r.Progress(done, total)
			}
		}
		rep.Summary[m] = summarise(results)
		rep.Cases = append(rep.Cases, results...)
	}
	rep.Paired = pair(rep.Cases)
	return rep, nil
}

func (r *Runner) modes() []Mode {
	var out []Mode
	for _, m := range []Mode{Reflection, Mechanical} {
		if r.Agents[m] != nil {
			out = append(out, m)
		}
	}
	return out
}

func (r *Runner) runCase(ctx context.Context, m Mode, c Case) CaseResult {
	res := CaseResult{ID: c.ID, Mode: m, Kind: c.KindOf(), Answerable: c.Answerable(), Strategies: []agent.Strategy{}, Cited: []string{}}
	conf, ok := r.Conference(c.ConferenceID)
	if !ok {
		res.Error = fmt.Sprintf("unknown conference %q", c.ConferenceID)
		return res
	}
	timeout := r.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	req := agent.Request{TraceID: c.ID, Message: c.Message, Conference: conf, Now: r.clock(c), History: c.history()}
	if r.NoHistory {
		req.History = nil
	}
	st, err := r.Agents[m].Run(tctx, req, nil)
	res.MS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		res.Error = err.Error()
		return res
	}
	score(&res, c, st)
	res.Recalled = len(st.Recalled)
	r.learn(ctx, r.Agents[m], st)
	return res
}

// clock is when a case is asked: its own Now, else 08:00 on the first day
// of its conference, in the conference's time zone, so that "tomorrow"
// means the same on every run whatever today's date.
func (r *Runner) clock(c Case) time.Time {
	if t := c.Clock(); !t.IsZero() || r.Calendar == nil {
		return t
	}
	cal := r.Calendar(c.ConferenceID)
	if len(cal.Days) == 0 {
		return time.Time{}
	}
	d := cal.Days[0]
	return time.Date(d.Year(), d.Month(), d.Day(), 8, 0, 0, 0, cmp.Or(cal.Location, time.UTC))
}

// score fills the measures of one finished turn.
func score(res *CaseResult, c Case, st *agent.State) {
	rel := c.relevant()
	res.FirstPassHit = hits(rel, retrieved(st.FirstPassResults))
	final := retrieved(st.QueryResults)
	res.FinalHit = hits(rel, final)
	res.Attempts, res.ModelCalls = st.Attempts, len(st.ModelCalls)
	res.Strategies = append(res.Strategies, st.Strategies()...)
	for _, cit := range st.Citations {
		res.Cited = append(res.Cited, cit.Key())
		if !rel[cit.Key()] {
			res.FalseCitations++
		}
	}
	if len(rel) > 0 {
		found := 0
		for _, k := range final {
			if rel[k] {
				found++
			}
		}
		res.Recall = float64(found) / float64(len(rel))
		for i, k := range final {
			if rel[k] {
				res.RR = 1 / float64(i+1)
				break
			}
		}
	}
}

// retrieved lists the items a turn retrieved for its answer, the top
// AnswerLimit of each table, as one ranking by score.
func retrieved(results map[search.Table][]search.Result) []string {
	var all []search.Result
	for _, rs := range agent.AnswerResults(results) {
		all = append(all, rs...)
	}
	slices.SortStableFunc(all, func(a, b search.Result) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	out := make([]string, len(all))
	for i, r := range all {
		out[i] = r.Key()
	}
	return out
}

func hits(rel map[string]bool, keys []string) bool {
	return slices.ContainsFunc(keys, func(k string) bool { return rel[k] })
}

func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	sort.Float64s(s)
	i := int(p*float64(len(s)-1) + 0.5)
	return s[i]
}
