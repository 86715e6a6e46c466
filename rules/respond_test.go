package rules

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A topic is quoted up to where a new part of its sentence starts, and not
// at all when the quote would be cut at the word limit or left with less
// than two content words.
func TestQuotableQuotesAPhraseOrNothing(t *testing.T) {
	for topic, want := range map[string]string{
		"sauna": "“sauna”",
		"make realistic fake patient datasets so researchers can use them without privacy problems": "“make realistic fake patient datasets”",
		"Two things on my list: login screens and car dashboards":                                   "what you asked for",
		"login screens sign-in across devices car dashboards driver apps android auto smart lock":   "what you asked for",
	} {
		assert.Equal(t, want, quotable(topic), topic)
	}
}
