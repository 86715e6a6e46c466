package agent_test

import (
	"context"
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
		"hi!":                     "Hello! I can find talks, workshops, speakers and exhibitors at Tiny Conf",
		"thanks, that's great!":   "You're welcome!",
		"are you a bot?":          "I'm an automated assistant for Tiny Conf.",
		"what can you do?":        "by topic, time or room",
		"ok":                      "Anything else I can find for you at Tiny Conf?",
		"this coffee is dreadful": "Sorry to hear that.",
		"Good morning from Leeds! First time here": "Hello!",
	} {
		st, events := run(t, m, s, agent.Options{}, msg)
		assert.Contains(t, st.ResponseText, want, "%q: answer", msg)
		requirePlain(t, st, events, msg)
	}
}

// An answer that neither searches nor calls a model still says, for a
// question in another language, that the agent works in English and how it
// read the question.
func TestAPlainAnswerSaysItWorksInEnglish(t *testing.T) {
	m := &scripted{replies: map[agent.Step][]string{}}
	s := &fakeSearch{lex: tinyLexicon(t), results: func(q search.Query) []search.Result { return nil }}
	a := agent.New(m, s, agent.Options{Translator: spanish{"¿Me puedes recomendar algo?": "Can you recommend something?"}})
	st, err := a.Run(context.Background(), agent.Request{Message: "¿Me puedes recomendar algo?", Conference: agent.Conference{ID: "c1", Name: "Tiny Conf"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "I work in English, so I read your question (in Spanish) as “Can you recommend something?”.\n\n"+agent.WhatAreYouLookingFor, st.ResponseText)
	assert.Empty(t, st.Tried, "searched")
}

// spanish translates the Spanish questions it knows.
type spanish map[string]string

func (spanish) Reads(lang string) bool { return lang == "es" }

func (s spanish) Translate(_ context.Context, _, text string, _ func(string) bool) (string, error) {
	return s[text], nil
}
