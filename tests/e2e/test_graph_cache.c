/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Pipeline caches for data-graph pipelines (graph/dg_cache.c), through the loader with
 * the validation layer below:
 *  - a creation with an empty cache misses (feedback without the hit bit), a second one
 *    hits (hit bit), and the pipeline from the cache computes the same correct results
 *    with the same creation log and identifier (a graph constant, a module constant and
 *    specialization constants in the graph);
 *  - FAIL_ON_PIPELINE_COMPILE_REQUIRED: VK_SUCCESS on a hit, VK_PIPELINE_COMPILE_REQUIRED
 *    and a null handle on a miss (no cache, an empty cache, another entry point,
 *    constant data, resource info or specialization);
 *  - vkGetPipelineCacheData (two calls, a short buffer: VK_INCOMPLETE and valid data)
 *    -> vkDestroyPipelineCache -> vkCreatePipelineCache from the data -> a hit, in this
 *    process and in a second one (the test runs itself with --child <file>);
 *  - vkMergePipelineCaches: the merged cache hits for both sources' pipelines;
 *  - data with a wrong header, UUID, layer format version, a flipped payload byte,
 *    truncated or random: accepted as (partly) empty, no crash;
 *  - creation from VkDataGraphPipelineIdentifierCreateInfoARM: the identifier property
 *    round trip, an unknown identifier misses; the identifier has no byte 0x7F;
 *  - an externally synchronized cache works the same; four threads creating into one
 *    cache at once leave every variant cached.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

/* main: clamp(in + gc + 3, lo, hi), lo and hi specialization constants 0 and 1;
 * second: in - gc. */
/* clang-format off */
static const char text[] =
   DGU_PRELUDE
   "OpDecorate %in_var DescriptorSet 0\n"
   "OpDecorate %in_var Binding 0\n"
   "OpDecorate %out_var DescriptorSet 0\n"
   "OpDecorate %out_var Binding 1\n"
   "OpDecorate %lo SpecId 0\n"
   "OpDecorate %hi SpecId 1\n"
   DGU_TYPES
   "%uint_64 = OpConstant %uint 64\n"
   "%shape = OpConstantComposite %arr_2 %uint_1 %uint_64\n"
   "%t = OpTypeTensorARM %float %uint_2 %shape\n"
   "%ptr = OpTypePointer UniformConstant %t\n"
   "%in_var = OpVariable %ptr UniformConstant\n"
   "%out_var = OpVariable %ptr UniformConstant\n"
   "%three = OpConstant %float 3\n"
   "%lo = OpSpecConstant %float -100\n"
   "%hi = OpSpecConstant %float 100\n"
   "%ct = OpConstantCompositeReplicateEXT %t %three\n"
   "%gc = OpGraphConstantARM %t 0\n"
   "%gt = OpTypeGraphARM 1 %t %t\n"
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
   "OpGraphEntryPointARM %g2 \"second\" %in_var %out_var\n"
   "%g = OpGraphARM %gt\n"
   "%in = OpGraphInputARM %t %uint_0\n"
   "%sum = OpExtInst %t %tosa ADD %in %gc\n"
   "%sum3 = OpExtInst %t %tosa ADD %sum %ct\n"
   "%out = OpExtInst %t %tosa CLAMP %lo %hi %propagate %sum3\n"
   "OpGraphSetOutputARM %out %uint_0\n"
   "OpGraphEndARM\n"
   "%g2 = OpGraphARM %gt\n"
   "%in2 = OpGraphInputARM %t %uint_0\n"
   "%sub = OpExtInst %t %tosa SUB %in2 %gc\n"
   "OpGraphSetOutputARM %sub %uint_0\n"
   "OpGraphEndARM\n";
/* clang-format on */

static float gc[N], gc_other[N];

static const struct dgu_binding bindings[] = {
    {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
    {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};
static const struct dgu_constant constants[] = {{0, VK_FORMAT_R32_SFLOAT, 2, {1, N}, gc}};

struct bounds {
   float lo, hi;
};
static const VkSpecializationMapEntry spec_entries[] = {{0, 0, 4}, {1, 4, 4}};
static const struct bounds tight = {-1.0f, 10.0f};
static const VkSpecializationInfo spec_tight = {2, spec_entries, sizeof(tight), &tight};

/* What a creation varies. */
struct variant {
   const char *entry;                /* NULL: main */
   const float *constant;            /* NULL: gc */
   const VkSpecializationInfo *spec; /* NULL: none (defaults -100, 100) */
   bool transposed_resource;         /* a resource info with another (invalid) shape */
};

static struct dgu_graph graph; /* the module and layouts every creation uses */
static bool threaded;          /* no stderr capture (it is process-wide) */

static struct dgu_pipeline_desc
desc_of(const struct variant *v, struct dgu_constant *c)
{
   *c = constants[0];
   if (v && v->constant)
      c->data = v->constant;
   return (struct dgu_pipeline_desc){.text = text,
                                     .entry = v ? v->entry : NULL,
                                     .bindings = bindings,
                                     .binding_count = 2,
                                     .constants = c,
                                     .constant_count = 1,
                                     .specialization = v ? v->spec : NULL};
}

/* One creation; *feedback gets the pipeline-level feedback. */
/* Set in the concurrency test's worker threads. */
static _Thread_local bool in_worker;

static VkResult
create(struct dgu *u, VkPipelineCache cache, const struct variant *v, VkPipelineCreateFlags2 flags,
       VkPipeline *pipeline, VkPipelineCreationFeedback *feedback)
{
   struct dgu_constant c;
   struct dgu_pipeline_desc desc = desc_of(v, &c);
   VkPipelineCreationFeedback fb = {.flags = 0x7f7f7f7f};
   VkPipelineCreationFeedbackCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
       .pPipelineCreationFeedback = &fb};
   desc.create_pnext = &fci;
   struct dgu_create_parts *parts = calloc(1, sizeof(*parts));
   if (!parts)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   dgu_create_parts(&desc, &graph, parts);
   int64_t other[2] = {N, 1};
   if (v && v->transposed_resource)
      parts->resource_descs[1] = dgu_description(VK_FORMAT_R32_SFLOAT, 2, other);
   parts->info.flags = flags;
   *pipeline = (VkPipeline)(uintptr_t)0x1234;
   /* stderr capture redirects the process's fd 2: not from the worker threads. */
   if (!in_worker)
      vku_capture_stderr_begin();
   VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, cache, 1, &parts->info,
                                                  NULL, pipeline);
   if (!in_worker)
      vku_capture_stderr_end();
   if (feedback)
      *feedback = fb;
   free(parts);
   return r;
}

static bool
hit(const VkPipelineCreationFeedback *f)
{
   return (f->flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
          (f->flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
}

static bool
miss(const VkPipelineCreationFeedback *f)
{
   return (f->flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) &&
          !(f->flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT);
}

/* Runs a pipeline on in = i - 20 and checks its output against the variant's function. */
static void
run_check(struct dgu *u, VkPipeline pipeline, const struct variant *v, const char *what)
{
   struct dgu_graph use = graph;
   use.pipeline = pipeline;
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, N};
   const float *k = v && v->constant ? v->constant : gc;
   bool second = v && v->entry && strcmp(v->entry, "second") == 0;
   struct bounds b =
       v && v->spec ? *(const struct bounds *)v->spec->pData : (struct bounds){-100.0f, 100.0f};
   if (dgu_session_create(u, pipeline, &s) && dgu_sets_create(u, &graph, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
      float *x = in.data, want[N];
      for (int i = 0; i < N; i++) {
         x[i] = (float)i - 20.0f;
         float y = x[i] + k[i] + 3.0f;
         want[i] = second ? x[i] - k[i] : y < b.lo ? b.lo : y > b.hi ? b.hi : y;
      }
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, &use, &sets, s.session))
         dgu_check_f32(what, out.data, want, N);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
}

static VkPipelineCache
new_cache(struct dgu *u, const void *data, size_t size, VkPipelineCacheCreateFlags flags)
{
   VkPipelineCacheCreateInfo info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO,
                                     .flags = flags,
                                     .initialDataSize = size,
                                     .pInitialData = data};
   VkPipelineCache cache = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult r = vkCreatePipelineCache(u->device, &info, NULL, &cache);
   vku_capture_stderr_end();
   ok(r == VK_SUCCESS && cache, "vkCreatePipelineCache (%zu bytes of data): %d", size, r);
   return cache;
}

/* The cache data (malloc()ed), two calls. */
static uint8_t *
cache_data(struct dgu *u, VkPipelineCache cache, size_t *size)
{
   *size = 0;
   VkResult r = vkGetPipelineCacheData(u->device, cache, size, NULL);
   if (!ok(r == VK_SUCCESS && *size >= 32, "vkGetPipelineCacheData size: %d, %zu", r, *size))
      return NULL;
   uint8_t *data = malloc(*size);
   if (!data)
      return NULL;
   size_t got = *size;
   r = vkGetPipelineCacheData(u->device, cache, &got, data);
   ok(r == VK_SUCCESS && got == *size, "vkGetPipelineCacheData: %d, %zu of %zu bytes", r, got,
      *size);
   return data;
}

/* A creation with FAIL_ON_PIPELINE_COMPILE_REQUIRED: expect_hit -> VK_SUCCESS with the hit
 * bit, a working pipeline; else VK_PIPELINE_COMPILE_REQUIRED and a null handle. */
static void
expect_fail_on(struct dgu *u, VkPipelineCache cache, const struct variant *v, bool expect_hit,
               const char *what)
{
   VkPipeline p;
   VkPipelineCreationFeedback f;
   VkResult r =
       create(u, cache, v, VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &p, &f);
   if (expect_hit) {
      ok(r == VK_SUCCESS && p && hit(&f), "%s: a hit: %d, flags 0x%x", what, r, f.flags);
      if (r == VK_SUCCESS && p)
         run_check(u, p, v, what);
   } else {
      ok(r == VK_PIPELINE_COMPILE_REQUIRED && p == VK_NULL_HANDLE, "%s: a miss: %d, handle %p",
         what, r, (void *)p);
   }
   if (r == VK_SUCCESS)
      vkDestroyPipeline(u->device, p, NULL);
}

static void
identifier_of(struct dgu *u, VkPipeline p, uint8_t id[32])
{
   VkDataGraphPipelineInfoARM pi = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                    .dataGraphPipeline = p};
   memset(id, 0x7f, 32);
   VkDataGraphPipelinePropertyQueryResultARM q = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
       .property = VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM,
       .dataSize = 32,
       .pData = id};
   VkResult r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 1, &q);
   ok(r == VK_SUCCESS && q.dataSize == 32, "identifier: %d, %zu bytes", r, q.dataSize);
   ok(memchr(id, 0x7f, 32) == NULL, "the identifier has no byte 0x7F");
}

static VkResult
create_from_identifier(struct dgu *u, VkPipelineCache cache, const uint8_t *id, uint32_t size,
                       VkPipeline *p, VkPipelineCreationFeedback *f)
{
   VkPipelineCreationFeedback fb = {0};
   VkPipelineCreationFeedbackCreateInfo fci = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
       .pPipelineCreationFeedback = &fb};
   VkDataGraphPipelineIdentifierCreateInfoARM idi = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_IDENTIFIER_CREATE_INFO_ARM,
       .pNext = &fci,
       .identifierSize = size,
       .pIdentifier = id};
   VkDataGraphPipelineCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
       .pNext = &idi,
       .flags = VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT,
       .layout = graph.layout};
   *p = (VkPipeline)(uintptr_t)0x1234;
   vku_capture_stderr_begin();
   VkResult r =
       u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, cache, 1, &info, NULL, p);
   vku_capture_stderr_end();
   *f = fb;
   return r;
}

static const struct variant v_second = {.entry = "second"};
static const struct variant v_other_constant = {.constant = gc_other};
static const struct variant v_spec = {.spec = &spec_tight};
static const struct variant v_resource = {.transposed_resource = true};

static void
test_hit_miss(struct dgu *u, VkPipelineCacheCreateFlags flags, const char *context)
{
   test_set_context(context);
   VkPipelineCache cache = new_cache(u, NULL, 0, flags);
   VkPipeline p1, p2;
   VkPipelineCreationFeedback f1, f2;
   VkResult r1 = create(u, cache, NULL, 0, &p1, &f1);
   ok(r1 == VK_SUCCESS && miss(&f1), "first creation: a miss: %d, flags 0x%x", r1, f1.flags);
   VkResult r2 = create(u, cache, NULL, 0, &p2, &f2);
   ok(r2 == VK_SUCCESS && hit(&f2), "second creation: a hit: %d, flags 0x%x", r2, f2.flags);
   if (r1 == VK_SUCCESS && r2 == VK_SUCCESS) {
      run_check(u, p1, NULL, "compiled");
      run_check(u, p2, NULL, "from the cache");
      char *log1 = dgu_text_property(u, p1, VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM);
      char *log2 = dgu_text_property(u, p2, VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM);
      ok(log1 && log2 && strcmp(log1, log2) == 0 && strstr(log1, "CLAMP"),
         "the same creation log: %s", log2 ? log2 : "(none)");
      free(log1);
      free(log2);
      uint8_t id1[32], id2[32];
      identifier_of(u, p1, id1);
      identifier_of(u, p2, id2);
      ok(memcmp(id1, id2, 32) == 0, "the same identifier");
   }
   if (r1 == VK_SUCCESS)
      vkDestroyPipeline(u->device, p1, NULL);
   if (r2 == VK_SUCCESS)
      vkDestroyPipeline(u->device, p2, NULL);

   expect_fail_on(u, cache, NULL, true, "FAIL_ON, cached");
   expect_fail_on(u, VK_NULL_HANDLE, NULL, false, "FAIL_ON, no cache");
   expect_fail_on(u, cache, &v_second, false, "FAIL_ON, another entry point");
   expect_fail_on(u, cache, &v_other_constant, false, "FAIL_ON, other constant data");
   expect_fail_on(u, cache, &v_spec, false, "FAIL_ON, another specialization");
   VkPipeline p;
   VkResult r = create(u, cache, &v_resource,
                       VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT, &p, NULL);
   ok(r == VK_PIPELINE_COMPILE_REQUIRED && !p, "FAIL_ON, another resource info: a miss: %d", r);
   /* Each variant compiles, then hits, and computes its own function. */
   const struct variant *vs[] = {&v_second, &v_other_constant, &v_spec};
   for (uint32_t i = 0; i < 3; i++) {
      VkPipelineCreationFeedback f;
      r = create(u, cache, vs[i], 0, &p, &f);
      ok(r == VK_SUCCESS && miss(&f), "variant %u compiled: %d", i, r);
      if (r == VK_SUCCESS)
         vkDestroyPipeline(u->device, p, NULL);
      expect_fail_on(u, cache, vs[i], true, "variant, cached");
   }
   expect_fail_on(u, cache, NULL, true, "FAIL_ON, the first still cached");
   vkDestroyPipelineCache(u->device, cache, NULL);
}

static void
test_data(struct dgu *u, const char *self)
{
   test_set_context("cache data");
   VkPipelineCache a = new_cache(u, NULL, 0, 0);
   VkPipeline p;
   VkResult r = create(u, a, NULL, 0, &p, NULL);
   ok(r == VK_SUCCESS, "compiled into the cache: %d", r);
   if (r == VK_SUCCESS)
      vkDestroyPipeline(u->device, p, NULL);
   size_t size;
   uint8_t *data = cache_data(u, a, &size);
   /* Short buffers: VK_INCOMPLETE and valid data, with the entries that fit whole. */
   uint8_t *part = malloc(size);
   size_t almost = size - 1;
   r = vkGetPipelineCacheData(u->device, a, &almost, part);
   ok(r == VK_INCOMPLETE && almost >= 32 && almost < size, "one byte short: %d, %zu bytes", r,
      almost);
   if (part) {
      VkPipelineCache x = new_cache(u, part, almost, 0);
      expect_fail_on(u, x, NULL, true, "from the data one byte short (the entry is whole)");
      vkDestroyPipelineCache(u->device, x, NULL);
   }
   size_t got = 32 + 56 + 40; /* header, section header, less than an entry */
   r = vkGetPipelineCacheData(u->device, a, &got, part);
   ok(r == VK_INCOMPLETE && got == 32 + 56, "room for no entry: %d, %zu bytes", r, got);
   size_t tiny = 16;
   r = vkGetPipelineCacheData(u->device, a, &tiny, part);
   ok(r == VK_INCOMPLETE && tiny == 0, "a buffer shorter than the header: %d, %zu", r, tiny);
   vkDestroyPipelineCache(u->device, a, NULL);
   if (!data || !part) {
      free(data);
      free(part);
      return;
   }
   VkPipelineCache b = new_cache(u, data, size, 0);
   expect_fail_on(u, b, NULL, true, "from the data");
   expect_fail_on(u, b, &v_second, false, "from the data, another entry point");
   vkDestroyPipelineCache(u->device, b, NULL);
   VkPipelineCache c = new_cache(u, part, got, 0);
   expect_fail_on(u, c, NULL, false, "from the short data");
   vkDestroyPipelineCache(u->device, c, NULL);

   /* A second process. */
   char path[256], cmd[700];
   snprintf(path, sizeof(path), "test_graph_cache.%ld.bin", (long)size);
   FILE *f = fopen(path, "wb");
   bool written = f && fwrite(data, 1, size, f) == size;
   if (f)
      fclose(f);
   if (ok(written, "cache data written to %s", path)) {
      snprintf(cmd, sizeof(cmd), "'%s' --child '%s'", self, path);
      int status = system(cmd);
      ok(status == 0, "a second process hits with the data: status %d", status);
      remove(path);
   }

   /* Corrupted data: accepted as (partly) empty, never a crash. */
   test_set_context("corrupt cache data");
   struct {
      const char *what;
      size_t offset;
   } flips[] = {
       {"vendorID", 8},           {"pipelineCacheUUID", 20}, {"layer magic", 32},
       {"format version", 36},    {"section size", 40},      {"identity", 50},
       {"entry count", 80},       {"entry key", 100},        {"payload size", 122},
       {"payload checksum", 140}, {"payload", 250},
   };
   uint8_t *bad = malloc(size);
   for (uint32_t i = 0; bad && i < sizeof(flips) / sizeof(flips[0]); i++) {
      memcpy(bad, data, size);
      if (flips[i].offset < size)
         bad[flips[i].offset] ^= 0x5a;
      VkPipelineCache x = new_cache(u, bad, size, 0);
      /* The key is part of the lookup: a flipped key is another pipeline's. */
      expect_fail_on(u, x, NULL, false, flips[i].what);
      vkDestroyPipelineCache(u->device, x, NULL);
   }
   /* The layer's section follows the 32-byte header (its size, a u64, at byte 40 of the
    * data); the driver's blob follows it. A cut inside the section loses its entries; a cut
    * inside the driver's blob (large on some drivers: the H200's) keeps them. */
   uint64_t section_end = 32;
   if (size >= 48) {
      uint64_t section = 0;
      for (int k = 7; k >= 0; k--)
         section = section << 8 | data[40 + k];
      section_end += section;
   }
   for (size_t cut = 1; bad && cut < size; cut = cut * 2 + 7) {
      VkPipelineCache x = new_cache(u, data, cut, 0);
      expect_fail_on(u, x, NULL, cut >= section_end, "truncated");
      vkDestroyPipelineCache(u->device, x, NULL);
   }
   uint32_t seed = 12345;
   for (uint32_t i = 0; bad && i < 4; i++) {
      for (size_t j = 0; j < size; j++) {
         seed = seed * 1664525u + 1013904223u;
         bad[j] = (uint8_t)(seed >> 24);
      }
      if (i & 1)
         memcpy(bad, data, 64); /* a valid header and section start */
      VkPipelineCache x = new_cache(u, bad, size, 0);
      expect_fail_on(u, x, NULL, false, "random");
      vkDestroyPipelineCache(u->device, x, NULL);
   }
   free(bad);
   free(part);
   free(data);
}

static void
test_merge(struct dgu *u)
{
   test_set_context("merge");
   VkPipelineCache a = new_cache(u, NULL, 0, 0), b = new_cache(u, NULL, 0, 0),
                   dst = new_cache(u, NULL, 0, 0);
   VkPipeline p, q;
   ok(create(u, a, NULL, 0, &p, NULL) == VK_SUCCESS, "main into cache a");
   ok(create(u, b, &v_second, 0, &q, NULL) == VK_SUCCESS, "second into cache b");
   vkDestroyPipeline(u->device, p, NULL);
   vkDestroyPipeline(u->device, q, NULL);
   /* b twice: entries are deduplicated by key. */
   VkPipelineCache srcs[3] = {a, b, b};
   VkResult r = vkMergePipelineCaches(u->device, dst, 3, srcs);
   ok(r == VK_SUCCESS, "vkMergePipelineCaches: %d", r);
   expect_fail_on(u, dst, NULL, true, "merged, main");
   expect_fail_on(u, dst, &v_second, true, "merged, second");
   expect_fail_on(u, a, &v_second, false, "a source is unchanged");
   size_t size_a, size_dst;
   free(cache_data(u, a, &size_a));
   free(cache_data(u, dst, &size_dst));
   ok(size_dst > size_a, "the merged data is larger: %zu > %zu", size_dst, size_a);
   vkDestroyPipelineCache(u->device, a, NULL);
   vkDestroyPipelineCache(u->device, b, NULL);
   vkDestroyPipelineCache(u->device, dst, NULL);
}

static void
test_identifier(struct dgu *u)
{
   test_set_context("identifier");
   VkPipelineCache cache = new_cache(u, NULL, 0, 0);
   VkPipeline p;
   VkResult r = create(u, cache, &v_spec, 0, &p, NULL);
   if (!ok(r == VK_SUCCESS, "compiled: %d", r)) {
      vkDestroyPipelineCache(u->device, cache, NULL);
      return;
   }
   uint8_t id[32];
   identifier_of(u, p, id);
   vkDestroyPipeline(u->device, p, NULL);
   VkPipelineCreationFeedback f;
   r = create_from_identifier(u, cache, id, 32, &p, &f);
   ok(r == VK_SUCCESS && p && hit(&f), "created from the identifier: %d, flags 0x%x", r, f.flags);
   if (r == VK_SUCCESS) {
      run_check(u, p, &v_spec, "from the identifier");
      uint8_t again[32];
      identifier_of(u, p, again);
      ok(memcmp(id, again, 32) == 0, "the same identifier");
      vkDestroyPipeline(u->device, p, NULL);
   }
   /* Through the cache data too. */
   size_t size;
   uint8_t *data = cache_data(u, cache, &size);
   VkPipelineCache b = new_cache(u, data, size, 0);
   r = create_from_identifier(u, b, id, 32, &p, &f);
   ok(r == VK_SUCCESS && p, "from the identifier, cache from data: %d", r);
   if (r == VK_SUCCESS) {
      run_check(u, p, &v_spec, "from the identifier, cache from data");
      vkDestroyPipeline(u->device, p, NULL);
   }
   vkDestroyPipelineCache(u->device, b, NULL);
   free(data);
   uint8_t unknown[32];
   memcpy(unknown, id, 32);
   unknown[5] ^= 1;
   r = create_from_identifier(u, cache, unknown, 32, &p, &f);
   ok(r == VK_PIPELINE_COMPILE_REQUIRED && !p, "an unknown identifier: %d", r);
   r = create_from_identifier(u, cache, id, 16, &p, &f);
   ok(r == VK_PIPELINE_COMPILE_REQUIRED && !p, "a short identifier: %d", r);
   r = create_from_identifier(u, VK_NULL_HANDLE, id, 32, &p, &f);
   ok(r == VK_PIPELINE_COMPILE_REQUIRED && !p, "no cache: %d", r);
   vkDestroyPipelineCache(u->device, cache, NULL);
}

/* --time N [distinct][,nocache]: creation time of a chain of N CLAMPs on [1,64] (every bound
 * distinct when asked: N kernels' compute pipelines, else one shared), compiled then from the
 * cache, from the creation feedback. Not a test: the numbers of docs/decisions.md. */
static int
timing(uint32_t n, bool distinct, bool no_cache)
{
   struct dgu u;
   if (!dgu_init(&u, NULL))
      return test_done();
   struct dgu_text t = {0};
   dgu_put(&t, "%s", DGU_IO_1X64);
   for (uint32_t i = 0; i < n; i++)
      dgu_put(&t, "%%lo%u = OpConstant %%float %d\n%%hi%u = OpConstant %%float %u\n", i,
              distinct ? -(int)i - 1 : -1, i, distinct ? i + 1000 : 1000);
   dgu_put(&t, "%%gt = OpTypeGraphARM 1 %%t %%t\nOpGraphEntryPointARM %%g \"main\" %%in_var "
               "%%out_var\n%%g = OpGraphARM %%gt\n%%v0 = OpGraphInputARM %%t %%uint_0\n");
   for (uint32_t i = 0; i < n; i++)
      dgu_put(&t, "%%v%u = OpExtInst %%t %%tosa CLAMP %%lo%u %%hi%u %%propagate %%v%u\n", i + 1, i,
              i, i);
   dgu_put(&t, "OpGraphSetOutputARM %%v%u %%uint_0\nOpGraphEndARM\n", n);
   struct dgu_pipeline_desc desc = {.text = t.s, .bindings = bindings, .binding_count = 2};
   VkResult r = dgu_graph_create(&u, &desc, &graph);
   vkDestroyPipeline(u.device, graph.pipeline, NULL);
   graph.pipeline = VK_NULL_HANDLE;
   VkPipelineCache cache = new_cache(&u, NULL, 0, 0);
   for (int round = 0; r == VK_SUCCESS && round < 4; round++) {
      struct dgu_create_parts *parts = calloc(1, sizeof(*parts));
      VkPipelineCreationFeedback fb = {0};
      VkPipelineCreationFeedbackCreateInfo fci = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
          .pPipelineCreationFeedback = &fb};
      desc.create_pnext = &fci;
      dgu_create_parts(&desc, &graph, parts);
      VkPipeline p;
      /* Round 0 without the cache (the same work as a miss), then a miss, then hits. */
      r = u.fn.CreateDataGraphPipelinesARM(u.device, VK_NULL_HANDLE,
                                           round && !no_cache ? cache : VK_NULL_HANDLE, 1,
                                           &parts->info, NULL, &p);
      printf("# %u CLAMPs (%s): %s: %.2f ms\n", n, distinct ? "distinct" : "shared kernel",
             round == 0 || no_cache ? "no cache"
             : hit(&fb)             ? "hit"
                                    : "miss",
             fb.duration / 1e6);
      vkDestroyPipeline(u.device, p, NULL);
      free(parts);
   }
   vkDestroyPipelineCache(u.device, cache, NULL);
   dgu_graph_destroy(&u, &graph);
   dgu_finish(&u);
   free(t.s);
   return test_done();
}

/* Several create infos in one call with FAIL_ON: hits are created, the miss is
 * VK_PIPELINE_COMPILE_REQUIRED with a null handle; EARLY_RETURN_ON_FAILURE on the miss ends
 * the call there. */
static void
test_batch(struct dgu *u)
{
   test_set_context("batch");
   VkPipelineCache cache = new_cache(u, NULL, 0, 0);
   VkPipeline p;
   VkResult r = create(u, cache, NULL, 0, &p, NULL);
   if (r == VK_SUCCESS)
      vkDestroyPipeline(u->device, p, NULL);
   struct dgu_constant c[3];
   struct dgu_create_parts *parts = calloc(3, sizeof(*parts));
   const struct variant *vs[3] = {NULL, &v_second, NULL};
   for (uint32_t i = 0; parts && i < 3; i++) {
      struct dgu_pipeline_desc desc = desc_of(vs[i], &c[i]);
      dgu_create_parts(&desc, &graph, &parts[i]);
   }
   for (int early = 0; parts && early < 2; early++) {
      VkDataGraphPipelineCreateInfoARM infos[3];
      for (uint32_t i = 0; i < 3; i++) {
         infos[i] = parts[i].info;
         infos[i].flags = VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
      }
      if (early)
         infos[1].flags |= VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT;
      VkPipeline q[3] = {VK_NULL_HANDLE, (VkPipeline)(uintptr_t)0x1234,
                         (VkPipeline)(uintptr_t)0x5678};
      vku_capture_stderr_begin();
      r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, cache, 3, infos, NULL, q);
      vku_capture_stderr_end();
      ok(r == VK_PIPELINE_COMPILE_REQUIRED && q[0] && !q[1] && (early ? !q[2] : q[2] != 0),
         "%s: %d, handles %p %p %p", early ? "early return at the miss" : "hit, miss, hit", r,
         (void *)q[0], (void *)q[1], (void *)q[2]);
      if (q[0])
         run_check(u, q[0], NULL, "batch, first");
      for (uint32_t i = 0; i < 3; i++)
         if (q[i])
            vkDestroyPipeline(u->device, q[i], NULL);
   }
   free(parts);
   vkDestroyPipelineCache(u->device, cache, NULL);
}

struct worker {
   struct dgu *u;
   VkPipelineCache cache;
   uint32_t index;
   uint32_t created, failed;
};

static void *
work(void *arg)
{
   struct worker *w = arg;
   in_worker = true;
   const struct variant *vs[] = {NULL, &v_second, &v_other_constant, &v_spec};
   for (uint32_t i = 0; i < 6; i++) {
      VkPipeline p;
      VkResult r = create(w->u, w->cache, vs[(w->index + i) % 4], 0, &p, NULL);
      if (r == VK_SUCCESS) {
         w->created++;
         vkDestroyPipeline(w->u->device, p, NULL);
      } else {
         w->failed++;
      }
      if (i == 3) {
         size_t size = 0;
         vkGetPipelineCacheData(w->u->device, w->cache, &size, NULL);
      }
   }
   return NULL;
}

/* Four threads create the four variants into one (internally synchronized) cache, reading
 * its size meanwhile; then every variant hits. */
static void
test_threads(struct dgu *u)
{
   test_set_context("threads");
   VkPipelineCache cache = new_cache(u, NULL, 0, 0);
   struct worker w[4];
   pthread_t t[4];
   threaded = true;
   for (uint32_t i = 0; i < 4; i++) {
      w[i] = (struct worker){u, cache, i, 0, 0};
      pthread_create(&t[i], NULL, work, &w[i]);
   }
   for (uint32_t i = 0; i < 4; i++) {
      pthread_join(t[i], NULL);
      ok(w[i].created == 6 && w[i].failed == 0, "thread %u: %u created, %u failed", i, w[i].created,
         w[i].failed);
   }
   threaded = false;
   expect_fail_on(u, cache, NULL, true, "after the threads, main");
   expect_fail_on(u, cache, &v_second, true, "after the threads, second");
   expect_fail_on(u, cache, &v_other_constant, true, "after the threads, other constant");
   expect_fail_on(u, cache, &v_spec, true, "after the threads, specialization");
   vkDestroyPipelineCache(u->device, cache, NULL);
}

static int
child(const char *path)
{
   test_set_context("second process");
   FILE *f = fopen(path, "rb");
   uint8_t *data = malloc(1 << 22);
   size_t size = f && data ? fread(data, 1, 1 << 22, f) : 0;
   if (f)
      fclose(f);
   ok(size > 32, "read %zu bytes of cache data from %s", size, path);
   struct dgu u;
   if (size > 32 && dgu_init(&u, NULL)) {
      struct dgu_constant c;
      struct dgu_pipeline_desc desc = desc_of(NULL, &c);
      dgu_graph_create(&u, &desc, &graph);
      vkDestroyPipeline(u.device, graph.pipeline, NULL);
      graph.pipeline = VK_NULL_HANDLE;
      VkPipelineCache cache = new_cache(&u, data, size, 0);
      expect_fail_on(&u, cache, NULL, true, "second process, from the data");
      vkDestroyPipelineCache(u.device, cache, NULL);
      dgu_graph_destroy(&u, &graph);
      dgu_finish(&u);
   }
   free(data);
   return test_done();
}

int
main(int argc, char **argv)
{
   for (int i = 0; i < N; i++) {
      gc[i] = (float)(i % 5) - 2.0f;
      gc_other[i] = gc[i] + 1.0f;
   }
   if (argc == 3 && strcmp(argv[1], "--child") == 0)
      return child(argv[2]);
   if (argc >= 3 && strcmp(argv[1], "--time") == 0)
      return timing((uint32_t)atoi(argv[2]), argc > 3 && strstr(argv[3], "distinct"),
                    argc > 3 && strstr(argv[3], "nocache"));
   struct dgu u;
   if (dgu_init(&u, NULL)) {
      struct dgu_constant c;
      struct dgu_pipeline_desc desc = desc_of(NULL, &c);
      VkResult r = dgu_graph_create(&u, &desc, &graph);
      ok(r == VK_SUCCESS, "the graph compiles: %d", r);
      vkDestroyPipeline(u.device, graph.pipeline, NULL);
      graph.pipeline = VK_NULL_HANDLE;
      if (r == VK_SUCCESS) {
         test_hit_miss(&u, 0, "hit and miss");
         test_hit_miss(&u, VK_PIPELINE_CACHE_CREATE_EXTERNALLY_SYNCHRONIZED_BIT,
                       "hit and miss, externally synchronized cache");
         test_data(&u, argv[0]);
         test_merge(&u);
         test_identifier(&u);
         test_batch(&u);
         test_threads(&u);
      }
      dgu_graph_destroy(&u, &graph);
   }
   dgu_finish(&u);
   return test_done();
}
