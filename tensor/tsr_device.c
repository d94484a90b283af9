/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Device creation for the tensor layer: decides whether this device is
 * emulated (VK_ARM_tensors enabled by the application and not native below),
 * checks that the device can host the emulation and that the requested tensor
 * features are ones we offer, and creates the device below with a rewritten
 * copy of the create info (our extension and structs removed, the underlying
 * features the emulation uses turned on, bufferDeviceAddressCaptureReplay only
 * for descriptor-buffer capture/replay). Tensor objects live elsewhere.
 */
#include "tsr_uab.h"

static const char *const tsr_extension_names[] = {VK_ARM_TENSORS_EXTENSION_NAME};

/* Reports the first requested feature we do not offer, or NULL. */
static const char *
unsupported_feature(const VkPhysicalDeviceTensorFeaturesARM *want,
                    const VkPhysicalDeviceTensorFeaturesARM *have)
{
#define CHECK(f)                                                                                   \
   if (want->f && !have->f)                                                                        \
      return #f;
   CHECK(tensorNonPacked)
   CHECK(shaderTensorAccess)
   CHECK(shaderStorageTensorArrayDynamicIndexing)
   CHECK(shaderStorageTensorArrayNonUniformIndexing)
   CHECK(descriptorBindingStorageTensorUpdateAfterBind)
   CHECK(tensors)
#undef CHECK
   return NULL;
}

/* Whether the application enabled VK_EXT_descriptor_buffer's descriptorBufferCaptureReplay
 * (the extension itself is checked by the caller). */
static bool
wants_descriptor_capture_replay(const VkDeviceCreateInfo *info)
{
   const VkPhysicalDeviceDescriptorBufferFeaturesEXT *db = lyr_find_struct(
      info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT);
   return db && db->descriptorBufferCaptureReplay;
}

/* The device-level state of the emulation, in the order it is torn down. */
static VkResult
emulation_init(struct tsr_device *device, const struct tsr_caps *caps, bool uab)
{
   struct lyr_instance *instance = device->base.instance;
   VkPhysicalDeviceProperties props;
   device->caps = *caps;
   instance->next.GetPhysicalDeviceProperties(device->base.physical_device, &props);
   device->limits = props.limits;
   instance->next.GetPhysicalDeviceMemoryProperties(device->base.physical_device,
                                                    &device->memory_properties);
   VkResult result;
   if ((result = tsr_memory_init(device)) != VK_SUCCESS)
      return result;
   if ((result = tsr_record_pool_init(device)) != VK_SUCCESS)
      goto fail_records;
   if ((result = tsr_descriptor_init(device)) != VK_SUCCESS)
      goto fail_descriptors;
   if ((result = tsr_image_init(device)) != VK_SUCCESS)
      goto fail_images;
   if ((result = tsr_shader_init(device)) != VK_SUCCESS)
      goto fail_shaders;
   if ((result = tsr_copy_init(device)) != VK_SUCCESS)
      goto fail_copy;
   if (uab && (result = tsr_uab_init(device)) != VK_SUCCESS)
      goto fail_uab;
   return VK_SUCCESS;

fail_uab:
   tsr_copy_finish(device);
fail_copy:
   tsr_shader_finish(device);
fail_shaders:
   tsr_image_finish(device);
fail_images:
   tsr_descriptor_finish(device);
fail_descriptors:
   tsr_record_pool_finish(device);
fail_records:
   return result;
}

static void
emulation_finish(struct tsr_device *device)
{
   tsr_uab_finish(device);
   tsr_copy_finish(device);
   tsr_shader_finish(device);
   tsr_image_finish(device);
   tsr_descriptor_finish(device);
   tsr_record_pool_finish(device);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
                 const VkAllocationCallbacks *pAllocator, VkDevice *pDevice)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   if (!instance)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: unknown physical device");

   struct tsr_caps caps;
   tsr_query_caps(instance, physicalDevice, &caps);
   bool enabled = lyr_name_in_list(VK_ARM_TENSORS_EXTENSION_NAME,
                                   pCreateInfo->ppEnabledExtensionNames,
                                   pCreateInfo->enabledExtensionCount);
   bool emulate = enabled && !caps.native;
   bool db_tensors = false; /* descriptorBufferTensorDescriptors enabled */

   if (emulate) {
      if (!caps.can_emulate)
         return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT, "cannot enable %s: %s",
                          VK_ARM_TENSORS_EXTENSION_NAME, caps.why_not);
      const VkPhysicalDeviceTensorFeaturesARM *want = lyr_find_struct(
         pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
      const char *missing = want ? unsupported_feature(want, &caps.features) : NULL;
      if (missing)
         return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                          "VkPhysicalDeviceTensorFeaturesARM::%s requested but not supported on "
                          "this device",
                          missing);
      VkResult check = tsr_descriptor_buffer_check_device(pCreateInfo, &caps, &db_tensors);
      if (check != VK_SUCCESS)
         return check;
   }

   struct lyr_device *device;
   VkResult result;
   if (!emulate && (caps.native || !lyr_chain_has_arm_ml(pCreateInfo->pNext))) {
      result = lyr_device_create(physicalDevice, pCreateInfo, pAllocator, pDevice,
                                 sizeof(struct tsr_device), &device);
      return result;
   }

   /* The underlying features the emulation uses; the descriptor-indexing ones
    * only when the application asks for the tensor features built on them. */
   struct lyr_feature_request request = {0};
   bool descriptor_buffer = false;
   bool capture_replay = false;
   if (emulate) {
      const VkPhysicalDeviceTensorFeaturesARM *want = lyr_find_struct(
         pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
      descriptor_buffer = lyr_name_in_list(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME,
                                           pCreateInfo->ppEnabledExtensionNames,
                                           pCreateInfo->enabledExtensionCount);
      capture_replay = descriptor_buffer && wants_descriptor_capture_replay(pCreateInfo) &&
                       caps.device_features.buffer_device_address_capture_replay;
      request = caps.device_features;
      /* Tensor buffers are CAPTURE_REPLAY buffers only for capture/replay. */
      request.buffer_device_address_capture_replay = capture_replay;
      /* Update-after-bind of tensor bindings: the driver's storage buffers',
       * unless emulated (tsr_uab.c). */
      request.storage_buffer_update_after_bind =
         want && want->descriptorBindingStorageTensorUpdateAfterBind && !caps.uab_emulated;
      request.storage_buffer_non_uniform_indexing =
         want && want->shaderStorageTensorArrayNonUniformIndexing;
   }
   struct lyr_device_info_copy copy;
   result = lyr_device_info_rewrite(&instance->alloc, pCreateInfo, &request,
                                    tsr_extension_names, LYR_ARRAY_SIZE(tsr_extension_names),
                                    &copy);
   if (result != VK_SUCCESS)
      return result;
   result = lyr_device_create(physicalDevice, &copy.info, pAllocator, pDevice,
                              sizeof(struct tsr_device), &device);
   lyr_device_info_copy_free(&copy);
   if (result != VK_SUCCESS)
      return result;
   device->emulating = emulate;
   if (!emulate)
      return VK_SUCCESS;
   ((struct tsr_device *)device)->descriptor_buffer = descriptor_buffer;
   ((struct tsr_device *)device)->capture_replay = capture_replay;
   ((struct tsr_device *)device)->descriptor_buffer_tensors = db_tensors;
   const VkPhysicalDeviceTensorFeaturesARM *want = lyr_find_struct(
      pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
   bool uab = caps.uab_emulated && want && want->descriptorBindingStorageTensorUpdateAfterBind;
   result = emulation_init((struct tsr_device *)device, &caps, uab);
   if (result != VK_SUCCESS) {
      lyr_device_destroy(*pDevice, pAllocator);
      *pDevice = VK_NULL_HANDLE;
      return result;
   }
   lyr_logi("emulating %s on this device", VK_ARM_TENSORS_EXTENSION_NAME);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
tsr_DestroyDevice(VkDevice _device, const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (device && device->base.emulating)
      emulation_finish(device);
   lyr_device_destroy(_device, pAllocator);
}
