/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Dispatches beyond the workgroup-count limit of one dimension:
 *  - with VMEL_GRAPH_MAX_GROUPS set (CTest variant "forced", 16), small
 *    tensors already need more workgroups than one dimension allows: a
 *    16,000-element chain (32 workgroups of 64 work items of 8 elements) and
 *    a CONCAT whose copies each split, checked element for element;
 *  - without it, a real case: 33,553,921 fp32 elements (65,536 workgroups of
 *    64 work items of 8 elements > 65,535 on lavapipe) through CLAMP then
 *    ADD, checked everywhere, including the elements past the first
 *    65,535 * 64 * 8.
 * The creation log shows each stage's grid ("AxB groups"), checked too.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

/* Elements per work item of CLAMP and ADD: their templates' grid, ELEMENTS8 (tosa_ops.def). */
#define EW_ITEMS 8

TEST_MAIN_STATE;

static char text[4096];

/* out = CLAMP(in, -1000, 1000) + in over [1, n]. */
static void
make_text(uint32_t n)
{
   snprintf(text, sizeof(text),
            "%s"
            "OpDecorate %%in_var DescriptorSet 0\n"
            "OpDecorate %%in_var Binding 0\n"
            "OpDecorate %%out_var DescriptorSet 0\n"
            "OpDecorate %%out_var Binding 1\n"
            "%s"
            "%%uint_n = OpConstant %%uint %u\n"
            "%%shape = OpConstantComposite %%arr_2 %%uint_1 %%uint_n\n"
            "%%t = OpTypeTensorARM %%float %%uint_2 %%shape\n"
            "%%ptr = OpTypePointer UniformConstant %%t\n"
            "%%in_var = OpVariable %%ptr UniformConstant\n"
            "%%out_var = OpVariable %%ptr UniformConstant\n"
            "%%lo = OpConstant %%float -1000\n"
            "%%hi = OpConstant %%float 1000\n"
            "%%gt = OpTypeGraphARM 1 %%t %%t\n"
            "OpGraphEntryPointARM %%g \"main\" %%in_var %%out_var\n"
            "%%g = OpGraphARM %%gt\n"
            "%%in = OpGraphInputARM %%t %%uint_0\n"
            "%%c = OpExtInst %%t %%tosa CLAMP %%lo %%hi %%propagate %%in\n"
            "%%out = OpExtInst %%t %%tosa ADD %%c %%in\n"
            "OpGraphSetOutputARM %%out %%uint_0\n"
            "OpGraphEndARM\n",
            DGU_PRELUDE, DGU_TYPES, n);
}

static float
input_value(uint32_t i)
{
   return (float)(int32_t)(i % 4099) - 2049.0f + (float)(i / 4099) * 0.5f;
}

static void
run(struct dgu *u, uint32_t n, uint32_t want_x, uint32_t want_y)
{
   char context[64];
   snprintf(context, sizeof(context), "CLAMP + ADD over %u elements", n);
   test_set_context(context);
   make_text(n);
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, n}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, n}},
   };
   struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r)) {
      char *log =
         dgu_text_property(u, g.pipeline, VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM);
      char grid[32];
      snprintf(grid, sizeof(grid), "%ux%u groups", want_x, want_y);
      ok(log && strstr(log, grid), "%s in the creation log:\n%s", grid, log ? log : "");
      free(log);
   }
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, n};
   if (r == VK_SUCCESS && dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
      float *x = in.data;
      for (uint32_t i = 0; i < n; i++)
         x[i] = input_value(i);
      memset(out.data, 0xcd, out.size);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, &g, &sets, s.session)) {
         const float *y = out.data;
         uint32_t bad = 0, first = UINT32_MAX;
         for (uint32_t i = 0; i < n; i++) {
            float want = fminf(fmaxf(x[i], -1000.0f), 1000.0f) + x[i];
            if (y[i] != want) {
               bad++;
               if (first == UINT32_MAX)
                  first = i;
            }
         }
         ok(bad == 0, "%u wrong elements, the first at %u", bad, first);
      }
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

/* CONCAT of [1, 700] and [1, 1300] along axis 1: two copy stages that each split. */
static const char concat_text[] =
   DGU_PRELUDE
   "OpDecorate %a_var DescriptorSet 0\n"
   "OpDecorate %a_var Binding 0\n"
   "OpDecorate %b_var DescriptorSet 0\n"
   "OpDecorate %b_var Binding 1\n"
   "OpDecorate %o_var DescriptorSet 0\n"
   "OpDecorate %o_var Binding 2\n"
   DGU_TYPES
   "%uint_700 = OpConstant %uint 700\n"
   "%uint_1300 = OpConstant %uint 1300\n"
   "%uint_2000 = OpConstant %uint 2000\n"
   "%sa = OpConstantComposite %arr_2 %uint_1 %uint_700\n"
   "%sb = OpConstantComposite %arr_2 %uint_1 %uint_1300\n"
   "%so = OpConstantComposite %arr_2 %uint_1 %uint_2000\n"
   "%ta = OpTypeTensorARM %float %uint_2 %sa\n"
   "%tb = OpTypeTensorARM %float %uint_2 %sb\n"
   "%to = OpTypeTensorARM %float %uint_2 %so\n"
   "%pa = OpTypePointer UniformConstant %ta\n"
   "%pb = OpTypePointer UniformConstant %tb\n"
   "%po = OpTypePointer UniformConstant %to\n"
   "%a_var = OpVariable %pa UniformConstant\n"
   "%b_var = OpVariable %pb UniformConstant\n"
   "%o_var = OpVariable %po UniformConstant\n"
   "%gt = OpTypeGraphARM 2 %ta %tb %to\n"
   "OpGraphEntryPointARM %g \"main\" %a_var %b_var %o_var\n"
   "%g = OpGraphARM %gt\n"
   "%a = OpGraphInputARM %ta %uint_0\n"
   "%b = OpGraphInputARM %tb %uint_1\n"
   "%o = OpExtInst %to %tosa CONCAT %uint_1 %a %b\n"
   "OpGraphSetOutputARM %o %uint_0\n"
   "OpGraphEndARM\n";

static void
run_concat(struct dgu *u)
{
   test_set_context("CONCAT with split copies");
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 700}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 1300}},
      {0, 2, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 2000}},
   };
   struct dgu_pipeline_desc desc = {.text = concat_text, .bindings = bindings,
                                    .binding_count = 3};
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r);
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor a = {0}, b = {0}, o = {0};
   int64_t da[2] = {1, 700}, db[2] = {1, 1300}, dout[2] = {1, 2000};
   if (r == VK_SUCCESS && dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, da, &a) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, db, &b) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dout, &o)) {
      static float want[2000];
      float *x = a.data, *y = b.data;
      for (int i = 0; i < 700; i++)
         want[i] = x[i] = (float)i;
      for (int i = 0; i < 1300; i++)
         want[700 + i] = y[i] = -(float)i - 0.5f;
      memset(o.data, 0xcd, o.size);
      dgu_write(u, sets.sets[0], 0, 0, &a);
      dgu_write(u, sets.sets[0], 1, 0, &b);
      dgu_write(u, sets.sets[0], 2, 0, &o);
      if (dgu_run(u, &g, &sets, s.session))
         dgu_check_f32("concatenated", o.data, want, 2000);
   }
   dgu_tensor_destroy(u, &a);
   dgu_tensor_destroy(u, &b);
   dgu_tensor_destroy(u, &o);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   const char *forced = getenv("VMEL_GRAPH_MAX_GROUPS");
   struct dgu u;
   if (dgu_init(&u, NULL)) {
      if (forced) {
         /* 16,000 elements: 32 workgroups; x holds at most VMEL_GRAPH_MAX_GROUPS. */
         uint32_t max = (uint32_t)strtoul(forced, NULL, 0);
         run(&u, 250 * 64, max, (32 + max - 1) / max);
         run_concat(&u);
      } else {
         uint32_t limit = u.limits.maxComputeWorkGroupCount[0];
         /* The first element count that does not fit one dimension's workgroups. */
         uint64_t n = (uint64_t)limit * 64 * EW_ITEMS + 1;
         if (n > 64u << 20) {
            printf("maxComputeWorkGroupCount[0] is %u: the real case would need %llu "
                   "elements; skipped\n",
                   limit, (unsigned long long)n);
            ok(true, "skipped");
         } else {
            run(&u, (uint32_t)n, limit, 2);
         }
      }
   }
   dgu_finish(&u);
   return test_done();
}
