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
 * Variant defines: DG_IN_DTYPE, DG_W_DTYPE, DG_OUT_DTYPE (also the bias's),
 * DG_ACC_DTYPE, DG_NATIVE_FP16. The rows of TOSA.001000.1:
 *   i8 x i8 -> i32, acc INT32: wraps on overflow (a REQUIRE in TOSA);
 *   i16 x i8 -> i48, acc INT48: int64 arithmetic, stored as i48;
 *   fp8 x fp8 -> fp16, acc FP16; fp16 -> fp16, acc FP16 or FP32;
 *   bf16 -> bf16, acc FP32; fp32 -> fp32, acc FP32.
 * An FP16 accumulator computes in fp32 (more precise than fp16, within TOSA's
 * dot-product bound for FP16) unless DG_NATIVE_FP16 makes it float16_t (needs
 * shaderFloat16). Float zero points are 0 (ERROR_IF) and not read.
 */
#version 460
#extension GL_GOOGLE_include_directive : require
#extension GL_EXT_control_flow_attributes : require

#include "dg_kernel.glsl"

#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_W_DTYPE
#define DG_W_DTYPE DG_IN_DTYPE
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif
#ifndef DG_ACC_DTYPE
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
#define DG_ACC_DTYPE DG_DTYPE_FP32
#else
#define DG_ACC_DTYPE DG_OUT_DTYPE
#endif
#endif

#if DG_ACC_DTYPE == DG_DTYPE_FP16 && defined(DG_NATIVE_FP16)
#define acc_t float16_t
#elif DG_DTYPE_IS_FLOAT(DG_ACC_DTYPE)
#define acc_t float
#else
#define acc_t dg_atype(DG_ACC_DTYPE)
#endif

DG_DECLARE_ATTRS_CONV2D

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
         /* Not unrolled: with IC a constant the compiler could, at a large cost in pipeline
          * creation (bench_graph conv_fp32: 2x) for no dispatch gain on lavapipe. */
         [[dont_unroll]] for (uint ic = 0u; ic < ic_count; ic++) {
            dg_atype(DG_IN_DTYPE) value =
               dg_load(DG_IN_DTYPE, vmel_address_add(in_row, ic * in_r.strides[3]));
            dg_atype(DG_W_DTYPE) weight_el =
               dg_load(DG_W_DTYPE, vmel_address_add(w_row, ic * w_r.strides[3]));
#if DG_DTYPE_IS_FLOAT(DG_ACC_DTYPE)
            acc += acc_t(value) * acc_t(weight_el);
#else
            acc += acc_t(value - input_zp) * acc_t(weight_el - weight_zp);
#endif
         }
      }
   }

   uint bias_index = b_r.dims[0] == 1u ? 0u : oc;
   dg_atype(DG_OUT_DTYPE) bias_el =
      dg_load(DG_OUT_DTYPE, dg_address(b_r, bias_index * b_r.strides[0]));
#if DG_DTYPE_IS_FLOAT(DG_OUT_DTYPE)
   /* static_cast<out_t>(acc), then apply_add_s<out_t>: rounded when stored. */
   float result = dg_cast(DG_OUT_DTYPE, float(acc)) + bias_el;
#else
   dg_atype(DG_OUT_DTYPE) result = dg_atype(DG_OUT_DTYPE)(acc) + bias_el;
#endif
   dg_store(DG_OUT_DTYPE, dg_address(out_r, dg_offset4(out_r, n, oy, ox, oc)), result);
}
