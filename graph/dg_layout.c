/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Descriptor set layouts and pipeline layouts as the graph layer needs them.
 * Graph kernels are compute pipelines that must see the application's
 * descriptor sets (where graph inputs and outputs are bound) at the same set
 * numbers, so each data-graph pipeline gets a compute pipeline layout made of
 * identically defined copies of the application's set layouts plus one
 * internal set (dg_pipeline.c). The application may destroy its layouts once
 * it has created the pipeline layout, so their definitions are recorded here
 * when they are created. Tensor bindings also gain VK_SHADER_STAGE_COMPUTE_BIT:
 * the kernels that read them are compute shaders.
 */
#include "dg_private.h"

/* A recorded VkDescriptorSetLayoutCreateInfo (one allocation). */
struct dg_set_layout_info {
   VkDescriptorSetLayoutCreateFlags flags;
   uint32_t binding_count;
   VkDescriptorSetLayoutBinding *bindings;
   VkDescriptorBindingFlags *binding_flags; /* NULL when none were given */
   bool has_tensors;
};

/* A recorded VkPipelineLayoutCreateInfo: the set layouts by value. */
struct dg_pipeline_layout_info {
   uint32_t set_count;
   struct dg_set_layout_info **sets; /* NULL entries for VK_NULL_HANDLE set layouts */
   uint32_t push_range_count;
};

static bool
is_tensor_type(VkDescriptorType type)
{
   return (int)type == (int)VK_DESCRIPTOR_TYPE_TENSOR_ARM;
}

static struct dg_set_layout_info *
set_info_copy(const VkAllocationCallbacks *alloc, const VkDescriptorSetLayoutCreateInfo *info)
{
   const VkDescriptorSetLayoutBindingFlagsCreateInfo *bf = lyr_find_struct(
      info->pNext, VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO);
   size_t samplers = 0;
   for (uint32_t i = 0; i < info->bindingCount; i++) {
      if (info->pBindings[i].pImmutableSamplers)
         samplers += info->pBindings[i].descriptorCount;
   }
   size_t size = sizeof(struct dg_set_layout_info) +
                 info->bindingCount * sizeof(VkDescriptorSetLayoutBinding) +
                 (bf && bf->bindingCount ? info->bindingCount * sizeof(VkDescriptorBindingFlags)
                                         : 0) +
                 samplers * sizeof(VkSampler);
   struct dg_set_layout_info *s =
      lyr_zalloc(alloc, size, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!s)
      return NULL;
   char *p = (char *)(s + 1);
   s->flags = info->flags;
   s->binding_count = info->bindingCount;
   s->bindings = (VkDescriptorSetLayoutBinding *)p;
   p += info->bindingCount * sizeof(VkDescriptorSetLayoutBinding);
   if (bf && bf->bindingCount) {
      s->binding_flags = (VkDescriptorBindingFlags *)p;
      memcpy(s->binding_flags, bf->pBindingFlags,
             info->bindingCount * sizeof(VkDescriptorBindingFlags));
      p += info->bindingCount * sizeof(VkDescriptorBindingFlags);
   }
   VkSampler *sampler_copies = (VkSampler *)p;
   for (uint32_t i = 0; i < info->bindingCount; i++) {
      s->bindings[i] = info->pBindings[i];
      if (is_tensor_type(s->bindings[i].descriptorType)) {
         s->bindings[i].stageFlags |= VK_SHADER_STAGE_COMPUTE_BIT;
         s->has_tensors = true;
      }
      if (info->pBindings[i].pImmutableSamplers) {
         memcpy(sampler_copies, info->pBindings[i].pImmutableSamplers,
                info->pBindings[i].descriptorCount * sizeof(VkSampler));
         s->bindings[i].pImmutableSamplers = sampler_copies;
         sampler_copies += info->pBindings[i].descriptorCount;
      }
   }
   return s;
}

/* The create info of a recorded set layout (bf: its binding flags, chained when recorded). */
static void
set_info_create_info(const struct dg_set_layout_info *s,
                     VkDescriptorSetLayoutBindingFlagsCreateInfo *bf,
                     VkDescriptorSetLayoutCreateInfo *info)
{
   *bf = (VkDescriptorSetLayoutBindingFlagsCreateInfo){
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
      .bindingCount = s->binding_flags ? s->binding_count : 0,
      .pBindingFlags = s->binding_flags,
   };
   *info = (VkDescriptorSetLayoutCreateInfo){
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .pNext = s->binding_flags ? bf : NULL,
      .flags = s->flags,
      .bindingCount = s->binding_count,
      .pBindings = s->bindings,
   };
}

VkResult
dg_set_layout_create(struct dg_device *device, const struct dg_set_layout_info *s,
                     VkDescriptorSetLayout *layout)
{
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf;
   VkDescriptorSetLayoutCreateInfo info;
   set_info_create_info(s, &bf, &info);
   return device->base.next.CreateDescriptorSetLayout(device->base.handle, &info,
                                                     &device->base.alloc, layout);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateDescriptorSetLayout(VkDevice _device, const VkDescriptorSetLayoutCreateInfo *pCreateInfo,
                             const VkAllocationCallbacks *pAllocator,
                             VkDescriptorSetLayout *pSetLayout)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_set_layout_info *s = set_info_copy(&device->base.alloc, pCreateInfo);
   if (!s)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "vkCreateDescriptorSetLayout: no memory to record the layout");
   VkResult result;
   if (s->has_tensors) {
      /* The same layout with compute added to the tensor bindings' stages. */
      VkDescriptorSetLayoutCreateInfo info = *pCreateInfo;
      info.pBindings = s->bindings;
      result = device->base.next.CreateDescriptorSetLayout(_device, &info, pAllocator, pSetLayout);
   } else {
      result =
         device->base.next.CreateDescriptorSetLayout(_device, pCreateInfo, pAllocator, pSetLayout);
   }
   if (result != VK_SUCCESS) {
      lyr_free(&device->base.alloc, s);
      return result;
   }
   if (!lyr_map_insert(&device->set_layouts, (const void *)(uintptr_t)*pSetLayout, s)) {
      device->base.next.DestroyDescriptorSetLayout(_device, *pSetLayout, pAllocator);
      *pSetLayout = VK_NULL_HANDLE;
      lyr_free(&device->base.alloc, s);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                       "vkCreateDescriptorSetLayout: no memory to record the layout");
   }
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyDescriptorSetLayout(VkDevice _device, VkDescriptorSetLayout layout,
                              const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   if (layout == VK_NULL_HANDLE)
      return;
   lyr_free(&device->base.alloc,
            lyr_map_remove(&device->set_layouts, (const void *)(uintptr_t)layout));
   device->base.next.DestroyDescriptorSetLayout(_device, layout, pAllocator);
}

static void
pipeline_layout_info_free(struct dg_device *device, struct dg_pipeline_layout_info *p)
{
   if (!p)
      return;
   for (uint32_t i = 0; i < p->set_count; i++)
      lyr_free(&device->base.alloc, p->sets[i]);
   lyr_free(&device->base.alloc, p);
}

/* Copies a recorded set layout (the pipeline layout outlives the set layout). */
static struct dg_set_layout_info *
set_info_dup(struct dg_device *device, VkDescriptorSetLayout handle)
{
   const struct dg_set_layout_info *s =
      lyr_map_lookup(&device->set_layouts, (const void *)(uintptr_t)handle);
   if (!s)
      return NULL;
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf;
   VkDescriptorSetLayoutCreateInfo info;
   set_info_create_info(s, &bf, &info);
   return set_info_copy(&device->base.alloc, &info);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreatePipelineLayout(VkDevice _device, const VkPipelineLayoutCreateInfo *pCreateInfo,
                        const VkAllocationCallbacks *pAllocator, VkPipelineLayout *pLayout)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_pipeline_layout_info *p = lyr_zalloc(
      &device->base.alloc, sizeof(*p) + pCreateInfo->setLayoutCount * sizeof(p->sets[0]), 8,
      VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!p)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   p->sets = (struct dg_set_layout_info **)(p + 1);
   p->set_count = pCreateInfo->setLayoutCount;
   p->push_range_count = pCreateInfo->pushConstantRangeCount;
   for (uint32_t i = 0; i < p->set_count; i++) {
      if (pCreateInfo->pSetLayouts[i] == VK_NULL_HANDLE)
         continue;
      p->sets[i] = set_info_dup(device, pCreateInfo->pSetLayouts[i]);
      if (!p->sets[i]) {
         pipeline_layout_info_free(device, p);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
   }
   VkResult result =
      device->base.next.CreatePipelineLayout(_device, pCreateInfo, pAllocator, pLayout);
   if (result == VK_SUCCESS &&
       !lyr_map_insert(&device->pipeline_layouts, (const void *)(uintptr_t)*pLayout, p)) {
      device->base.next.DestroyPipelineLayout(_device, *pLayout, pAllocator);
      result = VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   if (result != VK_SUCCESS)
      pipeline_layout_info_free(device, p);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyPipelineLayout(VkDevice _device, VkPipelineLayout layout,
                         const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   if (layout == VK_NULL_HANDLE)
      return;
   pipeline_layout_info_free(
      device, lyr_map_remove(&device->pipeline_layouts, (const void *)(uintptr_t)layout));
   device->base.next.DestroyPipelineLayout(_device, layout, pAllocator);
}

const struct dg_pipeline_layout_info *
dg_pipeline_layout_info_get(struct dg_device *device, VkPipelineLayout layout)
{
   return lyr_map_lookup(&device->pipeline_layouts, (const void *)(uintptr_t)layout);
}

uint32_t
dg_pipeline_layout_set_count(const struct dg_pipeline_layout_info *p)
{
   return p->set_count;
}

bool
dg_pipeline_layout_has_push_constants(const struct dg_pipeline_layout_info *p)
{
   return p->push_range_count != 0;
}

const struct dg_set_layout_info *
dg_pipeline_layout_set(const struct dg_pipeline_layout_info *p, uint32_t set)
{
   return set < p->set_count ? p->sets[set] : NULL;
}

const VkDescriptorSetLayoutBinding *
dg_set_layout_bindings(const struct dg_set_layout_info *s, uint32_t *count,
                       VkDescriptorSetLayoutCreateFlags *flags)
{
   *count = s ? s->binding_count : 0;
   *flags = s ? s->flags : 0;
   return s ? s->bindings : NULL;
}

bool
dg_set_layout_binding(const struct dg_set_layout_info *s, uint32_t binding,
                      VkDescriptorType *type, uint32_t *count)
{
   for (uint32_t i = 0; s && i < s->binding_count; i++) {
      if (s->bindings[i].binding == binding) {
         *type = s->bindings[i].descriptorType;
         *count = s->bindings[i].descriptorCount;
         return true;
      }
   }
   return false;
}

static void
free_set_info(const void *key, void *value, void *user)
{
   struct dg_device *device = user;
   lyr_free(&device->base.alloc, value);
}

static void
free_pipeline_layout_info(const void *key, void *value, void *user)
{
   pipeline_layout_info_free(user, value);
}

void
dg_layout_init(struct dg_device *device)
{
   lyr_map_init(&device->set_layouts);
   lyr_map_init(&device->pipeline_layouts);
}

void
dg_layout_finish(struct dg_device *device)
{
   lyr_map_foreach(&device->set_layouts, free_set_info, device);
   lyr_map_foreach(&device->pipeline_layouts, free_pipeline_layout_info, device);
   lyr_map_finish(&device->set_layouts);
   lyr_map_finish(&device->pipeline_layouts);
}

static const struct lyr_hook hooks[] = {
   DG_HOOK(CreateDescriptorSetLayout, dg_CreateDescriptorSetLayout),
   DG_HOOK(DestroyDescriptorSetLayout, dg_DestroyDescriptorSetLayout),
   DG_HOOK(CreatePipelineLayout, dg_CreatePipelineLayout),
   DG_HOOK(DestroyPipelineLayout, dg_DestroyPipelineLayout),
};

const struct lyr_hook_table dg_layout_hooks = LYR_HOOK_TABLE(hooks);
