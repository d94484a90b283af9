/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 ADD, SUB, MUL, MAXIMUM and MINIMUM (§2.5 "Elementwise Binary
 * Operators"; pseudocode/operators/{ADD,SUB,MUL,MAXIMUM,MINIMUM}.tosac), with
 * TOSA broadcasting: equal ranks, a dimension of 1 in an input repeats
 * (apply_broadcast.tosac). MAXIMUM and MINIMUM select an operand
 * (apply_max_s/apply_min_s; floats with the NaN mode).
 *
 * Tensors (binding order): 0 input1, 1 input2, 2 output.
 * The walk over the output's elements is the elementwise driver's
 * (dg_elementwise.glsl; DG_TEMPLATE_GRID(binary, 64, ELEMENTS8)).
 * Attributes: shift (MUL, struct dg_attrs_mul); nan_mode (MAXIMUM, MINIMUM).
 * Variant defines: DG_BINARY_OP (DG_BINARY_ADD, _SUB, _MUL), DG_IN_DTYPE (both
 * inputs), DG_OUT_DTYPE.
 *
 * Integers: ADD/SUB i32 wrap on overflow (a TOSA REQUIRE: the result is then
 * unpredictable, and this one never faults). MUL i8 x i8 and i16 x i16 give the
 * exact product in i32; i32 x i32 with shift 0 gives the low 32 bits, with
 * shift > 0 (int64 product + (1 << (shift - 1))) >> shift, truncated to 32 bits.
 * Floats compute in fp32 and round once to the output type: for fp16 and bf16
 * that is the correctly rounded result (fp32 has at least 2p + 2 bits), which
 * meets the 0.5 ulp bound of TOSA 1.0.1 for these operators.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_BINARY_OP
#define DG_BINARY_OP DG_BINARY_ADD
#endif
#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

/* The operator this variant computes (its variant define DG_BINARY_OP). */
#define DG_BINARY_ADD 1
#define DG_BINARY_SUB 2
#define DG_BINARY_MUL 3
#define DG_BINARY_MAXIMUM 4
#define DG_BINARY_MINIMUM 5

#if DG_BINARY_OP == DG_BINARY_MAXIMUM
DG_DECLARE_ATTRS_MAXIMUM
#elif DG_BINARY_OP == DG_BINARY_MINIMUM
DG_DECLARE_ATTRS_MINIMUM
#else
DG_DECLARE_ATTRS_MUL /* ADD and SUB leave shift at 0 */
#endif

DG_TENSOR(DG_ADD_INPUT1, input1);
DG_TENSOR(DG_ADD_INPUT2, input2);
DG_TENSOR(DG_ADD_OUTPUT, output);

#define DG_EW_ARITY 2
#define DG_EW_IN1_DTYPE DG_IN_DTYPE
#define DG_EW_IN2_DTYPE DG_IN_DTYPE
#define DG_EW_OUT_DTYPE DG_OUT_DTYPE
#define in_t dg_atype(DG_IN_DTYPE)
#define out_t dg_atype(DG_OUT_DTYPE)

out_t
dg_ew_apply(in_t a, in_t b)
{
   /* precise: with shapes specialised, the compiler can see that ADD(x, x) and SUB(x, x) read
    * one element twice, and must not fold x - x to 0 (inf and NaN give NaN). */
#if DG_BINARY_OP == DG_BINARY_ADD
   precise out_t r = a + b;
   return r;
#elif DG_BINARY_OP == DG_BINARY_SUB
   precise out_t r = a - b;
   return r;
#elif DG_BINARY_OP == DG_BINARY_MUL && DG_IN_DTYPE == DG_DTYPE_I32
   if (shift > 0) {
      int64_t product = int64_t(a) * int64_t(b);
      int64_t round = int64_t(1) << (shift - 1);
      return int((product + round) >> shift);
   }
   return a * b; /* the low 32 bits */
#elif DG_BINARY_OP == DG_BINARY_MUL
   precise out_t r = out_t(a) * out_t(b);
   return r;
#elif DG_BINARY_OP == DG_BINARY_MAXIMUM && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return dg_max_nan(a, b, nan_mode);
#elif DG_BINARY_OP == DG_BINARY_MINIMUM && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return dg_min_nan(a, b, nan_mode);
#elif DG_BINARY_OP == DG_BINARY_MAXIMUM
   return a >= b ? a : b; /* apply_max_s */
#elif DG_BINARY_OP == DG_BINARY_MINIMUM
   return a < b ? a : b; /* apply_min_s */
#else
#error "DG_BINARY_OP must be DG_BINARY_ADD, _SUB, _MUL, _MAXIMUM or _MINIMUM"
#endif
}

#include "dg_elementwise.glsl"
