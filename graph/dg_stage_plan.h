/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Stage plans (design.md §10, "Stage plans are data"): what a data-graph
 * pipeline runs, decided from a decoded graph (dg_ir.h), the application's
 * pipeline layout (plain binding data) and a few device capabilities, with no
 * Vulkan call. A plan is a table of tensors (graph inputs and outputs,
 * intermediates, constants including those the build adds, session scratch
 * tensors that no IR tensor names) and an ordered list of stages, each one
 * dispatch of a kernel variant (enum dg_kernel_id) with its tensors in
 * binding order, where each of them is bound (the application's sets, or a
 * binding of the stage's internal set), its specialization data (attributes,
 * work count, workgroup size, shapes), its grid and the earlier stages it
 * depends on. The layer instantiates a plan (dg_stage.c, dg_pipeline.c:
 * layouts, constants, compute pipelines); sessions plan memory and barriers
 * from it (dg_session.c). Unit tests build plans without a device.
 *
 * Each operator's build function (graph/build/) fills the plan through the
 * dg_build_* calls below.
 */
#ifndef DG_STAGE_PLAN_H
#define DG_STAGE_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "dg_ir.h"
#include "dg_plan.h"
#include "kernel_abi/gemm_epilogue.h"
#include "kernel_abi/graph_kernel.h"
#include "vulkan/vulkan_arm_ml.h"

#define DG_PLAN_NONE UINT32_MAX
/* Attribute words a kernel takes: VMEL_SC_ATTR(0) up to the first shape constant. */
#define DG_PLAN_ATTR_WORDS (VMEL_SC_SHAPE(0, 0) - VMEL_SC_ATTR(0))
/* Shape specialization constants per kernel tensor (VMEL_SC_SHAPE(k, 0..13)). */
#define DG_PLAN_SHAPE_WORDS 14
/* Specialization constants of one stage at most (dg_plan_stage_spec()). */
#define DG_PLAN_SPEC_MAX                                                                           \
   (2 + VMEL_GRAPH_MAX_TENSORS * (2 + DG_PLAN_SHAPE_WORDS) + DG_PLAN_ATTR_WORDS + DG_EPI_WORDS)

/** Which kernels a plan runs (VMEL_GRAPH_KERNELS, read at pipeline creation; D44). */
enum dg_kernel_mode {
   DG_KERNELS_FAST = 0,      /* the variants (DG_VARIANT) where their build chooses them */
   DG_KERNELS_REFERENCE = 1, /* "reference": the rows' one-output-per-invocation kernels */
   DG_KERNELS_FAST_GPU = 2,  /* "fast-gpu": fast, with the choices made for a GPU on any device
                              * (tests run the GPU's tiles on lavapipe) */
   DG_KERNELS_FAST_CPU = 3,  /* "fast-cpu": fast, with the choices made for a CPU (the largest
                              * tiles: tests run them on a GPU whatever the shapes) */
   DG_KERNELS_COOP_NV = 4,   /* "coop-nv": fast, with the COOP_NV variants wherever a row has
                              * one and the device lists its shape (D51; tests on a GPU) */
   DG_KERNELS_COOP_KHR = 5,  /* "coop-khr": the same with COOP_KHR / COOP_KHR_SQUARE */
   DG_KERNELS_INT_DOT = 6,   /* "int-dot": fast, with the INT_DOT variants on i8 rows wherever
                              * the device has shaderIntegerDotProduct, CPU devices too (tests
                              * on lavapipe 25) */
   DG_KERNELS_COOP_KHR_SQUARE = 7, /* "coop-khr-square": COOP_KHR_SQUARE only, where its shape
                                    * is listed (tests of its fp16/fp8/i8 rows on a GPU that
                                    * also lists the 16x8 shapes KHR takes first, the H200) */
};

/** Kinds of DG_VARIANT kernels (tosa_ops.def). */
enum dg_variant_kind {
   DG_VARIANT_TILED,      /* tiled GEMM through shared memory (dg_gemm.glsl), 128 x 64 */
   DG_VARIANT_TILED_WIDE, /* the same, 128 x 128 tiles (kernel_abi/gemm_args.h) */
   DG_VARIANT_TILED_SMALL, /* the same, 64 x 64 tiles */
   /* The three with a fused epilogue (kernel_abi/gemm_epilogue.h, D52). */
   DG_VARIANT_TILED_EPI,
   DG_VARIANT_TILED_WIDE_EPI,
   DG_VARIANT_TILED_SMALL_EPI,
   DG_VARIANT_COOP_NV,     /* cooperative matrices (dg_gemm_coop.glsl), NV, 16x8 fragments */
   DG_VARIANT_COOP_KHR,    /* the same through VK_KHR_cooperative_matrix */
   DG_VARIANT_COOP_KHR_SQUARE, /* KHR with 16x16 fragments */
   DG_VARIANT_INT_DOT,     /* i8 with packed 4 x 8-bit dot products (dg_gemm_dot.glsl) */
   DG_VARIANT_INT_DOT_EPI, /* the same with a fused epilogue (D57) */
   DG_VARIANT_COOP_NV_EPI, /* COOP_NV and COOP_KHR with a fused epilogue (D58) */
   DG_VARIANT_COOP_KHR_EPI,
   /* Split-K (D56): the 64 x 64 tiled kernel summing one part of K into a scratch tensor of
    * partial sums, and the kernel that adds the parts and stores the output (gemm_reduce.comp),
    * without and with a fused epilogue. */
   DG_VARIANT_SPLITK,
   DG_VARIANT_SPLITK_REDUCE,
   DG_VARIANT_SPLITK_REDUCE_EPI,
   DG_VARIANT_INT_DOT_SPLITK, /* INT_DOT's split-K partial sums (D65), added by SPLITK_REDUCE */
   DG_VARIANT_SUBGROUP,    /* no shared memory, weights broadcast over 8-lane subgroups (D55) */
   DG_VARIANT_ROW_BLOCK,   /* DEPTHWISE_CONV2D: a row's pixels x 4 channels per work item (D64) */
   DG_VARIANT_NONE,        /* no kernel's kind: dg_build_variant() finds none */
};

/** The cooperative-matrix shapes a device runs the COOP variants with (dg_plan_caps::coop):
 *  listed by vkGetPhysicalDeviceCooperativeMatrixProperties{NV,KHR} with subgroup scope and
 *  the kernels' component types (fp16 x fp16 + fp32 -> fp32, s8 x s8 + s32 -> s32), the
 *  extension's feature enabled on the device, a subgroup size of DG_COOP_SUBGROUP_SIZE, and
 *  shaderFloat16 / shaderInt8 for the staged elements (D51). */
#define DG_COOP_NV_F16 (1u << 0)        /* NV 16x8x16 */
#define DG_COOP_NV_I8 (1u << 1)         /* NV 16x8x32 */
#define DG_COOP_KHR_F16 (1u << 2)       /* KHR 16x8x16 */
#define DG_COOP_KHR_I8 (1u << 3)        /* KHR 16x8x32 */
#define DG_COOP_KHR_SQUARE_F16 (1u << 4) /* KHR 16x16x16 */
#define DG_COOP_KHR_SQUARE_I8 (1u << 5)  /* KHR 16x16x32 */
/* KHR 16x16x16 bf16 x bf16 + fp32, with VK_KHR_shader_bfloat16's shaderBFloat16Type and
 * shaderBFloat16CooperativeMatrix enabled (D60) */
#define DG_COOP_KHR_SQUARE_BF16 (1u << 6)

/** What the device offers that a plan depends on (read at vkCreateDevice), and the kernel
 *  mode (read at pipeline creation). */
struct dg_plan_caps {
   bool fp16_arith;        /* shaderFloat16: the _fp16arith variants (DG_FAST) may run */
   enum dg_kernel_mode kernels;
   /* maxComputeWorkGroupInvocations and maxComputeSharedMemorySize; 0: not reported, the
    * Vulkan minimums (128, 16384) are assumed. */
   uint32_t max_workgroup_invocations, max_shared_memory;
   bool cpu_device; /* VK_PHYSICAL_DEVICE_TYPE_CPU: a workgroup per thread (tile choice, D44) */
   uint32_t max_groups[2]; /* workgroups per dispatch in x and y */
   /* [0]: layouts without UPDATE_AFTER_BIND_POOL against the ordinary limits, [1]: every
    * layout against the update-after-bind ones; 0: not reported, not checked. */
   struct {
      uint32_t per_stage_storage_buffers;
      uint32_t set_storage_buffers; /* in a whole pipeline layout */
      uint32_t per_stage_resources;
   } descriptor_limits[2];
   uint32_t max_bound_sets; /* 0: not checked */
   /* The alignment of the device's tensor memory: a session tensor may alias the bytes of
    * another from an offset that is a multiple of it (SLICE, CONCAT along the outermost axis;
    * dg_build_try_alias_at()). 0: aliases at offset 0 only. */
   uint32_t alias_alignment;
   /* Elementwise operators fused into their producer's stage (D52; VMEL_GRAPH_FUSION, read
    * at pipeline creation; never in the reference kernel mode): enum dg_fusion_mode. */
   uint8_t fusion;
   uint32_t coop; /* DG_COOP_* shapes the COOP variants may use (D51) */
   bool int_dot;  /* shaderIntegerDotProduct: the INT_DOT variants may run (D51) */
   /* Split-K of the tiled GEMM kernels (D56; VMEL_GRAPH_SPLIT_K, read at pipeline creation):
    * 0 the build's choice, 1 never, S >= 2 into S parts wherever K has S steps. */
   uint32_t split_k;
   /* A CPU device's worker threads (D61): its split-K choice; 0: unknown (no split there). */
   uint32_t cpu_threads;
   /* Compute subgroups of DG_SG_LANES invocations with ballot operations: the SUBGROUP
    * variants may run (D55). */
   bool subgroup8;
};

/** One binding of the application's pipeline layout (its recorded set layouts). */
struct dg_plan_app_binding {
   uint32_t set, binding;
   VkDescriptorType type;
   uint32_t count;            /* descriptorCount */
   VkShaderStageFlags stages; /* tensor bindings count as compute-visible (the kernels' copies) */
   bool update_after_bind;    /* its set layout has UPDATE_AFTER_BIND_POOL */
};

/** The application's pipeline layout as plain data. */
struct dg_plan_layout {
   uint32_t set_count;
   const struct dg_plan_app_binding *bindings; /* [binding_count], any order */
   uint32_t binding_count;
};

enum dg_plan_tensor_kind {
   DG_PLAN_TENSOR_INPUT,        /* a graph input: the application's descriptor */
   DG_PLAN_TENSOR_OUTPUT,       /* a graph output written in place or by a copy: the app's */
   DG_PLAN_TENSOR_INTERMEDIATE, /* a node's result that is no graph output: session memory */
   DG_PLAN_TENSOR_CONSTANT,     /* graph, module or build constant: the pipeline's, uploaded */
   DG_PLAN_TENSOR_SCRATCH,      /* session memory no IR tensor names (dg_build_add_scratch()) */
};

/** Where a kernel tensor is bound. */
enum dg_plan_slot_kind {
   DG_PLAN_SLOT_APP,      /* the application's set, binding and array element */
   DG_PLAN_SLOT_INTERNAL, /* a binding of the stage's internal set */
};

struct dg_plan_slot {
   enum dg_plan_slot_kind kind;
   uint32_t set, binding;
   uint32_t element; /* array element */
   uint32_t count;   /* the binding's descriptor count */
};

/** How a kernel reaches one of its tensors. */
enum dg_plan_binding_kind {
   DG_PLAN_BINDING_TENSOR, /* a tensor descriptor (every kernel today) */
   DG_PLAN_BINDING_IMAGE,  /* an image view of the tensor (not instantiated yet) */
};

struct dg_plan_tensor {
   enum dg_plan_tensor_kind kind;
   struct dg_tensor_type ty;
   uint32_t ir;         /* dg_graph::tensors index, or DG_PLAN_NONE (build-added, copy target) */
   uint32_t io;         /* INPUT: dg_graph::inputs index, OUTPUT: outputs index, else NONE */
   struct dg_plan_slot slot; /* INPUT, OUTPUT: the application's slot */
   uint32_t index;      /* INTERMEDIATE, SCRATCH: in dg_stage_plan::memory;
                         * CONSTANT: in dg_stage_plan::constants; else NONE */
   uint32_t bind_point; /* INTERMEDIATE, SCRATCH: the session bind point (0: transient) */
   uint32_t alias_of;   /* INTERMEDIATE: the tensor whose memory it is (a RESHAPE of a packed
                         * intermediate, a SLICE or a CONCAT input along the outermost axis),
                         * always a root; else NONE */
   uint64_t alias_offset; /* an alias's first byte in its root's memory (0 for RESHAPE) */
   uint32_t first_stage, last_stage; /* the stages that use it; NONE, 0 when none does */
};

/** Where a constant tensor's bytes come from. */
struct dg_plan_constant {
   uint32_t tensor;                    /* dg_stage_plan::tensors */
   const void *data;                   /* packed (size bytes), or laid out by desc */
   uint64_t size;                      /* packed bytes */
   const VkTensorDescriptionARM *desc; /* graph constants: the application's layout (valid
                                        * during vkCreateDataGraphPipelinesARM only) */
   bool owned;                         /* data was allocated by the plan (build constants) */
};

/** The internal tensors one or more stages bind, at bindings 0..count-1. */
struct dg_plan_internal_set {
   uint32_t count;
   uint32_t tensors[VMEL_GRAPH_MAX_TENSORS]; /* dg_stage_plan::tensors */
};

/** One compute dispatch. */
struct dg_plan_stage {
   uint32_t kernel;      /* enum dg_kernel_id */
   uint32_t first_node;  /* the nodes it computes: first_node .. + node_count - 1 (a fused */
   uint32_t node_count;  /* stage covers several); 0 nodes: an output copy */
   uint32_t tensor_count;
   uint32_t tensors[VMEL_GRAPH_MAX_TENSORS];   /* dg_stage_plan::tensors, kernel binding order */
   uint8_t binding_kind[VMEL_GRAPH_MAX_TENSORS]; /* enum dg_plan_binding_kind */
   struct dg_plan_slot slots[VMEL_GRAPH_MAX_TENSORS]; /* where kernel tensor k is bound */
   uint32_t write_mask;  /* bit k: the kernel writes tensor k */
   /* Its writes never overlap those of the other stages of its node that have the flag
    * too (CONCAT's per-input copies): no dependency between them. */
   bool disjoint_writes;
   /* Specialization (kernel_abi/graph_kernel.h). */
   uint32_t attr_words;
   uint32_t attrs[DG_PLAN_ATTR_WORDS];
   /* The fused epilogue (kernel_abi/gemm_epilogue.h: VMEL_SC_EPI(i) is epi[i]); epi[0] == 0:
    * none, and no VMEL_SC_EPI constant is given. */
   uint32_t epi[DG_EPI_WORDS];
   uint64_t work;        /* work items, VMEL_SC_WORK_COUNT */
   uint32_t local_size;  /* the variant's declared workgroup size, VMEL_SC_LOCAL_SIZE_X */
   uint32_t shape[VMEL_GRAPH_MAX_TENSORS][DG_PLAN_SHAPE_WORDS]; /* VMEL_SC_SHAPE(k, i) */
   uint32_t groups[2];   /* the grid: workgroups in x and y */
   uint32_t first_dep, dep_count; /* the earlier stages it must follow, dg_stage_plan::deps */
   uint32_t internal_set; /* dg_stage_plan::internal_sets, or NONE: binds nothing internal */
   uint32_t pipeline_of;  /* the first stage with an identical compute pipeline (same kernel,
                           * bindings and specialization); its own index if none */
};

/** A plan. Created by dg_stage_plan_build(), freed by dg_stage_plan_destroy(). */
struct dg_stage_plan {
   VkAllocationCallbacks alloc;
   struct dg_plan_tensor *tensors; /* [tensor_count] */
   uint32_t tensor_count;
   struct dg_plan_stage *stages; /* [stage_count], in dispatch order */
   uint32_t stage_count;
   uint32_t *deps; /* stage indices, ascending per stage */
   uint32_t dep_count;
   struct dg_plan_constant *constants; /* [constant_count] */
   uint32_t constant_count;
   uint32_t *memory; /* [memory_count]: the session-memory tensors (intermediates, scratch) */
   uint32_t memory_count;
   uint32_t bind_point_count; /* 1 + the highest bind point of a memory tensor; 0: none */
   struct dg_plan_internal_set *internal_sets; /* [internal_set_count] */
   uint32_t internal_set_count;
   uint32_t app_set_count;          /* sets of the application's pipeline layout */
   uint32_t internal_set;           /* the set index of the internal sets: app_set_count */
   uint32_t internal_binding_count; /* the most one stage binds internally; 0: no internal set */
};

struct dg_build;

/** A build function: adds the stages of one node (graph/build/). */
typedef VkResult (*dg_op_build_fn)(struct dg_build *b, const struct dg_node *node);
/** The build function of operator op (enum dg_op; tosa_ops.def), NULL if none. */
dg_op_build_fn dg_op_builder(uint32_t op);

/** What a plan is built from. */
struct dg_plan_input {
   const struct dg_graph *graph;
   const struct dg_plan_layout *layout;
   const struct dg_plan_caps *caps;
   /* NULL: dg_op_builder(). Tests give their own to exercise the build API. */
   dg_op_build_fn (*builder)(uint32_t op);
};

/**
 * Builds the plan of a decoded graph: every node's stages, output copies, slots,
 * internal sets (checked against the descriptor limits), grids, dependencies.
 * Fails with a logged VkResult (VK_ERROR_UNKNOWN for what the device cannot run,
 * VK_ERROR_VALIDATION_FAILED_EXT for an interface the layout lacks).
 */
VkResult dg_stage_plan_build(const struct dg_plan_input *in, const VkAllocationCallbacks *alloc,
                             struct dg_stage_plan **out);
void dg_stage_plan_destroy(struct dg_stage_plan *plan);

/** Fails, with a message, for what a plan can say but the layer cannot instantiate yet
 *  (image bindings, session bind points other than the transient one). */
VkResult dg_stage_plan_check_instantiable(const struct dg_stage_plan *plan);

/** The specialization constants of stage s: ids and values, returns their count
 *  (at most DG_PLAN_SPEC_MAX). */
uint32_t dg_plan_stage_spec(const struct dg_stage_plan *plan, uint32_t s, uint32_t *ids,
                            uint32_t *values);

/** True when stage j must follow stage i (i < j): a dependency of the plan. */
bool dg_plan_stage_depends(const struct dg_stage_plan *plan, uint32_t j, uint32_t i);

/** Stage j must follow stage i (i < j) for a reason only the caller knows (a session: memory
 *  its plan reuses); the plan's dependencies are added by dg_plan_barriers(). */
typedef bool (*dg_plan_follows_fn)(uint32_t j, uint32_t i, void *user);

/**
 * The order a session records the stages in and the barriers between them (D46). by_level:
 * each stage at level 1 + the highest level of the stages it must follow (0 without any),
 * recorded level by level (plan order within a level), one barrier before each level but the
 * first; the stages of a level (independent branches) run without barriers between them.
 * Otherwise plan order, a barrier before a stage that must follow one recorded since the last
 * barrier. order[k] is the k-th stage recorded and barrier_before[k] says whether a barrier
 * precedes it; level[] is scratch (all three of stage_count). Returns the barrier count.
 */
uint32_t dg_plan_barriers(const struct dg_stage_plan *plan, bool by_level,
                          dg_plan_follows_fn follows, void *user, uint32_t *level,
                          uint32_t *order, bool *barrier_before);

/** The tensor whose memory tensor t is (itself unless an alias). */
uint32_t dg_plan_tensor_root(const struct dg_stage_plan *plan, uint32_t t);

/**
 * The memory planner's intervals of the session-memory tensors: iv[i] for
 * plan->memory[i] with size sizes[i]; an alias takes no memory (size 0), its root's
 * interval covers its uses; a tensor no stage uses is size 0.
 */
void dg_stage_plan_intervals(const struct dg_stage_plan *plan, const VkDeviceSize *sizes,
                             struct dg_interval *iv);

/* ---- the build API (graph/build/ functions call it) ------------------------------------- */

/**
 * Adds one dispatch of a kernel variant (enum dg_kernel_id) for the node being built.
 * @param tensors   IR tensor indices (dg_graph::tensors) or references from
 *                  dg_build_add_constant() / dg_build_add_scratch(), in the kernel's
 *                  binding order
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

/** Makes tensor part the bytes of tensor whole from byte `offset` on, when both are session
 *  intermediates (packed), part's bytes lie inside whole's, the offset is a multiple of the
 *  device's alias alignment (dg_plan_caps) and part is no alias yet: a SLICE's output along
 *  the outermost axis (part not written yet), or a CONCAT input along it (part written by an
 *  earlier stage, whole not yet; tensors aliasing part follow it). Returns false, changing
 *  nothing, otherwise (the caller copies). */
bool dg_build_try_alias_at(struct dg_build *b, uint32_t whole, uint32_t part, uint64_t offset);

/** Marks the stage added last as writing a part of its output that no other
 *  marked stage of the same node writes (CONCAT's copies). */
void dg_build_mark_disjoint_writes(struct dg_build *b);

/** A constant tensor the build needs beyond the graph's (e.g. RESCALE
 *  multipliers); the data is copied. Returns a tensor reference for dg_build_add_stage(). */
VkResult dg_build_add_constant(struct dg_build *b, enum dg_type type, const struct dg_shape *shape,
                               const void *data, uint32_t *tensor);

/** A session tensor that no IR tensor names (a kernel's scratch), planned like an
 *  intermediate; returns a tensor reference for dg_build_add_stage(). */
VkResult dg_build_add_scratch(struct dg_build *b, enum dg_type type, const struct dg_shape *shape,
                              uint32_t *tensor);

/** Puts a scratch or intermediate tensor at session bind point `bind_point` (0: the
 *  transient one). */
VkResult dg_build_set_bind_point(struct dg_build *b, uint32_t tensor, uint32_t bind_point);

/** The stage added last reaches its tensor k through binding kind `kind`. */
VkResult dg_build_set_binding_kind(struct dg_build *b, uint32_t k, enum dg_plan_binding_kind kind);

/** The stage added last computes the next `count` nodes too (a fused stage); the build
 *  then skips them. */
VkResult dg_build_fuse_nodes(struct dg_build *b, uint32_t count);

/** The stage added last applies the fused epilogue `epi` (DG_EPI_WORDS words,
 *  kernel_abi/gemm_epilogue.h). */
VkResult dg_build_set_epilogue(struct dg_build *b, const uint32_t *epi);

/** Whether the plan being built fuses elementwise operators into their producers
 *  (dg_plan_caps::fusion: auto means not on a CPU device; never in the reference kernel
 *  mode). */
bool dg_build_fusion(const struct dg_build *b);

/** Builds node n and the elementwise chain after it as one dispatch of a chain kernel
 *  (ew_chain.comp) when n starts a chain of two nodes or more (*built true); else changes
 *  nothing. graph/build/dg_fuse.c (D52). */
VkResult dg_fuse_elementwise(struct dg_build *b, const struct dg_node *n, bool *built);

/** Fusion modes (D52): never, everywhere, or on devices that are not CPUs (the default: on
 *  lavapipe fusion gained nothing and multiplied pipeline-creation time). */
enum dg_fusion_mode { DG_FUSION_OFF = 0, DG_FUSION_ON = 1, DG_FUSION_AUTO = 2 };

/** VMEL_GRAPH_FUSION: "0" off, "1" on, unset or anything else auto (D52).
 *  graph/build/dg_fuse.c. */
enum dg_fusion_mode dg_fusion_from_env(void);

/** The name of stage s for logs and profiles: its first node's operator, then "+" and each
 *  fused epilogue operator ("CONV2D+RESCALE+CLAMP"), written into buf. graph/build/dg_fuse.c. */
const char *dg_plan_stage_name(const struct dg_plan_stage *s, const char *op_name, char *buf,
                               size_t size);

/** The workgroup size of kernel variant `kernel` (its declaration; VMEL_GRAPH_LOCAL_SIZE by
 *  default). graph/build/dg_build_ops.c. */
uint32_t dg_kernel_local_size(uint32_t kernel);

/** Device features a kernel variant may need (DG_KERNEL's FEATURES). */
#define DG_KERNEL_F16_ARITH 1u /* float16 arithmetic (shaderFloat16) */

/** The variant that runs `kernel`'s rows on a device with `features` (DG_KERNEL_* bits): its
 *  first DG_FAST variant whose features the device has, else `kernel` itself.
 *  graph/build/dg_build_ops.c. */
uint32_t dg_kernel_for_features(uint32_t kernel, uint32_t features);

/** The kernel mode VMEL_GRAPH_KERNELS asks for (unset or "fast": DG_KERNELS_FAST,
 *  "reference": DG_KERNELS_REFERENCE, "fast-gpu": DG_KERNELS_FAST_GPU, "fast-cpu":
 *  DG_KERNELS_FAST_CPU, "coop-nv": DG_KERNELS_COOP_NV, "coop-khr": DG_KERNELS_COOP_KHR,
 *  "int-dot": DG_KERNELS_INT_DOT, "coop-khr-square": DG_KERNELS_COOP_KHR_SQUARE;
 *  another value is logged and taken as fast).
 *  graph/build/dg_variant.c. */
enum dg_kernel_mode dg_kernel_mode_from_env(void);

/** The DG_VARIANT kernel of kind `kind` for node n's row, with its DG_FAST variant where the
 *  device has the features, or DG_PLAN_NONE: none declared, or the reference mode.
 *  graph/build/dg_variant.c. */
uint32_t dg_build_variant(const struct dg_build *b, const struct dg_node *n,
                          enum dg_variant_kind kind);

/** The allocator of the plan being built (for a build function's temporary memory). */
const VkAllocationCallbacks *dg_build_alloc(const struct dg_build *b);

/** The kernel mode of the plan being built (dg_plan_caps::kernels). */
enum dg_kernel_mode dg_build_kernel_mode(const struct dg_build *b);

/** True when the plan is for a CPU device (dg_plan_caps::cpu_device) or the kernel mode is
 *  DG_KERNELS_FAST_CPU, and the mode is not DG_KERNELS_FAST_GPU. */
bool dg_build_cpu_device(const struct dg_build *b);

/** A CPU device's worker threads (dg_plan_caps::cpu_threads; 0 unknown, and on a GPU or in the
 *  fast-cpu mode on one). graph/dg_stage_plan.c. */
uint32_t dg_build_cpu_threads(const struct dg_build *b);

/** True when a workgroup of `invocations` using `shared_bytes` of shared memory fits the
 *  device's limits (dg_plan_caps). */
bool dg_build_fits_workgroup(const struct dg_build *b, uint32_t invocations,
                             uint32_t shared_bytes);

/** VMEL_GRAPH_SPLIT_K: unset, empty or "auto" 0 (the build's choice), "0" or "1" never (1),
 *  S in 2..DG_SPLIT_K_MAX S parts; anything else is logged and taken as auto (D56).
 *  graph/build/gemm_split.c. */
uint32_t dg_split_k_from_env(void);
#define DG_SPLIT_K_MAX 64

/** The split-K setting of the plan being built (dg_plan_caps::split_k). */
uint32_t dg_build_split_k(const struct dg_build *b);

/** The cooperative-matrix shapes of the device (dg_plan_caps::coop, DG_COOP_*). */
uint32_t dg_build_coop(const struct dg_build *b);

/** True when the device has shaderIntegerDotProduct (dg_plan_caps::int_dot). */
bool dg_build_int_dot(const struct dg_build *b);
/** Whether the SUBGROUP variants may run (dg_plan_caps::subgroup8, D55). */
bool dg_build_subgroup8(const struct dg_build *b);

/** True when the device can run float16 arithmetic (the _fp16arith variants). */
bool dg_build_fp16_arith(const struct dg_build *b);

/** The graph being built (for op build functions). */
const struct dg_graph *dg_build_graph(const struct dg_build *b);

/** Adds a copy of a graph output's tensor into the output's slot (for outputs
 *  that are graph inputs or constants, or set twice). graph/build/dg_build_ops.c. */
VkResult dg_build_output_copy(struct dg_build *b, const struct dg_graph_io *io);
/** A tensor for a graph output's slot that no IR tensor names (copy target). */
VkResult dg_build_output_value(struct dg_build *b, const struct dg_graph_io *io, uint32_t *ref);

#endif /* DG_STAGE_PLAN_H */
