/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Device creation for the graph layer. When the application enables a
 * data-graph extension that is not native below, the graph layer needs
 * VK_ARM_tensors from the layer below: it fails with a message saying how to
 * fix the layer order when that is missing, and otherwise creates the device
 * below with our extensions and structs removed and VK_ARM_tensors (with the
 * tensor features graphs use) enabled in their place.
 */
#include "dg_runtime.h"

#include "dg_coop.h"
#include "dg_pipeline_stats.h"
#include "kernel_abi/gemm_args.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const dg_strip_names[] = {
   VK_ARM_DATA_GRAPH_EXTENSION_NAME,
   VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME,
   VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME,
};

static const char *
requested_graph_extension(const VkDeviceCreateInfo *info)
{
   for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
      if (dg_is_our_extension(info->ppEnabledExtensionNames[i]))
         return info->ppEnabledExtensionNames[i];
   }
   return NULL;
}

static const char *
unsupported_feature(const VkPhysicalDeviceDataGraphFeaturesARM *want,
                    const VkPhysicalDeviceDataGraphFeaturesARM *have)
{
#define CHECK(f)                                                                                   \
   if (want->f && !have->f)                                                                        \
      return #f;
   CHECK(dataGraph)
   CHECK(dataGraphUpdateAfterBind)
   CHECK(dataGraphSpecializationConstants)
   CHECK(dataGraphDescriptorBuffer)
   CHECK(dataGraphShaderModule)
#undef CHECK
   return NULL;
}

static bool
chain_has_data_graph(const void *chain)
{
   const VkBaseInStructure *s = chain;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      if (dg_is_data_graph_stype(s->sType))
         return true;
   }
   return false;
}

/* Whether the device below has shaderStorageImageExtendedFormats: optical flow's kernels load
 * and store the application's R8/R16 frames, RG16F flow and R16UI cost as formatted storage
 * images (graph/of, D49). */
static bool
of_storage_formats(struct lyr_instance *instance, VkPhysicalDevice physical_device)
{
   VkPhysicalDeviceFeatures f = {0};
   instance->next.GetPhysicalDeviceFeatures(physical_device, &f);
   return f.shaderStorageImageExtendedFormats;
}

/* The create info for the layer below: ours removed, VK_ARM_tensors with the
 * features graph kernels use added. tf and names are storage for additions. */
static VkResult
rewrite_for_tensors(struct lyr_instance *instance, VkPhysicalDevice pd,
                    const VkDeviceCreateInfo *app, bool of_formats,
                    struct lyr_device_info_copy *copy, VkPhysicalDeviceTensorFeaturesARM *tf,
                    struct dg_descriptor_buffer_rewrite *db, struct dg_coop_rewrite *coop,
                    struct dg_pipeline_stats_rewrite *stats, const char ***names)
{
   struct lyr_feature_request req = {.shader_storage_image_extended_formats = of_formats};
   VkResult result = lyr_device_info_rewrite(&instance->alloc, app, &req, dg_strip_names,
                                             LYR_ARRAY_SIZE(dg_strip_names), copy);
   if (result != VK_SUCCESS)
      return result;
   /* lyr_device_info_rewrite dropped every ARM struct; the tensor features
    * the application asked for go down again, with what graphs need added. */
   const VkPhysicalDeviceTensorFeaturesARM *app_tf =
      lyr_find_struct(app->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM);
   *tf = app_tf ? *app_tf : (VkPhysicalDeviceTensorFeaturesARM){0};
   tf->sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM;
   tf->pNext = NULL;
   tf->tensors = VK_TRUE;
   tf->shaderTensorAccess = VK_TRUE;
   /* Update-after-bind of graph resources rides on tensor descriptors. */
   const VkPhysicalDeviceDataGraphFeaturesARM *dgf =
      lyr_find_struct(app->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM);
   if (dgf && dgf->dataGraphUpdateAfterBind)
      tf->descriptorBindingStorageTensorUpdateAfterBind = VK_TRUE;
   lyr_chain_append(&copy->info, tf);
   /* Descriptor buffers: tensor descriptors in them, push descriptors (D23). */
   dg_descriptor_buffer_rewrite(app, &copy->info, db);
   /* Cooperative matrices for the COOP kernel variants where the device offers them (D51). */
   dg_coop_rewrite(instance, pd, &copy->info, coop);
   /* The compiler's statistics of the kernels under VMEL_GRAPH_PIPELINE_STATS (D59). */
   dg_pipeline_stats_rewrite(instance, pd, &copy->info, stats);

   uint32_t n = copy->info.enabledExtensionCount;
   *names = NULL;
   bool tensors =
      !lyr_name_in_list(VK_ARM_TENSORS_EXTENSION_NAME, copy->info.ppEnabledExtensionNames, n);
   if (!tensors && !db->push_extension && dg_coop_extra_names(coop, NULL, 0) == 0 &&
       dg_pipeline_stats_extra_names(stats, NULL, 0) == 0)
      return VK_SUCCESS;
   *names = lyr_alloc(&instance->alloc, (n + 3 + DG_COOP_EXT_COUNT) * sizeof(**names), 8,
                      VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!*names) {
      lyr_device_info_copy_free(copy);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   for (uint32_t i = 0; i < n; i++)
      (*names)[i] = copy->info.ppEnabledExtensionNames[i];
   if (tensors)
      (*names)[n++] = VK_ARM_TENSORS_EXTENSION_NAME;
   if (db->push_extension)
      (*names)[n++] = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
   n = dg_coop_extra_names(coop, *names, n);
   n = dg_pipeline_stats_extra_names(stats, *names, n);
   copy->info.ppEnabledExtensionNames = *names;
   copy->info.enabledExtensionCount = n;
   return VK_SUCCESS;
}

/* Reads a positive integer from the environment, or returns fallback. */
static uint32_t
env_u32(const char *name, uint32_t fallback)
{
   const char *v = getenv(name);
   if (!v || !*v)
      return fallback;
   char *end;
   unsigned long n = strtoul(v, &end, 0);
   if (*end || n == 0 || n > fallback) {
      lyr_logw("%s=%s ignored (1..%u)", name, v, fallback);
      return fallback;
   }
   return (uint32_t)n;
}

/* The worker threads of a CPU device (D61): lavapipe runs a dispatch's workgroups on
 * LP_NUM_THREADS threads, by default one per online processor (as other CPU drivers do);
 * at least 1, at most DG_CPU_MAX_THREADS. */
#define DG_CPU_MAX_THREADS 256u
static uint32_t
cpu_threads(void)
{
   long n = sysconf(_SC_NPROCESSORS_ONLN);
   const char *v = getenv("LP_NUM_THREADS");
   if (v && *v) {
      char *end;
      long t = strtol(v, &end, 10);
      if (*end == '\0' && t >= 0)
         n = t; /* 0: lavapipe runs every workgroup on the calling thread */
   }
   return n < 1 ? 1u : n > (long)DG_CPU_MAX_THREADS ? DG_CPU_MAX_THREADS : (uint32_t)n;
}

/* Whether the device below has update-after-bind of any descriptor type. */
static bool
driver_has_update_after_bind(struct dg_device *device)
{
   struct lyr_instance *instance = device->base.instance;
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f12};
   if (!instance->next.GetPhysicalDeviceFeatures2 || instance->api_version < VK_API_VERSION_1_1)
      return true; /* not known: keep the update-after-bind limits */
   instance->next.GetPhysicalDeviceFeatures2(device->base.physical_device, &f2);
   return f12.descriptorBindingUniformBufferUpdateAfterBind ||
          f12.descriptorBindingSampledImageUpdateAfterBind ||
          f12.descriptorBindingStorageImageUpdateAfterBind ||
          f12.descriptorBindingStorageBufferUpdateAfterBind ||
          f12.descriptorBindingUniformTexelBufferUpdateAfterBind ||
          f12.descriptorBindingStorageTexelBufferUpdateAfterBind;
}

/* The limits every kernels' pipeline layout is checked against. Measured on
 * lavapipe (Mesa 22.3): 32 storage buffers per stage, 128 resources per
 * stage, 8 bound sets (docs/decisions.md D19). */
static void
descriptor_limits_init(struct dg_device *device, const VkPhysicalDeviceProperties *props)
{
   const VkPhysicalDeviceLimits *limits = &props->limits;
   struct lyr_instance *instance = device->base.instance;
   VkPhysicalDeviceVulkan12Properties p12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &p12};
   if (instance->next.GetPhysicalDeviceProperties2 && instance->api_version >= VK_API_VERSION_1_1 &&
       props->apiVersion >= VK_API_VERSION_1_2)
      instance->next.GetPhysicalDeviceProperties2(device->base.physical_device, &p2);
   uint32_t storage = env_u32("VMEL_GRAPH_MAX_STORAGE_BUFFERS",
                              limits->maxPerStageDescriptorStorageBuffers);
   device->descriptor_limits[0].per_stage_storage_buffers = storage;
   device->descriptor_limits[0].set_storage_buffers = limits->maxDescriptorSetStorageBuffers;
   device->descriptor_limits[0].per_stage_resources = limits->maxPerStageResources;
   uint32_t uab = p12.maxPerStageDescriptorUpdateAfterBindStorageBuffers;
   device->descriptor_limits[1].per_stage_storage_buffers = uab < storage ? uab : storage;
   device->descriptor_limits[1].set_storage_buffers =
      p12.maxDescriptorSetUpdateAfterBindStorageBuffers;
   device->descriptor_limits[1].per_stage_resources = p12.maxPerStageUpdateAfterBindResources;
   /* Without update-after-bind of any kind below, the tensor layer emulates it
    * for tensor bindings with ordinary layouts (docs/decisions.md D32): the
    * ordinary limits then apply to every layout. */
   if (!driver_has_update_after_bind(device))
      device->descriptor_limits[1] = device->descriptor_limits[0];
   device->max_bound_sets = limits->maxBoundDescriptorSets;
}

/* The largest alignment the device asks of the layer's session tensors, from a small and a
 * large one (*out 0 when it cannot say: no aliases at offsets). Out of memory fails device
 * creation rather than quietly planning without aliases (the value is in cache keys). */
static VkResult
tensor_alias_alignment(struct dg_device *device, uint32_t *out)
{
   static const int64_t sizes[] = {16, INT64_C(1) << 24};
   VkDeviceSize align = 0;
   *out = 0;
   for (uint32_t k = 0; k < LYR_ARRAY_SIZE(sizes); k++) {
      struct dg_shape shape = {.rank = 1, .dim = {sizes[k]}};
      VkTensorARM tensor;
      VkResult result = dg_create_tensor(device, VK_FORMAT_R8_SINT, &shape, &tensor);
      if (result == VK_ERROR_OUT_OF_HOST_MEMORY || result == VK_ERROR_OUT_OF_DEVICE_MEMORY)
         return result;
      if (result != VK_SUCCESS)
         return VK_SUCCESS;
      VkTensorMemoryRequirementsInfoARM ri = {
         .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
         .tensor = tensor,
      };
      VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      device->base.next.GetTensorMemoryRequirementsARM(device->base.handle, &ri, &req);
      device->base.next.DestroyTensorARM(device->base.handle, tensor, &device->base.alloc);
      if (req.memoryRequirements.alignment > align)
         align = req.memoryRequirements.alignment;
   }
   *out = align && align <= (1u << 16) && !(align & (align - 1)) ? (uint32_t)align : 0;
   return VK_SUCCESS;
}

static void
destroy_leftover_pipeline(const void *key, void *value, void *user)
{
   dg_pipeline_destroy(value, NULL);
}

/* The device-level state of the emulation, in the order it is torn down. */
static VkResult
emulation_init(struct dg_device *device)
{
   struct lyr_instance *instance = device->base.instance;
   VkPhysicalDeviceProperties props;
   instance->next.GetPhysicalDeviceProperties(device->base.physical_device, &props);
   device->limits = props.limits;
   device->device_type = props.deviceType;
   instance->next.GetPhysicalDeviceMemoryProperties(device->base.physical_device,
                                                    &device->memory_properties);
   /* VMEL_GRAPH_MAX_GROUPS lowers the workgroups per dispatch dimension, so
    * tests can force dispatch splitting on small tensors. */
   uint32_t max = env_u32("VMEL_GRAPH_MAX_GROUPS", props.limits.maxComputeWorkGroupCount[0]);
   device->max_groups[0] = max;
   uint32_t max_y = props.limits.maxComputeWorkGroupCount[1];
   device->max_groups[1] = max < max_y ? max : max_y;
   descriptor_limits_init(device, &props);
   enum dg_planner planner;
   const char *name = getenv(DG_PLANNER_ENV);
   if (!dg_planner_from_name(name, &planner))
      lyr_logw("%s=%s names no planner (Interval, Linear, BestFit); using %s", DG_PLANNER_ENV,
               name, dg_planner_name(planner));
   device->planner = planner;
   /* The tensor layer below enables every feature it can use, shaderFloat16
    * among them, so what the device supports is what is enabled. */
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f12};
   VkPhysicalDeviceVulkan13Features f13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
   if (props.apiVersion >= VK_API_VERSION_1_3)
      f12.pNext = &f13;
   instance->next.GetPhysicalDeviceFeatures2(device->base.physical_device, &f2);
   device->fp16_arith = f12.shaderFloat16;
   /* shaderIntegerDotProduct, which the tensor layer enables too (lyr_feature_request) */
   device->int_dot = f13.shaderIntegerDotProduct;
   /* The SUBGROUP kernels (D55): subgroups of DG_SG_LANES in compute, with ballot. */
   VkPhysicalDeviceSubgroupProperties sg = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &sg};
   if (instance->next.GetPhysicalDeviceProperties2 && instance->api_version >= VK_API_VERSION_1_1)
      instance->next.GetPhysicalDeviceProperties2(device->base.physical_device, &p2);
   device->subgroup8 = sg.subgroupSize == DG_SG_LANES &&
                       (sg.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) &&
                       (sg.supportedOperations & VK_SUBGROUP_FEATURE_BALLOT_BIT);
   device->cpu_threads = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? cpu_threads() : 0;

   /* VMEL_GRAPH_PROFILING=1: per-stage timestamps (dg_profile.c), on queue
    * families that have them. */
   const char *profiling = getenv("VMEL_GRAPH_PROFILING");
   device->profiling = profiling && strcmp(profiling, "0") != 0 && *profiling;
   device->timestamp_period = props.limits.timestampPeriod;
   VkQueueFamilyProperties families[32];
   uint32_t family_count = 0;
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->base.physical_device,
                                                         &family_count, NULL);
   if (family_count > LYR_ARRAY_SIZE(families))
      family_count = LYR_ARRAY_SIZE(families);
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->base.physical_device,
                                                         &family_count, families);
   for (uint32_t i = 0; i < family_count; i++)
      device->timestamp_bits[i] = families[i].timestampValidBits;
   pthread_mutex_init(&device->profile_lock, NULL);
   device->profiled_sessions = NULL;
   if (device->profiling)
      lyr_logi("VMEL_GRAPH_PROFILING: data-graph dispatches record per-stage timestamps");

   VkResult align_result = tensor_alias_alignment(device, &device->alias_alignment);
   if (align_result != VK_SUCCESS) {
      pthread_mutex_destroy(&device->profile_lock);
      return align_result;
   }
   dg_shader_init(device);
   dg_layout_init(device);
   lyr_map_init(&device->pipelines);
   dg_cache_device_init(device);
   VkResult result = dg_dispatch_init(device);
   if (result != VK_SUCCESS) {
      dg_cache_device_finish(device);
      lyr_map_finish(&device->pipelines);
      dg_layout_finish(device);
      dg_shader_finish(device);
      pthread_mutex_destroy(&device->profile_lock);
   }
   return result;
}

static void
emulation_finish(struct dg_device *device)
{
   dg_upload_finish(device);
   dg_dispatch_finish(device);
   lyr_map_foreach(&device->pipelines, destroy_leftover_pipeline, NULL);
   lyr_map_finish(&device->pipelines);
   dg_cache_device_finish(device);
   dg_layout_finish(device);
   dg_shader_finish(device);
   pthread_mutex_destroy(&device->profile_lock);
}

VKAPI_ATTR VkResult VKAPI_CALL
dg_CreateDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo *pCreateInfo,
                const VkAllocationCallbacks *pAllocator, VkDevice *pDevice)
{
   struct lyr_instance *instance = lyr_instance_get(physicalDevice);
   if (!instance)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "vkCreateDevice: unknown physical device");

   struct dg_caps caps;
   dg_query_caps(instance, physicalDevice, &caps);
   const char *requested = requested_graph_extension(pCreateInfo);
   const bool optical_flow =
      lyr_name_in_list(VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME,
                       pCreateInfo->ppEnabledExtensionNames, pCreateInfo->enabledExtensionCount);
   struct lyr_device *device;

   if (caps.native || (!requested && !chain_has_data_graph(pCreateInfo->pNext)))
      return lyr_device_create(physicalDevice, pCreateInfo, pAllocator, pDevice,
                               sizeof(struct dg_device), &device);
   if (requested && !caps.available)
      return lyr_error(VK_ERROR_EXTENSION_NOT_PRESENT, "cannot enable %s: %s", requested,
                       caps.why_not);
   if (requested) {
      const VkPhysicalDeviceDataGraphFeaturesARM *want = lyr_find_struct(
         pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM);
      const char *missing = want ? unsupported_feature(want, &caps.features) : NULL;
      if (missing)
         return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                          "VkPhysicalDeviceDataGraphFeaturesARM::%s requested but not supported",
                          missing);
      const VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM *want_of = lyr_find_struct(
         pCreateInfo->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM);
      if (want_of && want_of->dataGraphOpticalFlow &&
          !of_storage_formats(instance, physicalDevice))
         return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                          "VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM::dataGraphOpticalFlow "
                          "requested but not supported (the device lacks "
                          "shaderStorageImageExtendedFormats)");
      VkResult db_result = dg_descriptor_buffer_check_device(pCreateInfo);
      if (db_result != VK_SUCCESS)
         return db_result;
   }

   VkResult result;
   struct lyr_device_info_copy copy;
   VkPhysicalDeviceTensorFeaturesARM tf;
   struct dg_descriptor_buffer_rewrite db = {0};
   struct dg_coop_rewrite coop = {0};
   struct dg_pipeline_stats_rewrite stats = {0};
   const char **names = NULL;
   const bool of_formats = optical_flow && of_storage_formats(instance, physicalDevice);
   if (requested) {
      result = rewrite_for_tensors(instance, physicalDevice, pCreateInfo, of_formats, &copy, &tf,
                                   &db, &coop, &stats, &names);
   } else {
      /* Data-graph structs without the extension: keep them from the driver. */
      result = lyr_chain_clone_pass(&instance->alloc, pCreateInfo, sizeof(*pCreateInfo),
                                    dg_drop_data_graph, NULL, 0, &copy.chain);
      if (result == VK_SUCCESS) {
         copy.info = *(VkDeviceCreateInfo *)copy.chain.head;
         copy.extension_names = NULL;
      }
   }
   if (result != VK_SUCCESS)
      return result;
   result = lyr_device_create(physicalDevice, &copy.info, pAllocator, pDevice,
                              sizeof(struct dg_device), &device);
   lyr_free(&instance->alloc, names);
   lyr_device_info_copy_free(&copy);
   if (result != VK_SUCCESS)
      return result;
   device->emulating = requested != NULL;
   if (!requested)
      return VK_SUCCESS;
   ((struct dg_device *)device)->descriptor_buffer = db.enabled;
   ((struct dg_device *)device)->coop = dg_coop_shapes(instance, physicalDevice, coop.enabled);
   ((struct dg_device *)device)->optical_flow = optical_flow;
   ((struct dg_device *)device)->of_storage_formats = of_formats;
   ((struct dg_device *)device)->pipeline_stats =
      dg_pipeline_stats_init((struct dg_device *)device, &stats);
   result = emulation_init((struct dg_device *)device);
   if (result != VK_SUCCESS) {
      lyr_device_destroy(*pDevice, pAllocator);
      *pDevice = VK_NULL_HANDLE;
      return result;
   }
   /* the application's queues: one carries the graph constants' uploads (D46) */
   dg_upload_init((struct dg_device *)device, pCreateInfo);
   lyr_logi("emulating %s on this device", VK_ARM_DATA_GRAPH_EXTENSION_NAME);
   return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL
dg_DestroyDevice(VkDevice _device, const VkAllocationCallbacks *pAllocator)
{
   struct dg_device *device = dg_device_get(_device);
   if (device && device->base.emulating)
      emulation_finish(device);
   lyr_device_destroy(_device, pAllocator);
}
