/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph layer's loader interface: its hook tables and the exported
 * entry points (negotiation and the GetProcAddr functions). Nothing else in
 * libVkLayer_Graph.so is exported.
 */
#include "dg_private.h"

#define HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                          const char *pName);
LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                        const char *pName);

static const struct lyr_hook dg_instance_hooks[] = {
   HOOK(GetInstanceProcAddr, vkGetInstanceProcAddr),
   HOOK(CreateInstance, dg_CreateInstance),
   HOOK(DestroyInstance, dg_DestroyInstance),
   HOOK(CreateDevice, dg_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, dg_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceToolProperties, dg_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceToolPropertiesEXT, dg_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceFeatures2, dg_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, dg_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceProperties2, dg_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceProperties2KHR, dg_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2, dg_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2KHR, dg_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceQueueFamilyProperties, dg_GetPhysicalDeviceQueueFamilyProperties),
   HOOK(GetPhysicalDeviceQueueFamilyProperties2, dg_GetPhysicalDeviceQueueFamilyProperties2),
   HOOK(GetPhysicalDeviceQueueFamilyProperties2KHR, dg_GetPhysicalDeviceQueueFamilyProperties2),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM),
};

static const struct lyr_hook dg_device_hooks_always[] = {
   HOOK(GetDeviceProcAddr, vkGetDeviceProcAddr),
   HOOK(DestroyDevice, dg_DestroyDevice),
};

#undef HOOK

static const struct lyr_hooks dg_hooks = {
   .instance = LYR_HOOK_TABLE(dg_instance_hooks),
   .device_always = LYR_HOOK_TABLE(dg_device_hooks_always),
};

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
dg_GetPhysicalDeviceProcAddr(VkInstance instance, const char *pName)
{
   return lyr_get_physical_device_proc_addr(&dg_hooks, instance, pName);
}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance instance, const char *pName)
{
   return lyr_get_instance_proc_addr(&dg_hooks, instance, pName);
}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetDeviceProcAddr(VkDevice device, const char *pName)
{
   return lyr_get_device_proc_addr(&dg_hooks, device, pName);
}

LYR_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct)
{
   return lyr_negotiate(pVersionStruct, vkGetInstanceProcAddr, vkGetDeviceProcAddr,
                        dg_GetPhysicalDeviceProcAddr);
}
