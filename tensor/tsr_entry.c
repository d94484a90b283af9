/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The tensor layer's loader interface: its hook tables and the exported
 * entry points (negotiation and the GetProcAddr functions). Nothing else in
 * libVkLayer_Tensor.so is exported.
 */
#include "tsr_private.h"

#define HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                          const char *pName);
LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                        const char *pName);

static const struct lyr_hook tsr_instance_hooks[] = {
   HOOK(GetInstanceProcAddr, vkGetInstanceProcAddr),
   HOOK(CreateInstance, tsr_CreateInstance),
   HOOK(DestroyInstance, tsr_DestroyInstance),
   HOOK(CreateDevice, tsr_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, tsr_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceToolProperties, tsr_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceToolPropertiesEXT, tsr_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceFeatures2, tsr_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, tsr_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceProperties2, tsr_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceProperties2KHR, tsr_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2, tsr_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2KHR, tsr_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceExternalTensorPropertiesARM,
        tsr_GetPhysicalDeviceExternalTensorPropertiesARM),
};

static const struct lyr_hook tsr_device_hooks_always[] = {
   HOOK(GetDeviceProcAddr, vkGetDeviceProcAddr),
   HOOK(DestroyDevice, tsr_DestroyDevice),
};

#undef HOOK

/* Device hooks answered only on devices that emulate VK_ARM_tensors, one
 * table per area (each defined in the area's file). */
static const struct lyr_hook_table *const tsr_device_tables[] = {
   &tsr_tensor_hooks,
   &tsr_view_hooks,
   &tsr_memory_hooks,
   &tsr_descriptor_hooks,
   &tsr_barrier_hooks,
   &tsr_copy_hooks,
   &tsr_image_hooks,
};

static const struct lyr_hooks tsr_hooks = {
   .instance = LYR_HOOK_TABLE(tsr_instance_hooks),
   .device_always = LYR_HOOK_TABLE(tsr_device_hooks_always),
   .device_emulated = tsr_device_tables,
   .device_emulated_count = LYR_ARRAY_SIZE(tsr_device_tables),
};

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
tsr_GetPhysicalDeviceProcAddr(VkInstance instance, const char *pName)
{
   return lyr_get_physical_device_proc_addr(&tsr_hooks, instance, pName);
}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance instance, const char *pName)
{
   return lyr_get_instance_proc_addr(&tsr_hooks, instance, pName);
}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetDeviceProcAddr(VkDevice device, const char *pName)
{
   return lyr_get_device_proc_addr(&tsr_hooks, device, pName);
}

LYR_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct)
{
   return lyr_negotiate(pVersionStruct, vkGetInstanceProcAddr, vkGetDeviceProcAddr,
                        tsr_GetPhysicalDeviceProcAddr);
}
