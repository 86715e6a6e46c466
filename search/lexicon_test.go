package search_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
)

// mentioned are the keys of the entities msg names.
func mentioned(lex *search.Lexicon, msg string) []string {
	var out []string
	for _, m := range lex.Mentions(msg) {
		out = append(out, m.Ref.Key())
	}
	return out
}

// An exhibitor is named by its booth too, written as the programme writes
// it or without its hyphen.
func TestAnExhibitorIsNamedByItsBooth(t *testing.T) {
	lex := search.NewLexicon(tinyBundle(t).Of("c1"))
	for msg, want := range map[string][]string{
		"where's booth A-01?":    {"exhibitors/e1"},
		"who is at A01":          {"exhibitors/e1"},
		"where is booth B-01?":   nil,
		"what's at stand a 01":   {"exhibitors/e1"},
		"talks from 2001?":       nil,
		"any talks on A-series?": nil,
	} {
		assert.Equal(t, want, mentioned(lex, msg), "Mentions(%q)", msg)
	}
}

// A speaker whose programme name opens with an honorific is named without
// it, as attendees write it; a name of two words keeps its first.
func TestASpeakerIsNamedWithoutTheirHonorific(t *testing.T) {
	b, err := conference.Parse("h.json", []byte(`{"conferences":[{"id":"c","name":"C","timezone":"UTC"}],
	 "sessions":[{"id":"s1","conference_id":"c","title":"Orphan works","speaker_ids":["p1","p2"]}],
	 "exhibitors":[],
	 "speakers":[{"id":"p1","conference_id":"c","name":"Dr Priya Natarajan","session_ids":["s1"]},
	  {"id":"p2","conference_id":"c","name":"Prof. Okafor","session_ids":["s1"]}]}`))
	require.NoError(t, err)
	lex := search.NewLexicon(b)
	for msg, want := range map[string][]string{
		"when does Priya Natarajan speak?": {"speakers/p1"},
		"is dr priya natarajan here?":      {"speakers/p1"},
		"anything by Prof. Okafor?":        {"speakers/p2"},
		"is Okafor speaking?":              {"speakers/p2"}, // a surname alone names its speaker
		"talks by Natarajan Priya":         {"speakers/p1"},
		"talks by Priya":                   nil, // a first name is no surname
	} {
		assert.Equal(t, want, mentioned(lex, msg), "Mentions(%q)", msg)
	}
}

// A question's mentions are remembered, and each caller gets its own copy.
func TestMentionsAreRememberedAsCopies(t *testing.T) {
	lex := search.NewLexicon(tinyBundle(t).Of("c1"))
	first := lex.Mentions("where's booth A-01?")
	require.Len(t, first, 1)
	first[0].Title = "changed"
	again := lex.Mentions("where's booth A-01?")
	require.Len(t, again, 1)
	assert.NotEqual(t, "changed", again[0].Title)
}

// A speaker is named without the accents of their name, and by their
// surname alone when no other name has it and no other text here uses it;
// a surname that general English uses as a word must be written with a
// capital.
func TestASpeakerIsNamedByTheirSurnameAndWithoutAccents(t *testing.T) {
	b, err := conference.Parse("s.json", []byte(`{"conferences":[{"id":"c","name":"C","timezone":"UTC"}],
	 "sessions":[{"id":"s1","conference_id":"c","title":"Cold chain monitoring","description":"Lucía Fernández on reefers.","speaker_ids":["p1"]},
	  {"id":"s2","conference_id":"c","title":"Walking the quay","description":"Where to park at the terminals.","speaker_ids":["p2","p3"]}],
	 "exhibitors":[],
	 "speakers":[{"id":"p1","conference_id":"c","name":"Lucía Fernández","session_ids":["s1"]},
	  {"id":"p2","conference_id":"c","name":"Dr Amara Park","session_ids":["s2"]},
	  {"id":"p3","conference_id":"c","name":"Jo Fernandes","session_ids":["s2"]}]}`))
	require.NoError(t, err)
	lex := search.NewLexicon(b)
	for msg, want := range map[string][]string{
		"who is Lucia Fernandez?":      {"speakers/p1"},
		"when does fernandez speak":    {"speakers/p1"},
		"is Fernández on today?":       {"speakers/p1"},
		"is Park speaking?":            {"speakers/p2"},
		"where can I park?":            nil, // "park" is English: only a capital makes it a name
		"when is Fernandes presenting": {"speakers/p3"},
		"any talks on the quay?":       nil,
	} {
		assert.Equal(t, want, mentioned(lex, msg), "Mentions(%q)", msg)
	}
}
