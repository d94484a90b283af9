/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation and output shapes of TOSA 1.0.1 GATHER and SCATTER ("Scatter/Gather
 * Operators", issue 11), declared in tosa_ops.def. Their .tosac has no ERROR_IF; the
 * argument table's shapes bind them: GATHER values [N,K,C], indices [N,W] -> output
 * [N,W,C]; SCATTER values_in [N,K,C], indices [N,W], input [N,W,C] -> values_out [N,K,C]
 * (the decoder checks the ranks and, for SCATTER, that values_out has values_in's shape).
 * Index range and SCATTER's duplicates are data-dependent REQUIREs: tosa_ops.def says
 * what the kernels do with them (decision D36).
 */
#include "dg_op.h"

/* ---- GATHER ----------------------------------------------------------------------------- */

VkResult
dg_op_gather_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *v = &dg_op_opnd(c, DG_OPND_GATHER_values)->ty;
   const struct dg_tensor_type *i = &dg_op_opnd(c, DG_OPND_GATHER_indices)->ty;
   const int64_t *x = v->shape.dim, *y = i->shape.dim, *o = c->out.shape.dim;
   char s1[96], s2[96], s3[96];
   if (x[0] != y[0] || o[0] != x[0] || o[1] != y[1] || o[2] != x[2])
      return dg_op_fail(
          c, DG_ERR_OP_SHAPE, "values [N,K,C] %s, indices [N,W] %s and output [N,W,C] %s disagree",
          dg_shape_str(&v->shape, s1, sizeof(s1)), dg_shape_str(&i->shape, s2, sizeof(s2)),
          dg_shape_str(&c->out.shape, s3, sizeof(s3)));
   return VK_SUCCESS;
}

/* [N, W, C] from values [N,K,C] and indices [N,W]. */
VkResult
dg_op_gather_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const int64_t *v = dg_op_opnd(c, DG_OPND_GATHER_values)->ty.shape.dim;
   const int64_t *i = dg_op_opnd(c, DG_OPND_GATHER_indices)->ty.shape.dim;
   *out = (struct dg_shape){.rank = 3, .dim = {v[0], i[1], v[2]}};
   return VK_SUCCESS;
}

/* ---- SCATTER ---------------------------------------------------------------------------- */

/* The output shape is values_in's (SAME); indices [N,W] and input [N,W,C] must agree with it,
 * and input's element type is values_in's (in_out_t). */
VkResult
dg_op_scatter_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *v = &dg_op_opnd(c, DG_OPND_SCATTER_values_in)->ty;
   const struct dg_tensor_type *i = &dg_op_opnd(c, DG_OPND_SCATTER_indices)->ty;
   const struct dg_tensor_type *u = &dg_op_opnd(c, DG_OPND_SCATTER_input)->ty;
   const int64_t *x = v->shape.dim, *y = i->shape.dim, *z = u->shape.dim;
   char s1[96], s2[96], s3[96];
   if (u->type != v->type)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "input is %s, values_in %s: both are in_out_t",
                        dg_type_name(u->type), dg_type_name(v->type));
   if (y[0] != x[0] || z[0] != x[0] || z[1] != y[1] || z[2] != x[2])
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "values_in [N,K,C] %s, indices [N,W] %s and input [N,W,C] %s disagree",
                        dg_shape_str(&v->shape, s1, sizeof(s1)),
                        dg_shape_str(&i->shape, s2, sizeof(s2)),
                        dg_shape_str(&u->shape, s3, sizeof(s3)));
   return VK_SUCCESS;
}
