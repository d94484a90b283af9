/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What every case generator uses: the case list, type and scalar helpers, and the
 * deterministic pseudo-random generator (splitmix64 seeded from the run's seed and an FNV-1a
 * hash of the case name). Input data and the reference live in prepare.c.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conformance.h"

struct conf_case *
conf_add(struct conf_list *list, enum tosa_ref_op op, const char *row, const char *what_fmt, ...)
{
   static struct conf_case scratch;
   struct conf_case *c = &scratch;
   if (list->count == list->cap) {
      size_t cap = list->cap ? list->cap * 2 : 256;
      struct conf_case *v = realloc(list->v, cap * sizeof(*v));
      if (v) {
         list->v = v;
         list->cap = cap;
      }
   }
   if (list->count < list->cap)
      c = &list->v[list->count++];
   else
      list->out_of_memory = true;
   memset(c, 0, sizeof(*c));
   c->op.op = op;
   c->intent = row ? CONF_VALID : CONF_INVALID;
   char what[CONF_NAME_LEN - CONF_GROUP_LEN - 1];
   va_list ap;
   va_start(ap, what_fmt);
   vsnprintf(what, sizeof(what), what_fmt, ap);
   va_end(ap);
   snprintf(c->group, sizeof(c->group), "%s.%s", gt_op_short_name(op), row ? row : "invalid");
   snprintf(c->name, sizeof(c->name), "%s.%s", c->group, what);
   return c;
}

struct gt_type
conf_type(enum ref_dtype dtype, uint32_t rank, const int64_t *shape)
{
   struct gt_type t = {.dtype = dtype, .rank = rank};
   for (uint32_t i = 0; i < rank && i < GT_MAX_RANK; i++)
      t.shape[i] = shape[i];
   return t;
}

void
conf_input(struct conf_case *c, uint32_t index, enum ref_dtype dtype, uint32_t rank,
           const int64_t *shape, bool constant)
{
   if (index >= GT_MAX_INPUTS)
      return;
   c->op.inputs[index].type = conf_type(dtype, rank, shape);
   c->op.inputs[index].source = constant ? GT_GRAPH_CONSTANT : GT_GRAPH_INPUT;
   if (c->op.input_count <= index)
      c->op.input_count = index + 1;
}

struct gt_scalar
conf_int(enum ref_dtype dtype, int64_t value)
{
   unsigned bits = dtype == REF_DTYPE_I48 ? 64 : ref_dtype_int_bits(dtype);
   uint64_t mask = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
   return (struct gt_scalar){dtype, (uint64_t)value & mask};
}

struct gt_scalar
conf_fp(enum ref_dtype dtype, double v)
{
   return (struct gt_scalar){dtype, ref_fp_encode(dtype, v, false)};
}

const char *
conf_dtype_name(enum ref_dtype dtype)
{
   return ref_dtype_name(dtype);
}

/* ---- pseudo-random numbers -------------------------------------------------------------- */

void
conf_rng_init(struct conf_rng *rng, uint64_t seed, const char *name)
{
   uint64_t h = UINT64_C(0xcbf29ce484222325);
   for (const char *p = name; *p; p++)
      h = (h ^ (uint8_t)*p) * UINT64_C(0x100000001b3);
   rng->state = h ^ (seed * UINT64_C(0x9e3779b97f4a7c15));
}

uint64_t
conf_rng_next(struct conf_rng *rng)
{
   uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));
   z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
   z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
   return z ^ (z >> 31);
}

int64_t
conf_rng_int(struct conf_rng *rng, int64_t lo, int64_t hi)
{
   if (hi <= lo)
      return lo;
   uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
   uint64_t r = conf_rng_next(rng);
   return (int64_t)((uint64_t)lo + (span ? r % span : r));
}

double
conf_rng_double(struct conf_rng *rng, double lo, double hi)
{
   double u = (double)(conf_rng_next(rng) >> 11) * ldexp(1.0, -53);
   return lo + (hi - lo) * u;
}
