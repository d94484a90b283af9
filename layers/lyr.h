/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The one header for layer plumbing shared by the tensor and graph layers:
 * dispatch keys and handle maps, loader link-info walking, interface
 * negotiation, hook tables, and the enumeration helpers (extensions, tool
 * properties) that both layers answer the same way. No extension logic here.
 */
#ifndef LYR_H
#define LYR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <vulkan/vulkan.h>
#include <vulkan/vk_layer.h>

#include "vulkan/vulkan_arm_ml.h"

#include "lyr_alloc.h"
#include "lyr_log.h"
#include "lyr_next.h"
#include "lyr_pnext.h"

#define LYR_EXPORT __attribute__((visibility("default")))
#define LYR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- dispatch keys and maps ------------------------------------------ */

/** The loader's dispatch key of a dispatchable handle: the pointer it stores
 *  first. An instance and its physical devices share one key, as do a device,
 *  its queues and its command buffers. */
static inline void *
lyr_dispatch_key(const void *dispatchable)
{
   return *(void *const *)dispatchable;
}

/** A pointer-to-pointer hash map. Lookups take no lock: they read the
 *  current table with atomic loads and check a sequence count that writers
 *  make odd while they change it (retrying, then locking, when a writer ran).
 *  Insert, remove and foreach take the map's mutex. A table outgrown stays
 *  allocated until lyr_map_finish (a lookup may still be reading it); the
 *  tables retired so are smaller, together, than the current one. */
struct lyr_map {
   pthread_mutex_t lock;                /* writers */
   _Atomic(struct lyr_map_table *) table; /* NULL until the first insert */
   _Atomic uint32_t seq;                /* odd while a writer changes the table */
   uint32_t count;                      /* entries (read it under no writer) */
   struct lyr_map_table *retired;       /* outgrown tables, newest first */
};

void lyr_map_init(struct lyr_map *map);
void lyr_map_finish(struct lyr_map *map);
/** Inserts or replaces. Returns false when out of memory. */
bool lyr_map_insert(struct lyr_map *map, const void *key, void *value);
/** The value for key, or NULL. Takes no lock unless writers keep changing the map. */
void *lyr_map_lookup(struct lyr_map *map, const void *key);
/** Removes key; returns its value or NULL. */
void *lyr_map_remove(struct lyr_map *map, const void *key);
/** Calls fn on every entry, holding the map's lock (fn must not use the map). */
void lyr_map_foreach(struct lyr_map *map, void (*fn)(const void *key, void *value, void *user),
                     void *user);

/* ---- loader interface -------------------------------------------------- */

/** The VK_LAYER_LINK_INFO element of an instance chain, or NULL. */
VkLayerInstanceCreateInfo *lyr_instance_link_info(const VkInstanceCreateInfo *info);
/** The VK_LAYER_LINK_INFO element of a device chain, or NULL. */
VkLayerDeviceCreateInfo *lyr_device_link_info(const VkDeviceCreateInfo *info);
/** The loader's vkSetDeviceLoaderData callback from a device chain, or NULL. */
PFN_vkSetDeviceLoaderData lyr_device_loader_data_cb(const VkDeviceCreateInfo *info);

/** Answers the loader's negotiation for interface version 2. */
VkResult lyr_negotiate(VkNegotiateLayerInterface *version, PFN_vkGetInstanceProcAddr gipa,
                       PFN_vkGetDeviceProcAddr gdpa, PFN_GetPhysicalDeviceProcAddr gpdpa);

/** An entry point a layer implements. */
struct lyr_hook {
   const char *name;
   PFN_vkVoidFunction fn;
};

/** Finds name in a hook table (linear; called only while applications look
 *  functions up). Returns NULL when absent. */
PFN_vkVoidFunction lyr_hook_find(const struct lyr_hook *hooks, size_t count, const char *name);

/** A table of hooks; each area of a layer (tensors, descriptors, ...) has one. */
struct lyr_hook_table {
   const struct lyr_hook *hooks;
   size_t count;
};

#define LYR_HOOK_TABLE(array) {(array), LYR_ARRAY_SIZE(array)}

/** A layer's hook tables. Device hooks in "emulated" tables are answered only
 *  for devices the layer emulates on; "always" hooks for every device. */
struct lyr_hooks {
   const struct lyr_hook_table *const *instance; /* instance and physical-device level */
   size_t instance_count;
   struct lyr_hook_table device_always;
   const struct lyr_hook_table *const *device_emulated; /* tables */
   size_t device_emulated_count;
   /* Optional: true when an emulated command must not be given for this
    * device (it belongs to an extension interaction the application did not
    * enable). NULL: every emulated command is given. */
   bool (*device_command_hidden)(const void *device, const char *name);
};

/** Each layer library defines its hook tables under this name; the exported
 *  entry points in lyr_entry.c answer from it. */
extern const struct lyr_hooks lyr_layer_hooks;

PFN_vkVoidFunction lyr_get_instance_proc_addr(const struct lyr_hooks *hooks, VkInstance instance,
                                              const char *name);
PFN_vkVoidFunction lyr_get_device_proc_addr(const struct lyr_hooks *hooks, VkDevice device,
                                            const char *name);
PFN_vkVoidFunction lyr_get_physical_device_proc_addr(const struct lyr_hooks *hooks,
                                                     VkInstance instance, const char *name);

/* ---- enumeration helpers ---------------------------------------------- */

/** Writes a fixed array with the Vulkan two-call pattern (VK_INCOMPLETE when short). */
VkResult lyr_enumerate_fixed(const void *items, uint32_t item_count, size_t item_size,
                             uint32_t *pCount, void *pOut);

/**
 * vkEnumerateDeviceExtensionProperties with pLayerName == NULL: what the
 * layers and driver below report, plus ours (those not already listed).
 */
VkResult lyr_enumerate_device_extensions_appended(
   PFN_vkEnumerateDeviceExtensionProperties next, VkPhysicalDevice physical_device,
   const VkExtensionProperties *ours, uint32_t our_count, const VkAllocationCallbacks *alloc,
   uint32_t *pCount, VkExtensionProperties *pProperties);

/** True if the layers and driver below advertise the device extension. */
bool lyr_device_extension_below(PFN_vkEnumerateDeviceExtensionProperties next,
                                VkPhysicalDevice physical_device, const char *name,
                                const VkAllocationCallbacks *alloc);

/** True when name is in the list. */
bool lyr_name_in_list(const char *name, const char *const *names, uint32_t count);

/** vkGetPhysicalDeviceToolProperties: ours first, then what is below. */
VkResult lyr_tool_properties_prepend(PFN_vkGetPhysicalDeviceToolProperties next,
                                     VkPhysicalDevice physical_device,
                                     const VkPhysicalDeviceToolProperties *ours,
                                     uint32_t *pToolCount,
                                     VkPhysicalDeviceToolProperties *pToolProperties);

/** Fills an application's output struct from ours, keeping its sType and pNext. */
static inline void
lyr_fill_out(void *app_struct, const void *ours, size_t size)
{
   const size_t header = sizeof(VkBaseOutStructure);
   memcpy((char *)app_struct + header, (const char *)ours + header, size - header);
}

/** Copies a string into a fixed char array, truncating and terminating. */
void lyr_copy_name(char *dst, size_t dst_size, const char *src);

#endif /* LYR_H */
