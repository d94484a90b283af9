/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build of the Motion Engine operators MIN_SAD, MIN_SAD_COST and RAW_SAD
 * (BUILD CUSTOM in graph/ops/me_ops.def; D47): one dispatch of the row's
 * block_match kernel (shaders/graph/motion_engine/block_match.comp): where a
 * tile of DG_ME_TILE x DG_ME_TILE blocks' template and search regions fit
 * shared memory (kernel_abi/me_tile.h), its tiled variant with a workgroup per
 * tile; otherwise one work item per block position (n, c, oy, ox) reading the
 * frames directly. Either runs the whole search window of each block. Tensors in binding order:
 * input0 (template), input1 (search), result 0 (motion vectors, or RAW_SAD's costs), and for
 * MIN_SAD_COST result 1 (the minimum costs).
 */
#include "dg_build.h"

#include <stddef.h>

#include "dg_op.h"
#include "kernel_abi/me_tile.h"
#include "vmel_kernels_graph.h"

/* Whether a tile's template and search regions fit the tiled variant's shared memory (the
 * kernel's TH, TW, SH, SW and SEARCH_BASE). The attribute words are the same in the three
 * operators' structs. */
static bool
tile_fits(const struct dg_attrs_raw_sad *a)
{
   uint64_t th = (DG_ME_TILE - 1u) * (uint64_t)a->stride_y + a->kernel_h;
   uint64_t tw = (DG_ME_TILE - 1u) * (uint64_t)a->stride_x + a->kernel_w;
   uint64_t sh = th + (uint64_t)(a->search_h - 1u) * a->wstride_y;
   uint64_t sw = tw + (uint64_t)(a->search_w - 1u) * a->wstride_x;
   uint64_t bytes = ((th * tw + 3u) & ~UINT64_C(3)) + sh * sw;
   return bytes <= 4u * (uint64_t)DG_ME_SHARED_WORDS;
}

_Static_assert(sizeof(struct dg_attrs_raw_sad) + 4 == sizeof(struct dg_attrs_min_sad) &&
                   offsetof(struct dg_attrs_min_sad, pad_left) ==
                       offsetof(struct dg_attrs_raw_sad, pad_left) &&
                   offsetof(struct dg_attrs_min_sad_cost, pad_left) ==
                       offsetof(struct dg_attrs_raw_sad, pad_left),
               "the Motion Engine operators' attributes share their first 12 words");

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
   /* The block positions: N * C * OH * OW (result 0 is [N, C*S, OH, OW] for RAW_SAD,
    * [N, C, OH, 2*OW] for the others). */
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const int64_t *d = out->ty.shape.dim;
   uint64_t nc = (uint64_t)in->ty.shape.dim[0] * (uint64_t)in->ty.shape.dim[1];
   uint64_t oh = (uint64_t)d[2], ow = (uint64_t)(n->op == DG_OP_RAW_SAD ? d[3] : d[3] / 2);
   uint32_t writes = n->output_count == 2 ? 0xcu : 0x4u;
   uint32_t kernel = dg_build_kernel(b, n);
   uint64_t work = nc * oh * ow;
   /* A workgroup per tile of blocks from shared memory where the tile's regions fit. */
   if (tile_fits(&n->attrs.raw_sad)) {
      kernel = n->op == DG_OP_MIN_SAD        ? DG_KERNEL_ME_MIN_SAD_TILED
               : n->op == DG_OP_MIN_SAD_COST ? DG_KERNEL_ME_MIN_SAD_COST_TILED
                                             : DG_KERNEL_ME_RAW_SAD_TILED;
      work = nc * ((oh + DG_ME_TILE - 1) / DG_ME_TILE) * ((ow + DG_ME_TILE - 1) / DG_ME_TILE) *
             VMEL_GRAPH_LOCAL_SIZE;
   }
   return dg_build_add_stage(b, kernel, tensors, count, writes, n->attrs.word, 4 * op->attr_count,
                             work);
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
