/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_ARM_data_graph_optical_flow in the graph layer (D49, docs/optical-flow.md "The Vulkan
 * side"): a single-node optical-flow pipeline is a struct dg_pipeline whose `of` is set (no
 * stage plan); its session (struct dg_session `of`) holds two memory ranges, and its dispatch
 * records the kernels of shaders/graph/optical_flow. The algorithm is the CPU reference's
 * (tests/reference/optical_flow.c, D48) step by step.
 */
#ifndef OF_PRIVATE_H
#define OF_PRIVATE_H

#include "dg_runtime.h"
#include "of_limits.h"

#define OF_LEVELS_MAX 7
#define OF_STEP 4          /* pixels between vectors at every level */
#define OF_HEADER_WORDS 16 /* the cache's header: slot of the input, of the reference */

/* The connections, in this order. */
enum of_conn { OF_INPUT, OF_REFERENCE, OF_HINT, OF_FLOW, OF_COST, OF_CONN_COUNT };

/* The kernels (shaders/graph/optical_flow), one compute pipeline each. */
enum of_kernel {
   OF_K_SLOTS,
   OF_K_IMPORT_INPUT,
   OF_K_IMPORT_REFERENCE,
   OF_K_PYRAMID,
   OF_K_HINT,
   OF_K_SEARCH,
   OF_K_MEDIAN,
   OF_K_COST,
   OF_K_OUTPUT,
   OF_K_COUNT
};

/* The memory of a session, in 32-bit words. The cache: header, then two pyramids (levels of
 * one word per pixel). The transient part: the fields (2 floats per vector of level 0's grid,
 * the largest), the hint field and the block costs. */
struct of_memory {
   uint32_t level_offset[OF_LEVELS_MAX]; /* in a pyramid */
   uint32_t pyramid_words;
   uint32_t cache_words;      /* header + 2 pyramids */
   uint32_t field_words;      /* one field */
   uint32_t field[3];         /* two fields that alternate and the raw field */
   uint32_t hint, hint_words; /* the hint field (pixels) */
   uint32_t cost;             /* per level-0 block */
   uint32_t transient_words;
};

struct of_pipeline {
   VkDataGraphPipelineOpticalFlowCreateInfoARM info; /* pNext cleared */
   bool has[OF_CONN_COUNT];
   uint32_t set[OF_CONN_COUNT], binding[OF_CONN_COUNT];
   uint32_t grid, hint_grid; /* pixels per vector */
   uint32_t perf;            /* 1 SLOW, 2 MEDIUM, 3 FAST */
   uint32_t levels;
   uint32_t w[OF_LEVELS_MAX], h[OF_LEVELS_MAX];
   struct of_memory mem;
   VkPipeline kernels[OF_K_COUNT];
};

/** vkCreateDataGraphPipelinesARM with a VkDataGraphPipelineSingleNodeCreateInfoARM: validates
 *  everything (a log line per rejected value) and creates p->of, the layouts and kernels. */
VkResult of_pipeline_create(struct dg_device *device, const VkDataGraphPipelineCreateInfoARM *info,
                            const VkDataGraphPipelineSingleNodeCreateInfoARM *node,
                            const struct dg_pipeline_layout_info *layout, struct dg_pipeline *p);
void of_pipeline_destroy(struct dg_pipeline *p);

/** Level of the pyramid: sizes and count as of_levels() of the CPU reference. */
uint32_t of_level_count(uint32_t width, uint32_t height);

/** Patches the (set, binding) decorations of a kernel: placeholder set OF_SPV_APP_SET binding b
 *  becomes (sets[b], bindings[b]), placeholder set OF_SPV_INTERNAL_SET becomes internal_set.
 *  False when the module does not parse. */
#define OF_SPV_INTERNAL_SET 6u
#define OF_SPV_APP_SET 7u
bool of_spirv_patch(uint32_t *words, size_t count, const uint32_t *sets, const uint32_t *bindings,
                    uint32_t app_count, uint32_t internal_set);

/* ---- sessions (of_session.c) ---------------------------------------------- */

struct of_session {
   bool cache; /* created with OPTICAL_FLOW_CACHE */
   VkDeviceSize transient_size, cache_size, alignment;
   uint32_t memory_type_bits;
   VkBuffer transient, cache_buffer; /* bound to the application's memory */
   bool transient_bound, cache_bound;
   VkDescriptorPool pool;
   VkDescriptorSet set;
};

VkResult of_session_create(struct dg_device *device, struct dg_session *s,
                           VkDataGraphPipelineSessionCreateFlagsARM flags);
void of_session_destroy(struct dg_device *device, struct dg_session *s);
VkResult of_session_bind_points(const struct dg_session *s, uint32_t *count,
                                VkDataGraphPipelineSessionBindPointRequirementARM *req);
void of_session_memory_requirements(const struct dg_session *s,
                                    const VkDataGraphPipelineSessionMemoryRequirementsInfoARM *info,
                                    VkMemoryRequirements *r);
VkResult of_session_bind(struct dg_device *device, struct dg_session *s,
                         const VkBindDataGraphPipelineSessionMemoryInfoARM *info);

/* ---- dispatch (of_dispatch.c) ----------------------------------------------- */

/** Records the kernels of one dispatch; the application's sets are bound already. */
void of_dispatch_record(struct dg_device *device, struct dg_session *s, VkCommandBuffer cmd,
                        const VkDataGraphPipelineDispatchInfoARM *info);

#endif /* OF_PRIVATE_H */
