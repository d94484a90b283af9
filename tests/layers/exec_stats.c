/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_LAYER_VMEL_test_exec_stats: a test-only layer that gives a device without
 * VK_KHR_pipeline_executable_properties (lavapipe 22.3 and 25) that extension, so that the
 * graph layer's pipeline statistics (VMEL_GRAPH_PIPELINE_STATS, D59) are tested on them. It
 * advertises the extension and its pipelineExecutableInfo feature, hides both from the device
 * below, records each compute pipeline created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR
 * (the flag removed on the way down) and answers the two queries for those pipelines only:
 * one compute executable with four statistics, one of each format, from what reached it
 * ("SPIR-V words" u64: the module's size; "Specialization constants" i64: map entries;
 * "Captured" bool32; "SPIR-V KiB" f64). Statistics of a pipeline created without the flag
 * fail with VK_ERROR_UNKNOWN, so a test sees which pipelines were given it. Where the device
 * below has the extension, everything passes through.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lyr_layer.h"
#include "test_layer.h"

#define LAYER_NAME "VK_LAYER_VMEL_test_exec_stats"
#define EXT_NAME VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME
#define FEATURES_STYPE VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR
#define MAX_RECORDS 4096

static const VkExtensionProperties ext_props[] = {
   {EXT_NAME, VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_SPEC_VERSION},
};

struct record {
   uint64_t handle; /* a VkShaderModule or a VkPipeline, 0: free */
   uint64_t words;  /* modules: the code's size; pipelines: their module's */
   int64_t spec_constants;
   bool captured;
};

struct stats_device {
   struct lyr_device base;
   bool native; /* the device below has the extension: pass through */
   uint32_t subgroup_size;
   pthread_mutex_t lock;
   struct record modules[MAX_RECORDS];
   struct record pipelines[MAX_RECORDS];
};

static struct stats_device *
stats_device_get(VkDevice device)
{
   return (struct stats_device *)lyr_device_get(device);
}

static bool
native(struct lyr_instance *instance, VkPhysicalDevice pd)
{
   return lyr_device_extension_below(instance->next.EnumerateDeviceExtensionProperties, pd,
                                     EXT_NAME, &instance->alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL
stats_EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char *layer, uint32_t *count,
                                         VkExtensionProperties *props)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   return lyr_layer_device_extensions(instance, pd, layer, LAYER_NAME, ext_props, 1,
                                      !native(instance, pd), count, props);
}

static VKAPI_ATTR void VKAPI_CALL
stats_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2 *features)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   instance->next.GetPhysicalDeviceFeatures2(pd, features);
   VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *f =
      (VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR *)lyr_find_struct(
         features->pNext, FEATURES_STYPE);
   if (f && !native(instance, pd))
      f->pipelineExecutableInfo = VK_TRUE;
}

static bool
drop_features(const VkBaseInStructure *s, void *user)
{
   return s->sType == FEATURES_STYPE;
}

static VKAPI_ATTR VkResult VKAPI_CALL
stats_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                   const VkAllocationCallbacks *alloc, VkDevice *pDevice)
{
   struct lyr_instance *instance = lyr_instance_get(pd);
   struct lyr_device *device;
   if (native(instance, pd)) {
      VkResult result = lyr_device_create(pd, info, alloc, pDevice, sizeof(struct stats_device),
                                          &device);
      if (result == VK_SUCCESS)
         ((struct stats_device *)device)->native = true;
      return result;
   }
   static const char *const hidden[] = {EXT_NAME};
   VkResult result = test_layer_create_device_hiding(pd, info, alloc, pDevice, drop_features,
                                                     hidden, 1, sizeof(struct stats_device),
                                                     &device);
   if (result != VK_SUCCESS)
      return result;
   struct stats_device *sd = (struct stats_device *)device;
   pthread_mutex_init(&sd->lock, NULL);
   VkPhysicalDeviceVulkan11Properties p11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &p11};
   instance->next.GetPhysicalDeviceProperties2(pd, &p2);
   sd->subgroup_size = p11.subgroupSize;
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
stats_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
   struct stats_device *sd = stats_device_get(device);
   if (sd && !sd->native)
      pthread_mutex_destroy(&sd->lock);
   lyr_device_destroy(device, alloc);
}

/* The record of handle in table (NULL: none); handle 0 finds a free one. Lock held. */
static struct record *
find_locked(struct record *table, uint64_t handle)
{
   for (uint32_t i = 0; i < MAX_RECORDS; i++) {
      if (table[i].handle == handle)
         return &table[i];
   }
   return NULL;
}

static void
forget(struct stats_device *sd, struct record *table, uint64_t handle)
{
   if (!handle)
      return;
   pthread_mutex_lock(&sd->lock);
   struct record *r = find_locked(table, handle);
   if (r)
      *r = (struct record){0};
   pthread_mutex_unlock(&sd->lock);
}

static VKAPI_ATTR VkResult VKAPI_CALL
stats_CreateShaderModule(VkDevice device, const VkShaderModuleCreateInfo *info,
                         const VkAllocationCallbacks *alloc, VkShaderModule *module)
{
   struct stats_device *sd = stats_device_get(device);
   VkResult result = sd->base.next.CreateShaderModule(device, info, alloc, module);
   if (result != VK_SUCCESS || sd->native)
      return result;
   pthread_mutex_lock(&sd->lock);
   struct record *r = find_locked(sd->modules, 0);
   if (r)
      *r = (struct record){.handle = (uint64_t)*module, .words = info->codeSize / 4};
   pthread_mutex_unlock(&sd->lock);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
stats_DestroyShaderModule(VkDevice device, VkShaderModule module,
                          const VkAllocationCallbacks *alloc)
{
   struct stats_device *sd = stats_device_get(device);
   if (!sd->native)
      forget(sd, sd->modules, (uint64_t)module);
   sd->base.next.DestroyShaderModule(device, module, alloc);
}

static VKAPI_ATTR VkResult VKAPI_CALL
stats_CreateComputePipelines(VkDevice device, VkPipelineCache cache, uint32_t count,
                             const VkComputePipelineCreateInfo *infos,
                             const VkAllocationCallbacks *alloc, VkPipeline *pipelines)
{
   struct stats_device *sd = stats_device_get(device);
   if (sd->native || count > 64)
      return sd->base.next.CreateComputePipelines(device, cache, count, infos, alloc, pipelines);
   VkComputePipelineCreateInfo down[64];
   for (uint32_t i = 0; i < count; i++) {
      down[i] = infos[i];
      down[i].flags &= ~(VkPipelineCreateFlags)VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
   }
   VkResult result = sd->base.next.CreateComputePipelines(device, cache, count, down, alloc,
                                                          pipelines);
   pthread_mutex_lock(&sd->lock);
   for (uint32_t i = 0; i < count; i++) {
      if (pipelines[i] == VK_NULL_HANDLE)
         continue;
      const struct record *m = find_locked(sd->modules, (uint64_t)infos[i].stage.module);
      const VkSpecializationInfo *spec = infos[i].stage.pSpecializationInfo;
      struct record *r = find_locked(sd->pipelines, 0);
      if (r)
         *r = (struct record){
            .handle = (uint64_t)pipelines[i],
            .words = m ? m->words : 0,
            .spec_constants = spec ? spec->mapEntryCount : 0,
            .captured = (infos[i].flags & VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR) != 0,
         };
   }
   pthread_mutex_unlock(&sd->lock);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
stats_DestroyPipeline(VkDevice device, VkPipeline pipeline, const VkAllocationCallbacks *alloc)
{
   struct stats_device *sd = stats_device_get(device);
   if (!sd->native)
      forget(sd, sd->pipelines, (uint64_t)pipeline);
   sd->base.next.DestroyPipeline(device, pipeline, alloc);
}

/* The record of a pipeline (copied), false when the layer created none with that handle. */
static bool
pipeline_record(struct stats_device *sd, VkPipeline pipeline, struct record *out)
{
   pthread_mutex_lock(&sd->lock);
   const struct record *r = pipeline ? find_locked(sd->pipelines, (uint64_t)pipeline) : NULL;
   if (r)
      *out = *r;
   pthread_mutex_unlock(&sd->lock);
   return r != NULL;
}

static VKAPI_ATTR VkResult VKAPI_CALL
stats_GetPipelineExecutablePropertiesKHR(VkDevice device, const VkPipelineInfoKHR *info,
                                         uint32_t *count, VkPipelineExecutablePropertiesKHR *props)
{
   struct stats_device *sd = stats_device_get(device);
   if (sd->native)
      return sd->base.next.GetPipelineExecutablePropertiesKHR(device, info, count, props);
   struct record r;
   if (!pipeline_record(sd, info->pipeline, &r))
      return VK_ERROR_UNKNOWN;
   if (!props) {
      *count = 1;
      return VK_SUCCESS;
   }
   if (*count == 0)
      return VK_INCOMPLETE;
   props[0].stages = VK_SHADER_STAGE_COMPUTE_BIT;
   snprintf(props[0].name, sizeof(props[0].name), "Compute Shader");
   snprintf(props[0].description, sizeof(props[0].description), "test layer %s", LAYER_NAME);
   props[0].subgroupSize = sd->subgroup_size;
   *count = 1;
   return VK_SUCCESS;
}

static void
statistic(VkPipelineExecutableStatisticKHR *s, const char *name,
          VkPipelineExecutableStatisticFormatKHR format, VkPipelineExecutableStatisticValueKHR v)
{
   snprintf(s->name, sizeof(s->name), "%s", name);
   snprintf(s->description, sizeof(s->description), "%s (test layer)", name);
   s->format = format;
   s->value = v;
}

static VKAPI_ATTR VkResult VKAPI_CALL
stats_GetPipelineExecutableStatisticsKHR(VkDevice device, const VkPipelineExecutableInfoKHR *info,
                                         uint32_t *count, VkPipelineExecutableStatisticKHR *stats)
{
   struct stats_device *sd = stats_device_get(device);
   if (sd->native)
      return sd->base.next.GetPipelineExecutableStatisticsKHR(device, info, count, stats);
   struct record r;
   if (!pipeline_record(sd, info->pipeline, &r) || !r.captured || info->executableIndex != 0)
      return VK_ERROR_UNKNOWN;
   if (!stats) {
      *count = 4;
      return VK_SUCCESS;
   }
   VkPipelineExecutableStatisticKHR all[4];
   statistic(&all[0], "SPIR-V words", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR,
             (VkPipelineExecutableStatisticValueKHR){.u64 = r.words});
   statistic(&all[1], "Specialization constants",
             VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR,
             (VkPipelineExecutableStatisticValueKHR){.i64 = r.spec_constants});
   statistic(&all[2], "Captured", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR,
             (VkPipelineExecutableStatisticValueKHR){.b32 = VK_TRUE});
   statistic(&all[3], "SPIR-V KiB", VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_FLOAT64_KHR,
             (VkPipelineExecutableStatisticValueKHR){.f64 = (double)r.words * 4.0 / 1024.0});
   uint32_t n = *count < 4 ? *count : 4;
   for (uint32_t i = 0; i < n; i++) {
      void *next = stats[i].pNext;
      stats[i] = all[i];
      stats[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
      stats[i].pNext = next;
   }
   *count = n;
   return n < 4 ? VK_INCOMPLETE : VK_SUCCESS;
}

static const struct lyr_hook stats_instance_hooks[] = {
   TEST_LAYER_INSTANCE_HOOKS,
   HOOK(CreateDevice, stats_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, stats_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceFeatures2, stats_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, stats_GetPhysicalDeviceFeatures2),
};
static const struct lyr_hook stats_device_hooks[] = {
   HOOK(DestroyDevice, stats_DestroyDevice),
   HOOK(CreateShaderModule, stats_CreateShaderModule),
   HOOK(DestroyShaderModule, stats_DestroyShaderModule),
   HOOK(CreateComputePipelines, stats_CreateComputePipelines),
   HOOK(DestroyPipeline, stats_DestroyPipeline),
   HOOK(GetPipelineExecutablePropertiesKHR, stats_GetPipelineExecutablePropertiesKHR),
   HOOK(GetPipelineExecutableStatisticsKHR, stats_GetPipelineExecutableStatisticsKHR),
};
static const struct lyr_hook_table stats_instance_table = LYR_HOOK_TABLE(stats_instance_hooks);
static const struct lyr_hook_table *const stats_instance_tables[] = {&stats_instance_table};

const struct lyr_hooks lyr_layer_hooks = {
   .instance = stats_instance_tables,
   .instance_count = LYR_ARRAY_SIZE(stats_instance_tables),
   .device_always = LYR_HOOK_TABLE(stats_device_hooks),
};
