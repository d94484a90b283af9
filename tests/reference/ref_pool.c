/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * MAX_POOL2D of the reference (TOSA 1.0.1 chapters/tensor_ops.adoc,
 * pseudocode/operators/MAX_POOL2D.tosac): only in-bounds taps are compared (padding never wins),
 * the accumulator starts at minimum_s<in_out_t> or, for floats with nan_mode IGNORE, at NaN, and
 * apply_max_s() carries the NaN mode. The LEVEL_CHECKs come from tosa.xml's argument table.
 */
#include "ref_internal.h"

#include <math.h>

static bool
pool_type_supported(enum ref_dtype t)
{
   switch (t) {
   case REF_DTYPE_I8:
   case REF_DTYPE_I16:
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP32:
      return true;
   default:
      return false;
   }
}

static int
check_pool(const struct tosa_ref_max_pool2d_args *a, const struct ref_tensor *in,
           const struct ref_tensor *out)
{
   if (in->rank != 4 || out->rank != 4)
      return ref_status(TOSA_REF_ERROR, "MAX_POOL2D: input and output must be rank 4 (%u, %u)",
                        in->rank, out->rank);
   if (a->kernel[0] < 1 || a->kernel[1] < 1)
      return ref_status(TOSA_REF_ERROR, "MAX_POOL2D: ERROR_IF(kernel_y < 1 || kernel_x < 1): %d %d",
                        a->kernel[0], a->kernel[1]);
   if (a->stride[0] < 1 || a->stride[1] < 1)
      return ref_status(TOSA_REF_ERROR, "MAX_POOL2D: ERROR_IF(stride_y < 1 || stride_x < 1): %d %d",
                        a->stride[0], a->stride[1]);
   for (int i = 0; i < 4; i++) {
      if (a->pad[i] < 0)
         return ref_status(TOSA_REF_ERROR, "MAX_POOL2D: ERROR_IF(pad[%d] < 0): %d", i, a->pad[i]);
   }
   if (a->pad[3] >= a->kernel[1] || a->pad[2] >= a->kernel[1])
      return ref_status(TOSA_REF_ERROR,
                        "MAX_POOL2D: ERROR_IF(pad_right >= kernel_x || pad_left >= kernel_x)");
   if (a->pad[0] >= a->kernel[0] || a->pad[1] >= a->kernel[0])
      return ref_status(TOSA_REF_ERROR,
                        "MAX_POOL2D: ERROR_IF(pad_top >= kernel_y || pad_bottom >= kernel_y)");

   int64_t n = in->shape[0], ih = in->shape[1], iw = in->shape[2], c = in->shape[3];
   /* OH = idiv_check(IH + pad_top + pad_bottom - kernel_y, stride_y) + 1, likewise OW. */
   int64_t num_y = ih + a->pad[0] + a->pad[1] - a->kernel[0];
   int64_t num_x = iw + a->pad[2] + a->pad[3] - a->kernel[1];
   if (num_y % a->stride[0] != 0 || num_x % a->stride[1] != 0)
      return ref_status(TOSA_REF_ERROR,
                        "MAX_POOL2D: idiv_check: ERROR_IF(%lld %% %d != 0 || %lld %% %d != 0)",
                        (long long)num_y, a->stride[0], (long long)num_x, a->stride[1]);
   int64_t oh = num_y / a->stride[0] + 1;
   int64_t ow = num_x / a->stride[1] + 1;
   if (out->shape[1] != oh || out->shape[2] != ow)
      return ref_status(TOSA_REF_ERROR, "MAX_POOL2D: ERROR_IF(OH != %lld || OW != %lld): %lld %lld",
                        (long long)oh, (long long)ow, (long long)out->shape[1],
                        (long long)out->shape[2]);
   if (out->shape[0] != n || out->shape[3] != c)
      return ref_status(TOSA_REF_ERROR, "MAX_POOL2D: output N, C (%lld, %lld) must be (%lld, %lld)",
                        (long long)out->shape[0], (long long)out->shape[3], (long long)n,
                        (long long)c);
   return TOSA_REF_OK;
}

static int
check_pool_level(const struct tosa_ref_max_pool2d_args *a)
{
   int32_t max_kernel = a->level_none ? REF_LEVEL_NONE_MAX_KERNEL : REF_LEVEL_8K_MAX_KERNEL;
   int32_t max_stride = a->level_none ? REF_LEVEL_NONE_MAX_STRIDE : REF_LEVEL_8K_MAX_STRIDE;
   for (int i = 0; i < 2; i++) {
      if (a->kernel[i] > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "MAX_POOL2D: LEVEL_CHECK(kernel %d <= %d)",
                           a->kernel[i], max_kernel);
      if (a->stride[i] > max_stride)
         return ref_status(TOSA_REF_UNPREDICTABLE, "MAX_POOL2D: LEVEL_CHECK(stride %d <= %d)",
                           a->stride[i], max_stride);
   }
   for (int i = 0; i < 4; i++) {
      if (a->pad[i] > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "MAX_POOL2D: LEVEL_CHECK(pad %d <= %d)",
                           a->pad[i], max_kernel);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_max_pool2d(const struct tosa_ref_max_pool2d_args *args, const struct ref_tensor *input,
                    struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "MAX_POOL2D: NULL or invalid argument");
   if (!pool_type_supported(input->dtype) || output->dtype != input->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED, "MAX_POOL2D: no type-support row for %s -> %s",
                        ref_dtype_name(input->dtype), ref_dtype_name(output->dtype));
   if (args->nan_mode != TOSA_REF_NAN_PROPAGATE && args->nan_mode != TOSA_REF_NAN_IGNORE)
      return ref_status(TOSA_REF_UNSUPPORTED, "MAX_POOL2D: nan_mode %d is not valid",
                        (int)args->nan_mode);

   int st = check_pool(args, input, output);
   if (st != TOSA_REF_OK)
      return st;
   st = check_pool_level(args);

   bool is_float = ref_dtype_is_float(input->dtype);
   unsigned bits = ref_dtype_int_bits(input->dtype);
   int64_t n_ = input->shape[0], ih = input->shape[1], iw = input->shape[2], c_ = input->shape[3];
   int64_t oh = output->shape[1], ow = output->shape[2];

   for (int64_t n = 0; n < n_; n++) {
      for (int64_t oy = 0; oy < oh; oy++) {
         for (int64_t ox = 0; ox < ow; ox++) {
            for (int64_t c = 0; c < c_; c++) {
               /* minimum_s<in_out_t>: -inf for the float types with infinities, -448 for
                * fp8e4m3 ("Supported Number Formats"); NaN for floats with IGNORE. */
               double facc = args->nan_mode == TOSA_REF_NAN_IGNORE ? NAN
                             : input->dtype == REF_DTYPE_FP8E4M3   ? -448.0
                                                                   : -INFINITY;
               int64_t iacc = is_float ? 0 : ref_int_min(bits);
               int64_t iy = oy * args->stride[0] - args->pad[0];
               int64_t ix = ox * args->stride[1] - args->pad[2];
               for (int64_t ky = 0; ky < args->kernel[0]; ky++) {
                  for (int64_t kx = 0; kx < args->kernel[1]; kx++) {
                     int64_t y = iy + ky, x = ix + kx;
                     if (y < 0 || y >= ih || x < 0 || x >= iw)
                        continue;
                     int64_t at = ((n * ih + y) * iw + x) * c_ + c;
                     if (is_float) {
                        facc = ref_fmax_nan(facc, ref_tensor_get_fp(input, at), args->nan_mode);
                     } else {
                        int64_t v = ref_tensor_get_int(input, at);
                        iacc = iacc >= v ? iacc : v;
                     }
                  }
               }
               int64_t out_at = ((n * oh + oy) * ow + ox) * c_ + c;
               if (is_float)
                  ref_tensor_set_fp(output, out_at, facc);
               else
                  ref_tensor_set_int(output, out_at, iacc);
            }
         }
      }
   }
   return st;
}
