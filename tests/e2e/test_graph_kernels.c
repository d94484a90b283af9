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

#include "kernel_abi/graph_kernel.h"
#include "kernel_abi/tensor_record.h"
#include "kernel_abi/tosa_args.h"
#include "test.h"
#include "tosa_ref.h"
#include "vkutil.h"
#include "vmel_kernels_graph.h"
#include "vmel_kernels_test.h"

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
   VkPhysicalDeviceMemoryProperties mp;
   vkGetPhysicalDeviceMemoryProperties(v.physical_device, &mp);
   uint32_t type = UINT32_MAX;
   for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++) {
      VkMemoryPropertyFlags want =
         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
      if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
         type = i;
   }
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
   const struct vmel_kernel *k = vmel_kernel_find(test_kernels, TEST_KERNEL_COUNT, "dg_convert");
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
