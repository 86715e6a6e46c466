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
	b, err := conference.Parse("alt.json", []byte(`{"conferences":[{"id":"c","name":"Aid","timezone":"UTC"}],
 "sessions":[{"id":"s1","conference_id":"c","title":"Closing the loop with affected people","description":"Inter-agency AAP work in two countries."},
  {"id":"s2","conference_id":"c","title":"Cash transfers","description":"Vouchers and mobile money."}],"exhibitors":[],"speakers":[]}`))
	require.NoError(t, err)
	lex := search.NewLexicon(b)
	item := search.Result{Item: search.Item{Ref: search.Ref{Table: search.Sessions, ID: "s1"}}}
	planned := []search.Query{{Table: search.Sessions, Text: "AAP CFM stuff"}}
	assert.True(t, newEvidence(lex, planned, "", "any AAP / CFM stuff?").answers(item), "AAP or CFM")
	assert.False(t, newEvidence(lex, planned, "", "any AAP CFM stuff?").answers(item), "AAP and CFM")
}

// The alternative may itself be an abbreviation the conference only
// spells out: an item on Kubernetes answers "K8S / OTA".
func TestAnExplainedAcronymsAlternativeAnswersForIt(t *testing.T) {
	b, err := conference.Parse("alt.json", []byte(`{"conferences":[{"id":"c","name":"Garage","timezone":"UTC"}],
 "sessions":[{"id":"s1","conference_id":"c","title":"Kubernetes in the garage","description":"Running workshop software on clusters."},
  {"id":"s2","conference_id":"c","title":"Tyre storage","description":"Racks and rotation."}],"exhibitors":[],"speakers":[]}`))
	require.NoError(t, err)
	lex := search.NewLexicon(b)
	item := search.Result{Item: search.Item{Ref: search.Ref{Table: search.Sessions, ID: "s1"}}}
	planned := []search.Query{{Table: search.Sessions, Text: "K8S OTA"}}
	assert.True(t, newEvidence(lex, planned, "", "K8S / OTA, who's on that?").answers(item), "K8S or OTA")
	assert.False(t, newEvidence(lex, planned, "", "K8S and OTA, who's on that?").answers(item), "K8S and OTA")
}
