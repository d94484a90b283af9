/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 SELECT (§2.7 "Elementwise Ternary Operators"; pseudocode/operators/SELECT.tosac):
 * output = input1 ? input2 : input3, the three inputs broadcast to the output (equal ranks, a
 * dimension of 1 repeats; apply_broadcast.tosac).
 *
 * Tensors (binding order): 0 input1 (bool), 1 input2, 2 input3, 3 output.
 * The walk over the output's elements is the elementwise driver's
 * (dg_elementwise.glsl; DG_TEMPLATE_GRID(select, 64, ELEMENTS8)).
 * Variant define: DG_DTYPE, the type of input2, input3 and output as SELECT moves them: bool,
 * or the integer type of the element size (i8, i16, i32), which copies any type of that size
 * (fp16, bf16: i16; fp32: i32) bit for bit, NaN payloads and subnormals unchanged.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_DTYPE
#define DG_DTYPE DG_DTYPE_I32
#endif

DG_TENSOR(DG_SELECT_INPUT1, input1);
DG_TENSOR(DG_SELECT_INPUT2, input2);
DG_TENSOR(DG_SELECT_INPUT3, input3);
DG_TENSOR(DG_SELECT_OUTPUT, output);

#define DG_EW_ARITY 3
#define DG_EW_IN1_DTYPE DG_DTYPE_BOOL
#define DG_EW_IN2_DTYPE DG_DTYPE
#define DG_EW_IN3_DTYPE DG_DTYPE
#define DG_EW_OUT_DTYPE DG_DTYPE
#define val_t dg_atype(DG_DTYPE)

val_t
dg_ew_apply(bool condition, val_t a, val_t b)
{
   return condition ? a : b;
}

#include "dg_elementwise.glsl"
