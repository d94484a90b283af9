/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Barriers. In a VkDependencyInfo (vkCmdPipelineBarrier2, vkCmdSetEvent2,
 * vkCmdWaitEvents2), every VkTensorMemoryBarrierARM, whether chained directly
 * or inside a VkTensorDependencyInfoARM, becomes a VkBufferMemoryBarrier2 over
 * the whole of the tensor's buffer, appended to a copy of the application's
 * buffer barriers; the ARM structs are left out of the copy. Image barriers
 * (these commands and their version-1 forms) get VK_IMAGE_LAYOUT_GENERAL
 * where the application wrote VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM: images
 * that alias tensors are linear images of the driver (tsr_image.c). Stage and
 * access masks and queue family indices pass through unchanged; the graph
 * layer above translates its data-graph bits before we see them.
 * Nothing here writes into the application's structs. A translation that
 * runs out of memory leaves the command out and records the error on the
 * command buffer: vkEndCommandBuffer returns it (tsr_cmd_fail). A tensor
 * barrier naming no tensor is invalid usage
 * (VUID-VkTensorMemoryBarrierARM-tensor-parameter): left out with a log line.
 */
#include "tsr_private.h"

#include <stdalign.h>

/* Up to this many structs per call are translated on the stack. */
#define TSR_BARRIER_STACK 16
/* Bytes on the stack for a translated dependency of vkCmdPipelineBarrier2 or
 * vkCmdSetEvent2 (the copied chain and the buffer barriers standing for the
 * tensor barriers, 80 bytes each): a recording with a few tensor barriers
 * allocates nothing. */
#define TSR_DEPENDENCY_STACK 2048

static VkImageLayout
translate_layout(VkImageLayout layout)
{
   /* VK_ARM_tensors, VkImageLayout: TENSOR_ALIASING_ARM is "the layout that
    * an image created with VK_IMAGE_TILING_OPTIMAL must be in ... for it and a
    * tensor bound to the same aliased range of memory to consistently
    * interpret the data". Our aliasing images are linear, where GENERAL is
    * that layout. */
   return layout == VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM ? VK_IMAGE_LAYOUT_GENERAL : layout;
}

static bool
layout_is_ours(VkImageLayout layout)
{
   return layout == VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM;
}

/* The tensor barriers a dependency chain carries (sets *arm when the chain
 * holds any ARM ML struct, which the driver must not see). */
static uint32_t
count_tensor_barriers(const void *chain, bool *arm)
{
   uint32_t count = 0;
   const VkBaseInStructure *s = chain;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM)
         count += ((const VkTensorDependencyInfoARM *)s)->tensorMemoryBarrierCount;
      else if (s->sType == VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM)
         count++;
      if (lyr_is_arm_ml_stype(s->sType))
         *arm = true;
   }
   return count;
}

static bool
image_barriers2_need_layouts(const VkDependencyInfo *info)
{
   for (uint32_t i = 0; i < info->imageMemoryBarrierCount; i++) {
      const VkImageMemoryBarrier2 *b = &info->pImageMemoryBarriers[i];
      if (layout_is_ours(b->oldLayout) || layout_is_ours(b->newLayout))
         return true;
   }
   return false;
}

static bool
dependency_needs_translation(const VkDependencyInfo *info)
{
   bool arm = false;
   count_tensor_barriers(info->pNext, &arm);
   return arm || image_barriers2_need_layouts(info);
}

/* Appends the buffer barrier standing for one tensor barrier. */
static void
append_tensor_barrier(const VkTensorMemoryBarrierARM *tb, VkBufferMemoryBarrier2 *out,
                      uint32_t *count)
{
   const struct tsr_tensor *t = tsr_tensor_from_handle(tb->tensor);
   if (!t) {
      lyr_loge("VkTensorMemoryBarrierARM with a null tensor left out");
      return;
   }
   out[(*count)++] = (VkBufferMemoryBarrier2){
      .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
      .srcStageMask = tb->srcStageMask,
      .srcAccessMask = tb->srcAccessMask,
      .dstStageMask = tb->dstStageMask,
      .dstAccessMask = tb->dstAccessMask,
      .srcQueueFamilyIndex = tb->srcQueueFamilyIndex,
      .dstQueueFamilyIndex = tb->dstQueueFamilyIndex,
      .buffer = t->buffer,
      .offset = 0,
      .size = VK_WHOLE_SIZE,
   };
}

/**
 * Writes into *out the VkDependencyInfo to pass down for app: a copy (owned
 * by *copy, released with lyr_chain_copy_free) without the ARM structs, with
 * the tensor barriers appended to the buffer barriers and image layouts
 * translated. Returns VK_ERROR_OUT_OF_HOST_MEMORY when the copy fails.
 */
static VkResult
dependency_translate(struct tsr_device *device, const VkDependencyInfo *app,
                     VkDependencyInfo *out, struct lyr_chain_copy *copy, void *stack,
                     size_t stack_size)
{
   bool arm = false;
   uint32_t tensor_count = count_tensor_barriers(app->pNext, &arm);
   bool layouts = image_barriers2_need_layouts(app);
   uint32_t buffer_count = app->bufferMemoryBarrierCount + tensor_count;
   size_t buffers_size = tensor_count ? buffer_count * sizeof(VkBufferMemoryBarrier2) : 0;
   size_t images_size = layouts ? app->imageMemoryBarrierCount * sizeof(VkImageMemoryBarrier2) : 0;

   VkResult result =
       lyr_chain_clone_pass_in(stack, stack_size, &device->base.alloc, app, sizeof(*app),
                               lyr_drop_arm_ml, NULL, buffers_size + images_size, copy);
   if (result != VK_SUCCESS)
      return result;
   VkDependencyInfo *info = copy->head;
   char *extra = copy->extra;

   if (tensor_count) {
      VkBufferMemoryBarrier2 *buffers = (VkBufferMemoryBarrier2 *)extra;
      uint32_t n = app->bufferMemoryBarrierCount;
      if (n)
         memcpy(buffers, app->pBufferMemoryBarriers, n * sizeof(*buffers));
      for (const VkBaseInStructure *s = app->pNext; s; s = s->pNext) {
         if (s->sType == VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM) {
            const VkTensorDependencyInfoARM *d = (const VkTensorDependencyInfoARM *)s;
            for (uint32_t i = 0; i < d->tensorMemoryBarrierCount; i++)
               append_tensor_barrier(&d->pTensorMemoryBarriers[i], buffers, &n);
         } else if (s->sType == VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM) {
            append_tensor_barrier((const VkTensorMemoryBarrierARM *)s, buffers, &n);
         }
      }
      info->bufferMemoryBarrierCount = n;
      info->pBufferMemoryBarriers = n ? buffers : NULL;
   }
   if (layouts) {
      VkImageMemoryBarrier2 *images = (VkImageMemoryBarrier2 *)(extra + buffers_size);
      for (uint32_t i = 0; i < app->imageMemoryBarrierCount; i++) {
         images[i] = app->pImageMemoryBarriers[i];
         images[i].oldLayout = translate_layout(images[i].oldLayout);
         images[i].newLayout = translate_layout(images[i].newLayout);
      }
      info->pImageMemoryBarriers = images;
   }
   *out = *info;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo *pDependencyInfo)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   if (!dependency_needs_translation(pDependencyInfo)) {
      device->base.next.CmdPipelineBarrier2(commandBuffer, pDependencyInfo);
      return;
   }
   VkDependencyInfo info;
   struct lyr_chain_copy copy;
   alignas(16) char stack[TSR_DEPENDENCY_STACK];
   VkResult result =
      dependency_translate(device, pDependencyInfo, &info, &copy, stack, sizeof(stack));
   if (result != VK_SUCCESS) {
      tsr_cmd_fail(device, commandBuffer, result);
      lyr_loge("vkCmdPipelineBarrier2: out of host memory; the barrier is not recorded");
      return;
   }
   device->base.next.CmdPipelineBarrier2(commandBuffer, &info);
   lyr_chain_copy_free(&copy);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event,
                 const VkDependencyInfo *pDependencyInfo)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   if (!dependency_needs_translation(pDependencyInfo)) {
      device->base.next.CmdSetEvent2(commandBuffer, event, pDependencyInfo);
      return;
   }
   VkDependencyInfo info;
   struct lyr_chain_copy copy;
   alignas(16) char stack[TSR_DEPENDENCY_STACK];
   VkResult result =
      dependency_translate(device, pDependencyInfo, &info, &copy, stack, sizeof(stack));
   if (result != VK_SUCCESS) {
      tsr_cmd_fail(device, commandBuffer, result);
      lyr_loge("vkCmdSetEvent2: out of host memory; the event is not recorded");
      return;
   }
   device->base.next.CmdSetEvent2(commandBuffer, event, &info);
   lyr_chain_copy_free(&copy);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
                   const VkDependencyInfo *pDependencyInfos)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   bool translate = false;
   for (uint32_t i = 0; i < eventCount && !translate; i++)
      translate = dependency_needs_translation(&pDependencyInfos[i]);
   if (!translate) {
      device->base.next.CmdWaitEvents2(commandBuffer, eventCount, pEvents, pDependencyInfos);
      return;
   }

   /* One VkDependencyInfo per event, as an array; each translated one owns a copy. */
   VkDependencyInfo stack_infos[TSR_BARRIER_STACK];
   struct lyr_chain_copy stack_copies[TSR_BARRIER_STACK];
   VkDependencyInfo *infos = stack_infos;
   struct lyr_chain_copy *copies = stack_copies;
   void *block = NULL;
   if (eventCount > TSR_BARRIER_STACK) {
      block = lyr_alloc(&device->base.alloc,
                        eventCount * (sizeof(*infos) + sizeof(*copies)), 16,
                        VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!block) {
         tsr_cmd_fail(device, commandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY);
         lyr_loge("vkCmdWaitEvents2: out of host memory; the wait is not recorded");
         return;
      }
      infos = block;
      copies = (struct lyr_chain_copy *)(infos + eventCount);
   }

   /* The first dependency translated goes on the stack, the others to the heap. */
   alignas(16) char stack[TSR_DEPENDENCY_STACK];
   bool stack_used = false;
   uint32_t done = 0;
   VkResult result = VK_SUCCESS;
   for (; done < eventCount && result == VK_SUCCESS; done++) {
      memset(&copies[done], 0, sizeof(copies[done]));
      if (dependency_needs_translation(&pDependencyInfos[done])) {
         result = dependency_translate(device, &pDependencyInfos[done], &infos[done],
                                       &copies[done], stack_used ? NULL : stack,
                                       stack_used ? 0 : sizeof(stack));
         stack_used = true;
      } else {
         infos[done] = pDependencyInfos[done];
      }
   }
   if (result == VK_SUCCESS) {
      device->base.next.CmdWaitEvents2(commandBuffer, eventCount, pEvents, infos);
   } else {
      tsr_cmd_fail(device, commandBuffer, result);
      lyr_loge("vkCmdWaitEvents2: out of host memory; the wait is not recorded");
   }
   for (uint32_t i = 0; i < done; i++)
      lyr_chain_copy_free(&copies[i]);
   lyr_free(&device->base.alloc, block);
}

/* ---- version-1 barriers: image layouts only ---------------------------- */

static bool
image_barriers_need_layouts(uint32_t count, const VkImageMemoryBarrier *barriers)
{
   for (uint32_t i = 0; i < count; i++) {
      if (layout_is_ours(barriers[i].oldLayout) || layout_is_ours(barriers[i].newLayout))
         return true;
   }
   return false;
}

/* The image barriers to pass down in *out: the application's own when no layout is ours,
 * else a copy with layouts translated, in stack when it fits, else allocated (released
 * by image_barriers_release()). False when out of memory. */
static bool
image_barriers_for_driver(struct tsr_device *device, uint32_t count,
                          const VkImageMemoryBarrier *barriers, VkImageMemoryBarrier *stack,
                          const VkImageMemoryBarrier **out)
{
   *out = barriers;
   if (!image_barriers_need_layouts(count, barriers))
      return true;
   VkImageMemoryBarrier *copy = stack;
   if (count > TSR_BARRIER_STACK) {
      copy = lyr_alloc(&device->base.alloc, count * sizeof(*copy), 8,
                       VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!copy)
         return false;
   }
   for (uint32_t i = 0; i < count; i++) {
      copy[i] = barriers[i];
      copy[i].oldLayout = translate_layout(copy[i].oldLayout);
      copy[i].newLayout = translate_layout(copy[i].newLayout);
   }
   *out = copy;
   return true;
}

/* Frees what image_barriers_for_driver() allocated. */
static void
image_barriers_release(struct tsr_device *device, const VkImageMemoryBarrier *images,
                       const VkImageMemoryBarrier *barriers, const VkImageMemoryBarrier *stack)
{
   if (images != barriers && images != stack)
      lyr_free(&device->base.alloc, (void *)images);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags srcStageMask,
                       VkPipelineStageFlags dstStageMask, VkDependencyFlags dependencyFlags,
                       uint32_t memoryBarrierCount, const VkMemoryBarrier *pMemoryBarriers,
                       uint32_t bufferMemoryBarrierCount,
                       const VkBufferMemoryBarrier *pBufferMemoryBarriers,
                       uint32_t imageMemoryBarrierCount,
                       const VkImageMemoryBarrier *pImageMemoryBarriers)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   const VkImageMemoryBarrier *images;
   VkImageMemoryBarrier stack[TSR_BARRIER_STACK];
   if (!image_barriers_for_driver(device, imageMemoryBarrierCount, pImageMemoryBarriers, stack,
                                  &images)) {
      tsr_cmd_fail(device, commandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY);
      lyr_loge("vkCmdPipelineBarrier: out of host memory; the barrier is not recorded");
      return;
   }
   device->base.next.CmdPipelineBarrier(commandBuffer, srcStageMask, dstStageMask,
                                        dependencyFlags, memoryBarrierCount, pMemoryBarriers,
                                        bufferMemoryBarrierCount, pBufferMemoryBarriers,
                                        imageMemoryBarrierCount, images);
   image_barriers_release(device, images, pImageMemoryBarriers, stack);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_CmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent *pEvents,
                  VkPipelineStageFlags srcStageMask, VkPipelineStageFlags dstStageMask,
                  uint32_t memoryBarrierCount, const VkMemoryBarrier *pMemoryBarriers,
                  uint32_t bufferMemoryBarrierCount,
                  const VkBufferMemoryBarrier *pBufferMemoryBarriers,
                  uint32_t imageMemoryBarrierCount,
                  const VkImageMemoryBarrier *pImageMemoryBarriers)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   const VkImageMemoryBarrier *images;
   VkImageMemoryBarrier stack[TSR_BARRIER_STACK];
   if (!image_barriers_for_driver(device, imageMemoryBarrierCount, pImageMemoryBarriers, stack,
                                  &images)) {
      tsr_cmd_fail(device, commandBuffer, VK_ERROR_OUT_OF_HOST_MEMORY);
      lyr_loge("vkCmdWaitEvents: out of host memory; the wait is not recorded");
      return;
   }
   device->base.next.CmdWaitEvents(commandBuffer, eventCount, pEvents, srcStageMask,
                                   dstStageMask, memoryBarrierCount, pMemoryBarriers,
                                   bufferMemoryBarrierCount, pBufferMemoryBarriers,
                                   imageMemoryBarrierCount, images);
   image_barriers_release(device, images, pImageMemoryBarriers, stack);
}

static const struct lyr_hook hooks[] = {
   TSR_HOOK(CmdPipelineBarrier, tsr_CmdPipelineBarrier),
   TSR_HOOK(CmdPipelineBarrier2, tsr_CmdPipelineBarrier2),
   TSR_HOOK(CmdPipelineBarrier2KHR, tsr_CmdPipelineBarrier2),
   TSR_HOOK(CmdWaitEvents, tsr_CmdWaitEvents),
   TSR_HOOK(CmdWaitEvents2, tsr_CmdWaitEvents2),
   TSR_HOOK(CmdWaitEvents2KHR, tsr_CmdWaitEvents2),
   TSR_HOOK(CmdSetEvent2, tsr_CmdSetEvent2),
   TSR_HOOK(CmdSetEvent2KHR, tsr_CmdSetEvent2),
};

const struct lyr_hook_table tsr_barrier_hooks = LYR_HOOK_TABLE(hooks);
