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
 * S * S * 64 the largest not above --elements with S a multiple of 32 (1024
 * for the default 64M elements). Checked bit for bit against the CPU
 * reference (tosa_ref_transpose).
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d6d76) /* "bench-mv" */

static void
transpose_text(struct bench_text *t, const int64_t in[4], const int64_t out[4],
               const int32_t perms[4])
{
   bench_text_printf(t, "OpCapability Shader\n"
                        "OpCapability VulkanMemoryModel\n"
                        "OpCapability TensorsARM\n"
                        "OpCapability GraphARM\n"
                        "OpExtension \"SPV_ARM_tensors\"\n"
                        "OpExtension \"SPV_ARM_graph\"\n"
                        "%%tosa = OpExtInstImport \"TOSA.001000.1\"\n"
                        "OpMemoryModel Logical Vulkan\n"
                        "OpDecorate %%v0 DescriptorSet 0\n"
                        "OpDecorate %%v0 Binding 0\n"
                        "OpDecorate %%v1 DescriptorSet 0\n"
                        "OpDecorate %%v1 Binding 1\n"
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
