/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The one-component formats tensors use and their element sizes, for every
 * part of the project that needs them (the tensor layer, tools, tests).
 */
#ifndef VMEL_FORMATS_H
#define VMEL_FORMATS_H

#include <vulkan/vulkan.h>

#include "vulkan/vulkan_arm_ml.h"

/** Bytes per element of a format a tensor can hold, or 0 for any other format. */
static inline unsigned
vmel_tensor_format_size(VkFormat format)
{
   switch ((int)format) {
   case VK_FORMAT_R8_BOOL_ARM:
   case VK_FORMAT_R8_UINT:
   case VK_FORMAT_R8_SINT:
   case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM:
   case VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM:
      return 1;
   case VK_FORMAT_R16_UINT:
   case VK_FORMAT_R16_SINT:
   case VK_FORMAT_R16_SFLOAT:
   case VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM:
      return 2;
   case VK_FORMAT_R32_UINT:
   case VK_FORMAT_R32_SINT:
   case VK_FORMAT_R32_SFLOAT:
      return 4;
   case VK_FORMAT_R64_UINT:
   case VK_FORMAT_R64_SINT:
   case VK_FORMAT_R64_SFLOAT:
      return 8;
   default:
      return 0;
   }
}

#endif /* VMEL_FORMATS_H */
