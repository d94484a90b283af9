/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The application's compute state per command buffer (lyr_cmd.h): command
 * pools and the states of their command buffers, the compute pipeline, the
 * vkCmdBindDescriptorSets calls at the compute bind point that still own a set
 * index, and the push-constant words (of every stage: a device may keep one set
 * for all stages; pushes with compute and without kept apart, restored
 * graphics first); and putting them back after a layer's own compute work.
 *
 * Descriptor sets are kept as calls, not as sets: a call owns a set index
 * until a later call binds that index, and a call that owns none is dropped,
 * so at most LYR_CMD_MAX_SETS calls are kept. Replaying the kept calls in
 * their order, each with its own layout, sets and dynamic offsets, is exact
 * without knowing the set layouts (dynamic offsets cannot be split per set).
 *
 * Memory: a state, its push-constant shadow and its descriptor-set calls are
 * allocated with the pool's allocator at first use and kept, with their
 * capacity, across resets, so recording a command buffer again allocates
 * nothing.
 *
 * Not tracked: vkCmdPushConstants2KHR, vkCmdBindDescriptorSets2KHR, push
 * descriptors, descriptor buffers and vkCmdBindShadersEXT; a command buffer
 * that used them gets back the state that was tracked.
 */
#include "lyr_cmd.h"

enum { LYR_CMD_PUSH_COMPUTE, LYR_CMD_PUSH_GRAPHICS, LYR_CMD_PUSH_PLANES };

/* Who last pushed a push-constant word. */
struct lyr_cmd_push_owner {
   VkPipelineLayout layout; /* VK_NULL_HANDLE: never pushed since the last reset */
   VkShaderStageFlags stages;
};

/* A vkCmdBindDescriptorSets call at the compute bind point; its sets and
 * dynamic offsets follow those of the calls before it in the state's arrays. */
struct lyr_cmd_bind {
   VkPipelineLayout layout;
   uint32_t first_set;
   uint32_t set_count;
   uint32_t owned; /* bit i: no later call bound set index i */
   uint32_t dynamic_count;
};

/* Attached to VkCommandPool. */
struct lyr_cmd_pool {
   VkCommandPool handle;
   VkAllocationCallbacks alloc;      /* the pool's allocator: its command buffers use it */
   bool compute;                     /* its queue family supports compute */
   uint32_t family;                  /* its queue family */
   struct lyr_cmd_state *buffers;    /* list of its command buffers' states */
   struct lyr_cmd_pool *prev, *next; /* lyr_cmd_tracker::pool_list */
};

/* Attached to VkCommandBuffer. */
struct lyr_cmd_state {
   VkCommandBuffer handle;
   struct lyr_cmd_pool *pool;
   struct lyr_cmd_state *prev, *next; /* lyr_cmd_pool::buffers */
   void *layer_data;                  /* the layer's own (lyr_cmd_tracker::reset_layer_data) */
   VkPipeline pipeline;               /* bound at VK_PIPELINE_BIND_POINT_COMPUTE, or null */
   bool lost;                         /* a call could not be tracked: no compute work here */
   VkResult lost_result;              /* OUT_OF_HOST_MEMORY when lost for lack of memory */
   VkResult result;                   /* the first error a hook recorded (lyr_cmd_state_fail) */

   /* Push-constant words in two planes of push_capacity words each: plane
    * LYR_CMD_PUSH_COMPUTE holds pushes whose stages include compute, plane
    * LYR_CMD_PUSH_GRAPHICS the others (restored first, so compute's win where a
    * device keeps one set of words for all stages). */
   uint32_t push_words;                /* words [0, push_words) may have been pushed */
   uint32_t push_capacity;             /* words allocated per plane */
   uint32_t *push_values;              /* both planes' words, as last pushed */
   struct lyr_cmd_push_owner *push_owners; /* who pushed each word (same allocation) */

   uint32_t bind_count;      /* calls in binds[], oldest first */
   uint32_t set_count;       /* sets in sets[]: the calls' sets, concatenated */
   uint32_t offset_count;    /* offsets in offsets[]: their dynamic offsets, concatenated */
   uint32_t set_capacity;    /* sets allocated */
   uint32_t offset_capacity; /* offsets allocated */
   struct lyr_cmd_bind *binds; /* LYR_CMD_MAX_SETS calls, then sets[], then offsets[] */
   VkDescriptorSet *sets;
   uint32_t *offsets;
};

/* Growth stops here: a call asking for more is invalid usage, not tracked. */
#define LYR_CMD_MAX_CAPACITY (1u << 20)

/* Non-dispatchable handles are 64-bit values; the maps key pointers (64-bit here). */
static inline const void *
pool_key(VkCommandPool pool)
{
   return (const void *)(uintptr_t)pool;
}

/* Set indices [first, first + count), count <= LYR_CMD_MAX_SETS - first. */
static inline uint32_t
set_range(uint32_t first, uint32_t count)
{
   return (uint32_t)((((uint64_t)1 << count) - 1) << first);
}

VkResult
lyr_cmd_tracker_init(struct lyr_device *device, struct lyr_cmd_tracker *tracker)
{
   memset(tracker, 0, sizeof(*tracker));
   tracker->device = device;
   struct lyr_instance *instance = device->instance;

   VkQueueFamilyProperties families[32];
   uint32_t count = 0;
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->physical_device, &count, NULL);
   if (count > LYR_ARRAY_SIZE(families))
      count = LYR_ARRAY_SIZE(families);
   instance->next.GetPhysicalDeviceQueueFamilyProperties(device->physical_device, &count,
                                                         families);
   for (uint32_t i = 0; i < count; i++) {
      if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
         tracker->compute_families |= 1u << i;
   }
   VkPhysicalDeviceProperties props;
   instance->next.GetPhysicalDeviceProperties(device->physical_device, &props);
   tracker->max_push_constants_size = props.limits.maxPushConstantsSize;

   lyr_map_init(&tracker->pools);
   lyr_map_init(&tracker->buffers);
   pthread_mutex_init(&tracker->lock, NULL);
   return VK_SUCCESS;
}

/* ---- states -------------------------------------------------------------- */

static void
state_reset(struct lyr_cmd_tracker *tracker, struct lyr_cmd_state *state)
{
   if (state->layer_data && tracker->reset_layer_data)
      tracker->reset_layer_data(tracker->device, state, false);
   state->pipeline = VK_NULL_HANDLE;
   state->lost = false;
   state->lost_result = VK_SUCCESS;
   state->result = VK_SUCCESS;
   for (uint32_t p = 0; p < LYR_CMD_PUSH_PLANES; p++)
      for (uint32_t i = 0; i < state->push_words; i++)
         state->push_owners[p * state->push_capacity + i].layout = VK_NULL_HANDLE;
   state->push_words = 0;
   state->bind_count = 0;
   state->set_count = 0;
   state->offset_count = 0;
}

/* Frees a state that is already out of the map and its pool's list. */
static void
state_free(struct lyr_cmd_tracker *tracker, struct lyr_cmd_state *state)
{
   if (state->layer_data && tracker->reset_layer_data)
      tracker->reset_layer_data(tracker->device, state, true);
   const VkAllocationCallbacks *alloc = &state->pool->alloc;
   lyr_free(alloc, state->push_values);
   lyr_free(alloc, state->binds);
   lyr_free(alloc, state);
}

static void
state_unlink(struct lyr_cmd_state *state)
{
   struct lyr_cmd_pool *pool = state->pool;
   if (state->prev)
      state->prev->next = state->next;
   else
      pool->buffers = state->next;
   if (state->next)
      state->next->prev = state->prev;
   state->prev = state->next = NULL;
}

/* Forgets the pool's command buffers; frees nothing of the pool. */
static void
pool_release_buffers(struct lyr_cmd_tracker *tracker, struct lyr_cmd_pool *pool)
{
   while (pool->buffers) {
      struct lyr_cmd_state *state = pool->buffers;
      lyr_map_remove(&tracker->buffers, state->handle);
      state_unlink(state);
      state_free(tracker, state);
   }
}

static void
pool_unlink(struct lyr_cmd_tracker *tracker, struct lyr_cmd_pool *pool)
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
lyr_cmd_tracker_finish(struct lyr_cmd_tracker *tracker)
{
   /* Pools the application did not destroy before the device. */
   while (tracker->pool_list) {
      struct lyr_cmd_pool *pool = tracker->pool_list;
      tracker->pool_list = pool->next;
      pool_release_buffers(tracker, pool);
      VkAllocationCallbacks alloc = pool->alloc;
      lyr_free(&alloc, pool);
   }
   lyr_map_finish(&tracker->buffers);
   lyr_map_finish(&tracker->pools);
   pthread_mutex_destroy(&tracker->lock);
}

struct lyr_cmd_state *
lyr_cmd_state_get(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd)
{
   return cmd ? lyr_map_lookup(&tracker->buffers, cmd) : NULL;
}

void *
lyr_cmd_state_layer_data(const struct lyr_cmd_state *state)
{
   return state->layer_data;
}

void
lyr_cmd_state_set_layer_data(struct lyr_cmd_state *state, void *data)
{
   state->layer_data = data;
}

bool
lyr_cmd_state_can_dispatch(const struct lyr_cmd_state *state)
{
   return state && !state->lost && state->pool->compute;
}

VkResult
lyr_cmd_state_lost_result(const struct lyr_cmd_state *state)
{
   return state && state->lost ? state->lost_result : VK_SUCCESS;
}

void
lyr_cmd_state_fail(struct lyr_cmd_state *state, VkResult result)
{
   if (state && state->result == VK_SUCCESS && result < 0)
      state->result = result;
}

void
lyr_cmd_fail(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd, VkResult result)
{
   lyr_cmd_state_fail(lyr_cmd_state_get(tracker, cmd), result);
}

VkResult
lyr_cmd_state_result(const struct lyr_cmd_state *state)
{
   return state ? state->result : VK_SUCCESS;
}

uint32_t
lyr_cmd_state_queue_family(const struct lyr_cmd_state *state)
{
   return state->pool->family;
}

/* A capacity of at least need, doubling from at least start; 0 when need is
 * beyond LYR_CMD_MAX_CAPACITY. */
static uint32_t
grow_capacity(uint32_t capacity, uint32_t start, uint32_t need)
{
   if (need > LYR_CMD_MAX_CAPACITY)
      return 0;
   if (capacity < start)
      capacity = start;
   while (capacity < need)
      capacity *= 2;
   return capacity;
}

/* Grows the push-constant shadow to at least words words. */
static bool
push_reserve(struct lyr_cmd_state *state, uint32_t words)
{
   if (words <= state->push_capacity)
      return true;
   uint32_t capacity = grow_capacity(state->push_capacity, 32, words);
   if (!capacity)
      return false;
   size_t bytes = (size_t)capacity * LYR_CMD_PUSH_PLANES *
                  (sizeof(uint32_t) + sizeof(struct lyr_cmd_push_owner));
   uint32_t *values = lyr_zalloc(&state->pool->alloc, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!values)
      return false;
   /* owners follow the values; capacity is even, so they stay 8-byte aligned */
   struct lyr_cmd_push_owner *owners =
      (struct lyr_cmd_push_owner *)(values + LYR_CMD_PUSH_PLANES * capacity);
   for (uint32_t p = 0; state->push_words && p < LYR_CMD_PUSH_PLANES; p++) {
      memcpy(values + p * capacity, state->push_values + p * state->push_capacity,
             state->push_words * sizeof(*values));
      memcpy(owners + p * capacity, state->push_owners + p * state->push_capacity,
             state->push_words * sizeof(*owners));
   }
   lyr_free(&state->pool->alloc, state->push_values);
   state->push_values = values;
   state->push_owners = owners;
   state->push_capacity = capacity;
   return true;
}

/* Room for sets and offsets in all (the calls kept so far included). */
static bool
bind_reserve(struct lyr_cmd_state *state, uint32_t sets, uint32_t offsets)
{
   if (state->binds && sets <= state->set_capacity && offsets <= state->offset_capacity)
      return true;
   uint32_t set_capacity = grow_capacity(state->set_capacity, 8, sets);
   uint32_t offset_capacity = grow_capacity(state->offset_capacity, 8, offsets);
   if (!set_capacity || !offset_capacity)
      return false;
   size_t bytes = LYR_CMD_MAX_SETS * sizeof(struct lyr_cmd_bind) +
                  (size_t)set_capacity * sizeof(VkDescriptorSet) +
                  (size_t)offset_capacity * sizeof(uint32_t);
   struct lyr_cmd_bind *binds =
      lyr_alloc(&state->pool->alloc, bytes, 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!binds)
      return false;
   /* sets follow the calls (8-byte multiples), offsets follow the sets */
   VkDescriptorSet *new_sets = (VkDescriptorSet *)(binds + LYR_CMD_MAX_SETS);
   uint32_t *new_offsets = (uint32_t *)(new_sets + set_capacity);
   if (state->binds) {
      memcpy(binds, state->binds, state->bind_count * sizeof(*binds));
      memcpy(new_sets, state->sets, state->set_count * sizeof(*new_sets));
      memcpy(new_offsets, state->offsets, state->offset_count * sizeof(*new_offsets));
      lyr_free(&state->pool->alloc, state->binds);
   }
   state->binds = binds;
   state->sets = new_sets;
   state->offsets = new_offsets;
   state->set_capacity = set_capacity;
   state->offset_capacity = offset_capacity;
   return true;
}

/* Takes the indices in range from the kept calls and drops the calls left
 * owning none, moving the sets and offsets of the others down. */
static void
bind_disown(struct lyr_cmd_state *state, uint32_t range)
{
   uint32_t kept = 0, sets = 0, offsets = 0; /* written */
   uint32_t set_at = 0, offset_at = 0;       /* read */
   for (uint32_t i = 0; i < state->bind_count; i++) {
      struct lyr_cmd_bind b = state->binds[i];
      b.owned &= ~range;
      if (b.owned) {
         if (sets != set_at)
            memmove(&state->sets[sets], &state->sets[set_at], b.set_count * sizeof(*state->sets));
         if (offsets != offset_at && b.dynamic_count)
            memmove(&state->offsets[offsets], &state->offsets[offset_at],
                    b.dynamic_count * sizeof(*state->offsets));
         state->binds[kept++] = b;
         sets += b.set_count;
         offsets += b.dynamic_count;
      }
      set_at += b.set_count;
      offset_at += b.dynamic_count;
   }
   state->bind_count = kept;
   state->set_count = sets;
   state->offset_count = offsets;
}

/* ---- restore ------------------------------------------------------------- */

/* Replays the kept calls that own a disturbed index, and every later call that
 * owns an index one of those binds (so that the replay does not leave an
 * earlier call's set where a later one's was). Earlier calls never own an
 * index a later call binds, so one pass in order is enough. */
static void
restore_sets(struct lyr_cmd_tracker *tracker, const struct lyr_cmd_state *state,
             VkCommandBuffer cmd, uint32_t mask)
{
   uint32_t set_at = 0, offset_at = 0;
   for (uint32_t i = 0; i < state->bind_count; i++) {
      const struct lyr_cmd_bind *b = &state->binds[i];
      if (b->owned & mask) {
         tracker->device->next.CmdBindDescriptorSets(
            cmd, VK_PIPELINE_BIND_POINT_COMPUTE, b->layout, b->first_set, b->set_count,
            &state->sets[set_at], b->dynamic_count,
            b->dynamic_count ? &state->offsets[offset_at] : NULL);
         mask |= set_range(b->first_set, b->set_count);
      }
      set_at += b->set_count;
      offset_at += b->dynamic_count;
   }
}

/* One push per run of words with the same layout and stages: each run was
 * valid for that layout and those stages when the application pushed it. The
 * graphics plane first: where a device keeps one set of words for every stage,
 * a layer's compute push overwrote the graphics stages' words too. */
static void
restore_push_constants(struct lyr_cmd_tracker *tracker, const struct lyr_cmd_state *state,
                       VkCommandBuffer cmd)
{
   static const uint32_t order[] = {LYR_CMD_PUSH_GRAPHICS, LYR_CMD_PUSH_COMPUTE};
   for (uint32_t p = 0; p < LYR_ARRAY_SIZE(order); p++) {
      const uint32_t *values = state->push_values + order[p] * state->push_capacity;
      const struct lyr_cmd_push_owner *owners =
         state->push_owners + order[p] * state->push_capacity;
      for (uint32_t i = 0; i < state->push_words;) {
         const struct lyr_cmd_push_owner *owner = &owners[i];
         if (!owner->layout) {
            i++;
            continue;
         }
         uint32_t end = i + 1;
         while (end < state->push_words && owners[end].layout == owner->layout &&
                owners[end].stages == owner->stages)
            end++;
         tracker->device->next.CmdPushConstants(cmd, owner->layout, owner->stages, i * 4,
                                                (end - i) * 4, &values[i]);
         i = end;
      }
   }
}

void
lyr_cmd_state_restore_compute(struct lyr_cmd_tracker *tracker,
                              const struct lyr_cmd_state *state, VkCommandBuffer cmd,
                              const struct lyr_cmd_disturbed *disturbed)
{
   if (!state)
      return;
   /* Binding a pipeline disturbs no set and no push constant. */
   if (disturbed->pipeline && state->pipeline)
      tracker->device->next.CmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE,
                                            state->pipeline);
   if (disturbed->set_mask)
      restore_sets(tracker, state, cmd, disturbed->set_mask);
   /* Last: binding sets with a layout of other push-constant ranges disturbs them. */
   if (disturbed->push_constants)
      restore_push_constants(tracker, state, cmd);
}

/* ---- hooks' work ----------------------------------------------------------- */

VkResult
lyr_cmd_CreateCommandPool(struct lyr_cmd_tracker *tracker, const VkCommandPoolCreateInfo *info,
                          const VkAllocationCallbacks *alloc, VkCommandPool handle)
{
   alloc = lyr_pick_alloc(&tracker->device->alloc, alloc);
   struct lyr_cmd_pool *pool =
      lyr_zalloc(alloc, sizeof(*pool), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
   if (!pool)
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateCommandPool: no memory for its state");
   pool->handle = handle;
   pool->alloc = *alloc;
   uint32_t family = info->queueFamilyIndex;
   pool->compute = family < 32 && (tracker->compute_families & (1u << family));
   pool->family = family;
   if (!lyr_map_insert(&tracker->pools, pool_key(handle), pool)) {
      lyr_free(alloc, pool);
      return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY, "vkCreateCommandPool: no memory for its state");
   }
   pthread_mutex_lock(&tracker->lock);
   pool->next = tracker->pool_list;
   if (pool->next)
      pool->next->prev = pool;
   tracker->pool_list = pool;
   pthread_mutex_unlock(&tracker->lock);
   return VK_SUCCESS;
}

void
lyr_cmd_DestroyCommandPool(struct lyr_cmd_tracker *tracker, VkCommandPool handle)
{
   /* Forget the handle before the driver can hand it out again. */
   struct lyr_cmd_pool *pool = handle ? lyr_map_remove(&tracker->pools, pool_key(handle)) : NULL;
   if (!pool)
      return;
   pool_release_buffers(tracker, pool);
   pool_unlink(tracker, pool);
   VkAllocationCallbacks alloc = pool->alloc;
   lyr_free(&alloc, pool);
}

void
lyr_cmd_ResetCommandPool(struct lyr_cmd_tracker *tracker, VkCommandPool handle)
{
   struct lyr_cmd_pool *pool = handle ? lyr_map_lookup(&tracker->pools, pool_key(handle)) : NULL;
   if (!pool)
      return;
   for (struct lyr_cmd_state *s = pool->buffers; s; s = s->next)
      state_reset(tracker, s);
}

VkResult
lyr_cmd_AllocateCommandBuffers(struct lyr_cmd_tracker *tracker,
                               const VkCommandBufferAllocateInfo *info, VkCommandBuffer *buffers)
{
   struct lyr_cmd_pool *pool = lyr_map_lookup(&tracker->pools, pool_key(info->commandPool));
   if (!pool)
      return VK_SUCCESS; /* untracked pool: the layer records no compute work there */

   uint32_t count = info->commandBufferCount, done = 0;
   for (; done < count; done++) {
      struct lyr_cmd_state *state =
         lyr_zalloc(&pool->alloc, sizeof(*state), 8, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
      if (!state)
         break;
      state->handle = buffers[done];
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
      struct lyr_cmd_state *state = lyr_map_remove(&tracker->buffers, buffers[i]);
      if (state) {
         state_unlink(state);
         state_free(tracker, state);
      }
   }
   /* Nothing is left tracked: free them below too and return null handles. */
   tracker->device->next.FreeCommandBuffers(tracker->device->handle, info->commandPool, count,
                                            buffers);
   for (uint32_t i = 0; i < count; i++)
      buffers[i] = VK_NULL_HANDLE;
   return lyr_error(VK_ERROR_OUT_OF_HOST_MEMORY,
                    "vkAllocateCommandBuffers: no memory for command buffer state");
}

void
lyr_cmd_FreeCommandBuffers(struct lyr_cmd_tracker *tracker, uint32_t count,
                           const VkCommandBuffer *buffers)
{
   for (uint32_t i = 0; i < count; i++) {
      if (!buffers[i])
         continue;
      struct lyr_cmd_state *state = lyr_map_remove(&tracker->buffers, buffers[i]);
      if (state) {
         state_unlink(state);
         state_free(tracker, state);
      }
   }
}

void
lyr_cmd_ResetCommandBuffer(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd)
{
   struct lyr_cmd_state *state = lyr_cmd_state_get(tracker, cmd);
   if (state)
      state_reset(tracker, state);
}

VkResult
lyr_cmd_EndCommandBuffer(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd, VkResult result)
{
   struct lyr_cmd_state *state = lyr_cmd_state_get(tracker, cmd);
   if (!state || state->result == VK_SUCCESS)
      return result;
   return lyr_error(state->result, "vkEndCommandBuffer: a command could not be recorded (see "
                                   "the error logged when it was); the command buffer is invalid");
}

void
lyr_cmd_BindPipeline(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                     VkPipelineBindPoint bind_point, VkPipeline pipeline)
{
   if (bind_point != VK_PIPELINE_BIND_POINT_COMPUTE)
      return;
   struct lyr_cmd_state *state = lyr_cmd_state_get(tracker, cmd);
   if (state)
      state->pipeline = pipeline;
}

void
lyr_cmd_BindDescriptorSets(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                           VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                           uint32_t first_set, uint32_t count, const VkDescriptorSet *sets,
                           uint32_t dynamic_offset_count, const uint32_t *dynamic_offsets)
{
   if (bind_point != VK_PIPELINE_BIND_POINT_COMPUTE)
      return;
   struct lyr_cmd_state *state = lyr_cmd_state_get(tracker, cmd);
   if (!state || state->lost || count == 0)
      return;
   /* VUID-vkCmdBindDescriptorSets-firstSet-00360 bounds the sets by
    * maxBoundDescriptorSets; the masks here hold LYR_CMD_MAX_SETS. */
   if (first_set >= LYR_CMD_MAX_SETS || count > LYR_CMD_MAX_SETS - first_set || !sets ||
       (dynamic_offset_count && !dynamic_offsets)) {
      lyr_logw("vkCmdBindDescriptorSets: sets [%u, %u + %u) beyond %u or arrays missing; the "
               "compute state of this command buffer is no longer tracked",
               first_set, first_set, count, LYR_CMD_MAX_SETS);
      state->lost = true;
      return;
   }
   const uint32_t range = set_range(first_set, count);
   bind_disown(state, range);
   /* At most LYR_CMD_MAX_SETS - 1 calls own another index now: binds[] has room. */
   if (dynamic_offset_count > LYR_CMD_MAX_CAPACITY ||
       !bind_reserve(state, state->set_count + count, state->offset_count + dynamic_offset_count)) {
      lyr_logw("vkCmdBindDescriptorSets: out of memory; the layer records no compute work into "
               "this command buffer");
      state->lost = true;
      state->lost_result = VK_ERROR_OUT_OF_HOST_MEMORY;
      return;
   }
   state->binds[state->bind_count++] = (struct lyr_cmd_bind){
      .layout = layout,
      .first_set = first_set,
      .set_count = count,
      .owned = range,
      .dynamic_count = dynamic_offset_count,
   };
   memcpy(&state->sets[state->set_count], sets, count * sizeof(*sets));
   state->set_count += count;
   if (dynamic_offset_count) {
      memcpy(&state->offsets[state->offset_count], dynamic_offsets,
             dynamic_offset_count * sizeof(*dynamic_offsets));
      state->offset_count += dynamic_offset_count;
   }
}

void
lyr_cmd_PushConstants(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                      VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset,
                      uint32_t size, const void *values)
{
   /* Every stage's words, not only compute's: a layer's compute push overwrites the
    * graphics stages' words too where the device keeps one set of words for all stages
    * (lavapipe does; e2e.test_tensor_graphics pushes, copies a tensor by kernel, draws).
    * Pushes with and without compute go to separate planes (lyr_cmd_state). */
   struct lyr_cmd_state *state = lyr_cmd_state_get(tracker, cmd);
   if (!state || state->lost)
      return;
   /* VUID-vkCmdPushConstants-offset-00368, -size-00369, -offset-00370, -size-00371:
    * multiples of 4, within maxPushConstantsSize. */
   const uint32_t limit = tracker->max_push_constants_size;
   if (offset % 4 || size % 4 || !values || offset >= limit || size > limit - offset) {
      lyr_logw("vkCmdPushConstants: offset %u, size %u invalid (maxPushConstantsSize %u); the "
               "compute state of this command buffer is no longer tracked",
               offset, size, limit);
      state->lost = true;
      return;
   }
   uint32_t first = offset / 4, end = (offset + size) / 4;
   if (!push_reserve(state, end)) {
      lyr_logw("vkCmdPushConstants: out of memory; the layer records no compute work into this "
               "command buffer");
      state->lost = true;
      state->lost_result = VK_ERROR_OUT_OF_HOST_MEMORY;
      return;
   }
   const uint32_t plane = (stages & VK_SHADER_STAGE_COMPUTE_BIT) ? LYR_CMD_PUSH_COMPUTE
                                                                 : LYR_CMD_PUSH_GRAPHICS;
   memcpy(&state->push_values[plane * state->push_capacity + first], values, size);
   for (uint32_t i = first; i < end; i++)
      state->push_owners[plane * state->push_capacity + i] =
         (struct lyr_cmd_push_owner){layout, stages};
   if (end > state->push_words)
      state->push_words = end;
}
