/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The core of the cooperative-matrix GEMM kernels (matmul_coop.comp,
 * conv2d_coop.comp; kernel_abi/gemm_args.h has the tile, D51): a workgroup
 * tile staged in shared memory as the tiled kernels do (dg_gemm.glsl), then
 * multiplied by each subgroup with GL_NV_cooperative_matrix fragments of the
 * device's M x N x K shape. The KHR variants are these kernels rewritten at
 * build time (cmake/spirv_coop_khr.c): the GLSL is written against the NV
 * extension, which glslang 12 compiles.
 *
 * Include after dg_kernel.glsl with DG_COOP_M, DG_COOP_N, DG_COOP_K (the
 * fragment shape) and DG_COOP_INT (i8 x i8 -> i32; else fp16 x fp16 -> fp32)
 * defined; the kernel then defines
 *   dg_coop_el_t dg_coop_load_a(uint m, uint k)   element (m, k) of A as staged,
 *   dg_coop_el_t dg_coop_load_b(uint k, uint n)   element (k, n) of B,
 *      both 0 outside the matrices (partial tiles, K not a multiple of BK);
 *   void dg_coop_store(uint m, uint n, dg_coop_acc_el_t value)
 *      output (m, n) from its sum (called for every element of the tile, inside the
 *      matrix or not: the kernel checks), the epilogue each kernel shares with its tiled
 *      form (dg_store(), dg_conv_store()),
 * and calls dg_coop_gemm(m0, n0, depth) from every invocation of the workgroup.
 *
 * Results: integer sums are exact whatever the order (int32 wrap-around, the
 * reference kernel's); float products of fp16 values are exact in fp32 and are
 * summed in fp32 in the order the hardware's fragments use, within TOSA's
 * dot-product bound (the tests check it).
 */
#ifndef DG_GEMM_COOP_GLSL
#define DG_GEMM_COOP_GLSL

#extension GL_NV_cooperative_matrix : require
#extension GL_KHR_memory_scope_semantics : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require

#include "kernel_abi/gemm_args.h"

#if !defined(DG_COOP_M) || !defined(DG_COOP_N) || !defined(DG_COOP_K)
#error "a cooperative-matrix kernel needs DG_COOP_M, DG_COOP_N and DG_COOP_K"
#endif

#ifdef DG_COOP_INT
#extension GL_NV_integer_cooperative_matrix : require
#define dg_coop_el_t int8_t
#define dg_coop_acc_el_t int
#define dg_coop_a_t icoopmatNV<8, gl_ScopeSubgroup, DG_COOP_M, DG_COOP_K>
#define dg_coop_b_t icoopmatNV<8, gl_ScopeSubgroup, DG_COOP_K, DG_COOP_N>
#define dg_coop_acc_t icoopmatNV<32, gl_ScopeSubgroup, DG_COOP_M, DG_COOP_N>
#define DG_COOP_ES 1u
#else
#define dg_coop_el_t float16_t
#define dg_coop_acc_el_t float
#define dg_coop_a_t fcoopmatNV<16, gl_ScopeSubgroup, DG_COOP_M, DG_COOP_K>
#define dg_coop_b_t fcoopmatNV<16, gl_ScopeSubgroup, DG_COOP_K, DG_COOP_N>
#define dg_coop_acc_t fcoopmatNV<32, gl_ScopeSubgroup, DG_COOP_M, DG_COOP_N>
#define DG_COOP_ES 2u
#endif

#define DG_COOP_WTM (DG_COOP_BM / DG_COOP_WARPS_M) /* a subgroup's rows */
#define DG_COOP_WTN (DG_COOP_BN / DG_COOP_WARPS_N) /* and columns */
#define DG_COOP_FM (DG_COOP_WTM / DG_COOP_M)       /* its fragments down */
#define DG_COOP_FN (DG_COOP_WTN / DG_COOP_N)       /* and across */
#define DG_COOP_A_STRIDE (DG_COOP_BK + DG_COOP_PAD_BYTES / DG_COOP_ES) /* elements */
#define DG_COOP_B_STRIDE (DG_COOP_BN + DG_COOP_PAD_BYTES / DG_COOP_ES)
#define DG_COOP_MN (DG_COOP_M * DG_COOP_N)

#if DG_COOP_WARPS_M * DG_COOP_WARPS_N != DG_COOP_SUBGROUPS || DG_COOP_FM * DG_COOP_M !=          \
   DG_COOP_WTM || DG_COOP_FN * DG_COOP_N != DG_COOP_WTN || DG_COOP_BK % DG_COOP_K != 0 ||          \
   (DG_COOP_BM * DG_COOP_BK) % DG_GEMM_LOCAL != 0 || (DG_COOP_BK * DG_COOP_BN) % DG_GEMM_LOCAL != 0
#error "the cooperative-matrix tile does not split evenly"
#endif

shared dg_coop_el_t dg_coop_sa[DG_COOP_BM * DG_COOP_A_STRIDE];
shared dg_coop_el_t dg_coop_sb[DG_COOP_BK * DG_COOP_B_STRIDE];
shared dg_coop_acc_el_t dg_coop_sc[DG_COOP_SUBGROUPS * DG_COOP_MN];

dg_coop_el_t dg_coop_load_a(uint m, uint k);
dg_coop_el_t dg_coop_load_b(uint k, uint n);
void dg_coop_store(uint m, uint n, dg_coop_acc_el_t value);

/* The tile of this workgroup (row-major over a 2D grid of 1D workgroups, as
 * vmel_work_index()); tiles at and above the tile count have nothing to do. */
uint
dg_coop_tile()
{
   return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

/* The output tile at (m0, n0) over K = depth: every invocation of the workgroup calls it. */
void
dg_coop_gemm(uint m0, uint n0, uint depth)
{
   uint wm = gl_SubgroupID / DG_COOP_WARPS_N, wn = gl_SubgroupID % DG_COOP_WARPS_N;
   dg_coop_acc_t acc[DG_COOP_FM * DG_COOP_FN];
   [[unroll]] for (uint f = 0u; f < DG_COOP_FM * DG_COOP_FN; f++)
      acc[f] = dg_coop_acc_t(0);

   for (uint k0 = 0u; k0 < depth; k0 += DG_COOP_BK) {
      /* consecutive invocations stage consecutive k of A and consecutive columns of B */
      [[unroll]] for (uint i = 0u; i < DG_COOP_BM * DG_COOP_BK / DG_GEMM_LOCAL; i++) {
         uint e = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;
         uint r = e / DG_COOP_BK, k = e % DG_COOP_BK;
         dg_coop_sa[r * DG_COOP_A_STRIDE + k] = dg_coop_load_a(m0 + r, k0 + k);
      }
      [[unroll]] for (uint i = 0u; i < DG_COOP_BK * DG_COOP_BN / DG_GEMM_LOCAL; i++) {
         uint e = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;
         uint k = e / DG_COOP_BN, c = e % DG_COOP_BN;
         dg_coop_sb[k * DG_COOP_B_STRIDE + c] = dg_coop_load_b(k0 + k, n0 + c);
      }
      barrier();
      for (uint kk = 0u; kk < DG_COOP_BK; kk += DG_COOP_K) {
         dg_coop_a_t fa[DG_COOP_FM];
         [[unroll]] for (uint fm = 0u; fm < DG_COOP_FM; fm++)
            coopMatLoadNV(fa[fm], dg_coop_sa,
                          (wm * DG_COOP_WTM + fm * DG_COOP_M) * DG_COOP_A_STRIDE + kk,
                          DG_COOP_A_STRIDE, false);
         [[unroll]] for (uint fn = 0u; fn < DG_COOP_FN; fn++) {
            dg_coop_b_t fb;
            coopMatLoadNV(fb, dg_coop_sb, kk * DG_COOP_B_STRIDE + wn * DG_COOP_WTN + fn * DG_COOP_N,
                          DG_COOP_B_STRIDE, false);
            [[unroll]] for (uint fm = 0u; fm < DG_COOP_FM; fm++)
               acc[fm * DG_COOP_FN + fn] = coopMatMulAddNV(fa[fm], fb, acc[fm * DG_COOP_FN + fn]);
         }
      }
      barrier();
   }

   /* The epilogue: each fragment through the subgroup's scratch, an element per store. */
   uint scratch = gl_SubgroupID * DG_COOP_MN;
   [[unroll]] for (uint fm = 0u; fm < DG_COOP_FM; fm++) {
      [[unroll]] for (uint fn = 0u; fn < DG_COOP_FN; fn++) {
         coopMatStoreNV(acc[fm * DG_COOP_FN + fn], dg_coop_sc, scratch, DG_COOP_N, false);
         subgroupMemoryBarrierShared();
         subgroupBarrier();
         uint m = m0 + wm * DG_COOP_WTM + fm * DG_COOP_M;
         uint n = n0 + wn * DG_COOP_WTN + fn * DG_COOP_N;
         for (uint e = gl_SubgroupInvocationID; e < DG_COOP_MN; e += gl_SubgroupSize)
            dg_coop_store(m + e / DG_COOP_N, n + e % DG_COOP_N, dg_coop_sc[scratch + e]);
         subgroupMemoryBarrierShared();
         subgroupBarrier();
      }
   }
}

#endif /* DG_GEMM_COOP_GLSL */
