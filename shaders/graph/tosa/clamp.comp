/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CLAMP (§2.4 "Activation Functions"; pseudocode/operators/
 * CLAMP.tosac): value = apply_min_s(apply_max_s(value, min_val, nan_mode),
 * max_val, nan_mode). min_val and max_val are never NaN (ERROR_IF), so a NaN
 * input gives NaN with PROPAGATE and min_val with IGNORE.
 *
 * Tensors (binding order): 0 input, 1 output (the same shape). The walk over
 * the output's elements is the elementwise driver's (dg_elementwise.glsl;
 * DG_TEMPLATE_GRID(clamp, 64, ELEMENTS8)).
 * Attributes (struct dg_attrs_clamp): min_val, max_val (int32 bits of an integer
 * value, fp32 bits of a float value), nan_mode.
 * Variant define: DG_DTYPE (i8, i16, fp16, bf16, fp32 in TOSA 1.0.1; any type of
 * dg_kernel.glsl but bool compiles).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_DTYPE
#define DG_DTYPE DG_DTYPE_FP32
#endif

DG_DECLARE_ATTRS_CLAMP

DG_TENSOR(DG_CLAMP_INPUT, input1);
DG_TENSOR(DG_CLAMP_OUTPUT, output);

#define DG_EW_ARITY 1
#define DG_EW_IN1_DTYPE DG_DTYPE
#define DG_EW_OUT_DTYPE DG_DTYPE

dg_atype(DG_DTYPE)
dg_ew_apply(dg_atype(DG_DTYPE) value)
{
#if DG_DTYPE_IS_FLOAT(DG_DTYPE)
   value = dg_max_nan(value, uintBitsToFloat(min_val), nan_mode);
   return dg_min_nan(value, uintBitsToFloat(max_val), nan_mode);
#elif DG_DTYPE == DG_DTYPE_I48
   return clamp(value, int64_t(int(min_val)), int64_t(int(max_val)));
#else
   return clamp(value, int(min_val), int(max_val));
#endif
}

#include "dg_elementwise.glsl"
