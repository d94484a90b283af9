/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-info's optical-flow section: for each queue family that lists the
 * "OpticalFlow" operation, its VkQueueFamilyDataGraphOpticalFlowPropertiesARM
 * and the image formats per optical-flow usage.
 */
#include "info_optical_flow.h"

#include "info_out.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
format_name(VkFormat format)
{
   switch (format) {
   case VK_FORMAT_R8_UNORM: return "R8_UNORM";
   case VK_FORMAT_R16_UNORM: return "R16_UNORM";
   case VK_FORMAT_R8G8B8A8_UNORM: return "R8G8B8A8_UNORM";
   case VK_FORMAT_B8G8R8A8_UNORM: return "B8G8R8A8_UNORM";
   case VK_FORMAT_R8G8B8_UNORM: return "R8G8B8_UNORM";
   case VK_FORMAT_B8G8R8_UNORM: return "B8G8R8_UNORM";
   case VK_FORMAT_B10G11R11_UFLOAT_PACK32: return "B10G11R11_UFLOAT_PACK32";
   case VK_FORMAT_R16G16_SFLOAT: return "R16G16_SFLOAT";
   case VK_FORMAT_R16G16_S10_5_NV: return "R16G16_S10_5_NV";
   case VK_FORMAT_R16_UINT: return "R16_UINT";
   default: return NULL;
   }
}

static void
print_grids(const char *key, const char *what, VkDataGraphOpticalFlowGridSizeFlagsARM grids)
{
   info_text("        %s grids:", what);
   for (unsigned b = 0; b < 4; b++)
      if (grids & (1u << b))
         info_text(" %ux%u", 1u << b, 1u << b);
   info_text(grids ? "\n" : " none\n");
   info_num(key, grids);
}

static void
print_formats(VkPhysicalDevice pd, uint32_t family, const VkQueueFamilyDataGraphPropertiesARM *op,
              PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM get)
{
   static const struct {
      VkDataGraphOpticalFlowImageUsageFlagsARM usage;
      const char *name;
   } usages[] = {
      {VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM, "input"},
      {VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM, "flow"},
      {VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM, "hint"},
      {VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM, "cost"},
   };
   for (unsigned u = 0; u < sizeof(usages) / sizeof(usages[0]); u++) {
      VkDataGraphOpticalFlowImageFormatInfoARM info = {
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM,
         .usage = usages[u].usage};
      info_text("        %-5s formats:", usages[u].name);
      info_begin_list(usages[u].name, NULL);
      uint32_t count = 0;
      VkResult r = get(pd, family, op, &info, &count, NULL);
      VkDataGraphOpticalFlowImageFormatPropertiesARM *props =
         r == VK_SUCCESS && count ? calloc(count, sizeof(*props)) : NULL;
      for (uint32_t i = 0; props && i < count; i++)
         props[i].sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_PROPERTIES_ARM;
      if (props && get(pd, family, op, &info, &count, props) >= 0) {
         for (uint32_t i = 0; i < count; i++) {
            const char *name = format_name(props[i].format);
            char other[32];
            snprintf(other, sizeof(other), "format %d", (int)props[i].format);
            info_text(" %s", name ? name : other);
            info_str(NULL, name ? name : other);
         }
      } else {
         info_text(r == VK_SUCCESS ? " none" : " (query failed: %d)", (int)r);
      }
      info_text("\n");
      info_end();
      free(props);
   }
}

void
info_print_optical_flow(VkInstance instance, VkPhysicalDevice pd)
{
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM get_ops =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM)vkGetInstanceProcAddr(
         instance, "vkGetPhysicalDeviceQueueFamilyDataGraphPropertiesARM");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM get_props =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM)
         vkGetInstanceProcAddr(instance,
                               "vkGetPhysicalDeviceQueueFamilyDataGraphEngineOperationPropertiesARM");
   PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM get_formats =
      (PFN_vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM)
         vkGetInstanceProcAddr(instance,
                               "vkGetPhysicalDeviceQueueFamilyDataGraphOpticalFlowImageFormatsARM");
   info_begin_list("optical_flow", "  Optical flow (VK_ARM_data_graph_optical_flow):");
   if (!get_ops || !get_props || !get_formats) {
      info_text("    not available: the data-graph query functions are missing\n");
      info_end();
      return;
   }
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, NULL);
   unsigned listed = 0;
   for (uint32_t family = 0; family < n; family++) {
      uint32_t count = 0;
      if (get_ops(pd, family, &count, NULL) != VK_SUCCESS || count == 0)
         continue;
      VkQueueFamilyDataGraphPropertiesARM *ops = calloc(count, sizeof(*ops));
      if (!ops)
         break;
      for (uint32_t j = 0; j < count; j++)
         ops[j].sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_PROPERTIES_ARM;
      if (get_ops(pd, family, &count, ops) < 0)
         count = 0;
      for (uint32_t j = 0; j < count; j++) {
         if (ops[j].operation.operationType !=
             VK_PHYSICAL_DEVICE_DATA_GRAPH_OPERATION_TYPE_OPTICAL_FLOW_ARM)
            continue;
         listed++;
         info_text("    queue family %u: operation \"%s\" version %u\n", family,
                   ops[j].operation.name, ops[j].operation.version);
         info_begin(NULL, NULL);
         info_num("queueFamily", family);
         info_str("operation", ops[j].operation.name);
         info_num("version", ops[j].operation.version);
         VkQueueFamilyDataGraphOpticalFlowPropertiesARM p = {
            .sType = VK_STRUCTURE_TYPE_QUEUE_FAMILY_DATA_GRAPH_OPTICAL_FLOW_PROPERTIES_ARM};
         VkResult r = get_props(pd, family, &ops[j], (VkBaseOutStructure *)&p);
         if (r != VK_SUCCESS) {
            info_text("        (no optical-flow properties: %d)\n", (int)r);
            info_end();
            continue;
         }
         info_text("        frame size: %ux%u to %ux%u\n", p.minWidth, p.minHeight, p.maxWidth,
                   p.maxHeight);
         info_num("minWidth", p.minWidth);
         info_num("minHeight", p.minHeight);
         info_num("maxWidth", p.maxWidth);
         info_num("maxHeight", p.maxHeight);
         print_grids("supportedOutputGridSizes", "output", p.supportedOutputGridSizes);
         print_grids("supportedHintGridSizes", "hint  ", p.supportedHintGridSizes);
         info_text("        hint input: %s, cost output: %s\n", p.hintSupported ? "yes" : "no",
                   p.costSupported ? "yes" : "no");
         info_flag("hintSupported", p.hintSupported);
         info_flag("costSupported", p.costSupported);
         info_begin("formats", NULL);
         print_formats(pd, family, &ops[j], get_formats);
         info_end();
         info_end();
      }
      free(ops);
   }
   if (!listed)
      info_text("    no queue family lists the \"OpticalFlow\" operation\n");
   info_end();
}
