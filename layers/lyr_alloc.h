/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Allocation through VkAllocationCallbacks, in the shape of Mesa's vk_alloc.h:
 * an object allocation prefers the caller's pAllocator and falls back to the
 * allocator of its parent (instance or device), which falls back to libc.
 */
#ifndef LYR_ALLOC_H
#define LYR_ALLOC_H

#include <stdlib.h>
#include <string.h>
#include <vulkan/vulkan.h>

/** The libc allocator, used when neither the caller nor the parent gave one. */
extern const VkAllocationCallbacks lyr_default_alloc;

static inline void *
lyr_alloc(const VkAllocationCallbacks *alloc, size_t size, size_t align,
          VkSystemAllocationScope scope)
{
   return alloc->pfnAllocation(alloc->pUserData, size, align, scope);
}

static inline void *
lyr_zalloc(const VkAllocationCallbacks *alloc, size_t size, size_t align,
           VkSystemAllocationScope scope)
{
   void *p = lyr_alloc(alloc, size, align, scope);
   if (p)
      memset(p, 0, size);
   return p;
}

static inline void *
lyr_realloc(const VkAllocationCallbacks *alloc, void *ptr, size_t size, size_t align,
            VkSystemAllocationScope scope)
{
   return alloc->pfnReallocation(alloc->pUserData, ptr, size, align, scope);
}

static inline void
lyr_free(const VkAllocationCallbacks *alloc, void *p)
{
   if (p)
      alloc->pfnFree(alloc->pUserData, p);
}

/** The allocator for an object: the caller's if given, else the parent's. */
static inline const VkAllocationCallbacks *
lyr_pick_alloc(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *caller)
{
   if (caller)
      return caller;
   return parent ? parent : &lyr_default_alloc;
}

static inline void *
lyr_zalloc2(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *caller, size_t size,
            size_t align, VkSystemAllocationScope scope)
{
   return lyr_zalloc(lyr_pick_alloc(parent, caller), size, align, scope);
}

static inline void
lyr_free2(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *caller, void *p)
{
   lyr_free(lyr_pick_alloc(parent, caller), p);
}

#endif /* LYR_ALLOC_H */
