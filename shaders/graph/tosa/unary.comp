/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 elementwise unary operators of integers, bools and exact float results (§2.6
 * "Elementwise Unary Operators"; pseudocode/operators/<OP>.tosac): ABS, NEGATE, BITWISE_NOT,
 * LOGICAL_NOT and CLZ. (The float math operators are math.comp's.)
 *
 * Tensors (binding order): 0 input1, 1 output.
 * The walk over the output's elements is the elementwise driver's
 * (dg_elementwise.glsl; DG_TEMPLATE_GRID(unary, 64, ELEMENTS8)).
 * Attributes: input1_zp, output_zp (NEGATE, struct dg_attrs_negate: sign-extended; the layer
 * lets them be non-zero for i8 only).
 * Variant defines: DG_UNARY_OP (DG_UNARY_ABS, ...), DG_IN_DTYPE, DG_OUT_DTYPE (the same type).
 *
 * Floats are handled as bit patterns (the signed integer type of their size), so the results
 * are exact for every input, subnormals kept and NaNs staying NaNs: ABS clears the sign bit
 * (-0 -> +0, -inf -> +inf), NEGATE flips it (+0 -> -0, as ewise_unary.adoc's table says).
 *
 * Integers, exact; where a TOSA REQUIRE fails on the data these kernels give a documented
 * result and never fault (tests/reference/tosa_ref.h says the same, tests/optest/data pins it):
 *  - ABS(INT32_MIN) (apply_sub_s overflows) gives INT32_MAX, the nearest i32 to 2^31;
 *  - NEGATE computes clip(-(input1 - input1_zp) + output_zp) to the type's range, exactly
 *    (NEGATE.tosac with acc_t i32): i8 and i16 saturate as the pseudocode defines; for i32
 *    (zero points 0) NEGATE(INT32_MIN), where the pseudocode's i32 subtraction overflows,
 *    gives INT32_MAX, the same clip applied to the exact value.
 * BITWISE_NOT is ~input1 in W bits; LOGICAL_NOT !input1; CLZ the leading zero bits of the
 * i32 (count_leading_zeros: CLZ(0) = 32, negative values 0).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_UNARY_OP
#define DG_UNARY_OP DG_UNARY_ABS
#endif
#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_I32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

/* The operator this variant computes (its variant define DG_UNARY_OP). */
#define DG_UNARY_ABS 1
#define DG_UNARY_NEGATE 2
#define DG_UNARY_BITWISE_NOT 3
#define DG_UNARY_LOGICAL_NOT 4
#define DG_UNARY_CLZ 5

#if DG_UNARY_OP == DG_UNARY_NEGATE
DG_DECLARE_ATTRS_NEGATE
#endif

/* Every operator here binds input1 then output (NEGATE's zero points are attributes). */
#if DG_NEGATE_INPUT1 != DG_ABS_INPUT1 || DG_NEGATE_OUTPUT != DG_ABS_OUTPUT
#error "unary.comp: the operators' tensor bindings differ"
#endif
DG_TENSOR(DG_ABS_INPUT1, input1);
DG_TENSOR(DG_ABS_OUTPUT, output);

#define DG_EW_ARITY 1
/* Floats are loaded and stored as their bit patterns. */
#if DG_IN_DTYPE == DG_DTYPE_FP32
#define DG_EW_IN1_DTYPE DG_DTYPE_I32
#elif DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
#define DG_EW_IN1_DTYPE DG_DTYPE_I16
#else
#define DG_EW_IN1_DTYPE DG_IN_DTYPE
#endif
#define DG_EW_OUT_DTYPE DG_EW_IN1_DTYPE
#define val_t dg_atype(DG_EW_IN1_DTYPE)

/* The sign bit of a float's pattern; the range of an integer type. */
#if DG_IN_DTYPE == DG_DTYPE_I32 || DG_IN_DTYPE == DG_DTYPE_FP32
#define DG_UNARY_SIGN int(0x80000000u)
#define DG_UNARY_MIN int(0x80000000u)
#define DG_UNARY_MAX 0x7fffffff
#elif DG_IN_DTYPE == DG_DTYPE_I16 || DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
#define DG_UNARY_SIGN 0x8000
#define DG_UNARY_MIN (-32768)
#define DG_UNARY_MAX 32767
#else
#define DG_UNARY_MIN (-128)
#define DG_UNARY_MAX 127
#endif

val_t
dg_ew_apply(val_t a)
{
#if DG_UNARY_OP == DG_UNARY_ABS && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return a & ~DG_UNARY_SIGN;
#elif DG_UNARY_OP == DG_UNARY_ABS
   return a >= 0 ? a : a == DG_UNARY_MIN ? DG_UNARY_MAX : -a;
#elif DG_UNARY_OP == DG_UNARY_NEGATE && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return a ^ DG_UNARY_SIGN;
#elif DG_UNARY_OP == DG_UNARY_NEGATE && DG_IN_DTYPE == DG_DTYPE_I32
   return a == DG_UNARY_MIN ? DG_UNARY_MAX : -a; /* zero points are 0 for i32 */
#elif DG_UNARY_OP == DG_UNARY_NEGATE
   /* i8, i16: |input1 - input1_zp| <= 255 (i8; the zero points are 0 for i16), so int is the
    * pseudocode's acc_t without overflow. */
   return clamp(output_zp - (a - input1_zp), DG_UNARY_MIN, DG_UNARY_MAX);
#elif DG_UNARY_OP == DG_UNARY_BITWISE_NOT
   return ~a;
#elif DG_UNARY_OP == DG_UNARY_LOGICAL_NOT
   return !a;
#elif DG_UNARY_OP == DG_UNARY_CLZ
   return 31 - findMSB(uint(a)); /* findMSB(0u) is -1 */
#else
#error "DG_UNARY_OP must be DG_UNARY_ABS, _NEGATE, _BITWISE_NOT, _LOGICAL_NOT or _CLZ"
#endif
}

#include "dg_elementwise.glsl"
