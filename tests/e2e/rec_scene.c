/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The recording tests' scene (rec_scene.h).
 */
#include "rec_scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

const char *const rec_phase_names[PH_COUNT] = {
   [PH_NONE] = "none",
   [PH_PUSH] = "vkCmdPushConstants",
   [PH_BIND_COMPUTE] = "vkCmdBindDescriptorSets (compute)",
   [PH_BARRIER_HOST] = "vkCmdPipelineBarrier2 (host -> data graph)",
   [PH_BIND_GRAPH] = "vkCmdBindPipeline (data graph)",
   [PH_BIND_SETS] = "vkCmdBindDescriptorSets (data graph)",
   [PH_DISPATCH] = "vkCmdDispatchDataGraphARM",
   [PH_BARRIER_TENSOR] = "vkCmdPipelineBarrier2 (tensor barriers)",
   [PH_COPY1] = "vkCmdCopyTensorARM (out -> mid)",
   [PH_SET_EVENT] = "vkCmdSetEvent2 (tensor barriers)",
   [PH_WAIT_EVENT] = "vkCmdWaitEvents2 (tensor barriers)",
   [PH_COPY2] = "vkCmdCopyTensorARM (mid -> copy)",
   [PH_BARRIER_V1] = "vkCmdPipelineBarrier (transfer -> host)",
};

static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;

/* dgu_tensor_create() with transfer usage too. */
static bool
tensor_create(struct dgu *u, struct dgu_tensor *t)
{
   const int64_t dims[2] = {1, REC_N};
   return dgu_tensor_create_usage(u, VK_FORMAT_R32_SFLOAT, 2, dims,
                                  VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |
                                     VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM,
                                  t);
}

bool
rec_scene_init(struct dgu *u, struct rec_scene *s, uint32_t barriers)
{
   memset(s, 0, sizeof(*s));
   s->barriers = barriers;
   struct dgu_binding bindings[] = {
      {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, REC_N}},
      {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, REC_N}},
   };
   struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
   VkResult r = dgu_graph_create(u, &desc, &s->g);
   if (!ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM: %d", r))
      return false;
   if (!dgu_session_create(u, s->g.pipeline, &s->s) || !dgu_sets_create(u, &s->g, &s->sets) ||
       !tensor_create(u, &s->in) || !tensor_create(u, &s->out) || !tensor_create(u, &s->mid) ||
       !tensor_create(u, &s->copy))
      return false;
   dgu_write(u, s->sets.sets[0], 0, 0, &s->in);
   dgu_write(u, s->sets.sets[0], 1, 0, &s->out);
   VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = 16};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &s->g.set_layouts[0],
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   r = vkCreatePipelineLayout(u->device, &plci, NULL, &s->app_layout);
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   if (r == VK_SUCCESS)
      r = vkCreateEvent(u->device, &eci, NULL, &s->event);
   return ok(r == VK_SUCCESS, "application pipeline layout and event: %d", r);
}

void
rec_scene_finish(struct dgu *u, struct rec_scene *s)
{
   if (s->event)
      vkDestroyEvent(u->device, s->event, NULL);
   if (s->app_layout)
      vkDestroyPipelineLayout(u->device, s->app_layout, NULL);
   dgu_tensor_destroy(u, &s->copy);
   dgu_tensor_destroy(u, &s->mid);
   dgu_tensor_destroy(u, &s->out);
   dgu_tensor_destroy(u, &s->in);
   dgu_sets_destroy(u, &s->sets);
   dgu_session_destroy(u, &s->s);
   dgu_graph_destroy(u, &s->g);
}

void
rec_scene_fill(struct rec_scene *s, float seed)
{
   float *x = s->in.data;
   for (int i = 0; i < REC_N; i++)
      x[i] = ((float)i - REC_N / 2) * 0.125f + seed;
   memset(s->out.data, 0, s->out.size);
   memset(s->mid.data, 0, s->mid.size);
   memset(s->copy.data, 0, s->copy.size);
}

/* A dependency of s->barriers tensor barriers on one tensor, with a memory barrier
 * of the same masks. */
struct tensor_dependency {
   VkTensorMemoryBarrierARM tb[64];
   VkTensorDependencyInfoARM info;
   VkDependencyInfo dep;
};

static void
tensor_dependency(struct tensor_dependency *d, uint32_t count, VkTensorARM tensor,
                  VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                  VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
   if (count > 64)
      count = 64;
   for (uint32_t i = 0; i < count; i++) {
      d->tb[i] = (VkTensorMemoryBarrierARM){
         .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM,
         .srcStageMask = src_stage,
         .srcAccessMask = src_access,
         .dstStageMask = dst_stage,
         .dstAccessMask = dst_access,
         .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
         .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
         .tensor = tensor,
      };
   }
   d->info = (VkTensorDependencyInfoARM){.sType = VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM,
                                         .tensorMemoryBarrierCount = count,
                                         .pTensorMemoryBarriers = d->tb};
   d->dep = (VkDependencyInfo){.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .pNext = &d->info};
}

static void
copy_tensor(struct dgu *u, VkCommandBuffer cmd, const struct dgu_tensor *src,
            const struct dgu_tensor *dst)
{
   PFN_vkCmdCopyTensorARM copy =
      (PFN_vkCmdCopyTensorARM)vkGetDeviceProcAddr(u->device, "vkCmdCopyTensorARM");
   VkTensorCopyARM region = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM};
   VkCopyTensorInfoARM info = {.sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
                               .srcTensor = src->tensor,
                               .dstTensor = dst->tensor,
                               .regionCount = 1,
                               .pRegions = &region};
   copy(cmd, &info);
}

void
rec_scene_record(struct dgu *u, struct rec_scene *s, VkCommandBuffer cmd, struct rec_alloc *a)
{
   const uint32_t push[4] = {1, 2, 3, 4};
   a->phase = PH_PUSH;
   vkCmdPushConstants(cmd, s->app_layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
   a->phase = PH_BIND_COMPUTE;
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, s->app_layout, 0, 1,
                           &s->sets.sets[0], 0, NULL);
   a->phase = PH_BARRIER_HOST;
   dgu_barrier_host_to_graph(cmd);
   a->phase = PH_BIND_GRAPH;
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, s->g.pipeline);
   a->phase = PH_BIND_SETS;
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, s->g.layout, 0, 1,
                           s->sets.sets, 0, NULL);
   a->phase = PH_DISPATCH;
   u->fn.CmdDispatchDataGraphARM(cmd, s->s.session, NULL);

   struct tensor_dependency d;
   a->phase = PH_BARRIER_TENSOR;
   tensor_dependency(&d, s->barriers, s->out.tensor, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                     VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT);
   vkCmdPipelineBarrier2(cmd, &d.dep);
   a->phase = PH_COPY1;
   copy_tensor(u, cmd, &s->out, &s->mid);
   /* The copy's write of mid before the next copy's read: an event whose
    * stages also name the data-graph stage, so both layers translate it. */
   tensor_dependency(&d, s->barriers, s->mid.tensor,
                     VK_PIPELINE_STAGE_2_COPY_BIT | VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                     VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COPY_BIT,
                     VK_ACCESS_2_TRANSFER_READ_BIT);
   a->phase = PH_SET_EVENT;
   vkCmdSetEvent2(cmd, s->event, &d.dep);
   a->phase = PH_WAIT_EVENT;
   vkCmdWaitEvents2(cmd, 1, &s->event, &d.dep);
   a->phase = PH_COPY2;
   copy_tensor(u, cmd, &s->mid, &s->copy);
   a->phase = PH_BARRIER_V1;
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb,
                        0, NULL, 0, NULL);
   a->phase = PH_NONE;
}

bool
rec_scene_check(const char *what, struct rec_scene *s)
{
   float want[REC_N];
   dgu_clamp_add_sub_expect(s->in.data, want, REC_N);
   char name[160];
   snprintf(name, sizeof(name), "%s: out", what);
   bool good = dgu_check_f32(name, s->out.data, want, REC_N);
   snprintf(name, sizeof(name), "%s: copy of out", what);
   good &= dgu_check_f32(name, s->mid.data, want, REC_N);
   snprintf(name, sizeof(name), "%s: copy of the copy", what);
   good &= dgu_check_f32(name, s->copy.data, want, REC_N);
   return good;
}

bool
rec_scene_submit(struct dgu *u, VkCommandBuffer cmd)
{
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   VkResult r = vkQueueSubmit2(u->queue, 1, &si, u->fence);
   if (r == VK_SUCCESS)
      r = vkWaitForFences(u->device, 1, &u->fence, VK_TRUE, UINT64_MAX);
   vkResetFences(u->device, 1, &u->fence);
   return ok(r == VK_SUCCESS, "submit and wait: %d", r);
}
