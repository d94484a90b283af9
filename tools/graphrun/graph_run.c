/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * graph_run(): one SPIR-V graph through VK_ARM_data_graph, the way an
 * application drives it (see graph_run.h). Every Vulkan call goes through
 * the loader and whatever layers the instance has.
 */
#include "graph_run.h"

#include "vmel_formats.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_SETS 8
#define MAX_TENSORS 64

bool
graph_arm_fns_load(VkDevice device, struct graph_arm_fns *f)
{
#define LOAD(name) f->name = (PFN_vk##name)vkGetDeviceProcAddr(device, "vk" #name);
   LOAD(CreateTensorARM)
   LOAD(DestroyTensorARM)
   LOAD(GetTensorMemoryRequirementsARM)
   LOAD(BindTensorMemoryARM)
   LOAD(CreateTensorViewARM)
   LOAD(DestroyTensorViewARM)
   LOAD(CreateDataGraphPipelinesARM)
   LOAD(CreateDataGraphPipelineSessionARM)
   LOAD(DestroyDataGraphPipelineSessionARM)
   LOAD(GetDataGraphPipelineSessionBindPointRequirementsARM)
   LOAD(GetDataGraphPipelineSessionMemoryRequirementsARM)
   LOAD(BindDataGraphPipelineSessionMemoryARM)
   LOAD(CmdDispatchDataGraphARM)
   LOAD(GetDataGraphPipelineAvailablePropertiesARM)
   LOAD(GetDataGraphPipelinePropertiesARM)
#undef LOAD
   return f->CreateTensorARM && f->DestroyTensorARM && f->GetTensorMemoryRequirementsARM &&
          f->BindTensorMemoryARM && f->CreateTensorViewARM && f->DestroyTensorViewARM &&
          f->CreateDataGraphPipelinesARM && f->CreateDataGraphPipelineSessionARM &&
          f->DestroyDataGraphPipelineSessionARM &&
          f->GetDataGraphPipelineSessionBindPointRequirementsARM &&
          f->GetDataGraphPipelineSessionMemoryRequirementsARM &&
          f->BindDataGraphPipelineSessionMemoryARM && f->CmdDispatchDataGraphARM &&
          f->GetDataGraphPipelineAvailablePropertiesARM && f->GetDataGraphPipelinePropertiesARM;
}

uint32_t
graph_format_size(VkFormat format)
{
   return vmel_tensor_format_size(format);
}

uint64_t
graph_tensor_elements(const struct graph_tensor *t)
{
   uint64_t n = 1;
   for (uint32_t i = 0; i < t->rank; i++)
      n *= (uint64_t)t->dims[i];
   return n;
}

double
graph_now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static VkResult
fail(struct graph_run *run, VkResult r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static VkResult
fail(struct graph_run *run, VkResult r, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(run->log, sizeof(run->log), fmt, ap);
   va_end(ap);
   size_t n = strlen(run->log);
   snprintf(run->log + n, sizeof(run->log) - n, " (VkResult %d)", r);
   return r;
}

VkResult
graph_device_create(VkInstance instance, VkPhysicalDevice pd, struct graph_device *out)
{
   return graph_device_create_with(instance, pd, NULL, 0, NULL, out);
}

VkResult
graph_device_create_with(VkInstance instance, VkPhysicalDevice pd, const char *const *extra,
                         uint32_t extra_count, void *extra_features, struct graph_device *out)
{
   memset(out, 0, sizeof(*out));
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
   VkQueueFamilyProperties fams[16];
   if (n > 16)
      n = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams);
   uint32_t family = UINT32_MAX;
   for (uint32_t i = 0; i < n && family == UINT32_MAX; i++) {
      if (fams[i].queueFlags & VK_QUEUE_DATA_GRAPH_BIT_ARM)
         family = i;
   }
   if (family == UINT32_MAX)
      return VK_ERROR_FEATURE_NOT_PRESENT;
   const char *ext[3 + GRAPH_DEVICE_MAX_EXTRA] = {
      VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_DATA_GRAPH_EXTENSION_NAME,
      VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME};
   if (extra_count > GRAPH_DEVICE_MAX_EXTRA)
      return VK_ERROR_EXTENSION_NOT_PRESENT;
   for (uint32_t i = 0; i < extra_count; i++)
      ext[3 + i] = extra[i];
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .pNext = extra_features,
      .dataGraph = VK_TRUE,
      .dataGraphSpecializationConstants = VK_TRUE,
      .dataGraphShaderModule = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .pNext = &dgf,
      .tensors = VK_TRUE,
      .shaderTensorAccess = VK_TRUE,
   };
   VkPhysicalDeviceVulkan13Features f13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
      .pNext = &tf,
      .synchronization2 = VK_TRUE,
   };
   float prio = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &f13,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = 3 + extra_count,
                             .ppEnabledExtensionNames = ext};
   (void)instance;
   VkResult r = vkCreateDevice(pd, &dci, NULL, &out->device);
   if (r != VK_SUCCESS)
      return r;
   out->physical_device = pd;
   out->queue_family = family;
   vkGetDeviceQueue(out->device, family, 0, &out->queue);
   return VK_SUCCESS;
}

void
graph_device_destroy(struct graph_device *gd)
{
   if (gd->device)
      vkDestroyDevice(gd->device, NULL);
   gd->device = VK_NULL_HANDLE;
}

/* Everything one run creates, destroyed in reverse by cleanup(). */
struct objects {
   VkTensorARM tensors[MAX_TENSORS];
   VkTensorViewARM views[MAX_TENSORS];
   VkDeviceMemory memory[MAX_TENSORS];
   void *mapped[MAX_TENSORS];
   uint32_t tensor_count;
   VkDescriptorSetLayout set_layouts[MAX_SETS];
   uint32_t set_count;
   VkPipelineLayout layout;
   VkShaderModule module;
   VkPipeline pipeline;
   VkDataGraphPipelineSessionARM session;
   VkDeviceMemory session_memory;
   VkDescriptorPool pool;
   VkDescriptorSet sets[MAX_SETS];
   VkCommandPool cmd_pool;
   VkFence fence;
};

bool
graph_has_extension(VkPhysicalDevice pd, const char *name)
{
   uint32_t n = 0;
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   if (!props)
      return false;
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props);
   bool found = false;
   for (uint32_t i = 0; i < n && !found; i++)
      found = strcmp(props[i].extensionName, name) == 0;
   free(props);
   return found;
}

uint32_t
graph_memory_type(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want)
{
   VkPhysicalDeviceMemoryProperties mp;
   vkGetPhysicalDeviceMemoryProperties(pd, &mp);
   for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

static VkTensorDescriptionARM
description(const struct graph_tensor *t)
{
   return (VkTensorDescriptionARM){
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = VK_TENSOR_TILING_LINEAR_ARM,
      .format = t->format,
      .dimensionCount = t->rank,
      .pDimensions = t->dims,
      .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
}

/* A tensor in host-visible memory with a view. */
static VkResult
make_tensor(const struct graph_device *gd, const struct graph_arm_fns *f, struct objects *o,
            const struct graph_tensor *t, uint32_t *index)
{
   if (o->tensor_count == MAX_TENSORS)
      return VK_ERROR_TOO_MANY_OBJECTS;
   uint32_t i = o->tensor_count++;
   VkTensorDescriptionARM desc = description(t);
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &desc,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   VkResult r = f->CreateTensorARM(gd->device, &tci, NULL, &o->tensors[i]);
   if (r != VK_SUCCESS)
      return r;
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = o->tensors[i]};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   f->GetTensorMemoryRequirementsARM(gd->device, &ri, &req);
   uint32_t type = graph_memory_type(gd->physical_device, req.memoryRequirements.memoryTypeBits,
                               VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                  VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex = type};
   r = vkAllocateMemory(gd->device, &mai, NULL, &o->memory[i]);
   if (r != VK_SUCCESS)
      return r;
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .tensor = o->tensors[i],
                                   .memory = o->memory[i]};
   r = f->BindTensorMemoryARM(gd->device, 1, &bi);
   if (r != VK_SUCCESS)
      return r;
   r = vkMapMemory(gd->device, o->memory[i], 0, VK_WHOLE_SIZE, 0, &o->mapped[i]);
   if (r != VK_SUCCESS)
      return r;
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = o->tensors[i],
                                   .format = t->format};
   *index = i;
   return f->CreateTensorViewARM(gd->device, &vi, NULL, &o->views[i]);
}

static void
cleanup(const struct graph_device *gd, const struct graph_arm_fns *f, struct objects *o)
{
   VkDevice d = gd->device;
   if (o->fence)
      vkDestroyFence(d, o->fence, NULL);
   if (o->cmd_pool)
      vkDestroyCommandPool(d, o->cmd_pool, NULL);
   if (o->pool)
      vkDestroyDescriptorPool(d, o->pool, NULL);
   if (o->session)
      f->DestroyDataGraphPipelineSessionARM(d, o->session, NULL);
   if (o->session_memory)
      vkFreeMemory(d, o->session_memory, NULL);
   if (o->pipeline)
      vkDestroyPipeline(d, o->pipeline, NULL);
   if (o->module)
      vkDestroyShaderModule(d, o->module, NULL);
   if (o->layout)
      vkDestroyPipelineLayout(d, o->layout, NULL);
   for (uint32_t i = 0; i < o->set_count; i++) {
      if (o->set_layouts[i])
         vkDestroyDescriptorSetLayout(d, o->set_layouts[i], NULL);
   }
   for (uint32_t i = 0; i < o->tensor_count; i++) {
      if (o->views[i])
         f->DestroyTensorViewARM(d, o->views[i], NULL);
      if (o->tensors[i])
         f->DestroyTensorARM(d, o->tensors[i], NULL);
      if (o->memory[i])
         vkFreeMemory(d, o->memory[i], NULL);
   }
}

/* One set layout per set used, each binding one tensor. */
static VkResult
make_layouts(const struct graph_device *gd, struct objects *o, const struct graph_run *run)
{
   uint32_t max_set = 0;
   const struct graph_tensor *all[MAX_TENSORS];
   uint32_t n = 0;
   for (uint32_t i = 0; i < run->input_count && n < MAX_TENSORS; i++)
      all[n++] = &run->inputs[i];
   for (uint32_t i = 0; i < run->output_count && n < MAX_TENSORS; i++)
      all[n++] = &run->outputs[i];
   for (uint32_t i = 0; i < n; i++) {
      if (all[i]->set >= MAX_SETS)
         return VK_ERROR_TOO_MANY_OBJECTS;
      if (all[i]->set + 1 > max_set)
         max_set = all[i]->set + 1;
   }
   o->set_count = max_set;
   for (uint32_t s = 0; s < max_set; s++) {
      VkDescriptorSetLayoutBinding b[MAX_TENSORS];
      uint32_t count = 0;
      for (uint32_t i = 0; i < n; i++) {
         if (all[i]->set == s)
            b[count++] = (VkDescriptorSetLayoutBinding){all[i]->binding,
                                                        VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                                        VK_SHADER_STAGE_ALL, NULL};
      }
      VkDescriptorSetLayoutCreateInfo info = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
         .bindingCount = count,
         .pBindings = b,
      };
      VkResult r = vkCreateDescriptorSetLayout(gd->device, &info, NULL, &o->set_layouts[s]);
      if (r != VK_SUCCESS)
         return r;
   }
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = max_set,
                                      .pSetLayouts = o->set_layouts};
   return vkCreatePipelineLayout(gd->device, &plci, NULL, &o->layout);
}

static VkResult
make_pipeline(const struct graph_device *gd, const struct graph_arm_fns *f, struct objects *o,
              struct graph_run *run)
{
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = run->word_count * 4,
                                   .pCode = run->words};
   VkResult r = vkCreateShaderModule(gd->device, &mci, NULL, &o->module);
   if (r != VK_SUCCESS)
      return fail(run, r, "vkCreateShaderModule");
   uint32_t nres = run->input_count + run->output_count;
   VkDataGraphPipelineResourceInfoARM res[MAX_TENSORS];
   VkTensorDescriptionARM descs[MAX_TENSORS];
   for (uint32_t i = 0; i < nres && i < MAX_TENSORS; i++) {
      const struct graph_tensor *t =
         i < run->input_count ? &run->inputs[i] : &run->outputs[i - run->input_count];
      descs[i] = description(t);
      res[i] = (VkDataGraphPipelineResourceInfoARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
         .pNext = &descs[i],
         .descriptorSet = t->set,
         .binding = t->binding,
      };
   }
   VkDataGraphPipelineConstantARM consts[MAX_TENSORS];
   VkTensorDescriptionARM cdescs[MAX_TENSORS];
   for (uint32_t i = 0; i < run->constant_count && i < MAX_TENSORS; i++) {
      const struct graph_constant *c = &run->constants[i];
      cdescs[i] = (VkTensorDescriptionARM){
         .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
         .tiling = VK_TENSOR_TILING_LINEAR_ARM,
         .format = c->format,
         .dimensionCount = c->rank,
         .pDimensions = c->dims,
         .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM,
      };
      consts[i] = (VkDataGraphPipelineConstantARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
         .pNext = &cdescs[i],
         .id = c->id,
         .pConstantData = c->data,
      };
   }
   VkDataGraphPipelineShaderModuleCreateInfoARM sm = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM,
      .module = o->module,
      .pName = run->entry_point ? run->entry_point : "main",
      .constantCount = run->constant_count,
      .pConstants = run->constant_count ? consts : NULL,
   };
   VkDataGraphPipelineCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
      .pNext = &sm,
      .layout = o->layout,
      .resourceInfoCount = nres,
      .pResourceInfos = res,
   };
   double t0 = graph_now_ms();
   r = f->CreateDataGraphPipelinesARM(gd->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info, NULL,
                                      &o->pipeline);
   run->timing.create_ms = graph_now_ms() - t0;
   run->create_result = r;
   if (r != VK_SUCCESS)
      return fail(run, r, "vkCreateDataGraphPipelinesARM");
   return VK_SUCCESS;
}

static VkResult
make_session(const struct graph_device *gd, const struct graph_arm_fns *f, struct objects *o,
             struct graph_run *run)
{
   VkDataGraphPipelineSessionCreateInfoARM sci = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
      .dataGraphPipeline = o->pipeline,
   };
   VkResult r = f->CreateDataGraphPipelineSessionARM(gd->device, &sci, NULL, &o->session);
   if (r != VK_SUCCESS)
      return fail(run, r, "vkCreateDataGraphPipelineSessionARM");
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
      .session = o->session,
   };
   uint32_t count = 0;
   f->GetDataGraphPipelineSessionBindPointRequirementsARM(gd->device, &bri, &count, NULL);
   VkDataGraphPipelineSessionBindPointRequirementARM reqs[4];
   for (uint32_t i = 0; i < 4; i++)
      reqs[i] = (VkDataGraphPipelineSessionBindPointRequirementARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM};
   if (count > 4)
      count = 4;
   f->GetDataGraphPipelineSessionBindPointRequirementsARM(gd->device, &bri, &count, reqs);
   for (uint32_t i = 0; i < count; i++) {
      VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
         .session = o->session,
         .bindPoint = reqs[i].bindPoint,
      };
      VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      f->GetDataGraphPipelineSessionMemoryRequirementsARM(gd->device, &mri, &req);
      uint32_t type = graph_memory_type(gd->physical_device, req.memoryRequirements.memoryTypeBits,
                                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type == UINT32_MAX)
         type = graph_memory_type(gd->physical_device, req.memoryRequirements.memoryTypeBits, 0);
      VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.memoryRequirements.size,
                                  .memoryTypeIndex = type};
      r = vkAllocateMemory(gd->device, &mai, NULL, &o->session_memory);
      if (r != VK_SUCCESS)
         return fail(run, r, "session memory");
      VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
         .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
         .session = o->session,
         .bindPoint = reqs[i].bindPoint,
         .memory = o->session_memory,
      };
      r = f->BindDataGraphPipelineSessionMemoryARM(gd->device, 1, &bi);
      if (r != VK_SUCCESS)
         return fail(run, r, "vkBindDataGraphPipelineSessionMemoryARM");
   }
   return VK_SUCCESS;
}

static VkResult
make_sets(const struct graph_device *gd, struct objects *o, struct graph_run *run,
          const uint32_t *tensor_index)
{
   uint32_t n = run->input_count + run->output_count;
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, n};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = o->set_count ? o->set_count : 1,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
   VkResult r = vkCreateDescriptorPool(gd->device, &pci, NULL, &o->pool);
   if (r != VK_SUCCESS)
      return fail(run, r, "descriptor pool");
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = o->pool,
                                     .descriptorSetCount = o->set_count,
                                     .pSetLayouts = o->set_layouts};
   r = vkAllocateDescriptorSets(gd->device, &ai, o->sets);
   if (r != VK_SUCCESS)
      return fail(run, r, "descriptor sets");
   for (uint32_t i = 0; i < n; i++) {
      const struct graph_tensor *t =
         i < run->input_count ? &run->inputs[i] : &run->outputs[i - run->input_count];
      VkWriteDescriptorSetTensorARM tw = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
                                          .tensorViewCount = 1,
                                          .pTensorViews = &o->views[tensor_index[i]]};
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .pNext = &tw,
                                .dstSet = o->sets[t->set],
                                .dstBinding = t->binding,
                                .descriptorCount = 1,
                                .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
      vkUpdateDescriptorSets(gd->device, 1, &w, 0, NULL);
   }
   return VK_SUCCESS;
}

static VkResult
dispatch(const struct graph_device *gd, const struct graph_arm_fns *f, struct objects *o,
         struct graph_run *run)
{
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = gd->queue_family};
   VkResult r = vkCreateCommandPool(gd->device, &cpci, NULL, &o->cmd_pool);
   if (r != VK_SUCCESS)
      return fail(run, r, "command pool");
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = o->cmd_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd;
   r = vkAllocateCommandBuffers(gd->device, &cbai, &cmd);
   if (r != VK_SUCCESS)
      return fail(run, r, "command buffer");
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   vkBeginCommandBuffer(cmd, &bi);
   /* Host writes of the inputs, then the graph, then host reads. */
   VkMemoryBarrier2 before = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                              .srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                              .srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT,
                              .dstStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                              .dstAccessMask = VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM};
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                           .memoryBarrierCount = 1,
                           .pMemoryBarriers = &before};
   vkCmdPipelineBarrier2(cmd, &dep);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, o->pipeline);
   if (o->set_count)
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, o->layout, 0,
                              o->set_count, o->sets, 0, NULL);
   f->CmdDispatchDataGraphARM(cmd, o->session, NULL);
   VkMemoryBarrier2 after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                             .srcAccessMask = VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
   dep.pMemoryBarriers = &after;
   vkCmdPipelineBarrier2(cmd, &dep);
   r = vkEndCommandBuffer(cmd);
   if (r != VK_SUCCESS)
      return fail(run, r, "vkEndCommandBuffer");
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   r = vkCreateFence(gd->device, &fci, NULL, &o->fence);
   if (r != VK_SUCCESS)
      return fail(run, r, "fence");
   uint32_t dispatches = run->dispatches ? run->dispatches : 1;
   double total = 0;
   run->timing.dispatch_min_ms = 0;
   run->timing.dispatch_max_ms = 0;
   for (uint32_t i = 0; i < dispatches; i++) {
      VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                        .commandBuffer = cmd};
      VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                          .commandBufferInfoCount = 1,
                          .pCommandBufferInfos = &cbsi};
      double t0 = graph_now_ms();
      r = vkQueueSubmit2(gd->queue, 1, &si, o->fence);
      if (r == VK_SUCCESS)
         r = vkWaitForFences(gd->device, 1, &o->fence, VK_TRUE, UINT64_MAX);
      double t = graph_now_ms() - t0;
      total += t;
      if (i == 0 || t < run->timing.dispatch_min_ms)
         run->timing.dispatch_min_ms = t;
      if (t > run->timing.dispatch_max_ms)
         run->timing.dispatch_max_ms = t;
      if (r != VK_SUCCESS)
         return fail(run, r, "submit");
      vkResetFences(gd->device, 1, &o->fence);
   }
   run->timing.dispatch_ms = total / dispatches;
   return VK_SUCCESS;
}

VkResult
graph_run(const struct graph_device *gd, struct graph_run *run)
{
   struct graph_arm_fns f;
   struct objects o;
   memset(&o, 0, sizeof(o));
   run->log[0] = 0;
   run->create_result = VK_SUCCESS;
   if (!graph_arm_fns_load(gd->device, &f))
      return fail(run, VK_ERROR_EXTENSION_NOT_PRESENT, "VK_ARM_data_graph entry points missing");
   uint32_t index[MAX_TENSORS];
   uint32_t n = run->input_count + run->output_count;
   if (n > MAX_TENSORS)
      return fail(run, VK_ERROR_TOO_MANY_OBJECTS, "too many tensors");

   VkResult r = make_layouts(gd, &o, run);
   if (r != VK_SUCCESS)
      fail(run, r, "layouts");
   if (r == VK_SUCCESS)
      r = make_pipeline(gd, &f, &o, run);
   double t0 = graph_now_ms();
   for (uint32_t i = 0; i < n && r == VK_SUCCESS; i++) {
      struct graph_tensor *t =
         i < run->input_count ? &run->inputs[i] : &run->outputs[i - run->input_count];
      r = make_tensor(gd, &f, &o, t, &index[i]);
      if (r != VK_SUCCESS) {
         fail(run, r, "tensor %u", i);
         break;
      }
      size_t bytes = graph_tensor_elements(t) * graph_format_size(t->format);
      if (i < run->input_count)
         memcpy(o.mapped[index[i]], t->data, bytes);
      else
         memset(o.mapped[index[i]], 0xcd, bytes);
   }
   if (r == VK_SUCCESS)
      r = make_session(gd, &f, &o, run);
   if (r == VK_SUCCESS)
      r = make_sets(gd, &o, run, index);
   run->timing.session_ms = graph_now_ms() - t0;
   if (r == VK_SUCCESS)
      r = dispatch(gd, &f, &o, run);
   if (r == VK_SUCCESS && run->after_dispatch)
      run->after_dispatch(gd, o.pipeline, run->user);
   for (uint32_t i = 0; i < run->output_count && r == VK_SUCCESS; i++) {
      struct graph_tensor *t = &run->outputs[i];
      size_t bytes = graph_tensor_elements(t) * graph_format_size(t->format);
      if (!t->data) {
         t->data = malloc(bytes ? bytes : 1);
         t->size = bytes;
      }
      if (t->data)
         memcpy(t->data, o.mapped[index[run->input_count + i]], bytes < t->size ? bytes : t->size);
   }
   cleanup(gd, &f, &o);
   return r;
}
