package eval

import (
	"strings"
	"testing"

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
	if r.FirstPassHit || !r.FinalHit || r.Attempts != 2 || r.ModelCalls != 3 || r.FalseCitations != 1 {
		t.Fatalf("result = %+v", r)
	}
	// Final ranking across tables: s1 0.5, e1 0.4, s2 0.3 → first relevant at rank 2.
	if r.RR != 0.5 || r.Recall < 0.666 || r.Recall > 0.667 {
		t.Fatalf("rr %v recall %v", r.RR, r.Recall)
	}
}

func TestRetrievedIsTopTenPerTable(t *testing.T) {
	var rs []search.Result
	for i := range 15 {
		rs = append(rs, res(search.Speakers, string(rune('a'+i)), float32(15-i)/15))
	}
	got := retrieved(map[search.Table][]search.Result{search.Speakers: rs})
	if len(got) != agent.AnswerLimit || got[9] != "speakers/j" {
		t.Fatalf("retrieved = %v", got)
	}
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
		if c[0] != c[1] {
			t.Errorf("%s = %v, want %v", name, c[0], c[1])
		}
	}
	if s.AnswerableCases != 3 || s.FirstPassMisses != 2 || s.Recovered != 1 || s.NoAnswerCases != 2 {
		t.Fatalf("counts %+v", s)
	}
	if s.Citations != 4 || s.FalseCitations != 2 || s.AnswerHits != 2 || s.NothingFits != 1 {
		t.Fatalf("citation counts %+v", s)
	}
}

func TestSummaryByKind(t *testing.T) {
	s := summarise([]CaseResult{
		{Kind: "jargon", Answerable: true, FinalHit: true, Cited: []string{"a"}},
		{Kind: "jargon", Answerable: true},
		{Kind: "impossible", Cited: []string{"x"}, FalseCitations: 1},
	})
	j, imp := s.ByKind["jargon"], s.ByKind["impossible"]
	if j.Cases != 2 || j.AnswerHitRate != 0.5 || j.RecoveryRate != 0.5 || j.ByKind != nil {
		t.Fatalf("jargon = %+v", j)
	}
	if imp.NothingFitsRate != 0 || imp.AnswerPrecision != 0 || imp.NoAnswerCases != 1 {
		t.Fatalf("impossible = %+v", imp)
	}
	if got := s.Kinds(); len(got) != 2 || got[0] != "impossible" {
		t.Fatalf("kinds = %v", got)
	}
}

func TestCaseKindClockAndHistory(t *testing.T) {
	cs, err := ParseCases(strings.NewReader(`{"id":"a","conference_id":"c","message":"m","kind":"time","now":"2026-10-21T10:40:00+02:00","history":[{"role":"user","text":"hi"}]}
{"id":"b","conference_id":"c","message":"m","category":"jargon"}
{"id":"c","conference_id":"c","message":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	if cs[0].KindOf() != "time" || cs[1].KindOf() != "jargon" || cs[2].KindOf() != "unlabelled" {
		t.Fatalf("kinds %q %q %q", cs[0].KindOf(), cs[1].KindOf(), cs[2].KindOf())
	}
	if got := cs[0].Clock().UTC().Format("15:04"); got != "08:40" || !cs[1].Clock().IsZero() {
		t.Fatalf("clock %s / %v", got, cs[1].Clock())
	}
	if h := cs[0].history(); len(h) != 1 || h[0].Role != "user" {
		t.Fatalf("history %+v", h)
	}
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
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if _, err := ParseCases(strings.NewReader("\n\n")); err == nil {
		t.Error("an empty case file was accepted")
	}
}
