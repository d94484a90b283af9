/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The loader finds our layers (and the meta layer) through the build-tree
 * manifests, and each layer reports its device extensions both with
 * pLayerName (its own list) and without (appended to the driver's list).
 */
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static bool
layer_listed(const VkLayerProperties *props, uint32_t n, const char *name)
{
   for (uint32_t i = 0; i < n; i++) {
      if (strcmp(props[i].layerName, name) == 0)
         return true;
   }
   return false;
}

static void
check_layer_extensions(struct vku *v, const char *layer, const char *const *want,
                       const uint32_t *versions, uint32_t want_count)
{
   uint32_t n = 0;
   ok(vkEnumerateDeviceExtensionProperties(v->physical_device, layer, &n, NULL) == VK_SUCCESS,
      "count for %s", layer);
   check_eq_u64(n, want_count);
   VkExtensionProperties props[8];
   n = 8;
   ok(vkEnumerateDeviceExtensionProperties(v->physical_device, layer, &n, props) == VK_SUCCESS,
      "list for %s", layer);
   for (uint32_t i = 0; i < want_count && i < n; i++) {
      check_str(props[i].extensionName, want[i]);
      check_eq_u64(props[i].specVersion, versions[i]);
   }
   /* Two-call pattern with a short array. */
   if (want_count > 1) {
      uint32_t one = 1;
      ok(vkEnumerateDeviceExtensionProperties(v->physical_device, layer, &one, props) ==
            VK_INCOMPLETE,
         "short array gives VK_INCOMPLETE");
      check_eq_u64(one, 1);
   }
}

int
main(void)
{
   uint32_t n = 0;
   ok(vkEnumerateInstanceLayerProperties(&n, NULL) == VK_SUCCESS, "layer count");
   VkLayerProperties *layers = calloc(n, sizeof(*layers));
   ok(vkEnumerateInstanceLayerProperties(&n, layers) == VK_SUCCESS, "layer list");
   ok(layer_listed(layers, n, VKU_TENSOR), "tensor layer found");
   ok(layer_listed(layers, n, VKU_GRAPH), "graph layer found");
   ok(layer_listed(layers, n, VKU_META), "meta layer found");
   ok(layer_listed(layers, n, VKU_VALIDATION), "validation layer found");
   free(layers);

   /* Our layers add no instance extensions. */
   n = 99;
   ok(vkEnumerateInstanceExtensionProperties(VKU_TENSOR, &n, NULL) == VK_SUCCESS &&
         n == 0,
      "tensor layer instance extensions: %u", n);
   n = 99;
   ok(vkEnumerateInstanceExtensionProperties(VKU_GRAPH, &n, NULL) == VK_SUCCESS && n == 0,
      "graph layer instance extensions: %u", n);

   struct vku v;
   const char *both[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, both, 2, true) == VK_SUCCESS, "instance with both layers");
   vku_require_device(&v);

   const char *tensor_ext[] = {"VK_ARM_tensors"};
   const uint32_t tensor_ver[] = {2};
   check_layer_extensions(&v, VKU_TENSOR, tensor_ext, tensor_ver, 1);
   const char *graph_ext[] = {"VK_ARM_data_graph", "VK_ARM_data_graph_instruction_set_tosa",
                              "VK_ARM_data_graph_optical_flow"};
   const uint32_t graph_ver[] = {1, 1, 1};
   check_layer_extensions(&v, VKU_GRAPH, graph_ext, graph_ver, 3);

   ok(vku_has_device_extension(&v, "VK_ARM_tensors"), "VK_ARM_tensors advertised");
   ok(vku_has_device_extension(&v, "VK_ARM_data_graph"), "VK_ARM_data_graph advertised");
   ok(vku_has_device_extension(&v, "VK_ARM_data_graph_instruction_set_tosa"),
      "VK_ARM_data_graph_instruction_set_tosa advertised");
   ok(vku_has_device_extension(&v, "VK_ARM_data_graph_optical_flow"),
      "VK_ARM_data_graph_optical_flow advertised");
   ok(vku_has_device_extension(&v, "VK_KHR_maintenance4"), "driver extensions still listed");

   /* The appended list: no duplicates, VK_INCOMPLETE when short. */
   n = 0;
   vkEnumerateDeviceExtensionProperties(v.physical_device, NULL, &n, NULL);
   VkExtensionProperties *all = calloc(n, sizeof(*all));
   uint32_t short_n = n - 1;
   ok(vkEnumerateDeviceExtensionProperties(v.physical_device, NULL, &short_n, all) ==
         VK_INCOMPLETE,
      "short device extension list gives VK_INCOMPLETE");
   check_eq_u64(short_n, n - 1);
   ok(vkEnumerateDeviceExtensionProperties(v.physical_device, NULL, &n, all) == VK_SUCCESS,
      "full list");
   unsigned tensors = 0;
   for (uint32_t i = 0; i < n; i++)
      tensors += strcmp(all[i].extensionName, "VK_ARM_tensors") == 0;
   check_eq_u64(tensors, 1);
   free(all);
   vku_finish(&v);

   /* Without our layers the driver offers none of the ARM extensions. */
   ok(vku_init(&v, NULL, 0, true) == VK_SUCCESS, "instance without our layers");
   ok(!vku_has_device_extension(&v, "VK_ARM_tensors"), "lavapipe has no VK_ARM_tensors");
   vku_finish(&v);

   /* Tensor layer alone: tensors but no graphs. */
   const char *tensor_only[] = {VKU_TENSOR};
   ok(vku_init(&v, tensor_only, 1, true) == VK_SUCCESS, "instance with the tensor layer");
   ok(vku_has_device_extension(&v, "VK_ARM_tensors"), "tensor layer alone offers tensors");
   ok(!vku_has_device_extension(&v, "VK_ARM_data_graph"), "and no data graph");
   vku_finish(&v);

   /* The meta layer stacks both in the right order. */
   const char *meta[] = {VKU_META};
   ok(vku_init(&v, meta, 1, true) == VK_SUCCESS, "instance with the meta layer");
   ok(vku_has_device_extension(&v, "VK_ARM_tensors"), "meta: tensors");
   ok(vku_has_device_extension(&v, "VK_ARM_data_graph"), "meta: data graph");
   vku_finish(&v);
   return test_done();
}
