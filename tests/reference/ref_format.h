/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The VkFormat a test gives a tensor of a reference element type (the test runners'
 * tensor descriptions): signless integers as SINT, or UINT where a test reads i8/i16 data as
 * unsigned (RESCALE's unsigned sides); the ARM formats for bool, bf16 and fp8.
 */
#ifndef REF_FORMAT_H
#define REF_FORMAT_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

#include "tosa_ref.h"
#include "vulkan/vulkan_arm_ml.h"

static inline VkFormat
ref_dtype_format(enum ref_dtype dtype, bool is_unsigned)
{
   switch (dtype) {
   case REF_DTYPE_BOOL:
      return VK_FORMAT_R8_BOOL_ARM;
   case REF_DTYPE_I8:
      return is_unsigned ? VK_FORMAT_R8_UINT : VK_FORMAT_R8_SINT;
   case REF_DTYPE_I16:
      return is_unsigned ? VK_FORMAT_R16_UINT : VK_FORMAT_R16_SINT;
   case REF_DTYPE_I32:
      return VK_FORMAT_R32_SINT;
   case REF_DTYPE_I48:
      return VK_FORMAT_R64_SINT;
   case REF_DTYPE_FP16:
      return VK_FORMAT_R16_SFLOAT;
   case REF_DTYPE_BF16:
      return VK_FORMAT_R16_SFLOAT_FPENCODING_BFLOAT16_ARM;
   case REF_DTYPE_FP32:
      return VK_FORMAT_R32_SFLOAT;
   case REF_DTYPE_FP8E4M3:
      return VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E4M3_ARM;
   case REF_DTYPE_FP8E5M2:
      return VK_FORMAT_R8_SFLOAT_FPENCODING_FLOAT8E5M2_ARM;
   default:
      return VK_FORMAT_UNDEFINED;
   }
}

#endif /* REF_FORMAT_H */
