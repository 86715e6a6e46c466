package rules

import (
	"fmt"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// detailsAnswer says when and where the items a follow-up points at are:
// a session's day, time and room, an exhibitor's booth, a speaker's role.
func detailsAnswer(in *agent.RespondInput) string {
	var b strings.Builder
	for _, tb := range search.Tables {
		for _, r := range in.Results[tb] {
			fmt.Fprintf(&b, "%s [%s] %s\n", r.Title, r.Key(), whereAndWhen(r))
		}
	}
	return b.String()
}

func whereAndWhen(r search.Result) string {
	s := r.Session
	switch {
	case s != nil && !s.Starts.IsZero():
		out := "is on " + s.Starts.Format("Monday 2 January, 15:04")
		if !s.Ends.IsZero() {
			out += "–" + s.Ends.Format(search.EndLayout(s.Starts, s.Ends, "Monday 2 January, 15:04"))
		}
		if s.Room != "" {
			out += ", in " + s.Room
		}
		return out + "."
	case s != nil && s.Room != "":
		return "is in " + s.Room + "; its time is not published yet."
	case s != nil:
		return "has no time or room published yet."
	case r.Details != "":
		return "— " + r.Details + "."
	}
	return "— I have no time or place for it."
}
