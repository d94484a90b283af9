/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The per-command-buffer compute-state tracker (layers/lyr_cmd.c) without a
 * Vulkan device: fake handles, a fake struct lyr_device whose next functions
 * record what the restore calls down, and a counting allocator that can fail.
 * Pools and buffers lifecycle, restore of the pipeline, push constants and
 * descriptor sets (replay order, ownership, dynamic offsets), untracked
 * buffers, the layer_data callback, no allocation on the warm path, and
 * out-of-memory handling.
 */
#include "lyr_cmd.h"
#include "test.h"

TEST_MAIN_STATE;

#define H(type, value) ((type)(uintptr_t)(value))

/* ---- fake device --------------------------------------------------------- */

enum call_kind {
   CALL_PIPELINE,
   CALL_SETS,
   CALL_PUSH,
};

struct call {
   enum call_kind kind;
   VkCommandBuffer cmd;
   VkPipelineBindPoint bind_point;
   VkPipeline pipeline;
   VkPipelineLayout layout;
   uint32_t first_set, set_count;
   VkDescriptorSet sets[LYR_CMD_MAX_SETS];
   uint32_t dynamic_count;
   uint32_t dynamic[16];
   VkShaderStageFlags stages;
   uint32_t offset, size;
   uint32_t words[32];
};

static struct call calls[64];
static unsigned call_count;

static struct call *
next_call(enum call_kind kind, VkCommandBuffer cmd)
{
   if (call_count == LYR_ARRAY_SIZE(calls))
      abort();
   struct call *c = &calls[call_count++];
   memset(c, 0, sizeof(*c));
   c->kind = kind;
   c->cmd = cmd;
   return c;
}

static VKAPI_ATTR void VKAPI_CALL
fake_CmdBindPipeline(VkCommandBuffer cmd, VkPipelineBindPoint bind_point, VkPipeline pipeline)
{
   struct call *c = next_call(CALL_PIPELINE, cmd);
   c->bind_point = bind_point;
   c->pipeline = pipeline;
}

static VKAPI_ATTR void VKAPI_CALL
fake_CmdBindDescriptorSets(VkCommandBuffer cmd, VkPipelineBindPoint bind_point,
                           VkPipelineLayout layout, uint32_t first_set, uint32_t set_count,
                           const VkDescriptorSet *sets, uint32_t dynamic_count,
                           const uint32_t *dynamic)
{
   struct call *c = next_call(CALL_SETS, cmd);
   c->bind_point = bind_point;
   c->layout = layout;
   c->first_set = first_set;
   c->set_count = set_count;
   if (set_count <= LYR_CMD_MAX_SETS)
      memcpy(c->sets, sets, set_count * sizeof(*sets));
   c->dynamic_count = dynamic_count;
   if (dynamic_count <= LYR_ARRAY_SIZE(c->dynamic) && dynamic_count)
      memcpy(c->dynamic, dynamic, dynamic_count * sizeof(*dynamic));
   if (dynamic_count && !dynamic)
      c->dynamic_count = UINT32_MAX; /* caught by the checks */
}

/* Command buffers freed below (an allocation whose state could not be made). */
static uint32_t freed_below;

static VKAPI_ATTR void VKAPI_CALL
fake_FreeCommandBuffers(VkDevice dev, VkCommandPool pool, uint32_t count,
                        const VkCommandBuffer *buffers)
{
   (void)dev;
   (void)pool;
   (void)buffers;
   freed_below += count;
}

static VKAPI_ATTR void VKAPI_CALL
fake_CmdPushConstants(VkCommandBuffer cmd, VkPipelineLayout layout, VkShaderStageFlags stages,
                      uint32_t offset, uint32_t size, const void *values)
{
   struct call *c = next_call(CALL_PUSH, cmd);
   c->layout = layout;
   c->stages = stages;
   c->offset = offset;
   c->size = size;
   if (size <= sizeof(c->words))
      memcpy(c->words, values, size);
}

/* Family 0: graphics and compute; 1: transfer only; 2: compute only. */
static VKAPI_ATTR void VKAPI_CALL
fake_GetPhysicalDeviceQueueFamilyProperties(VkPhysicalDevice physical_device, uint32_t *count,
                                            VkQueueFamilyProperties *props)
{
   (void)physical_device;
   static const VkQueueFlags flags[] = {
      VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT,
      VK_QUEUE_TRANSFER_BIT,
      VK_QUEUE_COMPUTE_BIT,
   };
   if (!props) {
      *count = LYR_ARRAY_SIZE(flags);
      return;
   }
   if (*count > LYR_ARRAY_SIZE(flags))
      *count = LYR_ARRAY_SIZE(flags);
   for (uint32_t i = 0; i < *count; i++)
      props[i] = (VkQueueFamilyProperties){.queueFlags = flags[i], .queueCount = 1};
}

static VKAPI_ATTR void VKAPI_CALL
fake_GetPhysicalDeviceProperties(VkPhysicalDevice physical_device,
                                 VkPhysicalDeviceProperties *props)
{
   (void)physical_device;
   memset(props, 0, sizeof(*props));
   props->limits.maxPushConstantsSize = 128;
}

/* ---- layer_data callback ---------------------------------------------- */

struct reset_record {
   struct lyr_cmd_state *state;
   void *data;
   bool freeing;
};

static struct reset_record resets[16];
static unsigned reset_count;
static struct lyr_device *reset_device;

static void
fake_reset_layer_data(struct lyr_device *device, struct lyr_cmd_state *state, bool freeing)
{
   reset_device = device;
   if (reset_count < LYR_ARRAY_SIZE(resets))
      resets[reset_count] = (struct reset_record){state, lyr_cmd_state_layer_data(state), freeing};
   reset_count++;
}

/* ---- counting allocator ---------------------------------------------------- */

struct counter {
   unsigned allocs, frees;
   int fail_after; /* allocations that still succeed; -1: all */
};

static void *VKAPI_CALL
count_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)scope;
   struct counter *c = user;
   if (c->fail_after == 0)
      return NULL;
   if (c->fail_after > 0)
      c->fail_after--;
   c->allocs++;
   return aligned_alloc(align, (size + align - 1) / align * align);
}

static void *VKAPI_CALL
count_realloc(void *user, void *p, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)user;
   (void)p;
   (void)size;
   (void)align;
   (void)scope;
   abort(); /* not used by the tracker */
}

static void VKAPI_CALL
count_free(void *user, void *p)
{
   struct counter *c = user;
   if (p)
      c->frees++;
   free(p);
}

static VkAllocationCallbacks
counting_alloc(struct counter *c)
{
   return (VkAllocationCallbacks){
      .pUserData = c,
      .pfnAllocation = count_alloc,
      .pfnReallocation = count_realloc,
      .pfnFree = count_free,
   };
}

/* ---- helpers ----------------------------------------------------------------- */

static struct lyr_instance instance;
static struct lyr_device device;
static struct counter device_counter = {.fail_after = -1};

static void
fake_device_init(void)
{
   instance.next.GetPhysicalDeviceQueueFamilyProperties =
      fake_GetPhysicalDeviceQueueFamilyProperties;
   instance.next.GetPhysicalDeviceProperties = fake_GetPhysicalDeviceProperties;
   device.instance = &instance;
   device.physical_device = H(VkPhysicalDevice, 0x10);
   device.handle = H(VkDevice, 0x20);
   device.alloc = counting_alloc(&device_counter);
   device.next.CmdBindPipeline = fake_CmdBindPipeline;
   device.next.CmdBindDescriptorSets = fake_CmdBindDescriptorSets;
   device.next.CmdPushConstants = fake_CmdPushConstants;
   device.next.FreeCommandBuffers = fake_FreeCommandBuffers;
}

static VkResult
create_pool(struct lyr_cmd_tracker *t, VkCommandPool pool, uint32_t family,
            const VkAllocationCallbacks *alloc)
{
   VkCommandPoolCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = family,
   };
   return lyr_cmd_CreateCommandPool(t, &info, alloc, pool);
}

static VkResult
allocate_into(struct lyr_cmd_tracker *t, VkCommandPool pool, uint32_t count,
              VkCommandBuffer *buffers)
{
   VkCommandBufferAllocateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .commandPool = pool,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = count,
   };
   return lyr_cmd_AllocateCommandBuffers(t, &info, buffers);
}

/* The fake handles stay as they are (a failure would null the copies). */
static VkResult
allocate(struct lyr_cmd_tracker *t, VkCommandPool pool, uint32_t count,
         const VkCommandBuffer *buffers)
{
   VkCommandBuffer copy[8];
   memcpy(copy, buffers, count * sizeof(*copy));
   return allocate_into(t, pool, count, copy);
}

static const struct lyr_cmd_disturbed all_disturbed = {
   .pipeline = true,
   .set_mask = ~0u,
   .push_constants = true,
};

static void
restore(struct lyr_cmd_tracker *t, VkCommandBuffer cmd, const struct lyr_cmd_disturbed *d)
{
   call_count = 0;
   lyr_cmd_state_restore_compute(t, lyr_cmd_state_get(t, cmd), cmd, d);
}

static void
restore_sets(struct lyr_cmd_tracker *t, VkCommandBuffer cmd, uint32_t mask)
{
   restore(t, cmd, &(struct lyr_cmd_disturbed){.set_mask = mask});
}

static void
check_sets_call(unsigned i, VkCommandBuffer cmd, VkPipelineLayout layout, uint32_t first,
                uint32_t count, const VkDescriptorSet *sets, uint32_t dynamic_count,
                const uint32_t *dynamic)
{
   if (!ok(i < call_count, "call %u recorded (%u calls)", i, call_count))
      return;
   const struct call *c = &calls[i];
   ok(c->kind == CALL_SETS, "call %u binds sets", i);
   ok(c->cmd == cmd, "call %u: command buffer", i);
   ok(c->bind_point == VK_PIPELINE_BIND_POINT_COMPUTE, "call %u: compute bind point", i);
   ok(c->layout == layout, "call %u: layout", i);
   check_eq_u64(c->first_set, first);
   check_eq_u64(c->set_count, count);
   ok(memcmp(c->sets, sets, count * sizeof(*sets)) == 0, "call %u: sets", i);
   check_eq_u64(c->dynamic_count, dynamic_count);
   if (dynamic_count)
      ok(memcmp(c->dynamic, dynamic, dynamic_count * 4) == 0, "call %u: dynamic offsets", i);
}

static void
check_push_call(unsigned i, VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset,
                uint32_t size, const uint32_t *words)
{
   if (!ok(i < call_count, "call %u recorded (%u calls)", i, call_count))
      return;
   const struct call *c = &calls[i];
   ok(c->kind == CALL_PUSH, "call %u pushes constants", i);
   ok(c->layout == layout, "call %u: layout", i);
   check_eq_u64(c->stages, stages);
   check_eq_u64(c->offset, offset);
   check_eq_u64(c->size, size);
   ok(memcmp(c->words, words, size) == 0, "call %u: values", i);
}

/* ---- tests --------------------------------------------------------------------- */

static void
test_init(void)
{
   test_set_context("init");
   struct lyr_cmd_tracker t;
   ok(lyr_cmd_tracker_init(&device, &t) == VK_SUCCESS, "init");
   ok(t.device == &device, "device");
   check_eq_u64(t.compute_families, 0x5);
   check_eq_u64(t.max_push_constants_size, 128);
   ok(t.reset_layer_data == NULL, "no callback");
   ok(lyr_cmd_state_get(&t, H(VkCommandBuffer, 0x100)) == NULL, "nothing tracked");
   lyr_cmd_tracker_finish(&t);
}

static void
test_lifecycle(void)
{
   test_set_context("lifecycle");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   const VkCommandPool gfx = H(VkCommandPool, 0x1000), xfer = H(VkCommandPool, 0x2000);
   const VkCommandPool comp = H(VkCommandPool, 0x3000), untracked = H(VkCommandPool, 0x4000);
   ok(create_pool(&t, gfx, 0, NULL) == VK_SUCCESS, "graphics pool");
   ok(create_pool(&t, xfer, 1, NULL) == VK_SUCCESS, "transfer pool");
   ok(create_pool(&t, comp, 2, NULL) == VK_SUCCESS, "compute pool");
   const VkCommandBuffer a[3] = {H(VkCommandBuffer, 0x100), H(VkCommandBuffer, 0x110),
                                 H(VkCommandBuffer, 0x120)};
   const VkCommandBuffer x = H(VkCommandBuffer, 0x200), c = H(VkCommandBuffer, 0x300);
   const VkCommandBuffer u = H(VkCommandBuffer, 0x400);
   ok(allocate(&t, gfx, 3, a) == VK_SUCCESS, "allocate 3");
   ok(allocate(&t, xfer, 1, &x) == VK_SUCCESS, "allocate transfer");
   ok(allocate(&t, comp, 1, &c) == VK_SUCCESS, "allocate compute");
   ok(allocate(&t, untracked, 1, &u) == VK_SUCCESS, "untracked pool: success");
   for (int i = 0; i < 3; i++) {
      ok(lyr_cmd_state_get(&t, a[i]) != NULL, "a[%d] tracked", i);
      ok(lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, a[i])), "a[%d] can dispatch", i);
   }
   ok(lyr_cmd_state_get(&t, x) != NULL, "transfer buffer tracked");
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, x)), "transfer: no dispatch");
   ok(lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, c)), "compute-only family dispatches");
   ok(lyr_cmd_state_get(&t, u) == NULL, "untracked pool's buffer untracked");
   ok(!lyr_cmd_state_can_dispatch(NULL), "untracked: no dispatch");
   ok(lyr_cmd_state_get(&t, VK_NULL_HANDLE) == NULL, "null handle");

   /* Untracked buffers: every call is ignored, a restore records nothing. */
   lyr_cmd_BindPipeline(&t, u, VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipeline, 0x9));
   uint32_t word = 5;
   lyr_cmd_PushConstants(&t, u, H(VkPipelineLayout, 0x9), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4,
                         &word);
   VkDescriptorSet set = H(VkDescriptorSet, 0x9);
   lyr_cmd_BindDescriptorSets(&t, u, VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipelineLayout, 0x9), 0,
                              1, &set, 0, NULL);
   lyr_cmd_ResetCommandBuffer(&t, u);
   restore(&t, u, &all_disturbed);
   check_eq_u64(call_count, 0);

   /* Begin (reset) clears one buffer's state, pool reset all of its pool's. */
   const VkPipeline p = H(VkPipeline, 0x77);
   for (int i = 0; i < 3; i++)
      lyr_cmd_BindPipeline(&t, a[i], VK_PIPELINE_BIND_POINT_COMPUTE, p);
   lyr_cmd_BindPipeline(&t, c, VK_PIPELINE_BIND_POINT_COMPUTE, p);
   lyr_cmd_ResetCommandBuffer(&t, a[0]);
   restore(&t, a[0], &all_disturbed);
   check_eq_u64(call_count, 0);
   restore(&t, a[1], &all_disturbed);
   check_eq_u64(call_count, 1);
   lyr_cmd_ResetCommandPool(&t, gfx);
   restore(&t, a[1], &all_disturbed);
   check_eq_u64(call_count, 0);
   restore(&t, a[2], &all_disturbed);
   check_eq_u64(call_count, 0);
   restore(&t, c, &all_disturbed);
   check_eq_u64(call_count, 1); /* another pool: untouched */
   lyr_cmd_ResetCommandPool(&t, untracked); /* ignored */
   lyr_cmd_ResetCommandPool(&t, VK_NULL_HANDLE);

   /* Free, with a null handle in the array. */
   const VkCommandBuffer to_free[2] = {a[1], VK_NULL_HANDLE};
   lyr_cmd_FreeCommandBuffers(&t, 2, to_free);
   ok(lyr_cmd_state_get(&t, a[1]) == NULL, "freed");
   ok(lyr_cmd_state_get(&t, a[0]) != NULL && lyr_cmd_state_get(&t, a[2]) != NULL, "others kept");
   lyr_cmd_FreeCommandBuffers(&t, 1, &u); /* untracked: ignored */

   /* The driver hands a freed handle out again: a fresh state. */
   ok(allocate(&t, comp, 1, &a[1]) == VK_SUCCESS, "reallocate");
   restore(&t, a[1], &all_disturbed);
   check_eq_u64(call_count, 0);

   /* Pool destruction forgets its buffers. */
   lyr_cmd_DestroyCommandPool(&t, gfx);
   ok(lyr_cmd_state_get(&t, a[0]) == NULL && lyr_cmd_state_get(&t, a[2]) == NULL,
      "destroyed pool's buffers");
   ok(lyr_cmd_state_get(&t, a[1]) != NULL, "other pool's buffer kept");
   lyr_cmd_DestroyCommandPool(&t, gfx); /* gone: ignored */
   lyr_cmd_DestroyCommandPool(&t, VK_NULL_HANDLE);
   ok(allocate(&t, gfx, 1, a) == VK_SUCCESS, "allocate from a destroyed pool: not tracked");
   ok(lyr_cmd_state_get(&t, a[0]) == NULL, "not tracked");

   /* A pool handle reused after destruction is a new pool. */
   ok(create_pool(&t, gfx, 1, NULL) == VK_SUCCESS, "reused pool handle");
   ok(allocate(&t, gfx, 1, a) == VK_SUCCESS, "allocate");
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, a[0])), "new family");

   lyr_cmd_DestroyCommandPool(&t, xfer);
   /* gfx and comp are left for finish. */
   lyr_cmd_tracker_finish(&t);
}

static void
test_pipeline(void)
{
   test_set_context("pipeline");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer cmd = H(VkCommandBuffer, 0x100);
   create_pool(&t, pool, 0, NULL);
   allocate(&t, pool, 1, &cmd);

   restore(&t, cmd, &all_disturbed);
   check_eq_u64(call_count, 0); /* nothing bound: nothing to put back */

   lyr_cmd_BindPipeline(&t, cmd, VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipeline, 0x1));
   lyr_cmd_BindPipeline(&t, cmd, VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipeline, 0x2));
   lyr_cmd_BindPipeline(&t, cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, H(VkPipeline, 0x3));
   restore(&t, cmd, &(struct lyr_cmd_disturbed){.pipeline = true});
   if (ok(call_count == 1, "one call, got %u", call_count)) {
      ok(calls[0].kind == CALL_PIPELINE, "binds a pipeline");
      ok(calls[0].cmd == cmd, "command buffer");
      ok(calls[0].bind_point == VK_PIPELINE_BIND_POINT_COMPUTE, "compute");
      ok(calls[0].pipeline == H(VkPipeline, 0x2), "the last compute pipeline");
   }
   restore(&t, cmd, &(struct lyr_cmd_disturbed){.push_constants = true, .set_mask = ~0u});
   check_eq_u64(call_count, 0); /* pipeline not disturbed */
   lyr_cmd_tracker_finish(&t);
}

static void
test_push_constants(void)
{
   test_set_context("push constants");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer cmd = H(VkCommandBuffer, 0x100);
   create_pool(&t, pool, 0, NULL);
   allocate(&t, pool, 1, &cmd);
   const VkPipelineLayout l1 = H(VkPipelineLayout, 0x11), l2 = H(VkPipelineLayout, 0x12);
   const VkPipelineLayout l3 = H(VkPipelineLayout, 0x13);
   const VkShaderStageFlags cs = VK_SHADER_STAGE_COMPUTE_BIT;
   const VkShaderStageFlags vcs = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT;

   const uint32_t w0[4] = {10, 11, 12, 13}, w1[4] = {22, 23, 24, 25}, w2[2] = {31, 32};
   const uint32_t w3[2] = {41, 42}, w4[1] = {55};
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 0, 16, w0);      /* words 0-3 */
   lyr_cmd_PushConstants(&t, cmd, l2, vcs, 8, 16, w1);     /* words 2-5 */
   /* A graphics-only push is kept apart from the compute words and restored first (a
    * device may keep one set of words for all stages, which a layer's push overwrites). */
   lyr_cmd_PushConstants(&t, cmd, l3, VK_SHADER_STAGE_VERTEX_BIT, 0, 8, w2);
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 32, 8, w3);      /* words 8-9: gap at 6-7 */
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 124, 4, w4);     /* the last word of 128 bytes */
   restore(&t, cmd, &(struct lyr_cmd_disturbed){.push_constants = true});
   check_eq_u64(call_count, 5);
   check_push_call(0, l3, VK_SHADER_STAGE_VERTEX_BIT, 0, 8, w2);
   check_push_call(1, l1, cs, 0, 8, (const uint32_t[]){10, 11});
   check_push_call(2, l2, vcs, 8, 16, w1);
   check_push_call(3, l1, cs, 32, 8, w3);
   check_push_call(4, l1, cs, 124, 4, w4);

   /* Same layout, other stages: separate runs; same layout and stages join. */
   lyr_cmd_ResetCommandBuffer(&t, cmd);
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 0, 8, w2);
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 8, 8, w3);
   lyr_cmd_PushConstants(&t, cmd, l1, vcs, 16, 4, w4);
   restore(&t, cmd, &(struct lyr_cmd_disturbed){.push_constants = true});
   check_eq_u64(call_count, 2);
   check_push_call(0, l1, cs, 0, 16, (const uint32_t[]){31, 32, 41, 42});
   check_push_call(1, l1, vcs, 16, 4, w4);
   restore(&t, cmd, &(struct lyr_cmd_disturbed){.pipeline = true, .set_mask = ~0u});
   check_eq_u64(call_count, 0); /* push constants not disturbed */

   /* Invalid pushes lose the state until the next reset. */
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 124, 8, w3); /* beyond 128 bytes */
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, cmd)), "beyond the limit: lost");
   lyr_cmd_ResetCommandBuffer(&t, cmd);
   ok(lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, cmd)), "reset: tracked again");
   lyr_cmd_PushConstants(&t, cmd, l1, cs, 2, 4, w3); /* unaligned */
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, cmd)), "unaligned: lost");
   lyr_cmd_tracker_finish(&t);
}

static void
test_descriptor_sets(void)
{
   test_set_context("descriptor sets");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer cmd = H(VkCommandBuffer, 0x100);
   create_pool(&t, pool, 0, NULL);
   allocate(&t, pool, 1, &cmd);
   const VkPipelineLayout la = H(VkPipelineLayout, 0xa), lb = H(VkPipelineLayout, 0xb);
   const VkPipelineLayout lc = H(VkPipelineLayout, 0xc), ld = H(VkPipelineLayout, 0xd);
   const VkPipelineBindPoint compute = VK_PIPELINE_BIND_POINT_COMPUTE;
   const VkDescriptorSet s012[3] = {H(VkDescriptorSet, 0x50), H(VkDescriptorSet, 0x51),
                                    H(VkDescriptorSet, 0x52)};
   const VkDescriptorSet s1b = H(VkDescriptorSet, 0x61);

   restore_sets(&t, cmd, ~0u);
   check_eq_u64(call_count, 0); /* nothing bound */

   /* Sets 0-2 in one call, then set 1 alone: both replayed, in order. */
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, la, 0, 3, s012, 0, NULL);
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, lb, 1, 1, &s1b, 0, NULL);
   lyr_cmd_BindDescriptorSets(&t, cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, lc, 0, 1, &s1b, 0,
                              NULL); /* ignored */
   restore_sets(&t, cmd, 0x7);
   check_eq_u64(call_count, 2);
   check_sets_call(0, cmd, la, 0, 3, s012, 0, NULL);
   check_sets_call(1, cmd, lb, 1, 1, &s1b, 0, NULL);
   /* Set 0 alone disturbed: the first call, and the second that puts set 1 back. */
   restore_sets(&t, cmd, 0x1);
   check_eq_u64(call_count, 2);
   check_sets_call(0, cmd, la, 0, 3, s012, 0, NULL);
   check_sets_call(1, cmd, lb, 1, 1, &s1b, 0, NULL);
   restore_sets(&t, cmd, 0x4);
   check_eq_u64(call_count, 2);
   /* Set 1 alone: the second call only. */
   restore_sets(&t, cmd, 0x2);
   check_eq_u64(call_count, 1);
   check_sets_call(0, cmd, lb, 1, 1, &s1b, 0, NULL);
   /* Indices nobody bound: nothing. */
   restore_sets(&t, cmd, 0xf0);
   check_eq_u64(call_count, 0);
   /* Not disturbed: nothing. */
   restore(&t, cmd, &(struct lyr_cmd_disturbed){.pipeline = true, .push_constants = true});
   check_eq_u64(call_count, 0);

   /* Sets 0-2 again: the earlier calls own nothing and are dropped. */
   const VkDescriptorSet s012b[3] = {H(VkDescriptorSet, 0x70), H(VkDescriptorSet, 0x71),
                                     H(VkDescriptorSet, 0x72)};
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, lc, 0, 3, s012b, 0, NULL);
   restore_sets(&t, cmd, ~0u);
   check_eq_u64(call_count, 1);
   check_sets_call(0, cmd, lc, 0, 3, s012b, 0, NULL);

   /* Dynamic offsets, and dropping a call between kept ones. */
   lyr_cmd_ResetCommandBuffer(&t, cmd);
   const uint32_t dyn_a[2] = {256, 512}, dyn_b[1] = {64}, dyn_d[3] = {1024, 2048, 4096};
   const VkDescriptorSet sa[2] = {H(VkDescriptorSet, 0x80), H(VkDescriptorSet, 0x81)};
   const VkDescriptorSet sb = H(VkDescriptorSet, 0x83), sd = H(VkDescriptorSet, 0x82);
   const VkDescriptorSet sc[2] = {H(VkDescriptorSet, 0x90), H(VkDescriptorSet, 0x91)};
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, la, 0, 2, sa, 2, dyn_a); /* A: sets 0-1 */
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, lb, 3, 1, &sb, 1, dyn_b); /* B: set 3 */
   restore_sets(&t, cmd, ~0u);
   check_eq_u64(call_count, 2);
   check_sets_call(0, cmd, la, 0, 2, sa, 2, dyn_a);
   check_sets_call(1, cmd, lb, 3, 1, &sb, 1, dyn_b);
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, lc, 0, 2, sc, 0, NULL); /* C: drops A */
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, ld, 2, 1, &sd, 3, dyn_d); /* D: set 2 */
   restore_sets(&t, cmd, ~0u);
   check_eq_u64(call_count, 3);
   check_sets_call(0, cmd, lb, 3, 1, &sb, 1, dyn_b);
   check_sets_call(1, cmd, lc, 0, 2, sc, 0, NULL);
   check_sets_call(2, cmd, ld, 2, 1, &sd, 3, dyn_d);
   /* B then D bind sets above 1: a call at 1-3 drops B and D, keeps C for set 0. */
   const VkDescriptorSet se[3] = {H(VkDescriptorSet, 0xa1), H(VkDescriptorSet, 0xa2),
                                  H(VkDescriptorSet, 0xa3)};
   const uint32_t dyn_e[1] = {8};
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, la, 1, 3, se, 1, dyn_e);
   restore_sets(&t, cmd, 0x1);
   check_eq_u64(call_count, 2);
   check_sets_call(0, cmd, lc, 0, 2, sc, 0, NULL);
   check_sets_call(1, cmd, la, 1, 3, se, 1, dyn_e);

   /* All LYR_CMD_MAX_SETS indices, one call each, then one call over all. */
   lyr_cmd_ResetCommandBuffer(&t, cmd);
   VkDescriptorSet many[LYR_CMD_MAX_SETS];
   for (uint32_t i = 0; i < LYR_CMD_MAX_SETS; i++) {
      many[i] = H(VkDescriptorSet, 0x1000 + i);
      uint32_t dyn = i * 16;
      lyr_cmd_BindDescriptorSets(&t, cmd, compute, la, i, 1, &many[i], 1, &dyn);
   }
   restore_sets(&t, cmd, 1u << 31);
   check_eq_u64(call_count, 1);
   check_sets_call(0, cmd, la, 31, 1, &many[31], 1, (const uint32_t[]){31 * 16});
   restore_sets(&t, cmd, ~0u);
   check_eq_u64(call_count, LYR_CMD_MAX_SETS);
   check_sets_call(5, cmd, la, 5, 1, &many[5], 1, (const uint32_t[]){5 * 16});
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, lb, 0, LYR_CMD_MAX_SETS, many, 0, NULL);
   restore_sets(&t, cmd, 0x2);
   check_eq_u64(call_count, 1);
   check_sets_call(0, cmd, lb, 0, LYR_CMD_MAX_SETS, many, 0, NULL);
   ok(lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, cmd)), "still tracked");

   /* Beyond LYR_CMD_MAX_SETS: lost. */
   lyr_cmd_BindDescriptorSets(&t, cmd, compute, la, 31, 2, sa, 0, NULL);
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, cmd)), "beyond the set limit: lost");
   lyr_cmd_ResetCommandBuffer(&t, cmd);
   restore_sets(&t, cmd, ~0u);
   check_eq_u64(call_count, 0);
   lyr_cmd_tracker_finish(&t);
}

static void
test_restore_order(void)
{
   test_set_context("restore order");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer cmd = H(VkCommandBuffer, 0x100);
   create_pool(&t, pool, 0, NULL);
   allocate(&t, pool, 1, &cmd);
   const VkDescriptorSet set = H(VkDescriptorSet, 0x50);
   const uint32_t word = 7;
   lyr_cmd_PushConstants(&t, cmd, H(VkPipelineLayout, 0x1), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4,
                         &word);
   lyr_cmd_BindDescriptorSets(&t, cmd, VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipelineLayout, 0x1),
                              0, 1, &set, 0, NULL);
   lyr_cmd_BindPipeline(&t, cmd, VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipeline, 0x2));
   restore(&t, cmd, &all_disturbed);
   if (ok(call_count == 3, "three calls, got %u", call_count)) {
      ok(calls[0].kind == CALL_PIPELINE, "pipeline first");
      ok(calls[1].kind == CALL_SETS, "sets second");
      ok(calls[2].kind == CALL_PUSH, "push constants last");
   }
   call_count = 0;
   lyr_cmd_state_restore_compute(&t, NULL, cmd, &all_disturbed);
   check_eq_u64(call_count, 0);
   lyr_cmd_tracker_finish(&t);
}

static void
test_layer_data(void)
{
   test_set_context("layer data");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   t.reset_layer_data = fake_reset_layer_data;
   const VkCommandPool pool = H(VkCommandPool, 0x1000), pool2 = H(VkCommandPool, 0x2000);
   const VkCommandBuffer handles[3] = {H(VkCommandBuffer, 0x100), H(VkCommandBuffer, 0x110),
                                       H(VkCommandBuffer, 0x120)};
   VkCommandBuffer b[3];
   memcpy(b, handles, sizeof(b));
   const VkCommandBuffer other = H(VkCommandBuffer, 0x200), left = H(VkCommandBuffer, 0x210);
   create_pool(&t, pool, 0, NULL);
   create_pool(&t, pool2, 0, NULL);
   allocate(&t, pool, 3, b);
   allocate(&t, pool2, 1, &other);
   allocate(&t, pool2, 1, &left);
   struct lyr_cmd_state *s0 = lyr_cmd_state_get(&t, b[0]);
   struct lyr_cmd_state *s1 = lyr_cmd_state_get(&t, b[1]);
   struct lyr_cmd_state *so = lyr_cmd_state_get(&t, other);
   ok(lyr_cmd_state_layer_data(s0) == NULL, "no data at first");
   int d0, d1, dother, dleft;
   lyr_cmd_state_set_layer_data(s0, &d0);
   lyr_cmd_state_set_layer_data(s1, &d1);
   lyr_cmd_state_set_layer_data(so, &dother);
   lyr_cmd_state_set_layer_data(lyr_cmd_state_get(&t, left), &dleft);
   ok(lyr_cmd_state_layer_data(s0) == &d0, "data set");

   reset_count = 0;
   lyr_cmd_ResetCommandBuffer(&t, b[0]);
   check_eq_u64(reset_count, 1);
   ok(resets[0].state == s0 && resets[0].data == &d0 && !resets[0].freeing, "reset: not freeing");
   ok(reset_device == &device, "the tracker's device");
   ok(lyr_cmd_state_layer_data(s0) == &d0, "kept across reset");

   reset_count = 0;
   lyr_cmd_ResetCommandBuffer(&t, b[2]); /* no data: no call */
   check_eq_u64(reset_count, 0);

   reset_count = 0;
   lyr_cmd_ResetCommandPool(&t, pool);
   check_eq_u64(reset_count, 2);
   ok(!resets[0].freeing && !resets[1].freeing, "pool reset: not freeing");
   ok((resets[0].state == s0 && resets[1].state == s1) ||
         (resets[0].state == s1 && resets[1].state == s0),
      "pool reset: both states with data");

   reset_count = 0;
   lyr_cmd_FreeCommandBuffers(&t, 1, &b[1]);
   check_eq_u64(reset_count, 1);
   ok(resets[0].data == &d1 && resets[0].freeing, "free: freeing");

   reset_count = 0;
   lyr_cmd_DestroyCommandPool(&t, pool);
   check_eq_u64(reset_count, 1);
   ok(resets[0].data == &d0 && resets[0].freeing, "pool destruction: freeing");

   reset_count = 0;
   lyr_cmd_state_set_layer_data(so, NULL);
   lyr_cmd_FreeCommandBuffers(&t, 1, &other);
   check_eq_u64(reset_count, 0); /* data released by the layer already */

   reset_count = 0;
   lyr_cmd_tracker_finish(&t);
   check_eq_u64(reset_count, 1);
   ok(resets[0].data == &dleft && resets[0].freeing, "device destruction: freeing");
}

static void
record_pattern(struct lyr_cmd_tracker *t, VkCommandBuffer cmd)
{
   const VkPipelineBindPoint compute = VK_PIPELINE_BIND_POINT_COMPUTE;
   VkDescriptorSet sets[20];
   uint32_t dyn[20], words[32];
   for (uint32_t i = 0; i < 20; i++) {
      sets[i] = H(VkDescriptorSet, 0x500 + i);
      dyn[i] = i * 256;
   }
   for (uint32_t i = 0; i < 32; i++)
      words[i] = i;
   lyr_cmd_BindPipeline(t, cmd, compute, H(VkPipeline, 0x1));
   lyr_cmd_PushConstants(t, cmd, H(VkPipelineLayout, 0x1), VK_SHADER_STAGE_COMPUTE_BIT, 0, 128,
                         words);
   for (uint32_t i = 0; i < 4; i++)
      lyr_cmd_BindDescriptorSets(t, cmd, compute, H(VkPipelineLayout, 0x1), i, 20 - i, sets, 20,
                                 dyn);
   lyr_cmd_BindDescriptorSets(t, cmd, compute, H(VkPipelineLayout, 0x1), 0, 20, sets, 20, dyn);
}

static void
test_warm_path(void)
{
   test_set_context("warm path");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   struct counter pool_counter = {.fail_after = -1};
   VkAllocationCallbacks alloc = counting_alloc(&pool_counter);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer cmd = H(VkCommandBuffer, 0x100);
   unsigned device_allocs = device_counter.allocs;
   ok(create_pool(&t, pool, 0, &alloc) == VK_SUCCESS, "pool with its own allocator");
   check_eq_u64(device_counter.allocs, device_allocs); /* the pool's allocator is used */
   allocate(&t, pool, 1, &cmd);
   lyr_cmd_ResetCommandBuffer(&t, cmd);
   record_pattern(&t, cmd);
   unsigned first = pool_counter.allocs;
   ok(first > 2, "first use allocates (%u)", first);
   for (int round = 0; round < 3; round++) {
      lyr_cmd_ResetCommandBuffer(&t, cmd);
      record_pattern(&t, cmd);
   }
   lyr_cmd_ResetCommandPool(&t, pool);
   record_pattern(&t, cmd);
   check_eq_u64(pool_counter.allocs, first);
   ok(lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, cmd)), "tracked");
   restore(&t, cmd, &all_disturbed);
   check_eq_u64(call_count, 3); /* pipeline, the last bind, one push */
   check_eq_u64(pool_counter.allocs, first);
   lyr_cmd_DestroyCommandPool(&t, pool);
   check_eq_u64(pool_counter.frees, pool_counter.allocs);
   lyr_cmd_tracker_finish(&t);
}

static void
test_out_of_memory(void)
{
   test_set_context("out of memory");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   struct counter counter = {.fail_after = 0};
   VkAllocationCallbacks alloc = counting_alloc(&counter);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer handles[3] = {H(VkCommandBuffer, 0x100), H(VkCommandBuffer, 0x110),
                                       H(VkCommandBuffer, 0x120)};
   VkCommandBuffer b[3];
   memcpy(b, handles, sizeof(b));

   ok(create_pool(&t, pool, 0, &alloc) == VK_ERROR_OUT_OF_HOST_MEMORY, "pool: no memory");
   ok(allocate(&t, pool, 1, b) == VK_SUCCESS, "pool untracked");
   ok(lyr_cmd_state_get(&t, b[0]) == NULL, "not tracked");

   counter.fail_after = 1;
   ok(create_pool(&t, pool, 0, &alloc) == VK_SUCCESS, "pool");
   counter.fail_after = 2;
   freed_below = 0;
   ok(allocate_into(&t, pool, 3, b) == VK_ERROR_OUT_OF_HOST_MEMORY, "third state: no memory");
   for (int i = 0; i < 3; i++) {
      ok(lyr_cmd_state_get(&t, handles[i]) == NULL, "b[%d] not tracked after the failure", i);
      ok(b[i] == VK_NULL_HANDLE, "b[%d] is VK_NULL_HANDLE after the failure", i);
   }
   check_eq_u64(freed_below, 3);
   check_eq_u64(counter.frees, 2);
   memcpy(b, handles, sizeof(b));

   counter.fail_after = 1;
   ok(allocate(&t, pool, 1, b) == VK_SUCCESS, "one state");
   const uint32_t word = 3;
   lyr_cmd_PushConstants(&t, b[0], H(VkPipelineLayout, 0x1), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4,
                         &word);
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, b[0])), "push shadow: no memory, lost");
   lyr_cmd_ResetCommandBuffer(&t, b[0]);
   const VkDescriptorSet set = H(VkDescriptorSet, 0x5);
   lyr_cmd_BindDescriptorSets(&t, b[0], VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipelineLayout, 0x1),
                              0, 1, &set, 0, NULL);
   ok(!lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, b[0])), "sets: no memory, lost");
   lyr_cmd_ResetCommandBuffer(&t, b[0]);
   counter.fail_after = -1;
   lyr_cmd_BindDescriptorSets(&t, b[0], VK_PIPELINE_BIND_POINT_COMPUTE, H(VkPipelineLayout, 0x1),
                              0, 1, &set, 0, NULL);
   ok(lyr_cmd_state_can_dispatch(lyr_cmd_state_get(&t, b[0])), "memory again: tracked");
   restore_sets(&t, b[0], 1);
   check_eq_u64(call_count, 1);
   lyr_cmd_tracker_finish(&t);
   check_eq_u64(counter.frees, counter.allocs);
}

/* The recorded error: the first one wins, vkEndCommandBuffer's work returns
 * it over the driver's result, begin/reset/pool reset clear it; a state lost
 * for lack of memory says so, one lost for invalid usage does not. */
static void
test_recorded_error(void)
{
   test_set_context("recorded error");
   struct lyr_cmd_tracker t;
   lyr_cmd_tracker_init(&device, &t);
   struct counter counter = {.fail_after = -1};
   VkAllocationCallbacks alloc = counting_alloc(&counter);
   const VkCommandPool pool = H(VkCommandPool, 0x1000);
   const VkCommandBuffer b[2] = {H(VkCommandBuffer, 0x100), H(VkCommandBuffer, 0x110)};
   ok(create_pool(&t, pool, 0, &alloc) == VK_SUCCESS && allocate(&t, pool, 2, b) == VK_SUCCESS,
      "pool and buffers");
   struct lyr_cmd_state *s0 = lyr_cmd_state_get(&t, b[0]);

   check_eq_i64(lyr_cmd_state_result(s0), VK_SUCCESS);
   check_eq_i64(lyr_cmd_EndCommandBuffer(&t, b[0], VK_SUCCESS), VK_SUCCESS);
   lyr_cmd_fail(&t, b[0], VK_ERROR_OUT_OF_HOST_MEMORY);
   lyr_cmd_state_fail(s0, VK_ERROR_OUT_OF_DEVICE_MEMORY);
   lyr_cmd_state_fail(NULL, VK_ERROR_OUT_OF_HOST_MEMORY);
   lyr_cmd_fail(&t, H(VkCommandBuffer, 0x999), VK_ERROR_OUT_OF_HOST_MEMORY);
   check_eq_i64(lyr_cmd_state_result(s0), VK_ERROR_OUT_OF_HOST_MEMORY);
   check_eq_i64(lyr_cmd_state_result(lyr_cmd_state_get(&t, b[1])), VK_SUCCESS);
   check_eq_i64(lyr_cmd_EndCommandBuffer(&t, b[0], VK_SUCCESS), VK_ERROR_OUT_OF_HOST_MEMORY);
   check_eq_i64(lyr_cmd_EndCommandBuffer(&t, b[1], VK_ERROR_OUT_OF_DEVICE_MEMORY),
                VK_ERROR_OUT_OF_DEVICE_MEMORY);
   check_eq_i64(lyr_cmd_EndCommandBuffer(&t, H(VkCommandBuffer, 0x999), VK_SUCCESS), VK_SUCCESS);
   lyr_cmd_ResetCommandBuffer(&t, b[0]);
   check_eq_i64(lyr_cmd_state_result(s0), VK_SUCCESS);
   lyr_cmd_fail(&t, b[0], VK_ERROR_OUT_OF_DEVICE_MEMORY);
   lyr_cmd_ResetCommandPool(&t, pool);
   check_eq_i64(lyr_cmd_EndCommandBuffer(&t, b[0], VK_SUCCESS), VK_SUCCESS);

   /* Lost for lack of memory vs for invalid usage. */
   check_eq_i64(lyr_cmd_state_lost_result(s0), VK_SUCCESS);
   counter.fail_after = 0;
   const uint32_t word = 3;
   lyr_cmd_PushConstants(&t, b[0], H(VkPipelineLayout, 0x1), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4,
                         &word);
   counter.fail_after = -1;
   ok(!lyr_cmd_state_can_dispatch(s0), "push shadow: no memory, lost");
   check_eq_i64(lyr_cmd_state_lost_result(s0), VK_ERROR_OUT_OF_HOST_MEMORY);
   check_eq_i64(lyr_cmd_state_result(s0), VK_SUCCESS); /* the layer decides whether it matters */
   lyr_cmd_ResetCommandBuffer(&t, b[0]);
   check_eq_i64(lyr_cmd_state_lost_result(s0), VK_SUCCESS);
   lyr_cmd_PushConstants(&t, b[0], H(VkPipelineLayout, 0x1), VK_SHADER_STAGE_COMPUTE_BIT, 2, 4,
                         &word);
   ok(!lyr_cmd_state_can_dispatch(s0), "misaligned push: lost");
   check_eq_i64(lyr_cmd_state_lost_result(s0), VK_SUCCESS);
   lyr_cmd_tracker_finish(&t);
   check_eq_u64(counter.frees, counter.allocs);
}

int
main(void)
{
   fake_device_init();
   test_init();
   test_lifecycle();
   test_pipeline();
   test_push_constants();
   test_descriptor_sets();
   test_restore_order();
   test_layer_data();
   test_warm_path();
   test_out_of_memory();
   test_recorded_error();
   test_set_context(NULL);
   check_eq_u64(device_counter.frees, device_counter.allocs);
   return test_done();
}
