/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): apply_scale_32/16 (scale_helpers.tosac)
 * and RESCALE (type_conversion.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* ---------------------------------------------------------------------------------------------
 * RESCALE (RESCALE.tosac, apply_scale_32 / apply_scale_16 of scale_helpers.tosac)
 */

void
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

void
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
