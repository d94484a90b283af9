/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The last pass when the lowering is the pre-pass of the GLSL round trip
 * (tsr_lower_options::for_glsl, lower_glsl.c). The lowered module is valid
 * SPIR-V, but SPIRV-Cross 2021.01 (Debian 12) and GLSL cannot express two of
 * its shapes:
 *  - arrays whose length is a specialization constant cannot be initialized,
 *    assigned or copied in GLSL (glslang: "can't use with types containing
 *    arrays sized with a specialization constant"), and SPIRV-Cross emits SSA
 *    values as initialized temporaries. Coordinate arrays of tensors with a
 *    specialization-constant rank therefore get VMEL_TENSOR_MAX_RANK elements,
 *    composites of them padded with zeros: the input is only valid when the
 *    rank equals the number of constituents, and the lowering reads positions
 *    below the rank only (lower_tensor_address.c). Arrays the input lays out
 *    explicitly (ArrayStride) are left alone.
 *  - SPIRV-Cross names the GLSL block of a PhysicalStorageBuffer pointer to a
 *    scalar after the scalar type, so two pointer types to one type, which
 *    SPIR-V allows and bfloat16/float8 replacement creates (E4M3 and E5M2 both
 *    become uint8), give two blocks of one name. Undecorated pointer types of
 *    that kind are merged.
 * The third adaptation, Coherent blocks for MakeElementAvailable/VisibleARM,
 * is made where the accesses are emitted (lower_tensor_access.c).
 */
#include "tsr_lower_private.h"

#include <string.h>

static uint32_t
resolve(const struct spirv_builder *b, uint32_t id)
{
   for (uint32_t guard = 0; guard < 64 && id < b->replace_capacity && b->replace[id]; guard++)
      id = b->replace[id];
   return id;
}

/* Whether the input decorates id with ArrayStride. */
static bool
has_array_stride(const struct tsr_lower *l, uint32_t id)
{
   for (uint32_t i = 0; i < l->r.inst_count; i++) {
      const struct spirv_inst *inst = &l->r.insts[i];
      if (inst->opcode != SpvOpDecorate || inst->word_count < 3)
         continue;
      const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
      if (w[1] == id && w[2] == SpvDecorationArrayStride)
         return true;
   }
   return false;
}

static bool
is_widened(const struct tsr_lower *l, uint32_t type)
{
   return tsr_lower_has(l, type, TSR_ID_SPEC_COORDS) && resolve(&l->b, type) != type;
}

/* Replaces each spec-constant-length coordinate array type by a VMEL_TENSOR_MAX_RANK one. */
static uint32_t
widen_spec_coords(struct tsr_lower *l)
{
   struct spirv_builder *b = &l->b;
   uint32_t widened = 0;
   for (uint32_t id = 1; id < l->bound; id++) {
      if (!(l->flags[id] & TSR_ID_SPEC_COORDS))
         continue;
      const uint32_t *t = tsr_lower_def_words(l, id);
      if (!t || (t[0] & 0xffffu) != SpvOpTypeArray || (t[0] >> 16) != 4 ||
          has_array_stride(l, id)) {
         l->flags[id] &= (uint16_t)~TSR_ID_SPEC_COORDS;
         continue;
      }
      uint32_t length = spirv_get_const_u32(b, VMEL_TENSOR_MAX_RANK);
      spirv_builder_replace_type(b, id, spirv_get_type_array(b, t[2], length, 0));
      widened++;
   }
   return widened;
}

/* Pads composites of widened coordinate arrays with zeros. */
static VkResult
pad_composite(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   if ((op != SpvOpCompositeConstruct && op != SpvOpConstantComposite &&
        op != SpvOpSpecConstantComposite) ||
       wc < 4 || wc - 3 >= VMEL_TENSOR_MAX_RANK || !is_widened(l, w[1]))
      return VK_SUCCESS;
   uint32_t n = wc - 3, ops[VMEL_TENSOR_MAX_RANK];
   memcpy(ops, w + 3, n * sizeof(uint32_t));
   uint32_t zero = spirv_get_const_null(b, tsr_lower_def_words(l, w[1])[2]);
   for (uint32_t i = n; i < VMEL_TENSOR_MAX_RANK; i++)
      ops[i] = zero;
   enum spirv_section s =
       op == SpvOpCompositeConstruct ? SPIRV_SECTION_FUNCTION : SPIRV_SECTION_GLOBAL;
   spirv_build_op_tr(b, s, op, w[1], w[2], ops, VMEL_TENSOR_MAX_RANK);
   *keep = false;
   return spirv_builder_result(b);
}

/* Whether an annotation targets id, or an OpTypeForwardPointer declares it. */
static bool
pinned_pointer(const struct spirv_builder *b, uint32_t id)
{
   const struct spirv_stream *a = &b->sections[SPIRV_SECTION_ANNOTATION];
   for (size_t i = 0; i < a->count; i += a->words[i] >> 16)
      if ((a->words[i] >> 16) >= 2 && a->words[i + 1] == id)
         return true;
   const struct spirv_stream *g = &b->sections[SPIRV_SECTION_GLOBAL];
   for (size_t i = 0; i < g->count; i += g->words[i] >> 16)
      if ((g->words[i] & 0xffffu) == SpvOpTypeForwardPointer && (g->words[i] >> 16) >= 2 &&
          g->words[i + 1] == id)
         return true;
   return false;
}

/* Merges undecorated PhysicalStorageBuffer pointer types to the same (resolved) type. */
static bool
merge_psb_pointers(struct tsr_lower *l)
{
   struct spirv_builder *b = &l->b;
   const struct spirv_stream *g = &b->sections[SPIRV_SECTION_GLOBAL];
   struct {
      uint32_t pointee, pointer;
   } seen[64];
   uint32_t count = 0;
   bool merged = false;
   for (size_t i = 0; i < g->count; i += g->words[i] >> 16) {
      const uint32_t *w = g->words + i;
      if ((w[0] & 0xffffu) != SpvOpTypePointer || (w[0] >> 16) != 4 ||
          w[2] != SpvStorageClassPhysicalStorageBuffer || resolve(b, w[1]) != w[1] ||
          pinned_pointer(b, w[1]))
         continue;
      uint32_t pointee = resolve(b, w[3]), k = 0;
      while (k < count && seen[k].pointee != pointee)
         k++;
      if (k < count) {
         spirv_builder_replace_type(b, w[1], seen[k].pointer);
         merged = true;
      } else if (count < sizeof(seen) / sizeof(seen[0])) {
         seen[count].pointee = pointee;
         seen[count++].pointer = w[1];
      }
   }
   return merged;
}

bool
tsr_lower_glsl_compat(struct tsr_lower *l)
{
   if (!l->opts->for_glsl)
      return false;
   bool changed = false;
   if (widen_spec_coords(l)) {
      VkResult result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_GLOBAL, pad_composite, l);
      if (result == VK_SUCCESS)
         result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_FUNCTION, pad_composite, l);
      if (result != VK_SUCCESS)
         return tsr_lower_fail(l, result, 0, "GLSL pre-pass: %s",
                               l->b.failure ? l->b.failure : "out of memory");
      changed = true;
   }
   changed |= merge_psb_pointers(l);
   return changed;
}
