package lexical_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/lexical"
)

func TestAPriceAskedIsToldFromCostAsATopic(t *testing.T) {
	for msg, want := range map[string]bool{
		"how much is a day ticket":                true,
		"what does the gala dinner cost?":         true,
		"ticket prices?":                          true,
		"any talks on cloud cost optimisation?":   false,
		"how much time is there between talks?":   false,
		"sessions on the cost of carbon capture?": false,
	} {
		assert.Equal(t, want, lexical.AsksPrice(msg), msg)
	}
	assert.True(t, lexical.StatesPrice("Tickets £45 at the desk."))
	assert.True(t, lexical.StatesPrice("Entry is 20 euros."))
	assert.True(t, lexical.StatesPrice("The tour is free of charge."))
	assert.False(t, lexical.StatesPrice("Drinks from 19:00, dinner at 19:30."))
}
