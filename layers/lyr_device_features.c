/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vkCreateDevice rewriting: the copy of VkDeviceCreateInfo a layer passes
 * down, without the ARM ML structs and extension names, with the underlying
 * features the emulation uses turned on in whichever struct the application
 * chose for them, and the query of which of those features the device has.
 * Chain cloning itself is lyr_pnext.c's.
 *
 * Every layer here needs a Vulkan 1.3 device (VK_ARM_tensors and
 * VK_ARM_data_graph depend on VK_VERSION_1_3), where all these features are
 * core: no extension name has to be added for them.
 */
#include <stddef.h>
#include <string.h>

#include "lyr_alloc.h"
#include "lyr_pnext.h"

#define LYR_CHAIN_ALIGN 16

/* The standalone feature structs, one per set of features promoted together. */
enum standalone_id {
   SA_16BIT_STORAGE,
   SA_8BIT_STORAGE,
   SA_SHADER_FLOAT16_INT8,
   SA_BUFFER_DEVICE_ADDRESS,
   SA_VULKAN_MEMORY_MODEL,
   SA_TIMELINE_SEMAPHORE,
   SA_SYNCHRONIZATION2,
   SA_MAINTENANCE4,
   SA_SUBGROUP_SIZE_CONTROL,
   SA_DESCRIPTOR_INDEXING,
   SA_SHADER_INTEGER_DOT_PRODUCT,
   SA_COUNT,
};

static const struct {
   VkStructureType stype;
   size_t size;
} standalone_structs[SA_COUNT] = {
    [SA_16BIT_STORAGE] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
                          sizeof(VkPhysicalDevice16BitStorageFeatures)},
    [SA_8BIT_STORAGE] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
                         sizeof(VkPhysicalDevice8BitStorageFeatures)},
    [SA_SHADER_FLOAT16_INT8] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
                                sizeof(VkPhysicalDeviceShaderFloat16Int8Features)},
    [SA_BUFFER_DEVICE_ADDRESS] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
                                  sizeof(VkPhysicalDeviceBufferDeviceAddressFeatures)},
    [SA_VULKAN_MEMORY_MODEL] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
                                sizeof(VkPhysicalDeviceVulkanMemoryModelFeatures)},
    [SA_TIMELINE_SEMAPHORE] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
                               sizeof(VkPhysicalDeviceTimelineSemaphoreFeatures)},
    [SA_SYNCHRONIZATION2] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
                             sizeof(VkPhysicalDeviceSynchronization2Features)},
    [SA_MAINTENANCE4] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
                         sizeof(VkPhysicalDeviceMaintenance4Features)},
    [SA_SUBGROUP_SIZE_CONTROL] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
                                  sizeof(VkPhysicalDeviceSubgroupSizeControlFeatures)},
    [SA_DESCRIPTOR_INDEXING] = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
                                sizeof(VkPhysicalDeviceDescriptorIndexingFeatures)},
    [SA_SHADER_INTEGER_DOT_PRODUCT] = {
        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
        sizeof(VkPhysicalDeviceShaderIntegerDotProductFeatures)},
};

/* Where a feature lives: VkPhysicalDeviceFeatures or a VkPhysicalDeviceVulkan1xFeatures. */
enum feature_home {
   HOME_CORE,
   HOME_VULKAN11,
   HOME_VULKAN12,
   HOME_VULKAN13,
   HOME_COUNT,
};

static const VkStructureType home_stypes[HOME_COUNT] = {
    [HOME_VULKAN11] = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
    [HOME_VULKAN12] = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
    [HOME_VULKAN13] = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
};

struct feature_field {
   size_t request; /* offset of the bool in struct lyr_feature_request */
   enum feature_home home;
   size_t home_offset;            /* offset of the VkBool32 in the home struct */
   enum standalone_id standalone; /* SA_COUNT for VkPhysicalDeviceFeatures members */
   size_t standalone_offset;
};

/* The member has the same name in the Vulkan1x struct and in the standalone one. */
#define CORE_FIELD(req, member)                                                                    \
   {                                                                                               \
      offsetof(struct lyr_feature_request, req), HOME_CORE,                                        \
          offsetof(VkPhysicalDeviceFeatures, member), SA_COUNT, 0                                  \
   }
#define VK1X_FIELD(req, ver, member, sa, sa_type)                                                  \
   {                                                                                               \
      offsetof(struct lyr_feature_request, req), HOME_VULKAN##ver,                                 \
          offsetof(VkPhysicalDeviceVulkan##ver##Features, member), sa, offsetof(sa_type, member)   \
   }

static const struct feature_field feature_fields[] = {
    VK1X_FIELD(buffer_device_address, 12, bufferDeviceAddress, SA_BUFFER_DEVICE_ADDRESS,
               VkPhysicalDeviceBufferDeviceAddressFeatures),
    VK1X_FIELD(buffer_device_address_capture_replay, 12, bufferDeviceAddressCaptureReplay,
               SA_BUFFER_DEVICE_ADDRESS, VkPhysicalDeviceBufferDeviceAddressFeatures),
    VK1X_FIELD(storage_buffer_8bit_access, 12, storageBuffer8BitAccess, SA_8BIT_STORAGE,
               VkPhysicalDevice8BitStorageFeatures),
    VK1X_FIELD(uniform_and_storage_buffer_8bit_access, 12, uniformAndStorageBuffer8BitAccess,
               SA_8BIT_STORAGE, VkPhysicalDevice8BitStorageFeatures),
    VK1X_FIELD(shader_int8, 12, shaderInt8, SA_SHADER_FLOAT16_INT8,
               VkPhysicalDeviceShaderFloat16Int8Features),
    VK1X_FIELD(shader_float16, 12, shaderFloat16, SA_SHADER_FLOAT16_INT8,
               VkPhysicalDeviceShaderFloat16Int8Features),
    VK1X_FIELD(storage_buffer_16bit_access, 11, storageBuffer16BitAccess, SA_16BIT_STORAGE,
               VkPhysicalDevice16BitStorageFeatures),
    VK1X_FIELD(uniform_and_storage_buffer_16bit_access, 11, uniformAndStorageBuffer16BitAccess,
               SA_16BIT_STORAGE, VkPhysicalDevice16BitStorageFeatures),
    VK1X_FIELD(storage_push_constant_16, 11, storagePushConstant16, SA_16BIT_STORAGE,
               VkPhysicalDevice16BitStorageFeatures),
    CORE_FIELD(shader_int16, shaderInt16),
    CORE_FIELD(shader_int64, shaderInt64),
    CORE_FIELD(shader_float64, shaderFloat64),
    CORE_FIELD(shader_storage_image_extended_formats, shaderStorageImageExtendedFormats),
    VK1X_FIELD(vulkan_memory_model, 12, vulkanMemoryModel, SA_VULKAN_MEMORY_MODEL,
               VkPhysicalDeviceVulkanMemoryModelFeatures),
    VK1X_FIELD(vulkan_memory_model_device_scope, 12, vulkanMemoryModelDeviceScope,
               SA_VULKAN_MEMORY_MODEL, VkPhysicalDeviceVulkanMemoryModelFeatures),
    VK1X_FIELD(timeline_semaphore, 12, timelineSemaphore, SA_TIMELINE_SEMAPHORE,
               VkPhysicalDeviceTimelineSemaphoreFeatures),
    VK1X_FIELD(synchronization2, 13, synchronization2, SA_SYNCHRONIZATION2,
               VkPhysicalDeviceSynchronization2Features),
    VK1X_FIELD(maintenance4, 13, maintenance4, SA_MAINTENANCE4,
               VkPhysicalDeviceMaintenance4Features),
    VK1X_FIELD(subgroup_size_control, 13, subgroupSizeControl, SA_SUBGROUP_SIZE_CONTROL,
               VkPhysicalDeviceSubgroupSizeControlFeatures),
    VK1X_FIELD(compute_full_subgroups, 13, computeFullSubgroups, SA_SUBGROUP_SIZE_CONTROL,
               VkPhysicalDeviceSubgroupSizeControlFeatures),
    VK1X_FIELD(storage_buffer_update_after_bind, 12, descriptorBindingStorageBufferUpdateAfterBind,
               SA_DESCRIPTOR_INDEXING, VkPhysicalDeviceDescriptorIndexingFeatures),
    VK1X_FIELD(storage_buffer_non_uniform_indexing, 12, shaderStorageBufferArrayNonUniformIndexing,
               SA_DESCRIPTOR_INDEXING, VkPhysicalDeviceDescriptorIndexingFeatures),
    VK1X_FIELD(shader_integer_dot_product, 13, shaderIntegerDotProduct,
               SA_SHADER_INTEGER_DOT_PRODUCT, VkPhysicalDeviceShaderIntegerDotProductFeatures),
};

#define FEATURE_FIELD_COUNT (sizeof(feature_fields) / sizeof(feature_fields[0]))

_Static_assert(FEATURE_FIELD_COUNT == sizeof(struct lyr_feature_request) / sizeof(bool),
               "every member of struct lyr_feature_request has a row in feature_fields");

static size_t
align_up(size_t v)
{
   return (v + (LYR_CHAIN_ALIGN - 1)) & ~(size_t)(LYR_CHAIN_ALIGN - 1);
}

static bool
requested(const struct lyr_feature_request *request, const struct feature_field *f)
{
   return *(const bool *)((const char *)request + f->request);
}

static void
enable(void *s, size_t offset)
{
   *(VkBool32 *)((char *)s + offset) = VK_TRUE;
}

/*
 * The space reserved after the cloned chain: one slot per standalone struct we
 * may append, then a VkPhysicalDeviceFeatures for pEnabledFeatures.
 */
struct extra_layout {
   size_t standalone[SA_COUNT];
   size_t features;
   size_t size;
};

static void
extra_layout_init(struct extra_layout *l)
{
   size_t offset = 0;
   for (unsigned i = 0; i < SA_COUNT; i++) {
      l->standalone[i] = offset;
      offset += align_up(standalone_structs[i].size);
   }
   l->features = offset;
   offset += align_up(sizeof(VkPhysicalDeviceFeatures));
   l->size = offset;
}

/* Our copy of a struct in the cloned chain (mutable: it is in our block). */
static void *
find_copy(VkDeviceCreateInfo *info, VkStructureType stype)
{
   return (void *)lyr_find_struct(info->pNext, stype);
}

/* The VkPhysicalDeviceFeatures to turn core features on in. */
static VkPhysicalDeviceFeatures *
core_features(VkDeviceCreateInfo *info, const VkDeviceCreateInfo *app, char *extra,
              const struct extra_layout *layout)
{
   if (!app->pEnabledFeatures) {
      VkPhysicalDeviceFeatures2 *f2 = find_copy(info, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
      if (f2)
         return &f2->features;
   }
   VkPhysicalDeviceFeatures *features = (VkPhysicalDeviceFeatures *)(extra + layout->features);
   if (app->pEnabledFeatures)
      *features = *app->pEnabledFeatures;
   info->pEnabledFeatures = features;
   return features;
}

/*
 * Turns the requested features on: in VkPhysicalDeviceVulkan1xFeatures when
 * the application chained it, else in its standalone struct, else in a new
 * standalone struct we append. A Vulkan1x struct is never added, so the
 * result never has both kinds for the same features
 * (VUID-VkDeviceCreateInfo-pNext-02829, -02830, -06532).
 */
static void
enable_features(VkDeviceCreateInfo *info, const VkDeviceCreateInfo *app,
                const struct lyr_feature_request *request, char *extra,
                const struct extra_layout *layout)
{
   VkPhysicalDeviceFeatures *core = NULL;
   for (size_t i = 0; i < FEATURE_FIELD_COUNT; i++) {
      const struct feature_field *f = &feature_fields[i];
      if (!requested(request, f))
         continue;
      if (f->home == HOME_CORE) {
         if (!core)
            core = core_features(info, app, extra, layout);
         enable(core, f->home_offset);
         continue;
      }
      void *home = find_copy(info, home_stypes[f->home]);
      if (home) {
         enable(home, f->home_offset);
         continue;
      }
      VkStructureType stype = standalone_structs[f->standalone].stype;
      VkBaseOutStructure *s = find_copy(info, stype);
      if (!s) {
         s = (VkBaseOutStructure *)(extra + layout->standalone[f->standalone]);
         s->sType = stype;
         s->pNext = NULL;
         lyr_chain_append(info, s);
      }
      enable(s, f->standalone_offset);
   }
}

static bool
name_listed(const char *name, const char *const *names, unsigned count)
{
   for (unsigned i = 0; i < count; i++) {
      if (names[i] && strcmp(name, names[i]) == 0)
         return true;
   }
   return false;
}

VkResult
lyr_device_info_rewrite(const VkAllocationCallbacks *alloc, const VkDeviceCreateInfo *app,
                        const struct lyr_feature_request *request,
                        const char *const *strip_extensions, unsigned strip_count,
                        struct lyr_device_info_copy *out)
{
   memset(out, 0, sizeof(*out));

   struct extra_layout layout;
   extra_layout_init(&layout);
   /* Structs newer than this build go down as they are when only such structs follow the
    * first of them; else (a struct to change or drop after one) they are left out. */
   VkResult result = lyr_chain_clone_pass(alloc, app, sizeof(*app), lyr_drop_arm_ml, NULL,
                                          layout.size, &out->chain);
   if (result == VK_SUCCESS && out->chain.tail_known) {
      lyr_chain_copy_free(&out->chain);
      result =
          lyr_chain_clone(alloc, app, sizeof(*app), lyr_drop_arm_ml, NULL, layout.size, &out->chain);
   }
   if (result != VK_SUCCESS)
      return result;
   VkDeviceCreateInfo *info = out->chain.head;

   const char **names = NULL;
   uint32_t name_count = 0;
   if (app->enabledExtensionCount) {
      names = lyr_alloc(alloc, app->enabledExtensionCount * sizeof(*names), sizeof(void *),
                        VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!names) {
         lyr_chain_copy_free(&out->chain);
         return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
      for (uint32_t i = 0; i < app->enabledExtensionCount; i++) {
         const char *name = app->ppEnabledExtensionNames[i];
         if (!name_listed(name, strip_extensions, strip_count))
            names[name_count++] = name;
      }
   }
   out->extension_names = names;
   info->enabledExtensionCount = name_count;
   info->ppEnabledExtensionNames = name_count ? names : NULL;

   if (request)
      enable_features(info, app, request, out->chain.extra, &layout);

   out->info = *info;
   return VK_SUCCESS;
}

void
lyr_device_info_copy_free(struct lyr_device_info_copy *copy)
{
   if (copy->extension_names)
      lyr_free(copy->chain.alloc, (void *)copy->extension_names);
   lyr_chain_copy_free(&copy->chain);
   memset(copy, 0, sizeof(*copy));
}

void
lyr_feature_request_from_device(PFN_vkGetPhysicalDeviceFeatures2 get_features2,
                                VkPhysicalDevice physical_device,
                                struct lyr_feature_request *supported)
{
   VkPhysicalDeviceVulkan13Features v13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
   };
   VkPhysicalDeviceVulkan12Features v12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &v13,
   };
   VkPhysicalDeviceVulkan11Features v11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
       .pNext = &v12,
   };
   VkPhysicalDeviceFeatures2 f2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &v11,
   };
   get_features2(physical_device, &f2);

   const void *homes[HOME_COUNT] = {
       [HOME_CORE] = &f2.features,
       [HOME_VULKAN11] = &v11,
       [HOME_VULKAN12] = &v12,
       [HOME_VULKAN13] = &v13,
   };
   memset(supported, 0, sizeof(*supported));
   for (size_t i = 0; i < FEATURE_FIELD_COUNT; i++) {
      const struct feature_field *f = &feature_fields[i];
      VkBool32 value = *(const VkBool32 *)((const char *)homes[f->home] + f->home_offset);
      *(bool *)((char *)supported + f->request) = value != VK_FALSE;
   }
}
