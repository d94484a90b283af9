/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the graph layer's kernels cost on the default device (lavapipe here),
 * through the loader and both layers (VK_LAYER_ML_Graph_Emulation above
 * VK_LAYER_ML_Tensor_Emulation, or the meta layer with --meta), for three
 * graphs written here as SPIR-V text (assembled with vmel_spirv_text), their
 * weights passed as graph constants:
 *   conv_fp32    three CONV2D 3x3 pad 1 (acc FP32) on [1,H,W,C] with CLAMP
 *                (ReLU6) between them;
 *   conv_int8    three times CONV2D i8 -> i32 (acc INT32), RESCALE i32 -> i8
 *                (per channel, DOUBLE_ROUND), CLAMP (ReLU around the zero point);
 *   matmul_fp32  MATMUL [1,M,K] x [1,K,N] fp32, the second operand a constant.
 * Per graph it measures
 *   create    vkCreateDataGraphPipelinesARM (the SPIR-V module exists already),
 *   session   vkCreateDataGraphPipelineSessionARM, the bind point's memory
 *             (allocate and bind) and the descriptor pool, set and writes,
 *   dispatch  vkQueueSubmit2 to vkWaitForFences of a command buffer holding
 *             host -> graph barrier, the dispatch, graph -> host barrier,
 * each as median and min: create and session over --creations pipelines (each
 * destroyed but the last), dispatch over --reps submissions after --warmup.
 * Mesa's disk shader cache is off (MESA_SHADER_CACHE_DISABLE), so every
 * creation compiles.
 *
 * Every graph's output is checked once, after the warm-up, against the CPU
 * reference (tests/reference/tosa_ref.h), and the output of the last timed
 * dispatch must equal the checked one bit for bit, so no wrong result is timed:
 *   conv_int8    bit-exact;
 *   conv_fp32    |out - ref| <= 1e-5 * bnd per element, ref the reference chain
 *                (each CONV2D in fp64, rounded to fp32, CLAMP exact; the last
 *                CONV2D unrounded) and bnd TOSA's dot-product bound of the last
 *                CONV2D (sum |x*w| + |bias| over the reference's input): a
 *                relative tolerance, since errors of the first two CONV2Ds are
 *                not covered by the bound of the last;
 *   matmul_fp32  TOSA 1.0.1's dot-product bound (tosa_ref_check_dot_product).
 *
 *   bench_graph [--reps N] [--warmup N] [--creations N] [--graph NAME]...
 *               [--manifests DIR] [--meta] [--json FILE] [--print-text]
 * The layers come from --manifests DIR, else VK_LAYER_PATH, else this build
 * tree's manifests; the driver from VK_DRIVER_FILES, else lavapipe's ICD when
 * installed. Exit status: 0, 1 when a graph fails (creation, run or check),
 * 2 for a usage error.
 *
 * This file owns the Vulkan side, the timing and the report;
 * bench_graph_nets.c the graphs, their data, references and checks.
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

static double
now_ms(void)
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

static void
samples_add(struct bench_samples *s, double v)
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

/* ---- Vulkan ------------------------------------------------------------------------------- */

struct bench_device {
   VkInstance instance;
   struct graph_device gd;
   struct graph_arm_fns fn;
   VkPhysicalDeviceMemoryProperties memory;
   char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
};

static const char *
vk_result_name(VkResult r)
{
   switch (r) {
   case VK_SUCCESS:
      return "VK_SUCCESS";
   case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
   case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
   case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
   case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
   case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
   case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
   case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
   case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
   default:
      return "VkResult";
   }
}

/* Checks a VkResult: false (and the graph's failure message) when it is not VK_SUCCESS. */
static bool
vk_ok(struct bench_graph *g, VkResult r, const char *what)
{
   if (r == VK_SUCCESS)
      return true;
   bench_graph_fail(g, "%s: %s (%d)", what, vk_result_name(r), (int)r);
   return false;
}

static bool
device_init(struct bench_device *d, bool meta)
{
   const char *pair[] = {"VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"};
   const char *meta_layer[] = {"VK_LAYER_ML_Emulation"};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "bench_graph",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = meta ? 1 : 2,
                               .ppEnabledLayerNames = meta ? meta_layer : pair};
   VkResult r = vkCreateInstance(&ici, NULL, &d->instance);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "bench_graph: vkCreateInstance with %s: %s (%d) (VK_LAYER_PATH?)\n",
              meta ? meta_layer[0] : "the graph and tensor layers", vk_result_name(r), (int)r);
      return false;
   }
   VkPhysicalDevice physical[8];
   uint32_t n = 8;
   r = vkEnumeratePhysicalDevices(d->instance, &n, physical);
   if (r < 0) {
      fprintf(stderr, "bench_graph: vkEnumeratePhysicalDevices: %s (%d)\n", vk_result_name(r),
              (int)r);
      return false;
   }
   for (uint32_t i = 0; i < n; i++) {
      r = graph_device_create(d->instance, physical[i], &d->gd);
      if (r != VK_SUCCESS)
         continue;
      if (!graph_arm_fns_load(d->gd.device, &d->fn)) {
         fprintf(stderr, "bench_graph: VK_ARM_data_graph entry points missing\n");
         graph_device_destroy(&d->gd);
         continue;
      }
      VkPhysicalDeviceProperties props;
      vkGetPhysicalDeviceProperties(physical[i], &props);
      snprintf(d->name, sizeof(d->name), "%s", props.deviceName);
      vkGetPhysicalDeviceMemoryProperties(physical[i], &d->memory);
      return true;
   }
   fprintf(stderr, "bench_graph: no device with VK_ARM_data_graph (last: %s (%d))\n",
           vk_result_name(r), (int)r);
   return false;
}

static void
device_finish(struct bench_device *d)
{
   graph_device_destroy(&d->gd);
   if (d->instance)
      vkDestroyInstance(d->instance, NULL);
}

static uint32_t
memory_type(const struct bench_device *d, uint32_t bits, VkMemoryPropertyFlags want)
{
   for (uint32_t i = 0; i < d->memory.memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (d->memory.memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

/* An application tensor in host-visible memory, with a view. */
struct app_tensor {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   void *map;
   size_t size;
   int64_t dims[REF_MAX_RANK];
   VkTensorDescriptionARM desc;
};

static bool
app_tensor_create(struct bench_device *d, struct bench_graph *g, const struct ref_tensor *t,
                  struct app_tensor *a)
{
   VkDevice dev = d->gd.device;
   memset(a, 0, sizeof(*a));
   for (uint32_t i = 0; i < t->rank; i++)
      a->dims[i] = t->shape[i];
   a->size = (size_t)t->count * ref_dtype_size(t->dtype);
   a->desc = (VkTensorDescriptionARM){
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = bench_ref_format(t->dtype),
       .dimensionCount = t->rank,
       .pDimensions = a->dims,
       .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &a->desc,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   if (!vk_ok(g, d->fn.CreateTensorARM(dev, &tci, NULL, &a->tensor), "vkCreateTensorARM"))
      return false;
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = a->tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   d->fn.GetTensorMemoryRequirementsARM(dev, &ri, &req);
   uint32_t type =
       memory_type(d, req.memoryRequirements.memoryTypeBits,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
   if (type == UINT32_MAX) {
      bench_graph_fail(g, "no host-visible coherent memory for a tensor");
      return false;
   }
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex = type};
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .tensor = a->tensor};
   if (!vk_ok(g, vkAllocateMemory(dev, &mai, NULL, &a->memory), "tensor memory"))
      return false;
   bi.memory = a->memory;
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = a->tensor,
                                   .format = a->desc.format};
   return vk_ok(g, d->fn.BindTensorMemoryARM(dev, 1, &bi), "vkBindTensorMemoryARM") &&
          vk_ok(g, vkMapMemory(dev, a->memory, 0, VK_WHOLE_SIZE, 0, &a->map), "vkMapMemory") &&
          vk_ok(g, d->fn.CreateTensorViewARM(dev, &vi, NULL, &a->view), "vkCreateTensorViewARM");
}

static void
app_tensor_destroy(struct bench_device *d, struct app_tensor *a)
{
   VkDevice dev = d->gd.device;
   if (a->view)
      d->fn.DestroyTensorViewARM(dev, a->view, NULL);
   if (a->tensor)
      d->fn.DestroyTensorARM(dev, a->tensor, NULL);
   if (a->memory)
      vkFreeMemory(dev, a->memory, NULL);
   memset(a, 0, sizeof(*a));
}

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

struct run_objects {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkShaderModule module;
   struct app_tensor in, out;
   VkCommandPool cmd_pool;
   VkCommandBuffer cmd;
   VkFence fence;
};

static bool
create_pipeline(struct bench_device *d, struct bench_graph *g, struct run_objects *r,
                struct instance_objects *o)
{
   VkDataGraphPipelineResourceInfoARM res[2];
   const struct app_tensor *io[2] = {&r->in, &r->out};
   for (uint32_t i = 0; i < 2; i++)
      res[i] = (VkDataGraphPipelineResourceInfoARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
          .pNext = &io[i]->desc,
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
       .resourceInfoCount = 2,
       .pResourceInfos = res,
   };
   double t0 = now_ms();
   VkResult result = d->fn.CreateDataGraphPipelinesARM(d->gd.device, VK_NULL_HANDLE, VK_NULL_HANDLE,
                                                       1, &info, NULL, &o->pipeline);
   double t = now_ms() - t0;
   if (!vk_ok(g, result, "vkCreateDataGraphPipelinesARM (the graph layer's log says why)")) {
      o->pipeline = VK_NULL_HANDLE;
      return false;
   }
   samples_add(&g->create, t);
   return true;
}

/* The session, its memory, and the application's descriptor set. */
static bool
set_up_session(struct bench_device *d, struct bench_graph *g, struct run_objects *r,
               struct instance_objects *o)
{
   VkDevice dev = d->gd.device;
   double t0 = now_ms();
   VkDataGraphPipelineSessionCreateInfoARM sci = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .dataGraphPipeline = o->pipeline,
   };
   if (!vk_ok(g, d->fn.CreateDataGraphPipelineSessionARM(dev, &sci, NULL, &o->session),
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
   if (res != VK_INCOMPLETE && !vk_ok(g, res, "session bind point requirements"))
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
      uint32_t type = memory_type(d, req.memoryRequirements.memoryTypeBits,
                                  VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
      if (type == UINT32_MAX)
         type = memory_type(d, req.memoryRequirements.memoryTypeBits, 0);
      VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                  .allocationSize = req.memoryRequirements.size,
                                  .memoryTypeIndex = type};
      if (!vk_ok(g, vkAllocateMemory(dev, &mai, NULL, &o->session_memory), "session memory"))
         return false;
      VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
          .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
          .session = o->session,
          .bindPoint = reqs[i].bindPoint,
          .memory = o->session_memory,
      };
      if (!vk_ok(g, d->fn.BindDataGraphPipelineSessionMemoryARM(dev, 1, &bi),
                 "vkBindDataGraphPipelineSessionMemoryARM"))
         return false;
   }
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2};
   VkDescriptorPoolCreateInfo pci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = 1,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
   if (!vk_ok(g, vkCreateDescriptorPool(dev, &pci, NULL, &o->pool), "vkCreateDescriptorPool"))
      return false;
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = o->pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &r->set_layout};
   if (!vk_ok(g, vkAllocateDescriptorSets(dev, &ai, &o->set), "vkAllocateDescriptorSets"))
      return false;
   VkWriteDescriptorSetTensorARM tw[2];
   VkWriteDescriptorSet w[2];
   const struct app_tensor *io[2] = {&r->in, &r->out};
   for (uint32_t i = 0; i < 2; i++) {
      tw[i] = (VkWriteDescriptorSetTensorARM){.sType =
                                                  VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
                                              .tensorViewCount = 1,
                                              .pTensorViews = &io[i]->view};
      w[i] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                    .pNext = &tw[i],
                                    .dstSet = o->set,
                                    .dstBinding = i,
                                    .descriptorCount = 1,
                                    .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
   }
   vkUpdateDescriptorSets(dev, 2, w, 0, NULL);
   samples_add(&g->session, now_ms() - t0);
   return true;
}

/* Layouts, module, application tensors, command buffer and fence. */
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
   if (!vk_ok(g, res, "vkCreateShaderModule"))
      return false;
   VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_ALL, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_ALL, NULL},
   };
   VkDescriptorSetLayoutCreateInfo sli = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = b,
   };
   if (!vk_ok(g, vkCreateDescriptorSetLayout(dev, &sli, NULL, &r->set_layout),
              "vkCreateDescriptorSetLayout"))
      return false;
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &r->set_layout};
   if (!vk_ok(g, vkCreatePipelineLayout(dev, &plci, NULL, &r->layout), "vkCreatePipelineLayout") ||
       !app_tensor_create(d, g, g->input, &r->in) || !app_tensor_create(d, g, g->output, &r->out))
      return false;
   memcpy(r->in.map, g->input->data, r->in.size);
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = d->gd.queue_family};
   if (!vk_ok(g, vkCreateCommandPool(dev, &cpci, NULL, &r->cmd_pool), "vkCreateCommandPool"))
      return false;
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = r->cmd_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   return vk_ok(g, vkAllocateCommandBuffers(dev, &cbai, &r->cmd), "vkAllocateCommandBuffers") &&
          vk_ok(g, vkCreateFence(dev, &fci, NULL, &r->fence), "vkCreateFence");
}

static void
run_objects_destroy(struct bench_device *d, struct run_objects *r)
{
   VkDevice dev = d->gd.device;
   if (r->fence)
      vkDestroyFence(dev, r->fence, NULL);
   if (r->cmd_pool)
      vkDestroyCommandPool(dev, r->cmd_pool, NULL);
   app_tensor_destroy(d, &r->out);
   app_tensor_destroy(d, &r->in);
   if (r->layout)
      vkDestroyPipelineLayout(dev, r->layout, NULL);
   if (r->set_layout)
      vkDestroyDescriptorSetLayout(dev, r->set_layout, NULL);
   if (r->module)
      vkDestroyShaderModule(dev, r->module, NULL);
}

/* Host writes -> the graph -> host reads, recorded once. */
static bool
record(struct bench_device *d, struct bench_graph *g, struct run_objects *r,
       const struct instance_objects *o)
{
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   if (!vk_ok(g, vkBeginCommandBuffer(r->cmd, &bi), "vkBeginCommandBuffer"))
      return false;
   VkMemoryBarrier2 before = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                              .srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                              .srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT,
                              .dstStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                              .dstAccessMask = VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM};
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                           .memoryBarrierCount = 1,
                           .pMemoryBarriers = &before};
   vkCmdPipelineBarrier2(r->cmd, &dep);
   vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, o->pipeline);
   vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, r->layout, 0, 1, &o->set,
                           0, NULL);
   d->fn.CmdDispatchDataGraphARM(r->cmd, o->session, NULL);
   VkMemoryBarrier2 after = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                             .srcStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
                             .srcAccessMask = VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
                             .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
                             .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT};
   dep.pMemoryBarriers = &after;
   vkCmdPipelineBarrier2(r->cmd, &dep);
   return vk_ok(g, vkEndCommandBuffer(r->cmd), "vkEndCommandBuffer");
}

/* One submission, waited on; its wall time in *ms. */
static bool
submit(struct bench_device *d, struct bench_graph *g, struct run_objects *r, double *ms)
{
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = r->cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   double t0 = now_ms();
   bool ok = vk_ok(g, vkQueueSubmit2(d->gd.queue, 1, &si, r->fence), "vkQueueSubmit2") &&
             vk_ok(g, vkWaitForFences(d->gd.device, 1, &r->fence, VK_TRUE, UINT64_MAX),
                   "vkWaitForFences");
   *ms = now_ms() - t0;
   return ok && vk_ok(g, vkResetFences(d->gd.device, 1, &r->fence), "vkResetFences");
}

struct options {
   int reps, warmup, creations;
   bool meta;
   bool print_text; /* --print-text: the graphs' SPIR-V text, nothing run */
   const char *json;
   const char *manifests;
   const char *graphs[8];
   int graph_count;
};

static void
run_graph(struct bench_device *d, const struct options *opt, struct bench_graph *g)
{
   struct run_objects r;
   struct instance_objects o;
   memset(&r, 0, sizeof(r));
   memset(&o, 0, sizeof(o));
   bool ok = run_objects_create(d, g, &r);
   for (int i = 0; ok && i < opt->creations; i++) {
      ok = create_pipeline(d, g, &r, &o) && set_up_session(d, g, &r, &o);
      if (ok && i + 1 < opt->creations)
         instance_destroy(d, &o);
   }
   ok = ok && record(d, g, &r, &o);
   if (ok) {
      memset(r.out.map, 0xcd, r.out.size);
      double ms;
      for (int i = 0; ok && i < opt->warmup; i++)
         ok = submit(d, g, &r, &ms);
   }
   if (ok) {
      memcpy(g->output->data, r.out.map, r.out.size);
      g->checked = bench_graph_check(g);
      if (!g->checked)
         bench_graph_fail(g, "wrong output: %s", g->check_text);
      ok = g->checked;
   }
   for (int i = 0; ok && i < opt->reps; i++) {
      double ms;
      ok = submit(d, g, &r, &ms);
      samples_add(&g->dispatch, ms);
   }
   if (ok && memcmp(g->output->data, r.out.map, r.out.size) != 0) {
      bench_graph_fail(g, "the output of the timed dispatches differs from the checked one");
      g->checked = false;
   }
   if (!ok)
      bench_graph_fail(g, "failed"); /* keeps the first, more precise message */
   instance_destroy(d, &o);
   run_objects_destroy(d, &r);
}

/* ---- main ----------------------------------------------------------------------------------- */

static const char usage_text[] =
    "usage: bench_graph [options]\n"
    "  --reps N         timed dispatches per graph (default 7), after\n"
    "  --warmup N       untimed dispatches (default 1; the output is checked after them)\n"
    "  --creations N    pipeline creations and session set-ups per graph (default 10)\n"
    "  --graph NAME     conv_fp32, conv_int8 or matmul_fp32 (repeatable; default all)\n"
    "  --manifests DIR  layer manifests (default: $VK_LAYER_PATH, else the build tree's)\n"
    "  --meta           enable VK_LAYER_ML_Emulation instead of the graph and tensor layers\n"
    "  --json FILE      write the results as JSON\n"
    "  --print-text     print the graphs' SPIR-V text (vmel-as syntax) and run nothing\n";

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

/* 0 on success, else the exit status. */
static int
parse_args(int argc, char **argv, struct options *o)
{
   *o = (struct options){.reps = 7, .warmup = 1, .creations = 10};
   for (int i = 1; i < argc; i++) {
      const char *a = argv[i];
      const char *v = i + 1 < argc ? argv[i + 1] : NULL;
      if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
         fputs(usage_text, stdout);
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
      if (!v) {
         fprintf(stderr, "bench_graph: %s needs a value\n%s", a, usage_text);
         return 2;
      }
      i++;
      if ((!strcmp(a, "--reps") && parse_count(v, 1, &o->reps)) ||
          (!strcmp(a, "--warmup") && parse_count(v, 1, &o->warmup)) ||
          (!strcmp(a, "--creations") && parse_count(v, 1, &o->creations)))
         continue;
      if (!strcmp(a, "--json")) {
         o->json = v;
      } else if (!strcmp(a, "--manifests")) {
         o->manifests = v;
      } else if (!strcmp(a, "--graph")) {
         bool known = false;
         for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++)
            known |= !strcmp(v, bench_graph_defs[k].name);
         if (!known || o->graph_count == 8) {
            fprintf(stderr, "bench_graph: unknown graph '%s'\n%s", v, usage_text);
            return 2;
         }
         o->graphs[o->graph_count++] = v;
      } else {
         fprintf(stderr, "bench_graph: bad option %s %s\n%s", a, v, usage_text);
         return 2;
      }
   }
   return 0;
}

static bool
selected(const struct options *o, const char *name)
{
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

static void
json_metric(FILE *f, const struct bench_graph *g, const char *metric, const struct bench_samples *s,
            bool last)
{
   fprintf(f,
           "    {\"graph\": \"%s\", \"metric\": \"%s\", \"median\": %.4f, \"min\": %.4f, "
           "\"samples\": [",
           g->name, metric, samples_median(s), samples_min(s));
   for (int i = 0; i < s->n; i++)
      fprintf(f, "%s%.4f", i ? ", " : "", s->v[i]);
   fprintf(f, "]}%s\n", last ? "" : ",");
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
   fprintf(f, ",\n  \"lp_num_threads\": ");
   json_string(f, threads ? threads : "");
   fprintf(f, ",\n  \"reps\": %d,\n  \"warmup\": %d,\n  \"creations\": %d,\n", o->reps, o->warmup,
           o->creations);
   fprintf(f, "  \"graphs\": [\n");
   for (int i = 0; i < count; i++) {
      fprintf(f,
              "    {\"graph\": \"%s\", \"pass\": %s, \"macs\": %.0f, \"check\": ", graphs[i].name,
              !graphs[i].failed ? "true" : "false", graphs[i].macs);
      json_string(f, graphs[i].failed ? graphs[i].why : graphs[i].check_text);
      fprintf(f, "}%s\n", i + 1 < count ? "," : "");
   }
   fprintf(f, "  ],\n  \"results\": [\n");
   int done = 0, total = 0;
   for (int i = 0; i < count; i++)
      total += !graphs[i].failed;
   for (int i = 0; i < count; i++) {
      if (graphs[i].failed)
         continue;
      done++;
      json_metric(f, &graphs[i], "create_ms", &graphs[i].create, false);
      json_metric(f, &graphs[i], "session_ms", &graphs[i].session, false);
      json_metric(f, &graphs[i], "dispatch_ms", &graphs[i].dispatch, done == total);
   }
   fprintf(f, "  ]\n}\n");
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
}

int
main(int argc, char **argv)
{
   struct options opt;
   int status = parse_args(argc, argv, &opt);
   if (status)
      return status < 0 ? 0 : status;
   if (opt.print_text) {
      for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++) {
         struct bench_graph g;
         memset(&g, 0, sizeof(g));
         if (selected(&opt, bench_graph_defs[k].name)) {
            bench_graph_defs[k].setup(&g);
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
   if (!device_init(&d, opt.meta)) {
      device_finish(&d);
      return 1;
   }
   const char *threads = getenv("LP_NUM_THREADS");
   printf("device: %s (LP_NUM_THREADS=%s), layers: %s\n", d.name, threads ? threads : "unset",
          opt.meta ? "VK_LAYER_ML_Emulation" : "graph, tensor");
   printf("VK_LAYER_PATH=%s\ngraph layer: %s\n", layer_path, graph_lib);
   printf("%d pipeline creation(s) and session set-up(s), %d warm-up and %d timed dispatch(es) "
          "per graph; ms\n\n",
          opt.creations, opt.warmup, opt.reps);

   struct bench_graph graphs[BENCH_GRAPH_COUNT];
   memset(graphs, 0, sizeof(graphs));
   int count = 0;
   for (size_t k = 0; k < BENCH_GRAPH_COUNT; k++) {
      if (!selected(&opt, bench_graph_defs[k].name))
         continue;
      struct bench_graph *g = &graphs[count++];
      double t0 = now_ms();
      bench_graph_defs[k].setup(g);
      g->reference_ms = now_ms() - t0;
      if (g->failed || g->text.failed) {
         bench_graph_fail(g, "set-up failed");
         printf("%-12s FAIL: %s\n", g->name, g->why);
         status = 1;
         continue;
      }
      run_graph(&d, &opt, g);
      if (g->failed) {
         printf("%-12s FAIL: %s\n", g->name, g->why);
         status = 1;
         continue;
      }
      double dispatch = samples_median(&g->dispatch);
      printf("%-12s %s\n", g->name, g->what);
      printf("  check      %s (reference %.0f ms)\n", g->check_text, g->reference_ms);
      printf("  create     median %9.3f  min %9.3f\n", samples_median(&g->create),
             samples_min(&g->create));
      printf("  session    median %9.3f  min %9.3f\n", samples_median(&g->session),
             samples_min(&g->session));
      printf("  dispatch   median %9.3f  min %9.3f  (%.2f GMAC/s)\n", dispatch,
             samples_min(&g->dispatch), dispatch > 0 ? g->macs / dispatch * 1e-6 : 0.0);
   }
   if (opt.json && !write_json(opt.json, &opt, &d, layer_path, graph_lib, graphs, count))
      status = 1;
   for (int i = 0; i < count; i++)
      bench_graph_finish(&graphs[i]);
   device_finish(&d);
   return status;
}
