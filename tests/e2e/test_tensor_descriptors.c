/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_DESCRIPTOR_TYPE_TENSOR_ARM descriptors through the loader on lavapipe,
 * validation below: a compute kernel without tensor opcodes
 * (tensor_descriptors.comp) reads five tensor descriptors as the tensor ABI
 * lowers them (a storage buffer holding the view's record) and writes each
 * record and the elements it reaches to an output buffer. The descriptors come
 * from vkUpdateDescriptorSets (an array written from dstArrayElement 1 on,
 * running into the next binding, plus a descriptor copy from a set allocated
 * from a pool of tensors only), push descriptors, and update templates (set
 * and push). Layout support queries accept tensor bindings, invalid tensor
 * writes are logged and ignored, and the application's structs are left as
 * they were.
 */
#include <stddef.h>
#include <stdlib.h>

#include "test.h"
#include "vkutil.h"

#include "vmel_kernels_test_descriptors.h"

TEST_MAIN_STATE;

#define SLOT_WORDS 32
#define DATA_WORDS 16
#define SLOTS 5
#define OUT_SIZE (SLOTS * SLOT_WORDS * sizeof(uint32_t))
#define TENSORS 5

static struct vku v;
static VkDevice device;
static VkQueue queue;
static VkCommandPool cmd_pool;

static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCreateTensorViewARM create_view;
static PFN_vkDestroyTensorViewARM destroy_view;
static PFN_vkCmdPushDescriptorSetKHR push_set;
static PFN_vkCmdPushDescriptorSetWithTemplateKHR push_template;

/* The tensors the kernel reads: shapes of every rank, packed and strided. */
struct tensor {
   uint32_t rank;
   int64_t dims[6];
   int64_t strides[6]; /* bytes; all zero: packed (pStrides NULL) */
   VkTensorARM handle;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   int64_t layout[6]; /* the strides the data was written with */
};

static struct tensor tensors[TENSORS] = {
    {.rank = 2, .dims = {3, 4}},
    {.rank = 3, .dims = {2, 2, 3}, .strides = {64, 24, 4}},
    {.rank = 1, .dims = {5}},
    {.rank = 4, .dims = {1, 2, 1, 2}},
    {.rank = 6, .dims = {2, 1, 2, 1, 2, 2}},
};
enum { A, B, C, D, E };

/* Element n (row-major) of tensor k. */
static uint32_t
element_value(unsigned k, uint32_t n)
{
   return (k + 1) * 1000 + n;
}

static uint64_t
element_count(const struct tensor *t)
{
   uint64_t n = 1;
   for (uint32_t i = 0; i < t->rank; i++)
      n *= (uint64_t)t->dims[i];
   return n;
}

/* Creates tensor k, binds it to host-visible memory, fills it and makes a view. */
static bool
tensor_init(unsigned k)
{
   struct tensor *t = &tensors[k];
   bool strided = t->strides[t->rank - 1] != 0;
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = VK_FORMAT_R32_UINT,
       .dimensionCount = t->rank,
       .pDimensions = t->dims,
       .pStrides = strided ? t->strides : NULL,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   VkTensorCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
       .pDescription = &desc,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (!ok(create_tensor(device, &info, NULL, &t->handle) == VK_SUCCESS, "tensor %u", k))
      return false;
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
       .tensor = t->handle,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   tensor_reqs(device, &ri, &req);
   uint32_t type = vku_host_memory_type(&v, req.memoryRequirements.memoryTypeBits);
   if (!ok(type != UINT32_MAX, "tensor %u: host-visible memory type", k))
      return false;
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.memoryRequirements.size,
       .memoryTypeIndex = type,
   };
   if (!ok(vkAllocateMemory(device, &mai, NULL, &t->memory) == VK_SUCCESS, "tensor %u memory", k))
      return false;
   VkBindTensorMemoryInfoARM bind = {
       .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
       .tensor = t->handle,
       .memory = t->memory,
   };
   if (!ok(bind_tensor(device, 1, &bind) == VK_SUCCESS, "tensor %u bind", k))
      return false;

   t->layout[t->rank - 1] = 4;
   for (uint32_t i = t->rank - 1; i > 0; i--)
      t->layout[i - 1] = t->layout[i] * t->dims[i];
   if (strided)
      memcpy(t->layout, t->strides, sizeof(t->layout));
   char *data;
   if (!ok(vkMapMemory(device, t->memory, 0, VK_WHOLE_SIZE, 0, (void **)&data) == VK_SUCCESS,
           "tensor %u map", k))
      return false;
   memset(data, 0xab, mai.allocationSize);
   uint64_t total = element_count(t);
   for (uint32_t n = 0; n < total; n++) {
      uint64_t rem = n, offset = 0;
      for (int i = (int)t->rank - 1; i >= 0; i--) {
         offset += (rem % (uint64_t)t->dims[i]) * (uint64_t)t->layout[i];
         rem /= (uint64_t)t->dims[i];
      }
      uint32_t value = element_value(k, n);
      memcpy(data + offset, &value, sizeof(value));
   }
   vkUnmapMemory(device, t->memory);

   VkTensorViewCreateInfoARM vi = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
       .tensor = t->handle,
       .format = VK_FORMAT_R32_UINT,
   };
   return ok(create_view(device, &vi, NULL, &t->view) == VK_SUCCESS, "tensor %u view", k);
}

static void
tensor_finish(unsigned k)
{
   struct tensor *t = &tensors[k];
   destroy_view(device, t->view, NULL);
   destroy_tensor(device, t->handle, NULL);
   vkFreeMemory(device, t->memory, NULL);
}

/* ---- output buffers ---------------------------------------------------------- */

struct out_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   uint32_t *words;
};

static bool
out_init(struct out_buffer *o)
{
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = OUT_SIZE,
       .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (!ok(vkCreateBuffer(device, &bci, NULL, &o->buffer) == VK_SUCCESS, "output buffer"))
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(device, o->buffer, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = vku_host_memory_type(&v, req.memoryTypeBits),
   };
   if (!ok(vkAllocateMemory(device, &mai, NULL, &o->memory) == VK_SUCCESS, "output memory"))
      return false;
   vkBindBufferMemory(device, o->buffer, o->memory, 0);
   return ok(vkMapMemory(device, o->memory, 0, VK_WHOLE_SIZE, 0, (void **)&o->words) == VK_SUCCESS,
             "output map");
}

static void
out_clear(struct out_buffer *o)
{
   memset(o->words, 0, OUT_SIZE);
}

static void
out_finish(struct out_buffer *o)
{
   vkDestroyBuffer(device, o->buffer, NULL);
   vkFreeMemory(device, o->memory, NULL);
}

static VkDescriptorBufferInfo
out_info(const struct out_buffer *o)
{
   return (VkDescriptorBufferInfo){o->buffer, 0, VK_WHOLE_SIZE};
}

/* Checks the kernel's output: slot s saw tensor expect[s]. */
static void
out_check(const struct out_buffer *o, const unsigned expect[SLOTS], const char *what)
{
   for (unsigned s = 0; s < SLOTS; s++) {
      const uint32_t *w = o->words + s * SLOT_WORDS;
      const struct tensor *t = &tensors[expect[s]];
      ok(w[0] != 0 || w[1] != 0, "%s slot %u: record has an address", what, s);
      check_eq_u64(w[2], t->rank);
      check_eq_u64(w[3], 4);
      bool shape = true;
      for (uint32_t i = 0; i < 6; i++) {
         shape &= w[4 + i] == (i < t->rank ? (uint32_t)t->dims[i] : 1u);
         shape &= w[10 + i] == (i < t->rank ? (uint32_t)t->layout[i] : 0u);
      }
      ok(shape, "%s slot %u: dims and strides of tensor %u", what, s, expect[s]);
      uint64_t total = element_count(t);
      unsigned wrong = 0;
      for (uint32_t n = 0; n < DATA_WORDS; n++) {
         uint32_t want = n < total ? element_value(expect[s], n) : 0xdeadbeefu;
         if (w[16 + n] != want && wrong++ == 0)
            ok(false, "%s slot %u element %u: %u, expected %u", what, s, n, w[16 + n], want);
      }
      ok(wrong == 0, "%s slot %u: %u elements of tensor %u wrong", what, s, wrong, expect[s]);
   }
}

/* ---- pipelines and submission ------------------------------------------------ */

static VkShaderModule module;

static VkPipeline
make_pipeline(VkPipelineLayout layout)
{
   VkComputePipelineCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage =
           {
               .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
               .stage = VK_SHADER_STAGE_COMPUTE_BIT,
               .module = module,
               .pName = "main",
           },
       .layout = layout,
   };
   VkPipeline pipeline = VK_NULL_HANDLE;
   ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &info, NULL, &pipeline) == VK_SUCCESS,
      "compute pipeline");
   return pipeline;
}

static VkCommandBuffer
begin(void)
{
   VkCommandBufferAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
       .commandPool = cmd_pool,
       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
       .commandBufferCount = 1,
   };
   VkCommandBuffer cmd;
   vkAllocateCommandBuffers(device, &ai, &cmd);
   VkCommandBufferBeginInfo bi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT,
   };
   vkBeginCommandBuffer(cmd, &bi);
   return cmd;
}

/* Makes the kernel's writes visible to the host, submits and waits. */
static void
submit(VkCommandBuffer cmd)
{
   VkMemoryBarrier barrier = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
       .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
       .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
   };
   vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                        &barrier, 0, NULL, 0, NULL);
   vkEndCommandBuffer(cmd);
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
   };
   ok(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS, "submit");
   ok(vkQueueWaitIdle(queue) == VK_SUCCESS, "wait");
   vkFreeCommandBuffers(device, cmd_pool, 1, &cmd);
}

/* ---- descriptor set layouts ------------------------------------------------- */

/* binding 0: tensor[3], 1: tensor, 2: output storage buffer, 3: tensor. */
static const VkDescriptorSetLayoutBinding kernel_bindings[] = {
    {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 3, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
    {3, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
};

static VkDescriptorSetLayoutCreateInfo
kernel_layout_info(VkDescriptorSetLayoutCreateFlags flags)
{
   return (VkDescriptorSetLayoutCreateInfo){
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .flags = flags,
       .bindingCount = 4,
       .pBindings = kernel_bindings,
   };
}

static VkDescriptorSetLayout
make_layout(const VkDescriptorSetLayoutCreateInfo *info)
{
   VkDescriptorSetLayout layout = VK_NULL_HANDLE;
   ok(vkCreateDescriptorSetLayout(device, info, NULL, &layout) == VK_SUCCESS, "set layout");
   return layout;
}

static VkPipelineLayout
make_pipeline_layout(VkDescriptorSetLayout set_layout)
{
   VkPipelineLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &set_layout,
   };
   VkPipelineLayout layout = VK_NULL_HANDLE;
   ok(vkCreatePipelineLayout(device, &info, NULL, &layout) == VK_SUCCESS, "pipeline layout");
   return layout;
}

static VkDescriptorSet
allocate_set(VkDescriptorPool pool, VkDescriptorSetLayout layout)
{
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &layout,
   };
   VkDescriptorSet set = VK_NULL_HANDLE;
   ok(vkAllocateDescriptorSets(device, &ai, &set) == VK_SUCCESS, "allocate set");
   return set;
}

/* ---- the checks ------------------------------------------------------------- */

static void
check_layout_support(void)
{
   test_set_context("layout support");
   VkDescriptorSetLayoutCreateInfo info = kernel_layout_info(0);
   VkDescriptorSetLayoutBinding before[4];
   memcpy(before, kernel_bindings, sizeof(before));
   VkDescriptorSetLayoutSupport support = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT,
       .supported = VK_FALSE,
   };
   vkGetDescriptorSetLayoutSupport(device, &info, &support);
   ok(support.supported == VK_TRUE, "tensor bindings supported");
   ok(memcmp(before, kernel_bindings, sizeof(before)) == 0, "bindings untouched");
   ok(info.pBindings == kernel_bindings, "pBindings untouched");

   VkDescriptorSetLayoutCreateInfo push =
       kernel_layout_info(VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR);
   support.supported = VK_FALSE;
   vkGetDescriptorSetLayoutSupport(device, &push, &support);
   ok(support.supported == VK_TRUE, "push-descriptor tensor bindings supported");
}

/* vkUpdateDescriptorSets: binding 0 written as [0] and then [1..3], the last
 * running into binding 1; binding 3 copied from a set of a tensor-only pool. */
static void
check_update(VkPipeline pipeline, VkPipelineLayout pipeline_layout,
             VkDescriptorSetLayout set_layout, VkDescriptorPool pool, struct out_buffer *out)
{
   test_set_context("vkUpdateDescriptorSets");
   const VkDescriptorSetLayoutBinding src_binding = {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                                     VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo src_info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 1,
       .pBindings = &src_binding,
   };
   VkDescriptorSetLayout src_layout = make_layout(&src_info);
   const VkDescriptorPoolSize only_tensors = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2};
   VkDescriptorPoolCreateInfo pool_info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 2,
       .poolSizeCount = 1,
       .pPoolSizes = &only_tensors,
   };
   VkDescriptorPool src_pool = VK_NULL_HANDLE;
   ok(vkCreateDescriptorPool(device, &pool_info, NULL, &src_pool) == VK_SUCCESS,
      "pool of tensors only");
   ok(only_tensors.type == VK_DESCRIPTOR_TYPE_TENSOR_ARM && pool_info.pPoolSizes == &only_tensors,
      "pool sizes untouched");
   VkDescriptorSet src = allocate_set(src_pool, src_layout);
   VkDescriptorSet set = allocate_set(pool, set_layout);

   const VkTensorViewARM first[1] = {tensors[A].view};
   const VkTensorViewARM rest[3] = {tensors[B].view, tensors[C].view, tensors[D].view};
   const VkTensorViewARM copied[1] = {tensors[E].view};
   const VkWriteDescriptorSetTensorARM tw[3] = {
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 1, first},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 3, rest},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 1, copied},
   };
   const VkDescriptorBufferInfo oi = out_info(out);
   /* A struct the driver knows ahead of the ARM one: the layer copies the
    * chain without the ARM struct (an inline-uniform-block struct is ignored
    * for other descriptor types). */
   const uint32_t unused = 0;
   const VkWriteDescriptorSetInlineUniformBlock ahead = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
       .pNext = &tw[0],
       .dataSize = 4,
       .pData = &unused,
   };
   const VkWriteDescriptorSet writes[4] = {
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &ahead, set, 0, 0, 1,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &tw[1], set, 0, 1, 3,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 2, 0, 1,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &oi, NULL},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &tw[2], src, 0, 0, 1,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
   };
   const VkCopyDescriptorSet copy = {
       .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
       .srcSet = src,
       .srcBinding = 0,
       .dstSet = set,
       .dstBinding = 3,
       .descriptorCount = 1,
   };
   VkWriteDescriptorSet writes_before[4];
   VkWriteDescriptorSetTensorARM tw_before[3];
   memcpy(writes_before, writes, sizeof(writes));
   memcpy(tw_before, tw, sizeof(tw));
   /* Writes first, then the copy (one call, as the spec orders them). */
   vkUpdateDescriptorSets(device, 4, writes, 1, &copy);
   ok(memcmp(writes_before, writes, sizeof(writes)) == 0, "writes untouched");
   ok(memcmp(tw_before, tw, sizeof(tw)) == 0, "tensor write structs untouched");
   ok(ahead.pNext == &tw[0] &&
          ahead.sType == VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK,
      "chain ahead of the tensor struct untouched");

   out_clear(out);
   VkCommandBuffer cmd = begin();
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0,
                           NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   submit(cmd);
   const unsigned expect[SLOTS] = {A, B, C, D, E};
   out_check(out, expect, "update");

   vkDestroyDescriptorPool(device, src_pool, NULL);
   vkDestroyDescriptorSetLayout(device, src_layout, NULL);
}

/* A tensor write without its VkWriteDescriptorSetTensorARM, or with a wrong
 * view count, is logged and left out; the other writes of the call happen. */
static void
check_invalid_writes(VkDescriptorSetLayout set_layout, VkDescriptorPool pool,
                     struct out_buffer *out)
{
   test_set_context("invalid tensor writes");
   VkDescriptorSet set = allocate_set(pool, set_layout);
   const VkTensorViewARM views[2] = {tensors[A].view, tensors[B].view};
   const VkWriteDescriptorSetTensorARM short_tw = {
       VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 2, views};
   const VkDescriptorBufferInfo oi = out_info(out);
   const VkWriteDescriptorSet writes[3] = {
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_TENSOR_ARM},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &short_tw, set, 0, 0, 3,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, set, 2, 0, 1,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &oi, NULL},
   };
   vku_capture_stderr_begin();
   vkUpdateDescriptorSets(device, 3, writes, 0, NULL);
   const char *log = vku_capture_stderr_end();
   ok(strstr(log, "has no VkWriteDescriptorSetTensorARM") != NULL, "missing struct logged");
   ok(strstr(log, "tensorViewCount 2 != descriptorCount 3") != NULL, "count mismatch logged");
   vkFreeDescriptorSets(device, pool, 1, &set);
}

/* Push descriptors. dstArrayElement stays 0 here: lavapipe 22.3 ignores it in
 * vkCmdPushDescriptorSetKHR (measured without our layers); array offsets are
 * covered by check_update. */
static void
check_push(VkPipeline pipeline, VkPipelineLayout pipeline_layout, struct out_buffer *out)
{
   test_set_context("vkCmdPushDescriptorSetKHR");
   const VkTensorViewARM array[3] = {tensors[E].view, tensors[A].view, tensors[B].view};
   const VkTensorViewARM one[2] = {tensors[C].view, tensors[D].view};
   const VkWriteDescriptorSetTensorARM tw[3] = {
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 3, array},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 1, &one[0]},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM, NULL, 1, &one[1]},
   };
   const VkDescriptorBufferInfo oi = out_info(out);
   const VkWriteDescriptorSet writes[4] = {
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &tw[0], VK_NULL_HANDLE, 0, 0, 3,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, NULL, VK_NULL_HANDLE, 2, 0, 1,
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, NULL, &oi, NULL},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &tw[1], VK_NULL_HANDLE, 1, 0, 1,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
       {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &tw[2], VK_NULL_HANDLE, 3, 0, 1,
        VK_DESCRIPTOR_TYPE_TENSOR_ARM},
   };
   VkWriteDescriptorSet before[4];
   memcpy(before, writes, sizeof(writes));
   out_clear(out);
   VkCommandBuffer cmd = begin();
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   push_set(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 4, writes);
   vkCmdDispatch(cmd, 1, 1, 1);
   submit(cmd);
   ok(memcmp(before, writes, sizeof(writes)) == 0, "writes untouched");
   const unsigned expect[SLOTS] = {E, A, B, C, D};
   out_check(out, expect, "push");
}

/* The application's template data: tensor views 16 bytes apart. */
struct template_data {
   struct {
      VkTensorViewARM view;
      uint64_t pad;
   } array[3];
   VkDescriptorBufferInfo out;
   VkTensorViewARM next;
   VkTensorViewARM copy;
};

static const VkDescriptorUpdateTemplateEntry template_entries[4] = {
    {0, 0, 3, VK_DESCRIPTOR_TYPE_TENSOR_ARM, offsetof(struct template_data, array),
     sizeof(((struct template_data *)0)->array[0])},
    {1, 0, 1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, offsetof(struct template_data, next), 0},
    {2, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, offsetof(struct template_data, out), 0},
    {3, 0, 1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, offsetof(struct template_data, copy), 0},
};

static struct template_data
template_data(const unsigned order[SLOTS], const struct out_buffer *out)
{
   struct template_data d;
   memset(&d, 0x5a, sizeof(d));
   for (unsigned i = 0; i < 3; i++)
      d.array[i].view = tensors[order[i]].view;
   d.next = tensors[order[3]].view;
   d.copy = tensors[order[4]].view;
   d.out = out_info(out);
   return d;
}

static void
check_template(VkPipeline pipeline, VkPipelineLayout pipeline_layout,
               VkDescriptorSetLayout set_layout, VkDescriptorPool pool, struct out_buffer *out)
{
   test_set_context("update template");
   VkDescriptorUpdateTemplateCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 4,
       .pDescriptorUpdateEntries = template_entries,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = set_layout,
   };
   VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
   if (!ok(vkCreateDescriptorUpdateTemplate(device, &info, NULL, &tmpl) == VK_SUCCESS,
           "create template"))
      return;
   ok(template_entries[0].descriptorType == VK_DESCRIPTOR_TYPE_TENSOR_ARM, "entries untouched");

   /* A template without tensors is the driver's: it updates the output binding. */
   VkDescriptorUpdateTemplateCreateInfo plain_info = info;
   plain_info.descriptorUpdateEntryCount = 1;
   plain_info.pDescriptorUpdateEntries = &template_entries[2];
   VkDescriptorUpdateTemplate plain = VK_NULL_HANDLE;
   ok(vkCreateDescriptorUpdateTemplate(device, &plain_info, NULL, &plain) == VK_SUCCESS,
      "create template without tensors");

   VkDescriptorSet set = allocate_set(pool, set_layout);
   const unsigned order[SLOTS] = {D, E, A, B, C};
   struct template_data d = template_data(order, out);
   struct template_data before = d;
   vkUpdateDescriptorSetWithTemplate(device, set, tmpl, &d);
   ok(memcmp(&before, &d, sizeof(d)) == 0, "template data untouched");
   vkUpdateDescriptorSetWithTemplate(device, set, plain, &d);

   out_clear(out);
   VkCommandBuffer cmd = begin();
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_layout, 0, 1, &set, 0,
                           NULL);
   vkCmdDispatch(cmd, 1, 1, 1);
   submit(cmd);
   out_check(out, order, "template");

   vkDestroyDescriptorUpdateTemplate(device, plain, NULL);
   vkDestroyDescriptorUpdateTemplate(device, tmpl, NULL);
   vkDestroyDescriptorUpdateTemplate(device, VK_NULL_HANDLE, NULL);
}

/* A push template used twice in one command buffer with different data: each
 * push reads its own data at recording time. */
static void
check_push_template(VkPipeline pipeline, VkPipelineLayout pipeline_layout, struct out_buffer *out,
                    struct out_buffer *out2)
{
   test_set_context("push template");
   VkDescriptorUpdateTemplateCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 4,
       .pDescriptorUpdateEntries = template_entries,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR,
       .pipelineBindPoint = VK_PIPELINE_BIND_POINT_COMPUTE,
       .pipelineLayout = pipeline_layout,
       .set = 0,
   };
   VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
   if (!ok(vkCreateDescriptorUpdateTemplate(device, &info, NULL, &tmpl) == VK_SUCCESS,
           "create push template"))
      return;
   const unsigned order1[SLOTS] = {B, C, D, E, A};
   const unsigned order2[SLOTS] = {C, C, A, E, B};
   struct template_data d = template_data(order1, out);
   out_clear(out);
   out_clear(out2);
   VkCommandBuffer cmd = begin();
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
   push_template(cmd, tmpl, pipeline_layout, 0, &d);
   vkCmdDispatch(cmd, 1, 1, 1);
   d = template_data(order2, out2); /* the same application memory, new contents */
   push_template(cmd, tmpl, pipeline_layout, 0, &d);
   vkCmdDispatch(cmd, 1, 1, 1);
   submit(cmd);
   out_check(out, order1, "first push");
   out_check(out2, order2, "second push");
   vkDestroyDescriptorUpdateTemplate(device, tmpl, NULL);
}

static bool
device_init(void)
{
   const char *ext[] = {"VK_ARM_tensors", VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .tensorNonPacked = VK_TRUE,
   };
   if (!ok(vku_create_device(&v, ext, 2, &tf, &device) == VK_SUCCESS, "device"))
      return false;
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
   GET(push_set, "vkCmdPushDescriptorSetKHR");
   GET(push_template, "vkCmdPushDescriptorSetWithTemplateKHR");
#undef GET
   if (!ok(create_tensor && destroy_tensor && tensor_reqs && bind_tensor && create_view &&
               destroy_view && push_set && push_template,
           "entry points"))
      return false;
   vkGetDeviceQueue(device, 0, 0, &queue);
   VkCommandPoolCreateInfo cpi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = 0,
   };
   if (!ok(vkCreateCommandPool(device, &cpi, NULL, &cmd_pool) == VK_SUCCESS, "command pool"))
      return false;
   const struct vmel_kernel *k =
       &test_descriptors_kernels[TEST_DESCRIPTORS_KERNEL_TENSOR_DESCRIPTORS];
   VkShaderModuleCreateInfo smi = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = k->word_count * sizeof(uint32_t),
       .pCode = k->code,
   };
   return ok(vkCreateShaderModule(device, &smi, NULL, &module) == VK_SUCCESS, "shader module");
}

int
main(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init(&v, layers, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   if (!vku_has_device_extension(&v, VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME)) {
      vku_finish(&v);
      return test_skip("VK_KHR_push_descriptor is not available");
   }
   if (!device_init())
      return test_done();
   for (unsigned k = 0; k < TENSORS; k++) {
      if (!tensor_init(k))
         return test_done();
   }
   struct out_buffer out = {0}, out2 = {0};
   if (!out_init(&out) || !out_init(&out2))
      return test_done();

   check_layout_support();

   test_set_context("objects");
   VkDescriptorSetLayoutCreateInfo set_info = kernel_layout_info(0);
   VkDescriptorSetLayoutCreateInfo push_info =
       kernel_layout_info(VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR);
   VkDescriptorSetLayout set_layout = make_layout(&set_info);
   VkDescriptorSetLayout push_layout = make_layout(&push_info);
   VkPipelineLayout set_pl = make_pipeline_layout(set_layout);
   VkPipelineLayout push_pl = make_pipeline_layout(push_layout);
   VkPipeline set_pipeline = make_pipeline(set_pl);
   VkPipeline push_pipeline = make_pipeline(push_pl);
   /* Three kernel sets: tensor and storage-buffer counts are merged below us. */
   const VkDescriptorPoolSize sizes[2] = {
       {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 3 * 5},
       {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3},
   };
   VkDescriptorPoolCreateInfo pool_info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
       .maxSets = 3,
       .poolSizeCount = 2,
       .pPoolSizes = sizes,
   };
   VkDescriptorPool pool = VK_NULL_HANDLE;
   ok(vkCreateDescriptorPool(device, &pool_info, NULL, &pool) == VK_SUCCESS, "pool");

   check_update(set_pipeline, set_pl, set_layout, pool, &out);
   check_invalid_writes(set_layout, pool, &out);
   check_push(push_pipeline, push_pl, &out);
   check_template(set_pipeline, set_pl, set_layout, pool, &out);
   check_push_template(push_pipeline, push_pl, &out, &out2);

   vkDestroyDescriptorPool(device, pool, NULL);
   vkDestroyPipeline(device, set_pipeline, NULL);
   vkDestroyPipeline(device, push_pipeline, NULL);
   vkDestroyPipelineLayout(device, set_pl, NULL);
   vkDestroyPipelineLayout(device, push_pl, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   vkDestroyDescriptorSetLayout(device, push_layout, NULL);
   vkDestroyShaderModule(device, module, NULL);
   vkDestroyCommandPool(device, cmd_pool, NULL);
   out_finish(&out);
   out_finish(&out2);
   for (unsigned k = 0; k < TENSORS; k++)
      tensor_finish(k);
   vkDestroyDevice(device, NULL);
   vku_finish(&v);
   return test_done();
}
