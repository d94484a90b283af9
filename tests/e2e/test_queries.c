/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Every physical-device query both layers answer, with values checked against
 * what the test derives itself from the underlying device (queried through the
 * same instance, via structs our layers pass down untouched): tensor features
 * and properties, data-graph features, tensor format features, queue-family
 * flags, data-graph queue-family properties, TOSA operation properties and
 * processing-engine properties. The driver's own structs in the same chains
 * must still be filled.
 */
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

struct device_facts {
   VkPhysicalDeviceFeatures2 f2;
   VkPhysicalDeviceVulkan11Features f11;
   VkPhysicalDeviceVulkan12Features f12;
   VkPhysicalDeviceProperties2 p2;
   VkPhysicalDeviceVulkan12Properties p12;
   VkPhysicalDeviceVulkan13Properties p13;
};

static void
read_facts(struct vku *v, struct device_facts *d)
{
   memset(d, 0, sizeof(*d));
   d->f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
   d->f11 = (VkPhysicalDeviceVulkan11Features){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &d->f12};
   d->f2 = (VkPhysicalDeviceFeatures2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                       .pNext = &d->f11};
   vkGetPhysicalDeviceFeatures2(v->physical_device, &d->f2);
   d->p12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES;
   d->p13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES;
   d->p13.pNext = &d->p12;
   d->p2 = (VkPhysicalDeviceProperties2){.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                         .pNext = &d->p13};
   vkGetPhysicalDeviceProperties2(v->physical_device, &d->p2);
}

static void
check_features(struct vku *v, const struct device_facts *d)
{
   test_set_context("features");
   /* ARM structs between driver structs: both kinds must be filled. */
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM, .pNext = &f12};
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .pNext = &dgf};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(v->physical_device, &f2);
   check_eq_u64(f12.bufferDeviceAddress, d->f12.bufferDeviceAddress);
   check_eq_u64(f12.timelineSemaphore, d->f12.timelineSemaphore);
   check_eq_u64(f2.features.shaderInt64, d->f2.features.shaderInt64);
   ok(tf.pNext == &dgf && dgf.pNext == &f12 && f12.pNext == NULL, "chain links unchanged");

   check_eq_u64(tf.tensors, VK_TRUE);
   check_eq_u64(tf.tensorNonPacked, VK_TRUE);
   check_eq_u64(tf.shaderTensorAccess, VK_TRUE);
   check_eq_u64(tf.shaderStorageTensorArrayDynamicIndexing, VK_TRUE);
   check_eq_u64(tf.shaderStorageTensorArrayNonUniformIndexing,
                d->f12.shaderStorageBufferArrayNonUniformIndexing);
   /* Native where the device has update-after-bind storage buffers, else emulated
    * (docs/decisions.md D32); offered where the limits reach VK_ARM_tensors' 500000, or
    * when VMEL_TENSOR_UPDATE_AFTER_BIND=emulate asks for it. */
   VkPhysicalDeviceTensorPropertiesARM uab_tp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM};
   VkPhysicalDeviceProperties2 uab_p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                         .pNext = &uab_tp};
   vkGetPhysicalDeviceProperties2(v->physical_device, &uab_p2);
   const char *uab_env = getenv("VMEL_TENSOR_UPDATE_AFTER_BIND");
   bool uab_limits = uab_tp.maxPerStageDescriptorUpdateAfterBindStorageTensors >= 500000 &&
                     uab_tp.maxDescriptorSetUpdateAfterBindStorageTensors >= 500000;
   check_eq_u64(tf.descriptorBindingStorageTensorUpdateAfterBind,
                uab_limits || (uab_env && strcmp(uab_env, "emulate") == 0));

   check_eq_u64(dgf.dataGraph, VK_TRUE);
   check_eq_u64(dgf.dataGraphSpecializationConstants, VK_TRUE);
   check_eq_u64(dgf.dataGraphShaderModule, VK_TRUE);
   /* Offered only with descriptor buffers (docs/decisions.md D23). */
   if (!vku_has_device_extension(v, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME))
      check_eq_u64(dgf.dataGraphDescriptorBuffer, VK_FALSE);
   check_eq_u64(dgf.dataGraphUpdateAfterBind, tf.descriptorBindingStorageTensorUpdateAfterBind);

   /* The KHR alias reaches the same code. */
   PFN_vkGetPhysicalDeviceFeatures2KHR f2khr =
      (PFN_vkGetPhysicalDeviceFeatures2KHR)vku_proc(v, "vkGetPhysicalDeviceFeatures2KHR");
   VkPhysicalDeviceTensorFeaturesARM tf2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM};
   VkPhysicalDeviceFeatures2 f2b = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                    .pNext = &tf2};
   if (f2khr) {
      f2khr(v->physical_device, &f2b);
      check_eq_u64(tf2.tensors, VK_TRUE);
   }
}

static void
check_properties(struct vku *v, const struct device_facts *d)
{
   test_set_context("properties");
   VkPhysicalDeviceVulkan12Properties p12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
   VkPhysicalDeviceTensorPropertiesARM tp = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM, .pNext = &p12};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &tp};
   vkGetPhysicalDeviceProperties2(v->physical_device, &p2);
   const VkPhysicalDeviceLimits *l = &d->p2.properties.limits;
   /* The driver's own struct after ours is still filled by the driver. */
   ok(p12.driverID != 0, "driverID filled");
   check_eq_u64(p12.driverID, d->p12.driverID);
   uint64_t size = l->maxStorageBufferRange < d->p13.maxBufferSize ? l->maxStorageBufferRange
                                                                     : d->p13.maxBufferSize;
   check_eq_u64(tp.maxTensorDimensionCount, 6);
   check_eq_u64(tp.maxTensorSize, size);
   check_eq_u64(tp.maxTensorElements, size);
   check_eq_u64(tp.maxPerDimensionTensorElements, size);
   check_eq_i64(tp.maxTensorStride, (int64_t)size);
   /* Required minimums (limits.adoc). */
   ok(tp.maxTensorElements >= 65536 && tp.maxTensorSize >= 65536 &&
         tp.maxTensorStride >= 65536 && tp.maxPerDimensionTensorElements >= 65536,
      "size limits >= 65536");
   ok(tp.maxTensorShaderAccessArrayLength >= 4, "array length >= 4");
   ok(tp.maxTensorShaderAccessSize >= 4, "access size >= 4");
   check_eq_u64(tp.maxDescriptorSetStorageTensors, l->maxDescriptorSetStorageBuffers);
   check_eq_u64(tp.maxPerStageDescriptorSetStorageTensors,
                l->maxPerStageDescriptorStorageBuffers);
   ok(tp.maxPerStageDescriptorSetStorageTensors >= 16, "per-stage tensors >= 16");
   check_eq_u64(tp.shaderStorageTensorArrayNonUniformIndexingNative, VK_FALSE);
   /* Compute always; vertex and fragment where the device can store from them
    * (docs/decisions.md D29). */
   VkPhysicalDeviceFeatures core;
   vkGetPhysicalDeviceFeatures(v->physical_device, &core);
   check_eq_u64(tp.shaderTensorSupportedStages,
                VK_SHADER_STAGE_COMPUTE_BIT |
                   (core.vertexPipelineStoresAndAtomics ? VK_SHADER_STAGE_VERTEX_BIT : 0) |
                   (core.fragmentStoresAndAtomics ? VK_SHADER_STAGE_FRAGMENT_BIT : 0));
}

struct format_case {
   VkFormat format;
   unsigned size;
   bool tosa;
};

static void
check_formats(struct vku *v, const struct device_facts *d)
{
   test_set_context("formats");
   const struct format_case cases[] = {
      {VK_FORMAT_R8_BOOL_ARM, 1, true},
      {VK_FORMAT_R8_UINT, 1, true},
      {VK_FORMAT_R8_SINT, 1, true},
      {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM, 1, true},
      {VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM, 1, true},
      {VK_FORMAT_R16_UINT, 2, true},
      {VK_FORMAT_R16_SINT, 2, true},
      {VK_FORMAT_R16_SFLOAT, 2, true},
      {VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM, 2, true},
      {VK_FORMAT_R32_UINT, 4, true},
      {VK_FORMAT_R32_SINT, 4, true},
      {VK_FORMAT_R32_SFLOAT, 4, true},
      {VK_FORMAT_R64_UINT, 8, true},
      {VK_FORMAT_R64_SINT, 8, true},
      {VK_FORMAT_R64_SFLOAT, 8, false},
   };
   for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
      const struct format_case *c = &cases[i];
      VkTensorFormatPropertiesARM tfp = {.sType = VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM};
      VkFormatProperties2 fp2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &tfp};
      vkGetPhysicalDeviceFormatProperties2(v->physical_device, c->format, &fp2);

      bool shader;
      switch (c->size) {
      case 1: shader = d->f12.storageBuffer8BitAccess; break;
      case 2: shader = d->f11.storageBuffer16BitAccess; break;
      case 4: shader = true; break;
      default:
         shader = c->format == VK_FORMAT_R64_SFLOAT ? d->f2.features.shaderFloat64
                                                    : d->f2.features.shaderInt64;
      }
      VkFormatFeatureFlags2 want = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT |
                                   VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
      if (shader)
         want |= VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM;
      if (shader && c->tosa)
         want |= VK_FORMAT_FEATURE_2_TENSOR_DATA_GRAPH_BIT_ARM;
      ok(tfp.linearTilingTensorFeatures == want, "format %d linear: 0x%llx, want 0x%llx",
         c->format, (unsigned long long)tfp.linearTilingTensorFeatures,
         (unsigned long long)want);
      VkFormatFeatureFlags2 optimal =
         tfp.optimalTilingTensorFeatures & ~VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM;
      ok(optimal == want, "format %d optimal: 0x%llx, want 0x%llx", c->format,
         (unsigned long long)optimal, (unsigned long long)want);
      ok(!(tfp.linearTilingTensorFeatures & VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM),
         "format %d: no aliasing with linear tensors", c->format);

      if (c->format >= 1000000000) {
         ok(fp2.formatProperties.bufferFeatures == 0 &&
               fp2.formatProperties.optimalTilingFeatures == 0 &&
               fp2.formatProperties.linearTilingFeatures == 0,
            "ARM-only format %d has no image/buffer features", c->format);
      } else {
         VkFormatProperties plain;
         vkGetPhysicalDeviceFormatProperties(v->physical_device, c->format, &plain);
         ok(memcmp(&plain, &fp2.formatProperties, sizeof(plain)) == 0,
            "format %d: driver properties still reported", c->format);
      }
   }
   /* A format tensors cannot hold. */
   VkTensorFormatPropertiesARM tfp = {.sType = VK_STRUCTURE_TYPE_TENSOR_FORMAT_PROPERTIES_ARM,
                                      .optimalTilingTensorFeatures = ~0ull,
                                      .linearTilingTensorFeatures = ~0ull};
   VkFormatProperties2 fp2 = {.sType = VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, .pNext = &tfp};
   vkGetPhysicalDeviceFormatProperties2(v->physical_device, VK_FORMAT_R8G8B8A8_UNORM, &fp2);
   check_eq_u64(tfp.optimalTilingTensorFeatures, 0);
   check_eq_u64(tfp.linearTilingTensorFeatures, 0);
   ok(fp2.formatProperties.optimalTilingFeatures != 0, "RGBA8 image features from the driver");
}

static void
check_queue_families(struct vku *v)
{
   test_set_context("queue families");
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &n, NULL);
   ok(n >= 1 && n <= 8, "family count %u", n);
   VkQueueFamilyProperties fams[8];
   VkQueueFamilyProperties2 fams2[8];
   for (unsigned i = 0; i < 8; i++)
      fams2[i] = (VkQueueFamilyProperties2){.sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_PROPERTIES_2};
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &n, fams);
   uint32_t n2 = n;
   vkGetPhysicalDeviceQueueFamilyProperties2(v->physical_device, &n2, fams2);
   check_eq_u64(n2, n);

   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM dgprops =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)vku_proc(
         v, "vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM opprops =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)vku_proc(
         v, "vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM engprops =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM)vku_proc(
         v, "vkGetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM");
   ok(dgprops && opprops && engprops, "data-graph queue-family functions found");
   if (!dgprops || !opprops || !engprops)
      return;

   unsigned graph_families = 0;
   for (uint32_t i = 0; i < n; i++) {
      bool compute = fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT;
      bool graph = fams[i].queueFlags & VK_QUEUE_DATA_GRAPH_BIT_ARM;
      ok(graph == compute, "family %u: data-graph bit iff compute", i);
      check_eq_u64(fams2[i].queueFamilyProperties.queueFlags, fams[i].queueFlags);
      graph_families += graph;

      uint32_t count = 99;
      ok(dgprops(v->physical_device, i, &count, NULL) == VK_SUCCESS, "count");
      /* Three operations on the default engine: TOSA.001000.1, Arm.MotionEngine.100 (D47)
       * and OpticalFlow (test_of_queries.c checks that one). */
      check_eq_u64(count, compute ? 3 : 0);
      if (!compute)
         continue;
      uint32_t zero = 0;
      VkQueueFamilyDataGraphPropertiesARM all[4];
      for (unsigned k = 0; k < 4; k++)
         all[k] = (VkQueueFamilyDataGraphPropertiesARM){
            .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM};
      VkQueueFamilyDataGraphPropertiesARM props = all[0];
      ok(dgprops(v->physical_device, i, &zero, &props) == VK_INCOMPLETE, "zero room");
      count = 1;
      ok(dgprops(v->physical_device, i, &count, &props) == VK_INCOMPLETE && count == 1,
         "room for one of three: VK_INCOMPLETE");
      count = 4;
      ok(dgprops(v->physical_device, i, &count, all) == VK_SUCCESS && count == 3, "properties");
      for (unsigned k = 0; k < 2; k++) {
         check_eq_u64(all[k].sType, VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM);
         check_eq_u64(all[k].engine.type,
                      VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM);
         check_eq_u64(all[k].engine.isForeign, VK_FALSE);
         check_eq_u64(
            all[k].operation.operationType,
            VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_SPIRV_EXTENDED_INSTRUCTION_SET_ARM);
         check_eq_u64(all[k].operation.version, 0);
      }
      check_str(all[0].operation.name, "TOSA.001000.1");
      check_str(all[1].operation.name, "Arm.MotionEngine.100");
      props = all[0];
      check_str(props.operation.name, "TOSA.001000.1");
      /* The Motion Engine operation has no properties structure: a TOSA one is refused. */
      VkQueueFamilyDataGraphTOSAPropertiesARM not_me = {
         .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM};
      ok(opprops(v->physical_device, i, &all[1], (VkBaseOutStructure *)&not_me) ==
            VK_ERROR_UNKNOWN,
         "no operation properties for Arm.MotionEngine.100");

      VkQueueFamilyDataGraphTOSAPropertiesARM tosa = {
         .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_TOSA_PROPERTIES_ARM};
      ok(opprops(v->physical_device, i, &props, (VkBaseOutStructure *)&tosa) == VK_SUCCESS,
         "TOSA operation properties");
      check_eq_u64(tosa.level, VK_DATA_GRAPH_TOSA_LEVEL_8K_ARM);
      check_eq_u64(tosa.profileCount, 2);
      if (tosa.profileCount == 2 && tosa.pProfiles) {
         check_str(tosa.pProfiles[0].name, "PRO-INT");
         check_str(tosa.pProfiles[1].name, "PRO-FP");
      }
      bool int16 = false, bf16 = false;
      for (uint32_t e = 0; e < tosa.extensionCount && tosa.pExtensions; e++) {
         int16 |= strcmp(tosa.pExtensions[e].name, "EXT-INT16") == 0;
         bf16 |= strcmp(tosa.pExtensions[e].name, "EXT-BF16") == 0;
         ok(tosa.pExtensions[e].qualityFlags != 0, "extension quality set");
      }
      ok(int16 && bf16, "EXT-INT16 and EXT-BF16 listed");

      VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM einfo = {
         .sType =
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_INFO_ARM,
         .queueFamilyIndex = i,
         .engineType = VK_PHYSICAL_DEVICE_DATA_GRAPH_PROCESSING_ENGINE_TYPE_DEFAULT_ARM,
      };
      VkQueueFamilyDataGraphProcessingEnginePropertiesARM eprops = {
         .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROCESSING_ENGINE_PROPERTIES_ARM,
         .foreignSemaphoreHandleTypes = ~0u,
         .foreignMemoryHandleTypes = ~0u,
      };
      engprops(v->physical_device, &einfo, &eprops);
      check_eq_u64(eprops.foreignSemaphoreHandleTypes, 0);
      check_eq_u64(eprops.foreignMemoryHandleTypes, 0);
   }
   ok(graph_families >= 1, "at least one data-graph family");
   uint32_t count = 99;
   ok(dgprops(v->physical_device, n + 5, &count, NULL) == VK_SUCCESS && count == 0,
      "no operations on a family that does not exist");
}

int
main(void)
{
   struct vku v;
   const char *both[] = {VKU_GRAPH, VKU_TENSOR};
   ok(vku_init(&v, both, 2, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   struct device_facts d;
   read_facts(&v, &d);
   check_features(&v, &d);
   check_properties(&v, &d);
   check_formats(&v, &d);
   check_queue_families(&v);
   vku_finish(&v);
   return test_done();
}
