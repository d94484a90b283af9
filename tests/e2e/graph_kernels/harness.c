/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The harness of test_graph_kernels (harness.h): an instance with no layer but validation, the
 * device's own compute pipelines made from the embedded variants with the kernel ABI of
 * include/kernel_abi/graph_kernel.h and tosa_args.h (tensor records in storage buffers at set 0
 * binding k, descriptor count 1, element 0; work count, tensor counts and indices, attributes as
 * specialization constants; a 2D grid of 1D workgroups), the arena, kernel tensors at strided
 * layouts, random reference tensors, the comparisons with the reference and the dot-product
 * helpers.
 */
#include "harness.h"

struct vku v;
VkDevice device;
static VkQueue queue;
static uint32_t family;
static VkCommandPool cmd_pool;
static VkCommandBuffer cmd;
static VkFence fence;
static VkDescriptorPool desc_pool;
static VkDescriptorSetLayout set_layouts[MAX_TENSORS + 1];
VkPipelineLayout pipeline_layouts[MAX_TENSORS + 1];
static VkShaderModule modules[DG_KERNEL_COUNT];
bool ran[DG_KERNEL_COUNT];
bool have_fp16arith;
uint32_t grid_x_max = 65535; /* workgroups along x before a new row of the 2D grid */
static uint32_t seed = 20260101;

static VkBuffer arena;
static VkDeviceMemory arena_memory;
uint8_t *arena_map;
static VkDeviceAddress arena_address;
VkDeviceSize arena_used;

/* ---- small helpers ------------------------------------------------------------------------- */

uint32_t
next_random(void)
{
   seed = seed * 1664525u + 1013904223u;
   return seed >> 8 | (seed << 24);
}

/* Uniform in [lo, hi]. */
int64_t
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

struct ref_tensor *
tensor(enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   struct ref_tensor *t = ref_tensor_create(dtype, rank, shape);
   if (!t) {
      fprintf(stderr, "ref_tensor_create failed\n");
      exit(1);
   }
   return t;
}


void
fill_int(struct ref_tensor *t, int64_t lo, int64_t hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_int(t, i, random_int(lo, hi));
}

void
fill_fp(struct ref_tensor *t, double lo, double hi)
{
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_fp(t, i, random_double(lo, hi));
}

/* Special values at a few spread positions: NaN, infinities, signed zeros, the largest
 * finite value and (fp16, fp8) the smallest subnormal. */
void
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

struct ref_tensor *
scalar_int(enum ref_dtype dtype, int64_t value)
{
   struct ref_tensor *t = TENSOR(dtype, 1);
   ref_tensor_set_int(t, 0, value);
   return t;
}

void
destroy_all(struct ref_tensor **ts, unsigned n)
{
   for (unsigned i = 0; i < n; i++)
      ref_tensor_destroy(ts[i]);
}

/* ---- device and arena ---------------------------------------------------------------------- */

bool
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

void
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

VkDeviceSize
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
bool
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

VkDescriptorSet
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

void
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


void
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

void
gtensor_upload(const struct gtensor *g)
{
   size_t esize = ref_dtype_size(g->ref->dtype);
   for (int64_t i = 0; i < g->ref->count; i++)
      memcpy(arena_map + g->offset + gtensor_element(g, i),
             (const uint8_t *)g->ref->data + i * (int64_t)esize, esize);
}

/* The kernel's output as a packed tensor; checks that no other byte changed. */
struct ref_tensor *
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
bool
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
struct ref_tensor *
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
void
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

bool
ref_ok(const char *what, int status)
{
   return ok(status == TOSA_REF_OK, "%s: reference says %s: %s", what,
             tosa_ref_status_name(status), tosa_ref_last_message());
}

/* ---- dot-product helpers (CONV2D, MATMUL) ------------------------------------------------ */

enum ref_dtype
acc_dtype(enum tosa_ref_acc_type acc)
{
   return acc == TOSA_REF_ACC_FP16 ? REF_DTYPE_FP16
          : acc == TOSA_REF_ACC_FP32 ? REF_DTYPE_FP32
          : acc == TOSA_REF_ACC_INT48 ? REF_DTYPE_I48
                                      : REF_DTYPE_I32;
}

void
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
void
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

bool
needs_fp16arith(const char *variant)
{
   return strstr(variant, "_fp16arith") != NULL;
}
