package agent

import (
	"context"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
)

// Memory recalls the lessons of earlier reflection rounds: what failed,
// what was tried, whether it recovered. The agent only reads it; whoever
// runs turns stores their Lessons.
type Memory interface {
	Recall(conference string, cue memory.Cue, k int) []memory.Recalled
}

// recallLimit is how many lessons a step looks at.
const recallLimit = 3

// terms are a text's content words (stems) with their weight in the
// conference: what lessons are compared by.
func (t *turn) terms(text string) map[string]float64 {
	out := map[string]float64{}
	for _, c := range t.lexicon().Analyze(text).Concepts {
		out[c.Stem] = max(out[c.Stem], c.Weight)
	}
	return out
}

// meaning is text embedded for recall by meaning; none when it cannot be
// (the words still count).
func (t *turn) meaning(ctx context.Context, text string) search.Meaning {
	m, err := t.agent.search.Meaning(search.TryOnce(ctx), t.st.Conference.ID, text) // without it, words still recall
	if err != nil {
		t.agent.log.Debug("reflection memory recalls by words only", "trace_id", t.st.TraceID, "err", err)
		return search.Meaning{}
	}
	return m
}

// recall returns the remembered lessons for a failure like texts' in
// tables that recovered and say what to search (rewrite or pivot
// queries), or nothing when memory is off.
func (t *turn) recall(ctx context.Context, texts []string, tables []search.Table, failure string) []memory.Recalled {
	found := t.recallAll(ctx, texts, tables, failure)
	return slices.DeleteFunc(found, func(r memory.Recalled) bool {
		return !r.Recovered || len(r.Queries) == 0 || r.Strategy == string(Relax)
	})
}

// recallAll returns every remembered lesson for a failure like texts' in
// tables, recovered or not.
func (t *turn) recallAll(ctx context.Context, texts []string, tables []search.Table, failure string) []memory.Recalled {
	mem := t.agent.opts.Memory
	if mem == nil {
		return nil
	}
	text := strings.Join(texts, " ")
	cue := memory.Cue{Terms: t.terms(text), Failure: failure}
	if len(cue.Terms) == 0 {
		return nil
	}
	m := t.meaning(ctx, text)
	cue.Vector, cue.Embedder, cue.Alike = m.Vector, m.Embedder, float64(m.Alike)
	for _, tb := range tables {
		cue.Tables = append(cue.Tables, string(tb))
	}
	return mem.Recall(t.st.Conference.ID, cue, recallLimit)
}

// hopeless drops from the failing tables those where memory says another
// round will not help: similar failures of that table were retried before
// and none recovered. It records the lessons it followed.
func (t *turn) hopeless(ctx context.Context, failing []search.Table) []search.Table {
	if t.agent.opts.Memory == nil {
		return failing
	}
	var keep []search.Table
	for _, tb := range failing {
		var texts []string
		for _, q := range t.st.PlannedQueries {
			if q.Table == tb && q.Text != "" {
				texts = append(texts, q.Text)
			}
		}
		found := slices.DeleteFunc(t.recallAll(ctx, texts, []search.Table{tb}, ""), func(r memory.Recalled) bool {
			return !slices.Contains(r.Tables, string(tb))
		})
		if len(found) == 0 || slices.ContainsFunc(found, t.worthRetrying) {
			keep = append(keep, tb)
			continue
		}
		t.st.Recalled = append(t.st.Recalled, RecalledUse{Step: StepCheck, ID: found[0].ID, Similarity: found[0].Similarity})
	}
	return keep
}

// worthRetrying reports whether a lesson of a failing table says another
// round may help: its round recovered by retrying the table itself, or
// elsewhere (a pivot) while no table of this turn answers yet. When the
// table never answered itself and another one already answers, a round
// spent on it is the one the lesson saw fail.
func (t *turn) worthRetrying(l memory.Recalled) bool {
	switch {
	case !l.Recovered:
		return false
	case l.Healed == nil || *l.Healed:
		return true
	}
	return !slices.ContainsFunc(t.st.TableStatus, func(s TableStatus) bool { return s.Outcome == OK })
}

// planFromMemory adds to the first plan what recovered a failure like this
// question's before, so that it is searched at once instead of after a
// failed round. The first plan as the question was read stays the
// original plan: answers are judged against the question, not the memory.
func (t *turn) planFromMemory(ctx context.Context) {
	found := t.recall(ctx, []string{t.st.Topic}, plannedTables(t.st.PlannedQueries), "")
	if len(found) == 0 {
		return
	}
	best := found[0]
	added := t.addQueries(best.Queries)
	if added > 0 {
		t.st.Recalled = append(t.st.Recalled, RecalledUse{Step: StepPlan, ID: best.ID, Similarity: best.Similarity})
	}
}

// recallFailure recalls lessons for the round being reflected on: its
// failing tables' texts and the kind of their failure.
func (t *turn) recallFailure(ctx context.Context) []memory.Recalled {
	var rec Reflection
	t.describeFailure(&rec)
	var tables []search.Table
	for _, f := range rec.Failing {
		tables = append(tables, f.Table)
	}
	var texts []string
	for _, q := range rec.Before {
		texts = append(texts, q.Text)
	}
	return t.recall(ctx, texts, tables, rec.Failure)
}

// addQueries appends qs, normalised and with the question's filter, to the
// plan while it has room, leaving out what it has; it returns how many.
func (t *turn) addQueries(qs []search.Query) int {
	have := map[queryKey]bool{}
	for _, q := range t.st.PlannedQueries {
		have[keyOf(q)] = true
	}
	n := 0
	for _, q := range qs {
		q.Threshold, q.Filter = nil, nil // the lesson's level and filter were another turn's; this one's apply
		nq, err := t.normalise(t.withFilter([]search.Query{q})[0])
		if err != nil || have[keyOf(nq)] || len(t.st.PlannedQueries) >= MaxQueries {
			continue
		}
		have[keyOf(nq)] = true
		t.st.PlannedQueries = append(t.st.PlannedQueries, nq)
		n++
	}
	return n
}

// failureOf names what failed before a round: words the conference does
// not use, else an empty table, else weak results.
func (t *turn) failureOf(texts []string) (kind string, unknown []string) {
	for _, c := range t.lexicon().Analyze(strings.Join(texts, " ")).Concepts {
		if !c.Known() && len(c.Alts) == 0 {
			unknown = append(unknown, c.Word)
		}
	}
	switch {
	case len(unknown) > 0:
		return "unknown_terms", unknown
	case len(t.st.ZeroResultTables) > 0:
		return "empty", nil
	}
	return "weak", nil
}

// describeFailure fills what a round starts from: the failing tables, the
// queries searched there and the kind of failure.
func (t *turn) describeFailure(rec *Reflection) {
	failing := slices.Concat(t.st.ZeroResultTables, t.st.WeakTables)
	for _, s := range t.st.TableStatus {
		if slices.Contains(failing, s.Table) {
			rec.Failing = append(rec.Failing, s)
		}
	}
	var texts []string
	for _, q := range t.st.PlannedQueries {
		if slices.Contains(failing, q.Table) && q.Text != "" {
			rec.Before = append(rec.Before, q)
			texts = append(texts, q.Text)
		}
	}
	rec.Failure, rec.Unknown = t.failureOf(texts)
}

// judgeRound records, after the check that follows a round, where the
// tables stand.
func (t *turn) judgeRound() {
	n := len(t.st.Reflections)
	if n == 0 || t.st.Reflections[n-1].After != nil {
		return
	}
	t.st.Reflections[n-1].After = slices.Clone(t.st.TableStatus)
}

// Lessons are the finished turn's reflection rounds as memory keeps them,
// one per failing table: the failure, what was tried and what came of it,
// with the evaluator's view when the answer was evaluated. Nothing about
// who asked is kept.
func (a *Agent) Lessons(ctx context.Context, st *State) []memory.Lesson {
	if a.search.Lexicon(st.Conference.ID) == nil {
		return nil
	}
	t := &turn{agent: a, st: st}
	var out []memory.Lesson
	for _, r := range st.Reflections {
		if r.After == nil {
			continue
		}
		for _, f := range r.Failing {
			if l, ok := t.lesson(ctx, r, f); ok {
				out = append(out, l)
			}
		}
	}
	return out
}

// lesson is what one round taught about one failing table: what the
// round tried, and whether it recovered — a table it searched answers now
// (the failing one, or the one a pivot moved to).
func (t *turn) lesson(ctx context.Context, r Reflection, f TableStatus) (memory.Lesson, bool) {
	var texts []string
	for _, q := range r.Before {
		if q.Table == f.Table {
			texts = append(texts, q.Text)
		}
	}
	tried := cloneQueries(r.Queries)
	m := t.meaning(ctx, strings.Join(texts, " "))
	l := memory.Lesson{Conference: t.st.Conference.ID, Text: strings.Join(texts, " / "), Terms: t.terms(strings.Join(texts, " ")),
		Vector: m.Vector, Embedder: m.Embedder, Failure: r.Failure, Tables: []string{string(f.Table)}, Unknown: r.Unknown, Strategy: string(r.Strategy),
		Queries: tried, Confidence: 0.5}
	for _, q := range tried {
		if i := slices.IndexFunc(r.After, func(s TableStatus) bool { return s.Table == q.Table }); i >= 0 {
			l.Recovered = l.Recovered || r.After[i].Outcome == OK || t.answeredFrom(r, q.Table)
			l.Gain = max(l.Gain, float64(r.After[i].TopScore-f.TopScore))
		}
	}
	healed := slices.ContainsFunc(r.After, func(s TableStatus) bool { return s.Table == f.Table && s.Outcome == OK })
	l.Healed = &healed
	l.Importance = importance(l.Recovered, l.Gain, t.calibration())
	l.Tags = slices.Concat(l.Tables, []string{l.Failure, l.Strategy}, l.Unknown)
	if ev := t.st.Evaluation; ev != nil {
		l.Confidence = ev.ConfidenceScore
		l.Insight = &memory.Insight{Strengths: ev.Strengths, Improvements: ev.Improvements,
			DecisionAppropriate: ev.DecisionAppropriate, Confidence: ev.ConfidenceScore}
	}
	return l, len(l.Terms) > 0
}

// answeredFrom reports whether the answer cites an item of table tb that
// round r turned to (a pivot's table, not searched before it): the round
// found what was recommended, even short of the confidence band.
func (t *turn) answeredFrom(r Reflection, tb search.Table) bool {
	if slices.ContainsFunc(r.Before, func(q search.Query) bool { return q.Table == tb }) {
		return false
	}
	return slices.ContainsFunc(t.st.Citations, func(c Citation) bool { return c.Collection == tb })
}

// importance is how much a round is worth remembering: little when it did
// not recover, else a half plus a half of its gain measured against the
// width of the conference's band between weak and confident.
func importance(recovered bool, gain float64, cal search.Calibration) float64 {
	if !recovered {
		return 0.1
	}
	band := float64(cal.Confident - cal.Threshold)
	if band <= 0 {
		return 1
	}
	return 0.5 + 0.5*min(max(gain/band, 0), 1)
}

// Helped says whether the turn's search answered in the end: every table
// it last checked had a confident result. Memory counts it for the
// lessons the turn recalled.
func (st *State) Helped() bool {
	for _, s := range st.TableStatus {
		if s.Outcome != OK {
			return false
		}
	}
	return len(st.TableStatus) > 0
}

// RecalledIDs lists the ids of the lessons the turn acted on.
func (st *State) RecalledIDs() []string {
	var out []string
	for _, r := range st.Recalled {
		if !slices.Contains(out, r.ID) {
			out = append(out, r.ID)
		}
	}
	return out
}
