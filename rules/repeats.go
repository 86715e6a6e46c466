package rules

import (
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/search"
)

// inTurn puts the sessions that repeat one slot of the programme (the same
// title: "Lunch" on each day) in the order they come, those still to come
// first, in the places the ranking gave them: "when is lunch?" asked on the
// first morning hears of that day's lunch first, not of one whose
// description happened to score higher. It orders the results before
// they are chosen from, so that today's is not left out, and the picks.
func inTurn[T any](xs []T, result func(T) search.Result, now time.Time) {
	byTitle := map[string][]int{}
	for i, x := range xs {
		if r := result(x); r.Session != nil && !r.Session.Starts.IsZero() {
			k := strings.ToLower(strings.TrimSpace(r.Title))
			byTitle[k] = append(byTitle[k], i)
		}
	}
	for _, at := range byTitle {
		if len(at) < 2 {
			continue
		}
		group := make([]T, len(at))
		for j, i := range at {
			group[j] = xs[i]
		}
		slices.SortStableFunc(group, func(a, b T) int {
			ra, rb := result(a), result(b)
			if oa, ob := isOver(ra, now), isOver(rb, now); oa != ob {
				return map[bool]int{true: 1, false: -1}[oa]
			}
			return ra.Session.Starts.Compare(rb.Session.Starts)
		})
		for j, i := range at {
			xs[i] = group[j]
		}
	}
}

// isOver reports whether a session had ended when the question was asked.
func isOver(r search.Result, now time.Time) bool {
	return !now.IsZero() && !r.Session.Ends.IsZero() && r.Session.Ends.Before(now)
}

func ofPick(p pick) search.Result { return p.r }

func itself(r search.Result) search.Result { return r }
