/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA CLAMP (TOSA 1.0.1 "Activation Functions"). TOSA.001000.1 operands:
 * min_val and max_val, scalar constants of the element type (not tensors),
 * nan_mode, then the input. There is no i32 CLAMP in TOSA 1.0.
 */
#include <math.h>

#include "dg_op.h"

static const char *const clamp_cols[] = {"input", "output", "min_val", "max_val"};

static const struct dg_type_row clamp_rows[] = {
    {DG_PRO_INT, {DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I8}},
    {DG_EXT(INT16), {DG_TYPE_I16, DG_TYPE_I16, DG_TYPE_I16, DG_TYPE_I16}},
    {DG_PRO_FP, {DG_TYPE_FP16, DG_TYPE_FP16, DG_TYPE_FP16, DG_TYPE_FP16}},
    {DG_EXT(BF16), {DG_TYPE_BF16, DG_TYPE_BF16, DG_TYPE_BF16, DG_TYPE_BF16}},
    {DG_PRO_FP, {DG_TYPE_FP32, DG_TYPE_FP32, DG_TYPE_FP32, DG_TYPE_FP32}},
};

VkResult
dg_op_clamp_decode(struct dg_op_ctx *c)
{
   struct dg_attr_clamp *a = &c->node->attrs.clamp;
   struct dg_tensor_type in, out;
   struct dg_scalar min, max;
   VkResult result;
   if ((result = dg_op_attr_scalar(c, 0, "min_val", &min)) != VK_SUCCESS ||
       (result = dg_op_attr_scalar(c, 1, "max_val", &max)) != VK_SUCCESS ||
       (result = dg_op_nan_mode(c, 2, &a->nan_mode)) != VK_SUCCESS ||
       (result = dg_op_input(c, 3, "input", &in)) != VK_SUCCESS ||
       (result = dg_op_output(c, &out)) != VK_SUCCESS)
      return result;
   const uint8_t actual[] = {in.type, out.type, dg_scalar_elem_type(&min),
                             dg_scalar_elem_type(&max)};
   if ((result = dg_op_match_row(c, clamp_rows, sizeof(clamp_rows) / sizeof(clamp_rows[0]), 4,
                                 clamp_cols, actual)) != VK_SUCCESS ||
       (result = dg_op_same_shape(c, "output", &out.shape, "input", &in.shape)) != VK_SUCCESS)
      return result;

   a->min_bits = min.bits;
   a->max_bits = max.bits;
   if (dg_type_is_float(in.type)) {
      a->min_fp = dg_float_from_bits(in.type, min.bits);
      a->max_fp = dg_float_from_bits(in.type, max.bits);
      /* CLAMP.tosac: ERROR_IF(max_val < min_val); ERROR_IF(isNaN(min_val) || isNaN(max_val)) */
      if (a->max_fp < a->min_fp)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(max_val < min_val): %g < %g",
                           a->max_fp, a->min_fp);
      if (isnan(a->min_fp) || isnan(a->max_fp))
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(isNaN(min_val) || isNaN(max_val)): min_val %g, max_val %g",
                           a->min_fp, a->max_fp);
   } else {
      a->min_int = dg_sign_extend(min.bits, min.width);
      a->max_int = dg_sign_extend(max.bits, max.width);
      if (a->max_int < a->min_int)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(max_val < min_val): %" PRId64 " < %" PRId64, a->max_int,
                           a->min_int);
   }
   return VK_SUCCESS;
}
