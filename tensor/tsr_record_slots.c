/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The free list of the tensor-record pool: a stack of packed slots with room
 * for every slot of every chunk, so giving a slot back never allocates. An
 * exact slot is found by a linear search of the stack (replay only, so rare)
 * and removed by moving the top into its place. The caller holds the pool's
 * lock around every call.
 */
#include "tsr_record_slots.h"

#include <string.h>

#include "lyr_alloc.h"

VkResult
tsr_record_slots_reserve(struct tsr_record_slots *slots, const VkAllocationCallbacks *alloc)
{
   if (slots->chunk_count >= TSR_RECORD_MAX_CHUNKS)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   uint32_t need = (slots->chunk_count + 1) * TSR_RECORDS_PER_CHUNK;
   if (need <= slots->free_capacity)
      return VK_SUCCESS;
   uint32_t *free = lyr_realloc(alloc, slots->free, need * sizeof(*free), 4,
                                VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
   if (!free)
      return VK_ERROR_OUT_OF_HOST_MEMORY;
   slots->free = free;
   slots->free_capacity = need;
   return VK_SUCCESS;
}

void
tsr_record_slots_push_chunk(struct tsr_record_slots *slots)
{
   uint32_t chunk = slots->chunk_count++;
   /* Pushed in reverse so that slot 0 is taken first. */
   for (uint32_t i = TSR_RECORDS_PER_CHUNK; i > 0; i--)
      slots->free[slots->free_count++] = tsr_record_slot_pack(chunk, i - 1);
}

VkResult
tsr_record_slots_take(struct tsr_record_slots *slots, tsr_record_add_chunk_fn add, void *user,
                      uint32_t *packed)
{
   if (slots->free_count == 0) {
      VkResult result = add(slots, user);
      if (result != VK_SUCCESS)
         return result;
   }
   *packed = slots->free[--slots->free_count];
   return VK_SUCCESS;
}

VkResult
tsr_record_slots_take_exact(struct tsr_record_slots *slots, tsr_record_add_chunk_fn add,
                            void *user, uint32_t packed)
{
   uint32_t chunk = packed >> 16;
   uint32_t index = packed & 0xffff;
   if (index >= TSR_RECORDS_PER_CHUNK || chunk >= TSR_RECORD_MAX_CHUNKS)
      return VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS;
   while (slots->chunk_count <= chunk) {
      VkResult result = add(slots, user);
      if (result != VK_SUCCESS)
         return result;
   }
   for (uint32_t i = slots->free_count; i > 0; i--) {
      if (slots->free[i - 1] == packed) {
         slots->free[i - 1] = slots->free[--slots->free_count];
         return VK_SUCCESS;
      }
   }
   return VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS; /* in use */
}

void
tsr_record_slots_give(struct tsr_record_slots *slots, uint32_t packed)
{
   /* free_capacity covers every slot of every chunk (tsr_record_slots_reserve). */
   slots->free[slots->free_count++] = packed;
}

void
tsr_record_slots_finish(struct tsr_record_slots *slots, const VkAllocationCallbacks *alloc)
{
   lyr_free(alloc, slots->free);
   memset(slots, 0, sizeof(*slots));
}
