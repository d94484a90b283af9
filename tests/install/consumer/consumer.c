/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Uses types and values of the ARM API from the installed headers only: prints the
 * extension names and a structure type, so the build fails if the headers are not found.
 */
#include <stdio.h>

#include <spirv/spirv_arm_ml.h>
#include <vmel_graph.h>
#include <vulkan/vulkan_arm_ml.h>

int
main(void)
{
   VkTensorDescriptionARM desc = {.sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM};
   printf("%s %s %d %d\n", VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_DATA_GRAPH_EXTENSION_NAME,
          (int)desc.sType, (int)VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON);
   return 0;
}
