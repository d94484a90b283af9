/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): the math operators (ref_math.c: CEIL,
 * FLOOR, EXP, LOG, SIN, COS, RECIPROCAL, RSQRT, ERF, SIGMOID, TANH, POW), their per-element
 * error bounds (tosa_ref_math_err_bound, calcAbsErrorBound of numeric_accuracy_helpers.tosac)
 * and the ABS_BOUND check.
 *
 * Every expected value was worked out by hand from the pseudocode; the comment next to a case
 * gives the working.
 */
#include "ref_test.h"

#define P2(e) ldexp(1.0, (e))

static bool
near_rel(double got, double want, double rel)
{
   return fabs(got - want) <= rel * fabs(want);
}

void
test_math(void)
{
   int64_t s8[] = {8};
   /* Behaviour tables and exact results, fp32 (no rounding involved). */
   struct ref_tensor *x =
       tf(REF_DTYPE_FP32, 1, s8, (double[]){-INFINITY, INFINITY, -0.0, 0.0, -0.5, 1.5, 4, -1});
   /* U: not checked (an ordinary value, left to the bound tests) */
   const double U = 12345.0;
   struct {
      int (*fn)(const struct ref_tensor *, struct ref_tensor *);
      const char *name;
      double want[8];
   } rows[] = {
       /* CEIL/FLOOR: +-inf and +-0 kept, ceil(-0.5) = -0 */
       {tosa_ref_ceil, "CEIL", {-INFINITY, INFINITY, -0.0, 0.0, -0.0, 2, 4, -1}},
       {tosa_ref_floor, "FLOOR", {-INFINITY, INFINITY, -0.0, 0.0, -1, 1, 4, -1}},
       /* EXP: -inf 0, +inf inf, +-0 1 */
       {tosa_ref_exp, "EXP", {0, INFINITY, 1, 1, U, U, U, U}},
       /* LOG: -inf NaN, +inf inf, +-0 -inf, negative NaN */
       {tosa_ref_log, "LOG", {NAN, INFINITY, -INFINITY, -INFINITY, NAN, U, U, NAN}},
       /* SIN: +-inf NaN, +-0 kept; COS: +-0 1 */
       {tosa_ref_sin, "SIN", {NAN, NAN, -0.0, 0.0, U, U, U, U}},
       {tosa_ref_cos, "COS", {NAN, NAN, 1, 1, U, U, U, U}},
       /* RECIPROCAL: +-inf +-0, +-0 +-inf, 1/-0.5 = -2, 1/4 = 0.25, 1/-1 = -1 */
       {tosa_ref_reciprocal, "RECIPROCAL", {-0.0, 0.0, -INFINITY, INFINITY, -2, U, 0.25, -1}},
       /* RSQRT: -inf NaN, +inf +0, -0 -inf, +0 +inf, negative NaN, 1/sqrt(4) = 0.5 */
       {tosa_ref_rsqrt, "RSQRT", {NAN, 0.0, -INFINITY, INFINITY, NAN, U, 0.5, NAN}},
       /* ERF: +-inf +-1, +-0 kept */
       {tosa_ref_erf, "ERF", {-1, 1, -0.0, 0.0, U, U, U, U}},
       /* SIGMOID: -inf 0, +inf 1, +-0 0.5 */
       {tosa_ref_sigmoid, "SIGMOID", {0, 1, 0.5, 0.5, U, U, U, U}},
       /* TANH: +-inf +-1, +-0 kept */
       {tosa_ref_tanh, "TANH", {-1, 1, -0.0, 0.0, U, U, U, U}},
   };
   for (int64_t r = 0; r < COUNT(rows); r++) {
      struct ref_tensor *o = tz(REF_DTYPE_FP32, 1, s8);
      expect_status(rows[r].fn(x, o), TOSA_REF_OK, rows[r].name);
      bool all = true;
      for (int64_t i = 0; i < 8; i++)
         all = all && (rows[r].want[i] == U || same_fp(ref_tensor_get_fp(o, i), rows[r].want[i]));
      ok(all, "%s: behaviour table", rows[r].name);
   }

   /* Rounding once to the output type: e = 2.71828... in fp16 is 2.71875 (0x4170: 1 + 0x170 /
    * 1024 = 1.359375, times 2); in bf16 2.71875 too (0x402e: 1.0101110b * 2 = 2.71875). The
    * FP64 output keeps e. */
   int64_t s1[] = {1};
   struct ref_tensor *one16 = tf(REF_DTYPE_FP16, 1, s1, (double[]){1});
   struct ref_tensor *e16 = tz(REF_DTYPE_FP16, 1, s1), *e64 = tz(REF_DTYPE_FP64, 1, s1);
   expect_status(tosa_ref_exp(one16, e16), TOSA_REF_OK, "EXP fp16");
   expect_bits(e16, (uint64_t[]){0x4170}, 1, "EXP(1) fp16 rounded once");
   expect_status(tosa_ref_exp(one16, e64), TOSA_REF_OK, "EXP fp16 -> FP64");
   ok(ref_tensor_get_fp(e64, 0) == exp(1.0), "EXP(1) unrounded");
   struct ref_tensor *onebf = tf(REF_DTYPE_BF16, 1, s1, (double[]){1});
   struct ref_tensor *ebf = tz(REF_DTYPE_BF16, 1, s1);
   expect_status(tosa_ref_exp(onebf, ebf), TOSA_REF_OK, "EXP bf16");
   expect_bits(ebf, (uint64_t[]){0x402e}, 1, "EXP(1) bf16 rounded once");

   /* Type rows and shapes. */
   struct ref_tensor *i32 = ti(REF_DTYPE_I32, 1, s1, (int64_t[]){1});
   expect_status(tosa_ref_exp(i32, tz(REF_DTYPE_I32, 1, s1)), TOSA_REF_UNSUPPORTED, "EXP i32");
   expect_status(tosa_ref_tanh(one16, tz(REF_DTYPE_FP32, 1, s1)), TOSA_REF_UNSUPPORTED,
                 "TANH fp16 -> fp32");
   expect_status(tosa_ref_sin(x, tz(REF_DTYPE_FP32, 1, (int64_t[]){4})), TOSA_REF_ERROR,
                 "SIN: output shape");

   /* POW: broadcast [2,1] ^ [1,3]; 2^-1 = 0.5, 4^0.5 = 2, 0^2 = 0 (defined: x == 0, y > 0). */
   struct ref_tensor *px = tf(REF_DTYPE_FP32, 2, (int64_t[]){2, 1}, (double[]){2, 4});
   struct ref_tensor *py = tf(REF_DTYPE_FP32, 2, (int64_t[]){1, 3}, (double[]){-1, 0.5, 3});
   struct ref_tensor *po = tz(REF_DTYPE_FP32, 2, (int64_t[]){2, 3});
   expect_status(tosa_ref_pow(px, py, po), TOSA_REF_OK, "POW broadcast");
   expect_fps(po, (double[]){0.5, 1.4142135381698608, 8, 0.25, 2, 64}, 6, "POW values");
   struct ref_tensor *pz = tf(REF_DTYPE_FP32, 1, s1, (double[]){0});
   struct ref_tensor *p2 = tf(REF_DTYPE_FP32, 1, s1, (double[]){2});
   struct ref_tensor *pr = tz(REF_DTYPE_FP32, 1, s1);
   expect_status(tosa_ref_pow(pz, p2, pr), TOSA_REF_OK, "POW 0^2");
   expect_fps(pr, (double[]){0}, 1, "POW 0^2 = 0");
   /* REQUIREs on the data: x < 0, x == 0 with y <= 0, NaN, inf: UNPREDICTABLE with C's pow. */
   struct ref_tensor *neg = tf(REF_DTYPE_FP32, 1, s1, (double[]){-2});
   struct ref_tensor *three = tf(REF_DTYPE_FP32, 1, s1, (double[]){3});
   expect_status(tosa_ref_pow(neg, three, pr), TOSA_REF_UNPREDICTABLE, "POW (-2)^3");
   expect_fps(pr, (double[]){-8}, 1, "POW (-2)^3 gives C's -8");
   struct ref_tensor *mone = tf(REF_DTYPE_FP32, 1, s1, (double[]){-1});
   expect_status(tosa_ref_pow(pz, mone, pr), TOSA_REF_UNPREDICTABLE, "POW 0^-1");
   expect_fps(pr, (double[]){INFINITY}, 1, "POW 0^-1 gives C's inf");
   expect_status(tosa_ref_pow(pz, pz, pr), TOSA_REF_UNPREDICTABLE, "POW 0^0");
   struct ref_tensor *inf = tf(REF_DTYPE_FP32, 1, s1, (double[]){INFINITY});
   expect_status(tosa_ref_pow(inf, p2, pr), TOSA_REF_UNPREDICTABLE, "POW inf^2");
   expect_status(tosa_ref_pow(px, tf(REF_DTYPE_FP32, 2, (int64_t[]){1, 2}, (double[]){1, 2}),
                              tz(REF_DTYPE_FP32, 2, (int64_t[]){2, 3})),
                 TOSA_REF_ERROR, "POW: output shape is not the broadcast shape");
   expect_status(tosa_ref_pow(one16, pz, tz(REF_DTYPE_FP16, 1, s1)), TOSA_REF_UNSUPPORTED,
                 "POW fp16 ^ fp32");
}

void
test_math_bounds(void)
{
   const double e = exp(1.0);
   /* calcAbsErrorBound<fp32>(1, 1, 0, 1) = 2^-23 max(1, 2^-126) * 1 = 2^-23; lower bound 0.5
    * with bounds_value 5 raises value_bound to 0.1: 2^-23 * 0.1 * 5 = 2^-24; an infinite
    * bound_magnitude gives inf, 0 with an infinite bounds_value 0 (no inf * 0). */
   ok(tosa_ref_calc_abs_error_bound(REF_DTYPE_FP32, 1, 1, 0, 1) == P2(-23), "calcAbs 1");
   ok(near_rel(tosa_ref_calc_abs_error_bound(REF_DTYPE_FP32, 0, 5, 0.5, 1), P2(-24), 1e-15),
      "calcAbs lower bound");
   ok(tosa_ref_calc_abs_error_bound(REF_DTYPE_FP32, 0, INFINITY, 0, 1) == 0, "calcAbs 0 * inf");
   /* divisor 2: 2^(-23/2) = 2^-11.5 for fp32, 2^-5 for fp16 */
   ok(near_rel(tosa_ref_calc_abs_error_bound(REF_DTYPE_FP32, 1, 1, 0, 2), pow(2, -11.5), 1e-15),
      "calcAbs divisor 2");
   ok(tosa_ref_calc_abs_error_bound(REF_DTYPE_FP16, 1, 1, 0, 2) == P2(-5), "calcAbs fp16 / 2");

   struct {
      enum tosa_ref_op op;
      enum ref_dtype type;
      double x, y, want;
      const char *working;
   } rows[] = {
       /* ulp operators: N * tosa_reference_ulp(out_ref) */
       {TOSA_REF_OP_CEIL, REF_DTYPE_FP32, 2.5, 0, P2(-23), "0.5 * ulp(3) = 0.5 * 2 * 2^-23"},
       {TOSA_REF_OP_RECIPROCAL, REF_DTYPE_FP16, 4, 0, P2(-12), "1 * ulp(0.25) = 2^-2 * 2^-10"},
       {TOSA_REF_OP_RSQRT, REF_DTYPE_FP16, 4, 0, P2(-10), "2 * ulp(0.5) = 2 * 2^-1 * 2^-10"},
       {TOSA_REF_OP_ERF, REF_DTYPE_BF16, 0, 0, 0, "5 * ulp(0) = 0"},
       /* EXP: (3 + 2|x|) 2^-23 out_ref for fp32; (1 + 2|x|) 2^-10 out_ref for fp16 */
       {TOSA_REF_OP_EXP, REF_DTYPE_FP32, 1, 0, 5 * e * P2(-23), "(3 + 2) e 2^-23"},
       {TOSA_REF_OP_EXP, REF_DTYPE_FP16, 0, 0, P2(-10), "(1 + 0) 1 2^-10"},
       {TOSA_REF_OP_EXP, REF_DTYPE_FP32, -200, 0, P2(-126) * 403 * P2(-23),
        "out_ref e^-200 < normal_min: max(out, 2^-126) (3 + 400) 2^-23"},
       /* LOG: 5 2^-23 max(|out|, 0.1) */
       {TOSA_REF_OP_LOG, REF_DTYPE_FP32, 1, 0, P2(-24), "out 0: 5 * 0.1 * 2^-23"},
       {TOSA_REF_OP_LOG, REF_DTYPE_FP32, e * e, 0, 10 * P2(-23), "out 2: 5 * 2 * 2^-23"},
       /* SIN: max(2^-11.5 |x| 2, pi normal_min); COS: 2^-11.5 (1 + |x|) */
       {TOSA_REF_OP_SIN, REF_DTYPE_FP32, 1, 0, pow(2, -10.5), "2^-11.5 * 1 * 2"},
       {TOSA_REF_OP_SIN, REF_DTYPE_FP32, 0, 0, 3.14159265358979323846 * P2(-126),
        "x = 0: pi * 2^-126"},
       {TOSA_REF_OP_COS, REF_DTYPE_FP32, -1, 0, pow(2, -10.5), "2^-11.5 * (1 + 1) * 1"},
       {TOSA_REF_OP_COS, REF_DTYPE_FP16, 0, 0, P2(-5), "2^-5 * 1 * 1"},
       /* SIGMOID: 2^-23 out 2 (1 + |x|) */
       {TOSA_REF_OP_SIGMOID, REF_DTYPE_FP32, 0, 0, P2(-23), "2^-23 * 0.5 * 2"},
       /* TANH: 2^-23 max(|out|, 0.5 / (4 (3 + 2|x|))) 4 (3 + 2|x|) */
       {TOSA_REF_OP_TANH, REF_DTYPE_FP32, 0, 0, P2(-24), "out 0: 2^-23 * (0.5 / 12) * 12"},
       {TOSA_REF_OP_TANH, REF_DTYPE_FP16, 1, 0, P2(-10) * tanh(1.0) * 12,
        "fp16, b = 1: 2^-10 * tanh 1 * 4 (1 + 2)"},
       /* POW exact cases: x == 0, y > 0 and x > 0, y == 0; outside the REQUIREs: 0 */
       {TOSA_REF_OP_POW, REF_DTYPE_FP32, 0, 2, 0, "0^2: exact"},
       {TOSA_REF_OP_POW, REF_DTYPE_FP32, 5, 0, 0, "5^0: exact"},
       {TOSA_REF_OP_POW, REF_DTYPE_FP32, -2, 3, 0, "(-2)^3: unpredictable"},
   };
   for (int64_t i = 0; i < COUNT(rows); i++) {
      double out = tosa_ref_math_fp64(rows[i].op, rows[i].x, rows[i].y);
      double got = tosa_ref_math_err_bound(rows[i].op, rows[i].type, rows[i].x, rows[i].y, out);
      ok(got == rows[i].want || near_rel(got, rows[i].want, 1e-14),
         "bound row %lld (%s): %.17g, want %.17g", (long long)i, rows[i].working, got,
         rows[i].want);
   }
   /* POW 2^3 fp32: t = 3 ln 2; m = 2^-23 max(t, 0.55 * 3 / 5.5 = 0.3) 5.5 = 16.5 ln2 2^-23;
    * bound = 8 expm1(m) + 2^-23 * 8 * (3 + 2 (t + m)) */
   double t = 3 * log(2.0), m = 16.5 * log(2.0) * P2(-23);
   double want = 8 * expm1(m) + P2(-23) * 8 * (3 + 2 * (t + m));
   double got = tosa_ref_math_err_bound(TOSA_REF_OP_POW, REF_DTYPE_FP32, 2, 3, 8);
   ok(near_rel(got, want, 1e-14), "POW 2^3 bound %.17g, want %.17g", got, want);
   /* y near 0 with x far from 1: m uses 0.1 |y| when |t| is smaller: x = e, y = 0.01: t = 0.01,
    * max(0.01, 0.1 * 0.01 = 0.001) = 0.01. x = 1.0001, y = 1000: t = 0.099995, 0.1 y = 100. */
   got = tosa_ref_math_err_bound(TOSA_REF_OP_POW, REF_DTYPE_FP32, 1.0001, 1000, pow(1.0001, 1000));
   t = 1000 * log(1.0001);
   m = 100 * 5.5 * P2(-23);
   want = pow(1.0001, 1000) * expm1(m) + P2(-23) * pow(1.0001, 1000) * (3 + 2 * (t + m));
   ok(near_rel(got, want, 1e-12), "POW near 1: %.17g, want %.17g", got, want);

   /* The ULP tolerances and ABS_BOUND kinds of the table. */
   ok(tosa_ref_tolerance(TOSA_REF_OP_FLOOR, REF_DTYPE_FP32, 0).kind == TOSA_REF_TOL_ULP &&
          tosa_ref_tolerance(TOSA_REF_OP_FLOOR, REF_DTYPE_FP32, 0).ulp == 0.5,
      "FLOOR: ulp 0.5");
   ok(tosa_ref_tolerance(TOSA_REF_OP_RECIPROCAL, REF_DTYPE_FP16, 0).ulp == 1, "RECIPROCAL: 1");
   ok(tosa_ref_tolerance(TOSA_REF_OP_RSQRT, REF_DTYPE_BF16, 0).ulp == 2, "RSQRT: 2");
   ok(tosa_ref_tolerance(TOSA_REF_OP_ERF, REF_DTYPE_FP32, 0).ulp == 5, "ERF: 5");
   static const enum tosa_ref_op abs_ops[] = {
       TOSA_REF_OP_EXP,     TOSA_REF_OP_LOG,  TOSA_REF_OP_SIN, TOSA_REF_OP_COS,
       TOSA_REF_OP_SIGMOID, TOSA_REF_OP_TANH, TOSA_REF_OP_POW};
   for (int64_t i = 0; i < COUNT(abs_ops); i++)
      ok(tosa_ref_tolerance(abs_ops[i], REF_DTYPE_FP16, 0).kind == TOSA_REF_TOL_ABS_BOUND,
         "op %d: ABS_BOUND", (int)abs_ops[i]);

   /* The bound tensor: POW [2,1] ^ [1,2] broadcast; element [1][0] is 4^3 = 64 with t = 3 ln 4. */
   struct ref_tensor *px = tf(REF_DTYPE_FP32, 2, (int64_t[]){2, 1}, (double[]){2, 4});
   struct ref_tensor *py = tf(REF_DTYPE_FP32, 2, (int64_t[]){1, 2}, (double[]){3, 0});
   struct ref_tensor *ref = tz(REF_DTYPE_FP64, 2, (int64_t[]){2, 2});
   struct ref_tensor *bnd = tz(REF_DTYPE_FP64, 2, (int64_t[]){2, 2});
   expect_status(tosa_ref_pow(px, py, ref), TOSA_REF_OK, "POW FP64");
   expect_status(tosa_ref_math_bound(TOSA_REF_OP_POW, px, py, ref, bnd), TOSA_REF_OK,
                 "POW bound tensor");
   t = 3 * log(4.0);
   m = 5.5 * t * P2(-23);
   want = 64 * expm1(m) + P2(-23) * 64 * (3 + 2 * (t + m));
   ok(near_rel(ref_tensor_get_fp(bnd, 2), want, 1e-14) && ref_tensor_get_fp(bnd, 1) == 0 &&
          ref_tensor_get_fp(bnd, 3) == 0,
      "POW bound tensor: broadcast, y == 0 exact");
   expect_status(tosa_ref_math_bound(TOSA_REF_OP_EXP, px, py, ref, bnd), TOSA_REF_BAD_ARGUMENT,
                 "EXP bound with a second input");
}

void
test_check_bound(void)
{
   int64_t s5[] = {5};
   /* ref 1, 1, NaN, 100, 1e-39 (below fp32's normal_min); bounds 2^-23, 2^-23, 0, inf, 2^-149 */
   struct ref_tensor *ref = tf(REF_DTYPE_FP64, 1, s5, (double[]){1, 1, NAN, 100, 1e-39});
   struct ref_tensor *bnd =
       tf(REF_DTYPE_FP64, 1, s5, (double[]){P2(-23), P2(-23), 0, INFINITY, P2(-149)});
   /* 1 + 2^-23 is within 2^-23 of 1; a NaN for NaN; anything for an infinite bound; 0 for a
    * result whose lower end is below normal_min (may be flushed) */
   struct ref_tensor *good =
       tf(REF_DTYPE_FP32, 1, s5, (double[]){1 + P2(-23), 1 - P2(-24), NAN, -5, 0});
   struct tosa_ref_check_report rep;
   expect_status(tosa_ref_check_tensor_bound(good, ref, bnd, &rep), TOSA_REF_OK, "check bound");
   ok(rep.pass && rep.failures == 0, "all within the bounds");
   /* 1 + 2^-22 is not; 1 is not NaN */
   struct ref_tensor *bad = tf(REF_DTYPE_FP32, 1, s5, (double[]){1 + P2(-22), 1, 1, 7, 0});
   expect_status(tosa_ref_check_tensor_bound(bad, ref, bnd, &rep), TOSA_REF_OK, "check bound 2");
   ok(!rep.pass && rep.failures == 2 && rep.first_failure == 0, "two failures, the first at 0");
   expect_status(tosa_ref_check_tensor_bound(bad, bad, bnd, &rep), TOSA_REF_BAD_ARGUMENT,
                 "the reference must be FP64");
}
