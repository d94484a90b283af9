/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 DEPTHWISE_CONV2D (§2.3 "Tensor Operators"; pseudocode/operators/
 * DEPTHWISE_CONV2D.tosac): output channel oc = c * M + m of pixel (n, oy, ox) is
 *   acc = sum over in-bounds taps (ky, kx) of (in[n,y,x,c] - input_zp) * (w[ky,kx,c,m] - weight_zp)
 * with y = oy * stride_y - pad_top + ky * dilation_y (x likewise), in the accumulator type
 * (padding taps contribute nothing), then out = static_cast<out_t>(acc) + bias[BC == 1 ? 0 :
 * oc] (dg_conv.glsl, shared with CONV2D).
 *
 * Tensors (binding order): 0 input [N,IH,IW,C], 1 weight [KH,KW,C,M], 2 bias [BC],
 * 3 output [N,OH,OW,C*M].
 * One work item: DG_EW_ITEMS (4, the ELEMENTS4 grid) consecutive output elements, row-major.
 * Memory-bound, so the channels (contiguous in NHWC) are the vector: where the 4 lie in one
 * pixel, the work item walks the taps once, with the bounds checks and row addresses shared,
 * and reads 4 neighbouring inputs and weights per tap (neighbouring work items: the next
 * channels, so a subgroup's reads are contiguous). With M = 1 the 4 channels of a tap are
 * 4 consecutive inputs and 4 consecutive weights: where both are packed and aligned to their
 * bytes they are read as one vector of raw words each (dg_ew_vector.glsl: 4 to 16 bytes), else
 * element by element. Elsewhere (C*M not a multiple of 4, the tensor's tail) each element goes
 * on its own through the same code.
 * Attributes (struct dg_attrs_depthwise_conv2d): pad_top, pad_bottom, pad_left, pad_right,
 * stride_y, stride_x, dilation_y, dilation_x, input_zp, weight_zp.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

DG_DECLARE_ATTRS_DEPTHWISE_CONV2D

#include "dg_conv.glsl"

#ifndef DG_EW_ITEMS
#error "DG_EW_ITEMS comes from the grid: DG_TEMPLATE_GRID(depthwise_conv2d, 64, ELEMENTS4)"
#endif

#include "dg_ew_vector.glsl"

DG_TENSOR(DG_DEPTHWISE_CONV2D_INPUT, input);
DG_TENSOR(DG_DEPTHWISE_CONV2D_WEIGHT, weight);
DG_TENSOR(DG_DEPTHWISE_CONV2D_BIAS, bias);
DG_TENSOR(DG_DEPTHWISE_CONV2D_OUTPUT, output);

/* Output channels oc0 .. oc0 + count - 1 (count <= DG_EW_ITEMS) of pixel `pixel` (n, oy, ox
 * row-major). */
void
depthwise_pixel(uint pixel, uint oc0, uint count)
{
   vmel_tensor_record in_r = DG_RECORD(input);
   vmel_tensor_record w_r = DG_RECORD(weight);
   vmel_tensor_record b_r = DG_RECORD(bias);
   vmel_tensor_record out_r = DG_RECORD(output);
   uint ox = pixel % out_r.dims[2];
   uint oy = (pixel / out_r.dims[2]) % out_r.dims[1];
   uint n = pixel / (out_r.dims[2] * out_r.dims[1]);
   int ih = int(in_r.dims[1]);
   int iw = int(in_r.dims[2]);
   int kh = int(w_r.dims[0]);
   int kw = int(w_r.dims[1]);
   uint m_count = w_r.dims[3];

   /* The byte offsets of each channel in an input row and in a weight row. */
   uint in_c[DG_EW_ITEMS], w_cm[DG_EW_ITEMS];
   acc_t acc[DG_EW_ITEMS];
   [[unroll]] for (uint j = 0u; j < DG_EW_ITEMS; j++) {
      uint oc = oc0 + min(j, count - 1u);
      in_c[j] = (oc / m_count) * in_r.strides[3];
      w_cm[j] = (oc / m_count) * w_r.strides[2] + (oc % m_count) * w_r.strides[3];
      acc[j] = acc_t(0);
   }

   /* M = 1 and 4 channels: consecutive inputs and weights, a vector where packed and aligned */
   const uint in_size = uint(DG_DTYPE_SIZE(DG_IN_DTYPE));
   const uint w_size = uint(DG_DTYPE_SIZE(DG_W_DTYPE));
   bool vector = count == DG_EW_ITEMS && m_count == 1u;

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
         uvec2 w_row = dg_address(w_r, uint(ky) * w_r.strides[0] + uint(kx) * w_r.strides[1]);
         uvec2 in_at = vmel_address_add(in_row, in_c[0]);
         uvec2 w_at = vmel_address_add(w_row, w_cm[0]);
         if (vector && dg_ew_vector_at(in_size, in_r.strides[3], in_at) &&
             dg_ew_vector_at(w_size, w_r.strides[2], w_at)) {
            uint in_w[DG_EW_ITEMS], w_w[DG_EW_ITEMS];
            dg_ew_read_words(in_at, in_size, in_w);
            dg_ew_read_words(w_at, w_size, w_w);
            [[unroll]] for (uint j = 0u; j < DG_EW_ITEMS; j++)
               acc[j] = dg_conv_mac(acc[j],
                                    dg_from_bits(DG_IN_DTYPE, dg_ew_bits(in_w, j, in_size)),
                                    dg_from_bits(DG_W_DTYPE, dg_ew_bits(w_w, j, w_size)));
            continue;
         }
         [[unroll]] for (uint j = 0u; j < DG_EW_ITEMS; j++) {
            if (j < count)
               acc[j] = dg_conv_mac(acc[j],
                                    dg_load(DG_IN_DTYPE, vmel_address_add(in_row, in_c[j])),
                                    dg_load(DG_W_DTYPE, vmel_address_add(w_row, w_cm[j])));
         }
      }
   }
   [[unroll]] for (uint j = 0u; j < DG_EW_ITEMS; j++) {
      uint oc = oc0 + j;
      if (j < count)
         dg_conv_store(acc[j], b_r, b_r.dims[0] == 1u ? 0u : oc,
                       dg_address(out_r, dg_offset4(out_r, n, oy, ox, oc)));
   }
}

void
main()
{
   uint item = vmel_work_index();
   if (item >= vmel_work_count)
      return;
   vmel_tensor_record out_r = DG_RECORD(output);
   uint cm = out_r.dims[3];
   uint total = dg_element_count(out_r);
   uint first = item * DG_EW_ITEMS;
   uint oc0 = first % cm;
   if (oc0 + DG_EW_ITEMS <= cm) {
      depthwise_pixel(first / cm, oc0, DG_EW_ITEMS);
      return;
   }
   for (uint j = 0u; j < DG_EW_ITEMS && first + j < total; j++)
      depthwise_pixel((first + j) / cm, (first + j) % cm, 1u);
}
