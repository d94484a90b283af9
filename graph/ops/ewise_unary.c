/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation of TOSA NEGATE (TOSA 1.0.1 "Elementwise Unary Operators"). Its operands, rows
 * (input1_zp and output_zp are tensor<T>[1] constants of the input's type: columns of the
 * rows) and the output shape are declared in tosa_ops.def; what is left is NEGATE.tosac's
 * ERROR_IFs on the zero points' values. ABS, BITWISE_NOT, LOGICAL_NOT and CLZ need nothing
 * beyond their declarations.
 */
#include "dg_op.h"

VkResult
dg_op_negate_validate(struct dg_op_ctx *c)
{
   const struct dg_operand_value *in_zp = dg_op_opnd(c, DG_OPND_NEGATE_input1_zp);
   const struct dg_operand_value *out_zp = dg_op_opnd(c, DG_OPND_NEGATE_output_zp);
   int64_t in_value, out_value;
   VkResult result;
   /* ERROR_IF(!is_same<in_out_t,i8_t>() && input1_zp != 0), then the same for output_zp. */
   if ((result = dg_op_zero_point_i8_only(c, "input1_zp", in_zp->ty.type, in_zp->bits,
                                          &in_value)) != VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "output_zp", out_zp->ty.type, out_zp->bits,
                                          &out_value)) != VK_SUCCESS)
      return result;
   c->node->attrs.negate.input1_zp = (int32_t)in_value;
   c->node->attrs.negate.output_zp = (int32_t)out_value;
   return VK_SUCCESS;
}
