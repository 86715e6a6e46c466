package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

func TestPlanIsValidatedAndClamped(t *testing.T) {
	tests := []struct {
		name       string
		reply      string
		wantSource agent.Source
		wantTables []search.Table
		wantLimits []int
	}{
		{"valid plan", `{"intent":"x","queries":[{"table":"speakers","search_mode":"master","query_text":"Ada","limit":5}]}`,
			agent.FromModel, []search.Table{search.Speakers}, []int{5}},
		{"code fence tolerated", "```json\n" + planSessions + "\n```", agent.FromModel, []search.Table{search.Sessions}, []int{10}},
		{"limits clamped and defaulted", `{"intent":"x","queries":[{"table":"sessions","search_mode":"faceted","query_text":"a","limit":500},{"table":"exhibitors","query_text":"b"}]}`,
			agent.FromModel, []search.Table{search.Sessions, search.Exhibitors}, []int{25, 10}},
		{"invalid queries dropped", `{"intent":"x","queries":[{"table":"users","search_mode":"faceted","query_text":"a"},{"table":"sessions","search_mode":"hybrid","query_text":"a"},{"table":"sessions","query_text":"  "},{"table":"speakers","query_text":"ok"}]}`,
			agent.FromModel, []search.Table{search.Speakers}, []int{10}},
		{"at most five queries", `{"intent":"x","queries":[` + strings.Repeat(`{"table":"sessions","query_text":"a"},`, 0) +
			`{"table":"sessions","query_text":"a"},{"table":"sessions","query_text":"b"},{"table":"sessions","query_text":"c"},{"table":"sessions","query_text":"d"},{"table":"sessions","query_text":"e"},{"table":"sessions","query_text":"f"},{"table":"sessions","query_text":"g"}]}`,
			agent.FromModel, []search.Table{search.Sessions, search.Sessions, search.Sessions, search.Sessions, search.Sessions}, []int{10, 10, 10, 10, 10}},
		{"nothing valid → default plan", `{"intent":"x","queries":[{"table":"users","query_text":"a"}]}`,
			agent.FromMechanical, search.Tables, []int{10, 10, 10}},
		{"not JSON → default plan", `I think you should search sessions`, agent.FromMechanical, search.Tables, []int{10, 10, 10}},
		{"unknown field → default plan", `{"intent":"x","queries":[],"sql":"drop"}`, agent.FromMechanical, search.Tables, []int{10, 10, 10}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {tc.reply}, agent.StepRespond: {"ok"}}}
			s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result { return []search.Result{result(q.Table, "x", 0.9)} }}
			st, _ := run(t, m, s, agent.Options{}, "what about kubernetes?")
			if st.PlanSource != tc.wantSource {
				t.Fatalf("plan source = %s (rejected: %s), want %s", st.PlanSource, st.PlanRejected, tc.wantSource)
			}
			if (tc.wantSource == agent.FromMechanical) != (st.PlanRejected != "") {
				t.Fatalf("plan_rejected = %q for source %s", st.PlanRejected, st.PlanSource)
			}
			var tables []search.Table
			var limits []int
			for _, q := range st.OriginalPlannedQueries {
				tables, limits = append(tables, q.Table), append(limits, q.Limit)
				if q.Threshold == nil || *q.Threshold != cal.Threshold {
					t.Fatalf("query %+v: threshold not resolved to the embedder default", q)
				}
			}
			if fmt.Sprint(tables) != fmt.Sprint(tc.wantTables) || fmt.Sprint(limits) != fmt.Sprint(tc.wantLimits) {
				t.Fatalf("plan tables %v limits %v, want %v %v", tables, limits, tc.wantTables, tc.wantLimits)
			}
		})
	}
}

// TestInvalidDecisionFallsBackToTheLadder sends one decision failing each
// validation check, in order, and expects the mechanical ladder instead,
// with the failed check recorded in the reflection history.
func TestInvalidDecisionFallsBackToTheLadder(t *testing.T) {
	good := `{"reasoning":"r","strategy":"rewrite","user_message":"Trying Kubernetes.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes","limit":10}]}`
	tests := []struct{ check, reply string }{
		{agent.CheckPresent, "   "},
		{agent.CheckWellFormed, `{"reasoning": "r", "strategy": `},
		{agent.CheckWellFormed, `["not", "an", "object"]`},
		{agent.CheckRequired, strings.Replace(good, `"user_message":"Trying Kubernetes.",`, "", 1)},
		{agent.CheckRequired, strings.Replace(good, `"reasoning":"r"`, `"reasoning":""`, 1)},
		{agent.CheckRequired, `{"reasoning":"r","strategy":"rewrite","user_message":"m","new_queries":[]}`},
		{agent.CheckStrategy, strings.Replace(good, `"rewrite"`, `"escalate"`, 1)},
		{agent.CheckTables, strings.Replace(good, `"table":"sessions"`, `"table":"directus_users"`, 1)},
		{agent.CheckTables, strings.Replace(good, `"search_mode":"faceted"`, `"search_mode":"sql"`, 1)},
		{agent.CheckLimits, strings.Replace(good, `"limit":10`, `"limit":500`, 1)},
		{agent.CheckLimits, strings.Replace(good, `"limit":10`, `"limit":10,"score_threshold":7`, 1)},
		{agent.CheckQueryText, strings.Replace(good, `"query_text":"kubernetes"`, `"query_text":"   "`, 1)},
	}
	for _, tc := range tests {
		t.Run(tc.check, func(t *testing.T) {
			m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {tc.reply}, agent.StepRespond: {"ok"}}}
			s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
			st, _ := run(t, m, s, agent.Options{MaxRetries: -0 + 1}, "k8s talks?")
			if len(st.Reflections) != 1 {
				t.Fatalf("%d reflections, want 1", len(st.Reflections))
			}
			r := st.Reflections[0]
			if r.Source != agent.FromMechanical || !strings.Contains(r.Rejected, "check "+tc.check) {
				t.Fatalf("reflection = %+v, want a mechanical fallback rejected by check %s", r, tc.check)
			}
			q := r.Queries[0]
			if q.Text != "k8s" || *q.Threshold != cal.Relaxed || q.Limit != 20 {
				t.Fatalf("fallback query = %+v, want the ladder's first rung (same text, relaxed threshold, doubled limit)", q)
			}
			if st.ThinkingUpdates[0].Source != agent.FromMechanical {
				t.Fatalf("thinking record does not say the fallback was used: %+v", st.ThinkingUpdates[0])
			}
		})
	}
}

func TestValidDecisionIsUsedAndRecorded(t *testing.T) {
	decision := `{"reasoning":"k8s is jargon here","strategy":"rewrite","user_message":"This programme says Kubernetes, so I'm searching for that.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result {
		if q.Text == "kubernetes" {
			return []search.Result{result(search.Sessions, "s1", 0.6)}
		}
		return weakEverywhere(q)
	}}
	st, events := run(t, m, s, agent.Options{}, "k8s talks?")
	if st.RetryCount != 1 || st.ReflectionStrategy != agent.Rewrite || st.ReflectionReasoning != "k8s is jargon here" {
		t.Fatalf("retry %d strategy %q reasoning %q", st.RetryCount, st.ReflectionStrategy, st.ReflectionReasoning)
	}
	if st.OriginalPlannedQueries[0].Text != "k8s" || st.PlannedQueries[0].Text != "kubernetes" {
		t.Fatalf("original plan %+v, current plan %+v", st.OriginalPlannedQueries, st.PlannedQueries)
	}
	rec := st.ThinkingUpdates[0]
	if rec.Strategy != agent.Rewrite || rec.RetryCount != 1 || rec.Source != agent.FromModel || !strings.Contains(rec.Message, "Kubernetes") || rec.TS < 1_738_000_000 {
		t.Fatalf("thinking record = %+v", rec)
	}
	var thinking []agent.Thinking
	for _, e := range events {
		if th, ok := e.(agent.Thinking); ok {
			thinking = append(thinking, th)
		}
	}
	if len(thinking) != 1 || thinking[0].Record != rec || len(thinking[0].All) != 1 {
		t.Fatalf("thinking events = %+v", thinking)
	}
	if top := st.QueryResults[search.Sessions][0]; top.ID != "s1" {
		t.Fatalf("sessions after the rewrite start with %s, want s1", top.ID)
	}
	in := m.last(agent.StepReflect).Reflect
	if in.RetryCount != 0 || len(in.WeakTables) != 1 || len(in.Tried) != 1 || len(in.Probes) != 3 || len(in.Terms) == 0 {
		t.Fatalf("reflect input lacks evidence: %+v", in)
	}
}

func TestJargonNoteIsReplacedButDecisionKept(t *testing.T) {
	decision := `{"reasoning":"r","strategy":"relax","user_message":"Lowering the score threshold to 0.12 in faceted mode for sessions/s1.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"k8s","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "k8s talks?")
	note := st.ThinkingUpdates[0].Message
	if strings.Contains(note, "threshold") || strings.Contains(note, "faceted") || strings.Contains(note, "s1") {
		t.Fatalf("technical note reached the attendee: %q", note)
	}
	if st.Reflections[0].Source != agent.FromModel {
		t.Fatalf("decision with a bad note was discarded: %+v", st.Reflections[0])
	}
	q := st.Reflections[0].Queries[0]
	if *q.Threshold != cal.Relaxed || q.Limit != 20 {
		t.Fatalf("relax without a threshold: %+v, want one level down (%.2f) and a doubled limit", q, cal.Relaxed)
	}
}

// TestNoNoteRepeatsTheOneBefore: two ladder rounds in a row do not show
// the attendee the same words twice.
func TestNoNoteRepeatsTheOneBefore(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{Mechanical: true, MaxRetries: 2}, "k8s talks?")
	if len(st.ThinkingUpdates) != 2 || st.ThinkingUpdates[0].Message == st.ThinkingUpdates[1].Message {
		t.Fatalf("notes %+v; want two different ones", st.ThinkingUpdates)
	}
}

func TestLoopIsBoundedByMaxRetries(t *testing.T) {
	for _, max := range []int{-1, 1, 2, 4} {
		t.Run(fmt.Sprint(max), func(t *testing.T) {
			n := 0
			m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
			for range 10 {
				n++
				m.replies[agent.StepReflect] = append(m.replies[agent.StepReflect], fmt.Sprintf(
					`{"reasoning":"r","strategy":"rewrite","user_message":"Trying again.","new_queries":[{"table":"sessions","query_text":"attempt %d"}]}`, n))
			}
			s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
			st, _ := run(t, m, s, agent.Options{MaxRetries: max}, "k8s?")
			want := max
			if max < 0 {
				want = 0
			}
			if st.RetryCount != want || st.Attempts != want+1 || m.count(agent.StepReflect) != want {
				t.Fatalf("retries %d, attempts %d, reflect calls %d; want %d retries", st.RetryCount, st.Attempts, m.count(agent.StepReflect), want)
			}
		})
	}
}

func TestNoQueryIsEverRepeated(t *testing.T) {
	same := `{"reasoning":"r","strategy":"rewrite","user_message":"Again.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"K8S ","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {same}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
	st, _ := run(t, m, s, agent.Options{MaxRetries: 4}, "k8s?")
	seen := map[string]bool{}
	for _, q := range s.searched() {
		k := fmt.Sprintf("%s|%s|%s|%.2f", q.Table, q.Mode, strings.ToLower(strings.TrimSpace(q.Text)), *q.Threshold)
		if seen[k] {
			t.Fatalf("query %s run twice; searched %+v", k, s.searched())
		}
		seen[k] = true
	}
	r := st.Reflections[0]
	if r.Source != agent.FromMechanical || !strings.Contains(r.Rejected, "already tried") || len(r.Skipped) != 1 {
		t.Fatalf("repeated decision not replaced by the ladder: %+v", r)
	}
	last := st.Reflections[len(st.Reflections)-1]
	if len(last.Queries) != 0 || st.RetryCount > 4 {
		t.Fatalf("the loop should stop once nothing new is left, got %d rounds, last %+v", st.RetryCount, last)
	}
}

func TestMechanicalLadderWhenReflectionIsOff(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
	st, _ := run(t, m, s, agent.Options{Mechanical: true}, "k8s?")
	if m.count(agent.StepReflect) != 0 {
		t.Fatal("reflection model called with reflection off")
	}
	got := s.searched()
	want := []string{"faceted 0.20 10", "faceted 0.12 20", "master 0.08 20"}
	if len(got) != len(want) {
		t.Fatalf("searched %+v, want 3 rounds", got)
	}
	for i, q := range got {
		if g := fmt.Sprintf("%s %.2f %d", q.Mode, *q.Threshold, q.Limit); g != want[i] || q.Text != "k8s" {
			t.Fatalf("round %d ran %s %q, want %s", i, g, q.Text, want[i])
		}
	}
	for _, r := range st.Reflections {
		if r.Source != agent.FromMechanical || r.Strategy != agent.Relax {
			t.Fatalf("reflection off recorded %+v", r)
		}
	}
}

func TestTablesThatWereFineAreKeptAcrossRounds(t *testing.T) {
	plan := `{"intent":"x","queries":[{"table":"sessions","query_text":"k8s"},{"table":"exhibitors","query_text":"hosting"}]}`
	pivot := `{"reasoning":"r","strategy":"pivot","user_message":"Checking the speakers.","new_queries":[{"table":"speakers","query_text":"kubernetes"}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {plan}, agent.StepReflect: {pivot}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result {
		switch q.Table {
		case search.Exhibitors:
			return []search.Result{result(search.Exhibitors, "e1", 0.8)}
		case search.Speakers:
			return []search.Result{result(search.Speakers, "p1", 0.7)}
		}
		return weakEverywhere(q)
	}}
	st, _ := run(t, m, s, agent.Options{}, "k8s hosting?")
	exhibitorSearches := 0
	for _, q := range s.searched() {
		if q.Table == search.Exhibitors {
			exhibitorSearches++
		}
	}
	if exhibitorSearches != 1 {
		t.Fatalf("a table that was fine was searched %d times", exhibitorSearches)
	}
	if rs := st.QueryResults[search.Exhibitors]; len(rs) != 1 || rs[0].ID != "e1" {
		t.Fatalf("exhibitor results lost across rounds: %+v", st.QueryResults)
	}
	if rs := st.QueryResults[search.Speakers]; len(rs) != 1 || rs[0].ID != "p1" {
		t.Fatalf("pivot results missing: %+v", st.QueryResults)
	}
	if !st.NeedsRetry == false || st.RetryCount != 1 {
		t.Fatalf("retry count %d after a successful pivot", st.RetryCount)
	}
}

// TestSearchErrorsAreNotEmptyResults: a table whose search keeps failing
// is tried again, then marked unavailable; it is not reflected on, and the
// answer is written from what the other tables found.
func TestSearchErrorsAreNotEmptyResults(t *testing.T) {
	plan := `{"intent":"x","queries":[{"table":"sessions","query_text":"a"},{"table":"speakers","query_text":"b"}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {plan}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t),
		results: func(q search.Query) []search.Result { return []search.Result{result(q.Table, "x", 0.9)} },
		fail: func(q search.Query) error {
			if q.Table == search.Sessions {
				return errors.New("index unavailable")
			}
			return nil
		}}
	st, _ := run(t, m, s, agent.Options{}, "kubernetes hosting")
	if len(st.QueryErrors) != 1 || !strings.Contains(st.QueryErrors[0].Error, "index unavailable") {
		t.Fatalf("query errors = %+v", st.QueryErrors)
	}
	tries := 0
	for _, q := range s.searched() {
		if q.Table == search.Sessions {
			tries++
		}
	}
	if tries != 3 {
		t.Fatalf("the failing search ran %d times, want 3 (two retries)", tries)
	}
	if len(st.Reflections) != 0 || len(st.ZeroResultTables) != 0 || m.count(agent.StepReflect) != 0 {
		t.Fatalf("a search error was reflected on: reflections %+v, zero tables %v", st.Reflections, st.ZeroResultTables)
	}
	if len(st.QueryResults[search.Speakers]) != 1 || st.ResponseText != "ok" {
		t.Fatalf("the answer was not written from the speakers found: %+v, %q", st.QueryResults, st.ResponseText)
	}
	tables := m.last(agent.StepRespond).Respond.Tables
	if tables[0].Table != search.Sessions || tables[0].Outcome != agent.Unavailable {
		t.Fatalf("the responder is not told sessions were unavailable: %+v", tables)
	}
}

func TestAPassingSearchFailureIsRetried(t *testing.T) {
	var mu sync.Mutex
	failures := 1
	s := &fakeSearch{lex: tinyLexicon(t),
		results: func(q search.Query) []search.Result { return []search.Result{result(q.Table, idFor(q.Table), 0.9)} },
		fail: func(search.Query) error {
			mu.Lock()
			defer mu.Unlock()
			if failures > 0 {
				failures--
				return errors.New("connection reset")
			}
			return nil
		}}
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, s, agent.Options{}, "k8s?")
	if len(st.QueryErrors) != 0 || len(st.QueryResults[search.Sessions]) != 1 {
		t.Fatalf("a search that failed once was not retried: errors %+v, results %+v", st.QueryErrors, st.QueryResults)
	}
}

func TestEverySearchFailingEndsTheTurnWithAReason(t *testing.T) {
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere,
		fail: func(search.Query) error { return errors.New("index unavailable") }}
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	st, err := agent.New(m, s, agent.Options{Now: fixedClock()}).Run(context.Background(), agent.Request{Message: "k8s?", Conference: conf1}, nil)
	if !errors.Is(err, agent.ErrSearchUnavailable) || !strings.Contains(err.Error(), "index unavailable") {
		t.Fatalf("err = %v, want ErrSearchUnavailable with the driver's reason", err)
	}
	if m.count(agent.StepReflect) != 0 || m.count(agent.StepRespond) != 0 || st.ResponseText != "" {
		t.Fatalf("a turn with no search was reflected on or answered: %q", st.ResponseText)
	}
}

func TestStepsAreAnnouncedInOrder(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"},
		agent.StepReflect: {`{"reasoning":"r","strategy":"rewrite","user_message":"Again.","new_queries":[{"table":"sessions","query_text":"kubernetes"}]}`}}}
	_, events := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "k8s?")
	var seq []string
	open := ""
	for _, e := range events {
		switch e := e.(type) {
		case agent.StepStarted:
			if open != "" {
				t.Fatalf("%s started while %s was running", e.Step, open)
			}
			open = string(e.Step)
			seq = append(seq, open)
		case agent.StepFinished:
			if string(e.Step) != open || e.Err != nil {
				t.Fatalf("%s finished (err %v) while %s was running", e.Step, e.Err, open)
			}
			open = ""
		}
	}
	want := "plan_queries execute_queries check_results reflect_and_replan execute_queries check_results generate_response"
	if strings.Join(seq, " ") != want {
		t.Fatalf("steps %v, want %s", seq, want)
	}
}

func TestRequestErrors(t *testing.T) {
	m := &scripted{}
	a := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{})
	cases := map[string]agent.Request{
		"empty":     {Message: "  ", Conference: conf1},
		"too long":  {Message: strings.Repeat("é", agent.MaxMessageChars+1), Conference: conf1},
		"no conf":   {Message: "hi"},
		"unknown":   {Message: "hi", Conference: agent.Conference{ID: "nope"}},
		"cancelled": {Message: "hi", Conference: conf1},
	}
	for name, req := range cases {
		ctx, cancel := context.WithCancel(context.Background())
		if name == "cancelled" {
			cancel()
		}
		_, err := a.Run(ctx, req, nil)
		cancel()
		want := agent.ErrInvalidRequest
		switch name {
		case "unknown":
			want = agent.ErrUnknownConference
		case "cancelled":
			want = context.Canceled
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: err = %v, want %v", name, err, want)
		}
	}
	if len(m.calls) != 0 {
		t.Fatalf("model called for a rejected request: %d calls", len(m.calls))
	}
	if err := agent.ValidateMessage(strings.Repeat("é", agent.MaxMessageChars)); err != nil {
		t.Fatalf("a question of exactly %d characters was rejected: %v", agent.MaxMessageChars, err)
	}
}

func TestAQuestionNamingNothingIsAnsweredWithAQuestion(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result { return nil }}
	for _, msg := range []string{"hi!", "can you recommend something?", "a b", "what do you suggest?", "can you recommend something please?"} {
		st, events := run(t, m, s, agent.Options{}, msg)
		if st.ResponseText != agent.WhatAreYouLookingFor || len(st.Tried) != 0 || len(st.ModelCalls) != 0 || len(st.Citations) != 0 {
			t.Fatalf("%q: answer %q, %d searches, %d model calls", msg, st.ResponseText, len(st.Tried), len(st.ModelCalls))
		}
		if _, ok := events[len(events)-1].(agent.Answer); !ok {
			t.Fatalf("%q: the last event is %T, want the answer", msg, events[len(events)-1])
		}
	}
}
