/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation of TOSA SELECT (TOSA 1.0.1 "Elementwise Ternary Operators"). The rows' columns
 * are input2, input3 and the output (spec-facts §3.3), and the decoder's BROADCAST rule checks
 * ERROR_IF(shape != broadcast_shape(broadcast_shape(shape1, shape2), shape3)); what is left is
 * input1's type, tensor<bool_t> in SELECT's operand list, which no row column states.
 */
#include "dg_op.h"

VkResult
dg_op_select_validate(struct dg_op_ctx *c)
{
   enum dg_type cond = dg_op_opnd(c, DG_OPND_SELECT_input1)->ty.type;
   if (cond != DG_TYPE_BOOL)
      return dg_op_fail(c, DG_ERR_OP_TYPE_SUPPORT,
                        "input1 (the condition) must be a tensor of bool, not of %s",
                        dg_type_name(cond));
   return VK_SUCCESS;
}
