/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 MATMUL (§2.3 "Tensor Operators") i8 x i8 -> i32, the INT_DOT
 * variant (D51): output[n,h,w] = sum over c of (A[n,h,c] - A_zp) * (B[n,c,w] -
 * B_zp), wrapping in int32 (bit-exact, as matmul.comp), through
 * dg_gemm_dot.glsl's packed 4 x 8-bit dot products.
 *
 * Tensors (binding order): 0 A [N,H,C], 1 B [N,C,W], 2 output [N,H,W].
 * Grid: one workgroup of DG_GEMM_LOCAL invocations per DG_DOT_BM x DG_DOT_BN output tile,
 * tiles row-major over (n, tile row, tile column).
 * Attributes (struct dg_attrs_matmul): a_zp, b_zp. Variant define DG_GEMM_EPILOGUE (the _EPI
 * variant, D52/D57): each output element goes through the gemm epilogue
 * (dg_gemm_epilogue.glsl), tensors 3 .. 6 its extra tensors, tensor 2 the chain's last.
 * DG_GEMM_SPLIT_K (the INT_DOT_SPLITK variant, D65): tensor 2 is a scratch [S, N, H, W] of
 * i32 partial sums, one per part of K (dg_gemm_dot.glsl), S * tiles workgroups, the tiles of
 * part 0 first; gemm_reduce.comp adds them.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_MATMUL

#include "dg_gemm_dot.glsl"

DG_TENSOR(DG_MATMUL_A, a);
DG_TENSOR(DG_MATMUL_B, b);
DG_TENSOR(DG_MATMUL_OUTPUT, output);

#ifdef DG_GEMM_EPILOGUE
#define DG_GEMM_EPI_FIRST (DG_MATMUL_OUTPUT + 1)
#define DG_EPI_IN_DTYPE DG_DTYPE_I32
#include "dg_gemm_epilogue.glsl"
#endif

vmel_tensor_record a_r, b_r, out_r;
uvec2 a_base, b_base; /* the batch's matrices */
uint batch, rows, cols, depth, part_offset;

int
dg_dot_load_a(uint m, uint k)
{
   if (m >= rows || k >= depth)
      return 0;
   return dg_load(DG_DTYPE_I8, vmel_address_add(a_base, m * a_r.strides[1] + k * a_r.strides[2]));
}

int
dg_dot_load_b(uint k, uint n)
{
   if (k >= depth || n >= cols)
      return 0;
   return dg_load(DG_DTYPE_I8, vmel_address_add(b_base, k * b_r.strides[1] + n * b_r.strides[2]));
}

void
dg_dot_store(uint m, uint n, int value)
{
   if (m >= rows || n >= cols)
      return;
#ifdef DG_GEMM_SPLIT_K
   dg_store(DG_DTYPE_I32, dg_address(out_r, part_offset + batch * out_r.strides[1] +
                                               m * out_r.strides[2] + n * out_r.strides[3]),
            value);
   return;
#endif
   uvec2 at = dg_address(out_r, dg_offset3(out_r, batch, m, n));
#ifdef DG_GEMM_EPILOGUE
   dg_gemm_epilogue(value, uvec4(batch, m, n, 0u), 3u, at);
#else
   dg_store(DG_DTYPE_I32, at, value);
#endif
}

void
main()
{
   a_r = DG_RECORD(a);
   b_r = DG_RECORD(b);
   out_r = DG_RECORD(output);
   rows = out_r.dims[DG_DOT_OUT_D + 1u];
   cols = out_r.dims[DG_DOT_OUT_D + 2u];
   depth = a_r.dims[2];
   uint tiles_m = (rows + DG_DOT_BM - 1u) / DG_DOT_BM;
   uint tiles_n = (cols + DG_DOT_BN - 1u) / DG_DOT_BN;
   uint tiles = out_r.dims[DG_DOT_OUT_D] * tiles_m * tiles_n;
   uint tile = dg_dot_tile(), k_first, k_end;
   if (!dg_dot_work(out_r, tiles, depth, tile, k_first, k_end, part_offset))
      return; /* the whole workgroup: no barrier is left waiting */
   batch = tile / (tiles_m * tiles_n);
   a_base = dg_address(a_r, batch * a_r.strides[0]);
   b_base = dg_address(b_r, batch * b_r.strides[0]);
   dg_dot_gemm((tile / tiles_n) % tiles_m * DG_DOT_BM, tile % tiles_n * DG_DOT_BN, k_first,
               k_end, a_zp, b_zp);
}
