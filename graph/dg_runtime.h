/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The objects the graph layer owns at run time and the contracts between
 * their files: data-graph pipelines (dg_pipeline.c) made of compute stages
 * (dg_stage.c, the kernels of shaders/graph), sessions with their planned
 * intermediate memory (dg_session.c), dispatch recording (dg_dispatch.c) and
 * profiling (dg_profile.c). Decoding lives in dg_decode.c (graph IR, dg_ir.h).
 */
#ifndef DG_RUNTIME_H
#define DG_RUNTIME_H

#include "dg_private.h"

#include "dg_ir.h"
#include "dg_plan.h"
#include "kernel_abi/graph_kernel.h"
#include "lyr_cmd.h"
#include "vmel_kernel.h"

#define DG_MAGIC_PIPELINE 0x44475049u /* "DGPI" */
#define DG_MAGIC_SESSION 0x44475345u  /* "DGSE" */

/* Where a kernel finds one of its tensors at dispatch time. */
enum dg_slot_kind {
   DG_SLOT_APP,      /* the application's descriptor sets: graph inputs and outputs */
   DG_SLOT_INTERNAL, /* an internal set: intermediates and constants; the binding is
                      * per stage (dg_stage::internal_binding) */
};

struct dg_slot {
   enum dg_slot_kind kind;
   uint32_t set, binding;
   uint32_t element; /* array element */
   uint32_t count;   /* the binding's descriptor count */
};

/* A tensor the pipeline's kernels use. */
enum dg_value_kind {
   DG_VALUE_IO,           /* bound by the application (graph input or output) */
   DG_VALUE_INTERMEDIATE, /* session memory, planned */
   DG_VALUE_CONSTANT,     /* owned by the pipeline, uploaded at creation */
};

struct dg_value {
   enum dg_value_kind kind;
   struct dg_tensor_type ty;
   struct dg_slot slot;
   uint32_t index;       /* INTERMEDIATE: in dg_pipeline::intermediates; CONSTANT: in constants */
   uint32_t first_stage; /* stages that write or read it: the planner's interval */
   uint32_t last_stage;
   uint32_t alias_of;    /* INTERMEDIATE: the value whose memory it shares (a RESHAPE of a
                          * packed intermediate costs no dispatch), or UINT32_MAX */
};

struct dg_intermediate {
   uint32_t value;
   VkFormat format;
   uint32_t root; /* the intermediate whose planned memory this one uses (itself if none) */
};

struct dg_constant {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
};

/* The contents of one internal descriptor set: the intermediates and
 * constants that the stages using it bind, at bindings 0..count-1. Each
 * session allocates one set per entry (stages with identical lists share). */
struct dg_internal_set {
   uint32_t count;
   uint32_t values[VMEL_GRAPH_MAX_TENSORS]; /* dg_pipeline::values */
};

/* One compute dispatch. */
struct dg_stage {
   VkPipeline pipeline;
   uint32_t node;        /* the IR node it belongs to */
   const char *op_name;  /* "CONV2D" */
   uint32_t result_id;   /* the node's SPIR-V result id */
   const char *kernel;   /* variant name */
   uint32_t groups[2];   /* workgroups in x and y */
   uint32_t value_count;
   uint32_t values[VMEL_GRAPH_MAX_TENSORS]; /* dg_pipeline::values, kernel binding order */
   uint32_t write_mask;  /* bit k: the kernel writes its tensor k */
   uint32_t internal_set; /* dg_pipeline::internal_sets index, or UINT32_MAX: none */
   uint8_t internal_binding[VMEL_GRAPH_MAX_TENSORS]; /* internal tensor k: its binding there */
   /* Its writes never overlap those of the other stages of its node that
    * have the flag too (CONCAT's per-input copies): no barrier between them. */
   bool disjoint_writes;
   bool shares_pipeline; /* `pipeline` is an earlier stage's (identical kernel and constants) */
};

/* A data-graph VkPipeline (the handle is the pointer). */
struct dg_pipeline {
   uint32_t magic;
   struct dg_device *device;
   VkAllocationCallbacks alloc;
   VkPipelineLayout layout;            /* the kernels': app set copies + internal set */
   uint32_t set_layout_count;          /* app set copies, then the internal set if any */
   VkDescriptorSetLayout *set_layouts; /* [set_layout_count] */
   uint32_t app_set_count;             /* sets of the application's pipeline layout */
   uint32_t internal_set;              /* set index of the internal sets: == app_set_count */
   uint32_t internal_binding_count;    /* of the internal set layout (the most one stage
                                        * binds, <= VMEL_GRAPH_MAX_TENSORS); 0: none */
   struct dg_internal_set *internal_sets; /* [internal_set_count] */
   uint32_t internal_set_count;
   struct dg_value *values;
   uint32_t value_count;
   struct dg_intermediate *intermediates;
   uint32_t intermediate_count;
   struct dg_constant *constants;
   uint32_t constant_count;
   struct dg_stage *stages;
   uint32_t stage_count;
   char *creation_log; /* text property */
   uint8_t identifier[32];
   struct dg_profile *profile; /* VMEL_GRAPH_PROFILING=1 only (dg_profile.c) */
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
   bool *barrier_before;      /* [stage_count]: a barrier precedes the stage */
   struct dg_session_profile *profile; /* VMEL_GRAPH_PROFILING=1 only (dg_profile.c) */
};

static inline struct dg_session *
dg_session_from_handle(VkDataGraphPipelineSessionARM handle)
{
   struct dg_session *s = (struct dg_session *)(uintptr_t)handle;
   return s && s->magic == DG_MAGIC_SESSION ? s : NULL;
}

/* ---- building stages (dg_stage.c, ops' build functions) --------------- */

struct dg_build;

/** The VkFormat a graph tensor of this type gets (signless integers: SINT). */
VkFormat dg_type_format(enum dg_type type);

/**
 * Adds one dispatch of a kernel variant (enum dg_kernel_id) for the node being built.
 * @param tensors   IR tensor indices (dg_graph::tensors) or values from
 *                  dg_build_add_constant(), in the kernel's binding order
 * @param writes    bit k: the kernel writes tensor k
 * @param attrs     the kernel's attribute struct (32-bit words, in
 *                  specialization-id order from VMEL_SC_ATTR(0))
 * @param work      work items (VMEL_SC_WORK_COUNT)
 */
VkResult dg_build_add_stage(struct dg_build *b, uint32_t kernel, const uint32_t *tensors,
                            uint32_t tensor_count, uint32_t writes, const void *attrs,
                            uint32_t attr_size, uint64_t work);

/** Makes tensor dst (a RESHAPE's output) share the memory of tensor src when
 *  both are intermediates (packed, so the same bytes in a new shape). Returns
 *  false, changing nothing that matters, when they cannot share. */
bool dg_build_try_alias(struct dg_build *b, uint32_t src, uint32_t dst);

/** Marks the stage added last as writing a part of its output that no other
 *  marked stage of the same node writes (CONCAT's copies). */
void dg_build_mark_disjoint_writes(struct dg_build *b);

/** A constant tensor the build needs beyond the graph's (e.g. RESCALE
 *  multipliers); returns a tensor reference for dg_build_add_stage(). */
VkResult dg_build_add_constant(struct dg_build *b, enum dg_type type, const struct dg_shape *shape,
                               const void *data, uint32_t *tensor);

/** The workgroup size of kernel variant `kernel` (its declaration; VMEL_GRAPH_LOCAL_SIZE by
 *  default). graph/build/dg_build_ops.c. */
uint32_t dg_kernel_local_size(uint32_t kernel);

/** True when the device can run float16 arithmetic (the _fp16arith variants). */
bool dg_build_fp16_arith(const struct dg_build *b);

/** The graph being built (for op build functions). */
const struct dg_graph *dg_build_graph(const struct dg_build *b);

/** Adds a copy of a graph output's tensor into the output's slot (for outputs
 *  that are graph inputs or constants, or set twice). graph/build/copy.c. */
VkResult dg_build_output_copy(struct dg_build *b, const struct dg_graph_io *io);
/** A value for a graph output's slot that no IR tensor names (copy target). */
VkResult dg_build_output_value(struct dg_build *b, const struct dg_graph_io *io, uint32_t *ref);

/** Where a constant value's bytes come from: packed data of size bytes, or
 *  the application's data laid out by desc (graph constants). */
struct dg_constant_source {
   const void *data;
   uint64_t size;
   const VkTensorDescriptionARM *desc;
};

/** Every node's stages, their values and their compute pipelines (created
 *  with the application's pipeline cache, which may be VK_NULL_HANDLE). */
VkResult dg_stage_build_all(struct dg_device *device, const struct dg_graph *graph,
                            const struct dg_pipeline_layout_info *layout, VkPipelineCache cache,
                            struct dg_pipeline *p);

/** Gives intermediates and constants their places (each stage's internal
 *  set), refuses a graph whose kernels' layout would exceed the device's
 *  descriptor limits, creates the kernels' set and pipeline layouts, uploads
 *  constants (dg_pipeline.c). */
VkResult dg_pipeline_place_values(struct dg_device *device, struct dg_pipeline *p,
                                  const struct dg_pipeline_layout_info *layout,
                                  const struct dg_constant_source *sources);

/** Builds the stages of every node: calls each op's build function. */
typedef VkResult (*dg_op_build_fn)(struct dg_build *b, const struct dg_node *node);
dg_op_build_fn dg_op_builder(uint32_t op);

/* ---- pipelines, sessions, dispatch ------------------------------------ */

/** Creates, through the layer below, a linear tensor of this format and shape usable by
 *  shaders and data graphs (a graph constant or a session's intermediate). */
VkResult dg_create_tensor(struct dg_device *device, VkFormat format, const struct dg_shape *shape,
                          VkTensorARM *tensor);

VkResult dg_pipeline_build(struct dg_device *device, const struct dg_graph *graph,
                           const struct dg_pipeline_layout_info *layout,
                           const VkAllocationCallbacks *alloc, struct dg_pipeline **out);
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

#endif /* DG_RUNTIME_H */
