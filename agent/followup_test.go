package agent

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
)

func TestFollowUpsAreResolved(t *testing.T) {
	hist := []Turn{
		{Role: "user", Text: "Any talks on serving models on-prem?"},
		{Role: "assistant", Text: "Here is what I found:\n- Serving open models [sessions/s012]\n- GPU sharing [sessions/s020]\nAlso Harbour [exhibitors/e001]."},
	}
	titles := func(refs []search.Ref) []search.Result {
		var out []search.Result
		for _, r := range refs {
			out = append(out, search.Result{Item: search.Item{Ref: r, Title: map[string]string{
				"s012": "Serving open models on GPUs", "s020": "Sharing GPUs with schedulers", "e001": "Harbour"}[r.ID], Summary: map[string]string{
				"s012": "Hands-on workshop.", "s020": "A talk on schedulers.", "e001": "Appliances."}[r.ID]}})
		}
		return out
	}
	s12, s20, e1 := search.Ref{Table: search.Sessions, ID: "s012"}, search.Ref{Table: search.Sessions, ID: "s020"}, search.Ref{Table: search.Exhibitors, ID: "e001"}
	tests := []struct {
		msg  string
		want *FollowUp
	}{
		{"when is it?", &FollowUp{Kind: FollowDetails, Refs: []search.Ref{s12}}},
		{"Where is the second one?", &FollowUp{Kind: FollowDetails, Refs: []search.Ref{s20}}},
		{"what time does the last one start", &FollowUp{Kind: FollowDetails, Refs: []search.Ref{e1}}},
		{"who is giving the first one?", &FollowUp{Kind: FollowRefer, Refs: []search.Ref{s12}, Question: `who is giving "Serving open models on GPUs"?`}},
		{"tell me more about it", &FollowUp{Kind: FollowRefer, Refs: []search.Ref{s12}, Question: `tell me more about "Serving open models on GPUs"`}},
		{"who runs them?", &FollowUp{Kind: FollowRefer, Refs: []search.Ref{s12, s20, e1}, Question: `who runs "Serving open models on GPUs" and "Sharing GPUs with schedulers" and "Harbour"?`}},
		{"any more like that?", &FollowUp{Kind: FollowMore, Refs: []search.Ref{s12, s20, e1}, Question: "Any talks on serving models on-prem? gpus"}},
		{"anything similar", &FollowUp{Kind: FollowMore, Refs: []search.Ref{s12, s20, e1}, Question: "Any talks on serving models on-prem? gpus"}},
		{"and exhibitors?", &FollowUp{Kind: FollowTable, Table: search.Exhibitors, Question: "Any talks on serving models on-prem?"}},
		{"What about speakers?", &FollowUp{Kind: FollowTable, Table: search.Speakers, Question: "Any talks on serving models on-prem?"}},
		{"when's the hands-on one?", &FollowUp{Kind: FollowDetails, Refs: []search.Ref{s12}}},
		{"could you tell me a bit more about the second one please?", &FollowUp{Kind: FollowRefer, Refs: []search.Ref{s20}, Question: `could you tell me a bit more about "Sharing GPUs with schedulers" please?`}},
		{"what else is there?", &FollowUp{Kind: FollowMore, Refs: []search.Ref{s12, s20, e1}, Question: "Any talks on serving models on-prem? gpus"}},
		{"any vendors selling that?", &FollowUp{Kind: FollowTable, Table: search.Exhibitors, Question: "Any talks on serving models on-prem? selling"}},
		// New questions in the same conversation are not follow-ups.
		{"Are there talks that cover retrieval evaluation?", nil},
		{"Which exhibitors sell vector databases?", nil},
		{"Is there a workshop on data contracts and is it hands-on for beginners in the afternoon?", nil},
	}
	for _, tc := range tests {
		got := resolveFollowUp(tc.msg, hist, titles)
		assert.Equal(t, fmt.Sprintf("%+v", tc.want), fmt.Sprintf("%+v", got), "%q", tc.msg)
	}
	assert.Nil(t, resolveFollowUp("when is it?", nil, titles), "without history")
}

func TestMoreLikeOneCitedTalkLooksForItsTitle(t *testing.T) {
	hist := []Turn{
		{Role: "user", Text: "volunteers measuring river levels, is that covered?"},
		{Role: "assistant", Text: "Yes: Community river gauges [sessions/s53] with Josephine [speakers/p45]."},
	}
	items := func(refs []search.Ref) []search.Result {
		var out []search.Result
		for _, r := range refs {
			out = append(out, search.Result{Item: search.Item{Ref: r, Title: map[string]string{
				"s53": "Community river gauges: flood early warning", "p45": "Josephine Akinyi"}[r.ID]}})
		}
		return out
	}
	got := resolveFollowUp("any more like it?", hist, items)
	if assert.NotNil(t, got) {
		assert.Equal(t, FollowMore, got.Kind)
		assert.Equal(t, "volunteers measuring river levels, is that covered? Community river gauges: flood early warning", got.Question,
			"the one talk's title, not the speaker's name")
	}
}
