/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 TRANSPOSE_CONV2D (§2.3 "Tensor Operators"; pseudocode/operators/
 * TRANSPOSE_CONV2D.tosac), in the pseudocode's gather form: output (n, oy, ox, oc) is
 *   acc = sum over taps (ky, kx, ic) of (in[n, y / stride_y, x / stride_x, ic] - input_zp) *
 *         (w[oc, ky, kx, ic] - weight_zp)
 * with y = oy - out_pad_top - ky, x = ox - out_pad_left - kx, over the taps where y and x are
 * multiples of the stride inside [0, IH * stride_y) and [0, IW * stride_x) (the others read
 * nothing), then out = static_cast<out_t>(acc) + bias[BC == 1 ? 0 : oc] (dg_conv.glsl).
 * Each work item computes its own output from its contributing taps: no scatter, no atomics,
 * and it visits only the taps of the right phase (ky = (oy - out_pad_top) mod stride_y, then
 * every stride_y-th), so a dispatch does KH * KW * IC / (stride_y * stride_x) multiplies per
 * output, as many as the scatter form. out_pad may be negative (> -K): the output is cropped.
 *
 * Tensors (binding order): 0 input [N,IH,IW,IC], 1 weight [OC,KH,KW,IC], 2 bias [BC],
 * 3 output [N,OH,OW,OC].
 * One work item: one output element (n, oy, ox, oc), row-major.
 * Attributes (struct dg_attrs_transpose_conv2d): out_pad_top, out_pad_bottom, out_pad_left,
 * out_pad_right, stride_y, stride_x, input_zp, weight_zp.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_TRANSPOSE_CONV2D

#include "dg_conv.glsl"

DG_TENSOR(DG_TRANSPOSE_CONV2D_INPUT, input);
DG_TENSOR(DG_TRANSPOSE_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_TRANSPOSE_CONV2D_BIAS, bias);
DG_TENSOR(DG_TRANSPOSE_CONV2D_OUTPUT, output);

/* The first tap of the phase of position p (>= 0 or not): p mod stride in [0, stride). */
int
first_tap(int p, int stride)
{
   int r = p % stride;
   return r < 0 ? r + stride : r;
}

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
   int py = int(oy) - out_pad_top;
   int px = int(ox) - out_pad_left;
   for (int ky = first_tap(py, stride_y); ky < kh; ky += stride_y) {
      int y = py - ky; /* a multiple of stride_y */
      if (y < 0 || y >= ih * stride_y)
         continue;
      for (int kx = first_tap(px, stride_x); kx < kw; kx += stride_x) {
         int x = px - kx;
         if (x < 0 || x >= iw * stride_x)
            continue;
         uvec2 in_row =
            dg_address(in_r, dg_offset3(in_r, n, uint(y / stride_y), uint(x / stride_x)));
         uvec2 w_row = dg_address(w_r, dg_offset3(w_r, oc, uint(ky), uint(kx)));
         acc = dg_conv_dot(acc, in_row, in_r.strides[3], w_row, w_r.strides[3], ic_count);
      }
   }
   dg_conv_store(acc, b_r, b_r.dims[0] == 1u ? 0u : oc,
                 dg_address(out_r, dg_offset4(out_r, n, oy, ox, oc)));
}
