package rules

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// wayAsked asks where a place is or how to reach it: "where is Forum 2?",
// "how do I get to Hall 3 from here?".
var wayAsked = regexp.MustCompile(`(?i)\b(?:where(?:'s|’s|\s+is|\s+are)|how\s+(?:do|can|should|would)\s+(?:i|we)\s+(?:get|go|walk)\s+to|how\s+to\s+get\s+to|directions?\s+to|way\s+to)\b`)

// roomAsked reports whether a question asks where a room is, and nothing
// else: its filter names rooms, and it asks no topic.
func roomAsked(in *agent.RespondInput) bool {
	return browsing(in) && len(in.Filter.Rooms) > 0 && wayAsked.MatchString(asked(in.Message, in.Reading))
}

// roomLead answers where a room is with what the programme says of it, its
// name as written (which often says the building and level), and owns
// that the assistant has no map (the programme may describe the way in a
// text of its own, which this does not look for).
func roomLead(in *agent.RespondInput) string {
	return fmt.Sprintf("The programme lists it as %s. I can't show you a map or the way there, so follow the venue's signs or ask at the information desk.\n\n",
		quote(strings.Join(in.Filter.Rooms, "” and “")))
}

// notOver drops, for a question asking where a room is, the sessions there
// that are over: what is still to come there is what the attendee can use.
// When every one is over, they stay.
func notOver(in *agent.RespondInput, picks map[search.Table][]pick) {
	ps := picks[search.Sessions]
	left := slices.DeleteFunc(slices.Clone(ps), func(p pick) bool { return p.r.Session != nil && isOver(p.r, in.AskedAt) })
	if len(left) > 0 {
		picks[search.Sessions] = left
	}
}
