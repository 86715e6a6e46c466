package rules

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
)

// A slot the programme repeats ("Lunch" each day) is listed in the order it
// comes, those still to come first, in the places the ranking gave the
// repeats; other sessions keep their places.
func TestRepeatsOfOneSlotComeInTurn(t *testing.T) {
	at := func(id, title string, day int) pick {
		start := time.Date(2027, 2, day, 12, 30, 0, 0, time.UTC)
		return pick{r: search.Result{Item: search.Item{Ref: search.Ref{Table: search.Sessions, ID: id}, Title: title,
			Session: &search.Slot{Starts: start, Ends: start.Add(time.Hour)}}}}
	}
	ids := func(ps []pick) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.r.ID)
		}
		return out
	}
	ps := []pick{at("fri", "Lunch", 12), at("talk", "Rigging safety", 13), at("sat", "Lunch", 13), at("thu", "lunch ", 11)}
	inTurn(ps, ofPick, time.Date(2027, 2, 11, 10, 0, 0, 0, time.UTC))
	assert.Equal(t, []string{"thu", "talk", "fri", "sat"}, ids(ps))
	inTurn(ps, ofPick, time.Date(2027, 2, 11, 14, 0, 0, 0, time.UTC))
	assert.Equal(t, []string{"fri", "talk", "sat", "thu"}, ids(ps), "Thursday's is over")
}

// The repeat of a service slot that comes next ("Lunch (Day 2)" asked on
// day 2) answers as well as the repeat the ranking liked best; a numbered
// subtitle is a repeat too, another subtitle or a talk's title is not, and
// when every repeat is over none is lifted.
func TestTheNextRepeatOfASlotScoresAsTheBest(t *testing.T) {
	at := func(id, title, format string, day int, score float32) search.Result {
		start := time.Date(2027, 2, day, 12, 30, 0, 0, time.UTC)
		return search.Result{Score: score, Item: search.Item{Ref: search.Ref{Table: search.Sessions, ID: id}, Title: title,
			Session: &search.Slot{Starts: start, Ends: start.Add(time.Hour), Format: format}}}
	}
	scores := func(rs []search.Result) map[string]float32 {
		out := map[string]float32{}
		for _, r := range rs {
			out[r.ID] = r.Score
		}
		return out
	}
	rs := []search.Result{at("d1", "Lunch (Day 1)", "other", 11, 0.9), at("d2", "Lunch (Day 2)", "other", 12, 0.3), at("d3", "Lunch (Day 3)", "other", 13, 0.5),
		at("r1", "Reviews - Session 1", "other", 11, 0.8), at("r2", "Reviews - Session 2", "other", 12, 0.2),
		at("h2", "Championship - Heat 2", "other", 12, 0.7), at("f", "Championship - Final", "other", 13, 0.1),
		at("k1", "Keynote (Day 1)", "keynote", 11, 0.9), at("k2", "Keynote (Day 2)", "keynote", 12, 0.2)}
	sameSlotScore(rs, time.Date(2027, 2, 12, 9, 0, 0, 0, time.UTC))
	assert.Equal(t, map[string]float32{"d1": 0.9, "d2": 0.9, "d3": 0.5, "r1": 0.8, "r2": 0.8, "h2": 0.7, "f": 0.1, "k1": 0.9, "k2": 0.2}, scores(rs))
	over := []search.Result{at("d1", "Lunch (Day 1)", "other", 11, 0.9), at("d2", "Lunch (Day 2)", "other", 12, 0.3)}
	sameSlotScore(over, time.Date(2027, 2, 14, 9, 0, 0, 0, time.UTC))
	assert.Equal(t, map[string]float32{"d1": 0.9, "d2": 0.3}, scores(over))
}
