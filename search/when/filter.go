package when

import (
	"slices"
	"strings"
	"time"
)

// Slot is how close to the earliest start a session must start (at most) to
// count as the same slot of the programme when Filter.Next picks it.
const Slot = 10 * time.Minute

// Filter is a structured constraint on sessions. The zero Filter matches
// everything. Rooms, tracks and formats each match when the session's value
// equals one of the listed ones, ignoring case; an empty list matches any.
type Filter struct {
	// From and To make a window: a session matches when it starts in
	// [From, To). Either may be zero, leaving that side open.
	From time.Time `json:"from,omitzero"`
	To   time.Time `json:"to,omitzero"`
	// Ongoing ("now") matches the sessions running at From
	// (start <= From < end) instead of a window. With To set ("still on
	// today", "anything left?") it matches the sessions that overlap
	// [From, To): not ended by From, starting before To.
	Ongoing bool `json:"ongoing,omitempty"`
	// Next ("what's next") keeps, among the matching sessions (which start
	// at or after From, and before To when set), only the earliest slot.
	Next bool `json:"next,omitempty"`
	// Last ("the last talk of the day") keeps, among the matching
	// sessions, only the latest slot.
	Last bool `json:"last,omitempty"`
	// Rooms are exact room names from the Calendar.
	Rooms []string `json:"rooms,omitempty"`
	// Tracks are exact track names from the Calendar.
	Tracks []string `json:"tracks,omitempty"`
	// Formats are the programme's format values (conference.FormatTalk,
	// FormatWorkshop, FormatPanel, FormatKeynote, FormatOther).
	Formats []string `json:"formats,omitempty"`
	// Not are sessions that never match: the landmark a window is said by
	// ("during the coffee break" asks what else is on then). A session is
	// one when its start, end and format are the landmark's.
	Not []Landmark `json:"not,omitempty"`
	// Except are the sessions the attendee turned down ("no panels", "not
	// on Wednesday", "not in Hall 2", "I can't do mornings": one filter a
	// day): a session one of them matches never matches. The first one's
	// Label says them all. Widening keeps them.
	Except []Filter `json:"except,omitempty"`
	// FromNow says the window starts when the question was asked ("in the
	// next 30 minutes"): widening keeps its start, since what is over is
	// no answer.
	FromNow bool `json:"from_now,omitempty"`
	// Label says the filter in plain words for the attendee, such as
	// "tomorrow morning (Wed 21 Oct), in Hall 1, workshops".
	Label string `json:"label,omitempty"`
}

// IsZero reports whether f constrains nothing (its Label aside), so that it
// matches every session.
func (f Filter) IsZero() bool {
	return f.From.IsZero() && f.To.IsZero() && !f.Ongoing && !f.Next && !f.Last &&
		len(f.Rooms) == 0 && len(f.Tracks) == 0 && len(f.Formats) == 0 && len(f.Except) == 0
}

// Match reports whether one session satisfies the filter, ignoring Next
// and Last, which need the whole set (see Apply). A session whose end is
// not after its start is never ongoing.
func (f Filter) Match(start, end time.Time, room, track, format string) bool {
	return f.matchTime(start, end) && anyFold(f.Rooms, room) &&
		anyFold(f.Tracks, track) && anyFold(f.Formats, format) && !f.isLandmark(start, end, format) &&
		!slices.ContainsFunc(f.Except, func(e Filter) bool { return e.Match(start, end, room, track, format) })
}

// isLandmark reports whether a session is one of the landmarks in Not.
func (f Filter) isLandmark(start, end time.Time, format string) bool {
	return slices.ContainsFunc(f.Not, func(k Landmark) bool {
		return k.Start.Equal(start) && k.End.Equal(end) && k.Format == format
	})
}

func (f Filter) matchTime(start, end time.Time) bool {
	if f.Ongoing && !f.To.IsZero() {
		return (f.From.IsZero() || end.After(f.From)) && start.Before(f.To)
	}
	if f.Ongoing {
		return f.From.IsZero() || (!start.After(f.From) && end.After(f.From))
	}
	return (f.From.IsZero() || !start.Before(f.From)) && (f.To.IsZero() || start.Before(f.To))
}

// anyFold reports whether list is empty or holds s, ignoring case.
func anyFold(list []string, s string) bool {
	return len(list) == 0 || slices.ContainsFunc(list, func(x string) bool { return strings.EqualFold(x, s) })
}

// Apply returns, in order, the indexes in [0, n) of the sessions that match
// f; at(i) describes session i. With Next it keeps only the earliest slot:
// the matching sessions that start at most Slot after the earliest start;
// with Last, the latest: those that start at most Slot before the latest.
func (f Filter) Apply(n int, at func(i int) (start, end time.Time, room, track, format string)) []int {
	if at == nil {
		return nil
	}
	var keep []int
	var starts []time.Time
	for i := range max(n, 0) {
		start, end, room, track, format := at(i)
		if f.Match(start, end, room, track, format) {
			keep = append(keep, i)
			starts = append(starts, start)
		}
	}
	switch {
	case len(keep) == 0:
		return keep
	case f.Next:
		first := slices.MinFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
		return inSlot(keep, starts, func(t time.Time) bool { return !t.After(first.Add(Slot)) })
	case f.Last:
		last := slices.MaxFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
		return inSlot(keep, starts, func(t time.Time) bool { return !t.Before(last.Add(-Slot)) })
	}
	return keep
}

// inSlot keeps the sessions whose start is in the slot.
func inSlot(keep []int, starts []time.Time, in func(time.Time) bool) []int {
	var slot []int
	for k, i := range keep {
		if in(starts[k]) {
			slot = append(slot, i)
		}
	}
	return slot
}
