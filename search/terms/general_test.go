package terms_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/terms"
)

// Common English words are less specific than rare ones, and a word the
// concordance never uses is as specific as a word can be.
func TestSpecificityFollowsGeneralUsage(t *testing.T) {
	assert.InDelta(t, 1, terms.Specificity("sauna"), 1e-9, "sauna")
	assert.InDelta(t, 1, terms.Specificity("zzqxv"), 1e-9, "not a word")
	assert.Less(t, terms.Specificity("problems"), terms.Specificity("fake"), "problems < fake")
	assert.Less(t, terms.Specificity("fake"), terms.Specificity("sauna"), "fake < sauna")
	assert.Equal(t, terms.Specificity("problem"), terms.Specificity("problems"), "a word and its plural")
	assert.Greater(t, terms.Specificity("the"), 0.0, "never zero")
}
