/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The SUBGROUP GEMM core (D55; conv2d_subgroup.comp, matmul_subgroup.comp): for subgroups of
 * DG_SG_LANES lanes (lavapipe: one 8-lane SIMD vector), each lane holding DG_SG_TM rows of the
 * A operand and the subgroup the DG_SG_TN columns of the block; per k the lanes load the TN
 * values of B's row between them (DG_SG_TN / 32 vectors of 4 each) and subgroupBroadcast()
 * hands each to every lane. The kernel defines before including it:
 *   DG_SG_ACC_DTYPE   the accumulator's DG_DTYPE (sh_t / sh4_t: float or int);
 *   DG_SG_B_DTYPE     B's element type; DG_SG_B_ZP its zero point (integers);
 *   DG_SG_B_AT(k, c)  the address of B[k, c]; DG_SG_B_SAFE an address to read in its place
 *                     (the value is dropped); DG_SG_B_STEP the bytes between B[k, c] and
 *                     B[k, c + 1]; DG_SG_COLS the columns;
 * and, in the function that uses DG_SG_MAC4: `depth` (K), `n0` (the block's first column),
 * `lane` (gl_SubgroupInvocationID) and `b_vec` (whether 4 consecutive columns of B are packed
 * and aligned: one vector load).
 */
#ifndef DG_SG_GEMM_GLSL
#define DG_SG_GEMM_GLSL

#include "kernel_abi/gemm_args.h"
#include "dg_load4.glsl"

#if DG_DTYPE_IS_FLOAT(DG_SG_ACC_DTYPE)
#define sh_t float
#define sh4_t vec4
#else
#define sh_t int
#define sh4_t ivec4
#define DG_SG_INT
#endif

#define DG_SG_TN4 (DG_SG_TN / 4)          /* vectors of 4 columns in a lane's block */
#define DG_SG_BVECS (DG_SG_TN / (4 * DG_SG_LANES)) /* weight vectors a lane loads per k */

#if DG_SG_LANES != 8 || DG_SG_BVECS * 4 * DG_SG_LANES != DG_SG_TN
#error "a k's weights split into vectors of 4 over the subgroup's 8 lanes (DG_SG_COL)"
#endif


/* 4 consecutive elements of DG_*_DTYPE `dtype` from `at`, `step` bytes apart, minus `zp`
 * (integers); one vector load where `vec` says they are packed and aligned. */
#ifdef DG_SG_INT
#define DG_SG_VALUE(dtype, bits, zp) (dg_from_bits(dtype, bits) - (zp))
#define DG_SG_ELEMENT(dtype, at, zp) (dg_load(dtype, at) - (zp))
#else
#define DG_SG_VALUE(dtype, bits, zp) sh_t(dg_from_bits(dtype, bits))
#define DG_SG_ELEMENT(dtype, at, zp) sh_t(dg_load(dtype, at))
#endif
#define DG_SG_LOAD4(dtype, v, at, step, vec, zp)                                                   \
   if (vec) {                                                                                      \
      uvec4 bits_ = dg_load4_bits_u64(at, DG_DTYPE_SIZE(dtype));                                \
      [[unroll]] for (uint c_ = 0u; c_ < 4u; c_++)                                                 \
         v[c_] = DG_SG_VALUE(dtype, bits_[c_], zp);                                               \
   } else {                                                                                        \
      [[unroll]] for (uint c_ = 0u; c_ < 4u; c_++)                                                 \
         v[c_] = DG_SG_ELEMENT(dtype, vmel_address_add(at, c_ * (step)), zp);                     \
   }

/* Column 32 v_ + 4 l + cc_ of the block (lane l's weight vector v_, component cc_) handed to
 * every lane and multiplied into each row's accumulator (the lane id of subgroupBroadcast()
 * must be a constant: l is a literal). */
#define DG_SG_COL(acc, a4, l)                                                                      \
   {                                                                                               \
      sh_t b1_ = subgroupBroadcast(b_[v_][cc_], l);                                                \
      [[unroll]] for (uint t_ = 0u; t_ < DG_SG_TM; t_++)                                           \
         acc[t_][v_ * DG_SG_LANES + l][cc_] += a4[t_][kk_] * b1_;                                  \
   }

/* The products of k = k0 .. k0 + 3 added into the lane's block: a4[t][kk] is row t's
 * patch value at k0 + kk. The lanes load the weight rows' DG_SG_TN columns between them (lane
 * l columns 32 v + 4 l .. + 3), zero past K or OC. */
#define DG_SG_MAC4(acc, a4, k0)                                                                    \
   [[unroll]] for (uint kk_ = 0u; kk_ < 4u; kk_++) {                                               \
      uint k_ = (k0) + kk_;                                                                        \
      sh4_t b_[DG_SG_BVECS];                                                                       \
      [[unroll]] for (uint v_ = 0u; v_ < DG_SG_BVECS; v_++) {                                      \
         uint oc_ = n0 + 32u * v_ + 4u * lane;                                                     \
         bool ok_ = k_ < depth && oc_ < DG_SG_COLS;                                                \
         uvec2 at_ = ok_ ? DG_SG_B_AT(k_, oc_) : DG_SG_B_SAFE;                                     \
         sh4_t w_;                                                                                 \
         DG_SG_LOAD4(DG_SG_B_DTYPE, w_, at_, DG_SG_B_STEP, b_vec, DG_SG_B_ZP)                      \
         b_[v_] = ok_ ? w_ : sh4_t(0);                                                             \
      }                                                                                            \
      [[unroll]] for (uint v_ = 0u; v_ < DG_SG_BVECS; v_++) {                                      \
         [[unroll]] for (uint cc_ = 0u; cc_ < 4u; cc_++) {                                         \
            DG_SG_COL(acc, a4, 0u) DG_SG_COL(acc, a4, 1u) DG_SG_COL(acc, a4, 2u)                   \
            DG_SG_COL(acc, a4, 3u) DG_SG_COL(acc, a4, 4u) DG_SG_COL(acc, a4, 5u)                   \
            DG_SG_COL(acc, a4, 6u) DG_SG_COL(acc, a4, 7u)                                          \
         }                                                                                         \
      }                                                                                            \
   }

#endif /* DG_SG_GEMM_GLSL */
