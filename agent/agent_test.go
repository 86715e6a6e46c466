package agent_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
			require.Equal(t, tc.wantSource, st.PlanSource, "plan source (rejected: %s)", st.PlanRejected)
			require.Equal(t, tc.wantSource == agent.FromMechanical, st.PlanRejected != "", "plan_rejected = %q for source %s", st.PlanRejected, st.PlanSource)
			var tables []search.Table
			var limits []int
			for _, q := range st.OriginalPlannedQueries {
				tables, limits = append(tables, q.Table), append(limits, q.Limit)
				require.NotNil(t, q.Threshold, "query %+v: threshold not resolved to the embedder default", q)
				require.Equal(t, cal.Threshold, *q.Threshold, "query %+v: threshold not resolved to the embedder default", q)
			}
			assert.Equal(t, tc.wantTables, tables, "plan tables")
			assert.Equal(t, tc.wantLimits, limits, "plan limits")
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
			require.Len(t, st.Reflections, 1, "reflections")
			r := st.Reflections[0]
			const fallback = "reflection = %+v, want a mechanical fallback rejected by check %s"
			require.Equal(t, agent.FromMechanical, r.Source, fallback, r, tc.check)
			require.Contains(t, r.Rejected, "check "+tc.check, fallback, r, tc.check)
			require.NotEmpty(t, r.Queries, fallback, r, tc.check)
			q := r.Queries[0]
			const rung = "fallback query = %+v, want the ladder's first rung (same text, relaxed threshold, doubled limit)"
			require.Equal(t, "k8s", q.Text, rung, q)
			require.NotNil(t, q.Threshold, rung, q)
			require.Equal(t, cal.Relaxed, *q.Threshold, rung, q)
			require.Equal(t, 20, q.Limit, rung, q)
			require.NotEmpty(t, st.ThinkingUpdates, "thinking records")
			assert.Equal(t, agent.FromMechanical, st.ThinkingUpdates[0].Source, "thinking record does not say the fallback was used: %+v", st.ThinkingUpdates[0])
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
	require.Equal(t, 1, st.RetryCount, "retry")
	require.Equal(t, agent.Rewrite, st.ReflectionStrategy, "strategy")
	require.Equal(t, "k8s is jargon here", st.ReflectionReasoning, "reasoning")
	require.NotEmpty(t, st.OriginalPlannedQueries, "original plan")
	require.NotEmpty(t, st.PlannedQueries, "current plan")
	require.Equal(t, "k8s", st.OriginalPlannedQueries[0].Text, "original plan %+v, current plan %+v", st.OriginalPlannedQueries, st.PlannedQueries)
	require.Equal(t, "kubernetes", st.PlannedQueries[0].Text, "original plan %+v, current plan %+v", st.OriginalPlannedQueries, st.PlannedQueries)
	require.NotEmpty(t, st.ThinkingUpdates, "thinking records")
	rec := st.ThinkingUpdates[0]
	require.Equal(t, agent.Rewrite, rec.Strategy, "thinking record = %+v", rec)
	require.Equal(t, 1, rec.RetryCount, "thinking record = %+v", rec)
	require.Equal(t, agent.FromModel, rec.Source, "thinking record = %+v", rec)
	require.Contains(t, rec.Message, "Kubernetes", "thinking record = %+v", rec)
	require.GreaterOrEqual(t, rec.TS, float64(1_738_000_000), "thinking record = %+v", rec)
	var thinking []agent.Thinking
	for _, e := range events {
		if th, ok := e.(agent.Thinking); ok {
			thinking = append(thinking, th)
		}
	}
	require.Len(t, thinking, 1, "thinking events = %+v", thinking)
	require.Equal(t, rec, thinking[0].Record, "thinking events = %+v", thinking)
	require.Len(t, thinking[0].All, 1, "thinking events = %+v", thinking)
	require.NotEmpty(t, st.QueryResults[search.Sessions], "sessions after the rewrite")
	assert.Equal(t, "s1", st.QueryResults[search.Sessions][0].ID, "sessions after the rewrite start with")
	in := m.last(agent.StepReflect).Reflect
	assert.Zero(t, in.RetryCount, "reflect input lacks evidence: %+v", in)
	assert.Len(t, in.WeakTables, 1, "reflect input lacks evidence: %+v", in)
	assert.Len(t, in.Tried, 1, "reflect input lacks evidence: %+v", in)
	assert.Len(t, in.Probes, 3, "reflect input lacks evidence: %+v", in)
	assert.NotEmpty(t, in.Terms, "reflect input lacks evidence: %+v", in)
}

func TestJargonNoteIsReplacedButDecisionKept(t *testing.T) {
	decision := `{"reasoning":"r","strategy":"relax","user_message":"Lowering the score threshold to 0.12 in faceted mode for sessions/s1.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"k8s","limit":10}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{MaxRetries: 1}, "k8s talks?")
	require.NotEmpty(t, st.ThinkingUpdates, "thinking records")
	note := st.ThinkingUpdates[0].Message
	require.NotContains(t, note, "threshold", "technical note reached the attendee")
	require.NotContains(t, note, "faceted", "technical note reached the attendee")
	require.NotContains(t, note, "s1", "technical note reached the attendee")
	require.NotEmpty(t, st.Reflections, "reflections")
	require.Equal(t, agent.FromModel, st.Reflections[0].Source, "decision with a bad note was discarded: %+v", st.Reflections[0])
	require.NotEmpty(t, st.Reflections[0].Queries, "reflection queries")
	q := st.Reflections[0].Queries[0]
	const relax = "relax without a threshold: %+v, want one level down (%.2f) and a doubled limit"
	require.NotNil(t, q.Threshold, relax, q, cal.Relaxed)
	assert.Equal(t, cal.Relaxed, *q.Threshold, relax, q, cal.Relaxed)
	assert.Equal(t, 20, q.Limit, relax, q, cal.Relaxed)
}

// TestNoNoteRepeatsTheOneBefore: two ladder rounds in a row do not show
// the attendee the same words twice.
func TestNoNoteRepeatsTheOneBefore(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	st, _ := run(t, m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{Mechanical: true, MaxRetries: 2}, "k8s talks?")
	require.Len(t, st.ThinkingUpdates, 2, "notes %+v; want two different ones", st.ThinkingUpdates)
	assert.NotEqual(t, st.ThinkingUpdates[0].Message, st.ThinkingUpdates[1].Message, "notes %+v; want two different ones", st.ThinkingUpdates)
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
			assert.Equal(t, want, st.RetryCount, "retries")
			assert.Equal(t, want+1, st.Attempts, "attempts")
			assert.Equal(t, want, m.count(agent.StepReflect), "reflect calls")
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
		require.False(t, seen[k], "query %s run twice; searched %+v", k, s.searched())
		seen[k] = true
	}
	require.NotEmpty(t, st.Reflections, "reflections")
	r := st.Reflections[0]
	require.Equal(t, agent.FromMechanical, r.Source, "repeated decision not replaced by the ladder: %+v", r)
	require.Contains(t, r.Rejected, "already tried", "repeated decision not replaced by the ladder: %+v", r)
	require.Len(t, r.Skipped, 1, "repeated decision not replaced by the ladder: %+v", r)
	last := st.Reflections[len(st.Reflections)-1]
	assert.Empty(t, last.Queries, "the loop should stop once nothing new is left, got %d rounds, last %+v", st.RetryCount, last)
	assert.LessOrEqual(t, st.RetryCount, 4, "the loop should stop once nothing new is left, got %d rounds, last %+v", st.RetryCount, last)
}

func TestMechanicalLadderWhenReflectionIsOff(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
	st, _ := run(t, m, s, agent.Options{Mechanical: true}, "k8s?")
	require.Zero(t, m.count(agent.StepReflect), "reflection model called with reflection off")
	got := s.searched()
	want := []string{"faceted 0.20 10", "faceted 0.12 20", "master 0.08 20"}
	require.Len(t, got, len(want), "searched %+v, want 3 rounds", got)
	for i, q := range got {
		g := fmt.Sprintf("%s %.2f %d", q.Mode, *q.Threshold, q.Limit)
		require.Equal(t, want[i], g, "round %d ran %s %q", i, g, q.Text)
		require.Equal(t, "k8s", q.Text, "round %d ran %s %q", i, g, q.Text)
	}
	for _, r := range st.Reflections {
		require.Equal(t, agent.FromMechanical, r.Source, "reflection off recorded %+v", r)
		require.Equal(t, agent.Relax, r.Strategy, "reflection off recorded %+v", r)
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
	require.Equal(t, 1, exhibitorSearches, "times a table that was fine was searched")
	rs := st.QueryResults[search.Exhibitors]
	require.Len(t, rs, 1, "exhibitor results lost across rounds: %+v", st.QueryResults)
	require.Equal(t, "e1", rs[0].ID, "exhibitor results lost across rounds: %+v", st.QueryResults)
	rs = st.QueryResults[search.Speakers]
	require.Len(t, rs, 1, "pivot results missing: %+v", st.QueryResults)
	require.Equal(t, "p1", rs[0].ID, "pivot results missing: %+v", st.QueryResults)
	assert.False(t, st.NeedsRetry, "needs a retry after a successful pivot")
	assert.Equal(t, 1, st.RetryCount, "retry count after a successful pivot")
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
	require.Len(t, st.QueryErrors, 1, "query errors = %+v", st.QueryErrors)
	require.Contains(t, st.QueryErrors[0].Error, "index unavailable", "query errors = %+v", st.QueryErrors)
	tries := 0
	for _, q := range s.searched() {
		if q.Table == search.Sessions {
			tries++
		}
	}
	require.Equal(t, 3, tries, "times the failing search ran, want 3 (two retries)")
	assert.Zero(t, s.unmarked, "searches sent without saying the agent retries them: what serves them would retry too")
	const reflected = "a search error was reflected on: reflections %+v, zero tables %v"
	require.Empty(t, st.Reflections, reflected, st.Reflections, st.ZeroResultTables)
	require.Empty(t, st.ZeroResultTables, reflected, st.Reflections, st.ZeroResultTables)
	require.Zero(t, m.count(agent.StepReflect), reflected, st.Reflections, st.ZeroResultTables)
	require.Len(t, st.QueryResults[search.Speakers], 1, "the answer was not written from the speakers found: %+v", st.QueryResults)
	require.Equal(t, "ok", st.ResponseText, "the answer was not written from the speakers found")
	tables := m.last(agent.StepRespond).Respond.Tables
	require.NotEmpty(t, tables, "the responder's tables")
	assert.Equal(t, search.Sessions, tables[0].Table, "the responder is not told sessions were unavailable: %+v", tables)
	assert.Equal(t, agent.Unavailable, tables[0].Outcome, "the responder is not told sessions were unavailable: %+v", tables)
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
	assert.Empty(t, st.QueryErrors, "a search that failed once was not retried: results %+v", st.QueryResults)
	assert.Len(t, st.QueryResults[search.Sessions], 1, "a search that failed once was not retried: errors %+v, results %+v", st.QueryErrors, st.QueryResults)
}

func TestEverySearchFailingEndsTheTurnWithAReason(t *testing.T) {
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere,
		fail: func(search.Query) error { return errors.New("index unavailable") }}
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	st, err := agent.New(m, s, agent.Options{Now: fixedClock()}).Run(context.Background(), agent.Request{Message: "k8s?", Conference: conf1}, nil)
	require.ErrorIs(t, err, agent.ErrSearchUnavailable, "want ErrSearchUnavailable with the driver's reason")
	require.ErrorContains(t, err, "index unavailable", "want ErrSearchUnavailable with the driver's reason")
	assert.Zero(t, m.count(agent.StepReflect), "a turn with no search was reflected on")
	assert.Zero(t, m.count(agent.StepRespond), "a turn with no search was answered")
	assert.Empty(t, st.ResponseText, "a turn with no search was answered")
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
			require.Empty(t, open, "%s started while %s was running", e.Step, open)
			open = string(e.Step)
			seq = append(seq, open)
		case agent.StepFinished:
			require.Equal(t, open, string(e.Step), "%s finished (err %v) while %s was running", e.Step, e.Err, open)
			require.NoError(t, e.Err, "%s finished while %s was running", e.Step, open)
			open = ""
		}
	}
	want := "plan_queries execute_queries check_results reflect_and_replan execute_queries check_results generate_response"
	assert.Equal(t, want, strings.Join(seq, " "), "steps")
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
		assert.ErrorIs(t, err, want, "%s", name)
	}
	require.Empty(t, m.calls, "model called for a rejected request")
	assert.NoError(t, agent.ValidateMessage(strings.Repeat("é", agent.MaxMessageChars)), "a question of exactly %d characters was rejected", agent.MaxMessageChars)
}

func TestAQuestionNamingNothingIsAnsweredWithAQuestion(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result { return nil }}
	for _, msg := range []string{"hi! can you recommend something?", "can you recommend something?", "a b", "what do you suggest?", "can you recommend something please?"} {
		st, events := run(t, m, s, agent.Options{}, msg)
		require.Equal(t, agent.WhatAreYouLookingFor, st.ResponseText, "%q: answer", msg)
		requirePlain(t, st, events, msg)
	}
}

// requirePlain requires an answer written without a search or a model
// call, citing nothing, and sent as the turn's last event.
func requirePlain(t *testing.T, st *agent.State, events []agent.Event, msg string) {
	t.Helper()
	require.Empty(t, st.Tried, "%q: searches", msg)
	require.Empty(t, st.ModelCalls, "%q: model calls", msg)
	require.Empty(t, st.Citations, "%q: citations", msg)
	require.NotEmpty(t, events, "%q: events", msg)
	require.IsType(t, agent.Answer{}, events[len(events)-1], "%q: the last event, want the answer", msg)
}

// TestEverySearchIsTriedOnceByWhatServesIt: the agent's searches and its
// reflection probes are marked to be sent once where they are served (an
// embedding provider, an index driver): the agent retries a search itself,
// and a probe that fails is left out.
func TestEverySearchIsTriedOnceByWhatServesIt(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"},
		agent.StepReflect: {`{"reasoning":"r","strategy":"rewrite","user_message":"Again.","new_queries":[{"table":"sessions","query_text":"kubernetes"}]}`}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
	run(t, m, s, agent.Options{MaxRetries: 1}, "k8s?")
	probes := len(s.queries) - len(s.searched())
	require.Positive(t, probes, "no reflection probes ran")
	assert.Zero(t, s.unmarked, "searches or probes not marked search.TryOnce: what serves them would retry too")
}

// A query the reflector gives a filter of its own still keeps out what the
// attendee turned down.
func TestAWidenedFilterKeepsWhatWasTurnedDown(t *testing.T) {
	decision := `{"reasoning":"k8s is jargon here","strategy":"rewrite","user_message":"This programme says Kubernetes, so I'm searching for that.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"kubernetes","limit":10,"filter":{"formats":["talk","workshop"],"label":"talks or workshops"}}]}`
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
	s := &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}
	st, _ := run(t, m, s, agent.Options{}, "k8s, no panels please")
	require.NotNil(t, st.Filter, "no filter read")
	require.NotEmpty(t, st.Filter.Except, "nothing turned down: %+v", st.Filter)
	var widened *search.Query
	for _, q := range s.searched() {
		if q.Text == "kubernetes" {
			widened = &q
		}
	}
	require.NotNil(t, widened, "the reflector's query was not searched: %+v", s.searched())
	require.NotNil(t, widened.Filter)
	assert.Equal(t, []string{"talk", "workshop"}, widened.Filter.Formats, "the reflector's own filter")
	assert.Equal(t, st.Filter.Except, widened.Filter.Except, "what was turned down")
	assert.Equal(t, "talks or workshops, but not panels", widened.Filter.Label)
}
