package rules

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
)

// A reflection round searches the plain relaxation whole when there is
// room for it beside the reflector's best query, and that query always.
func TestAReflectionRoundKeepsThePlainRelaxation(t *testing.T) {
	q := func(text string) search.Query { return search.Query{Table: search.Sessions, Text: text} }
	own := []search.Query{q("own 1"), q("own 2"), q("own 3")}
	plain := []search.Query{q("plain 1"), q("plain 2"), q("plain 3")}
	assert.Equal(t, []search.Query{q("own 1"), q("own 2"), q("plain 1"), q("plain 2"), q("plain 3")}, withPlain(own, plain))
	five := append(slices.Clone(plain), q("plain 4"), q("plain 5"))
	assert.Equal(t, append([]search.Query{q("own 1")}, five[:4]...), withPlain(own, five))
	assert.Equal(t, own, withPlain(own, nil))
}
