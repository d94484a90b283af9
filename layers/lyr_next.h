/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The functions a layer calls down the chain, declared once as X-macro lists
 * (the vkd3d / timeline-semaphore form). Call sites read
 * instance->next.GetPhysicalDeviceFeatures2(...) and device->next.CmdDispatch(...):
 * the word "next" says "down the chain". A function the layers below do not
 * provide is NULL.
 */
#ifndef LYR_NEXT_H
#define LYR_NEXT_H

#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

#include "vulkan/vulkan_arm_ml.h"

#define LYR_INSTANCE_NEXT(X)                                                                       \
   X(DestroyInstance)                                                                              \
   X(EnumerateDeviceExtensionProperties)                                                           \
   X(EnumeratePhysicalDevices)                                                                     \
   X(GetPhysicalDeviceProperties)                                                                  \
   X(GetPhysicalDeviceProperties2)                                                                 \
   X(GetPhysicalDeviceFeatures)                                                                    \
   X(GetPhysicalDeviceFeatures2)                                                                   \
   X(GetPhysicalDeviceFormatProperties)                                                            \
   X(GetPhysicalDeviceFormatProperties2)                                                           \
   X(GetPhysicalDeviceImageFormatProperties2)                                                      \
   X(GetPhysicalDeviceQueueFamilyProperties)                                                       \
   X(GetPhysicalDeviceQueueFamilyProperties2)                                                      \
   X(GetPhysicalDeviceMemoryProperties)                                                            \
   X(GetPhysicalDeviceExternalBufferProperties)                                                    \
   X(GetPhysicalDeviceToolProperties)

/* Functions of the ARM extensions, present only when a layer or driver below
 * implements them (the graph layer calls the tensor layer through these). */
#define LYR_INSTANCE_NEXT_ARM(X)                                                                   \
   X(GetPhysicalDeviceExternalTensorPropertiesARM)                                                 \
   X(GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)                                           \
   X(GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)                            \
   X(GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM)

#define LYR_DEVICE_NEXT(X)                                                                         \
   X(DestroyDevice)                                                                                \
   X(GetDeviceQueue)

#define LYR_NEXT_DECLARE(name) PFN_vk##name name;

/** Attached to a VkInstance: what is below us. */
struct lyr_instance_next {
   PFN_vkGetInstanceProcAddr GetInstanceProcAddr;
   PFN_GetPhysicalDeviceProcAddr GetPhysicalDeviceProcAddr; /* may be NULL */
   LYR_INSTANCE_NEXT(LYR_NEXT_DECLARE)
   LYR_INSTANCE_NEXT_ARM(LYR_NEXT_DECLARE)
};

/** Attached to a VkDevice: what is below us. */
struct lyr_device_next {
   PFN_vkGetDeviceProcAddr GetDeviceProcAddr;
   LYR_DEVICE_NEXT(LYR_NEXT_DECLARE)
};

void lyr_instance_next_load(struct lyr_instance_next *next, VkInstance instance,
                            PFN_vkGetInstanceProcAddr gipa, PFN_GetPhysicalDeviceProcAddr gpdpa);
void lyr_device_next_load(struct lyr_device_next *next, VkDevice device,
                          PFN_vkGetDeviceProcAddr gdpa);

#endif /* LYR_NEXT_H */
