/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): AVG_POOL2D, FFT2D and RFFT2D
 * (tensor_ops.adoc). Expected values are worked out by hand; the comments give the working.
 */
#include "ref_test.h"

void
test_avg_pool2d(void)
{
   struct tosa_ref_avg_pool2d_args a = {
       .kernel = {1, 2}, .stride = {1, 2}, .acc_type = TOSA_REF_ACC_INT32};
   struct ref_tensor *o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1});
   /* Pairs 1 2 -> 1.5, -1 -2 -> -1.5, -7 -8 -> -7.5: reciprocal_scale(2) is k = 1, multiplier
    * ((1 << 30) + 1) * 2 / 2 = 2^30 + 1, shift 31; (3 (2^30 + 1) + 2^30) >> 31 = 2,
    * (-3 (2^30 + 1) + 2^30) >> 31 = floor(-2^31 - 3 / 2^31) = -2, (-15 (2^30 + 1) + 2^30) >> 31
    * = -8. */
   expect_status(tosa_ref_avg_pool2d(&a,
                                     ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 6, 1},
                                        (int64_t[]){1, 2, -1, -2, -7, -8}),
                                     t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "avg i8 pairs");
   expect_ints(o, (int64_t[]){2, -2, -8}, 3, "avg i8 pairs");
   /* Padding is not counted: 3x3 windows with pad 1 over a 2x2 of 4.0 are all 4.0. */
   struct tosa_ref_avg_pool2d_args p = {
       .kernel = {3, 3}, .stride = {1, 1}, .pad = {1, 1, 1, 1}, .acc_type = TOSA_REF_ACC_FP32};
   o = tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(tosa_ref_avg_pool2d(
                     &p, tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){4, 4, 4, 4}),
                     t1f(REF_DTYPE_FP32, 0), t1f(REF_DTYPE_FP32, 0), o),
                 TOSA_REF_OK, "avg fp32 pad");
   expect_fps(o, (double[]){4, 4, 4, 4}, 4, "padding not counted");
   /* i16 with a non-zero zero point: ERROR_IF. */
   expect_status(tosa_ref_avg_pool2d(&a, tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 6, 1}),
                                     t1(REF_DTYPE_I16, 1), t1(REF_DTYPE_I16, 0),
                                     tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 3, 1})),
                 TOSA_REF_ERROR, "avg i16 zero point");
}

void
test_fft2d(void)
{
   /* x[h][w] = cos(2 pi (h / 8 + 3 w / 16)) over 8x16: the forward DFT is H W / 2 = 64 at
    * (1, 3) and at (8 - 1, 16 - 3) = (7, 13), 0 elsewhere (real and imaginary). */
   const int64_t shape[3] = {1, 8, 16};
   struct ref_tensor *re = tz(REF_DTYPE_FP32, 3, shape), *im = tz(REF_DTYPE_FP32, 3, shape);
   for (int64_t h = 0; h < 8; h++)
      for (int64_t w = 0; w < 16; w++)
         ref_tensor_set_fp(re, h * 16 + w,
                           cos(2 * 3.14159265358979323846 * (h / 8.0 + 3 * w / 16.0)));
   struct ref_tensor *or_ = tz(REF_DTYPE_FP64, 3, shape), *oi = tz(REF_DTYPE_FP64, 3, shape);
   struct tosa_ref_fft2d_args a = {.mode = TOSA_REF_DOT_RESULT};
   expect_status(tosa_ref_fft2d(&a, re, im, or_, oi), TOSA_REF_OK, "fft cosine");
   double worst = 0.0;
   for (int64_t h = 0; h < 8; h++) {
      for (int64_t w = 0; w < 16; w++) {
         double want = (h == 1 && w == 3) || (h == 7 && w == 13) ? 64.0 : 0.0;
         double e = fabs(ref_tensor_get_fp(or_, h * 16 + w) - want) +
                    fabs(ref_tensor_get_fp(oi, h * 16 + w));
         worst = e > worst ? e : worst;
      }
   }
   /* The input is rounded to fp32 (2^-24 relative): 128 terms, far below 1e-4. */
   ok(worst < 1e-4, "fft cosine spectrum: worst error %g", worst);

   /* RFFT2D of the same input: the first W/2 + 1 = 9 columns, 64 at (1, 3) only. */
   const int64_t oshape[3] = {1, 8, 9};
   struct ref_tensor *rr = tz(REF_DTYPE_FP64, 3, oshape), *ri = tz(REF_DTYPE_FP64, 3, oshape);
   expect_status(tosa_ref_rfft2d(&a, re, rr, ri), TOSA_REF_OK, "rfft cosine");
   worst = 0.0;
   for (int64_t i = 0; i < 72; i++) {
      double want = i == 1 * 9 + 3 ? 64.0 : 0.0;
      double e = fabs(ref_tensor_get_fp(rr, i) - want) + fabs(ref_tensor_get_fp(ri, i));
      worst = e > worst ? e : worst;
   }
   ok(worst < 1e-4, "rfft cosine spectrum: worst error %g", worst);
   /* The four purely real bins of RFFT2D are exactly 0 in the imaginary part. */
   ok(ref_tensor_get_fp(ri, 0) == 0.0 && ref_tensor_get_fp(ri, 8) == 0.0 &&
          ref_tensor_get_fp(ri, 4 * 9) == 0.0 && ref_tensor_get_fp(ri, 4 * 9 + 8) == 0.0,
      "rfft real bins");

   /* Inverse of [3 - i, -1 + 7i] (1x1x2) is 2 * [1 + 3i, 2 - 4i]. */
   const int64_t s2[3] = {1, 1, 2};
   struct ref_tensor *o2r = tz(REF_DTYPE_FP32, 3, s2), *o2i = tz(REF_DTYPE_FP32, 3, s2);
   a.inverse = true;
   expect_status(tosa_ref_fft2d(&a, tf(REF_DTYPE_FP32, 3, s2, (double[]){3, -1}),
                                tf(REF_DTYPE_FP32, 3, s2, (double[]){-1, 7}), o2r, o2i),
                 TOSA_REF_OK, "inverse 2-point");
   expect_fps(o2r, (double[]){2, 4}, 2, "inverse 2-point real");
   ok(fabs(ref_tensor_get_fp(o2i, 0) - 6) < 1e-5 && fabs(ref_tensor_get_fp(o2i, 1) + 8) < 1e-5,
      "inverse 2-point imag");

   /* ERROR_IF(!power_of_two(W)). */
   const int64_t bad[3] = {1, 2, 6};
   expect_status(tosa_ref_fft2d(&a, tz(REF_DTYPE_FP32, 3, bad), tz(REF_DTYPE_FP32, 3, bad),
                                tz(REF_DTYPE_FP32, 3, bad), tz(REF_DTYPE_FP32, 3, bad)),
                 TOSA_REF_ERROR, "fft W = 6");
}
