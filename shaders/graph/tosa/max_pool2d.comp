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
 * One work item: one output element (n, oy, ox, c), row-major.
 * Attributes (struct dg_attrs_max_pool2d): kernel_y, kernel_x, stride_y,
 * stride_x, pad_top, pad_bottom, pad_left, pad_right, nan_mode. OH and OW are
 * the output record's dimensions (creation checked them against TOSA's rule).
 * Variant define: DG_DTYPE (i8, i16, fp8e4m3, fp8e5m2, fp16, bf16, fp32).
 * Float values are compared as fp32, exactly; the result is an input value,
 * stored back unchanged (a NaN result is a quiet NaN).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_DTYPE
#define DG_DTYPE DG_DTYPE_FP32
#endif

DG_DECLARE_ATTRS_MAX_POOL2D

DG_TENSOR(DG_MAX_POOL2D_INPUT, input);
DG_TENSOR(DG_MAX_POOL2D_OUTPUT, output);

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint c = index % out_r.dims[3];
   uint ox = (index / out_r.dims[3]) % out_r.dims[2];
   uint oy = (index / (out_r.dims[3] * out_r.dims[2])) % out_r.dims[1];
   uint n = index / (out_r.dims[3] * out_r.dims[2] * out_r.dims[1]);
   int ih = int(in_r.dims[1]);
   int iw = int(in_r.dims[2]);

#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
   float acc = nan_mode == uint(DG_NAN_IGNORE) ? dg_nan() : uintBitsToFloat(0xff800000u);
#else
   dg_atype(DG_DTYPE) acc = dg_atype(DG_DTYPE)(-1) << (8 * DG_DTYPE_SIZE(DG_DTYPE) - 1);
#endif
   int iy = int(oy) * stride_y - pad_top;
   int ix = int(ox) * stride_x - pad_left;
   for (int ky = 0; ky < kernel_y; ky++) {
      int y = iy + ky;
      if (y < 0 || y >= ih)
         continue;
      for (int kx = 0; kx < kernel_x; kx++) {
         int x = ix + kx;
         if (x < 0 || x >= iw)
            continue;
         uvec2 address = dg_address(in_r, dg_offset4(in_r, n, uint(y), uint(x), c));
#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
         acc = dg_max_nan(acc, dg_load(DG_DTYPE, address), nan_mode);
#else
         acc = max(acc, dg_load(DG_DTYPE, address));
#endif
      }
   }
   dg_store(DG_DTYPE, dg_address(out_r, dg_offset4(out_r, n, oy, ox, c)), acc);
}
