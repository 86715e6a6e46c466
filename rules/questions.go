package rules

import (
	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
	"github.com/erleah/erleah-agent/search/terms"
)

// unanswered are the short questions of their own that a message asks
// ("when is lunch and where is the dinner?") none of whose words the
// recommended items use: what the programme has nothing on, said rather
// than left out.
func unanswered(in *agent.RespondInput, picks map[search.Table][]pick) []string {
	src := in.Topic
	if src == "" {
		src = asked(in.Message, in.Reading)
	}
	var out []string
	for _, n := range lexical.AskedNeeds(src) {
		if n.Own && !mentioned(n.Text, picks) {
			out = append(out, quote(n.Text))
		}
	}
	return out
}

// mentioned reports whether a picked item's title or text uses a word of need.
func mentioned(need string, picks map[search.Table][]pick) bool {
	want := terms.Stems(need)
	for _, ps := range picks {
		for _, p := range ps {
			if overlap(p.r.Title+" "+p.r.Summary+" "+p.r.Details, want, false) > 0 {
				return true
			}
		}
	}
	return false
}
