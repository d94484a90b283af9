/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The queries of VK_ARM_data_graph_optical_flow through both layers, the
 * validation layer below (docs/optical-flow.md "Queries and formats", D50):
 * the "OpticalFlow" operation listed on data-graph queue families, its
 * properties, the formats per usage (two-call pattern, VK_INCOMPLETE,
 * refusals), the format-feature bits, image format queries with
 * VkDataGraphOpticalFlowImageFormatInfoARM, and vkCreateImage /
 * vkGetDeviceImageMemoryRequirements with it chained, which the validation
 * layer below must never see. Expected formats are derived from the driver's
 * own storage-image support, read through the same instance.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

#define INPUT VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM
#define OUTPUT VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM
#define HINT VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM
#define COST VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM

/* The documented table (docs/optical-flow.md): format, usages, feature bit. */
static const struct {
   VkFormat format;
   VkDataGraphOpticalFlowImageUsageFlagsARM usage;
   VkFormatFeatureFlags2 feature;
} expected_formats[] = {
   {VK_FORMAT_R8_UNORM, INPUT, VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM},
   {VK_FORMAT_R16_UNORM, INPUT, VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM},
   {VK_FORMAT_R16G16_SFLOAT, OUTPUT | HINT,
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_VECTOR_BIT_ARM},
   {VK_FORMAT_R16_UINT, COST, VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_COST_BIT_ARM},
};
#define N_FORMATS (sizeof(expected_formats) / sizeof(expected_formats[0]))
#define OF_FEATURES                                                                                \
   (VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_IMAGE_BIT_ARM |                                    \
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_VECTOR_BIT_ARM |                                   \
    VK_FORMAT_FEATURE_2_DATA_GRAPH_OPTICAL_FLOW_COST_BIT_ARM)

static bool
driver_storage(struct vku *v, VkFormat format, bool linear)
{
   VkFormatProperties fp;
   vkGetPhysicalDeviceFormatProperties(v->physical_device, format, &fp);
   VkFormatFeatureFlags f = linear ? fp.linearTilingFeatures : fp.optimalTilingFeatures;
   return (f & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT) != 0;
}

/* The first compute family and its optical-flow operation, as listed. */
static bool
find_operation(struct vku *v, uint32_t *family, VkQueueFamilyDataGraphPropertiesARM *of_op,
               VkQueueFamilyDataGraphPropertiesARM *tosa_op)
{
   test_set_context("operation listed");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM dgprops =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)vku_proc(
         v, "vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM");
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &n, NULL);
   VkQueueFamilyProperties fams[8];
   n = n > 8 ? 8 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &n, fams);
   for (uint32_t i = 0; dgprops && i < n; i++) {
      if (!(fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT))
         continue;
      VkQueueFamilyDataGraphPropertiesARM all[4];
      for (unsigned k = 0; k < 4; k++)
         all[k] = (VkQueueFamilyDataGraphPropertiesARM){
            .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM};
      uint32_t count = 4;
      ok(dgprops(v->physical_device, i, &count, all) == VK_SUCCESS, "operations");
      check_eq_u64(count, 3);
      bool found = false;
      for (uint32_t k = 0; k < count; k++) {
         if (all[k].operation.operationType !=
             VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM)
            continue;
         check_str(all[k].operation.name, "OpticalFlow");
         check_eq_u64(all[k].operation.version, 1);
         check_eq_u64(all[k].engine.type,
                      VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM);
         check_eq_u64(all[k].engine.isForeign, VK_FALSE);
         *of_op = all[k];
         found = true;
      }
      ok(found, "family %u lists the optical-flow operation", i);
      *tosa_op = all[0];
      *family = i;
      return found;
   }
   ok(false, "a compute family");
   return false;
}

static void
check_properties(struct vku *v, uint32_t family, const VkQueueFamilyDataGraphPropertiesARM *of_op)
{
   test_set_context("operation properties");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM opprops =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)vku_proc(
         v, "vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM");
   VkPhysicalDeviceProperties dp;
   vkGetPhysicalDeviceProperties(v->physical_device, &dp);
   uint32_t max = dp.limits.maxImageDimension2D < 8192 ? dp.limits.maxImageDimension2D : 8192;
   VkQueueFamilyDataGraphOpticalFlowPropertiesARM p = {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM};
   ok(opprops(v->physical_device, family, of_op, (VkBaseOutStructure *)&p) == VK_SUCCESS,
      "optical-flow properties");
   check_eq_u64(p.sType, VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM);
   check_eq_u64(p.pNext, 0);
   check_eq_u64(p.supportedOutputGridSizes, 0xf); /* 1x1, 2x2, 4x4, 8x8 */
   check_eq_u64(p.supportedHintGridSizes, 0xf);
   check_eq_u64(p.hintSupported, VK_TRUE);
   check_eq_u64(p.costSupported, VK_TRUE);
   check_eq_u64(p.minWidth, 64);
   check_eq_u64(p.minHeight, 64);
   check_eq_u64(p.maxWidth, max);
   check_eq_u64(p.maxHeight, max);
   /* The wrong structure for this operation is refused. */
   VkQueueFamilyDataGraphTOSAPropertiesARM tosa = {
      .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM};
   ok(opprops(v->physical_device, family, of_op, (VkBaseOutStructure *)&tosa) ==
         VK_ERROR_UNKNOWN,
      "a TOSA structure for the optical-flow operation is refused");
}

static void
check_format_list(struct vku *v, uint32_t family, const VkQueueFamilyDataGraphPropertiesARM *of_op,
                  const VkQueueFamilyDataGraphPropertiesARM *tosa_op)
{
   test_set_context("format list");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM get =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM)vku_proc(
         v, "vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM");
   ok(get != NULL, "vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM found");
   if (!get)
      return;
   static const VkDataGraphOpticalFlowImageUsageFlagsARM usages[] = {
      INPUT, OUTPUT, HINT, COST, OUTPUT | HINT, INPUT | COST, INPUT | OUTPUT,
   };
   for (unsigned u = 0; u < sizeof(usages) / sizeof(usages[0]); u++) {
      VkDataGraphOpticalFlowImageFormatInfoARM info = {
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM,
         .usage = usages[u]};
      VkFormat want[N_FORMATS];
      uint32_t want_count = 0;
      for (unsigned f = 0; f < N_FORMATS; f++) {
         if (!(usages[u] & ~expected_formats[f].usage) &&
             driver_storage(v, expected_formats[f].format, false))
            want[want_count++] = expected_formats[f].format;
      }
      uint32_t count = 99;
      ok(get(v->physical_device, family, of_op, &info, &count, NULL) == VK_SUCCESS,
         "usage 0x%x: count", usages[u]);
      check_eq_u64(count, want_count);
      VkDataGraphOpticalFlowImageFormatPropertiesARM props[N_FORMATS + 1];
      for (unsigned k = 0; k <= N_FORMATS; k++)
         props[k] = (VkDataGraphOpticalFlowImageFormatPropertiesARM){
            .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM,
            .format = VK_FORMAT_UNDEFINED};
      count = N_FORMATS + 1;
      ok(get(v->physical_device, family, of_op, &info, &count, props) == VK_SUCCESS,
         "usage 0x%x: formats", usages[u]);
      check_eq_u64(count, want_count);
      for (uint32_t k = 0; k < want_count && k < count; k++) {
         check_eq_u64(props[k].format, want[k]);
         check_eq_u64(props[k].sType,
                      VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM);
      }
      if (want_count == 0)
         continue;
      /* Room for one fewer: VK_INCOMPLETE, and nothing written past the room. */
      props[want_count - 1].format = VK_FORMAT_UNDEFINED;
      count = want_count - 1;
      ok(get(v->physical_device, family, of_op, &info, &count, props) == VK_INCOMPLETE,
         "usage 0x%x: room for %u of %u: VK_INCOMPLETE", usages[u], want_count - 1, want_count);
      check_eq_u64(count, want_count - 1);
      check_eq_u64(props[want_count - 1].format, VK_FORMAT_UNDEFINED);
   }
   test_set_context("format list refusals");
   VkDataGraphOpticalFlowImageFormatInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM, .usage = 0};
   uint32_t count = 7;
   ok(get(v->physical_device, family, of_op, &info, &count, NULL) ==
         VK_ERROR_VALIDATION_FAILED_EXT,
      "usage 0 refused");
   info.usage = 0x10;
   ok(get(v->physical_device, family, of_op, &info, &count, NULL) ==
         VK_ERROR_VALIDATION_FAILED_EXT,
      "unknown usage bit refused");
   info.usage = INPUT;
   ok(get(v->physical_device, family, tosa_op, &info, &count, NULL) ==
         VK_ERROR_VALIDATION_FAILED_EXT,
      "an operation other than OpticalFlow refused (VUID-09965)");
   ok(get(v->physical_device, 1000, of_op, &info, &count, NULL) == VK_ERROR_VALIDATION_FAILED_EXT,
      "a queue family that does not exist refused");
}

static void
check_format_features(struct vku *v)
{
   test_set_context("format features");
   for (unsigned f = 0; f < N_FORMATS; f++) {
      VkFormatProperties3 fp3 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
      VkFormatProperties2 fp2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &fp3};
      vkGetPhysicalDeviceFormatProperties2(v->physical_device, expected_formats[f].format, &fp2);
      bool opt = driver_storage(v, expected_formats[f].format, false);
      bool lin = driver_storage(v, expected_formats[f].format, true);
      check_eq_u64(fp3.optimalTilingFeatures & OF_FEATURES, opt ? expected_formats[f].feature : 0);
      check_eq_u64(fp3.linearTilingFeatures & OF_FEATURES, lin ? expected_formats[f].feature : 0);
      check_eq_u64(fp3.bufferFeatures & OF_FEATURES, 0);
      /* The driver's own bits are still there. */
      check_eq_u64(fp2.formatProperties.optimalTilingFeatures & VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT,
                   opt ? VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT : 0);
   }
   static const VkFormat others[] = {VK_FORMAT_R32_SFLOAT, VK_FORMAT_R8G8B8A8_UNORM,
                                     VK_FORMAT_R16G16_UINT};
   for (unsigned f = 0; f < sizeof(others) / sizeof(others[0]); f++) {
      VkFormatProperties3 fp3 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
      VkFormatProperties2 fp2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &fp3};
      vkGetPhysicalDeviceFormatProperties2(v->physical_device, others[f], &fp2);
      check_eq_u64((fp3.optimalTilingFeatures | fp3.linearTilingFeatures) & OF_FEATURES, 0);
   }
}

static VkResult
image_format(struct vku *v, VkFormat format, VkImageTiling tiling, const void *pnext,
             VkImageFormatProperties *out)
{
   VkPhysicalDeviceImageFormatInfo2 info = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
      .pNext = pnext,
      .format = format,
      .type = VK_IMAGE_TYPE_2D,
      .tiling = tiling,
      .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
   };
   VkImageFormatProperties2 props = {.sType = VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
   VkResult r = vkGetPhysicalDeviceImageFormatProperties2(v->physical_device, &info, &props);
   *out = props.imageFormatProperties;
   return r;
}

static void
check_image_format_info(struct vku *v)
{
   test_set_context("image format info");
   for (unsigned f = 0; f < N_FORMATS; f++) {
      VkFormat format = expected_formats[f].format;
      if (!driver_storage(v, format, false))
         continue;
      VkImageFormatProperties plain, with;
      VkResult r = image_format(v, format, VK_IMAGE_TILING_OPTIMAL, NULL, &plain);
      VkDataGraphOpticalFlowImageFormatInfoARM of = {
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM,
         .usage = expected_formats[f].usage};
      ok(image_format(v, format, VK_IMAGE_TILING_OPTIMAL, &of, &with) == r,
         "format %d: the driver's answer for its usage", format);
      check_eq_u64(with.maxExtent.width, plain.maxExtent.width);
      check_eq_u64(with.maxArrayLayers, plain.maxArrayLayers);
      /* Usage 0: no optical-flow use asked, the driver's answer. */
      of.usage = 0;
      ok(image_format(v, format, VK_IMAGE_TILING_OPTIMAL, &of, &with) == r,
         "format %d: usage 0", format);
      /* A usage the format is not offered for. */
      of.usage = expected_formats[f].usage == INPUT ? COST : INPUT;
      ok(image_format(v, format, VK_IMAGE_TILING_OPTIMAL, &of, &with) ==
            VK_ERROR_FORMAT_NOT_SUPPORTED,
         "format %d: other usage refused", format);
      check_eq_u64(with.maxExtent.width, 0);
      of.usage = 0x20;
      ok(image_format(v, format, VK_IMAGE_TILING_OPTIMAL, &of, &with) ==
            VK_ERROR_FORMAT_NOT_SUPPORTED,
         "format %d: unknown usage bit refused", format);
   }
   VkDataGraphOpticalFlowImageFormatInfoARM of = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM, .usage = INPUT};
   VkImageFormatProperties with;
   ok(image_format(v, VK_FORMAT_R32_SFLOAT, VK_IMAGE_TILING_OPTIMAL, &of, &with) ==
         VK_ERROR_FORMAT_NOT_SUPPORTED,
      "R32_SFLOAT is no optical-flow input");
}

static void
check_create_image(struct vku *v)
{
   test_set_context("vkCreateImage");
   const char *ext[] = {VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_DATA_GRAPH_EXTENSION_NAME};
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .tensors = VK_TRUE};
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .pNext = &tf,
      .dataGraph = VK_TRUE};
   VkDevice device;
   if (!ok(vku_create_device(v, ext, 2, &dgf, &device) == VK_SUCCESS, "device"))
      return;
   VkDataGraphOpticalFlowImageFormatInfoARM of = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM, .usage = INPUT};
   VkImageCreateInfo ici = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .pNext = &of,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = VK_FORMAT_R8_UNORM,
      .extent = {128, 96, 1},
      .mipLevels = 1,
      .arrayLayers = 1,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   if (driver_storage(v, VK_FORMAT_R8_UNORM, false)) {
      VkImage image = VK_NULL_HANDLE;
      ok(vkCreateImage(device, &ici, NULL, &image) == VK_SUCCESS && image, "image created");
      VkMemoryRequirements plain;
      vkGetImageMemoryRequirements(device, image, &plain);
      vkDestroyImage(device, image, NULL);
      VkDeviceImageMemoryRequirements req = {
         .sType = VK_STRUCTURE_TYPE_DEVICE_IMAGE_MEMORY_REQUIREMENTS, .pCreateInfo = &ici};
      VkMemoryRequirements2 mr = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      vkGetDeviceImageMemoryRequirements(device, &req, &mr);
      check_eq_u64(mr.memoryRequirements.size, plain.size);
      ok(plain.size >= 128 * 96, "size %llu", (unsigned long long)plain.size);
   } else {
      ok(true, "R8_UNORM has no storage use here: nothing to create");
   }
   vkDestroyDevice(device, NULL);
}

int
main(void)
{
   struct vku v;
   const char *both[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, both, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   uint32_t family = 0;
   VkQueueFamilyDataGraphPropertiesARM of_op, tosa_op;
   if (find_operation(&v, &family, &of_op, &tosa_op)) {
      check_properties(&v, family, &of_op);
      check_format_list(&v, family, &of_op, &tosa_op);
   }
   check_format_features(&v);
   check_image_format_info(&v);
   check_create_image(&v);
   vku_finish(&v);
   return test_done();
}
