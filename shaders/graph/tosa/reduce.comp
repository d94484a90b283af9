/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 reductions (chapters/reduction.adoc; pseudocode/operators/REDUCE_ALL, REDUCE_ANY,
 * REDUCE_MAX, REDUCE_MIN, REDUCE_PRODUCT, REDUCE_SUM .tosac) and ARGMAX (tensor_ops.adoc;
 * ARGMAX.tosac): one pass of a parallel reduction along one axis (kernel_abi/reduce_args.h says
 * how a pass is cut into workgroups; graph/ops/reduce.c plans the passes).
 *
 * A workgroup reduces `tx` lanes (positions off the axis) over one chunk of the axis with `ty`
 * invocations per lane. Inner axes (inner > 1) put adjacent lanes on adjacent invocations, so a
 * row of the workgroup reads adjacent elements (coalesced columns); the innermost axis
 * (DG_REDUCE_ROWS) puts a lane's invocations side by side along the contiguous axis. Each
 * invocation folds at most DG_REDUCE_ITEMS elements, k = chunk start + its position, stepping
 * by ty, then the ty partial values of a lane are combined in shared memory by a fixed tree
 * (halving strides). The order of every operation depends only on the shapes, so a float result
 * is the same on every run.
 *
 * Arithmetic: float SUM and PRODUCT in fp32 (fp16 and bf16 inputs are exact in fp32; the fp16
 * row's FP16 accumulator is met with room to spare: TOSA's dot-product bound for REDUCE_SUM, the
 * product bound max(|ref|, normal_min) * ((1 + 2^-(frac+1))^n - 1) for REDUCE_PRODUCT), rounded
 * once to the output type; MAX/MIN compare exactly (apply_max_s / apply_min_s with nan_mode) and
 * return an input value; integers in int. i32 REDUCE_SUM wraps: where TOSA's REQUIRE (every
 * partial sum within i32) fails, the result is the exact sum modulo 2^32 (two's complement),
 * which no order of the additions changes. ARGMAX folds (value, index) pairs: the larger value
 * wins, an equal value the lower index; with PROPAGATE a NaN beats every number (the first NaN's
 * index), with IGNORE every number beats a NaN (index 0 if all are NaN) — the first index of the
 * maximum that the pseudocode's sequential loop finds. Partial results between passes are fp32
 * (floats), i32 (integers, bool as 0/1) or, for ARGMAX, pairs of i32 (fp32 bits, index).
 *
 * Tensors (binding order): 0 input (the operator's input, or the previous pass's scratch),
 * 1 output (the operator's output, or a scratch tensor).
 * Variant defines: DG_RED_OP (DG_RED_ALL ... DG_RED_ARGMAX), DG_IN_DTYPE, DG_OUT_DTYPE.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"
#include "kernel_abi/reduce_args.h"

#define DG_RED_ALL 1
#define DG_RED_ANY 2
#define DG_RED_MAX 3
#define DG_RED_MIN 4
#define DG_RED_PRODUCT 5
#define DG_RED_SUM 6
#define DG_RED_ARGMAX 7

#ifndef DG_RED_OP
#define DG_RED_OP DG_RED_SUM
#endif
#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

/* The accumulator: float for float inputs (and ARGMAX's values), int otherwise. */
#if DG_DTYPE_IS_FLOAT(DG_IN_DTYPE) || DG_RED_OP == DG_RED_ARGMAX
#define RED_FLOAT 1
#define acc_t float
#define SCRATCH_DTYPE DG_DTYPE_FP32
#else
#define RED_FLOAT 0
#define acc_t int
#define SCRATCH_DTYPE DG_DTYPE_I32
#endif

DG_DECLARE_ARGS(DG_REDUCE_ARGS)

DG_TENSOR(DG_REDUCE_INPUT, input);
DG_TENSOR(DG_REDUCE_OUTPUT, output);

shared acc_t red_value[DG_REDUCE_WG];
#if DG_RED_OP == DG_RED_ARGMAX
shared int red_index[DG_REDUCE_WG];
#define RED_PAIR 2u
#else
#define RED_PAIR 1u
#endif

/* The fold's initial value (an identity of the combination). */
acc_t
red_identity()
{
#if DG_RED_OP == DG_RED_ALL || DG_RED_OP == DG_RED_PRODUCT
   return acc_t(1);
#elif DG_RED_OP == DG_RED_ANY || DG_RED_OP == DG_RED_SUM
   return acc_t(0);
#elif RED_FLOAT && DG_RED_OP == DG_RED_MIN
   return nan_mode == uint(DG_NAN_IGNORE) ? dg_nan() : uintBitsToFloat(0x7f800000u);
#elif RED_FLOAT
   return nan_mode == uint(DG_NAN_IGNORE) ? dg_nan() : uintBitsToFloat(0xff800000u);
#elif DG_RED_OP == DG_RED_MIN
   return 0x7fffffff;
#else
   return int(0x80000000u);
#endif
}

acc_t
red_combine(acc_t a, acc_t b)
{
#if DG_RED_OP == DG_RED_ALL
   return a & b;
#elif DG_RED_OP == DG_RED_ANY
   return a | b;
#elif DG_RED_OP == DG_RED_SUM
   precise acc_t r = a + b;
   return r;
#elif DG_RED_OP == DG_RED_PRODUCT
   precise acc_t r = a * b;
   return r;
#elif RED_FLOAT && DG_RED_OP == DG_RED_MAX
   return dg_max_nan(a, b, nan_mode);
#elif RED_FLOAT && DG_RED_OP == DG_RED_MIN
   return dg_min_nan(a, b, nan_mode);
#elif DG_RED_OP == DG_RED_MAX
   return max(a, b);
#else
   return min(a, b);
#endif
}

/* ARGMAX: whether (bv, bi) replaces (av, ai). */
bool
red_arg_better(float av, int ai, float bv, int bi)
{
   bool an = isnan(av), bn = isnan(bv);
   if (an != bn)
      return nan_mode == uint(DG_NAN_PROPAGATE) ? bn : an;
   if (!an && bv != av)
      return bv > av;
   return bi < ai;
}

/* Byte offset of `index` decomposed row-major over dimensions [first, last) of r. */
uint
red_offset(vmel_tensor_record r, uint index, uint first, uint last)
{
   uint offset = 0u;
   for (int d = VMEL_TENSOR_MAX_RANK - 1; d >= 0; d--) {
      if (uint(d) >= first && uint(d) < last) {
         uint extent = r.dims[d];
         offset += (index % extent) * r.strides[d];
         index /= extent;
      }
   }
   return offset;
}

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return; /* whole workgroups only: the work count is a multiple of DG_REDUCE_WG */
   uint t = gl_LocalInvocationIndex;
   uint group = index / uint(DG_REDUCE_WG);
   uint lane_group = group % lane_groups;
   uint c = group / lane_groups;
   bool rows = (flags & DG_REDUCE_ROWS) != 0u;
   uint lane_local = rows ? t / ty : t % tx;
   uint k_local = rows ? t % ty : t / tx;
   uint k_step = rows ? 1u : tx; /* shared-memory distance between a lane's partial values */
   uint lane = lane_group * tx + lane_local;
   bool lane_ok = lane < lanes;
   uint o = lane / inner;
   uint i = lane % inner;

   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record out_r = DG_RECORD(output);
   bool in_scratch = (flags & DG_REDUCE_IN_SCRATCH) != 0u;
   uint in_i = in_scratch ? i * RED_PAIR : i;
   uint base = red_offset(in_r, o, 0u, axis) + red_offset(in_r, in_i, axis + 1u, in_r.rank);
   uint step = in_r.strides[axis];
   uint k0 = c * chunk;
   uint k1 = min(n, k0 + chunk);

   acc_t acc = red_identity();
#if DG_RED_OP == DG_RED_ARGMAX
   int acc_index = 0x7fffffff;
#endif
   if (lane_ok) {
      for (uint k = k0 + k_local; k < k1; k += ty) {
         uvec2 address = dg_address(in_r, base + k * step);
#if DG_RED_OP == DG_RED_ARGMAX
         float v;
         int vi;
         if (in_scratch) {
            v = uintBitsToFloat(dg_ref32(address).value);
            vi = int(dg_ref32(vmel_address_add(address, 4u)).value);
         } else {
            v = float(dg_load(DG_IN_DTYPE, address));
            vi = int(k);
         }
         if (red_arg_better(acc, acc_index, v, vi)) {
            acc = v;
            acc_index = vi;
         }
#else
         acc_t v;
         if (in_scratch)
            v = dg_load(SCRATCH_DTYPE, address);
         else
#if DG_IN_DTYPE == DG_DTYPE_BOOL
            v = dg_load(DG_IN_DTYPE, address) ? 1 : 0;
#else
            v = acc_t(dg_load(DG_IN_DTYPE, address));
#endif
         acc = red_combine(acc, v);
#endif
      }
   }

   red_value[t] = acc;
#if DG_RED_OP == DG_RED_ARGMAX
   red_index[t] = acc_index;
#endif
   barrier();
   for (uint s = ty / 2u; s > 0u; s /= 2u) {
      if (k_local < s) {
         uint other = t + s * k_step;
#if DG_RED_OP == DG_RED_ARGMAX
         if (red_arg_better(red_value[t], red_index[t], red_value[other], red_index[other])) {
            red_value[t] = red_value[other];
            red_index[t] = red_index[other];
         }
#else
         red_value[t] = red_combine(red_value[t], red_value[other]);
#endif
      }
      barrier();
   }
   if (k_local != 0u || !lane_ok)
      return;

   bool keep = (flags & DG_REDUCE_OUT_KEEP) != 0u;
   bool out_scratch = (flags & DG_REDUCE_OUT_SCRATCH) != 0u;
   uint out_i = out_scratch ? i * RED_PAIR : i;
   uint offset = red_offset(out_r, o, 0u, out_axis) +
                 red_offset(out_r, out_i, keep ? out_axis + 1u : out_axis, out_r.rank);
   if (keep)
      offset += c * out_r.strides[out_axis];
   uvec2 address = dg_address(out_r, offset);
   acc_t result = red_value[t];
#if DG_RED_OP == DG_RED_ARGMAX
   if (out_scratch) {
      dg_ref32(address).value = floatBitsToUint(result);
      dg_ref32(vmel_address_add(address, 4u)).value = uint(red_index[t]);
   } else {
      /* No element at all cannot happen (the axis has at least one); a lane whose values
       * were all NaN under IGNORE keeps index 0 as the pseudocode does. */
      int r = red_index[t] == 0x7fffffff ? 0 : red_index[t];
      dg_store(DG_OUT_DTYPE, address, r);
   }
#else
   if (out_scratch)
      dg_store(SCRATCH_DTYPE, address, result);
   else
#if DG_OUT_DTYPE == DG_DTYPE_BOOL
      dg_store(DG_OUT_DTYPE, address, result != 0);
#else
      dg_store(DG_OUT_DTYPE, address, result);
#endif
#endif
}
