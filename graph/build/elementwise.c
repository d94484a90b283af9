/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Build functions of the elementwise TOSA operators ADD, SUB, MUL (binary.comp)
 * and CLAMP (clamp.comp): one dispatch, one work item per output element.
 */
#include "dg_build.h"

#include <string.h>

static VkResult
build_binary(struct dg_build *b, const struct dg_node *n, const char *prefix, int32_t shift)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *in = dg_node_input(g, n, 0), *out = dg_node_output(g, n, 0);
   enum dg_type types[2] = {in->ty.type, out->ty.type};
   char name[64];
   dg_variant_name(name, sizeof(name), prefix, types, 2);
   uint32_t tensors[DG_BINARY_TENSORS] = {
      [DG_BINARY_INPUT1] = dg_node_input_index(g, n, 0),
      [DG_BINARY_INPUT2] = dg_node_input_index(g, n, 1),
      [DG_BINARY_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   struct dg_binary_args args = {.shift = shift};
   return dg_build_add_stage(b, name, tensors, DG_BINARY_TENSORS, 1u << DG_BINARY_OUTPUT, &args,
                             sizeof(args), dg_shape_elements(&out->ty.shape));
}

VkResult
dg_op_add_build(struct dg_build *b, const struct dg_node *n)
{
   return build_binary(b, n, "tosa_add", 0);
}

VkResult
dg_op_sub_build(struct dg_build *b, const struct dg_node *n)
{
   return build_binary(b, n, "tosa_sub", 0);
}

VkResult
dg_op_mul_build(struct dg_build *b, const struct dg_node *n)
{
   return build_binary(b, n, "tosa_mul", n->attrs.mul.shift);
}

/* The fp32 bits of a float bound (exact for fp16 and bf16, the CLAMP types). */
static uint32_t
fp32_bits(double v)
{
   float f = (float)v;
   uint32_t u;
   memcpy(&u, &f, sizeof(u));
   return u;
}

VkResult
dg_op_clamp_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const struct dg_attr_clamp *a = &n->attrs.clamp;
   enum dg_type t = out->ty.type;
   char name[64];
   dg_variant_name(name, sizeof(name), "tosa_clamp", &t, 1);
   struct dg_clamp_args args = {.nan_mode = a->nan_mode};
   if (dg_type_is_float(t)) {
      args.min_val = fp32_bits(a->min_fp);
      args.max_val = fp32_bits(a->max_fp);
   } else {
      args.min_val = (uint32_t)(int32_t)a->min_int;
      args.max_val = (uint32_t)(int32_t)a->max_int;
   }
   uint32_t tensors[DG_CLAMP_TENSORS] = {
      [DG_CLAMP_INPUT] = dg_node_input_index(g, n, 0),
      [DG_CLAMP_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   return dg_build_add_stage(b, name, tensors, DG_CLAMP_TENSORS, 1u << DG_CLAMP_OUTPUT, &args,
                             sizeof(args), dg_shape_elements(&out->ty.shape));
}
