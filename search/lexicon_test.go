package search_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
)

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
		var got []string
		for _, m := range lex.Mentions(msg) {
			got = append(got, m.Ref.Key())
		}
		assert.Equal(t, want, got, "Mentions(%q)", msg)
	}
}
