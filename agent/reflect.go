package agent

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// reflect asks the model why the round's weak or empty tables failed and
// what to try next. An invalid decision, a failed model or a decision with
// nothing new to try falls back to the mechanical ladder; the reflection
// history records which path was taken and why.
func (t *turn) reflect(ctx context.Context) error {
	in := t.reflectInput(ctx)
	var dec *Decision
	src, err := t.c.ask(ctx, Call{Step: StepReflect, Reflect: in}, func(comp Completion) error {
		d, ignored, err := parseDecision(comp.Text)
		dec = d
		t.ignore(StepReflect, ignored)
		return err
	})
	if ctxErr := ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	var queries, skipped []search.Query
	if err == nil {
		queries, skipped = t.fresh(t.applyStrategy(dec))
		if len(queries) == 0 {
			err = errors.New("every query of the decision was already tried")
		}
	}
	rec := Reflection{Round: t.st.RetryCount + 1, Source: src}
	t.describeFailure(&rec)
	if err == nil {
		rec.Recalled = t.recalledBy(dec, in)
	}
	if err != nil {
		rec.Rejected, rec.Source = err.Error(), FromMechanical
		dec = t.ladderDecision()
		var more []search.Query
		queries, more = t.fresh(dec.NewQueries)
		skipped = append(skipped, more...)
	}
	rec.Strategy, rec.Reasoning, rec.Queries, rec.Skipped = dec.Strategy, dec.Reasoning, queries, skipped
	t.commitRound(rec, dec.UserMessage)
	return nil
}

// relax is the mechanical relax-and-retry step used when reflection is off.
func (t *turn) relax(context.Context) error {
	dec := t.ladderDecision()
	queries, skipped := t.fresh(dec.NewQueries)
	rec := Reflection{
		Round: t.st.RetryCount + 1, Source: FromMechanical, Strategy: dec.Strategy,
		Reasoning: dec.Reasoning, Queries: queries, Skipped: skipped,
	}
	t.describeFailure(&rec)
	t.commitRound(rec, dec.UserMessage)
	return nil
}

// recalledBy keeps the lessons a decision says it followed that the
// reflector was shown, and records them as acted on.
func (t *turn) recalledBy(d *Decision, in *ReflectInput) []string {
	var out []string
	for _, id := range d.Recalled {
		i := slices.IndexFunc(in.Memory, func(r memory.Recalled) bool { return r.ID == id })
		if i >= 0 && !slices.Contains(out, id) {
			out = append(out, id)
			t.st.Recalled = append(t.st.Recalled, RecalledUse{Step: StepReflect, ID: id, Similarity: in.Memory[i].Similarity})
		}
	}
	return out
}

// commitRound makes a decision the plan of the next round and tells the
// attendee what is happening. With nothing new to try the loop ends and no
// note is shown.
func (t *turn) commitRound(rec Reflection, note string) {
	t.st.RetryCount++
	t.st.PlannedQueries = rec.Queries
	t.st.ReflectionReasoning, t.st.ReflectionStrategy = rec.Reasoning, rec.Strategy
	t.st.Reflections = append(t.st.Reflections, rec)
	if len(rec.Queries) == 0 {
		return
	}
	msg, _ := plainNote(note, rec.Strategy)
	t.note(ThinkingRecord{Message: msg, Strategy: rec.Strategy, RetryCount: t.st.RetryCount, Source: rec.Source})
}

// stillLooking replaces a note that would repeat the one before it.
const stillLooking = "Still nothing close, so I'm looking a little further."

// note stamps a thinking record, appends it and tells observers.
func (t *turn) note(r ThinkingRecord) {
	r.TS = float64(t.agent.opts.Now().UnixMicro()) / 1e6
	t.mu.Lock() // the acknowledgment's goroutine appends too
	defer t.mu.Unlock()
	if n := len(t.st.ThinkingUpdates); n > 0 && t.st.ThinkingUpdates[n-1].Message == r.Message {
		r.Message = stillLooking // the same words twice read as a stuck assistant
	}
	t.st.ThinkingUpdates = append(t.st.ThinkingUpdates, r)
	t.emitLocked(Thinking{Record: r, All: slices.Clone(t.st.ThinkingUpdates)})
}

// applyStrategy resolves a validated decision's queries; a query without a
// filter of its own gets the question's (a decision widens a filter by
// giving a looser one, never by leaving it out). For relax, a query
// without its own threshold goes one step down the embedder's levels from
// the lowest threshold already tried with that wording, and its limit
// doubles.
func (t *turn) applyStrategy(d *Decision) []search.Query {
	var out []search.Query
	for _, q := range t.withFilter(cloneQueries(d.NewQueries)) {
		explicit := q.Threshold != nil
		prev, tried := t.lowestTried(q)
		n, err := t.normalise(q)
		if err != nil {
			continue // validated already; defensive
		}
		if d.Strategy == Relax && !explicit && tried {
			th := t.nextLevel(*prev.Threshold)
			n.Threshold = &th
			n.Limit = min(max(n.Limit, 2*prev.Limit), MaxPlanLimit)
		}
		out = append(out, n)
	}
	return out
}

// lowestTried finds the tried query with the same table, mode and wording
// and the lowest threshold.
func (t *turn) lowestTried(q search.Query) (search.Query, bool) {
	mode := q.Mode
	if mode == "" {
		mode = search.Faceted
	}
	text := keyOf(q).text
	var best search.Query
	found := false
	for _, p := range t.st.Tried {
		k := keyOf(p)
		if p.Table == q.Table && p.Mode == mode && k.text == text && (!found || *p.Threshold < *best.Threshold) {
			best, found = p, true
		}
	}
	return best, found
}

// nextLevel is the next threshold below th: Relaxed, then Loosest.
func (t *turn) nextLevel(th float32) float32 {
	cal := t.calibration()
	if th > cal.Relaxed+0.005 {
		return cal.Relaxed
	}
	return cal.Loosest
}

// ladderDecision is the mechanical relax-and-retry ladder as a decision:
// round one lowers the threshold and doubles the limit of the failing
// tables' queries; later rounds switch them to master mode at the loosest
// threshold.
func (t *turn) ladderDecision() *Decision {
	failing := slices.Concat(t.st.ZeroResultTables, t.st.WeakTables)
	first := t.st.RetryCount == 0
	qs := Ladder(t.st.PlannedQueries, failing, t.st.RetryCount, t.calibration())
	step := "lowered threshold, doubled limit"
	if !first {
		step = "master mode at the loosest threshold"
	}
	return &Decision{
		Reasoning:   fmt.Sprintf("mechanical relaxation (%s) for %s", step, terms.Series(tableNames(failing), "and")),
		Strategy:    Relax,
		UserMessage: defaultNote(Relax),
		NewQueries:  qs,
	}
}

// Ladder is one rung of mechanical relaxation for the queries of the
// failing tables: round zero lowers the threshold and doubles the limit,
// later rounds search master mode at the loosest level. The agent uses it
// when reflection is off or fails; a reflector may keep it beside its own
// queries so that reflecting never searches less than relaxing would.
func Ladder(from []search.Query, failing []search.Table, round int, cal search.Calibration) []search.Query {
	var qs []search.Query
	for _, q := range from {
		if !slices.Contains(failing, q.Table) {
			continue
		}
		r := q
		th := cal.Relaxed
		if round == 0 {
			r.Limit = min(2*max(q.Limit, search.DefaultLimit), MaxPlanLimit)
		} else {
			r.Mode, th, r.Limit = search.Master, cal.Loosest, 20
		}
		r.Threshold = &th
		qs = append(qs, r)
	}
	return qs
}

// fresh drops queries already tried in this turn, or repeated in qs.
func (t *turn) fresh(qs []search.Query) (keep, skipped []search.Query) {
	seen := map[queryKey]bool{}
	for _, q := range t.st.Tried {
		seen[keyOf(q)] = true
	}
	for _, q := range qs {
		k := keyOf(q)
		if seen[k] {
			skipped = append(skipped, q)
			continue
		}
		seen[k] = true
		keep = append(keep, q)
	}
	return keep, skipped
}

func tableNames(ts []search.Table) []string {
	out := make([]string, len(ts))
	for i, tb := range ts {
		out[i] = string(tb)
	}
	return out
}

// reflectInput gathers the evidence a reflector decides from: what each table
// returned, what was already tried, how well the conference knows the
// question's words, and what the failing queries find in the tables and modes
// the plan did not use.
func (t *turn) reflectInput(ctx context.Context) *ReflectInput {
	st := t.st
	in := &ReflectInput{
		Message: st.Message, Reading: st.Reading, Conference: st.Conference, History: st.History,
		RetryCount: st.RetryCount, MaxRetries: t.agent.opts.MaxRetries,
		Plan: cloneQueries(st.PlannedQueries), FirstPlan: cloneQueries(st.OriginalPlannedQueries),
		ZeroTables: st.ZeroResultTables, WeakTables: st.WeakTables,
		Tried: cloneQueries(st.Tried), Calibration: t.calibration(), Lexicon: t.lexicon(),
		Calendar: t.agent.search.Calendar(st.Conference.ID),
	}
	for _, tb := range plannedTables(st.PlannedQueries) {
		in.Tables = append(in.Tables, t.summary(tb))
	}
	texts := []string{t.asked()}
	for _, q := range st.PlannedQueries {
		texts = append(texts, q.Text)
	}
	in.Terms = t.lexicon().Coverage(strings.Join(texts, " "))
	in.Probes = t.probes(ctx)
	in.Memory = t.recallFailure(ctx)
	return in
}

func (t *turn) summary(tb search.Table) TableSummary {
	rs := t.st.QueryResults[tb]
	s := TableSummary{Table: tb, Count: len(rs), Outcome: classify(tb, rs, t.calibration()).Outcome}
	if len(rs) > 0 {
		s.TopScore = rs[0].Score
	}
	s.TopTitles, s.Support = titles(rs, 3), support(rs)
	return s
}

// support is the largest word share of results.
func support(rs []search.Result) float64 {
	best := 0.0
	for _, r := range rs {
		best = max(best, r.Coverage)
	}
	return best
}

func titles(rs []search.Result, n int) []string {
	var out []string
	for i := 0; i < len(rs) && i < n; i++ {
		out = append(out, rs[i].Title)
	}
	return out
}

// probes runs each failing query's text against the other tables and the
// other mode, at no threshold, to show where the need might be answered.
func (t *turn) probes(ctx context.Context) []Probe {
	failing := slices.Concat(t.st.ZeroResultTables, t.st.WeakTables)
	var want []Probe
	seen := map[string]bool{}
	for _, q := range t.st.PlannedQueries {
		if !slices.Contains(failing, q.Table) || seen[q.Text] || len(seen) == 3 {
			continue
		}
		seen[q.Text] = true
		for _, tb := range search.Tables {
			if tb != q.Table {
				want = append(want, Probe{Text: q.Text, Table: tb, Mode: search.Faceted, Filter: q.Filter})
			}
		}
		want = append(want, Probe{Text: q.Text, Table: q.Table, Mode: q.Mode.Other(), Filter: q.Filter})
	}
	g, gctx := errgroup.WithContext(search.TryOnce(ctx)) // a probe that fails is left out, not retried
	g.SetLimit(maxParallel)
	zero := float32(0)
	for i := range want {
		g.Go(func() error {
			p := &want[i]
			rs, err := t.agent.search.Search(gctx, t.st.Conference.ID, search.Query{Table: p.Table, Mode: p.Mode, Text: p.Text, Limit: 3, Threshold: &zero, Filter: p.Filter})
			if err == nil && len(rs) > 0 {
				p.TopScore, p.TopTitles, p.Support = rs[0].Score, titles(rs, 2), support(rs)
			}
			return nil
		})
	}
	_ = g.Wait()
	return want
}
