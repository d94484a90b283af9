/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * VK_LAYER_VMEL_test_fail_driver (fail_driver.c): a test-only layer placed
 * below ours that makes the driver fail. Its control function, found with
 * vkGetDeviceProcAddr(device, VMEL_FAIL_DRIVER_CONTROL), arms it: while armed
 * it counts every call of the functions it watches (whoever makes it: the
 * test arms it just around the call under test, so the calls are the layers'
 * and the one the test makes) and fails the fail_at-th one with an error
 * the specification lists for that command. Independently of arming, it
 * counts the driver objects live below it, by kind, so a test can see that a
 * failing call left nothing behind, and the objects a device still had when it
 * was destroyed (leaked by the layers above). A second function,
 * VMEL_FAIL_DRIVER_WATCH, names an sType to look for in the pNext chains that
 * reach the driver (create infos, a compute stage, descriptor writes,
 * dependency infos): a test checks that the layers passed a struct on.
 */
#ifndef VMEL_FAIL_DRIVER_H
#define VMEL_FAIL_DRIVER_H

#include <stdbool.h>
#include <vulkan/vulkan.h>

#define VMEL_FAIL_DRIVER_LAYER "VK_LAYER_VMEL_test_fail_driver"
#define VMEL_FAIL_DRIVER_CONTROL "vkVmelTestFailDriverControl"
#define VMEL_FAIL_DRIVER_WATCH "vkVmelTestFailDriverWatch"

/* The kinds of driver object counted live. */
enum fail_driver_kind {
   FD_MEMORY,
   FD_BUFFER,
   FD_IMAGE,
   FD_DESCRIPTOR_POOL,
   FD_DESCRIPTOR_SET_LAYOUT,
   FD_PIPELINE_LAYOUT,
   FD_SHADER_MODULE,
   FD_PIPELINE,
   FD_PIPELINE_CACHE,
   FD_QUERY_POOL,
   FD_COMMAND_POOL,
   FD_EVENT,
   FD_UPDATE_TEMPLATE,
   FD_KINDS,
};

struct fail_driver_stats {
   long calls;               /* watched calls while armed */
   unsigned failed;          /* calls failed while armed */
   const char *failed_name;  /* the command failed first (static string), or NULL */
   VkResult failed_result;   /* what it returned */
   long live[FD_KINDS];      /* driver objects live below the layer, all devices */
   long leaked;              /* objects still live when their device was destroyed */
   long watched_seen;        /* chains that held the watched sType since it was named */
   const char *watched_last; /* the command that last passed one down, or NULL */
};

/* fail_at >= 0: arm, failing the fail_at-th watched call from now (0 is the next one);
 * FAIL_DRIVER_COUNT: arm, failing nothing (counting only); FAIL_DRIVER_OFF: disarm.
 * Arming resets calls and failed. stats (may be NULL) receives the counters. */
#define FAIL_DRIVER_COUNT (-1L)
#define FAIL_DRIVER_OFF (-2L)
typedef void(VKAPI_PTR *PFN_vmelTestFailDriverControl)(long fail_at,
                                                       struct fail_driver_stats *stats);
/* Names the sType to watch for (resetting watched_seen and watched_last). */
typedef void(VKAPI_PTR *PFN_vmelTestFailDriverWatch)(VkStructureType stype);

#endif /* VMEL_FAIL_DRIVER_H */
