/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA MAX_POOL2D (TOSA 1.0.1 "Tensor Operators"). TOSA.001000.1 operands:
 * kernel [2], stride [2], pad [4] (constant tensors of i32), nan_mode, then
 * the NHWC input. Operands and rows are declared in tosa_ops.def; every
 * ERROR_IF of MAX_POOL2D.tosac and the level-8K checks on kernel, stride and
 * pad are decided here.
 *
 * TOSA AVG_POOL2D. TOSA.001000.1 operands: kernel [2], stride [2], pad [4],
 * acc_type, then the NHWC input, input_zp [1] and output_zp [1] (constants of
 * the element type). The same window checks and output-size rule, and the
 * zero points' ERROR_IFs (i8 only).
 */
#include "dg_op.h"

/* kernel, stride and pad of a pooling window: ERROR_IFs and level checks. */
static VkResult
check_window(struct dg_op_ctx *c, const int32_t kernel[2], const int32_t stride[2],
             const int32_t pad[4])
{
   static const char *const pad_names[4] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
   VkResult result;
   if (kernel[0] < 1 || kernel[1] < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(kernel_y < 1 || kernel_x < 1): kernel [%d,%d]", kernel[0],
                        kernel[1]);
   if (stride[0] < 1 || stride[1] < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(stride_y < 1 || stride_x < 1): stride [%d,%d]", stride[0],
                        stride[1]);
   for (uint32_t i = 0; i < 4; i++) {
      if (pad[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(%s < 0): %s is %d", pad_names[i],
                           pad_names[i], pad[i]);
      /* pad_top/bottom against kernel_y, pad_left/right against kernel_x */
      if (pad[i] >= kernel[i / 2])
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(%s >= kernel_%c): %d >= %d (padding must be less than the "
                           "kernel)",
                           pad_names[i], i < 2 ? 'y' : 'x', pad[i], kernel[i / 2]);
      if ((result = dg_op_level(c, pad_names[i], pad[i], DG_MAX_KERNEL, "MAX_KERNEL")) !=
          VK_SUCCESS)
         return result;
   }
   if ((result = dg_op_level(c, "kernel_y", kernel[0], DG_MAX_KERNEL, "MAX_KERNEL")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "kernel_x", kernel[1], DG_MAX_KERNEL, "MAX_KERNEL")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "stride_y", stride[0], DG_MAX_STRIDE, "MAX_STRIDE")) != VK_SUCCESS)
      return result;
   return dg_op_level(c, "stride_x", stride[1], DG_MAX_STRIDE, "MAX_STRIDE");
}

/* N and C of the input and output agree; OH and OW follow TOSA's rule (both pools):
 * ERROR_IF(OH != idiv_check(IH + pad_top + pad_bottom - kernel_y, stride_y) + 1), likewise OW. */
static VkResult
check_pool_shape(struct dg_op_ctx *c, const int64_t *i, const int64_t *o, const int32_t kernel[2],
                 const int32_t stride[2], const int32_t pad[4])
{
   VkResult result;
   if (i[0] != o[0] || i[3] != o[3])
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "input [N,IH,IW,C] = [%" PRId64 ",..,%" PRId64 "] and output [N,OH,OW,C] "
                        "= [%" PRId64 ",..,%" PRId64 "] differ in N or C",
                        i[0], i[3], o[0], o[3]);
   if ((result = dg_op_out_size(c, "OH", "IH + pad_top + pad_bottom - kernel_y",
                                i[1] + pad[0] + pad[1] - kernel[0], stride[0], o[1])) != VK_SUCCESS)
      return result;
   return dg_op_out_size(c, "OW", "IW + pad_left + pad_right - kernel_x",
                         i[2] + pad[2] + pad[3] - kernel[1], stride[1], o[2]);
}

VkResult
dg_op_max_pool2d_validate(struct dg_op_ctx *c)
{
   const struct dg_attrs_max_pool2d *a = &c->node->attrs.max_pool2d;
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_MAX_POOL2D_input)->ty;
   const int32_t kernel[2] = {a->kernel_y, a->kernel_x}, stride[2] = {a->stride_y, a->stride_x};
   const int32_t pad[4] = {a->pad_top, a->pad_bottom, a->pad_left, a->pad_right};
   VkResult result = check_window(c, kernel, stride, pad);
   if (result != VK_SUCCESS)
      return result;
   return check_pool_shape(c, in->shape.dim, c->out.shape.dim, kernel, stride, pad);
}

/* [N, OH, OW, C] from the input and the kernel/stride/pad attributes. */
VkResult
dg_op_max_pool2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_max_pool2d *a = &c->node->attrs.max_pool2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_MAX_POOL2D_input)->ty.shape.dim;
   if (a->stride_y < 1 || a->stride_x < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "no output shape with stride [%d,%d]", a->stride_y,
                        a->stride_x);
   *out = (struct dg_shape){
       .rank = 4,
       .dim = {i[0], (i[1] + a->pad_top + a->pad_bottom - a->kernel_y) / a->stride_y + 1,
               (i[2] + a->pad_left + a->pad_right - a->kernel_x) / a->stride_x + 1, i[3]}};
   return VK_SUCCESS;
}

VkResult
dg_op_avg_pool2d_validate(struct dg_op_ctx *c)
{
   struct dg_attrs_avg_pool2d *a = &c->node->attrs.avg_pool2d;
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_AVG_POOL2D_input)->ty;
   const struct dg_operand_value *in_zp = dg_op_opnd(c, DG_OPND_AVG_POOL2D_input_zp);
   const struct dg_operand_value *out_zp = dg_op_opnd(c, DG_OPND_AVG_POOL2D_output_zp);
   int64_t in_value, out_value;
   VkResult result;
   /* AVG_POOL2D.tosac: ERROR_IF(!is_same<in_out_t,i8_t>() && input_zp != 0), and likewise
    * output_zp. */
   if ((result = dg_op_zero_point_i8_only(c, "input_zp", in_zp->ty.type, in_zp->bits, &in_value)) !=
           VK_SUCCESS ||
       (result = dg_op_zero_point_i8_only(c, "output_zp", out_zp->ty.type, out_zp->bits,
                                          &out_value)) != VK_SUCCESS)
      return result;
   a->input_zp = (int32_t)in_value;
   a->output_zp = (int32_t)out_value;
   const int32_t kernel[2] = {a->kernel_y, a->kernel_x}, stride[2] = {a->stride_y, a->stride_x};
   const int32_t pad[4] = {a->pad_top, a->pad_bottom, a->pad_left, a->pad_right};
   if ((result = check_window(c, kernel, stride, pad)) != VK_SUCCESS)
      return result;
   return check_pool_shape(c, in->shape.dim, c->out.shape.dim, kernel, stride, pad);
}

/* [N, OH, OW, C] from the input and the kernel/stride/pad attributes. */
VkResult
dg_op_avg_pool2d_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_avg_pool2d *a = &c->node->attrs.avg_pool2d;
   const int64_t *i = dg_op_opnd(c, DG_OPND_AVG_POOL2D_input)->ty.shape.dim;
   if (a->stride_y < 1 || a->stride_x < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "no output shape with stride [%d,%d]", a->stride_y,
                        a->stride_x);
   *out = (struct dg_shape){
       .rank = 4,
       .dim = {i[0], (i[1] + a->pad_top + a->pad_bottom - a->kernel_y) / a->stride_y + 1,
               (i[2] + a->pad_left + a->pad_right - a->kernel_x) / a->stride_x + 1, i[3]}};
   return VK_SUCCESS;
}
