//go:build !amd64

package memsearch

const useAsm = false

func dotRowsAsm(v, m, out *float32, dim, rows int) {
	panic("memsearch: no assembly kernel on this architecture")
}

func dotRowsU8Asm(q *int8, m *uint8, out *int32, dim, rows int) {
	panic("memsearch: no assembly kernel on this architecture")
}
