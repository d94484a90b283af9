/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The application's compute state per command buffer, for layers that record
 * their own compute work into the application's command buffers (the tensor
 * copy kernel, graph dispatches) and must put the application's state back
 * afterwards: the bound compute pipeline, the descriptor sets bound at the
 * compute bind point (with their layouts and dynamic offsets), and every
 * push-constant word of any stage (with the layout and stage flags of its last
 * push: a layer's compute push may overwrite graphics stages' words). Pools are tracked too: a pool knows whether its queue family can run
 * compute work and which command buffers it owns, so pool reset and
 * destruction reach them. Each layer that needs it embeds one tracker in its
 * device state and calls the lyr_cmd_* functions from its hooks; a layer may
 * hang its own per-command-buffer data on a state (layer_data), released
 * through the tracker's callback.
 *
 * Errors during recording: a hook that cannot record what it must (out of
 * memory for a translation, a dispatch, the tracking itself) records the
 * error on the state (lyr_cmd_state_fail); the layer's vkEndCommandBuffer
 * returns the first one (lyr_cmd_EndCommandBuffer), as the spec's "if there
 * was an error during recording, the application will be notified by an
 * unsuccessful return code returned by vkEndCommandBuffer" asks. Beginning or
 * resetting the command buffer, or resetting its pool, clears it.
 */
#ifndef LYR_CMD_H
#define LYR_CMD_H

#include "lyr_layer.h"

#define LYR_CMD_MAX_SETS 32

struct lyr_cmd_pool;
struct lyr_cmd_state;

/** Per device. Pools and their command buffers are externally synchronized,
 *  so their states need no lock of their own. Every hooked vkCmd* finds its
 *  state in `buffers` without a lock (lyr_map lookups are lock-free, D42);
 *  allocating and freeing take the map's mutex, creating and destroying a pool
 *  also `lock`. */
struct lyr_cmd_tracker {
   struct lyr_device *device;
   struct lyr_map pools;           /* VkCommandPool -> struct lyr_cmd_pool */
   struct lyr_map buffers;         /* VkCommandBuffer -> struct lyr_cmd_state */
   pthread_mutex_t lock;           /* guards pool_list */
   struct lyr_cmd_pool *pool_list; /* every tracked pool */
   uint32_t compute_families;      /* bit i: queue family i supports compute */
   uint32_t max_push_constants_size; /* the device's limit: pushes beyond it are not tracked */
   /* Called when a state whose layer_data is not NULL is reset (begin, reset,
    * pool reset; freeing false: the data may be kept for reuse) or freed
    * (freeing true: the state is gone afterwards). May be NULL. Set it after
    * lyr_cmd_tracker_init, which clears the tracker. */
   void (*reset_layer_data)(struct lyr_device *device, struct lyr_cmd_state *state, bool freeing);
};

VkResult lyr_cmd_tracker_init(struct lyr_device *device, struct lyr_cmd_tracker *tracker);
void lyr_cmd_tracker_finish(struct lyr_cmd_tracker *tracker);

/** The state of a command buffer, or NULL when it is not tracked. */
struct lyr_cmd_state *lyr_cmd_state_get(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd);

/** The layer's own data on a state (NULL until set). */
void *lyr_cmd_state_layer_data(const struct lyr_cmd_state *state);
void lyr_cmd_state_set_layer_data(struct lyr_cmd_state *state, void *data);

/** True when the layer may record compute work into the command buffer and
 *  put the application's compute state back afterwards: its pool's queue
 *  family supports compute and its state was tracked completely. */
bool lyr_cmd_state_can_dispatch(const struct lyr_cmd_state *state);

/** Why lyr_cmd_state_can_dispatch() is false when that is lack of memory:
 *  VK_ERROR_OUT_OF_HOST_MEMORY when tracking the application's compute state
 *  ran out of memory (the layer must then fail its own compute work with it),
 *  VK_SUCCESS otherwise. */
VkResult lyr_cmd_state_lost_result(const struct lyr_cmd_state *state);

/** Records that a hook could not record what it had to: result (an error
 *  vkEndCommandBuffer may return: VK_ERROR_OUT_OF_HOST_MEMORY or
 *  VK_ERROR_OUT_OF_DEVICE_MEMORY) unless an earlier one is recorded. state may
 *  be NULL (an untracked command buffer: nothing to record on). */
void lyr_cmd_state_fail(struct lyr_cmd_state *state, VkResult result);
/** lyr_cmd_state_fail() on the command buffer's state, found in the tracker. */
void lyr_cmd_fail(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd, VkResult result);
/** The first error recorded since the last begin or reset, or VK_SUCCESS. */
VkResult lyr_cmd_state_result(const struct lyr_cmd_state *state);

/** The queue family of the command buffer's pool. */
uint32_t lyr_cmd_state_queue_family(const struct lyr_cmd_state *state);

/** What the layer's own compute work disturbed, to put back. */
struct lyr_cmd_disturbed {
   bool pipeline;     /* it bound compute pipelines */
   uint32_t set_mask; /* bit i: it bound a descriptor set at compute set index i, or
                       * disturbed the application's set there (pipeline layout
                       * compatibility: binding with a layout not compatible with
                       * the application's disturbs its other sets too) */
   bool push_constants; /* it pushed constants, or bound sets with a layout whose
                         * push-constant ranges differ from the application's */
};

/**
 * After the layer's own compute work: rebinds the application's compute
 * pipeline, its descriptor sets at the disturbed indices (each with the layout
 * and dynamic offsets it was bound with) and re-pushes its push-constant
 * words. Calls go straight down the chain (tracker->device->next).
 */
void lyr_cmd_state_restore_compute(struct lyr_cmd_tracker *tracker,
                                   const struct lyr_cmd_state *state, VkCommandBuffer cmd,
                                   const struct lyr_cmd_disturbed *disturbed);

/* The hooks' work, to call from a layer's hook functions (the layer then
 * calls down itself where the comment says so). */

/* After the pool was created below. alloc is the application's pAllocator
 * (NULL: the device's). On failure the layer destroys the pool below. */
VkResult lyr_cmd_CreateCommandPool(struct lyr_cmd_tracker *tracker,
                                   const VkCommandPoolCreateInfo *info,
                                   const VkAllocationCallbacks *alloc, VkCommandPool pool);
/* Before the pool is destroyed or reset below. */
void lyr_cmd_DestroyCommandPool(struct lyr_cmd_tracker *tracker, VkCommandPool pool);
void lyr_cmd_ResetCommandPool(struct lyr_cmd_tracker *tracker, VkCommandPool pool);
/* After the command buffers were allocated below. On failure (out of memory) nothing is left
 * tracked, the buffers are freed below and their handles set to VK_NULL_HANDLE, as
 * vkAllocateCommandBuffers must leave them. */
VkResult lyr_cmd_AllocateCommandBuffers(struct lyr_cmd_tracker *tracker,
                                        const VkCommandBufferAllocateInfo *info,
                                        VkCommandBuffer *buffers);
/* Before the command buffers are freed below; null handles are skipped. */
void lyr_cmd_FreeCommandBuffers(struct lyr_cmd_tracker *tracker, uint32_t count,
                                const VkCommandBuffer *buffers);
/* Also for vkBeginCommandBuffer, which resets implicitly; clears the recorded error. */
void lyr_cmd_ResetCommandBuffer(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd);
/* After vkEndCommandBuffer was called below and returned result: the error a
 * hook recorded in this command buffer (logged once here), else result. */
VkResult lyr_cmd_EndCommandBuffer(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                                  VkResult result);
void lyr_cmd_BindPipeline(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                          VkPipelineBindPoint bind_point, VkPipeline pipeline);
void lyr_cmd_BindDescriptorSets(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                                VkPipelineBindPoint bind_point, VkPipelineLayout layout,
                                uint32_t first_set, uint32_t count, const VkDescriptorSet *sets,
                                uint32_t dynamic_offset_count, const uint32_t *dynamic_offsets);
void lyr_cmd_PushConstants(struct lyr_cmd_tracker *tracker, VkCommandBuffer cmd,
                           VkPipelineLayout layout, VkShaderStageFlags stages, uint32_t offset,
                           uint32_t size, const void *values);

#endif /* LYR_CMD_H */
