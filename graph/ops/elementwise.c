/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation of the broadcasting binary operators ADD, SUB and MUL (TOSA
 * 1.0.1 "Elementwise Binary Operators"). Their operands, type-support rows
 * and the broadcast rule ERROR_IF(shape != broadcast_shape(shape1, shape2))
 * are declared in tosa_ops.def; what is left is MUL's compile-time-constant
 * `shift` (TOSA.001000.1 operand 2: tensor<i8> of shape [1]).
 */
#include "dg_op.h"

VkResult
dg_op_mul_validate(struct dg_op_ctx *c)
{
   const struct dg_operand_value *sh = dg_op_opnd(c, DG_OPND_MUL_shift);
   if (sh->ty.type != DG_TYPE_I8)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "shift must be a tensor of i8, not of %s",
                        dg_type_name(sh->ty.type));
   int32_t shift = c->node->attrs.mul.shift;
   /* MUL.tosac: REQUIRE(0 <= shift && shift <= 63); REQUIRE(is_same<in_t,int32_t>() ||
    * shift == 0). Constants, so checked here rather than left unpredictable. */
   if (shift < 0 || shift > 63)
      return dg_op_fail(c, DG_ERR_OP_REQUIRE, "MUL: REQUIRE(0 <= shift && shift <= 63): shift is %d",
                        shift);
   enum dg_type in = dg_op_opnd(c, DG_OPND_MUL_input1)->ty.type;
   if (in != DG_TYPE_I32 && shift != 0)
      return dg_op_fail(c, DG_ERR_OP_REQUIRE,
                        "MUL: REQUIRE(is_same<in_t,i32_t>() || shift == 0): shift is %d with %s "
                        "inputs",
                        shift, dg_type_name(in));
   return VK_SUCCESS;
}
