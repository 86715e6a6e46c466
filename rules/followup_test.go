package rules_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// A question about one cited item is answered with that item and the
// people linked to it, not with whatever else its title brings up.
func TestAQuestionAboutACitedItemStaysWithIt(t *testing.T) {
	eng := demoEngine(t)
	hist := []agent.Turn{
		{Role: "user", Text: "anything on retrieval-augmented generation?"},
		{Role: "assistant", Text: "- Build a Retrieval-Augmented Generation Service with PostgreSQL and pgvector [sessions/s040]\n" +
			"- Securing Retrieval-Augmented Generation: Access Control for Enterprise Knowledge [sessions/s066]\n" +
			"- Retrieval-Augmented Generation over Messy Enterprise Documents [sessions/s006]"},
	}
	st, err := agent.New(rules.New(), eng, agent.Options{}).Run(context.Background(),
		agent.Request{Message: "which companies are the speakers of the second one from?", Conference: agent.Conference{ID: "aidata26"}, History: hist}, nil)
	require.NoError(t, err)
	got := cited(st)
	assert.Subset(t, got, []string{"p018", "p039"}, "answer %q", st.ResponseText)
	assert.NotContains(t, got, "s040", "answer %q", st.ResponseText)
	assert.NotContains(t, got, "s006", "answer %q", st.ResponseText)
}

// A question about a named exhibitor asks for sessions on it too: "talks
// on Redpanda" is not answered by the words around the name alone.
func TestSessionsOnANamedEntityAreSearchedForIt(t *testing.T) {
	b, err := conference.Parse("redpanda.json", []byte(`{"conferences":[{"id":"k","name":"Stream Days","timezone":"UTC"}],
 "sessions":[
  {"id":"s1","conference_id":"k","title":"Running Redpanda at scale","description":"Partitions, retention and upgrades of a large Redpanda cluster.","format":"talk"},
  {"id":"s2","conference_id":"k","title":"Choosing a database","description":"Relational or document stores for a new product.","format":"talk"}],
 "exhibitors":[{"id":"e1","conference_id":"k","name":"Redpanda","description":"The community stand of the Apache project."}],
 "speakers":[]}`))
	require.NoError(t, err)
	eng := searchtest.Engine(t, b)
	st := ask(t, eng, agent.Conference{ID: "k", Name: "Stream Days"}, "Which talks on Redpanda should I not miss?", time.Time{})
	assert.Contains(t, cited(st), "s1", "answer %q", st.ResponseText)
	assert.NotContains(t, cited(st), "s2", "answer %q", st.ResponseText)
}

// "The next slot" asks for what is on next, not for sessions about slots.
func TestTheNextSlotIsWhatIsOnNext(t *testing.T) {
	eng, conf := harbour(t)
	sun := time.Date(2026, 10, 25, 8, 30, 0, 0, time.UTC) // 09:30 in Amsterdam
	st := ask(t, eng, conf, "What's on in the next slot?", sun)
	assert.Equal(t, []string{"sun-am"}, cited(st), "answer %q", st.ResponseText)
	none := ask(t, eng, conf, "anything on saunas next?", sun)
	assert.Contains(t, none.ResponseText, "at Harbour Days starting next that", "answer %q", none.ResponseText)
}
