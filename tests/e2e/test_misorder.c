/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph layer below the tensor layer (the wrong order) cannot offer
 * VK_ARM_data_graph: it does not advertise it, and creating a device that
 * asks for it fails with an error whose log line says how to fix the order.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

int
main(void)
{
   struct vku v;
   const char *wrong[] = {VKU_TENSOR, VKU_GRAPH};
   ok(vku_init(&v, wrong, 2, true) == VK_SUCCESS, "instance in the wrong order");
   vku_require_device(&v);

   vku_capture_stderr_begin();
   bool advertised = vku_has_device_extension(&v, "VK_ARM_data_graph");
   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph"};
   VkDevice device = VK_NULL_HANDLE;
   v.expect_device_failure = true;
   VkResult r = vku_create_device(&v, ext, 2, NULL, &device);
   v.expect_device_failure = false;
   const char *log = vku_capture_stderr_end();

   ok(!advertised, "VK_ARM_data_graph not advertised");
   ok(vku_has_device_extension(&v, "VK_ARM_tensors"), "VK_ARM_tensors still advertised");
   check_eq_i64(r, VK_ERROR_EXTENSION_NOT_PRESENT);
   ok(device == VK_NULL_HANDLE, "no device");
   ok(strstr(log, "VK_ARM_data_graph") != NULL, "log names the extension");
   ok(strstr(log, "VK_LAYER_ML_Emulation") != NULL, "log suggests the meta layer");
   ok(strstr(log, "ppEnabledLayerNames") != NULL, "log explains the layer order");
   ok(strstr(log, "\"VK_LAYER_ML_Graph_Emulation\", \"VK_LAYER_ML_Tensor_Emulation\"") != NULL,
      "log gives the right order");

   /* A device without graph extensions still works in this order. */
   ok(vku_create_device(&v, ext, 1, NULL, &device) == VK_SUCCESS, "tensor-only device");
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
