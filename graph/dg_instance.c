/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Instance-level entry points of the graph layer: instance creation and the
 * physical-device queries of VK_ARM_data_graph and
 * VK_ARM_data_graph_instruction_set_tosa (extensions, tool properties,
 * features, format features, queue families, data-graph engines and the TOSA
 * operation set). Where VK_ARM_data_graph is native every query passes through.
 */
#include "dg_private.h"
#include "dg_of_caps.h"
#include "spirv/spirv_arm_ml.h"

static const VkExtensionProperties dg_device_extensions[] = {
   {VK_ARM_DATA_GRAPH_EXTENSION_NAME, VK_ARM_DATA_GRAPH_SPEC_VERSION},
   {VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME,
    VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_SPEC_VERSION},
   {VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME, VK_ARM_DATA_GRAPH_OPTICAL_FLOW_SPEC_VERSION},
};

VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateInstance(const VkInstanceCreateInfo *pCreateInfo, const VkAllocationCallbacks *pAllocator,
                  VkInstance *pInstance)
{
   struct lyr_instance *instance;
   return lyr_instance_create(pCreateInfo, pAllocator, pInstance, sizeof(struct dg_instance),
                              &instance);
}

VKAPI_ATTR void VKAPI_CALL
dg_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *pAllocator)
{
   lyr_instance_destroy(instance, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL
dg_EnumerateDeviceExtensionProperties(VkPhysicalDevice physicalDevice, const char *pLayerName,
                                      uint32_t *pPropertyCount, VkExtensionProperties *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   struct dg_instance *dgi = (struct dg_instance *)instance;
   if (!pLayerName && !caps.native && !caps.available && !dgi->warned_unavailable) {
      dgi->warned_unavailable = true;
      lyr_logw("not offering %s: %s", VK_ARM_DATA_GRAPH_EXTENSION_NAME, caps.why_not);
   }
   return lyr_layer_device_extensions(instance, physicalDevice, pLayerName, DG_LAYER_NAME,
                                      dg_device_extensions, LYR_ARRAY_SIZE(dg_device_extensions),
                                      caps.available, pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL
dg_GetPhysicalDeviceToolProperties(VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
                                   VkPhysicalDeviceToolProperties *pToolProperties)
{
   static const VkPhysicalDeviceToolProperties tool = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES,
      .name = "Graph Layer",
      .version = "1.0",
      .purposes = VK_TOOL_PURPOSE_ADDITIONAL_FEATURES_BIT,
      .description = "Emulates VK_ARM_data_graph with TOSA compute kernels",
      .layer = DG_LAYER_NAME,
   };
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   return lyr_tool_properties_prepend(instance->next.GetPhysicalDeviceToolProperties,
                                      physicalDevice, &tool, pToolCount, pToolProperties);
}

VKAPI_ATTR void VKAPI_CALL
dg_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice, VkPhysicalDeviceFeatures2 *pFeatures)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceFeatures2(physicalDevice, pFeatures);
      return;
   }
   /* VK_ARM_tensors structs go down: the layer below answers them. */
   lyr_next_features2(instance, physicalDevice, pFeatures,
                      caps.tensors_below ? dg_drop_data_graph : lyr_drop_arm_ml);

   VkPhysicalDeviceDataGraphFeaturesARM *f = (VkPhysicalDeviceDataGraphFeaturesARM *)
      lyr_find_struct(pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM);
   if (f)
      lyr_fill_out(f, &caps.features, sizeof(*f));
   VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM *of =
      (VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM *)lyr_find_struct(
         pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM);
   if (of) {
      /* the kernels use formatted storage images (graph/of, D49) */
      const VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM have = {
         .dataGraphOpticalFlow =
            caps.available && pFeatures->features.shaderStorageImageExtendedFormats};
      lyr_fill_out(of, &have, sizeof(*of));
   }
   /* Nothing below knows VK_ARM_tensors: its features are all unsupported. */
   VkPhysicalDeviceTensorFeaturesARM *tf = (VkPhysicalDeviceTensorFeaturesARM *)lyr_find_struct(
      pFeatures->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
   if (tf && !caps.tensors_below) {
      const VkPhysicalDeviceTensorFeaturesARM none = {0};
      lyr_fill_out(tf, &none, sizeof(*tf));
   }
}

VKAPI_ATTR void VKAPI_CALL
dg_GetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                VkPhysicalDeviceProperties2 *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceProperties2(physicalDevice, pProperties);
      return;
   }
   lyr_next_properties2(instance, physicalDevice, pProperties,
                        caps.tensors_below ? dg_drop_data_graph : lyr_drop_arm_ml);
}

/* Formats of the TOSA element types (design.md §5): bool, int8/16/32, i48 as
 * int64, fp16, bf16, fp32, fp8. */
static bool
is_tosa_format(VkFormat format)
{
   switch ((int)format) {
   case VK_FORMAT_R8_BOOL_ARM:
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SINT:
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SINT:
   case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SINT:
   case VK_FORMAT_R64_UINT:
   case VK_FORMAT_R64_SINT:
   case VK_FORMAT_R16_SFLOAT:
   case VK_FORMAT_R32_SFLOAT:
   case VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM:
   case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM:
   case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM:
      return true;
   default:
      return false;
   }
}

VKAPI_ATTR void VKAPI_CALL
dg_GetPhysicalDeviceFormatProperties2(VkPhysicalDevice physicalDevice, VkFormat format,
                                      VkFormatProperties2 *pFormatProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native || !caps.available) {
      instance->next.GetPhysicalDeviceFormatProperties2(physicalDevice, format, pFormatProperties);
      return;
   }
   lyr_next_format_properties2(instance, physicalDevice, format, pFormatProperties,
                               dg_drop_data_graph);

   /* Graph kernels reach tensors the way shaders do: where the layer below
    * gives shader access to a TOSA element format, graphs can use it. */
   VkTensorFormatPropertiesARM *tfp = (VkTensorFormatPropertiesARM *)lyr_find_struct(
      pFormatProperties->pNext, VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM);
   if (tfp && is_tosa_format(format)) {
      if (tfp->linearTilingTensorFeatures & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM)
         tfp->linearTilingTensorFeatures |= VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM;
      if (tfp->optimalTilingTensorFeatures & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM)
         tfp->optimalTilingTensorFeatures |= VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM;
   }
   /* Optical-flow images (dg_of_caps.c): where the device gives storage-image use. */
   VkFormatProperties3 *fp3 = (VkFormatProperties3 *)lyr_find_struct(
      pFormatProperties->pNext, VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3);
   if (fp3)
      dg_of_add_format_features(format, fp3);
}

static void
add_data_graph_bit(VkQueueFamilyProperties *p)
{
   if (p->queueFlags & VK_QUEUE_COMPUTE_BIT)
      p->queueFlags |= VK_QUEUE_DATA_GRAPH_BIT_ARM;
}

VKAPI_ATTR void VKAPI_CALL
dg_GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice physicalDevice, uint32_t *pCount,
                                          VkQueueFamilyProperties *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   instance->next.GetPhysicalDeviceQueueFamilyProperties(physicalDevice, pCount, pProperties);
   if (!pProperties)
      return;
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   for (uint32_t i = 0; caps.available && i < *pCount; i++)
      add_data_graph_bit(&pProperties[i]);
}

VKAPI_ATTR void VKAPI_CALL
dg_GetPhysicalDeviceQueueFamilyProperties2(VkPhysicalDevice physicalDevice, uint32_t *pCount,
                                           VkQueueFamilyProperties2 *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   instance->next.GetPhysicalDeviceQueueFamilyProperties2(physicalDevice, pCount, pProperties);
   if (!pProperties)
      return;
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   for (uint32_t i = 0; caps.available && i < *pCount; i++)
      add_data_graph_bit(&pProperties[i].queueFamilyProperties);
}

/* The queue family's flags as the layers below report them, or 0 if the
 * index is out of range. */
VkQueueFlags
dg_queue_family_flags(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                      uint32_t family)
{
   uint32_t count = 0;
   instance->next.GetPhysicalDeviceQueueFamilyProperties(physical_device, &count, NULL);
   if (family >= count)
      return 0;
   VkQueueFamilyProperties *props = lyr_alloc(&instance->alloc, count * sizeof(*props), 8,
                                              VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!props)
      return 0;
   instance->next.GetPhysicalDeviceQueueFamilyProperties(physical_device, &count, props);
   VkQueueFlags flags = family < count ? props[family].queueFlags : 0;
   lyr_free(&instance->alloc, props);
   return flags;
}

/* Queue families with compute run graphs on the default engine, which
 * supports the TOSA.001000.1 instruction set (graphs.adoc, "Data Graph
 * Operations Requirements": version 0) and the Arm.MotionEngine.100 one (D47:
 * an extended instruction set like TOSA's, on the same engine, version 0 as the
 * name carries the version; it has no operation-properties structure). The
 * fixed-function optical flow is an operation of that engine too, "OpticalFlow"
 * version 1 (VK_ARM_data_graph_optical_flow, dg_of_caps.c). */
static const VkQueueFamilyDataGraphPropertiesARM dg_queue_family_operations[] = {
   {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM,
      .engine = {VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM, VK_FALSE},
      .operation = {VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM,
                    DG_TOSA_SET_NAME, 0},
   },
   {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM,
      .engine = {VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM, VK_FALSE},
      .operation = {VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM,
                    SPV_ARM_SET_MOTION_ENGINE_100, 0},
   },
   {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM,
      .engine = {VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM, VK_FALSE},
      .operation = {VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM,
                    DG_OF_OPERATION_NAME, DG_OF_OPERATION_VERSION},
   },
};

VKAPI_ATTR VkResult VKAPI_CALL
dg_GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM(VkPhysicalDevice physicalDevice,
                                                      uint32_t queueFamilyIndex, uint32_t *pCount,
                                                      VkQueueFamilyDataGraphPropertiesARM *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native)
      return instance->next.GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM(
         physicalDevice, queueFamilyIndex, pCount, pProperties);
   VkQueueFlags flags = caps.available
                           ? dg_queue_family_flags(instance, physicalDevice, queueFamilyIndex)
                           : 0;
   uint32_t available =
      (flags & VK_QUEUE_COMPUTE_BIT) ? LYR_ARRAY_SIZE(dg_queue_family_operations) : 0;
   if (!pProperties) {
      *pCount = available;
      return VK_SUCCESS;
   }
   uint32_t n = *pCount < available ? *pCount : available;
   for (uint32_t i = 0; i < n; i++)
      lyr_fill_out(&pProperties[i], &dg_queue_family_operations[i], sizeof(pProperties[i]));
   *pCount = n;
   return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

/* TOSA profiles and extensions of TOSA.001000.1 that the layer implements.
 * The arrays are returned by pointer, so they live as long as the library.
 * They are marked experimental until the conformance runner passes them. */
static const VkDataGraphTOSANameQualityARM dg_tosa_profiles[] = {
   {"PRO-INT", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"PRO-FP", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
};
static const VkDataGraphTOSANameQualityARM dg_tosa_extensions[] = {
   {"EXT-INT16", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"EXT-BF16", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"EXT-FP8E4M3", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"EXT-FP8E5M2", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"EXT-FFT", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"EXT-DOUBLEROUND", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
   {"EXT-INEXACTROUND", VK_DATA_GRAPH_TOSA_QUALITY_EXPERIMENTAL_ARM},
};

VKAPI_ATTR VkResult VKAPI_CALL
dg_GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM(
   VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
   const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
   VkBaseOutStructure *pProperties)
{
   const VkPhysicalDeviceDataGraphOperationSupportARM *op =
      &pQueueFamilyDataGraphProperties->operation;
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native)
      return instance->next.GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM(
         physicalDevice, queueFamilyIndex, pQueueFamilyDataGraphProperties, pProperties);
   if (!(dg_queue_family_flags(instance, physicalDevice, queueFamilyIndex) & VK_QUEUE_COMPUTE_BIT))
      return lyr_error(VK_ERROR_UNKNOWN, "queue family %u runs no data graphs", queueFamilyIndex);
   if (dg_is_optical_flow_operation(op))
      return dg_of_operation_properties(instance, physicalDevice, pProperties);
   if (op->operationType ==
          VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM &&
       strncmp(op->name, SPV_ARM_SET_MOTION_ENGINE_100, sizeof(op->name)) == 0)
      return lyr_error(VK_ERROR_UNKNOWN,
                       "operation \"%s\" has no operation-properties structure (sType %d given)",
                       SPV_ARM_SET_MOTION_ENGINE_100, (int)pProperties->sType);
   if (op->operationType !=
          VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM ||
       strncmp(op->name, "TOSA.", 5) != 0)
      return lyr_error(VK_ERROR_UNKNOWN, "no engine operation properties for \"%.*s\"",
                       (int)sizeof(op->name), op->name);
   if (pProperties->sType != VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM)
      return lyr_error(VK_ERROR_UNKNOWN,
                       "operation \"%s\" is described by VkQueueFamilyDataGraphTOSAPropertiesARM, "
                       "got sType %d",
                       op->name, (int)pProperties->sType);
   VkQueueFamilyDataGraphTOSAPropertiesARM tosa = {
      .profileCount = LYR_ARRAY_SIZE(dg_tosa_profiles),
      .pProfiles = dg_tosa_profiles,
      .extensionCount = LYR_ARRAY_SIZE(dg_tosa_extensions),
      .pExtensions = dg_tosa_extensions,
      .level = VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM,
   };
   lyr_fill_out(pProperties, &tosa, sizeof(tosa));
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
dg_GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM(
   VkPhysicalDevice physicalDevice,
   const VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM *pInfo,
   VkQueueFamilyDataGraphProcessingEnginePropertiesARM *pProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      instance->next.GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM(
         physicalDevice, pInfo, pProperties);
      return;
   }
   /* The default engine is the device itself: nothing foreign to import. */
   pProperties->foreignSemaphoreHandleTypes = 0;
   pProperties->foreignMemoryHandleTypes = 0;
}
