package lexical_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search/lexical"
)

func TestListingNamesThePartOfTheProgrammeAskedForWhole(t *testing.T) {
	for msg, want := range map[string]string{
		"who's exhibiting?":                lexical.ListExhibitors,
		"List all the exhibitors please":   lexical.ListExhibitors,
		"who are the sponsors?":            lexical.ListExhibitors,
		"which companies have a booth?":    lexical.ListExhibitors,
		"who are the speakers?":            lexical.ListSpeakers,
		"what tracks are there?":           lexical.ListTracks,
		"what stages are there":            lexical.ListRooms,
		"What tracks are there this year?": lexical.ListTracks,
		"What rooms are being used?":       lexical.ListRooms,
		"which room is the keynote in?":    "",
		"what are the must-see sessions?":  lexical.ListHighlights,
		"what should I not miss?":          lexical.ListHighlights,
		"does Acme have a booth?":          "",
		"talks on container security":      "",
	} {
		kind, _ := lexical.Listing(msg)
		assert.Equal(t, want, kind, "Listing(%q)", msg)
	}
}

// What a listing question asks besides the list is left for the caller to
// search.
func TestListingLeavesWhatElseIsAsked(t *testing.T) {
	kind, rest := lexical.Listing("list the exhibitors that sell cold storage")
	assert.Equal(t, lexical.ListExhibitors, kind)
	assert.Equal(t, "that sell cold storage", rest)
	_, rest = lexical.Listing("Who are all the speakers?")
	assert.Equal(t, "who ?", rest)
}
