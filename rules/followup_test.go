package rules_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/rules"
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
