/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The TOSA graph kernels' interface (shaders/graph/tosa/), shared by C
 * and GLSL (style.md §10.7). Each operator's kernel tensors and attributes are
 * generated from its declaration (graph/ops/tosa_ops.def) into dg_op_abi.h:
 * DG_<OP>_<TENSOR> bindings, struct dg_attrs_<op> (C) and
 * DG_DECLARE_ATTRS_<OP> (GLSL specialization constants VMEL_SC_ATTR(i), whose
 * defaults make every template compile and run as an identity case). This
 * file keeps what no operator declares: enumerant values and the element
 * copy's arguments, as a list
 * DG_COPY_ARGS(A, S) that expands A(S, index, type, name, default) per
 * attribute into struct dg_copy_args (C) and specialization constants (GLSL).
 * The rest of the contract (records, bindings, work grid, ids) is
 * kernel_abi/graph_kernel.h.
 *
 * Enumerated attribute values use the numbers of TOSA.001000.1.
 */
#ifndef VMEL_TOSA_ARGS_H
#define VMEL_TOSA_ARGS_H

#include "kernel_abi/graph_kernel.h"
/* The operators' attributes and kernel tensors, generated from their
 * declarations (graph/ops/tosa_ops.def) into the build tree. */
#include "dg_op_abi.h"

/* enum tosa_nan_mode */
#define DG_NAN_PROPAGATE 1
#define DG_NAN_IGNORE 2

/* enum tosa_rounding_mode */
#define DG_ROUND_SINGLE 1
#define DG_ROUND_INEXACT 2
#define DG_ROUND_DOUBLE 3

/* enum tosa_resize_mode (RESIZE's mode) */
#define DG_RESIZE_NEAREST 1
#define DG_RESIZE_BILINEAR 2

/* ---- CONCAT, RESHAPE (and any element copy): shaders/graph/tosa/copy.comp -------------------
 * Tensors: input, output of one element size. One work item: one input element.
 * DG_COPY_CONCAT copies the input to the output at `offset` along `axis` (the
 * other coordinates equal): CONCAT is one dispatch per input. DG_COPY_RESHAPE
 * copies element i of the input in row-major order to element i of the output
 * (RESHAPE of a tensor that cannot alias). Variant define: DG_COPY_SIZE (bytes
 * per element: 1, 2, 4, 8); bits are copied unchanged. */
#define DG_COPY_CONCAT 0
#define DG_COPY_RESHAPE 1

#define DG_COPY_INPUT 0
#define DG_COPY_OUTPUT 1
#define DG_COPY_TENSORS 2

#define DG_COPY_ARGS(A, S)                                                                         \
   A(S, 0, uint, mode, 0u) /* DG_COPY_CONCAT or DG_COPY_RESHAPE */                                \
   A(S, 1, uint, axis, 0u)                                                                         \
   A(S, 2, uint, offset, 0u)

/* ---- the two expansions --------------------------------------------------------------------- */

#ifdef VULKAN /* GLSL */

#define DG_ARG_SPEC_CONSTANT(S, i, type, name, value)                                              \
   layout(constant_id = VMEL_SC_ATTR(i)) const type name = value;
#define DG_DECLARE_ARGS(LIST) LIST(DG_ARG_SPEC_CONSTANT, _)

#else /* C */

#include <stddef.h>
#include <stdint.h>

#define DG_ARG_CTYPE_int int32_t
#define DG_ARG_CTYPE_uint uint32_t
#define DG_ARG_MEMBER(S, i, type, name, value) DG_ARG_CTYPE_##type name;
#define DG_ARG_CHECK(S, i, type, name, value)                                                      \
   _Static_assert(offsetof(struct S, name) == 4 * (i), #S "." #name ": id order");
#define DG_DEFINE_ARGS(S, LIST)                                                                    \
   struct S {                                                                                      \
      LIST(DG_ARG_MEMBER, S)                                                                       \
   };                                                                                              \
   LIST(DG_ARG_CHECK, S)                                                                           \
   _Static_assert(sizeof(struct S) <= 128, #S ": push constant budget")

DG_DEFINE_ARGS(dg_copy_args, DG_COPY_ARGS);

/* Attributes in a struct dg_*_args: specialization map entries 0 .. count - 1. */
#define DG_ARGS_COUNT(args) ((uint32_t)(sizeof(args) / 4))

#endif

/* SCATTER's winner table last[N,K] (u32: the largest w + 1 whose index is k, 0 for none;
 * graph/build/gather_ops.c): the last kernel binding of its copy (scatter.comp), and the
 * bindings of the two passes that fill it (scatter_last.comp). */
#define DG_SCATTER_LAST (DG_SCATTER_OUTPUT + 1)
#define DG_SCATTER_LAST_INDICES 0
#define DG_SCATTER_LAST_TABLE 1
#define DG_SCATTER_LAST_TENSORS 2

#endif /* VMEL_TOSA_ARGS_H */
