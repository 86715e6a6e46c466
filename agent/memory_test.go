package agent_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/memory"
	"github.com/erleah/erleah-agent/search"
)

// bankOf is a memory holding lessons learnt from turns.
func bankOf(t *testing.T) *memory.Bank {
	t.Helper()
	b, err := memory.Open(context.Background(), nil, memory.Options{})
	require.NoError(t, err)
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
	require.NoError(t, err, "first turn")
	require.Equal(t, 2, first.Attempts, "first turn: attempts")
	lessons := a.Lessons(context.Background(), first)
	const oneRewrite = "lessons %+v, want one recovered rewrite of k8s"
	require.Len(t, lessons, 1, oneRewrite, lessons)
	require.True(t, lessons[0].Recovered, oneRewrite, lessons)
	require.Equal(t, "rewrite", lessons[0].Strategy, oneRewrite, lessons)
	require.Equal(t, "k8s", lessons[0].Text, oneRewrite, lessons)
	require.Greater(t, lessons[0].Importance, 0.5, oneRewrite, lessons)
	require.NoError(t, bank.Remember(context.Background(), lessons))
	second, err := a.Run(context.Background(), agent.Request{Message: "any k8s talks", Conference: conf1}, nil)
	const inPlan = "second turn: %d attempts, recalled %+v; want the lesson in the first plan"
	require.NoError(t, err, "second turn")
	require.Equal(t, 1, second.Attempts, inPlan, second.Attempts, second.Recalled)
	require.Len(t, second.Recalled, 1, inPlan, second.Attempts, second.Recalled)
	require.Equal(t, agent.StepPlan, second.Recalled[0].Step, inPlan, second.Attempts, second.Recalled)
	require.Len(t, second.OriginalPlannedQueries, 1, "the original plan changed: %+v", second.OriginalPlannedQueries)
	require.Equal(t, "k8s", second.OriginalPlannedQueries[0].Text, "the original plan changed: %+v", second.OriginalPlannedQueries)
	// Memory off: the same turn as before memory existed.
	off, _ := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Now: fixedClock()}).
		Run(context.Background(), agent.Request{Message: "any k8s talks", Conference: conf1}, nil)
	assert.Equal(t, 2, off.Attempts, "memory off: attempts")
	assert.Empty(t, off.Recalled, "memory off: recalled")
}

// TestMemoryRecallsByMeaning: a question that shares no word with the
// failure a lesson was learnt on, but means the same to the embedder,
// gets the lesson in its first plan; with words alone it does not.
func TestMemoryRecallsByMeaning(t *testing.T) {
	decision := `{"reasoning":"k8s is jargon","strategy":"rewrite","user_message":"Trying the programme's word.","new_queries":[{"table":"sessions","query_text":"kubernetes"}]}`
	results := func(q search.Query) []search.Result {
		if q.Text == "kubernetes" {
			return []search.Result{result(search.Sessions, "s1", 0.6)}
		}
		return weakEverywhere(q)
	}
	meaning := func(text string) []float32 {
		if strings.Contains(text, "k8s") || strings.Contains(text, "orchestration") {
			return []float32{1, 0}
		}
		return []float32{0, 1}
	}
	for _, embeds := range []bool{true, false} {
		m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {decision}, agent.StepRespond: {"ok"}}}
		s := &fakeSearch{lex: tinyLexicon(t), results: results}
		if embeds {
			s.meaning = meaning
		}
		bank := bankOf(t)
		a := agent.New(m, s, agent.Options{Memory: bank, Now: fixedClock()})
		first, err := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
		require.NoError(t, err)
		require.NoError(t, bank.Remember(context.Background(), a.Lessons(context.Background(), first)))
		plan := `{"intent":"x","queries":[{"table":"sessions","query_text":"container orchestration"}]}`
		m.replies[agent.StepPlan] = []string{plan}
		second, err := a.Run(context.Background(), agent.Request{Message: "container orchestration sessions?", Conference: conf1}, nil)
		require.NoError(t, err)
		if embeds {
			require.Len(t, second.Recalled, 1, "recalled %+v; want the k8s lesson by meaning", second.Recalled)
			assert.Equal(t, agent.StepPlan, second.Recalled[0].Step)
			assert.Equal(t, 1, second.Attempts, "attempts with the lesson in the first plan")
		} else {
			assert.Empty(t, second.Recalled, "recalled by words the questions do not share")
		}
	}
}

// TestMemoryStopsRetryingATableThatOnlyAPivotRescued: a lesson says a
// table's failure was recovered only by moving to another table; when
// another table already answers this turn, the failing one is not retried
// (it was when the lesson's table itself had answered, or without memory).
func TestMemoryStopsRetryingATableThatOnlyAPivotRescued(t *testing.T) {
	pivot := `{"reasoning":"people, not talks","strategy":"pivot","user_message":"Looking at speakers.","new_queries":[{"table":"speakers","query_text":"k8s"}]}`
	results := func(q search.Query) []search.Result {
		if q.Table == search.Speakers {
			return []search.Result{result(search.Speakers, "p1", 0.9)}
		}
		return weakEverywhere(q)
	}
	both := `{"intent":"x","queries":[{"table":"sessions","query_text":"k8s"},{"table":"speakers","query_text":"k8s"}]}`
	second := func(bank *memory.Bank) *agent.State {
		m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {both}, agent.StepReflect: {pivot}, agent.StepRespond: {"ok"}}}
		opts := agent.Options{Now: fixedClock()}
		if bank != nil {
			opts.Memory = bank
		}
		st, err := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: results}, opts).Run(context.Background(), agent.Request{Message: "k8s people?", Conference: conf1}, nil)
		require.NoError(t, err)
		return st
	}
	bank := bankOf(t)
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {pivot}, agent.StepRespond: {"ok"}}}
	a := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: results}, agent.Options{Memory: bank, Now: fixedClock()})
	first, err := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
	require.NoError(t, err)
	lessons := a.Lessons(context.Background(), first)
	require.Len(t, lessons, 1, "lessons %+v", lessons)
	require.True(t, lessons[0].Recovered, "the pivot recovered: %+v", lessons[0])
	require.NotNil(t, lessons[0].Healed)
	require.False(t, *lessons[0].Healed, "sessions itself stayed weak: %+v", lessons[0])
	require.NoError(t, bank.Remember(context.Background(), lessons))

	st := second(bank)
	assert.Equal(t, 1, st.Attempts, "sessions retried although speakers answer and a pivot was all that ever helped it")
	require.Len(t, st.Recalled, 1, "recalled %+v", st.Recalled)
	assert.Equal(t, agent.StepCheck, st.Recalled[0].Step)
	assert.Greater(t, second(nil).Attempts, 1, "memory off: sessions is retried")

	healed := bankOf(t)
	l := lessons[0]
	l.ID, l.Healed = "", new(true)
	require.NoError(t, healed.Remember(context.Background(), []memory.Lesson{l}))
	assert.Greater(t, second(healed).Attempts, 1, "sessions not retried although retrying it healed it before")
}

// TestMemoryCountsAPivotWhoseTableTheAnswerCites: a pivot round whose
// table stays short of the confidence band recovered all the same when the
// answer recommends what it found there; not when the answer cites
// nothing.
func TestMemoryCountsAPivotWhoseTableTheAnswerCites(t *testing.T) {
	pivot := `{"reasoning":"a company, not a talk","strategy":"pivot","user_message":"Looking at exhibitors.","new_queries":[{"table":"exhibitors","query_text":"k8s"}]}`
	for answer, want := range map[string]bool{"Item e1 may help [exhibitors/e1]": true, "Nothing fits.": false} {
		m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepReflect: {pivot}, agent.StepRespond: {answer}}}
		a := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{Memory: bankOf(t), MaxRetries: 1, Now: fixedClock()})
		st, err := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
		require.NoError(t, err)
		lessons := a.Lessons(context.Background(), st)
		require.Len(t, lessons, 1, "lessons %+v", lessons)
		assert.Equal(t, want, lessons[0].Recovered, "answer %q, citations %+v: recovered", answer, st.Citations)
	}
}

// TestMemorySkipsRoundsThatNeverHelped: when similar failures of a table
// were retried before and none recovered, the table is not retried.
func TestMemorySkipsRoundsThatNeverHelped(t *testing.T) {
	bank := bankOf(t)
	m := &scripted{replies: map[agent.Step][]string{agent.StepPlan: {planSessions}, agent.StepRespond: {"ok"}}}
	a := agent.New(m, &fakeSearch{lex: tinyLexicon(t), results: weakEverywhere}, agent.Options{Memory: bank, MaxRetries: 1, Now: fixedClock()})
	first, _ := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
	lessons := a.Lessons(context.Background(), first)
	const notRecovered = "first turn: %d attempts, lessons %+v; want one round that did not recover"
	require.Equal(t, 2, first.Attempts, notRecovered, first.Attempts, lessons)
	require.Len(t, lessons, 1, notRecovered, first.Attempts, lessons)
	require.False(t, lessons[0].Recovered, notRecovered, first.Attempts, lessons)
	_ = bank.Remember(context.Background(), lessons)
	second, _ := a.Run(context.Background(), agent.Request{Message: "k8s talks?", Conference: conf1}, nil)
	const hopeless = "second turn: %d attempts, %d rounds, recalled %+v; want no hopeless round"
	assert.Equal(t, 1, second.Attempts, hopeless, second.Attempts, len(second.Reflections), second.Recalled)
	assert.Empty(t, second.Reflections, hopeless, second.Attempts, len(second.Reflections), second.Recalled)
	require.Len(t, second.Recalled, 1, hopeless, second.Attempts, len(second.Reflections), second.Recalled)
	assert.Equal(t, agent.StepCheck, second.Recalled[0].Step, hopeless, second.Attempts, len(second.Reflections), second.Recalled)
}
