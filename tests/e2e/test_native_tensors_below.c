/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A driver with native VK_ARM_tensors and no VK_ARM_data_graph (simulated by
 * VK_LAYER_VMEL_test_native with VMEL_TEST_NATIVE_TENSORS_ONLY=1): the tensor
 * layer passes VK_ARM_tensors through and lists no tool, and the graph layer,
 * whose kernels read tensors through the tensor layer's records, offers no
 * VK_ARM_data_graph there and refuses a device asking for it (D25), while
 * VK_ARM_tensors alone still works. Without the fake driver the same stack
 * emulates both, and the tensor layer lists itself with the records' version.
 */
#include <stdlib.h>

#include "kernel_abi/tensor_record.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static void
count_extensions(VkPhysicalDevice pd, unsigned *tensors, unsigned *graph)
{
   uint32_t n = 0;
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props);
   *tensors = *graph = 0;
   for (uint32_t i = 0; i < n; i++) {
      *tensors += strcmp(props[i].extensionName, "VK_ARM_tensors") == 0;
      *graph += strcmp(props[i].extensionName, "VK_ARM_data_graph") == 0;
   }
   free(props);
}

/* Whether the tensor layer lists itself as a tool, with the records' version. */
static bool
tensor_tool_listed(VkPhysicalDevice pd)
{
   uint32_t n = 0;
   vkGetPhysicalDeviceToolProperties(pd, &n, NULL);
   VkPhysicalDeviceToolProperties *t = calloc(n ? n : 1, sizeof(*t));
   for (uint32_t i = 0; i < n; i++)
      t[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES;
   vkGetPhysicalDeviceToolProperties(pd, &n, t);
   bool found = false;
   for (uint32_t i = 0; i < n; i++)
      found |= strcmp(t[i].layer, "VK_LAYER_ML_Tensor_Emulation") == 0 &&
               strcmp(t[i].version, VMEL_TENSOR_RECORD_TOOL_VERSION) == 0;
   free(t);
   return found;
}

int
main(void)
{
   unsigned tensors, graph;
   struct vku v;

   /* Our stack alone: both emulated, the tensor layer is a tool with the records' version. */
   unsetenv("VMEL_TEST_NATIVE_TENSORS_ONLY");
   const char *ours[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, ours, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   count_extensions(v.physical_device, &tensors, &graph);
   check_eq_u64(tensors, 1);
   check_eq_u64(graph, 1);
   ok(tensor_tool_listed(v.physical_device), "emulating, the tensor layer lists its tool");
   vku_finish(&v);

   /* Over native tensors. */
   setenv("VMEL_TEST_NATIVE_TENSORS_ONLY", "1", 1);
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR, VKU_FAKE_NATIVE};
   ok(vku_init(&v, layers, 3, true) == VK_SUCCESS, "instance over native tensors");
   count_extensions(v.physical_device, &tensors, &graph);
   check_eq_u64(tensors, 1);
   check_eq_u64(graph, 0);
   ok(!tensor_tool_listed(v.physical_device), "passing through, the tensor layer is no tool");

   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   check_eq_u64(tf.tensorNonPacked, VK_FALSE); /* the fake driver's marker: passed through */

   const char *both[] = {"VK_ARM_tensors", "VK_ARM_data_graph"};
   VkDevice device = VK_NULL_HANDLE;
   v.expect_device_failure = true;
   VkResult r = vku_create_device(&v, both, 2, NULL, &device);
   v.expect_device_failure = false;
   ok(r == VK_ERROR_EXTENSION_NOT_PRESENT, "VK_ARM_data_graph refused over native tensors: %d",
      r);
   ok(device == VK_NULL_HANDLE || r == VK_SUCCESS, "no device on failure");

   r = vku_create_device(&v, both, 1, &tf, &device);
   ok(r == VK_SUCCESS, "VK_ARM_tensors alone: %d", r);
   if (r == VK_SUCCESS) {
      PFN_vkCreateTensorARM create =
         (PFN_vkCreateTensorARM)vkGetDeviceProcAddr(device, "vkCreateTensorARM");
      VkTensorARM t = VK_NULL_HANDLE;
      ok(create && create(device, NULL, NULL, &t) == VK_SUCCESS && (uintptr_t)t == 0x7e57,
         "the native vkCreateTensorARM answers");
      vkDestroyDevice(device, NULL);
   }
   vku_finish(&v);
   return test_done();
}
