/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-graph pipeline creation and properties:
 *  - vkGetDataGraphPipelineAvailablePropertiesARM and
 *    vkGetDataGraphPipelinePropertiesARM with the two-call pattern: size
 *    queries, VK_INCOMPLETE on short buffers (a text property still ends in
 *    NUL), the identifier (equal for equal create inputs);
 *  - VkPipelineCreationFeedbackCreateInfo filled;
 *  - a module given inline (VkShaderModuleCreateInfo chained, module null),
 *    with a pipeline cache (the layer stores the pipeline there, the kernels'
 *    compute pipelines use it too; hits: test_graph_cache.c);
 *  - invalid create infos (no shader-module info, an entry point that does
 *    not exist, a missing resource info, push constants in the layout), each
 *    in one call between valid ones: the documented error
 *    (VK_ERROR_VALIDATION_FAILED_EXT, docs/decisions.md D15), a null handle
 *    for it only, working pipelines for the others, and no allocation left
 *    behind in the application's allocators (the call's and the device's);
 *  - a failure late in creation (after constants were uploaded and a kernel
 *    created: VMEL_GRAPH_MAX_GROUPS makes a stage too large) leaks nothing;
 *  - VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT stops at the failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

static const char text[] =
   DGU_IO_1X64
   "%gc = OpGraphConstantARM %t 0\n"
   "%gt = OpTypeGraphARM 1 %t %t\n"
   "OpGraphEntryPointARM %g \"main\" %in_var %out_var\n"
   "OpGraphEntryPointARM %g2 \"second\" %in_var %out_var\n"
   "%g = OpGraphARM %gt\n"
   "%in = OpGraphInputARM %t %uint_0\n"
   "%sum = OpExtInst %t %tosa ADD %in %gc\n"
   "%out = OpExtInst %t %tosa ADD %sum %sum\n"
   "OpGraphSetOutputARM %out %uint_0\n"
   "OpGraphEndARM\n"
   "%g2 = OpGraphARM %gt\n"
   "%in2 = OpGraphInputARM %t %uint_0\n"
   "%sub = OpExtInst %t %tosa SUB %in2 %gc\n"
   "OpGraphSetOutputARM %sub %uint_0\n"
   "OpGraphEndARM\n";

static float gc[N];

static const struct dgu_binding bindings[] = {
   {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};
static const struct dgu_constant constants[] = {{0, VK_FORMAT_R32_SFLOAT, 2, {1, N}, gc}};

static struct dgu_pipeline_desc
base_desc(const char *entry)
{
   return (struct dgu_pipeline_desc){.text = text,
                                     .entry = entry,
                                     .bindings = bindings,
                                     .binding_count = 2,
                                     .constants = constants,
                                     .constant_count = 1};
}

/* Runs a pipeline made by this file's module on in = i, checks out. */
static void
run_check(struct dgu *u, const struct dgu_graph *g, VkPipeline pipeline, bool second)
{
   struct dgu_graph use = *g;
   use.pipeline = pipeline;
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, N};
   if (dgu_session_create(u, pipeline, &s) && dgu_sets_create(u, g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
      float *x = in.data, want[N];
      for (int i = 0; i < N; i++) {
         x[i] = (float)i;
         want[i] = second ? x[i] - gc[i] : (x[i] + gc[i]) + (x[i] + gc[i]);
      }
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, &use, &sets, s.session))
         dgu_check_f32(second ? "entry point \"second\"" : "entry point \"main\"", out.data,
                       want, N);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
}

static void
test_properties(struct dgu *u)
{
   test_set_context("properties");
   struct dgu_pipeline_desc desc = base_desc(NULL);
   struct dgu_graph g, g2, g3;
   VkResult r = dgu_graph_create(u, &desc, &g);
   VkResult r2 = dgu_graph_create(u, &desc, &g2);
   desc.entry = "second";
   VkResult r3 = dgu_graph_create(u, &desc, &g3);
   if (ok(r == VK_SUCCESS && r2 == VK_SUCCESS && r3 == VK_SUCCESS, "pipelines: %d %d %d", r, r2,
          r3)) {
      VkDataGraphPipelineInfoARM pi = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                       .dataGraphPipeline = g.pipeline};
      uint32_t count = 0;
      r = u->fn.GetDataGraphPipelineAvailablePropertiesARM(u->device, &pi, &count, NULL);
      ok(r == VK_SUCCESS && count == 2, "available properties: %u (%d)", count, r);
      VkDataGraphPipelinePropertyARM props[4] = {0};
      uint32_t one = 1;
      r = u->fn.GetDataGraphPipelineAvailablePropertiesARM(u->device, &pi, &one, props);
      ok(r == VK_INCOMPLETE && one == 1, "one of two properties: VK_INCOMPLETE (%d), %u", r, one);
      count = 4;
      r = u->fn.GetDataGraphPipelineAvailablePropertiesARM(u->device, &pi, &count, props);
      ok(r == VK_SUCCESS && count == 2 &&
            props[0] == VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM &&
            props[1] == VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM,
         "properties: creation log, identifier (%d, %u)", r, count);

      /* What applications written for Arm's layer pass: never a crash. A null pipeline has a
       * well-defined answer (every pipeline's properties, with a warning); NULL pointers are
       * refused. */
      VkDataGraphPipelineInfoARM null_pi = pi;
      null_pi.dataGraphPipeline = VK_NULL_HANDLE;
      count = 4;
      vku_capture_stderr_begin();
      r = u->fn.GetDataGraphPipelineAvailablePropertiesARM(u->device, &null_pi, &count, props);
      const char *warn = vku_capture_stderr_end();
      ok(r == VK_SUCCESS && count == 2 && props[1] == VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM,
         "a null pipeline: the properties every pipeline has (%d, %u)", r, count);
      ok(strstr(warn, "VK_NULL_HANDLE") != NULL, "and a warning: %s", warn);
      vku_capture_stderr_begin();
      r = u->fn.GetDataGraphPipelineAvailablePropertiesARM(u->device, NULL, &count, props);
      VkResult r_count = u->fn.GetDataGraphPipelineAvailablePropertiesARM(u->device, &pi, NULL,
                                                                          props);
      VkDataGraphPipelinePropertyQueryResultARM nq = {
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
         .property = VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM};
      VkResult r_info = u->fn.GetDataGraphPipelinePropertiesARM(u->device, NULL, 1, &nq);
      VkResult r_null = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &null_pi, 1, &nq);
      VkResult r_props = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 1, NULL);
      vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT && r_count == VK_ERROR_VALIDATION_FAILED_EXT &&
            r_info == VK_ERROR_VALIDATION_FAILED_EXT && r_null == VK_ERROR_VALIDATION_FAILED_EXT &&
            r_props == VK_ERROR_VALIDATION_FAILED_EXT,
         "NULL pointers and a null pipeline's properties refused: %d %d %d %d %d", r, r_count,
         r_info, r_null, r_props);

      /* The creation log: size, whole, then a short buffer. */
      VkDataGraphPipelinePropertyQueryResultARM q[2] = {
         {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
          .property = VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM},
         {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
          .property = VK_DATA_GRAPH_PIPELINE_PROPERTY_IDENTIFIER_ARM},
      };
      r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 2, q);
      ok(r == VK_SUCCESS && q[0].isText && !q[1].isText && q[0].dataSize > 20 &&
            q[1].dataSize == 32,
         "sizes: log %zu (text), identifier %zu (binary), %d", q[0].dataSize, q[1].dataSize, r);
      size_t log_size = q[0].dataSize;
      char *log = calloc(1, log_size);
      uint8_t id[2][32], id3[32];
      q[0].pData = log;
      q[1].pData = id[0];
      r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 2, q);
      ok(r == VK_SUCCESS && q[0].dataSize == log_size && log[log_size - 1] == 0 &&
            strlen(log) == log_size - 1,
         "creation log read whole (%d)", r);
      ok(strstr(log, "ADD") && strstr(log, "stage 1"), "creation log:\n%s", log);
      char small[10];
      memset(small, 'x', sizeof(small));
      q[0].pData = small;
      q[0].dataSize = sizeof(small);
      q[1].pData = id[1];
      q[1].dataSize = 16;
      r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 2, q);
      ok(r == VK_INCOMPLETE, "short buffers: VK_INCOMPLETE (%d)", r);
      ok(q[0].dataSize == sizeof(small) && small[9] == 0 && memcmp(small, log, 9) == 0,
         "a short text buffer gets the start of the log and a NUL (%zu)", q[0].dataSize);
      ok(q[1].dataSize == 16 && memcmp(id[1], id[0], 16) == 0, "16 bytes of the identifier");

      /* Identifiers: equal for equal inputs, different for another entry point. */
      pi.dataGraphPipeline = g2.pipeline;
      q[1].pData = id[1];
      q[1].dataSize = 32;
      r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 1, &q[1]);
      ok(r == VK_SUCCESS && memcmp(id[0], id[1], 32) == 0, "same inputs, same identifier");
      pi.dataGraphPipeline = g3.pipeline;
      q[1].pData = id3;
      r = u->fn.GetDataGraphPipelinePropertiesARM(u->device, &pi, 1, &q[1]);
      ok(r == VK_SUCCESS && memcmp(id[0], id3, 32) != 0, "another entry point, another id");
      free(log);
      run_check(u, &g3, g3.pipeline, true);
   }
   dgu_graph_destroy(u, &g);
   dgu_graph_destroy(u, &g2);
   dgu_graph_destroy(u, &g3);
}

static void
test_feedback_inline(struct dgu *u)
{
   test_set_context("creation feedback, inline module");
   struct dgu_pipeline_desc desc = base_desc(NULL);
   struct dgu_graph g;
   dgu_graph_create(u, &desc, &g);
   size_t count = 0;
   uint32_t *words = dgu_assemble(text, &count);
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = count * 4,
                                   .pCode = words};
   VkPipelineCreationFeedback feedback = {0};
   VkPipelineCreationFeedbackCreateInfo fci = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
      .pNext = &mci,
      .pPipelineCreationFeedback = &feedback,
   };
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   VkPipeline pipeline = VK_NULL_HANDLE;
   if (words && parts && g.layout) {
      desc.create_pnext = &fci;
      dgu_create_parts(&desc, &g, parts);
      parts->module_info.module = VK_NULL_HANDLE;
      VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
      VkPipelineCache cache = VK_NULL_HANDLE;
      vkCreatePipelineCache(u->device, &pcci, NULL, &cache);
      VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, cache, 1,
                                                     &parts->info, NULL, &pipeline);
      ok(r == VK_SUCCESS && pipeline, "inline module, with a pipeline cache: %d", r);
      size_t cache_size = 0;
      vkGetPipelineCacheData(u->device, cache, &cache_size, NULL);
      ok(cache_size >= 32, "the cache holds at least its header: %zu bytes", cache_size);
      vkDestroyPipelineCache(u->device, cache, NULL);
      ok((feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT) && feedback.duration > 0,
         "feedback: flags 0x%x, %llu ns", feedback.flags,
         (unsigned long long)feedback.duration);
      if (pipeline)
         run_check(u, &g, pipeline, false);
      vkDestroyPipeline(u->device, pipeline, NULL);
   }
   free(parts);
   free(words);
   dgu_graph_destroy(u, &g);
}

/* Lavapipe (Mesa 22.3) frees destroyed pipelines on its queue thread after a later
 * submission: submits an empty command buffer, then waits up to two seconds for the
 * device allocator's live count to come back to `want` (want < 0: to stay unchanged for
 * 100 ms; one unchanged 10 ms poll was too short under AddressSanitizer, where the queue
 * thread frees large pipelines slowly). Returns the count. */
static long
settle(struct dgu *u, const struct dgu_alloc_counter *c, long want)
{
   VkCommandBuffer cmd = dgu_begin(u);
   dgu_submit_wait(u, cmd);
   dgu_free_cmd(u, cmd);
   long before = -1;
   int stable = 0;
   for (int i = 0; i < 200 && c->live != want && (want >= 0 || stable < 10); i++) {
      stable = c->live == before ? stable + 1 : 0;
      before = c->live;
      struct timespec ts = {0, 10 * 1000 * 1000};
      nanosleep(&ts, NULL);
   }
   return c->live;
}

enum bad_kind { BAD_NO_MODULE_INFO, BAD_ENTRY_POINT, BAD_NO_RESOURCE, BAD_PUSH_CONSTANTS };

static const char *const bad_names[] = {"no shader module info", "bad entry point name",
                                        "missing resource info", "push constants in the layout"};

static void
test_invalid(struct dgu *u, struct dgu_alloc_counter *device_count)
{
   struct dgu_pipeline_desc desc = base_desc(NULL);
   struct dgu_graph g;
   if (!ok(dgu_graph_create(u, &desc, &g) == VK_SUCCESS, "reference pipeline")) {
      dgu_graph_destroy(u, &g);
      return;
   }
   VkPushConstantRange range = {VK_SHADER_STAGE_ALL, 0, 16};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = g.set_layouts,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   VkPipelineLayout push_layout;
   vkCreatePipelineLayout(u->device, &plci, NULL, &push_layout);
   struct dgu_create_parts *parts = calloc(3, sizeof(*parts));
   struct dgu_alloc_counter call_count = {0};
   VkAllocationCallbacks call_alloc = dgu_counting_allocator(&call_count);
   for (int kind = BAD_NO_MODULE_INFO; parts && kind <= BAD_PUSH_CONSTANTS; kind++) {
      test_set_context(bad_names[kind]);
      for (int i = 0; i < 3; i++)
         dgu_create_parts(&desc, &g, &parts[i]);
      /* The bad one in the middle. */
      struct dgu_create_parts *bad = &parts[1];
      switch (kind) {
      case BAD_NO_MODULE_INFO:
         bad->info.pNext = NULL;
         break;
      case BAD_ENTRY_POINT:
         bad->module_info.pName = "nope";
         break;
      case BAD_NO_RESOURCE:
         bad->info.resourceInfoCount = 1;
         break;
      case BAD_PUSH_CONSTANTS:
         bad->info.layout = push_layout;
         break;
      }
      VkDataGraphPipelineCreateInfoARM infos[3] = {parts[0].info, parts[1].info, parts[2].info};
      VkPipeline p[3] = {VK_NULL_HANDLE, (VkPipeline)(uintptr_t)0x1234, VK_NULL_HANDLE};
      long live = settle(u, device_count, -1);
      vku_capture_stderr_begin();
      VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 3,
                                                     infos, &call_alloc, p);
      const char *log = vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "result %d", r);
      ok(p[0] && !p[1] && p[2], "handles %p %p %p", (void *)p[0], (void *)p[1], (void *)p[2]);
      ok(strstr(log, "vkCreateDataGraphPipelinesARM") != NULL, "the failure is logged");
      if (p[2])
         run_check(u, &g, p[2], false);
      vkDestroyPipeline(u->device, p[0], &call_alloc);
      vkDestroyPipeline(u->device, p[2], &call_alloc);
      ok(call_count.live == 0, "%ld allocations of pAllocator left", call_count.live);
      long after = settle(u, device_count, live);
      ok(after == live, "device allocations %ld before, %ld after", live, after);
   }

   test_set_context("EARLY_RETURN_ON_FAILURE");
   if (parts) {
      for (int i = 0; i < 3; i++)
         dgu_create_parts(&desc, &g, &parts[i]);
      parts[0].module_info.pName = "nope";
      VkDataGraphPipelineCreateInfoARM infos[2] = {parts[0].info, parts[1].info};
      infos[0].flags = VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT;
      VkPipeline p[2] = {(VkPipeline)(uintptr_t)0x1234, (VkPipeline)(uintptr_t)0x5678};
      vku_capture_stderr_begin();
      VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 2,
                                                     infos, NULL, p);
      vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT && !p[0] && !p[1],
         "early return: %d, both handles null", r);
   }

   /* pipelineCreationCacheControl: with no cache that holds the pipeline, a creation that
    * must not compile is a miss (VK_PIPELINE_COMPILE_REQUIRED, a null handle), the others
    * are created; with EARLY_RETURN_ON_FAILURE the miss ends the call. */
   test_set_context("FAIL_ON_PIPELINE_COMPILE_REQUIRED");
   if (parts) {
      for (int i = 0; i < 3; i++)
         dgu_create_parts(&desc, &g, &parts[i]);
      VkDataGraphPipelineCreateInfoARM infos[3] = {parts[0].info, parts[1].info, parts[2].info};
      infos[1].flags = VK_PIPELINE_CREATE_2_FAIL_ON_PIPELINE_COMPILE_REQUIRED_BIT;
      VkPipelineCreationFeedback feedback = {.flags = ~0u};
      VkPipelineCreationFeedbackCreateInfo fb = {
          .sType = VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO,
          .pNext = infos[1].pNext,
          .pPipelineCreationFeedback = &feedback};
      infos[1].pNext = &fb;
      VkPipeline p[3] = {VK_NULL_HANDLE, (VkPipeline)(uintptr_t)0x1234, VK_NULL_HANDLE};
      VkResult r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 3,
                                                     infos, NULL, p);
      ok(r == VK_PIPELINE_COMPILE_REQUIRED, "a miss: %d", r);
      ok(p[0] && !p[1] && p[2], "handles %p %p %p", (void *)p[0], (void *)p[1], (void *)p[2]);
      ok(!(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT),
         "no valid feedback for the missed pipeline (flags 0x%x)", feedback.flags);
      if (p[2])
         run_check(u, &g, p[2], false);
      vkDestroyPipeline(u->device, p[0], NULL);
      vkDestroyPipeline(u->device, p[2], NULL);

      infos[1].flags |= VK_PIPELINE_CREATE_2_EARLY_RETURN_ON_FAILURE_BIT;
      VkPipeline q[3] = {VK_NULL_HANDLE, (VkPipeline)(uintptr_t)0x1234,
                         (VkPipeline)(uintptr_t)0x5678};
      r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 3, infos,
                                            NULL, q);
      ok(r == VK_PIPELINE_COMPILE_REQUIRED && q[0] && !q[1] && !q[2],
         "early return after the miss: %d, handles %p %p %p", r, (void *)q[0], (void *)q[1],
         (void *)q[2]);
      vkDestroyPipeline(u->device, q[0], NULL);
   }
   free(parts);
   vkDestroyPipelineLayout(u->device, push_layout, NULL);
   dgu_graph_destroy(u, &g);
}

/* out0 = CLAMP(small) (64 work items: one workgroup), out1 = ADD(big, gc) (4,096: 64
 * workgroups, more than VMEL_GRAPH_MAX_GROUPS=2 allows in x and y). */
static const char late_text[] =
   DGU_PRELUDE
   "OpDecorate %s_var DescriptorSet 0\n"
   "OpDecorate %s_var Binding 0\n"
   "OpDecorate %b_var DescriptorSet 0\n"
   "OpDecorate %b_var Binding 1\n"
   "OpDecorate %o0_var DescriptorSet 0\n"
   "OpDecorate %o0_var Binding 2\n"
   "OpDecorate %o1_var DescriptorSet 0\n"
   "OpDecorate %o1_var Binding 3\n"
   DGU_TYPES
   "%uint_64 = OpConstant %uint 64\n"
   "%uint_4096 = OpConstant %uint 4096\n"
   "%s_small = OpConstantComposite %arr_2 %uint_1 %uint_64\n"
   "%s_big = OpConstantComposite %arr_2 %uint_1 %uint_4096\n"
   "%ts = OpTypeTensorARM %float %uint_2 %s_small\n"
   "%tb = OpTypeTensorARM %float %uint_2 %s_big\n"
   "%ps = OpTypePointer UniformConstant %ts\n"
   "%pb = OpTypePointer UniformConstant %tb\n"
   "%s_var = OpVariable %ps UniformConstant\n"
   "%b_var = OpVariable %pb UniformConstant\n"
   "%o0_var = OpVariable %ps UniformConstant\n"
   "%o1_var = OpVariable %pb UniformConstant\n"
   "%m1 = OpConstant %float -1\n"
   "%p1 = OpConstant %float 1\n"
   "%gc = OpGraphConstantARM %tb 0\n"
   "%gt = OpTypeGraphARM 2 %ts %tb %ts %tb\n"
   "OpGraphEntryPointARM %g \"main\" %s_var %b_var %o0_var %o1_var\n"
   "%g = OpGraphARM %gt\n"
   "%small = OpGraphInputARM %ts %uint_0\n"
   "%big = OpGraphInputARM %tb %uint_1\n"
   "%c = OpExtInst %ts %tosa CLAMP %m1 %p1 %propagate %small\n"
   "%sum = OpExtInst %tb %tosa ADD %big %gc\n"
   "OpGraphSetOutputARM %c %uint_0\n"
   "OpGraphSetOutputARM %sum %uint_1\n"
   "OpGraphEndARM\n";

static void
test_late_failure(void)
{
   test_set_context("late failure");
   static float big_gc[4096];
   struct dgu_alloc_counter device_count = {0};
   VkAllocationCallbacks device_alloc = dgu_counting_allocator(&device_count);
   setenv("VMEL_GRAPH_MAX_GROUPS", "2", 1);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &device_alloc};
   if (dgu_init(&u, &options)) {
      struct dgu_binding b[] = {
         {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
         {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 4096}},
         {0, 2, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
         {0, 3, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 4096}},
      };
      struct dgu_constant c[] = {{0, VK_FORMAT_R32_SFLOAT, 2, {1, 4096}, big_gc}};
      struct dgu_pipeline_desc desc = {.text = late_text, .bindings = b, .binding_count = 4,
                                       .constants = c, .constant_count = 1};
      /* Twice: the first call may leave caches of the layers below warm (the tensor
       * layer's record pool); the second must leave exactly what it found. */
      long live[3];
      for (int attempt = 0; attempt < 2; attempt++) {
         struct dgu_graph g;
         live[attempt] = settle(&u, &device_count, -1);
         vku_capture_stderr_begin();
         VkResult r = dgu_graph_create(&u, &desc, &g);
         const char *log = vku_capture_stderr_end();
         ok(r == VK_ERROR_UNKNOWN && g.pipeline == VK_NULL_HANDLE, "result %d", r);
         ok(strstr(log, "workgroup") != NULL, "the log says why");
         /* The module and the layouts dgu_graph_create made are its only new objects. */
         dgu_graph_destroy(&u, &g);
         live[attempt + 1] = settle(&u, &device_count, attempt ? live[1] : -1);
      }
      ok(live[2] == live[1], "device allocations %ld before the second failure, %ld after",
         live[1], live[2]);
   }
   dgu_finish(&u);
   unsetenv("VMEL_GRAPH_MAX_GROUPS");
}

/* Applications written for Arm's layer pass a pName that names no entry point (it ignores
 * pName): a module with one entry point uses it, with a warning naming the rule; a module with
 * two refuses (test_invalid's "bad entry point name"). */
static void
test_entry_point_name(struct dgu *u)
{
   test_set_context("pName of a one-entry-point module");
   static const char single_text[] = DGU_CLAMP_ADD_SUB_TEXT;
   struct dgu_binding b[] = {
       {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
       {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
   };
   struct dgu_pipeline_desc desc = {.text = single_text, .bindings = b, .binding_count = 2,
                                    .entry = "Graph Pipeline"};
   struct dgu_graph g;
   vku_capture_stderr_begin();
   VkResult r = dgu_graph_create(u, &desc, &g);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_SUCCESS && g.pipeline != VK_NULL_HANDLE, "created with the only entry point: %d",
      r);
   ok(strstr(log, "pName-09872") && strstr(log, "\"main\""), "with a warning: %s", log);
   dgu_graph_destroy(u, &g);
}

int
main(void)
{
   for (int i = 0; i < N; i++)
      gc[i] = (float)(i % 5) - 2.0f;
   struct dgu_alloc_counter device_count = {0};
   VkAllocationCallbacks device_alloc = dgu_counting_allocator(&device_count);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &device_alloc};
   if (dgu_init(&u, &options)) {
      test_properties(&u);
      test_feedback_inline(&u);
      test_invalid(&u, &device_count);
      test_entry_point_name(&u);
   }
   dgu_finish(&u);
   ok(device_count.live == 0, "%ld device allocations left after vkDestroyDevice",
      device_count.live);
   test_late_failure();
   return test_done();
}
