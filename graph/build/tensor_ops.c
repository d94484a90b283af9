/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The build functions of the operators declared with BUILD CUSTOM
 * (graph/ops/tosa_ops.def): RESCALE (rescale.comp, with its multipliers and
 * shifts as small constant tensors), RESHAPE and CONCAT (copy.comp, one work
 * item per input element; along the outermost axis of intermediates, aliases at
 * byte offsets instead: D34 (gs)), SLICE (the same aliases, else its kernel).
 * Every other operator is one dispatch of its row's kernel (dg_build_default()).
 */
#include "dg_build.h"

#include <stdio.h>

VkResult
dg_op_rescale_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const struct dg_node_scales *sc = &n->scales;

   /* The compile-time-constant multiplier and shift go to the kernel as
    * constant tensors of NC elements (kernel_abi/tosa_args.h). */
   if (!sc->channels || !sc->multiplier || !sc->shift)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: no decoded scales", n->name,
                       n->result_id);
   struct dg_shape shape = {.rank = 1, .dim = {sc->channels}};
   uint32_t multiplier, shift;
   VkResult result = dg_build_add_constant(b, DG_TYPE_I32, &shape, sc->multiplier, &multiplier);
   if (result == VK_SUCCESS)
      result = dg_build_add_constant(b, DG_TYPE_I8, &shape, sc->shift, &shift);
   if (result != VK_SUCCESS)
      return result;
   uint32_t tensors[DG_RESCALE_TENSORS] = {
      [DG_RESCALE_INPUT] = dg_node_input_index(g, n, 0),
      [DG_RESCALE_MULTIPLIER] = multiplier,
      [DG_RESCALE_SHIFT] = shift,
      [DG_RESCALE_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   return dg_build_add_stage(b, dg_build_kernel(b, n), tensors, DG_RESCALE_TENSORS,
                             1u << DG_RESCALE_OUTPUT, &n->attrs.rescale, sizeof(n->attrs.rescale),
                             dg_shape_elements(&out->ty.shape));
}

/* SLICE along the outermost axis of a packed intermediate (start and size whole on every other
 * axis, or only axes of size 1 before it) is a range of its bytes: an alias at that offset
 * (D34 (gs)); any other SLICE is the kernel's copy. */
VkResult
dg_op_slice_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *in = dg_node_input(g, n, 0), *out = dg_node_output(g, n, 0);
   const struct dg_attrs_slice *a = &n->attrs.slice;
   const uint32_t start[DG_MAX_RANK] = {a->start0, a->start1, a->start2,
                                        a->start3, a->start4, a->start5};
   uint32_t rank = in->ty.shape.rank, axis = 0;
   bool range = rank >= 1 && rank <= DG_MAX_RANK && out->ty.shape.rank == rank;
   while (range && axis + 1 < rank && in->ty.shape.dim[axis] == 1)
      axis++;
   uint64_t offset = range ? start[axis] : 0;
   for (uint32_t d = axis + 1; range && d < rank; d++) {
      range = start[d] == 0 && out->ty.shape.dim[d] == in->ty.shape.dim[d];
      offset *= (uint64_t)in->ty.shape.dim[d];
   }
   if (range &&
       dg_build_try_alias_at(b, dg_node_input_index(g, n, 0), dg_node_output_index(g, n, 0),
                             offset * dg_type_size(in->ty.type)))
      return VK_SUCCESS;
   return dg_build_default(b, n);
}

VkResult
dg_op_reshape_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   uint32_t in = dg_node_input_index(g, n, 0), out = dg_node_output_index(g, n, 0);
   /* A packed intermediate in a new shape is the same bytes: no dispatch. */
   if (dg_build_try_alias(b, in, out))
      return VK_SUCCESS;
   return dg_build_copy(b, in, out, DG_COPY_RESHAPE, 0, 0);
}

/* Whether `axis` is the outermost one that is not 1: a range of `axis` is contiguous bytes. */
static bool
outermost(const struct dg_shape *shape, uint32_t axis)
{
   for (uint32_t d = 0; d < axis; d++)
      if (shape->dim[d] != 1)
         return false;
   return true;
}

VkResult
dg_op_concat_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   uint32_t axis = n->attrs.concat.axis;
   uint64_t offset = 0;
   for (uint32_t i = 0; i < n->input_count; i++) {
      const struct dg_tensor *in = dg_node_input(g, n, i);
      if (axis >= in->ty.shape.rank || offset > UINT32_MAX)
         return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: axis %u of a rank-%u input, or an "
                          "offset past 32 bits",
                          n->name, n->result_id, axis, in->ty.shape.rank);
      /* Along the outermost axis (every axis before it of size 1) a packed part is a range
       * of the output's bytes: its producer writes it in place (D34 (gs)). */
      if (outermost(&in->ty.shape, axis)) {
         uint64_t row = dg_type_size(in->ty.type);
         for (uint32_t d = axis + 1; d < in->ty.shape.rank; d++)
            row *= (uint64_t)in->ty.shape.dim[d];
         if (dg_build_try_alias_at(b, dg_node_output_index(g, n, 0), dg_node_input_index(g, n, i),
                                   offset * row)) {
            offset += (uint64_t)in->ty.shape.dim[axis];
            continue;
         }
      }
      VkResult result = dg_build_copy(b, dg_node_input_index(g, n, i),
                                      dg_node_output_index(g, n, 0), DG_COPY_CONCAT, axis,
                                      (uint32_t)offset);
      if (result != VK_SUCCESS)
         return result;
      dg_build_mark_disjoint_writes(b);
      offset += (uint64_t)in->ty.shape.dim[axis];
   }
   return VK_SUCCESS;
}
