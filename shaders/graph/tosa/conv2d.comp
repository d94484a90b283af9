/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CONV2D (§2.3 "Tensor Operators"; pseudocode/operators/
 * CONV2D.tosac): for each output element,
 *   acc = sum over in-bounds taps (ky, kx, ic) of (in - input_zp) * (w - weight_zp)
 * in the accumulator type (padding taps contribute nothing: the zero point is
 * not subtracted from them), then out = static_cast<out_t>(acc) + bias[BC == 1
 * ? 0 : oc], added in the output type.
 *
 * Tensors (binding order): 0 input [N,IH,IW,IC], 1 weight [OC,KH,KW,IC],
 * 2 bias [BC], 3 output [N,OH,OW,OC].
 * One work item: one output element (n, oy, ox, oc), row-major.
 * Attributes (struct dg_attrs_conv2d): pad_top, pad_bottom, pad_left, pad_right,
 * stride_y, stride_x, dilation_y, dilation_x, input_zp, weight_zp. OH, OW and
 * the kernel size come from the records.
 * Types, the multiply-accumulate and the epilogue: dg_conv.glsl (shared with
 * CONV3D, DEPTHWISE_CONV2D and TRANSPOSE_CONV2D).
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_CONV2D

#include "dg_conv.glsl"

DG_TENSOR(DG_CONV2D_INPUT, input);
DG_TENSOR(DG_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_CONV2D_BIAS, bias);
DG_TENSOR(DG_CONV2D_OUTPUT, output);

void
main()
{
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record w_r = DG_RECORD(weight);
   vmel_tensor_record b_r = DG_RECORD(bias);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint oc = index % out_r.dims[3];
   uint ox = (index / out_r.dims[3]) % out_r.dims[2];
   uint oy = (index / (out_r.dims[3] * out_r.dims[2])) % out_r.dims[1];
   uint n = index / (out_r.dims[3] * out_r.dims[2] * out_r.dims[1]);
   int ih = int(in_r.dims[1]);
   int iw = int(in_r.dims[2]);
   uint ic_count = in_r.dims[3];
   int kh = int(w_r.dims[1]);
   int kw = int(w_r.dims[2]);

   acc_t acc = acc_t(0);
   int iy = int(oy) * stride_y - pad_top;
   int ix = int(ox) * stride_x - pad_left;
   for (int ky = 0; ky < kh; ky++) {
      int y = iy + ky * dilation_y;
      if (y < 0 || y >= ih)
         continue;
      for (int kx = 0; kx < kw; kx++) {
         int x = ix + kx * dilation_x;
         if (x < 0 || x >= iw)
            continue;
         uvec2 in_row = dg_address(in_r, dg_offset3(in_r, n, uint(y), uint(x)));
         uvec2 w_row = dg_address(w_r, dg_offset3(w_r, oc, uint(ky), uint(kx)));
         acc = dg_conv_dot(acc, in_row, in_r.strides[3], w_row, w_r.strides[3], ic_count);
      }
   }
   dg_conv_store(acc, b_r, b_r.dims[0] == 1u ? 0u : oc,
                 dg_address(out_r, dg_offset4(out_r, n, oy, ox, oc)));
}
