/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The bf16 step of vmel_spirv_rewrite's coop_khr_bf16 mode (D51, D60), run on the output of
 * the coop_khr rewrite (spirv_coop_khr.c): glslang 12 has no bf16 cooperative matrices, so the
 * bf16 kernels are the fp16 GLSL staging the raw 16-bit bits as uint vectors in shared memory,
 * and this step makes the matrices' 16-bit float components bfloat16:
 *   OpTypeFloat 22 (Result, Width 16) -> (Result, Width 16, FPEncoding BFloat16KHR 0),
 *   OpCapability BFloat16TypeKHR 5116 and BFloat16CooperativeMatrixKHR 5118 after the last
 *   capability (Float16 kept), OpExtension "SPV_KHR_bfloat16" after the last extension
 * (numbers as SPIRV-Headers' spirv.core.grammar.json gives them).
 *
 * That changes the meaning of every use of the type, so the 16-bit float may be used only as
 * the component type of OpTypeCooperativeMatrixKHR (and named or decorated): a 16-bit float
 * anywhere else is fp16 arithmetic, which bf16 bits would silently break, and is refused.
 * Outside the module's preamble (capabilities to annotations) word 1 of every instruction is
 * an id (a result type, a type's result, or an operand: a store's pointer, a branch's label),
 * so it is checked whatever the opcode; so are the id operands of the type declarations. A
 * module without such a matrix is refused too (a kernel given the wrong mode).
 *
 * The output is checked (the capabilities and extension once each, no 16-bit float without
 * an encoding, the id bound kept): SPIRV-Tools 2023.1's spirv-val does not know the extension.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "spirv_rewrite.h"

enum {
   OP_EXTENSION = 10,
   OP_CAPABILITY = 17,
   OP_TYPE_FLOAT = 22,
   OP_TYPE_COOP_KHR = 4456,
   CAP_BF16_TYPE = 5116,
   CAP_BF16_COOP = 5118,
   FP_ENCODING_BF16 = 0,
};

static const char bf16_ext[] = "SPV_KHR_bfloat16";

/* Whether opcode `op` belongs to the preamble: capabilities, extensions, imports, memory
 * model, entry points, execution modes, debug instructions but OpLine, annotations. */
static bool
is_preamble(uint32_t op)
{
   return (op >= 2 && op <= 7) || op == 10 || op == 11 || (op >= 14 && op <= 17) ||
          (op >= 71 && op <= 75) || op == 330 || op == 331 || op == 332 || op == 5632 || op == 5633;
}

/* Whether word i (from 2) of type declaration `op` is an id: a vector's or matrix's
 * component, an image's sampled type, an array's element and length, a struct's members, a
 * pointer's pointee, a function's types, a matrix's component, scope, rows, columns and use.
 * The other type declarations' operands are literals (widths, counts, storage classes). */
static bool
is_type_operand(uint32_t op, uint32_t i)
{
   switch (op) {
   case 23: /* OpTypeVector */
   case 24: /* OpTypeMatrix */
   case 25: /* OpTypeImage */
   case 27: /* OpTypeSampledImage */
   case 29: /* OpTypeRuntimeArray */
      return i == 2;
   case 28: /* OpTypeArray */
   case 30: /* OpTypeStruct */
   case 33: /* OpTypeFunction */
   case OP_TYPE_COOP_KHR:
      return true;
   case 32: /* OpTypePointer */
      return i == 3;
   default:
      return false;
   }
}

/* The 16-bit float's id, checked as the header says; 0 after a message. */
static uint32_t
find_half(const uint32_t *w, size_t n, size_t *last_cap, size_t *last_ext)
{
   uint32_t half = 0, matrices = 0;
   for (size_t at = 5; at < n; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffffu, len = w[at] >> 16;
      if (len == 0 || at + len > n)
         return spirv_fail("a malformed instruction", (uint32_t)at), 0;
      if (op == OP_CAPABILITY)
         *last_cap = at;
      if (op == OP_EXTENSION)
         *last_ext = at;
      if (op == OP_TYPE_FLOAT && len == 3 && w[at + 2] == 16) {
         if (half)
            return spirv_fail("a second 16-bit float type", w[at + 1]), 0;
         half = w[at + 1];
      }
   }
   if (!half || !*last_cap)
      return spirv_fail("no 16-bit float type or no capability", 0), 0;
   for (size_t at = 5; at < n; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffffu, len = w[at] >> 16;
      if (op == OP_TYPE_COOP_KHR && len >= 3 && w[at + 2] == half)
         matrices++;
      if (is_preamble(op) || (op == OP_TYPE_FLOAT && w[at + 1] == half))
         continue; /* OpName, OpDecorate... name their target in word 1 */
      bool used = len >= 2 && w[at + 1] == half;
      for (uint32_t i = 2; i < len && !used; i++)
         used = is_type_operand(op, i) && w[at + i] == half && !(op == OP_TYPE_COOP_KHR && i == 2);
      if (used)
         return spirv_fail("a 16-bit float used outside cooperative matrices (fp16 arithmetic "
                           "or storage, which bf16 would change)",
                           half),
                0;
   }
   if (!matrices)
      return spirv_fail("no cooperative matrix of 16-bit floats to make bf16", half), 0;
   return half;
}

/* The checks of the output. */
static int
check(const uint32_t *w, size_t n, uint32_t bound)
{
   uint32_t type_caps = 0, coop_caps = 0, exts = 0;
   for (size_t at = 5; at < n; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffffu, len = w[at] >> 16;
      if (len == 0 || at + len > n)
         return spirv_fail("check: a malformed instruction", (uint32_t)at);
      if (op == OP_TYPE_FLOAT && len == 3 && w[at + 2] == 16)
         return spirv_fail("check: a 16-bit float without an encoding is left", w[at + 1]);
      type_caps += op == OP_CAPABILITY && len == 2 && w[at + 1] == CAP_BF16_TYPE;
      coop_caps += op == OP_CAPABILITY && len == 2 && w[at + 1] == CAP_BF16_COOP;
      exts += spirv_is_extension(w + at, bf16_ext);
   }
   if (type_caps != 1 || coop_caps != 1 || exts != 1)
      return spirv_fail("check: the bf16 capabilities or extension not there once", 0);
   if (w[3] != bound)
      return spirv_fail("check: the id bound changed", w[3]);
   return 0;
}

int
spirv_bf16(uint32_t *w, size_t n, struct spirv_out *o)
{
   size_t last_cap = 0, last_ext = 0;
   uint32_t half = find_half(w, n, &last_cap, &last_ext);
   if (!half || spirv_emit(o, w, 5))
      return 1;
   for (size_t at = 5; at < n; at += w[at] >> 16) {
      uint32_t op = w[at] & 0xffffu, len = w[at] >> 16;
      if (op == OP_TYPE_FLOAT && w[at + 1] == half) {
         uint32_t ty[4] = {(4u << 16) | OP_TYPE_FLOAT, half, 16, FP_ENCODING_BF16};
         if (spirv_emit(o, ty, 4))
            return 1;
         continue;
      }
      if (spirv_emit(o, w + at, len))
         return 1;
      if (at == last_cap) {
         uint32_t caps[] = {(2u << 16) | OP_CAPABILITY, CAP_BF16_TYPE,
                            (2u << 16) | OP_CAPABILITY, CAP_BF16_COOP};
         if (spirv_emit(o, caps, 4))
            return 1;
      }
      /* the extension after the last one, else after the capabilities */
      if (at == (last_ext ? last_ext : last_cap) && spirv_emit_string_op(o, OP_EXTENSION, bf16_ext))
         return 1;
   }
   return check(o->w, o->n, w[3]);
}
