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
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count, (long long)n);
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
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count, (long long)n);
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
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count, (long long)n);
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

static struct section_count sections[24];
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
   struct ref_tensor *v =
       keep(ref_tensor_create_v(REF_DTYPE_I16, 3, INT64_C(2), INT64_C(3), INT64_C(4)));
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
   uint32_t bits;     /* non-saturating (IEEE / OCP non-saturating mode) */
   uint32_t sat_bits; /* OCP saturating mode (fp8 only) */
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
    {0x0001, 0x1p-24}, {0x03FF, 0x1.ff8p-15}, {0x0400, 0x1p-14},  {0x3555, 0x1.554p-2},
    {0x7BFF, 65504.0}, {0xFBFF, -65504.0},    {0x7C00, INFINITY}, {0xFC00, -INFINITY},
    {0x8000, -0.0},    {0x7C01, NAN},         {0xFE00, NAN},
};

static const struct dec_case bf16_dec[] = {
    {0x0001, 0x1p-133}, {0x3F81, 0x1.02p0}, {0x7F7F, 0x1.fep127}, {0xFF80, -INFINITY},
    {0x7FC0, NAN},      {0x7F81, NAN},      {0x8000, -0.0},
};

static const struct dec_case e4m3_dec[] = {
    {0x7F, NAN},    {0xFF, NAN},    {0x7E, 448.0}, {0xFE, -448.0}, {0x78, 256.0},
    {0x01, 0x1p-9}, {0x08, 0x1p-6}, {0x80, -0.0},  {0xB8, -1.0},
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
      ok(got == c->bits, "fp16(%a) = 0x%04x, expected 0x%04x: %s", c->value, got, c->bits, c->why);
   }
   for (int64_t i = 0; i < COUNT(e4m3_enc); i++) {
      const struct enc_case *c = &e4m3_enc[i];
      uint8_t got = ref_fp32_to_fp8e4m3((float)c->value, false);
      uint8_t sat = ref_fp32_to_fp8e4m3((float)c->value, true);
      ok(got == c->bits && sat == c->sat_bits,
         "e4m3(%a) = 0x%02x/0x%02x, expected 0x%02x/0x%02x: %s", c->value, got, sat, c->bits,
         c->sat_bits, c->why);
   }
   for (int64_t i = 0; i < COUNT(e5m2_enc); i++) {
      const struct enc_case *c = &e5m2_enc[i];
      uint8_t got = ref_fp32_to_fp8e5m2((float)c->value, false);
      uint8_t sat = ref_fp32_to_fp8e5m2((float)c->value, true);
      ok(got == c->bits && sat == c->sat_bits,
         "e5m2(%a) = 0x%02x/0x%02x, expected 0x%02x/0x%02x: %s", c->value, got, sat, c->bits,
         c->sat_bits, c->why);
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
   expect_status(
       tosa_ref_reshape(ti(REF_DTYPE_I8, 2, (int64_t[]){2, 3}, (int64_t[]){1, 2, 3, 4, 5, 6}), o),
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
   expect_status(
       tosa_ref_reshape(tz(REF_DTYPE_I48, 1, (int64_t[]){2}), tz(REF_DTYPE_I48, 1, (int64_t[]){2})),
       TOSA_REF_UNSUPPORTED, "i48 RESHAPE has no row");
   expect_status(
       tosa_ref_reshape(tz(REF_DTYPE_I8, 1, (int64_t[]){2}), tz(REF_DTYPE_I16, 1, (int64_t[]){2})),
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

/* ---------------------------------------------------------------------------------------------
 * CONV2D (CONV2D.tosac): NHWC input, OHWI weight, bias [BC]
 */

static struct tosa_ref_conv2d_args
conv_args(int32_t pt, int32_t pb, int32_t pl, int32_t pr, int32_t sy, int32_t sx, int32_t dy,
          int32_t dx, enum tosa_ref_acc_type acc)
{
   return (struct tosa_ref_conv2d_args){
       .pad = {pt, pb, pl, pr}, .stride = {sy, sx}, .dilation = {dy, dx}, .acc_type = acc};
}

/* The i8 row with zero points 0 unless given. */
static int
conv_i8(const struct tosa_ref_conv2d_args *a, const struct ref_tensor *in,
        const struct ref_tensor *w, const struct ref_tensor *b, int64_t izp, int64_t wzp,
        struct ref_tensor *out)
{
   return tosa_ref_conv2d(a, in, w, b, t1(REF_DTYPE_I8, izp), t1(REF_DTYPE_I8, wzp), out);
}

static void
test_conv2d_int(void)
{
   const enum tosa_ref_acc_type I32 = TOSA_REF_ACC_INT32;
   struct tosa_ref_conv2d_args a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *o;

   /* 3x3 of 1..9, a 2x2 kernel of ones: window sums 1+2+4+5, 2+3+5+6, 4+5+7+8, 5+6+8+9. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(
       conv_i8(&a,
               ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1}, (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
               ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 1, 1, 1}),
               ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
       TOSA_REF_OK, "i8 2x2");
   expect_ints(o, (int64_t[]){12, 16, 24, 28}, 4, "i8 2x2");

   /* Zero points: (x - 1) * (2 - -1) + 10 for x = 1..4: 10, 13, 16, 19. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 2, 3, 4}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){2}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){10}), 1, -1, o),
                 TOSA_REF_OK, "zero points");
   expect_ints(o, (int64_t[]){10, 13, 16, 19}, 4, "zero points");

   /* Padding with a zero point: a 3x3 kernel of ones, pad 1, over one input 5 with
    * input_zp 3: OH = (1 - 1 + 2 - 2) + 1 = 1; only the centre tap is inside: 5 - 3 = 2. Had
    * the padding been the zero point subtracted, 8 taps would add -3 each. */
   a = conv_args(1, 1, 1, 1, 1, 1, 1, 1, I32);
   int64_t ones9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){5}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1}, ones9),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 3, 0, o),
                 TOSA_REF_OK, "padding taps contribute 0");
   expect_ints(o, (int64_t[]){2}, 1, "padding taps contribute 0");

   /* Asymmetric padding: pad_left 2, kernel 1x3 (1, 10, 100) over (1, 2):
    * OW = (2 - 1 + 2 - 2) + 1 = 2; ox 0 reads x = -2, -1, 0 -> 1 * 100 = 100;
    * ox 1 reads x = -1, 0, 1 -> 1 * 10 + 2 * 100 = 210. */
   a = conv_args(0, 0, 2, 0, 1, 1, 1, 1, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 1}, (int64_t[]){1, 2}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1}, (int64_t[]){1, 10, 100}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
                 TOSA_REF_OK, "left padding");
   expect_ints(o, (int64_t[]){100, 210}, 2, "left padding");

   /* Stride 2 and dilation 2 over in[y][x] = 5y + x (5x5), weight (1 2; 3 4):
    * OH = (5 - 1 - (2 - 1) * 2) / 2 + 1 = 2; out[oy][ox] = in[2oy][2ox] + 2 in[2oy][2ox+2]
    * + 3 in[2oy+2][2ox] + 4 in[2oy+2][2ox+2]:
    * (0,0): 0 + 4 + 30 + 48 = 82; (0,1): 2 + 8 + 36 + 56 = 102;
    * (1,0): 10 + 24 + 60 + 88 = 182; (1,1): 12 + 28 + 66 + 96 = 202. */
   int64_t v25[25];
   for (int64_t i = 0; i < 25; i++)
      v25[i] = i;
   a = conv_args(0, 0, 0, 0, 2, 2, 2, 2, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 5, 5, 1}, v25),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 2, 3, 4}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
                 TOSA_REF_OK, "stride and dilation");
   expect_ints(o, (int64_t[]){82, 102, 182, 202}, 4, "stride and dilation");

   /* Two input and two output channels: oc0 = 3 * 1 + -4 * 2 = -5, oc1 = 3 * 5 + -4 * -6 = 39;
    * per-channel bias (100, -100) -> 95, -61; bias [1] = 7 broadcast -> 2, 46. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *in2 = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){3, -4});
   struct ref_tensor *w2 = ti(REF_DTYPE_I8, 4, (int64_t[]){2, 1, 1, 2}, (int64_t[]){1, 2, 5, -6});
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 2});
   expect_status(
       conv_i8(&a, in2, w2, ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){100, -100}), 0, 0, o),
       TOSA_REF_OK, "per-channel bias");
   expect_ints(o, (int64_t[]){95, -61}, 2, "per-channel bias");
   expect_status(
       conv_i8(&a, in2, w2, ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){7}), 0, 0, o),
       TOSA_REF_OK, "broadcast bias");
   expect_ints(o, (int64_t[]){2, 46}, 2, "broadcast bias");

   /* Batch of 2, 1x1 kernel -2: 5 -> -10, -7 -> 14. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){2, 1, 1, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){2, 1, 1, 1}, (int64_t[]){5, -7}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){-2}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
                 TOSA_REF_OK, "batch");
   expect_ints(o, (int64_t[]){-10, 14}, 2, "batch");

   /* apply_add_s<i32> on the bias: INT32_MAX + 1 * 1 leaves the range. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){I32_MAX}), 0, 0, o),
                 TOSA_REF_UNPREDICTABLE, "i32 bias overflow");

   /* i16 x i8 -> i48 (acc INT48): 32767 * 127 + -32768 * -128 = 4161409 + 4194304 = 8355713,
    * plus the i48 bias 2^40 = 1099519983489. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_INT48);
   struct ref_tensor *in16 =
       ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){32767, -32768});
   struct ref_tensor *w8 = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){127, -128});
   o = tz(REF_DTYPE_I48, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(
       tosa_ref_conv2d(&a, in16, w8,
                       ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){INT64_C(1) << 40}),
                       t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "i16 x i8");
   expect_ints(o, (int64_t[]){INT64_C(1099519983489)}, 1, "i16 x i8 with an i48 bias");
   /* weight_t is i8, so weight_zp may be non-zero in this row: 32767 * 126 + -32768 * -129 =
    * 4128642 + 4227072 = 8355714. */
   struct ref_tensor *b48 = ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){0});
   expect_status(tosa_ref_conv2d(&a, in16, w8, b48, t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 1), o),
                 TOSA_REF_OK, "i16 x i8, weight_zp 1");
   expect_ints(o, (int64_t[]){8355714}, 1, "i16 x i8, weight_zp 1");
   expect_status(tosa_ref_conv2d(&a, in16, w8, b48, t1(REF_DTYPE_I16, 1), t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_ERROR, "ERROR_IF(in_t i16 && input_zp != 0)");
   /* Past int32 in the accumulator: 600 taps of 32767 * 127 = 600 * 4161409 = 2496845400. */
   struct ref_tensor *in600 = tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 600});
   struct ref_tensor *w600 = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 600});
   for (int64_t i = 0; i < 600; i++) {
      ref_tensor_set_int(in600, i, 32767);
      ref_tensor_set_int(w600, i, 127);
   }
   expect_status(
       tosa_ref_conv2d(&a, in600, w600, b48, t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "i48 accumulator");
   expect_ints(o, (int64_t[]){INT64_C(2496845400)}, 1, "i48 accumulator beyond int32");
   /* apply_add_s<i48>: (2^47 - 1) + 1 * 1 leaves the range. */
   expect_status(
       tosa_ref_conv2d(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                       ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                       ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){(INT64_C(1) << 47) - 1}),
                       t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_UNPREDICTABLE, "i48 overflow");

   /* ERROR_IFs over a [1,4,4,1] input and a [1,2,2,1] kernel (OH = 3 with stride 1). */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *in = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 4, 4, 1});
   struct ref_tensor *w = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1});
   struct ref_tensor *b = tz(REF_DTYPE_I32, 1, (int64_t[]){1});
   struct ref_tensor *o3 = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_OK, "valid baseline");
   a = conv_args(0, -1, 0, 0, 1, 1, 1, 1, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_ERROR, "ERROR_IF(pad_bottom < 0)");
   a = conv_args(0, 0, 0, 0, 0, 1, 1, 1, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_ERROR, "ERROR_IF(stride_y < 1)");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 0, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_ERROR, "ERROR_IF(dilation_x < 1)");
   /* (5 - 1 - 1) % 2 = 1: idiv_check fails. */
   a = conv_args(0, 0, 0, 0, 2, 2, 1, 1, I32);
   expect_status(conv_i8(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 5, 5, 1}), w, b, 0, 0,
                         tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1})),
                 TOSA_REF_ERROR, "idiv_check((5 - 1 - 1), 2)");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 4, 1})),
                 TOSA_REF_ERROR, "ERROR_IF(OW != 3)");
   expect_status(conv_i8(&a, in2, w2, tz(REF_DTYPE_I32, 1, (int64_t[]){3}), 0, 0,
                         tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 2})),
                 TOSA_REF_ERROR, "ERROR_IF(BC 3 != OC 2 && BC != 1)");
   expect_status(conv_i8(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 2}), b, 0, 0, o3),
                 TOSA_REF_ERROR, "weight IC differs from input IC");
   expect_status(conv_i8(&a, tz(REF_DTYPE_I8, 3, (int64_t[]){4, 4, 1}), w, b, 0, 0, o3),
                 TOSA_REF_ERROR, "rank 3 input");

   /* Type-support rows and acc_type. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_INT48);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_UNSUPPORTED, "i8 with acc INT48");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, (enum tosa_ref_acc_type)0);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_UNSUPPORTED, "acc_type 0");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   expect_status(tosa_ref_conv2d(&a, in, tz(REF_DTYPE_I16, 4, (int64_t[]){1, 2, 2, 1}), b,
                                 t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I16, 0), o3),
                 TOSA_REF_UNSUPPORTED, "i8 x i16 has no row");
   expect_status(conv_i8(&a, in, w, tz(REF_DTYPE_I48, 1, (int64_t[]){1}), 0, 0, o3),
                 TOSA_REF_UNSUPPORTED, "i8 row with an i48 bias");
   a.mode = TOSA_REF_DOT_BOUND;
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_BAD_ARGUMENT,
                 "the bound is for float rows");

   /* LEVEL_CHECK(dilation_y * KH <= MAX_KERNEL) and (stride <= MAX_STRIDE) at 8K: 8193 * 1 and
    * a stride of 8193 over a 1x1 input (OH = 0 / s + 1 = 1); the result is still 3 * 4. */
   struct ref_tensor *one = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){3});
   struct ref_tensor *four = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){4});
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   a = conv_args(0, 0, 0, 0, 1, 1, 8193, 1, I32);
   expect_status(conv_i8(&a, one, four, b, 0, 0, o), TOSA_REF_UNPREDICTABLE, "dilation 8193");
   expect_ints(o, (int64_t[]){12}, 1, "dilation 8193 still computed");
   a.level_none = true;
   expect_status(conv_i8(&a, one, four, b, 0, 0, o), TOSA_REF_OK, "dilation 8193, level none");
   a = conv_args(0, 0, 0, 0, 1, 8193, 1, 1, I32);
   expect_status(conv_i8(&a, one, four, b, 0, 0, o), TOSA_REF_UNPREDICTABLE, "stride 8193");

   /* tosa_ref_conv2d_output_hw(): (7 - 1 + 1 + 0 - (3 - 1) * 2) / 3 + 1 = 2 and
    * (6 - 1 + 0 + 0 - 0) / 1 + 1 = 6. */
   int64_t oh = 0, ow = 0;
   a = conv_args(1, 0, 0, 0, 3, 1, 2, 1, I32);
   expect_status(tosa_ref_conv2d_output_hw(&a, 7, 6, 3, 1, &oh, &ow), TOSA_REF_OK, "output_hw");
   ok(oh == 2 && ow == 6, "output_hw: %lld x %lld, expected 2 x 6", (long long)oh, (long long)ow);
   a = conv_args(0, 0, 0, 0, 1, 1, 0, 1, I32);
   expect_status(tosa_ref_conv2d_output_hw(&a, 7, 6, 3, 1, &oh, &ow), TOSA_REF_ERROR,
                 "output_hw checks the dilation");
}

static void
test_conv2d_float(void)
{
   struct tosa_ref_conv2d_args a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   struct ref_tensor *o;
   const int64_t s1111[] = {1, 1, 1, 1}, s1112[] = {1, 1, 1, 2}, s1[] = {1};

   /* fp32: window sums of 1..9 times 0.5, plus 0.25: 6.25, 8.25, 12.25, 14.25. */
   o = tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(
       tosa_ref_conv2d(
           &a,
           tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 3, 3, 1}, (double[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
           tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){0.5, 0.5, 0.5, 0.5}),
           t1f(REF_DTYPE_FP32, 0.25), t1f(REF_DTYPE_FP32, 0.0), t1f(REF_DTYPE_FP32, 0.0), o),
       TOSA_REF_OK, "fp32 conv");
   expect_fps(o, (double[]){6.25, 8.25, 12.25, 14.25}, 4, "fp32 conv");

   /* fp16 (acc FP16 and FP32 rows): 1 * 1 + 2^-11 * 1 = 1 + 2^-11, the fp16 tie: 0x3C00; the
    * FP64 output keeps 1 + 2^-11. */
   struct ref_tensor *hin = tf(REF_DTYPE_FP16, 4, s1112, (double[]){1.0, 0x1p-11});
   struct ref_tensor *hw = tf(REF_DTYPE_FP16, 4, s1112, (double[]){1.0, 1.0});
   for (int acc = TOSA_REF_ACC_FP16; acc <= TOSA_REF_ACC_FP32; acc++) {
      a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, (enum tosa_ref_acc_type)acc);
      o = tz(REF_DTYPE_FP16, 4, s1111);
      expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                    t1f(REF_DTYPE_FP16, 0.0), o),
                    TOSA_REF_OK, "fp16 conv");
      expect_bits(o, (uint64_t[]){0x3C00}, 1, "fp16 conv tie");
      o = tz(REF_DTYPE_FP64, 4, s1111);
      expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                    t1f(REF_DTYPE_FP16, 0.0), o),
                    TOSA_REF_OK, "fp16 conv, fp64 output");
      expect_fps(o, (double[]){1.0 + 0x1p-11}, 1, "fp16 conv, unrounded");
   }
   /* The fp16 row's zero points must be 0. */
   expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 1.0),
                                 t1f(REF_DTYPE_FP16, 0.0), tz(REF_DTYPE_FP16, 4, s1111)),
                 TOSA_REF_ERROR, "ERROR_IF(fp16 input_zp != 0)");
   expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                 t1f(REF_DTYPE_FP16, -2.0), tz(REF_DTYPE_FP16, 4, s1111)),
                 TOSA_REF_ERROR, "ERROR_IF(fp16 weight_zp != 0)");
   expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                 t1f(REF_DTYPE_FP16, 0.0), tz(REF_DTYPE_FP32, 4, s1111)),
                 TOSA_REF_UNSUPPORTED, "fp16 conv -> fp32 has no row");

   /* bf16 (acc FP32): 1 + 2^-8 + bias 2^-9 = 1 + 3 * 2^-9, rounded once: 0.75 ulp above 1.0,
    * so 1 + 2^-7 = 0x3F81 (rounding the dot product first would give the tie 1.0). */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   o = tz(REF_DTYPE_BF16, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_BF16, 4, s1112, (double[]){1.0, 0x1p-8}),
                                 tf(REF_DTYPE_BF16, 4, s1112, (double[]){1.0, 1.0}),
                                 t1f(REF_DTYPE_BF16, 0x1p-9), t1f(REF_DTYPE_BF16, 0.0),
                                 t1f(REF_DTYPE_BF16, 0.0), o),
                 TOSA_REF_OK, "bf16 conv");
   expect_bits(o, (uint64_t[]){0x3F81}, 1, "bf16 conv, one rounding");
   a.acc_type = TOSA_REF_ACC_FP16;
   expect_status(tosa_ref_conv2d(&a, tz(REF_DTYPE_BF16, 4, s1112), tz(REF_DTYPE_BF16, 4, s1112),
                                 tz(REF_DTYPE_BF16, 1, s1), tz(REF_DTYPE_BF16, 1, s1),
                                 tz(REF_DTYPE_BF16, 1, s1), o),
                 TOSA_REF_UNSUPPORTED, "bf16 with acc FP16 has no row");

   /* fp8e4m3 -> fp16 (acc FP16): 448 * 448 * 2 = 401408 > 65504: +inf; 0.5 * 0.25 + 1.0 =
    * 1.125 = 0x3C80. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP16);
   struct ref_tensor *ezp = t1f(REF_DTYPE_FP8E4M3, 0.0);
   o = tz(REF_DTYPE_FP16, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP8E4M3, 4, s1112, (double[]){448.0, 448.0}),
                                 tf(REF_DTYPE_FP8E4M3, 4, s1112, (double[]){448.0, 448.0}),
                                 t1f(REF_DTYPE_FP16, 0.0), ezp, ezp, o),
                 TOSA_REF_OK, "e4m3 conv overflow");
   expect_bits(o, (uint64_t[]){0x7C00}, 1, "e4m3 conv overflows fp16");
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP8E4M3, 4, s1111, (double[]){0.5}),
                                 tf(REF_DTYPE_FP8E4M3, 4, s1111, (double[]){0.25}),
                                 t1f(REF_DTYPE_FP16, 1.0), ezp, ezp, o),
                 TOSA_REF_OK, "e4m3 conv");
   expect_bits(o, (uint64_t[]){0x3C80}, 1, "e4m3 conv");
   /* fp8e5m2 -> fp16: 57344 * 2^-16 = 0.875, + 0.125 = 1.0 = 0x3C00. */
   struct ref_tensor *fzp = t1f(REF_DTYPE_FP8E5M2, 0.0);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP8E5M2, 4, s1111, (double[]){57344.0}),
                                 tf(REF_DTYPE_FP8E5M2, 4, s1111, (double[]){0x1p-16}),
                                 t1f(REF_DTYPE_FP16, 0.125), fzp, fzp, o),
                 TOSA_REF_OK, "e5m2 conv");
   expect_bits(o, (uint64_t[]){0x3C00}, 1, "e5m2 conv");
   a.acc_type = TOSA_REF_ACC_FP32;
   expect_status(tosa_ref_conv2d(&a, tz(REF_DTYPE_FP8E5M2, 4, s1111),
                                 tz(REF_DTYPE_FP8E5M2, 4, s1111), tz(REF_DTYPE_FP16, 1, s1), fzp,
                                 fzp, o),
                 TOSA_REF_UNSUPPORTED, "fp8 with acc FP32 has no row");

   /* fp32 NaN in gives NaN; padding taps are skipped: a 3x3 kernel of 2 with pad 1 over one
    * input 1 is 2. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   struct ref_tensor *fzero = t1f(REF_DTYPE_FP32, 0.0);
   o = tz(REF_DTYPE_FP32, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP32, 4, s1111, (double[]){NAN}),
                                 tf(REF_DTYPE_FP32, 4, s1111, (double[]){1.0}), fzero, fzero, fzero,
                                 o),
                 TOSA_REF_OK, "NaN input");
   expect_fps(o, (double[]){NAN}, 1, "NaN input");
   a = conv_args(1, 1, 1, 1, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP32, 4, s1111, (double[]){1.0}),
                                 tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 3, 3, 1},
                                    (double[]){2, 2, 2, 2, 2, 2, 2, 2, 2}),
                                 fzero, fzero, fzero, o),
                 TOSA_REF_OK, "fp32 padding");
   expect_fps(o, (double[]){2.0}, 1, "fp32 padding");

   /* TOSA_REF_DOT_BOUND (tosa_reference_check_dotproduct's output_bnd): input (1, -3) along x,
    * a 1x1 weight -2, bias 0. Result: -2, 6. Bound with local_bound false: every input is
    * replaced by max|x| = 3: 3 * 2 + max(0, 2^-126) = 6 + 2^-126, which is 6 in fp64; with
    * local_bound true: 1 * 2 = 2 and 6. */
   struct ref_tensor *bin = tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 2, 1}, (double[]){1.0, -3.0});
   struct ref_tensor *bw = tf(REF_DTYPE_FP32, 4, s1111, (double[]){-2.0});
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   o = tz(REF_DTYPE_FP64, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero, o), TOSA_REF_OK, "result");
   expect_fps(o, (double[]){-2.0, 6.0}, 2, "result");
   a.mode = TOSA_REF_DOT_BOUND;
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero, o), TOSA_REF_OK, "bound");
   expect_fps(o, (double[]){6.0, 6.0}, 2, "bound, global input maximum");
   a.local_bound = true;
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero, o), TOSA_REF_OK, "bound");
   expect_fps(o, (double[]){2.0, 6.0}, 2, "bound, local_bound");
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero,
                                 tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 2, 1})),
                 TOSA_REF_BAD_ARGUMENT, "the bound needs an FP64 output");

   /* tosa_extra_multiplies: weight (NaN, 2) with pad_left 1 over one input 1. The result skips
    * the tap in the padding: 1 * 2 = 2. The bound does the multiply 0 * NaN: NaN. */
   struct ref_tensor *nw = tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 2, 1}, (double[]){NAN, 2.0});
   struct ref_tensor *in1 = tf(REF_DTYPE_FP32, 4, s1111, (double[]){1.0});
   a = conv_args(0, 0, 1, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   o = tz(REF_DTYPE_FP64, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, in1, nw, fzero, fzero, fzero, o), TOSA_REF_OK,
                 "NaN weight in the padding");
   expect_fps(o, (double[]){2.0}, 1, "NaN weight in the padding: skipped");
   a.mode = TOSA_REF_DOT_BOUND;
   a.local_bound = true;
   expect_status(tosa_ref_conv2d(&a, in1, nw, fzero, fzero, fzero, o), TOSA_REF_OK,
                 "NaN weight in the padding, bound");
   expect_fps(o, (double[]){NAN}, 1, "NaN weight in the padding: the bound multiplies");
}

/* ---------------------------------------------------------------------------------------------
 * MATMUL (MATMUL.tosac): A [N,H,C] x B [N,C,W]
 */

static int
matmul(const struct ref_tensor *a, const struct ref_tensor *b, const struct ref_tensor *azp,
       const struct ref_tensor *bzp, struct ref_tensor *out)
{
   struct tosa_ref_matmul_args args = {.mode = TOSA_REF_DOT_RESULT};
   return tosa_ref_matmul(&args, a, b, azp, bzp, out);
}

static void
test_matmul(void)
{
   const int64_t s122[] = {1, 2, 2}, s111[] = {1, 1, 1}, s112[] = {1, 1, 2}, s121[] = {1, 2, 1};
   struct ref_tensor *o;

   /* (1 2; 3 4)(5 6; 7 8) = (19 22; 43 50). */
   struct ref_tensor *a = ti(REF_DTYPE_I8, 3, s122, (int64_t[]){1, 2, 3, 4});
   struct ref_tensor *b = ti(REF_DTYPE_I8, 3, s122, (int64_t[]){5, 6, 7, 8});
   o = tz(REF_DTYPE_I32, 3, s122);
   expect_status(matmul(a, b, t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0), o), TOSA_REF_OK, "i8");
   expect_ints(o, (int64_t[]){19, 22, 43, 50}, 4, "i8");
   /* A_zp 1, B_zp -2: (0 1; 2 3)(7 8; 9 10) = (9 10; 41 46). i8 zero points are allowed:
    * the v1.0.1 text's inverted ERROR_IF would reject them (spec-facts erratum 1). */
   expect_status(matmul(a, b, t1(REF_DTYPE_I8, 1), t1(REF_DTYPE_I8, -2), o), TOSA_REF_OK,
                 "i8 zero points");
   expect_ints(o, (int64_t[]){9, 10, 41, 46}, 4, "i8 zero points");
   /* Batch 2: (1 2)(5; 6) = 17, (3 4)(7; 8) = 53. */
   o = tz(REF_DTYPE_I32, 3, (int64_t[]){2, 1, 1});
   expect_status(matmul(ti(REF_DTYPE_I8, 3, (int64_t[]){2, 1, 2}, (int64_t[]){1, 2, 3, 4}),
                        ti(REF_DTYPE_I8, 3, (int64_t[]){2, 2, 1}, (int64_t[]){5, 6, 7, 8}),
                        t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "batch");
   expect_ints(o, (int64_t[]){17, 53}, 2, "batch");
   /* Extremes: (-128 - 127) * (-128 - 127) = 65025. */
   o = tz(REF_DTYPE_I32, 3, s111);
   expect_status(matmul(ti(REF_DTYPE_I8, 3, s111, (int64_t[]){-128}),
                        ti(REF_DTYPE_I8, 3, s111, (int64_t[]){-128}), t1(REF_DTYPE_I8, 127),
                        t1(REF_DTYPE_I8, 127), o),
                 TOSA_REF_OK, "i8 extremes");
   expect_ints(o, (int64_t[]){65025}, 1, "i8 extremes");

   /* i16 -> i48: 4 taps of (-32768)^2 = 4 * 2^30 = 2^32. */
   o = tz(REF_DTYPE_I48, 3, s111);
   expect_status(
       matmul(
           ti(REF_DTYPE_I16, 3, (int64_t[]){1, 1, 4}, (int64_t[]){-32768, -32768, -32768, -32768}),
           ti(REF_DTYPE_I16, 3, (int64_t[]){1, 4, 1}, (int64_t[]){-32768, -32768, -32768, -32768}),
           t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I16, 0), o),
       TOSA_REF_OK, "i16");
   expect_ints(o, (int64_t[]){INT64_C(4294967296)}, 1, "i16 -> i48 beyond int32");
   /* 131071 taps of 2^30 = 2^47 - 2^30 fits i48; 131072 taps = 2^47 does not (REQUIRE). */
   for (int64_t c = 131071; c <= 131072; c++) {
      struct ref_tensor *ma = tz(REF_DTYPE_I16, 3, (int64_t[]){1, 1, c});
      struct ref_tensor *mb = tz(REF_DTYPE_I16, 3, (int64_t[]){1, c, 1});
      for (int64_t i = 0; i < c; i++) {
         ref_tensor_set_int(ma, i, -32768);
         ref_tensor_set_int(mb, i, -32768);
      }
      int st = matmul(ma, mb, t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I16, 0), o);
      if (c == 131071) {
         expect_status(st, TOSA_REF_OK, "i48 accumulator at 2^47 - 2^30");
         expect_ints(o, (int64_t[]){INT64_C(140736414613504)}, 1, "2^47 - 2^30");
      } else {
         expect_status(st, TOSA_REF_UNPREDICTABLE, "i48 accumulator reaches 2^47");
      }
   }

   /* Zero points must be 0 except for i8 (main's corrected ERROR_IF). */
   struct ref_tensor *a16 = tz(REF_DTYPE_I16, 3, s122);
   o = tz(REF_DTYPE_I48, 3, s122);
   expect_status(matmul(a16, a16, t1(REF_DTYPE_I16, 1), t1(REF_DTYPE_I16, 0), o), TOSA_REF_ERROR,
                 "ERROR_IF(i16 A_zp != 0)");
   struct ref_tensor *af = tz(REF_DTYPE_FP32, 3, s122);
   expect_status(matmul(af, af, t1f(REF_DTYPE_FP32, 0.0), t1f(REF_DTYPE_FP32, 1.0),
                        tz(REF_DTYPE_FP32, 3, s122)),
                 TOSA_REF_ERROR, "ERROR_IF(fp32 B_zp != 0)");
   /* Shapes. */
   o = tz(REF_DTYPE_I32, 3, s122);
   struct ref_tensor *z8 = t1(REF_DTYPE_I8, 0);
   expect_status(matmul(a, tz(REF_DTYPE_I8, 3, (int64_t[]){1, 3, 2}), z8, z8, o), TOSA_REF_ERROR,
                 "B's C differs");
   expect_status(matmul(a, tz(REF_DTYPE_I8, 3, (int64_t[]){2, 2, 2}), z8, z8, o), TOSA_REF_ERROR,
                 "B's N differs");
   expect_status(matmul(a, b, z8, z8, tz(REF_DTYPE_I32, 3, (int64_t[]){1, 2, 3})), TOSA_REF_ERROR,
                 "output W differs");
   expect_status(matmul(tz(REF_DTYPE_I8, 2, (int64_t[]){2, 2}), b, z8, z8, o), TOSA_REF_ERROR,
                 "rank 2 A");
   /* Rows. */
   expect_status(matmul(a, b, z8, z8, tz(REF_DTYPE_I48, 3, s122)), TOSA_REF_UNSUPPORTED,
                 "i8 -> i48 has no row");
   expect_status(matmul(a, b, t1(REF_DTYPE_I16, 0), z8, o), TOSA_REF_UNSUPPORTED,
                 "zero point type differs");
   expect_status(matmul(a, a16, z8, z8, o), TOSA_REF_UNSUPPORTED, "A and B types differ");
   struct ref_tensor *ab = tz(REF_DTYPE_BF16, 3, s122);
   struct ref_tensor *zb = t1f(REF_DTYPE_BF16, 0.0);
   expect_status(matmul(ab, ab, zb, zb, tz(REF_DTYPE_BF16, 3, s122)), TOSA_REF_UNSUPPORTED,
                 "bf16 -> bf16 has no row (bf16 -> fp32 only)");

   /* Float rows. fp16 -> fp16: 1 + 2^-11 is the tie: 0x3C00; fp16 -> fp32 keeps it:
    * 0x3F800000 + 2^12 = 0x3F801000. */
   struct ref_tensor *ha = tf(REF_DTYPE_FP16, 3, s112, (double[]){1.0, 0x1p-11});
   struct ref_tensor *hb = tf(REF_DTYPE_FP16, 3, s121, (double[]){1.0, 1.0});
   struct ref_tensor *hz = t1f(REF_DTYPE_FP16, 0.0);
   o = tz(REF_DTYPE_FP16, 3, s111);
   expect_status(matmul(ha, hb, hz, hz, o), TOSA_REF_OK, "fp16 -> fp16");
   expect_bits(o, (uint64_t[]){0x3C00}, 1, "fp16 -> fp16");
   o = tz(REF_DTYPE_FP32, 3, s111);
   expect_status(matmul(ha, hb, hz, hz, o), TOSA_REF_OK, "fp16 -> fp32");
   expect_bits(o, (uint64_t[]){0x3F801000}, 1, "fp16 -> fp32");
   /* bf16 -> fp32: (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14, exact in fp32. */
   expect_status(matmul(tf(REF_DTYPE_BF16, 3, s111, (double[]){1.0 + 0x1p-7}),
                        tf(REF_DTYPE_BF16, 3, s111, (double[]){1.0 + 0x1p-7}), zb, zb, o),
                 TOSA_REF_OK, "bf16 -> fp32");
   expect_fps(o, (double[]){1.0 + 0x1p-6 + 0x1p-14}, 1, "bf16 -> fp32");
   /* fp8e4m3 -> fp16: 2 * 448 * 448 = 401408: +inf. fp8e5m2 -> fp16: 57344 * 2^-16 = 0.875 =
    * 0x3B00. */
   struct ref_tensor *ez = t1f(REF_DTYPE_FP8E4M3, 0.0);
   o = tz(REF_DTYPE_FP16, 3, s111);
   expect_status(matmul(tf(REF_DTYPE_FP8E4M3, 3, s112, (double[]){448.0, 448.0}),
                        tf(REF_DTYPE_FP8E4M3, 3, s121, (double[]){448.0, 448.0}), ez, ez, o),
                 TOSA_REF_OK, "e4m3 -> fp16");
   expect_bits(o, (uint64_t[]){0x7C00}, 1, "e4m3 -> fp16 overflow");
   struct ref_tensor *fz = t1f(REF_DTYPE_FP8E5M2, 0.0);
   expect_status(matmul(tf(REF_DTYPE_FP8E5M2, 3, s111, (double[]){57344.0}),
                        tf(REF_DTYPE_FP8E5M2, 3, s111, (double[]){0x1p-16}), fz, fz, o),
                 TOSA_REF_OK, "e5m2 -> fp16");
   expect_bits(o, (uint64_t[]){0x3B00}, 1, "e5m2 -> fp16");
   /* fp32: (1 2; 3 4)(0.5 0; 0 -1) = (0.5 -2; 1.5 -4). */
   struct ref_tensor *z32 = t1f(REF_DTYPE_FP32, 0.0);
   o = tz(REF_DTYPE_FP32, 3, s122);
   expect_status(matmul(tf(REF_DTYPE_FP32, 3, s122, (double[]){1, 2, 3, 4}),
                        tf(REF_DTYPE_FP32, 3, s122, (double[]){0.5, 0, 0, -1}), z32, z32, o),
                 TOSA_REF_OK, "fp32");
   expect_fps(o, (double[]){0.5, -2.0, 1.5, -4.0}, 4, "fp32");
}

/* ---------------------------------------------------------------------------------------------
 * RESCALE (RESCALE.tosac, apply_scale_32 / apply_scale_16 of scale_helpers.tosac)
 */

static void
test_apply_scale(void)
{
   const int32_t M30 = 1 << 30;
   bool req = true;
   /* apply_scale_32: (value * m + 2^(s-1)) >> s, arithmetic shift.
    * x0.5: 3 -> (3 * 2^30 + 2^30) >> 31 = 2 (1.5 rounds up); -3 -> -2^31 >> 31 = -1
    * (-1.5 rounds up). Identity (2^30, 30): 12345 -> floor(12345.5) = 12345; -12345 ->
    * floor(-12344.5) = -12345. */
   check_eq_i64(tosa_ref_apply_scale_32(3, M30, 31, false, &req), 2);
   check_eq_i64(tosa_ref_apply_scale_32(-3, M30, 31, false, &req), -1);
   check_eq_i64(tosa_ref_apply_scale_32(12345, M30, 30, false, &req), 12345);
   check_eq_i64(tosa_ref_apply_scale_32(-12345, M30, 30, false, &req), -12345);
   /* Double rounding only for shift > 31, round +- 2^30: x0.25 (shift 32):
    * 1: single (2^30 + 2^31) >> 32 = 0, double (2^30 + 2^31 + 2^30) >> 32 = 1;
    * -2: single (-2^31 + 2^31) >> 32 = 0, double (-2^31 + 2^31 - 2^30) >> 32 = -1.
    * At shift 31 double_round changes nothing: 1 -> 1, -1 -> (-2^30 + 2^30) >> 31 = 0. */
   check_eq_i64(tosa_ref_apply_scale_32(1, M30, 32, false, &req), 0);
   check_eq_i64(tosa_ref_apply_scale_32(1, M30, 32, true, &req), 1);
   check_eq_i64(tosa_ref_apply_scale_32(-2, M30, 32, false, &req), 0);
   check_eq_i64(tosa_ref_apply_scale_32(-2, M30, 32, true, &req), -1);
   check_eq_i64(tosa_ref_apply_scale_32(1, M30, 31, true, &req), 1);
   check_eq_i64(tosa_ref_apply_scale_32(-1, M30, 31, true, &req), 0);
   /* The largest operands: (2^31 - 1)^2 + 2^61 = 1.5 * 2^62 - 2^32 + 1 -> >> 62 = 1;
    * -2^31 (2^31 - 1) + 2^61 = -2^61 + 2^31 -> floor(-0.49...) = -1. */
   check_eq_i64(tosa_ref_apply_scale_32(INT32_MAX, INT32_MAX, 62, false, &req), 1);
   check_eq_i64(tosa_ref_apply_scale_32(INT32_MIN, INT32_MAX, 62, false, &req), -1);
   check_eq_i64(tosa_ref_apply_scale_32(INT32_MAX, INT32_MAX, 62, true, &req), 1);
   ok(req, "no REQUIRE failed so far");
   /* Shift 2: value must lie in [-2, 2): 1 -> (2^30 + 2) >> 2 = 2^28; -2 -> floor(-2^29 + 0.5)
    * = -2^29; 2 fails the REQUIRE. */
   check_eq_i64(tosa_ref_apply_scale_32(1, M30, 2, false, &req), 1 << 28);
   check_eq_i64(tosa_ref_apply_scale_32(-2, M30, 2, false, &req), -(1 << 29));
   ok(req, "shift 2 with values -2 and 1");
   tosa_ref_apply_scale_32(2, M30, 2, false, &req);
   ok(!req, "REQUIRE(value < 1 << (shift - 1))");
   req = true;
   tosa_ref_apply_scale_32(1, -1, 30, false, &req);
   ok(!req, "REQUIRE(multiplier >= 0)");
   req = true;
   tosa_ref_apply_scale_32(1, M30, 1, false, &req);
   ok(!req, "REQUIRE(shift >= 2)");
   req = true;
   tosa_ref_apply_scale_32(1, M30, 63, false, &req);
   ok(!req, "REQUIRE(shift <= 62)");

   /* apply_scale_16 (int48 value, int16 multiplier): x0.5 with (2^14, 15): 3 -> 65536 >> 15 = 2;
    * -3 -> -32768 >> 15 = -1. (2^47 - 1)(2^15 - 1) + 2^61 = 1.5 * 2^62 - 2^47 - 2^15 + 1 ->
    * >> 62 = 1; -2^47 (2^15 - 1) + 2^61 = -2^61 + 2^47 -> -1. */
   req = true;
   check_eq_i64(tosa_ref_apply_scale_16(3, 1 << 14, 15, &req), 2);
   check_eq_i64(tosa_ref_apply_scale_16(-3, 1 << 14, 15, &req), -1);
   check_eq_i64(tosa_ref_apply_scale_16((INT64_C(1) << 47) - 1, 32767, 62, &req), 1);
   check_eq_i64(tosa_ref_apply_scale_16(-(INT64_C(1) << 47), 32767, 62, &req), -1);
   ok(req, "apply_scale_16 in range");
   tosa_ref_apply_scale_16(INT64_C(1) << 40, 1 << 14, 2, &req);
   ok(!req, "REQUIRE(result within int32): 2^40 * 2^14 >> 2 = 2^52");
   req = true;
   tosa_ref_apply_scale_16(1, 32768, 15, &req);
   ok(!req, "a multiplier beyond int16");
   req = true;
   tosa_ref_apply_scale_16(1, -1, 15, &req);
   ok(!req, "REQUIRE(multiplier >= 0)");
}

static struct tosa_ref_rescale_args
rs_args(bool scale32, enum tosa_ref_rounding rounding, bool per_channel, bool in_u, bool out_u)
{
   return (struct tosa_ref_rescale_args){.scale32 = scale32,
                                         .rounding_mode = rounding,
                                         .per_channel = per_channel,
                                         .input_unsigned = in_u,
                                         .output_unsigned = out_u};
}

/* RESCALE of `in` with NC = nc multipliers (of type mul_t) and shifts, zero points of the input
 * and output types, into a new output of type out_t and the input's shape. */
static int
rescale(const struct tosa_ref_rescale_args *a, const struct ref_tensor *in, enum ref_dtype mul_t,
        const int64_t *m, const int64_t *s, int64_t nc, int64_t izp, int64_t ozp,
        enum ref_dtype out_t, struct ref_tensor **out)
{
   const int64_t snc[] = {nc};
   *out = tz(out_t, in->rank, in->shape);
   return tosa_ref_rescale(a, in, ti(mul_t, 1, snc, m), ti(REF_DTYPE_I8, 1, snc, s),
                           t1(in->dtype, izp), t1(out_t, ozp), *out);
}

static void
test_rescale(void)
{
   const int64_t M30 = 1 << 30;
   const enum tosa_ref_rounding SR = TOSA_REF_ROUND_SINGLE, IR = TOSA_REF_ROUND_INEXACT,
                                DR = TOSA_REF_ROUND_DOUBLE;
   struct tosa_ref_rescale_args a = rs_args(true, SR, false, false, false);
   const int64_t s4[] = {4}, s3[] = {3}, s2[] = {2};
   struct ref_tensor *o;

   /* The identity scale (2^30, 30) keeps i8 values. */
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 1, s4, (int64_t[]){-128, -1, 0, 127}), REF_DTYPE_I32,
                         &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_OK, "i8 identity");
   expect_ints(o, (int64_t[]){-128, -1, 0, 127}, 4, "i8 identity");
   /* Zero points, x0.5: value - 10 = 0, 1, 2, 3 -> 0, 1 (0.5 up), 1, 2 (1.5 up) -> + -5. */
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 1, s4, (int64_t[]){10, 11, 12, 13}), REF_DTYPE_I32,
                         &M30, (int64_t[]){31}, 1, 10, -5, REF_DTYPE_I8, &o),
                 TOSA_REF_OK, "zero points, x0.5");
   expect_ints(o, (int64_t[]){-5, -4, -4, -3}, 4, "zero points, x0.5");
   /* Saturation at both ends: i32 -> i8 and i32 -> i16. */
   expect_status(rescale(&a, ti(REF_DTYPE_I32, 1, s4, (int64_t[]){1000, -1000, 127, -128}),
                         REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_OK, "i32 -> i8");
   expect_ints(o, (int64_t[]){127, -128, 127, -128}, 4, "i32 -> i8 saturates");
   expect_status(rescale(&a, ti(REF_DTYPE_I32, 1, s2, (int64_t[]){40000, -40000}), REF_DTYPE_I32,
                         &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I16, &o),
                 TOSA_REF_OK, "i32 -> i16");
   expect_ints(o, (int64_t[]){32767, -32768}, 2, "i32 -> i16 saturates");
   /* i16 -> i32 x4 (2^30, 28): +-30000 -> +-120000. */
   expect_status(rescale(&a, ti(REF_DTYPE_I16, 1, s2, (int64_t[]){30000, -30000}), REF_DTYPE_I32,
                         &M30, (int64_t[]){28}, 1, 0, 0, REF_DTYPE_I32, &o),
                 TOSA_REF_OK, "i16 -> i32");
   expect_ints(o, (int64_t[]){120000, -120000}, 2, "i16 -> i32 x4");
   /* i8 -> i32 x256 (2^30, 22) with input_zp -128: -128, 127 -> 0, 255 -> 0, 65280. */
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 1, s2, (int64_t[]){-128, 127}), REF_DTYPE_I32, &M30,
                         (int64_t[]){22}, 1, -128, 0, REF_DTYPE_I32, &o),
                 TOSA_REF_OK, "i8 -> i32");
   expect_ints(o, (int64_t[]){0, 65280}, 2, "i8 -> i32 x256");
   /* i16 -> i8 x0.125 (2^30, 33; round 2^32 = 4 * 2^30): 1000 -> 1004 / 8 = 125.5 -> 125;
    * -1000 -> -996 / 8 = -124.5 -> -125; 300 -> 304 / 8 = 38. */
   expect_status(rescale(&a, ti(REF_DTYPE_I16, 1, s3, (int64_t[]){1000, -1000, 300}), REF_DTYPE_I32,
                         &M30, (int64_t[]){33}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_OK, "i16 -> i8");
   expect_ints(o, (int64_t[]){125, -125, 38}, 3, "i16 -> i8 x0.125");

   /* per_channel: c = index[rank - 1]; channel 0 identity, channel 1 x0.5:
    * (10, 10; 20, 21) -> (10, 5; 20, 11). */
   a = rs_args(true, SR, true, false, false);
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 2, (int64_t[]){2, 2}, (int64_t[]){10, 10, 20, 21}),
                         REF_DTYPE_I32, (int64_t[]){M30, M30}, (int64_t[]){30, 31}, 2, 0, 0,
                         REF_DTYPE_I8, &o),
                 TOSA_REF_OK, "per channel");
   expect_ints(o, (int64_t[]){10, 5, 20, 11}, 4, "per channel");
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 2, (int64_t[]){2, 2}, (int64_t[]){10, 10, 20, 21}),
                         REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "per channel needs NC = 2 multipliers");

   /* Unsigned input (u8): bits 0xFF, 0x00, 0x80 read 255, 0, 128; input_zp bits 0x80 read
    * 128: 127, -128, 0. */
   a = rs_args(true, SR, false, true, false);
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 1, s3, (int64_t[]){-1, 0, -128}), REF_DTYPE_I32, &M30,
                         (int64_t[]){30}, 1, -128, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_OK, "u8 input");
   expect_ints(o, (int64_t[]){127, -128, 0}, 3, "u8 input");
   /* Unsigned output (u8), output_zp bits 0x80 = 128: -100, 100, 127, -128 x1 -> 28, 228,
    * 255, 0. x4: -272 -> 0, 528 -> 255, 636 -> 255, -384 -> 0: clipped to [0, 255] as numbers
    * (the reading of apply_clip_u<i32_t> that tosa_ref.h records; read literally it would
    * zero-extend -272 and give 255). */
   a = rs_args(true, SR, false, false, true);
   struct ref_tensor *uin = ti(REF_DTYPE_I8, 1, s4, (int64_t[]){-100, 100, 127, -128});
   expect_status(
       rescale(&a, uin, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, -128, REF_DTYPE_I8, &o),
       TOSA_REF_OK, "u8 output");
   expect_bits(o, (uint64_t[]){28, 228, 255, 0}, 4, "u8 output");
   expect_status(
       rescale(&a, uin, REF_DTYPE_I32, &M30, (int64_t[]){28}, 1, 0, -128, REF_DTYPE_I8, &o),
       TOSA_REF_OK, "u8 output x4");
   expect_bits(o, (uint64_t[]){0, 255, 255, 0}, 4, "u8 output saturates at 0 and 255");
   /* u16 input with zero point 32768 (bits 0x8000): 65535, 0, 32768 -> 32767, -32768, 0. */
   a = rs_args(true, SR, false, true, false);
   expect_status(rescale(&a, ti(REF_DTYPE_I16, 1, s3, (int64_t[]){-1, 0, -32768}), REF_DTYPE_I32,
                         &M30, (int64_t[]){30}, 1, -32768, 0, REF_DTYPE_I16, &o),
                 TOSA_REF_OK, "u16 input");
   expect_ints(o, (int64_t[]){32767, -32768, 0}, 3, "u16 input");
   /* u16 output, zero point 32768: -1, 127, -128 -> 32767 (0x7FFF), 32895 (0x807F),
    * 32640 (0x7F80); zero point 0: -5 -> 0, 1000 -> 1000. */
   a = rs_args(true, SR, false, false, true);
   expect_status(rescale(&a, ti(REF_DTYPE_I8, 1, s3, (int64_t[]){-1, 127, -128}), REF_DTYPE_I32,
                         &M30, (int64_t[]){30}, 1, 0, -32768, REF_DTYPE_I16, &o),
                 TOSA_REF_OK, "u16 output");
   expect_bits(o, (uint64_t[]){0x7FFF, 0x807F, 0x7F80}, 3, "u16 output");
   expect_status(rescale(&a, ti(REF_DTYPE_I16, 1, s2, (int64_t[]){-5, 1000}), REF_DTYPE_I32, &M30,
                         (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I16, &o),
                 TOSA_REF_OK, "u16 output, zero point 0");
   expect_bits(o, (uint64_t[]){0, 1000}, 2, "u16 output, zero point 0");

   /* i48 inputs use apply_scale_16 (scale32 false). 2^46 * 2^14 >> 30 = 2^30 (i32);
    * -2^40 * 2^14 = -2^54, + 2^43, >> 44 = floor(-1023.5) = -1024 (i16). */
   a = rs_args(false, SR, false, false, false);
   expect_status(rescale(&a, ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){INT64_C(1) << 46}),
                         REF_DTYPE_I32, (int64_t[]){1 << 14}, (int64_t[]){30}, 1, 0, 0,
                         REF_DTYPE_I32, &o),
                 TOSA_REF_OK, "i48 -> i32");
   expect_ints(o, (int64_t[]){INT64_C(1) << 30}, 1, "i48 -> i32");
   expect_status(rescale(&a, ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){-(INT64_C(1) << 40)}),
                         REF_DTYPE_I32, (int64_t[]){1 << 14}, (int64_t[]){44}, 1, 0, 0,
                         REF_DTYPE_I16, &o),
                 TOSA_REF_OK, "i48 -> i16");
   expect_ints(o, (int64_t[]){-1024}, 1, "i48 -> i16");
   /* i48 -> i8, (1, 40): 2^40 -> 1.5 floor 1; -1.5 * 2^40 -> floor(-1.0) = -1; 2^47 - 1 ->
    * floor(128.4999...) = 128, clipped to 127. The i16 multiplier tensor of TOSA (mul_t = i16
    * when !scale32) gives the same. */
   const int64_t v48[] = {INT64_C(1) << 40, -3 * (INT64_C(1) << 39), (INT64_C(1) << 47) - 1};
   for (int t = 0; t < 2; t++) {
      enum ref_dtype mt = t ? REF_DTYPE_I16 : REF_DTYPE_I32;
      expect_status(rescale(&a, ti(REF_DTYPE_I48, 1, s3, v48), mt, (int64_t[]){1}, (int64_t[]){40},
                            1, 0, 0, REF_DTYPE_I8, &o),
                    TOSA_REF_OK, "i48 -> i8");
      expect_ints(o, (int64_t[]){1, -1, 127}, 3, "i48 -> i8");
   }
   /* scale32 false with an i32 multiplier tensor: a value beyond int16 is unpredictable. */
   expect_status(rescale(&a, ti(REF_DTYPE_I16, 1, (int64_t[]){1}, (int64_t[]){1}), REF_DTYPE_I32,
                         (int64_t[]){40000}, (int64_t[]){15}, 1, 0, 0, REF_DTYPE_I16, &o),
                 TOSA_REF_UNPREDICTABLE, "16-bit multiplier 40000");
   /* scale32 false on an i16 input, x0.5 with (2^14, 15): 3 -> 2, -3 -> -1. */
   expect_status(rescale(&a, ti(REF_DTYPE_I16, 1, s2, (int64_t[]){3, -3}), REF_DTYPE_I16,
                         (int64_t[]){1 << 14}, (int64_t[]){15}, 1, 0, 0, REF_DTYPE_I16, &o),
                 TOSA_REF_OK, "i16 scale16");
   expect_ints(o, (int64_t[]){2, -1}, 2, "i16 scale16");

   /* Rounding modes, i32 -> i32 x0.25 (2^30, 32) on 1, -2, 3:
    * SINGLE: (2^30 + 2^31) >> 32 = 0; (-2^31 + 2^31) >> 32 = 0; 5 * 2^30 >> 32 = 1.
    * DOUBLE: (2^30 + 2^31 + 2^30) >> 32 = 1; (-2^31 + 2^31 - 2^30) >> 32 = -1;
    * 6 * 2^30 >> 32 = 1. INEXACT is computed as SINGLE. */
   struct ref_tensor *rin = ti(REF_DTYPE_I32, 1, s3, (int64_t[]){1, -2, 3});
   const enum tosa_ref_rounding modes[] = {SR, DR, IR};
   const int64_t want[3][3] = {{0, 0, 1}, {1, -1, 1}, {0, 0, 1}};
   for (int i = 0; i < 3; i++) {
      a = rs_args(true, modes[i], false, false, false);
      expect_status(
          rescale(&a, rin, REF_DTYPE_I32, &M30, (int64_t[]){32}, 1, 0, 0, REF_DTYPE_I32, &o),
          TOSA_REF_OK, "rounding modes");
      expect_ints(o, want[i], 3, i == 0 ? "SINGLE_ROUND" : i == 1 ? "DOUBLE_ROUND" : "INEXACT");
   }

   /* ERROR_IFs, in RESCALE.tosac's order. */
   struct ref_tensor *i8v = tz(REF_DTYPE_I8, 1, (int64_t[]){1});
   struct ref_tensor *i16v = tz(REF_DTYPE_I16, 1, (int64_t[]){1});
   struct ref_tensor *i32v = tz(REF_DTYPE_I32, 1, (int64_t[]){1});
   struct ref_tensor *i48v = tz(REF_DTYPE_I48, 1, (int64_t[]){1});
   a = rs_args(true, SR, false, false, false);
   expect_status(rescale(&a, i16v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 1, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "signed i16 input_zp 1");
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 1, REF_DTYPE_I32, &o),
                 TOSA_REF_ERROR, "i32 output_zp 1");
   a = rs_args(true, SR, false, true, false);
   expect_status(rescale(&a, i16v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 1, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "u16 input_zp 1 (only 0 or 32768)");
   a = rs_args(true, SR, false, false, true);
   expect_status(
       rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 100, REF_DTYPE_I16, &o),
       TOSA_REF_ERROR, "u16 output_zp 100");
   a = rs_args(true, SR, false, false, false);
   expect_status(rescale(&a, i48v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(scale32 && i48 input)");
   a = rs_args(false, DR, false, false, false);
   expect_status(rescale(&a, i16v, REF_DTYPE_I16, (int64_t[]){1 << 14}, (int64_t[]){14}, 1, 0, 0,
                         REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(!scale32 && DOUBLE_ROUND)");
   a = rs_args(true, SR, false, true, true);
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(input_unsigned && output_unsigned)");
   a = rs_args(true, SR, false, true, false);
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I32, &o),
                 TOSA_REF_ERROR, "ERROR_IF(i32 output && input_unsigned)");
   expect_status(rescale(&a, i32v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(i32 input && input_unsigned)");
   a = rs_args(true, SR, false, false, true);
   expect_status(rescale(&a, i32v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(i32 input && output_unsigned)");
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I32, &o),
                 TOSA_REF_ERROR, "ERROR_IF(i32 output && output_unsigned)");
   a = rs_args(false, SR, false, false, true);
   expect_status(rescale(&a, i48v, REF_DTYPE_I16, (int64_t[]){1 << 14}, (int64_t[]){14}, 1, 0, 0,
                         REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(i48 input && output_unsigned)");
   a = rs_args(false, SR, false, true, false);
   expect_status(rescale(&a, i48v, REF_DTYPE_I16, (int64_t[]){1 << 14}, (int64_t[]){14}, 1, 0, 0,
                         REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(i48 input && input_unsigned)");
   a = rs_args(true, SR, true, false, false);
   expect_status(rescale(&a, tz(REF_DTYPE_I8, 0, NULL), REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0,
                         0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "ERROR_IF(per_channel && rank 0)");
   a = rs_args(true, SR, false, false, false);
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, (int64_t[]){M30, M30}, (int64_t[]){30, 30}, 2, 0,
                         0, REF_DTYPE_I8, &o),
                 TOSA_REF_ERROR, "NC must be 1 without per_channel");
   expect_status(tosa_ref_rescale(&a, i8v, t1(REF_DTYPE_I32, M30), t1(REF_DTYPE_I8, 30),
                                  t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0),
                                  tz(REF_DTYPE_I8, 1, s2)),
                 TOSA_REF_ERROR, "output shape differs");

   /* Rows and operand types. */
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I48, &o),
                 TOSA_REF_UNSUPPORTED, "i48 output has no row");
   expect_status(rescale(&a, tz(REF_DTYPE_FP32, 1, (int64_t[]){1}), REF_DTYPE_I32, &M30,
                         (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_UNSUPPORTED, "fp32 input has no row");
   expect_status(rescale(&a, i8v, REF_DTYPE_I16, (int64_t[]){1 << 14}, (int64_t[]){14}, 1, 0, 0,
                         REF_DTYPE_I8, &o),
                 TOSA_REF_UNSUPPORTED, "scale32 needs an i32 multiplier");
   expect_status(tosa_ref_rescale(&a, i8v, t1(REF_DTYPE_I32, M30), t1(REF_DTYPE_I16, 30),
                                  t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0),
                                  tz(REF_DTYPE_I8, 1, (int64_t[]){1})),
                 TOSA_REF_UNSUPPORTED, "shift must be i8");
   expect_status(tosa_ref_rescale(&a, i8v, t1(REF_DTYPE_I32, M30), t1(REF_DTYPE_I8, 30),
                                  t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0),
                                  tz(REF_DTYPE_I8, 1, (int64_t[]){1})),
                 TOSA_REF_UNSUPPORTED, "input_zp must have the input type");
   a.rounding_mode = (enum tosa_ref_rounding)4;
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_UNSUPPORTED, "rounding_mode 4");

   /* REQUIREs. */
   a = rs_args(true, SR, false, false, false);
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){63}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_UNPREDICTABLE, "shift 63");
   expect_status(rescale(&a, i8v, REF_DTYPE_I32, &M30, (int64_t[]){1}, 1, 0, 0, REF_DTYPE_I8, &o),
                 TOSA_REF_UNPREDICTABLE, "shift 1");
   expect_status(
       rescale(&a, i8v, REF_DTYPE_I32, (int64_t[]){-1}, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I8, &o),
       TOSA_REF_UNPREDICTABLE, "multiplier -1");
   expect_status(rescale(&a, ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){1 << 29}),
                         REF_DTYPE_I32, &M30, (int64_t[]){30}, 1, 0, 0, REF_DTYPE_I32, &o),
                 TOSA_REF_UNPREDICTABLE, "value 2^29 with shift 30");
   /* apply_scale_16 result beyond int32: 2^40 with (2^14, 14) is 2^40. */
   a = rs_args(false, SR, false, false, false);
   expect_status(rescale(&a, ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){INT64_C(1) << 40}),
                         REF_DTYPE_I16, (int64_t[]){1 << 14}, (int64_t[]){14}, 1, 0, 0,
                         REF_DTYPE_I32, &o),
                 TOSA_REF_UNPREDICTABLE, "apply_scale_16 result 2^40");
   /* apply_add_s<int32_t>(INT32_MAX, output_zp 1): INT32_MAX scaled by (2^14, 14) is itself. */
   expect_status(rescale(&a, ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){I32_MAX}),
                         REF_DTYPE_I16, (int64_t[]){1 << 14}, (int64_t[]){14}, 1, 0, 1,
                         REF_DTYPE_I8, &o),
                 TOSA_REF_UNPREDICTABLE, "result + output_zp overflows int32");
}

/* ---------------------------------------------------------------------------------------------
 * Compliance (introduction.adoc "Compliance", tosa_reference_check.tosac,
 * tosa_reference_check_dotproduct.tosac, type_conversion.adoc RESCALE INEXACT_ROUND)
 */

static void
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
   };
   for (int64_t i = 0; i < COUNT(rows); i++) {
      struct tosa_ref_tolerance t = tosa_ref_tolerance(rows[i].op, rows[i].out, rows[i].rounding);
      ok(t.kind == rows[i].kind && t.source && t.source[0], "tolerance row %lld: kind %d",
         (long long)i, (int)t.kind);
   }
   /* ewise_binary.adoc: tosa_reference_check_fp<in_t>(out_imp, out_ref, 0.5). */
   ok(tosa_ref_tolerance(TOSA_REF_OP_ADD, REF_DTYPE_FP16, 0).ulp == 0.5, "ADD: 0.5 ulp");
}

static void
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

static void
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

static void
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

static void
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

int
main(void)
{
   run_section("tensors", test_tensors);
   run_section("conversions", test_conversions);
   run_section("ADD", test_add);
   run_section("SUB", test_sub);
   run_section("MUL", test_mul);
   run_section("CLAMP", test_clamp);
   run_section("RESHAPE", test_reshape);
   run_section("CONCAT", test_concat);
   run_section("MAX_POOL2D", test_max_pool2d);
   run_section("CONV2D int", test_conv2d_int);
   run_section("CONV2D float", test_conv2d_float);
   run_section("MATMUL", test_matmul);
   run_section("apply_scale", test_apply_scale);
   run_section("RESCALE", test_rescale);
   run_section("tolerances", test_tolerance_table);
   run_section("check_fp", test_check_fp);
   run_section("check_tensor", test_check_tensor);
   run_section("check_dot", test_check_dot_product);
   run_section("check_range", test_check_rescale_range);
   for (unsigned i = 0; i < section_total; i++)
      printf("%-14s %u checks\n", sections[i].name, sections[i].checks);
   return test_done();
}
