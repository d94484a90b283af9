/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph layer's hook tables (lyr_layer_hooks), from which the exported
 * loader entry points in layers/lyr_entry.c answer.
 */
#include "dg_runtime.h"
#include "dg_of_caps.h"

#define HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}


static const struct lyr_hook dg_instance_hooks[] = {
      HOOK(CreateInstance, dg_CreateInstance),
   HOOK(DestroyInstance, dg_DestroyInstance),
   HOOK(CreateDevice, dg_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, dg_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceToolProperties, dg_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceToolPropertiesEXT, dg_GetPhysicalDeviceToolProperties),
   HOOK(GetPhysicalDeviceFeatures2, dg_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, dg_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceProperties2, dg_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceProperties2KHR, dg_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2, dg_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceFormatProperties2KHR, dg_GetPhysicalDeviceFormatProperties2),
   HOOK(GetPhysicalDeviceQueueFamilyProperties, dg_GetPhysicalDeviceQueueFamilyProperties),
   HOOK(GetPhysicalDeviceQueueFamilyProperties2, dg_GetPhysicalDeviceQueueFamilyProperties2),
   HOOK(GetPhysicalDeviceQueueFamilyProperties2KHR, dg_GetPhysicalDeviceQueueFamilyProperties2),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM),
   HOOK(GetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM,
        dg_GetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM),
   HOOK(GetPhysicalDeviceImageFormatProperties2, dg_GetPhysicalDeviceImageFormatProperties2),
   HOOK(GetPhysicalDeviceImageFormatProperties2KHR, dg_GetPhysicalDeviceImageFormatProperties2),
};

static const struct lyr_hook dg_device_hooks_always[] = {
   HOOK(DestroyDevice, dg_DestroyDevice),
};

#undef HOOK

static const struct lyr_hook_table dg_instance_table = LYR_HOOK_TABLE(dg_instance_hooks);
static const struct lyr_hook_table *const dg_instance_tables[] = {&dg_instance_table};

/* Device hooks answered only on devices that emulate VK_ARM_data_graph. */
static const struct lyr_hook_table *const dg_device_tables[] = {
   &dg_shader_hooks,
   &dg_layout_hooks,
   &dg_pipeline_hooks,
   &dg_cache_hooks,
   &dg_session_hooks,
   &dg_dispatch_hooks,
   &dg_descriptor_buffer_hooks,
   &dg_of_image_hooks,
};

/* VK_EXT_descriptor_buffer commands exist only where the application enabled it. */
static bool
dg_device_command_hidden(const void *dev, const char *name)
{
   const struct dg_device *device = dev;
   return strcmp(name, "vkCmdSetDescriptorBufferOffsetsEXT") == 0 &&
          !device->base.next.CmdSetDescriptorBufferOffsetsEXT;
}

const struct lyr_hooks lyr_layer_hooks = {
   .instance = dg_instance_tables,
   .instance_count = LYR_ARRAY_SIZE(dg_instance_tables),
   .device_always = LYR_HOOK_TABLE(dg_device_hooks_always),
   .device_emulated = dg_device_tables,
   .device_emulated_count = LYR_ARRAY_SIZE(dg_device_tables),
   .device_command_hidden = dg_device_command_hidden,
};
