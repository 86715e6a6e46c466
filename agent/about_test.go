package agent_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/search"
)

// Small talk is answered in kind, without a search or a model call.
func TestSmallTalkIsAnsweredInKind(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result { return nil }}
	for msg, want := range map[string]string{
		"hi!":                   "Hello! I can find talks, workshops, speakers and exhibitors at Tiny Conf",
		"thanks, that's great!": "You're welcome!",
		"are you a bot?":        "I'm an automated assistant for Tiny Conf.",
		"what can you do?":      "by topic, time or room",
		"ok":                    "Anything else I can find for you at Tiny Conf?",
	} {
		st, events := run(t, m, s, agent.Options{}, msg)
		assert.Contains(t, st.ResponseText, want, "%q: answer", msg)
		assert.Empty(t, st.Tried, "%q: searches", msg)
		assert.Empty(t, st.ModelCalls, "%q: model calls", msg)
		assert.Empty(t, st.Citations, "%q: citations", msg)
		require.NotEmpty(t, events, "%q: events", msg)
		assert.IsType(t, agent.Answer{}, events[len(events)-1], "%q: the last event, want the answer", msg)
	}
}
