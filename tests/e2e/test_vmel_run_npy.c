/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * vmel-run on the command line with .npy files, through the build-tree
 * layers: tests/data/spirv/graph_clamp.spvasm computes out = CLAMP(in, -1, 1)
 * + bias on fp32 [1, 4], with bias graph constant 0. This test writes in.npy
 * and bias.npy, runs vmel-run, and checks the values of out.npy; then that
 * the output's DTYPE:SHAPE suffix is accepted when it agrees with the module
 * and that inputs of the wrong shape or dtype make vmel-run fail.
 *   test_vmel_run_npy VMEL_RUN GRAPH_CLAMP_SPVASM WORK_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "npy.h"
#include "run_tool.h"
#include "test.h"

TEST_MAIN_STATE;

static const char *vmel_run, *module, *dir;

/* Runs vmel-run MODULE ARGS...; returns its exit status (or -1). */
static int
run(const char *const *args)
{
   const char *prefix[] = {vmel_run, module};
   return run_tool(prefix, 2, args);
}

static const char *
path(const char *name)
{
   return run_tool_path(dir, name);
}

static bool
write_f32(const char *file, uint32_t rank, const int64_t *shape, const float *values, size_t n)
{
   struct npy_array a = {.dtype = NPY_F32, .rank = rank, .data = (void *)values,
                         .size = n * sizeof(float)};
   memcpy(a.shape, shape, rank * sizeof(*shape));
   char err[256];
   return ok(npy_write_file(path(file), &a, err, sizeof(err)), "%s", err);
}

static void
check_output(const char *file, const float *want)
{
   struct npy_array out;
   char err[512];
   if (!ok(npy_read_file(path(file), &out, err, sizeof(err)), "%s", err))
      return;
   ok(out.dtype == NPY_F32 && out.rank == 2 && out.shape[0] == 1 && out.shape[1] == 4,
      "%s is <f4 (1, 4), not %s rank %u", file, npy_dtype_descr(out.dtype), out.rank);
   if (out.size == 4 * sizeof(float)) {
      const float *got = out.data;
      for (int i = 0; i < 4; i++)
         ok(got[i] == want[i], "%s[%d] = %g, want %g", file, i, got[i], want[i]);
   }
   npy_array_finish(&out);
}

int
main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: %s VMEL_RUN GRAPH_CLAMP_SPVASM WORK_DIR\n", argv[0]);
      return 2;
   }
   vmel_run = argv[1];
   module = argv[2];
   dir = argv[3];

   static const int64_t shape[2] = {1, 4}, flat[1] = {4};
   const float in[4] = {-3.0f, -0.5f, 0.25f, 7.0f};
   const float bias[4] = {0.5f, 1.0f, -2.0f, 10.0f};
   float want[4];
   for (int i = 0; i < 4; i++)
      want[i] = (in[i] < -1.0f ? -1.0f : in[i] > 1.0f ? 1.0f : in[i]) + bias[i];
   const int32_t ints[4] = {1, 2, 3, 4};
   struct npy_array int_array = {.dtype = NPY_I32, .rank = 2, .shape = {1, 4},
                                 .data = (void *)ints, .size = sizeof(ints)};
   char err[256];
   if (!write_f32("in.npy", 2, shape, in, 4) || !write_f32("bias.npy", 2, shape, bias, 4) ||
       !write_f32("in_flat.npy", 1, flat, in, 4) ||
       !ok(npy_write_file(path("in_i32.npy"), &int_array, err, sizeof(err)), "%s", err))
      return test_done();
   char in_arg[600], bias_arg[600], out_arg[600];
   snprintf(in_arg, sizeof(in_arg), "--input=0:0=%s", path("in.npy"));
   snprintf(bias_arg, sizeof(bias_arg), "--constant=0=%s", path("bias.npy"));
   unlink(path("out.npy"));
   snprintf(out_arg, sizeof(out_arg), "--output=0:1=%s", path("out.npy"));

   /* The plain run. */
   const char *plain[] = {in_arg, bias_arg, out_arg, "--dispatches", "2", NULL};
   if (ok(run(plain) == 0, "vmel-run exits 0"))
      check_output("out.npy", want);

   /* DTYPE:SHAPE that agree with the module. */
   unlink(path("out2.npy"));
   snprintf(out_arg, sizeof(out_arg), "--output=0:1=%s:fp32:1x4", path("out2.npy"));
   const char *typed[] = {in_arg, bias_arg, out_arg, NULL};
   if (ok(run(typed) == 0, "vmel-run with :fp32:1x4 exits 0"))
      check_output("out2.npy", want);

   /* Refused before anything runs: wrong shape, wrong dtype, missing constant, no file. */
   snprintf(out_arg, sizeof(out_arg), "--output=0:1=%s", path("unused.npy"));
   char bad_arg[600];
   snprintf(bad_arg, sizeof(bad_arg), "--input=0:0=%s", path("in_flat.npy"));
   const char *bad_shape[] = {bad_arg, bias_arg, out_arg, NULL};
   ok(run(bad_shape) == 1, "an input of shape (4,) for [1, 4] is refused");
   snprintf(bad_arg, sizeof(bad_arg), "--input=0:0=%s", path("in_i32.npy"));
   const char *bad_dtype[] = {bad_arg, bias_arg, out_arg, NULL};
   ok(run(bad_dtype) == 1, "an <i4 input for fp32 is refused");
   const char *no_constant[] = {in_arg, out_arg, NULL};
   ok(run(no_constant) == 1, "a missing graph constant is refused");
   snprintf(bad_arg, sizeof(bad_arg), "--input=0:0=%s", path("missing.npy"));
   const char *no_file[] = {bad_arg, bias_arg, out_arg, NULL};
   ok(run(no_file) == 1, "a missing file is refused");
   const char *usage[] = {"--dispatches", "0", NULL};
   ok(run(usage) == 2, "--dispatches 0 is a usage error");
   ok(access(path("unused.npy"), F_OK) != 0, "no output written by a refused run");
   return test_done();
}
