/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 AVG_POOL2D (§2.3 "Tensor Operators"; pseudocode/operators/
 * AVG_POOL2D.tosac): the mean of the in-bounds taps of each window; padding
 * is neither read nor counted (the divisor is the number of in-bounds taps).
 *
 *  - i8, i16 (acc INT32): acc = sum of (in - input_zp) in int32, then
 *    apply_scale_32(acc, reciprocal_scale(count)) without double rounding,
 *    + output_zp, clamped to the type. The multiply is int64, as the
 *    pseudocode's. The sum fits int32 unless a window holds more than 2^16
 *    i16 taps (TOSA: REQUIRE): then it wraps in two's complement and the
 *    scaled result keeps its low 32 bits (deterministic; the reference,
 *    tests/reference/ref_pool.c, does the same).
 *  - floats (fp8 acc FP16, fp16 acc FP16 or FP32, bf16 and fp32 acc FP32):
 *    sum in fp32 (more precise than an FP16 accumulator, inside TOSA's
 *    dot-product bound for FP16), divided by count in fp32, stored rounding
 *    to nearest even (dg_float.glsl). NaN and infinities propagate as IEEE
 *    arithmetic says.
 *
 * Tensors (binding order): 0 input [N,IH,IW,C], 1 output [N,OH,OW,C].
 * One work item: DG_POOL_ITEMS consecutive channels of one output position
 * (n, oy, ox), the window walk of shaders/common/dg_pool.glsl.
 * Attributes (struct dg_attrs_avg_pool2d): kernel_y, kernel_x, stride_y,
 * stride_x, pad_top, pad_bottom, pad_left, pad_right, input_zp, output_zp
 * (sign-extended; 0 unless i8: ERROR_IF at creation), acc_type.
 * Variant defines: DG_DTYPE (i8, i16, fp8e4m3, fp8e5m2, fp16, bf16, fp32),
 * DG_POOL_ITEMS (4).
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

#include "dg_kernel.glsl"

#ifndef DG_DTYPE
#define DG_DTYPE DG_DTYPE_FP32
#endif

DG_DECLARE_ATTRS_AVG_POOL2D

DG_TENSOR(DG_AVG_POOL2D_INPUT, input);
DG_TENSOR(DG_AVG_POOL2D_OUTPUT, output);

#include "dg_pool.glsl"

#if !DG_DTYPE_IS_FLOAT(DG_DTYPE)
/* reciprocal_scale(count) then apply_scale_32(value, multiplier, shift, false)
 * (scale_helpers.tosac): k = 32 - clz(count - 1), multiplier = (((1 << 30) + 1) << k) /
 * count, shift = 30 + k; (value * multiplier + (1 << (shift - 1))) >> shift. */
int
dg_pool_divide(int value, int count)
{
   int k = 1 + findMSB(uint(count - 1)); /* 32 - clz(count - 1); findMSB(0) is -1 */
   int64_t multiplier = ((int64_t(1 << 30) + 1) << k) / int64_t(count);
   int shift = 30 + k;
   int64_t round = int64_t(1) << (shift - 1);
   return int((int64_t(value) * multiplier + round) >> shift);
}
#endif

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
   [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++)
      acc[k] = dg_pool_t(0);
   for (int y = w.y0; y < w.y1; y++) {
      for (int x = w.x0; x < w.x1; x++) {
         dg_pool_t v[DG_POOL_ITEMS];
         dg_pool_load(in_r, w, y, x, v);
         [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++) {
#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
            acc[k] += v[k];
#else
            acc[k] += v[k] - input_zp;
#endif
         }
      }
   }
   int count = dg_pool_count(w);
   [[unroll]] for (uint k = 0u; k < uint(DG_POOL_ITEMS); k++) {
#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
      acc[k] = acc[k] / float(count);
#else
      int lo = -1 << (8 * DG_DTYPE_SIZE(DG_DTYPE) - 1);
      acc[k] = clamp(dg_pool_divide(acc[k], count) + output_zp, lo, -1 - lo);
#endif
   }
   dg_pool_store(out_r, w, acc);
}
