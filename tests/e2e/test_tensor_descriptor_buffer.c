/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor descriptors in descriptor buffers (VK_EXT_descriptor_buffer,
 * descriptorBufferTensorDescriptors; docs/decisions.md D23), through the
 * loader with validation below the tensor layer: the feature and
 * tensorDescriptorSize are reported where the device has descriptorBuffer
 * (tensorDescriptorSize = storageBufferDescriptorSize), set layouts with
 * tensor bindings report sizes and binding offsets that hold them,
 * vkGetDescriptorEXT writes tensor descriptors that SPV_ARM_tensors shaders
 * (tests/unit/lower goldens, lowered by the layer) read through a
 * descriptor buffer bound with vkCmdBindDescriptorBuffersEXT, also as an
 * array (element k at offset + k * tensorDescriptorSize), and the results
 * are checked. Requesting the feature without the extension fails device
 * creation. Devices without descriptor buffers (lavapipe 22.3) skip.
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
static size_t descriptor_size;        /* tensorDescriptorSize */
static VkDeviceSize offset_alignment; /* descriptorBufferOffsetAlignment */

static PFN_vkCreateTensorARM create_tensor;
static PFN_vkDestroyTensorARM destroy_tensor;
static PFN_vkGetTensorMemoryRequirementsARM tensor_reqs;
static PFN_vkBindTensorMemoryARM bind_tensor;
static PFN_vkCreateTensorViewARM create_view;
static PFN_vkDestroyTensorViewARM destroy_view;
static PFN_vkGetDescriptorEXT get_descriptor;
static PFN_vkGetDescriptorSetLayoutSizeEXT layout_size;
static PFN_vkGetDescriptorSetLayoutBindingOffsetEXT binding_offset;
static PFN_vkCmdBindDescriptorBuffersEXT bind_buffers;
static PFN_vkCmdSetDescriptorBufferOffsetsEXT set_offsets;

struct tensor {
   VkTensorARM handle;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   char *data;
   int64_t dims[2];
   int64_t strides[2];
};

static bool
tensor_init(struct tensor *t, uint32_t rank, const int64_t *dims, const int64_t *strides)
{
   memset(t, 0, sizeof(*t));
   memcpy(t->dims, dims, rank * sizeof(int64_t));
   memcpy(t->strides, strides, rank * sizeof(int64_t));
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = VK_FORMAT_R32_SFLOAT,
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

static float *
at(const struct tensor *t, uint32_t i, uint32_t j)
{
   return (float *)(t->data + i * t->strides[0] + j * t->strides[1]);
}

/* The module of tests/unit/lower/<name>.in.spvasm, created through the layer. */
static VkResult
create_module(const char *name, VkShaderModule *module)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/%s.in.spvasm", VMEL_LOWER_CASE_DIR, name);
   size_t count = 0;
   uint32_t *words = vku_assemble_file(path, &count);
   if (!ok(words != NULL, "assemble %s", path))
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

/* A host-visible buffer with a device address. */
struct buffer {
   VkBuffer handle;
   VkDeviceMemory memory;
   char *data;
   VkDeviceAddress address;
};

static bool
buffer_init(struct buffer *b, VkDeviceSize size, VkBufferUsageFlags usage)
{
   memset(b, 0, sizeof(*b));
   VkBufferCreateInfo bci = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
       .size = size,
       .usage = usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT,
   };
   if (vkCreateBuffer(device, &bci, NULL, &b->handle) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(device, b->handle, &req);
   VkMemoryAllocateFlagsInfo flags = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
       .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
   };
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = &flags,
       .allocationSize = req.size,
       .memoryTypeIndex = vku_host_memory_type(&v, req.memoryTypeBits),
   };
   if (mai.memoryTypeIndex == UINT32_MAX ||
       vkAllocateMemory(device, &mai, NULL, &b->memory) != VK_SUCCESS ||
       vkBindBufferMemory(device, b->handle, b->memory, 0) != VK_SUCCESS ||
       vkMapMemory(device, b->memory, 0, VK_WHOLE_SIZE, 0, (void **)&b->data) != VK_SUCCESS)
      return false;
   memset(b->data, 0, size);
   VkBufferDeviceAddressInfo ai = {
       .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
       .buffer = b->handle,
   };
   b->address = vkGetBufferDeviceAddress(device, &ai);
   return true;
}

static void
buffer_finish(struct buffer *b)
{
   vkDestroyBuffer(device, b->handle, NULL);
   vkFreeMemory(device, b->memory, NULL);
}

static void
tensor_descriptor(VkTensorViewARM view, void *out)
{
   VkDescriptorGetTensorInfoARM ti = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM,
       .tensorView = view,
   };
   VkDescriptorGetInfoEXT gi = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
       .pNext = &ti,
       .type = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
   };
   get_descriptor(device, &gi, descriptor_size, out);
}

/* Runs module with binding i = counts[i] tensor views from views, through a
 * descriptor buffer at a non-zero offset. */
static bool
dispatch(VkShaderModule module, uint32_t binding_count, const uint32_t *counts,
         const VkTensorViewARM *views)
{
   VkDescriptorSetLayoutBinding b[2];
   for (uint32_t i = 0; i < binding_count; i++)
      b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_TENSOR_ARM, counts[i],
                                            VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
       .bindingCount = binding_count,
       .pBindings = b,
   };
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   struct buffer db = {0};
   VkPipelineLayoutCreateInfo pl = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &set_layout,
   };
   bool good = ok(vkCreateDescriptorSetLayout(device, &dsl, NULL, &set_layout) == VK_SUCCESS &&
                      vkCreatePipelineLayout(device, &pl, NULL, &layout) == VK_SUCCESS,
                  "layouts");
   /* Sizes and offsets: every binding's descriptors lie inside the set. */
   VkDeviceSize size = 0, offsets[2] = {0, 0};
   if (good) {
      layout_size(device, set_layout, &size);
      for (uint32_t i = 0; i < binding_count; i++) {
         binding_offset(device, set_layout, i, &offsets[i]);
         ok(offsets[i] + counts[i] * descriptor_size <= size,
            "binding %u: offset %llu + %u x %zu within the layout's %llu bytes", i,
            (unsigned long long)offsets[i], counts[i], descriptor_size, (unsigned long long)size);
      }
      if (binding_count == 2)
         ok(offsets[0] + counts[0] * descriptor_size <= offsets[1] ||
                offsets[1] + counts[1] * descriptor_size <= offsets[0],
            "bindings do not overlap");
   }
   VkComputePipelineCreateInfo cp = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .flags = VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = module,
                 .pName = "main"},
       .layout = layout,
   };
   good = good && ok(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cp, NULL, &pipeline) ==
                         VK_SUCCESS,
                     "pipeline");
   /* The set at a non-zero, aligned offset of the descriptor buffer. */
   VkDeviceSize set_offset = offset_alignment > 256 ? offset_alignment : 256;
   good = good && ok(buffer_init(&db, set_offset + size,
                                 VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT),
                     "descriptor buffer");
   for (uint32_t i = 0, first = 0; good && i < binding_count; first += counts[i++]) {
      for (uint32_t k = 0; k < counts[i]; k++)
         tensor_descriptor(views[first + k],
                           db.data + set_offset + offsets[i] + k * descriptor_size);
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
      VkDescriptorBufferBindingInfoEXT binding = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
          .address = db.address,
          .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT,
      };
      bind_buffers(cmd, 1, &binding);
      uint32_t index = 0;
      set_offsets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &index, &set_offset);
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
   if (db.handle)
      buffer_finish(&db);
   vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyPipelineLayout(device, layout, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   return good;
}

/* rank_2: out[x][y] = in[x][y] + 8 (the sum of in's sizes) for x, y < 4, padded strides. */
static void
test_rank2(void)
{
   test_set_context("rank_2");
   int64_t dims[2] = {3, 5}, strides[2] = {28, 4};
   struct tensor src, dst;
   VkShaderModule module = VK_NULL_HANDLE;
   if (tensor_init(&src, 2, dims, strides) && tensor_init(&dst, 2, dims, strides) &&
       ok(create_module("rank_2", &module) == VK_SUCCESS, "module")) {
      for (uint32_t i = 0; i < 3; i++)
         for (uint32_t j = 0; j < 5; j++)
            *at(&src, i, j) = (float)(i * 10 + j);
      uint32_t counts[2] = {1, 1};
      VkTensorViewARM views[2] = {src.view, dst.view};
      if (dispatch(module, 2, counts, views)) {
         unsigned bad = 0;
         for (uint32_t i = 0; i < 3; i++)
            for (uint32_t j = 0; j < 5; j++)
               bad += j < 4 ? *at(&dst, i, j) != (float)(i * 10 + j) + 8.0f
                            : *(uint32_t *)at(&dst, i, j) != 0xa5a5a5a5u;
         ok(bad == 0, "rank_2: %u wrong elements", bad);
      }
   }
   vkDestroyShaderModule(device, module, NULL);
   tensor_finish(&src);
   tensor_finish(&dst);
   test_set_context(NULL);
}

/* tensor_array_constant: an array of 4 tensor descriptors, element 2 copied. */
static void
test_tensor_array(void)
{
   test_set_context("tensor_array_constant");
   int64_t dims[2] = {8, 1}, strides[2] = {4, 4};
   struct tensor arr[4], dst;
   VkShaderModule module = VK_NULL_HANDLE;
   bool good = tensor_init(&dst, 1, dims, strides);
   for (uint32_t k = 0; k < 4; k++) {
      good = tensor_init(&arr[k], 1, dims, strides) && good;
      for (uint32_t i = 0; good && i < 8; i++)
         *(float *)(arr[k].data + 4 * i) = (float)(100 * k + i);
   }
   if (good && ok(create_module("tensor_array_constant", &module) == VK_SUCCESS, "module")) {
      uint32_t counts[2] = {4, 1};
      VkTensorViewARM views[5] = {arr[0].view, arr[1].view, arr[2].view, arr[3].view, dst.view};
      if (dispatch(module, 2, counts, views)) {
         unsigned bad = 0;
         for (uint32_t i = 0; i < 8; i++)
            bad += *(float *)(dst.data + 4 * i) != (float)(200 + i);
         ok(bad == 0, "tensor_array_constant: %u wrong elements", bad);
      }
   }
   vkDestroyShaderModule(device, module, NULL);
   for (uint32_t k = 0; k < 4; k++)
      tensor_finish(&arr[k]);
   tensor_finish(&dst);
   test_set_context(NULL);
}

/* The same view gives the same bytes; two views give different ones. */
static void
test_descriptor_bytes(void)
{
   test_set_context("descriptor bytes");
   int64_t dims[2] = {4, 1}, strides[2] = {4, 4};
   struct tensor a, b;
   if (tensor_init(&a, 1, dims, strides) && tensor_init(&b, 1, dims, strides)) {
      unsigned char d1[1024], d2[1024], d3[1024];
      /* Same fill: a driver need not write every byte of its descriptor. */
      memset(d1, 0x11, sizeof(d1));
      memset(d2, 0x11, sizeof(d2));
      memset(d3, 0x11, sizeof(d3));
      tensor_descriptor(a.view, d1);
      tensor_descriptor(a.view, d2);
      tensor_descriptor(b.view, d3);
      ok(memcmp(d1, d2, descriptor_size) == 0, "same view, same descriptor");
      ok(memcmp(d1, d3, descriptor_size) != 0, "other view, other descriptor");
      ok(d1[descriptor_size] == 0x11, "nothing written past tensorDescriptorSize");
      /* A dataSize other than tensorDescriptorSize writes nothing, with a log line. */
      memset(d2, 0x5a, sizeof(d2));
      VkDescriptorGetTensorInfoARM ti = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM,
          .tensorView = a.view,
      };
      VkDescriptorGetInfoEXT gi = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
          .pNext = &ti,
          .type = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
      };
      vku_capture_stderr_begin();
      get_descriptor(device, &gi, descriptor_size / 2, d2);
      const char *log = vku_capture_stderr_end();
      ok(d2[0] == 0x5a && d2[descriptor_size / 2 - 1] == 0x5a, "wrong dataSize: nothing written");
      ok(strstr(log, "tensorDescriptorSize") != NULL, "wrong dataSize: logged");
   }
   tensor_finish(&a);
   tensor_finish(&b);
   test_set_context(NULL);
}

/* Why this device cannot run the test, or NULL; checks what is reported either way. */
static const char *
unsupported(void)
{
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
   };
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
       .pNext = &dbt,
   };
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
   bool has_ext = vku_has_device_extension(&v, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
   f2.pNext = has_ext ? (void *)&db : (void *)&dbt;
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   if (!has_ext || !db.descriptorBuffer) {
      ok(!dbt.descriptorBufferTensorDescriptors,
         "descriptorBufferTensorDescriptors not offered without descriptorBuffer");
      return has_ext ? "the device lacks descriptorBuffer"
                     : "the device lacks VK_EXT_descriptor_buffer (lavapipe 22.3): run it on "
                       "lavapipe 25 (docs/testing.md)";
   }
   ok(dbt.descriptorBufferTensorDescriptors, "descriptorBufferTensorDescriptors offered");
   VkPhysicalDeviceDescriptorBufferTensorPropertiesARM dbtp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM,
   };
   VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
       .pNext = &dbtp,
   };
   VkPhysicalDeviceProperties2 p2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
       .pNext = &dbp,
   };
   vkGetPhysicalDeviceProperties2(v.physical_device, &p2);
   check_eq_u64(dbtp.tensorDescriptorSize, dbp.storageBufferDescriptorSize);
   ok(dbtp.tensorDescriptorSize > 0 && dbtp.tensorDescriptorSize < 1024, "tensorDescriptorSize %zu",
      dbtp.tensorDescriptorSize);
   descriptor_size = dbtp.tensorDescriptorSize;
   offset_alignment = dbp.descriptorBufferOffsetAlignment;
   return dbt.descriptorBufferTensorDescriptors ? NULL : "descriptorBufferTensorDescriptors off";
}

/* Requesting the feature without VK_EXT_descriptor_buffer fails. */
static void
test_needs_extension(void)
{
   test_set_context("feature without the extension");
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
       .descriptorBufferTensorDescriptors = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors"};
   VkDevice d = VK_NULL_HANDLE;
   v.expect_device_failure = true;
   vku_capture_stderr_begin();
   VkResult r = vku_create_device(&v, ext, 1, &dbt, &d);
   const char *log = vku_capture_stderr_end();
   v.expect_device_failure = false;
   check_eq_i64(r, VK_ERROR_FEATURE_NOT_PRESENT);
   ok(strstr(log, "descriptorBufferTensorDescriptors") != NULL, "logged");
   if (r == VK_SUCCESS)
      vkDestroyDevice(d, NULL);
   test_set_context(NULL);
}

static bool
device_init(void)
{
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .tensorNonPacked = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
   };
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
       .pNext = &tf,
       .descriptorBufferTensorDescriptors = VK_TRUE,
   };
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
       .pNext = &dbt,
       .descriptorBuffer = VK_TRUE,
   };
   VkPhysicalDeviceBufferDeviceAddressFeatures bda = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
       .pNext = &db,
       .bufferDeviceAddress = VK_TRUE,
   };
   const char *ext[] = {"VK_ARM_tensors", VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
   if (!ok(vku_create_device(&v, ext, 2, &bda, &device) == VK_SUCCESS, "device"))
      return false;
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(create_tensor, "vkCreateTensorARM");
   GET(destroy_tensor, "vkDestroyTensorARM");
   GET(tensor_reqs, "vkGetTensorMemoryRequirementsARM");
   GET(bind_tensor, "vkBindTensorMemoryARM");
   GET(create_view, "vkCreateTensorViewARM");
   GET(destroy_view, "vkDestroyTensorViewARM");
   GET(get_descriptor, "vkGetDescriptorEXT");
   GET(layout_size, "vkGetDescriptorSetLayoutSizeEXT");
   GET(binding_offset, "vkGetDescriptorSetLayoutBindingOffsetEXT");
   GET(bind_buffers, "vkCmdBindDescriptorBuffersEXT");
   GET(set_offsets, "vkCmdSetDescriptorBufferOffsetsEXT");
#undef GET
   if (!ok(create_tensor && destroy_tensor && tensor_reqs && bind_tensor && create_view &&
               destroy_view && get_descriptor && layout_size && binding_offset && bind_buffers &&
               set_offsets,
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
   const char *why = unsupported();
   if (why) {
      vku_finish(&v);
      if (test_state.failed)
         return test_done();
      return test_skip(why);
   }
   test_needs_extension();
   if (device_init()) {
      test_descriptor_bytes();
      test_rank2();
      test_tensor_array();
   }
   if (device) {
      vkDestroyCommandPool(device, cmd_pool, NULL);
      vkDestroyDevice(device, NULL);
   }
   vku_finish(&v);
   return test_done();
}
