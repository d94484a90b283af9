/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The module-level end of the lowering: the ARM capabilities and extensions
 * go (TensorsARM and its array-indexing variants, BFloat16TypeKHR,
 * Float8EXT with SPV_ARM_tensors, SPV_KHR_bfloat16, SPV_EXT_float8), and what
 * the lowered code uses comes in:
 *  - PhysicalStorageBuffer64 addressing with PhysicalStorageBufferAddresses
 *    and SPV_KHR_physical_storage_buffer, for the element accesses;
 *  - SPV_KHR_storage_buffer_storage_class before SPIR-V 1.3, for the records;
 *  - StorageBufferArrayDynamicIndexing / ShaderNonUniform +
 *    StorageBufferArrayNonUniformIndexing / RuntimeDescriptorArray where the
 *    tensor-array capabilities were (StorageTensorArrayNonUniformIndexingARM
 *    implicitly declares ShaderNonUniform, which must now be explicit);
 *  - 8/16-bit storage for elements of those sizes, and Int8/Int16/Int64/
 *    Float16/Float64 for every type of those widths the module now declares.
 * Each capability the input did not declare is checked against the device
 * features in tsr_lower_options; a missing one fails the lowering.
 */
#include "tsr_lower_private.h"

#include <string.h>

struct cap_need {
   uint32_t cap;
   const char *extension; /* needed before extension_version, or NULL */
   uint32_t extension_version;
   uint32_t feature; /* enum tsr_lower_feature, 0 for none */
   const char *feature_name;
};

static bool
add(struct tsr_lower *l, const struct cap_need *n)
{
   struct spirv_builder *b = &l->b;
   if (spirv_builder_has_capability(b, n->cap))
      return true;
   if (n->feature && !(l->opts->features & n->feature))
      return tsr_lower_fail(l, VK_ERROR_FEATURE_NOT_PRESENT, 0,
                            "the lowered shader needs capability %u, which needs the device "
                            "feature %s",
                            n->cap, n->feature_name);
   spirv_builder_add_capability(b, n->cap);
   if (n->extension && b->version < n->extension_version)
      spirv_builder_add_extension(b, n->extension);
   return true;
}

static void
set_addressing_model(struct tsr_lower *l)
{
   struct spirv_stream *s = &l->b.sections[SPIRV_SECTION_MEMORY_MODEL];
   if (s->count == 3 && (s->words[0] & 0xffffu) == SpvOpMemoryModel)
      s->words[1] = SpvAddressingModelPhysicalStorageBuffer64;
}

/* Capabilities for the widths of the integer and float types now declared. */
static bool
add_type_capabilities(struct tsr_lower *l)
{
   static const struct cap_need int8 = {SpvCapabilityInt8, NULL, 0, TSR_LOWER_FEATURE_INT8,
                                        "shaderInt8"};
   static const struct cap_need int16 = {SpvCapabilityInt16, NULL, 0, TSR_LOWER_FEATURE_INT16,
                                         "shaderInt16"};
   static const struct cap_need int64 = {SpvCapabilityInt64, NULL, 0, TSR_LOWER_FEATURE_INT64,
                                         "shaderInt64"};
   static const struct cap_need float16 = {SpvCapabilityFloat16, NULL, 0, TSR_LOWER_FEATURE_FLOAT16,
                                           "shaderFloat16"};
   static const struct cap_need float64 = {SpvCapabilityFloat64, NULL, 0, TSR_LOWER_FEATURE_FLOAT64,
                                           "shaderFloat64"};
   const struct spirv_builder *b = &l->b;
   const struct spirv_stream *g = &b->sections[SPIRV_SECTION_GLOBAL];
   bool ok = true;
   for (size_t i = 0; i < g->count && ok; i += g->words[i] >> 16) {
      const uint32_t *w = g->words + i;
      uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
      if (wc < 3 || (w[1] < b->replace_capacity && b->replace[w[1]]))
         continue;
      if (op == SpvOpTypeInt && w[2] == 8)
         ok = add(l, &int8);
      else if (op == SpvOpTypeInt && w[2] == 16)
         ok = add(l, &int16);
      else if (op == SpvOpTypeInt && w[2] == 64)
         ok = add(l, &int64);
      else if (op == SpvOpTypeFloat && wc == 3 && w[2] == 16)
         ok = add(l, &float16);
      else if (op == SpvOpTypeFloat && wc == 3 && w[2] == 64)
         ok = add(l, &float64);
   }
   return ok;
}

bool
tsr_lower_capabilities(struct tsr_lower *l)
{
   static const struct cap_need psb = {SpvCapabilityPhysicalStorageBufferAddresses, NULL, 0, 0,
                                       NULL};
   static const struct cap_need dynamic = {SpvCapabilityStorageBufferArrayDynamicIndexing, NULL, 0,
                                           0, NULL};
   static const struct cap_need non_uniform = {SpvCapabilityShaderNonUniform,
                                               "SPV_EXT_descriptor_indexing", 0x00010500u, 0, NULL};
   static const struct cap_need non_uniform_sb = {
       SpvCapabilityStorageBufferArrayNonUniformIndexing, "SPV_EXT_descriptor_indexing",
       0x00010500u, TSR_LOWER_FEATURE_NON_UNIFORM, "shaderStorageBufferArrayNonUniformIndexing"};
   static const struct cap_need runtime = {
       SpvCapabilityRuntimeDescriptorArray, "SPV_EXT_descriptor_indexing", 0x00010500u,
       TSR_LOWER_FEATURE_RUNTIME_ARRAY, "runtimeDescriptorArray"};
   static const struct cap_need storage8 = {SpvCapabilityStorageBuffer8BitAccess,
                                            "SPV_KHR_8bit_storage", 0x00010500u,
                                            TSR_LOWER_FEATURE_STORAGE8, "storageBuffer8BitAccess"};
   static const struct cap_need storage16 = {
       SpvCapabilityStorageBuffer16BitAccess, "SPV_KHR_16bit_storage", 0x00010300u,
       TSR_LOWER_FEATURE_STORAGE16, "storageBuffer16BitAccess"};
   struct spirv_builder *b = &l->b;
   bool changed = false;
   static const uint32_t arm_caps[] = {SPV_ARM_CAP_TENSORS,
                                       SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING,
                                       SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING,
                                       SPV_ARM_CAP_BFLOAT16_TYPE_KHR, SPV_ARM_CAP_FLOAT8_EXT};
   for (size_t i = 0; i < sizeof(arm_caps) / sizeof(arm_caps[0]); i++)
      changed |= spirv_builder_remove_capability(b, arm_caps[i]);
   changed |= spirv_builder_remove_extension(b, SPV_ARM_EXT_TENSORS);
   changed |= spirv_builder_remove_extension(b, SPV_ARM_EXT_BFLOAT16_KHR);
   changed |= spirv_builder_remove_extension(b, SPV_ARM_EXT_FLOAT8_EXT);

   bool ok = true;
   if (l->tensor_count) {
      set_addressing_model(l);
      ok = add(l, &psb);
      spirv_builder_add_extension(b, "SPV_KHR_physical_storage_buffer");
      if (l->has_tensor_vars && b->version < 0x00010300u)
         spirv_builder_add_extension(b, "SPV_KHR_storage_buffer_storage_class");
      changed = true;
   }
   if (ok && l->arm_dynamic_indexing)
      ok = add(l, &dynamic);
   if (ok && l->arm_non_uniform)
      ok = add(l, &non_uniform) && add(l, &non_uniform_sb);
   if (ok && l->runtime_tensor_array)
      ok = add(l, &runtime);
   if (ok && l->needs_storage8)
      ok = add(l, &storage8);
   if (ok && l->needs_storage16)
      ok = add(l, &storage16);
   if (ok)
      add_type_capabilities(l);
   return changed;
}
