/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Issue 14's fixed benchmark suite (bench_graph.h; docs/benchmarks.md), the
 * weights graph constants, data from a fixed seed, each checked once per run
 * against the CPU reference (tests/reference/tosa_ref.h):
 *   resnet_fp32_b1, _b8   [N,56,56,64] two ResNet basic blocks: CONV2D 3x3
 *                         64->64 (acc FP32), ReLU (CLAMP 0..FLT_MAX), CONV2D,
 *                         residual ADD, ReLU; four CONV2Ds in all. Checked as
 *                         conv_fp32: |out - ref| <= rtol * bound, ref the
 *                         chain with every intermediate rounded to fp32 and
 *                         the last CONV2D + ADD in fp64, bound the last
 *                         CONV2D's dot-product bound + |residual|;
 *                         At batch 8 the reference computes the first and the
 *                         last batch, and those are checked.
 *   resnet_int8_b1, _b8   the same blocks in int8: CONV2D i8 -> i32 (acc
 *                         INT32), RESCALE i32 -> i8 per channel, CLAMP
 *                         (ReLU at the zero point); the residual RESCALEd
 *                         i8 -> i32 and ADDed to the second accumulator, then
 *                         RESCALE i32 -> i8 and CLAMP; bit-exact;
 *   mobilenet_fp32_b1, _b8  [N,56,56,24] MobileNetV2's inverted residual:
 *                         CONV2D 1x1 24->144, ReLU6, DEPTHWISE_CONV2D 3x3,
 *                         ReLU6, CONV2D 1x1 144->24, residual ADD; checked
 *                         like resnet_fp32;
 *   matmul{512,4096}_{fp32,fp16,bf16,i8}
 *                         MATMUL [1,M,M] x [1,M,M], B a graph constant:
 *                         fp32 -> fp32, fp16 -> fp32 (fp32 accumulator),
 *                         bf16 -> fp32, i8 -> i32. fp checked with TOSA's
 *                         dot-product bound, i8 bit-exact; at 4096 on 64
 *                         sampled rows (every 64th) so the reference stays
 *                         a few seconds; bf16 optional (the device needs
 *                         bf16 tensors);
 *   matmul_64x4096x64_{fp32,fp16}
 *                         MATMUL [1,64,4096] x [1,4096,64] (split-K's case,
 *                         D56), checked as matmul512; not in the suite;
 *   branch4_fp32          [1,56,56,64] four independent branches (CONV2D 1x1
 *                         64->64, ReLU) joined by an ADD tree: what the
 *                         barrier plan does with branches (D46).
 * Each records its node list so bench_graph.c can report the session memory
 * against the interval planner's lower bound (the largest sum of the bytes of
 * the intermediates live at one operator; the graph's input and output are
 * the application's).
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d7375) /* "bench-su" */

/* ---- the text builder: declarations on demand, and the node list ----------------------- */

#define SX_MAX_UINTS 64

struct sx {
   struct bench_graph *g;
   struct bench_text *t;
   uint32_t uints[SX_MAX_UINTS];
   uint32_t uint_count;
   bool dim[8];
   int nodes; /* %n0 .. */
};

/* `%u<v> = OpConstant %uint v` unless declared already. */
static void
sx_u(struct sx *s, uint32_t v)
{
   for (uint32_t i = 0; i < s->uint_count; i++)
      if (s->uints[i] == v)
         return;
   if (s->uint_count == SX_MAX_UINTS) {
      s->t->failed = true;
      return;
   }
   s->uints[s->uint_count++] = v;
   bench_text_printf(s->t, "%%u%u = OpConstant %%uint %u\n", v, v);
}

/* %shape_<name> and %<name> = OpTypeTensorARM elem rank %shape_<name>. */
static void
sx_tensor(struct sx *s, const char *name, const char *elem, uint32_t rank, const int64_t *dims)
{
   sx_u(s, rank);
   for (uint32_t i = 0; i < rank; i++)
      sx_u(s, (uint32_t)dims[i]);
   if (!s->dim[rank]) {
      bench_text_printf(s->t, "%%dim%u = OpTypeArray %%uint %%u%u\n", rank, rank);
      s->dim[rank] = true;
   }
   bench_text_printf(s->t, "%%shape_%s = OpConstantComposite %%dim%u", name, rank);
   for (uint32_t i = 0; i < rank; i++)
      bench_text_printf(s->t, " %%u%u", (uint32_t)dims[i]);
   bench_text_printf(s->t, "\n%%%s = OpTypeTensorARM %s %%u%u %%shape_%s\n", name, elem, rank,
                     name);
}

/* The module's start: header (bindings 0 input, 1 output), scalar types, booleans, the
 * element types asked for (%i8, %half, %bf16), small integers. */
static void
sx_begin(struct sx *s, struct bench_graph *g, bool i8, bool half, bool bf16)
{
   memset(s, 0, sizeof(*s));
   s->g = g;
   s->t = &g->text;
   char caps[200];
   /* the capabilities come after bench_text_header()'s own; an extension after them is still
    * in the extensions' place */
   snprintf(caps, sizeof(caps), "%s%s%s", i8 ? "OpCapability Int8\n" : "",
            half ? "OpCapability Float16\n" : "",
            bf16 ? "OpCapability BFloat16TypeKHR\nOpExtension \"SPV_KHR_bfloat16\"\n" : "");
   bench_text_header(s->t, caps, 2);
   bench_text_printf(s->t, "%%bool = OpTypeBool\n"
                           "%%uint = OpTypeInt 32 0\n"
                           "%%float = OpTypeFloat 32\n"
                           "%%true = OpConstantTrue %%bool\n"
                           "%%false = OpConstantFalse %%bool\n");
   if (i8)
      bench_text_printf(s->t, "%%i8 = OpTypeInt 8 0\n");
   if (half)
      bench_text_printf(s->t, "%%half = OpTypeFloat 16\n");
   if (bf16)
      bench_text_printf(s->t, "%%bf16 = OpTypeFloat 16 BFloat16KHR\n");
   static const uint32_t small[] = {0, 1, 2, 3, 4};
   for (size_t i = 0; i < sizeof(small) / sizeof(small[0]); i++)
      sx_u(s, small[i]);
}

/* The variables, the graph's type, entry point and input %x of type in_type. */
static void
sx_graph(struct sx *s, const char *in_type, const char *out_type)
{
   bench_text_printf(s->t,
                     "%%ptr_in = OpTypePointer UniformConstant %s\n"
                     "%%ptr_out = OpTypePointer UniformConstant %s\n"
                     "%%v0 = OpVariable %%ptr_in UniformConstant\n"
                     "%%v1 = OpVariable %%ptr_out UniformConstant\n"
                     "%%graph_type = OpTypeGraphARM 1 %s %s\n"
                     "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1\n"
                     "%%graph = OpGraphARM %%graph_type\n"
                     "%%n_in = OpGraphInputARM %s %%u0\n",
                     in_type, out_type, in_type, out_type, in_type);
}

/* The name of node k (-1: the graph's input) in a rotating buffer. */
static const char *
sx_name(int k)
{
   static char buf[8][16];
   static int next;
   char *b = buf[next++ & 7];
   if (k < 0)
      snprintf(b, 16, "%%n_in");
   else
      snprintf(b, 16, "%%n%d", k);
   return b;
}

/* `%n<k> = OpExtInst type %tosa <text>`, an operator of the graph that writes `bytes` and reads
 * nodes in0 and in1 (-1: none or the graph's input); returns k. */
__attribute__((format(printf, 6, 7))) static int
sx_op(struct sx *s, const char *type, double bytes, int in0, int in1, const char *fmt, ...)
{
   struct bench_graph *g = s->g;
   int k = s->nodes++;
   if (k >= BENCH_MAX_NODES) {
      bench_graph_fail(g, "more than %d nodes", BENCH_MAX_NODES);
      return k;
   }
   char text[512];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(text, sizeof(text), fmt, ap);
   va_end(ap);
   bench_text_printf(s->t, "%%n%d = OpExtInst %s %%tosa %s\n", k, type, text);
   g->node_bytes[k] = bytes;
   g->node_last_use[k] = k;
   if (in0 >= 0)
      g->node_last_use[in0] = k;
   if (in1 >= 0)
      g->node_last_use[in1] = k;
   g->node_count = (uint32_t)s->nodes;
   return k;
}

static void
sx_end(struct sx *s, int out)
{
   bench_text_printf(s->t, "OpGraphSetOutputARM %s %%u0\nOpGraphEndARM\n", sx_name(out));
}

/* ---- shared helpers ---------------------------------------------------------------------- */

static int64_t
prod(const int64_t *d, uint32_t rank)
{
   int64_t n = 1;
   for (uint32_t i = 0; i < rank; i++)
      n *= d[i];
   return n;
}

/* bench_graph.h's relative check over a chain whose last step is CONV2D (conv, unrounded FP64,
 * cbound its dot-product bound) + residual, then CLAMP [lo, hi]: want and bound. */
static void
finish_residual(struct bench_graph *g, const struct ref_tensor *conv, const struct ref_tensor *cbound,
                const struct ref_tensor *residual, double lo, double hi)
{
   for (int64_t i = 0; i < g->want->count; i++) {
      double r = ref_tensor_get_fp(residual, i);
      double v = ref_tensor_get_fp(conv, i) + r;
      ref_tensor_set_fp(g->want, i, fmin(fmax(v, lo), hi));
      ref_tensor_set_fp(g->bound, i, ref_tensor_get_fp(cbound, i) + fabs(r));
   }
}

/* Batch 8's reference: the first and the last batch (each batch is independent), a quarter of
 * the reference's time; g checks those batches of its output (sample_dim 0). */
#define RN_SAMPLED(n) ((n) > 1 ? 2 : 1)

static const struct ref_tensor *
batch_sample(struct bench_graph *g, const struct ref_tensor *in)
{
   const int64_t n = in->shape[0];
   if (n == 1)
      return in;
   int64_t shape[REF_MAX_RANK];
   memcpy(shape, in->shape, in->rank * sizeof(int64_t));
   shape[0] = RN_SAMPLED(n);
   struct ref_tensor *t = bench_tensor_new(g, in->dtype, in->rank, shape);
   if (!t)
      return in;
   size_t batch = (size_t)(in->count / n) * ref_dtype_size(in->dtype);
   memcpy(t->data, in->data, batch);
   memcpy((uint8_t *)t->data + batch, (const uint8_t *)in->data + (size_t)(n - 1) * batch, batch);
   g->sample_dim = 0;
   g->sample_stride = n - 1;
   return t;
}

/* ---- ResNet blocks, fp32 ----------------------------------------------------------------- */

#define RN_H 56
#define RN_W 56
#define RN_C 64

static void
text_resnet_fp32(struct sx *s, int64_t n)
{
   const int64_t act[4] = {n, RN_H, RN_W, RN_C}, w[4] = {RN_C, 3, 3, RN_C}, c[1] = {RN_C},
                 one[1] = {1}, four[1] = {4}, two[1] = {2};
   sx_tensor(s, "t_act", "%float", 4, act);
   sx_tensor(s, "t_w", "%float", 4, w);
   sx_tensor(s, "t_c", "%float", 1, c);
   sx_tensor(s, "t_1", "%float", 1, one);
   sx_tensor(s, "t_i32_4", "%uint", 1, four);
   sx_tensor(s, "t_i32_2", "%uint", 1, two);
   bench_text_printf(s->t, "%%pad_1 = OpConstantComposite %%t_i32_4 %%u1 %%u1 %%u1 %%u1\n"
                           "%%ones_2 = OpConstantComposite %%t_i32_2 %%u1 %%u1\n"
                           "%%zero = OpConstantNull %%t_1\n"
                           "%%f_0 = OpConstant %%float 0\n"
                           "%%f_max = OpConstant %%float 3.40282347e+38\n"
                           "%%acc_fp32 = OpConstant %%uint 3\n"
                           "%%propagate = OpConstant %%uint 1\n");
   for (int l = 0; l < 4; l++)
      bench_text_printf(s->t, "%%w%d = OpGraphConstantARM %%t_w %d\n"
                              "%%b%d = OpGraphConstantARM %%t_c %d\n",
                        l, 2 * l, l, 2 * l + 1);
   sx_graph(s, "%t_act", "%t_act");
   const double bytes = 4.0 * (double)prod(act, 4);
   int x = -1;
   for (int blk = 0; blk < 2; blk++) {
      int c1 = sx_op(s, "%t_act", bytes, x, -1,
                     "CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_fp32 %%false %s %%w%d %%b%d %%zero "
                     "%%zero",
                     sx_name(x), 2 * blk, 2 * blk);
      int r1 = sx_op(s, "%t_act", bytes, c1, -1, "CLAMP %%f_0 %%f_max %%propagate %s",
                     sx_name(c1));
      int c2 = sx_op(s, "%t_act", bytes, r1, -1,
                     "CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_fp32 %%false %s %%w%d %%b%d %%zero "
                     "%%zero",
                     sx_name(r1), 2 * blk + 1, 2 * blk + 1);
      int a = sx_op(s, "%t_act", bytes, c2, x, "ADD %s %s", sx_name(c2), sx_name(x));
      x = sx_op(s, "%t_act", bytes, a, -1, "CLAMP %%f_0 %%f_max %%propagate %s", sx_name(a));
   }
   sx_end(s, x);
}

static void
setup_resnet_fp32(struct bench_graph *g, int64_t n)
{
   uint64_t rng = SEED ^ (uint64_t)(10 + n);
   const int64_t act[4] = {n, RN_H, RN_W, RN_C}, wshape[4] = {RN_C, 3, 3, RN_C},
                 cshape[1] = {RN_C}, one[1] = {1}, ract[4] = {RN_SAMPLED(n), RN_H, RN_W, RN_C};
   g->what = "2 ResNet basic blocks: 4x CONV2D 3x3 64->64 fp32, ReLU, residual ADD";
   g->check = BENCH_CHECK_RELATIVE;
   /* fp32 accumulation over 576 terms per CONV2D, four deep: 1e-4 of the last bound */
   g->rtol = 1e-4;
   g->suite = true;
   g->peak_type = BENCH_PEAK_FP32;
   g->macs = 4.0 * (double)prod(act, 4) * 9 * RN_C;
   struct sx s;
   sx_begin(&s, g, false, false, false);
   text_resnet_fp32(&s, n);
   struct ref_tensor *zero = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 4, act);
   g->input_count = 1;
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 4, act);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 4, ract);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 4, ract);
   struct ref_tensor *conv = bench_tensor_new(g, REF_DTYPE_FP32, 4, ract);
   struct ref_tensor *conv64 = bench_tensor_new(g, REF_DTYPE_FP64, 4, ract);
   struct ref_tensor *mid = bench_tensor_new(g, REF_DTYPE_FP32, 4, ract);
   struct ref_tensor *sum = bench_tensor_new(g, REF_DTYPE_FP32, 4, ract);
   struct ref_tensor *block = bench_tensor_new(g, REF_DTYPE_FP32, 4, ract);
   struct ref_tensor *w[4], *b[4];
   for (int l = 0; l < 4; l++) {
      w[l] = bench_tensor_new(g, REF_DTYPE_FP32, 4, wshape);
      b[l] = bench_tensor_new(g, REF_DTYPE_FP32, 1, cshape);
   }
   if (g->failed)
      return;
   /* Weights in [-1/16, 1/16): each CONV2D's results stay around [-2, 2]. */
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   for (int l = 0; l < 4; l++) {
      bench_fill_float(w[l], &rng, -0.0625, 0.0625);
      bench_fill_float(b[l], &rng, -0.25, 0.25);
      bench_constant(g, 2 * (uint32_t)l, w[l]);
      bench_constant(g, 2 * (uint32_t)l + 1, b[l]);
   }
   struct tosa_ref_conv2d_args args = {
       .pad = {1, 1, 1, 1}, .stride = {1, 1}, .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_FP32};
   struct tosa_ref_conv2d_args bound_args = args;
   bound_args.mode = TOSA_REF_DOT_BOUND;
   struct tosa_ref_clamp_args relu = {
       .min_fp = 0.0, .max_fp = FLT_MAX, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   const struct ref_tensor *x = batch_sample(g, g->inputs[0]);
   /* block 0, rounded to fp32 at every operator */
   if (!bench_ref_ok(g, tosa_ref_conv2d(&args, x, w[0], b[0], zero, zero, conv), "CONV2D") ||
       !bench_ref_ok(g, tosa_ref_clamp(&relu, conv, mid), "CLAMP") ||
       !bench_ref_ok(g, tosa_ref_conv2d(&args, mid, w[1], b[1], zero, zero, conv), "CONV2D") ||
       !bench_ref_ok(g, tosa_ref_add(conv, x, sum), "ADD") ||
       !bench_ref_ok(g, tosa_ref_clamp(&relu, sum, block), "CLAMP"))
      return;
   /* block 1: its last CONV2D and ADD in fp64 */
   if (!bench_ref_ok(g, tosa_ref_conv2d(&args, block, w[2], b[2], zero, zero, conv), "CONV2D") ||
       !bench_ref_ok(g, tosa_ref_clamp(&relu, conv, mid), "CLAMP") ||
       !bench_ref_ok(g, tosa_ref_conv2d(&args, mid, w[3], b[3], zero, zero, conv64), "CONV2D") ||
       !bench_ref_ok(g, tosa_ref_conv2d(&bound_args, mid, w[3], b[3], zero, zero, g->bound),
                     "CONV2D bound"))
      return;
   finish_residual(g, conv64, g->bound, block, 0.0, FLT_MAX);
}

void
bench_setup_resnet_fp32_b1(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "resnet_fp32_b1";
   setup_resnet_fp32(g, 1);
}

void
bench_setup_resnet_fp32_b8(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "resnet_fp32_b8";
   setup_resnet_fp32(g, 8);
}

/* ---- ResNet blocks, int8 ----------------------------------------------------------------- */

/* The zero point of every activation, the graph's input too. */
#define RN_ZP 5

static void
text_resnet_int8(struct sx *s, int64_t n)
{
   const int64_t act[4] = {n, RN_H, RN_W, RN_C}, w[4] = {RN_C, 3, 3, RN_C}, c[1] = {RN_C},
                 one[1] = {1}, four[1] = {4}, two[1] = {2};
   sx_tensor(s, "t_act", "%i8", 4, act);
   sx_tensor(s, "t_acc", "%uint", 4, act);
   sx_tensor(s, "t_w", "%i8", 4, w);
   sx_tensor(s, "t_i32_c", "%uint", 1, c);
   sx_tensor(s, "t_i8_c", "%i8", 1, c);
   sx_tensor(s, "t_i32_1", "%uint", 1, one);
   sx_tensor(s, "t_i8_1", "%i8", 1, one);
   sx_tensor(s, "t_i32_4", "%uint", 1, four);
   sx_tensor(s, "t_i32_2", "%uint", 1, two);
   bench_text_printf(s->t,
                     "%%pad_1 = OpConstantComposite %%t_i32_4 %%u1 %%u1 %%u1 %%u1\n"
                     "%%ones_2 = OpConstantComposite %%t_i32_2 %%u1 %%u1\n"
                     "%%i8_zp = OpConstant %%i8 %d\n"
                     "%%i8_127 = OpConstant %%i8 127\n"
                     "%%zp = OpConstantComposite %%t_i8_1 %%i8_zp\n"
                     "%%zero_i8 = OpConstantNull %%t_i8_1\n"
                     "%%zero_i32 = OpConstantNull %%t_i32_1\n"
                     "%%acc_int32 = OpConstant %%uint 1\n"
                     "%%double_round = OpConstant %%uint 3\n"
                     "%%propagate = OpConstant %%uint 1\n",
                     RN_ZP);
   for (int l = 0; l < 4; l++)
      bench_text_printf(s->t,
                        "%%w%d = OpGraphConstantARM %%t_w %d\n"
                        "%%b%d = OpGraphConstantARM %%t_i32_c %d\n"
                        "%%m%d = OpGraphConstantARM %%t_i32_c %d\n"
                        "%%s%d = OpGraphConstantARM %%t_i8_c %d\n",
                        l, 4 * l, l, 4 * l + 1, l, 4 * l + 2, l, 4 * l + 3);
   for (int k = 0; k < 2; k++)
      bench_text_printf(s->t,
                        "%%rm%d = OpGraphConstantARM %%t_i32_1 %d\n"
                        "%%rs%d = OpGraphConstantARM %%t_i8_1 %d\n",
                        k, 16 + 2 * k, k, 17 + 2 * k);
   sx_graph(s, "%t_act", "%t_act");
   const double b8 = (double)prod(act, 4), b32 = 4.0 * b8;
   int x = -1;
   for (int blk = 0; blk < 2; blk++) {
      int l = 2 * blk;
      int c1 = sx_op(s, "%t_acc", b32, x, -1,
                     "CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_int32 %%false %s %%w%d %%b%d %%zp "
                     "%%zero_i8",
                     sx_name(x), l, l);
      int q1 = sx_op(s, "%t_act", b8, c1, -1,
                     "RESCALE %%true %%double_round %%true %%false %%false %s %%m%d %%s%d "
                     "%%zero_i32 %%zp",
                     sx_name(c1), l, l);
      int a1 = sx_op(s, "%t_act", b8, q1, -1, "CLAMP %%i8_zp %%i8_127 %%propagate %s",
                     sx_name(q1));
      int c2 = sx_op(s, "%t_acc", b32, a1, -1,
                     "CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_int32 %%false %s %%w%d %%b%d %%zp "
                     "%%zero_i8",
                     sx_name(a1), l + 1, l + 1);
      int r = sx_op(s, "%t_acc", b32, x, -1,
                    "RESCALE %%true %%double_round %%false %%false %%false %s %%rm%d %%rs%d "
                    "%%zp %%zero_i32",
                    sx_name(x), blk, blk);
      int sum = sx_op(s, "%t_acc", b32, c2, r, "ADD %s %s", sx_name(c2), sx_name(r));
      int q2 = sx_op(s, "%t_act", b8, sum, -1,
                     "RESCALE %%true %%double_round %%true %%false %%false %s %%m%d %%s%d "
                     "%%zero_i32 %%zp",
                     sx_name(sum), l + 1, l + 1);
      x = sx_op(s, "%t_act", b8, q2, -1, "CLAMP %%i8_zp %%i8_127 %%propagate %s", sx_name(q2));
   }
   sx_end(s, x);
}

static void
setup_resnet_int8(struct bench_graph *g, int64_t n)
{
   uint64_t rng = SEED ^ (uint64_t)(20 + n);
   const int64_t act[4] = {n, RN_H, RN_W, RN_C}, wshape[4] = {RN_C, 3, 3, RN_C},
                 cshape[1] = {RN_C}, one[1] = {1}, ract[4] = {RN_SAMPLED(n), RN_H, RN_W, RN_C};
   g->what = "2 ResNet basic blocks in int8: 4x CONV2D 3x3 64->64 i8->i32, RESCALE, CLAMP, "
             "residual RESCALE + ADD";
   g->check = BENCH_CHECK_EXACT;
   g->suite = true;
   g->peak_type = BENCH_PEAK_INT8;
   g->macs = 4.0 * (double)prod(act, 4) * 9 * RN_C;
   struct sx s;
   sx_begin(&s, g, true, false, false);
   text_resnet_int8(&s, n);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_I8, 4, act);
   g->input_count = 1;
   g->output = bench_tensor_new(g, REF_DTYPE_I8, 4, act);
   g->want = bench_tensor_new(g, REF_DTYPE_I8, 4, ract);
   struct ref_tensor *zp = bench_tensor_new(g, REF_DTYPE_I8, 1, one);
   struct ref_tensor *zero_i8 = bench_tensor_new(g, REF_DTYPE_I8, 1, one);
   struct ref_tensor *zero_i32 = bench_tensor_new(g, REF_DTYPE_I32, 1, one);
   struct ref_tensor *acc = bench_tensor_new(g, REF_DTYPE_I32, 4, ract);
   struct ref_tensor *res = bench_tensor_new(g, REF_DTYPE_I32, 4, ract);
   struct ref_tensor *sum = bench_tensor_new(g, REF_DTYPE_I32, 4, ract);
   struct ref_tensor *q = bench_tensor_new(g, REF_DTYPE_I8, 4, ract);
   struct ref_tensor *mid = bench_tensor_new(g, REF_DTYPE_I8, 4, ract);
   struct ref_tensor *block = bench_tensor_new(g, REF_DTYPE_I8, 4, ract);
   struct ref_tensor *w[4], *b[4], *m[4], *sh[4], *rm[2], *rs[2];
   for (int l = 0; l < 4; l++) {
      w[l] = bench_tensor_new(g, REF_DTYPE_I8, 4, wshape);
      b[l] = bench_tensor_new(g, REF_DTYPE_I32, 1, cshape);
      m[l] = bench_tensor_new(g, REF_DTYPE_I32, 1, cshape);
      sh[l] = bench_tensor_new(g, REF_DTYPE_I8, 1, cshape);
   }
   for (int k = 0; k < 2; k++) {
      rm[k] = bench_tensor_new(g, REF_DTYPE_I32, 1, one);
      rs[k] = bench_tensor_new(g, REF_DTYPE_I8, 1, one);
   }
   if (g->failed)
      return;
   ref_tensor_set_int(zp, 0, RN_ZP);
   bench_fill_int(g->inputs[0], &rng, -128, 127);
   for (int l = 0; l < 4; l++) {
      bench_fill_int(w[l], &rng, -127, 127);
      bench_fill_int(b[l], &rng, -4096, 4096);
   }
   struct tosa_ref_conv2d_args conv = {
       .pad = {1, 1, 1, 1}, .stride = {1, 1}, .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_INT32};
   struct tosa_ref_rescale_args per_channel = {
       .scale32 = true, .rounding_mode = TOSA_REF_ROUND_DOUBLE, .per_channel = true};
   struct tosa_ref_rescale_args per_tensor = {.scale32 = true,
                                              .rounding_mode = TOSA_REF_ROUND_DOUBLE};
   struct tosa_ref_clamp_args relu = {
       .min_int = RN_ZP, .max_int = 127, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   /* Block by block, calibrating each RESCALE on the reference's own values (of the batches
    * the reference computes). */
   const struct ref_tensor *x = batch_sample(g, g->inputs[0]);
   for (int blk = 0; blk < 2 && !g->failed; blk++) {
      int l = 2 * blk;
      struct ref_tensor *out = blk ? g->want : block;
      if (!bench_ref_ok(g, tosa_ref_conv2d(&conv, x, w[l], b[l], zp, zero_i8, acc), "CONV2D"))
         return;
      bench_calibrate(g, acc, m[l], sh[l]);
      if (g->failed ||
          !bench_ref_ok(g, tosa_ref_rescale(&per_channel, acc, m[l], sh[l], zero_i32, zp, q),
                        "RESCALE") ||
          !bench_ref_ok(g, tosa_ref_clamp(&relu, q, mid), "CLAMP") ||
          !bench_ref_ok(g, tosa_ref_conv2d(&conv, mid, w[l + 1], b[l + 1], zp, zero_i8, acc),
                        "CONV2D"))
         return;
      /* the residual scaled to the accumulator's range: its largest |x - zp| (<= 133) maps to
       * the accumulator's largest value */
      int64_t big = 1;
      for (int64_t i = 0; i < acc->count; i++)
         big = llabs(ref_tensor_get_int(acc, i)) > big ? llabs(ref_tensor_get_int(acc, i)) : big;
      int32_t mult, shift;
      if (!bench_quantize_scale((double)big / 133.0, &mult, &shift)) {
         bench_graph_fail(g, "residual scale out of range");
         return;
      }
      ref_tensor_set_int(rm[blk], 0, mult);
      ref_tensor_set_int(rs[blk], 0, shift);
      if (!bench_ref_ok(g, tosa_ref_rescale(&per_tensor, x, rm[blk], rs[blk], zp, zero_i32, res),
                        "RESCALE") ||
          !bench_ref_ok(g, tosa_ref_add(acc, res, sum), "ADD"))
         return;
      bench_calibrate(g, sum, m[l + 1], sh[l + 1]);
      if (g->failed ||
          !bench_ref_ok(g,
                        tosa_ref_rescale(&per_channel, sum, m[l + 1], sh[l + 1], zero_i32, zp, q),
                        "RESCALE") ||
          !bench_ref_ok(g, tosa_ref_clamp(&relu, q, out), "CLAMP"))
         return;
      x = out;
   }
   for (int l = 0; l < 4; l++) {
      bench_constant(g, 4 * (uint32_t)l, w[l]);
      bench_constant(g, 4 * (uint32_t)l + 1, b[l]);
      bench_constant(g, 4 * (uint32_t)l + 2, m[l]);
      bench_constant(g, 4 * (uint32_t)l + 3, sh[l]);
   }
   for (int k = 0; k < 2; k++) {
      bench_constant(g, 16 + 2 * (uint32_t)k, rm[k]);
      bench_constant(g, 17 + 2 * (uint32_t)k, rs[k]);
   }
}

void
bench_setup_resnet_int8_b1(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "resnet_int8_b1";
   setup_resnet_int8(g, 1);
}

void
bench_setup_resnet_int8_b8(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "resnet_int8_b8";
   setup_resnet_int8(g, 8);
}

/* ---- MobileNetV2 inverted residual, fp32 ----------------------------------------------- */

#define MB_C 24
#define MB_E 144

static void
text_mobilenet(struct sx *s, int64_t n)
{
   const int64_t x[4] = {n, RN_H, RN_W, MB_C}, e[4] = {n, RN_H, RN_W, MB_E},
                 we[4] = {MB_E, 1, 1, MB_C}, wd[4] = {3, 3, MB_E, 1}, wp[4] = {MB_C, 1, 1, MB_E},
                 ce[1] = {MB_E}, cc[1] = {MB_C}, one[1] = {1}, four[1] = {4}, two[1] = {2};
   sx_tensor(s, "t_x", "%float", 4, x);
   sx_tensor(s, "t_e", "%float", 4, e);
   sx_tensor(s, "t_we", "%float", 4, we);
   sx_tensor(s, "t_wd", "%float", 4, wd);
   sx_tensor(s, "t_wp", "%float", 4, wp);
   sx_tensor(s, "t_ce", "%float", 1, ce);
   sx_tensor(s, "t_cc", "%float", 1, cc);
   sx_tensor(s, "t_1", "%float", 1, one);
   sx_tensor(s, "t_i32_4", "%uint", 1, four);
   sx_tensor(s, "t_i32_2", "%uint", 1, two);
   bench_text_printf(s->t, "%%pad_0 = OpConstantComposite %%t_i32_4 %%u0 %%u0 %%u0 %%u0\n"
                           "%%pad_1 = OpConstantComposite %%t_i32_4 %%u1 %%u1 %%u1 %%u1\n"
                           "%%ones_2 = OpConstantComposite %%t_i32_2 %%u1 %%u1\n"
                           "%%zero = OpConstantNull %%t_1\n"
                           "%%f_0 = OpConstant %%float 0\n"
                           "%%f_6 = OpConstant %%float 6\n"
                           "%%acc_fp32 = OpConstant %%uint 3\n"
                           "%%propagate = OpConstant %%uint 1\n"
                           "%%we = OpGraphConstantARM %%t_we 0\n"
                           "%%be = OpGraphConstantARM %%t_ce 1\n"
                           "%%wd = OpGraphConstantARM %%t_wd 2\n"
                           "%%bd = OpGraphConstantARM %%t_ce 3\n"
                           "%%wp = OpGraphConstantARM %%t_wp 4\n"
                           "%%bp = OpGraphConstantARM %%t_cc 5\n");
   sx_graph(s, "%t_x", "%t_x");
   const double xb = 4.0 * (double)prod(x, 4), eb = 4.0 * (double)prod(e, 4);
   int c = sx_op(s, "%t_e", eb, -1, -1,
                 "CONV2D %%pad_0 %%ones_2 %%ones_2 %%acc_fp32 %%false %%n_in %%we %%be %%zero "
                 "%%zero");
   int r = sx_op(s, "%t_e", eb, c, -1, "CLAMP %%f_0 %%f_6 %%propagate %s", sx_name(c));
   int d = sx_op(s, "%t_e", eb, r, -1,
                 "DEPTHWISE_CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_fp32 %%false %s %%wd %%bd "
                 "%%zero %%zero",
                 sx_name(r));
   int r2 = sx_op(s, "%t_e", eb, d, -1, "CLAMP %%f_0 %%f_6 %%propagate %s", sx_name(d));
   int p = sx_op(s, "%t_x", xb, r2, -1,
                 "CONV2D %%pad_0 %%ones_2 %%ones_2 %%acc_fp32 %%false %s %%wp %%bp %%zero %%zero",
                 sx_name(r2));
   int out = sx_op(s, "%t_x", xb, p, -1, "ADD %s %%n_in", sx_name(p));
   sx_end(s, out);
}

static void
setup_mobilenet(struct bench_graph *g, int64_t n)
{
   uint64_t rng = SEED ^ (uint64_t)(30 + n);
   const int64_t x[4] = {n, RN_H, RN_W, MB_C}, e[4] = {n, RN_H, RN_W, MB_E},
                 we[4] = {MB_E, 1, 1, MB_C}, wd[4] = {3, 3, MB_E, 1}, wp[4] = {MB_C, 1, 1, MB_E},
                 ce[1] = {MB_E}, cc[1] = {MB_C}, one[1] = {1};
   g->what = "MobileNetV2 block: CONV2D 1x1 24->144, ReLU6, DEPTHWISE 3x3, ReLU6, CONV2D 1x1 "
             "144->24, residual ADD (fp32)";
   g->check = BENCH_CHECK_RELATIVE;
   g->rtol = 1e-4;
   g->suite = true;
   g->peak_type = BENCH_PEAK_FP32;
   g->macs = (double)n * RN_H * RN_W * ((double)MB_C * MB_E + 9.0 * MB_E + (double)MB_E * MB_C);
   struct sx s;
   sx_begin(&s, g, false, false, false);
   text_mobilenet(&s, n);
   struct ref_tensor *zero = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 4, x);
   g->input_count = 1;
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 4, x);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 4, x);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 4, x);
   struct ref_tensor *proj = bench_tensor_new(g, REF_DTYPE_FP64, 4, x);
   struct ref_tensor *t0 = bench_tensor_new(g, REF_DTYPE_FP32, 4, e);
   struct ref_tensor *t1 = bench_tensor_new(g, REF_DTYPE_FP32, 4, e);
   struct ref_tensor *w_e = bench_tensor_new(g, REF_DTYPE_FP32, 4, we);
   struct ref_tensor *w_d = bench_tensor_new(g, REF_DTYPE_FP32, 4, wd);
   struct ref_tensor *w_p = bench_tensor_new(g, REF_DTYPE_FP32, 4, wp);
   struct ref_tensor *b_e = bench_tensor_new(g, REF_DTYPE_FP32, 1, ce);
   struct ref_tensor *b_d = bench_tensor_new(g, REF_DTYPE_FP32, 1, ce);
   struct ref_tensor *b_p = bench_tensor_new(g, REF_DTYPE_FP32, 1, cc);
   if (g->failed)
      return;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   bench_fill_float(w_e, &rng, -0.25, 0.25);
   bench_fill_float(w_d, &rng, -0.25, 0.25);
   bench_fill_float(w_p, &rng, -0.0625, 0.0625);
   bench_fill_float(b_e, &rng, -0.25, 0.25);
   bench_fill_float(b_d, &rng, -0.25, 0.25);
   bench_fill_float(b_p, &rng, -0.25, 0.25);
   const struct ref_tensor *consts[6] = {w_e, b_e, w_d, b_d, w_p, b_p};
   for (uint32_t i = 0; i < 6; i++)
      bench_constant(g, i, consts[i]);
   struct tosa_ref_conv2d_args pw = {.stride = {1, 1}, .dilation = {1, 1},
                                     .acc_type = TOSA_REF_ACC_FP32};
   struct tosa_ref_conv2d_args pw_bound = pw;
   pw_bound.mode = TOSA_REF_DOT_BOUND;
   struct tosa_ref_conv2d_args dw = pw;
   dw.pad[0] = dw.pad[1] = dw.pad[2] = dw.pad[3] = 1;
   struct tosa_ref_clamp_args relu6 = {
       .min_fp = 0.0, .max_fp = 6.0, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   if (!bench_ref_ok(g, tosa_ref_conv2d(&pw, g->inputs[0], w_e, b_e, zero, zero, t0), "CONV2D") ||
       !bench_ref_ok(g, tosa_ref_clamp(&relu6, t0, t1), "CLAMP") ||
       !bench_ref_ok(g, tosa_ref_depthwise_conv2d(&dw, t1, w_d, b_d, zero, zero, t0),
                     "DEPTHWISE_CONV2D") ||
       !bench_ref_ok(g, tosa_ref_clamp(&relu6, t0, t1), "CLAMP") ||
       !bench_ref_ok(g, tosa_ref_conv2d(&pw, t1, w_p, b_p, zero, zero, proj), "CONV2D") ||
       !bench_ref_ok(g, tosa_ref_conv2d(&pw_bound, t1, w_p, b_p, zero, zero, g->bound),
                     "CONV2D bound"))
      return;
   finish_residual(g, proj, g->bound, g->inputs[0], -INFINITY, INFINITY);
}

void
bench_setup_mobilenet_fp32_b1(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "mobilenet_fp32_b1";
   setup_mobilenet(g, 1);
}

void
bench_setup_mobilenet_fp32_b8(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "mobilenet_fp32_b8";
   setup_mobilenet(g, 8);
}

/* ---- MATMUL ------------------------------------------------------------------------------ */

/* Output rows checked at 4096: every MM_SAMPLE_STRIDE-th (32 rows, 1 G MACs of reference). */
#define MM_SAMPLE_STRIDE 128

/* MATMUL [1,M,K] x [1,K,N], B a graph constant. */
static void
setup_matmul(struct bench_graph *g, int64_t m, int64_t k, int64_t n, enum ref_dtype dtype)
{
   /* The square sizes keep their seeds. */
   uint64_t rng = SEED ^ (uint64_t)(40 + m + (k - m) * 7 + (n - m) * 13 + 1000 * (int64_t)dtype);
   const bool i8 = dtype == REF_DTYPE_I8;
   const enum ref_dtype out_dtype = i8 ? REF_DTYPE_I32 : REF_DTYPE_FP32;
   const char *elem = dtype == REF_DTYPE_FP32   ? "%float"
                      : dtype == REF_DTYPE_FP16 ? "%half"
                      : dtype == REF_DTYPE_BF16 ? "%bf16"
                                                : "%i8";
   const int64_t ad[3] = {1, m, k}, bd[3] = {1, k, n}, od[3] = {1, m, n}, one[1] = {1};
   g->suite = true;
   g->peak_type = dtype == REF_DTYPE_FP32   ? BENCH_PEAK_FP32
                  : dtype == REF_DTYPE_FP16 ? BENCH_PEAK_FP16
                  : dtype == REF_DTYPE_BF16 ? BENCH_PEAK_BF16
                                            : BENCH_PEAK_INT8;
   g->optional = dtype == REF_DTYPE_BF16; /* bf16 tensors need VK_KHR_shader_bfloat16 */
   g->macs = (double)m * k * n;
   g->what = i8                       ? "MATMUL i8 -> i32, B a graph constant"
             : dtype == REF_DTYPE_FP32 ? "MATMUL fp32, B a graph constant"
             : dtype == REF_DTYPE_FP16 ? "MATMUL fp16 -> fp32 (fp32 accumulator), B a graph constant"
                                       : "MATMUL bf16 -> fp32, B a graph constant";
   struct sx s;
   sx_begin(&s, g, i8, dtype == REF_DTYPE_FP16, dtype == REF_DTYPE_BF16);
   sx_tensor(&s, "t_a", elem, 3, ad);
   sx_tensor(&s, "t_b", elem, 3, bd);
   sx_tensor(&s, "t_o", i8 ? "%uint" : "%float", 3, od);
   sx_tensor(&s, "t_z", elem, 1, one);
   bench_text_printf(s.t, "%%zero = OpConstantNull %%t_z\n"
                          "%%b = OpGraphConstantARM %%t_b 0\n");
   sx_graph(&s, "%t_a", "%t_o");
   int mm = sx_op(&s, "%t_o", 4.0 * (double)(m * n), -1, -1, "MATMUL %%n_in %%b %%zero %%zero");
   sx_end(&s, mm);

   /* Reference rows: all at 512, every MM_SAMPLE_STRIDE-th above. */
   const int64_t stride = m > 512 ? MM_SAMPLE_STRIDE : 1;
   const int64_t rows[3] = {1, m / stride, k}, want_rows[3] = {1, m / stride, n};
   g->sample_stride = stride;
   g->sample_dim = 1;
   struct ref_tensor *zero = bench_tensor_new(g, dtype, 1, one);
   g->inputs[0] = bench_tensor_new(g, dtype, 3, ad);
   g->input_count = 1;
   struct ref_tensor *b = bench_tensor_new(g, dtype, 3, bd);
   g->output = bench_tensor_new(g, out_dtype, 3, od);
   struct ref_tensor *a_rows = stride > 1 ? bench_tensor_new(g, dtype, 3, rows) : NULL;
   g->want = bench_tensor_new(g, i8 ? REF_DTYPE_I32 : REF_DTYPE_FP64, 3, want_rows);
   if (!i8)
      g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 3, want_rows);
   if (g->failed)
      return;
   if (i8) {
      bench_fill_int(g->inputs[0], &rng, -128, 127);
      bench_fill_int(b, &rng, -128, 127);
      g->check = BENCH_CHECK_EXACT;
   } else {
      bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
      bench_fill_float(b, &rng, -1.0, 1.0);
      g->check = BENCH_CHECK_DOT;
      g->dot = (struct tosa_ref_dot_check){.out_type = REF_DTYPE_FP32,
                                           .acc_type = REF_DTYPE_FP32,
                                           .ks = k,
                                           .has_bias = true,
                                           .test_set = -1};
   }
   bench_constant(g, 0, b);
   const struct ref_tensor *a = g->inputs[0];
   if (a_rows) {
      size_t row = (size_t)k * ref_dtype_size(dtype);
      for (int64_t r = 0; r < rows[1]; r++)
         memcpy((uint8_t *)a_rows->data + (size_t)r * row,
                (const uint8_t *)a->data + (size_t)(r * stride) * row, row);
      a = a_rows;
   }
   if (dtype == REF_DTYPE_FP16 || dtype == REF_DTYPE_BF16) {
      /* The reference of fp16/bf16 values is that of the same values in fp32 (converting is
       * exact; the reference computes in fp64 either way), and fp32 is read much faster. */
      struct ref_tensor *a32 = bench_tensor_new(g, REF_DTYPE_FP32, 3, a->shape);
      struct ref_tensor *b32 = bench_tensor_new(g, REF_DTYPE_FP32, 3, bd);
      struct ref_tensor *z32 = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
      if (g->failed)
         return;
      for (int64_t i = 0; i < a->count; i++)
         ref_tensor_set_fp(a32, i, ref_tensor_get_fp(a, i));
      for (int64_t i = 0; i < b->count; i++)
         ref_tensor_set_fp(b32, i, ref_tensor_get_fp(b, i));
      a = a32;
      b = b32;
      zero = z32;
   }
   struct tosa_ref_matmul_args result = {.mode = TOSA_REF_DOT_RESULT};
   struct tosa_ref_matmul_args bound = {.mode = TOSA_REF_DOT_BOUND};
   if (bench_ref_ok(g, tosa_ref_matmul(&result, a, b, zero, zero, g->want), "MATMUL") && !i8)
      bench_ref_ok(g, tosa_ref_matmul(&bound, a, b, zero, zero, g->bound), "MATMUL bound");
}

#define MATMUL_SETUP(size, type, dtype)                                                          \
   void bench_setup_matmul##size##_##type(struct bench_graph *g, const struct bench_params *p)  \
   {                                                                                             \
      (void)p;                                                                                   \
      g->name = "matmul" #size "_" #type;                                                        \
      setup_matmul(g, size, size, size, dtype);                                                  \
   }
MATMUL_SETUP(512, fp32, REF_DTYPE_FP32)
MATMUL_SETUP(512, fp16, REF_DTYPE_FP16)
MATMUL_SETUP(512, bf16, REF_DTYPE_BF16)
MATMUL_SETUP(512, i8, REF_DTYPE_I8)
MATMUL_SETUP(4096, fp32, REF_DTYPE_FP32)
MATMUL_SETUP(4096, fp16, REF_DTYPE_FP16)
MATMUL_SETUP(4096, bf16, REF_DTYPE_BF16)
MATMUL_SETUP(4096, i8, REF_DTYPE_I8)

/* Small M and N, long K (split-K's case, D56; not in the suite): [1,64,4096] x [1,4096,64]. */
#define MATMUL_LONG_K_SETUP(type, dtype)                                                         \
   void bench_setup_matmul_64x4096x64_##type(struct bench_graph *g,                              \
                                              const struct bench_params *p)                      \
   {                                                                                             \
      (void)p;                                                                                   \
      g->name = "matmul_64x4096x64_" #type;                                                      \
      setup_matmul(g, 64, 4096, 64, dtype);                                                      \
      g->suite = false;                                                                          \
   }
MATMUL_LONG_K_SETUP(fp32, REF_DTYPE_FP32)
MATMUL_LONG_K_SETUP(fp16, REF_DTYPE_FP16)

/* ---- four branches and a join ------------------------------------------------------------ */

#define BR_COUNT 4

void
bench_setup_branch4_fp32(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   uint64_t rng = SEED ^ 50;
   const int64_t act[4] = {1, RN_H, RN_W, RN_C}, w[4] = {RN_C, 1, 1, RN_C}, c[1] = {RN_C},
                 one[1] = {1}, four[1] = {4}, two[1] = {2};
   g->name = "branch4_fp32";
   g->compare_order = true;
   g->what = "4 branches (CONV2D 1x1 64->64 fp32, ReLU6) joined by 3 ADDs";
   g->check = BENCH_CHECK_RELATIVE;
   g->rtol = 1e-5;
   g->suite = true;
   g->peak_type = BENCH_PEAK_FP32;
   g->macs = BR_COUNT * (double)prod(act, 4) * RN_C;
   struct sx s;
   sx_begin(&s, g, false, false, false);
   sx_tensor(&s, "t_act", "%float", 4, act);
   sx_tensor(&s, "t_w", "%float", 4, w);
   sx_tensor(&s, "t_c", "%float", 1, c);
   sx_tensor(&s, "t_1", "%float", 1, one);
   sx_tensor(&s, "t_i32_4", "%uint", 1, four);
   sx_tensor(&s, "t_i32_2", "%uint", 1, two);
   bench_text_printf(s.t, "%%pad_0 = OpConstantComposite %%t_i32_4 %%u0 %%u0 %%u0 %%u0\n"
                          "%%ones_2 = OpConstantComposite %%t_i32_2 %%u1 %%u1\n"
                          "%%zero = OpConstantNull %%t_1\n"
                          "%%f_0 = OpConstant %%float 0\n"
                          "%%f_6 = OpConstant %%float 6\n"
                          "%%acc_fp32 = OpConstant %%uint 3\n"
                          "%%propagate = OpConstant %%uint 1\n");
   for (int k = 0; k < BR_COUNT; k++)
      bench_text_printf(s.t, "%%w%d = OpGraphConstantARM %%t_w %d\n"
                             "%%b%d = OpGraphConstantARM %%t_c %d\n",
                        k, 2 * k, k, 2 * k + 1);
   sx_graph(&s, "%t_act", "%t_act");
   const double bytes = 4.0 * (double)prod(act, 4);
   int r[BR_COUNT];
   for (int k = 0; k < BR_COUNT; k++) {
      int cv = sx_op(&s, "%t_act", bytes, -1, -1,
                     "CONV2D %%pad_0 %%ones_2 %%ones_2 %%acc_fp32 %%false %%n_in %%w%d %%b%d "
                     "%%zero %%zero",
                     k, k);
      r[k] = sx_op(&s, "%t_act", bytes, cv, -1, "CLAMP %%f_0 %%f_6 %%propagate %s", sx_name(cv));
   }
   int s01 = sx_op(&s, "%t_act", bytes, r[0], r[1], "ADD %s %s", sx_name(r[0]), sx_name(r[1]));
   int s23 = sx_op(&s, "%t_act", bytes, r[2], r[3], "ADD %s %s", sx_name(r[2]), sx_name(r[3]));
   int out = sx_op(&s, "%t_act", bytes, s01, s23, "ADD %s %s", sx_name(s01), sx_name(s23));
   sx_end(&s, out);

   struct ref_tensor *zero = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 4, act);
   g->input_count = 1;
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 4, act);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 4, act);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 4, act);
   struct ref_tensor *conv = bench_tensor_new(g, REF_DTYPE_FP32, 4, act);
   struct ref_tensor *relu = bench_tensor_new(g, REF_DTYPE_FP32, 4, act);
   struct ref_tensor *bnd = bench_tensor_new(g, REF_DTYPE_FP64, 4, act);
   struct ref_tensor *wt[BR_COUNT], *bt[BR_COUNT];
   for (int k = 0; k < BR_COUNT; k++) {
      wt[k] = bench_tensor_new(g, REF_DTYPE_FP32, 4, w);
      bt[k] = bench_tensor_new(g, REF_DTYPE_FP32, 1, c);
   }
   if (g->failed)
      return;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   for (int k = 0; k < BR_COUNT; k++) {
      bench_fill_float(wt[k], &rng, -0.25, 0.25);
      bench_fill_float(bt[k], &rng, -0.25, 0.25);
      bench_constant(g, 2 * (uint32_t)k, wt[k]);
      bench_constant(g, 2 * (uint32_t)k + 1, bt[k]);
   }
   struct tosa_ref_conv2d_args args = {
       .stride = {1, 1}, .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_FP32};
   struct tosa_ref_conv2d_args bound_args = args;
   bound_args.mode = TOSA_REF_DOT_BOUND;
   struct tosa_ref_clamp_args relu6 = {
       .min_fp = 0.0, .max_fp = 6.0, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   /* want: the sum of the branches (each rounded to fp32 as the graph's) in fp64; bound: the
    * sum of the CONV2Ds' bounds (the ADDs round at most 2^-24 of that each) */
   for (int k = 0; k < BR_COUNT; k++) {
      if (!bench_ref_ok(g, tosa_ref_conv2d(&args, g->inputs[0], wt[k], bt[k], zero, zero, conv),
                        "CONV2D") ||
          !bench_ref_ok(g, tosa_ref_clamp(&relu6, conv, relu), "CLAMP") ||
          !bench_ref_ok(g,
                        tosa_ref_conv2d(&bound_args, g->inputs[0], wt[k], bt[k], zero, zero, bnd),
                        "CONV2D bound"))
         return;
      for (int64_t i = 0; i < g->want->count; i++) {
         ref_tensor_set_fp(g->want, i,
                           (k ? ref_tensor_get_fp(g->want, i) : 0.0) + ref_tensor_get_fp(relu, i));
         ref_tensor_set_fp(g->bound, i,
                           (k ? ref_tensor_get_fp(g->bound, i) : 0.0) + ref_tensor_get_fp(bnd, i));
      }
   }
}

