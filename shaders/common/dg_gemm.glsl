/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The core of the tiled GEMM kernels (matmul_tiled.comp, conv2d_tiled.comp;
 * kernel_abi/gemm_args.h has the tile and the contract, D44): the shared
 * blocks of A (BK x BM, k-major) and B (BK x BN), the invocation's place in
 * its tile, and the multiply-accumulate of one staged K step into the register
 * block.
 *
 * Include after dg_kernel.glsl with two types defined:
 *   sh_t   what the shared blocks hold: an element with its zero point already
 *          subtracted (int), or its value (float; float16_t where the variant
 *          computes in fp16 and every input is exact in it);
 *   acc_t  the accumulator.
 * Elements outside A or B (partial tiles, K not a multiple of BK) are staged
 * as 0: they add 0 to the outputs that are stored.
 *
 * Every output accumulates its K products in increasing k, the order of the
 * reference kernels: an fp16 accumulator rounds at the same points.
 */
#ifndef DG_GEMM_GLSL
#define DG_GEMM_GLSL

#extension GL_EXT_control_flow_attributes : require

#include "kernel_abi/gemm_args.h"

#define DG_GEMM_THREADS_N (DG_GEMM_BN / DG_GEMM_TN) /* invocations along a tile row */
#define DG_GEMM_THREADS_M (DG_GEMM_BM / DG_GEMM_TM)
#define DG_GEMM_A_PER (DG_GEMM_BM * DG_GEMM_BK / DG_GEMM_LOCAL) /* A elements each stages */
#define DG_GEMM_B_PER (DG_GEMM_BK * DG_GEMM_BN / DG_GEMM_LOCAL)

#if DG_GEMM_THREADS_N * DG_GEMM_THREADS_M != DG_GEMM_LOCAL ||                                     \
   DG_GEMM_A_PER * DG_GEMM_LOCAL != DG_GEMM_BM * DG_GEMM_BK ||                                     \
   DG_GEMM_B_PER * DG_GEMM_LOCAL != DG_GEMM_BK * DG_GEMM_BN || DG_GEMM_LOCAL % DG_GEMM_BK != 0
#error "the GEMM tile does not split evenly over the workgroup"
#endif

shared sh_t dg_gemm_a[DG_GEMM_BK][DG_GEMM_BM + DG_GEMM_PAD];
shared sh_t dg_gemm_b[DG_GEMM_BK][DG_GEMM_BN + DG_GEMM_PAD];

/* The tile of this workgroup (row-major over a 2D grid of 1D workgroups, as
 * vmel_work_index()); tiles at and above the tile count have nothing to do. */
uint
dg_gemm_tile()
{
   return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

/* A staging: element i (< DG_GEMM_A_PER) of this invocation is row dg_gemm_a_row(i) of the
 * tile at k offset dg_gemm_a_k() (consecutive invocations read consecutive k). */
uint
dg_gemm_a_k()
{
   return gl_LocalInvocationIndex % DG_GEMM_BK;
}

uint
dg_gemm_a_row(uint i)
{
   return gl_LocalInvocationIndex / DG_GEMM_BK + i * (DG_GEMM_LOCAL / DG_GEMM_BK);
}

/* B staging: element i is column dg_gemm_b_col() at k offset dg_gemm_b_k(i) (consecutive
 * invocations read consecutive columns). */
uint
dg_gemm_b_col()
{
   return gl_LocalInvocationIndex % DG_GEMM_BN;
}

uint
dg_gemm_b_k(uint i)
{
   return gl_LocalInvocationIndex / DG_GEMM_BN + i * (DG_GEMM_LOCAL / DG_GEMM_BN);
}

/* This invocation's outputs: rows dg_gemm_row(i), columns dg_gemm_col(j) of the tile. */
uint
dg_gemm_row(uint i)
{
   return gl_LocalInvocationIndex / DG_GEMM_THREADS_N + i * DG_GEMM_THREADS_M;
}

uint
dg_gemm_col(uint j)
{
   return gl_LocalInvocationIndex % DG_GEMM_THREADS_N + j * DG_GEMM_THREADS_N;
}

/* The products of the staged K step added into the register block, k increasing. Call
 * between the barrier after staging and the barrier before the next staging. */
#define DG_GEMM_MAC(acc)                                                                           \
   {                                                                                               \
      uint row0_ = dg_gemm_row(0u), col0_ = dg_gemm_col(0u);                                      \
      [[unroll]] for (uint k_ = 0u; k_ < DG_GEMM_BK; k_++) {                                       \
         acc_t a_[DG_GEMM_TM], b_[DG_GEMM_TN];                                                     \
         [[unroll]] for (uint i_ = 0u; i_ < DG_GEMM_TM; i_++)                                      \
            a_[i_] = acc_t(dg_gemm_a[k_][row0_ + i_ * DG_GEMM_THREADS_M]);                         \
         [[unroll]] for (uint j_ = 0u; j_ < DG_GEMM_TN; j_++)                                      \
            b_[j_] = acc_t(dg_gemm_b[k_][col0_ + j_ * DG_GEMM_THREADS_N]);                         \
         [[unroll]] for (uint i_ = 0u; i_ < DG_GEMM_TM; i_++)                                      \
            [[unroll]] for (uint j_ = 0u; j_ < DG_GEMM_TN; j_++)                                   \
               acc[i_][j_] += a_[i_] * b_[j_];                                                     \
      }                                                                                            \
   }

#endif /* DG_GEMM_GLSL */
