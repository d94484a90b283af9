/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Split-K of the tiled MATMUL and CONV2D kernels (D56; gemm_split.c), called by their builds
 * (gemm_build.c) where the tiled kernel applies, before its one-stage build.
 */
#ifndef GEMM_SPLIT_H
#define GEMM_SPLIT_H

#include "dg_build.h"

/* Workgroups a GPU dispatch should have: two per multiprocessor of a large GPU (the H200 has
 * 132). Below it the tiled build takes smaller tiles (gemm_build.c), then splits K. */
#define DG_GPU_MIN_TILES 256

/** The workgroups a GEMM dispatch should have on b's device before the tiled build stops
 *  taking smaller tiles and splitting K: DG_GPU_MIN_TILES on a GPU; on a CPU device, which
 *  runs a workgroup per thread, its thread count (D61; 0 when unknown: no smaller tile, no
 *  split). */
uint64_t dg_gemm_min_workgroups(const struct dg_build *b);

/** A GEMM as the tiled kernels see it: `batch` products of a rows x depth matrix by a
 *  depth x cols one (CONV2D: batch 1, rows N*OH*OW, depth KH*KW*IC, cols OC). */
struct dg_gemm_dims {
   uint64_t batch, rows, cols, depth;
};

/**
 * Builds node n as split-K stages when the build chooses it (a GPU whose tiles would not reach
 * DG_GPU_MIN_TILES workgroups, K long enough for parts of DG_SPLIT_MIN_STEPS steps of 16 k, 64
 * k whatever the kind's step) or
 * VMEL_GRAPH_SPLIT_K forces it, and the variants of kind `kind` apply (*built true); else
 * changes nothing. `kind`: DG_VARIANT_SPLITK (the tiled kernels' 64 x 64 tile, K steps of 16)
 * or DG_VARIANT_INT_DOT_SPLITK (the integer-dot tile, 64 x 64, K steps of 32; D65); both end in
 * the SPLITK_REDUCE stage. The node's input `replace` is bound as tensor reference `with`
 * unless DG_PLAN_NONE (CONV2D's arranged weight).
 */
VkResult dg_gemm_split_k(struct dg_build *b, const struct dg_node *n,
                         const struct dg_gemm_dims *dims, enum dg_variant_kind kind,
                         uint32_t replace, uint32_t with, bool *built);

#endif /* GEMM_SPLIT_H */
