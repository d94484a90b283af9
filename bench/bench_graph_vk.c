/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's Vulkan plumbing (bench_graph.h): the device (through the
 * loader and the layers), the application's tensors, timestamps, and the
 * buffer copy that the bandwidth graphs are compared with.
 *
 * Tensors live in device-local memory. Where that memory is also host
 * visible, coherent and cached (a CPU device such as lavapipe) the host maps
 * it; otherwise (a GPU) the host reads and writes a staging tensor in host
 * memory, copied to and from the device-local one with vkCmdCopyTensorARM, so
 * that a dispatch reads and writes device memory as a real application's
 * would.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bench_graph.h"

/* ---- results and the device ------------------------------------------------------------- */

static const char *
vk_result_name(VkResult r)
{
   switch (r) {
   case VK_SUCCESS:
      return "VK_SUCCESS";
   case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
   case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
   case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
   case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
   case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
   case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
   case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
   case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
   case VK_ERROR_UNKNOWN:
      return "VK_ERROR_UNKNOWN";
   case VK_ERROR_VALIDATION_FAILED_EXT:
      return "VK_ERROR_VALIDATION_FAILED_EXT";
   default:
      return "VkResult";
   }
}

bool
bench_vk_ok(struct bench_graph *g, VkResult r, const char *what)
{
   if (r == VK_SUCCESS)
      return true;
   bench_graph_fail(g, "%s: %s (%d)", what, vk_result_name(r), (int)r);
   return false;
}

bool
bench_device_init(struct bench_device *d, bool meta)
{
   const char *pair[] = {"VK_LAYER_ML_Graph_Emulation", "VK_LAYER_ML_Tensor_Emulation"};
   const char *meta_layer[] = {"VK_LAYER_ML_Emulation"};
   VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                            .pApplicationName = "bench_graph",
                            .apiVersion = VK_API_VERSION_1_3};
   VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                               .pApplicationInfo = &app,
                               .enabledLayerCount = meta ? 1 : 2,
                               .ppEnabledLayerNames = meta ? meta_layer : pair};
   VkResult r = vkCreateInstance(&ici, NULL, &d->instance);
   if (r != VK_SUCCESS) {
      fprintf(stderr, "bench_graph: vkCreateInstance with %s: %s (%d) (VK_LAYER_PATH?)\n",
              meta ? meta_layer[0] : "the graph and tensor layers", vk_result_name(r), (int)r);
      return false;
   }
   VkPhysicalDevice physical[8];
   uint32_t n = 8;
   r = vkEnumeratePhysicalDevices(d->instance, &n, physical);
   if (r < 0) {
      fprintf(stderr, "bench_graph: vkEnumeratePhysicalDevices: %s (%d)\n", vk_result_name(r),
              (int)r);
      return false;
   }
   for (uint32_t i = 0; i < n; i++) {
      r = graph_device_create(d->instance, physical[i], &d->gd);
      if (r != VK_SUCCESS)
         continue;
      d->CmdCopyTensorARM =
          (PFN_vkCmdCopyTensorARM)vkGetDeviceProcAddr(d->gd.device, "vkCmdCopyTensorARM");
      if (!graph_arm_fns_load(d->gd.device, &d->fn) || !d->CmdCopyTensorARM) {
         fprintf(stderr, "bench_graph: VK_ARM_data_graph or VK_ARM_tensors entry points missing\n");
         graph_device_destroy(&d->gd);
         continue;
      }
      VkPhysicalDeviceTensorPropertiesARM tensor = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TENSOR_PROPERTIES_ARM};
      VkPhysicalDeviceDriverProperties driver = {
          .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES, .pNext = &tensor};
      VkPhysicalDeviceProperties2 props = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                           .pNext = &driver};
      vkGetPhysicalDeviceProperties2(physical[i], &props);
      snprintf(d->name, sizeof(d->name), "%s", props.properties.deviceName);
      snprintf(d->driver, sizeof(d->driver), "%s %s", driver.driverName, driver.driverInfo);
      vkGetPhysicalDeviceMemoryProperties(physical[i], &d->memory);
      d->max_tensor_size = tensor.maxTensorSize;
      uint32_t families = 0;
      VkQueueFamilyProperties fams[16];
      vkGetPhysicalDeviceQueueFamilyProperties(physical[i], &families, NULL);
      families = families > 16 ? 16 : families;
      vkGetPhysicalDeviceQueueFamilyProperties(physical[i], &families, fams);
      if (d->gd.queue_family < families && fams[d->gd.queue_family].timestampValidBits &&
          props.properties.limits.timestampPeriod > 0) {
         d->timestamp_bits = fams[d->gd.queue_family].timestampValidBits;
         d->timestamp_ns = props.properties.limits.timestampPeriod;
      }
      return true;
   }
   fprintf(stderr, "bench_graph: no device with VK_ARM_data_graph (last: %s (%d))\n",
           vk_result_name(r), (int)r);
   return false;
}

void
bench_device_finish(struct bench_device *d)
{
   graph_device_destroy(&d->gd);
   if (d->instance)
      vkDestroyInstance(d->instance, NULL);
}

uint32_t
bench_memory_type(const struct bench_device *d, uint32_t bits, VkMemoryPropertyFlags want)
{
   for (uint32_t i = 0; i < d->memory.memoryTypeCount; i++) {
      if ((bits & (1u << i)) && (d->memory.memoryTypes[i].propertyFlags & want) == want)
         return i;
   }
   return UINT32_MAX;
}

/* Allocates and binds memory of the first type with `want`, else of `fallback` (0: none);
 * *type the type found. */
static bool
bind_tensor_memory(struct bench_device *d, struct bench_graph *g, VkTensorARM tensor,
                   VkMemoryPropertyFlags want, VkMemoryPropertyFlags fallback,
                   VkDeviceMemory *memory, uint32_t *type)
{
   VkDevice dev = d->gd.device;
   VkTensorMemoryRequirementsInfoARM ri = {
       .sType = VK_STRUCTURE_TYPE_TENSOR_MEMORY_REQUIREMENTS_INFO_ARM, .tensor = tensor};
   VkMemoryRequirements2 req = {.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2};
   d->fn.GetTensorMemoryRequirementsARM(dev, &ri, &req);
   *type = bench_memory_type(d, req.memoryRequirements.memoryTypeBits, want);
   if (*type == UINT32_MAX && fallback)
      *type = bench_memory_type(d, req.memoryRequirements.memoryTypeBits, fallback);
   if (*type == UINT32_MAX) {
      bench_graph_fail(g, "no memory type 0x%x for a tensor", (unsigned)want);
      return false;
   }
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.memoryRequirements.size,
                               .memoryTypeIndex = *type};
   if (!bench_vk_ok(g, vkAllocateMemory(dev, &mai, NULL, memory), "tensor memory"))
      return false;
   VkBindTensorMemoryInfoARM bi = {
       .sType = VK_STRUCTURE_TYPE_BIND_TENSOR_MEMORY_INFO_ARM, .tensor = tensor, .memory = *memory};
   return bench_vk_ok(g, d->fn.BindTensorMemoryARM(dev, 1, &bi), "vkBindTensorMemoryARM");
}

/* ---- application tensors -------------------------------------------------------------------- */

bool
bench_tensor_create(struct bench_device *d, struct bench_graph *g, const struct ref_tensor *t,
                    struct bench_tensor *a)
{
   VkDevice dev = d->gd.device;
   memset(a, 0, sizeof(*a));
   for (uint32_t i = 0; i < t->rank; i++)
      a->dims[i] = t->shape[i];
   a->size = (size_t)t->count * ref_dtype_size(t->dtype);
   if (d->max_tensor_size && a->size > d->max_tensor_size) {
      bench_graph_fail(g,
                       "a tensor of %zu bytes is over the device's maxTensorSize (%" PRIu64
                       " bytes): pass a smaller --elements",
                       a->size, d->max_tensor_size);
      return false;
   }
   a->desc = (VkTensorDescriptionARM){
       .sType = VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM,
       .tiling = VK_TENSOR_TILING_LINEAR_ARM,
       .format = bench_ref_format(t->dtype),
       .dimensionCount = t->rank,
       .pDimensions = a->dims,
       .usage = VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM | VK_TENSOR_USAGE_SHADER_BIT_ARM |
                VK_TENSOR_USAGE_TRANSFER_SRC_BIT_ARM | VK_TENSOR_USAGE_TRANSFER_DST_BIT_ARM,
   };
   VkTensorCreateInfoARM tci = {.sType = VK_STRUCTURE_TYPE_TENSOR_CREATE_INFO_ARM,
                                .pDescription = &a->desc,
                                .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   const VkMemoryPropertyFlags host =
       VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
   uint32_t type;
   if (!bench_vk_ok(g, d->fn.CreateTensorARM(dev, &tci, NULL, &a->tensor), "vkCreateTensorARM") ||
       !bind_tensor_memory(d, g, a->tensor, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, host, &a->memory,
                           &type))
      return false;
   VkMemoryPropertyFlags flags = d->memory.memoryTypes[type].propertyFlags;
   VkMemoryPropertyFlags direct = host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
   if ((flags & direct) == direct || (flags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) == 0) {
      if (!bench_vk_ok(g, vkMapMemory(dev, a->memory, 0, VK_WHOLE_SIZE, 0, &a->map), "vkMapMemory"))
         return false;
   } else {
      if (!bench_vk_ok(g, d->fn.CreateTensorARM(dev, &tci, NULL, &a->staging),
                       "vkCreateTensorARM (staging)") ||
          !bind_tensor_memory(d, g, a->staging, host | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, host,
                              &a->staging_memory, &type) ||
          !bench_vk_ok(g, vkMapMemory(dev, a->staging_memory, 0, VK_WHOLE_SIZE, 0, &a->map),
                       "vkMapMemory"))
         return false;
   }
   VkTensorViewCreateInfoARM vi = {.sType = VK_STRUCTURE_TYPE_TENSOR_VIEW_CREATE_INFO_ARM,
                                   .tensor = a->tensor,
                                   .format = a->desc.format};
   return bench_vk_ok(g, d->fn.CreateTensorViewARM(dev, &vi, NULL, &a->view),
                      "vkCreateTensorViewARM");
}

void
bench_tensor_destroy(struct bench_device *d, struct bench_tensor *a)
{
   VkDevice dev = d->gd.device;
   if (a->view)
      d->fn.DestroyTensorViewARM(dev, a->view, NULL);
   if (a->tensor)
      d->fn.DestroyTensorARM(dev, a->tensor, NULL);
   if (a->staging)
      d->fn.DestroyTensorARM(dev, a->staging, NULL);
   if (a->memory)
      vkFreeMemory(dev, a->memory, NULL);
   if (a->staging_memory)
      vkFreeMemory(dev, a->staging_memory, NULL);
   memset(a, 0, sizeof(*a));
}

/* One command buffer on the graph's queue, submitted and waited for. */
static bool
submit_once(struct bench_device *d, struct bench_graph *g, VkCommandBuffer cmd, VkFence fence)
{
   VkCommandBufferSubmitInfo cbsi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_SUBMIT_INFO,
                                     .commandBuffer = cmd};
   VkSubmitInfo2 si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO_2,
                       .commandBufferInfoCount = 1,
                       .pCommandBufferInfos = &cbsi};
   return bench_vk_ok(g, vkQueueSubmit2(d->gd.queue, 1, &si, fence), "vkQueueSubmit2") &&
          bench_vk_ok(g, vkWaitForFences(d->gd.device, 1, &fence, VK_TRUE, UINT64_MAX),
                      "vkWaitForFences") &&
          bench_vk_ok(g, vkResetFences(d->gd.device, 1, &fence), "vkResetFences");
}

void
bench_barrier(VkCommandBuffer cmd, VkPipelineStageFlags2 src_stage, VkAccessFlags2 src_access,
              VkPipelineStageFlags2 dst_stage, VkAccessFlags2 dst_access)
{
   VkMemoryBarrier2 b = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER_2,
                         .srcStageMask = src_stage,
                         .srcAccessMask = src_access,
                         .dstStageMask = dst_stage,
                         .dstAccessMask = dst_access};
   VkDependencyInfo dep = {
       .sType = VK_STRUCTURE_TYPE_DEPENDENCY_INFO, .memoryBarrierCount = 1, .pMemoryBarriers = &b};
   vkCmdPipelineBarrier2(cmd, &dep);
}

bool
bench_tensors_transfer(struct bench_device *d, struct bench_graph *g, struct bench_tensor *const *t,
                       uint32_t count, bool upload, VkCommandBuffer cmd, VkFence fence)
{
   bool any = false;
   for (uint32_t i = 0; i < count; i++)
      any |= t[i]->staging != VK_NULL_HANDLE;
   if (!any)
      return true;
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                  .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
   if (!bench_vk_ok(g, vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer"))
      return false;
   if (!upload)
      bench_barrier(cmd, VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM, VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM,
              VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_READ_BIT);
   for (uint32_t i = 0; i < count; i++) {
      if (!t[i]->staging)
         continue;
      uint64_t zero[REF_MAX_RANK] = {0}, extent[REF_MAX_RANK];
      for (uint32_t k = 0; k < t[i]->desc.dimensionCount; k++)
         extent[k] = (uint64_t)t[i]->dims[k];
      VkTensorCopyARM region = {.sType = VK_STRUCTURE_TYPE_TENSOR_COPY_ARM,
                                .dimensionCount = t[i]->desc.dimensionCount,
                                .pSrcOffset = zero,
                                .pDstOffset = zero,
                                .pExtent = extent};
      VkCopyTensorInfoARM ci = {.sType = VK_STRUCTURE_TYPE_COPY_TENSOR_INFO_ARM,
                                .srcTensor = upload ? t[i]->staging : t[i]->tensor,
                                .dstTensor = upload ? t[i]->tensor : t[i]->staging,
                                .regionCount = 1,
                                .pRegions = &region};
      d->CmdCopyTensorARM(cmd, &ci);
   }
   if (upload)
      bench_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_2_DATA_GRAPH_BIT_ARM,
              VK_ACCESS_2_DATA_GRAPH_READ_BIT_ARM | VK_ACCESS_2_DATA_GRAPH_WRITE_BIT_ARM);
   else
      bench_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_2_HOST_BIT, VK_ACCESS_2_HOST_READ_BIT);
   return bench_vk_ok(g, vkEndCommandBuffer(cmd), "vkEndCommandBuffer") &&
          submit_once(d, g, cmd, fence);
}

/* ---- timestamps ----------------------------------------------------------------------------- */

bool
bench_timestamps_read(struct bench_device *d, struct bench_graph *g, VkQueryPool pool,
                      uint32_t first, double *ms)
{
   uint64_t ts[2];
   *ms = -1;
   if (!pool)
      return true;
   if (!bench_vk_ok(g,
                    vkGetQueryPoolResults(d->gd.device, pool, first, 2, sizeof(ts), ts,
                                          sizeof(ts[0]),
                                          VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
                    "vkGetQueryPoolResults"))
      return false;
   uint64_t mask = d->timestamp_bits >= 64 ? UINT64_MAX : (UINT64_C(1) << d->timestamp_bits) - 1;
   *ms = (double)((ts[1] - ts[0]) & mask) * d->timestamp_ns * 1e-6;
   return true;
}

/* ---- the buffer copy of a bandwidth graph ---------------------------------------------------- */

static bool
copy_buffer_create(struct bench_device *d, struct bench_graph *g, VkDeviceSize size,
                   VkBuffer *buffer, VkDeviceMemory *memory)
{
   VkDevice dev = d->gd.device;
   VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = size,
                             .usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
   if (!bench_vk_ok(g, vkCreateBuffer(dev, &bci, NULL, buffer), "vkCreateBuffer"))
      return false;
   VkMemoryRequirements req;
   vkGetBufferMemoryRequirements(dev, *buffer, &req);
   uint32_t type = bench_memory_type(d, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
   if (type == UINT32_MAX)
      type = bench_memory_type(d, req.memoryTypeBits, 0);
   VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                               .allocationSize = req.size,
                               .memoryTypeIndex = type};
   return bench_vk_ok(g, vkAllocateMemory(dev, &mai, NULL, memory), "copy buffer memory") &&
          bench_vk_ok(g, vkBindBufferMemory(dev, *buffer, *memory, 0), "vkBindBufferMemory");
}

bool
bench_copy_baseline(struct bench_device *d, struct bench_graph *g, int warmup, int reps,
                    int batch, VkCommandBuffer cmd, VkFence fence, VkQueryPool pool)
{
   VkDevice dev = d->gd.device;
   /* Reads and writes as many bytes as the graph: half each way, whole 16-byte units. */
   VkDeviceSize size = ((VkDeviceSize)(g->bytes / 2) + 15) & ~(VkDeviceSize)15;
   VkBuffer buf[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
   VkDeviceMemory mem[2] = {VK_NULL_HANDLE, VK_NULL_HANDLE};
   bool ok = copy_buffer_create(d, g, size, &buf[0], &mem[0]) &&
             copy_buffer_create(d, g, size, &buf[1], &mem[1]);
   VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
   if (ok)
      ok = bench_vk_ok(g, vkBeginCommandBuffer(cmd, &bi), "vkBeginCommandBuffer");
   if (ok) {
      if (pool)
         vkCmdResetQueryPool(cmd, pool, 2, 2);
      /* Each copy waits for the last one's writes (as each dispatch waits for the host). */
      bench_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
              VK_PIPELINE_STAGE_2_COPY_BIT,
              VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
      if (pool)
         vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 2);
      VkBufferCopy region = {0, 0, size};
      for (int i = 0; i < batch; i++) {
         if (i > 0)
            bench_barrier(cmd, VK_PIPELINE_STAGE_2_COPY_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                    VK_PIPELINE_STAGE_2_COPY_BIT,
                    VK_ACCESS_2_TRANSFER_READ_BIT | VK_ACCESS_2_TRANSFER_WRITE_BIT);
         vkCmdCopyBuffer(cmd, buf[0], buf[1], 1, &region);
      }
      if (pool)
         vkCmdWriteTimestamp2(cmd, VK_PIPELINE_STAGE_2_ALL_COMMANDS_BIT, pool, 3);
      ok = bench_vk_ok(g, vkEndCommandBuffer(cmd), "vkEndCommandBuffer");
   }
   for (int i = 0; ok && i < warmup + reps; i++) {
      double t0 = bench_now_ms(), gpu;
      ok = submit_once(d, g, cmd, fence);
      double wall = bench_now_ms() - t0;
      ok = ok && bench_timestamps_read(d, g, pool, 2, &gpu);
      if (ok && i >= warmup) {
         bench_samples_add(&g->copy, wall / batch);
         if (gpu >= 0)
            bench_samples_add(&g->copy_gpu, gpu / batch);
      }
   }
   for (int i = 0; i < 2; i++) {
      if (buf[i])
         vkDestroyBuffer(dev, buf[i], NULL);
      if (mem[i])
         vkFreeMemory(dev, mem[i], NULL);
   }
   g->copy_bytes = 2.0 * (double)size;
   return ok;
}
