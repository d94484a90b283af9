/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The operator tables expanded from the declarations (tosa_ops.def), the
 * generic operand decoder (dg_op_decode()), and the operand accessors it and
 * the operators' validation functions use: tensor inputs through the graph's values, constant
 * attributes (TOSA.001000.1: "attributes ... must be constant instructions", and so must the
 * compile-time-constant inputs such as zero points), the type-support row matcher and the shape
 * rules shared by several operators. What each operator checks is in its own file.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>

#include "dg_op.h"
#include "vmel_kernels_graph.h"

#define DG_SET_TOSA SPIRV_EXT_INST_SET_TOSA_001000_1
#define DG_SET_ME SPIRV_EXT_INST_SET_MOTION_ENGINE_100
/* DG_OP(ME, NAME, ...)'s instruction numbers (ArmMotionEngine.100.h). */
#define ME_MIN_SAD SPV_ARM_ME_MIN_SAD
#define ME_MIN_SAD_COST SPV_ARM_ME_MIN_SAD_COST
#define ME_RAW_SAD SPV_ARM_ME_RAW_SAD

/* The declaration tokens are the IR's numbers. */
_Static_assert(DG_TYPE_BOOL == 1 && DG_TYPE_I8 == 2 && DG_TYPE_I16 == 3 && DG_TYPE_I32 == 4 &&
                   DG_TYPE_I48 == 5 && DG_TYPE_FP16 == 6 && DG_TYPE_BF16 == 7 &&
                   DG_TYPE_FP32 == 8 && DG_TYPE_FP8E4M3 == 9 && DG_TYPE_FP8E5M2 == 10,
               "dg_decl_expand.h type tokens");
_Static_assert(DG_TOSA_PRO_INT == 1 && DG_TOSA_PRO_FP == 2 && DG_TOSA_EXT_INT16 == 4 &&
                   DG_TOSA_EXT_BF16 == 8 && DG_TOSA_EXT_FP8E4M3 == 16 &&
                   DG_TOSA_EXT_FP8E5M2 == 32 && DG_TOSA_EXT_FFT == 64,
               "dg_decl_expand.h profile tokens");
_Static_assert(DG_ROW_ACC(TOSA_ACC_TYPE_INT32) == 0x81 && DG_ROW_ACC(TOSA_ACC_TYPE_FP16) == 0x82 &&
                   DG_ROW_ACC(TOSA_ACC_TYPE_FP32) == 0x83 &&
                   DG_ROW_ACC(TOSA_ACC_TYPE_INT48) == 0x84,
               "dg_decl_expand.h accumulator tokens");

static const struct dg_operand_decl dg_operand_decls[] = {
#define DG_OPERAND(NAME, KIND, name, FLAGS, ARG) {DG_OPERAND_##KIND, FLAGS, ARG, #name},
#include "dg_decl_expand.h"
    {0, 0, 0, NULL}};

static const struct dg_attr_decl dg_attr_decls[] = {
#define DG_ATTR_SIGNED_int true
#define DG_ATTR_SIGNED_uint false
#define DG_ATTR(NAME, TYPE, member, SOURCE, INDEX, DEFAULT)                                        \
   {DG_OPND_##NAME##_##SOURCE, INDEX, DG_ATTR_SIGNED_##TYPE, #member},
#include "dg_decl_expand.h"
#undef DG_ATTR_SIGNED_int
#undef DG_ATTR_SIGNED_uint
    {0, 0, false, NULL}};

/* Every row, in declaration order; a row's kernel is the registry's typed id,
 * so a row naming a variant the build does not compile does not compile. */
static const struct dg_type_row dg_rows[] = {
#define DG_ROW(NAME, ANY, ALL, KERNEL, ...) {ANY, ALL, DG_KERNEL_##KERNEL, {__VA_ARGS__}},
#include "dg_decl_expand.h"
    {0, 0, 0, {0}}};
#define DG_ROWS_DECLARED (sizeof(dg_rows) / sizeof(dg_rows[0]) - 1)

#define DG_VALIDATE_NONE(name) NULL
#define DG_VALIDATE_CUSTOM(name) dg_op_##name##_validate
#define DG_SHAPE_FN_BROADCAST(name) dg_op_shape_broadcast
#define DG_SHAPE_FN_SAME(name) dg_op_shape_same
#define DG_SHAPE_FN_CUSTOM(name) dg_op_##name##_shape
static const struct dg_op_info dg_ops[DG_OP_COUNT] = {
#define DG_OP(SET, NAME, lower, SHAPE, VALIDATE, BUILD)                                            \
   [DG_OP_##NAME] = {                                                                              \
       .op = DG_OP_##NAME,                                                                         \
       .set = DG_SET_##SET,                                                                        \
       .opcode = SET##_##NAME,                                                                     \
       .name = #NAME,                                                                              \
       .shape = DG_SHAPE_##SHAPE,                                                                  \
       .validate = DG_VALIDATE_##VALIDATE(lower),                                                  \
       .infer = DG_SHAPE_FN_##SHAPE(lower),                                                        \
       .operands = &dg_operand_decls[DG_OPND_##NAME##_FIRST],                                      \
       .operand_count = DG_OPND_##NAME##_COUNT,                                                    \
       .attrs = &dg_attr_decls[DG_ATTR_##NAME##_FIRST],                                            \
       .attr_count = DG_##NAME##_ATTR_WORDS,                                                       \
       .rows = &dg_rows[DG_ROW_##NAME##_FIRST],                                                    \
       .row_count = DG_ROW_##NAME##_COUNT,                                                         \
       .first_row = DG_ROW_##NAME##_FIRST,                                                         \
       .col_names = (const char *const[]){DG_##NAME##_COLUMN_NAMES},                               \
       .col_count = DG_##NAME##_COLUMNS,                                                           \
       .result_rank = DG_##NAME##_RESULT_RANK,                                                     \
   },
#include "dg_decl_expand.h"
};
#undef DG_VALIDATE_NONE
#undef DG_VALIDATE_CUSTOM
#undef DG_SHAPE_FN_BROADCAST
#undef DG_SHAPE_FN_SAME
#undef DG_SHAPE_FN_CUSTOM

/* Results of each operator: 1, or DG_RESULTS' count. */
static uint32_t
op_result_count(enum dg_op op)
{
   switch (op) {
#define DG_RESULTS(NAME, COUNT)                                                                    \
   case DG_OP_##NAME:                                                                              \
      return COUNT;
#include "dg_decl_expand.h"
   default:
      return 1;
   }
}

const struct dg_op_info *
dg_op_find(uint32_t set, uint32_t opcode)
{
   for (uint32_t i = 0; i < DG_OP_COUNT; i++) {
      if (dg_ops[i].set == set && dg_ops[i].opcode == opcode)
         return &dg_ops[i];
   }
   return NULL;
}

const struct dg_op_info *
dg_op_get(enum dg_op op)
{
   return (unsigned)op < DG_OP_COUNT ? &dg_ops[op] : NULL;
}

const struct dg_type_row *
dg_op_row(uint32_t row)
{
   return row < DG_ROWS_DECLARED ? &dg_rows[row] : NULL;
}

uint32_t
dg_op_row_count(void)
{
   return (uint32_t)DG_ROWS_DECLARED;
}

VkResult
dg_op_fail(struct dg_op_ctx *c, enum dg_error code, const char *fmt, ...)
{
   char message[256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(message, sizeof(message), fmt, ap);
   va_end(ap);
   /* REQUIREs on constant operands are refused at creation (D24): say why in every message. */
   if (code == DG_ERR_OP_REQUIRE)
      return dg_fail(c->d, c->inst, code,
                     "%s; TOSA leaves the result unpredictable when a REQUIRE fails, so a "
                     "constant operand that fails one is refused (D24)",
                     message);
   return dg_fail(c->d, c->inst, code, "%s", message);
}

VkResult
dg_op_operand_id(struct dg_op_ctx *c, uint32_t operand, uint32_t *id)
{
   return dg_word(c->d, c->inst, SPV_ARM_EXT_INST_HEADER_WORDS + operand, id);
}

VkResult
dg_op_input(struct dg_op_ctx *c, uint32_t operand, const char *name, struct dg_tensor_type *ty)
{
   uint32_t id, tensor;
   VkResult result = dg_op_operand_id(c, operand, &id);
   if (result != VK_SUCCESS)
      return result;
   if ((result = dg_value_tensor(c->d, c->inst, id, &tensor)) != VK_SUCCESS ||
       (result = dg_add_node_tensor(c->d, tensor)) != VK_SUCCESS)
      return result;
   c->node->input_count++;
   *ty = c->d->g->tensors[tensor].ty;
   return VK_SUCCESS;
}

VkResult
dg_op_output(struct dg_op_ctx *c, struct dg_tensor_type *ty)
{
   const struct dg_graph *g = c->d->g;
   uint32_t results = op_result_count(c->op->op);
   if (c->node->output_count != results)
      return results == 1
                 ? dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                              "the result type is a struct of %u tensors; %s has one result",
                              c->node->output_count, c->name)
                 : dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                              "%s has %u results (an OpTypeStruct of %u tensors), not %u",
                              c->name, results, results, c->node->output_count);
   *ty = g->tensors[g->node_tensors[c->node->first_output]].ty;
   return VK_SUCCESS;
}

/* The defining instruction of a constant operand. */
static VkResult
const_operand(struct dg_op_ctx *c, uint32_t operand, const char *name, uint32_t *id,
              const struct spirv_inst **def)
{
   VkResult result = dg_op_operand_id(c, operand, id);
   if (result != VK_SUCCESS || (result = dg_def(c->d, c->inst, *id, def)) != VK_SUCCESS)
      return result;
   if (!dg_is_constant_opcode((*def)->opcode))
      return dg_op_fail(c, DG_ERR_OP_NOT_CONSTANT,
                        "%s (operand %u, %%%u) must be a constant instruction (opcode %u is not)",
                        name, operand, *id, (*def)->opcode);
   return VK_SUCCESS;
}

VkResult
dg_op_attr_scalar(struct dg_op_ctx *c, uint32_t operand, const char *name, struct dg_scalar *s)
{
   const struct spirv_inst *def;
   uint32_t id, type_id;
   VkResult result = const_operand(c, operand, name, &id, &def);
   if (result != VK_SUCCESS || (result = dg_word(c->d, def, 1, &type_id)) != VK_SUCCESS)
      return result;
   if (dg_is_tensor_type(c->d, type_id))
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "%s (%%%u) must be a scalar, not a tensor", name,
                        id);
   return dg_eval_scalar(c->d, c->inst, id, s);
}

VkResult
dg_op_attr_u32(struct dg_op_ctx *c, uint32_t operand, const char *name, uint32_t *value)
{
   struct dg_scalar s;
   VkResult result = dg_op_attr_scalar(c, operand, name, &s);
   if (result != VK_SUCCESS)
      return result;
   if (s.opcode != DG_SPV_TYPE_INT || s.width != 32)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "%s must be a 32-bit integer constant", name);
   *value = (uint32_t)s.bits;
   return VK_SUCCESS;
}

VkResult
dg_op_attr_bool(struct dg_op_ctx *c, uint32_t operand, const char *name, bool *value)
{
   struct dg_scalar s;
   VkResult result = dg_op_attr_scalar(c, operand, name, &s);
   if (result != VK_SUCCESS)
      return result;
   if (s.opcode != DG_SPV_TYPE_BOOL)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "%s must be a boolean constant", name);
   *value = s.bits != 0;
   return VK_SUCCESS;
}

VkResult
dg_op_nan_mode(struct dg_op_ctx *c, uint32_t operand, uint32_t *mode)
{
   VkResult result = dg_op_attr_u32(c, operand, "nan_mode", mode);
   if (result == VK_SUCCESS && *mode != TOSA_NAN_MODE_PROPAGATE && *mode != TOSA_NAN_MODE_IGNORE)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "nan_mode %u is not PROPAGATE (1) or IGNORE (2)",
                        *mode);
   return result;
}

VkResult
dg_op_const_type(struct dg_op_ctx *c, uint32_t operand, const char *name, struct dg_tensor_type *ty)
{
   const struct spirv_inst *def;
   uint32_t id, type_id;
   VkResult result = const_operand(c, operand, name, &id, &def);
   if (result != VK_SUCCESS || (result = dg_word(c->d, def, 1, &type_id)) != VK_SUCCESS)
      return result;
   if (!dg_is_tensor_type(c->d, type_id))
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "%s (%%%u) must be a constant tensor", name, id);
   return dg_tensor_type(c->d, c->inst, type_id, ty);
}

VkResult
dg_op_const_data(struct dg_op_ctx *c, uint32_t operand, const struct dg_tensor_type *ty,
                 uint8_t *out)
{
   uint32_t id;
   VkResult result = dg_op_operand_id(c, operand, &id);
   if (result != VK_SUCCESS)
      return result;
   return dg_eval_tensor(c->d, c->inst, id, ty, out);
}

VkResult
dg_op_attr_list(struct dg_op_ctx *c, uint32_t operand, const char *name, uint32_t n,
                int32_t *values)
{
   struct dg_tensor_type ty;
   uint8_t data[DG_MAX_RANK * 2 * sizeof(int32_t)];
   VkResult result = dg_op_const_type(c, operand, name, &ty);
   if (result != VK_SUCCESS)
      return result;
   if (ty.type != DG_TYPE_I32 || ty.shape.rank != 1 || ty.shape.dim[0] != n) {
      char s[96];
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "%s must be a tensor of i32 of shape [%u], "
                        "not %s %s",
                        name, n, dg_type_name(ty.type), dg_shape_str(&ty.shape, s, sizeof(s)));
   }
   if (n * sizeof(int32_t) > sizeof(data) ||
       (result = dg_op_const_data(c, operand, &ty, data)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < n; i++)
      values[i] = (int32_t)dg_elem_int(DG_TYPE_I32, data, i);
   return VK_SUCCESS;
}

VkResult
dg_op_zero_point(struct dg_op_ctx *c, uint32_t operand, const char *name, enum dg_type *type,
                 uint64_t *bits)
{
   struct dg_tensor_type ty;
   uint8_t data[8];
   VkResult result = dg_op_const_type(c, operand, name, &ty);
   if (result != VK_SUCCESS)
      return result;
   if (ty.shape.rank != 1 || ty.shape.dim[0] != 1) {
      char s[96];
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "%s must be a tensor of shape [1], not %s", name,
                        dg_shape_str(&ty.shape, s, sizeof(s)));
   }
   if ((result = dg_op_const_data(c, operand, &ty, data)) != VK_SUCCESS)
      return result;
   *type = ty.type;
   *bits = dg_elem_bits(ty.type, data, 0);
   return VK_SUCCESS;
}

VkResult
dg_op_zero_point_i8_only(struct dg_op_ctx *c, const char *name, enum dg_type type, uint64_t bits,
                         int64_t *value)
{
   bool zero;
   *value = 0;
   if (dg_type_is_float(type)) {
      zero = dg_float_from_bits(type, bits) == 0.0;
   } else {
      *value = dg_sign_extend(bits, 8 * dg_type_size(type));
      zero = *value == 0;
   }
   if (type != DG_TYPE_I8 && !zero)
      return dg_op_fail(c, DG_ERR_OP_ZERO_POINT,
                        "ERROR_IF(!is_same<T,i8_t>() && %s != 0): %s is 0x%" PRIx64
                        " for %s; zero points are for i8 only",
                        name, name, bits, dg_type_name(type));
   return VK_SUCCESS;
}

VkResult
dg_op_out_size(struct dg_op_ctx *c, const char *out_name, const char *formula, int64_t numerator,
               int64_t stride, int64_t out)
{
   if (numerator % stride != 0)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(%s != idiv_check(%s, stride) + 1): %" PRId64
                        " is not a multiple of the stride %" PRId64,
                        out_name, formula, numerator, stride);
   if (numerator / stride + 1 != out)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(%s != idiv_check(%s, stride) + 1): %s is %" PRId64
                        ", expected %" PRId64 " / %" PRId64 " + 1 = %" PRId64,
                        out_name, formula, out_name, out, numerator, stride,
                        numerator / stride + 1);
   return VK_SUCCESS;
}

VkResult
dg_op_level(struct dg_op_ctx *c, const char *what, int64_t value, int64_t limit,
            const char *limit_name)
{
   if (value <= limit)
      return VK_SUCCESS;
   return dg_op_fail(c, DG_ERR_LEVEL, "LEVEL_CHECK(%s <= %s): %" PRId64 " > %" PRId64 " (level 8K)",
                     what, limit_name, value, limit);
}

VkResult
dg_op_rank(struct dg_op_ctx *c, const char *name, const struct dg_tensor_type *ty, uint32_t rank)
{
   if (ty->shape.rank == rank)
      return VK_SUCCESS;
   char s[96];
   return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "%s must have rank %u, not %u (shape %s)", name,
                     rank, ty->shape.rank, dg_shape_str(&ty->shape, s, sizeof(s)));
}

/* broadcast_shape(shape1, shape2) of broadcast_shape.tosac into `out`, with its ERROR_IFs. */
static VkResult
broadcast_shape(struct dg_op_ctx *c, const struct dg_shape *shape1, const struct dg_shape *shape2,
                struct dg_shape *out)
{
   char a[96], b[96];
   if (shape1->rank != shape2->rank)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(rank(shape1) != rank(shape2)): input1 %s, input2 %s",
                        dg_shape_str(shape1, a, sizeof(a)), dg_shape_str(shape2, b, sizeof(b)));
   *out = *shape1;
   for (uint32_t i = 0; i < out->rank; i++) {
      if (out->dim[i] == 1)
         out->dim[i] = shape2->dim[i];
      else if (shape2->dim[i] != 1 && shape2->dim[i] != out->dim[i])
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "ERROR_IF(shape2[%u] != 1 && shape2[%u] != shape1[%u]): input1 %s "
                           "and input2 %s do not broadcast",
                           i, i, i, dg_shape_str(shape1, a, sizeof(a)),
                           dg_shape_str(shape2, b, sizeof(b)));
   }
   return VK_SUCCESS;
}

VkResult
dg_op_broadcast(struct dg_op_ctx *c, const struct dg_shape *shape1, const struct dg_shape *shape2,
                const struct dg_shape *shape)
{
   struct dg_shape bc;
   VkResult result = broadcast_shape(c, shape1, shape2, &bc);
   if (result != VK_SUCCESS || dg_shape_equal(&bc, shape))
      return result;
   char a[96], b[96], o[96], r[96];
   return dg_op_fail(c, DG_ERR_OP_SHAPE,
                     "ERROR_IF(shape != broadcast_shape(shape1, shape2)): output %s, "
                     "broadcast of %s and %s is %s",
                     dg_shape_str(shape, o, sizeof(o)), dg_shape_str(shape1, a, sizeof(a)),
                     dg_shape_str(shape2, b, sizeof(b)), dg_shape_str(&bc, r, sizeof(r)));
}

VkResult
dg_op_same_shape(struct dg_op_ctx *c, const char *what_a, const struct dg_shape *a,
                 const char *what_b, const struct dg_shape *b)
{
   if (dg_shape_equal(a, b))
      return VK_SUCCESS;
   char x[96], y[96];
   return dg_op_fail(c, DG_ERR_OP_SHAPE, "%s %s differs from %s %s", what_a,
                     dg_shape_str(a, x, sizeof(x)), what_b, dg_shape_str(b, y, sizeof(y)));
}

/* ---- type-support rows ------------------------------------------------------------------ */

static const char *
column_value_name(uint8_t v)
{
   if (!(v & 0x80u))
      return dg_type_name((enum dg_type)v);
   switch (v & 0x7fu) {
   case TOSA_ACC_TYPE_INT32:
      return "INT32";
   case TOSA_ACC_TYPE_FP16:
      return "FP16";
   case TOSA_ACC_TYPE_FP32:
      return "FP32";
   case TOSA_ACC_TYPE_INT48:
      return "INT48";
   default:
      return "acc?";
   }
}

static void
feature_names(uint32_t mask, char *buf, size_t size, const char *sep)
{
   static const char *const names[] = {"PRO-INT",  "PRO-FP",          "EXT-INT16",
                                       "EXT-BF16", "EXT-FP8E4M3",     "EXT-FP8E5M2",
                                       "EXT-FFT",  "EXT-DOUBLEROUND", "EXT-INEXACTROUND"};
   size_t n = 0;
   buf[0] = '\0';
   for (uint32_t i = 0; i < sizeof(names) / sizeof(names[0]) && n < size; i++) {
      if (mask & (1u << i))
         n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "", names[i]);
   }
}

/*
 * Finds the row matching `actual` (ncols values) and checks that it is enabled. Fails with
 * DG_ERR_OP_TYPE_SUPPORT naming the columns and values, or DG_ERR_OP_EXTENSION naming the
 * profile or extension the row needs. *matched: the index in rows of the row found.
 */
static VkResult
match_row(struct dg_op_ctx *c, const struct dg_type_row *rows, uint32_t nrows, uint32_t ncols,
          const char *const *col_names, const uint8_t *actual, uint32_t *matched)
{
   char combo[200];
   size_t n = 0;
   combo[0] = '\0';
   for (uint32_t i = 0; i < ncols && n < sizeof(combo); i++)
      n += (size_t)snprintf(combo + n, sizeof(combo) - n, "%s%s %s", i ? ", " : "", col_names[i],
                            column_value_name(actual[i]));
   for (uint32_t r = 0; r < nrows; r++) {
      if (memcmp(rows[r].col, actual, ncols) != 0)
         continue;
      bool any = rows[r].any == 0 || (rows[r].any & c->features);
      bool all = (rows[r].all & c->features) == rows[r].all;
      if (any && all) {
         *matched = r;
         return VK_SUCCESS;
      }
      char need[96];
      feature_names(rows[r].any ? rows[r].any : rows[r].all, need, sizeof(need),
                    rows[r].any ? " or " : " and ");
      return dg_op_fail(c, DG_ERR_OP_EXTENSION, "type combination (%s) needs %s, not enabled",
                        combo, need);
   }
   return dg_op_fail(c, DG_ERR_OP_TYPE_SUPPORT,
                     "type combination (%s) is in no TOSA.001000.1 type-support row of %s", combo,
                     c->name);
}

/* ---- the generic decoder ------------------------------------------------------------------ */

static VkResult
decode_enum(struct dg_op_ctx *c, uint32_t i, const struct dg_operand_decl *o, uint32_t *value)
{
   VkResult result;
   switch (o->kind) {
   case DG_OPERAND_NAN_MODE:
      return dg_op_nan_mode(c, i, value);
   case DG_OPERAND_ACC_TYPE:
      if ((result = dg_op_attr_u32(c, i, o->name, value)) != VK_SUCCESS)
         return result;
      if (*value < TOSA_ACC_TYPE_INT32 || *value > TOSA_ACC_TYPE_INT48)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "%s %u is not INT32 (1), FP16 (2), FP32 (3) or INT48 (4)", o->name,
                           *value);
      return VK_SUCCESS;
   default: /* DG_OPERAND_ROUNDING */
      if ((result = dg_op_attr_u32(c, i, o->name, value)) != VK_SUCCESS)
         return result;
      if (*value < TOSA_ROUNDING_SINGLE_ROUND || *value > TOSA_ROUNDING_DOUBLE_ROUND)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "%s %u is not SINGLE_ROUND (1), INEXACT_ROUND (2) or DOUBLE_ROUND (3)",
                           o->name, *value);
      if (*value == TOSA_ROUNDING_DOUBLE_ROUND && !(c->features & DG_TOSA_EXT_DOUBLEROUND))
         return dg_op_fail(c, DG_ERR_OP_EXTENSION, "%s DOUBLE_ROUND needs EXT-DOUBLEROUND",
                           o->name);
      if (*value == TOSA_ROUNDING_INEXACT_ROUND && !(c->features & DG_TOSA_EXT_INEXACTROUND))
         return dg_op_fail(c, DG_ERR_OP_EXTENSION, "%s INEXACT_ROUND needs EXT-INEXACTROUND",
                           o->name);
      return VK_SUCCESS;
   }
}

/* Reads operand i as its declaration says. */
static VkResult
decode_operand(struct dg_op_ctx *c, uint32_t i)
{
   const struct dg_operand_decl *o = &c->op->operands[i];
   struct dg_operand_value *v = &c->opnd[i];
   VkResult result;
   bool b = false;
   switch ((enum dg_operand_kind)o->kind) {
   case DG_OPERAND_TENSOR:
      return dg_op_input(c, i, o->name, &v->ty);
   case DG_OPERAND_TENSORS:
      for (uint32_t t = i; t < c->operand_count; t++) {
         char name[48];
         struct dg_tensor_type ty;
         snprintf(name, sizeof(name), "%s[%u]", o->name, t - i);
         if ((result = dg_op_input(c, t, name, &ty)) != VK_SUCCESS)
            return result;
         if (t == i)
            v->ty = ty;
      }
      return VK_SUCCESS;
   case DG_OPERAND_U32:
      return dg_op_attr_u32(c, i, o->name, &v->value);
   case DG_OPERAND_BOOL:
      result = dg_op_attr_bool(c, i, o->name, &b);
      v->value = b;
      return result;
   case DG_OPERAND_NAN_MODE:
   case DG_OPERAND_ACC_TYPE:
   case DG_OPERAND_ROUNDING:
      return decode_enum(c, i, o, &v->value);
   case DG_OPERAND_ELEM:
      return dg_op_attr_scalar(c, i, o->name, &v->scalar);
   case DG_OPERAND_LIST:
      return dg_op_attr_list(c, i, o->name, o->arg, v->list);
   case DG_OPERAND_ZP:
      v->ty = (struct dg_tensor_type){0};
      return dg_op_zero_point(c, i, o->name, &v->ty.type, &v->bits);
   case DG_OPERAND_CONST:
      return dg_op_const_type(c, i, o->name, &v->ty);
   }
   return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "operand %u has no declared kind", i);
}

/* The fp32 bits of a float scalar's value (exact for fp16 and bf16). */
static uint32_t
fp32_bits_of(enum dg_type type, uint64_t bits)
{
   float f = (float)dg_float_from_bits(type, bits);
   uint32_t u;
   memcpy(&u, &f, sizeof(u));
   return u;
}

/* One attribute word from its source operand. */
static uint32_t
attr_word(const struct dg_op_ctx *c, const struct dg_attr_decl *a)
{
   const struct dg_operand_decl *o = &c->op->operands[a->operand];
   const struct dg_operand_value *v = &c->opnd[a->operand];
   switch ((enum dg_operand_kind)o->kind) {
   case DG_OPERAND_LIST:
      return (uint32_t)v->list[a->index];
   case DG_OPERAND_ELEM: {
      enum dg_type t = dg_scalar_elem_type(&v->scalar);
      if (dg_type_is_float(t))
         return fp32_bits_of(t, v->scalar.bits);
      return (uint32_t)(int32_t)dg_sign_extend(v->scalar.bits, v->scalar.width);
   }
   case DG_OPERAND_ZP:
      if (dg_type_is_float(v->ty.type))
         return 0;
      return (uint32_t)(int32_t)dg_sign_extend(v->bits, 8 * dg_type_size(v->ty.type));
   default:
      return v->value;
   }
}

/* The first and second tensor inputs (for the shape rules). */
static const struct dg_tensor_type *
tensor_operand(const struct dg_op_ctx *c, uint32_t which)
{
   for (uint32_t i = 0; i < c->op->operand_count; i++) {
      uint8_t kind = c->op->operands[i].kind;
      if (kind == DG_OPERAND_TENSOR || kind == DG_OPERAND_TENSORS) {
         if (which-- == 0)
            return &c->opnd[i].ty;
      }
   }
   return NULL;
}

/* The result type leaves the shape (or rank) out: the operator's output-shape rule gives it
 * (drop-in, D23), before the validation function checks the node against it. */
static VkResult
infer_output_shape(struct dg_op_ctx *c)
{
   struct dg_shape inferred;
   char a[96], b[160];
   VkResult result = c->op->infer(c, &inferred);
   if (result != VK_SUCCESS)
      return result;
   if (c->out.shape.rank && inferred.rank != c->out.shape.rank)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "the result type %s has rank %u, the operands give rank %u",
                        dg_shape_str(&c->out.shape, a, sizeof(a)), c->out.shape.rank,
                        inferred.rank);
   bool valid = inferred.rank >= 1 && inferred.rank <= DG_MAX_RANK;
   for (uint32_t i = 0; valid && i < inferred.rank; i++)
      valid = inferred.dim[i] >= 1;
   if (!valid) {
      size_t n = (size_t)snprintf(b, sizeof(b), "[");
      for (uint32_t i = 0; i < inferred.rank && i < DG_MAX_RANK && n < sizeof(b); i++)
         n += (size_t)snprintf(b + n, sizeof(b) - n, "%s%" PRId64, i ? "," : "", inferred.dim[i]);
      if (n < sizeof(b))
         snprintf(b + n, sizeof(b) - n, "]");
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "the result type is unshaped and the operands give no valid shape "
                        "(rank %u, dimensions %s)",
                        inferred.rank, b);
   }
   struct dg_tensor_type shaped = {c->out.type, c->out.int_signed, inferred};
   if ((result = dg_check_tensor_size(c->d, c->inst, &shaped)) != VK_SUCCESS)
      return result;
   if (c->op->result_rank &&
       (result = dg_op_rank(c, "output", &shaped, c->op->result_rank)) != VK_SUCCESS)
      return result;
   c->out = shaped;
   struct dg_graph *g = c->d->g;
   g->tensors[g->node_tensors[c->node->first_output]].ty.shape = inferred;
   c->d->inferred_shapes++;
   return VK_SUCCESS;
}

VkResult
dg_op_decode(struct dg_op_ctx *c)
{
   const struct dg_op_info *op = c->op;
   VkResult result;
   memset(c->opnd, 0, sizeof(c->opnd));
   for (uint32_t i = 0; i < op->operand_count; i++) {
      if ((result = decode_operand(c, i)) != VK_SUCCESS)
         return result;
   }
   if ((result = dg_op_output(c, &c->out)) != VK_SUCCESS)
      return result;
   const bool infer_output = !dg_shape_known(&c->out.shape);
   for (uint32_t i = 0; i < op->operand_count; i++) {
      const struct dg_operand_decl *o = &op->operands[i];
      if (o->kind == DG_OPERAND_TENSOR && o->arg &&
          (result = dg_op_rank(c, o->name, &c->opnd[i].ty, o->arg)) != VK_SUCCESS)
         return result;
   }
   if (op->result_rank && !infer_output &&
       (result = dg_op_rank(c, "output", &c->out, op->result_rank)) != VK_SUCCESS)
      return result;

   uint8_t actual[DG_ROW_MAX_COLS];
   uint32_t ncols = 0, row = 0;
   for (uint32_t i = 0; i < op->operand_count && ncols < DG_ROW_MAX_COLS; i++) {
      const struct dg_operand_decl *o = &op->operands[i];
      if (!(o->flags & DG_OPERAND_COL))
         continue;
      if (o->kind == DG_OPERAND_ACC_TYPE)
         actual[ncols++] = DG_ROW_ACC(c->opnd[i].value);
      else if (o->kind == DG_OPERAND_ELEM)
         actual[ncols++] = (uint8_t)dg_scalar_elem_type(&c->opnd[i].scalar);
      else
         actual[ncols++] = (uint8_t)c->opnd[i].ty.type;
   }
   actual[ncols++] = (uint8_t)c->out.type;
   if ((result = match_row(c, op->rows, op->row_count, ncols, op->col_names, actual, &row)) !=
       VK_SUCCESS)
      return result;
   c->node->row = op->first_row + row;
   for (uint32_t a = 0; a < op->attr_count; a++)
      c->node->attrs.word[a] = attr_word(c, &op->attrs[a]);
   if (infer_output && (result = infer_output_shape(c)) != VK_SUCCESS)
      return result;

   const struct dg_tensor_type *t0 = tensor_operand(c, 0), *t1 = tensor_operand(c, 1);
   const struct dg_tensor_type *t2 = tensor_operand(c, 2);
   if (op->shape == DG_SHAPE_BROADCAST && t0 && t1 && !t2 &&
       (result = dg_op_broadcast(c, &t0->shape, &t1->shape, &c->out.shape)) != VK_SUCCESS)
      return result;
   if (op->shape == DG_SHAPE_BROADCAST && t0 && t1 && t2) {
      /* SELECT: broadcast_shape(broadcast_shape(shape1, shape2), shape3). */
      struct dg_shape s01;
      if ((result = broadcast_shape(c, &t0->shape, &t1->shape, &s01)) != VK_SUCCESS ||
          (result = dg_op_broadcast(c, &s01, &t2->shape, &c->out.shape)) != VK_SUCCESS)
         return result;
   }
   if (op->shape == DG_SHAPE_SAME && t0 &&
       (result = dg_op_same_shape(c, "output", &c->out.shape, "input", &t0->shape)) != VK_SUCCESS)
      return result;

   if (op->validate && (result = op->validate(c)) != VK_SUCCESS)
      return result;
   /* The declared output-shape rule must give the result type's shape (the validation
    * function's checks say why when it does not; this keeps the rule and them in step). */
   struct dg_shape inferred;
   if ((result = op->infer(c, &inferred)) != VK_SUCCESS)
      return result;
   if (!dg_shape_equal(&inferred, &c->out.shape)) {
      char a[96], b[96];
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "the output shape %s is not the %s the operands give",
                        dg_shape_str(&c->out.shape, a, sizeof(a)),
                        dg_shape_str(&inferred, b, sizeof(b)));
   }
   return VK_SUCCESS;
}

VkResult
dg_op_shape_broadcast(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *t0 = tensor_operand(c, 0), *t1 = tensor_operand(c, 1);
   if (!t0 || !t1)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "the inputs do not broadcast");
   VkResult result = broadcast_shape(c, &t0->shape, &t1->shape, out);
   const struct dg_tensor_type *t2 = tensor_operand(c, 2);
   if (result == VK_SUCCESS && t2) {
      struct dg_shape s01 = *out;
      result = broadcast_shape(c, &s01, &t2->shape, out);
   }
   return result;
}

VkResult
dg_op_shape_same(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *t0 = tensor_operand(c, 0);
   if (!t0)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "no tensor input to take the shape of");
   *out = t0->shape;
   return VK_SUCCESS;
}
