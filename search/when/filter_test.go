package when_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/when"
)

type session struct {
	start, end          time.Time
	room, track, format string
}

// programme is part of the first day in Singapore.
var programme = []session{
	{sg(20, 10, 0), sg(20, 11, 0), "Hall 1", "DevOps", "talk"},
	{sg(20, 11, 0), sg(20, 12, 0), "Hall 1", "DevOps", "talk"},
	{sg(20, 11, 10), sg(20, 12, 30), "Room B", "Security and Privacy", "Workshop"}, // 10 minutes later: the same slot
	{sg(20, 11, 11), sg(20, 12, 0), "Einstein (Floor 2)", "DevOps", "talk"},        // 11 minutes later: the next slot
	{sg(20, 13, 0), sg(20, 14, 0), "Hall 1", "", "keynote"},
}

func apply(f when.Filter) []int {
	return f.Apply(len(programme), func(i int) (time.Time, time.Time, string, string, string) {
		s := programme[i]
		return s.start, s.end, s.room, s.track, s.format
	})
}

func TestApply(t *testing.T) {
	for _, c := range []struct {
		name string
		f    when.Filter
		want []int
	}{
		{"zero matches all", when.Filter{}, []int{0, 1, 2, 3, 4}},
		{"window", when.Filter{From: sg(20, 11, 0), To: sg(20, 13, 0)}, []int{1, 2, 3}},
		{"next slot within 10 minutes", when.Filter{Next: true, From: sg(20, 10, 30)}, []int{1, 2}},
		{"next at a start counts it", when.Filter{Next: true, From: sg(20, 11, 0)}, []int{1, 2}},
		{"next in a room", when.Filter{Next: true, From: sg(20, 10, 30), Rooms: []string{"Einstein (Floor 2)"}}, []int{3}},
		{"next keynote", when.Filter{Next: true, From: sg(20, 10, 30), Formats: []string{"keynote"}}, []int{4}},
		{"next before To", when.Filter{Next: true, From: sg(20, 11, 30), To: sg(20, 12, 0)}, nil},
		{"next after everything", when.Filter{Next: true, From: sg(20, 18, 0)}, nil},
		{"last slot", when.Filter{Last: true}, []int{4}},
		{"last slot within 10 minutes", when.Filter{Last: true, To: sg(20, 12, 0)}, []int{2, 3}},
		{"last in a room", when.Filter{Last: true, To: sg(20, 12, 30), Rooms: []string{"Hall 1"}}, []int{1}},
		{"last before anything", when.Filter{Last: true, To: sg(20, 9, 0)}, nil},
		{"ongoing", when.Filter{Ongoing: true, From: sg(20, 10, 30)}, []int{0}},
		{"ongoing at a change of session", when.Filter{Ongoing: true, From: sg(20, 11, 0)}, []int{1}},
		{"ongoing overlap", when.Filter{Ongoing: true, From: sg(20, 12, 15)}, []int{2}},
		{"ongoing in a track", when.Filter{Ongoing: true, From: sg(20, 11, 30), Tracks: []string{"devops"}}, []int{1, 3}},
		{"formats ignore case", when.Filter{Formats: []string{"workshop"}}, []int{2}},
	} {
		t.Run(c.name, func(t *testing.T) {
			assertSlice(t, c.want, apply(c.f), "Apply")
		})
	}
}

func TestApplyEdgeCases(t *testing.T) {
	assert.Nil(t, (when.Filter{}).Apply(3, nil), "Apply with a nil func")
	assert.Nil(t, (when.Filter{Next: true}).Apply(-1, func(int) (time.Time, time.Time, string, string, string) {
		panic("called")
	}), "Apply(-1)")
}

func TestMatch(t *testing.T) {
	at := sg(20, 14, 0)
	for _, c := range []struct {
		name       string
		f          when.Filter
		start, end time.Time
		want       bool
	}{
		{"starts at From", when.Filter{From: at, To: at.Add(time.Hour)}, at, at.Add(time.Hour), true},
		{"starts at To", when.Filter{From: at, To: at.Add(time.Hour)}, at.Add(time.Hour), at.Add(2 * time.Hour), false},
		{"started before From", when.Filter{From: at}, at.Add(-time.Minute), at.Add(time.Hour), false},
		{"open end", when.Filter{From: at}, at.Add(48 * time.Hour), at.Add(49 * time.Hour), true},
		{"ongoing ends at From", when.Filter{Ongoing: true, From: at}, at.Add(-time.Hour), at, false},
		{"ongoing starts at From", when.Filter{Ongoing: true, From: at}, at, at.Add(time.Hour), true},
		{"no end is never ongoing", when.Filter{Ongoing: true, From: at}, at, time.Time{}, false},
		{"still on: started before From, ends after", when.Filter{Ongoing: true, From: at, To: at.Add(time.Hour)}, at.Add(-time.Minute), at.Add(time.Hour), true},
		{"still on: starts before To", when.Filter{Ongoing: true, From: at, To: at.Add(time.Hour)}, at.Add(59 * time.Minute), at.Add(2 * time.Hour), true},
		{"still on: ended at From", when.Filter{Ongoing: true, From: at, To: at.Add(time.Hour)}, at.Add(-time.Hour), at, false},
		{"still on: starts at To", when.Filter{Ongoing: true, From: at, To: at.Add(time.Hour)}, at.Add(time.Hour), at.Add(2 * time.Hour), false},
		{"next ignores the set", when.Filter{Next: true, From: at}, at.Add(5 * time.Hour), at.Add(6 * time.Hour), true},
		{"room ignores case", when.Filter{Rooms: []string{"Room B"}}, at, at, true},
		{"other room", when.Filter{Rooms: []string{"Hall 1"}}, at, at, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, c.f.Match(c.start, c.end, "room b", "DevOps", "talk"), "Match")
		})
	}
}

func TestIsZero(t *testing.T) {
	for _, c := range []struct {
		name string
		f    when.Filter
		want bool
	}{
		{"zero", when.Filter{}, true},
		{"label only", when.Filter{Label: "anything"}, true},
		{"from", when.Filter{From: sgNow}, false},
		{"to", when.Filter{To: sgNow}, false},
		{"ongoing", when.Filter{Ongoing: true}, false},
		{"next", when.Filter{Next: true}, false},
		{"rooms", when.Filter{Rooms: []string{"Hall 1"}}, false},
		{"tracks", when.Filter{Tracks: []string{"DevOps"}}, false},
		{"formats", when.Filter{Formats: []string{"panel"}}, false},
	} {
		assert.Equal(t, c.want, c.f.IsZero(), "%s: IsZero", c.name)
	}
}

func TestFilterJSONOmitsZeroValues(t *testing.T) {
	for _, c := range []struct {
		f    when.Filter
		want string
	}{
		{when.Filter{}, `{}`},
		{when.Filter{From: time.Date(2026, 10, 20, 9, 0, 0, 0, time.UTC), Next: true}, `{"from":"2026-10-20T09:00:00Z","next":true}`},
	} {
		got, err := json.Marshal(c.f)
		if assert.NoError(t, err, "Marshal") {
			assert.Equal(t, c.want, string(got), "Marshal")
		}
	}
}
