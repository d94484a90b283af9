/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the memory planners (graph/dg_plan.c): table cases with exact
 * offsets and totals (disjoint, nested, identical lifetimes, chains,
 * alignment larger than the sizes, zero-size intervals, one giant interval,
 * invalid input, overflow), planner names, and randomized plans checked for
 * alignment, for no overlap between live intervals, for determinism and for
 * the peak against the lower bound.
 */
#include "test.h"

#include "dg_plan.h"

#define MAX_IV 256

static const enum dg_planner all_planners[] = {DG_PLANNER_INTERVAL, DG_PLANNER_LINEAR,
                                               DG_PLANNER_BEST_FIT};

/* Checks a plan: aligned offsets, no two live intervals sharing memory, and
 * total_size == the largest end. Returns true when all hold. */
static bool
plan_valid(const struct dg_interval *iv, uint32_t count, VkDeviceSize alignment,
           const VkDeviceSize *offsets, VkDeviceSize total)
{
   VkDeviceSize end = 0;
   bool good = true;
   for (uint32_t i = 0; i < count; i++) {
      if (alignment > 1 && offsets[i] % alignment != 0)
         good = ok(0, "interval %u: offset %" PRIu64 " not a multiple of %" PRIu64, i, offsets[i],
                   alignment);
      if (iv[i].size == 0)
         continue;
      if (offsets[i] + iv[i].size > end)
         end = offsets[i] + iv[i].size;
      for (uint32_t j = i + 1; j < count; j++) {
         if (iv[j].size == 0 || iv[i].first > iv[j].last || iv[j].first > iv[i].last)
            continue;
         if (offsets[i] < offsets[j] + iv[j].size && offsets[j] < offsets[i] + iv[i].size)
            good = ok(0, "intervals %u and %u are live together and overlap in memory", i, j);
      }
   }
   if (end != total)
      good = ok(0, "total %" PRIu64 " is not the largest end %" PRIu64, total, end);
   return good;
}

struct table_case {
   const char *name;
   VkDeviceSize alignment;
   uint32_t count;
   struct dg_interval iv[8];
   VkDeviceSize lower_bound;
   /* Expected totals per planner (Interval, Linear, BestFit). */
   VkDeviceSize total[3];
   /* Expected interval-planner offsets (checked when check_offsets). */
   bool check_offsets;
   VkDeviceSize offsets[8];
};

static const struct table_case table_cases[] = {
    {"empty", 1, 0, {{0}}, 0, {0, 0, 0}, false, {0}},
    {"disjoint",
     1,
     3,
     {{100, 0, 0}, {200, 1, 1}, {50, 2, 2}},
     200,
     {200, 350, 200},
     true,
     {0, 0, 0}},
    {"nested",
     1,
     3,
     {{100, 0, 9}, {50, 2, 5}, {25, 3, 4}},
     175,
     {175, 175, 175},
     true,
     {0, 100, 150}},
    {"identical lifetimes",
     1,
     4,
     {{10, 0, 3}, {20, 0, 3}, {30, 0, 3}, {40, 0, 3}},
     100,
     {100, 100, 100},
     true,
     {90, 70, 40, 0}},
    {"identical sizes and lifetimes (ties by id)",
     1,
     3,
     {{64, 1, 2}, {64, 1, 2}, {64, 1, 2}},
     192,
     {192, 192, 192},
     true,
     {0, 64, 128}},
    {"chain",
     1,
     3,
     {{100, 0, 1}, {100, 1, 2}, {100, 2, 3}},
     200,
     {200, 300, 200},
     true,
     {0, 100, 0}},
    {"alignment larger than the sizes",
     256,
     3,
     {{3, 0, 1}, {5, 0, 1}, {7, 0, 1}},
     15,
     {515, 519, 519},
     true,
     {512, 256, 0}},
    {"zero-size intervals",
     16,
     4,
     {{0, 0, 5}, {32, 0, 1}, {0, 1, 1}, {32, 1, 2}},
     64,
     {64, 64, 64},
     true,
     {0, 0, 0, 32}},
    {"all zero-size", 16, 2, {{0, 0, 5}, {0, 0, 5}}, 0, {0, 0, 0}, true, {0, 0}},
    {"one giant interval",
     1,
     5,
     {{1ull << 40, 0, 9}, {10, 1, 1}, {10, 2, 2}, {10, 3, 3}, {10, 4, 4}},
     (1ull << 40) + 10,
     {(1ull << 40) + 10, (1ull << 40) + 40, (1ull << 40) + 10},
     true,
     {0, 1ull << 40, 1ull << 40, 1ull << 40, 1ull << 40}},
    /* Two holes open at stage 2: [0,128) and [160,224). Best fit puts the
     * 64-byte interval 4 into the smaller one (checked in test_orders()). */
    {"holes",
     1,
     6,
     {{128, 0, 1}, {32, 0, 3}, {64, 0, 1}, {32, 0, 3}, {64, 2, 3}, {128, 2, 3}},
     256,
     {256, 448, 256},
     true,
     {0, 192, 128, 224, 128, 0}},
};

static void
test_table(void)
{
   for (size_t t = 0; t < sizeof(table_cases) / sizeof(table_cases[0]); t++) {
      const struct table_case *c = &table_cases[t];
      test_set_context(c->name);
      check_eq_u64(dg_plan_lower_bound(c->iv, c->count), c->lower_bound);
      for (uint32_t p = 0; p < 3; p++) {
         VkDeviceSize offsets[8] = {0}, total = 12345;
         VkResult res = dg_plan(all_planners[p], c->iv, c->count, c->alignment, offsets, &total);
         check_eq_i64(res, VK_SUCCESS);
         ok(total == c->total[p], "%s: total %" PRIu64 ", expected %" PRIu64,
            dg_planner_name(all_planners[p]), total, c->total[p]);
         plan_valid(c->iv, c->count, c->alignment, offsets, total);
         if (c->check_offsets && all_planners[p] == DG_PLANNER_INTERVAL) {
            for (uint32_t i = 0; i < c->count; i++)
               ok(offsets[i] == c->offsets[i], "offset[%u] %" PRIu64 ", expected %" PRIu64, i,
                  offsets[i], c->offsets[i]);
         }
      }
   }
   test_set_context(NULL);
}

static void
test_errors(void)
{
   VkDeviceSize offsets[2], total;
   const struct dg_interval backwards[] = {{16, 3, 2}};
   for (uint32_t p = 0; p < 3; p++) {
      test_set_context(dg_planner_name(all_planners[p]));
      check_eq_i64(dg_plan(all_planners[p], backwards, 1, 1, offsets, &total),
                   VK_ERROR_INITIALIZATION_FAILED);
      check_eq_i64(dg_plan(all_planners[p], backwards, 1, 1, NULL, &total),
                   VK_ERROR_INITIALIZATION_FAILED);
      check_eq_i64(dg_plan(all_planners[p], NULL, 0, 1, NULL, NULL),
                   VK_ERROR_INITIALIZATION_FAILED);
      /* Two live intervals that cannot both fit below 2^64. */
      const struct dg_interval huge[] = {{(1ull << 63) + 1, 0, 1}, {(1ull << 63) + 1, 1, 2}};
      check_eq_i64(dg_plan(all_planners[p], huge, 2, 1, offsets, &total),
                   VK_ERROR_OUT_OF_DEVICE_MEMORY);
      /* ... but they fit when they are not live together (except for Linear). */
      const struct dg_interval apart[] = {{(1ull << 63) + 1, 0, 0}, {(1ull << 63) + 1, 1, 2}};
      check_eq_i64(dg_plan(all_planners[p], apart, 2, 1, offsets, &total),
                   all_planners[p] == DG_PLANNER_LINEAR ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                                                        : VK_SUCCESS);
      /* Alignment 0 means 1; alignment need not be a power of two. */
      const struct dg_interval two[] = {{5, 0, 1}, {5, 0, 1}};
      check_eq_i64(dg_plan(all_planners[p], two, 2, 0, offsets, &total), VK_SUCCESS);
      check_eq_u64(total, 10);
      check_eq_i64(dg_plan(all_planners[p], two, 2, 12, offsets, &total), VK_SUCCESS);
      check_eq_u64(total, 17);
   }
   test_set_context(NULL);
   check_eq_u64(dg_plan_lower_bound(NULL, 0), 0);
   const struct dg_interval sat[] = {{UINT64_MAX, 0, 1}, {UINT64_MAX, 0, 1}};
   check_eq_u64(dg_plan_lower_bound(sat, 2), UINT64_MAX);
}

static void
test_names(void)
{
   enum dg_planner p = DG_PLANNER_BEST_FIT;
   ok(dg_planner_from_name(NULL, &p) && p == DG_PLANNER_INTERVAL, "NULL selects Interval");
   ok(dg_planner_from_name("", &p) && p == DG_PLANNER_INTERVAL, "\"\" selects Interval");
   ok(dg_planner_from_name("Linear", &p) && p == DG_PLANNER_LINEAR, "Linear");
   ok(dg_planner_from_name("bestfit", &p) && p == DG_PLANNER_BEST_FIT, "bestfit");
   ok(dg_planner_from_name("INTERVAL", &p) && p == DG_PLANNER_INTERVAL, "INTERVAL");
   p = DG_PLANNER_LINEAR;
   ok(!dg_planner_from_name("Greedy", &p) && p == DG_PLANNER_INTERVAL,
      "unknown name fails and selects Interval");
   check_str(dg_planner_name(DG_PLANNER_BEST_FIT), "BestFit");
   check_str(dg_planner_name(DG_PLANNER_COUNT), "?");
}

/* xorshift64*: deterministic across platforms. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t
rng(uint32_t n)
{
   rng_state ^= rng_state >> 12;
   rng_state ^= rng_state << 25;
   rng_state ^= rng_state >> 27;
   return (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 32) % n;
}

enum size_dist { SIZES_UNIFORM, SIZES_POW2, SIZES_HEAVY, SIZES_DIST_COUNT };

/* Random intervals shaped like a graph's intermediates: most live a few
 * stages, some (skip connections) live long. Sizes are multiples of the
 * alignment for the ratio statistics. */
static uint32_t
random_intervals(struct dg_interval *iv, enum size_dist dist, VkDeviceSize unit)
{
   uint32_t count = 1 + rng(MAX_IV - 1);
   uint32_t stages = 1 + rng(2 * count);
   for (uint32_t i = 0; i < count; i++) {
      uint32_t first = rng(stages);
      uint32_t len = rng(8) == 0 ? rng(stages) : rng(4);
      iv[i].first = first;
      iv[i].last = first + len;
      switch (dist) {
      case SIZES_UNIFORM:
         iv[i].size = unit * (1 + rng(1000));
         break;
      case SIZES_POW2:
         iv[i].size = unit << rng(12);
         break;
      default:
         iv[i].size = unit * (rng(10) == 0 ? 1 + rng(100000) : 1 + rng(100));
         break;
      }
      if (rng(50) == 0)
         iv[i].size = 0;
   }
   return count;
}

static void
test_random(void)
{
   static struct dg_interval iv[MAX_IV];
   static VkDeviceSize off[MAX_IV], off2[MAX_IV];
   const uint32_t trials = 300;
   double worst[3] = {0}, sum[3] = {0};
   uint32_t ratio_cases = 0, failures = 0;

   for (uint32_t t = 0; t < trials; t++) {
      VkDeviceSize alignment = (VkDeviceSize)1 << rng(9);
      enum size_dist dist = (enum size_dist)(t % SIZES_DIST_COUNT);
      uint32_t count = random_intervals(iv, dist, alignment);
      VkDeviceSize bound = dg_plan_lower_bound(iv, count);
      if (bound)
         ratio_cases++;
      for (uint32_t p = 0; p < 3; p++) {
         VkDeviceSize total = 0, total2 = 0;
         if (dg_plan(all_planners[p], iv, count, alignment, off, &total) != VK_SUCCESS ||
             !plan_valid(iv, count, alignment, off, total)) {
            failures++;
            continue;
         }
         /* Determinism: the same input gives the same plan. */
         dg_plan(all_planners[p], iv, count, alignment, off2, &total2);
         if (total != total2 || memcmp(off, off2, count * sizeof(off[0])) != 0)
            failures +=
                !ok(0, "%s: plan differs on the second run", dg_planner_name(all_planners[p]));
         if (total < bound)
            failures += !ok(0, "total %" PRIu64 " below the lower bound %" PRIu64, total, bound);
         if (bound) {
            double ratio = (double)total / (double)bound;
            sum[p] += ratio;
            if (ratio > worst[p])
               worst[p] = ratio;
         }
      }
   }
   ok(failures == 0, "%u random plans failed", failures);
   for (uint32_t p = 0; p < 3; p++)
      printf("%-8s peak / lower bound over %u random cases: mean %.3f, worst %.3f\n",
             dg_planner_name(all_planners[p]), ratio_cases, sum[p] / ratio_cases, worst[p]);
   /* Finding the optimal plan is NP-hard and greedy-by-size has no proven
    * constant ratio, so these are bounds for these distributions with a
    * margin: over 5,000 cases of this generator the interval planner measured
    * mean 1.016 and worst 1.456, best fit mean 1.105 and worst 2.004. The
    * lower bound ignores alignment, which multiple-of-alignment sizes keep out
    * of the ratio. A regression that stops reuse shows as Linear's mean of 5x. */
   ok(worst[0] <= 2.0, "interval planner worst ratio %.3f <= 2", worst[0]);
   ok(sum[0] / ratio_cases <= 1.2, "interval planner mean ratio %.3f <= 1.2", sum[0] / ratio_cases);
   ok(worst[2] <= 3.0, "best-fit planner worst ratio %.3f <= 3", worst[2]);
   ok(sum[0] <= sum[2] + 1e-9, "interval planner no worse than best fit on average");
}

/* Placement orders: ties by id for both greedy planners, and best fit
 * choosing the smallest hole. */
static void
test_orders(void)
{
   struct dg_interval iv[4] = {{48, 0, 2}, {48, 1, 3}, {48, 0, 3}, {48, 2, 2}};
   VkDeviceSize off[4], total;
   check_eq_i64(dg_plan_intervals(iv, 4, 16, off, &total), VK_SUCCESS);
   /* 0 -> 0, 1 -> 48, 2 -> 96, 3: live with 0, 1 and 2 -> 144. */
   check_eq_u64(off[0], 0);
   check_eq_u64(off[1], 48);
   check_eq_u64(off[2], 96);
   check_eq_u64(off[3], 144);
   check_eq_u64(total, 192);
   check_eq_i64(dg_plan_best_fit(iv, 4, 16, off, &total), VK_SUCCESS);
   /* Allocation order by first stage then id: 0, 2, 1, 3. */
   check_eq_u64(off[0], 0);
   check_eq_u64(off[2], 48);
   check_eq_u64(off[1], 96);
   check_eq_u64(off[3], 144);

   const struct table_case *holes = NULL;
   for (size_t t = 0; t < sizeof(table_cases) / sizeof(table_cases[0]); t++) {
      if (strcmp(table_cases[t].name, "holes") == 0)
         holes = &table_cases[t];
   }
   VkDeviceSize hoff[6];
   check_eq_i64(dg_plan_best_fit(holes->iv, 6, 1, hoff, &total), VK_SUCCESS);
   check_eq_u64(hoff[4], 160); /* the 64-byte hole, not the 128-byte one at 0 */
   check_eq_u64(hoff[5], 0);
}

TEST_MAIN_STATE;

int
main(void)
{
   test_table();
   test_errors();
   test_names();
   test_orders();
   test_random();
   return test_done();
}
