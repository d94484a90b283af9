/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Removes bfloat16 (SPV_KHR_bfloat16) and float8 (SPV_EXT_float8) from the
 * module: drivers know neither. Each such OpTypeFloat is replaced by the
 * unsigned integer type of its width (the builder renames every type use
 * and merges vectors that become duplicates when the module is written), so
 * loads, stores, constants, composites, phis and calls keep working on the
 * same bits. What does not survive the renaming is rewritten here:
 *  - OpFConvert, OpConvert{S,U}ToF and OpConvertFTo{S,U} from or to these
 *    types become integer code (lower_float_convert.c), honouring
 *    SaturatedToLargestFloat8NormalConversionEXT;
 *  - OpBitcast between types that become the same integer type becomes
 *    OpCopyObject;
 *  - the float8 saturation decoration, and the FP decorations of the
 *    replaced conversions, are dropped.
 * The analysis already rejected every other instruction on these values
 * (the extensions allow no arithmetic on them).
 */
#include "tsr_lower_private.h"

static bool
small_value_type(const struct tsr_lower *l, uint32_t type, uint32_t *bits, uint32_t *n)
{
   const uint32_t *t = tsr_lower_def_words(l, type);
   *n = 1;
   if (t && (t[0] & 0xffffu) == SpvOpTypeVector && (t[0] >> 16) == 4) {
      *n = t[3];
      t = tsr_lower_def_words(l, t[2]);
   }
   if (!t || !tsr_lower_has(l, t[1], TSR_ID_SMALL_FLOAT))
      return false;
   *bits = t[2];
   return true;
}

/* The type a bfloat16/float8 scalar or vector type becomes; other types are kept. */
static uint32_t
mapped_type(struct tsr_lower *l, uint32_t type)
{
   uint32_t bits, n;
   if (!small_value_type(l, type, &bits, &n))
      return type;
   uint32_t scalar = spirv_get_type_int(&l->b, bits, false);
   return n == 1 ? scalar : spirv_get_type_vector(&l->b, scalar, n);
}

static VkResult
rewrite_function(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   uint32_t bits, n;
   switch (op) {
   case SpvOpFConvert:
   case SpvOpConvertSToF:
   case SpvOpConvertUToF:
   case SpvOpConvertFToS:
   case SpvOpConvertFToU:
      if (wc != 4 || (!small_value_type(l, w[1], &bits, &n) &&
                      !small_value_type(l, tsr_lower_type_of(l, w[3]), &bits, &n)))
         return VK_SUCCESS;
      tsr_lower_convert(l, op, w[1], w[2], w[3], tsr_lower_has(l, w[2], TSR_ID_SATURATE));
      if (w[2] < l->bound)
         l->flags[w[2]] |= TSR_ID_CONVERTED;
      *keep = false;
      break;
   case SpvOpBitcast:
      if (wc == 4 && mapped_type(l, w[1]) == mapped_type(l, tsr_lower_type_of(l, w[3])) &&
          (small_value_type(l, w[1], &bits, &n) ||
           small_value_type(l, tsr_lower_type_of(l, w[3]), &bits, &n))) {
         tsr_op_id(l, SpvOpCopyObject, w[1], w[2], &w[3], 1);
         *keep = false;
      }
      break;
   default:
      break;
   }
   return l->result != VK_SUCCESS ? l->result : spirv_builder_result(b);
}

static VkResult
rewrite_annotation(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   if (op != SpvOpDecorate || wc < 3)
      return VK_SUCCESS;
   if (w[2] == TSR_DECORATION_SATURATED_FLOAT8)
      *keep = false;
   if (tsr_lower_has(l, w[1], TSR_ID_CONVERTED) &&
       (w[2] == SpvDecorationFPRoundingMode || w[2] == SpvDecorationRelaxedPrecision ||
        w[2] == SpvDecorationNoContraction || w[2] == SpvDecorationFPFastMathMode))
      *keep = false;
   return VK_SUCCESS;
}

bool
tsr_lower_small_floats(struct tsr_lower *l)
{
   if (!l->has_small_floats)
      return false;
   VkResult result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_FUNCTION, rewrite_function, l);
   if (result == VK_SUCCESS)
      result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_ANNOTATION, rewrite_annotation, l);
   if (result != VK_SUCCESS) {
      if (l->result == VK_SUCCESS)
         tsr_lower_fail(l, result, 0, "bfloat16/float8: %s",
                        l->b.failure ? l->b.failure : "out of memory");
      return false;
   }
   for (uint32_t i = 0; i < l->r.inst_count; i++) {
      const struct spirv_inst *inst = &l->r.insts[i];
      const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
      if (inst->opcode == SpvOpTypeFloat && tsr_lower_has(l, w[1], TSR_ID_SMALL_FLOAT))
         spirv_builder_replace_type(&l->b, w[1], spirv_get_type_int(&l->b, w[2], false));
   }
   return true;
}
