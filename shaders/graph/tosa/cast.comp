/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CAST ("Type Conversion"; pseudocode/operators/CAST.tosac), every row of
 * TOSA.001000.1's type-support table, one variant per row (IN=t OUT=t).
 *
 * Tensors (binding order): 0 input, 1 output. The walk over the output's elements is the
 * elementwise driver's (dg_elementwise.glsl; DG_TEMPLATE_GRID(cast, 64, ELEMENTS8)); loads
 * and stores are its defaults (dg_kernel.glsl: integers sign-extended on load and truncated
 * to the type on store, floats decoded exactly into fp32 and rounded to nearest even on
 * store, fp8 in the OCP non-saturating mode).
 *
 * Every conversion is done on bit patterns and integers, never with the device's conversion
 * instructions or float arithmetic, so every device gives the same bits and nothing is
 * flushed (TOSA would allow flushing fp16/bf16/fp32 subnormals; this kernel never does):
 *  - to bool: in != 0. From bool: 1 or 0.
 *  - integer to integer: the loaded value, sign-extended; the store keeps its low bits
 *    (narrowing truncates, wraps).
 *  - float to integer: round_to_nearest_int with ties to even, from the fp32 bits of the
 *    (exactly decoded) input, then apply_clip_s to the output's range: +-inf and every value
 *    beyond the range saturate. NaN gives 0: TOSA says the result is unpredictable, and this
 *    is the documented, deterministic choice (tests/reference/tosa_ref.h says the same).
 *  - integer to float: the integer rounded once, to nearest even, to the output's precision
 *    (24, 11 or 8 significant bits) in integer arithmetic; that value is exact in fp32, so the
 *    store does not round again (an i32 through fp32 to bf16 would round twice). fp16
 *    overflows (|v| >= 65520) give infinity.
 *  - float to float: the input decoded exactly into fp32, rounded once by the store: to
 *    nearest even, overflow to +-inf (fp8e4m3, which has none: NaN), subnormals kept.
 *    fp8 -> fp16/bf16/fp32 and fp16 -> fp32 are exact. A NaN gives the quiet NaN of the output
 *    type with the input's sign (the payload is not kept: TOSA asks for "a NaN").
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"
#include "dg_cast.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_I32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_DTYPE_FP32
#endif

DG_TENSOR(DG_CAST_INPUT, input1);
DG_TENSOR(DG_CAST_OUTPUT, output);

#define DG_EW_ARITY 1
#define DG_EW_IN1_DTYPE DG_IN_DTYPE
#define DG_EW_OUT_DTYPE DG_OUT_DTYPE
#define in_t dg_atype(DG_IN_DTYPE)
#define out_t dg_atype(DG_OUT_DTYPE)

/* The output integer type's range (apply_clip_s to minimum_s<out_t>, maximum_s<out_t>). */
#if DG_OUT_DTYPE == DG_DTYPE_I8
#define DG_CAST_MIN (-128)
#define DG_CAST_MAX 127
#elif DG_OUT_DTYPE == DG_DTYPE_I16
#define DG_CAST_MIN (-32768)
#define DG_CAST_MAX 32767
#else
#define DG_CAST_MIN (-2147483647 - 1)
#define DG_CAST_MAX 2147483647
#endif

/* The output float type's significant bits (integer to float). */
#if DG_OUT_DTYPE == DG_DTYPE_FP16
#define DG_CAST_PRECISION 11u
#elif DG_OUT_DTYPE == DG_DTYPE_BF16
#define DG_CAST_PRECISION 8u
#else
#define DG_CAST_PRECISION 24u
#endif

out_t
dg_ew_apply(in_t a)
{
#if DG_OUT_DTYPE == DG_DTYPE_BOOL
   return a != 0;
#elif DG_IN_DTYPE == DG_DTYPE_BOOL
   return a ? 1 : 0;
#elif !DG_DTYPE_IS_FLOAT(DG_IN_DTYPE) && !DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
   return a; /* sign-extended by the load, truncated by the store */
#elif DG_DTYPE_IS_FLOAT(DG_IN_DTYPE) && !DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
   return dg_cast_float_to_int(a, DG_CAST_MIN, DG_CAST_MAX);
#elif !DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return dg_cast_int_to_float(a, DG_CAST_PRECISION);
#else
   uint f = floatBitsToUint(a);
   if ((f & 0x7fffffffu) > 0x7f800000u)
      return uintBitsToFloat((f & 0x80000000u) | 0x7fc00000u); /* the quiet NaN, sign kept */
   return a; /* exact in fp32; the store rounds once */
#endif
}

#include "dg_elementwise.glsl"
