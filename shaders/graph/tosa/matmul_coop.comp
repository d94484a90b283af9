/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 MATMUL (§2.3 "Tensor Operators"), the cooperative-matrix variants
 * (D51): output[n,h,w] = sum over c of A[n,h,c] * B[n,c,w], as matmul.comp,
 * a tile per workgroup through dg_gemm_coop.glsl (kernel_abi/gemm_args.h).
 *
 * Tensors (binding order): 0 A [N,H,C], 1 B [N,C,W], 2 output [N,H,W].
 * Grid: one workgroup of DG_GEMM_LOCAL invocations per DG_COOP_BM x DG_COOP_BN output
 * tile, tiles row-major over (n, tile row, tile column).
 * Attributes (struct dg_attrs_matmul): a_zp, b_zp, which the build requires to be 0 for the
 * i8 rows (the staged elements are the i8 values themselves).
 * Variant defines: DG_IN_DTYPE (A and B: fp16, bf16, fp8 or i8), DG_OUT_DTYPE, DG_COOP_M/N/K;
 * DG_GEMM_EPILOGUE (the _EPI variants, D58): each output element goes through the gemm
 * epilogue (dg_gemm_epilogue.glsl, D52), tensors 3 .. 6 its extra tensors, tensor 2 the
 * chain's last.
 * Float rows stage their elements as fp16 (exact for fp16 and fp8) or bf16 and sum in fp32;
 * i8 -> i32 sums in int32 with wrap-around (bit-exact). fp16 and i8 rows whose K (A) and
 * columns (B) are contiguous, in whole 16-byte vectors and at 16-byte aligned addresses
 * stage with 16-byte loads (decided once per dispatch, both operands or neither); others element
 * by element.
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP16
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif
#if !DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
#define DG_COOP_INT
#elif DG_IN_DTYPE == DG_DTYPE_BF16
#define DG_COOP_BF16
#endif

DG_DECLARE_ATTRS_MATMUL

#include "dg_gemm_coop.glsl"

DG_TENSOR(DG_MATMUL_A, a);
DG_TENSOR(DG_MATMUL_B, b);
DG_TENSOR(DG_MATMUL_OUTPUT, output);

#ifdef DG_GEMM_EPILOGUE
#define DG_GEMM_EPI_FIRST (DG_MATMUL_OUTPUT + 1)
#define DG_EPI_IN_DTYPE DG_OUT_DTYPE
#include "dg_gemm_epilogue.glsl"
#endif

vmel_tensor_record a_r, b_r, out_r;
uvec2 a_base, b_base; /* the batch's matrices */
uint batch, rows, cols, depth;
bool a_vectors, b_vectors; /* whether A's rows and B's rows load as 16-byte vectors */

#if DG_IN_DTYPE == DG_DTYPE_FP16 || DG_IN_DTYPE == DG_DTYPE_BF16 || DG_IN_DTYPE == DG_DTYPE_I8
#define DG_COOP_STORED_AS_STAGED /* memory holds the staged elements themselves */
#endif

dg_coop_el_t
dg_coop_load_a(uint m, uint k)
{
   if (m >= rows || k >= depth)
      return dg_coop_el_t(0);
   return dg_coop_load_el(DG_IN_DTYPE, vmel_address_add(a_base, m * a_r.strides[1] +
                                                                   k * a_r.strides[2]));
}

dg_coop_el_t
dg_coop_load_b(uint k, uint n)
{
   if (k >= depth || n >= cols)
      return dg_coop_el_t(0);
   return dg_coop_load_el(DG_IN_DTYPE, vmel_address_add(b_base, k * b_r.strides[1] +
                                                                   n * b_r.strides[2]));
}

uvec4
dg_coop_load_a16(uint m, uint k)
{
   if (m >= rows || k >= depth)
      return uvec4(0u);
   return dg_coop_load16(vmel_address_add(a_base, m * a_r.strides[1] + k * DG_COOP_ES));
}

uvec4
dg_coop_load_b16(uint k, uint n)
{
   if (k >= depth || n >= cols)
      return uvec4(0u);
   return dg_coop_load16(vmel_address_add(b_base, k * b_r.strides[1] + n * DG_COOP_ES));
}

/* Whether a [N, rows, X] operand's rows load as 16-byte vectors: contiguous elements, X a
 * whole number of vectors, every row and batch starting 16-byte aligned. */
bool
dg_coop_rows_vectors(vmel_tensor_record r)
{
#ifdef DG_COOP_STORED_AS_STAGED
   return r.strides[2] == DG_COOP_ES && r.dims[2] % DG_COOP_VEC == 0u &&
          (r.strides[1] | r.strides[0] | r.address.x) % 16u == 0u;
#else
   return false;
#endif
}

void
dg_coop_store(uint m, uint n, dg_coop_acc_el_t value)
{
   if (m >= rows || n >= cols)
      return;
#ifdef DG_GEMM_EPILOGUE
   dg_gemm_epilogue(dg_atype(DG_OUT_DTYPE)(value), uvec4(batch, m, n, 0u), 3u,
                    dg_address(out_r, dg_offset3(out_r, batch, m, n)));
#else
   dg_store(DG_OUT_DTYPE, dg_address(out_r, dg_offset3(out_r, batch, m, n)),
            dg_atype(DG_OUT_DTYPE)(value));
#endif
}

void
main()
{
   a_r = DG_RECORD(a);
   b_r = DG_RECORD(b);
   out_r = DG_RECORD(output);
   rows = out_r.dims[1];
   cols = out_r.dims[2];
   depth = a_r.dims[2];
   uint tiles_m = (rows + DG_COOP_BM - 1u) / DG_COOP_BM;
   uint tiles_n = (cols + DG_COOP_BN - 1u) / DG_COOP_BN;
   uint tile = dg_coop_tile();
   if (tile >= out_r.dims[0] * tiles_m * tiles_n)
      return; /* the whole workgroup: no barrier is left waiting */
   batch = tile / (tiles_m * tiles_n);
   a_base = dg_address(a_r, batch * a_r.strides[0]);
   b_base = dg_address(b_r, batch * b_r.strides[0]);
   a_vectors = dg_coop_rows_vectors(a_r);
   b_vectors = dg_coop_rows_vectors(b_r);
   dg_coop_gemm((tile / tiles_n) % tiles_m * DG_COOP_BM, tile % tiles_n * DG_COOP_BN, depth,
                a_vectors && b_vectors);
}
