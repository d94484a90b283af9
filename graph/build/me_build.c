/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build of the Motion Engine operators MIN_SAD, MIN_SAD_COST and RAW_SAD
 * (BUILD CUSTOM in graph/ops/me_ops.def; D47): one dispatch of the row's
 * block_match kernel (shaders/graph/motion_engine/block_match.comp) with one
 * work item per block position (n, c, oy, ox), which runs the whole search
 * window of that block. Tensors in binding order: input0 (template), input1
 * (search), result 0 (motion vectors, or RAW_SAD's costs), and for
 * MIN_SAD_COST result 1 (the minimum costs).
 */
#include "dg_build.h"
#include "dg_op.h"

static VkResult
me_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_op_info *op = dg_op_get((enum dg_op)n->op);
   const struct dg_tensor *in = dg_node_input(g, n, 0);
   if (n->input_count != 2 || n->output_count < 1 || n->output_count > 2 ||
       in->ty.shape.rank != 4 || !op)
      return lyr_error(VK_ERROR_UNKNOWN, "Arm.MotionEngine.100 %s %%%u: not two [N,C,H,W] inputs",
                       n->name, n->result_id);
   uint32_t tensors[4], count = 0;
   tensors[count++] = dg_node_input_index(g, n, 0);
   tensors[count++] = dg_node_input_index(g, n, 1);
   for (uint32_t i = 0; i < n->output_count; i++)
      tensors[count++] = dg_node_output_index(g, n, i);
   /* The block positions: result 0 of RAW_SAD is [N, C*S, OH, OW], MIN_SAD's [N, C, OH, 2*OW];
    * the costs of MIN_SAD_COST [N, C, OH, OW]. Positions = N * C * OH * OW either way. */
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const int64_t *d = out->ty.shape.dim;
   uint64_t positions = (uint64_t)in->ty.shape.dim[0] * (uint64_t)in->ty.shape.dim[1] *
                        (uint64_t)d[2] * (uint64_t)(n->op == DG_OP_RAW_SAD ? d[3] : d[3] / 2);
   uint32_t writes = n->output_count == 2 ? 0xcu : 0x4u;
   return dg_build_add_stage(b, dg_build_kernel(b, n), tensors, count, writes, n->attrs.word,
                             4 * op->attr_count, positions);
}

VkResult
dg_op_min_sad_build(struct dg_build *b, const struct dg_node *n)
{
   return me_build(b, n);
}

VkResult
dg_op_min_sad_cost_build(struct dg_build *b, const struct dg_node *n)
{
   return me_build(b, n);
}

VkResult
dg_op_raw_sad_build(struct dg_build *b, const struct dg_node *n)
{
   return me_build(b, n);
}
