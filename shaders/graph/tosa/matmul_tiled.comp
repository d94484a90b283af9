/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 MATMUL (§2.3 "Tensor Operators"), the TILED variant (D44):
 * output[n,h,w] = sum over c of (A[n,h,c] - A_zp) * (B[n,c,w] - B_zp) in the
 * accumulator type, as matmul.comp, computed a tile per workgroup through
 * shared memory (dg_gemm.glsl, kernel_abi/gemm_args.h).
 *
 * Tensors (binding order): 0 A [N,H,C], 1 B [N,C,W], 2 output [N,H,W].
 * Grid: one workgroup of DG_GEMM_LOCAL invocations per output tile, tiles
 * row-major over (n, tile row, tile column).
 * Attributes (struct dg_attrs_matmul): a_zp, b_zp (i8 rows).
 * Variant defines: DG_IN_DTYPE (A and B), DG_OUT_DTYPE, DG_NATIVE_FP16; DG_GEMM_EPILOGUE (the
 * _EPI variants, D52): each output element goes through the gemm epilogue
 * (dg_gemm_epilogue.glsl), tensors 3 .. 6 its extra tensors, tensor 2 the chain's last.
 * DG_GEMM_SPLIT_K (the SPLITK variants, D56; with DG_GEMM_SMALL): tensor 2 is a scratch
 * [S, N, H, W] of partial sums, one per part of K (dg_gemm.glsl), S * tiles workgroups.
 * Rows:
 * i8 -> i32 (wrapping, bit-exact: integer sums do not depend on the order);
 * fp8 -> fp16; fp16 -> fp16 or fp32; bf16 -> fp32; fp32 -> fp32. An fp16
 * output accumulates in fp32 unless DG_NATIVE_FP16 makes the accumulator (and
 * the staged elements, exact in fp16) float16_t.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

#if DG_OUT_DTYPE == DG_DTYPE_FP16 && defined(DG_NATIVE_FP16)
#define sh_t float16_t
#elif DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
#define sh_t float
#else
#define sh_t int
#define DG_GEMM_INT
#endif

DG_DECLARE_ATTRS_MATMUL

#include "dg_gemm.glsl"

DG_TENSOR(DG_MATMUL_A, a);
DG_TENSOR(DG_MATMUL_B, b);
DG_TENSOR(DG_MATMUL_OUTPUT, output);

#ifdef DG_GEMM_EPILOGUE
#define DG_GEMM_EPI_FIRST (DG_MATMUL_OUTPUT + 1)
#define DG_EPI_IN_DTYPE DG_OUT_DTYPE
#include "dg_gemm_epilogue.glsl"
#endif

/* An element of A or B as staged: its value less the zero point (integers), 0 outside. */
sh_t
stage_value(bool inside, uvec2 address, int zp)
{
   if (!inside)
      return sh_t(0);
   dg_atype(DG_IN_DTYPE) v = dg_load(DG_IN_DTYPE, address);
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
   return sh_t(v);
#else
   return v - zp;
#endif
}

/* An element of A or B as staged, from its bits (dg_gemm_load4_bits()). */
sh_t
stage_bits(uint bits, int zp)
{
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
   return sh_t(dg_from_bits(DG_IN_DTYPE, bits));
#else
   return dg_from_bits(DG_IN_DTYPE, bits) - zp;
#endif
}

void
main()
{
   vmel_tensor_record a_r = DG_RECORD(a);
   vmel_tensor_record b_r = DG_RECORD(b);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint batch = out_r.dims[DG_GEMM_OUT_D], rows = out_r.dims[DG_GEMM_OUT_D + 1u];
   uint cols = out_r.dims[DG_GEMM_OUT_D + 2u], k_first = 0u, depth = a_r.dims[2];
   uint tiles_m = (rows + DG_GEMM_BM - 1u) / DG_GEMM_BM;
   uint tiles_n = (cols + DG_GEMM_BN - 1u) / DG_GEMM_BN;
   uint tiles = batch * tiles_m * tiles_n;
   uint tile = dg_gemm_tile();
#ifdef DG_GEMM_SPLIT_K
   uint parts = out_r.dims[0], part = tile / tiles;
   if (part >= parts)
      return; /* the whole workgroup: no barrier is left waiting */
   tile %= tiles;
   uint per = dg_gemm_part_steps(depth, parts) * DG_GEMM_BK;
   k_first = part * per;
   depth = min(depth, k_first + per);
   uint part_offset = part * out_r.strides[0];
#else
   if (tile >= tiles)
      return; /* the whole workgroup: no barrier is left waiting */
#endif
   uint n = tile / (tiles_m * tiles_n);
   uint m0 = (tile / tiles_n) % tiles_m * DG_GEMM_BM;
   uint n0 = tile % tiles_n * DG_GEMM_BN;

   uvec2 a_base = dg_address(a_r, n * a_r.strides[0]);
   uvec2 b_base = dg_address(b_r, n * b_r.strides[0]);

   acc4_t acc[DG_GEMM_TM][DG_GEMM_TN4];
   [[unroll]] for (uint i = 0u; i < DG_GEMM_TM; i++)
      [[unroll]] for (uint h = 0u; h < DG_GEMM_TN4; h++)
         acc[i][h] = acc4_t(0);

   for (uint k0 = k_first; k0 < depth; k0 += DG_GEMM_BK) {
      [[unroll]] for (uint i = 0u; i < DG_GEMM_A_ITEMS; i++) {
         uint k = k0 + dg_gemm_a_k(i), m = m0 + 4u * dg_gemm_a_row4(i);
         uvec2 at = vmel_address_add(a_base, m * a_r.strides[1] + k * a_r.strides[2]);
         sh4_t v;
         [[unroll]] for (uint r = 0u; r < 4u; r++)
            v[r] = stage_value(m + r < rows && k < depth, vmel_address_add(at, r * a_r.strides[1]),
                               a_zp);
         dg_gemm_a[dg_gemm_a_k(i)][dg_gemm_a_row4(i)] = v;
      }
      [[unroll]] for (uint i = 0u; i < DG_GEMM_B_ITEMS; i++) {
         uint k = k0 + dg_gemm_b_k(i), c = n0 + 4u * dg_gemm_b_col4(i);
         uvec2 at = vmel_address_add(b_base, k * b_r.strides[1] + c * b_r.strides[2]);
         sh4_t v;
         uint size = DG_DTYPE_SIZE(DG_IN_DTYPE);
         if (c + 3u < cols && k < depth && dg_gemm_load4_ok(at, b_r.strides[2], size)) {
            uvec4 bits = dg_gemm_load4_bits(at, size);
            [[unroll]] for (uint r = 0u; r < 4u; r++)
               v[r] = stage_bits(bits[r], b_zp);
         } else {
            [[unroll]] for (uint r = 0u; r < 4u; r++)
               v[r] = stage_value(c + r < cols && k < depth,
                                  vmel_address_add(at, r * b_r.strides[2]), b_zp);
         }
         dg_gemm_b[dg_gemm_b_k(i)][dg_gemm_b_col4(i)] = v;
      }
      barrier();
      DG_GEMM_MAC(acc)
      barrier();
   }

   [[unroll]] for (uint g = 0u; g < DG_GEMM_TM4; g++) {
      [[unroll]] for (uint r = 0u; r < 4u; r++) {
         uint m = m0 + dg_gemm_row(g, r);
         [[unroll]] for (uint h = 0u; h < DG_GEMM_TN4; h++) {
            [[unroll]] for (uint c = 0u; c < 4u; c++) {
               uint col = n0 + dg_gemm_col(h, c);
               if (m >= rows || col >= cols)
                  continue;
#if defined(DG_GEMM_SPLIT_K)
               dg_store(DG_GEMM_PART_DTYPE,
                        dg_address(out_r, part_offset + n * out_r.strides[1] +
                                             m * out_r.strides[2] + col * out_r.strides[3]),
                        dg_atype(DG_GEMM_PART_DTYPE)(acc[g * 4u + r][h][c]));
#elif defined(DG_GEMM_EPILOGUE)
               dg_gemm_epilogue(dg_atype(DG_OUT_DTYPE)(acc[g * 4u + r][h][c]),
                                uvec4(n, m, col, 0u), 3u,
                                dg_address(out_r, dg_offset3(out_r, n, m, col)));
#else
               dg_store(DG_OUT_DTYPE, dg_address(out_r, dg_offset3(out_r, n, m, col)),
                        dg_atype(DG_OUT_DTYPE)(acc[g * 4u + r][h][c]));
#endif
            }
         }
      }
   }
}
