/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Instance and device creation with each layer alone, both, and the meta
 * layer; with and without our extensions; with the application's features in
 * Vulkan1x structs or standalone structs; unsupported feature requests fail
 * with VK_ERROR_FEATURE_NOT_PRESENT. Tool properties name both layers.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static void
check_tools(struct vku *v, bool want_tensor, bool want_graph)
{
   PFN_vkGetPhysicalDeviceToolProperties tools =
      (PFN_vkGetPhysicalDeviceToolProperties)vku_proc(v, "vkGetPhysicalDeviceToolProperties");
   uint32_t n = 0;
   ok(tools(v->physical_device, &n, NULL) == VK_SUCCESS, "tool count");
   VkPhysicalDeviceToolProperties props[8];
   for (unsigned i = 0; i < 8; i++)
      props[i] = (VkPhysicalDeviceToolProperties){
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES};
   uint32_t got = n < 8 ? n : 8;
   ok(tools(v->physical_device, &got, props) == VK_SUCCESS, "tool list");
   check_eq_u64(got, n);
   bool tensor = false, graph = false;
   for (uint32_t i = 0; i < got; i++) {
      if (strcmp(props[i].name, "Tensor Layer") == 0) {
         tensor = true;
         check_str(props[i].layer, VKU_TENSOR);
      }
      if (strcmp(props[i].name, "Graph Layer") == 0) {
         graph = true;
         check_str(props[i].layer, VKU_GRAPH);
      }
   }
   ok(tensor == want_tensor, "Tensor Layer tool %s", want_tensor ? "listed" : "absent");
   ok(graph == want_graph, "Graph Layer tool %s", want_graph ? "listed" : "absent");
   if (n >= 2) {
      uint32_t one = 1;
      ok(tools(v->physical_device, &one, props) == VK_INCOMPLETE, "short tool list incomplete");
      check_eq_u64(one, 1);
   }
}

static void
device_roundtrip(struct vku *v, const char *const *ext, unsigned n, const void *pnext,
                 VkResult want, const char *what)
{
   VkDevice device = VK_NULL_HANDLE;
   v->expect_device_failure = want != VK_SUCCESS;
   VkResult r = vku_create_device(v, ext, n, pnext, &device);
   v->expect_device_failure = false;
   ok(r == want, "%s: vkCreateDevice returned %d, expected %d", what, r, want);
   if (r == VK_SUCCESS) {
      VkQueue q = VK_NULL_HANDLE;
      vkGetDeviceQueue(device, 0, 0, &q);
      ok(q != VK_NULL_HANDLE, "%s: queue", what);
      /* VK_ARM_data_graph commands exactly when the extension is enabled. */
      bool graph = false;
      for (unsigned i = 0; i < n; i++)
         graph |= strcmp(ext[i], "VK_ARM_data_graph") == 0;
      bool have = vkGetDeviceProcAddr(device, "vkCreateDataGraphPipelinesARM") != NULL;
      ok(have == graph, "%s: vkCreateDataGraphPipelinesARM %s", what,
         graph ? "offered" : "not offered");
      ok(vkGetDeviceProcAddr(device, "vkDestroyDevice") != NULL, "%s: vkDestroyDevice", what);
      vkDestroyDevice(device, NULL);
   }
}

int
main(void)
{
   struct vku v;
   const char *tensor_ext[] = {"VK_ARM_tensors"};
   const char *graph_ext[] = {"VK_ARM_data_graph", "VK_ARM_data_graph_instruction_set_tosa"};
   const char *all_ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph",
                            "VK_ARM_data_graph_instruction_set_tosa"};

   test_set_context("tensor alone");
   const char *tensor_only[] = {VKU_TENSOR};
   ok(vku_init(&v, tensor_only, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   check_tools(&v, true, false);
   device_roundtrip(&v, NULL, 0, NULL, VK_SUCCESS, "no extensions");
   device_roundtrip(&v, tensor_ext, 1, NULL, VK_SUCCESS, "VK_ARM_tensors");
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .tensors = VK_TRUE,
      .shaderTensorAccess = VK_TRUE,
      .tensorNonPacked = VK_TRUE,
   };
   device_roundtrip(&v, tensor_ext, 1, &tf, VK_SUCCESS, "VK_ARM_tensors + features");
   /* The application's own features: in Vulkan12Features ... */
   VkPhysicalDeviceVulkan12Features v12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .pNext = &tf,
      .bufferDeviceAddress = VK_TRUE,
      .timelineSemaphore = VK_TRUE,
   };
   device_roundtrip(&v, tensor_ext, 1, &v12, VK_SUCCESS, "Vulkan12Features in chain");
   /* ... or standalone structs, which must not meet a Vulkan12Features. */
   VkPhysicalDeviceBufferDeviceAddressFeatures bda = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
      .pNext = &tf,
      .bufferDeviceAddress = VK_TRUE,
   };
   VkPhysicalDevice8BitStorageFeatures s8 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
      .pNext = &bda,
      .storageBuffer8BitAccess = VK_TRUE,
   };
   device_roundtrip(&v, tensor_ext, 1, &s8, VK_SUCCESS, "standalone feature structs");
   VkPhysicalDeviceSynchronization2Features sync2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
      .synchronization2 = VK_TRUE,
   };
   VkPhysicalDeviceFeatures2 f2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &sync2,
      .features.shaderInt16 = VK_TRUE,
   };
   device_roundtrip(&v, tensor_ext, 1, &f2, VK_SUCCESS, "VkPhysicalDeviceFeatures2 in chain");
   vku_finish(&v);

   test_set_context("graph alone");
   const char *graph_only[] = {VKU_GRAPH};
   ok(vku_init(&v, graph_only, 1, true) == VK_SUCCESS, "instance");
   check_tools(&v, false, true);
   device_roundtrip(&v, NULL, 0, NULL, VK_SUCCESS, "no extensions");
   vku_finish(&v);

   test_set_context("both");
   const char *both[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, both, 2, true) == VK_SUCCESS, "instance");
   check_tools(&v, true, true);
   device_roundtrip(&v, NULL, 0, NULL, VK_SUCCESS, "no extensions");
   device_roundtrip(&v, tensor_ext, 1, NULL, VK_SUCCESS, "tensors only");
   device_roundtrip(&v, graph_ext, 2, NULL, VK_SUCCESS, "graph without tensors named");
   device_roundtrip(&v, all_ext, 3, NULL, VK_SUCCESS, "all three");
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .pNext = &tf,
      .dataGraph = VK_TRUE,
      .dataGraphSpecializationConstants = VK_TRUE,
      .dataGraphShaderModule = VK_TRUE,
   };
   tf.pNext = NULL;
   device_roundtrip(&v, all_ext, 3, &dgf, VK_SUCCESS, "all three + features");
   dgf.dataGraphDescriptorBuffer = VK_TRUE;
   device_roundtrip(&v, all_ext, 3, &dgf, VK_ERROR_FEATURE_NOT_PRESENT,
                    "unsupported dataGraphDescriptorBuffer");
   vku_finish(&v);

   test_set_context("meta");
   const char *meta[] = {VKU_META};
   ok(vku_init(&v, meta, 1, true) == VK_SUCCESS, "instance");
   check_tools(&v, true, true);
   device_roundtrip(&v, all_ext, 3, NULL, VK_SUCCESS, "all three");
   vku_finish(&v);
   return test_done();
}
