package agent

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
)

// The examples of what to ask come from the conference's own tracks, those
// with the most talks, workshops and panels; without two tracks, from
// nothing but the programme's shape.
func TestWhatToAskComesFromTheProgramme(t *testing.T) {
	at := func(track, format string) search.Result {
		return search.Result{Item: search.Item{Session: &search.Slot{Track: track, Format: format}}}
	}
	sessions := []search.Result{at("Services", "other"), at("Services", "other"), at("Services", "other"),
		at("Keynotes", "keynote"), at("Metadata", "talk"), at("Outreach", "talk"), at("Outreach", "workshop")}
	assert.Contains(t, lookingFor(sessions), "“talks on Outreach tomorrow morning” or “who works on Metadata?”")
	assert.Equal(t, WhatAreYouLookingFor, lookingFor(sessions[:5]))
	assert.NotContains(t, WhatAreYouLookingFor, "Kubernetes")
}
