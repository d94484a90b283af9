/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The TOSA graph kernels' interface (shaders/graph/tosa/), shared by C
 * and GLSL (style.md §10.7): per kernel, its tensors in binding order and its
 * attributes. The rest of the contract (records, bindings, work grid, ids) is
 * kernel_abi/graph_kernel.h.
 *
 * Attributes are specialization constants, 32 bits each, with ids
 * VMEL_SC_ATTR(0), VMEL_SC_ATTR(1), ... in list order. Each kernel has one list,
 * DG_<KERNEL>_ARGS(A, S), that expands A(S, index, type, name, default) per
 * attribute (type: int or uint). From it,
 *   C:    struct dg_<kernel>_args has the attributes as int32_t/uint32_t members
 *         in id order (member i at byte offset 4 * i, checked), so the host
 *         fills VkSpecializationInfo with entry i = {VMEL_SC_ATTR(i), 4 * i, 4}
 *         and pData = &args;
 *   GLSL: DG_DECLARE_ARGS(DG_<KERNEL>_ARGS) declares each attribute as a
 *         specialization constant `const <type> <name> = <default>` (the
 *         defaults make every template compile and run as an identity case).
 *
 * Enumerated attribute values use the numbers of TOSA.001000.1.
 */
#ifndef VMEL_TOSA_ARGS_H
#define VMEL_TOSA_ARGS_H

#include "kernel_abi/graph_kernel.h"

/* enum tosa_nan_mode */
#define DG_NAN_PROPAGATE 1
#define DG_NAN_IGNORE 2

/* enum tosa_rounding_mode */
#define DG_ROUND_SINGLE 1
#define DG_ROUND_INEXACT 2
#define DG_ROUND_DOUBLE 3

/* ---- ADD, SUB, MUL: shaders/graph/tosa/binary.comp ------------------------------------------
 * Tensors: input1, input2, output. One work item: one output element.
 * Variant defines: DG_BINARY_OP (DG_BINARY_ADD, _SUB, _MUL), DG_IN_DTYPE, DG_OUT_DTYPE. */
#define DG_BINARY_ADD 1
#define DG_BINARY_SUB 2
#define DG_BINARY_MUL 3

#define DG_BINARY_INPUT1 0
#define DG_BINARY_INPUT2 1
#define DG_BINARY_OUTPUT 2
#define DG_BINARY_TENSORS 3

#define DG_BINARY_ARGS(A, S)                                                                       \
   A(S, 0, int, shift, 0) /* MUL: the shift operand (0..63, non-zero for i32 only); else 0 */

/* ---- CLAMP: shaders/graph/tosa/clamp.comp ---------------------------------------------------
 * Tensors: input, output. One work item: one output element. Variant define: DG_DTYPE. */
#define DG_CLAMP_INPUT 0
#define DG_CLAMP_OUTPUT 1
#define DG_CLAMP_TENSORS 2

/* min_val and max_val: integer types: the value as int32 bits (sign-extended);
 * float types: the fp32 bits of the value (exact for fp16 and bf16). */
#define DG_CLAMP_ARGS(A, S)                                                                        \
   A(S, 0, uint, min_val, 0xff800000u) /* default -inf (fp32); 0x80000000 for int */              \
   A(S, 1, uint, max_val, 0x7f800000u) /* default +inf (fp32); 0x7fffffff for int */              \
   A(S, 2, uint, nan_mode, 1u)         /* DG_NAN_PROPAGATE or DG_NAN_IGNORE */

/* ---- MAX_POOL2D: shaders/graph/tosa/max_pool2d.comp -----------------------------------------
 * Tensors: input [N,IH,IW,C], output [N,OH,OW,C]. One work item: one output
 * element. Variant define: DG_DTYPE. */
#define DG_MAX_POOL2D_INPUT 0
#define DG_MAX_POOL2D_OUTPUT 1
#define DG_MAX_POOL2D_TENSORS 2

#define DG_MAX_POOL2D_ARGS(A, S)                                                                   \
   A(S, 0, int, kernel_y, 1)                                                                       \
   A(S, 1, int, kernel_x, 1)                                                                       \
   A(S, 2, int, stride_y, 1)                                                                       \
   A(S, 3, int, stride_x, 1)                                                                       \
   A(S, 4, int, pad_top, 0)                                                                        \
   A(S, 5, int, pad_bottom, 0) /* not read: OH comes from the output's record */                  \
   A(S, 6, int, pad_left, 0)                                                                       \
   A(S, 7, int, pad_right, 0) /* not read: OW comes from the output's record */                   \
   A(S, 8, uint, nan_mode, 1u)

/* ---- CONV2D: shaders/graph/tosa/conv2d.comp -------------------------------------------------
 * Tensors: input [N,IH,IW,IC], weight [OC,KH,KW,IC], bias [BC] (BC = OC or 1),
 * output [N,OH,OW,OC]. One work item: one output element. Variant defines:
 * DG_IN_DTYPE, DG_W_DTYPE, DG_OUT_DTYPE (also the bias's), DG_ACC_DTYPE
 * (DG_DTYPE_I32, _I48, _FP16 or _FP32), optionally DG_NATIVE_FP16. */
#define DG_CONV2D_INPUT 0
#define DG_CONV2D_WEIGHT 1
#define DG_CONV2D_BIAS 2
#define DG_CONV2D_OUTPUT 3
#define DG_CONV2D_TENSORS 4

#define DG_CONV2D_ARGS(A, S)                                                                       \
   A(S, 0, int, pad_top, 0)                                                                        \
   A(S, 1, int, pad_bottom, 0) /* not read: OH comes from the output's record */                  \
   A(S, 2, int, pad_left, 0)                                                                       \
   A(S, 3, int, pad_right, 0) /* not read: OW comes from the output's record */                   \
   A(S, 4, int, stride_y, 1)                                                                       \
   A(S, 5, int, stride_x, 1)                                                                       \
   A(S, 6, int, dilation_y, 1)                                                                     \
   A(S, 7, int, dilation_x, 1)                                                                     \
   A(S, 8, int, input_zp, 0)  /* integer rows only (floats: TOSA requires 0) */                   \
   A(S, 9, int, weight_zp, 0) /* integer rows only */

/* ---- MATMUL: shaders/graph/tosa/matmul.comp -------------------------------------------------
 * Tensors: A [N,H,C], B [N,C,W], output [N,H,W]. One work item: one output
 * element. Variant defines: DG_IN_DTYPE (A and B), DG_OUT_DTYPE (also the
 * accumulator), optionally DG_NATIVE_FP16. */
#define DG_MATMUL_A 0
#define DG_MATMUL_B 1
#define DG_MATMUL_OUTPUT 2
#define DG_MATMUL_TENSORS 3

#define DG_MATMUL_ARGS(A, S)                                                                       \
   A(S, 0, int, a_zp, 0) /* integer rows only */                                                  \
   A(S, 1, int, b_zp, 0)

/* ---- RESCALE: shaders/graph/tosa/rescale.comp -----------------------------------------------
 * Tensors: input, multiplier [NC] (i32), shift [NC] (i8), output; NC is the
 * input's last dimension when per_channel, else 1. multiplier and shift are
 * TOSA compile-time constants: the host puts them in two small constant
 * tensors (any number of channels, no specialization-constant budget). One
 * work item: one output element. Variant defines: DG_IN_DTYPE, DG_OUT_DTYPE. */
#define DG_RESCALE_INPUT 0
#define DG_RESCALE_MULTIPLIER 1
#define DG_RESCALE_SHIFT 2
#define DG_RESCALE_OUTPUT 3
#define DG_RESCALE_TENSORS 4

#define DG_RESCALE_ARGS(A, S)                                                                      \
   A(S, 0, uint, scale32, 1u)                                                                      \
   A(S, 1, uint, rounding_mode, 1u) /* DG_ROUND_*; INEXACT is computed as SINGLE */               \
   A(S, 2, uint, per_channel, 0u)                                                                  \
   A(S, 3, uint, input_unsigned, 0u)                                                               \
   A(S, 4, uint, output_unsigned, 0u)                                                              \
   A(S, 5, int, input_zp, 0)  /* zero-extended when input_unsigned */                             \
   A(S, 6, int, output_zp, 0) /* zero-extended when output_unsigned */

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

DG_DEFINE_ARGS(dg_binary_args, DG_BINARY_ARGS);
DG_DEFINE_ARGS(dg_clamp_args, DG_CLAMP_ARGS);
DG_DEFINE_ARGS(dg_max_pool2d_args, DG_MAX_POOL2D_ARGS);
DG_DEFINE_ARGS(dg_conv2d_args, DG_CONV2D_ARGS);
DG_DEFINE_ARGS(dg_matmul_args, DG_MATMUL_ARGS);
DG_DEFINE_ARGS(dg_rescale_args, DG_RESCALE_ARGS);
DG_DEFINE_ARGS(dg_copy_args, DG_COPY_ARGS);

/* Attributes in a struct dg_*_args: specialization map entries 0 .. count - 1. */
#define DG_ARGS_COUNT(args) ((uint32_t)(sizeof(args) / 4))

#endif

#endif /* VMEL_TOSA_ARGS_H */
