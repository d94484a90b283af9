/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CONV2D (§2.3 "Tensor Operators"), the SUBGROUP variant (D55): the implicit GEMM
 * of conv2d_tiled.comp (output[m, oc] = sum over k of patch[m, k] * weight[k, oc], m = (n,
 * oy, ox), k = (ky, kx, ic) in the reference kernel's order, the weight arranged at pipeline
 * creation as [KH,KW,IC,OC]) for devices whose subgroups are DG_SG_LANES invocations, written
 * for CPU devices (lavapipe: a subgroup is one 8-lane SIMD vector, and every load from memory
 * whose address differs per lane, or is not known to be the same, is a loop over the lanes).
 * No shared memory and no barriers: each lane holds its own DG_SG_TM output rows (its patch
 * values, gathered from the input itself) and the subgroup's DG_SG_TN columns; for each k the
 * lanes load the TN weights of the row between them (DG_SG_TN / 32 vectors of 4 each) and
 * subgroupBroadcast() hands each weight to every lane (on lavapipe a register shuffle). Per k a
 * lane loads TM patch values and TN / 8 weights for TM * TN multiply-adds (8 x 64: 16 per 512;
 * the tiled kernel's 128 x 64 tile: 13.5 per 32). Where the input channels are a multiple of 4
 * the k loop walks the taps, with the bounds checks and the row address per tap, and reads 4
 * channels at once where packed and aligned (one word for i8, two 8-byte words for fp32:
 * lavapipe loops over the lanes once per loaded component, so fewer, wider components pay).
 * A padding tap, a row past the output and a k past K stage 0 (finite weights only, as the
 * tiled kernel: 0 * w adds an exact 0, and an accumulator that starts at +0 never becomes
 * -0); every output accumulates its products in increasing k, the reference kernel's order.
 * Epilogue: dg_conv_store(), out = static_cast<out_t>(acc) + bias[BC == 1 ? 0 : oc].
 *
 * Tensors (binding order): 0 input [N,IH,IW,IC], 1 weight arranged as [KH,KW,IC,OC]
 * (graph/build/gemm_build.c), 2 bias [BC], 3 output [N,OH,OW,OC].
 * Grid: one workgroup of DG_SG_LOCAL invocations per DG_SG_BM x DG_SG_TN output tile of the
 * [N*OH*OW, OC] matrix (kernel_abi/gemm_args.h), tiles row-major; the build takes this kernel
 * only where the device's subgroup size is DG_SG_LANES with ballot operations in compute.
 * Attributes: CONV2D's (struct dg_attrs_conv2d). Variant defines: as conv2d_tiled.comp
 * (DG_IN_DTYPE, DG_W_DTYPE, DG_OUT_DTYPE, DG_ACC_DTYPE); no fp16 arithmetic, no epilogue.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_CONV2D

#include "dg_conv.glsl"

#define DG_SG_ACC_DTYPE DG_ACC_DTYPE
#define DG_SG_B_DTYPE DG_W_DTYPE
#define DG_SG_B_ZP weight_zp
#define DG_SG_B_AT(k, c) dg_address(w_r, (k) * w_r.strides[2] + (c) * w_r.strides[3])
#define DG_SG_B_SAFE w_r.address
#define DG_SG_B_STEP w_r.strides[3]
#define DG_SG_COLS oc_count
#include "dg_sg_gemm.glsl"

DG_TENSOR(DG_CONV2D_INPUT, input);
DG_TENSOR(DG_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_CONV2D_BIAS, bias);
DG_TENSOR(DG_CONV2D_OUTPUT, output);

void
main()
{
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record w_r = DG_RECORD(weight);
   vmel_tensor_record b_r = DG_RECORD(bias);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint oh = out_r.dims[1], ow = out_r.dims[2], oc_count = out_r.dims[3];
   uint rows = out_r.dims[0] * oh * ow;
   int ih = int(in_r.dims[1]), iw = int(in_r.dims[2]);
   uint kh = w_r.dims[0], kw = w_r.dims[1], ic_count = w_r.dims[2];
   uint depth = kh * kw * ic_count;
   uint tiles_n = (oc_count + DG_SG_TN - 1u) / DG_SG_TN;
   uint tiles_m = (rows + DG_SG_BM - 1u) / DG_SG_BM;
   uint tile = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
   if (tile >= tiles_m * tiles_n)
      return; /* the whole workgroup */
   uint lane = gl_SubgroupInvocationID;
   uint m0 = tile / tiles_n * DG_SG_BM + gl_SubgroupID * (DG_SG_LANES * DG_SG_TM);
   uint n0 = tile % tiles_n * DG_SG_TN;

   /* Whether 4 consecutive input channels / weight columns are packed and 4-element aligned
    * (the same for every lane: a vector load each). */
   uint in_size = DG_DTYPE_SIZE(DG_IN_DTYPE), w_size = DG_DTYPE_SIZE(DG_W_DTYPE);
   bool a_vec = ic_count % 4u == 0u && in_r.strides[3] == in_size &&
                ((in_r.strides[0] | in_r.strides[1] | in_r.strides[2] | in_r.address.x) &
                 (4u * in_size - 1u)) == 0u;
   bool b_vec = oc_count % 4u == 0u && w_r.strides[3] == w_size &&
                ((w_r.strides[2] | w_r.address.x) & (4u * w_size - 1u)) == 0u;

   /* The lane's rows: row t is m0 + t * DG_SG_LANES + lane. */
   uint a_image[DG_SG_TM];
   int a_y[DG_SG_TM], a_x[DG_SG_TM];
   bool a_in[DG_SG_TM];
   [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
      uint m = m0 + t * DG_SG_LANES + lane;
      a_in[t] = m < rows;
      uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
      a_image[t] = n * in_r.strides[0];
      a_y[t] = int(oy) * stride_y - pad_top;
      a_x[t] = int(ox) * stride_x - pad_left;
   }

   sh4_t acc[DG_SG_TM][DG_SG_TN4];
   [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++)
      [[unroll]] for (uint h = 0u; h < DG_SG_TN4; h++)
         acc[t][h] = sh4_t(0);

   if (ic_count % 4u == 0u) {
      /* Taps outside, 4 channels at a time inside: a tap's bounds and row address once. */
      for (uint ky = 0u; ky < kh; ky++) {
         for (uint kx = 0u; kx < kw; kx++) {
            uvec2 a_at[DG_SG_TM];
            bool a_ok[DG_SG_TM];
            [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
               int y = a_y[t] + int(ky) * dilation_y, x = a_x[t] + int(kx) * dilation_x;
               a_ok[t] = a_in[t] && y >= 0 && y < ih && x >= 0 && x < iw;
               a_at[t] = a_ok[t] ? dg_address(in_r, a_image[t] + uint(y) * in_r.strides[1] +
                                                       uint(x) * in_r.strides[2])
                                 : in_r.address;
            }
            uint k_tap = (ky * kw + kx) * ic_count;
            [[dont_unroll]] for (uint ic = 0u; ic < ic_count; ic += 4u) {
               sh4_t a4[DG_SG_TM];
               [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
                  sh4_t v;
                  uvec2 at = vmel_address_add(a_at[t], ic * in_r.strides[3]);
                  DG_SG_LOAD4(DG_IN_DTYPE, v, at, in_r.strides[3], a_vec, input_zp)
                  a4[t] = a_ok[t] ? v : sh4_t(0);
               }
               DG_SG_MAC4(acc, a4, k_tap + ic)
            }
         }
      }
   } else {
      /* Any channel count: each k's tap decoded on its own. */
      [[dont_unroll]] for (uint k0 = 0u; k0 < depth; k0 += 4u) {
         sh4_t a4[DG_SG_TM];
         [[unroll]] for (uint kk = 0u; kk < 4u; kk++) {
            uint k = min(k0 + kk, depth - 1u);
            uint ic = k % ic_count, kx = (k / ic_count) % kw, ky = k / (ic_count * kw);
            [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
               int y = a_y[t] + int(ky) * dilation_y, x = a_x[t] + int(kx) * dilation_x;
               bool ok = a_in[t] && k0 + kk < depth && y >= 0 && y < ih && x >= 0 && x < iw;
               uvec2 at = ok ? dg_address(in_r, a_image[t] + uint(y) * in_r.strides[1] +
                                                   uint(x) * in_r.strides[2] +
                                                   ic * in_r.strides[3])
                             : in_r.address;
               sh_t e = DG_SG_ELEMENT(DG_IN_DTYPE, at, input_zp);
               a4[t][kk] = ok ? e : sh_t(0);
            }
         }
         DG_SG_MAC4(acc, a4, k0)
      }
   }

   [[unroll]] for (uint t = 0u; t < DG_SG_TM; t++) {
      uint m = m0 + t * DG_SG_LANES + lane;
      if (m >= rows)
         continue;
      uint ox = m % ow, oy = (m / ow) % oh, n = m / (ow * oh);
      uvec2 at = dg_address(out_r, dg_offset4(out_r, n, oy, ox, 0u));
      [[unroll]] for (uint c = 0u; c < DG_SG_TN; c++) {
         uint oc = n0 + c;
         if (oc >= oc_count)
            continue;
         dg_conv_store(acc[t][c / 4u][c % 4u], b_r, b_r.dims[0] == 1u ? 0u : oc,
                       vmel_address_add(at, oc * out_r.strides[3]));
      }
   }
}
