/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The libc allocator used when neither the application nor the parent object
 * supplied VkAllocationCallbacks. Everything else is inline in lyr_alloc.h.
 */
#include "lyr_alloc.h"

#include <stdint.h>

#include "lyr_log.h"

static void *VKAPI_PTR
default_alloc(void *user, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   if (align < sizeof(void *))
      align = sizeof(void *);
   void *p = NULL;
   if (posix_memalign(&p, align, size ? size : 1) != 0)
      return NULL;
   return p;
}

static void *VKAPI_PTR
default_realloc(void *user, void *orig, size_t size, size_t align, VkSystemAllocationScope scope)
{
   (void)user;
   (void)scope;
   if (align <= 16)
      return realloc(orig, size);
   /* realloc cannot keep a larger alignment; callers of this path pass the
    * alignment they allocated with and never grow over-aligned blocks. */
   return NULL;
}

static void VKAPI_PTR
default_free(void *user, void *p)
{
   (void)user;
   free(p);
}

const VkAllocationCallbacks lyr_default_alloc = {
   .pUserData = NULL,
   .pfnAllocation = default_alloc,
   .pfnReallocation = default_realloc,
   .pfnFree = default_free,
};

static const char *
scope_name(VkSystemAllocationScope scope)
{
   switch (scope) {
   case VK_SYSTEM_ALLOCATION_SCOPE_COMMAND:
      return "command";
   case VK_SYSTEM_ALLOCATION_SCOPE_OBJECT:
      return "object";
   case VK_SYSTEM_ALLOCATION_SCOPE_CACHE:
      return "cache";
   case VK_SYSTEM_ALLOCATION_SCOPE_DEVICE:
      return "device";
   case VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE:
      return "instance";
   default:
      return "unknown";
   }
}

void
lyr_alloc_failed(size_t size, VkSystemAllocationScope scope, const char *file, int line)
{
   lyr_log(LYR_LOG_COMMON, LYR_LOG_ERROR, file, line,
           "out of host memory: the allocator refused %zu bytes (%s scope), reported as "
           "VK_ERROR_OUT_OF_HOST_MEMORY",
           size, scope_name(scope));
}
