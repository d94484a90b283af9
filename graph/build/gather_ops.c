/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build function of TOSA SCATTER (tosa_ops.def; decision D34 (gs)): three dispatches
 * around a winner table last[N,K] of u32 in session scratch,
 *   1. last = 0 (scatter_last.comp, pass 0, N*K work items);
 *   2. atomicMax(last[n, indices[n,w]], w + 1) for every in-range index (pass 1, N*W);
 *   3. values_out[n,k,:] from input[n, last - 1, :] or values_in[n,k,:] (scatter.comp on the
 *      data-movement driver, 8 output elements per work item).
 * Every output element is written once, by the third dispatch, so duplicate indices give the
 * largest w whatever order the atomics ran in, and values_out may share nothing with the
 * sources' writes. The table costs 4 * N * K bytes of transient session memory.
 */
#include "dg_build.h"

#include "vmel_kernels_graph.h"

VkResult
dg_op_scatter_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *values = dg_node_input(g, n, 0);
   const struct dg_tensor *indices = dg_node_input(g, n, 1);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   struct dg_shape table = {.rank = 2, .dim = {values->ty.shape.dim[0], values->ty.shape.dim[1]}};
   uint32_t last;
   VkResult result = dg_build_add_scratch(b, DG_TYPE_I32, &table, &last);
   if (result != VK_SUCCESS)
      return result;

   uint32_t pass[DG_SCATTER_LAST_TENSORS] = {
       [DG_SCATTER_LAST_INDICES] = dg_node_input_index(g, n, 1),
       [DG_SCATTER_LAST_TABLE] = last,
   };
   uint32_t none = 0;
   if ((result = dg_build_add_stage(b, DG_KERNEL_TOSA_SCATTER_LAST_INIT, pass,
                                    DG_SCATTER_LAST_TENSORS, 1u << DG_SCATTER_LAST_TABLE, &none, 0,
                                    dg_shape_elements(&table))) != VK_SUCCESS ||
       (result = dg_build_add_stage(b, DG_KERNEL_TOSA_SCATTER_LAST, pass, DG_SCATTER_LAST_TENSORS,
                                    1u << DG_SCATTER_LAST_TABLE, &none, 0,
                                    dg_shape_elements(&indices->ty.shape))) != VK_SUCCESS)
      return result;

   uint32_t tensors[DG_SCATTER_LAST + 1] = {
       [DG_SCATTER_VALUES_IN] = dg_node_input_index(g, n, 0),
       [DG_SCATTER_INDICES] = dg_node_input_index(g, n, 1),
       [DG_SCATTER_INPUT] = dg_node_input_index(g, n, 2),
       [DG_SCATTER_OUTPUT] = dg_node_output_index(g, n, 0),
       [DG_SCATTER_LAST] = last,
   };
   /* ELEMENTS8: the data-movement driver's DG_EW_ITEMS (tosa_ops.def DG_TEMPLATE_GRID). */
   return dg_build_add_stage(b, dg_build_kernel(b, n), tensors, DG_SCATTER_LAST + 1,
                             1u << DG_SCATTER_OUTPUT, &none, 0,
                             (dg_shape_elements(&out->ty.shape) + 7) / 8);
}
