/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-graph pipeline sessions: each session owns the intermediate tensors of
 * one pipeline (created through VK_ARM_tensors below us), plans their memory
 * with the selected planner (dg_plan.c; VMEL_MEMORY_PLANNER), reports one
 * transient bind point when anything needs memory, binds the tensors at the
 * planned offsets, and prepares the internal descriptor sets (one per
 * distinct list of intermediates and constants that a stage binds, from the
 * stage plan) and the barriers between stages (the plan's dependencies, and
 * the memory the planner reuses), so that recording a dispatch allocates nothing
 * (dg_dispatch.c).
 */
#include "dg_runtime.h"

#include <inttypes.h>

#include "of/of_private.h"

static void
session_destroy(struct dg_device *device, struct dg_session *s, const VkAllocationCallbacks *alloc)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const struct dg_pipeline *p = s->pipeline;
   dg_profile_session_finish(device, s, lyr_pick_alloc(&device->base.alloc, alloc));
   of_session_destroy(device, s);
   for (uint32_t i = 0; i < p->intermediate_count; i++) {
      if (s->views)
         next->DestroyTensorViewARM(dev, s->views[i], &device->base.alloc);
      if (s->tensors)
         next->DestroyTensorARM(dev, s->tensors[i], &device->base.alloc);
   }
   if (s->pool)
      next->DestroyDescriptorPool(dev, s->pool, &device->base.alloc);
   s->magic = 0;
   lyr_free(lyr_pick_alloc(&device->base.alloc, alloc), s);
}

/* Writes the tensor descriptors of every internal set: its constants, or
 * its intermediates (once their memory is bound). One update per set. */
static void
write_internal(struct dg_device *device, struct dg_session *s, bool intermediates)
{
   const struct dg_pipeline *p = s->pipeline;
   if (p->descriptor_buffer)
      return; /* pushed at each dispatch (dg_descriptor_buffer.c) */
   for (uint32_t i = 0; i < p->internal_set_count; i++) {
      const struct dg_plan_internal_set *set = &p->plan->internal_sets[i];
      VkWriteDescriptorSet w[VMEL_GRAPH_MAX_TENSORS];
      VkWriteDescriptorSetTensorARM tw[VMEL_GRAPH_MAX_TENSORS];
      VkTensorViewARM views[VMEL_GRAPH_MAX_TENSORS];
      uint32_t n = 0;
      for (uint32_t b = 0; b < set->count; b++) {
         const struct dg_plan_tensor *t = &p->plan->tensors[set->tensors[b]];
         bool memory = t->kind != DG_PLAN_TENSOR_CONSTANT;
         if (memory != intermediates)
            continue;
         views[n] = intermediates ? s->views[t->index] : p->constants[t->index].view;
         tw[n] = (VkWriteDescriptorSetTensorARM){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
            .tensorViewCount = 1,
            .pTensorViews = &views[n],
         };
         w[n] = (VkWriteDescriptorSet){
            .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
            .pNext = &tw[n],
            .dstSet = s->sets[i],
            .dstBinding = b,
            .descriptorCount = 1,
            .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
         };
         n++;
      }
      if (n)
         device->base.next.UpdateDescriptorSets(device->base.handle, n, w, 0, NULL);
   }
}

/* One descriptor set of the internal layout per entry of the pipeline's
 * internal_sets, from one pool; constants are written now. */
static VkResult
create_internal_sets(struct dg_device *device, struct dg_session *s)
{
   const struct dg_pipeline *p = s->pipeline;
   /* Descriptor-buffer pipelines push their internal sets (dg_descriptor_buffer.c). */
   if (!p->internal_set_count || p->descriptor_buffer)
      return VK_SUCCESS;
   uint64_t descriptors = (uint64_t)p->internal_set_count * p->internal_binding_count;
   if (descriptors > UINT32_MAX)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDataGraphPipelineSessionARM: "
                       "%u internal sets of %u descriptors are too many for one pool",
                       p->internal_set_count, p->internal_binding_count);
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, (uint32_t)descriptors};
   VkDescriptorPoolCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = p->internal_set_count,
      .poolSizeCount = 1,
      .pPoolSizes = &size,
   };
   VkResult result =
      device->base.next.CreateDescriptorPool(device->base.handle, &pci, &device->base.alloc,
                                             &s->pool);
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkCreateDataGraphPipelineSessionARM: a descriptor pool for %u "
                       "internal sets failed", p->internal_set_count);
   /* In batches: every set has the one internal layout. */
   VkDescriptorSetLayout layouts[64];
   for (uint32_t i = 0; i < LYR_ARRAY_SIZE(layouts); i++)
      layouts[i] = p->set_layouts[p->internal_set];
   for (uint32_t i = 0; i < p->internal_set_count && result == VK_SUCCESS;) {
      uint32_t n = p->internal_set_count - i;
      if (n > LYR_ARRAY_SIZE(layouts))
         n = LYR_ARRAY_SIZE(layouts);
      VkDescriptorSetAllocateInfo ai = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
         .descriptorPool = s->pool,
         .descriptorSetCount = n,
         .pSetLayouts = layouts,
      };
      result = device->base.next.AllocateDescriptorSets(device->base.handle, &ai, &s->sets[i]);
      i += n;
   }
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkCreateDataGraphPipelineSessionARM: allocating %u internal "
                       "sets failed", p->internal_set_count);
   write_internal(device, s, false);
   return VK_SUCCESS;
}

/* With the stages recorded by level (D46), a tensor is live from the lowest to the highest
 * level of the stages that use it (its aliases' uses too): the planner then shares memory
 * only between tensors whose levels do not overlap, so every stage that reuses memory is a
 * level after the last stage of the old tensor, with a barrier between them. */
static void
level_intervals(const struct dg_stage_plan *plan, const uint32_t *level, struct dg_interval *iv,
                uint32_t n)
{
   for (uint32_t i = 0; i < n; i++)
      if (iv[i].size)
         iv[i].first = UINT32_MAX, iv[i].last = 0;
   for (uint32_t j = 0; j < plan->stage_count; j++) {
      const struct dg_plan_stage *st = &plan->stages[j];
      for (uint32_t k = 0; k < st->tensor_count; k++) {
         const struct dg_plan_tensor *t = &plan->tensors[dg_plan_tensor_root(plan, st->tensors[k])];
         if (t->kind != DG_PLAN_TENSOR_INTERMEDIATE && t->kind != DG_PLAN_TENSOR_SCRATCH)
            continue;
         struct dg_interval *v = t->index < n ? &iv[t->index] : NULL;
         if (!v || !v->size)
            continue;
         v->first = level[j] < v->first ? level[j] : v->first;
         v->last = level[j] > v->last ? level[j] : v->last;
      }
   }
   for (uint32_t i = 0; i < n; i++)
      if (iv[i].size && iv[i].first == UINT32_MAX)
         iv[i].first = iv[i].last = 0;
}

/* Plans the intermediates' memory; level: the stages' levels when they are recorded by level,
 * else NULL (plan order). */
static VkResult
plan_memory(struct dg_device *device, struct dg_session *s, const VkAllocationCallbacks *alloc,
            const uint32_t *level)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const struct dg_pipeline *p = s->pipeline;
   uint32_t n = p->intermediate_count;
   s->memory_type_bits = ~0u;
   s->alignment = 1;
   if (n == 0)
      return VK_SUCCESS;
   struct dg_interval *iv =
      lyr_alloc(alloc, n * sizeof(*iv), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!iv)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   VkDeviceSize *sizes =
      lyr_alloc(alloc, n * sizeof(*sizes), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!sizes) {
      lyr_free(alloc, iv);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < n && result == VK_SUCCESS; i++) {
      const struct dg_plan_tensor *t = &p->plan->tensors[p->intermediates[i].tensor];
      result = dg_create_tensor(device, p->intermediates[i].format, &t->ty.shape,
                                &s->tensors[i]);
      if (result != VK_SUCCESS)
         break;
      VkTensorMemoryRequirementsInfoARM ri = {
         .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
         .tensor = s->tensors[i],
      };
      VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      next->GetTensorMemoryRequirementsARM(dev, &ri, &req);
      sizes[i] = req.memoryRequirements.size;
      if (req.memoryRequirements.alignment > s->alignment)
         s->alignment = req.memoryRequirements.alignment;
      s->memory_type_bits &= req.memoryRequirements.memoryTypeBits;
   }
   /* Aliases (RESHAPE outputs) take no memory of their own: their root's
    * interval covers their uses. */
   if (result == VK_SUCCESS)
      dg_stage_plan_intervals(p->plan, sizes, iv);
   if (result == VK_SUCCESS && level)
      level_intervals(p->plan, level, iv, n);
   if (result == VK_SUCCESS)
      result = dg_plan(device->planner, iv, n, s->alignment, s->offsets, &s->size);
   for (uint32_t i = 0; result == VK_SUCCESS && i < n; i++) {
      /* An alias at an offset (SLICE, CONCAT along the outermost axis) was planned at a
       * multiple of the device's tensor alignment (dg_plan_caps); a tensor that asks more
       * cannot be bound there. */
      const struct dg_plan_tensor *t = &p->plan->tensors[p->intermediates[i].tensor];
      VkDeviceSize off = t->alias_of != DG_PLAN_NONE ? t->alias_offset : 0;
      s->offsets[i] = s->offsets[p->intermediates[i].root] + off;
      if (off % s->alignment)
         result = lyr_error(VK_ERROR_UNKNOWN, "session: a tensor aliasing another at byte %" PRIu64
                            " needs %" PRIu64 "-byte alignment",
                            (uint64_t)off, (uint64_t)s->alignment);
   }
   if (result == VK_SUCCESS) {
      VkDeviceSize peak = dg_plan_lower_bound(iv, n);
      lyr_logi("session: %u intermediates in %" PRIu64 " bytes (%s planner; largest live set "
               "%" PRIu64 " bytes)",
               n, (uint64_t)s->size, dg_planner_name(device->planner), (uint64_t)peak);
   }
   lyr_free(alloc, sizes);
   lyr_free(alloc, iv);
   return result;
}

/* The planned memory range of an intermediate root, or false for other tensors. */
static bool
memory_range(const struct dg_session *s, uint32_t tensor, VkDeviceSize *begin, VkDeviceSize *end)
{
   const struct dg_stage_plan *plan = s->pipeline->plan;
   const struct dg_plan_tensor *t = &plan->tensors[tensor];
   if (t->kind != DG_PLAN_TENSOR_INTERMEDIATE && t->kind != DG_PLAN_TENSOR_SCRATCH)
      return false;
   *begin = s->offsets[t->index];
   *end = *begin + dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
   return true;
}

/* Stages i < j touch different session tensors that the memory plan put in
 * overlapping ranges (one dead before the other is born), one of them writing:
 * the plan's dependencies cannot know, the session orders them. */
static bool
memory_reused(const struct dg_session *s, uint32_t i, uint32_t j)
{
   const struct dg_stage_plan *plan = s->pipeline->plan;
   const struct dg_plan_stage *si = &plan->stages[i], *sj = &plan->stages[j];
   for (uint32_t a = 0; a < sj->tensor_count; a++) {
      VkDeviceSize a0, a1;
      uint32_t ra = dg_plan_tensor_root(plan, sj->tensors[a]);
      if (!memory_range(s, ra, &a0, &a1))
         continue;
      bool j_writes = sj->write_mask & (1u << a);
      for (uint32_t c = 0; c < si->tensor_count; c++) {
         VkDeviceSize c0, c1;
         uint32_t rc = dg_plan_tensor_root(plan, si->tensors[c]);
         bool i_writes = si->write_mask & (1u << c);
         if (rc != ra && (i_writes || j_writes) && memory_range(s, rc, &c0, &c1) && a0 < c1 &&
             c0 < a1)
            return true;
      }
   }
   return false;
}

static bool
reuse_follows(uint32_t j, uint32_t i, void *user)
{
   return memory_reused(user, i, j);
}

/* Independent stages are recorded level by level (D46), unless profiling (per-stage
 * timestamps need plan order) or VMEL_GRAPH_STAGE_ORDER=plan (the order before D46, for
 * measuring the difference). */
static bool
order_by_level(const struct dg_device *device)
{
   const char *order = getenv("VMEL_GRAPH_STAGE_ORDER");
   return !device->profiling && !(order && !strcmp(order, "plan"));
}

/* The recording order and its barriers (dg_plan_barriers(), D46): a stage must follow another
 * when it depends on it (the plan's dependencies: read after write, write after read or write
 * of the same or aliased memory) or reuses memory it used. By level, the levels come from the
 * dependencies alone, before the memory plan (level_intervals() keeps reuse between levels);
 * in plan order, after it, with the memory it reuses. */
static void
plan_barriers(struct dg_session *s, bool by_level, uint32_t *level)
{
   s->barrier_count = dg_plan_barriers(s->pipeline->plan, by_level, by_level ? NULL : reuse_follows,
                                       s, level, s->order, s->barrier_before);
   lyr_logd("vkCreateDataGraphPipelineSessionARM: %u stages, %u barriers (%s order)",
            s->pipeline->stage_count, s->barrier_count, by_level ? "level" : "plan");
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateDataGraphPipelineSessionARM(VkDevice _device,
                                     const VkDataGraphPipelineSessionCreateInfoARM *pCreateInfo,
                                     const VkAllocationCallbacks *pAllocator,
                                     VkDataGraphPipelineSessionARM *pSession)
{
   struct dg_device *device = dg_device_get(_device);
   if (!dg_device_owns_pipeline(device, pCreateInfo->dataGraphPipeline))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelineSessionARM: not a data-graph pipeline");
   struct dg_pipeline *p = dg_pipeline_from_handle(pCreateInfo->dataGraphPipeline);
   const VkDataGraphPipelineSessionCreateFlagsARM ours =
      p->of ? VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM : 0;
   if (pCreateInfo->flags & ~ours)
      lyr_logw("vkCreateDataGraphPipelineSessionARM: flags 0x%" PRIx64 " ignored%s",
               (uint64_t)(pCreateInfo->flags & ~ours),
               p->of ? "" : " (OPTICAL_FLOW_CACHE is for optical-flow pipelines)");
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   if (p->of) {
      struct dg_session *s = lyr_zalloc(alloc, sizeof(*s), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!s)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      s->magic = DG_MAGIC_SESSION;
      s->pipeline = p;
      VkResult result = of_session_create(device, s, pCreateInfo->flags);
      if (result != VK_SUCCESS) {
         lyr_error(result, "vkCreateDataGraphPipelineSessionARM: creating the optical-flow "
                   "session's buffers or set failed");
         session_destroy(device, s, pAllocator);
         return result;
      }
      *pSession = (VkDataGraphPipelineSessionARM)(uintptr_t)s;
      return VK_SUCCESS;
   }
   uint32_t n = p->intermediate_count;
   size_t size = sizeof(struct dg_session) + n * (sizeof(VkTensorARM) + sizeof(VkTensorViewARM) +
                                                  sizeof(VkDeviceSize)) +
                 p->internal_set_count * sizeof(VkDescriptorSet) +
                 p->stage_count * (2 * sizeof(uint32_t) + sizeof(bool));
   struct dg_session *s = lyr_zalloc(alloc, size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!s)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   s->magic = DG_MAGIC_SESSION;
   s->pipeline = p;
   char *q = (char *)(s + 1);
   s->offsets = (VkDeviceSize *)q;
   q += n * sizeof(VkDeviceSize);
   s->tensors = (VkTensorARM *)q;
   q += n * sizeof(VkTensorARM);
   s->views = (VkTensorViewARM *)q;
   q += n * sizeof(VkTensorViewARM);
   s->sets = (VkDescriptorSet *)q;
   q += p->internal_set_count * sizeof(VkDescriptorSet);
   s->order = (uint32_t *)q;
   q += p->stage_count * sizeof(uint32_t);
   uint32_t *level = (uint32_t *)q; /* scratch of plan_barriers() */
   q += p->stage_count * sizeof(uint32_t);
   s->barrier_before = (bool *)q;

   const bool by_level = order_by_level(device);
   if (by_level)
      plan_barriers(s, true, level);
   VkResult result = plan_memory(device, s, alloc, by_level ? level : NULL);
   if (result == VK_SUCCESS)
      result = create_internal_sets(device, s);
   if (result == VK_SUCCESS)
      result = dg_profile_session_init(device, s, alloc);
   if (result != VK_SUCCESS) {
      if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
         lyr_error(result, "vkCreateDataGraphPipelineSessionARM: creating the session's tensors, "
                   "sets or queries failed");
      session_destroy(device, s, pAllocator);
      return result;
   }
   if (!by_level)
      plan_barriers(s, false, level);
   s->bound = n == 0;
   *pSession = (VkDataGraphPipelineSessionARM)(uintptr_t)s;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyDataGraphPipelineSessionARM(VkDevice _device, VkDataGraphPipelineSessionARM session,
                                      const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_session *s = dg_session_from_handle(session);
   if (s)
      session_destroy(device, s, pAllocator);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_GetDataGraphPipelineSessionBindPointRequirementsARM(
   VkDevice _device, const VkDataGraphPipelineSessionBindPointRequirementsInfoARM *pInfo,
   uint32_t *pBindPointRequirementCount,
   VkDataGraphPipelineSessionBindPointRequirementARM *pBindPointRequirements)
{
   struct dg_session *s = dg_session_from_handle(pInfo->session);
   if (s && s->of)
      return of_session_bind_points(s, pBindPointRequirementCount, pBindPointRequirements);
   uint32_t available = s && s->size ? 1 : 0;
   if (!pBindPointRequirements) {
      *pBindPointRequirementCount = available;
      return VK_SUCCESS;
   }
   uint32_t n = *pBindPointRequirementCount < available ? *pBindPointRequirementCount : available;
   if (n) {
      pBindPointRequirements[0].bindPoint = VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM;
      pBindPointRequirements[0].bindPointType =
         VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM;
      pBindPointRequirements[0].numObjects = 1;
   }
   *pBindPointRequirementCount = n;
   return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
dg_GetDataGraphPipelineSessionMemoryRequirementsARM(
   VkDevice _device, const VkDataGraphPipelineSessionMemoryRequirementsInfoARM *pInfo,
   VkMemoryRequirements2 *pMemoryRequirements)
{
   struct dg_session *s = dg_session_from_handle(pInfo->session);
   VkMemoryRequirements *r = &pMemoryRequirements->memoryRequirements;
   *r = (VkMemoryRequirements){0};
   if (s && s->of) {
      of_session_memory_requirements(s, pInfo, r);
      return;
   }
   if (!s || pInfo->bindPoint != VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM ||
       pInfo->objectIndex != 0) {
      lyr_loge("vkGetDataGraphPipelineSessionMemoryRequirementsARM: no bind point %d object %u",
               (int)pInfo->bindPoint, pInfo->objectIndex);
      return;
   }
   r->size = s->size;
   r->alignment = s->alignment;
   r->memoryTypeBits = s->size ? s->memory_type_bits : 0;
}

static VkResult
bind_one(struct dg_device *device, const VkBindDataGraphPipelineSessionMemoryInfoARM *info)
{
   struct dg_session *s = dg_session_from_handle(info->session);
   if (s && s->of)
      return of_session_bind(device, s, info);
   if (!s || info->bindPoint != VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM ||
       info->objectIndex != 0 || s->size == 0)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkBindDataGraphPipelineSessionMemoryARM: the session has no bind point "
                       "%d object %u",
                       (int)info->bindPoint, info->objectIndex);
   if (s->bound)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkBindDataGraphPipelineSessionMemoryARM: already bound");
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const struct dg_pipeline *p = s->pipeline;
   for (uint32_t i = 0; i < p->intermediate_count; i++) {
      VkBindTensorMemoryInfoARM bi = {
         .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
         .tensor = s->tensors[i],
         .memory = info->memory,
         .memoryOffset = info->memoryOffset + s->offsets[i],
      };
      VkResult result = next->BindTensorMemoryARM(dev, 1, &bi);
      if (result != VK_SUCCESS)
         return result;
      VkTensorViewCreateInfoARM vi = {
         .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
         .tensor = s->tensors[i],
         .format = p->intermediates[i].format,
      };
      result = next->CreateTensorViewARM(dev, &vi, &device->base.alloc, &s->views[i]);
      if (result != VK_SUCCESS)
         return result;
   }
   write_internal(device, s, true);
   s->bound = true;
   return VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_BindDataGraphPipelineSessionMemoryARM(
   VkDevice _device, uint32_t bindInfoCount,
   const VkBindDataGraphPipelineSessionMemoryInfoARM *pBindInfos)
{
   struct dg_device *device = dg_device_get(_device);
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      VkResult result = bind_one(device, &pBindInfos[i]);
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

static const struct lyr_hook hooks[] = {
   DG_HOOK(CreateDataGraphPipelineSessionARM, dg_CreateDataGraphPipelineSessionARM),
   DG_HOOK(DestroyDataGraphPipelineSessionARM, dg_DestroyDataGraphPipelineSessionARM),
   DG_HOOK(GetDataGraphPipelineSessionBindPointRequirementsARM,
           dg_GetDataGraphPipelineSessionBindPointRequirementsARM),
   DG_HOOK(GetDataGraphPipelineSessionMemoryRequirementsARM,
           dg_GetDataGraphPipelineSessionMemoryRequirementsARM),
   DG_HOOK(BindDataGraphPipelineSessionMemoryARM, dg_BindDataGraphPipelineSessionMemoryARM),
};

const struct lyr_hook_table dg_session_hooks = LYR_HOOK_TABLE(hooks);
