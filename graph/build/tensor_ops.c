/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Build functions of the TOSA tensor and data-layout operators: MAX_POOL2D
 * (max_pool2d.comp), CONV2D (conv2d.comp), MATMUL (matmul.comp), RESCALE
 * (rescale.comp, with its multipliers and shifts as small constant tensors),
 * RESHAPE and CONCAT (copy.comp). One work item per output element, except
 * the copies (one per input element).
 */
#include "dg_build.h"

#include <stdio.h>

VkResult
dg_op_max_pool2d_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const struct dg_attr_pool2d *a = &n->attrs.pool2d;
   enum dg_type t = out->ty.type;
   char name[64];
   dg_variant_name(name, sizeof(name), "tosa_max_pool2d", &t, 1);
   struct dg_max_pool2d_args args = {
      .kernel_y = a->kernel[0],
      .kernel_x = a->kernel[1],
      .stride_y = a->stride[0],
      .stride_x = a->stride[1],
      .pad_top = a->pad[0],
      .pad_bottom = a->pad[1],
      .pad_left = a->pad[2],
      .pad_right = a->pad[3],
      .nan_mode = a->nan_mode,
   };
   uint32_t tensors[DG_MAX_POOL2D_TENSORS] = {
      [DG_MAX_POOL2D_INPUT] = dg_node_input_index(g, n, 0),
      [DG_MAX_POOL2D_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   return dg_build_add_stage(b, name, tensors, DG_MAX_POOL2D_TENSORS, 1u << DG_MAX_POOL2D_OUTPUT,
                             &args, sizeof(args), dg_shape_elements(&out->ty.shape));
}

static enum dg_type
acc_type(uint32_t acc)
{
   switch (acc) {
   case TOSA_ACC_TYPE_INT32:
      return DG_TYPE_I32;
   case TOSA_ACC_TYPE_FP16:
      return DG_TYPE_FP16;
   case TOSA_ACC_TYPE_FP32:
      return DG_TYPE_FP32;
   case TOSA_ACC_TYPE_INT48:
      return DG_TYPE_I48;
   default:
      return DG_TYPE_INVALID;
   }
}

VkResult
dg_op_conv2d_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *in = dg_node_input(g, n, 0), *w = dg_node_input(g, n, 1);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   const struct dg_attr_conv2d *a = &n->attrs.conv2d;
   enum dg_type types[3] = {in->ty.type, w->ty.type, out->ty.type};
   enum dg_type acc = acc_type(a->acc_type);
   char name[64], full[80];
   dg_variant_name(name, sizeof(name), "tosa_conv2d", types, 3);
   snprintf(full, sizeof(full), "%s_acc_%s%s", name, dg_type_name(acc),
            acc == DG_TYPE_FP16 && dg_build_fp16_arith(b) ? "_fp16arith" : "");
   struct dg_conv2d_args args = {
      .pad_top = a->pad[0],
      .pad_bottom = a->pad[1],
      .pad_left = a->pad[2],
      .pad_right = a->pad[3],
      .stride_y = a->stride[0],
      .stride_x = a->stride[1],
      .dilation_y = a->dilation[0],
      .dilation_x = a->dilation[1],
      .input_zp = (int32_t)a->input_zp,
      .weight_zp = (int32_t)a->weight_zp,
   };
   uint32_t tensors[DG_CONV2D_TENSORS] = {
      [DG_CONV2D_INPUT] = dg_node_input_index(g, n, 0),
      [DG_CONV2D_WEIGHT] = dg_node_input_index(g, n, 1),
      [DG_CONV2D_BIAS] = dg_node_input_index(g, n, 2),
      [DG_CONV2D_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   return dg_build_add_stage(b, full, tensors, DG_CONV2D_TENSORS, 1u << DG_CONV2D_OUTPUT, &args,
                             sizeof(args), dg_shape_elements(&out->ty.shape));
}

VkResult
dg_op_matmul_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *a_in = dg_node_input(g, n, 0), *out = dg_node_output(g, n, 0);
   enum dg_type types[2] = {a_in->ty.type, out->ty.type};
   char name[64], full[80];
   dg_variant_name(name, sizeof(name), "tosa_matmul", types, 2);
   snprintf(full, sizeof(full), "%s%s", name,
            out->ty.type == DG_TYPE_FP16 && dg_build_fp16_arith(b) ? "_fp16arith" : "");
   struct dg_matmul_args args = {
      .a_zp = (int32_t)n->attrs.matmul.a_zp,
      .b_zp = (int32_t)n->attrs.matmul.b_zp,
   };
   uint32_t tensors[DG_MATMUL_TENSORS] = {
      [DG_MATMUL_A] = dg_node_input_index(g, n, 0),
      [DG_MATMUL_B] = dg_node_input_index(g, n, 1),
      [DG_MATMUL_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   return dg_build_add_stage(b, full, tensors, DG_MATMUL_TENSORS, 1u << DG_MATMUL_OUTPUT, &args,
                             sizeof(args), dg_shape_elements(&out->ty.shape));
}

VkResult
dg_op_rescale_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_tensor *in = dg_node_input(g, n, 0), *out = dg_node_output(g, n, 0);
   const struct dg_attr_rescale *a = &n->attrs.rescale;
   enum dg_type types[2] = {in->ty.type, out->ty.type};
   char name[64];
   dg_variant_name(name, sizeof(name), "tosa_rescale", types, 2);

   /* The compile-time-constant multiplier and shift go to the kernel as
    * constant tensors of NC elements (kernel_abi/tosa_args.h). */
   struct dg_shape shape = {.rank = 1, .dim = {a->channels}};
   uint32_t multiplier, shift;
   VkResult result = dg_build_add_constant(b, DG_TYPE_I32, &shape, a->multiplier, &multiplier);
   if (result == VK_SUCCESS)
      result = dg_build_add_constant(b, DG_TYPE_I8, &shape, a->shift, &shift);
   if (result != VK_SUCCESS)
      return result;
   struct dg_rescale_args args = {
      .scale32 = a->scale32,
      .rounding_mode = a->rounding_mode,
      .per_channel = a->per_channel,
      .input_unsigned = a->input_unsigned,
      .output_unsigned = a->output_unsigned,
      .input_zp = (int32_t)a->input_zp,
      .output_zp = (int32_t)a->output_zp,
   };
   uint32_t tensors[DG_RESCALE_TENSORS] = {
      [DG_RESCALE_INPUT] = dg_node_input_index(g, n, 0),
      [DG_RESCALE_MULTIPLIER] = multiplier,
      [DG_RESCALE_SHIFT] = shift,
      [DG_RESCALE_OUTPUT] = dg_node_output_index(g, n, 0),
   };
   return dg_build_add_stage(b, name, tensors, DG_RESCALE_TENSORS, 1u << DG_RESCALE_OUTPUT, &args,
                             sizeof(args), dg_shape_elements(&out->ty.shape));
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

VkResult
dg_op_concat_build(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   uint32_t axis = n->attrs.concat.axis, offset = 0;
   for (uint32_t i = 0; i < n->input_count; i++) {
      const struct dg_tensor *in = dg_node_input(g, n, i);
      VkResult result = dg_build_copy(b, dg_node_input_index(g, n, i),
                                      dg_node_output_index(g, n, 0), DG_COPY_CONCAT, axis, offset);
      if (result != VK_SUCCESS)
         return result;
      dg_build_mark_disjoint_writes(b);
      offset += (uint32_t)in->ty.shape.dim[axis];
   }
   return VK_SUCCESS;
}
