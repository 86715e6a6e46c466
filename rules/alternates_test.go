package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/search"
)

func TestAlternatesAreAcronymsJoinedByASlash(t *testing.T) {
	assert.Equal(t, map[string][]string{"aap": {"cfm"}, "cfm": {"aap"}}, alternates("any AAP / CFM stuff?"))
	assert.Equal(t, map[string][]string{"oos": {"oot"}, "oot": {"oos"}}, alternates("where's the OOS/OOT content?"))
	assert.Empty(t, alternates("crop insurance or agricultural hail"), "phrases joined by or")
	assert.Empty(t, alternates("routed optical networking / IPoDWDM"), "a phrase and a word")
	assert.Empty(t, alternates("VSH or SMR stock"), "or is left to the phrases")
}

// An item with one of two acronyms joined by a slash answers the question;
// without the slash the acronym nothing here uses counts against it.
func TestAnAcronymsAlternativeAnswersForIt(t *testing.T) {
	answers := s1Answers(t, `"title":"Closing the loop with affected people","description":"Inter-agency AAP work in two countries."`, "AAP CFM stuff")
	assert.True(t, answers("any AAP / CFM stuff?"), "AAP or CFM")
	assert.False(t, answers("any AAP CFM stuff?"), "AAP and CFM")
}

// The alternative may itself be an abbreviation the conference only
// spells out: an item on Kubernetes answers "K8S / OTA".
func TestAnExplainedAcronymsAlternativeAnswersForIt(t *testing.T) {
	answers := s1Answers(t, `"title":"Kubernetes in the garage","description":"Running workshop software on clusters."`, "K8S OTA")
	assert.True(t, answers("K8S / OTA, who's on that?"), "K8S or OTA")
	assert.False(t, answers("K8S and OTA, who's on that?"), "K8S and OTA")
}

// s1Answers builds a conference of session s1 (its title and description
// given as JSON members) and an unrelated one, and reports, for a
// question planned as one session query, whether s1 answers it.
func s1Answers(t *testing.T, s1, planned string) func(question string) bool {
	t.Helper()
	b, err := conference.Parse("alt.json", []byte(`{"conferences":[{"id":"c","name":"Alt","timezone":"UTC"}],
 "sessions":[{"id":"s1","conference_id":"c",`+s1+`},
  {"id":"s2","conference_id":"c","title":"Tyre storage","description":"Vouchers, racks and rotation."}],"exhibitors":[],"speakers":[]}`))
	require.NoError(t, err)
	lex := search.NewLexicon(b)
	item := search.Result{Item: search.Item{Ref: search.Ref{Table: search.Sessions, ID: "s1"}}}
	plan := []search.Query{{Table: search.Sessions, Text: planned}}
	return func(question string) bool { return newEvidence(lex, plan, "", question).answers(item) }
}
