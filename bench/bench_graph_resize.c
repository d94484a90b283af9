/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's RESIZE graph (bench_graph.h), memory-bound, reported as
 * bandwidth against a buffer copy of as many bytes:
 *   resize_bilinear_fp16  RESIZE BILINEAR fp16 [1, S, S, 64] -> [1, 2S, 2S, 64]
 *                         (x2, half-pixel: scale 4/2, offset -1, border 1),
 * S = 256, halved while the output has more elements than --elements (sanity
 * runs on small devices). Bytes: the input read once and the output written
 * once (each input pixel is read by the four output pixels around it; caches
 * hold it). Checked against the CPU reference (tosa_ref_resize) within
 * TOSA's RESIZE bound (image.adoc; tosa_ref_resize_bound()).
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d727a) /* "bench-rz" */

static void
resize_text(struct bench_text *t, const int64_t in[4], const int64_t out[4])
{
   bench_text_header(t, "OpCapability Float16\n", 2);
   bench_text_printf(t,
                        "%%uint = OpTypeInt 32 0\n"
                        "%%f16 = OpTypeFloat 16\n"
                        "%%u0 = OpConstant %%uint 0\n"
                        "%%u1 = OpConstant %%uint 1\n"
                        "%%u2 = OpConstant %%uint 2\n"
                        "%%u4 = OpConstant %%uint 4\n"
                        "%%m1 = OpConstant %%uint 4294967295\n"
                        "%%bilinear = OpConstant %%uint 2\n"
                        "%%dim1 = OpTypeArray %%uint %%u1\n"
                        "%%dim4 = OpTypeArray %%uint %%u4\n"
                        "%%shape_4 = OpConstantComposite %%dim1 %%u4\n"
                        "%%shape_2 = OpConstantComposite %%dim1 %%u2\n"
                        "%%t_list4 = OpTypeTensorARM %%uint %%u1 %%shape_4\n"
                        "%%t_list2 = OpTypeTensorARM %%uint %%u1 %%shape_2\n"
                        "%%scale = OpConstantComposite %%t_list4 %%u4 %%u2 %%u4 %%u2\n"
                        "%%offset = OpConstantComposite %%t_list2 %%m1 %%m1\n"
                        "%%border = OpConstantComposite %%t_list2 %%u1 %%u1\n");
   for (int i = 0; i < 4; i++)
      bench_text_printf(
          t, "%%i%d = OpConstant %%uint %" PRId64 "\n%%o%d = OpConstant %%uint %" PRId64 "\n", i,
          in[i], i, out[i]);
   bench_text_printf(t, "%%shape_in = OpConstantComposite %%dim4 %%i0 %%i1 %%i2 %%i3\n"
                        "%%shape_out = OpConstantComposite %%dim4 %%o0 %%o1 %%o2 %%o3\n"
                        "%%t_in = OpTypeTensorARM %%f16 %%u4 %%shape_in\n"
                        "%%t_out = OpTypeTensorARM %%f16 %%u4 %%shape_out\n"
                        "%%ptr_in = OpTypePointer UniformConstant %%t_in\n"
                        "%%ptr_out = OpTypePointer UniformConstant %%t_out\n"
                        "%%v0 = OpVariable %%ptr_in UniformConstant\n"
                        "%%v1 = OpVariable %%ptr_out UniformConstant\n"
                        "%%graph_type = OpTypeGraphARM 1 %%t_in %%t_out\n"
                        "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1\n"
                        "%%graph = OpGraphARM %%graph_type\n"
                        "%%x0 = OpGraphInputARM %%t_in %%u0\n"
                        "%%r = OpExtInst %%t_out %%tosa RESIZE %%bilinear %%x0 %%scale %%offset "
                        "%%border\n"
                        "OpGraphSetOutputARM %%r %%u0\n"
                        "OpGraphEndARM\n");
}

void
bench_setup_resize_bilinear_fp16(struct bench_graph *g, const struct bench_params *p)
{
   g->name = "resize_bilinear_fp16";
   g->what = "RESIZE BILINEAR fp16 [1, S, S, 64] x2 (half-pixel)";
   g->optional = true;
   int64_t s = 256;
   while (s > 8 && 4 * s * s * 64 > p->elements)
      s /= 2;
   const int64_t in[4] = {1, s, s, 64};
   const int64_t out[4] = {1, 2 * s, 2 * s, 64};
   resize_text(&g->text, in, out);
   g->input_count = 1;
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP16, 4, in);
   g->output = bench_tensor_new(g, REF_DTYPE_FP16, 4, out);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 4, out);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 4, out);
   g->bytes = (double)(s * s * 64 + 4 * s * s * 64) * 2.0;
   g->check = BENCH_CHECK_BOUND;
   if (g->failed)
      return;
   uint64_t rng = SEED;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   struct tosa_ref_resize_args a = {.mode = TOSA_REF_RESIZE_BILINEAR,
                                    .scale = {4, 2, 4, 2},
                                    .offset = {-1, -1},
                                    .border = {1, 1},
                                    .scale_length = 4,
                                    .offset_length = 2,
                                    .border_length = 2};
   if (bench_ref_ok(g, tosa_ref_resize(&a, g->inputs[0], g->want), "RESIZE"))
      bench_ref_ok(g, tosa_ref_resize_bound(g->inputs[0], g->bound), "RESIZE bound");
}
