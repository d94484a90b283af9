/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Enabling the layers without touching the application: VK_INSTANCE_LAYERS=
 * VK_LAYER_ML_Emulation (set by CTest for this test) stacks graph above
 * tensor on every loader, including Debian 12's, which orders environment
 * layers as their manifests are found. The application itself enables only
 * the validation layer, which the loader places below the environment's.
 */
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

int
main(void)
{
   const char *env = getenv("VK_INSTANCE_LAYERS");
   ok(env && strcmp(env, VKU_META) == 0, "VK_INSTANCE_LAYERS is the meta layer");
   struct vku v;
   ok(vku_init(&v, NULL, 0, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   ok(vku_has_device_extension(&v, "VK_ARM_tensors"), "VK_ARM_tensors");
   ok(vku_has_device_extension(&v, "VK_ARM_data_graph"), "VK_ARM_data_graph");
   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph",
                        "VK_ARM_data_graph_instruction_set_tosa"};
   VkDevice device = VK_NULL_HANDLE;
   ok(vku_create_device(&v, ext, 3, NULL, &device) == VK_SUCCESS, "device with all three");
   if (device)
      vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
