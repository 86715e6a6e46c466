package memsearch_test

import (
	"testing"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/memsearch"
	"github.com/erleah/erleah-agent/search/searchtest"
)

func TestConformance(t *testing.T) {
	searchtest.Run(t, func(t *testing.T, dim int) search.Index { return memsearch.New(dim) })
}
