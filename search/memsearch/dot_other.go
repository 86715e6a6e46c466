//go:build !amd64

package memsearch

const useAsm = false

func dotRowsAsm(v, m, out *float32, dim, rows int) {
	panic("memsearch: no assembly kernel on this architecture")
}
