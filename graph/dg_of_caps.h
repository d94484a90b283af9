/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What VK_ARM_data_graph_optical_flow offers where the graph layer emulates
 * VK_ARM_data_graph (dg_of_caps.c): the "OpticalFlow" operation's properties,
 * the image formats per optical-flow usage, their format-feature bits, and the
 * handling of VkDataGraphOpticalFlowImageFormatInfoARM in image queries and
 * image creation. Pipeline creation validates against the same answers
 * (docs/optical-flow.md, decision D50).
 */
#ifndef DG_OF_CAPS_H
#define DG_OF_CAPS_H

#include "dg_private.h"

#define DG_OF_OPERATION_NAME "OpticalFlow"
#define DG_OF_OPERATION_VERSION 1u
/* Frame sizes: at least two pyramid levels (docs/optical-flow.md), at most
 * 8192 and the device's maxImageDimension2D. */
#define DG_OF_MIN_WIDTH 64u
#define DG_OF_MIN_HEIGHT 64u
#define DG_OF_MAX_EXTENT 8192u
/* Output and hint grids: 1x1, 2x2, 4x4 and 8x8. */
#define DG_OF_GRID_SIZES                                                                           \
   (VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_1X1_BIT_ARM | VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_2X2_BIT_ARM | \
    VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_4X4_BIT_ARM | VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_8X8_BIT_ARM)
#define DG_OF_USAGE_ALL                                                                            \
   (VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM |                                         \
    VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM |                                        \
    VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM |                                          \
    VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM)

/** Whether op names the optical-flow operation (type and name "OpticalFlow"). */
bool dg_is_optical_flow_operation(const VkPhysicalDeviceDataGraphOperationSupportARM *op);

/** The operation's properties on this physical device (emulated case). */
void dg_of_properties(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                      VkQueueFamilyDataGraphOpticalFlowPropertiesARM *out);

/** Whether format is offered for every optical-flow usage bit in usage (not 0): in the
 *  layer's list for each bit, and a storage image of optimal tiling on the device. */
bool dg_of_format_offered(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                          VkFormat format, VkDataGraphOpticalFlowImageUsageFlagsARM usage);

/** Adds the optical-flow format-feature bits of format to properties (a tiling gets them
 *  where the device gives it storage-image use). */
void dg_of_add_format_features(VkFormat format, VkFormatProperties3 *properties);

/** vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM for the optical-flow
 *  operation (emulated case, queue family checked). */
VkResult dg_of_operation_properties(struct lyr_instance *instance,
                                    VkPhysicalDevice physical_device,
                                    VkBaseOutStructure *properties);

VKAPI_ATTR VkResult VKAPI_CALL dg_GetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM(
   VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
   const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
   const VkDataGraphOpticalFlowImageFormatInfoARM *pOpticalFlowImageFormatInfo,
   uint32_t *pFormatCount, VkDataGraphOpticalFlowImageFormatPropertiesARM *pImageFormatProperties);
VKAPI_ATTR VkResult VKAPI_CALL dg_GetPhysicalDeviceImageFormatProperties2(
   VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2 *pImageFormatInfo,
   VkImageFormatProperties2 *pImageFormatProperties);

/* vkCreateImage and vkGetDeviceImageMemoryRequirements without the optical-flow struct. */
extern const struct lyr_hook_table dg_of_image_hooks;

#endif /* DG_OF_CAPS_H */
