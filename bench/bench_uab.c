/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What emulated update-after-bind tensor descriptors (docs/decisions.md D32)
 * cost on the submission path: a command buffer recorded once binds K = 1, 8,
 * 64 sets of an UPDATE_AFTER_BIND tensor layout (two tensor bindings each)
 * and dispatches a trivial tensor shader (tests/unit/lower/rank_2); it is
 * submitted N times. Per submission: the wall time of vkQueueSubmit alone
 * (the wait after it is not counted) and the allocations made through the
 * device's allocation callbacks during vkQueueSubmit (a counting allocator);
 * "clean" submits as recorded, "dirty" rewrites one set's two tensor
 * descriptors before each submission (the vkUpdateDescriptorSets call is
 * timed separately). Both the driver's update-after-bind (when it has it) and
 * the emulation (VMEL_TENSOR_UPDATE_AFTER_BIND=emulate) run in one process,
 * one device each.
 *   bench_uab [N [ROUNDS]]
 * ROUNDS (default 2) alternates the two modes that many times each (native,
 * emulated, native, ...), so that drift of a shared machine shows.
 * VK_LAYER_PATH defaults to the build tree's manifests.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "spirv_text.h"
#include "vulkan/vulkan_arm_ml.h"

#define MAX_SETS 64

static double
now(void)
{
   struct timespec ts;
   clock_gettime(CLOCK_MONOTONIC, &ts);
   return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- a counting allocator ---------------------------------------------------- */

static atomic_ulong allocations;

static void *VKAPI_CALL
count_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   atomic_fetch_add(&allocations, 1);
   void *p = NULL;
   if (align < sizeof(void *))
      align = sizeof(void *);
   return posix_memalign(&p, align, size ? size : 1) ? NULL : p;
}

static void *VKAPI_CALL
count_realloc(void *user, void *old, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   (void)align;
   atomic_fetch_add(&allocations, 1);
   return realloc(old, size); /* malloc's alignment covers what Vulkan asks here */
}

static void VKAPI_CALL
count_free(void *user, void *p)
{
   (void)user;
   free(p);
}

static const VkAllocationCallbacks counting = {
    .pfnAllocation = count_alloc,
    .pfnReallocation = count_realloc,
    .pfnFree = count_free,
};

/* ---- set-up ---------------------------------------------------------------------- */

struct tensor {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
};

struct bench {
   VkPhysicalDevice pd;
   VkDevice device;
   VkQueue queue;
   VkFence fence;
   PFN_vkCreateTensorARM create_tensor;
   PFN_vkDestroyTensorARM destroy_tensor;
   PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
   PFN_vkBindTensorMemoryARM bind_tensor;
   PFN_vkCreateTensorViewARM create_view;
   PFN_vkDestroyTensorViewARM destroy_view;
   struct tensor t[4];
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet sets[MAX_SETS];
   VkCommandPool cmd_pool;
};

#define CHECK(x)                                                                                   \
   do {                                                                                            \
      VkResult r_ = (x);                                                                           \
      if (r_ != VK_SUCCESS) {                                                                      \
         fprintf(stderr, "%s:%d: %s = %d\n", __FILE__, __LINE__, #x, r_);                          \
         exit(1);                                                                                  \
      }                                                                                            \
   } while (0)

static void
tensor_init(struct bench *b, struct tensor *t)
{
   int64_t dims[2] = {4, 4};
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = VK_FORMAT_R32_SFLOAT,
       .dimensionCount = 2,
       .pDimensions = dims,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &desc};
   CHECK(b->create_tensor(b->device, &tci, NULL, &t->tensor));
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t->tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   b->tensor_reqs(b->device, &ri, &req);
   uint32_t type = 0;
   while (!(req.memoryRequirements.memoryTypeBits & (1u << type)))
      type++;
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex = type};
   CHECK(vkAllocateMemory(b->device, &mai, NULL, &t->memory));
   VkBindTensorMemoryInfoARM bind = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                     .tensor = t->tensor,
                                     .memory = t->memory};
   CHECK(b->bind_tensor(b->device, 1, &bind));
   VkTensorViewCreateInfoARM vci = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                    .tensor = t->tensor,
                                    .format = VK_FORMAT_R32_SFLOAT};
   CHECK(b->create_view(b->device, &vci, NULL, &t->view));
}

static void
write_set(struct bench *b, VkDescriptorSet set, VkTensorViewARM in, VkTensorViewARM out)
{
   VkTensorViewARM views[2] = {in, out};
   VkWriteDescriptorSetTensorARM wt = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
                                       .tensorViewCount = 2,
                                       .pTensorViews = views};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .pNext = &wt,
                             .dstSet = set,
                             .dstBinding = 0,
                             .descriptorCount = 2, /* runs into binding 1 */
                             .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
   vkUpdateDescriptorSets(b->device, 1, &w, 0, NULL);
}

static void
device_init(struct bench *b, const uint32_t *code, size_t words)
{
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
       .descriptorBindingStorageTensorUpdateAfterBind = VK_TRUE,
   };
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &tf,
       .bufferDeviceAddress = VK_TRUE,
   };
   float prio = 1;
   VkDeviceQueueCreateInfo q = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                .queueCount = 1,
                                .pQueuePriorities = &prio};
   const char *ext = "VK_ARM_tensors";
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &f12,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &q,
                             .enabledExtensionCount = 1,
                             .ppEnabledExtensionNames = &ext};
   CHECK(vkCreateDevice(b->pd, &dci, &counting, &b->device));
   vkGetDeviceQueue(b->device, 0, 0, &b->queue);
#define GET(var, name) b->var = (__typeof__(b->var))vkGetDeviceProcAddr(b->device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
#undef GET
   for (int i = 0; i < 4; i++)
      tensor_init(b, &b->t[i]);
   VkDescriptorBindingFlags flags[2] = {VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
                                        VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT};
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 2,
       .pBindingFlags = flags};
   VkDescriptorSetLayoutBinding bindings[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &bf,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
       .bindingCount = 2,
       .pBindings = bindings};
   CHECK(vkCreateDescriptorSetLayout(b->device, &dsl, NULL, &b->set_layout));
   VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .setLayoutCount = 1,
                                    .pSetLayouts = &b->set_layout};
   CHECK(vkCreatePipelineLayout(b->device, &pl, NULL, &b->layout));
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = words * 4, .pCode = code};
   VkShaderModule module;
   CHECK(vkCreateShaderModule(b->device, &smci, NULL, &module));
   VkComputePipelineCreateInfo cp = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = module,
                 .pName = "main"},
       .layout = b->layout};
   CHECK(vkCreateComputePipelines(b->device, VK_NULL_HANDLE, 1, &cp, NULL, &b->pipeline));
   vkDestroyShaderModule(b->device, module, NULL);
   VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2 * MAX_SETS};
   VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT,
                                      .maxSets = MAX_SETS,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &ps};
   CHECK(vkCreateDescriptorPool(b->device, &dpci, NULL, &b->pool));
   VkDescriptorSetLayout layouts[MAX_SETS];
   for (int i = 0; i < MAX_SETS; i++)
      layouts[i] = b->set_layout;
   VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = b->pool,
                                       .descriptorSetCount = MAX_SETS,
                                       .pSetLayouts = layouts};
   CHECK(vkAllocateDescriptorSets(b->device, &dsai, b->sets));
   for (int i = 0; i < MAX_SETS; i++)
      write_set(b, b->sets[i], b->t[0].view, b->t[1].view);
   VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   CHECK(vkCreateCommandPool(b->device, &cpi, NULL, &b->cmd_pool));
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   CHECK(vkCreateFence(b->device, &fci, NULL, &b->fence));
}

static void
device_finish(struct bench *b)
{
   vkDeviceWaitIdle(b->device);
   vkDestroyFence(b->device, b->fence, NULL);
   vkDestroyCommandPool(b->device, b->cmd_pool, NULL);
   vkDestroyDescriptorPool(b->device, b->pool, NULL);
   vkDestroyPipeline(b->device, b->pipeline, NULL);
   vkDestroyPipelineLayout(b->device, b->layout, NULL);
   vkDestroyDescriptorSetLayout(b->device, b->set_layout, NULL);
   for (int i = 0; i < 4; i++) {
      b->destroy_view(b->device, b->t[i].view, NULL);
      b->destroy_tensor(b->device, b->t[i].tensor, NULL);
      vkFreeMemory(b->device, b->t[i].memory, NULL);
   }
   vkDestroyDevice(b->device, &counting);
}

struct result {
   double submit_us; /* vkQueueSubmit per submission: the median */
   double submit_mean_us;
   double update_us;   /* vkUpdateDescriptorSets per submission (dirty only) */
   double allocations; /* during vkQueueSubmit, per submission */
};

static int
cmp_double(const void *a, const void *b)
{
   double x = *(const double *)a, y = *(const double *)b;
   return x < y ? -1 : x > y;
}

static struct result
run(struct bench *b, int sets, int n, bool dirty, double *times)
{
   VkCommandBufferAllocateInfo cai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                      .commandPool = b->cmd_pool,
                                      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                      .commandBufferCount = 1};
   VkCommandBuffer cmd;
   CHECK(vkAllocateCommandBuffers(b->device, &cai, &cmd));
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   CHECK(vkBeginCommandBuffer(cmd, &bi));
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->pipeline);
   for (int i = 0; i < sets; i++)
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->layout, 0, 1, &b->sets[i], 0,
                              NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   CHECK(vkEndCommandBuffer(cmd));
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
   struct result r = {0};
   double submit = 0, update = 0;
   unsigned long allocs = 0;
   for (int i = 0; i < n; i++) {
      if (dirty) {
         /* The set bound last, which the dispatch reads: in and out alternate. */
         double t0 = now();
         write_set(b, b->sets[sets - 1], b->t[i & 1 ? 2 : 0].view, b->t[i & 1 ? 3 : 1].view);
         update += now() - t0;
      }
      unsigned long a0 = atomic_load(&allocations);
      double t0 = now();
      CHECK(vkQueueSubmit(b->queue, 1, &si, b->fence));
      times[i] = now() - t0;
      submit += times[i];
      allocs += atomic_load(&allocations) - a0;
      CHECK(vkWaitForFences(b->device, 1, &b->fence, VK_TRUE, UINT64_MAX));
      CHECK(vkResetFences(b->device, 1, &b->fence));
   }
   vkFreeCommandBuffers(b->device, b->cmd_pool, 1, &cmd);
   qsort(times, n, sizeof(times[0]), cmp_double);
   r.submit_us = times[n / 2] * 1e6;
   r.submit_mean_us = submit / n * 1e6;
   r.update_us = update / n * 1e6;
   r.allocations = (double)allocs / n;
   return r;
}

int
main(int argc, char **argv)
{
   int n = argc > 1 ? atoi(argv[1]) : 10000;
   int rounds = argc > 2 ? atoi(argv[2]) : 2;
   setenv("VK_LAYER_PATH", VMEL_BUILD_MANIFESTS, 0);
   setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
   char path[4096];
   snprintf(path, sizeof(path), "%s/rank_2.in.spvasm", VMEL_LOWER_CASE_DIR);
   static char text[65536];
   FILE *f = fopen(path, "rb");
   size_t len = f ? fread(text, 1, sizeof(text), f) : 0;
   if (f)
      fclose(f);
   uint32_t *code = NULL;
   size_t words = 0;
   char err[256];
   if (!len || !spirv_text_assemble(text, len, &code, &words, err, sizeof(err))) {
      fprintf(stderr, "%s: cannot assemble\n", path);
      return 1;
   }
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   const char *layers[] = {"VK_LAYER_ML_Tensor_Emulation"};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = 1,
                               .ppEnabledLayerNames = layers};
   VkInstance instance;
   if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS) {
      fprintf(stderr, "no instance with %s (VK_LAYER_PATH?)\n", layers[0]);
      return 1;
   }
   uint32_t count = 1;
   struct bench b = {0};
   if (vkEnumeratePhysicalDevices(instance, &count, &b.pd) < 0 || !count)
      return 1;
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f12};
   vkGetPhysicalDeviceFeatures2(b.pd, &f2);
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(b.pd, &props);
   printf("%s, N = %d submissions per row; us = microseconds per submission\n", props.deviceName,
          n);
   const char *modes[2] = {"native", "emulated"};
   printf("%-9s %5s %6s %12s %12s %12s %14s\n", "mode", "sets", "path", "submit med", "submit mean",
          "update us", "allocs/submit");
   double *times = malloc(n * sizeof(double));
   if (!times)
      return 1;
   for (int round = 0; round < 2 * rounds; round++) {
      int m = round & 1;
      if (m == 0 && !f12.descriptorBindingStorageBufferUpdateAfterBind) {
         printf("native    (the driver has no update-after-bind storage buffers)\n");
         continue;
      }
      setenv("VMEL_TENSOR_UPDATE_AFTER_BIND", m ? "emulate" : "auto", 1);
      device_init(&b, code, words);
      static const int set_counts[3] = {1, 8, 64};
      for (int s = 0; s < 3; s++) {
         for (int dirty = 0; dirty < 2; dirty++) {
            struct result r = run(&b, set_counts[s], n, dirty, times);
            printf("%-9s %5d %6s %12.2f %12.2f %12.2f %14.2f\n", modes[m], set_counts[s],
                   dirty ? "dirty" : "clean", r.submit_us, r.submit_mean_us, r.update_us,
                   r.allocations);
            fflush(stdout);
         }
      }
      device_finish(&b);
   }
   vkDestroyInstance(instance, NULL);
   free(times);
   free(code);
   return 0;
}
