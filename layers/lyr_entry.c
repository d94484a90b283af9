/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The exported loader entry points, compiled into each layer library (see
 * cmake/Layer.cmake): negotiation and the GetProcAddr functions, answering
 * from the hook tables the layer defines as lyr_layer_hooks. These are the
 * only symbols a layer exports.
 */
#include "lyr.h"

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetInstanceProcAddr(VkInstance instance,
                                                                          const char *pName);
LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL vkGetDeviceProcAddr(VkDevice device,
                                                                        const char *pName);
LYR_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct);

static VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
lyr_GetPhysicalDeviceProcAddr(VkInstance instance, const char *pName)
{
   return lyr_get_physical_device_proc_addr(&lyr_layer_hooks, instance, pName);
}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance instance, const char *pName)
{
   /* Our own GetProcAddr functions, so the chain keeps going through us. */
   if (pName && strcmp(pName, "vkGetInstanceProcAddr") == 0)
      return (PFN_vkVoidFunction)vkGetInstanceProcAddr;
   if (pName && strcmp(pName, "vkGetDeviceProcAddr") == 0)
      return (PFN_vkVoidFunction)vkGetDeviceProcAddr;
   return lyr_get_instance_proc_addr(&lyr_layer_hooks, instance, pName);
}

LYR_EXPORT VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetDeviceProcAddr(VkDevice device, const char *pName)
{
   if (pName && strcmp(pName, "vkGetDeviceProcAddr") == 0)
      return (PFN_vkVoidFunction)vkGetDeviceProcAddr;
   return lyr_get_device_proc_addr(&lyr_layer_hooks, device, pName);
}

LYR_EXPORT VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface *pVersionStruct)
{
   return lyr_negotiate(pVersionStruct, vkGetInstanceProcAddr, vkGetDeviceProcAddr,
                        lyr_GetPhysicalDeviceProcAddr);
}
