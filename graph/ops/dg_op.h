/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The operator table (expanded from dg_ops.def) and what an operator's
 * decoder works with: a context for one OpExtInst, checked accessors for its
 * operands (tensor inputs, constant attributes, zero points, lists), the
 * type-support row matcher and shape helpers. Each operator's file reads its
 * operands in TOSA.001000.1 order, checks every ERROR_IF and type-support
 * rule decidable from types and constants, and fills its node's attributes.
 */
#ifndef DG_OP_H
#define DG_OP_H

#include "dg_decode_private.h"

enum dg_op {
#define DG_OP(NAME, name) DG_OP_##NAME,
#include "dg_ops.def"
#undef DG_OP
   DG_OP_COUNT
};

/** One OpExtInst being decoded. Operand i is word 5 + i of the instruction. */
struct dg_op_ctx {
   struct dg_decoder *d;
   const struct spirv_inst *inst;
   struct dg_node *node; /* stable while the decoder runs (no node is added meanwhile) */
   const char *name;     /* "CONV2D" */
   uint32_t operand_count;
   uint32_t features; /* enum dg_tosa_feature */
};

typedef VkResult (*dg_op_decode_fn)(struct dg_op_ctx *c);

struct dg_op_info {
   enum dg_op op;
   uint32_t tosa_inst;
   const char *name;
   dg_op_decode_fn decode;
};

#define DG_OP(NAME, name) VkResult dg_op_##name##_decode(struct dg_op_ctx *c);
#include "dg_ops.def"
#undef DG_OP

/** The operator implementing TOSA instruction `tosa_inst`, or NULL. */
const struct dg_op_info *dg_op_find(uint32_t tosa_inst);
/** The operator `op`. */
const struct dg_op_info *dg_op_get(enum dg_op op);

/** Fails at the instruction (see dg_fail()). */
VkResult dg_op_fail(struct dg_op_ctx *c, enum dg_error code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/** The <id> of operand `operand`. */
VkResult dg_op_operand_id(struct dg_op_ctx *c, uint32_t operand, uint32_t *id);

/**
 * A tensor input: any tensor value (graph input, node result, constant).
 * Appends it to the node's inputs and copies its type into *ty.
 */
VkResult dg_op_input(struct dg_op_ctx *c, uint32_t operand, const char *name,
                     struct dg_tensor_type *ty);

/** The node's (single) result tensor type. */
VkResult dg_op_output(struct dg_op_ctx *c, struct dg_tensor_type *ty);

/** A 32-bit integer scalar constant attribute (axis, nan_mode, acc_type, ...). */
VkResult dg_op_attr_u32(struct dg_op_ctx *c, uint32_t operand, const char *name, uint32_t *value);
/** A boolean scalar constant attribute. */
VkResult dg_op_attr_bool(struct dg_op_ctx *c, uint32_t operand, const char *name, bool *value);
/** A scalar constant of any type (CLAMP min_val/max_val). */
VkResult dg_op_attr_scalar(struct dg_op_ctx *c, uint32_t operand, const char *name,
                           struct dg_scalar *s);
/** nan_mode: PROPAGATE or IGNORE. */
VkResult dg_op_nan_mode(struct dg_op_ctx *c, uint32_t operand, uint32_t *mode);
/** A constant tensor<i32> of shape [n] (kernel, stride, pad, dilation, shape). */
VkResult dg_op_attr_list(struct dg_op_ctx *c, uint32_t operand, const char *name, uint32_t n,
                         int32_t *values);
/** The type of a constant tensor operand (it must be a constant instruction). */
VkResult dg_op_const_type(struct dg_op_ctx *c, uint32_t operand, const char *name,
                          struct dg_tensor_type *ty);
/** Its data: dg_shape_elements() * dg_type_size() bytes into out. */
VkResult dg_op_const_data(struct dg_op_ctx *c, uint32_t operand, const struct dg_tensor_type *ty,
                          uint8_t *out);
/** A zero point: a constant tensor of shape [1]; its element type and bits. */
VkResult dg_op_zero_point(struct dg_op_ctx *c, uint32_t operand, const char *name,
                          enum dg_type *type, uint64_t *bits);

/** Sign-extends the low `width` bits. */
static inline int64_t
dg_sign_extend(uint64_t bits, uint32_t width)
{
   if (width >= 64)
      return (int64_t)bits;
   uint64_t sign = 1ull << (width - 1);
   bits &= (sign << 1) - 1;
   return (int64_t)((bits ^ sign) - sign);
}

/**
 * A zero point that TOSA allows only for i8 (CONV2D, MATMUL: "ERROR_IF(
 * !is_same<in_t,i8_t>() && input_zp != 0)"): fails unless type is i8 or the
 * value is zero (+0.0 or -0.0 for floating-point types).
 * @param value receives the sign-extended value (0 for floating point)
 */
VkResult dg_op_zero_point_i8_only(struct dg_op_ctx *c, const char *name, enum dg_type type,
                                  uint64_t bits, int64_t *value);

/** ERROR_IF(out != idiv_check(numerator, stride) + 1), formula naming the numerator. */
VkResult dg_op_out_size(struct dg_op_ctx *c, const char *out_name, const char *formula,
                        int64_t numerator, int64_t stride, int64_t out);

/** LEVEL_CHECK(value <= limit) against level 8K (DG_ERR_LEVEL). */
VkResult dg_op_level(struct dg_op_ctx *c, const char *what, int64_t value, int64_t limit,
                     const char *limit_name);

/** Checks a tensor's rank (operand named by name). */
VkResult dg_op_rank(struct dg_op_ctx *c, const char *name, const struct dg_tensor_type *ty,
                    uint32_t rank);
/** ERROR_IF(shape != broadcast_shape(shape1, shape2)) (broadcast_shape.tosac). */
VkResult dg_op_broadcast(struct dg_op_ctx *c, const struct dg_shape *shape1,
                         const struct dg_shape *shape2, const struct dg_shape *shape);
/** ERROR_IF(a != b) for two shapes that must be equal. */
VkResult dg_op_same_shape(struct dg_op_ctx *c, const char *what_a, const struct dg_shape *a,
                          const char *what_b, const struct dg_shape *b);

/* ---- type-support rows (spec-facts §3.3) ------------------------------------------------ */

/** A column value that is an accumulator type rather than an element type. */
#define DG_ROW_ACC(acc) ((uint8_t)(0x80u | (acc)))
#define DG_ROW_MAX_COLS 8

/** One row: enabled when (features & any) != 0 (or any == 0) and all its
 *  `all` features are enabled. */
struct dg_type_row {
   uint16_t any, all;
   uint8_t col[DG_ROW_MAX_COLS];
};

/* Row profiles as spelled in the table. */
#define DG_PRO_INT DG_TOSA_PRO_INT, 0
#define DG_PRO_FP DG_TOSA_PRO_FP, 0
#define DG_PRO_INT_FP DG_TOSA_PRO_INT | DG_TOSA_PRO_FP, 0
#define DG_EXT(e) DG_TOSA_EXT_##e, 0
#define DG_EXT2(a, b) 0, DG_TOSA_EXT_##a | DG_TOSA_EXT_##b

/**
 * Finds the row matching `actual` (ncols values) and checks that it is
 * enabled. Fails with DG_ERR_OP_TYPE_SUPPORT naming the columns and values,
 * or DG_ERR_OP_EXTENSION naming the profile or extension the row needs.
 */
VkResult dg_op_match_row(struct dg_op_ctx *c, const struct dg_type_row *rows, uint32_t nrows,
                         uint32_t ncols, const char *const *col_names, const uint8_t *actual);

#endif /* DG_OP_H */
