/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The limits of the graph layer's VK_ARM_data_graph_optical_flow (D49,
 * docs/optical-flow.md "The Vulkan side"): what pipeline creation accepts and
 * what the queue family's optical-flow properties and format queries report.
 * Plain values, no Vulkan calls.
 */
#ifndef OF_LIMITS_H
#define OF_LIMITS_H

#include <stdbool.h>

#include "vulkan/vulkan_arm_ml.h"

/* Frame sizes. 64: at least two pyramid levels (the coarsest is at least 32x24); 8192 (and
 * the device's maxImageDimension2D): pipeline creation also refuses a frame whose pyramids
 * (one 32-bit word per sample) exceed the device's maxStorageBufferRange. */
#define OF_MIN_WIDTH 64u
#define OF_MIN_HEIGHT 64u
#define OF_MAX_WIDTH 8192u
#define OF_MAX_HEIGHT 8192u

/* Output and hint grids: every size. */
#define OF_GRID_SIZES                                                                              \
   (VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_1X1_BIT_ARM |                                             \
    VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_2X2_BIT_ARM |                                             \
    VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_4X4_BIT_ARM |                                             \
    VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_8X8_BIT_ARM)
#define OF_HINT_SUPPORTED 1
#define OF_COST_SUPPORTED 1

/* Formats: input and reference frames (luma), flow vectors and hint, cost. */
static const VkFormat of_image_formats[] = {VK_FORMAT_R8_UNORM, VK_FORMAT_R16_UNORM};
static const VkFormat of_flow_formats[] = {VK_FORMAT_R16G16_SFLOAT};
static const VkFormat of_cost_formats[] = {VK_FORMAT_R16_UINT};

static inline bool
of_format_in(VkFormat f, const VkFormat *list, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      if (list[i] == f)
         return true;
   return false;
}

#endif /* OF_LIMITS_H */
