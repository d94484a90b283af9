/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The operator table (expanded from the declarations, tosa_ops.def) and what
 * decoding an operator works with: a context for one OpExtInst, the generic
 * decoder that reads every operand as declared, matches the type-support row
 * and fills the attributes (dg_op_decode()), checked accessors for operands,
 * and shape helpers. Each operator's validation function (graph/ops/<family>.c)
 * then checks the ERROR_IFs a table cannot express.
 */
#ifndef DG_OP_H
#define DG_OP_H

#include "dg_decode_private.h"

/** The declared operators (tosa_ops.def), in declaration order. */
enum dg_op {
#define DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD) DG_OP_##NAME,
#include "dg_decl_expand.h"
   DG_OP_COUNT
};

/** What an operand is (DG_OPERAND's KIND). */
enum dg_operand_kind {
   DG_OPERAND_TENSOR,
   DG_OPERAND_TENSORS,
   DG_OPERAND_U32,
   DG_OPERAND_BOOL,
   DG_OPERAND_NAN_MODE,
   DG_OPERAND_ACC_TYPE,
   DG_OPERAND_ROUNDING,
   DG_OPERAND_ELEM,
   DG_OPERAND_LIST,
   DG_OPERAND_ZP,
   DG_OPERAND_CONST,
};

#define DG_OPERAND_COL 1u  /* a column of the type-support rows */
#define DG_OPERAND_BIND 2u /* a constant the kernel binds as a tensor */

struct dg_operand_decl {
   uint8_t kind;  /* enum dg_operand_kind */
   uint8_t flags; /* DG_OPERAND_COL, DG_OPERAND_BIND */
   uint8_t arg;   /* TENSOR: rank (0: any); LIST: length */
   const char *name;
};

struct dg_attr_decl {
   uint8_t operand; /* the operand it comes from */
   uint8_t index;   /* its element (LIST) */
   bool is_signed;
   const char *name;
};

/* A column value that is an accumulator type rather than an element type. */
#define DG_ROW_ACC(acc) ((uint8_t)(0x80u | (acc)))
#define DG_ROW_MAX_COLS 8

/** One type-support row: enabled when (features & any) != 0 (or any == 0) and
 *  all its `all` features are enabled; `kernel` (enum dg_kernel_id) runs it. */
struct dg_type_row {
   uint16_t any, all;
   uint16_t kernel;
   uint8_t col[DG_ROW_MAX_COLS];
};

/** The operator's output-shape rule (DG_OP's SHAPE). */
enum dg_shape_rule {
   DG_SHAPE_BROADCAST, /* broadcast_shape(first tensor input, second tensor input) */
   DG_SHAPE_SAME,      /* the first tensor input's shape */
   DG_SHAPE_CUSTOM,    /* the validation function checks it */
};

struct dg_op_ctx;
typedef VkResult (*dg_op_validate_fn)(struct dg_op_ctx *c);
/** Computes the output shape from the decoded operands (the input shapes and constants);
 *  fails, without dividing by zero, when they give none. */
typedef VkResult (*dg_op_shape_fn)(struct dg_op_ctx *c, struct dg_shape *out);

/** One declared operator. */
struct dg_op_info {
   enum dg_op op;
   uint32_t set;    /* enum spirv_ext_inst_set */
   uint32_t opcode; /* instruction number in the set */
   const char *name;
   enum dg_shape_rule shape;
   dg_op_validate_fn validate; /* NULL: the declaration says everything */
   dg_op_shape_fn infer;       /* the output-shape rule (BROADCAST, SAME or the operator's) */
   const struct dg_operand_decl *operands;
   uint32_t operand_count;
   const struct dg_attr_decl *attrs;
   uint32_t attr_count; /* 32-bit words of struct dg_attrs_<op> */
   const struct dg_type_row *rows;
   uint32_t row_count;
   uint32_t first_row; /* index of rows[0] in dg_op_row() */
   const char *const *col_names;
   uint32_t col_count;
   uint32_t result_rank; /* 0: any */
};

/** One decoded operand (the fields its kind fills). */
struct dg_operand_value {
   struct dg_tensor_type ty; /* TENSOR (TENSORS: the first), LIST, ZP, CONST */
   struct dg_scalar scalar;  /* U32, BOOL, enumerations, ELEM */
   uint32_t value;           /* U32, BOOL (0 or 1), enumerations */
   uint64_t bits;            /* ZP: the element's bits */
   int32_t list[8];          /* LIST */
};

/** One OpExtInst being decoded. Operand i is word 5 + i of the instruction. */
struct dg_op_ctx {
   struct dg_decoder *d;
   const struct spirv_inst *inst;
   struct dg_node *node; /* stable while the decoder runs (no node is added meanwhile) */
   const char *name;     /* "CONV2D" */
   const struct dg_op_info *op;
   uint32_t operand_count;
   uint32_t features; /* enum dg_tosa_feature */
   /* Filled by dg_op_decode() before the validation function runs: */
   struct dg_operand_value opnd[DG_MAX_DECLARED_OPERANDS];
   struct dg_tensor_type out;
};

#define DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD)                                             \
   DG_OP_VALIDATE_PROTO_##VALIDATE(name) DG_OP_SHAPE_PROTO_##SHAPE(name)
#define DG_OP_VALIDATE_PROTO_NONE(name)
#define DG_OP_VALIDATE_PROTO_CUSTOM(name) VkResult dg_op_##name##_validate(struct dg_op_ctx *c);
#define DG_OP_SHAPE_PROTO_BROADCAST(name)
#define DG_OP_SHAPE_PROTO_SAME(name)
#define DG_OP_SHAPE_PROTO_CUSTOM(name)                                                             \
   VkResult dg_op_##name##_shape(struct dg_op_ctx *c, struct dg_shape *out);
#include "dg_decl_expand.h"
#undef DG_OP_VALIDATE_PROTO_NONE
#undef DG_OP_VALIDATE_PROTO_CUSTOM
#undef DG_OP_SHAPE_PROTO_BROADCAST
#undef DG_OP_SHAPE_PROTO_SAME
#undef DG_OP_SHAPE_PROTO_CUSTOM

/** The output-shape rules BROADCAST and SAME. */
VkResult dg_op_shape_broadcast(struct dg_op_ctx *c, struct dg_shape *out);
VkResult dg_op_shape_same(struct dg_op_ctx *c, struct dg_shape *out);

/** The operator implementing instruction `opcode` of set `set`, or NULL. */
const struct dg_op_info *dg_op_find(uint32_t set, uint32_t opcode);
/** The operator `op`. */
const struct dg_op_info *dg_op_get(enum dg_op op);
/** Every declared row, operator by operator (dg_node::row indexes it); NULL past the end. */
const struct dg_type_row *dg_op_row(uint32_t row);
/** The number of declared rows. */
uint32_t dg_op_row_count(void);

/**
 * Decodes one OpExtInst of operator c->op: reads every operand as declared
 * (tensor inputs appended to the node, constants checked and read), the
 * output, ranks, the type-support row, the output-shape rule and the
 * attributes, then runs the operator's validation function.
 */
VkResult dg_op_decode(struct dg_op_ctx *c);

/** The decoded operand `i` (an index DG_OPND_<OP>_<operand>). */
static inline const struct dg_operand_value *
dg_op_opnd(const struct dg_op_ctx *c, uint32_t i)
{
   return &c->opnd[i];
}

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

#endif /* DG_OP_H */
