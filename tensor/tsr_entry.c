/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The tensor layer's hook tables (lyr_layer_hooks), from which the exported
 * loader entry points in layers/lyr_entry.c answer.
 */
#include "tsr_private.h"

#define HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}


static const struct lyr_hook tsr_instance_hooks[] = {
      HOOK(CreateInstance, tsr_CreateInstance),
   HOOK(DestroyInstance, tsr_DestroyInstance),
   HOOK(CreateDevice, tsr_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, tsr_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceToolProperties, tsr_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceToolPropertiesEXT, tsr_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceFeatures2, tsr_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, tsr_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceProperties2, tsr_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceProperties2KHR, tsr_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2, tsr_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2KHR, tsr_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceExternalTensorPropertiesARM,
        tsr_GetPhysicalDeviceExternalTensorPropertiesARM),
};

static const struct lyr_hook tsr_device_hooks_always[] = {
   HOOK(DestroyDevice, tsr_DestroyDevice),
};

#undef HOOK

/* Device hooks answered only on devices that emulate VK_ARM_tensors, one
 * table per area (each defined in the area's file). */
static const struct lyr_hook_table *const tsr_device_tables[] = {
   &tsr_tensor_hooks,
   &tsr_view_hooks,
   &tsr_memory_hooks,
   &tsr_descriptor_hooks,
   &tsr_descriptor_buffer_hooks,
   &tsr_barrier_hooks,
   &tsr_copy_hooks,
   &tsr_image_hooks,
   &tsr_shader_hooks,
   &tsr_uab_hooks,
};

static const struct lyr_hook_table tsr_instance_table = LYR_HOOK_TABLE(tsr_instance_hooks);
static const struct lyr_hook_table *const tsr_instance_tables[] = {
   &tsr_instance_table,
   &tsr_image_instance_hooks, /* image format queries with the aliasing usage */
};

/* The capture commands exist only with VK_EXT_descriptor_buffer (spec-facts §1.3);
 * vkGetDescriptorEXT is hooked only where the application enabled it. */
static bool
tsr_device_command_hidden(const void *dev, const char *name)
{
   const struct tsr_device *device = dev;
   if (device->descriptor_buffer)
      return false;
   return strcmp(name, "vkGetTensorOpaqueCaptureDescriptorDataARM") == 0 ||
          strcmp(name, "vkGetTensorViewOpaqueCaptureDescriptorDataARM") == 0 ||
          strcmp(name, "vkGetDescriptorEXT") == 0;
}

const struct lyr_hooks lyr_layer_hooks = {
   .instance = tsr_instance_tables,
   .instance_count = LYR_ARRAY_SIZE(tsr_instance_tables),
   .device_always = LYR_HOOK_TABLE(tsr_device_hooks_always),
   .device_emulated = tsr_device_tables,
   .device_emulated_count = LYR_ARRAY_SIZE(tsr_device_tables),
   .device_command_hidden = tsr_device_command_hidden,
};
