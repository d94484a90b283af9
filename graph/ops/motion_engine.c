/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Arm.MotionEngine.100 MIN_SAD, MIN_SAD_COST and RAW_SAD (me_ops.def): the
 * static checks, each refused at pipeline creation with the operand, its value
 * and the rule (decision D47 says where each rule comes from). The generic
 * decoder has already read the six [y, x] attribute vectors (constant tensors
 * of 32-bit integers, shape [2]), search_pattern, two rank-4 tensor inputs and
 * matched the row (i8 inputs; i8 vectors, i16 costs). Here:
 *  - ranges: kernel, search-window, stride and window-stride sizes in
 *    1..DG_ME_MAX_SIZE; a window offset inside its window (offset <=
 *    size - 1) and every displacement an i8 (offset <= 128, size - 1 -
 *    offset <= 127); padding smaller than the kernel; search_pattern RASTER (0)
 *    or SPIRAL (1); a SPIRAL window square, odd and centred (offsets
 *    (size - 1) / 2), the only windows a spiral from (0, 0) covers exactly;
 *  - a cost (MIN_SAD_COST, RAW_SAD) fits 16 bits: kernel_h * kernel_w * 255
 *    <= 65535;
 *  - input1 has input0's shape [N, C, H, W]; H >= stride_y, W >= stride_x;
 *  - the results: OH = H / stride_y, OW = W / stride_x; MIN_SAD's vectors
 *    [N, C, OH, 2 * OW] (dx, dy pairs), MIN_SAD_COST's vectors the same and
 *    its costs [N, C, OH, OW] i16, RAW_SAD's costs [N, C * SH * SW, OH, OW].
 */
#include <inttypes.h>

#include "dg_op.h"

/* The largest kernel, search-window and stride size (each direction). */
#define DG_ME_MAX_SIZE 256

enum me_kind { ME_MIN_SAD, ME_MIN_SAD_COST, ME_RAW_SAD };

/* The attribute vectors' operand indices are the same in the three operators; the inputs
 * follow search_pattern (RAW_SAD has none). */
_Static_assert(DG_OPND_MIN_SAD_kernel_sizes == DG_OPND_RAW_SAD_kernel_sizes &&
                   DG_OPND_MIN_SAD_padding == DG_OPND_RAW_SAD_padding &&
                   DG_OPND_MIN_SAD_COST_padding == DG_OPND_RAW_SAD_padding &&
                   DG_OPND_MIN_SAD_search_pattern == DG_OPND_MIN_SAD_COST_search_pattern &&
                   DG_OPND_MIN_SAD_input0 == DG_OPND_MIN_SAD_COST_input0 &&
                   DG_OPND_MIN_SAD_input1 == DG_OPND_MIN_SAD_input0 + 1 &&
                   DG_OPND_RAW_SAD_input0 == DG_OPND_RAW_SAD_padding + 1 &&
                   DG_OPND_RAW_SAD_input1 == DG_OPND_RAW_SAD_input0 + 1,
               "the Motion Engine operators share their operand order");

struct me_params {
   uint32_t kernel[2], search[2], stride[2], wstride[2], offset[2], pad[2];
   uint32_t pattern;
};

static const char *const axis_name[2] = {"y", "x"};

static void
me_read(const struct dg_op_ctx *c, enum me_kind kind, struct me_params *p)
{
   for (uint32_t i = 0; i < 2; i++) {
      p->kernel[i] = (uint32_t)dg_op_opnd(c, DG_OPND_MIN_SAD_kernel_sizes)->list[i];
      p->search[i] = (uint32_t)dg_op_opnd(c, DG_OPND_MIN_SAD_search_window_sizes)->list[i];
      p->stride[i] = (uint32_t)dg_op_opnd(c, DG_OPND_MIN_SAD_input_strides)->list[i];
      p->wstride[i] = (uint32_t)dg_op_opnd(c, DG_OPND_MIN_SAD_window_strides)->list[i];
      p->offset[i] = (uint32_t)dg_op_opnd(c, DG_OPND_MIN_SAD_window_offsets)->list[i];
      p->pad[i] = (uint32_t)dg_op_opnd(c, DG_OPND_MIN_SAD_padding)->list[i];
   }
   p->pattern = kind == ME_RAW_SAD ? 0u : dg_op_opnd(c, DG_OPND_MIN_SAD_search_pattern)->value;
}

/* A size element in 1..DG_ME_MAX_SIZE. */
static VkResult
check_size(struct dg_op_ctx *c, const char *operand, uint32_t i, uint32_t v)
{
   if (v < 1 || v > DG_ME_MAX_SIZE)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE, "%s[%u] (%s) is %u: it must be in 1..%u (D47)",
                        operand, i, axis_name[i], v, DG_ME_MAX_SIZE);
   return VK_SUCCESS;
}

/* Every rule on the attributes alone. */
static VkResult
check_attributes(struct dg_op_ctx *c, enum me_kind kind, const struct me_params *p)
{
   VkResult result;
   for (uint32_t i = 0; i < 2; i++) {
      if ((result = check_size(c, "kernel_sizes", i, p->kernel[i])) != VK_SUCCESS ||
          (result = check_size(c, "search_window_sizes", i, p->search[i])) != VK_SUCCESS ||
          (result = check_size(c, "input_strides", i, p->stride[i])) != VK_SUCCESS ||
          (result = check_size(c, "window_strides", i, p->wstride[i])) != VK_SUCCESS)
         return result;
   }
   for (uint32_t i = 0; i < 2; i++) {
      if (p->offset[i] > p->search[i] - 1)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "window_offsets[%u] (%s) is %u: it must lie in the search window, "
                           "<= search_window_sizes[%u] - 1 = %u (D47)",
                           i, axis_name[i], p->offset[i], i, p->search[i] - 1);
      if (p->offset[i] > 128 || p->search[i] - 1 - p->offset[i] > 127)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "window_offsets[%u] = %u with search_window_sizes[%u] = %u gives "
                           "displacements %d..%u: a motion vector component is an i8, -128..127 "
                           "(D47)",
                           i, p->offset[i], i, p->search[i], -(int)p->offset[i],
                           p->search[i] - 1 - p->offset[i]);
      if (p->pad[i] >= p->kernel[i])
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "padding[%u] (%s) is %u: it must be smaller than kernel_sizes[%u] = %u, "
                           "so that no block lies wholly in the padding (D47)",
                           i, i ? "left" : "top", p->pad[i], i, p->kernel[i]);
   }
   if (p->pattern > 1)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "search_pattern is %u, not RASTER (0) or SPIRAL (1)", p->pattern);
   if (p->pattern == 1) {
      if (p->search[0] != p->search[1] || p->search[0] % 2 == 0)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "search_pattern SPIRAL needs a square window of odd size, not "
                           "search_window_sizes [%u, %u] (D47)",
                           p->search[0], p->search[1]);
      if (p->offset[0] != (p->search[0] - 1) / 2 || p->offset[1] != (p->search[1] - 1) / 2)
         return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                           "search_pattern SPIRAL needs a centred window: window_offsets are "
                           "[%u, %u], not [%u, %u] = (search_window_sizes - 1) / 2 (D47)",
                           p->offset[0], p->offset[1], (p->search[0] - 1) / 2,
                           (p->search[1] - 1) / 2);
   }
   if (kind != ME_MIN_SAD && (uint64_t)p->kernel[0] * p->kernel[1] * 255u > 65535u)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "kernel_sizes [%u, %u]: a cost of up to %u * %u * 255 does not fit the "
                        "16-bit cost output (kernel_h * kernel_w <= 257) (D47)",
                        p->kernel[0], p->kernel[1], p->kernel[0], p->kernel[1]);
   return VK_SUCCESS;
}

/* The attribute rules, input1's shape, and the shape of result 0 (the vectors or RAW_SAD's
 * costs) and of MIN_SAD_COST's costs. */
static VkResult
me_shapes(struct dg_op_ctx *c, enum me_kind kind, struct dg_shape *out0, struct dg_shape *cost)
{
   struct me_params p;
   me_read(c, kind, &p);
   VkResult result = check_attributes(c, kind, &p);
   if (result != VK_SUCCESS)
      return result;
   uint32_t first = kind == ME_RAW_SAD ? DG_OPND_RAW_SAD_input0 : DG_OPND_MIN_SAD_input0;
   const struct dg_tensor_type *in0 = &dg_op_opnd(c, first)->ty;
   const struct dg_tensor_type *in1 = &dg_op_opnd(c, first + 1)->ty;
   if ((result = dg_op_same_shape(c, "input1 (the search frame)", &in1->shape,
                                  "input0 (the template frame)", &in0->shape)) != VK_SUCCESS)
      return result;
   const int64_t *d = in0->shape.dim;
   for (uint32_t i = 0; i < 2; i++) {
      if (d[2 + i] < p.stride[i])
         return dg_op_fail(c, DG_ERR_OP_SHAPE,
                           "input0's %s is %" PRId64 ", smaller than input_strides[%u] = %u: no "
                           "block to match",
                           i ? "W" : "H", d[2 + i], i, p.stride[i]);
   }
   int64_t oh = d[2] / p.stride[0], ow = d[3] / p.stride[1];
   *out0 = in0->shape;
   out0->dim[2] = oh;
   out0->dim[3] = kind == ME_RAW_SAD ? ow : 2 * ow;
   if (kind == ME_RAW_SAD)
      out0->dim[1] = d[1] * (int64_t)p.search[0] * p.search[1];
   *cost = in0->shape;
   cost->dim[2] = oh;
   cost->dim[3] = ow;
   return VK_SUCCESS;
}

static VkResult
me_validate(struct dg_op_ctx *c, enum me_kind kind)
{
   struct dg_shape out0, cost;
   VkResult result = me_shapes(c, kind, &out0, &cost);
   if (result != VK_SUCCESS || kind != ME_MIN_SAD_COST)
      return result; /* result 0 against out0: dg_op_decode()'s shape rule check */
   struct dg_graph *g = c->d->g;
   struct dg_tensor *t = &g->tensors[g->node_tensors[c->node->first_output + 1]];
   if (t->ty.type != DG_TYPE_I16)
      return dg_op_fail(c, DG_ERR_OP_TYPE_SUPPORT,
                        "result 1 (the costs) is a tensor of %s, not i16 (D47)",
                        dg_type_name(t->ty.type));
   if (t->ty.shape.rank && t->ty.shape.rank != 4)
      return dg_op_rank(c, "result 1 (the costs)", &t->ty, 4);
   if (!dg_shape_known(&t->ty.shape)) {
      struct dg_tensor_type shaped = {t->ty.type, t->ty.int_signed, cost};
      if ((result = dg_check_tensor_size(c->d, c->inst, &shaped)) != VK_SUCCESS)
         return result;
      t->ty.shape = cost;
   }
   return dg_op_same_shape(c, "result 1 (the costs)", &t->ty.shape,
                           "[N, C, H / stride_y, "
                           "W / stride_x]",
                           &cost);
}

VkResult
dg_op_min_sad_validate(struct dg_op_ctx *c)
{
   return me_validate(c, ME_MIN_SAD);
}

VkResult
dg_op_min_sad_cost_validate(struct dg_op_ctx *c)
{
   return me_validate(c, ME_MIN_SAD_COST);
}

VkResult
dg_op_raw_sad_validate(struct dg_op_ctx *c)
{
   return me_validate(c, ME_RAW_SAD);
}

VkResult
dg_op_min_sad_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   struct dg_shape cost;
   return me_shapes(c, ME_MIN_SAD, out, &cost);
}

VkResult
dg_op_min_sad_cost_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   struct dg_shape cost;
   return me_shapes(c, ME_MIN_SAD_COST, out, &cost);
}

VkResult
dg_op_raw_sad_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   struct dg_shape cost;
   return me_shapes(c, ME_RAW_SAD, out, &cost);
}
