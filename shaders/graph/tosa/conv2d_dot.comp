/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CONV2D (§2.3 "Tensor Operators") i8 x i8 -> i32, the INT_DOT
 * variant (D51): conv2d_tiled.comp's implicit GEMM (M = N*OH*OW, N = OC,
 * K = KH*KW*IC) through dg_gemm_dot.glsl's packed 4 x 8-bit dot products. A
 * padding tap stages input_zp, whose terms cancel in the zero-point algebra,
 * so it adds 0 as the reference's skipped tap does.
 *
 * Tensors (binding order): 0 input [N,IH,IW,IC], 1 weight arranged [KH,KW,IC,OC] (the
 * build's constant, as the tiled kernel's), 2 bias [OC] or [1], 3 output [N,OH,OW,OC].
 * Grid: one workgroup of DG_GEMM_LOCAL invocations per DG_DOT_BM x DG_DOT_BN tile of the
 * [N*OH*OW, OC] matrix, tiles row-major. Attributes: CONV2D's (struct dg_attrs_conv2d).
 * Epilogue: dg_conv_store() (bias), as the reference and tiled kernels'; DG_GEMM_EPILOGUE (the
 * _EPI variant, D52/D57): the output element goes through the gemm epilogue
 * (dg_gemm_epilogue.glsl), tensors 4 .. 7 its extra tensors, tensor 3 the fused chain's last.
 * DG_GEMM_SPLIT_K (the INT_DOT_SPLITK variant, D65): tensor 3 is a scratch [S, N, OH, OW, OC]
 * of i32 partial sums without the bias, one per part of K (dg_gemm_dot.glsl), S * tiles
 * workgroups; gemm_reduce.comp adds them and the bias.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_CONV2D

#include "dg_conv.glsl"
#include "dg_gemm_dot.glsl"

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
uint oh, ow, oc_count, rows, kw, ic_count, depth, part_offset;

int
dg_dot_load_a(uint m, uint k)
{
   if (m >= rows || k >= depth)
      return 0;
   uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
   uint ic = k % ic_count, kx = (k / ic_count) % kw, ky = k / (ic_count * kw);
   int y = int(oy) * stride_y - pad_top + int(ky) * dilation_y;
   int x = int(ox) * stride_x - pad_left + int(kx) * dilation_x;
   if (y < 0 || y >= int(in_r.dims[1]) || x < 0 || x >= int(in_r.dims[2]))
      return input_zp; /* a padding tap: (input_zp - input_zp) * w = 0 */
   return dg_load(DG_DTYPE_I8, dg_address(in_r, dg_offset4(in_r, n, uint(y), uint(x), ic)));
}

int
dg_dot_load_b(uint k, uint n)
{
   if (k >= depth || n >= oc_count)
      return 0;
   return dg_load(DG_DTYPE_I8, dg_address(w_r, k * w_r.strides[2] + n * w_r.strides[3]));
}

void
dg_dot_store(uint m, uint n, int value)
{
   if (m >= rows || n >= oc_count)
      return;
   uint ox = m % ow, oy = (m / ow) % oh, b = m / (ow * oh);
#ifdef DG_GEMM_SPLIT_K
   dg_store(DG_DTYPE_I32, dg_address(out_r, part_offset + b * out_r.strides[1] +
                                               oy * out_r.strides[2] + ox * out_r.strides[3] +
                                               n * out_r.strides[4]),
            value);
   return;
#endif
   uvec2 at = dg_address(out_r, dg_offset4(out_r, b, oy, ox, n));
#ifdef DG_GEMM_EPILOGUE
   dg_gemm_epilogue(dg_conv_value(value, b_r, b_r.dims[0] == 1u ? 0u : n), uvec4(b, oy, ox, n),
                    4u, at);
#else
   dg_conv_store(value, b_r, b_r.dims[0] == 1u ? 0u : n, at);
#endif
}

void
main()
{
   in_r = DG_RECORD(input);
   w_r = DG_RECORD(weight);
   b_r = DG_RECORD(bias);
   out_r = DG_RECORD(output);
   oh = out_r.dims[DG_DOT_OUT_D + 1u];
   ow = out_r.dims[DG_DOT_OUT_D + 2u];
   oc_count = out_r.dims[DG_DOT_OUT_D + 3u];
   rows = out_r.dims[DG_DOT_OUT_D] * oh * ow;
   kw = w_r.dims[1];
   ic_count = w_r.dims[2];
   depth = w_r.dims[0] * kw * ic_count;
   uint tiles_n = (oc_count + DG_DOT_BN - 1u) / DG_DOT_BN;
   uint tiles_m = (rows + DG_DOT_BM - 1u) / DG_DOT_BM;
   uint tile = dg_dot_tile(), k_first, k_end;
   if (!dg_dot_work(out_r, tiles_m * tiles_n, depth, tile, k_first, k_end, part_offset))
      return; /* the whole workgroup: no barrier is left waiting */
   dg_dot_gemm(tile / tiles_n * DG_DOT_BM, tile % tiles_n * DG_DOT_BN, k_first, k_end, input_zp,
               weight_zp);
}
