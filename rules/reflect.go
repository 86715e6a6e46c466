package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/when"
)

// action is what the reflector decides for one failing query.
type action struct {
	strategy agent.Strategy
	queries  []search.Query
	why      string
	note     string
}

// precedence orders strategies when failing queries disagree: the decision
// carries the strongest one.
var precedence = map[agent.Strategy]int{agent.Pivot: 3, agent.Rewrite: 2, agent.Relax: 1}

// reflect decides, for every query of a weak or empty table, whether to
// pivot, rewrite or relax, and merges the actions into one decision.
func reflect(in *agent.ReflectInput, off search.Ablation) agent.Decision {
	failing := slices.Concat(in.ZeroTables, in.WeakTables)
	var acts []action
	seen := map[string]bool{}
	for _, q := range in.Plan {
		key := string(q.Table) + "|" + normalise(q.Text)
		if !slices.Contains(failing, q.Table) || seen[key] {
			continue
		}
		seen[key] = true
		if a, ok := decideFor(in, q, off); ok {
			acts = append(acts, a)
		}
	}
	slices.SortStableFunc(acts, func(a, b action) int { return precedence[b.strategy] - precedence[a.strategy] })
	lesson, remembered := rememberedAction(in)
	if remembered {
		acts = append([]action{lesson.act}, acts...) // what recovered a failure like this one before comes first
	}
	if len(acts) == 0 {
		return agent.Decision{Reasoning: "nothing left to try: every variant of the failing queries was tried", Strategy: agent.Relax,
			UserMessage: "I've looked everywhere I can think of for this.", NewQueries: nil}
	}
	d := agent.Decision{Strategy: acts[0].strategy, UserMessage: acts[0].note}
	if remembered {
		d.Recalled = []string{lesson.id}
	}
	var own []search.Query
	var reasons []string
	for _, a := range acts {
		reasons = append(reasons, a.why)
		own = append(own, a.queries...)
	}
	if !slices.ContainsFunc(own, func(q search.Query) bool { return !tried(in, q) }) {
		d.Strategy, d.UserMessage = agent.Relax, "Nothing matched closely, so I'm widening the search a little." // nothing new of its own: the plain relaxation below
	}
	var plain []search.Query
	if !off.Off("ladder") {
		plain = agent.Ladder(in.FirstPlan, failing, in.RetryCount, in.Calibration) // the question's first wording
	}
	d.NewQueries = withPlain(own, plain)
	d.Reasoning = strings.Join(reasons, " | ")
	if len(plain) > 0 {
		d.Reasoning += " (and the plain relaxation too)"
	}
	return d
}

// withPlain is a round's queries: the reflector's own, then the plain
// relaxation, within agent.MaxQueries. The plain relaxation keeps its room
// first (the reflector's best query always has one), so a reflection round
// never searches less than mechanical relaxation would, except when the
// plain relaxation alone fills the round: then its last query gives way.
// (Letting the queries the conference's text supports least give way
// instead was tried: one more recovery, one answer fewer on the probes.)
func withPlain(own, plain []search.Query) []search.Query {
	keep := min(len(own), max(agent.MaxQueries-len(plain), 1))
	out := slices.Concat(own[:keep], plain)
	return out[:min(len(out), agent.MaxQueries)]
}

// remembered is a lesson's action and the lesson's id.
type remembered struct {
	act action
	id  string
}

// rememberedAction is what the most similar remembered lesson that
// recovered did, when some of its queries were not tried yet this turn:
// its strategy and its searches, with this turn's filter and levels.
func rememberedAction(in *agent.ReflectInput) (remembered, bool) {
	for _, l := range in.Memory {
		var qs []search.Query
		for _, q := range l.Queries {
			q.Filter, q.Threshold = nil, nil
			if !tried(in, q) {
				qs = append(qs, q)
			}
		}
		if len(qs) == 0 {
			continue
		}
		why := fmt.Sprintf("a similar failure (%q, %.2f alike) recovered before by %s: %s", l.Text, l.Similarity, l.Strategy, queryTexts(qs))
		note := "I've seen a question like this before, so I'm trying what worked then."
		return remembered{act: action{strategy: agent.Strategy(l.Strategy), queries: qs, why: why, note: note}, id: l.ID}, true
	}
	return remembered{}, false
}

func queryTexts(qs []search.Query) string {
	var out []string
	for _, q := range qs {
		out = append(out, fmt.Sprintf("%s %q", q.Table, q.Text))
	}
	return strings.Join(out, ", ")
}

// tried reports whether a query's wording was already searched in its
// table and mode with the same filter (a widened filter is new).
func tried(in *agent.ReflectInput, q search.Query) bool {
	for _, t := range in.Tried {
		if t.Table == q.Table && t.Mode == cmp.Or(q.Mode, search.Faceted) && normalise(t.Text) == normalise(q.Text) && sameFilter(t.Filter, q.Filter) {
			return true
		}
	}
	return false
}

func sameFilter(a, b *when.Filter) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Label == b.Label && a.From.Equal(b.From) && a.To.Equal(b.To) && a.Next == b.Next && a.Last == b.Last && a.Ongoing == b.Ongoing &&
		slices.Equal(a.Rooms, b.Rooms) && slices.Equal(a.Tracks, b.Tracks) && slices.Equal(a.Formats, b.Formats) &&
		slices.EqualFunc(a.Except, b.Except, func(x, y when.Filter) bool { return sameFilter(&x, &y) })
}

// decideFor chooses the action for one failing query from the evidence:
// words the conference does not use → rewrite with what they stand for
// here; another table clearly stronger → pivot; known words scoring just
// under the confidence band → relax; known words scoring nowhere near it →
// rewrite with the words the conference uses alongside them.
func decideFor(in *agent.ReflectInput, q search.Query, off search.Ablation) (action, bool) {
	cal := in.Calibration
	sum := summary(in, q.Table)
	top, outcome := sum.TopScore, sum.Outcome
	rw := rewrite(in.Lexicon, q.Table, q.Text, off)
	unknown := len(rw.expanded)+len(rw.dropped) > 0 && !rw.outweighed
	text := q.Text
	if unknown {
		text = rw.text
	}
	status := fmt.Sprintf("%s %s top %.2f < band %.2f", q.Table, outcome, top, cal.Confident)
	if top >= cal.Confident {
		status = fmt.Sprintf("%s %s top %.2f, in the band but covering under a third of the question", q.Table, outcome, top)
	}
	target, because := pivotTarget(in, q, top, unknown)
	if unknown { // first the words: a probe of words the conference lacks says little
		qs := []search.Query{like(q, q.Table, q.Mode, text, q.Limit)}
		why := fmt.Sprintf("%s;%s → rewrite", status, rw.reason())
		if target != "" {
			qs = append(qs, like(q, target, search.Faceted, text, search.DefaultLimit))
			why += fmt.Sprintf(", and look in %s too (%s)", target, because)
		}
		return action{agent.Rewrite, qs, why, rw.note(in.Message)}, true
	}
	if target != "" {
		qs := []search.Query{like(q, target, search.Faceted, text, search.DefaultLimit)}
		return action{agent.Pivot, qs, fmt.Sprintf("%s; %s%s → pivot to %s", status, because, rw.reason(), target),
			pivotNote(q.Table, target, outcome, quotedOr(in.Message, text, "what you asked"))}, true
	}
	if q.Filter != nil && outcome == agent.Empty {
		if a, ok := widen(in, q, status); ok {
			return a, true
		}
	}
	if rw.changed && top < cal.Threshold {
		return action{agent.Rewrite, []search.Query{like(q, q.Table, q.Mode, rw.text, q.Limit)},
			fmt.Sprintf("%s;%s → rewrite", status, rw.reason()), rw.note(in.Message)}, true
	}
	if p := probeFor(in, q.Text, q.Table, q.Mode.Other()); p.TopScore >= cal.Confident && p.TopScore > top+0.05 {
		return action{agent.Pivot, []search.Query{like(q, q.Table, p.Mode, q.Text, q.Limit)},
			fmt.Sprintf("%s; %s mode scores %.2f → pivot mode", status, p.Mode, p.TopScore),
			"Let me look at the " + tableWords(q.Table) + " as a whole rather than detail by detail."}, true
	}
	return relaxAction(in, q, status)
}

// widen loosens the time, place or format constraint of a query that found
// nothing, one step, and says which: a filter is never dropped silently.
func widen(in *agent.ReflectInput, q search.Query, status string) (action, bool) {
	f, why, ok := q.Filter.Widen(in.Calendar)
	if !ok {
		return action{}, false
	}
	w := q
	w.Filter = &f
	note := fmt.Sprintf("Nothing matched %s, so I'm looking at %s.", q.Filter.Label, why)
	return action{agent.Relax, []search.Query{w}, fmt.Sprintf("%s; filter %q empty → widen to %q", status, q.Filter.Label, f.Label), note}, true
}

// relaxAction keeps the wording and lets the agent lower the threshold; once
// the loosest level was tried in this mode it tries the other mode there.
func relaxAction(in *agent.ReflectInput, q search.Query, status string) (action, bool) {
	cal := in.Calibration
	what := quotedOr(in.Message, q.Text, "your question")
	note := fmt.Sprintf("I found possible matches for %s, but none is a close fit yet, so I'm widening the search.", what)
	if summary(in, q.Table).Outcome == agent.Empty {
		note = fmt.Sprintf("Nothing came back for %s yet, so I'm widening the search.", what)
	}
	best := bestProbe(in, q, nil)
	why := fmt.Sprintf("%s; question words are known here and no other table does better (best: %s %.2f) → relax", status, best.Table, best.TopScore)
	if !triedAt(in, q.Table, q.Mode, q.Text, cal.Loosest) {
		return action{agent.Relax, []search.Query{like(q, q.Table, q.Mode, q.Text, q.Limit)}, why, note}, true
	}
	other := q.Mode.Other()
	if triedAt(in, q.Table, other, q.Text, cal.Loosest) {
		return action{}, false
	}
	th := cal.Loosest
	r := like(q, q.Table, other, q.Text, 20)
	r.Threshold = &th
	return action{agent.Relax, []search.Query{r}, why + " (other mode, loosest level)", note}, true
}

// like is a new query that keeps the failing query's filter (a widened one
// included) and has no threshold of its own.
func like(q search.Query, tb search.Table, m search.Mode, text string, limit int) search.Query {
	return search.Query{Table: tb, Mode: m, Text: text, Limit: limit, Filter: q.Filter}
}
