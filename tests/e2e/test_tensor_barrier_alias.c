/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor barriers and tensor/image aliasing through the loader on lavapipe,
 * with the validation layer's synchronization validation below our layer:
 * a transfer write on a tensor's memory, a tensor barrier (in a
 * VkTensorDependencyInfoARM, chained directly, or through vkCmdSetEvent2 /
 * vkCmdWaitEvents2), then a read must give the data without a hazard, while
 * the same commands without the barrier must report one. Images with
 * tensor-aliasing usage: their TENSOR_ALIASING layout in barriers, a tensor
 * bound at the same memory and offset (either order) taking the image's
 * padded row pitch (checked through data), aliases that cannot work rejected
 * at bind with a log line, and the image queries with the aliasing usage.
 */
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static struct vku v;
static VkDevice device;
static VkQueue queue;
static uint32_t queue_family;
static VkCommandPool pool;

static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCmdCopyTensorARM copy_tensor; /* NULL until tsr_copy.c lands */

/* The aliasing image of the data tests: 13 RGBA8 texels (52 bytes) per row. */
#define IMG_W 13
#define IMG_H 5
#define IMG_C 4

/* ---- helpers ------------------------------------------------------------ */

static VkDeviceMemory
alloc_memory(VkDeviceSize size, uint32_t bits)
{
   VkMemoryAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = size,
      .memoryTypeIndex = vku_host_memory_type(&v, bits),
   };
   VkDeviceMemory memory = VK_NULL_HANDLE;
   ok(info.memoryTypeIndex != UINT32_MAX, "host-visible memory type in 0x%x", bits);
   ok(vkAllocateMemory(device, &info, NULL, &memory) == VK_SUCCESS, "vkAllocateMemory");
   return memory;
}

static VkResult
make_tensor(VkFormat format, VkTensorTilingARM tiling, uint32_t rank, const int64_t *dims,
            VkTensorUsageFlagsARM usage, VkTensorARM *t)
{
   VkTensorDescriptionARM desc = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = tiling,
      .format = format,
      .dimensionCount = rank,
      .pDimensions = dims,
      .usage = usage,
   };
   VkTensorCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
      .pDescription = &desc,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return create_tensor(device, &info, NULL, t);
}

static VkMemoryRequirements
tensor_requirements(VkTensorARM t)
{
   VkTensorMemoryRequirementsInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
      .tensor = t,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   tensor_reqs(device, &info, &req);
   return req.memoryRequirements;
}

static VkResult
bind_tensor_at(VkTensorARM t, VkDeviceMemory memory, VkDeviceSize offset)
{
   VkBindTensorMemoryInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
      .tensor = t,
      .memory = memory,
      .memoryOffset = offset,
   };
   return bind_tensor(device, 1, &info);
}

/* An application buffer bound at offset 0 of memory (aliasing what is there). */
static VkBuffer
make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkDeviceMemory memory)
{
   VkBufferCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = size,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkBuffer buffer = VK_NULL_HANDLE;
   ok(vkCreateBuffer(device, &info, NULL, &buffer) == VK_SUCCESS, "vkCreateBuffer");
   if (memory)
      ok(vkBindBufferMemory(device, buffer, memory, 0) == VK_SUCCESS, "vkBindBufferMemory");
   return buffer;
}

static VkImageCreateInfo
image_info(VkFormat format, uint32_t width, uint32_t height, VkImageTiling tiling,
           VkImageUsageFlags usage)
{
   return (VkImageCreateInfo){
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = format,
      .extent = {width, height, 1},
      .mipLevels = 1,
      .arrayLayers = 1,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = tiling,
      .usage = usage,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
}

static VkImage
make_alias_image_shaped(VkImageType type, uint32_t depth, uint32_t layers)
{
   VkImageCreateInfo info =
      image_info(VK_FORMAT_R8G8B8A8_UINT, IMG_W, IMG_H, VK_IMAGE_TILING_OPTIMAL,
                 VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                    VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM);
   info.imageType = type;
   info.extent.depth = depth;
   info.arrayLayers = layers;
   VkImage image = VK_NULL_HANDLE;
   ok(vkCreateImage(device, &info, NULL, &image) == VK_SUCCESS,
      "vkCreateImage with TENSOR_ALIASING usage");
   return image;
}

static VkImage
make_alias_image(void)
{
   return make_alias_image_shaped(VK_IMAGE_TYPE_2D, 1, 1);
}

static VkCommandBuffer
begin(void)
{
   VkCommandBufferAllocateInfo ai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   ok(vkAllocateCommandBuffers(device, &ai, &cmd) == VK_SUCCESS, "vkAllocateCommandBuffers");
   VkCommandBufferBeginInfo bi = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   vkBeginCommandBuffer(cmd, &bi);
   return cmd;
}

static void
submit(VkCommandBuffer cmd)
{
   ok(vkEndCommandBuffer(cmd) == VK_SUCCESS, "vkEndCommandBuffer");
   VkSubmitInfo si = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
   };
   ok(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS, "vkQueueSubmit");
   ok(vkQueueWaitIdle(queue) == VK_SUCCESS, "vkQueueWaitIdle");
   vkFreeCommandBuffers(device, pool, 1, &cmd);
}

static void *
map(VkDeviceMemory memory)
{
   void *p = NULL;
   ok(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &p) == VK_SUCCESS, "vkMapMemory");
   return p;
}

static VkTensorMemoryBarrierARM
transfer_barrier(VkTensorARM t)
{
   return (VkTensorMemoryBarrierARM){
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM,
      .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
      .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
      .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
      .dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .tensor = t,
   };
}

/* ---- tensor barriers ---------------------------------------------------- */

enum barrier_form {
   NO_BARRIER,
   DEPENDENCY_INFO, /* VkTensorDependencyInfoARM */
   DIRECT,          /* VkTensorMemoryBarrierARM in VkDependencyInfo's chain */
   EVENTS,          /* vkCmdSetEvent2 + vkCmdWaitEvents2 */
   WITH_BUFFERS,    /* after a buffer barrier of the application's */
};

/* Fills the tensor's memory through an aliasing buffer, orders that with a
 * tensor barrier, reads it back; returns the validation errors it caused. */
static unsigned
fill_barrier_read(enum barrier_form form, const char *what)
{
   test_set_context(what);
   const int64_t dims[] = {64};
   const VkDeviceSize size = 64 * 4;
   VkTensorARM t = VK_NULL_HANDLE;
   ok(make_tensor(VK_FORMAT_R32_UINT, VK_TENSOR_TILING_LINEAR_ARM, 1, dims,
                  VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM,
                  &t) == VK_SUCCESS,
      "tensor");
   VkMemoryRequirements req = tensor_requirements(t);
   VkDeviceMemory memory = alloc_memory(req.size > size ? req.size : size, req.memoryTypeBits);
   ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor");
   VkBuffer alias =
      make_buffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                  memory);
   VkDeviceMemory readback_memory = alloc_memory(4096, ~0u);
   VkBuffer readback = make_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, readback_memory);
   VkBuffer other = make_buffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE);
   vkBindBufferMemory(device, other, readback_memory, 1024);

   VkEvent event = VK_NULL_HANDLE;
   VkEventCreateInfo eci = {.sType = VK_STRUCTURE_TYPE_EVENT_CREATE_INFO};
   ok(vkCreateEvent(device, &eci, NULL, &event) == VK_SUCCESS, "vkCreateEvent");

   unsigned errors_before = v.validation_errors;
   VkCommandBuffer cmd = begin();
   vkCmdFillBuffer(cmd, alias, 0, size, 0x5a17c0deu);

   VkTensorMemoryBarrierARM tb = transfer_barrier(t);
   VkTensorDependencyInfoARM tdi = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM,
      .tensorMemoryBarrierCount = 1,
      .pTensorMemoryBarriers = &tb,
   };
   /* An unrelated buffer barrier of the application's stays in the list. */
   VkBufferMemoryBarrier2 app_barrier = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER_2,
      .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
      .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
      .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
      .dstAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .buffer = other,
      .size = VK_WHOLE_SIZE,
   };
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO};
   switch (form) {
   case NO_BARRIER:
      break;
   case DEPENDENCY_INFO:
      dep.pNext = &tdi;
      vkCmdPipelineBarrier2(cmd, &dep);
      break;
   case DIRECT:
      dep.pNext = &tb;
      vkCmdPipelineBarrier2(cmd, &dep);
      break;
   case EVENTS:
      dep.pNext = &tdi;
      vkCmdSetEvent2(cmd, event, &dep);
      vkCmdWaitEvents2(cmd, 1, &event, &dep);
      break;
   case WITH_BUFFERS:
      dep.pNext = &tdi;
      dep.bufferMemoryBarrierCount = 1;
      dep.pBufferMemoryBarriers = &app_barrier;
      vkCmdPipelineBarrier2(cmd, &dep);
      break;
   }
   /* The application's structs are as it wrote them. */
   ok(tdi.pNext == NULL && tdi.tensorMemoryBarrierCount == 1, "VkTensorDependencyInfoARM intact");
   ok(tb.tensor == t && tb.pNext == NULL, "VkTensorMemoryBarrierARM intact");
   ok(dep.bufferMemoryBarrierCount == (form == WITH_BUFFERS ? 1u : 0u), "VkDependencyInfo intact");

   VkBufferCopy region = {.size = size};
   vkCmdCopyBuffer(cmd, alias, readback, 1, &region);
   submit(cmd);
   unsigned errors = v.validation_errors - errors_before;

   const uint32_t *words = map(readback_memory);
   bool data_ok = words != NULL;
   for (unsigned i = 0; data_ok && i < 64; i++)
      data_ok = words[i] == 0x5a17c0deu;
   ok(data_ok, "data read after the barrier");
   vkUnmapMemory(device, readback_memory);

   vkDestroyEvent(device, event, NULL);
   vkDestroyBuffer(device, other, NULL);
   vkDestroyBuffer(device, readback, NULL);
   vkDestroyBuffer(device, alias, NULL);
   destroy_tensor(device, t, NULL);
   vkFreeMemory(device, readback_memory, NULL);
   vkFreeMemory(device, memory, NULL);
   return errors;
}

static void
check_tensor_barriers(void)
{
   /* Synchronization validation must see the hazard without a barrier, or
    * the other cases prove nothing. */
   unsigned errors = fill_barrier_read(NO_BARRIER, "no barrier (control)");
   ok(errors > 0, "synchronization validation reports the read-after-write hazard");
   v.validation_errors -= errors; /* expected */

   check_eq_u64(fill_barrier_read(DEPENDENCY_INFO, "VkTensorDependencyInfoARM"), 0);
   check_eq_u64(fill_barrier_read(DIRECT, "VkTensorMemoryBarrierARM chained"), 0);
   check_eq_u64(fill_barrier_read(EVENTS, "vkCmdSetEvent2/vkCmdWaitEvents2"), 0);
   check_eq_u64(fill_barrier_read(WITH_BUFFERS, "with an application buffer barrier"), 0);
}

/* ---- aliasing images ---------------------------------------------------- */

static uint8_t
texel_value(unsigned h, unsigned w, unsigned c)
{
   return (uint8_t)(1 + h * 61 + w * 7 + c * 3);
}

static VkImageSubresourceRange
color_range(void)
{
   return (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
}

static VkImageMemoryBarrier2
image_barrier2(VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags2 src,
               VkAccessFlags2 dst)
{
   return (VkImageMemoryBarrier2){
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
      .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
      .srcAccessMask = src,
      .dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT,
      .dstAccessMask = dst,
      .oldLayout = from,
      .newLayout = to,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = image,
      .subresourceRange = color_range(),
   };
}

/*
 * Writes texels into the aliasing image, moves it to TENSOR_ALIASING with a
 * barrier that also carries a tensor barrier, copies the tensor to a packed
 * one (when vkCmdCopyTensorARM exists) and the image back to a buffer
 * (version-1 barrier out of TENSOR_ALIASING), and checks every byte.
 */
static void
alias_data(bool tensor_first, const char *what)
{
   test_set_context(what);
   VkImage image = make_alias_image();
   VkMemoryRequirements ireq;
   vkGetImageMemoryRequirements(device, image, &ireq);
   const int64_t dims[] = {IMG_H, IMG_W, IMG_C};
   VkTensorARM t = VK_NULL_HANDLE;
   ok(make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_OPTIMAL_ARM, 3, dims,
                  VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM,
                  &t) == VK_SUCCESS,
      "aliasing tensor");
   VkMemoryRequirements treq = tensor_requirements(t);
   VkDeviceSize size = ireq.size > treq.size ? ireq.size : treq.size;
   VkDeviceMemory memory = alloc_memory(size, ireq.memoryTypeBits & treq.memoryTypeBits);

   if (tensor_first) {
      ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor, no image there yet");
      ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image after");
   } else {
      ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image");
      ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor after");
   }
   /* Test-only peek below our layer (the application's image is optimal): the
    * pitch must be padded for this test to mean anything. */
   VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
   VkSubresourceLayout layout;
   vkGetImageSubresourceLayout(device, image, &sub, &layout);
   ok(layout.rowPitch > IMG_W * IMG_C, "row pitch %" PRIu64 " is padded beyond %u bytes",
      (uint64_t)layout.rowPitch, IMG_W * IMG_C);

   const VkDeviceSize tight = IMG_W * IMG_H * IMG_C;
   VkDeviceMemory host = alloc_memory(3 * 4096, ~0u);
   VkBuffer staging = make_buffer(tight, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, host);
   VkBuffer image_out = make_buffer(tight, VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_NULL_HANDLE);
   ok(vkBindBufferMemory(device, image_out, host, 4096) == VK_SUCCESS, "bind readback");
   uint8_t *bytes = map(host);
   for (unsigned h = 0; h < IMG_H; h++)
      for (unsigned w = 0; w < IMG_W; w++)
         for (unsigned c = 0; c < IMG_C; c++)
            bytes[(h * IMG_W + w) * IMG_C + c] = texel_value(h, w, c);

   /* The packed tensor the aliasing one is copied to. */
   VkTensorARM packed = VK_NULL_HANDLE;
   VkDeviceMemory packed_memory = VK_NULL_HANDLE;
   if (copy_tensor) {
      ok(make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_LINEAR_ARM, 3, dims,
                     VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM, &packed) == VK_SUCCESS,
         "packed tensor");
      VkMemoryRequirements preq = tensor_requirements(packed);
      packed_memory = alloc_memory(preq.size, preq.memoryTypeBits);
      ok(bind_tensor_at(packed, packed_memory, 0) == VK_SUCCESS, "bind packed tensor");
   }

   VkCommandBuffer cmd = begin();
   VkImageMemoryBarrier2 to_dst = image_barrier2(image, VK_IMAGE_LAYOUT_UNDEFINED,
                                                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0,
                                                 VK_ACCESS_2_TRANSFER_WRITE_BIT);
   VkDependencyInfo dep = {
      .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
      .imageMemoryBarrierCount = 1,
      .pImageMemoryBarriers = &to_dst,
   };
   vkCmdPipelineBarrier2(cmd, &dep);
   VkBufferImageCopy bic = {
      .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
      .imageExtent = {IMG_W, IMG_H, 1},
   };
   vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &bic);

   /* Image writes visible to tensor reads: the image in TENSOR_ALIASING. */
   VkImageMemoryBarrier2 to_alias = image_barrier2(
      image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM,
      VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
   VkTensorMemoryBarrierARM tb = transfer_barrier(t);
   VkTensorDependencyInfoARM tdi = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM,
      .tensorMemoryBarrierCount = 1,
      .pTensorMemoryBarriers = &tb,
   };
   dep.pNext = &tdi;
   dep.pImageMemoryBarriers = &to_alias;
   vkCmdPipelineBarrier2(cmd, &dep);
   ok(to_alias.newLayout == VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM, "image barrier intact");

   if (copy_tensor) {
      uint64_t extent[] = {IMG_H, IMG_W, IMG_C};
      uint64_t zero[] = {0, 0, 0};
      VkTensorCopyARM region = {
         .sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
         .dimensionCount = 3,
         .pSrcOffset = zero,
         .pDstOffset = zero,
         .pExtent = extent,
      };
      VkCopyTensorInfoARM info = {
         .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
         .srcTensor = t,
         .dstTensor = packed,
         .regionCount = 1,
         .pRegions = &region,
      };
      copy_tensor(cmd, &info);
   }

   /* Back out of TENSOR_ALIASING with a version-1 barrier, after the tensor read. */
   VkImageMemoryBarrier to_src = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT,
      .dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT,
      .oldLayout = VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM,
      .newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = image,
      .subresourceRange = color_range(),
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &to_src);
   vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image_out, 1, &bic);
   submit(cmd);

   /* The image's bytes sit at the row pitch in memory ... */
   const uint8_t *mem = map(memory);
   const uint8_t *out = bytes + 4096;
   bool image_ok = mem != NULL, roundtrip_ok = true;
   for (unsigned h = 0; h < IMG_H; h++)
      for (unsigned w = 0; w < IMG_W; w++)
         for (unsigned c = 0; c < IMG_C; c++) {
            uint8_t want = texel_value(h, w, c);
            image_ok &= mem && mem[h * layout.rowPitch + w * IMG_C + c] == want;
            roundtrip_ok &= out[(h * IMG_W + w) * IMG_C + c] == want;
         }
   ok(image_ok, "texels at the image's row pitch");
   ok(roundtrip_ok, "image copied back after TENSOR_ALIASING");
   vkUnmapMemory(device, memory);

   /* ... and the tensor reads element (h, w, c) from there. */
   if (copy_tensor) {
      const uint8_t *p = map(packed_memory);
      bool tensor_ok = p != NULL;
      for (unsigned i = 0; tensor_ok && i < tight; i++)
         tensor_ok = p[i] == texel_value(i / (IMG_W * IMG_C), (i / IMG_C) % IMG_W, i % IMG_C);
      ok(tensor_ok, "tensor element (h, w, c) is texel (w, h) component c");
      vkUnmapMemory(device, packed_memory);
      destroy_tensor(device, packed, NULL);
      vkFreeMemory(device, packed_memory, NULL);
   } else {
      printf("note: vkCmdCopyTensorARM not offered yet; tensor-side data check skipped\n");
   }
   vkUnmapMemory(device, host);
   vkDestroyBuffer(device, image_out, NULL);
   vkDestroyBuffer(device, staging, NULL);
   vkFreeMemory(device, host, NULL);
   destroy_tensor(device, t, NULL);
   vkDestroyImage(device, image, NULL);
   vkFreeMemory(device, memory, NULL);
}

/* A tensor that cannot alias the image at the same place: bind fails with
 * VK_ERROR_VALIDATION_FAILED and a log line saying why, in either order. */
static void
alias_rejected(VkFormat format, uint32_t rank, const int64_t *dims, const char *why,
               const char *what)
{
   test_set_context(what);
   for (int tensor_first = 0; tensor_first < 2; tensor_first++) {
      VkImage image = make_alias_image();
      VkTensorARM t = VK_NULL_HANDLE;
      ok(make_tensor(format, VK_TENSOR_TILING_OPTIMAL_ARM, rank, dims,
                     VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM, &t) == VK_SUCCESS,
         "tensor");
      VkMemoryRequirements ireq, treq = tensor_requirements(t);
      vkGetImageMemoryRequirements(device, image, &ireq);
      VkDeviceSize size = ireq.size > treq.size ? ireq.size : treq.size;
      VkDeviceMemory memory = alloc_memory(size, ireq.memoryTypeBits & treq.memoryTypeBits);
      VkResult r;
      vku_capture_stderr_begin();
      if (tensor_first) {
         ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor first");
         r = vkBindImageMemory(device, image, memory, 0);
      } else {
         ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image first");
         r = bind_tensor_at(t, memory, 0);
      }
      const char *log = vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "%s bind returns %d",
         tensor_first ? "image" : "tensor", r);
      ok(strstr(log, "cannot alias") && strstr(log, why), "log says \"%s\"", why);
      destroy_tensor(device, t, NULL);
      vkDestroyImage(device, image, NULL);
      vkFreeMemory(device, memory, NULL);
   }
}

static void
check_alias_rejections(void)
{
   const int64_t three_components[] = {IMG_H, IMG_W, 3};
   alias_rejected(VK_FORMAT_R8_UINT, 3, three_components, "innermost dimension",
                  "innermost dimension != components");
   const int64_t dims[] = {IMG_H, IMG_W, IMG_C};
   alias_rejected(VK_FORMAT_R16_UINT, 3, dims, "2-byte elements", "element size");
   const int64_t outer[] = {2, IMG_H, IMG_W, IMG_C};
   alias_rejected(VK_FORMAT_R8_UINT, 4, outer, "must be 1", "outer dimension > 1");
   const int64_t taller[] = {IMG_H + 1, IMG_W, IMG_C};
   alias_rejected(VK_FORMAT_R8_UINT, 3, taller, "height", "taller than the image");
   const int64_t row[] = {IMG_W, IMG_C};
   alias_rejected(VK_FORMAT_R8_UINT, 2, row, "dimensions", "rank below image rank + 1");
}

/* A smaller tensor in the image's top-left corner, a 4D tensor with a
 * leading 1, a 2-layer array image and a 3D image alias too. */
static void
check_alias_shapes(void)
{
   test_set_context("other shapes");
   const int64_t corner[] = {IMG_H - 2, IMG_W - 3, IMG_C};
   const int64_t leading[] = {1, IMG_H, IMG_W, IMG_C};
   const int64_t layered[] = {2, IMG_H, IMG_W, IMG_C};
   const struct {
      uint32_t rank;
      const int64_t *dims;
      VkImageType type;
      uint32_t depth, layers;
   } shapes[] = {
      {3, corner, VK_IMAGE_TYPE_2D, 1, 1},
      {4, leading, VK_IMAGE_TYPE_2D, 1, 1},
      {4, layered, VK_IMAGE_TYPE_2D, 1, 2},
      {4, layered, VK_IMAGE_TYPE_3D, 2, 1},
   };
   for (unsigned s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
      VkImageFormatProperties props;
      if (vkGetPhysicalDeviceImageFormatProperties(
             v.physical_device, VK_FORMAT_R8G8B8A8_UINT, shapes[s].type,
             VK_IMAGE_TILING_OPTIMAL,
             VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM,
             0, &props) != VK_SUCCESS ||
          props.maxExtent.depth < shapes[s].depth || props.maxArrayLayers < shapes[s].layers) {
         printf("note: shape %u: no such aliasing image here\n", s);
         continue;
      }
      VkImage image = make_alias_image_shaped(shapes[s].type, shapes[s].depth, shapes[s].layers);
      VkTensorARM t = VK_NULL_HANDLE;
      ok(make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_OPTIMAL_ARM, shapes[s].rank,
                     shapes[s].dims, VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM, &t) == VK_SUCCESS,
         "tensor");
      VkMemoryRequirements ireq, treq = tensor_requirements(t);
      vkGetImageMemoryRequirements(device, image, &ireq);
      VkDeviceSize size = ireq.size > treq.size ? ireq.size : treq.size;
      VkDeviceMemory memory = alloc_memory(size, ireq.memoryTypeBits & treq.memoryTypeBits);
      ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image");
      ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "rank %u tensor aliases", shapes[s].rank);
      destroy_tensor(device, t, NULL);
      vkDestroyImage(device, image, NULL);
      vkFreeMemory(device, memory, NULL);
   }
}

/* ---- image queries and creation with the aliasing usage ------------------ */

static void
check_image_queries(void)
{
   test_set_context("image queries");
   const VkImageUsageFlags usage =
      VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
   VkPhysicalDeviceImageFormatInfo2 info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
      .format = VK_FORMAT_R8G8B8A8_UINT,
      .type = VK_IMAGE_TYPE_2D,
      .tiling = VK_IMAGE_TILING_LINEAR,
      .usage = usage,
   };
   VkImageFormatProperties2 linear = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
   ok(vkGetPhysicalDeviceImageFormatProperties2(v.physical_device, &info, &linear) == VK_SUCCESS,
      "linear R8G8B8A8_UINT");

   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.usage = usage | VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM;
   VkImageFormatProperties2 alias = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
   ok(vkGetPhysicalDeviceImageFormatProperties2(v.physical_device, &info, &alias) == VK_SUCCESS,
      "optimal R8G8B8A8_UINT with TENSOR_ALIASING");
   ok(memcmp(&alias.imageFormatProperties, &linear.imageFormatProperties,
             sizeof(linear.imageFormatProperties)) == 0,
      "aliasing images have the limits of linear images");

   VkImageFormatProperties v1;
   ok(vkGetPhysicalDeviceImageFormatProperties(
         v.physical_device, VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
         info.usage, 0, &v1) == VK_SUCCESS,
      "version 1 query");
   check_eq_u64(v1.maxMipLevels, linear.imageFormatProperties.maxMipLevels);

   info.tiling = VK_IMAGE_TILING_LINEAR;
   ok(vkGetPhysicalDeviceImageFormatProperties2(v.physical_device, &info, &alias) ==
         VK_ERROR_FORMAT_NOT_SUPPORTED,
      "linear tiling with TENSOR_ALIASING is not supported (VUID-VkImageCreateInfo-tiling-09711)");
   info.tiling = VK_IMAGE_TILING_OPTIMAL;
   info.format = VK_FORMAT_A2B10G10R10_UNORM_PACK32;
   ok(vkGetPhysicalDeviceImageFormatProperties2(v.physical_device, &info, &alias) ==
         VK_ERROR_FORMAT_NOT_SUPPORTED,
      "packed format with TENSOR_ALIASING is not supported");
   info.format = VK_FORMAT_D32_SFLOAT;
   ok(vkGetPhysicalDeviceImageFormatProperties2(v.physical_device, &info, &alias) ==
         VK_ERROR_FORMAT_NOT_SUPPORTED,
      "depth format with TENSOR_ALIASING is not supported");
   uint32_t sparse = 7;
   vkGetPhysicalDeviceSparseImageFormatProperties(
      v.physical_device, VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_TYPE_2D, VK_SAMPLE_COUNT_1_BIT,
      usage | VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM, VK_IMAGE_TILING_OPTIMAL, &sparse, NULL);
   check_eq_u64(sparse, 0);

   /* Memory requirements without an image match those of the image. */
   VkImageCreateInfo ici = image_info(VK_FORMAT_R8G8B8A8_UINT, IMG_W, IMG_H,
                                      VK_IMAGE_TILING_OPTIMAL,
                                      usage | VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM);
   VkDeviceImageMemoryRequirements dimr = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS,
      .pCreateInfo = &ici,
   };
   VkMemoryRequirements2 dreq = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   vkGetDeviceImageMemoryRequirements(device, &dimr, &dreq);
   VkImage image = make_alias_image();
   VkMemoryRequirements ireq;
   vkGetImageMemoryRequirements(device, image, &ireq);
   check_eq_u64(dreq.memoryRequirements.size, ireq.size);
   check_eq_u64(dreq.memoryRequirements.memoryTypeBits, ireq.memoryTypeBits);
   vkDestroyImage(device, image, NULL);

   /* Linear tiling breaks VUID-VkImageCreateInfo-tiling-09711 but is accepted
    * with a warning (test_tensor_compat aliases such images); creation outside
    * the limits is refused. */
   VkImage bad = VK_NULL_HANDLE;
   ici.tiling = VK_IMAGE_TILING_LINEAR;
   vku_capture_stderr_begin();
   VkResult r = vkCreateImage(device, &ici, NULL, &bad);
   const char *warned = vku_capture_stderr_end();
   ok(r == VK_SUCCESS, "linear image with TENSOR_ALIASING accepted (%d)", r);
   ok(strstr(warned, "VUID-VkImageCreateInfo-tiling-09711") != NULL, "with a warning");
   vkDestroyImage(device, bad, NULL);
   bad = VK_NULL_HANDLE;
   /* Linear images have one sample (vkGetPhysicalDeviceImageFormatProperties). */
   ici.tiling = VK_IMAGE_TILING_OPTIMAL;
   ici.samples = VK_SAMPLE_COUNT_4_BIT;
   vku_capture_stderr_begin();
   r = vkCreateImage(device, &ici, NULL, &bad);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "4 samples refused (%d)", r);
   ok(strstr(log, "exceed what images with tensor-aliasing usage") != NULL, "log says why");
   ici.samples = VK_SAMPLE_COUNT_1_BIT;
   printf("note: linear R8G8B8A8_UINT: %u mip levels, %u layers\n",
          linear.imageFormatProperties.maxMipLevels, linear.imageFormatProperties.maxArrayLayers);
   if (linear.imageFormatProperties.maxMipLevels < 2) {
      ici.mipLevels = 2;
      vku_capture_stderr_begin();
      r = vkCreateImage(device, &ici, NULL, &bad);
      log = vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "2 mip levels refused (%d)", r);
      ok(strstr(log, "mip levels") != NULL, "log names the mip levels");
   }
}

/* ---- setup -------------------------------------------------------------- */

static bool
setup(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init_sync(&v, layers, 1) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   if (!vku_has_device_extension(&v, "VK_ARM_tensors"))
      return false;

   VkPhysicalDeviceVulkan13Features v13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
      .synchronization2 = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .pNext = &v13,
      .tensors = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors"};
   ok(vku_create_device(&v, ext, 1, &tf, &device) == VK_SUCCESS, "device");

   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, NULL);
   VkQueueFamilyProperties fams[16];
   n = n > 16 ? 16 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, fams);
   for (uint32_t i = n; i-- > 0;) {
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         queue_family = i; /* the first compute family, as vku_create_device picks */
   }
   vkGetDeviceQueue(device, queue_family, 0, &queue);
   VkCommandPoolCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = queue_family,
   };
   ok(vkCreateCommandPool(device, &pci, NULL, &pool) == VK_SUCCESS, "command pool");

   create_tensor = (PFN_vkCreateTensorARM)vkGetDeviceProcAddr(device, "vkCreateTensorARM");
   destroy_tensor = (PFN_vkDestroyTensorARM)vkGetDeviceProcAddr(device, "vkDestroyTensorARM");
   tensor_reqs = (PFN_vkGetTensorMemoryRequirementsARM)vkGetDeviceProcAddr(
      device, "vkGetTensorMemoryRequirementsARM");
   bind_tensor = (PFN_vkBindTensorMemoryARM)vkGetDeviceProcAddr(device, "vkBindTensorMemoryARM");
   copy_tensor = (PFN_vkCmdCopyTensorARM)vkGetDeviceProcAddr(device, "vkCmdCopyTensorARM");
   return create_tensor && destroy_tensor && tensor_reqs && bind_tensor;
}

int
main(void)
{
   if (!setup()) {
      ok(false, "VK_ARM_tensors and its tensor commands are offered");
      vku_finish(&v);
      return test_done();
   }
   check_tensor_barriers();
   alias_data(false, "alias: image bound first");
   alias_data(true, "alias: tensor bound first");
   check_alias_shapes();
   check_alias_rejections();
   check_image_queries();

   test_set_context("teardown");
   vkDestroyCommandPool(device, pool, NULL);
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
