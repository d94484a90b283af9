/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_LAYER_VMEL_test_fail_driver: a test-only layer that sits below our layers
 * (the test enables it after them) and fails driver calls on demand
 * (fail_driver.h says how it is armed). Each watched command fails with an
 * error its specification lists: VK_ERROR_OUT_OF_DEVICE_MEMORY for memory,
 * buffers, images, binding, descriptor pools and sets; VK_ERROR_OUT_OF_HOST_MEMORY
 * for the others. A failed call leaves its output handles VK_NULL_HANDLE and
 * never reaches the driver. Creations and destructions are counted by kind
 * whether armed or not, and chains holding the watched sType are counted.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "fail_driver.h"
#include "lyr_layer.h"
#include "test_layer.h"


/* Commands not in struct lyr_device_next. */
struct fd_device {
   struct lyr_device base;
   PFN_vkCreateEvent CreateEvent;
   PFN_vkDestroyEvent DestroyEvent;
   PFN_vkBindBufferMemory BindBufferMemory;
   atomic_long live; /* driver objects of this device live */
};

static struct {
   atomic_bool armed;
   atomic_long fail_at;
   atomic_long calls;
   atomic_uint failed;
   const char *_Atomic failed_name;
   _Atomic VkResult failed_result;
   atomic_long live[FD_KINDS];
   atomic_long leaked; /* objects still live when their device was destroyed */
   _Atomic VkStructureType watched;
   atomic_long watched_seen;
   const char *_Atomic watched_last;
} fd;

/* Notes a chain going down that holds the watched sType. */
static void
watch_chain(const char *name, const void *chain)
{
   VkStructureType want = atomic_load(&fd.watched);
   if (!want)
      return;
   const VkBaseInStructure *s = chain;
   for (unsigned n = 0; s && n < LYR_CHAIN_MAX; n++, s = s->pNext) {
      if (s->sType == want) {
         atomic_fetch_add(&fd.watched_seen, 1);
         atomic_store(&fd.watched_last, name);
         return;
      }
   }
}

static VKAPI_ATTR void VKAPI_CALL
fd_Watch(VkStructureType stype)
{
   atomic_store(&fd.watched_seen, 0);
   atomic_store(&fd.watched_last, NULL);
   atomic_store(&fd.watched, stype);
}

static struct fd_device *
fd_device_get(const void *dispatchable)
{
   return (struct fd_device *)lyr_device_get(dispatchable);
}

/* Counts a watched call; true when it must fail (with result). */
static bool
must_fail(const char *name, VkResult result)
{
   if (!atomic_load(&fd.armed))
      return false;
   long index = atomic_fetch_add(&fd.calls, 1);
   if (index != atomic_load(&fd.fail_at))
      return false;
   if (atomic_fetch_add(&fd.failed, 1) == 0) {
      atomic_store(&fd.failed_name, name);
      atomic_store(&fd.failed_result, result);
   }
   return true;
}

static void
live_add(struct fd_device *device, enum fail_driver_kind kind, long n)
{
   atomic_fetch_add(&fd.live[kind], n);
   atomic_fetch_add(&device->live, n);
}

static void
live_drop(struct fd_device *device, enum fail_driver_kind kind, uint64_t handle)
{
   if (handle) {
      atomic_fetch_sub(&fd.live[kind], 1);
      atomic_fetch_sub(&device->live, 1);
   }
}

static VKAPI_ATTR void VKAPI_CALL
fd_Control(long fail_at, struct fail_driver_stats *stats)
{
   if (fail_at == FAIL_DRIVER_OFF) {
      atomic_store(&fd.armed, false);
   } else {
      atomic_store(&fd.armed, false);
      atomic_store(&fd.calls, 0);
      atomic_store(&fd.failed, 0);
      atomic_store(&fd.failed_name, NULL);
      atomic_store(&fd.failed_result, VK_SUCCESS);
      atomic_store(&fd.fail_at, fail_at);
      atomic_store(&fd.armed, true);
   }
   if (stats) {
      stats->calls = atomic_load(&fd.calls);
      stats->failed = atomic_load(&fd.failed);
      stats->failed_name = atomic_load(&fd.failed_name);
      stats->failed_result = atomic_load(&fd.failed_result);
      for (int k = 0; k < FD_KINDS; k++)
         stats->live[k] = atomic_load(&fd.live[k]);
      stats->leaked = atomic_load(&fd.leaked);
      stats->watched_seen = atomic_load(&fd.watched_seen);
      stats->watched_last = atomic_load(&fd.watched_last);
   }
}

/* ---- instance and device ------------------------------------------------------------------ */

static VKAPI_ATTR VkResult VKAPI_CALL
fd_CreateDevice(VkPhysicalDevice pd, const VkDeviceCreateInfo *info,
                const VkAllocationCallbacks *alloc, VkDevice *pDevice)
{
   struct lyr_device *base;
   VkResult result = lyr_device_create(pd, info, alloc, pDevice, sizeof(struct fd_device), &base);
   if (result != VK_SUCCESS)
      return result;
   struct fd_device *device = (struct fd_device *)base;
   PFN_vkGetDeviceProcAddr gdpa = base->next.GetDeviceProcAddr;
   device->CreateEvent = (PFN_vkCreateEvent)gdpa(*pDevice, "vkCreateEvent");
   device->DestroyEvent = (PFN_vkDestroyEvent)gdpa(*pDevice, "vkDestroyEvent");
   device->BindBufferMemory = (PFN_vkBindBufferMemory)gdpa(*pDevice, "vkBindBufferMemory");
   return VK_SUCCESS;
}

static VKAPI_ATTR void VKAPI_CALL
fd_DestroyDevice(VkDevice _device, const VkAllocationCallbacks *alloc)
{
   struct fd_device *device = fd_device_get(_device);
   if (device) {
      /* What the layers above did not destroy before the device: leaked. */
      long left = atomic_load(&device->live);
      atomic_fetch_add(&fd.leaked, left);
      if (left)
         fprintf(stderr,
                 "VK_LAYER_VMEL_test_fail_driver: %ld driver objects left at "
                 "vkDestroyDevice\n",
                 left);
   }
   lyr_device_destroy(_device, alloc);
}

/* ---- one create/destroy pair per kind -------------------------------------------------------- */

/* A create command of one handle: fails (handle VK_NULL_HANDLE) or counts what it made. */
#define FD_CREATE(Name, Info, Handle, kind, error)                                                 \
   static VKAPI_ATTR VkResult VKAPI_CALL fd_##Name(VkDevice _device, const Info *pInfo,            \
                                                   const VkAllocationCallbacks *pAllocator,        \
                                                   Handle *pHandle)                                \
   {                                                                                               \
      struct fd_device *device = fd_device_get(_device);                                           \
      watch_chain("vk" #Name, pInfo->pNext);                                                       \
      if (must_fail("vk" #Name, error)) {                                                          \
         *pHandle = VK_NULL_HANDLE;                                                                \
         return error;                                                                             \
      }                                                                                            \
      VkResult result = device->base.next.Name(_device, pInfo, pAllocator, pHandle);               \
      if (result == VK_SUCCESS)                                                                    \
         live_add(device, kind, 1);                                                                \
      return result;                                                                               \
   }

#define FD_DESTROY(Name, Handle, kind)                                                             \
   static VKAPI_ATTR void VKAPI_CALL fd_##Name(VkDevice _device, Handle handle,                    \
                                               const VkAllocationCallbacks *pAllocator)            \
   {                                                                                               \
      struct fd_device *device = fd_device_get(_device);                                           \
      live_drop(device, kind, (uint64_t)handle);                                                   \
      device->base.next.Name(_device, handle, pAllocator);                                         \
   }

FD_CREATE(AllocateMemory, VkMemoryAllocateInfo, VkDeviceMemory, FD_MEMORY,
          VK_ERROR_OUT_OF_DEVICE_MEMORY)
FD_DESTROY(FreeMemory, VkDeviceMemory, FD_MEMORY)
FD_CREATE(CreateBuffer, VkBufferCreateInfo, VkBuffer, FD_BUFFER, VK_ERROR_OUT_OF_DEVICE_MEMORY)
FD_DESTROY(DestroyBuffer, VkBuffer, FD_BUFFER)
FD_CREATE(CreateImage, VkImageCreateInfo, VkImage, FD_IMAGE, VK_ERROR_OUT_OF_DEVICE_MEMORY)
FD_DESTROY(DestroyImage, VkImage, FD_IMAGE)
FD_CREATE(CreateDescriptorPool, VkDescriptorPoolCreateInfo, VkDescriptorPool, FD_DESCRIPTOR_POOL,
          VK_ERROR_OUT_OF_DEVICE_MEMORY)
FD_DESTROY(DestroyDescriptorPool, VkDescriptorPool, FD_DESCRIPTOR_POOL)
FD_CREATE(CreateDescriptorSetLayout, VkDescriptorSetLayoutCreateInfo, VkDescriptorSetLayout,
          FD_DESCRIPTOR_SET_LAYOUT, VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyDescriptorSetLayout, VkDescriptorSetLayout, FD_DESCRIPTOR_SET_LAYOUT)
FD_CREATE(CreatePipelineLayout, VkPipelineLayoutCreateInfo, VkPipelineLayout, FD_PIPELINE_LAYOUT,
          VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyPipelineLayout, VkPipelineLayout, FD_PIPELINE_LAYOUT)
FD_CREATE(CreateShaderModule, VkShaderModuleCreateInfo, VkShaderModule, FD_SHADER_MODULE,
          VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyShaderModule, VkShaderModule, FD_SHADER_MODULE)
FD_CREATE(CreatePipelineCache, VkPipelineCacheCreateInfo, VkPipelineCache, FD_PIPELINE_CACHE,
          VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyPipelineCache, VkPipelineCache, FD_PIPELINE_CACHE)
FD_CREATE(CreateQueryPool, VkQueryPoolCreateInfo, VkQueryPool, FD_QUERY_POOL,
          VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyQueryPool, VkQueryPool, FD_QUERY_POOL)
FD_CREATE(CreateCommandPool, VkCommandPoolCreateInfo, VkCommandPool, FD_COMMAND_POOL,
          VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyCommandPool, VkCommandPool, FD_COMMAND_POOL)
FD_DESTROY(DestroyPipeline, VkPipeline, FD_PIPELINE)
FD_CREATE(CreateDescriptorUpdateTemplate, VkDescriptorUpdateTemplateCreateInfo,
          VkDescriptorUpdateTemplate, FD_UPDATE_TEMPLATE, VK_ERROR_OUT_OF_HOST_MEMORY)
FD_DESTROY(DestroyDescriptorUpdateTemplate, VkDescriptorUpdateTemplate, FD_UPDATE_TEMPLATE)

static VKAPI_ATTR VkResult VKAPI_CALL
fd_CreateEvent(VkDevice _device, const VkEventCreateInfo *pInfo,
               const VkAllocationCallbacks *pAllocator, VkEvent *pEvent)
{
   struct fd_device *device = fd_device_get(_device);
   if (must_fail("vkCreateEvent", VK_ERROR_OUT_OF_HOST_MEMORY)) {
      *pEvent = VK_NULL_HANDLE;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult result = device->CreateEvent(_device, pInfo, pAllocator, pEvent);
   if (result == VK_SUCCESS)
      live_add(device, FD_EVENT, 1);
   return result;
}

static VKAPI_ATTR void VKAPI_CALL
fd_DestroyEvent(VkDevice _device, VkEvent event, const VkAllocationCallbacks *pAllocator)
{
   struct fd_device *device = fd_device_get(_device);
   live_drop(device, FD_EVENT, (uint64_t)event);
   device->DestroyEvent(_device, event, pAllocator);
}

/* ---- commands that make several handles, or none ------------------------------------------- */

static void
count_pipelines(struct fd_device *device, VkResult result, uint32_t count,
                const VkPipeline *pipelines)
{
   if (result < 0 && result != VK_PIPELINE_COMPILE_REQUIRED)
      return;
   for (uint32_t i = 0; i < count; i++)
      live_add(device, FD_PIPELINE, pipelines[i] != VK_NULL_HANDLE);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_CreateComputePipelines(VkDevice _device, VkPipelineCache cache, uint32_t count,
                          const VkComputePipelineCreateInfo *infos,
                          const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   struct fd_device *device = fd_device_get(_device);
   for (uint32_t i = 0; i < count; i++) {
      watch_chain("vkCreateComputePipelines", infos[i].pNext);
      watch_chain("vkCreateComputePipelines (stage)", infos[i].stage.pNext);
   }
   if (must_fail("vkCreateComputePipelines", VK_ERROR_OUT_OF_HOST_MEMORY)) {
      for (uint32_t i = 0; i < count; i++)
         pPipelines[i] = VK_NULL_HANDLE;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult result = device->base.next.CreateComputePipelines(_device, cache, count, infos,
                                                              pAllocator, pPipelines);
   count_pipelines(device, result, count, pPipelines);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_CreateGraphicsPipelines(VkDevice _device, VkPipelineCache cache, uint32_t count,
                           const VkGraphicsPipelineCreateInfo *infos,
                           const VkAllocationCallbacks *pAllocator, VkPipeline *pPipelines)
{
   struct fd_device *device = fd_device_get(_device);
   for (uint32_t i = 0; i < count; i++) {
      watch_chain("vkCreateGraphicsPipelines", infos[i].pNext);
      for (uint32_t j = 0; infos[i].pStages && j < infos[i].stageCount; j++)
         watch_chain("vkCreateGraphicsPipelines (stage)", infos[i].pStages[j].pNext);
   }
   if (must_fail("vkCreateGraphicsPipelines", VK_ERROR_OUT_OF_HOST_MEMORY)) {
      for (uint32_t i = 0; i < count; i++)
         pPipelines[i] = VK_NULL_HANDLE;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   VkResult result = device->base.next.CreateGraphicsPipelines(_device, cache, count, infos,
                                                               pAllocator, pPipelines);
   count_pipelines(device, result, count, pPipelines);
   return result;
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_AllocateDescriptorSets(VkDevice _device, const VkDescriptorSetAllocateInfo *info,
                          VkDescriptorSet *pSets)
{
   struct fd_device *device = fd_device_get(_device);
   watch_chain("vkAllocateDescriptorSets", info->pNext);
   if (must_fail("vkAllocateDescriptorSets", VK_ERROR_OUT_OF_DEVICE_MEMORY)) {
      for (uint32_t i = 0; i < info->descriptorSetCount; i++)
         pSets[i] = VK_NULL_HANDLE;
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   }
   return device->base.next.AllocateDescriptorSets(_device, info, pSets);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_AllocateCommandBuffers(VkDevice _device, const VkCommandBufferAllocateInfo *info,
                          VkCommandBuffer *pCmds)
{
   struct fd_device *device = fd_device_get(_device);
   if (must_fail("vkAllocateCommandBuffers", VK_ERROR_OUT_OF_HOST_MEMORY)) {
      for (uint32_t i = 0; i < info->commandBufferCount; i++)
         pCmds[i] = VK_NULL_HANDLE;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   return device->base.next.AllocateCommandBuffers(_device, info, pCmds);
}

/* Watched only: writes and dependencies. */
static VKAPI_ATTR void VKAPI_CALL
fd_UpdateDescriptorSets(VkDevice _device, uint32_t write_count, const VkWriteDescriptorSet *writes,
                        uint32_t copy_count, const VkCopyDescriptorSet *copies)
{
   struct fd_device *device = fd_device_get(_device);
   for (uint32_t i = 0; i < write_count; i++)
      watch_chain("vkUpdateDescriptorSets", writes[i].pNext);
   device->base.next.UpdateDescriptorSets(_device, write_count, writes, copy_count, copies);
}

static VKAPI_ATTR void VKAPI_CALL
fd_CmdPipelineBarrier2(VkCommandBuffer cmd, const VkDependencyInfo *dep)
{
   struct fd_device *device = fd_device_get(cmd);
   watch_chain("vkCmdPipelineBarrier2", dep->pNext);
   device->base.next.CmdPipelineBarrier2(cmd, dep);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_BindBufferMemory(VkDevice _device, VkBuffer buffer, VkDeviceMemory memory, VkDeviceSize offset)
{
   struct fd_device *device = fd_device_get(_device);
   if (must_fail("vkBindBufferMemory", VK_ERROR_OUT_OF_DEVICE_MEMORY))
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   return device->BindBufferMemory(_device, buffer, memory, offset);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_BindBufferMemory2(VkDevice _device, uint32_t count, const VkBindBufferMemoryInfo *infos)
{
   struct fd_device *device = fd_device_get(_device);
   if (must_fail("vkBindBufferMemory2", VK_ERROR_OUT_OF_DEVICE_MEMORY))
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   return device->base.next.BindBufferMemory2(_device, count, infos);
}

static VKAPI_ATTR VkResult VKAPI_CALL
fd_MapMemory(VkDevice _device, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize size,
             VkMemoryMapFlags flags, void **ppData)
{
   struct fd_device *device = fd_device_get(_device);
   if (must_fail("vkMapMemory", VK_ERROR_OUT_OF_HOST_MEMORY)) {
      *ppData = NULL;
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   }
   return device->base.next.MapMemory(_device, memory, offset, size, flags, ppData);
}

static const struct lyr_hook fd_instance_hooks[] = {
   TEST_LAYER_INSTANCE_HOOKS,
    HOOK(CreateDevice, fd_CreateDevice),
};
static const struct lyr_hook fd_device_hooks[] = {
    {VMEL_FAIL_DRIVER_CONTROL, (PFN_vkVoidFunction)fd_Control},
    {VMEL_FAIL_DRIVER_WATCH, (PFN_vkVoidFunction)fd_Watch},
    HOOK(UpdateDescriptorSets, fd_UpdateDescriptorSets),
    HOOK(CmdPipelineBarrier2, fd_CmdPipelineBarrier2),
    HOOK(CmdPipelineBarrier2KHR, fd_CmdPipelineBarrier2),
    HOOK(DestroyDevice, fd_DestroyDevice),
    HOOK(AllocateMemory, fd_AllocateMemory),
    HOOK(FreeMemory, fd_FreeMemory),
    HOOK(MapMemory, fd_MapMemory),
    HOOK(CreateBuffer, fd_CreateBuffer),
    HOOK(DestroyBuffer, fd_DestroyBuffer),
    HOOK(BindBufferMemory, fd_BindBufferMemory),
    HOOK(BindBufferMemory2, fd_BindBufferMemory2),
    HOOK(BindBufferMemory2KHR, fd_BindBufferMemory2),
    HOOK(CreateImage, fd_CreateImage),
    HOOK(DestroyImage, fd_DestroyImage),
    HOOK(CreateDescriptorPool, fd_CreateDescriptorPool),
    HOOK(DestroyDescriptorPool, fd_DestroyDescriptorPool),
    HOOK(CreateDescriptorSetLayout, fd_CreateDescriptorSetLayout),
    HOOK(DestroyDescriptorSetLayout, fd_DestroyDescriptorSetLayout),
    HOOK(AllocateDescriptorSets, fd_AllocateDescriptorSets),
    HOOK(CreatePipelineLayout, fd_CreatePipelineLayout),
    HOOK(DestroyPipelineLayout, fd_DestroyPipelineLayout),
    HOOK(CreateShaderModule, fd_CreateShaderModule),
    HOOK(DestroyShaderModule, fd_DestroyShaderModule),
    HOOK(CreateComputePipelines, fd_CreateComputePipelines),
    HOOK(CreateGraphicsPipelines, fd_CreateGraphicsPipelines),
    HOOK(DestroyPipeline, fd_DestroyPipeline),
    HOOK(CreatePipelineCache, fd_CreatePipelineCache),
    HOOK(DestroyPipelineCache, fd_DestroyPipelineCache),
    HOOK(CreateQueryPool, fd_CreateQueryPool),
    HOOK(DestroyQueryPool, fd_DestroyQueryPool),
    HOOK(CreateCommandPool, fd_CreateCommandPool),
    HOOK(DestroyCommandPool, fd_DestroyCommandPool),
    HOOK(AllocateCommandBuffers, fd_AllocateCommandBuffers),
    HOOK(CreateDescriptorUpdateTemplate, fd_CreateDescriptorUpdateTemplate),
    HOOK(CreateDescriptorUpdateTemplateKHR, fd_CreateDescriptorUpdateTemplate),
    HOOK(DestroyDescriptorUpdateTemplate, fd_DestroyDescriptorUpdateTemplate),
    HOOK(DestroyDescriptorUpdateTemplateKHR, fd_DestroyDescriptorUpdateTemplate),
    HOOK(CreateEvent, fd_CreateEvent),
    HOOK(DestroyEvent, fd_DestroyEvent),
};
static const struct lyr_hook_table fd_instance_table = LYR_HOOK_TABLE(fd_instance_hooks);
static const struct lyr_hook_table *const fd_instance_tables[] = {&fd_instance_table};

const struct lyr_hooks lyr_layer_hooks = {
    .instance = fd_instance_tables,
    .instance_count = LYR_ARRAY_SIZE(fd_instance_tables),
    .device_always = LYR_HOOK_TABLE(fd_device_hooks),
};
