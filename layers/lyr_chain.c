/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The loader side of a layer: link-info walking, interface negotiation,
 * loading the next layer's functions, hook lookup, and the enumeration
 * answers (device extensions, tool properties) both layers give the same way.
 * pNext cloning lives in lyr_pnext.c.
 */
#include "lyr.h"

#include <stdio.h>
#include <string.h>

VkLayerInstanceCreateInfo *
lyr_instance_link_info(const VkInstanceCreateInfo *info)
{
   /* The loader's own struct in the chain; advancing its pLayerInfo is the
    * loader protocol ("LayerInterface", Layer Instance Creation). */
   const VkBaseInStructure *s = info->pNext;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      VkLayerInstanceCreateInfo *l = (VkLayerInstanceCreateInfo *)s;
      if (s->sType == VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO &&
          l->function == VK_LAYER_LINK_INFO)
         return l;
   }
   return NULL;
}

VkLayerDeviceCreateInfo *
lyr_device_link_info(const VkDeviceCreateInfo *info)
{
   const VkBaseInStructure *s = info->pNext;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      VkLayerDeviceCreateInfo *l = (VkLayerDeviceCreateInfo *)s;
      if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO &&
          l->function == VK_LAYER_LINK_INFO)
         return l;
   }
   return NULL;
}

PFN_vkSetDeviceLoaderData
lyr_device_loader_data_cb(const VkDeviceCreateInfo *info)
{
   const VkBaseInStructure *s = info->pNext;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      const VkLayerDeviceCreateInfo *l = (const VkLayerDeviceCreateInfo *)s;
      if (s->sType == VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO &&
          l->function == VK_LOADER_DATA_CALLBACK)
         return l->u.pfnSetDeviceLoaderData;
   }
   return NULL;
}

VkResult
lyr_negotiate(VkNegotiateLayerInterface *version, PFN_vkGetInstanceProcAddr gipa,
              PFN_vkGetDeviceProcAddr gdpa, PFN_GetPhysicalDeviceProcAddr gpdpa)
{
   if (!version || version->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
      return VK_ERROR_INITIALIZATION_FAILED;
   if (version->loaderLayerInterfaceVersion < 2) {
      lyr_loge("loader offers layer interface version %u; version 2 is required",
               version->loaderLayerInterfaceVersion);
      return VK_ERROR_INITIALIZATION_FAILED;
   }
   version->loaderLayerInterfaceVersion = 2;
   version->pfnGetInstanceProcAddr = gipa;
   version->pfnGetDeviceProcAddr = gdpa;
   version->pfnGetPhysicalDeviceProcAddr = gpdpa;
   return VK_SUCCESS;
}

void
lyr_instance_next_load(struct lyr_instance_next *next, VkInstance instance,
                       PFN_vkGetInstanceProcAddr gipa, PFN_GetPhysicalDeviceProcAddr gpdpa)
{
   next->GetInstanceProcAddr = gipa;
   next->GetPhysicalDeviceProcAddr = gpdpa;
#define LOAD(name) next->name = (PFN_vk##name)gipa(instance, "vk" #name);
   LYR_INSTANCE_NEXT(LOAD)
#undef LOAD
   /* Physical-device functions the loader does not know come through the
    * next layer's vk_layerGetPhysicalDeviceProcAddr. */
#define LOAD_PHYS(name)                                                                            \
   next->name = gpdpa ? (PFN_vk##name)gpdpa(instance, "vk" #name) : NULL;                          \
   if (!next->name)                                                                                \
      next->name = (PFN_vk##name)gipa(instance, "vk" #name);
   LYR_INSTANCE_NEXT_ARM(LOAD_PHYS)
#undef LOAD_PHYS
}

void
lyr_device_next_load(struct lyr_device_next *next, VkDevice device, PFN_vkGetDeviceProcAddr gdpa)
{
   next->GetDeviceProcAddr = gdpa;
#define LOAD(name) next->name = (PFN_vk##name)gdpa(device, "vk" #name);
   LYR_DEVICE_NEXT(LOAD)
   LYR_DEVICE_NEXT_ARM(LOAD)
   LYR_DEVICE_NEXT_DESCRIPTOR_BUFFER(LOAD)
   LYR_DEVICE_NEXT_PIPELINE_EXECUTABLE(LOAD)
#undef LOAD
}

PFN_vkVoidFunction
lyr_hook_find(const struct lyr_hook *hooks, size_t count, const char *name)
{
   if (!name)
      return NULL;
   for (size_t i = 0; i < count; i++) {
      if (strcmp(hooks[i].name, name) == 0)
         return hooks[i].fn;
   }
   return NULL;
}

VkResult
lyr_enumerate_fixed(const void *items, uint32_t item_count, size_t item_size, uint32_t *pCount,
                    void *pOut)
{
   if (!pOut) {
      *pCount = item_count;
      return VK_SUCCESS;
   }
   uint32_t n = *pCount < item_count ? *pCount : item_count;
   if (n)
      memcpy(pOut, items, n * item_size);
   *pCount = n;
   return n < item_count ? VK_INCOMPLETE : VK_SUCCESS;
}

bool
lyr_name_in_list(const char *name, const char *const *names, uint32_t count)
{
   for (uint32_t i = 0; i < count; i++) {
      if (names[i] && strcmp(names[i], name) == 0)
         return true;
   }
   return false;
}

/* Reads everything the layers below report into a fresh array. */
static VkResult
extensions_below(PFN_vkEnumerateDeviceExtensionProperties next, VkPhysicalDevice physical_device,
                 const VkAllocationCallbacks *alloc, VkExtensionProperties **out, uint32_t *count)
{
   VkResult result;
   *out = NULL;
   do {
      lyr_free(alloc, *out);
      *out = NULL;
      uint32_t n = 0;
      result = next(physical_device, NULL, &n, NULL);
      if (result != VK_SUCCESS)
         return result;
      *out = lyr_alloc(alloc, (n ? n : 1) * sizeof(**out), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!*out)
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      *count = n;
      result = next(physical_device, NULL, count, *out);
   } while (result == VK_INCOMPLETE);
   if (result != VK_SUCCESS) {
      lyr_free(alloc, *out);
      *out = NULL;
   }
   return result;
}

static bool
extension_in(const VkExtensionProperties *list, uint32_t count, const char *name)
{
   for (uint32_t i = 0; i < count; i++) {
      if (strcmp(list[i].extensionName, name) == 0)
         return true;
   }
   return false;
}

VkResult
lyr_enumerate_device_extensions_appended(PFN_vkEnumerateDeviceExtensionProperties next,
                                         VkPhysicalDevice physical_device,
                                         const VkExtensionProperties *ours, uint32_t our_count,
                                         const VkAllocationCallbacks *alloc, uint32_t *pCount,
                                         VkExtensionProperties *pProperties)
{
   VkExtensionProperties *below;
   uint32_t below_count;
   VkResult result = extensions_below(next, physical_device, alloc, &below, &below_count);
   if (result != VK_SUCCESS)
      return result;

   uint32_t total = below_count;
   for (uint32_t i = 0; i < our_count; i++)
      total += !extension_in(below, below_count, ours[i].extensionName);

   if (!pProperties) {
      *pCount = total;
      lyr_free(alloc, below);
      return VK_SUCCESS;
   }
   uint32_t n = 0;
   for (uint32_t i = 0; i < below_count && n < *pCount; i++)
      pProperties[n++] = below[i];
   for (uint32_t i = 0; i < our_count && n < *pCount; i++) {
      if (!extension_in(below, below_count, ours[i].extensionName))
         pProperties[n++] = ours[i];
   }
   lyr_free(alloc, below);
   *pCount = n;
   return n < total ? VK_INCOMPLETE : VK_SUCCESS;
}

bool
lyr_device_extension_below(PFN_vkEnumerateDeviceExtensionProperties next,
                           VkPhysicalDevice physical_device, const char *name,
                           const VkAllocationCallbacks *alloc)
{
   VkExtensionProperties *below;
   uint32_t below_count;
   if (extensions_below(next, physical_device, alloc, &below, &below_count) != VK_SUCCESS)
      return false;
   bool found = extension_in(below, below_count, name);
   lyr_free(alloc, below);
   return found;
}

VkResult
lyr_tool_properties_prepend(PFN_vkGetPhysicalDeviceToolProperties next,
                            VkPhysicalDevice physical_device,
                            const VkPhysicalDeviceToolProperties *ours, uint32_t *pToolCount,
                            VkPhysicalDeviceToolProperties *pToolProperties)
{
   if (!pToolProperties) {
      uint32_t below = 0;
      VkResult result = next ? next(physical_device, &below, NULL) : VK_SUCCESS;
      *pToolCount = below + 1;
      return result;
   }
   if (*pToolCount == 0)
      return VK_INCOMPLETE;
   VkPhysicalDeviceToolProperties *out = &pToolProperties[0];
   void *pnext = out->pNext; /* the application's chain stays as it was */
   *out = *ours;
   out->pNext = pnext;
   if (*pToolCount == 1) {
      /* Room for ours only: report whether more exist below. */
      uint32_t more = 0;
      if (next)
         next(physical_device, &more, NULL);
      return more ? VK_INCOMPLETE : VK_SUCCESS;
   }
   uint32_t below = *pToolCount - 1;
   VkResult result = VK_SUCCESS;
   if (next)
      result = next(physical_device, &below, pToolProperties + 1);
   else
      below = 0;
   *pToolCount = below + 1;
   return result;
}

void
lyr_copy_name(char *dst, size_t dst_size, const char *src)
{
   snprintf(dst, dst_size, "%s", src);
}
