package rules_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/searchtest"
)

func demoEngine(t testing.TB) *search.Engine {
	_, eng := searchtest.Demo(t)
	return eng
}

var demo = agent.Conference{ID: "aidata26", Name: "Applied AI & Data Infrastructure Summit 2026"}

type planOut struct {
	Intent  string         `json:"intent"`
	Queries []search.Query `json:"queries"`
}

func TestPlannerRoutesByCues(t *testing.T) {
	eng := demoEngine(t)
	tests := []struct {
		msg    string
		tables []search.Table
		modes  []search.Mode
		text   string
	}{
		{"Who can help me deploy ML models on-prem?", []search.Table{search.Speakers}, []search.Mode{search.Faceted}, "deploy ML models on-prem"},
		{"Any workshops on Kubernetes?", []search.Table{search.Sessions}, []search.Mode{search.Faceted}, "Kubernetes"},
		{"I'm a data engineer at a bank and I want to learn how to test data pipelines", []search.Table{search.Sessions}, []search.Mode{search.Faceted}, "test data pipelines"},
		{"Which vendor sells annotation services?", []search.Table{search.Exhibitors}, []search.Mode{search.Faceted}, "annotation services"},
		{"I need help with cloud costs", []search.Table{search.Exhibitors}, []search.Mode{search.Faceted}, "cloud costs"},
		{"Who gives a talk about fraud?", []search.Table{search.Sessions, search.Speakers}, []search.Mode{search.Faceted, search.Faceted}, "fraud"},
		{"Where is the Harbourline Inference booth?", []search.Table{search.Exhibitors}, []search.Mode{search.Master}, "Harbourline Inference"},
		{"quantization", []search.Table{search.Sessions}, []search.Mode{search.Faceted}, "quantization"},
	}
	for _, tc := range tests {
		t.Run(tc.msg, func(t *testing.T) {
			in := &agent.PlanInput{Message: tc.msg, Conference: demo, Mentions: eng.Lexicon("aidata26").Mentions(tc.msg), MaxQueries: 5}
			comp, err := rules.New().Complete(context.Background(), agent.Call{Step: agent.StepPlan, Plan: in})
			if err != nil {
				t.Fatal(err)
			}
			var p planOut
			if err := json.Unmarshal([]byte(comp.Text), &p); err != nil {
				t.Fatalf("plan is not JSON: %v\n%s", err, comp.Text)
			}
			var tables []search.Table
			var modes []search.Mode
			for _, q := range p.Queries {
				tables, modes = append(tables, q.Table), append(modes, q.Mode)
			}
			if !slices.Equal(tables, tc.tables) || !slices.Equal(modes, tc.modes) || p.Queries[0].Text != tc.text {
				t.Fatalf("plan %+v, want tables %v modes %v text %q", p.Queries, tc.tables, tc.modes, tc.text)
			}
		})
	}
}

// reflectOn runs a real first search for q and asks the reflector about it.
func reflectOn(t *testing.T, eng *search.Engine, msg string, q search.Query) map[string]any {
	t.Helper()
	ctx := context.Background()
	q = eng.Resolve(q)
	rs, err := eng.Search(ctx, "aidata26", q)
	if err != nil {
		t.Fatal(err)
	}
	cal := eng.Calibration()
	sum := agent.TableSummary{Table: q.Table, Count: len(rs), Outcome: agent.Empty}
	if len(rs) > 0 {
		sum.TopScore, sum.Outcome = rs[0].Score, agent.Weak
	}
	in := &agent.ReflectInput{Message: msg, Conference: demo, Plan: []search.Query{q}, Tables: []agent.TableSummary{sum},
		Tried: []search.Query{q}, Calibration: cal, Lexicon: eng.Lexicon("aidata26")}
	if sum.Outcome == agent.Empty {
		in.ZeroTables = []search.Table{q.Table}
	} else {
		in.WeakTables = []search.Table{q.Table}
	}
	zero := float32(0)
	for _, tb := range search.Tables {
		mode := search.Faceted
		if tb == q.Table {
			mode = search.Master
		}
		p := agent.Probe{Text: q.Text, Table: tb, Mode: mode}
		if prs, _ := eng.Search(ctx, "aidata26", search.Query{Table: tb, Mode: mode, Text: q.Text, Limit: 3, Threshold: &zero}); len(prs) > 0 {
			p.TopScore = prs[0].Score
		}
		in.Probes = append(in.Probes, p)
	}
	comp, err := rules.New().Complete(ctx, agent.Call{Step: agent.StepReflect, Reflect: in})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := agent.ParseDecision(comp.Text); err != nil {
		t.Fatalf("the builtin decision fails validation: %v\n%s", err, comp.Text)
	}
	var d map[string]any
	_ = json.Unmarshal([]byte(comp.Text), &d)
	return d
}

func TestReflectorChoosesWithEvidence(t *testing.T) {
	eng := demoEngine(t)
	tests := []struct {
		name     string
		msg      string
		q        search.Query
		strategy string
		wantText string // in the new query text
		table    string
	}{
		{"abbreviation → rewrite", "k8s talks?", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "k8s"}, "rewrite", "kubernetes", "sessions"},
		{"unknown word → rewrite without it", "sessions on kubernetes quokkas", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "kubernetes quokkas"}, "rewrite", "kubernetes", "sessions"},
		{"jargon and a service need → rewrite, also among exhibitors", "Who can help me deploy ML models on-prem?", search.Query{Table: search.Speakers, Mode: search.Faceted, Text: "deploy ml models on-prem"}, "rewrite", "on-premises", "exhibitors"},
		{"service need → pivot", "Who sells model monitoring?", search.Query{Table: search.Speakers, Mode: search.Faceted, Text: "model monitoring"}, "pivot", "model monitoring", "exhibitors"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := reflectOn(t, eng, tc.msg, tc.q)
			found := false
			for _, x := range d["new_queries"].([]any) {
				q := x.(map[string]any)
				found = found || (strings.Contains(q["query_text"].(string), tc.wantText) && q["table"] == tc.table)
			}
			if d["strategy"] != tc.strategy || !found {
				t.Fatalf("decision %v, want %s with a query on %s with %q", d, tc.strategy, tc.table, tc.wantText)
			}
			note := d["user_message"].(string)
			if note == "" || strings.Contains(note, "threshold") || strings.Contains(note, "faceted") {
				t.Fatalf("note %q is not plain", note)
			}
		})
	}
}

// handMade is reflect input with controlled evidence: sessions came back
// weak (0.45: between the threshold and the confidence band) for known
// words and no probe does better.
func handMade(eng *search.Engine, tried ...search.Query) *agent.ReflectInput {
	cal := eng.Calibration()
	q := eng.Resolve(search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "data quality checks"})
	in := &agent.ReflectInput{Message: "data quality checks", Conference: demo, Plan: []search.Query{q},
		Tables:     []agent.TableSummary{{Table: search.Sessions, Outcome: agent.Weak, Count: 4, TopScore: 0.45}},
		WeakTables: []search.Table{search.Sessions}, Tried: append([]search.Query{q}, tried...), Calibration: cal, Lexicon: eng.Lexicon("aidata26"),
		Probes: []agent.Probe{{Text: q.Text, Table: search.Exhibitors, Mode: search.Faceted, TopScore: 0.15},
			{Text: q.Text, Table: search.Speakers, Mode: search.Faceted, TopScore: 0.18},
			{Text: q.Text, Table: search.Sessions, Mode: search.Master, TopScore: 0.46}}}
	return in
}

func decide(t *testing.T, in *agent.ReflectInput) *agent.Decision {
	t.Helper()
	comp, err := rules.New().Complete(context.Background(), agent.Call{Step: agent.StepReflect, Reflect: in})
	if err != nil {
		t.Fatal(err)
	}
	d, err := agent.ParseDecision(comp.Text)
	if err != nil {
		t.Fatalf("invalid builtin decision: %v\n%s", err, comp.Text)
	}
	return d
}

// TestReflectorFollowsWhatWorkedBefore: with a remembered rewrite that
// recovered a similar failure, the builtin reflector tries it first and
// says so; a remembered rewrite already tried is passed over.
func TestReflectorFollowsWhatWorkedBefore(t *testing.T) {
	eng := demoEngine(t)
	in := handMade(eng)
	lesson := memory.Recalled{Similarity: 0.8, Lesson: memory.Lesson{ID: "l1", Text: "data quality tests", Strategy: "rewrite", Recovered: true,
		Queries: []search.Query{{Table: search.Sessions, Mode: search.Faceted, Text: "data validation", Limit: 10}}}}
	in.Memory = []memory.Recalled{lesson}
	d := decide(t, in)
	if d.Strategy != agent.Rewrite || d.NewQueries[0].Text != "data validation" || !slices.Equal(d.Recalled, []string{"l1"}) || !strings.Contains(d.Reasoning, "recovered before") {
		t.Fatalf("with a remembered rewrite: %+v", d)
	}
	in = handMade(eng, eng.Resolve(search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "data validation"}))
	in.Memory = []memory.Recalled{lesson}
	if d := decide(t, in); len(d.Recalled) != 0 {
		t.Fatalf("a remembered rewrite already tried was followed again: %+v", d)
	}
}

func TestReflectorRelaxesKnownWordsThenSwitchesMode(t *testing.T) {
	eng := demoEngine(t)
	d := decide(t, handMade(eng))
	q := d.NewQueries[0]
	if d.Strategy != agent.Relax || q.Table != search.Sessions || q.Mode != search.Faceted || q.Text != "data quality checks" || q.Threshold != nil {
		t.Fatalf("weak known words: %+v, want relax with the same wording and no threshold of its own", d)
	}
	loosest := eng.Calibration().Loosest
	d = decide(t, handMade(eng, search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "data quality checks", Limit: 20, Threshold: &loosest}))
	if q := d.NewQueries[0]; d.Strategy != agent.Relax || q.Mode != search.Master || *q.Threshold != loosest {
		t.Fatalf("after the loosest faceted search: %+v, want relax in master mode at the loosest level", d)
	}
}

func TestResponderCitesOnlyWhatFits(t *testing.T) {
	eng := demoEngine(t)
	ctx := context.Background()
	ask := func(msg string, q search.Query) (string, []string) {
		rs, _ := eng.Search(ctx, "aidata26", eng.Resolve(q))
		in := &agent.RespondInput{Message: msg, Conference: demo, Results: map[search.Table][]search.Result{q.Table: rs},
			Tables: []agent.TableStatus{{Table: q.Table}}, Queries: []search.Query{q}, Calibration: eng.Calibration(), Lexicon: eng.Lexicon("aidata26")}
		var streamed strings.Builder
		comp, err := rules.New().Complete(ctx, agent.Call{Step: agent.StepRespond, Respond: in, Stream: func(s string) { streamed.WriteString(s) }})
		if err != nil || streamed.String() != comp.Text {
			t.Fatalf("respond: err %v, streamed text differs from the reply", err)
		}
		var cited []string
		for _, f := range strings.Fields(comp.Text) {
			if strings.HasPrefix(f, "[") && strings.Contains(f, "/") {
				cited = append(cited, strings.Trim(f, "[]."))
			}
		}
		return comp.Text, cited
	}
	text, cited := ask("retrieval-augmented generation", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "retrieval-augmented generation"})
	if !slices.Contains(cited, "sessions/s006") || len(cited) > 3 || !strings.Contains(text, "matches on") {
		t.Fatalf("answer for a strong match:\n%s\ncited %v", text, cited)
	}
	text, cited = ask("Is there a sauna?", search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "sauna"})
	if len(cited) != 0 || !strings.Contains(text, "couldn't find anything") {
		t.Fatalf("answer for nothing relevant cites %v:\n%s", cited, text)
	}
}

// TestResponderSaysWhichSearchFailed: a table whose search failed is said
// to be unavailable, never "nothing found", and the others still answer.
func TestResponderSaysWhichSearchFailed(t *testing.T) {
	eng := demoEngine(t)
	ctx := context.Background()
	q := eng.Resolve(search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "retrieval-augmented generation"})
	rs, _ := eng.Search(ctx, "aidata26", q)
	in := &agent.RespondInput{Message: "retrieval-augmented generation", Conference: demo,
		Results: map[search.Table][]search.Result{search.Sessions: rs},
		Tables:  []agent.TableStatus{{Table: search.Sessions, Outcome: agent.OK}, {Table: search.Exhibitors, Outcome: agent.Unavailable}},
		Queries: []search.Query{q}, Calibration: eng.Calibration(), Lexicon: eng.Lexicon("aidata26")}
	comp, err := rules.New().Complete(ctx, agent.Call{Step: agent.StepRespond, Respond: in})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(comp.Text, "[sessions/s006]") || !strings.Contains(comp.Text, "couldn't search the exhibitors") ||
		strings.Contains(comp.Text, "no exhibitors") {
		t.Fatalf("answer with exhibitors unavailable:\n%s", comp.Text)
	}
}

func TestUnknownStepIsAnError(t *testing.T) {
	if _, err := rules.New().Complete(context.Background(), agent.Call{Step: "bogus"}); err == nil {
		t.Fatal("the builtin model accepted a step it has no rules for")
	}
}

func TestEvaluatorJudgesWhatTheAnswerRecommends(t *testing.T) {
	eng := demoEngine(t)
	ctx := context.Background()
	rs, _ := eng.Search(ctx, "aidata26", eng.Resolve(search.Query{Table: search.Sessions, Mode: search.Faceted, Text: "retrieval-augmented generation"}))
	results := map[search.Table][]search.Result{search.Sessions: rs}
	judge := func(answer string, cited []agent.Citation) *agent.Evaluation {
		in := &agent.EvalInput{Message: "retrieval-augmented generation", Conference: demo, Results: results, Answer: answer, Citations: cited, Lexicon: eng.Lexicon("aidata26")}
		comp, err := rules.New().Complete(ctx, agent.Call{Step: agent.StepEval, Eval: in})
		if err != nil {
			t.Fatal(err)
		}
		ev, err := agent.ParseEvaluation(comp.Text)
		if err != nil {
			t.Fatalf("builtin evaluation is invalid: %v", err)
		}
		return ev
	}
	good := judge("See [sessions/s006].", []agent.Citation{{Collection: search.Sessions, ID: "s006"}})
	ignored := judge("I found nothing.", nil)
	apology := judge(agent.Apology, nil)
	if good.QualityScore < 0.7 || ignored.QualityScore >= 0.4 || apology.QualityScore >= 0.4 {
		t.Fatalf("quality: good %.2f, ignored matches %.2f, apology %.2f", good.QualityScore, ignored.QualityScore, apology.QualityScore)
	}
	if !strings.Contains(ignored.ImprovementHint, "[sessions/s006]") {
		t.Fatalf("the hint does not name the missed item: %q", ignored.ImprovementHint)
	}
}

func TestAcknowledgmentDoesNotAnswer(t *testing.T) {
	for msg, want := range map[string]string{"Who works on fraud?": "people", "Which vendor sells labelling?": "exhibitors", "kubernetes talks": "programme"} {
		comp, err := rules.New().Complete(context.Background(), agent.Call{Step: agent.StepAck, Ack: &agent.AckInput{Message: msg, Conference: demo}})
		if err != nil || !strings.Contains(comp.Text, want) || strings.Contains(comp.Text, "[") {
			t.Fatalf("%q → %q, %v", msg, comp.Text, err)
		}
	}
}

// In a conference of one session every word is in every document; the
// answer must still recommend the session that matches.
func TestOneSessionConferenceIsAnswered(t *testing.T) {
	b, err := conference.Parse("tiny.json", []byte(`{"conferences":[{"id":"tiny","name":"Tiny Days"}],
		"sessions":[{"id":"t1","conference_id":"tiny","title":"Zorblaxian beekeeping telemetry",
		"description":"Sensors in Zorblaxian beehives report hive temperature and swarming telemetry.","format":"talk"}]}`),
	)
	if err != nil {
		t.Fatal(err)
	}
	eng := searchtest.Engine(t, b)
	a := agent.New(rules.New(), eng, agent.Options{})
	st, err := a.Run(context.Background(), agent.Request{Message: "Any talk on Zorblaxian beekeeping telemetry?", Conference: agent.Conference{ID: "tiny", Name: "Tiny Days"}}, nil)
	if err != nil || !strings.Contains(st.ResponseText, "[sessions/t1]") {
		t.Fatalf("answer %q (%v); want it to cite sessions/t1", st.ResponseText, err)
	}
}
