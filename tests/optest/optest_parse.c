/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The .optest parser (optest.h, docs/optests.md): sections, directives, tensor declarations
 * and literal values, each error reported as "path:line: message". What the values mean when a
 * test runs is optest_data.c's and optest_run.c's business.
 */
#include "optest.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const opt_device_features[] = {
    "shaderFloat16",
    "shaderInt8",
    "shaderInt16",
    "shaderInt64",
    "shaderFloat64",
    "storageBuffer8BitAccess",
    "storageBuffer16BitAccess",
    "bufferDeviceAddress",
    /* VK_NV_cooperative_matrix / VK_KHR_cooperative_matrix with their cooperativeMatrix
     * feature and a subgroup size of 32: the device the COOP kernel variants need (D51);
     * cooperativeMatrix: the one VMEL_GRAPH_KERNELS=coop-nv / coop-khr(-square) forces (either when
     * neither is forced) */
    "cooperativeMatrixNV",
    "cooperativeMatrixKHR",
    "cooperativeMatrix",
};
const unsigned opt_device_feature_count =
    sizeof(opt_device_features) / sizeof(opt_device_features[0]);

bool
opt_require_known(const char *name)
{
   if (strncmp(name, "PRO-", 4) == 0 || strncmp(name, "EXT-", 4) == 0)
      return name[4] != '\0';
   for (unsigned i = 0; i < opt_device_feature_count; i++) {
      if (strcmp(name, opt_device_features[i]) == 0)
         return true;
   }
   return false;
}

/* ---- parser state ------------------------------------------------------------------------ */

struct parser {
   const char *path;
   unsigned line;
   char *err;
   size_t err_len;
   bool failed;
};

static bool perr(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static bool
perr(struct parser *p, const char *fmt, ...)
{
   if (p->failed)
      return false;
   p->failed = true;
   int n = snprintf(p->err, p->err_len, "%s:%u: ", p->path, p->line);
   if (n >= 0 && (size_t)n < p->err_len) {
      va_list ap;
      va_start(ap, fmt);
      vsnprintf(p->err + n, p->err_len - (size_t)n, fmt, ap);
      va_end(ap);
   }
   return false;
}

/* Whitespace-separated tokens of one line (modified in place). */
#define MAX_TOKENS 4096

struct tokens {
   char *v[MAX_TOKENS];
   unsigned n;
};

static bool
tokenize(struct parser *p, char *s, struct tokens *t)
{
   t->n = 0;
   for (;;) {
      while (*s && isspace((unsigned char)*s))
         s++;
      if (!*s || *s == '#')
         return true;
      if (t->n == MAX_TOKENS)
         return perr(p, "more than %u words on a line", MAX_TOKENS);
      t->v[t->n++] = s;
      while (*s && !isspace((unsigned char)*s))
         s++;
      if (*s)
         *s++ = '\0';
   }
}

/* ---- types and numbers ------------------------------------------------------------------- */

static const struct {
   const char *name;
   enum ref_dtype dtype;
   bool is_unsigned;
} dtype_names[] = {
    {"bool", REF_DTYPE_BOOL, false},       {"i8", REF_DTYPE_I8, false},
    {"i16", REF_DTYPE_I16, false},         {"i32", REF_DTYPE_I32, false},
    {"i48", REF_DTYPE_I48, false},         {"u8", REF_DTYPE_I8, true},
    {"u16", REF_DTYPE_I16, true},          {"fp16", REF_DTYPE_FP16, false},
    {"f16", REF_DTYPE_FP16, false},        {"bf16", REF_DTYPE_BF16, false},
    {"fp32", REF_DTYPE_FP32, false},       {"f32", REF_DTYPE_FP32, false},
    {"fp8e4m3", REF_DTYPE_FP8E4M3, false}, {"e4m3", REF_DTYPE_FP8E4M3, false},
    {"fp8e5m2", REF_DTYPE_FP8E5M2, false}, {"e5m2", REF_DTYPE_FP8E5M2, false},
};

const char *
opt_dtype_name(enum ref_dtype dtype, bool is_unsigned)
{
   if (is_unsigned)
      return dtype == REF_DTYPE_I8 ? "u8" : "u16";
   return ref_dtype_name(dtype);
}

static bool
parse_dtype(struct parser *p, const char *s, enum ref_dtype *dtype, bool *is_unsigned)
{
   for (unsigned i = 0; i < sizeof(dtype_names) / sizeof(dtype_names[0]); i++) {
      if (strcmp(s, dtype_names[i].name) == 0) {
         *dtype = dtype_names[i].dtype;
         *is_unsigned = dtype_names[i].is_unsigned;
         return true;
      }
   }
   return perr(p,
               "unknown element type '%s' (bool, i8, i16, i32, i48, u8, u16, fp16, bf16, "
               "fp32, fp8e4m3, fp8e5m2)",
               s);
}

static bool
parse_i64(const char *s, int64_t *v)
{
   char *end;
   errno = 0;
   long long x = strtoll(s, &end, 0);
   if (errno || end == s || *end)
      return false;
   *v = x;
   return true;
}

static bool
parse_double(const char *s, double *v)
{
   char *end;
   errno = 0;
   double x = strtod(s, &end);
   if (end == s || *end || (errno && x != 0 && !isinf(x)))
      return false;
   *v = x;
   return true;
}

static bool
parse_shape(struct parser *p, const char *s, struct opt_tensor *t)
{
   t->rank = 0;
   t->count = 1;
   const char *c = s;
   for (;;) {
      char *end;
      errno = 0;
      long long d = strtoll(c, &end, 10);
      if (end == c || errno || d < 1 || d > (1 << 24))
         return perr(p, "bad shape '%s' (dimensions >= 1 joined by x, e.g. 2x3x4)", s);
      if (t->rank == REF_MAX_RANK)
         return perr(p, "shape '%s' has more than %d dimensions", s, REF_MAX_RANK);
      t->shape[t->rank++] = d;
      t->count *= d;
      if (t->count > (1 << 24))
         return perr(p, "shape '%s' has more than 2^24 elements", s);
      if (*end == '\0')
         return true;
      if (*end != 'x')
         return perr(p, "bad shape '%s' (dimensions >= 1 joined by x, e.g. 2x3x4)", s);
      c = end + 1;
   }
}

static uint64_t
width_mask(unsigned bits)
{
   return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* The range of values an integer declaration can hold. */
static void
int_range(enum ref_dtype dtype, bool is_unsigned, int64_t *lo, int64_t *hi)
{
   unsigned bits = ref_dtype_int_bits(dtype);
   if (dtype == REF_DTYPE_BOOL) {
      *lo = 0;
      *hi = 1;
   } else if (is_unsigned) {
      *lo = 0;
      *hi = (int64_t)width_mask(bits);
   } else {
      *lo = -((int64_t)1 << (bits - 1));
      *hi = ((int64_t)1 << (bits - 1)) - 1;
   }
}

/* A float bit pattern written as 0x... without '.' or 'p' (a hex float has one of them). */
static bool
is_bit_pattern(const char *s)
{
   const char *h = s[0] == '-' || s[0] == '+' ? s + 1 : s;
   return h == s && h[0] == '0' && (h[1] == 'x' || h[1] == 'X') && !strpbrk(h, ".pP");
}

/** One literal value of a declaration's type, as bits and as a number. */
static bool
parse_value(struct parser *p, const struct opt_tensor *t, const char *s, uint64_t *bits,
            double *value)
{
   if (!ref_dtype_is_float(t->dtype)) {
      int64_t v, lo, hi;
      if (t->dtype == REF_DTYPE_BOOL && (strcmp(s, "true") == 0 || strcmp(s, "false") == 0))
         v = s[0] == 't';
      else if (!parse_i64(s, &v))
         return perr(p, "'%s' is not an integer", s);
      int_range(t->dtype, t->is_unsigned, &lo, &hi);
      if (v < lo || v > hi)
         return perr(p, "%s is outside the range of %s [%lld, %lld]", s,
                     opt_dtype_name(t->dtype, t->is_unsigned), (long long)lo, (long long)hi);
      *bits = (uint64_t)v & width_mask((unsigned)ref_dtype_size(t->dtype) * 8);
      *value = (double)v;
      return true;
   }
   unsigned width = (unsigned)ref_dtype_size(t->dtype) * 8;
   if (is_bit_pattern(s)) {
      char *end;
      errno = 0;
      unsigned long long b = strtoull(s, &end, 16);
      if (errno || *end || b > width_mask(width))
         return perr(p, "bit pattern %s does not fit %s", s, ref_dtype_name(t->dtype));
      *bits = b;
      *value = ref_fp_decode(t->dtype, (uint32_t)b);
      return true;
   }
   double v;
   const char *n = s[0] == '+' || s[0] == '-' ? s + 1 : s;
   double sign = s[0] == '-' ? -1.0 : 1.0;
   if (strcmp(n, "nan") == 0)
      v = sign * NAN;
   else if (strcmp(n, "inf") == 0)
      v = sign * INFINITY;
   else if (strcmp(n, "max") == 0)
      v = sign * ref_dtype_normal_max(t->dtype);
   else if (strcmp(n, "min") == 0)
      v = sign * ref_dtype_normal_min(t->dtype);
   else if (!parse_double(s, &v))
      return perr(p,
                  "'%s' is not a number (decimal, hex float, nan, inf, max, min or a 0x "
                  "bit pattern)",
                  s);
   *bits = ref_fp_encode(t->dtype, v, false);
   *value = v;
   return true;
}

static bool
parse_values(struct parser *p, struct opt_tensor *t, char *const *v, unsigned n)
{
   if ((int64_t)n != t->count)
      return perr(p, "%u values for %lld elements", n, (long long)t->count);
   t->bits = calloc(n ? n : 1, sizeof(*t->bits));
   t->values = calloc(n ? n : 1, sizeof(*t->values));
   if (!t->bits || !t->values)
      return perr(p, "out of memory");
   for (unsigned i = 0; i < n; i++) {
      if (!parse_value(p, t, v[i], &t->bits[i], &t->values[i]))
         return false;
   }
   return true;
}

/* The generator words after the shape, up to "strides" or the end. */
static bool
parse_generator(struct parser *p, struct opt_tensor *t, char *const *v, unsigned n)
{
   t->gen = OPT_GEN_UNIFORM;
   if (n == 0)
      return true;
   const char *g = v[0];
   bool is_float = ref_dtype_is_float(t->dtype);
   if (strcmp(g, "values") == 0) {
      t->gen = OPT_GEN_VALUES;
      return parse_values(p, t, v + 1, n - 1);
   }
   if (strcmp(g, "bits") == 0 || strcmp(g, "allbits") == 0) {
      t->gen = g[0] == 'b' ? OPT_GEN_BITS : OPT_GEN_ALLBITS;
      return n == 1 || perr(p, "%s takes no arguments", g);
   }
   if (strcmp(g, "uniform") == 0 || strcmp(g, "specials") == 0 || strcmp(g, "seq") == 0) {
      t->gen = g[0] == 'u' ? OPT_GEN_UNIFORM : g[1] == 'p' ? OPT_GEN_SPECIALS : OPT_GEN_SEQ;
      double a[2];
      if (n > 3)
         return perr(p, "%s takes at most two numbers", g);
      for (unsigned i = 1; i < n; i++) {
         if (!parse_double(v[i], &a[i - 1]) || !isfinite(a[i - 1]))
            return perr(p, "'%s' is not a finite number", v[i]);
         if (!is_float && a[i - 1] != floor(a[i - 1]))
            return perr(p, "'%s' is not an integer", v[i]);
      }
      if (t->gen == OPT_GEN_SEQ) {
         if (n < 2)
            return perr(p, "seq takes a start and an optional step");
         t->lo = a[0];
         t->hi = n == 3 ? a[1] : 1.0;
         t->has_range = true;
         return true;
      }
      if (n == 1)
         return true;
      t->has_range = true;
      if (n == 2) {
         if (!is_float)
            return perr(p, "%s of an integer type takes two numbers: lo hi", g);
         t->lo = -fabs(a[0]);
         t->hi = fabs(a[0]);
      } else {
         t->lo = a[0];
         t->hi = a[1];
      }
      if (t->lo > t->hi)
         return perr(p, "empty range [%g, %g]", t->lo, t->hi);
      if (!is_float) {
         int64_t lo, hi;
         int_range(t->dtype, t->is_unsigned, &lo, &hi);
         if (t->lo < (double)lo || t->hi > (double)hi)
            return perr(p, "range [%g, %g] is outside %s", t->lo, t->hi,
                        opt_dtype_name(t->dtype, t->is_unsigned));
      }
      return true;
   }
   return perr(p, "unknown generator '%s' (uniform, specials, bits, values, seq)", g);
}

/* DTYPE SHAPE [generator ...] [strides S...]; outputs take no generator. */
static bool
parse_tensor(struct parser *p, struct opt_tensor *t, char *const *v, unsigned n, bool is_output)
{
   memset(t, 0, sizeof(*t));
   t->present = true;
   t->line = p->line;
   if (n < 2)
      return perr(p, "a tensor needs an element type and a shape");
   if (!parse_dtype(p, v[0], &t->dtype, &t->is_unsigned) || !parse_shape(p, v[1], t))
      return false;
   unsigned end = n;
   for (unsigned i = 2; i < n; i++) {
      if (strcmp(v[i], "strides") == 0) {
         end = i;
         break;
      }
   }
   if (end < n) {
      if (n - end - 1 != t->rank)
         return perr(p, "%u strides for rank %u", n - end - 1, t->rank);
      t->strided = true;
      for (uint32_t d = 0; d < t->rank; d++) {
         if (!parse_i64(v[end + 1 + d], &t->strides[d]) || t->strides[d] < 1)
            return perr(p, "bad stride '%s' (bytes, >= 1)", v[end + 1 + d]);
      }
   }
   if (is_output)
      return end == 2 || perr(p, "an output takes no data, only an optional strides list");
   return parse_generator(p, t, v + 2, end - 2);
}

/* ---- directives -------------------------------------------------------------------------- */

/* "key:" or "key N:" at the start of the line; *index is -1 without N. */
static bool
directive_key(struct parser *p, struct tokens *t, char *key, size_t size, int *index,
              unsigned *first)
{
   *index = -1;
   char *k = t->v[0];
   size_t len = strlen(k);
   if (len > 1 && k[len - 1] == ':') {
      k[len - 1] = '\0';
      *first = 1;
   } else if (t->n >= 2 && t->v[1][strlen(t->v[1]) - 1] == ':') {
      char *num = t->v[1];
      num[strlen(num) - 1] = '\0';
      int64_t v;
      if (!parse_i64(num, &v) || v < 0 || v >= OPT_MAX_TENSORS)
         return perr(p, "'%s': index %s is not 0..%d", k, num, OPT_MAX_TENSORS - 1);
      *index = (int)v;
      *first = 2;
   } else {
      return perr(p, "expected 'key: ...' or 'key N: ...', got '%s'", k);
   }
   snprintf(key, size, "%s", k);
   return true;
}

static bool
parse_tolerance(struct parser *p, struct opt_test *test, char *const *v, unsigned n)
{
   static const struct {
      const char *name;
      enum opt_tol tol;
   } names[] = {
       {"default", OPT_TOL_DEFAULT},         {"exact", OPT_TOL_EXACT},
       {"fp_exact", OPT_TOL_FP_EXACT},       {"ulp", OPT_TOL_ULP},
       {"dot_product", OPT_TOL_DOT_PRODUCT}, {"rescale_range", OPT_TOL_RESCALE_RANGE},
       {"abs_bound", OPT_TOL_ABS_BOUND},
   };
   if (n == 0)
      return perr(p, "tolerance: needs a mode");
   for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
      if (strcmp(v[0], names[i].name) != 0)
         continue;
      test->tol = names[i].tol;
      if (test->tol == OPT_TOL_ULP) {
         if (n != 2 || !parse_double(v[1], &test->ulp) || !(test->ulp >= 0))
            return perr(p, "tolerance: ulp takes one number >= 0");
         return true;
      }
      return n == 1 || perr(p, "tolerance: %s takes no arguments", v[0]);
   }
   return perr(p,
               "unknown tolerance '%s' (default, exact, fp_exact, ulp N, dot_product, "
               "rescale_range, abs_bound)",
               v[0]);
}

static bool
parse_expect(struct parser *p, struct opt_test *test, int index, char *const *v, unsigned n)
{
   if (n == 0)
      return perr(p, "expect: needs reference, invalid or values");
   if (strcmp(v[0], "reference") == 0 || strcmp(v[0], "invalid") == 0) {
      if (index >= 0 || n != 1)
         return perr(p, "'expect: %s' applies to the whole test and takes no arguments", v[0]);
      test->expect = v[0][0] == 'r' ? OPT_EXPECT_REFERENCE : OPT_EXPECT_INVALID;
      return true;
   }
   if (strcmp(v[0], "values") != 0)
      return perr(p, "unknown expectation '%s' (reference, invalid, values)", v[0]);
   unsigned k = index < 0 ? 0 : (unsigned)index;
   if (!test->outputs[k].present)
      return perr(p, "expect %u: declare 'output %u:' first", k, k);
   if (test->expected[k].present)
      return perr(p, "expect %u: given twice", k);
   struct opt_tensor *e = &test->expected[k];
   *e = test->outputs[k];
   e->strided = false;
   e->line = p->line;
   e->gen = OPT_GEN_VALUES;
   test->expect = OPT_EXPECT_VALUES;
   return parse_values(p, e, v + 1, n - 1);
}

static bool
parse_directive(struct parser *p, struct opt_test *test, struct tokens *t)
{
   char key[32];
   int index;
   unsigned first = 0;
   if (!directive_key(p, t, key, sizeof(key), &index, &first))
      return false;
   char *const *v = t->v + first;
   unsigned n = t->n - first;
   bool indexed =
       strcmp(key, "input") == 0 || strcmp(key, "constant") == 0 || strcmp(key, "output") == 0;
   if (indexed) {
      if (index < 0)
         return perr(p, "'%s' needs an index: '%s N: ...'", key, key);
      struct opt_tensor *list = key[0] == 'i'   ? test->inputs
                                : key[0] == 'c' ? test->constants
                                                : test->outputs;
      uint32_t *count = key[0] == 'i'   ? &test->input_count
                        : key[0] == 'c' ? &test->constant_count
                                        : &test->output_count;
      if (list[index].present)
         return perr(p, "%s %d declared twice", key, index);
      if (!parse_tensor(p, &list[index], v, n, key[0] == 'o'))
         return false;
      if ((uint32_t)index + 1 > *count)
         *count = (uint32_t)index + 1;
      return true;
   }
   if (strcmp(key, "expect") == 0)
      return parse_expect(p, test, index, v, n);
   if (index >= 0)
      return perr(p, "'%s' takes no index", key);
   if (strcmp(key, "tolerance") == 0)
      return parse_tolerance(p, test, v, n);
   if (strcmp(key, "seed") == 0) {
      int64_t s;
      if (n != 1 || !parse_i64(v[0], &s) || s < 0)
         return perr(p, "seed: takes one integer >= 0");
      test->seed = (uint64_t)s;
      return true;
   }
   if (strcmp(key, "require") == 0) {
      for (unsigned i = 0; i < n; i++) {
         if (!opt_require_known(v[i]))
            return perr(p,
                        "require: unknown feature '%s' (a TOSA profile or extension, PRO-* "
                        "or EXT-*, or a device feature such as shaderFloat16)",
                        v[i]);
         if (test->require_count == OPT_MAX_REQUIRES)
            return perr(p, "require: more than %d features", OPT_MAX_REQUIRES);
         snprintf(test->requires[test->require_count++], sizeof(test->requires[0]), "%s", v[i]);
      }
      return true;
   }
   return perr(p,
               "unknown directive '%s' (require, input, constant, output, expect, "
               "tolerance, seed)",
               key);
}

/* ---- text blocks -------------------------------------------------------------------------- */

struct text {
   char *p;
   size_t n, cap;
};

static bool
text_add(struct text *t, const char *s, size_t len)
{
   if (t->n + len + 2 > t->cap) {
      size_t cap = t->cap ? t->cap * 2 : 1024;
      while (cap < t->n + len + 2)
         cap *= 2;
      char *q = realloc(t->p, cap);
      if (!q)
         return false;
      t->p = q;
      t->cap = cap;
   }
   memcpy(t->p + t->n, s, len);
   t->n += len;
   t->p[t->n++] = '\n';
   t->p[t->n] = '\0';
   return true;
}

/* ---- the file ------------------------------------------------------------------------------ */

static void
test_free(struct opt_test *t)
{
   free(t->text);
   for (unsigned i = 0; i < OPT_MAX_TENSORS; i++) {
      struct opt_tensor *all[] = {&t->inputs[i], &t->constants[i], &t->outputs[i], &t->expected[i]};
      for (unsigned k = 0; k < 4; k++) {
         free(all[k]->bits);
         free(all[k]->values);
      }
   }
}

void
opt_file_finish(struct opt_file *file)
{
   for (size_t i = 0; i < file->count; i++)
      test_free(&file->tests[i]);
   free(file->tests);
   free(file->prelude);
   memset(file, 0, sizeof(*file));
}

/* The checks a finished test must pass. */
static bool test_check(struct parser *p, const struct opt_test *t);

/* Checks a finished test; failures point at its [test] line. */
static bool
test_complete(struct parser *p, const struct opt_test *t)
{
   unsigned line = p->line;
   p->line = t->line;
   bool good = test_check(p, t);
   if (good)
      p->line = line;
   return good;
}

static bool
test_check(struct parser *p, const struct opt_test *t)
{
   if (!t->text)
      return perr(p, "test '%s' has no [graph] or [module]", t->name);
   if (t->output_count == 0)
      return perr(p, "test '%s' declares no output", t->name);
   const struct {
      const struct opt_tensor *v;
      uint32_t n;
      const char *what;
   } lists[] = {{t->inputs, t->input_count, "input"},
                {t->constants, t->constant_count, "constant"},
                {t->outputs, t->output_count, "output"}};
   for (unsigned l = 0; l < 3; l++) {
      for (uint32_t i = 0; i < lists[l].n; i++) {
         if (!lists[l].v[i].present)
            return perr(p, "test '%s': %s %u is missing (indices count from 0 without gaps)",
                        t->name, lists[l].what, i);
      }
   }
   if (t->expect == OPT_EXPECT_VALUES) {
      for (uint32_t i = 0; i < t->output_count; i++) {
         if (!t->expected[i].present)
            return perr(p, "test '%s': output %u has no 'expect %u: values ...'", t->name, i, i);
      }
      if (t->tol == OPT_TOL_DOT_PRODUCT || t->tol == OPT_TOL_RESCALE_RANGE ||
          t->tol == OPT_TOL_ABS_BOUND)
         return perr(p,
                     "test '%s': literal values are checked exact, fp_exact or ulp N; "
                     "dot_product and rescale_range need 'expect: reference' (so does "
                     "abs_bound)",
                     t->name);
   }
   return true;
}

static bool
section_header(struct parser *p, char *line, char *name, size_t size, char *arg, size_t arg_size)
{
   char *end = strchr(line, ']');
   if (!end)
      return perr(p, "section header without ']'");
   for (char *c = end + 1; *c; c++) {
      if (*c == '#')
         break;
      if (!isspace((unsigned char)*c))
         return perr(p, "text after the section header");
   }
   *end = '\0';
   char *s = line + 1;
   while (isspace((unsigned char)*s))
      s++;
   char *sp = s;
   while (*sp && !isspace((unsigned char)*sp))
      sp++;
   char *a = sp;
   while (isspace((unsigned char)*a))
      a++;
   *sp = '\0';
   size_t alen = strlen(a);
   while (alen && isspace((unsigned char)a[alen - 1]))
      a[--alen] = '\0';
   snprintf(name, size, "%s", s);
   if (alen >= arg_size)
      return perr(p, "section name '%s' is too long", a);
   snprintf(arg, arg_size, "%s", a);
   return true;
}

enum block { BLOCK_NONE, BLOCK_TEST, BLOCK_GRAPH, BLOCK_PRELUDE };

static bool
begin_test(struct parser *p, struct opt_file *f, size_t *cap, const char *name)
{
   if (!name[0])
      return perr(p, "[test] needs a name: [test NAME]");
   for (const char *c = name; *c; c++) {
      if (!isalnum((unsigned char)*c) && !strchr("._-+", *c))
         return perr(p, "test name '%s': letters, digits and . _ - + only", name);
   }
   for (size_t i = 0; i < f->count; i++) {
      if (strcmp(f->tests[i].name, name) == 0)
         return perr(p, "test '%s' defined twice (line %u)", name, f->tests[i].line);
   }
   if (f->count == *cap) {
      size_t c = *cap ? *cap * 2 : 16;
      struct opt_test *t = realloc(f->tests, c * sizeof(*t));
      if (!t)
         return perr(p, "out of memory");
      f->tests = t;
      *cap = c;
   }
   struct opt_test *t = &f->tests[f->count++];
   memset(t, 0, sizeof(*t));
   snprintf(t->name, sizeof(t->name), "%s", name);
   t->line = p->line;
   t->seed = 1;
   return true;
}

static bool
parse_lines(struct parser *p, char *text, struct opt_file *f)
{
   size_t cap = 0;
   enum block block = BLOCK_NONE;
   struct text body = {0};
   struct opt_test *cur = NULL;
   struct tokens *tok = malloc(sizeof(*tok));
   if (!tok)
      return perr(p, "out of memory");
   char *line = text;
   p->line = 0;
   while (line && !p->failed) {
      char *next = strchr(line, '\n');
      if (next)
         *next++ = '\0';
      p->line++;
      size_t len = strlen(line);
      if (len && line[len - 1] == '\r')
         line[--len] = '\0';
      const char *s = line;
      while (isspace((unsigned char)*s))
         s++;
      if (*s == '[') {
         /* A block ends at the next section header. */
         if (block == BLOCK_GRAPH) {
            cur->text = body.p;
            body = (struct text){0};
         } else if (block == BLOCK_PRELUDE) {
            f->prelude = body.p;
            body = (struct text){0};
         }
         char name[32], arg[OPT_NAME_LEN];
         if (!section_header(p, line + (s - (const char *)line), name, sizeof(name), arg,
                             sizeof(arg)))
            break;
         if (strcmp(name, "test") == 0) {
            if (cur && !test_complete(p, cur))
               break;
            if (!begin_test(p, f, &cap, arg))
               break;
            cur = &f->tests[f->count - 1];
            block = BLOCK_TEST;
         } else if (strcmp(name, "graph") == 0 || strcmp(name, "module") == 0) {
            if (!cur || block != BLOCK_TEST) {
               perr(p, "[%s] belongs after a [test NAME] and its directives", name);
               break;
            }
            if (cur->text) {
               perr(p, "test '%s' has a second graph", cur->name);
               break;
            }
            if (arg[0]) {
               perr(p, "[%s] takes no name", name);
               break;
            }
            cur->full_module = name[0] == 'm';
            cur->text_line = p->line + 1;
            block = BLOCK_GRAPH;
         } else if (strcmp(name, "prelude") == 0) {
            if (f->count || f->prelude) {
               perr(p, "[prelude] must come once, before the first test");
               break;
            }
            f->prelude_line = p->line + 1;
            block = BLOCK_PRELUDE;
         } else {
            perr(p, "unknown section [%s] (test, graph, module, prelude)", name);
            break;
         }
      } else if (block == BLOCK_GRAPH || block == BLOCK_PRELUDE) {
         /* Kept as written, comment lines included, so that line numbers still match. */
         if (!text_add(&body, line, len))
            perr(p, "out of memory");
      } else {
         if (!tokenize(p, line, tok) || tok->n == 0) {
            line = next;
            continue;
         }
         if (block == BLOCK_NONE)
            perr(p, "'%s' before the first [test NAME]", tok->v[0]);
         else
            parse_directive(p, cur, tok);
      }
      line = next;
   }
   if (!p->failed) {
      if (block == BLOCK_GRAPH)
         cur->text = body.p;
      else if (block == BLOCK_PRELUDE)
         f->prelude = body.p;
      else
         free(body.p);
      body.p = NULL;
      if (cur)
         test_complete(p, cur);
      else if (!p->failed) {
         p->line = 1;
         perr(p, "no [test NAME] in the file");
      }
   }
   free(body.p);
   free(tok);
   return !p->failed;
}

bool
opt_parse(const char *path, const char *text, size_t len, struct opt_file *file, char *err,
          size_t err_len)
{
   memset(file, 0, sizeof(*file));
   snprintf(file->path, sizeof(file->path), "%s", path);
   struct parser p = {.path = path, .err = err, .err_len = err_len};
   if (err_len)
      err[0] = '\0';
   char *copy = malloc(len + 1);
   if (!copy)
      return perr(&p, "out of memory");
   memcpy(copy, text, len);
   copy[len] = '\0';
   if (strlen(copy) != len) {
      free(copy);
      p.line = 1;
      return perr(&p, "the file contains a NUL byte");
   }
   bool ok = parse_lines(&p, copy, file);
   free(copy);
   if (!ok)
      opt_file_finish(file);
   return ok;
}

bool
opt_parse_file(const char *path, struct opt_file *file, char *err, size_t err_len)
{
   memset(file, 0, sizeof(*file));
   FILE *f = fopen(path, "rb");
   if (!f) {
      snprintf(err, err_len, "%s: cannot open: %s", path, strerror(errno));
      return false;
   }
   size_t cap = 1 << 16, n = 0;
   char *buf = malloc(cap);
   bool ok = buf != NULL;
   while (ok) {
      if (n == cap) {
         char *q = cap < (64u << 20) ? realloc(buf, cap * 2) : NULL;
         if (!q) {
            ok = false;
            break;
         }
         buf = q;
         cap *= 2;
      }
      size_t r = fread(buf + n, 1, cap - n, f);
      n += r;
      if (r == 0)
         break;
   }
   if (ok && ferror(f))
      ok = false;
   fclose(f);
   if (!ok) {
      free(buf);
      snprintf(err, err_len, "%s: cannot read (or larger than 64 MiB)", path);
      return false;
   }
   ok = opt_parse(path, buf, n, file, err, err_len);
   free(buf);
   return ok;
}
