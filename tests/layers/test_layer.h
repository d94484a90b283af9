/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What every test-only layer of this folder shares: the hook-table entry macro and the
 * instance entry points of a layer whose instance is a plain lyr_instance (it keeps no state
 * of its own per instance). Include after lyr_layer.h, once per layer library.
 */
#ifndef VMEL_TEST_LAYER_H
#define VMEL_TEST_LAYER_H

#include <string.h>

#include "lyr_layer.h"

#define HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}

static VKAPI_ATTR VkResult VKAPI_CALL
test_layer_CreateInstance(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                          VkInstance *pInstance)
{
   struct lyr_instance *instance;
   return lyr_instance_create(info, alloc, pInstance, sizeof(*instance), &instance);
}

static VKAPI_ATTR void VKAPI_CALL
test_layer_DestroyInstance(VkInstance instance, const VkAllocationCallbacks *alloc)
{
   lyr_instance_destroy(instance, alloc);
}

/* vkCreateDevice below, for a layer offering in place of the device below: without the structs
 * `drop` leaves out of info's chain and the extensions hidden[0..hidden_count) among its names;
 * the lyr_device (size bytes) in *device. */
static inline VkResult
test_layer_create_device_hiding(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                                const VkAllocationCallbacks *alloc, VkDevice *pDevice,
                                lyr_drop_fn drop, const char *const *hidden,
                                uint32_t hidden_count, size_t size, struct lyr_device **device)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   struct lyr_chain_copy copy;
   VkResult result = lyr_chain_clone(&instance->alloc, info, sizeof(*info), drop, NULL, 0, &copy);
   if (result != VK_SUCCESS)
      return result;
   VkDeviceCreateInfo *down = copy.head;
   const char *names[64];
   uint32_t n = 0;
   for (uint32_t i = 0; i < info->enabledExtensionCount && n < 64; i++) {
      bool hide = false;
      for (uint32_t h = 0; h < hidden_count; h++)
         hide |= strcmp(info->ppEnabledExtensionNames[i], hidden[h]) == 0;
      if (!hide)
         names[n++] = info->ppEnabledExtensionNames[i];
   }
   down->enabledExtensionCount = n;
   down->ppEnabledExtensionNames = names;
   result = lyr_device_create(pd, down, alloc, pDevice, size, device);
   lyr_chain_copy_free(&copy);
   return result;
}

/* The two hook-table entries of those entry points. */
#define TEST_LAYER_INSTANCE_HOOKS                                                                  \
   HOOK(CreateInstance, test_layer_CreateInstance),                                                \
      HOOK(DestroyInstance, test_layer_DestroyInstance)

#endif /* VMEL_TEST_LAYER_H */
