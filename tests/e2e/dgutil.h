/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Building blocks for the graph runtime's end-to-end tests, finer-grained than
 * tools/graphrun: a device with VK_ARM_data_graph through both layers (and
 * validation below them), host-visible tensors, set and pipeline layouts,
 * data-graph pipelines from SPIR-V text, sessions with bound memory,
 * descriptor writes and one-shot command buffers. Every call goes through the
 * loader; a failure is counted as a test failure where it happens.
 */
#ifndef VMEL_DGUTIL_H
#define VMEL_DGUTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph_run.h"
#include "vkutil.h"

#define DGU_MAX_RANK 6
#define DGU_MAX_SETS 4
#define DGU_MAX_BINDINGS 16

/* The common head of a graph module: capabilities, extensions, the TOSA import
 * and the memory model. Decorations follow it, then DGU_TYPES. */
#define DGU_PRELUDE                                                                                \
   "OpCapability Shader\n"                                                                         \
   "OpCapability VulkanMemoryModel\n"                                                              \
   "OpCapability Int8\n"                                                                           \
   "OpCapability TensorsARM\n"                                                                     \
   "OpCapability GraphARM\n"                                                                       \
   "OpCapability ReplicatedCompositesEXT\n"                                                        \
   "OpExtension \"SPV_ARM_tensors\"\n"                                                             \
   "OpExtension \"SPV_ARM_graph\"\n"                                                               \
   "OpExtension \"SPV_EXT_replicated_composites\"\n"                                               \
   "%tosa = OpExtInstImport \"TOSA.001000.1\"\n"                                                   \
   "OpMemoryModel Logical Vulkan\n"

/* Scalar types, small constants and shape-array types every module may use. */
#define DGU_TYPES                                                                                  \
   "%bool = OpTypeBool\n"                                                                          \
   "%uchar = OpTypeInt 8 0\n"                                                                      \
   "%uint = OpTypeInt 32 0\n"                                                                      \
   "%float = OpTypeFloat 32\n"                                                                     \
   "%true = OpConstantTrue %bool\n"                                                                \
   "%false = OpConstantFalse %bool\n"                                                              \
   "%uint_0 = OpConstant %uint 0\n"                                                                \
   "%uint_1 = OpConstant %uint 1\n"                                                                \
   "%uint_2 = OpConstant %uint 2\n"                                                                \
   "%uint_3 = OpConstant %uint 3\n"                                                                \
   "%uint_4 = OpConstant %uint 4\n"                                                                \
   "%arr_1 = OpTypeArray %uint %uint_1\n"                                                          \
   "%arr_2 = OpTypeArray %uint %uint_2\n"                                                          \
   "%arr_3 = OpTypeArray %uint %uint_3\n"                                                          \
   "%arr_4 = OpTypeArray %uint %uint_4\n"                                                          \
   "%propagate = OpConstant %uint 1\n"

/* A [1, 64] fp32 input at (set 0, binding 0) and output at (set 0, binding 1):
 * DGU_PRELUDE, their decorations, DGU_TYPES, then %t, %ptr, %in_var and
 * %out_var. The graph follows. */
#define DGU_IO_1X64                                                                                \
   DGU_PRELUDE                                                                                     \
   "OpDecorate %in_var DescriptorSet 0\n"                                                          \
   "OpDecorate %in_var Binding 0\n"                                                                \
   "OpDecorate %out_var DescriptorSet 0\n"                                                         \
   "OpDecorate %out_var Binding 1\n"                                                               \
   DGU_TYPES                                                                                       \
   "%uint_64 = OpConstant %uint 64\n"                                                              \
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_64\n"                                        \
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"                                                  \
   "%ptr = OpTypePointer UniformConstant %t\n"                                                     \
   "%in_var = OpVariable %ptr UniformConstant\n"                                                   \
   "%out_var = OpVariable %ptr UniformConstant\n"

/* Three stages, two intermediates, on DGU_IO_1X64: out = 2 * clamp(in, -2, 2) - in. */
#define DGU_CLAMP_ADD_SUB_TEXT                                                                     \
   DGU_IO_1X64                                                                                     \
   "%m2 = OpConstant %float -2\n"                                                                  \
   "%p2 = OpConstant %float 2\n"                                                                   \
   "%gt = OpTypeGraphARM 1 %t %t\n"                                                                \
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"                                           \
   "%g = OpGraphARM %gt\n"                                                                         \
   "%in = OpGraphInputARM %t %uint_0\n"                                                            \
   "%t1 = OpExtInst %t %tosa CLAMP %m2 %p2 %propagate %in\n"                                       \
   "%t2 = OpExtInst %t %tosa ADD %t1 %t1\n"                                                        \
   "%out = OpExtInst %t %tosa SUB %t2 %in\n"                                                       \
   "OpGraphSetOutputARM %out %uint_0\n"                                                            \
   "OpGraphEndARM\n"


struct dgu_options {
   bool update_after_bind;   /* enable dataGraphUpdateAfterBind (when offered) */
   bool sync_validation;     /* synchronization validation: hazards are errors */
   const VkAllocationCallbacks *device_alloc; /* pAllocator of vkCreateDevice */
   const char *layer_below;  /* a test layer enabled below ours (above validation), or NULL:
                              * then VMEL_TEST_LAYER_BELOW's, where set (whole tests rerun
                              * on one) */
   bool pipeline_library;    /* enable graphicsPipelineLibrary (stages may chain their module)
                              * where the device has VK_EXT_graphics_pipeline_library */
   bool optical_flow;        /* enable VK_ARM_data_graph_optical_flow and its feature */
   const char *extension;    /* one more device extension to enable, or NULL */
   void *features;           /* a features struct (pNext NULL) put first in the device create
                              * info's chain, or NULL */
};

struct dgu {
   struct vku v;
   VkDevice device;
   uint32_t family; /* with VK_QUEUE_DATA_GRAPH_BIT_ARM */
   VkQueue queue;
   VkCommandPool pool;
   VkFence fence;
   struct graph_arm_fns fn;
   VkPhysicalDeviceLimits limits;
   bool update_after_bind; /* enabled */
   bool pipeline_library;  /* graphicsPipelineLibrary enabled */
   const VkAllocationCallbacks *device_alloc;
};

/** Instance (graph, tensor, validation), device and queue. Skips the test
 *  (exit 77) without a device; returns false (counted) on failure. */
bool dgu_init(struct dgu *u, const struct dgu_options *options);
void dgu_finish(struct dgu *u);

/** Assembles SPIR-V text (malloc()ed words; the failure is counted). */
uint32_t *dgu_assemble(const char *text, size_t *count);

/* ---- tensors -------------------------------------------------------------------------------- */

struct dgu_tensor {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   void *data; /* mapped, packed */
   VkFormat format;
   uint32_t rank;
   int64_t dims[DGU_MAX_RANK];
   uint64_t elements;
   size_t size; /* bytes */
};

uint32_t dgu_format_size(VkFormat format);
/** A packed linear tensor in host-visible coherent memory, with a view. */
bool dgu_tensor_create(struct dgu *u, VkFormat format, uint32_t rank, const int64_t *dims,
                       struct dgu_tensor *t);
/** The same with usage bits beyond DATA_GRAPH and SHADER (transfer, for copies). */
bool dgu_tensor_create_usage(struct dgu *u, VkFormat format, uint32_t rank, const int64_t *dims,
                             VkTensorUsageFlagsARM extra_usage, struct dgu_tensor *t);
void dgu_tensor_destroy(struct dgu *u, struct dgu_tensor *t);

/** A VkTensorDescriptionARM of a format and shape (dims not copied). */
VkTensorDescriptionARM dgu_description(VkFormat format, uint32_t rank, const int64_t *dims);

/* ---- pipelines ------------------------------------------------------------------------------ */

/** A tensor binding of the graph's layout: `count` descriptors, and the
 *  resource info (format, shape) of the interface variable at (set, binding). */
struct dgu_binding {
   uint32_t set, binding, count;
   VkFormat format;
   uint32_t rank;
   int64_t dims[DGU_MAX_RANK];
};

struct dgu_constant {
   uint32_t id;
   VkFormat format;
   uint32_t rank;
   int64_t dims[DGU_MAX_RANK];
   const void *data;
};

struct dgu_pipeline_desc {
   const char *text;       /* SPIR-V text */
   const char *entry;      /* NULL: "main" */
   const struct dgu_binding *bindings;
   uint32_t binding_count;
   const struct dgu_constant *constants;
   uint32_t constant_count;
   const VkSpecializationInfo *specialization;
   bool update_after_bind; /* layouts and bindings with the update-after-bind flags */
   const void *create_pnext; /* appended to VkDataGraphPipelineCreateInfoARM's chain */
};

struct dgu_graph {
   VkShaderModule module;
   VkDescriptorSetLayout set_layouts[DGU_MAX_SETS];
   uint32_t set_count;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkResult result; /* of vkCreateDataGraphPipelinesARM */
   bool update_after_bind;
};

/** Layouts, module and pipeline. Returns the pipeline creation result; the
 *  layouts and module exist whenever they could be made. */
VkResult dgu_graph_create(struct dgu *u, const struct dgu_pipeline_desc *desc, struct dgu_graph *g);
void dgu_graph_destroy(struct dgu *u, struct dgu_graph *g);

/** Fills the create-info pieces of a description for a hand-made call:
 *  resource infos with their descriptions, constants with theirs. */
struct dgu_create_parts {
   VkDataGraphPipelineResourceInfoARM resources[DGU_MAX_BINDINGS];
   VkTensorDescriptionARM resource_descs[DGU_MAX_BINDINGS];
   VkDataGraphPipelineConstantARM constants[DGU_MAX_BINDINGS];
   VkTensorDescriptionARM constant_descs[DGU_MAX_BINDINGS];
   VkDataGraphPipelineShaderModuleCreateInfoARM module_info;
   VkDataGraphPipelineCreateInfoARM info;
};
void dgu_create_parts(const struct dgu_pipeline_desc *desc, const struct dgu_graph *g,
                      struct dgu_create_parts *parts);

/* ---- sessions, sets, commands ------------------------------------------------------------- */

struct dgu_session {
   VkDataGraphPipelineSessionARM session;
   VkDeviceMemory memory;
   VkDeviceSize size; /* the transient bind point's requirement, 0 when none */
};

bool dgu_session_create(struct dgu *u, VkPipeline pipeline, struct dgu_session *s);
void dgu_session_destroy(struct dgu *u, struct dgu_session *s);

/** A pool and one set per set layout of the graph. */
struct dgu_sets {
   VkDescriptorPool pool;
   VkDescriptorSet sets[DGU_MAX_SETS];
};
bool dgu_sets_create(struct dgu *u, const struct dgu_graph *g, struct dgu_sets *s);
void dgu_sets_destroy(struct dgu *u, struct dgu_sets *s);
void dgu_write(struct dgu *u, VkDescriptorSet set, uint32_t binding, uint32_t element,
               const struct dgu_tensor *t);

/** A new primary command buffer of the pool, begun. */
VkCommandBuffer dgu_begin(struct dgu *u);
/** Binds the graph's pipeline and sets at the data-graph bind point and
 *  dispatches the session. */
void dgu_dispatch(struct dgu *u, VkCommandBuffer cmd, const struct dgu_graph *g,
                  const struct dgu_sets *sets, VkDataGraphPipelineSessionARM session);
/** A global memory barrier (synchronization2). */
void dgu_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
                 VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access);
/** Host writes -> data graph reads, at the start of a command buffer. */
void dgu_barrier_host_to_graph(VkCommandBuffer cmd);
/** Data graph writes -> host reads, at the end. */
void dgu_barrier_graph_to_host(VkCommandBuffer cmd);
/** Ends, submits (vkQueueSubmit2) and waits on the fence. */
bool dgu_submit_wait(struct dgu *u, VkCommandBuffer cmd);
void dgu_free_cmd(struct dgu *u, VkCommandBuffer cmd);
/** One dispatch in a command buffer of its own: host writes -> dispatch (dgu_dispatch) ->
 *  host reads, submitted and waited on, then freed. Returns dgu_submit_wait()'s result. */
bool dgu_run(struct dgu *u, const struct dgu_graph *g, const struct dgu_sets *sets,
             VkDataGraphPipelineSessionARM session);

/** Reads a text property of a data-graph pipeline (malloc()ed, NUL-terminated). */
char *dgu_text_property(struct dgu *u, VkPipeline pipeline, VkDataGraphPipelinePropertyARM prop);

/** The reference of DGU_CLAMP_ADD_SUB_TEXT over n elements. */
void dgu_clamp_add_sub_expect(const float *in, float *want, uint32_t n);

/* ---- checking ------------------------------------------------------------------------------ */

/** Counts a check that two fp32 arrays are equal element for element. */
bool dgu_check_f32(const char *what, const float *got, const float *want, uint64_t n);
/** Counts a check that two byte arrays are equal. */
bool dgu_check_bytes(const char *what, const void *got, const void *want, size_t n);

/** A counting allocator: outstanding allocations and bytes. Atomic: lavapipe frees
 * device-scope objects on its queue thread while the test thread allocates. */
struct dgu_alloc_counter {
   _Atomic long allocations;
   _Atomic long live;
   _Atomic size_t live_bytes;
};
VkAllocationCallbacks dgu_counting_allocator(struct dgu_alloc_counter *c);

/** A growing text buffer for generated modules (s is NUL-terminated, malloc()ed; free() it). */
struct dgu_text {
   char *s;
   size_t n, cap;
};

/** Appends printf-formatted text; aborts when out of memory (tests only). */
void dgu_put(struct dgu_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* VMEL_DGUTIL_H */
