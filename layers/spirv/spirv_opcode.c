/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Per-opcode facts the reader needs without a full grammar: whether an
 * opcode has a result type and a result id, and the capability scan that
 * lets the tensor layer pass modules without TensorsARM through unparsed.
 *
 * The core table is the one Khronos generates into spirv.h
 * (SpvHasResultAndType, behind SPV_ENABLE_UTILITY_CODE), so it covers every
 * opcode of the installed SPIRV-Headers; the opcodes Debian 12's headers lack
 * come from spirv_arm_ml.h and are checked first. The header's function is a
 * C99 inline definition; it is renamed here and given its one external
 * definition in this file so that no other file can clash with it.
 */
#include <stdbool.h>
#include <stdint.h>

#define SpvHasResultAndType lyr_spirv_sys_has_result_and_type
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.h>
#undef SpvHasResultAndType
#undef SPV_ENABLE_UTILITY_CODE

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"

extern inline void lyr_spirv_sys_has_result_and_type(SpvOp opcode, bool *hasResult,
                                                     bool *hasResultType);

/* Opcodes newer than Debian 12's headers. */
static bool
arm_result_info(uint32_t opcode, bool *has_result_type, bool *has_result)
{
   switch (opcode) {
   case SPV_ARM_OP_TYPE_TENSOR:
   case SPV_ARM_OP_TYPE_GRAPH:
      *has_result_type = false;
      *has_result = true;
      return true;
   case SPV_ARM_OP_TENSOR_READ:
   case SPV_ARM_OP_TENSOR_QUERY_SIZE:
   case SPV_ARM_OP_GRAPH_CONSTANT:
   case SPV_ARM_OP_GRAPH:
   case SPV_ARM_OP_GRAPH_INPUT:
   case SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_COMPOSITE_CONSTRUCT_REPLICATE_EXT:
      *has_result_type = true;
      *has_result = true;
      return true;
   case SPV_ARM_OP_TENSOR_WRITE:
   case SPV_ARM_OP_GRAPH_ENTRY_POINT:
   case SPV_ARM_OP_GRAPH_SET_OUTPUT:
   case SPV_ARM_OP_GRAPH_END:
      *has_result_type = false;
      *has_result = false;
      return true;
   default:
      return false;
   }
}

void
spirv_opcode_result_info(uint32_t opcode, bool *has_result_type, bool *has_result)
{
   if (arm_result_info(opcode, has_result_type, has_result))
      return;
   bool result = false, type = false;
   if (opcode <= 0xffff)
      lyr_spirv_sys_has_result_and_type((SpvOp)opcode, &result, &type);
   *has_result_type = type;
   *has_result = result;
}

/* SPV_ARM_tensors: "StorageTensorArrayDynamicIndexingARM ... Implicitly
 * declares TensorsARM", likewise the non-uniform variant. */
static bool
capability_implies(uint32_t declared, uint32_t cap)
{
   if (declared == cap)
      return true;
   if (cap == SPV_ARM_CAP_TENSORS)
      return declared == SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING ||
             declared == SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING;
   return false;
}

bool
spirv_declares_capability(const uint32_t *words, size_t word_count, uint32_t cap)
{
   if (!words || word_count < SPIRV_HEADER_WORDS || words[0] != SPIRV_MAGIC)
      return false;

   size_t offset = SPIRV_HEADER_WORDS;
   while (offset < word_count) {
      uint32_t opcode = words[offset] & 0xffffu;
      uint32_t count = words[offset] >> 16;
      if (count == 0 || count > word_count - offset)
         return false;
      if (opcode == SpvOpCapability) {
         if (count >= 2 && capability_implies(words[offset + 1], cap))
            return true;
      } else if (opcode != SpvOpExtension) {
         return false;
      }
      offset += count;
   }
   return false;
}
