/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The bookkeeping of the tensor-record pool (tsr_view.c), without a device:
 * which slots of which chunks are free, any free slot or one exact slot
 * (capture/replay of a view's slot, docs/decisions.md D13). Creating a
 * chunk's device memory is the caller's, through a callback.
 */
#ifndef TSR_RECORD_SLOTS_H
#define TSR_RECORD_SLOTS_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#define TSR_RECORDS_PER_CHUNK 256u
#define TSR_RECORD_MAX_CHUNKS 0xffffu

/* A slot is packed as chunk << 16 | index. */
static inline uint32_t
tsr_record_slot_pack(uint32_t chunk, uint32_t index)
{
   return chunk << 16 | index;
}

struct tsr_record_slots {
   uint32_t *free; /* stack of packed slots */
   uint32_t free_count;
   uint32_t free_capacity;
   uint32_t chunk_count;
};

/** Adds one chunk: makes its device memory, then calls tsr_record_slots_reserve and
 *  tsr_record_slots_push_chunk. user is what the take functions were given. */
typedef VkResult (*tsr_record_add_chunk_fn)(struct tsr_record_slots *slots, void *user);

/** Makes room on the free list for every slot of chunk_count + 1 chunks. */
VkResult tsr_record_slots_reserve(struct tsr_record_slots *slots,
                                  const VkAllocationCallbacks *alloc);

/** Counts a new chunk and pushes its slots (after tsr_record_slots_reserve). */
void tsr_record_slots_push_chunk(struct tsr_record_slots *slots);

/** Takes any free slot, adding a chunk when none is free. */
VkResult tsr_record_slots_take(struct tsr_record_slots *slots, tsr_record_add_chunk_fn add,
                               void *user, uint32_t *packed);

/** Takes exactly this slot, adding chunks up to its chunk as needed. Returns
 *  VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS when the slot is in use or cannot exist. */
VkResult tsr_record_slots_take_exact(struct tsr_record_slots *slots, tsr_record_add_chunk_fn add,
                                     void *user, uint32_t packed);

/** Returns a slot taken earlier. */
void tsr_record_slots_give(struct tsr_record_slots *slots, uint32_t packed);

void tsr_record_slots_finish(struct tsr_record_slots *slots, const VkAllocationCallbacks *alloc);

#endif /* TSR_RECORD_SLOTS_H */
