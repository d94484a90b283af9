/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Cooperative matrices on the devices the graph layer creates (dg_coop.c; D51).
 */
#ifndef DG_COOP_H
#define DG_COOP_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "lyr_vk_newer.h"

struct lyr_instance;

/* The extensions the COOP kernels use: the two cooperative-matrix ones and
 * VK_KHR_shader_bfloat16 (bf16 fragments, D60), in the order dg_coop_rewrite() decides them
 * (bf16 after KHR, which it needs). */
enum { DG_COOP_EXT_KHR, DG_COOP_EXT_NV, DG_COOP_EXT_BF16, DG_COOP_EXT_COUNT };

/** What dg_coop_rewrite() adds to a device create info (storage for its structs). */
struct dg_coop_rewrite {
   VkPhysicalDeviceCooperativeMatrixFeaturesNV features[2]; /* KHR, NV: the same layout */
   VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16;
   bool add_name[DG_COOP_EXT_COUNT]; /* the extension is to be added to the names */
   bool enabled[DG_COOP_EXT_COUNT];  /* the extension and its feature will be enabled */
};

/** Enables the cooperative-matrix extension the device below offers with its
 *  cooperativeMatrix feature (NV where offered; KHR where only it is, under
 *  VMEL_GRAPH_KERNELS=coop-khr, or with VK_KHR_shader_bfloat16 where the device offers its
 *  type and cooperative-matrix features, which are then enabled too, unless
 *  VMEL_GRAPH_KERNELS=coop-nv; D60): its features struct appended to info's (cloned) chain,
 *  unless the application chained its own (then its choice stands), and its name to be added
 *  by dg_coop_extra_names(). VMEL_GRAPH_NO_COOP set: none. */
void dg_coop_rewrite(struct lyr_instance *instance, VkPhysicalDevice pd, VkDeviceCreateInfo *info,
                     struct dg_coop_rewrite *rw);

/** Appends the names dg_coop_rewrite() asks for to names[0..n) (room for DG_COOP_EXT_COUNT
 *  more; NULL: only counts); returns the new count. */
uint32_t dg_coop_extra_names(const struct dg_coop_rewrite *rw, const char **names, uint32_t n);

/** The DG_COOP_* shapes the COOP kernels may use on a device created with `enabled`
 *  extensions (dg_coop_rewrite::enabled): the listed shapes with the kernels' types, on a
 *  device of subgroup size DG_COOP_SUBGROUP_SIZE with shaderFloat16 / shaderInt8. */
uint32_t dg_coop_shapes(struct lyr_instance *instance, VkPhysicalDevice pd,
                        const bool enabled[DG_COOP_EXT_COUNT]);

#endif /* DG_COOP_H */
