/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA CONV2D (TOSA 1.0.1 "Tensor Operators"). TOSA.001000.1 operands: pad
 * [4], stride [2], dilation [2], acc_type, local_bound, then input
 * [N,IH,IW,IC], weight [OC,KH,KW,IC] (OHWI), bias [BC], input_zp [1] and
 * weight_zp [1]. Operands and type-support rows (with acc_type) are
 * declared in tosa_ops.def; every ERROR_IF of CONV2D.tosac, the level-8K
 * limits on pad, stride and dilation * kernel and the dimension agreement the
 * operand shapes name are decided here.
 * There is no requantization in CONV2D: integer graphs follow it with RESCALE.
 */
#include "dg_op.h"

/* pad >= 0, stride >= 1, dilation >= 1 and their level-8K limits. */
static VkResult
check_attributes(struct dg_op_ctx *c, const struct dg_attrs_conv2d *a, int64_t kh, int64_t kw)
{
   static const char *const pad_names[4] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
   const int32_t pad[4] = {a->pad_top, a->pad_bottom, a->pad_left, a->pad_right};
   VkResult result;
   for (uint32_t i = 0; i < 4; i++) {
      if (pad[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(pad_top < 0 || pad_bottom < 0 || pad_left < 0 || pad_right "
                           "< 0): %s is %d",
                           pad_names[i], pad[i]);
      if ((result = dg_op_level(c, pad_names[i], pad[i], DG_MAX_KERNEL, "MAX_KERNEL")) !=
          VK_SUCCESS)
         return result;
   }
   if (a->stride_y < 1 || a->stride_x < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(stride_y < 1 || stride_x < 1): stride [%d,%d]", a->stride_y,
                        a->stride_x);
   if (a->dilation_y < 1 || a->dilation_x < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(dilation_y < 1 || dilation_x < 1): dilation [%d,%d]",
                        a->dilation_y, a->dilation_x);
   if ((result = dg_op_level(c, "stride_y", a->stride_y, DG_MAX_STRIDE, "MAX_STRIDE")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "stride_x", a->stride_x, DG_MAX_STRIDE, "MAX_STRIDE")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "dilation_y * KH", a->dilation_y * kh, DG_MAX_KERNEL,
                             "MAX_KERNEL")) != VK_SUCCESS)
      return result;
   return dg_op_level(c, "dilation_x * KW", a->dilation_x * kw, DG_MAX_KERNEL, "MAX_KERNEL");
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
dg_op_conv2d_validate(struct dg_op_ctx *c)
{
   struct dg_attrs_conv2d *a = &c->node->attrs.conv2d;
   const struct dg_operand_value *in_zp = dg_op_opnd(c, DG_OPND_CONV2D_input_zp);
   const struct dg_operand_value *w_zp = dg_op_opnd(c, DG_OPND_CONV2D_weight_zp);
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_CONV2D_input)->ty;
   const struct dg_tensor_type *w = &dg_op_opnd(c, DG_OPND_CONV2D_weight)->ty;
   const struct dg_tensor_type *bias = &dg_op_opnd(c, DG_OPND_CONV2D_bias)->ty;
   int64_t in_value, w_value;
   VkResult result;
   /* CONV2D.tosac: ERROR_IF(!is_same<in_t,i8_t>() && input_zp != 0), same for weight_t. */
   if ((result = dg_op_zero_point_i8_only(c, "input_zp", in_zp->ty.type, in_zp->bits,
                                          &in_value)) != VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "weight_zp", w_zp->ty.type, w_zp->bits, &w_value)) !=
           VK_SUCCESS)
      return result;
   a->input_zp = (int32_t)in_value;
   a->weight_zp = (int32_t)w_value;

   const int64_t *i = in->shape.dim, *k = w->shape.dim, *o = c->out.shape.dim;
   if ((result = check_attributes(c, a, k[1], k[2])) != VK_SUCCESS ||
       (result = check_dims(c, i, k, o)) != VK_SUCCESS)
      return result;
   /* ERROR_IF(OH != idiv_check(IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y,
    * stride_y) + 1), and likewise for OW. */
   if ((result = dg_op_out_size(c, "OH", "IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y",
                                i[1] - 1 + a->pad_top + a->pad_bottom - (k[1] - 1) * a->dilation_y,
                                a->stride_y, o[1])) != VK_SUCCESS ||
       (result = dg_op_out_size(c, "OW", "IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x",
                                i[2] - 1 + a->pad_left + a->pad_right - (k[2] - 1) * a->dilation_x,
                                a->stride_x, o[2])) != VK_SUCCESS)
      return result;
   /* ERROR_IF(BC != OC && BC != 1) */
   if (bias->shape.dim[0] != o[3] && bias->shape.dim[0] != 1)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(BC != OC && BC != 1): BC %" PRId64 ", OC %" PRId64,
                        bias->shape.dim[0], o[3]);
   return VK_SUCCESS;
}

/* [N, OH, OW, OC] from the input, weight and the pad/stride/dilation attributes. */
VkResult
dg_op_conv2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_conv2d *a = &c->node->attrs.conv2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_CONV2D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_CONV2D_weight)->ty.shape.dim;
   if (a->stride_y < 1 || a->stride_x < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "no output shape with stride [%d,%d]",
                        a->stride_y, a->stride_x);
   *out = (struct dg_shape){
       .rank = 4,
       .dim = {i[0],
               (i[1] - 1 + a->pad_top + a->pad_bottom - (k[1] - 1) * a->dilation_y) / a->stride_y +
                   1,
               (i[2] - 1 + a->pad_left + a->pad_right - (k[2] - 1) * a->dilation_x) / a->stride_x +
                   1,
               k[0]}};
   return VK_SUCCESS;
}
