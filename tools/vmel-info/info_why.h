/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-info's "Why not": for what a device does not offer, the missing underlying
 * capability, recomputed from the same public facts the layers decide from (info_why.c,
 * docs/decisions.md D54). Reasons are collected while a device is printed and printed
 * together by info_why_device().
 */
#ifndef VMEL_INFO_WHY_H
#define VMEL_INFO_WHY_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"

struct info_format {
   VkFormat format;
   const char *name;
};

/* The ARM features and tensor properties as the enabled layers report them. */
struct info_ml_caps {
   VkPhysicalDeviceTensorFeaturesARM tensor_features;
   VkPhysicalDeviceDataGraphFeaturesARM graph_features;
   VkPhysicalDeviceTensorPropertiesARM tensor_properties;
};

void info_query_ml_caps(VkPhysicalDevice pd, struct info_ml_caps *caps);

/* vmel_info.c: whether the device (through the enabled layers) offers the extension. */
bool has_extension(VkPhysicalDevice pd, const char *name, uint32_t *version);

/* Tensor format features a format lacks (linear l, optimal o as reported). */
void info_why_format(VkPhysicalDevice pd, const struct info_format *format,
                     VkFormatFeatureFlags2 l, VkFormatFeatureFlags2 o);
/* TOSA profiles and extensions a queue family's TOSA properties do not list, and those
 * listed whose tensor formats the device cannot use in graphs; tosa NULL: none reported. */
void info_why_tosa(VkPhysicalDevice pd, const VkQueueFamilyDataGraphTOSAPropertiesARM *tosa);
/* Extensions, features and shader stages not offered; then prints every reason collected. */
void info_why_device(VkPhysicalDevice pd);

#endif /* VMEL_INFO_WHY_H */
