/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the MAX_POOL2D kernels against the reference: integer results bit for
 * bit, floats exactly.
 */
#include "harness.h"

/* ---- MAX_POOL2D ----------------------------------------------------------------------------- */

static void
max_pool2d_case(const char *variant, enum ref_dtype dtype, const int64_t *in_shape,
                const int32_t *kernel, const int32_t *stride, const int32_t *pad, int nan_mode)
{
   char what[128];
   snprintf(what, sizeof(what), "%s k%dx%d s%dx%d p%d,%d,%d,%d nan_mode %d", variant, kernel[0],
            kernel[1], stride[0], stride[1], pad[0], pad[1], pad[2], pad[3], nan_mode);
   int64_t oh = (in_shape[1] + pad[0] + pad[1] - kernel[0]) / stride[0] + 1;
   int64_t ow = (in_shape[2] + pad[2] + pad[3] - kernel[1]) / stride[1] + 1;
   int64_t out_shape[4] = {in_shape[0], oh, ow, in_shape[3]};
   struct ref_tensor *in = tensor(dtype, 4, in_shape);
   struct ref_tensor *out = tensor(dtype, 4, out_shape);
   struct ref_tensor *ref = tensor(dtype, 4, out_shape);
   if (ref_dtype_is_float(dtype)) {
      fill_fp(in, -8.0, 8.0);
      add_specials(in);
      ref_tensor_set_fp(in, 0, NAN); /* alone in the first window when the pads are 1 */
   } else {
      unsigned bits = ref_dtype_int_bits(dtype);
      fill_int(in, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
      ref_tensor_set_int(in, 0, -((int64_t)1 << (bits - 1)));
   }
   struct tosa_ref_max_pool2d_args ra = {
      .kernel = {kernel[0], kernel[1]},
      .stride = {stride[0], stride[1]},
      .pad = {pad[0], pad[1], pad[2], pad[3]},
      .nan_mode = (enum tosa_ref_nan_mode)nan_mode,
   };
   struct dg_attrs_max_pool2d args = {
      .kernel_y = kernel[0], .kernel_x = kernel[1],
      .stride_y = stride[0], .stride_x = stride[1],
      .pad_top = pad[0], .pad_bottom = pad[1], .pad_left = pad[2], .pad_right = pad[3],
      .nan_mode = (uint32_t)nan_mode,
   };
   if (ref_ok(what, tosa_ref_max_pool2d(&ra, in, ref))) {
      struct ref_tensor *ts[2] = {in, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){1, 1}, 2, &args, sizeof(args), 0);
      compare(what, TOSA_REF_OP_MAX_POOL2D, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, out, ref};
   destroy_all(all, 3);
}

void
test_max_pool2d(void)
{
   static const struct {
      const char *variant;
      enum ref_dtype dtype;
   } rows[] = {
      {"tosa_max_pool2d_i8", REF_DTYPE_I8},
      {"tosa_max_pool2d_i16", REF_DTYPE_I16},
      {"tosa_max_pool2d_fp8e4m3", REF_DTYPE_FP8E4M3},
      {"tosa_max_pool2d_fp8e5m2", REF_DTYPE_FP8E5M2},
      {"tosa_max_pool2d_fp16", REF_DTYPE_FP16},
      {"tosa_max_pool2d_bf16", REF_DTYPE_BF16},
      {"tosa_max_pool2d_fp32", REF_DTYPE_FP32},
   };
   test_set_context("max_pool2d");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      max_pool2d_case(rows[r].variant, rows[r].dtype, SHAPE(2, 7, 7, 3), (const int32_t[]){3, 3},
                      (const int32_t[]){2, 2}, (const int32_t[]){1, 1, 1, 1}, DG_NAN_PROPAGATE);
      max_pool2d_case(rows[r].variant, rows[r].dtype, SHAPE(1, 5, 6, 2), (const int32_t[]){2, 3},
                      (const int32_t[]){1, 2}, (const int32_t[]){1, 0, 2, 1}, DG_NAN_IGNORE);
   }
   max_pool2d_case("tosa_max_pool2d_fp32", REF_DTYPE_FP32, SHAPE(1, 4, 4, 1),
                   (const int32_t[]){4, 4}, (const int32_t[]){1, 1}, (const int32_t[]){0, 0, 0, 0},
                   DG_NAN_IGNORE);
   test_set_context(NULL);
}
