/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VkTensorARM objects: creation (description checks, packed or application
 * strides), the driver buffer behind each tensor, memory requirements and
 * binding, and the external-memory query. Views and their records live in
 * tsr_view.c; allocation flags in tsr_memory.c; aliasing images in tsr_image.c.
 */
#include "tsr_private.h"

#include <inttypes.h>

/* Invalid usage the application can detect itself: the spec gives no error
 * code, so we return VK_ERROR_VALIDATION_FAILED (docs/decisions.md D13). */
#define TSR_INVALID VK_ERROR_VALIDATION_FAILED_EXT

/* Checks a description and fills the tensor's shape and layout. */
static VkResult
tensor_layout_init(struct tsr_device *device, const VkTensorDescriptionARM *d,
                   struct tsr_tensor *t)
{
   const VkPhysicalDeviceTensorPropertiesARM *limits = &device->caps.properties;
   if (!d)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: pDescription is NULL");
   if (d->dimensionCount < 1 || d->dimensionCount > TSR_MAX_RANK)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: dimensionCount %u not in 1..%u",
                       d->dimensionCount, TSR_MAX_RANK);
   if (!d->pDimensions)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: pDimensions is NULL");
   if (d->tiling != VK_TENSOR_TILING_LINEAR_ARM && d->tiling != VK_TENSOR_TILING_OPTIMAL_ARM)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: tiling %d is not supported", d->tiling);
   t->element_size = vmel_tensor_format_size(d->format);
   if (!t->element_size)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: format %d cannot be a tensor format",
                       d->format);
   t->rank = d->dimensionCount;
   t->format = d->format;
   t->tiling = d->tiling;
   t->usage = d->usage;

   uint64_t elements = 1;
   for (uint32_t i = 0; i < t->rank; i++) {
      int64_t dim = d->pDimensions[i];
      if (dim <= 0 || (uint64_t)dim > limits->maxPerDimensionTensorElements)
         return lyr_error(TSR_INVALID,
                          "vkCreateTensorARM: pDimensions[%u] = %" PRId64 " not in 1..%" PRIu64,
                          i, dim, limits->maxPerDimensionTensorElements);
      t->dims[i] = dim;
      elements *= (uint64_t)dim;
      if (elements > limits->maxTensorElements)
         return lyr_error(TSR_INVALID, "vkCreateTensorARM: more than %" PRIu64 " elements",
                          limits->maxTensorElements);
   }

   /* Packed strides, used when the application gives none. */
   int64_t packed[TSR_MAX_RANK];
   packed[t->rank - 1] = t->element_size;
   for (uint32_t i = t->rank - 1; i > 0; i--)
      packed[i - 1] = packed[i] * t->dims[i];

   if (d->pStrides) {
      /* VkTensorDescriptionARM: strides only with linear tiling; the innermost
       * equals the element size; each is a positive multiple of the element
       * size, at most maxTensorStride; and dimensions must not overlap. */
      if (d->tiling != VK_TENSOR_TILING_LINEAR_ARM)
         return lyr_error(TSR_INVALID, "vkCreateTensorARM: pStrides with optimal tiling");
      for (uint32_t i = 0; i < t->rank; i++) {
         int64_t s = d->pStrides[i];
         if (s <= 0 || s % t->element_size != 0 || s > limits->maxTensorStride)
            return lyr_error(TSR_INVALID,
                             "vkCreateTensorARM: pStrides[%u] = %" PRId64
                             " must be a positive multiple of the element size %u, at most "
                             "%" PRId64,
                             i, s, t->element_size, limits->maxTensorStride);
         if (i > 0 && d->pStrides[i - 1] < s * t->dims[i])
            return lyr_error(TSR_INVALID,
                             "vkCreateTensorARM: pStrides[%u] = %" PRId64 " < pStrides[%u] * "
                             "pDimensions[%u] = %" PRId64 " (dimensions would overlap)",
                             i - 1, d->pStrides[i - 1], i, i, s * t->dims[i]);
         t->strides[i] = s;
      }
      /* Wider innermost strides break a rule but have one meaning, the spec's
       * addressing formula, which every access path here follows (records,
       * lowering, copies, graph kernels): accepted, as Arm's layer does
       * (docs/decisions.md D28). */
      if (t->strides[t->rank - 1] != t->element_size)
         lyr_logw("vkCreateTensorARM: pStrides[%u] = %" PRId64 " but the element size is %u: "
                  "VUID-VkTensorDescriptionARM-pStrides-09736 says \"pStrides[dimensionCount-1] "
                  "must equal the size in bytes of a tensor element\"; accepted, element i of "
                  "the innermost dimension is at byte i * %" PRId64,
                  t->rank - 1, t->strides[t->rank - 1], t->element_size,
                  t->strides[t->rank - 1]);
      t->explicit_strides = true;
   } else {
      memcpy(t->strides, packed, sizeof(packed[0]) * t->rank);
   }
   t->packed = memcmp(t->strides, packed, sizeof(packed[0]) * t->rank) == 0;
   t->size = (VkDeviceSize)(t->strides[0] * t->dims[0]);
   if (t->size > limits->maxTensorSize)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: %" PRIu64 " bytes > maxTensorSize %" PRIu64,
                       (uint64_t)t->size, limits->maxTensorSize);

   if (t->usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM) {
      /* Linear aliasing tensors break a rule but have one meaning, the
       * spec's linear tensor/image aliasing (strides = the image's pitches):
       * accepted, as Arm's layer does; tsr_image.c aliases them like optimal
       * ones (docs/decisions.md D27). */
      if (t->tiling == VK_TENSOR_TILING_LINEAR_ARM)
         lyr_logw("vkCreateTensorARM: IMAGE_ALIASING usage with linear tiling breaks "
                  "VUID-VkTensorDescriptionARM-tiling-09742; accepted: bound where an image "
                  "with tensor-aliasing usage is bound, the tensor %s",
                  d->pStrides ? "keeps its strides, which must be the image's pitches"
                              : "takes the image's pitches as its strides");
      else if (t->dims[t->rank - 1] > 4)
         return lyr_error(TSR_INVALID,
                          "vkCreateTensorARM: IMAGE_ALIASING needs an innermost dimension <= 4, "
                          "got %" PRId64,
                          t->dims[t->rank - 1]);
   }
   return VK_SUCCESS;
}

/* The VkBufferCreateInfo behind a tensor; ext and replay are storage for chained structs. */
static void
buffer_info_init(const VkTensorCreateInfoARM *info, const struct tsr_tensor *t,
                 VkBufferCreateInfo *bci, VkExternalMemoryBufferCreateInfo *ext,
                 VkBufferOpaqueCaptureAddressCreateInfo *replay)
{
   *bci = (VkBufferCreateInfo){
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = t->size,
      .usage = TSR_BUFFER_USAGE,
      .sharingMode = info->sharingMode,
      .queueFamilyIndexCount =
         info->sharingMode == VK_SHARING_MODE_CONCURRENT ? info->queueFamilyIndexCount : 0,
      .pQueueFamilyIndices =
         info->sharingMode == VK_SHARING_MODE_CONCURRENT ? info->pQueueFamilyIndices : NULL,
   };
   if (info->flags & VK_TENSOR_CREATE_PROTECTED_BIT_ARM)
      bci->flags |= VK_BUFFER_CREATE_PROTECTED_BIT;
   const VkExternalMemoryTensorCreateInfoARM *emt =
      lyr_find_struct(info->pNext, VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM);
   if (emt && emt->handleTypes) {
      *ext = (VkExternalMemoryBufferCreateInfo){
         .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO,
         .handleTypes = emt->handleTypes,
      };
      bci->pNext = ext;
   }
   if (info->flags & VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM) {
      /* The tensor's capture data is its buffer's opaque capture address. */
      bci->flags |= VK_BUFFER_CREATE_DEVICE_ADDRESS_CAPTURE_REPLAY_BIT;
      const VkOpaqueCaptureDescriptorDataCreateInfoEXT *data = lyr_find_struct(
         info->pNext, VK_STRUCTURE_TYPE_OPAQUE_CAPTURE_DESCRIPTOR_DATA_CREATE_INFO_EXT);
      if (data && data->opaqueCaptureDescriptorData) {
         *replay = (VkBufferOpaqueCaptureAddressCreateInfo){
            .sType = VK_STRUCTURE_TYPE_BUFFER_OPAQUE_CAPTURE_ADDRESS_CREATE_INFO,
            .pNext = bci->pNext,
         };
         memcpy(&replay->opaqueCaptureAddress, data->opaqueCaptureDescriptorData,
                sizeof(replay->opaqueCaptureAddress));
         bci->pNext = replay;
      }
   }
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateTensorARM(VkDevice _device, const VkTensorCreateInfoARM *pCreateInfo,
                    const VkAllocationCallbacks *pAllocator, VkTensorARM *pTensor)
{
   struct tsr_device *device = tsr_device_get(_device);
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   if (!lyr_chain_ok(pCreateInfo->pNext, "vkCreateTensorARM") ||
       !lyr_chain_ok(pCreateInfo->pDescription ? pCreateInfo->pDescription->pNext : NULL,
                     "vkCreateTensorARM: pDescription"))
      return VK_ERROR_VALIDATION_FAILED_EXT;
   const VkTensorCreateFlagsARM known = VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM |
                                        VK_TENSOR_CREATE_PROTECTED_BIT_ARM |
                                        VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM;
   if (pCreateInfo->flags & ~known)
      return lyr_error(TSR_INVALID, "vkCreateTensorARM: unsupported flags 0x%" PRIx64,
                       (uint64_t)(pCreateInfo->flags & ~known));
   if ((pCreateInfo->flags & VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM) &&
       !device->capture_replay)
      return lyr_error(TSR_INVALID,
                       "vkCreateTensorARM: DESCRIPTOR_BUFFER_CAPTURE_REPLAY needs "
                       "VkPhysicalDeviceDescriptorBufferFeaturesEXT::descriptorBufferCaptureReplay "
                       "enabled (and bufferDeviceAddressCaptureReplay on the device)");

   struct tsr_tensor *t =
      lyr_zalloc(alloc, sizeof(*t), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!t)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   t->magic = TSR_MAGIC_TENSOR;
   t->flags = pCreateInfo->flags;
   VkResult result = tensor_layout_init(device, pCreateInfo->pDescription, t);
   if (result != VK_SUCCESS)
      goto fail;

   VkBufferCreateInfo bci;
   VkExternalMemoryBufferCreateInfo ext;
   VkBufferOpaqueCaptureAddressCreateInfo replay = {0};
   buffer_info_init(pCreateInfo, t, &bci, &ext, &replay);
   result = device->base.next.CreateBuffer(_device, &bci, pAllocator, &t->buffer);
   if (result == VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
      lyr_error(result, "vkCreateTensorARM: the driver cannot replay the opaque capture address "
                "0x%" PRIx64 " of the capture data",
                replay.opaqueCaptureAddress);
   else if (result != VK_SUCCESS)
      lyr_error(result, "vkCreateTensorARM: the driver's vkCreateBuffer of the tensor's %" PRIu64
                " bytes failed",
                (uint64_t)bci.size);
   if (result != VK_SUCCESS)
      goto fail;
   if (t->usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM) {
      /* An image may be bound at the tensor's place later (tsr_image.c). */
      result = tsr_image_track_tensor(device, t, &bci, pAllocator);
      if (result != VK_SUCCESS) {
         device->base.next.DestroyBuffer(_device, t->buffer, pAllocator);
         goto fail;
      }
   }
   *pTensor = tsr_tensor_to_handle(t);
   return VK_SUCCESS;

fail:
   lyr_free(alloc, t);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_DestroyTensorARM(VkDevice _device, VkTensorARM tensor, const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_tensor *t = tsr_tensor_from_handle(tensor);
   if (!t)
      return;
   if (t->usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM)
      tsr_image_untrack_tensor(device, t);
   device->base.next.DestroyBuffer(_device, t->buffer, pAllocator);
   t->magic = 0;
   lyr_free(lyr_pick_alloc(&device->base.alloc, pAllocator), t);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetTensorMemoryRequirementsARM(VkDevice _device, const VkTensorMemoryRequirementsInfoARM *pInfo,
                                   VkMemoryRequirements2 *pMemoryRequirements)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_tensor *t = tsr_tensor_from_handle(pInfo->tensor);
   VkBufferMemoryRequirementsInfo2 info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2,
      .buffer = t->buffer,
   };
   /* The output chain (VkMemoryDedicatedRequirements) is the driver's to fill. */
   device->base.next.GetBufferMemoryRequirements2(_device, &info, pMemoryRequirements);
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetDeviceTensorMemoryRequirementsARM(VkDevice _device,
                                         const VkDeviceTensorMemoryRequirementsARM *pInfo,
                                         VkMemoryRequirements2 *pMemoryRequirements)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_tensor t = {.magic = TSR_MAGIC_TENSOR};
   if (tensor_layout_init(device, pInfo->pCreateInfo->pDescription, &t) != VK_SUCCESS) {
      pMemoryRequirements->memoryRequirements = (VkMemoryRequirements){0};
      return;
   }
   VkBufferCreateInfo bci;
   VkExternalMemoryBufferCreateInfo ext;
   VkBufferOpaqueCaptureAddressCreateInfo replay = {0};
   buffer_info_init(pInfo->pCreateInfo, &t, &bci, &ext, &replay);
   VkDeviceBufferMemoryRequirements req = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_BUFFER_MEMORY_REQUIREMENTS,
      .pCreateInfo = &bci,
   };
   device->base.next.GetDeviceBufferMemoryRequirements(_device, &req, pMemoryRequirements);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_BindTensorMemoryARM(VkDevice _device, uint32_t bindInfoCount,
                        const VkBindTensorMemoryInfoARM *pBindInfos)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkBindBufferMemoryInfo stack[16];
   VkBindBufferMemoryInfo *infos = stack;
   if (bindInfoCount > LYR_ARRAY_SIZE(stack)) {
      infos = lyr_alloc(&device->base.alloc, bindInfoCount * sizeof(*infos), 8,
                        VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!infos)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < bindInfoCount; i++) {
      struct tsr_tensor *t = tsr_tensor_from_handle(pBindInfos[i].tensor);
      infos[i] = (VkBindBufferMemoryInfo){
         .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
         .buffer = t->buffer,
         .memory = pBindInfos[i].memory,
         .memoryOffset = pBindInfos[i].memoryOffset,
      };
   }
   VkResult result = device->base.next.BindBufferMemory2(_device, bindInfoCount, infos);
   if (infos != stack)
      lyr_free(&device->base.alloc, infos);
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkBindTensorMemoryARM: the driver's vkBindBufferMemory2 of %u "
                       "tensor buffers failed",
                       bindInfoCount);

   for (uint32_t i = 0; i < bindInfoCount && result == VK_SUCCESS; i++) {
      struct tsr_tensor *t = tsr_tensor_from_handle(pBindInfos[i].tensor);
      t->memory = pBindInfos[i].memory;
      t->memory_offset = pBindInfos[i].memoryOffset;
      VkBufferDeviceAddressInfo ai = {
         .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
         .buffer = t->buffer,
      };
      t->address = device->base.next.GetBufferDeviceAddress(_device, &ai);
      if (t->usage & VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM)
         result = tsr_image_alias_tensor(device, t);
   }
   return result;
}

/* Debug names and tags of tensors go to their buffers; tensor views have no
 * driver object, so their names are kept nowhere (the call succeeds). */
static bool
rewrite_debug_object(VkObjectType *type, uint64_t *handle)
{
   if ((int)*type == (int)VK_OBJECT_TYPE_TENSOR_ARM) {
      *type = VK_OBJECT_TYPE_BUFFER;
      *handle = (uint64_t)tsr_tensor_from_handle((VkTensorARM)*handle)->buffer;
      return true;
   }
   return (int)*type != (int)VK_OBJECT_TYPE_TENSOR_VIEW_ARM;
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_SetDebugUtilsObjectNameEXT(VkDevice _device, const VkDebugUtilsObjectNameInfoEXT *pNameInfo)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkDebugUtilsObjectNameInfoEXT info = *pNameInfo;
   if (!rewrite_debug_object(&info.objectType, &info.objectHandle))
      return VK_SUCCESS;
   return device->base.next.SetDebugUtilsObjectNameEXT(_device, &info);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_SetDebugUtilsObjectTagEXT(VkDevice _device, const VkDebugUtilsObjectTagInfoEXT *pTagInfo)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkDebugUtilsObjectTagInfoEXT info = *pTagInfo;
   if (!rewrite_debug_object(&info.objectType, &info.objectHandle))
      return VK_SUCCESS;
   return device->base.next.SetDebugUtilsObjectTagEXT(_device, &info);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_GetTensorOpaqueCaptureDescriptorDataARM(VkDevice _device,
                                            const VkTensorCaptureDescriptorDataInfoARM *pInfo,
                                            void *pData)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_tensor *t = tsr_tensor_from_handle(pInfo->tensor);
   if (!(t->flags & VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM))
      return lyr_error(TSR_INVALID, "vkGetTensorOpaqueCaptureDescriptorDataARM: the tensor was "
                       "not created with DESCRIPTOR_BUFFER_CAPTURE_REPLAY");
   VkBufferDeviceAddressInfo info = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
      .buffer = t->buffer,
   };
   uint64_t address = device->base.next.GetBufferOpaqueCaptureAddress(_device, &info);
   memcpy(pData, &address, sizeof(address));
   return VK_SUCCESS;
}

static const struct lyr_hook hooks[] = {
   TSR_HOOK(GetTensorOpaqueCaptureDescriptorDataARM, tsr_GetTensorOpaqueCaptureDescriptorDataARM),
   TSR_HOOK(SetDebugUtilsObjectNameEXT, tsr_SetDebugUtilsObjectNameEXT),
   TSR_HOOK(SetDebugUtilsObjectTagEXT, tsr_SetDebugUtilsObjectTagEXT),
   TSR_HOOK(CreateTensorARM, tsr_CreateTensorARM),
   TSR_HOOK(DestroyTensorARM, tsr_DestroyTensorARM),
   TSR_HOOK(GetTensorMemoryRequirementsARM, tsr_GetTensorMemoryRequirementsARM),
   TSR_HOOK(GetDeviceTensorMemoryRequirementsARM, tsr_GetDeviceTensorMemoryRequirementsARM),
   TSR_HOOK(BindTensorMemoryARM, tsr_BindTensorMemoryARM),
};

const struct lyr_hook_table tsr_tensor_hooks = LYR_HOOK_TABLE(hooks);

/* ---- instance level -------------------------------------------------- */

VKAPI_ATTR void VKAPI_CALL
tsr_GetPhysicalDeviceExternalTensorPropertiesARM(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceExternalTensorInfoARM *pExternalTensorInfo,
   VkExternalTensorPropertiesARM *pExternalTensorProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceExternalTensorPropertiesARM(
         physicalDevice, pExternalTensorInfo, pExternalTensorProperties);
      return;
   }
   const VkTensorDescriptionARM *d = pExternalTensorInfo->pDescription;
   VkPhysicalDeviceExternalBufferInfo info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO,
      .flags = (pExternalTensorInfo->flags & VK_TENSOR_CREATE_PROTECTED_BIT_ARM)
                  ? VK_BUFFER_CREATE_PROTECTED_BIT
                  : 0,
      .usage = TSR_BUFFER_USAGE, /* every tensor buffer has the same usage */
      .handleType = pExternalTensorInfo->handleType,
   };
   VkExternalBufferProperties props = {.sType = VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
   instance->next.GetPhysicalDeviceExternalBufferProperties(physicalDevice, &info, &props);
   if (!caps.can_emulate || !d || vmel_tensor_format_size(d->format) == 0)
      props.externalMemoryProperties = (VkExternalMemoryProperties){0};
   pExternalTensorProperties->externalMemoryProperties = props.externalMemoryProperties;
}
