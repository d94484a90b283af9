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

/** Logs a refused allocation (an error naming the caller's file and line, the size and
 *  scope): every out-of-memory result of the layers comes with a log line. */
void lyr_alloc_failed(size_t size, VkSystemAllocationScope scope, const char *file, int line);

static inline void *
lyr_alloc_at(const VkAllocationCallbacks *alloc, size_t size, size_t align,
             VkSystemAllocationScope scope, const char *file, int line)
{
   void *p = alloc->pfnAllocation(alloc->pUserData, size, align, scope);
   if (!p)
      lyr_alloc_failed(size, scope, file, line);
   return p;
}

static inline void *
lyr_zalloc_at(const VkAllocationCallbacks *alloc, size_t size, size_t align,
              VkSystemAllocationScope scope, const char *file, int line)
{
   void *p = lyr_alloc_at(alloc, size, align, scope, file, line);
   if (p)
      memset(p, 0, size);
   return p;
}

static inline void *
lyr_realloc_at(const VkAllocationCallbacks *alloc, void *ptr, size_t size, size_t align,
               VkSystemAllocationScope scope, const char *file, int line)
{
   void *p = alloc->pfnReallocation(alloc->pUserData, ptr, size, align, scope);
   if (!p && size)
      lyr_alloc_failed(size, scope, file, line);
   return p;
}

#define lyr_alloc(alloc, size, align, scope)                                                      \
   lyr_alloc_at((alloc), (size), (align), (scope), __FILE__, __LINE__)
#define lyr_zalloc(alloc, size, align, scope)                                                     \
   lyr_zalloc_at((alloc), (size), (align), (scope), __FILE__, __LINE__)
#define lyr_realloc(alloc, ptr, size, align, scope)                                               \
   lyr_realloc_at((alloc), (ptr), (size), (align), (scope), __FILE__, __LINE__)

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

#define lyr_zalloc2(parent, caller, size, align, scope)                                           \
   lyr_zalloc(lyr_pick_alloc((parent), (caller)), (size), (align), (scope))

static inline void
lyr_free2(const VkAllocationCallbacks *parent, const VkAllocationCallbacks *caller, void *p)
{
   lyr_free(lyr_pick_alloc(parent, caller), p);
}

#endif /* LYR_ALLOC_H */
