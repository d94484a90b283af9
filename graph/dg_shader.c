/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Shader modules that declare the GraphARM capability hold SPIR-V graphs for
 * vkCreateDataGraphPipelinesARM: the layer keeps a copy of their words and
 * never sends them to the driver (which does not know SPV_ARM_graph). Every
 * other module passes through. The handle of a graph module is a pointer to
 * our struct; a per-device map tells ours from the driver's.
 */
#include "dg_private.h"

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"

void
dg_shader_init(struct dg_device *device)
{
   lyr_map_init(&device->shader_modules);
}

static void
module_free(struct dg_device *device, struct dg_shader_module *m,
            const VkAllocationCallbacks *alloc)
{
   lyr_free(alloc, m->words);
   lyr_free(alloc, m);
}

static void
free_leftover(const void *key, void *value, void *user)
{
   struct dg_device *device = user;
   module_free(device, value, &device->base.alloc);
}

void
dg_shader_finish(struct dg_device *device)
{
   /* Modules the application did not destroy go with the device. */
   lyr_map_foreach(&device->shader_modules, free_leftover, device);
   lyr_map_finish(&device->shader_modules);
}

struct dg_shader_module *
dg_shader_module_get(struct dg_device *device, VkShaderModule handle)
{
   if (handle == VK_NULL_HANDLE)
      return NULL;
   return lyr_map_lookup(&device->shader_modules, (const void *)(uintptr_t)handle);
}

static VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateShaderModule(VkDevice _device, const VkShaderModuleCreateInfo *pCreateInfo,
                      const VkAllocationCallbacks *pAllocator, VkShaderModule *pShaderModule)
{
   struct dg_device *device = dg_device_get(_device);
   size_t count = pCreateInfo->codeSize / 4;
   if (!spirv_declares_capability(pCreateInfo->pCode, count, SPV_ARM_CAP_GRAPH))
      return device->base.next.CreateShaderModule(_device, pCreateInfo, pAllocator, pShaderModule);

   /* Graphs are decoded (and rejected if invalid) at pipeline creation, where
    * the entry point, resources and constants are known. */
   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   struct dg_shader_module *m =
      lyr_zalloc(alloc, sizeof(*m), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!m)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   m->words = lyr_alloc(alloc, count > 0 ? count * 4 : 4, 4, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!m->words) {
      lyr_free(alloc, m);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   memcpy(m->words, pCreateInfo->pCode, count * 4);
   m->word_count = count;
   if (!lyr_map_insert(&device->shader_modules, m, m)) {
      module_free(device, m, alloc);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   *pShaderModule = (VkShaderModule)(uintptr_t)m;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
dg_DestroyShaderModule(VkDevice _device, VkShaderModule shaderModule,
                       const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   struct dg_shader_module *m =
      lyr_map_remove(&device->shader_modules, (const void *)(uintptr_t)shaderModule);
   if (!m) {
      device->base.next.DestroyShaderModule(_device, shaderModule, pAllocator);
      return;
   }
   module_free(device, m, lyr_pick_alloc(&device->base.alloc, pAllocator));
}

static const struct lyr_hook hooks[] = {
   DG_HOOK(CreateShaderModule, dg_CreateShaderModule),
   DG_HOOK(DestroyShaderModule, dg_DestroyShaderModule),
};

const struct lyr_hook_table dg_shader_hooks = LYR_HOOK_TABLE(hooks);
