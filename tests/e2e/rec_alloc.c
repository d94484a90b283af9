/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The recording tests' allocator (rec_alloc.h).
 */
#define _GNU_SOURCE
#include "rec_alloc.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Each block starts with its size, below the pointer returned (aligned). */
struct rec_header {
   size_t size;
   size_t offset; /* from the malloc()ed start to the pointer */
   enum rec_owner owner;
};

static enum rec_owner
owner_of(const void *caller)
{
   Dl_info info;
   if (!dladdr(caller, &info) || !info.dli_fname)
      return REC_OTHER;
   if (strstr(info.dli_fname, "libVkLayer_Graph"))
      return REC_GRAPH;
   if (strstr(info.dli_fname, "libVkLayer_Tensor"))
      return REC_TENSOR;
   return REC_OTHER;
}

static void *
block_alloc(struct rec_alloc *a, enum rec_owner owner, size_t size, size_t align)
{
   if (align < 16)
      align = 16;
   size_t header = (sizeof(struct rec_header) + align - 1) & ~(align - 1);
   char *base = malloc(header + size + align);
   if (!base)
      return NULL;
   uintptr_t p = ((uintptr_t)base + header + align - 1) & ~(uintptr_t)(align - 1);
   struct rec_header *h = (struct rec_header *)p - 1;
   h->size = size;
   h->offset = (size_t)((char *)p - base);
   h->owner = owner;
   __atomic_fetch_add(&a->live[owner], 1, __ATOMIC_RELAXED);
   return (void *)p;
}

static void
block_free(struct rec_alloc *a, void *p)
{
   if (!p)
      return;
   struct rec_header *h = (struct rec_header *)p - 1;
   __atomic_fetch_sub(&a->live[h->owner], 1, __ATOMIC_RELAXED);
   free((char *)p - h->offset);
}

/* Counts an allocation of the owner's; true when it must fail. */
static bool
must_fail(struct rec_alloc *a, enum rec_owner owner)
{
   if (!a->armed)
      return false;
   __atomic_fetch_add(&a->counts[owner], 1, __ATOMIC_RELAXED);
   if (a->fail_phase >= 0 && a->phase == a->fail_phase && a->fail_phase_left > 0) {
      a->fail_phase_left--;
      if (a->failed < REC_MAX_FAILED) {
         a->failures[a->failed].phase = a->phase;
         a->failures[a->failed].owner = owner;
      }
      a->failed++;
      return true;
   }
   if (owner == REC_OTHER)
      return false;
   long index = __atomic_fetch_add(&a->ours, 1, __ATOMIC_RELAXED);
   bool fail = a->fail_at >= 0 && (index == a->fail_at || (a->fail_after && index > a->fail_at));
   if (fail) {
      if (a->failed < REC_MAX_FAILED) {
         a->failures[a->failed].phase = a->phase;
         a->failures[a->failed].owner = owner;
      }
      a->failed++;
   }
   return fail;
}

static void *VKAPI_CALL
rec_allocation(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)scope;
   enum rec_owner owner = owner_of(__builtin_return_address(0));
   if (must_fail(user, owner))
      return NULL;
   return block_alloc(user, owner, size, align);
}

static void *VKAPI_CALL
rec_reallocation(void *user, void *original, size_t size, size_t align,
                 VkSystemAllocationScope scope)
{
   (void)scope;
   if (original && size == 0) {
      block_free(user, original);
      return NULL;
   }
   enum rec_owner owner = owner_of(__builtin_return_address(0));
   if (must_fail(user, owner))
      return NULL;
   void *n = block_alloc(user, owner, size, align);
   if (!n || !original)
      return n;
   struct rec_header *h = (struct rec_header *)original - 1;
   memcpy(n, original, h->size < size ? h->size : size);
   block_free(user, original);
   return n;
}

static void VKAPI_CALL
rec_free(void *user, void *memory)
{
   block_free(user, memory);
}

VkAllocationCallbacks
rec_alloc_callbacks(struct rec_alloc *a)
{
   memset(a, 0, sizeof(*a));
   a->fail_at = -1;
   a->fail_phase = -1;
   return (VkAllocationCallbacks){
      .pUserData = a,
      .pfnAllocation = rec_allocation,
      .pfnReallocation = rec_reallocation,
      .pfnFree = rec_free,
   };
}

void
rec_alloc_arm(struct rec_alloc *a, long fail_at, bool fail_after)
{
   a->armed = true;
   a->fail_at = fail_at;
   a->fail_after = fail_after;
   a->ours = 0;
   memset(a->counts, 0, sizeof(a->counts));
   a->failed = 0;
}

void
rec_alloc_disarm(struct rec_alloc *a)
{
   a->armed = false;
   a->fail_at = -1;
   a->fail_phase = -1;
}

void
rec_alloc_arm_phase(struct rec_alloc *a, int phase, long count)
{
   rec_alloc_arm(a, -1, false);
   a->fail_phase = phase;
   a->fail_phase_left = count;
}
