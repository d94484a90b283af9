/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_LAYER_VMEL_test_coop_offer: a test-only layer that makes a device without cooperative
 * matrices (lavapipe) offer what the NVIDIA H200's driver offers (D51, D60):
 * VK_KHR_cooperative_matrix and VK_NV_cooperative_matrix with cooperativeMatrix,
 * VK_KHR_shader_bfloat16 with shaderBFloat16Type and shaderBFloat16CooperativeMatrix, the
 * H200's KHR and NV shape lists (fp16, s8 and, for KHR, bf16 16x16x16) and a subgroup size of
 * 32, so that the graph layer's device set-up for them is tested without such a GPU. Their
 * structs and names never reach the device below (the validation layer there knows neither
 * KHR struct). At vkCreateDevice it prints on stderr what reached it:
 *   coop_offer: create: KHR=<f|-> NV=<f|-> BF16=<type>,<coop>|- names=<K><N><B>
 * (each struct's feature values, '-' where the chain holds none; names: which of the three
 * extensions were enabled, K, N and B or '.'). Only device creation is meant: kernels that use
 * the offered features cannot run below.
 */
#include <stdio.h>
#include <string.h>

#include "lyr_layer.h"
#include "lyr_vk_newer.h"
#include "test_layer.h"

#define LAYER_NAME "VK_LAYER_VMEL_test_coop_offer"

#define CT_FP16 0u
#define CT_FP32 1u
#define CT_S8 3u
#define CT_S32 5u
#define CT_BF16 VK_COMPONENT_TYPE_BFLOAT16_KHR
#define SCOPE_SUBGROUP 3u

enum { EXT_KHR, EXT_NV, EXT_BF16, EXT_COUNT };
static const VkExtensionProperties ext_props[EXT_COUNT] = {
   [EXT_KHR] = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME, 2},
   [EXT_NV] = {VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME, 1},
   [EXT_BF16] = {VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME, 1},
};
static const VkStructureType ext_stypes[EXT_COUNT] = {
   [EXT_KHR] = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR,
   [EXT_NV] = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV,
   [EXT_BF16] = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR,
};

/* The H200's lists (driver 580.159.04), as the probe of docs/performance.md read them. */
static const uint32_t khr_shapes[][7] = {
   {16, 16, 16, CT_FP16, CT_FP16, CT_FP16, CT_FP16}, {16, 8, 16, CT_FP16, CT_FP16, CT_FP16, CT_FP16},
   {16, 16, 16, CT_FP16, CT_FP16, CT_FP32, CT_FP32}, {16, 8, 16, CT_FP16, CT_FP16, CT_FP32, CT_FP32},
   {16, 16, 32, CT_S8, CT_S8, CT_S32, CT_S32},       {16, 8, 32, CT_S8, CT_S8, CT_S32, CT_S32},
   {16, 16, 16, CT_BF16, CT_BF16, CT_FP32, CT_FP32},
};
static const uint32_t nv_shapes[][7] = {
   {16, 8, 16, CT_FP16, CT_FP16, CT_FP32, CT_FP32},
   {16, 8, 32, CT_S8, CT_S8, CT_S32, CT_S32},
};

static bool
offered_stype(const VkBaseInStructure *s, void *user)
{
   (void)user;
   for (uint32_t e = 0; e < EXT_COUNT; e++) {
      if (s->sType == ext_stypes[e])
         return true;
   }
   return false;
}

static VKAPI_ATTR VkResult VKAPI_CALL
offer_EnumerateDeviceExtensionProperties(VkPhysicalDevice pd, const char *layer, uint32_t *count,
                                         VkExtensionProperties *props)
{
   return lyr_layer_device_extensions(lyr_instance_get(pd), pd, layer, LAYER_NAME, ext_props,
                                      EXT_COUNT, true, count, props);
}

static VKAPI_ATTR void VKAPI_CALL
offer_GetPhysicalDeviceFeatures2(VkPhysicalDevice pd, VkPhysicalDeviceFeatures2 *features)
{
   lyr_next_features2(lyr_instance_get(pd), pd, features, offered_stype);
   for (uint32_t e = 0; e < EXT_COUNT; e++) {
      void *s = (void *)lyr_find_struct(features->pNext, ext_stypes[e]);
      if (s && e == EXT_BF16) {
         ((VkPhysicalDeviceShaderBfloat16FeaturesKHR *)s)->shaderBFloat16Type = VK_TRUE;
         ((VkPhysicalDeviceShaderBfloat16FeaturesKHR *)s)->shaderBFloat16CooperativeMatrix = VK_TRUE;
      } else if (s) {
         ((VkPhysicalDeviceCooperativeMatrixFeaturesNV *)s)->cooperativeMatrix = VK_TRUE;
      }
   }
}

static VKAPI_ATTR void VKAPI_CALL
offer_GetPhysicalDeviceProperties2(VkPhysicalDevice pd, VkPhysicalDeviceProperties2 *properties)
{
   lyr_next_properties2(lyr_instance_get(pd), pd, properties, NULL);
   VkPhysicalDeviceVulkan11Properties *p11 = (VkPhysicalDeviceVulkan11Properties *)
      lyr_find_struct(properties->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES);
   if (p11)
      p11->subgroupSize = 32;
   VkPhysicalDeviceSubgroupProperties *sg = (VkPhysicalDeviceSubgroupProperties *)lyr_find_struct(
      properties->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
   if (sg)
      sg->subgroupSize = 32;
}

/* Writes up to *count entries of a list of `total` (the two-call idiom). */
static VkResult
list_result(uint32_t total, uint32_t *count, bool filling)
{
   if (!filling) {
      *count = total;
      return VK_SUCCESS;
   }
   VkResult result = *count < total ? VK_INCOMPLETE : VK_SUCCESS;
   if (*count > total)
      *count = total;
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
offer_GetPhysicalDeviceCooperativeMatrixPropertiesKHR(VkPhysicalDevice pd, uint32_t *count,
                                                      VkCooperativeMatrixPropertiesKHR *props)
{
   (void)pd;
   uint32_t total = sizeof(khr_shapes) / sizeof(khr_shapes[0]);
   VkResult result = list_result(total, count, props != NULL);
   for (uint32_t i = 0; props && i < *count; i++) {
      const uint32_t *s = khr_shapes[i];
      props[i].MSize = s[0], props[i].NSize = s[1], props[i].KSize = s[2];
      props[i].AType = s[3], props[i].BType = s[4], props[i].CType = s[5];
      props[i].ResultType = s[6];
      props[i].saturatingAccumulation = VK_FALSE;
      props[i].scope = SCOPE_SUBGROUP;
   }
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
offer_GetPhysicalDeviceCooperativeMatrixPropertiesNV(VkPhysicalDevice pd, uint32_t *count,
                                                     VkCooperativeMatrixPropertiesNV *props)
{
   (void)pd;
   uint32_t total = sizeof(nv_shapes) / sizeof(nv_shapes[0]);
   VkResult result = list_result(total, count, props != NULL);
   for (uint32_t i = 0; props && i < *count; i++) {
      const uint32_t *s = nv_shapes[i];
      props[i].MSize = s[0], props[i].NSize = s[1], props[i].KSize = s[2];
      props[i].AType = (VkComponentTypeNV)s[3], props[i].BType = (VkComponentTypeNV)s[4];
      props[i].CType = (VkComponentTypeNV)s[5], props[i].DType = (VkComponentTypeNV)s[6];
      props[i].scope = (VkScopeNV)SCOPE_SUBGROUP;
   }
   return result;
}

/* Prints what the create info asks of the three extensions (the line the header describes). */
static void
report(const VkDeviceCreateInfo *info)
{
   char part[EXT_COUNT][16], names[EXT_COUNT + 1] = "...";
   for (uint32_t e = 0; e < EXT_COUNT; e++) {
      const void *s = lyr_find_struct(info->pNext, ext_stypes[e]);
      if (!s)
         snprintf(part[e], sizeof(part[e]), "-");
      else if (e == EXT_BF16)
         snprintf(part[e], sizeof(part[e]), "%u,%u",
                  ((const VkPhysicalDeviceShaderBfloat16FeaturesKHR *)s)->shaderBFloat16Type,
                  ((const VkPhysicalDeviceShaderBfloat16FeaturesKHR *)s)
                     ->shaderBFloat16CooperativeMatrix);
      else
         snprintf(part[e], sizeof(part[e]), "%u",
                  ((const VkPhysicalDeviceCooperativeMatrixFeaturesNV *)s)->cooperativeMatrix);
      for (uint32_t i = 0; i < info->enabledExtensionCount; i++) {
         if (strcmp(info->ppEnabledExtensionNames[i], ext_props[e].extensionName) == 0)
            names[e] = "KNB"[e];
      }
   }
   fprintf(stderr, "coop_offer: create: KHR=%s NV=%s BF16=%s names=%s\n", part[EXT_KHR],
           part[EXT_NV], part[EXT_BF16], names);
}

static VKAPI_ATTR VkResult VKAPI_CALL
offer_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                   const VkAllocationCallbacks *alloc, VkDevice *pDevice)
{
   report(info);
   const char *hidden[EXT_COUNT];
   for (uint32_t e = 0; e < EXT_COUNT; e++)
      hidden[e] = ext_props[e].extensionName;
   struct lyr_device *device;
   return test_layer_create_device_hiding(pd, info, alloc, pDevice, offered_stype, hidden,
                                          EXT_COUNT, sizeof(*device), &device);
}

static VKAPI_ATTR void VKAPI_CALL
offer_DestroyDevice(VkDevice device, const VkAllocationCallbacks *alloc)
{
   lyr_device_destroy(device, alloc);
}

static const struct lyr_hook offer_instance_hooks[] = {
   TEST_LAYER_INSTANCE_HOOKS,
   HOOK(CreateDevice, offer_CreateDevice),
   HOOK(EnumerateDeviceExtensionProperties, offer_EnumerateDeviceExtensionProperties),
   HOOK(GetPhysicalDeviceFeatures2, offer_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceFeatures2KHR, offer_GetPhysicalDeviceFeatures2),
   HOOK(GetPhysicalDeviceProperties2, offer_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceProperties2KHR, offer_GetPhysicalDeviceProperties2),
   HOOK(GetPhysicalDeviceCooperativeMatrixPropertiesKHR,
        offer_GetPhysicalDeviceCooperativeMatrixPropertiesKHR),
   HOOK(GetPhysicalDeviceCooperativeMatrixPropertiesNV,
        offer_GetPhysicalDeviceCooperativeMatrixPropertiesNV),
};
static const struct lyr_hook offer_device_hooks[] = {
   HOOK(DestroyDevice, offer_DestroyDevice),
};
static const struct lyr_hook_table offer_instance_table = LYR_HOOK_TABLE(offer_instance_hooks);
static const struct lyr_hook_table *const offer_instance_tables[] = {&offer_instance_table};

const struct lyr_hooks lyr_layer_hooks = {
   .instance = offer_instance_tables,
   .instance_count = LYR_ARRAY_SIZE(offer_instance_tables),
   .device_always = LYR_HOOK_TABLE(offer_device_hooks),
};
