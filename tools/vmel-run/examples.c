/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run's built-in example networks (examples/<name>_network.spvasm, embedded at build
 * time): conv -> rescale/clamp -> pool -> matmul in an int8 and an fp32
 * version, and a chain of twelve elementwise operators whose reference is the
 * graph-level evaluator (ref_graph.h). This file owns their data (input and weights drawn from a fixed
 * seed, requantization scales calibrated on the reference's own
 * accumulators), the CPU reference chain (tests/reference), and the verdict:
 * integer outputs must be bit-exact, float outputs within TOSA 1.0.1's
 * dot-product bound for the operator that produced them. How a graph is run
 * is graph_run's business (tools/graphrun).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_graph.h"
#include "run_module.h"
#include "spirv_text.h"
#include "tosa_ref.h"
#include "vmel_run.h"

#define MAX_NET_TENSORS 32
#define SEED UINT64_C(0x766d656c2d72756e) /* "vmel-run" */

/* ---- deterministic data ---------------------------------------------------- */

/* splitmix64: the same stream on every host. */
static uint64_t
rng_next(uint64_t *state)
{
   uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
   z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
   z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
   return z ^ (z >> 31);
}

/* Uniform integers in [lo, hi]. */
static void
fill_int(struct ref_tensor *t, uint64_t *rng, int64_t lo, int64_t hi)
{
   uint64_t span = (uint64_t)(hi - lo) + 1;
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_int(t, i, lo + (int64_t)(rng_next(rng) % span));
}

/* Uniform floats in [lo, hi): 24 random bits scaled, exact in fp32 for lo, hi powers of 2. */
static void
fill_float(struct ref_tensor *t, uint64_t *rng, double lo, double hi)
{
   for (int64_t i = 0; i < t->count; i++) {
      double u = (double)(rng_next(rng) >> 40) * 0x1p-24;
      ref_tensor_set_fp(t, i, lo + (hi - lo) * u);
   }
}

/* scale = multiplier * 2^-shift with multiplier in [2^30, 2^31) (TOSA's scale32 form). */
static bool
quantize_scale(double scale, int32_t *multiplier, int32_t *shift)
{
   int s = 0;
   double m = frexp(scale, &s); /* scale = m * 2^s, m in [0.5, 1) */
   int64_t q = llround(m * 0x1p31);
   if (q == (INT64_C(1) << 31)) {
      q >>= 1;
      s++;
   }
   *multiplier = (int32_t)q;
   *shift = 31 - s;
   return *shift >= 2 && *shift <= 62; /* RESCALE: REQUIRE(2 <= shift <= 62) for scale32 */
}

/* ---- one network's tensors --------------------------------------------------- */

struct net {
   const char *name;
   struct ref_tensor *tensors[MAX_NET_TENSORS]; /* everything below, destroyed together */
   uint32_t tensor_count;
   struct graph_constant constants[8];
   uint32_t constant_count;
   bool failed;
   char why[256]; /* the first setup problem */
};

static struct ref_tensor *
net_tensor(struct net *n, enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   struct ref_tensor *t = n->tensor_count < MAX_NET_TENSORS ? ref_tensor_create(dtype, rank, shape)
                                                            : NULL;
   if (!t) {
      if (!n->failed)
         snprintf(n->why, sizeof(n->why), "out of memory");
      n->failed = true;
      return NULL;
   }
   n->tensors[n->tensor_count++] = t;
   return t;
}

/* A [1] tensor holding v. */
static struct ref_tensor *
net_scalar_int(struct net *n, enum ref_dtype dtype, int64_t v)
{
   static const int64_t one[1] = {1};
   struct ref_tensor *t = net_tensor(n, dtype, 1, one);
   if (t)
      ref_tensor_set_int(t, 0, v);
   return t;
}

static void
net_finish(struct net *n)
{
   for (uint32_t i = 0; i < n->tensor_count; i++)
      ref_tensor_destroy(n->tensors[i]);
   n->tensor_count = 0;
}

/* A reference call that must succeed: its status is checked here. */
static bool
net_ref(struct net *n, int status, const char *op)
{
   if (status == TOSA_REF_OK)
      return true;
   if (!n->failed)
      snprintf(n->why, sizeof(n->why), "reference %s: %s: %s", op, tosa_ref_status_name(status),
               tosa_ref_last_message());
   n->failed = true;
   return false;
}

static VkFormat
ref_format(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_I8:
      return VK_FORMAT_R8_SINT;
   case REF_DTYPE_I32:
      return VK_FORMAT_R32_SINT;
   case REF_DTYPE_FP32:
      return VK_FORMAT_R32_SFLOAT;
   case REF_DTYPE_FP16:
      return VK_FORMAT_R16_SFLOAT;
   default:
      return VK_FORMAT_UNDEFINED;
   }
}

static void
net_constant(struct net *n, uint32_t id, const struct ref_tensor *t)
{
   if (n->constant_count == sizeof(n->constants) / sizeof(n->constants[0])) {
      snprintf(n->why, sizeof(n->why), "too many graph constants");
      n->failed = true;
      return;
   }
   struct graph_constant *c = &n->constants[n->constant_count++];
   *c = (struct graph_constant){.id = id, .format = ref_format(t->dtype), .rank = t->rank,
                                .data = t->data};
   for (uint32_t i = 0; i < t->rank; i++)
      c->dims[i] = t->shape[i];
}

static struct graph_tensor
bind(uint32_t binding, struct ref_tensor *t)
{
   struct graph_tensor g = {.set = 0, .binding = binding, .format = ref_format(t->dtype),
                            .rank = t->rank, .data = t->data,
                            .size = (size_t)t->count * ref_dtype_size(t->dtype)};
   for (uint32_t i = 0; i < t->rank; i++)
      g.dims[i] = t->shape[i];
   return g;
}

static const char *
index_str(const struct ref_tensor *t, int64_t offset, char *buf, size_t len)
{
   int64_t index[REF_MAX_RANK];
   ref_tensor_index(t, offset, index);
   return run_shape_str(t->rank, index, buf, len);
}

/* ---- running and checking ------------------------------------------------------ */

/* Assembles the embedded module and runs it; outputs land in the tensors bound. */
static bool
net_run(const struct vmel_run_ctx *ctx, struct net *n, const char *text, size_t len,
        struct graph_tensor *input, struct graph_tensor *outputs, uint32_t output_count)
{
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (!spirv_text_assemble(text, len, &words, &count, err, sizeof(err))) {
      printf("  the embedded module does not assemble: %s\n", err);
      return false;
   }
   struct graph_run run = {
      .words = words,
      .word_count = count,
      .entry_point = "main",
      .inputs = input,
      .input_count = 1,
      .outputs = outputs,
      .output_count = output_count,
      .constants = n->constants,
      .constant_count = n->constant_count,
   };
   vmel_run_prepare(ctx, &run);
   VkResult r = graph_run(&ctx->gd, &run);
   free(words);
   if (r != VK_SUCCESS) {
      printf("  graph_run failed: %s\n", run.log);
      if (run.create_result != VK_SUCCESS)
         printf("  (the graph layer's log on stderr says why the pipeline was refused)\n");
      return false;
   }
   vmel_run_print_timing(&run, "  ");
   return true;
}

/* Bit-exact comparison of an integer output; prints the first few differences. */
static bool
check_exact(const char *what, const char *producer, const struct ref_tensor *got,
            const struct ref_tensor *want)
{
   char shape[64], idx[64];
   run_shape_str(got->rank, got->shape, shape, sizeof(shape));
   int64_t bad = 0;
   for (int64_t i = 0; i < want->count; i++)
      bad += ref_tensor_get_int(got, i) != ref_tensor_get_int(want, i);
   if (!bad) {
      printf("  %-18s %-4s %-18s bit-exact (%" PRId64 " values)\n", what,
             ref_dtype_name(got->dtype), shape, want->count);
      return true;
   }
   printf("  %-18s %-4s %-18s %" PRId64 " of %" PRId64 " values differ (produced by %s):\n", what,
          ref_dtype_name(got->dtype), shape, bad, want->count, producer);
   int shown = 0;
   for (int64_t i = 0; i < want->count && shown < 5; i++) {
      int64_t g = ref_tensor_get_int(got, i), w = ref_tensor_get_int(want, i);
      if (g == w)
         continue;
      printf("    at %s: expected %" PRId64 ", got %" PRId64 "\n",
             index_str(want, i, idx, sizeof(idx)), w, g);
      shown++;
   }
   return false;
}

/* A float output of a dot-product operator against TOSA's bound for it. */
static bool
check_dot(const char *what, const char *producer, const char *suspects,
          const struct tosa_ref_dot_check *check,
          const struct ref_tensor *got, const struct ref_tensor *ref64,
          const struct ref_tensor *bnd)
{
   char shape[64], idx[64];
   struct tosa_ref_dot_report rep;
   run_shape_str(got->rank, got->shape, shape, sizeof(shape));
   int status = tosa_ref_check_dot_product(check, got, ref64, bnd, &rep);
   if (status != TOSA_REF_OK) {
      printf("  %-18s cannot be checked: %s\n", what, tosa_ref_last_message());
      return false;
   }
   double max_abs = 0;
   for (int64_t i = 0; i < got->count; i++)
      max_abs = fmax(max_abs, fabs(ref_tensor_get_fp(got, i) - ref_tensor_get_fp(ref64, i)));
   printf("  %-18s %-4s %-18s %s the TOSA dot-product bound of %s (KS %" PRId64 ")\n", what,
          ref_dtype_name(got->dtype), shape, rep.pass ? "within" : "OUTSIDE", producer, check->ks);
   printf("  %-42s max |error| %.3g; normalized error max %.3g (limit %.0f), sum of squares "
          "%.3g (limit %.3g)\n",
          "", max_abs, rep.max_abs_err, rep.abs_bound, rep.err_sumsq, rep.variance_bound);
   if (!rep.pass)
      printf("    produced by %s\n", suspects);
   if (!rep.pass && rep.first_failure >= 0)
      printf("    first failure at %s: expected %.9g, got %.9g\n",
             index_str(got, rep.first_failure, idx, sizeof(idx)),
             ref_tensor_get_fp(ref64, rep.first_failure),
             ref_tensor_get_fp(got, rep.first_failure));
   return rep.pass;
}

static bool
verdict(struct net *n, bool pass)
{
   if (n->failed && n->why[0])
      printf("  %s\n", n->why);
   pass = pass && !n->failed;
   printf("  %s %s\n", pass ? "PASS" : "FAIL", n->name);
   net_finish(n);
   return pass;
}

/* ---- the int8 network ------------------------------------------------------------ */

static const int64_t in_shape[4] = {1, 16, 16, 8}, w_shape[4] = {16, 3, 3, 8},
                     acc_shape[4] = {1, 16, 16, 16}, pool_shape[4] = {1, 8, 8, 16},
                     flat_shape[3] = {1, 64, 16}, fc_shape[3] = {1, 16, 10},
                     out_shape[3] = {1, 64, 10}, oc_shape[1] = {16};

/* Per-channel requantization of the accumulator: channel c's largest |value| maps to 150,
 * so the largest values saturate at 127 and RESCALE's clipping is exercised. */
static void
calibrate_conv(struct net *n, const struct ref_tensor *acc, struct ref_tensor *mult,
               struct ref_tensor *shift)
{
   int64_t oc = acc->shape[3];
   for (int64_t c = 0; c < oc; c++) {
      int64_t m = 1;
      for (int64_t i = c; i < acc->count; i += oc)
         m = llabs(ref_tensor_get_int(acc, i)) > m ? llabs(ref_tensor_get_int(acc, i)) : m;
      int32_t multiplier, s;
      if (!quantize_scale(150.0 / (double)m, &multiplier, &s)) {
         snprintf(n->why, sizeof(n->why), "channel %" PRId64 ": scale out of range", c);
         n->failed = true;
      }
      ref_tensor_set_int(mult, c, multiplier);
      ref_tensor_set_int(shift, c, s);
   }
}

static bool
run_int8(const struct vmel_run_ctx *ctx)
{
   struct net n = {.name = "int8"};
   uint64_t rng = SEED;
   printf("\nint8: CONV2D i8->i32, RESCALE i32->i8 (per channel), CLAMP, MAX_POOL2D, RESHAPE, "
          "MATMUL i8->i32, RESCALE i32->i8\n");
   struct ref_tensor *input = net_tensor(&n, REF_DTYPE_I8, 4, in_shape);
   struct ref_tensor *weight = net_tensor(&n, REF_DTYPE_I8, 4, w_shape);
   struct ref_tensor *bias = net_tensor(&n, REF_DTYPE_I32, 1, oc_shape);
   struct ref_tensor *mult = net_tensor(&n, REF_DTYPE_I32, 1, oc_shape);
   struct ref_tensor *shift = net_tensor(&n, REF_DTYPE_I8, 1, oc_shape);
   struct ref_tensor *fc = net_tensor(&n, REF_DTYPE_I8, 3, fc_shape);
   struct ref_tensor *fc_mult = net_scalar_int(&n, REF_DTYPE_I32, 0);
   struct ref_tensor *fc_shift = net_scalar_int(&n, REF_DTYPE_I8, 0);
   struct ref_tensor *input_zp = net_scalar_int(&n, REF_DTYPE_I8, 3);
   struct ref_tensor *act_zp = net_scalar_int(&n, REF_DTYPE_I8, 5);
   struct ref_tensor *zero_i8 = net_scalar_int(&n, REF_DTYPE_I8, 0);
   struct ref_tensor *zero_i32 = net_scalar_int(&n, REF_DTYPE_I32, 0);
   struct ref_tensor *acc = net_tensor(&n, REF_DTYPE_I32, 4, acc_shape);
   struct ref_tensor *act = net_tensor(&n, REF_DTYPE_I8, 4, acc_shape);
   struct ref_tensor *relu = net_tensor(&n, REF_DTYPE_I8, 4, acc_shape);
   struct ref_tensor *pool = net_tensor(&n, REF_DTYPE_I8, 4, pool_shape);
   struct ref_tensor *flat = net_tensor(&n, REF_DTYPE_I8, 3, flat_shape);
   struct ref_tensor *mm = net_tensor(&n, REF_DTYPE_I32, 3, out_shape);
   struct ref_tensor *out = net_tensor(&n, REF_DTYPE_I8, 3, out_shape);
   struct ref_tensor *got_acc = net_tensor(&n, REF_DTYPE_I32, 4, acc_shape);
   struct ref_tensor *got_out = net_tensor(&n, REF_DTYPE_I8, 3, out_shape);
   if (n.failed)
      return verdict(&n, false);
   fill_int(input, &rng, -128, 127);
   fill_int(weight, &rng, -127, 127);
   fill_int(bias, &rng, -4096, 4096);
   fill_int(fc, &rng, -127, 127);

   /* The reference chain, calibrating the two RESCALEs on the way. */
   struct tosa_ref_conv2d_args conv = {.pad = {1, 1, 1, 1}, .stride = {1, 1},
                                       .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_INT32};
   struct tosa_ref_rescale_args rescale_conv = {.scale32 = true,
                                                .rounding_mode = TOSA_REF_ROUND_DOUBLE,
                                                .per_channel = true};
   struct tosa_ref_rescale_args rescale_fc = {.scale32 = true,
                                              .rounding_mode = TOSA_REF_ROUND_SINGLE};
   struct tosa_ref_clamp_args clamp = {.min_int = 5, .max_int = 127,
                                       .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_max_pool2d_args pooling = {.kernel = {2, 2}, .stride = {2, 2},
                                              .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_matmul_args matmul = {.mode = TOSA_REF_DOT_RESULT};
   if (net_ref(&n, tosa_ref_conv2d(&conv, input, weight, bias, input_zp, zero_i8, acc),
               "CONV2D"))
      calibrate_conv(&n, acc, mult, shift);
   if (!n.failed &&
       net_ref(&n, tosa_ref_rescale(&rescale_conv, acc, mult, shift, zero_i32, act_zp, act),
               "RESCALE") &&
       net_ref(&n, tosa_ref_clamp(&clamp, act, relu), "CLAMP") &&
       net_ref(&n, tosa_ref_max_pool2d(&pooling, relu, pool), "MAX_POOL2D") &&
       net_ref(&n, tosa_ref_reshape(pool, flat), "RESHAPE") &&
       net_ref(&n, tosa_ref_matmul(&matmul, flat, fc, act_zp, zero_i8, mm), "MATMUL")) {
      int64_t m = 1;
      for (int64_t i = 0; i < mm->count; i++)
         m = llabs(ref_tensor_get_int(mm, i)) > m ? llabs(ref_tensor_get_int(mm, i)) : m;
      int32_t multiplier, s;
      if (!quantize_scale(120.0 / (double)m, &multiplier, &s)) {
         snprintf(n.why, sizeof(n.why), "MATMUL: scale out of range");
         n.failed = true;
      }
      ref_tensor_set_int(fc_mult, 0, multiplier);
      ref_tensor_set_int(fc_shift, 0, s);
      net_ref(&n, tosa_ref_rescale(&rescale_fc, mm, fc_mult, fc_shift, zero_i32, zero_i8, out),
              "RESCALE");
   }
   if (n.failed)
      return verdict(&n, false);

   net_constant(&n, 0, weight);
   net_constant(&n, 1, bias);
   net_constant(&n, 2, mult);
   net_constant(&n, 3, shift);
   net_constant(&n, 4, fc);
   net_constant(&n, 5, fc_mult);
   net_constant(&n, 6, fc_shift);
   if (n.failed)
      return verdict(&n, false);
   struct graph_tensor in_t = bind(0, input);
   struct graph_tensor outs[2] = {bind(1, got_acc), bind(2, got_out)};
   if (!net_run(ctx, &n, vmel_run_example_int8, vmel_run_example_int8_len, &in_t, outs, 2))
      return verdict(&n, false);
   bool pass = check_exact("conv_accumulator", "CONV2D", got_acc, acc);
   pass &= check_exact("logits", "RESCALE, CLAMP, MAX_POOL2D, RESHAPE, MATMUL or RESCALE", got_out,
                       out);
   return verdict(&n, pass);
}

/* ---- the fp32 network ------------------------------------------------------------ */

static bool
run_fp32(const struct vmel_run_ctx *ctx)
{
   struct net n = {.name = "fp32"};
   uint64_t rng = SEED ^ UINT64_C(0xf32);
   printf("\nfp32: CONV2D, CLAMP, MAX_POOL2D, RESHAPE, MATMUL\n");
   static const int64_t one[1] = {1};
   struct ref_tensor *input = net_tensor(&n, REF_DTYPE_FP32, 4, in_shape);
   struct ref_tensor *weight = net_tensor(&n, REF_DTYPE_FP32, 4, w_shape);
   struct ref_tensor *bias = net_tensor(&n, REF_DTYPE_FP32, 1, oc_shape);
   struct ref_tensor *fc = net_tensor(&n, REF_DTYPE_FP32, 3, fc_shape);
   struct ref_tensor *zero = net_tensor(&n, REF_DTYPE_FP32, 1, one);
   struct ref_tensor *conv64 = net_tensor(&n, REF_DTYPE_FP64, 4, acc_shape);
   struct ref_tensor *conv_bnd = net_tensor(&n, REF_DTYPE_FP64, 4, acc_shape);
   struct ref_tensor *relu = net_tensor(&n, REF_DTYPE_FP32, 4, acc_shape);
   struct ref_tensor *pool = net_tensor(&n, REF_DTYPE_FP32, 4, pool_shape);
   struct ref_tensor *flat = net_tensor(&n, REF_DTYPE_FP32, 3, flat_shape);
   struct ref_tensor *mm64 = net_tensor(&n, REF_DTYPE_FP64, 3, out_shape);
   struct ref_tensor *mm_bnd = net_tensor(&n, REF_DTYPE_FP64, 3, out_shape);
   struct ref_tensor *got_conv = net_tensor(&n, REF_DTYPE_FP32, 4, acc_shape);
   struct ref_tensor *got_out = net_tensor(&n, REF_DTYPE_FP32, 3, out_shape);
   if (n.failed)
      return verdict(&n, false);
   /* Weights in [-1, 1) spread the CONV2D results over both sides of ReLU6's [0, 6]. */
   fill_float(input, &rng, -1.0, 1.0);
   fill_float(weight, &rng, -1.0, 1.0);
   fill_float(bias, &rng, -0.5, 0.5);
   fill_float(fc, &rng, -0.5, 0.5);

   struct tosa_ref_conv2d_args conv = {.pad = {1, 1, 1, 1}, .stride = {1, 1},
                                       .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_FP32};
   struct tosa_ref_conv2d_args conv_bound = conv;
   conv_bound.mode = TOSA_REF_DOT_BOUND;
   if (!net_ref(&n, tosa_ref_conv2d(&conv, input, weight, bias, zero, zero, conv64), "CONV2D") ||
       !net_ref(&n, tosa_ref_conv2d(&conv_bound, input, weight, bias, zero, zero, conv_bnd),
                "CONV2D bound"))
      return verdict(&n, false);

   net_constant(&n, 0, weight);
   net_constant(&n, 1, bias);
   net_constant(&n, 2, fc);
   if (n.failed)
      return verdict(&n, false);
   struct graph_tensor in_t = bind(0, input);
   struct graph_tensor outs[2] = {bind(1, got_conv), bind(2, got_out)};
   if (!net_run(ctx, &n, vmel_run_example_fp32, vmel_run_example_fp32_len, &in_t, outs, 2))
      return verdict(&n, false);
   const struct tosa_ref_dot_check conv_check = {.out_type = REF_DTYPE_FP32,
                                                 .acc_type = REF_DTYPE_FP32,
                                                 .ks = 3 * 3 * 8,
                                                 .has_bias = true,
                                                 .test_set = -1};
   bool pass = check_dot("conv_output", "CONV2D", "CONV2D", &conv_check, got_conv, conv64,
                         conv_bnd);

   /* The rest starts from the device's CONV2D result: CLAMP, MAX_POOL2D and RESHAPE are exact
    * (TOSA_REF_TOL_FP_EXACT / EXACT), so MATMUL's bound is the whole tolerance of logits. */
   struct tosa_ref_clamp_args clamp = {.min_fp = 0.0, .max_fp = 6.0,
                                       .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_max_pool2d_args pooling = {.kernel = {2, 2}, .stride = {2, 2},
                                              .nan_mode = TOSA_REF_NAN_PROPAGATE};
   struct tosa_ref_matmul_args matmul = {.mode = TOSA_REF_DOT_RESULT};
   struct tosa_ref_matmul_args matmul_bound = {.mode = TOSA_REF_DOT_BOUND};
   if (!net_ref(&n, tosa_ref_clamp(&clamp, got_conv, relu), "CLAMP") ||
       !net_ref(&n, tosa_ref_max_pool2d(&pooling, relu, pool), "MAX_POOL2D") ||
       !net_ref(&n, tosa_ref_reshape(pool, flat), "RESHAPE") ||
       !net_ref(&n, tosa_ref_matmul(&matmul, flat, fc, zero, zero, mm64), "MATMUL") ||
       !net_ref(&n, tosa_ref_matmul(&matmul_bound, flat, fc, zero, zero, mm_bnd),
                "MATMUL bound"))
      return verdict(&n, false);
   const struct tosa_ref_dot_check mm_check = {.out_type = REF_DTYPE_FP32,
                                               .acc_type = REF_DTYPE_FP32,
                                               .ks = 16,
                                               .has_bias = true,
                                               .test_set = -1};
   pass &= check_dot("logits", "MATMUL", "CLAMP, MAX_POOL2D, RESHAPE or MATMUL", &mm_check,
                     got_out, mm64, mm_bnd);
   return verdict(&n, pass);
}

/* ---- the elementwise network ------------------------------------------------------- */

/* One output of a graph against the graph-level reference's result for it, with the tolerance of
 * the operator that produced it. */
static bool
check_graph_output(const char *what, const struct ref_graph_output *o,
                   const struct ref_tensor *got)
{
   char shape[64], idx[64];
   run_shape_str(got->rank, got->shape, shape, sizeof(shape));
   struct tosa_ref_check_report rep = {.pass = true, .first_failure = -1};
   const struct ref_tensor *want = o->fp64 ? o->fp64 : o->value;
   int status;
   if (o->tol.kind == TOSA_REF_TOL_ABS_BOUND && o->fp64 && o->bound)
      status = tosa_ref_check_tensor_bound(got, o->fp64, o->bound, &rep);
   else if (o->tol.kind == TOSA_REF_TOL_EXACT)
      status = tosa_ref_check_tensor(&o->tol, got, want = o->value, &rep);
   else
      status = tosa_ref_check_tensor(&o->tol, got, want, &rep);
   if (status != TOSA_REF_OK) {
      printf("  %-18s cannot be checked: %s\n", what, tosa_ref_last_message());
      return false;
   }
   printf("  %-18s %-4s %-18s %s the TOSA bound of %s\n", what, ref_dtype_name(got->dtype), shape,
          rep.pass ? "within" : "OUTSIDE", o->op_name);
   if (!rep.pass && rep.first_failure >= 0)
      printf("    %" PRId64 " of %" PRId64 " values fail, the first at %s: expected %.9g, got %.9g\n",
             rep.failures, got->count, index_str(got, rep.first_failure, idx, sizeof(idx)),
             ref_tensor_get_fp(want, rep.first_failure),
             ref_tensor_get_fp(got, rep.first_failure));
   return rep.pass;
}

static bool
run_elementwise(const struct vmel_run_ctx *ctx)
{
   struct net n = {.name = "elementwise"};
   uint64_t rng = SEED ^ UINT64_C(0xe1e);
   printf("\nelementwise: ABS, FLOOR, CAST, LOGICAL_LEFT_SHIFT, BITWISE_XOR, CLZ, GREATER, SELECT, "
          "INTDIV,\n  NEGATE, CAST, EXP; SIGMOID\n");
   static const int64_t shape[4] = {1, 16, 16, 8};
   struct ref_tensor *input = net_tensor(&n, REF_DTYPE_FP32, 4, shape);
   struct ref_tensor *got_int = net_tensor(&n, REF_DTYPE_I32, 4, shape);
   struct ref_tensor *got_exp = net_tensor(&n, REF_DTYPE_FP16, 4, shape);
   struct ref_tensor *got_sig = net_tensor(&n, REF_DTYPE_FP32, 4, shape);
   if (n.failed)
      return verdict(&n, false);
   fill_float(input, &rng, -8.0, 8.0);

   /* The reference evaluates the module itself (tests/reference/ref_graph.c). */
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   struct ref_graph_result ref = {0};
   const struct ref_tensor *inputs[1] = {input};
   if (!spirv_text_assemble(vmel_run_example_elementwise, vmel_run_example_elementwise_len, &words,
                            &count, err, sizeof(err))) {
      snprintf(n.why, sizeof(n.why), "the embedded module does not assemble: %.200s", err);
      n.failed = true;
   } else if (ref_graph_eval(words, count, "main", inputs, 1, NULL, 0, &ref) != TOSA_REF_OK ||
              ref.output_count != 3) {
      snprintf(n.why, sizeof(n.why), "reference: %.200s", ref.message);
      n.failed = true;
   }
   free(words);
   bool pass = false;
   struct graph_tensor in_t = bind(0, input);
   struct graph_tensor outs[3] = {bind(1, got_int), bind(2, got_exp), bind(3, got_sig)};
   if (!n.failed && net_run(ctx, &n, vmel_run_example_elementwise,
                            vmel_run_example_elementwise_len, &in_t, outs, 3)) {
      pass = check_exact("int_path", "ABS .. NEGATE", got_int, ref.outputs[0].value);
      pass &= check_graph_output("exp_path", &ref.outputs[1], got_exp);
      pass &= check_graph_output("sigmoid", &ref.outputs[2], got_sig);
   }
   ref_graph_result_finish(&ref);
   return verdict(&n, pass);
}

int
vmel_run_examples(const struct vmel_run_ctx *ctx)
{
   int failed = 0;
   failed += !run_int8(ctx);
   failed += !run_fp32(ctx);
   failed += !run_elementwise(ctx);
   printf("\n%d of 3 example networks passed\n", 3 - failed);
   return failed;
}
