package memsearch

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/erleah/erleah-agent/search"
)

func randomMatrix(r *rand.Rand, n int) []float32 {
	m := make([]float32, n)
	for i := range m {
		m[i] = r.Float32()*2 - 1
	}
	return m
}

// TestDotRowsMatchesReference checks the kernel in use (assembly where the
// CPU has it) against a float64 reference for dimensions that take either path.
func TestDotRowsMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, dim := range []int{3, 32, 64, 100, 512, 1536} {
		rows := 37
		m := randomMatrix(r, rows*dim)
		v := randomMatrix(r, dim)
		out := make([]float32, rows)
		dotRows(v, m, dim, out)
		for row := range rows {
			var want float64
			for i := range dim {
				want += float64(v[i]) * float64(m[row*dim+i])
			}
			require.InDelta(t, want, float64(out[row]), 1e-3*math.Max(1, math.Abs(want)), "dim %d row %d", dim, row)
		}
	}
}

func TestDotRowsEmpty(t *testing.T) {
	dotRows([]float32{1}, nil, 1, nil) // must not panic
}

func BenchmarkDotRows(b *testing.B) {
	for _, c := range []struct {
		name      string
		rows, dim int
	}{{"14k×512", 14000, 512}, {"14k×1536", 14000, 1536}} {
		r := rand.New(rand.NewPCG(1, 2))
		m := randomMatrix(r, c.rows*c.dim)
		out := make([]float32, c.rows)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(m) * 4))
			for b.Loop() {
				dotRows(m[:c.dim], m, c.dim, out)
			}
		})
		b.Run(c.name+"/go", func(b *testing.B) {
			b.SetBytes(int64(len(m) * 4))
			for b.Loop() {
				dotRowsGo(m[:c.dim], m, c.dim, out)
			}
		})
	}
}

// TestDotRowsU8MatchesReference checks the int8 kernel in use against plain
// integer arithmetic, at the extremes of the codes' ranges too.
func TestDotRowsU8MatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for _, dim := range []int{3, 32, 64, 96, 512, 1536} {
		rows := 29
		m := make([]uint8, rows*dim)
		for i := range m {
			m[i] = uint8(r.IntN(256))
		}
		q := make([]int8, dim)
		for i := range q {
			q[i] = int8(r.IntN(2*queryLevels+1) - queryLevels)
		}
		q[0], m[0] = queryLevels, 255
		out := make([]int32, rows)
		dotRowsU8(q, m, dim, out)
		for row := range rows {
			var want int32
			for i := range dim {
				want += int32(q[i]) * int32(m[row*dim+i])
			}
			require.Equal(t, want, out[row], "dim %d row %d", dim, row)
		}
	}
}

// TestQuantisedSimsAreClose checks that the int8 similarity of unit vectors
// is within a small error of the float one.
func TestQuantisedSimsAreClose(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 13))
	const dim, rows = 512, 200
	m := randomMatrix(r, rows*dim)
	for i := 0; i < len(m); i += dim {
		search.Normalise(m[i : i+dim])
	}
	v := m[5*dim : 6*dim]
	var q qmatrix
	q.appendRows(m, dim)
	exact := make([]float32, rows)
	dotRows(v, m, dim, exact)
	buf := new([]float32)
	approx := q.approxSims(buf, v, dim)
	for i := range rows {
		require.InDelta(t, float64(exact[i]), float64(approx[i]), 0.02, "row %d: int8 %v, float %v", i, approx[i], exact[i])
	}
}
