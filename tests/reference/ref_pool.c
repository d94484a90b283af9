/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * MAX_POOL2D of the reference (TOSA 1.0.1 chapters/tensor_ops.adoc,
 * pseudocode/operators/MAX_POOL2D.tosac): only in-bounds taps are compared (padding never wins),
 * the accumulator starts at minimum_s<in_out_t> or, for floats with nan_mode IGNORE, at NaN, and
 * apply_max_s() carries the NaN mode. The LEVEL_CHECKs come from tosa.xml's argument table.
 *
 * AVG_POOL2D (pseudocode/operators/AVG_POOL2D.tosac): the same window rules; the sum of
 * (value - input_zp) over the in-bounds taps divided by their count (padding is not counted).
 * Integers: an int32 sum (wrapping in two's complement where TOSA's REQUIRE on apply_add_s
 * fails: more than 2^16 i16 taps), reciprocal_scale(count) and apply_scale_32 without double
 * rounding in int64 arithmetic, the low 32 bits kept, + output_zp, clipped. Floats: fp64 in
 * pseudocode order, rounded once to the output (TOSA_REF_DOT_RESULT) or the dot-product bound
 * (TOSA_REF_DOT_BOUND: every input replaced by max(max |input|, normal_min), so each window's
 * bound is that maximum).
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
check_pool(const char *op, const struct tosa_ref_max_pool2d_args *a, const struct ref_tensor *in,
           const struct ref_tensor *out)
{
   if (in->rank != 4 || out->rank != 4)
      return ref_status(TOSA_REF_ERROR, "%s: input and output must be rank 4 (%u, %u)", op,
                        in->rank, out->rank);
   if (a->kernel[0] < 1 || a->kernel[1] < 1)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(kernel_y < 1 || kernel_x < 1): %d %d", op,
                        a->kernel[0], a->kernel[1]);
   if (a->stride[0] < 1 || a->stride[1] < 1)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(stride_y < 1 || stride_x < 1): %d %d", op,
                        a->stride[0], a->stride[1]);
   for (int i = 0; i < 4; i++) {
      if (a->pad[i] < 0)
         return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(pad[%d] < 0): %d", op, i, a->pad[i]);
   }
   if (a->pad[3] >= a->kernel[1] || a->pad[2] >= a->kernel[1])
      return ref_status(TOSA_REF_ERROR,
                        "%s: ERROR_IF(pad_right >= kernel_x || pad_left >= kernel_x)", op);
   if (a->pad[0] >= a->kernel[0] || a->pad[1] >= a->kernel[0])
      return ref_status(TOSA_REF_ERROR,
                        "%s: ERROR_IF(pad_top >= kernel_y || pad_bottom >= kernel_y)", op);

   int64_t n = in->shape[0], ih = in->shape[1], iw = in->shape[2], c = in->shape[3];
   /* OH = idiv_check(IH + pad_top + pad_bottom - kernel_y, stride_y) + 1, likewise OW. */
   int64_t num_y = ih + a->pad[0] + a->pad[1] - a->kernel[0];
   int64_t num_x = iw + a->pad[2] + a->pad[3] - a->kernel[1];
   if (num_y % a->stride[0] != 0 || num_x % a->stride[1] != 0)
      return ref_status(TOSA_REF_ERROR,
                        "%s: idiv_check: ERROR_IF(%lld %% %d != 0 || %lld %% %d != 0)", op,
                        (long long)num_y, a->stride[0], (long long)num_x, a->stride[1]);
   int64_t oh = num_y / a->stride[0] + 1;
   int64_t ow = num_x / a->stride[1] + 1;
   if (out->shape[1] != oh || out->shape[2] != ow)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(OH != %lld || OW != %lld): %lld %lld", op,
                        (long long)oh, (long long)ow, (long long)out->shape[1],
                        (long long)out->shape[2]);
   if (out->shape[0] != n || out->shape[3] != c)
      return ref_status(TOSA_REF_ERROR, "%s: output N, C (%lld, %lld) must be (%lld, %lld)", op,
                        (long long)out->shape[0], (long long)out->shape[3], (long long)n,
                        (long long)c);
   return TOSA_REF_OK;
}

static int
check_pool_level(const char *op, const struct tosa_ref_max_pool2d_args *a)
{
   int32_t max_kernel = a->level_none ? REF_LEVEL_NONE_MAX_KERNEL : REF_LEVEL_8K_MAX_KERNEL;
   int32_t max_stride = a->level_none ? REF_LEVEL_NONE_MAX_STRIDE : REF_LEVEL_8K_MAX_STRIDE;
   for (int i = 0; i < 2; i++) {
      if (a->kernel[i] > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(kernel %d <= %d)", op,
                           a->kernel[i], max_kernel);
      if (a->stride[i] > max_stride)
         return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(stride %d <= %d)", op,
                           a->stride[i], max_stride);
   }
   for (int i = 0; i < 4; i++) {
      if (a->pad[i] > max_kernel)
         return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(pad %d <= %d)", op, a->pad[i],
                           max_kernel);
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

   int st = check_pool("MAX_POOL2D", args, input, output);
   if (st != TOSA_REF_OK)
      return st;
   st = check_pool_level("MAX_POOL2D", args);

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

/* The accumulator type of each AVG_POOL2D row (0: no row for the input type). */
static enum tosa_ref_acc_type
avg_pool_acc_ok(enum ref_dtype t, enum tosa_ref_acc_type acc)
{
   switch (t) {
   case REF_DTYPE_I8:
   case REF_DTYPE_I16:
      return acc == TOSA_REF_ACC_INT32;
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
      return acc == TOSA_REF_ACC_FP16;
   case REF_DTYPE_FP16:
      return acc == TOSA_REF_ACC_FP16 || acc == TOSA_REF_ACC_FP32;
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP32:
      return acc == TOSA_REF_ACC_FP32;
   default:
      return false;
   }
}

/* reciprocal_scale(count) and apply_scale_32(value, multiplier, shift, false). */
static int32_t
avg_pool_divide(int32_t value, int64_t count)
{
   int k = 0;
   while ((INT64_C(1) << k) < count) /* 32 - clz(count - 1): (1 << k) / 2 < count <= 1 << k */
      k++;
   int64_t multiplier = ((INT64_C(1) << 30) + 1) * (INT64_C(1) << k) / count;
   int shift = 30 + k;
   int64_t result = ((int64_t)value * multiplier + (INT64_C(1) << (shift - 1))) >> shift;
   return (int32_t)(uint32_t)(uint64_t)result;
}

int
tosa_ref_avg_pool2d(const struct tosa_ref_avg_pool2d_args *args, const struct ref_tensor *input,
                    const struct ref_tensor *input_zp, const struct ref_tensor *output_zp,
                    struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(input_zp) ||
       !ref_tensor_valid(output_zp) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "AVG_POOL2D: NULL or invalid argument");
   bool is_float = ref_dtype_is_float(input->dtype);
   bool out_ok = output->dtype == input->dtype || (is_float && output->dtype == REF_DTYPE_FP64);
   if (!avg_pool_acc_ok(input->dtype, args->acc_type) || !out_ok ||
       input_zp->dtype != input->dtype || output_zp->dtype != input->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED,
                        "AVG_POOL2D: no type-support row for %s (zero points %s, %s) -> %s with "
                        "acc_type %d",
                        ref_dtype_name(input->dtype), ref_dtype_name(input_zp->dtype),
                        ref_dtype_name(output_zp->dtype), ref_dtype_name(output->dtype),
                        (int)args->acc_type);
   if (args->mode == TOSA_REF_DOT_BOUND && output->dtype != REF_DTYPE_FP64)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "AVG_POOL2D: a bound needs an FP64 output");
   if (input_zp->rank != 1 || input_zp->shape[0] != 1 || output_zp->rank != 1 ||
       output_zp->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "AVG_POOL2D: zero points must have shape [1]");
   /* ERROR_IF(!is_same<in_out_t,i8_t>() && input_zp != 0), likewise output_zp. */
   int64_t izp = 0, ozp = 0;
   if (is_float) {
      if (ref_tensor_get_fp(input_zp, 0) != 0.0 || ref_tensor_get_fp(output_zp, 0) != 0.0)
         return ref_status(TOSA_REF_ERROR, "AVG_POOL2D: ERROR_IF(zero point != 0) for %s",
                           ref_dtype_name(input->dtype));
   } else {
      izp = ref_tensor_get_int(input_zp, 0);
      ozp = ref_tensor_get_int(output_zp, 0);
      if (input->dtype != REF_DTYPE_I8 && (izp != 0 || ozp != 0))
         return ref_status(TOSA_REF_ERROR,
                           "AVG_POOL2D: ERROR_IF(!is_same<in_out_t,i8_t>() && zp != 0): %lld, "
                           "%lld",
                           (long long)izp, (long long)ozp);
   }
   const struct tosa_ref_max_pool2d_args w = {
       .kernel = {args->kernel[0], args->kernel[1]},
       .stride = {args->stride[0], args->stride[1]},
       .pad = {args->pad[0], args->pad[1], args->pad[2], args->pad[3]},
       .level_none = args->level_none,
   };
   int st = check_pool("AVG_POOL2D", &w, input, output);
   if (st != TOSA_REF_OK)
      return st;
   st = check_pool_level("AVG_POOL2D", &w);

   unsigned bits = ref_dtype_int_bits(input->dtype);
   int64_t n_ = input->shape[0], ih = input->shape[1], iw = input->shape[2], c_ = input->shape[3];
   int64_t oh = output->shape[1], ow = output->shape[2];
   double bound = 0.0;
   if (is_float && args->mode == TOSA_REF_DOT_BOUND) {
      double nmin = ref_dtype_normal_min(input->dtype);
      bound = nmin;
      for (int64_t i = 0; i < input->count; i++) {
         double v = fabs(ref_tensor_get_fp(input, i));
         bound = isnan(v) || v > bound ? v : bound;
      }
   }
   for (int64_t n = 0; n < n_; n++) {
      for (int64_t oy = 0; oy < oh; oy++) {
         for (int64_t ox = 0; ox < ow; ox++) {
            for (int64_t c = 0; c < c_; c++) {
               double facc = 0.0;
               uint32_t iacc = 0; /* int32, wrapping */
               int64_t count = 0;
               int64_t iy = oy * args->stride[0] - args->pad[0];
               int64_t ix = ox * args->stride[1] - args->pad[2];
               for (int64_t ky = 0; ky < args->kernel[0]; ky++) {
                  for (int64_t kx = 0; kx < args->kernel[1]; kx++) {
                     int64_t y = iy + ky, x = ix + kx;
                     if (y < 0 || y >= ih || x < 0 || x >= iw)
                        continue;
                     count++;
                     int64_t at = ((n * ih + y) * iw + x) * c_ + c;
                     if (is_float)
                        facc += ref_tensor_get_fp(input, at);
                     else
                        iacc += (uint32_t)(ref_tensor_get_int(input, at) - izp);
                  }
               }
               int64_t out_at = ((n * oh + oy) * ow + ox) * c_ + c;
               if (is_float) {
                  double r = args->mode == TOSA_REF_DOT_BOUND ? bound : facc / (double)count;
                  ref_tensor_set_fp(output, out_at, r);
               } else {
                  int64_t r = (int64_t)avg_pool_divide((int32_t)iacc, count) + ozp;
                  int64_t lo = ref_int_min(bits), hi = -1 - lo;
                  ref_tensor_set_int(output, out_at, r < lo ? lo : r > hi ? hi : r);
               }
            }
         }
      }
   }
   return st;
}
