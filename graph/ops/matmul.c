/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA MATMUL (TOSA 1.0.1 "Tensor Operators"): A [N,H,C] x B [N,C,W] ->
 * [N,H,W], then A_zp [1] and B_zp [1]. The accumulator is the output type.
 */
#include "dg_op.h"

static const char *const matmul_cols[] = {"A", "B", "A_zp", "B_zp", "output"};

#define E4 DG_TYPE_FP8E4M3
#define E5 DG_TYPE_FP8E5M2
#define F16 DG_TYPE_FP16
#define BF DG_TYPE_BF16
#define F32 DG_TYPE_FP32
static const struct dg_type_row matmul_rows[] = {
    {DG_PRO_INT, {DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I32}},
    {DG_EXT(INT16), {DG_TYPE_I16, DG_TYPE_I16, DG_TYPE_I16, DG_TYPE_I16, DG_TYPE_I48}},
    {DG_EXT(FP8E4M3), {E4, E4, E4, E4, F16}},
    {DG_EXT(FP8E5M2), {E5, E5, E5, E5, F16}},
    {DG_PRO_FP, {F16, F16, F16, F16, F16}},
    {DG_PRO_FP, {F16, F16, F16, F16, F32}},
    {DG_EXT(BF16), {BF, BF, BF, BF, F32}},
    {DG_PRO_FP, {F32, F32, F32, F32, F32}},
};
#undef E4
#undef E5
#undef F16
#undef BF
#undef F32

VkResult
dg_op_matmul_decode(struct dg_op_ctx *c)
{
   struct dg_attr_matmul *attr = &c->node->attrs.matmul;
   struct dg_tensor_type a, b, out;
   enum dg_type a_zp_type, b_zp_type;
   uint64_t a_zp, b_zp;
   VkResult result;
   if ((result = dg_op_input(c, 0, "A", &a)) != VK_SUCCESS ||
       (result = dg_op_input(c, 1, "B", &b)) != VK_SUCCESS ||
       (result = dg_op_zero_point(c, 2, "A_zp", &a_zp_type, &a_zp)) != VK_SUCCESS ||
       (result = dg_op_zero_point(c, 3, "B_zp", &b_zp_type, &b_zp)) != VK_SUCCESS ||
       (result = dg_op_output(c, &out)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "A", &a, 3)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "B", &b, 3)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "output", &out, 3)) != VK_SUCCESS)
      return result;
   const uint8_t actual[] = {a.type, b.type, a_zp_type, b_zp_type, out.type};
   if ((result = dg_op_match_row(c, matmul_rows, sizeof(matmul_rows) / sizeof(matmul_rows[0]), 5,
                                 matmul_cols, actual)) != VK_SUCCESS)
      return result;
   /* MATMUL.tosac v1.0.1 reads ERROR_IF(is_same<in_t,i8_t> && (A_zp != 0 || B_zp != 0)),
    * which inverts the intent (errata, spec-facts §4.4; fixed on main): zero points are
    * allowed for i8 only. */
   if ((result = dg_op_zero_point_i8_only(c, "A_zp", a_zp_type, a_zp, &attr->a_zp)) != VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "B_zp", b_zp_type, b_zp, &attr->b_zp)) != VK_SUCCESS)
      return result;
   const int64_t *x = a.shape.dim, *y = b.shape.dim, *o = out.shape.dim;
   char s1[96], s2[96], s3[96];
   if (x[0] != y[0] || x[2] != y[1] || o[0] != x[0] || o[1] != x[1] || o[2] != y[2])
      return dg_op_fail(
          c, DG_ERR_OP_SHAPE, "A [N,H,C] %s, B [N,C,W] %s and output [N,H,W] %s disagree",
          dg_shape_str(&a.shape, s1, sizeof(s1)), dg_shape_str(&b.shape, s2, sizeof(s2)),
          dg_shape_str(&out.shape, s3, sizeof(s3)));
   return VK_SUCCESS;
}
