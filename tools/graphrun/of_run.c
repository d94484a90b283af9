/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * An optical-flow pipeline driven through the API (of_run.h). Images stay in
 * VK_IMAGE_LAYOUT_GENERAL, the layout the pipeline's resource infos name; one
 * host-visible staging buffer carries the frames and hint in and the flow and
 * cost out, copied in the dispatch's own command buffer.
 */
#include "of_run.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "optical_flow.h" /* of_half_to_float, of_half_from_float */

enum { IMG_INPUT, IMG_REFERENCE, IMG_FLOW, IMG_COST, IMG_HINT, IMG_COUNT };

#define MAX_BIND_POINTS 4

struct of_run {
   struct graph_device gd;
   struct of_run_params p;
   uint32_t out_w, out_h;
   PFN_vkCreateDataGraphPipelinesARM create_pipelines;
   PFN_vkCreateDataGraphPipelineSessionARM create_session;
   PFN_vkDestroyDataGraphPipelineSessionARM destroy_session;
   PFN_vkGetDataGraphPipelineSessionBindPointRequirementsARM bind_point_reqs;
   PFN_vkGetDataGraphPipelineSessionMemoryRequirementsARM session_mem_reqs;
   PFN_vkBindDataGraphPipelineSessionMemoryARM bind_session_mem;
   PFN_vkCmdDispatchDataGraphARM dispatch;

   bool used[IMG_COUNT];
   VkImage images[IMG_COUNT];
   VkImageView views[IMG_COUNT];
   VkDeviceMemory image_memory[IMG_COUNT];
   VkExtent2D extent[IMG_COUNT];
   VkDeviceSize offset[IMG_COUNT]; /* in the staging buffer */
   VkDeviceSize texel[IMG_COUNT];  /* bytes per texel */
   bool pending[IMG_COUNT];        /* staged, to upload with the next dispatch */

   VkBuffer staging;
   VkDeviceMemory staging_memory;
   uint8_t *mapped;

   VkDescriptorSetLayout set_layout;
   VkPipelineLayout layout;
   VkDescriptorPool pool;
   VkDescriptorSet set;
   VkPipeline pipeline;
   VkDataGraphPipelineSessionARM session;
   VkDeviceMemory session_memory[MAX_BIND_POINTS];
   uint32_t session_memory_count;

   VkCommandPool cmd_pool;
   VkCommandBuffer cmd;
   VkFence fence;
   VkQueryPool queries; /* two timestamps, or VK_NULL_HANDLE */
   double timestamp_ns;
   uint64_t timestamp_mask;
   bool initialized; /* the images went from UNDEFINED to GENERAL */
};

static VkResult
fail(char *log, size_t log_len, VkResult r, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static VkResult
fail(char *log, size_t log_len, VkResult r, const char *fmt, ...)
{
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(log, log_len, fmt, ap);
   va_end(ap);
   if (n >= 0 && (size_t)n < log_len)
      snprintf(log + n, log_len - (size_t)n, " failed (VkResult %d)", (int)r);
   return r == VK_SUCCESS ? VK_ERROR_UNKNOWN : r;
}

VkResult
of_device_create(VkInstance instance, VkPhysicalDevice pd, struct graph_device *gd, bool *offered)
{
   *offered = graph_has_extension(pd, VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME);
   const char *ext = VK_ARM_DATA_GRAPH_OPTICAL_FLOW_EXTENSION_NAME;
   VkPhysicalDeviceDataGraphOpticalFlowFeaturesARM off = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DATA_GRAPH_OPTICAL_FLOW_FEATURES_ARM,
      .dataGraphOpticalFlow = VK_TRUE,
   };
   return graph_device_create_with(instance, pd, &ext, *offered ? 1 : 0, *offered ? &off : NULL,
                                   gd);
}

void
of_run_output_size(const struct of_run *r, uint32_t *w, uint32_t *h)
{
   *w = r->out_w;
   *h = r->out_h;
}

static VkResult
make_image(struct of_run *r, unsigned i, VkFormat format, uint32_t w, uint32_t h,
           VkDataGraphOpticalFlowImageUsageFlagsARM of_usage, VkImageUsageFlags transfer)
{
   VkDataGraphOpticalFlowImageFormatInfoARM of = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_OPTICAL_FLOW_IMAGE_FORMAT_INFO_ARM, .usage = of_usage};
   VkImageCreateInfo ici = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
      .pNext = &of,
      .imageType = VK_IMAGE_TYPE_2D,
      .format = format,
      .extent = {w, h, 1},
      .mipLevels = 1,
      .arrayLayers = 1,
      .samples = VK_SAMPLE_COUNT_1_BIT,
      .tiling = VK_IMAGE_TILING_OPTIMAL,
      .usage = VK_IMAGE_USAGE_STORAGE_BIT | transfer,
      .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
      .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED,
   };
   VkDevice dev = r->gd.device;
   VkResult res = vkCreateImage(dev, &ici, NULL, &r->images[i]);
   if (res != VK_SUCCESS)
      return res;
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(dev, r->images[i], &req);
   uint32_t type = graph_memory_type(r->gd.physical_device, req.memoryTypeBits,
                                     VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type == UINT32_MAX)
      type = graph_memory_type(r->gd.physical_device, req.memoryTypeBits, 0);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
   res = vkAllocateMemory(dev, &mai, NULL, &r->image_memory[i]);
   if (res == VK_SUCCESS)
      res = vkBindImageMemory(dev, r->images[i], r->image_memory[i], 0);
   VkImageViewCreateInfo vci = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
      .image = r->images[i],
      .viewType = VK_IMAGE_VIEW_TYPE_2D,
      .format = format,
      .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1},
   };
   if (res == VK_SUCCESS)
      res = vkCreateImageView(dev, &vci, NULL, &r->views[i]);
   r->used[i] = true;
   r->extent[i] = (VkExtent2D){w, h};
   return res;
}

static VkResult
make_images(struct of_run *r, char *log, size_t log_len)
{
   const struct of_run_params *p = &r->p;
   static const char *const names[IMG_COUNT] = {"input", "reference", "flow", "cost", "hint"};
   VkResult res = VK_SUCCESS;
   for (unsigned i = 0; i < IMG_COUNT && res == VK_SUCCESS; i++) {
      if ((i == IMG_COST && !p->cost) || (i == IMG_HINT && !p->hint))
         continue;
      bool frame = i == IMG_INPUT || i == IMG_REFERENCE;
      VkFormat format = frame ? p->image_format
                        : i == IMG_COST ? VK_FORMAT_R16_UINT
                                        : VK_FORMAT_R16G16_SFLOAT;
      VkDataGraphOpticalFlowImageUsageFlagsARM usage =
         frame ? VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_INPUT_BIT_ARM
         : i == IMG_FLOW ? VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_OUTPUT_BIT_ARM
         : i == IMG_COST ? VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_COST_BIT_ARM
                         : VK_DATA_GRAPH_OPTICAL_FLOW_IMAGE_USAGE_HINT_BIT_ARM;
      bool in = frame || i == IMG_HINT;
      res = make_image(r, i, format, frame ? p->width : r->out_w, frame ? p->height : r->out_h,
                       usage, in ? VK_IMAGE_USAGE_TRANSFER_DST_BIT : VK_IMAGE_USAGE_TRANSFER_SRC_BIT);
      r->texel[i] = frame ? (p->image_format == VK_FORMAT_R16_UNORM ? 2 : 1)
                    : i == IMG_COST ? 2
                                    : 4;
      if (res != VK_SUCCESS)
         return fail(log, log_len, res, "the %s image (%ux%u)", names[i], r->extent[i].width,
                     r->extent[i].height);
   }
   /* One staging buffer for all, each part 16-byte aligned. */
   VkDeviceSize size = 0;
   for (unsigned i = 0; i < IMG_COUNT; i++) {
      r->offset[i] = size;
      if (r->used[i])
         size += (r->texel[i] * r->extent[i].width * r->extent[i].height + 15) & ~(VkDeviceSize)15;
   }
   VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT};
   VkDevice dev = r->gd.device;
   res = vkCreateBuffer(dev, &bci, NULL, &r->staging);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "the staging buffer");
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev, r->staging, &req);
   VkMemoryAllocateInfo mai = {
      .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
      .allocationSize = req.size,
      .memoryTypeIndex = graph_memory_type(
         r->gd.physical_device, req.memoryTypeBits,
         VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)};
   res = vkAllocateMemory(dev, &mai, NULL, &r->staging_memory);
   if (res == VK_SUCCESS)
      res = vkBindBufferMemory(dev, r->staging, r->staging_memory, 0);
   if (res == VK_SUCCESS)
      res = vkMapMemory(dev, r->staging_memory, 0, VK_WHOLE_SIZE, 0, (void **)&r->mapped);
   return res == VK_SUCCESS ? res : fail(log, log_len, res, "the staging memory");
}

static VkResult
make_pipeline(struct of_run *r, char *log, size_t log_len)
{
   static const VkDataGraphPipelineNodeConnectionTypeARM connection[IMG_COUNT] = {
      VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_INPUT_ARM,
      VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_REFERENCE_ARM,
      VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_FLOW_VECTOR_ARM,
      VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_COST_ARM,
      VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_HINT_ARM,
   };
   VkDevice dev = r->gd.device;
   VkDescriptorSetLayoutBinding bindings[IMG_COUNT];
   VkDataGraphPipelineSingleNodeConnectionARM conns[IMG_COUNT];
   VkDataGraphPipelineResourceInfoImageLayoutARM layouts[IMG_COUNT];
   VkDataGraphPipelineResourceInfoARM resources[IMG_COUNT];
   uint32_t n = 0;
   for (uint32_t i = 0; i < IMG_COUNT; i++) {
      if (!r->used[i])
         continue;
      bindings[n] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1,
                                                   VK_SHADER_STAGE_ALL, NULL};
      conns[n] = (VkDataGraphPipelineSingleNodeConnectionARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM,
         .set = 0,
         .binding = i,
         .connection = connection[i]};
      layouts[n] = (VkDataGraphPipelineResourceInfoImageLayoutARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM,
         .layout = VK_IMAGE_LAYOUT_GENERAL};
      resources[n] = (VkDataGraphPipelineResourceInfoARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
         .pNext = &layouts[n],
         .descriptorSet = 0,
         .binding = i};
      n++;
   }
   VkDescriptorSetLayoutCreateInfo slci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .bindingCount = n,
      .pBindings = bindings};
   VkResult res = vkCreateDescriptorSetLayout(dev, &slci, NULL, &r->set_layout);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "the descriptor set layout");
   VkPipelineLayoutCreateInfo plci = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                      .setLayoutCount = 1,
                                      .pSetLayouts = &r->set_layout};
   res = vkCreatePipelineLayout(dev, &plci, NULL, &r->layout);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "the pipeline layout");

   const struct of_run_params *p = &r->p;
   VkDataGraphOpticalFlowGridSizeFlagsARM grid = p->grid; /* the bit is the grid: 1, 2, 4, 8 */
   VkDataGraphPipelineOpticalFlowCreateInfoARM ofci = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM,
      .width = p->width,
      .height = p->height,
      .imageFormat = p->image_format,
      .flowVectorFormat = VK_FORMAT_R16G16_SFLOAT,
      .costFormat = p->cost ? VK_FORMAT_R16_UINT : VK_FORMAT_UNDEFINED,
      .outputGridSize = grid,
      .hintGridSize = p->hint ? grid : 0,
      .performanceLevel = p->level,
      .flags = (p->hint ? VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM : 0) |
               (p->cost ? VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM : 0),
   };
   VkDataGraphPipelineSingleNodeCreateInfoARM snci = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM,
      .pNext = &ofci,
      .nodeType = VK_DATA_GRAPH_PIPELINE_NODE_TYPE_OPTICAL_FLOW_ARM,
      .connectionCount = n,
      .pConnections = conns};
   VkDataGraphPipelineCreateInfoARM ci = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
      .pNext = &snci,
      .layout = r->layout,
      .resourceInfoCount = n,
      .pResourceInfos = resources};
   res = r->create_pipelines(dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &ci, NULL, &r->pipeline);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res,
                  "vkCreateDataGraphPipelinesARM with an optical-flow node (%ux%u, grid %u)",
                  p->width, p->height, p->grid);

   VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, n};
   VkDescriptorPoolCreateInfo dpci = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                      .maxSets = 1,
                                      .poolSizeCount = 1,
                                      .pPoolSizes = &size};
   res = vkCreateDescriptorPool(dev, &dpci, NULL, &r->pool);
   VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                     .descriptorPool = r->pool,
                                     .descriptorSetCount = 1,
                                     .pSetLayouts = &r->set_layout};
   if (res == VK_SUCCESS)
      res = vkAllocateDescriptorSets(dev, &ai, &r->set);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "the descriptor set");
   for (uint32_t i = 0; i < IMG_COUNT; i++) {
      if (!r->used[i])
         continue;
      VkDescriptorImageInfo ii = {.imageView = r->views[i], .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
      VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                .dstSet = r->set,
                                .dstBinding = i,
                                .descriptorCount = 1,
                                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                                .pImageInfo = &ii};
      vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
   }
   return VK_SUCCESS;
}

static VkResult
make_session(struct of_run *r, char *log, size_t log_len)
{
   VkDevice dev = r->gd.device;
   VkDataGraphPipelineSessionCreateInfoARM sci = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
      .flags = r->p.cache ? VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM : 0,
      .dataGraphPipeline = r->pipeline};
   VkResult res = r->create_session(dev, &sci, NULL, &r->session);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "vkCreateDataGraphPipelineSessionARM");
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
      .session = r->session};
   VkDataGraphPipelineSessionBindPointRequirementARM reqs[MAX_BIND_POINTS];
   for (uint32_t i = 0; i < MAX_BIND_POINTS; i++)
      reqs[i] = (VkDataGraphPipelineSessionBindPointRequirementARM){
         .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM};
   uint32_t count = MAX_BIND_POINTS;
   res = r->bind_point_reqs(dev, &bri, &count, reqs);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "vkGetDataGraphPipelineSessionBindPointRequirementsARM");
   /* Every bind point (transient, and the optical-flow cache when asked), every object. */
   for (uint32_t i = 0; i < count; i++) {
      for (uint32_t obj = 0; obj < reqs[i].numObjects; obj++) {
         if (r->session_memory_count == MAX_BIND_POINTS)
            return fail(log, log_len, VK_ERROR_UNKNOWN, "more than %u session objects",
                        MAX_BIND_POINTS);
         VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
            .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
            .session = r->session,
            .bindPoint = reqs[i].bindPoint,
            .objectIndex = obj};
         VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
         r->session_mem_reqs(dev, &mri, &req);
         uint32_t type = graph_memory_type(r->gd.physical_device,
                                           req.memoryRequirements.memoryTypeBits,
                                           VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
         if (type == UINT32_MAX)
            type = graph_memory_type(r->gd.physical_device,
                                     req.memoryRequirements.memoryTypeBits, 0);
         VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                     .allocationSize = req.memoryRequirements.size,
                                     .memoryTypeIndex = type};
         VkDeviceMemory *mem = &r->session_memory[r->session_memory_count++];
         res = vkAllocateMemory(dev, &mai, NULL, mem);
         VkBindDataGraphPipelineSessionMemoryInfoARM bi = {
            .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
            .session = r->session,
            .bindPoint = reqs[i].bindPoint,
            .objectIndex = obj,
            .memory = *mem};
         if (res == VK_SUCCESS)
            res = r->bind_session_mem(dev, 1, &bi);
         if (res != VK_SUCCESS)
            return fail(log, log_len, res, "session memory for bind point %d",
                        (int)reqs[i].bindPoint);
      }
   }
   return VK_SUCCESS;
}

static VkResult
make_commands(struct of_run *r, char *log, size_t log_len)
{
   VkDevice dev = r->gd.device;
   VkCommandPoolCreateInfo cpci = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                   .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                   .queueFamilyIndex = r->gd.queue_family};
   VkResult res = vkCreateCommandPool(dev, &cpci, NULL, &r->cmd_pool);
   VkCommandBufferAllocateInfo cbai = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
                                       .commandPool = r->cmd_pool,
                                       .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                                       .commandBufferCount = 1};
   if (res == VK_SUCCESS)
      res = vkAllocateCommandBuffers(dev, &cbai, &r->cmd);
   VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
   if (res == VK_SUCCESS)
      res = vkCreateFence(dev, &fci, NULL, &r->fence);
   if (res != VK_SUCCESS)
      return fail(log, log_len, res, "command buffer and fence");
   uint32_t n = 0;
   vkGetPhysicalDeviceQueueFamilyProperties(r->gd.physical_device, &n, NULL);
   VkQueueFamilyProperties fams[16];
   n = n > 16 ? 16 : n;
   vkGetPhysicalDeviceQueueFamilyProperties(r->gd.physical_device, &n, fams);
   uint32_t bits = r->gd.queue_family < n ? fams[r->gd.queue_family].timestampValidBits : 0;
   VkPhysicalDeviceProperties props;
   vkGetPhysicalDeviceProperties(r->gd.physical_device, &props);
   if (bits) {
      VkQueryPoolCreateInfo qci = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                   .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                   .queryCount = 2};
      if (vkCreateQueryPool(dev, &qci, NULL, &r->queries) != VK_SUCCESS)
         r->queries = VK_NULL_HANDLE;
      r->timestamp_ns = props.limits.timestampPeriod;
      r->timestamp_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
   }
   return VK_SUCCESS;
}

VkResult
of_run_create(const struct graph_device *gd, const struct of_run_params *p, struct of_run **out,
              char *log, size_t log_len)
{
   *out = NULL;
   if (p->grid != 1 && p->grid != 2 && p->grid != 4 && p->grid != 8)
      return fail(log, log_len, VK_ERROR_INITIALIZATION_FAILED, "grid %u (want 1, 2, 4 or 8)",
                  p->grid);
   struct of_run *r = calloc(1, sizeof(*r));
   if (!r)
      return fail(log, log_len, VK_ERROR_OUT_OF_HOST_MEMORY, "allocation");
   r->gd = *gd;
   r->p = *p;
   r->out_w = (p->width + p->grid - 1) / p->grid;
   r->out_h = (p->height + p->grid - 1) / p->grid;
#define LOAD(field, name) r->field = (PFN_##name)vkGetDeviceProcAddr(gd->device, #name)
   LOAD(create_pipelines, vkCreateDataGraphPipelinesARM);
   LOAD(create_session, vkCreateDataGraphPipelineSessionARM);
   LOAD(destroy_session, vkDestroyDataGraphPipelineSessionARM);
   LOAD(bind_point_reqs, vkGetDataGraphPipelineSessionBindPointRequirementsARM);
   LOAD(session_mem_reqs, vkGetDataGraphPipelineSessionMemoryRequirementsARM);
   LOAD(bind_session_mem, vkBindDataGraphPipelineSessionMemoryARM);
   LOAD(dispatch, vkCmdDispatchDataGraphARM);
#undef LOAD
   VkResult res = VK_SUCCESS;
   if (!r->create_pipelines || !r->create_session || !r->destroy_session || !r->bind_point_reqs ||
       !r->session_mem_reqs || !r->bind_session_mem || !r->dispatch)
      res = fail(log, log_len, VK_ERROR_EXTENSION_NOT_PRESENT, "loading the data-graph commands");
   if (res == VK_SUCCESS)
      res = make_images(r, log, log_len);
   if (res == VK_SUCCESS)
      res = make_pipeline(r, log, log_len);
   if (res == VK_SUCCESS)
      res = make_session(r, log, log_len);
   if (res == VK_SUCCESS)
      res = make_commands(r, log, log_len);
   if (res != VK_SUCCESS) {
      of_run_destroy(r);
      return res;
   }
   *out = r;
   return VK_SUCCESS;
}

void
of_run_destroy(struct of_run *r)
{
   if (!r)
      return;
   VkDevice dev = r->gd.device;
   vkDeviceWaitIdle(dev);
   if (r->queries)
      vkDestroyQueryPool(dev, r->queries, NULL);
   if (r->fence)
      vkDestroyFence(dev, r->fence, NULL);
   if (r->cmd_pool)
      vkDestroyCommandPool(dev, r->cmd_pool, NULL);
   if (r->session)
      r->destroy_session(dev, r->session, NULL);
   for (uint32_t i = 0; i < r->session_memory_count; i++)
      vkFreeMemory(dev, r->session_memory[i], NULL);
   if (r->pipeline)
      vkDestroyPipeline(dev, r->pipeline, NULL);
   if (r->pool)
      vkDestroyDescriptorPool(dev, r->pool, NULL);
   if (r->layout)
      vkDestroyPipelineLayout(dev, r->layout, NULL);
   if (r->set_layout)
      vkDestroyDescriptorSetLayout(dev, r->set_layout, NULL);
   if (r->staging)
      vkDestroyBuffer(dev, r->staging, NULL);
   if (r->staging_memory)
      vkFreeMemory(dev, r->staging_memory, NULL);
   for (unsigned i = 0; i < IMG_COUNT; i++) {
      if (r->views[i])
         vkDestroyImageView(dev, r->views[i], NULL);
      if (r->images[i])
         vkDestroyImage(dev, r->images[i], NULL);
      if (r->image_memory[i])
         vkFreeMemory(dev, r->image_memory[i], NULL);
   }
   free(r);
}

static void
stage(struct of_run *r, unsigned i, const void *data)
{
   if (!data || !r->used[i])
      return;
   memcpy(r->mapped + r->offset[i], data, r->texel[i] * r->extent[i].width * r->extent[i].height);
   r->pending[i] = true;
}

void
of_run_set_frames(struct of_run *r, const uint8_t *input, const uint8_t *reference)
{
   if (r->p.image_format != VK_FORMAT_R8_UNORM) {
      /* 16-bit frames: the 8-bit values in the top byte. */
      static const unsigned which[2] = {IMG_INPUT, IMG_REFERENCE};
      const uint8_t *src[2] = {input, reference};
      for (unsigned k = 0; k < 2; k++) {
         if (!src[k])
            continue;
         uint16_t *dst = (uint16_t *)(r->mapped + r->offset[which[k]]);
         for (size_t i = 0; i < (size_t)r->p.width * r->p.height; i++)
            dst[i] = (uint16_t)(src[k][i] * 257u);
         r->pending[which[k]] = true;
      }
      return;
   }
   stage(r, IMG_INPUT, input);
   stage(r, IMG_REFERENCE, reference);
}

void
of_run_set_hint(struct of_run *r, const float *hint)
{
   if (!hint || !r->used[IMG_HINT])
      return;
   uint16_t *dst = (uint16_t *)(r->mapped + r->offset[IMG_HINT]);
   for (size_t i = 0; i < 2 * (size_t)r->out_w * r->out_h; i++)
      dst[i] = of_half_from_float(hint[i]);
   r->pending[IMG_HINT] = true;
}

static void
copy_region(const struct of_run *r, unsigned i, VkBufferImageCopy *c)
{
   *c = (VkBufferImageCopy){
      .bufferOffset = r->offset[i],
      .imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
      .imageExtent = {r->extent[i].width, r->extent[i].height, 1},
   };
}

static void
barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src, VkAccessFlags2 src_access,
        VkPipelineStageFlags2 dst, VkAccessFlags2 dst_access)
{
   VkMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                         .srcStageMask = src,
                         .srcAccessMask = src_access,
                         .dstStageMask = dst,
                         .dstAccessMask = dst_access};
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                           .memoryBarrierCount = 1,
                           .pMemoryBarriers = &b};
   vkCmdPipelineBarrier2(cmd, &dep);
}

static void
record(struct of_run *r, VkDataGraphOpticalFlowExecuteFlagsARM flags)
{
   VkCommandBuffer cmd = r->cmd;
   if (!r->initialized) {
      VkImageMemoryBarrier2 to_general[IMG_COUNT];
      uint32_t n = 0;
      for (unsigned i = 0; i < IMG_COUNT; i++) {
         if (r->used[i])
            to_general[n++] = (VkImageMemoryBarrier2){
               .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
               .srcStageMask = VK_PIPELINE_STAGE_2_NONE,
               .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
               .dstAccessMask = VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
               .newLayout = VK_IMAGE_LAYOUT_GENERAL,
               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
               .image = r->images[i],
               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
      }
      VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                              .imageMemoryBarrierCount = n,
                              .pImageMemoryBarriers = to_general};
      vkCmdPipelineBarrier2(cmd, &dep);
      r->initialized = true;
   }
   barrier(cmd, VK_PIPELINE_STAGE_2_HOST_BIT | VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
           VK_ACCESS_2_HOST_WRITE_BIT | VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM,
           VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
   for (unsigned i = 0; i < IMG_COUNT; i++) {
      if (!r->pending[i])
         continue;
      VkBufferImageCopy c;
      copy_region(r, i, &c);
      vkCmdCopyBufferToImage(cmd, r->staging, r->images[i], VK_IMAGE_LAYOUT_GENERAL, 1, &c);
      r->pending[i] = false;
   }
   barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT |
           VK_ACCESS_2_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
           VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, r->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, r->layout, 0, 1, &r->set,
                           0, NULL);
   if (r->queries) {
      vkCmdResetQueryPool(cmd, r->queries, 0, 2);
      vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 0);
   }
   VkDataGraphPipelineOpticalFlowDispatchInfoARM ofdi = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_DISPATCH_INFO_ARM,
      .flags = flags};
   VkDataGraphPipelineDispatchInfoARM di = {
      .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_DISPATCH_INFO_ARM, .pNext = &ofdi};
   r->dispatch(cmd, r->session, &di);
   if (r->queries)
      vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, r->queries, 1);
   barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
           VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
   static const unsigned outs[] = {IMG_FLOW, IMG_COST};
   for (unsigned k = 0; k < 2; k++) {
      if (!r->used[outs[k]])
         continue;
      VkBufferImageCopy c;
      copy_region(r, outs[k], &c);
      vkCmdCopyImageToBuffer(cmd, r->images[outs[k]], VK_IMAGE_LAYOUT_GENERAL, r->staging, 1, &c);
   }
   barrier(cmd, VK_PIPELINE_STAGE_2_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
           VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
}

VkResult
of_run_dispatch(struct of_run *r, VkDataGraphOpticalFlowExecuteFlagsARM flags, double *wall_ms,
                double *gpu_ms)
{
   VkDevice dev = r->gd.device;
   VkResult res = vkResetCommandBuffer(r->cmd, 0);
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   if (res == VK_SUCCESS)
      res = vkBeginCommandBuffer(r->cmd, &bi);
   if (res != VK_SUCCESS)
      return res;
   record(r, flags);
   res = vkEndCommandBuffer(r->cmd);
   if (res != VK_SUCCESS)
      return res;
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = r->cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   double t0 = graph_now_ms();
   res = vkQueueSubmit2(r->gd.queue, 1, &si, r->fence);
   if (res == VK_SUCCESS)
      res = vkWaitForFences(dev, 1, &r->fence, VK_TRUE, UINT64_MAX);
   double t1 = graph_now_ms();
   if (res == VK_SUCCESS)
      res = vkResetFences(dev, 1, &r->fence);
   if (res != VK_SUCCESS)
      return res;
   if (wall_ms)
      *wall_ms = t1 - t0;
   if (gpu_ms) {
      uint64_t ts[2];
      *gpu_ms = NAN;
      if (r->queries &&
          vkGetQueryPoolResults(dev, r->queries, 0, 2, sizeof(ts), ts, sizeof(ts[0]),
                                VK_QUERY_RESULT_64_BIT) == VK_SUCCESS)
         *gpu_ms = (double)((ts[1] - ts[0]) & r->timestamp_mask) * r->timestamp_ns * 1e-6;
   }
   return VK_SUCCESS;
}

void
of_run_read(const struct of_run *r, float *flow, uint16_t *cost)
{
   size_t n = (size_t)r->out_w * r->out_h;
   const uint16_t *f = (const uint16_t *)(r->mapped + r->offset[IMG_FLOW]);
   for (size_t i = 0; flow && i < 2 * n; i++)
      flow[i] = of_half_to_float(f[i]);
   if (cost && r->used[IMG_COST])
      memcpy(cost, r->mapped + r->offset[IMG_COST], n * sizeof(uint16_t));
}
