package memsearch

import (
	"math"
	"math/rand/v2"
	"testing"
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
			if math.Abs(float64(out[row])-want) > 1e-3*math.Max(1, math.Abs(want)) {
				t.Fatalf("dim %d row %d: got %v, want %v", dim, row, out[row], want)
			}
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
