/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Allocation failure on the create paths of both layers (issue 15), one table:
 * for each entry point, the layers' k-th allocation fails for k = 0, 1, ...
 * until the call succeeds without a failure. Every failing call must return
 * VK_ERROR_OUT_OF_HOST_MEMORY (never VK_ERROR_UNKNOWN or success), hand out no
 * handle, say so in a log line, and leave the layers' live allocations where
 * they were (nothing leaked); the call then succeeds. The device allocator
 * (rec_alloc.h) tells the layers' allocations from the driver's; the driver's
 * never fail here. vkCreateDevice and vkCreateInstance are swept the same
 * way through their pAllocator. After vkDestroyDevice nothing of the layers' is live.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "rec_alloc.h"
#include "spirv_text.h"
#include "test.h"

TEST_MAIN_STATE;

/* The fixture the cases create from (made unarmed). */
struct scene {
   struct dgu *u;
   struct dgu_tensor tensor;     /* bound, with a view */
   VkDescriptorSetLayout layout; /* one tensor binding */
   VkDescriptorPool pool;
   VkShaderModule tensor_module; /* a compute shader with tensors */
   VkPipelineLayout compute_layout;
   struct dgu_pipeline_desc fp32_desc, int8_desc;
   struct dgu_graph fp32, int8;
   char *int8_text;
};

/* One entry point: make() creates into *handle (a Vulkan handle as uint64_t), unmake()
 * destroys it. */
struct oom_case {
   const char *name;
   VkResult (*make)(struct scene *s, uint64_t *handle);
   void (*unmake)(struct scene *s, uint64_t handle);
   bool caches; /* may keep a cache entry made before the failure (live count may grow) */
};

static long
ours_live(const struct rec_alloc *a)
{
   return __atomic_load_n(&a->live[REC_GRAPH], __ATOMIC_RELAXED) +
          __atomic_load_n(&a->live[REC_TENSOR], __ATOMIC_RELAXED);
}

/* ---- the cases ---------------------------------------------------------------------------- */

static const int64_t dims4[2] = {4, 16};

static VkResult
make_tensor(struct scene *s, uint64_t *h)
{
   VkTensorDescriptionARM desc = dgu_description(VK_FORMAT_R32_SFLOAT, 2, dims4);
   desc.usage = VK_TENSOR_USAGE_SHADER_BIT_ARM;
   VkTensorCreateInfoARM info = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                 .pDescription = &desc};
   VkTensorARM t = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateTensorARM(s->u->device, &info, NULL, &t);
   *h = (uint64_t)t;
   return r;
}

static void
unmake_tensor(struct scene *s, uint64_t h)
{
   s->u->fn.DestroyTensorARM(s->u->device, (VkTensorARM)h, NULL);
}

static VkResult
make_view(struct scene *s, uint64_t *h)
{
   VkTensorViewCreateInfoARM info = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                     .tensor = s->tensor.tensor,
                                     .format = VK_FORMAT_R32_SFLOAT};
   VkTensorViewARM v = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateTensorViewARM(s->u->device, &info, NULL, &v);
   *h = (uint64_t)v;
   return r;
}

static void
unmake_view(struct scene *s, uint64_t h)
{
   s->u->fn.DestroyTensorViewARM(s->u->device, (VkTensorViewARM)h, NULL);
}

static const VkDescriptorSetLayoutBinding tensor_binding = {
    0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2, VK_SHADER_STAGE_COMPUTE_BIT, NULL};

static VkResult
make_set_layout(struct scene *s, uint64_t *h)
{
   VkDescriptorSetLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 1,
       .pBindings = &tensor_binding};
   VkDescriptorSetLayout l = VK_NULL_HANDLE;
   VkResult r = vkCreateDescriptorSetLayout(s->u->device, &info, NULL, &l);
   *h = (uint64_t)l;
   return r;
}

static void
unmake_set_layout(struct scene *s, uint64_t h)
{
   vkDestroyDescriptorSetLayout(s->u->device, (VkDescriptorSetLayout)h, NULL);
}

static VkResult
make_pool(struct scene *s, uint64_t *h)
{
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 8};
   VkDescriptorPoolCreateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                      .maxSets = 4,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   VkDescriptorPool p = VK_NULL_HANDLE;
   VkResult r = vkCreateDescriptorPool(s->u->device, &info, NULL, &p);
   *h = (uint64_t)p;
   return r;
}

static void
unmake_pool(struct scene *s, uint64_t h)
{
   vkDestroyDescriptorPool(s->u->device, (VkDescriptorPool)h, NULL);
}

static VkResult
make_set(struct scene *s, uint64_t *h)
{
   VkDescriptorSetAllocateInfo info = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = s->pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &s->layout};
   VkDescriptorSet set = VK_NULL_HANDLE;
   VkResult r = vkAllocateDescriptorSets(s->u->device, &info, &set);
   *h = (uint64_t)set;
   return r;
}

static void
unmake_set(struct scene *s, uint64_t h)
{
   VkDescriptorSet set = (VkDescriptorSet)h;
   vkFreeDescriptorSets(s->u->device, s->pool, 1, &set);
}

/* dst[i] = src[i] over a rank-1 int32 tensor pair. */
static const char tensor_shader[] = "OpCapability Shader\n"
                                    "OpCapability TensorsARM\n"
                                    "OpExtension \"SPV_ARM_tensors\"\n"
                                    "OpMemoryModel Logical GLSL450\n"
                                    "OpEntryPoint GLCompute %main \"main\" %src %dst %gid\n"
                                    "OpExecutionMode %main LocalSize 16 1 1\n"
                                    "OpDecorate %src DescriptorSet 0\n"
                                    "OpDecorate %src Binding 0\n"
                                    "OpDecorate %dst DescriptorSet 0\n"
                                    "OpDecorate %dst Binding 1\n"
                                    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
                                    "%void = OpTypeVoid\n"
                                    "%uint = OpTypeInt 32 0\n"
                                    "%v3uint = OpTypeVector %uint 3\n"
                                    "%uint_1 = OpConstant %uint 1\n"
                                    "%coords = OpTypeArray %uint %uint_1\n"
                                    "%tensor = OpTypeTensorARM %uint %uint_1\n"
                                    "%ptr_tensor = OpTypePointer UniformConstant %tensor\n"
                                    "%ptr_input = OpTypePointer Input %v3uint\n"
                                    "%src = OpVariable %ptr_tensor UniformConstant\n"
                                    "%dst = OpVariable %ptr_tensor UniformConstant\n"
                                    "%gid = OpVariable %ptr_input Input\n"
                                    "%fn_void = OpTypeFunction %void\n"
                                    "%main = OpFunction %void None %fn_void\n"
                                    "%entry = OpLabel\n"
                                    "%t_in = OpLoad %tensor %src\n"
                                    "%t_out = OpLoad %tensor %dst\n"
                                    "%id = OpLoad %v3uint %gid\n"
                                    "%x = OpCompositeExtract %uint %id 0\n"
                                    "%coord = OpCompositeConstruct %coords %x\n"
                                    "%v = OpTensorReadARM %uint %t_in %coord\n"
                                    "OpTensorWriteARM %t_out %coord %v\n"
                                    "OpReturn\n"
                                    "OpFunctionEnd\n";

static uint32_t *shader_words;
static size_t shader_count;

/* A new local size each time, so that each module misses the lowering cache. */
static void
next_shader(void)
{
   static unsigned size = 16;
   char text[sizeof(tensor_shader) + 16];
   const char *at = strstr(tensor_shader, "LocalSize 16");
   int head = (int)(at - tensor_shader);
   snprintf(text, sizeof(text), "%.*sLocalSize %u%s", head, tensor_shader, size++,
            at + strlen("LocalSize 16"));
   free(shader_words);
   shader_words = NULL;
   char err[256];
   ok(spirv_text_assemble(text, strlen(text), &shader_words, &shader_count, err, sizeof(err)),
      "assemble: %s", err);
}

static VkResult
make_shader_module(struct scene *s, uint64_t *h)
{
   next_shader();
   VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                    .codeSize = shader_count * 4,
                                    .pCode = shader_words};
   VkShaderModule m = VK_NULL_HANDLE;
   VkResult r = vkCreateShaderModule(s->u->device, &info, NULL, &m);
   *h = (uint64_t)m;
   return r;
}

static void
unmake_shader_module(struct scene *s, uint64_t h)
{
   vkDestroyShaderModule(s->u->device, (VkShaderModule)h, NULL);
}

static VkResult
make_compute_pipeline(struct scene *s, uint64_t *h)
{
   VkComputePipelineCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = s->tensor_module,
                 .pName = "main"},
       .layout = s->compute_layout};
   VkPipeline p = VK_NULL_HANDLE;
   VkResult r = vkCreateComputePipelines(s->u->device, VK_NULL_HANDLE, 1, &info, NULL, &p);
   *h = (uint64_t)p;
   return r;
}

static void
unmake_pipeline(struct scene *s, uint64_t h)
{
   vkDestroyPipeline(s->u->device, (VkPipeline)h, NULL);
}

static VkResult
make_graph(struct scene *s, const struct dgu_pipeline_desc *desc, const struct dgu_graph *g,
           uint64_t *h)
{
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!parts)
      return VK_ERROR_UNKNOWN;
   dgu_create_parts(desc, g, parts);
   VkPipeline p = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateDataGraphPipelinesARM(s->u->device, VK_NULL_HANDLE,
                                                     VK_NULL_HANDLE, 1, &parts->info, NULL, &p);
   free(parts);
   *h = (uint64_t)p;
   return r;
}

static VkResult
make_graph_fp32(struct scene *s, uint64_t *h)
{
   return make_graph(s, &s->fp32_desc, &s->fp32, h);
}

static VkResult
make_graph_int8(struct scene *s, uint64_t *h)
{
   return make_graph(s, &s->int8_desc, &s->int8, h);
}

static VkResult
make_session(struct scene *s, uint64_t *h)
{
   VkDataGraphPipelineSessionCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .dataGraphPipeline = s->int8.pipeline};
   VkDataGraphPipelineSessionARM session = VK_NULL_HANDLE;
   VkResult r = s->u->fn.CreateDataGraphPipelineSessionARM(s->u->device, &info, NULL, &session);
   *h = (uint64_t)session;
   return r;
}

static void
unmake_session(struct scene *s, uint64_t h)
{
   s->u->fn.DestroyDataGraphPipelineSessionARM(s->u->device, (VkDataGraphPipelineSessionARM)h,
                                               NULL);
}

static VkResult
make_tensor_memory(struct scene *s, uint64_t *h)
{
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
       .tensor = s->tensor.tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   s->u->fn.GetTensorMemoryRequirementsARM(s->u->device, &ri, &req);
   VkMemoryDedicatedAllocateInfoTensorARM dedicated = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM,
       .tensor = s->tensor.tensor};
   VkMemoryAllocateInfo info = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = &dedicated,
       .allocationSize = req.memoryRequirements.size,
       .memoryTypeIndex = vku_memory_type(&s->u->v, req.memoryRequirements.memoryTypeBits, 0)};
   VkDeviceMemory m = VK_NULL_HANDLE;
   VkResult r = vkAllocateMemory(s->u->device, &info, NULL, &m);
   *h = (uint64_t)m;
   return r;
}

static void
unmake_memory(struct scene *s, uint64_t h)
{
   vkFreeMemory(s->u->device, (VkDeviceMemory)h, NULL);
}

static const struct oom_case cases[] = {
    {"vkCreateTensorARM", make_tensor, unmake_tensor, false},
    {"vkCreateTensorViewARM", make_view, unmake_view, false},
    {"vkCreateDescriptorSetLayout (tensor binding)", make_set_layout, unmake_set_layout, false},
    {"vkCreateDescriptorPool (tensor descriptors)", make_pool, unmake_pool, false},
    {"vkAllocateDescriptorSets (tensor layout)", make_set, unmake_set, false},
    {"vkAllocateMemory (dedicated to a tensor)", make_tensor_memory, unmake_memory, false},
    {"vkCreateShaderModule (tensor shader)", make_shader_module, unmake_shader_module, true},
    {"vkCreateComputePipelines (tensor shader)", make_compute_pipeline, unmake_pipeline, true},
    {"vkCreateDataGraphPipelinesARM (CLAMP, ADD, SUB fp32)", make_graph_fp32, unmake_pipeline,
     false},
    {"vkCreateDataGraphPipelinesARM (CONV2D i8, RESCALE, CONCAT)", make_graph_int8,
     unmake_pipeline, false},
    {"vkCreateDataGraphPipelineSessionARM", make_session, unmake_session, false},
};

/* The sweep of one case; returns the number of failing calls checked. */
static long
sweep(struct scene *s, struct rec_alloc *a, const struct oom_case *c)
{
   test_set_context(c->name);
   for (long k = 0; k < 100000; k++) {
      long before = ours_live(a);
      uint64_t handle = 0;
      vku_capture_stderr_begin();
      rec_alloc_arm(a, k, false);
      VkResult r = c->make(s, &handle);
      rec_alloc_disarm(a);
      const char *log = vku_capture_stderr_end();
      if (a->failed == 0) {
         ok(r == VK_SUCCESS, "succeeds once no allocation fails (%ld allocations): %d", k, r);
         if (handle)
            c->unmake(s, handle);
         return k;
      }
      bool good = ok(r == VK_ERROR_OUT_OF_HOST_MEMORY,
                     "allocation %ld failing gives VK_ERROR_OUT_OF_HOST_MEMORY, got %d (log: %s)",
                     k, r, log);
      good &= ok(handle == 0, "allocation %ld failing hands out no handle", k);
      good &= ok(strstr(log, "out of host memory") != NULL,
                 "allocation %ld failing is logged: %s", k, log);
      long after = ours_live(a);
      good &= ok(c->caches ? after >= before : after == before,
                 "allocation %ld failing leaks nothing (%ld live before, %ld after)", k, before,
                 after);
      if (handle)
         c->unmake(s, handle);
      if (!good)
         return k; /* one report per case is enough to act on */
   }
   ok(false, "still failing after 100000 allocations");
   return 0;
}

/* vkCreateDevice with both extensions, the allocator given to it failing the layers' k-th
 * allocation; the device's own allocations come from the same callbacks. */
static void
sweep_device(struct dgu *u, struct rec_alloc *a, const VkAllocationCallbacks *callbacks)
{
   test_set_context("vkCreateDevice (VK_ARM_tensors, VK_ARM_data_graph)");
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM, .dataGraph = VK_TRUE};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &dgf,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE};
   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph",
                        "VK_ARM_data_graph_instruction_set_tosa"};
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = u->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &tf,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = 3,
                             .ppEnabledExtensionNames = ext};
   u->v.expect_device_failure = true;
   for (long k = 0; k < 100000; k++) {
      long before = ours_live(a);
      VkDevice device = VK_NULL_HANDLE;
      vku_capture_stderr_begin();
      rec_alloc_arm(a, k, false);
      VkResult r = vkCreateDevice(u->v.physical_device, &dci, callbacks, &device);
      rec_alloc_disarm(a);
      const char *log = vku_capture_stderr_end();
      if (a->failed == 0) {
         ok(r == VK_SUCCESS, "succeeds once no allocation fails (%ld allocations): %d", k, r);
         if (device)
            vkDestroyDevice(device, callbacks);
         printf("# vkCreateDevice: %ld failing allocations checked\n", k);
         break;
      }
      bool good = ok(r == VK_ERROR_OUT_OF_HOST_MEMORY,
                     "allocation %ld failing gives VK_ERROR_OUT_OF_HOST_MEMORY, got %d (log: %s)",
                     k, r, log);
      good &= ok(device == VK_NULL_HANDLE, "allocation %ld failing hands out no device", k);
      good &= ok(ours_live(a) == before, "allocation %ld failing leaks nothing (%ld, then %ld)", k,
                 before, ours_live(a));
      if (device)
         vkDestroyDevice(device, callbacks);
      if (!good)
         break;
   }
   u->v.expect_device_failure = false;
}

/* vkCreateInstance through both layers with an allocator failing the layers' k-th allocation
 * (the loader's and the driver's never fail). */
static void
sweep_instance(void)
{
   test_set_context("vkCreateInstance (both layers)");
   struct rec_alloc a;
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&a);
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                .pApplicationInfo = &app,
                                .enabledLayerCount = 2,
                                .ppEnabledLayerNames = layers};
   for (long k = 0; k < 100000; k++) {
      long before = ours_live(&a);
      VkInstance instance = VK_NULL_HANDLE;
      vku_capture_stderr_begin();
      rec_alloc_arm(&a, k, false);
      VkResult r = vkCreateInstance(&info, &callbacks, &instance);
      rec_alloc_disarm(&a);
      const char *log = vku_capture_stderr_end();
      if (a.failed == 0) {
         ok(r == VK_SUCCESS, "succeeds once no allocation fails (%ld allocations): %d", k, r);
         if (instance)
            vkDestroyInstance(instance, &callbacks);
         ok(ours_live(&a) == 0, "after vkDestroyInstance: %ld of the layers' allocations live",
            ours_live(&a));
         printf("# vkCreateInstance: %ld failing allocations checked\n", k);
         return;
      }
      bool good = ok(r == VK_ERROR_OUT_OF_HOST_MEMORY,
                     "allocation %ld failing gives VK_ERROR_OUT_OF_HOST_MEMORY, got %d (log: %s)",
                     k, r, log);
      good &= ok(instance == VK_NULL_HANDLE, "allocation %ld failing hands out no instance", k);
      good &= ok(ours_live(&a) == before, "allocation %ld failing leaks nothing (%ld, then %ld)", k,
                 before, ours_live(&a));
      if (instance)
         vkDestroyInstance(instance, &callbacks);
      if (!good)
         return;
   }
}

/* ---- the scene ------------------------------------------------------------------------------ */

static char *
read_text(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   char *text = calloc(1, 1 << 16);
   size_t n = text ? fread(text, 1, (1 << 16) - 1, f) : 0;
   fclose(f);
   if (text && n == 0) {
      free(text);
      return NULL;
   }
   return text;
}

static const struct dgu_binding fp32_bindings[] = {
    {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
    {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
};
static const struct dgu_binding int8_bindings[] = {
    {0, 0, 1, VK_FORMAT_R8_SINT, 4, {1, 8, 8, 4}},
    {0, 1, 1, VK_FORMAT_R8_UINT, 4, {1, 6, 6, 8}},
    {0, 2, 1, VK_FORMAT_R8_SINT, 4, {1, 6, 6, 16}},
};
static int8_t weights[8 * 3 * 3 * 4];
static int32_t bias[8], multipliers[8];
static int8_t shifts[8];
static const struct dgu_constant int8_constants[] = {
    {0, VK_FORMAT_R8_SINT, 4, {8, 3, 3, 4}, weights},
    {1, VK_FORMAT_R32_SINT, 1, {8}, bias},
    {2, VK_FORMAT_R32_SINT, 1, {8}, multipliers},
    {3, VK_FORMAT_R8_SINT, 1, {8}, shifts},
};

static bool
scene_init(struct scene *s, struct dgu *u)
{
   memset(s, 0, sizeof(*s));
   s->u = u;
   for (size_t i = 0; i < sizeof(weights); i++)
      weights[i] = (int8_t)(i % 7) - 3;
   for (int i = 0; i < 8; i++) {
      multipliers[i] = 1 << 30;
      shifts[i] = 30;
   }
   if (!dgu_tensor_create(u, VK_FORMAT_R32_SFLOAT, 2, dims4, &s->tensor))
      return false;
   uint64_t h;
   if (!ok(make_set_layout(s, &h) == VK_SUCCESS, "set layout"))
      return false;
   s->layout = (VkDescriptorSetLayout)h;
   if (!ok(make_pool(s, &h) == VK_SUCCESS, "pool"))
      return false;
   s->pool = (VkDescriptorPool)h;
   if (!ok(make_shader_module(s, &h) == VK_SUCCESS, "tensor shader module"))
      return false;
   s->tensor_module = (VkShaderModule)h;
   VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = b};
   VkDescriptorSetLayout compute_set;
   if (!ok(vkCreateDescriptorSetLayout(u->device, &dsl, NULL, &compute_set) == VK_SUCCESS,
           "compute set layout"))
      return false;
   VkPipelineLayoutCreateInfo pl = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                    .setLayoutCount = 1,
                                    .pSetLayouts = &compute_set};
   VkResult r = vkCreatePipelineLayout(u->device, &pl, NULL, &s->compute_layout);
   vkDestroyDescriptorSetLayout(u->device, compute_set, NULL);
   if (!ok(r == VK_SUCCESS, "compute pipeline layout"))
      return false;

   static const char fp32_text[] = DGU_CLAMP_ADD_SUB_TEXT;
   s->fp32_desc = (struct dgu_pipeline_desc){
       .text = fp32_text, .bindings = fp32_bindings, .binding_count = 2};
   if (!ok(dgu_graph_create(u, &s->fp32_desc, &s->fp32) == VK_SUCCESS, "fp32 graph"))
      return false;
   s->int8_text = read_text(VMEL_TEST_DATA_DIR "/spirv/graph_conv2d.spvasm");
   if (!ok(s->int8_text != NULL, "read graph_conv2d.spvasm"))
      return false;
   s->int8_desc = (struct dgu_pipeline_desc){.text = s->int8_text,
                                             .bindings = int8_bindings,
                                             .binding_count = 3,
                                             .constants = int8_constants,
                                             .constant_count = 4};
   return ok(dgu_graph_create(u, &s->int8_desc, &s->int8) == VK_SUCCESS, "int8 graph");
}

static void
scene_finish(struct scene *s)
{
   struct dgu *u = s->u;
   dgu_graph_destroy(u, &s->fp32);
   dgu_graph_destroy(u, &s->int8);
   free(s->int8_text);
   vkDestroyPipelineLayout(u->device, s->compute_layout, NULL);
   vkDestroyShaderModule(u->device, s->tensor_module, NULL);
   vkDestroyDescriptorPool(u->device, s->pool, NULL);
   vkDestroyDescriptorSetLayout(u->device, s->layout, NULL);
   dgu_tensor_destroy(u, &s->tensor);
   free(shader_words);
}

int
main(void)
{
   struct rec_alloc a;
   VkAllocationCallbacks callbacks = rec_alloc_callbacks(&a);
   struct dgu u;
   struct dgu_options options = {.device_alloc = &callbacks};
   if (dgu_init(&u, &options)) {
      struct scene s;
      if (scene_init(&s, &u)) {
         for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
            long n = sweep(&s, &a, &cases[i]);
            printf("# %s: %ld failing allocations checked\n", cases[i].name, n);
         }
         sweep_device(&u, &a, &callbacks);
      }
      scene_finish(&s);
   }
   dgu_finish(&u);
   sweep_instance();
   test_set_context(NULL);
   ok(ours_live(&a) == 0, "after vkDestroyDevice: %ld of the layers' allocations live",
      ours_live(&a));
   return test_done();
}
