/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): MATMUL (tensor_ops.adoc).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

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

void
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
