/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the files of test_graph_kernels share (harness.c): the device, its pipeline layouts and
 * the host-visible arena the tensors live in; reference tensors with random contents; kernel
 * tensors (struct gtensor) at strided layouts and one dispatch of a kernel variant over them;
 * the comparison of a kernel's output with the reference; and the part functions of the family
 * files that main() runs, in the order it runs them.
 */
#ifndef GRAPH_KERNELS_HARNESS_H
#define GRAPH_KERNELS_HARNESS_H

#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "kernel_abi/graph_kernel.h"
#include "kernel_abi/tensor_record.h"
#include "kernel_abi/tosa_args.h"
#include "test.h"
#include "tosa_ref.h"
#include "vkutil.h"
#include "vmel_kernels_graph.h"
#include "vmel_kernels_test_graph.h"

#define ARENA_SIZE (24u << 20)
#define ARENA_ALIGN 256u
#define FILL_BYTE 0xa5
#define MAX_TENSORS 4
#define MAX_ATTRS 16
#define MAX_REPORTED 6

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define RANK(...) ((uint32_t)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define TENSOR(dtype, ...) tensor(dtype, RANK(__VA_ARGS__), SHAPE(__VA_ARGS__))

/* ---- state (harness.c) --------------------------------------------------------------------- */

extern struct vku v;
extern VkDevice device;
extern VkPipelineLayout pipeline_layouts[MAX_TENSORS + 1];
extern bool ran[DG_KERNEL_COUNT];  /* per variant of dg_kernels[]: dispatched at least once */
extern bool have_fp16arith;        /* shaderFloat16: the _fp16arith variants can run */
extern uint32_t grid_x_max;        /* workgroups along x before a new row of the 2D grid */
extern uint8_t *arena_map;
extern VkDeviceSize arena_used;

/* ---- reference tensors --------------------------------------------------------------------- */

uint32_t next_random(void);
/* Uniform in [lo, hi]. */
int64_t random_int(int64_t lo, int64_t hi);
struct ref_tensor *tensor(enum ref_dtype dtype, uint32_t rank, const int64_t *shape);
void fill_int(struct ref_tensor *t, int64_t lo, int64_t hi);
void fill_fp(struct ref_tensor *t, double lo, double hi);
/* Special values at a few spread positions: NaN, infinities, signed zeros, the largest
 * finite value and (fp16, fp8) the smallest subnormal. */
void add_specials(struct ref_tensor *t);
struct ref_tensor *scalar_int(enum ref_dtype dtype, int64_t value);
void destroy_all(struct ref_tensor **ts, unsigned n);

/* ---- device and arena ---------------------------------------------------------------------- */

bool init_device(void);
void finish_device(void);
VkDeviceSize arena_alloc(VkDeviceSize size);
/* Records one dispatch of `pipeline` with `set` over groups workgroups (2D grid), submits it
 * and waits; the shader's writes are made visible to the host. */
bool submit(VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet set, uint32_t groups,
            const uint32_t *push);
VkDescriptorSet alloc_set(uint32_t layout_index);
void write_buffer(VkDescriptorSet set, uint32_t binding, VkDeviceSize offset, VkDeviceSize range);

/* ---- kernel tensors ------------------------------------------------------------------------ */

/* A tensor as a kernel sees it: the reference tensor's data at a strided layout in the arena
 * (gap elements after every element of the last dimension and after every row), and its
 * record. */
struct gtensor {
   const struct ref_tensor *ref;
   uint32_t gap;
   VkDeviceSize offset; /* of the allocation in the arena */
   VkDeviceSize size;
   VkDeviceSize record_offset;
   struct vmel_tensor_record record;
};

void gtensor_place(struct gtensor *g, const struct ref_tensor *t, uint32_t gap);
void gtensor_upload(const struct gtensor *g);
/* The kernel's output as a packed tensor; checks that no other byte changed. */
struct ref_tensor *gtensor_download(const struct gtensor *g);
/* Dispatches `variant` over the placed tensors g[0..n) (graph_kernel.h: tensor k at binding k)
 * with the attributes (a struct dg_*_args) and `work` work items, and waits. */
bool dispatch_kernel(const char *variant, const struct gtensor *g, unsigned n, const void *args,
                     size_t args_size, uint32_t work);
/* Runs `variant` over tensors ts (inputs first, the output last, whose dtype and shape the
 * caller set) laid out with gaps[i] (NULL: packed) and returns the output (NULL on failure).
 * One work item per output element unless work is given (non-zero). */
struct ref_tensor *run_kernel(const char *variant, struct ref_tensor *const *ts,
                              const uint32_t *gaps, unsigned n, const void *args,
                              size_t args_size, uint32_t work);

/* ---- comparisons --------------------------------------------------------------------------- */

/* Checks a kernel output against the reference with the tolerance TOSA 1.0.1 states for `op`
 * (tosa_ref_tolerance); `ref` is the reference output (FP64 for TOSA_REF_TOL_ULP). */
void compare(const char *what, enum tosa_ref_op op, const struct ref_tensor *gpu,
             const struct ref_tensor *ref);
bool ref_ok(const char *what, int status);

/* ---- dot-product helpers (CONV2D, MATMUL) -------------------------------------------------- */

enum ref_dtype acc_dtype(enum tosa_ref_acc_type acc);
void fill_operand(struct ref_tensor *t);
/* Checks a float dot-product result with TOSA 1.0.1's dot-product accuracy requirements. */
void check_dot(const char *what, const struct ref_tensor *gpu, const struct ref_tensor *ref64,
               const struct ref_tensor *bnd64, enum ref_dtype acc, int64_t ks);
bool needs_fp16arith(const char *variant);

/* ---- parts, one per file ------------------------------------------------------------------- */

void test_conversions(void); /* convert.c */
void test_conv2d(void);      /* conv.c */
void test_matmul(void);      /* matmul.c */
void test_copy(void);        /* data.c: CONCAT, RESHAPE */

#endif
