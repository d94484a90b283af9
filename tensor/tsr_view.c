/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VkTensorViewARM objects and the pool of tensor records behind them. A view's
 * record (include/kernel_abi/tensor_record.h) is written once, at creation,
 * into a slot of a host-visible chunk; descriptors point at the slot. Chunks
 * are never freed before the device, so a slot can be reused only after its
 * view is destroyed, which the application may do only once no pending
 * command buffer uses it. A view created with DESCRIPTOR_BUFFER_CAPTURE_REPLAY
 * reports its slot as its capture data, and a replayed view takes that exact
 * slot (docs/decisions.md D13).
 */
#include "tsr_private.h"

#include <inttypes.h>

struct tsr_record_chunk {
   VkBuffer buffer;
   VkDeviceMemory memory;
   char *mapped;
   VkDeviceAddress address; /* with descriptorBufferTensorDescriptors only (D23) */
};

static uint32_t
find_memory_type(const struct tsr_device *device, uint32_t bits, VkMemoryPropertyFlags want)
{
   const VkPhysicalDeviceMemoryProperties *mp = &device->memory_properties;
   for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (mp->memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

VkResult
tsr_record_pool_init(struct tsr_device *device)
{
   struct tsr_record_pool *pool = &device->records;
   memset(pool, 0, sizeof(*pool));
   pthread_mutex_init(&pool->lock, NULL);
   VkDeviceSize align = device->limits.minStorageBufferOffsetAlignment;
   pool->stride = (VMEL_TENSOR_RECORD_SIZE + align - 1) / align * align;
   return VK_SUCCESS;
}

void
tsr_record_pool_finish(struct tsr_device *device)
{
   struct tsr_record_pool *pool = &device->records;
   VkDevice dev = device->base.handle;
   for (uint32_t i = 0; i < pool->slots.chunk_count; i++) {
      device->base.next.DestroyBuffer(dev, pool->chunks[i].buffer, &device->base.alloc);
      device->base.next.FreeMemory(dev, pool->chunks[i].memory, &device->base.alloc);
   }
   lyr_free(&device->base.alloc, pool->chunks);
   tsr_record_slots_finish(&pool->slots, &device->base.alloc);
   pthread_mutex_destroy(&pool->lock);
}

/* Adds a chunk and pushes its slots on the free list (tsr_record_add_chunk_fn). */
static VkResult
add_chunk_locked(struct tsr_record_slots *slots, void *user)
{
   struct tsr_device *device = user;
   struct tsr_record_pool *pool = &device->records;
   const VkAllocationCallbacks *alloc = &device->base.alloc;
   VkDevice dev = device->base.handle;
   if (slots->chunk_count >= TSR_RECORD_MAX_CHUNKS)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "too many tensor views");

   struct tsr_record_chunk *chunks =
      lyr_realloc(alloc, pool->chunks, (slots->chunk_count + 1) * sizeof(*chunks), 8,
                  VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!chunks)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   pool->chunks = chunks;
   /* Room for every slot of every chunk: all may be free at once. */
   VkResult result = tsr_record_slots_reserve(slots, alloc);
   if (result != VK_SUCCESS)
      return result;

   struct tsr_record_chunk chunk = {0};
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = pool->stride * TSR_RECORDS_PER_CHUNK,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   /* Tensor descriptors in descriptor buffers address records by device address. */
   bool addressed = device->descriptor_buffer_tensors;
   if (addressed)
      bci.usage |= VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
   result = device->base.next.CreateBuffer(dev, &bci, alloc, &chunk.buffer);
   if (result != VK_SUCCESS)
      return lyr_error(result, "tensor views: the driver's vkCreateBuffer of a chunk of view "
                       "records failed");
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   VkBufferMemoryRequirementsInfo2 rinfo = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
      .buffer = chunk.buffer,
   };
   device->base.next.GetBufferMemoryRequirements2(dev, &rinfo, &req);
   /* Prefer device-local host-visible memory (resizable BAR, unified memory). */
   uint32_t type = find_memory_type(device, req.memoryRequirements.memoryTypeBits,
                                    VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                       VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type == UINT32_MAX)
      type = find_memory_type(device, req.memoryRequirements.memoryTypeBits,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                 VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   if (type == UINT32_MAX) {
      result = lyr_error(VK_ERROR_OUT_OF_DEVICE_MEMORY, "no host-coherent memory for records");
      goto fail_buffer;
   }
   VkMemoryAllocateFlagsInfo flags = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = addressed ? &flags : NULL,
      .allocationSize = req.memoryRequirements.size,
      .memoryTypeIndex = type,
   };
   result = device->base.next.AllocateMemory(dev, &mai, alloc, &chunk.memory);
   if (result != VK_SUCCESS)
      goto fail_buffer;
   const VkBindBufferMemoryInfo bind = {
      .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
      .buffer = chunk.buffer,
      .memory = chunk.memory,
   };
   result = device->base.next.BindBufferMemory2(dev, 1, &bind);
   if (result != VK_SUCCESS)
      goto fail_memory;
   void *mapped;
   result = device->base.next.MapMemory(dev, chunk.memory, 0, VK_WHOLE_SIZE, 0, &mapped);
   if (result != VK_SUCCESS)
      goto fail_memory;
   chunk.mapped = mapped;
   if (addressed) {
      VkBufferDeviceAddressInfo ai = {
         .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
         .buffer = chunk.buffer,
      };
      chunk.address = device->base.next.GetBufferDeviceAddress(dev, &ai);
   }

   pool->chunks[slots->chunk_count] = chunk;
   tsr_record_slots_push_chunk(slots);
   return VK_SUCCESS;

fail_memory:
   device->base.next.FreeMemory(dev, chunk.memory, alloc);
fail_buffer:
   device->base.next.DestroyBuffer(dev, chunk.buffer, alloc);
   return lyr_error(result, "tensor views: the driver's memory for a chunk of view records "
                    "(allocation, binding or mapping) failed");
}

/* Takes a slot for a view: any free one, or exactly *replay when replay is not NULL. */
static VkResult
record_alloc(struct tsr_device *device, const uint32_t *replay, struct tsr_record_slot *slot)
{
   struct tsr_record_pool *pool = &device->records;
   uint32_t packed = 0;
   VkResult result;
   pthread_mutex_lock(&pool->lock);
   if (replay) {
      packed = *replay;
      result = tsr_record_slots_take_exact(&pool->slots, add_chunk_locked, device, packed);
   } else {
      result = tsr_record_slots_take(&pool->slots, add_chunk_locked, device, &packed);
   }
   if (result == VK_SUCCESS) {
      slot->chunk = packed >> 16;
      slot->index = packed & 0xffff;
      const struct tsr_record_chunk *chunk = &pool->chunks[slot->chunk];
      slot->buffer = chunk->buffer;
      slot->offset = slot->index * pool->stride;
      slot->address = chunk->address ? chunk->address + slot->offset : 0;
      slot->mapped = (struct vmel_tensor_record *)(chunk->mapped + slot->offset);
   }
   pthread_mutex_unlock(&pool->lock);
   return result;
}

static void
record_free(struct tsr_device *device, const struct tsr_record_slot *slot)
{
   struct tsr_record_pool *pool = &device->records;
   pthread_mutex_lock(&pool->lock);
   tsr_record_slots_give(&pool->slots, tsr_record_slot_pack(slot->chunk, slot->index));
   pthread_mutex_unlock(&pool->lock);
}

VkResult
tsr_record_slot_alloc(struct tsr_device *device, struct tsr_record_slot *slot)
{
   return record_alloc(device, NULL, slot);
}

void
tsr_record_slot_free(struct tsr_device *device, const struct tsr_record_slot *slot)
{
   record_free(device, slot);
}

void
tsr_record_write(const struct tsr_tensor_view *view)
{
   const struct tsr_tensor *t = view->tensor;
   struct vmel_tensor_record r = {
      .address = {(uint32_t)t->address, (uint32_t)(t->address >> 32)},
      .rank = t->rank,
      .element_size = t->element_size,
   };
   for (uint32_t i = 0; i < VMEL_TENSOR_MAX_RANK; i++) {
      r.dims[i] = i < t->rank ? (uint32_t)t->dims[i] : 1;
      r.strides[i] = i < t->rank ? (uint32_t)t->strides[i] : 0;
   }
   memcpy(view->record.mapped, &r, sizeof(r));
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateTensorViewARM(VkDevice _device, const VkTensorViewCreateInfoARM *pCreateInfo,
                        const VkAllocationCallbacks *pAllocator, VkTensorViewARM *pView)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_tensor *t = tsr_tensor_from_handle(pCreateInfo->tensor);
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   if (!t || !t->memory)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateTensorViewARM: the tensor must be bound to memory");
   /* VkTensorViewCreateInfoARM: the view format has the tensor's element size
    * (and equals the tensor's format unless it was created MUTABLE_FORMAT). */
   if (vmel_tensor_format_size(pCreateInfo->format) != t->element_size)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateTensorViewARM: format %d is not compatible with the tensor's "
                       "format %d",
                       pCreateInfo->format, t->format);
   if (pCreateInfo->format != t->format && !(t->flags & VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateTensorViewARM: format %d differs from the tensor's %d, which "
                       "was not created with MUTABLE_FORMAT",
                       pCreateInfo->format, t->format);

   const VkTensorViewCreateFlagsARM capture =
      VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM;
   if (pCreateInfo->flags & ~capture)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateTensorViewARM: unsupported flags 0x%" PRIx64,
                       (uint64_t)(pCreateInfo->flags & ~capture));
   /* Replay: the view takes the record slot it had at capture time. */
   const uint32_t *replay = NULL;
   uint32_t replay_slot = 0;
   if (pCreateInfo->flags & capture) {
      if (!device->capture_replay)
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "vkCreateTensorViewARM: DESCRIPTOR_BUFFER_CAPTURE_REPLAY needs "
                          "VkPhysicalDeviceDescriptorBufferFeaturesEXT::"
                          "descriptorBufferCaptureReplay enabled");
      const VkOpaqueCaptureDescriptorDataCreateInfoEXT *data = lyr_find_struct(
         pCreateInfo->pNext, VK_STRUCTURE_TYPE_OPAQUE_CAPTURE_DESCRIPTOR_DATA_CREATE_INFO_EXT);
      if (data && data->opaqueCaptureDescriptorData) {
         memcpy(&replay_slot, data->opaqueCaptureDescriptorData, sizeof(replay_slot));
         replay = &replay_slot;
      }
   }

   struct tsr_tensor_view *v =
      lyr_zalloc(alloc, sizeof(*v), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!v)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   v->magic = TSR_MAGIC_VIEW;
   v->tensor = t;
   v->format = pCreateInfo->format;
   v->flags = pCreateInfo->flags;
   VkResult result = record_alloc(device, replay, &v->record);
   if (result == VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
      lyr_error(result, "vkCreateTensorViewARM: record slot 0x%08x of the capture data is in use "
                "or out of range",
                replay_slot);
   if (result != VK_SUCCESS) {
      lyr_free(alloc, v);
      return result;
   }
   tsr_record_write(v);
   result = tsr_image_track_view(device, v);
   if (result != VK_SUCCESS) {
      record_free(device, &v->record);
      lyr_free(alloc, v);
      return result;
   }
   *pView = tsr_view_to_handle(v);
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_DestroyTensorViewARM(VkDevice _device, VkTensorViewARM tensorView,
                         const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_tensor_view *v = tsr_view_from_handle(tensorView);
   if (!v)
      return;
   tsr_image_untrack_view(device, v);
   record_free(device, &v->record);
   v->magic = 0;
   lyr_free(lyr_pick_alloc(&device->base.alloc, pAllocator), v);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_GetTensorViewOpaqueCaptureDescriptorDataARM(
   VkDevice _device, const VkTensorViewCaptureDescriptorDataInfoARM *pInfo, void *pData)
{
   struct tsr_tensor_view *v = tsr_view_from_handle(pInfo->tensorView);
   (void)_device;
   if (!(v->flags & VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkGetTensorViewOpaqueCaptureDescriptorDataARM: the view was not created "
                       "with DESCRIPTOR_BUFFER_CAPTURE_REPLAY");
   uint32_t packed = tsr_record_slot_pack(v->record.chunk, v->record.index);
   memcpy(pData, &packed, sizeof(packed));
   return VK_SUCCESS;
}

static const struct lyr_hook hooks[] = {
   TSR_HOOK(GetTensorViewOpaqueCaptureDescriptorDataARM,
            tsr_GetTensorViewOpaqueCaptureDescriptorDataARM),
   TSR_HOOK(CreateTensorViewARM, tsr_CreateTensorViewARM),
   TSR_HOOK(DestroyTensorViewARM, tsr_DestroyTensorViewARM),
};

const struct lyr_hook_table tsr_view_hooks = LYR_HOOK_TABLE(hooks);
