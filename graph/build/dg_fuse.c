/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Epilogue fusion on the stage plan (D52): the elementwise operators that follow a producer
 * node, each the only consumer of the one before, become the producer stage's epilogue
 * (kernel_abi/gemm_epilogue.h) instead of stages of their own; their intermediates are never
 * planned (no memory, no barrier). The producer's build (graph/build/gemm_build.c) asks for
 * the chain, takes its kernel's _EPI variant and binds the chain's last tensor as its output.
 *
 * A node joins the chain when the tensor before it is an intermediate (no graph output) whose
 * one use in the whole graph is an input of this node, the next node in module order; the
 * node is RESCALE, CLAMP, ADD, SUB, MUL, SIGMOID, TANH or CAST with one output of the
 * producer's shape, its types ones the epilogue computes exactly as the operator's own kernel
 * (integers of 8 to 32 bits, fp16, bf16, fp32: RESCALE int to int, CLAMP, ADD/SUB/MUL with
 * equal input and output types and the other operand of the same rank, each dimension the
 * output's or 1, SIGMOID/TANH on floats, CAST between those types). The chain stops at the
 * first node that is not, at DG_EPI_MAX_OPS operators, or when its extra tensors would exceed
 * DG_EPI_TENSORS.
 *
 * The same chains, starting at an elementwise node whose input 0 has its output's shape and
 * at least two long, run as one dispatch of ew_chain.comp (dg_fuse_elementwise(), before the
 * node's own build): a chain kernel with the same epilogue, whose value is the loaded input;
 * not on a CPU device (dg_build_cpu_device()), where the operators' vectorized kernels are
 * faster than one generic element per invocation.
 */
#include "dg_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dg_op.h"
#include "kernel_abi/tosa_args.h"
#include "vmel_kernels_graph.h"

#define DG_FUSION_ENV "VMEL_GRAPH_FUSION"

enum dg_fusion_mode
dg_fusion_from_env(void)
{
   const char *v = getenv(DG_FUSION_ENV);
   if (v && strcmp(v, "0") == 0)
      return DG_FUSION_OFF;
   if (v && strcmp(v, "1") == 0)
      return DG_FUSION_ON;
   return DG_FUSION_AUTO;
}

static const char *
epi_op_name(uint32_t op)
{
   static const char *const names[] = {
      [DG_EPI_RESCALE] = "RESCALE", [DG_EPI_CLAMP] = "CLAMP",     [DG_EPI_ADD] = "ADD",
      [DG_EPI_SUB] = "SUB",         [DG_EPI_MUL] = "MUL",         [DG_EPI_SIGMOID] = "SIGMOID",
      [DG_EPI_TANH] = "TANH",       [DG_EPI_CAST] = "CAST",
   };
   return op < sizeof(names) / sizeof(names[0]) && names[op] ? names[op] : "?";
}

const char *
dg_plan_stage_name(const struct dg_plan_stage *s, const char *op_name, char *buf, size_t size)
{
   if (!s->epi[0] || s->epi[0] > DG_EPI_MAX_OPS || size == 0)
      return op_name;
   /* A chain kernel's first operator is its first node (ew_chain.comp): as many nodes as
    * operators. */
   bool self = s->node_count == s->epi[0];
   int n = self ? 0 : snprintf(buf, size, "%s", op_name);
   for (uint32_t j = 0; j < s->epi[0] && n >= 0 && (size_t)n < size; j++) {
      uint32_t w0 = s->epi[1 + DG_EPI_OP_WORDS * j];
      n += snprintf(buf + n, size - (size_t)n, "%s%s", n ? "+" : "",
                    epi_op_name(DG_EPI_OP_OF(w0)));
   }
   return buf;
}

/* Types the epilogue holds and stores exactly. */
static bool
epi_type(enum dg_type t)
{
   return t == DG_TYPE_I8 || t == DG_TYPE_I16 || t == DG_TYPE_I32 || t == DG_TYPE_FP16 ||
          t == DG_TYPE_BF16 || t == DG_TYPE_FP32;
}

/* The node index of the one use of IR tensor t, or DG_PLAN_NONE: a graph output, no use or
 * several (two inputs of one node count twice). */
static uint32_t
single_consumer(const struct dg_graph *g, uint32_t t)
{
   if (g->tensors[t].kind != DG_TENSOR_NODE)
      return DG_PLAN_NONE;
   for (uint32_t i = 0; i < g->output_count; i++)
      if (g->outputs[i].tensor == t)
         return DG_PLAN_NONE;
   uint32_t found = DG_PLAN_NONE;
   for (uint32_t m = 0; m < g->node_count; m++) {
      const struct dg_node *n = &g->nodes[m];
      for (uint32_t i = 0; i < n->input_count; i++) {
         if (dg_node_input_index(g, n, i) != t)
            continue;
         if (found != DG_PLAN_NONE)
            return DG_PLAN_NONE;
         found = m;
      }
   }
   return found;
}

/* Whether `other` broadcasts to `shape` elementwise (same rank, each dimension equal or 1). */
static bool
broadcasts(const struct dg_shape *other, const struct dg_shape *shape)
{
   if (other->rank != shape->rank || shape->rank > 4)
      return false;
   for (uint32_t d = 0; d < shape->rank; d++)
      if (other->dim[d] != shape->dim[d] && other->dim[d] != 1)
         return false;
   return true;
}

/* Op j of the chain: word 0 and its other words. */
static void
set_op(struct dg_fuse_chain *c, uint32_t op, enum dg_type out, uint32_t tensor, uint32_t flags,
       uint32_t w1, uint32_t w2, uint32_t w3)
{
   uint32_t *w = &c->epi[1 + DG_EPI_OP_WORDS * c->epi[0]];
   w[0] = DG_EPI_WORD0(op, (uint32_t)out, tensor, flags);
   w[1] = w1;
   w[2] = w2;
   w[3] = w3;
   c->epi[0]++;
}

/* Adds node m (consuming IR tensor t of type `in`) to the chain when the epilogue computes it;
 * *added false, changing nothing, otherwise. Without `commit`, RESCALE adds no constant (a
 * placeholder reference: the chain is only measured). */
static VkResult
add_node(struct dg_build *b, const struct dg_node *m, uint32_t t, enum dg_type in,
         const struct dg_shape *shape, bool commit, struct dg_fuse_chain *c, bool *added)
{
   const struct dg_graph *g = dg_build_graph(b);
   *added = false;
   if (m->output_count != 1)
      return VK_SUCCESS;
   const struct dg_tensor *out = dg_node_output(g, m, 0);
   enum dg_type ot = out->ty.type;
   if (!epi_type(ot) || !dg_shape_equal(&out->ty.shape, shape))
      return VK_SUCCESS;
   bool in_float = dg_type_is_float(in), out_float = dg_type_is_float(ot);
   uint32_t tensors = c->tensor_count;
   switch ((enum dg_op)m->op) {
   case DG_OP_RESCALE: {
      const struct dg_attrs_rescale *a = &m->attrs.rescale;
      if (in_float || out_float || tensors + 2 > DG_EPI_TENSORS || !m->scales.channels ||
          !m->scales.multiplier || !m->scales.shift)
         return VK_SUCCESS;
      struct dg_shape sh = {.rank = 1, .dim = {m->scales.channels}};
      uint32_t mul = DG_PLAN_NONE, shift = DG_PLAN_NONE;
      VkResult r = VK_SUCCESS;
      if (commit)
         r = dg_build_add_constant(b, DG_TYPE_I32, &sh, m->scales.multiplier, &mul);
      if (commit && r == VK_SUCCESS)
         r = dg_build_add_constant(b, DG_TYPE_I8, &sh, m->scales.shift, &shift);
      if (r != VK_SUCCESS)
         return r;
      c->tensors[c->tensor_count++] = mul;
      c->tensors[c->tensor_count++] = shift;
      uint32_t flags = (a->scale32 ? DG_EPI_RESCALE_SCALE32 : 0) |
                       (a->rounding_mode == DG_ROUND_DOUBLE ? DG_EPI_RESCALE_DOUBLE_ROUND : 0) |
                       (a->per_channel ? DG_EPI_RESCALE_PER_CHANNEL : 0) |
                       (a->input_unsigned ? DG_EPI_RESCALE_INPUT_UNSIGNED : 0) |
                       (a->output_unsigned ? DG_EPI_RESCALE_OUTPUT_UNSIGNED : 0);
      set_op(c, DG_EPI_RESCALE, ot, tensors, 0, flags, (uint32_t)a->input_zp,
             (uint32_t)a->output_zp);
      break;
   }
   case DG_OP_CLAMP:
      if (ot != in)
         return VK_SUCCESS;
      set_op(c, DG_EPI_CLAMP, ot, 0, 0, m->attrs.clamp.min_val, m->attrs.clamp.max_val,
             m->attrs.clamp.nan_mode);
      break;
   case DG_OP_ADD:
   case DG_OP_SUB:
   case DG_OP_MUL: {
      if (m->input_count != 2 || ot != in || tensors + 1 > DG_EPI_TENSORS)
         return VK_SUCCESS;
      bool swap = dg_node_input_index(g, m, 1) == t;
      uint32_t other = dg_node_input_index(g, m, swap ? 0 : 1);
      const struct dg_tensor *o = &g->tensors[other];
      if (o->ty.type != ot || !broadcasts(&o->ty.shape, shape))
         return VK_SUCCESS;
      if (m->op == DG_OP_MUL && ot != DG_TYPE_I32 && !out_float)
         return VK_SUCCESS;
      uint32_t op = m->op == DG_OP_ADD ? DG_EPI_ADD : m->op == DG_OP_SUB ? DG_EPI_SUB : DG_EPI_MUL;
      c->tensors[c->tensor_count++] = other;
      set_op(c, op, ot, tensors, swap ? DG_EPI_SWAP : 0,
             m->op == DG_OP_MUL ? (uint32_t)m->attrs.mul.shift : 0, 0, 0);
      break;
   }
   case DG_OP_SIGMOID:
   case DG_OP_TANH:
      if (!out_float || ot != in)
         return VK_SUCCESS;
      set_op(c, m->op == DG_OP_SIGMOID ? DG_EPI_SIGMOID : DG_EPI_TANH, ot, 0, 0, 0, 0, 0);
      break;
   case DG_OP_CAST:
      set_op(c, DG_EPI_CAST, ot, 0, 0, 0, 0, 0);
      break;
   default:
      return VK_SUCCESS;
   }
   *added = true;
   return VK_SUCCESS;
}

/* The chain from node `first`: with `self`, first is its first operator (consuming its input
 * 0), else the chain starts after it (consuming its output); at most max_nodes nodes after
 * first. */
static VkResult
build_chain(struct dg_build *b, const struct dg_node *first, bool self, uint32_t max_nodes,
            bool commit, struct dg_fuse_chain *c)
{
   const struct dg_graph *g = dg_build_graph(b);
   memset(c, 0, sizeof(*c));
   c->output = first->output_count == 1 ? dg_node_output_index(g, first, 0) : DG_PLAN_NONE;
   if (!dg_build_fusion(b) || c->output == DG_PLAN_NONE || (self && first->input_count == 0))
      return VK_SUCCESS;
   const struct dg_shape shape = g->tensors[c->output].ty.shape;
   uint32_t t = self ? dg_node_input_index(g, first, 0) : c->output;
   enum dg_type type = g->tensors[t].ty.type;
   if (!epi_type(type) || !dg_shape_equal(&g->tensors[t].ty.shape, &shape) || shape.rank > 4)
      return VK_SUCCESS;
   uint32_t index = (uint32_t)(first - g->nodes);
   if (self) {
      bool added;
      VkResult result = add_node(b, first, t, type, &shape, commit, c, &added);
      if (result != VK_SUCCESS || !added)
         return result;
      t = c->output;
      type = g->tensors[t].ty.type;
   }
   while (c->epi[0] < DG_EPI_MAX_OPS && c->nodes < max_nodes) {
      uint32_t m = single_consumer(g, t);
      if (m != index + 1 + c->nodes)
         break;
      bool added;
      VkResult result = add_node(b, &g->nodes[m], t, type, &shape, commit, c, &added);
      if (result != VK_SUCCESS)
         return result;
      if (!added)
         break;
      c->nodes++;
      t = dg_node_output_index(g, &g->nodes[m], 0);
      type = g->tensors[t].ty.type;
      c->output = t;
   }
   return VK_SUCCESS;
}

VkResult
dg_fuse_chain(struct dg_build *b, const struct dg_node *n, struct dg_fuse_chain *c)
{
   return build_chain(b, n, false, UINT32_MAX, true, c);
}

/* The chain kernel for an input of `type` (ew_chain.comp), or DG_PLAN_NONE. */
static uint32_t
chain_kernel(enum dg_type type)
{
   switch (type) {
   case DG_TYPE_I8:
      return DG_KERNEL_TOSA_EW_CHAIN_I8;
   case DG_TYPE_I16:
      return DG_KERNEL_TOSA_EW_CHAIN_I16;
   case DG_TYPE_I32:
      return DG_KERNEL_TOSA_EW_CHAIN_I32;
   case DG_TYPE_FP16:
      return DG_KERNEL_TOSA_EW_CHAIN_FP16;
   case DG_TYPE_BF16:
      return DG_KERNEL_TOSA_EW_CHAIN_BF16;
   case DG_TYPE_FP32:
      return DG_KERNEL_TOSA_EW_CHAIN_FP32;
   default:
      return DG_PLAN_NONE;
   }
}

VkResult
dg_fuse_elementwise(struct dg_build *b, const struct dg_node *n, bool *built)
{
   *built = false;
   /* A CPU device runs the operators' own kernels faster (vectorized, several elements per
    * invocation): measured on lavapipe, D52. */
   if (dg_build_cpu_device(b))
      return VK_SUCCESS;
   struct dg_fuse_chain c;
   /* Measured first: the RESCALE constants are added only for a chain that is taken. */
   VkResult result = build_chain(b, n, true, UINT32_MAX, false, &c);
   if (result != VK_SUCCESS || c.nodes == 0)
      return result;
   const struct dg_graph *g = dg_build_graph(b);
   uint32_t in = dg_node_input_index(g, n, 0);
   uint32_t kernel = chain_kernel(g->tensors[in].ty.type);
   if (kernel == DG_PLAN_NONE)
      return VK_SUCCESS;
   result = build_chain(b, n, true, c.nodes, true, &c);
   if (result != VK_SUCCESS)
      return result;
   uint32_t tensors[2 + DG_EPI_TENSORS] = {in, c.output};
   for (uint32_t i = 0; i < DG_EPI_TENSORS; i++)
      tensors[2 + i] = i < c.tensor_count ? c.tensors[i] : in;
   result = dg_build_add_stage(b, kernel, tensors, 2 + DG_EPI_TENSORS, 1u << 1, NULL, 0,
                               dg_shape_elements(&g->tensors[c.output].ty.shape));
   if (result == VK_SUCCESS)
      result = dg_build_set_epilogue(b, c.epi);
   if (result == VK_SUCCESS)
      result = dg_build_fuse_nodes(b, c.nodes);
   *built = result == VK_SUCCESS;
   return result;
}

VkResult
dg_fuse_add_gemm_stage(struct dg_build *b, const struct dg_node *n, uint32_t kernel,
                       enum dg_variant_kind epi_kind, uint32_t *tensors, uint32_t count,
                       uint32_t out, uint32_t attr_size, uint64_t work)
{
   struct dg_fuse_chain chain = {.output = dg_node_output_index(dg_build_graph(b), n, 0)};
   uint32_t epi_kernel = dg_build_fusion(b) ? dg_build_variant(b, n, epi_kind) : DG_PLAN_NONE;
   if (epi_kernel != DG_PLAN_NONE &&
       dg_kernel_local_size(epi_kernel) == dg_kernel_local_size(kernel)) {
      VkResult result = dg_fuse_chain(b, n, &chain);
      if (result != VK_SUCCESS)
         return result;
   }
   tensors[out] = chain.output;
   if (chain.nodes) {
      kernel = epi_kernel;
      for (uint32_t i = 0; i < DG_EPI_TENSORS; i++)
         tensors[count + i] = i < chain.tensor_count ? chain.tensors[i] : tensors[0];
      count += DG_EPI_TENSORS;
   }
   VkResult result = dg_build_add_stage(b, kernel, tensors, count, 1u << out, n->attrs.word,
                                        attr_size, work);
   if (result == VK_SUCCESS && chain.nodes) {
      result = dg_build_set_epilogue(b, chain.epi);
      if (result == VK_SUCCESS)
         result = dg_build_fuse_nodes(b, chain.nodes);
   }
   return result;
}
