/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CONV2D (§2.3 "Tensor Operators"), the cooperative-matrix variants
 * (D51): conv2d_tiled.comp's implicit GEMM (M = N*OH*OW rows, N = OC columns,
 * K = KH*KW*IC in the reference's tap order) through dg_gemm_coop.glsl.
 *
 * Tensors (binding order): 0 input [N,IH,IW,IC], 1 weight arranged [KH,KW,IC,OC] (the
 * build's constant, as the tiled kernel's), 2 bias [OC] or [1], 3 output [N,OH,OW,OC].
 * Grid: one workgroup of DG_GEMM_LOCAL invocations per DG_COOP_BM x DG_COOP_BN tile of the
 * [N*OH*OW, OC] matrix, tiles row-major.
 * Attributes: CONV2D's (struct dg_attrs_conv2d); the build requires zero points of 0 for the
 * i8 rows. Variant defines: as conv2d.comp (dg_conv.glsl): DG_IN_DTYPE, DG_W_DTYPE,
 * DG_OUT_DTYPE, DG_ACC_DTYPE; DG_COOP_M/N/K. The epilogue is dg_conv_store() (bias, out_t
 * rounding), as the reference and tiled kernels', or with DG_GEMM_EPILOGUE (the _EPI variants,
 * D58) the fused chain's (dg_gemm_epilogue.glsl, D52) on dg_conv_value(). fp16, bf16 (D60) and
 * i8 rows stage with 16-byte loads where the layout allows (input channels a whole number of vectors, contiguous and 16-byte
 * aligned: a vector is then 8 or 16 channels of one tap; weight rows likewise), decided once
 * per dispatch; others element by element.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_CONV2D

#include "dg_conv.glsl"

#if !DG_DTYPE_IS_FLOAT(DG_ACC_DTYPE)
#define DG_COOP_INT
#elif DG_IN_DTYPE == DG_DTYPE_BF16
#define DG_COOP_BF16
#endif

#include "dg_gemm_coop.glsl"

DG_TENSOR(DG_CONV2D_INPUT, input);
DG_TENSOR(DG_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_CONV2D_BIAS, bias);
DG_TENSOR(DG_CONV2D_OUTPUT, output);

#ifdef DG_GEMM_EPILOGUE
#define DG_GEMM_EPI_FIRST (DG_CONV2D_OUTPUT + 1)
#define DG_EPI_IN_DTYPE DG_OUT_DTYPE
#include "dg_gemm_epilogue.glsl"
#endif

vmel_tensor_record in_r, w_r, b_r, out_r;
uint oh, ow, oc_count, rows, kw, ic_count, depth;
bool a_vectors, b_vectors; /* whether input taps and weight rows load as 16-byte vectors */

#if DG_IN_DTYPE == DG_W_DTYPE && (DG_IN_DTYPE == DG_DTYPE_FP16 || DG_IN_DTYPE == DG_DTYPE_BF16 || \
                                  DG_IN_DTYPE == DG_DTYPE_I8)
#define DG_COOP_STORED_AS_STAGED /* memory holds the staged elements themselves */
#endif

dg_coop_el_t
dg_coop_load_a(uint m, uint k)
{
   if (m >= rows || k >= depth)
      return dg_coop_el_t(0);
   uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
   uint ic = k % ic_count, kx = (k / ic_count) % kw, ky = k / (ic_count * kw);
   int y = int(oy) * stride_y - pad_top + int(ky) * dilation_y;
   int x = int(ox) * stride_x - pad_left + int(kx) * dilation_x;
   if (y < 0 || y >= int(in_r.dims[1]) || x < 0 || x >= int(in_r.dims[2]))
      return dg_coop_el_t(0);
   return dg_coop_load_el(DG_IN_DTYPE,
                          dg_address(in_r, dg_offset4(in_r, n, uint(y), uint(x), ic)));
}

dg_coop_el_t
dg_coop_load_b(uint k, uint n)
{
   if (k >= depth || n >= oc_count)
      return dg_coop_el_t(0);
   return dg_coop_load_el(DG_W_DTYPE, dg_address(w_r, k * w_r.strides[2] + n * w_r.strides[3]));
}

uvec4
dg_coop_load_a16(uint m, uint k)
{
   if (m >= rows || k >= depth)
      return uvec4(0u);
   uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
   uint ic = k % ic_count, kx = (k / ic_count) % kw, ky = k / (ic_count * kw);
   int y = int(oy) * stride_y - pad_top + int(ky) * dilation_y;
   int x = int(ox) * stride_x - pad_left + int(kx) * dilation_x;
   if (y < 0 || y >= int(in_r.dims[1]) || x < 0 || x >= int(in_r.dims[2]))
      return uvec4(0u);
   return dg_coop_load16(dg_address(in_r, dg_offset4(in_r, n, uint(y), uint(x), ic)));
}

uvec4
dg_coop_load_b16(uint k, uint n)
{
   if (k >= depth || n >= oc_count)
      return uvec4(0u);
   return dg_coop_load16(dg_address(w_r, k * w_r.strides[2] + n * DG_COOP_ES));
}

void
dg_coop_store(uint m, uint n, dg_coop_acc_el_t value)
{
   if (m >= rows || n >= oc_count)
      return;
   uint ox = m % ow, oy = (m / ow) % oh, b = m / (ow * oh);
#ifdef DG_GEMM_EPILOGUE
   dg_gemm_epilogue(dg_conv_value(acc_t(value), b_r, b_r.dims[0] == 1u ? 0u : n),
                    uvec4(b, oy, ox, n), 4u, dg_address(out_r, dg_offset4(out_r, b, oy, ox, n)));
#else
   dg_conv_store(acc_t(value), b_r, b_r.dims[0] == 1u ? 0u : n,
                 dg_address(out_r, dg_offset4(out_r, b, oy, ox, n)));
#endif
}

void
main()
{
   in_r = DG_RECORD(input);
   w_r = DG_RECORD(weight);
   b_r = DG_RECORD(bias);
   out_r = DG_RECORD(output);
   oh = out_r.dims[1];
   ow = out_r.dims[2];
   oc_count = out_r.dims[3];
   rows = out_r.dims[0] * oh * ow;
   kw = w_r.dims[1];
   ic_count = w_r.dims[2];
   depth = w_r.dims[0] * kw * ic_count;
#ifdef DG_COOP_STORED_AS_STAGED
   a_vectors = in_r.strides[3] == DG_COOP_ES && ic_count % DG_COOP_VEC == 0u &&
               (in_r.strides[2] | in_r.strides[1] | in_r.strides[0] | in_r.address.x) % 16u == 0u;
   b_vectors = w_r.strides[3] == DG_COOP_ES && oc_count % DG_COOP_VEC == 0u &&
               (w_r.strides[2] | w_r.address.x) % 16u == 0u;
#else
   a_vectors = false;
   b_vectors = false;
#endif
   uint tiles_n = (oc_count + DG_COOP_BN - 1u) / DG_COOP_BN;
   uint tiles_m = (rows + DG_COOP_BM - 1u) / DG_COOP_BM;
   uint tile = dg_coop_tile();
   if (tile >= tiles_m * tiles_n)
      return; /* the whole workgroup: no barrier is left waiting */
   dg_coop_gemm(tile / tiles_n * DG_COOP_BM, tile % tiles_n * DG_COOP_BN, depth,
                a_vectors && b_vectors);
}
