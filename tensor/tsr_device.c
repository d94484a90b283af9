/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Device creation for the tensor layer: decides whether this device is
 * emulated (VK_ARM_tensors enabled by the application and not native below),
 * checks that the device can host the emulation and that the requested tensor
 * features are ones we offer, and creates the device below with a rewritten
 * copy of the create info (our extension and structs removed, the underlying
 * features the emulation uses turned on). Tensor objects live elsewhere.
 */
#include "tsr_private.h"

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

static bool
chain_has_arm_ml(const void *chain)
{
   for (const VkBaseInStructure *s = chain; s; s = s->pNext) {
      if (lyr_is_arm_ml_stype(s->sType))
         return true;
   }
   return false;
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
   }

   struct lyr_device *device;
   VkResult result;
   if (!emulate && (caps.native || !chain_has_arm_ml(pCreateInfo->pNext))) {
      result = lyr_device_create(physicalDevice, pCreateInfo, pAllocator, pDevice,
                                 sizeof(struct tsr_device), &device);
      return result;
   }

   struct lyr_feature_request none = {0};
   struct lyr_device_info_copy copy;
   result = lyr_device_info_rewrite(&instance->alloc, pCreateInfo,
                                    emulate ? &caps.device_features : &none,
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
   if (emulate)
      lyr_logi("emulating %s on this device", VK_ARM_TENSORS_EXTENSION_NAME);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
tsr_DestroyDevice(VkDevice device, const VkAllocationCallbacks *pAllocator)
{
   lyr_device_destroy(device, pAllocator);
}
