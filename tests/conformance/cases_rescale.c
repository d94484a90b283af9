/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Cases of RESCALE (TOSA 1.0.1 "Type Conversion") for each of its twelve rows: scale32 and the
 * 16-bit scale (with an i32 and an i16 multiplier tensor), SINGLE_ROUND, DOUBLE_ROUND (shifts on
 * both sides of 31) and INEXACT_ROUND, per-channel scales, zero points, unsigned inputs and
 * outputs, saturating scales, zero multipliers, large shifts; split dispatches; the ERROR_IFs,
 * invalid enumerants, and the REQUIREs on multiplier and shift.
 *
 * Multipliers and shifts belong to a case (they are in its module), so they come from a
 * generator seeded by the case name alone; the input data follows --seed. Inputs are limited
 * to the values for which apply_scale_32/16 have no failing REQUIRE (value range, result range).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "conformance.h"

enum scale_kind {
   SCALE_IDENTITY, /* 1 << 30, 30 (16-bit: 1 << 14, 14) */
   SCALE_DOWN,     /* a multiplier in [0.5, 1) and a shift just above 31 (16-bit: 15) */
   SCALE_UP,       /* a small shift: most results saturate */
   SCALE_LARGE,    /* shifts 40..62 */
   SCALE_MIXED,    /* per channel, each channel its own kind; channel 0 multiplier 0 */
};

static const char *const kind_names[] = {"identity", "down", "up", "bigshift", "mixed"};
static const char *const round_names[] = {"round0", "single", "inexact", "double"};

struct rs_params {
   bool scale32;
   uint32_t rounding;
   enum scale_kind kind;
   bool per_channel, mul_i16;
   bool in_unsigned, out_unsigned;
   int64_t in_zp, out_zp; /* values as the side reads them (unsigned sides: zero-extended) */
   bool split;
   bool constant;   /* the input is a graph constant */
   uint32_t random; /* k > 0: random case k - 1 with the shape below */
   uint32_t rank;
   int64_t shape[GT_MAX_RANK];
};

static void
pick_scale(struct conf_rng *rng, bool scale32, enum scale_kind kind, int64_t *m, int64_t *s)
{
   int64_t one = scale32 ? INT64_C(1) << 30 : INT64_C(1) << 14;
   int64_t mmax = scale32 ? INT32_MAX : INT16_MAX;
   int base = scale32 ? 30 : 14;
   switch (kind) {
   case SCALE_IDENTITY:
      *m = one;
      *s = base;
      break;
   case SCALE_DOWN:
      *m = conf_rng_int(rng, one, mmax);
      *s = conf_rng_int(rng, base + 1, base + 8);
      break;
   case SCALE_UP:
      *m = conf_rng_int(rng, one, mmax);
      *s = conf_rng_int(rng, scale32 ? 20 : 2, base - 1);
      break;
   default:
      *m = conf_rng_int(rng, 0, mmax);
      *s = conf_rng_int(rng, 40, 62);
      break;
   }
}

/* The largest |input - input_zp| with no failing REQUIRE in apply_scale_32 (value within
 * [-2^(shift-1), 2^(shift-1))) or apply_scale_16 (the result fits i32: |value * m| < 2^(30 +
 * shift) leaves room for the rounding). */
static int64_t
value_bound(bool scale32, int64_t m, int64_t s)
{
   if (scale32)
      return s >= 33 ? INT64_MAX : (INT64_C(1) << (s - 1)) - 1;
   if (m == 0 || s + 30 >= 62)
      return INT64_C(1) << 47;
   int64_t b = (INT64_C(1) << (30 + s)) / m;
   return b > (INT64_C(1) << 47) ? INT64_C(1) << 47 : b;
}

static int64_t
type_min(enum ref_dtype dt, bool is_unsigned)
{
   unsigned bits = ref_dtype_int_bits(dt);
   return is_unsigned ? 0 : -(INT64_C(1) << (bits - 1));
}

static int64_t
type_max(enum ref_dtype dt, bool is_unsigned)
{
   unsigned bits = ref_dtype_int_bits(dt);
   return is_unsigned ? (INT64_C(1) << bits) - 1 : (INT64_C(1) << (bits - 1)) - 1;
}

static const struct {
   uint32_t rank;
   int64_t shape[GT_MAX_RANK];
} rs_shapes[] = {
    {2, {4, 5}},          {3, {2, 3, 4}},          {1, {64}},
    {5, {1, 2, 2, 3, 5}}, {6, {1, 1, 2, 1, 3, 4}}, {4, {2, 2, 3, 8}},
};
#define RS_SHAPES (sizeof(rs_shapes) / sizeof(rs_shapes[0]))

static struct conf_case *
rescale_case(struct conf_list *list, enum ref_dtype in, enum ref_dtype out,
             const struct rs_params *p, uint32_t shape_index)
{
   char row[32], what[96];
   snprintf(row, sizeof(row), "%s_%s", conf_dtype_name(in), conf_dtype_name(out));
   uint32_t rank = p->split ? 2 : rs_shapes[shape_index % RS_SHAPES].rank;
   const int64_t *shape = p->split ? CONF_SHAPE(1, 500) : rs_shapes[shape_index % RS_SHAPES].shape;
   if (p->random) {
      rank = p->rank;
      shape = p->shape;
   }
   size_t n = (size_t)snprintf(
       what, sizeof(what), "%s_%s_%s%s%s", p->scale32 ? "s32" : "s16", kind_names[p->kind],
       p->rounding <= TOSA_REF_ROUND_DOUBLE ? round_names[p->rounding] : "bad",
       p->per_channel ? "_pc" : "", p->mul_i16 ? "_mul_i16" : "");
   if (p->in_zp)
      n += (size_t)snprintf(what + n, sizeof(what) - n, "_izp%" PRId64, p->in_zp);
   if (p->out_zp)
      n += (size_t)snprintf(what + n, sizeof(what) - n, "_ozp%" PRId64, p->out_zp);
   if (p->in_unsigned || p->out_unsigned)
      n += (size_t)snprintf(what + n, sizeof(what) - n, "_%s", p->in_unsigned ? "uin" : "uout");
   if (p->constant)
      n += (size_t)snprintf(what + n, sizeof(what) - n, "_const_input");
   if (p->random)
      n += (size_t)snprintf(what + n, sizeof(what) - n, "_random%u", p->random - 1);
   if (p->split)
      snprintf(what + n, sizeof(what) - n, "_split_1x500");
   else
      snprintf(what + n, sizeof(what) - n, "_r%u", rank);

   struct conf_case *c = conf_add(list, TOSA_REF_OP_RESCALE, row, "%s", what);
   conf_input(c, 0, in, rank, shape, p->constant);
   c->op.output = conf_type(out, rank, shape);
   c->split = p->split;
   c->in_unsigned = p->in_unsigned;
   c->out_unsigned = p->out_unsigned;
   c->op.attr.rescale.scale32 = p->scale32;
   c->op.attr.rescale.rounding_mode = p->rounding;
   c->op.attr.rescale.per_channel = p->per_channel;
   c->op.attr.rescale.input_unsigned = p->in_unsigned;
   c->op.attr.rescale.output_unsigned = p->out_unsigned;
   c->op.attr.rescale.input_zp = conf_int(in, p->in_zp);
   c->op.attr.rescale.output_zp = conf_int(out, p->out_zp);

   uint32_t nc = p->per_channel ? (uint32_t)shape[rank - 1] : 1;
   struct conf_rng rng;
   conf_rng_init(&rng, 0, c->name);
   int64_t bound = INT64_MAX;
   for (uint32_t ch = 0; ch < nc && ch < CONF_MAX_CHANNELS; ch++) {
      enum scale_kind kind = p->kind;
      if (kind == SCALE_MIXED)
         kind = (enum scale_kind)conf_rng_int(&rng, SCALE_IDENTITY, SCALE_LARGE);
      int64_t m, s;
      pick_scale(&rng, p->scale32, kind, &m, &s);
      if (p->kind == SCALE_MIXED && ch == 0)
         m = 0;
      c->multiplier[ch] = (uint64_t)m & (p->mul_i16 ? 0xffffu : 0xffffffffu);
      c->shift[ch] = (uint64_t)s;
      int64_t b = value_bound(p->scale32, m, s);
      bound = b < bound ? b : bound;
   }
   c->op.attr.rescale.multiplier =
       (struct gt_const){p->mul_i16 ? REF_DTYPE_I16 : REF_DTYPE_I32, nc, NULL};
   c->op.attr.rescale.shift = (struct gt_const){REF_DTYPE_I8, nc, NULL};

   int64_t lo = type_min(in, p->in_unsigned), hi = type_max(in, p->in_unsigned);
   if (in == REF_DTYPE_I48 || in == REF_DTYPE_I32) {
      lo = in == REF_DTYPE_I48 ? -(INT64_C(1) << 47) : INT32_MIN;
      hi = in == REF_DTYPE_I48 ? (INT64_C(1) << 47) - 1 : INT32_MAX;
   }
   if (bound < INT64_MAX / 2) {
      lo = p->in_zp - bound > lo ? p->in_zp - bound : lo;
      hi = p->in_zp + bound < hi ? p->in_zp + bound : hi;
   }
   c->range[0] = (struct conf_range){lo, hi, 0, p->in_unsigned};
   c->fill = CONF_FILL_SPECIALS;
   return c;
}

static const struct {
   enum ref_dtype in, out;
} rs_rows[] = {
    {REF_DTYPE_I8, REF_DTYPE_I8},  {REF_DTYPE_I8, REF_DTYPE_I16},  {REF_DTYPE_I8, REF_DTYPE_I32},
    {REF_DTYPE_I16, REF_DTYPE_I8}, {REF_DTYPE_I16, REF_DTYPE_I16}, {REF_DTYPE_I16, REF_DTYPE_I32},
    {REF_DTYPE_I32, REF_DTYPE_I8}, {REF_DTYPE_I32, REF_DTYPE_I16}, {REF_DTYPE_I32, REF_DTYPE_I32},
    {REF_DTYPE_I48, REF_DTYPE_I8}, {REF_DTYPE_I48, REF_DTYPE_I16}, {REF_DTYPE_I48, REF_DTYPE_I32},
};

/* Random shapes (ranks 1..5, per-channel up to 12 channels), scales, rounding and zero points,
 * from a generator seeded by the row: the same cases in every run. */
static void
rescale_random(struct conf_list *list, enum ref_dtype in, enum ref_dtype out)
{
   char seed[64];
   snprintf(seed, sizeof(seed), "rescale.%s_%s.random", conf_dtype_name(in), conf_dtype_name(out));
   struct conf_rng rng;
   conf_rng_init(&rng, 0, seed);
   for (uint32_t k = 0; k < 6; k++) {
      struct rs_params p = {.random = k + 1};
      p.scale32 = in != REF_DTYPE_I48 && conf_rng_int(&rng, 0, 1);
      p.rounding = (uint32_t)conf_rng_int(
          &rng, TOSA_REF_ROUND_SINGLE, p.scale32 ? TOSA_REF_ROUND_DOUBLE : TOSA_REF_ROUND_INEXACT);
      p.kind = (enum scale_kind)conf_rng_int(&rng, SCALE_IDENTITY, SCALE_MIXED);
      p.per_channel = conf_rng_int(&rng, 0, 1);
      p.rank = (uint32_t)conf_rng_int(&rng, 1, 5);
      for (uint32_t d = 0; d < p.rank; d++)
         p.shape[d] = conf_rng_int(&rng, 1, d + 1 == p.rank ? 12 : 4);
      if (in == REF_DTYPE_I8)
         p.in_zp = conf_rng_int(&rng, -128, 127);
      if (out == REF_DTYPE_I8)
         p.out_zp = conf_rng_int(&rng, -128, 127);
      rescale_case(list, in, out, &p, 0);
   }
}

static void
rescale_row(struct conf_list *list, enum ref_dtype in, enum ref_dtype out)
{
   enum { S = TOSA_REF_ROUND_SINGLE, I = TOSA_REF_ROUND_INEXACT, D = TOSA_REF_ROUND_DOUBLE };
   static const struct rs_params scale32[] = {
       {true, S, SCALE_IDENTITY},    {true, S, SCALE_DOWN},        {true, D, SCALE_DOWN},
       {true, S, SCALE_UP},          {true, S, SCALE_LARGE},       {true, D, SCALE_LARGE},
       {true, I, SCALE_DOWN},        {true, D, SCALE_MIXED, true}, {true, S, SCALE_MIXED, true},
       {true, I, SCALE_MIXED, true},
   };
   static const struct rs_params scale16[] = {
       {false, S, SCALE_IDENTITY},
       {false, S, SCALE_DOWN},
       {false, S, SCALE_UP},
       {false, S, SCALE_LARGE},
       {false, I, SCALE_DOWN},
       {false, S, SCALE_MIXED, true},
       {false, S, SCALE_DOWN, false, true},
   };
   uint32_t shape = 0;
   for (uint32_t i = 0; in != REF_DTYPE_I48 && i < sizeof(scale32) / sizeof(scale32[0]); i++)
      rescale_case(list, in, out, &scale32[i], shape++);
   for (uint32_t i = 0; i < sizeof(scale16) / sizeof(scale16[0]); i++)
      rescale_case(list, in, out, &scale16[i], shape++);

   bool s32 = in != REF_DTYPE_I48;
   struct rs_params p = {s32, S, SCALE_DOWN};
   if (in == REF_DTYPE_I8) {
      static const int64_t zps[] = {-128, 127, -37};
      for (uint32_t i = 0; i < 3; i++) {
         p.in_zp = zps[i];
         p.rounding = i == 2 ? D : S;
         rescale_case(list, in, out, &p, shape++);
      }
      p.in_zp = 0;
   }
   if (out == REF_DTYPE_I8) {
      static const int64_t zps[] = {127, -128, 9};
      for (uint32_t i = 0; i < 3; i++) {
         p.out_zp = zps[i];
         p.kind = i == 1 ? SCALE_UP : SCALE_DOWN;
         rescale_case(list, in, out, &p, shape++);
      }
      p.out_zp = 0;
      p.kind = SCALE_DOWN;
   }
   /* Unsigned sides: u8 zero points of any value, u16 0 or 32768. */
   bool small_in = in == REF_DTYPE_I8 || in == REF_DTYPE_I16;
   bool small_out = out == REF_DTYPE_I8 || out == REF_DTYPE_I16;
   if (small_in && out != REF_DTYPE_I32) {
      const int64_t zps[] = {0, in == REF_DTYPE_I8 ? 255 : 32768, in == REF_DTYPE_I8 ? 128 : 0};
      for (uint32_t i = 0; i < 3; i++) {
         struct rs_params u = {true, i == 2 ? D : S, i == 1 ? SCALE_UP : SCALE_DOWN, i == 2};
         u.in_unsigned = true;
         u.in_zp = zps[i];
         rescale_case(list, in, out, &u, shape++);
      }
   }
   if (small_out && small_in) {
      const int64_t zps[] = {0, out == REF_DTYPE_I8 ? 200 : 32768, out == REF_DTYPE_I8 ? 17 : 0};
      for (uint32_t i = 0; i < 3; i++) {
         struct rs_params u = {i != 2, S, i == 1 ? SCALE_UP : SCALE_DOWN};
         u.out_unsigned = true;
         u.out_zp = zps[i];
         rescale_case(list, in, out, &u, shape++);
      }
   }
   p.split = true;
   rescale_case(list, in, out, &p, 0);
   p.split = false;
   p.constant = true;
   rescale_case(list, in, out, &p, 1);
   rescale_random(list, in, out);
}

/* An invalid or REQUIRE case: i8 -> i8 unless the fields below change it. */
static struct conf_case *
rescale_bad(struct conf_list *list, const char *name, enum ref_dtype in, enum ref_dtype out,
            const struct rs_params *p, enum conf_intent intent)
{
   struct conf_case *c = rescale_case(list, in, out, p, 0);
   snprintf(c->name, sizeof(c->name), "rescale.%s.%s",
            intent == CONF_REQUIRE ? "require" : "invalid", name);
   snprintf(c->group, sizeof(c->group), "rescale.%s",
            intent == CONF_REQUIRE ? "require" : "invalid");
   c->intent = intent;
   return c;
}

static void
rescale_invalid(struct conf_list *list)
{
   enum { S = TOSA_REF_ROUND_SINGLE, D = TOSA_REF_ROUND_DOUBLE };
   const enum ref_dtype i8 = REF_DTYPE_I8, i16 = REF_DTYPE_I16, i32 = REF_DTYPE_I32;
   const enum ref_dtype i48 = REF_DTYPE_I48;
   const struct rs_params s32 = {true, S, SCALE_DOWN}, s16 = {false, S, SCALE_DOWN};
   struct rs_params p;
   rescale_bad(list, "scale32_i48", i48, i8, &s32, CONF_INVALID);
   p = s16;
   p.rounding = D;
   rescale_bad(list, "double_round_scale16", i16, i8, &p, CONF_INVALID);
   p = s32;
   p.in_unsigned = p.out_unsigned = true;
   rescale_bad(list, "both_unsigned", i8, i16, &p, CONF_INVALID);
   p = s32;
   p.in_unsigned = true;
   rescale_bad(list, "unsigned_i32_input", i32, i8, &p, CONF_INVALID);
   rescale_bad(list, "unsigned_input_i32_output", i8, i32, &p, CONF_INVALID);
   p = s16;
   p.in_unsigned = true;
   rescale_bad(list, "unsigned_i48_input", i48, i16, &p, CONF_INVALID);
   p = s32;
   p.out_unsigned = true;
   rescale_bad(list, "unsigned_i32_output", i8, i32, &p, CONF_INVALID);
   rescale_bad(list, "i32_input_unsigned_output", i32, i8, &p, CONF_INVALID);
   p = s16;
   p.out_unsigned = true;
   rescale_bad(list, "i48_input_unsigned_output", i48, i8, &p, CONF_INVALID);
   p = s32;
   p.in_unsigned = true;
   p.in_zp = 1;
   rescale_bad(list, "u16_input_zp1", i16, i8, &p, CONF_INVALID);
   p = s32;
   p.out_unsigned = true;
   p.out_zp = 32767;
   rescale_bad(list, "u16_output_zp32767", i8, i16, &p, CONF_INVALID);
   p = s32;
   p.in_zp = 5;
   rescale_bad(list, "i16_input_zp5", i16, i8, &p, CONF_INVALID);
   p = s32;
   p.out_zp = -1;
   rescale_bad(list, "i32_output_zp", i8, i32, &p, CONF_INVALID);
   p = s16;
   p.in_zp = 2;
   rescale_bad(list, "i48_input_zp", i48, i32, &p, CONF_INVALID);
   p = s32;
   p.rounding = 0;
   rescale_bad(list, "rounding_mode0", i8, i8, &p, CONF_INVALID);
   p.rounding = 4;
   rescale_bad(list, "rounding_mode4", i8, i8, &p, CONF_INVALID);
   struct conf_case *c = rescale_bad(list, "input_zp_i16", i8, i8, &s32, CONF_INVALID);
   c->op.attr.rescale.input_zp = conf_int(i16, 0);
   c = rescale_bad(list, "output_shape", i16, i16, &s32, CONF_INVALID);
   c->op.output.shape[0] += 1;
   c = rescale_bad(list, "i8_to_i48", i8, i8, &s32, CONF_INVALID);
   c->op.output.dtype = i48;
   c->op.attr.rescale.output_zp = conf_int(i48, 0);
   p = s32;
   p.per_channel = true;
   c = rescale_bad(list, "multiplier_length", i8, i8, &p, CONF_INVALID);
   c->op.attr.rescale.multiplier.count -= 1;
   c = rescale_bad(list, "shift_i16", i8, i8, &s32, CONF_INVALID);
   c->op.attr.rescale.shift.dtype = i16;
   c = rescale_bad(list, "scale32_multiplier_i16", i8, i8, &s32, CONF_INVALID);
   c->op.attr.rescale.multiplier.dtype = i16;

   /* REQUIREs on the constants: rejecting or running are both conformant. */
   c = rescale_bad(list, "shift1", i16, i8, &s32, CONF_REQUIRE);
   c->shift[0] = 1;
   c = rescale_bad(list, "shift63", i32, i32, &s32, CONF_REQUIRE);
   c->shift[0] = 63;
   c = rescale_bad(list, "shift_m3", i8, i8, &s16, CONF_REQUIRE);
   c->shift[0] = 0xfd;
   c = rescale_bad(list, "multiplier_negative", i8, i16, &s32, CONF_REQUIRE);
   c->multiplier[0] = 0xffffff00u;
   c = rescale_bad(list, "scale16_multiplier_40000", i16, i16, &s16, CONF_REQUIRE);
   c->multiplier[0] = 40000;
}

void
conf_generate_rescale(struct conf_list *list)
{
   for (uint32_t r = 0; r < sizeof(rs_rows) / sizeof(rs_rows[0]); r++)
      rescale_row(list, rs_rows[r].in, rs_rows[r].out);
   rescale_invalid(list);
}
