package agent_test

import (
	"fmt"
	"strings"
	"testing"

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
	if st.PlanSource != agent.FromModel || st.Reflections[0].Source != agent.FromModel {
		t.Fatalf("plan from %s, decision from %s (rejections %+v); want both from the model", st.PlanSource, st.Reflections[0].Source, st.Rejections)
	}
	if len(st.Rejections) != 0 || m.count(agent.StepPlan) != 1 || m.count(agent.StepReflect) != 1 {
		t.Fatalf("a repair was spent on a good reply: rejections %+v", st.Rejections)
	}
	got := fmt.Sprint(st.IgnoredKeys)
	want := fmt.Sprint([]agent.IgnoredKeys{
		{Step: agent.StepPlan, Keys: []string{"confidence", "queries[0].relaxation", "query_mode"}},
		{Step: agent.StepReflect, Keys: []string{"confidence"}},
	})
	if got != want {
		t.Fatalf("ignored keys = %s, want %s", got, want)
	}
}

// TestPrototypeFieldNamesAreAccepted: the prototype's names for a plan's
// and a decision's fields are aliases of ours.
func TestPrototypeFieldNamesAreAccepted(t *testing.T) {
	plan := `{"intent":"x","planned_queries":[{"table":"speakers","search_mode":"master","query_text":"Ada","limit":5}]}`
	decision := `{"reasoning":"r","strategy":"pivot","message":"Looking at the exhibitors too.",
	  "planned_queries":[{"table":"exhibitors","search_mode":"faceted","query_text":"model serving","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {plan}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "who serves models?")
	if st.PlanSource != agent.FromModel || st.OriginalPlannedQueries[0].Table != search.Speakers {
		t.Fatalf("plan %+v from %s, want the speakers query from the model", st.OriginalPlannedQueries, st.PlanSource)
	}
	r := st.Reflections[0]
	if r.Source != agent.FromModel || r.Strategy != agent.Pivot || r.Queries[0].Table != search.Exhibitors {
		t.Fatalf("reflection %+v, want the model's pivot to exhibitors", r)
	}
	if st.ThinkingUpdates[0].Message != "Looking at the exhibitors too." {
		t.Fatalf("note %q, want the decision's message", st.ThinkingUpdates[0].Message)
	}
	d, err := agent.ParseDecision(`{"reasoning":"r","strategy":"relax","user_message":"a","message":"b","new_queries":[{"table":"sessions","query_text":"x"}]}`)
	if err != nil || d.UserMessage != "a" || fmt.Sprint(d.IgnoredKeys) != "[message]" {
		t.Fatalf("alias beside our own name: %+v, %v; want ours kept and the alias ignored", d, err)
	}
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
	if st.PlanSource != agent.FromRepair || st.Reflections[0].Source != agent.FromMechanical {
		t.Fatalf("plan from %s, reflection from %s; want repaired and mechanical", st.PlanSource, st.Reflections[0].Source)
	}
	var got []string
	for _, r := range st.Rejections {
		if r.Detail == "" || r.Model != "scripted" {
			t.Fatalf("rejection without detail or model: %+v", r)
		}
		got = append(got, string(r.Step)+":"+r.Check)
	}
	want := "plan_queries:tables_and_modes plan_queries:limits reflect_and_replan:well_formed reflect_and_replan:strategy"
	if strings.Join(got, " ") != want {
		t.Fatalf("rejections %v, want %s", got, want)
	}
	if !strings.Contains(st.Rejections[1].Detail, "queries[0]") {
		t.Fatalf("dropped query not named: %+v", st.Rejections[1])
	}
}
