/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): the data-movement operators SLICE,
 * REVERSE, TILE, PAD and TRANSPOSE (data_layout.adoc), whose bit patterns move unchanged.
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* Per row type: four bit patterns, NaN payloads, infinities, -0 and subnormals included. */
static const struct {
   enum ref_dtype type;
   uint64_t bits[4];
} move_rows[] = {
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

static struct tosa_ref_slice_args
slice_args(uint32_t rank, const int32_t *start, const int32_t *size)
{
   struct tosa_ref_slice_args a = {.start_length = rank, .size_length = rank};
   for (uint32_t i = 0; i < rank; i++) {
      a.start[i] = start[i];
      a.size[i] = size[i];
   }
   return a;
}

void
test_slice(void)
{
   /* [3,4] = 0..11, start [1,1], size [2,2]: rows 1-2, columns 1-2 = 5, 6, 9, 10. */
   const struct ref_tensor *in =
       ti(REF_DTYPE_I32, 2, (int64_t[]){3, 4}, (int64_t[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
   struct ref_tensor *o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   struct tosa_ref_slice_args a = slice_args(2, (int32_t[]){1, 1}, (int32_t[]){2, 2});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_OK, "[3,4] start [1,1] size [2,2]");
   expect_ints(o, (int64_t[]){5, 6, 9, 10}, 4, "[3,4] start [1,1] size [2,2]");

   /* The last two of [10, 11, 12, 13, 14]: start 3, size 2 = 13, 14; the first: 10. */
   in = ti(REF_DTYPE_I8, 1, (int64_t[]){5}, (int64_t[]){10, 11, 12, 13, 14});
   o = tz(REF_DTYPE_I8, 1, (int64_t[]){2});
   a = slice_args(1, (int32_t[]){3}, (int32_t[]){2});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_OK, "slice at the end");
   expect_ints(o, (int64_t[]){13, 14}, 2, "slice at the end");
   o = tz(REF_DTYPE_I8, 1, (int64_t[]){1});
   a = slice_args(1, (int32_t[]){0}, (int32_t[]){1});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_OK, "slice at the start");
   expect_ints(o, (int64_t[]){10}, 1, "slice at the start");

   /* Every row: [4] start 1 size 2 gives patterns 1 and 2. */
   for (int64_t r = 0; r < COUNT(move_rows); r++) {
      char what[64];
      snprintf(what, sizeof(what), "%s slice", ref_dtype_name(move_rows[r].type));
      o = tz(move_rows[r].type, 1, (int64_t[]){2});
      a = slice_args(1, (int32_t[]){1}, (int32_t[]){2});
      expect_status(
          tosa_ref_slice(&a, tbits(move_rows[r].type, 1, (int64_t[]){4}, move_rows[r].bits), o),
          TOSA_REF_OK, what);
      expect_bits(o, move_rows[r].bits + 1, 2, what);
   }

   /* ERROR_IFs, in SLICE.tosac's order. */
   in = tz(REF_DTYPE_I32, 2, (int64_t[]){3, 4});
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 2});
   a = slice_args(2, (int32_t[]){1, 1}, (int32_t[]){2, 2});
   a.start_length = 1;
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(length(start) != rank)");
   a = slice_args(2, (int32_t[]){1, 1}, (int32_t[]){2, 2});
   a.size_length = 3;
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(length(size) != rank)");
   a = slice_args(2, (int32_t[]){1, 1}, (int32_t[]){2, 2});
   expect_status(tosa_ref_slice(&a, in, tz(REF_DTYPE_I32, 3, (int64_t[]){2, 2, 1})), TOSA_REF_ERROR,
                 "ERROR_IF(rank(shape1) != rank(shape))");
   a = slice_args(2, (int32_t[]){-1, 1}, (int32_t[]){2, 2});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(start < 0)");
   a = slice_args(2, (int32_t[]){1, 1}, (int32_t[]){0, 2});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(size <= 0)");
   a = slice_args(2, (int32_t[]){2, 1}, (int32_t[]){2, 2});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(start 2 + size 2 > 3)");
   a = slice_args(2, (int32_t[]){1, 1}, (int32_t[]){2, 3});
   expect_status(tosa_ref_slice(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(shape 2 != size 3)");
   a = slice_args(1, (int32_t[]){0}, (int32_t[]){1});
   expect_status(tosa_ref_slice(&a, tz(REF_DTYPE_I48, 1, (int64_t[]){1}),
                                tz(REF_DTYPE_I48, 1, (int64_t[]){1})),
                 TOSA_REF_UNSUPPORTED, "i48 SLICE has no row");
}

void
test_reverse(void)
{
   /* [2,3] = 1..6: axis 0 swaps the rows = 4,5,6,1,2,3; axis 1 reverses each row = 3,2,1,6,5,4. */
   const struct ref_tensor *in =
       ti(REF_DTYPE_I16, 2, (int64_t[]){2, 3}, (int64_t[]){1, 2, 3, 4, 5, 6});
   struct ref_tensor *o = tz(REF_DTYPE_I16, 2, (int64_t[]){2, 3});
   expect_status(tosa_ref_reverse(0, in, o), TOSA_REF_OK, "axis 0");
   expect_ints(o, (int64_t[]){4, 5, 6, 1, 2, 3}, 6, "axis 0");
   expect_status(tosa_ref_reverse(1, in, o), TOSA_REF_OK, "axis 1");
   expect_ints(o, (int64_t[]){3, 2, 1, 6, 5, 4}, 6, "axis 1");
   /* A size-1 axis: unchanged. */
   in = ti(REF_DTYPE_I8, 2, (int64_t[]){1, 3}, (int64_t[]){7, 8, 9});
   o = tz(REF_DTYPE_I8, 2, (int64_t[]){1, 3});
   expect_status(tosa_ref_reverse(0, in, o), TOSA_REF_OK, "size-1 axis");
   expect_ints(o, (int64_t[]){7, 8, 9}, 3, "size-1 axis");

   /* Every row: [4] reversed gives patterns 3, 2, 1, 0. */
   for (int64_t r = 0; r < COUNT(move_rows); r++) {
      char what[64];
      snprintf(what, sizeof(what), "%s reverse", ref_dtype_name(move_rows[r].type));
      o = tz(move_rows[r].type, 1, (int64_t[]){4});
      expect_status(
          tosa_ref_reverse(0, tbits(move_rows[r].type, 1, (int64_t[]){4}, move_rows[r].bits), o),
          TOSA_REF_OK, what);
      const uint64_t *b = move_rows[r].bits;
      expect_bits(o, (uint64_t[]){b[3], b[2], b[1], b[0]}, 4, what);
   }

   in = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   expect_status(tosa_ref_reverse(-1, in, o), TOSA_REF_ERROR, "ERROR_IF(axis < 0)");
   expect_status(tosa_ref_reverse(2, in, o), TOSA_REF_ERROR, "ERROR_IF(axis >= rank)");
   expect_status(tosa_ref_reverse(0, in, tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2})), TOSA_REF_ERROR,
                 "output shape differs");
}

void
test_tile(void)
{
   /* [2] = 1, 2 times [3] = 1, 2, 1, 2, 1, 2. */
   struct tosa_ref_tile_args a = {.multiples = {3}, .length = 1};
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, (int64_t[]){6});
   expect_status(tosa_ref_tile(&a, ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){1, 2}), o),
                 TOSA_REF_OK, "[2] x 3");
   expect_ints(o, (int64_t[]){1, 2, 1, 2, 1, 2}, 6, "[2] x 3");
   /* [2,1] = 1; 2 times [2,3]: index % shape1 = [[1,1,1],[2,2,2],[1,1,1],[2,2,2]]. */
   a = (struct tosa_ref_tile_args){.multiples = {2, 3}, .length = 2};
   o = tz(REF_DTYPE_I8, 2, (int64_t[]){4, 3});
   expect_status(tosa_ref_tile(&a, ti(REF_DTYPE_I8, 2, (int64_t[]){2, 1}, (int64_t[]){1, 2}), o),
                 TOSA_REF_OK, "[2,1] x [2,3]");
   expect_ints(o, (int64_t[]){1, 1, 1, 2, 2, 2, 1, 1, 1, 2, 2, 2}, 12, "[2,1] x [2,3]");

   for (int64_t r = 0; r < COUNT(move_rows); r++) {
      char what[64];
      snprintf(what, sizeof(what), "%s tile", ref_dtype_name(move_rows[r].type));
      a = (struct tosa_ref_tile_args){.multiples = {2}, .length = 1};
      o = tz(move_rows[r].type, 1, (int64_t[]){4});
      expect_status(
          tosa_ref_tile(&a, tbits(move_rows[r].type, 1, (int64_t[]){2}, move_rows[r].bits), o),
          TOSA_REF_OK, what);
      const uint64_t *b = move_rows[r].bits;
      expect_bits(o, (uint64_t[]){b[0], b[1], b[0], b[1]}, 4, what);
   }

   const struct ref_tensor *in = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   a = (struct tosa_ref_tile_args){.multiples = {2, 1}, .length = 2};
   expect_status(tosa_ref_tile(&a, in, tz(REF_DTYPE_I32, 1, (int64_t[]){12})), TOSA_REF_ERROR,
                 "ERROR_IF(rank(shape1) != rank(shape))");
   expect_status(tosa_ref_tile(&a, in, tz(REF_DTYPE_I32, 2, (int64_t[]){4, 4})), TOSA_REF_ERROR,
                 "ERROR_IF(shape1 * multiples != shape)");
   a.length = 1;
   expect_status(tosa_ref_tile(&a, in, tz(REF_DTYPE_I32, 2, (int64_t[]){4, 3})), TOSA_REF_ERROR,
                 "multiples has rank(shape1) entries");
}

void
test_pad(void)
{
   /* [2] = 1, 2 with padding [1, 2] and 9: 9, 1, 2, 9, 9. */
   struct tosa_ref_pad_args a = {
       .padding = {1, 2}, .length = 2, .pad_bits = 9, .pad_dtype = REF_DTYPE_I32};
   struct ref_tensor *o = tz(REF_DTYPE_I32, 1, (int64_t[]){5});
   expect_status(tosa_ref_pad(&a, ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){1, 2}), o),
                 TOSA_REF_OK, "[2] pad [1,2]");
   expect_ints(o, (int64_t[]){9, 1, 2, 9, 9}, 5, "[2] pad [1,2]");
   /* [1,2] = 1, 2 with padding [1,0, 0,1] and -1 (0xff): [[-1,-1,-1],[1,2,-1]]. */
   a = (struct tosa_ref_pad_args){
       .padding = {1, 0, 0, 1}, .length = 4, .pad_bits = 0xff, .pad_dtype = REF_DTYPE_I8};
   o = tz(REF_DTYPE_I8, 2, (int64_t[]){2, 3});
   expect_status(tosa_ref_pad(&a, ti(REF_DTYPE_I8, 2, (int64_t[]){1, 2}, (int64_t[]){1, 2}), o),
                 TOSA_REF_OK, "[1,2] pad [1,0,0,1]");
   expect_ints(o, (int64_t[]){-1, -1, -1, 1, 2, -1}, 6, "[1,2] pad [1,0,0,1]");
   /* No padding: a copy. */
   a = (struct tosa_ref_pad_args){.length = 2, .pad_dtype = REF_DTYPE_I16};
   o = tz(REF_DTYPE_I16, 1, (int64_t[]){2});
   expect_status(tosa_ref_pad(&a, ti(REF_DTYPE_I16, 1, (int64_t[]){2}, (int64_t[]){5, 6}), o),
                 TOSA_REF_OK, "empty-effect pad");
   expect_ints(o, (int64_t[]){5, 6}, 2, "empty-effect pad");

   /* Every row: [2] = patterns 0, 1 padded [1, 1] with pattern 3: 3, 0, 1, 3. */
   for (int64_t r = 0; r < COUNT(move_rows); r++) {
      char what[64];
      snprintf(what, sizeof(what), "%s pad", ref_dtype_name(move_rows[r].type));
      const uint64_t *b = move_rows[r].bits;
      a = (struct tosa_ref_pad_args){
          .padding = {1, 1}, .length = 2, .pad_bits = b[3], .pad_dtype = move_rows[r].type};
      o = tz(move_rows[r].type, 1, (int64_t[]){4});
      expect_status(tosa_ref_pad(&a, tbits(move_rows[r].type, 1, (int64_t[]){2}, b), o),
                    TOSA_REF_OK, what);
      expect_bits(o, (uint64_t[]){b[3], b[0], b[1], b[3]}, 4, what);
   }

   const struct ref_tensor *in = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   a = (struct tosa_ref_pad_args){.padding = {1, 0, 0, 1}, .length = 4, .pad_dtype = REF_DTYPE_I32};
   expect_status(tosa_ref_pad(&a, in, tz(REF_DTYPE_I32, 1, (int64_t[]){12})), TOSA_REF_ERROR,
                 "ERROR_IF(rank(shape) != rank(shape1))");
   a.padding[0] = -1;
   expect_status(tosa_ref_pad(&a, in, tz(REF_DTYPE_I32, 2, (int64_t[]){1, 4})), TOSA_REF_ERROR,
                 "ERROR_IF(padding < 0)");
   a.padding[0] = 1;
   expect_status(tosa_ref_pad(&a, in, tz(REF_DTYPE_I32, 2, (int64_t[]){3, 3})), TOSA_REF_ERROR,
                 "ERROR_IF(shape != before + shape1 + after)");
   a.pad_dtype = REF_DTYPE_I8;
   expect_status(tosa_ref_pad(&a, in, tz(REF_DTYPE_I32, 2, (int64_t[]){3, 4})),
                 TOSA_REF_UNSUPPORTED, "pad_const of another type");
}

void
test_transpose(void)
{
   /* [2,3] = 0..5, perms [1,0]: out[j][i] = in[i][j] = 0, 3, 1, 4, 2, 5. */
   struct tosa_ref_transpose_args a = {.perms = {1, 0}, .length = 2};
   const struct ref_tensor *in =
       ti(REF_DTYPE_I32, 2, (int64_t[]){2, 3}, (int64_t[]){0, 1, 2, 3, 4, 5});
   struct ref_tensor *o = tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2});
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_OK, "[2,3] perms [1,0]");
   expect_ints(o, (int64_t[]){0, 3, 1, 4, 2, 5}, 6, "[2,3] perms [1,0]");
   /* [1,2,3] = 0..5, perms [2,0,1]: shape [3,1,2], out[k][0][i] = in[0][i][k]:
    * k 0: 0, 3; k 1: 1, 4; k 2: 2, 5. */
   a = (struct tosa_ref_transpose_args){.perms = {2, 0, 1}, .length = 3};
   in = ti(REF_DTYPE_I8, 3, (int64_t[]){1, 2, 3}, (int64_t[]){0, 1, 2, 3, 4, 5});
   o = tz(REF_DTYPE_I8, 3, (int64_t[]){3, 1, 2});
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_OK, "[1,2,3] perms [2,0,1]");
   expect_ints(o, (int64_t[]){0, 3, 1, 4, 2, 5}, 6, "[1,2,3] perms [2,0,1]");
   /* The identity permutation: a copy. */
   a = (struct tosa_ref_transpose_args){.perms = {0, 1}, .length = 2};
   in = ti(REF_DTYPE_I16, 2, (int64_t[]){2, 2}, (int64_t[]){1, 2, 3, 4});
   o = tz(REF_DTYPE_I16, 2, (int64_t[]){2, 2});
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_OK, "identity");
   expect_ints(o, (int64_t[]){1, 2, 3, 4}, 4, "identity");

   for (int64_t r = 0; r < COUNT(move_rows); r++) {
      char what[64];
      snprintf(what, sizeof(what), "%s transpose", ref_dtype_name(move_rows[r].type));
      const uint64_t *b = move_rows[r].bits;
      a = (struct tosa_ref_transpose_args){.perms = {1, 0}, .length = 2};
      o = tz(move_rows[r].type, 2, (int64_t[]){2, 2});
      expect_status(tosa_ref_transpose(&a, tbits(move_rows[r].type, 2, (int64_t[]){2, 2}, b), o),
                    TOSA_REF_OK, what);
      expect_bits(o, (uint64_t[]){b[0], b[2], b[1], b[3]}, 4, what);
   }

   in = tz(REF_DTYPE_I32, 2, (int64_t[]){2, 3});
   o = tz(REF_DTYPE_I32, 2, (int64_t[]){3, 2});
   a = (struct tosa_ref_transpose_args){.perms = {1, 0}, .length = 2};
   expect_status(tosa_ref_transpose(&a, in, tz(REF_DTYPE_I32, 3, (int64_t[]){3, 2, 1})),
                 TOSA_REF_ERROR, "ERROR_IF(rank(shape1) != rank(shape))");
   expect_status(tosa_ref_transpose(&a, in, tz(REF_DTYPE_I32, 2, (int64_t[]){3, 3})),
                 TOSA_REF_ERROR, "ERROR_IF(tensor_size differs)");
   a.perms[0] = 2;
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(perms >= rank)");
   a.perms[0] = -1;
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(perms < 0)");
   a.perms[0] = 0;
   a.perms[1] = 0;
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_ERROR, "ERROR_IF(perms repeated)");
   a = (struct tosa_ref_transpose_args){.perms = {0, 1}, .length = 2};
   expect_status(tosa_ref_transpose(&a, in, o), TOSA_REF_ERROR,
                 "ERROR_IF(shape1[perms[i]] != shape[i])");
}
