/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What VK_ARM_data_graph offers on a physical device: native below us (pass
 * through), or emulated on top of VK_ARM_tensors when some layer or driver
 * below provides it. When VK_ARM_tensors is missing below, why_not says how
 * to fix the layer order (design.md §1).
 */
#include "dg_private.h"

#include "dg_descriptor_buffer.h"

#include <stdio.h>

#include "kernel_abi/tensor_record.h"

bool
dg_is_data_graph_stype(VkStructureType stype)
{
   uint32_t v = (uint32_t)stype;
   return (v >= 1000507000u && v < 1000509000u) || /* data_graph, instruction_set_tosa */
          (v >= 1000631000u && v < 1000632000u) || /* data_graph_optical_flow */
          (v >= 1000676000u && v < 1000677000u);   /* neural_accelerator_statistics */
}

bool
dg_drop_data_graph(const VkBaseInStructure *s, void *user)
{
   (void)user;
   return dg_is_data_graph_stype(s->sType);
}

static const char *const dg_extension_names[] = {
   VK_ARM_DATA_GRAPH_EXTENSION_NAME,
   VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME,
   VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME,
};

bool
dg_is_our_extension(const char *name)
{
   return lyr_name_in_list(name, dg_extension_names, LYR_ARRAY_SIZE(dg_extension_names));
}

/* Whether the VK_ARM_tensors below is our tensor layer's emulation (tensors are records,
 * kernel_abi/tensor_record.h): it lists itself as a tool with the records' version there
 * and nowhere else (D25). */
static bool
tensor_records_below(struct lyr_instance *instance, VkPhysicalDevice physical_device)
{
   PFN_vkGetPhysicalDeviceToolProperties tools = instance->next.GetPhysicalDeviceToolProperties;
   uint32_t count = 0;
   if (!tools || tools(physical_device, &count, NULL) != VK_SUCCESS || count == 0)
      return false;
   if (count > 64)
      count = 64;
   VkPhysicalDeviceToolProperties *props =
      lyr_zalloc(&instance->alloc, count * sizeof(*props), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!props)
      return false;
   for (uint32_t i = 0; i < count; i++)
      props[i].sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES;
   bool found = false;
   VkResult result = tools(physical_device, &count, props);
   for (uint32_t i = 0; (result == VK_SUCCESS || result == VK_INCOMPLETE) && i < count; i++) {
      found |= strcmp(props[i].layer, DG_TENSOR_LAYER_NAME) == 0 &&
               strcmp(props[i].version, VMEL_TENSOR_RECORD_TOOL_VERSION) == 0;
   }
   lyr_free(&instance->alloc, props);
   return found;
}

void
dg_query_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
              struct dg_caps *caps)
{
   memset(caps, 0, sizeof(*caps));
   PFN_vkEnumerateDeviceExtensionProperties enumerate =
      instance->next.EnumerateDeviceExtensionProperties;
   caps->native = lyr_device_extension_below(enumerate, physical_device,
                                             VK_ARM_DATA_GRAPH_EXTENSION_NAME, &instance->alloc);
   caps->tensors_below = lyr_device_extension_below(
      enumerate, physical_device, VK_ARM_TENSORS_EXTENSION_NAME, &instance->alloc);
   if (caps->native)
      return;
   if (!caps->tensors_below) {
      snprintf(caps->why_not, sizeof(caps->why_not),
               "%s needs VK_ARM_tensors from a layer below it, and no layer or driver below "
               "provides it. Enable %s *after* %s (closer to the driver): list both in "
               "VkInstanceCreateInfo::ppEnabledLayerNames in the order \"%s\", \"%s\"; or enable "
               "the meta layer VK_LAYER_ML_Emulation; with VK_INSTANCE_LAYERS, loaders that "
               "stack layers in the order their manifests are found (such as 1.3.239) need the "
               "graph layer's manifest found first (its folder first in VK_LAYER_PATH)",
               DG_LAYER_NAME, DG_TENSOR_LAYER_NAME, DG_LAYER_NAME, DG_LAYER_NAME,
               DG_TENSOR_LAYER_NAME);
      return;
   }
   if (lyr_physical_device_api_version(instance, physical_device) < VK_API_VERSION_1_3) {
      snprintf(caps->why_not, sizeof(caps->why_not),
               "the device does not support Vulkan 1.3, which %s needs", DG_LAYER_NAME);
      return;
   }

   if (!tensor_records_below(instance, physical_device)) {
      snprintf(caps->why_not, sizeof(caps->why_not),
               "VK_ARM_tensors below is not emulated by this project's %s (the driver or "
               "another layer implements it), and the graph kernels read tensors through that "
               "layer's records (no tool \"%s\" of version \"%s\" is listed below); put "
               "%s between this layer and the driver to have VK_ARM_data_graph here",
               DG_TENSOR_LAYER_NAME, "Tensor Layer", VMEL_TENSOR_RECORD_TOOL_VERSION,
               DG_TENSOR_LAYER_NAME);
      return;
   }

   /* Update-after-bind of graph resources rides on the tensor descriptors. */
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
   };
   VkPhysicalDeviceFeatures2 f2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &tf,
   };
   instance->next.GetPhysicalDeviceFeatures2(physical_device, &f2);
   if (!tf.tensors || !tf.shaderTensorAccess) {
      snprintf(caps->why_not, sizeof(caps->why_not),
               "VK_ARM_tensors below does not offer the tensors and shaderTensorAccess features");
      return;
   }
   caps->available = true;
   caps->features = (VkPhysicalDeviceDataGraphFeaturesARM){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .dataGraph = VK_TRUE,
      .dataGraphUpdateAfterBind = tf.descriptorBindingStorageTensorUpdateAfterBind,
      .dataGraphSpecializationConstants = VK_TRUE,
      .dataGraphDescriptorBuffer = dg_descriptor_buffer_available(instance, physical_device),
      .dataGraphShaderModule = VK_TRUE,
   };
}
