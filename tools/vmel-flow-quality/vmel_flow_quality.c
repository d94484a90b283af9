/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-flow-quality: runs the optical-flow CPU reference (tests/reference/
 * optical_flow.h) on the synthetic frame pairs of of_synth.h and prints the
 * quality table of docs/optical-flow.md: EPE, outlier rate and the cost's
 * correlation with the error for each case x performance level x grid.
 *
 *   vmel-flow-quality [--size WxH] [--seed N] [--case NAME]
 */
#include "of_synth.h"
#include "optical_flow.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct flow_case {
   const char *name;
   struct of_synth_desc d;
   double target;
};

static const struct flow_case cases[] = {
    {"translate_int", {.kind = OF_SYNTH_TRANSLATE, .dx = 13.0f, .dy = -7.0f}, 0.25},
    {"translate_sub", {.kind = OF_SYNTH_TRANSLATE, .dx = 5.37f, .dy = -2.71f}, 0.25},
    {"translate_sub_large", {.kind = OF_SYNTH_TRANSLATE, .dx = -17.6f, .dy = 9.3f}, 0.25},
    {"rotate_zoom", {.kind = OF_SYNTH_ROTATE_ZOOM, .angle_deg = 2.0f, .zoom = 1.03f}, 1.0},
    {"two_motions",
     {.kind = OF_SYNTH_TWO_MOTIONS,
      .dx = 1.5f,
      .dy = -0.75f,
      .ax = -6.25f,
      .ay = 3.5f,
      .bx = 8.5f,
      .by = 5.25f},
     1.0},
};

static double
now_ms(void)
{
   struct timespec t;
   clock_gettime(CLOCK_MONOTONIC, &t);
   return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void
usage(FILE *out)
{
   fprintf(out, "usage: vmel-flow-quality [--size WxH] [--seed N] [--case NAME]\n"
                "\n"
                "Runs the optical-flow CPU reference on synthetic frame pairs with known flow and\n"
                "prints the quality table of docs/optical-flow.md (end-point error, outlier rate,\n"
                "cost correlation) for each case, performance level and grid size.\n"
                "\n"
                "  --size WxH   frame size (default 640x480)\n"
                "  --seed N     seed of the synthetic frames (default 1)\n"
                "  --case NAME  only the case NAME\n"
                "  -h, --help   print this help and exit\n");
}

int
main(int argc, char **argv)
{
   uint32_t w = 640, h = 480;
   uint64_t seed = 1;
   const char *only = NULL;
   for (int i = 1; i < argc; i++) {
      if (!strcmp(argv[i], "--size") && i + 1 < argc && sscanf(argv[i + 1], "%ux%u", &w, &h) == 2)
         i++;
      else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
         seed = strtoull(argv[++i], NULL, 0);
      else if (!strcmp(argv[i], "--case") && i + 1 < argc)
         only = argv[++i];
      else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
         usage(stdout);
         return 0;
      } else {
         usage(stderr);
         return 2;
      }
   }
   static const char *perf_name[4] = {"", "SLOW", "MEDIUM", "FAST"};
   static const uint32_t grids[4] = {1, 2, 4, 8};
   int missed = 0;
   printf("| case | level | grid | EPE px | target | outliers >3px | Spearman(cost, EPE) | EPE "
          "best 50%% by cost | "
          "ms |\n|---|---|---|---|---|---|---|---|---|\n");
   for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
      if (only && strcmp(only, cases[c].name))
         continue;
      struct of_synth s;
      if (!of_synth_make(&s, &cases[c].d, w, h, seed)) {
         fprintf(stderr, "out of memory\n");
         return 1;
      }
      struct of_image in = {s.input, w, h, w, 8}, ref = {s.reference, w, h, w, 8};
      for (int p = OF_PERF_SLOW; p <= OF_PERF_FAST; p++) {
         struct of_pyramid pi = {0}, pr = {0};
         uint32_t levels = of_levels(w, h, (enum of_perf)p);
         double t0 = now_ms();
         bool built = of_pyramid_build(&pi, &in, levels) && of_pyramid_build(&pr, &ref, levels);
         double tp = now_ms() - t0;
         for (int g = 0; built && g < 4; g++) {
            uint32_t gw = of_grid_w(w, grids[g]), gh = of_grid_h(h, grids[g]);
            float *flow = malloc((size_t)gw * gh * 2 * sizeof(float));
            uint16_t *cost = malloc((size_t)gw * gh * sizeof(uint16_t));
            struct of_params prm = {
                .width = w, .height = h, .grid = grids[g], .perf = (enum of_perf)p};
            struct of_quality q;
            double t1 = now_ms();
            if (!flow || !cost || !of_compute(&prm, &pi, &pr, flow, cost) ||
                !of_measure(&s, flow, cost, grids[g], &q)) {
               fprintf(stderr, "%s: failed\n", cases[c].name);
               return 1;
            }
            double ms = now_ms() - t1 + tp;
            bool miss = q.epe > cases[c].target;
            missed += miss;
            printf("| %s | %s | %ux%u | %.3f | %s%.2f | %.2f%% | %.2f | %.3f | %.0f |\n",
                   cases[c].name, perf_name[p], grids[g], grids[g], q.epe,
                   miss ? "**missed** " : "<= ", cases[c].target, 100.0 * q.outliers, q.spearman,
                   q.epe_best_half, ms);
            free(flow);
            free(cost);
         }
         of_pyramid_free(&pi);
         of_pyramid_free(&pr);
      }
      of_synth_free(&s);
   }
   printf("\n%dx%d, seed %llu: %d row(s) over target\n", w, h, (unsigned long long)seed, missed);
   return missed ? 1 : 0;
}
