/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Pipeline statistics of the graph kernels (VMEL_GRAPH_PIPELINE_STATS=1, D59; the test runs
 * with VMEL_GRAPH_SEVERITY=info). Lavapipe has no VK_KHR_pipeline_executable_properties, so
 * the test layer VK_LAYER_VMEL_test_exec_stats (tests/layers/exec_stats.c) gives the device
 * one below our layers: its statistics come from what reached it, and it answers only for
 * pipelines created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR.
 *  - stats: the graph layer enables the extension, each of the graph's three kernels gets one
 *    statistics line with every statistic (one of each format), and the results are right;
 *  - app: the application enabled the extension itself (not added twice, validation below
 *    would say so); its own compute pipeline is created as it asked: without the flag it has
 *    no statistics, with it it has;
 *  - off: without the variable, no statistics lines;
 *  - lavapipe alone: a warning says why there are none, and the results are right.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64
#define STATS_LAYER "VK_LAYER_VMEL_test_exec_stats"
#define EXT VK_KHR_PIPELINE_EXECUTABLE_PROPERTIES_EXTENSION_NAME

static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;

static const struct dgu_binding bindings[] = {
   {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};

static const char *const kernels[] = {"tosa_clamp_fp32", "tosa_add_fp32", "tosa_sub_fp32"};

static int
count_of(const char *log, const char *what)
{
   int n = 0;
   for (const char *p = log; p && (p = strstr(p, what)); p += strlen(what))
      n++;
   return n;
}

/* The statistics line of a kernel (copied into line), or false. */
static bool
stats_line(const char *log, const char *kernel, char *line, size_t size)
{
   char key[128];
   snprintf(key, sizeof(key), "pipeline statistics: kernel %s (", kernel);
   const char *p = strstr(log, key);
   if (!p)
      return false;
   const char *end = strchr(p, '\n');
   size_t n = end ? (size_t)(end - p) : strlen(p);
   if (n >= size)
      n = size - 1;
   memcpy(line, p, n);
   line[n] = 0;
   return true;
}

/* The statistics of the test layer, one of each format, in each kernel's line. */
static void
check_stats_lines(const char *log)
{
   ok(count_of(log, "pipeline statistics: kernel ") == 3, "one line per kernel: %d",
      count_of(log, "pipeline statistics: kernel "));
   for (uint32_t k = 0; k < 3; k++) {
      char line[1024];
      if (!ok(stats_line(log, kernels[k], line, sizeof(line)), "a statistics line of %s",
              kernels[k]))
         continue;
      const char *words = strstr(line, " SPIR-V_words=");
      long n = words ? strtol(words + strlen(" SPIR-V_words="), NULL, 10) : 0;
      ok(n > 5, "%s: SPIR-V words (u64) %ld", kernels[k], n);
      ok(strstr(line, " Specialization_constants=") && strstr(line, " Captured=true") &&
            strstr(line, " SPIR-V_KiB="),
         "%s: i64, bool and f64 statistics: %s", kernels[k], line);
      ok(strstr(line, "executable 0/1 \"Compute Shader\" subgroup ") != NULL,
         "%s: the executable: %s", kernels[k], line);
      char what[64];
      snprintf(what, sizeof(what), "(TOSA %s %%", k == 0 ? "CLAMP" : k == 1 ? "ADD" : "SUB");
      ok(strstr(line, what) != NULL, "%s: the stage named: %s", kernels[k], line);
   }
   ok(!strstr(log, "failed"), "no query failed");
}

/* The graph run once, its output against the reference. */
static void
run_graph(struct dgu *u, struct dgu_graph *g)
{
   struct dgu_session s = {0};
   struct dgu_sets sets = {0};
   struct dgu_tensor in = {0}, out = {0};
   int64_t dims[2] = {1, N};
   if (dgu_session_create(u, g->pipeline, &s) && dgu_sets_create(u, g, &sets) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
      float *x = in.data, want[N];
      for (uint32_t i = 0; i < N; i++)
         x[i] = (float)i * 0.125f - 4.0f;
      dgu_clamp_add_sub_expect(x, want, N);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      if (dgu_run(u, g, &sets, s.session))
         dgu_check_f32("out", out.data, want, N);
   }
   dgu_tensor_destroy(u, &out);
   dgu_tensor_destroy(u, &in);
   dgu_sets_destroy(u, &sets);
   dgu_session_destroy(u, &s);
}

/* Device and graph with stderr captured; the log returned (copied into log). */
static bool
create(struct dgu *u, struct dgu_graph *g, const struct dgu_options *options, char *log,
       size_t size)
{
   vku_capture_stderr_begin();
   bool made = dgu_init(u, options);
   struct dgu_pipeline_desc desc = {.text = text, .bindings = bindings, .binding_count = 2};
   made = made && ok(dgu_graph_create(u, &desc, g) == VK_SUCCESS, "pipeline");
   snprintf(log, size, "%s", vku_capture_stderr_end());
   return made;
}

static void
test_stats(void)
{
   test_set_context("stats");
   setenv("VMEL_GRAPH_PIPELINE_STATS", "1", 1);
   static char log[65536];
   struct dgu u;
   struct dgu_graph g = {0};
   struct dgu_options o = {.layer_below = STATS_LAYER};
   if (create(&u, &g, &o, log, sizeof(log))) {
      check_stats_lines(log);
      run_graph(&u, &g);
   }
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
}

/* A compute pipeline of the application's (an empty shader), with the flags given. */
static VkPipeline
app_pipeline(struct dgu *u, VkPipelineLayout layout, VkPipelineCreateFlags flags)
{
   static const char shader[] = "OpCapability Shader\n"
                                "OpMemoryModel Logical GLSL450\n"
                                "OpEntryPoint GLCompute %main \"main\"\n"
                                "OpExecutionMode %main LocalSize 1 1 1\n"
                                "%void = OpTypeVoid\n"
                                "%fn = OpTypeFunction %void\n"
                                "%main = OpFunction %void None %fn\n"
                                "%label = OpLabel\n"
                                "OpReturn\n"
                                "OpFunctionEnd\n";
   size_t count = 0;
   uint32_t *words = dgu_assemble(shader, &count);
   if (!words)
      return VK_NULL_HANDLE;
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = count * 4,
                                   .pCode = words};
   VkShaderModule module = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   if (ok(vkCreateShaderModule(u->device, &mci, NULL, &module) == VK_SUCCESS, "module")) {
      VkComputePipelineCreateInfo cpci = {
         .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
         .flags = flags,
         .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                   .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                   .module = module,
                   .pName = "main"},
         .layout = layout,
      };
      ok(vkCreateComputePipelines(u->device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline) ==
            VK_SUCCESS,
         "the application's compute pipeline");
      vkDestroyShaderModule(u->device, module, NULL);
   }
   free(words);
   return pipeline;
}

/* What the test layer answers for a pipeline: VK_SUCCESS with statistics only where it was
 * created with the capture flag. */
static VkResult
app_statistics(struct dgu *u, VkPipeline pipeline, uint32_t *count)
{
   PFN_vkGetPipelineExecutableStatisticsKHR get =
      (PFN_vkGetPipelineExecutableStatisticsKHR)vkGetDeviceProcAddr(
         u->device, "vkGetPipelineExecutableStatisticsKHR");
   if (!ok(get != NULL, "vkGetPipelineExecutableStatisticsKHR"))
      return VK_ERROR_EXTENSION_NOT_PRESENT;
   VkPipelineExecutableInfoKHR ei = {.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR,
                                     .pipeline = pipeline};
   *count = 0;
   return get(u->device, &ei, count, NULL);
}

static void
test_app_enabled(void)
{
   test_set_context("application enabled the extension");
   setenv("VMEL_GRAPH_PIPELINE_STATS", "1", 1);
   static char log[65536];
   struct dgu u;
   struct dgu_graph g = {0};
   VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR f = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
      .pipelineExecutableInfo = VK_TRUE};
   struct dgu_options o = {.layer_below = STATS_LAYER, .extension = EXT, .features = &f};
   if (create(&u, &g, &o, log, sizeof(log))) {
      check_stats_lines(log);
      VkPipelineLayoutCreateInfo lci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
      VkPipelineLayout layout = VK_NULL_HANDLE;
      ok(vkCreatePipelineLayout(u.device, &lci, NULL, &layout) == VK_SUCCESS, "layout");
      VkPipeline plain = app_pipeline(&u, layout, 0);
      VkPipeline captured =
         app_pipeline(&u, layout, VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR);
      uint32_t count;
      VkResult r = app_statistics(&u, plain, &count);
      ok(r == VK_ERROR_UNKNOWN, "the application's pipeline without the flag has none: %d", r);
      r = app_statistics(&u, captured, &count);
      ok(r == VK_SUCCESS && count == 4, "with the flag it has: %d, %u", r, count);
      vkDestroyPipeline(u.device, captured, NULL);
      vkDestroyPipeline(u.device, plain, NULL);
      vkDestroyPipelineLayout(u.device, layout, NULL);
      run_graph(&u, &g);
   }
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
}

static void
test_off(void)
{
   test_set_context("off");
   unsetenv("VMEL_GRAPH_PIPELINE_STATS");
   static char log[65536];
   struct dgu u;
   struct dgu_graph g = {0};
   struct dgu_options o = {.layer_below = STATS_LAYER};
   if (create(&u, &g, &o, log, sizeof(log)))
      ok(!strstr(log, "pipeline statistics") && !strstr(log, "VMEL_GRAPH_PIPELINE_STATS"),
         "no statistics without VMEL_GRAPH_PIPELINE_STATS");
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
}

static void
test_not_offered(void)
{
   test_set_context("the device alone");
   setenv("VMEL_GRAPH_PIPELINE_STATS", "1", 1);
   static char log[65536];
   struct dgu u;
   struct dgu_graph g = {0};
   if (create(&u, &g, NULL, log, sizeof(log))) {
      if (strstr(log, "pipeline statistics: kernel ")) {
         /* a driver with the extension: its own statistics, whatever they are */
         char line[1024];
         ok(stats_line(log, "tosa_clamp_fp32", line, sizeof(line)) && strchr(line, '='),
            "the driver's statistics: %s", line);
      } else {
         ok(strstr(log, "VMEL_GRAPH_PIPELINE_STATS: the device below offers no " EXT) != NULL,
            "a warning says why there are no statistics");
      }
      run_graph(&u, &g);
   }
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
}

int
main(void)
{
   test_stats();
   test_app_enabled();
   test_off();
   test_not_offered();
   return test_done();
}
