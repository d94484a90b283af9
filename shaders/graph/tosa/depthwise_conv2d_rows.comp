/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 DEPTHWISE_CONV2D (§2.3 "Tensor Operators"), the ROW_BLOCK variant (D64): the
 * arithmetic of depthwise_conv2d.comp (acc = sum over in-bounds taps, ky then kx, of
 * (in - input_zp) * (w - weight_zp) in the accumulator type; out = static_cast<out_t>(acc) +
 * bias[oc]) for a channel multiplier M of 1 and channels a multiple of 4, with each work item
 * a register block of DG_DW_TX consecutive output pixels of one row times 4 channels.
 * Per kernel row ky the work item reads the input row's window of W = (DG_DW_TX - 1) * stride_x
 * + (KW - 1) * dilation_x + 1 pixels once (4 channels each, one vector load where packed and
 * aligned) and the KW weight vectors once, for DG_DW_TX * KW * 4 multiply-adds: with 8 pixels
 * of a 3x3 stride-1 kernel, 13 loads where the one-pixel kernel makes 48. Written for CPU
 * devices (lavapipe: every load whose address differs per lane is a loop over the lanes, so
 * the loads, not the arithmetic, are the cost); the build takes it where W <= DG_DW_WMAX
 * (graph/build/depthwise_build.c). Window pixels outside the input are padding: their products
 * are left out (a select), never multiplied in, as the reference kernel skips them.
 * The bias of the 4 channels is read once per work item.
 *
 * Tensors (binding order): 0 input [N,IH,IW,C], 1 weight [KH,KW,C,1], 2 bias [BC],
 * 3 output [N,OH,OW,C]. Work item (ELEMENTS grid): channel group g (4 channels) fastest, then
 * the block of DG_DW_TX pixels along the row, the row, the image:
 * N * OH * ceil(OW / DG_DW_TX) * C / 4 items.
 * Attributes: DEPTHWISE_CONV2D's (struct dg_attrs_depthwise_conv2d). Variant defines: as
 * depthwise_conv2d.comp, and DG_DW_TX, DG_DW_WMAX (kernel_abi/depthwise_args.h).
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_DEPTHWISE_CONV2D

#include "dg_conv.glsl"
#include "dg_load4.glsl"
#include "kernel_abi/depthwise_args.h"

DG_TENSOR(DG_DEPTHWISE_CONV2D_INPUT, input);
DG_TENSOR(DG_DEPTHWISE_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_DEPTHWISE_CONV2D_BIAS, bias);
DG_TENSOR(DG_DEPTHWISE_CONV2D_OUTPUT, output);

#define in_t dg_atype(DG_IN_DTYPE)
#define w_t dg_atype(DG_W_DTYPE)

/* The 4 elements of dtype `dtype` from `at`, `step` bytes apart: one vector load where `vec`. */
#define DW_LOAD4(dtype, v, at, step, vec)                                                          \
   if (vec) {                                                                                      \
      uvec4 bits_ = dg_load4_bits_u64(at, DG_DTYPE_SIZE(dtype));                                  \
      [[unroll]] for (uint c_ = 0u; c_ < 4u; c_++)                                                 \
         v[c_] = dg_from_bits(dtype, bits_[c_]);                                                   \
   } else {                                                                                        \
      [[unroll]] for (uint c_ = 0u; c_ < 4u; c_++)                                                 \
         v[c_] = dg_load(dtype, vmel_address_add(at, c_ * (step)));                                \
   }

void
main()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record w_r = DG_RECORD(weight);
   vmel_tensor_record b_r = DG_RECORD(bias);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint oh = out_r.dims[1], ow = out_r.dims[2], groups = out_r.dims[3] / 4u;
   int ih = int(in_r.dims[1]), iw = int(in_r.dims[2]);
   uint kh = w_r.dims[0], kw = w_r.dims[1];
   uint blocks = (ow + DG_DW_TX - 1u) / DG_DW_TX;
   /* The window's pixels: W <= DG_DW_WMAX, which the build checked. */
   uint window = (DG_DW_TX - 1u) * uint(stride_x) + (kw - 1u) * uint(dilation_x) + 1u;

   uint g = item % groups;
   uint block = (item / groups) % blocks;
   uint oy = (item / (groups * blocks)) % oh;
   uint n = item / (groups * blocks * oh);
   uint c0 = 4u * g;
   uint ox0 = block * DG_DW_TX;
   int x0 = int(ox0) * stride_x - pad_left;

   /* Whether 4 channels of a pixel (input) or a tap (weight) are packed and aligned: the same
    * for every work item, so one vector load each. */
   uint in_size = DG_DTYPE_SIZE(DG_IN_DTYPE), w_size = DG_DTYPE_SIZE(DG_W_DTYPE);
   bool in_vec = in_r.strides[3] == in_size &&
                 ((in_r.strides[0] | in_r.strides[1] | in_r.strides[2] | in_r.address.x) &
                  (4u * in_size - 1u)) == 0u;
   bool w_vec = w_r.strides[2] == w_size &&
                ((w_r.strides[0] | w_r.strides[1] | w_r.address.x) & (4u * w_size - 1u)) == 0u;

   acc_t acc[DG_DW_TX][4];
   [[unroll]] for (uint j = 0u; j < DG_DW_TX; j++)
      [[unroll]] for (uint c = 0u; c < 4u; c++)
         acc[j][c] = acc_t(0);

   [[dont_unroll]] for (uint ky = 0u; ky < kh; ky++) {
      int y = int(oy) * stride_y - pad_top + int(ky) * dilation_y;
      if (y < 0 || y >= ih)
         continue;
      uint row = n * in_r.strides[0] + uint(y) * in_r.strides[1] + c0 * in_r.strides[3];
      in_t win[DG_DW_WMAX][4];
      bool inside[DG_DW_WMAX];
      [[unroll]] for (uint i = 0u; i < DG_DW_WMAX; i++) {
         if (i < window) {
            int x = x0 + int(i);
            inside[i] = x >= 0 && x < iw;
            /* a pixel outside reads the row's first one, whose value is never used */
            uvec2 at = dg_address(in_r, row + uint(inside[i] ? x : 0) * in_r.strides[2]);
            DW_LOAD4(DG_IN_DTYPE, win[i], at, in_r.strides[3], in_vec)
         }
      }
      uint w_row = ky * w_r.strides[0] + c0 * w_r.strides[2];
      [[unroll]] for (uint kx = 0u; kx < DG_DW_WMAX; kx++) {
         if (kx < kw) {
            w_t wv[4];
            uvec2 at = dg_address(w_r, w_row + kx * w_r.strides[1]);
            DW_LOAD4(DG_W_DTYPE, wv, at, w_r.strides[2], w_vec)
            [[unroll]] for (uint j = 0u; j < DG_DW_TX; j++) {
               uint i = min(j * uint(stride_x) + kx * uint(dilation_x), DG_DW_WMAX - 1u);
               [[unroll]] for (uint c = 0u; c < 4u; c++)
                  acc[j][c] = inside[i] ? dg_conv_mac(acc[j][c], win[i][c], wv[c]) : acc[j][c];
            }
         }
      }
   }

   dg_atype(DG_OUT_DTYPE) bias_el[4];
   [[unroll]] for (uint c = 0u; c < 4u; c++) {
      uint oc = b_r.dims[0] == 1u ? 0u : c0 + c;
      bias_el[c] = dg_load(DG_OUT_DTYPE, dg_address(b_r, oc * b_r.strides[0]));
   }
   [[unroll]] for (uint j = 0u; j < DG_DW_TX; j++) {
      uint ox = ox0 + j;
      if (ox < ow) {
         uint at = dg_offset4(out_r, n, oy, ox, c0);
         [[unroll]] for (uint c = 0u; c < 4u; c++)
            dg_store(DG_OUT_DTYPE, dg_address(out_r, at + c * out_r.strides[3]),
                     dg_conv_value_with(acc[j][c], bias_el[c]));
      }
   }
}
