/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run --optical-flow on the command line, through the build-tree layers.
 *   test_vmel_run_of VMEL_RUN WORK_DIR usage
 *     command-line errors: exit status 2 for bad options, 1 for a frame that is
 *     not a PNG or frames of different sizes, each before any Vulkan work;
 *   test_vmel_run_of VMEL_RUN WORK_DIR run
 *     two synthetic 320x240 PNG frames (tests/reference/of_synth.h, a
 *     sub-pixel translation) through the optical-flow pipeline: flow.npy of
 *     shape (60, 80, 2) with an end-point error within the translation target
 *     of docs/optical-flow.md (0.25 px), cost.npy of shape (60, 80), and an
 *     80x60 colour picture. Registered only with -DVMEL_TEST_OPTICAL_FLOW_RUN=ON
 *     (it needs the optical-flow engine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "of_synth.h"
#include "png_io.h"
#include "run_tool.h"
#include "test.h"

TEST_MAIN_STATE;

#define W 320
#define H 240
#define GRID 4

static const char *vmel_run, *dir;

static const char *
path(const char *name)
{
   return run_tool_path(dir, name);
}

/* Runs vmel-run --optical-flow ARGS...; returns its exit status (or -1). */
static int
run(const char *const *args)
{
   const char *prefix[] = {vmel_run, "--optical-flow"};
   return run_tool(prefix, 2, args);
}

static bool
write_frames(struct of_synth *s)
{
   struct of_synth_desc d = {.kind = OF_SYNTH_TRANSLATE, .dx = 5.37f, .dy = -2.71f};
   char err[512];
   if (!ok(of_synth_make(s, &d, W, H, 1), "frames made"))
      return false;
   return ok(png_write(path("input.png"), W, H, 1, s->input, err, sizeof(err)) &&
                png_write(path("reference.png"), W, H, 1, s->reference, err, sizeof(err)),
             "frames written: %s", err);
}

static void
check_usage(void)
{
   test_set_context("usage");
   struct of_synth s;
   if (!write_frames(&s))
      return;
   of_synth_free(&s);
   uint8_t small[64 * 48] = {0};
   char err[512];
   ok(png_write(path("small.png"), 64, 48, 1, small, err, sizeof(err)), "small frame");
   FILE *f = fopen(path("text.png"), "w");
   if (f) {
      fputs("not a png", f);
      fclose(f);
   }
   const char *in = path("input.png"), *ref = path("reference.png"), *out = path("flow.npy");
   ok(run((const char *[]){in, ref, NULL}) == 2, "no -o: exit 2");
   ok(run((const char *[]){in, "-o", out, NULL}) == 2, "one frame: exit 2");
   ok(run((const char *[]){in, ref, "-o", out, "--grid", "3", NULL}) == 2, "--grid 3: exit 2");
   ok(run((const char *[]){in, ref, "-o", out, "--level", "quick", NULL}) == 2,
      "--level quick: exit 2");
   ok(run((const char *[]){in, ref, "-o", out, "--frobnicate", "1", NULL}) == 2,
      "unknown option: exit 2");
   ok(run((const char *[]){"--help", NULL}) == 0, "--help: exit 0");
   ok(run((const char *[]){path("text.png"), ref, "-o", out, NULL}) == 1,
      "a frame that is not a PNG: exit 1");
   ok(run((const char *[]){path("missing.png"), ref, "-o", out, NULL}) == 1,
      "a missing frame: exit 1");
   ok(run((const char *[]){in, path("small.png"), "-o", out, NULL}) == 1,
      "frames of different sizes: exit 1");
   ok(access(out, F_OK) != 0, "no flow written by a refused run");
   unlink(path("small.png"));
   unlink(path("text.png"));
}

static void
check_run(void)
{
   test_set_context("run");
   struct of_synth s;
   if (!write_frames(&s))
      return;
   const char *args[] = {path("input.png"), path("reference.png"), "--grid", "4", "--level",
                         "medium", "-o", path("flow.npy"), "--cost", path("cost.npy"), "--png",
                         path("flow.png"), NULL};
   ok(run(args) == 0, "vmel-run --optical-flow succeeded");
   char err[512];
   struct npy_array flow = {0}, cost = {0};
   bool have_flow = ok(npy_read_file(path("flow.npy"), &flow, err, sizeof(err)), "%s", err);
   bool have_cost = ok(npy_read_file(path("cost.npy"), &cost, err, sizeof(err)), "%s", err);
   const uint32_t ow = W / GRID, oh = H / GRID;
   if (have_flow && ok(flow.dtype == NPY_F32 && flow.rank == 3 && flow.shape[0] == oh &&
                          flow.shape[1] == ow && flow.shape[2] == 2,
                       "flow: float32 (%u, %u, 2)", oh, ow)) {
      bool cost_ok = have_cost && ok(cost.dtype == NPY_U16 && cost.rank == 2 &&
                                        cost.shape[0] == oh && cost.shape[1] == ow,
                                     "cost: uint16 (%u, %u)", oh, ow);
      struct of_quality q;
      if (ok(of_measure(&s, flow.data, cost_ok ? cost.data : NULL, GRID, &q), "measured")) {
         printf("EPE %.3f px, outliers %.2f%%, Spearman(cost, EPE) %.2f\n", q.epe,
                100.0 * q.outliers, q.spearman);
         ok(q.epe <= 0.25, "EPE %.3f px <= 0.25 (translation target)", q.epe);
         ok(q.outliers <= 0.01, "outliers %.2f%% <= 1%%", 100.0 * q.outliers);
      }
   }
   uint32_t pw = 0, ph = 0;
   uint8_t *pic = NULL;
   ok(png_read_luma(path("flow.png"), &pw, &ph, &pic, err, sizeof(err)) && pw == ow && ph == oh,
      "flow picture %ux%u", pw, ph);
   free(pic);
   npy_array_finish(&flow);
   npy_array_finish(&cost);
   of_synth_free(&s);
}

int
main(int argc, char **argv)
{
   if (argc != 4)
      return test_skip("usage: test_vmel_run_of VMEL_RUN WORK_DIR usage|run");
   vmel_run = argv[1];
   dir = argv[2];
   if (strcmp(argv[3], "run") == 0)
      check_run();
   else
      check_usage();
   return test_done();
}
