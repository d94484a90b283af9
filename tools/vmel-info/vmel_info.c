/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-info: what the ML emulation layers expose on the Vulkan devices here:
 * extensions, features, limits, tensor format support, queue families,
 * data-graph operations and TOSA profiles, and why anything is missing.
 * It enables VK_LAYER_ML_Graph_Emulation and VK_LAYER_ML_Tensor_Emulation (in
 * that order) unless --layers names others, e.g. --layers VK_LAYER_ML_Emulation.
 * Exit status: 0 when some device offers both VK_ARM_tensors and
 * VK_ARM_data_graph, 1 otherwise.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"
#include "info_optical_flow.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *
yes(VkBool32 b)
{
   return b ? "yes" : "no";
}

static bool
has_extension(VkPhysicalDevice pd, const char *name, uint32_t *version)
{
   uint32_t n = 0;
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
   VkExtensionProperties *props = calloc(n ? n : 1, sizeof(*props));
   if (!props)
      return false;
   vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props);
   bool found = false;
   for (uint32_t i = 0; i < n && !found; i++) {
      if (strcmp(props[i].extensionName, name) == 0) {
         found = true;
         if (version)
            *version = props[i].specVersion;
      }
   }
   free(props);
   return found;
}

static void
print_extensions(VkPhysicalDevice pd)
{
   static const char *const names[] = {
      VK_ARM_TENSORS_EXTENSION_NAME,
      VK_ARM_DATA_GRAPH_EXTENSION_NAME,
      VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME,
      VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME,
   };
   printf("  Extensions:\n");
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
      uint32_t version = 0;
      if (has_extension(pd, names[i], &version))
         printf("    %-42s version %u\n", names[i], version);
      else
         printf("    %-42s not available\n", names[i]);
   }
}

static void
print_features(VkPhysicalDevice pd)
{
   VkPhysicalDeviceDataGraphFeaturesARM dg = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM};
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .pNext = &dg};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(pd, &f2);
   printf("  VkPhysicalDeviceTensorFeaturesARM:\n");
   printf("    tensors                                       %s\n", yes(tf.tensors));
   printf("    tensorNonPacked                               %s\n", yes(tf.tensorNonPacked));
   printf("    shaderTensorAccess                            %s\n", yes(tf.shaderTensorAccess));
   printf("    shaderStorageTensorArrayDynamicIndexing       %s\n",
          yes(tf.shaderStorageTensorArrayDynamicIndexing));
   printf("    shaderStorageTensorArrayNonUniformIndexing    %s\n",
          yes(tf.shaderStorageTensorArrayNonUniformIndexing));
   printf("    descriptorBindingStorageTensorUpdateAfterBind %s\n",
          yes(tf.descriptorBindingStorageTensorUpdateAfterBind));
   printf("  VkPhysicalDeviceDataGraphFeaturesARM:\n");
   printf("    dataGraph                                     %s\n", yes(dg.dataGraph));
   printf("    dataGraphUpdateAfterBind                      %s\n",
          yes(dg.dataGraphUpdateAfterBind));
   printf("    dataGraphSpecializationConstants              %s\n",
          yes(dg.dataGraphSpecializationConstants));
   printf("    dataGraphDescriptorBuffer                     %s\n",
          yes(dg.dataGraphDescriptorBuffer));
   printf("    dataGraphShaderModule                         %s\n", yes(dg.dataGraphShaderModule));
}

static void
print_limits(VkPhysicalDevice pd)
{
   VkPhysicalDeviceTensorPropertiesARM tp = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &tp};
   vkGetPhysicalDeviceProperties2(pd, &p2);
   printf("  VkPhysicalDeviceTensorPropertiesARM:\n");
   printf("    maxTensorDimensionCount                       %u\n", tp.maxTensorDimensionCount);
   printf("    maxTensorElements                             %" PRIu64 "\n", tp.maxTensorElements);
   printf("    maxPerDimensionTensorElements                 %" PRIu64 "\n",
          tp.maxPerDimensionTensorElements);
   printf("    maxTensorStride                               %" PRId64 "\n", tp.maxTensorStride);
   printf("    maxTensorSize                                 %" PRIu64 "\n", tp.maxTensorSize);
   printf("    maxTensorShaderAccessArrayLength              %u\n",
          tp.maxTensorShaderAccessArrayLength);
   printf("    maxTensorShaderAccessSize                     %u\n", tp.maxTensorShaderAccessSize);
   printf("    maxDescriptorSetStorageTensors                %u\n",
          tp.maxDescriptorSetStorageTensors);
   printf("    maxPerStageDescriptorSetStorageTensors        %u\n",
          tp.maxPerStageDescriptorSetStorageTensors);
   printf("    maxDescriptorSetUpdateAfterBindStorageTensors %u\n",
          tp.maxDescriptorSetUpdateAfterBindStorageTensors);
   printf("    maxPerStageDescriptorUpdateAfterBindStorageTensors %u\n",
          tp.maxPerStageDescriptorUpdateAfterBindStorageTensors);
   printf("    shaderTensorSupportedStages                   0x%x\n",
          tp.shaderTensorSupportedStages);
}

static void
print_formats(VkPhysicalDevice pd)
{
   static const struct {
      VkFormat format;
      const char *name;
   } formats[] = {
      {VK_FORMAT_R8_BOOL_ARM, "R8_BOOL_ARM"},
      {VK_FORMAT_R8_UINT, "R8_UINT"},
      {VK_FORMAT_R8_SINT, "R8_SINT"},
      {VK_FORMAT_R16_UINT, "R16_UINT"},
      {VK_FORMAT_R16_SINT, "R16_SINT"},
      {VK_FORMAT_R32_UINT, "R32_UINT"},
      {VK_FORMAT_R32_SINT, "R32_SINT"},
      {VK_FORMAT_R64_UINT, "R64_UINT"},
      {VK_FORMAT_R64_SINT, "R64_SINT"},
      {VK_FORMAT_R16_SFLOAT, "R16_SFLOAT"},
      {VK_FORMAT_R32_SFLOAT, "R32_SFLOAT"},
      {VK_FORMAT_R64_SFLOAT, "R64_SFLOAT"},
      {VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, "R16_SFLOAT_FPENCODING_BFLOAT16_ARM"},
      {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, "R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM"},
      {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, "R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM"},
   };
   printf("  Tensor formats (linear tiling; S=shader T=transfer G=data graph, "
          "optimal adds A=image aliasing):\n");
   for (unsigned i = 0; i < ARRAY_SIZE(formats); i++) {
      VkTensorFormatPropertiesARM tfp = {.sType = VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM};
      VkFormatProperties2 fp = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &tfp};
      vkGetPhysicalDeviceFormatProperties2(pd, formats[i].format, &fp);
      VkFormatFeatureFlags2 l = tfp.linearTilingTensorFeatures;
      VkFormatFeatureFlags2 o = tfp.optimalTilingTensorFeatures;
      printf("    %-38s %c%c%c  optimal %c%c%c%c\n", formats[i].name,
             (l & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM) ? 'S' : '-',
             (l & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) ? 'T' : '-',
             (l & VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM) ? 'G' : '-',
             (o & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM) ? 'S' : '-',
             (o & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) ? 'T' : '-',
             (o & VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM) ? 'G' : '-',
             (o & VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM) ? 'A' : '-');
   }
}

static void
print_tosa(VkPhysicalDevice pd, uint32_t family, const VkQueueFamilyDataGraphPropertiesARM *props,
           PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM get)
{
   VkQueueFamilyDataGraphTOSAPropertiesARM tosa = {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM};
   if (!get || get(pd, family, props, (VkBaseOutStructure *)&tosa) != VK_SUCCESS) {
      printf("        (no TOSA properties)\n");
      return;
   }
   printf("        level: %s\n", tosa.level == VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM ? "8K" : "none");
   for (uint32_t i = 0; i < tosa.profileCount; i++)
      printf("        profile   %-18s quality 0x%x\n", tosa.pProfiles[i].name,
             tosa.pProfiles[i].qualityFlags);
   for (uint32_t i = 0; i < tosa.extensionCount; i++)
      printf("        extension %-18s quality 0x%x\n", tosa.pExtensions[i].name,
             tosa.pExtensions[i].qualityFlags);
}

static void
print_queues(VkInstance instance, VkPhysicalDevice pd)
{
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM get_props =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)vkGetInstanceProcAddr(
         instance, "vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM get_op =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)
         vkGetInstanceProcAddr(instance,
                               "vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM");
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
   VkQueueFamilyProperties *fams = calloc(n ? n : 1, sizeof(*fams));
   if (!fams)
      return;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, fams);
   printf("  Queue families:\n");
   for (uint32_t i = 0; i < n; i++) {
      VkQueueFlags f = fams[i].queueFlags;
      printf("    %u: %u queue(s)%s%s%s%s\n", i, fams[i].queueCount,
             (f & VK_QUEUE_GRAPHICS_BIT) ? " graphics" : "",
             (f & VK_QUEUE_COMPUTE_BIT) ? " compute" : "",
             (f & VK_QUEUE_TRANSFER_BIT) ? " transfer" : "",
             (f & VK_QUEUE_DATA_GRAPH_BIT_ARM) ? " data-graph" : "");
      if (!get_props)
         continue;
      uint32_t count = 0;
      get_props(pd, i, &count, NULL);
      VkQueueFamilyDataGraphPropertiesARM *ops = calloc(count ? count : 1, sizeof(*ops));
      if (!ops)
         continue;
      for (uint32_t j = 0; j < count; j++)
         ops[j].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM;
      get_props(pd, i, &count, ops);
      for (uint32_t j = 0; j < count; j++) {
         printf("      engine %s%s: operation \"%s\" version %u\n",
                ops[j].engine.type == 0 ? "default" : "other",
                ops[j].engine.isForeign ? " (foreign)" : "", ops[j].operation.name,
                ops[j].operation.version);
         if (strncmp(ops[j].operation.name, "TOSA.", 5) == 0)
            print_tosa(pd, i, &ops[j], get_op);
      }
      free(ops);
   }
   free(fams);
}

int
main(int argc, char **argv)
{
   const char *layers[8] = {"VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"};
   uint32_t layer_count = 2;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--layers") == 0 && i + 1 < argc) {
         layer_count = 0;
         char *list = argv[++i];
         for (char *tok = strtok(list, ",:"); tok && layer_count < 8; tok = strtok(NULL, ",:"))
            layers[layer_count++] = tok;
      } else {
         fprintf(stderr,
                 "usage: vmel-info [--layers L1,L2,...]\n"
                 "  Prints what the ML emulation layers expose on each Vulkan device.\n");
         return 2;
      }
   }

   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "vmel-info",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = layer_count,
                               .ppEnabledLayerNames = layers};
   VkInstance instance;
   VkResult r = vkCreateInstance(&ici, NULL, &instance);
   if (r != VK_SUCCESS) {
      fprintf(stderr,
              "vmel-info: vkCreateInstance failed (%d). Are the layers on VK_LAYER_PATH or "
              "installed? Layers asked for:",
              r);
      for (uint32_t i = 0; i < layer_count; i++)
         fprintf(stderr, " %s", layers[i]);
      fprintf(stderr, "\n");
      return 1;
   }
   printf("Layers:");
   for (uint32_t i = 0; i < layer_count; i++)
      printf(" %s", layers[i]);
   printf("\n");

   uint32_t n = 0;
   vkEnumeratePhysicalDevices(instance, &n, NULL);
   VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof(*pds));
   if (!pds)
      return 1;
   vkEnumeratePhysicalDevices(instance, &n, pds);
   bool any = false;
   for (uint32_t i = 0; i < n; i++) {
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(pds[i], &props);
      printf("\nDevice %u: %s (Vulkan %u.%u.%u)\n", i, props.deviceName,
             VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
             VK_API_VERSION_PATCH(props.apiVersion));
      print_extensions(pds[i]);
      bool tensors = has_extension(pds[i], VK_ARM_TENSORS_EXTENSION_NAME, NULL);
      bool graph = has_extension(pds[i], VK_ARM_DATA_GRAPH_EXTENSION_NAME, NULL);
      if (!tensors)
         printf("  VK_ARM_tensors is missing: the device needs Vulkan 1.3 and "
                "bufferDeviceAddress, and VK_LAYER_ML_Tensor_Emulation must be enabled "
                "(VMEL_TENSOR_SEVERITY=info says more)\n");
      if (!graph)
         printf("  VK_ARM_data_graph is missing: VK_LAYER_ML_Graph_Emulation must be enabled "
                "above VK_LAYER_ML_Tensor_Emulation (the log above says why, if it ran)\n");
      if (props.apiVersion >= VK_API_VERSION_1_1) {
         print_features(pds[i]);
         print_limits(pds[i]);
         print_formats(pds[i]);
      }
      print_queues(instance, pds[i]);
      info_print_optical_flow(instance, pds[i]);
      any |= tensors && graph;
   }
   free(pds);
   vkDestroyInstance(instance, NULL);
   return any ? 0 : 1;
}
