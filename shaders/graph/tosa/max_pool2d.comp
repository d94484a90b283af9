/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 MAX_POOL2D (§2.3 "Tensor Operators"; pseudocode/operators/
 * MAX_POOL2D.tosac): the maximum over the in-bounds taps of each window;
 * padding never takes part. The running value starts at the type's minimum,
 * or NaN for floats with nan_mode IGNORE, and each tap is combined with
 * apply_max_s(acc, value, nan_mode).
 *
 * Tensors (binding order): 0 input [N,IH,IW,C], 1 output [N,OH,OW,C].
 * One work item: DG_POOL_ITEMS consecutive channels of one output position
 * (n, oy, ox), the window walk of shaders/common/dg_pool.glsl.
 * Attributes (struct dg_attrs_max_pool2d): kernel_y, kernel_x, stride_y,
 * stride_x, pad_top, pad_bottom, pad_left, pad_right, nan_mode. OH and OW are
 * the output record's dimensions (creation checked them against TOSA's rule).
 * Variant defines: DG_DTYPE (i8, i16, fp8e4m3, fp8e5m2, fp16, bf16, fp32),
 * DG_POOL_ITEMS (4).
 * Float values are compared as fp32, exactly; the result is an input value,
 * stored back unchanged (a NaN result is a quiet NaN).
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

#ifndef DG_DTYPE
#define DG_DTYPE DG_DTYPE_FP32
#endif

DG_DECLARE_ATTRS_MAX_POOL2D

DG_TENSOR(DG_MAX_POOL2D_INPUT, input);
DG_TENSOR(DG_MAX_POOL2D_OUTPUT, output);

#include "dg_pool.glsl"

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   dg_pool_window w = dg_pool_window_of(index, in_r, out_r);

   dg_pool_t acc[DG_POOL_ITEMS];
   [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++) {
#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
      acc[k] = nan_mode == uint(DG_NAN_IGNORE) ? dg_nan() : uintBitsToFloat(0xff800000u);
#else
      acc[k] = dg_pool_t(-1) << (8 * DG_DTYPE_SIZE(DG_DTYPE) - 1);
#endif
   }
   for (int y = w.y0; y < w.y1; y++) {
      for (int x = w.x0; x < w.x1; x++) {
         dg_pool_t v[DG_POOL_ITEMS];
         dg_pool_load(in_r, w, y, x, v);
         [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++) {
#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
            acc[k] = dg_max_nan(acc[k], v[k], nan_mode);
#else
            acc[k] = max(acc[k], v[k]);
#endif
         }
      }
   }
   dg_pool_store(out_r, w, acc);
}
