/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The two Vulkan extensions the graph layer enables below it that Debian 12's Vulkan headers
 * (1.3.239) predate, VK_KHR_cooperative_matrix (D51) and VK_KHR_shader_bfloat16 (D60): the
 * registry's names, values and struct layouts, written by hand for what the layers and their
 * tests use. Each block steps aside where the system's headers define the extension.
 */
#ifndef LYR_VK_NEWER_H
#define LYR_VK_NEWER_H

#include <vulkan/vulkan.h>

#ifndef VK_KHR_cooperative_matrix
#define VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME "VK_KHR_cooperative_matrix"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR                          \
   ((VkStructureType)1000506000)
#define VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR ((VkStructureType)1000506001)
/* The features: the NV extension's layout (sType, pNext, cooperativeMatrix,
 * cooperativeMatrixRobustBufferAccess). */
typedef VkPhysicalDeviceCooperativeMatrixFeaturesNV VkPhysicalDeviceCooperativeMatrixFeaturesKHR;
typedef struct VkCooperativeMatrixPropertiesKHR {
   VkStructureType sType;
   void *pNext;
   uint32_t MSize;
   uint32_t NSize;
   uint32_t KSize;
   uint32_t AType; /* VkComponentTypeKHR: the values of VkComponentTypeNV, and bf16 below */
   uint32_t BType;
   uint32_t CType;
   uint32_t ResultType;
   VkBool32 saturatingAccumulation;
   uint32_t scope; /* VkScopeKHR: the values of VkScopeNV */
} VkCooperativeMatrixPropertiesKHR;
typedef VkResult(VKAPI_PTR *PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)(
   VkPhysicalDevice physicalDevice, uint32_t *pPropertyCount,
   VkCooperativeMatrixPropertiesKHR *pProperties);
#endif

#ifndef VK_KHR_shader_bfloat16
#define VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME "VK_KHR_shader_bfloat16"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR ((VkStructureType)1000141000)
#define VK_COMPONENT_TYPE_BFLOAT16_KHR 1000141000u
typedef struct VkPhysicalDeviceShaderBfloat16FeaturesKHR {
   VkStructureType sType;
   void *pNext;
   VkBool32 shaderBFloat16Type;
   VkBool32 shaderBFloat16DotProduct;
   VkBool32 shaderBFloat16CooperativeMatrix;
} VkPhysicalDeviceShaderBfloat16FeaturesKHR;
#endif

#endif /* LYR_VK_NEWER_H */
