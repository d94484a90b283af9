/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): the reductions REDUCE_ALL, REDUCE_ANY,
 * REDUCE_MAX, REDUCE_MIN, REDUCE_PRODUCT, REDUCE_SUM (reduction.adoc) and ARGMAX.
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

#include <math.h>

static struct tosa_ref_reduce_args
red(int32_t axis, enum tosa_ref_nan_mode nan_mode)
{
   return (struct tosa_ref_reduce_args){.axis = axis, .nan_mode = nan_mode};
}

void
test_reduce(void)
{
   /* [2,3] = {{1, -2, 3}, {4, 5, -6}}. Axis 0: columns 1+4, -2+5, 3-6 = 5, 3, -3; max 4, 5, 3;
    * min 1, -2, -6. Axis 1: rows 1-2+3 = 2, 4+5-6 = 3; max 3, 5; min -2, -6. */
   const struct ref_tensor *in =
       ti(REF_DTYPE_I32, 2, (int64_t[]){2, 3}, (int64_t[]){1, -2, 3, 4, 5, -6});
   struct ref_tensor *o = tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3});
   struct tosa_ref_reduce_args a = red(0, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_OK, "sum axis 0");
   expect_ints(o, (int64_t[]){5, 3, -3}, 3, "sum axis 0");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MAX, &a, in, o), TOSA_REF_OK, "max axis 0");
   expect_ints(o, (int64_t[]){4, 5, 3}, 3, "max axis 0");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MIN, &a, in, o), TOSA_REF_OK, "min axis 0");
   expect_ints(o, (int64_t[]){1, -2, -6}, 3, "min axis 0");
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 1});
   a = red(1, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_OK, "sum axis 1");
   expect_ints(o, (int64_t[]){2, 3}, 2, "sum axis 1");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MAX, &a, in, o), TOSA_REF_OK, "max axis 1");
   expect_ints(o, (int64_t[]){3, 5}, 2, "max axis 1");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MIN, &a, in, o), TOSA_REF_OK, "min axis 1");
   expect_ints(o, (int64_t[]){-2, -6}, 2, "min axis 1");

   /* i8 max/min at the type's ends: {-128, -128} max -128; {127, 127} min 127. */
   in = ti(REF_DTYPE_I8, 2, (int64_t[]){2, 2}, (int64_t[]){-128, 127, -128, 127});
   o = tz(REF_DTYPE_I8, 2, (int64_t[]){1, 2});
   a = red(0, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MAX, &a, in, o), TOSA_REF_OK, "i8 max");
   expect_ints(o, (int64_t[]){-128, 127}, 2, "i8 max");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MIN, &a, in, o), TOSA_REF_OK, "i8 min");
   expect_ints(o, (int64_t[]){-128, 127}, 2, "i8 min");

   /* i32 overflow: 2147483647 + 1 leaves i32 (REQUIRE): UNPREDICTABLE, wrapped to -2147483648;
    * 2147483647 + 1 + (-1) wraps back to 2147483647 (the partial sum overflowed: still a REQUIRE).
    */
   in = ti(REF_DTYPE_I32, 1, (int64_t[]){3}, (int64_t[]){I32_MAX, 1, -1});
   o = tz(REF_DTYPE_I32, 1, (int64_t[]){1});
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_UNPREDICTABLE,
                 "i32 overflow");
   expect_ints(o, (int64_t[]){I32_MAX}, 1, "i32 overflow wraps");
   in = ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){I32_MAX, 1});
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_UNPREDICTABLE,
                 "i32 overflow 2");
   expect_ints(o, (int64_t[]){I32_MIN}, 1, "i32 overflow wraps 2");

   /* bool: [2,2] {{1,0},{1,1}}: ALL axis 0 = 1, 0; ANY axis 0 = 1, 1; ALL axis 1 = 0, 1. */
   in = ti(REF_DTYPE_BOOL, 2, (int64_t[]){2, 2}, (int64_t[]){1, 0, 1, 1});
   o = tz(REF_DTYPE_BOOL, 2, (int64_t[]){1, 2});
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_ALL, &a, in, o), TOSA_REF_OK, "all");
   expect_ints(o, (int64_t[]){1, 0}, 2, "all axis 0");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_ANY, &a, in, o), TOSA_REF_OK, "any");
   expect_ints(o, (int64_t[]){1, 1}, 2, "any axis 0");
   o = tz(REF_DTYPE_BOOL, 2, (int64_t[]){2, 1});
   a = red(1, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_ALL, &a, in, o), TOSA_REF_OK, "all 1");
   expect_ints(o, (int64_t[]){0, 1}, 2, "all axis 1");

   /* Float max/min with NaN, [3,2] columns {NaN, 1, 2} and {NaN, NaN, NaN} along axis 0:
    * PROPAGATE max = NaN, NaN; IGNORE max = 2, NaN; IGNORE min = 1, NaN. */
   in = tf(REF_DTYPE_FP32, 2, (int64_t[]){3, 2}, (double[]){NAN, NAN, 1, NAN, 2, NAN});
   o = tz(REF_DTYPE_FP32, 2, (int64_t[]){1, 2});
   a = red(0, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MAX, &a, in, o), TOSA_REF_OK, "max nan");
   expect_fps(o, (double[]){NAN, NAN}, 2, "max propagate");
   a = red(0, TOSA_REF_NAN_IGNORE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MAX, &a, in, o), TOSA_REF_OK, "max ignore");
   expect_fps(o, (double[]){2, NAN}, 2, "max ignore");
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MIN, &a, in, o), TOSA_REF_OK, "min ignore");
   expect_fps(o, (double[]){1, NAN}, 2, "min ignore");
   /* -inf, -inf: max -inf (the initial value of PROPAGATE is the lowest value). */
   in = tf(REF_DTYPE_FP16, 1, (int64_t[]){2}, (double[]){-INFINITY, -INFINITY});
   o = tz(REF_DTYPE_FP16, 1, (int64_t[]){1});
   a = red(0, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_MAX, &a, in, o), TOSA_REF_OK, "max -inf");
   expect_fps(o, (double[]){-INFINITY}, 1, "max -inf");

   /* Float sum: fp16 {0.5, 0.25, 1024, 1} = 1025.75 in fp64; rounded to fp16 (ulp 1 at 1024)
    * = 1026 (1025.75 is nearer 1026); unrounded in FP64 1025.75; the bound |x| sum 1025.75.
    * {-1, 0.5}: -0.5 and bound 1.5. */
   in = tf(REF_DTYPE_FP16, 2, (int64_t[]){2, 4}, (double[]){0.5, 0.25, 1024, 1, -1, 0.5, 0, 0});
   o = tz(REF_DTYPE_FP16, 2, (int64_t[]){2, 1});
   a = red(1, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_OK, "fp16 sum");
   expect_fps(o, (double[]){1026, -0.5}, 2, "fp16 sum rounded");
   o = tz(REF_DTYPE_FP64, 2, (int64_t[]){2, 1});
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_OK, "fp64 sum");
   expect_fps(o, (double[]){1025.75, -0.5}, 2, "fp16 sum fp64");
   a.mode = TOSA_REF_REDUCE_BOUND;
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_OK, "sum bound");
   expect_fps(o, (double[]){1025.75, 1.5}, 2, "sum bound");

   /* Product: bf16 {2, -3, 0.5} = -3; bound for n = 3, bf16 (normal_frac 7):
    * 3 * ((1 + 2^-8)^3 - 1) = 3 * (3 * 2^-8 + 3 * 2^-16 + 2^-24). */
   in = tf(REF_DTYPE_BF16, 1, (int64_t[]){3}, (double[]){2, -3, 0.5});
   o = tz(REF_DTYPE_FP64, 1, (int64_t[]){1});
   a = red(0, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_PRODUCT, &a, in, o), TOSA_REF_OK, "product");
   expect_fps(o, (double[]){-3}, 1, "product");
   struct ref_tensor *b = tz(REF_DTYPE_FP64, 1, (int64_t[]){1});
   expect_status(tosa_ref_reduce_product_bound(in, 0, o, b), TOSA_REF_OK, "product bound");
   expect_fps(b, (double[]){3 * (3 * 0x1p-8 + 3 * 0x1p-16 + 0x1p-24)}, 1, "product bound");

   /* ERROR_IFs: axis out of range; output dimension at the axis not 1; another dimension wrong;
    * a type without a row (i8 REDUCE_SUM). */
   in = ti(REF_DTYPE_I32, 2, (int64_t[]){2, 3}, (int64_t[]){1, 2, 3, 4, 5, 6});
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3});
   a = red(2, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_ERROR, "axis 2");
   a = red(-1, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_ERROR, "axis -1");
   a = red(1, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_ERROR,
                 "shape[axis] != 1");
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){1, 2});
   a = red(0, TOSA_REF_NAN_PROPAGATE);
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_ERROR,
                 "other dimension");
   in = ti(REF_DTYPE_I8, 1, (int64_t[]){2}, (int64_t[]){1, 2});
   o = tz(REF_DTYPE_I8, 1, (int64_t[]){1});
   expect_status(tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, in, o), TOSA_REF_UNSUPPORTED,
                 "i8 sum has no row");
}

void
test_argmax(void)
{
   /* [2,4] {{3, 7, 7, 1}, {-5, -5, -9, -5}}: axis 1 = 1 (first of the two 7s), 0 (first -5);
    * axis 0: 3 > -5, 7 > -5, 7 > -9, 1 > -5 = 0, 0, 0, 0. */
   const struct ref_tensor *in =
       ti(REF_DTYPE_I8, 2, (int64_t[]){2, 4}, (int64_t[]){3, 7, 7, 1, -5, -5, -9, -5});
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, (int64_t[]){2});
   struct tosa_ref_argmax_args a = {.axis = 1, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_OK, "argmax axis 1");
   expect_ints(o, (int64_t[]){1, 0}, 2, "argmax axis 1");
   o = tz(REF_DTYPE_I32, 1, (int64_t[]){4});
   a.axis = 0;
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_OK, "argmax axis 0");
   expect_ints(o, (int64_t[]){0, 0, 0, 0}, 4, "argmax axis 0");
   /* i8 all -128: index 0 (equal to the initial minimum: never replaced). */
   in = ti(REF_DTYPE_I8, 1, (int64_t[]){3}, (int64_t[]){-128, -128, -128});
   o = tz(REF_DTYPE_I32, 0, NULL);
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_OK, "argmax rank 0 output");
   expect_ints(o, (int64_t[]){0}, 1, "argmax all minimum");

   /* NaNs, rows of fp32 [4,4] along axis 1:
    *  {1, NaN, 5, NaN}: PROPAGATE 1 (the first NaN), IGNORE 2 (5);
    *  {NaN, NaN, NaN, NaN}: PROPAGATE 0, IGNORE 0;
    *  {2, 9, 9, NaN}: PROPAGATE 3 (the NaN is last), IGNORE 1;
    *  {NaN, -1, -inf, -1}: PROPAGATE 0 (NaN first), IGNORE 1 (first -1). */
   in = tf(REF_DTYPE_FP32, 2, (int64_t[]){4, 4},
           (double[]){1, NAN, 5, NAN, NAN, NAN, NAN, NAN, 2, 9, 9, NAN, NAN, -1, -INFINITY, -1});
   o = tz(REF_DTYPE_I32, 1, (int64_t[]){4});
   a = (struct tosa_ref_argmax_args){.axis = 1, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_OK, "argmax propagate");
   expect_ints(o, (int64_t[]){1, 0, 3, 0}, 4, "argmax propagate");
   a.nan_mode = TOSA_REF_NAN_IGNORE;
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_OK, "argmax ignore");
   expect_ints(o, (int64_t[]){2, 0, 1, 1}, 4, "argmax ignore");
   /* -0 then +0 compare equal: the first, 0. */
   in = tf(REF_DTYPE_FP16, 1, (int64_t[]){2}, (double[]){-0.0, 0.0});
   o = tz(REF_DTYPE_I32, 0, NULL);
   a.axis = 0;
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_OK, "argmax zeros");
   expect_ints(o, (int64_t[]){0}, 1, "argmax -0 +0");

   /* ERROR_IFs: axis out of range; the output is not the input's shape without the axis; a
    * type without a row (i32 input). */
   in = ti(REF_DTYPE_I8, 2, (int64_t[]){2, 3}, (int64_t[]){1, 2, 3, 4, 5, 6});
   o = tz(REF_DTYPE_I32, 1, (int64_t[]){2});
   a = (struct tosa_ref_argmax_args){.axis = 2, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_ERROR, "argmax axis 2");
   a.axis = 0;
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_ERROR, "argmax shape");
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3});
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_ERROR, "argmax keeps rank");
   in = ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){1, 2});
   o = tz(REF_DTYPE_I32, 0, NULL);
   expect_status(tosa_ref_argmax(&a, in, o), TOSA_REF_UNSUPPORTED, "argmax i32 has no row");
}
