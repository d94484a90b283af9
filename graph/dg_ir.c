/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph IR's helpers: element types (sizes, names, VkFormat
 * compatibility), shapes, growing the graph's arrays while decoding, and
 * freeing a graph. What the IR means is documented in dg_ir.h; how it is
 * filled is dg_decode.c's business.
 */
#include <inttypes.h>
#include <stdio.h>

#include "dg_decode_private.h"
#include "lyr_alloc.h"

static const struct {
   const char *name;
   uint32_t size;
   bool is_float;
} dg_types[DG_TYPE_COUNT] = {
    [DG_TYPE_INVALID] = {"invalid", 0, false}, [DG_TYPE_BOOL] = {"bool", 1, false},
    [DG_TYPE_I8] = {"i8", 1, false},           [DG_TYPE_I16] = {"i16", 2, false},
    [DG_TYPE_I32] = {"i32", 4, false},         [DG_TYPE_I48] = {"i48", 8, false},
    [DG_TYPE_FP16] = {"fp16", 2, true},        [DG_TYPE_BF16] = {"bf16", 2, true},
    [DG_TYPE_FP32] = {"fp32", 4, true},        [DG_TYPE_FP8E4M3] = {"fp8e4m3", 1, true},
    [DG_TYPE_FP8E5M2] = {"fp8e5m2", 1, true},
};

uint32_t
dg_type_size(enum dg_type type)
{
   return (unsigned)type < DG_TYPE_COUNT ? dg_types[type].size : 0;
}

const char *
dg_type_name(enum dg_type type)
{
   return (unsigned)type < DG_TYPE_COUNT ? dg_types[type].name : "invalid";
}

bool
dg_type_is_float(enum dg_type type)
{
   return (unsigned)type < DG_TYPE_COUNT && dg_types[type].is_float;
}

bool
dg_type_format_compatible(enum dg_type type, bool signed_only, VkFormat format)
{
   /* Vulkan spirvenv.adoc, "spirvenv-tensor-formats". */
   switch (type) {
   case DG_TYPE_BOOL:
      return format == VK_FORMAT_R8_BOOL_ARM;
   case DG_TYPE_I8:
      return format == VK_FORMAT_R8_SINT || (!signed_only && format == VK_FORMAT_R8_UINT);
   case DG_TYPE_I16:
      return format == VK_FORMAT_R16_SINT || (!signed_only && format == VK_FORMAT_R16_UINT);
   case DG_TYPE_I32:
      return format == VK_FORMAT_R32_SINT || (!signed_only && format == VK_FORMAT_R32_UINT);
   case DG_TYPE_I48:
      return format == VK_FORMAT_R64_SINT || (!signed_only && format == VK_FORMAT_R64_UINT);
   case DG_TYPE_FP16:
      return format == VK_FORMAT_R16_SFLOAT;
   case DG_TYPE_BF16:
      return format == VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM;
   case DG_TYPE_FP32:
      return format == VK_FORMAT_R32_SFLOAT;
   case DG_TYPE_FP8E4M3:
      return format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM;
   case DG_TYPE_FP8E5M2:
      return format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM;
   default:
      return false;
   }
}

uint64_t
dg_shape_elements(const struct dg_shape *shape)
{
   uint64_t n = 1;
   for (uint32_t i = 0; i < shape->rank; i++)
      n *= (uint64_t)shape->dim[i];
   return n;
}

bool
dg_shape_equal(const struct dg_shape *a, const struct dg_shape *b)
{
   if (a->rank != b->rank)
      return false;
   for (uint32_t i = 0; i < a->rank; i++) {
      if (a->dim[i] != b->dim[i])
         return false;
   }
   return true;
}

bool
dg_tensor_type_equal(const struct dg_tensor_type *a, const struct dg_tensor_type *b)
{
   return a->type == b->type && dg_shape_equal(&a->shape, &b->shape);
}

bool
dg_shape_known(const struct dg_shape *shape)
{
   if (shape->rank == 0 || shape->rank > DG_MAX_RANK)
      return false;
   for (uint32_t i = 0; i < shape->rank; i++) {
      if (shape->dim[i] < 1)
         return false;
   }
   return true;
}

const char *
dg_shape_str(const struct dg_shape *shape, char *buf, size_t size)
{
   size_t n = 0;
   if (size == 0)
      return buf;
   buf[0] = '\0';
   if (shape->rank == 0) {
      snprintf(buf, size, "[unranked]");
      return buf;
   }
   n += (size_t)snprintf(buf + n, size - n, "[");
   for (uint32_t i = 0; i < shape->rank && n < size; i++) {
      if (shape->dim[i] == 0)
         n += (size_t)snprintf(buf + n, size - n, "%s?", i ? "," : "");
      else
         n += (size_t)snprintf(buf + n, size - n, "%s%" PRId64, i ? "," : "", shape->dim[i]);
   }
   if (n < size)
      snprintf(buf + n, size - n, "]");
   return buf;
}

/* Grows *array (elements of elem_size) so that it holds count + 1 elements. */
static VkResult
grow(struct dg_decoder *d, void **array, uint32_t *capacity, uint32_t count, size_t elem_size)
{
   if (count < *capacity)
      return VK_SUCCESS;
   if (count >= UINT32_MAX / 2)
      return dg_oom(d);
   uint32_t cap = *capacity ? *capacity * 2 : 16;
   void *p =
       lyr_realloc(d->alloc, *array, (size_t)cap * elem_size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return dg_oom(d);
   *array = p;
   *capacity = cap;
   return VK_SUCCESS;
}

VkResult
dg_add_tensor(struct dg_decoder *d, const struct dg_tensor *t, uint32_t *index)
{
   struct dg_graph *g = d->g;
   VkResult result =
       grow(d, (void **)&g->tensors, &g->tensor_capacity, g->tensor_count, sizeof(*t));
   if (result != VK_SUCCESS)
      return result;
   g->tensors[g->tensor_count] = *t;
   *index = g->tensor_count++;
   return VK_SUCCESS;
}

VkResult
dg_add_node(struct dg_decoder *d, uint32_t *index)
{
   struct dg_graph *g = d->g;
   VkResult result =
       grow(d, (void **)&g->nodes, &g->node_capacity, g->node_count, sizeof(struct dg_node));
   if (result != VK_SUCCESS)
      return result;
   memset(&g->nodes[g->node_count], 0, sizeof(struct dg_node));
   *index = g->node_count++;
   return VK_SUCCESS;
}

VkResult
dg_add_node_tensor(struct dg_decoder *d, uint32_t tensor)
{
   struct dg_graph *g = d->g;
   VkResult result = grow(d, (void **)&g->node_tensors, &g->node_tensor_capacity,
                          g->node_tensor_count, sizeof(uint32_t));
   if (result != VK_SUCCESS)
      return result;
   g->node_tensors[g->node_tensor_count++] = tensor;
   return VK_SUCCESS;
}

VkResult
dg_add_blob(struct dg_decoder *d, uint64_t size, void **blob)
{
   struct dg_graph *g = d->g;
   VkResult result = grow(d, (void **)&g->blobs, &g->blob_capacity, g->blob_count, sizeof(void *));
   if (result != VK_SUCCESS)
      return result;
   if (size > SIZE_MAX - 16)
      return dg_oom(d);
   void *p = lyr_zalloc(d->alloc, size ? (size_t)size : 1, 16, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return dg_oom(d);
   g->blobs[g->blob_count++] = p;
   *blob = p;
   return VK_SUCCESS;
}

VkResult
dg_add_io(struct dg_decoder *d, bool output, const struct dg_graph_io *io)
{
   struct dg_graph *g = d->g;
   struct dg_graph_io **array = output ? &g->outputs : &g->inputs;
   uint32_t *count = output ? &g->output_count : &g->input_count;
   uint32_t *capacity = output ? &g->output_capacity : &g->input_capacity;
   VkResult result = grow(d, (void **)array, capacity, *count, sizeof(*io));
   if (result != VK_SUCCESS)
      return result;
   (*array)[(*count)++] = *io;
   return VK_SUCCESS;
}

void
dg_graph_destroy(struct dg_graph *g)
{
   if (!g)
      return;
   const VkAllocationCallbacks *alloc = g->alloc;
   for (uint32_t i = 0; i < g->blob_count; i++)
      lyr_free(alloc, g->blobs[i]);
   lyr_free(alloc, g->blobs);
   lyr_free(alloc, g->tensors);
   lyr_free(alloc, g->nodes);
   lyr_free(alloc, g->node_tensors);
   lyr_free(alloc, g->inputs);
   lyr_free(alloc, g->outputs);
   lyr_free(alloc, g);
}
