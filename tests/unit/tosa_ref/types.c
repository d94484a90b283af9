/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): tensors (tensor_utils.tosac) and the
 * fp16/bf16/fp8 conversions (introduction.adoc "Supported Number Formats", OCP OFP8, IEEE 754
 * round to nearest even).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* ---------------------------------------------------------------------------------------------
 * Tensors (tensor_utils.tosac)
 */

void
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

void
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
