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
   X(GetPhysicalDeviceImageFormatProperties)                                                       \
   X(GetPhysicalDeviceImageFormatProperties2)                                                      \
   X(GetPhysicalDeviceSparseImageFormatProperties)                                                 \
   X(GetPhysicalDeviceSparseImageFormatProperties2)                                                \
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
   X(GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM)                          \
   X(GetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM)

#define LYR_DEVICE_NEXT(X)                                                                         \
   X(DestroyDevice)                                                                                \
   X(GetDeviceQueue)                                                                               \
   X(AllocateMemory)                                                                               \
   X(FreeMemory)                                                                                   \
   X(MapMemory)                                                                                    \
   X(UnmapMemory)                                                                                  \
   X(CreateBuffer)                                                                                 \
   X(DestroyBuffer)                                                                                \
   X(GetBufferMemoryRequirements2)                                                                 \
   X(GetDeviceBufferMemoryRequirements)                                                            \
   X(BindBufferMemory2)                                                                            \
   X(GetBufferDeviceAddress)                                                                       \
   X(GetBufferOpaqueCaptureAddress)                                                                \
   X(CreateImage)                                                                                  \
   X(DestroyImage)                                                                                 \
   X(BindImageMemory)                                                                              \
   X(BindImageMemory2)                                                                             \
   X(GetImageSubresourceLayout)                                                                    \
   X(GetImageMemoryRequirements)                                                                   \
   X(GetDeviceImageMemoryRequirements)                                                             \
   X(GetDeviceImageSparseMemoryRequirements)                                                       \
   X(CreateDescriptorSetLayout)                                                                    \
   X(DestroyDescriptorSetLayout)                                                                   \
   X(GetDescriptorSetLayoutSupport)                                                                \
   X(CreateDescriptorPool)                                                                         \
   X(DestroyDescriptorPool)                                                                        \
   X(AllocateDescriptorSets)                                                                       \
   X(FreeDescriptorSets)                                                                           \
   X(ResetDescriptorPool)                                                                          \
   X(UpdateDescriptorSets)                                                                         \
   X(CreateDescriptorUpdateTemplate)                                                               \
   X(DestroyDescriptorUpdateTemplate)                                                              \
   X(UpdateDescriptorSetWithTemplate)                                                              \
   X(CreatePipelineLayout)                                                                         \
   X(DestroyPipelineLayout)                                                                        \
   X(CreateShaderModule)                                                                           \
   X(DestroyShaderModule)                                                                          \
   X(CreateComputePipelines)                                                                       \
   X(CreateGraphicsPipelines)                                                                      \
   X(DestroyPipeline)                                                                              \
   X(SetDebugUtilsObjectNameEXT)                                                                   \
   X(SetDebugUtilsObjectTagEXT)                                                                    \
   X(CreateCommandPool)                                                                            \
   X(AllocateCommandBuffers)                                                                       \
   X(FreeCommandBuffers)                                                                           \
   X(BeginCommandBuffer)                                                                           \
   X(EndCommandBuffer)                                                                             \
   X(ResetCommandBuffer)                                                                           \
   X(ResetCommandPool)                                                                             \
   X(DestroyCommandPool)                                                                           \
   X(CmdBindPipeline)                                                                              \
   X(CmdBindDescriptorSets)                                                                        \
   X(CmdPushConstants)                                                                             \
   X(CmdDispatch)                                                                                  \
   X(CmdCopyBuffer)                                                                                \
   X(CmdPipelineBarrier)                                                                           \
   X(CmdPipelineBarrier2)                                                                          \
   X(CmdWaitEvents)                                                                                \
   X(CmdWaitEvents2)                                                                               \
   X(CmdSetEvent2)                                                                                 \
   X(CmdPushDescriptorSetKHR)                                                                      \
   X(QueueSubmit2)                                                                                 \
   X(QueueSubmit)                                                                                  \
   X(QueueBindSparse)                                                                              \
   X(QueuePresentKHR)                                                                              \
   X(QueueBeginDebugUtilsLabelEXT)                                                                 \
   X(QueueEndDebugUtilsLabelEXT)                                                                   \
   X(QueueInsertDebugUtilsLabelEXT)                                                                \
   X(QueueWaitIdle)                                                                                \
   X(CreateFence)                                                                                  \
   X(DestroyFence)                                                                                 \
   X(DeviceWaitIdle)                                                                               \
   X(WaitForFences)                                                                                \
   X(GetFenceStatus)                                                                               \
   X(CreateQueryPool)                                                                              \
   X(DestroyQueryPool)                                                                             \
   X(GetQueryPoolResults)                                                                          \
   X(CmdResetQueryPool)                                                                            \
   X(CmdWriteTimestamp2)                                                                           \
   X(CmdResetEvent2)                                                                               \
   X(CreatePipelineCache)                                                                          \
   X(DestroyPipelineCache)                                                                         \
   X(GetPipelineCacheData)                                                                         \
   X(MergePipelineCaches)                                                                          \
   X(CmdPushDescriptorSetWithTemplateKHR)                                                          \
   X(CmdPushDescriptorSet)                                                                         \
   X(CmdPushDescriptorSetWithTemplate)

/* VK_EXT_descriptor_buffer (NULL unless the application enabled it). */
#define LYR_DEVICE_NEXT_DESCRIPTOR_BUFFER(X)                                                       \
   X(GetDescriptorEXT)                                                                             \
   X(CmdBindDescriptorBuffersEXT)                                                                  \
   X(CmdSetDescriptorBufferOffsetsEXT)

/* VK_KHR_pipeline_executable_properties (NULL unless the extension is enabled below; the graph
 * layer enables it under VMEL_GRAPH_PIPELINE_STATS, graph/dg_pipeline_stats.c). */
#define LYR_DEVICE_NEXT_PIPELINE_EXECUTABLE(X)                                                     \
   X(GetPipelineExecutablePropertiesKHR)                                                           \
   X(GetPipelineExecutableStatisticsKHR)

/* The Vulkan 1.4 names of the VK_KHR_push_descriptor commands (same signatures),
 * for headers older than 1.4. */
#ifndef VK_VERSION_1_4
typedef PFN_vkCmdPushDescriptorSetKHR PFN_vkCmdPushDescriptorSet;
typedef PFN_vkCmdPushDescriptorSetWithTemplateKHR PFN_vkCmdPushDescriptorSetWithTemplate;
#endif

/* VK_ARM_tensors commands the graph layer calls on the tensor layer below. */
#define LYR_DEVICE_NEXT_ARM(X)                                                                     \
   X(CreateTensorARM)                                                                              \
   X(DestroyTensorARM)                                                                             \
   X(GetTensorMemoryRequirementsARM)                                                               \
   X(BindTensorMemoryARM)                                                                          \
   X(CreateTensorViewARM)                                                                          \
   X(DestroyTensorViewARM)

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
   LYR_DEVICE_NEXT_ARM(LYR_NEXT_DECLARE)
   LYR_DEVICE_NEXT_DESCRIPTOR_BUFFER(LYR_NEXT_DECLARE)
   LYR_DEVICE_NEXT_PIPELINE_EXECUTABLE(LYR_NEXT_DECLARE)
};

void lyr_instance_next_load(struct lyr_instance_next *next, VkInstance instance,
                            PFN_vkGetInstanceProcAddr gipa, PFN_GetPhysicalDeviceProcAddr gpdpa);
void lyr_device_next_load(struct lyr_device_next *next, VkDevice device,
                          PFN_vkGetDeviceProcAddr gdpa);

#endif /* LYR_NEXT_H */
