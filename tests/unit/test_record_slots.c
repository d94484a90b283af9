/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The tensor-record pool's free list (tensor/tsr_record_slots.c) without a
 * device: any-slot and exact-slot allocation, chunks added on demand (also
 * several at once for an exact slot far ahead), slots in use or out of range
 * refused with VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS, slots given back
 * reusable, and a failing chunk callback passed through.
 */
#include <stdlib.h>

#include "lyr_alloc.h"
#include "test.h"
#include "tsr_record_slots.h"

TEST_MAIN_STATE;

struct fake_device {
   unsigned chunks_added;
   unsigned fail_after; /* chunks that can be added; UINT32_MAX: no limit */
};

static VkResult
add_chunk(struct tsr_record_slots *slots, void *user)
{
   struct fake_device *dev = user;
   if (dev->chunks_added >= dev->fail_after)
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   VkResult result = tsr_record_slots_reserve(slots, &lyr_default_alloc);
   if (result != VK_SUCCESS)
      return result;
   tsr_record_slots_push_chunk(slots);
   dev->chunks_added++;
   return VK_SUCCESS;
}

static void
test_any_slot(void)
{
   test_set_context("any slot");
   struct tsr_record_slots s = {0};
   struct fake_device dev = {.fail_after = UINT32_MAX};
   uint32_t packed = 0xdead;
   check_eq_i64(tsr_record_slots_take(&s, add_chunk, &dev, &packed), VK_SUCCESS);
   check_eq_u64(packed, tsr_record_slot_pack(0, 0));
   check_eq_u64(dev.chunks_added, 1);
   /* The rest of chunk 0, then chunk 1 appears. */
   for (uint32_t i = 1; i < TSR_RECORDS_PER_CHUNK; i++)
      tsr_record_slots_take(&s, add_chunk, &dev, &packed);
   check_eq_u64(packed, tsr_record_slot_pack(0, TSR_RECORDS_PER_CHUNK - 1));
   check_eq_u64(dev.chunks_added, 1);
   check_eq_i64(tsr_record_slots_take(&s, add_chunk, &dev, &packed), VK_SUCCESS);
   check_eq_u64(packed, tsr_record_slot_pack(1, 0));
   check_eq_u64(dev.chunks_added, 2);
   /* A slot given back is the next one taken. */
   tsr_record_slots_give(&s, tsr_record_slot_pack(0, 17));
   check_eq_i64(tsr_record_slots_take(&s, add_chunk, &dev, &packed), VK_SUCCESS);
   check_eq_u64(packed, tsr_record_slot_pack(0, 17));
   tsr_record_slots_finish(&s, &lyr_default_alloc);
}

static void
test_exact_slot(void)
{
   test_set_context("exact slot");
   struct tsr_record_slots s = {0};
   struct fake_device dev = {.fail_after = UINT32_MAX};
   uint32_t target = tsr_record_slot_pack(3, 7);
   /* Chunks 0..3 are added for a slot of chunk 3. */
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, target), VK_SUCCESS);
   check_eq_u64(dev.chunks_added, 4);
   check_eq_u64(s.chunk_count, 4);
   check_eq_u64(s.free_count, 4 * TSR_RECORDS_PER_CHUNK - 1);
   /* In use now. */
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, target),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
   /* Never handed out by the any-slot path while in use. */
   uint32_t *taken = malloc(s.free_count * sizeof(*taken));
   if (!ok(taken != NULL, "allocation"))
      return;
   uint32_t n = s.free_count;
   bool seen = false;
   for (uint32_t i = 0; i < n; i++) {
      tsr_record_slots_take(&s, add_chunk, &dev, &taken[i]);
      seen |= taken[i] == target;
   }
   ok(!seen, "the replayed slot is not handed out again");
   check_eq_u64(dev.chunks_added, 4);
   /* A slot of an existing chunk that is in use, then given back and taken exactly. */
   uint32_t other = tsr_record_slot_pack(1, 200);
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, other),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
   tsr_record_slots_give(&s, other);
   tsr_record_slots_give(&s, taken[0] == other ? taken[1] : taken[0]);
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, other), VK_SUCCESS);
   check_eq_u64(s.free_count, 1);
   /* The one left is still found by the any-slot path. */
   uint32_t last;
   check_eq_i64(tsr_record_slots_take(&s, add_chunk, &dev, &last), VK_SUCCESS);
   check_eq_u64(last, taken[0] == other ? taken[1] : taken[0]);
   free(taken);
   tsr_record_slots_finish(&s, &lyr_default_alloc);
}

static void
test_invalid(void)
{
   test_set_context("invalid slots");
   struct tsr_record_slots s = {0};
   struct fake_device dev = {.fail_after = UINT32_MAX};
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev,
                                            tsr_record_slot_pack(0, TSR_RECORDS_PER_CHUNK)),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, 0xffff0000u),
                VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS);
   check_eq_u64(dev.chunks_added, 0);

   test_set_context("chunk creation fails");
   dev.fail_after = 2;
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, tsr_record_slot_pack(5, 0)),
                VK_ERROR_OUT_OF_DEVICE_MEMORY);
   check_eq_u64(s.chunk_count, 2);
   /* What was added stays usable. */
   check_eq_i64(tsr_record_slots_take_exact(&s, add_chunk, &dev, tsr_record_slot_pack(1, 255)),
                VK_SUCCESS);
   tsr_record_slots_finish(&s, &lyr_default_alloc);

   struct tsr_record_slots empty = {0};
   dev = (struct fake_device){.fail_after = 0};
   uint32_t packed;
   check_eq_i64(tsr_record_slots_take(&empty, add_chunk, &dev, &packed),
                VK_ERROR_OUT_OF_DEVICE_MEMORY);
   tsr_record_slots_finish(&empty, &lyr_default_alloc);
}

int
main(void)
{
   test_any_slot();
   test_exact_slot();
   test_invalid();
   return test_done();
}
