/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Turning a decoded graph into compute stages (design.md §6): each node's
 * build function (graph/build/) adds one or more dispatches of embedded kernel
 * variants; this file gives every tensor a place (the application's
 * descriptor sets for graph inputs and outputs, the internal set for
 * intermediates and constants), records each value's first and last stage for
 * the memory planner, and creates the kernels' compute pipelines: the tensor
 * bindings of the compiled SPIR-V are rewritten to where the tensors live
 * (kernel_abi/graph_kernel.h) and shapes and attributes become specialization
 * constants. Pipeline-level objects (layouts, constants) are dg_pipeline.c's.
 */
#include "dg_runtime.h"

#include <stdalign.h>

#include "spirv/spirv.h"
#include "vmel_kernels_graph.h"

#define SPV_OP_DECORATE 71u
#define SPV_DECORATION_BINDING 33u
#define SPV_DECORATION_DESCRIPTOR_SET 34u

/* A stage before its pipeline exists. */
#define DG_SPEC_MAX_ENTRIES (2 + 2 * VMEL_GRAPH_MAX_TENSORS + 32 + 14 * VMEL_GRAPH_MAX_TENSORS)
/* What makes a stage's compute pipeline: two stages with equal keys share one. */
#define DG_STAGE_KEY_WORDS (4 + 2 * VMEL_GRAPH_MAX_TENSORS + DG_SPEC_MAX_ENTRIES)

struct dg_stage_spec {
   const struct vmel_kernel *kernel;
   uint32_t kernel_id;
   uint32_t attr_words;
   uint32_t attrs[32];
   uint64_t work;
   uint32_t key[DG_STAGE_KEY_WORDS];
   uint32_t key_len;
};

/* A constant tensor added by a build function. */
struct dg_extra_constant {
   struct dg_tensor_type ty;
   void *data; /* packed, owned */
   uint64_t size;
};

struct dg_build {
   struct dg_device *device;
   const struct dg_graph *graph;
   const struct dg_pipeline_layout_info *layout;
   struct dg_pipeline *p;
   const VkAllocationCallbacks *alloc;
   uint32_t node;        /* being built */
   uint32_t *value_of;   /* reference (IR tensor, then extras) -> value, or UINT32_MAX */
   uint32_t ref_capacity; /* of value_of; graph->tensor_count + extra_count are in use */
   uint32_t value_capacity;
   uint32_t stage_capacity;
   struct dg_stage_spec *specs; /* parallel to p->stages */
   struct dg_extra_constant *extras;
   uint32_t extra_count, extra_capacity;
};

#define DG_EXTRA_BASE 0x40000000u /* tensor references at or above name extra constants */

VkFormat
dg_type_format(enum dg_type type)
{
   switch (type) {
   case DG_TYPE_BOOL:
      return VK_FORMAT_R8_BOOL_ARM;
   case DG_TYPE_I8:
      return VK_FORMAT_R8_SINT;
   case DG_TYPE_I16:
      return VK_FORMAT_R16_SINT;
   case DG_TYPE_I32:
      return VK_FORMAT_R32_SINT;
   case DG_TYPE_I48:
      return VK_FORMAT_R64_SINT;
   case DG_TYPE_FP16:
      return VK_FORMAT_R16_SFLOAT;
   case DG_TYPE_BF16:
      return VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM;
   case DG_TYPE_FP32:
      return VK_FORMAT_R32_SFLOAT;
   case DG_TYPE_FP8E4M3:
      return VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM;
   case DG_TYPE_FP8E5M2:
      return VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM;
   default:
      return VK_FORMAT_UNDEFINED;
   }
}

const struct dg_graph *
dg_build_graph(const struct dg_build *b)
{
   return b->graph;
}

/* An array with room for need elements (the caller's count + 1: 0 means
 * that sum wrapped). NULL when the capacity or its size in bytes does not fit
 * its type, or without memory; the old array is then kept. */
static void *
grow(const VkAllocationCallbacks *alloc, void *array, uint32_t *capacity, uint32_t need,
     size_t elem)
{
   if (need == 0)
      return NULL;
   if (need <= *capacity)
      return array;
   uint32_t cap = *capacity ? *capacity : 8;
   while (cap < need)
      cap = cap > UINT32_MAX / 2 ? need : cap * 2;
   if (cap > SIZE_MAX / elem)
      return NULL;
   void *n = lyr_alloc(alloc, (size_t)cap * elem, alignof(max_align_t),
                       VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!n)
      return NULL;
   if (array)
      memcpy(n, array, (size_t)*capacity * elem);
   lyr_free(alloc, array);
   *capacity = cap;
   return n;
}

/* The slot of a graph input or output in the application's sets. */
static VkResult
app_slot(struct dg_build *b, const struct dg_graph_io *io, struct dg_slot *slot)
{
   VkDescriptorType type;
   uint32_t count;
   const struct dg_set_layout_info *set = dg_pipeline_layout_set(b->layout, io->set);
   if (!dg_set_layout_binding(set, io->binding, &type, &count) ||
       (int)type != (int)VK_DESCRIPTOR_TYPE_TENSOR_ARM)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: the pipeline layout has no tensor "
                       "binding at set %u binding %u (VUID 09769)",
                       io->set, io->binding);
   if (io->element >= count)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: set %u binding %u has %u descriptors, "
                       "element %u used (VUID 09934)",
                       io->set, io->binding, count, io->element);
   *slot = (struct dg_slot){DG_SLOT_APP, io->set, io->binding, io->element, count};
   return VK_SUCCESS;
}

static VkResult
new_value(struct dg_build *b, enum dg_value_kind kind, const struct dg_tensor_type *ty,
          uint32_t *value)
{
   struct dg_pipeline *p = b->p;
   struct dg_value *values = grow(b->alloc, p->values, &b->value_capacity, p->value_count + 1,
                                  sizeof(*values));
   if (!values)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->values = values;
   *value = p->value_count++;
   values[*value] = (struct dg_value){
      .kind = kind,
      .ty = *ty,
      .first_stage = UINT32_MAX,
      .last_stage = 0,
      .alias_of = UINT32_MAX,
   };
   return VK_SUCCESS;
}

/* The value an IR tensor (or extra constant) lives in, created on first use. */
static VkResult
value_for(struct dg_build *b, uint32_t ref, uint32_t *value)
{
   if (ref >= b->graph->tensor_count + b->extra_count)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA build: tensor reference %u out of range (%u IR "
                       "tensors, %u extras)",
                       ref, b->graph->tensor_count, b->extra_count);
   if (b->value_of[ref] != UINT32_MAX) {
      *value = b->value_of[ref];
      return VK_SUCCESS;
   }
   const struct dg_graph *g = b->graph;
   VkResult result;
   if (ref >= g->tensor_count) {
      result = new_value(b, DG_VALUE_CONSTANT, &b->extras[ref - g->tensor_count].ty, value);
   } else {
      const struct dg_tensor *t = &g->tensors[ref];
      enum dg_value_kind kind = DG_VALUE_INTERMEDIATE;
      const struct dg_graph_io *io = NULL;
      if (t->kind == DG_TENSOR_INPUT) {
         kind = DG_VALUE_IO;
         io = &g->inputs[t->input.input];
      } else if (t->kind == DG_TENSOR_GRAPH_CONSTANT || t->kind == DG_TENSOR_CONSTANT) {
         kind = DG_VALUE_CONSTANT;
      } else {
         /* A node's result that is a graph output is written in place. */
         for (uint32_t i = 0; i < g->output_count && !io; i++) {
            if (g->outputs[i].tensor == ref) {
               io = &g->outputs[i];
               kind = DG_VALUE_IO;
            }
         }
      }
      result = new_value(b, kind, &t->ty, value);
      if (result == VK_SUCCESS && io)
         result = app_slot(b, io, &b->p->values[*value].slot);
   }
   if (result == VK_SUCCESS)
      b->value_of[ref] = *value;
   return result;
}

void
dg_build_mark_disjoint_writes(struct dg_build *b)
{
   if (b->p->stage_count)
      b->p->stages[b->p->stage_count - 1].disjoint_writes = true;
}

bool
dg_build_try_alias(struct dg_build *b, uint32_t src, uint32_t dst)
{
   uint32_t sv, dv;
   if (value_for(b, src, &sv) != VK_SUCCESS || value_for(b, dst, &dv) != VK_SUCCESS)
      return false;
   struct dg_value *s = &b->p->values[sv], *d = &b->p->values[dv];
   if (s->kind != DG_VALUE_INTERMEDIATE || d->kind != DG_VALUE_INTERMEDIATE ||
       d->first_stage != UINT32_MAX || dg_type_size(s->ty.type) != dg_type_size(d->ty.type))
      return false;
   d->alias_of = s->alias_of != UINT32_MAX ? s->alias_of : sv;
   return true;
}

/* Room for one more extra reference (in extras and in value_of); the new
 * extra is zeroed and has no value yet. */
static VkResult
reserve_extra(struct dg_build *b, struct dg_extra_constant **extra, uint32_t *ref)
{
   uint32_t tensors = b->graph->tensor_count;
   if (b->extra_count >= UINT32_MAX - 1 - tensors)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: too many extra tensors");
   struct dg_extra_constant *extras = grow(b->alloc, b->extras, &b->extra_capacity,
                                           b->extra_count + 1, sizeof(*extras));
   if (!extras)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   b->extras = extras;
   uint32_t old = b->ref_capacity;
   uint32_t *value_of = grow(b->alloc, b->value_of, &b->ref_capacity,
                             tensors + b->extra_count + 1, sizeof(*value_of));
   if (!value_of)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   b->value_of = value_of;
   memset(value_of + old, 0xff, (size_t)(b->ref_capacity - old) * sizeof(*value_of));
   *extra = &extras[b->extra_count];
   **extra = (struct dg_extra_constant){0};
   *ref = tensors + b->extra_count;
   return VK_SUCCESS;
}

VkResult
dg_build_add_constant(struct dg_build *b, enum dg_type type, const struct dg_shape *shape,
                      const void *data, uint32_t *tensor)
{
   struct dg_extra_constant *c;
   uint32_t ref;
   VkResult result = reserve_extra(b, &c, &ref);
   if (result != VK_SUCCESS)
      return result;
   uint64_t size = dg_shape_elements(shape) * dg_type_size(type);
   c->ty = (struct dg_tensor_type){.type = type, .shape = *shape};
   c->size = size;
   c->data = lyr_alloc(b->alloc, size ? size : 1, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!c->data)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memcpy(c->data, data, size);
   b->extra_count++;
   *tensor = ref;
   return VK_SUCCESS;
}

VkResult
dg_build_add_stage(struct dg_build *b, uint32_t kernel, const uint32_t *tensors,
                   uint32_t tensor_count, uint32_t writes, const void *attrs, uint32_t attr_size,
                   uint64_t work)
{
   struct dg_pipeline *p = b->p;
   /* Output copies belong to no node. */
   const char *op_name = b->node < b->graph->node_count ? b->graph->nodes[b->node].name
                                                        : "output copy";
   uint32_t result_id = b->node < b->graph->node_count ? b->graph->nodes[b->node].result_id : 0;
   if (kernel >= DG_KERNEL_COUNT)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: kernel id %u is not in this build",
                       op_name, result_id, kernel);
   const struct vmel_kernel *k = &dg_kernels[kernel];
   if (tensor_count > VMEL_GRAPH_MAX_TENSORS || attr_size > sizeof(b->specs[0].attrs) ||
       attr_size % 4 != 0)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s: kernel %s call out of the ABI's bounds",
                       op_name, k->name);
   uint32_t cap = b->stage_capacity;
   struct dg_stage *stages = grow(b->alloc, p->stages, &cap, p->stage_count + 1, sizeof(*stages));
   if (!stages)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->stages = stages;
   cap = b->stage_capacity;
   struct dg_stage_spec *specs =
      grow(b->alloc, b->specs, &cap, p->stage_count + 1, sizeof(*specs));
   if (!specs)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   b->specs = specs;
   b->stage_capacity = cap;

   uint32_t index = p->stage_count;
   struct dg_stage *s = &stages[index];
   *s = (struct dg_stage){
      .node = b->node,
      .op_name = op_name,
      .result_id = result_id,
      .kernel = k->name,
      .value_count = tensor_count,
      .write_mask = writes,
   };
   for (uint32_t i = 0; i < tensor_count; i++) {
      VkResult result = value_for(b, tensors[i], &s->values[i]);
      if (result != VK_SUCCESS)
         return result;
      struct dg_value *v = &p->values[s->values[i]];
      if (v->first_stage == UINT32_MAX)
         v->first_stage = index;
      v->last_stage = index;
   }
   specs[index] =
       (struct dg_stage_spec){.kernel = k, .kernel_id = kernel, .attr_words = attr_size / 4,
                              .work = work};
   if (attr_size)
      memcpy(specs[index].attrs, attrs, attr_size);
   p->stage_count++;
   return VK_SUCCESS;
}

/* ---- compute pipelines -------------------------------------------------- */

/* Copies the kernel and points binding k of set 0 at where tensor k lives. */
static VkResult
patch_bindings(struct dg_build *b, const struct dg_stage *s, const struct vmel_kernel *k,
               uint32_t **out)
{
   struct spirv_reader r;
   struct spirv_diag diag;
   VkResult result = spirv_reader_init(&r, k->code, k->word_count, b->alloc, &diag);
   if (result != VK_SUCCESS)
      return lyr_error(VK_ERROR_UNKNOWN, "kernel %s: %s", k->name, diag.message);
   uint32_t *words =
      lyr_alloc(b->alloc, k->word_count * 4, 4, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!words) {
      spirv_reader_finish(&r);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   memcpy(words, k->code, k->word_count * 4);

   /* Each tensor variable has one DescriptorSet and one Binding decoration. */
   uint32_t set_word[VMEL_GRAPH_MAX_TENSORS] = {0}, binding_word[VMEL_GRAPH_MAX_TENSORS] = {0};
   uint32_t var_binding[64] = {0}, var_set_word[64] = {0}, var_binding_word[64] = {0};
   uint32_t vars = 0;
   for (uint32_t i = 0; i < r.inst_count && vars < 64; i++) {
      const struct spirv_inst *inst = &r.insts[i];
      if (inst->opcode != SPV_OP_DECORATE || inst->word_count < 4)
         continue;
      uint32_t target = words[inst->offset + 1], decoration = words[inst->offset + 2];
      if (decoration != SPV_DECORATION_BINDING && decoration != SPV_DECORATION_DESCRIPTOR_SET)
         continue;
      uint32_t v = 0;
      while (v < vars && var_binding[v] != target)
         v++;
      if (v == vars) {
         var_binding[vars++] = target;
         var_set_word[v] = var_binding_word[v] = 0;
      }
      if (decoration == SPV_DECORATION_BINDING)
         var_binding_word[v] = inst->offset + 3;
      else
         var_set_word[v] = inst->offset + 3;
   }
   for (uint32_t v = 0; v < vars; v++) {
      if (!var_set_word[v] || !var_binding_word[v] || words[var_set_word[v]] != 0)
         continue;
      uint32_t binding = words[var_binding_word[v]];
      if (binding < VMEL_GRAPH_MAX_TENSORS) {
         set_word[binding] = var_set_word[v];
         binding_word[binding] = var_binding_word[v];
      }
   }
   spirv_reader_finish(&r);
   for (uint32_t t = 0; t < s->value_count; t++) {
      if (!set_word[t]) {
         lyr_free(b->alloc, words);
         return lyr_error(VK_ERROR_UNKNOWN, "kernel %s declares no tensor at binding %u",
                          k->name, t);
      }
      /* Intermediates and constants: the stage's own internal set. */
      const struct dg_slot *slot = &b->p->values[s->values[t]].slot;
      bool internal = slot->kind == DG_SLOT_INTERNAL;
      words[set_word[t]] = internal ? b->p->internal_set : slot->set;
      words[binding_word[t]] = internal ? s->internal_binding[t] : slot->binding;
   }
   *out = words;
   return VK_SUCCESS;
}

/* The shape specialization of kernel tensor t (graph_kernel.h VMEL_SC_SHAPE): dims always (a
 * TOSA graph's shapes are static), strides for the tensors the layer owns (packed); the
 * application's tensors keep the strides of the tensor it binds. */
static uint32_t
shape_constants(const struct dg_value *v, uint32_t *data)
{
   const struct dg_shape *shape = &v->ty.shape;
   uint32_t known = VMEL_SHAPE_DIMS;
   data[VMEL_SHAPE_RANK] = shape->rank;
   for (uint32_t d = 0; d < 6; d++) {
      data[VMEL_SHAPE_DIM(d)] = d < shape->rank ? (uint32_t)shape->dim[d] : 1u;
      data[VMEL_SHAPE_STRIDE(d)] = 0;
   }
   if (v->kind != DG_VALUE_IO) {
      uint64_t stride = dg_type_size(v->ty.type);
      for (uint32_t d = shape->rank; d-- > 0;) {
         data[VMEL_SHAPE_STRIDE(d)] = (uint32_t)stride;
         stride *= (uint64_t)shape->dim[d];
      }
      known |= VMEL_SHAPE_STRIDES;
   }
   data[VMEL_SHAPE_KNOWN] = known;
   return 14;
}

static VkResult
create_stage_pipeline(struct dg_build *b, uint32_t index, VkPipelineCache cache)
{
   struct dg_pipeline *p = b->p;
   struct dg_stage *s = &p->stages[index];
   struct dg_stage_spec *spec = &b->specs[index];

   /* Work is spread over a 2D grid of 1D workgroups of the variant's size. */
   uint32_t local = dg_kernel_local_size(spec->kernel_id);
   uint32_t max_x = b->device->max_groups[0];
   uint64_t groups = (spec->work + local - 1) / local;
   if (groups == 0)
      groups = 1;
   s->groups[0] = (uint32_t)(groups < max_x ? groups : max_x);
   s->groups[1] = (uint32_t)((groups + s->groups[0] - 1) / s->groups[0]);
   if (s->groups[1] > b->device->max_groups[1] || spec->work > UINT32_MAX)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: %llu work items exceed the device's "
                       "workgroup-count limits",
                       s->op_name, s->result_id, (unsigned long long)spec->work);

   uint32_t data[DG_SPEC_MAX_ENTRIES];
   VkSpecializationMapEntry entries[DG_SPEC_MAX_ENTRIES];
   uint32_t n = 0;
#define ENTRY(id, value)                                                                           \
   do {                                                                                            \
      entries[n] = (VkSpecializationMapEntry){(id), n * 4, 4};                                     \
      data[n++] = (value);                                                                         \
   } while (0)
   ENTRY(VMEL_SC_WORK_COUNT, (uint32_t)spec->work);
   ENTRY(VMEL_SC_LOCAL_SIZE_X, local);
   for (uint32_t t = 0; t < s->value_count; t++) {
      const struct dg_value *v = &p->values[s->values[t]];
      ENTRY(VMEL_SC_TENSOR_COUNT(t), v->slot.count);
      ENTRY(VMEL_SC_TENSOR_INDEX(t), v->slot.element);
      uint32_t shape[14];
      shape_constants(v, shape);
      for (uint32_t i = 0; i < 14; i++)
         ENTRY(VMEL_SC_SHAPE(t, i), shape[i]);
   }
   for (uint32_t a = 0; a < spec->attr_words; a++)
      ENTRY(VMEL_SC_ATTR(a), spec->attrs[a]);
#undef ENTRY
   VkSpecializationInfo si = {
      .mapEntryCount = n,
      .pMapEntries = entries,
      .dataSize = n * 4,
      .pData = data,
   };

   uint32_t *words = NULL;
   VkResult result = patch_bindings(b, s, spec->kernel, &words);
   if (result != VK_SUCCESS)
      return result;

   /* Identical compute pipelines (same variant, same bindings, same specialization) are
    * created once per graph pipeline. */
   uint32_t *key = spec->key, len = 0;
   key[len++] = spec->kernel_id;
   key[len++] = s->value_count;
   key[len++] = spec->attr_words;
   key[len++] = n;
   for (uint32_t t = 0; t < s->value_count; t++) {
      const struct dg_slot *slot = &p->values[s->values[t]].slot;
      bool internal = slot->kind == DG_SLOT_INTERNAL;
      key[len++] = internal ? p->internal_set : slot->set;
      key[len++] = internal ? s->internal_binding[t] : slot->binding;
   }
   memcpy(key + len, data, n * 4);
   spec->key_len = len + n;
   for (uint32_t i = 0; i < index; i++) {
      if (b->specs[i].key_len == spec->key_len && !p->stages[i].shares_pipeline &&
          memcmp(b->specs[i].key, key, spec->key_len * 4) == 0) {
         lyr_free(b->alloc, words);
         s->pipeline = p->stages[i].pipeline;
         s->shares_pipeline = true;
         return VK_SUCCESS;
      }
   }

   /* A module per pipeline (inline modules need maintenance5): the kernels'
    * bindings differ per stage. */
   result = lyr_create_compute_pipeline(&b->device->base, words, spec->kernel->word_count,
                                        p->layout, &si, cache, &s->pipeline);
   lyr_free(b->alloc, words);
   if (result != VK_SUCCESS)
      return lyr_error(result, "TOSA %s %%%u: creating kernel %s failed", s->op_name,
                       s->result_id, s->kernel);
   return VK_SUCCESS;
}

/* ---- the whole build --------------------------------------------------- */

static void
build_finish(struct dg_build *b)
{
   for (uint32_t i = 0; i < b->extra_count; i++)
      lyr_free(b->alloc, b->extras[i].data);
   lyr_free(b->alloc, b->extras);
   lyr_free(b->alloc, b->specs);
   lyr_free(b->alloc, b->value_of);
}

/* Graph outputs that no stage wrote in place (an input or a constant passed
 * through, or a tensor set to two outputs) get a copy. */
static VkResult
build_output_copies(struct dg_build *b)
{
   const struct dg_graph *g = b->graph;
   for (uint32_t i = 0; i < g->output_count; i++) {
      const struct dg_graph_io *io = &g->outputs[i];
      uint32_t src;
      VkResult result = value_for(b, io->tensor, &src);
      if (result != VK_SUCCESS)
         return result;
      const struct dg_value *v = &b->p->values[src];
      if (v->kind == DG_VALUE_IO && v->slot.set == io->set && v->slot.binding == io->binding &&
          v->slot.element == io->element && v->first_stage != UINT32_MAX)
         continue;
      result = dg_build_output_copy(b, io);
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* The destination of an output copy: a value for the output's slot. */
VkResult
dg_build_output_value(struct dg_build *b, const struct dg_graph_io *io, uint32_t *ref)
{
   /* Output values have no IR tensor of their own: use an extra reference. */
   struct dg_extra_constant *e;
   VkResult result = reserve_extra(b, &e, ref);
   if (result != VK_SUCCESS)
      return result;
   e->ty = b->graph->tensors[io->tensor].ty;
   b->extra_count++;
   uint32_t value;
   result = new_value(b, DG_VALUE_IO, &e->ty, &value);
   if (result != VK_SUCCESS)
      return result;
   b->value_of[*ref] = value;
   return app_slot(b, io, &b->p->values[value].slot);
}

/* Where each constant value's data comes from. */
static VkResult
constant_sources(struct dg_build *b, struct dg_constant_source **out)
{
   struct dg_pipeline *p = b->p;
   const struct dg_graph *g = b->graph;
   struct dg_constant_source *src =
      lyr_zalloc(b->alloc, (p->value_count + 1) * sizeof(*src), 8,
                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!src)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t ref = 0; ref < g->tensor_count + b->extra_count; ref++) {
      uint32_t v = b->value_of[ref];
      if (v == UINT32_MAX || p->values[v].kind != DG_VALUE_CONSTANT)
         continue;
      if (ref >= g->tensor_count) {
         const struct dg_extra_constant *e = &b->extras[ref - g->tensor_count];
         src[v] = (struct dg_constant_source){e->data, e->size, NULL};
      } else if (g->tensors[ref].kind == DG_TENSOR_GRAPH_CONSTANT) {
         src[v] = (struct dg_constant_source){g->tensors[ref].graph_constant.data, 0,
                                              g->tensors[ref].graph_constant.desc};
      } else {
         src[v] = (struct dg_constant_source){g->tensors[ref].constant.data,
                                              g->tensors[ref].constant.size, NULL};
      }
   }
   *out = src;
   return VK_SUCCESS;
}

VkResult
dg_stage_build_all(struct dg_device *device, const struct dg_graph *graph,
                   const struct dg_pipeline_layout_info *layout, VkPipelineCache cache,
                   struct dg_pipeline *p)
{
   struct dg_build b = {
      .device = device,
      .graph = graph,
      .layout = layout,
      .p = p,
      .alloc = &p->alloc,
   };
   /* References: every IR tensor, then extra constants and output copies
    * (value_of grows with them, reserve_extra()). */
   b.value_of = grow(b.alloc, NULL, &b.ref_capacity, graph->tensor_count + 1, sizeof(uint32_t));
   if (!b.value_of)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memset(b.value_of, 0xff, (size_t)b.ref_capacity * sizeof(uint32_t));

   VkResult result = VK_SUCCESS;
   for (uint32_t n = 0; n < graph->node_count && result == VK_SUCCESS; n++) {
      b.node = n;
      dg_op_build_fn build = dg_op_builder(graph->nodes[n].op);
      if (!build)
         result = lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u at word %u: no kernel for this "
                            "operator yet",
                            graph->nodes[n].name, graph->nodes[n].result_id,
                            graph->nodes[n].offset);
      else
         result = build(&b, &graph->nodes[n]);
   }
   b.node = UINT32_MAX;
   if (result == VK_SUCCESS)
      result = build_output_copies(&b);
   struct dg_constant_source *sources = NULL;
   if (result == VK_SUCCESS)
      result = constant_sources(&b, &sources);
   if (result == VK_SUCCESS)
      result = dg_pipeline_place_values(device, p, layout, sources);
   lyr_free(b.alloc, sources);
   for (uint32_t i = 0; result == VK_SUCCESS && i < p->stage_count; i++)
      result = create_stage_pipeline(&b, i, cache);
   build_finish(&b);
   return result;
}

bool
dg_build_fp16_arith(const struct dg_build *b)
{
   return b->device->fp16_arith;
}
