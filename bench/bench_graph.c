/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the graph layer's kernels cost on the default device (lavapipe here),
 * through the loader and both layers (VK_LAYER_ML_Graph_Emulation above
 * VK_LAYER_ML_Tensor_Emulation, or the meta layer with --meta), for graphs
 * written as SPIR-V text (assembled with vmel_spirv_text), their weights
 * passed as graph constants:
 *   conv_fp32    three CONV2D 3x3 pad 1 (acc FP32) on [1,H,W,C] with CLAMP
 *                (ReLU6) between them;
 *   conv_int8    three times CONV2D i8 -> i32 (acc INT32), RESCALE i32 -> i8
 *                (per channel, DOUBLE_ROUND), CLAMP (ReLU around the zero point);
 *   matmul_fp32  MATMUL [1,M,K] x [1,K,N] fp32, the second operand a constant;
 *   add_fp32, mul_fp16, table_i8, cast_fp32_fp16
 *                one elementwise operator on [64, N/64] (--elements N, default
 *                64M): memory-bound, measured as bandwidth against a copy.
 * Per graph it measures
 *   create    vkCreateDataGraphPipelinesARM (the SPIR-V module exists already),
 *   session   vkCreateDataGraphPipelineSessionARM, the bind point's memory
 *             (allocate and bind) and the descriptor pool, set and writes,
 *   dispatch  vkQueueSubmit2 to vkWaitForFences of a command buffer holding
 *             host -> graph barrier, the dispatch, graph -> host barrier,
 *   gpu       the timestamps written around the dispatch in that command
 *             buffer (when the queue has timestamps),
 * each as median and min: create and session over --creations pipelines (each
 * destroyed but the last), dispatch over --reps submissions after --warmup.
 * For the elementwise graphs it then times vkCmdCopyBuffer between two
 * device-local buffers that together hold as many bytes as the graph's
 * tensors (so the copy reads and writes what the dispatch reads and writes),
 * the same way, and reports both as GB/s (bytes read + written / time, from
 * the timestamps where there are some) and their ratio.
 * The application's tensors are device-local (bench_graph_vk.c). Mesa's disk
 * shader cache is off (MESA_SHADER_CACHE_DISABLE), so every creation compiles.
 * A graph whose pipeline cannot be created is skipped, not failed, when it is
 * one of the operators a layer may not have yet (TABLE, CAST).
 *
 * Every graph's output after the warm-up is checked against the CPU reference
 * (tests/reference/tosa_ref.h), after the timed dispatches (so that the
 * reference does not idle the GPU before them), and the output of the last
 * timed dispatch must equal it bit for bit, so no wrong result is reported:
 *   conv_int8    bit-exact;
 *   conv_fp32    |out - ref| <= 1e-5 * bnd per element, ref the reference chain
 *                (each CONV2D in fp64, rounded to fp32, CLAMP exact; the last
 *                CONV2D unrounded) and bnd TOSA's dot-product bound of the last
 *                CONV2D (sum |x*w| + |bias| over the reference's input): a
 *                relative tolerance, since errors of the first two CONV2Ds are
 *                not covered by the bound of the last;
 *   matmul_fp32  TOSA 1.0.1's dot-product bound (tosa_ref_check_dot_product);
 *   elementwise  bit-exact (bench_graph_ew.c).
 *
 *   bench_graph [--reps N] [--warmup N] [--creations N] [--graph NAME]...
 *               [--elements N] [--manifests DIR] [--meta] [--json FILE]
 *               [--print-text] [--pipeline-stats]
 * The layers come from --manifests DIR, else VK_LAYER_PATH, else this build
 * tree's manifests; the driver from VK_DRIVER_FILES, else lavapipe's ICD when
 * installed. Exit status: 0, 1 when a graph fails (creation, run or check),
 * 2 for a usage error.
 *
 * This file owns the pipelines, dispatches, timing and the report;
 * bench_graph_vk.c the device, tensors and the copy; bench_graph_nets.c and
 * bench_graph_ew.c the graphs, their data, references and checks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "bench_graph.h"
#include "graph_run.h"
#include "spirv_text.h"
#include "vulkan/vulkan_arm_ml.h"

/* ---- small helpers -------------------------------------------------------------------------- */

double
bench_now_ms(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int
compare_doubles(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

void
bench_samples_add(struct bench_samples *s, double v)
{
   if (s->n < BENCH_MAX_SAMPLES)
      s->v[s->n++] = v;
}

static double
samples_median(const struct bench_samples *s)
{
   double t[BENCH_MAX_SAMPLES];
   int n = s->n;
   if (!n)
      return 0.0;
   memcpy(t, s->v, (size_t)n * sizeof(double));
   qsort(t, (size_t)n, sizeof(double), compare_doubles);
   return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

static double
samples_min(const struct bench_samples *s)
{
   double m = s->n ? s->v[0] : 0.0;
   for (int i = 1; i < s->n; i++)
      m = s->v[i] < m ? s->v[i] : m;
   return m;
}

static double
samples_max(const struct bench_samples *s)
{
   double m = s->n ? s->v[0] : 0.0;
   for (int i = 1; i < s->n; i++)
      m = s->v[i] > m ? s->v[i] : m;
   return m;
}

/* A line when the timed samples spread over more than 25 %: the H200 held its SM clocks at
 * discrete levels, samples flat within one and 3-5x apart between them, and switched during a
 * graph's timed submissions (performance.md, the suite re-run). */
static void
print_spread(const char *what, const struct bench_samples *s)
{
   double lo = samples_min(s), hi = samples_max(s);
   if (s->n > 1 && lo > 0 && hi > 1.25 * lo) {
      printf("  unstable   %s samples from %.3f to %.3f ms (in order:", what, lo, hi);
      for (int i = 0; i < s->n && i < 12; i++)
         printf(" %.3f", s->v[i]);
      printf("%s): a clock change? (--warmup-ms)\n", s->n > 12 ? " ..." : "");
   }
}

static double measure_ms(const struct bench_measure *m);
static double memory_lower_bound(const struct bench_graph *g);

/* ---- pipelines and dispatches -------------------------------------------------------------- */

/* What one pipeline creation and session set-up make. */
struct instance_objects {
   VkPipeline pipeline;
   VkDataGraphPipelineSessionARM session;
   VkDeviceMemory session_memory;
   VkDescriptorPool pool;
   VkDescriptorSet set;
};

static void
instance_destroy(struct bench_device *d, struct instance_objects *o)
{
   VkDevice dev = d->gd.device;
   if (o->pool)
      vkDestroyDescriptorPool(dev, o->pool, NULL);
   if (o->session)
      d->fn.DestroyDataGraphPipelineSessionARM(dev, o->session, NULL);
   if (o->session_memory)
      vkFreeMemory(dev, o->session_memory, NULL);
   if (o->pipeline)
      vkDestroyPipeline(dev, o->pipeline, NULL);
   memset(o, 0, sizeof(*o));
}

/* The graph's tensors: inputs, then the output (bindings 0 .. input_count). */
#define BENCH_MAX_IO (BENCH_MAX_INPUTS + 1)

struct run_objects {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkShaderModule module;
   struct bench_tensor io[BENCH_MAX_IO];
   uint32_t io_count;
   VkCommandPool cmd_pool;
   VkCommandBuffer cmd;  /* the dispatch, recorded once */
   VkCommandBuffer xfer; /* transfers and the copy baseline, recorded as needed */
   VkFence fence;
   VkQueryPool queries; /* 0, 1: around the dispatch; 2, 3: around the copy */
};

/* The output, last of r->io. */
static struct bench_tensor *
run_output(struct run_objects *r)
{
   return &r->io[r->io_count - 1];
}

/* The kernels of the pipeline's stages, from its creation log ("stage N: OP %id -> kernel K,
 * ..." lines), space-separated in out (empty when the log says nothing). */
static void
pipeline_kernels(struct bench_device *d, VkPipeline pipeline, char *out, size_t size)
{
   out[0] = 0;
   VkDataGraphPipelineInfoARM info = {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_INFO_ARM,
                                      .dataGraphPipeline = pipeline};
   VkDataGraphPipelinePropertyQueryResultARM q = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_PROPERTY_QUERY_RESULT_ARM,
       .property = VK_DATA_GRAPH_PIPELINE_PROPERTY_CREATION_LOG_ARM};
   if (d->fn.GetDataGraphPipelinePropertiesARM(d->gd.device, &info, 1, &q) != VK_SUCCESS ||
       !q.dataSize)
      return;
   char *log = malloc(q.dataSize + 1);
   if (!log)
      return;
   q.pData = log;
   if (d->fn.GetDataGraphPipelinePropertiesARM(d->gd.device, &info, 1, &q) == VK_SUCCESS) {
      log[q.dataSize] = 0;
      size_t n = 0;
      for (const char *k = strstr(log, "-> kernel "); k && n + 1 < size;
           k = strstr(k + 1, "-> kernel ")) {
         k += 10;
         size_t len = strcspn(k, ",\n");
         n += (size_t)snprintf(out + n, size - n, "%s%.*s", n ? " " : "", (int)len, k);
      }
   }
   free(log);
}

static bool
create_pipeline(struct bench_device *d, struct bench_graph *g, struct run_objects *r,
                struct instance_objects *o, struct bench_measure *m)
{
   VkDataGraphPipelineResourceInfoARM res[BENCH_MAX_IO];
   for (uint32_t i = 0; i < r->io_count; i++)
      res[i] = (VkDataGraphPipelineResourceInfoARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
          .pNext = &r->io[i].desc,
          .descriptorSet = 0,
          .binding = i,
      };
   VkDataGraphPipelineConstantARM consts[BENCH_MAX_CONSTANTS];
   VkTensorDescriptionARM descs[BENCH_MAX_CONSTANTS];
   for (uint32_t i = 0; i < g->constant_count; i++) {
      const struct graph_constant *c = &g->constants[i];
      descs[i] = (VkTensorDescriptionARM){
          .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
          .tiling = VK_TENSOR_TILING_LINEAR_ARM,
          .format = c->format,
          .dimensionCount = c->rank,
          .pDimensions = c->dims,
          .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM,
      };
      consts[i] = (VkDataGraphPipelineConstantARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CONSTANT_ARM,
          .pNext = &descs[i],
          .id = c->id,
          .pConstantData = c->data,
      };
   }
   VkDataGraphPipelineShaderModuleCreateInfoARM sm = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SHADER_MODULE_CREATE_INFO_ARM,
       .module = r->module,
       .pName = "main",
       .constantCount = g->constant_count,
       .pConstants = consts,
   };
   VkDataGraphPipelineCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
       .pNext = &sm,
       .layout = r->layout,
       .resourceInfoCount = r->io_count,
       .pResourceInfos = res,
   };
   double t0 = bench_now_ms();
   VkResult result = d->fn.CreateDataGraphPipelinesARM(d->gd.device, VK_NULL_HANDLE, VK_NULL_HANDLE,
                                                       1, &info, NULL, &o->pipeline);
   double t = bench_now_ms() - t0;
   if (!bench_vk_ok(g, result, "vkCreateDataGraphPipelinesARM (the graph layer's log says why)")) {
      o->pipeline = VK_NULL_HANDLE;
      return false;
   }
   bench_samples_add(&m->create, t);
   if (!m->kernels[0])
      pipeline_kernels(d, o->pipeline, m->kernels, sizeof(m->kernels));
   return true;
}

/* The session, its memory, and the application's descriptor set. */
static bool
set_up_session(struct bench_device *d, struct bench_graph *g, struct run_objects *r,
               struct instance_objects *o, struct bench_measure *m)
{
   VkDevice dev = d->gd.device;
   double t0 = bench_now_ms();
   VkDataGraphPipelineSessionCreateInfoARM sci = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .dataGraphPipeline = o->pipeline,
   };
   if (!bench_vk_ok(g, d->fn.CreateDataGraphPipelineSessionARM(dev, &sci, NULL, &o->session),
                    "vkCreateDataGraphPipelineSessionARM"))
      return false;
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
       .session = o->session,
   };
   VkDataGraphPipelineSessionBindPointRequirementARM reqs[4];
   for (uint32_t i = 0; i < 4; i++)
      reqs[i] = (VkDataGraphPipelineSessionBindPointRequirementARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM};
   uint32_t count = 4;
   VkResult res =
       d->fn.GetDataGraphPipelineSessionBindPointRequirementsARM(dev, &bri, &count, reqs);
   if (res != VK_INCOMPLETE && !bench_vk_ok(g, res, "session bind point requirements"))
      return false;
   if (count > 1) {
      bench_graph_fail(g, "%u session bind points (one expected)", count);
      return false;
   }
   for (uint32_t i = 0; i < count; i++) {
      VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
          .session = o->session,
          .bindPoint = reqs[i].bindPoint,
      };
      VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      d->fn.GetDataGraphPipelineSessionMemoryRequirementsARM(dev, &mri, &req);
      m->session_bytes = (double)req.memoryRequirements.size;
      uint32_t type = bench_memory_type(d, req.memoryRequirements.memoryTypeBits,
                                        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type == UINT32_MAX)
         type = bench_memory_type(d, req.memoryRequirements.memoryTypeBits, 0);
      VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.memoryRequirements.size,
                                  .memoryTypeIndex = type};
      if (!bench_vk_ok(g, vkAllocateMemory(dev, &mai, NULL, &o->session_memory), "session memory"))
         return false;
      VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
          .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
          .session = o->session,
          .bindPoint = reqs[i].bindPoint,
          .memory = o->session_memory,
      };
      if (!bench_vk_ok(g, d->fn.BindDataGraphPipelineSessionMemoryARM(dev, 1, &bi),
                       "vkBindDataGraphPipelineSessionMemoryARM"))
         return false;
   }
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, r->io_count};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
   if (!bench_vk_ok(g, vkCreateDescriptorPool(dev, &pci, NULL, &o->pool), "vkCreateDescriptorPool"))
      return false;
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = o->pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &r->set_layout};
   if (!bench_vk_ok(g, vkAllocateDescriptorSets(dev, &ai, &o->set), "vkAllocateDescriptorSets"))
      return false;
   VkWriteDescriptorSetTensorARM tw[BENCH_MAX_IO];
   VkWriteDescriptorSet w[BENCH_MAX_IO];
   for (uint32_t i = 0; i < r->io_count; i++) {
      tw[i] = (VkWriteDescriptorSetTensorARM){.sType =
                                                  VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
                                              .tensorViewCount = 1,
                                              .pTensorViews = &r->io[i].view};
      w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .pNext = &tw[i],
                                    .dstSet = o->set,
                                    .dstBinding = i,
                                    .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
   }
   vkUpdateDescriptorSets(dev, r->io_count, w, 0, NULL);
   bench_samples_add(&m->session, bench_now_ms() - t0);
   return true;
}

/* Layouts, module, application tensors (the inputs' data and the output's 0xcd bytes
 * uploaded), command buffers, fence and timestamp queries. */
static bool
run_objects_create(struct bench_device *d, struct bench_graph *g, struct run_objects *r)
{
   VkDevice dev = d->gd.device;
   uint32_t *words = NULL;
   size_t word_count = 0;
   char err[256];
   if (g->text.failed ||
       !spirv_text_assemble(g->text.s, g->text.len, &words, &word_count, err, sizeof(err))) {
      bench_graph_fail(g, "the module does not assemble: %s",
                       g->text.failed ? "out of memory" : err);
      return false;
   }
   VkShaderModuleCreateInfo mci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = word_count * 4,
                                   .pCode = words};
   VkResult res = vkCreateShaderModule(dev, &mci, NULL, &r->module);
   free(words);
   if (!bench_vk_ok(g, res, "vkCreateShaderModule"))
      return false;
   if (g->input_count == 0 || g->input_count > BENCH_MAX_INPUTS) {
      bench_graph_fail(g, "%u inputs", g->input_count);
      return false;
   }
   r->io_count = g->input_count + 1;
   VkDescriptorSetLayoutBinding b[BENCH_MAX_IO];
   for (uint32_t i = 0; i < r->io_count; i++)
      b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                            VK_SHADER_STAGE_ALL, NULL};
   VkDescriptorSetLayoutCreateInfo sli = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = r->io_count,
       .pBindings = b,
   };
   if (!bench_vk_ok(g, vkCreateDescriptorSetLayout(dev, &sli, NULL, &r->set_layout),
                    "vkCreateDescriptorSetLayout"))
      return false;
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &r->set_layout};
   if (!bench_vk_ok(g, vkCreatePipelineLayout(dev, &plci, NULL, &r->layout),
                    "vkCreatePipelineLayout"))
      return false;
   for (uint32_t i = 0; i < r->io_count; i++) {
      const struct ref_tensor *t = i < g->input_count ? g->inputs[i] : g->output;
      if (!bench_tensor_create(d, g, t, &r->io[i]))
         return false;
      if (i < g->input_count)
         memcpy(r->io[i].map, t->data, r->io[i].size);
      else
         memset(r->io[i].map, 0xcd, r->io[i].size);
   }
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = d->gd.queue_family};
   if (!bench_vk_ok(g, vkCreateCommandPool(dev, &cpci, NULL, &r->cmd_pool), "vkCreateCommandPool"))
      return false;
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = r->cmd_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 2};
   VkCommandBuffer cmds[2];
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if (!bench_vk_ok(g, vkAllocateCommandBuffers(dev, &cbai, cmds), "vkAllocateCommandBuffers") ||
       !bench_vk_ok(g, vkCreateFence(dev, &fci, NULL, &r->fence), "vkCreateFence"))
      return false;
   r->cmd = cmds[0];
   r->xfer = cmds[1];
   if (d->timestamp_bits) {
      VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                   .queryCount = 4};
      if (!bench_vk_ok(g, vkCreateQueryPool(dev, &qci, NULL, &r->queries), "vkCreateQueryPool"))
         return false;
   }
   struct bench_tensor *all[BENCH_MAX_IO];
   for (uint32_t i = 0; i < r->io_count; i++)
      all[i] = &r->io[i];
   return bench_tensors_transfer(d, g, all, r->io_count, true, r->xfer, r->fence);
}

static void
run_objects_destroy(struct bench_device *d, struct run_objects *r)
{
   VkDevice dev = d->gd.device;
   if (r->fence)
      vkDestroyFence(dev, r->fence, NULL);
   if (r->queries)
      vkDestroyQueryPool(dev, r->queries, NULL);
   if (r->cmd_pool)
      vkDestroyCommandPool(dev, r->cmd_pool, NULL);
   for (uint32_t i = 0; i < BENCH_MAX_IO; i++)
      bench_tensor_destroy(d, &r->io[i]);
   if (r->layout)
      vkDestroyPipelineLayout(dev, r->layout, NULL);
   if (r->set_layout)
      vkDestroyDescriptorSetLayout(dev, r->set_layout, NULL);
   if (r->module)
      vkDestroyShaderModule(dev, r->module, NULL);
}

/* Host writes -> the graph `batch` times (between timestamps 0 and 1, each dispatch after the
 * last one's writes) -> host reads, recorded once. */
static bool
record(struct bench_device *d, struct bench_graph *g, struct run_objects *r,
       const struct instance_objects *o, int batch)
{
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   if (!bench_vk_ok(g, vkBeginCommandBuffer(r->cmd, &bi), "vkBeginCommandBuffer"))
      return false;
   if (r->queries)
      vkCmdResetQueryPool(r->cmd, r->queries, 0, 2);
   bench_barrier(r->cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT,
                 VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM);
   vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, o->pipeline);
   vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, r->layout, 0, 1, &o->set,
                           0, NULL);
   if (r->queries)
      vkCmdWriteTimestamp2(r->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 0);
   for (int i = 0; i < batch; i++) {
      if (i > 0)
         bench_barrier(r->cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                       VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                       VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM);
      d->fn.CmdDispatchDataGraphARM(r->cmd, o->session, NULL);
   }
   if (r->queries)
      vkCmdWriteTimestamp2(r->cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 1);
   bench_barrier(r->cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                 VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM, VK_PIPELINE_STAGE_2_HOST_BIT,
                 VK_ACCESS_2_HOST_READ_BIT);
   return bench_vk_ok(g, vkEndCommandBuffer(r->cmd), "vkEndCommandBuffer");
}

/* One submission, waited on; its wall time in *ms, its timestamps' in *gpu_ms (-1: none). */
static bool
submit(struct bench_device *d, struct bench_graph *g, struct run_objects *r, double *ms,
       double *gpu_ms)
{
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = r->cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   double t0 = bench_now_ms();
   bool ok = bench_vk_ok(g, vkQueueSubmit2(d->gd.queue, 1, &si, r->fence), "vkQueueSubmit2") &&
             bench_vk_ok(g, vkWaitForFences(d->gd.device, 1, &r->fence, VK_TRUE, UINT64_MAX),
                         "vkWaitForFences");
   *ms = bench_now_ms() - t0;
   return ok && bench_vk_ok(g, vkResetFences(d->gd.device, 1, &r->fence), "vkResetFences") &&
          bench_timestamps_read(d, g, r->queries, 0, gpu_ms);
}

/* The output's bytes as the device left them, in g->output->data (first) or compared with it;
 * false when they differ. */
static bool
read_output(struct bench_device *d, struct bench_graph *g, struct run_objects *r, bool first)
{
   struct bench_tensor *out = run_output(r);
   if (!bench_tensors_transfer(d, g, &out, 1, false, r->xfer, r->fence))
      return false;
   if (first)
      memcpy(g->output->data, out->map, out->size);
   return first || memcmp(g->output->data, out->map, out->size) == 0;
}

struct options {
   int reps, warmup, creations;
   int warmup_ms; /* --warmup-ms: the least warm-up time */
   int rounds;    /* --rounds: main (and --variant) measured this many times, alternating */
   const char *variant; /* --variant NAME=VALUE */
   int batch; /* dispatches per submission (--batch); times are per dispatch */
   int64_t elements;
   bool meta;
   bool print_text; /* --print-text: the graphs' SPIR-V text, nothing run */
   bool suite;       /* --suite: only issue 14's suite */
   bool no_baseline; /* --no-baseline */
   bool no_check;    /* --no-check */
   bool pipeline_stats; /* --pipeline-stats: the kernels' compiler statistics logged (D59) */
   const char *json;
   const char *manifests;
   const char *torch;              /* --torch FILE: PyTorch's times */
   double peak[BENCH_PEAK_COUNT];  /* --peak-gflops TYPE=G; 0: the device table's */
   const char *graphs[2 * BENCH_GRAPH_COUNT];
   int graph_count;
};

/* Measures g on d into m (g->main, or g->base for the baseline variant: no copy baseline
 * then). */
static void
run_graph(struct bench_device *d, const struct options *opt, struct bench_graph *g,
          struct bench_measure *m)
{
   struct run_objects r;
   struct instance_objects o;
   memset(&r, 0, sizeof(r));
   memset(&o, 0, sizeof(o));
   bool ok = run_objects_create(d, g, &r);
   if (!ok && g->optional && m == &g->main) {
      /* e.g. bf16 tensors on a device without them */
      g->skipped = true;
      g->failed = false;
   }
   for (int i = 0; ok && i < opt->creations; i++) {
      if (!create_pipeline(d, g, &r, &o, m)) {
         /* An operator this build of the graph layer may not have: skipped, not failed. */
         g->skipped = i == 0 && g->optional;
         g->failed = !g->skipped;
         ok = false;
         break;
      }
      ok = set_up_session(d, g, &r, &o, m);
      if (ok && i + 1 < opt->creations)
         instance_destroy(d, &o);
   }
   ok = ok && record(d, g, &r, &o, opt->batch);
   double ms, gpu_ms;
   /* --warmup submissions, and more until --warmup-ms have passed: a GPU that idled (pipeline
    * creation, the previous graph's CPU reference) runs at a low clock until it has been busy
    * for a while (H200: the timed samples stepped from one flat level to one 3-5x faster after
    * 220-300 ms of work, e.g. resnet_fp32_b1 0.349 -> 0.083 ms; performance.md). */
   double warm_end = bench_now_ms() + opt->warmup_ms;
   for (int i = 0; ok && (i < opt->warmup || bench_now_ms() < warm_end); i++)
      ok = submit(d, g, &r, &ms, &gpu_ms);
   ok = ok && read_output(d, g, &r, true);
   for (int i = 0; ok && i < opt->reps; i++) {
      ok = submit(d, g, &r, &ms, &gpu_ms);
      bench_samples_add(&m->dispatch, ms / opt->batch);
      if (gpu_ms >= 0)
         bench_samples_add(&m->dispatch_gpu, gpu_ms / opt->batch);
   }
   if (ok && !read_output(d, g, &r, false)) {
      bench_graph_fail(g, "the output of the timed dispatches differs from the warm-up's");
      ok = false;
   }
   /* The check after the timing, so that the CPU reference does not idle the GPU before it. */
   if (ok && opt->no_check) {
      snprintf(g->check_text, sizeof(g->check_text), "NOT CHECKED (--no-check)");
   } else if (ok) {
      g->checked = bench_graph_check(g);
      if (!g->checked)
         bench_graph_fail(g, "wrong output: %s", g->check_text);
      ok = g->checked;
   }
   /* The copy baseline right after the graph, with the graph's tensors still allocated. */
   if (ok && g->bytes > 0 && m == &g->main)
      ok = bench_copy_baseline(d, g, opt->warmup, opt->reps, opt->batch, r.xfer, r.fence,
                               r.queries);
   if (!ok && !g->skipped)
      bench_graph_fail(g, "failed"); /* keeps the first, more precise message */
   instance_destroy(d, &o);
   run_objects_destroy(d, &r);
}

/* --variant's table: each graph's main and variant times, measured alternately. */
static void
print_variant_table(const struct options *o, const struct bench_graph *graphs, int count)
{
   if (!o->variant)
      return;
   printf("\nvariant %s against the default (%d round(s), alternating; ms: medians over all "
          "rounds' samples)\n%-24s %10s %10s %9s\n",
          o->variant, o->rounds, "graph", "main ms", "variant ms", "var/main");
   for (int i = 0; i < count; i++) {
      const struct bench_graph *g = &graphs[i];
      if (g->failed || g->skipped)
         continue;
      if (!g->variant_ran) {
         printf("%-24s %10.3f %10s %9s  %s\n", g->name, measure_ms(&g->main), "-", "-",
                g->variant_note);
         continue;
      }
      double m = measure_ms(&g->main), v = measure_ms(&g->variant);
      printf("%-24s %10.3f %10.3f %8.2fx%s\n", g->name, m, v, m > 0 ? v / m : 0.0,
             strcmp(g->main.kernels, g->variant.kernels) ? "" : "  (same kernels)");
   }
}

/* ---- main ----------------------------------------------------------------------------------- */

static const char usage_head[] =
    "usage: bench_graph [options]\n"
    "  --reps N         timed dispatches per graph (default 7), after\n"
    "  --warmup N       untimed dispatches (default 1; their output is checked, after the\n"
    "                   timed ones, which must give the same bits)\n"
    "  --warmup-ms MS   more untimed dispatches until MS milliseconds have passed (default\n"
    "                   1000: a GPU raises its clocks after a few hundred ms of work)\n"
    "  --creations N    pipeline creations and session set-ups per graph (default 10)\n"
    "  --variant NAME=VALUE  measure each graph again with that environment variable set on\n"
    "                   the same device (one the graph layer reads at pipeline creation, e.g.\n"
    "                   VMEL_GRAPH_SPLIT_K=1), checked like the main run, and report both\n"
    "  --rounds N       measure main (and the variant) N times, alternating, each from\n"
    "                   pipeline creation; times are over all rounds' samples (default 1):\n"
    "                   a GPU's clock level that changes between rounds affects both\n"
    "  --batch N        dispatches (and baseline copies) per submission, each after the last\n"
    "                   one's writes; times are per dispatch (default 1; a GPU keeps its clocks\n"
    "                   up over a batch)\n"
    "  --graph NAME     one of the graphs below (repeatable; default all)\n"
    "  --suite          issue 14's suite only (the graphs marked *)\n"
    "  --no-baseline    do not measure the suite against VMEL_GRAPH_KERNELS=reference\n"
    "  --no-check       time the outputs without checking them: only for kernels built to\n"
    "                   leave a stage out, whose time difference places the time inside a\n"
    "                   kernel (docs/performance.md); every result is marked unchecked\n"
    "  --peak-gflops T=G  the device's peak for type T (fp32, fp16, bf16, int8) in GFLOP/s\n"
    "                   (GOP/s for int8), for the suite's % of peak (repeatable; default:\n"
    "                   the table of published peaks for the device's name, docs/benchmarks.md)\n"
    "  --torch FILE     PyTorch's times for the suite (bench/graph_suite_torch.py --out FILE):\n"
    "                   adds each graph's throughput as a share of PyTorch's\n"
    "  --elements N     elements of the elementwise graphs, a multiple of 64; K and M suffixes\n"
    "                   (default 64M, for a GPU; 4M suits lavapipe on 2 cores)\n"
    "  --manifests DIR  layer manifests (default: $VK_LAYER_PATH, else the build tree's)\n"
    "  --meta           enable VK_LAYER_ML_Emulation instead of the graph and tensor layers\n"
    "  --json FILE      write the results as JSON\n"
    "  --print-text     print the graphs' SPIR-V text (vmel-as syntax) and run nothing\n"
    "  --pipeline-stats the graph layer logs each kernel pipeline's statistics from the driver\n"
    "                   (registers, shared/local memory, spills, instructions: what it lists)\n"
    "                   on stderr, \"pipeline statistics: kernel ...\" lines; sets\n"
    "                   VMEL_GRAPH_PIPELINE_STATS=1 and VMEL_GRAPH_SEVERITY=info (D59)\n"
    "graphs (* issue 14's suite, measured against the baseline variant too):\n";

/* The usage: options, then every graph by name. */
static void
usage(FILE *f)
{
   fputs(usage_head, f);
   for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++)
      fprintf(f, "  %s%s\n", bench_graph_defs[k].name, k >= BENCH_SUITE_FIRST ? " *" : "");
}

static const char *const peak_names[BENCH_PEAK_COUNT] = {"", "fp32", "fp16", "bf16", "int8"};

/* Published peaks (GFLOP/s, GOP/s for int8), dense (without 2:4 sparsity), of the devices the
 * project measures on; matched as a substring of the device's name, first match wins. Sources in
 * docs/benchmarks.md: NVIDIA's H200 datasheet gives the tensor-core figures with sparsity, halved
 * here; fp32 is the non-tensor (FMA) rate, the one fp32 with TF32 off can use. */
static const struct {
   const char *name;
   double peak[BENCH_PEAK_COUNT];
   const char *source;
} device_peaks[] = {
    {"H200 NVL",
     {0, 60000, 835500, 835500, 1670500},
     "NVIDIA H200 NVL datasheet (FP32 60 TF; FP16/BF16 1671, INT8 3341 with sparsity, halved)"},
    {"H200",
     {0, 66900, 989400, 989400, 1978900},
     "NVIDIA H200 SXM datasheet (FP32 67 TF; FP16/BF16 1979, INT8 3958 with sparsity, halved)"},
};

/* The peak for graphs of type t on d: --peak-gflops, else the table; 0 if unknown. */
static double
device_peak(const struct options *o, const struct bench_device *d, enum bench_peak_type t,
            const char **source)
{
   *source = "--peak-gflops";
   if (o->peak[t] > 0)
      return o->peak[t];
   for (size_t i = 0; i < sizeof(device_peaks) / sizeof(device_peaks[0]); i++)
      if (strstr(d->name, device_peaks[i].name)) {
         *source = device_peaks[i].source;
         return device_peaks[i].peak[t];
      }
   *source = "unknown (--peak-gflops)";
   return 0;
}

/* "T=G" of --peak-gflops. */
static int
parse_peak(const char *s, double *peak)
{
   const char *eq = strchr(s, '=');
   if (!eq)
      return 0;
   for (int t = 1; t < BENCH_PEAK_COUNT; t++) {
      if (strlen(peak_names[t]) == (size_t)(eq - s) && !strncmp(s, peak_names[t], (size_t)(eq - s))) {
         char *end;
         double v = strtod(eq + 1, &end);
         if (eq[1] == 0 || *end || !(v > 0))
            return 0;
         peak[t] = v;
         return 1;
      }
   }
   return 0;
}

static int
parse_count(const char *s, int lo, int *out)
{
   char *end;
   long v = strtol(s, &end, 10);
   if (*s == 0 || *end != 0 || v < lo || v > BENCH_MAX_SAMPLES)
      return 0;
   *out = (int)v;
   return 1;
}

/* A positive multiple of 64, with an optional K (2^10) or M (2^20) suffix. */
static int
parse_elements(const char *s, int64_t *out)
{
   char *end;
   long long v = strtoll(s, &end, 10);
   int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : 0;
   if (shift)
      end++;
   if (*s == 0 || *end != 0 || v <= 0 || v > (INT64_C(1) << 40) >> shift)
      return 0;
   v <<= shift;
   if (v % 64)
      return 0;
   *out = v;
   return 1;
}

/* 0 on success, else the exit status. */
static int
parse_args(int argc, char **argv, struct options *o)
{
   *o = (struct options){
       .reps = 7,
       .warmup = 1,
       .warmup_ms = 1000,
       .rounds = 1,
       .creations = 10,
       .batch = 1,
       .elements = BENCH_DEFAULT_ELEMENTS};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
         usage(stdout);
         return -1;
      }
      if (!strcmp(a, "--meta")) {
         o->meta = true;
         continue;
      }
      if (!strcmp(a, "--print-text")) {
         o->print_text = true;
         continue;
      }
      if (!strcmp(a, "--suite")) {
         o->suite = true;
         continue;
      }
      if (!strcmp(a, "--no-check")) {
         o->no_check = true;
         continue;
      }
      if (!strcmp(a, "--no-baseline")) {
         o->no_baseline = true;
         continue;
      }
      if (!strcmp(a, "--pipeline-stats")) {
         o->pipeline_stats = true;
         continue;
      }
      if (!v) {
         fprintf(stderr, "bench_graph: %s needs a value\n", a);
         usage(stderr);
         return 2;
      }
      i++;
      if ((!strcmp(a, "--reps") && parse_count(v, 1, &o->reps)) ||
          (!strcmp(a, "--batch") && parse_count(v, 1, &o->batch)) ||
          (!strcmp(a, "--warmup") && parse_count(v, 1, &o->warmup)) ||
          (!strcmp(a, "--warmup-ms") && parse_count(v, 0, &o->warmup_ms)) ||
          (!strcmp(a, "--rounds") && parse_count(v, 1, &o->rounds)) ||
          (!strcmp(a, "--creations") && parse_count(v, 1, &o->creations)) ||
          (!strcmp(a, "--elements") && parse_elements(v, &o->elements)) ||
          (!strcmp(a, "--peak-gflops") && parse_peak(v, o->peak)))
         continue;
      if (!strcmp(a, "--torch")) {
         o->torch = v;
         continue;
      }
      if (!strcmp(a, "--json")) {
         o->json = v;
      } else if (!strcmp(a, "--variant")) {
         const char *eq = strchr(v, '=');
         if (!eq || eq == v || (size_t)(eq - v) >= 64 || strlen(eq + 1) >= 192) {
            fprintf(stderr, "bench_graph: --variant wants NAME=VALUE, not '%s'\n", v);
            return 2;
         }
         o->variant = v;
      } else if (!strcmp(a, "--manifests")) {
         o->manifests = v;
      } else if (!strcmp(a, "--graph")) {
         bool known = false;
         for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++)
            known |= !strcmp(v, bench_graph_defs[k].name);
         if (!known || o->graph_count == 2 * BENCH_GRAPH_COUNT) {
            fprintf(stderr, "bench_graph: unknown graph '%s'\n", v);
            usage(stderr);
            return 2;
         }
         o->graphs[o->graph_count++] = v;
      } else {
         fprintf(stderr, "bench_graph: bad option %s %s\n", a, v);
         usage(stderr);
         return 2;
      }
   }
   return 0;
}

static bool
selected(const struct options *o, size_t k)
{
   const char *name = bench_graph_defs[k].name;
   if (o->suite && k < BENCH_SUITE_FIRST)
      return false;
   if (!o->graph_count)
      return true;
   for (int i = 0; i < o->graph_count; i++)
      if (!strcmp(o->graphs[i], name))
         return true;
   return false;
}

/* The library_path of <first VK_LAYER_PATH entry>/VkLayer_Graph.json, for the record. */
static void
graph_layer_path(const char *layer_path, char *out, size_t len)
{
   char path[4096];
   size_t n = strcspn(layer_path, ":");
   snprintf(out, len, "?");
   if (n >= sizeof(path) - 32)
      return;
   snprintf(path, sizeof(path), "%.*s/VkLayer_Graph.json", (int)n, layer_path);
   FILE *f = fopen(path, "rb");
   if (!f)
      return;
   char text[8192];
   size_t got = fread(text, 1, sizeof(text) - 1, f);
   fclose(f);
   text[got] = 0;
   const char *key = strstr(text, "\"library_path\"");
   const char *q = key ? strchr(key + 14, '"') : NULL;
   const char *e = q ? strchr(q + 1, '"') : NULL;
   if (e)
      snprintf(out, len, "%.*s", (int)(e - q - 1), q + 1);
}

/* JSON strings here are paths and device names: escape quotes and backslashes. */
static void
json_string(FILE *f, const char *s)
{
   fputc('"', f);
   for (; *s; s++) {
      if (*s == '"' || *s == '\\')
         fputc('\\', f);
      if ((unsigned char)*s >= 0x20)
         fputc(*s, f);
   }
   fputc('"', f);
}

/* One results line (none for no samples); *first: no comma before it. */
static void
json_metric(FILE *f, const struct bench_graph *g, const char *metric, const struct bench_samples *s,
            bool *first)
{
   if (!s->n)
      return;
   fprintf(f,
           "%s    {\"graph\": \"%s\", \"metric\": \"%s\", \"median\": %.4f, \"min\": %.4f, "
           "\"samples\": [",
           *first ? "" : ",\n", g->name, metric, samples_median(s), samples_min(s));
   for (int i = 0; i < s->n; i++)
      fprintf(f, "%s%.4f", i ? ", " : "", s->v[i]);
   fprintf(f, "]}");
   *first = false;
}

/* The time a bandwidth is computed from: the timestamps' median where the queue has them, else
 * the wall time's. */
static double
bandwidth_ms(const struct bench_samples *gpu, const struct bench_samples *wall)
{
   return gpu->n ? samples_median(gpu) : samples_median(wall);
}

static double
gb_per_s(double bytes, double ms)
{
   return ms > 0 ? bytes / ms * 1e-6 : 0.0;
}

static bool
write_json(const char *path, const struct options *o, const struct bench_device *d,
           const char *layer_path, const char *graph_lib, struct bench_graph *graphs, int count)
{
   FILE *f = fopen(path, "w");
   if (!f) {
      fprintf(stderr, "bench_graph: cannot write %s\n", path);
      return false;
   }
   const char *threads = getenv("LP_NUM_THREADS");
   fprintf(f, "{\n  \"benchmark\": \"bench_graph\",\n  \"device\": ");
   json_string(f, d->name);
   fprintf(f, ",\n  \"layer_path\": ");
   json_string(f, layer_path);
   fprintf(f, ",\n  \"graph_layer\": ");
   json_string(f, graph_lib);
   fprintf(f, ",\n  \"driver\": ");
   json_string(f, d->driver);
   fprintf(f, ",\n  \"lp_num_threads\": ");
   json_string(f, threads ? threads : "");
   fprintf(f,
           ",\n  \"reps\": %d,\n  \"batch\": %d,\n  \"warmup\": %d,\n  \"warmup_ms\": %d,\n"
           "  \"creations\": %d,\n  \"rounds\": %d,\n  \"elements\": %" PRId64 ",\n",
           o->reps, o->batch, o->warmup, o->warmup_ms, o->creations, o->rounds, o->elements);
   fprintf(f, "  \"variant\": ");
   json_string(f, o->variant ? o->variant : "");
   fprintf(f, ",\n");
   fprintf(f, "  \"graphs\": [\n");
   for (int i = 0; i < count; i++) {
      const struct bench_graph *g = &graphs[i];
      fprintf(f, "    {\"graph\": \"%s\", \"pass\": %s, \"skipped\": %s, \"macs\": %.0f", g->name,
              !g->failed && !g->skipped ? "true" : "false", g->skipped ? "true" : "false", g->macs);
      if (g->bytes > 0 && !g->failed && !g->skipped)
         fprintf(f, ", \"bytes\": %.0f, \"gbps\": %.2f, \"copy_bytes\": %.0f, \"copy_gbps\": %.2f",
                 g->bytes, gb_per_s(g->bytes, bandwidth_ms(&g->main.dispatch_gpu, &g->main.dispatch)),
                 g->copy_bytes, gb_per_s(g->copy_bytes, bandwidth_ms(&g->copy_gpu, &g->copy)));
      if (g->suite && !g->failed && !g->skipped) {
         double ms = measure_ms(&g->main);
         fprintf(f,
                 ", \"ms\": %.4f, \"gflops\": %.2f, \"peak_type\": %d, \"session_bytes\": %.0f, "
                 "\"lower_bound_bytes\": %.0f",
                 ms, ms > 0 ? 2.0 * g->macs / ms * 1e-6 : 0.0, (int)g->peak_type,
                 g->main.session_bytes, memory_lower_bound(g));
         if (g->base_ran)
            fprintf(f, ", \"baseline_ms\": %.4f, \"baseline_create_ms\": %.4f",
                    measure_ms(&g->base), samples_median(&g->base.create));
         if (g->plan_order_ran)
            fprintf(f, ", \"plan_order_ms\": %.4f", measure_ms(&g->plan_order));
         fprintf(f, ", \"kernels\": ");
         json_string(f, g->main.kernels);
         fprintf(f, ", \"baseline_kernels\": ");
         json_string(f, g->base.kernels);
         fprintf(f, ", \"baseline\": ");
         json_string(f, g->base_note);
      }
      if (g->variant_ran) {
         fprintf(f, ", \"variant_ms\": %.4f, \"variant_kernels\": ", measure_ms(&g->variant));
         json_string(f, g->variant.kernels);
      }
      fprintf(f, ", \"check\": ");
      json_string(f, g->failed || g->skipped ? g->why : g->check_text);
      fprintf(f, "}%s\n", i + 1 < count ? "," : "");
   }
   fprintf(f, "  ],\n  \"results\": [\n");
   bool first = true;
   for (int i = 0; i < count; i++) {
      const struct bench_graph *g = &graphs[i];
      if (g->failed || g->skipped)
         continue;
      json_metric(f, g, "create_ms", &g->main.create, &first);
      json_metric(f, g, "session_ms", &g->main.session, &first);
      json_metric(f, g, "dispatch_ms", &g->main.dispatch, &first);
      json_metric(f, g, "dispatch_gpu_ms", &g->main.dispatch_gpu, &first);
      json_metric(f, g, "copy_ms", &g->copy, &first);
      json_metric(f, g, "copy_gpu_ms", &g->copy_gpu, &first);
      json_metric(f, g, "variant_dispatch_gpu_ms", &g->variant.dispatch_gpu, &first);
   }
   fprintf(f, "\n  ]\n}\n");
   return fclose(f) == 0;
}

static void
set_up_environment(const struct options *o, const char **layer_path)
{
   /* The loader wants an absolute path. */
   static char manifests[4096];
   if (o->manifests && realpath(o->manifests, manifests))
      setenv("VK_LAYER_PATH", manifests, 1);
   else if (o->manifests)
      setenv("VK_LAYER_PATH", o->manifests, 1);
   else
      setenv("VK_LAYER_PATH", VMEL_BUILD_MANIFESTS, 0);
   *layer_path = getenv("VK_LAYER_PATH");
   /* lavapipe, as tools/run-lvp.sh selects it, unless the caller chose a driver. */
   if (!getenv("VK_DRIVER_FILES") && !getenv("VK_ICD_FILENAMES")) {
      static const char *const icds[] = {"/usr/share/vulkan/icd.d/lvp_icd.x86_64.json",
                                         "/usr/share/vulkan/icd.d/lvp_icd.json"};
      for (size_t i = 0; i < 2; i++) {
         FILE *f = fopen(icds[i], "rb");
         if (f) {
            fclose(f);
            setenv("VK_DRIVER_FILES", icds[i], 1);
            setenv("VK_ICD_FILENAMES", icds[i], 1);
            break;
         }
      }
   }
   setenv("NODEVICE_SELECT", "1", 0);
   setenv("MESA_VK_IGNORE_CONFORMANCE_WARNING", "1", 0);
   /* Every pipeline creation compiles: no driver disk caches (Mesa, NVIDIA). */
   setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
   setenv("__GL_SHADER_DISK_CACHE", "0", 0);
   /* The layers' profiling would add timestamps to every dispatch. */
   unsetenv("VMEL_GRAPH_PROFILING");
   /* The stage order the layer chooses (branch4_fp32 sets plan order for its comparison). */
   unsetenv("VMEL_GRAPH_STAGE_ORDER");
   /* --pipeline-stats: read by the layers when they load (vkCreateInstance), after this. */
   if (o->pipeline_stats) {
      setenv("VMEL_GRAPH_PIPELINE_STATS", "1", 1);
      setenv("VMEL_GRAPH_SEVERITY", "info", 1);
   }
}

static void
print_graph(const struct bench_graph *g, const char *variant)
{
   double dispatch = samples_median(&g->main.dispatch);
   printf("%-12s %s\n", g->name, g->what);
   printf("  check      %s (reference %.0f ms)\n", g->check_text, g->reference_ms);
   printf("  create     median %9.3f  min %9.3f\n", samples_median(&g->main.create),
          samples_min(&g->main.create));
   printf("  session    median %9.3f  min %9.3f\n", samples_median(&g->main.session),
          samples_min(&g->main.session));
   printf("  dispatch   median %9.3f  min %9.3f  (submit to fence)", dispatch,
          samples_min(&g->main.dispatch));
   if (g->macs > 0)
      printf("  %.2f GMAC/s", dispatch > 0 ? g->macs / dispatch * 1e-6 : 0.0);
   printf("\n");
   if (g->main.dispatch_gpu.n)
      printf("  gpu        median %9.3f  min %9.3f  (timestamps around the dispatch)\n",
             samples_median(&g->main.dispatch_gpu), samples_min(&g->main.dispatch_gpu));
   print_spread(g->main.dispatch_gpu.n ? "gpu" : "dispatch",
                g->main.dispatch_gpu.n ? &g->main.dispatch_gpu : &g->main.dispatch);
   if (g->suite) {
      printf("  kernels    %s\n", g->main.kernels[0] ? g->main.kernels : "(no creation log)");
      if (g->base_ran)
         printf("  baseline   create %9.3f  dispatch %9.3f%s  kernels %s\n",
                samples_median(&g->base.create), measure_ms(&g->base),
                g->base.dispatch_gpu.n ? " (timestamps)" : "", g->base.kernels);
      printf("  %s\n", g->base_note);
   }
   if (g->variant_ran && !g->suite)
      printf("  kernels    %s\n", g->main.kernels[0] ? g->main.kernels : "(no creation log)");
   if (g->variant_ran) {
      const struct bench_measure *v = &g->variant;
      const struct bench_samples *s = v->dispatch_gpu.n ? &v->dispatch_gpu : &v->dispatch;
      double main_ms = measure_ms(&g->main), ms = measure_ms(v);
      printf("  variant    %s: %s median %9.3f  min %9.3f  (variant / main %.2fx), checked\n",
             variant, v->dispatch_gpu.n ? "gpu" : "dispatch", ms, samples_min(s),
             main_ms > 0 ? ms / main_ms : 0.0);
      print_spread("variant", s);
      printf("  kernels    (variant) %s\n", v->kernels[0] ? v->kernels : "(no creation log)");
   } else if (g->variant_note[0]) {
      printf("  %s\n", g->variant_note);
   }
   if (g->plan_order_ran)
      printf("  barriers   level order (D46) %9.3f ms, plan order (VMEL_GRAPH_STAGE_ORDER=plan) "
             "%9.3f ms: %.2fx\n",
             measure_ms(&g->main), measure_ms(&g->plan_order),
             measure_ms(&g->main) > 0 ? measure_ms(&g->plan_order) / measure_ms(&g->main) : 0.0);
   if (g->bytes <= 0)
      return;
   const char *clock = g->main.dispatch_gpu.n ? "timestamps" : "submit to fence";
   double ms = bandwidth_ms(&g->main.dispatch_gpu, &g->main.dispatch);
   double copy_ms = bandwidth_ms(&g->copy_gpu, &g->copy);
   double gbps = gb_per_s(g->bytes, ms), copy_gbps = gb_per_s(g->copy_bytes, copy_ms);
   printf("  copy       median %9.3f  min %9.3f  (vkCmdCopyBuffer, %s)\n", copy_ms,
          samples_min(g->copy_gpu.n ? &g->copy_gpu : &g->copy), clock);
   printf("  bandwidth  %.2f GB/s (%.1f MB read + written); copy %.2f GB/s (%.1f MB); "
          "ratio %.3f\n",
          gbps, g->bytes * 1e-6, copy_gbps, g->copy_bytes * 1e-6,
          copy_gbps > 0 ? gbps / copy_gbps : 0.0);
}

/* ---- issue 14's suite: baseline, peaks, memory, PyTorch ------------------------------------- */

#define BASELINE_ENV "VMEL_GRAPH_KERNELS"

/* The interval planner's lower bound: the largest sum, over the operators, of the bytes of the
 * intermediates live at one (written at or before it, read at or after it); the graph's output
 * (the last node) is the application's tensor. */
static double
memory_lower_bound(const struct bench_graph *g)
{
   double best = 0;
   for (uint32_t i = 0; i < g->node_count; i++) {
      double live = 0;
      for (uint32_t j = 0; j + 1 < g->node_count && j <= i; j++)
         if (g->node_last_use[j] >= (int)i)
            live += g->node_bytes[j];
      best = live > best ? live : best;
   }
   return best;
}

/* The time a throughput is computed from: timestamps where there are some, else wall. */
static double
measure_ms(const struct bench_measure *m)
{
   return m->dispatch_gpu.n ? samples_median(&m->dispatch_gpu) : samples_median(&m->dispatch);
}

/* PyTorch's times: "graph ms" lines (graph_suite_torch.py --out); 0 where a graph has none. */
static double
torch_ms(const char *path, const char *graph)
{
   FILE *f = path ? fopen(path, "r") : NULL;
   if (!f)
      return 0;
   char line[256], name[128];
   double ms, found = 0;
   while (fgets(line, sizeof(line), f))
      if (line[0] != '#' && sscanf(line, "%127s %lf", name, &ms) == 2 && !strcmp(name, graph))
         found = ms;
   fclose(f);
   return found;
}

/* An environment variable set for one run, the caller's value restored after. */
struct env_override {
   char name[64];
   char saved[256];
   bool had;
};

static void
env_override_set(struct env_override *e, const char *name, const char *value)
{
   snprintf(e->name, sizeof(e->name), "%s", name);
   const char *v = getenv(name);
   e->had = v != NULL;
   snprintf(e->saved, sizeof(e->saved), "%s", v ? v : "");
   setenv(name, value, 1);
}

static void
env_override_restore(const struct env_override *e)
{
   if (e->had)
      setenv(e->name, e->saved, 1);
   else
      unsetenv(e->name);
}

/* Measures g again into m on d with NAME=VALUE set while it runs (checked like the main run);
 * false when it failed, with "<what> FAILED: <why>" in note. The main result stands either
 * way: g's failure state is the caller's again after. */
static bool
run_aside(struct bench_device *d, const struct options *opt, struct bench_graph *g,
          struct bench_measure *m, const char *name, const char *value, const char *what,
          char *note, size_t note_size)
{
   struct env_override e;
   env_override_set(&e, name, value);
   char why[sizeof(g->why)];
   snprintf(why, sizeof(why), "%s", g->why);
   bool failed = g->failed;
   g->failed = false;
   g->why[0] = 0;
   run_graph(d, opt, g, m);
   env_override_restore(&e);
   bool ran = !g->failed;
   if (!ran) {
      char failure[sizeof(g->why)]; /* note lies in g: no overlapping source */
      snprintf(failure, sizeof(failure), "%s", g->why);
      snprintf(note, note_size, "%s FAILED: %.140s", what, failure);
   }
   g->failed = failed;
   snprintf(g->why, sizeof(g->why), "%s", why);
   return ran;
}

/* Measures g again into g->variant on d with --variant's NAME=VALUE set; a failure is noted in
 * g->variant_note (no later round runs it) and leaves the main result standing. */
static void
run_variant(struct bench_device *d, const struct options *opt, struct bench_graph *g)
{
   const char *eq = strchr(opt->variant, '=');
   char name[64];
   snprintf(name, sizeof(name), "%.*s", (int)(eq - opt->variant), opt->variant);
   g->variant_ran = run_aside(d, opt, g, &g->variant, name, eq + 1, "variant", g->variant_note,
                              sizeof(g->variant_note));
}

/* Runs g's baseline variant into g->base (checked like the main one) on a device of its own,
 * created with VMEL_GRAPH_KERNELS=reference set (the layer may read it at device or at
 * pipeline creation: it stays set while the baseline runs) and destroyed after it, so that no
 * main measurement runs while a second device exists: on the H200 the suite's graphs measured
 * after the first (whose baseline created the device) read 2-5x slower than the same kernels
 * without --no-baseline (docs/performance.md, 2026-12-03). g->base_note says how it went. */
static void
run_baseline(const struct options *opt, struct bench_graph *g)
{
   struct bench_device bd;
   memset(&bd, 0, sizeof(bd));
   struct env_override e;
   env_override_set(&e, BASELINE_ENV, "reference");
   bool ready = bench_device_init(&bd, opt->meta);
   env_override_restore(&e);
   if (!ready) {
      snprintf(g->base_note, sizeof(g->base_note), "no baseline device");
      return;
   }
   /* a wrong or failing baseline is reported; the main result stands */
   g->base_ran = run_aside(&bd, opt, g, &g->base, BASELINE_ENV, "reference", "baseline",
                           g->base_note, sizeof(g->base_note));
   if (g->base_ran)
      snprintf(g->base_note, sizeof(g->base_note), "%s",
               !strcmp(g->base.kernels, g->main.kernels)
                   ? "baseline: same kernels (" BASELINE_ENV "=reference selects nothing here)"
                   : "baseline: " BASELINE_ENV "=reference, checked");
   bench_device_finish(&bd);
}

/* The suite's table: one row per suite graph that ran. */
static void
print_suite_table(const struct options *o, const struct bench_device *d,
                  const struct bench_graph *graphs, int count)
{
   bool any = false;
   for (int i = 0; i < count; i++)
      any |= graphs[i].suite && !graphs[i].failed && !graphs[i].skipped;
   if (!any)
      return;
   printf("\nsuite on %s (ms: %s median per dispatch; GFLOP/s = 2 x MACs / ms; vs base: the\n"
          "baseline variant's ms / ours; vs torch: PyTorch's ms / ours; mem: session memory and\n"
          "the interval planner's lower bound, MB)\n",
          d->name, d->timestamp_bits ? "timestamps" : "submit-to-fence");
   for (int t = 1; t < BENCH_PEAK_COUNT; t++) {
      const char *source;
      double peak = device_peak(o, d, (enum bench_peak_type)t, &source);
      if (peak > 0)
         printf("peak %s: %.0f GFLOP/s (%s)\n", peak_names[t], peak, source);
   }
   printf("%-18s %10s %10s %7s %9s %9s %10s %9s %9s %6s\n", "graph", "ms", "GFLOP/s", "%peak",
          "vs base", "vs torch", "create ms", "mem MB", "bound MB", "ratio");
   for (int i = 0; i < count; i++) {
      const struct bench_graph *g = &graphs[i];
      if (!g->suite || g->failed || g->skipped)
         continue;
      const char *source;
      double ms = measure_ms(&g->main);
      double gflops = ms > 0 ? 2.0 * g->macs / ms * 1e-6 : 0;
      double peak = device_peak(o, d, g->peak_type, &source);
      double lb = memory_lower_bound(g);
      double tms = torch_ms(o->torch, g->name);
      char pct[16] = "-", base[16] = "-", torch[16] = "-", ratio[16] = "-";
      if (peak > 0)
         snprintf(pct, sizeof(pct), "%.2f", 100.0 * gflops / peak);
      if (g->base_ran && ms > 0)
         snprintf(base, sizeof(base), "%.2fx", measure_ms(&g->base) / ms);
      if (tms > 0 && ms > 0)
         snprintf(torch, sizeof(torch), "%.4fx", tms / ms);
      if (lb > 0)
         snprintf(ratio, sizeof(ratio), "%.2f", g->main.session_bytes / lb);
      printf("%-18s %10.3f %10.1f %7s %9s %9s %10.2f %9.2f %9.2f %6s\n", g->name, ms, gflops, pct,
             base, torch, samples_median(&g->main.create), g->main.session_bytes * 1e-6,
             lb * 1e-6, ratio);
   }
   for (int i = 0; i < count; i++)
      if (graphs[i].suite && !graphs[i].failed && !graphs[i].skipped && graphs[i].base_note[0])
         printf("  %s: %s\n", graphs[i].name, graphs[i].base_note);
}

int
main(int argc, char **argv)
{
   struct options opt;
   int status = parse_args(argc, argv, &opt);
   if (status)
      return status < 0 ? 0 : status;
   const struct bench_params params = {.elements = opt.elements};
   if (opt.print_text) {
      for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++) {
         struct bench_graph g;
         memset(&g, 0, sizeof(g));
         if (selected(&opt, k)) {
            bench_graph_defs[k].setup(&g, &params);
            printf("; %s\n%.*s", bench_graph_defs[k].name, (int)g.text.len,
                   g.text.s ? g.text.s : "");
            status |= g.failed || g.text.failed;
         }
         bench_graph_finish(&g);
      }
      return status;
   }
   const char *layer_path = NULL;
   set_up_environment(&opt, &layer_path);
   char graph_lib[4096];
   graph_layer_path(layer_path, graph_lib, sizeof(graph_lib));

   struct bench_device d;
   memset(&d, 0, sizeof(d));
   if (!bench_device_init(&d, opt.meta)) {
      bench_device_finish(&d);
      return 1;
   }
   const char *threads = getenv("LP_NUM_THREADS");
   printf("device: %s (LP_NUM_THREADS=%s), layers: %s\n", d.name, threads ? threads : "unset",
          opt.meta ? "VK_LAYER_ML_Emulation" : "graph, tensor");
   printf("driver: %s; timestamps: %s\n", d.driver, d.timestamp_bits ? "yes" : "no");
   printf("VK_LAYER_PATH=%s\ngraph layer: %s\n", layer_path, graph_lib);
   printf("%d pipeline creation(s) and session set-up(s), %d warm-up submission(s) (at least %d "
          "ms) and %d timed submission(s) of %d dispatch(es) per graph; ms per dispatch; "
          "elementwise graphs of %" PRId64 " elements\n\n",
          opt.creations, opt.warmup, opt.warmup_ms, opt.reps, opt.batch, opt.elements);

   static struct bench_graph graphs[BENCH_GRAPH_COUNT];
   memset(graphs, 0, sizeof(graphs));
   int count = 0;
   for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++) {
      if (!selected(&opt, k))
         continue;
      struct bench_graph *g = &graphs[count++];
      double t0 = bench_now_ms();
      bench_graph_defs[k].setup(g, &params);
      g->reference_ms = bench_now_ms() - t0;
      if (g->failed || g->text.failed) {
         bench_graph_fail(g, "set-up failed");
         printf("%-12s FAIL: %s\n", g->name, g->why);
         status = 1;
         continue;
      }
      run_graph(&d, &opt, g, &g->main);
      for (int r = 0; r < opt.rounds && !g->failed && !g->skipped; r++) {
         if (r > 0)
            run_graph(&d, &opt, g, &g->main);
         if (opt.variant && !g->failed && !g->skipped && !g->variant_note[0])
            run_variant(&d, &opt, g);
      }
      if (g->compare_order && !g->failed && !g->skipped) {
         /* the same device; sessions read the variable when they are created */
         setenv("VMEL_GRAPH_STAGE_ORDER", "plan", 1);
         run_graph(&d, &opt, g, &g->plan_order);
         unsetenv("VMEL_GRAPH_STAGE_ORDER");
         g->plan_order_ran = !g->failed;
      }
      if (g->suite && !g->failed && !g->skipped) {
         if (opt.no_baseline)
            snprintf(g->base_note, sizeof(g->base_note), "baseline not measured (--no-baseline)");
         else
            run_baseline(&opt, g);
      }
      bench_graph_finish(g); /* the data: only the results are kept */
      if (g->skipped) {
         printf("%-12s SKIPPED, not failed: %s; an operator this graph layer does not implement "
                "yet? (its log above says)\n",
                g->name, g->why);
         continue;
      }
      if (g->failed) {
         printf("%-12s FAIL: %s\n", g->name, g->why);
         status = 1;
         continue;
      }
      print_graph(g, opt.variant);
   }
   print_suite_table(&opt, &d, graphs, count);
   print_variant_table(&opt, graphs, count);
   if (opt.json && !write_json(opt.json, &opt, &d, layer_path, graph_lib, graphs, count))
      status = 1;
   for (int i = 0; i < count; i++)
      bench_graph_finish(&graphs[i]);
   bench_device_finish(&d);
   return status;
}
