/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Concurrency (issue 15, docs/decisions.md D42): Vulkan lets applications
 * create and destroy objects on several threads at once and record different
 * command buffers concurrently; the layers must too. Four scenarios, each
 * with THREADS threads on one device (both layers, validation below, whose
 * thread-safety checks report a thread that breaks external synchronisation),
 * each a loop of ITERATIONS (4 x ITERATIONS for scenarios 2 and 3):
 *  1. graph pipelines and sessions: layouts, module, pipeline (half of them
 *     through one shared VkPipelineCache), session, its memory bound,
 *     destroyed; the last pipeline of each thread runs and is checked;
 *  2. tensors and views: created with memory bound and mapped, written and
 *     read back, destroyed;
 *  3. recording: each thread has its own pool, a new command buffer per
 *     iteration recording host->graph barrier, a graph dispatch of one shared
 *     pipeline with the thread's own session, a synchronization2 barrier, a
 *     vkCmdCopyTensorARM of the output (buffer copies) and one of a strided
 *     column (COLUMN_ROWS runs: the layer's copy kernel, whose pipeline is
 *     created at first use), a vkCmdPipelineBarrier, submitted
 *     with its own fence (one mutex around vkQueueSubmit2: queue submission
 *     is externally synchronised) and checked against the CPU reference;
 *  4. tensor shader modules through the lowering cache: each iteration every
 *     thread creates the same code (out = in + K, K shared), then code of its
 *     own, each with a compute pipeline that runs and is checked.
 * ITERATIONS: argv[1], else VMEL_TEST_CONCURRENCY_ITERATIONS, else 1 (CTest and the
 * ThreadSanitizer stage of tools/run-tests.sh); a longer run by hand (past CTest's
 * 300 s limit: scenario 1 takes about 6 s per iteration on lavapipe, 2 cores):
 *   tools/run-lvp.sh --build build build/tests/e2e/test_concurrency 50
 * Results are checked, not only the absence of a crash; the TSan build
 * (build-tsan/) reports data races in the layers.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define THREADS 8
#define N 64        /* elements of the graph's [1, N] tensors */
#define SHADER_N 16 /* elements of the tensor shader's [SHADER_N] tensors */
#define COLUMN_ROWS 80 /* [COLUMN_ROWS, 2] tensors: a column is more runs than buffer copies take */

static struct dgu shared;
static unsigned iterations = 1;
static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static VkPipelineCache shared_cache;
static struct dgu_graph shared_graph; /* scenario 3's pipeline */
static PFN_vkCmdCopyTensorARM cmd_copy_tensor;

static const char graph_text[] = DGU_CLAMP_ADD_SUB_TEXT;

static const struct dgu_binding graph_bindings[] = {
   {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
   {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};

static const struct dgu_pipeline_desc graph_desc = {
   .text = graph_text,
   .bindings = graph_bindings,
   .binding_count = 2,
};

struct worker {
   unsigned index;
   struct dgu u; /* the shared device, with this thread's pool and fence */
   pthread_t thread;
};

/* ---- per-thread helpers ------------------------------------------------------------------- */

static bool
worker_begin(struct worker *w)
{
   w->u = shared;
   w->u.pool = VK_NULL_HANDLE;
   w->u.fence = VK_NULL_HANDLE;
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = shared.family};
   VkResult r = vkCreateCommandPool(shared.device, &cpci, NULL, &w->u.pool);
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if (r == VK_SUCCESS)
      r = vkCreateFence(shared.device, &fci, NULL, &w->u.fence);
   return ok(r == VK_SUCCESS, "thread %u: command pool and fence: %d", w->index, r);
}

static void
worker_end(struct worker *w)
{
   if (w->u.fence)
      vkDestroyFence(shared.device, w->u.fence, NULL);
   if (w->u.pool)
      vkDestroyCommandPool(shared.device, w->u.pool, NULL);
}

/* Ends cmd, submits it with the thread's fence (the queue behind queue_lock) and waits. */
static bool
submit_wait(struct worker *w, VkCommandBuffer cmd)
{
   VkResult r = vkEndCommandBuffer(cmd);
   if (!ok(r == VK_SUCCESS, "thread %u: vkEndCommandBuffer: %d", w->index, r))
      return false;
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   pthread_mutex_lock(&queue_lock);
   r = vkQueueSubmit2(w->u.queue, 1, &si, w->u.fence);
   pthread_mutex_unlock(&queue_lock);
   if (r == VK_SUCCESS)
      r = vkWaitForFences(w->u.device, 1, &w->u.fence, VK_TRUE, UINT64_MAX);
   vkResetFences(w->u.device, 1, &w->u.fence);
   return ok(r == VK_SUCCESS, "thread %u: submit and wait: %d", w->index, r);
}

/* Input values that differ per thread and iteration, across CLAMP's bounds. */
static void
fill_input(float *x, uint32_t n, unsigned thread, unsigned iteration)
{
   for (uint32_t i = 0; i < n; i++)
      x[i] = (float)((thread * 31 + iteration * 7 + i) % 17) * 0.5f - 4.0f;
}

/* Runs graph g once (t_in -> t_out) with session s in a command buffer of the thread's
 * pool; checks the output against the reference. */
static bool
run_graph(struct worker *w, const struct dgu_graph *g, VkDataGraphPipelineSessionARM s,
          unsigned iteration)
{
   struct dgu *u = &w->u;
   int64_t dims[2] = {1, N};
   struct dgu_tensor in, out;
   struct dgu_sets sets;
   bool made = dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
               dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &out) &&
               dgu_sets_create(u, g, &sets);
   bool good = false;
   if (made) {
      fill_input(in.data, N, w->index, iteration);
      memset(out.data, 0xa5, out.size);
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
      VkCommandBuffer cmd = dgu_begin(u);
      if (cmd) {
         dgu_barrier_host_to_graph(cmd);
         dgu_dispatch(u, cmd, g, &sets, s);
         dgu_barrier_graph_to_host(cmd);
         if (submit_wait(w, cmd)) {
            float want[N];
            dgu_clamp_add_sub_expect(in.data, want, N);
            good = dgu_check_f32("graph output", out.data, want, N);
         }
         dgu_free_cmd(u, cmd);
      }
      dgu_sets_destroy(u, &sets);
   }
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   return good;
}

/* ---- 1. graph pipelines and sessions ------------------------------------------------------ */

static void *
pipelines_sessions(void *arg)
{
   struct worker *w = arg;
   if (!worker_begin(w))
      return NULL;
   struct dgu *u = &w->u;
   for (unsigned it = 0; it < iterations; it++) {
      struct dgu_graph g;
      VkResult r = dgu_graph_create(u, &graph_desc, &g);
      ok(r == VK_SUCCESS, "thread %u: vkCreateDataGraphPipelinesARM: %d", w->index, r);
      /* A second pipeline of the same layouts and module through the shared cache. */
      VkPipeline cached = VK_NULL_HANDLE;
      if (r == VK_SUCCESS && (w->index + it) % 2 == 0) {
         struct dgu_create_parts parts;
         dgu_create_parts(&graph_desc, &g, &parts);
         r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, shared_cache, 1,
                                               &parts.info, NULL, &cached);
         ok(r == VK_SUCCESS, "thread %u: pipeline through the shared cache: %d", w->index, r);
      }
      struct dgu_session s;
      if (r == VK_SUCCESS && dgu_session_create(u, cached ? cached : g.pipeline, &s)) {
         ok(s.size > 0, "thread %u: the graph's intermediates need session memory", w->index);
         /* The last iteration runs the pipeline: it must work after all this. */
         if (it + 1 == iterations) {
            struct dgu_graph run = g;
            if (cached)
               run.pipeline = cached;
            run_graph(w, &run, s.session, it);
         }
      }
      dgu_session_destroy(u, &s);
      if (cached)
         vkDestroyPipeline(u->device, cached, NULL);
      dgu_graph_destroy(u, &g);
   }
   worker_end(w);
   return NULL;
}

/* ---- 2. tensors and views ----------------------------------------------------------------- */

static void *
tensors_views(void *arg)
{
   struct worker *w = arg;
   struct dgu *u = &w->u;
   *u = shared;
   enum { PER_ITERATION = 6 };
   for (unsigned it = 0; it < iterations * 4; it++) {
      struct dgu_tensor t[PER_ITERATION];
      unsigned made = 0, wrong = 0;
      for (; made < PER_ITERATION; made++) {
         int64_t dims[3] = {1 + (w->index + made) % 3, 2 + it % 5, 3 + made};
         VkFormat format = made % 2 ? VK_FORMAT_R8_UINT : VK_FORMAT_R32_SFLOAT;
         if (!dgu_tensor_create_usage(u, format, 3, dims,
                                      VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, &t[made]))
            break;
         uint8_t *bytes = t[made].data;
         for (size_t b = 0; b < t[made].size; b++)
            bytes[b] = (uint8_t)(b * 7 + w->index * 13 + made + it);
      }
      /* A second view of each tensor, made and destroyed while the others are in use. */
      for (unsigned i = 0; i < made; i++) {
         VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                         .tensor = t[i].tensor,
                                         .format = t[i].format};
         VkTensorViewARM view = VK_NULL_HANDLE;
         VkResult r = u->fn.CreateTensorViewARM(u->device, &vi, NULL, &view);
         ok(r == VK_SUCCESS, "thread %u: second view: %d", w->index, r);
         if (view)
            u->fn.DestroyTensorViewARM(u->device, view, NULL);
         const uint8_t *bytes = t[i].data;
         for (size_t b = 0; b < t[i].size; b++)
            wrong += bytes[b] != (uint8_t)(b * 7 + w->index * 13 + i + it);
      }
      ok(made == PER_ITERATION && wrong == 0, "thread %u: %u tensors made, %u bytes wrong",
         w->index, made, wrong);
      for (unsigned i = 0; i < made; i++)
         dgu_tensor_destroy(u, &t[i]);
   }
   return NULL;
}

/* ---- 3. recording graph dispatches and tensor copies -------------------------------------- */

static void *
recording(void *arg)
{
   struct worker *w = arg;
   if (!worker_begin(w))
      return NULL;
   struct dgu *u = &w->u;
   int64_t dims[2] = {1, N};
   int64_t column_dims[2] = {COLUMN_ROWS, 2};
   struct dgu_tensor in, out, copy, col_src, col_dst;
   struct dgu_sets sets;
   struct dgu_session s;
   memset(&s, 0, sizeof(s));
   memset(&col_src, 0, sizeof(col_src));
   memset(&col_dst, 0, sizeof(col_dst));
   bool made =
      dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
      dgu_tensor_create_usage(u, VK_FORMAT_R32_SFLOAT, 2, dims,
                              VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, &out) &&
      dgu_tensor_create_usage(u, VK_FORMAT_R32_SFLOAT, 2, dims,
                              VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM, &copy) &&
      dgu_tensor_create_usage(u, VK_FORMAT_R32_SFLOAT, 2, column_dims,
                              VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, &col_src) &&
      dgu_tensor_create_usage(u, VK_FORMAT_R32_SFLOAT, 2, column_dims,
                              VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM, &col_dst) &&
      dgu_sets_create(u, &shared_graph, &sets) &&
      dgu_session_create(u, shared_graph.pipeline, &s);
   if (made) {
      dgu_write(u, sets.sets[0], 0, 0, &in);
      dgu_write(u, sets.sets[0], 1, 0, &out);
   }
   for (unsigned it = 0; made && it < iterations * 4; it++) {
      fill_input(in.data, N, w->index, it);
      memset(out.data, 0xa5, out.size);
      memset(copy.data, 0x5a, copy.size);
      float *col = col_src.data;
      for (uint32_t i = 0; i < 2 * COLUMN_ROWS; i++)
         col[i] = (float)(i * 3 + it * 5 + w->index);
      memset(col_dst.data, 0x5a, col_dst.size);
      VkCommandBuffer cmd = dgu_begin(u);
      if (!cmd)
         break;
      dgu_barrier_host_to_graph(cmd);
      dgu_barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT);
      dgu_dispatch(u, cmd, &shared_graph, &sets, s.session);
      dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                  VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                  VK_ACCESS_2_TRANSFER_READ_BIT);
      VkTensorCopyARM whole = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM};
      VkCopyTensorInfoARM ci = {.sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
                                .srcTensor = out.tensor,
                                .dstTensor = copy.tensor,
                                .regionCount = 1,
                                .pRegions = &whole};
      cmd_copy_tensor(cmd, &ci);
      /* Column 1 of col_src to column 0 of col_dst: COLUMN_ROWS runs of one element. */
      const uint64_t src_offset[2] = {0, 1}, dst_offset[2] = {0, 0}, extent[2] = {COLUMN_ROWS, 1};
      VkTensorCopyARM column = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                                .dimensionCount = 2,
                                .pSrcOffset = src_offset,
                                .pDstOffset = dst_offset,
                                .pExtent = extent};
      VkCopyTensorInfoARM cc = {.sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
                                .srcTensor = col_src.tensor,
                                .dstTensor = col_dst.tensor,
                                .regionCount = 1,
                                .pRegions = &column};
      cmd_copy_tensor(cmd, &cc);
      VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                            .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT |
                                             VK_ACCESS_SHADER_WRITE_BIT,
                            .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT |
                                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
      if (submit_wait(w, cmd)) {
         float want[N];
         dgu_clamp_add_sub_expect(in.data, want, N);
         dgu_check_f32("graph output", out.data, want, N);
         dgu_check_f32("copy of the output", copy.data, want, N);
         const uint32_t *src_bits = col_src.data, *dst_bits = col_dst.data;
         unsigned wrong = 0;
         for (uint32_t r = 0; r < COLUMN_ROWS; r++)
            wrong += dst_bits[2 * r] != src_bits[2 * r + 1] || dst_bits[2 * r + 1] != 0x5a5a5a5au;
         ok(wrong == 0, "thread %u: column copy: %u of %d rows wrong", w->index, wrong,
            COLUMN_ROWS);
      }
      dgu_free_cmd(u, cmd);
   }
   dgu_session_destroy(u, &s);
   dgu_sets_destroy(u, &sets);
   dgu_tensor_destroy(u, &in);
   dgu_tensor_destroy(u, &out);
   dgu_tensor_destroy(u, &copy);
   dgu_tensor_destroy(u, &col_src);
   dgu_tensor_destroy(u, &col_dst);
   worker_end(w);
   return NULL;
}

/* ---- 4. tensor shader modules through the lowering cache ---------------------------------- */

/* out[x] = in[x] + k over [SHADER_N] fp32 tensors. */
static char *
shader_text(int k)
{
   struct dgu_text t = {0};
   dgu_put(&t,
           "OpCapability Shader\n"
           "OpCapability TensorsARM\n"
           "OpExtension \"SPV_ARM_tensors\"\n"
           "OpMemoryModel Logical GLSL450\n"
           "OpEntryPoint GLCompute %%main \"main\" %%src %%dst %%gid\n"
           "OpExecutionMode %%main LocalSize %d 1 1\n"
           "OpDecorate %%src DescriptorSet 0\n"
           "OpDecorate %%src Binding 0\n"
           "OpDecorate %%dst DescriptorSet 0\n"
           "OpDecorate %%dst Binding 1\n"
           "OpDecorate %%gid BuiltIn GlobalInvocationId\n"
           "%%void = OpTypeVoid\n"
           "%%uint = OpTypeInt 32 0\n"
           "%%float = OpTypeFloat 32\n"
           "%%v3uint = OpTypeVector %%uint 3\n"
           "%%uint_1 = OpConstant %%uint 1\n"
           "%%coords = OpTypeArray %%uint %%uint_1\n"
           "%%tensor = OpTypeTensorARM %%float %%uint_1\n"
           "%%ptr_tensor = OpTypePointer UniformConstant %%tensor\n"
           "%%ptr_input = OpTypePointer Input %%v3uint\n"
           "%%src = OpVariable %%ptr_tensor UniformConstant\n"
           "%%dst = OpVariable %%ptr_tensor UniformConstant\n"
           "%%gid = OpVariable %%ptr_input Input\n"
           "%%k = OpConstant %%float %d\n"
           "%%fn_void = OpTypeFunction %%void\n"
           "%%main = OpFunction %%void None %%fn_void\n"
           "%%entry = OpLabel\n"
           "%%t_in = OpLoad %%tensor %%src\n"
           "%%t_out = OpLoad %%tensor %%dst\n"
           "%%id = OpLoad %%v3uint %%gid\n"
           "%%x = OpCompositeExtract %%uint %%id 0\n"
           "%%coord = OpCompositeConstruct %%coords %%x\n"
           "%%v = OpTensorReadARM %%float %%t_in %%coord\n"
           "%%s = OpFAdd %%float %%v %%k\n"
           "OpTensorWriteARM %%t_out %%coord %%s\n"
           "OpReturn\n"
           "OpFunctionEnd\n",
           SHADER_N, k);
   return t.s;
}

/* Module, pipeline and set of shader_text(k); one dispatch over t_in -> t_out, checked. */
static void
run_shader(struct worker *w, int k, const struct dgu_tensor *t_in, const struct dgu_tensor *t_out)
{
   struct dgu *u = &w->u;
   char *text = shader_text(k);
   size_t count = 0;
   uint32_t *words = dgu_assemble(text, &count);
   free(text);
   if (!words)
      return;
   VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = count * 4,
                                    .pCode = words};
   VkShaderModule module = VK_NULL_HANDLE;
   VkResult r = vkCreateShaderModule(u->device, &smci, NULL, &module);
   free(words);
   if (!ok(r == VK_SUCCESS, "thread %u: tensor shader module (k %d): %d", w->index, k, r))
      return;

   VkDescriptorSetLayoutBinding b[2] = {
      {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo dsl = {.sType =
                                             VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = 2,
                                          .pBindings = b};
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkDescriptorSet set = VK_NULL_HANDLE;
   r = vkCreateDescriptorSetLayout(u->device, &dsl, NULL, &set_layout);
   VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .setLayoutCount = 1,
                                    .pSetLayouts = &set_layout};
   if (r == VK_SUCCESS)
      r = vkCreatePipelineLayout(u->device, &pl, NULL, &layout);
   VkComputePipelineCreateInfo cp = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main"},
      .layout = layout,
   };
   if (r == VK_SUCCESS)
      r = vkCreateComputePipelines(u->device, VK_NULL_HANDLE, 1, &cp, NULL, &pipeline);
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2};
   VkDescriptorPoolCreateInfo dp = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                    .maxSets = 1,
                                    .poolSizeCount = 1,
                                    .pPoolSizes = &size};
   if (r == VK_SUCCESS)
      r = vkCreateDescriptorPool(u->device, &dp, NULL, &pool);
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &set_layout};
   if (r == VK_SUCCESS)
      r = vkAllocateDescriptorSets(u->device, &ai, &set);
   if (ok(r == VK_SUCCESS, "thread %u: shader pipeline and set (k %d): %d", w->index, k, r)) {
      dgu_write(u, set, 0, 0, t_in);
      dgu_write(u, set, 1, 0, t_out);
      memset(t_out->data, 0xa5, t_out->size);
      VkCommandBuffer cmd = dgu_begin(u);
      if (cmd) {
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
                                 NULL);
         vkCmdDispatch(cmd, 1, 1, 1);
         VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
         vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                              VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
         if (submit_wait(w, cmd)) {
            const float *in = t_in->data;
            const float *out = t_out->data;
            unsigned wrong = 0;
            for (uint32_t i = 0; i < SHADER_N; i++)
               wrong += out[i] != in[i] + (float)k;
            ok(wrong == 0, "thread %u: tensor shader (k %d): %u of %d elements wrong",
               w->index, k, wrong, SHADER_N);
         }
         dgu_free_cmd(u, cmd);
      }
   }
   if (pool)
      vkDestroyDescriptorPool(u->device, pool, NULL);
   if (pipeline)
      vkDestroyPipeline(u->device, pipeline, NULL);
   if (layout)
      vkDestroyPipelineLayout(u->device, layout, NULL);
   if (set_layout)
      vkDestroyDescriptorSetLayout(u->device, set_layout, NULL);
   vkDestroyShaderModule(u->device, module, NULL);
}

static void *
shader_modules(void *arg)
{
   struct worker *w = arg;
   if (!worker_begin(w))
      return NULL;
   struct dgu *u = &w->u;
   int64_t dims[1] = {SHADER_N};
   struct dgu_tensor t_in, t_out;
   if (dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 1, dims, &t_in) &&
       dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 1, dims, &t_out)) {
      float *in = t_in.data;
      for (uint32_t i = 0; i < SHADER_N; i++)
         in[i] = (float)(i * 3) - (float)w->index;
      for (unsigned it = 0; it < iterations; it++) {
         /* The same code in every thread (lowered by several at once, or found in the
          * cache), then this thread's own. */
         run_shader(w, 1 + (int)(it % 3), &t_in, &t_out);
         run_shader(w, 100 + (int)(w->index * 1000 + it), &t_in, &t_out);
      }
   }
   dgu_tensor_destroy(u, &t_in);
   dgu_tensor_destroy(u, &t_out);
   worker_end(w);
   return NULL;
}

/* ---- main --------------------------------------------------------------------------------- */

static void
run_threads(const char *name, void *(*fn)(void *))
{
   struct worker w[THREADS];
   unsigned failed_before = test_state.failed;
   struct timespec start, end;
   clock_gettime(CLOCK_MONOTONIC, &start);
   for (unsigned t = 0; t < THREADS; t++) {
      memset(&w[t], 0, sizeof(w[t]));
      w[t].index = t;
      if (!ok(pthread_create(&w[t].thread, NULL, fn, &w[t]) == 0, "%s: thread %u", name, t))
         w[t].thread = 0;
   }
   for (unsigned t = 0; t < THREADS; t++)
      if (w[t].thread)
         pthread_join(w[t].thread, NULL);
   clock_gettime(CLOCK_MONOTONIC, &end);
   printf("%s: %u threads x %u iterations, %s (%.1f s)\n", name, THREADS, iterations,
          test_state.failed == failed_before ? "ok" : "FAILED",
          (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) * 1e-9);
   fflush(stdout);
}

int
main(int argc, char **argv)
{
   const char *env = getenv("VMEL_TEST_CONCURRENCY_ITERATIONS");
   if (argc > 1)
      iterations = (unsigned)strtoul(argv[1], NULL, 10);
   else if (env && *env)
      iterations = (unsigned)strtoul(env, NULL, 10);
   if (!ok(iterations > 0, "iterations must be at least 1"))
      return test_done();
   if (!dgu_init(&shared, NULL))
      return test_done();
   cmd_copy_tensor =
      (PFN_vkCmdCopyTensorARM)vkGetDeviceProcAddr(shared.device, "vkCmdCopyTensorARM");
   VkPipelineCacheCreateInfo pcci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
   VkResult r = vkCreatePipelineCache(shared.device, &pcci, NULL, &shared_cache);
   if (ok(cmd_copy_tensor && r == VK_SUCCESS, "vkCmdCopyTensorARM and a pipeline cache: %d", r) &&
       ok(dgu_graph_create(&shared, &graph_desc, &shared_graph) == VK_SUCCESS,
          "the recording scenario's pipeline")) {
      run_threads("pipelines and sessions", pipelines_sessions);
      run_threads("tensors and views", tensors_views);
      run_threads("recording", recording);
      run_threads("tensor shader modules", shader_modules);
   }
   dgu_graph_destroy(&shared, &shared_graph);
   if (shared_cache)
      vkDestroyPipelineCache(shared.device, shared_cache, NULL);
   dgu_finish(&shared);
   return test_done();
}
