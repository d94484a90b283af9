/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the RESCALE kernels against the reference: SINGLE_ROUND and
 * DOUBLE_ROUND bit for bit, INEXACT_ROUND within its range.
 */
#include "harness.h"

/* ---- RESCALE -------------------------------------------------------------------------------- */

struct rescale_params {
   bool scale32;
   enum tosa_ref_rounding rounding;
   bool per_channel, input_unsigned, output_unsigned;
   int32_t input_zp, output_zp; /* as numbers: zero-extended on an unsigned side */
   int64_t lo, hi;              /* input values */
   int32_t m_lo, m_hi;          /* multipliers */
   int32_t s_lo, s_hi;          /* shifts */
};

static void
rescale_case(const char *variant, enum ref_dtype in_t, enum ref_dtype out_t,
             const struct rescale_params *p, const char *note)
{
   char what[128];
   snprintf(what, sizeof(what), "%s %s", variant, note);
   struct ref_tensor *in = TENSOR(in_t, 2, 3, 4, 5);
   int64_t nc = p->per_channel ? 5 : 1;
   struct ref_tensor *mul = tensor(REF_DTYPE_I32, 1, &nc);
   struct ref_tensor *shift = tensor(REF_DTYPE_I8, 1, &nc);
   struct ref_tensor *izp = scalar_int(in_t, p->input_zp);
   struct ref_tensor *ozp = scalar_int(out_t, p->output_zp);
   struct ref_tensor *out = TENSOR(out_t, 2, 3, 4, 5);
   struct ref_tensor *ref = TENSOR(out_t, 2, 3, 4, 5);
   struct ref_tensor *lo = TENSOR(REF_DTYPE_I32, 2, 3, 4, 5);
   struct ref_tensor *hi = TENSOR(REF_DTYPE_I32, 2, 3, 4, 5);
   fill_int(in, p->lo, p->hi);
   fill_int(mul, p->m_lo, p->m_hi);
   fill_int(shift, p->s_lo, p->s_hi);
   ref_tensor_set_int(shift, 0, p->s_lo);
   ref_tensor_set_int(shift, nc - 1, p->s_hi);
   ref_tensor_set_int(in, 0, p->lo);
   ref_tensor_set_int(in, 1, p->hi);
   struct tosa_ref_rescale_args ra = {
      .scale32 = p->scale32,
      .rounding_mode = p->rounding,
      .per_channel = p->per_channel,
      .input_unsigned = p->input_unsigned,
      .output_unsigned = p->output_unsigned,
   };
   int st = p->rounding == TOSA_REF_ROUND_INEXACT
               ? tosa_ref_rescale_inexact_range(&ra, in, mul, shift, izp, ozp, lo, hi)
               : tosa_ref_rescale(&ra, in, mul, shift, izp, ozp, ref);
   if (ref_ok(what, st)) {
      struct dg_attrs_rescale args = {
         .scale32 = p->scale32,
         .rounding_mode = (uint32_t)p->rounding,
         .per_channel = p->per_channel,
         .input_unsigned = p->input_unsigned,
         .output_unsigned = p->output_unsigned,
         .input_zp = p->input_zp,
         .output_zp = p->output_zp,
      };
      struct ref_tensor *ts[4] = {in, mul, shift, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){1, 0, 1, 2}, 4, &args, sizeof(args), 0);
      if (gpu && p->rounding == TOSA_REF_ROUND_INEXACT) {
         unsigned failures = 0, bits = ref_dtype_int_bits(out_t);
         for (int64_t i = 0; i < gpu->count; i++) {
            int64_t got = p->output_unsigned
                             ? (int64_t)(ref_tensor_get_bits(gpu, i) & ((1u << bits) - 1))
                             : ref_tensor_get_int(gpu, i);
            if ((got < ref_tensor_get_int(lo, i) || got > ref_tensor_get_int(hi, i)) &&
                failures++ < MAX_REPORTED)
               fprintf(stderr, "  %s: element %" PRId64 ": %" PRId64 " not in [%" PRId64
                       ", %" PRId64 "]\n", what, i, got, ref_tensor_get_int(lo, i),
                       ref_tensor_get_int(hi, i));
         }
         ok(failures == 0, "%s: %u elements outside the INEXACT_ROUND range", what, failures);
      } else {
         compare(what, TOSA_REF_OP_RESCALE, gpu, ref);
      }
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, mul, shift, izp, ozp, out, ref, lo, hi};
   destroy_all(all, 9);
}

void
test_rescale(void)
{
   const enum tosa_ref_rounding single = TOSA_REF_ROUND_SINGLE, dbl = TOSA_REF_ROUND_DOUBLE,
                                inexact = TOSA_REF_ROUND_INEXACT;
   const int32_t m_max = INT32_MAX;
   test_set_context("rescale");
   /* i8 -> i8: zero points on both sides, one multiplier. */
   rescale_case("tosa_rescale_i8", REF_DTYPE_I8, REF_DTYPE_I8,
                &(struct rescale_params){true, single, false, false, false, -3, 5, -128, 127,
                                         1 << 30, m_max, 20, 40},
                "zp -3/5");
   /* i8 -> u8 per channel: output zero point 128, negative sums clip to 0. */
   rescale_case("tosa_rescale_i8", REF_DTYPE_I8, REF_DTYPE_I8,
                &(struct rescale_params){true, single, true, false, true, 10, 128, -128, 127,
                                         1 << 28, m_max, 24, 36},
                "u8 out, per channel");
   /* u8 -> i16 with input zero point 128. */
   rescale_case("tosa_rescale_i8_i16", REF_DTYPE_I8, REF_DTYPE_I16,
                &(struct rescale_params){true, single, true, true, false, 128, 0, -128, 127,
                                         1 << 30, m_max, 14, 31},
                "u8 in");
   /* i8 -> i32, DOUBLE_ROUND with shifts above 31 (round moves by 1 << 30). */
   rescale_case("tosa_rescale_i8_i32", REF_DTYPE_I8, REF_DTYPE_I32,
                &(struct rescale_params){true, dbl, true, false, false, -128, 0, -128, 127,
                                         0, m_max, 30, 40},
                "double round");
   /* The smallest shift: 2, with values that keep the REQUIRE on value. */
   rescale_case("tosa_rescale_i8_i32", REF_DTYPE_I8, REF_DTYPE_I32,
                &(struct rescale_params){true, single, false, false, false, 0, 0, -2, 1, 1, 7,
                                         2, 2},
                "shift 2");
   /* i16 -> i8 per channel; u16 with zero point 32768 in and out. */
   rescale_case("tosa_rescale_i16_i8", REF_DTYPE_I16, REF_DTYPE_I8,
                &(struct rescale_params){true, single, true, false, false, 0, -7, -32768, 32767,
                                         1 << 20, m_max, 30, 50},
                "per channel");
   rescale_case("tosa_rescale_i16_i8", REF_DTYPE_I16, REF_DTYPE_I8,
                &(struct rescale_params){true, single, false, true, false, 32768, 0, -32768,
                                         32767, 1 << 30, 1 << 30, 38, 38},
                "u16 in, zp 32768");
   rescale_case("tosa_rescale_i16", REF_DTYPE_I16, REF_DTYPE_I16,
                &(struct rescale_params){true, single, false, false, true, 0, 32768, -32768,
                                         32767, 1 << 30, 1 << 30, 30, 30},
                "u16 out, zp 32768");
   rescale_case("tosa_rescale_i16", REF_DTYPE_I16, REF_DTYPE_I16,
                &(struct rescale_params){false, single, true, false, false, 0, 0, -32768, 32767,
                                         0, 32767, 2, 20},
                "scale16");
   rescale_case("tosa_rescale_i16_i32", REF_DTYPE_I16, REF_DTYPE_I32,
                &(struct rescale_params){true, inexact, true, false, false, 0, 0, -32768, 32767,
                                         0, m_max, 17, 62},
                "inexact");
   /* i32: ties (multiplier 1 << 30, shift 31 halves odd values), double rounding, full range
    * with shifts 32..62. */
   rescale_case("tosa_rescale_i32", REF_DTYPE_I32, REF_DTYPE_I32,
                &(struct rescale_params){true, single, false, false, false, 0, 0, -(1 << 30),
                                         (1 << 30) - 1, 1 << 30, 1 << 30, 31, 31},
                "ties");
   rescale_case("tosa_rescale_i32", REF_DTYPE_I32, REF_DTYPE_I32,
                &(struct rescale_params){true, dbl, true, false, false, 0, 0, INT32_MIN,
                                         INT32_MAX, 0, m_max, 32, 62},
                "double round");
   rescale_case("tosa_rescale_i32_i8", REF_DTYPE_I32, REF_DTYPE_I8,
                &(struct rescale_params){true, single, true, false, false, 0, -100, INT32_MIN,
                                         INT32_MAX, 1 << 30, m_max, 32, 40},
                "saturate");
   rescale_case("tosa_rescale_i32_i16", REF_DTYPE_I32, REF_DTYPE_I16,
                &(struct rescale_params){true, dbl, false, false, false, 0, 0, INT32_MIN,
                                         INT32_MAX, 1 << 30, 1 << 30, 45, 45},
                "double round");
   /* i48 -> *: scale16 only (16-bit multipliers), results within i32. */
   rescale_case("tosa_rescale_i48_i8", REF_DTYPE_I48, REF_DTYPE_I8,
                &(struct rescale_params){false, single, true, false, false, 0, 3,
                                         -((int64_t)1 << 40), (int64_t)1 << 40, 0, 32767, 40,
                                         55},
                "per channel");
   rescale_case("tosa_rescale_i48_i16", REF_DTYPE_I48, REF_DTYPE_I16,
                &(struct rescale_params){false, single, false, false, false, 0, 0,
                                         -((int64_t)1 << 47), ((int64_t)1 << 47) - 1, 1 << 14,
                                         1 << 14, 46, 46},
                "full i48 range");
   rescale_case("tosa_rescale_i48_i32", REF_DTYPE_I48, REF_DTYPE_I32,
                &(struct rescale_params){false, inexact, true, false, false, 0, 0,
                                         -((int64_t)1 << 46), (int64_t)1 << 46, 0, 32767, 31, 62},
                "inexact");
   test_set_context(NULL);
}
