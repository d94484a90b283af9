/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-graph pipelines with descriptor buffers (dataGraphDescriptorBuffer;
 * docs/decisions.md D23), through the loader with validation below both
 * layers: a three-stage graph with two intermediates (DGU_CLAMP_ADD_SUB_TEXT;
 * its internal set is pushed) created with DESCRIPTOR_BUFFER_BIT_EXT, its
 * tensors written with vkGetDescriptorEXT into two sets of one descriptor
 * buffer, dispatched twice in one command buffer with
 * vkCmdSetDescriptorBufferOffsetsEXT at the data-graph bind point selecting
 * each set; both outputs are checked. A compute pipeline of the application's
 * bound with its own set (offsets at the compute bind point) before the
 * dispatches still reads that set after them (a tensor shader of
 * tests/unit/lower, out = in + 8). A pipeline with the flag on a device
 * without the feature enabled is refused. Devices without descriptor buffers (lavapipe 22.3) skip.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 64

static PFN_vkGetDescriptorEXT get_descriptor;
static PFN_vkGetDescriptorSetLayoutSizeEXT layout_size;
static PFN_vkGetDescriptorSetLayoutBindingOffsetEXT binding_offset;
static PFN_vkCmdBindDescriptorBuffersEXT bind_buffers;
static PFN_vkCmdSetDescriptorBufferOffsetsEXT set_offsets;
static size_t descriptor_size;
static VkDeviceSize offset_alignment;

/* Why the device cannot run the test, or NULL. */
static const char *
unsupported(struct vku *v)
{
   VkPhysicalDeviceDataGraphFeaturesARM dg = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
   };
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &dg};
   vkGetPhysicalDeviceFeatures2(v->physical_device, &f2);
   if (!vku_has_device_extension(v, VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME)) {
      ok(!dg.dataGraphDescriptorBuffer, "dataGraphDescriptorBuffer not offered");
      return "the device lacks VK_EXT_descriptor_buffer (lavapipe 22.3): run it on lavapipe 25 "
             "(docs/testing.md)";
   }
   if (!dg.dataGraphDescriptorBuffer)
      return "dataGraphDescriptorBuffer is not offered on this device (it needs descriptorBuffer "
             "with bufferless push descriptors)";
   VkPhysicalDeviceDescriptorBufferTensorPropertiesARM tp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_PROPERTIES_ARM,
   };
   VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
       .pNext = &tp,
   };
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &dbp};
   vkGetPhysicalDeviceProperties2(v->physical_device, &p2);
   descriptor_size = tp.tensorDescriptorSize;
   offset_alignment = dbp.descriptorBufferOffsetAlignment;
   ok(descriptor_size > 0, "tensorDescriptorSize %zu", descriptor_size);
   return NULL;
}

/* dgu_init's device, with descriptor buffers and dataGraphDescriptorBuffer when `on`. */
static bool
init(struct dgu *u, bool on)
{
   memset(u, 0, sizeof(*u));
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR};
   if (!ok(vku_init(&u->v, layers, 2, true) == VK_SUCCESS, "vkCreateInstance"))
      return false;
   vku_require_device(&u->v);
   uint32_t n = 16;
   VkQueueFamilyProperties fams[16];
   vkGetPhysicalDeviceQueueFamilyProperties(u->v.physical_device, &n, fams);
   u->family = UINT32_MAX;
   for (uint32_t i = 0; i < n && u->family == UINT32_MAX; i++) {
      if (fams[i].queueFlags & VK_QUEUE_DATA_GRAPH_BIT_ARM)
         u->family = i;
   }
   if (!ok(u->family != UINT32_MAX, "a data-graph queue family"))
      return false;
   const char *why = unsupported(&u->v);
   if (why) {
      vku_finish(&u->v);
      exit(test_state.failed ? test_done() : test_skip(why));
   }
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM,
       .dataGraph = VK_TRUE,
       .dataGraphDescriptorBuffer = on,
   };
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
       .pNext = &dgf,
       .descriptorBufferTensorDescriptors = VK_TRUE,
   };
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &dbt,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
   };
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
       .pNext = &tf,
       .descriptorBuffer = VK_TRUE,
   };
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &db,
       .bufferDeviceAddress = VK_TRUE,
   };
   VkPhysicalDeviceVulkan13Features f13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
       .pNext = &f12,
       .synchronization2 = VK_TRUE,
   };
   const char *ext[] = {VK_ARM_TENSORS_EXTENSION_NAME, VK_ARM_DATA_GRAPH_EXTENSION_NAME,
                        VK_ARM_DATA_GRAPH_INSTRUCTION_SET_TOSA_EXTENSION_NAME,
                        VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME};
   float prio = 1.0f;
   VkDeviceQueueCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = u->family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &prio};
   VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .pNext = &f13,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qci,
                             .enabledExtensionCount = 4,
                             .ppEnabledExtensionNames = ext};
   VkResult r = vkCreateDevice(u->v.physical_device, &dci, NULL, &u->device);
   if (!ok(r == VK_SUCCESS, "vkCreateDevice: %d", r))
      return false;
   vkGetDeviceQueue(u->device, u->family, 0, &u->queue);
   if (!ok(graph_arm_fns_load(u->device, &u->fn), "VK_ARM_data_graph entry points"))
      return false;
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(u->device, name)
   GET(get_descriptor, "vkGetDescriptorEXT");
   GET(layout_size, "vkGetDescriptorSetLayoutSizeEXT");
   GET(binding_offset, "vkGetDescriptorSetLayoutBindingOffsetEXT");
   GET(bind_buffers, "vkCmdBindDescriptorBuffersEXT");
   GET(set_offsets, "vkCmdSetDescriptorBufferOffsetsEXT");
#undef GET
   if (!ok(get_descriptor && layout_size && binding_offset && bind_buffers && set_offsets,
           "descriptor-buffer entry points"))
      return false;
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = u->family};
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   return ok(vkCreateCommandPool(u->device, &cpci, NULL, &u->pool) == VK_SUCCESS &&
                 vkCreateFence(u->device, &fci, NULL, &u->fence) == VK_SUCCESS,
             "command pool and fence");
}

/* A host-visible descriptor buffer with its address. */
struct buffer {
   VkBuffer handle;
   VkDeviceMemory memory;
   char *data;
   VkDeviceAddress address;
};

static bool
buffer_init(struct dgu *u, struct buffer *b, VkDeviceSize size, VkBufferUsageFlags usage)
{
   memset(b, 0, sizeof(*b));
   VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT};
   if (vkCreateBuffer(u->device, &bci, NULL, &b->handle) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(u->device, b->handle, &req);
   VkMemoryAllocateFlagsInfo flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
                                      .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT};
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .pNext = &flags,
                               .allocationSize = req.size,
                               .memoryTypeIndex = vku_host_memory_type(&u->v, req.memoryTypeBits)};
   if (mai.memoryTypeIndex == UINT32_MAX ||
       vkAllocateMemory(u->device, &mai, NULL, &b->memory) != VK_SUCCESS ||
       vkBindBufferMemory(u->device, b->handle, b->memory, 0) != VK_SUCCESS ||
       vkMapMemory(u->device, b->memory, 0, VK_WHOLE_SIZE, 0, (void **)&b->data) != VK_SUCCESS)
      return false;
   memset(b->data, 0, size);
   VkBufferDeviceAddressInfo ai = {.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO,
                                   .buffer = b->handle};
   b->address = vkGetBufferDeviceAddress(u->device, &ai);
   return true;
}

static void
buffer_finish(struct dgu *u, struct buffer *b)
{
   vkDestroyBuffer(u->device, b->handle, NULL);
   vkFreeMemory(u->device, b->memory, NULL);
}

static void
tensor_descriptor(struct dgu *u, VkTensorViewARM view, void *out)
{
   VkDescriptorGetTensorInfoARM ti = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_TENSOR_INFO_ARM,
                                      .tensorView = view};
   VkDescriptorGetInfoEXT gi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_GET_INFO_EXT,
                                .pNext = &ti,
                                .type = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
   get_descriptor(u->device, &gi, descriptor_size, out);
}

static VkDeviceSize
align_up(VkDeviceSize v, VkDeviceSize a)
{
   return a ? (v + a - 1) / a * a : v;
}

static const struct dgu_binding io_bindings[] = {
    {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
    {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, N}},
};

/* The graph's set layout and pipeline layout, with DESCRIPTOR_BUFFER_BIT. */
static bool
make_layouts(struct dgu *u, struct dgu_graph *g)
{
   /* Compute, not VK_SHADER_STAGE_ALL: lavapipe 25.0.7 crashes in compute dispatches
    * reading descriptor-buffer sets whose layouts have ALL-stage bindings, also
    * without data graphs (docs/testing.md). */
   VkDescriptorSetLayoutBinding b[2] = {
       {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
       {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
   };
   VkDescriptorSetLayoutCreateInfo info = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
       .bindingCount = 2,
       .pBindings = b,
   };
   g->set_count = 1;
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = g->set_layouts};
   return ok(vkCreateDescriptorSetLayout(u->device, &info, NULL, &g->set_layouts[0]) ==
                     VK_SUCCESS &&
                 vkCreatePipelineLayout(u->device, &plci, NULL, &g->layout) == VK_SUCCESS,
             "layouts");
}

static VkResult
make_pipeline(struct dgu *u, struct dgu_graph *g)
{
   size_t count = 0;
   uint32_t *words = dgu_assemble(DGU_CLAMP_ADD_SUB_TEXT, &count);
   if (!words)
      return VK_ERROR_UNKNOWN;
   VkShaderModuleCreateInfo mci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4, .pCode = words};
   VkResult r = vkCreateShaderModule(u->device, &mci, NULL, &g->module);
   free(words);
   if (!ok(r == VK_SUCCESS, "vkCreateShaderModule: %d", r))
      return r;
   struct dgu_pipeline_desc desc = {
       .text = DGU_CLAMP_ADD_SUB_TEXT, .bindings = io_bindings, .binding_count = 2};
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   if (!ok(parts != NULL, "out of memory"))
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   dgu_create_parts(&desc, g, parts);
   parts->info.flags = VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT;
   r = u->fn.CreateDataGraphPipelinesARM(u->device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &parts->info,
                                         NULL, &g->pipeline);
   free(parts);
   return r;
}

/* The application's compute pipeline: tests/unit/lower/rank_2 (out[i][j] = in[i][j] + 8
 * on a 4x4 tensor) with the graph's layout. */
static VkPipeline
compute_pipeline(struct dgu *u, VkPipelineLayout layout)
{
   size_t count = 0;
   uint32_t *words = vku_assemble_file(VMEL_LOWER_CASE_DIR "/rank_2.in.spvasm", &count);
   if (!ok(words != NULL, "rank_2 assembled"))
      return VK_NULL_HANDLE;
   VkShaderModuleCreateInfo mci = {
       .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = count * 4, .pCode = words};
   VkShaderModule module = VK_NULL_HANDLE;
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkResult r = vkCreateShaderModule(u->device, &mci, NULL, &module);
   free(words);
   VkComputePipelineCreateInfo cp = {
       .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
       .flags = VK_PIPELINE_CREATE_DESCRIPTOR_BUFFER_BIT_EXT,
       .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                 .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                 .module = module,
                 .pName = "main"},
       .layout = layout,
   };
   if (r == VK_SUCCESS)
      r = vkCreateComputePipelines(u->device, VK_NULL_HANDLE, 1, &cp, NULL, &pipeline);
   vkDestroyShaderModule(u->device, module, NULL);
   ok(r == VK_SUCCESS, "compute pipeline: %d", r);
   return pipeline;
}

/* Two dispatches of one session, each with its own set of one descriptor buffer. */
static void
test_dispatch(void)
{
   test_set_context("dispatch");
   struct dgu u;
   if (!init(&u, true))
      goto out;
   struct dgu_graph g = {0};
   struct dgu_tensor in[3] = {0}, outs[3] = {0};
   VkPipeline cpipe = VK_NULL_HANDLE;
   struct dgu_session s = {0};
   struct buffer db = {0};
   int64_t dims[2] = {1, N};
   if (!make_layouts(&u, &g) ||
       !ok(make_pipeline(&u, &g) == VK_SUCCESS, "pipeline with DESCRIPTOR_BUFFER_BIT_EXT"))
      goto done;
   bool good = true;
   for (int k = 0; k < 2; k++)
      good = good && dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims, &in[k]) &&
             dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims, &outs[k]);
   int64_t dims4[2] = {4, 4};
   good = good && dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims4, &in[2]) &&
          dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims4, &outs[2]);
   if (!good || !dgu_session_create(&u, g.pipeline, &s) ||
       !(cpipe = compute_pipeline(&u, g.layout)))
      goto done;
   VkDeviceSize size = 0, off[2];
   layout_size(u.device, g.set_layouts[0], &size);
   binding_offset(u.device, g.set_layouts[0], 0, &off[0]);
   binding_offset(u.device, g.set_layouts[0], 1, &off[1]);
   VkDeviceSize stride = align_up(size, offset_alignment);
   VkDeviceSize base[3] = {align_up(64, offset_alignment), 0, 0};
   base[1] = base[0] + stride;
   base[2] = base[1] + stride;
   if (!ok(buffer_init(&u, &db, base[2] + stride,
                       VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT),
           "descriptor buffer"))
      goto done;
   float want[2][N];
   for (int k = 0; k < 2; k++) {
      float *x = in[k].data;
      for (int i = 0; i < N; i++)
         x[i] = (float)(i - N / 2) * (k ? 0.25f : 0.125f) + (float)k;
      memset(outs[k].data, 0xff, outs[k].size);
      dgu_clamp_add_sub_expect(x, want[k], N);
      tensor_descriptor(&u, in[k].view, db.data + base[k] + off[0]);
      tensor_descriptor(&u, outs[k].view, db.data + base[k] + off[1]);
   }
   float *x3 = in[2].data;
   for (int i = 0; i < 16; i++)
      x3[i] = (float)(i * 3);
   memset(outs[2].data, 0xff, outs[2].size);
   tensor_descriptor(&u, in[2].view, db.data + base[2] + off[0]);
   tensor_descriptor(&u, outs[2].view, db.data + base[2] + off[1]);
   VkCommandBuffer cmd = dgu_begin(&u);
   if (!cmd)
      goto done;
   VkDescriptorBufferBindingInfoEXT binding = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_BUFFER_BINDING_INFO_EXT,
       .address = db.address,
       .usage = VK_BUFFER_USAGE_RESOURCE_DESCRIPTOR_BUFFER_BIT_EXT,
   };
   dgu_barrier_host_to_graph(cmd);
   bind_buffers(cmd, 1, &binding);
   uint32_t index = 0;
   /* The application's compute state, set before the data-graph dispatches. */
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, cpipe);
   set_offsets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, g.layout, 0, 1, &index, &base[2]);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, g.pipeline);
   for (int k = 0; k < 2; k++) {
      set_offsets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, g.layout, 0, 1, &index, &base[k]);
      u.fn.CmdDispatchDataGraphARM(cmd, s.session, NULL);
   }
   /* Its compute state is back: this dispatch reads its own set. */
   vkCmdDispatch(cmd, 1, 1, 1);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM | VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
               VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM | VK_ACCESS_2_SHADER_WRITE_BIT,
               VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
   if (dgu_submit_wait(&u, cmd)) {
      dgu_check_f32("first set's output", outs[0].data, want[0], N);
      dgu_check_f32("second set's output", outs[1].data, want[1], N);
      float want3[16];
      for (int i = 0; i < 16; i++)
         want3[i] = (float)(i * 3) + 8.0f;
      dgu_check_f32("the application's compute dispatch after them", outs[2].data, want3, 16);
   }
   dgu_free_cmd(&u, cmd);
done:
   if (db.handle)
      buffer_finish(&u, &db);
   if (s.session)
      dgu_session_destroy(&u, &s);
   if (cpipe)
      vkDestroyPipeline(u.device, cpipe, NULL);
   for (int k = 0; k < 3; k++) {
      dgu_tensor_destroy(&u, &in[k]);
      dgu_tensor_destroy(&u, &outs[k]);
   }
   dgu_graph_destroy(&u, &g);
out:
   dgu_finish(&u);
   test_set_context(NULL);
}

/* Without dataGraphDescriptorBuffer enabled the flag is refused. */
static void
test_refused(void)
{
   test_set_context("feature not enabled");
   struct dgu u;
   struct dgu_graph g = {0};
   if (init(&u, false) && make_layouts(&u, &g)) {
      vku_capture_stderr_begin();
      VkResult r = make_pipeline(&u, &g);
      const char *log = vku_capture_stderr_end();
      ok(r != VK_SUCCESS, "refused: %d", r);
      ok(strstr(log, "dataGraphDescriptorBuffer") != NULL, "logged");
   }
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
   test_set_context(NULL);
}

/* Set layouts without DESCRIPTOR_BUFFER_BIT and a pipeline with the flag: refused. */
static void
test_layout_mismatch(void)
{
   test_set_context("set layout without DESCRIPTOR_BUFFER_BIT");
   struct dgu u;
   struct dgu_graph g = {0};
   if (init(&u, true)) {
      VkDescriptorSetLayoutBinding b[2] = {
          {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
          {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
      };
      VkDescriptorSetLayoutCreateInfo info = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
          .bindingCount = 2,
          .pBindings = b,
      };
      g.set_count = 1;
      VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                         .setLayoutCount = 1,
                                         .pSetLayouts = g.set_layouts};
      if (ok(vkCreateDescriptorSetLayout(u.device, &info, NULL, &g.set_layouts[0]) == VK_SUCCESS &&
                 vkCreatePipelineLayout(u.device, &plci, NULL, &g.layout) == VK_SUCCESS,
             "layouts")) {
         vku_capture_stderr_begin();
         VkResult r = make_pipeline(&u, &g);
         const char *log = vku_capture_stderr_end();
         check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
         ok(strstr(log, "set layout 0 lacks DESCRIPTOR_BUFFER_BIT_EXT") != NULL, "logged");
      }
   }
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
   test_set_context(NULL);
}

int
main(void)
{
   test_dispatch();
   test_layout_mismatch();
   test_refused();
   return test_done();
}
