/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Shader lowering at the API (design.md §4 "Shader lowering", issue 4):
 * vkCreateShaderModule, vkCreateComputePipelines and vkCreateGraphicsPipelines
 * (a VkShaderModuleCreateInfo chained into a stage, VK_KHR_maintenance5; vertex
 * and fragment stages per shaderTensorSupportedStages, issue 10) hand modules that declare
 * TensorsARM to the lowering (tensor/lower) and give the driver the result;
 * every other module goes down untouched after spirv_declares_capability(), a
 * scan of the leading OpCapability instructions, not a parse. Shader module
 * handles are the driver's, so vkDestroyShaderModule needs no hook.
 *
 * Lowered modules are cached per device by full content (a 64-bit hash, then
 * a comparison of the words), shared by every module and pipeline of the
 * device, behind a mutex that is never held while lowering or calling down;
 * entries in use are pinned by a reference count, and the oldest unpinned
 * ones go once the cache holds more than TSR_SHADER_CACHE_BYTES.
 *
 * Paths (docs/decisions.md D18), chosen once per device at vkCreateDevice from
 * VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE: unset or 0, the GLSL round trip
 * (tsr_lower_glsl(): pre-pass, SPIRV-Cross, glslang), the default; 1, the
 * direct SPIR-V lowering (tsr_lower_tensors()); anything else is logged and
 * means the default. The mode is part of the cache key (entries of one device
 * all have its mode, but the key does not depend on that). With
 * VMEL_TENSOR_SEVERITY=debug the GLSL of each round trip is logged with line
 * numbers, which glslang's messages refer to. Diagnostics of either path
 * (instruction and word offset, or the failing stage and its message) are
 * logged with the VkResult returned.
 *
 * Not here: the tensor record ABI (include/kernel_abi/tensor_record.h) and the
 * descriptor rewriting that binds records (tsr_descriptor.c).
 */
#include "tsr_private.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"
#include "tsr_lower.h"
#include "tsr_lower_glsl.h"

#define TSR_SHADER_CACHE_BYTES (32u << 20)

/* To move into tsr_private.h with the integration (see the report of issue 4). */

/* VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE values. */
enum tsr_shader_mode {
   TSR_SHADER_MODE_GLSL = 0,   /* the GLSL round trip (default) */
   TSR_SHADER_MODE_DIRECT = 1, /* the direct SPIR-V lowering */
};

struct tsr_shader_entry {
   uint64_t hash;
   enum tsr_shader_mode mode; /* part of the key, with the input words */
   uint32_t *input;           /* the application's words (copied) */
   size_t input_count;
   uint32_t *output; /* the lowered words */
   size_t output_count;
   uint32_t refs;                 /* users calling down with output right now */
   struct tsr_shader_entry *next; /* in its bucket */
   struct tsr_shader_entry *newer, *older;
};

/* Attached to VkDevice (through the map below until tsr_device has a field). */
struct tsr_shader_cache {
   pthread_mutex_t lock;
   struct tsr_shader_entry *buckets[256];
   struct tsr_shader_entry *newest, *oldest;
   size_t bytes;
   struct tsr_lower_options options;
   enum tsr_shader_mode mode; /* read once, at vkCreateDevice */
   bool glslang_held;         /* tsr_lower_glsl_retain() succeeded for this device */
   VkAllocationCallbacks alloc;
};

/* VkDevice -> struct tsr_shader_cache. */
static struct lyr_map caches;
static pthread_once_t caches_once = PTHREAD_ONCE_INIT;

static void
caches_init(void)
{
   lyr_map_init(&caches);
}

static struct tsr_shader_cache *
cache_of(struct tsr_device *device)
{
   pthread_once(&caches_once, caches_init);
   return lyr_map_lookup(&caches, device->base.handle);
}

static uint32_t
lower_features(const struct lyr_feature_request *f, VkShaderStageFlags stages)
{
   uint32_t features = 0;
   features |= (stages & VK_SHADER_STAGE_VERTEX_BIT) ? TSR_LOWER_FEATURE_VERTEX : 0;
   features |= (stages & VK_SHADER_STAGE_FRAGMENT_BIT) ? TSR_LOWER_FEATURE_FRAGMENT : 0;
   features |= f->shader_int8 ? TSR_LOWER_FEATURE_INT8 : 0;
   features |= f->shader_int16 ? TSR_LOWER_FEATURE_INT16 : 0;
   features |= f->shader_int64 ? TSR_LOWER_FEATURE_INT64 : 0;
   features |= f->shader_float16 ? TSR_LOWER_FEATURE_FLOAT16 : 0;
   features |= f->shader_float64 ? TSR_LOWER_FEATURE_FLOAT64 : 0;
   features |= f->storage_buffer_8bit_access ? TSR_LOWER_FEATURE_STORAGE8 : 0;
   features |= f->storage_buffer_16bit_access ? TSR_LOWER_FEATURE_STORAGE16 : 0;
   features |= f->storage_buffer_non_uniform_indexing ? TSR_LOWER_FEATURE_NON_UNIFORM : 0;
   return features;
}

static enum tsr_shader_mode
read_mode(void)
{
   const char *mode = getenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE");
   if (!mode || !*mode || !strcmp(mode, "0"))
      return TSR_SHADER_MODE_GLSL;
   if (!strcmp(mode, "1"))
      return TSR_SHADER_MODE_DIRECT;
   lyr_logw("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE=%s: not 0 or 1; using the GLSL round trip",
            mode);
   return TSR_SHADER_MODE_GLSL;
}

VkResult
tsr_shader_init(struct tsr_device *device)
{
   pthread_once(&caches_once, caches_init);
   const VkAllocationCallbacks *alloc = &device->base.alloc;
   struct tsr_shader_cache *c = lyr_zalloc(alloc, sizeof(*c), 8, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!c)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   pthread_mutex_init(&c->lock, NULL);
   c->alloc = *alloc;
   c->options.features = lower_features(&device->caps.device_features,
                                        device->caps.properties.shaderTensorSupportedStages);
   c->options.alloc = &c->alloc;
   c->mode = read_mode();
   if (!lyr_map_insert(&caches, device->base.handle, c)) {
      pthread_mutex_destroy(&c->lock);
      lyr_free(alloc, c);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   /* Keeps glslang's built-in symbol tables between round trips; a failure here shows
    * again, logged, at the first tensor shader. */
   c->glslang_held = c->mode == TSR_SHADER_MODE_GLSL && tsr_lower_glsl_retain();
   lyr_logd("tensor shaders: %s (features 0x%x)",
            c->mode == TSR_SHADER_MODE_DIRECT ? "direct SPIR-V lowering" : "GLSL round trip",
            c->options.features);
   return VK_SUCCESS;
}

static void
entry_free(struct tsr_shader_cache *c, struct tsr_shader_entry *e)
{
   lyr_free(&c->alloc, e->input);
   tsr_lower_free(&c->options, e->output);
   lyr_free(&c->alloc, e);
}

void
tsr_shader_finish(struct tsr_device *device)
{
   pthread_once(&caches_once, caches_init);
   struct tsr_shader_cache *c = lyr_map_remove(&caches, device->base.handle);
   if (!c)
      return;
   for (struct tsr_shader_entry *e = c->newest, *older; e; e = older) {
      older = e->older;
      entry_free(c, e);
   }
   if (c->glslang_held)
      tsr_lower_glsl_release();
   pthread_mutex_destroy(&c->lock);
   lyr_free(&device->base.alloc, c);
}

static uint64_t
hash_words(enum tsr_shader_mode mode, const uint32_t *words, size_t count)
{
   uint64_t h = (0xcbf29ce484222325ull ^ count) + (uint64_t)mode * 0x9e3779b97f4a7c15ull;
   for (size_t i = 0; i < count; i++) {
      h ^= words[i];
      h *= 0x100000001b3ull;
   }
   return h ^ (h >> 29);
}

/* Unlinks e from the age list and its bucket; the lock is held. */
static void
unlink_locked(struct tsr_shader_cache *c, struct tsr_shader_entry *e)
{
   struct tsr_shader_entry **p = &c->buckets[e->hash & 255];
   while (*p && *p != e)
      p = &(*p)->next;
   if (*p)
      *p = e->next;
   if (e->newer)
      e->newer->older = e->older;
   else
      c->newest = e->older;
   if (e->older)
      e->older->newer = e->newer;
   else
      c->oldest = e->newer;
   c->bytes -= (e->input_count + e->output_count) * sizeof(uint32_t);
}

static struct tsr_shader_entry *
find_locked(struct tsr_shader_cache *c, uint64_t hash, enum tsr_shader_mode mode,
            const uint32_t *words, size_t count)
{
   for (struct tsr_shader_entry *e = c->buckets[hash & 255]; e; e = e->next)
      if (e->hash == hash && e->mode == mode && e->input_count == count &&
          !memcmp(e->input, words, count * sizeof(uint32_t)))
         return e;
   return NULL;
}

/* Inserts e (or finds an equal entry another thread inserted) and pins it. */
static struct tsr_shader_entry *
insert_pinned(struct tsr_shader_cache *c, struct tsr_shader_entry *e)
{
   pthread_mutex_lock(&c->lock);
   struct tsr_shader_entry *same = find_locked(c, e->hash, e->mode, e->input, e->input_count);
   if (same) {
      same->refs++;
      pthread_mutex_unlock(&c->lock);
      entry_free(c, e);
      return same;
   }
   e->refs = 1;
   e->next = c->buckets[e->hash & 255];
   c->buckets[e->hash & 255] = e;
   e->older = c->newest;
   if (c->newest)
      c->newest->newer = e;
   c->newest = e;
   if (!c->oldest)
      c->oldest = e;
   c->bytes += (e->input_count + e->output_count) * sizeof(uint32_t);
   /* Evict the oldest unpinned entries beyond the budget. */
   for (struct tsr_shader_entry *o = c->oldest, *newer; o && c->bytes > TSR_SHADER_CACHE_BYTES;
        o = newer) {
      newer = o->newer;
      if (o->refs == 0) {
         unlink_locked(c, o);
         entry_free(c, o);
      }
   }
   pthread_mutex_unlock(&c->lock);
   return e;
}

static void
unpin(struct tsr_shader_cache *c, struct tsr_shader_entry *e)
{
   pthread_mutex_lock(&c->lock);
   e->refs--;
   pthread_mutex_unlock(&c->lock);
}

static double
now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static const char *
mode_name(enum tsr_shader_mode mode)
{
   return mode == TSR_SHADER_MODE_DIRECT ? "direct SPIR-V" : "GLSL round trip";
}

/* Logs the GLSL of a round trip, one numbered line per message (long lines in pieces). */
static void
log_glsl(void *user, const char *glsl)
{
   unsigned number = 1;
   for (const char *p = glsl; *p; number++) {
      size_t len = strcspn(p, "\n");
      const char *line = p;
      p += len + (p[len] == '\n');
      do {
         int piece = len > 900 ? 900 : (int)len;
         lyr_logd("GLSL %4u| %.*s", number, piece, line);
         line += piece;
         len -= (size_t)piece;
      } while (len);
   }
}

/* The lowered module for words (pinned: unpin() after use), from the cache or lowered now. */
static VkResult
get_lowered(struct tsr_device *device, const uint32_t *words, size_t count,
            struct tsr_shader_entry **out)
{
   struct tsr_shader_cache *c = cache_of(device);
   if (!c)
      return lyr_error(VK_ERROR_INITIALIZATION_FAILED, "tensor shaders: no cache for device");
   enum tsr_shader_mode mode = c->mode;
   uint64_t hash = hash_words(mode, words, count);
   pthread_mutex_lock(&c->lock);
   struct tsr_shader_entry *hit = find_locked(c, hash, mode, words, count);
   if (hit)
      hit->refs++;
   pthread_mutex_unlock(&c->lock);
   if (hit) {
      lyr_logd("tensor shader of %zu words: lowered module from the cache", count);
      *out = hit;
      return VK_SUCCESS;
   }

   struct tsr_shader_entry *e =
       lyr_zalloc(&c->alloc, sizeof(*e), 8, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   uint32_t *input =
       lyr_alloc(&c->alloc, count * sizeof(uint32_t), 8, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!e || !input) {
      lyr_free(&c->alloc, e);
      lyr_free(&c->alloc, input);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   memcpy(input, words, count * sizeof(uint32_t));
   e->hash = hash;
   e->mode = mode;
   e->input = input;
   e->input_count = count;

   char err[768];
   double start = now_ms();
   VkResult result;
   if (mode == TSR_SHADER_MODE_DIRECT) {
      result = tsr_lower_tensors(words, count, &c->options, &e->output, &e->output_count, err,
                                 sizeof(err));
   } else {
      bool debug = lyr_log_enabled(LYR_LOG_THIS_DOMAIN, LYR_LOG_DEBUG);
      result = tsr_lower_glsl(words, count, &c->options, debug ? log_glsl : NULL, NULL, &e->output,
                              &e->output_count, err, sizeof(err));
   }
   if (result != VK_SUCCESS) {
      entry_free(c, e);
      return lyr_error(result, "tensor shader rejected (%s): %s", mode_name(mode), err);
   }
   lyr_logd("tensor shader of %zu words lowered (%s) to %zu words in %.3f ms", count,
            mode_name(mode), e->output_count, now_ms() - start);
   *out = insert_pinned(c, e);
   return VK_SUCCESS;
}

static bool
declares_tensors(const void *code, size_t size)
{
   return code && size >= 20 && size % 4 == 0 &&
          spirv_declares_capability(code, size / 4, SPV_ARM_CAP_TENSORS);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateShaderModule(VkDevice _device, const VkShaderModuleCreateInfo *pCreateInfo,
                       const VkAllocationCallbacks *pAllocator, VkShaderModule *pShaderModule)
{
   struct tsr_device *device = tsr_device_get(_device);
   if (!declares_tensors(pCreateInfo->pCode, pCreateInfo->codeSize))
      return device->base.next.CreateShaderModule(_device, pCreateInfo, pAllocator, pShaderModule);
   struct tsr_shader_entry *e;
   VkResult result = get_lowered(device, pCreateInfo->pCode, pCreateInfo->codeSize / 4, &e);
   if (result != VK_SUCCESS)
      return result;
   VkShaderModuleCreateInfo info = *pCreateInfo;
   info.codeSize = e->output_count * sizeof(uint32_t);
   info.pCode = e->output;
   result = device->base.next.CreateShaderModule(_device, &info, pAllocator, pShaderModule);
   unpin(cache_of(device), e);
   return result;
}

static bool
drop_module_info(const VkBaseInStructure *s, void *user)
{
   return s->sType == VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
}

/* Per stage that chains a tensor module: the stage copy and the pinned entry. */
struct stage_rewrite {
   struct lyr_chain_copy chain;
   struct tsr_shader_entry *entry;
};

/* A stage whose module is chained (VK_KHR_maintenance5) and declares TensorsARM. */
static bool
stage_needs_lowering(const VkPipelineShaderStageCreateInfo *stage)
{
   const VkShaderModuleCreateInfo *smci =
       lyr_find_struct(stage->pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
   return stage->module == VK_NULL_HANDLE && smci && declares_tensors(smci->pCode, smci->codeSize);
}

/* *copy becomes stage with its chained module replaced by the lowered one (rw owns both). */
static VkResult
rewrite_stage(struct tsr_device *device, const VkPipelineShaderStageCreateInfo *stage,
              VkPipelineShaderStageCreateInfo *copy, struct stage_rewrite *rw)
{
   if (!stage_needs_lowering(stage))
      return VK_SUCCESS;
   const VkShaderModuleCreateInfo *smci =
       lyr_find_struct(stage->pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
   VkResult result = get_lowered(device, smci->pCode, smci->codeSize / 4, &rw->entry);
   if (result != VK_SUCCESS)
      return result;
   result = lyr_chain_clone_pass(&device->base.alloc, stage, sizeof(*stage), drop_module_info,
                                 NULL, sizeof(VkShaderModuleCreateInfo), &rw->chain);
   if (result != VK_SUCCESS)
      return result;
   VkShaderModuleCreateInfo *lowered = rw->chain.extra;
   *lowered = (VkShaderModuleCreateInfo){
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .flags = smci->flags,
       .codeSize = rw->entry->output_count * sizeof(uint32_t),
       .pCode = rw->entry->output,
   };
   lyr_chain_append(rw->chain.head, lowered);
   *copy = *(const VkPipelineShaderStageCreateInfo *)rw->chain.head;
   return VK_SUCCESS;
}

static void
stage_rewrites_free(struct tsr_device *device, struct stage_rewrite *rw, uint32_t count)
{
   for (uint32_t i = 0; rw && i < count; i++) {
      if (rw[i].chain.block)
         lyr_chain_copy_free(&rw[i].chain);
      if (rw[i].entry)
         unpin(cache_of(device), rw[i].entry);
   }
   lyr_free(&device->base.alloc, rw);
}

static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateComputePipelines(VkDevice _device, VkPipelineCache pipelineCache,
                           uint32_t createInfoCount,
                           const VkComputePipelineCreateInfo *pCreateInfos,
                           const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   struct tsr_device *device = tsr_device_get(_device);
   bool any = false;
   for (uint32_t i = 0; i < createInfoCount && !any; i++)
      any = stage_needs_lowering(&pCreateInfos[i].stage);
   if (!any)
      return device->base.next.CreateComputePipelines(_device, pipelineCache, createInfoCount,
                                                      pCreateInfos, pAllocator, pPipelines);

   const VkAllocationCallbacks *alloc = &device->base.alloc;
   VkComputePipelineCreateInfo *infos =
       lyr_alloc(alloc, sizeof(*infos) * createInfoCount, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   struct stage_rewrite *rw =
       lyr_zalloc(alloc, sizeof(*rw) * createInfoCount, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   VkResult result = infos && rw ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
   for (uint32_t i = 0; i < createInfoCount && result == VK_SUCCESS; i++) {
      infos[i] = pCreateInfos[i];
      result = rewrite_stage(device, &pCreateInfos[i].stage, &infos[i].stage, &rw[i]);
   }
   if (result == VK_SUCCESS) {
      result = device->base.next.CreateComputePipelines(_device, pipelineCache, createInfoCount,
                                                        infos, pAllocator, pPipelines);
   } else {
      /* The spec: failed creation sets every handle to VK_NULL_HANDLE. */
      for (uint32_t i = 0; i < createInfoCount; i++)
         pPipelines[i] = VK_NULL_HANDLE;
   }
   stage_rewrites_free(device, rw, createInfoCount);
   lyr_free(alloc, infos);
   return result;
}

/* Graphics pipelines: every stage whose chained module declares TensorsARM is lowered as a
 * compute one is (vertex and fragment stages take tensors where shaderTensorSupportedStages
 * says so; the lowering refuses the others). Stages given as VkShaderModule handles were
 * lowered by vkCreateShaderModule. Nothing here touches command buffer state: a graphics
 * pipeline's tensor descriptors are the substituted storage buffers of tsr_descriptor.c. */
static VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateGraphicsPipelines(VkDevice _device, VkPipelineCache pipelineCache,
                            uint32_t createInfoCount,
                            const VkGraphicsPipelineCreateInfo *pCreateInfos,
                            const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   struct tsr_device *device = tsr_device_get(_device);
   bool any = false;
   uint32_t stage_total = 0;
   for (uint32_t i = 0; i < createInfoCount; i++) {
      const VkGraphicsPipelineCreateInfo *ci = &pCreateInfos[i];
      for (uint32_t s = 0; ci->pStages && s < ci->stageCount; s++)
         any = any || stage_needs_lowering(&ci->pStages[s]);
      stage_total += ci->pStages ? ci->stageCount : 0;
   }
   if (!any)
      return device->base.next.CreateGraphicsPipelines(_device, pipelineCache, createInfoCount,
                                                       pCreateInfos, pAllocator, pPipelines);

   const VkAllocationCallbacks *alloc = &device->base.alloc;
   VkGraphicsPipelineCreateInfo *infos =
       lyr_alloc(alloc, sizeof(*infos) * createInfoCount, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   VkPipelineShaderStageCreateInfo *stages =
       lyr_alloc(alloc, sizeof(*stages) * stage_total, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   struct stage_rewrite *rw =
       lyr_zalloc(alloc, sizeof(*rw) * stage_total, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   VkResult result = infos && stages && rw ? VK_SUCCESS : VK_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t at = 0;
   for (uint32_t i = 0; i < createInfoCount && result == VK_SUCCESS; i++) {
      const VkGraphicsPipelineCreateInfo *ci = &pCreateInfos[i];
      infos[i] = *ci;
      if (!ci->pStages)
         continue;
      infos[i].pStages = stages + at;
      for (uint32_t s = 0; s < ci->stageCount && result == VK_SUCCESS; s++, at++) {
         stages[at] = ci->pStages[s];
         result = rewrite_stage(device, &ci->pStages[s], &stages[at], &rw[at]);
      }
   }
   if (result == VK_SUCCESS) {
      result = device->base.next.CreateGraphicsPipelines(_device, pipelineCache, createInfoCount,
                                                         infos, pAllocator, pPipelines);
   } else {
      for (uint32_t i = 0; i < createInfoCount; i++)
         pPipelines[i] = VK_NULL_HANDLE;
   }
   stage_rewrites_free(device, rw, stage_total);
   lyr_free(alloc, stages);
   lyr_free(alloc, infos);
   return result;
}

static const struct lyr_hook hooks[] = {
    TSR_HOOK(CreateShaderModule, tsr_CreateShaderModule),
    TSR_HOOK(CreateComputePipelines, tsr_CreateComputePipelines),
    TSR_HOOK(CreateGraphicsPipelines, tsr_CreateGraphicsPipelines),
};

const struct lyr_hook_table tsr_shader_hooks = LYR_HOOK_TABLE(hooks);
