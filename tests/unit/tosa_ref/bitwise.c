/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): BITWISE_AND/OR/XOR/NOT,
 * LOGICAL_AND/OR/XOR/NOT, CLZ and the three shifts (ewise_binary.adoc, ewise_unary.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

void
test_bitwise_logical(void)
{
   const int64_t s4[] = {4};
   /* i8 AND/OR/XOR on the two's-complement bytes: 0x0f & 0x3c = 0x0c; -1 (0xff) & -128 (0x80)
    * = 0x80 = -128; 0x55 & 0x2a = 0; 127 & 1 = 1. OR: 0x3f = 63, 0xff = -1, 0x7f = 127, 127.
    * XOR: 0x33 = 51, 0x7f = 127, 0x7f = 127, 126. */
   struct ref_tensor *a = ti(REF_DTYPE_I8, 1, s4, (int64_t[]){0x0f, -1, 0x55, 127});
   struct ref_tensor *b = ti(REF_DTYPE_I8, 1, s4, (int64_t[]){0x3c, -128, 0x2a, 1});
   struct ref_tensor *o = tz(REF_DTYPE_I8, 1, s4);
   expect_status(tosa_ref_bitwise_and(a, b, o), TOSA_REF_OK, "i8 AND");
   expect_ints(o, (int64_t[]){0x0c, -128, 0, 1}, 4, "i8 AND");
   expect_status(tosa_ref_bitwise_or(a, b, o), TOSA_REF_OK, "i8 OR");
   expect_ints(o, (int64_t[]){0x3f, -1, 127, 127}, 4, "i8 OR");
   expect_status(tosa_ref_bitwise_xor(a, b, o), TOSA_REF_OK, "i8 XOR");
   expect_ints(o, (int64_t[]){0x33, 127, 127, 126}, 4, "i8 XOR");

   /* i32 with broadcasting: [2,1] x [1,2]: INT32_MIN ^ {-1, 1} = {INT32_MAX, INT32_MIN + 1};
    * 6 ^ {-1, 1} = {-7, 7}. */
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   expect_status(
       tosa_ref_bitwise_xor(ti(REF_DTYPE_I32, 2, (int64_t[]){2, 1}, (int64_t[]){I32_MIN, 6}),
                            ti(REF_DTYPE_I32, 2, (int64_t[]){1, 2}, (int64_t[]){-1, 1}), o),
       TOSA_REF_OK, "i32 XOR broadcast");
   expect_ints(o, (int64_t[]){I32_MAX, I32_MIN + 1, -7, 7}, 4, "i32 XOR broadcast");

   /* BITWISE_NOT: ~x in W bits: i16 0 -> -1, -32768 -> 32767, 0x1234 -> -0x1235. */
   const int64_t s3[] = {3};
   o = tz(REF_DTYPE_I16, 1, s3);
   expect_status(tosa_ref_bitwise_not(ti(REF_DTYPE_I16, 1, s3, (int64_t[]){0, -32768, 0x1234}), o),
                 TOSA_REF_OK, "i16 NOT");
   expect_ints(o, (int64_t[]){-1, 32767, -0x1235}, 3, "i16 NOT");

   /* The logical operators over all four pairs (0,0) (0,1) (1,0) (1,1):
    * AND 0 0 0 1, OR 0 1 1 1, XOR (!=) 0 1 1 0; NOT of 0 1 0 1 is 1 0 1 0. */
   struct ref_tensor *p = ti(REF_DTYPE_BOOL, 1, s4, (int64_t[]){0, 0, 1, 1});
   struct ref_tensor *q = ti(REF_DTYPE_BOOL, 1, s4, (int64_t[]){0, 1, 0, 1});
   o = tz(REF_DTYPE_BOOL, 1, s4);
   expect_status(tosa_ref_logical_and(p, q, o), TOSA_REF_OK, "LOGICAL_AND");
   expect_ints(o, (int64_t[]){0, 0, 0, 1}, 4, "LOGICAL_AND");
   expect_status(tosa_ref_logical_or(p, q, o), TOSA_REF_OK, "LOGICAL_OR");
   expect_ints(o, (int64_t[]){0, 1, 1, 1}, 4, "LOGICAL_OR");
   expect_status(tosa_ref_logical_xor(p, q, o), TOSA_REF_OK, "LOGICAL_XOR");
   expect_ints(o, (int64_t[]){0, 1, 1, 0}, 4, "LOGICAL_XOR");
   expect_status(tosa_ref_logical_not(q, o), TOSA_REF_OK, "LOGICAL_NOT");
   expect_ints(o, (int64_t[]){1, 0, 1, 0}, 4, "LOGICAL_NOT");

   /* CLZ (count_leading_zeros): 0 -> 32, 1 -> 31, -1 -> 0, 0x00010000 -> 15, INT32_MAX -> 1,
    * INT32_MIN -> 0. */
   const int64_t s6[] = {6};
   o = tz(REF_DTYPE_I32, 1, s6);
   expect_status(
       tosa_ref_clz(ti(REF_DTYPE_I32, 1, s6, (int64_t[]){0, 1, -1, 0x10000, I32_MAX, I32_MIN}), o),
       TOSA_REF_OK, "CLZ");
   expect_ints(o, (int64_t[]){32, 31, 0, 15, 1, 0}, 6, "CLZ");

   /* Rows: bitwise on i8/i16/i32 only, logical on bool only, CLZ on i32 only; broadcast
    * ERROR_IFs as ADD's. */
   const int64_t s1[] = {1};
   expect_status(tosa_ref_bitwise_and(tz(REF_DTYPE_BOOL, 1, s1), tz(REF_DTYPE_BOOL, 1, s1),
                                      tz(REF_DTYPE_BOOL, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "bool BITWISE_AND has no row");
   expect_status(tosa_ref_logical_or(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s1),
                                     tz(REF_DTYPE_I8, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i8 LOGICAL_OR has no row");
   expect_status(tosa_ref_bitwise_or(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I16, 1, s1),
                                     tz(REF_DTYPE_I16, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i8 | i16 has no row");
   expect_status(tosa_ref_clz(tz(REF_DTYPE_I16, 1, s1), tz(REF_DTYPE_I16, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i16 CLZ has no row");
   expect_status(tosa_ref_bitwise_not(tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I8, 1, s4)),
                 TOSA_REF_ERROR, "NOT: output shape differs");
   expect_status(tosa_ref_bitwise_xor(tz(REF_DTYPE_I32, 1, (int64_t[]){2}),
                                      tz(REF_DTYPE_I32, 1, s3), tz(REF_DTYPE_I32, 1, s3)),
                 TOSA_REF_ERROR, "[2] ^ [3] do not broadcast");
}

void
test_shifts(void)
{
   const int64_t s8[] = {8};
   /* LOGICAL_LEFT_SHIFT i8, value1 << value2 truncated to 8 bits: 1 << 7 = 0x80 = -128;
    * 3 << 6 = 0xc0 = -64; -1 << 4 = 0xf0 = -16; 0x55 << 1 = 0xaa = -86; 5 << 0 = 5;
    * 127 << 1 = 0xfe = -2; -128 << 1 = 0; 1 << 3 = 8. */
   struct ref_tensor *a = ti(REF_DTYPE_I8, 1, s8, (int64_t[]){1, 3, -1, 0x55, 5, 127, -128, 1});
   struct ref_tensor *n = ti(REF_DTYPE_I8, 1, s8, (int64_t[]){7, 6, 4, 1, 0, 1, 1, 3});
   struct ref_tensor *o = tz(REF_DTYPE_I8, 1, s8);
   expect_status(tosa_ref_logical_left_shift(a, n, o), TOSA_REF_OK, "i8 LLS");
   expect_ints(o, (int64_t[]){-128, -64, -16, -86, 5, -2, 0, 8}, 8, "i8 LLS");

   /* LOGICAL_RIGHT_SHIFT i8, the byte zero-extended: 1 >> 7 = 0; 3 >> 6 = 0; 0xff >> 4 = 0x0f;
    * 0x55 >> 1 = 0x2a = 42; 5; 127 >> 1 = 63; 0x80 >> 1 = 0x40 = 64; 1 >> 3 = 0. */
   expect_status(tosa_ref_logical_right_shift(a, n, o), TOSA_REF_OK, "i8 LRS");
   expect_ints(o, (int64_t[]){0, 0, 15, 42, 5, 63, 64, 0}, 8, "i8 LRS");

   /* ARITHMETIC_RIGHT_SHIFT i8 without round, floor(value1 / 2^value2): 1 >> 7 = 0; 3 >> 6 = 0;
    * -1 >> 4 = -1; 85 >> 1 = 42; 5; 63; -128 >> 1 = -64; 1 >> 3 = 0. */
   expect_status(tosa_ref_arithmetic_right_shift(false, a, n, o), TOSA_REF_OK, "i8 ARS");
   expect_ints(o, (int64_t[]){0, 0, -1, 42, 5, 63, -64, 0}, 8, "i8 ARS");
   /* With round, + bit (value2 - 1) of value1 when value2 > 0: 1 >> 7 + bit 6 of 1 (0) = 0;
    * 3 >> 6 + bit 5 (0) = 0; -1 >> 4 + bit 3 of 0xff (1) = 0; 85 >> 1 + bit 0 (1) = 43;
    * 5 (value2 0: no rounding); 127 >> 1 + 1 = 64; -128 >> 1 + bit 0 (0) = -64;
    * 1 >> 3 + bit 2 (0) = 0. */
   expect_status(tosa_ref_arithmetic_right_shift(true, a, n, o), TOSA_REF_OK, "i8 ARS round");
   expect_ints(o, (int64_t[]){0, 0, 0, 43, 5, 64, -64, 0}, 8, "i8 ARS round");

   /* i32 and i16 at the type's top amount: INT32_MIN >> 31 = -1 (round: + bit 30 = 0 -> -1);
    * -3 >> 1 = -2 (round: + bit 0 of ...11101 = 1 -> -1, i.e. -1.5 rounds half up to -1);
    * LRS of -1 by 31 = 1; LLS 1 << 31 = INT32_MIN; i16 LRS of -32768 by 15 = 1. */
   const int64_t s2[] = {2};
   struct ref_tensor *o32 = tz(REF_DTYPE_I32, 1, s2);
   expect_status(tosa_ref_arithmetic_right_shift(true,
                                                 ti(REF_DTYPE_I32, 1, s2, (int64_t[]){I32_MIN, -3}),
                                                 ti(REF_DTYPE_I32, 1, s2, (int64_t[]){31, 1}), o32),
                 TOSA_REF_OK, "i32 ARS round");
   expect_ints(o32, (int64_t[]){-1, -1}, 2, "i32 ARS round");
   expect_status(tosa_ref_logical_right_shift(ti(REF_DTYPE_I32, 1, s2, (int64_t[]){-1, 1}),
                                              ti(REF_DTYPE_I32, 1, s2, (int64_t[]){31, 0}), o32),
                 TOSA_REF_OK, "i32 LRS");
   expect_ints(o32, (int64_t[]){1, 1}, 2, "i32 LRS");
   expect_status(tosa_ref_logical_left_shift(ti(REF_DTYPE_I32, 1, s2, (int64_t[]){1, -1}),
                                             ti(REF_DTYPE_I32, 1, s2, (int64_t[]){31, 31}), o32),
                 TOSA_REF_OK, "i32 LLS");
   expect_ints(o32, (int64_t[]){I32_MIN, I32_MIN}, 2, "i32 LLS");
   struct ref_tensor *o16 = tz(REF_DTYPE_I16, 1, s2);
   expect_status(tosa_ref_logical_right_shift(ti(REF_DTYPE_I16, 1, s2, (int64_t[]){-32768, -1}),
                                              ti(REF_DTYPE_I16, 1, s2, (int64_t[]){15, 8}), o16),
                 TOSA_REF_OK, "i16 LRS");
   expect_ints(o16, (int64_t[]){1, 255}, 2, "i16 LRS");

   /* REQUIRE(0 <= value2 <= W - 1) fails: UNPREDICTABLE, with the documented result (every bit
    * shifted out): i8 amounts 8 and -1, values 5 and -5. LLS, LRS: 0 0 0 0. ARS: sign fill
    * 0 -1 0 -1; with round 0 0 0 0. */
   const int64_t s4[] = {4};
   struct ref_tensor *v = ti(REF_DTYPE_I8, 1, s4, (int64_t[]){5, -5, 5, -5});
   struct ref_tensor *bad = ti(REF_DTYPE_I8, 1, s4, (int64_t[]){8, 8, -1, -1});
   o = tz(REF_DTYPE_I8, 1, s4);
   expect_status(tosa_ref_logical_left_shift(v, bad, o), TOSA_REF_UNPREDICTABLE, "LLS by 8");
   expect_ints(o, (int64_t[]){0, 0, 0, 0}, 4, "LLS out of range gives 0");
   expect_status(tosa_ref_logical_right_shift(v, bad, o), TOSA_REF_UNPREDICTABLE, "LRS by 8");
   expect_ints(o, (int64_t[]){0, 0, 0, 0}, 4, "LRS out of range gives 0");
   expect_status(tosa_ref_arithmetic_right_shift(false, v, bad, o), TOSA_REF_UNPREDICTABLE,
                 "ARS by 8");
   expect_ints(o, (int64_t[]){0, -1, 0, -1}, 4, "ARS out of range gives the sign fill");
   expect_status(tosa_ref_arithmetic_right_shift(true, v, bad, o), TOSA_REF_UNPREDICTABLE,
                 "ARS round by 8");
   expect_ints(o, (int64_t[]){0, 0, 0, 0}, 4, "ARS round out of range gives 0");
   /* i16 amount 16, i32 amount 32: out of range too. */
   expect_status(tosa_ref_logical_left_shift(t1(REF_DTYPE_I16, 1), t1(REF_DTYPE_I16, 16),
                                             tz(REF_DTYPE_I16, 1, (int64_t[]){1})),
                 TOSA_REF_UNPREDICTABLE, "i16 LLS by 16");
   expect_status(tosa_ref_logical_right_shift(t1(REF_DTYPE_I32, -1), t1(REF_DTYPE_I32, 32),
                                              tz(REF_DTYPE_I32, 1, (int64_t[]){1})),
                 TOSA_REF_UNPREDICTABLE, "i32 LRS by 32");

   /* Rows: i8, i16, i32; not bool, not mixed. */
   const int64_t s1[] = {1};
   expect_status(tosa_ref_logical_left_shift(tz(REF_DTYPE_BOOL, 1, s1), tz(REF_DTYPE_BOOL, 1, s1),
                                             tz(REF_DTYPE_BOOL, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "bool LLS has no row");
   expect_status(tosa_ref_arithmetic_right_shift(false, tz(REF_DTYPE_I32, 1, s1),
                                                 tz(REF_DTYPE_I8, 1, s1), tz(REF_DTYPE_I32, 1, s1)),
                 TOSA_REF_UNSUPPORTED, "i32 >> i8 has no row");
}
