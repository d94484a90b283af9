/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Sessions of optical-flow pipelines (D49). Two storage buffers hold everything: the cache
 * (header + two pyramids) and the transient part (fields, hint, costs). With
 * VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM they are two bind points,
 * TRANSIENT and OPTICAL_FLOW_CACHE; without it one TRANSIENT bind point holds both buffers (the
 * cache first), and the pyramids are rebuilt by every dispatch (of_dispatch.c).
 */
#include "of_private.h"

#include <inttypes.h>

#define OF_BIND_CACHE ((VkDataGraphPipelineSessionBindPointARM)1000631001)

static void
buffer_requirements(struct dg_device *device, VkBuffer buffer, VkMemoryRequirements *req)
{
   VkBufferMemoryRequirementsInfo2 info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2, .buffer = buffer};
   VkMemoryRequirements2 r = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   device->base.next.GetBufferMemoryRequirements2(device->base.handle, &info, &r);
   *req = r.memoryRequirements;
}

static VkResult
bind_buffer(struct dg_device *device, VkBuffer buffer, VkDeviceMemory memory, VkDeviceSize offset)
{
   VkBindBufferMemoryInfo bi = {.sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
                                .buffer = buffer,
                                .memory = memory,
                                .memoryOffset = offset};
   return device->base.next.BindBufferMemory2(device->base.handle, 1, &bi);
}

static VkDeviceSize
align_up(VkDeviceSize v, VkDeviceSize a)
{
   return a ? (v + a - 1) / a * a : v;
}

VkResult
of_session_create(struct dg_device *device, struct dg_session *s,
                  VkDataGraphPipelineSessionCreateFlagsARM flags)
{
   const struct of_pipeline *of = s->pipeline->of;
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   struct of_session *os =
       lyr_zalloc(&device->base.alloc, sizeof(*os), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!os)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   s->of = os;
   os->cache = (flags & VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM) != 0;
   VkMemoryRequirements rc, rt;
   VkResult result =
       dg_create_buffer(device, (VkDeviceSize)of->mem.cache_words * 4,
                       VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &os->cache_buffer, &rc);
   if (result == VK_SUCCESS)
      result =
          dg_create_buffer(device, (VkDeviceSize)of->mem.transient_words * 4,
                          VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &os->transient, &rt);
   if (result != VK_SUCCESS)
      return result;
   if (os->cache) {
      os->cache_size = rc.size;
      os->transient_size = rt.size;
      os->alignment = rc.alignment > rt.alignment ? rc.alignment : rt.alignment;
   } else {
      os->transient_size = align_up(rc.size, rt.alignment) + rt.size;
      os->alignment = rc.alignment > rt.alignment ? rc.alignment : rt.alignment;
   }
   os->memory_type_bits = rc.memoryTypeBits & rt.memoryTypeBits;
   VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
   VkDescriptorPoolCreateInfo dpci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &ps,
   };
   result = next->CreateDescriptorPool(dev, &dpci, &device->base.alloc, &os->pool);
   if (result != VK_SUCCESS)
      return result;
   VkDescriptorSetAllocateInfo dsai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = os->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &s->pipeline->set_layouts[s->pipeline->internal_set],
   };
   return next->AllocateDescriptorSets(dev, &dsai, &os->set);
}

void
of_session_destroy(struct dg_device *device, struct dg_session *s)
{
   struct of_session *os = s->of;
   if (!os)
      return;
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   next->DestroyBuffer(dev, os->cache_buffer, &device->base.alloc);
   next->DestroyBuffer(dev, os->transient, &device->base.alloc);
   next->DestroyDescriptorPool(dev, os->pool, &device->base.alloc);
   lyr_free(&device->base.alloc, os);
   s->of = NULL;
}

VkResult
of_session_bind_points(const struct dg_session *s, uint32_t *count,
                       VkDataGraphPipelineSessionBindPointRequirementARM *req)
{
   const uint32_t available = s->of->cache ? 2 : 1;
   if (!req) {
      *count = available;
      return VK_SUCCESS;
   }
   uint32_t n = *count < available ? *count : available;
   for (uint32_t i = 0; i < n; i++) {
      req[i].bindPoint =
          i == 0 ? VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM : OF_BIND_CACHE;
      req[i].bindPointType = VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM;
      req[i].numObjects = 1;
   }
   *count = n;
   return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

/* The size a bind point needs, 0 for one the session does not have. */
static VkDeviceSize
bind_point_size(const struct of_session *os, VkDataGraphPipelineSessionBindPointARM bp,
                uint32_t object)
{
   if (object != 0)
      return 0;
   if (bp == VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM)
      return os->transient_size;
   return bp == OF_BIND_CACHE && os->cache ? os->cache_size : 0;
}

void
of_session_memory_requirements(const struct dg_session *s,
                               const VkDataGraphPipelineSessionMemoryRequirementsInfoARM *info,
                               VkMemoryRequirements *r)
{
   const struct of_session *os = s->of;
   *r = (VkMemoryRequirements){0};
   VkDeviceSize size = bind_point_size(os, info->bindPoint, info->objectIndex);
   if (!size) {
      lyr_loge("vkGetDataGraphPipelineSessionMemoryRequirementsARM: the optical-flow session "
               "has no bind point %d object %u%s",
               (int)info->bindPoint, info->objectIndex,
               info->bindPoint == OF_BIND_CACHE ? " (created without OPTICAL_FLOW_CACHE)" : "");
      return;
   }
   r->size = size;
   r->alignment = os->alignment;
   r->memoryTypeBits = os->memory_type_bits;
}

static void
write_set(struct dg_device *device, struct of_session *os)
{
   VkDescriptorBufferInfo bi[2] = {
       {os->cache_buffer, 0, VK_WHOLE_SIZE},
       {os->transient, 0, VK_WHOLE_SIZE},
   };
   VkWriteDescriptorSet w = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .dstSet = os->set,
       .dstBinding = 0,
       .descriptorCount = 2,
       .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
       .pBufferInfo = bi,
   };
   device->base.next.UpdateDescriptorSets(device->base.handle, 1, &w, 0, NULL);
}

VkResult
of_session_bind(struct dg_device *device, struct dg_session *s,
                const VkBindDataGraphPipelineSessionMemoryInfoARM *info)
{
   struct of_session *os = s->of;
   if (!bind_point_size(os, info->bindPoint, info->objectIndex))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkBindDataGraphPipelineSessionMemoryARM: the optical-flow session has no "
                       "bind point %d object %u",
                       (int)info->bindPoint, info->objectIndex);
   const bool cache_point = info->bindPoint == OF_BIND_CACHE;
   if (cache_point ? os->cache_bound : os->transient_bound)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkBindDataGraphPipelineSessionMemoryARM: already bound");
   VkResult result;
   if (cache_point) {
      result = bind_buffer(device, os->cache_buffer, info->memory, info->memoryOffset);
      os->cache_bound = result == VK_SUCCESS;
   } else if (os->cache) {
      result = bind_buffer(device, os->transient, info->memory, info->memoryOffset);
      os->transient_bound = result == VK_SUCCESS;
   } else {
      VkMemoryRequirements rc, rt;
      buffer_requirements(device, os->cache_buffer, &rc);
      buffer_requirements(device, os->transient, &rt);
      result = bind_buffer(device, os->cache_buffer, info->memory, info->memoryOffset);
      if (result == VK_SUCCESS)
         result = bind_buffer(device, os->transient, info->memory,
                              info->memoryOffset + align_up(rc.size, rt.alignment));
      os->transient_bound = os->cache_bound = result == VK_SUCCESS;
   }
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkBindDataGraphPipelineSessionMemoryARM: binding the "
                               "optical-flow buffers failed");
   if (os->transient_bound && os->cache_bound) {
      write_set(device, os);
      s->bound = true;
   }
   return VK_SUCCESS;
}
