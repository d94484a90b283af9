/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * One .tosa file (made by flatc from tests/tosa/ops/<name>.json) through vmel-run on the
 * command line, checked against the CPU reference:
 *   test_tosa_run VMEL_RUN MODEL.tosa WORK_DIR [LO HI]
 * The block's inputs get deterministic pseudo-random data (in [LO, HI] when given; default
 * ranges per type otherwise), written as .npy files; vmel-run runs the model with
 * --input K=... --output K=...; the graph-level reference (tests/reference/ref_graph.h)
 * evaluates the module that the importer made of the same file, and each output must be within
 * the TOSA tolerance of the operator that produced it. vmel-run's exit status 77 (no device)
 * makes this a skip.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"
#include "ref_graph.h"
#include "run_tool.h"
#include "test.h"
#include "tosa_import.h"
#include "tosa_model.h"

TEST_MAIN_STATE;

static const struct {
   enum ref_dtype ref;
   enum npy_dtype npy;
} dtypes[TOSA_DT_COUNT] = {
   [TOSA_DT_BOOL] = {REF_DTYPE_BOOL, NPY_BOOL},     [TOSA_DT_INT8] = {REF_DTYPE_I8, NPY_I8},
   [TOSA_DT_INT16] = {REF_DTYPE_I16, NPY_I16},      [TOSA_DT_INT32] = {REF_DTYPE_I32, NPY_I32},
   [TOSA_DT_INT48] = {REF_DTYPE_I48, NPY_I64},      [TOSA_DT_FP32] = {REF_DTYPE_FP32, NPY_F32},
   [TOSA_DT_FP16] = {REF_DTYPE_FP16, NPY_F16},      [TOSA_DT_BF16] = {REF_DTYPE_BF16, NPY_U16},
   [TOSA_DT_FP8E4M3] = {REF_DTYPE_FP8E4M3, NPY_U8}, [TOSA_DT_FP8E5M2] = {REF_DTYPE_FP8E5M2, NPY_U8},
};

static uint64_t rng = 0x9e3779b97f4a7c15u;

static double
uniform(void)
{
   rng ^= rng << 13;
   rng ^= rng >> 7;
   rng ^= rng << 17;
   return (double)(rng >> 11) / 9007199254740992.0;
}

static void
fill(struct ref_tensor *t, bool ranged, double lo, double hi)
{
   if (!ranged) {
      unsigned bits = ref_dtype_int_bits(t->dtype);
      lo = bits == 1 ? 0 : bits ? -(double)(1u << (bits > 8 ? 10 : bits - 1)) : -4.0;
      hi = bits == 1 ? 1 : bits ? (double)(1u << (bits > 8 ? 10 : bits - 1)) - 1 : 4.0;
   }
   for (int64_t i = 0; i < t->count; i++) {
      double v = lo + (hi - lo) * uniform();
      if (ref_dtype_is_float(t->dtype))
         ref_tensor_set_fp(t, i, v);
      else
         ref_tensor_set_int(t, i, (int64_t)floor(v + 0.5));
   }
}

/* The data of a ref_tensor as .npy bytes (I48 is already int64 sign-extended). */
static bool
write_npy(const char *path, const struct ref_tensor *t, enum npy_dtype npy)
{
   struct npy_array a = {.dtype = npy, .rank = t->rank, .data = t->data,
                         .size = (size_t)t->count * ref_dtype_size(t->dtype)};
   memcpy(a.shape, t->shape, t->rank * sizeof(t->shape[0]));
   char err[512];
   return ok(npy_write_file(path, &a, err, sizeof(err)), "%s", err);
}

static void
check_output(uint32_t k, const struct ref_graph_output *o, const struct ref_tensor *got)
{
   struct tosa_ref_check_report rep = {.pass = true, .first_failure = -1};
   const struct ref_tensor *want = o->fp64 ? o->fp64 : o->value;
   int st;
   switch (o->tol.kind) {
   case TOSA_REF_TOL_EXACT:
      st = tosa_ref_check_tensor(&o->tol, got, want = o->value, &rep);
      break;
   case TOSA_REF_TOL_DOT_PRODUCT: {
      struct tosa_ref_dot_report dot;
      if (!ok(o->fp64 && o->bound, "output %u: no dot-product bound from %s", k, o->op_name))
         return;
      st = tosa_ref_check_dot_product(&o->dot, got, o->fp64, o->bound, &dot);
      rep.pass = dot.pass;
      rep.first_failure = dot.first_failure;
      break;
   }
   case TOSA_REF_TOL_ABS_BOUND:
      if (!ok(o->fp64 && o->bound, "output %u: no bound from %s", k, o->op_name))
         return;
      st = tosa_ref_check_tensor_bound(got, o->fp64, o->bound, &rep);
      break;
   case TOSA_REF_TOL_RESCALE_RANGE:
      st = tosa_ref_check_rescale_range(got, o->out_unsigned, o->lo, o->hi, &rep);
      break;
   default:
      st = tosa_ref_check_tensor(&o->tol, got, want, &rep);
      break;
   }
   if (!ok(st == TOSA_REF_OK, "output %u: the check cannot run: %s", k, tosa_ref_last_message()))
      return;
   int64_t f = rep.first_failure;
   bool fl = ref_dtype_is_float(got->dtype);
   ok(rep.pass, "output %u (%s, %s): wrong at element %" PRId64 ": got %.9g, want %.9g", k,
      o->op_name, ref_dtype_name(got->dtype), f,
      f < 0 ? 0.0 : fl ? ref_tensor_get_fp(got, f) : (double)ref_tensor_get_int(got, f),
      f < 0 ? 0.0 : ref_dtype_is_float(want->dtype) ? ref_tensor_get_fp(want, f)
                                                      : (double)ref_tensor_get_int(want, f));
   if (rep.pass)
      printf("output %u (%s %s): within the TOSA tolerance of %s\n", k, ref_dtype_name(got->dtype),
             o->op_name, o->op_name);
}

int
main(int argc, char **argv)
{
   if (argc != 4 && argc != 6) {
      fprintf(stderr, "usage: %s VMEL_RUN MODEL.tosa WORK_DIR [LO HI]\n", argv[0]);
      return 2;
   }
   const char *vmel_run = argv[1], *model = argv[2], *dir = argv[3];
   bool ranged = argc == 6;
   double lo = ranged ? atof(argv[4]) : 0, hi = ranged ? atof(argv[5]) : 0;
   char *data = NULL, err[512];
   size_t size = 0;
   uint32_t *words = NULL;
   size_t count = 0;
   struct tosa_model m;
   if (!ok(npy_slurp(model, &data, &size, err, sizeof(err)), "%s", err) ||
       !ok(tosa_model_read(data, size, &m, err, sizeof(err)), "%s: %s", model, err))
      return test_done();
   if (!ok(tosa_import_words(data, size, &words, &count, err, sizeof(err)), "%s: %s", model,
           err)) {
      tosa_model_finish(&m);
      return test_done();
   }
   enum { MAX = TOSA_MAX_IO };
   struct ref_tensor *in[MAX] = {0};
   char args[2 * MAX][600];
   const char *argv_run[4 + 4 * MAX] = {vmel_run, model};
   unsigned n = 2;
   for (uint32_t i = 0; i < m.input_count; i++) {
      const struct tosa_tensor *t = &m.tensors[m.inputs[i]];
      in[i] = ref_tensor_create(dtypes[t->dtype].ref, t->rank, t->dims);
      if (!ok(in[i], "out of memory"))
         goto out;
      fill(in[i], ranged, lo, hi);
      char path[520];
      snprintf(path, sizeof(path), "%s/in%u.npy", dir, i);
      if (!write_npy(path, in[i], dtypes[t->dtype].npy))
         goto out;
      snprintf(args[i], sizeof(args[i]), "%u=%s", i, path);
      argv_run[n++] = "--input";
      argv_run[n++] = args[i];
   }
   for (uint32_t i = 0; i < m.output_count; i++) {
      snprintf(args[MAX + i], sizeof(args[0]), "%u=%s/out%u.npy", i, dir, i);
      argv_run[n++] = "--output";
      argv_run[n++] = args[MAX + i];
   }
   argv_run[n] = NULL;

   struct ref_graph_result ref = {0};
   int st = ref_graph_eval(words, count, "main", (const struct ref_tensor *const *)in,
                           m.input_count, NULL, 0, &ref);
   if (!ok(st == TOSA_REF_OK, "reference: status %d: %s", st, ref.message) ||
       !ok(ref.output_count == m.output_count, "reference: %u outputs", ref.output_count)) {
      ref_graph_result_finish(&ref);
      goto out;
   }
   int rc = run_tool_argv(argv_run);
   if (rc == TEST_SKIP_CODE) {
      ref_graph_result_finish(&ref);
      tosa_model_finish(&m);
      for (uint32_t i = 0; i < m.input_count; i++)
         ref_tensor_destroy(in[i]);
      free(words);
      free(data);
      return test_skip("vmel-run found no device");
   }
   if (ok(rc == 0, "vmel-run exited with %d", rc)) {
      for (uint32_t i = 0; i < m.output_count; i++) {
         const struct tosa_tensor *t = &m.tensors[m.outputs[i]];
         char path[520];
         snprintf(path, sizeof(path), "%s/out%u.npy", dir, i);
         struct npy_array a;
         if (!ok(npy_read_file(path, &a, err, sizeof(err)), "%s", err))
            continue;
         struct ref_tensor *got = ref_tensor_create(dtypes[t->dtype].ref, t->rank, t->dims);
         size_t bytes = got ? (size_t)got->count * ref_dtype_size(got->dtype) : 0;
         if (ok(got && a.size == bytes, "%s: %zu bytes, want %zu", path, a.size, bytes)) {
            memcpy(got->data, a.data, bytes);
            check_output(i, &ref.outputs[i], got);
         }
         ref_tensor_destroy(got);
         npy_array_finish(&a);
      }
   }
   ref_graph_result_finish(&ref);
out:
   for (uint32_t i = 0; i < m.input_count; i++)
      ref_tensor_destroy(in[i]);
   tosa_model_finish(&m);
   free(words);
   free(data);
   return test_done();
}
