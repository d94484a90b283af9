/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation and output shapes of CONV2D's family (TOSA 1.0.1 "Tensor Operators"):
 * DEPTHWISE_CONV2D, TRANSPOSE_CONV2D and CONV3D. Operands and type-support rows (with
 * acc_type) are declared in tosa_ops.def; here every ERROR_IF of the operators' .tosac, in
 * their order, the level-8K limits of tosa.xml's argument table and the dimension agreement
 * the operand shapes name. The output-shape functions run before validation where the graph
 * leaves the output's shape to be inferred, so they guard their own divisions.
 */
#include "dg_op.h"

/* ERROR_IF(!is_same<in_t,i8_t>() && input_zp != 0), the same for weight_t; the values into
 * the attributes. */
static VkResult
check_zero_points(struct dg_op_ctx *c, uint32_t in_opnd, uint32_t w_opnd, int32_t *in_zp,
                  int32_t *w_zp)
{
   const struct dg_operand_value *izp = dg_op_opnd(c, in_opnd);
   const struct dg_operand_value *wzp = dg_op_opnd(c, w_opnd);
   int64_t in_value, w_value;
   VkResult result;
   if ((result = dg_op_zero_point_i8_only(c, "input_zp", izp->ty.type, izp->bits, &in_value)) !=
           VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "weight_zp", wzp->ty.type, wzp->bits, &w_value)) !=
           VK_SUCCESS)
      return result;
   *in_zp = (int32_t)in_value;
   *w_zp = (int32_t)w_value;
   return VK_SUCCESS;
}

/* ERROR_IF(pad < 0) for each of `count` pads, and LEVEL_CHECK(pad <= MAX_KERNEL). */
static VkResult
check_pads(struct dg_op_ctx *c, const char *rule, const char *const *names, const int32_t *pad,
           uint32_t count)
{
   VkResult result;
   for (uint32_t i = 0; i < count; i++) {
      if (pad[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(%s): %s is %d", rule, names[i],
                           pad[i]);
      if ((result = dg_op_level(c, names[i], pad[i], DG_MAX_KERNEL, "MAX_KERNEL")) != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* ERROR_IF(stride < 1) for each, LEVEL_CHECK(stride <= MAX_STRIDE). */
static VkResult
check_strides(struct dg_op_ctx *c, const char *rule, const char *const *names,
              const int32_t *stride, uint32_t count)
{
   VkResult result;
   for (uint32_t i = 0; i < count; i++) {
      if (stride[i] < 1)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(%s): %s is %d", rule, names[i],
                           stride[i]);
   }
   for (uint32_t i = 0; i < count; i++) {
      if ((result = dg_op_level(c, names[i], stride[i], DG_MAX_STRIDE, "MAX_STRIDE")) != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* ERROR_IF(dilation < 1) for each, LEVEL_CHECK(dilation * K <= MAX_KERNEL); count 2 (y, x) or
 * 3 (d, y, x). */
static VkResult
check_dilations(struct dg_op_ctx *c, const char *rule, const int32_t *dilation,
                const int64_t *kernel, uint32_t count)
{
   static const char *const axes[3][2] = {{"dilation_d", "dilation_d * KD"},
                                          {"dilation_y", "dilation_y * KH"},
                                          {"dilation_x", "dilation_x * KW"}};
   const uint32_t first = 3 - count; /* CONV3D: d, y, x; the 2D operators: y, x */
   VkResult result;
   for (uint32_t i = 0; i < count; i++) {
      if (dilation[i] < 1)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(%s): %s is %d", rule,
                           axes[first + i][0], dilation[i]);
   }
   for (uint32_t i = 0; i < count; i++) {
      if ((result = dg_op_level(c, axes[first + i][1], dilation[i] * kernel[i], DG_MAX_KERNEL,
                                "MAX_KERNEL")) != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* ERROR_IF(BC != channels && BC != 1). */
static VkResult
check_bias(struct dg_op_ctx *c, const char *rule, int64_t bc, int64_t channels)
{
   if (bc != channels && bc != 1)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(%s): BC %" PRId64 ", output channels %" PRId64, rule, bc,
                        channels);
   return VK_SUCCESS;
}

/* A dimension two operands name alike. */
static VkResult
check_same_dim(struct dg_op_ctx *c, const char *what_a, int64_t a, const char *what_b, int64_t b)
{
   if (a != b)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "%s %" PRId64 " != %s %" PRId64, what_a, a, what_b, b);
   return VK_SUCCESS;
}

/* idiv(numerator, stride) + 1 for the inferred shape (the validation checks idiv_check). */
static int64_t
conv_out_size(int64_t numerator, int64_t stride)
{
   return stride >= 1 ? numerator / stride + 1 : 0;
}

/* ---- DEPTHWISE_CONV2D: input [N,IH,IW,C], weight [KH,KW,C,M] -> [N,OH,OW,C*M] ------------ */

VkResult
dg_op_depthwise_conv2d_validate(struct dg_op_ctx *c)
{
   static const char *const pad_names[4] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
   static const char *const stride_names[2] = {"stride_y", "stride_x"};
   struct dg_attrs_depthwise_conv2d *a = &c->node->attrs.depthwise_conv2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_DEPTHWISE_CONV2D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_DEPTHWISE_CONV2D_weight)->ty.shape.dim;
   const int64_t bc = dg_op_opnd(c, DG_OPND_DEPTHWISE_CONV2D_bias)->ty.shape.dim[0];
   const int64_t *o = c->out.shape.dim;
   const int32_t pad[4] = {a->pad_top, a->pad_bottom, a->pad_left, a->pad_right};
   const int32_t stride[2] = {a->stride_y, a->stride_x};
   const int32_t dilation[2] = {a->dilation_y, a->dilation_x};
   const int64_t kernel[2] = {k[0], k[1]};
   VkResult result;
   if ((result = check_zero_points(c, DG_OPND_DEPTHWISE_CONV2D_input_zp,
                                   DG_OPND_DEPTHWISE_CONV2D_weight_zp, &a->input_zp,
                                   &a->weight_zp)) != VK_SUCCESS ||
       (result = check_pads(c, "pad_top < 0 || pad_bottom < 0 || pad_left < 0 || pad_right < 0",
                            pad_names, pad, 4)) != VK_SUCCESS ||
       (result = check_strides(c, "stride_y < 1 || stride_x < 1", stride_names, stride, 2)) !=
           VK_SUCCESS ||
       (result = check_dilations(c, "dilation_y < 1 || dilation_x < 1", dilation, kernel, 2)) !=
           VK_SUCCESS)
      return result;
   if ((result = check_same_dim(c, "output N", o[0], "input N", i[0])) != VK_SUCCESS ||
       (result = check_same_dim(c, "weight C (weight is [KH,KW,C,M])", k[2], "input C", i[3])) !=
           VK_SUCCESS ||
       (result = check_same_dim(c, "output channels", o[3], "C * M", k[2] * k[3])) != VK_SUCCESS)
      return result;
   if ((result = dg_op_out_size(c, "OH", "IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y",
                                i[1] - 1 + a->pad_top + a->pad_bottom - (k[0] - 1) * a->dilation_y,
                                a->stride_y, o[1])) != VK_SUCCESS ||
       (result = dg_op_out_size(c, "OW", "IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x",
                                i[2] - 1 + a->pad_left + a->pad_right - (k[1] - 1) * a->dilation_x,
                                a->stride_x, o[2])) != VK_SUCCESS)
      return result;
   return check_bias(c, "BC != C*M && BC != 1", bc, k[2] * k[3]);
}

VkResult
dg_op_depthwise_conv2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_depthwise_conv2d *a = &c->node->attrs.depthwise_conv2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_DEPTHWISE_CONV2D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_DEPTHWISE_CONV2D_weight)->ty.shape.dim;
   *out = (struct dg_shape){
       .rank = 4,
       .dim = {i[0],
               conv_out_size(i[1] - 1 + a->pad_top + a->pad_bottom - (k[0] - 1) * a->dilation_y,
                             a->stride_y),
               conv_out_size(i[2] - 1 + a->pad_left + a->pad_right - (k[1] - 1) * a->dilation_x,
                             a->stride_x),
               k[2] * k[3]}};
   return VK_SUCCESS;
}

/* ---- TRANSPOSE_CONV2D: input [N,IH,IW,IC], weight [OC,KH,KW,IC] -> [N,OH,OW,OC] ---------- */

VkResult
dg_op_transpose_conv2d_validate(struct dg_op_ctx *c)
{
   static const char *const pad_names[4] = {"out_pad_top", "out_pad_bottom", "out_pad_left",
                                            "out_pad_right"};
   static const char *const stride_names[2] = {"stride_y", "stride_x"};
   struct dg_attrs_transpose_conv2d *a = &c->node->attrs.transpose_conv2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_TRANSPOSE_CONV2D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_TRANSPOSE_CONV2D_weight)->ty.shape.dim;
   const int64_t bc = dg_op_opnd(c, DG_OPND_TRANSPOSE_CONV2D_bias)->ty.shape.dim[0];
   const int64_t *o = c->out.shape.dim;
   const int32_t pad[4] = {a->out_pad_top, a->out_pad_bottom, a->out_pad_left, a->out_pad_right};
   const int32_t stride[2] = {a->stride_y, a->stride_x};
   VkResult result;
   if ((result = check_zero_points(c, DG_OPND_TRANSPOSE_CONV2D_input_zp,
                                   DG_OPND_TRANSPOSE_CONV2D_weight_zp, &a->input_zp,
                                   &a->weight_zp)) != VK_SUCCESS)
      return result;
   /* ERROR_IF(out_pad_top <= -KH || out_pad_bottom <= -KH), the same for left/right and KW */
   for (uint32_t p = 0; p < 4; p++) {
      int64_t kernel = k[1 + p / 2];
      if (pad[p] <= -kernel)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(%s <= -%s): %s is %d, %s %" PRId64,
                           pad_names[p], p < 2 ? "KH" : "KW", pad_names[p], pad[p],
                           p < 2 ? "KH" : "KW", kernel);
   }
   if ((result = check_strides(c, "stride_y < 1 || stride_x < 1", stride_names, stride, 2)) !=
       VK_SUCCESS)
      return result;
   for (uint32_t p = 0; p < 4; p++) {
      if ((result = dg_op_level(c, pad_names[p], pad[p], DG_MAX_KERNEL, "MAX_KERNEL")) !=
          VK_SUCCESS)
         return result;
   }
   if ((result = dg_op_level(c, "KH", k[1], DG_MAX_KERNEL, "MAX_KERNEL")) != VK_SUCCESS ||
       (result = dg_op_level(c, "KW", k[2], DG_MAX_KERNEL, "MAX_KERNEL")) != VK_SUCCESS)
      return result;
   if ((result = check_same_dim(c, "output N", o[0], "input N", i[0])) != VK_SUCCESS ||
       (result = check_same_dim(c, "weight IC (weight is [OC,KH,KW,IC])", k[3], "input IC",
                                i[3])) != VK_SUCCESS ||
       (result = check_same_dim(c, "output OC", o[3], "weight OC", k[0])) != VK_SUCCESS)
      return result;
   /* ERROR_IF(OH != (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH), OW likewise */
   int64_t oh = (i[1] - 1) * a->stride_y + a->out_pad_top + a->out_pad_bottom + k[1];
   int64_t ow = (i[2] - 1) * a->stride_x + a->out_pad_left + a->out_pad_right + k[2];
   if (o[1] != oh)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(OH != (IH - 1) * stride_y + out_pad_top + out_pad_bottom + "
                        "KH): OH is %" PRId64 ", expected %" PRId64,
                        o[1], oh);
   if (o[2] != ow)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(OW != (IW - 1) * stride_x + out_pad_left + out_pad_right + "
                        "KW): OW is %" PRId64 ", expected %" PRId64,
                        o[2], ow);
   return check_bias(c, "BC != OC && BC != 1", bc, k[0]);
}

VkResult
dg_op_transpose_conv2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_transpose_conv2d *a = &c->node->attrs.transpose_conv2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_TRANSPOSE_CONV2D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_TRANSPOSE_CONV2D_weight)->ty.shape.dim;
   *out = (struct dg_shape){
       .rank = 4,
       .dim = {i[0], (i[1] - 1) * a->stride_y + a->out_pad_top + a->out_pad_bottom + k[1],
               (i[2] - 1) * a->stride_x + a->out_pad_left + a->out_pad_right + k[2], k[0]}};
   return VK_SUCCESS;
}

/* ---- CONV3D: input [N,ID,IH,IW,IC], weight [OC,KD,KH,KW,IC] -> [N,OD,OH,OW,OC] ----------- */

VkResult
dg_op_conv3d_validate(struct dg_op_ctx *c)
{
   static const char *const pad_names[6] = {"pad_d0",     "pad_d1",   "pad_top",
                                            "pad_bottom", "pad_left", "pad_right"};
   static const char *const stride_names[3] = {"stride_d", "stride_y", "stride_x"};
   static const char *const out_names[3] = {"OD", "OH", "OW"};
   static const char *const formulas[3] = {"ID - 1 + pad_d0 + pad_d1 - (KD - 1) * dilation_d",
                                           "IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y",
                                           "IW - 1 + pad_left + pad_right - (KW - 1) * dilation_x"};
   struct dg_attrs_conv3d *a = &c->node->attrs.conv3d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_CONV3D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_CONV3D_weight)->ty.shape.dim;
   const int64_t bc = dg_op_opnd(c, DG_OPND_CONV3D_bias)->ty.shape.dim[0];
   const int64_t *o = c->out.shape.dim;
   const int32_t pad[6] = {a->pad_d0,     a->pad_d1,   a->pad_top,
                           a->pad_bottom, a->pad_left, a->pad_right};
   const int32_t stride[3] = {a->stride_d, a->stride_y, a->stride_x};
   const int32_t dilation[3] = {a->dilation_d, a->dilation_y, a->dilation_x};
   const int64_t kernel[3] = {k[1], k[2], k[3]};
   VkResult result;
   if ((result = check_zero_points(c, DG_OPND_CONV3D_input_zp, DG_OPND_CONV3D_weight_zp,
                                   &a->input_zp, &a->weight_zp)) != VK_SUCCESS ||
       (result = check_pads(c,
                            "pad_d0 < 0 || pad_d1 < 0 || pad_top < 0 || pad_bottom < 0 || "
                            "pad_left < 0 || pad_right < 0",
                            pad_names, pad, 6)) != VK_SUCCESS ||
       (result = check_strides(c, "stride_d < 1 || stride_y < 1 || stride_x < 1", stride_names,
                               stride, 3)) != VK_SUCCESS ||
       (result = check_dilations(c, "dilation_d < 1 || dilation_y < 1 || dilation_x < 1", dilation,
                                 kernel, 3)) != VK_SUCCESS)
      return result;
   if ((result = check_same_dim(c, "output N", o[0], "input N", i[0])) != VK_SUCCESS ||
       (result = check_same_dim(c, "weight IC (weight is [OC,KD,KH,KW,IC])", k[4], "input IC",
                                i[4])) != VK_SUCCESS ||
       (result = check_same_dim(c, "output OC", o[4], "weight OC", k[0])) != VK_SUCCESS)
      return result;
   for (uint32_t d = 0; d < 3; d++) {
      if ((result = dg_op_out_size(c, out_names[d], formulas[d],
                                   i[1 + d] - 1 + pad[2 * d] + pad[2 * d + 1] -
                                       (k[1 + d] - 1) * dilation[d],
                                   stride[d], o[1 + d])) != VK_SUCCESS)
         return result;
   }
   return check_bias(c, "BC != OC && BC != 1", bc, k[0]);
}

VkResult
dg_op_conv3d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_conv3d *a = &c->node->attrs.conv3d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_CONV3D_input)->ty.shape.dim;
   const int64_t *k = dg_op_opnd(c, DG_OPND_CONV3D_weight)->ty.shape.dim;
   *out = (struct dg_shape){
       .rank = 5,
       .dim = {i[0],
               conv_out_size(i[1] - 1 + a->pad_d0 + a->pad_d1 - (k[1] - 1) * a->dilation_d,
                             a->stride_d),
               conv_out_size(i[2] - 1 + a->pad_top + a->pad_bottom - (k[2] - 1) * a->dilation_y,
                             a->stride_y),
               conv_out_size(i[3] - 1 + a->pad_left + a->pad_right - (k[3] - 1) * a->dilation_x,
                             a->stride_x),
               k[0]}};
   return VK_SUCCESS;
}
