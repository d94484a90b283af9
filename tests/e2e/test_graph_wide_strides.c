/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A data graph whose input and output tensors have an innermost stride wider
 * than the element (VUID-VkTensorDescriptionARM-pStrides-09736, accepted with
 * a warning as Arm's layer does: docs/decisions.md D28), through the
 * loader, both layers and validation on lavapipe: CLAMP, ADD, SUB over a
 * [1, 64] fp32 tensor whose elements lie 8 bytes apart, written into one whose
 * elements lie 12 bytes apart (the bytes between the output's elements checked
 * untouched), and CLAMP over an i8 [1, 4, 5, 3] tensor with strides
 * {120, 30, 6, 2}, Arm's R8 case. Every element is checked against the reference.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;

/* A tensor with the given strides in host-visible memory, with a view; data holds the
 * bytes (not packed), 0xee where no element lies. */
static bool
strided_tensor(struct dgu *u, VkFormat format, uint32_t rank, const int64_t *dims,
               const int64_t *strides, struct dgu_tensor *t)
{
   memset(t, 0, sizeof(*t));
   t->format = format;
   t->rank = rank;
   t->elements = 1;
   for (uint32_t i = 0; i < rank; i++) {
      t->dims[i] = dims[i];
      t->elements *= (uint64_t)dims[i];
   }
   t->size = (size_t)(strides[0] * dims[0]);
   VkTensorDescriptionARM desc = dgu_description(t->format, rank, t->dims);
   desc.pStrides = strides;
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &desc,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   vku_capture_stderr_begin();
   VkResult r = u->fn.CreateTensorARM(u->device, &tci, NULL, &t->tensor);
   const char *log = vku_capture_stderr_end();
   if (!ok(r == VK_SUCCESS, "vkCreateTensorARM, innermost stride %d: %d", (int)strides[rank - 1],
           r))
      return false;
   ok(strstr(log, "VUID-VkTensorDescriptionARM-pStrides-09736") != NULL, "warning names 09736");
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t->tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   u->fn.GetTensorMemoryRequirementsARM(u->device, &ri, &req);
   ok(req.memoryRequirements.size >= t->size, "memory requirements cover %zu bytes", t->size);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.memoryRequirements.size,
       .memoryTypeIndex = vku_host_memory_type(&u->v, req.memoryRequirements.memoryTypeBits),
   };
   r = vkAllocateMemory(u->device, &mai, NULL, &t->memory);
   if (!ok(r == VK_SUCCESS, "tensor memory: %d", r))
      return false;
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .tensor = t->tensor,
                                   .memory = t->memory};
   r = u->fn.BindTensorMemoryARM(u->device, 1, &bi);
   if (r == VK_SUCCESS)
      r = vkMapMemory(u->device, t->memory, 0, VK_WHOLE_SIZE, 0, &t->data);
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = t->tensor,
                                   .format = t->format};
   if (r == VK_SUCCESS)
      r = u->fn.CreateTensorViewARM(u->device, &vi, NULL, &t->view);
   if (r == VK_SUCCESS)
      memset(t->data, 0xee, t->size);
   return ok(r == VK_SUCCESS, "tensor binding, mapping and view: %d", r);
}

/* CLAMP/ADD/SUB over [1, N] fp32: input elements 8 bytes apart, output 12. */
static void
test_fp32(struct dgu *u)
{
   test_set_context("fp32, strides 8 and 12");
   struct dgu_binding bindings[] = {
       {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
       {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   };
   struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
   struct dgu_graph g;
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in, out;
   memset(&s, 0, sizeof(s));
   memset(&sets, 0, sizeof(sets));
   memset(&in, 0, sizeof(in));
   memset(&out, 0, sizeof(out));
   const int64_t dims[2] = {1, N}, in_strides[2] = {8 * N, 8}, out_strides[2] = {12 * N, 12};
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r) &&
       dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       strided_tensor(u, VK_FORMAT_R32_SFLOAT, 2, dims, in_strides, &in) &&
       strided_tensor(u, VK_FORMAT_R32_SFLOAT, 2, dims, out_strides, &out)) {
      float x[N], want[N];
      for (int i = 0; i < N; i++) {
         x[i] = ((float)i - N / 2) * 0.125f;
         memcpy((char *)in.data + 8 * i, &x[i], 4);
      }
      dgu_clamp_add_sub_expect(x, want, N);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (ok(dgu_run(u, &g, &sets, s.session), "dispatch")) {
         float got[N];
         unsigned touched = 0;
         for (int i = 0; i < N; i++) {
            const unsigned char *p = (const unsigned char *)out.data + 12 * i;
            memcpy(&got[i], p, 4);
            for (int b = 4; b < 12; b++)
               touched += p[b] != 0xee;
         }
         dgu_check_f32("output element i at byte 12i from input element i at byte 8i", got, want,
                       N);
         ok(touched == 0, "the bytes between output elements are untouched: %u written", touched);
      }
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
   test_set_context(NULL);
}

/* CLAMP [-10, 20] over an i8 [1, 4, 5, 3] tensor with strides {120, 30, 6, 2} (the issue's
 * R8 case) into a packed one. */
static const char i8_text[] =
    DGU_PRELUDE "OpDecorate %in_var DescriptorSet 0\n"
                "OpDecorate %in_var Binding 0\n"
                "OpDecorate %out_var DescriptorSet 0\n"
                "OpDecorate %out_var Binding 1\n" DGU_TYPES "%uint_5 = OpConstant %uint 5\n"
                "%shape = OpConstantComposite %arr_4 %uint_1 %uint_4 %uint_5 %uint_3\n"
                "%t = OpTypeTensorARM %uchar %uint_4 %shape\n"
                "%ptr = OpTypePointer UniformConstant %t\n"
                "%in_var = OpVariable %ptr UniformConstant\n"
                "%out_var = OpVariable %ptr UniformConstant\n"
                "%lo = OpConstant %uchar 246\n" /* -10 */
                "%hi = OpConstant %uchar 20\n"
                "%gt = OpTypeGraphARM 1 %t %t\n"
                "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
                "%g = OpGraphARM %gt\n"
                "%in = OpGraphInputARM %t %uint_0\n"
                "%out = OpExtInst %t %tosa CLAMP %lo %hi %propagate %in\n"
                "OpGraphSetOutputARM %out %uint_0\n"
                "OpGraphEndARM\n";

static void
test_i8(struct dgu *u)
{
   test_set_context("i8, strides {120, 30, 6, 2}");
   struct dgu_binding bindings[] = {
       {0, 0, 1, VK_FORMAT_R8_SINT, 4, {1, 4, 5, 3}},
       {0, 1, 1, VK_FORMAT_R8_SINT, 4, {1, 4, 5, 3}},
   };
   struct dgu_pipeline_desc desc = {.text = i8_text, .bindings = bindings, .binding_count = 2};
   struct dgu_graph g;
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in, out;
   memset(&s, 0, sizeof(s));
   memset(&sets, 0, sizeof(sets));
   memset(&in, 0, sizeof(in));
   memset(&out, 0, sizeof(out));
   const int64_t dims[4] = {1, 4, 5, 3}, strides[4] = {120, 30, 6, 2};
   enum { E = 60 };
   VkResult r = dgu_graph_create(u, &desc, &g);
   if (ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r) &&
       dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets) &&
       strided_tensor(u, VK_FORMAT_R8_SINT, 4, dims, strides, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R8_SINT, 4, dims, &out)) {
      int8_t want[E];
      for (int i = 0; i < E; i++) {
         int8_t x = (int8_t)(i * 7 - 200);
         ((int8_t *)in.data)[2 * i] = x;
         want[i] = x < -10 ? -10 : x > 20 ? 20 : x;
      }
      memset(out.data, 0x55, E);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (ok(dgu_run(u, &g, &sets, s.session), "dispatch"))
         dgu_check_bytes("element i read from byte 2i", out.data, want, E);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
   test_set_context(NULL);
}

int
main(void)
{
   struct dgu u;
   if (!dgu_init(&u, &(struct dgu_options){0}))
      return test_done();
   test_fp32(&u);
   test_i8(&u);
   dgu_finish(&u);
   return test_done();
}
