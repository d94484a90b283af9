/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build of MAX_POOL2D and AVG_POOL2D (BUILD CUSTOM in
 * graph/ops/tosa_ops.def): one dispatch of the row's kernel whose work item
 * is DG_POOL_ITEMS consecutive channels of one output position
 * (shaders/common/dg_pool.glsl), so N * OH * OW * ceil(C / DG_POOL_ITEMS)
 * work items.
 */
#include "dg_build.h"

/* The kernels' DG_POOL_ITEMS (their DG_KERNEL defines in tosa_ops.def). */
#define DG_POOL_ITEMS 4

static VkResult
pool_build(struct dg_build *b, const struct dg_node *n, const void *attrs, uint32_t attr_size)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const int64_t *d = out->ty.shape.dim;
   if (out->ty.shape.rank != 4)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: output is not NHWC", n->name, n->result_id);
   uint64_t groups = ((uint64_t)d[3] + DG_POOL_ITEMS - 1) / DG_POOL_ITEMS;
   uint32_t tensors[2] = {dg_node_input_index(g, n, 0), dg_node_output_index(g, n, 0)};
   return dg_build_add_stage(b, dg_build_kernel(b, n), tensors, 2, 1u << 1, attrs, attr_size,
                             (uint64_t)d[0] * (uint64_t)d[1] * (uint64_t)d[2] * groups);
}

VkResult
dg_op_max_pool2d_build(struct dg_build *b, const struct dg_node *n)
{
   return pool_build(b, n, &n->attrs.max_pool2d, sizeof(n->attrs.max_pool2d));
}

VkResult
dg_op_avg_pool2d_build(struct dg_build *b, const struct dg_node *n)
{
   return pool_build(b, n, &n->attrs.avg_pool2d, sizeof(n->attrs.avg_pool2d));
}
