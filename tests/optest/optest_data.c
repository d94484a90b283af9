/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * opt_make_tensor() (optest.h): a declaration's tensor with its data, from inline values or a
 * named generator seeded by the test's seed and the declaration's slot. The generator is
 * splitmix64, so the data of a file is the same on every host.
 */
#include "optest.h"

#include <math.h>
#include <string.h>

struct rng {
   uint64_t state;
};

static uint64_t
rng_next(struct rng *r)
{
   uint64_t z = (r->state += UINT64_C(0x9e3779b97f4a7c15));
   z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
   z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
   return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static int64_t
rng_int(struct rng *r, int64_t lo, int64_t hi)
{
   uint64_t span = (uint64_t)hi - (uint64_t)lo;
   uint64_t x = rng_next(r);
   if (span != UINT64_MAX)
      x %= span + 1;
   return (int64_t)((uint64_t)lo + x);
}

static double
rng_double(struct rng *r, double lo, double hi)
{
   double u = (double)(rng_next(r) >> 11) * 0x1p-53;
   return lo + (hi - lo) * u;
}

static void
default_range(const struct opt_tensor *d, double *lo, double *hi)
{
   if (d->has_range) {
      *lo = d->lo;
      *hi = d->hi;
   } else if (ref_dtype_is_float(d->dtype)) {
      *lo = -1.0;
      *hi = 1.0;
   } else if (d->dtype == REF_DTYPE_BOOL) {
      *lo = 0;
      *hi = 1;
   } else if (d->is_unsigned) {
      *lo = 0;
      *hi = (double)((INT64_C(1) << ref_dtype_int_bits(d->dtype)) - 1);
   } else {
      unsigned bits = ref_dtype_int_bits(d->dtype);
      *lo = -ldexp(1.0, (int)bits - 1);
      *hi = ldexp(1.0, (int)bits - 1) - 1;
   }
}

/* Stores an integer value: unsigned declarations keep the low bits (the storage is signless). */
static void
set_int(struct ref_tensor *t, int64_t i, int64_t v)
{
   ref_tensor_set_int(t, i, v);
}

/* The special values of a declaration, as bit patterns. */
static unsigned
specials(const struct opt_tensor *d, double lo, double hi, uint64_t *out)
{
   unsigned n = 0;
   if (ref_dtype_is_float(d->dtype)) {
      enum ref_dtype dt = d->dtype;
      double minn = ref_dtype_normal_min(dt), maxn = ref_dtype_normal_max(dt);
      int frac = ref_dtype_normal_frac(dt);
      double sub_min = ldexp(minn, -frac), sub_max = minn - sub_min;
      const double v[] = {NAN,   -NAN, INFINITY, -INFINITY, 0.0,      -0.0,    maxn,
                          -maxn, minn, -minn,    sub_min,   -sub_min, sub_max, -sub_max};
      for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++)
         out[n++] = ref_fp_encode(dt, v[i], false);
      return n;
   }
   const int64_t v[] = {(int64_t)lo, (int64_t)hi, 0, 1, -1, (int64_t)lo + 1, (int64_t)hi - 1};
   for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
      if ((double)v[i] >= lo && (double)v[i] <= hi)
         out[n++] = (uint64_t)v[i];
   }
   return n;
}

static void
fill_uniform(const struct opt_tensor *d, struct ref_tensor *t, struct rng *r, double lo, double hi)
{
   bool is_float = ref_dtype_is_float(d->dtype);
   for (int64_t i = 0; i < t->count; i++) {
      if (is_float)
         ref_tensor_set_fp(t, i, rng_double(r, lo, hi));
      else
         set_int(t, i, rng_int(r, (int64_t)lo, (int64_t)hi));
   }
}

struct ref_tensor *
opt_make_tensor(const struct opt_tensor *d, uint64_t seed, unsigned slot)
{
   struct ref_tensor *t = ref_tensor_create(d->dtype, d->rank, d->shape);
   if (!t)
      return NULL;
   struct rng r = {seed * UINT64_C(0x100000001b3) + slot * UINT64_C(0x9e3779b97f4a7c15) + 1};
   rng_next(&r);
   double lo, hi;
   default_range(d, &lo, &hi);
   bool is_float = ref_dtype_is_float(d->dtype);
   switch (d->gen) {
   case OPT_GEN_VALUES:
      for (int64_t i = 0; i < t->count; i++)
         ref_tensor_set_bits(t, i, d->bits[i]);
      break;
   case OPT_GEN_SEQ:
      for (int64_t i = 0; i < t->count; i++) {
         double v = d->lo + d->hi * (double)i;
         if (is_float)
            ref_tensor_set_fp(t, i, v);
         else
            set_int(t, i, (int64_t)v); /* wraps to the type's width */
      }
      break;
   case OPT_GEN_BITS:
   case OPT_GEN_ALLBITS: {
      unsigned width = (unsigned)ref_dtype_size(d->dtype) * 8;
      for (int64_t i = 0; i < t->count; i++) {
         uint64_t b = d->gen == OPT_GEN_ALLBITS ? (uint64_t)i : rng_next(&r);
         if (d->dtype == REF_DTYPE_BOOL)
            b &= 1;
         else if (width < 64)
            b &= (UINT64_C(1) << width) - 1;
         ref_tensor_set_bits(t, i, b);
      }
      break;
   }
   case OPT_GEN_UNIFORM:
      fill_uniform(d, t, &r, lo, hi);
      break;
   case OPT_GEN_SPECIALS: {
      fill_uniform(d, t, &r, lo, hi);
      uint64_t sp[16];
      unsigned n = specials(d, lo, hi, sp);
      if (n == 0)
         break;
      /* Every special once (where the tensor is big enough), at scattered positions... */
      for (unsigned k = 0; k < n && (int64_t)k < t->count; k++) {
         int64_t at = (int64_t)(((uint64_t)k * (uint64_t)t->count) / n);
         at += rng_int(&r, 0, t->count / n > 0 ? t->count / n - 1 : 0);
         if (at >= t->count)
            at = t->count - 1;
         if (is_float)
            ref_tensor_set_bits(t, at, sp[k]);
         else
            set_int(t, at, (int64_t)sp[k]);
      }
      /* ...and about one element in eight a special at random. */
      for (int64_t i = 0; i < t->count; i++) {
         if (rng_next(&r) % 8 != 0)
            continue;
         uint64_t v = sp[rng_int(&r, 0, n - 1)];
         if (is_float)
            ref_tensor_set_bits(t, i, v);
         else
            set_int(t, i, (int64_t)v);
      }
      break;
   }
   }
   return t;
}
