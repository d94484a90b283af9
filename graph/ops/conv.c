/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA CONV2D (TOSA 1.0.1 "Tensor Operators"). TOSA.001000.1 operands: pad
 * [4], stride [2], dilation [2], acc_type, local_bound, then input
 * [N,IH,IW,IC], weight [OC,KH,KW,IC] (OHWI), bias [BC], input_zp [1] and
 * weight_zp [1]. Every ERROR_IF of CONV2D.tosac, the level-8K limits on pad,
 * stride and dilation * kernel, the dimension agreement the operand shapes
 * name, and the type-support row including acc_type are decided here.
 * There is no requantization in CONV2D: integer graphs follow it with RESCALE.
 */
#include "dg_op.h"

static const char *const conv_cols[] = {"input",     "weight", "bias",    "input_zp",
                                        "weight_zp", "output", "acc_type"};

#define ACC(a) DG_ROW_ACC(TOSA_ACC_TYPE_##a)
#define E4 DG_TYPE_FP8E4M3
#define E5 DG_TYPE_FP8E5M2
#define F16 DG_TYPE_FP16
#define BF DG_TYPE_BF16
#define F32 DG_TYPE_FP32
static const struct dg_type_row conv_rows[] = {
    {DG_PRO_INT,
     {DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I32, DG_TYPE_I8, DG_TYPE_I8, DG_TYPE_I32, ACC(INT32)}},
    {DG_EXT(INT16),
     {DG_TYPE_I16, DG_TYPE_I8, DG_TYPE_I48, DG_TYPE_I16, DG_TYPE_I8, DG_TYPE_I48, ACC(INT48)}},
    {DG_EXT(FP8E4M3), {E4, E4, F16, E4, E4, F16, ACC(FP16)}},
    {DG_EXT(FP8E5M2), {E5, E5, F16, E5, E5, F16, ACC(FP16)}},
    {DG_PRO_FP, {F16, F16, F16, F16, F16, F16, ACC(FP16)}},
    {DG_PRO_FP, {F16, F16, F16, F16, F16, F16, ACC(FP32)}},
    {DG_EXT(BF16), {BF, BF, BF, BF, BF, BF, ACC(FP32)}},
    {DG_PRO_FP, {F32, F32, F32, F32, F32, F32, ACC(FP32)}},
};
#undef ACC
#undef E4
#undef E5
#undef F16
#undef BF
#undef F32

/* pad >= 0, stride >= 1, dilation >= 1 and their level-8K limits. */
static VkResult
check_attributes(struct dg_op_ctx *c, const struct dg_attr_conv2d *a, int64_t kh, int64_t kw)
{
   static const char *const pad_names[4] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
   VkResult result;
   for (uint32_t i = 0; i < 4; i++) {
      if (a->pad[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(pad_top < 0 || pad_bottom < 0 || pad_left < 0 || pad_right "
                           "< 0): %s is %d",
                           pad_names[i], a->pad[i]);
      if ((result = dg_op_level(c, pad_names[i], a->pad[i], DG_MAX_KERNEL, "MAX_KERNEL")) !=
          VK_SUCCESS)
         return result;
   }
   if (a->stride[0] < 1 || a->stride[1] < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(stride_y < 1 || stride_x < 1): stride [%d,%d]", a->stride[0],
                        a->stride[1]);
   if (a->dilation[0] < 1 || a->dilation[1] < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(dilation_y < 1 || dilation_x < 1): dilation [%d,%d]",
                        a->dilation[0], a->dilation[1]);
   if ((result = dg_op_level(c, "stride_y", a->stride[0], DG_MAX_STRIDE, "MAX_STRIDE")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "stride_x", a->stride[1], DG_MAX_STRIDE, "MAX_STRIDE")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "dilation_y * KH", a->dilation[0] * kh, DG_MAX_KERNEL,
                             "MAX_KERNEL")) != VK_SUCCESS)
      return result;
   return dg_op_level(c, "dilation_x * KW", a->dilation[1] * kw, DG_MAX_KERNEL, "MAX_KERNEL");
}

/* The dimensions the operand shapes share: N, IC, OC. */
static VkResult
check_dims(struct dg_op_ctx *c, const int64_t *in, const int64_t *w, const int64_t *out)
{
   if (in[0] != out[0])
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "input N %" PRId64 " != output N %" PRId64, in[0],
                        out[0]);
   if (in[3] != w[3])
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "input IC %" PRId64 " != weight IC %" PRId64 " (weight is [OC,KH,KW,IC])",
                        in[3], w[3]);
   if (w[0] != out[3])
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "weight OC %" PRId64 " != output OC %" PRId64, w[0],
                        out[3]);
   return VK_SUCCESS;
}

VkResult
dg_op_conv2d_decode(struct dg_op_ctx *c)
{
   struct dg_attr_conv2d *a = &c->node->attrs.conv2d;
   struct dg_tensor_type in, w, bias, out;
   enum dg_type in_zp_type, w_zp_type;
   uint64_t in_zp, w_zp;
   VkResult result;
   if ((result = dg_op_attr_list(c, 0, "pad", 4, a->pad)) != VK_SUCCESS ||
       (result = dg_op_attr_list(c, 1, "stride", 2, a->stride)) != VK_SUCCESS ||
       (result = dg_op_attr_list(c, 2, "dilation", 2, a->dilation)) != VK_SUCCESS ||
       (result = dg_op_attr_u32(c, 3, "acc_type", &a->acc_type)) != VK_SUCCESS ||
       (result = dg_op_attr_bool(c, 4, "local_bound", &a->local_bound)) != VK_SUCCESS ||
       (result = dg_op_input(c, 5, "input", &in)) != VK_SUCCESS ||
       (result = dg_op_input(c, 6, "weight", &w)) != VK_SUCCESS ||
       (result = dg_op_input(c, 7, "bias", &bias)) != VK_SUCCESS ||
       (result = dg_op_zero_point(c, 8, "input_zp", &in_zp_type, &in_zp)) != VK_SUCCESS ||
       (result = dg_op_zero_point(c, 9, "weight_zp", &w_zp_type, &w_zp)) != VK_SUCCESS ||
       (result = dg_op_output(c, &out)) != VK_SUCCESS)
      return result;
   if (a->acc_type < TOSA_ACC_TYPE_INT32 || a->acc_type > TOSA_ACC_TYPE_INT48)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "acc_type %u is not INT32 (1), FP16 (2), FP32 (3) or INT48 (4)",
                        a->acc_type);
   if ((result = dg_op_rank(c, "input", &in, 4)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "weight", &w, 4)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "bias", &bias, 1)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "output", &out, 4)) != VK_SUCCESS)
      return result;
   /* "acc_type ... must be ... matching the type of acc_t in the Supported Data Types
    * table": it is the row's last column. */
   const uint8_t actual[] = {
       in.type, w.type, bias.type, in_zp_type, w_zp_type, out.type, DG_ROW_ACC(a->acc_type)};
   if ((result = dg_op_match_row(c, conv_rows, sizeof(conv_rows) / sizeof(conv_rows[0]), 7,
                                 conv_cols, actual)) != VK_SUCCESS)
      return result;
   /* CONV2D.tosac: ERROR_IF(!is_same<in_t,i8_t>() && input_zp != 0), same for weight_t. */
   if ((result = dg_op_zero_point_i8_only(c, "input_zp", in_zp_type, in_zp, &a->input_zp)) !=
           VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "weight_zp", w_zp_type, w_zp, &a->weight_zp)) !=
           VK_SUCCESS)
      return result;

   const int64_t *i = in.shape.dim, *k = w.shape.dim, *o = out.shape.dim;
   if ((result = check_attributes(c, a, k[1], k[2])) != VK_SUCCESS ||
       (result = check_dims(c, i, k, o)) != VK_SUCCESS)
      return result;
   /* ERROR_IF(OH != idiv_check(IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y,
    * stride_y) + 1), and likewise for OW. */
   if ((result = dg_op_out_size(c, "OH", "IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y",
                                i[1] - 1 + a->pad[0] + a->pad[1] - (k[1] - 1) * a->dilation[0],
                                a->stride[0], o[1])) != VK_SUCCESS ||
       (result = dg_op_out_size(c, "OW", "IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x",
                                i[2] - 1 + a->pad[2] + a->pad[3] - (k[2] - 1) * a->dilation[1],
                                a->stride[1], o[2])) != VK_SUCCESS)
      return result;
   /* ERROR_IF(BC != OC && BC != 1) */
   if (bias.shape.dim[0] != o[3] && bias.shape.dim[0] != 1)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(BC != OC && BC != 1): BC %" PRId64 ", OC %" PRId64,
                        bias.shape.dim[0], o[3]);
   return VK_SUCCESS;
}
