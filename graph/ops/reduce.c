/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * REDUCE_ALL, REDUCE_ANY, REDUCE_MAX, REDUCE_MIN, REDUCE_PRODUCT, REDUCE_SUM (TOSA 1.0.1
 * "Reduction") and ARGMAX ("Tensor Operators"), declared in tosa_ops.def: their ERROR_IFs, output
 * shapes and the passes that run them (shaders/graph/tosa/reduce.comp, kernel_abi/reduce_args.h).
 *
 * ERROR_IFs, decided at pipeline creation: axis < 0 || axis >= rank(shape1) (the U32 operand
 * read as i32); the reductions' shape[axis] != 1 and the other dimensions (the output is the
 * input's shape with dimension axis 1; the decoder compares the shape rule's result with the
 * output type); ARGMAX's flatten(left_shape, right_shape) != shape (the input's shape without
 * dimension axis).
 *
 * Passes. The axis of length N between `outer` and `inner` positions is reduced in chunks: one
 * workgroup of DG_REDUCE_WG invocations takes tx lanes (positions off the axis) and ty
 * invocations per lane (tx * ty = DG_REDUCE_WG, powers of two; ty about N / 16, at most
 * DG_REDUCE_WG / min(inner, 64) so that an outer axis keeps up to 64 adjacent columns in a
 * workgroup's rows), each invocation folding at most DG_REDUCE_ITEMS elements. When the axis
 * needs more than one chunk (N > ty * DG_REDUCE_ITEMS: 4096 for the innermost axis), the pass
 * writes one partial value per chunk into a session scratch tensor [outer, chunks, inner]
 * (fp32 for floats, i32 for integers and bool, i32 pairs for ARGMAX) and the next pass reduces
 * that along its axis 1, until one chunk remains; the last pass writes the output. Everything
 * is decided from the shapes, so the order of the float operations is the same on every run.
 */
#include "dg_build.h"
#include "dg_op.h"
#include "kernel_abi/reduce_args.h"

/* ---- validation ----------------------------------------------------------------------------- */

static VkResult
check_axis(struct dg_op_ctx *c, uint32_t axis, const struct dg_tensor_type *in)
{
   if ((int32_t)axis < 0 || axis >= in->shape.rank)
      return dg_op_fail(c, DG_ERR_OP_ATTRIBUTE,
                        "ERROR_IF(axis < 0 || axis >= rank(shape1)): axis %d, rank %u",
                        (int32_t)axis, in->shape.rank);
   return VK_SUCCESS;
}

/* The reductions: the input's shape with shape[axis] = 1. */
static VkResult
reduce_shape(struct dg_op_ctx *c, uint32_t axis_opnd, uint32_t input_opnd, struct dg_shape *out)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, input_opnd)->ty;
   uint32_t axis = dg_op_opnd(c, axis_opnd)->value;
   VkResult result = check_axis(c, axis, in);
   if (result != VK_SUCCESS)
      return result;
   *out = in->shape;
   out->dim[axis] = 1;
   return VK_SUCCESS;
}

static VkResult
reduce_validate(struct dg_op_ctx *c, uint32_t axis_opnd, uint32_t input_opnd)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, input_opnd)->ty;
   uint32_t axis = dg_op_opnd(c, axis_opnd)->value;
   VkResult result = check_axis(c, axis, in);
   if (result != VK_SUCCESS)
      return result;
   if (c->out.shape.rank != in->shape.rank)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "the output's rank %u is not the input's %u",
                        c->out.shape.rank, in->shape.rank);
   if (c->out.shape.dim[axis] != 1)
      return dg_op_fail(c, DG_ERR_OP_SHAPE, "ERROR_IF(shape[axis] != 1): shape[%u] is %" PRId64,
                        axis, c->out.shape.dim[axis]);
   return VK_SUCCESS;
}

#define DG_REDUCE_OP_FNS(name, NAME)                                                               \
   VkResult dg_op_##name##_shape(struct dg_op_ctx *c, struct dg_shape *out)                        \
   {                                                                                               \
      return reduce_shape(c, DG_OPND_##NAME##_axis, DG_OPND_##NAME##_input, out);                  \
   }                                                                                               \
   VkResult dg_op_##name##_validate(struct dg_op_ctx *c)                                           \
   {                                                                                               \
      return reduce_validate(c, DG_OPND_##NAME##_axis, DG_OPND_##NAME##_input);                    \
   }
DG_REDUCE_OP_FNS(reduce_all, REDUCE_ALL)
DG_REDUCE_OP_FNS(reduce_any, REDUCE_ANY)
DG_REDUCE_OP_FNS(reduce_max, REDUCE_MAX)
DG_REDUCE_OP_FNS(reduce_min, REDUCE_MIN)
DG_REDUCE_OP_FNS(reduce_product, REDUCE_PRODUCT)
DG_REDUCE_OP_FNS(reduce_sum, REDUCE_SUM)

/* ARGMAX: the input's shape without dimension axis. */
VkResult
dg_op_argmax_shape(struct dg_op_ctx *c, struct dg_shape *out)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_ARGMAX_input)->ty;
   uint32_t axis = dg_op_opnd(c, DG_OPND_ARGMAX_axis)->value;
   VkResult result = check_axis(c, axis, in);
   if (result != VK_SUCCESS)
      return result;
   *out = (struct dg_shape){.rank = in->shape.rank - 1};
   for (uint32_t d = 0, o = 0; d < in->shape.rank; d++) {
      if (d != axis)
         out->dim[o++] = in->shape.dim[d];
   }
   return VK_SUCCESS;
}

VkResult
dg_op_argmax_validate(struct dg_op_ctx *c)
{
   const struct dg_tensor_type *in = &dg_op_opnd(c, DG_OPND_ARGMAX_input)->ty;
   uint32_t axis = dg_op_opnd(c, DG_OPND_ARGMAX_axis)->value;
   VkResult result = check_axis(c, axis, in);
   if (result != VK_SUCCESS)
      return result;
   struct dg_shape want;
   if ((result = dg_op_argmax_shape(c, &want)) != VK_SUCCESS)
      return result;
   if (!dg_shape_equal(&want, &c->out.shape)) {
      char a[96], b[96];
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "ERROR_IF(flatten(left_shape, right_shape) != shape): the output is %s, "
                        "the input without dimension %u is %s",
                        dg_shape_str(&c->out.shape, a, sizeof(a)), axis,
                        dg_shape_str(&want, b, sizeof(b)));
   }
   return VK_SUCCESS;
}

/* ---- passes --------------------------------------------------------------------------------- */

static uint32_t
pow2_at_least(uint64_t v)
{
   uint32_t p = 1;
   while (p < v && p < DG_REDUCE_WG)
      p *= 2;
   return p;
}

static VkResult
reduce_build(struct dg_build *b, const struct dg_node *n, uint32_t axis, uint32_t nan_mode,
             bool argmax)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *in = dg_node_input(g, n, 0);
   const struct dg_shape *s = &in->ty.shape;
   if (axis >= s->rank)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: axis %u of a rank-%u input", n->name,
                       n->result_id, axis, s->rank);
   uint64_t outer = 1, inner = 1, len = (uint64_t)s->dim[axis];
   for (uint32_t d = 0; d < s->rank; d++) {
      if (d < axis)
         outer *= (uint64_t)s->dim[d];
      else if (d > axis)
         inner *= (uint64_t)s->dim[d];
   }
   enum dg_type scratch_type =
       !argmax && dg_type_is_float(in->ty.type) ? DG_TYPE_FP32 : DG_TYPE_I32;
   uint32_t pair = argmax ? 2 : 1;
   uint32_t kernel = dg_build_kernel(b, n);
   uint32_t src = dg_node_input_index(g, n, 0), dst_final = dg_node_output_index(g, n, 0);
   bool in_scratch = false;
   uint32_t in_axis = axis;
   for (uint32_t pass = 0;; pass++) {
      uint32_t ty_max = DG_REDUCE_WG;
      if (inner > 1)
         ty_max = DG_REDUCE_WG / pow2_at_least(inner < 64 ? inner : 64);
      uint32_t ty = pow2_at_least((len + DG_REDUCE_ITEMS - 1) / DG_REDUCE_ITEMS);
      if (ty > ty_max)
         ty = ty_max;
      uint32_t tx = DG_REDUCE_WG / ty;
      uint64_t chunk_max = (uint64_t)ty * DG_REDUCE_ITEMS;
      uint64_t chunks = (len + chunk_max - 1) / chunk_max;
      uint64_t chunk = (len + chunks - 1) / chunks;
      uint64_t lanes = outer * inner;
      uint64_t lane_groups = (lanes + tx - 1) / tx;
      uint64_t work = lane_groups * chunks * DG_REDUCE_WG;
      if (work > UINT32_MAX || lanes > UINT32_MAX || pass > 8)
         return lyr_error(VK_ERROR_UNKNOWN,
                          "TOSA %s %%%u: %" PRIu64 " x %" PRIu64 " x %" PRIu64
                          " is too large for one dispatch of the reduction",
                          n->name, n->result_id, outer, len, inner);
      struct dg_reduce_args a = {
          .axis = in_axis,
          .nan_mode = nan_mode,
          .flags = (in_scratch ? DG_REDUCE_IN_SCRATCH : 0u) | (inner == 1 ? DG_REDUCE_ROWS : 0u),
          .tx = tx,
          .ty = ty,
          .n = (uint32_t)len,
          .chunk = (uint32_t)chunk,
          .chunks = (uint32_t)chunks,
          .inner = (uint32_t)inner,
          .lanes = (uint32_t)lanes,
          .lane_groups = (uint32_t)lane_groups,
      };
      uint32_t dst = dst_final;
      if (chunks > 1) {
         struct dg_shape ss = {.rank = 3,
                               .dim = {(int64_t)outer, (int64_t)chunks, (int64_t)(inner * pair)}};
         VkResult result = dg_build_add_scratch(b, scratch_type, &ss, &dst);
         if (result != VK_SUCCESS)
            return result;
         a.flags |= DG_REDUCE_OUT_SCRATCH | DG_REDUCE_OUT_KEEP;
         a.out_axis = 1;
      } else {
         /* The reductions keep the axis (size 1); ARGMAX drops it. */
         a.flags |= argmax ? 0u : DG_REDUCE_OUT_KEEP;
         a.out_axis = axis;
      }
      uint32_t tensors[DG_REDUCE_TENSORS] = {[DG_REDUCE_INPUT] = src, [DG_REDUCE_OUTPUT] = dst};
      VkResult result = dg_build_add_stage(b, kernel, tensors, DG_REDUCE_TENSORS,
                                           1u << DG_REDUCE_OUTPUT, &a, sizeof(a), work);
      if (result != VK_SUCCESS || chunks == 1)
         return result;
      src = dst;
      in_scratch = true;
      in_axis = 1;
      len = chunks;
   }
}

#define DG_REDUCE_BUILD_FN(name, nan)                                                              \
   VkResult dg_op_##name##_build(struct dg_build *b, const struct dg_node *n)                      \
   {                                                                                               \
      return reduce_build(b, n, n->attrs.name.axis, nan, false);                                   \
   }
DG_REDUCE_BUILD_FN(reduce_all, DG_NAN_PROPAGATE)
DG_REDUCE_BUILD_FN(reduce_any, DG_NAN_PROPAGATE)
DG_REDUCE_BUILD_FN(reduce_max, n->attrs.reduce_max.nan_mode)
DG_REDUCE_BUILD_FN(reduce_min, n->attrs.reduce_min.nan_mode)
DG_REDUCE_BUILD_FN(reduce_product, DG_NAN_PROPAGATE)
DG_REDUCE_BUILD_FN(reduce_sum, DG_NAN_PROPAGATE)

VkResult
dg_op_argmax_build(struct dg_build *b, const struct dg_node *n)
{
   return reduce_build(b, n, n->attrs.argmax.axis, n->attrs.argmax.nan_mode, true);
}
