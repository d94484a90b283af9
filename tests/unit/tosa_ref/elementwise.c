/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): ADD, SUB, MUL (ewise_binary.adoc) and
 * CLAMP (activation_funcs.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* ---------------------------------------------------------------------------------------------
 * ADD, SUB (ADD.tosac, SUB.tosac, apply_add_s / apply_sub_s, broadcast_shape.tosac)
 */

void
test_add(void)
{
   const int64_t s3[] = {3};
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, s3);
   /* Plain sums; INT32_MAX + INT32_MIN = -1 stays in range. */
   expect_status(tosa_ref_add(ti(REF_DTYPE_I32, 1, s3, (int64_t[]){1, -2, I32_MAX}),
                              ti(REF_DTYPE_I32, 1, s3, (int64_t[]){10, 20, I32_MIN}), o),
                 TOSA_REF_OK, "i32 add");
   expect_ints(o, (int64_t[]){11, 18, -1}, 3, "i32 add");

   /* broadcast_shape([2,1], [1,3]) = [2,3]; apply_broadcast reads index 0 on the size-1 axes:
    * out[i][j] = a[i] + b[j] = [1+10, 1+20, 1+30, 2+10, 2+20, 2+30]. */
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   expect_status(tosa_ref_add(ti(REF_DTYPE_I32, 2, (int64_t[]){2, 1}, (int64_t[]){1, 2}),
                              ti(REF_DTYPE_I32, 2, (int64_t[]){1, 3}, (int64_t[]){10, 20, 30}), o),
                 TOSA_REF_OK, "broadcast both ways");
   expect_ints(o, (int64_t[]){11, 21, 31, 12, 22, 32}, 6, "broadcast both ways");

   /* Rank 0: for_each_data_position runs once. */
   o = tz(REF_DTYPE_I32, 0, NULL);
   expect_status(tosa_ref_add(ti(REF_DTYPE_I32, 0, NULL, (int64_t[]){5}),
                              ti(REF_DTYPE_I32, 0, NULL, (int64_t[]){7}), o),
                 TOSA_REF_OK, "rank 0");
   expect_ints(o, (int64_t[]){12}, 1, "rank 0: 5 + 7");

   /* apply_add_s: REQUIRE(c within int32) fails at both ends. */
   const int64_t s1[] = {1};
   o = tz(REF_DTYPE_I32, 1, s1);
   expect_status(tosa_ref_add(t1(REF_DTYPE_I32, I32_MAX), t1(REF_DTYPE_I32, 1), o),
                 TOSA_REF_UNPREDICTABLE, "INT32_MAX + 1 overflows");
   expect_status(tosa_ref_add(t1(REF_DTYPE_I32, I32_MIN), t1(REF_DTYPE_I32, -1), o),
                 TOSA_REF_UNPREDICTABLE, "INT32_MIN - 1 overflows");

   /* broadcast_shape ERROR_IFs and the output shape check. */
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 1, s3), tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3}), o),
                 TOSA_REF_ERROR, "rank 1 + rank 2");
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 1, (int64_t[]){2}), tz(REF_DTYPE_I32, 1, s3),
                              tz(REF_DTYPE_I32, 1, s3)),
                 TOSA_REF_ERROR, "[2] + [3] do not broadcast");
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3}),
                              tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3}),
                              tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3})),
                 TOSA_REF_ERROR, "output [1,3] is not broadcast_shape [2,3]");

   /* Rows: i32, fp16, bf16, fp32, each type throughout. */
   expect_status(
       tosa_ref_add(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1)),
       TOSA_REF_UNSUPPORTED, "i8 ADD has no row");
   expect_status(
       tosa_ref_add(tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_FP32, 1, s1)),
       TOSA_REF_UNSUPPORTED, "i32 + i32 -> fp32 has no row");
   expect_status(tosa_ref_add(tz(REF_DTYPE_FP16, 1, s1), tz(REF_DTYPE_FP32, 1, s1),
                              tz(REF_DTYPE_FP32, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "fp16 + fp32 has no row");
   expect_status(tosa_ref_add(tz(REF_DTYPE_FP8E4M3, 1, s1), tz(REF_DTYPE_FP8E4M3, 1, s1),
                              tz(REF_DTYPE_FP8E4M3, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "fp8 ADD has no row");

   /* fp32, one rounding of the exact sum: 1.5 + 2.25 = 3.75 exactly; 1 + 2^-24 is a tie
    * between 1.0 (even) and 1 + 2^-23; 1 + 3 * 2^-24 a tie between 1 + 2^-23 (odd) and
    * 1 + 2^-22; inf + -inf and NaN + 1 are NaN; FLT_MAX + FLT_MAX overflows to +inf. The FP64
    * output keeps the exact sums. */
   const int64_t s6[] = {6};
   const double fa[] = {1.5, 1.0, 1.0, INFINITY, NAN, 0x1.fffffep127};
   const double fb[] = {2.25, 0x1p-24, 0x3p-24, -INFINITY, 1.0, 0x1.fffffep127};
   o = tz(REF_DTYPE_FP32, 1, s6);
   expect_status(tosa_ref_add(tf(REF_DTYPE_FP32, 1, s6, fa), tf(REF_DTYPE_FP32, 1, s6, fb), o),
                 TOSA_REF_OK, "fp32 add");
   expect_fps(o, (double[]){3.75, 1.0, 1.0 + 0x1p-22, NAN, NAN, INFINITY}, 6, "fp32 add");
   o = tz(REF_DTYPE_FP64, 1, s6);
   expect_status(tosa_ref_add(tf(REF_DTYPE_FP32, 1, s6, fa), tf(REF_DTYPE_FP32, 1, s6, fb), o),
                 TOSA_REF_OK, "fp32 add, fp64 output");
   expect_fps(o, (double[]){3.75, 1.0 + 0x1p-24, 1.0 + 0x3p-24, NAN, NAN, 0x1.fffffep128}, 6,
              "fp32 add, unrounded");

   /* fp16: 1 + 2^-11 ties to 0x3C00; 1 + 3 * 2^-11 ties to 0x3C02; 65504 + 16 = 65520 is the
    * tie to 2^16: +inf; 65504 + 8 = 65512 rounds down to 65504; 2^-24 + 2^-24 = 2^-23 is the
    * subnormal 0x0002; -0 + -0 = -0. */
   o = tz(REF_DTYPE_FP16, 1, s6);
   expect_status(
       tosa_ref_add(
           tf(REF_DTYPE_FP16, 1, s6, (double[]){1.0, 1.0, 65504.0, 65504.0, 0x1p-24, -0.0}),
           tf(REF_DTYPE_FP16, 1, s6, (double[]){0x1p-11, 0x3p-11, 16.0, 8.0, 0x1p-24, -0.0}), o),
       TOSA_REF_OK, "fp16 add");
   expect_bits(o, (uint64_t[]){0x3C00, 0x3C02, 0x7C00, 0x7BFF, 0x0002, 0x8000}, 6, "fp16 add");

   /* bf16: 1 + 2^-8 ties to 0x3F80; 1 + 3 * 2^-8 ties to 0x3F82; -0 + +0 = +0. */
   o = tz(REF_DTYPE_BF16, 1, s3);
   expect_status(tosa_ref_add(tf(REF_DTYPE_BF16, 1, s3, (double[]){1.0, 1.0, -0.0}),
                              tf(REF_DTYPE_BF16, 1, s3, (double[]){0x1p-8, 0x3p-8, 0.0}), o),
                 TOSA_REF_OK, "bf16 add");
   expect_bits(o, (uint64_t[]){0x3F80, 0x3F82, 0x0000}, 3, "bf16 add");
}

void
test_sub(void)
{
   const int64_t s3[] = {3};
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, s3);
   /* -1 - INT32_MAX = INT32_MIN exactly: in range. */
   expect_status(tosa_ref_sub(ti(REF_DTYPE_I32, 1, s3, (int64_t[]){5, -3, -1}),
                              ti(REF_DTYPE_I32, 1, s3, (int64_t[]){7, -3, I32_MAX}), o),
                 TOSA_REF_OK, "i32 sub");
   expect_ints(o, (int64_t[]){-2, 0, I32_MIN}, 3, "i32 sub");

   /* [1,2] - [3,1] -> [3,2]: out[i][j] = a[j] - b[i] = [10-1, 20-1, 10-2, 20-2, 10-3, 20-3]. */
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2});
   expect_status(tosa_ref_sub(ti(REF_DTYPE_I32, 2, (int64_t[]){1, 2}, (int64_t[]){10, 20}),
                              ti(REF_DTYPE_I32, 2, (int64_t[]){3, 1}, (int64_t[]){1, 2, 3}), o),
                 TOSA_REF_OK, "sub broadcast");
   expect_ints(o, (int64_t[]){9, 19, 8, 18, 7, 17}, 6, "sub broadcast");

   const int64_t s1[] = {1};
   o = tz(REF_DTYPE_I32, 1, s1);
   expect_status(tosa_ref_sub(t1(REF_DTYPE_I32, I32_MIN), t1(REF_DTYPE_I32, 1), o),
                 TOSA_REF_UNPREDICTABLE, "INT32_MIN - 1");
   expect_status(tosa_ref_sub(t1(REF_DTYPE_I32, 0), t1(REF_DTYPE_I32, I32_MIN), o),
                 TOSA_REF_UNPREDICTABLE, "0 - INT32_MIN = 2^31");
   expect_status(tosa_ref_sub(tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3}),
                              tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2}),
                              tz(REF_DTYPE_I32, 2, (int64_t[]){3, 3})),
                 TOSA_REF_ERROR, "[2,3] - [3,2]");
   expect_status(
       tosa_ref_sub(tz(REF_DTYPE_I16, 1, s1), tz(REF_DTYPE_I16, 1, s1), tz(REF_DTYPE_I16, 1, s1)),
       TOSA_REF_UNSUPPORTED, "i16 SUB has no row");

   /* fp32: 1 - 2^-25 is the tie between 1 - 2^-24 (0x3F7FFFFF, odd) and 1.0: 1.0;
    * inf - inf = NaN; 0 - 0 = +0. */
   o = tz(REF_DTYPE_FP32, 1, s3);
   expect_status(tosa_ref_sub(tf(REF_DTYPE_FP32, 1, s3, (double[]){1.0, INFINITY, 0.0}),
                              tf(REF_DTYPE_FP32, 1, s3, (double[]){0x1p-25, INFINITY, 0.0}), o),
                 TOSA_REF_OK, "fp32 sub");
   expect_fps(o, (double[]){1.0, NAN, 0.0}, 3, "fp32 sub");

   /* fp16: -0 - +0 = -0; 1 - 2^-12 ties between 0x3BFF (odd) and 0x3C00; 3 - 1 = 2. */
   o = tz(REF_DTYPE_FP16, 1, s3);
   expect_status(tosa_ref_sub(tf(REF_DTYPE_FP16, 1, s3, (double[]){-0.0, 1.0, 3.0}),
                              tf(REF_DTYPE_FP16, 1, s3, (double[]){0.0, 0x1p-12, 1.0}), o),
                 TOSA_REF_OK, "fp16 sub");
   expect_bits(o, (uint64_t[]){0x8000, 0x3C00, 0x4000}, 3, "fp16 sub");

   /* bf16: 3 - 1 = 2 (0x4000); 1 - 2^-9 ties between 0x3F7F (odd) and 0x3F80. */
   const int64_t s2[] = {2};
   o = tz(REF_DTYPE_BF16, 1, s2);
   expect_status(tosa_ref_sub(tf(REF_DTYPE_BF16, 1, s2, (double[]){3.0, 1.0}),
                              tf(REF_DTYPE_BF16, 1, s2, (double[]){1.0, 0x1p-9}), o),
                 TOSA_REF_OK, "bf16 sub");
   expect_bits(o, (uint64_t[]){0x4000, 0x3F80}, 2, "bf16 sub");
}

/* ---------------------------------------------------------------------------------------------
 * MUL (MUL.tosac, apply_mul_s)
 */

static int
mul_i32(const int64_t *a, const int64_t *b, int64_t n, int64_t shift, struct ref_tensor **out)
{
   const int64_t s[] = {n};
   *out = tz(REF_DTYPE_I32, 1, s);
   return tosa_ref_mul(ti(REF_DTYPE_I32, 1, s, a), ti(REF_DTYPE_I32, 1, s, b),
                       t1(REF_DTYPE_I8, shift), *out);
}

void
test_mul(void)
{
   const int64_t s1[] = {1}, s2[] = {2}, s3[] = {3};
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, s3);
   /* i8 x i8 -> i32: (-128)^2 = 16384, 127 * -128 = -16256. */
   expect_status(tosa_ref_mul(ti(REF_DTYPE_I8, 1, s3, (int64_t[]){-128, 127, -1}),
                              ti(REF_DTYPE_I8, 1, s3, (int64_t[]){-128, -128, 1}),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "i8 mul");
   expect_ints(o, (int64_t[]){16384, -16256, -1}, 3, "i8 mul");

   /* i16 x i16 -> i32: (-32768)^2 = 2^30, 32767^2 = 2^30 - 2^16 + 1 = 1073676289. */
   o = tz(REF_DTYPE_I32, 1, s2);
   expect_status(tosa_ref_mul(ti(REF_DTYPE_I16, 1, s2, (int64_t[]){-32768, 32767}),
                              ti(REF_DTYPE_I16, 1, s2, (int64_t[]){-32768, 32767}),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "i16 mul");
   expect_ints(o, (int64_t[]){1073741824, 1073676289}, 2, "i16 mul");

   /* i32, shift 0: the low 32 bits (apply_mul_s, no REQUIRE): 2^16 * 2^16 = 2^32 -> 0;
    * 65537^2 = 2^32 + 2^17 + 1 -> 131073; INT32_MIN * -1 = 2^31 -> INT32_MIN. */
   expect_status(
       mul_i32((int64_t[]){65536, 65537, I32_MIN}, (int64_t[]){65536, 65537, -1}, 3, 0, &o),
       TOSA_REF_OK, "i32 mul, shift 0");
   expect_ints(o, (int64_t[]){0, 131073, I32_MIN}, 3, "i32 mul wraps");

   /* shift 1: (p + 1) >> 1, rounding half up: 15 -> 8, -15 -> -14 >> 1 = -7;
    * 46341^2 = 2147488281 (beyond INT32_MAX before the shift) -> 1073744141. */
   expect_status(mul_i32((int64_t[]){3, -3, 46341}, (int64_t[]){5, 5, 46341}, 3, 1, &o),
                 TOSA_REF_OK, "i32 mul, shift 1");
   expect_ints(o, (int64_t[]){8, -7, 1073744141}, 3, "i32 mul, shift 1");

   /* shift 2 (round 2, arithmetic >> is floor): 13 -> 15 >> 2 = 3; -13 -> -11 >> 2 = -3;
    * 14 (3.5) -> 16 >> 2 = 4; -14 (-3.5) -> -12 >> 2 = -3; 10 (2.5) -> 3; -10 (-2.5) -> -2. */
   expect_status(
       mul_i32((int64_t[]){13, -13, 14, -14, 10, -10}, (int64_t[]){1, 1, 1, 1, 1, 1}, 6, 2, &o),
       TOSA_REF_OK, "i32 mul, shift 2");
   expect_ints(o, (int64_t[]){3, -3, 4, -3, 3, -2}, 6, "i32 mul, shift 2 ties");

   /* shift 31: 2^32 -> (2^32 + 2^30) >> 31 = floor(2.5) = 2; -2^32 -> floor(-1.5) = -2.
    * shift 62: (2^62 + 2^61) >> 62 = 1. shift 63 (largest allowed): 2^62 + 2^62 = 2^63 >> 63 = 1,
    * the int64 arithmetic of the pseudocode read as exact; -2^62 + 2^31 + 2^62 = 2^31 >> 63 = 0. */
   expect_status(mul_i32((int64_t[]){65536, -65536}, (int64_t[]){65536, 65536}, 2, 31, &o),
                 TOSA_REF_OK, "shift 31");
   expect_ints(o, (int64_t[]){2, -2}, 2, "shift 31");
   expect_status(mul_i32((int64_t[]){I32_MIN}, (int64_t[]){I32_MIN}, 1, 62, &o), TOSA_REF_OK,
                 "shift 62");
   expect_ints(o, (int64_t[]){1}, 1, "shift 62");
   expect_status(mul_i32((int64_t[]){I32_MIN, I32_MIN}, (int64_t[]){I32_MIN, I32_MAX}, 2, 63, &o),
                 TOSA_REF_OK, "shift 63");
   expect_ints(o, (int64_t[]){1, 0}, 2, "shift 63");

   /* REQUIRE(product within int32) after the shift: INT32_MAX * 2 = 2^32 - 2, + 1, >> 1 =
    * 2^31 - 1 fits; INT32_MAX * 4 >> 1 = 2^32 - 2 does not. */
   expect_status(mul_i32((int64_t[]){I32_MAX}, (int64_t[]){2}, 1, 1, &o), TOSA_REF_OK,
                 "shifted result INT32_MAX");
   expect_ints(o, (int64_t[]){I32_MAX}, 1, "shifted result INT32_MAX");
   expect_status(mul_i32((int64_t[]){I32_MAX}, (int64_t[]){4}, 1, 1, &o), TOSA_REF_UNPREDICTABLE,
                 "shifted result beyond int32");

   /* REQUIRE(0 <= shift <= 63), REQUIRE(i32 || shift == 0). */
   expect_status(mul_i32((int64_t[]){1}, (int64_t[]){1}, 1, 64, &o), TOSA_REF_UNPREDICTABLE,
                 "shift 64");
   expect_status(mul_i32((int64_t[]){1}, (int64_t[]){1}, 1, -1, &o), TOSA_REF_UNPREDICTABLE,
                 "shift -1");
   o = tz(REF_DTYPE_I32, 1, s1);
   expect_status(tosa_ref_mul(t1(REF_DTYPE_I8, 3), t1(REF_DTYPE_I8, 3), t1(REF_DTYPE_I8, 1), o),
                 TOSA_REF_UNPREDICTABLE, "i8 with shift 1");
   expect_status(tosa_ref_mul(t1f(REF_DTYPE_FP32, 3.0), t1f(REF_DTYPE_FP32, 3.0),
                              t1(REF_DTYPE_I8, 1), tz(REF_DTYPE_FP32, 1, s1)),
                 TOSA_REF_UNPREDICTABLE, "fp32 with shift 1");
   /* The REQUIREs come first in MUL.tosac; an ERROR_IF after them registers nothing. */
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I32, 1, s2), tz(REF_DTYPE_I32, 1, s3),
                              t1(REF_DTYPE_I8, 64), tz(REF_DTYPE_I32, 1, s3)),
                 TOSA_REF_UNPREDICTABLE, "bad shift and bad broadcast: unpredictable");
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I32, 1, s2), tz(REF_DTYPE_I32, 1, s3),
                              t1(REF_DTYPE_I8, 0), tz(REF_DTYPE_I32, 1, s3)),
                 TOSA_REF_ERROR, "bad broadcast");
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_I32, 1, s1),
                              t1(REF_DTYPE_I32, 0), tz(REF_DTYPE_I32, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "shift must be i8");
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_I32, 1, s1),
                              tz(REF_DTYPE_I8, 1, s2), tz(REF_DTYPE_I32, 1, s1)),
                 TOSA_REF_ERROR, "shift must have shape [1]");
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1), t1(REF_DTYPE_I8, 0),
                              tz(REF_DTYPE_I8, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i8 x i8 -> i8 has no row");
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I16, 1, s1),
                              t1(REF_DTYPE_I8, 0), tz(REF_DTYPE_I32, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i8 x i16 has no row");
   expect_status(tosa_ref_mul(tz(REF_DTYPE_FP16, 1, s1), tz(REF_DTYPE_FP16, 1, s1),
                              t1(REF_DTYPE_I8, 0), tz(REF_DTYPE_FP32, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "fp16 x fp16 -> fp32 has no row");

   /* Broadcast [2,1] x [1,2]: [2*5, 2*7, 3*5, 3*7]. */
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   expect_status(tosa_ref_mul(ti(REF_DTYPE_I32, 2, (int64_t[]){2, 1}, (int64_t[]){2, 3}),
                              ti(REF_DTYPE_I32, 2, (int64_t[]){1, 2}, (int64_t[]){5, 7}),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "mul broadcast");
   expect_ints(o, (int64_t[]){10, 14, 15, 21}, 4, "mul broadcast");

   /* fp32: 3 * 0.5 = 1.5; (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24, a tie (2^-24 is half an ulp)
    * between 1 + 2^-11 (even) and the next: 1 + 2^-11; 0 * inf = NaN; -2 * 0 = -0. */
   const int64_t s4[] = {4};
   const double ma[] = {3.0, 1.0 + 0x1p-12, 0.0, -2.0};
   const double mb[] = {0.5, 1.0 + 0x1p-12, INFINITY, 0.0};
   o = tz(REF_DTYPE_FP32, 1, s4);
   expect_status(tosa_ref_mul(tf(REF_DTYPE_FP32, 1, s4, ma), tf(REF_DTYPE_FP32, 1, s4, mb),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "fp32 mul");
   expect_fps(o, (double[]){1.5, 1.0 + 0x1p-11, NAN, -0.0}, 4, "fp32 mul");
   o = tz(REF_DTYPE_FP64, 1, s4);
   expect_status(tosa_ref_mul(tf(REF_DTYPE_FP32, 1, s4, ma), tf(REF_DTYPE_FP32, 1, s4, mb),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "fp32 mul, fp64 output");
   expect_fps(o, (double[]){1.5, 1.0 + 0x1p-11 + 0x1p-24, NAN, -0.0}, 4, "fp32 mul, unrounded");

   /* fp16: (1 + 2^-6)^2 = 1 + 2^-5 + 2^-12, a quarter ulp above 1 + 2^-5 = 0x3C20;
    * 256 * 256 = 65536 >= 65520: +inf; -2 * 0 = -0. */
   o = tz(REF_DTYPE_FP16, 1, s3);
   expect_status(tosa_ref_mul(tf(REF_DTYPE_FP16, 1, s3, (double[]){1.0 + 0x1p-6, 256.0, -2.0}),
                              tf(REF_DTYPE_FP16, 1, s3, (double[]){1.0 + 0x1p-6, 256.0, 0.0}),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "fp16 mul");
   expect_bits(o, (uint64_t[]){0x3C20, 0x7C00, 0x8000}, 3, "fp16 mul");

   /* bf16: (1 + 2^-4)^2 = 1 + 2^-3 + 2^-8, a tie between 1.125 (fraction 0010000, even) and
    * 1.125 + 2^-7: 1.125 = 0x3F90. */
   o = tz(REF_DTYPE_BF16, 1, s1);
   expect_status(tosa_ref_mul(t1f(REF_DTYPE_BF16, 1.0625), t1f(REF_DTYPE_BF16, 1.0625),
                              t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "bf16 mul");
   expect_bits(o, (uint64_t[]){0x3F90}, 1, "bf16 mul");
}

/* ---------------------------------------------------------------------------------------------
 * CLAMP (CLAMP.tosac, apply_clip_s with nan_mode)
 */

static int
clamp(enum ref_dtype t, const double *in, int64_t n, double min, double max,
      enum tosa_ref_nan_mode mode, struct ref_tensor **out)
{
   const int64_t s[] = {n};
   struct tosa_ref_clamp_args a = {.min_fp = min, .max_fp = max, .nan_mode = mode};
   *out = tz(t, 1, s);
   return tosa_ref_clamp(&a, tf(t, 1, s, in), *out);
}

static int
clamp_int(enum ref_dtype t, const int64_t *in, int64_t n, int64_t min, int64_t max,
          struct ref_tensor **out)
{
   const int64_t s[] = {n};
   struct tosa_ref_clamp_args a = {
       .min_int = min, .max_int = max, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   *out = tz(t, 1, s);
   return tosa_ref_clamp(&a, ti(t, 1, s, in), *out);
}

void
test_clamp(void)
{
   struct ref_tensor *o;
   /* i8, the example of design.md: max(min(v, 10), -10). */
   expect_status(clamp_int(REF_DTYPE_I8, (int64_t[]){-128, -5, 5, 127}, 4, -10, 10, &o),
                 TOSA_REF_OK, "i8 clamp");
   expect_ints(o, (int64_t[]){-10, -5, 5, 10}, 4, "i8 clamp");
   /* i16 at the type's ends; min == max is allowed (ERROR_IF only for max < min). */
   expect_status(clamp_int(REF_DTYPE_I16, (int64_t[]){-32768, 0, 32767}, 3, -100, 100, &o),
                 TOSA_REF_OK, "i16 clamp");
   expect_ints(o, (int64_t[]){-100, 0, 100}, 3, "i16 clamp");
   expect_status(clamp_int(REF_DTYPE_I16, (int64_t[]){-32768, 0, 32767}, 3, 7, 7, &o), TOSA_REF_OK,
                 "i16 clamp, min == max");
   expect_ints(o, (int64_t[]){7, 7, 7}, 3, "i16 clamp, min == max");
   expect_status(clamp_int(REF_DTYPE_I8, (int64_t[]){0}, 1, -128, 127, &o), TOSA_REF_OK,
                 "i8 full range");
   expect_ints(o, (int64_t[]){0}, 1, "i8 full range");
   expect_status(clamp_int(REF_DTYPE_I8, (int64_t[]){0}, 1, 5, 4, &o), TOSA_REF_ERROR,
                 "ERROR_IF(max_val < min_val)");
   expect_status(clamp_int(REF_DTYPE_I8, (int64_t[]){0}, 1, -129, 4, &o), TOSA_REF_BAD_ARGUMENT,
                 "min_val outside i8");

   /* fp32, PROPAGATE: -inf -> -1, -1.5 -> -1, 0.5, inf -> 1, NaN -> NaN.
    * IGNORE: the NaN gives min_val: apply_max_s(NaN, -1) = -1, then min(-1, 1) = -1. */
   const double fin[] = {-INFINITY, -1.5, 0.5, INFINITY, NAN};
   expect_status(clamp(REF_DTYPE_FP32, fin, 5, -1.0, 1.0, TOSA_REF_NAN_PROPAGATE, &o), TOSA_REF_OK,
                 "fp32 clamp propagate");
   expect_fps(o, (double[]){-1.0, -1.0, 0.5, 1.0, NAN}, 5, "fp32 clamp propagate");
   expect_status(clamp(REF_DTYPE_FP32, fin, 5, -1.0, 1.0, TOSA_REF_NAN_IGNORE, &o), TOSA_REF_OK,
                 "fp32 clamp ignore");
   expect_fps(o, (double[]){-1.0, -1.0, 0.5, 1.0, -1.0}, 5, "fp32 clamp ignore");

   /* fp16 with min +0: apply_max_s(-0, +0) keeps a (-0 >= +0 holds), so -0 stays -0 (the
    * tolerance frees the sign); 65504 -> max 2^-14 (0x0400); the subnormal 2^-24 is inside. */
   expect_status(clamp(REF_DTYPE_FP16, (double[]){-0.0, 65504.0, 0x1p-24}, 3, 0.0, 0x1p-14,
                       TOSA_REF_NAN_PROPAGATE, &o),
                 TOSA_REF_OK, "fp16 clamp");
   expect_bits(o, (uint64_t[]){0x8000, 0x0400, 0x0001}, 3, "fp16 clamp");
   /* bf16 IGNORE: NaN -> min 2 (0x4000); 1 -> 2; 300 -> max 256 (0x4380). */
   expect_status(
       clamp(REF_DTYPE_BF16, (double[]){NAN, 1.0, 300.0}, 3, 2.0, 256.0, TOSA_REF_NAN_IGNORE, &o),
       TOSA_REF_OK, "bf16 clamp ignore");
   expect_bits(o, (uint64_t[]){0x4000, 0x4000, 0x4380}, 3, "bf16 clamp ignore");
   expect_status(clamp(REF_DTYPE_BF16, (double[]){NAN}, 1, 2.0, 256.0, TOSA_REF_NAN_PROPAGATE, &o),
                 TOSA_REF_OK, "bf16 clamp propagate");
   ok(isnan(ref_tensor_get_fp(o, 0)), "bf16 clamp propagate: NaN in, NaN out");

   expect_status(clamp(REF_DTYPE_FP32, (double[]){0.0}, 1, 1.0, -1.0, TOSA_REF_NAN_PROPAGATE, &o),
                 TOSA_REF_ERROR, "float ERROR_IF(max_val < min_val)");
   expect_status(clamp(REF_DTYPE_FP32, (double[]){0.0}, 1, NAN, 1.0, TOSA_REF_NAN_PROPAGATE, &o),
                 TOSA_REF_ERROR, "ERROR_IF(isNaN(min_val))");
   expect_status(clamp(REF_DTYPE_FP16, (double[]){0.0}, 1, -1.0, NAN, TOSA_REF_NAN_IGNORE, &o),
                 TOSA_REF_ERROR, "ERROR_IF(isNaN(max_val))");
   expect_status(clamp(REF_DTYPE_FP16, (double[]){0.0}, 1, 0.1, 1.0, TOSA_REF_NAN_IGNORE, &o),
                 TOSA_REF_BAD_ARGUMENT, "min_val 0.1 is not an fp16 value");
   expect_status(
       clamp(REF_DTYPE_FP32, (double[]){0.0}, 1, -1.0, 1.0, (enum tosa_ref_nan_mode)0, &o),
       TOSA_REF_UNSUPPORTED, "nan_mode 0");
   /* Rows: i8, i16, fp16, bf16, fp32 only (no i32 CLAMP in TOSA 1.0; no fp8). */
   expect_status(clamp_int(REF_DTYPE_I32, (int64_t[]){0}, 1, -1, 1, &o), TOSA_REF_UNSUPPORTED,
                 "i32 CLAMP has no row");
   expect_status(
       clamp(REF_DTYPE_FP8E4M3, (double[]){0.0}, 1, -1.0, 1.0, TOSA_REF_NAN_PROPAGATE, &o),
       TOSA_REF_UNSUPPORTED, "fp8 CLAMP has no row");
   struct tosa_ref_clamp_args a = {.min_int = 0, .max_int = 1, .nan_mode = TOSA_REF_NAN_IGNORE};
   expect_status(
       tosa_ref_clamp(&a, tz(REF_DTYPE_I8, 1, (int64_t[]){2}), tz(REF_DTYPE_I8, 1, (int64_t[]){3})),
       TOSA_REF_ERROR, "output shape differs");
   expect_status(tosa_ref_clamp(&a, tz(REF_DTYPE_I8, 1, (int64_t[]){2}),
                                tz(REF_DTYPE_I16, 1, (int64_t[]){2})),
                 TOSA_REF_UNSUPPORTED, "output type differs");
}
