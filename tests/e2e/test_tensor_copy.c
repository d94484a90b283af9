/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vkCmdCopyTensorARM through the loader on lavapipe, with validation below the
 * tensor layer. Each case fills the source with random bytes and the
 * destination's whole allocation with a pattern, copies, and compares every
 * byte of that allocation (padding between strided rows, bytes before the bind
 * offset and after the tensor included) with a host model; the source must be
 * unchanged too. The cases run on four devices: VMEL_TENSOR_COPY=auto, buffer
 * and kernel, and kernel with VMEL_TENSOR_COPY_MAX_GROUPS=2 (many split
 * dispatches). Cases: whole tensors (dimensionCount 0) packed to strided and
 * back, ranks 1..6 with element sizes 1/2/4/8 and offsets, several regions in
 * one call, 16-byte units, a large 1-byte copy, a copy within one tensor, two
 * copies in one command buffer, one copy recorded in two command buffers, a
 * copy between two application dispatches (pipeline, descriptor set and push
 * constants still in effect), and invalid copies (logged and skipped).
 */
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"
#include "vmel_kernels_test.h"

TEST_MAIN_STATE;

static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCmdCopyTensorARM cmd_copy_tensor;

static struct vku v;
static VkDevice device;
static VkQueue queue;
static uint32_t family;
static VkCommandPool pool;
static uint32_t seed = 12345;

#define USAGE_ALL                                                                                  \
   (VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |                        \
    VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM)

/* A tensor bound at a non-zero offset of its own host-visible allocation. */
struct tensor {
   VkTensorARM handle;
   VkDeviceMemory memory;
   uint8_t *base;         /* the mapped allocation */
   VkDeviceSize size;     /* of the allocation */
   VkDeviceSize offset;   /* where the tensor is bound */
   uint32_t rank;
   uint32_t esize;
   int64_t dims[6];
   int64_t strides[6];
};

/* One region as the test states it; whole = dimensionCount 0. */
struct region {
   bool whole;
   uint64_t src_offset[6];
   uint64_t dst_offset[6];
   uint64_t extent[6];
};

static uint32_t
next_random(void)
{
   seed = seed * 1664525u + 1013904223u;
   return seed >> 8;
}

static VkFormat
format_of(uint32_t esize)
{
   switch (esize) {
   case 1:
      return VK_FORMAT_R8_UINT;
   case 2:
      return VK_FORMAT_R16_UINT;
   case 4:
      return VK_FORMAT_R32_SFLOAT;
   default:
      return VK_FORMAT_R64_UINT;
   }
}

/* Strides with pad elements after each dimension's rows (pad 0 = packed). */
static void
padded_strides(uint32_t rank, uint32_t esize, const int64_t *dims, const uint32_t *pad,
               int64_t *strides)
{
   strides[rank - 1] = esize;
   for (uint32_t i = rank - 1; i > 0; i--)
      strides[i - 1] = strides[i] * dims[i] + (int64_t)pad[i - 1] * esize;
}

static bool
tensor_init(struct tensor *t, VkFormat format, uint32_t esize, uint32_t rank, const int64_t *dims,
            const int64_t *strides, VkTensorUsageFlagsARM usage, bool bind)
{
   memset(t, 0, sizeof(*t));
   t->rank = rank;
   t->esize = esize;
   memcpy(t->dims, dims, rank * sizeof(*dims));
   if (strides) {
      memcpy(t->strides, strides, rank * sizeof(*strides));
   } else {
      const uint32_t none[6] = {0};
      padded_strides(rank, esize, dims, none, t->strides);
   }
   VkTensorDescriptionARM desc = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
      .tiling = VK_TENSOR_TILING_LINEAR_ARM,
      .format = format,
      .dimensionCount = rank,
      .pDimensions = dims,
      .pStrides = strides,
      .usage = usage,
   };
   VkTensorCreateInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
      .pDescription = &desc,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (!ok(create_tensor(device, &info, NULL, &t->handle) == VK_SUCCESS, "vkCreateTensorARM"))
      return false;
   VkTensorMemoryRequirementsInfoARM ri = {
      .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = t->handle};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   tensor_reqs(device, &ri, &req);
   t->offset = req.memoryRequirements.alignment;
   t->size = t->offset + req.memoryRequirements.size + 256;
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = t->size,
      .memoryTypeIndex = vku_host_memory_type(&v, req.memoryRequirements.memoryTypeBits),
   };
   if (!ok(vkAllocateMemory(device, &mai, NULL, &t->memory) == VK_SUCCESS, "vkAllocateMemory"))
      return false;
   void *map;
   if (!ok(vkMapMemory(device, t->memory, 0, VK_WHOLE_SIZE, 0, &map) == VK_SUCCESS, "map"))
      return false;
   t->base = map;
   if (bind) {
      VkBindTensorMemoryInfoARM bi = {
         .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
         .tensor = t->handle,
         .memory = t->memory,
         .memoryOffset = t->offset,
      };
      return ok(bind_tensor(device, 1, &bi) == VK_SUCCESS, "vkBindTensorMemoryARM");
   }
   return true;
}

static void
tensor_finish(struct tensor *t)
{
   if (t->handle)
      destroy_tensor(device, t->handle, NULL);
   if (t->memory)
      vkFreeMemory(device, t->memory, NULL);
   memset(t, 0, sizeof(*t));
}

static void
fill_random(struct tensor *t)
{
   for (VkDeviceSize i = 0; i < t->size; i++)
      t->base[i] = (uint8_t)next_random();
}

static void
fill_pattern(struct tensor *t)
{
   for (VkDeviceSize i = 0; i < t->size; i++)
      t->base[i] = (uint8_t)(0xa5 ^ (i * 7));
}

/* The host model: applies a region to a copy of dst's allocation, reading from
 * a copy of src's allocation taken before the copy. */
static void
model_region(const struct tensor *src, const uint8_t *src_bytes, const struct tensor *dst,
             uint8_t *dst_bytes, const struct region *r)
{
   uint64_t extent[6], index[6] = {0}, elements = 1;
   for (uint32_t i = 0; i < src->rank; i++) {
      extent[i] = r->whole ? (uint64_t)src->dims[i] : r->extent[i];
      elements *= extent[i];
   }
   for (uint64_t e = 0; e < elements; e++) {
      uint64_t so = src->offset, dof = dst->offset;
      for (uint32_t i = 0; i < src->rank; i++) {
         uint64_t s_off = r->whole ? 0 : r->src_offset[i], d_off = r->whole ? 0 : r->dst_offset[i];
         so += (s_off + index[i]) * (uint64_t)src->strides[i];
         dof += (d_off + index[i]) * (uint64_t)dst->strides[i];
      }
      memcpy(dst_bytes + dof, src_bytes + so, src->esize);
      for (uint32_t i = src->rank; i-- > 0;) {
         if (++index[i] < extent[i])
            break;
         index[i] = 0;
      }
   }
}

static void
to_vk_regions(const struct region *r, uint32_t count, uint32_t rank, VkTensorCopyARM *out)
{
   for (uint32_t i = 0; i < count; i++) {
      out[i] = (VkTensorCopyARM){
         .sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
         .dimensionCount = r[i].whole ? 0 : rank,
         .pSrcOffset = r[i].whole ? NULL : r[i].src_offset,
         .pDstOffset = r[i].whole ? NULL : r[i].dst_offset,
         .pExtent = r[i].whole ? NULL : r[i].extent,
      };
   }
}

static void
record_copy(VkCommandBuffer cmd, const struct tensor *src, const struct tensor *dst,
            const struct region *r, uint32_t count)
{
   VkTensorCopyARM regions[8];
   to_vk_regions(r, count, src->rank, regions);
   VkCopyTensorInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
      .srcTensor = src->handle,
      .dstTensor = dst->handle,
      .regionCount = count,
      .pRegions = regions,
   };
   cmd_copy_tensor(cmd, &info);
}

/* The application's view: the copy is a transfer; the host reads after it. */
static void
record_transfer_to_host(VkCommandBuffer cmd)
{
   VkMemoryBarrier mb = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
      .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                        VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* The application's barrier between two accesses of the same resources. */
static void
record_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src, VkAccessFlags src_access,
               VkPipelineStageFlags dst, VkAccessFlags dst_access)
{
   VkMemoryBarrier mb = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
      .srcAccessMask = src_access,
      .dstAccessMask = dst_access,
   };
   vkCmdPipelineBarrier(cmd, src, dst, 0, 1, &mb, 0, NULL, 0, NULL);
}

static VkCommandBuffer
begin(void)
{
   VkCommandBufferAllocateInfo ai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1,
   };
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   ok(vkAllocateCommandBuffers(device, &ai, &cmd) == VK_SUCCESS, "vkAllocateCommandBuffers");
   VkCommandBufferBeginInfo bi = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   ok(vkBeginCommandBuffer(cmd, &bi) == VK_SUCCESS, "vkBeginCommandBuffer");
   return cmd;
}

static void
submit(VkCommandBuffer cmd)
{
   VkSubmitInfo si = {
      .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
      .commandBufferCount = 1,
      .pCommandBuffers = &cmd,
   };
   ok(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS, "vkQueueSubmit");
   ok(vkQueueWaitIdle(queue) == VK_SUCCESS, "vkQueueWaitIdle");
}

static void
end_submit_free(VkCommandBuffer cmd)
{
   ok(vkEndCommandBuffer(cmd) == VK_SUCCESS, "vkEndCommandBuffer");
   submit(cmd);
   vkFreeCommandBuffers(device, pool, 1, &cmd);
}

/* Every byte of the allocation equals the model. */
static bool
check_bytes(const struct tensor *t, const uint8_t *want, const char *what)
{
   for (VkDeviceSize i = 0; i < t->size; i++) {
      if (t->base[i] != want[i]) {
         long long rel = (long long)i - (long long)t->offset;
         return ok(false, "%s: byte %llu (tensor byte %lld) is 0x%02x, expected 0x%02x", what,
                   (unsigned long long)i, rel, t->base[i], want[i]);
      }
   }
   return ok(true, "%s", what);
}

static uint8_t *
snapshot(const struct tensor *t)
{
   uint8_t *copy = malloc(t->size);
   if (copy)
      memcpy(copy, t->base, t->size);
   return copy;
}

/* Fills, copies in one command buffer, compares both tensors with the model. */
static void
run_copy(struct tensor *src, struct tensor *dst, const struct region *r, uint32_t count,
         const char *what)
{
   fill_random(src);
   if (dst != src)
      fill_pattern(dst);
   uint8_t *src_before = snapshot(src), *want = snapshot(dst);
   if (!ok(src_before && want, "memory")) {
      free(src_before);
      free(want);
      return;
   }
   for (uint32_t i = 0; i < count; i++)
      model_region(src, src_before, dst, want, &r[i]);
   VkCommandBuffer cmd = begin();
   record_copy(cmd, src, dst, r, count);
   record_transfer_to_host(cmd);
   end_submit_free(cmd);
   check_bytes(dst, want, what);
   if (dst != src)
      check_bytes(src, src_before, "source unchanged");
   free(src_before);
   free(want);
}

/* ---- cases ------------------------------------------------------------- */

/* dimensionCount 0: the whole tensor, packed to strided and strided to packed. */
static void
case_whole(void)
{
   test_set_context("whole tensor");
   const int64_t dims[3] = {5, 6, 7};
   const uint32_t pad[3] = {3, 2, 0};
   for (uint32_t esize = 1; esize <= 8; esize *= 2) {
      int64_t strides[3];
      padded_strides(3, esize, dims, pad, strides);
      struct tensor packed, strided;
      if (tensor_init(&packed, format_of(esize), esize, 3, dims, NULL, USAGE_ALL, true) &&
          tensor_init(&strided, format_of(esize), esize, 3, dims, strides, USAGE_ALL, true)) {
         struct region whole = {.whole = true};
         run_copy(&packed, &strided, &whole, 1, "packed to strided");
         run_copy(&strided, &packed, &whole, 1, "strided to packed");
         run_copy(&packed, &packed, &whole, 0, "no regions");
      }
      tensor_finish(&packed);
      tensor_finish(&strided);
   }
   /* Packed to packed (one run), between size-compatible formats. */
   struct tensor a, b;
   if (tensor_init(&a, VK_FORMAT_R32_SFLOAT, 4, 3, dims, NULL, USAGE_ALL, true) &&
       tensor_init(&b, VK_FORMAT_R32_UINT, 4, 3, dims, NULL, USAGE_ALL, true)) {
      struct region whole = {.whole = true};
      run_copy(&a, &b, &whole, 1, "packed to packed, R32_SFLOAT to R32_UINT");
   }
   tensor_finish(&a);
   tensor_finish(&b);
}

/* Ranks 1..6, element sizes 1/2/4/8, strided on both sides, offset sub-boxes. */
static void
case_ranks(void)
{
   const int64_t all_dims[6] = {5, 4, 6, 3, 4, 7};
   for (uint32_t rank = 1; rank <= 6; rank++) {
      for (uint32_t esize = 1; esize <= 8; esize *= 2) {
         char context[64];
         snprintf(context, sizeof(context), "rank %u, %u-byte elements", rank, esize);
         test_set_context(context);
         const int64_t *dims = &all_dims[6 - rank];
         uint32_t src_pad[6], dst_pad[6];
         for (uint32_t i = 0; i < 6; i++) {
            src_pad[i] = (i + rank) % 3;
            dst_pad[i] = (i + esize) % 2 + 1;
         }
         int64_t src_strides[6], dst_strides[6];
         padded_strides(rank, esize, dims, src_pad, src_strides);
         padded_strides(rank, esize, dims, dst_pad, dst_strides);
         struct tensor src, dst;
         if (tensor_init(&src, format_of(esize), esize, rank, dims, src_strides, USAGE_ALL,
                         true) &&
             tensor_init(&dst, format_of(esize), esize, rank, dims, dst_strides, USAGE_ALL,
                         true)) {
            struct region r = {0};
            for (uint32_t i = 0; i < rank; i++) {
               r.extent[i] = (uint64_t)dims[i] - 1;
               r.src_offset[i] = (i + rank) % 2;
               r.dst_offset[i] = (i + esize + 1) % 2;
            }
            run_copy(&src, &dst, &r, 1, "sub-box with offsets");
            /* Packed source: the inner rows join into runs. */
            struct region whole = {.whole = true};
            run_copy(&dst, &src, &whole, 1, "whole");
         }
         tensor_finish(&src);
         tensor_finish(&dst);
      }
   }
}

/* Several regions in one call, including one that is a single element. */
static void
case_regions(void)
{
   test_set_context("several regions");
   const int64_t dims[2] = {16, 20};
   const uint32_t pad[2] = {5, 0};
   int64_t strides[2];
   padded_strides(2, 4, dims, pad, strides);
   struct tensor src, dst;
   if (tensor_init(&src, VK_FORMAT_R32_SFLOAT, 4, 2, dims, NULL, USAGE_ALL, true) &&
       tensor_init(&dst, VK_FORMAT_R32_SFLOAT, 4, 2, dims, strides, USAGE_ALL, true)) {
      struct region r[4] = {
         {.src_offset = {0, 0}, .dst_offset = {12, 0}, .extent = {4, 20}},
         {.src_offset = {4, 2}, .dst_offset = {0, 10}, .extent = {6, 8}},
         {.src_offset = {10, 0}, .dst_offset = {6, 0}, .extent = {6, 2}},
         {.src_offset = {15, 19}, .dst_offset = {0, 0}, .extent = {1, 1}},
      };
      run_copy(&src, &dst, r, 4, "four regions");
   }
   tensor_finish(&src);
   tensor_finish(&dst);
}

/* 16-byte aligned runs and strides (uvec4 units), and a large 1-byte copy
 * with odd rows (byte units; many dispatches when they are limited). */
static void
case_units(void)
{
   test_set_context("16-byte units");
   struct tensor src, dst;
   const int64_t dims[2] = {100, 8};
   const int64_t src_strides[2] = {48, 4}, dst_strides[2] = {64, 4};
   if (tensor_init(&src, VK_FORMAT_R32_UINT, 4, 2, dims, src_strides, USAGE_ALL, true) &&
       tensor_init(&dst, VK_FORMAT_R32_UINT, 4, 2, dims, dst_strides, USAGE_ALL, true)) {
      struct region whole = {.whole = true};
      run_copy(&src, &dst, &whole, 1, "whole");
   }
   tensor_finish(&src);
   tensor_finish(&dst);

   test_set_context("large byte copy");
   const int64_t big[2] = {1000, 33};
   const int64_t big_strides[2] = {40, 1};
   if (tensor_init(&src, VK_FORMAT_R8_UINT, 1, 2, big, NULL, USAGE_ALL, true) &&
       tensor_init(&dst, VK_FORMAT_R8_UINT, 1, 2, big, big_strides, USAGE_ALL, true)) {
      struct region whole = {.whole = true};
      run_copy(&src, &dst, &whole, 1, "1000 rows of 33 bytes");
      struct region r = {.src_offset = {3, 1}, .dst_offset = {1, 2}, .extent = {997, 31}};
      run_copy(&src, &dst, &r, 1, "offset rows");
   }
   tensor_finish(&src);
   tensor_finish(&dst);
}

/* Source and destination in one tensor: interleaved but not overlapping bytes. */
static void
case_same_tensor(void)
{
   test_set_context("same tensor");
   struct tensor t;
   const int64_t dims[2] = {80, 16};
   if (tensor_init(&t, VK_FORMAT_R32_UINT, 4, 2, dims, NULL, USAGE_ALL, true)) {
      struct region r = {.src_offset = {0, 0}, .dst_offset = {0, 8}, .extent = {80, 8}};
      run_copy(&t, &t, &r, 1, "left half to right half");
      struct region rows = {.src_offset = {0, 0}, .dst_offset = {40, 0}, .extent = {40, 16}};
      run_copy(&t, &t, &rows, 1, "top half to bottom half");
   }
   tensor_finish(&t);
}

/* Two copies in one command buffer, the second reading what the first wrote. */
static void
case_two_copies(void)
{
   test_set_context("two copies");
   const int64_t dims[3] = {9, 10, 11};
   const uint32_t pad[3] = {1, 3, 0};
   int64_t strides[3];
   padded_strides(3, 2, dims, pad, strides);
   struct tensor a, b, c;
   bool ready = tensor_init(&a, VK_FORMAT_R16_UINT, 2, 3, dims, NULL, USAGE_ALL, true) &&
                tensor_init(&b, VK_FORMAT_R16_UINT, 2, 3, dims, strides, USAGE_ALL, true) &&
                tensor_init(&c, VK_FORMAT_R16_UINT, 2, 3, dims, NULL, USAGE_ALL, true);
   if (ready) {
      fill_random(&a);
      fill_pattern(&b);
      fill_pattern(&c);
      uint8_t *a_bytes = snapshot(&a), *b_want = snapshot(&b), *c_want = snapshot(&c);
      struct region ab = {.src_offset = {1, 0, 2}, .dst_offset = {0, 1, 0}, .extent = {8, 9, 9}};
      struct region bc = {.src_offset = {0, 1, 0}, .dst_offset = {1, 0, 1}, .extent = {8, 9, 9}};
      if (ok(a_bytes && b_want && c_want, "memory")) {
         model_region(&a, a_bytes, &b, b_want, &ab);
         model_region(&b, b_want, &c, c_want, &bc);
         VkCommandBuffer cmd = begin();
         record_copy(cmd, &a, &b, &ab, 1);
         /* The application synchronizes copies in the transfer stage only. */
         record_barrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_READ_BIT);
         record_copy(cmd, &b, &c, &bc, 1);
         record_transfer_to_host(cmd);
         end_submit_free(cmd);
         check_bytes(&b, b_want, "first destination");
         check_bytes(&c, c_want, "second destination");
      }
      free(a_bytes);
      free(b_want);
      free(c_want);
   }
   tensor_finish(&a);
   tensor_finish(&b);
   tensor_finish(&c);
}

/* The same copy recorded into two command buffers before either is submitted. */
static void
case_two_command_buffers(void)
{
   test_set_context("two command buffers");
   const int64_t dims[2] = {120, 12};
   const int64_t strides[2] = {60, 4};
   struct tensor src, dst;
   if (tensor_init(&src, VK_FORMAT_R32_UINT, 4, 2, dims, strides, USAGE_ALL, true) &&
       tensor_init(&dst, VK_FORMAT_R32_UINT, 4, 2, dims, NULL, USAGE_ALL, true)) {
      fill_random(&src);
      fill_pattern(&dst);
      uint8_t *src_bytes = snapshot(&src), *want = snapshot(&dst), *pattern = snapshot(&dst);
      struct region r = {.src_offset = {5, 1}, .dst_offset = {0, 0}, .extent = {115, 11}};
      if (ok(src_bytes && want && pattern, "memory")) {
         model_region(&src, src_bytes, &dst, want, &r);
         VkCommandBuffer cmd[2];
         for (int i = 0; i < 2; i++) {
            cmd[i] = begin();
            record_copy(cmd[i], &src, &dst, &r, 1);
            record_transfer_to_host(cmd[i]);
            ok(vkEndCommandBuffer(cmd[i]) == VK_SUCCESS, "vkEndCommandBuffer");
         }
         for (int i = 0; i < 2; i++) {
            memcpy(dst.base, pattern, dst.size);
            submit(cmd[i]);
            check_bytes(&dst, want, i ? "second command buffer" : "first command buffer");
         }
         vkFreeCommandBuffers(device, pool, 2, cmd);
      }
      free(src_bytes);
      free(want);
      free(pattern);
   }
   tensor_finish(&src);
   tensor_finish(&dst);
}

/* The application's dispatches around copies: its pipeline, descriptor set and
 * push constants (pushed in pieces) must still be in effect afterwards. */
static void
case_app_dispatch(void)
{
   test_set_context("application dispatch");
   const struct vmel_kernel *k = &test_kernels[TEST_KERNEL_APP_FILL];
   VkDescriptorSetLayoutBinding binding = {
      .binding = 0,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .descriptorCount = 1,
      .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT,
   };
   VkDescriptorSetLayoutCreateInfo dslci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = 1,
      .pBindings = &binding,
   };
   VkDescriptorSetLayout set_layout;
   ok(vkCreateDescriptorSetLayout(device, &dslci, NULL, &set_layout) == VK_SUCCESS, "set layout");
   VkPushConstantRange range = {.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = 12};
   VkPipelineLayoutCreateInfo plci = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &set_layout,
      .pushConstantRangeCount = 1,
      .pPushConstantRanges = &range,
   };
   VkPipelineLayout layout;
   ok(vkCreatePipelineLayout(device, &plci, NULL, &layout) == VK_SUCCESS, "pipeline layout");
   VkShaderModuleCreateInfo smci = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = k->word_count * 4,
      .pCode = k->code,
   };
   VkShaderModule module;
   ok(vkCreateShaderModule(device, &smci, NULL, &module) == VK_SUCCESS, "shader module");
   VkComputePipelineCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = module,
                .pName = "main"},
      .layout = layout,
   };
   VkPipeline pipeline;
   ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline) == VK_SUCCESS,
      "pipeline");

   /* The output buffer: 256 words. */
   VkBufferCreateInfo bci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
      .size = 256 * 4,
      .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
   };
   VkBuffer buffer;
   ok(vkCreateBuffer(device, &bci, NULL, &buffer) == VK_SUCCESS, "buffer");
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(device, buffer, &req);
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.size,
      .memoryTypeIndex = vku_host_memory_type(&v, req.memoryTypeBits),
   };
   VkDeviceMemory memory;
   ok(vkAllocateMemory(device, &mai, NULL, &memory) == VK_SUCCESS, "buffer memory");
   ok(vkBindBufferMemory(device, buffer, memory, 0) == VK_SUCCESS, "bind buffer");
   void *map;
   ok(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, &map) == VK_SUCCESS, "map buffer");
   uint32_t *words = map;
   memset(words, 0, 256 * 4);

   VkDescriptorPoolSize ps = {.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, .descriptorCount = 1};
   VkDescriptorPoolCreateInfo dpci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1,
      .poolSizeCount = 1,
      .pPoolSizes = &ps,
   };
   VkDescriptorPool dpool;
   ok(vkCreateDescriptorPool(device, &dpci, NULL, &dpool) == VK_SUCCESS, "descriptor pool");
   VkDescriptorSetAllocateInfo dsai = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorPool = dpool,
      .descriptorSetCount = 1,
      .pSetLayouts = &set_layout,
   };
   VkDescriptorSet set;
   ok(vkAllocateDescriptorSets(device, &dsai, &set) == VK_SUCCESS, "descriptor set");
   VkDescriptorBufferInfo dbi = {.buffer = buffer, .range = VK_WHOLE_SIZE};
   VkWriteDescriptorSet write = {
      .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
      .dstSet = set,
      .descriptorCount = 1,
      .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
      .pBufferInfo = &dbi,
   };
   vkUpdateDescriptorSets(device, 1, &write, 0, NULL);

   /* A copy with many runs, so the automatic mode takes the kernel. */
   const int64_t dims[2] = {200, 6};
   const int64_t strides[2] = {32, 4};
   struct tensor src, dst;
   if (tensor_init(&src, VK_FORMAT_R32_UINT, 4, 2, dims, NULL, USAGE_ALL, true) &&
       tensor_init(&dst, VK_FORMAT_R32_UINT, 4, 2, dims, strides, USAGE_ALL, true)) {
      fill_random(&src);
      fill_pattern(&dst);
      uint8_t *src_bytes = snapshot(&src), *want = snapshot(&dst);
      struct region whole = {.whole = true};
      if (ok(src_bytes && want, "memory")) {
         model_region(&src, src_bytes, &dst, want, &whole);
         /* The application orders its copies (transfer stage) and its
          * dispatches (compute stage), each among themselves. */
         const VkPipelineStageFlags transfer = VK_PIPELINE_STAGE_TRANSFER_BIT;
         const VkPipelineStageFlags compute = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
         const VkAccessFlags copy_write = VK_ACCESS_TRANSFER_WRITE_BIT;
         const VkAccessFlags shader_write = VK_ACCESS_SHADER_WRITE_BIT;
         VkCommandBuffer cmd = begin();
         /* A copy before the application has bound anything. */
         record_copy(cmd, &src, &dst, &whole, 1);
         vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
         vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0,
                                 NULL);
         const uint32_t base = 0, value_count[2] = {1000, 128};
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &base);
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 4, 8, value_count);
         vkCmdDispatch(cmd, 1, 1, 1); /* words 0..63 */
         record_barrier(cmd, transfer, copy_write, transfer, copy_write);
         record_copy(cmd, &src, &dst, &whole, 1);
         record_barrier(cmd, compute, shader_write, compute, shader_write);
         vkCmdDispatch(cmd, 2, 1, 1); /* words 0..127: 64..127 need the restored state */
         const uint32_t value = 5000, base2 = 128;
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 4, 4, &value);
         record_barrier(cmd, transfer, copy_write, transfer, copy_write);
         record_copy(cmd, &src, &dst, &whole, 1);
         vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &base2);
         record_barrier(cmd, transfer, copy_write, transfer, copy_write);
         record_copy(cmd, &src, &dst, &whole, 1);
         vkCmdDispatch(cmd, 1, 1, 1); /* words 128..191 = 5000 + i */
         record_transfer_to_host(cmd);
         end_submit_free(cmd);
         check_bytes(&dst, want, "copied tensor");
         bool good = true;
         for (uint32_t i = 0; i < 256 && good; i++) {
            uint32_t expect = i < 128 ? 1000 + i : i < 192 ? 5000 + (i - 128) : 0;
            good = ok(words[i] == expect, "word %u is %u, expected %u", i, words[i], expect);
         }
         if (good)
            ok(true, "application dispatches saw their pipeline, set and push constants");
      }
      free(src_bytes);
      free(want);
   }
   tensor_finish(&src);
   tensor_finish(&dst);
   vkDestroyDescriptorPool(device, dpool, NULL);
   vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyShaderModule(device, module, NULL);
   vkDestroyPipelineLayout(device, layout, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   vkDestroyBuffer(device, buffer, NULL);
   vkFreeMemory(device, memory, NULL);
}

/* A copy the layer must reject: logged, nothing written, no crash. */
static void
expect_rejected(struct tensor *src, struct tensor *dst, const VkTensorCopyARM *region,
                uint32_t count, const char *log_word, const char *what)
{
   fill_pattern(dst);
   uint8_t *want = snapshot(dst);
   if (!ok(want != NULL, "memory"))
      return;
   VkCopyTensorInfoARM info = {
      .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
      .srcTensor = src->handle,
      .dstTensor = dst->handle,
      .regionCount = count,
      .pRegions = region,
   };
   VkCommandBuffer cmd = begin();
   vku_capture_stderr_begin();
   cmd_copy_tensor(cmd, &info);
   const char *log = vku_capture_stderr_end();
   record_transfer_to_host(cmd);
   end_submit_free(cmd);
   ok(strstr(log, "vkCmdCopyTensorARM") && strstr(log, log_word), "%s: logged (%s)", what,
      log_word);
   check_bytes(dst, want, what);
   free(want);
}

static void
case_invalid(void)
{
   test_set_context("invalid copies");
   const int64_t dims2[2] = {6, 8}, dims3[3] = {6, 8, 1}, small[2] = {5, 8};
   struct tensor a, b3, b8, bsmall, no_dst_usage, unbound;
   bool ready =
      tensor_init(&a, VK_FORMAT_R32_UINT, 4, 2, dims2, NULL, USAGE_ALL, true) &&
      tensor_init(&b3, VK_FORMAT_R32_UINT, 4, 3, dims3, NULL, USAGE_ALL, true) &&
      tensor_init(&b8, VK_FORMAT_R8_UINT, 1, 2, dims2, NULL, USAGE_ALL, true) &&
      tensor_init(&bsmall, VK_FORMAT_R32_UINT, 4, 2, small, NULL, USAGE_ALL, true) &&
      tensor_init(&no_dst_usage, VK_FORMAT_R32_UINT, 4, 2, dims2, NULL,
                  VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM, true) &&
      tensor_init(&unbound, VK_FORMAT_R32_UINT, 4, 2, dims2, NULL, USAGE_ALL, false);
   if (ready) {
      fill_random(&a);
      VkTensorCopyARM whole = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM};
      expect_rejected(&a, &b3, &whole, 1, "dimensions", "rank 2 to rank 3");
      expect_rejected(&a, &b8, &whole, 1, "size-compatible", "4-byte to 1-byte elements");
      expect_rejected(&a, &bsmall, &whole, 1, "out of bounds", "whole tensor into a smaller one");
      expect_rejected(&a, &no_dst_usage, &whole, 1, "TRANSFER_DST", "no transfer-dst usage");
      expect_rejected(&a, &unbound, &whole, 1, "not bound", "unbound destination");

      const uint64_t off[2] = {2, 0}, ext[2] = {5, 8}, ext_ok[2] = {2, 3}, one[1] = {1};
      VkTensorCopyARM oob = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                             .dimensionCount = 2,
                             .pSrcOffset = off,
                             .pExtent = ext};
      expect_rejected(&a, &bsmall, &oob, 1, "out of bounds", "source offset + extent too large");
      VkTensorCopyARM oob_dst = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                                 .dimensionCount = 2,
                                 .pDstOffset = off,
                                 .pExtent = ext};
      expect_rejected(&a, &bsmall, &oob_dst, 1, "out of bounds", "destination out of bounds");
      VkTensorCopyARM short_count = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                                     .dimensionCount = 1,
                                     .pExtent = one};
      expect_rejected(&a, &bsmall, &short_count, 1, "dimensionCount", "dimensionCount 1 of 2");
      VkTensorCopyARM zero_with_extent = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                                          .pExtent = ext_ok};
      expect_rejected(&a, &bsmall, &zero_with_extent, 1, "09955",
                      "dimensionCount 0 with an extent");
      VkCopyTensorInfoARM null_regions = {
         .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
         .srcTensor = a.handle,
         .dstTensor = bsmall.handle,
         .regionCount = 1,
      };
      VkCommandBuffer cmd = begin();
      vku_capture_stderr_begin();
      cmd_copy_tensor(cmd, &null_regions);
      const char *log = vku_capture_stderr_end();
      ok(strstr(log, "pRegions is NULL") != NULL, "NULL pRegions logged");
      end_submit_free(cmd);

      /* A valid region next to an invalid one: the valid one is copied. */
      test_set_context("valid and invalid regions");
      struct tensor *dst = &bsmall;
      fill_pattern(dst);
      uint8_t *a_bytes = snapshot(&a), *want = snapshot(dst);
      if (ok(a_bytes && want, "memory")) {
         struct region valid = {.src_offset = {1, 2}, .dst_offset = {3, 4}, .extent = {2, 3}};
         model_region(&a, a_bytes, dst, want, &valid);
         VkTensorCopyARM regions[2] = {oob, {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                                             .dimensionCount = 2,
                                             .pSrcOffset = valid.src_offset,
                                             .pDstOffset = valid.dst_offset,
                                             .pExtent = valid.extent}};
         VkCopyTensorInfoARM info = {
            .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
            .srcTensor = a.handle,
            .dstTensor = dst->handle,
            .regionCount = 2,
            .pRegions = regions,
         };
         cmd = begin();
         vku_capture_stderr_begin();
         cmd_copy_tensor(cmd, &info);
         log = vku_capture_stderr_end();
         ok(strstr(log, "pRegions[0]") != NULL, "the invalid region is named");
         record_transfer_to_host(cmd);
         end_submit_free(cmd);
         check_bytes(dst, want, "valid region copied");
      }
      free(a_bytes);
      free(want);
   }
   tensor_finish(&a);
   tensor_finish(&b3);
   tensor_finish(&b8);
   tensor_finish(&bsmall);
   tensor_finish(&no_dst_usage);
   tensor_finish(&unbound);
}

/* ---- devices ----------------------------------------------------------- */

static bool
device_init(const char *mode, const char *max_groups)
{
   setenv("VMEL_TENSOR_COPY", mode, 1);
   if (max_groups)
      setenv("VMEL_TENSOR_COPY_MAX_GROUPS", max_groups, 1);
   else
      unsetenv("VMEL_TENSOR_COPY_MAX_GROUPS");
   VkPhysicalDeviceTensorFeaturesARM tf = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
      .tensorNonPacked = VK_TRUE,
      .tensors = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors"};
   if (!ok(vku_create_device(&v, ext, 1, &tf, &device) == VK_SUCCESS, "vkCreateDevice"))
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
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(cmd_copy_tensor, "vkCmdCopyTensorARM");
#undef GET
   if (!ok(create_tensor && destroy_tensor && tensor_reqs && bind_tensor && cmd_copy_tensor,
           "entry points"))
      return false;
   VkCommandPoolCreateInfo cpci = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = family,
   };
   return ok(vkCreateCommandPool(device, &cpci, NULL, &pool) == VK_SUCCESS, "command pool");
}

static void
device_finish(void)
{
   if (pool)
      vkDestroyCommandPool(device, pool, NULL);
   pool = VK_NULL_HANDLE;
   if (device)
      vkDestroyDevice(device, NULL);
   device = VK_NULL_HANDLE;
}

int
main(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init_sync(&v, layers, 1) == VK_SUCCESS, "instance");
   vku_require_device(&v);

   static const struct {
      const char *mode;
      const char *max_groups;
   } configs[] = {
      {"auto", NULL},
      {"buffer", NULL},
      {"kernel", NULL},
      {"kernel", "2"},
   };
   for (unsigned i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
      fprintf(stderr, "# VMEL_TENSOR_COPY=%s VMEL_TENSOR_COPY_MAX_GROUPS=%s\n", configs[i].mode,
             configs[i].max_groups ? configs[i].max_groups : "(unset)");
      if (device_init(configs[i].mode, configs[i].max_groups)) {
         case_whole();
         case_ranks();
         case_regions();
         case_units();
         case_same_tensor();
         case_two_copies();
         case_two_command_buffers();
         case_app_dispatch();
         case_invalid();
      }
      device_finish();
   }
   vku_finish(&v);
   return test_done();
}
