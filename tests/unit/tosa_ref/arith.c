/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): INTDIV (ewise_binary.adoc), ABS and
 * NEGATE (ewise_unary.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

void
test_intdiv(void)
{
   const int64_t s8[] = {8};
   /* apply_intdiv_s truncates toward zero: 7/2 = 3, -7/2 = -3, 7/-2 = -3, -7/-2 = 3, 1/3 = 0,
    * INT32_MIN / 1 = INT32_MIN, INT32_MAX / -1 = -INT32_MAX, INT32_MIN / 2 = -2^30. */
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, s8);
   expect_status(tosa_ref_intdiv(ti(REF_DTYPE_I32, 1, s8,
                                    (int64_t[]){7, -7, 7, -7, 1, I32_MIN, I32_MAX, I32_MIN}),
                                 ti(REF_DTYPE_I32, 1, s8, (int64_t[]){2, 2, -2, -2, 3, 1, -1, 2}),
                                 o),
                 TOSA_REF_OK, "INTDIV");
   expect_ints(o, (int64_t[]){3, -3, -3, 3, 0, I32_MIN, -I32_MAX, -(INT64_C(1) << 30)}, 8,
               "INTDIV");

   /* Broadcast [2,1] / [1,2]: {100, -9} / {10, -4} = 10 -25 / 0 2 (-9/10 = 0, -9/-4 = 2). */
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   expect_status(tosa_ref_intdiv(ti(REF_DTYPE_I32, 2, (int64_t[]){2, 1}, (int64_t[]){100, -9}),
                                 ti(REF_DTYPE_I32, 2, (int64_t[]){1, 2}, (int64_t[]){10, -4}), o),
                 TOSA_REF_OK, "INTDIV broadcast");
   expect_ints(o, (int64_t[]){10, -25, 0, 2}, 4, "INTDIV broadcast");

   /* REQUIRE(value2 != 0) and the range REQUIRE of apply_intdiv_s: UNPREDICTABLE, with the
    * documented results 5 / 0 = 0 and INT32_MIN / -1 = INT32_MIN (2^31 wrapped). */
   const int64_t s2[] = {2};
   o = tz(REF_DTYPE_I32, 1, s2);
   expect_status(tosa_ref_intdiv(ti(REF_DTYPE_I32, 1, s2, (int64_t[]){5, 6}),
                                 ti(REF_DTYPE_I32, 1, s2, (int64_t[]){0, 3}), o),
                 TOSA_REF_UNPREDICTABLE, "INTDIV by 0");
   expect_ints(o, (int64_t[]){0, 2}, 2, "x / 0 gives 0");
   expect_status(tosa_ref_intdiv(ti(REF_DTYPE_I32, 1, s2, (int64_t[]){I32_MIN, I32_MIN}),
                                 ti(REF_DTYPE_I32, 1, s2, (int64_t[]){-1, -2}), o),
                 TOSA_REF_UNPREDICTABLE, "INT32_MIN / -1");
   expect_ints(o, (int64_t[]){I32_MIN, INT64_C(1) << 30}, 2, "INT32_MIN / -1 wraps");

   /* Rows: i32 only. */
   const int64_t s1[] = {1};
   expect_status(tosa_ref_intdiv(tz(REF_DTYPE_I16, 1, s1), tz(REF_DTYPE_I16, 1, s1),
                                 tz(REF_DTYPE_I16, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i16 INTDIV has no row");
   expect_status(tosa_ref_intdiv(tz(REF_DTYPE_FP32, 1, s1), tz(REF_DTYPE_FP32, 1, s1),
                                 tz(REF_DTYPE_FP32, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "fp32 INTDIV has no row");
}

void
test_abs_negate(void)
{
   const int64_t s4[] = {4};
   /* ABS i32: 0, 5, -5 -> 5, INT32_MAX; INT32_MIN + 1 -> INT32_MAX. */
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, s4);
   expect_status(tosa_ref_abs(ti(REF_DTYPE_I32, 1, s4, (int64_t[]){0, 5, -5, I32_MIN + 1}), o),
                 TOSA_REF_OK, "ABS i32");
   expect_ints(o, (int64_t[]){0, 5, 5, I32_MAX}, 4, "ABS i32");
   /* ABS(INT32_MIN): apply_sub_s(0, value1) leaves the range: documented INT32_MAX. */
   expect_status(tosa_ref_abs(ti(REF_DTYPE_I32, 1, s4, (int64_t[]){I32_MIN, -1, 1, 0}), o),
                 TOSA_REF_UNPREDICTABLE, "ABS(INT32_MIN)");
   expect_ints(o, (int64_t[]){I32_MAX, 1, 1, 0}, 4, "ABS(INT32_MIN) gives INT32_MAX");

   /* ABS fp16 (the floating-point behavior table): -0 -> +0, -inf -> +inf, -1.5 -> 1.5,
    * -0.5 -> 0.5 (a fractional value: the text's static_cast<int32_t> would keep it), NaN ->
    * NaN, 2 -> 2. */
   const int64_t s6[] = {6};
   struct ref_tensor *of = tz(REF_DTYPE_FP16, 1, s6);
   expect_status(
       tosa_ref_abs(tf(REF_DTYPE_FP16, 1, s6, (double[]){-0.0, -INFINITY, -1.5, -0.5, NAN, 2.0}),
                    of),
       TOSA_REF_OK, "ABS fp16");
   expect_fps(of, (double[]){0.0, INFINITY, 1.5, 0.5, NAN, 2.0}, 6, "ABS fp16");

   /* NEGATE i8 with zero points: clip(-(x - izp) + ozp) to [-128, 127] in i32.
    * izp = 3, ozp = -2: x = 10 -> -9; x = -128 -> 129 clipped to 127; x = 127 -> -126;
    * x = 3 -> -2. */
   o = tz(REF_DTYPE_I8, 1, s4);
   expect_status(tosa_ref_negate(ti(REF_DTYPE_I8, 1, s4, (int64_t[]){10, -128, 127, 3}),
                                 t1(REF_DTYPE_I8, 3), t1(REF_DTYPE_I8, -2), o),
                 TOSA_REF_OK, "NEGATE i8 zp");
   expect_ints(o, (int64_t[]){-9, 127, -126, -2}, 4, "NEGATE i8 zp");
   /* izp = -128, ozp = 127: x = 127 -> -255 + 127 = -128; x = -128 -> 0 + 127 = 127;
    * x = 0 -> -128 + 127 = -1; x = -1 -> -127 + 127 = 0. */
   expect_status(tosa_ref_negate(ti(REF_DTYPE_I8, 1, s4, (int64_t[]){127, -128, 0, -1}),
                                 t1(REF_DTYPE_I8, -128), t1(REF_DTYPE_I8, 127), o),
                 TOSA_REF_OK, "NEGATE i8 extreme zp");
   expect_ints(o, (int64_t[]){-128, 127, -1, 0}, 4, "NEGATE i8 extreme zp");
   /* i16: -(-32768) = 32768 clips to 32767 (defined: acc_t is i32); 32767 -> -32767. */
   struct ref_tensor *o16 = tz(REF_DTYPE_I16, 1, (int64_t[]){2});
   expect_status(tosa_ref_negate(ti(REF_DTYPE_I16, 1, (int64_t[]){2}, (int64_t[]){-32768, 32767}),
                                 t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I16, 0), o16),
                 TOSA_REF_OK, "NEGATE i16");
   expect_ints(o16, (int64_t[]){32767, -32767}, 2, "NEGATE i16 clips");
   /* i32: -(INT32_MIN) overflows apply_sub_s<i32>: documented INT32_MAX; INT32_MAX -> -INT32_MAX.
    */
   o = tz(REF_DTYPE_I32, 1, (int64_t[]){2});
   expect_status(
       tosa_ref_negate(ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){I32_MIN, I32_MAX}),
                       t1(REF_DTYPE_I32, 0), t1(REF_DTYPE_I32, 0), o),
       TOSA_REF_UNPREDICTABLE, "NEGATE(INT32_MIN)");
   expect_ints(o, (int64_t[]){I32_MAX, -I32_MAX}, 2, "NEGATE(INT32_MIN) gives INT32_MAX");

   /* NEGATE fp32 (the table): +0 -> -0, -0 -> +0, inf -> -inf, -inf -> inf, NaN -> NaN,
    * 1.25 -> -1.25. */
   struct ref_tensor *o32 = tz(REF_DTYPE_FP32, 1, s6);
   expect_status(tosa_ref_negate(tf(REF_DTYPE_FP32, 1, s6,
                                    (double[]){0.0, -0.0, INFINITY, -INFINITY, NAN, 1.25}),
                                 t1f(REF_DTYPE_FP32, 0.0), t1f(REF_DTYPE_FP32, -0.0), o32),
                 TOSA_REF_OK, "NEGATE fp32");
   expect_fps(o32, (double[]){-0.0, 0.0, -INFINITY, INFINITY, NAN, -1.25}, 6, "NEGATE fp32");

   /* ERROR_IF(!is_same<in_out_t,i8_t>() && zp != 0), for each zero point; zero points of
    * another type than the input match no row; shape [1] required. */
   const int64_t s1[] = {1};
   expect_status(tosa_ref_negate(tz(REF_DTYPE_I16, 1, s1), t1(REF_DTYPE_I16, 1),
                                 t1(REF_DTYPE_I16, 0), tz(REF_DTYPE_I16, 1, s1)),
                 TOSA_REF_ERROR, "i16 input1_zp 1");
   expect_status(tosa_ref_negate(tz(REF_DTYPE_I32, 1, s1), t1(REF_DTYPE_I32, 0),
                                 t1(REF_DTYPE_I32, -1), tz(REF_DTYPE_I32, 1, s1)),
                 TOSA_REF_ERROR, "i32 output_zp -1");
   expect_status(tosa_ref_negate(tz(REF_DTYPE_FP16, 1, s1), t1f(REF_DTYPE_FP16, 0.5),
                                 t1f(REF_DTYPE_FP16, 0.0), tz(REF_DTYPE_FP16, 1, s1)),
                 TOSA_REF_ERROR, "fp16 input1_zp 0.5");
   expect_status(tosa_ref_negate(tz(REF_DTYPE_I8, 1, s1), t1(REF_DTYPE_I32, 0), t1(REF_DTYPE_I8, 0),
                                 tz(REF_DTYPE_I8, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i8 input with an i32 zero point");
   expect_status(tosa_ref_negate(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, (int64_t[]){2}),
                                 t1(REF_DTYPE_I8, 0), tz(REF_DTYPE_I8, 1, s1)),
                 TOSA_REF_ERROR, "input1_zp of shape [2]");
   expect_status(tosa_ref_abs(tz(REF_DTYPE_I16, 1, s1), tz(REF_DTYPE_I16, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i16 ABS has no row");
}
