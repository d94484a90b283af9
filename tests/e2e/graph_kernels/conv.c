/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the CONV2D kernels against the reference: integer results bit for
 * bit, floats with TOSA 1.0.1's dot-product accuracy requirements.
 */
#include "harness.h"

/* ---- CONV2D --------------------------------------------------------------------------------- */

struct conv_row {
   const char *variant;
   enum ref_dtype in, w, out;
   enum tosa_ref_acc_type acc;
};

struct conv_shape {
   int64_t in[4];   /* N, IH, IW, IC */
   int64_t w[4];    /* OC, KH, KW, IC */
   int64_t bias;    /* BC */
   int32_t pad[4];
   int32_t stride[2];
   int32_t dilation[2];
   int32_t input_zp, weight_zp; /* used by i8 operands only */
};


static void
conv2d_case(const struct conv_row *row, const struct conv_shape *s, uint32_t gap)
{
   char what[128];
   snprintf(what, sizeof(what), "%s in %" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64
            " w %" PRId64 "x%" PRId64 " s%dx%d d%dx%d", row->variant, s->in[0], s->in[1],
            s->in[2], s->in[3], s->w[1], s->w[2], s->stride[0], s->stride[1], s->dilation[0],
            s->dilation[1]);
   struct tosa_ref_conv2d_args ra = {
      .pad = {s->pad[0], s->pad[1], s->pad[2], s->pad[3]},
      .stride = {s->stride[0], s->stride[1]},
      .dilation = {s->dilation[0], s->dilation[1]},
      .acc_type = row->acc,
   };
   int64_t oh, ow;
   if (!ref_ok(what, tosa_ref_conv2d_output_hw(&ra, s->in[1], s->in[2], s->w[1], s->w[2], &oh,
                                               &ow)))
      return;
   int64_t out_shape[4] = {s->in[0], oh, ow, s->w[0]};
   struct ref_tensor *in = tensor(row->in, 4, s->in);
   struct ref_tensor *w = tensor(row->w, 4, s->w);
   struct ref_tensor *bias = tensor(row->out, 1, &s->bias);
   struct ref_tensor *izp = scalar_int(row->in, row->in == REF_DTYPE_I8 ? s->input_zp : 0);
   struct ref_tensor *wzp = scalar_int(row->w, row->w == REF_DTYPE_I8 ? s->weight_zp : 0);
   struct ref_tensor *out = tensor(row->out, 4, out_shape);
   bool is_float = ref_dtype_is_float(row->out);
   struct ref_tensor *ref = tensor(is_float ? REF_DTYPE_FP64 : row->out, 4, out_shape);
   struct ref_tensor *bnd = tensor(REF_DTYPE_FP64, 4, out_shape);
   fill_operand(in);
   fill_operand(w);
   fill_operand(bias);
   int st = tosa_ref_conv2d(&ra, in, w, bias, izp, wzp, ref);
   if (is_float && st == TOSA_REF_OK) {
      ra.mode = TOSA_REF_DOT_BOUND;
      st = tosa_ref_conv2d(&ra, in, w, bias, izp, wzp, bnd);
   }
   if (ref_ok(what, st)) {
      struct dg_attrs_conv2d args = {
         .pad_top = s->pad[0], .pad_bottom = s->pad[1],
         .pad_left = s->pad[2], .pad_right = s->pad[3],
         .stride_y = s->stride[0], .stride_x = s->stride[1],
         .dilation_y = s->dilation[0], .dilation_x = s->dilation[1],
         .input_zp = (int32_t)ref_tensor_get_int(izp, 0),
         .weight_zp = (int32_t)ref_tensor_get_int(wzp, 0),
      };
      struct ref_tensor *ts[4] = {in, w, bias, out};
      struct ref_tensor *gpu = run_kernel(row->variant, ts,
                                          (const uint32_t[]){gap, 0, gap, gap}, 4, &args,
                                          sizeof(args), 0);
      if (is_float)
         check_dot(what, gpu, ref, bnd, acc_dtype(row->acc), s->w[1] * s->w[2] * s->w[3]);
      else
         compare(what, TOSA_REF_OP_CONV2D, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, w, bias, izp, wzp, out, ref, bnd};
   destroy_all(all, 8);
}

void
test_conv2d(void)
{
   static const struct conv_row rows[] = {
      {"tosa_conv2d_i8_i32_acc_i32", REF_DTYPE_I8, REF_DTYPE_I8, REF_DTYPE_I32,
       TOSA_REF_ACC_INT32},
      {"tosa_conv2d_i16_i8_i48_acc_i48", REF_DTYPE_I16, REF_DTYPE_I8, REF_DTYPE_I48,
       TOSA_REF_ACC_INT48},
      {"tosa_conv2d_fp8e4m3_fp16_acc_fp16", REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E4M3, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp8e5m2_fp16_acc_fp16", REF_DTYPE_FP8E5M2, REF_DTYPE_FP8E5M2, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp16_acc_fp16", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp16_acc_fp32", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP32},
      {"tosa_conv2d_bf16_acc_fp32", REF_DTYPE_BF16, REF_DTYPE_BF16, REF_DTYPE_BF16,
       TOSA_REF_ACC_FP32},
      {"tosa_conv2d_fp32_acc_fp32", REF_DTYPE_FP32, REF_DTYPE_FP32, REF_DTYPE_FP32,
       TOSA_REF_ACC_FP32},
      {"tosa_conv2d_fp8e4m3_fp16_acc_fp16_fp16arith", REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E4M3,
       REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp8e5m2_fp16_acc_fp16_fp16arith", REF_DTYPE_FP8E5M2, REF_DTYPE_FP8E5M2,
       REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp16_acc_fp16_fp16arith", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
   };
   static const struct conv_shape shapes[] = {
      /* 3x3, pad 1, stride 1, zero points, bias per channel */
      {{1, 6, 7, 3}, {4, 3, 3, 3}, 4, {1, 1, 1, 1}, {1, 1}, {1, 1}, -3, 5},
      /* asymmetric pads, strides 2x3, dilations 3x2, extreme zero points, bias broadcast */
      {{2, 9, 9, 2}, {3, 2, 3, 2}, 1, {2, 1, 0, 2}, {2, 3}, {3, 2}, 127, -128},
      /* 1x1 with a large pad: whole padding rows and columns */
      {{1, 3, 2, 5}, {2, 1, 1, 5}, 2, {2, 2, 1, 1}, {1, 1}, {1, 1}, 0, 0},
   };
   test_set_context("conv2d");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      if (needs_fp16arith(rows[r].variant) && !have_fp16arith)
         continue;
      /* Integer and fp32 rows take every shape; the others the first two. */
      unsigned n = rows[r].out == REF_DTYPE_I32 || rows[r].out == REF_DTYPE_I48 ||
                         rows[r].out == REF_DTYPE_FP32
                      ? 3
                      : 2;
      for (unsigned s = 0; s < n; s++)
         conv2d_case(&rows[r], &shapes[s], s == 0 ? 1 : 0);
   }
   test_set_context(NULL);
}
