/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor arrays and specialization constants:
 *  - a graph input that is an OpTypeArray of three tensors at one binding
 *    (descriptorCount 3), its elements read with ElementIndex, added
 *    together; an output array of two tensors at another binding whose
 *    elements are set with ElementIndex;
 *  - shapes and an attribute from OpSpecConstant values given by
 *    VkSpecializationInfo: the same module created with two specializations
 *    (shape [1, 8] and clamp bound 1; shape [1, 40] and bound 3), each run.
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 32

/* out[0] = a[0] + a[1] + a[2]; out[1] = a[2] - a[1]; plain = a[1]. */
static const char arrays_text[] =
   DGU_PRELUDE
   "OpDecorate %a_var DescriptorSet 0\n"
   "OpDecorate %a_var Binding 0\n"
   "OpDecorate %o_var DescriptorSet 0\n"
   "OpDecorate %o_var Binding 3\n"
   "OpDecorate %p_var DescriptorSet 1\n"
   "OpDecorate %p_var Binding 0\n"
   DGU_TYPES
   "%uint_32 = OpConstant %uint 32\n"
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_32\n"
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"
   "%t3 = OpTypeArray %t %uint_3\n"
   "%t2 = OpTypeArray %t %uint_2\n"
   "%ptr3 = OpTypePointer UniformConstant %t3\n"
   "%ptr2 = OpTypePointer UniformConstant %t2\n"
   "%ptr = OpTypePointer UniformConstant %t\n"
   "%a_var = OpVariable %ptr3 UniformConstant\n"
   "%o_var = OpVariable %ptr2 UniformConstant\n"
   "%p_var = OpVariable %ptr UniformConstant\n"
   "%gt = OpTypeGraphARM 1 %t3 %t2 %t\n"
   "OpGraphEntryPointARM %g \"main\" %a_var %o_var %p_var\n"
   "%g = OpGraphARM %gt\n"
   "%a0 = OpGraphInputARM %t %uint_0 %uint_0\n"
   "%a1 = OpGraphInputARM %t %uint_0 %uint_1\n"
   "%a2 = OpGraphInputARM %t %uint_0 %uint_2\n"
   "%s01 = OpExtInst %t %tosa ADD %a0 %a1\n"
   "%s = OpExtInst %t %tosa ADD %s01 %a2\n"
   "%d = OpExtInst %t %tosa SUB %a2 %a1\n"
   "OpGraphSetOutputARM %s %uint_0 %uint_0\n"
   "OpGraphSetOutputARM %d %uint_0 %uint_1\n"
   "OpGraphSetOutputARM %a1 %uint_1\n"
   "OpGraphEndARM\n";

static void
test_arrays(struct dgu *u)
{
   test_set_context("tensor arrays");
   struct dgu_binding bindings[] = {
      {0, 0, 3, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
      {0, 3, 2, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
      {1, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   };
   struct dgu_pipeline_desc desc = {.text = arrays_text, .bindings = bindings,
                                    .binding_count = 3};
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r);
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor t[6];
   memset(t, 0, sizeof(t));
   int64_t dims[2] = {1, N};
   bool made = r == VK_SUCCESS && dgu_session_create(u, g.pipeline, &s) &&
               dgu_sets_create(u, &g, &sets);
   for (int i = 0; made && i < 6; i++)
      made = dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &t[i]);
   if (made) {
      for (int k = 0; k < 3; k++) {
         float *x = t[k].data;
         for (int i = 0; i < N; i++)
            x[i] = (float)(i + 1) * (float)(k * k + 1) - 4.0f * (float)k;
      }
      for (int k = 3; k < 6; k++)
         memset(t[k].data, 0xcd, t[k].size);
      /* The array's elements out of order: element e is tensor 2 - e. */
      for (uint32_t e = 0; e < 3; e++)
         dgu_write(u, sets.sets[0], 0, e, &t[2 - e]);
      dgu_write(u, sets.sets[0], 3, 0, &t[3]);
      dgu_write(u, sets.sets[0], 3, 1, &t[4]);
      dgu_write(u, sets.sets[1], 0, 0, &t[5]);
      if (dgu_run(u, &g, &sets, s.session)) {
         const float *a0 = t[2].data, *a1 = t[1].data, *a2 = t[0].data;
         float sum[N], diff[N];
         for (int i = 0; i < N; i++) {
            sum[i] = (a0[i] + a1[i]) + a2[i];
            diff[i] = a2[i] - a1[i];
         }
         dgu_check_f32("out[0] = a[0] + a[1] + a[2]", t[3].data, sum, N);
         dgu_check_f32("out[1] = a[2] - a[1]", t[4].data, diff, N);
         dgu_check_f32("plain output = a[1]", t[5].data, a1, N);
      }
   }
   for (int i = 0; i < 6; i++)
      dgu_tensor_destroy(u, &t[i]);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

/* Shape [1, W] with W = SpecId 0 (default 4); CLAMP to [-B, B] with B = SpecId 1 (float,
 * default 0.5); then ADD of the clamped tensor and the input. */
static const char spec_text[] =
   DGU_PRELUDE
   "OpDecorate %in_var DescriptorSet 0\n"
   "OpDecorate %in_var Binding 0\n"
   "OpDecorate %out_var DescriptorSet 0\n"
   "OpDecorate %out_var Binding 1\n"
   "OpDecorate %width SpecId 0\n"
   "OpDecorate %bound SpecId 1\n"
   "OpDecorate %neg SpecId 2\n"
   DGU_TYPES
   "%width = OpSpecConstant %uint 4\n"
   "%bound = OpSpecConstant %float 0.5\n"
   "%neg = OpSpecConstant %float -0.5\n"
   "%shape = OpSpecConstantComposite %arr_2 %uint_1 %width\n"
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"
   "%ptr = OpTypePointer UniformConstant %t\n"
   "%in_var = OpVariable %ptr UniformConstant\n"
   "%out_var = OpVariable %ptr UniformConstant\n"
   "%gt = OpTypeGraphARM 1 %t %t\n"
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
   "%g = OpGraphARM %gt\n"
   "%in = OpGraphInputARM %t %uint_0\n"
   "%c = OpExtInst %t %tosa CLAMP %neg %bound %propagate %in\n"
   "%out = OpExtInst %t %tosa ADD %c %in\n"
   "OpGraphSetOutputARM %out %uint_0\n"
   "OpGraphEndARM\n";

struct spec_data {
   uint32_t width;
   float bound, neg;
};

static void
run_spec(struct dgu *u, uint32_t width, float bound)
{
   char context[64];
   snprintf(context, sizeof(context), "specialization W=%u B=%g", width, (double)bound);
   test_set_context(context);
   struct spec_data data = {width, bound, -bound};
   VkSpecializationMapEntry entries[] = {
      {0, offsetof(struct spec_data, width), 4},
      {1, offsetof(struct spec_data, bound), 4},
      {2, offsetof(struct spec_data, neg), 4},
   };
   VkSpecializationInfo si = {3, entries, sizeof(data), &data};
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, width}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, width}},
   };
   struct dgu_pipeline_desc desc = {.text = spec_text, .bindings = bindings, .binding_count = 2,
                                    .specialization = &si};
   struct dgu_graph g;
   VkResult r = dgu_graph_create(u, &desc, &g);
   ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r);
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, width};
   if (r == VK_SUCCESS && dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
      float *x = in.data, want[64];
      for (uint32_t i = 0; i < width; i++) {
         x[i] = ((float)i - (float)width / 2) * 0.375f;
         want[i] = fminf(fmaxf(x[i], -bound), bound) + x[i];
      }
      memset(out.data, 0xcd, out.size);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, &g, &sets, s.session))
         dgu_check_f32("out", out.data, want, width);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

static void
test_spec_mismatch(struct dgu *u)
{
   /* Resource infos must describe the specialized shape: the default [1, 4] with a
    * specialization to 8 fails as invalid usage. */
   test_set_context("specialization vs resource info");
   uint32_t width = 8;
   VkSpecializationMapEntry entry = {0, 0, 4};
   VkSpecializationInfo si = {1, &entry, 4, &width};
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 4}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 4}},
   };
   struct dgu_pipeline_desc desc = {.text = spec_text, .bindings = bindings, .binding_count = 2,
                                    .specialization = &si};
   struct dgu_graph g;
   vku_capture_stderr_begin();
   VkResult r = dgu_graph_create(u, &desc, &g);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_ERROR_VALIDATION_FAILED_EXT && g.pipeline == VK_NULL_HANDLE,
      "a [1, 4] resource info for a [1, 8] input: %d", r);
   ok(strstr(log, "pDimensions [1,4]") != NULL, "the log names the dimensions");
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   struct dgu u;
   if (dgu_init(&u, NULL)) {
      test_arrays(&u);
      run_spec(&u, 4, 0.5f);
      run_spec(&u, 8, 1.0f);
      run_spec(&u, 40, 3.0f);
      test_spec_mismatch(&u);
   }
   dgu_finish(&u);
   return test_done();
}
