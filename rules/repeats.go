package rules

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
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
			k := slotKey(r)
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

// slotsInTurn is the answer's input with the repeats of each slot in
// turn (see sameSlotScore and inTurn): today's lunch before another day's,
// for the sure picks and the hedged one alike.
func slotsInTurn(in *agent.RespondInput) *agent.RespondInput {
	rs, ok := in.Results[search.Sessions]
	if !ok {
		return in
	}
	rs = slices.Clone(rs)
	sameSlotScore(rs, in.AskedAt)
	inTurn(rs, itself, in.AskedAt)
	c := *in
	c.Results = maps.Clone(in.Results)
	c.Results[search.Sessions] = rs
	return &c
}

// sameSlotScore gives the repeat of a service slot that comes next the
// best score any of its repeats has: "when is lunch?" is answered by
// today's lunch, whichever day's description the ranking liked best. The
// other days keep their own scores.
func sameSlotScore(rs []search.Result, now time.Time) {
	best, next := map[string]float32{}, map[string]int{}
	for i, r := range rs {
		if r.Session == nil || r.Session.Starts.IsZero() || r.Session.Format != conference.FormatOther {
			continue
		}
		k := slotKey(r)
		best[k] = max(best[k], r.Score)
		if j, ok := next[k]; !ok || comesFirst(r, rs[j], now) {
			next[k] = i
		}
	}
	for k, i := range next {
		if !isOver(rs[i], now) { // every repeat over: none is in turn
			rs[i].Score = best[k]
		}
	}
}

// comesFirst reports whether session a comes before b for an attendee
// asking at now: one still to come before one that is over, then by start.
func comesFirst(a, b search.Result, now time.Time) bool {
	if oa, ob := isOver(a, now), isOver(b, now); oa != ob {
		return ob
	}
	return a.Session.Starts.Before(b.Session.Starts)
}

// slotKey names the slot of the programme a session fills: its title; for
// a service ("other" format), the title without what tells its repeats
// apart: a part in brackets ("Lunch (Day 2)") or a numbered subtitle
// ("Portfolio Reviews - Session 2"). Another subtitle is kept ("… - Final"
// is no repeat of "… - Heat 2"), and talks keep their whole title.
func slotKey(r search.Result) string {
	t := strings.ToLower(strings.TrimSpace(r.Title))
	if r.Session.Format != conference.FormatOther {
		return t
	}
	t = bracketed.ReplaceAllString(t, " ")
	if i := numbered.FindStringIndex(t); i != nil {
		t = t[:i[0]]
	}
	return strings.Join(strings.Fields(t), " ")
}

var (
	bracketed = regexp.MustCompile(`\([^)]*\)|\[[^\]]*\]`)
	numbered  = regexp.MustCompile(`\s[-–—]\s+[^-–—]*\d[^-–—]*$`)
)

// isOver reports whether a session had ended when the question was asked.
func isOver(r search.Result, now time.Time) bool {
	return !now.IsZero() && !r.Session.Ends.IsZero() && r.Session.Ends.Before(now)
}

func ofPick(p pick) search.Result { return p.r }

func itself(r search.Result) search.Result { return r }
