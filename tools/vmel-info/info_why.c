/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * "Why not" (info_why.h): recomputed from the facts the layers decide from, as the
 * application sees them through the enabled layers (they pass core queries through): the
 * device's Vulkan version and core features, the layers listed as tools and their order,
 * extensions and limits. The conditions are those of tensor/tsr_caps.c, graph/dg_caps.c,
 * graph/dg_descriptor_buffer.c and tensor/tsr_uab.c (docs/decisions.md D54): a condition
 * changed there must change here.
 */
#include "info_why.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "info_out.h"
#include "kernel_abi/graph_kernel.h"
#include "vmel_formats.h"

#define TENSOR_LAYER "VK_LAYER_ML_Tensor_Emulation"
#define GRAPH_LAYER "VK_LAYER_ML_Graph_Emulation"
#define MAX_REASONS 64

static struct {
   char item[80];
   char reason[480];
} reasons[MAX_REASONS];
static unsigned reason_count;

static void why(const char *item, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void
why(const char *item, const char *fmt, ...)
{
   if (reason_count == MAX_REASONS)
      return;
   for (unsigned i = 0; i < reason_count; i++)
      if (strcmp(reasons[i].item, item) == 0)
         return; /* the same item of another queue family */
   snprintf(reasons[reason_count].item, sizeof(reasons[0].item), "%s", item);
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(reasons[reason_count].reason, sizeof(reasons[0].reason), fmt, ap);
   va_end(ap);
   reason_count++;
}

/* The facts, as the enabled layers report them. */
struct facts {
   uint32_t api;
   int tensor_layer, graph_layer; /* position in the tool list (0 = closest to the app), -1 */
   bool tensors, graph;
   VkPhysicalDeviceVulkan11Features f11;
   VkPhysicalDeviceVulkan12Features f12;
   VkPhysicalDeviceFeatures2 f2;
};

static void
get_facts(VkPhysicalDevice pd, struct facts *f)
{
   memset(f, 0, sizeof(*f));
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(pd, &props);
   f->api = props.apiVersion;
   f->tensor_layer = f->graph_layer = -1;
   f->tensors = has_extension(pd, VK_ARM_TENSORS_EXTENSION_NAME, NULL);
   f->graph = has_extension(pd, VK_ARM_DATA_GRAPH_EXTENSION_NAME, NULL);
   if (f->api < VK_API_VERSION_1_3)
      return;
   f->f11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
   f->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   f->f12.pNext = &f->f11;
   f->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
   f->f2.pNext = &f->f12;
   vkGetPhysicalDeviceFeatures2(pd, &f->f2);
   /* Each layer lists itself as a tool ahead of those below it. */
   VkPhysicalDeviceToolProperties tools[16];
   uint32_t n = 16;
   for (uint32_t i = 0; i < n; i++)
      tools[i] = (VkPhysicalDeviceToolProperties){
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TOOL_PROPERTIES};
   VkResult r = vkGetPhysicalDeviceToolProperties(pd, &n, tools);
   for (uint32_t i = 0; (r == VK_SUCCESS || r == VK_INCOMPLETE) && i < n; i++) {
      if (strcmp(tools[i].layer, TENSOR_LAYER) == 0 && f->tensor_layer < 0)
         f->tensor_layer = (int)i;
      if (strcmp(tools[i].layer, GRAPH_LAYER) == 0 && f->graph_layer < 0)
         f->graph_layer = (int)i;
   }
}

static void
why_tensors(const struct facts *f, char *out, size_t size)
{
   if (f->api < VK_API_VERSION_1_3)
      snprintf(out, size, "the device supports Vulkan %u.%u; the tensor emulation needs 1.3",
               VK_API_VERSION_MAJOR(f->api), VK_API_VERSION_MINOR(f->api));
   else if (f->tensor_layer < 0)
      snprintf(out, size,
               "%s is not enabled (it is not among the device's tools); enable it, or the meta "
               "layer VK_LAYER_ML_Emulation",
               TENSOR_LAYER);
   else if (!f->f12.bufferDeviceAddress)
      snprintf(out, size, "the device lacks bufferDeviceAddress, which the tensor emulation needs");
   else
      snprintf(out, size, "%s did not offer it; VMEL_TENSOR_SEVERITY=info logs its reason",
               TENSOR_LAYER);
}

static void
why_graph(const struct facts *f, char *out, size_t size)
{
   char below[300];
   if (f->api < VK_API_VERSION_1_3) {
      snprintf(out, size, "the device supports Vulkan %u.%u; the graph emulation needs 1.3",
               VK_API_VERSION_MAJOR(f->api), VK_API_VERSION_MINOR(f->api));
   } else if (f->graph_layer < 0) {
      snprintf(out, size,
               "%s is not enabled (it is not among the device's tools); enable it above %s, or "
               "the meta layer VK_LAYER_ML_Emulation",
               GRAPH_LAYER, TENSOR_LAYER);
   } else if (!f->tensors) {
      why_tensors(f, below, sizeof(below));
      snprintf(out, size, "%s needs VK_ARM_tensors below it, which is not offered: %s",
               GRAPH_LAYER, below);
   } else if (f->tensor_layer < 0) {
      snprintf(out, size,
               "VK_ARM_tensors comes from the driver or another layer, not %s, whose tensor "
               "records the graph kernels read; put %s below %s",
               TENSOR_LAYER, TENSOR_LAYER, GRAPH_LAYER);
   } else if (f->tensor_layer < f->graph_layer) {
      snprintf(out, size,
               "%s is above %s (closer to the application), so nothing below the graph layer "
               "offers VK_ARM_tensors; enable the meta layer VK_LAYER_ML_Emulation, or list "
               "%s first in ppEnabledLayerNames",
               TENSOR_LAYER, GRAPH_LAYER, GRAPH_LAYER);
   } else {
      snprintf(out, size, "%s did not offer it; VMEL_GRAPH_SEVERITY=info logs its reason",
               GRAPH_LAYER);
   }
}

static void
why_extensions(VkPhysicalDevice pd, const struct facts *f)
{
   char r[480];
   if (!f->tensors) {
      why_tensors(f, r, sizeof(r));
      why(VK_ARM_TENSORS_EXTENSION_NAME, "%s", r);
   }
   if (!f->graph) {
      why_graph(f, r, sizeof(r));
      why(VK_ARM_DATA_GRAPH_EXTENSION_NAME, "%s", r);
   }
   if (!has_extension(pd, VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME, NULL))
      why(VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME, "comes with %s%s",
          VK_ARM_DATA_GRAPH_EXTENSION_NAME, f->graph ? "" : ", not offered (above)");
   if (!has_extension(pd, VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME, NULL)) {
      if (f->graph)
         why(VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME,
             "this build of %s does not offer it (docs/status.md, optical flow)", GRAPH_LAYER);
      else
         why(VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME, "needs %s, not offered (above)",
             VK_ARM_DATA_GRAPH_EXTENSION_NAME);
   }
}

/* dataGraphDescriptorBuffer: graph/dg_descriptor_buffer.c's conditions, first unmet. */
static void
why_descriptor_buffer(VkPhysicalDevice pd)
{
   const char *item = "dataGraphDescriptorBuffer";
   if (!has_extension(pd, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, NULL)) {
      why(item, "the device lacks %s", VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
      return;
   }
   if (!has_extension(pd, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, NULL)) {
      why(item, "the device lacks %s", VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME);
      return;
   }
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM};
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT, .pNext = &dbt};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &db};
   vkGetPhysicalDeviceFeatures2(pd, &f2);
   VkPhysicalDevicePushDescriptorPropertiesKHR push = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR};
   VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
      .pNext = &push};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &dbp};
   vkGetPhysicalDeviceProperties2(pd, &p2);
   if (!db.descriptorBuffer)
      why(item, "the device lacks the descriptorBuffer feature");
   else if (!db.descriptorBufferPushDescriptors)
      why(item, "the device lacks descriptorBufferPushDescriptors");
   else if (!dbt.descriptorBufferTensorDescriptors)
      why(item, "descriptorBufferTensorDescriptors is not offered below the graph layer");
   else if (!dbp.bufferlessPushDescriptors)
      why(item, "the device lacks bufferlessPushDescriptors");
   else if (push.maxPushDescriptors < VMEL_GRAPH_MAX_TENSORS)
      why(item, "maxPushDescriptors is %u, below the %u a graph kernel pushes",
          push.maxPushDescriptors, VMEL_GRAPH_MAX_TENSORS);
}

void
info_query_ml_caps(VkPhysicalDevice pd, struct info_ml_caps *caps)
{
   caps->graph_features = (VkPhysicalDeviceDataGraphFeaturesARM){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM};
   caps->tensor_features = (VkPhysicalDeviceTensorFeaturesARM){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .pNext = &caps->graph_features};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &caps->tensor_features};
   vkGetPhysicalDeviceFeatures2(pd, &f2);
   caps->tensor_features.pNext = NULL;
   caps->graph_features.pNext = NULL;
   caps->tensor_properties = (VkPhysicalDeviceTensorPropertiesARM){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &caps->tensor_properties};
   vkGetPhysicalDeviceProperties2(pd, &p2);
   caps->tensor_properties.pNext = NULL;
}

static void
why_features(VkPhysicalDevice pd, const struct facts *f)
{
   struct info_ml_caps caps;
   info_query_ml_caps(pd, &caps);
   const VkPhysicalDeviceTensorFeaturesARM tf = caps.tensor_features;
   const VkPhysicalDeviceDataGraphFeaturesARM dg = caps.graph_features;
   const VkPhysicalDeviceTensorPropertiesARM tp = caps.tensor_properties;
   char uab[400] = "";
   if (f->tensors) {
      if (!tf.shaderStorageTensorArrayNonUniformIndexing)
         why("shaderStorageTensorArrayNonUniformIndexing",
             "the device lacks shaderStorageBufferArrayNonUniformIndexing (tensor bindings are "
             "storage buffers below)");
      if (!tf.descriptorBindingStorageTensorUpdateAfterBind) {
         snprintf(uab, sizeof(uab),
                  "the update-after-bind limits for tensors are %u per stage and %u per set, "
                  "below the 500000 VK_ARM_tensors requires with this feature (the driver's "
                  "storage-buffer limits, or the ordinary ones where the layer emulates "
                  "update-after-bind); VMEL_TENSOR_UPDATE_AFTER_BIND=emulate offers it anyway",
                  tp.maxPerStageDescriptorUpdateAfterBindStorageTensors,
                  tp.maxDescriptorSetUpdateAfterBindStorageTensors);
         why("descriptorBindingStorageTensorUpdateAfterBind", "%s", uab);
      }
      if (!(tp.shaderTensorSupportedStages & VK_SHADER_STAGE_VERTEX_BIT))
         why("shaderTensorSupportedStages VERTEX",
             "the device lacks vertexPipelineStoresAndAtomics (a tensor shader may write)");
      if (!(tp.shaderTensorSupportedStages & VK_SHADER_STAGE_FRAGMENT_BIT))
         why("shaderTensorSupportedStages FRAGMENT",
             "the device lacks fragmentStoresAndAtomics (a tensor shader may write)");
   }
   if (f->graph) {
      if (!dg.dataGraphUpdateAfterBind)
         why("dataGraphUpdateAfterBind", "follows descriptorBindingStorageTensorUpdateAfterBind%s%s",
             uab[0] ? ": " : "", uab);
      if (!dg.dataGraphDescriptorBuffer)
         why_descriptor_buffer(pd);
   }
}

void
info_why_format(VkPhysicalDevice pd, const struct info_format *format, VkFormatFeatureFlags2 l,
                VkFormatFeatureFlags2 o)
{
   struct facts f;
   get_facts(pd, &f);
   if (!f.tensors)
      return;
   char item[80];
   bool arm = format->format == VK_FORMAT_R8_BOOL_ARM ||
              format->format == VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM ||
              format->format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM ||
              format->format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM;
   if (!(l & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM)) {
      snprintf(item, sizeof(item), "%s shader", format->name);
      switch (vmel_tensor_format_size(format->format)) {
      case 1:
         why(item, "the device lacks storageBuffer8BitAccess");
         break;
      case 2:
         why(item, "the device lacks storageBuffer16BitAccess");
         break;
      case 8:
         why(item, "the device lacks %s",
             format->format == VK_FORMAT_R64_SFLOAT ? "shaderFloat64" : "shaderInt64");
         break;
      default:
         why(item, "not offered by %s", TENSOR_LAYER);
         break;
      }
   }
   if (f.graph && !(l & VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM)) {
      snprintf(item, sizeof(item), "%s data graph", format->name);
      if (format->format == VK_FORMAT_R64_SFLOAT)
         why(item, "not a TOSA element type");
      else if (!(l & VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM))
         why(item, "graph kernels need shader access to the format (above)");
      else
         why(item, "not offered by %s", GRAPH_LAYER);
   }
   if (!(o & VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM)) {
      snprintf(item, sizeof(item), "%s image aliasing", format->name);
      if (arm)
         why(item, "an ARM tensor format has no image format to alias");
      else
         why(item, "the device has no linear-tiling image of the format with TRANSFER_SRC");
   }
}

/* TOSA.001000.1's profiles and extensions, and a tensor format each needs in graphs. */
static const struct {
   const char *name;
   VkFormat format;
   const char *format_name;
} tosa_names[] = {
   {"PRO-INT", VK_FORMAT_R8_SINT, "R8_SINT"},
   {"PRO-FP", VK_FORMAT_R16_SFLOAT, "R16_SFLOAT"},
   {"EXT-INT16", VK_FORMAT_R16_SINT, "R16_SINT"},
   {"EXT-BF16", VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, "R16_SFLOAT_FPENCODING_BFLOAT16_ARM"},
   {"EXT-FP8E4M3", VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM,
    "R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM"},
   {"EXT-FP8E5M2", VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM,
    "R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM"},
   {"EXT-FFT", VK_FORMAT_R32_SFLOAT, "R32_SFLOAT"},
   {"EXT-DOUBLEROUND", VK_FORMAT_R32_SINT, "R32_SINT"},
   {"EXT-INEXACTROUND", VK_FORMAT_R32_SINT, "R32_SINT"},
};

static bool
tosa_lists(const VkQueueFamilyDataGraphTOSAPropertiesARM *tosa, const char *name)
{
   for (uint32_t i = 0; i < tosa->profileCount; i++)
      if (strcmp(tosa->pProfiles[i].name, name) == 0)
         return true;
   for (uint32_t i = 0; i < tosa->extensionCount; i++)
      if (strcmp(tosa->pExtensions[i].name, name) == 0)
         return true;
   return false;
}

void
info_why_tosa(VkPhysicalDevice pd, const VkQueueFamilyDataGraphTOSAPropertiesARM *tosa)
{
   if (!tosa)
      return;
   struct facts f;
   get_facts(pd, &f);
   char item[80];
   for (unsigned i = 0; i < sizeof(tosa_names) / sizeof(tosa_names[0]); i++) {
      snprintf(item, sizeof(item), "TOSA %s", tosa_names[i].name);
      if (!tosa_lists(tosa, tosa_names[i].name)) {
         if (f.graph_layer < 0)
            why(item, "the driver's VK_ARM_data_graph does not list it");
         else
            why(item, "this build of %s does not implement it", GRAPH_LAYER);
         continue;
      }
      VkTensorFormatPropertiesARM tfp = {.sType = VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM};
      VkFormatProperties2 fp = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &tfp};
      vkGetPhysicalDeviceFormatProperties2(pd, tosa_names[i].format, &fp);
      if (!(tfp.linearTilingTensorFeatures & VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM))
         why(item,
             "listed, but %s tensors have no TENSOR_DATA_GRAPH format feature here (see that "
             "format), so graphs using them are refused",
             tosa_names[i].format_name);
   }
}

void
info_why_device(VkPhysicalDevice pd)
{
   struct facts f;
   get_facts(pd, &f);
   why_extensions(pd, &f);
   if (f.api >= VK_API_VERSION_1_3)
      why_features(pd, &f);
   if (info_out_json()) {
      info_begin("why_not", NULL);
      for (unsigned i = 0; i < reason_count; i++)
         info_str(reasons[i].item, reasons[i].reason);
      info_end();
   } else {
      info_text("  Why not:%s\n", reason_count ? "" : " everything above is offered");
      for (unsigned i = 0; i < reason_count; i++)
         info_text("    %s: %s\n", reasons[i].item, reasons[i].reason);
   }
   reason_count = 0;
}
