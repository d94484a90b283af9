/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Update-after-bind tensor sets under allocation failure (docs/decisions.md D32):
 * every allocation the layers make while an update-after-bind tensor layout is
 * created and sets of it are allocated (from pools with and without
 * FREE_DESCRIPTOR_SET) is failed in turn; each call returns VK_SUCCESS or
 * VK_ERROR_OUT_OF_HOST_MEMORY, a failure is logged, nothing crashes, and
 * afterwards a data-graph dispatch through such sets, rewritten after
 * recording, still computes the right result. Run with the driver's
 * update-after-bind and (the .emulated variant, and on lavapipe 22.3) the
 * tensor layer's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "rec_alloc.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;

static VkResult
create_layout(struct dgu *u, VkDescriptorSetLayout *layout)
{
   VkDescriptorBindingFlags flags[2] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
                                        VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT};
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 2,
       .pBindingFlags = flags,
   };
   VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 3, VK_SHADER_STAGE_ALL, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2, VK_SHADER_STAGE_ALL, NULL},
   };
   VkDescriptorSetLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &bf,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
       .bindingCount = 2,
       .pBindings = b,
   };
   return vkCreateDescriptorSetLayout(u->device, &info, NULL, layout);
}

static void
test_failures(struct dgu *u, struct rec_alloc *a)
{
   long k = 0;
   unsigned failing_runs = 0;
   for (; k < 200; k++) {
      VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 64};
      VkDescriptorPoolCreateInfo pci = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
          .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT |
                   (k & 1 ? VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT : 0),
          .maxSets = 8,
          .poolSizeCount = 1,
          .pPoolSizes = &size,
      };
      VkDescriptorPool pool = VK_NULL_HANDLE;
      if (!ok(vkCreateDescriptorPool(u->device, &pci, NULL, &pool) == VK_SUCCESS, "pool"))
         return;
      VkDescriptorSetLayout layout = VK_NULL_HANDLE;
      VkDescriptorSet sets[4] = {0};
      VkResult made = VK_SUCCESS, allocated = VK_SUCCESS;
      vku_capture_stderr_begin();
      rec_alloc_arm(a, k, false);
      made = create_layout(u, &layout);
      if (made == VK_SUCCESS) {
         VkDescriptorSetLayout layouts[4] = {layout, layout, layout, layout};
         VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                           .descriptorPool = pool,
                                           .descriptorSetCount = 4,
                                           .pSetLayouts = layouts};
         allocated = vkAllocateDescriptorSets(u->device, &ai, sets);
      }
      rec_alloc_disarm(a);
      const char *log = vku_capture_stderr_end();
      bool failed = a->failed > 0;
      ok((made == VK_SUCCESS || made == VK_ERROR_OUT_OF_HOST_MEMORY) &&
             (allocated == VK_SUCCESS || allocated == VK_ERROR_OUT_OF_HOST_MEMORY),
         "allocation %ld failed: layout %d, sets %d", k, made, allocated);
      if (failed) {
         failing_runs++;
         ok(made == VK_ERROR_OUT_OF_HOST_MEMORY || allocated == VK_ERROR_OUT_OF_HOST_MEMORY,
            "allocation %ld failed: reported (layout %d, sets %d)", k, made, allocated);
         ok(strstr(log, "memory") != NULL, "allocation %ld failed: logged", k);
      }
      if (allocated != VK_SUCCESS)
         ok(!sets[0] && !sets[3], "allocation %ld: no set handle left on failure", k);
      vkDestroyDescriptorPool(u->device, pool, NULL);
      vkDestroyDescriptorSetLayout(u->device, layout, NULL);
      if (!failed)
         break;
   }
   ok(failing_runs > 0 && k < 200, "%u of the layers' allocations failed in turn", failing_runs);
}

/* After the failures: a dispatch through update-after-bind sets rewritten after recording. */
static void
test_still_works(struct dgu *u)
{
   struct dgu_binding bindings[] = {
       {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
       {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   };
   struct dgu_pipeline_desc desc = {
       .text = text, .bindings = bindings, .binding_count = 2, .update_after_bind = true};
   struct dgu_graph g;
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor t[4] = {0};
   int64_t dims[2] = {1, N};
   bool made = ok(dgu_graph_create(u, &desc, &g) == VK_SUCCESS, "pipeline") &&
               dgu_session_create(u, g.pipeline, &s) && dgu_sets_create(u, &g, &sets);
   for (int i = 0; made && i < 4; i++) {
      made = dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &t[i]);
      for (int j = 0; made && j < N; j++)
         ((float *)t[i].data)[j] = (float)(j - N / 2) * 0.25f * (float)(i + 1);
   }
   if (made) {
      dgu_write(u, sets.sets[0], 0, 0, &t[0]);
      dgu_write(u, sets.sets[0], 1, 0, &t[1]);
      VkCommandBuffer cmd = dgu_begin(u);
      dgu_barrier_host_to_graph(cmd);
      dgu_dispatch(u, cmd, &g, &sets, s.session);
      dgu_barrier_graph_to_host(cmd);
      dgu_write(u, sets.sets[0], 0, 0, &t[2]);
      dgu_write(u, sets.sets[0], 1, 0, &t[3]);
      if (dgu_submit_wait(u, cmd)) {
         float want[N];
         dgu_clamp_add_sub_expect(t[2].data, want, N);
         dgu_check_f32("rewritten after recording", t[3].data, want, N);
      }
      dgu_free_cmd(u, cmd);
   }
   for (int i = 0; i < 4; i++)
      dgu_tensor_destroy(u, &t[i]);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   struct rec_alloc a;
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&a);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &callbacks, .update_after_bind = true};
   bool init = dgu_init(&u, &options);
   if (init && !u.update_after_bind) {
      /* Offered where the tensor layer's update-after-bind limits reach 500000, or with
       * VMEL_TENSOR_UPDATE_AFTER_BIND=emulate (the .emulated variant). */
      printf("dataGraphUpdateAfterBind is not offered here: skipped\n");
      dgu_finish(&u);
      return test_done() == 0 ? 77 : 1;
   }
   if (init) {
      test_failures(&u, &a);
      test_still_works(&u);
   }
   dgu_finish(&u);
   return test_done();
}
