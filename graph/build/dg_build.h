/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the op build functions of graph/build/ share: the kernel a node's
 * type-support row names (with the faster variants the device can run),
 * element copies, and the build functions of the operators declared with
 * BUILD CUSTOM (graph/ops/tosa_ops.def); every other operator is built by
 * dg_build_default(). They fill a stage plan (dg_stage_plan.h) and make no
 * Vulkan call: they are part of dg_core.
 */
#ifndef DG_BUILD_H
#define DG_BUILD_H

#ifndef LYR_LOG_THIS_DOMAIN
#define LYR_LOG_THIS_DOMAIN LYR_LOG_GRAPH
#endif
#include "dg_stage_plan.h"
#include "lyr_log.h"

#include "kernel_abi/tosa_args.h"
#include "spirv/spirv_arm_ml.h"

/** The tensor index (dg_graph::tensors) of a node's input i / output i. */
uint32_t dg_node_input_index(const struct dg_graph *g, const struct dg_node *n, uint32_t i);
uint32_t dg_node_output_index(const struct dg_graph *g, const struct dg_node *n, uint32_t i);

/** The kernel (enum dg_kernel_id) that runs node n on this device: its row's
 *  kernel, or a DG_FAST variant of it whose features the device has. */
uint32_t dg_build_kernel(const struct dg_build *b, const struct dg_node *n);

/** One dispatch of the row's kernel over the output's elements: the node's
 *  tensor inputs then its output in binding order, its attributes as the
 *  kernel's specialization constants (BUILD DEFAULT). */
VkResult dg_build_default(struct dg_build *b, const struct dg_node *n);

/** Adds an element copy of tensor src into tensor dst (same element count and
 *  size) in row-major order, or into dst along axis at offset (CONCAT). */
VkResult dg_build_copy(struct dg_build *b, uint32_t src, uint32_t dst, uint32_t mode,
                       uint32_t axis, uint32_t offset);

/** The elementwise chain fused after a producer node (graph/build/dg_fuse.c, D52). */
struct dg_fuse_chain {
   uint32_t nodes;                    /* nodes after the producer that the chain computes */
   uint32_t output;                   /* the IR tensor the fused stage writes */
   uint32_t epi[DG_EPI_WORDS];        /* the epilogue (kernel_abi/gemm_epilogue.h) */
   uint32_t tensors[DG_EPI_TENSORS];  /* its extra tensors (references), [tensor_count] */
   uint32_t tensor_count;
};

/** The chain after node n (nodes 0: none; output: n's output), with the build constants its
 *  RESCALEs need: call only when the stage will take it (its _EPI kernel exists). */
VkResult dg_fuse_chain(struct dg_build *b, const struct dg_node *n, struct dg_fuse_chain *c);

/** The stage of a GEMM-like producer n (its `kernel`, `work` work items) with the chain after
 *  it fused where the kernel's _EPI variant of kind `epi_kind` exists (DG_VARIANT_NONE: none)
 *  and fusion is on: tensors[0..count) are the stage's tensors with slot `out` for the output,
 *  which this fills (n's output or the chain's last tensor); a fused stage takes the _EPI
 *  kernel, the chain's extra tensors after them (tensors[0] in the unused ones: the array has
 *  room for DG_EPI_TENSORS more), its epilogue and its nodes. */
VkResult dg_fuse_add_gemm_stage(struct dg_build *b, const struct dg_node *n, uint32_t kernel,
                                enum dg_variant_kind epi_kind, uint32_t *tensors,
                                uint32_t count, uint32_t out, uint32_t attr_size, uint64_t work);

#define DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD) DG_BUILD_PROTO_##BUILD(name)
#define DG_BUILD_PROTO_DEFAULT(name)
#define DG_BUILD_PROTO_CUSTOM(name)                                                                \
   VkResult dg_op_##name##_build(struct dg_build *b, const struct dg_node *n);
#include "dg_decl_expand.h"
#undef DG_BUILD_PROTO_DEFAULT
#undef DG_BUILD_PROTO_CUSTOM

#endif /* DG_BUILD_H */
