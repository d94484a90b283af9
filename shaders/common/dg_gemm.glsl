/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The core of the tiled GEMM kernels (matmul_tiled.comp, conv2d_tiled.comp;
 * kernel_abi/gemm_args.h has the tile and the contract, D44): the shared
 * blocks of A (BK x BM, k-major) and B (BK x BN) as vectors of 4 elements, the
 * invocation's place in its tile, and the multiply-accumulate of one staged K
 * step into the register block.
 *
 * Include after dg_kernel.glsl with two types defined:
 *   sh_t   what the shared blocks hold: an element with its zero point already
 *          subtracted (int), or its value (float; float16_t where the variant
 *          computes in fp16 and every input is exact in it);
 *   acc_t  the accumulator, a scalar of the same kind as sh_t.
 * It defines sh4_t and acc4_t, their vectors of 4. Elements outside A or B
 * (partial tiles, K not a multiple of BK) are staged as 0: they add 0 to the
 * outputs that are stored.
 *
 * Every output accumulates its K products in increasing k, the order of the
 * reference kernels: an fp16 accumulator rounds at the same points.
 *
 * Staging: item i (< DG_GEMM_A_ITEMS) of an invocation is the vector of rows
 * 4 * dg_gemm_a_row4(i) .. + 3 of A at k offset dg_gemm_a_k(i) (consecutive
 * invocations take consecutive k); item i (< DG_GEMM_B_ITEMS) of B is the
 * vector of columns 4 * dg_gemm_b_col4(i) .. + 3 at k offset dg_gemm_b_k(i)
 * (consecutive invocations take consecutive columns).
 * Outputs: row dg_gemm_row(g, r) (g < TM / 4, r < 4) and column
 * dg_gemm_col(h, c) (h < TN / 4, c < 4) of the tile is acc[g * 4 + r][h][c].
 */
#ifndef DG_GEMM_GLSL
#define DG_GEMM_GLSL

#extension GL_EXT_control_flow_attributes : require

#include "kernel_abi/gemm_args.h"
#include "dg_load4.glsl"

#if DG_GEMM_TM % 4 != 0 || DG_GEMM_TN % 4 != 0
#error "the register block is made of 4 x 4 blocks"
#endif
#define DG_GEMM_TM4 (DG_GEMM_TM / 4)
#define DG_GEMM_TN4 (DG_GEMM_TN / 4)
#define DG_GEMM_THREADS_N (DG_GEMM_BN / DG_GEMM_TN) /* invocations along a tile row */
#define DG_GEMM_THREADS_M (DG_GEMM_BM / DG_GEMM_TM)
#define DG_GEMM_A_ITEMS (DG_GEMM_BM / 4 * DG_GEMM_BK / DG_GEMM_LOCAL)
#define DG_GEMM_B_ITEMS (DG_GEMM_BK * DG_GEMM_BN / 4 / DG_GEMM_LOCAL)

#if DG_GEMM_THREADS_N * DG_GEMM_THREADS_M != DG_GEMM_LOCAL ||                                     \
   DG_GEMM_A_ITEMS * DG_GEMM_LOCAL * 4 != DG_GEMM_BM * DG_GEMM_BK ||                               \
   DG_GEMM_B_ITEMS * DG_GEMM_LOCAL * 4 != DG_GEMM_BK * DG_GEMM_BN
#error "the GEMM tile does not split evenly over the workgroup"
#endif

#if defined(DG_NATIVE_FP16) && !defined(DG_GEMM_INT)
#define sh4_t f16vec4
#define acc4_t f16vec4
#elif defined(DG_GEMM_INT)
#define sh4_t ivec4
#define acc4_t ivec4
#else
#define sh4_t vec4
#define acc4_t vec4
#endif

shared sh4_t dg_gemm_a[DG_GEMM_BK][DG_GEMM_BM / 4 + DG_GEMM_PAD4];
shared sh4_t dg_gemm_b[DG_GEMM_BK][DG_GEMM_BN / 4];

/* The tile of this workgroup (row-major over a 2D grid of 1D workgroups, as
 * vmel_work_index()); tiles at and above the tile count have nothing to do. */
uint
dg_gemm_tile()
{
   return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

uint
dg_gemm_a_k(uint i)
{
   return (gl_LocalInvocationIndex + i * DG_GEMM_LOCAL) % DG_GEMM_BK;
}

uint
dg_gemm_a_row4(uint i)
{
   return (gl_LocalInvocationIndex + i * DG_GEMM_LOCAL) / DG_GEMM_BK;
}

uint
dg_gemm_b_col4(uint i)
{
   return (gl_LocalInvocationIndex + i * DG_GEMM_LOCAL) % (DG_GEMM_BN / 4);
}

uint
dg_gemm_b_k(uint i)
{
   return (gl_LocalInvocationIndex + i * DG_GEMM_LOCAL) / (DG_GEMM_BN / 4);
}

uint
dg_gemm_row(uint g, uint r)
{
   return (gl_LocalInvocationIndex / DG_GEMM_THREADS_N + g * DG_GEMM_THREADS_M) * 4u + r;
}

uint
dg_gemm_col(uint h, uint c)
{
   return (gl_LocalInvocationIndex % DG_GEMM_THREADS_N + h * DG_GEMM_THREADS_N) * 4u + c;
}

/* The products of the staged K step added into the register block, k increasing. Call
 * between the barrier after staging and the barrier before the next staging. The loop over
 * the step's k is left to the driver to unroll: forced, the 8x8 blocks made lavapipe's
 * pipeline creation several times slower. */
#define DG_GEMM_MAC(acc)                                                                           \
   {                                                                                               \
      uint ty_ = gl_LocalInvocationIndex / DG_GEMM_THREADS_N;                                      \
      uint tx_ = gl_LocalInvocationIndex % DG_GEMM_THREADS_N;                                      \
      for (uint k_ = 0u; k_ < DG_GEMM_BK; k_++) {                                                  \
         acc4_t a_[DG_GEMM_TM4], b_[DG_GEMM_TN4];                                                  \
         [[unroll]] for (uint g_ = 0u; g_ < DG_GEMM_TM4; g_++)                                     \
            a_[g_] = acc4_t(dg_gemm_a[k_][ty_ + g_ * DG_GEMM_THREADS_M]);                          \
         [[unroll]] for (uint h_ = 0u; h_ < DG_GEMM_TN4; h_++)                                     \
            b_[h_] = acc4_t(dg_gemm_b[k_][tx_ + h_ * DG_GEMM_THREADS_N]);                          \
         [[unroll]] for (uint g_ = 0u; g_ < DG_GEMM_TM4; g_++)                                     \
            [[unroll]] for (uint r_ = 0u; r_ < 4u; r_++)                                           \
               [[unroll]] for (uint h_ = 0u; h_ < DG_GEMM_TN4; h_++)                               \
                  acc[g_ * 4u + r_][h_] += a_[g_][r_] * b_[h_];                                    \
      }                                                                                            \
   }

/* Split-K (D56; DG_GEMM_SPLIT_K, the SPLITK variants): the kernel's output binding is a session
 * scratch tensor [S, <output dims>] of partial sums, one per part of K, in DG_GEMM_PART_DTYPE
 * (i32 for integer rows, fp32 for float ones: an fp16 accumulator's sum converts exactly);
 * gemm_reduce.comp adds the S parts in order and stores the output. The workgroups are the
 * tiles of part 0, then those of part 1, ...; part p sums the k of K steps
 * p * per .. (p + 1) * per - 1 (dg_gemm_part_steps()), the last part what is left (possibly
 * nothing: its partial sums are 0). DG_GEMM_OUT_D is the first of the output's dimensions in
 * the bound output's record. */
#ifdef DG_GEMM_INT
#define DG_GEMM_PART_DTYPE DG_DTYPE_I32
#else
#define DG_GEMM_PART_DTYPE DG_DTYPE_FP32
#endif
#ifdef DG_GEMM_SPLIT_K
#define DG_GEMM_OUT_D 1u
#else
#define DG_GEMM_OUT_D 0u
#endif

/* The K steps of DG_GEMM_BK each part of `depth` split into `parts` sums (graph/build/gemm_split.c
 * computes the same count). */
uint
dg_gemm_part_steps(uint depth, uint parts)
{
   return ((depth + DG_GEMM_BK - 1u) / DG_GEMM_BK + parts - 1u) / parts;
}

#endif /* DG_GEMM_GLSL */
