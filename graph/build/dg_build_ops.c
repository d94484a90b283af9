/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Which build function turns each decoded operator into kernel dispatches
 * (one file per op family in this folder), and the helpers they share. An
 * operator without a build function is rejected at pipeline creation.
 */
#include "dg_build.h"

#include <stdio.h>

#include "dg_op.h"

dg_op_build_fn
dg_op_builder(uint32_t op)
{
   switch (op) {
#define DG_OP(NAME, name)                                                                          \
   case DG_OP_##NAME:                                                                              \
      return dg_op_##name##_build;
#include "dg_ops.def"
#undef DG_OP
   default:
      return NULL;
   }
}

const char *
dg_variant_name(char *buf, size_t size, const char *prefix, const enum dg_type *types,
                uint32_t count)
{
   size_t n = (size_t)snprintf(buf, size, "%s", prefix);
   for (uint32_t i = 0; i < count && n < size; i++) {
      if (i > 0 && types[i] == types[i - 1])
         continue;
      n += (size_t)snprintf(buf + n, size - n, "_%s", dg_type_name(types[i]));
   }
   return buf;
}

uint32_t
dg_node_input_index(const struct dg_graph *g, const struct dg_node *n, uint32_t i)
{
   return g->node_tensors[n->first_input + i];
}

uint32_t
dg_node_output_index(const struct dg_graph *g, const struct dg_node *n, uint32_t i)
{
   return g->node_tensors[n->first_output + i];
}

VkResult
dg_build_copy(struct dg_build *b, uint32_t src, uint32_t dst, uint32_t mode, uint32_t axis,
              uint32_t offset)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor_type *ty =
      src < g->tensor_count ? &g->tensors[src].ty : &g->tensors[dst].ty;
   static const char *const names[] = {[1] = "tosa_copy_u8", [2] = "tosa_copy_u16",
                                       [4] = "tosa_copy_u32", [8] = "tosa_copy_u64"};
   uint32_t size = dg_type_size(ty->type);
   struct dg_copy_args args = {.mode = mode, .axis = axis, .offset = offset};
   uint32_t tensors[DG_COPY_TENSORS] = {[DG_COPY_INPUT] = src, [DG_COPY_OUTPUT] = dst};
   return dg_build_add_stage(b, names[size], tensors, DG_COPY_TENSORS, 1u << DG_COPY_OUTPUT,
                             &args, sizeof(args), dg_shape_elements(&ty->shape));
}

VkResult
dg_build_output_copy(struct dg_build *b, const struct dg_graph_io *io)
{
   uint32_t dst;
   VkResult result = dg_build_output_value(b, io, &dst);
   if (result != VK_SUCCESS)
      return result;
   return dg_build_copy(b, io->tensor, dst, DG_COPY_RESHAPE, 0, 0);
}
