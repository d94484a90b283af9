/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Builds of the data-movement operators whose grid is not the default one:
 * TRANSPOSE's tiled path (docs/decisions.md D33) dispatches one 64-invocation
 * workgroup per 32 x 16 tile, partial tiles at the edges included.
 */
#include "dg_build.h"

#include "dg_op.h"

/* Tile edges of transpose.comp (DG_TR_TA along the output's innermost axis, DG_TR_TB along
 * output axis tile_axis - 1) and its workgroup size. */
#define TR_TA 32u
#define TR_TB 16u
#define TR_LANES 64u

VkResult
dg_op_transpose_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_attrs_transpose *t = &n->attrs.transpose;
   if (t->tile_axis == 0)
      return dg_build_default(b, n);
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_shape *shape = &dg_node_output(g, n, 0)->ty.shape;
   uint32_t kernel = dg_build_kernel(b, n);
   if (dg_kernel_local_size(kernel) != TR_LANES)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: the tile needs %u invocations, the "
                       "kernel has %u", n->name, n->result_id, TR_LANES,
                       dg_kernel_local_size(kernel));
   uint64_t tiles = 1;
   for (uint32_t d = 0; d < shape->rank; d++) {
      uint64_t dim = (uint64_t)shape->dim[d];
      uint32_t edge = d + 1 == shape->rank ? TR_TA : d + 1 == t->tile_axis ? TR_TB : 1u;
      tiles *= (dim + edge - 1) / edge;
   }
   if (n->input_count != 1)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: %u tensor inputs, the kernel takes one",
                       n->name, n->result_id, n->input_count);
   uint32_t tensors[2] = {dg_node_input_index(g, n, 0), dg_node_output_index(g, n, 0)};
   return dg_build_add_stage(b, kernel, tensors, 2, 1u << 1, t, sizeof(*t), tiles * TR_LANES);
}
