/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Memory planners for a session's intermediate tensors (design.md §6, style
 * §10.10): pure functions over plain arrays, with no Vulkan calls and no
 * allocations. The caller owns every array. A tensor is an interval: a size
 * and the first and last stage that use it. Two intervals are live at the same
 * time when their stage ranges intersect, and then their memory ranges must
 * not intersect. Every planner is deterministic: ties are broken by interval
 * id (the index in the array), so a given graph always gets the same layout.
 *
 * Turning tensors into intervals and binding the memory is dg_session.c's job.
 */
#ifndef DG_PLAN_H
#define DG_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

/** The environment variable that selects a planner by name. */
#define DG_PLANNER_ENV "VMEL_MEMORY_PLANNER"

/** One tensor to place. Its id is its index in the array. */
struct dg_interval {
   VkDeviceSize size; /* bytes; a zero-size interval occupies nothing and gets offset 0 */
   uint32_t first;    /* first stage index that uses the tensor */
   uint32_t last;     /* last stage index that uses it (inclusive, >= first) */
};

enum dg_planner {
   /* Greedy by size: largest interval first, each at the lowest aligned offset
    * that no live interval occupies. The default. */
   DG_PLANNER_INTERVAL,
   /* No reuse: every interval gets its own range, in id order. */
   DG_PLANNER_LINEAR,
   /* Allocation order (first stage, then id), each into the smallest free gap
    * among the live intervals that fits it, like a best-fit heap. */
   DG_PLANNER_BEST_FIT,
   DG_PLANNER_COUNT,
};

/**
 * Parses a VMEL_MEMORY_PLANNER value: "Interval", "Linear" or "BestFit",
 * compared without regard to case.
 * @param name    the value; NULL or "" selects the default (Interval)
 * @param planner receives the planner; DG_PLANNER_INTERVAL when name is unknown
 * @return false when name is set but names no planner (the caller logs it)
 */
bool dg_planner_from_name(const char *name, enum dg_planner *planner);

/** The name of a planner as VMEL_MEMORY_PLANNER spells it, or "?" */
const char *dg_planner_name(enum dg_planner planner);

/**
 * The interval planner (DG_PLANNER_INTERVAL).
 * @param iv         count intervals
 * @param alignment  every offset is a multiple of it; 0 is taken as 1
 * @param offsets    receives count offsets
 * @param total_size receives the size of memory the plan needs: the largest
 *                   offset + size, 0 when nothing has a size
 * @return VK_SUCCESS; VK_ERROR_INITIALIZATION_FAILED when an interval has
 *         last < first or a pointer is NULL; VK_ERROR_OUT_OF_DEVICE_MEMORY when
 *         the plan does not fit in a VkDeviceSize
 */
VkResult dg_plan_intervals(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
                           VkDeviceSize *offsets, VkDeviceSize *total_size);

/** The linear planner (no reuse); parameters and results as dg_plan_intervals(). */
VkResult dg_plan_linear(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
                        VkDeviceSize *offsets, VkDeviceSize *total_size);

/** The best-fit planner; parameters and results as dg_plan_intervals(). */
VkResult dg_plan_best_fit(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
                          VkDeviceSize *offsets, VkDeviceSize *total_size);

/** Runs the selected planner; parameters and results as dg_plan_intervals(). */
VkResult dg_plan(enum dg_planner planner, const struct dg_interval *iv, uint32_t count,
                 VkDeviceSize alignment, VkDeviceSize *offsets, VkDeviceSize *total_size);

/**
 * The lower bound of every plan: the largest total size of intervals that are
 * live at one stage (sizes as given, without alignment). Saturates at
 * UINT64_MAX. Log it next to the planned size.
 */
VkDeviceSize dg_plan_lower_bound(const struct dg_interval *iv, uint32_t count);

#endif /* DG_PLAN_H */
