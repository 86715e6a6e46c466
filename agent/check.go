package agent

import (
	"context"
	"fmt"
	"slices"

	"github.com/erleah/erleah-agent/search"
)

// check classifies every table the round searched as ok, weak (best score
// below the confidence band), empty or unavailable (its search failed), and
// decides whether another round is needed and allowed. A table whose search
// failed is not retried by reflection: execute already retried it.
func (t *turn) check(ctx context.Context) error {
	t.progress(StepCheck, "Checking what came back…")
	cal := t.calibration()
	named := namedRefs(t.mentions())
	t.st.ZeroResultTables, t.st.WeakTables = nil, nil
	for _, tb := range plannedTables(t.st.PlannedQueries) {
		status := classify(tb, t.st.QueryResults[tb], cal)
		if status.Count == 0 && t.failedRound[tb] {
			status.Outcome = Unavailable
		}
		if status.Outcome == Weak && slices.ContainsFunc(t.st.QueryResults[tb], named) {
			status.Outcome = OK // "what's Chen Wei presenting?" is answered by his talks, however they score
		}
		t.setStatus(status)
		switch status.Outcome {
		case Empty:
			t.st.ZeroResultTables = append(t.st.ZeroResultTables, tb)
		case Weak:
			t.st.WeakTables = append(t.st.WeakTables, tb)
		}
	}
	t.judgeRound()
	t.st.NeedsRetry = t.st.RetryCount < t.agent.opts.MaxRetries &&
		len(t.hopeless(ctx, slices.Concat(t.st.ZeroResultTables, t.st.WeakTables))) > 0
	return nil
}

// searchFailed ends the turn when every table the round searched is
// unavailable and nothing was found before: there is nothing to answer
// from, and saying "nothing fits" would be untrue.
func (t *turn) searchFailed() error {
	for _, s := range t.st.TableStatus {
		if s.Outcome != Unavailable {
			return nil
		}
	}
	if len(t.st.QueryErrors) == 0 {
		return nil
	}
	return fmt.Errorf("agent: %w: %s", ErrSearchUnavailable, t.st.QueryErrors[len(t.st.QueryErrors)-1].Error)
}

// classify says how a table's results answer: ok when one scores in the
// confidence band and contains at least search.MinCoverage of what was
// asked, weak when there are results but none does, empty without results.
func classify(tb search.Table, results []search.Result, cal search.Calibration) TableStatus {
	s := TableStatus{Table: tb, Count: len(results), Outcome: Weak}
	if len(results) > 0 {
		s.TopScore = results[0].Score
	}
	switch {
	case len(results) == 0:
		s.Outcome = Empty
	case slices.ContainsFunc(results, func(r search.Result) bool { return r.Score >= cal.Confident && r.Coverage >= search.MinCoverage }):
		s.Outcome = OK
	}
	return s
}

// namedRefs reports whether a result is an entity the question names, or
// linked to one: a named speaker's talk, a named talk's speaker.
func namedRefs(ms []search.Mention) func(search.Result) bool {
	return func(r search.Result) bool {
		return slices.ContainsFunc(ms, func(m search.Mention) bool {
			return m.Ref == r.Ref || slices.Contains(r.Talks, m.Ref) || slices.Contains(r.Speakers, m.Ref)
		})
	}
}

// setStatus records a table's latest status, replacing an older one.
func (t *turn) setStatus(s TableStatus) {
	i := slices.IndexFunc(t.st.TableStatus, func(x TableStatus) bool { return x.Table == s.Table })
	if i < 0 {
		t.st.TableStatus = append(t.st.TableStatus, s)
		return
	}
	t.st.TableStatus[i] = s
}

// plannedTables lists the tables a plan searches, in search.Tables order.
func plannedTables(qs []search.Query) []search.Table {
	var out []search.Table
	for _, tb := range search.Tables {
		if slices.ContainsFunc(qs, func(q search.Query) bool { return q.Table == tb }) {
			out = append(out, tb)
		}
	}
	return out
}
