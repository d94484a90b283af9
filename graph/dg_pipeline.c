/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-graph pipelines: vkCreateDataGraphPipelinesARM (module, entry point,
 * resources, constants, specialization -> decoded graph -> stage plan ->
 * stages), the pipeline-level Vulkan objects a plan asks for (the kernels'
 * set and pipeline layouts, the constant tensors, in device-local memory through
 * dg_upload.c's staging upload where the device has such memory (D46), else
 * mapped; internal set contents and
 * the descriptor-limit check are the plan's, dg_stage_plan.c),
 * vkDestroyPipeline for our pipelines, and the pipeline properties (creation
 * log, identifier). Everything unsupported or invalid
 * fails here, before any command buffer sees the pipeline.
 */
#include "dg_runtime.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "dg_decode.h"
#include "of/of_private.h"
#include "vmel_graph.h"

bool
dg_device_owns_pipeline(struct dg_device *device, VkPipeline handle)
{
   return handle != VK_NULL_HANDLE &&
          lyr_map_lookup(&device->pipelines, (const void *)(uintptr_t)handle) != NULL;
}

/* ---- constants ------------------------------------------------------------ */

static uint32_t
memory_type(const struct dg_device *device, uint32_t bits, VkMemoryPropertyFlags want)
{
   const VkPhysicalDeviceMemoryProperties *mp = &device->memory_properties;
   for (uint32_t i = 0; i < mp->memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (mp->memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

VkResult
dg_create_tensor(struct dg_device *device, VkFormat format, const struct dg_shape *shape,
                 VkTensorARM *tensor)
{
   VkTensorDescriptionARM desc = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = VK_TENSOR_TILING_LINEAR_ARM,
      .format = format,
      .dimensionCount = shape->rank,
      .pDimensions = shape->dim,
      .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM,
   };
   VkTensorCreateInfoARM tci = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
      .pDescription = &desc,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   return device->base.next.CreateTensorARM(device->base.handle, &tci, &device->base.alloc,
                                            tensor);
}

/* The constant's tensor, memory and view. A staged constant (dg_upload.c) gets device-local
 * memory and *item its destination buffer, packed later by dg_upload_run(); otherwise the
 * memory is host-visible (device-local too where the device has such a type) and written here
 * through a mapping. */
static VkResult
create_constant(struct dg_device *device, const struct dg_plan_tensor *v,
                const struct dg_plan_constant *src, struct dg_constant *c,
                struct dg_upload_item *item)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const VkFormat format = dg_type_format(v->ty.type);
   VkResult result = dg_create_tensor(device, format, &v->ty.shape, &c->tensor);
   if (result != VK_SUCCESS)
      return result;
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
      .tensor = c->tensor,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   next->GetTensorMemoryRequirementsARM(dev, &ri, &req);
   const VkDeviceSize bytes = dg_shape_elements(&v->ty.shape) * dg_type_size(v->ty.type);
   uint32_t type;
   result = dg_upload_choose(device, &req.memoryRequirements, bytes, item, &type);
   if (result != VK_SUCCESS)
      return result;
   if (type == UINT32_MAX) {
      type = memory_type(device, req.memoryRequirements.memoryTypeBits,
                         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                            VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                            VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type == UINT32_MAX)
         type = memory_type(device, req.memoryRequirements.memoryTypeBits,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                               VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
      if (type == UINT32_MAX)
         return lyr_error(VK_ERROR_OUT_OF_DEVICE_MEMORY, "no host-visible memory for graph "
                          "constants");
   }
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.memoryRequirements.size,
      .memoryTypeIndex = type,
   };
   /* Through the tensor layer, which adds the device-address flag tensors need. */
   result = next->AllocateMemory(dev, &mai, &device->base.alloc, &c->memory);
   if (result != VK_SUCCESS)
      return result;
   VkBindTensorMemoryInfoARM bi = {
      .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
      .tensor = c->tensor,
      .memory = c->memory,
   };
   result = next->BindTensorMemoryARM(dev, 1, &bi);
   if (result != VK_SUCCESS)
      return result;
   if (item->dst) {
      /* the copy's destination: the tensor's bytes, linear and packed from offset 0 */
      VkBindBufferMemoryInfo bb = {
         .sType = VK_STRUCTURE_TYPE_BIND_BUFFER_MEMORY_INFO,
         .buffer = item->dst,
         .memory = c->memory,
      };
      result = next->BindBufferMemory2(dev, 1, &bb);
   } else {
      void *mapped;
      result = next->MapMemory(dev, c->memory, 0, VK_WHOLE_SIZE, 0, &mapped);
      if (result == VK_SUCCESS) {
         dg_plan_constant_pack(mapped, v, src);
         next->UnmapMemory(dev, c->memory);
      }
   }
   if (result != VK_SUCCESS)
      return result;
   VkTensorViewCreateInfoARM vi = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
      .tensor = c->tensor,
      .format = format,
   };
   return next->CreateTensorViewARM(dev, &vi, &device->base.alloc, &c->view);
}

/* dg_upload_run()'s packing of the plan's constant item->index. */
static void
pack_staged(void *dst, const struct dg_upload_item *item, void *user)
{
   const struct dg_stage_plan *plan = user;
   const struct dg_plan_constant *c = &plan->constants[item->index];
   dg_plan_constant_pack(dst, &plan->tensors[c->tensor], c);
}

/* Every constant of the plan: created, and written (mapped, or staged in one upload). */
static VkResult
create_constants(struct dg_device *device, struct dg_pipeline *p)
{
   const struct dg_stage_plan *plan = p->plan;
   if (!plan->constant_count)
      return VK_SUCCESS;
   struct dg_upload_item *items = lyr_zalloc(&p->alloc, plan->constant_count * sizeof(*items), 8,
                                             VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!items)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t staged = 0;
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; result == VK_SUCCESS && i < plan->constant_count; i++) {
      const struct dg_plan_constant *c = &plan->constants[i];
      struct dg_upload_item item = {0};
      result = create_constant(device, &plan->tensors[c->tensor], c, &p->constants[i], &item);
      /* Counted as it is made: destruction releases what exists. */
      p->constant_count = i + 1;
      if (item.dst) {
         item.index = i;
         items[staged++] = item;
      }
   }
   if (result == VK_SUCCESS)
      result = dg_upload_run(device, items, staged, pack_staged, (void *)plan);
   for (uint32_t i = 0; i < staged; i++)
      dg_upload_item_release(device, &items[i]);
   lyr_free(&p->alloc, items);
   return result;
}

/* ---- layouts -------------------------------------------------------------- */

VkResult
dg_pipeline_app_set_layouts(struct dg_device *device, struct dg_pipeline *p,
                            const struct dg_pipeline_layout_info *layout, uint32_t count)
{
   p->set_layouts = lyr_zalloc(&p->alloc, (count ? count : 1) * sizeof(VkDescriptorSetLayout), 8,
                               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p->set_layouts)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->set_layout_count = count;
   VkResult result = VK_SUCCESS;
   /* Identically defined copies of the application's set layouts, so the
    * sets it binds are compatible with the kernels' layout. */
   for (uint32_t i = 0; i < p->app_set_count && result == VK_SUCCESS; i++) {
      const struct dg_set_layout_info *s = dg_pipeline_layout_set(layout, i);
      if (s) {
         result = dg_set_layout_create(device, s, &p->set_layouts[i]);
      } else {
         VkDescriptorSetLayoutCreateInfo empty = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .flags = dg_descriptor_buffer_layout_flags(p, false)};
         result = device->base.next.CreateDescriptorSetLayout(
            device->base.handle, &empty, &device->base.alloc, &p->set_layouts[i]);
      }
   }
   return result;
}

static VkResult
create_layouts(struct dg_device *device, struct dg_pipeline *p,
               const struct dg_pipeline_layout_info *layout)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   uint32_t count = p->app_set_count + (p->internal_binding_count ? 1 : 0);
   VkResult result = dg_pipeline_app_set_layouts(device, p, layout, count);
   if (result == VK_SUCCESS && p->internal_binding_count) {
      VkDescriptorSetLayoutBinding *b =
         lyr_zalloc(&p->alloc, p->internal_binding_count * sizeof(*b), 8,
                    VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!b)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      for (uint32_t i = 0; i < p->internal_binding_count; i++)
         b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                               VK_SHADER_STAGE_COMPUTE_BIT, NULL};
      VkDescriptorSetLayoutCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
         .flags = dg_descriptor_buffer_layout_flags(p, true),
         .bindingCount = p->internal_binding_count,
         .pBindings = b,
      };
      result = next->CreateDescriptorSetLayout(dev, &info, &device->base.alloc,
                                               &p->set_layouts[p->internal_set]);
      lyr_free(&p->alloc, b);
   }
   if (result != VK_SUCCESS)
      return result;
   VkPipelineLayoutCreateInfo plci = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = count,
      .pSetLayouts = p->set_layouts,
   };
   return next->CreatePipelineLayout(dev, &plci, &device->base.alloc, &p->layout);
}

/* ---- instantiation ------------------------------------------------------ */

VkResult
dg_pipeline_instantiate(struct dg_device *device, struct dg_pipeline *p,
                        const struct dg_pipeline_layout_info *layout)
{
   const struct dg_stage_plan *plan = p->plan;
   p->app_set_count = plan->app_set_count;
   p->internal_set = plan->internal_set;
   p->internal_binding_count = plan->internal_binding_count;
   p->internal_set_count = plan->internal_set_count;
   if (p->app_set_count != dg_pipeline_layout_set_count(layout))
      return lyr_error(VK_ERROR_UNKNOWN, "vkCreateDataGraphPipelinesARM: the plan has %u "
                       "application sets, the layout %u",
                       p->app_set_count, dg_pipeline_layout_set_count(layout));
   p->intermediates = lyr_zalloc(&p->alloc,
                                 ((size_t)plan->memory_count + 1) * sizeof(*p->intermediates), 8,
                                 VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   p->constants = lyr_zalloc(&p->alloc,
                             ((size_t)plan->constant_count + 1) * sizeof(*p->constants), 8,
                             VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p->intermediates || !p->constants)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->intermediate_count = plan->memory_count;
   for (uint32_t i = 0; i < plan->memory_count; i++) {
      const struct dg_plan_tensor *t = &plan->tensors[plan->memory[i]];
      VkFormat format = dg_type_format(t->ty.type);
      if (format == VK_FORMAT_UNDEFINED)
         return lyr_error(VK_ERROR_UNKNOWN, "vkCreateDataGraphPipelinesARM: no tensor format "
                          "for a session tensor of type %s", dg_type_name(t->ty.type));
      /* The root of an alias (a RESHAPE, SLICE or CONCAT part; any order). */
      uint32_t root = t->alias_of != DG_PLAN_NONE ? plan->tensors[t->alias_of].index : i;
      p->intermediates[i] = (struct dg_intermediate){plan->memory[i], format, root};
   }
   VkResult result = create_layouts(device, p, layout);
   if (result == VK_SUCCESS)
      result = create_constants(device, p);
   return result;
}

/* ---- creation ----------------------------------------------------------- */

void
dg_pipeline_destroy(struct dg_pipeline *p, const VkAllocationCallbacks *alloc)
{
   if (!p)
      return;
   struct dg_device *device = p->device;
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   const VkAllocationCallbacks *dalloc = &device->base.alloc;
   for (uint32_t i = 0; p->stages && i < p->stage_count; i++)
      if (!p->stages[i].shares_pipeline)
         next->DestroyPipeline(dev, p->stages[i].pipeline, dalloc);
   for (uint32_t i = 0; p->constants && i < p->constant_count; i++) {
      next->DestroyTensorViewARM(dev, p->constants[i].view, dalloc);
      next->DestroyTensorARM(dev, p->constants[i].tensor, dalloc);
      next->FreeMemory(dev, p->constants[i].memory, dalloc);
   }
   next->DestroyPipelineLayout(dev, p->layout, dalloc);
   for (uint32_t i = 0; p->set_layouts && i < p->set_layout_count; i++)
      next->DestroyDescriptorSetLayout(dev, p->set_layouts[i], dalloc);
   dg_profile_pipeline_finish(p);
   of_pipeline_destroy(p);
   VkAllocationCallbacks a = p->alloc;
   lyr_free(&a, p->set_layouts);
   lyr_free(&a, p->intermediates);
   lyr_free(&a, p->constants);
   dg_stage_plan_destroy(p->plan);
   lyr_free(&a, p->stages);
   lyr_free(&a, p->creation_log);
   p->magic = 0;
   lyr_free(&a, p);
}

/* The creation-log property's text; without memory for it the pipeline is not created
 * (the property must answer). */
static VkResult
write_creation_log(struct dg_pipeline *p, const struct dg_cache_meta *meta)
{
   size_t cap = 256 + (size_t)p->stage_count * 160;
   char *log = lyr_alloc(&p->alloc, cap, 1, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!log)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   size_t n = (size_t)snprintf(log, cap,
                               "graph %%%u: %u nodes, %u stages, %u intermediates, "
                               "%u constants\n",
                               meta->graph_id, meta->node_count, p->stage_count,
                               p->intermediate_count, p->constant_count);
   for (uint32_t i = 0; i < p->stage_count && n < cap; i++) {
      const struct dg_stage *s = &p->stages[i];
      n += (size_t)snprintf(log + n, cap - n, "stage %u: %s %%%u -> kernel %s, %ux%u groups\n",
                            i, s->op_name, s->result_id, s->kernel, s->groups[0], s->groups[1]);
   }
   p->creation_log = log;
   return VK_SUCCESS;
}

/* The module a create info names: our graph shader module or a chained
 * VkShaderModuleCreateInfo. */
static VkResult
graph_module(struct dg_device *device, const VkDataGraphPipelineShaderModuleCreateInfoARM *sm,
             const VkDataGraphPipelineCreateInfoARM *info, const uint32_t **words, size_t *count)
{
   const VkShaderModuleCreateInfo *inline_module =
      lyr_find_struct(info->pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
   if (inline_module) {
      if (sm->module != VK_NULL_HANDLE)
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "vkCreateDataGraphPipelinesARM: module must be VK_NULL_HANDLE when a "
                          "VkShaderModuleCreateInfo is chained (VUID 09873)");
      *words = inline_module->pCode;
      *count = inline_module->codeSize / 4;
      return VK_SUCCESS;
   }
   struct dg_shader_module *m = dg_shader_module_get(device, sm->module);
   if (!m)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: module is not a graph shader module "
                       "(GraphARM) of this device (VUID 09874)");
   *words = m->words;
   *count = m->word_count;
   return VK_SUCCESS;
}

static const VkPipelineCreateFlags2 dg_allowed_flags =
   VK_PIPELINE_CREATE_2_DISABLE_OPTIMIZATION_BIT |
   VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT |
   VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT |
   VK_PIPELINE_CREATE_2_NO_PROTECTED_ACCESS_BIT_EXT |
   VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT |
   VK_PIPELINE_CREATE_2_PROTECTED_ACCESS_ONLY_BIT_EXT;

static uint64_t
now_ns(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static struct dg_pipeline *
pipeline_alloc(struct dg_device *device, const VkDataGraphPipelineCreateInfoARM *info,
               const VkAllocationCallbacks *alloc)
{
   const VkAllocationCallbacks *a = lyr_pick_alloc(&device->base.alloc, alloc);
   struct dg_pipeline *p = lyr_zalloc(a, sizeof(*p), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return NULL;
   p->magic = DG_MAGIC_PIPELINE;
   p->device = device;
   p->alloc = *a;
   p->descriptor_buffer = (info->flags & VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT) != 0;
   return p;
}

/* The runtime side of a planned pipeline, from a graph or from a cache entry. */
static VkResult
finish_pipeline(struct dg_device *device, struct dg_pipeline *p,
                const struct dg_pipeline_layout_info *layout, VkPipelineCache cache,
                const struct dg_cache_stage_meta *st, const struct dg_cache_meta *meta,
                const uint8_t key[DG_CACHE_KEY_SIZE])
{
   VkResult result = dg_stage_instantiate(device, layout, cache, st, p);
   if (result == VK_SUCCESS)
      result = dg_profile_pipeline_init(device, p);
   if (result == VK_SUCCESS) {
      dg_cache_identifier(key, p->identifier);
      result = write_creation_log(p, meta);
   }
   return result;
}

/* A pipeline from a cache entry: no decoding, no planning (a hit). Fails with
 * VK_ERROR_INITIALIZATION_FAILED, logged, for a payload that does not read as a valid plan
 * (the caller then compiles), and VK_PIPELINE_COMPILE_REQUIRED for an entry planned
 * against another pipeline layout (creation from an identifier). */
static VkResult
create_from_entry(struct dg_device *device, VkPipelineCache cache,
                  const VkDataGraphPipelineCreateInfoARM *info,
                  const struct dg_pipeline_layout_info *layout,
                  const uint8_t layout_hash[DG_SHA256_SIZE], const uint8_t key[DG_CACHE_KEY_SIZE],
                  const uint8_t *payload, uint64_t size, const VkAllocationCallbacks *alloc,
                  struct dg_pipeline **out)
{
   struct dg_pipeline *p = pipeline_alloc(device, info, alloc);
   if (!p)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   struct dg_cache_meta meta;
   struct dg_cache_stage_meta *st = NULL;
   const char *why = NULL;
   uint64_t start = now_ns();
   VkResult result = dg_cache_plan_read(payload, (size_t)size, &p->alloc, &p->plan, &meta, &st,
                                        &why);
   lyr_logd("vkCreateDataGraphPipelinesARM: a pipeline cache hit: plan read in %.3f ms "
            "(%" PRIu64 " bytes)", (double)(now_ns() - start) / 1e6, size);
   if (result == VK_ERROR_INITIALIZATION_FAILED)
      lyr_logw("vkCreateDataGraphPipelinesARM: a pipeline cache entry does not read as a "
               "plan (%s); compiling instead", why);
   /* What the key covers but crafted data could still claim: grids this device takes. */
   for (uint32_t i = 0; result == VK_SUCCESS && i < p->plan->stage_count; i++) {
      const struct dg_plan_stage *ps = &p->plan->stages[i];
      if (ps->groups[0] > device->max_groups[0] || ps->groups[1] > device->max_groups[1]) {
         lyr_logw("vkCreateDataGraphPipelinesARM: a pipeline cache entry has a %ux%u grid, "
                  "more than this device takes; compiling instead",
                  ps->groups[0], ps->groups[1]);
         result = VK_ERROR_INITIALIZATION_FAILED;
      }
   }
   if (result == VK_SUCCESS && memcmp(meta.layout, layout_hash, DG_SHA256_SIZE) != 0) {
      lyr_logi("vkCreateDataGraphPipelinesARM: VK_PIPELINE_COMPILE_REQUIRED: the cached "
               "pipeline was planned against another pipeline layout");
      result = VK_PIPELINE_COMPILE_REQUIRED;
   }
   if (result == VK_SUCCESS)
      result = finish_pipeline(device, p, layout, cache, st, &meta, key);
   /* The constants were uploaded from the cache entry: nothing keeps pointing into it. */
   for (uint32_t i = 0; p->plan && i < p->plan->constant_count; i++)
      p->plan->constants[i].data = NULL;
   lyr_free(&p->alloc, st);
   if (result != VK_SUCCESS) {
      dg_pipeline_destroy(p, alloc);
      return result;
   }
   *out = p;
   return VK_SUCCESS;
}

/* Stores what a second creation needs (a miss that compiled). Failing to store is not
 * failing to create. */
static void
store_entry(struct dg_cache *cache, const uint8_t key[DG_CACHE_KEY_SIZE],
            const struct dg_pipeline *p, const struct dg_cache_meta *meta,
            const struct dg_cache_stage_meta *st)
{
   size_t size = dg_cache_plan_write(p->plan, meta, st, NULL);
   uint8_t *payload = lyr_alloc(&p->alloc, size ? size : 1, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   VkResult result = VK_ERROR_OUT_OF_HOST_MEMORY;
   if (payload) {
      dg_cache_plan_write(p->plan, meta, st, payload);
      result = dg_cache_insert(cache, key, payload, size);
      lyr_free(&p->alloc, payload);
   }
   if (result != VK_SUCCESS)
      lyr_logw("vkCreateDataGraphPipelinesARM: the pipeline (%zu bytes of plan) could not be "
               "stored in the pipeline cache: %d", size, (int)result);
}

/* A miss: decode, plan, instantiate, and store the plan when there is a cache. */
static VkResult
create_compiled(struct dg_device *device, VkPipelineCache cache_handle,
                const VkDataGraphPipelineCreateInfoARM *info,
                const VkDataGraphPipelineShaderModuleCreateInfoARM *sm,
                const struct dg_pipeline_layout_info *layout, const uint32_t *words, size_t count,
                const uint8_t layout_hash[DG_SHA256_SIZE], const uint8_t key[DG_CACHE_KEY_SIZE],
                bool keyed, const VkAllocationCallbacks *alloc, struct dg_pipeline **out)
{
   struct dg_decode_info di = {
      .code = words,
      .code_words = count,
      .entry_point = sm->pName,
      .resource_infos = info->pResourceInfos,
      .resource_info_count = info->resourceInfoCount,
      .constants = sm->pConstants,
      .constant_count = sm->constantCount,
      .specialization = sm->pSpecializationInfo,
      .specialization_enabled = true,
   };
   struct dg_graph *graph;
   struct dg_diag diag;
   uint64_t start = now_ns();
   VkResult result = dg_graph_decode(&di, alloc, &graph, &diag);
   if (result != VK_SUCCESS)
      return lyr_error(result, "vkCreateDataGraphPipelinesARM: %s: %s", dg_error_name(diag.code),
                       diag.message);
   struct dg_pipeline *p = pipeline_alloc(device, info, alloc);
   if (!p) {
      dg_graph_destroy(graph);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   struct dg_cache_meta meta = {.graph_id = graph->graph_id, .node_count = graph->node_count};
   memcpy(meta.layout, layout_hash, DG_SHA256_SIZE);
   struct dg_cache_stage_meta *st = NULL;
   result = dg_stage_plan_graph(device, graph, layout, p, &st);
   lyr_logd("vkCreateDataGraphPipelinesARM: decoded and planned in %.3f ms",
            (double)(now_ns() - start) / 1e6);
   if (result == VK_SUCCESS)
      result = finish_pipeline(device, p, layout, cache_handle, st, &meta, key);
   struct dg_cache *cache = dg_cache_get(device, cache_handle);
   /* Before the graph goes: module constants' bytes are the graph's. */
   if (result == VK_SUCCESS && cache && keyed)
      store_entry(cache, key, p, &meta, st);
   lyr_free(&p->alloc, st);
   dg_graph_destroy(graph);
   if (result != VK_SUCCESS) {
      dg_pipeline_destroy(p, alloc);
      return result;
   }
   *out = p;
   return VK_SUCCESS;
}

/* Creation from VkDataGraphPipelineIdentifierCreateInfoARM: "If the required data is not
 * found in the pipeline cache, creating the data graph pipeline is not possible and the
 * implementation must fail as specified by VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_
 * REQUIRED_BIT" (VK_ARM_data_graph, VkDataGraphPipelineCreateInfoARM). */
static VkResult
create_from_identifier(struct dg_device *device, VkPipelineCache cache_handle,
                       const VkDataGraphPipelineCreateInfoARM *info,
                       const VkDataGraphPipelineIdentifierCreateInfoARM *id,
                       const struct dg_pipeline_layout_info *layout,
                       const uint8_t layout_hash[DG_SHA256_SIZE],
                       const VkAllocationCallbacks *alloc, struct dg_pipeline **out, bool *hit)
{
   if (!(info->flags & VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: creation from an identifier without "
                       "FAIL_ON_PIPELINE_COMPILE_REQUIRED (VUID 09875)");
   if (info->resourceInfoCount || info->pResourceInfos)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: creation from an identifier with resource "
                       "infos (VUID 09882)");
   struct dg_cache *cache = dg_cache_get(device, cache_handle);
   uint8_t key[DG_CACHE_KEY_SIZE];
   uint64_t size = 0;
   const uint8_t *payload =
      cache && id->pIdentifier && id->identifierSize == DG_CACHE_KEY_SIZE
         ? dg_cache_find(cache, id->pIdentifier, true, &size, key)
         : NULL;
   if (!payload) {
      lyr_logi("vkCreateDataGraphPipelinesARM: VK_PIPELINE_COMPILE_REQUIRED: %s",
               !cache ? "creation from an identifier without a pipeline cache of this device"
                      : "no pipeline of the cache has this identifier");
      return VK_PIPELINE_COMPILE_REQUIRED;
   }
   VkResult result = create_from_entry(device, cache_handle, info, layout, layout_hash, key,
                                       payload, size, alloc, out);
   if (result == VK_ERROR_INITIALIZATION_FAILED)
      return VK_PIPELINE_COMPILE_REQUIRED; /* logged: nothing to compile from */
   *hit = result == VK_SUCCESS;
   return result;
}

/* An optical-flow pipeline (graph/of): validated and created there. */
static VkResult
create_single_node(struct dg_device *device, const VkDataGraphPipelineCreateInfoARM *info,
                   const VkDataGraphPipelineSingleNodeCreateInfoARM *node,
                   const struct dg_pipeline_layout_info *layout,
                   const VkAllocationCallbacks *alloc, struct dg_pipeline **out)
{
   if (!device->optical_flow)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: a single-node pipeline on a device "
                       "without %s enabled", VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME);
   struct dg_pipeline *p = pipeline_alloc(device, info, alloc);
   if (!p)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   VkResult result = of_pipeline_create(device, info, node, layout, p);
   if (result != VK_SUCCESS) {
      dg_pipeline_destroy(p, alloc);
      return result;
   }
   *out = p;
   return VK_SUCCESS;
}

static VkResult
create_one(struct dg_device *device, VkPipelineCache cache_handle,
           const VkDataGraphPipelineCreateInfoARM *info, const VkAllocationCallbacks *alloc,
           struct dg_pipeline **out, bool *hit)
{
   *out = NULL;
   *hit = false;
   if (!lyr_chain_ok(info->pNext, "vkCreateDataGraphPipelinesARM"))
      return VK_ERROR_VALIDATION_FAILED_EXT;
   if (info->flags & ~dg_allowed_flags)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: flags 0x%" PRIx64
                       " not allowed (VUID 09764)",
                       (uint64_t)(info->flags & ~dg_allowed_flags));
   VkResult db_result = dg_descriptor_buffer_check_pipeline(device, info);
   if (db_result != VK_SUCCESS)
      return db_result;
   const VkDataGraphPipelineSingleNodeCreateInfoARM *node = lyr_find_struct(
      info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM);
   const VkDataGraphPipelineIdentifierCreateInfoARM *id = lyr_find_struct(
      info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_IDENTIFIER_CREATE_INFO_ARM);
   const VkDataGraphPipelineShaderModuleCreateInfoARM *sm = lyr_find_struct(
      info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM);
   if (!node && !sm == !id)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: %s "
                       "VkDataGraphPipelineShaderModuleCreateInfoARM and "
                       "VkDataGraphPipelineIdentifierCreateInfoARM in the chain (VUID 09763)",
                       sm ? "both" : "neither");
   const VkDataGraphProcessingEngineCreateInfoARM *engines = lyr_find_struct(
      info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PROCESSING_ENGINE_CREATE_INFO_ARM);
   for (uint32_t i = 0; engines && i < engines->processingEngineCount; i++) {
      if (engines->pProcessingEngines[i].type !=
             VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM ||
          engines->pProcessingEngines[i].isForeign)
         return lyr_error(VK_ERROR_UNKNOWN, "vkCreateDataGraphPipelinesARM: only the default "
                          "processing engine exists");
   }
   const struct dg_pipeline_layout_info *layout =
      dg_pipeline_layout_info_get(device, info->layout);
   if (!layout)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: layout is not a pipeline layout of this "
                       "device");
   if (dg_pipeline_layout_has_push_constants(layout))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: layout has push constants (VUID 09767)");
   if (node)
      return create_single_node(device, info, node, layout, alloc, out);
   uint8_t layout_hash[DG_SHA256_SIZE];
   dg_cache_layout_hash(layout, layout_hash);
   if (id)
      return create_from_identifier(device, cache_handle, info, id, layout, layout_hash, alloc,
                                    out, hit);

   const uint32_t *words = NULL;
   size_t count = 0;
   VkResult result = graph_module(device, sm, info, &words, &count);
   if (result != VK_SUCCESS)
      return result;
   /* The key (and the identifier property) covers everything that determines the
    * pipeline; a creation that cannot be keyed gets an identifier of its module and name
    * and is neither looked up nor stored. */
   uint8_t key[DG_CACHE_KEY_SIZE];
   uint64_t start = now_ns();
   bool keyed = dg_cache_key(device, info, sm, words, count, layout_hash, key);
   lyr_logd("vkCreateDataGraphPipelinesARM: key computed in %.3f ms",
            (double)(now_ns() - start) / 1e6);
   if (!keyed) {
      struct dg_sha256 s;
      dg_sha256_init(&s);
      dg_sha256_update(&s, words, count * 4);
      dg_sha256_update(&s, sm->pName ? sm->pName : "", sm->pName ? strlen(sm->pName) : 0);
      dg_sha256_final(&s, key);
   }
   struct dg_cache *cache = dg_cache_get(device, cache_handle);
   uint64_t size = 0;
   const uint8_t *payload = keyed && cache ? dg_cache_find(cache, key, false, &size, NULL) : NULL;
   if (payload) {
      result = create_from_entry(device, cache_handle, info, layout, layout_hash, key, payload,
                                 size, alloc, out);
      if (result != VK_ERROR_INITIALIZATION_FAILED && result != VK_PIPELINE_COMPILE_REQUIRED) {
         *hit = result == VK_SUCCESS;
         return result;
      }
   }
   /* pipelineCreationCacheControl: a creation that must not compile is a miss. Creating the
    * kernels' compute pipelines of a hit is not compiling the graph (the driver may still
    * compile them: its cache is the application's too). */
   if (info->flags & VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT) {
      lyr_logi("vkCreateDataGraphPipelinesARM: VK_PIPELINE_COMPILE_REQUIRED: "
               "FAIL_ON_PIPELINE_COMPILE_REQUIRED is set and %s",
               cache ? "the pipeline cache does not hold the pipeline"
                     : "no pipeline cache of this device was given");
      return VK_PIPELINE_COMPILE_REQUIRED;
   }
   return create_compiled(device, cache_handle, info, sm, layout, words, count, layout_hash, key,
                          keyed, alloc, out);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateDataGraphPipelinesARM(VkDevice _device, VkDeferredOperationKHR deferredOperation,
                               VkPipelineCache pipelineCache, uint32_t createInfoCount,
                               const VkDataGraphPipelineCreateInfoARM *pCreateInfos,
                               const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   struct dg_device *device = dg_device_get(_device);
   VkResult first_failure = VK_SUCCESS;
   for (uint32_t i = 0; i < createInfoCount; i++)
      pPipelines[i] = VK_NULL_HANDLE;
   if (deferredOperation != VK_NULL_HANDLE)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: deferredOperation must be "
                       "VK_NULL_HANDLE (VUID 09761)");
   for (uint32_t i = 0; i < createInfoCount; i++) {
      uint64_t start = now_ns();
      struct dg_pipeline *p;
      bool hit;
      VkResult result =
         create_one(device, pipelineCache, &pCreateInfos[i], pAllocator, &p, &hit);
      if (result == VK_SUCCESS &&
          !lyr_map_insert(&device->pipelines, p, p)) {
         dg_pipeline_destroy(p, pAllocator);
         result = VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      const VkPipelineCreationFeedbackCreateInfo *fb = lyr_find_struct(
         pCreateInfos[i].pNext, VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
      if (fb && fb->pPipelineCreationFeedback) {
         fb->pPipelineCreationFeedback->flags =
            result != VK_SUCCESS ? 0
            : hit ? VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT |
                       VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT
                  : VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT;
         fb->pPipelineCreationFeedback->duration = now_ns() - start;
         for (uint32_t s = 0; s < fb->pipelineStageCreationFeedbackCount; s++)
            fb->pPipelineStageCreationFeedbacks[s] = (VkPipelineCreationFeedback){0};
      }
      if (result != VK_SUCCESS) {
         if (first_failure == VK_SUCCESS)
            first_failure = result;
         if (pCreateInfos[i].flags & VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT)
            break;
         continue;
      }
      pPipelines[i] = (VkPipeline)(uintptr_t)p;
   }
   return first_failure;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyPipeline(VkDevice _device, VkPipeline pipeline, const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_pipeline *p = lyr_map_remove(&device->pipelines, (const void *)(uintptr_t)pipeline);
   if (!p) {
      device->base.next.DestroyPipeline(_device, pipeline, pAllocator);
      return;
   }
   dg_pipeline_destroy(p, pAllocator);
}

/* ---- properties ---------------------------------------------------------- */

/* The profile last: listed only when the device profiles. */
static const VkDataGraphPipelinePropertyARM dg_properties[] = {
   VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM,
   VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM,
   VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON,
};

static VKAPI_ATTR VkResult VKAPI_CALL
dg_GetDataGraphPipelineAvailablePropertiesARM(VkDevice _device,
                                              const VkDataGraphPipelineInfoARM *pPipelineInfo,
                                              uint32_t *pPropertiesCount,
                                              VkDataGraphPipelinePropertyARM *pProperties)
{
   struct dg_device *device = dg_device_get(_device);
   if (!pPipelineInfo || !pPropertiesCount)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkGetDataGraphPipelineAvailablePropertiesARM: %s is NULL",
                       pPipelineInfo ? "pPropertiesCount" : "pPipelineInfo");
   /* Without the profile (VMEL_GRAPH_PROFILING), the last: the properties every pipeline has. */
   uint32_t count = LYR_ARRAY_SIZE(dg_properties) - 1;
   if (pPipelineInfo->dataGraphPipeline == VK_NULL_HANDLE) {
      /* Arm's layer answers this; the answer does not depend on the pipeline. */
      lyr_logw("vkGetDataGraphPipelineAvailablePropertiesARM: dataGraphPipeline is "
               "VK_NULL_HANDLE (a valid data-graph pipeline is required); answering with the "
               "properties every data-graph pipeline of this layer has");
   } else if (!dg_device_owns_pipeline(device, pPipelineInfo->dataGraphPipeline)) {
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkGetDataGraphPipelineAvailablePropertiesARM: not a data-graph pipeline");
   } else if (dg_pipeline_from_handle(pPipelineInfo->dataGraphPipeline)->profile) {
      count++;
   }
   return lyr_enumerate_fixed(dg_properties, count, sizeof(dg_properties[0]), pPropertiesCount,
                              pProperties);
}

static VkResult
write_property(VkDataGraphPipelinePropertyQueryResultARM *r, const void *data, size_t size,
               bool text)
{
   r->isText = text;
   if (!r->pData) {
      r->dataSize = size;
      return VK_SUCCESS;
   }
   size_t n = r->dataSize < size ? r->dataSize : size;
   memcpy(r->pData, data, n);
   /* "If isText is VK_TRUE and pData is not NULL and dataSize is not zero, the
    * last byte written to pData will be a NUL character." */
   if (text && n)
      ((char *)r->pData)[n - 1] = 0;
   r->dataSize = n;
   return n < size ? VK_INCOMPLETE : VK_SUCCESS;
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_GetDataGraphPipelinePropertiesARM(VkDevice _device,
                                     const VkDataGraphPipelineInfoARM *pPipelineInfo,
                                     uint32_t propertiesCount,
                                     VkDataGraphPipelinePropertyQueryResultARM *pProperties)
{
   struct dg_device *device = dg_device_get(_device);
   if (!pPipelineInfo || (propertiesCount && !pProperties))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkGetDataGraphPipelinePropertiesARM: %s is NULL",
                       pPipelineInfo ? "pProperties" : "pPipelineInfo");
   if (!dg_device_owns_pipeline(device, pPipelineInfo->dataGraphPipeline))
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkGetDataGraphPipelinePropertiesARM: %s",
                       pPipelineInfo->dataGraphPipeline ? "not a data-graph pipeline"
                                                        : "dataGraphPipeline is VK_NULL_HANDLE");
   struct dg_pipeline *p = dg_pipeline_from_handle(pPipelineInfo->dataGraphPipeline);
   VkResult result = VK_SUCCESS;
   for (uint32_t i = 0; i < propertiesCount; i++) {
      VkDataGraphPipelinePropertyQueryResultARM *r = &pProperties[i];
      VkResult one;
      switch ((int)r->property) {
      case VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM: {
         const char *log = p->creation_log ? p->creation_log : "";
         one = write_property(r, log, strlen(log) + 1, true);
         break;
      }
      case VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM:
         one = write_property(r, p->identifier, sizeof(p->identifier), false);
         break;
      case VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON:
         if (p->profile) {
            size_t size = 0;
            char *json = dg_profile_json(device, p, &size);
            one = json ? write_property(r, json, size, true) : VK_ERROR_OUT_OF_HOST_MEMORY;
            lyr_free(&p->alloc, json);
            break;
         }
         /* fallthrough */
      default:
         one = lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                         "vkGetDataGraphPipelinePropertiesARM: property %d is not available",
                         (int)r->property);
      }
      if (one != VK_SUCCESS && result == VK_SUCCESS)
         result = one;
   }
   return result;
}

static const struct lyr_hook hooks[] = {
   DG_HOOK(CreateDataGraphPipelinesARM, dg_CreateDataGraphPipelinesARM),
   DG_HOOK(DestroyPipeline, dg_DestroyPipeline),
   DG_HOOK(GetDataGraphPipelineAvailablePropertiesARM,
           dg_GetDataGraphPipelineAvailablePropertiesARM),
   DG_HOOK(GetDataGraphPipelinePropertiesARM, dg_GetDataGraphPipelinePropertiesARM),
};

const struct lyr_hook_table dg_pipeline_hooks = LYR_HOOK_TABLE(hooks);
