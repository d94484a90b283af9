/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU reference implementation of TOSA 1.0.1 (tests/reference/tosa_ref.h):
 * tensors and the fp16/bf16/fp8 conversions (introduction.adoc "Supported Number Formats", OCP
 * OFP8, IEEE 754 round to nearest even), ADD, SUB, MUL (ewise_binary.adoc), CLAMP
 * (activation_funcs.adoc), RESHAPE, CONCAT (data_layout.adoc), MAX_POOL2D, CONV2D, MATMUL
 * (tensor_ops.adoc), RESCALE with apply_scale_32/16 (type_conversion.adoc, scale_helpers.tosac),
 * and the compliance checks (introduction.adoc "Compliance", tosa_reference_check*.tosac).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test. The checks are counted
 * per section and printed at the end.
 */
#include "test.h"
#include "tosa_ref.h"

#include <math.h>

TEST_MAIN_STATE;

#define COUNT(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

/* ---------------------------------------------------------------------------------------------
 * Helpers: tensors made here are kept in one list and freed at the end.
 */

static struct ref_tensor *kept[2048];
static unsigned kept_count;

static struct ref_tensor *
keep(struct ref_tensor *t)
{
   if (!t || kept_count == COUNT(kept)) {
      fprintf(stderr, "test_tosa_ref: tensor allocation failed\n");
      abort();
   }
   kept[kept_count++] = t;
   return t;
}

static void
free_kept(void)
{
   for (unsigned i = 0; i < kept_count; i++)
      ref_tensor_destroy(kept[i]);
   kept_count = 0;
}

/* A zero-filled tensor. */
static struct ref_tensor *
tz(enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   return keep(ref_tensor_create(dtype, rank, shape));
}

/* An integer (or BOOL) tensor filled from v. */
static struct ref_tensor *
ti(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const int64_t *v)
{
   struct ref_tensor *t = tz(dtype, rank, shape);
   ref_tensor_fill_int(t, v);
   return t;
}

/* A float tensor filled from v (each value must be exact in dtype, or is rounded). */
static struct ref_tensor *
tf(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const double *v)
{
   struct ref_tensor *t = tz(dtype, rank, shape);
   ref_tensor_fill_fp(t, v);
   return t;
}

/* A tensor filled with raw bit patterns. */
static struct ref_tensor *
tbits(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const uint64_t *bits)
{
   struct ref_tensor *t = tz(dtype, rank, shape);
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_bits(t, i, bits[i]);
   return t;
}

/* A shape-[1] tensor: zero points, MUL shift. */
static struct ref_tensor *
t1(enum ref_dtype dtype, int64_t v)
{
   return ti(dtype, 1, (int64_t[]){1}, (int64_t[]){v});
}

static struct ref_tensor *
t1f(enum ref_dtype dtype, double v)
{
   return tf(dtype, 1, (int64_t[]){1}, (double[]){v});
}

static bool
expect_status(int got, int want, const char *what)
{
   return ok(got == want, "%s: status %s, expected %s (%s)", what, tosa_ref_status_name(got),
             tosa_ref_status_name(want), tosa_ref_last_message());
}

/* One check: every element of t equals want[] as an integer. */
static bool
expect_ints(const struct ref_tensor *t, const int64_t *want, int64_t n, const char *what)
{
   if (t->count != n)
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count,
                (long long)n);
   for (int64_t i = 0; i < n; i++) {
      int64_t got = ref_tensor_get_int(t, i);
      if (got != want[i])
         return ok(false, "%s: [%lld] = %lld, expected %lld", what, (long long)i, (long long)got,
                   (long long)want[i]);
   }
   return ok(true, "%s", what);
}

/* One check: every element of t has the bit pattern want[]. */
static bool
expect_bits(const struct ref_tensor *t, const uint64_t *want, int64_t n, const char *what)
{
   if (t->count != n)
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count,
                (long long)n);
   for (int64_t i = 0; i < n; i++) {
      uint64_t got = ref_tensor_get_bits(t, i);
      if (got != want[i])
         return ok(false, "%s: [%lld] = 0x%llx, expected 0x%llx", what, (long long)i,
                   (unsigned long long)got, (unsigned long long)want[i]);
   }
   return ok(true, "%s", what);
}

/* Same value, a NaN for a NaN, and the same sign for a zero. */
static bool
same_fp(double got, double want)
{
   if (isnan(want))
      return isnan(got);
   return got == want && signbit(got) == signbit(want);
}

/* One check: every element of a float tensor has exactly the value want[]. */
static bool
expect_fps(const struct ref_tensor *t, const double *want, int64_t n, const char *what)
{
   if (t->count != n)
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count,
                (long long)n);
   for (int64_t i = 0; i < n; i++) {
      double got = ref_tensor_get_fp(t, i);
      if (!same_fp(got, want[i]))
         return ok(false, "%s: [%lld] = %a, expected %a", what, (long long)i, got, want[i]);
   }
   return ok(true, "%s", what);
}

static float
f32_of_bits(uint32_t bits)
{
   float f;
   memcpy(&f, &bits, sizeof(f));
   return f;
}

/* Per-section check counts for the summary. */
struct section_count {
   const char *name;
   unsigned checks;
};

static struct section_count sections[16];
static unsigned section_total;

static void
run_section(const char *name, void (*fn)(void))
{
   unsigned before = test_state.passed + test_state.failed;
   test_set_context(name);
   fn();
   test_set_context(NULL);
   free_kept();
   sections[section_total].name = name;
   sections[section_total].checks = test_state.passed + test_state.failed - before;
   section_total++;
}

/* ---------------------------------------------------------------------------------------------
 * Tensors (tensor_utils.tosac)
 */

static void
test_tensors(void)
{
   /* One-byte element types must be creatable like the others (count 6 = 2 * 3). */
   static const enum ref_dtype one_byte[] = {REF_DTYPE_BOOL, REF_DTYPE_I8, REF_DTYPE_FP8E4M3,
                                             REF_DTYPE_FP8E5M2};
   for (int64_t i = 0; i < COUNT(one_byte); i++) {
      struct ref_tensor *t = ref_tensor_create(one_byte[i], 2, (int64_t[]){2, 3});
      ok(t && t->count == 6, "create %s [2,3]", ref_dtype_name(one_byte[i]));
      ref_tensor_destroy(t);
   }
   /* "The tensor shape in each dimension must be greater than or equal to 1"; rank <= 6. */
   ok(!ref_tensor_create(REF_DTYPE_I32, 2, (int64_t[]){2, 0}), "a zero dimension is refused");
   ok(!ref_tensor_create(REF_DTYPE_I32, 7, (int64_t[]){1, 1, 1, 1, 1, 1, 1}), "rank 7 is refused");
   struct ref_tensor *scalar = tz(REF_DTYPE_FP32, 0, NULL);
   check_eq_i64(scalar->count, 1); /* rank 0: one element */
   struct ref_tensor *v = keep(ref_tensor_create_v(REF_DTYPE_I16, 3, INT64_C(2), INT64_C(3),
                                                   INT64_C(4)));
   check_eq_i64(v->count, 24);
   check_eq_i64(v->shape[2], 4);

   /* tensor_index_to_offset: [1,2] in [2,3] is 1 * 3 + 2 = 5; offset 4 is [1,1]. */
   struct ref_tensor *t = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   check_eq_i64(ref_tensor_offset(t, (int64_t[]){1, 2}), 5);
   check_eq_i64(ref_tensor_offset(t, (int64_t[]){2, 0}), -1);
   int64_t index[2];
   ref_tensor_index(t, 4, index);
   ok(index[0] == 1 && index[1] == 1, "offset 4 is [1,1]: [%lld,%lld]", (long long)index[0],
      (long long)index[1]);

   /* Stores keep the low bits: 200 in an i8 reads back as 200 - 256 = -56; i48 sign-extends
    * from bit 47: 2^47 reads as -2^47, and 2^48 + 5 as 5. BOOL stores v != 0. */
   struct ref_tensor *i8 = tz(REF_DTYPE_I8, 1, (int64_t[]){1});
   ref_tensor_set_int(i8, 0, 200);
   check_eq_i64(ref_tensor_get_int(i8, 0), -56);
   check_eq_u64(ref_tensor_get_bits(i8, 0), 0xC8);
   struct ref_tensor *i48 = tz(REF_DTYPE_I48, 1, (int64_t[]){2});
   ref_tensor_set_int(i48, 0, INT64_C(1) << 47);
   ref_tensor_set_int(i48, 1, (INT64_C(1) << 48) + 5);
   check_eq_i64(ref_tensor_get_int(i48, 0), -(INT64_C(1) << 47));
   check_eq_i64(ref_tensor_get_int(i48, 1), 5);
   struct ref_tensor *b = tz(REF_DTYPE_BOOL, 1, (int64_t[]){1});
   ref_tensor_set_int(b, 0, 7);
   check_eq_i64(ref_tensor_get_int(b, 0), 1);
   check_eq_u64(ref_dtype_size(REF_DTYPE_I48), 8);
   check_eq_u64(ref_dtype_int_bits(REF_DTYPE_I48), 48);
}

/* ---------------------------------------------------------------------------------------------
 * Number formats. fp16 is IEEE binary16 (bias 15, 10 fraction bits), bf16 the top half of
 * binary32 (bias 127, 7 bits), fp8e4m3 OCP E4M3 (bias 7, 3 bits, no inf, S.1111.111 NaN, max
 * S.1111.110 = 448), fp8e5m2 OCP E5M2 (bias 15, 2 bits, IEEE-style inf/NaN, max 57344).
 * Conversions round to nearest, ties to even, keep subnormals, keep a NaN's sign.
 */

struct enc_case {
   double value;
   uint32_t bits;      /* non-saturating (IEEE / OCP non-saturating mode) */
   uint32_t sat_bits;  /* OCP saturating mode (fp8 only) */
   const char *why;
};

static const struct enc_case fp16_enc[] = {
   {1.0, 0x3C00, 0, "1.0: exponent 15 + 0, fraction 0"},
   {65504.0, 0x7BFF, 0, "max finite (2 - 2^-10) * 2^15"},
   {65519.0, 0x7BFF, 0, "below 65520, the midpoint of 65504 and 65536: down"},
   {65520.0, 0x7C00, 0, "the midpoint: to even is 2^16, which overflows to +inf"},
   {-65520.0, 0xFC00, 0, "likewise -inf"},
   {1e10, 0x7C00, 0, "overflow: +inf"},
   {0x1p-24, 0x0001, 0, "smallest subnormal 2^-24"},
   {0x1p-25, 0x0000, 0, "half of it: a tie between 0 (even) and 0x0001"},
   {-0x1p-25, 0x8000, 0, "the negative tie goes to -0"},
   {0x1.8p-25, 0x0001, 0, "0.75 * 2^-24: nearest is 0x0001"},
   {0x1.8p-24, 0x0002, 0, "1.5 * 2^-24: tie between 0x0001 (odd) and 0x0002 (even)"},
   {0x1.ff8p-15, 0x03FF, 0, "largest subnormal 1023 * 2^-24"},
   {0x1p-14, 0x0400, 0, "smallest normal"},
   {0x1.002p0, 0x3C00, 0, "1 + 2^-11: tie between 0x3C00 (even) and 0x3C01"},
   {0x1.006p0, 0x3C02, 0, "1 + 3 * 2^-11: tie between 0x3C01 (odd) and 0x3C02"},
   {0x1.0021p0, 0x3C01, 0, "1 + 2^-11 + 2^-16: above the tie, up"},
   {-0.0, 0x8000, 0, "-0"},
   {INFINITY, 0x7C00, 0, "+inf"},
   {-INFINITY, 0xFC00, 0, "-inf"},
   {NAN, 0x7E00, 0, "NaN: the quiet NaN"},
   {-NAN, 0xFE00, 0, "-NaN keeps its sign"},
};

static const struct enc_case e4m3_enc[] = {
   {1.0, 0x38, 0x38, "1.0: exponent 7 + 0 = 0111, fraction 000"},
   {448.0, 0x7E, 0x7E, "max finite S.1111.110 = 1.75 * 2^8"},
   {-448.0, 0xFE, 0xFE, "-448"},
   {256.0, 0x78, 0x78, "1111.000 is a normal binade in E4M3"},
   {464.0, 0x7E, 0x7E, "midpoint of 448 (fraction 110, even) and 480 (111): 448"},
   {465.0, 0x7F, 0x7E, "rounds to 480, beyond max: non-saturating NaN, saturating 448"},
   {-1000.0, 0xFF, 0xFE, "overflow: -NaN, saturating -448"},
   {INFINITY, 0x7F, 0x7E, "no infinity: NaN, saturating 448"},
   {-INFINITY, 0xFF, 0xFE, "-inf: -NaN, saturating -448"},
   {NAN, 0x7F, 0x7F, "NaN stays NaN in both modes"},
   {-NAN, 0xFF, 0xFF, "-NaN"},
   {0x1p-9, 0x01, 0x01, "smallest subnormal 2^(1-7-3)"},
   {0x1p-10, 0x00, 0x00, "half of it: tie to 0"},
   {0x1.8p-10, 0x01, 0x01, "0.75 * 2^-9: up to 0x01"},
   {0x1.8p-9, 0x02, 0x02, "1.5 * 2^-9: tie between 0x01 (odd) and 0x02"},
   {0x1.cp-7, 0x07, 0x07, "largest subnormal 7 * 2^-9"},
   {0x1p-6, 0x08, 0x08, "smallest normal"},
   {0x1.1p0, 0x38, 0x38, "1 + 2^-4: tie between 1.0 (even) and 1.125"},
   {0x1.3p0, 0x3A, 0x3A, "1 + 3 * 2^-4: tie between 1.125 (0x39, odd) and 1.25 (0x3A)"},
   {-0.0, 0x80, 0x80, "-0"},
};

static const struct enc_case e5m2_enc[] = {
   {1.0, 0x3C, 0x3C, "1.0: exponent 15 + 0 = 01111, fraction 00"},
   {57344.0, 0x7B, 0x7B, "max finite 1.75 * 2^15 = S.11110.11"},
   {61439.0, 0x7B, 0x7B, "below the midpoint 61440: down to 57344"},
   {61440.0, 0x7C, 0x7B, "midpoint of 57344 (odd) and 65536 (even): +inf; saturating 57344"},
   {1e6, 0x7C, 0x7B, "overflow: +inf, saturating max"},
   {-1e6, 0xFC, 0xFB, "-inf, saturating -57344"},
   {INFINITY, 0x7C, 0x7B, "+inf stays; saturating gives max"},
   {-INFINITY, 0xFC, 0xFB, "-inf"},
   {NAN, 0x7E, 0x7E, "NaN: S.11111.10"},
   {-NAN, 0xFE, 0xFE, "-NaN"},
   {0x1p-16, 0x01, 0x01, "smallest subnormal 2^(1-15-2)"},
   {0x1p-17, 0x00, 0x00, "half of it: tie to 0"},
   {0x1.8p-17, 0x01, 0x01, "0.75 * 2^-16: up"},
   {0x1.8p-16, 0x02, 0x02, "1.5 * 2^-16: tie to 0x02 (even)"},
   {0x1.8p-15, 0x03, 0x03, "largest subnormal 3 * 2^-16"},
   {0x1p-14, 0x04, 0x04, "smallest normal"},
   {0x1.2p0, 0x3C, 0x3C, "1.125: tie between 1.0 (even) and 1.25"},
   {0x1.6p0, 0x3E, 0x3E, "1.375: tie between 1.25 (0x3D, odd) and 1.5 (0x3E)"},
};

struct dec_case {
   uint32_t bits;
   double value;
};

static const struct dec_case fp16_dec[] = {
   {0x0001, 0x1p-24},  {0x03FF, 0x1.ff8p-15}, {0x0400, 0x1p-14}, {0x3555, 0x1.554p-2},
   {0x7BFF, 65504.0},  {0xFBFF, -65504.0},    {0x7C00, INFINITY}, {0xFC00, -INFINITY},
   {0x8000, -0.0},     {0x7C01, NAN},         {0xFE00, NAN},
};

static const struct dec_case bf16_dec[] = {
   {0x0001, 0x1p-133}, {0x3F81, 0x1.02p0}, {0x7F7F, 0x1.fep127}, {0xFF80, -INFINITY},
   {0x7FC0, NAN},      {0x7F81, NAN},      {0x8000, -0.0},
};

static const struct dec_case e4m3_dec[] = {
   {0x7F, NAN}, {0xFF, NAN},     {0x7E, 448.0}, {0xFE, -448.0}, {0x78, 256.0},
   {0x01, 0x1p-9}, {0x08, 0x1p-6}, {0x80, -0.0}, {0xB8, -1.0},
};

static const struct dec_case e5m2_dec[] = {
   {0x7B, 57344.0}, {0x7C, INFINITY}, {0xFC, -INFINITY}, {0x7D, NAN},  {0x7E, NAN},
   {0x7F, NAN},     {0x01, 0x1p-16},  {0x04, 0x1p-14},   {0x80, -0.0}, {0x3D, 1.25},
};

/* bf16 from fp32 bit patterns: bf16 keeps bits [31:16], rounding the low 16 to nearest even. */
struct bf16_case {
   uint32_t f32_bits;
   uint16_t bits;
   const char *why;
};

static const struct bf16_case bf16_enc[] = {
   {0x3F800000, 0x3F80, "1.0"},
   {0x3F808000, 0x3F80, "1 + 2^-8: tie, 0x3F80 is even"},
   {0x3F818000, 0x3F82, "tie between 0x3F81 (odd) and 0x3F82"},
   {0x3F808001, 0x3F81, "just above the tie"},
   {0x7F7F7FFF, 0x7F7F, "below the midpoint above the max finite 0x7F7F"},
   {0x7F7F8000, 0x7F80, "the midpoint: to even is 2^128, +inf"},
   {0x7F7FFFFF, 0x7F80, "FLT_MAX lies past bf16's rounding boundary: +inf"},
   {0x00010000, 0x0001, "smallest bf16 subnormal 2^-133"},
   {0x00008000, 0x0000, "2^-134: tie to 0"},
   {0x00018000, 0x0002, "1.5 * 2^-133: tie to 0x0002"},
   {0x80008000, 0x8000, "-2^-134: -0"},
   {0x80000000, 0x8000, "-0"},
   {0x7F800000, 0x7F80, "+inf"},
   {0xFF800000, 0xFF80, "-inf"},
   {0x7F800001, 0x7FC0, "a NaN with payload only in the low half: NaN, not inf"},
   {0xFF800001, 0xFFC0, "likewise, negative"},
   {0x7FC00000, 0x7FC0, "quiet NaN"},
};

static void
test_conversions(void)
{
   for (int64_t i = 0; i < COUNT(fp16_enc); i++) {
      const struct enc_case *c = &fp16_enc[i];
      uint16_t got = ref_fp32_to_fp16((float)c->value);
      ok(got == c->bits, "fp16(%a) = 0x%04x, expected 0x%04x: %s", c->value, got, c->bits,
         c->why);
   }
   for (int64_t i = 0; i < COUNT(e4m3_enc); i++) {
      const struct enc_case *c = &e4m3_enc[i];
      uint8_t got = ref_fp32_to_fp8e4m3((float)c->value, false);
      uint8_t sat = ref_fp32_to_fp8e4m3((float)c->value, true);
      ok(got == c->bits && sat == c->sat_bits, "e4m3(%a) = 0x%02x/0x%02x, expected 0x%02x/0x%02x: %s",
         c->value, got, sat, c->bits, c->sat_bits, c->why);
   }
   for (int64_t i = 0; i < COUNT(e5m2_enc); i++) {
      const struct enc_case *c = &e5m2_enc[i];
      uint8_t got = ref_fp32_to_fp8e5m2((float)c->value, false);
      uint8_t sat = ref_fp32_to_fp8e5m2((float)c->value, true);
      ok(got == c->bits && sat == c->sat_bits, "e5m2(%a) = 0x%02x/0x%02x, expected 0x%02x/0x%02x: %s",
         c->value, got, sat, c->bits, c->sat_bits, c->why);
   }
   for (int64_t i = 0; i < COUNT(bf16_enc); i++) {
      const struct bf16_case *c = &bf16_enc[i];
      uint16_t got = ref_fp32_to_bf16(f32_of_bits(c->f32_bits));
      ok(got == c->bits, "bf16(0x%08x) = 0x%04x, expected 0x%04x: %s", c->f32_bits, got, c->bits,
         c->why);
   }

   for (int64_t i = 0; i < COUNT(fp16_dec); i++)
      ok(same_fp(ref_fp16_to_fp32((uint16_t)fp16_dec[i].bits), fp16_dec[i].value),
         "fp16 0x%04x decodes to %a", fp16_dec[i].bits, fp16_dec[i].value);
   for (int64_t i = 0; i < COUNT(bf16_dec); i++)
      ok(same_fp(ref_bf16_to_fp32((uint16_t)bf16_dec[i].bits), bf16_dec[i].value),
         "bf16 0x%04x decodes to %a", bf16_dec[i].bits, bf16_dec[i].value);
   for (int64_t i = 0; i < COUNT(e4m3_dec); i++)
      ok(same_fp(ref_fp8e4m3_to_fp32((uint8_t)e4m3_dec[i].bits), e4m3_dec[i].value),
         "e4m3 0x%02x decodes to %a", e4m3_dec[i].bits, e4m3_dec[i].value);
   for (int64_t i = 0; i < COUNT(e5m2_dec); i++)
      ok(same_fp(ref_fp8e5m2_to_fp32((uint8_t)e5m2_dec[i].bits), e5m2_dec[i].value),
         "e5m2 0x%02x decodes to %a", e5m2_dec[i].bits, e5m2_dec[i].value);

   /* One rounding from fp64 (ref_fp_encode), where a detour through fp32 would round twice:
    * 1 + 2^-11 + 2^-40 is just above the fp16 tie 1 + 2^-11, so 0x3C01 (through fp32 it would
    * become exactly the tie and then 0x3C00). fp32: 1 + 2^-24 is a tie (to 1.0), 1 + 2^-24 +
    * 2^-50 goes up, 1 + 3 * 2^-24 is a tie between 0x3F800001 (odd) and 0x3F800002. */
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP16, 0x1.002p0 + 0x1p-40, false), 0x3C01);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 1.0 + 0x1p-24, false), 0x3F800000);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 1.0 + 0x1p-24 + 0x1p-50, false), 0x3F800001);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 1.0 + 0x3p-24, false), 0x3F800002);
   /* FLT_MAX = 0x1.fffffep127 (odd); the midpoint 0x1.ffffffp127 goes to 2^128: +inf. */
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 0x1.ffffffp127, false), 0x7F800000);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 0x1.fffffefp127, false), 0x7F7FFFFF);
   /* fp32 subnormals: 2^-149 is the smallest; 2^-150 ties to 0; 0.75 * 2^-149 goes up. */
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 0x1p-149, false), 0x00000001);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 0x1p-150, false), 0x00000000);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, 0x1.8p-150, false), 0x00000001);
   check_eq_u64(ref_fp_encode(REF_DTYPE_FP32, -1e-50, false), 0x80000000);
   /* bf16 from fp64: 1 + 2^-8 + 2^-30 is above the bf16 tie: 0x3F81. */
   check_eq_u64(ref_fp_encode(REF_DTYPE_BF16, 1.0 + 0x1p-8 + 0x1p-30, false), 0x3F81);
   ok(same_fp(ref_fp_decode(REF_DTYPE_FP32, 0x00000001), 0x1p-149), "fp32 0x00000001 = 2^-149");

   /* numeric_accuracy_helpers.tosac: normal_min, normal_max, normal_frac. */
   ok(ref_dtype_normal_min(REF_DTYPE_FP32) == 0x1p-126 &&
         ref_dtype_normal_min(REF_DTYPE_BF16) == 0x1p-126 &&
         ref_dtype_normal_min(REF_DTYPE_FP16) == 0x1p-14 &&
         ref_dtype_normal_min(REF_DTYPE_FP8E4M3) == 0x1p-6 &&
         ref_dtype_normal_min(REF_DTYPE_FP8E5M2) == 0x1p-14,
      "normal_min: exp2(-126), exp2(-126), exp2(-14), exp2(-6), exp2(-14)");
   /* exp2(128) - exp2(104), exp2(128) - exp2(120), 65536 - 32 = 65504, 512 - 64 = 448,
    * 65536 - 8192 = 57344. */
   ok(ref_dtype_normal_max(REF_DTYPE_FP32) == 0x1.fffffep127 &&
         ref_dtype_normal_max(REF_DTYPE_BF16) == 0x1.fep127 &&
         ref_dtype_normal_max(REF_DTYPE_FP16) == 65504.0 &&
         ref_dtype_normal_max(REF_DTYPE_FP8E4M3) == 448.0 &&
         ref_dtype_normal_max(REF_DTYPE_FP8E5M2) == 57344.0,
      "normal_max");
   ok(ref_dtype_normal_frac(REF_DTYPE_FP32) == 23 && ref_dtype_normal_frac(REF_DTYPE_BF16) == 7 &&
         ref_dtype_normal_frac(REF_DTYPE_FP16) == 10 &&
         ref_dtype_normal_frac(REF_DTYPE_FP8E4M3) == 3 &&
         ref_dtype_normal_frac(REF_DTYPE_FP8E5M2) == 2,
      "normal_frac: 23, 7, 10, 3, 2");

   /* Tensor stores round the same way: fp16 tensor of 65520 holds +inf, an E4M3 tensor of 1000
    * holds NaN (non-saturating, as CAST requires). */
   struct ref_tensor *h = tf(REF_DTYPE_FP16, 1, (int64_t[]){2}, (double[]){65520.0, 0x1p-25});
   expect_bits(h, (uint64_t[]){0x7C00, 0x0000}, 2, "fp16 tensor store");
   struct ref_tensor *e = tf(REF_DTYPE_FP8E4M3, 1, (int64_t[]){1}, (double[]){1000.0});
   expect_bits(e, (uint64_t[]){0x7F}, 1, "e4m3 tensor store overflows to NaN");
}

/* ---------------------------------------------------------------------------------------------
 * ADD, SUB (ADD.tosac, SUB.tosac, apply_add_s / apply_sub_s, broadcast_shape.tosac)
 */

static const int64_t I32_MAX = INT32_MAX;
static const int64_t I32_MIN = INT32_MIN;

static void
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
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 1, s3), tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3}),
                              o),
                 TOSA_REF_ERROR, "rank 1 + rank 2");
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 1, (int64_t[]){2}), tz(REF_DTYPE_I32, 1, s3),
                              tz(REF_DTYPE_I32, 1, s3)),
                 TOSA_REF_ERROR, "[2] + [3] do not broadcast");
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3}),
                              tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3}),
                              tz(REF_DTYPE_I32, 2, (int64_t[]){1, 3})),
                 TOSA_REF_ERROR, "output [1,3] is not broadcast_shape [2,3]");

   /* Rows: i32, fp16, bf16, fp32, each type throughout. */
   expect_status(tosa_ref_add(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1),
                              tz(REF_DTYPE_I8, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i8 ADD has no row");
   expect_status(tosa_ref_add(tz(REF_DTYPE_I32, 1, s1), tz(REF_DTYPE_I32, 1, s1),
                              tz(REF_DTYPE_FP32, 1, s1)),
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
   expect_status(tosa_ref_add(tf(REF_DTYPE_FP16, 1, s6,
                                 (double[]){1.0, 1.0, 65504.0, 65504.0, 0x1p-24, -0.0}),
                              tf(REF_DTYPE_FP16, 1, s6,
                                 (double[]){0x1p-11, 0x3p-11, 16.0, 8.0, 0x1p-24, -0.0}),
                              o),
                 TOSA_REF_OK, "fp16 add");
   expect_bits(o, (uint64_t[]){0x3C00, 0x3C02, 0x7C00, 0x7BFF, 0x0002, 0x8000}, 6, "fp16 add");

   /* bf16: 1 + 2^-8 ties to 0x3F80; 1 + 3 * 2^-8 ties to 0x3F82; -0 + +0 = +0. */
   o = tz(REF_DTYPE_BF16, 1, s3);
   expect_status(tosa_ref_add(tf(REF_DTYPE_BF16, 1, s3, (double[]){1.0, 1.0, -0.0}),
                              tf(REF_DTYPE_BF16, 1, s3, (double[]){0x1p-8, 0x3p-8, 0.0}), o),
                 TOSA_REF_OK, "bf16 add");
   expect_bits(o, (uint64_t[]){0x3F80, 0x3F82, 0x0000}, 3, "bf16 add");
}

static void
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
   expect_status(tosa_ref_sub(tz(REF_DTYPE_I16, 1, s1), tz(REF_DTYPE_I16, 1, s1),
                              tz(REF_DTYPE_I16, 1, s1)),
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

static void
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
   expect_status(mul_i32((int64_t[]){65536, 65537, I32_MIN}, (int64_t[]){65536, 65537, -1}, 3, 0,
                         &o),
                 TOSA_REF_OK, "i32 mul, shift 0");
   expect_ints(o, (int64_t[]){0, 131073, I32_MIN}, 3, "i32 mul wraps");

   /* shift 1: (p + 1) >> 1, rounding half up: 15 -> 8, -15 -> -14 >> 1 = -7;
    * 46341^2 = 2147488281 (beyond INT32_MAX before the shift) -> 1073744141. */
   expect_status(mul_i32((int64_t[]){3, -3, 46341}, (int64_t[]){5, 5, 46341}, 3, 1, &o),
                 TOSA_REF_OK, "i32 mul, shift 1");
   expect_ints(o, (int64_t[]){8, -7, 1073744141}, 3, "i32 mul, shift 1");

   /* shift 2 (round 2, arithmetic >> is floor): 13 -> 15 >> 2 = 3; -13 -> -11 >> 2 = -3;
    * 14 (3.5) -> 16 >> 2 = 4; -14 (-3.5) -> -12 >> 2 = -3; 10 (2.5) -> 3; -10 (-2.5) -> -2. */
   expect_status(mul_i32((int64_t[]){13, -13, 14, -14, 10, -10}, (int64_t[]){1, 1, 1, 1, 1, 1}, 6,
                         2, &o),
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
   expect_status(tosa_ref_mul(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1),
                              t1(REF_DTYPE_I8, 0), tz(REF_DTYPE_I8, 1, s1)),
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
   struct tosa_ref_clamp_args a = {.min_int = min, .max_int = max,
                                   .nan_mode = TOSA_REF_NAN_PROPAGATE};
   *out = tz(t, 1, s);
   return tosa_ref_clamp(&a, ti(t, 1, s, in), *out);
}

static void
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
   expect_status(clamp_int(REF_DTYPE_I16, (int64_t[]){-32768, 0, 32767}, 3, 7, 7, &o),
                 TOSA_REF_OK, "i16 clamp, min == max");
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
   expect_status(clamp(REF_DTYPE_FP32, fin, 5, -1.0, 1.0, TOSA_REF_NAN_PROPAGATE, &o),
                 TOSA_REF_OK, "fp32 clamp propagate");
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
   expect_status(clamp(REF_DTYPE_BF16, (double[]){NAN, 1.0, 300.0}, 3, 2.0, 256.0,
                       TOSA_REF_NAN_IGNORE, &o),
                 TOSA_REF_OK, "bf16 clamp ignore");
   expect_bits(o, (uint64_t[]){0x4000, 0x4000, 0x4380}, 3, "bf16 clamp ignore");
   expect_status(clamp(REF_DTYPE_BF16, (double[]){NAN}, 1, 2.0, 256.0, TOSA_REF_NAN_PROPAGATE,
                       &o),
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
   expect_status(clamp(REF_DTYPE_FP32, (double[]){0.0}, 1, -1.0, 1.0, (enum tosa_ref_nan_mode)0,
                       &o),
                 TOSA_REF_UNSUPPORTED, "nan_mode 0");
   /* Rows: i8, i16, fp16, bf16, fp32 only (no i32 CLAMP in TOSA 1.0; no fp8). */
   expect_status(clamp_int(REF_DTYPE_I32, (int64_t[]){0}, 1, -1, 1, &o), TOSA_REF_UNSUPPORTED,
                 "i32 CLAMP has no row");
   expect_status(clamp(REF_DTYPE_FP8E4M3, (double[]){0.0}, 1, -1.0, 1.0, TOSA_REF_NAN_PROPAGATE,
                       &o),
                 TOSA_REF_UNSUPPORTED, "fp8 CLAMP has no row");
   struct tosa_ref_clamp_args a = {.min_int = 0, .max_int = 1, .nan_mode = TOSA_REF_NAN_IGNORE};
   expect_status(tosa_ref_clamp(&a, tz(REF_DTYPE_I8, 1, (int64_t[]){2}),
                                tz(REF_DTYPE_I8, 1, (int64_t[]){3})),
                 TOSA_REF_ERROR, "output shape differs");
   expect_status(tosa_ref_clamp(&a, tz(REF_DTYPE_I8, 1, (int64_t[]){2}),
                                tz(REF_DTYPE_I16, 1, (int64_t[]){2})),
                 TOSA_REF_UNSUPPORTED, "output type differs");
}

/* ---------------------------------------------------------------------------------------------
 * RESHAPE, CONCAT (RESHAPE.tosac, CONCAT.tosac): bit patterns move unchanged.
 */

/* Per row type: four bit patterns, NaN payloads, infinities, -0 and subnormals included. */
struct data_row {
   enum ref_dtype type;
   uint64_t bits[4];
};

static const struct data_row data_rows[] = {
   {REF_DTYPE_BOOL, {0, 1, 1, 0}},
   {REF_DTYPE_I8, {0x80, 0x7F, 0x00, 0xFF}},
   {REF_DTYPE_I16, {0x8000, 0x7FFF, 0x0001, 0xFFFF}},
   {REF_DTYPE_I32, {0x80000000, 0x7FFFFFFF, 0x00000001, 0xFFFFFFFF}},
   {REF_DTYPE_FP8E4M3, {0x7F, 0xFE, 0x80, 0x01}},
   {REF_DTYPE_FP8E5M2, {0x7D, 0xFC, 0x80, 0x01}},
   {REF_DTYPE_FP16, {0x7D01, 0xFC00, 0x8000, 0x0001}},
   {REF_DTYPE_BF16, {0x7F81, 0xFF80, 0x8000, 0x0001}},
   {REF_DTYPE_FP32, {0x7FC12345, 0xFF800000, 0x80000000, 0x00000001}},
};

static void
test_reshape(void)
{
   /* tensor_index_to_offset / tensor_offset_to_index: the flat order is kept. */
   struct ref_tensor *o = tz(REF_DTYPE_I8, 2, (int64_t[]){3, 2});
   expect_status(tosa_ref_reshape(ti(REF_DTYPE_I8, 2, (int64_t[]){2, 3},
                                     (int64_t[]){1, 2, 3, 4, 5, 6}),
                                  o),
                 TOSA_REF_OK, "[2,3] -> [3,2]");
   expect_ints(o, (int64_t[]){1, 2, 3, 4, 5, 6}, 6, "[2,3] -> [3,2]");

   for (int64_t r = 0; r < COUNT(data_rows); r++) {
      const struct data_row *row = &data_rows[r];
      char what[64];
      snprintf(what, sizeof(what), "%s [2,2] -> [4]", ref_dtype_name(row->type));
      o = tz(row->type, 1, (int64_t[]){4});
      expect_status(tosa_ref_reshape(tbits(row->type, 2, (int64_t[]){2, 2}, row->bits), o),
                    TOSA_REF_OK, what);
      expect_bits(o, row->bits, 4, what);
   }

   /* Rank 0 to [1,1,1] and back: one element. */
   o = tz(REF_DTYPE_I32, 3, (int64_t[]){1, 1, 1});
   expect_status(tosa_ref_reshape(ti(REF_DTYPE_I32, 0, NULL, (int64_t[]){-7}), o), TOSA_REF_OK,
                 "rank 0 -> [1,1,1]");
   expect_ints(o, (int64_t[]){-7}, 1, "rank 0 -> [1,1,1]");
   struct ref_tensor *o0 = tz(REF_DTYPE_I32, 0, NULL);
   expect_status(tosa_ref_reshape(o, o0), TOSA_REF_OK, "[1,1,1] -> rank 0");
   expect_ints(o0, (int64_t[]){-7}, 1, "[1,1,1] -> rank 0");

   expect_status(tosa_ref_reshape(tz(REF_DTYPE_I8, 2, (int64_t[]){2, 3}),
                                  tz(REF_DTYPE_I8, 1, (int64_t[]){5})),
                 TOSA_REF_ERROR, "ERROR_IF(tensor_size 6 != 5)");
   expect_status(tosa_ref_reshape(tz(REF_DTYPE_I48, 1, (int64_t[]){2}),
                                  tz(REF_DTYPE_I48, 1, (int64_t[]){2})),
                 TOSA_REF_UNSUPPORTED, "i48 RESHAPE has no row");
   expect_status(tosa_ref_reshape(tz(REF_DTYPE_I8, 1, (int64_t[]){2}),
                                  tz(REF_DTYPE_I16, 1, (int64_t[]){2})),
                 TOSA_REF_UNSUPPORTED, "RESHAPE changes no type");
}

static int
concat(int32_t axis, const struct ref_tensor *const *in, uint32_t n, struct ref_tensor *out)
{
   struct tosa_ref_concat_args a = {.axis = axis};
   return tosa_ref_concat(&a, in, n, out);
}

static void
test_concat(void)
{
   /* axis 0: [[1,2]] then [[3,4],[5,6]]. */
   const struct ref_tensor *in2[2];
   in2[0] = ti(REF_DTYPE_I32, 2, (int64_t[]){1, 2}, (int64_t[]){1, 2});
   in2[1] = ti(REF_DTYPE_I32, 2, (int64_t[]){2, 2}, (int64_t[]){3, 4, 5, 6});
   struct ref_tensor *o = tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2});
   expect_status(concat(0, in2, 2, o), TOSA_REF_OK, "axis 0");
   expect_ints(o, (int64_t[]){1, 2, 3, 4, 5, 6}, 6, "axis 0");

   /* axis 1: [[1],[2]] beside [[3,4],[5,6]] = [[1,3,4],[2,5,6]]. */
   in2[0] = ti(REF_DTYPE_I32, 2, (int64_t[]){2, 1}, (int64_t[]){1, 2});
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   expect_status(concat(1, in2, 2, o), TOSA_REF_OK, "axis 1");
   expect_ints(o, (int64_t[]){1, 3, 4, 2, 5, 6}, 6, "axis 1");

   /* Three inputs along the last axis of rank 3: row 0 = a0, b00, b01, c0 = 1, 3, 4, 7;
    * row 1 = 2, 5, 6, 8. */
   const struct ref_tensor *in3[3];
   in3[0] = ti(REF_DTYPE_I16, 3, (int64_t[]){1, 2, 1}, (int64_t[]){1, 2});
   in3[1] = ti(REF_DTYPE_I16, 3, (int64_t[]){1, 2, 2}, (int64_t[]){3, 4, 5, 6});
   in3[2] = ti(REF_DTYPE_I16, 3, (int64_t[]){1, 2, 1}, (int64_t[]){7, 8});
   o = tz(REF_DTYPE_I16, 3, (int64_t[]){1, 2, 4});
   expect_status(concat(2, in3, 3, o), TOSA_REF_OK, "three inputs, axis 2");
   expect_ints(o, (int64_t[]){1, 3, 4, 7, 2, 5, 6, 8}, 8, "three inputs, axis 2");

   /* One input: a copy. */
   const struct ref_tensor *in1[1] = {ti(REF_DTYPE_I8, 1, (int64_t[]){2}, (int64_t[]){-1, 1})};
   o = tz(REF_DTYPE_I8, 1, (int64_t[]){2});
   expect_status(concat(0, in1, 1, o), TOSA_REF_OK, "one input");
   expect_ints(o, (int64_t[]){-1, 1}, 2, "one input");

   /* Every row type: [2] then [2] along axis 0 gives the four patterns in order. */
   for (int64_t r = 0; r < COUNT(data_rows); r++) {
      const struct data_row *row = &data_rows[r];
      char what[64];
      snprintf(what, sizeof(what), "%s concat", ref_dtype_name(row->type));
      in2[0] = tbits(row->type, 1, (int64_t[]){2}, row->bits);
      in2[1] = tbits(row->type, 1, (int64_t[]){2}, row->bits + 2);
      o = tz(row->type, 1, (int64_t[]){4});
      expect_status(concat(0, in2, 2, o), TOSA_REF_OK, what);
      expect_bits(o, row->bits, 4, what);
   }

   /* ERROR_IFs, in CONCAT.tosac's order. */
   in2[0] = tz(REF_DTYPE_I32, 2, (int64_t[]){1, 2});
   in2[1] = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2});
   expect_status(concat(0, in2, 0, o), TOSA_REF_ERROR, "ERROR_IF(input1 == [])");
   expect_status(concat(-1, in2, 2, o), TOSA_REF_ERROR, "ERROR_IF(axis < 0)");
   expect_status(concat(2, in2, 2, o), TOSA_REF_ERROR, "ERROR_IF(axis >= rank)");
   in2[1] = tz(REF_DTYPE_I32, 1, (int64_t[]){2});
   expect_status(concat(0, in2, 2, o), TOSA_REF_ERROR, "ERROR_IF(rank differs)");
   in2[1] = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   expect_status(concat(0, in2, 2, o), TOSA_REF_ERROR, "ERROR_IF(non-axis dimension differs)");
   in2[1] = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   expect_status(concat(0, in2, 2, tz(REF_DTYPE_I32, 2, (int64_t[]){4, 2})), TOSA_REF_ERROR,
                 "ERROR_IF(axis_sum 3 != 4)");
   expect_status(concat(0, in2, 2, tz(REF_DTYPE_I32, 2, (int64_t[]){3, 3})), TOSA_REF_ERROR,
                 "output's other dimension differs");
   const struct ref_tensor *scalars[2] = {tz(REF_DTYPE_I32, 0, NULL), tz(REF_DTYPE_I32, 0, NULL)};
   expect_status(concat(0, scalars, 2, tz(REF_DTYPE_I32, 1, (int64_t[]){2})), TOSA_REF_ERROR,
                 "CONCAT inputs have rank >= 1");
   in2[1] = tz(REF_DTYPE_I16, 2, (int64_t[]){2, 2});
   expect_status(concat(0, in2, 2, o), TOSA_REF_UNSUPPORTED, "input types differ");
   const struct ref_tensor *w[1] = {tz(REF_DTYPE_I48, 1, (int64_t[]){1})};
   expect_status(concat(0, w, 1, tz(REF_DTYPE_I48, 1, (int64_t[]){1})), TOSA_REF_UNSUPPORTED,
                 "i48 CONCAT has no row");

   /* LEVEL_CHECK(65 inputs <= MAX_TENSOR_LIST_SIZE 64 at level 8K): unpredictable, the values
    * still concatenated; level none allows 256. */
   const struct ref_tensor *many[65];
   for (int64_t i = 0; i < 65; i++)
      many[i] = ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){i});
   o = tz(REF_DTYPE_I32, 1, (int64_t[]){65});
   expect_status(concat(0, many, 65, o), TOSA_REF_UNPREDICTABLE, "65 inputs at level 8K");
   struct tosa_ref_concat_args none = {.axis = 0, .level_none = true};
   expect_status(tosa_ref_concat(&none, many, 65, o), TOSA_REF_OK, "65 inputs at level none");
   ok(ref_tensor_get_int(o, 0) == 0 && ref_tensor_get_int(o, 64) == 64,
      "65 inputs: element i is input i");
}

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

static void
test_max_pool2d(void)
{
   const enum tosa_ref_nan_mode P = TOSA_REF_NAN_PROPAGATE, I = TOSA_REF_NAN_IGNORE;
   struct tosa_ref_max_pool2d_args a;
   struct ref_tensor *o;

   /* 3x3 of 1..9, 2x2 windows, stride 1: OH = (3 - 2) / 1 + 1 = 2; maxima 5, 6, 8, 9. */
   a = pool_args(2, 2, 1, 1, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1},
                                            (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
                                     o),
                 TOSA_REF_OK, "i8 2x2");
   expect_ints(o, (int64_t[]){5, 6, 8, 9}, 4, "i8 2x2");

   /* Padding never wins: 3x3 windows with pad 1 over a 2x2 of negatives (OH = (2 + 2 - 3) + 1
    * = 2) each see all four values: -10, not a padded 0. */
   a = pool_args(3, 3, 1, 1, 1, 1, 1, 1, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1},
                                            (int64_t[]){-10, -20, -30, -40}),
                                     o),
                 TOSA_REF_OK, "padding");
   expect_ints(o, (int64_t[]){-10, -10, -10, -10}, 4, "padding never wins");

   /* pad_left 1 only, kernel 1x2, stride_x 2: OW = (3 + 1 - 2) / 2 + 1 = 2; ox 0 sees x = -1, 0
    * -> 1; ox 1 sees x = 1, 2 -> max(5, 3) = 5. */
   a = pool_args(1, 2, 1, 2, 0, 0, 1, 0, P);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1},
                                            (int64_t[]){1, 5, 3}),
                                     o),
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
   expect_status(tosa_ref_max_pool2d(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){2, 2, 1, 2},
                                            (int64_t[]){1, -1, 3, -3, -5, 5, -7, 7}),
                                     o),
                 TOSA_REF_OK, "batch and channels");
   expect_ints(o, (int64_t[]){3, -1, -5, 7}, 4, "batch and channels");

   /* i16 at minimum_s<i16>: the initial value -32768 is also the answer. */
   a = pool_args(1, 2, 1, 1, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(tosa_ref_max_pool2d(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 2, 1},
                                            (int64_t[]){-32768, -32768}),
                                     o),
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
   expect_status(tosa_ref_max_pool2d(&a, tbits(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 4, 1},
                                               (uint64_t[]){0xFE, 0xFE, 0xB8, 0x80}),
                                     o),
                 TOSA_REF_OK, "e4m3");
   expect_bits(o, (uint64_t[]){0xFE, 0x80}, 2, "e4m3");
   a.nan_mode = I;
   o = tz(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(tosa_ref_max_pool2d(&a, tbits(REF_DTYPE_FP8E4M3, 4, (int64_t[]){1, 1, 2, 1},
                                               (uint64_t[]){0x7F, 0x38}),
                                     o),
                 TOSA_REF_OK, "e4m3 ignore");
   expect_bits(o, (uint64_t[]){0x38}, 1, "e4m3 ignore");

   /* fp8e5m2: windows (-inf, -inf) and (2^-16, NaN): PROPAGATE -inf (0xFC), NaN (0x7E);
    * IGNORE -inf, 2^-16 (0x01). */
   const uint64_t e5[] = {0xFC, 0xFC, 0x01, 0x7D};
   a = pool_args(1, 2, 1, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_FP8E5M2, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a, tbits(REF_DTYPE_FP8E5M2, 4, (int64_t[]){1, 1, 4, 1}, e5),
                                     o),
                 TOSA_REF_OK, "e5m2 propagate");
   expect_bits(o, (uint64_t[]){0xFC, 0x7E}, 2, "e5m2 propagate");
   a.nan_mode = I;
   expect_status(tosa_ref_max_pool2d(&a, tbits(REF_DTYPE_FP8E5M2, 4, (int64_t[]){1, 1, 4, 1}, e5),
                                     o),
                 TOSA_REF_OK, "e5m2 ignore");
   expect_bits(o, (uint64_t[]){0xFC, 0x01}, 2, "e5m2 ignore");

   /* fp16: (-0, +0): acc -inf -> -0 -> apply_max_s(-0, +0) keeps -0 (0x8000); (65504, -inf)
    * -> 0x7BFF. bf16 2x2 of 1..4 -> 4.0 = 0x4080. */
   a = pool_args(1, 2, 1, 2, 0, 0, 0, 0, P);
   o = tz(REF_DTYPE_FP16, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_max_pool2d(&a, tf(REF_DTYPE_FP16, 4, (int64_t[]){1, 1, 4, 1},
                                            (double[]){-0.0, 0.0, 65504.0, -INFINITY}),
                                     o),
                 TOSA_REF_OK, "fp16");
   expect_bits(o, (uint64_t[]){0x8000, 0x7BFF}, 2, "fp16");
   a = pool_args(2, 2, 1, 1, 0, 0, 0, 0, I);
   o = tz(REF_DTYPE_BF16, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(tosa_ref_max_pool2d(&a, tf(REF_DTYPE_BF16, 4, (int64_t[]){1, 2, 2, 1},
                                            (double[]){1.0, 2.0, 3.0, 4.0}),
                                     o),
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
