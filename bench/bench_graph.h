/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's graphs (bench_graph_nets.c: the conv nets and the MATMUL;
 * bench_graph_ew.c: the large elementwise graphs; each with its SPIR-V text,
 * data, CPU reference and output check), the helpers both files share, what
 * bench_graph.c (pipelines, dispatches, timing, reporting) records about each
 * graph, and the Vulkan plumbing of bench_graph_vk.c (device, tensors,
 * timestamps, the buffer copy baseline).
 */
#ifndef BENCH_GRAPH_H
#define BENCH_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "graph_run.h"
#include "tosa_ref.h"

#define BENCH_MAX_SAMPLES 1000
#define BENCH_MAX_CONSTANTS 24
#define BENCH_MAX_OWNED 48
#define BENCH_GRAPH_COUNT 39
/* bench_graph_defs[BENCH_SUITE_FIRST ..]: issue 14's suite (bench_graph_suite.c) */
#define BENCH_SUITE_FIRST 22
/* The operators of a suite graph (bench_graph_suite.c), for the memory lower bound. */
#define BENCH_MAX_NODES 32
#define BENCH_MAX_INPUTS 2
/* Elements of the elementwise graphs unless --elements says otherwise: 64M, sized for a GPU. */
#define BENCH_DEFAULT_ELEMENTS (INT64_C(64) << 20)

struct bench_samples {
   double v[BENCH_MAX_SAMPLES];
   int n;
};

/* A growing string (the SPIR-V text). */
struct bench_text {
   char *s;
   size_t len, cap;
   bool failed;
};

enum bench_check {
   BENCH_CHECK_EXACT,    /* integer values equal */
   BENCH_CHECK_BITS,     /* bit patterns equal (float outputs of exact operations) */
   BENCH_CHECK_RELATIVE, /* |out - want| <= BENCH_CONV_FP32_RTOL * bound */
   BENCH_CHECK_DOT,      /* tosa_ref_check_dot_product() */
   BENCH_CHECK_BOUND,    /* tosa_ref_check_tensor_bound(): want and bound FP64 */
};

/* Which of a device's published peaks a graph's GFLOP/s are a share of. */
enum bench_peak_type {
   BENCH_PEAK_NONE,
   BENCH_PEAK_FP32,
   BENCH_PEAK_FP16,
   BENCH_PEAK_BF16,
   BENCH_PEAK_INT8,
   BENCH_PEAK_COUNT,
};

/* What one variant (the default kernels, or the baseline) measured. */
struct bench_measure {
   struct bench_samples create, session, dispatch;
   struct bench_samples dispatch_gpu; /* timestamps around the dispatch, when the queue has them */
   double session_bytes;              /* the session's memory requirement */
   char kernels[1024];                /* the stages' kernels (the creation log's stage lines) */
};

/* The tolerance of conv_fp32, relative to the last CONV2D's dot-product bound. */
#define BENCH_CONV_FP32_RTOL 1e-5

struct bench_graph {
   const char *name;
   const char *what;
   struct bench_text text;
   struct ref_tensor *owned[BENCH_MAX_OWNED]; /* destroyed by bench_graph_finish() */
   uint32_t owned_count;
   struct ref_tensor *inputs[BENCH_MAX_INPUTS]; /* set 0, bindings 0 .. input_count - 1 */
   uint32_t input_count;
   struct ref_tensor *output; /* set 0, binding input_count: what the device wrote */
   struct ref_tensor *want;   /* the reference: the output's dtype, or FP64 */
   struct ref_tensor *bound;  /* FP64 dot-product bound (RELATIVE, DOT) */
   struct graph_constant constants[BENCH_MAX_CONSTANTS];
   uint32_t constant_count;
   enum bench_check check;
   struct tosa_ref_dot_check dot; /* BENCH_CHECK_DOT */
   double macs;                   /* multiply-accumulates per dispatch */
   /* Bandwidth graphs: bytes the inputs and the output hold, read and written once per dispatch;
    * bench_graph.c then times a buffer copy that reads and writes as many, for comparison. */
   double bytes;
   /* Skipped, not failed, when the graph layer cannot create its pipeline (an operator
    * that this build of the layer may not implement yet). */
   bool optional;
   bool failed, skipped;
   char why[256]; /* the first failure */

   /* The suite (bench_graph_suite.c): measured against the baseline variant too, reported
    * with GFLOP/s, % of peak and memory against the lower bound. */
   bool suite;
   enum bench_peak_type peak_type;
   double rtol;        /* BENCH_CHECK_RELATIVE's tolerance; 0: BENCH_CONV_FP32_RTOL */
   /* > 1: want and bound hold every sample_stride-th index of dimension sample_dim of output
    * (MATMUL 4096: rows; batch 8: the first and last batch) */
   int64_t sample_stride;
   uint32_t sample_dim;
   double node_bytes[BENCH_MAX_NODES];  /* what each operator writes */
   int node_last_use[BENCH_MAX_NODES];  /* the last operator reading it */
   uint32_t node_count;                 /* the last is the graph's output */

   /* filled by bench_graph.c */
   double reference_ms; /* set-up: data and CPU reference */
   struct bench_measure main;           /* the layer's kernels */
   struct bench_measure base;           /* the baseline variant (VMEL_GRAPH_KERNELS=reference) */
   bool base_ran;                       /* base measured (checked) */
   /* compare_order: measured again with VMEL_GRAPH_STAGE_ORDER=plan (the barrier plan before
    * D46: plan order) into plan_order */
   bool compare_order, plan_order_ran;
   struct bench_measure plan_order;
   /* --variant NAME=VALUE: measured again with that variable set, alternating with main over
    * --rounds (each measure collects every round's samples) */
   bool variant_ran;
   struct bench_measure variant;
   char variant_note[160]; /* why not, when it failed */
   char base_note[160];                 /* why not, or "same kernels" */
   struct bench_samples copy, copy_gpu; /* the buffer copy of a bandwidth graph: wall, timestamps */
   double copy_bytes;                   /* bytes the copy reads and writes */

   bool checked;
   char check_text[256];
};

/* What the command line sets for the graphs. */
struct bench_params {
   int64_t elements; /* of the elementwise graphs: a multiple of 64 */
};

struct bench_graph_def {
   const char *name;
   /** Fills g: text, tensors, constants and the reference; g->failed says whether it worked. */
   void (*setup)(struct bench_graph *g, const struct bench_params *p);
};

/** The graphs, in the order they run. */
extern const struct bench_graph_def bench_graph_defs[BENCH_GRAPH_COUNT];

/** Records the first failure of g. */
void bench_graph_fail(struct bench_graph *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Checks g->output against the reference; says how in g->check_text. */
bool bench_graph_check(struct bench_graph *g);

/** Frees what setup allocated. */
void bench_graph_finish(struct bench_graph *g);

/** The tensor format of an I8, I32, FP16 or FP32 reference dtype. */
VkFormat bench_ref_format(enum ref_dtype dtype);

/* ---- shared by the graph files (bench_graph_nets.c) ---- */

/** scale = multiplier * 2^-shift, multiplier in [2^30, 2^31) (TOSA's scale32); false when the
 *  shift is outside [2, 62]. */
bool bench_quantize_scale(double scale, int32_t *multiplier, int32_t *shift);

/** Per-channel (last dimension) requantization of an accumulator to int8: each channel's largest
 *  |value| maps to 150. */
void bench_calibrate(struct bench_graph *g, const struct ref_tensor *acc, struct ref_tensor *mult,
                     struct ref_tensor *shift);

/** Appends to t (t->failed once out of memory). */
void bench_text_printf(struct bench_text *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** The start of a graph module: the capabilities every graph needs and `capabilities` (extra
 *  "OpCapability X\n" lines, or NULL), the extensions, the TOSA import, the memory model, and
 *  set 0 bindings 0 .. bindings - 1 decorated on %v0, %v1, ... */
void bench_text_header(struct bench_text *t, const char *capabilities, uint32_t bindings);

/** splitmix64: the same stream on every host. */
uint64_t bench_rng_next(uint64_t *state);

/** Uniform integers in [lo, hi]. */
void bench_fill_int(struct ref_tensor *t, uint64_t *rng, int64_t lo, int64_t hi);

/** Uniform in [lo, hi), exact in fp32 for lo, hi powers of 2. */
void bench_fill_float(struct ref_tensor *t, uint64_t *rng, double lo, double hi);

/** A zero-filled tensor that g owns (freed by bench_graph_finish()); NULL, and g failed, when
 * out of memory. */
struct ref_tensor *bench_tensor_new(struct bench_graph *g, enum ref_dtype dtype, uint32_t rank,
                                    const int64_t *shape);

/** Passes t as graph constant `id` (OpGraphConstantARM). */
void bench_constant(struct bench_graph *g, uint32_t id, const struct ref_tensor *t);

/** True when a reference call returned TOSA_REF_OK, else g fails naming `op`. */
bool bench_ref_ok(struct bench_graph *g, int status, const char *op);

/* The elementwise graphs (bench_graph_ew.c). */
void bench_setup_add_fp32(struct bench_graph *g, const struct bench_params *p);
void bench_setup_mul_fp16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_table_i8(struct bench_graph *g, const struct bench_params *p);
void bench_setup_cast_fp32_fp16(struct bench_graph *g, const struct bench_params *p);
/* bench_graph_move.c */
void bench_setup_transpose_0213(struct bench_graph *g, const struct bench_params *p);
void bench_setup_transpose_0312(struct bench_graph *g, const struct bench_params *p);
void bench_setup_transpose_0312_edge(struct bench_graph *g, const struct bench_params *p);
/* bench_graph_resize.c */
void bench_setup_resize_bilinear_fp16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_reduce_sum_axis0(struct bench_graph *g, const struct bench_params *p);
void bench_setup_reduce_sum_axis1(struct bench_graph *g, const struct bench_params *p);
void bench_setup_reduce_sum_axis2(struct bench_graph *g, const struct bench_params *p);
void bench_setup_gather_fp16(struct bench_graph *g, const struct bench_params *p);
/* bench_graph_conv.c: CONV2D's family */
void bench_setup_dwconv_fp16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_tconv_fp32(struct bench_graph *g, const struct bench_params *p);
void bench_setup_conv3d_fp16(struct bench_graph *g, const struct bench_params *p);
/* bench_graph_fft.c */
void bench_setup_fft2d_8x256x256(struct bench_graph *g, const struct bench_params *p);
void bench_setup_fft2d_1x1024x1024(struct bench_graph *g, const struct bench_params *p);
void bench_setup_fft2d_8x64x64(struct bench_graph *g, const struct bench_params *p);
void bench_setup_dft_8x64x64(struct bench_graph *g, const struct bench_params *p);

/* bench_graph_suite.c: issue 14's suite */
void bench_setup_resnet_fp32_b1(struct bench_graph *g, const struct bench_params *p);
void bench_setup_resnet_fp32_b8(struct bench_graph *g, const struct bench_params *p);
void bench_setup_resnet_int8_b1(struct bench_graph *g, const struct bench_params *p);
void bench_setup_resnet_int8_b8(struct bench_graph *g, const struct bench_params *p);
void bench_setup_mobilenet_fp32_b1(struct bench_graph *g, const struct bench_params *p);
void bench_setup_mobilenet_fp32_b8(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul512_fp32(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul512_fp16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul512_bf16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul512_i8(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul4096_fp32(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul4096_fp16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul4096_bf16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul4096_i8(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul_64x4096x64_fp32(struct bench_graph *g, const struct bench_params *p);
void bench_setup_matmul_64x4096x64_fp16(struct bench_graph *g, const struct bench_params *p);
void bench_setup_branch4_fp32(struct bench_graph *g, const struct bench_params *p);

/* ---- Vulkan (bench_graph_vk.c) ---- */

struct bench_device {
   VkInstance instance;
   struct graph_device gd;
   struct graph_arm_fns fn;
   PFN_vkCmdCopyTensorARM CmdCopyTensorARM;
   VkPhysicalDeviceMemoryProperties memory;
   char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
   char driver[VK_MAX_DRIVER_NAME_SIZE + VK_MAX_DRIVER_INFO_SIZE + 2]; /* name and version */
   uint64_t max_tensor_size; /* VkPhysicalDeviceTensorPropertiesARM; 0: not reported */
   uint32_t timestamp_bits;  /* of the graph queue; 0: no timestamps */
   double timestamp_ns;      /* timestampPeriod */
};

/* An application tensor: device-local, with the host's view of it (bench_graph_vk.c). */
struct bench_tensor {
   VkTensorARM tensor; /* bound to the graph */
   VkDeviceMemory memory;
   VkTensorViewARM view;
   VkTensorARM staging; /* host memory, when `memory` is not mapped: copied to and from */
   VkDeviceMemory staging_memory;
   void *map; /* `memory`, else `staging_memory`, mapped */
   size_t size;
   int64_t dims[REF_MAX_RANK];
   VkTensorDescriptionARM desc;
};

double bench_now_ms(void);
void bench_samples_add(struct bench_samples *s, double v);

/** The first memory type of `bits` with all of `want`; UINT32_MAX if none. */
uint32_t bench_memory_type(const struct bench_device *d, uint32_t bits, VkMemoryPropertyFlags want);

/** Checks a VkResult: false (and g's failure message) when it is not VK_SUCCESS. */
bool bench_vk_ok(struct bench_graph *g, VkResult r, const char *what);

/** The first device with VK_ARM_data_graph, through the layers (or the meta layer). */
bool bench_device_init(struct bench_device *d, bool meta);
void bench_device_finish(struct bench_device *d);

/** A tensor of t's type and shape (not its data). */
bool bench_tensor_create(struct bench_device *d, struct bench_graph *g, const struct ref_tensor *t,
                         struct bench_tensor *a);
void bench_tensor_destroy(struct bench_device *d, struct bench_tensor *a);

/** Copies staging -> tensor (upload) or tensor -> staging for those of t[] that have a staging
 * tensor, in one submission of cmd (recorded here), waited for with fence. An upload is
 * visible to later dispatches of the graph; a download to the host. */
bool bench_tensors_transfer(struct bench_device *d, struct bench_graph *g,
                            struct bench_tensor *const *t, uint32_t count, bool upload,
                            VkCommandBuffer cmd, VkFence fence);

/** One global memory barrier (vkCmdPipelineBarrier2) from src to dst. */
void bench_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage,
                   VkAccessFlags2 src_access, VkPipelineStageFlags2 dst_stage,
                   VkAccessFlags2 dst_access);

/** The time between timestamps first and first + 1 of pool in *ms (-1 without a pool). */
bool bench_timestamps_read(struct bench_device *d, struct bench_graph *g, VkQueryPool pool,
                           uint32_t first, double *ms);

/** Times vkCmdCopyBuffer between two device-local buffers of g->bytes / 2 each: warmup, then
 * reps submissions of `batch` copies (each after the last one's writes) into g->copy (wall) and
 * g->copy_gpu (timestamps 2 and 3 of pool, when not VK_NULL_HANDLE), per copy. Records cmd
 * itself. */
bool bench_copy_baseline(struct bench_device *d, struct bench_graph *g, int warmup, int reps,
                         int batch, VkCommandBuffer cmd, VkFence fence, VkQueryPool pool);

#endif /* BENCH_GRAPH_H */
