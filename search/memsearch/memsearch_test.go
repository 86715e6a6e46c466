package memsearch_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/memsearch"
	"github.com/erleah/erleah-agent/search/searchtest"
)

func TestConformance(t *testing.T) {
	searchtest.Run(t, func(t *testing.T, dim int) search.Index { return memsearch.New(dim) })
}

// A facet key a reload dropped stops widening the coverage denominator once
// its rows are compacted away.
func TestDroppedOwnFacetKeysStopCounting(t *testing.T) {
	ctx := context.Background()
	idx := memsearch.New(4)
	v := []float32{1, 0, 0, 0}
	ent := func(id, key string) search.Entity {
		return search.Entity{Ref: search.Ref{Conference: "c", Table: search.Sessions, ID: id}, Master: v,
			Facets: []search.FacetVector{{Key: key, Vector: v}}}
	}
	var ents []search.Entity
	for i := range 16 {
		ents = append(ents, ent(fmt.Sprint("s", i), "session_topic"))
	}
	require.NoError(t, idx.Upsert(ctx, append(ents, ent("own", "talks_about"))))
	score := func() float32 {
		hits, err := idx.Search(ctx, search.VectorQuery{Conference: "c", Table: search.Sessions, Mode: search.Faceted, Vector: v, Limit: 1})
		require.NoError(t, err, "search")
		require.NotEmpty(t, hits, "search")
		return hits[0].Score
	}
	with := score()
	require.NoError(t, idx.Delete(ctx, []search.Ref{{Conference: "c", Table: search.Sessions, ID: "own"}}))
	require.NoError(t, idx.Upsert(ctx, ents[:3])) // churn enough rows to compact
	without := score()
	assert.Greater(t, without, with, "score %v after the own key went, %v with it: the denominator still counts it", without, with)
}

// Every shard quantised: the int8 scan only picks candidates, so the suite's
// exact scores, order, thresholds and isolation hold unchanged.
func TestConformanceQuantised(t *testing.T) {
	searchtest.Run(t, func(t *testing.T, dim int) search.Index { return memsearch.New(dim, memsearch.QuantiseAbove(0)) })
}
