/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): MAX_POOL2D (tensor_ops.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* ---------------------------------------------------------------------------------------------
 * MAX_POOL2D (MAX_POOL2D.tosac)
 */

static struct tosa_ref_max_pool2d_args
pool_args(int32_t ky, int32_t kx, int32_t sy, int32_t sx, int32_t pt, int32_t pb, int32_t pl,
          int32_t pr, enum tosa_ref_nan_mode mode)
{
   return (struct tosa_ref_max_pool2d_args){
       .kernel = {ky, kx}, .stride = {sy, sx}, .pad = {pt, pb, pl, pr}, .nan_mode = mode};
}

void
test_max_pool2d(void)
{
   const enum tosa_ref_nan_mode P = TOSA_REF_NAN_PROPAGATE, I = TOSA_REF_NAN_IGNORE;
   struct tosa_ref_max_pool2d_args a;
   struct ref_tensor *o;

   /* 3x3 of 1..9, 2x2 windows, stride 1: OH = (3 - 2) / 1 + 1 = 2; maxima 5, 6, 8, 9. */
   a = pool_args(2, 2, 1, 1, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a,
                                     ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1},
                                        (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
                                     o),
                 TOSA_REF_OK, "i8 2x2");
   expect_ints(o, (int64_t[]){5, 6, 8, 9}, 4, "i8 2x2");

   /* Padding never wins: 3x3 windows with pad 1 over a 2x2 of negatives (OH = (2 + 2 - 3) + 1
    * = 2) each see all four values: -10, not a padded 0. */
   a = pool_args(3, 3, 1, 1, 1, 1, 1, 1, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(
       tosa_ref_max_pool2d(
           &a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){-10, -20, -30, -40}), o),
       TOSA_REF_OK, "padding");
   expect_ints(o, (int64_t[]){-10, -10, -10, -10}, 4, "padding never wins");

   /* pad_left 1 only, kernel 1x2, stride_x 2: OW = (3 + 1 - 2) / 2 + 1 = 2; ox 0 sees x = -1, 0
    * -> 1; ox 1 sees x = 1, 2 -> max(5, 3) = 5. */
   a = pool_args(1, 2, 1, 2, 0, 0, 1, 0, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_max_pool2d(
                     &a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1}, (int64_t[]){1, 5, 3}), o),
                 TOSA_REF_OK, "left pad, stride 2");
   expect_ints(o, (int64_t[]){1, 5}, 2, "left pad, stride 2");

   /* 4x4 of 0..15, 2x2 windows, stride 2: maxima at (1,1), (1,3), (3,1), (3,3) = 5, 7, 13, 15. */
   int64_t v16[16];
   for (int64_t i = 0; i < 16; i++)
      v16[i] = i;
   a = pool_args(2, 2, 2, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_I16, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 4, 4, 1}, v16), o),
                 TOSA_REF_OK, "stride 2");
   expect_ints(o, (int64_t[]){5, 7, 13, 15}, 4, "stride 2");

   /* N = 2, C = 2, kernel 2x1 over IH = 2: per (n, c) the max of two rows:
    * n0: c0 max(1, 3) = 3, c1 max(-1, -3) = -1; n1: c0 max(-5, -7) = -5, c1 max(5, 7) = 7. */
   a = pool_args(2, 1, 1, 1, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){2, 1, 1, 2});
   expect_status(tosa_ref_max_pool2d(&a,
                                     ti(REF_DTYPE_I8, 4, (int64_t[]){2, 2, 1, 2},
                                        (int64_t[]){1, -1, 3, -3, -5, 5, -7, 7}),
                                     o),
                 TOSA_REF_OK, "batch and channels");
   expect_ints(o, (int64_t[]){3, -1, -5, 7}, 4, "batch and channels");

   /* i16 at minimum_s<i16>: the initial value -32768 is also the answer. */
   a = pool_args(1, 2, 1, 1, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(
       tosa_ref_max_pool2d(
           &a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 2, 1}, (int64_t[]){-32768, -32768}), o),
       TOSA_REF_OK, "i16 minimum");
   expect_ints(o, (int64_t[]){-32768}, 1, "i16 minimum");

   /* fp32 NaN modes, windows (1, NaN), (NaN, NaN), (-inf, -inf):
    * PROPAGATE: acc = -inf, any NaN makes it NaN: NaN, NaN, -inf.
    * IGNORE: acc starts at NaN, apply_max_s returns the non-NaN operand: 1, NaN (all NaN),
    * -inf. */
   const double fin[] = {1.0, NAN, NAN, NAN, -INFINITY, -INFINITY};
   a = pool_args(1, 2, 1, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 3, 1});
   expect_status(tosa_ref_max_pool2d(&a, tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 6, 1}, fin), o),
                 TOSA_REF_OK, "fp32 propagate");
   expect_fps(o, (double[]){NAN, NAN, -INFINITY}, 3, "fp32 propagate");
   a.nan_mode = I;
   expect_status(tosa_ref_max_pool2d(&a, tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 6, 1}, fin), o),
                 TOSA_REF_OK, "fp32 ignore");
   expect_fps(o, (double[]){1.0, NAN, -INFINITY}, 3, "fp32 ignore");

   /* fp8e4m3: minimum_s is -448 (no -inf): (-448, -448) -> -448 = 0xFE; (-1, -0) -> -0 (0x80):
    * apply_max_s(-1, -0) returns b. IGNORE: (NaN, 1.0) -> 1.0 = 0x38. */
   a = pool_args(1, 2, 1, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a,
                                     tbits(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 4, 1},
                                           (uint64_t[]){0xFE, 0xFE, 0xB8, 0x80}),
                                     o),
                 TOSA_REF_OK, "e4m3");
   expect_bits(o, (uint64_t[]){0xFE, 0x80}, 2, "e4m3");
   a.nan_mode = I;
   o = tz(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(
       tosa_ref_max_pool2d(
           &a, tbits(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 2, 1}, (uint64_t[]){0x7F, 0x38}), o),
       TOSA_REF_OK, "e4m3 ignore");
   expect_bits(o, (uint64_t[]){0x38}, 1, "e4m3 ignore");

   /* fp8e5m2: windows (-inf, -inf) and (2^-16, NaN): PROPAGATE -inf (0xFC), NaN (0x7E);
    * IGNORE -inf, 2^-16 (0x01). */
   const uint64_t e5[] = {0xFC, 0xFC, 0x01, 0x7D};
   a = pool_args(1, 2, 1, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_FP8E5M2, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(
       tosa_ref_max_pool2d(&a, tbits(REF_DTYPE_FP8E5M2, 4, (int64_t[]){1, 1, 4, 1}, e5), o),
       TOSA_REF_OK, "e5m2 propagate");
   expect_bits(o, (uint64_t[]){0xFC, 0x7E}, 2, "e5m2 propagate");
   a.nan_mode = I;
   expect_status(
       tosa_ref_max_pool2d(&a, tbits(REF_DTYPE_FP8E5M2, 4, (int64_t[]){1, 1, 4, 1}, e5), o),
       TOSA_REF_OK, "e5m2 ignore");
   expect_bits(o, (uint64_t[]){0xFC, 0x01}, 2, "e5m2 ignore");

   /* fp16: (-0, +0): acc -inf -> -0 -> apply_max_s(-0, +0) keeps -0 (0x8000); (65504, -inf)
    * -> 0x7BFF. bf16 2x2 of 1..4 -> 4.0 = 0x4080. */
   a = pool_args(1, 2, 1, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_FP16, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a,
                                     tf(REF_DTYPE_FP16, 4, (int64_t[]){1, 1, 4, 1},
                                        (double[]){-0.0, 0.0, 65504.0, -INFINITY}),
                                     o),
                 TOSA_REF_OK, "fp16");
   expect_bits(o, (uint64_t[]){0x8000, 0x7BFF}, 2, "fp16");
   a = pool_args(2, 2, 1, 1, 0, 0, 0, 0, I);
   o = tz(REF_DTYPE_BF16, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(
       tosa_ref_max_pool2d(
           &a, tf(REF_DTYPE_BF16, 4, (int64_t[]){1, 2, 2, 1}, (double[]){1.0, 2.0, 3.0, 4.0}), o),
       TOSA_REF_OK, "bf16");
   expect_bits(o, (uint64_t[]){0x4080}, 1, "bf16");

   /* ERROR_IFs, in MAX_POOL2D.tosac's order. Input [1,4,4,1]. */
   struct ref_tensor *in = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 4, 4, 1});
   struct ref_tensor *o3 = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1});
   a = pool_args(0, 2, 1, 1, 0, 0, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, o3), TOSA_REF_ERROR, "kernel_y 0");
   a = pool_args(2, 2, 1, 0, 0, 0, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, o3), TOSA_REF_ERROR, "stride_x 0");
   a = pool_args(2, 2, 1, 1, 0, -1, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, o3), TOSA_REF_ERROR, "pad_bottom -1");
   a = pool_args(2, 2, 1, 1, 0, 0, 2, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 5, 1})),
                 TOSA_REF_ERROR, "pad_left 2 >= kernel_x 2");
   a = pool_args(2, 2, 1, 1, 0, 2, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 5, 3, 1})),
                 TOSA_REF_ERROR, "pad_bottom 2 >= kernel_y 2");
   a = pool_args(2, 2, 3, 1, 0, 0, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1})),
                 TOSA_REF_ERROR, "idiv_check: (4 - 2) % 3 != 0");
   a = pool_args(2, 2, 1, 1, 0, 0, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 2, 1})),
                 TOSA_REF_ERROR, "OW 2 != 3");
   expect_status(tosa_ref_max_pool2d(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 2})),
                 TOSA_REF_ERROR, "output C differs");
   expect_status(tosa_ref_max_pool2d(&a, tz(REF_DTYPE_I8, 3, (int64_t[]){4, 4, 1}), o3),
                 TOSA_REF_ERROR, "rank 3 input");
   expect_status(tosa_ref_max_pool2d(&a, tz(REF_DTYPE_I32, 4, (int64_t[]){1, 4, 4, 1}),
                                     tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 3, 1})),
                 TOSA_REF_UNSUPPORTED, "i32 MAX_POOL2D has no row");
   expect_status(tosa_ref_max_pool2d(&a, in, tz(REF_DTYPE_I16, 4, (int64_t[]){1, 3, 3, 1})),
                 TOSA_REF_UNSUPPORTED, "output type differs");
   a.nan_mode = (enum tosa_ref_nan_mode)3;
   expect_status(tosa_ref_max_pool2d(&a, in, o3), TOSA_REF_UNSUPPORTED, "nan_mode 3");

   /* LEVEL_CHECK(kernel_y <= MAX_KERNEL 8192): kernel 8193 over IH 8193 (OH 1) is
    * unpredictable at 8K and fine at level none; the single 5 is the max. */
   struct ref_tensor *tall = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 8193, 1, 1});
   ref_tensor_set_int(tall, 4000, 5);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1});
   a = pool_args(8193, 1, 1, 1, 0, 0, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, tall, o), TOSA_REF_UNPREDICTABLE, "kernel 8193 at 8K");
   a.level_none = true;
   expect_status(tosa_ref_max_pool2d(&a, tall, o), TOSA_REF_OK, "kernel 8193 at level none");
   expect_ints(o, (int64_t[]){5}, 1, "kernel 8193");
   /* stride_y 8193 over IH 8194, kernel 1: OH = 8193 / 8193 + 1 = 2, rows 0 and 8193. */
   struct ref_tensor *taller = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 8194, 1, 1});
   ref_tensor_set_int(taller, 0, 3);
   ref_tensor_set_int(taller, 8193, 4);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 1, 1});
   a = pool_args(1, 1, 8193, 1, 0, 0, 0, 0, P);
   expect_status(tosa_ref_max_pool2d(&a, taller, o), TOSA_REF_UNPREDICTABLE, "stride 8193 at 8K");
   a.level_none = true;
   expect_status(tosa_ref_max_pool2d(&a, taller, o), TOSA_REF_OK, "stride 8193 at level none");
   expect_ints(o, (int64_t[]){3, 4}, 2, "stride 8193");
}
