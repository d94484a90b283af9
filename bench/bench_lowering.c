/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the two tensor shader lowering paths cost (docs/decisions.md D18),
 * through the loader and the tensor layer on the default device, one device
 * per path (VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE is read at vkCreateDevice):
 *  1. Pipeline creation: for golden inputs of tests/unit/lower (assembled with
 *     vmel_spirv_text), vkCreateShaderModule + vkCreateComputePipelines of a
 *     module no cache has seen (each gets an OpName of its own, which also
 *     reaches the GLSL and glslang's output, so neither the layer's cache nor
 *     a driver's sees a repeat; Mesa's and NVIDIA's disk caches are turned
 *     off), on each path, against the baseline of the driver alone: the same
 *     calls with the direct lowering's output (tsr_lower_tensors() here),
 *     which declares no TensorsARM and so passes through the layer. Medians.
 *     The first round trip of a device, which builds glslang's symbol
 *     tables, is reported apart.
 *  2. Run time: c = a + b over 4M fp32 elements, a tensor shader lowered by
 *     the device's path against the hand-written buffer shader
 *     bench/shaders/add_buffer.comp on the same device. Tensors are bound as
 *     the layer binds them, a storage buffer holding the record
 *     (include/kernel_abi/tensor_record.h). Median of submit-to-fence times;
 *     both results are checked.
 * Ratios are against the baseline measured in the same run.
 *   bench_lowering [iterations] [case...]
 * VK_LAYER_PATH defaults to the build tree's manifests, VMEL_LOWER_CASE_DIR to
 * the source tree's tests/unit/lower.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vulkan/vulkan.h>

#include "kernel_abi/tensor_record.h"
#include "spirv_text.h"
#include "tsr_lower.h"
#include "vmel_kernels_bench.h"
#include "vulkan/vulkan_arm_ml.h"

#define ELEMENTS (4u << 20)
#define LOCAL_SIZE 256u
#define MAX_ITERATIONS 1000

static const char *const default_cases[] = {
    "read_write_f32",       "rank_6",    "array_forms",          "control_flow",
    "convert_small_floats", "spec_rank", "tensor_array_dynamic", "vulkan_memory_model",
};

/* c = a + b, one invocation per element, rank-1 fp32 tensors at bindings 0, 1, 2. */
static const char add_tensor_shader[] = "OpCapability Shader\n"
                                        "OpCapability TensorsARM\n"
                                        "OpExtension \"SPV_ARM_tensors\"\n"
                                        "OpMemoryModel Logical GLSL450\n"
                                        "OpEntryPoint GLCompute %main \"main\" %ta %tb %tc %gid\n"
                                        "OpExecutionMode %main LocalSize 256 1 1\n"
                                        "OpDecorate %ta DescriptorSet 0\n"
                                        "OpDecorate %ta Binding 0\n"
                                        "OpDecorate %tb DescriptorSet 0\n"
                                        "OpDecorate %tb Binding 1\n"
                                        "OpDecorate %tc DescriptorSet 0\n"
                                        "OpDecorate %tc Binding 2\n"
                                        "OpDecorate %gid BuiltIn GlobalInvocationId\n"
                                        "%void = OpTypeVoid\n"
                                        "%uint = OpTypeInt 32 0\n"
                                        "%float = OpTypeFloat 32\n"
                                        "%v3uint = OpTypeVector %uint 3\n"
                                        "%uint_1 = OpConstant %uint 1\n"
                                        "%coords = OpTypeArray %uint %uint_1\n"
                                        "%tensor = OpTypeTensorARM %float %uint_1\n"
                                        "%ptr_tensor = OpTypePointer UniformConstant %tensor\n"
                                        "%ptr_input = OpTypePointer Input %v3uint\n"
                                        "%ta = OpVariable %ptr_tensor UniformConstant\n"
                                        "%tb = OpVariable %ptr_tensor UniformConstant\n"
                                        "%tc = OpVariable %ptr_tensor UniformConstant\n"
                                        "%gid = OpVariable %ptr_input Input\n"
                                        "%fn_void = OpTypeFunction %void\n"
                                        "%main = OpFunction %void None %fn_void\n"
                                        "%entry = OpLabel\n"
                                        "%a = OpLoad %tensor %ta\n"
                                        "%b = OpLoad %tensor %tb\n"
                                        "%c = OpLoad %tensor %tc\n"
                                        "%id = OpLoad %v3uint %gid\n"
                                        "%x = OpCompositeExtract %uint %id 0\n"
                                        "%coord = OpCompositeConstruct %coords %x\n"
                                        "%va = OpTensorReadARM %float %a %coord\n"
                                        "%vb = OpTensorReadARM %float %b %coord\n"
                                        "%sum = OpFAdd %float %va %vb\n"
                                        "OpTensorWriteARM %c %coord %sum\n"
                                        "OpReturn\n"
                                        "OpFunctionEnd\n";

struct buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map;
   VkDeviceAddress address;
};

struct dev {
   const char *mode; /* the VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE value */
   const char *name;
   VkDevice device;
   VkQueue queue;
   VkCommandPool pool;
   VkDescriptorSetLayout tensor_set_layout; /* bindings 0..3: 4 tensors each */
   VkPipelineLayout tensor_layout;
   VkDescriptorSetLayout buffer_set_layout; /* bindings 0..2: one storage buffer each */
   VkPipelineLayout buffer_layout;          /* with a 4-byte push constant */
};

static VkInstance instance;
static VkPhysicalDevice physical;
static VkPhysicalDeviceMemoryProperties memory_properties;
static int iterations = 20;

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

static double
median(double *t, int n)
{
   qsort(t, (size_t)n, sizeof(*t), compare_doubles);
   return n ? (n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2])) : 0.0;
}

static bool
instance_init(void)
{
   const char *layers[] = {"VK_LAYER_ML_Tensor_Emulation"};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = 1,
                               .ppEnabledLayerNames = layers};
   uint32_t n = 1;
   if (vkCreateInstance(&ici, NULL, &instance) != VK_SUCCESS ||
       vkEnumeratePhysicalDevices(instance, &n, &physical) < 0 || n == 0) {
      fprintf(stderr, "no instance with %s or no device (VK_LAYER_PATH?)\n", layers[0]);
      return false;
   }
   vkGetPhysicalDeviceMemoryProperties(physical, &memory_properties);
   return true;
}

static bool
set_layout(VkDevice device, VkDescriptorType type, uint32_t bindings, uint32_t count,
           VkDescriptorSetLayout *layout)
{
   VkDescriptorSetLayoutBinding b[4];
   for (uint32_t i = 0; i < bindings; i++)
      b[i] = (VkDescriptorSetLayoutBinding){i, type, count, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = bindings,
       .pBindings = b,
   };
   return vkCreateDescriptorSetLayout(device, &info, NULL, layout) == VK_SUCCESS;
}

static bool
pipeline_layout(VkDevice device, VkDescriptorSetLayout set, uint32_t push_bytes,
                VkPipelineLayout *layout)
{
   VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_bytes};
   VkPipelineLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &set,
       .pushConstantRangeCount = push_bytes ? 1 : 0,
       .pPushConstantRanges = &range,
   };
   return vkCreatePipelineLayout(device, &info, NULL, layout) == VK_SUCCESS;
}

/* A device with VK_ARM_tensors whose layer lowers on the path `mode` selects. */
static bool
device_init(struct dev *d, const char *mode, const char *name)
{
   memset(d, 0, sizeof(*d));
   d->mode = mode;
   d->name = name;
   setenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE", mode, 1);
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan11Features f11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f11};
   vkGetPhysicalDeviceFeatures2(physical, &f2);
   VkPhysicalDeviceTensorFeaturesARM tensors = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
       .shaderStorageTensorArrayDynamicIndexing = VK_TRUE,
   };
   VkPhysicalDeviceVulkan12Features e12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &tensors,
       .bufferDeviceAddress = VK_TRUE,
       .shaderInt8 = f12.shaderInt8,
       .shaderFloat16 = f12.shaderFloat16,
       .storageBuffer8BitAccess = f12.storageBuffer8BitAccess,
       .vulkanMemoryModel = f12.vulkanMemoryModel,
   };
   VkPhysicalDeviceVulkan11Features e11 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
       .pNext = &e12,
       .storageBuffer16BitAccess = f11.storageBuffer16BitAccess,
   };
   VkPhysicalDeviceFeatures2 e2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &e11,
       .features = {.shaderInt16 = f2.features.shaderInt16,
                    .shaderInt64 = f2.features.shaderInt64,
                    .shaderFloat64 = f2.features.shaderFloat64,
                    .shaderStorageBufferArrayDynamicIndexing =
                        f2.features.shaderStorageBufferArrayDynamicIndexing},
   };
   uint32_t family = 0, n = 16;
   VkQueueFamilyProperties fams[16];
   vkGetPhysicalDeviceQueueFamilyProperties(physical, &n, fams);
   while (family < n && !(fams[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      family++;
   float priority = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
   const char *extensions[] = {"VK_ARM_tensors"};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &e2,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = 1,
                             .ppEnabledExtensionNames = extensions};
   if (family == n || vkCreateDevice(physical, &dci, NULL, &d->device) != VK_SUCCESS) {
      fprintf(stderr, "%s: no device with VK_ARM_tensors\n", name);
      return false;
   }
   vkGetDeviceQueue(d->device, family, 0, &d->queue);
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = family};
   return vkCreateCommandPool(d->device, &cpci, NULL, &d->pool) == VK_SUCCESS &&
          set_layout(d->device, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 4, 4, &d->tensor_set_layout) &&
          pipeline_layout(d->device, d->tensor_set_layout, 0, &d->tensor_layout) &&
          set_layout(d->device, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, 1, &d->buffer_set_layout) &&
          pipeline_layout(d->device, d->buffer_set_layout, 4, &d->buffer_layout);
}

static void
device_finish(struct dev *d)
{
   if (!d->device)
      return;
   vkDestroyPipelineLayout(d->device, d->buffer_layout, NULL);
   vkDestroyDescriptorSetLayout(d->device, d->buffer_set_layout, NULL);
   vkDestroyPipelineLayout(d->device, d->tensor_layout, NULL);
   vkDestroyDescriptorSetLayout(d->device, d->tensor_set_layout, NULL);
   vkDestroyCommandPool(d->device, d->pool, NULL);
   vkDestroyDevice(d->device, NULL);
}

/* vkCreateShaderModule + vkCreateComputePipelines; returns the time in ms, < 0 on failure. */
static double
create_pipeline(struct dev *d, const uint32_t *words, size_t count, VkPipelineLayout layout,
                VkPipeline *keep)
{
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4, .pCode = words};
   VkShaderModule module = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   double start = now_ms();
   VkResult r = vkCreateShaderModule(d->device, &smci, NULL, &module);
   if (r == VK_SUCCESS) {
      VkComputePipelineCreateInfo cpci = {
          .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
          .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                    .module = module,
                    .pName = "main"},
          .layout = layout,
      };
      r = vkCreateComputePipelines(d->device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline);
   }
   double ms = now_ms() - start;
   vkDestroyShaderModule(d->device, module, NULL);
   if (keep && r == VK_SUCCESS)
      *keep = pipeline;
   else
      vkDestroyPipeline(d->device, pipeline, NULL);
   return r == VK_SUCCESS ? ms : -1.0;
}

static uint32_t *
load_case(const char *name, size_t *count)
{
   const char *dir = getenv("VMEL_LOWER_CASE_DIR");
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s.in.spvasm", dir ? dir : VMEL_LOWER_CASE_DIR, name);
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   static char text[1 << 16];
   size_t len = fread(text, 1, sizeof(text) - 1, f);
   fclose(f);
   uint32_t *words = NULL;
   char err[256];
   if (!spirv_text_assemble(text, len, &words, count, err, sizeof(err))) {
      fprintf(stderr, "%s: %s\n", name, err);
      return NULL;
   }
   return words;
}

/* words with `OpName <target of the first OpDecorate> "salt<hex>"` before that OpDecorate: the
 * same module under a name no cache has seen. */
static uint32_t *
salted(const uint32_t *words, size_t count, uint32_t salt, size_t *out_count)
{
   size_t at = 5;
   while (at < count && words[at] >> 16 && (words[at] & 0xffffu) != 71 /* OpDecorate */)
      at += words[at] >> 16;
   uint32_t *out = at < count ? malloc((count + 6) * sizeof(uint32_t)) : NULL;
   if (!out)
      return NULL;
   char name[16] = {0}; /* 12 characters and a NUL: 4 words */
   snprintf(name, sizeof(name), "salt%08x", salt);
   memcpy(out, words, at * sizeof(uint32_t));
   out[at] = 6u << 16 | 5u; /* OpName */
   out[at + 1] = words[at + 1];
   memcpy(out + at + 2, name, 16);
   memcpy(out + at + 6, words + at, (count - at) * sizeof(uint32_t));
   *out_count = count + 6;
   return out;
}

/* Median creation time of `iterations` salted copies of words on d. */
static double
time_creation(struct dev *d, const uint32_t *words, size_t count, uint32_t salt)
{
   double t[MAX_ITERATIONS];
   for (int i = 0; i < iterations; i++) {
      size_t n = 0;
      uint32_t *copy = salted(words, count, salt + (uint32_t)i, &n);
      t[i] = copy ? create_pipeline(d, copy, n, d->tensor_layout, NULL) : -1.0;
      free(copy);
      if (t[i] < 0)
         return -1.0;
   }
   return median(t, iterations);
}

static bool
buffer_create(VkDevice device, VkDeviceSize size, struct buffer *b)
{
   memset(b, 0, sizeof(*b));
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
   };
   if (vkCreateBuffer(device, &bci, NULL, &b->buffer) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(device, b->buffer, &req);
   VkMemoryPropertyFlags want =
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   uint32_t type = 0;
   while (type < memory_properties.memoryTypeCount &&
          (!(req.memoryTypeBits & (1u << type)) ||
           (memory_properties.memoryTypes[type].propertyFlags & want) != want))
      type++;
   VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .pNext = &flags,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
   if (type == memory_properties.memoryTypeCount ||
       vkAllocateMemory(device, &mai, NULL, &b->memory) != VK_SUCCESS ||
       vkBindBufferMemory(device, b->buffer, b->memory, 0) != VK_SUCCESS ||
       vkMapMemory(device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map) != VK_SUCCESS)
      return false;
   VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                   .buffer = b->buffer};
   b->address = vkGetBufferDeviceAddress(device, &ai);
   return true;
}

static void
buffer_destroy(VkDevice device, struct buffer *b)
{
   vkDestroyBuffer(device, b->buffer, NULL);
   vkFreeMemory(device, b->memory, NULL);
}

/* The record of a packed rank-1 fp32 tensor of ELEMENTS elements at `data`. */
static void
write_record(struct buffer *record, const struct buffer *data)
{
   struct vmel_tensor_record rec = {
       .address = {(uint32_t)data->address, (uint32_t)(data->address >> 32)},
       .rank = 1,
       .element_size = 4,
   };
   for (uint32_t i = 0; i < VMEL_TENSOR_MAX_RANK; i++) {
      rec.dims[i] = i ? 1 : ELEMENTS;
      rec.strides[i] = i ? 0 : 4;
   }
   memcpy(record->map, &rec, sizeof(rec));
}

/* Runs `pipeline` with the three buffers of `set` `iterations` times; median ms. */
static double
time_dispatch(struct dev *d, VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet set,
              bool push, const struct buffer *c)
{
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = d->pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd;
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkFence fence;
   if (vkAllocateCommandBuffers(d->device, &cbai, &cmd) != VK_SUCCESS)
      return -1.0;
   if (vkCreateFence(d->device, &fci, NULL, &fence) != VK_SUCCESS) {
      vkFreeCommandBuffers(d->device, d->pool, 1, &cmd);
      return -1.0;
   }
   VkCommandBufferBeginInfo cbbi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   uint32_t count = ELEMENTS;
   vkBeginCommandBuffer(cmd, &cbbi);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   if (push)
      vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &count);
   vkCmdDispatch(cmd, ELEMENTS / LOCAL_SIZE, 1, 1);
   VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                         .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
                         .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &mb, 0, NULL, 0, NULL);
   vkEndCommandBuffer(cmd);
   double t[MAX_ITERATIONS];
   bool ok = true;
   memset(c->map, 0, (size_t)ELEMENTS * 4);
   for (int i = 0; ok && i < iterations; i++) {
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cmd};
      double start = now_ms();
      ok = vkQueueSubmit(d->queue, 1, &si, fence) == VK_SUCCESS &&
           vkWaitForFences(d->device, 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS;
      t[i] = now_ms() - start;
      vkResetFences(d->device, 1, &fence);
   }
   vkDestroyFence(d->device, fence, NULL);
   vkFreeCommandBuffers(d->device, d->pool, 1, &cmd);
   return ok ? median(t, iterations) : -1.0;
}

static bool
sums_right(const struct buffer *a, const struct buffer *b, const struct buffer *c)
{
   const float *x = a->map, *y = b->map, *z = c->map;
   for (uint32_t i = 0; i < ELEMENTS; i++)
      if (z[i] != x[i] + y[i])
         return false;
   return true;
}

/* Run time of c = a + b: the hand-written buffer shader, then the lowered tensor shader. */
static bool
time_add(struct dev *d, double *buffer_ms, double *tensor_ms)
{
   struct buffer data[3], records[3];
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkPipeline buffer_pipeline = VK_NULL_HANDLE, tensor_pipeline = VK_NULL_HANDLE;
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   bool ok = true;
   memset(data, 0, sizeof(data));
   memset(records, 0, sizeof(records));
   for (int i = 0; i < 3 && ok; i++)
      ok = buffer_create(d->device, (VkDeviceSize)ELEMENTS * 4, &data[i]) &&
           buffer_create(d->device, VMEL_TENSOR_RECORD_SIZE, &records[i]);
   if (ok) {
      float *a = data[0].map, *b = data[1].map;
      for (uint32_t i = 0; i < ELEMENTS; i++) {
         a[i] = 0.5f * (float)i;
         b[i] = 1000.0f - (float)(i % 4096);
      }
      for (int i = 0; i < 3; i++)
         write_record(&records[i], &data[i]);
   }
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 6};
   VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = 2,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   VkDescriptorSet sets[2];
   VkDescriptorSetLayout layouts[2] = {d->buffer_set_layout, d->buffer_set_layout};
   VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorSetCount = 2,
                                       .pSetLayouts = layouts};
   ok = ok && vkCreateDescriptorPool(d->device, &dpci, NULL, &pool) == VK_SUCCESS;
   dsai.descriptorPool = pool;
   ok = ok && vkAllocateDescriptorSets(d->device, &dsai, sets) == VK_SUCCESS;
   for (int s = 0; s < 2 && ok; s++) {
      const struct buffer *src = s ? records : data; /* set 1: the tensors' records */
      VkDescriptorBufferInfo infos[3];
      for (int i = 0; i < 3; i++)
         infos[i] = (VkDescriptorBufferInfo){src[i].buffer, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .dstSet = sets[s],
                                .descriptorCount = 3,
                                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                .pBufferInfo = infos};
      vkUpdateDescriptorSets(d->device, 1, &w, 0, NULL);
   }
   const struct vmel_kernel *k = &bench_kernels[BENCH_KERNEL_ADD_BUFFER];
   ok = ok && create_pipeline(d, k->code, k->word_count, d->buffer_layout, &buffer_pipeline) >= 0;
   ok = ok && spirv_text_assemble(add_tensor_shader, strlen(add_tensor_shader), &words, &count, err,
                                  sizeof(err));
   ok = ok && create_pipeline(d, words, count, d->buffer_layout, &tensor_pipeline) >= 0;
   if (ok) {
      *buffer_ms = time_dispatch(d, buffer_pipeline, d->buffer_layout, sets[0], true, &data[2]);
      if (!sums_right(&data[0], &data[1], &data[2]))
         *buffer_ms = -1.0;
      *tensor_ms = time_dispatch(d, tensor_pipeline, d->buffer_layout, sets[1], false, &data[2]);
      if (!sums_right(&data[0], &data[1], &data[2]))
         *tensor_ms = -1.0;
      ok = *buffer_ms >= 0 && *tensor_ms >= 0;
   }
   free(words);
   vkDestroyPipeline(d->device, tensor_pipeline, NULL);
   vkDestroyPipeline(d->device, buffer_pipeline, NULL);
   vkDestroyDescriptorPool(d->device, pool, NULL);
   for (int i = 0; i < 3; i++) {
      buffer_destroy(d->device, &data[i]);
      buffer_destroy(d->device, &records[i]);
   }
   return ok;
}

int
main(int argc, char **argv)
{
   int first_case = 1;
   if (argc > 1 && atoi(argv[1]) > 0) {
      iterations = atoi(argv[1]);
      first_case = 2;
   }
   if (iterations > MAX_ITERATIONS)
      iterations = MAX_ITERATIONS;
   const char *const *cases = default_cases;
   int case_count = (int)(sizeof(default_cases) / sizeof(default_cases[0]));
   if (argc > first_case) {
      cases = (const char *const *)argv + first_case;
      case_count = argc - first_case;
   }
   setenv("VK_LAYER_PATH", VMEL_BUILD_MANIFESTS, 0);
   /* Every compile is measured: no driver disk caches (Mesa, NVIDIA). */
   setenv("MESA_SHADER_CACHE_DISABLE", "true", 0);
   setenv("__GL_SHADER_DISK_CACHE", "0", 0);
   if (!instance_init())
      return 1;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(physical, &props);
   const char *threads = getenv("LP_NUM_THREADS");
   printf("device: %s (LP_NUM_THREADS=%s), %d iterations, medians\n", props.deviceName,
          threads ? threads : "unset", iterations);

   struct dev devs[2] = {{0}};
   bool have = device_init(&devs[0], "1", "direct") && device_init(&devs[1], "0", "GLSL");
   int status = have ? 0 : 1;

   if (have) {
      /* The first round trip of the GLSL device builds glslang's symbol tables. */
      size_t count = 0;
      uint32_t *words = load_case(cases[0], &count);
      double first[2] = {-1.0, -1.0};
      for (int m = 0; words && m < 2; m++)
         first[m] = create_pipeline(&devs[m], words, count, devs[m].tensor_layout, NULL);
      printf("first pipeline of each device (%s): direct %.2f ms, GLSL %.2f ms\n\n", cases[0],
             first[0], first[1]);
      free(words);

      printf("pipeline creation, ms: driver = the direct lowering's output, no lowering\n");
      printf("%-22s %8s %8s %7s %8s %7s %11s\n", "case", "driver", "direct", "ratio", "GLSL",
             "ratio", "GLSL/direct");
      for (int c = 0; c < case_count; c++) {
         words = load_case(cases[c], &count);
         uint32_t *lowered = NULL;
         size_t lowered_count = 0;
         char err[256];
         double driver = -1, path[2] = {-1, -1};
         uint32_t salt = (uint32_t)c << 20;
         if (words && tsr_lower_tensors(words, count, NULL, &lowered, &lowered_count, err,
                                        sizeof(err)) == VK_SUCCESS) {
            driver = time_creation(&devs[0], lowered, lowered_count, salt);
            for (int m = 0; m < 2; m++)
               path[m] = time_creation(&devs[m], words, count, salt + (uint32_t)(m + 1) * 4096);
         }
         tsr_lower_free(NULL, lowered);
         free(words);
         if (driver < 0 || path[0] < 0 || path[1] < 0) {
            printf("%-22s failed (see the layer's log)\n", cases[c]);
            status = 1;
            continue;
         }
         printf("%-22s %8.3f %8.3f %6.2fx %8.3f %6.2fx %10.2fx\n", cases[c], driver, path[0],
                path[0] / driver, path[1], path[1] / driver, path[1] / path[0]);
      }

      printf("\nrun time of c = a + b over %u fp32 elements, ms\n", ELEMENTS);
      printf("%-8s %14s %14s %8s\n", "device", "buffer shader", "tensor shader", "ratio");
      for (int m = 0; m < 2; m++) {
         double buffer_ms = -1, tensor_ms = -1;
         if (!time_add(&devs[m], &buffer_ms, &tensor_ms)) {
            printf("%-8s failed\n", devs[m].name);
            status = 1;
            continue;
         }
         printf("%-8s %14.3f %14.3f %7.3fx\n", devs[m].name, buffer_ms, tensor_ms,
                tensor_ms / buffer_ms);
      }
   }
   device_finish(&devs[0]);
   device_finish(&devs[1]);
   vkDestroyInstance(instance, NULL);
   return status;
}
