/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's data-movement graphs (bench_graph.h), memory-bound, reported
 * as bandwidth against a buffer copy of as many bytes:
 *   transpose_0213  TRANSPOSE fp32 [1, S, S, 64] perms (0, 2, 1, 3): the
 *                   innermost axis stays (run copies, vector words);
 *   transpose_0312  TRANSPOSE fp32 [1, S, S, 64] perms (0, 3, 1, 2): the
 *                   innermost axis moves (the shared-memory tile);
 *   transpose_0312_edge  the same on [1, S - 9, S - 9, 60]: partial tiles
 *                   along both tiled axes;
 *   gather_fp16     GATHER fp16 values [1, K, 512] by [1, W] random indices,
 *                   W = K = 64k rows (fewer when --elements is below 32M);
 * S * S * 64 the largest not above --elements with S a multiple of 32 (1024
 * for the default 64M elements). Checked bit for bit against the CPU
 * reference (tosa_ref_transpose, tosa_ref_gather).
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d6d76) /* "bench-mv" */

static void
transpose_text(struct bench_text *t, const int64_t in[4], const int64_t out[4],
               const int32_t perms[4])
{
   bench_text_header(t, NULL, 2);
   bench_text_printf(t,
                        "%%uint = OpTypeInt 32 0\n"
                        "%%f32 = OpTypeFloat 32\n"
                        "%%u0 = OpConstant %%uint 0\n"
                        "%%u1 = OpConstant %%uint 1\n"
                        "%%u4 = OpConstant %%uint 4\n"
                        "%%dim1 = OpTypeArray %%uint %%u1\n"
                        "%%dim4 = OpTypeArray %%uint %%u4\n"
                        "%%shape_4 = OpConstantComposite %%dim1 %%u4\n"
                        "%%t_perms = OpTypeTensorARM %%uint %%u1 %%shape_4\n");
   for (int i = 0; i < 4; i++)
      bench_text_printf(t,
                        "%%i%d = OpConstant %%uint %" PRId64 "\n%%o%d = OpConstant %%uint %" PRId64
                        "\n%%p%d = OpConstant %%uint %d\n",
                        i, in[i], i, out[i], i, perms[i]);
   bench_text_printf(t, "%%shape_in = OpConstantComposite %%dim4 %%i0 %%i1 %%i2 %%i3\n"
                        "%%shape_out = OpConstantComposite %%dim4 %%o0 %%o1 %%o2 %%o3\n"
                        "%%t_in = OpTypeTensorARM %%f32 %%u4 %%shape_in\n"
                        "%%t_out = OpTypeTensorARM %%f32 %%u4 %%shape_out\n"
                        "%%ptr_in = OpTypePointer UniformConstant %%t_in\n"
                        "%%ptr_out = OpTypePointer UniformConstant %%t_out\n"
                        "%%perms = OpConstantComposite %%t_perms %%p0 %%p1 %%p2 %%p3\n"
                        "%%v0 = OpVariable %%ptr_in UniformConstant\n"
                        "%%v1 = OpVariable %%ptr_out UniformConstant\n"
                        "%%graph_type = OpTypeGraphARM 1 %%t_in %%t_out\n"
                        "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1\n"
                        "%%graph = OpGraphARM %%graph_type\n"
                        "%%x0 = OpGraphInputARM %%t_in %%u0\n"
                        "%%r = OpExtInst %%t_out %%tosa TRANSPOSE %%perms %%x0\n"
                        "OpGraphSetOutputARM %%r %%u0\n"
                        "OpGraphEndARM\n");
}

static void
transpose_setup(struct bench_graph *g, const struct bench_params *p, const int32_t perms[4],
                bool edge)
{
   int64_t s = 32;
   while ((s + 32) * (s + 32) * 64 <= p->elements)
      s += 32;
   if (s * s * 64 > p->elements) {
      bench_graph_fail(g, "--elements %" PRId64 " is below 32 x 32 x 64", p->elements);
      return;
   }
   const int64_t in[4] = {1, edge ? s - 9 : s, edge ? s - 9 : s, edge ? 60 : 64};
   int64_t out[4];
   for (int i = 0; i < 4; i++)
      out[i] = in[perms[i]];
   transpose_text(&g->text, in, out, perms);
   g->input_count = 1;
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 4, in);
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 4, out);
   g->want = bench_tensor_new(g, REF_DTYPE_FP32, 4, out);
   g->bytes = 2.0 * (double)(in[1] * in[2] * in[3]) * 4.0;
   g->check = BENCH_CHECK_BITS;
   if (g->failed)
      return;
   uint64_t rng = SEED ^ (uint64_t)perms[3];
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   struct tosa_ref_transpose_args a = {.length = 4};
   for (int i = 0; i < 4; i++)
      a.perms[i] = perms[i];
   bench_ref_ok(g, tosa_ref_transpose(&a, g->inputs[0], g->want), "TRANSPOSE");
}

void
bench_setup_transpose_0213(struct bench_graph *g, const struct bench_params *p)
{
   static const int32_t perms[4] = {0, 2, 1, 3};
   g->name = "transpose_0213";
   g->what = "TRANSPOSE fp32 [1, S, S, 64] perms (0, 2, 1, 3)";
   g->optional = true;
   transpose_setup(g, p, perms, false);
}

void
bench_setup_transpose_0312(struct bench_graph *g, const struct bench_params *p)
{
   static const int32_t perms[4] = {0, 3, 1, 2};
   g->name = "transpose_0312";
   g->what = "TRANSPOSE fp32 [1, S, S, 64] perms (0, 3, 1, 2)";
   g->optional = true;
   transpose_setup(g, p, perms, false);
}

void
bench_setup_transpose_0312_edge(struct bench_graph *g, const struct bench_params *p)
{
   static const int32_t perms[4] = {0, 3, 1, 2};
   g->name = "transpose_0312_edge";
   g->what = "TRANSPOSE fp32 [1, S - 9, S - 9, 60] perms (0, 3, 1, 2)";
   g->optional = true;
   transpose_setup(g, p, perms, true);
}

/* ---- GATHER ------------------------------------------------------------------------------- */

static void
gather_text(struct bench_text *t, int64_t k, int64_t w, int64_t c)
{
   bench_text_header(t, "OpCapability Float16\n", 3);
   bench_text_printf(t,
                     "%%uint = OpTypeInt 32 0\n"
                     "%%i32 = OpTypeInt 32 1\n"
                     "%%f16 = OpTypeFloat 16\n"
                     "%%u0 = OpConstant %%uint 0\n"
                     "%%u1 = OpConstant %%uint 1\n"
                     "%%u2 = OpConstant %%uint 2\n"
                     "%%u3 = OpConstant %%uint 3\n"
                     "%%nk = OpConstant %%uint %" PRId64 "\n"
                     "%%nw = OpConstant %%uint %" PRId64 "\n"
                     "%%nc = OpConstant %%uint %" PRId64 "\n"
                     "%%dim2 = OpTypeArray %%uint %%u2\n"
                     "%%dim3 = OpTypeArray %%uint %%u3\n"
                     "%%shape_v = OpConstantComposite %%dim3 %%u1 %%nk %%nc\n"
                     "%%shape_i = OpConstantComposite %%dim2 %%u1 %%nw\n"
                     "%%shape_o = OpConstantComposite %%dim3 %%u1 %%nw %%nc\n"
                     "%%t_v = OpTypeTensorARM %%f16 %%u3 %%shape_v\n"
                     "%%t_i = OpTypeTensorARM %%i32 %%u2 %%shape_i\n"
                     "%%t_o = OpTypeTensorARM %%f16 %%u3 %%shape_o\n"
                     "%%ptr_v = OpTypePointer UniformConstant %%t_v\n"
                     "%%ptr_i = OpTypePointer UniformConstant %%t_i\n"
                     "%%ptr_o = OpTypePointer UniformConstant %%t_o\n"
                     "%%v0 = OpVariable %%ptr_v UniformConstant\n"
                     "%%v1 = OpVariable %%ptr_i UniformConstant\n"
                     "%%v2 = OpVariable %%ptr_o UniformConstant\n"
                     "%%graph_type = OpTypeGraphARM 2 %%t_v %%t_i %%t_o\n"
                     "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1 %%v2\n"
                     "%%graph = OpGraphARM %%graph_type\n"
                     "%%x0 = OpGraphInputARM %%t_v %%u0\n"
                     "%%x1 = OpGraphInputARM %%t_i %%u1\n"
                     "%%r = OpExtInst %%t_o %%tosa GATHER %%x0 %%x1\n"
                     "OpGraphSetOutputARM %%r %%u0\n"
                     "OpGraphEndARM\n",
                     k, w, c);
}

/* GATHER fp16 values [1, K, 512], indices [1, W] uniform in [0, K) -> [1, W, 512]: W = K = 64k
 * rows (issue 11) for the default --elements (64M), fewer below 32M (elements / 512 rows). */
void
bench_setup_gather_fp16(struct bench_graph *g, const struct bench_params *p)
{
   g->name = "gather_fp16";
   g->what = "GATHER fp16 [1, K, 512] by [1, W] i32 indices, W = K = 64k rows";
   g->optional = true;
   const int64_t c = 512;
   int64_t rows = p->elements / c;
   if (rows > 65536)
      rows = 65536;
   if (rows < 1) {
      bench_graph_fail(g, "--elements %" PRId64 " is below one row of 512", p->elements);
      return;
   }
   gather_text(&g->text, rows, rows, c);
   const int64_t vs[3] = {1, rows, c}, is[2] = {1, rows}, os[3] = {1, rows, c};
   g->input_count = 2;
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP16, 3, vs);
   g->inputs[1] = bench_tensor_new(g, REF_DTYPE_I32, 2, is);
   g->output = bench_tensor_new(g, REF_DTYPE_FP16, 3, os);
   g->want = bench_tensor_new(g, REF_DTYPE_FP16, 3, os);
   /* Rows read and written once, and the indices read. */
   g->bytes = 2.0 * (double)(rows * c) * 2.0 + (double)rows * 4.0;
   g->check = BENCH_CHECK_BITS;
   if (g->failed)
      return;
   uint64_t rng = SEED ^ UINT64_C(0x67617468);
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   bench_fill_int(g->inputs[1], &rng, 0, rows - 1);
   bench_ref_ok(g, tosa_ref_gather(g->inputs[0], g->inputs[1], g->want), "GATHER");
}
