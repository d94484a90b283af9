/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The objects the graph layer owns at run time and the contracts between
 * their files: data-graph pipelines (dg_pipeline.c) instantiated from a stage
 * plan (dg_stage_plan.h) as compute stages (dg_stage.c, the kernels of
 * shaders/graph), sessions with their planned
 * intermediate memory (dg_session.c), dispatch recording (dg_dispatch.c) and
 * profiling (dg_profile.c). Decoding lives in dg_decode.c (graph IR, dg_ir.h).
 */
#ifndef DG_RUNTIME_H
#define DG_RUNTIME_H

#include "dg_private.h"

#include "dg_cache.h"
#include "dg_descriptor_buffer.h"
#include "dg_ir.h"
#include "dg_plan.h"
#include "dg_stage_plan.h"
#include "kernel_abi/graph_kernel.h"
#include "lyr_cmd.h"
#include "vmel_kernel.h"

#define DG_MAGIC_PIPELINE 0x44475049u /* "DGPI" */
#define DG_MAGIC_SESSION 0x44475345u  /* "DGSE" */

/* A session's tensor (an intermediate or a scratch tensor of the plan: plan->memory). */
struct dg_intermediate {
   uint32_t tensor; /* dg_stage_plan::tensors */
   VkFormat format;
   uint32_t root; /* the intermediate whose planned memory this one uses (itself if none) */
};

struct dg_constant {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
};

/* One compute dispatch: what the plan's stage of the same index became. */
struct dg_stage {
   VkPipeline pipeline;
   uint32_t node;        /* the IR node it belongs to (its first), UINT32_MAX: output copy */
   const char *op_name;  /* "CONV2D", "CONV2D+RESCALE+CLAMP" (a fused stage, D52: in name) */
   char name[64];        /* a fused stage's op_name */
   uint32_t result_id;   /* the node's SPIR-V result id */
   const char *kernel;   /* variant name */
   uint32_t groups[2];   /* workgroups in x and y */
   uint32_t internal_set; /* dg_stage_plan::internal_sets index, or UINT32_MAX: none */
   bool shares_pipeline; /* `pipeline` is an earlier stage's (identical kernel and constants) */
};

/* A data-graph VkPipeline (the handle is the pointer). */
struct dg_pipeline {
   uint32_t magic;
   struct dg_device *device;
   VkAllocationCallbacks alloc;
   /* What it runs (dg_stage_plan.h). Graph-constant data pointers in it are the
    * application's, valid during creation only. */
   struct dg_stage_plan *plan;
   VkPipelineLayout layout;            /* the kernels': app set copies + internal set */
   uint32_t set_layout_count;          /* app set copies, then the internal set if any */
   VkDescriptorSetLayout *set_layouts; /* [set_layout_count] */
   uint32_t app_set_count;             /* sets of the application's pipeline layout */
   uint32_t internal_set;              /* set index of the internal sets: == app_set_count */
   uint32_t internal_binding_count;    /* of the internal set layout (the most one stage
                                        * binds, <= VMEL_GRAPH_MAX_TENSORS); 0: none */
   uint32_t internal_set_count;        /* plan->internal_sets: one descriptor set each */
   struct dg_intermediate *intermediates; /* [intermediate_count], plan->memory order */
   uint32_t intermediate_count;
   struct dg_constant *constants; /* [constant_count], plan->constants order */
   uint32_t constant_count;
   struct dg_stage *stages; /* [stage_count], plan->stages order */
   uint32_t stage_count;
   char *creation_log; /* text property */
   /* Created with DESCRIPTOR_BUFFER_BIT_EXT: the application's sets are in descriptor
    * buffers, the internal set is pushed (dg_descriptor_buffer.c). */
   bool descriptor_buffer;
   uint8_t identifier[32];
   struct dg_profile *profile; /* VMEL_GRAPH_PROFILING=1 only (dg_profile.c) */
   /* A single-node optical-flow pipeline (graph/of, D49): no plan, no stages. */
   struct of_pipeline *of;
};

static inline struct dg_pipeline *
dg_pipeline_from_handle(VkPipeline handle)
{
   return (struct dg_pipeline *)(uintptr_t)handle;
}

/** True when the handle is a data-graph pipeline of this device. */
bool dg_device_owns_pipeline(struct dg_device *device, VkPipeline handle);

/* A VkDataGraphPipelineSessionARM (the handle is the pointer). */
struct dg_session {
   uint32_t magic;
   struct dg_pipeline *pipeline;
   VkTensorARM *tensors;      /* [intermediate_count] */
   VkTensorViewARM *views;    /* [intermediate_count], after binding */
   VkDeviceSize *offsets;     /* planned, [intermediate_count] */
   VkDeviceSize size;         /* memory the intermediates need */
   VkDeviceSize alignment;
   uint32_t memory_type_bits;
   VkDescriptorPool pool;
   VkDescriptorSet *sets;     /* [pipeline->internal_set_count] */
   bool bound;                /* memory bound (or none needed) */
   uint32_t *order;           /* [stage_count]: the stages in the order they are recorded */
   bool *barrier_before;      /* [stage_count]: a barrier precedes order[k] (D46) */
   uint32_t barrier_count;
   struct dg_session_profile *profile; /* VMEL_GRAPH_PROFILING=1 only (dg_profile.c) */
   struct of_session *of; /* the session of an optical-flow pipeline (graph/of) */
};

static inline struct dg_session *
dg_session_from_handle(VkDataGraphPipelineSessionARM handle)
{
   struct dg_session *s = (struct dg_session *)(uintptr_t)handle;
   return s && s->magic == DG_MAGIC_SESSION ? s : NULL;
}

/* ---- plan instantiation (dg_stage.c, dg_pipeline.c) ------------------------ */

/** The VkFormat a graph tensor of this type gets (signless integers: SINT). */
VkFormat dg_type_format(enum dg_type type);

/** The plan of the graph (dg_stage_plan_build() with this device's caps and the
 *  application's layout as plain data) into p->plan, and what each stage keeps of the
 *  graph (*meta, [stage_count], lyr_free() with p->alloc): dg_stage.c. */
VkResult dg_stage_plan_graph(struct dg_device *device, const struct dg_graph *graph,
                             const struct dg_pipeline_layout_info *layout, struct dg_pipeline *p,
                             struct dg_cache_stage_meta **meta);

/** The instantiation of p->plan (from a graph or from a pipeline cache): the runtime
 *  stages, the kernels' layouts and constants (dg_pipeline_instantiate()) and one compute
 *  pipeline per distinct stage (created with the application's pipeline cache, which may
 *  be VK_NULL_HANDLE). */
VkResult dg_stage_instantiate(struct dg_device *device, const struct dg_pipeline_layout_info *layout,
                              VkPipelineCache cache, const struct dg_cache_stage_meta *meta,
                              struct dg_pipeline *p);

/** Creates the kernels' set and pipeline layouts (copies of the application's set
 *  layouts and the internal set layout) and uploads the plan's constants; fills the
 *  pipeline's intermediates (dg_pipeline.c). */
VkResult dg_pipeline_instantiate(struct dg_device *device, struct dg_pipeline *p,
                                 const struct dg_pipeline_layout_info *layout);

/** The kernels' set layouts: p->set_layouts[count] allocated, the first p->app_set_count
 *  identically defined copies of the application's (empty ones for its unused set
 *  numbers); the caller creates the rest (dg_pipeline.c). */
VkResult dg_pipeline_app_set_layouts(struct dg_device *device, struct dg_pipeline *p,
                                     const struct dg_pipeline_layout_info *layout,
                                     uint32_t count);

/** A compute -> compute barrier on storage reads and writes, between dependent kernels
 *  (dg_dispatch.c). */
void dg_stage_barrier(struct dg_device *device, VkCommandBuffer cmd);

/* ---- graph constants in device-local memory (dg_upload.c) --------------- */

/** An exclusive buffer of the layer's (the driver's below, the device's allocator) and its
 *  memory requirements; nothing to free on failure. */
VkResult dg_create_buffer(struct dg_device *device, VkDeviceSize size, VkBufferUsageFlags usage,
                          VkBuffer *buffer, VkMemoryRequirements *req);

/* One constant to stage: its memory is bound to `dst` (a buffer aliasing it) at offset 0. */
struct dg_upload_item {
   VkBuffer dst;       /* VK_NULL_HANDLE: the constant is mapped instead */
   VkDeviceSize bytes; /* packed bytes */
   VkDeviceSize offset; /* in the staging buffer (dg_upload_run) */
   uint32_t index;     /* the caller's: which constant */
};

/** Picks the upload queue among those info creates; reads VMEL_GRAPH_CONSTANTS. */
void dg_upload_init(struct dg_device *device, const VkDeviceCreateInfo *info);
void dg_upload_finish(struct dg_device *device);

/** The lock of the upload queue, for the hooked queue commands (no-ops for other queues). */
void dg_queue_lock(struct dg_device *device, VkQueue queue);
void dg_queue_unlock(struct dg_device *device, VkQueue queue);

/** Whether a constant of `bytes` whose tensor has these requirements is staged: then
 *  item->dst is its destination buffer (bind it to the memory allocated with *type), else
 *  *type is UINT32_MAX and the caller maps the memory itself. */
VkResult dg_upload_choose(struct dg_device *device, const VkMemoryRequirements *tensor_req,
                          VkDeviceSize bytes, struct dg_upload_item *item, uint32_t *type);
void dg_upload_item_release(struct dg_device *device, struct dg_upload_item *item);

/** Copies the items (pack() writes each one's packed bytes) through one staging buffer on the
 *  upload queue and waits for the copies. */
VkResult dg_upload_run(struct dg_device *device, struct dg_upload_item *items, uint32_t count,
                       void (*pack)(void *dst, const struct dg_upload_item *item, void *user),
                       void *user);

/* ---- pipelines, sessions, dispatch ------------------------------------ */

/** Creates, through the layer below, a linear tensor of this format and shape usable by
 *  shaders and data graphs (a graph constant or a session's intermediate). */
VkResult dg_create_tensor(struct dg_device *device, VkFormat format, const struct dg_shape *shape,
                          VkTensorARM *tensor);

void dg_pipeline_destroy(struct dg_pipeline *pipeline, const VkAllocationCallbacks *alloc);

VkResult dg_dispatch_init(struct dg_device *device);
void dg_dispatch_finish(struct dg_device *device);

/* ---- profiling (dg_profile.c; VMEL_GRAPH_PROFILING=1) ------------------ */

#define DG_PROFILE_SLOTS 32   /* recorded dispatches of one session awaiting collection */
#define DG_PROFILE_SAMPLES 64 /* collected dispatches a pipeline keeps (the most recent) */

struct dg_profile;         /* per pipeline: samples and totals per operator */
struct dg_session_profile; /* per session: the timestamp query pool */

/** Each does nothing unless the device profiles. */
VkResult dg_profile_pipeline_init(struct dg_device *device, struct dg_pipeline *p);
void dg_profile_pipeline_finish(struct dg_pipeline *p);
VkResult dg_profile_session_init(struct dg_device *device, struct dg_session *s,
                                 const VkAllocationCallbacks *alloc);
void dg_profile_session_finish(struct dg_device *device, struct dg_session *s,
                               const VkAllocationCallbacks *alloc);
/** Before a dispatch's first stage: the slot its timestamps use, or UINT32_MAX
 *  when this dispatch is not profiled (no profiling, or a queue family
 *  without timestamps). */
uint32_t dg_profile_begin(struct dg_device *device, struct dg_session *s, VkCommandBuffer cmd,
                          uint32_t family);
/** After stage `stage` of a profiled dispatch. */
void dg_profile_stage_end(struct dg_device *device, struct dg_session *s, VkCommandBuffer cmd,
                          uint32_t slot, uint32_t stage);
/** A command buffer holding the slot was submitted. */
void dg_profile_submitted(struct dg_device *device, struct dg_session *s, uint32_t slot);
/** Reads every submitted slot whose results are available into its pipeline's
 *  profile (after the application waited on a fence, a queue or the device). */
void dg_profile_collect(struct dg_device *device);
/** The profile as JSON text (allocated with the pipeline's allocator), its
 *  size with the NUL in *size; NULL without profiling or memory. */
char *dg_profile_json(struct dg_device *device, struct dg_pipeline *p, size_t *size);

extern const struct lyr_hook_table dg_pipeline_hooks; /* dg_pipeline.c */
extern const struct lyr_hook_table dg_session_hooks;  /* dg_session.c */
extern const struct lyr_hook_table dg_dispatch_hooks; /* dg_dispatch.c */
extern const struct lyr_hook_table dg_layout_hooks;   /* dg_layout.c */
extern const struct lyr_hook_table dg_cache_hooks;    /* dg_cache.c */

#endif /* DG_RUNTIME_H */
