package eval

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

func res(tb search.Table, id string, score float32) search.Result {
	return search.Result{Item: search.Item{Ref: search.Ref{Conference: "c1", Table: tb, ID: id}}, Score: score}
}

func TestScoreOneCase(t *testing.T) {
	c := Case{ID: "q", Relevant: map[search.Table][]string{search.Sessions: {"s2", "s9"}, search.Exhibitors: {"e1"}}}
	st := &agent.State{
		FirstPassResults: map[search.Table][]search.Result{search.Sessions: {res(search.Sessions, "s1", 0.5)}},
		QueryResults: map[search.Table][]search.Result{
			search.Sessions:   {res(search.Sessions, "s1", 0.5), res(search.Sessions, "s2", 0.3)},
			search.Exhibitors: {res(search.Exhibitors, "e1", 0.4)},
		},
		Citations:   []agent.Citation{{Collection: search.Sessions, ID: "s2"}, {Collection: search.Sessions, ID: "s1"}},
		Attempts:    2,
		Reflections: []agent.Reflection{{Strategy: agent.Pivot}},
		ModelCalls:  []agent.CallInfo{{}, {}, {}},
	}
	var r CaseResult
	score(&r, c, st)
	assert.False(t, r.FirstPassHit, "result = %+v", r)
	assert.True(t, r.FinalHit, "result = %+v", r)
	assert.Equal(t, 2, r.Attempts, "result = %+v", r)
	assert.Equal(t, 3, r.ModelCalls, "result = %+v", r)
	assert.Equal(t, 1, r.FalseCitations, "result = %+v", r)
	// Final ranking across tables: s1 0.5, e1 0.4, s2 0.3 → first relevant at rank 2.
	assert.Equal(t, 0.5, r.RR, "rr")
	assert.GreaterOrEqual(t, r.Recall, 0.666, "recall")
	assert.LessOrEqual(t, r.Recall, 0.667, "recall")
}

func TestRetrievedIsTopTenPerTable(t *testing.T) {
	var rs []search.Result
	for i := range 15 {
		rs = append(rs, res(search.Speakers, string(rune('a'+i)), float32(15-i)/15))
	}
	got := retrieved(map[search.Table][]search.Result{search.Speakers: rs})
	require.Len(t, got, agent.AnswerLimit, "retrieved = %v", got)
	assert.Equal(t, "speakers/j", got[9], "retrieved = %v", got)
}

func TestSummaryRates(t *testing.T) {
	results := []CaseResult{
		{Kind: "direct", Answerable: true, FirstPassHit: true, FinalHit: true, Cited: []string{"a"}, Attempts: 1, MS: 1},
		{Kind: "jargon", Answerable: true, FinalHit: true, Cited: []string{"a", "b"}, FalseCitations: 1, Attempts: 2, MS: 2},
		{Kind: "jargon", Answerable: true, Attempts: 3, MS: 3},
		{Kind: "impossible", Answerable: false, Cited: []string{"x"}, FalseCitations: 1, Attempts: 1, MS: 4},
		{Kind: "impossible", Answerable: false, Attempts: 1, MS: 5},
	}
	s := summarise(results)
	checks := map[string][2]float64{
		"first pass": {s.FirstPassHitRate, 0.333}, "final": {s.FinalHitRate, 0.667}, "recovery": {s.RecoveryRate, 0.5},
		"answer hit": {s.AnswerHitRate, 0.667}, "false citations": {s.FalseCitationRate, 0.5}, "nothing fits": {s.NothingFitsRate, 0.5},
		"precision": {s.AnswerPrecision, 0.5},
		"attempts":  {s.MeanAttempts, 1.6}, "p50": {s.P50MS, 3},
	}
	for name, c := range checks {
		assert.Equal(t, c[1], c[0], name)
	}
	assert.Equal(t, 3, s.AnswerableCases, "answerable cases")
	assert.Equal(t, 2, s.FirstPassMisses, "first-pass misses")
	assert.Equal(t, 1, s.Recovered, "recovered")
	assert.Equal(t, 2, s.NoAnswerCases, "no-answer cases")
	assert.Equal(t, 4, s.Citations, "citations")
	assert.Equal(t, 2, s.FalseCitations, "false citations")
	assert.Equal(t, 2, s.AnswerHits, "answer hits")
	assert.Equal(t, 1, s.NothingFits, "nothing fits")
}

func TestSummaryByKind(t *testing.T) {
	s := summarise([]CaseResult{
		{Kind: "jargon", Answerable: true, FinalHit: true, Cited: []string{"a"}},
		{Kind: "jargon", Answerable: true},
		{Kind: "impossible", Cited: []string{"x"}, FalseCitations: 1},
	})
	j, imp := s.ByKind["jargon"], s.ByKind["impossible"]
	assert.Equal(t, 2, j.Cases, "jargon cases")
	assert.Equal(t, 0.5, j.AnswerHitRate, "jargon answer hit rate")
	assert.Equal(t, 0.5, j.RecoveryRate, "jargon recovery rate")
	assert.Nil(t, j.ByKind, "jargon by kind")
	assert.Equal(t, 0.0, imp.NothingFitsRate, "impossible nothing-fits rate")
	assert.Equal(t, 0.0, imp.AnswerPrecision, "impossible answer precision")
	assert.Equal(t, 1, imp.NoAnswerCases, "impossible no-answer cases")
	kinds := s.Kinds()
	require.Len(t, kinds, 2, "kinds = %v", kinds)
	assert.Equal(t, "impossible", kinds[0], "kinds = %v", kinds)
}

func TestCaseKindClockAndHistory(t *testing.T) {
	cs, err := ParseCases(strings.NewReader(`{"id":"a","conference_id":"c","message":"m","kind":"time","now":"2026-10-21T10:40:00+02:00","history":[{"role":"user","text":"hi"}]}
{"id":"b","conference_id":"c","message":"m","category":"jargon"}
{"id":"c","conference_id":"c","message":"m"}`))
	require.NoError(t, err)
	require.Len(t, cs, 3)
	assert.Equal(t, "time", cs[0].KindOf(), "kind of a")
	assert.Equal(t, "jargon", cs[1].KindOf(), "kind of b")
	assert.Equal(t, "unlabelled", cs[2].KindOf(), "kind of c")
	assert.Equal(t, "08:40", cs[0].Clock().UTC().Format("15:04"), "clock of a")
	assert.True(t, cs[1].Clock().IsZero(), "clock of b: %v", cs[1].Clock())
	h := cs[0].history()
	require.Len(t, h, 1, "history %+v", h)
	assert.Equal(t, "user", h[0].Role, "history %+v", h)
}

func TestParseCasesReportsEveryBadLine(t *testing.T) {
	in := `{"id":"a","conference_id":"c","message":"m","relevant":{"sessions":["s1"]}}

{"id":"b","conference_id":"c","message":""}
{"id":"a","conference_id":"c","message":"again"}
{"id":"d","conference_id":"c","message":"m","relevant":{"attendees":["x"]}}
{oops
{"id":"f","conference_id":"c","message":"m","now":"tomorrow"}
{"id":"g","conference_id":"c","message":"m","history":[{"role":"bot","text":"x"}]}`
	_, err := ParseCases(strings.NewReader(in))
	for _, want := range []string{"line 3: message is required", `line 4: duplicate id "a" (first on line 1)`, `line 5: relevant: unknown table "attendees"`, "line 6:",
		`line 7: now: not an RFC 3339 time`, `line 8: history[0].role: want user or assistant, got "bot"`} {
		assert.ErrorContains(t, err, want)
	}
	_, err = ParseCases(strings.NewReader("\n\n"))
	assert.Error(t, err, "an empty case file was accepted")
}

// Pooled sets count every case once, whatever set it came from, even
// when two sets use the same case id.
func TestPoolCountsEveryCaseOnce(t *testing.T) {
	a := &Report{Cases: []CaseResult{
		{ID: "q1", Mode: Reflection, Kind: "direct", Answerable: true, Cited: []string{"x"}},
		{ID: "q1", Mode: Mechanical, Kind: "direct", Answerable: true},
	}}
	b := &Report{Cases: []CaseResult{
		{ID: "q1", Mode: Reflection, Kind: "jargon", Answerable: true},
		{ID: "q1", Mode: Mechanical, Kind: "jargon", Answerable: true, Cited: []string{"y"}},
		{ID: "q2", Mode: Reflection, Kind: "impossible"},
	}}
	p := Pool(map[string]*Report{"a": a, "b": b})
	r, m := p.Summary[Reflection], p.Summary[Mechanical]
	assert.Equal(t, 3, r.Cases)
	assert.Equal(t, 1, r.AnswerHits)
	assert.Equal(t, 2, r.AnswerableCases)
	assert.Equal(t, 1, r.NothingFits)
	assert.Equal(t, 1, m.AnswerHits)
	assert.Equal(t, 1, r.ByKind["direct"].AnswerHits)
	assert.Equal(t, 0, r.ByKind["jargon"].AnswerHits)
	assert.Equal(t, 1, m.ByKind["jargon"].AnswerHits)
	require.NotNil(t, p.Paired)
	assert.Equal(t, 1, p.Paired.ReflectionOnly, "a's q1")
	assert.Equal(t, 1, p.Paired.MechanicalOnly, "b's q1, not a's")
}
