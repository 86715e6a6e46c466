package search

import (
	"cmp"
	"slices"
	"strings"
)

// Ranked is an item with its score and id, as TopK keeps it.
type Ranked[T any] struct {
	Score float32
	ID    string
	Item  T
}

// TopK keeps the K best items offered, best first; equal scores rank by id,
// so that every driver orders ties the same way. Scores ≤ 0 are dropped
// unless KeepAll is set (approximate scores, only candidates).
type TopK[T any] struct {
	K       int
	KeepAll bool
	best    []Ranked[T]
}

func better[T any](a, b Ranked[T]) bool {
	if a.Score != b.Score {
		return a.Score > b.Score
	}
	return strings.Compare(a.ID, b.ID) < 0
}

// Offer keeps item when it ranks among the K best so far.
func (t *TopK[T]) Offer(score float32, id string, item T) {
	if score <= 0 && !t.KeepAll {
		return
	}
	c := Ranked[T]{Score: score, ID: id, Item: item}
	if len(t.best) == t.K && !better(c, t.best[len(t.best)-1]) {
		return
	}
	i, _ := slices.BinarySearchFunc(t.best, c, func(x, y Ranked[T]) int {
		if better(x, y) {
			return -1
		}
		return 1
	})
	t.best = slices.Insert(t.best, i, c)
	if len(t.best) > t.K {
		t.best = t.best[:t.K]
	}
}

// Best returns what is kept, best first.
func (t *TopK[T]) Best() []Ranked[T] { return t.best }

// Kth is the K-th best score, 0 while fewer than K are kept.
func (t *TopK[T]) Kth() float32 {
	if len(t.best) < t.K {
		return 0
	}
	return t.best[t.K-1].Score
}

// SortFacets orders an entity's matched facets best first, keeping the
// order of equal scores.
func SortFacets(fs []FacetMatch) {
	slices.SortStableFunc(fs, func(a, b FacetMatch) int { return cmp.Compare(b.Score, a.Score) })
}
