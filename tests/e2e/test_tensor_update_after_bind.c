/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Update-after-bind tensor descriptors (descriptorBindingStorageTensorUpdateAfterBind,
 * docs/decisions.md D32), through the loader with validation below the tensor
 * layer: offered on every device (native where the driver has update-after-bind
 * storage buffers, emulated elsewhere or with VMEL_TENSOR_UPDATE_AFTER_BIND=emulate,
 * the .emulated variant). A compute shader (tests/unit/lower/rank_2: out = in + 8)
 * reads and writes tensors through a set of an UPDATE_AFTER_BIND layout:
 *  - rewritten after vkCmdBindDescriptorSets, before submission: the dispatch
 *    uses the new tensors and leaves the old ones alone;
 *  - the same command buffer submitted again after another rewrite, by a
 *    descriptor update template and by a descriptor copy from another set;
 *  - UPDATE_UNUSED_WHILE_PENDING (where the device has
 *    descriptorBindingUpdateUnusedWhilePending): a binding the shader does not
 *    use written while the submission is pending, then copied into the used
 *    binding for a third submission.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spirv_text.h"
#include "test.h"
#include "vkutil.h"

TEST_MAIN_STATE;

#define TENSORS 6

static struct vku v;
static VkDevice device;
static VkQueue queue;
static VkCommandPool cmd_pool;
static bool unused_while_pending; /* descriptorBindingUpdateUnusedWhilePending enabled */
static struct vku_tensor_fns fns;

struct tensor {
   VkTensorARM handle;
   VkDeviceMemory memory;
   VkTensorViewARM view;
   char *data;
};

static const int64_t dims[2] = {3, 5}, strides[2] = {28, 4};

static bool
tensor_init(struct tensor *t, float base)
{
   memset(t, 0, sizeof(*t));
   VkTensorDescriptionARM desc = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = VK_FORMAT_R32_SFLOAT,
       .dimensionCount = 2,
       .pDimensions = dims,
       .pStrides = strides,
       .usage = VK_TENSOR_USAGE_SHADER_BIT_ARM,
   };
   if (!vku_tensor_create(&v, device, &fns, &desc, 0xa5, &t->handle, &t->memory, (void **)&t->data,
                          &t->view))
      return false;
   for (uint32_t i = 0; i < 3; i++)
      for (uint32_t j = 0; j < 5; j++)
         *(float *)(t->data + i * strides[0] + j * strides[1]) = base + (float)(i * 10 + j);
   return true;
}

static void
tensor_finish(struct tensor *t)
{
   if (t->view)
      fns.destroy_view(device, t->view, NULL);
   if (t->handle)
      fns.destroy(device, t->handle, NULL);
   if (t->memory)
      vkFreeMemory(device, t->memory, NULL);
}

/* The output as the shader writes it from in (base): in + 8 where x, y < 4. */
static bool
check_out(const char *what, const struct tensor *out, float base)
{
   unsigned bad = 0;
   for (uint32_t i = 0; i < 3; i++)
      for (uint32_t j = 0; j < 5; j++) {
         const char *p = out->data + i * strides[0] + j * strides[1];
         bad += j < 4 ? *(const float *)p != base + (float)(i * 10 + j) + 8.0f
                      : *(const uint32_t *)p != 0xa5a5a5a5u;
      }
   return ok(bad == 0, "%s: %u wrong elements", what, bad);
}

static bool
check_untouched(const char *what, const struct tensor *t)
{
   unsigned bad = 0;
   for (uint32_t i = 0; i < 3; i++)
      for (uint32_t j = 0; j < 5; j++)
         bad += *(const uint32_t *)(t->data + i * strides[0] + j * strides[1]) != 0xa5a5a5a5u;
   return ok(bad == 0, "%s: %u elements written", what, bad);
}

static void
reset_out(struct tensor *t)
{
   memset(t->data, 0xa5, 3 * 28);
}

static void
write_set(VkDescriptorSet set, uint32_t binding, VkTensorViewARM view)
{
   VkWriteDescriptorSetTensorARM wt = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
       .tensorViewCount = 1,
       .pTensorViews = &view,
   };
   VkWriteDescriptorSet w = {
       .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
       .pNext = &wt,
       .dstSet = set,
       .dstBinding = binding,
       .descriptorCount = 1,
       .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
   };
   vkUpdateDescriptorSets(device, 1, &w, 0, NULL);
}

static bool
submit_wait(VkCommandBuffer cmd, bool write_while_pending, VkDescriptorSet set,
            VkTensorViewARM view)
{
   VkSubmitInfo si = {
       .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
       .commandBufferCount = 1,
       .pCommandBuffers = &cmd,
   };
   VkResult r = vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE);
   /* Binding 2 is not used by the shader: UPDATE_UNUSED_WHILE_PENDING allows it now. */
   if (r == VK_SUCCESS && write_while_pending)
      write_set(set, 2, view);
   if (r == VK_SUCCESS)
      r = vkQueueWaitIdle(queue);
   return ok(r == VK_SUCCESS, "submission: %d", r);
}

static VkResult
create_module(VkShaderModule *module)
{
   char path[4096];
   snprintf(path, sizeof(path), "%s/rank_2.in.spvasm", VMEL_LOWER_CASE_DIR);
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

static void
test_update_after_bind(void)
{
   struct tensor t[TENSORS];
   bool good = true;
   for (uint32_t i = 0; i < TENSORS; i++)
      good = tensor_init(&t[i], (float)(100 * i)) && good;
   /* t0, t2, t4 inputs; t1, t3, t5 outputs. */
   for (uint32_t i = 1; i < TENSORS; i += 2)
      reset_out(&t[i]);

   /* Bindings 0 (in), 1 (out): update-after-bind; binding 2 (unused by the
    * shader) also UPDATE_UNUSED_WHILE_PENDING where offered. */
   VkDescriptorBindingFlags flags[3] = {
       VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
       VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT,
       VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT |
           (unused_while_pending ? VK_DESCRIPTOR_BINDING_UPDATE_UNUSED_WHILE_PENDING_BIT : 0),
   };
   VkDescriptorSetLayoutBindingFlagsCreateInfo bf = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO,
       .bindingCount = 3,
       .pBindingFlags = flags,
   };
   VkDescriptorSetLayoutBinding b[3];
   for (uint32_t i = 0; i < 3; i++)
      b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_TENSOR_ARM, 1,
                                            VK_SHADER_STAGE_COMPUTE_BIT, NULL};
   VkDescriptorSetLayoutCreateInfo dsl = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
       .pNext = &bf,
       .flags = VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT,
       .bindingCount = 3,
       .pBindings = b,
   };
   VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_TENSOR_ARM, 6};
   VkDescriptorPoolCreateInfo dpci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
       .flags = VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT |
                VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
       .maxSets = 2,
       .poolSizeCount = 1,
       .pPoolSizes = &ps,
   };
   VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
   VkPipelineLayout layout = VK_NULL_HANDLE;
   VkDescriptorPool pool = VK_NULL_HANDLE;
   VkDescriptorSet sets[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
   VkPipeline pipeline = VK_NULL_HANDLE;
   VkShaderModule module = VK_NULL_HANDLE;
   VkDescriptorUpdateTemplate tmpl = VK_NULL_HANDLE;
   VkCommandBuffer cmd = VK_NULL_HANDLE;
   VkPipelineLayoutCreateInfo pl = {
       .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
       .setLayoutCount = 1,
       .pSetLayouts = &set_layout,
   };
   good = good && ok(vkCreateDescriptorSetLayout(device, &dsl, NULL, &set_layout) == VK_SUCCESS &&
                         vkCreatePipelineLayout(device, &pl, NULL, &layout) == VK_SUCCESS &&
                         vkCreateDescriptorPool(device, &dpci, NULL, &pool) == VK_SUCCESS,
                     "layouts and pool");
   VkDescriptorSetLayout layouts[2] = {set_layout, set_layout};
   VkDescriptorSetAllocateInfo dsai = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
       .descriptorPool = pool,
       .descriptorSetCount = 2,
       .pSetLayouts = layouts,
   };
   good = good && ok(vkAllocateDescriptorSets(device, &dsai, sets) == VK_SUCCESS, "sets");
   good = good && ok(create_module(&module) == VK_SUCCESS, "module");
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
   /* A template writing bindings 0 and 1 from two consecutive views. */
   VkDescriptorUpdateTemplateEntry entry = {
       .dstBinding = 0,
       .descriptorCount = 2, /* runs into binding 1 */
       .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
       .stride = sizeof(VkTensorViewARM),
   };
   VkDescriptorUpdateTemplateCreateInfo tci = {
       .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO,
       .descriptorUpdateEntryCount = 1,
       .pDescriptorUpdateEntries = &entry,
       .templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET,
       .descriptorSetLayout = set_layout,
   };
   good = good &&
          ok(vkCreateDescriptorUpdateTemplate(device, &tci, NULL, &tmpl) == VK_SUCCESS, "template");
   if (good) {
      for (uint32_t i = 0; i < 3; i++)
         write_set(sets[0], i, t[i == 1 ? 1 : 0].view);
      write_set(sets[1], 0, t[4].view);
      write_set(sets[1], 1, t[5].view);
      write_set(sets[1], 2, t[4].view);
      VkCommandBufferAllocateInfo cai = {
          .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
          .commandPool = cmd_pool,
          .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
          .commandBufferCount = 1,
      };
      VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkAllocateCommandBuffers(device, &cai, &cmd);
      vkBeginCommandBuffer(cmd, &bi);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &sets[0], 0, NULL);
      vkCmdDispatch(cmd, 1, 1, 1);
      VkMemoryBarrier mb = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
          .dstAccessMask = VK_ACCESS_HOST_READ_BIT,
      };
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0,
                           1, &mb, 0, NULL, 0, NULL);
      good = ok(vkEndCommandBuffer(cmd) == VK_SUCCESS, "recorded");
   }
   if (good) {
      test_set_context("rewritten after binding, before submission");
      write_set(sets[0], 0, t[2].view);
      write_set(sets[0], 1, t[3].view);
      if (submit_wait(cmd, false, VK_NULL_HANDLE, VK_NULL_HANDLE)) {
         check_out("t3 from t2", &t[3], 200);
         check_untouched("t1, bound when recorded", &t[1]);
      }
      reset_out(&t[3]);

      test_set_context("submitted again after a template update");
      VkTensorViewARM views[2] = {t[0].view, t[1].view};
      vkUpdateDescriptorSetWithTemplate(device, sets[0], tmpl, views);
      if (submit_wait(cmd, false, VK_NULL_HANDLE, VK_NULL_HANDLE)) {
         check_out("t1 from t0", &t[1], 0);
         check_untouched("t3, written by the first submission", &t[3]);
      }
      reset_out(&t[1]);

      test_set_context("submitted again after a descriptor copy");
      VkCopyDescriptorSet copy = {
          .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
          .srcSet = sets[1],
          .srcBinding = 0,
          .dstSet = sets[0],
          .dstBinding = 0,
          .descriptorCount = 2,
      };
      vkUpdateDescriptorSets(device, 0, NULL, 1, &copy);
      if (submit_wait(cmd, unused_while_pending, sets[0], t[2].view)) {
         check_out("t5 from t4", &t[5], 400);
         check_untouched("t1, bound before the copy", &t[1]);
      }
      reset_out(&t[5]);

      test_set_context("UPDATE_UNUSED_WHILE_PENDING");
      if (!unused_while_pending) {
         printf("descriptorBindingUpdateUnusedWhilePending is not offered here: skipped\n");
      } else {
         /* Binding 2 got t2 while the last submission was pending: copy it into
          * binding 0 and write t3 as the output. */
         VkCopyDescriptorSet c2 = {
             .sType = VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET,
             .srcSet = sets[0],
             .srcBinding = 2,
             .dstSet = sets[0],
             .dstBinding = 0,
             .descriptorCount = 1,
         };
         vkUpdateDescriptorSets(device, 0, NULL, 1, &c2);
         write_set(sets[0], 1, t[3].view);
         if (submit_wait(cmd, false, VK_NULL_HANDLE, VK_NULL_HANDLE))
            check_out("t3 from t2, written while pending", &t[3], 200);
      }
      test_set_context(NULL);
   }
   if (cmd)
      vkFreeCommandBuffers(device, cmd_pool, 1, &cmd);
   if (sets[0] && pool)
      ok(vkFreeDescriptorSets(device, pool, 2, sets) == VK_SUCCESS, "sets freed");
   vkDestroyDescriptorUpdateTemplate(device, tmpl, NULL);
   vkDestroyPipeline(device, pipeline, NULL);
   vkDestroyShaderModule(device, module, NULL);
   vkDestroyDescriptorPool(device, pool, NULL);
   vkDestroyPipelineLayout(device, layout, NULL);
   vkDestroyDescriptorSetLayout(device, set_layout, NULL);
   for (uint32_t i = 0; i < TENSORS; i++)
      tensor_finish(&t[i]);
}

/* The feature and limits as reported; false (and why) when it cannot run. */
static bool
reported(void)
{
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
   };
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &tf,
   };
   VkPhysicalDeviceFeatures2 f2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                   .pNext = &f12};
   vkGetPhysicalDeviceFeatures2(v.physical_device, &f2);
   unused_while_pending = f12.descriptorBindingUpdateUnusedWhilePending;
   VkPhysicalDeviceTensorPropertiesARM tp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM,
   };
   VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                     .pNext = &tp};
   vkGetPhysicalDeviceProperties2(v.physical_device, &p2);
   if (!tf.descriptorBindingStorageTensorUpdateAfterBind) {
      /* Offered where the limits reach VK_ARM_tensors' 500000, or when asked for with
       * VMEL_TENSOR_UPDATE_AFTER_BIND=emulate (the .emulated variant). */
      ok(tp.maxPerStageDescriptorUpdateAfterBindStorageTensors < 500000 &&
             !getenv("VMEL_TENSOR_UPDATE_AFTER_BIND"),
         "not offered only below the required limits (%u per stage)",
         tp.maxPerStageDescriptorUpdateAfterBindStorageTensors);
      printf("descriptorBindingStorageTensorUpdateAfterBind is not offered here (limits %u per "
             "stage, %u per set, below 500000): skipped\n",
             tp.maxPerStageDescriptorUpdateAfterBindStorageTensors,
             tp.maxDescriptorSetUpdateAfterBindStorageTensors);
      vku_finish(&v);
      exit(test_done() == 0 ? 77 : 1);
   }
   bool offered = ok(tf.descriptorBindingStorageTensorUpdateAfterBind,
                     "descriptorBindingStorageTensorUpdateAfterBind offered");
   ok(tp.maxPerStageDescriptorUpdateAfterBindStorageTensors >= 3 &&
          tp.maxDescriptorSetUpdateAfterBindStorageTensors >=
              tp.maxPerStageDescriptorUpdateAfterBindStorageTensors,
      "update-after-bind tensor limits %u per stage, %u per set",
      tp.maxPerStageDescriptorUpdateAfterBindStorageTensors,
      tp.maxDescriptorSetUpdateAfterBindStorageTensors);
   printf("driver update-after-bind storage buffers: %s; UPDATE_UNUSED_WHILE_PENDING: %s; "
          "VMEL_TENSOR_UPDATE_AFTER_BIND=%s\n",
          f12.descriptorBindingStorageBufferUpdateAfterBind ? "yes" : "no",
          unused_while_pending ? "yes" : "no",
          getenv("VMEL_TENSOR_UPDATE_AFTER_BIND") ? getenv("VMEL_TENSOR_UPDATE_AFTER_BIND")
                                                  : "(unset)");
   return offered;
}

static bool
device_init(void)
{
   VkPhysicalDeviceTensorFeaturesARM tf = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_FEATURES_ARM,
       .tensors = VK_TRUE,
       .tensorNonPacked = VK_TRUE,
       .shaderTensorAccess = VK_TRUE,
       .descriptorBindingStorageTensorUpdateAfterBind = VK_TRUE,
   };
   VkPhysicalDeviceVulkan12Features f12 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
       .pNext = &tf,
       .bufferDeviceAddress = VK_TRUE,
       .descriptorBindingUpdateUnusedWhilePending = unused_while_pending,
   };
   const char *ext[] = {"VK_ARM_tensors"};
   if (!ok(vku_create_device(&v, ext, 1, &f12, &device) == VK_SUCCESS, "device"))
      return false;
#define GET(var, name) var = (__typeof__(var))vkGetDeviceProcAddr(device, name)
   GET(fns.create, "vkCreateTensorARM");
   GET(fns.destroy, "vkDestroyTensorARM");
   GET(fns.requirements, "vkGetTensorMemoryRequirementsARM");
   GET(fns.bind, "vkBindTensorMemoryARM");
   GET(fns.create_view, "vkCreateTensorViewARM");
   GET(fns.destroy_view, "vkDestroyTensorViewARM");
#undef GET
   if (!ok(fns.create && fns.destroy && fns.requirements && fns.bind && fns.create_view &&
               fns.destroy_view,
           "entry points"))
      return false;
   vkGetDeviceQueue(device, 0, 0, &queue);
   VkCommandPoolCreateInfo cpi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
   return ok(vkCreateCommandPool(device, &cpi, NULL, &cmd_pool) == VK_SUCCESS, "command pool");
}

int
main(void)
{
   const char *layers[] = {VKU_TENSOR};
   ok(vku_init(&v, layers, 1, true) == VK_SUCCESS, "instance");
   vku_require_device(&v);
   if (reported() && device_init())
      test_update_after_bind();
   if (device) {
      vkDestroyCommandPool(device, cmd_pool, NULL);
      vkDestroyDevice(device, NULL);
   }
   vku_finish(&v);
   return test_done();
}
