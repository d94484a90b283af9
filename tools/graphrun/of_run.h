/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Running VK_ARM_data_graph_optical_flow as an application does (spec-facts
 * §1.6): device-local storage images created with
 * VkDataGraphOpticalFlowImageFormatInfoARM, one descriptor set of storage
 * images, a single-node pipeline (VkDataGraphPipelineSingleNodeCreateInfoARM,
 * VkDataGraphPipelineOpticalFlowCreateInfoARM, resource infos with their image
 * layouts), a session (with the OPTICAL_FLOW_CACHE bind point when asked) with
 * memory bound at every bind point, and dispatches with execute flags, timed
 * by wall clock and GPU timestamps. Shared by vmel-run --optical-flow and
 * bench/bench_optical_flow.c.
 */
#ifndef VMEL_OF_RUN_H
#define VMEL_OF_RUN_H

#include "graph_run.h"

struct of_run_params {
   uint32_t width, height;
   VkFormat image_format; /* R8_UNORM: frames are 8-bit luma */
   uint32_t grid;         /* output (and hint) grid: 1, 2, 4 or 8 */
   VkDataGraphOpticalFlowPerformanceLevelARM level;
   bool hint, cost;
   bool cache; /* the session gets the OPTICAL_FLOW_CACHE bind point */
};

struct of_run;

/**
 * Creates a device on physical_device with VK_ARM_data_graph and, where the
 * device lists it, VK_ARM_data_graph_optical_flow and its feature
 * (*offered says whether it did).
 */
VkResult of_device_create(VkInstance instance, VkPhysicalDevice physical_device,
                          struct graph_device *gd, bool *offered);

/** Creates every object for p; on failure log says which step (and the result). */
VkResult of_run_create(const struct graph_device *gd, const struct of_run_params *p,
                       struct of_run **out, char *log, size_t log_len);
void of_run_destroy(struct of_run *r);

/** The flow and cost maps' size: ceil(width / grid) x ceil(height / grid). */
void of_run_output_size(const struct of_run *r, uint32_t *w, uint32_t *h);

/** Stages new frames (width*height bytes each; NULL: keep that image) for the next dispatch. */
void of_run_set_frames(struct of_run *r, const uint8_t *input, const uint8_t *reference);
/** Stages a hint (output-size (x, y) float pairs) for the next dispatch. */
void of_run_set_hint(struct of_run *r, const float *hint);

/**
 * Uploads what was staged, dispatches once with these execute flags, reads the
 * outputs back; waits. wall_ms: submit to fence; gpu_ms: the dispatch between
 * timestamps (NAN where the queue has none). Either may be NULL.
 */
VkResult of_run_dispatch(struct of_run *r, VkDataGraphOpticalFlowExecuteFlagsARM flags,
                         double *wall_ms, double *gpu_ms);

/** The last dispatch's flow (output-size (x, y) float pairs) and cost (may be NULL). */
void of_run_read(const struct of_run *r, float *flow, uint16_t *cost);

#endif /* VMEL_OF_RUN_H */
