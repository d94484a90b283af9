/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A fused chain of elementwise operators (D52; graph/build/dg_fuse.c): the chain's first
 * operator and those after it, each the only consumer of the one before, in one dispatch. The
 * operators are the gemm epilogue's (kernel_abi/gemm_epilogue.h, dg_gemm_epilogue.glsl): its op
 * list in specialization constants, each step rounded to the storage type of the intermediate
 * it replaces, so the result is the unfused stages'.
 *
 * Tensors (binding order): 0 input (the first operator's input 0, of the output's shape), 1
 * output (the chain's last tensor), 2 .. 5 the epilogue's extra tensors (the other operands of
 * ADD/SUB/MUL, RESCALE's multipliers and shifts). Rank 4 at most.
 * One work item: one output element, row-major.
 * Variant define: DG_IN_DTYPE (i8, i16, i32, fp16, bf16, fp32): the input's type.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif

DG_TENSOR(0, input);
DG_TENSOR(1, output);

#define DG_GEMM_EPI_FIRST 2
#define DG_EPI_IN_DTYPE DG_IN_DTYPE
#include "dg_gemm_epilogue.glsl"

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   uvec4 coord = uvec4(0u);
   uint rest = index;
   [[unroll]] for (int d = 3; d >= 0; d--) {
      if (uint(d) < out_r.rank) {
         coord[d] = rest % out_r.dims[d];
         rest /= out_r.dims[d];
      }
   }
   dg_atype(DG_IN_DTYPE) value =
      dg_load(DG_IN_DTYPE, dg_address(in_r, dg_epi_offset(in_r, coord, out_r.rank)));
   dg_gemm_epilogue(value, coord, out_r.rank,
                    dg_address(out_r, dg_epi_offset(out_r, coord, out_r.rank)));
}
