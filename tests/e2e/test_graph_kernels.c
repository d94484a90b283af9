/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The TOSA graph kernels (shaders/graph/tosa/, vmel_kernels_graph) on their own, without the
 * graph layer: an instance with no layer but validation, the device's own compute pipelines
 * made from the embedded variants with the kernel ABI of include/kernel_abi/graph_kernel.h and
 * tosa_args.h (tensor records in storage buffers at set 0 binding k, descriptor count 1,
 * element 0; work count, tensor counts and indices, attributes as specialization constants;
 * a 2D grid of 1D workgroups), and every result compared with the CPU reference
 * (tests/reference, vmel_tosa_ref):
 *   - integer results, RESHAPE, CONCAT and RESCALE SINGLE/DOUBLE_ROUND bit for bit;
 *   - ADD/SUB/MUL on floats within 0.5 ulp of the fp64 result (tosa_reference_check_fp),
 *     CLAMP and MAX_POOL2D on floats exactly (NaN as the NaN mode says; zero sign and
 *     subnormal flushing free), CONV2D and MATMUL on floats with TOSA 1.0.1's dot-product
 *     accuracy requirements, RESCALE INEXACT_ROUND within its range: the bounds
 *     tosa_ref_tolerance() states for each operator and output type.
 * Tensors live at strided (non-packed) layouts in one host-visible buffer; bytes of an output
 * allocation that are not elements must keep their fill pattern. Every variant of the library
 * runs at least once (the _fp16arith ones where the device has shaderFloat16). A first part
 * checks the type layer's float conversions (shaders/common/dg_float.glsl) through a test
 * kernel against the reference's: every fp16/bf16 and fp8 bit pattern decoded, and fp32
 * values around every rounding tie, overflow threshold and subnormal boundary encoded.
 */
#include <math.h>
#include <stdlib.h>
#include <time.h>

#include "kernel_abi/graph_kernel.h"
#include "kernel_abi/tensor_record.h"
#include "kernel_abi/tosa_args.h"
#include "test.h"
#include "tosa_ref.h"
#include "vkutil.h"
#include "vmel_kernels_graph.h"
#include "vmel_kernels_test_graph.h"

TEST_MAIN_STATE;

#define ARENA_SIZE (24u << 20)
#define ARENA_ALIGN 256u
#define FILL_BYTE 0xa5
#define MAX_TENSORS 4
#define MAX_ATTRS 16
#define MAX_REPORTED 6

static struct vku v;
static VkDevice device;
static VkQueue queue;
static uint32_t family;
static VkCommandPool cmd_pool;
static VkCommandBuffer cmd;
static VkFence fence;
static VkDescriptorPool desc_pool;
static VkDescriptorSetLayout set_layouts[MAX_TENSORS + 1];
static VkPipelineLayout pipeline_layouts[MAX_TENSORS + 1];
static VkShaderModule modules[DG_KERNEL_COUNT];
static bool ran[DG_KERNEL_COUNT];
static bool have_fp16arith;
static uint32_t grid_x_max = 65535; /* workgroups along x before a new row of the 2D grid */
static uint32_t seed = 20260101;

static VkBuffer arena;
static VkDeviceMemory arena_memory;
static uint8_t *arena_map;
static VkDeviceAddress arena_address;
static VkDeviceSize arena_used;

/* ---- small helpers ------------------------------------------------------------------------- */

static uint32_t
next_random(void)
{
   seed = seed * 1664525u + 1013904223u;
   return seed >> 8 | (seed << 24);
}

/* Uniform in [lo, hi]. */
static int64_t
random_int(int64_t lo, int64_t hi)
{
   uint64_t r = ((uint64_t)next_random() << 32) | next_random();
   return lo + (int64_t)(r % (uint64_t)(hi - lo + 1));
}

static double
random_double(double lo, double hi)
{
   return lo + (hi - lo) * (double)(next_random() % 1000001u) / 1000000.0;
}

static struct ref_tensor *
tensor(enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   struct ref_tensor *t = ref_tensor_create(dtype, rank, shape);
   if (!t) {
      fprintf(stderr, "ref_tensor_create failed\n");
      exit(1);
   }
   return t;
}

#define SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define RANK(...) ((uint32_t)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))
#define TENSOR(dtype, ...) tensor(dtype, RANK(__VA_ARGS__), SHAPE(__VA_ARGS__))

static void
fill_int(struct ref_tensor *t, int64_t lo, int64_t hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_int(t, i, random_int(lo, hi));
}

static void
fill_fp(struct ref_tensor *t, double lo, double hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_fp(t, i, random_double(lo, hi));
}

/* Special values at a few spread positions: NaN, infinities, signed zeros, the largest
 * finite value and (fp16, fp8) the smallest subnormal. */
static void
add_specials(struct ref_tensor *t)
{
   double max = ref_dtype_normal_max(t->dtype);
   double sub = t->dtype == REF_DTYPE_FP16      ? ldexp(1.0, -24)
                : t->dtype == REF_DTYPE_FP8E4M3 ? ldexp(1.0, -9)
                : t->dtype == REF_DTYPE_FP8E5M2 ? ldexp(1.0, -16)
                                                : 0.0;
   const double specials[] = {NAN, INFINITY, -INFINITY, -0.0, 0.0, max, -max, sub, -sub};
   unsigned n = sizeof(specials) / sizeof(specials[0]);
   for (unsigned i = 0; i < n && (int64_t)i * 7 < t->count; i++)
      ref_tensor_set_fp(t, (int64_t)(i * 7 + 3) % t->count, specials[i]);
}

static struct ref_tensor *
scalar_int(enum ref_dtype dtype, int64_t value)
{
   struct ref_tensor *t = TENSOR(dtype, 1);
   ref_tensor_set_int(t, 0, value);
   return t;
}

static void
destroy_all(struct ref_tensor **ts, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      ref_tensor_destroy(ts[i]);
}

/* ---- device and arena ---------------------------------------------------------------------- */

static bool
init_device(void)
{
   VkPhysicalDeviceVulkan12Features q12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
   VkPhysicalDeviceVulkan11Features q11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &q12};
   VkPhysicalDeviceFeatures2 q = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                  .pNext = &q11};
   vkGetPhysicalDeviceFeatures2(v.physical_device, &q);
   if (!q12.bufferDeviceAddress || !q12.storageBuffer8BitAccess ||
       !q11.storageBuffer16BitAccess || !q.features.shaderInt64) {
      printf("SKIP: the graph kernels need bufferDeviceAddress, 8/16-bit storage and "
             "shaderInt64\n");
      return false;
   }
   have_fp16arith = q12.shaderFloat16;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(v.physical_device, &props);
   printf("device: %s (shaderFloat16 %s)\n", props.deviceName, have_fp16arith ? "yes" : "no");

   VkPhysicalDeviceVulkan12Features f12 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
      .bufferDeviceAddress = VK_TRUE,
      .storageBuffer8BitAccess = VK_TRUE,
      .shaderFloat16 = have_fp16arith,
   };
   VkPhysicalDeviceVulkan11Features f11 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
      .pNext = &f12,
      .storageBuffer16BitAccess = VK_TRUE,
   };
   VkPhysicalDeviceFeatures2 f = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
      .pNext = &f11,
      .features = {.shaderInt64 = VK_TRUE},
   };
   if (!ok(vku_create_device(&v, NULL, 0, &f, &device) == VK_SUCCESS, "vkCreateDevice"))
      return false;
   /* vku_create_device takes the first compute family. */
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, NULL);
   VkQueueFamilyProperties fams[16];
   n = n > 16 ? 16 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, fams);
   family = 0;
   while (family < n && !(fams[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      family++;
   vkGetDeviceQueue(device, family, 0, &queue);

   VkCommandPoolCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
      .queueFamilyIndex = family,
   };
   VkCommandBufferAllocateInfo cai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16};
   VkDescriptorPoolCreateInfo dpi = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 2,
      .poolSizeCount = 1,
      .pPoolSizes = &size,
   };
   if (!ok(vkCreateCommandPool(device, &cpi, NULL, &cmd_pool) == VK_SUCCESS, "command pool"))
      return false;
   cai.commandPool = cmd_pool;
   if (!ok(vkAllocateCommandBuffers(device, &cai, &cmd) == VK_SUCCESS, "command buffer") ||
       !ok(vkCreateFence(device, &fci, NULL, &fence) == VK_SUCCESS, "fence") ||
       !ok(vkCreateDescriptorPool(device, &dpi, NULL, &desc_pool) == VK_SUCCESS, "pool"))
      return false;

   /* Set layouts and pipeline layouts for 1..MAX_TENSORS storage buffers, no push constants
    * (graph_kernel.h); index 0 is the conversion kernel's (two buffers, one push word). */
   for (uint32_t n_bindings = 1; n_bindings <= MAX_TENSORS; n_bindings++) {
      VkDescriptorSetLayoutBinding bindings[MAX_TENSORS];
      for (uint32_t k = 0; k < n_bindings; k++)
         bindings[k] = (VkDescriptorSetLayoutBinding){
            .binding = k,
            .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
            .descriptorCount = 1,
            .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
         };
      VkDescriptorSetLayoutCreateInfo sli = {
         .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
         .bindingCount = n_bindings,
         .pBindings = bindings,
      };
      VkPushConstantRange push = {VK_SHADER_STAGE_COMPUTE_BIT, 0, 4};
      VkPipelineLayoutCreateInfo pli = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
         .setLayoutCount = 1,
         .pSetLayouts = &set_layouts[n_bindings],
      };
      if (!ok(vkCreateDescriptorSetLayout(device, &sli, NULL, &set_layouts[n_bindings]) ==
                 VK_SUCCESS,
              "set layout"))
         return false;
      if (!ok(vkCreatePipelineLayout(device, &pli, NULL, &pipeline_layouts[n_bindings]) ==
                 VK_SUCCESS,
              "pipeline layout"))
         return false;
      if (n_bindings == 2) {
         set_layouts[0] = set_layouts[2];
         pli.pushConstantRangeCount = 1;
         pli.pPushConstantRanges = &push;
         if (!ok(vkCreatePipelineLayout(device, &pli, NULL, &pipeline_layouts[0]) == VK_SUCCESS,
                 "pipeline layout"))
            return false;
      }
   }

   /* The arena: one host-visible buffer with a device address for every tensor and record. */
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = ARENA_SIZE,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (!ok(vkCreateBuffer(device, &bci, NULL, &arena) == VK_SUCCESS, "arena buffer"))
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(device, arena, &req);
   uint32_t type = vku_host_memory_type(&v, req.memoryTypeBits);
   VkMemoryAllocateFlagsInfo flags = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .pNext = &flags,
      .allocationSize = req.size,
      .memoryTypeIndex = type,
   };
   void *map;
   if (!ok(type != UINT32_MAX, "no host-visible coherent memory type") ||
       !ok(vkAllocateMemory(device, &mai, NULL, &arena_memory) == VK_SUCCESS, "arena memory") ||
       !ok(vkBindBufferMemory(device, arena, arena_memory, 0) == VK_SUCCESS, "bind arena") ||
       !ok(vkMapMemory(device, arena_memory, 0, VK_WHOLE_SIZE, 0, &map) == VK_SUCCESS, "map"))
      return false;
   arena_map = map;
   VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                   .buffer = arena};
   arena_address = vkGetBufferDeviceAddress(device, &ai);
   return ok(arena_address != 0, "buffer device address");
}

static void
finish_device(void)
{
   if (!device)
      return;
   vkDeviceWaitIdle(device);
   for (unsigned i = 0; i < DG_KERNEL_COUNT; i++)
      if (modules[i])
         vkDestroyShaderModule(device, modules[i], NULL);
   if (pipeline_layouts[0])
      vkDestroyPipelineLayout(device, pipeline_layouts[0], NULL);
   for (unsigned i = 1; i <= MAX_TENSORS; i++) {
      if (pipeline_layouts[i])
         vkDestroyPipelineLayout(device, pipeline_layouts[i], NULL);
      if (set_layouts[i])
         vkDestroyDescriptorSetLayout(device, set_layouts[i], NULL);
   }
   if (arena)
      vkDestroyBuffer(device, arena, NULL);
   if (arena_memory)
      vkFreeMemory(device, arena_memory, NULL);
   if (desc_pool)
      vkDestroyDescriptorPool(device, desc_pool, NULL);
   if (fence)
      vkDestroyFence(device, fence, NULL);
   if (cmd_pool)
      vkDestroyCommandPool(device, cmd_pool, NULL);
   vkDestroyDevice(device, NULL);
   device = VK_NULL_HANDLE;
}

static VkDeviceSize
arena_alloc(VkDeviceSize size)
{
   VkDeviceSize offset = (arena_used + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN;
   if (offset + size > ARENA_SIZE) {
      fprintf(stderr, "arena exhausted\n");
      exit(1);
   }
   arena_used = offset + size;
   return offset;
}

/* Records one dispatch of `pipeline` with `set` over groups workgroups (2D grid), submits it
 * and waits; the shader's writes are made visible to the host. */
static bool
submit(VkPipeline pipeline, VkPipelineLayout layout, VkDescriptorSet set, uint32_t groups,
       const uint32_t *push)
{
   uint32_t x = groups < grid_x_max ? groups : grid_x_max;
   uint32_t y = x ? (groups + x - 1) / x : 0;
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   vkResetCommandBuffer(cmd, 0);
   vkBeginCommandBuffer(cmd, &bi);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
   if (push)
      vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, push);
   if (x && y)
      vkCmdDispatch(cmd, x, y, 1);
   VkMemoryBarrier barrier = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                        1, &barrier, 0, NULL, 0, NULL);
   vkEndCommandBuffer(cmd);
   VkSubmitInfo si = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
   };
   vkResetFences(device, 1, &fence);
   if (!ok(vkQueueSubmit(queue, 1, &si, fence) == VK_SUCCESS, "vkQueueSubmit"))
      return false;
   return ok(vkWaitForFences(device, 1, &fence, VK_TRUE, UINT64_MAX) == VK_SUCCESS, "wait");
}

static VkDescriptorSet
alloc_set(uint32_t layout_index)
{
   VkDescriptorSet set = VK_NULL_HANDLE;
   vkResetDescriptorPool(device, desc_pool, 0);
   VkDescriptorSetAllocateInfo ai = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = desc_pool,
      .descriptorSetCount = 1,
      .pSetLayouts = &set_layouts[layout_index],
   };
   if (vkAllocateDescriptorSets(device, &ai, &set) != VK_SUCCESS)
      return VK_NULL_HANDLE;
   return set;
}

static void
write_buffer(VkDescriptorSet set, uint32_t binding, VkDeviceSize offset, VkDeviceSize range)
{
   VkDescriptorBufferInfo info = {arena, offset, range};
   VkWriteDescriptorSet w = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstSet = set,
      .dstBinding = binding,
      .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .pBufferInfo = &info,
   };
   vkUpdateDescriptorSets(device, 1, &w, 0, NULL);
}

/* ---- kernel tensors ------------------------------------------------------------------------ */

/* A tensor as a kernel sees it: the reference tensor's data at a strided layout in the arena
 * (gap elements after every element of the last dimension and after every row), and its
 * record. */
struct gtensor {
   const struct ref_tensor *ref;
   uint32_t gap;
   VkDeviceSize offset; /* of the allocation in the arena */
   VkDeviceSize size;
   VkDeviceSize record_offset;
   struct vmel_tensor_record record;
};

static void
gtensor_place(struct gtensor *g, const struct ref_tensor *t, uint32_t gap)
{
   memset(g, 0, sizeof(*g));
   g->ref = t;
   g->gap = gap;
   uint32_t esize = (uint32_t)ref_dtype_size(t->dtype);
   uint32_t rank = t->rank ? t->rank : 1;
   struct vmel_tensor_record *r = &g->record;
   r->rank = rank;
   r->element_size = esize;
   for (uint32_t d = 0; d < VMEL_TENSOR_MAX_RANK; d++) {
      r->dims[d] = d < rank ? (uint32_t)t->shape[d] : 1;
      r->strides[d] = 0;
   }
   r->strides[rank - 1] = esize * (1 + gap);
   for (uint32_t d = rank - 1; d > 0; d--)
      r->strides[d - 1] = r->strides[d] * r->dims[d] + gap * esize;
   g->size = (VkDeviceSize)r->strides[0] * r->dims[0] + 64;
   g->offset = arena_alloc(g->size);
   memset(arena_map + g->offset, FILL_BYTE, g->size);
   VkDeviceAddress address = arena_address + g->offset;
   r->address[0] = (uint32_t)address;
   r->address[1] = (uint32_t)(address >> 32);
   g->record_offset = arena_alloc(VMEL_TENSOR_RECORD_SIZE);
   memcpy(arena_map + g->record_offset, r, sizeof(*r));
}

/* Byte offset of element i (row-major) in the allocation. */
static VkDeviceSize
gtensor_element(const struct gtensor *g, int64_t i)
{
   VkDeviceSize offset = 0;
   for (int d = (int)g->record.rank - 1; d >= 0; d--) {
      offset += (VkDeviceSize)(i % g->record.dims[d]) * g->record.strides[d];
      i /= g->record.dims[d];
   }
   return offset;
}

static void
gtensor_upload(const struct gtensor *g)
{
   size_t esize = ref_dtype_size(g->ref->dtype);
   for (int64_t i = 0; i < g->ref->count; i++)
      memcpy(arena_map + g->offset + gtensor_element(g, i),
             (const uint8_t *)g->ref->data + i * (int64_t)esize, esize);
}

/* The kernel's output as a packed tensor; checks that no other byte changed. */
static struct ref_tensor *
gtensor_download(const struct gtensor *g)
{
   struct ref_tensor *t = tensor(g->ref->dtype, g->ref->rank, g->ref->shape);
   size_t esize = ref_dtype_size(t->dtype);
   uint8_t *mask = calloc(g->size, 1);
   for (int64_t i = 0; i < t->count; i++) {
      VkDeviceSize at = gtensor_element(g, i);
      memcpy((uint8_t *)t->data + i * (int64_t)esize, arena_map + g->offset + at, esize);
      memset(mask + at, 1, esize);
   }
   VkDeviceSize stray = 0;
   for (VkDeviceSize b = 0; b < g->size; b++)
      stray += !mask[b] && arena_map[g->offset + b] != FILL_BYTE;
   free(mask);
   ok(stray == 0, "%" PRIu64 " bytes outside the output's elements were written", (uint64_t)stray);
   return t;
}

/* Dispatches `variant` over the placed tensors g[0..n) (graph_kernel.h: tensor k at binding k)
 * with the attributes (a struct dg_*_args) and `work` work items, and waits. */
static bool
dispatch_kernel(const char *variant, const struct gtensor *g, unsigned n, const void *args,
                size_t args_size, uint32_t work)
{
   const struct vmel_kernel *k = vmel_kernel_find(dg_kernels, DG_KERNEL_COUNT, variant);
   if (!ok(k != NULL, "no variant %s", variant))
      return false;
   unsigned id = (unsigned)(k - dg_kernels);
   ok(k->local_size[0] == VMEL_GRAPH_LOCAL_SIZE && k->local_size[1] == 1 &&
         k->local_size[2] == 1,
      "%s: workgroup size %ux%ux%u", variant, k->local_size[0], k->local_size[1],
      k->local_size[2]);
   ran[id] = true;
   if (!modules[id]) {
      VkShaderModuleCreateInfo smi = {
         .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
         .codeSize = (size_t)k->word_count * 4,
         .pCode = k->code,
      };
      if (!ok(vkCreateShaderModule(device, &smi, NULL, &modules[id]) == VK_SUCCESS,
              "%s: vkCreateShaderModule", variant))
         return false;
   }

   /* Specialization constants: work count, tensor counts and indices, attributes. */
   VkSpecializationMapEntry entries[1 + 2 * MAX_TENSORS + MAX_ATTRS];
   uint32_t data[1 + 2 * MAX_TENSORS + MAX_ATTRS];
   uint32_t count = 0;
#define ENTRY(id_, value_)                                                                         \
   do {                                                                                            \
      entries[count] = (VkSpecializationMapEntry){(id_), count * 4, 4};                            \
      data[count++] = (value_);                                                                    \
   } while (0)
   ENTRY(VMEL_SC_WORK_COUNT, work);
   for (unsigned t = 0; t < n; t++) {
      ENTRY(VMEL_SC_TENSOR_COUNT(t), 1);
      ENTRY(VMEL_SC_TENSOR_INDEX(t), 0);
   }
   const uint32_t *words = args;
   for (uint32_t a = 0; a < args_size / 4 && a < MAX_ATTRS; a++)
      ENTRY(VMEL_SC_ATTR(a), words[a]);
#undef ENTRY
   VkSpecializationInfo spec = {
      .mapEntryCount = count,
      .pMapEntries = entries,
      .dataSize = count * 4,
      .pData = data,
   };
   VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {
         .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
         .stage = VK_SHADER_STAGE_COMPUTE_BIT,
         .module = modules[id],
         .pName = "main",
         .pSpecializationInfo = &spec,
      },
      .layout = pipeline_layouts[n],
   };
   VkPipeline pipeline;
   if (!ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline) ==
              VK_SUCCESS,
           "%s: vkCreateComputePipelines", variant))
      return false;
   VkDescriptorSet set = alloc_set(n);
   for (unsigned t = 0; t < n; t++)
      write_buffer(set, t, g[t].record_offset, VMEL_TENSOR_RECORD_SIZE);
   uint32_t groups = (work + VMEL_GRAPH_LOCAL_SIZE - 1) / VMEL_GRAPH_LOCAL_SIZE;
   bool submitted = submit(pipeline, pipeline_layouts[n], set, groups, NULL);
   vkDestroyPipeline(device, pipeline, NULL);
   return submitted;
}

/* Runs `variant` over tensors ts (inputs first, the output last, whose dtype and shape the
 * caller set) laid out with gaps[i] (NULL: packed) and returns the output (NULL on failure).
 * One work item per output element unless work is given (non-zero). */
static struct ref_tensor *
run_kernel(const char *variant, struct ref_tensor *const *ts, const uint32_t *gaps, unsigned n,
           const void *args, size_t args_size, uint32_t work)
{
   arena_used = 0;
   struct gtensor g[MAX_TENSORS];
   for (unsigned i = 0; i < n; i++) {
      gtensor_place(&g[i], ts[i], gaps ? gaps[i] : 0);
      if (i + 1 < n)
         gtensor_upload(&g[i]);
   }
   if (!work)
      work = (uint32_t)ts[n - 1]->count;
   if (!dispatch_kernel(variant, g, n, args, args_size, work))
      return NULL;
   return gtensor_download(&g[n - 1]);
}

/* ---- comparisons --------------------------------------------------------------------------- */

static void
print_value(const struct ref_tensor *t, int64_t i, char *buf, size_t size)
{
   if (ref_dtype_is_float(t->dtype))
      snprintf(buf, size, "%.9g (0x%" PRIx64 ")", ref_tensor_get_fp(t, i),
               ref_tensor_get_bits(t, i));
   else
      snprintf(buf, size, "%" PRId64, ref_tensor_get_int(t, i));
}

static void
report(const char *what, const struct ref_tensor *gpu, const struct ref_tensor *ref, int64_t i,
       unsigned *failures)
{
   if ((*failures)++ >= MAX_REPORTED)
      return;
   char a[64], b[64];
   print_value(gpu, i, a, sizeof(a));
   print_value(ref, i, b, sizeof(b));
   fprintf(stderr, "  %s: element %" PRId64 ": kernel %s, reference %s\n", what, i, a, b);
}

/* Checks a kernel output against the reference with the tolerance TOSA 1.0.1 states for `op`
 * (tosa_ref_tolerance); `ref` is the reference output (FP64 for TOSA_REF_TOL_ULP). */
static void
compare(const char *what, enum tosa_ref_op op, const struct ref_tensor *gpu,
        const struct ref_tensor *ref)
{
   if (!ok(gpu != NULL, "%s: no result", what))
      return;
   struct tosa_ref_tolerance tol = tosa_ref_tolerance(op, gpu->dtype, TOSA_REF_ROUND_SINGLE);
   unsigned failures = 0;
   for (int64_t i = 0; i < gpu->count; i++) {
      bool good;
      switch (tol.kind) {
      case TOSA_REF_TOL_FP_EXACT:
         good = tosa_ref_check_fp_exact(gpu->dtype, ref_tensor_get_fp(gpu, i),
                                        ref_tensor_get_fp(ref, i));
         break;
      case TOSA_REF_TOL_ULP:
         good = tosa_ref_check_fp(gpu->dtype, ref_tensor_get_fp(gpu, i),
                                  ref_tensor_get_fp(ref, i), tol.ulp);
         break;
      default:
         good = ref_tensor_get_bits(gpu, i) == ref_tensor_get_bits(ref, i);
         break;
      }
      if (!good)
         report(what, gpu, ref, i, &failures);
   }
   ok(failures == 0, "%s: %u of %" PRId64 " elements differ (%s)", what, failures, gpu->count,
      tol.source);
}

static bool
ref_ok(const char *what, int status)
{
   return ok(status == TOSA_REF_OK, "%s: reference says %s: %s", what,
             tosa_ref_status_name(status), tosa_ref_last_message());
}

/* ---- float conversions of the type layer --------------------------------------------------- */

#define CONVERT_RESULTS 10

static bool
same_fp32(uint32_t got, uint32_t want)
{
   bool got_nan = (got & 0x7fffffffu) > 0x7f800000u;
   bool want_nan = (want & 0x7fffffffu) > 0x7f800000u;
   if (want_nan)
      return got_nan && (got >> 31) == (want >> 31);
   return got == want;
}

/* Result j of the conversion kernel: fp16 and bf16 NaNs may differ in payload only (the fp8
 * NaNs the reference gives are the canonical ones the kernels give too). */
static bool
same_small(unsigned j, uint32_t got, uint32_t want)
{
   uint32_t exp_mask = j == 0 ? 0x7c00u : 0x7f80u;
   bool want_nan = j < 2 && (want & exp_mask) == exp_mask && (want & ~exp_mask & 0x7fffu);
   bool got_nan = j < 2 && (got & exp_mask) == exp_mask && (got & ~exp_mask & 0x7fffu);
   if (want_nan)
      return got_nan && (got & 0x8000u) == (want & 0x8000u);
   return got == want;
}

static void
test_conversions(void)
{
   test_set_context("conversions");
   const struct vmel_kernel *k = vmel_kernel_find(test_graph_kernels, TEST_GRAPH_KERNEL_COUNT,
                                                  "dg_convert");
   if (!ok(k != NULL, "no dg_convert kernel"))
      return;

   /* Inputs: every 16-bit low half (all fp16/bf16/fp8 patterns) under random high halves,
    * then fp32 values around each format's rounding ties and thresholds. */
   uint32_t cap = 65536 + 64 * 2 * 8 * 4 * 3 + 64;
   uint32_t *in = malloc(cap * sizeof(*in));
   uint32_t n = 0;
   for (uint32_t i = 0; i < 65536; i++)
      in[n++] = (next_random() & 0xffff0000u) | i;
   /* Dropped-bit widths: e5m2 21, e4m3 20, fp16 13, bf16 16 (normal range; the exponent sweep
    * reaches each format's subnormals and overflow). */
   const uint32_t drops[] = {21, 20, 13, 16};
   for (uint32_t e = 96; e < 160; e++) {
      for (uint32_t s = 0; s < 2; s++) {
         for (uint32_t d = 0; d < 4; d++) {
            uint32_t half = 1u << (drops[d] - 1);
            const uint32_t tails[] = {half, half - 1, half + 1, 0, half, half * 2 - 1, half,
                                      half * 3};
            for (uint32_t t = 0; t < 8; t++) {
               uint32_t mask = (2u * half) - 1u;
               uint32_t m = ((next_random() & 0x7fffffu) & ~mask) | (tails[t] & 0x7fffffu);
               in[n++] = (s << 31) | (e << 23) | m;
            }
         }
      }
   }
   const uint32_t specials[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
      0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff, 0x477fe000, 0x477fefff, 0x477ff000,
      0x477ff001, 0x47800000, 0x33000000, 0x33000001, 0x33800000, 0xb3000000, 0x43e00000,
      0x43e80000, 0x43e80001, 0x43f00000, 0xc3e80000, 0x47600000, 0x47700000, 0x47700001,
      0x3b000000, 0x3a800000, 0x3a800001, 0x37800000, 0x37000000, 0x37000001, 0x37400000,
      0x7f7f8000, 0x7f7f7fff, 0x00008000, 0x00018000, 0x0000c000,
   };
   for (uint32_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++)
      in[n++] = specials[i];

   arena_used = 0;
   VkDeviceSize in_off = arena_alloc((VkDeviceSize)n * 4);
   VkDeviceSize out_off = arena_alloc((VkDeviceSize)n * 4 * CONVERT_RESULTS);
   memcpy(arena_map + in_off, in, (size_t)n * 4);
   memset(arena_map + out_off, 0, (size_t)n * 4 * CONVERT_RESULTS);

   VkShaderModuleCreateInfo smi = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = (size_t)k->word_count * 4,
      .pCode = k->code,
   };
   VkShaderModule module;
   VkPipeline pipeline = VK_NULL_HANDLE;
   if (!ok(vkCreateShaderModule(device, &smi, NULL, &module) == VK_SUCCESS, "module")) {
      free(in);
      return;
   }
   VkComputePipelineCreateInfo cpi = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main"},
      .layout = pipeline_layouts[0],
   };
   bool done = ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpi, NULL, &pipeline) ==
                     VK_SUCCESS,
                  "pipeline");
   if (done) {
      VkDescriptorSet set = alloc_set(0);
      write_buffer(set, 0, in_off, (VkDeviceSize)n * 4);
      write_buffer(set, 1, out_off, (VkDeviceSize)n * 4 * CONVERT_RESULTS);
      done = submit(pipeline, pipeline_layouts[0], set, (n + 63) / 64, &n);
   }
   if (done) {
      const uint32_t *out = (const uint32_t *)(arena_map + out_off);
      unsigned failures[CONVERT_RESULTS] = {0};
      static const char *const names[CONVERT_RESULTS] = {
         "fp32->fp16",          "fp32->bf16",          "fp32->fp8e4m3",
         "fp32->fp8e4m3 (sat)", "fp32->fp8e5m2",       "fp32->fp8e5m2 (sat)",
         "fp16->fp32",          "bf16->fp32",          "fp8e4m3->fp32",
         "fp8e5m2->fp32"};
      for (uint32_t i = 0; i < n; i++) {
         float f;
         memcpy(&f, &in[i], 4);
         uint32_t want[CONVERT_RESULTS];
         float d[4] = {ref_fp16_to_fp32((uint16_t)in[i]), ref_bf16_to_fp32((uint16_t)in[i]),
                       ref_fp8e4m3_to_fp32((uint8_t)in[i]), ref_fp8e5m2_to_fp32((uint8_t)in[i])};
         want[0] = ref_fp32_to_fp16(f);
         want[1] = ref_fp32_to_bf16(f);
         want[2] = ref_fp32_to_fp8e4m3(f, false);
         want[3] = ref_fp32_to_fp8e4m3(f, true);
         want[4] = ref_fp32_to_fp8e5m2(f, false);
         want[5] = ref_fp32_to_fp8e5m2(f, true);
         for (unsigned j = 0; j < 4; j++)
            memcpy(&want[6 + j], &d[j], 4);
         for (unsigned j = 0; j < CONVERT_RESULTS; j++) {
            uint32_t got = out[i * CONVERT_RESULTS + j];
            bool good = j >= 6 ? same_fp32(got, want[j]) : same_small(j, got, want[j]);
            if (!good && failures[j]++ < MAX_REPORTED)
               fprintf(stderr, "  %s(0x%08x): kernel 0x%x, reference 0x%x\n", names[j], in[i],
                       got, want[j]);
         }
      }
      for (unsigned j = 0; j < CONVERT_RESULTS; j++)
         ok(failures[j] == 0, "%s: %u of %u values differ", names[j], failures[j], n);
   }
   if (pipeline)
      vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyShaderModule(device, module, NULL);
   free(in);
   test_set_context(NULL);
}

/* ---- ADD, SUB, MUL -------------------------------------------------------------------------- */

static uint32_t
fp32_bits(float f)
{
   uint32_t bits;
   memcpy(&bits, &f, 4);
   return bits;
}

static void
binary_case(const char *variant, int op, struct ref_tensor *a, struct ref_tensor *b,
            enum ref_dtype out_t, int32_t shift, const uint32_t *gaps)
{
   char what[96];
   snprintf(what, sizeof(what), "%s [%" PRId64 "...] x%u shift %d", variant, a->count, a->rank,
            shift);
   int64_t shape[REF_MAX_RANK];
   for (uint32_t d = 0; d < a->rank; d++)
      shape[d] = a->shape[d] > b->shape[d] ? a->shape[d] : b->shape[d];
   bool is_float = ref_dtype_is_float(out_t);
   struct ref_tensor *out = tensor(out_t, a->rank, shape);
   struct ref_tensor *ref = tensor(is_float ? REF_DTYPE_FP64 : out_t, a->rank, shape);
   struct ref_tensor *sh = scalar_int(REF_DTYPE_I8, shift);
   enum tosa_ref_op rop = op == DG_BINARY_ADD   ? TOSA_REF_OP_ADD
                          : op == DG_BINARY_SUB ? TOSA_REF_OP_SUB
                                                : TOSA_REF_OP_MUL;
   int st = rop == TOSA_REF_OP_ADD   ? tosa_ref_add(a, b, ref)
            : rop == TOSA_REF_OP_SUB ? tosa_ref_sub(a, b, ref)
                                     : tosa_ref_mul(a, b, sh, ref);
   if (ref_ok(what, st)) {
      struct dg_binary_args args = {.shift = shift};
      struct ref_tensor *ts[3] = {a, b, out};
      struct ref_tensor *gpu = run_kernel(variant, ts, gaps, 3, &args, sizeof(args), 0);
      compare(what, rop, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {out, ref, sh};
   destroy_all(all, 3);
}

static void
fill_binary_input(struct ref_tensor *t, int op, int32_t shift)
{
   switch (t->dtype) {
   case REF_DTYPE_I8:
      fill_int(t, -128, 127);
      break;
   case REF_DTYPE_I16:
      fill_int(t, -32768, 32767);
      break;
   case REF_DTYPE_I32:
      if (op != DG_BINARY_MUL)
         fill_int(t, -(1 << 30), 1 << 30); /* no overflow: that is a REQUIRE */
      else if (shift == 0)
         fill_int(t, INT32_MIN, INT32_MAX); /* the low 32 bits: defined for any value */
      else
         fill_int(t, -((int64_t)1 << (shift > 32 ? 30 : (31 + shift) / 2 - 1)),
                  (int64_t)1 << (shift > 32 ? 30 : (31 + shift) / 2 - 1));
      break;
   default:
      fill_fp(t, -4.0, 4.0);
      add_specials(t);
      break;
   }
}

static void
test_binary(void)
{
   static const struct {
      const char *variant;
      int op;
      enum ref_dtype in, out;
   } rows[] = {
      {"tosa_add_i32", DG_BINARY_ADD, REF_DTYPE_I32, REF_DTYPE_I32},
      {"tosa_add_fp16", DG_BINARY_ADD, REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_add_bf16", DG_BINARY_ADD, REF_DTYPE_BF16, REF_DTYPE_BF16},
      {"tosa_add_fp32", DG_BINARY_ADD, REF_DTYPE_FP32, REF_DTYPE_FP32},
      {"tosa_sub_i32", DG_BINARY_SUB, REF_DTYPE_I32, REF_DTYPE_I32},
      {"tosa_sub_fp16", DG_BINARY_SUB, REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_sub_bf16", DG_BINARY_SUB, REF_DTYPE_BF16, REF_DTYPE_BF16},
      {"tosa_sub_fp32", DG_BINARY_SUB, REF_DTYPE_FP32, REF_DTYPE_FP32},
      {"tosa_mul_i8_i32", DG_BINARY_MUL, REF_DTYPE_I8, REF_DTYPE_I32},
      {"tosa_mul_i16_i32", DG_BINARY_MUL, REF_DTYPE_I16, REF_DTYPE_I32},
      {"tosa_mul_i32", DG_BINARY_MUL, REF_DTYPE_I32, REF_DTYPE_I32},
      {"tosa_mul_fp16", DG_BINARY_MUL, REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_mul_bf16", DG_BINARY_MUL, REF_DTYPE_BF16, REF_DTYPE_BF16},
      {"tosa_mul_fp32", DG_BINARY_MUL, REF_DTYPE_FP32, REF_DTYPE_FP32},
   };
   /* Shape pairs: broadcasting either way, rank 1 against [1], rank 6. */
   static const struct {
      uint32_t rank;
      int64_t a[6], b[6];
      uint32_t gaps[3];
   } shapes[] = {
      {4, {2, 3, 4, 5}, {2, 1, 4, 1}, {1, 0, 2}},
      {4, {1, 3, 1, 5}, {2, 3, 4, 5}, {0, 1, 0}},
      {1, {37}, {1}, {0, 0, 1}},
      {6, {2, 1, 2, 3, 1, 2}, {1, 2, 2, 1, 3, 2}, {0, 0, 0}},
   };
   test_set_context("binary");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      for (unsigned s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         struct ref_tensor *a = tensor(rows[r].in, shapes[s].rank, shapes[s].a);
         struct ref_tensor *b = tensor(rows[r].in, shapes[s].rank, shapes[s].b);
         fill_binary_input(a, rows[r].op, 0);
         fill_binary_input(b, rows[r].op, 0);
         grid_x_max = s == 0 ? 1 : 65535; /* the first shape: one workgroup per grid row */
         binary_case(rows[r].variant, rows[r].op, a, b, rows[r].out, 0, shapes[s].gaps);
         ref_tensor_destroy(a);
         ref_tensor_destroy(b);
      }
   }
   grid_x_max = 65535;

   /* MUL i32 with a shift: (a * b + (1 << (shift - 1))) >> shift in int64. Ties (products
    * that are odd multiples of 1 << (shift - 1)) of both signs round up. */
   static const int32_t shifts[] = {1, 20, 31, 40, 63};
   for (unsigned s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
      int32_t shift = shifts[s];
      struct ref_tensor *a = TENSOR(REF_DTYPE_I32, 3, 4, 5);
      struct ref_tensor *b = TENSOR(REF_DTYPE_I32, 3, 1, 5);
      fill_binary_input(a, DG_BINARY_MUL, shift);
      fill_binary_input(b, DG_BINARY_MUL, shift);
      if (shift <= 40) {
         /* a = +-2^(shift - 1 - e), b = odd * 2^e: a tie. */
         int32_t e = shift > 31 ? shift - 31 : 0;
         for (int64_t i = 0; i < a->count; i += 3)
            ref_tensor_set_int(a, i, (i & 1 ? -1 : 1) * ((int64_t)1 << (shift - 1 - e)));
         for (int64_t i = 0; i < b->count; i += 2)
            ref_tensor_set_int(b, i, (int64_t)(random_int(-7, 7) * 2 + 1) * ((int64_t)1 << e));
      }
      binary_case("tosa_mul_i32", DG_BINARY_MUL, a, b, REF_DTYPE_I32, shift,
                  (const uint32_t[]){0, 1, 0});
      ref_tensor_destroy(a);
      ref_tensor_destroy(b);
   }
   test_set_context(NULL);
}

/* ---- CLAMP ---------------------------------------------------------------------------------- */

static void
clamp_case(const char *variant, enum ref_dtype dtype, double min, double max, int nan_mode)
{
   char what[96];
   snprintf(what, sizeof(what), "%s [%g, %g] nan_mode %d", variant, min, max, nan_mode);
   struct ref_tensor *in = TENSOR(dtype, 3, 5, 7);
   struct ref_tensor *out = TENSOR(dtype, 3, 5, 7);
   struct ref_tensor *ref = TENSOR(dtype, 3, 5, 7);
   bool is_float = ref_dtype_is_float(dtype);
   struct tosa_ref_clamp_args ra = {.nan_mode = (enum tosa_ref_nan_mode)nan_mode};
   struct dg_clamp_args args = {.nan_mode = (uint32_t)nan_mode};
   if (is_float) {
      fill_fp(in, -3.0, 3.0);
      add_specials(in);
      ra.min_fp = min;
      ra.max_fp = max;
      args.min_val = fp32_bits((float)min);
      args.max_val = fp32_bits((float)max);
   } else {
      unsigned bits = ref_dtype_int_bits(dtype);
      fill_int(in, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
      ra.min_int = (int64_t)min;
      ra.max_int = (int64_t)max;
      args.min_val = (uint32_t)(int32_t)min;
      args.max_val = (uint32_t)(int32_t)max;
   }
   if (ref_ok(what, tosa_ref_clamp(&ra, in, ref))) {
      struct ref_tensor *ts[2] = {in, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){1, 2}, 2, &args, sizeof(args), 0);
      compare(what, TOSA_REF_OP_CLAMP, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, out, ref};
   destroy_all(all, 3);
}

static void
test_clamp(void)
{
   test_set_context("clamp");
   clamp_case("tosa_clamp_i8", REF_DTYPE_I8, -20, 90, DG_NAN_PROPAGATE);
   clamp_case("tosa_clamp_i8", REF_DTYPE_I8, -128, 127, DG_NAN_PROPAGATE);
   clamp_case("tosa_clamp_i8", REF_DTYPE_I8, 5, 5, DG_NAN_IGNORE);
   clamp_case("tosa_clamp_i16", REF_DTYPE_I16, -1000, 30000, DG_NAN_PROPAGATE);
   clamp_case("tosa_clamp_i16", REF_DTYPE_I16, -32768, 0, DG_NAN_IGNORE);
   static const struct {
      const char *variant;
      enum ref_dtype dtype;
   } floats[] = {
      {"tosa_clamp_fp16", REF_DTYPE_FP16},
      {"tosa_clamp_bf16", REF_DTYPE_BF16},
      {"tosa_clamp_fp32", REF_DTYPE_FP32},
   };
   for (unsigned i = 0; i < 3; i++) {
      clamp_case(floats[i].variant, floats[i].dtype, -1.5, 2.25, DG_NAN_PROPAGATE);
      clamp_case(floats[i].variant, floats[i].dtype, -1.5, 2.25, DG_NAN_IGNORE);
      clamp_case(floats[i].variant, floats[i].dtype, -INFINITY, 0.0, DG_NAN_IGNORE);
   }
   test_set_context(NULL);
}

/* ---- MAX_POOL2D ----------------------------------------------------------------------------- */

static void
max_pool2d_case(const char *variant, enum ref_dtype dtype, const int64_t *in_shape,
                const int32_t *kernel, const int32_t *stride, const int32_t *pad, int nan_mode)
{
   char what[128];
   snprintf(what, sizeof(what), "%s k%dx%d s%dx%d p%d,%d,%d,%d nan_mode %d", variant, kernel[0],
            kernel[1], stride[0], stride[1], pad[0], pad[1], pad[2], pad[3], nan_mode);
   int64_t oh = (in_shape[1] + pad[0] + pad[1] - kernel[0]) / stride[0] + 1;
   int64_t ow = (in_shape[2] + pad[2] + pad[3] - kernel[1]) / stride[1] + 1;
   int64_t out_shape[4] = {in_shape[0], oh, ow, in_shape[3]};
   struct ref_tensor *in = tensor(dtype, 4, in_shape);
   struct ref_tensor *out = tensor(dtype, 4, out_shape);
   struct ref_tensor *ref = tensor(dtype, 4, out_shape);
   if (ref_dtype_is_float(dtype)) {
      fill_fp(in, -8.0, 8.0);
      add_specials(in);
      ref_tensor_set_fp(in, 0, NAN); /* alone in the first window when the pads are 1 */
   } else {
      unsigned bits = ref_dtype_int_bits(dtype);
      fill_int(in, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
      ref_tensor_set_int(in, 0, -((int64_t)1 << (bits - 1)));
   }
   struct tosa_ref_max_pool2d_args ra = {
      .kernel = {kernel[0], kernel[1]},
      .stride = {stride[0], stride[1]},
      .pad = {pad[0], pad[1], pad[2], pad[3]},
      .nan_mode = (enum tosa_ref_nan_mode)nan_mode,
   };
   struct dg_max_pool2d_args args = {
      .kernel_y = kernel[0], .kernel_x = kernel[1],
      .stride_y = stride[0], .stride_x = stride[1],
      .pad_top = pad[0], .pad_bottom = pad[1], .pad_left = pad[2], .pad_right = pad[3],
      .nan_mode = (uint32_t)nan_mode,
   };
   if (ref_ok(what, tosa_ref_max_pool2d(&ra, in, ref))) {
      struct ref_tensor *ts[2] = {in, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){1, 1}, 2, &args, sizeof(args), 0);
      compare(what, TOSA_REF_OP_MAX_POOL2D, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, out, ref};
   destroy_all(all, 3);
}

static void
test_max_pool2d(void)
{
   static const struct {
      const char *variant;
      enum ref_dtype dtype;
   } rows[] = {
      {"tosa_max_pool2d_i8", REF_DTYPE_I8},
      {"tosa_max_pool2d_i16", REF_DTYPE_I16},
      {"tosa_max_pool2d_fp8e4m3", REF_DTYPE_FP8E4M3},
      {"tosa_max_pool2d_fp8e5m2", REF_DTYPE_FP8E5M2},
      {"tosa_max_pool2d_fp16", REF_DTYPE_FP16},
      {"tosa_max_pool2d_bf16", REF_DTYPE_BF16},
      {"tosa_max_pool2d_fp32", REF_DTYPE_FP32},
   };
   test_set_context("max_pool2d");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      max_pool2d_case(rows[r].variant, rows[r].dtype, SHAPE(2, 7, 7, 3), (const int32_t[]){3, 3},
                      (const int32_t[]){2, 2}, (const int32_t[]){1, 1, 1, 1}, DG_NAN_PROPAGATE);
      max_pool2d_case(rows[r].variant, rows[r].dtype, SHAPE(1, 5, 6, 2), (const int32_t[]){2, 3},
                      (const int32_t[]){1, 2}, (const int32_t[]){1, 0, 2, 1}, DG_NAN_IGNORE);
   }
   max_pool2d_case("tosa_max_pool2d_fp32", REF_DTYPE_FP32, SHAPE(1, 4, 4, 1),
                   (const int32_t[]){4, 4}, (const int32_t[]){1, 1}, (const int32_t[]){0, 0, 0, 0},
                   DG_NAN_IGNORE);
   test_set_context(NULL);
}

/* ---- CONV2D --------------------------------------------------------------------------------- */

struct conv_row {
   const char *variant;
   enum ref_dtype in, w, out;
   enum tosa_ref_acc_type acc;
};

struct conv_shape {
   int64_t in[4];   /* N, IH, IW, IC */
   int64_t w[4];    /* OC, KH, KW, IC */
   int64_t bias;    /* BC */
   int32_t pad[4];
   int32_t stride[2];
   int32_t dilation[2];
   int32_t input_zp, weight_zp; /* used by i8 operands only */
};

static enum ref_dtype
acc_dtype(enum tosa_ref_acc_type acc)
{
   return acc == TOSA_REF_ACC_FP16 ? REF_DTYPE_FP16
          : acc == TOSA_REF_ACC_FP32 ? REF_DTYPE_FP32
          : acc == TOSA_REF_ACC_INT48 ? REF_DTYPE_I48
                                      : REF_DTYPE_I32;
}

static void
fill_operand(struct ref_tensor *t)
{
   if (ref_dtype_is_float(t->dtype)) {
      fill_fp(t, -1.0, 1.0);
   } else if (t->dtype == REF_DTYPE_I48) {
      fill_int(t, -((int64_t)1 << 40), (int64_t)1 << 40);
   } else {
      unsigned bits = ref_dtype_int_bits(t->dtype);
      fill_int(t, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
   }
}

/* Checks a float dot-product result with TOSA 1.0.1's dot-product accuracy requirements. */
static void
check_dot(const char *what, const struct ref_tensor *gpu, const struct ref_tensor *ref64,
          const struct ref_tensor *bnd64, enum ref_dtype acc, int64_t ks)
{
   if (!ok(gpu != NULL, "%s: no result", what))
      return;
   struct tosa_ref_dot_check check = {
      .out_type = gpu->dtype, .acc_type = acc, .ks = ks, .has_bias = true, .test_set = -1};
   struct tosa_ref_dot_report rep;
   if (!ref_ok(what, tosa_ref_check_dot_product(&check, gpu, ref64, bnd64, &rep)))
      return;
   if (!rep.pass && rep.first_failure >= 0) {
      unsigned failures = 0;
      report(what, gpu, ref64, rep.first_failure, &failures);
   }
   ok(rep.pass, "%s: dot-product check failed (max |err| %g of %g, sumsq %g of %g)", what,
      rep.max_abs_err, rep.abs_bound, rep.err_sumsq, rep.variance_bound);
}

static void
conv2d_case(const struct conv_row *row, const struct conv_shape *s, uint32_t gap)
{
   char what[128];
   snprintf(what, sizeof(what), "%s in %" PRId64 "x%" PRId64 "x%" PRId64 "x%" PRId64
            " w %" PRId64 "x%" PRId64 " s%dx%d d%dx%d", row->variant, s->in[0], s->in[1],
            s->in[2], s->in[3], s->w[1], s->w[2], s->stride[0], s->stride[1], s->dilation[0],
            s->dilation[1]);
   struct tosa_ref_conv2d_args ra = {
      .pad = {s->pad[0], s->pad[1], s->pad[2], s->pad[3]},
      .stride = {s->stride[0], s->stride[1]},
      .dilation = {s->dilation[0], s->dilation[1]},
      .acc_type = row->acc,
   };
   int64_t oh, ow;
   if (!ref_ok(what, tosa_ref_conv2d_output_hw(&ra, s->in[1], s->in[2], s->w[1], s->w[2], &oh,
                                               &ow)))
      return;
   int64_t out_shape[4] = {s->in[0], oh, ow, s->w[0]};
   struct ref_tensor *in = tensor(row->in, 4, s->in);
   struct ref_tensor *w = tensor(row->w, 4, s->w);
   struct ref_tensor *bias = tensor(row->out, 1, &s->bias);
   struct ref_tensor *izp = scalar_int(row->in, row->in == REF_DTYPE_I8 ? s->input_zp : 0);
   struct ref_tensor *wzp = scalar_int(row->w, row->w == REF_DTYPE_I8 ? s->weight_zp : 0);
   struct ref_tensor *out = tensor(row->out, 4, out_shape);
   bool is_float = ref_dtype_is_float(row->out);
   struct ref_tensor *ref = tensor(is_float ? REF_DTYPE_FP64 : row->out, 4, out_shape);
   struct ref_tensor *bnd = tensor(REF_DTYPE_FP64, 4, out_shape);
   fill_operand(in);
   fill_operand(w);
   fill_operand(bias);
   int st = tosa_ref_conv2d(&ra, in, w, bias, izp, wzp, ref);
   if (is_float && st == TOSA_REF_OK) {
      ra.mode = TOSA_REF_DOT_BOUND;
      st = tosa_ref_conv2d(&ra, in, w, bias, izp, wzp, bnd);
   }
   if (ref_ok(what, st)) {
      struct dg_conv2d_args args = {
         .pad_top = s->pad[0], .pad_bottom = s->pad[1],
         .pad_left = s->pad[2], .pad_right = s->pad[3],
         .stride_y = s->stride[0], .stride_x = s->stride[1],
         .dilation_y = s->dilation[0], .dilation_x = s->dilation[1],
         .input_zp = (int32_t)ref_tensor_get_int(izp, 0),
         .weight_zp = (int32_t)ref_tensor_get_int(wzp, 0),
      };
      struct ref_tensor *ts[4] = {in, w, bias, out};
      struct ref_tensor *gpu = run_kernel(row->variant, ts,
                                          (const uint32_t[]){gap, 0, gap, gap}, 4, &args,
                                          sizeof(args), 0);
      if (is_float)
         check_dot(what, gpu, ref, bnd, acc_dtype(row->acc), s->w[1] * s->w[2] * s->w[3]);
      else
         compare(what, TOSA_REF_OP_CONV2D, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, w, bias, izp, wzp, out, ref, bnd};
   destroy_all(all, 8);
}

static bool
needs_fp16arith(const char *variant)
{
   return strstr(variant, "_fp16arith") != NULL;
}

static void
test_conv2d(void)
{
   static const struct conv_row rows[] = {
      {"tosa_conv2d_i8_i32_acc_i32", REF_DTYPE_I8, REF_DTYPE_I8, REF_DTYPE_I32,
       TOSA_REF_ACC_INT32},
      {"tosa_conv2d_i16_i8_i48_acc_i48", REF_DTYPE_I16, REF_DTYPE_I8, REF_DTYPE_I48,
       TOSA_REF_ACC_INT48},
      {"tosa_conv2d_fp8e4m3_fp16_acc_fp16", REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E4M3, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp8e5m2_fp16_acc_fp16", REF_DTYPE_FP8E5M2, REF_DTYPE_FP8E5M2, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp16_acc_fp16", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp16_acc_fp32", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP32},
      {"tosa_conv2d_bf16_acc_fp32", REF_DTYPE_BF16, REF_DTYPE_BF16, REF_DTYPE_BF16,
       TOSA_REF_ACC_FP32},
      {"tosa_conv2d_fp32_acc_fp32", REF_DTYPE_FP32, REF_DTYPE_FP32, REF_DTYPE_FP32,
       TOSA_REF_ACC_FP32},
      {"tosa_conv2d_fp8e4m3_fp16_acc_fp16_fp16arith", REF_DTYPE_FP8E4M3, REF_DTYPE_FP8E4M3,
       REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp8e5m2_fp16_acc_fp16_fp16arith", REF_DTYPE_FP8E5M2, REF_DTYPE_FP8E5M2,
       REF_DTYPE_FP16, TOSA_REF_ACC_FP16},
      {"tosa_conv2d_fp16_acc_fp16_fp16arith", REF_DTYPE_FP16, REF_DTYPE_FP16, REF_DTYPE_FP16,
       TOSA_REF_ACC_FP16},
   };
   static const struct conv_shape shapes[] = {
      /* 3x3, pad 1, stride 1, zero points, bias per channel */
      {{1, 6, 7, 3}, {4, 3, 3, 3}, 4, {1, 1, 1, 1}, {1, 1}, {1, 1}, -3, 5},
      /* asymmetric pads, strides 2x3, dilations 3x2, extreme zero points, bias broadcast */
      {{2, 9, 9, 2}, {3, 2, 3, 2}, 1, {2, 1, 0, 2}, {2, 3}, {3, 2}, 127, -128},
      /* 1x1 with a large pad: whole padding rows and columns */
      {{1, 3, 2, 5}, {2, 1, 1, 5}, 2, {2, 2, 1, 1}, {1, 1}, {1, 1}, 0, 0},
   };
   test_set_context("conv2d");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      if (needs_fp16arith(rows[r].variant) && !have_fp16arith)
         continue;
      /* Integer and fp32 rows take every shape; the others the first two. */
      unsigned n = rows[r].out == REF_DTYPE_I32 || rows[r].out == REF_DTYPE_I48 ||
                         rows[r].out == REF_DTYPE_FP32
                      ? 3
                      : 2;
      for (unsigned s = 0; s < n; s++)
         conv2d_case(&rows[r], &shapes[s], s == 0 ? 1 : 0);
   }
   test_set_context(NULL);
}

/* ---- MATMUL --------------------------------------------------------------------------------- */

static void
matmul_case(const char *variant, enum ref_dtype in_t, enum ref_dtype out_t, int64_t n,
            int64_t h, int64_t c, int64_t w, int32_t a_zp, int32_t b_zp, uint32_t gap)
{
   char what[128];
   snprintf(what, sizeof(what), "%s %" PRId64 "x%" PRId64 "x%" PRId64 " x %" PRId64
            " zp %d %d", variant, n, h, c, w, a_zp, b_zp);
   struct ref_tensor *a = TENSOR(in_t, n, h, c);
   struct ref_tensor *b = TENSOR(in_t, n, c, w);
   struct ref_tensor *azp = scalar_int(in_t, a_zp);
   struct ref_tensor *bzp = scalar_int(in_t, b_zp);
   struct ref_tensor *out = TENSOR(out_t, n, h, w);
   bool is_float = ref_dtype_is_float(out_t);
   struct ref_tensor *ref = TENSOR(is_float ? REF_DTYPE_FP64 : out_t, n, h, w);
   struct ref_tensor *bnd = TENSOR(REF_DTYPE_FP64, n, h, w);
   fill_operand(a);
   fill_operand(b);
   struct tosa_ref_matmul_args ra = {.mode = TOSA_REF_DOT_RESULT};
   int st = tosa_ref_matmul(&ra, a, b, azp, bzp, ref);
   if (is_float && st == TOSA_REF_OK) {
      ra.mode = TOSA_REF_DOT_BOUND;
      st = tosa_ref_matmul(&ra, a, b, azp, bzp, bnd);
   }
   if (ref_ok(what, st)) {
      struct dg_matmul_args args = {.a_zp = a_zp, .b_zp = b_zp};
      struct ref_tensor *ts[3] = {a, b, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){gap, 0, gap}, 3, &args, sizeof(args), 0);
      if (is_float)
         check_dot(what, gpu, ref, bnd, out_t, c);
      else
         compare(what, TOSA_REF_OP_MATMUL, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {a, b, azp, bzp, out, ref, bnd};
   destroy_all(all, 7);
}

static void
test_matmul(void)
{
   static const struct {
      const char *variant;
      enum ref_dtype in, out;
   } rows[] = {
      {"tosa_matmul_i8_i32", REF_DTYPE_I8, REF_DTYPE_I32},
      {"tosa_matmul_i16_i48", REF_DTYPE_I16, REF_DTYPE_I48},
      {"tosa_matmul_fp8e4m3_fp16", REF_DTYPE_FP8E4M3, REF_DTYPE_FP16},
      {"tosa_matmul_fp8e5m2_fp16", REF_DTYPE_FP8E5M2, REF_DTYPE_FP16},
      {"tosa_matmul_fp16", REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_matmul_fp16_fp32", REF_DTYPE_FP16, REF_DTYPE_FP32},
      {"tosa_matmul_bf16_fp32", REF_DTYPE_BF16, REF_DTYPE_FP32},
      {"tosa_matmul_fp32", REF_DTYPE_FP32, REF_DTYPE_FP32},
      {"tosa_matmul_fp8e4m3_fp16_fp16arith", REF_DTYPE_FP8E4M3, REF_DTYPE_FP16},
      {"tosa_matmul_fp8e5m2_fp16_fp16arith", REF_DTYPE_FP8E5M2, REF_DTYPE_FP16},
      {"tosa_matmul_fp16_fp16arith", REF_DTYPE_FP16, REF_DTYPE_FP16},
   };
   test_set_context("matmul");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      if (needs_fp16arith(rows[r].variant) && !have_fp16arith)
         continue;
      bool i8 = rows[r].in == REF_DTYPE_I8;
      matmul_case(rows[r].variant, rows[r].in, rows[r].out, 2, 3, 17, 5, i8 ? 7 : 0,
                  i8 ? -2 : 0, 1);
      matmul_case(rows[r].variant, rows[r].in, rows[r].out, 1, 9, 40, 7, i8 ? -128 : 0,
                  i8 ? 127 : 0, 0);
   }
   test_set_context(NULL);
}

/* ---- RESCALE -------------------------------------------------------------------------------- */

struct rescale_params {
   bool scale32;
   enum tosa_ref_rounding rounding;
   bool per_channel, input_unsigned, output_unsigned;
   int32_t input_zp, output_zp; /* as numbers: zero-extended on an unsigned side */
   int64_t lo, hi;              /* input values */
   int32_t m_lo, m_hi;          /* multipliers */
   int32_t s_lo, s_hi;          /* shifts */
};

static void
rescale_case(const char *variant, enum ref_dtype in_t, enum ref_dtype out_t,
             const struct rescale_params *p, const char *note)
{
   char what[128];
   snprintf(what, sizeof(what), "%s %s", variant, note);
   struct ref_tensor *in = TENSOR(in_t, 2, 3, 4, 5);
   int64_t nc = p->per_channel ? 5 : 1;
   struct ref_tensor *mul = tensor(REF_DTYPE_I32, 1, &nc);
   struct ref_tensor *shift = tensor(REF_DTYPE_I8, 1, &nc);
   struct ref_tensor *izp = scalar_int(in_t, p->input_zp);
   struct ref_tensor *ozp = scalar_int(out_t, p->output_zp);
   struct ref_tensor *out = TENSOR(out_t, 2, 3, 4, 5);
   struct ref_tensor *ref = TENSOR(out_t, 2, 3, 4, 5);
   struct ref_tensor *lo = TENSOR(REF_DTYPE_I32, 2, 3, 4, 5);
   struct ref_tensor *hi = TENSOR(REF_DTYPE_I32, 2, 3, 4, 5);
   fill_int(in, p->lo, p->hi);
   fill_int(mul, p->m_lo, p->m_hi);
   fill_int(shift, p->s_lo, p->s_hi);
   ref_tensor_set_int(shift, 0, p->s_lo);
   ref_tensor_set_int(shift, nc - 1, p->s_hi);
   ref_tensor_set_int(in, 0, p->lo);
   ref_tensor_set_int(in, 1, p->hi);
   struct tosa_ref_rescale_args ra = {
      .scale32 = p->scale32,
      .rounding_mode = p->rounding,
      .per_channel = p->per_channel,
      .input_unsigned = p->input_unsigned,
      .output_unsigned = p->output_unsigned,
   };
   int st = p->rounding == TOSA_REF_ROUND_INEXACT
               ? tosa_ref_rescale_inexact_range(&ra, in, mul, shift, izp, ozp, lo, hi)
               : tosa_ref_rescale(&ra, in, mul, shift, izp, ozp, ref);
   if (ref_ok(what, st)) {
      struct dg_rescale_args args = {
         .scale32 = p->scale32,
         .rounding_mode = (uint32_t)p->rounding,
         .per_channel = p->per_channel,
         .input_unsigned = p->input_unsigned,
         .output_unsigned = p->output_unsigned,
         .input_zp = p->input_zp,
         .output_zp = p->output_zp,
      };
      struct ref_tensor *ts[4] = {in, mul, shift, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){1, 0, 1, 2}, 4, &args, sizeof(args), 0);
      if (gpu && p->rounding == TOSA_REF_ROUND_INEXACT) {
         unsigned failures = 0, bits = ref_dtype_int_bits(out_t);
         for (int64_t i = 0; i < gpu->count; i++) {
            int64_t got = p->output_unsigned
                             ? (int64_t)(ref_tensor_get_bits(gpu, i) & ((1u << bits) - 1))
                             : ref_tensor_get_int(gpu, i);
            if ((got < ref_tensor_get_int(lo, i) || got > ref_tensor_get_int(hi, i)) &&
                failures++ < MAX_REPORTED)
               fprintf(stderr, "  %s: element %" PRId64 ": %" PRId64 " not in [%" PRId64
                       ", %" PRId64 "]\n", what, i, got, ref_tensor_get_int(lo, i),
                       ref_tensor_get_int(hi, i));
         }
         ok(failures == 0, "%s: %u elements outside the INEXACT_ROUND range", what, failures);
      } else {
         compare(what, TOSA_REF_OP_RESCALE, gpu, ref);
      }
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, mul, shift, izp, ozp, out, ref, lo, hi};
   destroy_all(all, 9);
}

static void
test_rescale(void)
{
   const enum tosa_ref_rounding single = TOSA_REF_ROUND_SINGLE, dbl = TOSA_REF_ROUND_DOUBLE,
                                inexact = TOSA_REF_ROUND_INEXACT;
   const int32_t m_max = INT32_MAX;
   test_set_context("rescale");
   /* i8 -> i8: zero points on both sides, one multiplier. */
   rescale_case("tosa_rescale_i8", REF_DTYPE_I8, REF_DTYPE_I8,
                &(struct rescale_params){true, single, false, false, false, -3, 5, -128, 127,
                                         1 << 30, m_max, 20, 40},
                "zp -3/5");
   /* i8 -> u8 per channel: output zero point 128, negative sums clip to 0. */
   rescale_case("tosa_rescale_i8", REF_DTYPE_I8, REF_DTYPE_I8,
                &(struct rescale_params){true, single, true, false, true, 10, 128, -128, 127,
                                         1 << 28, m_max, 24, 36},
                "u8 out, per channel");
   /* u8 -> i16 with input zero point 128. */
   rescale_case("tosa_rescale_i8_i16", REF_DTYPE_I8, REF_DTYPE_I16,
                &(struct rescale_params){true, single, true, true, false, 128, 0, -128, 127,
                                         1 << 30, m_max, 14, 31},
                "u8 in");
   /* i8 -> i32, DOUBLE_ROUND with shifts above 31 (round moves by 1 << 30). */
   rescale_case("tosa_rescale_i8_i32", REF_DTYPE_I8, REF_DTYPE_I32,
                &(struct rescale_params){true, dbl, true, false, false, -128, 0, -128, 127,
                                         0, m_max, 30, 40},
                "double round");
   /* The smallest shift: 2, with values that keep the REQUIRE on value. */
   rescale_case("tosa_rescale_i8_i32", REF_DTYPE_I8, REF_DTYPE_I32,
                &(struct rescale_params){true, single, false, false, false, 0, 0, -2, 1, 1, 7,
                                         2, 2},
                "shift 2");
   /* i16 -> i8 per channel; u16 with zero point 32768 in and out. */
   rescale_case("tosa_rescale_i16_i8", REF_DTYPE_I16, REF_DTYPE_I8,
                &(struct rescale_params){true, single, true, false, false, 0, -7, -32768, 32767,
                                         1 << 20, m_max, 30, 50},
                "per channel");
   rescale_case("tosa_rescale_i16_i8", REF_DTYPE_I16, REF_DTYPE_I8,
                &(struct rescale_params){true, single, false, true, false, 32768, 0, -32768,
                                         32767, 1 << 30, 1 << 30, 38, 38},
                "u16 in, zp 32768");
   rescale_case("tosa_rescale_i16", REF_DTYPE_I16, REF_DTYPE_I16,
                &(struct rescale_params){true, single, false, false, true, 0, 32768, -32768,
                                         32767, 1 << 30, 1 << 30, 30, 30},
                "u16 out, zp 32768");
   rescale_case("tosa_rescale_i16", REF_DTYPE_I16, REF_DTYPE_I16,
                &(struct rescale_params){false, single, true, false, false, 0, 0, -32768, 32767,
                                         0, 32767, 2, 20},
                "scale16");
   rescale_case("tosa_rescale_i16_i32", REF_DTYPE_I16, REF_DTYPE_I32,
                &(struct rescale_params){true, inexact, true, false, false, 0, 0, -32768, 32767,
                                         0, m_max, 17, 62},
                "inexact");
   /* i32: ties (multiplier 1 << 30, shift 31 halves odd values), double rounding, full range
    * with shifts 32..62. */
   rescale_case("tosa_rescale_i32", REF_DTYPE_I32, REF_DTYPE_I32,
                &(struct rescale_params){true, single, false, false, false, 0, 0, -(1 << 30),
                                         (1 << 30) - 1, 1 << 30, 1 << 30, 31, 31},
                "ties");
   rescale_case("tosa_rescale_i32", REF_DTYPE_I32, REF_DTYPE_I32,
                &(struct rescale_params){true, dbl, true, false, false, 0, 0, INT32_MIN,
                                         INT32_MAX, 0, m_max, 32, 62},
                "double round");
   rescale_case("tosa_rescale_i32_i8", REF_DTYPE_I32, REF_DTYPE_I8,
                &(struct rescale_params){true, single, true, false, false, 0, -100, INT32_MIN,
                                         INT32_MAX, 1 << 30, m_max, 32, 40},
                "saturate");
   rescale_case("tosa_rescale_i32_i16", REF_DTYPE_I32, REF_DTYPE_I16,
                &(struct rescale_params){true, dbl, false, false, false, 0, 0, INT32_MIN,
                                         INT32_MAX, 1 << 30, 1 << 30, 45, 45},
                "double round");
   /* i48 -> *: scale16 only (16-bit multipliers), results within i32. */
   rescale_case("tosa_rescale_i48_i8", REF_DTYPE_I48, REF_DTYPE_I8,
                &(struct rescale_params){false, single, true, false, false, 0, 3,
                                         -((int64_t)1 << 40), (int64_t)1 << 40, 0, 32767, 40,
                                         55},
                "per channel");
   rescale_case("tosa_rescale_i48_i16", REF_DTYPE_I48, REF_DTYPE_I16,
                &(struct rescale_params){false, single, false, false, false, 0, 0,
                                         -((int64_t)1 << 47), ((int64_t)1 << 47) - 1, 1 << 14,
                                         1 << 14, 46, 46},
                "full i48 range");
   rescale_case("tosa_rescale_i48_i32", REF_DTYPE_I48, REF_DTYPE_I32,
                &(struct rescale_params){false, inexact, true, false, false, 0, 0,
                                         -((int64_t)1 << 46), (int64_t)1 << 46, 0, 32767, 31, 62},
                "inexact");
   test_set_context(NULL);
}

/* ---- CONCAT, RESHAPE ------------------------------------------------------------------------ */

static void
fill_bits(struct ref_tensor *t)
{
   for (int64_t i = 0; i < t->count; i++) {
      uint64_t bits = ((uint64_t)next_random() << 32) | next_random();
      if (t->dtype == REF_DTYPE_BOOL)
         bits &= 1;
      else if (t->dtype == REF_DTYPE_I48)
         bits = (uint64_t)((int64_t)(bits << 16) >> 16);
      ref_tensor_set_bits(t, i, bits);
   }
}

static const char *
copy_variant(enum ref_dtype dtype)
{
   switch (ref_dtype_size(dtype)) {
   case 1:
      return "tosa_copy_u8";
   case 2:
      return "tosa_copy_u16";
   case 4:
      return "tosa_copy_u32";
   default:
      return "tosa_copy_u64";
   }
}

/* TOSA 1.0.1 has no i48 CONCAT or RESHAPE (the reference rejects them), but the graph layer copies
 * i48 tensors with tosa_copy_u64 too: the expected CONCAT, by index arithmetic. */
static bool
host_concat(struct ref_tensor *const *in, unsigned count, uint32_t axis, struct ref_tensor *out)
{
   int64_t index[REF_MAX_RANK];
   for (int64_t i = 0; i < out->count; i++) {
      ref_tensor_index(out, i, index);
      for (unsigned t = 0; t < count; t++) {
         if (index[axis] < in[t]->shape[axis]) {
            int64_t from = ref_tensor_offset(in[t], index);
            ref_tensor_set_bits(out, i, ref_tensor_get_bits(in[t], from));
            break;
         }
         index[axis] -= in[t]->shape[axis];
      }
   }
   return true;
}

/* CONCAT of three inputs along `axis`: one dispatch per input into one output. */
static void
concat_case(enum ref_dtype dtype, uint32_t rank, const int64_t *base, uint32_t axis,
            const int64_t *sizes)
{
   char what[96];
   snprintf(what, sizeof(what), "CONCAT %s rank %u axis %u", ref_dtype_name(dtype), rank, axis);
   struct ref_tensor *in[3];
   int64_t shape[REF_MAX_RANK];
   memcpy(shape, base, rank * sizeof(*shape));
   int64_t total = 0;
   for (unsigned i = 0; i < 3; i++) {
      shape[axis] = sizes[i];
      total += sizes[i];
      in[i] = tensor(dtype, rank, shape);
      fill_bits(in[i]);
   }
   shape[axis] = total;
   struct ref_tensor *ref = tensor(dtype, rank, shape);
   struct tosa_ref_concat_args ra = {.axis = (int32_t)axis};
   const struct ref_tensor *const *inputs = (const struct ref_tensor *const *)in;
   if (dtype == REF_DTYPE_I48 ? host_concat(in, 3, axis, ref)
                              : ref_ok(what, tosa_ref_concat(&ra, inputs, 3, ref))) {
      arena_used = 0;
      struct gtensor g[2];
      gtensor_place(&g[1], ref, 1); /* the output: its data is not uploaded */
      uint32_t offset = 0;
      bool done = true;
      for (unsigned i = 0; i < 3 && done; i++) {
         gtensor_place(&g[0], in[i], i);
         gtensor_upload(&g[0]);
         struct dg_copy_args args = {.mode = DG_COPY_CONCAT, .axis = axis, .offset = offset};
         done = dispatch_kernel(copy_variant(dtype), g, 2, &args, sizeof(args),
                                (uint32_t)in[i]->count);
         offset += (uint32_t)sizes[i];
      }
      if (done) {
         struct ref_tensor *gpu = gtensor_download(&g[1]);
         compare(what, TOSA_REF_OP_CONCAT, gpu, ref);
         ref_tensor_destroy(gpu);
      }
   }
   destroy_all(in, 3);
   ref_tensor_destroy(ref);
}

static void
reshape_case(enum ref_dtype dtype, uint32_t in_rank, const int64_t *in_shape, uint32_t out_rank,
             const int64_t *out_shape)
{
   char what[96];
   snprintf(what, sizeof(what), "RESHAPE %s rank %u to %u", ref_dtype_name(dtype), in_rank,
            out_rank);
   struct ref_tensor *in = tensor(dtype, in_rank, in_shape);
   struct ref_tensor *out = tensor(dtype, out_rank, out_shape);
   struct ref_tensor *ref = tensor(dtype, out_rank, out_shape);
   fill_bits(in);
   if (dtype == REF_DTYPE_I48 ? (memcpy(ref->data, in->data, (size_t)in->count * 8), true)
                              : ref_ok(what, tosa_ref_reshape(in, ref))) {
      struct dg_copy_args args = {.mode = DG_COPY_RESHAPE};
      struct ref_tensor *ts[2] = {in, out};
      struct ref_tensor *gpu = run_kernel(copy_variant(dtype), ts, (const uint32_t[]){1, 2}, 2,
                                          &args, sizeof(args), (uint32_t)in->count);
      compare(what, TOSA_REF_OP_RESHAPE, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, out, ref};
   destroy_all(all, 3);
}

static void
test_copy(void)
{
   static const enum ref_dtype dtypes[] = {REF_DTYPE_BOOL, REF_DTYPE_FP8E4M3, REF_DTYPE_FP16,
                                           REF_DTYPE_I32, REF_DTYPE_I48};
   test_set_context("copy");
   for (unsigned i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
      concat_case(dtypes[i], 3, SHAPE(2, 0, 4), 1, SHAPE(3, 1, 2));
      reshape_case(dtypes[i], 3, SHAPE(2, 3, 4), 2, SHAPE(4, 6));
   }
   grid_x_max = 2;
   concat_case(REF_DTYPE_FP32, 4, SHAPE(0, 2, 3, 5), 0, SHAPE(2, 1, 3));
   concat_case(REF_DTYPE_BF16, 2, SHAPE(3, 0), 1, SHAPE(1, 5, 2));
   concat_case(REF_DTYPE_I8, 6, SHAPE(1, 2, 1, 2, 3, 0), 5, SHAPE(2, 1, 3));
   reshape_case(REF_DTYPE_I16, 1, SHAPE(24), 4, SHAPE(2, 3, 2, 2));
   reshape_case(REF_DTYPE_FP32, 6, SHAPE(1, 2, 1, 3, 2, 2), 1, SHAPE(24));
   grid_x_max = 65535;
   test_set_context(NULL);
}

/* ---- main ----------------------------------------------------------------------------------- */

int
main(void)
{
   if (vku_init(&v, NULL, 0, true) != VK_SUCCESS)
      return test_skip("no Vulkan instance");
   vku_require_device(&v);
   if (!init_device()) {
      finish_device();
      vku_finish(&v);
      return test_state.failed ? test_done() : TEST_SKIP_CODE;
   }

   static const struct {
      const char *name;
      void (*run)(void);
   } parts[] = {
      {"conversions", test_conversions}, {"binary", test_binary},   {"clamp", test_clamp},
      {"max_pool2d", test_max_pool2d},   {"conv2d", test_conv2d},   {"matmul", test_matmul},
      {"rescale", test_rescale},         {"copy", test_copy},
   };
   for (unsigned i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
      struct timespec t0, t1;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      unsigned failed = test_state.failed;
      parts[i].run();
      clock_gettime(CLOCK_MONOTONIC, &t1);
      printf("%-12s %s, %.2f s\n", parts[i].name, test_state.failed == failed ? "ok" : "FAILED",
             (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9);
   }

   for (unsigned i = 0; i < DG_KERNEL_COUNT; i++) {
      if (needs_fp16arith(dg_kernels[i].name) && !have_fp16arith)
         continue;
      ok(ran[i], "variant %s was not run", dg_kernels[i].name);
   }
   if (!have_fp16arith)
      printf("note: no shaderFloat16: the _fp16arith variants were not run\n");

   finish_device();
   vku_finish(&v);
   return test_done();
}
