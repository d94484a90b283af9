/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * When VK_ARM_tensors and VK_ARM_data_graph are native below our layers
 * (simulated by VK_LAYER_VMEL_test_native), both layers pass everything
 * through: the features are the native ones (a marker pattern we never
 * report ourselves), device creation keeps the extensions for the layer
 * below, and the commands returned are the native ones.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

int
main(void)
{
   struct vku v;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR, VKU_FAKE_NATIVE};
   ok(vku_init(&v, layers, 3, true) == VK_SUCCESS, "instance over the fake native layer");
   vku_require_device(&v);

   VkPhysicalDeviceDataGraphFeaturesARM df = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM};
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .pNext = &df};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   check_eq_u64(tf.tensors, VK_TRUE);
   check_eq_u64(tf.tensorNonPacked, VK_FALSE); /* marker: ours would be TRUE */
   check_eq_u64(tf.shaderStorageTensorArrayDynamicIndexing, VK_FALSE);
   check_eq_u64(df.dataGraph, VK_TRUE);
   check_eq_u64(df.dataGraphDescriptorBuffer, VK_TRUE); /* marker: ours would be FALSE */
   check_eq_u64(df.dataGraphShaderModule, VK_FALSE);

   /* Each extension listed once. */
   uint32_t n = 0;
   vkEnumerateDeviceExtensionProperties(v.physical_device, NULL, &n, NULL);
   VkExtensionProperties props[512];
   n = n < 512 ? n : 512;
   vkEnumerateDeviceExtensionProperties(v.physical_device, NULL, &n, props);
   unsigned tensors = 0, graph = 0;
   for (uint32_t i = 0; i < n; i++) {
      tensors += strcmp(props[i].extensionName, "VK_ARM_tensors") == 0;
      graph += strcmp(props[i].extensionName, "VK_ARM_data_graph") == 0;
   }
   check_eq_u64(tensors, 1);
   check_eq_u64(graph, 1);

   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph"};
   VkDevice device;
   ok(vku_create_device(&v, ext, 2, &tf, &device) == VK_SUCCESS, "device");
   PFN_vkCreateTensorARM create =
      (PFN_vkCreateTensorARM)vkGetDeviceProcAddr(device, "vkCreateTensorARM");
   ok(create != NULL, "native vkCreateTensorARM reaches the application");
   if (create) {
      VkTensorARM t = VK_NULL_HANDLE;
      ok(create(device, NULL, NULL, &t) == VK_SUCCESS, "native create");
      check_eq_u64((uint64_t)(uintptr_t)t, 0x7e57);
   }
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
