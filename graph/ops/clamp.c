/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation of TOSA CLAMP (TOSA 1.0.1 "Activation Functions"). Operands,
 * rows (min_val and max_val are scalar constants of the element type) and the
 * output shape are declared in tosa_ops.def; the ERROR_IFs on the bounds'
 * values are checked here.
 */
#include <math.h>

#include "dg_op.h"

VkResult
dg_op_clamp_validate(struct dg_op_ctx *c)
{
   const struct dg_scalar *min = &dg_op_opnd(c, DG_OPND_CLAMP_min_val)->scalar;
   const struct dg_scalar *max = &dg_op_opnd(c, DG_OPND_CLAMP_max_val)->scalar;
   enum dg_type t = c->out.type;
   if (dg_type_is_float(t)) {
      double lo = dg_float_from_bits(t, min->bits), hi = dg_float_from_bits(t, max->bits);
      /* CLAMP.tosac: ERROR_IF(max_val < min_val); ERROR_IF(isNaN(min_val) || isNaN(max_val)) */
      if (hi < lo)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(max_val < min_val): %g < %g", hi,
                           lo);
      if (isnan(lo) || isnan(hi))
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(isNaN(min_val) || isNaN(max_val)): min_val %g, max_val %g",
                           lo, hi);
      return VK_SUCCESS;
   }
   int64_t lo = dg_sign_extend(min->bits, min->width), hi = dg_sign_extend(max->bits, max->width);
   if (hi < lo)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(max_val < min_val): %" PRId64 " < %" PRId64, hi, lo);
   return VK_SUCCESS;
}
