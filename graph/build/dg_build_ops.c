/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Which build function turns each declared operator into kernel dispatches
 * (graph/ops/tosa_ops.def: BUILD DEFAULT or CUSTOM), the default build, the
 * kernel choice (a row's kernel, or its DG_FAST variant where the device has
 * the features), and the helpers the custom builds share.
 */
#include "dg_build.h"

#include <string.h>

#include "dg_op.h"
#include "vmel_kernels_graph.h"

dg_op_build_fn
dg_op_builder(uint32_t op)
{
   switch (op) {
#define DG_BUILD_FN_DEFAULT(name) dg_build_default
#define DG_BUILD_FN_CUSTOM(name) dg_op_##name##_build
#define DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD)                                             \
   case DG_OP_##NAME:                                                                              \
      return DG_BUILD_FN_##BUILD(name);
#include "dg_decl_expand.h"
#undef DG_BUILD_FN_DEFAULT
#undef DG_BUILD_FN_CUSTOM
   default:
      return NULL;
   }
}

/* The features each kernel needs (DG_KERNEL's FEATURES, without INTERNAL), and the faster
 * variants (DG_FAST) in declaration order. */
static const uint16_t kernel_features[DG_KERNEL_COUNT] = {
#define DG_KERNEL(KERNEL, TEMPLATE, FEATURES, DEFINES) [DG_KERNEL_##KERNEL] = (FEATURES)&0xffu,
#include "dg_decl_expand.h"
};
static const struct {
   uint16_t base, fast;
} fast_variants[] = {
#define DG_FAST(KERNEL, FAST) {DG_KERNEL_##KERNEL, DG_KERNEL_##FAST},
#include "dg_decl_expand.h"
    {UINT16_MAX, UINT16_MAX}};

/* The kernels whose workgroup size or grid is not the default (DG_KERNEL_GRID), and the
 * templates whose kernels all have another (DG_TEMPLATE_GRID). */
enum dg_grid {
   DG_GRID_ELEMENTS,
   DG_GRID_ELEMENTS4,
   DG_GRID_ELEMENTS8,
   DG_GRID_ELEMENTS16,
   DG_GRID_ROWS
};
struct kernel_grid {
   uint16_t kernel, local;
   enum dg_grid grid;
};
static const struct kernel_grid kernel_grids[] = {
#define DG_KERNEL_GRID(KERNEL, LOCAL_SIZE, GRID) {DG_KERNEL_##KERNEL, LOCAL_SIZE, DG_GRID_##GRID},
#include "dg_decl_expand.h"
    {UINT16_MAX, 0, DG_GRID_ELEMENTS}};
static const char *const kernel_templates[DG_KERNEL_COUNT] = {
#define DG_KERNEL(KERNEL, TEMPLATE, FEATURES, DEFINES) [DG_KERNEL_##KERNEL] = #TEMPLATE,
#include "dg_decl_expand.h"
};
static const struct {
   const char *name;
   struct kernel_grid grid;
} template_grids[] = {
#define DG_TEMPLATE_GRID(TEMPLATE, LOCAL_SIZE, GRID)                                              \
   {#TEMPLATE, {UINT16_MAX, LOCAL_SIZE, DG_GRID_##GRID}},
#include "dg_decl_expand.h"
    {NULL, {UINT16_MAX, 0, DG_GRID_ELEMENTS}}};

/* The DG_KERNEL_GRID line of `kernel`, else its template's DG_TEMPLATE_GRID line, or NULL for
 * the default. */
static const struct kernel_grid *
kernel_grid(uint32_t kernel)
{
   for (uint32_t i = 0; kernel_grids[i].kernel != UINT16_MAX; i++)
      if (kernel_grids[i].kernel == kernel)
         return &kernel_grids[i];
   if (kernel >= DG_KERNEL_COUNT || !kernel_templates[kernel])
      return NULL;
   for (uint32_t i = 0; template_grids[i].name; i++)
      if (strcmp(template_grids[i].name, kernel_templates[kernel]) == 0)
         return &template_grids[i].grid;
   return NULL;
}

uint32_t
dg_kernel_local_size(uint32_t kernel)
{
   const struct kernel_grid *g = kernel_grid(kernel);
   return g ? g->local : VMEL_GRAPH_LOCAL_SIZE;
}

/* Work items of a dispatch of `kernel` writing `out`: what its grid counts. */
static uint64_t
kernel_work(uint32_t kernel, const struct dg_tensor_type *out)
{
   uint64_t elements = dg_shape_elements(&out->shape);
   const struct kernel_grid *g = kernel_grid(kernel);
   if (!g || g->grid == DG_GRID_ELEMENTS)
      return elements;
   /* DG_EW_ITEMS of dg_elementwise.glsl, which the build defines from the same grid. */
   if (g->grid == DG_GRID_ELEMENTS4)
      return (elements + 3) / 4;
   if (g->grid == DG_GRID_ELEMENTS8)
      return (elements + 7) / 8;
   if (g->grid == DG_GRID_ELEMENTS16)
      return (elements + 15) / 16;
   /* A shape without a last dimension has no rows (the build refuses it later). */
   if (out->shape.rank == 0 || out->shape.rank > DG_MAX_RANK ||
       out->shape.dim[out->shape.rank - 1] <= 0)
      return 0;
   return elements / (uint64_t)out->shape.dim[out->shape.rank - 1];
}

uint32_t
dg_kernel_for_features(uint32_t kernel, uint32_t features)
{
   for (uint32_t i = 0; fast_variants[i].base != UINT16_MAX; i++) {
      uint32_t need = kernel_features[fast_variants[i].fast];
      if (fast_variants[i].base == kernel && (need & features) == need)
         return fast_variants[i].fast;
   }
   return kernel;
}

uint32_t
dg_build_kernel(const struct dg_build *b, const struct dg_node *n)
{
   return dg_kernel_for_features(dg_op_row(n->row)->kernel,
                                 dg_build_fp16_arith(b) ? DG_KERNEL_F16_ARITH : 0);
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
dg_build_default(struct dg_build *b, const struct dg_node *n)
{
   const struct dg_graph *g = dg_build_graph(b);
   const struct dg_op_info *op = dg_op_get((enum dg_op)n->op);
   uint32_t tensors[VMEL_GRAPH_MAX_TENSORS], count = 0;
   if (n->input_count >= VMEL_GRAPH_MAX_TENSORS || n->output_count == 0)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: %u inputs exceed a kernel's tensors",
                       n->name, n->result_id, n->input_count);
   for (uint32_t i = 0; i < n->input_count; i++)
      tensors[count++] = dg_node_input_index(g, n, i);
   tensors[count] = dg_node_output_index(g, n, 0);
   const struct dg_tensor *out = dg_node_output(g, n, 0);
   uint32_t kernel = dg_build_kernel(b, n);
   return dg_build_add_stage(b, kernel, tensors, count + 1, 1u << count, n->attrs.word,
                             4 * op->attr_count, kernel_work(kernel, &out->ty));
}

VkResult
dg_build_copy(struct dg_build *b, uint32_t src, uint32_t dst, uint32_t mode, uint32_t axis,
              uint32_t offset)
{
   const struct dg_graph *g = dg_build_graph(b);
   if (src >= g->tensor_count && dst >= g->tensor_count)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA copy: neither tensor %u nor %u is the graph's", src,
                       dst);
   const struct dg_tensor_type *ty =
       src < g->tensor_count ? &g->tensors[src].ty : &g->tensors[dst].ty;
   static const uint32_t kernels[] = {[1] = DG_KERNEL_TOSA_COPY_U8,
                                      [2] = DG_KERNEL_TOSA_COPY_U16,
                                      [4] = DG_KERNEL_TOSA_COPY_U32,
                                      [8] = DG_KERNEL_TOSA_COPY_U64};
   uint32_t size = dg_type_size(ty->type);
   if (size >= sizeof(kernels) / sizeof(kernels[0]) || (size & (size - 1)) || size == 0)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA copy: no copy kernel for %u-byte elements", size);
   struct dg_copy_args args = {.mode = mode, .axis = axis, .offset = offset};
   uint32_t tensors[DG_COPY_TENSORS] = {[DG_COPY_INPUT] = src, [DG_COPY_OUTPUT] = dst};
   return dg_build_add_stage(b, kernels[size], tensors, DG_COPY_TENSORS, 1u << DG_COPY_OUTPUT,
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
