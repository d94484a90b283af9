/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The GLSL round trip (tsr_lower_glsl.h), in four stages:
 *  1. pre-pass: tsr_lower_tensors() with for_glsl. Its output is standard
 *     SPIR-V (records in storage buffers, PhysicalStorageBuffer pointers from
 *     uvec2 addresses) that SPIRV-Cross 2021.01 reads; lower_glsl_compat.c
 *     and the coherent blocks of lower_tensor_access.c cover what it cannot
 *     express. Its checks and messages are the direct lowering's.
 *     SPIRV-Cross is not hardened against invalid SPIR-V (it crashed on
 *     mutated inputs the lowering, which checks only what it needs, let
 *     through: unit.test_lower_robust_glsl), so the direct lowering's output
 *     of the same input first goes through SPIRV-Tools' validator (the static
 *     library glslang needs anyway), with block layout checks off and the
 *     Vulkan environment of the module's SPIR-V version; invalid modules fail
 *     with VK_ERROR_INITIALIZATION_FAILED, like malformed ones. (The for_glsl
 *     output itself is not valid under the Vulkan memory model: Coherent.)
 *  2. SPIRV-Cross (C API, libspirv-cross-c-shared) emits GLSL 4.60 with
 *     Vulkan semantics for the module's one entry point (GLCompute, Vertex or
 *     Fragment, compiled in 3 as that stage). SPIRV-Cross
 *     catches its own exceptions and reports them as spvc_result.
 *  3. glslang (C API, static archives kept out of the layer's exports by
 *     -Wl,--exclude-libs,ALL) compiles the GLSL for Vulkan to SPIR-V of the
 *     input's version (1.0..1.6), without its optimizer (the driver has one).
 *  4. The entry point gets the input's name back (GLSL's is always "main"),
 *     and each capability glslang declared that the pre-pass did not is
 *     checked against the device features.
 * glslang's process state is reference counted here under a mutex
 * (tsr_lower_glsl_retain); compiles run concurrently, as glslang allows once
 * its process is initialized. SPIRV-Cross and glslang allocate with the C++
 * runtime, not with the Vulkan allocator; only the result is allocated with
 * tsr_lower_options::alloc.
 */
#include "tsr_lower_glsl.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <spirv-tools/libspirv.h>
#include <spirv_cross_c.h> /* brings SPIRV-Cross's own spirv.h (SpvOp..., SpvCapability...) */

#include "lyr_alloc.h"

#define HEADER_WORDS 5u

static pthread_mutex_t glslang_lock = PTHREAD_MUTEX_INITIALIZER;
static uint32_t glslang_refs;

bool
tsr_lower_glsl_retain(void)
{
   pthread_mutex_lock(&glslang_lock);
   bool ok = glslang_refs > 0 || glslang_initialize_process();
   if (ok)
      glslang_refs++;
   pthread_mutex_unlock(&glslang_lock);
   return ok;
}

void
tsr_lower_glsl_release(void)
{
   pthread_mutex_lock(&glslang_lock);
   if (glslang_refs && --glslang_refs == 0)
      glslang_finalize_process();
   pthread_mutex_unlock(&glslang_lock);
}

struct round_trip {
   struct tsr_lower_options opts; /* for_glsl set */
   char *err;
   size_t err_len;
   uint32_t *mid; /* the pre-pass's module */
   size_t mid_count;
   const char *entry_name; /* inside mid */
   uint32_t entry_name_words;
   uint32_t model;        /* SpvExecutionModel of the entry point */
   glslang_stage_t stage; /* its glslang stage */
};

static VkResult fail(struct round_trip *rt, VkResult result, const char *stage, const char *fmt,
                     ...) __attribute__((format(printf, 4, 5)));

/* Writes "stage: message" to the caller's buffer; returns result. */
static VkResult
fail(struct round_trip *rt, VkResult result, const char *stage, const char *fmt, ...)
{
   if (!rt->err || !rt->err_len)
      return result;
   int n = snprintf(rt->err, rt->err_len, "%s: ", stage);
   if (n >= 0 && (size_t)n < rt->err_len) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(rt->err + n, rt->err_len - (size_t)n, fmt, ap);
      va_end(ap);
   }
   return result;
}

/* fail() with a multi-line log folded into one line ("; " between lines). */
static VkResult
fail_log(struct round_trip *rt, VkResult result, const char *stage, const char *what,
         const char *log)
{
   char line[1024];
   size_t n = 0;
   bool sep = false;
   for (const char *p = log ? log : ""; *p && n + 3 < sizeof(line); p++) {
      if (*p == '\n' || *p == '\r') {
         sep = n > 0;
         continue;
      }
      if (sep) {
         line[n++] = ';';
         line[n++] = ' ';
         sep = false;
      }
      line[n++] = *p;
   }
   line[n] = '\0';
   return fail(rt, result, stage, "%s%s%s", what, n ? ": " : "", line);
}

/* Finds the one entry point of the pre-pass's module; fails unless it is GLCompute, Vertex or
 * Fragment (the pre-pass has checked that its stage may use tensors). */
static VkResult
find_entry_point(struct round_trip *rt)
{
   uint32_t count = 0, model = 0;
   for (size_t i = HEADER_WORDS; i < rt->mid_count;) {
      const uint32_t *w = rt->mid + i;
      uint32_t wc = w[0] >> 16;
      if (!wc || i + wc > rt->mid_count)
         break;
      if ((w[0] & 0xffffu) == SpvOpEntryPoint && wc >= 4 && count++ == 0) {
         model = w[1];
         rt->entry_name = (const char *)(w + 3);
         size_t max = (wc - 3) * sizeof(uint32_t);
         size_t len = strnlen(rt->entry_name, max);
         rt->entry_name_words = (uint32_t)(len < max ? len / 4 + 1 : 0);
      }
      i += wc;
   }
   if (count != 1)
      return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "GLSL round trip",
                  "the module has %u entry points; GLSL has one per shader "
                  "(VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE=1 lowers any number)",
                  count);
   rt->model = model;
   if (model == SpvExecutionModelGLCompute)
      rt->stage = GLSLANG_STAGE_COMPUTE;
   else if (model == SpvExecutionModelVertex)
      rt->stage = GLSLANG_STAGE_VERTEX;
   else if (model == SpvExecutionModelFragment)
      rt->stage = GLSLANG_STAGE_FRAGMENT;
   else
      return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "GLSL round trip",
                  "the entry point is not a GLCompute, Vertex or Fragment shader (execution "
                  "model %u)",
                  model);
   if (!rt->entry_name_words)
      return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "GLSL round trip",
                  "the entry point's name is not terminated");
   return VK_SUCCESS;
}

static spv_target_env
validation_env(uint32_t version)
{
   if (version >= 0x00010600u)
      return SPV_ENV_VULKAN_1_3;
   if (version >= 0x00010500u)
      return SPV_ENV_VULKAN_1_2;
   if (version >= 0x00010400u)
      return SPV_ENV_VULKAN_1_1_SPIRV_1_4;
   if (version >= 0x00010100u)
      return SPV_ENV_VULKAN_1_1;
   return SPV_ENV_VULKAN_1_0;
}

/* Stage 1, guard: the direct lowering of the same input must be valid SPIR-V. */
static VkResult
validate(struct round_trip *rt, const uint32_t *words, size_t count)
{
   uint32_t *direct = NULL;
   size_t direct_count = 0;
   struct tsr_lower_options opts = rt->opts;
   opts.for_glsl = false;
   VkResult result =
       tsr_lower_tensors(words, count, &opts, &direct, &direct_count, rt->err, rt->err_len);
   if (result != VK_SUCCESS)
      return result;
   spv_context ctx = spvContextCreate(validation_env(direct[1]));
   spv_validator_options vo = spvValidatorOptionsCreate();
   spv_diagnostic diag = NULL;
   if (!ctx || !vo) {
      result = fail(rt, VK_ERROR_OUT_OF_HOST_MEMORY, "SPIR-V validator", "out of memory");
   } else {
      spvValidatorOptionsSetRelaxBlockLayout(vo, true);
      spvValidatorOptionsSetScalarBlockLayout(vo, true);
      spvValidatorOptionsSetSkipBlockLayout(vo, true);
      spvValidatorOptionsSetRelaxStoreStruct(vo, true);
      spvValidatorOptionsSetAllowLocalSizeId(vo, true);
      spv_const_binary_t binary = {direct, direct_count};
      spv_result_t sr = spvValidateWithOptions(ctx, vo, &binary, &diag);
      if (sr != SPV_SUCCESS)
         result = fail_log(rt, VK_ERROR_INITIALIZATION_FAILED, "SPIR-V validator",
                           "the lowered module is invalid, so the input must be",
                           diag && diag->error ? diag->error : "no message");
   }
   spvDiagnosticDestroy(diag);
   if (vo)
      spvValidatorOptionsDestroy(vo);
   if (ctx)
      spvContextDestroy(ctx);
   tsr_lower_free(&opts, direct);
   return result;
}

static VkResult
spvc_failure(struct round_trip *rt, spvc_context ctx, spvc_result sr, const char *what)
{
   if (sr == SPVC_ERROR_OUT_OF_MEMORY)
      return fail(rt, VK_ERROR_OUT_OF_HOST_MEMORY, "SPIRV-Cross", "%s: out of memory", what);
   const char *msg = ctx ? spvc_context_get_last_error_string(ctx) : NULL;
   return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "SPIRV-Cross", "%s: %s (spvc_result %d)", what,
               msg && *msg ? msg : "failed", (int)sr);
}

/* Stage 2: the GLSL of the pre-pass's module, owned by ctx. */
static VkResult
to_glsl(struct round_trip *rt, spvc_context ctx, const char **glsl)
{
   spvc_parsed_ir ir = NULL;
   spvc_compiler compiler = NULL;
   spvc_compiler_options options = NULL;
   spvc_result sr = spvc_context_parse_spirv(ctx, rt->mid, rt->mid_count, &ir);
   if (sr != SPVC_SUCCESS)
      return spvc_failure(rt, ctx, sr, "parsing");
   sr = spvc_context_create_compiler(ctx, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP,
                                     &compiler);
   if (sr == SPVC_SUCCESS)
      sr = spvc_compiler_set_entry_point(compiler, rt->entry_name, (SpvExecutionModel)rt->model);
   if (sr == SPVC_SUCCESS)
      sr = spvc_compiler_create_compiler_options(compiler, &options);
   if (sr == SPVC_SUCCESS)
      sr = spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 460);
   if (sr == SPVC_SUCCESS)
      sr = spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_ES, SPVC_FALSE);
   if (sr == SPVC_SUCCESS)
      sr = spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS,
                                          SPVC_TRUE);
   if (sr == SPVC_SUCCESS)
      sr = spvc_compiler_install_compiler_options(compiler, options);
   if (sr != SPVC_SUCCESS)
      return spvc_failure(rt, ctx, sr, "setting up the GLSL compiler");
   sr = spvc_compiler_compile(compiler, glsl);
   if (sr != SPVC_SUCCESS || !*glsl)
      return spvc_failure(rt, ctx, sr, "emitting GLSL");
   return VK_SUCCESS;
}

static glslang_target_client_version_t
client_version(uint32_t spirv_version)
{
   if (spirv_version >= 0x00010600u)
      return GLSLANG_TARGET_VULKAN_1_3;
   if (spirv_version >= 0x00010400u)
      return GLSLANG_TARGET_VULKAN_1_2;
   if (spirv_version >= 0x00010100u)
      return GLSLANG_TARGET_VULKAN_1_1;
   return GLSLANG_TARGET_VULKAN_1_0;
}

/* Stage 3: compiles the GLSL; *program holds the SPIR-V on success. */
static VkResult
to_spirv(struct round_trip *rt, const char *glsl, glslang_shader_t **shader,
         glslang_program_t **program)
{
   uint32_t version = rt->mid[1] & 0x00ffff00u;
   if (version > 0x00010600u)
      version = 0x00010600u;
   if (version < 0x00010000u)
      version = 0x00010000u;
   int messages = GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT;
   const glslang_input_t input = {
       .language = GLSLANG_SOURCE_GLSL,
       .stage = rt->stage,
       .client = GLSLANG_CLIENT_VULKAN,
       .client_version = client_version(version),
       .target_language = GLSLANG_TARGET_SPV,
       .target_language_version = (glslang_target_language_version_t)version,
       .code = glsl,
       .default_version = 460,
       .default_profile = GLSLANG_NO_PROFILE,
       .messages = (glslang_messages_t)messages,
       .resource = glslang_default_resource(),
   };
   *shader = glslang_shader_create(&input);
   if (!*shader)
      return fail(rt, VK_ERROR_OUT_OF_HOST_MEMORY, "glslang", "no shader object");
   /* glslang 12's C API parses the preprocessed text, so preprocessing comes first. */
   if (!glslang_shader_preprocess(*shader, &input))
      return fail_log(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang", "preprocessing the GLSL",
                      glslang_shader_get_info_log(*shader));
   if (!glslang_shader_parse(*shader, &input))
      return fail_log(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang", "compiling the GLSL",
                      glslang_shader_get_info_log(*shader));
   *program = glslang_program_create();
   if (!*program)
      return fail(rt, VK_ERROR_OUT_OF_HOST_MEMORY, "glslang", "no program object");
   glslang_program_add_shader(*program, *shader);
   if (!glslang_program_link(*program, messages))
      return fail_log(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang", "linking",
                      glslang_program_get_info_log(*program));
   glslang_spv_options_t spv = {.disable_optimizer = true};
   glslang_program_SPIRV_generate_with_options(*program, rt->stage, &spv);
   if (glslang_program_SPIRV_get_size(*program) <= HEADER_WORDS ||
       !glslang_program_SPIRV_get_ptr(*program))
      return fail_log(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang SPIR-V", "no module generated",
                      glslang_program_SPIRV_get_messages(*program));
   return VK_SUCCESS;
}

/* Whether the module declares capability cap. */
static bool
declares(const uint32_t *words, size_t count, uint32_t cap)
{
   for (size_t i = HEADER_WORDS; i < count;) {
      uint32_t wc = words[i] >> 16, op = words[i] & 0xffffu;
      if (!wc || i + wc > count)
         return false;
      if (op == SpvOpCapability && wc >= 2 && words[i + 1] == cap)
         return true;
      if (op != SpvOpCapability && op != SpvOpNop)
         return false; /* capabilities come first */
      i += wc;
   }
   return false;
}

/* The device feature a capability needs, for those the lowering knows. */
static bool
capability_feature(uint32_t cap, uint32_t *feature, const char **name)
{
   static const struct {
      uint32_t cap, feature;
      const char *name;
   } map[] = {
       {SpvCapabilityInt8, TSR_LOWER_FEATURE_INT8, "shaderInt8"},
       {SpvCapabilityInt16, TSR_LOWER_FEATURE_INT16, "shaderInt16"},
       {SpvCapabilityInt64, TSR_LOWER_FEATURE_INT64, "shaderInt64"},
       {SpvCapabilityFloat16, TSR_LOWER_FEATURE_FLOAT16, "shaderFloat16"},
       {SpvCapabilityFloat64, TSR_LOWER_FEATURE_FLOAT64, "shaderFloat64"},
       {SpvCapabilityStorageBuffer8BitAccess, TSR_LOWER_FEATURE_STORAGE8,
        "storageBuffer8BitAccess"},
       {SpvCapabilityStorageBuffer16BitAccess, TSR_LOWER_FEATURE_STORAGE16,
        "storageBuffer16BitAccess"},
       {SpvCapabilityStorageBufferArrayNonUniformIndexing, TSR_LOWER_FEATURE_NON_UNIFORM,
        "shaderStorageBufferArrayNonUniformIndexing"},
       {SpvCapabilityRuntimeDescriptorArray, TSR_LOWER_FEATURE_RUNTIME_ARRAY,
        "runtimeDescriptorArray"},
       /* Needed by what the pre-pass declared; no feature of their own. */
       {SpvCapabilityShader, 0, NULL},
       {SpvCapabilityShaderNonUniform, 0, NULL},
       {SpvCapabilityPhysicalStorageBufferAddresses, 0, NULL},
       {SpvCapabilityStorageBufferArrayDynamicIndexing, 0, NULL},
   };
   for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
      if (map[i].cap == cap) {
         *feature = map[i].feature;
         *name = map[i].name;
         return true;
      }
   }
   return false;
}

/* Stage 4: checks glslang's capabilities and copies its module with the entry point renamed. */
static VkResult
finish_module(struct round_trip *rt, const uint32_t *spv, size_t count, uint32_t **out,
              size_t *out_count)
{
   size_t ep_at = 0, ep_name_words = 0;
   for (size_t i = HEADER_WORDS; i < count;) {
      uint32_t wc = spv[i] >> 16, op = spv[i] & 0xffffu;
      if (!wc || i + wc > count)
         return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang SPIR-V",
                     "malformed instruction at word %zu", i);
      if (op == SpvOpCapability && wc >= 2 && !declares(rt->mid, rt->mid_count, spv[i + 1])) {
         uint32_t feature = 0;
         const char *name = NULL;
         if (!capability_feature(spv[i + 1], &feature, &name))
            return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang SPIR-V",
                        "declares capability %u, which the lowering does not check", spv[i + 1]);
         if (feature && !(rt->opts.features & feature))
            return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang SPIR-V",
                        "declares capability %u, which needs the device feature %s", spv[i + 1],
                        name);
      }
      if (op == SpvOpEntryPoint && wc >= 4 && !ep_at) {
         size_t max = (wc - 3) * sizeof(uint32_t);
         size_t len = strnlen((const char *)(spv + i + 3), max);
         if (len == max)
            return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang SPIR-V",
                        "unterminated entry point name");
         ep_at = i;
         ep_name_words = len / 4 + 1;
      }
      i += wc;
   }
   if (!ep_at)
      return fail(rt, VK_ERROR_FEATURE_NOT_PRESENT, "glslang SPIR-V", "no entry point");

   size_t n = count - ep_name_words + rt->entry_name_words;
   uint32_t ep_wc = (spv[ep_at] >> 16) - (uint32_t)ep_name_words + rt->entry_name_words;
   uint32_t *words =
       lyr_alloc(rt->opts.alloc, n * sizeof(uint32_t), 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!words)
      return fail(rt, VK_ERROR_OUT_OF_HOST_MEMORY, "GLSL round trip", "out of memory");
   size_t at = ep_at + 3;
   memcpy(words, spv, at * sizeof(uint32_t));
   words[ep_at] = ep_wc << 16 | SpvOpEntryPoint;
   memcpy(words + at, rt->entry_name, rt->entry_name_words * sizeof(uint32_t));
   at += rt->entry_name_words;
   size_t rest = ep_at + 3 + ep_name_words;
   memcpy(words + at, spv + rest, (count - rest) * sizeof(uint32_t));
   *out = words;
   *out_count = n;
   return VK_SUCCESS;
}

VkResult
tsr_lower_glsl(const uint32_t *words, size_t count, const struct tsr_lower_options *opts,
               tsr_lower_glsl_text_fn text, void *user, uint32_t **out, size_t *out_count,
               char *err, size_t err_len)
{
   struct round_trip rt = {
       .opts = {TSR_LOWER_FEATURES_ALL, &lyr_default_alloc, true},
       .err = err,
       .err_len = err_len,
   };
   if (opts) {
      rt.opts = *opts;
      rt.opts.for_glsl = true;
      if (!rt.opts.alloc)
         rt.opts.alloc = &lyr_default_alloc;
   }
   *out = NULL;
   *out_count = 0;
   if (err && err_len)
      err[0] = '\0';

   VkResult result = validate(&rt, words, count);
   if (result != VK_SUCCESS)
      return result;
   result = tsr_lower_tensors(words, count, &rt.opts, &rt.mid, &rt.mid_count, err, err_len);
   if (result != VK_SUCCESS)
      return result;
   result = find_entry_point(&rt);
   if (result != VK_SUCCESS) {
      tsr_lower_free(&rt.opts, rt.mid);
      return result;
   }
   if (!tsr_lower_glsl_retain()) {
      tsr_lower_free(&rt.opts, rt.mid);
      return fail(&rt, VK_ERROR_INITIALIZATION_FAILED, "glslang", "initialization failed");
   }

   spvc_context ctx = NULL;
   glslang_shader_t *shader = NULL;
   glslang_program_t *program = NULL;
   const char *glsl = NULL;
   if (spvc_context_create(&ctx) != SPVC_SUCCESS)
      result = fail(&rt, VK_ERROR_OUT_OF_HOST_MEMORY, "SPIRV-Cross", "no context");
   if (result == VK_SUCCESS)
      result = to_glsl(&rt, ctx, &glsl);
   if (result == VK_SUCCESS && text)
      text(user, glsl);
   if (result == VK_SUCCESS)
      result = to_spirv(&rt, glsl, &shader, &program);
   if (result == VK_SUCCESS)
      result = finish_module(&rt, glslang_program_SPIRV_get_ptr(program),
                             glslang_program_SPIRV_get_size(program), out, out_count);

   if (program)
      glslang_program_delete(program);
   if (shader)
      glslang_shader_delete(shader);
   if (ctx)
      spvc_context_destroy(ctx);
   tsr_lower_glsl_release();
   tsr_lower_free(&rt.opts, rt.mid);
   return result;
}
