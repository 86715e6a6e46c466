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
