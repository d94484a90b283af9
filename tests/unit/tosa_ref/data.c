/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): RESHAPE and CONCAT (data_layout.adoc),
 * whose bit patterns move unchanged.
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

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

void
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

void
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
