/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CONV3D (§2.3 "Tensor Operators"; pseudocode/operators/CONV3D.tosac): CONV2D
 * (conv2d.comp) with a depth axis. For each output element (n, od, oy, ox, oc),
 *   acc = sum over in-bounds taps (kd, ky, kx, ic) of (in - input_zp) * (w - weight_zp)
 * in the accumulator type (padding taps contribute nothing), then out =
 * static_cast<out_t>(acc) + bias[BC == 1 ? 0 : oc]: the types, the multiply-accumulate over
 * the input channels and the epilogue are CONV2D's (dg_conv.glsl).
 *
 * Tensors (binding order): 0 input [N,ID,IH,IW,IC], 1 weight [OC,KD,KH,KW,IC], 2 bias [BC],
 * 3 output [N,OD,OH,OW,OC].
 * One work item: one output element, row-major.
 * Attributes (struct dg_attrs_conv3d): pad_d0, pad_d1, pad_top, pad_bottom, pad_left,
 * pad_right, stride_d, stride_y, stride_x, dilation_d, dilation_y, dilation_x, input_zp,
 * weight_zp.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_CONV3D

#include "dg_conv.glsl"

DG_TENSOR(DG_CONV3D_INPUT, input);
DG_TENSOR(DG_CONV3D_WEIGHT, weight);
DG_TENSOR(DG_CONV3D_BIAS, bias);
DG_TENSOR(DG_CONV3D_OUTPUT, output);

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
   uint oc = index % out_r.dims[4];
   uint rest = index / out_r.dims[4];
   uint ox = rest % out_r.dims[3];
   rest /= out_r.dims[3];
   uint oy = rest % out_r.dims[2];
   rest /= out_r.dims[2];
   uint od = rest % out_r.dims[1];
   uint n = rest / out_r.dims[1];
   int id = int(in_r.dims[1]);
   int ih = int(in_r.dims[2]);
   int iw = int(in_r.dims[3]);
   uint ic_count = in_r.dims[4];
   int kd = int(w_r.dims[1]);
   int kh = int(w_r.dims[2]);
   int kw = int(w_r.dims[3]);

   acc_t acc = acc_t(0);
   int iz = int(od) * stride_d - pad_d0;
   int iy = int(oy) * stride_y - pad_top;
   int ix = int(ox) * stride_x - pad_left;
   for (int kz = 0; kz < kd; kz++) {
      int z = iz + kz * dilation_d;
      if (z < 0 || z >= id)
         continue;
      for (int ky = 0; ky < kh; ky++) {
         int y = iy + ky * dilation_y;
         if (y < 0 || y >= ih)
            continue;
         for (int kx = 0; kx < kw; kx++) {
            int x = ix + kx * dilation_x;
            if (x < 0 || x >= iw)
               continue;
            uvec2 in_row = dg_address(in_r, n * in_r.strides[0] + uint(z) * in_r.strides[1] +
                                               uint(y) * in_r.strides[2] +
                                               uint(x) * in_r.strides[3]);
            uvec2 w_row = dg_address(w_r, oc * w_r.strides[0] + uint(kz) * w_r.strides[1] +
                                             uint(ky) * w_r.strides[2] +
                                             uint(kx) * w_r.strides[3]);
            acc = dg_conv_dot(acc, in_row, in_r.strides[4], w_row, w_r.strides[4], ic_count);
         }
      }
   }
   dg_conv_store(acc, b_r, b_r.dims[0] == 1u ? 0u : oc,
                 dg_address(out_r,
                            n * out_r.strides[0] + od * out_r.strides[1] + oy * out_r.strides[2] +
                               ox * out_r.strides[3] + oc * out_r.strides[4]));
}
