/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The broadcasting binary operators ADD, SUB and MUL (TOSA 1.0.1 "Elementwise
 * Binary Operators"): two tensor inputs of equal rank, the output shape
 * broadcast_shape(shape1, shape2), and for MUL the compile-time-constant
 * `shift` (TOSA.001000.1 operand 3: tensor<i8> of shape [1]). Stage building
 * for these operators lives with their kernels, not here.
 */
#include "dg_op.h"

static const char *const binary_cols[] = {"input1", "input2", "output"};

/* TOSA.001000.1 type-support rows of ADD and SUB. */
static const struct dg_type_row add_sub_rows[] = {
    {DG_PRO_INT_FP, {DG_TYPE_I32, DG_TYPE_I32, DG_TYPE_I32}},
    {DG_PRO_FP, {DG_TYPE_FP16, DG_TYPE_FP16, DG_TYPE_FP16}},
    {DG_EXT(BF16), {DG_TYPE_BF16, DG_TYPE_BF16, DG_TYPE_BF16}},
    {DG_PRO_FP, {DG_TYPE_FP32, DG_TYPE_FP32, DG_TYPE_FP32}},
};

/* MUL: i8 and i16 multiply into i32. */
static const struct dg_type_row mul_rows[] = {
    {DG_PRO_INT, {DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I32}},
    {DG_PRO_INT, {DG_TYPE_I16, DG_TYPE_I16, DG_TYPE_I32}},
    {DG_PRO_INT_FP, {DG_TYPE_I32, DG_TYPE_I32, DG_TYPE_I32}},
    {DG_PRO_FP, {DG_TYPE_FP16, DG_TYPE_FP16, DG_TYPE_FP16}},
    {DG_EXT(BF16), {DG_TYPE_BF16, DG_TYPE_BF16, DG_TYPE_BF16}},
    {DG_PRO_FP, {DG_TYPE_FP32, DG_TYPE_FP32, DG_TYPE_FP32}},
};

/* input1 (operand 0), input2 (operand 1), the result; rows; broadcast. */
static VkResult
decode_binary(struct dg_op_ctx *c, const struct dg_type_row *rows, uint32_t nrows,
              struct dg_tensor_type *in1)
{
   struct dg_tensor_type in2, out;
   VkResult result;
   if ((result = dg_op_input(c, 0, "input1", in1)) != VK_SUCCESS ||
       (result = dg_op_input(c, 1, "input2", &in2)) != VK_SUCCESS ||
       (result = dg_op_output(c, &out)) != VK_SUCCESS)
      return result;
   const uint8_t actual[] = {in1->type, in2.type, out.type};
   if ((result = dg_op_match_row(c, rows, nrows, 3, binary_cols, actual)) != VK_SUCCESS)
      return result;
   /* ADD.tosac, SUB.tosac, MUL.tosac: ERROR_IF(shape != broadcast_shape(shape1, shape2)) */
   return dg_op_broadcast(c, &in1->shape, &in2.shape, &out.shape);
}

VkResult
dg_op_add_decode(struct dg_op_ctx *c)
{
   struct dg_tensor_type in1;
   return decode_binary(c, add_sub_rows, sizeof(add_sub_rows) / sizeof(add_sub_rows[0]), &in1);
}

VkResult
dg_op_sub_decode(struct dg_op_ctx *c)
{
   struct dg_tensor_type in1;
   return decode_binary(c, add_sub_rows, sizeof(add_sub_rows) / sizeof(add_sub_rows[0]), &in1);
}

VkResult
dg_op_mul_decode(struct dg_op_ctx *c)
{
   struct dg_tensor_type in1;
   enum dg_type shift_type;
   uint64_t bits;
   VkResult result = decode_binary(c, mul_rows, sizeof(mul_rows) / sizeof(mul_rows[0]), &in1);
   if (result != VK_SUCCESS ||
       (result = dg_op_zero_point(c, 2, "shift", &shift_type, &bits)) != VK_SUCCESS)
      return result;
   if (shift_type != DG_TYPE_I8)
      return dg_op_fail(c, DG_ERR_OP_OPERAND_TYPE, "shift must be a tensor of i8, not of %s",
                        dg_type_name(shift_type));
   int32_t shift = (int32_t)dg_sign_extend(bits, 8);
   /* MUL.tosac: REQUIRE(0 <= shift && shift <= 63); REQUIRE(is_same<in_t,int32_t>() ||
    * shift == 0). Constants, so checked here rather than left unpredictable. */
   if (shift < 0 || shift > 63)
      return dg_op_fail(c, DG_ERR_OP_REQUIRE, "REQUIRE(0 <= shift && shift <= 63): shift is %d",
                        shift);
   if (in1.type != DG_TYPE_I32 && shift != 0)
      return dg_op_fail(c, DG_ERR_OP_REQUIRE,
                        "REQUIRE(is_same<in_t,i32_t>() || shift == 0): shift is %d with %s "
                        "inputs",
                        shift, dg_type_name(in1.type));
   c->node->attrs.mul.shift = shift;
   return VK_SUCCESS;
}
