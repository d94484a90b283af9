/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 MATMUL (§2.3 "Tensor Operators"; pseudocode/operators/
 * MATMUL.tosac): output[n,h,w] = sum over c of (A[n,h,c] - A_zp) *
 * (B[n,c,w] - B_zp), accumulated in the output type.
 *
 * Tensors (binding order): 0 A [N,H,C], 1 B [N,C,W], 2 output [N,H,W].
 * One work item: one output element (n, h, w), row-major.
 * Attributes (struct dg_attrs_matmul): a_zp, b_zp (integer rows; TOSA requires
 * 0 except for i8, the meaning TOSA main gives the v1.0.1 check).
 * Variant defines: DG_IN_DTYPE (A and B), DG_OUT_DTYPE, DG_NATIVE_FP16. The
 * rows of TOSA.001000.1: i8 -> i32 (wraps on overflow, a REQUIRE in TOSA);
 * i16 -> i48 (int64 arithmetic); fp8 -> fp16; fp16 -> fp16 or fp32;
 * bf16 -> fp32; fp32 -> fp32. An fp16 output accumulates in fp32 (within
 * TOSA's dot-product bound for FP16) unless DG_NATIVE_FP16 makes the
 * accumulator float16_t (needs shaderFloat16).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

#if DG_OUT_DTYPE == DG_DTYPE_FP16 && defined(DG_NATIVE_FP16)
#define acc_t float16_t
#else
#define acc_t dg_atype(DG_OUT_DTYPE)
#endif

DG_DECLARE_ATTRS_MATMUL

DG_TENSOR(DG_MATMUL_A, a);
DG_TENSOR(DG_MATMUL_B, b);
DG_TENSOR(DG_MATMUL_OUTPUT, output);

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record a_r = DG_RECORD(a);
   vmel_tensor_record b_r = DG_RECORD(b);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint w = index % out_r.dims[2];
   uint h = (index / out_r.dims[2]) % out_r.dims[1];
   uint n = index / (out_r.dims[2] * out_r.dims[1]);
   uint c_count = a_r.dims[2];

   uvec2 a_row = dg_address(a_r, n * a_r.strides[0] + h * a_r.strides[1]);
   uvec2 b_col = dg_address(b_r, n * b_r.strides[0] + w * b_r.strides[2]);
   acc_t acc = acc_t(0);
   for (uint c = 0u; c < c_count; c++) {
      dg_atype(DG_IN_DTYPE) value1 =
         dg_load(DG_IN_DTYPE, vmel_address_add(a_row, c * a_r.strides[2]));
      dg_atype(DG_IN_DTYPE) value2 =
         dg_load(DG_IN_DTYPE, vmel_address_add(b_col, c * b_r.strides[1]));
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
      acc += acc_t(value1) * acc_t(value2);
#else
      acc += acc_t(value1 - a_zp) * acc_t(value2 - b_zp);
#endif
   }
   dg_store(DG_OUT_DTYPE, dg_address(out_r, dg_offset3(out_r, n, h, w)),
            dg_atype(DG_OUT_DTYPE)(acc));
}
