/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The direct SPIR-V-to-SPIR-V tensor lowering (issue 4, design.md §4
 * "Shader lowering"): a compute module using SPV_ARM_tensors in, a module
 * any Vulkan 1.3 device with buffer device addresses can run out. Every
 * tensor descriptor becomes a read-only storage buffer holding one
 * struct vmel_tensor_record (include/kernel_abi/tensor_record.h); every
 * tensor access becomes address arithmetic on the record and a
 * PhysicalStorageBuffer load or store, with the out-of-bounds rules of
 * SPV_ARM_tensors. bfloat16 and float8 types, which drivers do not know,
 * become 16- and 8-bit integers with their conversions done in integer code.
 *
 * No Vulkan device or loader is involved: this is a pure function over words,
 * usable from unit tests and tools. It is also the pre-pass of the GLSL round
 * trip (tsr_lower_glsl.h), with tsr_lower_options::for_glsl set.
 */
#ifndef TSR_LOWER_H
#define TSR_LOWER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/** Device capabilities the lowered module may rely on (tsr_lower_options::features). */
enum tsr_lower_feature {
   TSR_LOWER_FEATURE_INT8 = 1u << 0,          /* shaderInt8 */
   TSR_LOWER_FEATURE_INT16 = 1u << 1,         /* shaderInt16 */
   TSR_LOWER_FEATURE_INT64 = 1u << 2,         /* shaderInt64 */
   TSR_LOWER_FEATURE_FLOAT16 = 1u << 3,       /* shaderFloat16 */
   TSR_LOWER_FEATURE_FLOAT64 = 1u << 4,       /* shaderFloat64 */
   TSR_LOWER_FEATURE_STORAGE8 = 1u << 5,      /* storageBuffer8BitAccess */
   TSR_LOWER_FEATURE_STORAGE16 = 1u << 6,     /* storageBuffer16BitAccess */
   TSR_LOWER_FEATURE_NON_UNIFORM = 1u << 7,   /* shaderStorageBufferArrayNonUniformIndexing */
   TSR_LOWER_FEATURE_RUNTIME_ARRAY = 1u << 8, /* runtimeDescriptorArray */
   /* Tensors in vertex / fragment entry points (VK_SHADER_STAGE_VERTEX_BIT / FRAGMENT_BIT in
    * shaderTensorSupportedStages: vertexPipelineStoresAndAtomics / fragmentStoresAndAtomics). */
   TSR_LOWER_FEATURE_VERTEX = 1u << 9,
   TSR_LOWER_FEATURE_FRAGMENT = 1u << 10,
};
#define TSR_LOWER_FEATURES_ALL 0x7ffu

/** The feature bit named name[0..len) ("int8", "storage16", "runtime_array", ...: the enum's
 *  names in lower case), or 0 for an unknown name. For tools and tests that take feature lists. */
uint32_t tsr_lower_feature_from_name(const char *name, size_t len);

struct tsr_lower_options {
   uint32_t features;                  /* enum tsr_lower_feature bits the device has */
   const VkAllocationCallbacks *alloc; /* NULL: the default allocator */
   /*
    * Shape the output for SPIRV-Cross 2021 (Debian 12) rather than for a driver, as the
    * pre-pass of the GLSL round trip (lower_glsl_compat.c): coordinate arrays whose length
    * is a specialization constant get VMEL_TENSOR_MAX_RANK elements (GLSL cannot copy
    * arrays sized by a specialization constant), PhysicalStorageBuffer pointer types to
    * the same type are merged (SPIRV-Cross names their blocks after the pointee), and
    * accesses with MakeElementAvailable/VisibleARM go through a Coherent block (SPIRV-Cross
    * drops memory-model operands). The result may break Vulkan memory model rules; it is
    * not meant for a driver.
    */
   bool for_glsl;
};

/**
 * Lowers a module that declares TensorsARM.
 * @param words, count the module (need not be valid; it is parsed with checks)
 * @param opts         device features and allocator
 * @param out          receives the lowered module, allocated with opts->alloc (or the
 *                     default allocator); free with tsr_lower_free()
 * @param out_count    receives its word count
 * @param err          receives a one-line reason on failure ("word 57: OpTensorReadARM:
 *                     ..."); may be NULL
 * @return VK_SUCCESS;
 *         VK_ERROR_INITIALIZATION_FAILED for a malformed module (the reader's
 *         checks, or operands that break SPV_ARM_tensors' rules);
 *         VK_ERROR_FEATURE_NOT_PRESENT for something valid that the lowering or
 *         the device cannot do (a tensor in an entry point of a stage without
 *         tensors: see TSR_LOWER_FEATURE_VERTEX/FRAGMENT; a missing
 *         device feature, an unsupported construct);
 *         VK_ERROR_OUT_OF_HOST_MEMORY
 */
VkResult tsr_lower_tensors(const uint32_t *words, size_t count,
                           const struct tsr_lower_options *opts, uint32_t **out, size_t *out_count,
                           char *err, size_t err_len);

/** Frees a module returned by tsr_lower_tensors(). */
void tsr_lower_free(const struct tsr_lower_options *opts, uint32_t *words);

#endif /* TSR_LOWER_H */
