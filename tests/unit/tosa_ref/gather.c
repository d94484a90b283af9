/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): GATHER and SCATTER (GATHER.tosac,
 * SCATTER.tosac), with the documented results of their data-dependent REQUIREs (D36).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

void
test_gather(void)
{
   /* values [2,3,2] = 0..11 (n=0 rows {0,1} {2,3} {4,5}; n=1 rows {6,7} {8,9} {10,11}),
    * indices [2,3] = {2,0,2} {1,-1,3}: n=0 -> rows 2,0,2 = 4,5,0,1,4,5; n=1 -> row 1 = 8,9,
    * -1 and 3 (= K) out of range -> 0,0 and 0,0. */
   const struct ref_tensor *v = ti(REF_DTYPE_I16, 3, (int64_t[]){2, 3, 2},
                                   (int64_t[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
   const struct ref_tensor *idx =
       ti(REF_DTYPE_I32, 2, (int64_t[]){2, 3}, (int64_t[]){2, 0, 2, 1, -1, 3});
   struct ref_tensor *o = tz(REF_DTYPE_I16, 3, (int64_t[]){2, 3, 2});
   expect_status(tosa_ref_gather(v, idx, o), TOSA_REF_OK, "gather [2,3,2] by [2,3]");
   expect_ints(o, (int64_t[]){4, 5, 0, 1, 4, 5, 8, 9, 0, 0, 0, 0}, 12, "gather [2,3,2] by [2,3]");

   /* fp32 bit patterns move unchanged: a NaN payload and -0, K = 2, W = 3 > K:
    * rows {0x7FC12345, 0x80000000} {1.0} gathered by 1, 0, 1. */
   v = tbits(REF_DTYPE_FP32, 3, (int64_t[]){1, 2, 2},
             (uint64_t[]){0x7FC12345, 0x80000000, 0x3F800000, 0x00000001});
   idx = ti(REF_DTYPE_I32, 2, (int64_t[]){1, 3}, (int64_t[]){1, 0, 1});
   o = tz(REF_DTYPE_FP32, 3, (int64_t[]){1, 3, 2});
   expect_status(tosa_ref_gather(v, idx, o), TOSA_REF_OK, "gather fp32 bits");
   expect_bits(o,
               (uint64_t[]){0x3F800000, 0x00000001, 0x7FC12345, 0x80000000, 0x3F800000, 0x00000001},
               6, "gather fp32 bits");

   /* Shapes and rows. */
   v = tz(REF_DTYPE_I8, 3, (int64_t[]){2, 3, 4});
   expect_status(tosa_ref_gather(v, tz(REF_DTYPE_I32, 2, (int64_t[]){1, 5}),
                                 tz(REF_DTYPE_I8, 3, (int64_t[]){2, 5, 4})),
                 TOSA_REF_ERROR, "indices N 1 != values N 2");
   expect_status(tosa_ref_gather(v, tz(REF_DTYPE_I32, 2, (int64_t[]){2, 5}),
                                 tz(REF_DTYPE_I8, 3, (int64_t[]){2, 5, 3})),
                 TOSA_REF_ERROR, "output C 3 != 4");
   expect_status(tosa_ref_gather(v, tz(REF_DTYPE_I16, 2, (int64_t[]){2, 5}),
                                 tz(REF_DTYPE_I8, 3, (int64_t[]){2, 5, 4})),
                 TOSA_REF_UNSUPPORTED, "i16 indices have no row");
   expect_status(tosa_ref_gather(tz(REF_DTYPE_BOOL, 3, (int64_t[]){2, 3, 4}),
                                 tz(REF_DTYPE_I32, 2, (int64_t[]){2, 5}),
                                 tz(REF_DTYPE_BOOL, 3, (int64_t[]){2, 5, 4})),
                 TOSA_REF_UNSUPPORTED, "bool GATHER has no row");
}

void
test_scatter(void)
{
   /* values_in [1,4,2] = 10..17 (rows {10,11} {12,13} {14,15} {16,17}), indices [1,3] =
    * {3, 0, 1}, input [1,3,2] = {1,2} {3,4} {5,6}: row 3 <- {1,2}, row 0 <- {3,4},
    * row 1 <- {5,6}, row 2 kept: 3,4,5,6,14,15,1,2. */
   const struct ref_tensor *vin =
       ti(REF_DTYPE_I32, 3, (int64_t[]){1, 4, 2}, (int64_t[]){10, 11, 12, 13, 14, 15, 16, 17});
   const struct ref_tensor *in =
       ti(REF_DTYPE_I32, 3, (int64_t[]){1, 3, 2}, (int64_t[]){1, 2, 3, 4, 5, 6});
   struct ref_tensor *o = tz(REF_DTYPE_I32, 3, (int64_t[]){1, 4, 2});
   expect_status(
       tosa_ref_scatter(vin, ti(REF_DTYPE_I32, 2, (int64_t[]){1, 3}, (int64_t[]){3, 0, 1}), in, o),
       TOSA_REF_OK, "scatter unique");
   expect_ints(o, (int64_t[]){3, 4, 5, 6, 14, 15, 1, 2}, 8, "scatter unique");

   /* Duplicates and out of range: indices {2, 4, 2}: w=0 writes row 2 <- {1,2}, w=1 (4 = K)
    * skipped, w=2 writes row 2 <- {5,6} and wins: 10,11,12,13,5,6,16,17. */
   o = tz(REF_DTYPE_I32, 3, (int64_t[]){1, 4, 2});
   expect_status(
       tosa_ref_scatter(vin, ti(REF_DTYPE_I32, 2, (int64_t[]){1, 3}, (int64_t[]){2, 4, 2}), in, o),
       TOSA_REF_OK, "scatter duplicates");
   expect_ints(o, (int64_t[]){10, 11, 12, 13, 5, 6, 16, 17}, 8, "scatter duplicates");

   /* Bit patterns: fp16 NaN payload and -0 scattered into row 1 of [1,2,2] = {1.0, 2.0} {0, 0}:
    * 0x3C00, 0x4000, 0x7D01, 0x8000. */
   o = tz(REF_DTYPE_FP16, 3, (int64_t[]){1, 2, 2});
   expect_status(
       tosa_ref_scatter(
           tbits(REF_DTYPE_FP16, 3, (int64_t[]){1, 2, 2}, (uint64_t[]){0x3C00, 0x4000, 0, 0}),
           ti(REF_DTYPE_I32, 2, (int64_t[]){1, 1}, (int64_t[]){1}),
           tbits(REF_DTYPE_FP16, 3, (int64_t[]){1, 1, 2}, (uint64_t[]){0x7D01, 0x8000}), o),
       TOSA_REF_OK, "scatter fp16 bits");
   expect_bits(o, (uint64_t[]){0x3C00, 0x4000, 0x7D01, 0x8000}, 4, "scatter fp16 bits");

   /* Shapes and rows. */
   vin = tz(REF_DTYPE_I8, 3, (int64_t[]){2, 3, 4});
   const struct ref_tensor *idx = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 5});
   expect_status(tosa_ref_scatter(vin, idx, tz(REF_DTYPE_I8, 3, (int64_t[]){2, 4, 4}),
                                  tz(REF_DTYPE_I8, 3, (int64_t[]){2, 3, 4})),
                 TOSA_REF_ERROR, "input W 4 != indices W 5");
   expect_status(tosa_ref_scatter(vin, idx, tz(REF_DTYPE_I8, 3, (int64_t[]){2, 5, 4}),
                                  tz(REF_DTYPE_I8, 3, (int64_t[]){2, 5, 4})),
                 TOSA_REF_ERROR, "values_out shape != values_in shape");
   expect_status(tosa_ref_scatter(vin, idx, tz(REF_DTYPE_I16, 3, (int64_t[]){2, 5, 4}),
                                  tz(REF_DTYPE_I8, 3, (int64_t[]){2, 3, 4})),
                 TOSA_REF_UNSUPPORTED, "input type != values_in type");
}
