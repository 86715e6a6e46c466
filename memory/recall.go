package memory

import (
	"context"
	"math"
	"slices"
	"sort"

	"github.com/erleah/erleah-agent/search"
)

// MinSimilarity is how alike a lesson's failure must be to a cue to be
// recalled: a weighted cosine of their words of at least one half, the
// usual reading of "more alike than not". It was set before any
// measurement and is not tuned.
const MinSimilarity = 0.5

// Recall returns up to k lessons of a conference whose failure is like the
// cue's, most similar first (ties: the more valuable). Similarity is the
// cosine of the two texts' word weights, raised a little when the failing
// table or the kind of failure is the same.
func (b *Bank) Recall(conference string, cue Cue, k int) []Recalled {
	b.mu.RLock()
	defer b.mu.RUnlock()
	now := b.opts.Now()
	type scored struct {
		r     Recalled
		value float64
	}
	var found []scored
	for _, l := range b.byConf[conference] {
		sim := similarity(cue, l)
		if sim >= MinSimilarity {
			found = append(found, scored{Recalled{Lesson: *l, Similarity: sim}, b.value(l, now)})
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].r.Similarity != found[j].r.Similarity {
			return found[i].r.Similarity > found[j].r.Similarity
		}
		return found[i].value > found[j].value
	})
	out := make([]Recalled, 0, min(k, len(found)))
	for _, s := range found[:min(k, len(found))] {
		out = append(out, s.r)
	}
	return out
}

// similarity is how alike the two failures are, times 0.9, plus 0.05 for
// a shared failing table and 0.05 for the same kind of failure: the texts
// decide, the tags break near ties. Two texts are as alike as the cosine of
// their word weights, or as their meaning when both were embedded by the
// same embedder (meaning).
func similarity(cue Cue, l *Lesson) float64 {
	alike := max(cosine(cue.Terms, l.Terms), meaning(cue, l))
	if alike == 0 {
		return 0
	}
	s := 0.9 * alike
	if slices.ContainsFunc(cue.Tables, func(t string) bool { return slices.Contains(l.Tables, t) }) {
		s += 0.05
	}
	if cue.Failure != "" && cue.Failure == l.Failure {
		s += 0.05
	}
	return s
}

// meaning places the embeddings' cosine on the words' scale: 0 up to the
// conference's alike level (no more alike than texts sharing no word),
// then from one half (MinSimilarity: as alike as not) up to 1 for the same
// meaning.
func meaning(cue Cue, l *Lesson) float64 {
	if cue.Alike <= 0 || cue.Alike >= 1 || cue.Embedder == "" || cue.Embedder != l.Embedder || len(cue.Vector) != len(l.Vector) {
		return 0
	}
	dot := float64(search.Dot(cue.Vector, l.Vector))
	if dot <= cue.Alike {
		return 0
	}
	return 0.5 + 0.5*min((dot-cue.Alike)/(1-cue.Alike), 1)
}

func cosine(a, b map[string]float64) float64 {
	var dot, na, nb float64
	for k, w := range a {
		na += w * w
		dot += w * b[k]
	}
	for _, w := range b {
		nb += w * w
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}

// Used records that recalled lessons were acted on, and whether the turn's
// search then answered.
func (b *Bank) Used(ctx context.Context, ids []string, helped bool) error {
	if len(ids) == 0 {
		return nil
	}
	b.mu.Lock()
	var changed []Lesson
	for _, ls := range b.byConf {
		for _, l := range ls {
			if slices.Contains(ids, l.ID) {
				l.Uses++
				if helped {
					l.Helped++
				}
				changed = append(changed, *l)
			}
		}
	}
	b.mu.Unlock()
	return b.persist(ctx, changed, nil)
}

// List returns a conference's lessons ("" for every conference), newest
// first.
func (b *Bank) List(conference string) []Lesson {
	b.mu.RLock()
	defer b.mu.RUnlock()
	var out []Lesson
	for conf, ls := range b.byConf {
		if conference != "" && conf != conference {
			continue
		}
		for _, l := range ls {
			out = append(out, *l)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.After(out[j].At) })
	return out
}

// Clear forgets a conference's lessons ("" for every conference) and
// returns how many were forgotten.
func (b *Bank) Clear(ctx context.Context, conference string) (int, error) {
	b.mu.Lock()
	var ids []string
	for conf, ls := range b.byConf {
		if conference != "" && conf != conference {
			continue
		}
		for _, l := range ls {
			ids = append(ids, l.ID)
		}
		delete(b.byConf, conf)
	}
	b.mu.Unlock()
	if b.backend != nil && len(ids) > 0 {
		if err := b.backend.Delete(ctx, ids); err != nil {
			return 0, err
		}
	}
	return len(ids), nil
}
