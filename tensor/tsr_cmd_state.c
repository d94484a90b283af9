/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The tensor layer's hooks that keep the application's compute state per
 * command buffer for the copy kernel (tsr_copy.c), in the device's struct
 * lyr_cmd_tracker (layers/lyr_cmd.c does the work). The kernel binds its own
 * pipeline and pushes its own constants, so the compute pipeline and the
 * compute push constants are tracked; descriptor sets are not: the kernel's
 * pipeline layout has no sets, and binding a pipeline or pushing constants
 * disturbs no set. The tracker also holds the error a hook of this layer
 * could not record (tsr_cmd_fail), which vkEndCommandBuffer returns.
 */
#include "tsr_private.h"

static struct lyr_cmd_tracker *
tracker_of(struct tsr_device *device)
{
   return device->copy ? &device->copy->cmds : NULL;
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateCommandPool(VkDevice _device, const VkCommandPoolCreateInfo *pCreateInfo,
                      const VkAllocationCallbacks *pAllocator, VkCommandPool *pCommandPool)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result =
      device->base.next.CreateCommandPool(_device, pCreateInfo, pAllocator, pCommandPool);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (result != VK_SUCCESS || !tracker)
      return result;
   result = lyr_cmd_CreateCommandPool(tracker, pCreateInfo, pAllocator, *pCommandPool);
   if (result != VK_SUCCESS) {
      device->base.next.DestroyCommandPool(_device, *pCommandPool, pAllocator);
      *pCommandPool = VK_NULL_HANDLE;
   }
   return result;
}

VKAPI_ATTR void VKAPI_CALL
tsr_DestroyCommandPool(VkDevice _device, VkCommandPool commandPool,
                       const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_DestroyCommandPool(tracker, commandPool);
   device->base.next.DestroyCommandPool(_device, commandPool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_ResetCommandPool(VkDevice _device, VkCommandPool commandPool, VkCommandPoolResetFlags flags)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_ResetCommandPool(tracker, commandPool);
   return device->base.next.ResetCommandPool(_device, commandPool, flags);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_AllocateCommandBuffers(VkDevice _device, const VkCommandBufferAllocateInfo *pAllocateInfo,
                           VkCommandBuffer *pCommandBuffers)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result =
      device->base.next.AllocateCommandBuffers(_device, pAllocateInfo, pCommandBuffers);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (result != VK_SUCCESS || !tracker)
      return result;
   return lyr_cmd_AllocateCommandBuffers(tracker, pAllocateInfo, pCommandBuffers);
}

VKAPI_ATTR void VKAPI_CALL
tsr_FreeCommandBuffers(VkDevice _device, VkCommandPool commandPool, uint32_t commandBufferCount,
                       const VkCommandBuffer *pCommandBuffers)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_FreeCommandBuffers(tracker, commandBufferCount, pCommandBuffers);
   device->base.next.FreeCommandBuffers(_device, commandPool, commandBufferCount, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo *pBeginInfo)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_ResetCommandBuffer(tracker, commandBuffer);
   return device->base.next.BeginCommandBuffer(commandBuffer, pBeginInfo);
}

void
tsr_cmd_fail(struct tsr_device *device, VkCommandBuffer cmd, VkResult result)
{
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_fail(tracker, cmd, result);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_EndCommandBuffer(VkCommandBuffer commandBuffer)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   VkResult result = device->base.next.EndCommandBuffer(commandBuffer);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   return tracker ? lyr_cmd_EndCommandBuffer(tracker, commandBuffer, result) : result;
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_ResetCommandBuffer(tracker, commandBuffer);
   return device->base.next.ResetCommandBuffer(commandBuffer, flags);
}

VKAPI_ATTR void VKAPI_CALL
tsr_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                    VkPipeline pipeline)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_BindPipeline(tracker, commandBuffer, pipelineBindPoint, pipeline);
   device->base.next.CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
}

VKAPI_ATTR void VKAPI_CALL
tsr_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                     VkShaderStageFlags stageFlags, uint32_t offset, uint32_t size,
                     const void *pValues)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   struct lyr_cmd_tracker *tracker = tracker_of(device);
   if (tracker)
      lyr_cmd_PushConstants(tracker, commandBuffer, layout, stageFlags, offset, size, pValues);
   device->base.next.CmdPushConstants(commandBuffer, layout, stageFlags, offset, size, pValues);
}
