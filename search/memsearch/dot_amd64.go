package memsearch

import "golang.org/x/sys/cpu"

// useAsm is true when the AVX2 and FMA kernel can run on this CPU.
var useAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotRowsAsm computes rows dot products of v (dim values) with consecutive
// rows of m into out. dim must be a positive multiple of 32.
//
//go:noescape
func dotRowsAsm(v, m, out *float32, dim, rows int)
