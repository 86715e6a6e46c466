package memsearch

import (
	"math"
	"slices"
	"sync"
)

// Large shards are scanned in int8: each row is stored a second time as
// bytes with a per-row scale, a query is quantised the same way, and the scan
// reads a quarter of the bytes the float rows take. The scan's scores are
// approximate, so it only picks candidates; the candidates are then scored
// again from the float rows, and the hits carry exact scores.

// DefaultQuantiseAbove is the shard size, in vector rows, from which memsearch
// keeps int8 copies of the rows and scans those. Below it the float scan is
// already short and the copies would only cost memory.
const DefaultQuantiseAbove = 32768

// queryLevels bounds the quantised query's values: with rows stored as
// unsigned bytes (0–255) the kernel's pairwise byte products must fit a signed
// 16-bit sum, 2 × 255 × 63 < 32768.
const queryLevels = 63

// rowLevels bounds a quantised row's values before the offset of 128.
const rowLevels = 127

// Option configures an Index.
type Option func(*Index)

// QuantiseAbove sets the shard size, in vector rows (master and facet rows
// counted apart), from which the shard keeps int8 copies and scans them;
// 0 quantises every shard.
func QuantiseAbove(rows int) Option {
	return func(x *Index) { x.quantAbove = rows }
}

// qmatrix is the int8 copy of a float matrix: row r is codes[r*dim:(r+1)*dim],
// each value stored as 128 + round(v / scales[r]).
type qmatrix struct {
	codes  []uint8
	scales []float32
}

// appendRows quantises the rows of m and appends them.
func (q *qmatrix) appendRows(m []float32, dim int) {
	q.codes = slices.Grow(q.codes, len(m))
	q.scales = slices.Grow(q.scales, len(m)/dim)
	for off := 0; off < len(m); off += dim {
		row := m[off : off+dim]
		scale := absMax(row) / rowLevels
		q.scales = append(q.scales, scale)
		for _, v := range row {
			q.codes = append(q.codes, uint8(128+quantise(v, scale, rowLevels)))
		}
	}
}

func absMax(v []float32) float32 {
	var m float32
	for _, x := range v {
		m = max(m, float32(math.Abs(float64(x))))
	}
	return m
}

func quantise(v, scale float32, levels int) int {
	if scale == 0 {
		return 0
	}
	n := int(math.Round(float64(v / scale)))
	return min(max(n, -levels), levels)
}

// quantQuery is a query vector in int8 with its scale and the sum of its
// codes (to remove the rows' offset of 128 from each dot product).
type quantQuery struct {
	codes []int8
	scale float32
	sum   int32
}

func newQuantQuery(v []float32, dim int) quantQuery {
	q := quantQuery{codes: make([]int8, dim), scale: absMax(v[:dim]) / queryLevels}
	for i, x := range v[:dim] {
		c := quantise(x, q.scale, queryLevels)
		q.codes[i] = int8(c)
		q.sum += int32(c)
	}
	return q
}

// sims sets out[r] to the approximate dot product of the query with row r.
func (q *qmatrix) sims(qq quantQuery, dim int, dots []int32, out []float32) {
	dotRowsU8(qq.codes, q.codes, dim, dots)
	for r, d := range dots {
		out[r] = float32(d-128*qq.sum) * q.scales[r] * qq.scale
	}
}

func (q *qmatrix) bytes() int64 {
	if q == nil {
		return 0
	}
	return int64(cap(q.codes)) + int64(cap(q.scales))*4
}

// scratchDots holds the integer dot products of an int8 scan.
var scratchDots = sync.Pool{New: func() any { return new([]int32) }}

// approxSims quantises v and sets the pooled buffer's row r to the
// approximate similarity of v with row r.
func (q *qmatrix) approxSims(buf *[]float32, v []float32, dim int) []float32 {
	n := len(q.scales)
	if cap(*buf) < n {
		*buf = make([]float32, n)
	}
	out := (*buf)[:n]
	dots := scratchDots.Get().(*[]int32)
	defer scratchDots.Put(dots)
	if cap(*dots) < n {
		*dots = make([]int32, n)
	}
	q.sims(newQuantQuery(v, dim), dim, (*dots)[:n], out)
	return out
}
