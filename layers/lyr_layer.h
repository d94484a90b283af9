/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Instance and device state common to both layers. Each layer's own state
 * embeds these as its first member (struct tsr_device { struct lyr_device
 * base; ... }). The maps from dispatch keys to this state are globals of the
 * lyr library; every layer .so links its own copy, so each layer has its own.
 */
#ifndef LYR_LAYER_H
#define LYR_LAYER_H

#include "lyr.h"

/* Attached to VkInstance (and, by dispatch key, to its VkPhysicalDevices). */
struct lyr_instance {
   VkInstance handle;
   VkAllocationCallbacks alloc;
   uint32_t api_version; /* the application's VkApplicationInfo::apiVersion */
   struct lyr_instance_next next;
};

/* Attached to VkDevice (and, by dispatch key, its queues and command buffers). */
struct lyr_device {
   VkDevice handle;
   VkPhysicalDevice physical_device;
   struct lyr_instance *instance;
   VkAllocationCallbacks alloc;
   struct lyr_device_next next;
   PFN_vkSetDeviceLoaderData set_loader_data;
   /* False when the layer passes everything through for this device (the
    * extension is native below us, or the application did not enable it). */
   bool emulating;
};

/**
 * vkCreateInstance for a layer: walks the link info, creates the instance
 * below, allocates struct_size bytes (a struct whose first member is a
 * struct lyr_instance), loads the next layer's functions and maps the
 * instance. On failure nothing is left behind.
 */
VkResult lyr_instance_create(const VkInstanceCreateInfo *info, const VkAllocationCallbacks *alloc,
                             VkInstance *pInstance, size_t struct_size,
                             struct lyr_instance **out);

/** The layer state of an instance or one of its physical devices, or NULL. */
struct lyr_instance *lyr_instance_get(const void *instance_or_physical_device);

/** vkDestroyInstance for a layer: destroys below, unmaps and frees. */
void lyr_instance_destroy(VkInstance instance, const VkAllocationCallbacks *alloc);

/**
 * vkCreateDevice for a layer. info is what goes down (the application's or a
 * rewritten copy); its loader link info is advanced as the loader protocol
 * requires. Allocates struct_size bytes (first member struct lyr_device).
 */
VkResult lyr_device_create(VkPhysicalDevice physical_device, const VkDeviceCreateInfo *info,
                           const VkAllocationCallbacks *alloc, VkDevice *pDevice,
                           size_t struct_size, struct lyr_device **out);

/** The layer state of a device, queue or command buffer, or NULL. */
struct lyr_device *lyr_device_get(const void *dispatchable);

/** vkDestroyDevice for a layer: destroys below, unmaps and frees. */
void lyr_device_destroy(VkDevice device, const VkAllocationCallbacks *alloc);

/**
 * Creates, through the layer below, a compute pipeline of one of the layer's own kernels
 * (SPIR-V words, entry point "main"); the shader module lives only during the call.
 * *pipeline is VK_NULL_HANDLE on failure.
 */
VkResult lyr_create_compute_pipeline(struct lyr_device *device, const uint32_t *code,
                                     size_t word_count, VkPipelineLayout layout,
                                     const VkSpecializationInfo *spec, VkPipelineCache cache,
                                     VkPipeline *pipeline);
/** lyr_create_compute_pipeline() with VkPipelineCreateFlags (e.g. DESCRIPTOR_BUFFER_BIT_EXT). */
VkResult lyr_create_compute_pipeline_flags(struct lyr_device *device, const uint32_t *code,
                                           size_t word_count, VkPipelineLayout layout,
                                           const VkSpecializationInfo *spec, VkPipelineCache cache,
                                           VkPipelineCreateFlags flags, VkPipeline *pipeline);

/**
 * vkEnumerateDeviceExtensionProperties for a layer: its own list when
 * pLayerName names it, the next layer's answer for another name, and for
 * NULL what is below plus ours (when offer is true).
 */
VkResult lyr_layer_device_extensions(struct lyr_instance *instance,
                                     VkPhysicalDevice physical_device, const char *pLayerName,
                                     const char *own_name, const VkExtensionProperties *ours,
                                     uint32_t our_count, bool offer, uint32_t *pCount,
                                     VkExtensionProperties *pProperties);

/* The next layer's physical-device queries, called with a shadow of the
 * application's output chain without the structs drop leaves out. */
void lyr_next_features2(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                        VkPhysicalDeviceFeatures2 *features, lyr_drop_fn drop);
void lyr_next_properties2(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                          VkPhysicalDeviceProperties2 *properties, lyr_drop_fn drop);
void lyr_next_format_properties2(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                                 VkFormat format, VkFormatProperties2 *properties,
                                 lyr_drop_fn drop);

/** Reads the physical device's Vulkan version (next layer's properties). */
uint32_t lyr_physical_device_api_version(struct lyr_instance *instance,
                                         VkPhysicalDevice physical_device);

#endif /* LYR_LAYER_H */
