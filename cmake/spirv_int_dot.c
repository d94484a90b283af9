/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The int_dot rewrite of vmel_spirv_rewrite (D51): glslang 12 has no
 * GL_EXT_integer_dot_product, so the INT_DOT kernels call dg_sdot4(uint a, uint b)
 * (shaders/common/dg_gemm_dot.glsl), a GLSL function computing the dot product of the 4
 * signed 8-bit values packed in each word; this rewrite replaces every call by
 *   OpSDot 4450 (Result Type, Result, Vector 1, Vector 2, PackedVectorFormat4x8Bit 0)
 * on the loaded arguments (glslang passes them through Function variables), and adds
 *   OpCapability DotProductInput4x8BitPacked 6018, OpCapability DotProduct 6019,
 *   OpExtension "SPV_KHR_integer_dot_product" (core only from SPIR-V 1.6; the kernels are 1.5)
 * (opcodes and operands as SPIRV-Headers' grammar gives them). The function is found by its
 * OpName, so these kernels are compiled with their names (no -g0) and the rewrite drops every
 * debug instruction (OpSourceContinued, OpSource, OpSourceExtension, OpName, OpMemberName,
 * OpString, OpLine, OpNoLine, OpModuleProcessed). The build validates the result with
 * spirv-val, which knows the extension.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_rewrite.h"

#define MARKER "dg_sdot4(u1;u1;"

enum {
   OP_NAME = 5,
   OP_EXTENSION = 10,
   OP_CAPABILITY = 17,
   OP_TYPE_INT = 21,
   OP_FUNCTION_CALL = 57,
   OP_LOAD = 61,
   OP_SDOT = 4450,
   CAP_DOT_PRODUCT_INPUT_4X8_BIT_PACKED = 6018,
   CAP_DOT_PRODUCT = 6019,
};

/* OpSourceContinued 2, OpSource 3, OpSourceExtension 4, OpName 5, OpMemberName 6, OpString 7,
 * OpLine 8, OpNoLine 317, OpModuleProcessed 330. */
static bool
is_debug(uint32_t op)
{
   return (op >= 2 && op <= 8) || op == 317 || op == 330;
}

int
spirv_int_dot(uint32_t *w, size_t n, struct spirv_out *o)
{
   uint32_t marker = 0, uint_type = 0, bound = w[3];
   for (size_t at = 5; at < n; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffffu, len = w[at] >> 16;
      if (len == 0 || at + len > n)
         return spirv_fail("a malformed instruction", (uint32_t)at);
      if (op == OP_NAME && len >= 3 && (len - 2) * 4 > strlen(MARKER) &&
          memcmp(w + at + 2, MARKER, strlen(MARKER) + 1) == 0)
         marker = w[at + 1];
      if (op == OP_TYPE_INT && len == 4 && w[at + 2] == 32 && w[at + 3] == 0)
         uint_type = w[at + 1];
   }
   if (!marker || !uint_type)
      return spirv_fail("no function " MARKER " (compile without -g0) or no 32-bit uint", 0);
   if (spirv_emit(o, w, 5))
      return 1;
   bool caps_done = false, ext_done = false;
   uint32_t calls = 0;
   for (size_t at = 5; at < n; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffffu, len = w[at] >> 16;
      if (!ext_done && op != OP_CAPABILITY && op != OP_EXTENSION) {
         if (spirv_emit_string_op(o, OP_EXTENSION, "SPV_KHR_integer_dot_product"))
            return 1;
         ext_done = true;
      }
      if (is_debug(op))
         continue;
      if (op == OP_FUNCTION_CALL && len >= 4 && w[at + 3] == marker) {
         if (len != 6)
            return spirv_fail("a call of " MARKER " without two arguments", w[at + 2]);
         uint32_t a = bound++, b = bound++;
         uint32_t words[] = {(4u << 16) | OP_LOAD, uint_type, a, w[at + 4],
                             (4u << 16) | OP_LOAD, uint_type, b, w[at + 5],
                             (6u << 16) | OP_SDOT, w[at + 1], w[at + 2], a, b, 0};
         if (spirv_emit(o, words, sizeof(words) / sizeof(words[0])))
            return 1;
         calls++;
         continue;
      }
      if (spirv_emit(o, w + at, len))
         return 1;
      if (op == OP_CAPABILITY && !caps_done) {
         uint32_t caps[] = {(2u << 16) | OP_CAPABILITY, CAP_DOT_PRODUCT_INPUT_4X8_BIT_PACKED,
                            (2u << 16) | OP_CAPABILITY, CAP_DOT_PRODUCT};
         if (spirv_emit(o, caps, 4))
            return 1;
         caps_done = true;
      }
   }
   if (!calls)
      return spirv_fail("no call of " MARKER " to rewrite", marker);
   o->w[3] = bound;
   return 0;
}
