/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): the compliance checks (introduction.adoc
 * "Compliance", tosa_reference_check*.tosac): the tolerance table, check_fp, check_tensor, the
 * dot-product check and the RESCALE INEXACT_ROUND range check.
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* ---------------------------------------------------------------------------------------------
 * Compliance (introduction.adoc "Compliance", tosa_reference_check.tosac,
 * tosa_reference_check_dotproduct.tosac, type_conversion.adoc RESCALE INEXACT_ROUND)
 */

void
test_tolerance_table(void)
{
   struct {
      enum tosa_ref_op op;
      enum ref_dtype out;
      enum tosa_ref_rounding rounding;
      enum tosa_ref_tol_kind kind;
   } rows[] = {
       {TOSA_REF_OP_ADD, REF_DTYPE_I32, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_ADD, REF_DTYPE_FP32, 0, TOSA_REF_TOL_ULP},
       {TOSA_REF_OP_SUB, REF_DTYPE_BF16, 0, TOSA_REF_TOL_ULP},
       {TOSA_REF_OP_MUL, REF_DTYPE_FP16, 0, TOSA_REF_TOL_ULP},
       {TOSA_REF_OP_MUL, REF_DTYPE_I32, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CLAMP, REF_DTYPE_I8, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CLAMP, REF_DTYPE_FP16, 0, TOSA_REF_TOL_FP_EXACT},
       {TOSA_REF_OP_MAX_POOL2D, REF_DTYPE_FP8E4M3, 0, TOSA_REF_TOL_FP_EXACT},
       {TOSA_REF_OP_MAX_POOL2D, REF_DTYPE_I16, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_RESHAPE, REF_DTYPE_FP32, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CONCAT, REF_DTYPE_BF16, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CONV2D, REF_DTYPE_I48, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CONV2D, REF_DTYPE_FP16, 0, TOSA_REF_TOL_DOT_PRODUCT},
       {TOSA_REF_OP_MATMUL, REF_DTYPE_FP32, 0, TOSA_REF_TOL_DOT_PRODUCT},
       {TOSA_REF_OP_MATMUL, REF_DTYPE_I32, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_RESCALE, REF_DTYPE_I8, TOSA_REF_ROUND_SINGLE, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_RESCALE, REF_DTYPE_I8, TOSA_REF_ROUND_DOUBLE, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_RESCALE, REF_DTYPE_I16, TOSA_REF_ROUND_INEXACT, TOSA_REF_TOL_RESCALE_RANGE},
       {TOSA_REF_OP_BITWISE_XOR, REF_DTYPE_I8, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_LOGICAL_NOT, REF_DTYPE_BOOL, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_ARITHMETIC_RIGHT_SHIFT, REF_DTYPE_I16, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_INTDIV, REF_DTYPE_I32, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_GREATER_EQUAL, REF_DTYPE_BOOL, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_ABS, REF_DTYPE_I32, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_ABS, REF_DTYPE_BF16, 0, TOSA_REF_TOL_FP_EXACT},
       {TOSA_REF_OP_NEGATE, REF_DTYPE_FP32, 0, TOSA_REF_TOL_FP_EXACT},
       {TOSA_REF_OP_NEGATE, REF_DTYPE_I8, 0, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_SELECT, REF_DTYPE_FP16, 0, TOSA_REF_TOL_FP_EXACT},
       {TOSA_REF_OP_SELECT, REF_DTYPE_I16, 0, TOSA_REF_TOL_EXACT},
   };
   for (int64_t i = 0; i < COUNT(rows); i++) {
      struct tosa_ref_tolerance t = tosa_ref_tolerance(rows[i].op, rows[i].out, rows[i].rounding);
      ok(t.kind == rows[i].kind && t.source && t.source[0], "tolerance row %lld: kind %d",
         (long long)i, (int)t.kind);
   }
   /* ewise_binary.adoc: tosa_reference_check_fp<in_t>(out_imp, out_ref, 0.5). */
   ok(tosa_ref_tolerance(TOSA_REF_OP_ADD, REF_DTYPE_FP16, 0).ulp == 0.5, "ADD: 0.5 ulp");
}

void
test_check_fp(void)
{
   /* tosa_reference_ulp: exp2(ilog2(|ref|)) (at least normal_min) * exp2(-normal_frac):
    * fp32 at 1: 2^-23; at 3: 2 * 2^-23; at -0.75: 2^-1 * 2^-23; fp16 at 1: 2^-10; fp16 at 2^-20
    * (below normal_min 2^-14): 2^-14 * 2^-10; bf16 at 1: 2^-7; e4m3 at 1: 2^-3; e5m2 at 1000:
    * 2^9 * 2^-2 = 128; zero, inf, NaN and fp64 subnormals: 0. */
   ok(tosa_ref_ulp(REF_DTYPE_FP32, 1.0) == 0x1p-23, "ulp fp32 1");
   ok(tosa_ref_ulp(REF_DTYPE_FP32, 3.0) == 0x1p-22, "ulp fp32 3");
   ok(tosa_ref_ulp(REF_DTYPE_FP32, -0.75) == 0x1p-24, "ulp fp32 -0.75");
   ok(tosa_ref_ulp(REF_DTYPE_FP16, 1.0) == 0x1p-10, "ulp fp16 1");
   ok(tosa_ref_ulp(REF_DTYPE_FP16, 0x1p-20) == 0x1p-24, "ulp fp16 2^-20");
   ok(tosa_ref_ulp(REF_DTYPE_BF16, 1.0) == 0x1p-7, "ulp bf16 1");
   ok(tosa_ref_ulp(REF_DTYPE_FP8E4M3, 1.0) == 0x1p-3, "ulp e4m3 1");
   ok(tosa_ref_ulp(REF_DTYPE_FP8E5M2, 1000.0) == 128.0, "ulp e5m2 1000");
   ok(tosa_ref_ulp(REF_DTYPE_FP32, 0.0) == 0.0 && tosa_ref_ulp(REF_DTYPE_FP32, INFINITY) == 0.0 &&
          tosa_ref_ulp(REF_DTYPE_FP32, NAN) == 0.0 &&
          tosa_ref_ulp(REF_DTYPE_FP32, 0x1p-1074) == 0.0,
      "ulp of 0, inf, NaN, an fp64 subnormal: 0");

   /* tosa_reference_check_fp with 0.5 ulp. ref 1 + 2^-24 (a tie in fp32): err 2^-24, so
    * [1, 1 + 2^-23]: both neighbours pass, 1 + 2^-22 and 1 - 2^-24 do not. */
   const enum ref_dtype F = REF_DTYPE_FP32;
   double tie = 1.0 + 0x1p-24;
   ok(tosa_ref_check_fp(F, 1.0, tie, 0.5), "tie: lower neighbour");
   ok(tosa_ref_check_fp(F, 1.0 + 0x1p-23, tie, 0.5), "tie: upper neighbour");
   ok(!tosa_ref_check_fp(F, 1.0 + 0x1p-22, tie, 0.5), "tie: two ulp away");
   ok(!tosa_ref_check_fp(F, 1.0 - 0x1p-24, tie, 0.5), "tie: below");
   /* ref 1 + 2^-25: [1 - 2^-25, 1 + 3 * 2^-25]: 1 passes, 1 + 2^-23 does not. */
   ok(tosa_ref_check_fp(F, 1.0, 1.0 + 0x1p-25, 0.5), "nearest");
   ok(!tosa_ref_check_fp(F, 1.0 + 0x1p-23, 1.0 + 0x1p-25, 0.5), "not nearest");
   /* Negative references are mirrored. */
   ok(tosa_ref_check_fp(F, -1.0 - 0x1p-23, -tie, 0.5), "negative tie, upper magnitude");
   ok(!tosa_ref_check_fp(F, -1.0 - 0x1p-22, -tie, 0.5), "negative, two ulp");
   /* NaN: a NaN reference needs a NaN; a number reference rejects NaN. */
   ok(tosa_ref_check_fp(F, NAN, NAN, 0.5), "NaN for NaN");
   ok(!tosa_ref_check_fp(F, 0.0, NAN, 0.5), "0 for NaN");
   ok(!tosa_ref_check_fp(F, NAN, 1.0, 0.5), "NaN for 1");
   /* Subnormals may be flushed for fp16/bf16/fp32: ref 2^-20 in fp16 has ref_min below
    * normal_min, so 0 passes; ref 1 does not accept 0. fp8 may not flush: e4m3 ref 2^-8 (ulp
    * 2^-6 * 2^-3, bound 2^-10) rejects 0. */
   ok(tosa_ref_check_fp(REF_DTYPE_FP16, 0.0, 0x1p-20, 0.5), "fp16 subnormal flushed");
   ok(!tosa_ref_check_fp(REF_DTYPE_FP16, 0.0, 1.0, 0.5), "fp16 1 is not 0");
   ok(!tosa_ref_check_fp(REF_DTYPE_FP8E4M3, 0.0, 0x1p-8, 0.5), "e4m3 subnormal not flushed");
   ok(tosa_ref_check_fp(REF_DTYPE_FP8E4M3, 0x1p-8, 0x1p-8, 0.5), "e4m3 subnormal exact");
   /* Overflow: fp16 ref 65520 has ulp 2^15 * 2^-10 = 32, ref_max 65536 > normal_max: +inf
    * passes, and so does 65504. ref 60000: [59984, 60016]: +inf fails. */
   ok(tosa_ref_check_fp(REF_DTYPE_FP16, INFINITY, 65520.0, 0.5), "fp16 overflow to inf");
   ok(tosa_ref_check_fp(REF_DTYPE_FP16, 65504.0, 65520.0, 0.5), "fp16 65504 for 65520");
   ok(!tosa_ref_check_fp(REF_DTYPE_FP16, INFINITY, 60000.0, 0.5), "fp16 no overflow at 60000");
   /* E4M3 has no inf: a NaN passes where ref_max passes normal_max: ref 460, ulp 2^8 * 2^-3 =
    * 32, ref_max 476 > 448. ref 400: ref_max 416: NaN fails. */
   ok(tosa_ref_check_fp(REF_DTYPE_FP8E4M3, NAN, 460.0, 0.5), "e4m3 NaN for an overflow");
   ok(!tosa_ref_check_fp(REF_DTYPE_FP8E4M3, NAN, 400.0, 0.5), "e4m3 NaN for 400");
   /* tosa_reference_check_fp_bnd: an infinite bound accepts anything. */
   ok(tosa_ref_check_fp_bnd(F, 12345.0, 1.0, INFINITY), "infinite bound");

   /* The CLAMP / MAX_POOL2D rule. */
   ok(tosa_ref_check_fp_exact(F, -0.0, 0.0), "either sign of zero");
   ok(tosa_ref_check_fp_exact(REF_DTYPE_FP16, 0.0, -0x1p-24), "fp16 subnormal result may be 0");
   ok(!tosa_ref_check_fp_exact(REF_DTYPE_FP8E4M3, 0.0, 0x1p-8), "e4m3 subnormal result is kept");
   ok(tosa_ref_check_fp_exact(F, NAN, NAN), "any NaN");
   ok(!tosa_ref_check_fp_exact(F, NAN, 1.0) && !tosa_ref_check_fp_exact(F, 1.0, NAN),
      "NaN against a number");
   ok(tosa_ref_check_fp_exact(F, 1.5, 1.5) && !tosa_ref_check_fp_exact(F, 1.5, 1.25),
      "exact values");
}

void
test_check_tensor(void)
{
   struct tosa_ref_check_report r;
   struct tosa_ref_tolerance exact = tosa_ref_tolerance(TOSA_REF_OP_ADD, REF_DTYPE_I32, 0);
   const int64_t s3[] = {3}, s2[] = {2};

   /* EXACT on integers: the third element differs. */
   expect_status(tosa_ref_check_tensor(&exact, ti(REF_DTYPE_I32, 1, s3, (int64_t[]){1, 2, 3}),
                                       ti(REF_DTYPE_I32, 1, s3, (int64_t[]){1, 2, 4}), &r),
                 TOSA_REF_OK, "exact check");
   ok(!r.pass && r.failures == 1 && r.first_failure == 2, "exact: one failure at 2");
   /* EXACT on float data (RESHAPE): bit patterns, so NaN payloads must match. */
   struct tosa_ref_tolerance data = tosa_ref_tolerance(TOSA_REF_OP_RESHAPE, REF_DTYPE_FP32, 0);
   struct ref_tensor *nan1 = tbits(REF_DTYPE_FP32, 1, s2, (uint64_t[]){0x7FC12345, 0x80000000});
   expect_status(tosa_ref_check_tensor(&data, nan1, nan1, &r), TOSA_REF_OK, "bits check");
   ok(r.pass && r.failures == 0 && r.first_failure == -1, "same bits pass");
   expect_status(
       tosa_ref_check_tensor(
           &data, tbits(REF_DTYPE_FP32, 1, s2, (uint64_t[]){0x7FC00000, 0x00000000}), nan1, &r),
       TOSA_REF_OK, "bits check");
   ok(!r.pass && r.failures == 2 && r.first_failure == 0, "another NaN and +0 for -0 fail");

   /* FP_EXACT (CLAMP fp16): -0 for +0, another NaN, 0 for the subnormal 2^-24 all pass;
    * 1.0 for 1 + 2^-10 fails. */
   struct tosa_ref_tolerance fpx = tosa_ref_tolerance(TOSA_REF_OP_CLAMP, REF_DTYPE_FP16, 0);
   expect_status(tosa_ref_check_tensor(
                     &fpx, tbits(REF_DTYPE_FP16, 1, s3, (uint64_t[]){0x8000, 0x7E01, 0x0000}),
                     tbits(REF_DTYPE_FP16, 1, s3, (uint64_t[]){0x0000, 0x7E00, 0x0001}), &r),
                 TOSA_REF_OK, "fp exact check");
   ok(r.pass, "fp exact freedoms");
   expect_status(tosa_ref_check_tensor(&fpx, t1f(REF_DTYPE_FP16, 1.0),
                                       t1f(REF_DTYPE_FP16, 1.0 + 0x1p-10), &r),
                 TOSA_REF_OK, "fp exact check");
   ok(!r.pass, "fp exact: one ulp off fails");

   /* ULP (ADD fp32) against the FP64 reference 1 + 2^-24 (a tie): 1 and 1 + 2^-23 pass,
    * 1 + 2^-22 fails. */
   struct tosa_ref_tolerance ulp = tosa_ref_tolerance(TOSA_REF_OP_ADD, REF_DTYPE_FP32, 0);
   struct ref_tensor *ref64 = tf(REF_DTYPE_FP64, 1, s2, (double[]){1.0 + 0x1p-24, 1.0 + 0x1p-24});
   expect_status(tosa_ref_check_tensor(
                     &ulp, tf(REF_DTYPE_FP32, 1, s2, (double[]){1.0, 1.0 + 0x1p-23}), ref64, &r),
                 TOSA_REF_OK, "ulp check");
   ok(r.pass, "ulp: both neighbours of a tie");
   expect_status(tosa_ref_check_tensor(
                     &ulp, tf(REF_DTYPE_FP32, 1, s2, (double[]){1.0 + 0x1p-22, 1.0}), ref64, &r),
                 TOSA_REF_OK, "ulp check");
   ok(!r.pass && r.first_failure == 0, "ulp: two ulp off fails");
   /* The rounded reference output of ADD meets its own bound against the FP64 output. */
   const int64_t s4[] = {4};
   struct ref_tensor *x = tf(REF_DTYPE_FP16, 1, s4, (double[]){1.0, 65504.0, 0x1p-24, -3.0});
   struct ref_tensor *y = tf(REF_DTYPE_FP16, 1, s4, (double[]){0x3p-11, 16.0, 0x1p-24, 0.5});
   struct ref_tensor *r16 = tz(REF_DTYPE_FP16, 1, s4), *r64 = tz(REF_DTYPE_FP64, 1, s4);
   tosa_ref_add(x, y, r16);
   tosa_ref_add(x, y, r64);
   struct tosa_ref_tolerance ulp16 = tosa_ref_tolerance(TOSA_REF_OP_ADD, REF_DTYPE_FP16, 0);
   expect_status(tosa_ref_check_tensor(&ulp16, r16, r64, &r), TOSA_REF_OK, "ulp check fp16");
   ok(r.pass, "a correctly rounded fp16 ADD passes");

   /* Misuse. */
   expect_status(
       tosa_ref_check_tensor(&ulp, tz(REF_DTYPE_FP32, 1, s2), tz(REF_DTYPE_FP32, 1, s2), &r),
       TOSA_REF_BAD_ARGUMENT, "ULP needs the FP64 reference");
   struct tosa_ref_tolerance dot = tosa_ref_tolerance(TOSA_REF_OP_MATMUL, REF_DTYPE_FP32, 0);
   expect_status(
       tosa_ref_check_tensor(&dot, tz(REF_DTYPE_FP32, 1, s2), tz(REF_DTYPE_FP64, 1, s2), &r),
       TOSA_REF_BAD_ARGUMENT, "dot products are checked as a whole");
   expect_status(
       tosa_ref_check_tensor(&exact, tz(REF_DTYPE_I32, 1, s2), tz(REF_DTYPE_I32, 1, s3), &r),
       TOSA_REF_BAD_ARGUMENT, "shapes differ");
}

void
test_check_dot_product(void)
{
   /* MATMUL fp32, A (1 1), B (1; 2^-24): out_ref = 1 + 2^-24, out_bnd = 1 + 2^-24 as well.
    * KS = 2, acc = out = fp32: ksb = ceil(2 / 2^0) + 1 = 3, ABS_BOUND 6, VARIANCE_ERROR_BOUND
    * 4 * 0.4 * 3 = 4.8 per element. out_err_bnd = (1 + 2^-24) 2^-24, so out_err ~ (imp - ref)
    * / 2^-24. */
   struct tosa_ref_matmul_args res = {.mode = TOSA_REF_DOT_RESULT};
   struct tosa_ref_matmul_args bnd = {.mode = TOSA_REF_DOT_BOUND};
   struct ref_tensor *z = t1f(REF_DTYPE_FP32, 0.0);
   struct ref_tensor *a = tf(REF_DTYPE_FP32, 3, (int64_t[]){1, 1, 2}, (double[]){1.0, 1.0});
   struct ref_tensor *b = tf(REF_DTYPE_FP32, 3, (int64_t[]){1, 2, 1}, (double[]){1.0, 0x1p-24});
   const int64_t s111[] = {1, 1, 1};
   struct ref_tensor *ref = tz(REF_DTYPE_FP64, 3, s111), *bound = tz(REF_DTYPE_FP64, 3, s111);
   expect_status(tosa_ref_matmul(&res, a, b, z, z, ref), TOSA_REF_OK, "matmul result");
   expect_status(tosa_ref_matmul(&bnd, a, b, z, z, bound), TOSA_REF_OK, "matmul bound");
   expect_fps(ref, (double[]){1.0 + 0x1p-24}, 1, "out_ref");
   expect_fps(bound, (double[]){1.0 + 0x1p-24}, 1, "out_bnd");

   struct tosa_ref_dot_check chk = {.out_type = REF_DTYPE_FP32,
                                    .acc_type = REF_DTYPE_FP32,
                                    .ks = 2,
                                    .has_bias = true,
                                    .test_set = -1};
   struct tosa_ref_dot_report rep;
   /* imp 1.0: out_err ~ -1: passes (|err| <= 6, err^2 <= 4.8). */
   struct ref_tensor *imp = tf(REF_DTYPE_FP32, 3, s111, (double[]){1.0});
   expect_status(tosa_ref_check_dot_product(&chk, imp, ref, bound, &rep), TOSA_REF_OK, "dot check");
   ok(rep.pass && rep.ksb == 3 && rep.abs_bound == 6.0 && fabs(rep.variance_bound - 4.8) < 1e-12 &&
          rep.max_abs_err > 0.99 && rep.max_abs_err < 1.0,
      "1.0 passes: ksb %lld, bound %g, variance %g, err %g", (long long)rep.ksb, rep.abs_bound,
      rep.variance_bound, rep.max_abs_err);
   /* imp 1 + 2^-20: out_err ~ 15 > 6: fails on its own. */
   ref_tensor_set_fp(imp, 0, 1.0 + 0x1p-20);
   tosa_ref_check_dot_product(&chk, imp, ref, bound, &rep);
   ok(!rep.pass && rep.first_failure == 0, "15 errors out of a bound of 6");
   /* imp 1 + 6 * 2^-24: out_err ~ 5 <= 6 alone, but 25 > 4.8 * T (T = 1): variance fails. */
   ref_tensor_set_fp(imp, 0, 1.0 + 0x6p-24);
   tosa_ref_check_dot_product(&chk, imp, ref, bound, &rep);
   ok(!rep.pass && rep.first_failure == -1, "variance bound");
   /* The reading of tosa_ref.h: a NaN where out_ref and out_bnd are numbers fails. */
   ref_tensor_set_fp(imp, 0, NAN);
   tosa_ref_check_dot_product(&chk, imp, ref, bound, &rep);
   ok(!rep.pass, "NaN for a number fails");
   /* A NaN reference (A holds a NaN) needs a NaN. */
   struct ref_tensor *an = tf(REF_DTYPE_FP32, 3, (int64_t[]){1, 1, 2}, (double[]){NAN, 1.0});
   tosa_ref_matmul(&res, an, b, z, z, ref);
   tosa_ref_matmul(&bnd, an, b, z, z, bound);
   tosa_ref_check_dot_product(&chk, imp, ref, bound, &rep);
   ok(rep.pass, "NaN for NaN passes");
   ref_tensor_set_fp(imp, 0, 0.0);
   tosa_ref_check_dot_product(&chk, imp, ref, bound, &rep);
   ok(!rep.pass, "a number for NaN fails");

   /* The bias check of test sets 3..5: 64 rows of the same dot product, each result one ulp
    * high (out_err ~ 1): each passes, err^2 sums to ~64 <= 4.8 * 64, but the error sum ~64 >
    * sqrt(10 * 4.8 * 64) = 55.4. */
   const int64_t s64[] = {1, 64, 1};
   struct ref_tensor *a64 = tz(REF_DTYPE_FP32, 3, (int64_t[]){1, 64, 2});
   for (int64_t i = 0; i < 128; i++)
      ref_tensor_set_fp(a64, i, 1.0);
   struct ref_tensor *ref64 = tz(REF_DTYPE_FP64, 3, s64), *bnd64 = tz(REF_DTYPE_FP64, 3, s64);
   struct ref_tensor *imp64 = tz(REF_DTYPE_FP32, 3, s64);
   tosa_ref_matmul(&res, a64, b, z, z, ref64);
   tosa_ref_matmul(&bnd, a64, b, z, z, bnd64);
   for (int64_t i = 0; i < 64; i++)
      ref_tensor_set_fp(imp64, i, 1.0 + 0x1p-23);
   tosa_ref_check_dot_product(&chk, imp64, ref64, bnd64, &rep);
   ok(rep.pass, "64 results one ulp high, no test set: pass");
   chk.test_set = 3;
   tosa_ref_check_dot_product(&chk, imp64, ref64, bnd64, &rep);
   ok(!rep.pass && rep.first_failure == -1, "64 results one ulp high, test set 3: biased");

   /* ksb with a wider accumulator: fp16 out, fp32 acc, KS = 4: ceil(4 / 2^((23 - 10) / 2)) + 1
    * = ceil(4 / 64) + 1 = 2; bf16 out, fp32 acc: ceil(4 / 2^8) + 1 = 2; e4m3 in, fp16 acc and
    * out: 4 + 1 = 5. A [1,1,1,4] conv of ones: ref 4, bound 4 + 2^-14 (bias_abs =
    * normal_min<fp16>); imp 4.0 has no error. */
   struct tosa_ref_conv2d_args ca = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   const int64_t s1114[] = {1, 1, 1, 4}, s1111[] = {1, 1, 1, 1};
   struct ref_tensor *h4 = tf(REF_DTYPE_FP16, 4, s1114, (double[]){1, 1, 1, 1});
   struct ref_tensor *hz = t1f(REF_DTYPE_FP16, 0.0);
   struct ref_tensor *cref = tz(REF_DTYPE_FP64, 4, s1111), *cbnd = tz(REF_DTYPE_FP64, 4, s1111);
   tosa_ref_conv2d(&ca, h4, h4, hz, hz, hz, cref);
   ca.mode = TOSA_REF_DOT_BOUND;
   tosa_ref_conv2d(&ca, h4, h4, hz, hz, hz, cbnd);
   expect_fps(cbnd, (double[]){4.0 + 0x1p-14}, 1, "conv bound with bias_abs = normal_min");
   chk = (struct tosa_ref_dot_check){.out_type = REF_DTYPE_FP16,
                                     .acc_type = REF_DTYPE_FP32,
                                     .ks = 4,
                                     .has_bias = true,
                                     .test_set = -1};
   tosa_ref_check_dot_product(&chk, tf(REF_DTYPE_FP16, 4, s1111, (double[]){4.0}), cref, cbnd,
                              &rep);
   ok(rep.pass && rep.ksb == 2 && rep.abs_bound == 4.0, "fp16/fp32: ksb %lld", (long long)rep.ksb);
   chk.out_type = REF_DTYPE_BF16;
   tosa_ref_check_dot_product(&chk, tf(REF_DTYPE_BF16, 4, s1111, (double[]){4.0}), cref, cbnd,
                              &rep);
   ok(rep.ksb == 2, "bf16/fp32: ksb %lld", (long long)rep.ksb);
   chk.out_type = REF_DTYPE_FP16;
   chk.acc_type = REF_DTYPE_FP16;
   tosa_ref_check_dot_product(&chk, tf(REF_DTYPE_FP16, 4, s1111, (double[]){4.0}), cref, cbnd,
                              &rep);
   ok(rep.ksb == 5, "fp16/fp16: ksb %lld", (long long)rep.ksb);
}

void
test_check_rescale_range(void)
{
   /* INEXACT_ROUND bounds, i32 -> i32 x0.25 (2^30, 32), output_zp 0:
    * 1: out_ref 0.25, err_bnd 0.5 + (0.75 + 0.25) 2^-24: [ceil(-0.25 - e), floor(0.75 + e)] =
    * [0, 0]; -2: out_ref -0.5, err 0.5 + 2 * 2^-24: [ceil(-1 - e), floor(e)] = [-1, 0];
    * 3: out_ref 0.75, err 0.5 + 3 * 2^-24: [1, 1]. */
   struct tosa_ref_rescale_args a = rs_args(true, TOSA_REF_ROUND_INEXACT, false, false, false);
   const int64_t s3[] = {3}, s1[] = {1};
   struct ref_tensor *lo = tz(REF_DTYPE_I32, 1, s3), *hi = tz(REF_DTYPE_I32, 1, s3);
   struct ref_tensor *in = ti(REF_DTYPE_I32, 1, s3, (int64_t[]){1, -2, 3});
   struct ref_tensor *m = t1(REF_DTYPE_I32, 1 << 30), *s32 = t1(REF_DTYPE_I8, 32);
   struct ref_tensor *z32 = t1(REF_DTYPE_I32, 0);
   expect_status(tosa_ref_rescale_inexact_range(&a, in, m, s32, z32, z32, lo, hi), TOSA_REF_OK,
                 "inexact range");
   expect_ints(lo, (int64_t[]){0, -1, 1}, 3, "inexact range lo");
   expect_ints(hi, (int64_t[]){0, 0, 1}, 3, "inexact range hi");

   struct tosa_ref_check_report r;
   expect_status(tosa_ref_check_rescale_range(ti(REF_DTYPE_I32, 1, s3, (int64_t[]){0, -1, 1}),
                                              false, lo, hi, &r),
                 TOSA_REF_OK, "range check");
   ok(r.pass, "round-toward-minus-infinity results are inside");
   expect_status(tosa_ref_check_rescale_range(ti(REF_DTYPE_I32, 1, s3, (int64_t[]){1, 0, 2}), false,
                                              lo, hi, &r),
                 TOSA_REF_OK, "range check");
   ok(!r.pass && r.failures == 2 && r.first_failure == 0, "1 for 0.25 and 2 for 0.75 fail");

   /* Large values: 2^28 identity: err_bnd = 0.5 + (3 * 2^28 + 2^28) 2^-24 = 64.5:
    * [2^28 - 64, 2^28 + 64]. */
   struct ref_tensor *lo1 = tz(REF_DTYPE_I32, 1, s1), *hi1 = tz(REF_DTYPE_I32, 1, s1);
   expect_status(tosa_ref_rescale_inexact_range(&a, t1(REF_DTYPE_I32, 1 << 28), m,
                                                t1(REF_DTYPE_I8, 30), z32, z32, lo1, hi1),
                 TOSA_REF_OK, "inexact range 2^28");
   ok(ref_tensor_get_int(lo1, 0) == 268435392 && ref_tensor_get_int(hi1, 0) == 268435520,
      "2^28 +- 64: [%lld, %lld]", (long long)ref_tensor_get_int(lo1, 0),
      (long long)ref_tensor_get_int(hi1, 0));
   /* Clipped to the output: i32 1000 -> i8 gives [127, 127]. */
   expect_status(tosa_ref_rescale_inexact_range(&a, t1(REF_DTYPE_I32, 1000), m,
                                                t1(REF_DTYPE_I8, 30), z32, t1(REF_DTYPE_I8, 0), lo1,
                                                hi1),
                 TOSA_REF_OK, "inexact range clipped");
   ok(ref_tensor_get_int(lo1, 0) == 127 && ref_tensor_get_int(hi1, 0) == 127, "clipped to 127");
   /* With an output zero point: i8 10 - input_zp 10 = 0, x0.5, output_zp -5:
    * err_bnd = 0.5 + 5 * 2^-24: [ceil(-5.5 - e), floor(-4.5 + e)] = [-5, -5]. */
   expect_status(tosa_ref_rescale_inexact_range(&a, t1(REF_DTYPE_I8, 10), m, t1(REF_DTYPE_I8, 31),
                                                t1(REF_DTYPE_I8, 10), t1(REF_DTYPE_I8, -5), lo1,
                                                hi1),
                 TOSA_REF_OK, "inexact range with zero points");
   ok(ref_tensor_get_int(lo1, 0) == -5 && ref_tensor_get_int(hi1, 0) == -5, "[-5, -5]");
   /* Unsigned output: u8 255 (bits 0xFF) is read as 255: i8 127 + output_zp 128 = 255. */
   a.output_unsigned = true;
   expect_status(tosa_ref_rescale_inexact_range(&a, t1(REF_DTYPE_I8, 127), m, t1(REF_DTYPE_I8, 30),
                                                t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, -128), lo1,
                                                hi1),
                 TOSA_REF_OK, "inexact range u8");
   ok(ref_tensor_get_int(lo1, 0) == 255 && ref_tensor_get_int(hi1, 0) == 255, "u8 [255, 255]");
   expect_status(tosa_ref_check_rescale_range(t1(REF_DTYPE_I8, -1), true, lo1, hi1, &r),
                 TOSA_REF_OK, "u8 range check");
   ok(r.pass, "bits 0xFF read as 255");
}
