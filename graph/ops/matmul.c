/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA MATMUL (TOSA 1.0.1 "Tensor Operators"): A [N,H,C] x B [N,C,W] ->
 * [N,H,W], then A_zp [1] and B_zp [1]. The accumulator is the output type.
 */
#include "dg_op.h"

VkResult
dg_op_matmul_validate(struct dg_op_ctx *c)
{
   struct dg_attrs_matmul *attr = &c->node->attrs.matmul;
   const struct dg_operand_value *a_zp = dg_op_opnd(c, DG_OPND_MATMUL_A_zp);
   const struct dg_operand_value *b_zp = dg_op_opnd(c, DG_OPND_MATMUL_B_zp);
   int64_t a_value, b_value;
   VkResult result;
   /* MATMUL.tosac v1.0.1 reads ERROR_IF(is_same<in_t,i8_t> && (A_zp != 0 || B_zp != 0)),
    * which inverts the intent (errata, spec-facts §4.4; fixed on main): zero points are
    * allowed for i8 only. */
   if ((result = dg_op_zero_point_i8_only(c, "A_zp", a_zp->ty.type, a_zp->bits, &a_value)) !=
           VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "B_zp", b_zp->ty.type, b_zp->bits, &b_value)) !=
           VK_SUCCESS)
      return result;
   attr->a_zp = (int32_t)a_value;
   attr->b_zp = (int32_t)b_value;
   const struct dg_tensor_type *a = &dg_op_opnd(c, DG_OPND_MATMUL_A)->ty;
   const struct dg_tensor_type *b = &dg_op_opnd(c, DG_OPND_MATMUL_B)->ty;
   const int64_t *x = a->shape.dim, *y = b->shape.dim, *o = c->out.shape.dim;
   char s1[96], s2[96], s3[96];
   if (x[0] != y[0] || x[2] != y[1] || o[0] != x[0] || o[1] != x[1] || o[2] != y[2])
      return dg_op_fail(
          c, DG_ERR_OP_SHAPE, "A [N,H,C] %s, B [N,C,W] %s and output [N,H,W] %s disagree",
          dg_shape_str(&a->shape, s1, sizeof(s1)), dg_shape_str(&b->shape, s2, sizeof(s2)),
          dg_shape_str(&c->out.shape, s3, sizeof(s3)));
   return VK_SUCCESS;
}

/* [N, H, W] from A [N,H,C] and B [N,C,W]. */
VkResult
dg_op_matmul_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const int64_t *a = dg_op_opnd(c, DG_OPND_MATMUL_A)->ty.shape.dim;
   const int64_t *b = dg_op_opnd(c, DG_OPND_MATMUL_B)->ty.shape.dim;
   *out = (struct dg_shape){.rank = 3, .dim = {a[0], a[1], b[2]}};
   return VK_SUCCESS;
}
