/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The arithmetic operators of the reference beyond ADD, SUB and MUL: INTDIV (TOSA 1.0.1
 * chapters/ewise_binary.adoc), ABS and NEGATE (ewise_unary.adoc), from
 * pseudocode/operators/{INTDIV,ABS,NEGATE}.tosac and apply_intdiv_s, apply_sub_s, apply_add_s
 * and apply_clip_s of arithmetic_helpers.tosac. Their integer forms have REQUIREs on the data
 * (division by zero, overflow); where one fails the result is the one tosa_ref.h documents,
 * the same as the layer's kernels give.
 */
#include "ref_internal.h"

/* ---------------------------------------------------------------------------------------------
 * INTDIV
 */

int
tosa_ref_intdiv(const struct ref_tensor *input1, const struct ref_tensor *input2,
                struct ref_tensor *output)
{
   if (!ref_tensor_valid(input1) || !ref_tensor_valid(input2) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "INTDIV: NULL or invalid tensor");
   if (input1->dtype != REF_DTYPE_I32 || input2->dtype != REF_DTYPE_I32 ||
       output->dtype != REF_DTYPE_I32)
      return ref_status(TOSA_REF_UNSUPPORTED, "INTDIV: no type-support row for %s x %s -> %s",
                        ref_dtype_name(input1->dtype), ref_dtype_name(input2->dtype),
                        ref_dtype_name(output->dtype));
   int st = ref_check_broadcast("INTDIV", input1, input2, output);
   if (st != TOSA_REF_OK)
      return st;

   int64_t index[REF_MAX_RANK];
   int64_t zero_at = -1, overflow_at = -1;
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      int64_t a = ref_tensor_get_int(input1, ref_broadcast_offset(output, input1, index));
      int64_t b = ref_tensor_get_int(input2, ref_broadcast_offset(output, input2, index));
      int64_t r;
      if (b == 0) {
         /* REQUIRE(value2 != 0); documented result 0. */
         if (zero_at < 0)
            zero_at = o;
         r = 0;
      } else {
         /* apply_intdiv_s: the int64 quotient (C truncates toward zero), REQUIRE'd in range:
          * only INT32_MIN / -1 = 2^31 is not; it wraps to INT32_MIN. */
         r = a / b;
         if (r > INT32_MAX) {
            if (overflow_at < 0)
               overflow_at = o;
            r = ref_wrap_signed(r, 32);
         }
      }
      ref_tensor_set_int(output, o, r);
   }
   if (zero_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "INTDIV: REQUIRE(value2 != 0) failed at output offset %lld",
                        (long long)zero_at);
   if (overflow_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "INTDIV: apply_intdiv_s REQUIRE(result in the i32 range) failed at "
                        "output offset %lld",
                        (long long)overflow_at);
   return TOSA_REF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * ABS, NEGATE
 */

static bool
is_float_row(enum ref_dtype t)
{
   return t == REF_DTYPE_FP16 || t == REF_DTYPE_BF16 || t == REF_DTYPE_FP32;
}

int
tosa_ref_abs(const struct ref_tensor *input1, struct ref_tensor *output)
{
   if (!ref_tensor_valid(input1) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "ABS: NULL or invalid tensor");
   enum ref_dtype t = input1->dtype;
   if ((t != REF_DTYPE_I32 && !is_float_row(t)) || output->dtype != t)
      return ref_status(TOSA_REF_UNSUPPORTED, "ABS: no type-support row for %s -> %s",
                        ref_dtype_name(t), ref_dtype_name(output->dtype));
   if (!ref_same_shape(input1, output))
      return ref_status(TOSA_REF_ERROR, "ABS: the output shape must be the input shape");

   int64_t overflow_at = -1;
   for (int64_t o = 0; o < input1->count; o++) {
      if (t != REF_DTYPE_I32) {
         /* -0 -> +0, then negative values negated; NaN stays NaN. */
         double v = ref_tensor_get_fp(input1, o);
         if (v == 0.0)
            v = 0.0;
         else if (v < 0.0)
            v = -v;
         ref_tensor_set_fp(output, o, v);
         continue;
      }
      int64_t v = ref_tensor_get_int(input1, o);
      if (v < 0) {
         /* apply_sub_s<i32>(0, value1): REQUIRE'd in range, which only INT32_MIN leaves;
          * documented result INT32_MAX. */
         bool ok = true;
         v = ref_sub_s(0, v, 32, &ok);
         if (!ok) {
            v = INT32_MAX;
            if (overflow_at < 0)
               overflow_at = o;
         }
      }
      ref_tensor_set_int(output, o, v);
   }
   if (overflow_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "ABS: apply_sub_s REQUIRE(result in the i32 range) failed at offset %lld",
                        (long long)overflow_at);
   return TOSA_REF_OK;
}

/* A zero point: shape [1], the input's type; its value (0.0 of a float type reads as 0). */
static int
negate_zp(const char *name, const struct ref_tensor *zp, enum ref_dtype t, double *value)
{
   if (!ref_tensor_valid(zp))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "NEGATE: NULL or invalid %s", name);
   if (zp->dtype != t)
      return ref_status(TOSA_REF_UNSUPPORTED, "NEGATE: no type-support row: %s is %s, input %s",
                        name, ref_dtype_name(zp->dtype), ref_dtype_name(t));
   if (zp->rank != 1 || zp->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "NEGATE: %s must have shape [1]", name);
   *value = ref_dtype_is_float(t) ? ref_tensor_get_fp(zp, 0) : (double)ref_tensor_get_int(zp, 0);
   /* ERROR_IF(!is_same<in_out_t,i8_t>() && <zero point> != 0): zero points only for int8_t. */
   if (t != REF_DTYPE_I8 && *value != 0.0)
      return ref_status(TOSA_REF_ERROR,
                        "NEGATE: ERROR_IF(!is_same<in_out_t,i8_t>() && %s != 0): %s is %g for %s",
                        name, name, *value, ref_dtype_name(t));
   return TOSA_REF_OK;
}

int
tosa_ref_negate(const struct ref_tensor *input1, const struct ref_tensor *input1_zp,
                const struct ref_tensor *output_zp, struct ref_tensor *output)
{
   if (!ref_tensor_valid(input1) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "NEGATE: NULL or invalid tensor");
   enum ref_dtype t = input1->dtype;
   bool row = t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || t == REF_DTYPE_I32 || is_float_row(t);
   if (!row || output->dtype != t)
      return ref_status(TOSA_REF_UNSUPPORTED, "NEGATE: no type-support row for %s -> %s",
                        ref_dtype_name(t), ref_dtype_name(output->dtype));
   double in_zp = 0, out_zp = 0;
   int st = negate_zp("input1_zp", input1_zp, t, &in_zp);
   if (st == TOSA_REF_OK)
      st = negate_zp("output_zp", output_zp, t, &out_zp);
   if (st != TOSA_REF_OK)
      return st;
   if (!ref_same_shape(input1, output))
      return ref_status(TOSA_REF_ERROR, "NEGATE: the output shape must be the input shape");

   int64_t overflow_at = -1;
   unsigned bits = ref_dtype_int_bits(t);
   for (int64_t o = 0; o < input1->count; o++) {
      if (ref_dtype_is_float(t)) {
         /* The zero points are 0; ewise_unary.adoc's table: -0 -> +0, +0 -> -0, NaN -> NaN. */
         ref_tensor_set_fp(output, o, -ref_tensor_get_fp(input1, o));
         continue;
      }
      /* acc_t is i32 for every integer row: apply_sub_s, apply_sub_s, apply_add_s in i32 (each
       * REQUIRE'd in range), then apply_clip_s to the type's range and truncate. */
      bool ok = true;
      int64_t v = ref_sub_s(ref_tensor_get_int(input1, o), (int64_t)in_zp, 32, &ok);
      v = ref_sub_s(0, v, 32, &ok);
      v = ref_add_s(v, (int64_t)out_zp, 32, &ok);
      if (!ok) {
         /* Only -(INT32_MIN) for i32 (zero points 0): documented result INT32_MAX, the exact
          * value clipped like the other rows. */
         v = INT32_MAX;
         if (overflow_at < 0)
            overflow_at = o;
      }
      if (v < ref_int_min(bits))
         v = ref_int_min(bits);
      if (v > ref_int_max(bits))
         v = ref_int_max(bits);
      ref_tensor_set_int(output, o, v);
   }
   if (overflow_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "NEGATE: apply_sub_s REQUIRE(result in the i32 range) failed at offset "
                        "%lld",
                        (long long)overflow_at);
   return TOSA_REF_OK;
}
