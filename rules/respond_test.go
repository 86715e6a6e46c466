package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// A topic is quoted up to where a new part of its sentence starts, as the
// attendee wrote it, and not at all when the quote would be cut at the
// word limit, left with less than two content words, or made of words the
// message does not hold unbroken.
func TestQuotableQuotesAPhraseOrNothing(t *testing.T) {
	for topic, want := range map[string]string{
		"sauna": "“sauna”",
		"make realistic fake patient datasets so researchers can use them without privacy problems": "“make realistic fake patient datasets”",
		"Two things on my list: login screens and car dashboards":                                   "what you asked for",
		"login screens sign-in across devices car dashboards driver apps android auto smart lock":   "what you asked for",
	} {
		assert.Equal(t, want, quotable(topic, topic), topic)
	}
	msg := "Can germs in swamp soil keep a little lamp going? I'd love to try that"
	assert.Equal(t, "what you asked for", quotable(msg, "germs in swamp soil keep a little lamp going try"))
	assert.Equal(t, "“Swamp Soil”", quotable("Any talks on Swamp Soil?", "swamp soil"))
}

// When nothing reaches the hedge level, an item that stands alone in a
// table the question was searched in (twice the next score, half the
// question's words) is offered, hedged; not one of a table only a
// reflection turned to, nor one with a close second.
func TestAnItemThatStandsAloneIsOfferedHedged(t *testing.T) {
	item := func(tb search.Table, id string, score float32, cover float64) search.Result {
		return search.Result{Item: search.Item{Ref: search.Ref{Table: tb, ID: id}, Title: id}, Score: score, Coverage: cover}
	}
	in := func(second float32, planned search.Table) *agent.RespondInput {
		return &agent.RespondInput{
			Calibration: search.Calibration{Threshold: 0.3, Confident: 0.6},
			FirstPlan:   []search.Query{{Table: planned, Text: "vsh or smr stock"}},
			Results: map[search.Table][]search.Result{search.Sessions: {
				item(search.Sessions, "s26", 0.42, 0.72), item(search.Sessions, "s01", second, 0.28)}},
		}
	}
	picks := choose(in(0.15, search.Sessions))
	if assert.Len(t, picks[search.Sessions], 1) {
		assert.Equal(t, "s26", picks[search.Sessions][0].r.ID)
		assert.True(t, picks[search.Sessions][0].hedged)
	}
	assert.Empty(t, choose(in(0.3, search.Sessions)), "a close second")
	assert.Empty(t, choose(in(0.15, search.Exhibitors)), "a table the question was not searched in")
}

// A speaker the question did not ask for needs half of it to be
// recommended; asked for, a third is enough.
func TestAnUnaskedSpeakerNeedsHalfTheQuestion(t *testing.T) {
	in := func(cover float64, planned search.Table) *agent.RespondInput {
		return &agent.RespondInput{
			Calibration: search.Calibration{Threshold: 0.3, Confident: 0.6},
			FirstPlan:   []search.Query{{Table: planned, Text: "gas distribution leak detection"}},
			Results: map[search.Table][]search.Result{search.Speakers: {{Item: search.Item{
				Ref: search.Ref{Table: search.Speakers, ID: "p28"}, Title: "p28"}, Score: 0.76, Coverage: cover}}},
		}
	}
	assert.Empty(t, choose(in(0.43, search.Sessions)), "a third of the question, speakers not asked for")
	assert.Len(t, choose(in(0.55, search.Sessions))[search.Speakers], 1, "half of it")
	assert.Len(t, choose(in(0.43, search.Speakers))[search.Speakers], 1, "speakers asked for")
}

// A lead that words taken from the table's own best matches gave
// (pseudo-relevance feedback) is no sign of standing out: those words lift
// the matches they came from.
func TestAFedBackLeadIsNoStandout(t *testing.T) {
	_, eng := searchtest.Demo(t)
	lex := eng.Lexicon("aidata26")
	fed := rewrite(lex, search.Sessions, "kubernetes autoscaling", nil)
	require.NotEmpty(t, fed.related, "the demo has words that co-occur with these")
	in := func(searched string) *agent.RespondInput {
		return &agent.RespondInput{
			Calibration: search.Calibration{Threshold: 0.3, Confident: 0.6},
			Lexicon:     lex,
			FirstPlan:   []search.Query{{Table: search.Sessions, Text: "kubernetes autoscaling"}},
			Queries:     []search.Query{{Table: search.Sessions, Text: searched}},
			Results: map[search.Table][]search.Result{search.Sessions: {{Item: search.Item{
				Ref: search.Ref{Table: search.Sessions, ID: "s055"}, Title: "s055"}, Score: 0.42, Coverage: 1}}},
		}
	}
	assert.Len(t, choose(in("kubernetes autoscaling"))[search.Sessions], 1, "the question's own words")
	assert.Empty(t, choose(in(fed.text)), "fed back")
}
