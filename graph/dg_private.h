/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The one header every graph-layer .c includes. VK_LAYER_ML_Graph_Emulation
 * implements VK_ARM_data_graph and VK_ARM_data_graph_instruction_set_tosa as
 * a client of VK_ARM_tensors, which a layer below it (the tensor layer) or the
 * driver must provide (design.md §1, §6).
 */
#ifndef DG_PRIVATE_H
#define DG_PRIVATE_H

#define LYR_LOG_THIS_DOMAIN LYR_LOG_GRAPH
#include "lyr_layer.h"
#include "lyr_cmd.h"

#include "dg_cache.h"

#define DG_LAYER_NAME "VK_LAYER_ML_Graph_Emulation"
#define DG_TENSOR_LAYER_NAME "VK_LAYER_ML_Tensor_Emulation"
#define DG_TOSA_SET_NAME "TOSA.001000.1"

/* Attached to VkInstance. */
struct dg_instance {
   struct lyr_instance base;
   bool warned_unavailable; /* the "not offering" warning is logged once */
};

struct dg_set_layout_info;      /* dg_layout.c */
struct dg_pipeline_layout_info; /* dg_layout.c */

/* Attached to VkDevice. */
/* VMEL_GRAPH_CONSTANTS (dg_upload.c). */
enum dg_constants_mode { DG_CONSTANTS_AUTO, DG_CONSTANTS_STAGING, DG_CONSTANTS_DIRECT };

/* The queue the layer uploads graph constants on (dg_upload.c, D46). */
struct dg_upload {
   VkQueue queue; /* VK_NULL_HANDLE: none, constants stay in host-visible memory */
   uint32_t family;
   enum dg_constants_mode mode;
   /* Held by the layer's submission and by every hooked queue command on `queue`. */
   pthread_mutex_t lock;
};

struct dg_device {
   struct lyr_device base;
   struct dg_upload upload;
   /* Shader modules declaring GraphARM, kept here (dg_shader.c): handle -> module. */
   struct lyr_map shader_modules;
   /* Recorded layouts (dg_layout.c): handle -> struct dg_*_layout_info. */
   struct lyr_map set_layouts;
   struct lyr_map pipeline_layouts;
   /* Data-graph pipelines of this device (dg_pipeline.c): handle -> pipeline. */
   struct lyr_map pipelines;
   /* The layer's part of each VkPipelineCache (dg_cache.c): the driver's handle ->
    * struct dg_cache. */
   struct lyr_map pipeline_caches;
   struct dg_cache_device_id cache_id; /* what cache data must match */
   /* The application's compute state per command buffer, and our data-graph
    * bind point (dg_dispatch.c). */
   struct lyr_cmd_tracker cmds;
   VkPhysicalDeviceLimits limits;
   VkPhysicalDeviceType device_type; /* the tiled kernels' tile choice (D44) */
   VkPhysicalDeviceMemoryProperties memory_properties;
   uint32_t max_groups[2]; /* workgroups per dispatch in x and y (VMEL_GRAPH_MAX_GROUPS) */
   /* The descriptor limits the kernels' pipeline layouts must respect
    * (dg_pipeline.c). [0]: layouts without UPDATE_AFTER_BIND_POOL, [1]: all
    * layouts, against the update-after-bind limits (0: not reported). The
    * per-stage storage-buffer limit can be lowered with
    * VMEL_GRAPH_MAX_STORAGE_BUFFERS (tests). */
   struct {
      uint32_t per_stage_storage_buffers;
      uint32_t set_storage_buffers; /* in a whole pipeline layout */
      uint32_t per_stage_resources;
   } descriptor_limits[2];
   uint32_t max_bound_sets;
   /* The alignment of the memory of the layer's own tensors (0: unknown): offsets at which
    * one session tensor may alias another's bytes (dg_plan_caps). */
   uint32_t alias_alignment;
   uint32_t planner;       /* enum dg_planner (VMEL_MEMORY_PLANNER) */
   bool fp16_arith;        /* shaderFloat16: kernels may compute in float16 */
   uint32_t coop;          /* DG_COOP_* shapes of the COOP variants (dg_coop.c, D51) */
   bool int_dot;           /* shaderIntegerDotProduct: the INT_DOT variants (D51) */
   bool subgroup8;         /* compute subgroups of 8 with ballot: the SUBGROUP variants (D55) */
   uint32_t cpu_threads;   /* a CPU device's worker threads (D61; 0: not a CPU device) */
   /* shaderStorageImageExtendedFormats enabled below: optical flow's image kernels (D49) */
   bool of_storage_formats;
   bool optical_flow; /* VK_ARM_data_graph_optical_flow enabled */
   /* dataGraphDescriptorBuffer enabled (dg_descriptor_buffer.c): push descriptors on below. */
   bool descriptor_buffer;
   /* VMEL_GRAPH_PIPELINE_STATS=1 with VK_KHR_pipeline_executable_properties enabled below: the
    * kernels' pipelines capture and log the compiler's statistics (dg_pipeline_stats.c, D59). */
   bool pipeline_stats;
   /* Profiling (VMEL_GRAPH_PROFILING=1, dg_profile.c). */
   bool profiling;
   uint32_t timestamp_bits[32]; /* timestampValidBits per queue family */
   double timestamp_period;     /* ns per timestamp tick */
   pthread_mutex_t profile_lock; /* guards the sessions' slots and this list */
   struct dg_session *profiled_sessions;
};

static inline struct dg_device *
dg_device_get(const void *dispatchable)
{
   return (struct dg_device *)lyr_device_get(dispatchable);
}

#define DG_HOOK(name, fn) {"vk" #name, (PFN_vkVoidFunction)(fn)}

/* A VkShaderModule holding a SPIR-V graph: never reaches the driver. */
struct dg_shader_module {
   uint32_t *words;
   size_t word_count;
};

/** The graph module behind a handle, or NULL for the driver's modules. */
struct dg_shader_module *dg_shader_module_get(struct dg_device *device, VkShaderModule handle);

void dg_shader_init(struct dg_device *device);
void dg_shader_finish(struct dg_device *device);

/* Recorded descriptor set and pipeline layouts (dg_layout.c). */
void dg_layout_init(struct dg_device *device);
void dg_layout_finish(struct dg_device *device);
const struct dg_pipeline_layout_info *dg_pipeline_layout_info_get(struct dg_device *device,
                                                                  VkPipelineLayout layout);
uint32_t dg_pipeline_layout_set_count(const struct dg_pipeline_layout_info *p);
bool dg_pipeline_layout_has_push_constants(const struct dg_pipeline_layout_info *p);
const struct dg_set_layout_info *dg_pipeline_layout_set(const struct dg_pipeline_layout_info *p,
                                                        uint32_t set);
/** The type and descriptor count of a binding of a recorded set layout. */
bool dg_set_layout_binding(const struct dg_set_layout_info *s, uint32_t binding,
                           VkDescriptorType *type, uint32_t *count);
/** The bindings of a recorded set layout ([*count]) and its create flags. */
const VkDescriptorSetLayoutBinding *dg_set_layout_bindings(const struct dg_set_layout_info *s,
                                                           uint32_t *count,
                                                           VkDescriptorSetLayoutCreateFlags *flags);
/** Creates (below us) a set layout identically defined to a recorded one. */
VkResult dg_set_layout_create(struct dg_device *device, const struct dg_set_layout_info *s,
                              VkDescriptorSetLayout *layout);

extern const struct lyr_hook_table dg_shader_hooks; /* dg_shader.c */

/** What this layer can offer on one physical device. */
struct dg_caps {
   bool native;        /* VK_ARM_data_graph is implemented below: pass through */
   bool tensors_below; /* VK_ARM_tensors is implemented below (tensor layer or driver) */
   bool available;     /* we offer VK_ARM_data_graph here */
   char why_not[1024]; /* when !available and !native: what is missing and how to fix it */
   VkPhysicalDeviceDataGraphFeaturesARM features;
};

void dg_query_caps(struct lyr_instance *instance, VkPhysicalDevice physical_device,
                   struct dg_caps *caps);

/** A queue family's flags as the layers below report them, or 0 if the index is out of range. */
VkQueueFlags dg_queue_family_flags(struct lyr_instance *instance,
                                   VkPhysicalDevice physical_device, uint32_t family);

/** True for the sTypes of the data-graph extensions (not VK_ARM_tensors). */
bool dg_is_data_graph_stype(VkStructureType stype);
bool dg_drop_data_graph(const VkBaseInStructure *s, void *user);

/** True if the device extension name is one this layer implements. */
bool dg_is_our_extension(const char *name);

/* Entry points. */
VKAPI_ATTR VkResult VKAPI_CALL dg_CreateInstance(const VkInstanceCreateInfo *pCreateInfo,
                                                 const VkAllocationCallbacks *pAllocator,
                                                 VkInstance *pInstance);
VKAPI_ATTR void VKAPI_CALL dg_DestroyInstance(VkInstance instance,
                                              const VkAllocationCallbacks *pAllocator);
VKAPI_ATTR VkResult VKAPI_CALL dg_EnumerateDeviceExtensionProperties(
   VkPhysicalDevice physicalDevice, const char *pLayerName, uint32_t *pPropertyCount,
   VkExtensionProperties *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL dg_GetPhysicalDeviceToolProperties(
   VkPhysicalDevice physicalDevice, uint32_t *pToolCount,
   VkPhysicalDeviceToolProperties *pToolProperties);
VKAPI_ATTR void VKAPI_CALL dg_GetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                         VkPhysicalDeviceFeatures2 *pFeatures);
VKAPI_ATTR void VKAPI_CALL dg_GetPhysicalDeviceProperties2(
   VkPhysicalDevice physicalDevice, VkPhysicalDeviceProperties2 *pProperties);
VKAPI_ATTR void VKAPI_CALL dg_GetPhysicalDeviceFormatProperties2(
   VkPhysicalDevice physicalDevice, VkFormat format, VkFormatProperties2 *pFormatProperties);
VKAPI_ATTR void VKAPI_CALL dg_GetPhysicalDeviceQueueFamilyProperties(
   VkPhysicalDevice physicalDevice, uint32_t *pCount, VkQueueFamilyProperties *pProperties);
VKAPI_ATTR void VKAPI_CALL dg_GetPhysicalDeviceQueueFamilyProperties2(
   VkPhysicalDevice physicalDevice, uint32_t *pCount, VkQueueFamilyProperties2 *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL dg_GetPhysicalDeviceQueueFamilyDataGraphPropertiesARM(
   VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex, uint32_t *pCount,
   VkQueueFamilyDataGraphPropertiesARM *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL dg_GetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM(
   VkPhysicalDevice physicalDevice, uint32_t queueFamilyIndex,
   const VkQueueFamilyDataGraphPropertiesARM *pQueueFamilyDataGraphProperties,
   VkBaseOutStructure *pProperties);
VKAPI_ATTR void VKAPI_CALL dg_GetPhysicalDeviceQueueFamilyDataGraphProcessingEnginePropertiesARM(
   VkPhysicalDevice physicalDevice,
   const VkPhysicalDeviceQueueFamilyDataGraphProcessingEngineInfoARM *pInfo,
   VkQueueFamilyDataGraphProcessingEnginePropertiesARM *pProperties);
VKAPI_ATTR VkResult VKAPI_CALL dg_CreateDevice(VkPhysicalDevice physicalDevice,
                                               const VkDeviceCreateInfo *pCreateInfo,
                                               const VkAllocationCallbacks *pAllocator,
                                               VkDevice *pDevice);
VKAPI_ATTR void VKAPI_CALL dg_DestroyDevice(VkDevice device,
                                            const VkAllocationCallbacks *pAllocator);

#endif /* DG_PRIVATE_H */
