/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 */
#ifndef VMEL_INFO_OPTICAL_FLOW_H
#define VMEL_INFO_OPTICAL_FLOW_H

#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"

/** Prints the optical-flow capabilities of pd: the operation's properties and the
 *  image formats per usage, per queue family that lists "OpticalFlow". */
void info_print_optical_flow(VkInstance instance, VkPhysicalDevice pd);

#endif
