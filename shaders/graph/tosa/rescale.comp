/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 RESCALE (§2.13 "Type Conversion"; pseudocode/operators/
 * RESCALE.tosac and library/scale_helpers.tosac), bit-exact:
 *   value  = extend<int48>(in) - input_zp  (zero-extended when input_unsigned;
 *            sign-extended otherwise: the v1.0.1 text's `sign_extend(value)`
 *            means in_value, spec-facts §4.3)
 *   c      = per_channel ? index[rank - 1] : 0
 *   result = scale32 ? apply_scale_32(int32(value), multiplier[c], shift[c],
 *                                     rounding_mode == DOUBLE_ROUND)
 *                    : apply_scale_16(value, multiplier[c], shift[c])
 *   out    = clip(result + output_zp) to the output range, [0, 2^bits - 1]
 *            when output_unsigned (a negative sum clips to 0, as the TOSA
 *            reference model does and tests/reference/tosa_ref.h documents).
 * apply_scale_* compute (int64(value) * multiplier + round) >> shift in int64;
 * DOUBLE_ROUND with shift > 31 moves round by 1 << 30 away from zero;
 * INEXACT_ROUND is computed as SINGLE_ROUND (exact results meet its bound).
 * Where TOSA says REQUIRE (shift outside 2..62, value out of range) the result
 * is unpredictable; the kernel clamps the shift to 1..63 so it stays defined.
 *
 * Tensors (binding order): 0 input, 1 multiplier [NC] (i32), 2 shift [NC] (i8),
 * 3 output (the input's shape). NC is the input's last dimension when
 * per_channel, else 1. TOSA makes multiplier and shift compile-time constants;
 * the host passes them as two small constant tensors, which keeps any number of
 * channels out of the specialization constants.
 * One work item: one output element, row-major.
 * Attributes (struct dg_attrs_rescale): scale32, rounding_mode, per_channel,
 * input_unsigned, output_unsigned, input_zp, output_zp.
 * Variant defines: DG_IN_DTYPE (i8, i16, i32, i48), DG_OUT_DTYPE (i8, i16, i32).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"
#include "dg_rescale.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_I32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_DTYPE_I32
#endif
#if DG_DTYPE_IS_FLOAT(DG_IN_DTYPE) || DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE) || \
   DG_OUT_DTYPE == DG_DTYPE_I48
#error "RESCALE reads i8, i16, i32 or i48 and writes i8, i16 or i32"
#endif

DG_DECLARE_ATTRS_RESCALE

DG_TENSOR(DG_RESCALE_INPUT, input);
DG_TENSOR(DG_RESCALE_MULTIPLIER, multiplier);
DG_TENSOR(DG_RESCALE_SHIFT, shift);
DG_TENSOR(DG_RESCALE_OUTPUT, output);

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record m_r = DG_RECORD(multiplier);
   vmel_tensor_record s_r = DG_RECORD(shift);
   vmel_tensor_record out_r = DG_RECORD(output);

   int64_t value = int64_t(dg_load(DG_IN_DTYPE, dg_address(in_r, dg_offset_of_index(in_r, index))));
#if DG_IN_DTYPE == DG_DTYPE_I8 || DG_IN_DTYPE == DG_DTYPE_I16
   if (input_unsigned != 0u)
      value &= int64_t((1 << (8 * DG_DTYPE_SIZE(DG_IN_DTYPE))) - 1);
#endif
   value -= int64_t(input_zp);

   uint c = per_channel != 0u ? index % in_r.dims[in_r.rank - 1u] : 0u;
   int m = dg_load_i32(dg_address(m_r, c * m_r.strides[0]));
   int s = clamp(dg_load_i8(dg_address(s_r, c * s_r.strides[0])), 1, 63);
   int result = scale32 != 0u ? apply_scale_32(int(value), m, s, rounding_mode == DG_ROUND_DOUBLE)
                              : apply_scale_16(value, m, s);
   result += output_zp;

   int bits = 8 * DG_DTYPE_SIZE(DG_OUT_DTYPE);
#if DG_OUT_DTYPE != DG_DTYPE_I32
   if (output_unsigned != 0u)
      result = clamp(result, 0, (1 << bits) - 1);
   else
      result = clamp(result, -(1 << (bits - 1)), (1 << (bits - 1)) - 1);
#endif
   dg_store(DG_OUT_DTYPE, dg_address(out_r, dg_offset_of_index(out_r, index)), result);
}
