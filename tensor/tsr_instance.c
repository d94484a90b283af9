/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Instance-level entry points of the tensor layer: instance creation and the
 * physical-device queries that report VK_ARM_tensors (extension list, tool
 * properties, features, properties, format properties; the descriptor-buffer
 * tensor features and properties). Values come from
 * tsr_caps.c; on a device where VK_ARM_tensors is native every query passes
 * straight through.
 */
#include "tsr_private.h"

static const VkExtensionProperties tsr_device_extensions[] = {
   {VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_TENSORS_SPEC_VERSION},
};

VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateInstance(const VkInstanceCreateInfo *pCreateInfo, const VkAllocationCallbacks *pAllocator,
                   VkInstance *pInstance)
{
   struct lyr_instance *instance;
   return lyr_instance_create(pCreateInfo, pAllocator, pInstance, sizeof(struct tsr_instance),
                              &instance);
}

VKAPI_ATTR void VKAPI_CALL
tsr_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *pAllocator)
{
   lyr_instance_destroy(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char *pLayerName,
                                       uint32_t *pPropertyCount,
                                       VkExtensionProperties *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   if (!pLayerName && !caps.native && !caps.can_emulate)
      lyr_logi("not offering %s: %s", VK_ARM_TENSORS_EXTENSION_NAME, caps.why_not);
   return lyr_layer_device_extensions(instance, physicalDevice, pLayerName, TSR_LAYER_NAME,
                                      tsr_device_extensions,
                                      LYR_ARRAY_SIZE(tsr_device_extensions), caps.can_emulate,
                                      pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
                                    VkPhysicalDeviceToolProperties *pToolProperties)
{
   static const VkPhysicalDeviceToolProperties tool = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES,
      .name = "Tensor Layer",
      .version = VMEL_TENSOR_RECORD_TOOL_VERSION,
      .purposes = VK_TOOL_PURPOSE_ADDITIONAL_FEATURES_BIT,
      .description = "Emulates VK_ARM_tensors with buffers and shader lowering",
      .layer = TSR_LAYER_NAME,
   };
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   /* Where VK_ARM_tensors is native below, this layer adds nothing: it is no tool there, and
    * the graph layer above learns from that that tensors are not our records (D25). */
   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      if (!instance->next.GetPhysicalDeviceToolProperties) {
         *pToolCount = 0;
         return VK_SUCCESS;
      }
      return instance->next.GetPhysicalDeviceToolProperties(physicalDevice, pToolCount,
                                                            pToolProperties);
   }
   return lyr_tool_properties_prepend(instance->next.GetPhysicalDeviceToolProperties,
                                      physicalDevice, &tool, pToolCount, pToolProperties);
}

VKAPI_ATTR void VKAPI_CALL
tsr_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2 *pFeatures)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceFeatures2(physicalDevice, pFeatures);
      return;
   }
   lyr_next_features2(instance, physicalDevice, pFeatures, lyr_drop_arm_ml);

   VkPhysicalDeviceTensorFeaturesARM *tf = (VkPhysicalDeviceTensorFeaturesARM *)lyr_find_struct(
      pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
   if (tf)
      lyr_fill_out(tf, &caps.features, sizeof(*tf));
   /* Tensor descriptors in descriptor buffers: where the device has descriptorBuffer (D23). */
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM *dbt =
      (VkPhysicalDeviceDescriptorBufferTensorFeaturesARM *)lyr_find_struct(
         pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM);
   if (dbt && caps.can_emulate && caps.descriptor_buffer)
      dbt->descriptorBufferTensorDescriptors = caps.descriptor_buffer_tensors;
}

VKAPI_ATTR void VKAPI_CALL
tsr_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                 VkPhysicalDeviceProperties2 *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceProperties2(physicalDevice, pProperties);
      return;
   }
   lyr_next_properties2(instance, physicalDevice, pProperties, lyr_drop_arm_ml);

   VkPhysicalDeviceTensorPropertiesARM *tp = (VkPhysicalDeviceTensorPropertiesARM *)lyr_find_struct(
      pProperties->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM);
   if (tp)
      lyr_fill_out(tp, &caps.properties, sizeof(*tp));
   /* Capture data: a tensor's buffer opaque capture address, a view's record
    * slot (D13). A tensor descriptor is the driver's storage-buffer descriptor
    * of the view's record (D23); 0 where descriptorBufferTensorDescriptors is not offered. */
   VkPhysicalDeviceDescriptorBufferTensorPropertiesARM *dbp =
      (VkPhysicalDeviceDescriptorBufferTensorPropertiesARM *)lyr_find_struct(
         pProperties->pNext,
         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM);
   if (dbp && caps.can_emulate && caps.descriptor_buffer) {
      dbp->tensorCaptureReplayDescriptorDataSize = TSR_TENSOR_CAPTURE_DATA_SIZE;
      dbp->tensorViewCaptureReplayDescriptorDataSize = TSR_VIEW_CAPTURE_DATA_SIZE;
      dbp->tensorDescriptorSize = caps.descriptor_buffer_tensors ? caps.tensor_descriptor_size : 0;
   }
}

VKAPI_ATTR void VKAPI_CALL
tsr_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                       VkFormatProperties2 *pFormatProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceFormatProperties2(physicalDevice, format, pFormatProperties);
      return;
   }
   if (tsr_format_is_arm(format)) {
      /* Formats only VK_ARM_tensors defines: no image or buffer features,
       * and the driver below never sees the value. */
      memset(&pFormatProperties->formatProperties, 0, sizeof(pFormatProperties->formatProperties));
   } else {
      lyr_next_format_properties2(instance, physicalDevice, format, pFormatProperties,
                                  lyr_drop_arm_ml);
   }

   VkTensorFormatPropertiesARM *tfp = (VkTensorFormatPropertiesARM *)lyr_find_struct(
      pFormatProperties->pNext, VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM);
   if (tfp) {
      tfp->optimalTilingTensorFeatures =
         tsr_format_features(instance, physicalDevice, &caps, format, true);
      tfp->linearTilingTensorFeatures =
         tsr_format_features(instance, physicalDevice, &caps, format, false);
   }
}
