/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Building stage plans (dg_stage_plan.h) without a Vulkan call: runs every
 * node's build function (graph/build/) through the dg_build_* API, which adds
 * tensors to the plan's table on first use (graph inputs and outputs at the
 * application's slots, intermediates, constants with where their data comes
 * from, build-added constants and scratch tensors) and stages with their
 * specialization and grid; then adds the output copies, numbers the session
 * memory and the constants, gives each stage its internal set (stages with
 * identical lists share one), checks the kernels' layout against the
 * device's descriptor limits, and derives each stage's dependencies and
 * shared pipelines. Creating Vulkan objects from a plan is dg_stage.c's and
 * dg_pipeline.c's; the memory plan and the barriers are dg_session.c's.
 */
#define LYR_LOG_THIS_DOMAIN LYR_LOG_GRAPH
#include "dg_stage_plan.h"

#include <inttypes.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lyr_alloc.h"
#include "lyr_log.h"
#include "vmel_kernels_graph.h"

struct dg_build {
   const struct dg_graph *graph;
   const struct dg_plan_layout *layout;
   const struct dg_plan_caps *caps;
   struct dg_stage_plan *plan;
   const VkAllocationCallbacks *alloc;
   uint32_t node;          /* being built; UINT32_MAX: output copies */
   uint32_t fused;         /* nodes after `node` that its last stage also computes */
   uint32_t *tensor_of;    /* reference (IR tensor, then extras) -> plan tensor, or NONE */
   uint32_t ref_count;     /* references in use: graph->tensor_count + extras */
   uint32_t ref_capacity;
   uint32_t tensor_capacity, stage_capacity, constant_capacity, dep_capacity;
};

const struct dg_graph *
dg_build_graph(const struct dg_build *b)
{
   return b->graph;
}

bool
dg_build_fp16_arith(const struct dg_build *b)
{
   return b->caps->fp16_arith;
}

uint32_t
dg_build_coop(const struct dg_build *b)
{
   return b->caps->coop;
}

bool
dg_build_int_dot(const struct dg_build *b)
{
   return b->caps->int_dot;
}

uint32_t
dg_build_split_k(const struct dg_build *b)
{
   return b->caps->split_k;
}

bool
dg_build_subgroup8(const struct dg_build *b)
{
   return b->caps->subgroup8;
}

bool
dg_build_fits_workgroup(const struct dg_build *b, uint32_t invocations, uint32_t shared_bytes)
{
   uint32_t max_inv = b->caps->max_workgroup_invocations ? b->caps->max_workgroup_invocations : 128;
   uint32_t max_shared = b->caps->max_shared_memory ? b->caps->max_shared_memory : 16384;
   return invocations <= max_inv && shared_bytes <= max_shared;
}

const VkAllocationCallbacks *
dg_build_alloc(const struct dg_build *b)
{
   return b->alloc;
}

bool
dg_build_cpu_device(const struct dg_build *b)
{
   if (b->caps->kernels == DG_KERNELS_FAST_GPU || b->caps->kernels == DG_KERNELS_FAST_CPU)
      return b->caps->kernels == DG_KERNELS_FAST_CPU;
   return b->caps->cpu_device;
}

uint32_t
dg_build_cpu_threads(const struct dg_build *b)
{
   return b->caps->cpu_device ? b->caps->cpu_threads : 0;
}

enum dg_kernel_mode
dg_build_kernel_mode(const struct dg_build *b)
{
   return b->caps->kernels;
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

/* The operator name and result id of node n for messages ("output copy" for none). */
static const char *
node_name(const struct dg_graph *g, uint32_t n)
{
   return n < g->node_count ? g->nodes[n].name : "output copy";
}

static uint32_t
node_result(const struct dg_graph *g, uint32_t n)
{
   return n < g->node_count ? g->nodes[n].result_id : 0;
}

/* ---- tensors ------------------------------------------------------------------------------ */

/* The slot of a graph input or output in the application's sets. */
static VkResult
app_slot(struct dg_build *b, const struct dg_graph_io *io, struct dg_plan_slot *slot)
{
   const struct dg_plan_layout *l = b->layout;
   const struct dg_plan_app_binding *found = NULL;
   for (uint32_t i = 0; i < l->binding_count && !found; i++) {
      if (l->bindings[i].set == io->set && l->bindings[i].binding == io->binding)
         found = &l->bindings[i];
   }
   if (!found || io->set >= l->set_count ||
       (int)found->type != (int)VK_DESCRIPTOR_TYPE_TENSOR_ARM)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: the pipeline layout has no tensor "
                       "binding at set %u binding %u (VUID 09769)",
                       io->set, io->binding);
   if (io->element >= found->count)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: set %u binding %u has %u descriptors, "
                       "element %u used (VUID 09934)",
                       io->set, io->binding, found->count, io->element);
   *slot = (struct dg_plan_slot){DG_PLAN_SLOT_APP, io->set, io->binding, io->element,
                                 found->count};
   return VK_SUCCESS;
}

static VkResult
new_tensor(struct dg_build *b, enum dg_plan_tensor_kind kind, const struct dg_tensor_type *ty,
           uint32_t *tensor)
{
   struct dg_stage_plan *p = b->plan;
   struct dg_plan_tensor *t = grow(b->alloc, p->tensors, &b->tensor_capacity,
                                   p->tensor_count + 1, sizeof(*t));
   if (!t)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for %u tensors",
                       p->tensor_count + 1);
   p->tensors = t;
   *tensor = p->tensor_count++;
   t[*tensor] = (struct dg_plan_tensor){
      .kind = kind,
      .ty = *ty,
      .ir = DG_PLAN_NONE,
      .io = DG_PLAN_NONE,
      .index = DG_PLAN_NONE,
      .alias_of = DG_PLAN_NONE,
      .first_stage = DG_PLAN_NONE,
   };
   return VK_SUCCESS;
}

static VkResult
add_constant_source(struct dg_build *b, uint32_t tensor, const void *data, uint64_t size,
                    const VkTensorDescriptionARM *desc, bool owned)
{
   struct dg_stage_plan *p = b->plan;
   struct dg_plan_constant *c = grow(b->alloc, p->constants, &b->constant_capacity,
                                     p->constant_count + 1, sizeof(*c));
   if (!c)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for %u constants",
                       p->constant_count + 1);
   p->constants = c;
   p->tensors[tensor].index = p->constant_count;
   c[p->constant_count++] = (struct dg_plan_constant){tensor, data, size, desc, owned};
   return VK_SUCCESS;
}

/* A plan tensor for an IR tensor. */
static VkResult
tensor_for_ir(struct dg_build *b, uint32_t ref, uint32_t *tensor)
{
   const struct dg_graph *g = b->graph;
   const struct dg_tensor *t = &g->tensors[ref];
   enum dg_plan_tensor_kind kind = DG_PLAN_TENSOR_INTERMEDIATE;
   const struct dg_graph_io *io = NULL;
   uint32_t io_index = DG_PLAN_NONE;
   if (t->kind == DG_TENSOR_INPUT) {
      if (t->input.input >= g->input_count)
         return lyr_error(VK_ERROR_UNKNOWN, "TOSA build: tensor %u names input %u of %u", ref,
                          t->input.input, g->input_count);
      kind = DG_PLAN_TENSOR_INPUT;
      io_index = t->input.input;
      io = &g->inputs[io_index];
   } else if (t->kind == DG_TENSOR_GRAPH_CONSTANT || t->kind == DG_TENSOR_CONSTANT) {
      kind = DG_PLAN_TENSOR_CONSTANT;
   } else {
      /* A node's result that is a graph output is written in place (the first output
       * naming it; another gets a copy). */
      for (uint32_t i = 0; i < g->output_count && !io; i++) {
         if (g->outputs[i].tensor == ref) {
            io = &g->outputs[i];
            io_index = i;
            kind = DG_PLAN_TENSOR_OUTPUT;
         }
      }
   }
   VkResult result = new_tensor(b, kind, &t->ty, tensor);
   if (result != VK_SUCCESS)
      return result;
   struct dg_plan_tensor *pt = &b->plan->tensors[*tensor];
   pt->ir = ref;
   pt->io = io_index;
   if (io)
      return app_slot(b, io, &pt->slot);
   if (t->kind == DG_TENSOR_GRAPH_CONSTANT)
      return add_constant_source(b, *tensor, t->graph_constant.data, 0, t->graph_constant.desc,
                                 false);
   if (t->kind == DG_TENSOR_CONSTANT) {
      uint64_t need = dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
      if (t->constant.size < need)
         return lyr_error(VK_ERROR_UNKNOWN, "TOSA build: constant %%%u holds %llu bytes, its "
                          "type %llu",
                          t->id, (unsigned long long)t->constant.size,
                          (unsigned long long)need);
      return add_constant_source(b, *tensor, t->constant.data, t->constant.size, NULL, false);
   }
   return VK_SUCCESS;
}

/* The plan tensor a reference names (an IR tensor: created on first use). */
static VkResult
tensor_for(struct dg_build *b, uint32_t ref, uint32_t *tensor)
{
   if (ref >= b->ref_count)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA build: tensor reference %u out of range (%u IR "
                       "tensors, %u extras)",
                       ref, b->graph->tensor_count, b->ref_count - b->graph->tensor_count);
   if (b->tensor_of[ref] != DG_PLAN_NONE) {
      *tensor = b->tensor_of[ref];
      return VK_SUCCESS;
   }
   VkResult result = tensor_for_ir(b, ref, tensor);
   if (result == VK_SUCCESS)
      b->tensor_of[ref] = *tensor;
   return result;
}

/* A new reference (past the IR tensors) naming a new plan tensor. */
static VkResult
new_extra(struct dg_build *b, enum dg_plan_tensor_kind kind, const struct dg_tensor_type *ty,
          uint32_t *ref, uint32_t *tensor)
{
   if (b->ref_count == UINT32_MAX - 1)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: too many extra tensors");
   uint32_t old = b->ref_capacity;
   uint32_t *tensor_of = grow(b->alloc, b->tensor_of, &b->ref_capacity, b->ref_count + 1,
                              sizeof(*tensor_of));
   if (!tensor_of)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for %u tensor "
                       "references",
                       b->ref_count + 1);
   b->tensor_of = tensor_of;
   memset(tensor_of + old, 0xff, (size_t)(b->ref_capacity - old) * sizeof(*tensor_of));
   VkResult result = new_tensor(b, kind, ty, tensor);
   if (result != VK_SUCCESS)
      return result;
   *ref = b->ref_count++;
   tensor_of[*ref] = *tensor;
   return VK_SUCCESS;
}

/* The packed size of a tensor type, or false when it does not fit 64 bits. */
static bool
packed_size(enum dg_type type, const struct dg_shape *shape, uint64_t *size)
{
   uint64_t n = dg_type_size(type);
   if (!n || shape->rank == 0 || shape->rank > DG_MAX_RANK)
      return false;
   for (uint32_t d = 0; d < shape->rank; d++) {
      if (shape->dim[d] <= 0 || (uint64_t)shape->dim[d] > UINT64_MAX / n)
         return false;
      n *= (uint64_t)shape->dim[d];
   }
   *size = n;
   return true;
}

VkResult
dg_build_add_constant(struct dg_build *b, enum dg_type type, const struct dg_shape *shape,
                      const void *data, uint32_t *ref)
{
   uint64_t size;
   if (!packed_size(type, shape, &size) || size > SIZE_MAX || !data)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: a build constant of type %s and rank "
                       "%u has no valid size or data",
                       node_name(b->graph, b->node), node_result(b->graph, b->node),
                       dg_type_name(type), shape->rank);
   struct dg_tensor_type ty = {.type = type, .shape = *shape};
   uint32_t tensor;
   VkResult result = new_extra(b, DG_PLAN_TENSOR_CONSTANT, &ty, ref, &tensor);
   if (result != VK_SUCCESS)
      return result;
   void *copy = lyr_alloc(b->alloc, (size_t)size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!copy)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for a %llu-byte "
                       "constant",
                       (unsigned long long)size);
   memcpy(copy, data, (size_t)size);
   result = add_constant_source(b, tensor, copy, size, NULL, true);
   if (result != VK_SUCCESS)
      lyr_free(b->alloc, copy);
   return result;
}

VkResult
dg_build_add_scratch(struct dg_build *b, enum dg_type type, const struct dg_shape *shape,
                     uint32_t *ref)
{
   uint64_t size;
   if (!packed_size(type, shape, &size))
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: a scratch tensor of type %s and rank "
                       "%u has no valid size",
                       node_name(b->graph, b->node), node_result(b->graph, b->node),
                       dg_type_name(type), shape->rank);
   struct dg_tensor_type ty = {.type = type, .shape = *shape};
   uint32_t tensor;
   return new_extra(b, DG_PLAN_TENSOR_SCRATCH, &ty, ref, &tensor);
}

VkResult
dg_build_set_bind_point(struct dg_build *b, uint32_t ref, uint32_t bind_point)
{
   uint32_t tensor;
   VkResult result = tensor_for(b, ref, &tensor);
   if (result != VK_SUCCESS)
      return result;
   struct dg_plan_tensor *t = &b->plan->tensors[tensor];
   if ((t->kind != DG_PLAN_TENSOR_SCRATCH && t->kind != DG_PLAN_TENSOR_INTERMEDIATE) ||
       t->alias_of != DG_PLAN_NONE || bind_point == DG_PLAN_NONE)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: only session tensors that alias "
                       "nothing have a bind point",
                       node_name(b->graph, b->node), node_result(b->graph, b->node));
   t->bind_point = bind_point;
   return VK_SUCCESS;
}

VkResult
dg_build_output_value(struct dg_build *b, const struct dg_graph_io *io, uint32_t *ref)
{
   const struct dg_graph *g = b->graph;
   if (io < g->outputs || io >= g->outputs + g->output_count || io->tensor >= g->tensor_count)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA build: an output copy of no graph output");
   uint32_t tensor;
   VkResult result = new_extra(b, DG_PLAN_TENSOR_OUTPUT, &g->tensors[io->tensor].ty, ref,
                               &tensor);
   if (result != VK_SUCCESS)
      return result;
   b->plan->tensors[tensor].io = (uint32_t)(io - g->outputs);
   return app_slot(b, io, &b->plan->tensors[tensor].slot);
}

void
dg_build_mark_disjoint_writes(struct dg_build *b)
{
   if (b->plan->stage_count)
      b->plan->stages[b->plan->stage_count - 1].disjoint_writes = true;
}

bool
dg_build_try_alias(struct dg_build *b, uint32_t src, uint32_t dst)
{
   uint32_t sv, dv;
   if (tensor_for(b, src, &sv) != VK_SUCCESS || tensor_for(b, dst, &dv) != VK_SUCCESS ||
       sv == dv)
      return false;
   struct dg_plan_tensor *s = &b->plan->tensors[sv], *d = &b->plan->tensors[dv];
   if (s->kind != DG_PLAN_TENSOR_INTERMEDIATE || d->kind != DG_PLAN_TENSOR_INTERMEDIATE ||
       d->first_stage != DG_PLAN_NONE || d->alias_of != DG_PLAN_NONE ||
       dg_type_size(s->ty.type) != dg_type_size(d->ty.type) ||
       dg_shape_elements(&s->ty.shape) != dg_shape_elements(&d->ty.shape))
      return false;
   d->alias_of = s->alias_of != DG_PLAN_NONE ? s->alias_of : sv;
   d->alias_offset = s->alias_of != DG_PLAN_NONE ? s->alias_offset : 0; /* a RESHAPE of a SLICE */
   d->bind_point = b->plan->tensors[d->alias_of].bind_point;
   return true;
}

bool
dg_build_try_alias_at(struct dg_build *b, uint32_t whole, uint32_t part, uint64_t offset)
{
   uint32_t wv, pv;
   if (tensor_for(b, whole, &wv) != VK_SUCCESS || tensor_for(b, part, &pv) != VK_SUCCESS ||
       wv == pv)
      return false;
   struct dg_stage_plan *p = b->plan;
   struct dg_plan_tensor *w = &p->tensors[wv], *t = &p->tensors[pv];
   uint32_t align = b->caps->alias_alignment;
   uint64_t part_bytes = dg_shape_elements(&t->ty.shape) * dg_type_size(t->ty.type);
   uint64_t whole_bytes = dg_shape_elements(&w->ty.shape) * dg_type_size(w->ty.type);
   if (w->kind != DG_PLAN_TENSOR_INTERMEDIATE || t->kind != DG_PLAN_TENSOR_INTERMEDIATE ||
       t->alias_of != DG_PLAN_NONE || (offset && (!align || offset % align)) ||
       offset + part_bytes > whole_bytes)
      return false;
   /* Whole keeps its root (a SLICE of a RESHAPE alias); a written whole cannot take a part
    * that is a root of written tensors' memory as well, unless the part was unused. */
   uint32_t root = w->alias_of != DG_PLAN_NONE ? w->alias_of : wv;
   uint64_t base = w->alias_of != DG_PLAN_NONE ? w->alias_offset : 0;
   if (root == pv)
      return false;
   /* Tensors aliasing part (RESHAPEs of it) move with it to the new root. */
   for (uint32_t i = 0; i < p->tensor_count; i++) {
      if (p->tensors[i].alias_of == pv) {
         p->tensors[i].alias_of = root;
         p->tensors[i].alias_offset += base + offset;
         p->tensors[i].bind_point = p->tensors[root].bind_point;
      }
   }
   t->alias_of = root;
   t->alias_offset = base + offset;
   t->bind_point = p->tensors[root].bind_point;
   lyr_logd("TOSA %s %%%u: tensor %u is bytes %" PRIu64 ".. of tensor %u (no copy)",
            node_name(b->graph, b->node), node_result(b->graph, b->node), pv, t->alias_offset,
            root);
   return true;
}

VkResult
dg_build_set_binding_kind(struct dg_build *b, uint32_t k, enum dg_plan_binding_kind kind)
{
   struct dg_stage_plan *p = b->plan;
   if (!p->stage_count || k >= p->stages[p->stage_count - 1].tensor_count ||
       (kind != DG_PLAN_BINDING_TENSOR && kind != DG_PLAN_BINDING_IMAGE))
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: binding kind %d for tensor %u of no "
                       "stage",
                       node_name(b->graph, b->node), node_result(b->graph, b->node), (int)kind,
                       k);
   p->stages[p->stage_count - 1].binding_kind[k] = (uint8_t)kind;
   return VK_SUCCESS;
}

VkResult
dg_build_set_epilogue(struct dg_build *b, const uint32_t *epi)
{
   struct dg_stage_plan *p = b->plan;
   if (!p->stage_count || !epi || epi[0] > DG_EPI_MAX_OPS)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: an epilogue of no stage or too long",
                       node_name(b->graph, b->node), node_result(b->graph, b->node));
   memcpy(p->stages[p->stage_count - 1].epi, epi, sizeof(p->stages[0].epi));
   return VK_SUCCESS;
}

bool
dg_build_fusion(const struct dg_build *b)
{
   if (b->caps->kernels == DG_KERNELS_REFERENCE)
      return false;
   return b->caps->fusion == DG_FUSION_ON ||
          (b->caps->fusion == DG_FUSION_AUTO && !dg_build_cpu_device(b));
}

VkResult
dg_build_fuse_nodes(struct dg_build *b, uint32_t count)
{
   struct dg_stage_plan *p = b->plan;
   struct dg_plan_stage *s = p->stage_count ? &p->stages[p->stage_count - 1] : NULL;
   uint32_t nodes = b->graph->node_count;
   if (!s || b->node >= nodes || s->first_node != b->node || count > nodes - b->node - 1 ||
       count < b->fused)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: cannot fuse %u more nodes",
                       node_name(b->graph, b->node), node_result(b->graph, b->node), count);
   s->node_count = 1 + count;
   b->fused = count;
   return VK_SUCCESS;
}

/* ---- stages ------------------------------------------------------------------------------- */

/* The shape specialization of one kernel tensor (graph_kernel.h VMEL_SC_SHAPE): dims always
 * (a TOSA graph's shapes are static), strides for the tensors the layer owns (packed); the
 * application's tensors keep the strides of the tensor it binds. */
static bool
shape_constants(const struct dg_plan_tensor *t, uint32_t *data)
{
   const struct dg_shape *shape = &t->ty.shape;
   uint32_t known = VMEL_SHAPE_DIMS;
   if (shape->rank == 0 || shape->rank > DG_MAX_RANK)
      return false;
   data[VMEL_SHAPE_RANK] = shape->rank;
   for (uint32_t d = 0; d < DG_MAX_RANK; d++) {
      if (d < shape->rank && (shape->dim[d] <= 0 || shape->dim[d] > UINT32_MAX))
         return false;
      data[VMEL_SHAPE_DIM(d)] = d < shape->rank ? (uint32_t)shape->dim[d] : 1u;
      data[VMEL_SHAPE_STRIDE(d)] = 0;
   }
   if (t->kind != DG_PLAN_TENSOR_INPUT && t->kind != DG_PLAN_TENSOR_OUTPUT) {
      uint64_t stride = dg_type_size(t->ty.type);
      for (uint32_t d = shape->rank; d-- > 0;) {
         if (stride > UINT32_MAX)
            return false;
         data[VMEL_SHAPE_STRIDE(d)] = (uint32_t)stride;
         stride *= (uint64_t)shape->dim[d];
      }
      known |= VMEL_SHAPE_STRIDES;
   }
   data[VMEL_SHAPE_KNOWN] = known;
   return true;
}

VkResult
dg_build_add_stage(struct dg_build *b, uint32_t kernel, const uint32_t *tensors,
                   uint32_t tensor_count, uint32_t writes, const void *attrs, uint32_t attr_size,
                   uint64_t work)
{
   struct dg_stage_plan *p = b->plan;
   const struct dg_graph *g = b->graph;
   const char *op = node_name(g, b->node);
   uint32_t result_id = node_result(g, b->node);
   if (kernel >= DG_KERNEL_COUNT)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: kernel id %u is not in this build", op,
                       result_id, kernel);
   if (tensor_count == 0 || tensor_count > VMEL_GRAPH_MAX_TENSORS ||
       attr_size > 4 * DG_PLAN_ATTR_WORDS || attr_size % 4 != 0 || (attr_size && !attrs) ||
       !tensors || writes == 0 || (writes >> tensor_count) != 0)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: kernel %u call out of the ABI's bounds "
                       "(%u tensors, write mask 0x%x, %u attribute bytes)",
                       op, result_id, kernel, tensor_count, writes, attr_size);
   /* Work is spread over a 2D grid of 1D workgroups of the variant's size. */
   uint32_t local = dg_kernel_local_size(kernel);
   uint32_t max_x = b->caps->max_groups[0], max_y = b->caps->max_groups[1];
   if (local == 0 || max_x == 0 || max_y == 0 || work > UINT32_MAX)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: %llu work items exceed the device's "
                       "workgroup-count limits",
                       op, result_id, (unsigned long long)work);
   uint64_t groups = (work + local - 1) / local;
   if (groups == 0)
      groups = 1;
   uint32_t gx = (uint32_t)(groups < max_x ? groups : max_x);
   uint64_t gy = (groups + gx - 1) / gx;
   if (gy > max_y)
      return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: %llu work items exceed the device's "
                       "workgroup-count limits",
                       op, result_id, (unsigned long long)work);

   struct dg_plan_stage *stages =
      grow(b->alloc, p->stages, &b->stage_capacity, p->stage_count + 1, sizeof(*stages));
   if (!stages)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for %u stages",
                       p->stage_count + 1);
   p->stages = stages;
   uint32_t index = p->stage_count;
   struct dg_plan_stage *s = &stages[index];
   *s = (struct dg_plan_stage){
      .kernel = kernel,
      .first_node = b->node < g->node_count ? b->node : DG_PLAN_NONE,
      .node_count = b->node < g->node_count ? 1 : 0,
      .tensor_count = tensor_count,
      .write_mask = writes,
      .attr_words = attr_size / 4,
      .work = work,
      .local_size = local,
      .groups = {gx, (uint32_t)gy},
      .internal_set = DG_PLAN_NONE,
      .pipeline_of = index,
   };
   if (attr_size)
      memcpy(s->attrs, attrs, attr_size);
   for (uint32_t i = 0; i < tensor_count; i++) {
      VkResult result = tensor_for(b, tensors[i], &s->tensors[i]);
      if (result != VK_SUCCESS)
         return result;
      const struct dg_plan_tensor *t = &p->tensors[s->tensors[i]];
      if ((writes & (1u << i)) &&
          (t->kind == DG_PLAN_TENSOR_INPUT || t->kind == DG_PLAN_TENSOR_CONSTANT))
         return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: kernel %u would write a graph %s",
                          op, result_id, kernel,
                          t->kind == DG_PLAN_TENSOR_INPUT ? "input" : "constant");
      if (!shape_constants(t, s->shape[i]))
         return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u: tensor %u of kernel %u has a shape "
                          "the kernels cannot address (32-bit dimensions and strides)",
                          op, result_id, i, kernel);
   }
   p->stage_count++;
   /* Only now: a failed call leaves no half stage and no interval. */
   for (uint32_t i = 0; i < tensor_count; i++) {
      struct dg_plan_tensor *t = &p->tensors[s->tensors[i]];
      if (t->first_stage == DG_PLAN_NONE)
         t->first_stage = index;
      t->last_stage = index;
   }
   return VK_SUCCESS;
}

/* ---- finishing the plan ------------------------------------------------------------------- */

uint32_t
dg_plan_tensor_root(const struct dg_stage_plan *plan, uint32_t t)
{
   uint32_t a = plan->tensors[t].alias_of;
   return a != DG_PLAN_NONE ? a : t;
}

static bool
is_memory(const struct dg_plan_tensor *t)
{
   return t->kind == DG_PLAN_TENSOR_INTERMEDIATE || t->kind == DG_PLAN_TENSOR_SCRATCH;
}

static bool
is_internal(const struct dg_plan_tensor *t)
{
   return is_memory(t) || t->kind == DG_PLAN_TENSOR_CONSTANT;
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
      VkResult result = tensor_for(b, io->tensor, &src);
      if (result != VK_SUCCESS)
         return result;
      const struct dg_plan_tensor *t = &b->plan->tensors[src];
      if (t->kind == DG_PLAN_TENSOR_OUTPUT && t->io == i && t->first_stage != DG_PLAN_NONE)
         continue;
      result = dg_build_output_copy(b, io);
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* Session memory in tensor order (a CONCAT output may be numbered after its parts). */
static VkResult
number_memory(struct dg_build *b)
{
   struct dg_stage_plan *p = b->plan;
   uint32_t n = 0;
   for (uint32_t i = 0; i < p->tensor_count; i++)
      n += is_memory(&p->tensors[i]);
   p->memory = lyr_alloc(b->alloc, ((size_t)n + 1) * sizeof(*p->memory), 8,
                         VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p->memory)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for %u session "
                       "tensors",
                       n);
   for (uint32_t i = 0; i < p->tensor_count; i++) {
      struct dg_plan_tensor *t = &p->tensors[i];
      if (!is_memory(t))
         continue;
      t->index = p->memory_count;
      p->memory[p->memory_count++] = i;
      if (t->first_stage != DG_PLAN_NONE && t->bind_point >= p->bind_point_count)
         p->bind_point_count = t->bind_point + 1;
   }
   return VK_SUCCESS;
}

/* Each stage binds only the intermediates and constants it uses, at bindings
 * 0.. of an internal set of its own; stages with identical lists share a set.
 * The internal set layout has as many bindings as the most any stage binds. */
static VkResult
assign_internal_sets(struct dg_build *b)
{
   struct dg_stage_plan *p = b->plan;
   p->app_set_count = b->layout->set_count;
   p->internal_set = p->app_set_count;
   p->internal_sets = lyr_zalloc(b->alloc, ((size_t)p->stage_count + 1) *
                                              sizeof(*p->internal_sets),
                                 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p->internal_sets)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for internal sets");
   for (uint32_t j = 0; j < p->stage_count; j++) {
      struct dg_plan_stage *st = &p->stages[j];
      struct dg_plan_internal_set list = {0};
      for (uint32_t k = 0; k < st->tensor_count; k++) {
         const struct dg_plan_tensor *t = &p->tensors[st->tensors[k]];
         if (!is_internal(t)) {
            st->slots[k] = t->slot;
            continue;
         }
         uint32_t i = 0;
         while (i < list.count && list.tensors[i] != st->tensors[k])
            i++;
         if (i == list.count)
            list.tensors[list.count++] = st->tensors[k];
         st->slots[k] = (struct dg_plan_slot){DG_PLAN_SLOT_INTERNAL, p->internal_set, i, 0, 1};
      }
      if (!list.count)
         continue;
      if (list.count > p->internal_binding_count)
         p->internal_binding_count = list.count;
      /* A linear search: creation time only, and graphs of a few thousand
       * stages take milliseconds. */
      uint32_t i = 0;
      while (i < p->internal_set_count &&
             (p->internal_sets[i].count != list.count ||
              memcmp(p->internal_sets[i].tensors, list.tensors, list.count * sizeof(uint32_t))))
         i++;
      if (i == p->internal_set_count)
         p->internal_sets[p->internal_set_count++] = list;
      st->internal_set = i;
   }
   return VK_SUCCESS;
}

/* What one pipeline layout declares, as the descriptor limits count it. */
struct descriptor_use {
   uint64_t stage_storage_buffers; /* storage buffers (dynamic too) the compute stage sees */
   uint64_t storage_buffers;       /* storage buffers (not dynamic) in the whole layout */
   uint64_t stage_resources;       /* resources the compute stage sees */
};

/* Adds one binding. Tensor bindings are storage buffers below the tensor layer
 * (decisions D3) and compute-visible in the kernels' copies. */
static void
count_binding(const struct dg_plan_app_binding *b, struct descriptor_use *u)
{
   bool tensor = (int)b->type == (int)VK_DESCRIPTOR_TYPE_TENSOR_ARM;
   bool compute = tensor || (b->stages & VK_SHADER_STAGE_COMPUTE_BIT);
   bool plain = tensor || b->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
   bool storage = plain || b->type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
   bool resource = storage;
   switch (b->type) {
   case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER:
   case VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE:
   case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE:
   case VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER:
   case VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER:
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER:
   case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC:
   case VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT:
      resource = true;
      break;
   default:
      break;
   }
   if (plain)
      u->storage_buffers += b->count;
   if (storage && compute)
      u->stage_storage_buffers += b->count;
   if (resource && compute)
      u->stage_resources += b->count;
}

/* The stage binding the most internal tensors (for the message). */
static const struct dg_plan_stage *
widest_stage(const struct dg_stage_plan *p)
{
   const struct dg_plan_stage *w = NULL;
   for (uint32_t j = 0; j < p->stage_count; j++) {
      const struct dg_plan_stage *st = &p->stages[j];
      if (st->internal_set == DG_PLAN_NONE)
         continue;
      if (!w || p->internal_sets[st->internal_set].count > p->internal_sets[w->internal_set].count)
         w = st;
   }
   return w;
}

static VkResult
limit_error(const struct dg_build *b, const char *what, const char *limit, uint64_t app,
            uint32_t max)
{
   const struct dg_stage_plan *p = b->plan;
   const struct dg_plan_stage *w = widest_stage(p);
   uint32_t node = w ? w->first_node : DG_PLAN_NONE;
   return lyr_error(VK_ERROR_UNKNOWN,
                    "vkCreateDataGraphPipelinesARM: the graph does not fit the device's "
                    "descriptor limits: its kernels' pipeline layout would declare %llu %s (%llu "
                    "from the application's pipeline layout, %u in the internal set, the most "
                    "one stage binds: TOSA %s %%%u), above %s = %u; pipeline not created",
                    (unsigned long long)(app + p->internal_binding_count), what,
                    (unsigned long long)app, p->internal_binding_count,
                    w ? node_name(b->graph, node) : "-", w ? node_result(b->graph, node) : 0,
                    limit, max);
}

/* The kernels' pipeline layout (copies of the application's set layouts and
 * the internal set layout) must stay within the device's limits; a stage
 * already binds only what it uses, so what does not fit cannot run. */
static VkResult
check_descriptor_limits(const struct dg_build *b)
{
   const struct dg_stage_plan *p = b->plan;
   const struct dg_plan_caps *caps = b->caps;
   /* Storage buffers: [0] counts layouts without UPDATE_AFTER_BIND_POOL
    * against the ordinary limits (VkPipelineLayoutCreateInfo VUIDs 03018,
    * 03031), [1] every layout against the update-after-bind ones (03024,
    * 03039). Resources: every layout against maxPerStageResources
    * (VkComputePipelineCreateInfo 01687) and its update-after-bind twin. Sets:
    * maxBoundDescriptorSets (00286). */
   struct descriptor_use use[2] = {{0}};
   for (uint32_t i = 0; i < b->layout->binding_count; i++) {
      const struct dg_plan_app_binding *ab = &b->layout->bindings[i];
      if (!ab->update_after_bind)
         count_binding(ab, &use[0]);
      count_binding(ab, &use[1]);
   }
   uint64_t sets = (uint64_t)p->app_set_count + (p->internal_binding_count ? 1 : 0);
   if (caps->max_bound_sets && sets > caps->max_bound_sets)
      return lyr_error(VK_ERROR_UNKNOWN,
                       "vkCreateDataGraphPipelinesARM: the graph does not fit the device's "
                       "descriptor limits: the application's pipeline layout has %u sets and "
                       "the kernels need one more for intermediates and constants, above "
                       "maxBoundDescriptorSets = %u; pipeline not created",
                       p->app_set_count, caps->max_bound_sets);
   static const char *const names[2][3] = {
      {"maxPerStageDescriptorStorageBuffers", "maxDescriptorSetStorageBuffers",
       "maxPerStageResources"},
      {"maxPerStageDescriptorUpdateAfterBindStorageBuffers",
       "maxDescriptorSetUpdateAfterBindStorageBuffers", "maxPerStageUpdateAfterBindResources"},
   };
   const uint64_t internal = p->internal_binding_count;
   for (uint32_t l = 0; l < 2; l++) {
      /* A limit of 0 was not reported (no Vulkan 1.2 properties). */
      uint32_t max = caps->descriptor_limits[l].per_stage_storage_buffers;
      if (max && use[l].stage_storage_buffers + internal > max)
         return limit_error(b, "storage buffers for the compute stage", names[l][0],
                            use[l].stage_storage_buffers, max);
      max = caps->descriptor_limits[l].set_storage_buffers;
      if (max && use[l].storage_buffers + internal > max)
         return limit_error(b, "storage buffers", names[l][1], use[l].storage_buffers, max);
      max = caps->descriptor_limits[l].per_stage_resources;
      if (max && use[1].stage_resources + internal > max)
         return limit_error(b, "resources for the compute stage", names[l][2],
                            use[1].stage_resources, max);
   }
   return VK_SUCCESS;
}

/* Every stage's workgroup against the device's maxComputeWorkGroupInvocations (when the
 * caps report it): a kernel declared wider than the device allows (FFT2D's 256-invocation
 * lines, above the 128 Vulkan guarantees) is refused at creation, never dispatched. */
static VkResult
check_workgroups(const struct dg_build *b)
{
   const uint32_t max = b->caps->max_workgroup_invocations;
   const struct dg_stage_plan *p = b->plan;
   for (uint32_t j = 0; max && j < p->stage_count; j++) {
      const struct dg_plan_stage *st = &p->stages[j];
      if (st->local_size > max)
         return lyr_error(VK_ERROR_UNKNOWN,
                          "TOSA %s %%%u: its kernel runs workgroups of %u invocations; the "
                          "device's maxComputeWorkGroupInvocations is %u",
                          node_name(b->graph, st->first_node),
                          node_result(b->graph, st->first_node), st->local_size, max);
   }
   return VK_SUCCESS;
}

/* Per memory root, while dependencies are derived: the last group of writes (one
 * write, or a node's disjoint writes) and the stages that read since it began. */
struct access {
   uint32_t *writers, writer_count, writer_capacity;
   uint32_t *readers, reader_count, reader_capacity;
};

static VkResult
append(const VkAllocationCallbacks *alloc, uint32_t **array, uint32_t *count, uint32_t *capacity,
       uint32_t value)
{
   uint32_t *a = grow(alloc, *array, capacity, *count + 1, sizeof(**array));
   if (!a)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for dependencies");
   *array = a;
   a[(*count)++] = value;
   return VK_SUCCESS;
}

/* append(), unless value is already last (a stage reading or writing a root twice). */
static VkResult
push(const VkAllocationCallbacks *alloc, uint32_t **array, uint32_t *count, uint32_t *capacity,
     uint32_t value)
{
   if (*count && (*array)[*count - 1] == value)
      return VK_SUCCESS;
   return append(alloc, array, count, capacity, value);
}

static int
cmp_u32(const void *a, const void *b)
{
   uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
   return x < y ? -1 : x > y;
}

/* Appends the stages in list to stage j's dependencies (deduplicated later). */
static VkResult
depend_on(struct dg_build *b, const uint32_t *list, uint32_t count, uint32_t j)
{
   struct dg_stage_plan *p = b->plan;
   for (uint32_t i = 0; i < count; i++) {
      if (list[i] == j)
         continue;
      /* Not push(): the array's last entry may be the previous stage's (deduplicated
       * per stage once its accesses are known). */
      VkResult result = append(b->alloc, &p->deps, &p->dep_count, &b->dep_capacity, list[i]);
      if (result != VK_SUCCESS)
         return result;
   }
   return VK_SUCCESS;
}

/* Stage j's accesses to one memory root: reads depend on the last writes (RAW),
 * writes on the reads since them (WAR) and on them (WAW), unless both are disjoint
 * writes of one node (CONCAT's copies). Graph inputs and constants are never written:
 * nothing to track. */
static VkResult
stage_access(struct dg_build *b, struct access *a, uint32_t j, bool reads, bool writes)
{
   struct dg_stage_plan *p = b->plan;
   const struct dg_plan_stage *sj = &p->stages[j];
   VkResult result = VK_SUCCESS;
   if (reads) {
      result = depend_on(b, a->writers, a->writer_count, j);
      if (result == VK_SUCCESS)
         result = push(b->alloc, &a->readers, &a->reader_count, &a->reader_capacity, j);
   }
   if (!writes || result != VK_SUCCESS)
      return result;
   result = depend_on(b, a->readers, a->reader_count, j);
   const struct dg_plan_stage *last =
      a->writer_count ? &p->stages[a->writers[a->writer_count - 1]] : NULL;
   bool same_group = last && last->disjoint_writes && sj->disjoint_writes &&
                     last->first_node == sj->first_node && last->first_node != DG_PLAN_NONE;
   if (result == VK_SUCCESS && !same_group) {
      result = depend_on(b, a->writers, a->writer_count, j);
      a->writer_count = 0;
      a->reader_count = 0;
   }
   if (result == VK_SUCCESS)
      result = push(b->alloc, &a->writers, &a->writer_count, &a->writer_capacity, j);
   return result;
}

/* Each stage's dependencies: the earlier stages that access the same memory (a
 * tensor, or an alias of it) with one of the two writing. */
static VkResult
derive_dependencies(struct dg_build *b)
{
   struct dg_stage_plan *p = b->plan;
   struct access *acc = lyr_zalloc(b->alloc, ((size_t)p->tensor_count + 1) * sizeof(*acc), 8,
                                   VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!acc)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for dependencies");
   VkResult result = VK_SUCCESS;
   for (uint32_t j = 0; j < p->stage_count && result == VK_SUCCESS; j++) {
      struct dg_plan_stage *sj = &p->stages[j];
      sj->first_dep = p->dep_count;
      for (uint32_t k = 0; k < sj->tensor_count && result == VK_SUCCESS; k++) {
         uint32_t root = dg_plan_tensor_root(p, sj->tensors[k]);
         enum dg_plan_tensor_kind kind = p->tensors[root].kind;
         if (kind == DG_PLAN_TENSOR_INPUT || kind == DG_PLAN_TENSOR_CONSTANT)
            continue;
         /* One access per root and stage: a tensor bound twice reads and writes once. */
         bool reads = false, writes = false, seen = false;
         for (uint32_t m = 0; m < sj->tensor_count; m++) {
            if (dg_plan_tensor_root(p, sj->tensors[m]) != root)
               continue;
            seen |= m < k;
            if (sj->write_mask & (1u << m))
               writes = true;
            else
               reads = true;
         }
         if (!seen)
            result = stage_access(b, &acc[root], j, reads, writes);
      }
      if (result == VK_SUCCESS) {
         /* p->deps is NULL until a first dependency (no offset on a null pointer: UB). */
         uint32_t n = p->dep_count - sj->first_dep, *d = n ? p->deps + sj->first_dep : NULL;
         if (n > 1)
            qsort(d, n, sizeof(*d), cmp_u32);
         uint32_t u = 0;
         for (uint32_t i = 0; i < n; i++)
            if (u == 0 || d[u - 1] != d[i])
               d[u++] = d[i];
         sj->dep_count = u;
         p->dep_count = sj->first_dep + u;
      }
   }
   for (uint32_t i = 0; i < p->tensor_count; i++) {
      lyr_free(b->alloc, acc[i].writers);
      lyr_free(b->alloc, acc[i].readers);
   }
   lyr_free(b->alloc, acc);
   return result;
}

bool
dg_plan_stage_depends(const struct dg_stage_plan *plan, uint32_t j, uint32_t i)
{
   if (j >= plan->stage_count)
      return false;
   const struct dg_plan_stage *s = &plan->stages[j];
   for (uint32_t d = 0; d < s->dep_count; d++)
      if (plan->deps[s->first_dep + d] == i)
         return true;
   return false;
}

/* Stage j must follow stage i: a plan dependency, or the caller's reason. */
static bool
must_follow(const struct dg_stage_plan *plan, dg_plan_follows_fn follows, void *user, uint32_t j,
            uint32_t i)
{
   return dg_plan_stage_depends(plan, j, i) || (follows && follows(j, i, user));
}

uint32_t
dg_plan_barriers(const struct dg_stage_plan *plan, bool by_level, dg_plan_follows_fn follows,
                 void *user, uint32_t *level, uint32_t *order, bool *barrier_before)
{
   const uint32_t n = plan->stage_count;
   uint32_t barriers = 0;
   if (!by_level) {
      uint32_t since = 0; /* first stage after the last barrier */
      for (uint32_t j = 0; j < n; j++) {
         bool need = false;
         for (uint32_t i = since; i < j && !need; i++)
            need = must_follow(plan, follows, user, j, i);
         order[j] = j;
         barrier_before[j] = need;
         barriers += need;
         if (need)
            since = j;
      }
      return barriers;
   }
   uint32_t levels = 0;
   for (uint32_t j = 0; j < n; j++) {
      level[j] = 0;
      for (uint32_t i = 0; i < j; i++)
         if (level[i] + 1 > level[j] && must_follow(plan, follows, user, j, i))
            level[j] = level[i] + 1;
      levels = level[j] + 1 > levels ? level[j] + 1 : levels;
   }
   /* level by level, plan order within one (n is small: a pass per level) */
   uint32_t k = 0;
   for (uint32_t l = 0; l < levels; l++) {
      for (uint32_t j = 0; j < n; j++) {
         if (level[j] != l)
            continue;
         barrier_before[k] = k > 0 && level[order[k - 1]] != l;
         barriers += barrier_before[k];
         order[k++] = j;
      }
   }
   return barriers;
}

uint32_t
dg_plan_stage_spec(const struct dg_stage_plan *plan, uint32_t index, uint32_t *ids,
                   uint32_t *values)
{
   const struct dg_plan_stage *s = &plan->stages[index];
   uint32_t n = 0;
#define ENTRY(id, value)                                                                           \
   do {                                                                                            \
      ids[n] = (id);                                                                               \
      values[n++] = (value);                                                                       \
   } while (0)
   ENTRY(VMEL_SC_WORK_COUNT, (uint32_t)s->work);
   ENTRY(VMEL_SC_LOCAL_SIZE_X, s->local_size);
   for (uint32_t t = 0; t < s->tensor_count; t++) {
      ENTRY(VMEL_SC_TENSOR_COUNT(t), s->slots[t].count);
      ENTRY(VMEL_SC_TENSOR_INDEX(t), s->slots[t].element);
      for (uint32_t i = 0; i < DG_PLAN_SHAPE_WORDS; i++)
         ENTRY(VMEL_SC_SHAPE(t, i), s->shape[t][i]);
   }
   for (uint32_t a = 0; a < s->attr_words; a++)
      ENTRY(VMEL_SC_ATTR(a), s->attrs[a]);
   for (uint32_t i = 0; s->epi[0] && i < DG_EPI_WORDS; i++)
      ENTRY(VMEL_SC_EPI(i), s->epi[i]);
#undef ENTRY
   return n;
}

/* Identical compute pipelines (same variant, bindings and specialization) are created
 * once per graph pipeline: each stage names the first stage it can share with. */
static void
share_pipelines(struct dg_stage_plan *p)
{
   for (uint32_t j = 0; j < p->stage_count; j++) {
      const struct dg_plan_stage *sj = &p->stages[j];
      for (uint32_t i = 0; i < j; i++) {
         const struct dg_plan_stage *si = &p->stages[i];
         if (si->pipeline_of != i || si->kernel != sj->kernel ||
             si->tensor_count != sj->tensor_count || si->attr_words != sj->attr_words ||
             si->work != sj->work || si->local_size != sj->local_size ||
             memcmp(si->attrs, sj->attrs, si->attr_words * 4) ||
             memcmp(si->epi, sj->epi, sizeof(si->epi)) ||
             memcmp(si->binding_kind, sj->binding_kind, sizeof(si->binding_kind)) ||
             memcmp(si->shape, sj->shape, sj->tensor_count * sizeof(si->shape[0])))
            continue;
         bool same = true;
         for (uint32_t k = 0; k < sj->tensor_count && same; k++) {
            const struct dg_plan_slot *a = &si->slots[k], *c = &sj->slots[k];
            same = a->kind == c->kind && a->set == c->set && a->binding == c->binding &&
                   a->element == c->element && a->count == c->count;
         }
         if (same) {
            p->stages[j].pipeline_of = i;
            break;
         }
      }
   }
}

VkResult
dg_stage_plan_check_instantiable(const struct dg_stage_plan *plan)
{
   for (uint32_t j = 0; j < plan->stage_count; j++) {
      const struct dg_plan_stage *s = &plan->stages[j];
      for (uint32_t k = 0; k < s->tensor_count; k++) {
         if (s->binding_kind[k] != DG_PLAN_BINDING_TENSOR)
            return lyr_error(VK_ERROR_UNKNOWN, "vkCreateDataGraphPipelinesARM: stage %u "
                             "(kernel %u) binds its tensor %u as an image; the layer binds "
                             "tensors only yet",
                             j, s->kernel, k);
      }
   }
   for (uint32_t i = 0; i < plan->memory_count; i++) {
      const struct dg_plan_tensor *t = &plan->tensors[plan->memory[i]];
      if (t->bind_point != 0 && t->first_stage != DG_PLAN_NONE)
         return lyr_error(VK_ERROR_UNKNOWN, "vkCreateDataGraphPipelinesARM: a session tensor "
                          "is planned at bind point %u; sessions have only the transient bind "
                          "point yet",
                          t->bind_point);
   }
   return VK_SUCCESS;
}

void
dg_stage_plan_intervals(const struct dg_stage_plan *plan, const VkDeviceSize *sizes,
                        struct dg_interval *iv)
{
   uint32_t n = plan->memory_count;
   for (uint32_t i = 0; i < n; i++) {
      const struct dg_plan_tensor *t = &plan->tensors[plan->memory[i]];
      iv[i] = t->first_stage == DG_PLAN_NONE
                 ? (struct dg_interval){0, 0, 0}
                 : (struct dg_interval){sizes[i], t->first_stage, t->last_stage};
   }
   /* Aliases (RESHAPE outputs) take no memory of their own: their root's
    * interval grows to cover their uses. */
   for (uint32_t i = 0; i < n; i++) {
      const struct dg_plan_tensor *t = &plan->tensors[plan->memory[i]];
      if (t->alias_of == DG_PLAN_NONE)
         continue;
      uint32_t r = plan->tensors[t->alias_of].index;
      if (iv[i].size) {
         if (iv[r].size == 0) {
            iv[r] = (struct dg_interval){sizes[r], iv[i].first, iv[i].last};
         } else {
            if (iv[i].first < iv[r].first)
               iv[r].first = iv[i].first;
            if (iv[i].last > iv[r].last)
               iv[r].last = iv[i].last;
         }
      }
      iv[i] = (struct dg_interval){0, 0, 0};
   }
   /* An alias at an offset may need more than its root where the device rounds sizes up: the
    * root's interval covers the alias's last byte. */
   for (uint32_t i = 0; i < n; i++) {
      const struct dg_plan_tensor *t = &plan->tensors[plan->memory[i]];
      if (t->alias_of == DG_PLAN_NONE)
         continue;
      uint32_t r = plan->tensors[t->alias_of].index;
      if (iv[r].size && iv[r].size < t->alias_offset + sizes[i])
         iv[r].size = t->alias_offset + sizes[i];
   }
}

void
dg_stage_plan_destroy(struct dg_stage_plan *p)
{
   if (!p)
      return;
   VkAllocationCallbacks a = p->alloc;
   for (uint32_t i = 0; p->constants && i < p->constant_count; i++)
      if (p->constants[i].owned)
         lyr_free(&a, (void *)p->constants[i].data);
   lyr_free(&a, p->constants);
   lyr_free(&a, p->tensors);
   lyr_free(&a, p->stages);
   lyr_free(&a, p->deps);
   lyr_free(&a, p->memory);
   lyr_free(&a, p->internal_sets);
   lyr_free(&a, p);
}

static VkResult
build_nodes(struct dg_build *b, dg_op_build_fn (*builder)(uint32_t op))
{
   const struct dg_graph *g = b->graph;
   for (uint32_t n = 0; n < g->node_count; n++) {
      b->node = n;
      b->fused = 0;
      dg_op_build_fn build = builder(g->nodes[n].op);
      if (!build)
         return lyr_error(VK_ERROR_UNKNOWN, "TOSA %s %%%u at word %u: no kernel for this "
                          "operator yet",
                          g->nodes[n].name, g->nodes[n].result_id, g->nodes[n].offset);
      bool built;
      VkResult result = dg_fuse_elementwise(b, &g->nodes[n], &built);
      if (result == VK_SUCCESS && !built)
         result = build(b, &g->nodes[n]);
      if (result != VK_SUCCESS)
         return result;
      n += b->fused;
   }
   b->node = UINT32_MAX;
   b->fused = 0;
   return build_output_copies(b);
}

VkResult
dg_stage_plan_build(const struct dg_plan_input *in, const VkAllocationCallbacks *alloc,
                    struct dg_stage_plan **out)
{
   *out = NULL;
   if (!in || !in->graph || !in->layout || !in->caps || !alloc)
      return lyr_error(VK_ERROR_UNKNOWN, "dg_stage_plan_build: no graph, layout or caps");
   const struct dg_graph *g = in->graph;
   struct dg_stage_plan *p = lyr_zalloc(alloc, sizeof(*p), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for a plan");
   p->alloc = *alloc;
   struct dg_build b = {
      .graph = g,
      .layout = in->layout,
      .caps = in->caps,
      .plan = p,
      .alloc = &p->alloc,
      .node = UINT32_MAX,
      .ref_count = g->tensor_count,
   };
   VkResult result = VK_SUCCESS;
   /* References: every IR tensor, then extras (tensor_of grows with them). */
   if (g->tensor_count == UINT32_MAX ||
       !(b.tensor_of = grow(b.alloc, NULL, &b.ref_capacity, g->tensor_count + 1,
                            sizeof(uint32_t))))
      result = lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "TOSA build: no memory for %u tensor "
                         "references",
                         g->tensor_count);
   else
      memset(b.tensor_of, 0xff, (size_t)b.ref_capacity * sizeof(uint32_t));
   if (result == VK_SUCCESS)
      result = build_nodes(&b, in->builder ? in->builder : dg_op_builder);
   if (result == VK_SUCCESS)
      result = number_memory(&b);
   if (result == VK_SUCCESS)
      result = assign_internal_sets(&b);
   if (result == VK_SUCCESS)
      result = check_descriptor_limits(&b);
   if (result == VK_SUCCESS)
      result = check_workgroups(&b);
   if (result == VK_SUCCESS)
      result = derive_dependencies(&b);
   if (result == VK_SUCCESS)
      share_pipelines(p);
   lyr_free(b.alloc, b.tensor_of);
   if (result != VK_SUCCESS) {
      dg_stage_plan_destroy(p);
      return result;
   }
   *out = p;
   return VK_SUCCESS;
}
