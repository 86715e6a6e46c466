package rules_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/conference"
	"github.com/erleah/erleah-agent/rules"
	"github.com/erleah/erleah-agent/search/searchtest"
)

// A phrase spelled out in the question is explained by the acronym the
// programme writes for it without ever spelling it out: the words the
// programme lacks are what its acronym says, not missing.
func TestASpelledOutPhraseIsExplainedByTheProgrammesAcronym(t *testing.T) {
	b, err := conference.Parse("bsx.json", []byte(`{"conferences":[{"id":"bsx","name":"Building Services Days"}],
 "sessions":[
  {"id":"cfd","conference_id":"bsx","title":"Workshop: CFD for natural ventilation","description":"Setting up CFD models of airflow and smoke movement in atria.","format":"workshop"},
  {"id":"hot","conference_id":"bsx","title":"Designing for hotter summers","description":"Dynamic thermal modelling of overheating risk in new homes.","format":"keynote"},
  {"id":"hp","conference_id":"bsx","title":"Heat pumps in flats","description":"Air source heat pumps for tower blocks, with CFD of plant rooms.","format":"talk"},
  {"id":"lift","conference_id":"bsx","title":"Lift modernisation","description":"Replacing controllers in ageing lifts.","format":"talk"}]}`))
	require.NoError(t, err)
	eng := searchtest.Engine(t, b)
	st, err := agent.New(rules.New(), eng, agent.Options{}).Run(context.Background(),
		agent.Request{Message: "Is there anything on computational fluid dynamics?", Conference: agent.Conference{ID: "bsx", Name: "Building Services Days"}}, nil)
	require.NoError(t, err)
	assert.Contains(t, st.ResponseText, "[sessions/cfd]", "answer: %s", st.ResponseText)
	assert.NotContains(t, st.ResponseText, "[sessions/lift]", "answer: %s", st.ResponseText)
}
