/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The memory planners: interval (greedy by size), linear and best fit, the
 * lower bound, and planner names. Pure functions over the caller's arrays:
 * no Vulkan calls, no allocations, no logging, no global state. The offsets
 * array doubles as the "placed yet?" marker while a plan is built, which is
 * what lets the planners run without scratch memory.
 *
 * Cost: each placement scans the placed intervals once per candidate offset,
 * and the candidates are the ends of the live placed intervals, so a plan is
 * O(n * (n + k * n)) for n intervals of which at most k are live together;
 * graphs have hundreds of intermediates, not millions. What becomes of the
 * plan (tensors bound at these offsets) is dg_session.c's business.
 */
#include "dg_plan.h"

#include <strings.h>

/* Offset of an interval that has not been placed yet. A placed interval never
 * has it: placement checks that offset + size fits in a VkDeviceSize. */
#define DG_UNPLACED UINT64_MAX

static const char *const dg_planner_names[DG_PLANNER_COUNT] = {
    [DG_PLANNER_INTERVAL] = "Interval",
    [DG_PLANNER_LINEAR] = "Linear",
    [DG_PLANNER_BEST_FIT] = "BestFit",
};

bool
dg_planner_from_name(const char *name, enum dg_planner *planner)
{
   *planner = DG_PLANNER_INTERVAL;
   if (!name || !name[0])
      return true;
   for (uint32_t p = 0; p < DG_PLANNER_COUNT; p++) {
      if (strcasecmp(name, dg_planner_names[p]) == 0) {
         *planner = (enum dg_planner)p;
         return true;
      }
   }
   return false;
}

const char *
dg_planner_name(enum dg_planner planner)
{
   return (unsigned)planner < DG_PLANNER_COUNT ? dg_planner_names[planner] : "?";
}

static bool
live_together(const struct dg_interval *a, const struct dg_interval *b)
{
   return a->first <= b->last && b->first <= a->last;
}

/* Rounds v up to a multiple of a (any a >= 1, not only powers of two). */
static bool
align_up(VkDeviceSize v, VkDeviceSize a, VkDeviceSize *out)
{
   VkDeviceSize rem = v % a;
   if (rem == 0) {
      *out = v;
      return true;
   }
   if (v > UINT64_MAX - (a - rem))
      return false;
   *out = v + (a - rem);
   return true;
}

static VkResult
check_args(const struct dg_interval *iv, uint32_t count, const VkDeviceSize *offsets,
           const VkDeviceSize *total_size)
{
   if (!total_size || (count && (!iv || !offsets)))
      return VK_ERROR_INITIALIZATION_FAILED;
   for (uint32_t i = 0; i < count; i++) {
      if (iv[i].last < iv[i].first)
         return VK_ERROR_INITIALIZATION_FAILED;
   }
   return VK_SUCCESS;
}

/* True if interval j is placed, has a size and is live together with i. */
static bool
placed_neighbour(const struct dg_interval *iv, const VkDeviceSize *offsets, uint32_t i, uint32_t j)
{
   return j != i && offsets[j] != DG_UNPLACED && iv[j].size != 0 && live_together(&iv[i], &iv[j]);
}

/* True if [c, c + size of i) intersects no placed interval live together with i. */
static bool
range_free(const struct dg_interval *iv, uint32_t count, const VkDeviceSize *offsets, uint32_t i,
           VkDeviceSize c)
{
   VkDeviceSize end = c + iv[i].size;
   for (uint32_t k = 0; k < count; k++) {
      if (placed_neighbour(iv, offsets, i, k) && c < offsets[k] + iv[k].size && offsets[k] < end)
         return false;
   }
   return true;
}

/* Candidate offsets for interval i: 0 (index 0), then the aligned end of each
 * placed neighbour j (index j + 1). Returns false when index names no
 * candidate, or one that would not fit in a VkDeviceSize. */
static bool
candidate(const struct dg_interval *iv, const VkDeviceSize *offsets, VkDeviceSize alignment,
          uint32_t i, uint32_t index, VkDeviceSize *c)
{
   if (index == 0) {
      *c = 0;
   } else {
      uint32_t j = index - 1;
      if (!placed_neighbour(iv, offsets, i, j) || !align_up(offsets[j] + iv[j].size, alignment, c))
         return false;
   }
   return *c <= UINT64_MAX - iv[i].size;
}

/* The interval planner's placement: the lowest free candidate. The lowest
 * free offset is always a candidate: sliding a free range down stops at 0 or
 * at the (aligned) end of a neighbour. */
static VkResult
place_lowest(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
             VkDeviceSize *offsets, uint32_t i)
{
   VkDeviceSize best = DG_UNPLACED;
   for (uint32_t index = 0; index <= count; index++) {
      VkDeviceSize c;
      if (!candidate(iv, offsets, alignment, i, index, &c) || c >= best)
         continue;
      if (range_free(iv, count, offsets, i, c))
         best = c;
   }
   if (best == DG_UNPLACED)
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   offsets[i] = best;
   return VK_SUCCESS;
}

/* The start of the first neighbour of i at or above c, or DG_UNPLACED when
 * there is none (the gap at c is unbounded). */
static VkDeviceSize
gap_end(const struct dg_interval *iv, uint32_t count, const VkDeviceSize *offsets, uint32_t i,
        VkDeviceSize c)
{
   VkDeviceSize end = DG_UNPLACED;
   for (uint32_t k = 0; k < count; k++) {
      if (placed_neighbour(iv, offsets, i, k) && offsets[k] >= c && offsets[k] < end)
         end = offsets[k];
   }
   return end;
}

/* The best-fit placement: the free candidate whose gap (up to the next
 * neighbour) is smallest; ties go to the lower offset. Unbounded gaps (above
 * every neighbour) are used only when no bounded gap fits. */
static VkResult
place_best_fit(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
               VkDeviceSize *offsets, uint32_t i)
{
   VkDeviceSize best = DG_UNPLACED, best_gap = 0;
   bool best_bounded = false;
   for (uint32_t index = 0; index <= count; index++) {
      VkDeviceSize c;
      if (!candidate(iv, offsets, alignment, i, index, &c) || !range_free(iv, count, offsets, i, c))
         continue;
      VkDeviceSize end = gap_end(iv, count, offsets, i, c);
      bool bounded = end != DG_UNPLACED;
      VkDeviceSize gap = bounded ? end - c : 0;
      bool better;
      if (best == DG_UNPLACED)
         better = true;
      else if (bounded != best_bounded)
         better = bounded;
      else if (bounded && gap != best_gap)
         better = gap < best_gap;
      else
         better = c < best;
      if (better) {
         best = c;
         best_gap = gap;
         best_bounded = bounded;
      }
   }
   if (best == DG_UNPLACED)
      return VK_ERROR_OUT_OF_DEVICE_MEMORY;
   offsets[i] = best;
   return VK_SUCCESS;
}

/* Placement order: true if unplaced interval a goes before b (a < b in id). */
typedef bool (*dg_plan_before_fn)(const struct dg_interval *iv, uint32_t a, uint32_t b);
typedef VkResult (*dg_plan_place_fn)(const struct dg_interval *iv, uint32_t count,
                                     VkDeviceSize alignment, VkDeviceSize *offsets, uint32_t i);

static bool
larger_first(const struct dg_interval *iv, uint32_t a, uint32_t b)
{
   return iv[a].size > iv[b].size;
}

static bool
earlier_first(const struct dg_interval *iv, uint32_t a, uint32_t b)
{
   return iv[a].first < iv[b].first;
}

static VkDeviceSize
plan_end(const struct dg_interval *iv, uint32_t count, const VkDeviceSize *offsets)
{
   VkDeviceSize total = 0;
   for (uint32_t i = 0; i < count; i++) {
      if (iv[i].size && offsets[i] + iv[i].size > total)
         total = offsets[i] + iv[i].size;
   }
   return total;
}

/* Places the intervals one at a time in the order `before` gives (ties by id:
 * the scan is ascending and only a strictly earlier interval replaces the
 * pick). */
static VkResult
plan_greedy(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
            VkDeviceSize *offsets, VkDeviceSize *total_size, dg_plan_before_fn before,
            dg_plan_place_fn place)
{
   VkResult result = check_args(iv, count, offsets, total_size);
   if (result != VK_SUCCESS)
      return result;
   if (alignment == 0)
      alignment = 1;
   for (uint32_t i = 0; i < count; i++)
      offsets[i] = DG_UNPLACED;

   for (uint32_t step = 0; step < count; step++) {
      uint32_t pick = UINT32_MAX;
      for (uint32_t i = 0; i < count; i++) {
         if (offsets[i] == DG_UNPLACED && (pick == UINT32_MAX || before(iv, i, pick)))
            pick = i;
      }
      if (iv[pick].size == 0) {
         offsets[pick] = 0;
         continue;
      }
      result = place(iv, count, alignment, offsets, pick);
      if (result != VK_SUCCESS) {
         for (uint32_t i = 0; i < count; i++)
            offsets[i] = 0;
         return result;
      }
   }
   *total_size = plan_end(iv, count, offsets);
   return VK_SUCCESS;
}

VkResult
dg_plan_intervals(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
                  VkDeviceSize *offsets, VkDeviceSize *total_size)
{
   return plan_greedy(iv, count, alignment, offsets, total_size, larger_first, place_lowest);
}

VkResult
dg_plan_best_fit(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
                 VkDeviceSize *offsets, VkDeviceSize *total_size)
{
   return plan_greedy(iv, count, alignment, offsets, total_size, earlier_first, place_best_fit);
}

VkResult
dg_plan_linear(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
               VkDeviceSize *offsets, VkDeviceSize *total_size)
{
   VkResult result = check_args(iv, count, offsets, total_size);
   if (result != VK_SUCCESS)
      return result;
   if (alignment == 0)
      alignment = 1;
   VkDeviceSize end = 0;
   for (uint32_t i = 0; i < count; i++) {
      offsets[i] = 0;
      if (iv[i].size == 0)
         continue;
      VkDeviceSize at;
      if (!align_up(end, alignment, &at) || at > UINT64_MAX - iv[i].size) {
         for (uint32_t k = 0; k < count; k++)
            offsets[k] = 0;
         return VK_ERROR_OUT_OF_DEVICE_MEMORY;
      }
      offsets[i] = at;
      end = at + iv[i].size;
   }
   *total_size = end;
   return VK_SUCCESS;
}

VkResult
dg_plan(enum dg_planner planner, const struct dg_interval *iv, uint32_t count,
        VkDeviceSize alignment, VkDeviceSize *offsets, VkDeviceSize *total_size)
{
   switch (planner) {
   case DG_PLANNER_LINEAR:
      return dg_plan_linear(iv, count, alignment, offsets, total_size);
   case DG_PLANNER_BEST_FIT:
      return dg_plan_best_fit(iv, count, alignment, offsets, total_size);
   case DG_PLANNER_INTERVAL:
   case DG_PLANNER_COUNT:
      break;
   }
   return dg_plan_intervals(iv, count, alignment, offsets, total_size);
}

VkDeviceSize
dg_plan_lower_bound(const struct dg_interval *iv, uint32_t count)
{
   /* The live set only grows at some interval's first stage, so the maximum
    * is reached at one of those stages. */
   VkDeviceSize bound = 0;
   for (uint32_t i = 0; i < count; i++) {
      if (!iv || iv[i].size == 0)
         continue;
      VkDeviceSize live = 0;
      for (uint32_t j = 0; j < count; j++) {
         if (iv[j].first <= iv[i].first && iv[i].first <= iv[j].last)
            live = live > UINT64_MAX - iv[j].size ? UINT64_MAX : live + iv[j].size;
      }
      if (live > bound)
         bound = live;
   }
   return bound;
}
