/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CEIL, FLOOR, EXP, LOG, SIN, COS, RECIPROCAL, RSQRT (§2.6 "Elementwise Unary
 * Operators"), ERF, SIGMOID, TANH (§2.4 "Activation Functions") and POW (§2.5 "Elementwise
 * Binary Operators", broadcast as ADD) on fp16, bf16 and fp32: the operator's .tosac applies
 * one function per element. The numerics are shaders/common/dg_math.glsl's, in fp32 for every
 * type (its header says how each meets TOSA's bound and what it measured); fp16 and bf16 round
 * once on store, to nearest even.
 *
 * Special values as TOSA's floating-point behaviour tables say (NaN in gives NaN, LOG and RSQRT
 * of a negative number NaN, LOG(+-0) = -inf, RSQRT(-0) = -inf, ...). POW's REQUIREs are on the
 * data (x >= 0, x > 0 || y > 0, no NaN, finite): where one fails the result is C99's pow(x, y)
 * (x < 0 with an integer y: +-|x|^y; with another y: NaN; pow(+-0, y < 0) = +inf, +-inf for odd
 * y; pow(x, +-0) = 1; pow(1, y) = 1), documented in dg_math.glsl; never a fault.
 *
 * Tensors (binding order): 0 input1 (ERF, SIGMOID, TANH: input), [1 input2 (POW)], then output.
 * The walk over the output's elements is the elementwise driver's (dg_elementwise.glsl;
 * DG_TEMPLATE_GRID(math, 64, ELEMENTS8)).
 * Variant defines: DG_MATH_OP (DG_MATH_CEIL, ...), DG_IN_DTYPE and DG_OUT_DTYPE (the same float
 * type).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"
#include "dg_math.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

/* The operator this variant computes (its variant define DG_MATH_OP). */
#define DG_MATH_CEIL 1
#define DG_MATH_FLOOR 2
#define DG_MATH_EXP 3
#define DG_MATH_LOG 4
#define DG_MATH_SIN 5
#define DG_MATH_COS 6
#define DG_MATH_RECIPROCAL 7
#define DG_MATH_RSQRT 8
#define DG_MATH_ERF 9
#define DG_MATH_SIGMOID 10
#define DG_MATH_TANH 11
#define DG_MATH_POW 12

#ifndef DG_MATH_OP
#define DG_MATH_OP DG_MATH_EXP
#endif

#if DG_MATH_OP == DG_MATH_POW
DG_TENSOR(DG_POW_INPUT1, input1);
DG_TENSOR(DG_POW_INPUT2, input2);
DG_TENSOR(DG_POW_OUTPUT, output);
#define DG_EW_ARITY 2
#define DG_EW_IN2_DTYPE DG_IN_DTYPE
#else
/* Every unary operator binds input then output, as CEIL. */
DG_TENSOR(DG_CEIL_INPUT1, input1);
DG_TENSOR(DG_CEIL_OUTPUT, output);
#define DG_EW_ARITY 1
#endif
#define DG_EW_IN1_DTYPE DG_IN_DTYPE
#define DG_EW_OUT_DTYPE DG_OUT_DTYPE

#if DG_MATH_OP == DG_MATH_POW
float
dg_ew_apply(float a, float b)
{
   return dg_math_pow(a, b);
}
#else
float
dg_ew_apply(float a)
{
#if DG_MATH_OP == DG_MATH_CEIL
   return dg_math_ceil(a);
#elif DG_MATH_OP == DG_MATH_FLOOR
   return dg_math_floor(a);
#elif DG_MATH_OP == DG_MATH_EXP
   return dg_math_exp(a);
#elif DG_MATH_OP == DG_MATH_LOG
   return dg_math_log(a);
#elif DG_MATH_OP == DG_MATH_SIN
   return dg_math_sin(a);
#elif DG_MATH_OP == DG_MATH_COS
   return dg_math_cos(a);
#elif DG_MATH_OP == DG_MATH_RECIPROCAL
   return dg_math_reciprocal(a);
#elif DG_MATH_OP == DG_MATH_RSQRT
   return dg_math_rsqrt(a);
#elif DG_MATH_OP == DG_MATH_ERF
   return dg_math_erf(a);
#elif DG_MATH_OP == DG_MATH_SIGMOID
   return dg_math_sigmoid(a);
#elif DG_MATH_OP == DG_MATH_TANH
   return dg_math_tanh(a);
#else
#error "DG_MATH_OP must be one of DG_MATH_CEIL .. DG_MATH_POW"
#endif
}
#endif

#include "dg_elementwise.glsl"
