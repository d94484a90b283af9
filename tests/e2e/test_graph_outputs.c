/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Graph outputs that no node writes in place: an output that is a graph
 * input (one used by a node, one not), a graph constant, a module constant,
 * and one tensor set as two outputs; and a graph with no node at all (its
 * output is its input). Each takes the runtime's copy path.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 16

static const char outputs_text[] =
   DGU_PRELUDE
   "OpDecorate %v0 DescriptorSet 0\n"
   "OpDecorate %v0 Binding 0\n"
   "OpDecorate %v1 DescriptorSet 0\n"
   "OpDecorate %v1 Binding 1\n"
   "OpDecorate %o0 DescriptorSet 1\n"
   "OpDecorate %o0 Binding 0\n"
   "OpDecorate %o1 DescriptorSet 1\n"
   "OpDecorate %o1 Binding 1\n"
   "OpDecorate %o2 DescriptorSet 1\n"
   "OpDecorate %o2 Binding 2\n"
   "OpDecorate %o3 DescriptorSet 1\n"
   "OpDecorate %o3 Binding 3\n"
   "OpDecorate %o4 DescriptorSet 1\n"
   "OpDecorate %o4 Binding 4\n"
   "OpDecorate %o5 DescriptorSet 1\n"
   "OpDecorate %o5 Binding 5\n"
   DGU_TYPES
   "%uint_16 = OpConstant %uint 16\n"
   "%uint_5 = OpConstant %uint 5\n"
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_16\n"
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"
   "%ptr = OpTypePointer UniformConstant %t\n"
   "%v0 = OpVariable %ptr UniformConstant\n"
   "%v1 = OpVariable %ptr UniformConstant\n"
   "%o0 = OpVariable %ptr UniformConstant\n"
   "%o1 = OpVariable %ptr UniformConstant\n"
   "%o2 = OpVariable %ptr UniformConstant\n"
   "%o3 = OpVariable %ptr UniformConstant\n"
   "%o4 = OpVariable %ptr UniformConstant\n"
   "%o5 = OpVariable %ptr UniformConstant\n"
   "%f_2_5 = OpConstant %float 2.5\n"
   "%mc = OpConstantCompositeReplicateEXT %t %f_2_5\n"
   "%gc = OpGraphConstantARM %t 7\n"
   "%gt = OpTypeGraphARM 2 %t %t %t %t %t %t %t %t\n"
   "OpGraphEntryPointARM %g \"main\" %v0 %v1 %o0 %o1 %o2 %o3 %o4 %o5\n"
   "%g = OpGraphARM %gt\n"
   "%in0 = OpGraphInputARM %t %uint_0\n"
   "%in1 = OpGraphInputARM %t %uint_1\n"
   "%sum = OpExtInst %t %tosa ADD %in0 %in1\n"
   "OpGraphSetOutputARM %in0 %uint_0\n"
   "OpGraphSetOutputARM %gc %uint_1\n"
   "OpGraphSetOutputARM %sum %uint_2\n"
   "OpGraphSetOutputARM %sum %uint_3\n"
   "OpGraphSetOutputARM %mc %uint_4\n"
   "OpGraphSetOutputARM %in1 %uint_5\n"
   "OpGraphEndARM\n";

static const char passthrough_text[] =
   DGU_PRELUDE
   "OpDecorate %v0 DescriptorSet 0\n"
   "OpDecorate %v0 Binding 0\n"
   "OpDecorate %o0 DescriptorSet 0\n"
   "OpDecorate %o0 Binding 1\n"
   DGU_TYPES
   "%uint_16 = OpConstant %uint 16\n"
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_16\n"
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"
   "%ptr = OpTypePointer UniformConstant %t\n"
   "%v0 = OpVariable %ptr UniformConstant\n"
   "%o0 = OpVariable %ptr UniformConstant\n"
   "%gt = OpTypeGraphARM 1 %t %t\n"
   "OpGraphEntryPointARM %g \"main\" %v0 %o0\n"
   "%g = OpGraphARM %gt\n"
   "%in0 = OpGraphInputARM %t %uint_0\n"
   "OpGraphSetOutputARM %in0 %uint_0\n"
   "OpGraphEndARM\n";

static void
test_outputs(struct dgu *u)
{
   test_set_context("outputs");
   static float gc[N];
   for (int i = 0; i < N; i++)
      gc[i] = 100.0f + (float)i;
   struct dgu_binding bindings[8];
   for (uint32_t i = 0; i < 8; i++)
      bindings[i] = (struct dgu_binding){i < 2 ? 0 : 1, i < 2 ? i : i - 2, 1,
                                         VK_FORMAT_R32_SFLOAT, 2, {1, N}};
   struct dgu_constant constants[] = {{7, VK_FORMAT_R32_SFLOAT, 2, {1, N}, gc}};
   struct dgu_pipeline_desc desc = {
      .text = outputs_text,
      .bindings = bindings,
      .binding_count = 8,
      .constants = constants,
      .constant_count = 1,
   };
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r)) {
      char *log =
         dgu_text_property(u, g.pipeline, VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM);
      /* One ADD written in place into output 2, and five copies. */
      int copies = 0;
      for (const char *p = log; p && (p = strstr(p, "output copy")); p++)
         copies++;
      ok(copies == 5, "%d output copies in the creation log:\n%s", copies, log ? log : "");
      free(log);
   }
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor t[8];
   memset(t, 0, sizeof(t));
   int64_t dims[2] = {1, N};
   bool made = r == VK_SUCCESS && dgu_session_create(u, g.pipeline, &s) &&
               dgu_sets_create(u, &g, &sets);
   for (int i = 0; made && i < 8; i++)
      made = dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &t[i]);
   if (made) {
      ok(s.size == 0 && s.memory == VK_NULL_HANDLE,
         "no intermediates: no bind point (%llu bytes)", (unsigned long long)s.size);
      float *in0 = t[0].data, *in1 = t[1].data;
      for (int i = 0; i < N; i++) {
         in0[i] = (float)i * 0.5f;
         in1[i] = -(float)i;
      }
      for (int i = 2; i < 8; i++)
         memset(t[i].data, 0xcd, t[i].size);
      for (uint32_t i = 0; i < 8; i++)
         dgu_write(u, sets.sets[i < 2 ? 0 : 1], i < 2 ? i : i - 2, 0, &t[i]);
      if (dgu_run(u, &g, &sets, s.session)) {
         float sum[N], mc[N];
         for (int i = 0; i < N; i++) {
            sum[i] = in0[i] + in1[i];
            mc[i] = 2.5f;
         }
         dgu_check_f32("output 0 (input 0)", t[2].data, in0, N);
         dgu_check_f32("output 1 (graph constant)", t[3].data, gc, N);
         dgu_check_f32("output 2 (ADD in place)", t[4].data, sum, N);
         dgu_check_f32("output 3 (ADD again)", t[5].data, sum, N);
         dgu_check_f32("output 4 (module constant)", t[6].data, mc, N);
         dgu_check_f32("output 5 (input 1, also read by ADD)", t[7].data, in1, N);
      }
   }
   for (int i = 0; i < 8; i++)
      dgu_tensor_destroy(u, &t[i]);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

static void
test_passthrough(struct dgu *u)
{
   test_set_context("no nodes");
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   };
   struct dgu_pipeline_desc desc = {.text = passthrough_text, .bindings = bindings,
                                    .binding_count = 2};
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r);
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, N};
   if (r == VK_SUCCESS && dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
      float *x = in.data;
      for (int i = 0; i < N; i++)
         x[i] = (float)(i * i) - 3.0f;
      memset(out.data, 0, out.size);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, &g, &sets, s.session))
         dgu_check_f32("output (the input)", out.data, x, N);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   struct dgu u;
   struct dgu_options options = {.sync_validation = true};
   if (dgu_init(&u, &options)) {
      test_outputs(&u);
      test_passthrough(&u);
   }
   dgu_finish(&u);
   return test_done();
}
