package agent

import (
	"context"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// searchRetries are the waits before each new try of a failed search.
var searchRetries = []time.Duration{20 * time.Millisecond, 100 * time.Millisecond}

// execute runs the planned queries in parallel and merges their results into
// the tables they searched. Tables the round did not search keep their
// results. A failed query is tried again (searchRetries), then recorded;
// a table whose every query failed is marked for check as unavailable.
func (t *turn) execute(ctx context.Context) error {
	qs := t.st.PlannedQueries
	t.progress(StepExecute, searchingMessage(qs))
	results := make([][]search.Result, len(qs))
	errs := make([]error, len(qs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(maxParallel)
	for i, q := range qs {
		g.Go(func() error {
			results[i], errs[i] = t.search(gctx, q)
			return nil // one failed query must not cancel the others
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	t.merge(qs, results, errs)
	if t.st.FirstPassResults == nil {
		t.st.FirstPassResults = cloneResults(t.st.QueryResults)
	}
	t.st.Attempts++
	return nil
}

// search runs one query, trying again after a failure while the turn has
// time.
func (t *turn) search(ctx context.Context, q search.Query) ([]search.Result, error) {
	ctx = search.TryOnce(ctx) // these retries are the one layer: a provider's embedding is sent once per try
	rs, err := t.agent.search.Search(ctx, t.st.Conference.ID, q)
	for _, wait := range searchRetries {
		if err == nil || ctx.Err() != nil {
			break
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
		case <-timer.C:
			rs, err = t.agent.search.Search(ctx, t.st.Conference.ID, q)
		}
		timer.Stop()
	}
	return rs, err
}

func (t *turn) merge(qs []search.Query, results [][]search.Result, errs []error) {
	byTable := map[search.Table][]search.Result{}
	ran := map[search.Table]bool{}
	for i, q := range qs {
		t.st.Tried = append(t.st.Tried, q)
		if errs[i] != nil {
			t.st.QueryErrors = append(t.st.QueryErrors, QueryError{Query: q, Error: errs[i].Error()})
			t.agent.log.Warn("query failed", "trace_id", t.st.TraceID, "table", q.Table, "err", errs[i])
		} else {
			ran[q.Table] = true
		}
		byTable[q.Table] = append(byTable[q.Table], t.notCited(results[i])...)
	}
	t.aboutCited(byTable)
	t.failedRound = map[search.Table]bool{}
	for tb := range byTable {
		t.failedRound[tb] = !ran[tb]
	}
	for _, tb := range search.Tables {
		if fresh, ok := byTable[tb]; ok {
			t.st.QueryResults[tb] = mergeResults(t.st.QueryResults[tb], fresh)
		}
	}
}

// notCited leaves out, for "anything similar?", the items cited before.
func (t *turn) notCited(rs []search.Result) []search.Result {
	f := t.st.FollowUp
	if f == nil || f.Kind != FollowMore {
		return rs
	}
	return slices.DeleteFunc(slices.Clone(rs), func(r search.Result) bool {
		return slices.Contains(f.Refs, search.Ref{Table: r.Table, ID: r.ID})
	})
}

// mergeResults unions results by entity, keeping each entity's best score,
// and ranks them once: best score first, ties by id.
func mergeResults(old, fresh []search.Result) []search.Result {
	best := map[string]search.Result{}
	for _, r := range slices.Concat(old, fresh) {
		if cur, ok := best[r.ID]; !ok || r.Score > cur.Score {
			best[r.ID] = r
		}
	}
	out := make([]search.Result, 0, len(best))
	for _, r := range best {
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b search.Result) int {
		if a.Score != b.Score {
			if a.Score > b.Score {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	return out
}

func cloneResults(m map[search.Table][]search.Result) map[search.Table][]search.Result {
	out := make(map[search.Table][]search.Result, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

func searchingMessage(qs []search.Query) string {
	var names []string
	for _, tb := range plannedTables(qs) {
		names = append(names, string(tb))
	}
	return "Searching " + terms.Series(names, "and") + "…"
}
