/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Single-node optical-flow pipelines (VK_ARM_data_graph_optical_flow, D49): the validation
 * of VkDataGraphPipelineSingleNodeCreateInfoARM, VkDataGraphPipelineOpticalFlowCreateInfoARM
 * and the resource infos (one log line per rejected value), the session memory layout, and the
 * kernels: one compute pipeline per kernel of shaders/graph/optical_flow with the kernels'
 * pipeline layout (copies of the application's set layouts, the internal set of two storage
 * buffers, push constants) and the application's images at the connections' (set, binding),
 * patched into each module.
 */
#include "of_private.h"

#include <inttypes.h>
#include <stdio.h>

#include "dg_of_caps.h"
#include "dg_pipeline_stats.h"
#include "dg_sha256.h"
#include "vmel_kernels_of.h"

#define OF_PUSH_BYTES 64

#define OF_FAIL(result, ...) lyr_error(result, "vkCreateDataGraphPipelinesARM: " __VA_ARGS__)

static const char *const of_conn_names[OF_CONN_COUNT] = {"INPUT", "REFERENCE", "HINT",
                                                         "FLOW_VECTOR", "COST"};

uint32_t
of_level_count(uint32_t width, uint32_t height)
{
   /* as of_levels() of the reference: add levels while the next is at least 32x24 */
   uint32_t n = 1;
   while (n < OF_LEVELS_MAX && (width >> n) >= 32 && (height >> n) >= 24)
      n++;
   return n;
}

static uint32_t
grid_pixels(VkDataGraphOpticalFlowGridSizeFlagsARM g)
{
   switch (g) {
   case VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_1X1_BIT_ARM:
      return 1;
   case VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_2X2_BIT_ARM:
      return 2;
   case VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_4X4_BIT_ARM:
      return 4;
   case VK_DATA_GRAPH_OPTICAL_FLOW_GRID_SIZE_8X8_BIT_ARM:
      return 8;
   default:
      return 0;
   }
}

/* ---- validation --------------------------------------------------------------------------- */

static VkResult
check_connections(const VkDataGraphPipelineSingleNodeCreateInfoARM *node,
                  const struct dg_pipeline_layout_info *layout, struct of_pipeline *of)
{
   if (node->connectionCount && !node->pConnections)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "pConnections is NULL with %u connections",
                     node->connectionCount);
   for (uint32_t i = 0; i < node->connectionCount; i++) {
      const VkDataGraphPipelineSingleNodeConnectionARM *c = &node->pConnections[i];
      uint32_t k = (uint32_t)c->connection - 1000631000u;
      if (c->sType != VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM)
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "pConnections[%u].sType is %d", i,
                        (int)c->sType);
      if (k >= OF_CONN_COUNT)
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                        "pConnections[%u].connection %d is not an optical-flow connection", i,
                        (int)c->connection);
      if (of->has[k])
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "connection %s given twice",
                        of_conn_names[k]);
      for (uint32_t j = 0; j < OF_CONN_COUNT; j++)
         if (of->has[j] && of->set[j] == c->set && of->binding[j] == c->binding)
            return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                           "connections %s and %s share set %u binding %u", of_conn_names[j],
                           of_conn_names[k], c->set, c->binding);
      const struct dg_set_layout_info *s = c->set < dg_pipeline_layout_set_count(layout)
                                               ? dg_pipeline_layout_set(layout, c->set)
                                               : NULL;
      VkDescriptorType type;
      uint32_t count;
      if (!s || !dg_set_layout_binding(s, c->binding, &type, &count) || count == 0)
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                        "connection %s: set %u binding %u is not in the pipeline layout",
                        of_conn_names[k], c->set, c->binding);
      if (type != VK_DESCRIPTOR_TYPE_STORAGE_IMAGE)
         return OF_FAIL(VK_ERROR_UNKNOWN,
                        "connection %s: set %u binding %u has descriptor type %d; the optical "
                        "flow of this layer takes STORAGE_IMAGE descriptors",
                        of_conn_names[k], c->set, c->binding, (int)type);
      uint32_t n = 0;
      VkDescriptorSetLayoutCreateFlags sflags;
      const VkDescriptorSetLayoutBinding *b = dg_set_layout_bindings(s, &n, &sflags);
      for (uint32_t j = 0; j < n; j++)
         if (b[j].binding == c->binding && !(b[j].stageFlags & VK_SHADER_STAGE_COMPUTE_BIT))
            return OF_FAIL(VK_ERROR_UNKNOWN,
                           "connection %s: set %u binding %u lacks VK_SHADER_STAGE_COMPUTE_BIT "
                           "(or ALL) in its stageFlags; the layer's compute kernels read it",
                           of_conn_names[k], c->set, c->binding);
      of->has[k] = true;
      of->set[k] = c->set;
      of->binding[k] = c->binding;
   }
   static const enum of_conn required[] = {OF_INPUT, OF_REFERENCE, OF_FLOW};
   for (uint32_t i = 0; i < LYR_ARRAY_SIZE(required); i++)
      if (!of->has[required[i]])
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "no %s connection",
                        of_conn_names[required[i]]);
   return VK_SUCCESS;
}

static VkResult
check_parameters(struct dg_device *device, const VkDataGraphPipelineOpticalFlowCreateInfoARM *ci,
                 struct of_pipeline *of)
{
   const VkDataGraphOpticalFlowCreateFlagsARM known =
       VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM |
       VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM;
   if (ci->flags & ~known)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "optical-flow flags 0x%x not supported",
                     ci->flags & ~known);
   const bool hint = ci->flags & VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM;
   const bool cost = ci->flags & VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM;
   if (hint != of->has[OF_HINT])
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "%s",
                     hint ? "ENABLE_HINT without a HINT connection"
                          : "a HINT connection without ENABLE_HINT");
   if (cost != of->has[OF_COST])
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "%s",
                     cost ? "ENABLE_COST without a COST connection"
                          : "a COST connection without ENABLE_COST");
   if (ci->width < OF_MIN_WIDTH || ci->width > OF_MAX_WIDTH || ci->height < OF_MIN_HEIGHT ||
       ci->height > OF_MAX_HEIGHT)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                     "optical flow of %ux%u: width and height must be within %ux%u..%ux%u",
                     ci->width, ci->height, OF_MIN_WIDTH, OF_MIN_HEIGHT, OF_MAX_WIDTH,
                     OF_MAX_HEIGHT);
   /* The formats the queries offer (dg_of_caps.c: the engine's list, storage images here). */
   struct lyr_instance *instance = device->base.instance;
   VkPhysicalDevice pd = device->base.physical_device;
   if (!dg_of_format_offered(instance, pd, ci->imageFormat,
                             VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM))
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                     "imageFormat %d is not an optical-flow image format (R8_UNORM, R16_UNORM)",
                     (int)ci->imageFormat);
   if (!dg_of_format_offered(instance, pd, ci->flowVectorFormat,
                             VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM))
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "flowVectorFormat %d is not R16G16_SFLOAT",
                     (int)ci->flowVectorFormat);
   if (cost && !dg_of_format_offered(instance, pd, ci->costFormat,
                                     VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM))
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "costFormat %d is not R16_UINT",
                     (int)ci->costFormat);
   of->grid = grid_pixels(ci->outputGridSize);
   if (!of->grid || !(ci->outputGridSize & OF_GRID_SIZES))
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                     "outputGridSize 0x%x is not exactly one supported grid size",
                     ci->outputGridSize);
   of->hint_grid = grid_pixels(ci->hintGridSize);
   if (hint && (!of->hint_grid || !(ci->hintGridSize & OF_GRID_SIZES)))
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                     "hintGridSize 0x%x is not exactly one supported grid size", ci->hintGridSize);
   if ((uint32_t)ci->performanceLevel > VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_FAST_ARM)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "performanceLevel %d is not a level",
                     (int)ci->performanceLevel);
   of->perf = ci->performanceLevel == VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_UNKNOWN_ARM
                  ? VK_DATA_GRAPH_OPTICAL_FLOW_PERFORMANCE_LEVEL_MEDIUM_ARM
                  : (uint32_t)ci->performanceLevel;
   return VK_SUCCESS;
}

/* Resource infos may name connections only, element 0, with an image layout of GENERAL (the
 * kernels use the images as storage images). */
static VkResult
check_resources(const VkDataGraphPipelineCreateInfoARM *info, const struct of_pipeline *of)
{
   if (info->resourceInfoCount && !info->pResourceInfos)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "pResourceInfos is NULL");
   for (uint32_t i = 0; i < info->resourceInfoCount; i++) {
      const VkDataGraphPipelineResourceInfoARM *r = &info->pResourceInfos[i];
      bool found = false;
      for (uint32_t k = 0; k < OF_CONN_COUNT; k++)
         found |= of->has[k] && of->set[k] == r->descriptorSet && of->binding[k] == r->binding;
      if (!found || r->arrayElement != 0)
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                        "pResourceInfos[%u] (set %u binding %u element %u) is not a connection", i,
                        r->descriptorSet, r->binding, r->arrayElement);
      if (lyr_find_struct(r->pNext, VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM))
         return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                        "pResourceInfos[%u] describes a tensor; optical-flow connections are "
                        "images",
                        i);
      const VkDataGraphPipelineResourceInfoImageLayoutARM *l = lyr_find_struct(
          r->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM);
      if (l && l->layout != VK_IMAGE_LAYOUT_GENERAL)
         return OF_FAIL(VK_ERROR_UNKNOWN,
                        "pResourceInfos[%u]: image layout %d; the layer's kernels access "
                        "optical-flow images as storage images, in VK_IMAGE_LAYOUT_GENERAL",
                        i, (int)l->layout);
   }
   return VK_SUCCESS;
}

/* ---- memory ------------------------------------------------------------------------------- */

static void
plan_memory(struct of_pipeline *of)
{
   struct of_memory *m = &of->mem;
   uint32_t w = of->info.width, h = of->info.height, off = 0;
   of->levels = of_level_count(w, h);
   for (uint32_t l = 0; l < of->levels; l++) {
      of->w[l] = w;
      of->h[l] = h;
      m->level_offset[l] = off;
      off += w * h;
      w = (w + 1) / 2;
      h = (h + 1) / 2;
   }
   m->pyramid_words = off;
   m->cache_words = OF_HEADER_WORDS + 2 * off;
   uint32_t gw = (of->info.width + OF_STEP - 1) / OF_STEP;
   uint32_t gh = (of->info.height + OF_STEP - 1) / OF_STEP;
   m->field_words = 2 * gw * gh;
   uint32_t t = 0;
   for (uint32_t i = 0; i < 3; i++, t += m->field_words)
      m->field[i] = t;
   m->hint = t;
   if (of->has[OF_HINT]) {
      uint32_t hg = of->hint_grid;
      m->hint_words = 2 * ((of->info.width + hg - 1) / hg) * ((of->info.height + hg - 1) / hg);
   }
   t += m->hint_words;
   m->cost = t;
   t += of->has[OF_COST] ? gw * gh : 0;
   m->transient_words = t;
}

/* ---- kernels ------------------------------------------------------------------------------ */

static VkResult
create_layouts(struct dg_device *device, struct dg_pipeline *p,
               const struct dg_pipeline_layout_info *layout)
{
   VkDevice dev = device->base.handle;
   const struct lyr_device_next *next = &device->base.next;
   p->app_set_count = dg_pipeline_layout_set_count(layout);
   p->internal_set = p->app_set_count;
   if (p->internal_set + 1 > device->max_bound_sets)
      return OF_FAIL(VK_ERROR_UNKNOWN,
                     "the pipeline layout has %u sets; optical flow needs one "
                     "more and the device binds %u",
                     p->app_set_count, device->max_bound_sets);
   VkResult result = dg_pipeline_app_set_layouts(device, p, layout, p->app_set_count + 1);
   if (result != VK_SUCCESS)
      return result;
   const VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo internal = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = b,
   };
   result = next->CreateDescriptorSetLayout(dev, &internal, &device->base.alloc,
                                            &p->set_layouts[p->internal_set]);
   if (result != VK_SUCCESS)
      return result;
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, OF_PUSH_BYTES};
   VkPipelineLayoutCreateInfo plci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = p->set_layout_count,
       .pSetLayouts = p->set_layouts,
       .pushConstantRangeCount = 1,
       .pPushConstantRanges = &range,
   };
   return next->CreatePipelineLayout(dev, &plci, &device->base.alloc, &p->layout);
}

/* Which registry kernel each of ours is, and which connections its images are (placeholder
 * bindings 0 and 1 of OF_SPV_APP_SET). */
static void
kernel_source(const struct of_pipeline *of, enum of_kernel k, enum of_kernel_id *id,
              enum of_conn conn[2])
{
   const bool r16 = of->info.imageFormat == VK_FORMAT_R16_UNORM;
   conn[0] = conn[1] = OF_CONN_COUNT;
   switch (k) {
   case OF_K_SLOTS:
      *id = OF_KERNEL_SLOTS;
      break;
   case OF_K_IMPORT_INPUT:
   case OF_K_IMPORT_REFERENCE:
      *id = r16 ? OF_KERNEL_IMPORT_R16 : OF_KERNEL_IMPORT_R8;
      conn[0] = k == OF_K_IMPORT_INPUT ? OF_INPUT : OF_REFERENCE;
      break;
   case OF_K_PYRAMID:
      *id = OF_KERNEL_PYRAMID;
      break;
   case OF_K_HINT:
      *id = OF_KERNEL_HINT;
      conn[0] = OF_HINT;
      break;
   case OF_K_SEARCH:
      *id = OF_KERNEL_SEARCH;
      break;
   case OF_K_MEDIAN:
      *id = OF_KERNEL_MEDIAN;
      break;
   case OF_K_COST:
      *id = OF_KERNEL_COST;
      break;
   default:
      *id = of->has[OF_COST] ? OF_KERNEL_OUTPUT_COST : OF_KERNEL_OUTPUT;
      conn[0] = OF_FLOW;
      conn[1] = of->has[OF_COST] ? OF_COST : OF_CONN_COUNT;
   }
}

static VkResult
create_kernel(struct dg_device *device, struct dg_pipeline *p, VkPipelineCache cache,
              enum of_kernel k)
{
   struct of_pipeline *of = p->of;
   enum of_kernel_id id;
   enum of_conn conn[2];
   kernel_source(of, k, &id, conn);
   const struct vmel_kernel *kern = &of_kernels[id];
   uint32_t sets[2] = {0}, bindings[2] = {0};
   uint32_t n = 0;
   for (; n < 2 && conn[n] != OF_CONN_COUNT; n++) {
      sets[n] = of->set[conn[n]];
      bindings[n] = of->binding[conn[n]];
   }
   size_t bytes = (size_t)kern->word_count * 4;
   uint32_t *words = lyr_alloc(&p->alloc, bytes, 4, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!words)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   memcpy(words, kern->code, bytes);
   if (!of_spirv_patch(words, kern->word_count, sets, bindings, n, p->internal_set)) {
      lyr_free(&p->alloc, words);
      return OF_FAIL(VK_ERROR_UNKNOWN, "kernel %s does not parse", kern->name);
   }
   const struct lyr_device_next *next = &device->base.next;
   VkDevice dev = device->base.handle;
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = bytes,
       .pCode = words,
   };
   VkShaderModule module;
   VkResult result = next->CreateShaderModule(dev, &smci, &device->base.alloc, &module);
   lyr_free(&p->alloc, words);
   if (result != VK_SUCCESS)
      return result;
   VkComputePipelineCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .flags = dg_pipeline_stats_flags(device),
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = module,
                 .pName = "main"},
       .layout = p->layout,
   };
   result =
       next->CreateComputePipelines(dev, cache, 1, &cpci, &device->base.alloc, &of->kernels[k]);
   next->DestroyShaderModule(dev, module, &device->base.alloc);
   if (result == VK_SUCCESS)
      dg_pipeline_stats_log(device, of->kernels[k], kern->name, "optical flow");
   return result;
}

static VkResult
write_log(struct dg_pipeline *p)
{
   const struct of_pipeline *of = p->of;
   size_t cap = 512;
   char *log = lyr_alloc(&p->alloc, cap, 1, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!log)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   snprintf(log, cap,
            "optical flow %ux%u, format %d, grid %ux%u, performance level %u, %u pyramid "
            "levels, hint %s, cost %s; cache %" PRIu64 " bytes, transient %" PRIu64 " bytes\n",
            of->info.width, of->info.height, (int)of->info.imageFormat, of->grid, of->grid,
            of->perf, of->levels, of->has[OF_HINT] ? "on" : "off", of->has[OF_COST] ? "on" : "off",
            (uint64_t)of->mem.cache_words * 4, (uint64_t)of->mem.transient_words * 4);
   p->creation_log = log;
   struct dg_sha256 s;
   dg_sha256_init(&s);
   dg_sha256_update(&s, "optical-flow", 12);
   dg_sha256_update(&s, &of->info.width,
                    sizeof(of->info) -
                        offsetof(VkDataGraphPipelineOpticalFlowCreateInfoARM, width));
   dg_sha256_update(&s, of->set, sizeof(of->set));
   dg_sha256_update(&s, of->binding, sizeof(of->binding));
   dg_sha256_final(&s, p->identifier);
   return VK_SUCCESS;
}

VkResult
of_pipeline_create(struct dg_device *device, const VkDataGraphPipelineCreateInfoARM *info,
                   const VkDataGraphPipelineSingleNodeCreateInfoARM *node,
                   const struct dg_pipeline_layout_info *layout, struct dg_pipeline *p)
{
   if ((uint32_t)node->nodeType !=
       1000631000u) /* VK_DATA_GRAPH_PIPELINE_NODE_TYPE_OPTICAL_FLOW_ARM */
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "nodeType %d is not OPTICAL_FLOW",
                     (int)node->nodeType);
   const VkDataGraphPipelineOpticalFlowCreateInfoARM *ci = lyr_find_struct(
       info->pNext, VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM);
   if (!ci)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                     "an optical-flow node without "
                     "VkDataGraphPipelineOpticalFlowCreateInfoARM in the chain");
   if (lyr_find_struct(info->pNext,
                       VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM) ||
       lyr_find_struct(info->pNext,
                       VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_IDENTIFIER_CREATE_INFO_ARM) ||
       lyr_find_struct(info->pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO))
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT, "a single-node pipeline with a shader "
                                                     "module or an identifier");
   if (info->flags & VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT)
      return OF_FAIL(VK_ERROR_UNKNOWN, "optical-flow pipelines with descriptor buffers are not "
                                       "supported");
   if (!device->of_storage_formats)
      return OF_FAIL(VK_ERROR_UNKNOWN, "the device lacks shaderStorageImageExtendedFormats, "
                                       "which the optical-flow kernels need");
   struct of_pipeline *of =
       lyr_zalloc(&p->alloc, sizeof(*of), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!of)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->of = of;
   of->info = *ci;
   of->info.pNext = NULL;
   VkResult result = check_connections(node, layout, of);
   if (result == VK_SUCCESS)
      result = check_parameters(device, ci, of);
   if (result == VK_SUCCESS)
      result = check_resources(info, of);
   if (result != VK_SUCCESS)
      return result;
   if (ci->width > device->limits.maxImageDimension2D ||
       ci->height > device->limits.maxImageDimension2D)
      return OF_FAIL(VK_ERROR_VALIDATION_FAILED_EXT,
                     "optical flow of %ux%u: larger than maxImageDimension2D %u", ci->width,
                     ci->height, device->limits.maxImageDimension2D);
   plan_memory(of);
   const uint64_t largest =
       (uint64_t)4 * (of->mem.cache_words > of->mem.transient_words ? of->mem.cache_words
                                                                    : of->mem.transient_words);
   if (largest > device->limits.maxStorageBufferRange)
      return OF_FAIL(VK_ERROR_UNKNOWN,
                     "optical flow of %ux%u needs a %" PRIu64 "-byte storage buffer; the "
                     "device's maxStorageBufferRange is %u",
                     ci->width, ci->height, largest, device->limits.maxStorageBufferRange);
   result = create_layouts(device, p, layout);
   for (uint32_t k = 0; result == VK_SUCCESS && k < OF_K_COUNT; k++) {
      if ((k == OF_K_HINT && !of->has[OF_HINT]) || (k == OF_K_COST && !of->has[OF_COST]))
         continue;
      result = create_kernel(device, p, VK_NULL_HANDLE, (enum of_kernel)k);
   }
   if (result == VK_SUCCESS)
      result = write_log(p);
   return result;
}

void
of_pipeline_destroy(struct dg_pipeline *p)
{
   struct of_pipeline *of = p->of;
   if (!of)
      return;
   struct dg_device *device = p->device;
   for (uint32_t k = 0; k < OF_K_COUNT; k++)
      device->base.next.DestroyPipeline(device->base.handle, of->kernels[k], &device->base.alloc);
   lyr_free(&p->alloc, of);
   p->of = NULL;
}
