/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * unit.dg_math: the math kernels' numerics (shaders/common/dg_math.glsl, compiled here as C by
 * glsl_as_c.h) against the CPU reference's out_ref and TOSA 1.0.1 error bound
 * (tosa_ref_math_fp64(), tosa_ref_math_err_bound()), without a device:
 *  - fp32: every 4099th bit pattern (--stride N to change it; --stride 1 is all 2^32, minutes
 *    per operator), with the Newton seeds exact and 3 ulps off either way (--exact-seeds: exact
 *    only); --op NAME: one operator;
 *  - fp16 and bf16: every bit pattern, the fp32 result rounded to nearest even as dg_store does;
 *  - POW: pseudo-random pairs over the domain, and C99's pow on a grid of special values;
 *  - the special values of the behaviour tables exactly (the bound lets EXP(+inf) be anything).
 * Prints the largest error per operator and type, as a fraction of the bound and in ulps.
 */
#include "glsl_as_c.h"

#include "dg_math.glsl"

#undef float
#undef int
#undef uint
#undef floor
#undef ceil
#undef clamp

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "tosa_ref.h"

struct op_case {
   enum tosa_ref_op op;
   const char *name;
   float (*fn)(float);
};

static float
fn_pow_unused(float x)
{
   return x;
}

static const struct op_case cases[] = {
    {TOSA_REF_OP_CEIL, "CEIL", dg_math_ceil},
    {TOSA_REF_OP_FLOOR, "FLOOR", dg_math_floor},
    {TOSA_REF_OP_EXP, "EXP", dg_math_exp},
    {TOSA_REF_OP_LOG, "LOG", dg_math_log},
    {TOSA_REF_OP_SIN, "SIN", dg_math_sin},
    {TOSA_REF_OP_COS, "COS", dg_math_cos},
    {TOSA_REF_OP_RECIPROCAL, "RECIPROCAL", dg_math_reciprocal},
    {TOSA_REF_OP_RSQRT, "RSQRT", dg_math_rsqrt},
    {TOSA_REF_OP_ERF, "ERF", dg_math_erf},
    {TOSA_REF_OP_SIGMOID, "SIGMOID", dg_math_sigmoid},
    {TOSA_REF_OP_TANH, "TANH", dg_math_tanh},
    {TOSA_REF_OP_POW, "POW", fn_pow_unused},
};

struct stats {
   double worst_frac; /* |imp - ref| / err_bnd */
   double worst_ulp;  /* |imp - ref| / tosa_ref_ulp */
   double worst_x, worst_y;
   double ulp_x, ulp_y; /* where the largest ulp error was */
   uint64_t checked, failed;
};

static unsigned failures_listed;

static void
record(struct stats *s, const char *name, enum ref_dtype type, double x, double y, double imp,
       double ref, double bnd)
{
   s->checked++;
   bool ok = tosa_ref_check_fp_bnd(type, imp, ref, bnd);
   if (!ok) {
      s->failed++;
      if (failures_listed++ < 40)
         printf("FAIL %s %s x=%a (%.9g) y=%a: got %a (%.9g), out_ref %.17g, bound %.3g\n", name,
                ref_dtype_name(type), x, x, y, imp, imp, ref, bnd);
   }
   if (isfinite(ref) && isfinite(imp)) {
      double err = fabs(imp - ref);
      double frac = bnd > 0 ? err / bnd : (err == 0 ? 0 : INFINITY);
      double ulp = tosa_ref_ulp(type, ref);
      double eu = ulp > 0 ? err / ulp : 0;
      /* a flushed subnormal result is not an error of the function */
      if (imp == 0 && fabs(ref) < ref_dtype_normal_min(type))
         frac = eu = 0;
      if (frac > s->worst_frac) {
         s->worst_frac = frac;
         s->worst_x = x;
         s->worst_y = y;
      }
      if (eu > s->worst_ulp) {
         s->worst_ulp = eu;
         s->ulp_x = x;
         s->ulp_y = y;
      }
   }
}

static void
report(const char *name, enum ref_dtype type, const struct stats *s, const char *what)
{
   printf("%-10s %-4s %-28s %12" PRIu64 " checked, %" PRIu64
          " failed; max error %.4f of the bound (x=%.9g y=%.9g), %.3f ulp (x=%.9g y=%.9g)\n",
          name, ref_dtype_name(type), what, s->checked, s->failed, s->worst_frac, s->worst_x,
          s->worst_y, s->worst_ulp, s->ulp_x, s->ulp_y);
}

static float
bits_f(uint32_t b)
{
   float f;
   memcpy(&f, &b, 4);
   return f;
}

/* One fp32 result checked. */
static void
check_f32(const struct op_case *c, struct stats *s, float x)
{
   float r = c->fn(x);
   double ref = tosa_ref_math_fp64(c->op, x, 0);
   record(s, c->name, REF_DTYPE_FP32, x, 0, r, ref,
          tosa_ref_math_err_bound(c->op, REF_DTYPE_FP32, x, 0, ref));
}

/* The behaviour tables: the special inputs' results exactly (NaN: any NaN). */
static unsigned
check_specials(void)
{
   static const float xs[] = {INFINITY, -INFINITY, 0.0f, -0.0f, NAN, -NAN};
   unsigned bad = 0;
   for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      const struct op_case *c = &cases[k];
      if (c->op == TOSA_REF_OP_POW)
         continue;
      for (size_t i = 0; i < sizeof(xs) / sizeof(xs[0]); i++) {
         double want = tosa_ref_math_fp64(c->op, xs[i], 0);
         float got = c->fn(xs[i]);
         bool ok = isnan(want) ? isnan(got) : (got == want && !signbit(got) == !signbit(want));
         /* CEIL, FLOOR, SIN, TANH keep the zero's sign; the table says so too */
         if (!ok) {
            printf("FAIL %s(%g): got %g, the behaviour table says %g\n", c->name, xs[i], got, want);
            bad++;
         }
      }
   }
   return bad;
}

/* C99's pow on a grid of special and ordinary values (the REQUIRE-failing inputs included):
 * exactly for the special results, elsewhere within POW's bound for |x|^y with C's sign. */
static unsigned
check_pow_c99(void)
{
   static const float v[] = {0.0f,     -0.0f,     1.0f,        -1.0f,        0.5f,  -0.5f,
                             2.0f,     -2.0f,     3.0f,        -3.0f,        2.5f,  -2.5f,
                             1e-40f,   -1e-40f,   16777216.0f, -16777217.0f, 3e38f, -3e38f,
                             INFINITY, -INFINITY, NAN,         7.0f,         -7.0f};
   unsigned bad = 0;
   size_t n = sizeof(v) / sizeof(v[0]);
   for (size_t i = 0; i < n; i++) {
      for (size_t j = 0; j < n; j++) {
         float x = v[i], y = v[j];
         float got = dg_math_pow(x, y);
         float want = powf(x, y);
         double dwant = pow((double)x, (double)y);
         bool ok;
         if (isnan(want))
            ok = isnan(got);
         else if (isinf(want) || want == 0 || fabs(dwant) >= 3.4028234663852886e38)
            ok = got == want && !signbit(got) == !signbit(want);
         else /* within POW's bound for |x|, the sign of C's */
            ok = !isnan(got) && !signbit(got) == !signbit(want) &&
                 tosa_ref_check_fp_bnd(REF_DTYPE_FP32, fabs(got), fabs(dwant),
                                       tosa_ref_math_err_bound(TOSA_REF_OP_POW, REF_DTYPE_FP32,
                                                               fabs(x), y, fabs(dwant)));
         if (!ok) {
            printf("FAIL POW(%g, %g): got %a, C99 pow %a\n", x, y, got, want);
            bad++;
         }
      }
   }
   return bad;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t
rng(void)
{
   uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
   z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
   z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
   return z ^ (z >> 31);
}

static void
check_pow_f32(struct stats *s, uint64_t count)
{
   for (uint64_t i = 0; i < count; i++) {
      uint64_t r = rng();
      float x = bits_f((uint32_t)r & 0x7fffffffu); /* any non-negative fp32 */
      float y;
      switch ((r >> 32) & 3) {
      case 0: /* y anywhere (most give 0 or inf) */
         y = bits_f((uint32_t)(r >> 32));
         break;
      case 1: /* x near 1 with large exponents */
         x = bits_f(0x3f800000u + (uint32_t)((int32_t)(r >> 40) >> 8));
         y = (float)((double)(int32_t)(r >> 33) / 65536.0);
         break;
      default: /* the usual range */
         y = (float)((double)((int64_t)(r >> 34) - (1ll << 29)) / (1 << 24));
         break;
      }
      if (!(x >= 0) || isinf(x) || isnan(y) || isinf(y) || (x == 0 && !(y > 0))) {
         i--;
         continue;
      }
      float got = dg_math_pow(x, y);
      double ref = tosa_ref_math_fp64(TOSA_REF_OP_POW, x, y);
      record(s, "POW", REF_DTYPE_FP32, x, y, got, ref,
             tosa_ref_math_err_bound(TOSA_REF_OP_POW, REF_DTYPE_FP32, x, y, ref));
   }
}

/* fp16/bf16 storage rounding of an fp32 result, as dg_store does (nearest even). */
static double
to_type(enum ref_dtype type, float v)
{
   return ref_fp_decode(type, ref_fp_encode(type, v, false));
}

static void
check_small(const struct op_case *c, enum ref_dtype type, struct stats *s)
{
   for (uint32_t b = 0; b < 65536; b++) {
      double x = ref_fp_decode(type, b);
      if (c->op == TOSA_REF_OP_POW) {
         /* every non-negative x with a few exponents */
         static const double ys[] = {0.5, 2, -1.5, 3.25, -0.125, 7, -11};
         if (!(x >= 0) || isinf(x))
            continue;
         for (size_t j = 0; j < sizeof(ys) / sizeof(ys[0]); j++) {
            if (x == 0 && ys[j] <= 0)
               continue;
            double got = to_type(type, dg_math_pow((float)x, (float)ys[j]));
            double ref = tosa_ref_math_fp64(c->op, x, ys[j]);
            record(s, c->name, type, x, ys[j], got, ref,
                   tosa_ref_math_err_bound(c->op, type, x, ys[j], ref));
         }
         continue;
      }
      double got = to_type(type, c->fn((float)x));
      double ref = tosa_ref_math_fp64(c->op, x, 0);
      record(s, c->name, type, x, 0, got, ref, tosa_ref_math_err_bound(c->op, type, x, 0, ref));
   }
}

int
main(int argc, char **argv)
{
   uint64_t stride = 4099;
   const char *only = NULL;
   size_t passes = 3; /* seeds exact, 3 ulps up, 3 ulps down */
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--stride") == 0 && i + 1 < argc)
         stride = strtoull(argv[++i], NULL, 0);
      else if (strcmp(argv[i], "--op") == 0 && i + 1 < argc)
         only = argv[++i];
      else if (strcmp(argv[i], "--exact-seeds") == 0)
         passes = 1;
      else {
         fprintf(stderr, "usage: %s [--stride N] [--op NAME] [--exact-seeds]\n", argv[0]);
         return 2;
      }
   }
   if (stride < 1)
      stride = 1;
   uint64_t failed = check_specials() + check_pow_c99();
   static const int biases[] = {0, 3, -3};
   for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      const struct op_case *c = &cases[k];
      if (only && strcmp(only, c->name) != 0)
         continue;
      for (size_t b = 0; b < passes; b++) {
         dg_math_c_seed_bias = biases[b];
         struct stats s = {0};
         if (c->op == TOSA_REF_OP_POW) {
            uint64_t n = (UINT64_C(1) << 32) / stride * 2;
            check_pow_f32(&s, n < (UINT64_C(1) << 28) ? n : (UINT64_C(1) << 28));
         } else {
            /* offset by the bias so that the three passes see different inputs */
            for (uint64_t bits = b; bits <= UINT32_MAX; bits += stride)
               check_f32(c, &s, bits_f((uint32_t)bits));
         }
         char what[64];
         snprintf(what, sizeof(what), "stride %" PRIu64 ", seeds %+d ulp", stride, biases[b]);
         report(c->name, REF_DTYPE_FP32, &s, what);
         failed += s.failed;
      }
      dg_math_c_seed_bias = 0;
      static const enum ref_dtype small[] = {REF_DTYPE_FP16, REF_DTYPE_BF16};
      for (size_t t = 0; t < 2; t++) {
         struct stats s = {0};
         check_small(c, small[t], &s);
         report(c->name, small[t], &s, "every bit pattern");
         failed += s.failed;
      }
   }
   printf("%s: %" PRIu64 " failures\n", failed ? "FAIL" : "ok", failed);
   return failed ? 1 : 0;
}
