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

/* Formats: dg_of_caps.c (dg_of_format_offered()), one list for queries and creation. */

#endif /* OF_LIMITS_H */
