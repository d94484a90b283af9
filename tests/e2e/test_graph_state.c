/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What a data-graph dispatch leaves of the application's command buffer
 * state, and the data-graph stage and access bits in the application's
 * synchronization:
 *  - the application binds a compute pipeline, two descriptor sets and push
 *    constants, records a data-graph dispatch (whose kernels bind their own
 *    pipelines and sets at the compute bind point), then dispatches its own
 *    pipeline without binding anything again: its result shows its state was
 *    put back; the same with the application's state bound between the
 *    data-graph binds and the dispatch, and with a second push after it;
 *  - VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM and the data-graph access bits in
 *    global, buffer and tensor memory barriers, in vkCmdSetEvent2 /
 *    vkCmdWaitEvents2 / vkCmdResetEvent2, in vkCmdWriteTimestamp2, and in the
 *    semaphore stage masks of vkQueueSubmit2 (one submission signals a
 *    semaphore after the graph, the next waits on it at the data-graph stage
 *    and reads the result). A validation message about an unknown stage or
 *    access bit would fail the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"
#include "vmel_kernels_test.h"

TEST_MAIN_STATE;

#define N 64

static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;

/* The application's own compute work. */
struct app {
   VkBuffer buffers[2]; /* out, in */
   VkDeviceMemory memory[2];
   uint32_t *words[2];
   VkDescriptorSetLayout set_layouts[2];
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet sets[2];
};

static bool
app_init(struct dgu *u, struct app *a)
{
   memset(a, 0, sizeof(*a));
   VkDevice d = u->device;
   VkResult r = VK_SUCCESS;
   for (int i = 0; i < 2 && r == VK_SUCCESS; i++) {
      VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                                .size = N * sizeof(uint32_t),
                                .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
      r = vkCreateBuffer(d, &bci, NULL, &a->buffers[i]);
      VkMemoryRequirements req;
      vkGetBufferMemoryRequirements(d, a->buffers[i], &req);
      VkMemoryAllocateInfo mai = {
         .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
         .allocationSize = req.size,
         .memoryTypeIndex = vku_host_memory_type(&u->v, req.memoryTypeBits),
      };
      if (r == VK_SUCCESS)
         r = vkAllocateMemory(d, &mai, NULL, &a->memory[i]);
      if (r == VK_SUCCESS)
         r = vkBindBufferMemory(d, a->buffers[i], a->memory[i], 0);
      if (r == VK_SUCCESS)
         r = vkMapMemory(d, a->memory[i], 0, VK_WHOLE_SIZE, 0, (void **)&a->words[i]);
      VkDescriptorSetLayoutBinding b = {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1,
                                        VK_SHADER_STAGE_COMPUTE_BIT, NULL};
      VkDescriptorSetLayoutCreateInfo sli = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
         .bindingCount = 1,
         .pBindings = &b};
      if (r == VK_SUCCESS)
         r = vkCreateDescriptorSetLayout(d, &sli, NULL, &a->set_layouts[i]);
   }
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 12};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 2,
                                      .pSetLayouts = a->set_layouts,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   if (r == VK_SUCCESS)
      r = vkCreatePipelineLayout(d, &plci, NULL, &a->layout);
   const struct vmel_kernel *k = &test_kernels[TEST_KERNEL_APP_STATE];
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = k->word_count * 4,
                                   .pCode = k->code};
   VkShaderModule module = VK_NULL_HANDLE;
   if (r == VK_SUCCESS)
      r = vkCreateShaderModule(d, &mci, NULL, &module);
   VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main"},
      .layout = a->layout,
   };
   if (r == VK_SUCCESS)
      r = vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpci, NULL, &a->pipeline);
   if (module)
      vkDestroyShaderModule(d, module, NULL);
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 2,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
   if (r == VK_SUCCESS)
      r = vkCreateDescriptorPool(d, &pci, NULL, &a->pool);
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = a->pool,
                                     .descriptorSetCount = 2,
                                     .pSetLayouts = a->set_layouts};
   if (r == VK_SUCCESS)
      r = vkAllocateDescriptorSets(d, &ai, a->sets);
   for (int i = 0; i < 2 && r == VK_SUCCESS; i++) {
      VkDescriptorBufferInfo bi = {a->buffers[i], 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .dstSet = a->sets[i],
                                .descriptorCount = 1,
                                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                .pBufferInfo = &bi};
      vkUpdateDescriptorSets(d, 1, &w, 0, NULL);
   }
   return ok(r == VK_SUCCESS, "the application's compute objects: %d", r);
}

static void
app_finish(struct dgu *u, struct app *a)
{
   VkDevice d = u->device;
   vkDestroyDescriptorPool(d, a->pool, NULL);
   vkDestroyPipeline(d, a->pipeline, NULL);
   vkDestroyPipelineLayout(d, a->layout, NULL);
   for (int i = 0; i < 2; i++) {
      vkDestroyDescriptorSetLayout(d, a->set_layouts[i], NULL);
      vkDestroyBuffer(d, a->buffers[i], NULL);
      vkFreeMemory(d, a->memory[i], NULL);
   }
}

struct graph {
   struct dgu_graph g;
   struct dgu_session s;
   struct dgu_sets sets;
   struct dgu_tensor in, out;
};

static bool
graph_init(struct dgu *u, struct graph *gr)
{
   memset(gr, 0, sizeof(*gr));
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   };
   struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
   int64_t dims[2] = {1, N};
   if (!ok(dgu_graph_create(u, &desc, &gr->g) == VK_SUCCESS, "data-graph pipeline") ||
       !dgu_session_create(u, gr->g.pipeline, &gr->s) || !dgu_sets_create(u, &gr->g, &gr->sets) ||
       !dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &gr->in) ||
       !dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &gr->out))
      return false;
   dgu_write(u, gr->sets.sets[0], 0, 0, &gr->in);
   dgu_write(u, gr->sets.sets[0], 1, 0, &gr->out);
   return true;
}

static void
graph_finish(struct dgu *u, struct graph *gr)
{
   dgu_tensor_destroy(u, &gr->in);
   dgu_tensor_destroy(u, &gr->out);
   dgu_sets_destroy(u, &gr->sets);
   dgu_session_destroy(u, &gr->s);
   dgu_graph_destroy(u, &gr->g);
}

static void
reset_data(struct app *a, struct graph *gr, float scale)
{
   float *x = gr->in.data;
   for (int i = 0; i < N; i++) {
      x[i] = ((float)i - N / 2) * scale;
      a->words[1][i] = (uint32_t)i + 1;
      a->words[0][i] = 0xdeadbeef;
   }
   memset(gr->out.data, 0xcd, gr->out.size);
}

static bool
check_app(const char *what, const struct app *a, uint32_t mul, uint32_t add)
{
   for (int i = 0; i < N; i++) {
      uint32_t want = (uint32_t)(i + 1) * mul + add;
      if (a->words[0][i] != want)
         return ok(false, "%s: out[%d] = %u, want %u", what, i, a->words[0][i], want);
   }
   return ok(true, "%s", what);
}

static void
check_graph(const char *what, const struct graph *gr)
{
   float want[N];
   dgu_clamp_add_sub_expect(gr->in.data, want, N);
   dgu_check_f32(what, gr->out.data, want, N);
}

static void
test_compute_state(struct dgu *u, struct app *a, struct graph *gr)
{
   test_set_context("compute state around a dispatch");
   const uint32_t push[3] = {3, 7, N};
   /* 1: the application's state bound first, the graph dispatched, then the app's
    * dispatch. */
   reset_data(a, gr, 0.125f);
   VkCommandBuffer cmd = dgu_begin(u);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT,
               VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->layout, 0, 2, a->sets, 0,
                           NULL);
   vkCmdPushConstants(cmd, a->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
   dgu_dispatch(u, cmd, &gr->g, &gr->sets, gr->s.session);
   vkCmdDispatch(cmd, 1, 1, 1);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
   if (dgu_submit_wait(u, cmd)) {
      check_app("the app's dispatch after the graph's", a, 3, 7);
      check_graph("the graph", gr);
   }

   /* 2: data-graph binds first, the app's state between them and the dispatch, a second
    * push of one word after it. */
   reset_data(a, gr, -0.25f);
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(cmd, &bi);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT,
               VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_SHADER_STORAGE_READ_BIT);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, gr->g.pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, gr->g.layout, 0, 1,
                           gr->sets.sets, 0, NULL);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->layout, 1, 1, &a->sets[1], 0,
                           NULL);
   vkCmdPushConstants(cmd, a->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->layout, 0, 1, &a->sets[0], 0,
                           NULL);
   u->fn.CmdDispatchDataGraphARM(cmd, gr->s.session, NULL);
   const uint32_t add = 11;
   vkCmdPushConstants(cmd, a->layout, VK_SHADER_STAGE_COMPUTE_BIT, 4, 4, &add);
   vkCmdDispatch(cmd, 1, 1, 1);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
   if (dgu_submit_wait(u, cmd)) {
      check_app("app state bound between the data-graph binds and the dispatch", a, 3, 11);
      check_graph("the graph (second recording)", gr);
   }
   dgu_free_cmd(u, cmd);
}

static void
test_sync_bits(struct dgu *u, struct app *a, struct graph *gr)
{
   test_set_context("data-graph synchronization bits");
   reset_data(a, gr, 0.5f);
   VkDevice d = u->device;
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO,
                            .flags = VK_EVENT_CREATE_DEVICE_ONLY_BIT};
   VkEvent event;
   VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 2};
   VkQueryPool pool;
   VkSemaphoreCreateInfo sci = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
   VkSemaphore sem;
   if (!ok(vkCreateEvent(d, &eci, NULL, &event) == VK_SUCCESS &&
              vkCreateQueryPool(d, &qci, NULL, &pool) == VK_SUCCESS &&
              vkCreateSemaphore(d, &sci, NULL, &sem) == VK_SUCCESS,
           "event, query pool, semaphore"))
      return;

   /* Submission 1: barriers of every kind with data-graph bits, the graph, an event set
    * at the data-graph stage, timestamps at it; signals the semaphore after the graph. */
   VkCommandBuffer first = dgu_begin(u);
   vkCmdResetQueryPool(first, pool, 0, 2);
   VkBufferMemoryBarrier2 bb = {.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
                                .srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                                .srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT,
                                .dstStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                                .dstAccessMask = VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM,
                                .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                .buffer = a->buffers[1],
                                .size = VK_WHOLE_SIZE};
   VkTensorMemoryBarrierARM tb[2] = {
      {.sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM,
       .srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
       .srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT,
       .dstStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
       .dstAccessMask = VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .tensor = gr->in.tensor},
      {.sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM,
       .srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
       .srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT,
       .dstStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
       .dstAccessMask = VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .tensor = gr->out.tensor},
   };
   VkTensorDependencyInfoARM tdi = {.sType = VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM,
                                    .tensorMemoryBarrierCount = 2,
                                    .pTensorMemoryBarriers = tb};
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                           .pNext = &tdi,
                           .bufferMemoryBarrierCount = 1,
                           .pBufferMemoryBarriers = &bb};
   vkCmdPipelineBarrier2(first, &dep);
   vkCmdWriteTimestamp2(first, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, pool, 0);
   dgu_dispatch(u, first, &gr->g, &gr->sets, gr->s.session);
   vkCmdWriteTimestamp2(first, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, pool, 1);
   VkMemoryBarrier2 ev = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                          .srcStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                          .srcAccessMask = VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
                          .dstStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                          .dstAccessMask = VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM};
   VkDependencyInfo evdep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                             .memoryBarrierCount = 1,
                             .pMemoryBarriers = &ev};
   vkCmdSetEvent2(first, event, &evdep);
   vkCmdWaitEvents2(first, 1, &event, &evdep);
   vkCmdResetEvent2(first, event, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM);
   vkEndCommandBuffer(first);

   /* Submission 2 waits for the semaphore at the data-graph stage and makes the graph's
    * output visible to the host. */
   VkCommandBuffer second = dgu_begin(u);
   dgu_barrier_graph_to_host(second);
   vkEndCommandBuffer(second);

   VkCommandBufferSubmitInfo cb[2] = {
      {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = first},
      {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO, .commandBuffer = second},
   };
   VkSemaphoreSubmitInfo signal = {.sType = VK_STRUCTURE_TYPE_SEMAPHORE_SUBMIT_INFO,
                                   .semaphore = sem,
                                   .stageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM};
   VkSemaphoreSubmitInfo wait = signal;
   VkSubmitInfo2 si[2] = {
      {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
       .commandBufferInfoCount = 1,
       .pCommandBufferInfos = &cb[0],
       .signalSemaphoreInfoCount = 1,
       .pSignalSemaphoreInfos = &signal},
      {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
       .waitSemaphoreInfoCount = 1,
       .pWaitSemaphoreInfos = &wait,
       .commandBufferInfoCount = 1,
       .pCommandBufferInfos = &cb[1]},
   };
   VkResult r = vkQueueSubmit2(u->queue, 2, si, u->fence);
   if (r == VK_SUCCESS)
      r = vkWaitForFences(d, 1, &u->fence, VK_TRUE, UINT64_MAX);
   vkResetFences(d, 1, &u->fence);
   if (ok(r == VK_SUCCESS, "two submissions and a semaphore: %d", r)) {
      check_graph("the graph's output after the semaphore", gr);
      uint64_t ts[2] = {0};
      r = vkGetQueryPoolResults(d, pool, 0, 2, sizeof(ts), ts, sizeof(uint64_t),
                                VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
      ok(r == VK_SUCCESS && ts[1] >= ts[0], "timestamps at the data-graph stage: %llu, %llu",
         (unsigned long long)ts[0], (unsigned long long)ts[1]);
   }
   dgu_free_cmd(u, first);
   dgu_free_cmd(u, second);
   vkDestroySemaphore(d, sem, NULL);
   vkDestroyQueryPool(d, pool, NULL);
   vkDestroyEvent(d, event, NULL);
}

int
main(void)
{
   struct dgu u;
   struct app a;
   struct graph gr;
   if (dgu_init(&u, NULL) && app_init(&u, &a)) {
      if (graph_init(&u, &gr)) {
         test_compute_state(&u, &a, &gr);
         test_sync_bits(&u, &a, &gr);
      }
      graph_finish(&u, &gr);
      app_finish(&u, &a);
   }
   dgu_finish(&u);
   return test_done();
}
