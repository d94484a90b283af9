/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The optical-flow CPU reference (tests/reference/optical_flow.h, D48) and its
 * synthetic frames (of_synth.h): the generator's ground truth (a translation's
 * frames are equal after shifting, occlusions left out), the measures on hand
 * cases, the algorithm's quality at 160x120 against issue 13's targets for
 * every performance level and grid, the hint, the cost, the pyramid cache's
 * execute flags and the half-float storage.
 */
#include "of_synth.h"
#include "optical_flow.h"
#include "test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

TEST_MAIN_STATE;

#define W 160
#define H 120

static void
generator(void)
{
   test_set_context("generator");
   struct of_synth s;
   struct of_synth_desc d = {.kind = OF_SYNTH_TRANSLATE, .dx = 5.0f, .dy = -3.0f};
   ok(of_synth_make(&s, &d, W, H, 7), "translation made");
   bool eq = true, valid = true;
   double sum = 0, sq = 0;
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         size_t i = (size_t)y * W + x;
         bool in = x + 5 < W && y - 3 >= 0;
         valid &= s.valid[i] == in && s.gt[2 * i] == 5.0f && s.gt[2 * i + 1] == -3.0f;
         if (in)
            eq &= s.input[i] == s.reference[(size_t)(y - 3) * W + x + 5];
         sum += s.input[i];
         sq += (double)s.input[i] * s.input[i];
      }
   ok(eq, "input(p) == reference(p + (5, -3)) everywhere the motion keeps in frame");
   ok(valid, "valid exactly where p + gt is inside; gt constant");
   double sd = sqrt(sq / (W * H) - (sum / (W * H)) * (sum / (W * H)));
   ok(sd > 25.0, "textured (standard deviation %.1f)", sd);
   struct of_synth t;
   ok(of_synth_make(&t, &d, W, H, 7) && !memcmp(s.input, t.input, W * H) &&
          !memcmp(s.reference, t.reference, W * H),
      "deterministic from the seed");
   of_synth_free(&t);
   ok(of_synth_make(&t, &d, W, H, 8) && memcmp(s.reference, t.reference, W * H),
      "another seed, other frames");
   of_synth_free(&t);
   of_synth_free(&s);

   /* integer motions in all three layers: every valid pixel matches its reference pixel */
   struct of_synth_desc m = {
       .kind = OF_SYNTH_TWO_MOTIONS, .dx = 1, .dy = -1, .ax = -4, .ay = 2, .bx = 5, .by = 3};
   ok(of_synth_make(&s, &m, W, H, 3), "two motions made");
   int kinds[3] = {0, 0, 0}, bad = 0, invalid = 0;
   for (int y = 0; y < H; y++)
      for (int x = 0; x < W; x++) {
         size_t i = (size_t)y * W + x;
         float gx = s.gt[2 * i], gy = s.gt[2 * i + 1];
         kinds[gx == 1 ? 0 : gx == -4 ? 1 : 2]++;
         if (!s.valid[i]) {
            invalid++;
            continue;
         }
         bad += s.input[i] != s.reference[(size_t)(y + (int)gy) * W + x + (int)gx];
      }
   ok(bad == 0, "two motions: every valid pixel equals the reference at p + gt (%d differ)", bad);
   ok(kinds[0] > W * H / 2 && kinds[1] > 1000 && kinds[2] > 1000, "three regions: %d %d %d",
      kinds[0], kinds[1], kinds[2]);
   ok(invalid > W + H && invalid < W * H / 10, "occluded and uncovered pixels left out (%d)",
      invalid);
   of_synth_free(&s);

   struct of_synth_desc r = {.kind = OF_SYNTH_ROTATE_ZOOM, .angle_deg = 90.0f, .zoom = 2.0f};
   ok(of_synth_make(&s, &r, W, H, 3), "rotation made");
   /* (0, 0) is (-79.5, -59.5) from the centre: rotated by 90 degrees and doubled, (119, -159) */
   ok(fabsf(s.gt[0] - (79.5f + 119.0f)) < 1e-3f && fabsf(s.gt[1] - (59.5f - 159.0f)) < 1e-3f,
      "rotation+zoom ground truth at (0, 0): (%.3f, %.3f)", s.gt[0], s.gt[1]);
   of_synth_free(&s);
}

static void
measures(void)
{
   test_set_context("measures");
   float gt[32] = {0};
   uint8_t valid[16], in[16] = {0};
   memset(valid, 1, sizeof(valid));
   struct of_synth s = {.w = 4, .h = 4, .input = in, .reference = in, .gt = gt, .valid = valid};
   float flow[8] = {3, 4, 0, 0, 0, 0, 0, 0};
   uint16_t cost[4] = {10, 1, 2, 3};
   struct of_quality q;
   ok(of_measure(&s, flow, cost, 2, &q), "measured");
   ok(fabs(q.epe - 1.25) < 1e-12 && fabs(q.outliers - 0.25) < 1e-12 && q.pixels == 16 &&
          q.vectors == 4,
      "EPE 4 x 5 px / 16 = 1.25, outliers 0.25 (%g, %g)", q.epe, q.outliers);
   /* cost ranks (4, 1, 2, 3), error ranks (4, 2, 2, 2): 3 / sqrt(5 * 3) */
   ok(fabs(q.spearman - 3.0 / sqrt(15.0)) < 1e-12, "Spearman %g", q.spearman);
   ok(q.epe_best_half == 0.0, "the two cheapest vectors are exact");
   valid[0] = 0;
   gt[2 * 15] = 1.0f; /* pixel (3, 3): error 1 */
   ok(of_measure(&s, flow, NULL, 2, &q), "measured without cost");
   ok(fabs(q.epe - 16.0 / 15.0) < 1e-12 && q.pixels == 15 && isnan(q.spearman),
      "invalid pixel left out: (3 x 5 + 1) / 15 (%g)", q.epe);
}

/* Runs one case at W x H; returns the EPE, fills the quality. */
static double
run(const struct of_synth_desc *d, enum of_perf perf, uint32_t grid, const float *hint,
    struct of_quality *q)
{
   struct of_synth s;
   struct of_pyramid pi = {0}, pr = {0};
   uint32_t levels = of_levels(W, H, perf);
   struct of_image in = {NULL, W, H, W, 8}, ref = in;
   double epe = 1e9;
   if (!of_synth_make(&s, d, W, H, 11))
      return epe;
   in.data = s.input;
   ref.data = s.reference;
   float *flow = malloc(sizeof(float) * 2 * of_grid_w(W, grid) * of_grid_h(H, grid));
   uint16_t *cost = malloc(sizeof(uint16_t) * of_grid_w(W, grid) * of_grid_h(H, grid));
   struct of_params prm = {
       .width = W, .height = H, .grid = grid, .perf = perf, .hint = hint, .hint_grid = 8};
   if (flow && cost && of_pyramid_build(&pi, &in, levels) && of_pyramid_build(&pr, &ref, levels) &&
       of_compute(&prm, &pi, &pr, flow, cost) && of_measure(&s, flow, cost, grid, q))
      epe = q->epe;
   free(flow);
   free(cost);
   of_pyramid_free(&pi);
   of_pyramid_free(&pr);
   of_synth_free(&s);
   return epe;
}

static void
quality(void)
{
   static const struct {
      const char *name;
      struct of_synth_desc d;
      double target, outliers;
   } cases[] = {
       {"translate_int", {.kind = OF_SYNTH_TRANSLATE, .dx = 6, .dy = -4}, 0.25, 0.005},
       {"translate_sub", {.kind = OF_SYNTH_TRANSLATE, .dx = 2.6f, .dy = -1.35f}, 0.25, 0.005},
       {"rotate_zoom", {.kind = OF_SYNTH_ROTATE_ZOOM, .angle_deg = 2.5f, .zoom = 1.04f}, 1.0, 0.01},
       {"two_motions",
        {.kind = OF_SYNTH_TWO_MOTIONS,
         .dx = 0.5f,
         .dy = -1.25f,
         .ax = -4.5f,
         .ay = 2.75f,
         .bx = 5.25f,
         .by = 3.5f},
        1.0,
        0.06}, /* motion boundaries: 3.5 % at worst */
   };
   static const uint32_t grids[4] = {1, 2, 4, 8};
   test_set_context("quality");
   for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
      for (int p = OF_PERF_SLOW; p <= OF_PERF_FAST; p++)
         for (int g = 0; g < 4; g++) {
            struct of_quality q;
            double e = run(&cases[c].d, (enum of_perf)p, grids[g], NULL, &q);
            ok(e <= cases[c].target && q.outliers <= cases[c].outliers,
               "%s level %d grid %u: EPE %.3f (<= %.2f), outliers %.2f%% (<= %.1f%%)",
               cases[c].name, p, grids[g], e, cases[c].target, 100.0 * q.outliers,
               100.0 * cases[c].outliers);
            if (cases[c].d.kind == OF_SYNTH_TWO_MOTIONS)
               ok(q.epe_best_half < 0.5 * q.epe,
                  "%s: the cheaper half by cost has half the error (%.3f of %.3f)", cases[c].name,
                  q.epe_best_half, q.epe);
         }
}

static void
hint(void)
{
   test_set_context("hint");
   /* beyond FAST's reach at this size (3 levels, radius 2: 14 px) */
   struct of_synth_desc d = {.kind = OF_SYNTH_TRANSLATE, .dx = 23.25f, .dy = -17.5f};
   struct of_quality q;
   double without = run(&d, OF_PERF_FAST, 4, NULL, &q);
   float *h = malloc(sizeof(float) * 2 * of_grid_w(W, 8) * of_grid_h(H, 8));
   for (uint32_t i = 0; h && i < of_grid_w(W, 8) * of_grid_h(H, 8); i++)
      h[2 * i] = 23.0f, h[2 * i + 1] = -17.0f;
   double with = h ? run(&d, OF_PERF_FAST, 4, h, &q) : 1e9;
   ok(without > 1.0, "FAST without a hint misses a 29 px motion (EPE %.2f)", without);
   ok(with <= 0.25, "the hint brings it within the target (EPE %.3f)", with);
   free(h);
}

static void
cache(void)
{
   test_set_context("cache");
   struct of_synth a, b;
   struct of_synth_desc d = {.kind = OF_SYNTH_TRANSLATE, .dx = 2.5f, .dy = 1.0f};
   ok(of_synth_make(&a, &d, W, H, 1) && of_synth_make(&b, &d, W, H, 2), "frames");
   struct of_image f0 = {a.input, W, H, W, 8}, f1 = {a.reference, W, H, W, 8},
                   f2 = {b.reference, W, H, W, 8};
   struct of_cache c;
   of_cache_init(&c);
   unsigned built = 9;
   uint32_t lv = of_levels(W, H, OF_PERF_MEDIUM);
   ok(!of_cache_update(&c, &f0, &f1, lv, OF_EXEC_INPUT_UNCHANGED, &built),
      "nothing to reuse yet: refused");
   ok(of_cache_update(&c, &f0, &f1, lv, 0, &built) && built == 2, "first dispatch builds both (%u)",
      built);
   ok(of_cache_update(&c, &f0, &f1, lv, OF_EXEC_INPUT_UNCHANGED | OF_EXEC_REFERENCE_UNCHANGED,
                      &built) &&
          built == 0,
      "both unchanged: none built (%u)", built);
   const uint8_t *old_ref = c.slot[c.reference_slot].img[2];
   ok(of_cache_update(&c, &f1, &f2, lv, OF_EXEC_INPUT_IS_PREVIOUS_REFERENCE, &built) &&
          built == 1 && c.slot[c.input_slot].img[2] == old_ref,
      "input is the previous reference: one built, the old pyramid moved (%u)", built);
   struct of_pyramid fresh = {0};
   ok(of_pyramid_build(&fresh, &f2, lv) &&
          !memcmp(fresh.img[lv - 1], c.slot[c.reference_slot].img[lv - 1],
                  fresh.w[lv - 1] * fresh.h[lv - 1]),
      "the new reference pyramid is the frame's");
   ok(of_cache_update(&c, &f2, &f1, lv,
                      OF_EXEC_INPUT_IS_PREVIOUS_REFERENCE | OF_EXEC_REFERENCE_IS_PREVIOUS_INPUT,
                      &built) &&
          built == 0 && c.slot[c.input_slot].img[0][5] == b.reference[5],
      "swapped: none built");
   ok(!of_cache_update(&c, &f0, &f1, lv + 1, OF_EXEC_INPUT_UNCHANGED, &built),
      "other level count: refused");
   struct of_image broken = {a.input, W, H, W, 12};
   ok(!of_cache_update(&c, &f0, &broken, lv, OF_EXEC_INPUT_UNCHANGED, &built),
      "a frame that cannot be built");
   ok(!of_cache_update(&c, &f0, &f1, lv, OF_EXEC_INPUT_UNCHANGED, &built),
      "after a failure nothing is reused");
   ok(of_cache_update(&c, &f0, &f1, lv, 0, &built) && built == 2, "then both built again");
   of_pyramid_free(&fresh);
   of_cache_free(&c);
   of_synth_free(&a);
   of_synth_free(&b);
}

static void
halves(void)
{
   test_set_context("half");
   ok(of_half_from_float(1.0f) == 0x3c00 && of_half_from_float(-2.75f) == 0xc180 &&
          of_half_from_float(65504.0f) == 0x7bff && of_half_from_float(1e6f) == 0x7c00 &&
          of_half_from_float(1.0f + 1.0f / 2048.0f) == 0x3c00 &&
          of_half_from_float(5.9604645e-8f) == 0x0001,
      "float -> half, ties to even");
   ok(of_half_to_float(0x3555) == 0.333251953125f && of_half_to_float(0x8001) == -5.9604645e-8f,
      "half -> float");
}

static void
inputs(void)
{
   test_set_context("inputs");
   struct of_synth s;
   struct of_synth_desc d = {.kind = OF_SYNTH_TRANSLATE, .dx = 1.5f, .dy = 0.5f};
   ok(of_synth_make(&s, &d, W, H, 5), "frames");
   /* the same frame as 16-bit samples (low byte noise) with a padded row stride */
   uint32_t stride = W + 7;
   uint16_t *wide = calloc((size_t)stride * H, sizeof(uint16_t));
   for (uint32_t y = 0; wide && y < H; y++)
      for (uint32_t x = 0; x < W; x++)
         wide[(size_t)y * stride + x] =
             (uint16_t)(s.input[(size_t)y * W + x] << 8 | ((x * 37 + y) & 0xff));
   struct of_image i8 = {s.input, W, H, W, 8}, i16 = {wide, W, H, stride, 16};
   struct of_pyramid a = {0}, b = {0};
   uint32_t lv = of_levels(W, H, OF_PERF_FAST);
   ok(lv == 3 && of_levels(640, 480, OF_PERF_FAST) == 5 && of_levels(1920, 1080, OF_PERF_SLOW) == 6,
      "pyramid depth down to 32x24");
   ok(wide && of_pyramid_build(&a, &i8, lv) && of_pyramid_build(&b, &i16, lv), "both built");
   bool same = a.levels == b.levels;
   for (uint32_t l = 0; same && l < lv; l++)
      same = a.w[l] == b.w[l] && a.h[l] == b.h[l] &&
             !memcmp(a.img[l], b.img[l], (size_t)a.w[l] * a.h[l]);
   ok(same, "a 16-bit frame with a row stride is its top 8 bits");
   ok(a.w[1] == 80 && a.h[2] == 30, "level sizes halve");
   /* level 1 pixel (3, 2) by hand: [1 3 3 1] over rows 3..6 and columns 5..8 of level 0 */
   int acc = 0;
   static const int k[4] = {1, 3, 3, 1};
   for (int j = 0; j < 4; j++)
      for (int i = 0; i < 4; i++)
         acc += k[j] * k[i] * a.img[0][(size_t)(3 + j) * W + 5 + i];
   ok(a.img[1][2 * 80 + 3] == (acc + 32) >> 6, "downsampling by hand");
   struct of_image bad = {s.input, W, H, W, 12};
   ok(!of_pyramid_build(&b, &bad, lv), "12-bit samples refused");
   float flow[2 * 40 * 30];
   struct of_params prm = {.width = W, .height = H, .grid = 3, .perf = OF_PERF_FAST};
   ok(!of_compute(&prm, &a, &a, flow, NULL), "grid 3 refused");
   prm.grid = 4;
   prm.width = W - 1;
   ok(!of_compute(&prm, &a, &a, flow, NULL), "size other than the pyramid's refused");
   prm.width = W;
   uint16_t cost[40 * 30];
   ok(of_compute(&prm, &a, &a, flow, cost), "a frame against itself");
   bool zero = true;
   for (size_t i = 0; i < sizeof(flow) / sizeof(flow[0]); i++)
      zero &= flow[i] == 0.0f && cost[i / 2] == 0;
   ok(zero, "a frame against itself has zero flow at zero cost");
   /* an 8x8 cell's cost is the mean of its four 4x4 blocks' (each rounded: within 1) */
   struct of_image ir = {s.reference, W, H, W, 8};
   struct of_pyramid c = {0};
   uint16_t cost8[20 * 15];
   float flow8[2 * 20 * 15];
   ok(of_pyramid_build(&c, &ir, lv) && of_compute(&prm, &a, &c, flow, cost), "grid 4 with cost");
   prm.grid = 8;
   ok(of_compute(&prm, &a, &c, flow8, cost8), "grid 8 with cost");
   int within = 0, nonzero = 0;
   for (int y = 0; y < 15; y++)
      for (int x = 0; x < 20; x++) {
         int m = cost[(2 * y) * 40 + 2 * x] + cost[(2 * y) * 40 + 2 * x + 1] +
                 cost[(2 * y + 1) * 40 + 2 * x] + cost[(2 * y + 1) * 40 + 2 * x + 1];
         within += abs(4 * cost8[y * 20 + x] - m) <= 4;
         nonzero += cost8[y * 20 + x] > 0;
      }
   ok(within == 300 && nonzero == 300,
      "8x8 costs are their blocks' mean (%d of 300), none zero (%d)", within, nonzero);
   of_pyramid_free(&c);
   free(wide);
   of_pyramid_free(&a);
   of_pyramid_free(&b);
   of_synth_free(&s);
}

int
main(void)
{
   generator();
   measures();
   inputs();
   quality();
   hint();
   cache();
   halves();
   return test_done();
}
