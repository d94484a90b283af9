/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Cases of the elementwise operators ADD, SUB, MUL (TOSA 1.0.1 "Elementwise Binary Operators")
 * and CLAMP ("Activation Functions"): every type-support row × ranks 1..6, broadcasting
 * (dimensions of 1 on either side, every pair of special values through [S,1] x [1,S]),
 * NaN/inf/subnormal inputs, MUL shifts from 0 to 63 (and the 32-bit wrap at shift 0), CLAMP
 * bounds (whole range, narrow, equal, infinite, signed zeros) in both NaN modes, a graph
 * constant operand, split dispatches, and the invalid graphs of each operator.
 */
#include <math.h>
#include <stdio.h>

#include "conformance.h"

#define I32_HALF (INT64_C(1) << 30)

static const enum ref_dtype add_rows[] = {REF_DTYPE_I32, REF_DTYPE_FP16, REF_DTYPE_BF16,
                                          REF_DTYPE_FP32};

struct bin_shape {
   const char *name;
   uint32_t rank;
   int64_t a[GT_MAX_RANK], b[GT_MAX_RANK];
   bool split;
};

static const struct bin_shape bin_shapes[] = {
    {"r1_17", 1, {17}, {17}, false},
    {"r2_3x5", 2, {3, 5}, {3, 5}, false},
    {"r4_2x3x4x5", 4, {2, 3, 4, 5}, {2, 3, 4, 5}, false},
    {"r5_1x2x3x2x5", 5, {1, 2, 3, 2, 5}, {1, 2, 3, 2, 5}, false},
    {"bcast_3x1_1x4", 2, {3, 1}, {1, 4}, false},
    {"bcast_2x3x4x5_1x3x1x5", 4, {2, 3, 4, 5}, {1, 3, 1, 5}, false},
    {"bcast_1x1x1_4x2x7", 3, {1, 1, 1}, {4, 2, 7}, false},
    {"bcast_r6", 6, {2, 1, 3, 1, 2, 3}, {1, 2, 3, 2, 1, 3}, false},
    {"split_1x500", 2, {1, 500}, {1, 500}, true},
    {"split_bcast_20x1_1x25", 2, {20, 1}, {1, 25}, true},
};
#define BIN_SHAPES (sizeof(bin_shapes) / sizeof(bin_shapes[0]))

/* A binary case: inputs a and b, the broadcast output of type out. */
static struct conf_case *
binary_case(struct conf_list *list, enum tosa_ref_op op, const char *row, enum ref_dtype in,
            enum ref_dtype out, uint32_t rank, const int64_t *a, const int64_t *b, const char *what)
{
   struct conf_case *c = conf_add(list, op, row, "%s", what);
   conf_input(c, 0, in, rank, a, false);
   conf_input(c, 1, in, rank, b, false);
   int64_t o[GT_MAX_RANK];
   for (uint32_t i = 0; i < rank; i++)
      o[i] = a[i] == 1 ? b[i] : a[i];
   c->op.output = conf_type(out, rank, o);
   if (op == TOSA_REF_OP_MUL)
      c->op.attr.mul.shift = conf_int(REF_DTYPE_I8, 0);
   return c;
}

static void binary_random(struct conf_list *list, enum tosa_ref_op op, const char *row,
                          enum ref_dtype in, enum ref_dtype out, const struct conf_range *range);

/* The shapes of bin_shapes, a graph-constant operand, and [S,1] x [1,S] of special values. */
static void
binary_row(struct conf_list *list, enum tosa_ref_op op, const char *row, enum ref_dtype in,
           enum ref_dtype out, const struct conf_range *range)
{
   bool is_float = ref_dtype_is_float(in);
   for (uint32_t s = 0; s < BIN_SHAPES; s++) {
      const struct bin_shape *sh = &bin_shapes[s];
      struct conf_case *c = binary_case(list, op, row, in, out, sh->rank, sh->a, sh->b, sh->name);
      c->split = sh->split;
      c->fill = is_float && s % 2 ? CONF_FILL_SPECIALS : CONF_FILL_RANDOM;
      c->range[0] = c->range[1] = *range;
   }
   struct conf_case *c =
       binary_case(list, op, row, in, out, 2, CONF_SHAPE(4, 6), CONF_SHAPE(1, 6), "const_input2");
   c->op.inputs[1].source = GT_GRAPH_CONSTANT;
   c->range[0] = c->range[1] = *range;
   c = binary_case(list, op, row, in, out, 2, CONF_SHAPE(3, 7), CONF_SHAPE(3, 7), "same_input");
   c->op.inputs[1].alias = 1;
   c->fill = is_float ? CONF_FILL_SPECIALS : CONF_FILL_RANDOM;
   c->range[0] = c->range[1] = *range;
   int64_t n = is_float ? 16 : 7;
   c = binary_case(list, op, row, in, out, 2, CONF_SHAPE(n, 1), CONF_SHAPE(1, n), "cross_specials");
   c->fill = CONF_FILL_CROSS;
   c->range[0] = c->range[1] = *range;
   binary_random(list, op, row, in, out, range);
}

/* Random ranks (1..6) and dimensions, each dimension of 1 on one side with probability 0.2,
 * from a generator seeded by the row: the same cases in every run. */
static void
binary_random(struct conf_list *list, enum tosa_ref_op op, const char *row, enum ref_dtype in,
              enum ref_dtype out, const struct conf_range *range)
{
   char seed[64], what[32];
   snprintf(seed, sizeof(seed), "%s.%s.random", gt_op_short_name(op), row);
   struct conf_rng rng;
   conf_rng_init(&rng, 0, seed);
   for (uint32_t k = 0; k < 8; k++) {
      uint32_t rank = (uint32_t)conf_rng_int(&rng, 1, 6);
      int64_t a[GT_MAX_RANK], b[GT_MAX_RANK];
      for (uint32_t d = 0; d < rank; d++) {
         a[d] = b[d] = conf_rng_int(&rng, 1, rank > 4 ? 4 : 9);
         int64_t r = conf_rng_int(&rng, 0, 9);
         if (r < 2)
            a[d] = 1;
         else if (r < 4)
            b[d] = 1;
      }
      snprintf(what, sizeof(what), "random%u_r%u", k, rank);
      struct conf_case *c = binary_case(list, op, row, in, out, rank, a, b, what);
      c->fill = ref_dtype_is_float(in) ? CONF_FILL_SPECIALS : CONF_FILL_RANDOM;
      c->range[0] = c->range[1] = *range;
   }
}

static void
add_sub(struct conf_list *list, enum tosa_ref_op op)
{
   for (uint32_t r = 0; r < sizeof(add_rows) / sizeof(add_rows[0]); r++) {
      enum ref_dtype dt = add_rows[r];
      /* i32: no overflow (a REQUIRE) between values of [-2^30, 2^30). */
      struct conf_range range = dt == REF_DTYPE_I32 ? (struct conf_range){-I32_HALF, I32_HALF - 1}
                                                    : (struct conf_range){.fp = 100.0};
      binary_row(list, op, conf_dtype_name(dt), dt, dt, &range);
   }
   /* More than 65,535 workgroups of 64 in one dimension without VMEL_GRAPH_MAX_GROUPS. */
   if (op == TOSA_REF_OP_ADD) {
      struct conf_case *c =
          binary_case(list, op, "i32", REF_DTYPE_I32, REF_DTYPE_I32, 2, CONF_SHAPE(2, 2097200),
                      CONF_SHAPE(1, 2097200), "large_2x2097200");
      c->heavy = true;
      c->range[0] = c->range[1] = (struct conf_range){-I32_HALF, I32_HALF - 1};
   }
   struct conf_case *c;
   binary_case(list, op, NULL, REF_DTYPE_I8, REF_DTYPE_I8, 1, CONF_SHAPE(4), CONF_SHAPE(4),
               "i8_no_row");
   binary_case(list, op, NULL, REF_DTYPE_I16, REF_DTYPE_I32, 1, CONF_SHAPE(4), CONF_SHAPE(4),
               "i16_i32_no_row");
   binary_case(list, op, NULL, REF_DTYPE_FP16, REF_DTYPE_FP32, 1, CONF_SHAPE(4), CONF_SHAPE(4),
               "fp16_fp32_no_row");
   binary_case(list, op, NULL, REF_DTYPE_FP32, REF_DTYPE_FP32, 2, CONF_SHAPE(3, 4),
               CONF_SHAPE(3, 5), "bcast_3x4_3x5");
   c = binary_case(list, op, NULL, REF_DTYPE_I32, REF_DTYPE_I32, 2, CONF_SHAPE(2, 4),
                   CONF_SHAPE(2, 4), "output_shape_2x5");
   c->op.output.shape[1] = 5;
   c = binary_case(list, op, NULL, REF_DTYPE_FP32, REF_DTYPE_FP32, 2, CONF_SHAPE(3, 1),
                   CONF_SHAPE(1, 4), "output_not_broadcast_3x1");
   c->op.output.shape[1] = 1;
   c = binary_case(list, op, NULL, REF_DTYPE_I32, REF_DTYPE_I32, 2, CONF_SHAPE(2, 4),
                   CONF_SHAPE(2, 4), "rank_2_3");
   c->op.inputs[1].type = conf_type(REF_DTYPE_I32, 3, CONF_SHAPE(2, 4, 1));
   c = binary_case(list, op, NULL, REF_DTYPE_FP32, REF_DTYPE_FP32, 1, CONF_SHAPE(4), CONF_SHAPE(4),
                   "mixed_fp32_fp16");
   c->op.inputs[1].type.dtype = REF_DTYPE_FP16;
}

static void
mul(struct conf_list *list)
{
   const enum tosa_ref_op op = TOSA_REF_OP_MUL;
   struct conf_range full = {0, 0, 0};
   binary_row(list, op, "i8_i32", REF_DTYPE_I8, REF_DTYPE_I32, &full);
   binary_row(list, op, "i16_i32", REF_DTYPE_I16, REF_DTYPE_I32, &full);
   /* i32, shift 0: the low 32 bits of the product (no REQUIRE), so every value is allowed. */
   binary_row(list, op, "i32", REF_DTYPE_I32, REF_DTYPE_I32, &full);
   /* i32 with a shift: (a * b + 2^(shift-1)) >> shift must fit i32 (a REQUIRE), so |a| <= 2^15
    * and |b| <= 2^(15 + shift). */
   static const int shifts[] = {1, 2, 15, 16, 31, 32, 40, 62, 63};
   for (uint32_t i = 0; i < sizeof(shifts) / sizeof(shifts[0]); i++) {
      int s = shifts[i];
      int64_t b = s >= 16 ? INT32_MAX : (INT64_C(1) << (15 + s));
      for (int bcast = 0; bcast < 2; bcast++) {
         struct conf_case *c =
             binary_case(list, op, "i32", REF_DTYPE_I32, REF_DTYPE_I32, 2, CONF_SHAPE(3, 5),
                         bcast ? CONF_SHAPE(1, 5) : CONF_SHAPE(3, 5), "");
         snprintf(c->name, sizeof(c->name), "mul.i32.shift%d%s", s, bcast ? "_bcast" : "");
         c->op.attr.mul.shift = conf_int(REF_DTYPE_I8, s);
         c->fill = bcast ? CONF_FILL_SPECIALS : CONF_FILL_RANDOM;
         c->range[0] = (struct conf_range){-(INT64_C(1) << 15), INT64_C(1) << 15};
         c->range[1] = (struct conf_range){-b, b};
      }
   }
   struct conf_range fp = {.fp = 100.0};
   binary_row(list, op, "fp16", REF_DTYPE_FP16, REF_DTYPE_FP16, &fp);
   binary_row(list, op, "bf16", REF_DTYPE_BF16, REF_DTYPE_BF16, &fp);
   binary_row(list, op, "fp32", REF_DTYPE_FP32, REF_DTYPE_FP32, &fp);

   /* REQUIREs on the constant shift: rejecting them or running are both conformant. */
   static const struct {
      enum ref_dtype dt;
      int64_t shift;
      const char *name;
   } requires[] = {
       {REF_DTYPE_I8, 1, "i8_shift1"},
       {REF_DTYPE_I16, 5, "i16_shift5"},
       {REF_DTYPE_I32, 64, "i32_shift64"},
       {REF_DTYPE_I32, -1, "i32_shift_m1"},
   };
   for (uint32_t i = 0; i < sizeof(requires) / sizeof(requires[0]); i++) {
      enum ref_dtype out = REF_DTYPE_I32;
      struct conf_case *c = binary_case(list, op, NULL, requires[i].dt, out, 2, CONF_SHAPE(2, 3),
                                        CONF_SHAPE(2, 3), requires[i].name);
      snprintf(c->name, sizeof(c->name), "mul.require.%s", requires[i].name);
      snprintf(c->group, sizeof(c->group), "mul.require");
      c->intent = CONF_REQUIRE;
      c->op.attr.mul.shift = conf_int(REF_DTYPE_I8, requires[i].shift);
   }
   struct conf_case *c;
   binary_case(list, op, NULL, REF_DTYPE_I8, REF_DTYPE_I8, 1, CONF_SHAPE(4), CONF_SHAPE(4),
               "i8_i8_no_row");
   c = binary_case(list, op, NULL, REF_DTYPE_I8, REF_DTYPE_I32, 1, CONF_SHAPE(4), CONF_SHAPE(4),
                   "i8_i16_no_row");
   c->op.inputs[1].type.dtype = REF_DTYPE_I16;
   c = binary_case(list, op, NULL, REF_DTYPE_I32, REF_DTYPE_I32, 1, CONF_SHAPE(4), CONF_SHAPE(4),
                   "shift_i32_tensor");
   c->op.attr.mul.shift = conf_int(REF_DTYPE_I32, 0);
   binary_case(list, op, NULL, REF_DTYPE_FP16, REF_DTYPE_FP16, 2, CONF_SHAPE(2, 3),
               CONF_SHAPE(3, 3), "bcast_2x3_3x3");
   c = binary_case(list, op, NULL, REF_DTYPE_I16, REF_DTYPE_I32, 2, CONF_SHAPE(2, 3),
                   CONF_SHAPE(2, 3), "output_shape_2x6");
   c->op.output.shape[1] = 6;
}

/* ---- CLAMP ---------------------------------------------------------------------------------- */

struct clamp_bounds {
   const char *name;
   double lo, hi; /* NAN: the type's extreme */
};

static struct conf_case *
clamp_case(struct conf_list *list, const char *row, enum ref_dtype dt, uint32_t rank,
           const int64_t *shape, double lo, double hi, uint32_t nan_mode, const char *what)
{
   struct conf_case *c = conf_add(list, TOSA_REF_OP_CLAMP, row, "%s_%s", what,
                                  nan_mode == TOSA_REF_NAN_IGNORE      ? "ignore"
                                  : nan_mode == TOSA_REF_NAN_PROPAGATE ? "propagate"
                                                                       : "nan_mode");
   conf_input(c, 0, dt, rank, shape, false);
   c->op.output = c->op.inputs[0].type;
   c->op.attr.clamp.nan_mode = nan_mode;
   if (ref_dtype_is_float(dt)) {
      c->op.attr.clamp.min_val = conf_fp(dt, lo);
      c->op.attr.clamp.max_val = conf_fp(dt, hi);
      c->range[0].fp = 4.0;
      c->fill = CONF_FILL_SPECIALS;
   } else {
      c->op.attr.clamp.min_val = conf_int(dt, (int64_t)lo);
      c->op.attr.clamp.max_val = conf_int(dt, (int64_t)hi);
      c->fill = CONF_FILL_SPECIALS;
   }
   return c;
}

static void
clamp(struct conf_list *list)
{
   static const enum ref_dtype rows[] = {REF_DTYPE_I8, REF_DTYPE_I16, REF_DTYPE_FP16,
                                         REF_DTYPE_BF16, REF_DTYPE_FP32};
   for (uint32_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      enum ref_dtype dt = rows[r];
      const char *row = conf_dtype_name(dt);
      bool is_float = ref_dtype_is_float(dt);
      double tmax =
          is_float ? INFINITY : (double)((INT64_C(1) << (ref_dtype_int_bits(dt) - 1)) - 1);
      double tmin = is_float ? -INFINITY : -tmax - 1;
      const struct clamp_bounds bounds[] = {
          {"whole_range", tmin, tmax},
          {"narrow", is_float ? -0.5 : -10, is_float ? 0.75 : 10},
          {"equal", 3, 3},
          {"negative", is_float ? -3.0 : -100, is_float ? -1.0 : -50},
          {"zero", is_float ? -0.0 : 0, 0},
          {"type_max", is_float ? ref_dtype_normal_max(dt) : tmax - 1, tmax},
      };
      const struct {
         uint32_t rank;
         int64_t shape[GT_MAX_RANK];
      } shapes[] = {
          {1, {33}},         {2, {3, 7}},          {3, {2, 3, 7}},
          {4, {2, 2, 3, 5}}, {5, {1, 2, 2, 3, 3}}, {6, {2, 1, 2, 3, 1, 4}},
      };
      for (uint32_t b = 0; b < sizeof(bounds) / sizeof(bounds[0]); b++) {
         for (uint32_t m = 0; m < 2; m++) {
            uint32_t s = (b * 2 + m) % (sizeof(shapes) / sizeof(shapes[0]));
            clamp_case(list, row, dt, shapes[s].rank, shapes[s].shape, bounds[b].lo, bounds[b].hi,
                       m ? TOSA_REF_NAN_IGNORE : TOSA_REF_NAN_PROPAGATE, bounds[b].name);
         }
      }
      struct conf_case *c = clamp_case(list, row, dt, 2, CONF_SHAPE(1, 500), -1, 1,
                                       TOSA_REF_NAN_IGNORE, "split_1x500");
      c->split = true;
      c = clamp_case(list, row, dt, 2, CONF_SHAPE(4, 9), -2, 3, TOSA_REF_NAN_PROPAGATE,
                     "const_input");
      c->op.inputs[0].source = GT_GRAPH_CONSTANT;
      if (dt == REF_DTYPE_I8) {
         c = clamp_case(list, row, dt, 1, CONF_SHAPE(4194400), -100, 100, TOSA_REF_NAN_PROPAGATE,
                        "large_4194400");
         c->heavy = true;
      }
   }
   struct conf_case *c;
   clamp_case(list, NULL, REF_DTYPE_I8, 1, CONF_SHAPE(4), 5, 4, TOSA_REF_NAN_PROPAGATE,
              "min_gt_max");
   clamp_case(list, NULL, REF_DTYPE_FP32, 1, CONF_SHAPE(4), 1.0, -1.0, TOSA_REF_NAN_IGNORE,
              "min_gt_max");
   clamp_case(list, NULL, REF_DTYPE_FP16, 1, CONF_SHAPE(4), NAN, 1.0, TOSA_REF_NAN_PROPAGATE,
              "min_nan");
   clamp_case(list, NULL, REF_DTYPE_BF16, 1, CONF_SHAPE(4), -1.0, NAN, TOSA_REF_NAN_IGNORE,
              "max_nan");
   clamp_case(list, NULL, REF_DTYPE_I16, 1, CONF_SHAPE(4), -1, 1, 0, "nan0");
   clamp_case(list, NULL, REF_DTYPE_FP32, 1, CONF_SHAPE(4), -1, 1, 3, "nan3");
   clamp_case(list, NULL, REF_DTYPE_I32, 1, CONF_SHAPE(4), -1, 1, TOSA_REF_NAN_PROPAGATE,
              "i32_no_row");
   c = clamp_case(list, NULL, REF_DTYPE_I8, 1, CONF_SHAPE(4), -1, 1, TOSA_REF_NAN_PROPAGATE,
                  "i8_to_i16");
   c->op.output.dtype = REF_DTYPE_I16;
   c = clamp_case(list, NULL, REF_DTYPE_I8, 1, CONF_SHAPE(4), -1, 1, TOSA_REF_NAN_PROPAGATE,
                  "min_val_i16");
   c->op.attr.clamp.min_val = conf_int(REF_DTYPE_I16, -1);
   c = clamp_case(list, NULL, REF_DTYPE_FP16, 1, CONF_SHAPE(4), -1, 1, TOSA_REF_NAN_PROPAGATE,
                  "bounds_fp32");
   c->op.attr.clamp.min_val = conf_fp(REF_DTYPE_FP32, -1);
   c->op.attr.clamp.max_val = conf_fp(REF_DTYPE_FP32, 1);
   c = clamp_case(list, NULL, REF_DTYPE_FP32, 2, CONF_SHAPE(2, 4), -1, 1, TOSA_REF_NAN_PROPAGATE,
                  "output_shape_2x5");
   c->op.output.shape[1] = 5;
}

void
conf_generate_elementwise(struct conf_list *list)
{
   add_sub(list, TOSA_REF_OP_ADD);
   add_sub(list, TOSA_REF_OP_SUB);
   mul(list);
   clamp(list);
}
