/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Helpers of the optical-flow end-to-end tests (test_of_graph.c, test_of_flags.c): the
 * application's side of VK_ARM_data_graph_optical_flow as Arm's tests use it (storage images at set
 * 0 bindings 0..4, layout GENERAL), pipelines, sessions, dispatches and read-back.
 */
#ifndef VMEL_OF_UTIL_H
#define VMEL_OF_UTIL_H

#include "dgutil.h"

/* Bindings of the application's set 0 (Arm's tests' order). */
enum { OFU_INPUT, OFU_REFERENCE, OFU_FLOW, OFU_HINT, OFU_COST, OFU_BINDINGS };

struct ofu {
   struct dgu u;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
};

struct ofu_image {
   VkImage image;
   VkDeviceMemory memory;
   VkImageView view;
   VkFormat format;
   uint32_t w, h, texel; /* bytes per texel */
};

/* One optical-flow configuration. */
struct ofu_config {
   uint32_t width, height;
   VkFormat image_format;
   uint32_t grid, hint_grid; /* pixels; hint_grid 0: no hint */
   uint32_t perf;            /* VkDataGraphOpticalFlowPerformanceLevelARM */
   bool cost;
};

/** A device with VK_ARM_data_graph_optical_flow enabled (or not), the set layout of
 *  OFU_BINDINGS storage images at set 0, its pipeline layout and a pool. */
bool ofu_init(struct ofu *o, bool optical_flow);
void ofu_finish(struct ofu *o);

/** vkCreateDataGraphPipelinesARM for a configuration (connections at set 0 as above). */
VkResult ofu_pipeline(struct ofu *o, const struct ofu_config *c, VkPipeline *pipeline);

bool ofu_image_create(struct ofu *o, VkFormat format, uint32_t w, uint32_t h,
                      struct ofu_image *img);
void ofu_image_destroy(struct ofu *o, struct ofu_image *img);
/** Writes (w*h*texel bytes) into the image / reads it back. */
bool ofu_image_write(struct ofu *o, struct ofu_image *img, const void *data);
bool ofu_image_read(struct ofu *o, struct ofu_image *img, void *data);

/* A session with its memory, a descriptor set of the configuration's images. */
struct ofu_run {
   VkPipeline pipeline;
   VkDataGraphPipelineSessionARM session;
   VkDeviceMemory memory[2];
   VkDescriptorSet set;
   struct ofu_image in, ref, flow, hint, cost;
   struct ofu_config c;
};

bool ofu_run_create(struct ofu *o, const struct ofu_config *c, bool cache, struct ofu_run *r);
void ofu_run_destroy(struct ofu *o, struct ofu_run *r);
/** Records one dispatch with these execute flags (between barriers) into a begun command
 *  buffer. */
void ofu_record(struct ofu *o, struct ofu_run *r, VkCommandBuffer cmd, uint32_t flags);
/** Records and submits one dispatch with these execute flags; waits. */
bool ofu_dispatch(struct ofu *o, struct ofu_run *r, uint32_t flags);

/* Agreement with the CPU reference: a vector agrees when both components are within OFU_TOL_PX
 * (R16G16_SFLOAT steps are 1/256 px at 4..8 px), a cost within OFU_TOL_COST. At most 1 % of
 * the vectors may disagree: Vulkan allows 2.5 ULP for a division, so on other devices than
 * lavapipe (where none disagrees) a borderline decision of the algorithm (a rounded candidate,
 * the texture test, the median's outlier test) may go the other way. */
#define OFU_TOL_PX 0.05f
#define OFU_TOL_COST 2u

/** Counts a check that the flow (n vectors of R16G16_SFLOAT bits) agrees with the reference's
 *  (2n floats); *largest: the largest difference. */
bool ofu_check_flow(const char *what, const uint16_t *got, const float *want, size_t n,
                    float *largest);
/** The same for costs (n R16_UINT values). */
bool ofu_check_cost(const char *what, const uint16_t *got, const uint16_t *want, size_t n,
                    uint32_t *largest);

#endif
