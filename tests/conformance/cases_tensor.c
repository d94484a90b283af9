/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Cases of the tensor operators MAX_POOL2D, CONV2D and MATMUL (TOSA 1.0.1 "Tensor Operators")
 * for every type-support row: kernels from 1x1 to larger than the input, strides, asymmetric
 * padding (windows mostly in the padding), dilation, bias of one element, zero points where i8
 * allows them, weights as graph constants, long accumulations, NaN modes and special values
 * for MAX_POOL2D, split dispatches, a level-8K REQUIRE and the invalid graphs of each operator.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "conformance.h"

/* ---- MAX_POOL2D ------------------------------------------------------------------------------ */

struct window {
   const char *name;
   int64_t in[4]; /* N, IH, IW, C; IH and IW are grown until the output size divides exactly */
   int32_t kernel[2], stride[2], pad[4];
   bool split;
};

/* The output size (IN + pads - K) / S + 1, after growing `in` to make the division exact. */
static int64_t
pool_out(int64_t *in, int32_t k, int32_t s, int32_t p0, int32_t p1)
{
   while ((*in + p0 + p1 - k) % s != 0)
      (*in)++;
   return (*in + p0 + p1 - k) / s + 1;
}

static struct conf_case *
pool_case(struct conf_list *list, const char *row, enum ref_dtype dt, const struct window *w,
          uint32_t nan_mode)
{
   struct conf_case *c = conf_add(list, TOSA_REF_OP_MAX_POOL2D, row, "%s_%s", w->name,
                                  nan_mode == TOSA_REF_NAN_IGNORE ? "ignore" : "propagate");
   int64_t in[4] = {w->in[0], w->in[1], w->in[2], w->in[3]};
   int64_t oh = pool_out(&in[1], w->kernel[0], w->stride[0], w->pad[0], w->pad[1]);
   int64_t ow = pool_out(&in[2], w->kernel[1], w->stride[1], w->pad[2], w->pad[3]);
   conf_input(c, 0, dt, 4, in, false);
   c->op.output = conf_type(dt, 4, CONF_SHAPE(in[0], oh, ow, in[3]));
   memcpy(c->op.attr.max_pool2d.kernel, w->kernel, sizeof(w->kernel));
   memcpy(c->op.attr.max_pool2d.stride, w->stride, sizeof(w->stride));
   memcpy(c->op.attr.max_pool2d.pad, w->pad, sizeof(w->pad));
   c->op.attr.max_pool2d.nan_mode = nan_mode;
   c->fill = CONF_FILL_SPECIALS;
   c->range[0].fp = 8.0;
   c->split = w->split;
   return c;
}

/* Random windows (kernels 1..4, strides 1..3, pads below the kernel, N 1..2, C 1..9), from a
 * generator seeded by the row: the same cases in every run. */
static void
pool_random(struct conf_list *list, const char *row, enum ref_dtype dt)
{
   char seed[64], name[32];
   snprintf(seed, sizeof(seed), "max_pool2d.%s.random", row);
   struct conf_rng rng;
   conf_rng_init(&rng, 0, seed);
   for (uint32_t k = 0; k < 8; k++) {
      struct window w = {.name = name};
      snprintf(name, sizeof(name), "random%u", k);
      w.in[0] = conf_rng_int(&rng, 1, 2);
      w.in[3] = conf_rng_int(&rng, 1, 9);
      for (uint32_t a = 0; a < 2; a++) {
         w.kernel[a] = (int32_t)conf_rng_int(&rng, 1, 4);
         w.stride[a] = (int32_t)conf_rng_int(&rng, 1, 3);
         w.pad[2 * a] = (int32_t)conf_rng_int(&rng, 0, w.kernel[a] - 1);
         w.pad[2 * a + 1] = (int32_t)conf_rng_int(&rng, 0, w.kernel[a] - 1);
         /* At least one window: IN + pads >= kernel. */
         int64_t min = w.kernel[a] - w.pad[2 * a] - w.pad[2 * a + 1];
         w.in[1 + a] = conf_rng_int(&rng, min > 1 ? min : 1, 9);
      }
      uint32_t mode = (uint32_t)conf_rng_int(&rng, TOSA_REF_NAN_PROPAGATE, TOSA_REF_NAN_IGNORE);
      pool_case(list, row, dt, &w, mode);
   }
}

static void
max_pool2d(struct conf_list *list)
{
   static const enum ref_dtype rows[] = {REF_DTYPE_I8,      REF_DTYPE_I16,  REF_DTYPE_FP8E4M3,
                                         REF_DTYPE_FP8E5M2, REF_DTYPE_FP16, REF_DTYPE_BF16,
                                         REF_DTYPE_FP32};
   static const struct window windows[] = {
       {"k1x1", {1, 4, 4, 3}, {1, 1}, {1, 1}, {0, 0, 0, 0}, false},
       {"k2x2_s2", {1, 6, 6, 2}, {2, 2}, {2, 2}, {0, 0, 0, 0}, false},
       {"k3x3_p1", {1, 5, 5, 3}, {3, 3}, {1, 1}, {1, 1, 1, 1}, false},
       {"k3x3_s2_p1010_n2", {2, 7, 7, 2}, {3, 3}, {2, 2}, {1, 0, 1, 0}, false},
       {"k2x3_s1x2_p0101", {1, 5, 8, 4}, {2, 3}, {1, 2}, {0, 1, 0, 1}, false},
       {"k4x4_whole", {1, 4, 4, 5}, {4, 4}, {1, 1}, {0, 0, 0, 0}, false},
       {"k3x3_s3_p2", {1, 6, 6, 1}, {3, 3}, {3, 3}, {2, 2, 2, 2}, false},
       {"k1x2_p0010", {1, 3, 4, 2}, {1, 2}, {1, 1}, {0, 0, 1, 0}, false},
       {"k2x2_c33_n3", {3, 5, 5, 33}, {2, 2}, {1, 1}, {0, 1, 1, 0}, false},
       {"split_k2x2", {1, 17, 17, 2}, {2, 2}, {1, 1}, {0, 0, 0, 0}, true},
   };
   for (uint32_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      const char *row = conf_dtype_name(rows[r]);
      for (uint32_t w = 0; w < sizeof(windows) / sizeof(windows[0]); w++) {
         pool_case(list, row, rows[r], &windows[w], TOSA_REF_NAN_PROPAGATE);
         if (ref_dtype_is_float(rows[r]) || w < 3)
            pool_case(list, row, rows[r], &windows[w], TOSA_REF_NAN_IGNORE);
      }
      /* Every special value alone in a window (an all-NaN window gives NaN in both modes),
       * then in pairs. */
      static const struct window single = {"cross_k1x1", {1, 4, 4, 1}, {1, 1}, {1, 1}, {0}};
      static const struct window pairs = {"cross_k1x2", {1, 2, 17, 1}, {1, 2}, {1, 1}, {0}};
      for (uint32_t m = TOSA_REF_NAN_PROPAGATE; m <= TOSA_REF_NAN_IGNORE; m++) {
         pool_case(list, row, rows[r], &single, m)->fill = CONF_FILL_CROSS;
         pool_case(list, row, rows[r], &pairs, m)->fill = CONF_FILL_CROSS;
      }
      pool_random(list, row, rows[r]);
      static const struct window constant = {"const_input", {1, 4, 6, 3}, {2, 3}, {2, 3}, {0}};
      pool_case(list, row, rows[r], &constant, TOSA_REF_NAN_IGNORE)->op.inputs[0].source =
          GT_GRAPH_CONSTANT;
   }
   /* LEVEL_CHECK(kernel <= MAX_KERNEL) is a REQUIRE. */
   static const struct window level = {"kernel_8193", {1, 8193, 1, 1}, {8193, 1}, {1, 1}, {0}};
   struct conf_case *c = pool_case(list, NULL, REF_DTYPE_I8, &level, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.require.level_kernel_8193");
   snprintf(c->group, sizeof(c->group), "max_pool2d.require");
   c->intent = CONF_REQUIRE;

   static const struct window bad[] = {
       {"pad_eq_kernel", {1, 4, 4, 1}, {2, 2}, {1, 1}, {2, 0, 0, 0}, false},
       {"kernel0", {1, 4, 4, 1}, {0, 2}, {1, 1}, {0, 0, 0, 0}, false},
       {"stride0", {1, 4, 4, 1}, {2, 2}, {1, 0}, {0, 0, 0, 0}, false},
       {"pad_negative", {1, 4, 4, 1}, {2, 2}, {1, 1}, {0, 0, -1, 0}, false},
   };
   for (uint32_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
      c = conf_add(list, TOSA_REF_OP_MAX_POOL2D, NULL, "%s", bad[i].name);
      conf_input(c, 0, REF_DTYPE_I8, 4, bad[i].in, false);
      c->op.output = conf_type(REF_DTYPE_I8, 4, CONF_SHAPE(1, 3, 3, 1));
      memcpy(c->op.attr.max_pool2d.kernel, bad[i].kernel, sizeof(bad[i].kernel));
      memcpy(c->op.attr.max_pool2d.stride, bad[i].stride, sizeof(bad[i].stride));
      memcpy(c->op.attr.max_pool2d.pad, bad[i].pad, sizeof(bad[i].pad));
      c->op.attr.max_pool2d.nan_mode = TOSA_REF_NAN_PROPAGATE;
   }
   static const struct window base = {"", {1, 5, 5, 2}, {2, 2}, {1, 1}, {0}};
   c = pool_case(list, NULL, REF_DTYPE_I16, &base, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.inexact_stride2");
   c->op.attr.max_pool2d.stride[0] = 2; /* (5 - 2) / 2 is not exact */
   c = pool_case(list, NULL, REF_DTYPE_FP32, &base, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.output_height");
   c->op.output.shape[1] += 1;
   c = pool_case(list, NULL, REF_DTYPE_FP16, &base, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.output_channels");
   c->op.output.shape[3] = 3;
   c = pool_case(list, NULL, REF_DTYPE_I8, &base, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.i8_to_i16");
   c->op.output.dtype = REF_DTYPE_I16;
   c = pool_case(list, NULL, REF_DTYPE_I32, &base, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.i32_no_row");
   c = pool_case(list, NULL, REF_DTYPE_BF16, &base, 0);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.nan_mode0");
   c = pool_case(list, NULL, REF_DTYPE_I8, &base, TOSA_REF_NAN_PROPAGATE);
   snprintf(c->name, sizeof(c->name), "max_pool2d.invalid.rank3");
   c->op.inputs[0].type = conf_type(REF_DTYPE_I8, 3, CONF_SHAPE(5, 5, 2));
   c->op.output = conf_type(REF_DTYPE_I8, 3, CONF_SHAPE(4, 4, 2));
}

/* ---- CONV2D ---------------------------------------------------------------------------------- */

struct conv_row {
   const char *name;
   enum ref_dtype in, w, bias; /* output: the bias type */
   enum tosa_ref_acc_type acc;
};

static const struct conv_row conv_rows[] = {
    {"i8_acc_int32", REF_DTYPE_I8, REF_DTYPE_I8, REF_DTYPE_I32, TOSA_REF_ACC_INT32},
    {"i16_i8_acc_int48", REF_DTYPE_I16, REF_DTYPE_I8, REF_DTYPE_I48, TOSA_REF_ACC_INT48},
    {"fp8e4m3_acc_fp16", REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E4M3, REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
    {"fp8e5m2_acc_fp16", REF_DTYPE_FP8E5M2, REF_DTYPE_FP8E5M2, REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
    {"fp16_acc_fp16", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
    {"fp16_acc_fp32", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16, TOSA_REF_ACC_FP32},
    {"bf16_acc_fp32", REF_DTYPE_BF16, REF_DTYPE_BF16, REF_DTYPE_BF16, TOSA_REF_ACC_FP32},
    {"fp32_acc_fp32", REF_DTYPE_FP32, REF_DTYPE_FP32, REF_DTYPE_FP32, TOSA_REF_ACC_FP32},
};

struct conv_geom {
   const char *name;
   int64_t in[4]; /* N, IH, IW, IC */
   int64_t oc, kh, kw;
   int32_t pad[4], stride[2], dilation[2];
   bool bias1, constants, split;
};

static const struct conv_geom conv_geoms[] = {
    {"k1x1", {1, 4, 4, 3}, 5, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, false, false, false},
    {"k3x3_p1", {1, 5, 5, 3}, 4, 3, 3, {1, 1, 1, 1}, {1, 1}, {1, 1}, false, false, false},
    {"k3x3_s2_p1_n2", {2, 7, 7, 2}, 3, 3, 3, {1, 1, 1, 1}, {2, 2}, {1, 1}, false, false, false},
    {"k3x3_d2", {1, 7, 6, 2}, 2, 3, 3, {0, 0, 0, 0}, {1, 1}, {2, 2}, false, false, false},
    {"k2x3_s1x2_p0120", {1, 6, 7, 4}, 3, 2, 3, {0, 1, 2, 0}, {1, 2}, {1, 1}, false, false, false},
    {"k3x3_bias1_n2", {2, 4, 5, 3}, 6, 3, 3, {1, 1, 1, 1}, {1, 1}, {1, 1}, true, false, false},
    {"k3x3_ic32", {1, 4, 4, 32}, 4, 3, 3, {1, 1, 1, 1}, {1, 1}, {1, 1}, false, false, false},
    {"k3x3_over_2x2_p1", {1, 2, 2, 1}, 2, 3, 3, {1, 1, 1, 1}, {1, 1}, {1, 1}, false, false, false},
    {"k3x3_d2_s2_p2", {1, 9, 9, 2}, 2, 3, 3, {2, 2, 2, 2}, {2, 2}, {2, 2}, false, false, false},
    {"k1x1_s3", {1, 7, 7, 2}, 3, 1, 1, {0, 0, 0, 0}, {3, 3}, {1, 1}, false, false, false},
    {"k1x1_oc64", {1, 3, 3, 4}, 64, 1, 1, {0, 0, 0, 0}, {1, 1}, {1, 1}, false, false, false},
    {"weights_const", {1, 5, 5, 3}, 4, 3, 3, {1, 1, 1, 1}, {1, 1}, {1, 1}, false, true, false},
    {"split_16x16", {1, 16, 16, 2}, 2, 3, 3, {1, 1, 1, 1}, {1, 1}, {1, 1}, false, false, true},
};

static int64_t
conv_out(int64_t in, int64_t k, int32_t p0, int32_t p1, int32_t s, int32_t d)
{
   return (in - 1 + p0 + p1 - (k - 1) * d) / s + 1;
}

static struct conf_case *
conv_case(struct conf_list *list, const struct conv_row *row, const struct conv_geom *g,
          const char *what)
{
   struct conf_case *c = conf_add(list, TOSA_REF_OP_CONV2D, row->name, "%s", what);
   int64_t oh = conv_out(g->in[1], g->kh, g->pad[0], g->pad[1], g->stride[0], g->dilation[0]);
   int64_t ow = conv_out(g->in[2], g->kw, g->pad[2], g->pad[3], g->stride[1], g->dilation[1]);
   conf_input(c, 0, row->in, 4, g->in, false);
   conf_input(c, 1, row->w, 4, CONF_SHAPE(g->oc, g->kh, g->kw, g->in[3]), g->constants);
   conf_input(c, 2, row->bias, 1, CONF_SHAPE(g->bias1 ? 1 : g->oc), g->constants);
   c->op.output = conf_type(row->bias, 4, CONF_SHAPE(g->in[0], oh, ow, g->oc));
   memcpy(c->op.attr.conv2d.pad, g->pad, sizeof(g->pad));
   memcpy(c->op.attr.conv2d.stride, g->stride, sizeof(g->stride));
   memcpy(c->op.attr.conv2d.dilation, g->dilation, sizeof(g->dilation));
   c->op.attr.conv2d.acc_type = row->acc;
   c->op.attr.conv2d.input_zp = conf_int(row->in, 0);
   c->op.attr.conv2d.weight_zp = conf_int(row->w, 0);
   if (ref_dtype_is_float(row->in)) {
      c->op.attr.conv2d.input_zp = conf_fp(row->in, 0.0);
      c->op.attr.conv2d.weight_zp = conf_fp(row->w, 0.0);
   }
   /* Biases that leave the accumulator well inside its type. */
   c->range[2] = row->bias == REF_DTYPE_I32 ? (struct conf_range){-(1 << 20), 1 << 20}
                 : row->bias == REF_DTYPE_I48
                     ? (struct conf_range){-(INT64_C(1) << 40), INT64_C(1) << 40}
                     : (struct conf_range){0, 0, 0};
   c->split = g->split;
   return c;
}

static void conv2d_invalid(struct conf_list *list);

/* Random geometries (kernels 1..4, strides and dilations 1..3, pads 0..3, channels 1..9, a bias
 * of one element or OC, zero points for i8), from a generator seeded by the row: the same cases
 * in every run. The input grows until the output size divides exactly. */
static void
conv_random(struct conf_list *list, const struct conv_row *row)
{
   char seed[64], what[32];
   snprintf(seed, sizeof(seed), "conv2d.%s.random", row->name);
   struct conf_rng rng;
   conf_rng_init(&rng, 0, seed);
   for (uint32_t k = 0; k < 8; k++) {
      struct conv_geom g = {.name = what};
      snprintf(what, sizeof(what), "random%u", k);
      g.in[0] = conf_rng_int(&rng, 1, 2);
      g.in[3] = conf_rng_int(&rng, 1, 9);
      g.oc = conf_rng_int(&rng, 1, 9);
      g.kh = conf_rng_int(&rng, 1, 4);
      g.kw = conf_rng_int(&rng, 1, 4);
      for (uint32_t a = 0; a < 2; a++) {
         int64_t kernel = a ? g.kw : g.kh;
         g.stride[a] = (int32_t)conf_rng_int(&rng, 1, 3);
         g.dilation[a] = (int32_t)conf_rng_int(&rng, 1, 3);
         g.pad[2 * a] = (int32_t)conf_rng_int(&rng, 0, 3);
         g.pad[2 * a + 1] = (int32_t)conf_rng_int(&rng, 0, 3);
         int64_t in = conf_rng_int(&rng, 1, 8);
         int64_t extent = (kernel - 1) * g.dilation[a] - g.pad[2 * a] - g.pad[2 * a + 1];
         while (in - 1 - extent < 0 || (in - 1 - extent) % g.stride[a] != 0)
            in++;
         g.in[1 + a] = in;
      }
      g.bias1 = conf_rng_int(&rng, 0, 3) == 0;
      struct conf_case *c = conv_case(list, row, &g, what);
      c->op.attr.conv2d.local_bound = conf_rng_int(&rng, 0, 1);
      if (row->in == REF_DTYPE_I8)
         c->op.attr.conv2d.input_zp = conf_int(REF_DTYPE_I8, conf_rng_int(&rng, -128, 127));
      if (row->w == REF_DTYPE_I8)
         c->op.attr.conv2d.weight_zp = conf_int(REF_DTYPE_I8, conf_rng_int(&rng, -128, 127));
   }
}

static void
conv2d(struct conf_list *list)
{
   for (uint32_t r = 0; r < sizeof(conv_rows) / sizeof(conv_rows[0]); r++) {
      const struct conv_row *row = &conv_rows[r];
      for (uint32_t g = 0; g < sizeof(conv_geoms) / sizeof(conv_geoms[0]); g++) {
         struct conf_case *c = conv_case(list, row, &conv_geoms[g], conv_geoms[g].name);
         c->op.attr.conv2d.local_bound = g % 2;
      }
      /* Zero points: both for i8, the weight's for i16 x i8 (its input_zp must be 0). */
      static const int64_t zps[][2] = {{-7, 5}, {127, -128}, {-128, 127}};
      for (uint32_t z = 0; row->w == REF_DTYPE_I8 && z < 3; z++) {
         char what[64];
         snprintf(what, sizeof(what), "k3x3_p1_zp_%" PRId64 "_%" PRId64,
                  row->in == REF_DTYPE_I8 ? zps[z][0] : 0, zps[z][1]);
         struct conf_case *c = conv_case(list, row, &conv_geoms[z == 2 ? 6 : 1], what);
         if (row->in == REF_DTYPE_I8)
            c->op.attr.conv2d.input_zp = conf_int(REF_DTYPE_I8, zps[z][0]);
         c->op.attr.conv2d.weight_zp = conf_int(REF_DTYPE_I8, zps[z][1]);
      }
      conv_random(list, row);
      /* Larger values for the float rows (the error bound scales with them). */
      if (ref_dtype_is_float(row->in)) {
         struct conf_case *c = conv_case(list, row, &conv_geoms[2], "k3x3_s2_p1_n2_range8");
         for (uint32_t i = 0; i < 3; i++)
            c->range[i].fp = 8.0;
      }
   }
   conv2d_invalid(list);
}

/* An invalid CONV2D: k3x3_p1 of `row` before the caller breaks it. */
static struct gt_op *
conv_bad(struct conf_list *list, const struct conv_row *row, const char *name)
{
   struct conf_case *c = conv_case(list, row, &conv_geoms[1], "");
   snprintf(c->name, sizeof(c->name), "conv2d.invalid.%s", name);
   snprintf(c->group, sizeof(c->group), "conv2d.invalid");
   c->intent = CONF_INVALID;
   return &c->op;
}

static void
conv2d_invalid(struct conf_list *list)
{
   const struct conv_row *i8 = &conv_rows[0], *i16 = &conv_rows[1], *f16 = &conv_rows[4];
   const struct conv_row *f32 = &conv_rows[7];
   conv_bad(list, i8, "i8_acc_int48")->attr.conv2d.acc_type = TOSA_REF_ACC_INT48;
   conv_bad(list, f16, "fp16_acc_int32")->attr.conv2d.acc_type = TOSA_REF_ACC_INT32;
   conv_bad(list, f32, "acc_type0")->attr.conv2d.acc_type = 0;
   conv_bad(list, i16, "acc_type5")->attr.conv2d.acc_type = 5;
   conv_bad(list, i16, "i16_input_zp")->attr.conv2d.input_zp = conf_int(REF_DTYPE_I16, 3);
   conv_bad(list, f32, "fp32_weight_zp")->attr.conv2d.weight_zp = conf_fp(REF_DTYPE_FP32, 1.0);
   conv_bad(list, i8, "weight_zp_i16")->attr.conv2d.weight_zp = conf_int(REF_DTYPE_I16, 0);
   conv_bad(list, i8, "stride0")->attr.conv2d.stride[1] = 0;
   conv_bad(list, i8, "dilation0")->attr.conv2d.dilation[0] = 0;
   struct gt_op *op = conv_bad(list, f32, "pad_negative");
   op->attr.conv2d.pad[0] = -1;
   op->output.shape[1] -= 1;
   conv_bad(list, i8, "stride2_output5")->attr.conv2d.stride[0] = 2; /* OH is 3 */
   conv_bad(list, f16, "output_height")->output.shape[1] += 1;
   conv_bad(list, i8, "bias_length3")->inputs[2].type.shape[0] = 3;
   conv_bad(list, i8, "weight_ic")->inputs[1].type.shape[3] = 2;
   conv_bad(list, i8, "weight_i16")->inputs[1].type.dtype = REF_DTYPE_I16;
   op = conv_bad(list, i8, "bias_i48");
   op->inputs[2].type.dtype = REF_DTYPE_I48;
   op->output.dtype = REF_DTYPE_I48;
   /* (7 - 1 - (2 - 1)) / 2 is not exact. */
   static const struct conv_geom inexact = {"",     {1, 7, 7, 1}, 1,     2,     2,    {0, 0, 0, 0},
                                            {2, 2}, {1, 1},       false, false, false};
   struct conf_case *c = conv_case(list, f32, &inexact, "");
   snprintf(c->name, sizeof(c->name), "conv2d.invalid.inexact_7_k2_s2");
   snprintf(c->group, sizeof(c->group), "conv2d.invalid");
   c->intent = CONF_INVALID;
}

/* ---- MATMUL ---------------------------------------------------------------------------------- */

struct matmul_row {
   const char *name;
   enum ref_dtype in, out;
};

static const struct matmul_row matmul_rows[] = {
    {"i8_i32", REF_DTYPE_I8, REF_DTYPE_I32},
    {"i16_i48", REF_DTYPE_I16, REF_DTYPE_I48},
    {"fp8e4m3_fp16", REF_DTYPE_FP8E4M3, REF_DTYPE_FP16},
    {"fp8e5m2_fp16", REF_DTYPE_FP8E5M2, REF_DTYPE_FP16},
    {"fp16_fp16", REF_DTYPE_FP16, REF_DTYPE_FP16},
    {"fp16_fp32", REF_DTYPE_FP16, REF_DTYPE_FP32},
    {"bf16_fp32", REF_DTYPE_BF16, REF_DTYPE_FP32},
    {"fp32_fp32", REF_DTYPE_FP32, REF_DTYPE_FP32},
};

static struct conf_case *
matmul_case(struct conf_list *list, const struct matmul_row *row, int64_t n, int64_t h,
            int64_t cdim, int64_t w, const char *what)
{
   struct conf_case *c = conf_add(list, TOSA_REF_OP_MATMUL, row->name, "%s", what);
   conf_input(c, 0, row->in, 3, CONF_SHAPE(n, h, cdim), false);
   conf_input(c, 1, row->in, 3, CONF_SHAPE(n, cdim, w), false);
   c->op.output = conf_type(row->out, 3, CONF_SHAPE(n, h, w));
   bool is_float = ref_dtype_is_float(row->in);
   c->op.attr.matmul.a_zp = is_float ? conf_fp(row->in, 0.0) : conf_int(row->in, 0);
   c->op.attr.matmul.b_zp = c->op.attr.matmul.a_zp;
   return c;
}

static void matmul_invalid(struct conf_list *list);

/* Random N (1..3), H and W (1..12), C (1..40) and i8 zero points, from a generator seeded by
 * the row: the same cases in every run. */
static void
matmul_random(struct conf_list *list, const struct matmul_row *row)
{
   char seed[64], what[48];
   snprintf(seed, sizeof(seed), "matmul.%s.random", row->name);
   struct conf_rng rng;
   conf_rng_init(&rng, 0, seed);
   for (uint32_t k = 0; k < 6; k++) {
      int64_t n = conf_rng_int(&rng, 1, 3), h = conf_rng_int(&rng, 1, 12);
      int64_t cdim = conf_rng_int(&rng, 1, 40), w = conf_rng_int(&rng, 1, 12);
      snprintf(what, sizeof(what), "random%u", k);
      struct conf_case *c = matmul_case(list, row, n, h, cdim, w, what);
      if (row->in == REF_DTYPE_I8) {
         c->op.attr.matmul.a_zp = conf_int(REF_DTYPE_I8, conf_rng_int(&rng, -128, 127));
         c->op.attr.matmul.b_zp = conf_int(REF_DTYPE_I8, conf_rng_int(&rng, -128, 127));
      }
   }
}

static void
matmul(struct conf_list *list)
{
   static const struct {
      const char *name;
      int64_t n, h, c, w;
      bool b_const, split;
   } shapes[] = {
       {"1x1x1_1x1", 1, 1, 1, 1, false, false},
       {"2x3x5_5x4", 2, 3, 5, 4, false, false},
       {"1x17x33_33x9", 1, 17, 33, 9, false, false},
       {"1x4x300_300x3", 1, 4, 300, 3, false, false},
       {"3x1x8_8x1", 3, 1, 8, 1, false, false},
       {"b_const_1x6x7_7x5", 1, 6, 7, 5, true, false},
       {"split_1x20x16_16x25", 1, 20, 16, 25, false, true},
   };
   for (uint32_t r = 0; r < sizeof(matmul_rows) / sizeof(matmul_rows[0]); r++) {
      const struct matmul_row *row = &matmul_rows[r];
      for (uint32_t s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         struct conf_case *c = matmul_case(list, row, shapes[s].n, shapes[s].h, shapes[s].c,
                                           shapes[s].w, shapes[s].name);
         c->split = shapes[s].split;
         if (shapes[s].b_const)
            c->op.inputs[1].source = GT_GRAPH_CONSTANT;
      }
      matmul_random(list, row);
      struct conf_case *same = matmul_case(list, row, 2, 4, 4, 4, "same_a_b_2x4x4");
      same->op.inputs[1].alias = 1;
      if (row->in == REF_DTYPE_I8) {
         same->op.attr.matmul.a_zp = same->op.attr.matmul.b_zp = conf_int(REF_DTYPE_I8, -5);
         static const int64_t zps[][2] = {{-3, 11}, {127, -128}, {-128, 0}};
         for (uint32_t z = 0; z < 3; z++) {
            struct conf_case *c = matmul_case(list, row, 2, 3, 17, 4, "");
            snprintf(c->name, sizeof(c->name), "matmul.i8_i32.zp_%" PRId64 "_%" PRId64, zps[z][0],
                     zps[z][1]);
            c->op.attr.matmul.a_zp = conf_int(REF_DTYPE_I8, zps[z][0]);
            c->op.attr.matmul.b_zp = conf_int(REF_DTYPE_I8, zps[z][1]);
         }
      }
      if (ref_dtype_is_float(row->in)) {
         struct conf_case *c = matmul_case(list, row, 1, 5, 64, 6, "1x5x64_64x6_range8");
         c->range[0].fp = c->range[1].fp = 8.0;
      }
   }
   matmul_invalid(list);
}

/* An invalid MATMUL: [2,3,5] x [2,5,4] of `row` before the caller breaks it. */
static struct gt_op *
matmul_bad(struct conf_list *list, const struct matmul_row *row, const char *name)
{
   struct conf_case *c = matmul_case(list, row, 2, 3, 5, 4, "");
   snprintf(c->name, sizeof(c->name), "matmul.invalid.%s", name);
   snprintf(c->group, sizeof(c->group), "matmul.invalid");
   c->intent = CONF_INVALID;
   return &c->op;
}

static void
matmul_invalid(struct conf_list *list)
{
   const struct matmul_row *i8 = &matmul_rows[0], *i16 = &matmul_rows[1];
   const struct matmul_row *f16 = &matmul_rows[4], *f32 = &matmul_rows[7];
   matmul_bad(list, i16, "i16_a_zp")->attr.matmul.a_zp = conf_int(REF_DTYPE_I16, 1);
   matmul_bad(list, f32, "fp32_b_zp")->attr.matmul.b_zp = conf_fp(REF_DTYPE_FP32, -2.0);
   matmul_bad(list, i8, "zp_type_i16")->attr.matmul.b_zp = conf_int(REF_DTYPE_I16, 0);
   matmul_bad(list, i8, "n_mismatch")->inputs[1].type.shape[0] = 1;
   matmul_bad(list, f32, "c_mismatch")->inputs[1].type.shape[1] = 6;
   matmul_bad(list, i8, "output_w")->output.shape[2] = 5;
   matmul_bad(list, i8, "a_i8_b_i16")->inputs[1].type.dtype = REF_DTYPE_I16;
   matmul_bad(list, i8, "i8_to_i48")->output.dtype = REF_DTYPE_I48;
   matmul_bad(list, f16, "fp16_to_bf16")->output.dtype = REF_DTYPE_BF16;
   struct gt_op *op = matmul_bad(list, i8, "rank2");
   op->inputs[0].type = conf_type(REF_DTYPE_I8, 2, CONF_SHAPE(3, 5));
   op->inputs[1].type = conf_type(REF_DTYPE_I8, 2, CONF_SHAPE(5, 4));
   op->output = conf_type(REF_DTYPE_I32, 2, CONF_SHAPE(3, 4));
}

void
conf_generate_tensor(struct conf_list *list)
{
   max_pool2d(list);
   conv2d(list);
   matmul(list);
}
