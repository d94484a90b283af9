/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * ABI test for include/vulkan/vulkan_arm_ml.h. For every structure the header defines it checks
 * sizeof, and the offset and size of every member, against literal numbers worked out by hand
 * from the registry member lists with the LP64 natural-alignment rules (x86_64, aarch64):
 * pointers, handles, VkDeviceSize, VkFlags64 and size_t are 8 bytes aligned to 8; enums,
 * VkFlags, VkBool32 and uint32_t are 4 aligned to 4; a struct is padded to its largest
 * alignment. It also checks a broad sample of enum values against the registry numbers, that
 * the header survives a second inclusion, that the extension macros are defined, and (at
 * compile time) that every prototype has the type of its PFN typedef.
 */
#include <stddef.h>
#include <stdint.h>

#include <vulkan/vulkan_arm_ml.h>
/* A second inclusion must be a no-op. */
#include <vulkan/vulkan_arm_ml.h>

#include "test.h"

TEST_MAIN_STATE;

#if !defined(VK_ARM_tensors) || !defined(VK_ARM_data_graph) ||                                     \
    !defined(VK_ARM_data_graph_instruction_set_tosa) ||                                            \
    !defined(VK_ARM_data_graph_optical_flow) || !defined(VK_ARM_tensor_controls) ||                \
    !defined(VK_ARM_data_graph_neural_accelerator_statistics)
#error "vulkan_arm_ml.h must define the extension macros"
#endif

/* Each prototype must have exactly the type of its PFN typedef (_Generic does not evaluate). */
#define SAME_TYPE(fn) _Static_assert(_Generic(&fn, PFN_##fn : 1, default : 0), #fn " vs PFN_" #fn)
#ifndef VK_NO_PROTOTYPES
SAME_TYPE(vkCreateTensorARM);
SAME_TYPE(vkDestroyTensorARM);
SAME_TYPE(vkCreateTensorViewARM);
SAME_TYPE(vkDestroyTensorViewARM);
SAME_TYPE(vkGetTensorMemoryRequirementsARM);
SAME_TYPE(vkBindTensorMemoryARM);
SAME_TYPE(vkGetDeviceTensorMemoryRequirementsARM);
SAME_TYPE(vkCmdCopyTensorARM);
SAME_TYPE(vkGetPhysicalDeviceExternalTensorPropertiesARM);
SAME_TYPE(vkGetTensorOpaqueCaptureDescriptorDataARM);
SAME_TYPE(vkGetTensorViewOpaqueCaptureDescriptorDataARM);
SAME_TYPE(vkGetTensorOpaqueCaptureDataARM);
SAME_TYPE(vkCreateDataGraphPipelinesARM);
SAME_TYPE(vkCreateDataGraphPipelineSessionARM);
SAME_TYPE(vkGetDataGraphPipelineSessionBindPointRequirementsARM);
SAME_TYPE(vkGetDataGraphPipelineSessionMemoryRequirementsARM);
SAME_TYPE(vkBindDataGraphPipelineSessionMemoryARM);
SAME_TYPE(vkDestroyDataGraphPipelineSessionARM);
SAME_TYPE(vkCmdDispatchDataGraphARM);
SAME_TYPE(vkGetDataGraphPipelineAvailablePropertiesARM);
SAME_TYPE(vkGetDataGraphPipelinePropertiesARM);
SAME_TYPE(vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM);
SAME_TYPE(vkGetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM);
SAME_TYPE(vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM);
SAME_TYPE(vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM);
#endif

/* Starts a structure: names it in failure messages and checks its size. */
#define STRUCT(T, size)                                                                            \
   do {                                                                                            \
      test_set_context(#T);                                                                        \
      check_eq_u64(sizeof(T), size);                                                               \
   } while (0)

/* One member: its offset and its size. */
#define FIELD(T, m, off, size)                                                                     \
   do {                                                                                            \
      check_eq_u64(offsetof(T, m), off);                                                           \
      check_eq_u64(sizeof(((T *)0)->m), size);                                                     \
   } while (0)

/* The sType/pNext header every extensible structure starts with. */
#define HEAD(T)                                                                                    \
   do {                                                                                            \
      FIELD(T, sType, 0, 4);                                                                       \
      FIELD(T, pNext, 8, 8);                                                                       \
   } while (0)

static void
check_basic_types(void)
{
   test_set_context("basic types");
   check_eq_u64(sizeof(VkTensorARM), 8);
   check_eq_u64(sizeof(VkTensorViewARM), 8);
   check_eq_u64(sizeof(VkDataGraphPipelineSessionARM), 8);
   check_eq_u64(sizeof(VkTensorCreateFlagsARM), 8);
   check_eq_u64(sizeof(VkTensorViewCreateFlagsARM), 8);
   check_eq_u64(sizeof(VkTensorUsageFlagsARM), 8);
   check_eq_u64(sizeof(VkDataGraphPipelineSessionCreateFlagsARM), 8);
   check_eq_u64(sizeof(VkDataGraphPipelineDispatchFlagsARM), 8);
   check_eq_u64(sizeof(VkPipelineCreateFlags2), 8);
   check_eq_u64(sizeof(VkPipelineCreateFlags2KHR), 8);
   check_eq_u64(sizeof(VkBufferUsageFlags2), 8);
   check_eq_u64(sizeof(VkBufferUsageFlags2KHR), 8);
   check_eq_u64(sizeof(VkImageUsageFlags2), 8);
   check_eq_u64(sizeof(VkImageUsageFlags2KHR), 8);
   check_eq_u64(sizeof(VkDataGraphTOSAQualityFlagsARM), 4);
   check_eq_u64(sizeof(VkDataGraphOpticalFlowImageUsageFlagsARM), 4);
   check_eq_u64(sizeof(VkDataGraphOpticalFlowCreateFlagsARM), 4);
   check_eq_u64(sizeof(VkDataGraphOpticalFlowGridSizeFlagsARM), 4);
   check_eq_u64(sizeof(VkDataGraphOpticalFlowExecuteFlagsARM), 4);
   check_eq_u64(sizeof(VkTensorTilingARM), 4);
   check_eq_u64(sizeof(VkDataGraphPipelineSessionBindPointARM), 4);
   check_eq_u64(sizeof(VkDataGraphPipelineSessionBindPointTypeARM), 4);
   check_eq_u64(sizeof(VkDataGraphPipelinePropertyARM), 4);
   check_eq_u64(sizeof(VkPhysicalDeviceDataGraphProcessingEngineTypeARM), 4);
   check_eq_u64(sizeof(VkPhysicalDeviceDataGraphOperationTypeARM), 4);
   check_eq_u64(sizeof(VkDataGraphTOSALevelARM), 4);
   check_eq_u64(sizeof(VkDataGraphOpticalFlowPerformanceLevelARM), 4);
   check_eq_u64(sizeof(VkDataGraphPipelineNodeTypeARM), 4);
   check_eq_u64(sizeof(VkDataGraphPipelineNodeConnectionTypeARM), 4);
   check_eq_u64(sizeof(VkNeuralAcceleratorStatisticsModeARM), 4);
}

static void
check_tensor_structs(void)
{
   STRUCT(VkTensorDescriptionARM, 56);
   HEAD(VkTensorDescriptionARM);
   FIELD(VkTensorDescriptionARM, tiling, 16, 4);
   FIELD(VkTensorDescriptionARM, format, 20, 4);
   FIELD(VkTensorDescriptionARM, dimensionCount, 24, 4);
   FIELD(VkTensorDescriptionARM, pDimensions, 32, 8);
   FIELD(VkTensorDescriptionARM, pStrides, 40, 8);
   FIELD(VkTensorDescriptionARM, usage, 48, 8);

   STRUCT(VkTensorCreateInfoARM, 48);
   HEAD(VkTensorCreateInfoARM);
   FIELD(VkTensorCreateInfoARM, flags, 16, 8);
   FIELD(VkTensorCreateInfoARM, pDescription, 24, 8);
   FIELD(VkTensorCreateInfoARM, sharingMode, 32, 4);
   FIELD(VkTensorCreateInfoARM, queueFamilyIndexCount, 36, 4);
   FIELD(VkTensorCreateInfoARM, pQueueFamilyIndices, 40, 8);

   STRUCT(VkTensorViewCreateInfoARM, 40);
   HEAD(VkTensorViewCreateInfoARM);
   FIELD(VkTensorViewCreateInfoARM, flags, 16, 8);
   FIELD(VkTensorViewCreateInfoARM, tensor, 24, 8);
   FIELD(VkTensorViewCreateInfoARM, format, 32, 4);

   STRUCT(VkTensorMemoryRequirementsInfoARM, 24);
   HEAD(VkTensorMemoryRequirementsInfoARM);
   FIELD(VkTensorMemoryRequirementsInfoARM, tensor, 16, 8);

   STRUCT(VkBindTensorMemoryInfoARM, 40);
   HEAD(VkBindTensorMemoryInfoARM);
   FIELD(VkBindTensorMemoryInfoARM, tensor, 16, 8);
   FIELD(VkBindTensorMemoryInfoARM, memory, 24, 8);
   FIELD(VkBindTensorMemoryInfoARM, memoryOffset, 32, 8);

   STRUCT(VkWriteDescriptorSetTensorARM, 32);
   HEAD(VkWriteDescriptorSetTensorARM);
   FIELD(VkWriteDescriptorSetTensorARM, tensorViewCount, 16, 4);
   FIELD(VkWriteDescriptorSetTensorARM, pTensorViews, 24, 8);

   STRUCT(VkTensorFormatPropertiesARM, 32);
   HEAD(VkTensorFormatPropertiesARM);
   FIELD(VkTensorFormatPropertiesARM, optimalTilingTensorFeatures, 16, 8);
   FIELD(VkTensorFormatPropertiesARM, linearTilingTensorFeatures, 24, 8);

   STRUCT(VkPhysicalDeviceTensorPropertiesARM, 88);
   HEAD(VkPhysicalDeviceTensorPropertiesARM);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxTensorDimensionCount, 16, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxTensorElements, 24, 8);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxPerDimensionTensorElements, 32, 8);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxTensorStride, 40, 8);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxTensorSize, 48, 8);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxTensorShaderAccessArrayLength, 56, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxTensorShaderAccessSize, 60, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxDescriptorSetStorageTensors, 64, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxPerStageDescriptorSetStorageTensors, 68, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxDescriptorSetUpdateAfterBindStorageTensors, 72, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, maxPerStageDescriptorUpdateAfterBindStorageTensors,
         76, 4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, shaderStorageTensorArrayNonUniformIndexingNative, 80,
         4);
   FIELD(VkPhysicalDeviceTensorPropertiesARM, shaderTensorSupportedStages, 84, 4);

   STRUCT(VkTensorMemoryBarrierARM, 64);
   HEAD(VkTensorMemoryBarrierARM);
   FIELD(VkTensorMemoryBarrierARM, srcStageMask, 16, 8);
   FIELD(VkTensorMemoryBarrierARM, srcAccessMask, 24, 8);
   FIELD(VkTensorMemoryBarrierARM, dstStageMask, 32, 8);
   FIELD(VkTensorMemoryBarrierARM, dstAccessMask, 40, 8);
   FIELD(VkTensorMemoryBarrierARM, srcQueueFamilyIndex, 48, 4);
   FIELD(VkTensorMemoryBarrierARM, dstQueueFamilyIndex, 52, 4);
   FIELD(VkTensorMemoryBarrierARM, tensor, 56, 8);

   STRUCT(VkTensorDependencyInfoARM, 32);
   HEAD(VkTensorDependencyInfoARM);
   FIELD(VkTensorDependencyInfoARM, tensorMemoryBarrierCount, 16, 4);
   FIELD(VkTensorDependencyInfoARM, pTensorMemoryBarriers, 24, 8);

   STRUCT(VkPhysicalDeviceTensorFeaturesARM, 40);
   HEAD(VkPhysicalDeviceTensorFeaturesARM);
   FIELD(VkPhysicalDeviceTensorFeaturesARM, tensorNonPacked, 16, 4);
   FIELD(VkPhysicalDeviceTensorFeaturesARM, shaderTensorAccess, 20, 4);
   FIELD(VkPhysicalDeviceTensorFeaturesARM, shaderStorageTensorArrayDynamicIndexing, 24, 4);
   FIELD(VkPhysicalDeviceTensorFeaturesARM, shaderStorageTensorArrayNonUniformIndexing, 28, 4);
   FIELD(VkPhysicalDeviceTensorFeaturesARM, descriptorBindingStorageTensorUpdateAfterBind, 32, 4);
   FIELD(VkPhysicalDeviceTensorFeaturesARM, tensors, 36, 4);

   STRUCT(VkDeviceTensorMemoryRequirementsARM, 24);
   HEAD(VkDeviceTensorMemoryRequirementsARM);
   FIELD(VkDeviceTensorMemoryRequirementsARM, pCreateInfo, 16, 8);

   STRUCT(VkCopyTensorInfoARM, 48);
   HEAD(VkCopyTensorInfoARM);
   FIELD(VkCopyTensorInfoARM, srcTensor, 16, 8);
   FIELD(VkCopyTensorInfoARM, dstTensor, 24, 8);
   FIELD(VkCopyTensorInfoARM, regionCount, 32, 4);
   FIELD(VkCopyTensorInfoARM, pRegions, 40, 8);

   STRUCT(VkTensorCopyARM, 48);
   HEAD(VkTensorCopyARM);
   FIELD(VkTensorCopyARM, dimensionCount, 16, 4);
   FIELD(VkTensorCopyARM, pSrcOffset, 24, 8);
   FIELD(VkTensorCopyARM, pDstOffset, 32, 8);
   FIELD(VkTensorCopyARM, pExtent, 40, 8);

   STRUCT(VkMemoryDedicatedAllocateInfoTensorARM, 24);
   HEAD(VkMemoryDedicatedAllocateInfoTensorARM);
   FIELD(VkMemoryDedicatedAllocateInfoTensorARM, tensor, 16, 8);

   STRUCT(VkPhysicalDeviceExternalTensorInfoARM, 40);
   HEAD(VkPhysicalDeviceExternalTensorInfoARM);
   FIELD(VkPhysicalDeviceExternalTensorInfoARM, flags, 16, 8);
   FIELD(VkPhysicalDeviceExternalTensorInfoARM, pDescription, 24, 8);
   FIELD(VkPhysicalDeviceExternalTensorInfoARM, handleType, 32, 4);

   /* VkExternalMemoryProperties is three 32-bit flag words: 12 bytes, 4-aligned. */
   STRUCT(VkExternalTensorPropertiesARM, 32);
   HEAD(VkExternalTensorPropertiesARM);
   FIELD(VkExternalTensorPropertiesARM, externalMemoryProperties, 16, 12);

   STRUCT(VkExternalMemoryTensorCreateInfoARM, 24);
   HEAD(VkExternalMemoryTensorCreateInfoARM);
   FIELD(VkExternalMemoryTensorCreateInfoARM, handleTypes, 16, 4);

   STRUCT(VkPhysicalDeviceDescriptorBufferTensorFeaturesARM, 24);
   HEAD(VkPhysicalDeviceDescriptorBufferTensorFeaturesARM);
   FIELD(VkPhysicalDeviceDescriptorBufferTensorFeaturesARM, descriptorBufferTensorDescriptors, 16,
         4);

   STRUCT(VkPhysicalDeviceDescriptorBufferTensorPropertiesARM, 40);
   HEAD(VkPhysicalDeviceDescriptorBufferTensorPropertiesARM);
   FIELD(VkPhysicalDeviceDescriptorBufferTensorPropertiesARM, tensorCaptureReplayDescriptorDataSize,
         16, 8);
   FIELD(VkPhysicalDeviceDescriptorBufferTensorPropertiesARM,
         tensorViewCaptureReplayDescriptorDataSize, 24, 8);
   FIELD(VkPhysicalDeviceDescriptorBufferTensorPropertiesARM, tensorDescriptorSize, 32, 8);

   STRUCT(VkDescriptorGetTensorInfoARM, 24);
   HEAD(VkDescriptorGetTensorInfoARM);
   FIELD(VkDescriptorGetTensorInfoARM, tensorView, 16, 8);

   STRUCT(VkTensorCaptureDescriptorDataInfoARM, 24);
   HEAD(VkTensorCaptureDescriptorDataInfoARM);
   FIELD(VkTensorCaptureDescriptorDataInfoARM, tensor, 16, 8);

   STRUCT(VkTensorViewCaptureDescriptorDataInfoARM, 24);
   HEAD(VkTensorViewCaptureDescriptorDataInfoARM);
   FIELD(VkTensorViewCaptureDescriptorDataInfoARM, tensorView, 16, 8);

   STRUCT(VkFrameBoundaryTensorsARM, 32);
   HEAD(VkFrameBoundaryTensorsARM);
   FIELD(VkFrameBoundaryTensorsARM, tensorCount, 16, 4);
   FIELD(VkFrameBoundaryTensorsARM, pTensors, 24, 8);

   /* VK_EXT_descriptor_heap interaction. */
   STRUCT(VkHostAddressRangeEXT, 16);
   FIELD(VkHostAddressRangeEXT, address, 0, 8);
   FIELD(VkHostAddressRangeEXT, size, 8, 8);

   STRUCT(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM, 40);
   HEAD(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM);
   FIELD(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM, tensorDescriptorSize, 16, 8);
   FIELD(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM, tensorDescriptorAlignment, 24, 8);
   FIELD(VkPhysicalDeviceDescriptorHeapTensorPropertiesARM, tensorCaptureReplayOpaqueDataSize, 32,
         8);

   /* VK_ARM_tensor_controls. */
   STRUCT(VkTensorRollingBackingCreateInfoARM, 32);
   HEAD(VkTensorRollingBackingCreateInfoARM);
   FIELD(VkTensorRollingBackingCreateInfoARM, wraps, 16, 16);

   STRUCT(VkTensorExplicitTilingFormatPropertiesARM, 56);
   HEAD(VkTensorExplicitTilingFormatPropertiesARM);
   FIELD(VkTensorExplicitTilingFormatPropertiesARM, brick16TilingTensorFeatures, 16, 8);
   FIELD(VkTensorExplicitTilingFormatPropertiesARM, brick8TilingTensorFeatures, 24, 8);
   FIELD(VkTensorExplicitTilingFormatPropertiesARM, brick4TilingTensorFeatures, 32, 8);
   FIELD(VkTensorExplicitTilingFormatPropertiesARM, blockUTilingTensorFeatures, 40, 8);
   FIELD(VkTensorExplicitTilingFormatPropertiesARM, blockU64kTilingTensorFeatures, 48, 8);
}

static void
check_data_graph_structs(void)
{
   STRUCT(VkPhysicalDeviceDataGraphFeaturesARM, 40);
   HEAD(VkPhysicalDeviceDataGraphFeaturesARM);
   FIELD(VkPhysicalDeviceDataGraphFeaturesARM, dataGraph, 16, 4);
   FIELD(VkPhysicalDeviceDataGraphFeaturesARM, dataGraphUpdateAfterBind, 20, 4);
   FIELD(VkPhysicalDeviceDataGraphFeaturesARM, dataGraphSpecializationConstants, 24, 4);
   FIELD(VkPhysicalDeviceDataGraphFeaturesARM, dataGraphDescriptorBuffer, 28, 4);
   FIELD(VkPhysicalDeviceDataGraphFeaturesARM, dataGraphShaderModule, 32, 4);

   STRUCT(VkDataGraphPipelineConstantARM, 32);
   HEAD(VkDataGraphPipelineConstantARM);
   FIELD(VkDataGraphPipelineConstantARM, id, 16, 4);
   FIELD(VkDataGraphPipelineConstantARM, pConstantData, 24, 8);

   STRUCT(VkDataGraphPipelineResourceInfoARM, 32);
   HEAD(VkDataGraphPipelineResourceInfoARM);
   FIELD(VkDataGraphPipelineResourceInfoARM, descriptorSet, 16, 4);
   FIELD(VkDataGraphPipelineResourceInfoARM, binding, 20, 4);
   FIELD(VkDataGraphPipelineResourceInfoARM, arrayElement, 24, 4);

   STRUCT(VkDataGraphPipelineCompilerControlCreateInfoARM, 24);
   HEAD(VkDataGraphPipelineCompilerControlCreateInfoARM);
   FIELD(VkDataGraphPipelineCompilerControlCreateInfoARM, pVendorOptions, 16, 8);

   STRUCT(VkDataGraphPipelineCreateInfoARM, 48);
   HEAD(VkDataGraphPipelineCreateInfoARM);
   FIELD(VkDataGraphPipelineCreateInfoARM, flags, 16, 8);
   FIELD(VkDataGraphPipelineCreateInfoARM, layout, 24, 8);
   FIELD(VkDataGraphPipelineCreateInfoARM, resourceInfoCount, 32, 4);
   FIELD(VkDataGraphPipelineCreateInfoARM, pResourceInfos, 40, 8);

   STRUCT(VkDataGraphPipelineShaderModuleCreateInfoARM, 56);
   HEAD(VkDataGraphPipelineShaderModuleCreateInfoARM);
   FIELD(VkDataGraphPipelineShaderModuleCreateInfoARM, module, 16, 8);
   FIELD(VkDataGraphPipelineShaderModuleCreateInfoARM, pName, 24, 8);
   FIELD(VkDataGraphPipelineShaderModuleCreateInfoARM, pSpecializationInfo, 32, 8);
   FIELD(VkDataGraphPipelineShaderModuleCreateInfoARM, constantCount, 40, 4);
   FIELD(VkDataGraphPipelineShaderModuleCreateInfoARM, pConstants, 48, 8);

   STRUCT(VkDataGraphPipelineSessionCreateInfoARM, 32);
   HEAD(VkDataGraphPipelineSessionCreateInfoARM);
   FIELD(VkDataGraphPipelineSessionCreateInfoARM, flags, 16, 8);
   FIELD(VkDataGraphPipelineSessionCreateInfoARM, dataGraphPipeline, 24, 8);

   STRUCT(VkDataGraphPipelineSessionBindPointRequirementsInfoARM, 24);
   HEAD(VkDataGraphPipelineSessionBindPointRequirementsInfoARM);
   FIELD(VkDataGraphPipelineSessionBindPointRequirementsInfoARM, session, 16, 8);

   STRUCT(VkDataGraphPipelineSessionBindPointRequirementARM, 32);
   HEAD(VkDataGraphPipelineSessionBindPointRequirementARM);
   FIELD(VkDataGraphPipelineSessionBindPointRequirementARM, bindPoint, 16, 4);
   FIELD(VkDataGraphPipelineSessionBindPointRequirementARM, bindPointType, 20, 4);
   FIELD(VkDataGraphPipelineSessionBindPointRequirementARM, numObjects, 24, 4);

   STRUCT(VkDataGraphPipelineSessionMemoryRequirementsInfoARM, 32);
   HEAD(VkDataGraphPipelineSessionMemoryRequirementsInfoARM);
   FIELD(VkDataGraphPipelineSessionMemoryRequirementsInfoARM, session, 16, 8);
   FIELD(VkDataGraphPipelineSessionMemoryRequirementsInfoARM, bindPoint, 24, 4);
   FIELD(VkDataGraphPipelineSessionMemoryRequirementsInfoARM, objectIndex, 28, 4);

   STRUCT(VkBindDataGraphPipelineSessionMemoryInfoARM, 48);
   HEAD(VkBindDataGraphPipelineSessionMemoryInfoARM);
   FIELD(VkBindDataGraphPipelineSessionMemoryInfoARM, session, 16, 8);
   FIELD(VkBindDataGraphPipelineSessionMemoryInfoARM, bindPoint, 24, 4);
   FIELD(VkBindDataGraphPipelineSessionMemoryInfoARM, objectIndex, 28, 4);
   FIELD(VkBindDataGraphPipelineSessionMemoryInfoARM, memory, 32, 8);
   FIELD(VkBindDataGraphPipelineSessionMemoryInfoARM, memoryOffset, 40, 8);

   STRUCT(VkDataGraphPipelineInfoARM, 24);
   HEAD(VkDataGraphPipelineInfoARM);
   FIELD(VkDataGraphPipelineInfoARM, dataGraphPipeline, 16, 8);

   STRUCT(VkDataGraphPipelinePropertyQueryResultARM, 40);
   HEAD(VkDataGraphPipelinePropertyQueryResultARM);
   FIELD(VkDataGraphPipelinePropertyQueryResultARM, property, 16, 4);
   FIELD(VkDataGraphPipelinePropertyQueryResultARM, isText, 20, 4);
   FIELD(VkDataGraphPipelinePropertyQueryResultARM, dataSize, 24, 8);
   FIELD(VkDataGraphPipelinePropertyQueryResultARM, pData, 32, 8);

   STRUCT(VkDataGraphPipelineIdentifierCreateInfoARM, 32);
   HEAD(VkDataGraphPipelineIdentifierCreateInfoARM);
   FIELD(VkDataGraphPipelineIdentifierCreateInfoARM, identifierSize, 16, 4);
   FIELD(VkDataGraphPipelineIdentifierCreateInfoARM, pIdentifier, 24, 8);

   STRUCT(VkDataGraphPipelineDispatchInfoARM, 24);
   HEAD(VkDataGraphPipelineDispatchInfoARM);
   FIELD(VkDataGraphPipelineDispatchInfoARM, flags, 16, 8);

   STRUCT(VkPhysicalDeviceDataGraphProcessingEngineARM, 8);
   FIELD(VkPhysicalDeviceDataGraphProcessingEngineARM, type, 0, 4);
   FIELD(VkPhysicalDeviceDataGraphProcessingEngineARM, isForeign, 4, 4);

   /* 4 + 128 + 4, 4-aligned. */
   STRUCT(VkPhysicalDeviceDataGraphOperationSupportARM, 136);
   FIELD(VkPhysicalDeviceDataGraphOperationSupportARM, operationType, 0, 4);
   FIELD(VkPhysicalDeviceDataGraphOperationSupportARM, name, 4, 128);
   FIELD(VkPhysicalDeviceDataGraphOperationSupportARM, version, 132, 4);

   /* engine (8 bytes) and operation (136 bytes) are both 4-aligned: 24 + 136 = 160. */
   STRUCT(VkQueueFamilyDataGraphPropertiesARM, 160);
   HEAD(VkQueueFamilyDataGraphPropertiesARM);
   FIELD(VkQueueFamilyDataGraphPropertiesARM, engine, 16, 8);
   FIELD(VkQueueFamilyDataGraphPropertiesARM, operation, 24, 136);

   STRUCT(VkDataGraphProcessingEngineCreateInfoARM, 32);
   HEAD(VkDataGraphProcessingEngineCreateInfoARM);
   FIELD(VkDataGraphProcessingEngineCreateInfoARM, processingEngineCount, 16, 4);
   FIELD(VkDataGraphProcessingEngineCreateInfoARM, pProcessingEngines, 24, 8);

   STRUCT(VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM, 24);
   HEAD(VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM);
   FIELD(VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM, queueFamilyIndex, 16, 4);
   FIELD(VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM, engineType, 20, 4);

   STRUCT(VkQueueFamilyDataGraphProcessingEnginePropertiesARM, 24);
   HEAD(VkQueueFamilyDataGraphProcessingEnginePropertiesARM);
   FIELD(VkQueueFamilyDataGraphProcessingEnginePropertiesARM, foreignSemaphoreHandleTypes, 16, 4);
   FIELD(VkQueueFamilyDataGraphProcessingEnginePropertiesARM, foreignMemoryHandleTypes, 20, 4);

   STRUCT(VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM, 32);
   HEAD(VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM);
   FIELD(VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM, dimension, 16, 4);
   FIELD(VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM, zeroCount, 20, 4);
   FIELD(VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM, groupSize, 24, 4);

   /* VK_ARM_data_graph_instruction_set_tosa. 128 + 4. */
   STRUCT(VkDataGraphTOSANameQualityARM, 132);
   FIELD(VkDataGraphTOSANameQualityARM, name, 0, 128);
   FIELD(VkDataGraphTOSANameQualityARM, qualityFlags, 128, 4);

   STRUCT(VkQueueFamilyDataGraphTOSAPropertiesARM, 56);
   HEAD(VkQueueFamilyDataGraphTOSAPropertiesARM);
   FIELD(VkQueueFamilyDataGraphTOSAPropertiesARM, profileCount, 16, 4);
   FIELD(VkQueueFamilyDataGraphTOSAPropertiesARM, pProfiles, 24, 8);
   FIELD(VkQueueFamilyDataGraphTOSAPropertiesARM, extensionCount, 32, 4);
   FIELD(VkQueueFamilyDataGraphTOSAPropertiesARM, pExtensions, 40, 8);
   FIELD(VkQueueFamilyDataGraphTOSAPropertiesARM, level, 48, 4);

   /* VK_ARM_data_graph_neural_accelerator_statistics. */
   STRUCT(VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM, 24);
   HEAD(VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM);
   FIELD(VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM,
         dataGraphNeuralAcceleratorStatistics, 16, 4);

   STRUCT(VkDataGraphPipelineNeuralStatisticsCreateInfoARM, 24);
   HEAD(VkDataGraphPipelineNeuralStatisticsCreateInfoARM);
   FIELD(VkDataGraphPipelineNeuralStatisticsCreateInfoARM, allowNeuralStatistics, 16, 4);

   STRUCT(VkDataGraphPipelineSessionNeuralStatisticsCreateInfoARM, 24);
   HEAD(VkDataGraphPipelineSessionNeuralStatisticsCreateInfoARM);
   FIELD(VkDataGraphPipelineSessionNeuralStatisticsCreateInfoARM, mode, 16, 4);
}

static void
check_optical_flow_structs(void)
{
   STRUCT(VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM, 24);
   HEAD(VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM);
   FIELD(VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM, dataGraphOpticalFlow, 16, 4);

   STRUCT(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, 48);
   HEAD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, supportedOutputGridSizes, 16, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, supportedHintGridSizes, 20, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, hintSupported, 24, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, costSupported, 28, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, minWidth, 32, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, minHeight, 36, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, maxWidth, 40, 4);
   FIELD(VkQueueFamilyDataGraphOpticalFlowPropertiesARM, maxHeight, 44, 4);

   STRUCT(VkDataGraphPipelineOpticalFlowCreateInfoARM, 56);
   HEAD(VkDataGraphPipelineOpticalFlowCreateInfoARM);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, width, 16, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, height, 20, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, imageFormat, 24, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, flowVectorFormat, 28, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, costFormat, 32, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, outputGridSize, 36, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, hintGridSize, 40, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, performanceLevel, 44, 4);
   FIELD(VkDataGraphPipelineOpticalFlowCreateInfoARM, flags, 48, 4);

   STRUCT(VkDataGraphOpticalFlowImageFormatPropertiesARM, 24);
   HEAD(VkDataGraphOpticalFlowImageFormatPropertiesARM);
   FIELD(VkDataGraphOpticalFlowImageFormatPropertiesARM, format, 16, 4);

   STRUCT(VkDataGraphOpticalFlowImageFormatInfoARM, 24);
   HEAD(VkDataGraphOpticalFlowImageFormatInfoARM);
   FIELD(VkDataGraphOpticalFlowImageFormatInfoARM, usage, 16, 4);

   STRUCT(VkDataGraphPipelineOpticalFlowDispatchInfoARM, 24);
   HEAD(VkDataGraphPipelineOpticalFlowDispatchInfoARM);
   FIELD(VkDataGraphPipelineOpticalFlowDispatchInfoARM, flags, 16, 4);
   FIELD(VkDataGraphPipelineOpticalFlowDispatchInfoARM, meanFlowL1NormHint, 20, 4);

   STRUCT(VkDataGraphPipelineResourceInfoImageLayoutARM, 24);
   HEAD(VkDataGraphPipelineResourceInfoImageLayoutARM);
   FIELD(VkDataGraphPipelineResourceInfoImageLayoutARM, layout, 16, 4);

   STRUCT(VkDataGraphPipelineSingleNodeCreateInfoARM, 32);
   HEAD(VkDataGraphPipelineSingleNodeCreateInfoARM);
   FIELD(VkDataGraphPipelineSingleNodeCreateInfoARM, nodeType, 16, 4);
   FIELD(VkDataGraphPipelineSingleNodeCreateInfoARM, connectionCount, 20, 4);
   FIELD(VkDataGraphPipelineSingleNodeCreateInfoARM, pConnections, 24, 8);

   STRUCT(VkDataGraphPipelineSingleNodeConnectionARM, 32);
   HEAD(VkDataGraphPipelineSingleNodeConnectionARM);
   FIELD(VkDataGraphPipelineSingleNodeConnectionARM, set, 16, 4);
   FIELD(VkDataGraphPipelineSingleNodeConnectionARM, binding, 20, 4);
   FIELD(VkDataGraphPipelineSingleNodeConnectionARM, connection, 24, 4);
}

/*
 * Values added to core enums must work as case labels and compare with the enum type. As the
 * header says, a switch whose labels include them switches on the integer value: -Wswitch
 * rejects labels outside the enum when the controlling expression has the enum type.
 */
static int
classify_stype(VkStructureType s)
{
   switch ((uint32_t)s) {
   case VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM:
      return 1;
   case VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM:
      return 2;
   case VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM:
      return 3;
   case VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM:
      return 4;
   case VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO:
      return 5;
   default:
      return 0;
   }
}

static void
check_core_enum_values(void)
{
   test_set_context("core enum values");

   /* VK_ARM_tensors sTypes: 1000460000 + offset. */
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM, 1000460000);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM, 1000460001);
   check_eq_u64(VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM, 1000460002);
   check_eq_u64(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, 1000460003);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM, 1000460004);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM, 1000460005);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM, 1000460006);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, 1000460007);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM, 1000460008);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, 1000460009);
   check_eq_u64(VK_STRUCTURE_TYPE_DEVICE_TENSOR_MEMORY_REQUIREMENTS_ARM, 1000460010);
   check_eq_u64(VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM, 1000460011);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_COPY_ARM, 1000460012);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM, 1000460013);
   check_eq_u64(VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM, 1000460014);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_TENSOR_INFO_ARM, 1000460015);
   check_eq_u64(VK_STRUCTURE_TYPE_EXTERNAL_TENSOR_PROPERTIES_ARM, 1000460016);
   check_eq_u64(VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM, 1000460017);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
                1000460018);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM,
                1000460019);
   check_eq_u64(VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM, 1000460020);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_CAPTURE_DESCRIPTOR_DATA_INFO_ARM, 1000460021);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_VIEW_CAPTURE_DESCRIPTOR_DATA_INFO_ARM, 1000460022);
   check_eq_u64(VK_STRUCTURE_TYPE_FRAME_BOUNDARY_TENSORS_ARM, 1000460023);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_HEAP_TENSOR_PROPERTIES_ARM,
                1000135014);

   /* VK_ARM_data_graph sTypes: 1000507000 + offset (offset 15 is the sparsity info). */
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM, 1000507000);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM, 1000507001);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM, 1000507002);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM, 1000507003);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
                1000507004);
   check_eq_u64(VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM, 1000507005);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM, 1000507006);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM, 1000507007);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM, 1000507008);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM, 1000507009);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_COMPILER_CONTROL_CREATE_INFO_ARM, 1000507010);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
                1000507011);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM,
                1000507012);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_IDENTIFIER_CREATE_INFO_ARM, 1000507013);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_DISPATCH_INFO_ARM, 1000507014);
   check_eq_u64(
       VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_TENSOR_SEMI_STRUCTURED_SPARSITY_INFO_ARM,
       1000507015);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PROCESSING_ENGINE_CREATE_INFO_ARM, 1000507016);
   check_eq_u64(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_PROPERTIES_ARM,
                1000507017);
   check_eq_u64(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM, 1000507018);
   check_eq_u64(
       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_INFO_ARM,
       1000507019);

   /* TOSA, optical flow, tensor controls, neural statistics. */
   check_eq_u64(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM, 1000508000);
   check_eq_u64(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM, 1000631000);
   check_eq_u64(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM, 1000631001);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM, 1000631002);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM, 1000631003);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM, 1000631004);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_DISPATCH_INFO_ARM, 1000631005);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM, 1000631006);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM, 1000631007);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM, 1000631008);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_EXPLICIT_TILING_FORMAT_PROPERTIES_ARM, 1000565000);
   check_eq_u64(VK_STRUCTURE_TYPE_TENSOR_ROLLING_BACKING_CREATE_INFO_ARM, 1000565001);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_NEURAL_STATISTICS_CREATE_INFO_ARM,
                1000676000);
   check_eq_u64(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_NEURAL_STATISTICS_CREATE_INFO_ARM,
                1000676001);
   check_eq_u64(
       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_FEATURES_ARM,
       1000676002);

   /* Other core enums. */
   check_eq_u64(VK_OBJECT_TYPE_TENSOR_ARM, 1000460000);
   check_eq_u64(VK_OBJECT_TYPE_TENSOR_VIEW_ARM, 1000460001);
   check_eq_u64(VK_OBJECT_TYPE_DATA_GRAPH_PIPELINE_SESSION_ARM, 1000507000);
   check_eq_u64(VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1000460000);
   check_eq_u64(VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM, 1000460000);
   check_eq_u64(VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, 1000507000);
   check_eq_u64(VK_FORMAT_R8_BOOL_ARM, 1000460000);
   check_eq_u64(VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, 1000460001);
   check_eq_u64(VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, 1000460002);
   check_eq_u64(VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, 1000460003);
   check_eq_u64(VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM, 0x800000);
   check_eq_u64(VK_QUEUE_DATA_GRAPH_BIT_ARM, 0x400);
   check_eq_i64(VK_ERROR_VALIDATION_FAILED, -1000011001);
   check_eq_i64(VK_ERROR_VALIDATION_FAILED, VK_ERROR_VALIDATION_FAILED_EXT);
   check_eq_i64(VK_PIPELINE_COMPILE_REQUIRED, 1000297000);

   /* They behave as values of their enum type. */
   VkStructureType s = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM;
   ok(s == VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM, "sType compares");
   check_eq_u64(classify_stype(VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM), 1);
   check_eq_u64(classify_stype(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM), 2);
   check_eq_u64(classify_stype(VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM), 3);
   check_eq_u64(classify_stype(VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM),
                4);
   check_eq_u64(classify_stype(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO), 5);
   check_eq_u64(classify_stype(VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM), 0);
   VkPipelineBindPoint bp = VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM;
   ok(bp != VK_PIPELINE_BIND_POINT_COMPUTE, "bind point distinct from compute");
   VkQueueFlags qf = VK_QUEUE_COMPUTE_BIT | VK_QUEUE_DATA_GRAPH_BIT_ARM;
   check_eq_u64(qf, 0x402);
}

static void
check_flag_bits(void)
{
   test_set_context("64-bit flag bits");

   /* Core 64-bit flag types. */
   check_eq_u64(sizeof(VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM), 8);
   check_eq_u64(VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM, 1ULL << 39);
   check_eq_u64(VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM, 1ULL << 43);
   check_eq_u64(VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM, 1ULL << 48);
   check_eq_u64(VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM, 1ULL << 56);
   check_eq_u64(VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_VECTOR_BIT_ARM, 1ULL << 57);
   check_eq_u64(VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_COST_BIT_ARM, 1ULL << 58);
   check_eq_u64(sizeof(VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM), 8);
   check_eq_u64(VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, 0x40000000000ULL);
   check_eq_u64(VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM, 0x800000000000ULL);
   check_eq_u64(VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM, 0x1000000000000ULL);
   check_eq_u64(VK_BUFFER_USAGE_2_DATA_GRAPH_FOREIGN_DESCRIPTOR_BIT_ARM, 0x20000000);
   check_eq_u64(VK_IMAGE_USAGE_2_TENSOR_ALIASING_BIT_ARM, 0x800000);

   /* maintenance5 / 1.4 pipeline-create bits allowed on data-graph pipelines. */
   check_eq_u64(VK_PIPELINE_CREATE_2_DISABLE_OPTIMIZATION_BIT, 0x1);
   check_eq_u64(VK_PIPELINE_CREATE_2_DISABLE_OPTIMIZATION_BIT_KHR, 0x1);
   check_eq_u64(VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, 0x100);
   check_eq_u64(VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT_KHR, 0x100);
   check_eq_u64(VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT, 0x200);
   check_eq_u64(VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT_KHR, 0x200);
   check_eq_u64(VK_PIPELINE_CREATE_2_NO_PROTECTED_ACCESS_BIT_EXT, 0x08000000);
   check_eq_u64(VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT, 0x20000000);
   check_eq_u64(VK_PIPELINE_CREATE_2_PROTECTED_ACCESS_ONLY_BIT_EXT, 0x40000000);
   check_eq_u64(VK_PIPELINE_CREATE_2_NO_PROTECTED_ACCESS_BIT, 0x08000000);
   check_eq_u64(VK_PIPELINE_CREATE_2_PROTECTED_ACCESS_ONLY_BIT, 0x40000000);
   check_eq_u64(VK_BUFFER_USAGE_2_STORAGE_BUFFER_BIT, 0x20);

   /* ARM-owned 64-bit flag types. */
   check_eq_u64(sizeof(VK_TENSOR_USAGE_SHADER_BIT_ARM), 8);
   check_eq_u64(VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM, 0x1);
   check_eq_u64(VK_TENSOR_CREATE_PROTECTED_BIT_ARM, 0x2);
   check_eq_u64(VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM, 0x4);
   check_eq_u64(VK_TENSOR_CREATE_DESCRIPTOR_HEAP_CAPTURE_REPLAY_BIT_ARM, 0x8);
   check_eq_u64(VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM, 0x1);
   check_eq_u64(VK_TENSOR_USAGE_SHADER_BIT_ARM, 0x2);
   check_eq_u64(VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, 0x4);
   check_eq_u64(VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM, 0x8);
   check_eq_u64(VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM, 0x10);
   check_eq_u64(VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM, 0x20);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_PROTECTED_BIT_ARM, 0x1);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM, 0x2);
}

static void
check_arm_enum_values(void)
{
   test_set_context("ARM enum values");

   check_eq_u64(VK_TENSOR_TILING_OPTIMAL_ARM, 0);
   check_eq_u64(VK_TENSOR_TILING_LINEAR_ARM, 1);
   check_eq_u64(VK_TENSOR_TILING_BRICK_16_WIDE_ARM, 1000565000);
   check_eq_u64(VK_TENSOR_TILING_BRICK_8_WIDE_ARM, 1000565001);
   check_eq_u64(VK_TENSOR_TILING_BRICK_4_WIDE_ARM, 1000565002);
   check_eq_u64(VK_TENSOR_TILING_BLOCK_U_INTERLEAVED_ARM, 1000565003);
   check_eq_u64(VK_TENSOR_TILING_BLOCK_U_INTERLEAVED_64K_ARM, 1000565004);
   check_eq_u64(VK_TENSOR_TILING_MAX_ENUM_ARM, 0x7FFFFFFF);

   check_eq_u64(VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM, 1000631001);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_NEURAL_ACCELERATOR_STATISTICS_ARM,
                1000676000);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM, 1);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_PROPERTY_NEURAL_ACCELERATOR_DEBUG_DATABASE_ARM, 1000676000);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_PROPERTY_NEURAL_ACCELERATOR_STATISTICS_INFO_ARM, 1000676001);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM, 0);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_NEURAL_QCOM, 1000629000);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_COMPUTE_QCOM, 1000629001);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM, 0);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_NEURAL_MODEL_QCOM, 1000629000);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_BUILTIN_MODEL_QCOM, 1000629001);
   check_eq_u64(VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM, 1000631000);

   check_eq_u64(VK_DATA_GRAPH_TOSA_QUALITY_ACCELERATED_ARM, 0x1);
   check_eq_u64(VK_DATA_GRAPH_TOSA_QUALITY_CONFORMANT_ARM, 0x2);
   check_eq_u64(VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM, 0x4);
   check_eq_u64(VK_DATA_GRAPH_TOSA_QUALITY_DEPRECATED_ARM, 0x8);
   check_eq_u64(VK_DATA_GRAPH_TOSA_LEVEL_NONE_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM, 1);

   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_UNKNOWN_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM, 0x1);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM, 0x2);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM, 0x4);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM, 0x8);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM, 0x1);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM, 0x2);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_RESERVED_30_BIT_ARM, 0x40000000);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_UNKNOWN_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_SLOW_ARM, 1);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM, 2);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_FAST_ARM, 3);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_UNKNOWN_ARM, 0);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_1X1_BIT_ARM, 0x1);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_2X2_BIT_ARM, 0x2);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_4X4_BIT_ARM, 0x4);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_8X8_BIT_ARM, 0x8);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_DISABLE_TEMPORAL_HINTS_BIT_ARM, 0x1);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_UNCHANGED_BIT_ARM, 0x2);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_REFERENCE_UNCHANGED_BIT_ARM, 0x4);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_IS_PREVIOUS_REFERENCE_BIT_ARM, 0x8);
   check_eq_u64(VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_REFERENCE_IS_PREVIOUS_INPUT_BIT_ARM, 0x10);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_NODE_TYPE_OPTICAL_FLOW_ARM, 1000631000);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_INPUT_ARM, 1000631000);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_REFERENCE_ARM, 1000631001);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_HINT_ARM, 1000631002);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_FLOW_VECTOR_ARM,
                1000631003);
   check_eq_u64(VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_COST_ARM, 1000631004);

   check_eq_u64(VK_NEURAL_ACCELERATOR_STATISTICS_MODE_DISABLED_ARM, 0);
   check_eq_u64(VK_NEURAL_ACCELERATOR_STATISTICS_MODE_STATISTICS0_ARM, 1);
   check_eq_u64(VK_NEURAL_ACCELERATOR_STATISTICS_MODE_STATISTICS1_ARM, 2);
}

static void
check_names_and_constants(void)
{
   test_set_context("names and constants");
   check_str(VK_ARM_TENSORS_EXTENSION_NAME, "VK_ARM_tensors");
   check_str(VK_ARM_DATA_GRAPH_EXTENSION_NAME, "VK_ARM_data_graph");
   check_str(VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME,
             "VK_ARM_data_graph_instruction_set_tosa");
   check_str(VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME, "VK_ARM_data_graph_optical_flow");
   check_str(VK_ARM_TENSOR_CONTROLS_EXTENSION_NAME, "VK_ARM_tensor_controls");
   check_str(VK_ARM_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_EXTENSION_NAME,
             "VK_ARM_data_graph_neural_accelerator_statistics");
#ifdef VMEL_ARM_ML_LOCAL_TENSORS
   check_eq_u64(VK_ARM_TENSORS_SPEC_VERSION, 2);
#else
   ok(VK_ARM_TENSORS_SPEC_VERSION >= 1, "VK_ARM_TENSORS_SPEC_VERSION");
#endif
   check_eq_u64(VK_ARM_DATA_GRAPH_SPEC_VERSION, 1);
   check_eq_u64(VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_SPEC_VERSION, 1);
   check_eq_u64(VK_ARM_DATA_GRAPH_OPTICAL_FLOW_SPEC_VERSION, 1);
   check_eq_u64(VK_ARM_TENSOR_CONTROLS_SPEC_VERSION, 1);
   check_eq_u64(VK_ARM_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_SPEC_VERSION, 1);
   check_eq_u64(VK_MAX_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_SET_NAME_SIZE_ARM, 128);
   check_eq_u64(VK_MAX_DATA_GRAPH_TOSA_NAME_SIZE_ARM, 128);
   check_eq_u64(VK_MAX_TENSOR_CREATE_INFO_ROLLING_BACKING_WRAP_COUNT_ARM, 4);
}

int
main(void)
{
#if !(defined(__x86_64__) || defined(__aarch64__))
   return test_skip("expected layouts are written for LP64 (x86_64, aarch64)");
#else
   check_basic_types();
   check_tensor_structs();
   check_data_graph_structs();
   check_optical_flow_structs();
   check_core_enum_values();
   check_flag_bits();
   check_arm_enum_values();
   check_names_and_constants();
   return test_done();
#endif
}
