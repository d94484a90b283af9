/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * CAST of the reference (TOSA 1.0.1 chapters/type_conversion.adoc, pseudocode/operators/
 * CAST.tosac with round_to_nearest_int, round_to_nearest_float, sign_extend and truncate of
 * pseudocode/library/numeric_conversion_helpers.tosac). Every value of the input types is
 * exact in a double, so each conversion is the exact input value rounded once: floats with
 * ref_tensor_set_fp() (round to nearest, ties to even; overflow to infinity, or NaN for
 * fp8e4m3, the OCP non-saturating mode), integers with round_half_even() below.
 */
#include "ref_internal.h"

#include <math.h>

/* The rows of TOSA.001000.1's CAST table (tosa.xml v1.0.1, 46 rows; spec-facts §3.3). */
static const struct {
   enum ref_dtype in, out;
} cast_rows[] = {
    {REF_DTYPE_BOOL, REF_DTYPE_I8},      {REF_DTYPE_BOOL, REF_DTYPE_I16},
    {REF_DTYPE_BOOL, REF_DTYPE_I32},     {REF_DTYPE_I8, REF_DTYPE_BOOL},
    {REF_DTYPE_I8, REF_DTYPE_I16},       {REF_DTYPE_I8, REF_DTYPE_I32},
    {REF_DTYPE_I8, REF_DTYPE_FP16},      {REF_DTYPE_I8, REF_DTYPE_BF16},
    {REF_DTYPE_I8, REF_DTYPE_FP32},      {REF_DTYPE_I16, REF_DTYPE_BOOL},
    {REF_DTYPE_I16, REF_DTYPE_I8},       {REF_DTYPE_I16, REF_DTYPE_I32},
    {REF_DTYPE_I16, REF_DTYPE_FP16},     {REF_DTYPE_I16, REF_DTYPE_BF16},
    {REF_DTYPE_I16, REF_DTYPE_FP32},     {REF_DTYPE_I32, REF_DTYPE_BOOL},
    {REF_DTYPE_I32, REF_DTYPE_I8},       {REF_DTYPE_I32, REF_DTYPE_I16},
    {REF_DTYPE_I32, REF_DTYPE_FP16},     {REF_DTYPE_I32, REF_DTYPE_BF16},
    {REF_DTYPE_I32, REF_DTYPE_FP32},     {REF_DTYPE_BF16, REF_DTYPE_I8},
    {REF_DTYPE_BF16, REF_DTYPE_I16},     {REF_DTYPE_BF16, REF_DTYPE_I32},
    {REF_DTYPE_BF16, REF_DTYPE_FP8E4M3}, {REF_DTYPE_BF16, REF_DTYPE_FP8E5M2},
    {REF_DTYPE_BF16, REF_DTYPE_FP32},    {REF_DTYPE_FP8E4M3, REF_DTYPE_FP16},
    {REF_DTYPE_FP8E4M3, REF_DTYPE_BF16}, {REF_DTYPE_FP8E4M3, REF_DTYPE_FP32},
    {REF_DTYPE_FP8E5M2, REF_DTYPE_FP16}, {REF_DTYPE_FP8E5M2, REF_DTYPE_BF16},
    {REF_DTYPE_FP8E5M2, REF_DTYPE_FP32}, {REF_DTYPE_FP16, REF_DTYPE_I8},
    {REF_DTYPE_FP16, REF_DTYPE_I16},     {REF_DTYPE_FP16, REF_DTYPE_I32},
    {REF_DTYPE_FP16, REF_DTYPE_FP8E4M3}, {REF_DTYPE_FP16, REF_DTYPE_FP8E5M2},
    {REF_DTYPE_FP16, REF_DTYPE_FP32},    {REF_DTYPE_FP32, REF_DTYPE_I8},
    {REF_DTYPE_FP32, REF_DTYPE_I16},     {REF_DTYPE_FP32, REF_DTYPE_I32},
    {REF_DTYPE_FP32, REF_DTYPE_FP8E4M3}, {REF_DTYPE_FP32, REF_DTYPE_FP8E5M2},
    {REF_DTYPE_FP32, REF_DTYPE_BF16},    {REF_DTYPE_FP32, REF_DTYPE_FP16},
};

/* Whether (in, out) is a row; an FP64 output stands for any float output of the input. */
static bool
cast_row(enum ref_dtype in, enum ref_dtype out)
{
   for (size_t i = 0; i < sizeof(cast_rows) / sizeof(cast_rows[0]); i++) {
      if (cast_rows[i].in != in)
         continue;
      if (cast_rows[i].out == out ||
          (out == REF_DTYPE_FP64 && ref_dtype_is_float(cast_rows[i].out)))
         return true;
   }
   return false;
}

/* round_to_nearest_int: the integer nearest to v, ties to even (v not NaN; +-inf stay). */
static double
round_half_even(double v)
{
   double r = floor(v);
   double d = v - r; /* exact: below 2^52 floor() drops only fraction bits, above it d is 0 */
   if (d > 0.5 || (d == 0.5 && fmod(r, 2.0) != 0.0))
      r += 1.0;
   return r;
}

int
tosa_ref_cast(const struct ref_tensor *input, struct ref_tensor *output)
{
   if (!ref_tensor_valid(input) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "CAST: NULL or invalid tensor");
   enum ref_dtype in = input->dtype, out = output->dtype;
   if (!cast_row(in, out))
      return ref_status(TOSA_REF_UNSUPPORTED, "CAST: no type-support row for %s -> %s",
                        ref_dtype_name(in), ref_dtype_name(out));
   if (!ref_same_shape(input, output)) {
      char a[96], b[96];
      return ref_status(TOSA_REF_ERROR, "CAST: the output shape %s is not the input's %s",
                        ref_shape_str(output, a, sizeof(a)), ref_shape_str(input, b, sizeof(b)));
   }

   bool in_float = ref_dtype_is_float(in), out_float = ref_dtype_is_float(out);
   int64_t nan_at = -1;
   for (int64_t i = 0; i < input->count; i++) {
      if (out == REF_DTYPE_BOOL) {
         ref_tensor_set_int(output, i, ref_tensor_get_int(input, i) != 0);
      } else if (!in_float && !out_float) {
         /* bool: 1 or 0; sign_extend to a wider type, truncate to a narrower one (set_int
          * keeps the low bits). */
         ref_tensor_set_int(output, i, ref_tensor_get_int(input, i));
      } else if (!in_float) {
         ref_tensor_set_fp(output, i, (double)ref_tensor_get_int(input, i));
      } else if (out_float) {
         ref_tensor_set_fp(output, i, ref_tensor_get_fp(input, i));
      } else {
         /* apply_clip_s<i32_t>(round_to_nearest_int(in), minimum_s<out_t>, maximum_s<out_t>) */
         double v = ref_tensor_get_fp(input, i);
         if (isnan(v)) {
            /* type_conversion.adoc: "If any input is a NaN, the result is unpredictable". */
            if (nan_at < 0)
               nan_at = i;
            ref_tensor_set_int(output, i, 0);
            continue;
         }
         unsigned bits = ref_dtype_int_bits(out);
         double r = round_half_even(v);
         double lo = (double)ref_int_min(bits), hi = (double)ref_int_max(bits);
         ref_tensor_set_int(output, i, (int64_t)(r < lo ? lo : r > hi ? hi : r));
      }
   }
   if (nan_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "CAST: %s NaN to %s at offset %lld: the result is unpredictable (0 here)",
                        ref_dtype_name(in), ref_dtype_name(out), (long long)nan_at);
   return TOSA_REF_OK;
}
