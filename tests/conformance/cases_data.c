/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Cases of the data-layout operators RESHAPE and CONCAT (TOSA 1.0.1 "Data Layout") for every
 * element type of their tables: any bit pattern in (NaN payloads included, results must be
 * bit-exact), ranks 1..6, RESHAPE of a graph constant and to and from rank 6, CONCAT of 2 to 4
 * inputs on every axis of a rank-4 tensor, of 8 inputs, of a graph constant, of inputs whose
 * axis is 1; split and large dispatches; and the invalid graphs of both.
 */
#include <stdio.h>

#include "conformance.h"

static const enum ref_dtype layout_rows[] = {
    REF_DTYPE_BOOL,    REF_DTYPE_I8,   REF_DTYPE_I16,  REF_DTYPE_I32,  REF_DTYPE_FP8E4M3,
    REF_DTYPE_FP8E5M2, REF_DTYPE_FP16, REF_DTYPE_BF16, REF_DTYPE_FP32,
};
#define LAYOUT_ROWS (sizeof(layout_rows) / sizeof(layout_rows[0]))

/* ---- RESHAPE --------------------------------------------------------------------------------- */

static struct conf_case *
reshape_case(struct conf_list *list, const char *row, enum ref_dtype dt, uint32_t in_rank,
             const int64_t *in, uint32_t out_rank, const int64_t *out, const char *what)
{
   struct conf_case *c = conf_add(list, TOSA_REF_OP_RESHAPE, row, "%s", what);
   conf_input(c, 0, dt, in_rank, in, false);
   c->op.output = conf_type(dt, out_rank, out);
   c->op.attr.reshape.shape_count = out_rank;
   for (uint32_t i = 0; i < out_rank; i++)
      c->op.attr.reshape.shape[i] = (int32_t)out[i];
   c->fill = CONF_FILL_BITS;
   return c;
}

static void
reshape(struct conf_list *list)
{
   static const struct {
      const char *name;
      uint32_t in_rank, out_rank;
      int64_t in[GT_MAX_RANK], out[GT_MAX_RANK];
      bool split, constant;
   } shapes[] = {
       {"2x3x4_6x4", 3, 2, {2, 3, 4}, {6, 4}, false, false},
       {"24_2x3x2x2", 1, 4, {24}, {2, 3, 2, 2}, false, false},
       {"1x1x5_5", 3, 1, {1, 1, 5}, {5}, false, false},
       {"identity_2x3x4x5", 4, 4, {2, 3, 4, 5}, {2, 3, 4, 5}, false, false},
       {"r6_to_r1", 6, 1, {2, 1, 3, 1, 2, 2}, {24}, false, false},
       {"r1_to_r6", 1, 6, {120}, {1, 2, 3, 4, 5, 1}, false, false},
       {"const_3x4_12", 2, 1, {3, 4}, {12}, false, true},
       {"split_500_20x25", 1, 2, {500}, {20, 25}, true, false},
   };
   for (uint32_t r = 0; r < LAYOUT_ROWS; r++) {
      enum ref_dtype dt = layout_rows[r];
      for (uint32_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         struct conf_case *c =
             reshape_case(list, conf_dtype_name(dt), dt, shapes[s].in_rank, shapes[s].in,
                          shapes[s].out_rank, shapes[s].out, shapes[s].name);
         c->split = shapes[s].split;
         if (shapes[s].constant)
            c->op.inputs[0].source = GT_GRAPH_CONSTANT;
      }
   }
   struct conf_case *c = reshape_case(list, "i8", REF_DTYPE_I8, 1, CONF_SHAPE(4194400), 2,
                                      CONF_SHAPE(2, 2097200), "large_4194400_2x2097200");
   c->heavy = true;

   reshape_case(list, NULL, REF_DTYPE_FP32, 2, CONF_SHAPE(2, 3), 1, CONF_SHAPE(5), "count_6_5");
   c = reshape_case(list, NULL, REF_DTYPE_I8, 2, CONF_SHAPE(2, 3), 1, CONF_SHAPE(6), "i8_to_i16");
   c->op.output.dtype = REF_DTYPE_I16;
   c = reshape_case(list, NULL, REF_DTYPE_I16, 2, CONF_SHAPE(2, 3), 2, CONF_SHAPE(3, 2),
                    "shape_operand_2x3");
   c->op.attr.reshape.shape[0] = 2;
   c->op.attr.reshape.shape[1] = 3;
   reshape_case(list, NULL, REF_DTYPE_I48, 1, CONF_SHAPE(6), 2, CONF_SHAPE(2, 3), "i48_no_row");
}

/* ---- CONCAT ---------------------------------------------------------------------------------- */

/* count inputs of `shape` whose dimension `axis` is sizes[i]; the output sums them. */
static struct conf_case *
concat_case(struct conf_list *list, const char *row, enum ref_dtype dt, uint32_t rank,
            const int64_t *shape, uint32_t axis, uint32_t count, const int64_t *sizes,
            const char *what)
{
   struct conf_case *c = conf_add(list, TOSA_REF_OP_CONCAT, row, "%s", what);
   int64_t s[GT_MAX_RANK], sum = 0;
   for (uint32_t i = 0; i < rank; i++)
      s[i] = shape[i];
   for (uint32_t t = 0; t < count && t < GT_MAX_INPUTS; t++) {
      s[axis] = sizes[t];
      sum += sizes[t];
      conf_input(c, t, dt, rank, s, false);
   }
   s[axis] = sum;
   c->op.output = conf_type(dt, rank, s);
   c->op.attr.concat.axis = axis;
   c->fill = CONF_FILL_BITS;
   return c;
}

/* Random ranks (1..6), dimensions, axes and input counts (2..5), from a generator seeded by
 * the row: the same cases in every run. */
static void
concat_random(struct conf_list *list, const char *row, enum ref_dtype dt)
{
   char seed[64], what[32];
   snprintf(seed, sizeof(seed), "concat.%s.random", row);
   struct conf_rng rng;
   conf_rng_init(&rng, 0, seed);
   for (uint32_t k = 0; k < 6; k++) {
      uint32_t rank = (uint32_t)conf_rng_int(&rng, 1, 6);
      uint32_t axis = (uint32_t)conf_rng_int(&rng, 0, rank - 1);
      uint32_t count = (uint32_t)conf_rng_int(&rng, 2, 5);
      int64_t shape[GT_MAX_RANK], sizes[5];
      for (uint32_t d = 0; d < rank; d++)
         shape[d] = conf_rng_int(&rng, 1, rank > 4 ? 3 : 5);
      for (uint32_t t = 0; t < count; t++)
         sizes[t] = conf_rng_int(&rng, 1, 4);
      snprintf(what, sizeof(what), "random%u_r%u_axis%u_x%u", k, rank, axis, count);
      concat_case(list, row, dt, rank, shape, axis, count, sizes, what);
   }
}

static void
concat(struct conf_list *list)
{
   static const int64_t sizes[8] = {2, 1, 3, 4, 1, 2, 5, 3};
   for (uint32_t r = 0; r < LAYOUT_ROWS; r++) {
      enum ref_dtype dt = layout_rows[r];
      const char *row = conf_dtype_name(dt);
      char what[64];
      for (uint32_t axis = 0; axis < 4; axis++) {
         for (uint32_t count = 2; count <= 4; count++) {
            snprintf(what, sizeof(what), "r4_axis%u_x%u", axis, count);
            concat_case(list, row, dt, 4, CONF_SHAPE(2, 3, 4, 5), axis, count, sizes + axis, what);
         }
      }
      concat_case(list, row, dt, 1, CONF_SHAPE(7), 0, 2, CONF_SHAPE(7, 9), "r1_axis0_x2");
      concat_case(list, row, dt, 2, CONF_SHAPE(3, 1), 1, 3, CONF_SHAPE(1, 1, 1), "r2_ones_x3");
      concat_case(list, row, dt, 6, CONF_SHAPE(1, 2, 1, 3, 2, 2), 5, 3, sizes, "r6_axis5_x3");
      concat_case(list, row, dt, 6, CONF_SHAPE(2, 1, 2, 1, 3, 2), 2, 8, sizes, "r6_axis2_x8");
      struct conf_case *c =
          concat_case(list, row, dt, 2, CONF_SHAPE(3, 4), 0, 3, sizes, "const_input1_x3");
      c->op.inputs[1].source = GT_GRAPH_CONSTANT;
      c = concat_case(list, row, dt, 3, CONF_SHAPE(2, 1, 3), 1, 3, CONF_SHAPE(2, 3, 2),
                      "same_input_x_y_x");
      c->op.inputs[2].alias = 1;
      c = concat_case(list, row, dt, 2, CONF_SHAPE(10, 20), 0, 2, CONF_SHAPE(15, 12),
                      "split_axis0_x2");
      c->split = true;
      c = concat_case(list, row, dt, 3, CONF_SHAPE(4, 25, 3), 1, 3, CONF_SHAPE(30, 10, 20),
                      "split_axis1_x3");
      c->split = true;
      concat_random(list, row, dt);
   }
   struct conf_case *c = concat_case(list, "i8", REF_DTYPE_I8, 2, CONF_SHAPE(1, 2097200), 0, 2,
                                     CONF_SHAPE(1, 1), "large_axis0_2x2097200");
   c->heavy = true;

   concat_case(list, NULL, REF_DTYPE_I8, 2, CONF_SHAPE(3, 4), 2, 2, sizes, "axis_eq_rank");
   c = concat_case(list, NULL, REF_DTYPE_FP32, 2, CONF_SHAPE(3, 4), 0, 2, sizes, "axis_1000");
   c->op.attr.concat.axis = 1000;
   c = concat_case(list, NULL, REF_DTYPE_I16, 2, CONF_SHAPE(3, 4), 0, 2, sizes, "other_dim");
   c->op.inputs[1].type.shape[1] = 5;
   c = concat_case(list, NULL, REF_DTYPE_BF16, 2, CONF_SHAPE(3, 4), 1, 3, sizes, "output_sum");
   c->op.output.shape[1] += 1;
   c = concat_case(list, NULL, REF_DTYPE_FP16, 2, CONF_SHAPE(3, 4), 0, 2, sizes, "mixed_types");
   c->op.inputs[1].type.dtype = REF_DTYPE_BF16;
   c = concat_case(list, NULL, REF_DTYPE_I32, 2, CONF_SHAPE(3, 4), 0, 2, sizes, "rank_2_3");
   c->op.inputs[1].type = conf_type(REF_DTYPE_I32, 3, CONF_SHAPE(1, 4, 1));
   concat_case(list, NULL, REF_DTYPE_I48, 1, CONF_SHAPE(3), 0, 2, sizes, "i48_no_row");
}

void
conf_generate_data(struct conf_list *list)
{
   reshape(list);
   concat(list);
}
