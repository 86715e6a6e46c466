package rules

import (
	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/lexical"
)

// noPrices is said when a question asks what something costs and nothing
// found gives an amount.
const noPrices = "The programme doesn't give prices, so I can't tell you what it costs; the organisers or the registration desk can.\n"

// priceUnstated reports whether the question asks what something costs
// and no item picked states an amount: then the answer says so, and a
// closest match on the thing's other words ("a day ticket" → the
// registration desk) is not offered as the answer.
func priceUnstated(in *agent.RespondInput, picks map[search.Table][]pick) bool {
	if !lexical.AsksPrice(asked(in.Message, in.Reading)) {
		return false
	}
	for _, ps := range picks {
		for _, p := range ps {
			texts := p.r.Sentences // the summary's among them
			if len(texts) == 0 {
				texts = []string{p.r.Summary}
			}
			for _, s := range texts {
				if lexical.StatesPrice(s) {
					return false
				}
			}
		}
	}
	return true
}

// onlyHedged reports whether every pick is a hedged closest match (or there
// are none).
func onlyHedged(picks map[search.Table][]pick) bool {
	for _, ps := range picks {
		for _, p := range ps {
			if !p.hedged {
				return false
			}
		}
	}
	return true
}
