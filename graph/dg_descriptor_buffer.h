/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-graph pipelines with descriptor buffers (dataGraphDescriptorBuffer,
 * VK_EXT_descriptor_buffer; docs/decisions.md D23): what dg_caps.c,
 * dg_device.c, dg_pipeline.c, dg_session.c and dg_dispatch.c call in
 * dg_descriptor_buffer.c.
 */
#ifndef DG_DESCRIPTOR_BUFFER_H
#define DG_DESCRIPTOR_BUFFER_H

#include "dg_private.h"
#include "lyr_cmd.h"

struct dg_pipeline;
struct dg_session;

/** Whether the device below can run data-graph pipelines with descriptor
 *  buffers: descriptorBuffer with push descriptors (bufferless, at least
 *  VMEL_GRAPH_MAX_TENSORS of them) for the kernels' internal set, and tensor
 *  descriptors in descriptor buffers from VK_ARM_tensors below. */
bool dg_descriptor_buffer_available(struct lyr_instance *instance,
                                    VkPhysicalDevice physical_device);

/* Storage for what dg_descriptor_buffer_rewrite() appends to a device create info. */
struct dg_descriptor_buffer_rewrite {
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt;
   bool push_extension; /* VK_KHR_push_descriptor must be added to the extensions */
   bool enabled;        /* the application enabled dataGraphDescriptorBuffer */
};

/**
 * At vkCreateDevice, on the copy of the application's create info going down
 * (info; its chain is ours to change): passes the application's
 * VkPhysicalDeviceDescriptorBufferTensorFeaturesARM down again (the copy
 * dropped every ARM struct) and, when the application enabled
 * dataGraphDescriptorBuffer, turns on descriptorBufferPushDescriptors and
 * descriptorBufferTensorDescriptors and asks for VK_KHR_push_descriptor
 * (out->push_extension).
 */
void dg_descriptor_buffer_rewrite(const VkDeviceCreateInfo *app, VkDeviceCreateInfo *info,
                                  struct dg_descriptor_buffer_rewrite *out);

/** At vkCreateDevice: dataGraphDescriptorBuffer requested without
 *  VK_EXT_descriptor_buffer and its descriptorBuffer enabled fails with
 *  VK_ERROR_FEATURE_NOT_PRESENT and a log line. */
VkResult dg_descriptor_buffer_check_device(const VkDeviceCreateInfo *app);

/** At vkCreateDataGraphPipelinesARM: DESCRIPTOR_BUFFER_BIT_EXT needs
 *  dataGraphDescriptorBuffer enabled, and the layout's set layouts must all have
 *  DESCRIPTOR_BUFFER_BIT exactly when the pipeline has the flag
 *  (VK_ERROR_VALIDATION_FAILED_EXT and a log line otherwise). */
VkResult dg_descriptor_buffer_check_pipeline(struct dg_device *device,
                                             const VkDataGraphPipelineCreateInfoARM *info);

/** Set-layout flags of the kernels' layouts of a pipeline: DESCRIPTOR_BUFFER_BIT
 *  for descriptor-buffer pipelines; the internal set is a push-descriptor set then. */
VkDescriptorSetLayoutCreateFlags dg_descriptor_buffer_layout_flags(const struct dg_pipeline *p,
                                                                   bool internal);

/* Descriptor-buffer offsets of one command buffer (in dg_dispatch.c's per-command-buffer data). */
struct dg_db_cmd {
   /* Set at the data-graph bind point. */
   uint32_t graph_mask;
   uint32_t graph_index[LYR_CMD_MAX_SETS];
   VkDeviceSize graph_offset[LYR_CMD_MAX_SETS];
   /* The application's at the compute bind point, put back after a dispatch. */
   uint32_t compute_mask;
   uint32_t compute_index[LYR_CMD_MAX_SETS];
   VkDeviceSize compute_offset[LYR_CMD_MAX_SETS];
   VkPipelineLayout compute_layout[LYR_CMD_MAX_SETS];
};

/** dg_dispatch.c: the descriptor-buffer state of a tracked command buffer, or NULL. */
struct dg_db_cmd *dg_dispatch_db_state(struct dg_device *device, VkCommandBuffer cmd);

/** At a dispatch of a descriptor-buffer pipeline: the application's
 *  data-graph offsets set at the compute bind point with the kernels' layout. */
void dg_descriptor_buffer_bind(struct dg_device *device, const struct dg_db_cmd *db,
                               const struct dg_pipeline *p, VkCommandBuffer cmd);
/** Pushes internal set `set` (dg_stage_plan::internal_sets) of the session. */
void dg_descriptor_buffer_push_internal(struct dg_device *device, const struct dg_session *s,
                                        uint32_t set, VkCommandBuffer cmd);
/** After the dispatch: the application's compute offsets set again. */
void dg_descriptor_buffer_restore(struct dg_device *device, const struct dg_db_cmd *db,
                                  VkCommandBuffer cmd);

extern const struct lyr_hook_table dg_descriptor_buffer_hooks;

#endif /* DG_DESCRIPTOR_BUFFER_H */
