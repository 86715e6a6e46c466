#include "textflag.h"

// func dotRowsAsm(v, m, out *float32, dim, rows int)
// Four 8-wide FMA accumulators per row; dim is a multiple of 32.
TEXT ·dotRowsAsm(SB), NOSPLIT, $0-40
	MOVQ v+0(FP), SI
	MOVQ m+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ dim+24(FP), CX
	MOVQ rows+32(FP), BX
	TESTQ BX, BX
	JZ   done

row:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3
	MOVQ   SI, R8
	MOVQ   CX, R9

inner:
	VMOVUPS     (R8), Y4
	VMOVUPS     32(R8), Y5
	VMOVUPS     64(R8), Y6
	VMOVUPS     96(R8), Y7
	VFMADD231PS (DI), Y4, Y0
	VFMADD231PS 32(DI), Y5, Y1
	VFMADD231PS 64(DI), Y6, Y2
	VFMADD231PS 96(DI), Y7, Y3
	ADDQ        $128, R8
	ADDQ        $128, DI
	SUBQ        $32, R9
	JNZ         inner

	VADDPS       Y1, Y0, Y0
	VADDPS       Y3, Y2, Y2
	VADDPS       Y2, Y0, Y0
	VEXTRACTF128 $1, Y0, X1
	VADDPS       X1, X0, X0
	VHADDPS      X0, X0, X0
	VHADDPS      X0, X0, X0
	VMOVSS       X0, (DX)
	ADDQ         $4, DX
	DECQ         BX
	JNZ          row

done:
	VZEROUPPER
	RET

// func dotRowsU8Asm(q *int8, m *uint8, out *int32, dim, rows int)
// VPMADDUBSW multiplies the row's unsigned bytes with the query's signed
// bytes and adds pairs into 16 bits (no saturation: |q| ≤ 63); VPMADDWD with
// ones widens pairs into 32-bit sums. Two accumulators, 64 bytes a step when
// dim allows, else 32.
TEXT ·dotRowsU8Asm(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ m+8(FP), DI
	MOVQ out+16(FP), DX
	MOVQ dim+24(FP), CX
	MOVQ rows+32(FP), BX
	TESTQ BX, BX
	JZ   u8done
	VPCMPEQW Y15, Y15, Y15
	VPSRLW   $15, Y15, Y15

u8row:
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	MOVQ  SI, R8
	MOVQ  CX, R9

u8inner:
	VMOVDQU    (DI), Y4
	VPMADDUBSW (R8), Y4, Y4
	VPMADDWD   Y15, Y4, Y4
	VPADDD     Y4, Y0, Y0
	ADDQ       $32, R8
	ADDQ       $32, DI
	SUBQ       $32, R9
	JZ         u8sum
	VMOVDQU    (DI), Y5
	VPMADDUBSW (R8), Y5, Y5
	VPMADDWD   Y15, Y5, Y5
	VPADDD     Y5, Y1, Y1
	ADDQ       $32, R8
	ADDQ       $32, DI
	SUBQ       $32, R9
	JNZ        u8inner

u8sum:
	VPADDD       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPHADDD      X0, X0, X0
	VPHADDD      X0, X0, X0
	VMOVD        X0, (DX)
	ADDQ         $4, DX
	DECQ         BX
	JNZ          u8row

u8done:
	VZEROUPPER
	RET
