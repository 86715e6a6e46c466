package memsearch

import "golang.org/x/sys/cpu"

// useAsm is true when the AVX2 and FMA kernel can run on this CPU.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotRowsAsm computes rows dot products of v (dim values) with consecutive
// rows of m into out. dim must be a positive multiple of 32.
//
//go:noescape
func dotRowsAsm(v, m, out *float32, dim, rows int)

// dotRowsU8Asm computes the integer dot products of the signed codes q (dim
// values, each within ±63) with consecutive rows of the unsigned codes m into
// out. dim must be a positive multiple of 32.
//
//go:noescape
func dotRowsU8Asm(q *int8, m *uint8, out *int32, dim, rows int)
