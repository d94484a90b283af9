/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor compute shaders through the loader and the tensor layer on lavapipe,
 * validation below: modules written with SPV_ARM_tensors (the golden inputs
 * of tests/unit/lower) are created with vkCreateShaderModule, lowered by the
 * layer (tsr_shader.c), bound with VK_DESCRIPTOR_TYPE_TENSOR_ARM descriptors
 * of real VkTensorARM views and dispatched; the data is checked. Also: the
 * same module twice (the lowering cache), a module whose compute and vertex
 * shaders use a tensor (two entry points: direct path only), and one that only the direct
 * path lowers (the GLSL round trip's failure is logged with its stage).
 * CTest runs it under both lowering paths (VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE).
 */
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
static VkCommandPool cmd_pool;
static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCreateTensorViewARM create_view;
static PFN_vkDestroyTensorViewARM destroy_view;

struct tensor {
   VkTensorARM handle;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   char *data;
   uint32_t rank;
   int64_t dims[6];
   int64_t strides[6];
};

/* A host-visible tensor with explicit strides, filled with 0xa5. */
static bool
tensor_init(struct tensor *t, VkFormat format, uint32_t rank, const int64_t *dims,
            const int64_t *strides)
{
   memset(t, 0, sizeof(*t));
   t->rank = rank;
   memcpy(t->dims, dims, rank * sizeof(int64_t));
   memcpy(t->strides, strides, rank * sizeof(int64_t));
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = format,
       .dimensionCount = rank,
       .pDimensions = t->dims,
       .pStrides = t->strides,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   const struct vku_tensor_fns f = {create_tensor, destroy_tensor, tensor_reqs,
                                    bind_tensor,   create_view,    destroy_view};
   return vku_tensor_create(&v, device, &f, &desc, 0xa5, &t->handle, &t->memory, (void **)&t->data, &t->view);
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

static void *
at(const struct tensor *t, uint32_t i, uint32_t j)
{
   return t->data + i * t->strides[0] + (t->rank > 1 ? j * t->strides[1] : 0);
}

/* SPIR-V text assembled and created through the layer. */
static VkResult
create_module_text(const char *name, const char *text, size_t len, VkShaderModule *module)
{
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (!ok(spirv_text_assemble(text, len, &words, &count, err, sizeof(err)), "%s: %s", name, err))
      return VK_ERROR_UNKNOWN;
   VkShaderModuleCreateInfo smci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
       .codeSize = count * 4,
       .pCode = words,
   };
   VkResult result = vkCreateShaderModule(device, &smci, NULL, module);
   free(words);
   return result;
}

/* The module of tests/unit/lower/<name>.in.spvasm, created through the layer. */
static VkResult
create_module(const char *name, VkShaderModule *module)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s.in.spvasm", VMEL_LOWER_CASE_DIR, name);
   FILE *f = fopen(path, "rb");
   if (!ok(f != NULL, "cannot open %s", path))
      return VK_ERROR_UNKNOWN;
   static char text[1 << 16];
   size_t len = fread(text, 1, sizeof(text) - 1, f);
   fclose(f);
   return create_module_text(name, text, len, module);
}

/* Runs module with binding i = `counts[i]` tensor views from views. */
static bool
dispatch(VkShaderModule module, uint32_t binding_count, const uint32_t *counts,
         const VkTensorViewARM *views)
{
   VkDescriptorSetLayoutBinding b[4];
   uint32_t total = 0;
   for (uint32_t i = 0; i < binding_count; i++) {
      b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_TENSOR_ARM, counts[i],
                                            VK_SHADER_STAGE_COMPUTE_BIT, NULL};
      total += counts[i];
   }
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .bindingCount = binding_count,
       .pBindings = b,
   };
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkDescriptorSet set;
   VkPipelineLayoutCreateInfo pl = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &set_layout,
   };
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, total};
   VkDescriptorPoolCreateInfo dp = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .maxSets = 1,
       .poolSizeCount = 1,
       .pPoolSizes = &size,
   };
   bool good = ok(vkCreateDescriptorSetLayout(device, &dsl, NULL, &set_layout) == VK_SUCCESS &&
                      vkCreatePipelineLayout(device, &pl, NULL, &layout) == VK_SUCCESS &&
                      vkCreateDescriptorPool(device, &dp, NULL, &pool) == VK_SUCCESS,
                  "layouts");
   VkComputePipelineCreateInfo cp = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = module,
                 .pName = "main"},
       .layout = layout,
   };
   good = good && ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cp, NULL, &pipeline) ==
                         VK_SUCCESS,
                     "pipeline");
   VkDescriptorSetAllocateInfo ai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 1,
       .pSetLayouts = &set_layout,
   };
   good = good && ok(vkAllocateDescriptorSets(device, &ai, &set) == VK_SUCCESS, "set");
   for (uint32_t i = 0, first = 0; good && i < binding_count; first += counts[i++]) {
      VkWriteDescriptorSetTensorARM wt = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
          .tensorViewCount = counts[i],
          .pTensorViews = views + first,
      };
      VkWriteDescriptorSet w = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .pNext = &wt,
          .dstSet = set,
          .dstBinding = i,
          .descriptorCount = counts[i],
          .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
      };
      vkUpdateDescriptorSets(device, 1, &w, 0, NULL);
   }
   if (good) {
      VkCommandBufferAllocateInfo cai = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
          .commandPool = cmd_pool,
          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
          .commandBufferCount = 1,
      };
      VkCommandBuffer cmd;
      VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkAllocateCommandBuffers(device, &cai, &cmd);
      vkBeginCommandBuffer(cmd, &bi);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);
      vkCmdDispatch(cmd, 1, 1, 1);
      VkMemoryBarrier mb = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
          .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
      };
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                           1, &mb, 0, NULL, 0, NULL);
      vkEndCommandBuffer(cmd);
      VkSubmitInfo si = {
          .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
          .commandBufferCount = 1,
          .pCommandBuffers = &cmd,
      };
      good = ok(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE) == VK_SUCCESS &&
                    vkQueueWaitIdle(queue) == VK_SUCCESS,
                "submit");
      vkFreeCommandBuffers(device, cmd_pool, 1, &cmd);
   }
   vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyDescriptorPool(device, pool, NULL);
   vkDestroyPipelineLayout(device, layout, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   return good;
}

/* rank_2: out[x][y] = in[x][y] + (dims sum) for x, y < 4, padded strides. */
static void
test_rank2(void)
{
   test_set_context("rank_2");
   int64_t dims[2] = {3, 5}, strides[2] = {28, 4};
   struct tensor src, dst;
   VkShaderModule module = VK_NULL_HANDLE, again = VK_NULL_HANDLE;
   if (tensor_init(&src, VK_FORMAT_R32_SFLOAT, 2, dims, strides) &&
       tensor_init(&dst, VK_FORMAT_R32_SFLOAT, 2, dims, strides) &&
       ok(create_module("rank_2", &module) == VK_SUCCESS, "module") &&
       ok(create_module("rank_2", &again) == VK_SUCCESS, "module again (cache)")) {
      for (uint32_t i = 0; i < 3; i++)
         for (uint32_t j = 0; j < 5; j++) {
            float f = (float)(i * 10 + j);
            memcpy(at(&src, i, j), &f, 4);
         }
      uint32_t counts[2] = {1, 1};
      VkTensorViewARM views[2] = {src.view, dst.view};
      VkShaderModule modules[2] = {module, again};
      for (int m = 0; m < 2; m++) {
         if (!dispatch(modules[m], 2, counts, views))
            continue;
         unsigned bad = 0;
         for (uint32_t i = 0; i < 3; i++)
            for (uint32_t j = 0; j < 5; j++) {
               float got;
               memcpy(&got, at(&dst, i, j), 4);
               bad += j < 4 ? got != (float)(i * 10 + j) + 8.0f
                            : *(uint32_t *)at(&dst, i, j) != 0xa5a5a5a5u;
            }
         ok(bad == 0, "rank_2: %u wrong elements", bad);
      }
   }
   vkDestroyShaderModule(device, module, NULL);
   vkDestroyShaderModule(device, again, NULL);
   tensor_finish(&src);
   tensor_finish(&dst);
   test_set_context(NULL);
}

/* tensor_array_constant: an array of 4 tensor descriptors, element 2 copied. */
static void
test_tensor_array(void)
{
   test_set_context("tensor_array_constant");
   int64_t dims[1] = {8}, strides[1] = {4};
   struct tensor arr[4], dst;
   VkShaderModule module = VK_NULL_HANDLE;
   bool good = tensor_init(&dst, VK_FORMAT_R32_SFLOAT, 1, dims, strides);
   for (uint32_t k = 0; k < 4; k++) {
      good = tensor_init(&arr[k], VK_FORMAT_R32_SFLOAT, 1, dims, strides) && good;
      for (uint32_t i = 0; good && i < 8; i++) {
         float f = (float)(100 * k + i);
         memcpy(at(&arr[k], i, 0), &f, 4);
      }
   }
   if (good && ok(create_module("tensor_array_constant", &module) == VK_SUCCESS, "module")) {
      uint32_t counts[2] = {4, 1};
      VkTensorViewARM views[5] = {arr[0].view, arr[1].view, arr[2].view, arr[3].view, dst.view};
      if (dispatch(module, 2, counts, views)) {
         unsigned bad = 0;
         for (uint32_t i = 0; i < 8; i++) {
            float got;
            memcpy(&got, at(&dst, i, 0), 4);
            bad += got != (float)(200 + i);
         }
         ok(bad == 0, "tensor_array_constant: %u wrong elements", bad);
      }
   }
   vkDestroyShaderModule(device, module, NULL);
   for (uint32_t k = 0; k < 4; k++)
      tensor_finish(&arr[k]);
   tensor_finish(&dst);
   test_set_context(NULL);
}

/* A module with a compute and a vertex entry point using a tensor: vertex shaders take
 * tensors here (lavapipe has vertexPipelineStoresAndAtomics), so the direct path lowers it;
 * the GLSL round trip has one entry point per shader and says so. */
static void
test_rejection(void)
{
   const char *mode = getenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE");
   bool direct = mode && !strcmp(mode, "1");
   VkShaderModule module = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult result = create_module("reject_vertex_shader", &module);
   const char *log = vku_capture_stderr_end();
   if (direct) {
      ok(result == VK_SUCCESS, "compute + vertex tensor module, direct path: %d", result);
   } else {
      ok(result == VK_ERROR_FEATURE_NOT_PRESENT, "compute + vertex tensor module: %d", result);
      ok(module == VK_NULL_HANDLE, "no module");
      ok(strstr(log, "the module has 2 entry points") != NULL, "logged why");
   }
   vkDestroyShaderModule(device, module, NULL);
}

/* Valid, but SPIRV-Cross 2021 cannot translate OpSpecConstantOp QuantizeToF16. */
static const char quantize_shader[] = "OpCapability Shader\n"
                                      "OpCapability TensorsARM\n"
                                      "OpExtension \"SPV_ARM_tensors\"\n"
                                      "OpMemoryModel Logical GLSL450\n"
                                      "OpEntryPoint GLCompute %main \"main\" %t\n"
                                      "OpExecutionMode %main LocalSize 1 1 1\n"
                                      "OpDecorate %t DescriptorSet 0\n"
                                      "OpDecorate %t Binding 0\n"
                                      "OpDecorate %spec SpecId 0\n"
                                      "%void = OpTypeVoid\n"
                                      "%uint = OpTypeInt 32 0\n"
                                      "%float = OpTypeFloat 32\n"
                                      "%uint_0 = OpConstant %uint 0\n"
                                      "%uint_1 = OpConstant %uint 1\n"
                                      "%coords = OpTypeArray %uint %uint_1\n"
                                      "%tensor = OpTypeTensorARM %float %uint_1\n"
                                      "%ptr_tensor = OpTypePointer UniformConstant %tensor\n"
                                      "%t = OpVariable %ptr_tensor UniformConstant\n"
                                      "%spec = OpSpecConstant %float 1.5\n"
                                      "%quantized = OpSpecConstantOp %float QuantizeToF16 %spec\n"
                                      "%fn_void = OpTypeFunction %void\n"
                                      "%main = OpFunction %void None %fn_void\n"
                                      "%entry = OpLabel\n"
                                      "%tv = OpLoad %tensor %t\n"
                                      "%c = OpCompositeConstruct %coords %uint_0\n"
                                      "OpTensorWriteARM %tv %c %quantized\n"
                                      "OpReturn\n"
                                      "OpFunctionEnd\n";

static void
test_path_failure(void)
{
   test_set_context("GLSL round trip failure");
   const char *mode = getenv("VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE");
   bool direct = mode && !strcmp(mode, "1");
   VkShaderModule module = VK_NULL_HANDLE;
   vku_capture_stderr_begin();
   VkResult result =
       create_module_text("quantize", quantize_shader, strlen(quantize_shader), &module);
   const char *log = vku_capture_stderr_end();
   if (direct) {
      ok(result == VK_SUCCESS, "the direct path lowers it: %d", result);
   } else {
      ok(result == VK_ERROR_FEATURE_NOT_PRESENT, "GLSL round trip: %d", result);
      ok(module == VK_NULL_HANDLE, "no module");
      ok(strstr(log, "(GLSL round trip): SPIRV-Cross: ") != NULL, "logged with the stage");
   }
   vkDestroyShaderModule(device, module, NULL);
   test_set_context(NULL);
}

static bool
device_init(void)
{
   const char *ext[] = {"VK_ARM_tensors"};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .tensorNonPacked = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
   };
   if (!ok(vku_create_device(&v, ext, 1, &tf, &device) == VK_SUCCESS, "device"))
      return false;
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
#undef GET
   if (!ok(create_tensor && destroy_tensor && tensor_reqs && bind_tensor && create_view &&
               destroy_view,
           "entry points"))
      return false;
   vkGetDeviceQueue(device, 0, 0, &queue);
   VkCommandPoolCreateInfo cpi = {
       .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
       .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
   };
   return ok(vkCreateCommandPool(device, &cpi, NULL, &cmd_pool) == VK_SUCCESS, "command pool");
}

int
main(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init(&v, layers, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   if (device_init()) {
      test_rank2();
      test_tensor_array();
      test_rejection();
      test_path_failure();
   }
   if (device) {
      vkDestroyCommandPool(device, cmd_pool, NULL);
      vkDestroyDevice(device, NULL);
   }
   vku_finish(&v);
   return test_done();
}
