/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The operator table expanded from dg_ops.def (indexed by enum dg_op and by
 * TOSA instruction number), and the operand accessors every operator's
 * decoder uses: tensor inputs through the graph's values, constant attributes
 * (TOSA.001000.1: "attributes ... must be constant instructions", and so must
 * the compile-time-constant inputs such as zero points), the type-support row
 * matcher and the shape rules shared by several operators. What each operator
 * checks is in its own file.
 */
#include <stdarg.h>
#include <stdio.h>

#include "dg_op.h"

static const struct dg_op_info dg_ops[DG_OP_COUNT] = {
#define DG_OP(NAME, name)                                                                          \
   [DG_OP_##NAME] = {DG_OP_##NAME, TOSA_##NAME, #NAME, dg_op_##name##_decode},
#include "dg_ops.def"
#undef DG_OP
};

/* TOSA instruction number -> enum dg_op + 1 (0: not implemented). */
static const uint8_t dg_op_by_tosa[TOSA_INST_COUNT] = {
#define DG_OP(NAME, name) [TOSA_##NAME] = DG_OP_##NAME + 1,
#include "dg_ops.def"
#undef DG_OP
};

const struct dg_op_info *
dg_op_find(uint32_t tosa_inst)
{
   if (tosa_inst >= TOSA_INST_COUNT || dg_op_by_tosa[tosa_inst] == 0)
      return NULL;
   return &dg_ops[dg_op_by_tosa[tosa_inst] - 1];
}

const struct dg_op_info *
dg_op_get(enum dg_op op)
{
   return (unsigned)op < DG_OP_COUNT ? &dg_ops[op] : NULL;
}

VkResult
dg_op_fail(struct dg_op_ctx *c, enum dg_error code, const char *fmt, ...)
{
   char message[256];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(message, sizeof(message), fmt, ap);
   va_end(ap);
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
   if (c->node->output_count != 1)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "the result type is a struct of %u tensors; %s has one result",
                        c->node->output_count, c->name);
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

VkResult
dg_op_broadcast(struct dg_op_ctx *c, const struct dg_shape *shape1, const struct dg_shape *shape2,
                const struct dg_shape *shape)
{
   char a[96], b[96], o[96], r[96];
   dg_shape_str(shape1, a, sizeof(a));
   dg_shape_str(shape2, b, sizeof(b));
   if (shape1->rank != shape2->rank)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(rank(shape1) != rank(shape2)): input1 %s, input2 %s", a, b);
   struct dg_shape bc = *shape1;
   for (uint32_t i = 0; i < bc.rank; i++) {
      if (bc.dim[i] == 1)
         bc.dim[i] = shape2->dim[i];
      else if (shape2->dim[i] != 1 && shape2->dim[i] != bc.dim[i])
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "ERROR_IF(shape2[%u] != 1 && shape2[%u] != shape1[%u]): input1 %s "
                           "and input2 %s do not broadcast",
                           i, i, i, a, b);
   }
   if (!dg_shape_equal(&bc, shape))
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(shape != broadcast_shape(shape1, shape2)): output %s, "
                        "broadcast of %s and %s is %s",
                        dg_shape_str(shape, o, sizeof(o)), a, b, dg_shape_str(&bc, r, sizeof(r)));
   return VK_SUCCESS;
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

VkResult
dg_op_match_row(struct dg_op_ctx *c, const struct dg_type_row *rows, uint32_t nrows, uint32_t ncols,
                const char *const *col_names, const uint8_t *actual)
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
      if (any && all)
         return VK_SUCCESS;
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
