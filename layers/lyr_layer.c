/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Instance and device creation and lookup shared by both layers: the link-info
 * protocol, the next-layer function tables and the dispatch-key maps. What a
 * layer adds to creation (feature checks, chain rewriting) lives in that
 * layer's tsr_device.c / dg_device.c.
 */
#include "lyr_layer.h"

#include <stdalign.h>

static struct lyr_map instance_map;
static struct lyr_map device_map;
static pthread_once_t maps_once = PTHREAD_ONCE_INIT;

static void
maps_init(void)
{
   lyr_map_init(&instance_map);
   lyr_map_init(&device_map);
}

VkResult
lyr_instance_create(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                    VkInstance *pInstance, size_t struct_size, struct lyr_instance **out)
{
   pthread_once(&maps_once, maps_init);

   VkLayerInstanceCreateInfo *link = lyr_instance_link_info(info);
   if (!link || !link->u.pLayerInfo)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateInstance: no loader link info");
   PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   PFN_GetPhysicalDeviceProcAddr gpdpa = link->u.pLayerInfo->pfnNextGetPhysicalDeviceProcAddr;
   PFN_vkCreateInstance create = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
   if (!create)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateInstance not found below");

   const VkAllocationCallbacks *a = alloc ? alloc : &lyr_default_alloc;
   struct lyr_instance *instance =
      lyr_zalloc(a, struct_size, alignof(max_align_t), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
   if (!instance)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   instance->alloc = *a;
   instance->api_version = info->pApplicationInfo && info->pApplicationInfo->apiVersion
                              ? info->pApplicationInfo->apiVersion
                              : VK_API_VERSION_1_0;

   /* Loader protocol: advance the loader's link element for the next layer. */
   link->u.pLayerInfo = link->u.pLayerInfo->pNext;
   VkResult result = create(info, alloc, pInstance);
   if (result != VK_SUCCESS) {
      lyr_free(a, instance);
      return result;
   }
   instance->handle = *pInstance;
   lyr_instance_next_load(&instance->next, *pInstance, gipa, gpdpa);
   if (!lyr_map_insert(&instance_map, lyr_dispatch_key(*pInstance), instance)) {
      instance->next.DestroyInstance(*pInstance, alloc);
      lyr_free(a, instance);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   *out = instance;
   return VK_SUCCESS;
}

struct lyr_instance *
lyr_instance_get(const void *instance_or_physical_device)
{
   pthread_once(&maps_once, maps_init);
   if (!instance_or_physical_device)
      return NULL;
   return lyr_map_lookup(&instance_map, lyr_dispatch_key(instance_or_physical_device));
}

void
lyr_instance_destroy(VkInstance handle, const VkAllocationCallbacks *alloc)
{
   if (!handle)
      return;
   struct lyr_instance *instance = lyr_map_remove(&instance_map, lyr_dispatch_key(handle));
   if (!instance)
      return;
   instance->next.DestroyInstance(handle, alloc);
   VkAllocationCallbacks a = instance->alloc;
   lyr_free(&a, instance);
}

VkResult
lyr_device_create(VkPhysicalDevice physical_device, const VkDeviceCreateInfo *info,
                  const VkAllocationCallbacks *alloc, VkDevice *pDevice, size_t struct_size,
                  struct lyr_device **out)
{
   struct lyr_instance *instance = lyr_instance_get(physical_device);
   VkLayerDeviceCreateInfo *link = lyr_device_link_info(info);
   if (!instance || !link || !link->u.pLayerInfo)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: no loader link info");
   PFN_vkGetInstanceProcAddr gipa = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
   PFN_vkGetDeviceProcAddr gdpa = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
   PFN_vkCreateDevice create = (PFN_vkCreateDevice)gipa(instance->handle, "vkCreateDevice");
   if (!create)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice not found below");

   const VkAllocationCallbacks *a = alloc ? alloc : &instance->alloc;
   struct lyr_device *device =
      lyr_zalloc(a, struct_size, alignof(max_align_t), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!device)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   device->alloc = *a;
   device->instance = instance;
   device->physical_device = physical_device;
   device->set_loader_data = lyr_device_loader_data_cb(info);

   link->u.pLayerInfo = link->u.pLayerInfo->pNext;
   VkResult result = create(physical_device, info, alloc, pDevice);
   if (result != VK_SUCCESS) {
      lyr_free(a, device);
      return result;
   }
   device->handle = *pDevice;
   lyr_device_next_load(&device->next, *pDevice, gdpa);
   if (!lyr_map_insert(&device_map, lyr_dispatch_key(*pDevice), device)) {
      device->next.DestroyDevice(*pDevice, alloc);
      lyr_free(a, device);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   *out = device;
   return VK_SUCCESS;
}

struct lyr_device *
lyr_device_get(const void *dispatchable)
{
   pthread_once(&maps_once, maps_init);
   if (!dispatchable)
      return NULL;
   return lyr_map_lookup(&device_map, lyr_dispatch_key(dispatchable));
}

void
lyr_device_destroy(VkDevice handle, const VkAllocationCallbacks *alloc)
{
   if (!handle)
      return;
   struct lyr_device *device = lyr_map_remove(&device_map, lyr_dispatch_key(handle));
   if (!device)
      return;
   device->next.DestroyDevice(handle, alloc);
   VkAllocationCallbacks a = device->alloc;
   lyr_free(&a, device);
}

uint32_t
lyr_physical_device_api_version(struct lyr_instance *instance, VkPhysicalDevice physical_device)
{
   VkPhysicalDeviceProperties props;
   instance->next.GetPhysicalDeviceProperties(physical_device, &props);
   return props.apiVersion;
}

static PFN_vkVoidFunction
find_in_tables(const struct lyr_hook_table *const *tables, size_t count, const char *name)
{
   for (size_t t = 0; t < count; t++) {
      PFN_vkVoidFunction fn = lyr_hook_find(tables[t]->hooks, tables[t]->count, name);
      if (fn)
         return fn;
   }
   return NULL;
}

static PFN_vkVoidFunction
find_emulated(const struct lyr_hooks *hooks, const char *name)
{
   return find_in_tables(hooks->device_emulated, hooks->device_emulated_count, name);
}

static PFN_vkVoidFunction
find_instance(const struct lyr_hooks *hooks, const char *name)
{
   return find_in_tables(hooks->instance, hooks->instance_count, name);
}

PFN_vkVoidFunction
lyr_get_device_proc_addr(const struct lyr_hooks *hooks, VkDevice device, const char *name)
{
   PFN_vkVoidFunction fn =
      lyr_hook_find(hooks->device_always.hooks, hooks->device_always.count, name);
   if (fn)
      return fn;
   struct lyr_device *dev = lyr_device_get(device);
   if (!dev)
      return NULL;
   PFN_vkVoidFunction below = dev->next.GetDeviceProcAddr(device, name);
   if (dev->emulating) {
      /* A command of the ARM extensions we implement is ours to give; any
       * other hooked command only where the device below offers it (a
       * KHR command of an extension the application did not enable is NULL). */
      fn = find_emulated(hooks, name);
      size_t len = strlen(name);
      bool arm = len > 3 && strcmp(name + len - 3, "ARM") == 0;
      if (fn && hooks->device_command_hidden && hooks->device_command_hidden(dev, name))
         return below;
      if (fn && (arm || below))
         return fn;
   }
   return below;
}

PFN_vkVoidFunction
lyr_get_instance_proc_addr(const struct lyr_hooks *hooks, VkInstance instance, const char *name)
{
   PFN_vkVoidFunction fn = find_instance(hooks, name);
   if (!fn)
      fn = lyr_hook_find(hooks->device_always.hooks, hooks->device_always.count, name);
   if (!fn)
      fn = find_emulated(hooks, name);
   if (fn)
      return fn;
   struct lyr_instance *inst = lyr_instance_get(instance);
   return inst ? inst->next.GetInstanceProcAddr(instance, name) : NULL;
}

PFN_vkVoidFunction
lyr_get_physical_device_proc_addr(const struct lyr_hooks *hooks, VkInstance instance,
                                  const char *name)
{
   PFN_vkVoidFunction fn = find_instance(hooks, name);
   if (fn)
      return fn;
   struct lyr_instance *inst = lyr_instance_get(instance);
   if (!inst || !inst->next.GetPhysicalDeviceProcAddr)
      return NULL;
   return inst->next.GetPhysicalDeviceProcAddr(instance, name);
}

VkResult
lyr_layer_device_extensions(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                            const char *pLayerName, const char *own_name,
                            const VkExtensionProperties *ours, uint32_t our_count, bool offer,
                            uint32_t *pCount, VkExtensionProperties *pProperties)
{
   if (pLayerName && strcmp(pLayerName, own_name) == 0)
      return lyr_enumerate_fixed(ours, our_count, sizeof(*ours), pCount, pProperties);
   if (pLayerName)
      return instance->next.EnumerateDeviceExtensionProperties(physical_device, pLayerName,
                                                               pCount, pProperties);
   return lyr_enumerate_device_extensions_appended(
      instance->next.EnumerateDeviceExtensionProperties, physical_device, ours,
      offer ? our_count : 0, &instance->alloc, pCount, pProperties);
}

void
lyr_next_features2(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                   VkPhysicalDeviceFeatures2 *features, lyr_drop_fn drop)
{
   struct lyr_out_chain oc;
   if (lyr_out_chain_begin(&oc, &instance->alloc, features, sizeof(*features), drop, NULL) !=
       VK_SUCCESS) {
      lyr_loge("vkGetPhysicalDeviceFeatures2: not passed down (the line above says why)");
      return;
   }
   instance->next.GetPhysicalDeviceFeatures2(physical_device, oc.head);
   lyr_out_chain_end(&oc);
}

void
lyr_next_properties2(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                     VkPhysicalDeviceProperties2 *properties, lyr_drop_fn drop)
{
   struct lyr_out_chain oc;
   if (lyr_out_chain_begin(&oc, &instance->alloc, properties, sizeof(*properties), drop, NULL) !=
       VK_SUCCESS) {
      lyr_loge("vkGetPhysicalDeviceProperties2: not passed down (the line above says why)");
      return;
   }
   instance->next.GetPhysicalDeviceProperties2(physical_device, oc.head);
   lyr_out_chain_end(&oc);
}

void
lyr_next_format_properties2(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                            VkFormat format, VkFormatProperties2 *properties, lyr_drop_fn drop)
{
   struct lyr_out_chain oc;
   if (lyr_out_chain_begin(&oc, &instance->alloc, properties, sizeof(*properties), drop, NULL) !=
       VK_SUCCESS) {
      lyr_loge("vkGetPhysicalDeviceFormatProperties2: not passed down (the line above says why)");
      return;
   }
   instance->next.GetPhysicalDeviceFormatProperties2(physical_device, format, oc.head);
   lyr_out_chain_end(&oc);
}

VkResult
lyr_create_compute_pipeline(struct lyr_device *device, const uint32_t *code, size_t word_count,
                            VkPipelineLayout layout, const VkSpecializationInfo *spec,
                            VkPipelineCache cache, VkPipeline *pipeline)
{
   return lyr_create_compute_pipeline_flags(device, code, word_count, layout, spec, cache, 0,
                                            pipeline);
}

VkResult
lyr_create_compute_pipeline_flags(struct lyr_device *device, const uint32_t *code,
                                  size_t word_count, VkPipelineLayout layout,
                                  const VkSpecializationInfo *spec, VkPipelineCache cache,
                                  VkPipelineCreateFlags flags, VkPipeline *pipeline)
{
   *pipeline = VK_NULL_HANDLE;
   VkShaderModuleCreateInfo mci = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = word_count * 4,
      .pCode = code,
   };
   VkShaderModule module;
   VkResult result = device->next.CreateShaderModule(device->handle, &mci, &device->alloc,
                                                     &module);
   if (result != VK_SUCCESS) {
      *pipeline = VK_NULL_HANDLE;
      return lyr_error(result, "a kernel's compute pipeline: the driver's vkCreateShaderModule "
                       "failed");
   }
   VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .flags = flags,
      .stage =
         {
            .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
            .stage = VK_SHADER_STAGE_COMPUTE_BIT,
            .module = module,
            .pName = "main",
            .pSpecializationInfo = spec,
         },
      .layout = layout,
   };
   result = device->next.CreateComputePipelines(device->handle, cache, 1, &cpci, &device->alloc,
                                                pipeline);
   device->next.DestroyShaderModule(device->handle, module, &device->alloc);
   if (result != VK_SUCCESS) {
      *pipeline = VK_NULL_HANDLE;
      lyr_error(result, "a kernel's compute pipeline: the driver's vkCreateComputePipelines "
                "failed");
   }
   return result;
}
