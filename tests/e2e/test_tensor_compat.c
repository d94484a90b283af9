/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensors as applications written against Arm's layer make them (issue 10,
 * docs/decisions.md D27), through the loader on lavapipe with
 * validation below:
 *  - a LINEAR tensor with IMAGE_ALIASING usage (VUID-VkTensorDescriptionARM-
 *    tiling-09742) bound with a LINEAR image with TENSOR_ALIASING usage
 *    (VUID-VkImageCreateInfo-tiling-09711): without pStrides it takes the
 *    image's row pitch, in either binding order; texels written through the
 *    image are read by a shader through the tensor and the other way round,
 *    the image in the TENSOR_ALIASING layout in between; with pStrides equal
 *    to the pitches it aliases, with other pStrides the bind is refused with
 *    a log line naming the stride;
 *  - an R8 tensor whose innermost stride is twice the element size
 *    (VUID-VkTensorDescriptionARM-pStrides-09736): copies into and out of it
 *    and a shader reading it put and find each element at its strided byte.
 * Each accepted break of a rule logs a warning naming the VUID.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

static struct vku v;
static VkDevice device;
static VkQueue queue;
static uint32_t queue_family;
static VkCommandPool pool;

static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCreateTensorViewARM create_view;
static PFN_vkDestroyTensorViewARM destroy_view;
static PFN_vkCmdCopyTensorARM copy_tensor;

/* The aliasing image: 13 RGBA8 texels (52 bytes) per row, which lavapipe pads. */
#define IMG_W 13
#define IMG_H 5
#define IMG_C 4

/* ---- helpers ------------------------------------------------------------ */

static VkDeviceMemory
alloc_memory(VkDeviceSize size, uint32_t bits)
{
   VkMemoryAllocateInfo info = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = size,
       .memoryTypeIndex = vku_host_memory_type(&v, bits),
   };
   VkDeviceMemory memory = VK_NULL_HANDLE;
   ok(info.memoryTypeIndex != UINT32_MAX, "host-visible memory type in 0x%x", bits);
   ok(vkAllocateMemory(device, &info, NULL, &memory) == VK_SUCCESS, "vkAllocateMemory");
   return memory;
}

static VkResult
make_tensor(VkFormat format, VkTensorTilingARM tiling, uint32_t rank, const int64_t *dims,
            const int64_t *strides, VkTensorUsageFlagsARM usage, VkTensorARM *t)
{
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = tiling,
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
   return create_tensor(device, &info, NULL, t);
}

static VkMemoryRequirements
tensor_requirements(VkTensorARM t)
{
   VkTensorMemoryRequirementsInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM,
       .tensor = t,
   };
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   tensor_reqs(device, &info, &req);
   return req.memoryRequirements;
}

static VkResult
bind_tensor_at(VkTensorARM t, VkDeviceMemory memory, VkDeviceSize offset)
{
   VkBindTensorMemoryInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
       .tensor = t,
       .memory = memory,
       .memoryOffset = offset,
   };
   return bind_tensor(device, 1, &info);
}

static VkTensorViewARM
make_view(VkTensorARM t, VkFormat format)
{
   VkTensorViewCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
       .tensor = t,
       .format = format,
   };
   VkTensorViewARM view = VK_NULL_HANDLE;
   ok(create_view(device, &info, NULL, &view) == VK_SUCCESS, "vkCreateTensorViewARM");
   return view;
}

/* A host-visible tensor in memory of its own (mapped into *data). */
struct host_tensor {
   VkTensorARM tensor;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   uint8_t *data;
   VkDeviceSize size;
};

static bool
host_tensor_init(struct host_tensor *h, VkFormat format, uint32_t rank, const int64_t *dims,
                 const int64_t *strides)
{
   memset(h, 0, sizeof(*h));
   if (!ok(make_tensor(format, VK_TENSOR_TILING_LINEAR_ARM, rank, dims, strides,
                       VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |
                           VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM,
                       &h->tensor) == VK_SUCCESS,
           "host tensor"))
      return false;
   VkMemoryRequirements req = tensor_requirements(h->tensor);
   h->size = req.size;
   h->memory = alloc_memory(req.size, req.memoryTypeBits);
   if (!ok(bind_tensor_at(h->tensor, h->memory, 0) == VK_SUCCESS, "bind host tensor") ||
       !ok(vkMapMemory(device, h->memory, 0, VK_WHOLE_SIZE, 0, (void **)&h->data) == VK_SUCCESS,
           "map host tensor"))
      return false;
   memset(h->data, 0xee, req.size);
   h->view = make_view(h->tensor, format);
   return true;
}

static void
host_tensor_finish(struct host_tensor *h)
{
   if (h->view)
      destroy_view(device, h->view, NULL);
   if (h->tensor)
      destroy_tensor(device, h->tensor, NULL);
   if (h->memory)
      vkFreeMemory(device, h->memory, NULL);
}

static VkBuffer
make_buffer(VkDeviceSize size, VkBufferUsageFlags usage, VkDeviceMemory memory, VkDeviceSize offset)
{
   VkBufferCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = usage,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   VkBuffer buffer = VK_NULL_HANDLE;
   ok(vkCreateBuffer(device, &info, NULL, &buffer) == VK_SUCCESS, "vkCreateBuffer");
   ok(vkBindBufferMemory(device, buffer, memory, offset) == VK_SUCCESS, "vkBindBufferMemory");
   return buffer;
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
   vkBeginCommandBuffer(cmd, &bi);
   return cmd;
}

static void
submit(VkCommandBuffer cmd)
{
   ok(vkEndCommandBuffer(cmd) == VK_SUCCESS, "vkEndCommandBuffer");
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
   };
   ok(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS, "vkQueueSubmit");
   ok(vkQueueWaitIdle(queue) == VK_SUCCESS, "vkQueueWaitIdle");
   vkFreeCommandBuffers(device, pool, 1, &cmd);
}

static void
barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src,
        VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst)
{
   VkMemoryBarrier2 mb = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
       .srcStageMask = src_stage,
       .srcAccessMask = src,
       .dstStageMask = dst_stage,
       .dstAccessMask = dst,
   };
   VkDependencyInfo dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
       .memoryBarrierCount = 1,
       .pMemoryBarriers = &mb,
   };
   vkCmdPipelineBarrier2(cmd, &dep);
}

static void
image_barrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to,
              VkPipelineStageFlags2 src_stage, VkAccessFlags2 src, VkPipelineStageFlags2 dst_stage,
              VkAccessFlags2 dst)
{
   VkImageMemoryBarrier2 b = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
       .srcStageMask = src_stage,
       .srcAccessMask = src,
       .dstStageMask = dst_stage,
       .dstAccessMask = dst,
       .oldLayout = from,
       .newLayout = to,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = image,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
   };
   VkDependencyInfo dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
       .imageMemoryBarrierCount = 1,
       .pImageMemoryBarriers = &b,
   };
   vkCmdPipelineBarrier2(cmd, &dep);
}

/* ---- the copy shader: dst[x][y][z] = src[x][y][z], uint8, rank 3 ------------ */

static const char copy3_u8[] = "OpCapability Shader\n"
                               "OpCapability Int8\n"
                               "OpCapability TensorsARM\n"
                               "OpExtension \"SPV_ARM_tensors\"\n"
                               "OpMemoryModel Logical GLSL450\n"
                               "OpEntryPoint GLCompute %main \"main\" %src %dst %gid\n"
                               "OpExecutionMode %main LocalSize 4 4 4\n"
                               "OpDecorate %src DescriptorSet 0\n"
                               "OpDecorate %src Binding 0\n"
                               "OpDecorate %src NonWritable\n"
                               "OpDecorate %dst DescriptorSet 0\n"
                               "OpDecorate %dst Binding 1\n"
                               "OpDecorate %dst NonReadable\n"
                               "OpDecorate %gid BuiltIn GlobalInvocationId\n"
                               "%void = OpTypeVoid\n"
                               "%uint = OpTypeInt 32 0\n"
                               "%v3uint = OpTypeVector %uint 3\n"
                               "%uint_3 = OpConstant %uint 3\n"
                               "%elem = OpTypeInt 8 0\n"
                               "%coords = OpTypeArray %uint %uint_3\n"
                               "%tensor = OpTypeTensorARM %elem %uint_3\n"
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
                               "%y = OpCompositeExtract %uint %id 1\n"
                               "%z = OpCompositeExtract %uint %id 2\n"
                               "%coord = OpCompositeConstruct %coords %x %y %z\n"
                               "%v = OpTensorReadARM %elem %t_in %coord\n"
                               "OpTensorWriteARM %t_out %coord %v\n"
                               "OpReturn\n"
                               "OpFunctionEnd\n";

struct copy_pipeline {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set;
};

static bool
copy_pipeline_init(struct copy_pipeline *p)
{
   memset(p, 0, sizeof(*p));
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (!ok(spirv_text_assemble(copy3_u8, strlen(copy3_u8), &words, &count, err, sizeof(err)),
           "assemble: %s", err))
      return false;
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = count * 4,
       .pCode = words,
   };
   VkShaderModule module = VK_NULL_HANDLE;
   bool good = ok(vkCreateShaderModule(device, &smci, NULL, &module) == VK_SUCCESS, "module");
   free(words);
   VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 2,
       .pBindings = b,
   };
   VkPipelineLayoutCreateInfo pl = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &p->set_layout,
   };
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 2};
   VkDescriptorPoolCreateInfo dp = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &size,
   };
   good =
       good && ok(vkCreateDescriptorSetLayout(device, &dsl, NULL, &p->set_layout) == VK_SUCCESS &&
                      vkCreatePipelineLayout(device, &pl, NULL, &p->layout) == VK_SUCCESS &&
                      vkCreateDescriptorPool(device, &dp, NULL, &p->pool) == VK_SUCCESS,
                  "layouts");
   VkComputePipelineCreateInfo cp = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = module,
                 .pName = "main"},
       .layout = p->layout,
   };
   good = good && ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cp, NULL, &p->pipeline) ==
                         VK_SUCCESS,
                     "pipeline");
   vkDestroyShaderModule(device, module, NULL);
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = p->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &p->set_layout,
   };
   return good && ok(vkAllocateDescriptorSets(device, &ai, &p->set) == VK_SUCCESS, "set");
}

static void
copy_pipeline_finish(struct copy_pipeline *p)
{
   vkDestroyPipeline(device, p->pipeline, NULL);
   vkDestroyDescriptorPool(device, p->pool, NULL);
   vkDestroyPipelineLayout(device, p->layout, NULL);
   vkDestroyDescriptorSetLayout(device, p->set_layout, NULL);
}

/* Records the copy shader from src to dst over an [x, y, z] grid. */
static void
record_shader_copy(VkCommandBuffer cmd, struct copy_pipeline *p, VkTensorViewARM src,
                   VkTensorViewARM dst, uint32_t x, uint32_t y, uint32_t z)
{
   VkTensorViewARM views[2] = {src, dst};
   for (uint32_t i = 0; i < 2; i++) {
      VkWriteDescriptorSetTensorARM wt = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
          .tensorViewCount = 1,
          .pTensorViews = &views[i],
      };
      VkWriteDescriptorSet w = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .pNext = &wt,
          .dstSet = p->set,
          .dstBinding = i,
          .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
      };
      vkUpdateDescriptorSets(device, 1, &w, 0, NULL);
   }
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1, &p->set, 0, NULL);
   vkCmdDispatch(cmd, (x + 3) / 4, (y + 3) / 4, (z + 3) / 4);
}

/* ---- linear tensors aliasing linear images ------------------------------- */

static uint8_t
texel_value(unsigned h, unsigned w, unsigned c, unsigned salt)
{
   return (uint8_t)(1 + h * 61 + w * 7 + c * 3 + salt);
}

static VkImage
make_linear_alias_image(void)
{
   VkImageCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UINT,
       .extent = {IMG_W, IMG_H, 1},
       .mipLevels = 1,
       .arrayLayers = 1,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_LINEAR,
       .usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
                VK_IMAGE_USAGE_TENSOR_ALIASING_BIT_ARM,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   VkImage image = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult r = vkCreateImage(device, &info, NULL, &image);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_SUCCESS, "linear image with TENSOR_ALIASING usage accepted (%d)", r);
   ok(strstr(log, "VUID-VkImageCreateInfo-tiling-09711") != NULL, "warning names 09711");
   return image;
}

/*
 * Texels written through the image are read through the tensor by a shader
 * (into a packed tensor), then a shader writes other values through the
 * tensor and the image is copied out; every byte is checked, as is the image's
 * layout in memory. strides: the tensor's pStrides (NULL: the image's).
 */
static void
linear_alias(bool tensor_first, const int64_t *strides, const char *what)
{
   test_set_context(what);
   VkImage image = make_linear_alias_image();
   VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
   VkSubresourceLayout layout;
   vkGetImageSubresourceLayout(device, image, &sub, &layout);
   ok(layout.rowPitch > IMG_W * IMG_C, "row pitch %" PRIu64 " is padded beyond %u bytes",
      (uint64_t)layout.rowPitch, IMG_W * IMG_C);
   VkMemoryRequirements ireq;
   vkGetImageMemoryRequirements(device, image, &ireq);

   const int64_t dims[] = {IMG_H, IMG_W, IMG_C};
   VkTensorARM t = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult r =
       make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_LINEAR_ARM, 3, dims, strides,
                   VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM, &t);
   const char *log = vku_capture_stderr_end();
   ok(r == VK_SUCCESS, "linear IMAGE_ALIASING tensor accepted (%d)", r);
   ok(strstr(log, "VUID-VkTensorDescriptionARM-tiling-09742") != NULL, "warning names 09742");
   VkMemoryRequirements treq = tensor_requirements(t);
   VkDeviceSize size = ireq.size > treq.size ? ireq.size : treq.size;
   VkDeviceMemory memory = alloc_memory(size, ireq.memoryTypeBits & treq.memoryTypeBits);
   VkTensorViewARM view = VK_NULL_HANDLE;
   if (tensor_first) {
      /* The view exists before the image is bound: its record follows the new strides. */
      ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor, no image there yet");
      view = make_view(t, VK_FORMAT_R8_UINT);
      ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image after");
   } else {
      ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image");
      ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor after");
      view = make_view(t, VK_FORMAT_R8_UINT);
   }

   struct host_tensor packed_in, packed_out;
   struct copy_pipeline cp;
   const VkDeviceSize tight = IMG_W * IMG_H * IMG_C;
   VkDeviceMemory host = alloc_memory(2 * 4096, ~0u);
   VkBuffer staging = make_buffer(tight, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, host, 0);
   VkBuffer readback = make_buffer(tight, VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, 4096);
   uint8_t *bytes = NULL;
   ok(vkMapMemory(device, host, 0, VK_WHOLE_SIZE, 0, (void **)&bytes) == VK_SUCCESS, "map");
   if (host_tensor_init(&packed_in, VK_FORMAT_R8_UINT, 3, dims, NULL) &&
       host_tensor_init(&packed_out, VK_FORMAT_R8_UINT, 3, dims, NULL) && bytes &&
       copy_pipeline_init(&cp)) {
      for (unsigned h = 0; h < IMG_H; h++)
         for (unsigned w = 0; w < IMG_W; w++)
            for (unsigned c = 0; c < IMG_C; c++) {
               bytes[(h * IMG_W + w) * IMG_C + c] = texel_value(h, w, c, 0);
               packed_in.data[(h * IMG_W + w) * IMG_C + c] = texel_value(h, w, c, 100);
            }

      /* 1: image writes, then shader reads through the tensor. */
      VkCommandBuffer cmd = begin();
      image_barrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_PIPELINE_STAGE_2_NONE, 0, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                    VK_ACCESS_2_TRANSFER_WRITE_BIT);
      VkBufferImageCopy bic = {
          .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
          .imageExtent = {IMG_W, IMG_H, 1},
      };
      vkCmdCopyBufferToImage(cmd, staging, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &bic);
      image_barrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                    VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM, VK_PIPELINE_STAGE_2_TRANSFER_BIT,
                    VK_ACCESS_2_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                    VK_ACCESS_2_SHADER_READ_BIT);
      record_shader_copy(cmd, &cp, view, packed_out.view, IMG_H, IMG_W, IMG_C);
      barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
      submit(cmd);

      const uint8_t *mem = NULL;
      ok(vkMapMemory(device, memory, 0, VK_WHOLE_SIZE, 0, (void **)&mem) == VK_SUCCESS, "map");
      unsigned bad_layout = 0, bad_read = 0;
      for (unsigned h = 0; h < IMG_H; h++)
         for (unsigned w = 0; w < IMG_W; w++)
            for (unsigned c = 0; c < IMG_C; c++) {
               uint8_t want = texel_value(h, w, c, 0);
               bad_layout += !mem || mem[h * layout.rowPitch + w * IMG_C + c] != want;
               bad_read += packed_out.data[(h * IMG_W + w) * IMG_C + c] != want;
            }
      ok(bad_layout == 0, "texels at the image's row pitch: %u wrong", bad_layout);
      ok(bad_read == 0,
         "the shader reads texel (w, h) component c as element (h, w, c): "
         "%u wrong",
         bad_read);
      vkUnmapMemory(device, memory);

      /* 2: shader writes through the tensor, then the image is read. */
      cmd = begin();
      record_shader_copy(cmd, &cp, packed_in.view, view, IMG_H, IMG_W, IMG_C);
      image_barrier(cmd, image, VK_IMAGE_LAYOUT_TENSOR_ALIASING_ARM,
                    VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                    VK_ACCESS_2_SHADER_WRITE_BIT | VK_ACCESS_2_SHADER_READ_BIT,
                    VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
      vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &bic);
      barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
      submit(cmd);
      unsigned bad_write = 0;
      for (unsigned i = 0; i < tight; i++)
         bad_write += bytes[4096 + i] !=
                      texel_value(i / (IMG_W * IMG_C), (i / IMG_C) % IMG_W, i % IMG_C, 100);
      ok(bad_write == 0, "the image reads what the shader wrote through the tensor: %u wrong",
         bad_write);
      copy_pipeline_finish(&cp);
   }
   host_tensor_finish(&packed_in);
   host_tensor_finish(&packed_out);
   vkDestroyBuffer(device, staging, NULL);
   vkDestroyBuffer(device, readback, NULL);
   vkFreeMemory(device, host, NULL);
   destroy_view(device, view, NULL);
   destroy_tensor(device, t, NULL);
   vkDestroyImage(device, image, NULL);
   vkFreeMemory(device, memory, NULL);
}

/* pStrides that are not the image's pitches: the bind is refused, in either order. */
static void
linear_alias_mismatch(void)
{
   test_set_context("linear alias, other strides");
   const int64_t dims[] = {IMG_H, IMG_W, IMG_C};
   const int64_t packed[] = {IMG_W * IMG_C, IMG_C, 1};
   for (int tensor_first = 0; tensor_first < 2; tensor_first++) {
      VkImage image = make_linear_alias_image();
      VkTensorARM t = VK_NULL_HANDLE;
      vku_capture_stderr_begin();
      ok(make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_LINEAR_ARM, 3, dims, packed,
                     VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM, &t) == VK_SUCCESS,
         "tensor");
      vku_capture_stderr_end();
      VkMemoryRequirements ireq, treq = tensor_requirements(t);
      vkGetImageMemoryRequirements(device, image, &ireq);
      VkDeviceSize size = ireq.size > treq.size ? ireq.size : treq.size;
      VkDeviceMemory memory = alloc_memory(size, ireq.memoryTypeBits & treq.memoryTypeBits);
      VkResult r;
      vku_capture_stderr_begin();
      if (tensor_first) {
         ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind tensor first");
         r = vkBindImageMemory(device, image, memory, 0);
      } else {
         ok(vkBindImageMemory(device, image, memory, 0) == VK_SUCCESS, "bind image first");
         r = bind_tensor_at(t, memory, 0);
      }
      const char *log = vku_capture_stderr_end();
      ok(r == VK_ERROR_VALIDATION_FAILED_EXT, "bind refused (%d)", r);
      ok(strstr(log, "pStrides[0] = 52") && strstr(log, "cannot alias"),
         "the log names the stride");
      destroy_tensor(device, t, NULL);
      vkDestroyImage(device, image, NULL);
      vkFreeMemory(device, memory, NULL);
   }
}

/* A view destroyed after its aliasing tensor (the layer lists such views with the tensor). */
static void
view_outlives_tensor(void)
{
   test_set_context("view destroyed after its aliasing tensor");
   const int64_t dims[] = {IMG_H, IMG_W, IMG_C};
   VkTensorARM t = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult r =
       make_tensor(VK_FORMAT_R8_UINT, VK_TENSOR_TILING_LINEAR_ARM, 3, dims, NULL,
                   VK_TENSOR_USAGE_IMAGE_ALIASING_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM, &t);
   vku_capture_stderr_end();
   if (!ok(r == VK_SUCCESS, "tensor"))
      return;
   VkMemoryRequirements req = tensor_requirements(t);
   VkDeviceMemory memory = alloc_memory(req.size, req.memoryTypeBits);
   ok(bind_tensor_at(t, memory, 0) == VK_SUCCESS, "bind");
   VkTensorViewARM views[2] = {make_view(t, VK_FORMAT_R8_UINT), make_view(t, VK_FORMAT_R8_UINT)};
   destroy_view(device, views[0], NULL);
   destroy_tensor(device, t, NULL);
   destroy_view(device, views[1], NULL);
   vkFreeMemory(device, memory, NULL);
}

static void
check_linear_alias(void)
{
   linear_alias(false, NULL, "linear alias: image bound first");
   linear_alias(true, NULL, "linear alias: tensor bound first");
   /* The image's pitches as pStrides (known from the image, as an application reads them). */
   VkImage probe = make_linear_alias_image();
   VkImageSubresource sub = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0};
   VkSubresourceLayout layout;
   vkGetImageSubresourceLayout(device, probe, &sub, &layout);
   vkDestroyImage(device, probe, NULL);
   const int64_t strides[] = {(int64_t)layout.rowPitch, IMG_C, 1};
   linear_alias(false, strides, "linear alias: pStrides = the image's pitches");
   linear_alias_mismatch();
   view_outlives_tensor();
}

/* ---- an innermost stride wider than the element --------------------------- */

#define WS_H 3
#define WS_W 5
#define WS_C 3

static void
check_wide_innermost_stride(void)
{
   test_set_context("innermost stride 2 for 1-byte elements");
   const int64_t dims[] = {WS_H, WS_W, WS_C};
   const int64_t strides[] = {WS_W * WS_C * 2, WS_C * 2, 2};
   const unsigned n = WS_H * WS_W * WS_C;
   struct host_tensor packed, wide, back;
   struct copy_pipeline cp;
   memset(&wide, 0, sizeof(wide));
   memset(&back, 0, sizeof(back));
   bool good = host_tensor_init(&packed, VK_FORMAT_R8_SINT, 3, dims, NULL);
   vku_capture_stderr_begin();
   good = good && host_tensor_init(&wide, VK_FORMAT_R8_SINT, 3, dims, strides);
   const char *log = vku_capture_stderr_end();
   ok(good, "R8 tensor with strides {30, 6, 2} accepted");
   ok(strstr(log, "VUID-VkTensorDescriptionARM-pStrides-09736") != NULL, "warning names 09736");
   good =
       good && host_tensor_init(&back, VK_FORMAT_R8_SINT, 3, dims, NULL) && copy_pipeline_init(&cp);
   if (!good) {
      host_tensor_finish(&packed);
      host_tensor_finish(&wide);
      host_tensor_finish(&back);
      return;
   }
   ok(wide.size >= (VkDeviceSize)(strides[0] * dims[0]), "memory for %" PRIu64 " bytes",
      (uint64_t)(strides[0] * dims[0]));
   for (unsigned i = 0; i < n; i++)
      packed.data[i] = (uint8_t)(i * 5 + 3);

   /* packed -> wide by vkCmdCopyTensorARM, wide -> back by the shader. */
   VkCommandBuffer cmd = begin();
   VkCopyTensorInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
       .srcTensor = packed.tensor,
       .dstTensor = wide.tensor,
       .regionCount = 1,
       .pRegions = &(VkTensorCopyARM){.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM},
   };
   copy_tensor(cmd, &info);
   barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
           VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
           VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_READ_BIT);
   record_shader_copy(cmd, &cp, wide.view, back.view, WS_H, WS_W, WS_C);
   barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
           VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
   submit(cmd);
   unsigned bad_copy = 0, bad_gap = 0, bad_shader = 0;
   for (unsigned i = 0; i < n; i++) {
      bad_copy += wide.data[2 * i] != (uint8_t)(i * 5 + 3);
      bad_gap += wide.data[2 * i + 1] != 0xee;
      bad_shader += back.data[i] != (uint8_t)(i * 5 + 3);
   }
   ok(bad_copy == 0, "vkCmdCopyTensorARM puts element i at byte 2i: %u wrong", bad_copy);
   ok(bad_gap == 0, "and leaves the bytes between alone: %u touched", bad_gap);
   ok(bad_shader == 0, "the shader reads element i from byte 2i: %u wrong", bad_shader);

   /* The shader writes into it, vkCmdCopyTensorARM reads it back out. */
   memset(wide.data, 0xee, wide.size);
   memset(back.data, 0, back.size);
   for (unsigned i = 0; i < n; i++)
      packed.data[i] = (uint8_t)(200 - i);
   cmd = begin();
   record_shader_copy(cmd, &cp, packed.view, wide.view, WS_H, WS_W, WS_C);
   barrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_WRITE_BIT,
           VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
           VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_SHADER_READ_BIT);
   info.srcTensor = wide.tensor;
   info.dstTensor = back.tensor;
   copy_tensor(cmd, &info);
   barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
           VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
           VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
   submit(cmd);
   unsigned bad_write = 0, bad_back = 0;
   bad_gap = 0;
   for (unsigned i = 0; i < n; i++) {
      bad_write += wide.data[2 * i] != (uint8_t)(200 - i);
      bad_gap += wide.data[2 * i + 1] != 0xee;
      bad_back += back.data[i] != (uint8_t)(200 - i);
   }
   ok(bad_write == 0, "the shader writes element i at byte 2i: %u wrong", bad_write);
   ok(bad_gap == 0, "and leaves the bytes between alone: %u touched", bad_gap);
   ok(bad_back == 0, "vkCmdCopyTensorARM reads element i from byte 2i: %u wrong", bad_back);

   copy_pipeline_finish(&cp);
   host_tensor_finish(&packed);
   host_tensor_finish(&wide);
   host_tensor_finish(&back);
}

/* ---- setup ---------------------------------------------------------------- */

static bool
setup(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init(&v, layers, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   if (!vku_has_device_extension(&v, "VK_ARM_tensors"))
      return false;
   VkPhysicalDeviceVulkan13Features v13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
       .synchronization2 = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &v13,
       .tensors = VK_TRUE,
       .tensorNonPacked = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors"};
   if (!ok(vku_create_device(&v, ext, 1, &tf, &device) == VK_SUCCESS, "device"))
      return false;
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, NULL);
   VkQueueFamilyProperties fams[16];
   n = n > 16 ? 16 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, fams);
   for (uint32_t i = n; i-- > 0;) {
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         queue_family = i; /* the first compute family, as vku_create_device picks */
   }
   vkGetDeviceQueue(device, queue_family, 0, &queue);
   VkCommandPoolCreateInfo pci = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = queue_family,
   };
   ok(vkCreateCommandPool(device, &pci, NULL, &pool) == VK_SUCCESS, "command pool");
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
   GET(copy_tensor, "vkCmdCopyTensorARM");
#undef GET
   return ok(create_tensor && destroy_tensor && tensor_reqs && bind_tensor && create_view &&
                 destroy_view && copy_tensor,
             "entry points");
}

int
main(void)
{
   if (setup()) {
      check_linear_alias();
      check_wide_innermost_stride();
   }
   test_set_context("teardown");
   if (device) {
      vkDestroyCommandPool(device, pool, NULL);
      vkDestroyDevice(device, NULL);
   }
   vku_finish(&v);
   return test_done();
}
