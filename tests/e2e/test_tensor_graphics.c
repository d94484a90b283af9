/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensors in graphics shaders (issue 10, docs/decisions.md D29), through
 * the loader and the tensor layer on lavapipe, validation below: a vertex
 * shader takes its triangle's corners from a tensor and writes each vertex's
 * index into another, a fragment shader takes
 * its colour from a tensor and writes each pixel's index into another; an
 * 8x8 offscreen image is rendered and every pixel of it and of the written
 * tensor is checked (inside the triangle: the colour and the index; outside:
 * the clear colour and untouched elements). The stages are those
 * shaderTensorSupportedStages reports; CTest runs it under both lowering
 * paths (VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE), and once more over
 * VK_LAYER_VMEL_test_weak_device hiding the graphics-stage store features
 * (VMEL_TEST_WEAK=no_graphics_stores): compute only, graphics shaders refused.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

#define SIZE 8 /* the image is SIZE x SIZE */

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

/* corners[i] = (x, y) of vertex i in clip space, from tensor binding 0; seen[i] = i + 100
 * into tensor binding 3. */
static const char vertex_shader[] = "OpCapability Shader\n"
                                    "OpCapability TensorsARM\n"
                                    "OpExtension \"SPV_ARM_tensors\"\n"
                                    "OpMemoryModel Logical GLSL450\n"
                                    "OpEntryPoint Vertex %main \"main\" %vid %pos %corners %seen\n"
                                    "OpDecorate %corners DescriptorSet 0\n"
                                    "OpDecorate %corners Binding 0\n"
                                    "OpDecorate %corners NonWritable\n"
                                    "OpDecorate %seen DescriptorSet 0\n"
                                    "OpDecorate %seen Binding 3\n"
                                    "OpDecorate %seen NonReadable\n"
                                    "OpDecorate %vid BuiltIn VertexIndex\n"
                                    "OpDecorate %pos BuiltIn Position\n"
                                    "%void = OpTypeVoid\n"
                                    "%int = OpTypeInt 32 1\n"
                                    "%uint = OpTypeInt 32 0\n"
                                    "%float = OpTypeFloat 32\n"
                                    "%v4float = OpTypeVector %float 4\n"
                                    "%uint_0 = OpConstant %uint 0\n"
                                    "%uint_1 = OpConstant %uint 1\n"
                                    "%uint_2 = OpConstant %uint 2\n"
                                    "%uint_100 = OpConstant %uint 100\n"
                                    "%float_0 = OpConstant %float 0\n"
                                    "%float_1 = OpConstant %float 1\n"
                                    "%coords = OpTypeArray %uint %uint_2\n"
                                    "%coords1 = OpTypeArray %uint %uint_1\n"
                                    "%tensor = OpTypeTensorARM %float %uint_2\n"
                                    "%tensor_u = OpTypeTensorARM %uint %uint_1\n"
                                    "%ptr_tensor = OpTypePointer UniformConstant %tensor\n"
                                    "%ptr_tu = OpTypePointer UniformConstant %tensor_u\n"
                                    "%ptr_in_int = OpTypePointer Input %int\n"
                                    "%ptr_out_v4 = OpTypePointer Output %v4float\n"
                                    "%corners = OpVariable %ptr_tensor UniformConstant\n"
                                    "%seen = OpVariable %ptr_tu UniformConstant\n"
                                    "%vid = OpVariable %ptr_in_int Input\n"
                                    "%pos = OpVariable %ptr_out_v4 Output\n"
                                    "%fn_void = OpTypeFunction %void\n"
                                    "%main = OpFunction %void None %fn_void\n"
                                    "%entry = OpLabel\n"
                                    "%t = OpLoad %tensor %corners\n"
                                    "%i = OpLoad %int %vid\n"
                                    "%u = OpBitcast %uint %i\n"
                                    "%c0 = OpCompositeConstruct %coords %u %uint_0\n"
                                    "%c1 = OpCompositeConstruct %coords %u %uint_1\n"
                                    "%x = OpTensorReadARM %float %t %c0\n"
                                    "%y = OpTensorReadARM %float %t %c1\n"
                                    "%p = OpCompositeConstruct %v4float %x %y %float_0 %float_1\n"
                                    "OpStore %pos %p\n"
                                    "%ts = OpLoad %tensor_u %seen\n"
                                    "%sc = OpCompositeConstruct %coords1 %u\n"
                                    "%mark = OpIAdd %uint %u %uint_100\n"
                                    "OpTensorWriteARM %ts %sc %mark\n"
                                    "OpReturn\n"
                                    "OpFunctionEnd\n";

/* colour = tensor binding 1 [4]; hits[y][x] = y * SIZE + x + 1 into tensor binding 2. */
static const char fragment_shader[] =
    "OpCapability Shader\n"
    "OpCapability TensorsARM\n"
    "OpExtension \"SPV_ARM_tensors\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint Fragment %main \"main\" %frag %colour_out %colour %hits %pc\n"
    "OpExecutionMode %main OriginUpperLeft\n"
    "OpDecorate %colour DescriptorSet 0\n"
    "OpDecorate %colour Binding 1\n"
    "OpDecorate %colour NonWritable\n"
    "OpDecorate %hits DescriptorSet 0\n"
    "OpDecorate %hits Binding 2\n"
    "OpDecorate %hits NonReadable\n"
    "OpDecorate %frag BuiltIn FragCoord\n"
    "OpDecorate %pc_block Block\n"
    "OpMemberDecorate %pc_block 0 Offset 0\n"
    "OpDecorate %colour_out Location 0\n"
    "%void = OpTypeVoid\n"
    "%uint = OpTypeInt 32 0\n"
    "%float = OpTypeFloat 32\n"
    "%v4float = OpTypeVector %float 4\n"
    "%uint_0 = OpConstant %uint 0\n"
    "%uint_1 = OpConstant %uint 1\n"
    "%uint_2 = OpConstant %uint 2\n"
    "%uint_3 = OpConstant %uint 3\n"
    "%uint_size = OpConstant %uint 8\n"
    "%coords1 = OpTypeArray %uint %uint_1\n"
    "%coords2 = OpTypeArray %uint %uint_2\n"
    "%tensor_f = OpTypeTensorARM %float %uint_1\n"
    "%tensor_u = OpTypeTensorARM %uint %uint_2\n"
    "%ptr_tf = OpTypePointer UniformConstant %tensor_f\n"
    "%ptr_tu = OpTypePointer UniformConstant %tensor_u\n"
    "%ptr_in_v4 = OpTypePointer Input %v4float\n"
    "%ptr_out_v4 = OpTypePointer Output %v4float\n"
    "%pc_block = OpTypeStruct %uint\n"
    "%ptr_pc = OpTypePointer PushConstant %pc_block\n"
    "%ptr_pc_uint = OpTypePointer PushConstant %uint\n"
    "%pc = OpVariable %ptr_pc PushConstant\n"
    "%colour = OpVariable %ptr_tf UniformConstant\n"
    "%hits = OpVariable %ptr_tu UniformConstant\n"
    "%frag = OpVariable %ptr_in_v4 Input\n"
    "%colour_out = OpVariable %ptr_out_v4 Output\n"
    "%fn_void = OpTypeFunction %void\n"
    "%main = OpFunction %void None %fn_void\n"
    "%entry = OpLabel\n"
    "%tc = OpLoad %tensor_f %colour\n"
    "%k0 = OpCompositeConstruct %coords1 %uint_0\n"
    "%k1 = OpCompositeConstruct %coords1 %uint_1\n"
    "%k2 = OpCompositeConstruct %coords1 %uint_2\n"
    "%k3 = OpCompositeConstruct %coords1 %uint_3\n"
    "%r = OpTensorReadARM %float %tc %k0\n"
    "%g = OpTensorReadARM %float %tc %k1\n"
    "%b = OpTensorReadARM %float %tc %k2\n"
    "%a = OpTensorReadARM %float %tc %k3\n"
    "%col = OpCompositeConstruct %v4float %r %g %b %a\n"
    "OpStore %colour_out %col\n"
    "%fc = OpLoad %v4float %frag\n"
    "%fx = OpCompositeExtract %float %fc 0\n"
    "%fy = OpCompositeExtract %float %fc 1\n"
    "%px = OpConvertFToU %uint %fx\n"
    "%py = OpConvertFToU %uint %fy\n"
    "%row = OpIMul %uint %py %uint_size\n"
    "%sum = OpIAdd %uint %row %px\n"
    "%base_ptr = OpAccessChain %ptr_pc_uint %pc %uint_0\n"
    "%base = OpLoad %uint %base_ptr\n"
    "%idx = OpIAdd %uint %sum %base\n"
    "%th = OpLoad %tensor_u %hits\n"
    "%hc = OpCompositeConstruct %coords2 %py %px\n"
    "OpTensorWriteARM %th %hc %idx\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

struct tensor {
   VkTensorARM handle;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   void *data;
};

static bool
tensor_init(struct tensor *t, VkFormat format, uint32_t rank, const int64_t *dims,
            const int64_t *strides)
{
   memset(t, 0, sizeof(*t));
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = format,
       .dimensionCount = rank,
       .pDimensions = dims,
       .pStrides = strides,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM |
                VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM,
   };
   const struct vku_tensor_fns f = {create_tensor, destroy_tensor, tensor_reqs,
                                    bind_tensor,   create_view,    destroy_view};
   return vku_tensor_create(&v, device, &f, &desc, 0, &t->handle, &t->memory, &t->data, &t->view);
}

static void
tensor_finish(struct tensor *t)
{
   if (t->view)
      destroy_view(device, t->view, NULL);
   if (t->handle)
      destroy_tensor(device, t->handle, NULL);
   if (t->memory)
      vkFreeMemory(device, t->memory, NULL);
}

static VkShaderModule
make_module(const char *name, const char *text)
{
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   VkShaderModule module = VK_NULL_HANDLE;
   if (!ok(spirv_text_assemble(text, strlen(text), &words, &count, err, sizeof(err)), "%s: %s",
           name, err))
      return VK_NULL_HANDLE;
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = count * 4,
       .pCode = words,
   };
   VkResult r = vkCreateShaderModule(device, &smci, NULL, &module);
   ok(r == VK_SUCCESS, "%s shader module through the layer: %d", name, r);
   free(words);
   return module;
}

struct render {
   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkPipeline pipeline;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   VkImage image;
   VkDeviceMemory image_memory;
   VkImageView image_view;
   VkBuffer readback;
   VkDeviceMemory readback_memory;
};

static bool
pipeline_init(struct render *r)
{
   VkDescriptorSetLayoutBinding b[4] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
       {2, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_FRAGMENT_BIT, NULL},
       {3, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_VERTEX_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = 4,
       .pBindings = b,
   };
   VkPushConstantRange range = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4};
   VkPipelineLayoutCreateInfo pl = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &r->set_layout,
       .pushConstantRangeCount = 1,
       .pPushConstantRanges = &range,
   };
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 4};
   VkDescriptorPoolCreateInfo dp = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &size,
   };
   if (!ok(vkCreateDescriptorSetLayout(device, &dsl, NULL, &r->set_layout) == VK_SUCCESS &&
               vkCreatePipelineLayout(device, &pl, NULL, &r->layout) == VK_SUCCESS &&
               vkCreateDescriptorPool(device, &dp, NULL, &r->pool) == VK_SUCCESS,
           "layouts"))
      return false;
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = r->pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &r->set_layout,
   };
   if (!ok(vkAllocateDescriptorSets(device, &ai, &r->set) == VK_SUCCESS, "set"))
      return false;

   VkShaderModule vs = make_module("vertex", vertex_shader);
   VkShaderModule fs = make_module("fragment", fragment_shader);
   VkPipelineShaderStageCreateInfo stages[2] = {
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_VERTEX_BIT,
        .module = vs,
        .pName = "main"},
       {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
        .stage = VK_SHADER_STAGE_FRAGMENT_BIT,
        .module = fs,
        .pName = "main"},
   };
   VkPipelineVertexInputStateCreateInfo vi = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO,
   };
   VkPipelineInputAssemblyStateCreateInfo ia = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO,
       .topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
   };
   VkViewport viewport = {0, 0, SIZE, SIZE, 0, 1};
   VkRect2D scissor = {{0, 0}, {SIZE, SIZE}};
   VkPipelineViewportStateCreateInfo vp = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO,
       .viewportCount = 1,
       .pViewports = &viewport,
       .scissorCount = 1,
       .pScissors = &scissor,
   };
   VkPipelineRasterizationStateCreateInfo rs = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO,
       .polygonMode = VK_POLYGON_MODE_FILL,
       .cullMode = VK_CULL_MODE_NONE,
       .frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE,
       .lineWidth = 1.0f,
   };
   VkPipelineMultisampleStateCreateInfo ms = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO,
       .rasterizationSamples = VK_SAMPLE_COUNT_1_BIT,
   };
   VkPipelineColorBlendAttachmentState att = {
       .colorWriteMask = VK_COLOR_COMPONENT_R_BIT | VK_COLOR_COMPONENT_G_BIT |
                         VK_COLOR_COMPONENT_B_BIT | VK_COLOR_COMPONENT_A_BIT,
   };
   VkPipelineColorBlendStateCreateInfo cb = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO,
       .attachmentCount = 1,
       .pAttachments = &att,
   };
   VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
   VkPipelineRenderingCreateInfo rendering = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO,
       .colorAttachmentCount = 1,
       .pColorAttachmentFormats = &format,
   };
   VkGraphicsPipelineCreateInfo gp = {
       .sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO,
       .pNext = &rendering,
       .stageCount = 2,
       .pStages = stages,
       .pVertexInputState = &vi,
       .pInputAssemblyState = &ia,
       .pViewportState = &vp,
       .pRasterizationState = &rs,
       .pMultisampleState = &ms,
       .pColorBlendState = &cb,
       .layout = r->layout,
   };
   bool good = vs && fs &&
               ok(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gp, NULL, &r->pipeline) ==
                      VK_SUCCESS,
                  "graphics pipeline");
   vkDestroyShaderModule(device, vs, NULL);
   vkDestroyShaderModule(device, fs, NULL);
   return good;
}

static bool
target_init(struct render *r)
{
   VkImageCreateInfo ici = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
       .imageType = VK_IMAGE_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .extent = {SIZE, SIZE, 1},
       .mipLevels = 1,
       .arrayLayers = 1,
       .samples = VK_SAMPLE_COUNT_1_BIT,
       .tiling = VK_IMAGE_TILING_OPTIMAL,
       .usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
       .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   if (!ok(vkCreateImage(device, &ici, NULL, &r->image) == VK_SUCCESS, "image"))
      return false;
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(device, r->image, &req);
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .allocationSize = req.size,
       .memoryTypeIndex = vku_memory_type(&v, req.memoryTypeBits, 0),
   };
   if (!ok(vkAllocateMemory(device, &mai, NULL, &r->image_memory) == VK_SUCCESS &&
               vkBindImageMemory(device, r->image, r->image_memory, 0) == VK_SUCCESS,
           "image memory"))
      return false;
   VkImageViewCreateInfo ivci = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
       .image = r->image,
       .viewType = VK_IMAGE_VIEW_TYPE_2D,
       .format = VK_FORMAT_R8G8B8A8_UNORM,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
   };
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = SIZE * SIZE * 4,
       .usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT,
       .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
   };
   if (!ok(vkCreateImageView(device, &ivci, NULL, &r->image_view) == VK_SUCCESS &&
               vkCreateBuffer(device, &bci, NULL, &r->readback) == VK_SUCCESS,
           "view and readback buffer"))
      return false;
   vkGetBufferMemoryRequirements(device, r->readback, &req);
   mai.allocationSize = req.size;
   mai.memoryTypeIndex = vku_host_memory_type(&v, req.memoryTypeBits);
   return ok(vkAllocateMemory(device, &mai, NULL, &r->readback_memory) == VK_SUCCESS &&
                 vkBindBufferMemory(device, r->readback, r->readback_memory, 0) == VK_SUCCESS,
             "readback memory");
}

static void
render_finish(struct render *r)
{
   vkDestroyPipeline(device, r->pipeline, NULL);
   vkDestroyDescriptorPool(device, r->pool, NULL);
   vkDestroyPipelineLayout(device, r->layout, NULL);
   vkDestroyDescriptorSetLayout(device, r->set_layout, NULL);
   vkDestroyImageView(device, r->image_view, NULL);
   vkDestroyImage(device, r->image, NULL);
   vkFreeMemory(device, r->image_memory, NULL);
   vkDestroyBuffer(device, r->readback, NULL);
   vkFreeMemory(device, r->readback_memory, NULL);
}

static void
write_set(struct render *r, uint32_t binding, VkTensorViewARM view)
{
   VkWriteDescriptorSetTensorARM wt = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
       .tensorViewCount = 1,
       .pTensorViews = &view,
   };
   VkWriteDescriptorSet w = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .pNext = &wt,
       .dstSet = r->set,
       .dstBinding = binding,
       .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
   };
   vkUpdateDescriptorSets(device, 1, &w, 0, NULL);
}

/* The fragment shader's push constant: hits[y][x] = y * SIZE + x + HIT_BASE. */
#define HIT_BASE 1000u
/* Elements of the tensors copied between the push and the draw (more runs than the
 * layer copies with vkCmdCopyBuffer: its compute kernel, which pushes constants). */
#define COPY_N 100

/* Pushes the fragment shader's constant, then copies src into dst (the tensor layer's
 * compute kernel, its own push constants), then draws: the layer must give the draw the
 * application's push constants back. */
static void
record(struct render *r, VkCommandBuffer cmd, VkTensorARM src, VkTensorARM dst)
{
   VkImageMemoryBarrier2 to_attachment = {
       .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
       .srcStageMask = VK_PIPELINE_STAGE_2_NONE,
       .dstStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT,
       .dstAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT,
       .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
       .newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
       .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
       .image = r->image,
       .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
   };
   /* Host writes of the tensors -> the shaders' reads. */
   VkMemoryBarrier2 host_to_shaders = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
       .srcStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
       .srcAccessMask = VK_ACCESS_2_HOST_WRITE_BIT,
       .dstStageMask = VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT | VK_PIPELINE_STAGE_2_TRANSFER_BIT,
       .dstAccessMask = VK_ACCESS_2_SHADER_READ_BIT | VK_ACCESS_2_SHADER_WRITE_BIT |
                        VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT,
   };
   VkDependencyInfo dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
       .memoryBarrierCount = 1,
       .pMemoryBarriers = &host_to_shaders,
       .imageMemoryBarrierCount = 1,
       .pImageMemoryBarriers = &to_attachment,
   };
   vkCmdPipelineBarrier2(cmd, &dep);
   const uint32_t base = HIT_BASE;
   vkCmdPushConstants(cmd, r->layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, 4, &base);
   VkCopyTensorInfoARM copy = {
       .sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
       .srcTensor = src,
       .dstTensor = dst,
       .regionCount = 1,
       .pRegions = &(VkTensorCopyARM){.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM},
   };
   copy_tensor(cmd, &copy);
   VkRenderingAttachmentInfo color = {
       .sType = VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO,
       .imageView = r->image_view,
       .imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
       .loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR,
       .storeOp = VK_ATTACHMENT_STORE_OP_STORE,
       .clearValue = {.color = {.float32 = {0, 0, 0, 0}}},
   };
   VkRenderingInfo ri = {
       .sType = VK_STRUCTURE_TYPE_RENDERING_INFO,
       .renderArea = {{0, 0}, {SIZE, SIZE}},
       .layerCount = 1,
       .colorAttachmentCount = 1,
       .pColorAttachments = &color,
   };
   vkCmdBeginRendering(cmd, &ri);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, r->layout, 0, 1, &r->set, 0, NULL);
   vkCmdDraw(cmd, 3, 1, 0, 0);
   vkCmdEndRendering(cmd);

   VkImageMemoryBarrier2 to_src = to_attachment;
   to_src.srcStageMask = VK_PIPELINE_STAGE_2_COLOR_ATTACHMENT_OUTPUT_BIT;
   to_src.srcAccessMask = VK_ACCESS_2_COLOR_ATTACHMENT_WRITE_BIT;
   to_src.dstStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT;
   to_src.dstAccessMask = VK_ACCESS_2_TRANSFER_READ_BIT;
   to_src.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
   to_src.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
   dep.memoryBarrierCount = 0;
   dep.pImageMemoryBarriers = &to_src;
   vkCmdPipelineBarrier2(cmd, &dep);
   VkBufferImageCopy bic = {
       .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
       .imageExtent = {SIZE, SIZE, 1},
   };
   vkCmdCopyImageToBuffer(cmd, r->image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, r->readback, 1,
                          &bic);
   VkMemoryBarrier2 to_host = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
       .srcStageMask = VK_PIPELINE_STAGE_2_TRANSFER_BIT | VK_PIPELINE_STAGE_2_VERTEX_SHADER_BIT |
                       VK_PIPELINE_STAGE_2_FRAGMENT_SHADER_BIT,
       .srcAccessMask = VK_ACCESS_2_TRANSFER_WRITE_BIT | VK_ACCESS_2_SHADER_WRITE_BIT,
       .dstStageMask = VK_PIPELINE_STAGE_2_HOST_BIT,
       .dstAccessMask = VK_ACCESS_2_HOST_READ_BIT,
   };
   VkDependencyInfo dep2 = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
       .memoryBarrierCount = 1,
       .pMemoryBarriers = &to_host,
   };
   vkCmdPipelineBarrier2(cmd, &dep2);
}

static bool
submit(VkCommandBuffer cmd)
{
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
   };
   return ok(vkEndCommandBuffer(cmd) == VK_SUCCESS &&
                 vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS &&
                 vkQueueWaitIdle(queue) == VK_SUCCESS,
             "submit");
}

static void
test_render(void)
{
   test_set_context("render");
   const int64_t corner_dims[2] = {3, 2}, colour_dims[1] = {4}, hit_dims[2] = {SIZE, SIZE},
                 seen_dims[1] = {3}, copy_dims[1] = {COPY_N}, wide[1] = {8};
   struct tensor corners, colour, hits, seen, copy_src, copy_dst;
   struct render r;
   memset(&r, 0, sizeof(r));
   memset(&corners, 0, sizeof(corners));
   memset(&colour, 0, sizeof(colour));
   memset(&hits, 0, sizeof(hits));
   memset(&seen, 0, sizeof(seen));
   memset(&copy_src, 0, sizeof(copy_src));
   memset(&copy_dst, 0, sizeof(copy_dst));
   vku_capture_stderr_begin(); /* copy_dst's stride warning */
   bool good = tensor_init(&corners, VK_FORMAT_R32_SFLOAT, 2, corner_dims, NULL) &&
               tensor_init(&colour, VK_FORMAT_R32_SFLOAT, 1, colour_dims, NULL) &&
               tensor_init(&hits, VK_FORMAT_R32_UINT, 2, hit_dims, NULL) &&
               tensor_init(&seen, VK_FORMAT_R32_UINT, 1, seen_dims, NULL) &&
               tensor_init(&copy_src, VK_FORMAT_R32_UINT, 1, copy_dims, NULL) &&
               tensor_init(&copy_dst, VK_FORMAT_R32_UINT, 1, copy_dims, wide) &&
               pipeline_init(&r) && target_init(&r);
   vku_capture_stderr_end();
   if (good) {
      /* The upper-left half of the image: (-1, -1), (1, -1), (-1, 1). */
      const float xy[6] = {-1, -1, 1, -1, -1, 1};
      const float rgba[4] = {0.25f, 0.5f, 0.75f, 1.0f};
      memcpy(corners.data, xy, sizeof(xy));
      memcpy(colour.data, rgba, sizeof(rgba));
      for (uint32_t i = 0; i < COPY_N; i++)
         ((uint32_t *)copy_src.data)[i] = 7 * i;
      write_set(&r, 0, corners.view);
      write_set(&r, 1, colour.view);
      write_set(&r, 2, hits.view);
      write_set(&r, 3, seen.view);
      VkCommandBufferAllocateInfo cai = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
          .commandPool = pool,
          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
          .commandBufferCount = 1,
      };
      VkCommandBuffer cmd;
      VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      good = ok(vkAllocateCommandBuffers(device, &cai, &cmd) == VK_SUCCESS &&
                    vkBeginCommandBuffer(cmd, &bi) == VK_SUCCESS,
                "command buffer");
      if (good) {
         record(&r, cmd, copy_src.handle, copy_dst.handle);
         good = submit(cmd);
         vkFreeCommandBuffers(device, pool, 1, &cmd);
      }
   }
   const uint8_t *pixels = NULL;
   if (good && ok(vkMapMemory(device, r.readback_memory, 0, VK_WHOLE_SIZE, 0, (void **)&pixels) ==
                      VK_SUCCESS,
                  "map pixels")) {
      const uint8_t want[4] = {64, 128, 191, 255};
      unsigned inside = 0, bad_in = 0, bad_out = 0, bad_hits = 0;
      const uint32_t *hit = hits.data;
      for (uint32_t y = 0; y < SIZE; y++) {
         for (uint32_t x = 0; x < SIZE; x++) {
            if (x + y == SIZE - 1)
               continue; /* on the diagonal edge: either way */
            bool in = x + y < SIZE - 1;
            const uint8_t *p = pixels + 4 * (y * SIZE + x);
            if (in) {
               inside++;
               for (int c = 0; c < 4; c++)
                  bad_in += abs((int)p[c] - (int)want[c]) > 1;
               bad_hits += hit[y * SIZE + x] != y * SIZE + x + HIT_BASE;
            } else {
               bad_out += p[0] | p[1] | p[2] | p[3];
               bad_hits += hit[y * SIZE + x] != 0;
            }
         }
      }
      check_eq_u64(inside, 28);
      ok(bad_in == 0, "pixels inside have the tensor's colour: %u wrong components", bad_in);
      ok(bad_out == 0, "pixels outside keep the clear colour: %u wrong", bad_out);
      ok(bad_hits == 0,
         "the fragment shader wrote each covered pixel's index into the "
         "tensor and nothing else: %u wrong",
         bad_hits);
      const uint32_t *marks = seen.data;
      for (uint32_t i = 0; i < 3; i++)
         check_eq_u64(marks[i], 100 + i); /* the vertex shader's write */
      const uint32_t *copied = copy_dst.data;
      unsigned bad_copy = 0;
      for (uint32_t i = 0; i < COPY_N; i++)
         bad_copy += copied[2 * i] != 7 * i;
      ok(bad_copy == 0, "the copy recorded between push and draw: %u wrong", bad_copy);
      vkUnmapMemory(device, r.readback_memory);
   }
   render_finish(&r);
   tensor_finish(&corners);
   tensor_finish(&colour);
   tensor_finish(&hits);
   tensor_finish(&seen);
   tensor_finish(&copy_src);
   tensor_finish(&copy_dst);
   test_set_context(NULL);
}

static VkShaderStageFlags
tensor_stages(void)
{
   VkPhysicalDeviceTensorPropertiesARM tp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM,
   };
   VkPhysicalDeviceProperties2 props = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
       .pNext = &tp,
   };
   vkGetPhysicalDeviceProperties2(v.physical_device, &props);
   return tp.shaderTensorSupportedStages;
}

static bool
device_init(void)
{
   VkPhysicalDeviceVulkan13Features v13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
       .synchronization2 = VK_TRUE,
       .dynamicRendering = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &v13,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors"};
   if (!ok(vku_create_device(&v, ext, 1, &tf, &device) == VK_SUCCESS, "device"))
      return false;
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
   GET(copy_tensor, "vkCmdCopyTensorARM");
#undef GET
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, NULL);
   VkQueueFamilyProperties fams[16];
   n = n > 16 ? 16 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(v.physical_device, &n, fams);
   for (uint32_t i = n; i-- > 0;) {
      if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         queue_family = i; /* the first compute family, as vku_create_device picks */
   }
   if (!ok(fams[queue_family].queueFlags & VK_QUEUE_GRAPHICS_BIT, "the queue can draw"))
      return false;
   vkGetDeviceQueue(device, queue_family, 0, &queue);
   VkCommandPoolCreateInfo cpi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .queueFamilyIndex = queue_family,
   };
   return ok(create_tensor && destroy_tensor && tensor_reqs && bind_tensor && create_view &&
                 destroy_view,
             "entry points") &&
          ok(vkCreateCommandPool(device, &cpi, NULL, &pool) == VK_SUCCESS, "command pool");
}

/* Under VK_LAYER_VMEL_test_weak_device with VMEL_TEST_WEAK=no_graphics_stores: no graphics
 * stage is advertised, and graphics tensor shaders are refused saying which stages take
 * tensors. */
static void
test_not_advertised(VkShaderStageFlags stages)
{
   test_set_context("no graphics-stage stores");
   check_eq_u64(stages, VK_SHADER_STAGE_COMPUTE_BIT);
   if (!device_init())
      return;
   const char *names[2] = {"vertex", "fragment"};
   const char *texts[2] = {vertex_shader, fragment_shader};
   for (int i = 0; i < 2; i++) {
      uint32_t *words = NULL;
      size_t count = 0;
      char err[256];
      if (!ok(spirv_text_assemble(texts[i], strlen(texts[i]), &words, &count, err, sizeof(err)),
              "%s: %s", names[i], err))
         continue;
      VkShaderModuleCreateInfo smci = {
          .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
          .codeSize = count * 4,
          .pCode = words,
      };
      VkShaderModule module = VK_NULL_HANDLE;
      vku_capture_stderr_begin();
      VkResult r = vkCreateShaderModule(device, &smci, NULL, &module);
      const char *log = vku_capture_stderr_end();
      free(words);
      check_eq_i64(r, VK_ERROR_FEATURE_NOT_PRESENT);
      ok(module == VK_NULL_HANDLE, "no %s module", names[i]);
      ok(strstr(log, "tensors are only supported in compute shaders") != NULL,
         "the %s shader's refusal says which stages take tensors", names[i]);
   }
   test_set_context(NULL);
}

int
main(void)
{
   const char *weak = getenv("VMEL_TEST_WEAK");
   bool weak_stores = weak && !strcmp(weak, "no_graphics_stores");
   const char *layers[] = {VKU_TENSOR, "VK_LAYER_VMEL_test_weak_device"};
   ok(vku_init(&v, layers, weak_stores ? 2 : 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   VkShaderStageFlags stages = tensor_stages();
   printf("shaderTensorSupportedStages 0x%x\n", stages);
   ok(stages & VK_SHADER_STAGE_COMPUTE_BIT, "compute is always a tensor stage");
   const VkShaderStageFlags graphics = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
   if (weak_stores) {
      test_not_advertised(stages);
   } else if ((stages & graphics) != graphics) {
      printf("skip: the device offers no tensors in vertex and fragment shaders "
             "(no vertexPipelineStoresAndAtomics or fragmentStoresAndAtomics)\n");
      vku_finish(&v);
      return 77;
   } else if (device_init()) {
      test_render();
   }
   if (device) {
      vkDestroyCommandPool(device, pool, NULL);
      vkDestroyDevice(device, NULL);
   }
   vku_finish(&v);
   return test_done();
}
