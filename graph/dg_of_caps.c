/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The query side of VK_ARM_data_graph_optical_flow where this layer emulates
 * VK_ARM_data_graph (docs/optical-flow.md "Queries and formats", D50): the
 * "OpticalFlow" operation's properties, the formats per optical-flow image
 * usage, their format-feature bits, and VkDataGraphOpticalFlowImageFormatInfoARM
 * answered in image format queries and left out of what goes below (neither
 * the driver nor a validation layer below knows it). Where VK_ARM_data_graph is
 * native every query passes through.
 */
#include "dg_of_caps.h"

/* The engine reads input, reference and hint images and writes flow and cost
 * images as storage images: a format is offered where the device gives it
 * that use (VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT; its SPIR-V formats, R8,
 * R16, Rg16f and R16ui, need only StorageImageExtendedFormats, which every
 * Vulkan device accepts). */
static const struct {
   VkFormat format;
   VkDataGraphOpticalFlowImageUsageFlagsARM usage;
   VkFormatFeatureFlags2 feature;
} dg_of_formats[] = {
   {VK_FORMAT_R8_UNORM, VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM,
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM},
   {VK_FORMAT_R16_UNORM, VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM,
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM},
   {VK_FORMAT_R16G16_SFLOAT,
    VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM |
       VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM,
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_VECTOR_BIT_ARM},
   {VK_FORMAT_R16_UINT, VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM,
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_COST_BIT_ARM},
};

static unsigned
format_index(VkFormat format)
{
   for (unsigned i = 0; i < LYR_ARRAY_SIZE(dg_of_formats); i++)
      if (dg_of_formats[i].format == format)
         return i;
   return UINT32_MAX;
}

bool
dg_is_optical_flow_operation(const VkPhysicalDeviceDataGraphOperationSupportARM *op)
{
   return op->operationType == VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM &&
          strncmp(op->name, DG_OF_OPERATION_NAME, sizeof(op->name)) == 0;
}

void
dg_of_properties(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                 VkQueueFamilyDataGraphOpticalFlowPropertiesARM *out)
{
   VkPhysicalDeviceProperties props;
   instance->next.GetPhysicalDeviceProperties(physical_device, &props);
   uint32_t max = props.limits.maxImageDimension2D < DG_OF_MAX_EXTENT
                     ? props.limits.maxImageDimension2D
                     : DG_OF_MAX_EXTENT;
   VkQueueFamilyDataGraphOpticalFlowPropertiesARM p = {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM,
      .supportedOutputGridSizes = DG_OF_GRID_SIZES,
      .supportedHintGridSizes = DG_OF_GRID_SIZES,
      .hintSupported = VK_TRUE,
      .costSupported = VK_TRUE,
      .minWidth = DG_OF_MIN_WIDTH,
      .minHeight = DG_OF_MIN_HEIGHT,
      .maxWidth = max,
      .maxHeight = max,
   };
   lyr_fill_out(out, &p, sizeof(p));
}

bool
dg_of_format_offered(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                     VkFormat format, VkDataGraphOpticalFlowImageUsageFlagsARM usage)
{
   unsigned i = format_index(format);
   if (i == UINT32_MAX || usage == 0 || (usage & ~dg_of_formats[i].usage))
      return false;
   VkFormatProperties props;
   instance->next.GetPhysicalDeviceFormatProperties(physical_device, format, &props);
   return (props.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) != 0;
}

void
dg_of_add_format_features(VkFormat format, VkFormatProperties3 *properties)
{
   unsigned i = format_index(format);
   if (i == UINT32_MAX)
      return;
   if (properties->optimalTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT)
      properties->optimalTilingFeatures |= dg_of_formats[i].feature;
   if (properties->linearTilingFeatures & VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT)
      properties->linearTilingFeatures |= dg_of_formats[i].feature;
}

VkResult
dg_of_operation_properties(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                           VkBaseOutStructure *properties)
{
   if (properties->sType != VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM)
      return lyr_error(VK_ERROR_UNKNOWN,
                       "operation \"%s\" is described by "
                       "VkQueueFamilyDataGraphOpticalFlowPropertiesARM, got sType %d",
                       DG_OF_OPERATION_NAME, (int)properties->sType);
   dg_of_properties(instance, physical_device,
                    (VkQueueFamilyDataGraphOpticalFlowPropertiesARM *)properties);
   return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
dg_GetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM(
   VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
   const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
   const VkDataGraphOpticalFlowImageFormatInfoARM *pOpticalFlowImageFormatInfo,
   uint32_t *pFormatCount, VkDataGraphOpticalFlowImageFormatPropertiesARM *pImageFormatProperties)
{
   static const char fn[] = "vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM";
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   if (caps.native) {
      PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM next =
         instance->next.GetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM;
      if (!next)
         return lyr_error(VK_ERROR_EXTENSION_NOT_PRESENT,
                          "%s: VK_ARM_data_graph is native below, without optical flow", fn);
      return next(physicalDevice, queueFamilyIndex, pQueueFamilyDataGraphProperties,
                  pOpticalFlowImageFormatInfo, pFormatCount, pImageFormatProperties);
   }
   if (!caps.available)
      return lyr_error(VK_ERROR_EXTENSION_NOT_PRESENT, "%s: VK_ARM_data_graph not offered: %s",
                       fn, caps.why_not);
   /* Data-graph queue families are the compute ones (dg_instance.c). */
   if (!(dg_queue_family_flags(instance, physicalDevice, queueFamilyIndex) & VK_QUEUE_COMPUTE_BIT))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT, "%s: queue family %u runs no data graphs",
                       fn, queueFamilyIndex);
   /* VUID-...-pQueueFamilyDataGraphProperties-09965. */
   if (!dg_is_optical_flow_operation(&pQueueFamilyDataGraphProperties->operation))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: the operation must be \"%s\" (type %d), got \"%.*s\" (type %d)", fn,
                       DG_OF_OPERATION_NAME,
                       (int)VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM,
                       (int)sizeof(pQueueFamilyDataGraphProperties->operation.name),
                       pQueueFamilyDataGraphProperties->operation.name,
                       (int)pQueueFamilyDataGraphProperties->operation.operationType);
   /* usage is not optional in vk.xml: 0 is invalid, as are unknown bits. Several bits
    * ask for the formats usable for all of them. */
   VkDataGraphOpticalFlowImageUsageFlagsARM usage = pOpticalFlowImageFormatInfo->usage;
   if (usage == 0 || (usage & ~DG_OF_USAGE_ALL))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "%s: usage 0x%x is not a non-zero combination of "
                       "VkDataGraphOpticalFlowImageUsageFlagBitsARM",
                       fn, usage);

   VkFormat offered[LYR_ARRAY_SIZE(dg_of_formats)];
   uint32_t available = 0;
   for (unsigned i = 0; i < LYR_ARRAY_SIZE(dg_of_formats); i++) {
      if (dg_of_format_offered(instance, physicalDevice, dg_of_formats[i].format, usage))
         offered[available++] = dg_of_formats[i].format;
   }
   if (!pImageFormatProperties) {
      *pFormatCount = available;
      return VK_SUCCESS;
   }
   uint32_t n = *pFormatCount < available ? *pFormatCount : available;
   for (uint32_t i = 0; i < n; i++) {
      VkDataGraphOpticalFlowImageFormatPropertiesARM p = {
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM,
         .format = offered[i],
      };
      lyr_fill_out(&pImageFormatProperties[i], &p, sizeof(p));
   }
   *pFormatCount = n;
   return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL
dg_GetPhysicalDeviceImageFormatProperties2(VkPhysicalDevice physicalDevice,
                                           const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
                                           VkImageFormatProperties2 *pImageFormatProperties)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   const VkDataGraphOpticalFlowImageFormatInfoARM *of = lyr_find_struct(
      pImageFormatInfo->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM);
   struct dg_caps caps;
   if (of)
      dg_query_caps(instance, physicalDevice, &caps);
   if (!of || caps.native || !caps.available)
      return instance->next.GetPhysicalDeviceImageFormatProperties2(
         physicalDevice, pImageFormatInfo, pImageFormatProperties);

   /* usage "should" hold one or more bits: 0 asks about no optical-flow use. */
   const char *why = NULL;
   if (of->usage & ~DG_OF_USAGE_ALL) {
      why = "unknown optical-flow usage bits";
   } else if (of->usage &&
              !dg_of_format_offered(instance, physicalDevice, pImageFormatInfo->format,
                                    of->usage)) {
      why = "the format is not offered for this optical-flow usage "
            "(vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM)";
   } else if (of->usage && pImageFormatInfo->tiling == VK_IMAGE_TILING_LINEAR) {
      VkFormatProperties fp;
      instance->next.GetPhysicalDeviceFormatProperties(physicalDevice, pImageFormatInfo->format,
                                                       &fp);
      if (!(fp.linearTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT))
         why = "linear tiling has no storage-image use for this format here";
   }
   if (why) {
      lyr_logi("vkGetPhysicalDeviceImageFormatProperties2: format %d, optical-flow usage 0x%x: %s",
               (int)pImageFormatInfo->format, of->usage, why);
      memset(&pImageFormatProperties->imageFormatProperties, 0,
             sizeof(pImageFormatProperties->imageFormatProperties));
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
   }
   struct lyr_chain_copy copy;
   VkResult result = lyr_chain_clone_pass(&instance->alloc, pImageFormatInfo,
                                          sizeof(*pImageFormatInfo), dg_drop_data_graph, NULL, 0,
                                          &copy);
   if (result != VK_SUCCESS)
      return result;
   result = instance->next.GetPhysicalDeviceImageFormatProperties2(physicalDevice, copy.head,
                                                                   pImageFormatProperties);
   lyr_chain_copy_free(&copy);
   return result;
}

/* ---- device level: images created with the optical-flow struct ---------- */

static const VkDataGraphOpticalFlowImageFormatInfoARM *
of_info(const VkImageCreateInfo *info)
{
   return lyr_find_struct(info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateImage(VkDevice _device, const VkImageCreateInfo *pCreateInfo,
               const VkAllocationCallbacks *pAllocator, VkImage *pImage)
{
   struct dg_device *device = dg_device_get(_device);
   if (!of_info(pCreateInfo))
      return device->base.next.CreateImage(_device, pCreateInfo, pAllocator, pImage);
   struct lyr_chain_copy copy;
   VkResult result = lyr_chain_clone_pass(&device->base.alloc, pCreateInfo, sizeof(*pCreateInfo),
                                          dg_drop_data_graph, NULL, 0, &copy);
   if (result != VK_SUCCESS)
      return result;
   result = device->base.next.CreateImage(_device, copy.head, pAllocator, pImage);
   lyr_chain_copy_free(&copy);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
dg_GetDeviceImageMemoryRequirements(VkDevice _device, const VkDeviceImageMemoryRequirements *pInfo,
                                    VkMemoryRequirements2 *pMemoryRequirements)
{
   struct dg_device *device = dg_device_get(_device);
   if (!pInfo->pCreateInfo || !of_info(pInfo->pCreateInfo)) {
      device->base.next.GetDeviceImageMemoryRequirements(_device, pInfo, pMemoryRequirements);
      return;
   }
   struct lyr_chain_copy copy;
   if (lyr_chain_clone_pass(&device->base.alloc, pInfo->pCreateInfo, sizeof(*pInfo->pCreateInfo),
                            dg_drop_data_graph, NULL, 0, &copy) != VK_SUCCESS) {
      memset(&pMemoryRequirements->memoryRequirements, 0,
             sizeof(pMemoryRequirements->memoryRequirements));
      return;
   }
   VkDeviceImageMemoryRequirements req = *pInfo;
   req.pCreateInfo = copy.head;
   device->base.next.GetDeviceImageMemoryRequirements(_device, &req, pMemoryRequirements);
   lyr_chain_copy_free(&copy);
}

static const struct lyr_hook hooks[] = {
   DG_HOOK(CreateImage, dg_CreateImage),
   DG_HOOK(GetDeviceImageMemoryRequirements, dg_GetDeviceImageMemoryRequirements),
   DG_HOOK(GetDeviceImageMemoryRequirementsKHR, dg_GetDeviceImageMemoryRequirements),
};

const struct lyr_hook_table dg_of_image_hooks = LYR_HOOK_TABLE(hooks);
