/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA MAX_POOL2D (TOSA 1.0.1 "Tensor Operators"). TOSA.001000.1 operands:
 * kernel [2], stride [2], pad [4] (constant tensors of i32), nan_mode, then
 * the NHWC input. Every ERROR_IF of MAX_POOL2D.tosac and the level-8K checks
 * on kernel, stride and pad are decided here. AVG_POOL2D will share the
 * window checks when it lands.
 */
#include "dg_op.h"

static const struct dg_type_row max_pool_rows[] = {
    {DG_PRO_INT, {DG_TYPE_I8, DG_TYPE_I8}},
    {DG_EXT(INT16), {DG_TYPE_I16, DG_TYPE_I16}},
    {DG_EXT(FP8E4M3), {DG_TYPE_FP8E4M3, DG_TYPE_FP8E4M3}},
    {DG_EXT(FP8E5M2), {DG_TYPE_FP8E5M2, DG_TYPE_FP8E5M2}},
    {DG_PRO_FP, {DG_TYPE_FP16, DG_TYPE_FP16}},
    {DG_EXT(BF16), {DG_TYPE_BF16, DG_TYPE_BF16}},
    {DG_PRO_FP, {DG_TYPE_FP32, DG_TYPE_FP32}},
};

/* kernel, stride and pad of a pooling window: ERROR_IFs and level checks. */
static VkResult
check_window(struct dg_op_ctx *c, const struct dg_attr_pool2d *a)
{
   static const char *const pad_names[4] = {"pad_top", "pad_bottom", "pad_left", "pad_right"};
   VkResult result;
   if (a->kernel[0] < 1 || a->kernel[1] < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(kernel_y < 1 || kernel_x < 1): kernel [%d,%d]", a->kernel[0],
                        a->kernel[1]);
   if (a->stride[0] < 1 || a->stride[1] < 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(stride_y < 1 || stride_x < 1): stride [%d,%d]", a->stride[0],
                        a->stride[1]);
   for (uint32_t i = 0; i < 4; i++) {
      if (a->pad[i] < 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "ERROR_IF(%s < 0): %s is %d", pad_names[i],
                           pad_names[i], a->pad[i]);
      /* pad_top/bottom against kernel_y, pad_left/right against kernel_x */
      if (a->pad[i] >= a->kernel[i / 2])
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "ERROR_IF(%s >= kernel_%c): %d >= %d (padding must be less than the "
                           "kernel)",
                           pad_names[i], i < 2 ? 'y' : 'x', a->pad[i], a->kernel[i / 2]);
      if ((result = dg_op_level(c, pad_names[i], a->pad[i], DG_MAX_KERNEL, "MAX_KERNEL")) !=
          VK_SUCCESS)
         return result;
   }
   if ((result = dg_op_level(c, "kernel_y", a->kernel[0], DG_MAX_KERNEL, "MAX_KERNEL")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "kernel_x", a->kernel[1], DG_MAX_KERNEL, "MAX_KERNEL")) !=
           VK_SUCCESS ||
       (result = dg_op_level(c, "stride_y", a->stride[0], DG_MAX_STRIDE, "MAX_STRIDE")) !=
           VK_SUCCESS)
      return result;
   return dg_op_level(c, "stride_x", a->stride[1], DG_MAX_STRIDE, "MAX_STRIDE");
}

VkResult
dg_op_max_pool2d_decode(struct dg_op_ctx *c)
{
   static const char *const cols[] = {"input", "output"};
   struct dg_attr_pool2d *a = &c->node->attrs.pool2d;
   struct dg_tensor_type in, out;
   VkResult result;
   if ((result = dg_op_attr_list(c, 0, "kernel", 2, a->kernel)) != VK_SUCCESS ||
       (result = dg_op_attr_list(c, 1, "stride", 2, a->stride)) != VK_SUCCESS ||
       (result = dg_op_attr_list(c, 2, "pad", 4, a->pad)) != VK_SUCCESS ||
       (result = dg_op_nan_mode(c, 3, &a->nan_mode)) != VK_SUCCESS ||
       (result = dg_op_input(c, 4, "input", &in)) != VK_SUCCESS ||
       (result = dg_op_output(c, &out)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "input", &in, 4)) != VK_SUCCESS ||
       (result = dg_op_rank(c, "output", &out, 4)) != VK_SUCCESS)
      return result;
   const uint8_t actual[] = {in.type, out.type};
   if ((result = dg_op_match_row(c, max_pool_rows, sizeof(max_pool_rows) / sizeof(max_pool_rows[0]),
                                 2, cols, actual)) != VK_SUCCESS ||
       (result = check_window(c, a)) != VK_SUCCESS)
      return result;
   const int64_t *i = in.shape.dim, *o = out.shape.dim;
   if (i[0] != o[0] || i[3] != o[3])
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "input [N,IH,IW,C] = [%" PRId64 ",..,%" PRId64 "] and output [N,OH,OW,C] "
                        "= [%" PRId64 ",..,%" PRId64 "] differ in N or C",
                        i[0], i[3], o[0], o[3]);
   /* MAX_POOL2D.tosac: ERROR_IF(OH != idiv_check(IH + pad_top + pad_bottom - kernel_y,
    * stride_y) + 1), and likewise for OW. */
   if ((result = dg_op_out_size(c, "OH", "IH + pad_top + pad_bottom - kernel_y",
                                i[1] + a->pad[0] + a->pad[1] - a->kernel[0], a->stride[0], o[1])) !=
       VK_SUCCESS)
      return result;
   return dg_op_out_size(c, "OW", "IW + pad_left + pad_right - kernel_x",
                         i[2] + a->pad[2] + a->pad[3] - a->kernel[1], a->stride[1], o[2]);
}
