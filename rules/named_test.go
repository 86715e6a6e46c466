package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
)

// A speaker the question names by name is recommended when a search found
// them, however low their biography scored; one only named by a word of
// the question is not.
func TestASpeakerNamedIsRecommended(t *testing.T) {
	b, err := conference.Parse("n.json", []byte(`{"conferences":[{"id":"c","name":"C","timezone":"UTC"}],
	 "sessions":[{"id":"s1","conference_id":"c","title":"Breaches we survived","speaker_ids":["p1"]}],
	 "exhibitors":[],
	 "speakers":[{"id":"p1","conference_id":"c","name":"Dr Priya Ramanathan","bio":"Leads security.","session_ids":["s1"]}]}`))
	require.NoError(t, err)
	p1 := search.Result{Item: search.Item{Ref: search.Ref{Conference: "c", Table: search.Speakers, ID: "p1"}, Title: "Dr Priya Ramanathan"}, Score: 0.2}
	in := func(msg string) *agent.RespondInput {
		return &agent.RespondInput{Message: msg, Lexicon: search.NewLexicon(b), Calibration: search.Calibration{Threshold: 0.3, Confident: 0.6},
			FirstPlan: []search.Query{{Table: search.Speakers, Text: "Dr Priya Ramanathan"}},
			Results:   map[search.Table][]search.Result{search.Speakers: {p1}}}
	}
	picks := choose(in("who is priya ramanathan"))
	if assert.Len(t, picks[search.Speakers], 1) {
		assert.False(t, picks[search.Speakers][0].hedged)
	}
	assert.Empty(t, choose(in("who leads security here"))[search.Speakers])
}

// An exhibitor looked up beside the talks is recommended only beside a
// talk recommended sure, in the confidence band, and one at most.
func TestCompanionsOnlyBesideSureTalks(t *testing.T) {
	ref := func(tb search.Table, id string) search.Ref { return search.Ref{Conference: "c", Table: tb, ID: id} }
	talk := search.Result{Item: search.Item{Ref: ref(search.Sessions, "s1"), Title: "t"}, Score: 0.9}
	e1 := search.Result{Item: search.Item{Ref: ref(search.Exhibitors, "e1"), Title: "e1"}, Score: 0.85}
	e2 := search.Result{Item: search.Item{Ref: ref(search.Exhibitors, "e2"), Title: "e2"}, Score: 0.8}
	low := search.Result{Item: search.Item{Ref: ref(search.Exhibitors, "e3"), Title: "e3"}, Score: 0.5}
	in := &agent.RespondInput{Calibration: search.Calibration{Threshold: 0.3, Confident: 0.6}, Companions: []search.Result{low, e1, e2}}
	fits := func(search.Result) bool { return true }
	picks := map[search.Table][]pick{search.Sessions: {{r: talk}}}
	withCompanions(in, picks, 0.9, fits)
	if assert.Len(t, picks[search.Exhibitors], 1) {
		assert.Equal(t, "e1", picks[search.Exhibitors][0].r.ID)
	}
	hedgedOnly := map[search.Table][]pick{search.Sessions: {{r: talk, hedged: true}}}
	withCompanions(in, hedgedOnly, 0.9, fits)
	assert.Empty(t, hedgedOnly[search.Exhibitors])
}
