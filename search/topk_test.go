package search_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/erleah/erleah-agent/search"
)

func TestTopKKeepsTheBestWithTiesByID(t *testing.T) {
	top := search.TopK[int]{K: 3}
	for i, c := range []struct {
		score float32
		id    string
	}{{0.5, "b"}, {0.9, "z"}, {0.5, "a"}, {0, "zero"}, {0.7, "m"}, {0.1, "low"}} {
		top.Offer(c.score, c.id, i)
	}
	var ids []string
	for _, r := range top.Best() {
		ids = append(ids, r.ID)
	}
	assert.Equal(t, []string{"z", "m", "a"}, ids)
	assert.Equal(t, float32(0.5), top.Kth())
	assert.Equal(t, 2, top.Best()[2].Item, "the item travels with its score")

	few := search.TopK[int]{K: 3, KeepAll: true}
	few.Offer(-0.2, "neg", 0)
	assert.Len(t, few.Best(), 1, "KeepAll keeps scores ≤ 0")
	assert.Zero(t, few.Kth(), "fewer than K kept")
}

func TestSortFacetsBestFirstStable(t *testing.T) {
	fs := []search.FacetMatch{{Key: "a", Score: 0.2}, {Key: "b", Score: 0.9}, {Key: "c", Score: 0.2}}
	search.SortFacets(fs)
	assert.Equal(t, []search.FacetMatch{{Key: "b", Score: 0.9}, {Key: "a", Score: 0.2}, {Key: "c", Score: 0.2}}, fs)
}
