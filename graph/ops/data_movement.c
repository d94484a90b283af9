/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation and output shapes of the data-movement operators of TOSA 1.0.1
 * "Data Layout" (issue 11), declared in tosa_ops.def: SLICE (input1, start,
 * size), REVERSE (axis, input1), TILE (input1, multiples), PAD (input1,
 * padding, pad_const), TRANSPOSE (perms, input1). Every ERROR_IF of their
 * .tosac is decided here, at pipeline creation, in the pseudocode's order.
 * The compile-time-constant lists (start, size, multiples, padding, perms)
 * are as long as the input's rank, so they are CONST operands: this file
 * reads them and writes the kernels' attributes (one word per dimension).
 */
#include <stdio.h>

#include "dg_op.h"

/* A compile-time-constant shape_t operand: a rank-1 tensor of i32 with `n` entries (`what`
 * names the ERROR_IF: length(start) != rank(shape1), say), into v[0 .. n). */
static VkResult
rank_list(struct dg_op_ctx *c, uint32_t operand, const char *name, uint32_t n, const char *what,
          int32_t v[2 * DG_MAX_RANK])
{
   const struct dg_tensor_type *ty = &dg_op_opnd(c, operand)->ty;
   uint8_t data[2 * DG_MAX_RANK * sizeof(int32_t)];
   char s[96];
   if (ty->type != DG_TYPE_I32 || ty->shape.rank != 1)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "%s must be a rank-1 tensor of i32 (shape_t), not %s %s", name,
                        dg_type_name(ty->type), dg_shape_str(&ty->shape, s, sizeof(s)));
   if (ty->shape.dim[0] != (int64_t)n)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "ERROR_IF(%s): %s has %" PRId64 " entries, not %u",
                        what, name, ty->shape.dim[0], n);
   VkResult result = dg_op_const_data(c, operand, ty, data);
   if (result != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < n; i++)
      v[i] = (int32_t)dg_elem_int(DG_TYPE_I32, data, i);
   return VK_SUCCESS;
}

/* ERROR_IF(rank(shape1) != rank(shape)). */
static VkResult
same_rank(struct dg_op_ctx *c, const struct dg_tensor_type *in)
{
   if (in->shape.rank != c->out.shape.rank)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "ERROR_IF(rank(shape1) != rank(shape)): %u != %u",
                        in->shape.rank, c->out.shape.rank);
   return VK_SUCCESS;
}

/* ---- SLICE ------------------------------------------------------------------------------ */

VkResult
dg_op_slice_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_SLICE_input1)->ty;
   uint32_t rank = in->shape.rank;
   int32_t start[2 * DG_MAX_RANK], size[2 * DG_MAX_RANK];
   VkResult result;
   /* SLICE.tosac: ERROR_IF(rank(shape1) != length(start) || rank(shape1) != length(size)) */
   if ((result = rank_list(c, DG_OPND_SLICE_start, "start", rank, "rank(shape1) != length(start)",
                           start)) != VK_SUCCESS ||
       (result = rank_list(c, DG_OPND_SLICE_size, "size", rank, "rank(shape1) != length(size)",
                           size)) != VK_SUCCESS ||
       (result = same_rank(c, in)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < rank; i++) {
      if (start[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(start[%u] < 0): start[%u] is %d", i, i,
                           start[i]);
      if (size[i] <= 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(size[%u] <= 0): size[%u] is %d", i, i,
                           size[i]);
      if ((int64_t)start[i] + size[i] > in->shape.dim[i])
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(start[%u] + size[%u] > shape1[%u]): %d + %d > %" PRId64, i, i,
                           i, start[i], size[i], in->shape.dim[i]);
      if (c->out.shape.dim[i] != size[i])
         return dg_op_fail(c, DG_ERR_OP_SHAPE, "ERROR_IF(shape[%u] != size[%u]): %" PRId64 " != %d",
                           i, i, c->out.shape.dim[i], size[i]);
   }
   struct dg_attrs_slice *a = &c->node->attrs.slice;
   uint32_t *s[DG_MAX_RANK] = {&a->start0, &a->start1, &a->start2,
                               &a->start3, &a->start4, &a->start5};
   for (uint32_t i = 0; i < DG_MAX_RANK; i++)
      *s[i] = i < rank ? (uint32_t)start[i] : 0u;
   return VK_SUCCESS;
}

/* The output shape is `size`. */
VkResult
dg_op_slice_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_SLICE_input1)->ty;
   int32_t size[2 * DG_MAX_RANK];
   VkResult result = rank_list(c, DG_OPND_SLICE_size, "size", in->shape.rank,
                               "rank(shape1) != length(size)", size);
   if (result != VK_SUCCESS)
      return result;
   *out = (struct dg_shape){.rank = in->shape.rank};
   for (uint32_t i = 0; i < out->rank; i++)
      out->dim[i] = size[i];
   return VK_SUCCESS;
}

/* ---- REVERSE ---------------------------------------------------------------------------- */

/* The output shape is the input's (SAME); REVERSE.tosac: ERROR_IF(axis < 0 || axis >=
 * rank(shape)) (axis is an unsigned scalar: a negative value is above any rank). */
VkResult
dg_op_reverse_validate(struct dg_op_ctx *c)
{
   uint32_t axis = c->node->attrs.reverse.axis;
   if (axis >= c->out.shape.rank)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(axis < 0 || axis >= rank(shape)): axis %d, rank %u",
                        (int32_t)axis, c->out.shape.rank);
   return VK_SUCCESS;
}

/* ---- TILE ------------------------------------------------------------------------------- */

VkResult
dg_op_tile_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_TILE_input1)->ty;
   int32_t multiples[2 * DG_MAX_RANK];
   /* multiples: shape_t[rank(shape1)] (the operator's argument table). */
   VkResult result = rank_list(c, DG_OPND_TILE_multiples, "multiples", in->shape.rank,
                               "rank(shape1) != length(multiples)", multiples);
   if (result != VK_SUCCESS)
      return result;
   /* TILE.tosac: ERROR_IF(rank(shape1) != rank(shape)) */
   if ((result = same_rank(c, in)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < in->shape.rank; i++) {
      /* ERROR_IF(shape1[i] * multiples[i] != shape[i]) */
      if (in->shape.dim[i] * multiples[i] != c->out.shape.dim[i])
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "ERROR_IF(shape1[%u] * multiples[%u] != shape[%u]): %" PRId64
                           " * %d != %" PRId64,
                           i, i, i, in->shape.dim[i], multiples[i], c->out.shape.dim[i]);
   }
   return VK_SUCCESS;
}

/* shape[i] = shape1[i] * multiples[i]. */
VkResult
dg_op_tile_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_TILE_input1)->ty;
   int32_t multiples[2 * DG_MAX_RANK];
   VkResult result = rank_list(c, DG_OPND_TILE_multiples, "multiples", in->shape.rank,
                               "rank(shape1) != length(multiples)", multiples);
   if (result != VK_SUCCESS)
      return result;
   *out = (struct dg_shape){.rank = in->shape.rank};
   for (uint32_t i = 0; i < out->rank; i++)
      out->dim[i] = in->shape.dim[i] * multiples[i];
   return VK_SUCCESS;
}

/* ---- PAD -------------------------------------------------------------------------------- */

VkResult
dg_op_pad_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_PAD_input1)->ty;
   uint32_t rank = in->shape.rank;
   int32_t padding[2 * DG_MAX_RANK];
   /* padding: shape_t[2 * rank(shape1)] (the operator's argument table). */
   VkResult result = rank_list(c, DG_OPND_PAD_padding, "padding", 2 * rank,
                               "length(padding) != 2 * rank(shape1)", padding);
   if (result != VK_SUCCESS)
      return result;
   /* PAD.tosac: ERROR_IF(rank(shape) != rank(shape1)) */
   if ((result = same_rank(c, in)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < rank; i++) {
      int32_t before = padding[2 * i], after = padding[2 * i + 1];
      if (before < 0 || after < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(padding[%u] < 0 || padding[%u] < 0): %d, %d", 2 * i, 2 * i + 1,
                           before, after);
      if (c->out.shape.dim[i] != before + in->shape.dim[i] + after)
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "ERROR_IF(shape[%u] != padding[%u] + shape1[%u] + padding[%u]): %" PRId64
                           " != %d + %" PRId64 " + %d",
                           i, 2 * i, i, 2 * i + 1, c->out.shape.dim[i], before, in->shape.dim[i],
                           after);
   }
   struct dg_attrs_pad *a = &c->node->attrs.pad;
   uint32_t *b[DG_MAX_RANK] = {&a->before0, &a->before1, &a->before2,
                               &a->before3, &a->before4, &a->before5};
   for (uint32_t i = 0; i < DG_MAX_RANK; i++)
      *b[i] = i < rank ? (uint32_t)padding[2 * i] : 0u;
   /* The pad value's bit pattern, zero-extended (bf16 and fp8 patterns as they are). */
   a->pad_bits = (uint32_t)dg_op_opnd(c, DG_OPND_PAD_pad_const)->bits;
   return VK_SUCCESS;
}

/* shape[i] = padding[2i] + shape1[i] + padding[2i + 1]. */
VkResult
dg_op_pad_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_PAD_input1)->ty;
   int32_t padding[2 * DG_MAX_RANK];
   VkResult result = rank_list(c, DG_OPND_PAD_padding, "padding", 2 * in->shape.rank,
                               "length(padding) != 2 * rank(shape1)", padding);
   if (result != VK_SUCCESS)
      return result;
   *out = (struct dg_shape){.rank = in->shape.rank};
   for (uint32_t i = 0; i < out->rank; i++)
      out->dim[i] = padding[2 * i] + in->shape.dim[i] + padding[2 * i + 1];
   return VK_SUCCESS;
}

/* ---- TRANSPOSE -------------------------------------------------------------------------- */

/* perms: rank(shape1) entries, each in [0, rank) and none repeated (TRANSPOSE.tosac). */
static VkResult
transpose_perms(struct dg_op_ctx *c, int32_t perms[2 * DG_MAX_RANK])
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_TRANSPOSE_input1)->ty;
   uint32_t rank = in->shape.rank;
   VkResult result =
       rank_list(c, DG_OPND_TRANSPOSE_perms, "perms", rank, "rank(shape1) != length(perms)", perms);
   if (result != VK_SUCCESS)
      return result;
   bool used[DG_MAX_RANK] = {false};
   for (uint32_t i = 0; i < rank; i++) {
      if (perms[i] >= (int32_t)rank)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(index >= rank(shape1)): perms[%u] is %d, rank %u", i, perms[i],
                           rank);
      if (perms[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(index < 0): perms[%u] is %d", i,
                           perms[i]);
      if (used[perms[i]])
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(indexes_used[index] == true): perms[%u] = %d repeats", i,
                           perms[i]);
      used[perms[i]] = true;
   }
   return VK_SUCCESS;
}

VkResult
dg_op_transpose_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_TRANSPOSE_input1)->ty;
   uint32_t rank = in->shape.rank;
   int32_t perms[2 * DG_MAX_RANK];
   char a[96], b[96];
   /* TRANSPOSE.tosac: ERROR_IF(rank(shape1) != rank(shape)),
    * ERROR_IF(tensor_size(shape1) != tensor_size(shape)), then the perms checks. */
   VkResult result = same_rank(c, in);
   if (result != VK_SUCCESS)
      return result;
   if (dg_shape_elements(&in->shape) != dg_shape_elements(&c->out.shape))
      return dg_op_fail(
          c, DG_ERR_OP_SHAPE, "ERROR_IF(tensor_size(shape1) != tensor_size(shape)): %s and %s",
          dg_shape_str(&in->shape, a, sizeof(a)), dg_shape_str(&c->out.shape, b, sizeof(b)));
   if ((result = transpose_perms(c, perms)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < rank; i++) {
      if (in->shape.dim[perms[i]] != c->out.shape.dim[i])
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "ERROR_IF(shape1[perms[%u]] != shape[%u]): shape1[%d] is %" PRId64
                           ", shape[%u] %" PRId64,
                           i, i, perms[i], in->shape.dim[perms[i]], i, c->out.shape.dim[i]);
   }
   struct dg_attrs_transpose *t = &c->node->attrs.transpose;
   uint32_t *p[DG_MAX_RANK] = {&t->perm0, &t->perm1, &t->perm2, &t->perm3, &t->perm4, &t->perm5};
   for (uint32_t i = 0; i < DG_MAX_RANK; i++)
      *p[i] = i < rank ? (uint32_t)perms[i] : i;
   /* The shared-memory tile (transpose.comp) when the innermost axis moves and the tile is at
    * least a quarter used: output dims[r-1] >= 16 along its 32, dims[q] >= 8 along its 16. */
   t->tile_axis = 0;
   for (uint32_t q = 0; q + 1 < rank; q++) {
      if ((uint32_t)perms[q] == rank - 1 && c->out.shape.dim[rank - 1] >= 16 &&
          c->out.shape.dim[q] >= 8)
         t->tile_axis = q + 1;
   }
   return VK_SUCCESS;
}

/* shape[i] = shape1[perms[i]]. */
VkResult
dg_op_transpose_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_TRANSPOSE_input1)->ty;
   int32_t perms[2 * DG_MAX_RANK];
   VkResult result = transpose_perms(c, perms);
   if (result != VK_SUCCESS)
      return result;
   *out = (struct dg_shape){.rank = in->shape.rank};
   for (uint32_t i = 0; i < out->rank; i++)
      out->dim[i] = in->shape.dim[perms[i]];
   return VK_SUCCESS;
}
