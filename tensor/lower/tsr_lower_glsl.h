/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The GLSL round trip, the default tensor shader lowering (design.md §4
 * "Shader lowering", docs/decisions.md D18): the direct lowering shaped for
 * SPIRV-Cross as a pre-pass (tsr_lower_options::for_glsl), SPIRV-Cross's C API
 * to GLSL 4.60 with Vulkan semantics, glslang's C API back to SPIR-V of the
 * input's version. Like tsr_lower_tensors(), a function over words with no
 * Vulkan device; it lives in its own library (tsr_lower_glsl) because it
 * links SPIRV-Cross and glslang.
 */
#ifndef TSR_LOWER_GLSL_H
#define TSR_LOWER_GLSL_H

#include "tsr_lower.h"

/** Receives the GLSL of a round trip (NUL-terminated, valid during the call). */
typedef void (*tsr_lower_glsl_text_fn)(void *user, const char *glsl);

/**
 * Lowers a module that declares TensorsARM through GLSL.
 * @param words, count the module
 * @param opts         device features and allocator (for_glsl is implied); NULL: all
 *                     features, the default allocator
 * @param text, user   called with the GLSL once SPIRV-Cross has emitted it; may be NULL
 * @param out          receives the module for the driver, allocated with opts->alloc; free
 *                     with tsr_lower_free()
 * @param out_count    receives its word count
 * @param err          receives a one-line reason on failure: the pre-pass's own ("word 57:
 *                     OpTensorReadARM: ..."), or "<stage>: <message>" with stage
 *                     "GLSL round trip", "SPIRV-Cross", "glslang" or "glslang SPIR-V"
 * @return VK_SUCCESS;
 *         the pre-pass's results (see tsr_lower_tensors());
 *         VK_ERROR_FEATURE_NOT_PRESENT when SPIRV-Cross or glslang fails, when the module
 *         has other than one GLCompute, Vertex or Fragment entry point, or when glslang's
 *         SPIR-V needs a capability whose device feature is missing;
 *         VK_ERROR_INITIALIZATION_FAILED when glslang cannot be initialized;
 *         VK_ERROR_OUT_OF_HOST_MEMORY
 */
VkResult tsr_lower_glsl(const uint32_t *words, size_t count, const struct tsr_lower_options *opts,
                        tsr_lower_glsl_text_fn text, void *user, uint32_t **out, size_t *out_count,
                        char *err, size_t err_len);

/**
 * Keeps glslang's process state (its built-in symbol tables) alive between round
 * trips; each round trip also holds it while it runs. Reference counted, thread-safe.
 * @return false when glslang cannot be initialized
 */
bool tsr_lower_glsl_retain(void);
void tsr_lower_glsl_release(void);

#endif /* TSR_LOWER_GLSL_H */
