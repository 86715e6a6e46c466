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
