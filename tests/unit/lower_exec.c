/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The compute runner of lower_exec.h: the tensor layer above validation, a
 * device with VK_ARM_tensors, buffer device addresses and the small-type
 * features the lowered shaders use, buffers, tensors with records, one-shot
 * dispatches.
 */
#include "lower_exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "test.h"

bool
lx_init(struct lx *x)
{
   memset(x, 0, sizeof(*x));
   const char *layers[] = {VKU_TENSOR};
   if (vku_init(&x->v, layers, 1, true) != VK_SUCCESS &&
       vku_init(&x->v, layers, 1, false) != VK_SUCCESS)
      return false;
   if (!x->v.physical_device)
      return false;

   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
   };
   VkPhysicalDeviceVulkan11Features f11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
       .pNext = &f12,
   };
   VkPhysicalDeviceFeatures2 f2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &f11,
   };
   vkGetPhysicalDeviceFeatures2(x->v.physical_device, &f2);
   if (!f12.bufferDeviceAddress || !f12.shaderInt8 || !f12.storageBuffer8BitAccess ||
       !f11.storageBuffer16BitAccess || !f2.features.shaderInt16 || !f2.features.shaderInt64)
      return false;
   /* Keep only what the lowered shaders may use. */
   VkPhysicalDeviceTensorFeaturesARM tensors = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
   };
   VkPhysicalDeviceVulkan12Features e12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &tensors,
       .bufferDeviceAddress = VK_TRUE,
       .shaderInt8 = VK_TRUE,
       .shaderFloat16 = f12.shaderFloat16,
       .storageBuffer8BitAccess = VK_TRUE,
       .runtimeDescriptorArray = f12.runtimeDescriptorArray,
       .shaderStorageBufferArrayNonUniformIndexing = f12.shaderStorageBufferArrayNonUniformIndexing,
       .vulkanMemoryModel = f12.vulkanMemoryModel,
   };
   VkPhysicalDeviceVulkan11Features e11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
       .pNext = &e12,
       .storageBuffer16BitAccess = VK_TRUE,
   };
   VkPhysicalDeviceFeatures2 e2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &e11,
       .features = {.shaderInt16 = VK_TRUE,
                    .shaderInt64 = VK_TRUE,
                    .shaderFloat64 = f2.features.shaderFloat64,
                    .shaderStorageBufferArrayDynamicIndexing =
                        f2.features.shaderStorageBufferArrayDynamicIndexing,
                    .shaderStorageImageWriteWithoutFormat =
                        f2.features.shaderStorageImageWriteWithoutFormat},
   };
   const char *extensions[] = {"VK_ARM_tensors"};
   if (vku_create_device(&x->v, extensions, 1, &e2, &x->device) != VK_SUCCESS)
      return false;
   x->non_uniform = f12.shaderStorageBufferArrayNonUniformIndexing;
   x->runtime_array = f12.runtimeDescriptorArray;

   uint32_t n = 0;
   VkQueueFamilyProperties fams[16];
   vkGetPhysicalDeviceQueueFamilyProperties(x->v.physical_device, &n, NULL);
   n = n > 16 ? 16 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(x->v.physical_device, &n, fams);
   for (uint32_t i = 0; i < n; i++) {
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
         x->family = i;
         break;
      }
   }
   vkGetDeviceQueue(x->device, x->family, 0, &x->queue);
   vkGetPhysicalDeviceMemoryProperties(x->v.physical_device, &x->mem);
   VkCommandPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
       .queueFamilyIndex = x->family,
   };
   return vkCreateCommandPool(x->device, &pci, NULL, &x->pool) == VK_SUCCESS;
}

void
lx_finish(struct lx *x)
{
   if (x->device) {
      vkDestroyCommandPool(x->device, x->pool, NULL);
      vkDestroyDevice(x->device, NULL);
   }
   vku_finish(&x->v);
}

bool
lx_buffer_create(struct lx *x, VkDeviceSize size, struct lx_buffer *b)
{
   memset(b, 0, sizeof(*b));
   b->size = size;
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
   };
   if (vkCreateBuffer(x->device, &bci, NULL, &b->buffer) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(x->device, b->buffer, &req);
   uint32_t type = UINT32_MAX;
   VkMemoryPropertyFlags want =
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   for (uint32_t i = 0; i < x->mem.memoryTypeCount && type == UINT32_MAX; i++)
      if ((req.memoryTypeBits & (1u << i)) && (x->mem.memoryTypes[i].propertyFlags & want) == want)
         type = i;
   VkMemoryAllocateFlagsInfo flags = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = &flags,
       .allocationSize = req.size,
       .memoryTypeIndex = type,
   };
   if (type == UINT32_MAX || vkAllocateMemory(x->device, &mai, NULL, &b->memory) != VK_SUCCESS ||
       vkBindBufferMemory(x->device, b->buffer, b->memory, 0) != VK_SUCCESS ||
       vkMapMemory(x->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map) != VK_SUCCESS)
      return false;
   VkBufferDeviceAddressInfo ai = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
       .buffer = b->buffer,
   };
   b->address = vkGetBufferDeviceAddress(x->device, &ai);
   return true;
}

void
lx_buffer_destroy(struct lx *x, struct lx_buffer *b)
{
   if (b->memory)
      vkFreeMemory(x->device, b->memory, NULL);
   if (b->buffer)
      vkDestroyBuffer(x->device, b->buffer, NULL);
   memset(b, 0, sizeof(*b));
}

bool
lx_tensor_create(struct lx *x, uint32_t rank, const uint32_t *dims, const uint32_t *strides,
                 uint32_t element_size, struct lx_tensor *t)
{
   memset(t, 0, sizeof(*t));
   t->rank = rank;
   t->element_size = element_size;
   uint32_t packed = element_size;
   for (uint32_t i = rank; i-- > 0;) {
      t->dims[i] = dims[i];
      t->strides[i] = strides ? strides[i] : packed;
      packed = t->strides[i] * dims[i];
   }
   t->bytes = (VkDeviceSize)t->strides[0] * t->dims[0];
   if (!lx_buffer_create(x, t->bytes + LX_GUARD_BYTES, &t->data) ||
       !lx_buffer_create(x, VMEL_TENSOR_RECORD_SIZE, &t->record))
      return false;
   memset(t->data.map, LX_GUARD_BYTE, t->bytes + LX_GUARD_BYTES);
   struct vmel_tensor_record rec = {
       .address = {(uint32_t)t->data.address, (uint32_t)(t->data.address >> 32)},
       .rank = rank,
       .element_size = element_size,
   };
   for (uint32_t i = 0; i < VMEL_TENSOR_MAX_RANK; i++) {
      rec.dims[i] = i < rank ? t->dims[i] : 1;
      rec.strides[i] = i < rank ? t->strides[i] : 0;
   }
   memcpy(t->record.map, &rec, sizeof(rec));
   return true;
}

void
lx_tensor_destroy(struct lx *x, struct lx_tensor *t)
{
   lx_buffer_destroy(x, &t->data);
   lx_buffer_destroy(x, &t->record);
}

void *
lx_tensor_at(const struct lx_tensor *t, const uint32_t *c)
{
   VkDeviceSize offset = 0;
   for (uint32_t i = 0; i < t->rank; i++)
      offset += (VkDeviceSize)c[i] * t->strides[i];
   return (uint8_t *)t->data.map + offset;
}

bool
lx_tensor_guard_intact(const struct lx_tensor *t)
{
   const uint8_t *g = (const uint8_t *)t->data.map + t->bytes;
   for (uint32_t i = 0; i < LX_GUARD_BYTES; i++)
      if (g[i] != LX_GUARD_BYTE)
         return false;
   return true;
}

struct lx_objects {
   VkShaderModule module;
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkCommandBuffer cmd;
};

static bool
build(struct lx *x, const struct lx_dispatch *d, struct lx_objects *o)
{
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = d->spirv_count * 4,
       .pCode = d->spirv,
   };
   VkDescriptorSetLayoutBinding b[32];
   uint32_t total = 0;
   for (uint32_t i = 0; i < d->binding_count && i < 32; i++) {
      b[i] =
          (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, d->bindings[i].count,
                                         VK_SHADER_STAGE_COMPUTE_BIT, NULL};
      total += d->bindings[i].count;
   }
   VkDescriptorSetLayoutCreateInfo dslci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = d->binding_count,
       .pBindings = b,
   };
   if (vkCreateShaderModule(x->device, &smci, NULL, &o->module) != VK_SUCCESS ||
       vkCreateDescriptorSetLayout(x->device, &dslci, NULL, &o->set_layout) != VK_SUCCESS)
      return false;
   VkPipelineLayoutCreateInfo plci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &o->set_layout,
   };
   if (vkCreatePipelineLayout(x->device, &plci, NULL, &o->layout) != VK_SUCCESS)
      return false;
   VkComputePipelineCreateInfo cpci = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = o->module,
                 .pName = "main",
                 .pSpecializationInfo = d->specialization},
       .layout = o->layout,
   };
   if (vkCreateComputePipelines(x->device, VK_NULL_HANDLE, 1, &cpci, NULL, &o->pipeline) !=
       VK_SUCCESS)
      return false;
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, total ? total : 1};
   VkDescriptorPoolCreateInfo dpci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &size,
   };
   VkCommandBufferAllocateInfo cbai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = x->pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = 1,
   };
   return vkCreateDescriptorPool(x->device, &dpci, NULL, &o->pool) == VK_SUCCESS &&
          vkAllocateCommandBuffers(x->device, &cbai, &o->cmd) == VK_SUCCESS;
}

static bool
record_and_submit(struct lx *x, const struct lx_dispatch *d, struct lx_objects *o)
{
   VkDescriptorSetAllocateInfo dsai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = o->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &o->set_layout,
   };
   VkDescriptorSet set;
   if (vkAllocateDescriptorSets(x->device, &dsai, &set) != VK_SUCCESS)
      return false;
   for (uint32_t i = 0; i < d->binding_count; i++) {
      VkDescriptorBufferInfo infos[8];
      for (uint32_t k = 0; k < d->bindings[i].count && k < 8; k++)
         infos[k] = (VkDescriptorBufferInfo){d->bindings[i].buffers[k]->buffer, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet w = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .dstSet = set,
          .dstBinding = i,
          .descriptorCount = d->bindings[i].count,
          .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
          .pBufferInfo = infos,
      };
      vkUpdateDescriptorSets(x->device, 1, &w, 0, NULL);
   }
   VkCommandBufferBeginInfo cbbi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   vkBeginCommandBuffer(o->cmd, &cbbi);
   vkCmdBindPipeline(o->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o->pipeline);
   vkCmdBindDescriptorSets(o->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, o->layout, 0, 1, &set, 0, NULL);
   vkCmdDispatch(o->cmd, d->groups[0], d->groups[1], d->groups[2]);
   VkMemoryBarrier mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(o->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                        1, &mb, 0, NULL, 0, NULL);
   vkEndCommandBuffer(o->cmd);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &o->cmd,
   };
   return vkQueueSubmit(x->queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS &&
          vkQueueWaitIdle(x->queue) == VK_SUCCESS;
}

bool
lx_run(struct lx *x, const struct lx_dispatch *d)
{
   struct lx_objects o = {0};
   bool ok = build(x, d, &o) && record_and_submit(x, d, &o);
   if (o.cmd)
      vkFreeCommandBuffers(x->device, x->pool, 1, &o.cmd);
   vkDestroyDescriptorPool(x->device, o.pool, NULL);
   vkDestroyPipeline(x->device, o.pipeline, NULL);
   vkDestroyPipelineLayout(x->device, o.layout, NULL);
   vkDestroyDescriptorSetLayout(x->device, o.set_layout, NULL);
   vkDestroyShaderModule(x->device, o.module, NULL);
   return ok;
}

const char *
lx_mode(void)
{
   const char *mode = getenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE");
   return mode && !strcmp(mode, "1") ? "direct" : "GLSL round trip";
}

uint32_t *
lx_module(const char *name, const char *text, size_t *count)
{
   char *file = NULL;
   size_t len = 0;
   if (!text) {
      char path[4096];
      snprintf(path, sizeof(path), "%s/%s.in.spvasm", VMEL_LOWER_CASE_DIR, name);
      FILE *f = fopen(path, "rb");
      if (!ok(f != NULL, "%s: cannot open %s", name, path))
         return NULL;
      file = malloc(1 << 20);
      len = file ? fread(file, 1, (1 << 20) - 1, f) : 0;
      fclose(f);
      text = file;
   } else {
      len = strlen(text);
   }
   uint32_t *words = NULL;
   char err[512] = "";
   *count = 0;
   if (text && !ok(spirv_text_assemble(text, len, &words, count, err, sizeof(err)),
                   "%s: assembly failed: %s", name, err)) {
      free(words);
      words = NULL;
   }
   free(file);
   return words;
}
