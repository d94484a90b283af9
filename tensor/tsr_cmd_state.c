/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The application's compute state per command buffer, kept for the copy
 * kernel (tsr_copy.c): that kernel binds its own pipeline and pushes its own
 * constants in the application's command buffer, and must then put back the
 * compute pipeline the application had bound and the compute push-constant
 * words it had pushed (each with the layout and stage flags of its last
 * push). Pools are tracked too: a pool knows whether its queue family can run
 * compute work and which command buffers it owns, so pool reset and
 * destruction reach them. Descriptor sets need no tracking: the kernel's
 * pipeline layout has no sets, and binding a pipeline disturbs no set.
 *
 * Not tracked: vkCmdPushConstants2KHR and vkCmdBindShadersEXT (not in the
 * Vulkan headers this builds against); a command buffer that used them gets
 * the state restored that was tracked.
 */
#include "tsr_private.h"

/* Who last pushed a push-constant word. */
struct tsr_push_owner {
   VkPipelineLayout layout; /* VK_NULL_HANDLE: never pushed since the last reset */
   VkShaderStageFlags stages;
};

/* Attached to VkCommandPool. */
struct tsr_cmd_pool {
   VkCommandPool handle;
   VkAllocationCallbacks alloc;      /* the pool's allocator: its command buffers use it */
   bool compute;                     /* its queue family supports compute */
   struct tsr_cmd_state *buffers;    /* list of its command buffers' states */
   struct tsr_cmd_pool *prev, *next; /* tsr_cmd_tracker::pool_list */
};

/* Attached to VkCommandBuffer. */
struct tsr_cmd_state {
   VkCommandBuffer handle;
   struct tsr_cmd_pool *pool;
   struct tsr_cmd_state *prev, *next;  /* tsr_cmd_pool::buffers */
   VkPipeline pipeline;                /* bound at VK_PIPELINE_BIND_POINT_COMPUTE, or null */
   bool lost;                          /* a push could not be tracked: no kernel copies */
   uint32_t push_words;                /* words [0, push_words) may have been pushed */
   uint32_t push_capacity;             /* words allocated */
   uint32_t *push_values;              /* compute push-constant words, as last pushed */
   struct tsr_push_owner *push_owners; /* who pushed each word (same allocation) */
};

/* Non-dispatchable handles are 64-bit values; the maps key pointers (64-bit here). */
static inline const void *
pool_key(VkCommandPool pool)
{
   return (const void *)(uintptr_t)pool;
}

static struct tsr_cmd_tracker *
tracker_of(struct tsr_device *device)
{
   return device->copy ? &device->copy->cmds : NULL;
}

VkResult
tsr_cmd_tracker_init(struct tsr_device *device, struct tsr_cmd_tracker *tracker)
{
   memset(tracker, 0, sizeof(*tracker));
   VkQueueFamilyProperties families[32];
   uint32_t count = 0;
   struct lyr_instance *instance = device->base.instance;
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->base.physical_device, &count,
                                                         NULL);
   if (count > LYR_ARRAY_SIZE(families))
      count = LYR_ARRAY_SIZE(families);
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->base.physical_device, &count,
                                                         families);
   for (uint32_t i = 0; i < count; i++) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         tracker->compute_families |= 1u << i;
   }
   lyr_map_init(&tracker->pools);
   lyr_map_init(&tracker->buffers);
   pthread_mutex_init(&tracker->lock, NULL);
   return VK_SUCCESS;
}

static void
state_free(struct tsr_cmd_pool *pool, struct tsr_cmd_state *state)
{
   lyr_free(&pool->alloc, state->push_values);
   lyr_free(&pool->alloc, state);
}

static void
state_unlink(struct tsr_cmd_state *state)
{
   struct tsr_cmd_pool *pool = state->pool;
   if (state->prev)
      state->prev->next = state->next;
   else
      pool->buffers = state->next;
   if (state->next)
      state->next->prev = state->prev;
   state->prev = state->next = NULL;
}

/* Forgets the pool's command buffers and unlinks the pool; frees nothing of the pool. */
static void
pool_release_buffers(struct tsr_cmd_tracker *tracker, struct tsr_cmd_pool *pool)
{
   while (pool->buffers) {
      struct tsr_cmd_state *state = pool->buffers;
      lyr_map_remove(&tracker->buffers, state->handle);
      state_unlink(state);
      state_free(pool, state);
   }
}

static void
pool_unlink(struct tsr_cmd_tracker *tracker, struct tsr_cmd_pool *pool)
{
   pthread_mutex_lock(&tracker->lock);
   if (pool->prev)
      pool->prev->next = pool->next;
   else
      tracker->pool_list = pool->next;
   if (pool->next)
      pool->next->prev = pool->prev;
   pthread_mutex_unlock(&tracker->lock);
}

void
tsr_cmd_tracker_finish(struct tsr_device *device, struct tsr_cmd_tracker *tracker)
{
   /* Pools the application did not destroy before the device. */
   while (tracker->pool_list) {
      struct tsr_cmd_pool *pool = tracker->pool_list;
      tracker->pool_list = pool->next;
      pool_release_buffers(tracker, pool);
      VkAllocationCallbacks alloc = pool->alloc;
      lyr_free(&alloc, pool);
   }
   lyr_map_finish(&tracker->buffers);
   lyr_map_finish(&tracker->pools);
   pthread_mutex_destroy(&tracker->lock);
}

struct tsr_cmd_state *
tsr_cmd_state_get(struct tsr_device *device, VkCommandBuffer cmd)
{
   struct tsr_cmd_tracker *tracker = tracker_of(device);
   return tracker ? lyr_map_lookup(&tracker->buffers, cmd) : NULL;
}

bool
tsr_cmd_state_can_dispatch(const struct tsr_cmd_state *state)
{
   return state && !state->lost && state->pool->compute;
}

static void
state_reset(struct tsr_cmd_state *state)
{
   state->pipeline = VK_NULL_HANDLE;
   state->lost = false;
   for (uint32_t i = 0; i < state->push_words; i++)
      state->push_owners[i].layout = VK_NULL_HANDLE;
   state->push_words = 0;
}

/* Grows the push-constant shadow to at least words words. */
static bool
state_reserve(struct tsr_cmd_state *state, uint32_t words)
{
   if (words <= state->push_capacity)
      return true;
   uint32_t capacity = state->push_capacity ? state->push_capacity : 32;
   while (capacity < words)
      capacity *= 2;
   size_t bytes = (size_t)capacity * (sizeof(uint32_t) + sizeof(struct tsr_push_owner));
   uint32_t *values = lyr_zalloc(&state->pool->alloc, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!values)
      return false;
   /* owners follow the values; capacity is even, so they stay 8-byte aligned */
   struct tsr_push_owner *owners = (struct tsr_push_owner *)(values + capacity);
   if (state->push_words) {
      memcpy(values, state->push_values, state->push_words * sizeof(*values));
      memcpy(owners, state->push_owners, state->push_words * sizeof(*owners));
   }
   lyr_free(&state->pool->alloc, state->push_values);
   state->push_values = values;
   state->push_owners = owners;
   state->push_capacity = capacity;
   return true;
}

void
tsr_cmd_state_restore_compute(struct tsr_device *device, const struct tsr_cmd_state *state,
                              VkCommandBuffer cmd)
{
   if (state->pipeline)
      device->base.next.CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, state->pipeline);
   /* One push per run of words with the same layout and stages: each run was
    * valid for that layout and those stages when the application pushed it. */
   for (uint32_t i = 0; i < state->push_words;) {
      const struct tsr_push_owner *owner = &state->push_owners[i];
      if (!owner->layout) {
         i++;
         continue;
      }
      uint32_t end = i + 1;
      while (end < state->push_words && state->push_owners[end].layout == owner->layout &&
             state->push_owners[end].stages == owner->stages)
         end++;
      device->base.next.CmdPushConstants(cmd, owner->layout, owner->stages, i * 4, (end - i) * 4,
                                         &state->push_values[i]);
      i = end;
   }
}

/* ---- hooks ----------------------------------------------------------- */

VKAPI_ATTR VkResult VKAPI_CALL
tsr_CreateCommandPool(VkDevice _device, const VkCommandPoolCreateInfo *pCreateInfo,
                      const VkAllocationCallbacks *pAllocator, VkCommandPool *pCommandPool)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result =
      device->base.next.CreateCommandPool(_device, pCreateInfo, pAllocator, pCommandPool);
   struct tsr_cmd_tracker *tracker = tracker_of(device);
   if (result != VK_SUCCESS || !tracker)
      return result;

   const VkAllocationCallbacks *alloc = lyr_pick_alloc(&device->base.alloc, pAllocator);
   struct tsr_cmd_pool *pool =
      lyr_zalloc(alloc, sizeof(*pool), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool)
      goto fail;
   pool->handle = *pCommandPool;
   pool->alloc = *alloc;
   uint32_t family = pCreateInfo->queueFamilyIndex;
   pool->compute = family < 32 && (tracker->compute_families & (1u << family));
   if (!lyr_map_insert(&tracker->pools, pool_key(pool->handle), pool)) {
      lyr_free(alloc, pool);
      goto fail;
   }
   pthread_mutex_lock(&tracker->lock);
   pool->next = tracker->pool_list;
   if (pool->next)
      pool->next->prev = pool;
   tracker->pool_list = pool;
   pthread_mutex_unlock(&tracker->lock);
   return VK_SUCCESS;

fail:
   device->base.next.DestroyCommandPool(_device, *pCommandPool, pAllocator);
   *pCommandPool = VK_NULL_HANDLE;
   return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateCommandPool: no memory for its state");
}

VKAPI_ATTR void VKAPI_CALL
tsr_DestroyCommandPool(VkDevice _device, VkCommandPool commandPool,
                       const VkAllocationCallbacks *pAllocator)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_cmd_tracker *tracker = tracker_of(device);
   /* Forget the handle before the driver can hand it out again. */
   struct tsr_cmd_pool *pool =
      tracker && commandPool ? lyr_map_remove(&tracker->pools, pool_key(commandPool)) : NULL;
   if (pool) {
      pool_release_buffers(tracker, pool);
      pool_unlink(tracker, pool);
      VkAllocationCallbacks alloc = pool->alloc;
      lyr_free(&alloc, pool);
   }
   device->base.next.DestroyCommandPool(_device, commandPool, pAllocator);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_ResetCommandPool(VkDevice _device, VkCommandPool commandPool, VkCommandPoolResetFlags flags)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_cmd_tracker *tracker = tracker_of(device);
   struct tsr_cmd_pool *pool =
      tracker ? lyr_map_lookup(&tracker->pools, pool_key(commandPool)) : NULL;
   if (pool) {
      for (struct tsr_cmd_state *s = pool->buffers; s; s = s->next)
         state_reset(s);
   }
   return device->base.next.ResetCommandPool(_device, commandPool, flags);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_AllocateCommandBuffers(VkDevice _device, const VkCommandBufferAllocateInfo *pAllocateInfo,
                           VkCommandBuffer *pCommandBuffers)
{
   struct tsr_device *device = tsr_device_get(_device);
   VkResult result =
      device->base.next.AllocateCommandBuffers(_device, pAllocateInfo, pCommandBuffers);
   struct tsr_cmd_tracker *tracker = tracker_of(device);
   if (result != VK_SUCCESS || !tracker)
      return result;
   struct tsr_cmd_pool *pool =
      lyr_map_lookup(&tracker->pools, pool_key(pAllocateInfo->commandPool));
   if (!pool)
      return result; /* untracked pool: copies in it use buffer copies only */

   uint32_t count = pAllocateInfo->commandBufferCount, done = 0;
   for (; done < count; done++) {
      struct tsr_cmd_state *state =
         lyr_zalloc(&pool->alloc, sizeof(*state), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!state)
         break;
      state->handle = pCommandBuffers[done];
      state->pool = pool;
      if (!lyr_map_insert(&tracker->buffers, state->handle, state)) {
         lyr_free(&pool->alloc, state);
         break;
      }
      state->next = pool->buffers;
      if (state->next)
         state->next->prev = state;
      pool->buffers = state;
   }
   if (done == count)
      return VK_SUCCESS;

   /* Out of memory: undo everything, as vkAllocateCommandBuffers must. */
   for (uint32_t i = 0; i < done; i++) {
      struct tsr_cmd_state *state = lyr_map_remove(&tracker->buffers, pCommandBuffers[i]);
      if (state) {
         state_unlink(state);
         state_free(pool, state);
      }
   }
   device->base.next.FreeCommandBuffers(_device, pAllocateInfo->commandPool, count,
                                        pCommandBuffers);
   for (uint32_t i = 0; i < count; i++)
      pCommandBuffers[i] = VK_NULL_HANDLE;
   return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                    "vkAllocateCommandBuffers: no memory for command buffer state");
}

VKAPI_ATTR void VKAPI_CALL
tsr_FreeCommandBuffers(VkDevice _device, VkCommandPool commandPool, uint32_t commandBufferCount,
                       const VkCommandBuffer *pCommandBuffers)
{
   struct tsr_device *device = tsr_device_get(_device);
   struct tsr_cmd_tracker *tracker = tracker_of(device);
   for (uint32_t i = 0; tracker && i < commandBufferCount; i++) {
      if (!pCommandBuffers[i])
         continue;
      struct tsr_cmd_state *state = lyr_map_remove(&tracker->buffers, pCommandBuffers[i]);
      if (state) {
         struct tsr_cmd_pool *pool = state->pool;
         state_unlink(state);
         state_free(pool, state);
      }
   }
   device->base.next.FreeCommandBuffers(_device, commandPool, commandBufferCount, pCommandBuffers);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_BeginCommandBuffer(VkCommandBuffer commandBuffer, const VkCommandBufferBeginInfo *pBeginInfo)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   struct tsr_cmd_state *state = tsr_cmd_state_get(device, commandBuffer);
   if (state)
      state_reset(state);
   return device->base.next.BeginCommandBuffer(commandBuffer, pBeginInfo);
}

VKAPI_ATTR VkResult VKAPI_CALL
tsr_ResetCommandBuffer(VkCommandBuffer commandBuffer, VkCommandBufferResetFlags flags)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   struct tsr_cmd_state *state = tsr_cmd_state_get(device, commandBuffer);
   if (state)
      state_reset(state);
   return device->base.next.ResetCommandBuffer(commandBuffer, flags);
}

VKAPI_ATTR void VKAPI_CALL
tsr_CmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                    VkPipeline pipeline)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   if (pipelineBindPoint == VK_PIPELINE_BIND_POINT_COMPUTE) {
      struct tsr_cmd_state *state = tsr_cmd_state_get(device, commandBuffer);
      if (state)
         state->pipeline = pipeline;
   }
   device->base.next.CmdBindPipeline(commandBuffer, pipelineBindPoint, pipeline);
}

static void
record_push(struct tsr_cmd_state *state, uint32_t limit, VkPipelineLayout layout,
            VkShaderStageFlags stages, uint32_t offset, uint32_t size, const void *values)
{
   if (state->lost)
      return;
   /* VUID-vkCmdPushConstants-offset-00368, -size-00369, -offset-00370, -size-00371:
    * multiples of 4, within maxPushConstantsSize. */
   if (offset % 4 || size % 4 || !values || offset >= limit || size > limit - offset) {
      lyr_logw("vkCmdPushConstants: offset %u, size %u invalid (maxPushConstantsSize %u); the "
               "compute state of this command buffer is no longer tracked",
               offset, size, limit);
      state->lost = true;
      return;
   }
   uint32_t first = offset / 4, end = (offset + size) / 4;
   if (!state_reserve(state, end)) {
      lyr_logw("vkCmdPushConstants: out of memory; tensor copies in this command buffer use "
               "buffer copies only");
      state->lost = true;
      return;
   }
   memcpy(&state->push_values[first], values, size);
   for (uint32_t i = first; i < end; i++)
      state->push_owners[i] = (struct tsr_push_owner){layout, stages};
   if (end > state->push_words)
      state->push_words = end;
}

VKAPI_ATTR void VKAPI_CALL
tsr_CmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout layout,
                     VkShaderStageFlags stageFlags, uint32_t offset, uint32_t size,
                     const void *pValues)
{
   struct tsr_device *device = tsr_device_get(commandBuffer);
   if (stageFlags & VK_SHADER_STAGE_COMPUTE_BIT) {
      struct tsr_cmd_state *state = tsr_cmd_state_get(device, commandBuffer);
      if (state)
         record_push(state, device->limits.maxPushConstantsSize, layout, stageFlags, offset,
                     size, pValues);
   }
   device->base.next.CmdPushConstants(commandBuffer, layout, stageFlags, offset, size, pValues);
}
