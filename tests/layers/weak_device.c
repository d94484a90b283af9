/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_LAYER_VMEL_test_weak_device: a test-only layer that makes the device
 * below look unable to host the emulation, so tests can check that our layers
 * say so. VMEL_TEST_WEAK=no_bda hides bufferDeviceAddress; VMEL_TEST_WEAK=api12
 * reports Vulkan 1.2; VMEL_TEST_WEAK=no_graphics_stores hides
 * vertexPipelineStoresAndAtomics and fragmentStoresAndAtomics (no tensors in
 * vertex and fragment shaders).
 */
#include <stdlib.h>

#include "lyr_layer.h"
#include "test_layer.h"


static bool
weak(const char *mode)
{
   const char *env = getenv("VMEL_TEST_WEAK");
   return env && strcmp(env, mode) == 0;
}

static void
hide_graphics_stores(VkPhysicalDeviceFeatures *features)
{
   if (weak("no_graphics_stores")) {
      features->vertexPipelineStoresAndAtomics = VK_FALSE;
      features->fragmentStoresAndAtomics = VK_FALSE;
   }
}

static VKAPI_ATTR void VKAPI_CALL
weak_GetPhysicalDeviceFeatures(VkPhysicalDevice pd, VkPhysicalDeviceFeatures *features)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   instance->next.GetPhysicalDeviceFeatures(pd, features);
   hide_graphics_stores(features);
}

static VKAPI_ATTR void VKAPI_CALL
weak_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2 *features)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   instance->next.GetPhysicalDeviceFeatures2(pd, features);
   hide_graphics_stores(&features->features);
   if (!weak("no_bda"))
      return;
   VkPhysicalDeviceVulkan12Features *f12 = (VkPhysicalDeviceVulkan12Features *)lyr_find_struct(
      features->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
   if (f12)
      f12->bufferDeviceAddress = VK_FALSE;
   VkPhysicalDeviceBufferDeviceAddressFeatures *bda =
      (VkPhysicalDeviceBufferDeviceAddressFeatures *)lyr_find_struct(
         features->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES);
   if (bda)
      bda->bufferDeviceAddress = VK_FALSE;
}

static VKAPI_ATTR void VKAPI_CALL
weak_GetPhysicalDeviceProperties(VkPhysicalDevice pd, VkPhysicalDeviceProperties *props)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   instance->next.GetPhysicalDeviceProperties(pd, props);
   if (weak("api12"))
      props->apiVersion = VK_API_VERSION_1_2;
}

static VKAPI_ATTR void VKAPI_CALL
weak_GetPhysicalDeviceProperties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *props)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   instance->next.GetPhysicalDeviceProperties2(pd, props);
   if (weak("api12"))
      props->properties.apiVersion = VK_API_VERSION_1_2;
}

static VKAPI_ATTR VkResult VKAPI_CALL
weak_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                  const VkAllocationCallbacks *alloc, VkDevice *pDevice)
{
   struct lyr_device *device;
   return lyr_device_create(pd, info, alloc, pDevice, sizeof(*device), &device);
}

static VKAPI_ATTR void VKAPI_CALL
weak_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
   lyr_device_destroy(device, alloc);
}


static const struct lyr_hook weak_instance_hooks[] = {
   TEST_LAYER_INSTANCE_HOOKS,
   HOOK(CreateDevice, weak_CreateDevice),
   HOOK(GetPhysicalDeviceFeatures, weak_GetPhysicalDeviceFeatures),
   HOOK(GetPhysicalDeviceFeatures2, weak_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, weak_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceProperties, weak_GetPhysicalDeviceProperties),
   HOOK(GetPhysicalDeviceProperties2, weak_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceProperties2KHR, weak_GetPhysicalDeviceProperties2),
};
static const struct lyr_hook weak_device_hooks[] = {
   HOOK(DestroyDevice, weak_DestroyDevice),
};
static const struct lyr_hook_table weak_instance_table = LYR_HOOK_TABLE(weak_instance_hooks);
static const struct lyr_hook_table *const weak_instance_tables[] = {&weak_instance_table};

const struct lyr_hooks lyr_layer_hooks = {
   .instance = weak_instance_tables,
   .instance_count = LYR_ARRAY_SIZE(weak_instance_tables),
   .device_always = LYR_HOOK_TABLE(weak_device_hooks),
};
