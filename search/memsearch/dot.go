package memsearch

import "github.com/erleah/erleah-agent/search"

// dotRows sets out[r] to the dot product of v with row r of m, whose rows
// have dim values. For unit vectors that is their cosine similarity. It uses
// the assembly kernel when the CPU and the dimension allow it.
func dotRows(v, m []float32, dim int, out []float32) {
	if len(out) == 0 {
		return
	}
	_ = m[len(out)*dim-1] // bounds: every row is inside m
	if useAsm && dim%32 == 0 && len(v) >= dim {
		dotRowsAsm(&v[0], &m[0], &out[0], dim, len(out))
		return
	}
	dotRowsGo(v, m, dim, out)
}

func dotRowsGo(v, m []float32, dim int, out []float32) {
	for r := range out {
		out[r] = search.Dot(v[:dim], m[r*dim:(r+1)*dim])
	}
}

// dotRowsU8 sets out[r] to the integer dot product of the signed query codes
// q with row r of the unsigned codes m.
func dotRowsU8(q []int8, m []uint8, dim int, out []int32) {
	if len(out) == 0 {
		return
	}
	_ = m[len(out)*dim-1]
	if useAsm && dim%32 == 0 && len(q) >= dim {
		dotRowsU8Asm(&q[0], &m[0], &out[0], dim, len(out))
		return
	}
	dotRowsU8Go(q, m, dim, out)
}

func dotRowsU8Go(q []int8, m []uint8, dim int, out []int32) {
	for r := range out {
		row := m[r*dim : (r+1)*dim]
		var s int32
		for i, c := range q[:dim] {
			s += int32(c) * int32(row[i])
		}
		out[r] = s
	}
}
