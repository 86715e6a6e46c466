// Package hashembed is the offline embedder ("hash"): a deterministic,
// normalised vector built by hashing a text's words, word pairs and character
// n-grams into a few hundred dimensions. It needs no model, no network and no
// state, and it is safe for concurrent use.
//
// Words carry most of the weight; word pairs reward matching phrases; the
// character 3- and 4-grams of each word make spelling variants and
// inflections ("kubernets", "deployments") land near each other.
package hashembed

import (
	"context"
	"math"

	"github.com/erleah/erleah-agent/search"
	"github.com/erleah/erleah-agent/search/terms"
)

// DefaultDim is the vector dimension used unless New is given another.
const DefaultDim = 512

// Feature weights. The n-grams of one word together weigh gramShare of the
// word itself, whatever the word's length.
const (
	wordWeight    = 1.0
	pairWeight    = 0.5
	gramShare     = 0.5
	genericWeight = 0.35
)

// Embedder hashes texts into Dim-dimensional unit vectors. The zero value is
// not usable; call New.
type Embedder struct {
	dim int
}

// New returns a hash embedder of dimension dim (DefaultDim when dim <= 0).
func New(dim int) *Embedder {
	if dim <= 0 {
		dim = DefaultDim
	}
	return &Embedder{dim: dim}
}

// Name returns "hash".
func (e *Embedder) Name() string { return "hash" }

// Dim returns the vector dimension.
func (e *Embedder) Dim() int { return e.dim }

// Calibration returns the score levels measured for this embedder on the demo
// conference with labelled probe queries (BENCHMARKS.md, "calibration"): the
// best relevant item scores 0.27 (faceted) to 0.31 (master) at the median,
// the best irrelevant one about 0.16, the fifth irrelevant one about 0.10.
func (e *Embedder) Calibration() search.Calibration {
	return search.Calibration{
		FacetFloor: 0.12,
		Threshold:  0.18,
		Confident:  0.27,
		Relaxed:    0.12,
		Loosest:    0.08,
	}
}

// Embed returns one vector per text. It never fails except when ctx is done.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		out[i] = e.Vector(t)
	}
	return out, nil
}

// Vector embeds one text. An empty or stop-word-only text gives a zero vector.
func (e *Embedder) Vector(text string) []float32 {
	v := make([]float32, e.dim)
	tokens := terms.Content(text)
	for i, t := range tokens {
		w := float32(wordWeight)
		if generic[t.Stem] {
			w = genericWeight
		}
		e.add(v, "w\x00"+t.Stem, w)
		e.addGrams(v, t.Raw, w)
		if i > 0 {
			e.add(v, "p\x00"+tokens[i-1].Stem+"\x00"+t.Stem, pairWeight*w)
		}
	}
	search.Normalise(v)
	return v
}

// addGrams adds the 3- and 4-grams of "^word$", sharing gramShare × w.
func (e *Embedder) addGrams(v []float32, word string, w float32) {
	b := make([]byte, 0, len(word)+2)
	b = append(append(append(b, '^'), word...), '$')
	n := 0
	for size := 3; size <= 4; size++ {
		n += max(0, len(b)-size+1)
	}
	if n == 0 {
		return
	}
	gw := w * float32(math.Sqrt(gramShare/float64(n)))
	for size := 3; size <= 4; size++ {
		for i := 0; i+size <= len(b); i++ {
			e.add(v, "g\x00"+string(b[i:i+size]), gw)
		}
	}
}

// add hashes a feature to one signed dimension (FNV-1a, 64 bit).
func (e *Embedder) add(v []float32, feature string, w float32) {
	h := uint64(14695981039346656037)
	for i := 0; i < len(feature); i++ {
		h ^= uint64(feature[i])
		h *= 1099511628211
	}
	idx := (h >> 1) % uint64(e.dim)
	if h&1 == 1 {
		w = -w
	}
	v[idx] += w
}

// generic are words that appear in almost every conference text and say
// little about its topic; they count, but weakly.
var generic = stems(`session talk workshop panel keynote learn join discover explore introduction overview
practical practice best new modern latest today real world use using used way ways team teams approach
approaches help helps work works working build building about attendee participant year years`)

func stems(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range terms.Words(words) {
		m[terms.Stem(w)] = true
	}
	return m
}
