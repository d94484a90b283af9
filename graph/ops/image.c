/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA RESIZE (TOSA 1.0.1 "Image Operators"). TOSA.001000.1 operands: mode
 * (NEAREST_NEIGHBOR 1, BILINEAR 2), the NHWC input, then scale [scale_y_n,
 * scale_y_d, scale_x_n, scale_x_d], offset [offset_y, offset_x] and border
 * [border_y, border_x] (shape_t constants, signed). Operands and rows are
 * declared in tosa_ops.def; here, at pipeline creation: the mode, the mode an
 * integer row is for, every ERROR_IF of RESIZE.tosac in its order (including
 * the exact output size) and the level-8K MAX_SCALE check.
 */
#include "dg_op.h"

/* Level 8K: scale_n / scale_d (the reduced ratio: the same value) at most 256. */
#define DG_MAX_SCALE 256

/* ERROR_IF(lo > v || v >= hi) for offset and border, naming the rule. */
static VkResult
check_range(struct dg_op_ctx *c, const char *rule, int64_t v, int64_t lo, int64_t hi)
{
   if (v >= lo && v < hi)
      return VK_SUCCESS;
   return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                     "ERROR_IF(%s): %" PRId64 " is outside [%" PRId64 ", %" PRId64 ")", rule, v, lo,
                     hi);
}

VkResult
dg_op_resize_validate(struct dg_op_ctx *c)
{
   const struct dg_attrs_resize *a = &c->node->attrs.resize;
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_RESIZE_input)->ty;
   const int64_t *i = in->shape.dim, *o = c->out.shape.dim;
   int64_t yn = a->scale_y_n, yd = a->scale_y_d, xn = a->scale_x_n, xd = a->scale_x_d;
   VkResult result;

   if (a->mode != TOSA_RESIZE_NEAREST_NEIGHBOR && a->mode != TOSA_RESIZE_BILINEAR)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "mode %u is neither NEAREST_NEIGHBOR (1) nor BILINEAR (2)", a->mode);
   /* TOSA.001000.1 names the integer rows for a mode: "signed 8, bilinear" is i8 -> i32,
    * "signed 8, nearest" i8 -> i8 (i16: i48, i16). */
   if (!dg_type_is_float(in->type)) {
      bool widened = c->out.type == DG_TYPE_I32 || c->out.type == DG_TYPE_I48;
      if (widened != (a->mode == TOSA_RESIZE_BILINEAR))
         return dg_op_fail(c, DG_ERR_OP_TYPE_SUPPORT, "the row %s -> %s is RESIZE's for %s, not %s",
                           dg_type_name(in->type), dg_type_name(c->out.type),
                           widened ? "BILINEAR" : "NEAREST_NEIGHBOR",
                           widened ? "NEAREST_NEIGHBOR" : "BILINEAR");
   }
   if (i[0] != o[0] || i[3] != o[3])
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "input [N,IH,IW,C] = [%" PRId64 ",..,%" PRId64 "] and output [N,OH,OW,C] "
                        "= [%" PRId64 ",..,%" PRId64 "] differ in N or C",
                        i[0], i[3], o[0], o[3]);
   if (o[1] >= 16384 || o[2] >= 16384 || i[1] >= 16384 || i[2] >= 16384)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(max(OH,OW,IH,IW) >= 16384): OH %" PRId64 ", OW %" PRId64
                        ", IH %" PRId64 ", IW %" PRId64,
                        o[1], o[2], i[1], i[2]);
   if (yn <= 0 || yd <= 0 || xn <= 0 || xd <= 0)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(scale_y_n <= 0 || scale_y_d <= 0 || scale_x_n <= 0 || "
                        "scale_x_d <= 0): scale [%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "]",
                        yn, yd, xn, xd);
   if (yn > 2048 || xn > 2048)
      return dg_op_fail(
          c, DG_ERR_OP_ATTRIBUTE,
          "ERROR_IF(scale_y_n > (1 << 11) || scale_x_n > (1 << 11)): scale_y_n %" PRId64
          ", scale_x_n %" PRId64,
          yn, xn);
   if (yd >= 16 * yn || xd >= 16 * xn)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(scale_y_d >= 16 * scale_y_n || scale_x_d >= 16 * scale_x_n): "
                        "scale [%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "] (below 1/16)",
                        yn, yd, xn, xd);
   if ((result = check_range(c, "offset_y < -scale_y_n || offset_y >= 16 * scale_y_n", a->offset_y,
                             -yn, 16 * yn)) != VK_SUCCESS ||
       (result = check_range(c, "offset_x < -scale_x_n || offset_x >= 16 * scale_x_n", a->offset_x,
                             -xn, 16 * xn)) != VK_SUCCESS ||
       (result = check_range(c, "border_y < -16 * scale_y_n || border_y >= scale_y_n", a->border_y,
                             -16 * yn, yn)) != VK_SUCCESS ||
       (result = check_range(c, "border_x < -16 * scale_x_n || border_x >= scale_x_n", a->border_x,
                             -16 * xn, xn)) != VK_SUCCESS)
      return result;
   if ((result = dg_op_out_size(c, "OH", "(IH - 1) * scale_y_n - offset_y + border_y",
                                (i[1] - 1) * yn - a->offset_y + a->border_y, yd, o[1])) !=
           VK_SUCCESS ||
       (result = dg_op_out_size(c, "OW", "(IW - 1) * scale_x_n - offset_x + border_x",
                                (i[2] - 1) * xn - a->offset_x + a->border_x, xd, o[2])) !=
           VK_SUCCESS)
      return result;
   /* LEVEL_CHECK(scale_n / scale_d <= MAX_SCALE), the ratio compared exactly. */
   if (yn > DG_MAX_SCALE * yd || xn > DG_MAX_SCALE * xd)
      return dg_op_fail(c, DG_ERR_LEVEL,
                        "LEVEL_CHECK(scale_y_n / scale_y_d <= MAX_SCALE && scale_x_n / scale_x_d "
                        "<= MAX_SCALE): %" PRId64 "/%" PRId64 ", %" PRId64 "/%" PRId64
                        " above %d (level 8K)",
                        yn, yd, xn, xd, DG_MAX_SCALE);
   return VK_SUCCESS;
}

/* [N, OH, OW, C] from the input and scale/offset/border (the numerator floored where it is not
 * a multiple: the validation function rejects that case with idiv_check's rule). */
VkResult
dg_op_resize_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_attrs_resize *a = &c->node->attrs.resize;
   const int64_t *i = dg_op_opnd(c, DG_OPND_RESIZE_input)->ty.shape.dim;
   if (a->scale_y_d <= 0 || a->scale_x_d <= 0)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "no output shape with scale_y_d %d, scale_x_d %d",
                        a->scale_y_d, a->scale_x_d);
   int64_t ny = (i[1] - 1) * a->scale_y_n - a->offset_y + a->border_y;
   int64_t nx = (i[2] - 1) * a->scale_x_n - a->offset_x + a->border_x;
   *out = (struct dg_shape){.rank = 4,
                            .dim = {i[0], ny / a->scale_y_d + 1, nx / a->scale_x_d + 1, i[3]}};
   return VK_SUCCESS;
}
