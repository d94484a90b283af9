/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU reference implementation of TOSA 1.0.1 (tests/reference/tosa_ref.h):
 * the shared helpers (kept tensors, tensor constructors, the expect_* checks), the per-section
 * check counts and main(), which runs the sections of the family files (ref_test.h) and prints
 * the counts at the end.
 */
#include "ref_test.h"

TEST_MAIN_STATE;

/* ---------------------------------------------------------------------------------------------
 * Helpers: tensors made here are kept in one list and freed at the end.
 */

static struct ref_tensor *kept[2048];
static unsigned kept_count;

struct ref_tensor *
keep(struct ref_tensor *t)
{
   if (!t || kept_count == COUNT(kept)) {
      fprintf(stderr, "test_tosa_ref: tensor allocation failed\n");
      abort();
   }
   kept[kept_count++] = t;
   return t;
}

static void
free_kept(void)
{
   for (unsigned i = 0; i < kept_count; i++)
      ref_tensor_destroy(kept[i]);
   kept_count = 0;
}

/* A zero-filled tensor. */
struct ref_tensor *
tz(enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   return keep(ref_tensor_create(dtype, rank, shape));
}

/* An integer (or BOOL) tensor filled from v. */
struct ref_tensor *
ti(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const int64_t *v)
{
   struct ref_tensor *t = tz(dtype, rank, shape);
   ref_tensor_fill_int(t, v);
   return t;
}

/* A float tensor filled from v (each value must be exact in dtype, or is rounded). */
struct ref_tensor *
tf(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const double *v)
{
   struct ref_tensor *t = tz(dtype, rank, shape);
   ref_tensor_fill_fp(t, v);
   return t;
}

/* A tensor filled with raw bit patterns. */
struct ref_tensor *
tbits(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const uint64_t *bits)
{
   struct ref_tensor *t = tz(dtype, rank, shape);
   for (int64_t i = 0; i < t->count; i++)
      ref_tensor_set_bits(t, i, bits[i]);
   return t;
}

/* A shape-[1] tensor: zero points, MUL shift. */
struct ref_tensor *
t1(enum ref_dtype dtype, int64_t v)
{
   return ti(dtype, 1, (int64_t[]){1}, (int64_t[]){v});
}

struct ref_tensor *
t1f(enum ref_dtype dtype, double v)
{
   return tf(dtype, 1, (int64_t[]){1}, (double[]){v});
}

bool
expect_status(int got, int want, const char *what)
{
   return ok(got == want, "%s: status %s, expected %s (%s)", what, tosa_ref_status_name(got),
             tosa_ref_status_name(want), tosa_ref_last_message());
}

/* One check: every element of t equals want[] as an integer. */
bool
expect_ints(const struct ref_tensor *t, const int64_t *want, int64_t n, const char *what)
{
   if (t->count != n)
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count, (long long)n);
   for (int64_t i = 0; i < n; i++) {
      int64_t got = ref_tensor_get_int(t, i);
      if (got != want[i])
         return ok(false, "%s: [%lld] = %lld, expected %lld", what, (long long)i, (long long)got,
                   (long long)want[i]);
   }
   return ok(true, "%s", what);
}

/* One check: every element of t has the bit pattern want[]. */
bool
expect_bits(const struct ref_tensor *t, const uint64_t *want, int64_t n, const char *what)
{
   if (t->count != n)
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count, (long long)n);
   for (int64_t i = 0; i < n; i++) {
      uint64_t got = ref_tensor_get_bits(t, i);
      if (got != want[i])
         return ok(false, "%s: [%lld] = 0x%llx, expected 0x%llx", what, (long long)i,
                   (unsigned long long)got, (unsigned long long)want[i]);
   }
   return ok(true, "%s", what);
}

/* Same value, a NaN for a NaN, and the same sign for a zero. */
bool
same_fp(double got, double want)
{
   if (isnan(want))
      return isnan(got);
   return got == want && signbit(got) == signbit(want);
}

/* One check: every element of a float tensor has exactly the value want[]. */
bool
expect_fps(const struct ref_tensor *t, const double *want, int64_t n, const char *what)
{
   if (t->count != n)
      return ok(false, "%s: %lld elements, expected %lld", what, (long long)t->count, (long long)n);
   for (int64_t i = 0; i < n; i++) {
      double got = ref_tensor_get_fp(t, i);
      if (!same_fp(got, want[i]))
         return ok(false, "%s: [%lld] = %a, expected %a", what, (long long)i, got, want[i]);
   }
   return ok(true, "%s", what);
}

float
f32_of_bits(uint32_t bits)
{
   float f;
   memcpy(&f, &bits, sizeof(f));
   return f;
}

/* Per-section check counts for the summary. */
struct section_count {
   const char *name;
   unsigned checks;
};

static struct section_count sections[64];
static unsigned section_total;

static void
run_section(const char *name, void (*fn)(void))
{
   unsigned before = test_state.passed + test_state.failed;
   test_set_context(name);
   fn();
   test_set_context(NULL);
   free_kept();
   sections[section_total].name = name;
   sections[section_total].checks = test_state.passed + test_state.failed - before;
   section_total++;
}

int
main(void)
{
   run_section("tensors", test_tensors);
   run_section("conversions", test_conversions);
   run_section("ADD", test_add);
   run_section("SUB", test_sub);
   run_section("MUL", test_mul);
   run_section("CLAMP", test_clamp);
   run_section("RESHAPE", test_reshape);
   run_section("CONCAT", test_concat);
   run_section("SLICE", test_slice);
   run_section("REVERSE", test_reverse);
   run_section("TILE", test_tile);
   run_section("PAD", test_pad);
   run_section("TRANSPOSE", test_transpose);
   run_section("REDUCE_*", test_reduce);
   run_section("ARGMAX", test_argmax);
   run_section("GATHER", test_gather);
   run_section("SCATTER", test_scatter);
   run_section("MAX_POOL2D", test_max_pool2d);
   run_section("AVG_POOL2D", test_avg_pool2d);
   run_section("FFT2D/RFFT2D", test_fft2d);
   run_section("CONV2D int", test_conv2d_int);
   run_section("CONV2D float", test_conv2d_float);
   run_section("DEPTHWISE_CONV2D", test_depthwise_conv2d);
   run_section("TRANSPOSE_CONV2D", test_transpose_conv2d);
   run_section("CONV3D", test_conv3d);
   run_section("MATMUL", test_matmul);
   run_section("apply_scale", test_apply_scale);
   run_section("RESCALE", test_rescale);
   run_section("BITWISE/LOGIC", test_bitwise_logical);
   run_section("shifts", test_shifts);
   run_section("INTDIV", test_intdiv);
   run_section("ABS/NEGATE", test_abs_negate);
   run_section("comparisons", test_comparisons);
   run_section("SELECT", test_select);
   run_section("tolerances", test_tolerance_table);
   run_section("check_fp", test_check_fp);
   run_section("check_tensor", test_check_tensor);
   run_section("check_dot", test_check_dot_product);
   run_section("check_range", test_check_rescale_range);
   run_section("CAST int", test_cast_int);
   run_section("CAST float/int", test_cast_float_int);
   run_section("CAST float", test_cast_float_float);
   run_section("TABLE", test_table);
   run_section("check_cast_fp", test_check_cast_fp);
   run_section("math", test_math);
   run_section("math bounds", test_math_bounds);
   run_section("check_bound", test_check_bound);
   run_section("RESIZE", test_resize);
   for (unsigned i = 0; i < section_total; i++)
      printf("%-14s %u checks\n", sections[i].name, sections[i].checks);
   return test_done();
}
