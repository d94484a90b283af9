/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Profiling (VMEL_GRAPH_PROFILING=1, include/vmel_graph.h): without it the
 * profile property is not listed and cannot be read; with it (set before the
 * device is created), every dispatch records per-stage timestamps that are
 * collected when the application waits (vkWaitForFences, vkQueueWaitIdle,
 * vkGetFenceStatus, vkDeviceWaitIdle) and not before, and the JSON property
 * holds one sample per dispatch (per stage: op, result id, kernel, ns) and the
 * totals per operator. A command buffer submitted again gives new samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"
#include "vmel_graph.h"

TEST_MAIN_STATE;

#define N 64

/* Three stages: CLAMP, ADD, SUB. */
static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;

static const struct dgu_binding bindings[] = {
   {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};

static int
count_of(const char *text_, const char *what)
{
   int n = 0;
   for (const char *p = text_; p && (p = strstr(p, what)); p += strlen(what))
      n++;
   return n;
}

static long
number_after(const char *json, const char *key)
{
   const char *p = json ? strstr(json, key) : NULL;
   return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static char *
profile(struct dgu *u, VkPipeline pipeline)
{
   return dgu_text_property(u, pipeline, VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON);
}

static long
dispatches(struct dgu *u, VkPipeline pipeline)
{
   char *json = profile(u, pipeline);
   long n = number_after(json, "\"dispatches\": ");
   free(json);
   return n;
}

static void
test_off(void)
{
   test_set_context("profiling off");
   unsetenv("VMEL_GRAPH_PROFILING");
   struct dgu u;
   if (dgu_init(&u, NULL)) {
      struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
      struct dgu_graph g;
      if (ok(dgu_graph_create(&u, &desc, &g) == VK_SUCCESS, "pipeline")) {
         VkDataGraphPipelineInfoARM pi = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                          .dataGraphPipeline = g.pipeline};
         uint32_t count = 0;
         u.fn.GetDataGraphPipelineAvailablePropertiesARM(u.device, &pi, &count, NULL);
         ok(count == 2, "%u properties without profiling", count);
         VkDataGraphPipelinePropertyQueryResultARM q = {
            .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
            .property = VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON};
         vku_capture_stderr_begin();
         VkResult r = u.fn.GetDataGraphPipelinePropertiesARM(u.device, &pi, 1, &q);
         vku_capture_stderr_end();
         ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "the profile is not available: %d", r);
      }
      dgu_graph_destroy(&u, &g);
   }
   dgu_finish(&u);
}

static VkResult
submit(struct dgu *u, VkCommandBuffer cmd)
{
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   return vkQueueSubmit2(u->queue, 1, &si, u->fence);
}

static void
test_on(void)
{
   test_set_context("profiling on");
   setenv("VMEL_GRAPH_PROFILING", "1", 1);
   struct dgu u;
   struct dgu_graph g = {0};
   struct dgu_session s[2] = {{0}};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, N};
   struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
   if (!dgu_init(&u, NULL) ||
       !ok(dgu_graph_create(&u, &desc, &g) == VK_SUCCESS, "pipeline") ||
       !dgu_session_create(&u, g.pipeline, &s[0]) || !dgu_session_create(&u, g.pipeline, &s[1]) ||
       !dgu_sets_create(&u, &g, &sets) ||
       !dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) ||
       !dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims, &out))
      goto done;
   dgu_write(&u, sets.sets[0], 0, 0, &in);
   dgu_write(&u, sets.sets[0], 1, 0, &out);

   VkDataGraphPipelineInfoARM pi = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                    .dataGraphPipeline = g.pipeline};
   VkDataGraphPipelinePropertyARM props[4];
   uint32_t count = 4;
   u.fn.GetDataGraphPipelineAvailablePropertiesARM(u.device, &pi, &count, props);
   ok(count == 3 && props[2] == VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON,
      "the profile is listed: %u properties", count);
   char *json = profile(&u, g.pipeline);
   ok(json && number_after(json, "\"dispatches\": ") == 0 && strstr(json, "\"samples\": [") &&
         strstr(json, "\"by_operator\": {"),
      "before any dispatch:\n%s", json ? json : "");
   free(json);

   /* Two dispatches (two sessions) in one command buffer, waited for with a fence. */
   VkCommandBuffer cmd = dgu_begin(&u);
   dgu_barrier_host_to_graph(cmd);
   dgu_dispatch(&u, cmd, &g, &sets, s[0].session);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
               VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM);
   dgu_dispatch(&u, cmd, &g, &sets, s[1].session);
   dgu_barrier_graph_to_host(cmd);
   vkEndCommandBuffer(cmd);
   ok(submit(&u, cmd) == VK_SUCCESS, "submit");
   ok(vkWaitForFences(u.device, 1, &u.fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS, "fence");
   vkResetFences(u.device, 1, &u.fence);
   json = profile(&u, g.pipeline);
   if (ok(json != NULL, "profile")) {
      ok(number_after(json, "\"dispatches\": ") == 2, "2 dispatches after vkWaitForFences:\n%s",
         json);
      ok(count_of(json, "\"dispatch\": ") == 2 && count_of(json, "\"stage\": ") == 6,
         "two samples of three stages");
      ok(count_of(json, "\"op\": \"CLAMP\"") == 2 && count_of(json, "\"op\": \"ADD\"") == 2 &&
            count_of(json, "\"op\": \"SUB\"") == 2,
         "the stages' operators");
      ok(count_of(json, "\"kernel\": \"tosa_clamp_fp32\"") == 2 &&
            count_of(json, "\"kernel\": \"tosa_add_fp32\"") == 2,
         "the stages' kernels");
      ok(count_of(json, "\"result_id\": ") == 6, "result ids");
      char key[64];
      snprintf(key, sizeof(key), "\"session\": \"0x%llx\"",
               (unsigned long long)(uintptr_t)s[1].session);
      ok(strstr(json, key) != NULL, "the second session is named (%s)", key);
      snprintf(key, sizeof(key), "\"dispatch\": 0, \"session\": \"0x%llx\"",
               (unsigned long long)(uintptr_t)s[0].session);
      ok(strstr(json, key) != NULL, "samples in the order the dispatches ran (%s)", key);
      ok(number_after(json, "\"CLAMP\": {\"stages\": ") == 2 &&
            number_after(json, "\"ADD\": {\"stages\": ") == 2 &&
            number_after(json, "\"SUB\": {\"stages\": ") == 2,
         "by_operator totals");
      ok(count_of(json, "{") == count_of(json, "}") && count_of(json, "[") == count_of(json, "]"),
         "balanced JSON");
   }
   /* Two-call pattern on a short buffer: VK_INCOMPLETE and a NUL. */
   VkDataGraphPipelinePropertyQueryResultARM q = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
      .property = VMEL_DATA_GRAPH_PIPELINE_PROPERTY_PROFILE_JSON};
   char small[16];
   q.pData = small;
   q.dataSize = sizeof(small);
   VkResult r = u.fn.GetDataGraphPipelinePropertiesARM(u.device, &pi, 1, &q);
   ok(r == VK_INCOMPLETE && q.isText && q.dataSize == sizeof(small) && small[15] == 0 && json &&
         memcmp(small, json, 15) == 0,
      "short buffer: %d", r);
   free(json);

   /* The same command buffer again: collected by vkQueueWaitIdle, not before. */
   ok(submit(&u, cmd) == VK_SUCCESS, "submit 2");
   vkQueueWaitIdle(u.queue);
   ok(dispatches(&u, g.pipeline) == 4, "4 dispatches after vkQueueWaitIdle");
   vkResetFences(u.device, 1, &u.fence);

   /* vkGetFenceStatus polled until signalled. */
   ok(submit(&u, cmd) == VK_SUCCESS, "submit 3");
   long before = dispatches(&u, g.pipeline);
   ok(before == 4, "not collected before a wait: %ld", before);
   while (vkGetFenceStatus(u.device, u.fence) == VK_NOT_READY)
      ;
   ok(dispatches(&u, g.pipeline) == 6, "6 dispatches after vkGetFenceStatus");
   vkResetFences(u.device, 1, &u.fence);

   ok(submit(&u, cmd) == VK_SUCCESS, "submit 4");
   vkDeviceWaitIdle(u.device);
   ok(dispatches(&u, g.pipeline) == 8, "8 dispatches after vkDeviceWaitIdle");
   vkResetFences(u.device, 1, &u.fence);
   /* A wait with nothing new collects nothing twice. */
   vkDeviceWaitIdle(u.device);
   ok(dispatches(&u, g.pipeline) == 8, "still 8 after another wait");
   json = profile(&u, g.pipeline);
   ok(json && number_after(json, "\"CLAMP\": {\"stages\": ") == 8, "by_operator over 8");
   printf("%s", json ? json : "");
   free(json);
   dgu_free_cmd(&u, cmd);
done:
   dgu_tensor_destroy(&u, &in);
   dgu_tensor_destroy(&u, &out);
   dgu_sets_destroy(&u, &sets);
   dgu_session_destroy(&u, &s[0]);
   dgu_session_destroy(&u, &s[1]);
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
   unsetenv("VMEL_GRAPH_PROFILING");
}

int
main(void)
{
   test_off();
   test_on();
   return test_done();
}
