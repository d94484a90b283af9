/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): EQUAL, GREATER, GREATER_EQUAL
 * (comparison.adoc) and SELECT (ewise_ternary.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

void
test_comparisons(void)
{
   const int64_t s5[] = {5};
   /* i32 pairs (value1, value2): (1, 2) (2, 2) (3, 2) (INT32_MIN, INT32_MAX) (-1, -2).
    * EQUAL 0 1 0 0 0; GREATER 0 0 1 0 1; GREATER_EQUAL 0 1 1 0 1. */
   struct ref_tensor *a = ti(REF_DTYPE_I32, 1, s5, (int64_t[]){1, 2, 3, I32_MIN, -1});
   struct ref_tensor *b = ti(REF_DTYPE_I32, 1, s5, (int64_t[]){2, 2, 2, I32_MAX, -2});
   struct ref_tensor *o = tz(REF_DTYPE_BOOL, 1, s5);
   expect_status(tosa_ref_equal(a, b, o), TOSA_REF_OK, "EQUAL i32");
   expect_ints(o, (int64_t[]){0, 1, 0, 0, 0}, 5, "EQUAL i32");
   expect_status(tosa_ref_greater(a, b, o), TOSA_REF_OK, "GREATER i32");
   expect_ints(o, (int64_t[]){0, 0, 1, 0, 1}, 5, "GREATER i32");
   expect_status(tosa_ref_greater_equal(a, b, o), TOSA_REF_OK, "GREATER_EQUAL i32");
   expect_ints(o, (int64_t[]){0, 1, 1, 0, 1}, 5, "GREATER_EQUAL i32");

   /* fp32 pairs: (-0, +0) (NaN, NaN) (NaN, 1) (inf, inf) (-inf, max) (subnormal 2^-149, 0).
    * EQUAL: 1 (zero sign ignored) 0 0 1 0 0; GREATER: 0 0 0 0 0 1;
    * GREATER_EQUAL: 1 0 0 1 0 1 (a NaN operand is false every time). */
   const int64_t s6[] = {6};
   double tiny = ldexp(1.0, -149);
   struct ref_tensor *x =
       tf(REF_DTYPE_FP32, 1, s6, (double[]){-0.0, NAN, NAN, INFINITY, -INFINITY, tiny});
   struct ref_tensor *y =
       tf(REF_DTYPE_FP32, 1, s6, (double[]){0.0, NAN, 1.0, INFINITY, 0x1.fffffep127, 0.0});
   o = tz(REF_DTYPE_BOOL, 1, s6);
   expect_status(tosa_ref_equal(x, y, o), TOSA_REF_OK, "EQUAL fp32");
   expect_ints(o, (int64_t[]){1, 0, 0, 1, 0, 0}, 6, "EQUAL fp32");
   expect_status(tosa_ref_greater(x, y, o), TOSA_REF_OK, "GREATER fp32");
   expect_ints(o, (int64_t[]){0, 0, 0, 0, 0, 1}, 6, "GREATER fp32");
   expect_status(tosa_ref_greater_equal(x, y, o), TOSA_REF_OK, "GREATER_EQUAL fp32");
   expect_ints(o, (int64_t[]){1, 0, 0, 1, 0, 1}, 6, "GREATER_EQUAL fp32");

   /* bf16 broadcast [2,1] vs [1,2]: {1.5, -2} vs {1.5, -3}: GREATER = 0 1 / 0 1. */
   o = tz(REF_DTYPE_BOOL, 2, (int64_t[]){2, 2});
   expect_status(tosa_ref_greater(tf(REF_DTYPE_BF16, 2, (int64_t[]){2, 1}, (double[]){1.5, -2}),
                                  tf(REF_DTYPE_BF16, 2, (int64_t[]){1, 2}, (double[]){1.5, -3}), o),
                 TOSA_REF_OK, "GREATER bf16 broadcast");
   expect_ints(o, (int64_t[]){0, 1, 0, 1}, 4, "GREATER bf16 broadcast");

   /* Rows: the output is bool; inputs i32, fp16, bf16, fp32 of one type. */
   const int64_t s1[] = {1};
   expect_status(
       tosa_ref_equal(tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_I32, 1, s1)),
       TOSA_REF_UNSUPPORTED, "EQUAL -> i32 has no row");
   expect_status(
       tosa_ref_equal(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_BOOL, 1, s1)),
       TOSA_REF_UNSUPPORTED, "i8 EQUAL has no row");
   expect_status(tosa_ref_greater(tz(REF_DTYPE_FP16, 1, s1), tz(REF_DTYPE_FP32, 1, s1),
                                  tz(REF_DTYPE_BOOL, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "fp16 > fp32 has no row");
   expect_status(tosa_ref_greater(tz(REF_DTYPE_FP16, 1, s5), tz(REF_DTYPE_FP16, 1, s1),
                                  tz(REF_DTYPE_BOOL, 1, s1)),
                 TOSA_REF_ERROR, "output [1] is not broadcast_shape [5]");
}

void
test_select(void)
{
   /* Condition [2,1], input2 [1,3], input3 [1,1] -> [2,3]: row 0 (true) takes input2's
    * 1 2 3, row 1 (false) input3's 9 three times. */
   struct ref_tensor *o = tz(REF_DTYPE_I16, 2, (int64_t[]){2, 3});
   expect_status(tosa_ref_select(ti(REF_DTYPE_BOOL, 2, (int64_t[]){2, 1}, (int64_t[]){1, 0}),
                                 ti(REF_DTYPE_I16, 2, (int64_t[]){1, 3}, (int64_t[]){1, 2, 3}),
                                 ti(REF_DTYPE_I16, 2, (int64_t[]){1, 1}, (int64_t[]){9}), o),
                 TOSA_REF_OK, "SELECT broadcast");
   expect_ints(o, (int64_t[]){1, 2, 3, 9, 9, 9}, 6, "SELECT broadcast");

   /* fp16 bit patterns are copied: a NaN with payload 0x7d01 and -0 (0x8000) arrive as such;
    * the condition alternates. */
   const int64_t s4[] = {4};
   struct ref_tensor *of = tz(REF_DTYPE_FP16, 1, s4);
   expect_status(
       tosa_ref_select(ti(REF_DTYPE_BOOL, 1, s4, (int64_t[]){1, 0, 1, 0}),
                       tbits(REF_DTYPE_FP16, 1, s4, (uint64_t[]){0x7d01, 0x3c00, 0x8000, 0x3c00}),
                       tbits(REF_DTYPE_FP16, 1, s4, (uint64_t[]){0x4000, 0xfc00, 0x4000, 0x0001}),
                       of),
       TOSA_REF_OK, "SELECT fp16");
   expect_bits(of, (uint64_t[]){0x7d01, 0xfc00, 0x8000, 0x0001}, 4, "SELECT fp16 bits");

   /* ERROR_IF(shape != broadcast_shape(broadcast_shape(shape1, shape2), shape3)): [2] and [3]
    * do not broadcast; ranks 1 and 2 differ; an output of the wrong shape. */
   const int64_t s1[] = {1}, s2[] = {2}, s3[] = {3};
   expect_status(tosa_ref_select(tz(REF_DTYPE_BOOL, 1, s2), tz(REF_DTYPE_I8, 1, s3),
                                 tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s3)),
                 TOSA_REF_ERROR, "SELECT [2] with [3]");
   expect_status(tosa_ref_select(tz(REF_DTYPE_BOOL, 1, s1), tz(REF_DTYPE_I8, 1, s3),
                                 tz(REF_DTYPE_I8, 2, (int64_t[]){1, 3}), tz(REF_DTYPE_I8, 1, s3)),
                 TOSA_REF_ERROR, "SELECT rank 1 with rank 2");
   expect_status(tosa_ref_select(tz(REF_DTYPE_BOOL, 1, s1), tz(REF_DTYPE_I8, 1, s3),
                                 tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s2)),
                 TOSA_REF_ERROR, "SELECT output [2] for [3]");
   /* Rows: input1 must be bool; input2, input3 and output one type. */
   expect_status(tosa_ref_select(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1),
                                 tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "SELECT with an i8 condition");
   expect_status(tosa_ref_select(tz(REF_DTYPE_BOOL, 1, s1), tz(REF_DTYPE_FP16, 1, s1),
                                 tz(REF_DTYPE_BF16, 1, s1), tz(REF_DTYPE_FP16, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "SELECT fp16 : bf16");
   expect_status(tosa_ref_select(tz(REF_DTYPE_BOOL, 1, s1), tz(REF_DTYPE_FP8E4M3, 1, s1),
                                 tz(REF_DTYPE_FP8E4M3, 1, s1), tz(REF_DTYPE_FP8E4M3, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "SELECT fp8 has no row");
}
