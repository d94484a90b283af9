/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Cooperative matrices for the COOP kernel variants (D51): at vkCreateDevice the
 * graph layer enables VK_KHR_cooperative_matrix and VK_NV_cooperative_matrix
 * (extension and cooperativeMatrix feature), and VK_KHR_shader_bfloat16 for bf16
 * fragments (D60), on the device it creates where the device below offers them,
 * and then reads which of the kernels' fragment shapes the device lists
 * (dg_plan_caps::coop, hashed into pipeline cache keys).
 */
#include "dg_runtime.h"

#include <stdlib.h>
#include <string.h>

#include "dg_coop.h"
#include "kernel_abi/gemm_args.h"

/* The features struct of either extension: the same layout (sType, pNext, cooperativeMatrix,
 * cooperativeMatrixRobustBufferAccess). */
typedef VkPhysicalDeviceCooperativeMatrixFeaturesNV coop_features;

static const struct {
   const char *name;
   VkStructureType features;
} exts[DG_COOP_EXT_COUNT] = {
   [DG_COOP_EXT_KHR] = {VK_KHR_COOPERATIVE_MATRIX_EXTENSION_NAME,
                        VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR},
   [DG_COOP_EXT_NV] = {VK_NV_COOPERATIVE_MATRIX_EXTENSION_NAME,
                       VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_NV},
   [DG_COOP_EXT_BF16] = {VK_KHR_SHADER_BFLOAT16_EXTENSION_NAME,
                         VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR},
};

static bool
listed_below(struct lyr_instance *instance, VkPhysicalDevice pd, uint32_t e)
{
   return instance->next.GetPhysicalDeviceFeatures2 &&
          lyr_device_extension_below(instance->next.EnumerateDeviceExtensionProperties, pd,
                                     exts[e].name, &instance->alloc);
}

/* Whether the device below offers cooperative-matrix extension e with its cooperativeMatrix
 * feature. */
static bool
offered(struct lyr_instance *instance, VkPhysicalDevice pd, uint32_t e)
{
   if (!listed_below(instance, pd, e))
      return false;
   coop_features f = {.sType = exts[e].features};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f};
   instance->next.GetPhysicalDeviceFeatures2(pd, &f2);
   return f.cooperativeMatrix == VK_TRUE;
}

/* Whether the device below offers VK_KHR_shader_bfloat16 with shaderBFloat16Type and
 * shaderBFloat16CooperativeMatrix (the caller requires VK_KHR_cooperative_matrix as well). */
static bool
bf16_offered(struct lyr_instance *instance, VkPhysicalDevice pd)
{
   if (!listed_below(instance, pd, DG_COOP_EXT_BF16))
      return false;
   VkPhysicalDeviceShaderBfloat16FeaturesKHR f = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f};
   instance->next.GetPhysicalDeviceFeatures2(pd, &f2);
   return f.shaderBFloat16Type && f.shaderBFloat16CooperativeMatrix;
}

void
dg_coop_rewrite(struct lyr_instance *instance, VkPhysicalDevice pd, VkDeviceCreateInfo *info,
                struct dg_coop_rewrite *rw)
{
   memset(rw, 0, sizeof(*rw));
   const char *no = getenv("VMEL_GRAPH_NO_COOP"); /* the device as the application asked */
   if (no && *no)
      return;
   /* NV where the device offers it (NVIDIA: the same fragments); KHR where it offers only
    * KHR, when VMEL_GRAPH_KERNELS=coop-khr or coop-khr-square asks for the KHR kernels, or for
    * bf16 fragments, which only KHR has (D60). A validation layer older than these extensions (Debian 12's,
    * which the tests run below the layers) does not know their features structs, so they are
    * neither queried nor added where NV does the same or coop-nv is asked for. */
   enum dg_kernel_mode mode = dg_kernel_mode_from_env();
   bool khr_mode = mode == DG_KERNELS_COOP_KHR || mode == DG_KERNELS_COOP_KHR_SQUARE;
   bool nv_mode = mode == DG_KERNELS_COOP_NV;
   bool offer[DG_COOP_EXT_COUNT];
   offer[DG_COOP_EXT_NV] = offered(instance, pd, DG_COOP_EXT_NV);
   offer[DG_COOP_EXT_BF16] = !nv_mode && bf16_offered(instance, pd);
   offer[DG_COOP_EXT_KHR] = (!offer[DG_COOP_EXT_NV] || khr_mode || offer[DG_COOP_EXT_BF16]) &&
                            offered(instance, pd, DG_COOP_EXT_KHR);
   offer[DG_COOP_EXT_BF16] = offer[DG_COOP_EXT_BF16] && offer[DG_COOP_EXT_KHR];
   for (uint32_t e = 0; e < DG_COOP_EXT_COUNT; e++) {
      bool listed = lyr_name_in_list(exts[e].name, info->ppEnabledExtensionNames,
                                     info->enabledExtensionCount);
      const void *app = lyr_find_struct(info->pNext, exts[e].features);
      if (app) {
         /* the application's own request (its struct, which the layer does not change) */
         if (e == DG_COOP_EXT_BF16) {
            const VkPhysicalDeviceShaderBfloat16FeaturesKHR *f = app;
            rw->enabled[e] = listed && f->shaderBFloat16Type && f->shaderBFloat16CooperativeMatrix;
         } else {
            rw->enabled[e] = listed && ((const coop_features *)app)->cooperativeMatrix;
         }
         continue;
      }
      /* (bf16 fragments only on a device whose KHR cooperative matrices are enabled: the
       * application may have chained its own KHR struct without the feature) */
      if (!offer[e] || (e == DG_COOP_EXT_BF16 && !rw->enabled[DG_COOP_EXT_KHR]))
         continue;
      if (e == DG_COOP_EXT_BF16) {
         rw->bf16 = (VkPhysicalDeviceShaderBfloat16FeaturesKHR){
            .sType = exts[e].features,
            .shaderBFloat16Type = VK_TRUE,
            .shaderBFloat16CooperativeMatrix = VK_TRUE};
         lyr_chain_append(info, &rw->bf16);
      } else {
         rw->features[e] = (coop_features){.sType = exts[e].features, .cooperativeMatrix = VK_TRUE};
         lyr_chain_append(info, &rw->features[e]);
      }
      rw->add_name[e] = !listed;
      rw->enabled[e] = true;
   }
}

uint32_t
dg_coop_extra_names(const struct dg_coop_rewrite *rw, const char **names, uint32_t n)
{
   for (uint32_t e = 0; e < DG_COOP_EXT_COUNT; e++) {
      if (rw->add_name[e] && names)
         names[n] = exts[e].name;
      n += rw->add_name[e];
   }
   return n;
}

/* Component types (VkComponentTypeKHR / NV) and the subgroup scope. */
#define CT_FLOAT16 0u
#define CT_FLOAT32 1u
#define CT_BFLOAT16 VK_COMPONENT_TYPE_BFLOAT16_KHR
#define CT_SINT8 3u
#define CT_SINT32 5u
#define SCOPE_SUBGROUP 3u

/* The DG_COOP_* bit of a listed shape of extension e, or 0. */
static uint32_t
shape_bit(uint32_t e, uint32_t m, uint32_t n, uint32_t k, uint32_t a, uint32_t b, uint32_t c,
          uint32_t r, uint32_t scope)
{
   if (scope != SCOPE_SUBGROUP || m != 16 || a != b || c != r)
      return 0;
   bool f16 = a == CT_FLOAT16 && c == CT_FLOAT32 && k == 16;
   bool i8 = a == CT_SINT8 && c == CT_SINT32 && k == 32;
   if (a == CT_BFLOAT16 && c == CT_FLOAT32 && k == 16 && n == 16 && e == DG_COOP_EXT_KHR)
      return DG_COOP_KHR_SQUARE_BF16;
   if (e == DG_COOP_EXT_NV)
      return n != 8 ? 0 : f16 ? DG_COOP_NV_F16 : i8 ? DG_COOP_NV_I8 : 0;
   if (n == 8)
      return f16 ? DG_COOP_KHR_F16 : i8 ? DG_COOP_KHR_I8 : 0;
   if (n == 16)
      return f16 ? DG_COOP_KHR_SQUARE_F16 : i8 ? DG_COOP_KHR_SQUARE_I8 : 0;
   return 0;
}

#define MAX_SHAPES 64

uint32_t
dg_coop_shapes(struct lyr_instance *instance, VkPhysicalDevice pd,
               const bool enabled[DG_COOP_EXT_COUNT])
{
   if (!instance->next.GetPhysicalDeviceProperties2 || !instance->next.GetPhysicalDeviceFeatures2)
      return 0;
   VkPhysicalDeviceVulkan11Properties p11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES};
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &p11};
   instance->next.GetPhysicalDeviceProperties2(pd, &p2);
   if (p11.subgroupSize != DG_COOP_SUBGROUP_SIZE)
      return 0;
   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f12};
   instance->next.GetPhysicalDeviceFeatures2(pd, &f2);
   uint32_t shapes = 0;
   if (enabled[DG_COOP_EXT_KHR]) {
      PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR get =
         (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR)instance->next.GetInstanceProcAddr(
            instance->handle, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR");
      VkCooperativeMatrixPropertiesKHR p[MAX_SHAPES];
      uint32_t count = MAX_SHAPES;
      for (uint32_t i = 0; i < MAX_SHAPES; i++)
         p[i] = (VkCooperativeMatrixPropertiesKHR){
            .sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR};
      VkResult result = get ? get(pd, &count, p) : VK_ERROR_EXTENSION_NOT_PRESENT;
      for (uint32_t i = 0; (result == VK_SUCCESS || result == VK_INCOMPLETE) && i < count; i++) {
         if (!p[i].saturatingAccumulation)
            shapes |= shape_bit(DG_COOP_EXT_KHR, p[i].MSize, p[i].NSize, p[i].KSize, p[i].AType,
                                p[i].BType, p[i].CType, p[i].ResultType, p[i].scope);
      }
   }
   if (enabled[DG_COOP_EXT_NV]) {
      PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV get =
         (PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesNV)instance->next.GetInstanceProcAddr(
            instance->handle, "vkGetPhysicalDeviceCooperativeMatrixPropertiesNV");
      VkCooperativeMatrixPropertiesNV p[MAX_SHAPES];
      uint32_t count = MAX_SHAPES;
      for (uint32_t i = 0; i < MAX_SHAPES; i++)
         p[i] = (VkCooperativeMatrixPropertiesNV){
            .sType = VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_NV};
      VkResult result = get ? get(pd, &count, p) : VK_ERROR_EXTENSION_NOT_PRESENT;
      for (uint32_t i = 0; (result == VK_SUCCESS || result == VK_INCOMPLETE) && i < count; i++)
         shapes |= shape_bit(DG_COOP_EXT_NV, p[i].MSize, p[i].NSize, p[i].KSize, p[i].AType,
                             p[i].BType, p[i].CType, p[i].DType, p[i].scope);
   }
   /* bf16 fragments need VK_KHR_shader_bfloat16 enabled; the staged elements: fp16 (float16
    * arithmetic types; the bf16 kernels are compiled as fp16 ones, D60) and i8 */
   if (!enabled[DG_COOP_EXT_BF16])
      shapes &= ~DG_COOP_KHR_SQUARE_BF16;
   if (!f12.shaderFloat16)
      shapes &= ~(DG_COOP_NV_F16 | DG_COOP_KHR_F16 | DG_COOP_KHR_SQUARE_F16 |
                  DG_COOP_KHR_SQUARE_BF16);
   if (!f12.shaderInt8)
      shapes &= ~(DG_COOP_NV_I8 | DG_COOP_KHR_I8 | DG_COOP_KHR_SQUARE_I8);
   if (shapes)
      lyr_logi("cooperative matrices: the COOP kernel variants may use shapes 0x%x (D51)", shapes);
   return shapes;
}
