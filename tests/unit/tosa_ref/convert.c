/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): CAST (type_conversion.adoc, CAST.tosac)
 * and TABLE (ewise_binary.adoc, TABLE.tosac, apply_lookup_s), and the CAST_FP compliance check.
 *
 * Every expected value below was worked out by hand from the pseudocode and the number formats
 * (IEEE binary16/32, bfloat16, OCP OFP8); the comment next to a case gives the working. None
 * comes from running the code under test.
 */
#include "ref_test.h"

/* CAST of n elements given as bit patterns (ints: their two's complement bits) into `out`. */
static struct ref_tensor *
cast_bits(enum ref_dtype in, enum ref_dtype out, const uint64_t *bits, int64_t n, int want_status,
          const char *what)
{
   const int64_t shape[] = {n};
   struct ref_tensor *o = tz(out, 1, shape);
   expect_status(tosa_ref_cast(tbits(in, 1, shape, bits), o), want_status, what);
   return o;
}

static struct ref_tensor *
cast_ints(enum ref_dtype in, enum ref_dtype out, const int64_t *v, int64_t n, const char *what)
{
   const int64_t shape[] = {n};
   struct ref_tensor *o = tz(out, 1, shape);
   expect_status(tosa_ref_cast(ti(in, 1, shape, v), o), TOSA_REF_OK, what);
   return o;
}

/* ---------------------------------------------------------------------------------------------
 * CAST between bool and integers, and to bool
 */

void
test_cast_int(void)
{
   /* bool -> int: 1 or 0; a stored 2 reads as true. */
   expect_ints(
       cast_bits(REF_DTYPE_BOOL, REF_DTYPE_I8, (uint64_t[]){0, 1, 2}, 3, TOSA_REF_OK, "bool -> i8"),
       (int64_t[]){0, 1, 1}, 3, "bool -> i8: 0, 1, 1");
   expect_ints(cast_ints(REF_DTYPE_BOOL, REF_DTYPE_I32, (int64_t[]){1, 0}, 2, "bool -> i32"),
               (int64_t[]){1, 0}, 2, "bool -> i32");
   /* int -> bool: in != 0. */
   expect_ints(
       cast_ints(REF_DTYPE_I8, REF_DTYPE_BOOL, (int64_t[]){-128, 0, 1, 127}, 4, "i8 -> bool"),
       (int64_t[]){1, 0, 1, 1}, 4, "i8 -> bool");
   expect_ints(
       cast_ints(REF_DTYPE_I32, REF_DTYPE_BOOL, (int64_t[]){I32_MIN, 0, 65536}, 3, "i32 -> bool"),
       (int64_t[]){1, 0, 1}, 3, "i32 -> bool: 65536 (no low bits set) is true");
   /* Widening sign-extends. */
   expect_ints(cast_ints(REF_DTYPE_I8, REF_DTYPE_I16, (int64_t[]){-128, -1, 127}, 3, "i8 -> i16"),
               (int64_t[]){-128, -1, 127}, 3, "i8 -> i16");
   expect_ints(
       cast_ints(REF_DTYPE_I16, REF_DTYPE_I32, (int64_t[]){-32768, -1, 32767}, 3, "i16 -> i32"),
       (int64_t[]){-32768, -1, 32767}, 3, "i16 -> i32");
   /* Narrowing truncates: 0x12345680 -> 0x80 = -128; -129 = 0x..ff7f -> 0x7f = 127;
    * 128 -> 0x80 = -128; 255 -> -1; 256 -> 0. */
   expect_ints(cast_ints(REF_DTYPE_I32, REF_DTYPE_I8, (int64_t[]){0x12345680, -129, 128, 255, 256},
                         5, "i32 -> i8"),
               (int64_t[]){-128, 127, -128, -1, 0}, 5, "i32 -> i8 wraps");
   /* 65535 -> 0xffff = -1; 32768 -> -32768; -32769 = 0x..7fff -> 32767; INT32_MAX -> -1. */
   expect_ints(cast_ints(REF_DTYPE_I32, REF_DTYPE_I16, (int64_t[]){65535, 32768, -32769, I32_MAX},
                         4, "i32 -> i16"),
               (int64_t[]){-1, -32768, 32767, -1}, 4, "i32 -> i16 wraps");
   /* 0x1ff -> 0xff = -1; -32768 = 0x8000 -> 0. */
   expect_ints(
       cast_ints(REF_DTYPE_I16, REF_DTYPE_I8, (int64_t[]){0x1ff, -32768, 0x7f}, 3, "i16 -> i8"),
       (int64_t[]){-1, 0, 127}, 3, "i16 -> i8 wraps");

   /* Rows that do not exist, and the shape rule. */
   const int64_t s2[] = {2};
   expect_status(tosa_ref_cast(tz(REF_DTYPE_BOOL, 1, s2), tz(REF_DTYPE_FP32, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "bool -> fp32 is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_I8, 1, s2), tz(REF_DTYPE_I8, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "i8 -> i8 is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_FP8E4M3, 1, s2), tz(REF_DTYPE_FP8E5M2, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "fp8e4m3 -> fp8e5m2 is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_FP8E4M3, 1, s2), tz(REF_DTYPE_I8, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "fp8e4m3 -> i8 is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_FP16, 1, s2), tz(REF_DTYPE_BF16, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "fp16 -> bf16 is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_I32, 1, s2), tz(REF_DTYPE_FP8E4M3, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "i32 -> fp8e4m3 is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_FP32, 1, s2), tz(REF_DTYPE_BOOL, 1, s2)),
                 TOSA_REF_UNSUPPORTED, "fp32 -> bool is no row");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_I8, 1, s2), tz(REF_DTYPE_I16, 1, (int64_t[]){3})),
                 TOSA_REF_ERROR, "output [3] for input [2]");
   expect_status(tosa_ref_cast(tz(REF_DTYPE_I8, 1, s2), tz(REF_DTYPE_I16, 2, (int64_t[]){1, 2})),
                 TOSA_REF_ERROR, "output [1,2] for input [2]");
}

/* ---------------------------------------------------------------------------------------------
 * CAST from floats to integers, from integers to floats
 */

void
test_cast_float_int(void)
{
   /* fp32 -> i32, ties to even: 0.5 -> 0, 1.5 -> 2, 2.5 -> 2, -0.5 -> 0, -1.5 -> -2, -2.5 ->
    * -2; 0x3effffff (0.5 - 2^-25) -> 0; 0x3f000001 (0.5 + 2^-24) -> 1; 2^22 + 0.5 (0x4a800001)
    * -> 2^22 (even); 2^22 + 1.5 (0x4a800003) -> 2^22 + 2; 0x4effffff (2^31 - 128) exact;
    * 2^31 (0x4f000000) saturates to INT32_MAX; -2^31 (0xcf000000) is INT32_MIN exactly;
    * 0xcf000001 (-2^31 - 256) saturates; +-inf saturate; the smallest subnormal and -0 give 0. */
   expect_ints(cast_bits(REF_DTYPE_FP32, REF_DTYPE_I32,
                         (uint64_t[]){0x3f000000, 0x3fc00000, 0x40200000, 0xbf000000, 0xbfc00000,
                                      0xc0200000, 0x3effffff, 0x3f000001, 0x4a800001, 0x4a800003,
                                      0x4effffff, 0x4f000000, 0xcf000000, 0xcf000001, 0x7f800000,
                                      0xff800000, 0x00000001, 0x80000000},
                         18, TOSA_REF_OK, "fp32 -> i32"),
               (int64_t[]){0, 2, 2, 0, -2, -2, 0, 1, 4194304, 4194306, 2147483520, I32_MAX, I32_MIN,
                           I32_MIN, I32_MAX, I32_MIN, 0, 0},
               18, "fp32 -> i32: ties to even, saturation");
   /* fp32 -> i8: 127.5 -> 128 -> 127; -128.5 -> -128 (even); -129.5 -> -130 -> -128; 300 -> 127;
    * 1e10 -> 127; 126.5 -> 126. */
   expect_ints(cast_bits(REF_DTYPE_FP32, REF_DTYPE_I8,
                         (uint64_t[]){0x42ff0000, 0xc3008000, 0xc3018000, 0x43960000, 0x501502f9,
                                      0x42fd0000},
                         6, TOSA_REF_OK, "fp32 -> i8"),
               (int64_t[]){127, -128, -128, 127, 127, 126}, 6, "fp32 -> i8 saturates");
   /* fp16 -> i16: 65504 (0x7bff) -> 32767; -65504 -> -32768; 0x03ff (largest subnormal) -> 0;
    * 0x3800 (0.5) -> 0; 0x3e00 (1.5) -> 2; 0x7c00 -> 32767; 0x77ff (32752) exact. */
   expect_ints(cast_bits(REF_DTYPE_FP16, REF_DTYPE_I16,
                         (uint64_t[]){0x7bff, 0xfbff, 0x03ff, 0x3800, 0x3e00, 0x7c00, 0x77ff}, 7,
                         TOSA_REF_OK, "fp16 -> i16"),
               (int64_t[]){32767, -32768, 0, 0, 2, 32767, 32752}, 7, "fp16 -> i16");
   /* bf16 -> i32: 0x4f00 (2^31) -> INT32_MAX; 0xcf00 -> INT32_MIN; 0x3fc0 (1.5) -> 2; 0x4020
    * (2.5) -> 2; 0x4eff (2^31 - 2^23) exact. */
   expect_ints(cast_bits(REF_DTYPE_BF16, REF_DTYPE_I32,
                         (uint64_t[]){0x4f00, 0xcf00, 0x3fc0, 0x4020, 0x4eff}, 5, TOSA_REF_OK,
                         "bf16 -> i32"),
               (int64_t[]){I32_MAX, I32_MIN, 2, 2, 2139095040}, 5, "bf16 -> i32");
   /* A NaN is unpredictable; the element is 0 (as the kernel gives). */
   expect_ints(cast_bits(REF_DTYPE_FP32, REF_DTYPE_I16, (uint64_t[]){0x3f800000, 0x7fc00000}, 2,
                         TOSA_REF_UNPREDICTABLE, "fp32 NaN -> i16"),
               (int64_t[]){1, 0}, 2, "fp32 NaN -> i16: 0");

   /* i32 -> fp32, once to nearest even: 16777217 = 2^24 + 1 -> 2^24 (tie, even); 2^24 + 3 ->
    * 2^24 + 4 (tie; 2^24 + 2 has an odd mantissa); 2^25 + 3 -> 2^25 + 4 (ulp 4, not a tie);
    * INT32_MAX -> 2^31; INT32_MIN exact. */
   expect_fps(cast_ints(REF_DTYPE_I32, REF_DTYPE_FP32,
                        (int64_t[]){16777217, 16777219, 33554435, I32_MAX, I32_MIN}, 5,
                        "i32 -> fp32"),
              (double[]){16777216.0, 16777220.0, 33554436.0, 2147483648.0, -2147483648.0}, 5,
              "i32 -> fp32 ties to even");
   /* i32 -> bf16 (8 significant bits), rounded once from the integer:
    * 1086324735 = 2^30 + 2^23 + 2^22 - 1 lies just below the midpoint of 2^30 + 2^23 (0x4e81)
    * and 2^30 + 2^24: 0x4e81. (Through fp32 it would first become the midpoint, then round to
    * even 0x4e82: the double rounding.)
    * 1077936129 = 2^30 + 2^22 + 1 lies just above the midpoint of 2^30 (0x4e80) and
    * 2^30 + 2^23: 0x4e81 (through fp32: the midpoint, then 0x4e80).
    * 257 -> tie of 256 (0x4380, even) and 258: 0x4380; 259 -> tie of 258 (odd) and 260: 0x4382;
    * INT32_MIN -> 0xcf00; INT32_MAX -> 2^31 = 0x4f00. */
   expect_bits(
       cast_ints(REF_DTYPE_I32, REF_DTYPE_BF16,
                 (int64_t[]){1086324735, 1077936129, 257, 259, I32_MIN, I32_MAX}, 6, "i32 -> bf16"),
       (uint64_t[]){0x4e81, 0x4e81, 0x4380, 0x4382, 0xcf00, 0x4f00}, 6, "i32 -> bf16 rounds once");
   /* i32 -> fp16: 65519 -> 65504 (0x7bff); 65520 -> the midpoint of 65504 and 65536, odd
    * mantissa: up, overflow to inf (0x7c00); -65520 -> -inf; 2049 -> 2048 (0x6800, even);
    * 2051 -> 2052 (0x6802); 70000 -> inf. */
   expect_bits(cast_ints(REF_DTYPE_I32, REF_DTYPE_FP16,
                         (int64_t[]){65519, 65520, -65520, 2049, 2051, 70000}, 6, "i32 -> fp16"),
               (uint64_t[]){0x7bff, 0x7c00, 0xfc00, 0x6800, 0x6802, 0x7c00}, 6,
               "i32 -> fp16: ties to even, overflow");
   /* i16 -> fp16: 32767 -> 32768 (ulp 16; 0x7800); -32768 -> 0xf800; 2047 exact (0x67ff). */
   expect_bits(
       cast_ints(REF_DTYPE_I16, REF_DTYPE_FP16, (int64_t[]){32767, -32768, 2047}, 3, "i16 -> fp16"),
       (uint64_t[]){0x7800, 0xf800, 0x67ff}, 3, "i16 -> fp16");
   /* i16 -> bf16: 32767 -> 32768 (0x4700); 257 -> 256 (0x4380); i8 -> bf16: -128 -> 0xc300,
    * 127 exact (1.111111 * 2^6: 0x42fe). */
   expect_bits(cast_ints(REF_DTYPE_I16, REF_DTYPE_BF16, (int64_t[]){32767, 257}, 2, "i16 -> bf16"),
               (uint64_t[]){0x4700, 0x4380}, 2, "i16 -> bf16");
   expect_bits(cast_ints(REF_DTYPE_I8, REF_DTYPE_BF16, (int64_t[]){-128, 127}, 2, "i8 -> bf16"),
               (uint64_t[]){0xc300, 0x42fe}, 2, "i8 -> bf16");
   /* An FP64 output holds the exact integer. */
   expect_fps(cast_ints(REF_DTYPE_I32, REF_DTYPE_FP64, (int64_t[]){16777217, I32_MAX}, 2,
                        "i32 -> fp64 (exact)"),
              (double[]){16777217.0, 2147483647.0}, 2, "i32 -> FP64: exact");
}

/* ---------------------------------------------------------------------------------------------
 * CAST between float types
 */

void
test_cast_float_float(void)
{
   /* fp32 -> fp16: 65504 (0x477fe000) -> 0x7bff; 0x477fefff (just below 65520) -> 0x7bff;
    * 0x477ff000 (65520, tie with odd mantissa) -> inf; 0x3f801000 (1 + 2^-11, tie) -> 1.0
    * (0x3c00); 0x3f803000 (1 + 3 * 2^-11, tie) -> 1 + 2^-9 (0x3c02); 2^-24 (0x33800000) ->
    * 0x0001; 2^-25 (0x33000000, tie) -> 0; 0x33000001 -> 0x0001; 1.5 * 2^-25 (0x33400000) ->
    * 0x0001; -0 -> 0x8000; quiet NaN -> 0x7e00; -NaN with a payload -> 0xfe00; inf -> 0x7c00;
    * the smallest fp32 subnormal -> 0; 2^-14 (0x38800000) -> 0x0400; 1023 * 2^-24
    * (0x387fc000) -> 0x03ff. */
   expect_bits(cast_bits(REF_DTYPE_FP32, REF_DTYPE_FP16,
                         (uint64_t[]){0x477fe000, 0x477fefff, 0x477ff000, 0x3f801000, 0x3f803000,
                                      0x33800000, 0x33000000, 0x33000001, 0x33400000, 0x80000000,
                                      0x7fc00000, 0xffc00001, 0x7f800000, 0x00000001, 0x38800000,
                                      0x387fc000},
                         16, TOSA_REF_OK, "fp32 -> fp16"),
               (uint64_t[]){0x7bff, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0001, 0x0000, 0x0001, 0x0001,
                            0x8000, 0x7e00, 0xfe00, 0x7c00, 0x0000, 0x0400, 0x03ff},
               16, "fp32 -> fp16");
   /* fp32 -> bf16: 0x3f808000 (tie) -> 0x3f80; 0x3f818000 (tie) -> 0x3f82; 0x3f808001 ->
    * 0x3f81; fp32 max -> inf; 0x7f7f7fff -> 0x7f7f; the smallest subnormal -> 0; 0x00008000
    * (tie) -> 0; 0x00018000 (tie) -> 0x0002; 0x00400000 -> 0x0040 (a bf16 subnormal). */
   expect_bits(cast_bits(REF_DTYPE_FP32, REF_DTYPE_BF16,
                         (uint64_t[]){0x3f808000, 0x3f818000, 0x3f808001, 0x7f7fffff, 0x7f7f7fff,
                                      0x00000001, 0x00008000, 0x00018000, 0x00400000},
                         9, TOSA_REF_OK, "fp32 -> bf16"),
               (uint64_t[]){0x3f80, 0x3f82, 0x3f81, 0x7f80, 0x7f7f, 0x0000, 0x0000, 0x0002, 0x0040},
               9, "fp32 -> bf16");
   /* fp32 -> fp8e4m3: 448 (0x43e00000) -> 0x7e; 464 (0x43e80000, tie; 448's mantissa 110 is
    * even) -> 0x7e; 0x43e80001 -> rounds to 480, beyond 448: NaN 0x7f; 480 -> NaN; +-inf ->
    * NaN (0x7f, 0xff); 2^-9 -> 0x01; 2^-10 (tie) -> 0; 1.5 * 2^-10 -> 0x01; 2^-6 -> 0x08;
    * 7 * 2^-9 -> 0x07; 1.0625 (tie of 1 and 1.125) -> 0x38; 1.1875 (tie of 1.125 (odd) and
    * 1.25) -> 0x3a; NaN -> 0x7f; -0 -> 0x80; -448 -> 0xfe. */
   expect_bits(cast_bits(REF_DTYPE_FP32, REF_DTYPE_FP8E4M3,
                         (uint64_t[]){0x43e00000, 0x43e80000, 0x43e80001, 0x43f00000, 0x7f800000,
                                      0xff800000, 0x3b000000, 0x3a800000, 0x3ac00000, 0x3c800000,
                                      0x3c600000, 0x3f880000, 0x3f980000, 0x7fc00000, 0x80000000,
                                      0xc3e00000},
                         16, TOSA_REF_OK, "fp32 -> fp8e4m3"),
               (uint64_t[]){0x7e, 0x7e, 0x7f, 0x7f, 0x7f, 0xff, 0x01, 0x00, 0x01, 0x08, 0x07, 0x38,
                            0x3a, 0x7f, 0x80, 0xfe},
               16, "fp32 -> fp8e4m3 (non-saturating)");
   /* fp32 -> fp8e5m2: 57344 (0x47600000) -> 0x7b; 61440 (0x47700000, tie, odd) -> inf 0x7c;
    * 0x476fffff -> 0x7b; 2^-16 (0x37800000) -> 0x01; 2^-17 (tie) -> 0; -inf -> 0xfc; NaN ->
    * 0x7e. */
   expect_bits(cast_bits(REF_DTYPE_FP32, REF_DTYPE_FP8E5M2,
                         (uint64_t[]){0x47600000, 0x47700000, 0x476fffff, 0x37800000, 0x37000000,
                                      0xff800000, 0x7fc00000},
                         7, TOSA_REF_OK, "fp32 -> fp8e5m2"),
               (uint64_t[]){0x7b, 0x7c, 0x7b, 0x01, 0x00, 0xfc, 0x7e}, 7, "fp32 -> fp8e5m2");
   /* fp16 -> fp8e4m3: 0x5f00 (448) -> 0x7e; 0x5f40 (464, tie) -> 0x7e; 0x5f41 (464.25) -> NaN.
    * bf16 -> fp8e5m2: 0x4760 (57344) -> 0x7b; 0x4770 (61440) -> inf. */
   expect_bits(cast_bits(REF_DTYPE_FP16, REF_DTYPE_FP8E4M3, (uint64_t[]){0x5f00, 0x5f40, 0x5f41}, 3,
                         TOSA_REF_OK, "fp16 -> fp8e4m3"),
               (uint64_t[]){0x7e, 0x7e, 0x7f}, 3, "fp16 -> fp8e4m3");
   expect_bits(cast_bits(REF_DTYPE_BF16, REF_DTYPE_FP8E5M2, (uint64_t[]){0x4760, 0x4770}, 2,
                         TOSA_REF_OK, "bf16 -> fp8e5m2"),
               (uint64_t[]){0x7b, 0x7c}, 2, "bf16 -> fp8e5m2");
   /* Exact widenings: fp8e4m3 0x7e -> 448 = fp16 0x5f00; 0x01 (2^-9) -> fp16 0x1800; NaN ->
    * 0x7e00, -NaN -> 0xfe00. fp8e5m2 0x7c (inf) -> bf16 0x7f80; 0x01 (2^-16) -> bf16 0x3780.
    * fp16 0x0001 (2^-24) -> fp32 0x33800000; 0x7c00 -> inf; bf16 0x0001 (2^-133) -> fp32
    * 0x00010000. */
   expect_bits(cast_bits(REF_DTYPE_FP8E4M3, REF_DTYPE_FP16, (uint64_t[]){0x7e, 0x01, 0x7f, 0xff}, 4,
                         TOSA_REF_OK, "fp8e4m3 -> fp16"),
               (uint64_t[]){0x5f00, 0x1800, 0x7e00, 0xfe00}, 4, "fp8e4m3 -> fp16");
   expect_bits(cast_bits(REF_DTYPE_FP8E5M2, REF_DTYPE_BF16, (uint64_t[]){0x7c, 0x01}, 2,
                         TOSA_REF_OK, "fp8e5m2 -> bf16"),
               (uint64_t[]){0x7f80, 0x3780}, 2, "fp8e5m2 -> bf16");
   expect_bits(cast_bits(REF_DTYPE_FP16, REF_DTYPE_FP32, (uint64_t[]){0x0001, 0x7c00}, 2,
                         TOSA_REF_OK, "fp16 -> fp32"),
               (uint64_t[]){0x33800000, 0x7f800000}, 2, "fp16 -> fp32");
   expect_bits(cast_bits(REF_DTYPE_BF16, REF_DTYPE_FP32, (uint64_t[]){0x0001}, 1, TOSA_REF_OK,
                         "bf16 -> fp32"),
               (uint64_t[]){0x00010000}, 1, "bf16 -> fp32: a subnormal kept");
   /* An FP64 output holds the input's exact value (0x477ff000 = 65520). */
   expect_fps(cast_bits(REF_DTYPE_FP32, REF_DTYPE_FP64, (uint64_t[]){0x477ff000, 0xbf800000}, 2,
                        TOSA_REF_OK, "fp32 -> FP64"),
              (double[]){65520.0, -1.0}, 2, "fp32 -> FP64: exact");
}

/* ---------------------------------------------------------------------------------------------
 * TABLE
 */

void
test_table(void)
{
   /* i8: table[i] = 127 - i, so out = table[in + 128] = -1 - in. */
   int64_t t8[256];
   for (int i = 0; i < 256; i++)
      t8[i] = 127 - i;
   const int64_t s4[] = {4}, s256[] = {256}, s513[] = {513};
   struct ref_tensor *o8 = tz(REF_DTYPE_I8, 1, s4);
   struct ref_tensor *table8 = ti(REF_DTYPE_I8, 1, s256, t8);
   expect_status(tosa_ref_table(ti(REF_DTYPE_I8, 1, s4, (int64_t[]){-128, -1, 0, 127}), table8, o8),
                 TOSA_REF_OK, "i8 table");
   expect_ints(o8, (int64_t[]){127, 0, -1, -128}, 4, "i8: table[in + 128]");

   /* i16: table[i] = 16384 - 64 i (16384 .. -16384, slope -64), so (base << 7) + slope * frac
    * is -64 * in for every in: in = 0: index 256, base 0, frac 0 -> 0; in = 100: index 256,
    * frac 100 -> -6400; in = -100: index (32668 >> 7) = 255, frac -100 & 0x7f = 28, base 64:
    * 64 * 128 - 64 * 28 = 6400; in = -32768: index 0, base 16384 -> 2097152; in = 32767: index
    * 511, base -16320, frac 127: -16320 * 128 - 64 * 127 = -2097088. */
   int64_t t16[513];
   for (int i = 0; i < 513; i++)
      t16[i] = 16384 - 64 * i;
   struct ref_tensor *table16 = ti(REF_DTYPE_I16, 1, s513, t16);
   const int64_t s5[] = {5};
   struct ref_tensor *o16 = tz(REF_DTYPE_I32, 1, s5);
   expect_status(tosa_ref_table(ti(REF_DTYPE_I16, 1, s5, (int64_t[]){0, 100, -100, -32768, 32767}),
                                table16, o16),
                 TOSA_REF_OK, "i16 table");
   expect_ints(o16, (int64_t[]){0, -6400, 6400, 2097152, -2097088}, 5, "i16: apply_lookup_s");
   /* Steps: table[i] = i * 16 except table[257] = 4000: in = 130: index 257, frac 2: 4000 * 128
    * + (16 * 258 - 4000) * 2 = 512000 + 256 = 512256; in = 127: index 256 (4096), frac 127:
    * 4096 * 128 + (4000 - 4096) * 127 = 524288 - 12192 = 512096. */
   for (int i = 0; i < 513; i++)
      t16[i] = i == 257 ? 4000 : 16 * i;
   table16 = ti(REF_DTYPE_I16, 1, s513, t16);
   o16 = tz(REF_DTYPE_I32, 1, (int64_t[]){2});
   expect_status(
       tosa_ref_table(ti(REF_DTYPE_I16, 1, (int64_t[]){2}, (int64_t[]){130, 127}), table16, o16),
       TOSA_REF_OK, "i16 table with a step");
   expect_ints(o16, (int64_t[]){512256, 512096}, 2, "i16: interpolation across a step");

   /* The REQUIREs on the constant table: slopes within i16. table[511] = 32767, table[512] =
    * -1: slope -32768 fits; table[512] = -2: -32769 does not; table[0] = -32768, table[1] =
    * 32767: 65535 does not. */
   for (int i = 0; i < 513; i++)
      t16[i] = i == 511 ? 32767 : i == 512 ? -1 : 0;
   expect_status(tosa_ref_table(tz(REF_DTYPE_I16, 1, s4), ti(REF_DTYPE_I16, 1, s513, t16),
                                tz(REF_DTYPE_I32, 1, s4)),
                 TOSA_REF_OK, "slope -32768 fits i16");
   t16[512] = -2;
   expect_status(tosa_ref_table(tz(REF_DTYPE_I16, 1, s4), ti(REF_DTYPE_I16, 1, s513, t16),
                                tz(REF_DTYPE_I32, 1, s4)),
                 TOSA_REF_ERROR, "slope -32769");
   for (int i = 0; i < 513; i++)
      t16[i] = i == 0 ? -32768 : i == 1 ? 32767 : 0;
   expect_status(tosa_ref_table(tz(REF_DTYPE_I16, 1, s4), ti(REF_DTYPE_I16, 1, s513, t16),
                                tz(REF_DTYPE_I32, 1, s4)),
                 TOSA_REF_ERROR, "slope 65535");

   /* REQUIRE(length(table) == TABLE_SIZE), rows and shapes. */
   expect_status(tosa_ref_table(tz(REF_DTYPE_I8, 1, s4), tz(REF_DTYPE_I8, 1, (int64_t[]){255}),
                                tz(REF_DTYPE_I8, 1, s4)),
                 TOSA_REF_ERROR, "i8 table of 255");
   expect_status(
       tosa_ref_table(tz(REF_DTYPE_I8, 1, s4), tz(REF_DTYPE_I8, 1, s513), tz(REF_DTYPE_I8, 1, s4)),
       TOSA_REF_ERROR, "i8 table of 513");
   expect_status(tosa_ref_table(tz(REF_DTYPE_I16, 1, s4), tz(REF_DTYPE_I16, 1, (int64_t[]){512}),
                                tz(REF_DTYPE_I32, 1, s4)),
                 TOSA_REF_ERROR, "i16 table of 512");
   expect_status(tosa_ref_table(tz(REF_DTYPE_I16, 1, s4), tz(REF_DTYPE_I16, 2, (int64_t[]){1, 513}),
                                tz(REF_DTYPE_I32, 1, s4)),
                 TOSA_REF_ERROR, "i16 table of shape [1,513]");
   expect_status(
       tosa_ref_table(tz(REF_DTYPE_I8, 1, s4), tz(REF_DTYPE_I16, 1, s256), tz(REF_DTYPE_I8, 1, s4)),
       TOSA_REF_UNSUPPORTED, "i8 input, i16 table");
   expect_status(tosa_ref_table(tz(REF_DTYPE_I16, 1, s4), tz(REF_DTYPE_I16, 1, s513),
                                tz(REF_DTYPE_I16, 1, s4)),
                 TOSA_REF_UNSUPPORTED, "i16 -> i16");
   expect_status(tosa_ref_table(tz(REF_DTYPE_I8, 1, s4), table8, tz(REF_DTYPE_I8, 1, s5)),
                 TOSA_REF_ERROR, "output [5] for input [4]");
}

/* ---------------------------------------------------------------------------------------------
 * The CAST_FP check (type_conversion.adoc) and the tolerance rows of CAST and TABLE
 */

void
test_check_cast_fp(void)
{
   struct {
      enum tosa_ref_op op;
      enum ref_dtype out;
      enum tosa_ref_tol_kind kind;
   } rows[] = {
       {TOSA_REF_OP_CAST, REF_DTYPE_I8, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CAST, REF_DTYPE_BOOL, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CAST, REF_DTYPE_BF16, TOSA_REF_TOL_ULP},
       {TOSA_REF_OP_CAST_FROM_FP, REF_DTYPE_I32, TOSA_REF_TOL_EXACT},
       {TOSA_REF_OP_CAST_FROM_FP, REF_DTYPE_FP8E4M3, TOSA_REF_TOL_CAST_FP},
       {TOSA_REF_OP_TABLE, REF_DTYPE_I32, TOSA_REF_TOL_EXACT},
   };
   for (int64_t i = 0; i < COUNT(rows); i++) {
      struct tosa_ref_tolerance t = tosa_ref_tolerance(rows[i].op, rows[i].out, 0);
      ok(t.kind == rows[i].kind, "tolerance row %lld: kind %d, expected %d", (long long)i,
         (int)t.kind, (int)rows[i].kind);
   }
   ok(tosa_ref_tolerance(TOSA_REF_OP_CAST, REF_DTYPE_FP16, 0).ulp == 0.5,
      "CAST integer -> float: 0.5 ulp");

   const double inf = INFINITY, nan = NAN;
   const double e10 = ldexp(1.0, -10);
   struct {
      enum ref_dtype type;
      double test, ref;
      bool pass;
      const char *why;
   } cases[] = {
       /* fp16 around the top: ulp 32 in [32768, 65536). 65519 -> 65504 (nearest) passes, inf
        * does not (65519 < 65504 + 16); 65520 -> 65504 (toward zero) or inf both pass; 65600
        * (ulp 64): 65504 < 65600 - 64, only inf. */
       {REF_DTYPE_FP16, 65504, 65519, true, "65519 -> 65504"},
       {REF_DTYPE_FP16, inf, 65519, false, "65519 -> inf"},
       {REF_DTYPE_FP16, inf, 65520, true, "65520 -> inf"},
       {REF_DTYPE_FP16, 65504, 65520, true, "65520 -> 65504 (toward zero)"},
       {REF_DTYPE_FP16, 65504, 65600, false, "65600 -> 65504"},
       {REF_DTYPE_FP16, -inf, -65600, true, "-65600 -> -inf"},
       {REF_DTYPE_FP16, inf, -65600, false, "-65600 -> +inf"},
       {REF_DTYPE_FP16, inf, inf, true, "inf -> inf"},
       {REF_DTYPE_FP16, 65504, inf, false, "inf -> 65504"},
       /* fp8e4m3: 464 is the tie that rounds down to 448; above it NaN; inf gives NaN. */
       {REF_DTYPE_FP8E4M3, 448, 464, true, "e4m3 464 -> 448"},
       {REF_DTYPE_FP8E4M3, nan, 464, false, "e4m3 464 -> NaN"},
       {REF_DTYPE_FP8E4M3, nan, 465, true, "e4m3 465 -> NaN"},
       {REF_DTYPE_FP8E4M3, nan, -inf, true, "e4m3 -inf -> NaN"},
       {REF_DTYPE_FP8E4M3, 448, inf, false, "e4m3 inf -> 448 (saturating)"},
       {REF_DTYPE_FP8E4M3, 448, 500, false, "e4m3 500 -> 448 (saturating)"},
       /* Within [|ref| - ulp, |ref| + 0.5 ulp]: 1 + 0.9 ulp -> 1 (toward zero) passes;
        * 1 + 0.4 ulp -> 1 + ulp is 0.6 ulp above: fails. */
       {REF_DTYPE_FP16, 1.0, 1.0 + 0.9 * e10, true, "toward zero"},
       {REF_DTYPE_FP16, 1.0 + e10, 1.0 + 0.4 * e10, false, "away from zero, 0.6 ulp"},
       {REF_DTYPE_FP16, 1.0 + e10, 1.0 + 0.5 * e10, true, "tie up"},
       /* The sign, zeros, flushing. */
       {REF_DTYPE_FP16, -0.0, 1e-10, false, "-0 for a positive value"},
       {REF_DTYPE_FP16, 0.0, 1e-10, true, "+0 for a tiny value"},
       {REF_DTYPE_FP16, -0.0, -1e-10, true, "-0 for a tiny negative value"},
       {REF_DTYPE_FP16, 0.0, ldexp(1.0, -20), true, "fp16 subnormal flushed"},
       /* fp8 keeps its subnormals: 2^-8 (two units of 2^-9) may become 2^-9 (one ulp below),
        * never 0. */
       {REF_DTYPE_FP8E4M3, 0.0, ldexp(1.0, -8), false, "fp8 subnormal not flushed"},
       {REF_DTYPE_FP8E4M3, ldexp(1.0, -9), ldexp(1.0, -9), true, "fp8 subnormal"},
       /* NaN in, NaN out. */
       {REF_DTYPE_FP32, nan, nan, true, "NaN -> NaN"},
       {REF_DTYPE_FP32, 1.0, nan, false, "NaN -> 1"},
       {REF_DTYPE_FP32, nan, 1.0, false, "1 -> NaN"},
   };
   for (int64_t i = 0; i < COUNT(cases); i++)
      ok(tosa_ref_check_cast_fp(cases[i].type, cases[i].test, cases[i].ref) == cases[i].pass,
         "check_cast_fp %s: expected %s", cases[i].why, cases[i].pass ? "pass" : "fail");
}
