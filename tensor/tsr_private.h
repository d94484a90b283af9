/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The one header every tensor-layer .c includes (lvp_private.h pattern).
 * VK_LAYER_ML_Tensor_Emulation implements VK_ARM_tensors on any Vulkan 1.3
 * device with buffer device address: tensors become buffers plus small
 * metadata records (design.md §4).
 */
#ifndef TSR_PRIVATE_H
#define TSR_PRIVATE_H

#define LYR_LOG_THIS_DOMAIN LYR_LOG_TENSOR
#include "lyr_layer.h"

#define TSR_LAYER_NAME "VK_LAYER_ML_Tensor_Emulation"
#define TSR_MAX_RANK 6

/* Attached to VkInstance. */
struct tsr_instance {
   struct lyr_instance base;
};

/* Attached to VkDevice. */
struct tsr_device {
   struct lyr_device base;
};

/** What this layer can offer on one physical device, derived from what the
 *  layers and driver below report. */
struct tsr_caps {
   bool native;        /* VK_ARM_tensors is implemented below us: pass through */
   bool can_emulate;   /* the device can host the emulation */
   char why_not[256];  /* when !can_emulate: what is missing */
   uint32_t api_version;
   /* Underlying features the emulation uses. */
   struct lyr_feature_request device_features;
   bool ssbo_non_uniform_indexing;
   bool ssbo_update_after_bind;
   /* What we report. */
   VkPhysicalDeviceTensorFeaturesARM features;
   VkPhysicalDeviceTensorPropertiesARM properties;
};

void tsr_query_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                    struct tsr_caps *caps);

/** Tensor format features for one tiling (0 when the format is not handled). */
VkFormatFeatureFlags2 tsr_format_features(struct lyr_instance *instance,
                                          VkPhysicalDevice physical_device,
                                          const struct tsr_caps *caps, VkFormat format,
                                          bool optimal);

/** True for the formats only VK_ARM_tensors defines (bool, bf16, fp8). */
bool tsr_format_is_arm(VkFormat format);

/* Entry points (tsr_<VkName without vk>). */
VKAPI_ATTR VkResult VKAPI_CALL tsr_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                  const VkAllocationCallbacks *pAllocator,
                                                  VkInstance *pInstance);
VKAPI_ATTR void VKAPI_CALL tsr_DestroyInstance(VkInstance instance,
                                               const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL tsr_EnumerateDeviceExtensionProperties(
   VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
   VkExtensionProperties *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL tsr_GetPhysicalDeviceToolProperties(
   VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
   VkPhysicalDeviceToolProperties *pToolProperties);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                          VkPhysicalDeviceFeatures2 *pFeatures);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceProperties2(
   VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2 *pProperties);
VKAPI_ATTR void VKAPI_CALL tsr_GetPhysicalDeviceFormatProperties2(
   VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties2 *pFormatProperties);
VKAPI_ATTR VkResult VKAPI_CALL tsr_CreateDevice(VkPhysicalDevice physicalDevice,
                                                const VkDeviceCreateInfo *pCreateInfo,
                                                const VkAllocationCallbacks *pAllocator,
                                                VkDevice *pDevice);
VKAPI_ATTR void VKAPI_CALL tsr_DestroyDevice(VkDevice device,
                                             const VkAllocationCallbacks *pAllocator);

#endif /* TSR_PRIVATE_H */
