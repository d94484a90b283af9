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
 * VK_ARM_data_graph, 1 otherwise. --json prints the same as one JSON document
 * (info_out.c); info_why.c says why something is not offered.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

#include "info_optical_flow.h"
#include "info_out.h"
#include "info_why.h"
#include "vulkan/vulkan_arm_ml.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

bool
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
   info_begin("extensions", "  Extensions:");
   for (unsigned i = 0; i < ARRAY_SIZE(names); i++) {
      uint32_t version = 0;
      bool found = has_extension(pd, names[i], &version);
      if (found)
         info_text("    %-42s version %u\n", names[i], version);
      else
         info_text("    %-42s not available\n", names[i]);
      info_begin(names[i], NULL);
      info_flag("available", found);
      if (found)
         info_num("spec_version", version);
      info_end();
   }
   info_end();
}

static void
print_features(const struct info_ml_caps *caps)
{
   const VkPhysicalDeviceTensorFeaturesARM *tf = &caps->tensor_features;
   const VkPhysicalDeviceDataGraphFeaturesARM *dg = &caps->graph_features;
   info_begin("VkPhysicalDeviceTensorFeaturesARM", "  VkPhysicalDeviceTensorFeaturesARM:");
   info_bool("tensors", tf->tensors);
   info_bool("tensorNonPacked", tf->tensorNonPacked);
   info_bool("shaderTensorAccess", tf->shaderTensorAccess);
   info_bool("shaderStorageTensorArrayDynamicIndexing", tf->shaderStorageTensorArrayDynamicIndexing);
   info_bool("shaderStorageTensorArrayNonUniformIndexing",
             tf->shaderStorageTensorArrayNonUniformIndexing);
   info_bool("descriptorBindingStorageTensorUpdateAfterBind",
             tf->descriptorBindingStorageTensorUpdateAfterBind);
   info_end();
   info_begin("VkPhysicalDeviceDataGraphFeaturesARM", "  VkPhysicalDeviceDataGraphFeaturesARM:");
   info_bool("dataGraph", dg->dataGraph);
   info_bool("dataGraphUpdateAfterBind", dg->dataGraphUpdateAfterBind);
   info_bool("dataGraphSpecializationConstants", dg->dataGraphSpecializationConstants);
   info_bool("dataGraphDescriptorBuffer", dg->dataGraphDescriptorBuffer);
   info_bool("dataGraphShaderModule", dg->dataGraphShaderModule);
   info_end();
}

static void
print_limits(const struct info_ml_caps *caps)
{
   const VkPhysicalDeviceTensorPropertiesARM *tp = &caps->tensor_properties;
   info_begin("VkPhysicalDeviceTensorPropertiesARM", "  VkPhysicalDeviceTensorPropertiesARM:");
   info_uint("maxTensorDimensionCount", tp->maxTensorDimensionCount);
   info_uint("maxTensorElements", tp->maxTensorElements);
   info_uint("maxPerDimensionTensorElements", tp->maxPerDimensionTensorElements);
   info_int("maxTensorStride", tp->maxTensorStride);
   info_uint("maxTensorSize", tp->maxTensorSize);
   info_uint("maxTensorShaderAccessArrayLength", tp->maxTensorShaderAccessArrayLength);
   info_uint("maxTensorShaderAccessSize", tp->maxTensorShaderAccessSize);
   info_uint("maxDescriptorSetStorageTensors", tp->maxDescriptorSetStorageTensors);
   info_uint("maxPerStageDescriptorSetStorageTensors", tp->maxPerStageDescriptorSetStorageTensors);
   info_uint("maxDescriptorSetUpdateAfterBindStorageTensors",
             tp->maxDescriptorSetUpdateAfterBindStorageTensors);
   info_uint("maxPerStageDescriptorUpdateAfterBindStorageTensors",
             tp->maxPerStageDescriptorUpdateAfterBindStorageTensors);
   info_hex("shaderTensorSupportedStages", tp->shaderTensorSupportedStages);
   info_end();
}

static void
print_formats(VkPhysicalDevice pd)
{
   static const struct info_format formats[] = {
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
   info_begin("tensor_formats", "  Tensor formats (linear tiling; S=shader T=transfer G=data "
                                "graph, optimal adds A=image aliasing):");
   for (unsigned i = 0; i < ARRAY_SIZE(formats); i++) {
      VkTensorFormatPropertiesARM tfp = {.sType = VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM};
      VkFormatProperties2 fp = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &tfp};
      vkGetPhysicalDeviceFormatProperties2(pd, formats[i].format, &fp);
      VkFormatFeatureFlags2 l = tfp.linearTilingTensorFeatures;
      VkFormatFeatureFlags2 o = tfp.optimalTilingTensorFeatures;
      info_text("    %-38s %c%c%c  optimal %c%c%c%c\n", formats[i].name,
             (l & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM) ? 'S' : '-',
             (l & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) ? 'T' : '-',
             (l & VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM) ? 'G' : '-',
             (o & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM) ? 'S' : '-',
             (o & VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT) ? 'T' : '-',
             (o & VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM) ? 'G' : '-',
             (o & VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM) ? 'A' : '-');
      info_begin(formats[i].name, NULL);
      info_num("linearTilingTensorFeatures", l);
      info_num("optimalTilingTensorFeatures", o);
      info_end();
      info_why_format(pd, &formats[i], l, o);
   }
   info_end();
}

static void
print_tosa_names(const char *key, const char *label, const VkDataGraphTOSANameQualityARM *names,
                 uint32_t count)
{
   info_begin_list(key, NULL);
   for (uint32_t i = 0; i < count; i++) {
      info_text("        %s %-18s quality 0x%x\n", label, names[i].name, names[i].qualityFlags);
      info_begin(NULL, NULL);
      info_str("name", names[i].name);
      info_num("quality", names[i].qualityFlags);
      info_end();
   }
   info_end();
}

static void
print_tosa(VkPhysicalDevice pd, uint32_t family, const VkQueueFamilyDataGraphPropertiesARM *props,
           PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM get)
{
   VkQueueFamilyDataGraphTOSAPropertiesARM tosa = {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM};
   if (!get || get(pd, family, props, (VkBaseOutStructure *)&tosa) != VK_SUCCESS) {
      info_text("        (no TOSA properties)\n");
      info_why_tosa(pd, NULL);
      return;
   }
   info_begin("tosa", NULL);
   info_text("        level: %s\n",
             tosa.level == VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM ? "8K" : "none");
   info_str("level", tosa.level == VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM ? "8K" : "none");
   print_tosa_names("profiles", "profile  ", tosa.pProfiles, tosa.profileCount);
   print_tosa_names("extensions", "extension", tosa.pExtensions, tosa.extensionCount);
   info_why_tosa(pd, &tosa);
   info_end();
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
   info_begin_list("queue_families", "  Queue families:");
   for (uint32_t i = 0; i < n; i++) {
      VkQueueFlags f = fams[i].queueFlags;
      info_text("    %u: %u queue(s)%s%s%s%s\n", i, fams[i].queueCount,
                (f & VK_QUEUE_GRAPHICS_BIT) ? " graphics" : "",
                (f & VK_QUEUE_COMPUTE_BIT) ? " compute" : "",
                (f & VK_QUEUE_TRANSFER_BIT) ? " transfer" : "",
                (f & VK_QUEUE_DATA_GRAPH_BIT_ARM) ? " data-graph" : "");
      info_begin(NULL, NULL);
      info_num("index", i);
      info_num("queueCount", fams[i].queueCount);
      info_num("queueFlags", f);
      info_begin_list("operations", NULL);
      if (!get_props) {
         info_end();
         info_end();
         continue;
      }
      uint32_t count = 0;
      get_props(pd, i, &count, NULL);
      VkQueueFamilyDataGraphPropertiesARM *ops = calloc(count ? count : 1, sizeof(*ops));
      if (!ops)
         continue;
      for (uint32_t j = 0; j < count; j++)
         ops[j].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM;
      get_props(pd, i, &count, ops);
      for (uint32_t j = 0; j < count; j++) {
         info_text("      engine %s%s: operation \"%s\" version %u\n",
                   ops[j].engine.type == 0 ? "default" : "other",
                   ops[j].engine.isForeign ? " (foreign)" : "", ops[j].operation.name,
                   ops[j].operation.version);
         info_begin(NULL, NULL);
         info_str("engine", ops[j].engine.type == 0 ? "default" : "other");
         info_flag("foreign", ops[j].engine.isForeign);
         info_str("operation", ops[j].operation.name);
         info_num("version", ops[j].operation.version);
         if (strncmp(ops[j].operation.name, "TOSA.", 5) == 0)
            print_tosa(pd, i, &ops[j], get_op);
         info_end();
      }
      free(ops);
      info_end();
      info_end();
   }
   info_end();
   free(fams);
}

static const char usage_text[] =
   "usage: vmel-info [--layers L1,L2,...] [--json]\n"
   "\n"
   "Prints what the ML emulation layers expose on each Vulkan device: extensions,\n"
   "features, limits, tensor format features, queue families, data-graph operations and\n"
   "TOSA profiles; and for each extension, feature, format feature, shader stage and TOSA\n"
   "profile or extension not offered, the missing underlying capability (\"Why not\").\n"
   "Exit status: 0 when some device offers both VK_ARM_tensors and VK_ARM_data_graph, 1\n"
   "otherwise, 2 for a usage error.\n"
   "\n"
   "  --layers L1,L2,...  layers to enable, first closest to the application (default:\n"
   "                      VK_LAYER_ML_Graph_Emulation,VK_LAYER_ML_Tensor_Emulation; the\n"
   "                      meta layer VK_LAYER_ML_Emulation stacks both)\n"
   "  --json              print the same as one JSON document\n"
   "  -h, --help          print this help and exit\n";

static void
print_device(VkInstance instance, uint32_t index, VkPhysicalDevice pd, bool *ok)
{
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(pd, &props);
   info_text("\nDevice %u: %s (Vulkan %u.%u.%u)\n", index, props.deviceName,
             VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion),
             VK_API_VERSION_PATCH(props.apiVersion));
   info_begin(NULL, NULL);
   info_num("index", index);
   info_str("deviceName", props.deviceName);
   info_num("apiVersion", props.apiVersion);
   print_extensions(pd);
   if (props.apiVersion >= VK_API_VERSION_1_1) {
      struct info_ml_caps caps;
      info_query_ml_caps(pd, &caps);
      print_features(&caps);
      print_limits(&caps);
      print_formats(pd);
   }
   print_queues(instance, pd);
   info_print_optical_flow(instance, pd);
   info_why_device(pd);
   info_end();
   *ok |= has_extension(pd, VK_ARM_TENSORS_EXTENSION_NAME, NULL) &&
          has_extension(pd, VK_ARM_DATA_GRAPH_EXTENSION_NAME, NULL);
}

int
main(int argc, char **argv)
{
   const char *layers[8] = {"VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"};
   uint32_t layer_count = 2;
   bool json = false;
   for (int i = 1; i < argc; i++) {
      if (strcmp(argv[i], "--layers") == 0 && i + 1 < argc) {
         layer_count = 0;
         char *list = argv[++i];
         for (char *tok = strtok(list, ",:"); tok && layer_count < 8; tok = strtok(NULL, ",:"))
            layers[layer_count++] = tok;
      } else if (strcmp(argv[i], "--json") == 0) {
         json = true;
      } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
         fputs(usage_text, stdout);
         return 0;
      } else {
         fputs(usage_text, stderr);
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
   info_out_init(json);
   info_text("Layers:");
   for (uint32_t i = 0; i < layer_count; i++)
      info_text(" %s", layers[i]);
   info_text("\n");
   info_begin_list("layers", NULL);
   for (uint32_t i = 0; i < layer_count; i++)
      info_str(NULL, layers[i]);
   info_end();

   uint32_t n = 0;
   vkEnumeratePhysicalDevices(instance, &n, NULL);
   VkPhysicalDevice *pds = calloc(n ? n : 1, sizeof(*pds));
   if (!pds) {
      vkDestroyInstance(instance, NULL);
      return 1;
   }
   vkEnumeratePhysicalDevices(instance, &n, pds);
   bool any = false;
   info_begin_list("devices", NULL);
   for (uint32_t i = 0; i < n; i++)
      print_device(instance, i, pds[i], &any);
   info_end();
   info_out_finish();
   free(pds);
   vkDestroyInstance(instance, NULL);
   return any ? 0 : 1;
}
