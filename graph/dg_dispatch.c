/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Recording data-graph work. The data-graph bind point exists only in this
 * layer: vkCmdBindPipeline and vkCmdBindDescriptorSets at
 * VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM are recorded per command buffer and
 * not passed down. vkCmdDispatchDataGraphARM binds the application's sets at
 * the compute bind point with the kernels' layout, records every stage (its
 * internal set bound when it differs from the previous stage's; barriers only
 * where the session's plan says), then puts the application's compute state
 * back (lyr_cmd.c). Nothing is
 * allocated here once a command buffer has been used. A session dispatched
 * again in a command buffer before a barrier of the application's that
 * orders data-graph work gets a barrier before its first stage: its
 * intermediates are the same memory. Data-graph stage and access bits in the
 * application's synchronization (barriers, events, timestamps, queue
 * submissions) become compute ones. With VMEL_GRAPH_PROFILING=1 dispatches
 * write timestamps (dg_profile.c), submissions mark them submitted and
 * waits on fences, queues and the device collect them.
 *
 * A hook that cannot record what it must for lack of memory (its data-graph
 * bind point state, a translated dependency, the tracked compute state a
 * dispatch must restore) records VK_ERROR_OUT_OF_HOST_MEMORY on the command
 * buffer, which vkEndCommandBuffer returns (lyr_cmd.h). Invalid usage (a
 * dispatch without bound session memory, a pipeline that is not a data-graph
 * one) is logged and the command left out: its behaviour is undefined.
 */
#include "dg_runtime.h"

#include <stdalign.h>

#include "of/of_private.h"

#define DG_CMD_RECENT 8    /* sessions remembered since the last ordering barrier */
#define DG_CMD_PROFILED 16 /* profiled dispatches per command buffer */
#define DG_WAIT_INLINE_EVENTS 2 /* vkCmdWaitEvents2 translates this many events on the stack */

/* The data-graph bind point of one command buffer (lyr_cmd_state layer data). */
struct dg_cmd_data {
   struct dg_pipeline *pipeline;
   VkDescriptorSet sets[LYR_CMD_MAX_SETS];
   uint32_t set_mask;
   /* Sessions dispatched since the last barrier of the application's that
    * orders data-graph work; recent_count > DG_CMD_RECENT: too many to know. */
   const struct dg_session *recent[DG_CMD_RECENT];
   uint32_t recent_count;
   /* Profiled dispatches: marked submitted when the command buffer is. */
   struct {
      struct dg_session *session;
      uint32_t slot;
   } profiled[DG_CMD_PROFILED];
   uint32_t profiled_count;
   /* Descriptor-buffer offsets (dg_descriptor_buffer.c). */
   struct dg_db_cmd db;
};

static void
reset_cmd_data(struct lyr_device *device, struct lyr_cmd_state *state, bool freeing)
{
   struct dg_cmd_data *data = lyr_cmd_state_layer_data(state);
   if (!data)
      return;
   if (freeing) {
      lyr_free(&device->alloc, data);
      lyr_cmd_state_set_layer_data(state, NULL);
   } else {
      memset(data, 0, sizeof(*data));
   }
}

VkResult
dg_dispatch_init(struct dg_device *device)
{
   VkResult result = lyr_cmd_tracker_init(&device->base, &device->cmds);
   device->cmds.reset_layer_data = reset_cmd_data;
   return result;
}

void
dg_dispatch_finish(struct dg_device *device)
{
   lyr_cmd_tracker_finish(&device->cmds);
}

static struct dg_cmd_data *
cmd_data(struct dg_device *device, VkCommandBuffer cmd, struct lyr_cmd_state **state_out)
{
   struct lyr_cmd_state *state = lyr_cmd_state_get(&device->cmds, cmd);
   if (state_out)
      *state_out = state;
   if (!state)
      return NULL;
   struct dg_cmd_data *data = lyr_cmd_state_layer_data(state);
   if (!data) {
      data = lyr_zalloc(&device->base.alloc, sizeof(*data), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (data)
         lyr_cmd_state_set_layer_data(state, data);
      else
         lyr_cmd_state_fail(state, VK_ERROR_OUT_OF_HOST_MEMORY);
   }
   return data;
}

struct dg_db_cmd *
dg_dispatch_db_state(struct dg_device *device, VkCommandBuffer cmd)
{
   struct dg_cmd_data *data = cmd_data(device, cmd, NULL);
   return data ? &data->db : NULL;
}

/* ---- command pools and buffers: tracked for the compute-state restore ---- */

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateCommandPool(VkDevice _device, const VkCommandPoolCreateInfo *pCreateInfo,
                     const VkAllocationCallbacks *pAllocator, VkCommandPool *pCommandPool)
{
   struct dg_device *device = dg_device_get(_device);
   VkResult result =
      device->base.next.CreateCommandPool(_device, pCreateInfo, pAllocator, pCommandPool);
   if (result == VK_SUCCESS &&
       lyr_cmd_CreateCommandPool(&device->cmds, pCreateInfo, pAllocator, *pCommandPool) !=
          VK_SUCCESS) {
      device->base.next.DestroyCommandPool(_device, *pCommandPool, pAllocator);
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyCommandPool(VkDevice _device, VkCommandPool commandPool,
                      const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   lyr_cmd_DestroyCommandPool(&device->cmds, commandPool);
   device->base.next.DestroyCommandPool(_device, commandPool, pAllocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_ResetCommandPool(VkDevice _device, VkCommandPool commandPool, VkCommandPoolResetFlags flags)
{
   struct dg_device *device = dg_device_get(_device);
   lyr_cmd_ResetCommandPool(&device->cmds, commandPool);
   return device->base.next.ResetCommandPool(_device, commandPool, flags);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_AllocateCommandBuffers(VkDevice _device, const VkCommandBufferAllocateInfo *pAllocateInfo,
                          VkCommandBuffer *pCommandBuffers)
{
   struct dg_device *device = dg_device_get(_device);
   VkResult result = device->base.next.AllocateCommandBuffers(_device, pAllocateInfo,
                                                               pCommandBuffers);
   if (result != VK_SUCCESS)
      return result;
   return lyr_cmd_AllocateCommandBuffers(&device->cmds, pAllocateInfo, pCommandBuffers);
}

static VKAPI_ATTR void VKAPI_CALL
dg_FreeCommandBuffers(VkDevice _device, VkCommandPool commandPool, uint32_t commandBufferCount,
                      const VkCommandBuffer *pCommandBuffers)
{
   struct dg_device *device = dg_device_get(_device);
   lyr_cmd_FreeCommandBuffers(&device->cmds, commandBufferCount, pCommandBuffers);
   device->base.next.FreeCommandBuffers(_device, commandPool, commandBufferCount, pCommandBuffers);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo *pBeginInfo)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   lyr_cmd_ResetCommandBuffer(&device->cmds, commandBuffer);
   return device->base.next.BeginCommandBuffer(commandBuffer, pBeginInfo);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   VkResult result = device->base.next.EndCommandBuffer(commandBuffer);
   return lyr_cmd_EndCommandBuffer(&device->cmds, commandBuffer, result);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   lyr_cmd_ResetCommandBuffer(&device->cmds, commandBuffer);
   return device->base.next.ResetCommandBuffer(commandBuffer, flags);
}

/* ---- binding ----------------------------------------------------------- */

/* Sets bound at compute replace the application's descriptor-buffer offsets
 * there: those are no longer put back after a dispatch (dg_descriptor_buffer.c). */
static void
forget_compute_offsets(struct dg_device *device, VkCommandBuffer cmd, uint32_t first,
                       uint32_t count)
{
   struct lyr_cmd_state *state = lyr_cmd_state_get(&device->cmds, cmd);
   struct dg_cmd_data *data = state ? lyr_cmd_state_layer_data(state) : NULL;
   for (uint32_t i = first; data && i < first + count && i < LYR_CMD_MAX_SETS; i++)
      data->db.compute_mask &= ~(1u << i);
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                   VkPipeline pipeline)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   if ((int)pipelineBindPoint != (int)VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM) {
      lyr_cmd_BindPipeline(&device->cmds, commandBuffer, pipelineBindPoint, pipeline);
      device->base.next.CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
      return;
   }
   struct dg_cmd_data *data = cmd_data(device, commandBuffer, NULL);
   if (!data || !dg_device_owns_pipeline(device, pipeline)) {
      lyr_loge("vkCmdBindPipeline: %s at the data-graph bind point; not recorded",
               data ? "not a data-graph pipeline" : "out of host memory");
      return;
   }
   data->pipeline = dg_pipeline_from_handle(pipeline);
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                         VkPipelineLayout layout, uint32_t firstSet, uint32_t descriptorSetCount,
                         const VkDescriptorSet *pDescriptorSets, uint32_t dynamicOffsetCount,
                         const uint32_t *pDynamicOffsets)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   if ((int)pipelineBindPoint != (int)VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM) {
      lyr_cmd_BindDescriptorSets(&device->cmds, commandBuffer, pipelineBindPoint, layout,
                                 firstSet, descriptorSetCount, pDescriptorSets,
                                 dynamicOffsetCount, pDynamicOffsets);
      if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE)
         forget_compute_offsets(device, commandBuffer, firstSet, descriptorSetCount);
      device->base.next.CmdBindDescriptorSets(commandBuffer, pipelineBindPoint, layout, firstSet,
                                              descriptorSetCount, pDescriptorSets,
                                              dynamicOffsetCount, pDynamicOffsets);
      return;
   }
   struct dg_cmd_data *data = cmd_data(device, commandBuffer, NULL);
   if (!data || firstSet >= LYR_CMD_MAX_SETS ||
       descriptorSetCount > LYR_CMD_MAX_SETS - firstSet) {
      lyr_loge("vkCmdBindDescriptorSets: sets %u..%u at the data-graph bind point not recorded "
               "(%s)",
               firstSet, firstSet + descriptorSetCount,
               data ? "beyond the sets a layout can have" : "out of host memory");
      return;
   }
   for (uint32_t i = 0; i < descriptorSetCount; i++) {
      data->sets[firstSet + i] = pDescriptorSets[i];
      data->set_mask |= 1u << (firstSet + i);
   }
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                    VkShaderStageFlags stageFlags, uint32_t offset, uint32_t size,
                    const void *pValues)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   lyr_cmd_PushConstants(&device->cmds, commandBuffer, layout, stageFlags, offset, size, pValues);
   device->base.next.CmdPushConstants(commandBuffer, layout, stageFlags, offset, size, pValues);
}

/* ---- dispatch ------------------------------------------------------------ */

void
dg_stage_barrier(struct dg_device *device, VkCommandBuffer cmd)
{
   VkMemoryBarrier2 mb = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
      .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
      .srcAccessMask = VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT | VK_ACCESS_2_SHADER_STORAGE_READ_BIT,
      .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
      .dstAccessMask = VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
   };
   VkDependencyInfo dep = {
      .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
      .memoryBarrierCount = 1,
      .pMemoryBarriers = &mb,
   };
   device->base.next.CmdPipelineBarrier2(cmd, &dep);
}

/* True when the session's intermediates may still be in use by an earlier
 * dispatch in this command buffer; remembers the session otherwise. */
static bool
dispatched_again(struct dg_cmd_data *data, const struct dg_session *s)
{
   if (data->recent_count > DG_CMD_RECENT)
      return true;
   for (uint32_t i = 0; i < data->recent_count; i++) {
      if (data->recent[i] == s)
         return true;
   }
   if (data->recent_count < DG_CMD_RECENT)
      data->recent[data->recent_count] = s;
   data->recent_count++;
   return false;
}

/* The profiling slot of this dispatch, or UINT32_MAX. */
static uint32_t
profile_begin(struct dg_device *device, struct dg_cmd_data *data, struct lyr_cmd_state *state,
              struct dg_session *s, VkCommandBuffer cmd)
{
   if (!device->profiling || !s->profile || data->profiled_count == DG_CMD_PROFILED)
      return UINT32_MAX;
   uint32_t slot = dg_profile_begin(device, s, cmd, lyr_cmd_state_queue_family(state));
   if (slot != UINT32_MAX) {
      data->profiled[data->profiled_count].session = s;
      data->profiled[data->profiled_count].slot = slot;
      data->profiled_count++;
   }
   return slot;
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdDispatchDataGraphARM(VkCommandBuffer commandBuffer, VkDataGraphPipelineSessionARM session,
                           const VkDataGraphPipelineDispatchInfoARM *pInfo)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   struct lyr_cmd_state *state;
   struct dg_cmd_data *data = cmd_data(device, commandBuffer, &state);
   struct dg_session *s = dg_session_from_handle(session);
   if (!data || !s || !lyr_cmd_state_can_dispatch(state)) {
      /* Out of memory for the bind point's state or for tracking the compute
       * state to restore: an error of the recording; the rest is invalid usage. */
      VkResult lost = lyr_cmd_state_lost_result(state);
      if (state && (!data || lost != VK_SUCCESS))
         lyr_cmd_state_fail(state, lost != VK_SUCCESS ? lost : VK_ERROR_OUT_OF_HOST_MEMORY);
      lyr_loge("vkCmdDispatchDataGraphARM: %s; nothing recorded",
               !state                ? "untracked command buffer"
               : !data               ? "out of host memory"
               : !s                  ? "invalid session"
               : lost != VK_SUCCESS  ? "out of host memory tracking the compute state"
                                     : "the command buffer's queue family cannot run compute "
                                       "work, or its compute state is not tracked");
      return;
   }
   struct dg_pipeline *p = s->pipeline;
   if (data->pipeline != p || !s->bound) {
      lyr_loge("vkCmdDispatchDataGraphARM: %s; nothing recorded",
               !s->bound ? "the session's memory is not bound"
                         : "the bound data-graph pipeline is not the session's");
      return;
   }
   const struct lyr_device_next *next = &device->base.next;
   /* The application's sets, in runs of consecutive indices (or its
    * descriptor-buffer offsets). */
   uint32_t sets = p->app_set_count < LYR_CMD_MAX_SETS ? p->app_set_count : LYR_CMD_MAX_SETS;
   uint32_t mask = data->set_mask & (sets == 32 ? ~0u : (1u << sets) - 1);
   if (p->descriptor_buffer) {
      dg_descriptor_buffer_bind(device, &data->db, p, commandBuffer);
      sets = 0;
   }
   for (uint32_t i = 0; i < sets;) {
      if (!(mask & (1u << i))) {
         i++;
         continue;
      }
      uint32_t n = 1;
      while (i + n < sets && (mask & (1u << (i + n))))
         n++;
      next->CmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, i, n,
                                  &data->sets[i], 0, NULL);
      i += n;
   }
   if (p->of) {
      of_dispatch_record(device, s, commandBuffer, pInfo);
      struct lyr_cmd_disturbed all = {.pipeline = true, .set_mask = ~0u, .push_constants = true};
      lyr_cmd_state_restore_compute(&device->cmds, state, commandBuffer, &all);
      return;
   }
   bool again = p->intermediate_count && dispatched_again(data, s);
   if (again)
      lyr_logd("vkCmdDispatchDataGraphARM: session %p dispatched again before an ordering "
               "barrier: a barrier precedes its first stage",
               (void *)s);
   uint32_t slot = profile_begin(device, data, state, s, commandBuffer);
   uint32_t bound = UINT32_MAX; /* the internal set bound, an index in s->sets */
   /* In the session's order: independent stages level by level (D46). */
   for (uint32_t k = 0; k < p->stage_count; k++) {
      const uint32_t j = s->order[k];
      const struct dg_stage *st = &p->stages[j];
      if (s->barrier_before[k] || (k == 0 && again))
         dg_stage_barrier(device, commandBuffer);
      /* The stage's own internal set, at the last set index: the
       * application's sets below it stay bound (layout compatibility). */
      if (st->internal_set != UINT32_MAX && st->internal_set != bound) {
         bound = st->internal_set;
         if (p->descriptor_buffer)
            dg_descriptor_buffer_push_internal(device, s, bound, commandBuffer);
         else
            next->CmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
                                        p->internal_set, 1, &s->sets[bound], 0, NULL);
      }
      next->CmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_COMPUTE, st->pipeline);
      next->CmdDispatch(commandBuffer, st->groups[0], st->groups[1], 1);
      if (slot != UINT32_MAX)
         dg_profile_stage_end(device, s, commandBuffer, slot, j);
   }
   /* Binding sets with the kernels' layout can disturb every set index of
    * the application's (layout compatibility), so all of them are restored. */
   struct lyr_cmd_disturbed disturbed = {
      .pipeline = true,
      .set_mask = ~0u,
      .push_constants = true,
   };
   lyr_cmd_state_restore_compute(&device->cmds, state, commandBuffer, &disturbed);
   if (p->descriptor_buffer)
      dg_descriptor_buffer_restore(device, &data->db, commandBuffer);
}

/* ---- synchronization: data-graph bits become compute bits ------------ */

static bool
has_graph_bits(VkPipelineStageFlags2 stages, VkAccessFlags2 access)
{
   return (stages & VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM) ||
          (access & (VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM));
}

static VkPipelineStageFlags2
stages_of(VkPipelineStageFlags2 s)
{
   if (s & VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM)
      s = (s & ~VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM) | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT;
   return s;
}

static VkAccessFlags2
access_of(VkAccessFlags2 a)
{
   if (a & VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM)
      a = (a & ~VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM) | VK_ACCESS_2_SHADER_STORAGE_READ_BIT;
   if (a & VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM)
      a = (a & ~VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM) | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT;
   return a;
}

static void
translate_masks(VkPipelineStageFlags2 *src_stage, VkAccessFlags2 *src_access,
                VkPipelineStageFlags2 *dst_stage, VkAccessFlags2 *dst_access)
{
   *src_stage = stages_of(*src_stage);
   *dst_stage = stages_of(*dst_stage);
   *src_access = access_of(*src_access);
   *dst_access = access_of(*dst_access);
}

static bool
tensor_barriers_have_graph_bits(const void *chain)
{
   const VkBaseInStructure *s = chain;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      if ((int)s->sType == (int)VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM) {
         const VkTensorMemoryBarrierARM *b = (const VkTensorMemoryBarrierARM *)s;
         if (has_graph_bits(b->srcStageMask | b->dstStageMask, b->srcAccessMask | b->dstAccessMask))
            return true;
      } else if ((int)s->sType == (int)VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM) {
         const VkTensorDependencyInfoARM *t = (const VkTensorDependencyInfoARM *)s;
         for (uint32_t i = 0; i < t->tensorMemoryBarrierCount; i++) {
            const VkTensorMemoryBarrierARM *b = &t->pTensorMemoryBarriers[i];
            if (has_graph_bits(b->srcStageMask | b->dstStageMask,
                               b->srcAccessMask | b->dstAccessMask))
               return true;
         }
      }
   }
   return false;
}

static bool
dependency_has_graph_bits(const VkDependencyInfo *d)
{
   for (uint32_t i = 0; i < d->memoryBarrierCount; i++) {
      const VkMemoryBarrier2 *b = &d->pMemoryBarriers[i];
      if (has_graph_bits(b->srcStageMask | b->dstStageMask, b->srcAccessMask | b->dstAccessMask))
         return true;
   }
   for (uint32_t i = 0; i < d->bufferMemoryBarrierCount; i++) {
      const VkBufferMemoryBarrier2 *b = &d->pBufferMemoryBarriers[i];
      if (has_graph_bits(b->srcStageMask | b->dstStageMask, b->srcAccessMask | b->dstAccessMask))
         return true;
   }
   for (uint32_t i = 0; i < d->imageMemoryBarrierCount; i++) {
      const VkImageMemoryBarrier2 *b = &d->pImageMemoryBarriers[i];
      if (has_graph_bits(b->srcStageMask | b->dstStageMask, b->srcAccessMask | b->dstAccessMask))
         return true;
   }
   return tensor_barriers_have_graph_bits(d->pNext);
}

/* Where a translated dependency lives: small ones in place, no allocation. */
struct dep_copy {
   alignas(16) char inline_chain[512]; /* the cloned pNext chain, when it fits */
   alignas(8) char inline_arrays[1024];
   void *heap;                /* arrays that did not fit, or NULL */
   struct lyr_chain_copy chain;
   bool chained;              /* chain holds a cloned pNext chain */
};

static void
dep_copy_free(struct dg_device *device, struct dep_copy *c)
{
   lyr_free(&device->base.alloc, c->heap);
   if (c->chained)
      lyr_chain_copy_free(&c->chain);
}

/* A translated copy of a dependency info and everything it points to. */
static VkResult
dependency_copy(struct dg_device *device, const VkDependencyInfo *in, VkDependencyInfo *out,
                struct dep_copy *c)
{
   const VkAllocationCallbacks *alloc = &device->base.alloc;
   c->heap = NULL;
   c->chained = false;
   *out = *in;
   if (in->pNext) {
      /* Newer structs pass through (D43); the tensor barriers' masks are translated in
       * the copy. */
      static const VkStructureType edits[] = {VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM,
                                              VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM};
      VkResult result = lyr_chain_clone_pass_edit(c->inline_chain, sizeof(c->inline_chain),
                                                  alloc, in, sizeof(*in), NULL, NULL, 0, edits,
                                                  LYR_ARRAY_SIZE(edits), &c->chain);
      if (result != VK_SUCCESS)
         return result;
      c->chained = true;
      *out = *(VkDependencyInfo *)c->chain.head;
   }
   uint32_t tensor_barriers = 0;
   for (const VkBaseInStructure *s = out->pNext; s; s = s->pNext) {
      if ((int)s->sType == (int)VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM)
         tensor_barriers += ((const VkTensorDependencyInfoARM *)s)->tensorMemoryBarrierCount;
   }
   size_t size = in->memoryBarrierCount * sizeof(VkMemoryBarrier2) +
                 in->bufferMemoryBarrierCount * sizeof(VkBufferMemoryBarrier2) +
                 in->imageMemoryBarrierCount * sizeof(VkImageMemoryBarrier2) +
                 tensor_barriers * sizeof(VkTensorMemoryBarrierARM);
   char *p = c->inline_arrays;
   if (size > sizeof(c->inline_arrays)) {
      p = c->heap = lyr_alloc(alloc, size, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!p) {
         dep_copy_free(device, c);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   VkMemoryBarrier2 *mb = (VkMemoryBarrier2 *)p;
   for (uint32_t i = 0; i < in->memoryBarrierCount; i++) {
      mb[i] = in->pMemoryBarriers[i];
      translate_masks(&mb[i].srcStageMask, &mb[i].srcAccessMask, &mb[i].dstStageMask,
                      &mb[i].dstAccessMask);
   }
   out->pMemoryBarriers = mb;
   p += in->memoryBarrierCount * sizeof(*mb);
   VkBufferMemoryBarrier2 *bb = (VkBufferMemoryBarrier2 *)p;
   for (uint32_t i = 0; i < in->bufferMemoryBarrierCount; i++) {
      bb[i] = in->pBufferMemoryBarriers[i];
      translate_masks(&bb[i].srcStageMask, &bb[i].srcAccessMask, &bb[i].dstStageMask,
                      &bb[i].dstAccessMask);
   }
   out->pBufferMemoryBarriers = bb;
   p += in->bufferMemoryBarrierCount * sizeof(*bb);
   VkImageMemoryBarrier2 *ib = (VkImageMemoryBarrier2 *)p;
   for (uint32_t i = 0; i < in->imageMemoryBarrierCount; i++) {
      ib[i] = in->pImageMemoryBarriers[i];
      translate_masks(&ib[i].srcStageMask, &ib[i].srcAccessMask, &ib[i].dstStageMask,
                      &ib[i].dstAccessMask);
   }
   out->pImageMemoryBarriers = ib;
   p += in->imageMemoryBarrierCount * sizeof(*ib);
   VkTensorMemoryBarrierARM *tb = (VkTensorMemoryBarrierARM *)p;
   for (VkBaseOutStructure *s = (VkBaseOutStructure *)out->pNext; s; s = s->pNext) {
      if ((int)s->sType == (int)VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM) {
         VkTensorMemoryBarrierARM *b = (VkTensorMemoryBarrierARM *)s;
         translate_masks(&b->srcStageMask, &b->srcAccessMask, &b->dstStageMask,
                         &b->dstAccessMask);
      } else if ((int)s->sType == (int)VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM) {
         VkTensorDependencyInfoARM *t = (VkTensorDependencyInfoARM *)s;
         for (uint32_t i = 0; i < t->tensorMemoryBarrierCount; i++) {
            tb[i] = t->pTensorMemoryBarriers[i];
            translate_masks(&tb[i].srcStageMask, &tb[i].srcAccessMask, &tb[i].dstStageMask,
                            &tb[i].dstAccessMask);
         }
         t->pTensorMemoryBarriers = tb;
         tb += t->tensorMemoryBarrierCount;
      }
   }
   return VK_SUCCESS;
}

/* A global memory barrier of the application's that orders earlier writes of
 * data-graph (or compute) work before later data-graph work: the sessions
 * dispatched before it need no barrier of their own when dispatched again. */
static bool
orders_graph_work(const VkDependencyInfo *d)
{
   const VkPipelineStageFlags2 stages = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM |
                                        VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT |
                                        VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT;
   const VkAccessFlags2 writes = VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM |
                                 VK_ACCESS_2_SHADER_WRITE_BIT |
                                 VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT |
                                 VK_ACCESS_2_MEMORY_WRITE_BIT;
   for (uint32_t i = 0; i < d->memoryBarrierCount; i++) {
      const VkMemoryBarrier2 *b = &d->pMemoryBarriers[i];
      if ((b->srcStageMask & stages) && (b->dstStageMask & stages) &&
          (b->srcAccessMask & writes))
         return true;
   }
   return false;
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo *pDependencyInfo)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   if (orders_graph_work(pDependencyInfo)) {
      struct lyr_cmd_state *state = lyr_cmd_state_get(&device->cmds, commandBuffer);
      struct dg_cmd_data *data = state ? lyr_cmd_state_layer_data(state) : NULL;
      if (data)
         data->recent_count = 0;
   }
   if (!dependency_has_graph_bits(pDependencyInfo)) {
      device->base.next.CmdPipelineBarrier2(commandBuffer, pDependencyInfo);
      return;
   }
   VkDependencyInfo dep;
   struct dep_copy copy;
   VkResult result = dependency_copy(device, pDependencyInfo, &dep, &copy);
   if (result != VK_SUCCESS) {
      lyr_cmd_fail(&device->cmds, commandBuffer, result);
      lyr_loge("vkCmdPipelineBarrier2: out of host memory; barrier dropped");
      return;
   }
   device->base.next.CmdPipelineBarrier2(commandBuffer, &dep);
   dep_copy_free(device, &copy);
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                const VkDependencyInfo *pDependencyInfo)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   if (!dependency_has_graph_bits(pDependencyInfo)) {
      device->base.next.CmdSetEvent2(commandBuffer, event, pDependencyInfo);
      return;
   }
   VkDependencyInfo dep;
   struct dep_copy copy;
   VkResult result = dependency_copy(device, pDependencyInfo, &dep, &copy);
   if (result != VK_SUCCESS) {
      lyr_cmd_fail(&device->cmds, commandBuffer, result);
      lyr_loge("vkCmdSetEvent2: out of host memory; event not set");
      return;
   }
   device->base.next.CmdSetEvent2(commandBuffer, event, &dep);
   dep_copy_free(device, &copy);
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
                  const VkDependencyInfo *pDependencyInfos)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   bool graph = false;
   for (uint32_t i = 0; i < eventCount && !graph; i++)
      graph = dependency_has_graph_bits(&pDependencyInfos[i]);
   if (!graph) {
      device->base.next.CmdWaitEvents2(commandBuffer, eventCount, pEvents, pDependencyInfos);
      return;
   }
   /* One dependency per event: translated one by one into a single array, on
    * the stack for a few events. */
   alignas(16) char inline_block[DG_WAIT_INLINE_EVENTS *
                                 (sizeof(VkDependencyInfo) + sizeof(struct dep_copy))];
   size_t size = eventCount * (sizeof(VkDependencyInfo) + sizeof(struct dep_copy));
   char *block = inline_block;
   if (size > sizeof(inline_block))
      block = lyr_alloc(&device->base.alloc, size, 16, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!block) {
      lyr_cmd_fail(&device->cmds, commandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY);
      lyr_loge("vkCmdWaitEvents2: out of host memory; wait dropped");
      return;
   }
   VkDependencyInfo *deps = (VkDependencyInfo *)block;
   struct dep_copy *copies = (struct dep_copy *)(deps + eventCount);
   uint32_t done = 0;
   VkResult result = VK_SUCCESS;
   for (; done < eventCount; done++) {
      result = dependency_copy(device, &pDependencyInfos[done], &deps[done], &copies[done]);
      if (result != VK_SUCCESS)
         break;
   }
   if (done == eventCount) {
      device->base.next.CmdWaitEvents2(commandBuffer, eventCount, pEvents, deps);
   } else {
      lyr_cmd_fail(&device->cmds, commandBuffer, result);
      lyr_loge("vkCmdWaitEvents2: out of host memory; wait dropped");
   }
   for (uint32_t i = 0; i < done; i++)
      dep_copy_free(device, &copies[i]);
   if (block != inline_block)
      lyr_free(&device->base.alloc, block);
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags2 stageMask)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   device->base.next.CmdResetEvent2(commandBuffer, event, stages_of(stageMask));
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2 stage,
                      VkQueryPool queryPool, uint32_t query)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   device->base.next.CmdWriteTimestamp2(commandBuffer, stages_of(stage), queryPool, query);
}

/* ---- submission and waiting: profiling marks and collection ---------------- */

static void
mark_submitted(struct dg_device *device, VkCommandBuffer cmd)
{
   struct lyr_cmd_state *state = lyr_cmd_state_get(&device->cmds, cmd);
   struct dg_cmd_data *data = state ? lyr_cmd_state_layer_data(state) : NULL;
   for (uint32_t i = 0; data && i < data->profiled_count; i++)
      dg_profile_submitted(device, data->profiled[i].session, data->profiled[i].slot);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_QueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo *pSubmits, VkFence fence)
{
   struct dg_device *device = dg_device_get(queue);
   for (uint32_t i = 0; device->profiling && i < submitCount; i++) {
      for (uint32_t c = 0; c < pSubmits[i].commandBufferCount; c++)
         mark_submitted(device, pSubmits[i].pCommandBuffers[c]);
   }
   dg_queue_lock(device, queue);
   VkResult result = device->base.next.QueueSubmit(queue, submitCount, pSubmits, fence);
   dg_queue_unlock(device, queue);
   return result;
}

/* The other commands externally synchronised on a queue: the upload queue's lock (D46). */
static VKAPI_ATTR VkResult VKAPI_CALL
dg_QueuePresentKHR(VkQueue queue, const VkPresentInfoKHR *pPresentInfo)
{
   struct dg_device *device = dg_device_get(queue);
   dg_queue_lock(device, queue);
   VkResult result = device->base.next.QueuePresentKHR(queue, pPresentInfo);
   dg_queue_unlock(device, queue);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
dg_QueueBeginDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT *pLabelInfo)
{
   struct dg_device *device = dg_device_get(queue);
   dg_queue_lock(device, queue);
   device->base.next.QueueBeginDebugUtilsLabelEXT(queue, pLabelInfo);
   dg_queue_unlock(device, queue);
}

static VKAPI_ATTR void VKAPI_CALL
dg_QueueEndDebugUtilsLabelEXT(VkQueue queue)
{
   struct dg_device *device = dg_device_get(queue);
   dg_queue_lock(device, queue);
   device->base.next.QueueEndDebugUtilsLabelEXT(queue);
   dg_queue_unlock(device, queue);
}

static VKAPI_ATTR void VKAPI_CALL
dg_QueueInsertDebugUtilsLabelEXT(VkQueue queue, const VkDebugUtilsLabelEXT *pLabelInfo)
{
   struct dg_device *device = dg_device_get(queue);
   dg_queue_lock(device, queue);
   device->base.next.QueueInsertDebugUtilsLabelEXT(queue, pLabelInfo);
   dg_queue_unlock(device, queue);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_QueueBindSparse(VkQueue queue, uint32_t bindInfoCount, const VkBindSparseInfo *pBindInfo,
                   VkFence fence)
{
   struct dg_device *device = dg_device_get(queue);
   dg_queue_lock(device, queue);
   VkResult result = device->base.next.QueueBindSparse(queue, bindInfoCount, pBindInfo, fence);
   dg_queue_unlock(device, queue);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_QueueSubmit2(VkQueue queue, uint32_t submitCount, const VkSubmitInfo2 *pSubmits,
                VkFence fence)
{
   struct dg_device *device = dg_device_get(queue);
   bool graph = false;
   uint32_t semaphores = 0;
   for (uint32_t i = 0; i < submitCount; i++) {
      const VkSubmitInfo2 *s = &pSubmits[i];
      semaphores += s->waitSemaphoreInfoCount + s->signalSemaphoreInfoCount;
      for (uint32_t w = 0; w < s->waitSemaphoreInfoCount; w++)
         graph |= has_graph_bits(s->pWaitSemaphoreInfos[w].stageMask, 0);
      for (uint32_t w = 0; w < s->signalSemaphoreInfoCount; w++)
         graph |= has_graph_bits(s->pSignalSemaphoreInfos[w].stageMask, 0);
      for (uint32_t c = 0; device->profiling && c < s->commandBufferInfoCount; c++)
         mark_submitted(device, s->pCommandBufferInfos[c].commandBuffer);
   }
   if (!graph) {
      dg_queue_lock(device, queue);
      VkResult result = device->base.next.QueueSubmit2(queue, submitCount, pSubmits, fence);
      dg_queue_unlock(device, queue);
      return result;
   }
   /* Small submissions are translated in place; larger ones allocate. */
   alignas(8) char inline_block[2048];
   size_t size = submitCount * sizeof(VkSubmitInfo2) + semaphores * sizeof(VkSemaphoreSubmitInfo);
   char *p = inline_block;
   if (size > sizeof(inline_block)) {
      p = lyr_alloc(&device->base.alloc, size, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!p)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkSubmitInfo2 *submits = (VkSubmitInfo2 *)p;
   VkSemaphoreSubmitInfo *sem = (VkSemaphoreSubmitInfo *)(submits + submitCount);
   for (uint32_t i = 0; i < submitCount; i++) {
      submits[i] = pSubmits[i];
      for (uint32_t w = 0; w < pSubmits[i].waitSemaphoreInfoCount; w++) {
         sem[w] = pSubmits[i].pWaitSemaphoreInfos[w];
         sem[w].stageMask = stages_of(sem[w].stageMask);
      }
      submits[i].pWaitSemaphoreInfos = sem;
      sem += pSubmits[i].waitSemaphoreInfoCount;
      for (uint32_t w = 0; w < pSubmits[i].signalSemaphoreInfoCount; w++) {
         sem[w] = pSubmits[i].pSignalSemaphoreInfos[w];
         sem[w].stageMask = stages_of(sem[w].stageMask);
      }
      submits[i].pSignalSemaphoreInfos = sem;
      sem += pSubmits[i].signalSemaphoreInfoCount;
   }
   dg_queue_lock(device, queue);
   VkResult result = device->base.next.QueueSubmit2(queue, submitCount, submits, fence);
   dg_queue_unlock(device, queue);
   if (p != inline_block)
      lyr_free(&device->base.alloc, p);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_WaitForFences(VkDevice _device, uint32_t fenceCount, const VkFence *pFences, VkBool32 waitAll,
                 uint64_t timeout)
{
   struct dg_device *device = dg_device_get(_device);
   VkResult result = device->base.next.WaitForFences(_device, fenceCount, pFences, waitAll,
                                                     timeout);
   if (result == VK_SUCCESS)
      dg_profile_collect(device);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_GetFenceStatus(VkDevice _device, VkFence fence)
{
   struct dg_device *device = dg_device_get(_device);
   VkResult result = device->base.next.GetFenceStatus(_device, fence);
   if (result == VK_SUCCESS)
      dg_profile_collect(device);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_QueueWaitIdle(VkQueue queue)
{
   struct dg_device *device = dg_device_get(queue);
   dg_queue_lock(device, queue);
   VkResult result = device->base.next.QueueWaitIdle(queue);
   dg_queue_unlock(device, queue);
   if (result == VK_SUCCESS)
      dg_profile_collect(device);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_DeviceWaitIdle(VkDevice _device)
{
   struct dg_device *device = dg_device_get(_device);
   /* externally synchronised on every queue: ours too */
   dg_queue_lock(device, device->upload.queue);
   VkResult result = device->base.next.DeviceWaitIdle(_device);
   dg_queue_unlock(device, device->upload.queue);
   if (result == VK_SUCCESS)
      dg_profile_collect(device);
   return result;
}

static const struct lyr_hook hooks[] = {
   DG_HOOK(CreateCommandPool, dg_CreateCommandPool),
   DG_HOOK(DestroyCommandPool, dg_DestroyCommandPool),
   DG_HOOK(ResetCommandPool, dg_ResetCommandPool),
   DG_HOOK(AllocateCommandBuffers, dg_AllocateCommandBuffers),
   DG_HOOK(FreeCommandBuffers, dg_FreeCommandBuffers),
   DG_HOOK(BeginCommandBuffer, dg_BeginCommandBuffer),
   DG_HOOK(EndCommandBuffer, dg_EndCommandBuffer),
   DG_HOOK(ResetCommandBuffer, dg_ResetCommandBuffer),
   DG_HOOK(CmdBindPipeline, dg_CmdBindPipeline),
   DG_HOOK(CmdBindDescriptorSets, dg_CmdBindDescriptorSets),
   DG_HOOK(CmdPushConstants, dg_CmdPushConstants),
   DG_HOOK(CmdDispatchDataGraphARM, dg_CmdDispatchDataGraphARM),
   DG_HOOK(CmdPipelineBarrier2, dg_CmdPipelineBarrier2),
   DG_HOOK(CmdPipelineBarrier2KHR, dg_CmdPipelineBarrier2),
   DG_HOOK(CmdSetEvent2, dg_CmdSetEvent2),
   DG_HOOK(CmdSetEvent2KHR, dg_CmdSetEvent2),
   DG_HOOK(CmdWaitEvents2, dg_CmdWaitEvents2),
   DG_HOOK(CmdWaitEvents2KHR, dg_CmdWaitEvents2),
   DG_HOOK(CmdResetEvent2, dg_CmdResetEvent2),
   DG_HOOK(CmdResetEvent2KHR, dg_CmdResetEvent2),
   DG_HOOK(CmdWriteTimestamp2, dg_CmdWriteTimestamp2),
   DG_HOOK(CmdWriteTimestamp2KHR, dg_CmdWriteTimestamp2),
   DG_HOOK(QueueSubmit, dg_QueueSubmit),
   DG_HOOK(QueueBindSparse, dg_QueueBindSparse),
   DG_HOOK(QueuePresentKHR, dg_QueuePresentKHR),
   DG_HOOK(QueueBeginDebugUtilsLabelEXT, dg_QueueBeginDebugUtilsLabelEXT),
   DG_HOOK(QueueEndDebugUtilsLabelEXT, dg_QueueEndDebugUtilsLabelEXT),
   DG_HOOK(QueueInsertDebugUtilsLabelEXT, dg_QueueInsertDebugUtilsLabelEXT),
   DG_HOOK(QueueSubmit2, dg_QueueSubmit2),
   DG_HOOK(QueueSubmit2KHR, dg_QueueSubmit2),
   DG_HOOK(WaitForFences, dg_WaitForFences),
   DG_HOOK(GetFenceStatus, dg_GetFenceStatus),
   DG_HOOK(QueueWaitIdle, dg_QueueWaitIdle),
   DG_HOOK(DeviceWaitIdle, dg_DeviceWaitIdle),
};

const struct lyr_hook_table dg_dispatch_hooks = LYR_HOOK_TABLE(hooks);
