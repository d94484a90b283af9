/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CONV2D (§2.3 "Tensor Operators"), the TILED variant (D44): the
 * convolution as an implicit GEMM, output[m, oc] = sum over k of
 * patch[m, k] * weight[k, oc] with m = (n, oy, ox), k = (ky, kx, ic) in the
 * reference kernel's order, computed a tile per workgroup through shared
 * memory (dg_gemm.glsl, kernel_abi/gemm_args.h). patch[m, k] is
 * input[n, iy, ix, ic] - input_zp at iy = oy * stride_y - pad_top +
 * ky * dilation_y (ix alike), and 0 at a padding tap (which adds 0 * w = 0:
 * the build takes this kernel for finite weights only, so the sum is the
 * reference's, which skips the tap). Epilogue: dg_conv_store(), out =
 * static_cast<out_t>(acc) + bias[BC == 1 ? 0 : oc].
 *
 * Tensors (binding order): 0 input [N,IH,IW,IC], 1 weight arranged at
 * pipeline creation as [KH,KW,IC,OC] (graph/build/gemm_build.c), 2 bias [BC],
 * 3 output [N,OH,OW,OC].
 * Grid: one workgroup of DG_GEMM_LOCAL invocations per output tile of the
 * [N*OH*OW, OC] matrix, tiles row-major.
 * Attributes: CONV2D's (struct dg_attrs_conv2d). Variant defines: as
 * conv2d.comp (dg_conv.glsl): DG_IN_DTYPE, DG_W_DTYPE, DG_OUT_DTYPE,
 * DG_ACC_DTYPE, DG_NATIVE_FP16; DG_GEMM_EPILOGUE (the _EPI variants, D52): the output
 * element goes through the gemm epilogue (dg_gemm_epilogue.glsl), tensors 4 .. 7 its extra
 * tensors, tensor 3 the fused chain's last tensor. DG_GEMM_SPLIT_K (the SPLITK variants, D56;
 * with DG_GEMM_SMALL): tensor 3 is a scratch [S, N, OH, OW, OC] of partial sums without the
 * bias, one per part of K (dg_gemm.glsl), S * tiles workgroups; gemm_reduce.comp adds them
 * and the bias.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_CONV2D

#include "dg_conv.glsl"

#if DG_ACC_DTYPE == DG_DTYPE_FP16 && defined(DG_NATIVE_FP16)
#define sh_t float16_t
#elif DG_DTYPE_IS_FLOAT(DG_ACC_DTYPE)
#define sh_t float
#else
#define sh_t int
#define DG_GEMM_INT
#endif

#include "dg_gemm.glsl"

DG_TENSOR(DG_CONV2D_INPUT, input);
DG_TENSOR(DG_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_CONV2D_BIAS, bias);
DG_TENSOR(DG_CONV2D_OUTPUT, output);

#ifdef DG_GEMM_EPILOGUE
#define DG_GEMM_EPI_FIRST (DG_CONV2D_OUTPUT + 1)
#define DG_EPI_IN_DTYPE DG_OUT_DTYPE
#include "dg_gemm_epilogue.glsl"
#endif

void
main()
{
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record w_r = DG_RECORD(weight);
   vmel_tensor_record b_r = DG_RECORD(bias);
   vmel_tensor_record out_r = DG_RECORD(output);
   const uint d = DG_GEMM_OUT_D;
   uint oh = out_r.dims[d + 1u], ow = out_r.dims[d + 2u], oc_count = out_r.dims[d + 3u];
   uint rows = out_r.dims[d] * oh * ow;
   int ih = int(in_r.dims[1]), iw = int(in_r.dims[2]);
   uint kw = w_r.dims[1], ic_count = w_r.dims[2];
   uint k_first = 0u, depth = w_r.dims[0] * kw * ic_count;
   uint tiles_n = (oc_count + DG_GEMM_BN - 1u) / DG_GEMM_BN;
   uint tiles_m = (rows + DG_GEMM_BM - 1u) / DG_GEMM_BM;
   uint tile = dg_gemm_tile();
#ifdef DG_GEMM_SPLIT_K
   uint parts = out_r.dims[0], part = tile / (tiles_m * tiles_n);
   if (part >= parts)
      return; /* the whole workgroup: no barrier is left waiting */
   tile %= tiles_m * tiles_n;
   uint per = dg_gemm_part_steps(depth, parts) * DG_GEMM_BK;
   k_first = part * per;
   depth = min(depth, k_first + per);
   uint part_offset = part * out_r.strides[0];
#else
   if (tile >= tiles_m * tiles_n)
      return; /* the whole workgroup: no barrier is left waiting */
   uint part_offset = 0u;
#endif
   uint m0 = tile / tiles_n * DG_GEMM_BM;
   uint n0 = tile % tiles_n * DG_GEMM_BN;

   /* The rows this invocation stages: their image, top-left tap and whether they exist. */
   uvec2 a_image[DG_GEMM_A_ITEMS * 4];
   int a_y[DG_GEMM_A_ITEMS * 4], a_x[DG_GEMM_A_ITEMS * 4];
   bool a_in[DG_GEMM_A_ITEMS * 4];
   [[unroll]] for (uint i = 0u; i < DG_GEMM_A_ITEMS * 4u; i++) {
      uint m = m0 + 4u * dg_gemm_a_row4(i / 4u) + i % 4u;
      a_in[i] = m < rows;
      uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
      a_image[i] = dg_address(in_r, n * in_r.strides[0]);
      a_y[i] = int(oy) * stride_y - pad_top;
      a_x[i] = int(ox) * stride_x - pad_left;
   }

   acc4_t acc[DG_GEMM_TM][DG_GEMM_TN4];
   [[unroll]] for (uint i = 0u; i < DG_GEMM_TM; i++)
      [[unroll]] for (uint h = 0u; h < DG_GEMM_TN4; h++)
         acc[i][h] = acc4_t(0);

   for (uint k0 = k_first; k0 < depth; k0 += DG_GEMM_BK) {
      [[unroll]] for (uint i = 0u; i < DG_GEMM_A_ITEMS; i++) {
         uint k = k0 + dg_gemm_a_k(i);
         uint ic = k % ic_count, kx = (k / ic_count) % kw, ky = k / (ic_count * kw);
         int dy = int(ky) * dilation_y, dx = int(kx) * dilation_x;
         sh4_t v;
         [[unroll]] for (uint r = 0u; r < 4u; r++) {
            uint j = i * 4u + r;
            int y = a_y[j] + dy, x = a_x[j] + dx;
            v[r] = sh_t(0);
            if (a_in[j] && k < depth && y >= 0 && y < ih && x >= 0 && x < iw) {
               dg_atype(DG_IN_DTYPE) e =
                  dg_load(DG_IN_DTYPE, vmel_address_add(a_image[j], uint(y) * in_r.strides[1] +
                                                                      uint(x) * in_r.strides[2] +
                                                                      ic * in_r.strides[3]));
#ifdef DG_GEMM_INT
               v[r] = e - input_zp;
#else
               v[r] = sh_t(e);
#endif
            }
         }
         dg_gemm_a[dg_gemm_a_k(i)][dg_gemm_a_row4(i)] = v;
      }
      [[unroll]] for (uint i = 0u; i < DG_GEMM_B_ITEMS; i++) {
         uint k = k0 + dg_gemm_b_k(i), oc = n0 + 4u * dg_gemm_b_col4(i);
         uvec2 at = dg_address(w_r, k * w_r.strides[2] + oc * w_r.strides[3]);
         sh4_t v;
         uint size = DG_DTYPE_SIZE(DG_W_DTYPE);
         if (oc + 3u < oc_count && k < depth && dg_gemm_load4_ok(at, w_r.strides[3], size)) {
            uvec4 bits = dg_gemm_load4_bits(at, size);
            [[unroll]] for (uint c = 0u; c < 4u; c++) {
#ifdef DG_GEMM_INT
               v[c] = dg_from_bits(DG_W_DTYPE, bits[c]) - weight_zp;
#else
               v[c] = sh_t(dg_from_bits(DG_W_DTYPE, bits[c]));
#endif
            }
         } else {
            [[unroll]] for (uint c = 0u; c < 4u; c++) {
               v[c] = sh_t(0);
               if (oc + c < oc_count && k < depth) {
                  dg_atype(DG_W_DTYPE) e =
                     dg_load(DG_W_DTYPE, vmel_address_add(at, c * w_r.strides[3]));
#ifdef DG_GEMM_INT
                  v[c] = e - weight_zp;
#else
                  v[c] = sh_t(e);
#endif
               }
            }
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
         if (m >= rows)
            continue;
         uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
         uvec2 at = dg_address(out_r, part_offset + n * out_r.strides[d] +
                                         oy * out_r.strides[d + 1u] + ox * out_r.strides[d + 2u]);
         [[unroll]] for (uint h = 0u; h < DG_GEMM_TN4; h++) {
            [[unroll]] for (uint c = 0u; c < 4u; c++) {
               uint oc = n0 + dg_gemm_col(h, c);
               if (oc >= oc_count)
                  continue;
#if defined(DG_GEMM_SPLIT_K)
               dg_store(DG_GEMM_PART_DTYPE, vmel_address_add(at, oc * out_r.strides[d + 3u]),
                        dg_atype(DG_GEMM_PART_DTYPE)(acc[g * 4u + r][h][c]));
#elif defined(DG_GEMM_EPILOGUE)
               dg_gemm_epilogue(dg_conv_value(acc[g * 4u + r][h][c], b_r,
                                              b_r.dims[0] == 1u ? 0u : oc),
                                uvec4(n, oy, ox, oc), 4u,
                                vmel_address_add(at, oc * out_r.strides[3]));
#else
               dg_conv_store(acc[g * 4u + r][h][c], b_r, b_r.dims[0] == 1u ? 0u : oc,
                             vmel_address_add(at, oc * out_r.strides[3]));
#endif
            }
         }
      }
   }
}
