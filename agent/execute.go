package agent

import (
	"context"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/erleah/erleah-agent/search"
)

// execute runs the planned queries in parallel and merges their results into
// the tables they searched. Tables the round did not search keep their
// results; a failed query is recorded and counts as empty.
func (t *turn) execute(ctx context.Context) error {
	qs := t.st.PlannedQueries
	t.progress(StepExecute, searchingMessage(qs))
	results := make([][]search.Result, len(qs))
	errs := make([]error, len(qs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(maxParallel)
	for i, q := range qs {
		g.Go(func() error {
			results[i], errs[i] = t.agent.search.Search(gctx, t.st.Conference.ID, q)
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

func (t *turn) merge(qs []search.Query, results [][]search.Result, errs []error) {
	byTable := map[search.Table][]search.Result{}
	for i, q := range qs {
		t.st.Tried = append(t.st.Tried, q)
		if errs[i] != nil {
			t.st.QueryErrors = append(t.st.QueryErrors, QueryError{Query: q, Error: errs[i].Error()})
			t.agent.log.Warn("query failed", "trace_id", t.st.TraceID, "table", q.Table, "err", errs[i])
		}
		byTable[q.Table] = append(byTable[q.Table], results[i]...)
	}
	for _, tb := range search.Tables {
		if fresh, ok := byTable[tb]; ok {
			t.st.QueryResults[tb] = mergeResults(t.st.QueryResults[tb], fresh)
		}
	}
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
	return "Searching " + joinWords(names) + "…"
}

// joinWords joins words as "a", "a and b" or "a, b and c".
func joinWords(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
