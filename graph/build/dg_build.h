/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the op build functions of graph/build/ share: variant names by the
 * rule of shaders/CMakeLists.txt, element counts, and the build functions
 * themselves (one per TOSA operator, listed in dg_build_ops.c).
 */
#ifndef DG_BUILD_H
#define DG_BUILD_H

#include "dg_runtime.h"

#include "kernel_abi/tosa_args.h"
#include "spirv/spirv_arm_ml.h"

/**
 * Writes "<prefix>_<t0>_<t1>..." into buf: the types in order, each left out
 * when equal to the one before (shaders/CMakeLists.txt naming rule).
 */
const char *dg_variant_name(char *buf, size_t size, const char *prefix, const enum dg_type *types,
                            uint32_t count);

/** The tensor index (dg_graph::tensors) of a node's input i / output i. */
uint32_t dg_node_input_index(const struct dg_graph *g, const struct dg_node *n, uint32_t i);
uint32_t dg_node_output_index(const struct dg_graph *g, const struct dg_node *n, uint32_t i);

/** Adds an element copy of tensor src into tensor dst (same element count and
 *  size) in row-major order, or into dst along axis at offset (CONCAT). */
VkResult dg_build_copy(struct dg_build *b, uint32_t src, uint32_t dst, uint32_t mode,
                       uint32_t axis, uint32_t offset);

#define DG_BUILD_FN(name) VkResult dg_op_##name##_build(struct dg_build *b, const struct dg_node *n);
DG_BUILD_FN(add)
DG_BUILD_FN(sub)
DG_BUILD_FN(mul)
DG_BUILD_FN(clamp)
DG_BUILD_FN(reshape)
DG_BUILD_FN(concat)
DG_BUILD_FN(max_pool2d)
DG_BUILD_FN(conv2d)
DG_BUILD_FN(matmul)
DG_BUILD_FN(rescale)
#undef DG_BUILD_FN

#endif /* DG_BUILD_H */
