package lexical

import (
	"slices"

	"github.com/erleah/erleah-agent/search/terms"
)

// BM25 parameters: the textbook values, not tuned on any data.
const (
	k1 = 1.2
	b  = 0.75
)

// index is the BM25 index of one group of documents.
type index struct {
	keys   []string
	byKey  map[string]int32
	lens   []float64
	avgLen float64
	post   map[string][]posting // stem → postings, by document
	idf    map[string]float64
	stems  [][]string // each document's distinct stems
}

type posting struct {
	doc int32
	tf  float32 // field-weighted term frequency
}

func newIndex() *index { return &index{byKey: map[string]int32{}, post: map[string][]posting{}} }

// add indexes one document and returns its distinct stems.
func (x *index) add(d Doc) map[string]bool {
	doc := int32(len(x.keys))
	x.keys = append(x.keys, d.Key)
	x.byKey[d.Key] = doc
	tf := map[string]float64{}
	var length float64
	for _, f := range d.Fields {
		for _, t := range terms.Content(f.Text) {
			tf[t.Stem] += f.Weight
			length += f.Weight
		}
	}
	x.lens = append(x.lens, length)
	stems := make(map[string]bool, len(tf))
	list := make([]string, 0, len(tf))
	for s, n := range tf {
		x.post[s] = append(x.post[s], posting{doc: doc, tf: float32(n)})
		stems[s] = true
		list = append(list, s)
	}
	x.stems = append(x.stems, list)
	return stems
}

func (x *index) finish() {
	var sum float64
	for _, l := range x.lens {
		sum += l
	}
	if len(x.lens) > 0 {
		x.avgLen = sum / float64(len(x.lens))
	}
	x.idf = make(map[string]float64, len(x.post))
	for s, ps := range x.post {
		x.idf[s] = terms.IDF(len(x.keys), len(ps))
	}
}

// has reports whether document doc contains stem.
func (x *index) has(stem string, doc int32) bool {
	ps := x.post[stem]
	_, ok := slices.BinarySearchFunc(ps, doc, func(p posting, d int32) int { return int(p.doc - d) })
	return ok
}

// score adds weight × BM25(stem) to the score of every document that has
// stem; allowed, when set, keeps only those documents.
func (x *index) score(stem string, weight float64, scores map[int32]float64, allowed map[int32]bool) {
	idf := x.idf[stem]
	for _, p := range x.post[stem] {
		if allowed != nil && !allowed[p.doc] {
			continue
		}
		tf := float64(p.tf)
		norm := tf * (k1 + 1) / (tf + k1*(1-b+b*x.lens[p.doc]/max(x.avgLen, 1)))
		scores[p.doc] += weight * idf * norm
	}
}
