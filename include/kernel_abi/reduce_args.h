/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The reduction kernel's arguments (shaders/graph/tosa/reduce.comp: REDUCE_ALL, REDUCE_ANY,
 * REDUCE_MAX, REDUCE_MIN, REDUCE_PRODUCT, REDUCE_SUM, ARGMAX), shared by C (graph/ops/reduce.c,
 * which builds the passes) and GLSL, in the DG_*_ARGS style of tosa_args.h.
 *
 * One pass reduces its input along one axis in slices: the positions left and right of the axis
 * are flattened into `lanes` (outer-major: lane = o * inner + i), the axis into `chunks` chunks
 * of `chunk` elements. A workgroup of DG_REDUCE_WG invocations reduces `tx` lanes over one
 * chunk, `ty` invocations per lane (tx * ty = DG_REDUCE_WG); each invocation folds at most
 * chunk / ty elements, then the workgroup combines its partial values in shared memory in a
 * fixed tree. With one chunk the pass writes the operator's output; otherwise a scratch tensor
 * [outer, chunks, inner * DG_REDUCE_PAIR] that the next pass reduces along its axis 1.
 * Work items: lane_groups * chunks * DG_REDUCE_WG; workgroup g takes chunk g / lane_groups and
 * lanes (g % lane_groups) * tx up to tx of them (the last group's lanes past `lanes` idle).
 */
#ifndef VMEL_REDUCE_ARGS_H
#define VMEL_REDUCE_ARGS_H

#include "kernel_abi/tosa_args.h"

/* The workgroup size of every reduction variant (its DG_KERNEL_GRID line). */
#define DG_REDUCE_WG 256

/* Elements one invocation folds at most in one pass: a longer axis takes more passes. */
#define DG_REDUCE_ITEMS 16

/* flags */
#define DG_REDUCE_IN_SCRATCH 1u  /* the input is the previous pass's scratch (acc type) */
#define DG_REDUCE_OUT_SCRATCH 2u /* the output is a scratch tensor (acc type) */
#define DG_REDUCE_OUT_KEEP 4u    /* the output has a dimension at out_axis (size chunks) */
#define DG_REDUCE_ROWS 8u        /* inner == 1: a lane's invocations are adjacent */

#define DG_REDUCE_INPUT 0
#define DG_REDUCE_OUTPUT 1
#define DG_REDUCE_TENSORS 2

#define DG_REDUCE_ARGS(A, S)                                                                       \
   A(S, 0, uint, axis, 0u)     /* the reduced dimension of the input record */                     \
   A(S, 1, uint, nan_mode, 1u) /* DG_NAN_PROPAGATE or DG_NAN_IGNORE */                             \
   A(S, 2, uint, flags, 0u)    /* DG_REDUCE_* */                                                   \
   A(S, 3, uint, out_axis, 0u) /* the output's dimension for the axis (kept or dropped) */         \
   A(S, 4, uint, tx, 1u)       /* lanes per workgroup */                                           \
   A(S, 5, uint, ty, 256u)     /* invocations per lane */                                          \
   A(S, 6, uint, n, 1u)        /* the axis length of this pass's input */                          \
   A(S, 7, uint, chunk, 1u)    /* axis elements per workgroup */                                   \
   A(S, 8, uint, chunks, 1u)                                                                       \
   A(S, 9, uint, inner, 1u)  /* positions right of the axis */                                     \
   A(S, 10, uint, lanes, 1u) /* outer * inner */                                                   \
   A(S, 11, uint, lane_groups, 1u)

#ifndef VULKAN
DG_DEFINE_ARGS(dg_reduce_args, DG_REDUCE_ARGS);
#endif

#endif /* VMEL_REDUCE_ARGS_H */
