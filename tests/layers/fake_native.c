/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_LAYER_VMEL_test_native: a test-only layer that pretends the driver
 * implements VK_ARM_tensors and VK_ARM_data_graph natively, so tests can check
 * that our layers pass everything through on such a device. It advertises both
 * extensions, answers their feature structs with a marker pattern our layers
 * never produce (tensorNonPacked FALSE, dataGraphDescriptorBuffer TRUE),
 * returns fake vkCreateTensorARM / vkDestroyTensorARM, and hides the ARM names
 * and structs from the real driver below. With VMEL_TEST_NATIVE_TENSORS_ONLY=1
 * it offers VK_ARM_tensors alone (a driver with native tensors and no data
 * graphs: the graph layer must not build on those tensors, D25).
 */
#include <stdlib.h>
#include <string.h>

#include "lyr_layer.h"
#include "test_layer.h"

#define FAKE_LAYER_NAME "VK_LAYER_VMEL_test_native"
#define FAKE_TENSOR_HANDLE 0x7e57

static const VkExtensionProperties fake_extensions[] = {
   {VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_TENSORS_SPEC_VERSION},
   {VK_ARM_DATA_GRAPH_EXTENSION_NAME, VK_ARM_DATA_GRAPH_SPEC_VERSION},
};
static const char *const fake_names[] = {VK_ARM_TENSORS_EXTENSION_NAME,
                                         VK_ARM_DATA_GRAPH_EXTENSION_NAME};

static bool
tensors_only(void)
{
   const char *v = getenv("VMEL_TEST_NATIVE_TENSORS_ONLY");
   return v && strcmp(v, "1") == 0;
}

static VKAPI_ATTR VkResult VKAPI_CALL
fake_EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char *layer, uint32_t *count,
                                        VkExtensionProperties *props)
{
   return lyr_layer_device_extensions(lyr_instance_get(pd), pd, layer, FAKE_LAYER_NAME,
                                      fake_extensions,
                                      tensors_only() ? 1 : LYR_ARRAY_SIZE(fake_extensions), true,
                                      count, props);
}

static VKAPI_ATTR void VKAPI_CALL
fake_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2 *features)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   lyr_next_features2(instance, pd, features, lyr_drop_arm_ml);
   VkPhysicalDeviceTensorFeaturesARM *tf = (VkPhysicalDeviceTensorFeaturesARM *)lyr_find_struct(
      features->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
   if (tf) {
      tf->tensorNonPacked = VK_FALSE;
      tf->shaderTensorAccess = VK_TRUE;
      tf->shaderStorageTensorArrayDynamicIndexing = VK_FALSE;
      tf->shaderStorageTensorArrayNonUniformIndexing = VK_FALSE;
      tf->descriptorBindingStorageTensorUpdateAfterBind = VK_FALSE;
      tf->tensors = VK_TRUE;
   }
   VkPhysicalDeviceDataGraphFeaturesARM *df = (VkPhysicalDeviceDataGraphFeaturesARM *)
      lyr_find_struct(features->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM);
   if (df && !tensors_only()) {
      df->dataGraph = VK_TRUE;
      df->dataGraphUpdateAfterBind = VK_FALSE;
      df->dataGraphSpecializationConstants = VK_FALSE;
      df->dataGraphDescriptorBuffer = VK_TRUE;
      df->dataGraphShaderModule = VK_FALSE;
   }
}

static VKAPI_ATTR VkResult VKAPI_CALL
fake_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                  const VkAllocationCallbacks *alloc, VkDevice *pDevice)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   struct lyr_feature_request none = {0};
   struct lyr_device_info_copy copy;
   VkResult result = lyr_device_info_rewrite(&instance->alloc, info, &none, fake_names,
                                             LYR_ARRAY_SIZE(fake_names), &copy);
   if (result != VK_SUCCESS)
      return result;
   struct lyr_device *device;
   result = lyr_device_create(pd, &copy.info, alloc, pDevice, sizeof(*device), &device);
   lyr_device_info_copy_free(&copy);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
fake_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
   lyr_device_destroy(device, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fake_CreateTensorARM(VkDevice device, const VkTensorCreateInfoARM *info,
                     const VkAllocationCallbacks *alloc, VkTensorARM *tensor)
{
   *tensor = (VkTensorARM)(uintptr_t)FAKE_TENSOR_HANDLE;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
fake_DestroyTensorARM(VkDevice device, VkTensorARM tensor, const VkAllocationCallbacks *alloc)
{
}


static const struct lyr_hook fake_instance_hooks[] = {
   TEST_LAYER_INSTANCE_HOOKS,
   HOOK(CreateDevice, fake_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, fake_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceFeatures2, fake_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, fake_GetPhysicalDeviceFeatures2),
};
static const struct lyr_hook fake_device_hooks[] = {
   HOOK(DestroyDevice, fake_DestroyDevice),
   HOOK(CreateTensorARM, fake_CreateTensorARM),
   HOOK(DestroyTensorARM, fake_DestroyTensorARM),
};
static const struct lyr_hook_table fake_instance_table = LYR_HOOK_TABLE(fake_instance_hooks);
static const struct lyr_hook_table *const fake_instance_tables[] = {&fake_instance_table};

const struct lyr_hooks lyr_layer_hooks = {
   .instance = fake_instance_tables,
   .instance_count = LYR_ARRAY_SIZE(fake_instance_tables),
   .device_always = LYR_HOOK_TABLE(fake_device_hooks),
};
