/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The compiler's statistics of the graph layer's kernels (VMEL_GRAPH_PIPELINE_STATS=1,
 * dg_pipeline_stats.c; D59).
 */
#ifndef DG_PIPELINE_STATS_H
#define DG_PIPELINE_STATS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

struct lyr_instance;
struct dg_device;

/** What dg_pipeline_stats_rewrite() adds to a device create info (storage for its struct). */
struct dg_pipeline_stats_rewrite {
   VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR features;
   bool add_name; /* VK_KHR_pipeline_executable_properties is to be added to the names */
   bool enabled;  /* the extension and pipelineExecutableInfo will be enabled */
};

/** Under VMEL_GRAPH_PIPELINE_STATS (set, not "0"), enables VK_KHR_pipeline_executable_properties
 *  with pipelineExecutableInfo where the device below offers them: its features struct appended
 *  to info's (cloned) chain unless the application chained its own (then its choice stands),
 *  its name to be added by dg_pipeline_stats_extra_names() unless the application listed it.
 *  Where it cannot, a warning says why. */
void dg_pipeline_stats_rewrite(struct lyr_instance *instance, VkPhysicalDevice pd,
                               VkDeviceCreateInfo *info, struct dg_pipeline_stats_rewrite *rw);

/** Appends the name dg_pipeline_stats_rewrite() asks for to names[0..n) (room for one more;
 *  NULL: only counts); returns the new count. */
uint32_t dg_pipeline_stats_extra_names(const struct dg_pipeline_stats_rewrite *rw,
                                       const char **names, uint32_t n);

/** Whether the device created with rw logs its kernels' statistics (the query functions found
 *  below; a warning where they are not). */
bool dg_pipeline_stats_init(struct dg_device *device, const struct dg_pipeline_stats_rewrite *rw);

/** VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR where the device logs statistics, else 0:
 *  for the layer's own compute pipelines only. */
VkPipelineCreateFlags dg_pipeline_stats_flags(const struct dg_device *device);

/** Logs (info) one line per executable of a kernel's compute pipeline, created with
 *  dg_pipeline_stats_flags(): "pipeline statistics: kernel K (WHAT) executable I/N "NAME"
 *  subgroup S: name=value ...", every statistic the driver returns. A failed query is a warning;
 *  nothing else changes. */
void dg_pipeline_stats_log(struct dg_device *device, VkPipeline pipeline, const char *kernel,
                           const char *what);

#endif /* DG_PIPELINE_STATS_H */
