/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Shader modules holding SPIR-V graphs stay in the graph layer: creating and
 * destroying one works on a device with VK_ARM_data_graph and the validation
 * layer below never sees it (it would reject the unknown capability), while
 * an ordinary compute module still reaches the driver.
 */
#include <stdio.h>
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static VkResult
make_module(VkDevice device, const uint32_t *words, size_t count, VkShaderModule *m)
{
   VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = count * 4,
                                    .pCode = words};
   return vkCreateShaderModule(device, &info, NULL, m);
}

int
main(void)
{
   size_t graph_count = 0, compute_count = 0;
   uint32_t *graph =
      vku_assemble_file(VMEL_TEST_DATA_DIR "/spirv/graph_clamp.spvasm", &graph_count);
   uint32_t *compute =
      vku_assemble_file(VMEL_TEST_DATA_DIR "/spirv/compute_basic.spvasm", &compute_count);
   if (!ok(graph && compute, "test modules assemble"))
      return test_done();

   struct vku v;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, layers, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph"};
   VkDevice device;
   if (!ok(vku_create_device(&v, ext, 2, NULL, &device) == VK_SUCCESS, "device"))
      return test_done();

   VkShaderModule g1 = VK_NULL_HANDLE, g2 = VK_NULL_HANDLE, c = VK_NULL_HANDLE;
   ok(make_module(device, graph, graph_count, &g1) == VK_SUCCESS && g1, "graph module kept");
   ok(make_module(device, graph, graph_count, &g2) == VK_SUCCESS && g2 && g2 != g1,
      "a second graph module");
   ok(make_module(device, compute, compute_count, &c) == VK_SUCCESS && c,
      "compute module reaches the driver");
   vkDestroyShaderModule(device, g1, NULL);
   vkDestroyShaderModule(device, c, NULL);
   vkDestroyShaderModule(device, VK_NULL_HANDLE, NULL);
   /* g2 is left for vkDestroyDevice to release. */
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   free(graph);
   free(compute);
   return test_done();
}
