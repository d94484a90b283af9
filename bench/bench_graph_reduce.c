/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's reduction graphs (bench_graph.h), memory-bound, reported as bandwidth against a
 * buffer copy of as many bytes (the input read once, the output written once):
 *   reduce_sum_axis0  REDUCE_SUM fp32 [D, 512, 512] axis 0 (outer axis: coalesced columns);
 *   reduce_sum_axis1  REDUCE_SUM fp32 [D, 512, 512] axis 1 (middle axis: columns, two passes);
 *   reduce_sum_axis2  REDUCE_SUM fp32 [D, 512, 512] axis 2 (innermost, contiguous rows);
 * D = 64 (issue 11's [64, 512, 512]), fewer where --elements is below 16M. Checked against the
 * CPU reference (tosa_ref_reduce) with TOSA's dot-product bound, KS = the axis length.
 */
#include <inttypes.h>
#include <stdio.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d7264) /* "bench-rd" */

static void
reduce_text(struct bench_text *t, const int64_t in[3], const int64_t out[3], int axis)
{
   bench_text_header(t, NULL, 2);
   bench_text_printf(t,
                     "%%uint = OpTypeInt 32 0\n"
                     "%%f32 = OpTypeFloat 32\n"
                     "%%u0 = OpConstant %%uint 0\n"
                     "%%u3 = OpConstant %%uint 3\n"
                     "%%axis = OpConstant %%uint %d\n"
                     "%%dim3 = OpTypeArray %%uint %%u3\n",
                     axis);
   for (int i = 0; i < 3; i++)
      bench_text_printf(
          t, "%%i%d = OpConstant %%uint %" PRId64 "\n%%o%d = OpConstant %%uint %" PRId64 "\n", i,
          in[i], i, out[i]);
   bench_text_printf(t, "%%shape_in = OpConstantComposite %%dim3 %%i0 %%i1 %%i2\n"
                        "%%shape_out = OpConstantComposite %%dim3 %%o0 %%o1 %%o2\n"
                        "%%t_in = OpTypeTensorARM %%f32 %%u3 %%shape_in\n"
                        "%%t_out = OpTypeTensorARM %%f32 %%u3 %%shape_out\n"
                        "%%ptr_in = OpTypePointer UniformConstant %%t_in\n"
                        "%%ptr_out = OpTypePointer UniformConstant %%t_out\n"
                        "%%v0 = OpVariable %%ptr_in UniformConstant\n"
                        "%%v1 = OpVariable %%ptr_out UniformConstant\n"
                        "%%graph_type = OpTypeGraphARM 1 %%t_in %%t_out\n"
                        "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1\n"
                        "%%graph = OpGraphARM %%graph_type\n"
                        "%%x0 = OpGraphInputARM %%t_in %%u0\n"
                        "%%r = OpExtInst %%t_out %%tosa REDUCE_SUM %%axis %%x0\n"
                        "OpGraphSetOutputARM %%r %%u0\n"
                        "OpGraphEndARM\n");
}

static void
reduce_sum_setup(struct bench_graph *g, const struct bench_params *p, int axis)
{
   int64_t d0 = p->elements / (512 * 512);
   if (d0 > 64)
      d0 = 64;
   if (d0 < 1) {
      bench_graph_fail(g, "--elements %" PRId64 " is below 512 x 512", p->elements);
      return;
   }
   const int64_t in[3] = {d0, 512, 512};
   int64_t out[3] = {d0, 512, 512};
   out[axis] = 1;
   reduce_text(&g->text, in, out, axis);
   g->input_count = 1;
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 3, in);
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 3, out);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 3, out);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 3, out);
   g->bytes = ((double)(d0 * 512 * 512) + (double)(out[0] * out[1] * out[2])) * 4.0;
   g->check = BENCH_CHECK_DOT;
   g->dot = (struct tosa_ref_dot_check){.out_type = REF_DTYPE_FP32,
                                        .acc_type = REF_DTYPE_FP32,
                                        .ks = in[axis],
                                        .has_bias = true,
                                        .test_set = -1};
   g->optional = true;
   if (g->failed)
      return;
   uint64_t rng = SEED ^ (uint64_t)axis;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   struct tosa_ref_reduce_args a = {.axis = axis};
   if (bench_ref_ok(g, tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, g->inputs[0], g->want),
                    "REDUCE_SUM")) {
      a.mode = TOSA_REF_REDUCE_BOUND;
      bench_ref_ok(g, tosa_ref_reduce(TOSA_REF_OP_REDUCE_SUM, &a, g->inputs[0], g->bound),
                   "REDUCE_SUM bound");
   }
}

void
bench_setup_reduce_sum_axis0(struct bench_graph *g, const struct bench_params *p)
{
   g->name = "reduce_sum_axis0";
   g->what = "REDUCE_SUM fp32 [D, 512, 512] axis 0 (D = 64, or --elements / 512^2)";
   reduce_sum_setup(g, p, 0);
}

void
bench_setup_reduce_sum_axis1(struct bench_graph *g, const struct bench_params *p)
{
   g->name = "reduce_sum_axis1";
   g->what = "REDUCE_SUM fp32 [D, 512, 512] axis 1 (D = 64, or --elements / 512^2)";
   reduce_sum_setup(g, p, 1);
}

void
bench_setup_reduce_sum_axis2(struct bench_graph *g, const struct bench_params *p)
{
   g->name = "reduce_sum_axis2";
   g->what = "REDUCE_SUM fp32 [D, 512, 512] axis 2 (D = 64, or --elements / 512^2)";
   reduce_sum_setup(g, p, 2);
}
