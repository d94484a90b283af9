/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The C API of the Arm machine-learning Vulkan extensions that our layers emulate:
 * VK_ARM_tensors (spec v2), VK_ARM_data_graph, VK_ARM_data_graph_instruction_set_tosa and
 * VK_ARM_data_graph_optical_flow, plus the enum values and structures of the related
 * VK_ARM_tensor_controls and VK_ARM_data_graph_neural_accelerator_statistics extensions and
 * the tensor interactions with VK_EXT_descriptor_buffer, VK_EXT_frame_boundary and
 * VK_EXT_descriptor_heap. It also supplies the few maintenance5 / Vulkan 1.4 / extended_flags
 * types these APIs reference (VkPipelineCreateFlags2, VkBufferUsageFlags2, VkImageUsageFlags2KHR)
 * and VK_ERROR_VALIDATION_FAILED.
 *
 * Written by hand from the registry's member lists (vk.xml of Vulkan-Headers 1.4.359); it is
 * not a copy of the Khronos header. It builds on Debian 12's Vulkan-Headers 1.3.239 and steps
 * aside for anything newer system headers already define: every extension block is guarded by
 * the extension's preprocessor macro (which vulkan_core.h defines), and the values one ARM
 * extension adds to another's enum are emitted separately whenever only the older extension
 * came from the system.
 *
 * Values added to core enums (VkStructureType, VkFormat, ...) are macros of the enum's type,
 * 64-bit flag bits are `static const` VkFlags64 constants (as vulkan_core.h does), and the enum
 * types owned by these extensions are real C enums that list the values of every ARM extension.
 *
 * A switch whose case labels include such core-enum macros must switch on the integer value,
 * e.g. `switch ((uint32_t)info->sType)`: with an enum-typed controlling expression, -Wswitch
 * (part of -Wall) rejects labels that are not members of the C enum. (Newer system headers make
 * them members, so the cast is harmless there.) 64-bit flag bits are not constant expressions
 * in C and cannot be case labels at all, exactly as with vulkan_core.h.
 */
#ifndef VMEL_VULKAN_ARM_ML_H
#define VMEL_VULKAN_ARM_ML_H 1

#include <vulkan/vulkan.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------------------------ */
/* Core / KHR pieces missing from older headers                                               */
/* ------------------------------------------------------------------------------------------ */

/* VK_ERROR_VALIDATION_FAILED became a VkResult member (not a macro) in header 1.4.323. */
#if !defined(VK_ERROR_VALIDATION_FAILED) && VK_HEADER_VERSION < 323
#define VK_ERROR_VALIDATION_FAILED VK_ERROR_VALIDATION_FAILED_EXT
#endif

/* Vulkan 1.4 core names of the maintenance5 flag types. */
#ifndef VK_VERSION_1_4
typedef VkFlags64 VkPipelineCreateFlags2;
typedef VkFlags64 VkPipelineCreateFlagBits2;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DISABLE_OPTIMIZATION_BIT =
    0x00000001ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_ALLOW_DERIVATIVES_BIT = 0x00000002ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DERIVATIVE_BIT = 0x00000004ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_VIEW_INDEX_FROM_DEVICE_INDEX_BIT =
    0x00000008ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DISPATCH_BASE_BIT = 0x00000010ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT =
    0x00000100ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT =
    0x00000200ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_NO_PROTECTED_ACCESS_BIT = 0x08000000ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_PROTECTED_ACCESS_ONLY_BIT =
    0x40000000ULL;

typedef VkFlags64 VkBufferUsageFlags2;
typedef VkFlags64 VkBufferUsageFlagBits2;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_TRANSFER_SRC_BIT = 0x00000001ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_TRANSFER_DST_BIT = 0x00000002ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_UNIFORM_TEXEL_BUFFER_BIT = 0x00000004ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_STORAGE_TEXEL_BUFFER_BIT = 0x00000008ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_UNIFORM_BUFFER_BIT = 0x00000010ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_STORAGE_BUFFER_BIT = 0x00000020ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_INDEX_BUFFER_BIT = 0x00000040ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_VERTEX_BUFFER_BIT = 0x00000080ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_INDIRECT_BUFFER_BIT = 0x00000100ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_SHADER_DEVICE_ADDRESS_BIT = 0x00020000ULL;
#endif /* VK_VERSION_1_4 */

/* VK_KHR_maintenance5 spellings of the same types and bits. */
#ifndef VK_KHR_maintenance5
typedef VkPipelineCreateFlags2 VkPipelineCreateFlags2KHR;
typedef VkPipelineCreateFlagBits2 VkPipelineCreateFlagBits2KHR;
typedef VkBufferUsageFlags2 VkBufferUsageFlags2KHR;
typedef VkBufferUsageFlagBits2 VkBufferUsageFlagBits2KHR;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DISABLE_OPTIMIZATION_BIT_KHR =
    0x00000001ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_ALLOW_DERIVATIVES_BIT_KHR =
    0x00000002ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DERIVATIVE_BIT_KHR = 0x00000004ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_VIEW_INDEX_FROM_DEVICE_INDEX_BIT_KHR =
    0x00000008ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DISPATCH_BASE_BIT_KHR = 0x00000010ULL;
static const VkPipelineCreateFlagBits2
    VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT_KHR = 0x00000100ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT_KHR =
    0x00000200ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_TRANSFER_SRC_BIT_KHR = 0x00000001ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_TRANSFER_DST_BIT_KHR = 0x00000002ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_UNIFORM_TEXEL_BUFFER_BIT_KHR = 0x00000004ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_STORAGE_TEXEL_BUFFER_BIT_KHR = 0x00000008ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_UNIFORM_BUFFER_BIT_KHR = 0x00000010ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_STORAGE_BUFFER_BIT_KHR = 0x00000020ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_INDEX_BUFFER_BIT_KHR = 0x00000040ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_VERTEX_BUFFER_BIT_KHR = 0x00000080ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_INDIRECT_BUFFER_BIT_KHR = 0x00000100ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_SHADER_DEVICE_ADDRESS_BIT_KHR = 0x00020000ULL;
#endif /* VK_KHR_maintenance5 */

/*
 * The three pipeline-create bits a data-graph pipeline may use besides the core ones
 * (VUID-VkDataGraphPipelineCreateInfoARM-flags-09764). Header 1.3.260, the first with
 * maintenance5, spelled them with _KHR; the _EXT names exist from 1.3.261 on.
 */
#if !defined(VK_KHR_maintenance5) || VK_HEADER_VERSION < 261
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_NO_PROTECTED_ACCESS_BIT_EXT =
    0x08000000ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT =
    0x20000000ULL;
static const VkPipelineCreateFlagBits2 VK_PIPELINE_CREATE_2_PROTECTED_ACCESS_ONLY_BIT_EXT =
    0x40000000ULL;
#endif

/*
 * VK_KHR_extended_flags (header 1.4.353): VkImageUsageFlags2KHR. Only the bit VK_ARM_tensors
 * adds is provided here.
 */
#ifndef VK_KHR_extended_flags
typedef VkFlags64 VkImageUsageFlags2KHR;
typedef VkFlags64 VkImageUsageFlagBits2KHR;
static const VkImageUsageFlagBits2KHR VK_IMAGE_USAGE_2_TENSOR_ALIASING_BIT_ARM = 0x00800000ULL;
#endif

/*
 * The registry only spells the 64-bit image usage type with the KHR suffix. Un-suffixed names
 * for our own code; repeating an identical typedef is valid C11 should a later core version add
 * them.
 */
typedef VkFlags64 VkImageUsageFlags2;
typedef VkFlags64 VkImageUsageFlagBits2;

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_tensors (extension 461)                                                             */
/* ------------------------------------------------------------------------------------------ */

#ifndef VK_ARM_tensors
#define VK_ARM_tensors 1
/* Our own block defines the ARM enum types with every ARM extension's values. */
#define VMEL_ARM_ML_LOCAL_TENSORS 1
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkTensorARM)
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkTensorViewARM)
#define VK_ARM_TENSORS_SPEC_VERSION 2
#define VK_ARM_TENSORS_EXTENSION_NAME "VK_ARM_tensors"

#define VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM ((VkStructureType)1000460000)
#define VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM ((VkStructureType)1000460001)
#define VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM ((VkStructureType)1000460002)
#define VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM ((VkStructureType)1000460003)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM ((VkStructureType)1000460004)
#define VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM ((VkStructureType)1000460005)
#define VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM ((VkStructureType)1000460006)
#define VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM ((VkStructureType)1000460007)
#define VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM ((VkStructureType)1000460008)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM ((VkStructureType)1000460009)
#define VK_STRUCTURE_TYPE_DEVICE_TENSOR_MEMORY_REQUIREMENTS_ARM ((VkStructureType)1000460010)
#define VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM ((VkStructureType)1000460011)
#define VK_STRUCTURE_TYPE_TENSOR_COPY_ARM ((VkStructureType)1000460012)
#define VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM ((VkStructureType)1000460013)
#define VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM ((VkStructureType)1000460014)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_TENSOR_INFO_ARM ((VkStructureType)1000460015)
#define VK_STRUCTURE_TYPE_EXTERNAL_TENSOR_PROPERTIES_ARM ((VkStructureType)1000460016)
#define VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM ((VkStructureType)1000460017)
/* With VK_EXT_descriptor_buffer. */
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM                    \
   ((VkStructureType)1000460018)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM                  \
   ((VkStructureType)1000460019)
#define VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM ((VkStructureType)1000460020)
#define VK_STRUCTURE_TYPE_TENSOR_CAPTURE_DESCRIPTOR_DATA_INFO_ARM ((VkStructureType)1000460021)
#define VK_STRUCTURE_TYPE_TENSOR_VIEW_CAPTURE_DESCRIPTOR_DATA_INFO_ARM ((VkStructureType)1000460022)
/* With VK_EXT_frame_boundary. */
#define VK_STRUCTURE_TYPE_FRAME_BOUNDARY_TENSORS_ARM ((VkStructureType)1000460023)

#define VK_OBJECT_TYPE_TENSOR_ARM ((VkObjectType)1000460000)
#define VK_OBJECT_TYPE_TENSOR_VIEW_ARM ((VkObjectType)1000460001)
#define VK_DESCRIPTOR_TYPE_TENSOR_ARM ((VkDescriptorType)1000460000)
#define VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM ((VkImageLayout)1000460000)
#define VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM ((VkImageUsageFlagBits)0x00800000)

#define VK_FORMAT_R8_BOOL_ARM ((VkFormat)1000460000)
/* With VK_KHR_shader_bfloat16 / VK_EXT_shader_float8 (spec version 2). */
#define VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM ((VkFormat)1000460001)
#define VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM ((VkFormat)1000460002)
#define VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM ((VkFormat)1000460003)

static const VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM = 0x8000000000ULL;
static const VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM =
    0x80000000000ULL;

typedef enum VkTensorTilingARM {
   VK_TENSOR_TILING_OPTIMAL_ARM = 0,
   VK_TENSOR_TILING_LINEAR_ARM = 1,
   /* VK_ARM_tensor_controls */
   VK_TENSOR_TILING_BRICK_16_WIDE_ARM = 1000565000,
   VK_TENSOR_TILING_BRICK_8_WIDE_ARM = 1000565001,
   VK_TENSOR_TILING_BRICK_4_WIDE_ARM = 1000565002,
   VK_TENSOR_TILING_BLOCK_U_INTERLEAVED_ARM = 1000565003,
   VK_TENSOR_TILING_BLOCK_U_INTERLEAVED_64K_ARM = 1000565004,
   VK_TENSOR_TILING_MAX_ENUM_ARM = 0x7FFFFFFF
} VkTensorTilingARM;

typedef VkFlags64 VkTensorCreateFlagsARM;
typedef VkFlags64 VkTensorCreateFlagBitsARM;
static const VkTensorCreateFlagBitsARM VK_TENSOR_CREATE_MUTABLE_FORMAT_BIT_ARM = 0x00000001ULL;
static const VkTensorCreateFlagBitsARM VK_TENSOR_CREATE_PROTECTED_BIT_ARM = 0x00000002ULL;
/* VK_EXT_descriptor_buffer */
static const VkTensorCreateFlagBitsARM VK_TENSOR_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM =
    0x00000004ULL;
/* VK_EXT_descriptor_heap */
static const VkTensorCreateFlagBitsARM VK_TENSOR_CREATE_DESCRIPTOR_HEAP_CAPTURE_REPLAY_BIT_ARM =
    0x00000008ULL;

typedef VkFlags64 VkTensorViewCreateFlagsARM;
typedef VkFlags64 VkTensorViewCreateFlagBitsARM;
/* VK_EXT_descriptor_buffer */
static const VkTensorViewCreateFlagBitsARM
    VK_TENSOR_VIEW_CREATE_DESCRIPTOR_BUFFER_CAPTURE_REPLAY_BIT_ARM = 0x00000001ULL;

typedef VkFlags64 VkTensorUsageFlagsARM;
typedef VkFlags64 VkTensorUsageFlagBitsARM;
static const VkTensorUsageFlagBitsARM VK_TENSOR_USAGE_SHADER_BIT_ARM = 0x00000002ULL;
static const VkTensorUsageFlagBitsARM VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM = 0x00000004ULL;
static const VkTensorUsageFlagBitsARM VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM = 0x00000008ULL;
static const VkTensorUsageFlagBitsARM VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM = 0x00000010ULL;
/* VK_ARM_data_graph */
static const VkTensorUsageFlagBitsARM VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM = 0x00000020ULL;

typedef struct VkTensorDescriptionARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorTilingARM tiling;
   VkFormat format;
   uint32_t dimensionCount;
   const int64_t *pDimensions;
   const int64_t *pStrides;
   VkTensorUsageFlagsARM usage;
} VkTensorDescriptionARM;

typedef struct VkTensorCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorCreateFlagsARM flags;
   const VkTensorDescriptionARM *pDescription;
   VkSharingMode sharingMode;
   uint32_t queueFamilyIndexCount;
   const uint32_t *pQueueFamilyIndices;
} VkTensorCreateInfoARM;

typedef struct VkTensorViewCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorViewCreateFlagsARM flags;
   VkTensorARM tensor;
   VkFormat format;
} VkTensorViewCreateInfoARM;

typedef struct VkTensorMemoryRequirementsInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorARM tensor;
} VkTensorMemoryRequirementsInfoARM;

typedef struct VkBindTensorMemoryInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkDeviceSize memoryOffset;
} VkBindTensorMemoryInfoARM;

typedef struct VkWriteDescriptorSetTensorARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t tensorViewCount;
   const VkTensorViewARM *pTensorViews;
} VkWriteDescriptorSetTensorARM;

typedef struct VkTensorFormatPropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkFormatFeatureFlags2 optimalTilingTensorFeatures;
   VkFormatFeatureFlags2 linearTilingTensorFeatures;
} VkTensorFormatPropertiesARM;

typedef struct VkPhysicalDeviceTensorPropertiesARM {
   VkStructureType sType;
   void *pNext;
   uint32_t maxTensorDimensionCount;
   uint64_t maxTensorElements;
   uint64_t maxPerDimensionTensorElements;
   int64_t maxTensorStride;
   uint64_t maxTensorSize;
   uint32_t maxTensorShaderAccessArrayLength;
   uint32_t maxTensorShaderAccessSize;
   uint32_t maxDescriptorSetStorageTensors;
   uint32_t maxPerStageDescriptorSetStorageTensors;
   uint32_t maxDescriptorSetUpdateAfterBindStorageTensors;
   uint32_t maxPerStageDescriptorUpdateAfterBindStorageTensors;
   VkBool32 shaderStorageTensorArrayNonUniformIndexingNative;
   VkShaderStageFlags shaderTensorSupportedStages;
} VkPhysicalDeviceTensorPropertiesARM;

typedef struct VkTensorMemoryBarrierARM {
   VkStructureType sType;
   const void *pNext;
   VkPipelineStageFlags2 srcStageMask;
   VkAccessFlags2 srcAccessMask;
   VkPipelineStageFlags2 dstStageMask;
   VkAccessFlags2 dstAccessMask;
   uint32_t srcQueueFamilyIndex;
   uint32_t dstQueueFamilyIndex;
   VkTensorARM tensor;
} VkTensorMemoryBarrierARM;

typedef struct VkTensorDependencyInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t tensorMemoryBarrierCount;
   const VkTensorMemoryBarrierARM *pTensorMemoryBarriers;
} VkTensorDependencyInfoARM;

typedef struct VkPhysicalDeviceTensorFeaturesARM {
   VkStructureType sType;
   void *pNext;
   VkBool32 tensorNonPacked;
   VkBool32 shaderTensorAccess;
   VkBool32 shaderStorageTensorArrayDynamicIndexing;
   VkBool32 shaderStorageTensorArrayNonUniformIndexing;
   VkBool32 descriptorBindingStorageTensorUpdateAfterBind;
   VkBool32 tensors;
} VkPhysicalDeviceTensorFeaturesARM;

typedef struct VkDeviceTensorMemoryRequirementsARM {
   VkStructureType sType;
   const void *pNext;
   const VkTensorCreateInfoARM *pCreateInfo;
} VkDeviceTensorMemoryRequirementsARM;

typedef struct VkTensorCopyARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t dimensionCount;
   const uint64_t *pSrcOffset;
   const uint64_t *pDstOffset;
   const uint64_t *pExtent;
} VkTensorCopyARM;

typedef struct VkCopyTensorInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorARM srcTensor;
   VkTensorARM dstTensor;
   uint32_t regionCount;
   const VkTensorCopyARM *pRegions;
} VkCopyTensorInfoARM;

typedef struct VkMemoryDedicatedAllocateInfoTensorARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorARM tensor;
} VkMemoryDedicatedAllocateInfoTensorARM;

typedef struct VkPhysicalDeviceExternalTensorInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorCreateFlagsARM flags;
   const VkTensorDescriptionARM *pDescription;
   VkExternalMemoryHandleTypeFlagBits handleType;
} VkPhysicalDeviceExternalTensorInfoARM;

typedef struct VkExternalTensorPropertiesARM {
   VkStructureType sType;
   const void *pNext;
   VkExternalMemoryProperties externalMemoryProperties;
} VkExternalTensorPropertiesARM;

typedef struct VkExternalMemoryTensorCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkExternalMemoryHandleTypeFlags handleTypes;
} VkExternalMemoryTensorCreateInfoARM;

/* With VK_EXT_descriptor_buffer. */
typedef struct VkPhysicalDeviceDescriptorBufferTensorFeaturesARM {
   VkStructureType sType;
   void *pNext;
   VkBool32 descriptorBufferTensorDescriptors;
} VkPhysicalDeviceDescriptorBufferTensorFeaturesARM;

typedef struct VkPhysicalDeviceDescriptorBufferTensorPropertiesARM {
   VkStructureType sType;
   void *pNext;
   size_t tensorCaptureReplayDescriptorDataSize;
   size_t tensorViewCaptureReplayDescriptorDataSize;
   size_t tensorDescriptorSize;
} VkPhysicalDeviceDescriptorBufferTensorPropertiesARM;

typedef struct VkDescriptorGetTensorInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorViewARM tensorView;
} VkDescriptorGetTensorInfoARM;

typedef struct VkTensorCaptureDescriptorDataInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorARM tensor;
} VkTensorCaptureDescriptorDataInfoARM;

typedef struct VkTensorViewCaptureDescriptorDataInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkTensorViewARM tensorView;
} VkTensorViewCaptureDescriptorDataInfoARM;

/* With VK_EXT_frame_boundary. */
typedef struct VkFrameBoundaryTensorsARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t tensorCount;
   const VkTensorARM *pTensors;
} VkFrameBoundaryTensorsARM;

typedef VkResult(VKAPI_PTR *PFN_vkCreateTensorARM)(VkDevice device,
                                                   const VkTensorCreateInfoARM *pCreateInfo,
                                                   const VkAllocationCallbacks *pAllocator,
                                                   VkTensorARM *pTensor);
typedef void(VKAPI_PTR *PFN_vkDestroyTensorARM)(VkDevice device, VkTensorARM tensor,
                                                const VkAllocationCallbacks *pAllocator);
typedef VkResult(VKAPI_PTR *PFN_vkCreateTensorViewARM)(VkDevice device,
                                                       const VkTensorViewCreateInfoARM *pCreateInfo,
                                                       const VkAllocationCallbacks *pAllocator,
                                                       VkTensorViewARM *pView);
typedef void(VKAPI_PTR *PFN_vkDestroyTensorViewARM)(VkDevice device, VkTensorViewARM tensorView,
                                                    const VkAllocationCallbacks *pAllocator);
typedef void(VKAPI_PTR *PFN_vkGetTensorMemoryRequirementsARM)(
    VkDevice device, const VkTensorMemoryRequirementsInfoARM *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements);
typedef VkResult(VKAPI_PTR *PFN_vkBindTensorMemoryARM)(VkDevice device, uint32_t bindInfoCount,
                                                       const VkBindTensorMemoryInfoARM *pBindInfos);
typedef void(VKAPI_PTR *PFN_vkGetDeviceTensorMemoryRequirementsARM)(
    VkDevice device, const VkDeviceTensorMemoryRequirementsARM *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements);
typedef void(VKAPI_PTR *PFN_vkCmdCopyTensorARM)(VkCommandBuffer commandBuffer,
                                                const VkCopyTensorInfoARM *pCopyTensorInfo);
typedef void(VKAPI_PTR *PFN_vkGetPhysicalDeviceExternalTensorPropertiesARM)(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceExternalTensorInfoARM *pExternalTensorInfo,
    VkExternalTensorPropertiesARM *pExternalTensorProperties);
typedef VkResult(VKAPI_PTR *PFN_vkGetTensorOpaqueCaptureDescriptorDataARM)(
    VkDevice device, const VkTensorCaptureDescriptorDataInfoARM *pInfo, void *pData);
typedef VkResult(VKAPI_PTR *PFN_vkGetTensorViewOpaqueCaptureDescriptorDataARM)(
    VkDevice device, const VkTensorViewCaptureDescriptorDataInfoARM *pInfo, void *pData);

#ifndef VK_NO_PROTOTYPES
VKAPI_ATTR VkResult VKAPI_CALL vkCreateTensorARM(VkDevice device,
                                                 const VkTensorCreateInfoARM *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkTensorARM *pTensor);
VKAPI_ATTR void VKAPI_CALL vkDestroyTensorARM(VkDevice device, VkTensorARM tensor,
                                              const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL vkCreateTensorViewARM(VkDevice device,
                                                     const VkTensorViewCreateInfoARM *pCreateInfo,
                                                     const VkAllocationCallbacks *pAllocator,
                                                     VkTensorViewARM *pView);
VKAPI_ATTR void VKAPI_CALL vkDestroyTensorViewARM(VkDevice device, VkTensorViewARM tensorView,
                                                  const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR void VKAPI_CALL
vkGetTensorMemoryRequirementsARM(VkDevice device, const VkTensorMemoryRequirementsInfoARM *pInfo,
                                 VkMemoryRequirements2 *pMemoryRequirements);
VKAPI_ATTR VkResult VKAPI_CALL vkBindTensorMemoryARM(VkDevice device, uint32_t bindInfoCount,
                                                     const VkBindTensorMemoryInfoARM *pBindInfos);
VKAPI_ATTR void VKAPI_CALL vkGetDeviceTensorMemoryRequirementsARM(
    VkDevice device, const VkDeviceTensorMemoryRequirementsARM *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements);
VKAPI_ATTR void VKAPI_CALL vkCmdCopyTensorARM(VkCommandBuffer commandBuffer,
                                              const VkCopyTensorInfoARM *pCopyTensorInfo);
VKAPI_ATTR void VKAPI_CALL vkGetPhysicalDeviceExternalTensorPropertiesARM(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceExternalTensorInfoARM *pExternalTensorInfo,
    VkExternalTensorPropertiesARM *pExternalTensorProperties);
VKAPI_ATTR VkResult VKAPI_CALL vkGetTensorOpaqueCaptureDescriptorDataARM(
    VkDevice device, const VkTensorCaptureDescriptorDataInfoARM *pInfo, void *pData);
VKAPI_ATTR VkResult VKAPI_CALL vkGetTensorViewOpaqueCaptureDescriptorDataARM(
    VkDevice device, const VkTensorViewCaptureDescriptorDataInfoARM *pInfo, void *pData);
#endif /* VK_NO_PROTOTYPES */
#endif /* VK_ARM_tensors */

/* System headers 1.4.317-1.4.342 carry VK_ARM_tensors spec version 1, without these formats. */
#if VK_ARM_TENSORS_SPEC_VERSION < 2
#define VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM ((VkFormat)1000460001)
#define VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM ((VkFormat)1000460002)
#define VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM ((VkFormat)1000460003)
#endif

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_data_graph (extension 508)                                                          */
/* ------------------------------------------------------------------------------------------ */

#ifndef VK_ARM_data_graph
#define VK_ARM_data_graph 1
/* Our own block defines the ARM enum types with every ARM extension's values. */
#define VMEL_ARM_ML_LOCAL_DATA_GRAPH 1
VK_DEFINE_NON_DISPATCHABLE_HANDLE(VkDataGraphPipelineSessionARM)
#define VK_ARM_DATA_GRAPH_SPEC_VERSION 1
#define VK_ARM_DATA_GRAPH_EXTENSION_NAME "VK_ARM_data_graph"
#ifndef VK_MAX_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_SET_NAME_SIZE_ARM
#define VK_MAX_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_SET_NAME_SIZE_ARM 128U
#endif

#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM ((VkStructureType)1000507000)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM ((VkStructureType)1000507001)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM ((VkStructureType)1000507002)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM ((VkStructureType)1000507003)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM                 \
   ((VkStructureType)1000507004)
#define VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM                         \
   ((VkStructureType)1000507005)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM ((VkStructureType)1000507006)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM                        \
   ((VkStructureType)1000507007)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM                            \
   ((VkStructureType)1000507008)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM ((VkStructureType)1000507009)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_COMPILER_CONTROL_CREATE_INFO_ARM                     \
   ((VkStructureType)1000507010)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM             \
   ((VkStructureType)1000507011)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM                   \
   ((VkStructureType)1000507012)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_IDENTIFIER_CREATE_INFO_ARM                           \
   ((VkStructureType)1000507013)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_DISPATCH_INFO_ARM ((VkStructureType)1000507014)
/* With VK_ARM_tensors. */
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_TENSOR_SEMI_STRUCTURED_SPARSITY_INFO_ARM    \
   ((VkStructureType)1000507015)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PROCESSING_ENGINE_CREATE_INFO_ARM ((VkStructureType)1000507016)
#define VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_PROPERTIES_ARM                 \
   ((VkStructureType)1000507017)
#define VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM ((VkStructureType)1000507018)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_INFO_ARM       \
   ((VkStructureType)1000507019)

#define VK_OBJECT_TYPE_DATA_GRAPH_PIPELINE_SESSION_ARM ((VkObjectType)1000507000)
#define VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM ((VkPipelineBindPoint)1000507000)
#define VK_QUEUE_DATA_GRAPH_BIT_ARM ((VkQueueFlagBits)0x00000400)

static const VkPipelineStageFlagBits2 VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM = 0x40000000000ULL;
static const VkAccessFlagBits2 VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM = 0x800000000000ULL;
static const VkAccessFlagBits2 VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM = 0x1000000000000ULL;
static const VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM =
    0x1000000000000ULL;
static const VkBufferUsageFlagBits2 VK_BUFFER_USAGE_2_DATA_GRAPH_FOREIGN_DESCRIPTOR_BIT_ARM =
    0x20000000ULL;
#ifndef VMEL_ARM_ML_LOCAL_TENSORS
/* The system's VK_ARM_tensors predates VK_ARM_data_graph (headers 1.4.317-1.4.318). */
static const VkTensorUsageFlagBitsARM VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM = 0x00000020ULL;
#endif

typedef enum VkDataGraphPipelineSessionBindPointARM {
   VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM = 0,
   /* VK_ARM_data_graph_optical_flow */
   VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM = 1000631001,
   /* VK_ARM_data_graph_neural_accelerator_statistics */
   VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_NEURAL_ACCELERATOR_STATISTICS_ARM = 1000676000,
   VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphPipelineSessionBindPointARM;

typedef enum VkDataGraphPipelineSessionBindPointTypeARM {
   VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MEMORY_ARM = 0,
   VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TYPE_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphPipelineSessionBindPointTypeARM;

typedef enum VkDataGraphPipelinePropertyARM {
   VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM = 0,
   VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM = 1,
   /* VK_ARM_data_graph_neural_accelerator_statistics */
   VK_DATA_GRAPH_PIPELINE_PROPERTY_NEURAL_ACCELERATOR_DEBUG_DATABASE_ARM = 1000676000,
   VK_DATA_GRAPH_PIPELINE_PROPERTY_NEURAL_ACCELERATOR_STATISTICS_INFO_ARM = 1000676001,
   VK_DATA_GRAPH_PIPELINE_PROPERTY_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphPipelinePropertyARM;

typedef enum VkPhysicalDeviceDataGraphProcessingEngineTypeARM {
   VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM = 0,
   /* VK_QCOM_data_graph_model */
   VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_NEURAL_QCOM = 1000629000,
   VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_COMPUTE_QCOM = 1000629001,
   VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_MAX_ENUM_ARM = 0x7FFFFFFF
} VkPhysicalDeviceDataGraphProcessingEngineTypeARM;

typedef enum VkPhysicalDeviceDataGraphOperationTypeARM {
   VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM = 0,
   /* VK_QCOM_data_graph_model */
   VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_NEURAL_MODEL_QCOM = 1000629000,
   VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_BUILTIN_MODEL_QCOM = 1000629001,
   /* VK_ARM_data_graph_optical_flow */
   VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM = 1000631000,
   VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_MAX_ENUM_ARM = 0x7FFFFFFF
} VkPhysicalDeviceDataGraphOperationTypeARM;

typedef VkFlags64 VkDataGraphPipelineSessionCreateFlagsARM;
typedef VkFlags64 VkDataGraphPipelineSessionCreateFlagBitsARM;
static const VkDataGraphPipelineSessionCreateFlagBitsARM
    VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_PROTECTED_BIT_ARM = 0x00000001ULL;
/* VK_ARM_data_graph_optical_flow */
static const VkDataGraphPipelineSessionCreateFlagBitsARM
    VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM = 0x00000002ULL;

/* No bits defined yet. */
typedef VkFlags64 VkDataGraphPipelineDispatchFlagsARM;
typedef VkFlags64 VkDataGraphPipelineDispatchFlagBitsARM;

typedef struct VkPhysicalDeviceDataGraphFeaturesARM {
   VkStructureType sType;
   void *pNext;
   VkBool32 dataGraph;
   VkBool32 dataGraphUpdateAfterBind;
   VkBool32 dataGraphSpecializationConstants;
   VkBool32 dataGraphDescriptorBuffer;
   VkBool32 dataGraphShaderModule;
} VkPhysicalDeviceDataGraphFeaturesARM;

typedef struct VkDataGraphPipelineConstantARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t id;
   const void *pConstantData;
} VkDataGraphPipelineConstantARM;

typedef struct VkDataGraphPipelineResourceInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t descriptorSet;
   uint32_t binding;
   uint32_t arrayElement;
} VkDataGraphPipelineResourceInfoARM;

typedef struct VkDataGraphPipelineCompilerControlCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   const char *pVendorOptions;
} VkDataGraphPipelineCompilerControlCreateInfoARM;

typedef struct VkDataGraphPipelineCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkPipelineCreateFlags2 flags;
   VkPipelineLayout layout;
   uint32_t resourceInfoCount;
   const VkDataGraphPipelineResourceInfoARM *pResourceInfos;
} VkDataGraphPipelineCreateInfoARM;

typedef struct VkDataGraphPipelineShaderModuleCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkShaderModule module;
   const char *pName;
   const VkSpecializationInfo *pSpecializationInfo;
   uint32_t constantCount;
   const VkDataGraphPipelineConstantARM *pConstants;
} VkDataGraphPipelineShaderModuleCreateInfoARM;

typedef struct VkDataGraphPipelineSessionCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkDataGraphPipelineSessionCreateFlagsARM flags;
   VkPipeline dataGraphPipeline;
} VkDataGraphPipelineSessionCreateInfoARM;

typedef struct VkDataGraphPipelineSessionBindPointRequirementsInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkDataGraphPipelineSessionARM session;
} VkDataGraphPipelineSessionBindPointRequirementsInfoARM;

typedef struct VkDataGraphPipelineSessionBindPointRequirementARM {
   VkStructureType sType;
   void *pNext;
   VkDataGraphPipelineSessionBindPointARM bindPoint;
   VkDataGraphPipelineSessionBindPointTypeARM bindPointType;
   uint32_t numObjects;
} VkDataGraphPipelineSessionBindPointRequirementARM;

typedef struct VkDataGraphPipelineSessionMemoryRequirementsInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkDataGraphPipelineSessionARM session;
   VkDataGraphPipelineSessionBindPointARM bindPoint;
   uint32_t objectIndex;
} VkDataGraphPipelineSessionMemoryRequirementsInfoARM;

typedef struct VkBindDataGraphPipelineSessionMemoryInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkDataGraphPipelineSessionARM session;
   VkDataGraphPipelineSessionBindPointARM bindPoint;
   uint32_t objectIndex;
   VkDeviceMemory memory;
   VkDeviceSize memoryOffset;
} VkBindDataGraphPipelineSessionMemoryInfoARM;

typedef struct VkDataGraphPipelineInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkPipeline dataGraphPipeline;
} VkDataGraphPipelineInfoARM;

typedef struct VkDataGraphPipelinePropertyQueryResultARM {
   VkStructureType sType;
   void *pNext;
   VkDataGraphPipelinePropertyARM property;
   VkBool32 isText;
   size_t dataSize;
   void *pData;
} VkDataGraphPipelinePropertyQueryResultARM;

typedef struct VkDataGraphPipelineIdentifierCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t identifierSize;
   const uint8_t *pIdentifier;
} VkDataGraphPipelineIdentifierCreateInfoARM;

typedef struct VkDataGraphPipelineDispatchInfoARM {
   VkStructureType sType;
   void *pNext;
   VkDataGraphPipelineDispatchFlagsARM flags;
} VkDataGraphPipelineDispatchInfoARM;

typedef struct VkPhysicalDeviceDataGraphProcessingEngineARM {
   VkPhysicalDeviceDataGraphProcessingEngineTypeARM type;
   VkBool32 isForeign;
} VkPhysicalDeviceDataGraphProcessingEngineARM;

typedef struct VkPhysicalDeviceDataGraphOperationSupportARM {
   VkPhysicalDeviceDataGraphOperationTypeARM operationType;
   char name[VK_MAX_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_SET_NAME_SIZE_ARM];
   uint32_t version;
} VkPhysicalDeviceDataGraphOperationSupportARM;

typedef struct VkQueueFamilyDataGraphPropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkPhysicalDeviceDataGraphProcessingEngineARM engine;
   VkPhysicalDeviceDataGraphOperationSupportARM operation;
} VkQueueFamilyDataGraphPropertiesARM;

typedef struct VkDataGraphProcessingEngineCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t processingEngineCount;
   VkPhysicalDeviceDataGraphProcessingEngineARM *pProcessingEngines;
} VkDataGraphProcessingEngineCreateInfoARM;

typedef struct VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t queueFamilyIndex;
   VkPhysicalDeviceDataGraphProcessingEngineTypeARM engineType;
} VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM;

typedef struct VkQueueFamilyDataGraphProcessingEnginePropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkExternalSemaphoreHandleTypeFlags foreignSemaphoreHandleTypes;
   VkExternalMemoryHandleTypeFlags foreignMemoryHandleTypes;
} VkQueueFamilyDataGraphProcessingEnginePropertiesARM;

/* With VK_ARM_tensors. */
typedef struct VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t dimension;
   uint32_t zeroCount;
   uint32_t groupSize;
} VkDataGraphPipelineConstantTensorSemiStructuredSparsityInfoARM;

typedef VkResult(VKAPI_PTR *PFN_vkCreateDataGraphPipelinesARM)(
    VkDevice device, VkDeferredOperationKHR deferredOperation, VkPipelineCache pipelineCache,
    uint32_t createInfoCount, const VkDataGraphPipelineCreateInfoARM *pCreateInfos,
    const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines);
typedef VkResult(VKAPI_PTR *PFN_vkCreateDataGraphPipelineSessionARM)(
    VkDevice device, const VkDataGraphPipelineSessionCreateInfoARM *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDataGraphPipelineSessionARM *pSession);
typedef VkResult(VKAPI_PTR *PFN_vkGetDataGraphPipelineSessionBindPointRequirementsARM)(
    VkDevice device, const VkDataGraphPipelineSessionBindPointRequirementsInfoARM *pInfo,
    uint32_t *pBindPointRequirementCount,
    VkDataGraphPipelineSessionBindPointRequirementARM *pBindPointRequirements);
typedef void(VKAPI_PTR *PFN_vkGetDataGraphPipelineSessionMemoryRequirementsARM)(
    VkDevice device, const VkDataGraphPipelineSessionMemoryRequirementsInfoARM *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements);
typedef VkResult(VKAPI_PTR *PFN_vkBindDataGraphPipelineSessionMemoryARM)(
    VkDevice device, uint32_t bindInfoCount,
    const VkBindDataGraphPipelineSessionMemoryInfoARM *pBindInfos);
typedef void(VKAPI_PTR *PFN_vkDestroyDataGraphPipelineSessionARM)(
    VkDevice device, VkDataGraphPipelineSessionARM session,
    const VkAllocationCallbacks *pAllocator);
typedef void(VKAPI_PTR *PFN_vkCmdDispatchDataGraphARM)(
    VkCommandBuffer commandBuffer, VkDataGraphPipelineSessionARM session,
    const VkDataGraphPipelineDispatchInfoARM *pInfo);
typedef VkResult(VKAPI_PTR *PFN_vkGetDataGraphPipelineAvailablePropertiesARM)(
    VkDevice device, const VkDataGraphPipelineInfoARM *pPipelineInfo, uint32_t *pPropertiesCount,
    VkDataGraphPipelinePropertyARM *pProperties);
typedef VkResult(VKAPI_PTR *PFN_vkGetDataGraphPipelinePropertiesARM)(
    VkDevice device, const VkDataGraphPipelineInfoARM *pPipelineInfo, uint32_t propertiesCount,
    VkDataGraphPipelinePropertyQueryResultARM *pProperties);
typedef VkResult(VKAPI_PTR *PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
    uint32_t *pQueueFamilyDataGraphPropertyCount,
    VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties);
typedef void(VKAPI_PTR *PFN_vkGetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM)(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM
        *pQueueFamilyDataGraphProcessingEngineInfo,
    VkQueueFamilyDataGraphProcessingEnginePropertiesARM
        *pQueueFamilyDataGraphProcessingEngineProperties);

#ifndef VK_NO_PROTOTYPES
VKAPI_ATTR VkResult VKAPI_CALL vkCreateDataGraphPipelinesARM(
    VkDevice device, VkDeferredOperationKHR deferredOperation, VkPipelineCache pipelineCache,
    uint32_t createInfoCount, const VkDataGraphPipelineCreateInfoARM *pCreateInfos,
    const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines);
VKAPI_ATTR VkResult VKAPI_CALL vkCreateDataGraphPipelineSessionARM(
    VkDevice device, const VkDataGraphPipelineSessionCreateInfoARM *pCreateInfo,
    const VkAllocationCallbacks *pAllocator, VkDataGraphPipelineSessionARM *pSession);
VKAPI_ATTR VkResult VKAPI_CALL vkGetDataGraphPipelineSessionBindPointRequirementsARM(
    VkDevice device, const VkDataGraphPipelineSessionBindPointRequirementsInfoARM *pInfo,
    uint32_t *pBindPointRequirementCount,
    VkDataGraphPipelineSessionBindPointRequirementARM *pBindPointRequirements);
VKAPI_ATTR void VKAPI_CALL vkGetDataGraphPipelineSessionMemoryRequirementsARM(
    VkDevice device, const VkDataGraphPipelineSessionMemoryRequirementsInfoARM *pInfo,
    VkMemoryRequirements2 *pMemoryRequirements);
VKAPI_ATTR VkResult VKAPI_CALL vkBindDataGraphPipelineSessionMemoryARM(
    VkDevice device, uint32_t bindInfoCount,
    const VkBindDataGraphPipelineSessionMemoryInfoARM *pBindInfos);
VKAPI_ATTR void VKAPI_CALL
vkDestroyDataGraphPipelineSessionARM(VkDevice device, VkDataGraphPipelineSessionARM session,
                                     const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR void VKAPI_CALL
vkCmdDispatchDataGraphARM(VkCommandBuffer commandBuffer, VkDataGraphPipelineSessionARM session,
                          const VkDataGraphPipelineDispatchInfoARM *pInfo);
VKAPI_ATTR VkResult VKAPI_CALL vkGetDataGraphPipelineAvailablePropertiesARM(
    VkDevice device, const VkDataGraphPipelineInfoARM *pPipelineInfo, uint32_t *pPropertiesCount,
    VkDataGraphPipelinePropertyARM *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL vkGetDataGraphPipelinePropertiesARM(
    VkDevice device, const VkDataGraphPipelineInfoARM *pPipelineInfo, uint32_t propertiesCount,
    VkDataGraphPipelinePropertyQueryResultARM *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
    uint32_t *pQueueFamilyDataGraphPropertyCount,
    VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties);
VKAPI_ATTR void VKAPI_CALL vkGetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM(
    VkPhysicalDevice physicalDevice,
    const VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM
        *pQueueFamilyDataGraphProcessingEngineInfo,
    VkQueueFamilyDataGraphProcessingEnginePropertiesARM
        *pQueueFamilyDataGraphProcessingEngineProperties);
#endif /* VK_NO_PROTOTYPES */
#endif /* VK_ARM_data_graph */

/* The system's VK_ARM_data_graph predates VK_QCOM_data_graph_model (headers 1.4.319-1.4.331). */
#if !defined(VMEL_ARM_ML_LOCAL_DATA_GRAPH) && !defined(VK_QCOM_data_graph_model)
#define VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_NEURAL_QCOM                           \
   ((VkPhysicalDeviceDataGraphProcessingEngineTypeARM)1000629000)
#define VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_COMPUTE_QCOM                          \
   ((VkPhysicalDeviceDataGraphProcessingEngineTypeARM)1000629001)
#define VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_NEURAL_MODEL_QCOM                             \
   ((VkPhysicalDeviceDataGraphOperationTypeARM)1000629000)
#define VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_BUILTIN_MODEL_QCOM                            \
   ((VkPhysicalDeviceDataGraphOperationTypeARM)1000629001)
#endif

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_data_graph_instruction_set_tosa (extension 509)                                     */
/* ------------------------------------------------------------------------------------------ */

#ifndef VK_ARM_data_graph_instruction_set_tosa
#define VK_ARM_data_graph_instruction_set_tosa 1
#define VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_SPEC_VERSION 1
#define VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME                                      \
   "VK_ARM_data_graph_instruction_set_tosa"
#ifndef VK_MAX_DATA_GRAPH_TOSA_NAME_SIZE_ARM
#define VK_MAX_DATA_GRAPH_TOSA_NAME_SIZE_ARM 128U
#endif

#define VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM ((VkStructureType)1000508000)

typedef enum VkDataGraphTOSAQualityFlagBitsARM {
   VK_DATA_GRAPH_TOSA_QUALITY_ACCELERATED_ARM = 0x00000001,
   VK_DATA_GRAPH_TOSA_QUALITY_CONFORMANT_ARM = 0x00000002,
   VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM = 0x00000004,
   VK_DATA_GRAPH_TOSA_QUALITY_DEPRECATED_ARM = 0x00000008,
   VK_DATA_GRAPH_TOSAQUALITY_FLAG_BITS_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphTOSAQualityFlagBitsARM;
typedef VkFlags VkDataGraphTOSAQualityFlagsARM;

typedef enum VkDataGraphTOSALevelARM {
   VK_DATA_GRAPH_TOSA_LEVEL_NONE_ARM = 0,
   VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM = 1,
   VK_DATA_GRAPH_TOSALEVEL_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphTOSALevelARM;

typedef struct VkDataGraphTOSANameQualityARM {
   char name[VK_MAX_DATA_GRAPH_TOSA_NAME_SIZE_ARM];
   VkDataGraphTOSAQualityFlagsARM qualityFlags;
} VkDataGraphTOSANameQualityARM;

typedef struct VkQueueFamilyDataGraphTOSAPropertiesARM {
   VkStructureType sType;
   void *pNext;
   uint32_t profileCount;
   const VkDataGraphTOSANameQualityARM *pProfiles;
   uint32_t extensionCount;
   const VkDataGraphTOSANameQualityARM *pExtensions;
   VkDataGraphTOSALevelARM level;
} VkQueueFamilyDataGraphTOSAPropertiesARM;

/* Shared with VK_ARM_data_graph_optical_flow. */
typedef VkResult(
    VKAPI_PTR *PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
    const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
    VkBaseOutStructure *pProperties);

#ifndef VK_NO_PROTOTYPES
VKAPI_ATTR VkResult VKAPI_CALL vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
    const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
    VkBaseOutStructure *pProperties);
#endif /* VK_NO_PROTOTYPES */
#endif /* VK_ARM_data_graph_instruction_set_tosa */

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_data_graph_optical_flow (extension 632)                                             */
/* ------------------------------------------------------------------------------------------ */

#ifndef VK_ARM_data_graph_optical_flow
#define VK_ARM_data_graph_optical_flow 1
#define VK_ARM_DATA_GRAPH_OPTICAL_FLOW_SPEC_VERSION 1
#define VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME "VK_ARM_data_graph_optical_flow"

#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM                     \
   ((VkStructureType)1000631000)
#define VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM                      \
   ((VkStructureType)1000631001)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM                         \
   ((VkStructureType)1000631002)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM                            \
   ((VkStructureType)1000631003)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM                      \
   ((VkStructureType)1000631004)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_DISPATCH_INFO_ARM                       \
   ((VkStructureType)1000631005)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM                       \
   ((VkStructureType)1000631006)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM                          \
   ((VkStructureType)1000631007)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM                           \
   ((VkStructureType)1000631008)

static const VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM =
    0x100000000000000ULL;
static const VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_VECTOR_BIT_ARM =
    0x200000000000000ULL;
static const VkFormatFeatureFlagBits2 VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_COST_BIT_ARM =
    0x400000000000000ULL;

#ifndef VMEL_ARM_ML_LOCAL_DATA_GRAPH
/* Values for the system's VK_ARM_data_graph enums (headers 1.4.319-1.4.348). */
#define VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM                              \
   ((VkPhysicalDeviceDataGraphOperationTypeARM)1000631000)
#define VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_OPTICAL_FLOW_CACHE_ARM                           \
   ((VkDataGraphPipelineSessionBindPointARM)1000631001)
static const VkDataGraphPipelineSessionCreateFlagBitsARM
    VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM = 0x00000002ULL;
#endif

typedef enum VkDataGraphOpticalFlowImageUsageFlagBitsARM {
   VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_UNKNOWN_ARM = 0,
   VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM = 0x00000001,
   VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM = 0x00000002,
   VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM = 0x00000004,
   VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM = 0x00000008,
   VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_FLAG_BITS_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphOpticalFlowImageUsageFlagBitsARM;
typedef VkFlags VkDataGraphOpticalFlowImageUsageFlagsARM;

typedef enum VkDataGraphOpticalFlowCreateFlagBitsARM {
   VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM = 0x00000001,
   VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM = 0x00000002,
   VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_RESERVED_30_BIT_ARM = 0x40000000,
   VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_FLAG_BITS_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphOpticalFlowCreateFlagBitsARM;
typedef VkFlags VkDataGraphOpticalFlowCreateFlagsARM;

typedef enum VkDataGraphOpticalFlowPerformanceLevelARM {
   VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_UNKNOWN_ARM = 0,
   VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_SLOW_ARM = 1,
   VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM = 2,
   VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_FAST_ARM = 3,
   VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphOpticalFlowPerformanceLevelARM;

typedef enum VkDataGraphOpticalFlowGridSizeFlagBitsARM {
   VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_UNKNOWN_ARM = 0,
   VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_1X1_BIT_ARM = 0x00000001,
   VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_2X2_BIT_ARM = 0x00000002,
   VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_4X4_BIT_ARM = 0x00000004,
   VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_8X8_BIT_ARM = 0x00000008,
   VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_FLAG_BITS_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphOpticalFlowGridSizeFlagBitsARM;
typedef VkFlags VkDataGraphOpticalFlowGridSizeFlagsARM;

typedef enum VkDataGraphOpticalFlowExecuteFlagBitsARM {
   VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_DISABLE_TEMPORAL_HINTS_BIT_ARM = 0x00000001,
   VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_UNCHANGED_BIT_ARM = 0x00000002,
   VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_REFERENCE_UNCHANGED_BIT_ARM = 0x00000004,
   VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_INPUT_IS_PREVIOUS_REFERENCE_BIT_ARM = 0x00000008,
   VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_REFERENCE_IS_PREVIOUS_INPUT_BIT_ARM = 0x00000010,
   VK_DATA_GRAPH_OPTICAL_FLOW_EXECUTE_FLAG_BITS_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphOpticalFlowExecuteFlagBitsARM;
typedef VkFlags VkDataGraphOpticalFlowExecuteFlagsARM;

typedef enum VkDataGraphPipelineNodeTypeARM {
   VK_DATA_GRAPH_PIPELINE_NODE_TYPE_OPTICAL_FLOW_ARM = 1000631000,
   VK_DATA_GRAPH_PIPELINE_NODE_TYPE_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphPipelineNodeTypeARM;

typedef enum VkDataGraphPipelineNodeConnectionTypeARM {
   VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_INPUT_ARM = 1000631000,
   VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_REFERENCE_ARM = 1000631001,
   VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_HINT_ARM = 1000631002,
   VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_FLOW_VECTOR_ARM = 1000631003,
   VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_COST_ARM = 1000631004,
   VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_MAX_ENUM_ARM = 0x7FFFFFFF
} VkDataGraphPipelineNodeConnectionTypeARM;

typedef struct VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM {
   VkStructureType sType;
   void *pNext;
   VkBool32 dataGraphOpticalFlow;
} VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM;

typedef struct VkQueueFamilyDataGraphOpticalFlowPropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkDataGraphOpticalFlowGridSizeFlagsARM supportedOutputGridSizes;
   VkDataGraphOpticalFlowGridSizeFlagsARM supportedHintGridSizes;
   VkBool32 hintSupported;
   VkBool32 costSupported;
   uint32_t minWidth;
   uint32_t minHeight;
   uint32_t maxWidth;
   uint32_t maxHeight;
} VkQueueFamilyDataGraphOpticalFlowPropertiesARM;

typedef struct VkDataGraphPipelineOpticalFlowCreateInfoARM {
   VkStructureType sType;
   void *pNext;
   uint32_t width;
   uint32_t height;
   VkFormat imageFormat;
   VkFormat flowVectorFormat;
   VkFormat costFormat;
   VkDataGraphOpticalFlowGridSizeFlagsARM outputGridSize;
   VkDataGraphOpticalFlowGridSizeFlagsARM hintGridSize;
   VkDataGraphOpticalFlowPerformanceLevelARM performanceLevel;
   VkDataGraphOpticalFlowCreateFlagsARM flags;
} VkDataGraphPipelineOpticalFlowCreateInfoARM;

typedef struct VkDataGraphOpticalFlowImageFormatPropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkFormat format;
} VkDataGraphOpticalFlowImageFormatPropertiesARM;

typedef struct VkDataGraphOpticalFlowImageFormatInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkDataGraphOpticalFlowImageUsageFlagsARM usage;
} VkDataGraphOpticalFlowImageFormatInfoARM;

typedef struct VkDataGraphPipelineOpticalFlowDispatchInfoARM {
   VkStructureType sType;
   void *pNext;
   VkDataGraphOpticalFlowExecuteFlagsARM flags;
   uint32_t meanFlowL1NormHint;
} VkDataGraphPipelineOpticalFlowDispatchInfoARM;

typedef struct VkDataGraphPipelineResourceInfoImageLayoutARM {
   VkStructureType sType;
   const void *pNext;
   VkImageLayout layout;
} VkDataGraphPipelineResourceInfoImageLayoutARM;

typedef struct VkDataGraphPipelineSingleNodeConnectionARM {
   VkStructureType sType;
   void *pNext;
   uint32_t set;
   uint32_t binding;
   VkDataGraphPipelineNodeConnectionTypeARM connection;
} VkDataGraphPipelineSingleNodeConnectionARM;

typedef struct VkDataGraphPipelineSingleNodeCreateInfoARM {
   VkStructureType sType;
   void *pNext;
   VkDataGraphPipelineNodeTypeARM nodeType;
   uint32_t connectionCount;
   const VkDataGraphPipelineSingleNodeConnectionARM *pConnections;
} VkDataGraphPipelineSingleNodeCreateInfoARM;

typedef VkResult(VKAPI_PTR *PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM)(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
    const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
    const VkDataGraphOpticalFlowImageFormatInfoARM *pOpticalFlowImageFormatInfo,
    uint32_t *pFormatCount, VkDataGraphOpticalFlowImageFormatPropertiesARM *pImageFormatProperties);
/* vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM: see the TOSA block. */

#ifndef VK_NO_PROTOTYPES
VKAPI_ATTR VkResult VKAPI_CALL vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM(
    VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
    const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
    const VkDataGraphOpticalFlowImageFormatInfoARM *pOpticalFlowImageFormatInfo,
    uint32_t *pFormatCount, VkDataGraphOpticalFlowImageFormatPropertiesARM *pImageFormatProperties);
#endif /* VK_NO_PROTOTYPES */
#endif /* VK_ARM_data_graph_optical_flow */

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_tensor_controls (extension 566; related, not emulated)                              */
/* ------------------------------------------------------------------------------------------ */

#ifndef VK_ARM_tensor_controls
#define VK_ARM_tensor_controls 1
#define VK_ARM_TENSOR_CONTROLS_SPEC_VERSION 1
#define VK_ARM_TENSOR_CONTROLS_EXTENSION_NAME "VK_ARM_tensor_controls"
#ifndef VK_MAX_TENSOR_CREATE_INFO_ROLLING_BACKING_WRAP_COUNT_ARM
#define VK_MAX_TENSOR_CREATE_INFO_ROLLING_BACKING_WRAP_COUNT_ARM 4U
#endif

#define VK_STRUCTURE_TYPE_TENSOR_EXPLICIT_TILING_FORMAT_PROPERTIES_ARM ((VkStructureType)1000565000)
#define VK_STRUCTURE_TYPE_TENSOR_ROLLING_BACKING_CREATE_INFO_ARM ((VkStructureType)1000565001)

#ifndef VMEL_ARM_ML_LOCAL_TENSORS
/* Values for the system's VkTensorTilingARM (headers 1.4.317-1.4.354). */
#define VK_TENSOR_TILING_BRICK_16_WIDE_ARM ((VkTensorTilingARM)1000565000)
#define VK_TENSOR_TILING_BRICK_8_WIDE_ARM ((VkTensorTilingARM)1000565001)
#define VK_TENSOR_TILING_BRICK_4_WIDE_ARM ((VkTensorTilingARM)1000565002)
#define VK_TENSOR_TILING_BLOCK_U_INTERLEAVED_ARM ((VkTensorTilingARM)1000565003)
#define VK_TENSOR_TILING_BLOCK_U_INTERLEAVED_64K_ARM ((VkTensorTilingARM)1000565004)
#endif

typedef struct VkTensorRollingBackingCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   uint32_t wraps[VK_MAX_TENSOR_CREATE_INFO_ROLLING_BACKING_WRAP_COUNT_ARM];
} VkTensorRollingBackingCreateInfoARM;

typedef struct VkTensorExplicitTilingFormatPropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkFormatFeatureFlags2 brick16TilingTensorFeatures;
   VkFormatFeatureFlags2 brick8TilingTensorFeatures;
   VkFormatFeatureFlags2 brick4TilingTensorFeatures;
   VkFormatFeatureFlags2 blockUTilingTensorFeatures;
   VkFormatFeatureFlags2 blockU64kTilingTensorFeatures;
} VkTensorExplicitTilingFormatPropertiesARM;
#endif /* VK_ARM_tensor_controls */

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_data_graph_neural_accelerator_statistics (extension 677; related, not emulated)     */
/* ------------------------------------------------------------------------------------------ */

#ifndef VK_ARM_data_graph_neural_accelerator_statistics
#define VK_ARM_data_graph_neural_accelerator_statistics 1
#define VK_ARM_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_SPEC_VERSION 1
#define VK_ARM_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_EXTENSION_NAME                             \
   "VK_ARM_data_graph_neural_accelerator_statistics"

#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_NEURAL_STATISTICS_CREATE_INFO_ARM                    \
   ((VkStructureType)1000676000)
#define VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_NEURAL_STATISTICS_CREATE_INFO_ARM            \
   ((VkStructureType)1000676001)
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_NEURAL_ACCELERATOR_STATISTICS_FEATURES_ARM    \
   ((VkStructureType)1000676002)

#ifndef VMEL_ARM_ML_LOCAL_DATA_GRAPH
/* Values for the system's VK_ARM_data_graph enums (headers 1.4.319-1.4.349). */
#define VK_DATA_GRAPH_PIPELINE_PROPERTY_NEURAL_ACCELERATOR_DEBUG_DATABASE_ARM                      \
   ((VkDataGraphPipelinePropertyARM)1000676000)
#define VK_DATA_GRAPH_PIPELINE_PROPERTY_NEURAL_ACCELERATOR_STATISTICS_INFO_ARM                     \
   ((VkDataGraphPipelinePropertyARM)1000676001)
#define VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_NEURAL_ACCELERATOR_STATISTICS_ARM                \
   ((VkDataGraphPipelineSessionBindPointARM)1000676000)
#endif

typedef enum VkNeuralAcceleratorStatisticsModeARM {
   VK_NEURAL_ACCELERATOR_STATISTICS_MODE_DISABLED_ARM = 0,
   VK_NEURAL_ACCELERATOR_STATISTICS_MODE_STATISTICS0_ARM = 1,
   VK_NEURAL_ACCELERATOR_STATISTICS_MODE_STATISTICS1_ARM = 2,
   VK_NEURAL_ACCELERATOR_STATISTICS_MODE_MAX_ENUM_ARM = 0x7FFFFFFF
} VkNeuralAcceleratorStatisticsModeARM;

typedef struct VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM {
   VkStructureType sType;
   void *pNext;
   VkBool32 dataGraphNeuralAcceleratorStatistics;
} VkPhysicalDeviceDataGraphNeuralAcceleratorStatisticsFeaturesARM;

typedef struct VkDataGraphPipelineNeuralStatisticsCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkBool32 allowNeuralStatistics;
} VkDataGraphPipelineNeuralStatisticsCreateInfoARM;

typedef struct VkDataGraphPipelineSessionNeuralStatisticsCreateInfoARM {
   VkStructureType sType;
   const void *pNext;
   VkNeuralAcceleratorStatisticsModeARM mode;
} VkDataGraphPipelineSessionNeuralStatisticsCreateInfoARM;
#endif /* VK_ARM_data_graph_neural_accelerator_statistics */

/* ------------------------------------------------------------------------------------------ */
/* VK_ARM_tensors + VK_EXT_descriptor_heap (extension 136) interaction                        */
/* ------------------------------------------------------------------------------------------ */

/*
 * Only the tensor parts of VK_EXT_descriptor_heap; VK_EXT_descriptor_heap itself is not
 * defined here (and VkSpirvResourceTypeFlagBitsEXT, with its TENSOR bit 0x200, is left out).
 */
#ifndef VK_EXT_descriptor_heap
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_HEAP_TENSOR_PROPERTIES_ARM                    \
   ((VkStructureType)1000135014)

#ifndef VMEL_ARM_ML_LOCAL_TENSORS
/* Value for the system's VkTensorCreateFlagBitsARM (headers 1.4.317-1.4.339). */
static const VkTensorCreateFlagBitsARM VK_TENSOR_CREATE_DESCRIPTOR_HEAP_CAPTURE_REPLAY_BIT_ARM =
    0x00000008ULL;
#endif

typedef struct VkHostAddressRangeEXT {
   void *address;
   size_t size;
} VkHostAddressRangeEXT;

typedef struct VkPhysicalDeviceDescriptorHeapTensorPropertiesARM {
   VkStructureType sType;
   void *pNext;
   VkDeviceSize tensorDescriptorSize;
   VkDeviceSize tensorDescriptorAlignment;
   size_t tensorCaptureReplayOpaqueDataSize;
} VkPhysicalDeviceDescriptorHeapTensorPropertiesARM;

typedef VkResult(VKAPI_PTR *PFN_vkGetTensorOpaqueCaptureDataARM)(VkDevice device,
                                                                 uint32_t tensorCount,
                                                                 const VkTensorARM *pTensors,
                                                                 VkHostAddressRangeEXT *pDatas);

#ifndef VK_NO_PROTOTYPES
VKAPI_ATTR VkResult VKAPI_CALL vkGetTensorOpaqueCaptureDataARM(VkDevice device,
                                                               uint32_t tensorCount,
                                                               const VkTensorARM *pTensors,
                                                               VkHostAddressRangeEXT *pDatas);
#endif /* VK_NO_PROTOTYPES */
#endif /* VK_EXT_descriptor_heap */

#ifdef __cplusplus
}
#endif

#endif /* VMEL_VULKAN_ARM_ML_H */
