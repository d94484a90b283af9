/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the layers' hooked vkCmd* entry points cost when several threads
 * record at once (issue 15, docs/decisions.md D42): T = 1, 2, 8 threads each
 * record into a command buffer of their own pool, in a loop, five commands
 * per iteration: vkCmdBindPipeline (compute; hooked by both layers),
 * vkCmdPushConstants (both), vkCmdDispatch (hooked by neither: the driver's
 * cost), vkCmdPipelineBarrier (tensor layer) and vkCmdPipelineBarrier2
 * (both). Every 64 iterations the command buffer is ended and begun again
 * (hooked: the per-command-buffer state is reset). Nothing is submitted.
 *
 * Reported per thread count, with both layers (VK_ARM_tensors and
 * VK_ARM_data_graph enabled, so that they emulate) and without any layer (the
 * baseline, same run): wall ns per command (all threads' commands over the
 * wall time: what the machine records per second) and CPU ns per command
 * (the threads' CPU time, user and system, over their commands: lock waits in
 * the kernel count, spinning counts). "layer" is the difference of the two
 * runs' CPU ns: what the layers add to each command.
 *   bench_cmd_threads [ITERATIONS [ROUNDS]]
 * ITERATIONS per thread (default 20000), ROUNDS (default 5) repeats each
 * configuration, best kept; the runs with and without layers alternate in one
 * process (two instances). VK_LAYER_PATH defaults to the build tree's manifests.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "spirv_text.h"
#include "vulkan/vulkan_arm_ml.h"

#define MAX_THREADS 8
#define COMMANDS_PER_ITERATION 5
#define ITERATIONS_PER_RECORDING 64

#define CHECK(x)                                                                                   \
   do {                                                                                            \
      VkResult r_ = (x);                                                                           \
      if (r_ != VK_SUCCESS) {                                                                      \
         fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, r_);                          \
         exit(1);                                                                                  \
      }                                                                                            \
   } while (0)

/* A compute shader that does nothing, with a 16-byte push-constant block. */
static const char shader_text[] =
   "OpCapability Shader\n"
   "OpMemoryModel Logical GLSL450\n"
   "OpEntryPoint GLCompute %main \"main\"\n"
   "OpExecutionMode %main LocalSize 1 1 1\n"
   "%void = OpTypeVoid\n"
   "%fn = OpTypeFunction %void\n"
   "%main = OpFunction %void None %fn\n"
   "%entry = OpLabel\n"
   "OpReturn\n"
   "OpFunctionEnd\n";

static double
wall_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double
thread_cpu_now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct bench {
   VkInstance instance;
   VkPhysicalDevice pd;
   VkDevice device;
   uint32_t family;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   unsigned iterations;
   pthread_barrier_t start;
};

struct worker {
   struct bench *b;
   VkCommandPool pool;
   VkCommandBuffer cmd;
   double cpu;        /* seconds */
   double start, end; /* wall clock */
   pthread_t thread;
};

static void
bench_init(struct bench *b, bool layers)
{
   const char *names[] = {"VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = layers ? 2 : 0,
                               .ppEnabledLayerNames = names};
   if (vkCreateInstance(&ici, NULL, &b->instance) != VK_SUCCESS) {
      fprintf(stderr, "no instance%s (VK_LAYER_PATH?)\n", layers ? " with the layers" : "");
      exit(1);
   }
   uint32_t n = 1;
   VkResult r = vkEnumeratePhysicalDevices(b->instance, &n, &b->pd);
   if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || n == 0) {
      fprintf(stderr, "no physical device\n");
      exit(1);
   }
   VkQueueFamilyProperties fams[16];
   n = 16;
   vkGetPhysicalDeviceQueueFamilyProperties(b->pd, &n, fams);
   b->family = UINT32_MAX;
   for (uint32_t i = 0; i < n && b->family == UINT32_MAX; i++)
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         b->family = i;
   if (b->family == UINT32_MAX) {
      fprintf(stderr, "no compute queue family\n");
      exit(1);
   }

   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
      .dataGraph = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .pNext = &dgf,
      .tensors = VK_TRUE,
   };
   VkPhysicalDeviceVulkan13Features f13 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
      .pNext = layers ? (void *)&tf : NULL,
      .synchronization2 = VK_TRUE,
   };
   const char *ext[] = {VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_DATA_GRAPH_EXTENSION_NAME};
   float prio = 1;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueFamilyIndex = b->family,
                                .queueCount = 1,
                                .pQueuePriorities = &prio};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &f13,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &q,
                             .enabledExtensionCount = layers ? 2 : 0,
                             .ppEnabledExtensionNames = ext};
   CHECK(vkCreateDevice(b->pd, &dci, NULL, &b->device));

   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (!spirv_text_assemble(shader_text, sizeof(shader_text) - 1, &words, &count, err,
                            sizeof(err))) {
      fprintf(stderr, "shader: %s\n", err);
      exit(1);
   }
   VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = count * 4,
                                    .pCode = words};
   VkShaderModule module;
   CHECK(vkCreateShaderModule(b->device, &smci, NULL, &module));
   free(words);
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .pushConstantRangeCount = 1,
                                      .pPushConstantRanges = &range};
   CHECK(vkCreatePipelineLayout(b->device, &plci, NULL, &b->layout));
   VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main"},
      .layout = b->layout,
   };
   CHECK(vkCreateComputePipelines(b->device, VK_NULL_HANDLE, 1, &cpci, NULL, &b->pipeline));
   vkDestroyShaderModule(b->device, module, NULL);
}

static void
bench_finish(struct bench *b)
{
   vkDestroyPipeline(b->device, b->pipeline, NULL);
   vkDestroyPipelineLayout(b->device, b->layout, NULL);
   vkDestroyDevice(b->device, NULL);
   vkDestroyInstance(b->instance, NULL);
}

static void *
record(void *arg)
{
   struct worker *w = arg;
   struct bench *b = w->b;
   const uint32_t push[4] = {1, 2, 3, 4};
   const VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                               .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                               .dstAccessMask = VK_ACCESS_SHADER_READ_BIT};
   const VkMemoryBarrier2 mb2 = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                                 .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 .srcAccessMask = VK_ACCESS_2_SHADER_WRITE_BIT,
                                 .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                 .dstAccessMask = VK_ACCESS_2_SHADER_READ_BIT};
   const VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                                 .memoryBarrierCount = 1,
                                 .pMemoryBarriers = &mb2};
   const VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                        .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   pthread_barrier_wait(&b->start);
   w->start = wall_now();
   double cpu = thread_cpu_now();
   for (unsigned i = 0; i < b->iterations; i++) {
      if (i % ITERATIONS_PER_RECORDING == 0) {
         if (i)
            vkEndCommandBuffer(w->cmd);
         vkBeginCommandBuffer(w->cmd, &bi);
      }
      vkCmdBindPipeline(w->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->pipeline);
      vkCmdPushConstants(w->cmd, b->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push), push);
      vkCmdDispatch(w->cmd, 1, 1, 1);
      vkCmdPipelineBarrier(w->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                           VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
      vkCmdPipelineBarrier2(w->cmd, &dep);
   }
   vkEndCommandBuffer(w->cmd);
   w->cpu = thread_cpu_now() - cpu;
   w->end = wall_now();
   return NULL;
}

struct result {
   double wall_ns; /* per command, all threads */
   double cpu_ns;  /* per command, CPU time */
};

static struct result
run(struct bench *b, unsigned threads)
{
   struct worker w[MAX_THREADS];
   pthread_barrier_init(&b->start, NULL, threads + 1);
   for (unsigned t = 0; t < threads; t++) {
      w[t] = (struct worker){.b = b};
      VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                      .queueFamilyIndex = b->family};
      CHECK(vkCreateCommandPool(b->device, &cpci, NULL, &w[t].pool));
      VkCommandBufferAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                        .commandPool = w[t].pool,
                                        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                        .commandBufferCount = 1};
      CHECK(vkAllocateCommandBuffers(b->device, &ai, &w[t].cmd));
      if (pthread_create(&w[t].thread, NULL, record, &w[t])) {
         fprintf(stderr, "pthread_create failed\n");
         exit(1);
      }
   }
   pthread_barrier_wait(&b->start);
   double cpu = 0, start = 1e30, end = 0;
   for (unsigned t = 0; t < threads; t++) {
      pthread_join(w[t].thread, NULL);
      cpu += w[t].cpu;
      start = w[t].start < start ? w[t].start : start;
      end = w[t].end > end ? w[t].end : end;
   }
   double wall = end - start; /* first thread's start to last thread's end */
   for (unsigned t = 0; t < threads; t++)
      vkDestroyCommandPool(b->device, w[t].pool, NULL);
   pthread_barrier_destroy(&b->start);
   double commands = (double)threads * b->iterations * COMMANDS_PER_ITERATION;
   return (struct result){wall * 1e9 / commands, cpu * 1e9 / commands};
}

int
main(int argc, char **argv)
{
   setenv("VK_LAYER_PATH", VMEL_BUILD_MANIFESTS, 0);
   unsigned iterations = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000;
   unsigned rounds = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 5;
   if (!iterations || !rounds) {
      fprintf(stderr, "usage: bench_cmd_threads [ITERATIONS [ROUNDS]]\n");
      return 2;
   }
   static const unsigned thread_counts[] = {1, 2, 8};
   /* Both instances live in one process and their rounds alternate, so that both see the
    * same machine (a shared one drifts); the best round of each is kept. */
   struct result best[2][3];
   struct bench b[2] = {{.iterations = iterations}, {.iterations = iterations}};
   for (int layers = 0; layers < 2; layers++) {
      bench_init(&b[layers], layers);
      for (unsigned c = 0; c < 3; c++)
         best[layers][c] = (struct result){1e30, 1e30};
   }
   for (unsigned r = 0; r < rounds; r++) {
      for (unsigned c = 0; c < 3; c++) {
         for (int layers = 0; layers < 2; layers++) {
            struct result x = run(&b[layers], thread_counts[c]);
            if (x.wall_ns < best[layers][c].wall_ns)
               best[layers][c].wall_ns = x.wall_ns;
            if (x.cpu_ns < best[layers][c].cpu_ns)
               best[layers][c].cpu_ns = x.cpu_ns;
         }
      }
   }
   for (int layers = 0; layers < 2; layers++)
      bench_finish(&b[layers]);
   printf("%u iterations x %u commands per thread, best of %u\n", iterations,
          COMMANDS_PER_ITERATION, rounds);
   printf("threads  wall ns/cmd (none, layers)  cpu ns/cmd (none, layers)  layer cpu ns/cmd\n");
   for (unsigned c = 0; c < 3; c++)
      printf("%7u  %12.1f %12.1f   %12.1f %12.1f   %14.1f\n", thread_counts[c],
             best[0][c].wall_ns, best[1][c].wall_ns, best[0][c].cpu_ns, best[1][c].cpu_ns,
             best[1][c].cpu_ns - best[0][c].cpu_ns);
   return 0;
}
