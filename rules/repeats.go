package rules

import (
	"slices"
	"strings"
	"time"
)

// inTurn puts the sessions that repeat one slot of the programme (the same
// title: "Lunch" on each day) in the order they come, those still to come
// first, in the places the ranking gave them: "when is lunch?" asked on the
// first morning hears of that day's lunch first, not of one whose
// description happened to score higher.
func inTurn(ps []pick, now time.Time) {
	byTitle := map[string][]int{}
	for i, p := range ps {
		if p.r.Session != nil && !p.r.Session.Starts.IsZero() {
			k := strings.ToLower(strings.TrimSpace(p.r.Title))
			byTitle[k] = append(byTitle[k], i)
		}
	}
	for _, at := range byTitle {
		if len(at) < 2 {
			continue
		}
		group := make([]pick, len(at))
		for j, i := range at {
			group[j] = ps[i]
		}
		slices.SortStableFunc(group, func(a, b pick) int {
			if oa, ob := isOver(a, now), isOver(b, now); oa != ob {
				return map[bool]int{true: 1, false: -1}[oa]
			}
			return a.r.Session.Starts.Compare(b.r.Session.Starts)
		})
		for j, i := range at {
			ps[i] = group[j]
		}
	}
}

// isOver reports whether a session had ended when the question was asked.
func isOver(p pick, now time.Time) bool {
	return !now.IsZero() && !p.r.Session.Ends.IsZero() && p.r.Session.Ends.Before(now)
}
