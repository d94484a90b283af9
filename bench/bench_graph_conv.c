/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's graphs of CONV2D's family (bench_graph.h), one operator each, the weights a
 * graph constant and the bias a broadcast [1] constant:
 *   dwconv_fp16   DEPTHWISE_CONV2D fp16 (acc FP32) [1,112,112,96], 3x3, pad 1, M = 1: the
 *                 MobileNet layer; memory-bound, so reported as bandwidth (input + output bytes)
 *                 against a buffer copy of as many bytes, and as GMAC/s;
 *   tconv_fp32    TRANSPOSE_CONV2D fp32 [1,64,64,64] -> [1,128,128,32], 4x4, stride 2,
 *                 out_pad -1 (a framework's padding 1): GMAC/s counting only the taps that
 *                 contribute (KH * KW * IC / 4 per output);
 *   conv3d_fp16   CONV3D fp16 (acc FP32) [1,8,56,56,32] -> 32 channels, 3x3x3, pad 1: a small
 *                 video block; GMAC/s.
 * Each output is checked against the CPU reference with TOSA's dot-product bound
 * (tosa_ref_check_dot_product, KS of Appendix A). Optional: skipped where the layer lacks the
 * operator. bench/conv_family_torch.py times the same shapes in PyTorch.
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d6366) /* "bench-cf" */

enum conv_kind { CONV_DEPTHWISE, CONV_TRANSPOSE, CONV_3D };

struct conv_case {
   enum conv_kind kind;
   enum ref_dtype dtype;
   uint32_t rank;
   int64_t in[5], w[5], out[5];
   int32_t lists[3][6]; /* pad or out_pad, stride, dilation */
   uint32_t list_len[3];
   uint32_t list_count;
   const char *op;
};

static void
dims_text(struct bench_text *t, const char *name, const int64_t *d, uint32_t rank)
{
   bench_text_printf(t, "%%%s = OpConstantComposite %%dim%u", name, rank);
   for (uint32_t i = 0; i < rank; i++)
      bench_text_printf(t, " %%c%" PRId64, d[i]);
   bench_text_printf(t, "\n");
}

static void
conv_text(struct bench_text *t, const struct conv_case *c)
{
   const bool f16 = c->dtype == REF_DTYPE_FP16;
   const char *acc = "%c3"; /* acc_type FP32 */
   bench_text_header(t, f16 ? "OpCapability Float16\n" : NULL, 2);
   bench_text_printf(t,
                     "%%uint = OpTypeInt 32 0\n"
                     "%%bool = OpTypeBool\n"
                     "%%false = OpConstantFalse %%bool\n"
                     "%%elem = OpTypeFloat %d\n",
                     f16 ? 16 : 32);
   /* every size the text names, once: 0..8 and the shapes' dimensions */
   int64_t seen[32];
   uint32_t n = 0;
   for (int64_t v = 0; v <= 8; v++)
      seen[n++] = v;
   const int64_t *shapes[3] = {c->in, c->w, c->out};
   for (int s = 0; s < 3; s++) {
      for (uint32_t i = 0; i < c->rank; i++) {
         bool have = false;
         for (uint32_t k = 0; k < n; k++)
            have |= seen[k] == shapes[s][i];
         if (!have && n < 32)
            seen[n++] = shapes[s][i];
      }
   }
   for (uint32_t k = 0; k < n; k++)
      bench_text_printf(t, "%%c%" PRId64 " = OpConstant %%uint %" PRId64 "\n", seen[k], seen[k]);
   /* list elements are i32 bit patterns in a 32-bit integer: -1 is 0xffffffff */
   bench_text_printf(t,
                     "%%m1 = OpConstant %%uint 4294967295\n"
                     "%%dim1 = OpTypeArray %%uint %%c1\n"
                     "%%dim%u = OpTypeArray %%uint %%c%u\n",
                     c->rank, c->rank);
   bench_text_printf(t, "%%shape_1 = OpConstantComposite %%dim1 %%c1\n");
   for (uint32_t l = 0; l < c->list_count; l++) {
      bench_text_printf(t,
                        "%%shape_l%u = OpConstantComposite %%dim1 %%c%u\n"
                        "%%t_l%u = OpTypeTensorARM %%uint %%c1 %%shape_l%u\n"
                        "%%list%u = OpConstantComposite %%t_l%u",
                        l, c->list_len[l], l, l, l, l);
      for (uint32_t i = 0; i < c->list_len[l]; i++) {
         int32_t v = c->lists[l][i];
         if (v < 0)
            bench_text_printf(t, " %%m1");
         else
            bench_text_printf(t, " %%c%d", v);
      }
      bench_text_printf(t, "\n");
   }
   dims_text(t, "shape_in", c->in, c->rank);
   dims_text(t, "shape_w", c->w, c->rank);
   dims_text(t, "shape_out", c->out, c->rank);
   bench_text_printf(t,
                     "%%t_in = OpTypeTensorARM %%elem %%c%u %%shape_in\n"
                     "%%t_w = OpTypeTensorARM %%elem %%c%u %%shape_w\n"
                     "%%t_out = OpTypeTensorARM %%elem %%c%u %%shape_out\n"
                     "%%t_1 = OpTypeTensorARM %%elem %%c1 %%shape_1\n"
                     "%%zero = OpConstantNull %%t_1\n"
                     "%%ptr_in = OpTypePointer UniformConstant %%t_in\n"
                     "%%ptr_out = OpTypePointer UniformConstant %%t_out\n"
                     "%%v0 = OpVariable %%ptr_in UniformConstant\n"
                     "%%v1 = OpVariable %%ptr_out UniformConstant\n"
                     "%%w = OpGraphConstantARM %%t_w 0\n"
                     "%%bias = OpGraphConstantARM %%t_1 1\n"
                     "%%graph_type = OpTypeGraphARM 1 %%t_in %%t_out\n"
                     "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1\n"
                     "%%graph = OpGraphARM %%graph_type\n"
                     "%%x0 = OpGraphInputARM %%t_in %%c0\n"
                     "%%r = OpExtInst %%t_out %%tosa %s",
                     c->rank, c->rank, c->rank, c->op);
   for (uint32_t l = 0; l < c->list_count; l++)
      bench_text_printf(t, " %%list%u", l);
   bench_text_printf(t,
                     " %s %%false %%x0 %%w %%bias %%zero %%zero\n"
                     "OpGraphSetOutputARM %%r %%c0\n"
                     "OpGraphEndARM\n",
                     acc);
}

static int64_t
count(const int64_t *d, uint32_t rank)
{
   int64_t n = 1;
   for (uint32_t i = 0; i < rank; i++)
      n *= d[i];
   return n;
}

static int
conv_ref(const struct conv_case *c, enum tosa_ref_dot_mode mode, const struct ref_tensor *in,
         const struct ref_tensor *w, const struct ref_tensor *bias, const struct ref_tensor *zero,
         struct ref_tensor *out)
{
   if (c->kind == CONV_DEPTHWISE) {
      struct tosa_ref_conv2d_args a = {.acc_type = TOSA_REF_ACC_FP32, .mode = mode};
      for (int i = 0; i < 4; i++)
         a.pad[i] = c->lists[0][i];
      for (int i = 0; i < 2; i++) {
         a.stride[i] = c->lists[1][i];
         a.dilation[i] = c->lists[2][i];
      }
      return tosa_ref_depthwise_conv2d(&a, in, w, bias, zero, zero, out);
   }
   if (c->kind == CONV_TRANSPOSE) {
      struct tosa_ref_transpose_conv2d_args a = {.acc_type = TOSA_REF_ACC_FP32, .mode = mode};
      for (int i = 0; i < 4; i++)
         a.out_pad[i] = c->lists[0][i];
      for (int i = 0; i < 2; i++)
         a.stride[i] = c->lists[1][i];
      return tosa_ref_transpose_conv2d(&a, in, w, bias, zero, zero, out);
   }
   struct tosa_ref_conv3d_args a = {.acc_type = TOSA_REF_ACC_FP32, .mode = mode};
   for (int i = 0; i < 6; i++)
      a.pad[i] = c->lists[0][i];
   for (int i = 0; i < 3; i++) {
      a.stride[i] = c->lists[1][i];
      a.dilation[i] = c->lists[2][i];
   }
   return tosa_ref_conv3d(&a, in, w, bias, zero, zero, out);
}

static void
conv_setup(struct bench_graph *g, const struct conv_case *c, int64_t ks, double macs, uint64_t seed)
{
   static const int64_t one[1] = {1};
   g->optional = true;
   g->check = BENCH_CHECK_DOT;
   g->dot = (struct tosa_ref_dot_check){.out_type = c->dtype,
                                        .acc_type = REF_DTYPE_FP32,
                                        .ks = ks,
                                        .has_bias = true,
                                        .test_set = -1};
   g->macs = macs;
   conv_text(&g->text, c);
   g->input_count = 1;
   g->inputs[0] = bench_tensor_new(g, c->dtype, c->rank, c->in);
   struct ref_tensor *w = bench_tensor_new(g, c->dtype, c->rank, c->w);
   struct ref_tensor *bias = bench_tensor_new(g, c->dtype, 1, one);
   struct ref_tensor *zero = bench_tensor_new(g, c->dtype, 1, one);
   g->output = bench_tensor_new(g, c->dtype, c->rank, c->out);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, c->rank, c->out);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, c->rank, c->out);
   if (g->failed)
      return;
   uint64_t rng = SEED ^ seed;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   bench_fill_float(w, &rng, -1.0, 1.0);
   bench_fill_float(bias, &rng, -1.0, 1.0);
   bench_constant(g, 0, w);
   bench_constant(g, 1, bias);
   if (bench_ref_ok(g, conv_ref(c, TOSA_REF_DOT_RESULT, g->inputs[0], w, bias, zero, g->want),
                    c->op))
      bench_ref_ok(g, conv_ref(c, TOSA_REF_DOT_BOUND, g->inputs[0], w, bias, zero, g->bound),
                   c->op);
}

void
bench_setup_dwconv_fp16(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   static const struct conv_case c = {
       .kind = CONV_DEPTHWISE,
       .dtype = REF_DTYPE_FP16,
       .rank = 4,
       .in = {1, 112, 112, 96},
       .w = {3, 3, 96, 1},
       .out = {1, 112, 112, 96},
       .lists = {{1, 1, 1, 1}, {1, 1}, {1, 1}},
       .list_len = {4, 2, 2},
       .list_count = 3,
       .op = "DEPTHWISE_CONV2D",
   };
   g->name = "dwconv_fp16";
   g->what = "DEPTHWISE_CONV2D fp16 (acc FP32) [1,112,112,96] 3x3 pad 1";
   g->bytes = 2.0 * 2.0 * (double)count(c.in, 4);
   conv_setup(g, &c, 9, 9.0 * (double)count(c.out, 4), 1);
}

void
bench_setup_tconv_fp32(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   static const struct conv_case c = {
       .kind = CONV_TRANSPOSE,
       .dtype = REF_DTYPE_FP32,
       .rank = 4,
       .in = {1, 64, 64, 64},
       .w = {32, 4, 4, 64},
       .out = {1, 128, 128, 32},
       .lists = {{-1, -1, -1, -1}, {2, 2}},
       .list_len = {4, 2},
       .list_count = 2,
       .op = "TRANSPOSE_CONV2D",
   };
   g->name = "tconv_fp32";
   g->what = "TRANSPOSE_CONV2D fp32 [1,64,64,64] -> [1,128,128,32] 4x4 stride 2";
   /* stride 2 in both axes: a quarter of the 4x4 taps reach each output */
   conv_setup(g, &c, 4 * 4 * 64, (double)count(c.out, 4) * 4.0 * 64.0, 2);
}

void
bench_setup_conv3d_fp16(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   static const struct conv_case c = {
       .kind = CONV_3D,
       .dtype = REF_DTYPE_FP16,
       .rank = 5,
       .in = {1, 8, 56, 56, 32},
       .w = {32, 3, 3, 3, 32},
       .out = {1, 8, 56, 56, 32},
       .lists = {{1, 1, 1, 1, 1, 1}, {1, 1, 1}, {1, 1, 1}},
       .list_len = {6, 3, 3},
       .list_count = 3,
       .op = "CONV3D",
   };
   g->name = "conv3d_fp16";
   g->what = "CONV3D fp16 (acc FP32) [1,8,56,56,32] 3x3x3 pad 1 -> 32 channels";
   conv_setup(g, &c, 27 * 32, (double)count(c.out, 5) * 27.0 * 32.0, 3);
}
