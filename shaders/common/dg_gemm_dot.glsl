/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The core of the integer-dot-product GEMM kernels (matmul_dot.comp,
 * conv2d_dot.comp; D51): i8 x i8 -> i32 with 4 products per instruction
 * (SPV_KHR_integer_dot_product's OpSDot on 4 packed 8-bit values, the Vulkan
 * 1.3 feature shaderIntegerDotProduct).
 *
 * glslang 12 has no GL_EXT_integer_dot_product: the kernels call dg_sdot4(),
 * a plain GLSL function computing the same packed dot product, and the build
 * replaces every call by OpSDot (cmake/spirv_rewrite.c, SPIRV_REWRITE int_dot).
 *
 * A DG_DOT_BM x DG_DOT_BN output tile per workgroup of DG_GEMM_LOCAL invocations,
 * K in steps of DG_DOT_BK staged in shared memory as words of 4 consecutive k
 * (A: per row, B: per column); each invocation sums a 4 x 4 block of outputs
 * (rows ty + 16 i, columns tx + 16 j).
 *
 * Zero points: the staged values are the raw i8 elements, so that 4 fit a
 * word; the sum of (a - za)(b - zb) over k is then, in int32 with
 * wrap-around, sum(a b) - zb sum(a) - za sum(b) + K za zb: bit-exact, as the
 * reference's. Elements beyond the matrices are staged as 0 (they add 0 to
 * every sum); a kernel whose A has taps that must add nothing (CONV2D's
 * padding) stages za there, whose terms cancel.
 *
 * Split-K (D65; DG_GEMM_SPLIT_K, the INT_DOT_SPLITK variants): a workgroup sums the k of one
 * part, k_first .. k_end - 1, whose bounds are multiples of DG_DOT_BK but the last
 * (dg_dot_part_steps()); the zero-point algebra holds for any range of k (its K za zb term
 * counts the part's k), so the parts' sums, added in int32 by gemm_reduce.comp, wrap to the
 * unsplit sum bit for bit.
 *
 * Include after dg_kernel.glsl; the kernel defines
 *   int dg_dot_load_a(uint m, uint k)   raw element (m, k) of A (i8 range),
 *   int dg_dot_load_b(uint k, uint n)   raw element (k, n) of B,
 *   void dg_dot_store(uint m, uint n, int value)   output (m, n) (any m, n: it checks),
 * and calls dg_dot_gemm(m0, n0, k_first, k_end, za, zb) from every invocation (0 and K
 * unsplit).
 */
#ifndef DG_GEMM_DOT_GLSL
#define DG_GEMM_DOT_GLSL

#extension GL_EXT_control_flow_attributes : require

#include "kernel_abi/gemm_args.h"

#define DG_DOT_K4 (DG_DOT_BK / 4)
#define DG_DOT_T 16 /* invocations along a tile's rows and columns */

#if DG_DOT_T * DG_DOT_T != DG_GEMM_LOCAL || DG_DOT_BM != 4 * DG_DOT_T || DG_DOT_BN != 4 * DG_DOT_T
#error "the integer-dot tile does not split evenly"
#endif

shared uint dg_dot_a[DG_DOT_K4][DG_DOT_BM];
shared uint dg_dot_b[DG_DOT_K4][DG_DOT_BN];

int dg_dot_load_a(uint m, uint k);
int dg_dot_load_b(uint k, uint n);
void dg_dot_store(uint m, uint n, int value);

/* The dot product of the 4 signed 8-bit values packed in a and in b. The build replaces
 * every call by OpSDot a b PackedVectorFormat4x8Bit (the name is what it looks for). */
int
dg_sdot4(uint a, uint b)
{
   ivec4 x = ivec4(int(a << 24u) >> 24, int(a << 16u) >> 24, int(a << 8u) >> 24, int(a) >> 24);
   ivec4 y = ivec4(int(b << 24u) >> 24, int(b << 16u) >> 24, int(b << 8u) >> 24, int(b) >> 24);
   return x.x * y.x + x.y * y.y + x.z * y.z + x.w * y.w;
}

uint
dg_dot_pack(int v0, int v1, int v2, int v3)
{
   return uint(v0 & 0xff) | (uint(v1 & 0xff) << 8u) | (uint(v2 & 0xff) << 16u) |
          (uint(v3 & 0xff) << 24u);
}

/* The tile of this workgroup (row-major over a 2D grid of 1D workgroups). */
uint
dg_dot_tile()
{
   return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
}

/* The K steps of DG_DOT_BK each part of `depth` split into `parts` sums (graph/build/gemm_split.c
 * computes the same count). */
uint
dg_dot_part_steps(uint depth, uint parts)
{
   return ((depth + DG_DOT_BK - 1u) / DG_DOT_BK + parts - 1u) / parts;
}

/* Split-K: the bound output is the scratch [S, <output dims>]; DG_DOT_OUT_D is the first of the
 * output's dimensions in its record. */
#ifdef DG_GEMM_SPLIT_K
#define DG_DOT_OUT_D 1u
#else
#define DG_DOT_OUT_D 0u
#endif

/* This workgroup's work among `tiles` output tiles and K = `depth`: false past the last
 * tile (the whole workgroup returns: no barrier is left waiting); else `tile` becomes the tile
 * within its part of K, the part's k range [k_first, k_end) and the byte offset of its partial
 * sums in the scratch `out_r` (unsplit: the tile itself, 0 .. depth and 0). */
bool
dg_dot_work(vmel_tensor_record out_r, uint tiles, uint depth, inout uint tile, out uint k_first,
            out uint k_end, out uint part_offset)
{
   k_first = 0u;
   k_end = depth;
   part_offset = 0u;
#ifdef DG_GEMM_SPLIT_K
   uint parts = out_r.dims[0], part = tile / tiles;
   if (part >= parts)
      return false;
   tile %= tiles;
   uint per = dg_dot_part_steps(depth, parts) * DG_DOT_BK;
   k_first = part * per;
   k_end = min(depth, k_first + per);
   part_offset = part * out_r.strides[0];
   return true;
#else
   return tile < tiles;
#endif
}

void
dg_dot_gemm(uint m0, uint n0, uint k_first, uint k_end, int za, int zb)
{
   uint ty = gl_LocalInvocationIndex / DG_DOT_T, tx = gl_LocalInvocationIndex % DG_DOT_T;
   int acc[4][4], row_sum[4], col_sum[4];
   [[unroll]] for (uint i = 0u; i < 4u; i++) {
      row_sum[i] = 0;
      col_sum[i] = 0;
      [[unroll]] for (uint j = 0u; j < 4u; j++)
         acc[i][j] = 0;
   }
   const uint ones = 0x01010101u;
   for (uint k0 = k_first; k0 < k_end; k0 += DG_DOT_BK) {
      [[unroll]] for (uint i = 0u; i < DG_DOT_K4 * DG_DOT_BM / DG_GEMM_LOCAL; i++) {
         uint w = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;
         uint k4 = w % DG_DOT_K4, r = w / DG_DOT_K4, k = k0 + 4u * k4;
         uint m = m0 + r;
         dg_dot_a[k4][r] = dg_dot_pack(dg_dot_load_a(m, k), dg_dot_load_a(m, k + 1u),
                                       dg_dot_load_a(m, k + 2u), dg_dot_load_a(m, k + 3u));
      }
      [[unroll]] for (uint i = 0u; i < DG_DOT_K4 * DG_DOT_BN / DG_GEMM_LOCAL; i++) {
         uint w = gl_LocalInvocationIndex + i * DG_GEMM_LOCAL;
         uint c = w % DG_DOT_BN, k4 = w / DG_DOT_BN, k = k0 + 4u * k4;
         uint n = n0 + c;
         dg_dot_b[k4][c] = dg_dot_pack(dg_dot_load_b(k, n), dg_dot_load_b(k + 1u, n),
                                       dg_dot_load_b(k + 2u, n), dg_dot_load_b(k + 3u, n));
      }
      barrier();
      for (uint k4 = 0u; k4 < DG_DOT_K4; k4++) {
         uint a[4], b[4];
         [[unroll]] for (uint i = 0u; i < 4u; i++) {
            a[i] = dg_dot_a[k4][ty + i * DG_DOT_T];
            b[i] = dg_dot_b[k4][tx + i * DG_DOT_T];
            row_sum[i] += dg_sdot4(a[i], ones);
            col_sum[i] += dg_sdot4(b[i], ones);
         }
         [[unroll]] for (uint i = 0u; i < 4u; i++)
            [[unroll]] for (uint j = 0u; j < 4u; j++)
               acc[i][j] += dg_sdot4(a[i], b[j]);
      }
      barrier();
   }
   int kzz = int(k_end - k_first) * za * zb;
   [[unroll]] for (uint i = 0u; i < 4u; i++)
      [[unroll]] for (uint j = 0u; j < 4u; j++)
         dg_dot_store(m0 + ty + i * DG_DOT_T, n0 + tx + j * DG_DOT_T,
                      acc[i][j] - zb * row_sum[i] - za * col_sum[j] + kzz);
}

#endif /* DG_GEMM_DOT_GLSL */
