/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-graph pipelines created with VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT
 * (dataGraphDescriptorBuffer; docs/decisions.md D23). The application's sets
 * live in its descriptor buffers: vkCmdSetDescriptorBufferOffsetsEXT at the
 * data-graph bind point is recorded per command buffer (not passed down) and,
 * at vkCmdDispatchDataGraphARM, set at the compute bind point with the
 * kernels' layout, whose copies of the application's set layouts keep
 * DESCRIPTOR_BUFFER_BIT. The descriptor buffers themselves
 * (vkCmdBindDescriptorBuffersEXT) are bound for every bind point, so they
 * pass through. The kernels' internal set (constants, intermediates) is a
 * push-descriptor set: binding a descriptor buffer of our own would unbind
 * the application's (vkCmdBindDescriptorBuffersEXT replaces them all), and
 * push descriptors need no buffer where bufferlessPushDescriptors holds. The
 * application's compute offsets are set again after the dispatch. Nothing is
 * allocated while recording.
 */
#include "dg_descriptor_buffer.h"

#include "dg_runtime.h"

bool
dg_descriptor_buffer_available(struct lyr_instance *instance, VkPhysicalDevice physical_device)
{
   PFN_vkEnumerateDeviceExtensionProperties enumerate =
       instance->next.EnumerateDeviceExtensionProperties;
   if (!lyr_device_extension_below(enumerate, physical_device,
                                   VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, &instance->alloc) ||
       !lyr_device_extension_below(enumerate, physical_device,
                                   VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, &instance->alloc))
      return false;
   VkPhysicalDeviceDescriptorBufferTensorFeaturesARM dbt = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
   };
   VkPhysicalDeviceDescriptorBufferFeaturesEXT db = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT,
       .pNext = &dbt,
   };
   VkPhysicalDeviceFeatures2 f2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
       .pNext = &db,
   };
   instance->next.GetPhysicalDeviceFeatures2(physical_device, &f2);
   if (!db.descriptorBuffer || !db.descriptorBufferPushDescriptors ||
       !dbt.descriptorBufferTensorDescriptors)
      return false;
   VkPhysicalDevicePushDescriptorPropertiesKHR push = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR,
   };
   VkPhysicalDeviceDescriptorBufferPropertiesEXT dbp = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_PROPERTIES_EXT,
       .pNext = &push,
   };
   VkPhysicalDeviceProperties2 p2 = {
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
       .pNext = &dbp,
   };
   instance->next.GetPhysicalDeviceProperties2(physical_device, &p2);
   return dbp.bufferlessPushDescriptors && push.maxPushDescriptors >= VMEL_GRAPH_MAX_TENSORS;
}

void
dg_descriptor_buffer_rewrite(const VkDeviceCreateInfo *app, VkDeviceCreateInfo *info,
                             struct dg_descriptor_buffer_rewrite *out)
{
   memset(out, 0, sizeof(*out));
   const VkPhysicalDeviceDataGraphFeaturesARM *dgf =
       lyr_find_struct(app->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM);
   const VkPhysicalDeviceDescriptorBufferTensorFeaturesARM *app_dbt = lyr_find_struct(
       app->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM);
   /* Our copy of the application's struct: its chain is ours (dg_descriptor_buffer_check_device
    * made sure it is there when the feature is on). */
   VkPhysicalDeviceDescriptorBufferFeaturesEXT *db =
       (VkPhysicalDeviceDescriptorBufferFeaturesEXT *)lyr_find_struct(
           info->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT);
   out->enabled = dgf && dgf->dataGraphDescriptorBuffer && db && db->descriptorBuffer &&
                  lyr_name_in_list(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME,
                                   info->ppEnabledExtensionNames, info->enabledExtensionCount);
   if (!app_dbt && !out->enabled)
      return;
   out->dbt = (VkPhysicalDeviceDescriptorBufferTensorFeaturesARM){
       .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_TENSOR_FEATURES_ARM,
       .descriptorBufferTensorDescriptors = app_dbt && app_dbt->descriptorBufferTensorDescriptors,
   };
   if (out->enabled) {
      out->dbt.descriptorBufferTensorDescriptors = VK_TRUE;
      db->descriptorBufferPushDescriptors = VK_TRUE;
      out->push_extension =
          !lyr_name_in_list(VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME, info->ppEnabledExtensionNames,
                            info->enabledExtensionCount);
   }
   lyr_chain_append(info, &out->dbt);
}

VkResult
dg_descriptor_buffer_check_device(const VkDeviceCreateInfo *app)
{
   const VkPhysicalDeviceDataGraphFeaturesARM *dgf =
       lyr_find_struct(app->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_FEATURES_ARM);
   if (!dgf || !dgf->dataGraphDescriptorBuffer)
      return VK_SUCCESS;
   const VkPhysicalDeviceDescriptorBufferFeaturesEXT *db = lyr_find_struct(
       app->pNext, VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DESCRIPTOR_BUFFER_FEATURES_EXT);
   if (db && db->descriptorBuffer &&
       lyr_name_in_list(VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME, app->ppEnabledExtensionNames,
                        app->enabledExtensionCount))
      return VK_SUCCESS;
   return lyr_error(VK_ERROR_FEATURE_NOT_PRESENT,
                    "VkPhysicalDeviceDataGraphFeaturesARM::dataGraphDescriptorBuffer requested "
                    "without %s and its descriptorBuffer feature enabled",
                    VK_EXT_DESCRIPTOR_BUFFER_EXTENSION_NAME);
}

VkResult
dg_descriptor_buffer_check_pipeline(struct dg_device *device,
                                    const VkDataGraphPipelineCreateInfoARM *info)
{
   bool db = (info->flags & VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT) != 0;
   if (db && !device->descriptor_buffer)
      return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                       "vkCreateDataGraphPipelinesARM: DESCRIPTOR_BUFFER_BIT_EXT needs "
                       "dataGraphDescriptorBuffer (with VK_EXT_descriptor_buffer's "
                       "descriptorBuffer) enabled");
   const struct dg_pipeline_layout_info *layout = dg_pipeline_layout_info_get(device, info->layout);
   uint32_t count = layout ? dg_pipeline_layout_set_count(layout) : 0;
   for (uint32_t i = 0; i < count; i++) {
      const struct dg_set_layout_info *set = dg_pipeline_layout_set(layout, i);
      if (!set)
         continue;
      uint32_t bindings;
      VkDescriptorSetLayoutCreateFlags flags;
      dg_set_layout_bindings(set, &bindings, &flags);
      bool set_db = (flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT) != 0;
      if (set_db != db)
         return lyr_error(VK_ERROR_VALIDATION_FAILED_EXT,
                          "vkCreateDataGraphPipelinesARM: set layout %u %s "
                          "DESCRIPTOR_BUFFER_BIT_EXT and the pipeline %s "
                          "VK_PIPELINE_CREATE_2_DESCRIPTOR_BUFFER_BIT_EXT",
                          i, set_db ? "has" : "lacks", db ? "has" : "lacks");
   }
   return VK_SUCCESS;
}

VkDescriptorSetLayoutCreateFlags
dg_descriptor_buffer_layout_flags(const struct dg_pipeline *p, bool internal)
{
   if (!p->descriptor_buffer)
      return 0;
   return VK_DESCRIPTOR_SET_LAYOUT_CREATE_DESCRIPTOR_BUFFER_BIT_EXT |
          (internal ? VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR : 0);
}

void
dg_descriptor_buffer_bind(struct dg_device *device, const struct dg_db_cmd *db,
                          const struct dg_pipeline *p, VkCommandBuffer cmd)
{
   uint32_t sets = p->app_set_count < LYR_CMD_MAX_SETS ? p->app_set_count : LYR_CMD_MAX_SETS;
   uint32_t mask = db->graph_mask & (sets == 32 ? ~0u : (1u << sets) - 1);
   for (uint32_t i = 0; i < sets;) {
      if (!(mask & (1u << i))) {
         i++;
         continue;
      }
      uint32_t n = 1;
      while (i + n < sets && (mask & (1u << (i + n))))
         n++;
      device->base.next.CmdSetDescriptorBufferOffsetsEXT(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                                                         p->layout, i, n, &db->graph_index[i],
                                                         &db->graph_offset[i]);
      i += n;
   }
}

void
dg_descriptor_buffer_push_internal(struct dg_device *device, const struct dg_session *s,
                                   uint32_t set, VkCommandBuffer cmd)
{
   const struct dg_pipeline *p = s->pipeline;
   const struct dg_plan_internal_set *is = &p->plan->internal_sets[set];
   VkWriteDescriptorSet w[VMEL_GRAPH_MAX_TENSORS];
   VkWriteDescriptorSetTensorARM tw[VMEL_GRAPH_MAX_TENSORS];
   VkTensorViewARM views[VMEL_GRAPH_MAX_TENSORS];
   uint32_t n = 0;
   for (uint32_t b = 0; b < is->count && n < VMEL_GRAPH_MAX_TENSORS; b++) {
      const struct dg_plan_tensor *t = &p->plan->tensors[is->tensors[b]];
      views[n] =
          t->kind == DG_PLAN_TENSOR_CONSTANT ? p->constants[t->index].view : s->views[t->index];
      tw[n] = (VkWriteDescriptorSetTensorARM){
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_TENSOR_ARM,
          .tensorViewCount = 1,
          .pTensorViews = &views[n],
      };
      w[n] = (VkWriteDescriptorSet){
          .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
          .pNext = &tw[n],
          .dstBinding = b,
          .descriptorCount = 1,
          .descriptorType = VK_DESCRIPTOR_TYPE_TENSOR_ARM,
      };
      n++;
   }
   if (n)
      device->base.next.CmdPushDescriptorSetKHR(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout,
                                                p->internal_set, n, w);
}

void
dg_descriptor_buffer_restore(struct dg_device *device, const struct dg_db_cmd *db,
                             VkCommandBuffer cmd)
{
   for (uint32_t i = 0; i < LYR_CMD_MAX_SETS; i++) {
      if (db->compute_mask & (1u << i))
         device->base.next.CmdSetDescriptorBufferOffsetsEXT(
             cmd, VK_PIPELINE_BIND_POINT_COMPUTE, db->compute_layout[i], i, 1,
             &db->compute_index[i], &db->compute_offset[i]);
   }
}

static VKAPI_ATTR void VKAPI_CALL
dg_CmdSetDescriptorBufferOffsetsEXT(VkCommandBuffer commandBuffer,
                                    VkPipelineBindPoint pipelineBindPoint, VkPipelineLayout layout,
                                    uint32_t firstSet, uint32_t setCount,
                                    const uint32_t *pBufferIndices, const VkDeviceSize *pOffsets)
{
   struct dg_device *device = dg_device_get(commandBuffer);
   bool graph = (int)pipelineBindPoint == (int)VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM;
   struct dg_db_cmd *db = dg_dispatch_db_state(device, commandBuffer);
   if (!graph) {
      if (db && pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
         for (uint32_t i = 0; i < setCount && firstSet + i < LYR_CMD_MAX_SETS; i++) {
            db->compute_mask |= 1u << (firstSet + i);
            db->compute_index[firstSet + i] = pBufferIndices[i];
            db->compute_offset[firstSet + i] = pOffsets[i];
            db->compute_layout[firstSet + i] = layout;
         }
      }
      device->base.next.CmdSetDescriptorBufferOffsetsEXT(
          commandBuffer, pipelineBindPoint, layout, firstSet, setCount, pBufferIndices, pOffsets);
      return;
   }
   if (!db || !device->descriptor_buffer || firstSet + setCount > LYR_CMD_MAX_SETS) {
      lyr_loge("vkCmdSetDescriptorBufferOffsetsEXT: sets %u..%u at the data-graph bind point "
               "not recorded (%s)",
               firstSet, firstSet + setCount,
               !db                          ? "untracked command buffer"
               : !device->descriptor_buffer ? "dataGraphDescriptorBuffer is not enabled"
                                            : "set index out of range");
      return;
   }
   for (uint32_t i = 0; i < setCount; i++) {
      db->graph_mask |= 1u << (firstSet + i);
      db->graph_index[firstSet + i] = pBufferIndices[i];
      db->graph_offset[firstSet + i] = pOffsets[i];
   }
}

static const struct lyr_hook hooks[] = {
    DG_HOOK(CmdSetDescriptorBufferOffsetsEXT, dg_CmdSetDescriptorBufferOffsetsEXT),
};

const struct lyr_hook_table dg_descriptor_buffer_hooks = LYR_HOOK_TABLE(hooks);
