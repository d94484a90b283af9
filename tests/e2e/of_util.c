/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The application's side of VK_ARM_data_graph_optical_flow for the e2e tests (of_util.h).
 */
#include "of_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "optical_flow.h"

#include "test.h"

bool
ofu_init(struct ofu *o, bool optical_flow)
{
   memset(o, 0, sizeof(*o));
   struct dgu_options opt = {.optical_flow = optical_flow};
   if (!dgu_init(&o->u, &opt))
      return false;
   VkDescriptorSetLayoutBinding b[OFU_BINDINGS];
   for (uint32_t i = 0; i < OFU_BINDINGS; i++)
      b[i] = (VkDescriptorSetLayoutBinding){i, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 1,
                                            VK_SHADER_STAGE_ALL, NULL};
   VkDescriptorSetLayoutCreateInfo sli = {.sType =
                                              VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
                                          .bindingCount = OFU_BINDINGS,
                                          .pBindings = b};
   VkResult r = vkCreateDescriptorSetLayout(o->u.device, &sli, NULL, &o->set_layout);
   VkPipelineLayoutCreateInfo pli = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .setLayoutCount = 1,
                                     .pSetLayouts = &o->set_layout};
   if (r == VK_SUCCESS)
      r = vkCreatePipelineLayout(o->u.device, &pli, NULL, &o->layout);
   VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 64 * OFU_BINDINGS};
   VkDescriptorPoolCreateInfo dpi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT,
                                     .maxSets = 64,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &ps};
   if (r == VK_SUCCESS)
      r = vkCreateDescriptorPool(o->u.device, &dpi, NULL, &o->pool);
   return ok(r == VK_SUCCESS, "optical-flow set layout, pipeline layout, pool: %d", r);
}

void
ofu_finish(struct ofu *o)
{
   if (o->u.device) {
      vkDestroyDescriptorPool(o->u.device, o->pool, NULL);
      vkDestroyPipelineLayout(o->u.device, o->layout, NULL);
      vkDestroyDescriptorSetLayout(o->u.device, o->set_layout, NULL);
   }
   dgu_finish(&o->u);
}

static VkDataGraphOpticalFlowGridSizeFlagsARM
grid_bit(uint32_t pixels)
{
   return pixels == 1 ? 1u : pixels == 2 ? 2u : pixels == 4 ? 4u : pixels == 8 ? 8u : 0u;
}

VkResult
ofu_pipeline(struct ofu *o, const struct ofu_config *c, VkPipeline *pipeline)
{
   VkDataGraphPipelineSingleNodeConnectionARM conn[5];
   uint32_t n = 0;
   static const struct {
      uint32_t binding;
      VkDataGraphPipelineNodeConnectionTypeARM type;
   } all[5] = {
       {OFU_INPUT, VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_INPUT_ARM},
       {OFU_REFERENCE, VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_REFERENCE_ARM},
       {OFU_FLOW, VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_FLOW_VECTOR_ARM},
       {OFU_HINT, VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_HINT_ARM},
       {OFU_COST, VK_DATA_GRAPH_PIPELINE_NODE_CONNECTION_TYPE_OPTICAL_FLOW_COST_ARM},
   };
   for (uint32_t i = 0; i < 5; i++) {
      if ((all[i].binding == OFU_HINT && !c->hint_grid) || (all[i].binding == OFU_COST && !c->cost))
         continue;
      conn[n++] = (VkDataGraphPipelineSingleNodeConnectionARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CONNECTION_ARM,
          .set = 0,
          .binding = all[i].binding,
          .connection = all[i].type};
   }
   VkDataGraphPipelineOpticalFlowCreateInfoARM of = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_CREATE_INFO_ARM,
       .width = c->width,
       .height = c->height,
       .imageFormat = c->image_format,
       .flowVectorFormat = VK_FORMAT_R16G16_SFLOAT,
       .costFormat = c->cost ? VK_FORMAT_R16_UINT : VK_FORMAT_UNDEFINED,
       .outputGridSize = grid_bit(c->grid),
       .hintGridSize = grid_bit(c->hint_grid),
       .performanceLevel = (VkDataGraphOpticalFlowPerformanceLevelARM)c->perf,
       .flags = (c->hint_grid ? VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_HINT_BIT_ARM : 0) |
                (c->cost ? VK_DATA_GRAPH_OPTICAL_FLOW_CREATE_ENABLE_COST_BIT_ARM : 0),
   };
   VkDataGraphPipelineSingleNodeCreateInfoARM node = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SINGLE_NODE_CREATE_INFO_ARM,
       .pNext = &of,
       .nodeType = VK_DATA_GRAPH_PIPELINE_NODE_TYPE_OPTICAL_FLOW_ARM,
       .connectionCount = n,
       .pConnections = conn};
   VkDataGraphPipelineResourceInfoImageLayoutARM layouts[5];
   VkDataGraphPipelineResourceInfoARM res[5];
   for (uint32_t i = 0; i < n; i++) {
      layouts[i] = (VkDataGraphPipelineResourceInfoImageLayoutARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_IMAGE_LAYOUT_ARM,
          .layout = VK_IMAGE_LAYOUT_GENERAL};
      res[i] = (VkDataGraphPipelineResourceInfoARM){
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_RESOURCE_INFO_ARM,
          .pNext = &layouts[i],
          .descriptorSet = 0,
          .binding = conn[i].binding};
   }
   VkDataGraphPipelineCreateInfoARM info = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_CREATE_INFO_ARM,
       .pNext = &node,
       .layout = o->layout,
       .resourceInfoCount = n,
       .pResourceInfos = res};
   return o->u.fn.CreateDataGraphPipelinesARM(o->u.device, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &info,
                                              NULL, pipeline);
}

static uint32_t
texel_size(VkFormat f)
{
   switch (f) {
   case VK_FORMAT_R8_UNORM:
      return 1;
   case VK_FORMAT_R16_UNORM:
   case VK_FORMAT_R16_UINT:
      return 2;
   default:
      return 4;
   }
}

bool
ofu_image_create(struct ofu *o, VkFormat format, uint32_t w, uint32_t h, struct ofu_image *img)
{
   VkDevice d = o->u.device;
   memset(img, 0, sizeof(*img));
   img->format = format;
   img->w = w;
   img->h = h;
   img->texel = texel_size(format);
   VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                            .imageType = VK_IMAGE_TYPE_2D,
                            .format = format,
                            .extent = {w, h, 1},
                            .mipLevels = 1,
                            .arrayLayers = 1,
                            .samples = VK_SAMPLE_COUNT_1_BIT,
                            .tiling = VK_IMAGE_TILING_OPTIMAL,
                            .usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                            .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED};
   VkResult r = vkCreateImage(d, &ici, NULL, &img->image);
   if (r != VK_SUCCESS)
      return ok(false, "vkCreateImage: %d", r);
   VkMemoryRequirements req;
   vkGetImageMemoryRequirements(d, img->image, &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = vku_memory_type(&o->u.v, req.memoryTypeBits, 0)};
   r = vkAllocateMemory(d, &mai, NULL, &img->memory);
   if (r == VK_SUCCESS)
      r = vkBindImageMemory(d, img->image, img->memory, 0);
   VkImageViewCreateInfo vci = {.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO,
                                .image = img->image,
                                .viewType = VK_IMAGE_VIEW_TYPE_2D,
                                .format = format,
                                .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
   if (r == VK_SUCCESS)
      r = vkCreateImageView(d, &vci, NULL, &img->view);
   if (r != VK_SUCCESS)
      return ok(false, "image memory and view: %d", r);
   /* UNDEFINED -> GENERAL once */
   VkCommandBuffer cmd = dgu_begin(&o->u);
   VkImageMemoryBarrier2 ib = {.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER_2,
                               .dstStageMask = VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
                               .dstAccessMask =
                                   VK_ACCESS_2_MEMORY_READ_BIT | VK_ACCESS_2_MEMORY_WRITE_BIT,
                               .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED,
                               .newLayout = VK_IMAGE_LAYOUT_GENERAL,
                               .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
                               .image = img->image,
                               .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1}};
   VkDependencyInfo dep = {.sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO,
                           .imageMemoryBarrierCount = 1,
                           .pImageMemoryBarriers = &ib};
   vkCmdPipelineBarrier2(cmd, &dep);
   bool done = dgu_submit_wait(&o->u, cmd);
   dgu_free_cmd(&o->u, cmd);
   return done;
}

void
ofu_image_destroy(struct ofu *o, struct ofu_image *img)
{
   vkDestroyImageView(o->u.device, img->view, NULL);
   vkDestroyImage(o->u.device, img->image, NULL);
   vkFreeMemory(o->u.device, img->memory, NULL);
   memset(img, 0, sizeof(*img));
}

/* A host-visible staging buffer of the image's bytes, copied to (write) or from it. */
static bool
image_copy(struct ofu *o, struct ofu_image *img, void *data, bool write)
{
   VkDevice d = o->u.device;
   VkDeviceSize size = (VkDeviceSize)img->w * img->h * img->texel;
   VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT};
   VkBuffer buf;
   VkDeviceMemory mem;
   void *map;
   if (vkCreateBuffer(d, &bci, NULL, &buf) != VK_SUCCESS)
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(d, buf, &req);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex =
                                   vku_host_memory_type(&o->u.v, req.memoryTypeBits)};
   vkAllocateMemory(d, &mai, NULL, &mem);
   vkBindBufferMemory(d, buf, mem, 0);
   vkMapMemory(d, mem, 0, VK_WHOLE_SIZE, 0, &map);
   if (write)
      memcpy(map, data, size);
   VkCommandBuffer cmd = dgu_begin(&o->u);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
               VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
               VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT);
   VkBufferImageCopy region = {.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1},
                               .imageExtent = {img->w, img->h, 1}};
   if (write)
      vkCmdCopyBufferToImage(cmd, buf, img->image, VK_IMAGE_LAYOUT_GENERAL, 1, &region);
   else
      vkCmdCopyImageToBuffer(cmd, img->image, VK_IMAGE_LAYOUT_GENERAL, buf, 1, &region);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT,
               VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT | VK_PIPELINE_STAGE_2_HOST_BIT,
               VK_ACCESS_2_MEMORY_WRITE_BIT | VK_ACCESS_2_MEMORY_READ_BIT |
                   VK_ACCESS_2_HOST_READ_BIT);
   bool done = dgu_submit_wait(&o->u, cmd);
   dgu_free_cmd(&o->u, cmd);
   if (!write)
      memcpy(data, map, size);
   vkUnmapMemory(d, mem);
   vkDestroyBuffer(d, buf, NULL);
   vkFreeMemory(d, mem, NULL);
   return done;
}

bool
ofu_image_write(struct ofu *o, struct ofu_image *img, const void *data)
{
   return image_copy(o, img, (void *)data, true);
}

bool
ofu_image_read(struct ofu *o, struct ofu_image *img, void *data)
{
   return image_copy(o, img, data, false);
}

static void
write_image(struct ofu *o, VkDescriptorSet set, uint32_t binding, const struct ofu_image *img)
{
   VkDescriptorImageInfo ii = {.imageView = img->view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL};
   VkWriteDescriptorSet w = {.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                             .dstSet = set,
                             .dstBinding = binding,
                             .descriptorCount = 1,
                             .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,
                             .pImageInfo = &ii};
   vkUpdateDescriptorSets(o->u.device, 1, &w, 0, NULL);
}

bool
ofu_run_create(struct ofu *o, const struct ofu_config *c, bool cache, struct ofu_run *r)
{
   memset(r, 0, sizeof(*r));
   r->c = *c;
   VkDevice d = o->u.device;
   VkResult res = ofu_pipeline(o, c, &r->pipeline);
   if (!ok(res == VK_SUCCESS, "optical-flow pipeline %ux%u grid %u perf %u: %d", c->width,
           c->height, c->grid, c->perf, res))
      return false;
   VkDataGraphPipelineSessionCreateInfoARM sci = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_CREATE_INFO_ARM,
       .flags = cache ? VK_DATA_GRAPH_PIPELINE_SESSION_CREATE_OPTICAL_FLOW_CACHE_BIT_ARM : 0,
       .dataGraphPipeline = r->pipeline};
   res = o->u.fn.CreateDataGraphPipelineSessionARM(d, &sci, NULL, &r->session);
   if (!ok(res == VK_SUCCESS, "session: %d", res))
      return false;
   VkDataGraphPipelineSessionBindPointRequirementsInfoARM bri = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENTS_INFO_ARM,
       .session = r->session};
   VkDataGraphPipelineSessionBindPointRequirementARM req[2] = {
       {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM},
       {.sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_BIND_POINT_REQUIREMENT_ARM}};
   uint32_t n = 2;
   o->u.fn.GetDataGraphPipelineSessionBindPointRequirementsARM(d, &bri, &n, req);
   ok(n == (cache ? 2u : 1u), "%u bind points (%s OPTICAL_FLOW_CACHE)", n,
      cache ? "with" : "without");
   for (uint32_t i = 0; i < n; i++) {
      VkDataGraphPipelineSessionMemoryRequirementsInfoARM mri = {
          .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_SESSION_MEMORY_REQUIREMENTS_INFO_ARM,
          .session = r->session,
          .bindPoint = req[i].bindPoint};
      VkMemoryRequirements2 mr = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
      o->u.fn.GetDataGraphPipelineSessionMemoryRequirementsARM(d, &mri, &mr);
      VkMemoryAllocateInfo mai = {
          .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
          .allocationSize = mr.memoryRequirements.size,
          .memoryTypeIndex = vku_memory_type(&o->u.v, mr.memoryRequirements.memoryTypeBits, 0)};
      res = vkAllocateMemory(d, &mai, NULL, &r->memory[i]);
      VkBindDataGraphPipelineSessionMemoryInfoARM bind = {
          .sType = VK_STRUCTURE_TYPE_BIND_DATA_GRAPH_PIPELINE_SESSION_MEMORY_INFO_ARM,
          .session = r->session,
          .bindPoint = req[i].bindPoint,
          .memory = r->memory[i]};
      if (res == VK_SUCCESS)
         res = o->u.fn.BindDataGraphPipelineSessionMemoryARM(d, 1, &bind);
      if (!ok(res == VK_SUCCESS && mr.memoryRequirements.size, "bind point %d memory: %d",
              (int)req[i].bindPoint, res))
         return false;
   }
   bool made = ofu_image_create(o, c->image_format, c->width, c->height, &r->in) &&
               ofu_image_create(o, c->image_format, c->width, c->height, &r->ref) &&
               ofu_image_create(o, VK_FORMAT_R16G16_SFLOAT, (c->width + c->grid - 1) / c->grid,
                                (c->height + c->grid - 1) / c->grid, &r->flow);
   if (made && c->hint_grid)
      made =
          ofu_image_create(o, VK_FORMAT_R16G16_SFLOAT, (c->width + c->hint_grid - 1) / c->hint_grid,
                           (c->height + c->hint_grid - 1) / c->hint_grid, &r->hint);
   if (made && c->cost)
      made = ofu_image_create(o, VK_FORMAT_R16_UINT, (c->width + c->grid - 1) / c->grid,
                              (c->height + c->grid - 1) / c->grid, &r->cost);
   if (!made)
      return false;
   VkDescriptorSetAllocateInfo dsai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                       .descriptorPool = o->pool,
                                       .descriptorSetCount = 1,
                                       .pSetLayouts = &o->set_layout};
   if (!ok(vkAllocateDescriptorSets(d, &dsai, &r->set) == VK_SUCCESS, "descriptor set"))
      return false;
   write_image(o, r->set, OFU_INPUT, &r->in);
   write_image(o, r->set, OFU_REFERENCE, &r->ref);
   write_image(o, r->set, OFU_FLOW, &r->flow);
   if (c->hint_grid)
      write_image(o, r->set, OFU_HINT, &r->hint);
   if (c->cost)
      write_image(o, r->set, OFU_COST, &r->cost);
   return true;
}

void
ofu_run_destroy(struct ofu *o, struct ofu_run *r)
{
   VkDevice d = o->u.device;
   struct ofu_image *imgs[] = {&r->in, &r->ref, &r->flow, &r->hint, &r->cost};
   for (uint32_t i = 0; i < 5; i++)
      if (imgs[i]->image)
         ofu_image_destroy(o, imgs[i]);
   if (r->set)
      vkFreeDescriptorSets(d, o->pool, 1, &r->set);
   if (r->session)
      o->u.fn.DestroyDataGraphPipelineSessionARM(d, r->session, NULL);
   for (uint32_t i = 0; i < 2; i++)
      vkFreeMemory(d, r->memory[i], NULL);
   vkDestroyPipeline(d, r->pipeline, NULL);
   memset(r, 0, sizeof(*r));
}

void
ofu_record(struct ofu *o, struct ofu_run *r, VkCommandBuffer cmd, uint32_t flags)
{
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_WRITE_BIT,
               VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
               VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM);
   vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, r->pipeline);
   vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_DATA_GRAPH_ARM, o->layout, 0, 1, &r->set, 0,
                           NULL);
   VkDataGraphPipelineOpticalFlowDispatchInfoARM odi = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_OPTICAL_FLOW_DISPATCH_INFO_ARM,
       .flags = flags};
   VkDataGraphPipelineDispatchInfoARM di = {
       .sType = VK_STRUCTURE_TYPE_DATA_GRAPH_PIPELINE_DISPATCH_INFO_ARM, .pNext = &odi};
   o->u.fn.CmdDispatchDataGraphARM(cmd, r->session, &di);
   dgu_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
               VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, VK_ACCESS_2_MEMORY_READ_BIT);
}

bool
ofu_dispatch(struct ofu *o, struct ofu_run *r, uint32_t flags)
{
   VkCommandBuffer cmd = dgu_begin(&o->u);
   ofu_record(o, r, cmd, flags);
   bool done = dgu_submit_wait(&o->u, cmd);
   dgu_free_cmd(&o->u, cmd);
   return ok(done, "optical-flow dispatch submitted");
}

bool
ofu_check_flow(const char *what, const uint16_t *got, const float *want, size_t n, float *largest)
{
   size_t bad = 0;
   float worst = 0.0f;
   for (size_t i = 0; i < n; i++) {
      bool agree = true;
      for (int k = 0; k < 2; k++) {
         float d = fabsf(of_half_to_float(got[2 * i + k]) -
                         of_half_to_float(of_half_from_float(want[2 * i + k])));
         if (!(d <= OFU_TOL_PX))
            agree = false;
         worst = !(d <= worst) ? (isnan(d) ? INFINITY : d) : worst;
      }
      bad += !agree;
   }
   if (largest)
      *largest = worst;
   return ok(bad <= n / 100,
             "%s: flow within %.2f px of the reference: %zu of %zu vectors differ (largest "
             "difference %.4f px)",
             what, OFU_TOL_PX, bad, n, worst);
}

bool
ofu_check_cost(const char *what, const uint16_t *got, const uint16_t *want, size_t n,
               uint32_t *largest)
{
   size_t bad = 0;
   uint32_t worst = 0;
   for (size_t i = 0; i < n; i++) {
      uint32_t d = (uint32_t)abs((int)got[i] - (int)want[i]);
      worst = d > worst ? d : worst;
      bad += d > OFU_TOL_COST;
   }
   if (largest)
      *largest = worst;
   return ok(bad <= n / 100,
             "%s: cost within %u of the reference: %zu of %zu differ (largest difference %u)", what,
             OFU_TOL_COST, bad, n, worst);
}
