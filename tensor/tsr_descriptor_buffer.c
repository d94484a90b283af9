/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor descriptors in descriptor buffers (VK_EXT_descriptor_buffer with
 * VkPhysicalDeviceDescriptorBufferTensorFeaturesARM::descriptorBufferTensorDescriptors,
 * docs/decisions.md D23). A tensor binding of a set layout is a storage-buffer
 * binding below us (tsr_descriptor.c), so the driver's layout sizes and
 * binding offsets already hold storage-buffer descriptors and pass through.
 * vkGetDescriptorEXT for VK_DESCRIPTOR_TYPE_TENSOR_ARM writes the driver's
 * storage-buffer descriptor of the view's record (its device address, 64
 * bytes): the same descriptor a descriptor-set write of that view makes, so
 * the lowered shaders read the same record. tensorDescriptorSize is the
 * device's storageBufferDescriptorSize. Record chunks get device addresses
 * only on devices where the application enabled the feature (tsr_view.c).
 */
#include "tsr_private.h"

void
tsr_descriptor_buffer_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                           struct tsr_caps *caps)
{
   VkPhysicalDeviceDescriptorBufferFeaturesEXT f = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
   };
   VkPhysicalDeviceFeatures2 f2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &f,
   };
   instance->next.GetPhysicalDeviceFeatures2(physical_device, &f2);
   if (!f.descriptorBuffer)
      return;
   VkPhysicalDeviceDescriptorBufferPropertiesEXT p = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
   };
   VkPhysicalDeviceProperties2 p2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
       .pNext = &p,
   };
   instance->next.GetPhysicalDeviceProperties2(physical_device, &p2);
   if (!p.storageBufferDescriptorSize)
      return;
   caps->descriptor_buffer_tensors = true;
   caps->tensor_descriptor_size = p.storageBufferDescriptorSize;
   caps->robust_descriptor_size_differs =
       p.robustStorageBufferDescriptorSize != p.storageBufferDescriptorSize;
}

/* Whether the application enabled robustBufferAccess (either way of enabling features). */
static bool
wants_robust_buffer_access(const VkDeviceCreateInfo *info)
{
   if (info->pEnabledFeatures)
      return info->pEnabledFeatures->robustBufferAccess;
   const VkPhysicalDeviceFeatures2 *f2 =
       lyr_find_struct(info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
   return f2 && f2->features.robustBufferAccess;
}

VkResult
tsr_descriptor_buffer_check_device(const VkDeviceCreateInfo *info, const struct tsr_caps *caps,
                                   bool *enabled)
{
   *enabled = false;
   const VkPhysicalDeviceDescriptorBufferTensorFeaturesARM *dbt = lyr_find_struct(
       info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM);
   if (!dbt || !dbt->descriptorBufferTensorDescriptors)
      return VK_SUCCESS;
   if (!caps->descriptor_buffer_tensors)
      return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                       "VkPhysicalDeviceDescriptorBufferTensorFeaturesARM::"
                       "descriptorBufferTensorDescriptors requested but not supported: the "
                       "device has no VK_EXT_descriptor_buffer with descriptorBuffer");
   if (!lyr_name_in_list(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, info->ppEnabledExtensionNames,
                         info->enabledExtensionCount))
      return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                       "descriptorBufferTensorDescriptors requested without enabling %s",
                       VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
   /* With robustBufferAccess the driver's storage-buffer descriptors are
    * robustStorageBufferDescriptorSize bytes; tensorDescriptorSize (a
    * physical-device property) cannot say so when the two sizes differ. */
   if (wants_robust_buffer_access(info) && caps->robust_descriptor_size_differs)
      return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                       "descriptorBufferTensorDescriptors cannot be enabled with "
                       "robustBufferAccess on this device: its robust storage-buffer "
                       "descriptors differ in size from tensorDescriptorSize");
   *enabled = true;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
tsr_GetDescriptorEXT(VkDevice _device, const VkDescriptorGetInfoEXT *pDescriptorInfo,
                     size_t dataSize, void *pDescriptor)
{
   struct tsr_device *device = tsr_device_get(_device);
   if ((uint32_t)pDescriptorInfo->type != (uint32_t)VK_DESCRIPTOR_TYPE_TENSOR_ARM) {
      device->base.next.GetDescriptorEXT(_device, pDescriptorInfo, dataSize, pDescriptor);
      return;
   }
   if (!device->descriptor_buffer_tensors) {
      lyr_loge("vkGetDescriptorEXT: VK_DESCRIPTOR_TYPE_TENSOR_ARM needs "
               "descriptorBufferTensorDescriptors enabled; nothing written");
      return;
   }
   const VkDescriptorGetTensorInfoARM *ti =
       lyr_find_struct(pDescriptorInfo->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM);
   if (!ti) {
      lyr_loge("vkGetDescriptorEXT: VK_DESCRIPTOR_TYPE_TENSOR_ARM without a "
               "VkDescriptorGetTensorInfoARM; nothing written");
      return;
   }
   size_t size = device->caps.tensor_descriptor_size;
   if (dataSize != size) {
      lyr_loge("vkGetDescriptorEXT: dataSize %zu is not tensorDescriptorSize %zu; nothing written",
               dataSize, size);
      return;
   }
   /* A null view is a null storage-buffer descriptor (nullDescriptor is the driver's rule). */
   const struct tsr_tensor_view *view = tsr_view_from_handle(ti->tensorView);
   VkDescriptorAddressInfoEXT address = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_ADDRESS_INFO_EXT,
       .address = view ? view->record.address : 0,
       .range = VMEL_TENSOR_RECORD_SIZE,
       .format = VK_FORMAT_UNDEFINED,
   };
   VkDescriptorGetInfoEXT info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
       .type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
       .data.pStorageBuffer = view ? &address : NULL,
   };
   device->base.next.GetDescriptorEXT(_device, &info, size, pDescriptor);
}

static const struct lyr_hook hooks[] = {
    TSR_HOOK(GetDescriptorEXT, tsr_GetDescriptorEXT),
};

const struct lyr_hook_table tsr_descriptor_buffer_hooks = LYR_HOOK_TABLE(hooks);
