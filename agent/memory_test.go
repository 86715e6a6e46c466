package agent_test

import (
	"context"
	"testing"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
)

// bankOf is a memory holding lessons learnt from turns.
func bankOf(t *testing.T) *memory.Bank {
	t.Helper()
	b, err := memory.Open(context.Background(), nil, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestMemoryTurnsALessonIntoTheFirstPlan: a turn whose rewrite recovered
// leaves a lesson; the next turn with the same failure searches the
// rewrite at once and needs no reflection round.
func TestMemoryTurnsALessonIntoTheFirstPlan(t *testing.T) {
	bank := bankOf(t)
	decision := `{"reasoning":"k8s is jargon","strategy":"rewrite","user_message":"Trying the programme's word.","new_queries":[{"table":"sessions","query_text":"kubernetes"}]}`
	results := func(q search.Query) []search.Result {
		if q.Text == "kubernetes" {
			return []search.Result{result(search.Sessions, "s1", 0.6)}
		}
		return weakEverywhere(q)
	}
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	a := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Memory: bank, Now: fixedClock()})
	first, err := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
	if err != nil || first.Attempts != 2 {
		t.Fatalf("first turn: %v, %d attempts", err, first.Attempts)
	}
	lessons := a.Lessons(first)
	if len(lessons) != 1 || !lessons[0].Recovered || lessons[0].Strategy != "rewrite" || lessons[0].Text != "k8s" || lessons[0].Importance <= 0.5 {
		t.Fatalf("lessons %+v, want one recovered rewrite of k8s", lessons)
	}
	if err := bank.Remember(context.Background(), lessons); err != nil {
		t.Fatal(err)
	}
	second, err := a.Run(context.Background(), agent.Request{Message: "any k8s talks", Conference: conf1}, nil)
	if err != nil || second.Attempts != 1 || len(second.Recalled) != 1 || second.Recalled[0].Step != agent.StepPlan {
		t.Fatalf("second turn: %v, %d attempts, recalled %+v; want the lesson in the first plan", err, second.Attempts, second.Recalled)
	}
	if second.OriginalPlannedQueries[0].Text != "k8s" || len(second.OriginalPlannedQueries) != 1 {
		t.Fatalf("the original plan changed: %+v", second.OriginalPlannedQueries)
	}
	// Memory off: the same turn as before memory existed.
	off, _ := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Now: fixedClock()}).
		Run(context.Background(), agent.Request{Message: "any k8s talks", Conference: conf1}, nil)
	if off.Attempts != 2 || len(off.Recalled) != 0 {
		t.Fatalf("memory off: %d attempts, recalled %+v", off.Attempts, off.Recalled)
	}
}

// TestMemorySkipsRoundsThatNeverHelped: when similar failures of a table
// were retried before and none recovered, the table is not retried.
func TestMemorySkipsRoundsThatNeverHelped(t *testing.T) {
	bank := bankOf(t)
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	a := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{Memory: bank, MaxRetries: 1, Now: fixedClock()})
	first, _ := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
	lessons := a.Lessons(first)
	if first.Attempts != 2 || len(lessons) != 1 || lessons[0].Recovered {
		t.Fatalf("first turn: %d attempts, lessons %+v; want one round that did not recover", first.Attempts, lessons)
	}
	_ = bank.Remember(context.Background(), lessons)
	second, _ := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
	if second.Attempts != 1 || len(second.Reflections) != 0 || len(second.Recalled) != 1 || second.Recalled[0].Step != agent.StepCheck {
		t.Fatalf("second turn: %d attempts, %d rounds, recalled %+v; want no hopeless round", second.Attempts, len(second.Reflections), second.Recalled)
	}
}
