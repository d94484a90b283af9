/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Graph runtime test helpers; see dgutil.h.
 */
#include "dgutil.h"

#include <stdarg.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "test.h"

bool
dgu_init(struct dgu *u, const struct dgu_options *options)
{
   static const struct dgu_options none;
   if (!options)
      options = &none;
   memset(u, 0, sizeof(*u));
   const char *below = options->layer_below;
   if (!below && getenv("VMEL_TEST_LAYER_BELOW") && *getenv("VMEL_TEST_LAYER_BELOW"))
      below = getenv("VMEL_TEST_LAYER_BELOW");
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR, below};
   unsigned layer_count = below ? 3 : 2;
   /* VMEL_TEST_NO_VALIDATION=1: no validation layer below ours, for a device whose features
    * the only validation layer at hand predates (Debian 12's 1.3.239 on the H200 does not know
    * VK_KHR_cooperative_matrix and VK_KHR_shader_bfloat16, which the graph layer enables
    * there, D60); never set by CTest. */
   const char *no_validation = getenv("VMEL_TEST_NO_VALIDATION");
   bool validation = !(no_validation && *no_validation && strcmp(no_validation, "0") != 0);
   if (!validation)
      fprintf(stderr, "dgu_init: VMEL_TEST_NO_VALIDATION: running without the validation layer\n");
   VkResult r = options->sync_validation && validation
                   ? vku_init_sync(&u->v, layers, layer_count)
                   : vku_init(&u->v, layers, layer_count, validation);
   if (!ok(r == VK_SUCCESS, "vkCreateInstance: %d", r))
      return false;
   vku_require_device(&u->v);
   VkPhysicalDevice pd = u->v.physical_device;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(pd, &props);
   u->limits = props.limits;

   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
   VkQueueFamilyProperties fams[16];
   if (n > 16)
      n = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams);
   u->family = UINT32_MAX;
   for (uint32_t i = 0; i < n && u->family == UINT32_MAX; i++) {
      if (fams[i].queueFlags & VK_QUEUE_DATA_GRAPH_BIT_ARM)
         u->family = i;
   }
   if (!ok(u->family != UINT32_MAX, "no queue family with VK_QUEUE_DATA_GRAPH_BIT_ARM"))
      return false;

   VkPhysicalDeviceDataGraphFeaturesARM have_dg = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM};
   VkPhysicalDeviceTensorFeaturesARM have_tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .pNext = &have_dg};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &have_tf};
   vkGetPhysicalDeviceFeatures2(pd, &f2);
   u->update_after_bind = options->update_after_bind && have_dg.dataGraphUpdateAfterBind &&
                          have_tf.descriptorBindingStorageTensorUpdateAfterBind;

   const char *ext[8] = {VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_DATA_GRAPH_EXTENSION_NAME,
                         VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME};
   u->pipeline_library =
       options->pipeline_library &&
       vku_has_device_extension(&u->v, VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME);
   uint32_t ext_count = 3;
   if (u->pipeline_library) {
      ext[ext_count++] = VK_KHR_PIPELINE_LIBRARY_EXTENSION_NAME;
      ext[ext_count++] = VK_EXT_GRAPHICS_PIPELINE_LIBRARY_EXTENSION_NAME;
   }
   if (options->optical_flow)
      ext[ext_count++] = VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME;
   if (options->extension)
      ext[ext_count++] = options->extension;
   VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM off = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM,
      .dataGraphOpticalFlow = VK_TRUE,
   };
   VkPhysicalDeviceGraphicsPipelineLibraryFeaturesEXT gpl = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_FEATURES_EXT,
      .pNext = options->optical_flow ? &off : NULL,
      .graphicsPipelineLibrary = VK_TRUE,
   };
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .pNext = u->pipeline_library ? (void *)&gpl : options->optical_flow ? (void *)&off : NULL,
      .dataGraph = VK_TRUE,
      .dataGraphUpdateAfterBind = u->update_after_bind,
      .dataGraphSpecializationConstants = VK_TRUE,
      .dataGraphShaderModule = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .pNext = &dgf,
      .tensors = VK_TRUE,
      .shaderTensorAccess = VK_TRUE,
      .descriptorBindingStorageTensorUpdateAfterBind = u->update_after_bind,
   };
   VkPhysicalDeviceVulkan13Features f13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
      .pNext = &tf,
      .synchronization2 = VK_TRUE,
      /* FAIL_ON_PIPELINE_COMPILE_REQUIRED, EARLY_RETURN_ON_FAILURE and externally
       * synchronized pipeline caches need it (VUID 09871, 02892). */
      .pipelineCreationCacheControl = VK_TRUE,
   };
   float prio = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = u->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &f13,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = ext_count,
                             .ppEnabledExtensionNames = ext};
   if (options->features) {
      ((VkBaseOutStructure *)options->features)->pNext = (VkBaseOutStructure *)&f13;
      dci.pNext = options->features;
   }
   u->device_alloc = options->device_alloc;
   r = vkCreateDevice(pd, &dci, u->device_alloc, &u->device);
   if (!ok(r == VK_SUCCESS, "vkCreateDevice: %d", r))
      return false;
   vkGetDeviceQueue(u->device, u->family, 0, &u->queue);
   if (!ok(graph_arm_fns_load(u->device, &u->fn), "VK_ARM_data_graph entry points"))
      return false;
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = u->family};
   r = vkCreateCommandPool(u->device, &cpci, NULL, &u->pool);
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if (r == VK_SUCCESS)
      r = vkCreateFence(u->device, &fci, NULL, &u->fence);
   return ok(r == VK_SUCCESS, "command pool and fence: %d", r);
}

void
dgu_finish(struct dgu *u)
{
   if (u->device) {
      vkDeviceWaitIdle(u->device);
      if (u->fence)
         vkDestroyFence(u->device, u->fence, NULL);
      if (u->pool)
         vkDestroyCommandPool(u->device, u->pool, NULL);
      vkDestroyDevice(u->device, u->device_alloc);
      u->device = VK_NULL_HANDLE;
   }
   vku_finish(&u->v);
}

uint32_t *
dgu_assemble(const char *text, size_t *count)
{
   uint32_t *words = NULL;
   char err[256];
   if (!ok(spirv_text_assemble(text, strlen(text), &words, count, err, sizeof(err)),
           "assembling the module: %s", err))
      return NULL;
   return words;
}

/* ---- tensors -------------------------------------------------------------------------------- */

uint32_t
dgu_format_size(VkFormat format)
{
   switch ((int)format) {
   case VK_FORMAT_R8_BOOL_ARM:
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SINT:
      return 1;
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SINT:
   case VK_FORMAT_R16_SFLOAT:
      return 2;
   case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SINT:
   case VK_FORMAT_R32_SFLOAT:
      return 4;
   case VK_FORMAT_R64_SINT:
      return 8;
   default:
      return 0;
   }
}

VkTensorDescriptionARM
dgu_description(VkFormat format, uint32_t rank, const int64_t *dims)
{
   return (VkTensorDescriptionARM){
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = VK_TENSOR_TILING_LINEAR_ARM,
      .format = format,
      .dimensionCount = rank,
      .pDimensions = dims,
      .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
}

bool
dgu_tensor_create(struct dgu *u, VkFormat format, uint32_t rank, const int64_t *dims,
                  struct dgu_tensor *t)
{
   return dgu_tensor_create_usage(u, format, rank, dims, 0, t);
}

bool
dgu_tensor_create_usage(struct dgu *u, VkFormat format, uint32_t rank, const int64_t *dims,
                        VkTensorUsageFlagsARM extra_usage, struct dgu_tensor *t)
{
   memset(t, 0, sizeof(*t));
   t->format = format;
   t->rank = rank;
   t->elements = 1;
   for (uint32_t i = 0; i < rank; i++) {
      t->dims[i] = dims[i];
      t->elements *= (uint64_t)dims[i];
   }
   t->size = t->elements * dgu_format_size(format);
   VkTensorDescriptionARM desc = dgu_description(format, rank, t->dims);
   desc.usage |= extra_usage;
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &desc,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   VkResult r = u->fn.CreateTensorARM(u->device, &tci, NULL, &t->tensor);
   if (!ok(r == VK_SUCCESS, "vkCreateTensorARM: %d", r))
      return false;
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t->tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   u->fn.GetTensorMemoryRequirementsARM(u->device, &ri, &req);
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.memoryRequirements.size,
      .memoryTypeIndex = vku_host_memory_type(&u->v, req.memoryRequirements.memoryTypeBits),
   };
   r = vkAllocateMemory(u->device, &mai, NULL, &t->memory);
   if (!ok(r == VK_SUCCESS, "tensor memory: %d", r))
      return false;
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .tensor = t->tensor,
                                   .memory = t->memory};
   r = u->fn.BindTensorMemoryARM(u->device, 1, &bi);
   if (r == VK_SUCCESS)
      r = vkMapMemory(u->device, t->memory, 0, VK_WHOLE_SIZE, 0, &t->data);
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = t->tensor,
                                   .format = format};
   if (r == VK_SUCCESS)
      r = u->fn.CreateTensorViewARM(u->device, &vi, NULL, &t->view);
   return ok(r == VK_SUCCESS, "tensor binding, mapping and view: %d", r);
}

void
dgu_tensor_destroy(struct dgu *u, struct dgu_tensor *t)
{
   if (t->view)
      u->fn.DestroyTensorViewARM(u->device, t->view, NULL);
   if (t->tensor)
      u->fn.DestroyTensorARM(u->device, t->tensor, NULL);
   if (t->memory)
      vkFreeMemory(u->device, t->memory, NULL);
   memset(t, 0, sizeof(*t));
}

/* ---- pipelines ------------------------------------------------------------------------------ */

static bool
make_layouts(struct dgu *u, const struct dgu_pipeline_desc *desc, struct dgu_graph *g)
{
   g->set_count = 0;
   for (uint32_t i = 0; i < desc->binding_count; i++) {
      if (desc->bindings[i].set + 1 > g->set_count)
         g->set_count = desc->bindings[i].set + 1;
   }
   if (!ok(g->set_count <= DGU_MAX_SETS, "too many sets"))
      return false;
   for (uint32_t s = 0; s < g->set_count; s++) {
      VkDescriptorSetLayoutBinding b[DGU_MAX_BINDINGS];
      VkDescriptorBindingFlags flags[DGU_MAX_BINDINGS];
      uint32_t n = 0;
      for (uint32_t i = 0; i < desc->binding_count && n < DGU_MAX_BINDINGS; i++) {
         const struct dgu_binding *d = &desc->bindings[i];
         if (d->set != s)
            continue;
         flags[n] = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
         b[n++] = (VkDescriptorSetLayoutBinding){d->binding, VK_DESCRIPTOR_TYPE_TENSOR_ARM,
                                                 d->count ? d->count : 1, VK_SHADER_STAGE_ALL,
                                                 NULL};
      }
      VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
         .bindingCount = n,
         .pBindingFlags = flags,
      };
      VkDescriptorSetLayoutCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
         .pNext = desc->update_after_bind ? &bf : NULL,
         .flags = desc->update_after_bind
                     ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT
                     : 0,
         .bindingCount = n,
         .pBindings = b,
      };
      VkResult r = vkCreateDescriptorSetLayout(u->device, &info, NULL, &g->set_layouts[s]);
      if (!ok(r == VK_SUCCESS, "vkCreateDescriptorSetLayout: %d", r))
         return false;
   }
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = g->set_count,
                                      .pSetLayouts = g->set_layouts};
   VkResult r = vkCreatePipelineLayout(u->device, &plci, NULL, &g->layout);
   return ok(r == VK_SUCCESS, "vkCreatePipelineLayout: %d", r);
}

void
dgu_create_parts(const struct dgu_pipeline_desc *desc, const struct dgu_graph *g,
                 struct dgu_create_parts *parts)
{
   memset(parts, 0, sizeof(*parts));
   uint32_t nres = desc->binding_count < DGU_MAX_BINDINGS ? desc->binding_count : DGU_MAX_BINDINGS;
   for (uint32_t i = 0; i < nres; i++) {
      const struct dgu_binding *b = &desc->bindings[i];
      parts->resource_descs[i] = dgu_description(b->format, b->rank, b->dims);
      parts->resources[i] = (VkDataGraphPipelineResourceInfoARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
         .pNext = &parts->resource_descs[i],
         .descriptorSet = b->set,
         .binding = b->binding,
      };
   }
   uint32_t nc = desc->constant_count < DGU_MAX_BINDINGS ? desc->constant_count
                                                          : DGU_MAX_BINDINGS;
   for (uint32_t i = 0; i < nc; i++) {
      const struct dgu_constant *c = &desc->constants[i];
      parts->constant_descs[i] = dgu_description(c->format, c->rank, c->dims);
      parts->constant_descs[i].usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM;
      parts->constants[i] = (VkDataGraphPipelineConstantARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
         .pNext = &parts->constant_descs[i],
         .id = c->id,
         .pConstantData = c->data,
      };
   }
   parts->module_info = (VkDataGraphPipelineShaderModuleCreateInfoARM){
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM,
      .pNext = desc->create_pnext,
      .module = g->module,
      .pName = desc->entry ? desc->entry : "main",
      .pSpecializationInfo = desc->specialization,
      .constantCount = nc,
      .pConstants = nc ? parts->constants : NULL,
   };
   parts->info = (VkDataGraphPipelineCreateInfoARM){
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
      .pNext = &parts->module_info,
      .layout = g->layout,
      .resourceInfoCount = nres,
      .pResourceInfos = nres ? parts->resources : NULL,
   };
}

VkResult
dgu_graph_create(struct dgu *u, const struct dgu_pipeline_desc *desc, struct dgu_graph *g)
{
   memset(g, 0, sizeof(*g));
   g->update_after_bind = desc->update_after_bind;
   g->result = VK_ERROR_UNKNOWN;
   if (!make_layouts(u, desc, g))
      return g->result;
   size_t count = 0;
   uint32_t *words = dgu_assemble(desc->text, &count);
   if (!words)
      return g->result;
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = count * 4,
                                   .pCode = words};
   VkResult r = vkCreateShaderModule(u->device, &mci, NULL, &g->module);
   free(words);
   if (!ok(r == VK_SUCCESS, "vkCreateShaderModule: %d", r))
      return g->result;
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!ok(parts != NULL, "out of memory"))
      return g->result;
   dgu_create_parts(desc, g, parts);
   g->result = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1,
                                                 &parts->info, NULL, &g->pipeline);
   free(parts);
   return g->result;
}

void
dgu_graph_destroy(struct dgu *u, struct dgu_graph *g)
{
   if (g->pipeline)
      vkDestroyPipeline(u->device, g->pipeline, NULL);
   if (g->module)
      vkDestroyShaderModule(u->device, g->module, NULL);
   if (g->layout)
      vkDestroyPipelineLayout(u->device, g->layout, NULL);
   for (uint32_t i = 0; i < g->set_count; i++) {
      if (g->set_layouts[i])
         vkDestroyDescriptorSetLayout(u->device, g->set_layouts[i], NULL);
   }
   memset(g, 0, sizeof(*g));
}

/* ---- sessions, sets, commands ------------------------------------------------------------- */

bool
dgu_session_create(struct dgu *u, VkPipeline pipeline, struct dgu_session *s)
{
   memset(s, 0, sizeof(*s));
   VkDataGraphPipelineSessionCreateInfoARM sci = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
      .dataGraphPipeline = pipeline,
   };
   VkResult r = u->fn.CreateDataGraphPipelineSessionARM(u->device, &sci, NULL, &s->session);
   if (!ok(r == VK_SUCCESS, "vkCreateDataGraphPipelineSessionARM: %d", r))
      return false;
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
      .session = s->session,
   };
   uint32_t count = 0;
   r = u->fn.GetDataGraphPipelineSessionBindPointRequirementsARM(u->device, &bri, &count, NULL);
   if (!ok(r == VK_SUCCESS && count <= 1, "bind point count %u: %d", count, r))
      return false;
   if (count == 0)
      return true;
   VkDataGraphPipelineSessionBindPointRequirementARM req = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM};
   r = u->fn.GetDataGraphPipelineSessionBindPointRequirementsARM(u->device, &bri, &count, &req);
   if (!ok(r == VK_SUCCESS &&
              req.bindPoint == VK_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_TRANSIENT_ARM,
           "bind point requirements: %d", r))
      return false;
   VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
      .session = s->session,
      .bindPoint = req.bindPoint,
   };
   VkMemoryRequirements2 mr = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   u->fn.GetDataGraphPipelineSessionMemoryRequirementsARM(u->device, &mri, &mr);
   s->size = mr.memoryRequirements.size;
   uint32_t type = vku_memory_type(&u->v, mr.memoryRequirements.memoryTypeBits,
                                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type == UINT32_MAX)
      type = vku_memory_type(&u->v, mr.memoryRequirements.memoryTypeBits, 0);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = s->size,
                               .memoryTypeIndex = type};
   r = vkAllocateMemory(u->device, &mai, NULL, &s->memory);
   if (!ok(r == VK_SUCCESS, "session memory (%llu bytes): %d", (unsigned long long)s->size, r))
      return false;
   VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
      .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
      .session = s->session,
      .bindPoint = req.bindPoint,
      .memory = s->memory,
   };
   r = u->fn.BindDataGraphPipelineSessionMemoryARM(u->device, 1, &bi);
   return ok(r == VK_SUCCESS, "vkBindDataGraphPipelineSessionMemoryARM: %d", r);
}

void
dgu_session_destroy(struct dgu *u, struct dgu_session *s)
{
   if (s->session)
      u->fn.DestroyDataGraphPipelineSessionARM(u->device, s->session, NULL);
   if (s->memory)
      vkFreeMemory(u->device, s->memory, NULL);
   memset(s, 0, sizeof(*s));
}

bool
dgu_sets_create(struct dgu *u, const struct dgu_graph *g, struct dgu_sets *s)
{
   memset(s, 0, sizeof(*s));
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 64};
   VkDescriptorPoolCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .flags = g->update_after_bind ? VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT : 0,
      .maxSets = DGU_MAX_SETS,
      .poolSizeCount = 1,
      .pPoolSizes = &size,
   };
   VkResult r = vkCreateDescriptorPool(u->device, &pci, NULL, &s->pool);
   if (!ok(r == VK_SUCCESS, "vkCreateDescriptorPool: %d", r))
      return false;
   if (g->set_count == 0)
      return true;
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = s->pool,
                                     .descriptorSetCount = g->set_count,
                                     .pSetLayouts = g->set_layouts};
   r = vkAllocateDescriptorSets(u->device, &ai, s->sets);
   return ok(r == VK_SUCCESS, "vkAllocateDescriptorSets: %d", r);
}

void
dgu_sets_destroy(struct dgu *u, struct dgu_sets *s)
{
   if (s->pool)
      vkDestroyDescriptorPool(u->device, s->pool, NULL);
   memset(s, 0, sizeof(*s));
}

void
dgu_write(struct dgu *u, VkDescriptorSet set, uint32_t binding, uint32_t element,
          const struct dgu_tensor *t)
{
   VkWriteDescriptorSetTensorARM tw = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
                                       .tensorViewCount = 1,
                                       .pTensorViews = &t->view};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .pNext = &tw,
                             .dstSet = set,
                             .dstBinding = binding,
                             .dstArrayElement = element,
                             .descriptorCount = 1,
                             .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
   vkUpdateDescriptorSets(u->device, 1, &w, 0, NULL);
}

VkCommandBuffer
dgu_begin(struct dgu *u)
{
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = u->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkResult r = vkAllocateCommandBuffers(u->device, &cbai, &cmd);
   if (!ok(r == VK_SUCCESS, "vkAllocateCommandBuffers: %d", r))
      return VK_NULL_HANDLE;
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(cmd, &bi);
   return cmd;
}

void
dgu_dispatch(struct dgu *u, VkCommandBuffer cmd, const struct dgu_graph *g,
             const struct dgu_sets *sets, VkDataGraphPipelineSessionARM session)
{
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, g->pipeline);
   if (g->set_count)
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, g->layout, 0,
                              g->set_count, sets->sets, 0, NULL);
   u->fn.CmdDispatchDataGraphARM(cmd, session, NULL);
}

void
dgu_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
            VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
   VkMemoryBarrier2 mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                          .srcStageMask = src_stage,
                          .srcAccessMask = src_access,
                          .dstStageMask = dst_stage,
                          .dstAccessMask = dst_access};
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                           .memoryBarrierCount = 1,
                           .pMemoryBarriers = &mb};
   vkCmdPipelineBarrier2(cmd, &dep);
}

void
dgu_barrier_host_to_graph(VkCommandBuffer cmd)
{
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT,
               VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
               VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM);
}

void
dgu_barrier_graph_to_host(VkCommandBuffer cmd)
{
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

bool
dgu_submit_wait(struct dgu *u, VkCommandBuffer cmd)
{
   VkResult r = vkEndCommandBuffer(cmd);
   if (!ok(r == VK_SUCCESS, "vkEndCommandBuffer: %d", r))
      return false;
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   r = vkQueueSubmit2(u->queue, 1, &si, u->fence);
   if (r == VK_SUCCESS)
      r = vkWaitForFences(u->device, 1, &u->fence, VK_TRUE, UINT64_MAX);
   vkResetFences(u->device, 1, &u->fence);
   return ok(r == VK_SUCCESS, "submit and wait: %d", r);
}

void
dgu_free_cmd(struct dgu *u, VkCommandBuffer cmd)
{
   if (cmd)
      vkFreeCommandBuffers(u->device, u->pool, 1, &cmd);
}

bool
dgu_run(struct dgu *u, const struct dgu_graph *g, const struct dgu_sets *sets,
        VkDataGraphPipelineSessionARM session)
{
   VkCommandBuffer cmd = dgu_begin(u);
   dgu_barrier_host_to_graph(cmd);
   dgu_dispatch(u, cmd, g, sets, session);
   dgu_barrier_graph_to_host(cmd);
   bool done = dgu_submit_wait(u, cmd);
   dgu_free_cmd(u, cmd);
   return done;
}

char *
dgu_text_property(struct dgu *u, VkPipeline pipeline, VkDataGraphPipelinePropertyARM prop)
{
   VkDataGraphPipelineInfoARM pi = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                    .dataGraphPipeline = pipeline};
   VkDataGraphPipelinePropertyQueryResultARM q = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
      .property = prop,
   };
   VkResult r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 1, &q);
   if (!ok(r == VK_SUCCESS && q.isText, "property %d size query: %d", (int)prop, r))
      return NULL;
   size_t size = q.dataSize;
   char *text = calloc(1, size + 1);
   if (!text)
      return NULL;
   q.pData = text;
   r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 1, &q);
   ok(r == VK_SUCCESS, "property %d: %d", (int)prop, r);
   return text;
}

/* ---- checking ------------------------------------------------------------------------------ */

void
dgu_clamp_add_sub_expect(const float *in, float *want, uint32_t n)
{
   for (uint32_t i = 0; i < n; i++)
      want[i] = 2.0f * fminf(fmaxf(in[i], -2.0f), 2.0f) - in[i];
}

bool
dgu_check_f32(const char *what, const float *got, const float *want, uint64_t n)
{
   for (uint64_t i = 0; i < n; i++) {
      if (memcmp(&got[i], &want[i], sizeof(float)) != 0)
         return ok(false, "%s[%llu] = %.9g, want %.9g", what, (unsigned long long)i,
                   (double)got[i], (double)want[i]);
   }
   return ok(true, "%s", what);
}

bool
dgu_check_bytes(const char *what, const void *got, const void *want, size_t n)
{
   const uint8_t *a = got, *b = want;
   for (size_t i = 0; i < n; i++) {
      if (a[i] != b[i])
         return ok(false, "%s: byte %zu is 0x%02x, want 0x%02x", what, i, a[i], b[i]);
   }
   return ok(true, "%s", what);
}

/* Each block starts with this header, placed just below the pointer returned. */
struct counted {
   size_t size;
   size_t offset; /* from the malloc()ed start to the pointer returned */
};

static void *VKAPI_CALL
counting_alloc(void *user, size_t size, size_t alignment, VkSystemAllocationScope scope)
{
   struct dgu_alloc_counter *c = user;
   (void)scope;
   if (alignment < sizeof(struct counted))
      alignment = sizeof(struct counted);
   size_t offset = (sizeof(struct counted) + alignment - 1) / alignment * alignment;
   char *base = malloc(size + offset + alignment);
   if (!base)
      return NULL;
   char *p = base + offset;
   p += (alignment - (uintptr_t)p % alignment) % alignment;
   struct counted *h = (struct counted *)p - 1;
   h->size = size;
   h->offset = (size_t)(p - base);
   c->allocations++;
   c->live++;
   c->live_bytes += size;
   return p;
}

static void VKAPI_CALL
counting_free(void *user, void *memory)
{
   struct dgu_alloc_counter *c = user;
   if (!memory)
      return;
   struct counted *h = (struct counted *)memory - 1;
   c->live--;
   c->live_bytes -= h->size;
   free((char *)memory - h->offset);
}

static void *VKAPI_CALL
counting_realloc(void *user, void *original, size_t size, size_t alignment,
                 VkSystemAllocationScope scope)
{
   if (!original)
      return counting_alloc(user, size, alignment, scope);
   if (size == 0) {
      counting_free(user, original);
      return NULL;
   }
   void *n = counting_alloc(user, size, alignment, scope);
   if (!n)
      return NULL;
   struct counted *h = (struct counted *)original - 1;
   memcpy(n, original, h->size < size ? h->size : size);
   counting_free(user, original);
   return n;
}

VkAllocationCallbacks
dgu_counting_allocator(struct dgu_alloc_counter *c)
{
   return (VkAllocationCallbacks){
      .pUserData = c,
      .pfnAllocation = counting_alloc,
      .pfnReallocation = counting_realloc,
      .pfnFree = counting_free,
   };
}

void
dgu_put(struct dgu_text *t, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int need = vsnprintf(NULL, 0, fmt, ap);
   va_end(ap);
   if (need < 0)
      abort();
   if (t->n + (size_t)need + 1 > t->cap) {
      t->cap = (t->n + (size_t)need + 1) * 2;
      t->s = realloc(t->s, t->cap);
      if (!t->s)
         abort();
   }
   va_start(ap, fmt);
   vsnprintf(t->s + t->n, t->cap - t->n, fmt, ap);
   va_end(ap);
   t->n += (size_t)need;
}
