/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Instantiating a stage plan (design.md §6, §10): the plan itself is built
 * without a Vulkan call by dg_stage_plan.c from the decoded graph, this
 * device's capabilities and the application's pipeline layout as plain data
 * (both gathered here). This file then asks dg_pipeline.c for the kernels'
 * layouts and constants and creates one compute pipeline per distinct stage:
 * the tensor bindings of the compiled SPIR-V are rewritten to where the plan
 * binds them (kernel_abi/graph_kernel.h) and the plan's specialization data
 * (shapes, attributes, work) become specialization constants.
 */
#include "dg_runtime.h"

#include <stdalign.h>
#include <stdio.h>

#include "dg_op.h"
#include "dg_pipeline_stats.h"
#include "spirv/spirv.h"
#include "vmel_kernels_graph.h"

#define SPV_OP_DECORATE 71u
#define SPV_DECORATION_BINDING 33u
#define SPV_DECORATION_DESCRIPTOR_SET 34u

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

/* ---- compute pipelines -------------------------------------------------- */

/* Copies the kernel and points binding k of set 0 at where tensor k lives. */
static VkResult
patch_bindings(const VkAllocationCallbacks *alloc, const struct dg_plan_stage *s,
               const struct vmel_kernel *k, uint32_t **out)
{
   struct spirv_reader r;
   struct spirv_diag diag;
   VkResult result = spirv_reader_init(&r, k->code, k->word_count, alloc, &diag);
   if (result == VK_ERROR_OUT_OF_HOST_MEMORY)
      return lyr_error(result, "kernel %s: no memory to read its SPIR-V", k->name);
   if (result != VK_SUCCESS)
      return lyr_error(VK_ERROR_UNKNOWN, "kernel %s: %s", k->name, diag.message);
   uint32_t *words =
      lyr_alloc(alloc, k->word_count * 4, 4, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
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
   for (uint32_t t = 0; t < s->tensor_count; t++) {
      if (!set_word[t]) {
         lyr_free(alloc, words);
         return lyr_error(VK_ERROR_UNKNOWN, "kernel %s declares no tensor at binding %u",
                          k->name, t);
      }
      /* Intermediates and constants: a binding of the stage's own internal set. */
      words[set_word[t]] = s->slots[t].set;
      words[binding_word[t]] = s->slots[t].binding;
   }
   *out = words;
   return VK_SUCCESS;
}

static VkResult
create_stage_pipeline(struct dg_device *device, struct dg_pipeline *p, uint32_t index,
                      VkPipelineCache cache)
{
   const struct dg_stage_plan *plan = p->plan;
   const struct dg_plan_stage *ps = &plan->stages[index];
   struct dg_stage *s = &p->stages[index];
   if (ps->pipeline_of != index) {
      /* Identical compute pipelines (same variant, same bindings, same specialization) are
       * created once per graph pipeline (the plan found the first). */
      s->pipeline = p->stages[ps->pipeline_of].pipeline;
      s->shares_pipeline = true;
      return VK_SUCCESS;
   }
   const struct vmel_kernel *k = &dg_kernels[ps->kernel];
   uint32_t ids[DG_PLAN_SPEC_MAX], data[DG_PLAN_SPEC_MAX];
   VkSpecializationMapEntry entries[DG_PLAN_SPEC_MAX];
   uint32_t n = dg_plan_stage_spec(plan, index, ids, data);
   for (uint32_t i = 0; i < n; i++)
      entries[i] = (VkSpecializationMapEntry){ids[i], i * 4, 4};
   VkSpecializationInfo si = {
      .mapEntryCount = n,
      .pMapEntries = entries,
      .dataSize = n * 4,
      .pData = data,
   };
   uint32_t *words = NULL;
   VkResult result = patch_bindings(&p->alloc, ps, k, &words);
   if (result != VK_SUCCESS)
      return result;
   /* A module per pipeline (inline modules need maintenance5): the kernels'
    * bindings differ per stage. */
   VkPipelineCreateFlags flags =
      (p->descriptor_buffer ? VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT : 0) |
      dg_pipeline_stats_flags(device);
   result = lyr_create_compute_pipeline_flags(&device->base, words, k->word_count, p->layout,
                                              &si, cache, flags, &s->pipeline);
   lyr_free(&p->alloc, words);
   if (result != VK_SUCCESS)
      return lyr_error(result, "TOSA %s %%%u: creating kernel %s failed", s->op_name,
                       s->result_id, s->kernel);
   if (device->pipeline_stats) {
      char what[96];
      snprintf(what, sizeof(what), "TOSA %s %%%u", s->op_name, s->result_id);
      dg_pipeline_stats_log(device, s->pipeline, k->name, what);
   }
   return VK_SUCCESS;
}

/* The application's pipeline layout as the plan reads it: every binding of its
 * recorded set layouts. */
static VkResult
plan_layout(const struct dg_pipeline_layout_info *layout, const VkAllocationCallbacks *alloc,
            struct dg_plan_layout *out, struct dg_plan_app_binding **bindings)
{
   uint32_t sets = dg_pipeline_layout_set_count(layout);
   uint64_t total = 0;
   for (uint32_t i = 0; i < sets; i++) {
      uint32_t count = 0;
      VkDescriptorSetLayoutCreateFlags flags;
      const struct dg_set_layout_info *set = dg_pipeline_layout_set(layout, i);
      if (set)
         dg_set_layout_bindings(set, &count, &flags);
      total += count;
   }
   if (total >= UINT32_MAX)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateDataGraphPipelinesARM: %llu "
                       "bindings in the pipeline layout", (unsigned long long)total);
   struct dg_plan_app_binding *b =
      lyr_alloc(alloc, (size_t)(total + 1) * sizeof(*b), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!b)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t n = 0;
   for (uint32_t i = 0; i < sets; i++) {
      const struct dg_set_layout_info *set = dg_pipeline_layout_set(layout, i);
      if (!set)
         continue;
      uint32_t count;
      VkDescriptorSetLayoutCreateFlags flags;
      const VkDescriptorSetLayoutBinding *lb = dg_set_layout_bindings(set, &count, &flags);
      for (uint32_t j = 0; j < count; j++) {
         b[n++] = (struct dg_plan_app_binding){
            .set = i,
            .binding = lb[j].binding,
            .type = lb[j].descriptorType,
            .count = lb[j].descriptorCount,
            .stages = lb[j].stageFlags,
            .update_after_bind =
               (flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) != 0,
         };
      }
   }
   *out = (struct dg_plan_layout){sets, b, n};
   *bindings = b;
   return VK_SUCCESS;
}

static void
plan_caps(const struct dg_device *device, struct dg_plan_caps *caps)
{
   *caps = (struct dg_plan_caps){
      .fp16_arith = device->fp16_arith,
      .kernels = dg_kernel_mode_from_env(), /* at pipeline creation: D44 */
      .max_workgroup_invocations = device->limits.maxComputeWorkGroupInvocations,
      .max_shared_memory = device->limits.maxComputeSharedMemorySize,
      .cpu_device = device->device_type == VK_PHYSICAL_DEVICE_TYPE_CPU,
      .max_groups = {device->max_groups[0], device->max_groups[1]},
      .max_bound_sets = device->max_bound_sets,
      .alias_alignment = device->alias_alignment,
      .fusion = dg_fusion_from_env(), /* at pipeline creation: D52 */
      .coop = device->coop,
      .int_dot = device->int_dot,
      .split_k = dg_split_k_from_env(), /* at pipeline creation: D56 */
      .subgroup8 = device->subgroup8,
      .cpu_threads = device->cpu_threads,
   };
   for (uint32_t l = 0; l < 2; l++) {
      caps->descriptor_limits[l].per_stage_storage_buffers =
         device->descriptor_limits[l].per_stage_storage_buffers;
      caps->descriptor_limits[l].set_storage_buffers =
         device->descriptor_limits[l].set_storage_buffers;
      caps->descriptor_limits[l].per_stage_resources =
         device->descriptor_limits[l].per_stage_resources;
   }
}

/* The runtime stages: names for the creation log and the profile, grids, internal sets.
 * The names come from the stage metadata (operator and result id of each stage's first
 * node), so that a plan read from a pipeline cache names its stages as the decoded graph
 * did. */
static VkResult
init_stages(struct dg_pipeline *p, const struct dg_cache_stage_meta *meta)
{
   const struct dg_stage_plan *plan = p->plan;
   p->stages = lyr_zalloc(&p->alloc, ((size_t)plan->stage_count + 1) * sizeof(*p->stages), 8,
                          VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p->stages)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->stage_count = plan->stage_count;
   for (uint32_t i = 0; i < plan->stage_count; i++) {
      const struct dg_plan_stage *ps = &plan->stages[i];
      const struct dg_op_info *op = meta[i].op != DG_PLAN_NONE ? dg_op_get(meta[i].op) : NULL;
      p->stages[i] = (struct dg_stage){
         .node = op ? ps->first_node : UINT32_MAX,
         .op_name = "output copy",
         .result_id = op ? meta[i].result_id : 0,
         .kernel = dg_kernels[ps->kernel].name,
         .groups = {ps->groups[0], ps->groups[1]},
         .internal_set = ps->internal_set,
      };
      if (op)
         p->stages[i].op_name = dg_plan_stage_name(ps, op->name, p->stages[i].name,
                                                   sizeof(p->stages[i].name));
   }
   return VK_SUCCESS;
}

VkResult
dg_stage_plan_graph(struct dg_device *device, const struct dg_graph *graph,
                    const struct dg_pipeline_layout_info *layout, struct dg_pipeline *p,
                    struct dg_cache_stage_meta **meta)
{
   *meta = NULL;
   struct dg_plan_caps caps;
   plan_caps(device, &caps);
   struct dg_plan_layout pl;
   struct dg_plan_app_binding *bindings = NULL;
   VkResult result = plan_layout(layout, &p->alloc, &pl, &bindings);
   if (result != VK_SUCCESS)
      return result;
   struct dg_plan_input in = {.graph = graph, .layout = &pl, .caps = &caps};
   result = dg_stage_plan_build(&in, &p->alloc, &p->plan);
   lyr_free(&p->alloc, bindings);
   if (result != VK_SUCCESS)
      return result;
   const struct dg_stage_plan *plan = p->plan;
   struct dg_cache_stage_meta *m =
      lyr_zalloc(&p->alloc, ((size_t)plan->stage_count + 1) * sizeof(*m), 8,
                 VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!m)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t i = 0; i < plan->stage_count; i++) {
      const struct dg_plan_stage *ps = &plan->stages[i];
      bool node = ps->node_count && ps->first_node < graph->node_count;
      m[i] = (struct dg_cache_stage_meta){
         .op = node ? graph->nodes[ps->first_node].op : DG_PLAN_NONE,
         .result_id = node ? graph->nodes[ps->first_node].result_id : 0,
      };
   }
   *meta = m;
   return VK_SUCCESS;
}

VkResult
dg_stage_instantiate(struct dg_device *device, const struct dg_pipeline_layout_info *layout,
                     VkPipelineCache cache, const struct dg_cache_stage_meta *meta,
                     struct dg_pipeline *p)
{
   VkResult result = dg_stage_plan_check_instantiable(p->plan);
   if (result == VK_SUCCESS)
      result = init_stages(p, meta);
   if (result == VK_SUCCESS)
      result = dg_pipeline_instantiate(device, p, layout);
   for (uint32_t i = 0; result == VK_SUCCESS && i < p->stage_count; i++)
      result = create_stage_pipeline(device, p, i, cache);
   if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
      lyr_error(result, "vkCreateDataGraphPipelinesARM: creating the pipeline's layouts, "
                "constants, intermediates or stage pipelines failed");
   return result;
}
