package agent_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// TestExtraKeysAreIgnoredAndListed: a good reply with keys the agent does
// not know (the prototype's query_mode, a confidence, a query's
// relaxation) is used, and the trace lists what was ignored.
func TestExtraKeysAreIgnoredAndListed(t *testing.T) {
	plan := `{"intent":"find sessions","query_mode":"hybrid","confidence":0.9,
	  "queries":[{"table":"sessions","search_mode":"faceted","query_text":"k8s","limit":10,"relaxation":"none"}]}`
	decision := `{"reasoning":"k8s is jargon","strategy":"rewrite","user_message":"Trying the programme's word for it.","confidence":0.7,
	  "new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {plan}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "k8s talks?")
	require.Equal(t, agent.FromModel, st.PlanSource, "plan source (rejections %+v); want it from the model", st.Rejections)
	require.NotEmpty(t, st.Reflections, "reflections")
	require.Equal(t, agent.FromModel, st.Reflections[0].Source, "decision source (rejections %+v); want it from the model", st.Rejections)
	require.Empty(t, st.Rejections, "a repair was spent on a good reply")
	require.Equal(t, 1, m.count(agent.StepPlan), "a repair was spent on a good reply: rejections %+v", st.Rejections)
	require.Equal(t, 1, m.count(agent.StepReflect), "a repair was spent on a good reply: rejections %+v", st.Rejections)
	got := fmt.Sprint(st.IgnoredKeys)
	want := fmt.Sprint([]agent.IgnoredKeys{
		{Step: agent.StepPlan, Keys: []string{"confidence", "queries[0].relaxation", "query_mode"}},
		{Step: agent.StepReflect, Keys: []string{"confidence"}},
	})
	assert.Equal(t, want, got, "ignored keys")
}

// TestPrototypeFieldNamesAreAccepted: the prototype's names for a plan's
// and a decision's fields are aliases of ours.
func TestPrototypeFieldNamesAreAccepted(t *testing.T) {
	plan := `{"intent":"x","planned_queries":[{"table":"speakers","search_mode":"master","query_text":"Ada","limit":5}]}`
	decision := `{"reasoning":"r","strategy":"pivot","message":"Looking at the exhibitors too.",
	  "planned_queries":[{"table":"exhibitors","search_mode":"faceted","query_text":"model serving","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {plan}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "who serves models?")
	const speakers = "plan %+v from %s, want the speakers query from the model"
	require.Equal(t, agent.FromModel, st.PlanSource, speakers, st.OriginalPlannedQueries, st.PlanSource)
	require.NotEmpty(t, st.OriginalPlannedQueries, speakers, st.OriginalPlannedQueries, st.PlanSource)
	require.Equal(t, search.Speakers, st.OriginalPlannedQueries[0].Table, speakers, st.OriginalPlannedQueries, st.PlanSource)
	require.NotEmpty(t, st.Reflections, "reflections")
	r := st.Reflections[0]
	const pivot = "reflection %+v, want the model's pivot to exhibitors"
	require.Equal(t, agent.FromModel, r.Source, pivot, r)
	require.Equal(t, agent.Pivot, r.Strategy, pivot, r)
	require.NotEmpty(t, r.Queries, pivot, r)
	require.Equal(t, search.Exhibitors, r.Queries[0].Table, pivot, r)
	require.NotEmpty(t, st.ThinkingUpdates, "thinking records")
	require.Equal(t, "Looking at the exhibitors too.", st.ThinkingUpdates[0].Message, "note, want the decision's message")
	d, err := agent.ParseDecision(`{"reasoning":"r","strategy":"relax","user_message":"a","message":"b","new_queries":[{"table":"sessions","query_text":"x"}]}`)
	const alias = "alias beside our own name: %+v; want ours kept and the alias ignored"
	require.NoError(t, err, "alias beside our own name")
	assert.Equal(t, "a", d.UserMessage, alias, d)
	assert.Equal(t, "[message]", fmt.Sprint(d.IgnoredKeys), alias, d)
}

// TestEveryRejectionIsRecorded: a rejected reply is in the trace with its
// check and detail, whether the repair then worked or the fallback
// answered, and so are the queries a plan lost.
func TestEveryRejectionIsRecorded(t *testing.T) {
	badTable := `{"intent":"x","queries":[{"table":"users","query_text":"a"}]}`
	partial := `{"intent":"x","queries":[{"table":"sessions","query_text":"k8s","limit":900,"score_threshold":3},{"table":"speakers","query_text":"ada"}]}`
	noStrategy := `{"reasoning":"r","strategy":"guess","user_message":"m","new_queries":[{"table":"sessions","query_text":"x"}]}`
	m := &scripted{replies: map[agent.Step][]string{
		agent.StepPlan:    {badTable, partial},
		agent.StepReflect: {"no json here", noStrategy},
		agent.StepRespond: {"ok"},
	}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "k8s talks?")
	require.Equal(t, agent.FromRepair, st.PlanSource, "plan source; want repaired")
	require.NotEmpty(t, st.Reflections, "reflections")
	require.Equal(t, agent.FromMechanical, st.Reflections[0].Source, "reflection source; want mechanical")
	var got []string
	for _, r := range st.Rejections {
		require.NotEmpty(t, r.Detail, "rejection without detail: %+v", r)
		require.Equal(t, "scripted", r.Model, "rejection without model: %+v", r)
		got = append(got, string(r.Step)+":"+r.Check)
	}
	want := "plan_queries:tables_and_modes plan_queries:limits reflect_and_replan:well_formed reflect_and_replan:strategy"
	require.Equal(t, want, strings.Join(got, " "), "rejections")
	assert.Contains(t, st.Rejections[1].Detail, "queries[0]", "dropped query not named: %+v", st.Rejections[1])
}
