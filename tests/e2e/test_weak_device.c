/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A device that cannot host the emulation (VK_LAYER_VMEL_test_weak_device
 * below our layers hides bufferDeviceAddress, or reports Vulkan 1.2 — chosen
 * by VMEL_TEST_WEAK, set by CTest): VK_ARM_tensors is not advertised, and
 * vkCreateDevice with it fails with VK_ERROR_FEATURE_NOT_PRESENT and a log
 * line naming what is missing.
 */
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

int
main(void)
{
   const char *mode = getenv("VMEL_TEST_WEAK");
   const char *missing = mode && strcmp(mode, "api12") == 0 ? "Vulkan 1.3" : "bufferDeviceAddress";
   struct vku v;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR, "VK_LAYER_VMEL_test_weak_device"};
   ok(vku_init(&v, layers, 3, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   ok(!vku_has_device_extension(&v, "VK_ARM_tensors"), "VK_ARM_tensors not advertised");
   ok(!vku_has_device_extension(&v, "VK_ARM_data_graph"), "VK_ARM_data_graph not advertised");

   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .tensors = VK_TRUE};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   check_eq_u64(tf.tensors, VK_FALSE);

   const char *ext[] = {"VK_ARM_tensors"};
   VkDevice device = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   v.expect_device_failure = true;
   VkResult r = vku_create_device(&v, ext, 1, NULL, &device);
   v.expect_device_failure = false;
   const char *log = vku_capture_stderr_end();
   check_eq_i64(r, VK_ERROR_FEATURE_NOT_PRESENT);
   ok(strstr(log, missing) != NULL, "log names %s", missing);
   ok(strstr(log, "VK_ARM_tensors") != NULL, "log names the extension");

   ok(vku_create_device(&v, NULL, 0, NULL, &device) == VK_SUCCESS,
      "a device without our extensions still works");
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
