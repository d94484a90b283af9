/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Device memory the application allocates: tensor data is reached through
 * buffer device addresses (include/kernel_abi/tensor_record.h), so memory a
 * tensor can be bound to needs VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT. We add
 * it only to allocations of the memory types tensor buffers accept, and never
 * to allocations dedicated to an image (docs/decisions.md D13), together with
 * VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT on devices where the
 * application enabled descriptor-buffer capture/replay.
 * VkMemoryDedicatedAllocateInfoTensorARM becomes a dedicated allocation for
 * the tensor's buffer.
 */
#include "tsr_private.h"

VkResult
tsr_memory_init(struct tsr_device *device)
{
   /* Every tensor buffer has the same usage, so one probe gives the types. */
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = 4096,
      .usage = TSR_BUFFER_USAGE,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkDeviceBufferMemoryRequirements info = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS,
      .pCreateInfo = &bci,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   device->base.next.GetDeviceBufferMemoryRequirements(device->base.handle, &info, &req);
   device->tensor_memory_types = req.memoryRequirements.memoryTypeBits;
   return VK_SUCCESS;
}

/* Space for the structs an allocation may gain. */
struct alloc_extra {
   VkMemoryAllocateFlagsInfo flags;
   VkMemoryDedicatedAllocateInfo dedicated;
};

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_AllocateMemory(VkDevice _device, const VkMemoryAllocateInfo *pAllocateInfo,
                   const VkAllocationCallbacks *pAllocator, VkDeviceMemory *pMemory)
{
   struct tsr_device *device = tsr_device_get(_device);
   const VkMemoryDedicatedAllocateInfoTensorARM *tensor_dedicated = lyr_find_struct(
      pAllocateInfo->pNext, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM);
   const VkMemoryDedicatedAllocateInfo *dedicated =
      lyr_find_struct(pAllocateInfo->pNext, VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO);
   const VkMemoryAllocateFlagsInfo *flags =
      lyr_find_struct(pAllocateInfo->pNext, VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);

   bool for_image = dedicated && dedicated->image != VK_NULL_HANDLE;
   bool tensor_type = device->tensor_memory_types & (1u << pAllocateInfo->memoryTypeIndex);
   bool want_address = tensor_type && !for_image;
   /* With capture/replay, tensor buffers are CAPTURE_REPLAY buffers, which may
    * be bound only to CAPTURE_REPLAY memory (VUID-VkBindBufferMemoryInfo-
    * bufferDeviceAddressCaptureReplay-09200). */
   VkMemoryAllocateFlags want_flags =
      VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT |
      (device->capture_replay ? VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT : 0);
   bool has_address = flags && (flags->flags & want_flags) == want_flags;
   if (!tensor_dedicated && (!want_address || has_address))
      return device->base.next.AllocateMemory(_device, pAllocateInfo, pAllocator, pMemory);

   /* Structs of newer sTypes pass through (D43); the flags are changed in the copy. */
   static const VkStructureType edits[] = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
   struct lyr_chain_copy copy;
   VkResult result = lyr_chain_clone_pass_edit(NULL, 0, &device->base.alloc, pAllocateInfo,
                                               sizeof(*pAllocateInfo), lyr_drop_arm_ml, NULL,
                                               sizeof(struct alloc_extra), edits,
                                               LYR_ARRAY_SIZE(edits), &copy);
   if (result != VK_SUCCESS)
      return result;
   VkMemoryAllocateInfo *info = copy.head;
   struct alloc_extra *extra = copy.extra;
   if (want_address) {
      VkMemoryAllocateFlagsInfo *f =
         (VkMemoryAllocateFlagsInfo *)lyr_find_struct(info->pNext,
                                                      VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
      if (!f) {
         f = &extra->flags;
         f->sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
         lyr_chain_append(info, f);
      }
      f->flags |= want_flags;
   }
   if (tensor_dedicated && tensor_dedicated->tensor) {
      if (dedicated) {
         lyr_chain_copy_free(&copy);
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "vkAllocateMemory: both VkMemoryDedicatedAllocateInfo and "
                          "VkMemoryDedicatedAllocateInfoTensorARM are chained");
      }
      extra->dedicated = (VkMemoryDedicatedAllocateInfo){
         .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO,
         .buffer = tsr_tensor_from_handle(tensor_dedicated->tensor)->buffer,
      };
      lyr_chain_append(info, &extra->dedicated);
   }
   result = device->base.next.AllocateMemory(_device, info, pAllocator, pMemory);
   lyr_chain_copy_free(&copy);
   return result;
}

static const struct lyr_hook hooks[] = {
   TSR_HOOK(AllocateMemory, tsr_AllocateMemory),
};

const struct lyr_hook_table tsr_memory_hooks = LYR_HOOK_TABLE(hooks);
