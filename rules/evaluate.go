package rules

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// verdict is the JSON the evaluator returns.
type verdict struct {
	Quality    float64  `json:"quality_score"`
	Confidence float64  `json:"confidence_score"`
	Issues     []string `json:"issues"`
	Hint       string   `json:"improvement_hint"`
}

// evaluate judges an answer by what it recommends against what was there to
// recommend: cited items that cover the question score well, an honest
// "nothing fits" scores fairly when nothing did fit, and an answer that
// ignores strong matches scores poorly, with a hint naming them.
// The evidence is the responder's: the question as first planned, in its
// language, within its time and place.
func evaluate(in *agent.EvalInput) verdict {
	planned := in.FirstPlan
	if len(planned) == 0 {
		planned = []search.Query{{Text: topicText(asked(in.Message, in.Reading))}}
	}
	ev := newEvidence(in.Lexicon, planned, in.Language, asked(in.Message, in.Reading))
	cited := map[string]bool{}
	for _, c := range in.Citations {
		cited[c.Key()] = true
	}
	var best []search.Result
	var covered float64
	for _, tb := range search.Tables {
		for _, r := range in.Results[tb] {
			sup := ev.support(r)
			if cited[r.Key()] {
				covered += sup
			}
			if ev.answers(r) && inFilter(in.Filter, r, nil, nil) && !cited[r.Key()] && r.Score > 0 {
				best = append(best, r)
			}
		}
	}
	slices.SortStableFunc(best, func(a, b search.Result) int { return cmp.Compare(b.Score, a.Score) })
	best = best[:min(3, len(best))] // the strongest ones the answer left out
	switch {
	case strings.TrimSpace(in.Answer) == agent.Apology || strings.TrimSpace(in.Answer) == "":
		return verdict{0.1, 0.9, []string{"no answer was produced"}, "Answer from the retrieved items, or say plainly that nothing fits."}
	case len(in.Citations) > 0:
		q := 0.5 + 0.5*covered/float64(len(in.Citations))
		return verdict{round2(q), 0.7, nil, ""}
	case len(best) > 0:
		return verdict{0.3, 0.6, []string{"the answer recommends nothing although matching items were retrieved"},
			fmt.Sprintf("Recommend %s, citing each as [collection/id].", names(best))}
	}
	return verdict{0.7, 0.6, nil, ""}
}

func names(rs []search.Result) string {
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%q [%s]", r.Title, r.Key()))
	}
	return strings.Join(out, ", ")
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// acknowledge writes one warm sentence that says where the agent will look,
// without answering yet.
func acknowledge(in *agent.AckInput) string {
	name := in.Conference.Name
	if name == "" {
		name = "the conference"
	}
	tables := routes(asked(in.Message, in.Reading))
	switch tables[0] {
	case search.Speakers:
		return fmt.Sprintf("Let me find the people at %s who know about that.", name)
	case search.Exhibitors:
		return fmt.Sprintf("Let me check which exhibitors at %s can help with that.", name)
	}
	return fmt.Sprintf("Let me look through the %s programme for that.", name)
}
