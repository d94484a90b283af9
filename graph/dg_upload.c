/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Graph constants in device-local memory (docs/decisions.md D46). At
 * vkCreateDevice the layer picks one queue of those the application created
 * (a compute family without graphics first, its last queue) for its uploads;
 * the application synchronises its own uses of a queue, not ours, so every
 * hooked command the Vulkan spec lists as externally synchronised on a queue
 * (vkQueueSubmit, vkQueueSubmit2, vkQueueBindSparse, vkQueueWaitIdle, and
 * vkDeviceWaitIdle, which covers all queues) takes that queue's lock, and so
 * does the upload's submission. An upload (one per pipeline creation that has
 * constants to stage) packs every constant into one host-visible staging
 * buffer, copies it with vkCmdCopyBuffer into buffers aliasing the
 * constants' device-local memory (the tensors are linear and packed, as the
 * direct path writes them through a mapping), and waits on a fence: the
 * pipeline is complete when vkCreateDataGraphPipelinesARM returns. Its
 * command pool, command buffer, buffers, staging memory and fence live only
 * during the upload.
 *
 * VMEL_GRAPH_CONSTANTS: "staging" stages every constant (when the device has
 * a queue for it), "direct" maps every constant (host-visible memory, the
 * path before D46); unset: staged where the constant's memory types include a
 * device-local type that is not host-visible, otherwise direct.
 */
#include "dg_runtime.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define DG_CONSTANTS_ENV "VMEL_GRAPH_CONSTANTS"

static uint32_t
family_score(VkQueueFlags flags)
{
   if ((flags & VK_QUEUE_COMPUTE_BIT) && !(flags & VK_QUEUE_GRAPHICS_BIT))
      return 3; /* not the family applications present on */
   if (flags & (VK_QUEUE_COMPUTE_BIT | VK_QUEUE_GRAPHICS_BIT))
      return 2;
   if (flags & VK_QUEUE_TRANSFER_BIT)
      return 1;
   return 0;
}

void
dg_upload_init(struct dg_device *device, const VkDeviceCreateInfo *info)
{
   struct dg_upload *u = &device->upload;
   struct lyr_instance *instance = device->base.instance;
   pthread_mutex_init(&u->lock, NULL);
   u->queue = VK_NULL_HANDLE;
   u->mode = DG_CONSTANTS_AUTO;
   const char *mode = getenv(DG_CONSTANTS_ENV);
   if (mode && !strcmp(mode, "staging"))
      u->mode = DG_CONSTANTS_STAGING;
   else if (mode && !strcmp(mode, "direct"))
      u->mode = DG_CONSTANTS_DIRECT;
   else if (mode && *mode)
      lyr_logw("%s=%s is neither staging nor direct; choosing per constant", DG_CONSTANTS_ENV,
               mode);

   VkQueueFamilyProperties families[32];
   uint32_t count = 0;
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->base.physical_device, &count,
                                                         NULL);
   if (count > LYR_ARRAY_SIZE(families))
      count = LYR_ARRAY_SIZE(families);
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->base.physical_device, &count,
                                                         families);
   uint32_t best = 0, family = 0, index = 0;
   for (uint32_t i = 0; i < info->queueCreateInfoCount; i++) {
      const VkDeviceQueueCreateInfo *q = &info->pQueueCreateInfos[i];
      /* protected queues come from vkGetDeviceQueue2 and cannot copy unprotected memory */
      if (q->flags || q->queueFamilyIndex >= count || !q->queueCount)
         continue;
      uint32_t score = family_score(families[q->queueFamilyIndex].queueFlags);
      if (score > best) {
         best = score;
         family = q->queueFamilyIndex;
         index = q->queueCount - 1;
      }
   }
   if (!best) {
      lyr_logi("graph constants: no queue the layer can upload on; constants in host-visible "
               "memory");
      return;
   }
   VkQueue queue = VK_NULL_HANDLE;
   device->base.next.GetDeviceQueue(device->base.handle, family, index, &queue);
   /* The loader's dispatch in the queue, as for the application's queues. */
   if (queue && device->base.set_loader_data &&
       device->base.set_loader_data(device->base.handle, queue) != VK_SUCCESS)
      queue = VK_NULL_HANDLE;
   u->queue = queue;
   u->family = family;
   lyr_logd("graph constants: uploads on queue %u of family %u", index, family);
}

void
dg_upload_finish(struct dg_device *device)
{
   pthread_mutex_destroy(&device->upload.lock);
}

void
dg_queue_lock(struct dg_device *device, VkQueue queue)
{
   if (device->base.emulating && queue && queue == device->upload.queue)
      pthread_mutex_lock(&device->upload.lock);
}

void
dg_queue_unlock(struct dg_device *device, VkQueue queue)
{
   if (device->base.emulating && queue && queue == device->upload.queue)
      pthread_mutex_unlock(&device->upload.lock);
}

static uint32_t
memory_type(const struct dg_device *device, uint32_t bits, VkMemoryPropertyFlags want,
            VkMemoryPropertyFlags avoid)
{
   const VkPhysicalDeviceMemoryProperties *mp = &device->memory_properties;
   for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
      VkMemoryPropertyFlags f = mp->memoryTypes[i].propertyFlags;
      if ((bits & (1u << i)) && (f & want) == want && !(f & avoid))
         return i;
   }
   return UINT32_MAX;
}

VkResult
dg_create_buffer(struct dg_device *device, VkDeviceSize size, VkBufferUsageFlags usage,
                 VkBuffer *buffer, VkMemoryRequirements *req)
{
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkResult result =
      device->base.next.CreateBuffer(device->base.handle, &bci, &device->base.alloc, buffer);
   if (result != VK_SUCCESS)
      return result;
   VkBufferMemoryRequirementsInfo2 ri = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
      .buffer = *buffer,
   };
   VkMemoryRequirements2 r2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   device->base.next.GetBufferMemoryRequirements2(device->base.handle, &ri, &r2);
   *req = r2.memoryRequirements;
   return VK_SUCCESS;
}

static VkResult
bind_buffer(struct dg_device *device, VkBuffer buffer, VkDeviceMemory memory)
{
   VkBindBufferMemoryInfo bi = {
      .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
      .buffer = buffer,
      .memory = memory,
   };
   return device->base.next.BindBufferMemory2(device->base.handle, 1, &bi);
}

VkResult
dg_upload_choose(struct dg_device *device, const VkMemoryRequirements *tensor_req,
                 VkDeviceSize bytes, struct dg_upload_item *item, uint32_t *type)
{
   struct dg_upload *u = &device->upload;
   memset(item, 0, sizeof(*item));
   *type = UINT32_MAX;
   if (u->mode == DG_CONSTANTS_DIRECT || !u->queue || !bytes)
      return VK_SUCCESS;
   uint32_t bits = tensor_req->memoryTypeBits;
   if (u->mode == DG_CONSTANTS_AUTO &&
       memory_type(device, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) == UINT32_MAX)
      return VK_SUCCESS; /* every device-local type is mapped anyway (lavapipe, UMA) */
   VkMemoryRequirements breq;
   VkResult result = dg_create_buffer(device, bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &item->dst,
                                   &breq);
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkCreateDataGraphPipelinesARM: graph constants: the upload's "
                       "destination buffer: %s", lyr_result_name(result));
   bits &= breq.memoryTypeBits;
   uint32_t t = memory_type(device, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
   if (t == UINT32_MAX)
      t = memory_type(device, bits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
   if (t == UINT32_MAX) {
      /* no memory both a tensor and a buffer can use: mapped after all */
      device->base.next.DestroyBuffer(device->base.handle, item->dst, &device->base.alloc);
      item->dst = VK_NULL_HANDLE;
      return VK_SUCCESS;
   }
   item->bytes = bytes;
   *type = t;
   return VK_SUCCESS;
}

void
dg_upload_item_release(struct dg_device *device, struct dg_upload_item *item)
{
   if (item->dst)
      device->base.next.DestroyBuffer(device->base.handle, item->dst, &device->base.alloc);
   item->dst = VK_NULL_HANDLE;
}

/* What one upload creates, destroyed in one place. */
struct upload_objects {
   VkBuffer staging;
   VkDeviceMemory staging_memory;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   VkFence fence;
};

static void
upload_objects_destroy(struct dg_device *device, struct upload_objects *o)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const VkAllocationCallbacks *a = &device->base.alloc;
   if (o->fence)
      next->DestroyFence(dev, o->fence, a);
   if (o->pool)
      next->DestroyCommandPool(dev, o->pool, a); /* frees cmd */
   if (o->staging)
      next->DestroyBuffer(dev, o->staging, a);
   if (o->staging_memory)
      next->FreeMemory(dev, o->staging_memory, a);
}

/* Staging buffer, packed constants, command buffer, submission, wait. */
static VkResult
upload(struct dg_device *device, struct dg_upload_item *items, uint32_t count,
       void (*pack)(void *dst, const struct dg_upload_item *item, void *user), void *user,
       struct upload_objects *o)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const VkAllocationCallbacks *a = &device->base.alloc;
   VkDeviceSize total = 0;
   for (uint32_t i = 0; i < count; i++) {
      items[i].offset = total;
      total += (items[i].bytes + 15) & ~(VkDeviceSize)15;
   }
   VkMemoryRequirements req;
   VkResult result = dg_create_buffer(device, total, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &o->staging,
                                   &req);
   if (result != VK_SUCCESS)
      return result;
   uint32_t type = memory_type(device, req.memoryTypeBits,
                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                               0);
   if (type == UINT32_MAX)
      return lyr_error(VK_ERROR_OUT_OF_DEVICE_MEMORY, "vkCreateDataGraphPipelinesARM: graph "
                       "constants: no host-visible memory for the staging buffer");
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.size,
      .memoryTypeIndex = type,
   };
   if ((result = next->AllocateMemory(dev, &mai, a, &o->staging_memory)) != VK_SUCCESS)
      return result;
   if ((result = bind_buffer(device, o->staging, o->staging_memory)) != VK_SUCCESS)
      return result;
   void *mapped;
   if ((result = next->MapMemory(dev, o->staging_memory, 0, VK_WHOLE_SIZE, 0, &mapped)) !=
       VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < count; i++)
      pack((uint8_t *)mapped + items[i].offset, &items[i], user);
   next->UnmapMemory(dev, o->staging_memory);

   VkCommandPoolCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT,
      .queueFamilyIndex = device->upload.family,
   };
   if ((result = next->CreateCommandPool(dev, &cpci, a, &o->pool)) != VK_SUCCESS)
      return result;
   VkCommandBufferAllocateInfo cbai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = o->pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   if ((result = next->AllocateCommandBuffers(dev, &cbai, &o->cmd)) != VK_SUCCESS) {
      o->cmd = VK_NULL_HANDLE;
      return result;
   }
   if (device->base.set_loader_data &&
       (result = device->base.set_loader_data(dev, o->cmd)) != VK_SUCCESS)
      return result;
   VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   if ((result = next->BeginCommandBuffer(o->cmd, &begin)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < count; i++) {
      VkBufferCopy region = {.srcOffset = items[i].offset, .size = items[i].bytes};
      next->CmdCopyBuffer(o->cmd, o->staging, items[i].dst, 1, &region);
   }
   /* The copies' writes available to every later reader (the fence's wait makes them
    * visible to the host; the application's submissions come after it). */
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT,
   };
   next->CmdPipelineBarrier(o->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                            VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &barrier, 0, NULL, 0, NULL);
   if ((result = next->EndCommandBuffer(o->cmd)) != VK_SUCCESS)
      return result;
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if ((result = next->CreateFence(dev, &fci, a, &o->fence)) != VK_SUCCESS)
      return result;
   VkSubmitInfo si = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &o->cmd,
   };
   pthread_mutex_lock(&device->upload.lock);
   result = next->QueueSubmit(device->upload.queue, 1, &si, o->fence);
   pthread_mutex_unlock(&device->upload.lock);
   if (result != VK_SUCCESS)
      return result;
   return next->WaitForFences(dev, 1, &o->fence, VK_TRUE, UINT64_MAX);
}

VkResult
dg_upload_run(struct dg_device *device, struct dg_upload_item *items, uint32_t count,
              void (*pack)(void *dst, const struct dg_upload_item *item, void *user), void *user)
{
   if (!count)
      return VK_SUCCESS;
   struct upload_objects o = {0};
   VkResult result = upload(device, items, count, pack, user, &o);
   upload_objects_destroy(device, &o);
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkCreateDataGraphPipelinesARM: uploading %u graph constant(s) "
                       "through a staging buffer failed: %s",
                       count, result == VK_ERROR_OUT_OF_HOST_MEMORY ? "out of host memory"
                              : result == VK_ERROR_OUT_OF_DEVICE_MEMORY ? "out of device memory"
                                                                         : lyr_result_name(result));
   lyr_logd("vkCreateDataGraphPipelinesARM: %u graph constant(s), %" PRIu64 " bytes, uploaded "
            "to device-local memory",
            count, (uint64_t)(items[count - 1].offset + items[count - 1].bytes));
   return VK_SUCCESS;
}
