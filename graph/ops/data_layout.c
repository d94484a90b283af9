/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation of the data-layout operators of the first slice (TOSA 1.0.1
 * "Data Layout"), declared in tosa_ops.def: RESHAPE (input1, then the
 * compile-time-constant shape: tensor<i32> of shape [rank(output)]) and
 * CONCAT (axis, then one or more tensors). Whether a
 * reshape costs a kernel is stage building's decision, not decoding's.
 */
#include <stdio.h>

#include "dg_op.h"

VkResult
dg_op_reshape_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type in = dg_op_opnd(c, DG_OPND_RESHAPE_input1)->ty, out = c->out;
   const struct dg_tensor_type shape_ty = dg_op_opnd(c, DG_OPND_RESHAPE_shape)->ty;
   char a[96], b[96];
   VkResult result;
   /* shape_t: a rank-1 tensor of 32-bit integers, one per output dimension. */
   if (shape_ty.type != DG_TYPE_I32 || shape_ty.shape.rank != 1 ||
       shape_ty.shape.dim[0] != out.shape.rank)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "shape must be a tensor of i32 of shape [%u] (the output's rank), not %s "
                        "%s",
                        out.shape.rank, dg_type_name(shape_ty.type),
                        dg_shape_str(&shape_ty.shape, a, sizeof(a)));
   uint8_t data[DG_MAX_RANK * sizeof(int32_t)];
   if ((result = dg_op_const_data(c, DG_OPND_RESHAPE_shape, &shape_ty, data)) != VK_SUCCESS)
      return result;
   struct dg_shape shape = {.rank = out.shape.rank};
   for (uint32_t i = 0; i < shape.rank; i++)
      shape.dim[i] = dg_elem_int(DG_TYPE_I32, data, i);
   if (!dg_shape_equal(&shape, &out.shape))
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "the shape operand %s is not the output shape %s",
                        dg_shape_str(&shape, a, sizeof(a)), dg_shape_str(&out.shape, b, sizeof(b)));
   /* RESHAPE.tosac: ERROR_IF(tensor_size(shape1) != tensor_size(shape)) */
   if (dg_shape_elements(&in.shape) != dg_shape_elements(&out.shape))
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(tensor_size(shape1) != tensor_size(shape)): %s has %" PRIu64
                        " elements, %s has %" PRIu64,
                        dg_shape_str(&in.shape, a, sizeof(a)), dg_shape_elements(&in.shape),
                        dg_shape_str(&out.shape, b, sizeof(b)), dg_shape_elements(&out.shape));
   return VK_SUCCESS;
}

VkResult
dg_op_concat_validate(struct dg_op_ctx *c)
{
   const struct dg_graph *g = c->d->g;
   struct dg_tensor_type out = c->out, first;
   uint32_t axis = c->node->attrs.concat.axis, count = c->node->input_count;
   char name[32], a[96], b[96];
   VkResult result = dg_op_level(c, "length(input1)", count, DG_MAX_TENSOR_LIST_SIZE,
                                 "MAX_TENSOR_LIST_SIZE");
   if (result != VK_SUCCESS)
      return result;
   int64_t axis_sum = 0;
   for (uint32_t t = 0; t < count; t++) {
      const struct dg_tensor_type in = dg_node_input(g, c->node, t)->ty;
      snprintf(name, sizeof(name), "input1[%u]", t);
      if (t == 0) {
         first = in;
         /* CONCAT.tosac: ERROR_IF(axis < 0 || axis >= max(1, rank(shapes1[0]))) */
         if (axis >= first.shape.rank)
            return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                              "ERROR_IF(axis < 0 || axis >= max(1, rank(shapes1[0]))): axis %u, "
                              "rank %u",
                              axis, first.shape.rank);
      }
      if (in.type != out.type)
         return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                           "%s is %s, the output %s: CONCAT takes one element type", name,
                           dg_type_name(in.type), dg_type_name(out.type));
      if (in.shape.rank != first.shape.rank)
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "ERROR_IF(rank(shapes1[%u]) != rank(shapes1[0])): %u != %u", t,
                           in.shape.rank, first.shape.rank);
      for (uint32_t i = 0; i < in.shape.rank; i++) {
         if (i != axis && in.shape.dim[i] != first.shape.dim[i])
            return dg_op_fail(
                c, DG_ERR_OP_SHAPE, "ERROR_IF(shapes1[%u][%u] != shapes1[0][%u]): %s and %s", t, i,
                i, dg_shape_str(&in.shape, a, sizeof(a)), dg_shape_str(&first.shape, b, sizeof(b)));
      }
      axis_sum += in.shape.dim[axis];
   }
   /* ERROR_IF(axis_sum != shape[axis]); the other output dimensions are the inputs'. */
   struct dg_shape expect = first.shape;
   expect.dim[axis] = axis_sum;
   if (!dg_shape_equal(&expect, &out.shape))
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(axis_sum != shape[axis]): output %s, concatenation along axis "
                        "%u gives %s",
                        dg_shape_str(&out.shape, a, sizeof(a)), axis,
                        dg_shape_str(&expect, b, sizeof(b)));
   return VK_SUCCESS;
}

/* RESHAPE: the values of the constant `shape` operand. */
VkResult
dg_op_reshape_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *shape_ty = &dg_op_opnd(c, DG_OPND_RESHAPE_shape)->ty;
   uint8_t data[DG_MAX_RANK * sizeof(int32_t)];
   if (shape_ty->type != DG_TYPE_I32 || shape_ty->shape.rank != 1 || shape_ty->shape.dim[0] < 1 ||
       shape_ty->shape.dim[0] > DG_MAX_RANK)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE,
                        "shape must be a tensor of i32 with 1 to %u elements", DG_MAX_RANK);
   VkResult result = dg_op_const_data(c, DG_OPND_RESHAPE_shape, shape_ty, data);
   if (result != VK_SUCCESS)
      return result;
   *out = (struct dg_shape){.rank = (uint32_t)shape_ty->shape.dim[0]};
   for (uint32_t i = 0; i < out->rank; i++)
      out->dim[i] = dg_elem_int(DG_TYPE_I32, data, i);
   return VK_SUCCESS;
}

/* CONCAT: the first input's shape, the axis dimension summed over the inputs. */
VkResult
dg_op_concat_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_graph *g = c->d->g;
   uint32_t axis = c->node->attrs.concat.axis;
   *out = dg_node_input(g, c->node, 0)->ty.shape;
   if (axis >= out->rank)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "axis %u, rank %u", axis, out->rank);
   out->dim[axis] = 0;
   for (uint32_t t = 0; t < c->node->input_count; t++)
      out->dim[axis] += dg_node_input(g, c->node, t)->ty.shape.dim[axis];
   return VK_SUCCESS;
}
