/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What VK_ARM_tensors offers on a physical device: whether it is native below
 * us, whether the device can host the emulation, and the features, limits and
 * format features we report, all derived from the underlying device. The
 * query entry points that return these live in tsr_instance.c.
 */
#include "tsr_uab.h"

#include "vmel_formats.h"

#include <stdio.h>

static uint64_t
min_u64(uint64_t a, uint64_t b)
{
   return a < b ? a : b;
}

static void
derive_properties(struct tsr_caps *caps, const VkPhysicalDeviceLimits *limits,
                  VkDeviceSize max_buffer_size)
{
   VkPhysicalDeviceTensorPropertiesARM *p = &caps->properties;
   /* Tensor data is a storage buffer: a tensor is at most one storage-buffer
    * range (and one buffer). Elements are at least one byte. */
   uint64_t max_size = min_u64(limits->maxStorageBufferRange, max_buffer_size);
   p->maxTensorDimensionCount = TSR_MAX_RANK;
   p->maxTensorSize = max_size;
   p->maxTensorElements = max_size;
   p->maxPerDimensionTensorElements = max_size;
   p->maxTensorStride = (int64_t)max_size;
   /* Shader access: up to 16 consecutive elements, 128 bytes, per instruction. */
   p->maxTensorShaderAccessArrayLength = 16;
   p->maxTensorShaderAccessSize = 128;
   /* Each tensor descriptor is replaced by a read-only storage buffer holding
    * the tensor's metadata record (design.md §4; docs/decisions.md D3 says
    * why not a uniform buffer). */
   p->maxDescriptorSetStorageTensors = limits->maxDescriptorSetStorageBuffers;
   p->maxPerStageDescriptorSetStorageTensors = limits->maxPerStageDescriptorStorageBuffers;
   p->maxDescriptorSetUpdateAfterBindStorageTensors = 0;
   p->maxPerStageDescriptorUpdateAfterBindStorageTensors = 0;
   p->shaderStorageTensorArrayNonUniformIndexingNative = VK_FALSE;
   p->shaderTensorSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT;
}

void
tsr_query_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
               struct tsr_caps *caps)
{
   memset(caps, 0, sizeof(*caps));
   caps->native = lyr_device_extension_below(instance->next.EnumerateDeviceExtensionProperties,
                                             physical_device, VK_ARM_TENSORS_EXTENSION_NAME,
                                             &instance->alloc);

   VkPhysicalDeviceMaintenance4Properties m4 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES,
   };
   VkPhysicalDeviceProperties2 props = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
   };
   caps->api_version = lyr_physical_device_api_version(instance, physical_device);
   if (caps->api_version < VK_API_VERSION_1_3) {
      snprintf(caps->why_not, sizeof(caps->why_not),
               "the device supports Vulkan %u.%u; VK_ARM_tensors emulation needs Vulkan 1.3",
               VK_API_VERSION_MAJOR(caps->api_version), VK_API_VERSION_MINOR(caps->api_version));
      return;
   }
   props.pNext = &m4;
   instance->next.GetPhysicalDeviceProperties2(physical_device, &props);

   lyr_feature_request_from_device(instance->next.GetPhysicalDeviceFeatures2, physical_device,
                                   &caps->device_features);

   if (!caps->device_features.buffer_device_address) {
      snprintf(caps->why_not, sizeof(caps->why_not),
               "the device lacks bufferDeviceAddress, which VK_ARM_tensors emulation needs");
      return;
   }
   caps->can_emulate = true;
   caps->descriptor_buffer =
      lyr_device_extension_below(instance->next.EnumerateDeviceExtensionProperties,
                                 physical_device, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME,
                                 &instance->alloc);
   if (caps->descriptor_buffer)
      tsr_descriptor_buffer_caps(instance, physical_device, caps);
   /* Update-after-bind of tensor bindings: the driver's storage buffers', or
    * emulated (tsr_uab.c, docs/decisions.md D32). */
   tsr_uab_caps(instance, physical_device, caps);

   caps->features = (VkPhysicalDeviceTensorFeaturesARM){
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .tensorNonPacked = VK_TRUE,
      .shaderTensorAccess = VK_TRUE,
      .shaderStorageTensorArrayDynamicIndexing = VK_TRUE,
      .shaderStorageTensorArrayNonUniformIndexing = caps->device_features.storage_buffer_non_uniform_indexing,
      .descriptorBindingStorageTensorUpdateAfterBind = VK_TRUE,
      .tensors = VK_TRUE,
   };
   caps->properties.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM;
   derive_properties(caps, &props.properties.limits, m4.maxBufferSize);
   /* Tensors in vertex and fragment shaders (docs/decisions.md D29): lowered like
    * compute ones; a stage is offered where the device can store from it, since a tensor
    * shader may write (vertexPipelineStoresAndAtomics, fragmentStoresAndAtomics). */
   VkPhysicalDeviceFeatures core;
   instance->next.GetPhysicalDeviceFeatures(physical_device, &core);
   if (core.vertexPipelineStoresAndAtomics)
      caps->properties.shaderTensorSupportedStages |= VK_SHADER_STAGE_VERTEX_BIT;
   if (core.fragmentStoresAndAtomics)
      caps->properties.shaderTensorSupportedStages |= VK_SHADER_STAGE_FRAGMENT_BIT;
   /* Tensor bindings are storage buffers below: in update-after-bind pool
    * layouts they count against the update-after-bind storage-buffer limits;
    * emulated where the driver has no update-after-bind at all, the layouts
    * below are ordinary ones (tsr_uab.c) and the ordinary limits apply. */
   if (caps->uab_emulated && !caps->uab_driver_any) {
      caps->properties.maxDescriptorSetUpdateAfterBindStorageTensors =
         props.properties.limits.maxDescriptorSetStorageBuffers;
      caps->properties.maxPerStageDescriptorUpdateAfterBindStorageTensors =
         props.properties.limits.maxPerStageDescriptorStorageBuffers;
   } else {
      VkPhysicalDeviceVulkan12Properties p12 = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES,
      };
      VkPhysicalDeviceProperties2 props12 = {
         .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
         .pNext = &p12,
      };
      instance->next.GetPhysicalDeviceProperties2(physical_device, &props12);
      caps->properties.maxDescriptorSetUpdateAfterBindStorageTensors =
         p12.maxDescriptorSetUpdateAfterBindStorageBuffers;
      caps->properties.maxPerStageDescriptorUpdateAfterBindStorageTensors =
         p12.maxPerStageDescriptorUpdateAfterBindStorageBuffers;
   }
   /* VK_ARM_tensors requires both update-after-bind limits >= 500000 where the feature is
    * on: a device whose limits fall short (the emulation on a driver without
    * update-after-bind has the ordinary storage-buffer limits) offers it only when
    * VMEL_TENSOR_UPDATE_AFTER_BIND=emulate asks for it anyway. */
   const uint32_t required = 500000;
   bool enough = caps->properties.maxDescriptorSetUpdateAfterBindStorageTensors >= required &&
                 caps->properties.maxPerStageDescriptorUpdateAfterBindStorageTensors >= required;
   caps->features.descriptorBindingStorageTensorUpdateAfterBind = enough || caps->uab_forced;
   if (!enough && caps->uab_forced)
      lyr_logw("descriptorBindingStorageTensorUpdateAfterBind offered as "
               "VMEL_TENSOR_UPDATE_AFTER_BIND=emulate asks, with limits below the 500000 that "
               "VK_ARM_tensors requires (%u per stage, %u per set)",
               caps->properties.maxPerStageDescriptorUpdateAfterBindStorageTensors,
               caps->properties.maxDescriptorSetUpdateAfterBindStorageTensors);
}

bool
tsr_format_is_arm(VkFormat format)
{
   return format == VK_FORMAT_R8_BOOL_ARM ||
          format == VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM ||
          format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM ||
          format == VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM;
}

/* Whether lowered shaders can load and store this element type here. */
static bool
shader_can_access(const struct tsr_caps *caps, VkFormat format)
{
   const struct lyr_feature_request *f = &caps->device_features;
   switch (vmel_tensor_format_size(format)) {
   case 1:
      return f->storage_buffer_8bit_access;
   case 2:
      return f->storage_buffer_16bit_access;
   case 4:
      return true;
   case 8:
      return format == VK_FORMAT_R64_SFLOAT ? f->shader_float64 : f->shader_int64;
   default:
      return false;
   }
}

VkFormatFeatureFlags2
tsr_format_features(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                    const struct tsr_caps *caps, VkFormat format, bool optimal)
{
   if (!caps->can_emulate || vmel_tensor_format_size(format) == 0)
      return 0;
   /* Copies move bytes, so every element type can be transferred. */
   VkFormatFeatureFlags2 features =
      VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
   if (shader_can_access(caps, format))
      features |= VK_FORMAT_FEATURE_2_TENSOR_SHADER_BIT_ARM;
   /* Aliasing: optimal tiling only (linear tensors must not alias images), and
    * only where the device has linear images of that format. */
   if (optimal && !tsr_format_is_arm(format)) {
      VkFormatProperties fp;
      instance->next.GetPhysicalDeviceFormatProperties(physical_device, format, &fp);
      if (fp.linearTilingFeatures & VK_FORMAT_FEATURE_TRANSFER_SRC_BIT)
         features |= VK_FORMAT_FEATURE_2_TENSOR_IMAGE_ALIASING_BIT_ARM;
   }
   return features;
}
