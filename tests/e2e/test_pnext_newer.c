/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * pNext chains the layers cannot fully read (issue 15):
 *  - structs newer than the build's vk.xml pass through both layers to the
 *    driver, in queries (VkPhysicalDeviceVulkan14Features after an ARM struct:
 *    filled where the driver has Vulkan 1.4) and at device creation (an sType
 *    no header knows, last in the chain: the device is created);
 *  - a chain that loops back on itself is refused by vkCreateTensorARM with
 *    VK_ERROR_VALIDATION_FAILED_EXT instead of hanging;
 *  - on every path where a layer forwards an application's chain to the
 *    driver (decisions D43), a struct no header knows reaches the driver: seen
 *    there by VK_LAYER_VMEL_test_fail_driver (tests/layers/fail_driver.h,
 *    enabled below our layers, never arming a failure) in vkAllocateMemory
 *    dedicated to a tensor, vkCreateDescriptorSetLayout and vkCreateDescriptorPool
 *    with tensor descriptors, vkUpdateDescriptorSets with a tensor write,
 *    vkCreateShaderModule of a tensor shader, that module chained to a compute
 *    stage (module VK_NULL_HANDLE) and vkCmdPipelineBarrier2 with
 *    tensor barriers; where the layer implements the command itself
 *    (vkCreateTensorARM, vkCreateTensorViewARM, vkBindTensorMemoryARM) the
 *    struct is skipped and the call succeeds; so it is in data-graph pipeline
 *    and session creation (the graph layer's own), and the pipeline computes
 *    the reference result (that part under the validation layer: these calls
 *    never reach it).
 * No validation layer: the chains deliberately hold structs the Debian
 * validation layer (1.3.239) does not know.
 */
#include <stdlib.h>
#include <string.h>

#include "dgutil.h"
#include "fail_driver.h"
#include "spirv_text.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

/* VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_4_FEATURES (Vulkan 1.4, after this build's
 * headers): 21 VkBool32 members; room for more so a driver writes inside the struct. */
#define STYPE_VULKAN_1_4_FEATURES ((VkStructureType)55)
/* An sType no version defines: every component must skip it. */
#define STYPE_NOBODY ((VkStructureType)1000999000)

struct newer_features {
   VkStructureType sType;
   void *pNext;
   VkBool32 b[32];
};

static void
test_query(struct vku *v)
{
   test_set_context("query: Vulkan14Features after an ARM struct");
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(v->physical_device, &props);
   struct newer_features nobody = {.sType = STYPE_NOBODY, .b = {7}};
   struct newer_features v14 = {.sType = STYPE_VULKAN_1_4_FEATURES, .pNext = &nobody};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM, .pNext = &v14};
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &tf};
   vkGetPhysicalDeviceFeatures2(v->physical_device, &f2);
   ok(tf.tensors == VK_TRUE, "the layer answered its own struct");
   ok(f2.pNext == &tf && tf.pNext == &v14 && v14.pNext == &nobody && nobody.pNext == NULL,
      "the application's links are kept");
   ok(nobody.b[0] == 7 && nobody.b[1] == 0, "the struct nobody knows is untouched");
   bool any = false;
   for (unsigned i = 0; i < 21; i++)
      any |= v14.b[i] != VK_FALSE;
   if (VK_API_VERSION_MINOR(props.apiVersion) >= 4 || VK_API_VERSION_MAJOR(props.apiVersion) > 1)
      ok(any, "the Vulkan 1.4 driver filled Vulkan14Features (it reached the driver)");
   else
      fprintf(stderr, "# device API %u.%u: Vulkan14Features is not filled below 1.4\n",
              VK_API_VERSION_MAJOR(props.apiVersion), VK_API_VERSION_MINOR(props.apiVersion));
}

static void
test_device_and_loop(struct vku *v)
{
   test_set_context("device: a struct nobody knows, last");
   struct newer_features nobody = {.sType = STYPE_NOBODY};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &nobody,
       .tensors = VK_TRUE};
   const char *ext[] = {"VK_ARM_tensors"};
   VkDevice device = VK_NULL_HANDLE;
   VkResult r = vku_create_device(v, ext, 1, &tf, &device);
   ok(r == VK_SUCCESS, "vkCreateDevice: %d", r);
   if (r != VK_SUCCESS)
      return;

   test_set_context("vkCreateTensorARM: a looping chain");
   PFN_vkCreateTensorARM create =
       (PFN_vkCreateTensorARM)vkGetDeviceProcAddr(device, "vkCreateTensorARM");
   int64_t dims[2] = {4, 4};
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = VK_FORMAT_R32_SFLOAT,
       .dimensionCount = 2,
       .pDimensions = dims,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   VkExternalMemoryTensorCreateInfoARM a = {
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM};
   VkExternalMemoryTensorCreateInfoARM b = {
       .sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_TENSOR_CREATE_INFO_ARM, .pNext = &a};
   a.pNext = &b;
   VkTensorCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
       .pNext = &a,
       .pDescription = &desc,
   };
   VkTensorARM tensor = VK_NULL_HANDLE;
   ok(create != NULL, "vkCreateTensorARM");
   if (create) {
      vku_capture_stderr_begin();
      r = create(device, &info, NULL, &tensor);
      const char *log = vku_capture_stderr_end();
      check_eq_i64(r, VK_ERROR_VALIDATION_FAILED_EXT);
      ok(tensor == VK_NULL_HANDLE, "no tensor");
      ok(strstr(log, "loops") != NULL, "a log line says the chain loops: %s", log);
      info.pNext = NULL;
      r = create(device, &info, NULL, &tensor);
      ok(r == VK_SUCCESS, "the same create info without the loop: %d", r);
      PFN_vkDestroyTensorARM destroy =
          (PFN_vkDestroyTensorARM)vkGetDeviceProcAddr(device, "vkDestroyTensorARM");
      if (r == VK_SUCCESS && destroy)
         destroy(device, tensor, NULL);
   }
   vkDestroyDevice(device, NULL);
}

/* ---- every path that forwards a chain ------------------------------------------------------- */

static PFN_vmelTestFailDriverWatch watch;
static PFN_vmelTestFailDriverControl control;

/* Whether the struct nobody knows reached the driver in `command` since the last watch(). */
static bool
reached(const char *command)
{
   struct fail_driver_stats st;
   control(FAIL_DRIVER_OFF, &st);
   bool good = ok(st.watched_seen > 0 && st.watched_last &&
                     strncmp(st.watched_last, command, strlen(command)) == 0,
                  "the struct nobody knows reached the driver's %s (seen %ld times, last in %s)",
                  command, st.watched_seen, st.watched_last ? st.watched_last : "-");
   watch(STYPE_NOBODY);
   return good;
}


#define PROC(device, name) ((PFN_##name)vkGetDeviceProcAddr((device), #name))

static void
test_create_paths(struct vku *v)
{
   test_set_context("create paths");
   VkPhysicalDeviceDataGraphFeaturesARM dgf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM, .dataGraph = VK_TRUE};
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .pNext = &dgf,
       .tensors = VK_TRUE,
       .shaderTensorAccess = VK_TRUE};
   VkPhysicalDeviceVulkan13Features f13 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
       .pNext = &tf,
       .synchronization2 = VK_TRUE};
   const char *ext[] = {"VK_ARM_tensors", "VK_ARM_data_graph"};
   VkDevice device = VK_NULL_HANDLE;
   VkResult r = vku_create_device(v, ext, 2, &f13, &device);
   if (!ok(r == VK_SUCCESS, "vkCreateDevice: %d", r))
      return;
   watch = (PFN_vmelTestFailDriverWatch)vkGetDeviceProcAddr(device, VMEL_FAIL_DRIVER_WATCH);
   control = (PFN_vmelTestFailDriverControl)vkGetDeviceProcAddr(device, VMEL_FAIL_DRIVER_CONTROL);
   if (!ok(watch && control, "%s answers below our layers", VMEL_FAIL_DRIVER_LAYER)) {
      vkDestroyDevice(device, NULL);
      return;
   }
   watch(STYPE_NOBODY);
   struct newer_features nobody = {.sType = STYPE_NOBODY};

   /* Implemented by the layer: nothing to forward, the struct is skipped. */
   int64_t dims[1] = {16};
   VkTensorDescriptionARM desc = {.sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
                                  .tiling = VK_TENSOR_TILING_LINEAR_ARM,
                                  .format = VK_FORMAT_R32_UINT,
                                  .dimensionCount = 1,
                                  .pDimensions = dims,
                                  .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM};
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pNext = &nobody,
                                .pDescription = &desc};
   VkTensorARM tensor = VK_NULL_HANDLE;
   r = PROC(device, vkCreateTensorARM)(device, &tci, NULL, &tensor);
   ok(r == VK_SUCCESS, "vkCreateTensorARM with a struct nobody knows: %d", r);

   /* vkAllocateMemory dedicated to the tensor: the tensor layer rewrites the chain. */
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   PROC(device, vkGetTensorMemoryRequirementsARM)(device, &ri, &req);
   VkMemoryDedicatedAllocateInfoTensorARM dedicated = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO_TENSOR_ARM,
       .pNext = &nobody,
       .tensor = tensor};
   VkMemoryAllocateInfo mai = {
       .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
       .pNext = &dedicated,
       .allocationSize = req.memoryRequirements.size,
       .memoryTypeIndex = vku_memory_type(v, req.memoryRequirements.memoryTypeBits, 0)};
   VkDeviceMemory memory = VK_NULL_HANDLE;
   r = vkAllocateMemory(device, &mai, NULL, &memory);
   if (ok(r == VK_SUCCESS, "vkAllocateMemory dedicated to a tensor: %d", r))
      reached("vkAllocateMemory");
   /* A struct the layer changes in its copy, after the unknown one: the application's is
    * never written (the unknown struct is left out then, with a warning). */
   VkMemoryAllocateFlagsInfo app_flags = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
   struct newer_features nobody_first = {.sType = STYPE_NOBODY, .pNext = &app_flags};
   VkMemoryAllocateInfo mai2 = mai;
   mai2.pNext = &nobody_first;
   VkDeviceMemory memory2 = VK_NULL_HANDLE;
   r = vkAllocateMemory(device, &mai2, NULL, &memory2);
   ok(r == VK_SUCCESS, "vkAllocateMemory of tensor memory, flags after the unknown struct: %d", r);
   ok(app_flags.flags == 0 && app_flags.pNext == NULL && nobody_first.pNext == &app_flags,
      "the application's VkMemoryAllocateFlagsInfo is untouched");
   vkFreeMemory(device, memory2, NULL);
   watch(STYPE_NOBODY);
   VkBindTensorMemoryInfoARM bi = {.sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM,
                                   .pNext = &nobody,
                                   .tensor = tensor,
                                   .memory = memory};
   r = PROC(device, vkBindTensorMemoryARM)(device, 1, &bi);
   ok(r == VK_SUCCESS, "vkBindTensorMemoryARM with a struct nobody knows: %d", r);
   VkTensorViewCreateInfoARM vci = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                    .pNext = &nobody,
                                    .tensor = tensor,
                                    .format = VK_FORMAT_R32_UINT};
   VkTensorViewARM view = VK_NULL_HANDLE;
   r = PROC(device, vkCreateTensorViewARM)(device, &vci, NULL, &view);
   ok(r == VK_SUCCESS, "vkCreateTensorViewARM with a struct nobody knows: %d", r);

   /* Descriptor set layout and pool with tensor descriptors: lowered copies. */
   VkDescriptorSetLayoutBinding binding = {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                           VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &nobody,
       .bindingCount = 1,
       .pBindings = &binding};
   VkDescriptorSetLayout layout = VK_NULL_HANDLE;
   r = vkCreateDescriptorSetLayout(device, &dsl, NULL, &layout);
   if (ok(r == VK_SUCCESS, "vkCreateDescriptorSetLayout: %d", r))
      reached("vkCreateDescriptorSetLayout");
   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1};
   VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .pNext = &nobody,
                                      .maxSets = 1,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   VkDescriptorPool pool = VK_NULL_HANDLE;
   r = vkCreateDescriptorPool(device, &dpci, NULL, &pool);
   if (ok(r == VK_SUCCESS, "vkCreateDescriptorPool: %d", r))
      reached("vkCreateDescriptorPool");

   /* A tensor write whose chain has the unknown struct before the ARM one. */
   VkDescriptorSet set = VK_NULL_HANDLE;
   VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &layout};
   if (pool && layout)
      r = vkAllocateDescriptorSets(device, &dsai, &set);
   if (ok(set != VK_NULL_HANDLE && view, "a set and a view to write: %d", r)) {
      VkWriteDescriptorSetTensorARM tw = {
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
          .tensorViewCount = 1,
          .pTensorViews = &view};
      struct newer_features before_tensor = {.sType = STYPE_NOBODY, .pNext = &tw};
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .pNext = &before_tensor,
                                .dstSet = set,
                                .descriptorCount = 1,
                                .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM};
      vkUpdateDescriptorSets(device, 1, &w, 0, NULL);
      reached("vkUpdateDescriptorSets");
   }

   /* A tensor shader module: lowered, its create info's chain kept. */
   uint32_t *words = NULL;
   size_t count = 0;
   char err[256];
   if (ok(spirv_text_assemble(vku_tensor_copy_shader, strlen(vku_tensor_copy_shader), &words, &count, err,
                              sizeof(err)),
          "assemble: %s", err)) {
      VkShaderModuleCreateInfo smci = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                       .pNext = &nobody,
                                       .codeSize = count * 4,
                                       .pCode = words};
      VkShaderModule module = VK_NULL_HANDLE;
      r = vkCreateShaderModule(device, &smci, NULL, &module);
      if (ok(r == VK_SUCCESS, "vkCreateShaderModule (tensor shader): %d", r))
         reached("vkCreateShaderModule");
      vkDestroyShaderModule(device, module, NULL);

      /* The same module chained to a compute stage (VK_EXT_graphics_pipeline_library /
       * VK_KHR_maintenance5 style): the layer replaces it with the lowered one and keeps
       * what follows it. */
      VkDescriptorSetLayoutBinding two[2] = {
          {0, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL},
          {1, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL}};
      VkDescriptorSetLayoutCreateInfo dsl2 = {
          .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
          .bindingCount = 2,
          .pBindings = two};
      VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
      vkCreateDescriptorSetLayout(device, &dsl2, NULL, &set_layout);
      VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                         .setLayoutCount = 1,
                                         .pSetLayouts = &set_layout};
      VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
      vkCreatePipelineLayout(device, &plci, NULL, &pipeline_layout);
      VkComputePipelineCreateInfo cpci = {
          .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
          .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                    .pNext = &smci,
                    .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                    .pName = "main"},
          .layout = pipeline_layout};
      VkPipeline pipeline = VK_NULL_HANDLE;
      r = vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline);
      if (ok(r == VK_SUCCESS, "vkCreateComputePipelines, a chained tensor module: %d", r))
         reached("vkCreateComputePipelines (stage)");
      ok(smci.pCode == words && smci.pNext == &nobody, "the application's module info is untouched");
      vkDestroyPipeline(device, pipeline, NULL);
      vkDestroyPipelineLayout(device, pipeline_layout, NULL);
      vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   }
   free(words);

   /* Tensor barriers: both layers translate the dependency. */
   uint32_t family = 0, nfam = 16;
   VkQueueFamilyProperties fams[16];
   vkGetPhysicalDeviceQueueFamilyProperties(v->physical_device, &nfam, fams);
   while (family + 1 < nfam && !(fams[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
      family++;
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .queueFamilyIndex = family};
   VkCommandPool cmd_pool = VK_NULL_HANDLE;
   vkCreateCommandPool(device, &cpci, NULL, &cmd_pool);
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = cmd_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   if (cmd_pool)
      vkAllocateCommandBuffers(device, &cbai, &cmd);
   if (ok(cmd != VK_NULL_HANDLE, "a command buffer")) {
      VkCommandBufferBeginInfo begin = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkBeginCommandBuffer(cmd, &begin);
      VkTensorMemoryBarrierARM tb = {.sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_BARRIER_ARM,
                                     .srcStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                     .srcAccessMask = VK_ACCESS_2_SHADER_WRITE_BIT,
                                     .dstStageMask = VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                                     .dstAccessMask = VK_ACCESS_2_SHADER_READ_BIT,
                                     .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                                     .tensor = tensor};
      VkTensorDependencyInfoARM tdi = {.sType = VK_STRUCTURE_TYPE_TENSOR_DEPENDENCY_INFO_ARM,
                                       .pNext = &nobody,
                                       .tensorMemoryBarrierCount = 1,
                                       .pTensorMemoryBarriers = &tb};
      VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .pNext = &tdi};
      vkCmdPipelineBarrier2(cmd, &dep);
      reached("vkCmdPipelineBarrier2");
      /* The tensor dependency after the unknown struct: the graph layer translates its
       * barriers in a copy, never in the application's struct. */
      VkTensorMemoryBarrierARM tb2 = tb;
      tb2.srcStageMask = VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM;
      tb2.srcAccessMask = VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM;
      VkTensorDependencyInfoARM tdi2 = tdi;
      tdi2.pNext = NULL;
      tdi2.pTensorMemoryBarriers = &tb2;
      struct newer_features nobody_dep = {.sType = STYPE_NOBODY, .pNext = &tdi2};
      dep.pNext = &nobody_dep;
      vkCmdPipelineBarrier2(cmd, &dep);
      ok(tdi2.pTensorMemoryBarriers == &tb2 &&
            tb2.srcStageMask == VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
         "the application's tensor dependency is untouched");
      ok(vkEndCommandBuffer(cmd) == VK_SUCCESS, "vkEndCommandBuffer");
   }
   ok(nobody.pNext == NULL && nobody.b[0] == 0, "the struct nobody knows is untouched");
   if (cmd_pool)
      vkDestroyCommandPool(device, cmd_pool, NULL);
   vkDestroyDescriptorPool(device, pool, NULL);
   vkDestroyDescriptorSetLayout(device, layout, NULL);
   PROC(device, vkDestroyTensorViewARM)(device, view, NULL);
   PROC(device, vkDestroyTensorARM)(device, tensor, NULL);
   vkFreeMemory(device, memory, NULL);
   watch((VkStructureType)0);
   vkDestroyDevice(device, NULL);
}

/* Data-graph pipelines and sessions are the graph layer's own: a struct nobody knows in the
 * pipeline's chain (after the module info), in a resource info's chain (before its tensor
 * description) and in a session's chain is skipped; the pipeline computes the right result. */
static void
test_graph_paths(void)
{
   test_set_context("data-graph pipeline and session");
   struct dgu u;
   if (!dgu_init(&u, NULL)) {
      dgu_finish(&u);
      return;
   }
   struct newer_features nobody = {.sType = STYPE_NOBODY};
   static const char text[] = DGU_CLAMP_ADD_SUB_TEXT;
   const struct dgu_binding bindings[] = {
       {0, 0, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
       {0, 1, 1, VK_FORMAT_R32_SFLOAT, 2, {1, 64}},
   };
   struct dgu_pipeline_desc desc = {
       .text = text, .bindings = bindings, .binding_count = 2, .create_pnext = &nobody};
   struct dgu_graph g;
   VkResult r = dgu_graph_create(&u, &desc, &g);
   ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM, unknown struct after the module info: %d",
      r);
   struct dgu_create_parts *parts = malloc(sizeof(*parts));
   VkPipeline again = VK_NULL_HANDLE;
   if (r == VK_SUCCESS && parts) {
      desc.create_pnext = NULL;
      dgu_create_parts(&desc, &g, parts);
      struct newer_features before_desc = {.sType = STYPE_NOBODY,
                                           .pNext = (void *)parts->resources[0].pNext};
      parts->resources[0].pNext = &before_desc;
      r = u.fn.CreateDataGraphPipelinesARM(u.device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1,
                                           &parts->info, NULL, &again);
      ok(r == VK_SUCCESS, "vkCreateDataGraphPipelinesARM, unknown struct in a resource info: %d",
         r);
   }
   free(parts);
   if (r == VK_SUCCESS) {
      VkDataGraphPipelineSessionCreateInfoARM sci = {
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
          .pNext = &nobody,
          .dataGraphPipeline = again};
      VkDataGraphPipelineSessionARM session = VK_NULL_HANDLE;
      r = u.fn.CreateDataGraphPipelineSessionARM(u.device, &sci, NULL, &session);
      ok(r == VK_SUCCESS, "vkCreateDataGraphPipelineSessionARM with the unknown struct: %d", r);
      if (session)
         u.fn.DestroyDataGraphPipelineSessionARM(u.device, session, NULL);
      /* The pipeline made from the chain with the unknown struct computes the reference. */
      struct dgu_session s;
      struct dgu_sets sets;
      struct dgu_tensor in, out;
      const int64_t dims[2] = {1, 64};
      if (dgu_session_create(&u, again, &s) && dgu_sets_create(&u, &g, &sets) &&
          dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims, &in) &&
          dgu_tensor_create(&u, VK_FORMAT_R32_SFLOAT, 2, dims, &out)) {
         float *x = in.data, want[64];
         for (int i = 0; i < 64; i++)
            x[i] = (float)(i - 32) * 0.25f;
         dgu_write(&u, sets.sets[0], 0, 0, &in);
         dgu_write(&u, sets.sets[0], 1, 0, &out);
         struct dgu_graph run = g;
         run.pipeline = again;
         if (ok(dgu_run(&u, &run, &sets, s.session), "dispatch")) {
            dgu_clamp_add_sub_expect(in.data, want, 64);
            dgu_check_f32("CLAMP, ADD, SUB", out.data, want, 64);
         }
         dgu_tensor_destroy(&u, &out);
         dgu_tensor_destroy(&u, &in);
      }
      dgu_sets_destroy(&u, &sets);
      dgu_session_destroy(&u, &s);
   }
   if (again)
      vkDestroyPipeline(u.device, again, NULL);
   ok(nobody.pNext == NULL && nobody.b[0] == 0, "the struct nobody knows is untouched");
   dgu_graph_destroy(&u, &g);
   dgu_finish(&u);
}

int
main(void)
{
   struct vku v;
   const char *layers[] = {VKU_GRAPH, VKU_TENSOR, VMEL_FAIL_DRIVER_LAYER};
   ok(vku_init(&v, layers, 3, false) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   test_query(&v);
   test_device_and_loop(&v);
   test_create_paths(&v);
   test_graph_paths();
   vku_finish(&v);
   return test_done();
}
