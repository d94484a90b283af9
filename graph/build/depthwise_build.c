/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build of DEPTHWISE_CONV2D (BUILD CUSTOM in graph/ops/tosa_ops.def): on a CPU device
 * the ROW_BLOCK variant (depthwise_conv2d_rows.comp, D64: lavapipe reads each kernel row's
 * input window once for 8 output pixels) where it applies, else the row's kernel over the
 * output's elements (dg_build_default(): 4 channels of one pixel per work item).
 */
#include "dg_build.h"

#include "kernel_abi/depthwise_args.h"

/* Whether the ROW_BLOCK kernel computes node n: a channel multiplier of 1, channels a multiple
 * of 4 (a work item's 4 channels are one pixel's, the same input channels), and a window of
 * (DG_DW_TX - 1) * stride_x + (KW - 1) * dilation_x + 1 pixels within DG_DW_WMAX. */
static bool
row_block_fits(const struct dg_graph *g, const struct dg_node *n)
{
   const struct dg_attrs_depthwise_conv2d *a = &n->attrs.depthwise_conv2d;
   const struct dg_tensor *w = dg_node_input(g, n, 1);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   if (w->ty.shape.rank != 4 || out->ty.shape.rank != 4)
      return false;
   const int64_t *k = w->ty.shape.dim;
   if (k[3] != 1 || k[2] % 4 != 0 || out->ty.shape.dim[3] != k[2])
      return false;
   int64_t window = (int64_t)(DG_DW_TX - 1) * a->stride_x + (k[1] - 1) * a->dilation_x + 1;
   return window <= DG_DW_WMAX;
}

VkResult
dg_op_depthwise_conv2d_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   uint32_t kernel = DG_PLAN_NONE;
   if (dg_build_cpu_device(b) && n->input_count == 3 && row_block_fits(g, n))
      kernel = dg_build_variant(b, n, DG_VARIANT_ROW_BLOCK);
   if (kernel == DG_PLAN_NONE)
      return dg_build_default(b, n);
   const int64_t *d = dg_node_output(g, n, 0)->ty.shape.dim;
   uint64_t blocks = ((uint64_t)d[2] + DG_DW_TX - 1) / DG_DW_TX;
   uint64_t work = (uint64_t)d[0] * (uint64_t)d[1] * blocks * ((uint64_t)d[3] / 4);
   uint32_t tensors[4] = {dg_node_input_index(g, n, 0), dg_node_input_index(g, n, 1),
                          dg_node_input_index(g, n, 2), dg_node_output_index(g, n, 0)};
   return dg_build_add_stage(b, kernel, tensors, 4, 1u << 3, &n->attrs.depthwise_conv2d,
                             sizeof(n->attrs.depthwise_conv2d), work);
}
