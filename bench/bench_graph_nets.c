/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's conv nets and MATMUL (bench_graph.h): their SPIR-V text,
 * written here and assembled by bench_graph.c with vmel_spirv_text; their
 * input and weights (graph constants), drawn from a fixed seed; the CPU
 * reference of each (tests/reference/tosa_ref.h); the check of a device's
 * output against it (every graph's, bench_graph_ew.c's too), the helpers the
 * graph files share, and the list of graphs. Nothing here calls Vulkan.
 *   conv_fp32    [1,64,64,16] -> three CONV2D 3x3 pad 1, 16 -> 16 channels,
 *                acc FP32, with CLAMP [0, 6] between them;
 *   conv_int8    the same shapes, each layer CONV2D i8 -> i32 (acc INT32,
 *                input zero point 3, then 5), RESCALE i32 -> i8 (per channel,
 *                scale32, DOUBLE_ROUND, output zero point 5; calibrated on the
 *                reference's accumulator), CLAMP [5, 127];
 *   matmul_fp32  [1,512,512] x [1,512,512] -> [1,512,512], B a graph constant.
 * Checks: conv_int8 bit-exact; matmul_fp32 TOSA 1.0.1's dot-product bound
 * (KS 512); conv_fp32 |out - ref| <= BENCH_CONV_FP32_RTOL * bnd per element,
 * ref the reference chain (each CONV2D in fp64 rounded to fp32, CLAMP exact,
 * the last CONV2D unrounded) and bnd the last CONV2D's dot-product bound
 * (sum |x * w| + |bias| over the reference's input): a relative tolerance,
 * since the errors of the first two CONV2Ds are outside the bound of the last.
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d6772) /* "bench-gr" */

/* conv_fp32 / conv_int8: [1, CONV_H, CONV_W, CONV_C], 3x3 kernels, C -> C channels. */
#define CONV_H 64
#define CONV_W 64
#define CONV_C 16
/* matmul_fp32: [1, MM_M, MM_K] x [1, MM_K, MM_N]. */
#define MM_M 512
#define MM_K 512
#define MM_N 512

/* ---- small helpers -------------------------------------------------------------------------- */

void
bench_text_printf(struct bench_text *t, const char *fmt, ...)
{
   for (;;) {
      va_list ap;
      va_start(ap, fmt);
      int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
      va_end(ap);
      if (n < 0 || t->failed) {
         t->failed = true;
         return;
      }
      if (t->s && t->len + (size_t)n < t->cap) {
         t->len += (size_t)n;
         return;
      }
      size_t cap = (t->cap ? t->cap * 2 : 4096) + (size_t)n;
      char *s = realloc(t->s, cap);
      if (!s) {
         t->failed = true;
         return;
      }
      t->s = s;
      t->cap = cap;
   }
}

void
bench_text_header(struct bench_text *t, const char *capabilities, uint32_t bindings)
{
   bench_text_printf(t, "OpCapability Shader\n"
                        "OpCapability VulkanMemoryModel\n"
                        "OpCapability TensorsARM\n"
                        "OpCapability GraphARM\n"
                        "%s"
                        "OpExtension \"SPV_ARM_tensors\"\n"
                        "OpExtension \"SPV_ARM_graph\"\n"
                        "%%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                        "OpMemoryModel Logical Vulkan\n",
                     capabilities ? capabilities : "");
   for (uint32_t i = 0; i < bindings; i++)
      bench_text_printf(t, "OpDecorate %%v%u DescriptorSet 0\nOpDecorate %%v%u Binding %u\n", i, i,
                        i);
}

uint64_t
bench_rng_next(uint64_t *state)
{
   uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
   z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
   z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
   return z ^ (z >> 31);
}

void
bench_fill_int(struct ref_tensor *t, uint64_t *rng, int64_t lo, int64_t hi)
{
   uint64_t span = (uint64_t)(hi - lo) + 1;
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_int(t, i, lo + (int64_t)(bench_rng_next(rng) % span));
}

void
bench_fill_float(struct ref_tensor *t, uint64_t *rng, double lo, double hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_fp(t, i, lo + (hi - lo) * (double)(bench_rng_next(rng) >> 40) * 0x1p-24);
}

/* scale = multiplier * 2^-shift with multiplier in [2^30, 2^31) (TOSA's scale32 form). */
bool
bench_quantize_scale(double scale, int32_t *multiplier, int32_t *shift)
{
   int s = 0;
   double m = frexp(scale, &s);
   int64_t q = llround(m * 0x1p31);
   if (q == (INT64_C(1) << 31)) {
      q >>= 1;
      s++;
   }
   *multiplier = (int32_t)q;
   *shift = 31 - s;
   return *shift >= 2 && *shift <= 62;
}

VkFormat
bench_ref_format(enum ref_dtype dtype)
{
   switch (dtype) {
   case REF_DTYPE_I8:
      return VK_FORMAT_R8_SINT;
   case REF_DTYPE_I32:
      return VK_FORMAT_R32_SINT;
   case REF_DTYPE_FP16:
      return VK_FORMAT_R16_SFLOAT;
   case REF_DTYPE_BF16:
      return VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM;
   case REF_DTYPE_FP32:
      return VK_FORMAT_R32_SFLOAT;
   default:
      return VK_FORMAT_UNDEFINED;
   }
}

void
bench_graph_fail(struct bench_graph *g, const char *fmt, ...)
{
   if (g->failed)
      return;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(g->why, sizeof(g->why), fmt, ap);
   va_end(ap);
   g->failed = true;
}

struct ref_tensor *
bench_tensor_new(struct bench_graph *g, enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   struct ref_tensor *t =
       g->owned_count < BENCH_MAX_OWNED ? ref_tensor_create(dtype, rank, shape) : NULL;
   if (!t) {
      bench_graph_fail(g, "out of memory");
      return NULL;
   }
   g->owned[g->owned_count++] = t;
   return t;
}

static struct ref_tensor *
graph_scalar_int(struct bench_graph *g, enum ref_dtype dtype, int64_t v)
{
   static const int64_t one[1] = {1};
   struct ref_tensor *t = bench_tensor_new(g, dtype, 1, one);
   if (t)
      ref_tensor_set_int(t, 0, v);
   return t;
}

void
bench_graph_finish(struct bench_graph *g)
{
   for (uint32_t i = 0; i < g->owned_count; i++)
      ref_tensor_destroy(g->owned[i]);
   g->owned_count = 0;
   free(g->text.s);
   g->text.s = NULL;
}

bool
bench_ref_ok(struct bench_graph *g, int status, const char *op)
{
   if (status == TOSA_REF_OK)
      return true;
   bench_graph_fail(g, "reference %s: %s: %s", op, tosa_ref_status_name(status),
                    tosa_ref_last_message());
   return false;
}

void
bench_constant(struct bench_graph *g, uint32_t id, const struct ref_tensor *t)
{
   if (!t || g->constant_count == BENCH_MAX_CONSTANTS) {
      bench_graph_fail(g, "graph constant %u missing", id);
      return;
   }
   struct graph_constant *c = &g->constants[g->constant_count++];
   *c = (struct graph_constant){
       .id = id, .format = bench_ref_format(t->dtype), .rank = t->rank, .data = t->data};
   for (uint32_t i = 0; i < t->rank; i++)
      c->dims[i] = t->shape[i];
}

/* ---- SPIR-V text -------------------------------------------------------------------------- */

/* Capabilities, the TOSA import, the memory model, the input at (0, 0) and the output at
 * (0, 1), and the scalar types. */
static void
text_head(struct bench_text *t, bool int8)
{
   bench_text_printf(t,
                     "OpCapability Shader\n"
                     "OpCapability VulkanMemoryModel\n"
                     "%s"
                     "OpCapability TensorsARM\n"
                     "OpCapability GraphARM\n"
                     "OpExtension \"SPV_ARM_tensors\"\n"
                     "OpExtension \"SPV_ARM_graph\"\n"
                     "%%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                     "OpMemoryModel Logical Vulkan\n"
                     "OpName %%in_var \"input\"\n"
                     "OpName %%out_var \"output\"\n"
                     "OpDecorate %%in_var DescriptorSet 0\n"
                     "OpDecorate %%in_var Binding 0\n"
                     "OpDecorate %%out_var DescriptorSet 0\n"
                     "OpDecorate %%out_var Binding 1\n"
                     "%%bool = OpTypeBool\n"
                     "%s"
                     "%%uint = OpTypeInt 32 0\n"
                     "%%float = OpTypeFloat 32\n"
                     "%%true = OpConstantTrue %%bool\n"
                     "%%false = OpConstantFalse %%bool\n"
                     "%%propagate = OpConstant %%uint 1\n",
                     int8 ? "OpCapability Int8\n" : "", int8 ? "%i8 = OpTypeInt 8 0\n" : "");
}

/* `%u<v> = OpConstant %uint v` once for each distinct value (1, 3 and 4 among them), then the
 * shape array types %dim1, %dim3, %dim4. */
static void
text_uints(struct bench_text *t, const uint32_t *values, uint32_t count)
{
   for (uint32_t i = 0; i < count; i++) {
      bool seen = false;
      for (uint32_t j = 0; j < i; j++)
         seen |= values[j] == values[i];
      if (!seen)
         bench_text_printf(t, "%%u%u = OpConstant %%uint %u\n", values[i], values[i]);
   }
   bench_text_printf(t, "%%dim1 = OpTypeArray %%uint %%u1\n"
                        "%%dim3 = OpTypeArray %%uint %%u3\n"
                        "%%dim4 = OpTypeArray %%uint %%u4\n");
}

/* The shapes and attribute tensors both conv nets use; %t_act_in is the input element's
 * tensor type, declared by the caller with %shape_act. */
static void
text_conv_common(struct bench_text *t)
{
   const uint32_t u[] = {0, 1, 2, 3, 4, CONV_H, CONV_W, CONV_C};
   text_uints(t, u, sizeof(u) / sizeof(u[0]));
   bench_text_printf(t,
                     "%%shape_act = OpConstantComposite %%dim4 %%u1 %%u%u %%u%u %%u%u\n"
                     "%%shape_w = OpConstantComposite %%dim4 %%u%u %%u3 %%u3 %%u%u\n"
                     "%%shape_1 = OpConstantComposite %%dim1 %%u1\n"
                     "%%shape_2 = OpConstantComposite %%dim1 %%u2\n"
                     "%%shape_4 = OpConstantComposite %%dim1 %%u4\n"
                     "%%shape_c = OpConstantComposite %%dim1 %%u%u\n"
                     "%%t_i32_2 = OpTypeTensorARM %%uint %%u1 %%shape_2\n"
                     "%%t_i32_4 = OpTypeTensorARM %%uint %%u1 %%shape_4\n"
                     "%%pad_1 = OpConstantComposite %%t_i32_4 %%u1 %%u1 %%u1 %%u1\n"
                     "%%ones_2 = OpConstantComposite %%t_i32_2 %%u1 %%u1\n",
                     CONV_H, CONV_W, CONV_C, CONV_C, CONV_C, CONV_C);
}

static void
text_conv_fp32(struct bench_text *t)
{
   text_head(t, false);
   text_conv_common(t);
   bench_text_printf(t, "%%float_0 = OpConstant %%float 0\n"
                        "%%float_6 = OpConstant %%float 6\n"
                        "%%acc_fp32 = OpConstant %%uint 3\n"
                        "%%t_act = OpTypeTensorARM %%float %%u4 %%shape_act\n"
                        "%%t_w = OpTypeTensorARM %%float %%u4 %%shape_w\n"
                        "%%t_f32_1 = OpTypeTensorARM %%float %%u1 %%shape_1\n"
                        "%%t_f32_c = OpTypeTensorARM %%float %%u1 %%shape_c\n"
                        "%%zero_f32 = OpConstantNull %%t_f32_1\n"
                        "%%ptr = OpTypePointer UniformConstant %%t_act\n"
                        "%%in_var = OpVariable %%ptr UniformConstant\n"
                        "%%out_var = OpVariable %%ptr UniformConstant\n");
   for (int l = 0; l < 3; l++)
      bench_text_printf(t,
                        "%%w%d = OpGraphConstantARM %%t_w %d\n"
                        "%%b%d = OpGraphConstantARM %%t_f32_c %d\n",
                        l, 2 * l, l, 2 * l + 1);
   bench_text_printf(t, "%%graph_type = OpTypeGraphARM 1 %%t_act %%t_act\n"
                        "OpGraphEntryPointARM %%graph \"main\" %%in_var %%out_var\n"
                        "%%graph = OpGraphARM %%graph_type\n"
                        "%%x0 = OpGraphInputARM %%t_act %%u0\n");
   for (int l = 0; l < 3; l++) {
      bench_text_printf(
          t,
          "%%c%d = OpExtInst %%t_act %%tosa CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_fp32 "
          "%%false %%x%d %%w%d %%b%d %%zero_f32 %%zero_f32\n",
          l, l, l, l);
      if (l < 2)
         bench_text_printf(t,
                           "%%x%d = OpExtInst %%t_act %%tosa CLAMP %%float_0 %%float_6 %%propagate "
                           "%%c%d\n",
                           l + 1, l);
   }
   bench_text_printf(t, "OpGraphSetOutputARM %%c2 %%u0\n"
                        "OpGraphEndARM\n");
}

static void
text_conv_int8(struct bench_text *t)
{
   text_head(t, true);
   text_conv_common(t);
   bench_text_printf(t, "%%i8_3 = OpConstant %%i8 3\n"
                        "%%i8_5 = OpConstant %%i8 5\n"
                        "%%i8_127 = OpConstant %%i8 127\n"
                        "%%acc_int32 = OpConstant %%uint 1\n"
                        "%%double_round = OpConstant %%uint 3\n"
                        "%%t_act = OpTypeTensorARM %%i8 %%u4 %%shape_act\n"
                        "%%t_acc = OpTypeTensorARM %%uint %%u4 %%shape_act\n"
                        "%%t_w = OpTypeTensorARM %%i8 %%u4 %%shape_w\n"
                        "%%t_i32_1 = OpTypeTensorARM %%uint %%u1 %%shape_1\n"
                        "%%t_i32_c = OpTypeTensorARM %%uint %%u1 %%shape_c\n"
                        "%%t_i8_1 = OpTypeTensorARM %%i8 %%u1 %%shape_1\n"
                        "%%t_i8_c = OpTypeTensorARM %%i8 %%u1 %%shape_c\n"
                        "%%input_zp = OpConstantComposite %%t_i8_1 %%i8_3\n"
                        "%%act_zp = OpConstantComposite %%t_i8_1 %%i8_5\n"
                        "%%zero_i8 = OpConstantNull %%t_i8_1\n"
                        "%%zero_i32 = OpConstantNull %%t_i32_1\n"
                        "%%ptr = OpTypePointer UniformConstant %%t_act\n"
                        "%%in_var = OpVariable %%ptr UniformConstant\n"
                        "%%out_var = OpVariable %%ptr UniformConstant\n");
   for (int l = 0; l < 3; l++)
      bench_text_printf(t,
                        "%%w%d = OpGraphConstantARM %%t_w %d\n"
                        "%%b%d = OpGraphConstantARM %%t_i32_c %d\n"
                        "%%m%d = OpGraphConstantARM %%t_i32_c %d\n"
                        "%%s%d = OpGraphConstantARM %%t_i8_c %d\n",
                        l, 4 * l, l, 4 * l + 1, l, 4 * l + 2, l, 4 * l + 3);
   bench_text_printf(t, "%%graph_type = OpTypeGraphARM 1 %%t_act %%t_act\n"
                        "OpGraphEntryPointARM %%graph \"main\" %%in_var %%out_var\n"
                        "%%graph = OpGraphARM %%graph_type\n"
                        "%%x0 = OpGraphInputARM %%t_act %%u0\n");
   for (int l = 0; l < 3; l++)
      bench_text_printf(
          t,
          "%%c%d = OpExtInst %%t_acc %%tosa CONV2D %%pad_1 %%ones_2 %%ones_2 %%acc_int32 "
          "%%false %%x%d %%w%d %%b%d %s %%zero_i8\n"
          "%%q%d = OpExtInst %%t_act %%tosa RESCALE %%true %%double_round %%true %%false "
          "%%false %%c%d %%m%d %%s%d %%zero_i32 %%act_zp\n"
          "%%x%d = OpExtInst %%t_act %%tosa CLAMP %%i8_5 %%i8_127 %%propagate %%q%d\n",
          l, l, l, l, l ? "%act_zp" : "%input_zp", l, l, l, l, l + 1, l);
   bench_text_printf(t, "OpGraphSetOutputARM %%x3 %%u0\n"
                        "OpGraphEndARM\n");
}

static void
text_matmul_fp32(struct bench_text *t)
{
   text_head(t, false);
   const uint32_t u[] = {0, 1, 3, 4, MM_M, MM_K, MM_N};
   text_uints(t, u, sizeof(u) / sizeof(u[0]));
   /* With M == K == N the three tensor types are one type: declared once. */
   const bool square = MM_M == MM_K && MM_K == MM_N;
   bench_text_printf(t,
                     "%%shape_1 = OpConstantComposite %%dim1 %%u1\n"
                     "%%shape_a = OpConstantComposite %%dim3 %%u1 %%u%u %%u%u\n"
                     "%%t_a = OpTypeTensorARM %%float %%u3 %%shape_a\n",
                     MM_M, MM_K);
   if (!square)
      bench_text_printf(t,
                        "%%shape_b = OpConstantComposite %%dim3 %%u1 %%u%u %%u%u\n"
                        "%%shape_o = OpConstantComposite %%dim3 %%u1 %%u%u %%u%u\n"
                        "%%t_b = OpTypeTensorARM %%float %%u3 %%shape_b\n"
                        "%%t_o = OpTypeTensorARM %%float %%u3 %%shape_o\n",
                        MM_K, MM_N, MM_M, MM_N);
   const char *tb = square ? "%t_a" : "%t_b", *to = square ? "%t_a" : "%t_o";
   bench_text_printf(t,
                     "%%t_f32_1 = OpTypeTensorARM %%float %%u1 %%shape_1\n"
                     "%%zero_f32 = OpConstantNull %%t_f32_1\n"
                     "%%ptr_a = OpTypePointer UniformConstant %%t_a\n"
                     "%s"
                     "%%in_var = OpVariable %%ptr_a UniformConstant\n"
                     "%%out_var = OpVariable %s UniformConstant\n"
                     "%%b = OpGraphConstantARM %s 0\n"
                     "%%graph_type = OpTypeGraphARM 1 %%t_a %s\n"
                     "OpGraphEntryPointARM %%graph \"main\" %%in_var %%out_var\n"
                     "%%graph = OpGraphARM %%graph_type\n"
                     "%%a = OpGraphInputARM %%t_a %%u0\n"
                     "%%mm = OpExtInst %s %%tosa MATMUL %%a %%b %%zero_f32 %%zero_f32\n"
                     "OpGraphSetOutputARM %%mm %%u0\n"
                     "OpGraphEndARM\n",
                     square ? "" : "%ptr_o = OpTypePointer UniformConstant %t_o\n",
                     square ? "%ptr_a" : "%ptr_o", tb, to, to);
}

/* ---- the graphs' data and references -------------------------------------------------------- */

static const int64_t conv_act_shape[4] = {1, CONV_H, CONV_W, CONV_C};
static const int64_t conv_w_shape[4] = {CONV_C, 3, 3, CONV_C};
static const int64_t conv_c_shape[1] = {CONV_C};

static void
setup_conv_fp32(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   uint64_t rng = SEED ^ 1;
   static const int64_t one[1] = {1};
   g->name = "conv_fp32";
   g->what = "3x (CONV2D 3x3 fp32) with CLAMP between";
   g->check = BENCH_CHECK_RELATIVE;
   g->macs = 3.0 * CONV_H * CONV_W * CONV_C * 9 * CONV_C;
   text_conv_fp32(&g->text);
   struct ref_tensor *zero = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 4, conv_act_shape);
   g->input_count = 1;
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 4, conv_act_shape);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 4, conv_act_shape);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 4, conv_act_shape);
   struct ref_tensor *conv = bench_tensor_new(g, REF_DTYPE_FP32, 4, conv_act_shape);
   struct ref_tensor *act[2] = {bench_tensor_new(g, REF_DTYPE_FP32, 4, conv_act_shape),
                                bench_tensor_new(g, REF_DTYPE_FP32, 4, conv_act_shape)};
   struct ref_tensor *w[3], *b[3];
   for (int l = 0; l < 3; l++) {
      w[l] = bench_tensor_new(g, REF_DTYPE_FP32, 4, conv_w_shape);
      b[l] = bench_tensor_new(g, REF_DTYPE_FP32, 1, conv_c_shape);
   }
   if (g->failed)
      return;
   /* Weights in [-1/4, 1/4) keep each CONV2D's results around [-4, 4], across both sides
    * of ReLU6's [0, 6]. */
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   for (int l = 0; l < 3; l++) {
      bench_fill_float(w[l], &rng, -0.25, 0.25);
      bench_fill_float(b[l], &rng, -0.25, 0.25);
      bench_constant(g, 2 * (uint32_t)l, w[l]);
      bench_constant(g, 2 * (uint32_t)l + 1, b[l]);
   }
   struct tosa_ref_conv2d_args args = {
       .pad = {1, 1, 1, 1}, .stride = {1, 1}, .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_FP32};
   struct tosa_ref_conv2d_args bound_args = args;
   bound_args.mode = TOSA_REF_DOT_BOUND;
   struct tosa_ref_clamp_args relu6 = {
       .min_fp = 0.0, .max_fp = 6.0, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   const struct ref_tensor *x = g->inputs[0];
   for (int l = 0; l < 2 && !g->failed; l++) {
      if (bench_ref_ok(g, tosa_ref_conv2d(&args, x, w[l], b[l], zero, zero, conv), "CONV2D") &&
          bench_ref_ok(g, tosa_ref_clamp(&relu6, conv, act[l]), "CLAMP"))
         x = act[l];
   }
   if (!g->failed &&
       bench_ref_ok(g, tosa_ref_conv2d(&args, x, w[2], b[2], zero, zero, g->want), "CONV2D"))
      bench_ref_ok(g, tosa_ref_conv2d(&bound_args, x, w[2], b[2], zero, zero, g->bound),
                   "CONV2D bound");
}

/* Per-channel requantization of an accumulator: channel c's largest |value| maps to 150, so
 * the largest values saturate at 127 (as vmel-run's int8 example). */
void
bench_calibrate(struct bench_graph *g, const struct ref_tensor *acc, struct ref_tensor *mult,
          struct ref_tensor *shift)
{
   int64_t oc = acc->shape[3];
   for (int64_t c = 0; c < oc; c++) {
      int64_t m = 1;
      for (int64_t i = c; i < acc->count; i += oc) {
         int64_t v = llabs(ref_tensor_get_int(acc, i));
         m = v > m ? v : m;
      }
      int32_t multiplier, s;
      if (!bench_quantize_scale(150.0 / (double)m, &multiplier, &s))
         bench_graph_fail(g, "channel %" PRId64 ": scale out of range", c);
      ref_tensor_set_int(mult, c, multiplier);
      ref_tensor_set_int(shift, c, s);
   }
}

static void
setup_conv_int8(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   uint64_t rng = SEED ^ 2;
   g->name = "conv_int8";
   g->what = "3x (CONV2D 3x3 i8->i32, RESCALE i32->i8, CLAMP)";
   g->check = BENCH_CHECK_EXACT;
   g->macs = 3.0 * CONV_H * CONV_W * CONV_C * 9 * CONV_C;
   text_conv_int8(&g->text);
   struct ref_tensor *input_zp = graph_scalar_int(g, REF_DTYPE_I8, 3);
   struct ref_tensor *act_zp = graph_scalar_int(g, REF_DTYPE_I8, 5);
   struct ref_tensor *zero_i8 = graph_scalar_int(g, REF_DTYPE_I8, 0);
   struct ref_tensor *zero_i32 = graph_scalar_int(g, REF_DTYPE_I32, 0);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_I8, 4, conv_act_shape);
   g->input_count = 1;
   g->output = bench_tensor_new(g, REF_DTYPE_I8, 4, conv_act_shape);
   g->want = bench_tensor_new(g, REF_DTYPE_I8, 4, conv_act_shape);
   struct ref_tensor *acc = bench_tensor_new(g, REF_DTYPE_I32, 4, conv_act_shape);
   struct ref_tensor *scaled = bench_tensor_new(g, REF_DTYPE_I8, 4, conv_act_shape);
   struct ref_tensor *act[2] = {bench_tensor_new(g, REF_DTYPE_I8, 4, conv_act_shape),
                                bench_tensor_new(g, REF_DTYPE_I8, 4, conv_act_shape)};
   struct ref_tensor *w[3], *b[3], *m[3], *s[3];
   for (int l = 0; l < 3; l++) {
      w[l] = bench_tensor_new(g, REF_DTYPE_I8, 4, conv_w_shape);
      b[l] = bench_tensor_new(g, REF_DTYPE_I32, 1, conv_c_shape);
      m[l] = bench_tensor_new(g, REF_DTYPE_I32, 1, conv_c_shape);
      s[l] = bench_tensor_new(g, REF_DTYPE_I8, 1, conv_c_shape);
   }
   if (g->failed)
      return;
   bench_fill_int(g->inputs[0], &rng, -128, 127);
   for (int l = 0; l < 3; l++) {
      bench_fill_int(w[l], &rng, -127, 127);
      bench_fill_int(b[l], &rng, -4096, 4096);
   }
   struct tosa_ref_conv2d_args conv = {
       .pad = {1, 1, 1, 1}, .stride = {1, 1}, .dilation = {1, 1}, .acc_type = TOSA_REF_ACC_INT32};
   struct tosa_ref_rescale_args rescale = {
       .scale32 = true, .rounding_mode = TOSA_REF_ROUND_DOUBLE, .per_channel = true};
   struct tosa_ref_clamp_args relu = {
       .min_int = 5, .max_int = 127, .nan_mode = TOSA_REF_NAN_PROPAGATE};
   /* Layer by layer, calibrating each RESCALE on the reference's own accumulator. */
   const struct ref_tensor *x = g->inputs[0];
   for (int l = 0; l < 3 && !g->failed; l++) {
      struct ref_tensor *out = l < 2 ? act[l] : g->want;
      if (!bench_ref_ok(g,
                        tosa_ref_conv2d(&conv, x, w[l], b[l], l ? act_zp : input_zp, zero_i8, acc),
                        "CONV2D"))
         break;
      bench_calibrate(g, acc, m[l], s[l]);
      if (g->failed ||
          !bench_ref_ok(g, tosa_ref_rescale(&rescale, acc, m[l], s[l], zero_i32, act_zp, scaled),
                        "RESCALE") ||
          !bench_ref_ok(g, tosa_ref_clamp(&relu, scaled, out), "CLAMP"))
         break;
      x = out;
   }
   for (int l = 0; l < 3; l++) {
      bench_constant(g, 4 * (uint32_t)l, w[l]);
      bench_constant(g, 4 * (uint32_t)l + 1, b[l]);
      bench_constant(g, 4 * (uint32_t)l + 2, m[l]);
      bench_constant(g, 4 * (uint32_t)l + 3, s[l]);
   }
}

static void
setup_matmul_fp32(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   uint64_t rng = SEED ^ 3;
   static const int64_t one[1] = {1};
   static const int64_t a_shape[3] = {1, MM_M, MM_K}, b_shape[3] = {1, MM_K, MM_N},
                        o_shape[3] = {1, MM_M, MM_N};
   g->name = "matmul_fp32";
   g->what = "MATMUL fp32, B a graph constant";
   g->check = BENCH_CHECK_DOT;
   g->dot = (struct tosa_ref_dot_check){.out_type = REF_DTYPE_FP32,
                                        .acc_type = REF_DTYPE_FP32,
                                        .ks = MM_K,
                                        .has_bias = true,
                                        .test_set = -1};
   g->macs = (double)MM_M * MM_N * MM_K;
   text_matmul_fp32(&g->text);
   struct ref_tensor *zero = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 3, a_shape);
   g->input_count = 1;
   struct ref_tensor *b = bench_tensor_new(g, REF_DTYPE_FP32, 3, b_shape);
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 3, o_shape);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 3, o_shape);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 3, o_shape);
   if (g->failed)
      return;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   bench_fill_float(b, &rng, -1.0, 1.0);
   bench_constant(g, 0, b);
   struct tosa_ref_matmul_args result = {.mode = TOSA_REF_DOT_RESULT};
   struct tosa_ref_matmul_args bound = {.mode = TOSA_REF_DOT_BOUND};
   if (bench_ref_ok(g, tosa_ref_matmul(&result, g->inputs[0], b, zero, zero, g->want), "MATMUL"))
      bench_ref_ok(g, tosa_ref_matmul(&bound, g->inputs[0], b, zero, zero, g->bound),
                   "MATMUL bound");
}

/* The part of g->output that g->want holds: every g->sample_stride-th index of dimension
 * g->sample_dim; NULL when out of memory. */
static struct ref_tensor *
sampled_rows(const struct bench_graph *g)
{
   const struct ref_tensor *out = g->output;
   const uint32_t dim = g->sample_dim;
   struct ref_tensor *t = ref_tensor_create(out->dtype, g->want->rank, g->want->shape);
   if (!t)
      return NULL;
   size_t inner = ref_dtype_size(out->dtype);
   for (uint32_t d = dim + 1; d < out->rank; d++)
      inner *= (size_t)out->shape[d];
   int64_t outer = 1;
   for (uint32_t d = 0; d < dim; d++)
      outer *= out->shape[d];
   const int64_t rows = g->want->shape[dim];
   for (int64_t o = 0; o < outer; o++)
      for (int64_t r = 0; r < rows; r++)
         memcpy((uint8_t *)t->data + (size_t)(o * rows + r) * inner,
                (const uint8_t *)out->data +
                    (size_t)(o * out->shape[dim] + r * g->sample_stride) * inner,
                inner);
   return t;
}

static bool check_output(struct bench_graph *g, const struct ref_tensor *got);

bool
bench_graph_check(struct bench_graph *g)
{
   if (g->sample_stride <= 1)
      return check_output(g, g->output);
   struct ref_tensor *rows = sampled_rows(g);
   if (!rows) {
      snprintf(g->check_text, sizeof(g->check_text), "cannot be checked: out of memory");
      return false;
   }
   bool ok = check_output(g, rows);
   ref_tensor_destroy(rows);
   if (ok) {
      size_t n = strlen(g->check_text);
      snprintf(g->check_text + n, sizeof(g->check_text) - n,
               "; indices 0, %" PRId64 "... (%" PRId64 " of %" PRId64 ") of dimension %u",
               g->sample_stride, g->want->shape[g->sample_dim],
               g->output->shape[g->sample_dim], g->sample_dim);
   }
   return ok;
}

/* got: g->output, or its sampled rows. */
static bool
check_output(struct bench_graph *g, const struct ref_tensor *got)
{
   if (g->check == BENCH_CHECK_EXACT || g->check == BENCH_CHECK_BITS) {
      const bool bits = g->check == BENCH_CHECK_BITS;
      int64_t bad = 0, first = -1;
      for (int64_t i = 0; i < got->count; i++) {
         bool same = bits ? ref_tensor_get_bits(got, i) == ref_tensor_get_bits(g->want, i)
                          : ref_tensor_get_int(got, i) == ref_tensor_get_int(g->want, i);
         if (!same) {
            first = first < 0 ? i : first;
            bad++;
         }
      }
      if (bad && bits)
         snprintf(g->check_text, sizeof(g->check_text),
                  "%" PRId64 " of %" PRId64 " values differ (first at offset %" PRId64
                  ": expected bits 0x%" PRIx64 ", got 0x%" PRIx64 ")",
                  bad, got->count, first, ref_tensor_get_bits(g->want, first),
                  ref_tensor_get_bits(got, first));
      else if (bad)
         snprintf(g->check_text, sizeof(g->check_text),
                  "%" PRId64 " of %" PRId64 " values differ (first at offset %" PRId64
                  ": expected %" PRId64 ", got %" PRId64 ")",
                  bad, got->count, first, ref_tensor_get_int(g->want, first),
                  ref_tensor_get_int(got, first));
      else
         snprintf(g->check_text, sizeof(g->check_text), "bit-exact (%" PRId64 " values)",
                  got->count);
      return !bad;
   }
   if (g->check == BENCH_CHECK_RELATIVE) {
      const double rtol = g->rtol > 0 ? g->rtol : BENCH_CONV_FP32_RTOL;
      double worst = 0;
      int64_t bad = 0, first = -1;
      for (int64_t i = 0; i < got->count; i++) {
         double v = ref_tensor_get_fp(got, i), want = ref_tensor_get_fp(g->want, i);
         double bnd = fmax(ref_tensor_get_fp(g->bound, i), FLT_MIN);
         double e = isfinite(v) ? fabs(v - want) / bnd : INFINITY;
         worst = fmax(worst, e);
         if (!(e <= rtol)) {
            first = first < 0 ? i : first;
            bad++;
         }
      }
      if (bad)
         snprintf(g->check_text, sizeof(g->check_text),
                  "%" PRId64 " of %" PRId64 " values outside |err| <= %.0e * bound (first at "
                  "offset %" PRId64 ": expected %.9g, got %.9g)",
                  bad, got->count, rtol, first, ref_tensor_get_fp(g->want, first),
                  ref_tensor_get_fp(got, first));
      else
         snprintf(g->check_text, sizeof(g->check_text),
                  "within |err| <= %.0e * dot-product bound (%" PRId64 " values, max %.2g)",
                  rtol, got->count, worst);
      return !bad;
   }
   if (g->check == BENCH_CHECK_BOUND) {
      struct tosa_ref_check_report rep;
      if (tosa_ref_check_tensor_bound(got, g->want, g->bound, &rep) != TOSA_REF_OK) {
         snprintf(g->check_text, sizeof(g->check_text), "cannot be checked: %s",
                  tosa_ref_last_message());
         return false;
      }
      if (rep.pass)
         snprintf(g->check_text, sizeof(g->check_text),
                  "within the operator's TOSA error bound (%" PRId64 " values)", got->count);
      else
         snprintf(g->check_text, sizeof(g->check_text),
                  "%" PRId64 " of %" PRId64 " values outside the operator's TOSA error bound "
                  "(first at offset %" PRId64 ")",
                  rep.failures, got->count, rep.first_failure);
      return rep.pass;
   }
   struct tosa_ref_dot_report rep;
   if (tosa_ref_check_dot_product(&g->dot, got, g->want, g->bound, &rep) != TOSA_REF_OK) {
      snprintf(g->check_text, sizeof(g->check_text), "cannot be checked: %s",
               tosa_ref_last_message());
      return false;
   }
   snprintf(g->check_text, sizeof(g->check_text),
            "%s the TOSA dot-product bound (KS %" PRId64 "): max normalized error %.3g (limit "
            "%.0f), sum of squares %.3g (limit %.3g)",
            rep.pass ? "within" : "OUTSIDE", g->dot.ks, rep.max_abs_err, rep.abs_bound,
            rep.err_sumsq, rep.variance_bound);
   return rep.pass;
}

const struct bench_graph_def bench_graph_defs[BENCH_GRAPH_COUNT] = {
    {"conv_fp32", setup_conv_fp32},
    {"conv_int8", setup_conv_int8},
    {"matmul_fp32", setup_matmul_fp32},
    {"add_fp32", bench_setup_add_fp32},
    {"mul_fp16", bench_setup_mul_fp16},
    {"table_i8", bench_setup_table_i8},
    {"cast_fp32_fp16", bench_setup_cast_fp32_fp16},
    {"transpose_0213", bench_setup_transpose_0213},
    {"transpose_0312", bench_setup_transpose_0312},
    {"transpose_0312_edge", bench_setup_transpose_0312_edge},
    {"resize_bilinear_fp16", bench_setup_resize_bilinear_fp16},
    {"reduce_sum_axis0", bench_setup_reduce_sum_axis0},
    {"reduce_sum_axis1", bench_setup_reduce_sum_axis1},
    {"reduce_sum_axis2", bench_setup_reduce_sum_axis2},
    {"gather_fp16", bench_setup_gather_fp16},
    {"dwconv_fp16", bench_setup_dwconv_fp16},
    {"tconv_fp32", bench_setup_tconv_fp32},
    {"conv3d_fp16", bench_setup_conv3d_fp16},
    {"fft2d_8x256x256", bench_setup_fft2d_8x256x256},
    {"fft2d_1x1024x1024", bench_setup_fft2d_1x1024x1024},
    {"fft2d_8x64x64", bench_setup_fft2d_8x64x64},
    {"dft_8x64x64", bench_setup_dft_8x64x64},
    /* issue 14's suite (bench_graph_suite.c) */
    {"resnet_fp32_b1", bench_setup_resnet_fp32_b1},
    {"resnet_fp32_b8", bench_setup_resnet_fp32_b8},
    {"resnet_int8_b1", bench_setup_resnet_int8_b1},
    {"resnet_int8_b8", bench_setup_resnet_int8_b8},
    {"mobilenet_fp32_b1", bench_setup_mobilenet_fp32_b1},
    {"mobilenet_fp32_b8", bench_setup_mobilenet_fp32_b8},
    {"matmul512_fp32", bench_setup_matmul512_fp32},
    {"matmul512_fp16", bench_setup_matmul512_fp16},
    {"matmul512_bf16", bench_setup_matmul512_bf16},
    {"matmul512_i8", bench_setup_matmul512_i8},
    {"matmul4096_fp32", bench_setup_matmul4096_fp32},
    {"matmul4096_fp16", bench_setup_matmul4096_fp16},
    {"matmul4096_bf16", bench_setup_matmul4096_bf16},
    {"matmul4096_i8", bench_setup_matmul4096_i8},
    {"matmul_64x4096x64_fp32", bench_setup_matmul_64x4096x64_fp32},
    {"matmul_64x4096x64_fp16", bench_setup_matmul_64x4096x64_fp16},
    {"branch4_fp32", bench_setup_branch4_fp32},
};
