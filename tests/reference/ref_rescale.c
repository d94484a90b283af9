/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * RESCALE of the reference (TOSA 1.0.1 chapters/type_conversion.adoc, pseudocode/operators/
 * RESCALE.tosac) with apply_scale_32 / apply_scale_16 of pseudocode/library/scale_helpers.tosac,
 * bit-exact, and the INEXACT_ROUND error bounds of type_conversion.adoc. Deviations from the
 * letter of v1.0.1, each explained where it happens: the `sign_extend<int48_t>(value)` typo is
 * read as in_value (spec-facts §4.4 erratum 2), and an unsigned output is clipped in signed
 * arithmetic (see tosa_ref.h).
 */
#include "ref_internal.h"

#include <math.h>

int32_t
tosa_ref_apply_scale_32(int32_t value, int32_t multiplier, int32_t shift, bool double_round,
                        bool *require_ok)
{
   bool ok = true;
   if (multiplier < 0 || shift < 2 || shift > 62) {
      if (require_ok)
         *require_ok = false;
      return 0;
   }
   int64_t half = (int64_t)1 << (shift - 1);
   /* REQUIRE(value >= (-1 << (shift - 1)) && value < (1 << (shift - 1))) */
   if (value < -half || value >= half)
      ok = false;
   int64_t round = half;
   if (double_round) {
      if (shift > 31 && value >= 0)
         round += (int64_t)1 << 30;
      if (shift > 31 && value < 0)
         round -= (int64_t)1 << 30;
   }
   /* |value * multiplier| < 2^62 and round <= 2^61 + 2^30: no int64 overflow. */
   int64_t result = (int64_t)value * multiplier + round;
   result = ref_asr(result, (unsigned)shift);
   if (require_ok && !ok)
      *require_ok = false;
   /* In range whenever the REQUIRE holds; the cast wraps otherwise. */
   return (int32_t)ref_wrap_signed(result, 32);
}

int32_t
tosa_ref_apply_scale_16(int64_t value, int32_t multiplier, int32_t shift, bool *require_ok)
{
   if (multiplier < 0 || multiplier > INT16_MAX || shift < 2 || shift > 62) {
      if (require_ok)
         *require_ok = false;
      return 0;
   }
   value = ref_wrap_signed(value, 48);
   int64_t round = (int64_t)1 << (shift - 1);
   /* |value * multiplier| < 2^47 * 2^15 = 2^62 and round <= 2^61. */
   int64_t result = value * multiplier + round;
   result = ref_asr(result, (unsigned)shift);
   if (result < INT32_MIN || result > INT32_MAX) {
      if (require_ok)
         *require_ok = false;
      result = ref_wrap_signed(result, 32);
   }
   return (int32_t)result;
}

struct rescale_ctx {
   enum ref_dtype in_t, out_t;
   int64_t nc;
   int64_t in_zp;  /* extended per input_unsigned */
   int64_t out_zp; /* extended per output_unsigned */
   int64_t out_min, out_max;
};

/* The zero-extended value of a signless 8- or 16-bit value; other widths are unchanged. */
static int64_t
zero_extend(int64_t v, enum ref_dtype t)
{
   unsigned bits = ref_dtype_int_bits(t);
   if (bits == 8 || bits == 16)
      return (int64_t)((uint64_t)v & (((uint64_t)1 << bits) - 1));
   return v;
}

static bool
rescale_in_type(enum ref_dtype t)
{
   return t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || t == REF_DTYPE_I32 || t == REF_DTYPE_I48;
}

static bool
rescale_out_type(enum ref_dtype t)
{
   return t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || t == REF_DTYPE_I32;
}

/* Types, shapes and every ERROR_IF of RESCALE.tosac, in its order. */
static int
check_rescale(const struct tosa_ref_rescale_args *a, const struct ref_tensor *in,
              const struct ref_tensor *mul, const struct ref_tensor *shift,
              const struct ref_tensor *izp, const struct ref_tensor *ozp, struct rescale_ctx *ctx)
{
   enum ref_dtype in_t = in->dtype, out_t = ozp->dtype;
   if (!rescale_in_type(in_t) || !rescale_out_type(out_t) || izp->dtype != in_t)
      return ref_status(TOSA_REF_UNSUPPORTED,
                        "RESCALE: no type-support row for input %s (zero point %s), output %s",
                        ref_dtype_name(in_t), ref_dtype_name(izp->dtype), ref_dtype_name(out_t));
   if (shift->dtype != REF_DTYPE_I8)
      return ref_status(TOSA_REF_UNSUPPORTED, "RESCALE: shift must be i8, not %s",
                        ref_dtype_name(shift->dtype));
   /* mul_t = scale32 ? i32 : i16 (TOSA); TOSA.001000.1 declares i32: accept both for !scale32. */
   if (mul->dtype != REF_DTYPE_I32 && (a->scale32 || mul->dtype != REF_DTYPE_I16))
      return ref_status(TOSA_REF_UNSUPPORTED, "RESCALE: multiplier %s with scale32 %d",
                        ref_dtype_name(mul->dtype), a->scale32);
   if (a->rounding_mode < TOSA_REF_ROUND_SINGLE || a->rounding_mode > TOSA_REF_ROUND_DOUBLE)
      return ref_status(TOSA_REF_UNSUPPORTED, "RESCALE: rounding_mode %d is not valid",
                        (int)a->rounding_mode);
   if (izp->rank != 1 || izp->shape[0] != 1 || ozp->rank != 1 || ozp->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "RESCALE: zero points must have shape [1]");

   int64_t izp_s = ref_tensor_get_int(izp, 0), ozp_s = ref_tensor_get_int(ozp, 0);
   int64_t izp_u = zero_extend(izp_s, in_t), ozp_u = zero_extend(ozp_s, out_t);
   bool in_i8 = in_t == REF_DTYPE_I8, in_i16 = in_t == REF_DTYPE_I16;
   bool in_i32 = in_t == REF_DTYPE_I32, in_i48 = in_t == REF_DTYPE_I48;
   bool out_i8 = out_t == REF_DTYPE_I8, out_i16 = out_t == REF_DTYPE_I16;
   bool out_i32 = out_t == REF_DTYPE_I32;

   if (!in_i8 && (!in_i16 || !a->input_unsigned) && izp_s != 0)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(input_zp %lld != 0 for %s%s)",
                        (long long)izp_s, a->input_unsigned ? "unsigned " : "",
                        ref_dtype_name(in_t));
   if (!out_i8 && (!out_i16 || !a->output_unsigned) && ozp_s != 0)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(output_zp %lld != 0 for %s%s)",
                        (long long)ozp_s, a->output_unsigned ? "unsigned " : "",
                        ref_dtype_name(out_t));
   if (in_i16 && a->input_unsigned && izp_u != 0 && izp_u != 32768)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(uint16 input_zp %lld not 0 or 32768)",
                        (long long)izp_u);
   if (out_i16 && a->output_unsigned && ozp_u != 0 && ozp_u != 32768)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(uint16 output_zp %lld not 0 or 32768)",
                        (long long)ozp_u);
   if (a->scale32 && in_i48)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(scale32 && is_same<in_t,i48_t>())");
   if (!a->scale32 && a->rounding_mode == TOSA_REF_ROUND_DOUBLE)
      return ref_status(TOSA_REF_ERROR,
                        "RESCALE: ERROR_IF(!scale32 && (rounding_mode == DOUBLE_ROUND))");
   if (a->input_unsigned && a->output_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(input_unsigned && output_unsigned)");
   if (out_i32 && a->input_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(is_same<out_t,i32_t>() && "
                                        "input_unsigned)");
   if (in_i32 && a->output_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(is_same<in_t,i32_t>() && "
                                        "output_unsigned)");
   if (in_i48 && a->output_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(is_same<in_t,i48_t>() && "
                                        "output_unsigned)");
   if (in_i48 && a->input_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(is_same<in_t, i48_t> && "
                                        "input_unsigned)");
   if (in_i32 && a->input_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(is_same<in_t, i32_t> && "
                                        "input_unsigned)");
   if (out_i32 && a->output_unsigned)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(is_same<out_t, i32_t> && "
                                        "output_unsigned)");
   if (a->per_channel && in->rank < 1)
      return ref_status(TOSA_REF_ERROR, "RESCALE: ERROR_IF(per_channel && rank(input) < 1)");

   /* multiplier and shift have shape [NC], NC = per_channel ? shape[rank - 1] : 1. */
   int64_t nc = a->per_channel ? in->shape[in->rank - 1] : 1;
   if (mul->rank != 1 || mul->shape[0] != nc || shift->rank != 1 || shift->shape[0] != nc)
      return ref_status(TOSA_REF_ERROR, "RESCALE: multiplier and shift must have shape [%lld]",
                        (long long)nc);

   unsigned out_bits = ref_dtype_int_bits(out_t);
   ctx->in_t = in_t;
   ctx->out_t = out_t;
   ctx->nc = nc;
   ctx->in_zp = a->input_unsigned ? izp_u : izp_s;
   ctx->out_zp = a->output_unsigned ? ozp_u : ozp_s;
   ctx->out_min = a->output_unsigned ? 0 : ref_int_min(out_bits);
   ctx->out_max = a->output_unsigned ? ((int64_t)1 << out_bits) - 1 : ref_int_max(out_bits);
   return TOSA_REF_OK;
}

/* The REQUIREs on the constant operands: apply_scale_32/16's multiplier >= 0 and 2 <= shift
 * <= 62, and an i32 multiplier tensor for !scale32 holding an i16 value (our reading). */
static int
check_rescale_constants(const struct tosa_ref_rescale_args *a, const struct ref_tensor *mul,
                        const struct ref_tensor *shift)
{
   for (int64_t c = 0; c < mul->count; c++) {
      int64_t m = ref_tensor_get_int(mul, c), s = ref_tensor_get_int(shift, c);
      if (m < 0)
         return ref_status(TOSA_REF_UNPREDICTABLE,
                           "RESCALE: REQUIRE(multiplier >= 0): [%lld] "
                           "is %lld",
                           (long long)c, (long long)m);
      if (!a->scale32 && m > INT16_MAX)
         return ref_status(TOSA_REF_UNPREDICTABLE,
                           "RESCALE: multiplier[%lld] = %lld is not an i16 (scale32 false)",
                           (long long)c, (long long)m);
      if (s < 2 || s > 62)
         return ref_status(TOSA_REF_UNPREDICTABLE,
                           "RESCALE: REQUIRE(2 <= shift && shift <= 62): [%lld] is %lld",
                           (long long)c, (long long)s);
   }
   return TOSA_REF_OK;
}

/* One element: everything up to the clip, with the REQUIREs. *value_out gets value - input_zp
 * (the x - input_zp of the INEXACT_ROUND bound). */
static int64_t
rescale_element(const struct tosa_ref_rescale_args *a, const struct rescale_ctx *ctx,
                const struct ref_tensor *in, const struct ref_tensor *mul,
                const struct ref_tensor *shift, int64_t offset, int64_t *value_out, int64_t *c_out,
                bool *ok)
{
   int64_t in_value = ref_tensor_get_int(in, offset);
   /* v1.0.1 reads `value = sign_extend<int48_t>(value)`: in_value is meant (erratum 2). */
   int64_t value = a->input_unsigned ? zero_extend(in_value, ctx->in_t) : in_value;
   value = value - ctx->in_zp;
   /* c = per_channel ? index[rank(input) - 1] : 0; the last index is offset % NC. */
   int64_t c = a->per_channel ? offset % ctx->nc : 0;
   int32_t m = (int32_t)ref_tensor_get_int(mul, c);
   int32_t s = (int32_t)ref_tensor_get_int(shift, c);
   int64_t result;
   if (a->scale32) {
      /* in_t is i8, i16 or i32 here with the zero-point rules, so value fits an int32_t. */
      if (value < INT32_MIN || value > INT32_MAX)
         *ok = false;
      result = tosa_ref_apply_scale_32((int32_t)ref_wrap_signed(value, 32), m, s,
                                       a->rounding_mode == TOSA_REF_ROUND_DOUBLE, ok);
   } else {
      result = tosa_ref_apply_scale_16(value, m, s, ok);
   }
   /* apply_add_s<int32_t>(result, extended_out_zp) */
   result = ref_add_s(result, ctx->out_zp, 32, ok);
   *value_out = value;
   *c_out = c;
   return result;
}

int
tosa_ref_rescale(const struct tosa_ref_rescale_args *args, const struct ref_tensor *input,
                 const struct ref_tensor *multiplier, const struct ref_tensor *shift,
                 const struct ref_tensor *input_zp, const struct ref_tensor *output_zp,
                 struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(multiplier) ||
       !ref_tensor_valid(shift) || !ref_tensor_valid(input_zp) || !ref_tensor_valid(output_zp) ||
       !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "RESCALE: NULL or invalid argument");
   if (output->dtype != output_zp->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED, "RESCALE: output %s but output_zp %s",
                        ref_dtype_name(output->dtype), ref_dtype_name(output_zp->dtype));

   struct rescale_ctx ctx;
   int st = check_rescale(args, input, multiplier, shift, input_zp, output_zp, &ctx);
   if (st != TOSA_REF_OK)
      return st;
   if (!ref_same_shape(input, output))
      return ref_status(TOSA_REF_ERROR, "RESCALE: the output shape must be the input shape");
   st = check_rescale_constants(args, multiplier, shift);
   if (st != TOSA_REF_OK) {
      ref_tensor_zero(output);
      return st;
   }

   int64_t bad = -1;
   for (int64_t o = 0; o < input->count; o++) {
      bool ok = true;
      int64_t value, c;
      int64_t result = rescale_element(args, &ctx, input, multiplier, shift, o, &value, &c, &ok);
      /* apply_clip_s / apply_clip_u to the output range; the unsigned clip is done in signed
       * arithmetic: see tosa_ref.h. */
      result = result < ctx.out_min ? ctx.out_min : result > ctx.out_max ? ctx.out_max : result;
      ref_tensor_set_int(output, o, result);
      if (!ok && bad < 0)
         bad = o;
   }
   if (bad >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "RESCALE: REQUIRE failed at offset %lld (apply_scale value or result "
                        "range, or the output_zp addition)",
                        (long long)bad);
   return TOSA_REF_OK;
}

int
tosa_ref_rescale_inexact_range(const struct tosa_ref_rescale_args *args,
                               const struct ref_tensor *input, const struct ref_tensor *multiplier,
                               const struct ref_tensor *shift, const struct ref_tensor *input_zp,
                               const struct ref_tensor *output_zp, struct ref_tensor *lo,
                               struct ref_tensor *hi)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(multiplier) ||
       !ref_tensor_valid(shift) || !ref_tensor_valid(input_zp) || !ref_tensor_valid(output_zp) ||
       !ref_tensor_valid(lo) || !ref_tensor_valid(hi) || lo->dtype != REF_DTYPE_I32 ||
       hi->dtype != REF_DTYPE_I32 || !ref_same_shape(lo, input) || !ref_same_shape(hi, input))
      return ref_status(TOSA_REF_BAD_ARGUMENT,
                        "RESCALE range: NULL or invalid argument (lo and hi: i32, input shape)");

   struct rescale_ctx ctx;
   int st = check_rescale(args, input, multiplier, shift, input_zp, output_zp, &ctx);
   if (st != TOSA_REF_OK)
      return st;
   st = check_rescale_constants(args, multiplier, shift);
   if (st != TOSA_REF_OK)
      return st;

   int64_t bad = -1;
   for (int64_t o = 0; o < input->count; o++) {
      bool ok = true;
      int64_t value, c;
      rescale_element(args, &ctx, input, multiplier, shift, o, &value, &c, &ok);
      if (!ok && bad < 0)
         bad = o;

      double m = (double)ref_tensor_get_int(multiplier, c);
      int s = (int)ref_tensor_get_int(shift, c);
      double zp = (double)ctx.out_zp;
      /* out_ref = (x - input_zp) * m * exp2(-shift), in fp64 arithmetic. */
      double out_ref = (double)value * m * ldexp(1.0, -s);
      /* err_bnd = 0.5 + (3 * abs(out_ref) + abs(out_ref + output_zp)) * exp2(-normal_frac<fp32>
       * - 1) */
      double err_bnd = 0.5 + (3.0 * fabs(out_ref) + fabs(out_ref + zp)) * ldexp(1.0, -23 - 1);
      double min = ceil(out_ref - err_bnd + zp);
      double max = floor(out_ref + err_bnd + zp);
      double omin = (double)ctx.out_min, omax = (double)ctx.out_max;
      min = min < omin ? omin : min > omax ? omax : min;
      max = max < omin ? omin : max > omax ? omax : max;
      ref_tensor_set_int(lo, o, (int64_t)min);
      ref_tensor_set_int(hi, o, (int64_t)max);
   }
   if (bad >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE, "RESCALE: REQUIRE failed at offset %lld",
                        (long long)bad);
   return TOSA_REF_OK;
}
