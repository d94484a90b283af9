/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The core of the cooperative-matrix GEMM kernels (matmul_coop.comp,
 * conv2d_coop.comp; kernel_abi/gemm_args.h has the tile, D51): a workgroup
 * tile staged in shared memory, then multiplied by each subgroup with
 * GL_NV_cooperative_matrix fragments of the device's M x N x K shape. The KHR
 * variants are these kernels rewritten at build time (cmake/spirv_coop_khr.c):
 * the GLSL is written against the NV extension, which glslang 12 compiles.
 *
 * Staging (D58): the K loop moves 16-byte vectors (8 fp16 or 16 i8 elements),
 * double-buffered: each invocation reads the next step's vectors from memory into
 * registers before the subgroups multiply the current step out of shared memory,
 * then writes them to the other buffer, so one barrier per step separates the two
 * and the loads' latency hides behind the multiplications. Shared memory holds
 * the staged vectors as uvec4 (A) and uvec4 / uvec2 (B: a fragment's N columns
 * are 16 bytes of fp16, 8 of i8), which the fragment loads read in those units;
 * after the loop A's buffers are the accumulators' scratch for the epilogue.
 *
 * Include after dg_kernel.glsl with DG_COOP_M, DG_COOP_N, DG_COOP_K (the
 * fragment shape) and DG_COOP_INT (i8 x i8 -> i32) or DG_COOP_BF16 (bf16 x bf16
 * -> fp32; else fp16 x fp16 -> fp32) defined; the kernel then defines
 *   dg_coop_el_t dg_coop_load_a(uint m, uint k)   element (m, k) of A as staged,
 *   dg_coop_el_t dg_coop_load_b(uint k, uint n)   element (k, n) of B,
 *      both 0 outside the matrices (partial tiles, K not a multiple of BK);
 *   uvec4 dg_coop_load_a16(uint m, uint k)   elements (m, k .. k + DG_COOP_VEC - 1) as
 *   uvec4 dg_coop_load_b16(uint k, uint n)   staged and (k, n .. n + DG_COOP_VEC - 1), each
 *      one 16-byte load (0 outside the matrices; called only where the kernel passed
 *      dg_coop_gemm() vectors = true: k and n are multiples of DG_COOP_VEC);
 *   void dg_coop_store(uint m, uint n, dg_coop_acc_el_t value)
 *      output (m, n) from its sum (called for every element of the tile, inside the
 *      matrix or not: the kernel checks), the epilogue each kernel shares with its tiled
 *      form (dg_store(), dg_conv_store()),
 * and calls dg_coop_gemm(m0, n0, depth, vectors) from every invocation of the workgroup, with
 * vectors whether both operands' layouts allow the 16-byte loads (else every vector is
 * gathered from dg_coop_load_a() / dg_coop_load_b()).
 *
 * bf16 (D60): glslang 12 has no bf16 cooperative matrices, so the bf16 kernels are
 * these fp16 ones staging the raw 16-bit patterns (dg_coop_el_t is uint16_t: no
 * fp16 value is ever formed), and cmake/spirv_bf16.c gives the fragments' 16-bit
 * float type the BFloat16KHR encoding after the KHR rewrite (it refuses a kernel
 * that uses the type for anything else). The dg_coop_load_el() macro loads one
 * element as staged.
 *
 * Results: integer sums are exact whatever the order (int32 wrap-around, the
 * reference kernel's); float products of fp16 or bf16 values are exact in fp32 and are
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
#define DG_COOP_ES 1
#define dg_coop_bv_t uvec2 /* B's shared unit: a fragment's 8 i8 columns */
#define DG_COOP_BV_BYTES 8
#define dg_coop_acc_from_bits(bits) int(bits)
#else
#ifdef DG_COOP_BF16
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#define dg_coop_el_t uint16_t /* the bf16 bits */
#define dg_coop_load_el(dtype, address) uint16_t(dg_load_bits16(address))
#else
#define dg_coop_el_t float16_t
#endif
#define dg_coop_acc_el_t float
#define dg_coop_a_t fcoopmatNV<16, gl_ScopeSubgroup, DG_COOP_M, DG_COOP_K>
#define dg_coop_b_t fcoopmatNV<16, gl_ScopeSubgroup, DG_COOP_K, DG_COOP_N>
#define dg_coop_acc_t fcoopmatNV<32, gl_ScopeSubgroup, DG_COOP_M, DG_COOP_N>
#define DG_COOP_ES 2
#define dg_coop_bv_t uvec4 /* B's shared unit: a fragment's 8 fp16 columns */
#define DG_COOP_BV_BYTES 16
#define dg_coop_acc_from_bits(bits) uintBitsToFloat(bits)
#endif
#ifndef dg_coop_load_el /* one element as staged: the element's value (bf16: its bits, above) */
#define dg_coop_load_el(dtype, address) dg_coop_el_t(dg_load(dtype, address))
#endif

#define DG_COOP_VEC (16 / DG_COOP_ES)                 /* elements per 16-byte vector */
#define DG_COOP_BK (DG_COOP_BK_BYTES / DG_COOP_ES)     /* K elements per step */
#define DG_COOP_WTM (DG_COOP_BM / DG_COOP_WARPS_M)     /* a subgroup's rows */
#define DG_COOP_WTN (DG_COOP_BN / DG_COOP_WARPS_N)     /* and columns */
#define DG_COOP_FM (DG_COOP_WTM / DG_COOP_M)           /* its fragments down */
#define DG_COOP_FN (DG_COOP_WTN / DG_COOP_N)           /* and across */
#define DG_COOP_MN (DG_COOP_M * DG_COOP_N)
/* Shared rows in their units, padded by DG_COOP_PAD_BYTES (rows stay 16-byte aligned and the
 * 8 rows a fragment load reads at once fall on different banks). */
#define DG_COOP_A_ROW ((DG_COOP_BK_BYTES + DG_COOP_PAD_BYTES) / 16)
#define DG_COOP_B_ROW ((DG_COOP_BN * DG_COOP_ES + DG_COOP_PAD_BYTES) / DG_COOP_BV_BYTES)
#define DG_COOP_A_BUF (DG_COOP_BM * DG_COOP_A_ROW)
#define DG_COOP_B_BUF (DG_COOP_BK * DG_COOP_B_ROW)
/* 16-byte vectors of a step each invocation moves, and per row */
#define DG_COOP_A_ROW_VECS (DG_COOP_BK_BYTES / 16)
#define DG_COOP_B_ROW_VECS (DG_COOP_BN * DG_COOP_ES / 16)
#define DG_COOP_A_LOADS (DG_COOP_BM * DG_COOP_A_ROW_VECS / DG_GEMM_LOCAL)
#define DG_COOP_B_LOADS (DG_COOP_BK * DG_COOP_B_ROW_VECS / DG_GEMM_LOCAL)

#if DG_COOP_WARPS_M * DG_COOP_WARPS_N != DG_COOP_SUBGROUPS || DG_COOP_FM * DG_COOP_M !=          \
   DG_COOP_WTM || DG_COOP_FN * DG_COOP_N != DG_COOP_WTN || DG_COOP_BK % DG_COOP_K != 0 ||          \
   DG_COOP_A_LOADS * DG_GEMM_LOCAL != DG_COOP_BM * DG_COOP_A_ROW_VECS ||                           \
   DG_COOP_B_LOADS * DG_GEMM_LOCAL != DG_COOP_BK * DG_COOP_B_ROW_VECS ||                           \
   DG_COOP_SUBGROUPS * DG_COOP_MN * 4 > 2 * DG_COOP_A_BUF * 16
#error "the cooperative-matrix tile does not split evenly"
#endif

shared uvec4 dg_coop_sa[2u * DG_COOP_A_BUF];
shared dg_coop_bv_t dg_coop_sb[2u * DG_COOP_B_BUF];

/* One 16-byte vector at a device address aligned to 16. */
layout(buffer_reference, buffer_reference_align = 16, std430) buffer dg_coop_ref128 {
   uvec4 value;
};

dg_coop_el_t dg_coop_load_a(uint m, uint k);
dg_coop_el_t dg_coop_load_b(uint k, uint n);
uvec4 dg_coop_load_a16(uint m, uint k);
uvec4 dg_coop_load_b16(uint k, uint n);
void dg_coop_store(uint m, uint n, dg_coop_acc_el_t value);

/* 16 bytes at `address` (a multiple of 16). */
uvec4
dg_coop_load16(uvec2 address)
{
   return dg_coop_ref128(address).value;
}

/* Four words of staged elements e[0..DG_COOP_VEC) in memory order. */
#ifdef DG_COOP_INT
#define DG_COOP_PACK(get)                                                                          \
   uvec4 v;                                                                                        \
   [[unroll]] for (uint w = 0u; w < 4u; w++)                                                       \
      v[w] = uint(pack32(i8vec4(get(4u * w), get(4u * w + 1u), get(4u * w + 2u),                  \
                                get(4u * w + 3u))));                                               \
   return v
#elif defined(DG_COOP_BF16)
#define DG_COOP_PACK(get)                                                                          \
   uvec4 v;                                                                                        \
   [[unroll]] for (uint w = 0u; w < 4u; w++)                                                       \
      v[w] = uint(get(2u * w)) | uint(get(2u * w + 1u)) << 16u;                                    \
   return v
#else
#define DG_COOP_PACK(get)                                                                          \
   uvec4 v;                                                                                        \
   [[unroll]] for (uint w = 0u; w < 4u; w++)                                                       \
      v[w] = packFloat2x16(f16vec2(get(2u * w), get(2u * w + 1u)));                                \
   return v
#endif

/* A's elements (m, k .. k + DG_COOP_VEC - 1) and B's (k, n .. n + DG_COOP_VEC - 1) from the
 * kernel's element loads: the form for layouts a 16-byte load cannot read. */
uvec4
dg_coop_gather_a16(uint m, uint k)
{
#define DG_COOP_GET_A(i) dg_coop_load_a(m, k + (i))
   DG_COOP_PACK(DG_COOP_GET_A);
#undef DG_COOP_GET_A
}

uvec4
dg_coop_gather_b16(uint k, uint n)
{
#define DG_COOP_GET_B(i) dg_coop_load_b(k, n + (i))
   DG_COOP_PACK(DG_COOP_GET_B);
#undef DG_COOP_GET_B
}

/* The tile of this workgroup (row-major over a 2D grid of 1D workgroups, as
 * vmel_work_index()); tiles at and above the tile count have nothing to do. */
uint
dg_coop_tile()
{
   return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

/* This invocation's vectors of the step at k0: consecutive invocations read consecutive
 * 16-byte vectors of a row of A and of B; LOAD_A / LOAD_B the 16-byte loads or the gathers. */
#define DG_COOP_FETCH(name, LOAD_A, LOAD_B)                                                        \
   void name(uint m0, uint n0, uint k0, out uvec4 ra[DG_COOP_A_LOADS],                             \
             out uvec4 rb[DG_COOP_B_LOADS])                                                        \
   {                                                                                               \
      [[unroll]] for (uint i = 0u; i < DG_COOP_A_LOADS; i++) {                                     \
         uint e = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;                                     \
         ra[i] = LOAD_A(m0 + e / DG_COOP_A_ROW_VECS, k0 + e % DG_COOP_A_ROW_VECS * DG_COOP_VEC);    \
      }                                                                                            \
      [[unroll]] for (uint i = 0u; i < DG_COOP_B_LOADS; i++) {                                     \
         uint e = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;                                     \
         rb[i] = LOAD_B(k0 + e / DG_COOP_B_ROW_VECS, n0 + e % DG_COOP_B_ROW_VECS * DG_COOP_VEC);    \
      }                                                                                            \
   }
DG_COOP_FETCH(dg_coop_fetch16, dg_coop_load_a16, dg_coop_load_b16)
DG_COOP_FETCH(dg_coop_fetch_gather, dg_coop_gather_a16, dg_coop_gather_b16)

/* Those vectors into shared buffer `buf`. */
void
dg_coop_stage(uint buf, uvec4 ra[DG_COOP_A_LOADS], uvec4 rb[DG_COOP_B_LOADS])
{
   [[unroll]] for (uint i = 0u; i < DG_COOP_A_LOADS; i++) {
      uint e = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;
      dg_coop_sa[buf * DG_COOP_A_BUF + e / DG_COOP_A_ROW_VECS * DG_COOP_A_ROW +
                 e % DG_COOP_A_ROW_VECS] = ra[i];
   }
   [[unroll]] for (uint i = 0u; i < DG_COOP_B_LOADS; i++) {
      uint e = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;
      uint at = buf * DG_COOP_B_BUF + e / DG_COOP_B_ROW_VECS * DG_COOP_B_ROW;
#ifdef DG_COOP_INT
      at += e % DG_COOP_B_ROW_VECS * 2u;
      dg_coop_sb[at] = rb[i].xy;
      dg_coop_sb[at + 1u] = rb[i].zw;
#else
      dg_coop_sb[at + e % DG_COOP_B_ROW_VECS] = rb[i];
#endif
   }
}

/* The K loop of the output tile at (m0, n0) over K = depth into acc, staging through FETCH:
 * double-buffered, one barrier per step. */
#define DG_COOP_K_LOOP(FETCH)                                                                      \
   {                                                                                               \
      uvec4 ra[DG_COOP_A_LOADS], rb[DG_COOP_B_LOADS];                                              \
      uint steps = (depth + DG_COOP_BK - 1u) / DG_COOP_BK;                                         \
      FETCH(m0, n0, 0u, ra, rb);                                                                   \
      dg_coop_stage(0u, ra, rb);                                                                   \
      barrier();                                                                                   \
      for (uint s = 0u; s < steps; s++) {                                                          \
         uint buf = s & 1u;                                                                        \
         bool more = s + 1u < steps;                                                               \
         if (more)                                                                                 \
            FETCH(m0, n0, (s + 1u) * DG_COOP_BK, ra, rb);                                          \
         dg_coop_multiply(buf, wm, wn, acc);                                                       \
         if (more)                                                                                 \
            dg_coop_stage(buf ^ 1u, ra, rb);                                                       \
         barrier();                                                                                \
      }                                                                                            \
   }

/* One staged step of shared buffer `buf` into the subgroup's accumulators. */
void
dg_coop_multiply(uint buf, uint wm, uint wn, inout dg_coop_acc_t acc[DG_COOP_FM * DG_COOP_FN])
{
   [[unroll]] for (uint kk = 0u; kk < DG_COOP_BK; kk += DG_COOP_K) {
      dg_coop_a_t fa[DG_COOP_FM];
      [[unroll]] for (uint fm = 0u; fm < DG_COOP_FM; fm++)
         coopMatLoadNV(fa[fm], dg_coop_sa,
                       buf * DG_COOP_A_BUF + (wm * DG_COOP_WTM + fm * DG_COOP_M) * DG_COOP_A_ROW +
                          kk / DG_COOP_VEC,
                       DG_COOP_A_ROW, false);
      [[unroll]] for (uint fn = 0u; fn < DG_COOP_FN; fn++) {
         dg_coop_b_t fb;
         coopMatLoadNV(fb, dg_coop_sb,
                       buf * DG_COOP_B_BUF + kk * DG_COOP_B_ROW +
                          (wn * DG_COOP_WTN + fn * DG_COOP_N) * DG_COOP_ES / DG_COOP_BV_BYTES,
                       DG_COOP_B_ROW, false);
         [[unroll]] for (uint fm = 0u; fm < DG_COOP_FM; fm++)
            acc[fm * DG_COOP_FN + fn] = coopMatMulAddNV(fa[fm], fb, acc[fm * DG_COOP_FN + fn]);
      }
   }
}

/* The output tile at (m0, n0) over K = depth: every invocation of the workgroup calls it, with
 * `vectors` the same in all (whether A and B stage with 16-byte loads). The two K loops are
 * whole copies, so the branch between them is taken once: within one loop (a branch per load)
 * the 16-byte form ran 3.3x slower on the H200 (D58). */
void
dg_coop_gemm(uint m0, uint n0, uint depth, bool vectors)
{
   uint wm = gl_SubgroupID / DG_COOP_WARPS_N, wn = gl_SubgroupID % DG_COOP_WARPS_N;
   dg_coop_acc_t acc[DG_COOP_FM * DG_COOP_FN];
   [[unroll]] for (uint f = 0u; f < DG_COOP_FM * DG_COOP_FN; f++)
      acc[f] = dg_coop_acc_t(0);
   if (vectors)
      DG_COOP_K_LOOP(dg_coop_fetch16)
   else
      DG_COOP_K_LOOP(dg_coop_fetch_gather)

   /* The epilogue: each fragment through the subgroup's scratch in A's buffers (every
    * subgroup is past the loop's last barrier), an element per store. */
   uint scratch = gl_SubgroupID * (DG_COOP_MN / 4u);
   [[unroll]] for (uint fm = 0u; fm < DG_COOP_FM; fm++) {
      [[unroll]] for (uint fn = 0u; fn < DG_COOP_FN; fn++) {
         coopMatStoreNV(acc[fm * DG_COOP_FN + fn], dg_coop_sa, scratch, DG_COOP_N / 4u, false);
         subgroupMemoryBarrierShared();
         subgroupBarrier();
         uint m = m0 + wm * DG_COOP_WTM + fm * DG_COOP_M;
         uint n = n0 + wn * DG_COOP_WTN + fn * DG_COOP_N;
         for (uint e = gl_SubgroupInvocationID; e < DG_COOP_MN; e += gl_SubgroupSize)
            dg_coop_store(m + e / DG_COOP_N, n + e % DG_COOP_N,
                          dg_coop_acc_from_bits(dg_coop_sa[scratch + e / 4u][e % 4u]));
         subgroupMemoryBarrierShared();
         subgroupBarrier();
      }
   }
}

#endif /* DG_GEMM_COOP_GLSL */
