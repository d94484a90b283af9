/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Elementwise operators of the reference: ADD, SUB, MUL (TOSA 1.0.1 chapters/ewise_binary.adoc,
 * pseudocode/operators/{ADD,SUB,MUL}.tosac) and CLAMP (chapters/activation_funcs.adoc,
 * CLAMP.tosac), with broadcasting as pseudocode/library/broadcast_shape.tosac and
 * apply_broadcast.tosac define it. Integer arithmetic follows arithmetic_helpers.tosac exactly;
 * floats are computed in fp64 and rounded once to the output type.
 */
#include "ref_internal.h"

#include <math.h>
#include <stdio.h>

enum ew_op {
   EW_ADD,
   EW_SUB,
   EW_MUL,
};

static const char *const ew_names[] = {"ADD", "SUB", "MUL"};

/* ERROR_IF(shape != broadcast_shape(shape1, shape2)), with broadcast_shape()'s own ERROR_IFs. */
static int
check_broadcast(const char *op, const struct ref_tensor *in1, const struct ref_tensor *in2,
                const struct ref_tensor *out)
{
   char b1[96], b2[96], b3[96];
   if (in1->rank != in2->rank)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(rank(shape1) != rank(shape2)): %s vs %s", op,
                        ref_shape_str(in1, b1, sizeof(b1)), ref_shape_str(in2, b2, sizeof(b2)));
   if (out->rank != in1->rank)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(shape != broadcast_shape()): output rank %u",
                        op, out->rank);
   for (uint32_t i = 0; i < in1->rank; i++) {
      int64_t dim = in1->shape[i];
      if (dim == 1) {
         dim = in2->shape[i];
      } else if (in2->shape[i] != 1 && in2->shape[i] != dim) {
         return ref_status(TOSA_REF_ERROR,
                           "%s: broadcast_shape: ERROR_IF(shape2[%u] != 1 && shape2[%u] != "
                           "shape[%u]): %s vs %s",
                           op, i, i, i, ref_shape_str(in1, b1, sizeof(b1)),
                           ref_shape_str(in2, b2, sizeof(b2)));
      }
      if (out->shape[i] != dim)
         return ref_status(TOSA_REF_ERROR,
                           "%s: ERROR_IF(shape != broadcast_shape(shape1, shape2)): %s for %s, %s",
                           op, ref_shape_str(out, b3, sizeof(b3)),
                           ref_shape_str(in1, b1, sizeof(b1)), ref_shape_str(in2, b2, sizeof(b2)));
   }
   return TOSA_REF_OK;
}

/* apply_broadcast(): the input offset for output index `index`. */
static int64_t
broadcast_offset(const struct ref_tensor *out, const struct ref_tensor *in, const int64_t *index)
{
   int64_t in_index[REF_MAX_RANK];
   for (uint32_t i = 0; i < out->rank; i++)
      in_index[i] = out->shape[i] != in->shape[i] ? 0 : index[i];
   return ref_tensor_offset(in, in_index);
}

static bool
float_out_ok(enum ref_dtype in, enum ref_dtype out)
{
   return out == in || out == REF_DTYPE_FP64;
}

/* The type-support rows of ADD, SUB and MUL (spec-facts §3.3). */
static int
check_binary_types(enum ew_op op, const struct ref_tensor *in1, const struct ref_tensor *in2,
                   const struct ref_tensor *out)
{
   enum ref_dtype t = in1->dtype;
   bool ok = false;
   if (in2->dtype == t) {
      switch (t) {
      case REF_DTYPE_I8:
      case REF_DTYPE_I16:
         ok = op == EW_MUL && out->dtype == REF_DTYPE_I32;
         break;
      case REF_DTYPE_I32:
         ok = out->dtype == REF_DTYPE_I32;
         break;
      case REF_DTYPE_FP16:
      case REF_DTYPE_BF16:
      case REF_DTYPE_FP32:
         ok = float_out_ok(t, out->dtype);
         break;
      default:
         break;
      }
   }
   if (!ok)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s x %s -> %s",
                        ew_names[op], ref_dtype_name(in1->dtype), ref_dtype_name(in2->dtype),
                        ref_dtype_name(out->dtype));
   return TOSA_REF_OK;
}

/* MUL's i32 path with shift > 0: (product + (1 << (shift - 1))) >> shift without overflowing
 * int64 (shift may be 63 with product 2^62). With product = q * 2^s + r, 0 <= r < 2^s, the
 * result is q + (r >= 2^(s-1)), and r >= 2^(s-1) iff bit s-1 of the product is set. */
static int64_t
mul_round_shift(int64_t product, unsigned shift)
{
   return ref_asr(product, shift) + (int64_t)(((uint64_t)product >> (shift - 1)) & 1);
}

static int
binary_op(enum ew_op op, const struct ref_tensor *in1, const struct ref_tensor *in2,
          const struct ref_tensor *shift_tensor, struct ref_tensor *out)
{
   const char *name = ew_names[op];
   if (!ref_tensor_valid(in1) || !ref_tensor_valid(in2) || !ref_tensor_valid(out) ||
       (op == EW_MUL && !ref_tensor_valid(shift_tensor)))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", name);

   int st = check_binary_types(op, in1, in2, out);
   if (st != TOSA_REF_OK)
      return st;

   int64_t shift = 0;
   bool require_ok = true;
   if (op == EW_MUL) {
      if (shift_tensor->dtype != REF_DTYPE_I8)
         return ref_status(TOSA_REF_UNSUPPORTED, "MUL: shift must be i8, not %s",
                           ref_dtype_name(shift_tensor->dtype));
      if (shift_tensor->rank != 1 || shift_tensor->shape[0] != 1)
         return ref_status(TOSA_REF_ERROR, "MUL: shift must have shape [1]");
      shift = ref_tensor_get_int(shift_tensor, 0);
      /* MUL.tosac evaluates these REQUIREs before its ERROR_IF. */
      if (shift < 0 || shift > 63) {
         require_ok = false;
         ref_status(TOSA_REF_UNPREDICTABLE, "MUL: REQUIRE(0 <= shift && shift <= 63): %lld",
                    (long long)shift);
      } else if (in1->dtype != REF_DTYPE_I32 && shift != 0) {
         require_ok = false;
         ref_status(TOSA_REF_UNPREDICTABLE,
                    "MUL: REQUIRE(is_same<in_t,int32_t>() || shift == 0): %s with shift %lld",
                    ref_dtype_name(in1->dtype), (long long)shift);
      }
   }

   st = check_broadcast(name, in1, in2, out);
   if (st != TOSA_REF_OK) {
      /* ERROR_IF registers nothing once a REQUIRE has made the graph unpredictable
       * (pseudocode.adoc). The message buffer is both source and destination: copy it first. */
      if (!require_ok) {
         char why[256];
         snprintf(why, sizeof(why), "%s", tosa_ref_last_message());
         return ref_status(TOSA_REF_UNPREDICTABLE, "MUL: REQUIRE on shift failed before %s", why);
      }
      return st;
   }
   if (op == EW_MUL && (shift < 0 || shift > 63)) {
      /* The result itself is undefined: the documented fallback is zero. */
      ref_tensor_zero(out);
      return TOSA_REF_UNPREDICTABLE;
   }

   bool is_float = ref_dtype_is_float(in1->dtype);
   int64_t index[REF_MAX_RANK];
   int64_t overflow_at = -1;
   for (int64_t o = 0; o < out->count; o++) {
      ref_tensor_index(out, o, index);
      int64_t o1 = broadcast_offset(out, in1, index);
      int64_t o2 = broadcast_offset(out, in2, index);

      if (is_float) {
         double a = ref_tensor_get_fp(in1, o1);
         double b = ref_tensor_get_fp(in2, o2);
         double r = op == EW_ADD ? a + b : op == EW_SUB ? a - b : a * b;
         ref_tensor_set_fp(out, o, r);
         continue;
      }

      int64_t a = ref_tensor_get_int(in1, o1);
      int64_t b = ref_tensor_get_int(in2, o2);
      bool ok = true;
      int64_t r;
      if (op == EW_ADD) {
         r = ref_add_s(a, b, 32, &ok);
      } else if (op == EW_SUB) {
         r = ref_sub_s(a, b, 32, &ok);
      } else if (in1->dtype == REF_DTYPE_I32 && shift > 0) {
         /* sign_extend<int64_t>(value1) * sign_extend<int64_t>(value2): |product| <= 2^62. */
         r = mul_round_shift(a * b, (unsigned)shift);
         if (r < INT32_MIN || r > INT32_MAX) {
            ok = false;
            r = ref_wrap_signed(r, 32);
         }
      } else {
         /* apply_mul_s<out_t>: the low 32 bits of the product, defined for i32 (no REQUIRE). */
         r = ref_wrap_signed(a * b, 32);
      }
      if (!ok && overflow_at < 0)
         overflow_at = o;
      ref_tensor_set_int(out, o, r);
   }

   if (overflow_at >= 0)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "%s: REQUIRE(result in the i32 range) failed at output offset %lld", name,
                        (long long)overflow_at);
   if (!require_ok)
      return TOSA_REF_UNPREDICTABLE; /* the message was set above */
   return TOSA_REF_OK;
}

int
tosa_ref_add(const struct ref_tensor *input1, const struct ref_tensor *input2,
             struct ref_tensor *output)
{
   return binary_op(EW_ADD, input1, input2, NULL, output);
}

int
tosa_ref_sub(const struct ref_tensor *input1, const struct ref_tensor *input2,
             struct ref_tensor *output)
{
   return binary_op(EW_SUB, input1, input2, NULL, output);
}

int
tosa_ref_mul(const struct ref_tensor *input1, const struct ref_tensor *input2,
             const struct ref_tensor *shift, struct ref_tensor *output)
{
   return binary_op(EW_MUL, input1, input2, shift, output);
}

/* ---------------------------------------------------------------------------------------------
 * CLAMP
 */

int
tosa_ref_clamp(const struct tosa_ref_clamp_args *args, const struct ref_tensor *input,
               struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "CLAMP: NULL or invalid argument");

   enum ref_dtype t = input->dtype;
   bool row = t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || t == REF_DTYPE_FP16 ||
              t == REF_DTYPE_BF16 || t == REF_DTYPE_FP32;
   if (!row || output->dtype != t)
      return ref_status(TOSA_REF_UNSUPPORTED, "CLAMP: no type-support row for %s -> %s",
                        ref_dtype_name(t), ref_dtype_name(output->dtype));
   if (args->nan_mode != TOSA_REF_NAN_PROPAGATE && args->nan_mode != TOSA_REF_NAN_IGNORE)
      return ref_status(TOSA_REF_UNSUPPORTED, "CLAMP: nan_mode %d is not a nan_propagation_mode_t",
                        (int)args->nan_mode);

   bool is_float = ref_dtype_is_float(t);
   if (is_float) {
      if (!ref_fp_representable(t, args->min_fp) || !ref_fp_representable(t, args->max_fp))
         return ref_status(TOSA_REF_BAD_ARGUMENT, "CLAMP: min_val %g or max_val %g is not a %s",
                           args->min_fp, args->max_fp, ref_dtype_name(t));
      if (args->max_fp < args->min_fp)
         return ref_status(TOSA_REF_ERROR, "CLAMP: ERROR_IF(max_val < min_val): %g < %g",
                           args->max_fp, args->min_fp);
      if (isnan(args->min_fp) || isnan(args->max_fp))
         return ref_status(TOSA_REF_ERROR, "CLAMP: ERROR_IF(isNaN(min_val) || isNaN(max_val))");
   } else {
      unsigned bits = ref_dtype_int_bits(t);
      if (args->min_int < ref_int_min(bits) || args->min_int > ref_int_max(bits) ||
          args->max_int < ref_int_min(bits) || args->max_int > ref_int_max(bits))
         return ref_status(TOSA_REF_BAD_ARGUMENT,
                           "CLAMP: min_val %lld or max_val %lld is not an %s",
                           (long long)args->min_int, (long long)args->max_int, ref_dtype_name(t));
      if (args->max_int < args->min_int)
         return ref_status(TOSA_REF_ERROR, "CLAMP: ERROR_IF(max_val < min_val): %lld < %lld",
                           (long long)args->max_int, (long long)args->min_int);
   }
   if (!ref_same_shape(input, output))
      return ref_status(TOSA_REF_ERROR, "CLAMP: the output shape must be the input shape");

   for (int64_t o = 0; o < input->count; o++) {
      if (is_float) {
         /* apply_clip_s: max with min_val, then min with max_val, both with nan_mode. */
         double v = ref_tensor_get_fp(input, o);
         v = ref_fmax_nan(v, args->min_fp, args->nan_mode);
         v = ref_fmin_nan(v, args->max_fp, args->nan_mode);
         ref_tensor_set_fp(output, o, v);
      } else {
         int64_t v = ref_tensor_get_int(input, o);
         v = v >= args->min_int ? v : args->min_int;
         v = v < args->max_int ? v : args->max_int;
         ref_tensor_set_int(output, o, v);
      }
   }
   return TOSA_REF_OK;
}

/* ---------------------------------------------------------------------------------------------
 * MAXIMUM, MINIMUM (ewise_binary.adoc, MAXIMUM.tosac / MINIMUM.tosac): apply_max_s /
 * apply_min_s with the NaN mode, broadcast like ADD.
 */

static int
min_max(bool is_max, enum tosa_ref_nan_mode nan_mode, const struct ref_tensor *in1,
        const struct ref_tensor *in2, struct ref_tensor *out)
{
   const char *name = is_max ? "MAXIMUM" : "MINIMUM";
   if (!ref_tensor_valid(in1) || !ref_tensor_valid(in2) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", name);
   enum ref_dtype t = in1->dtype;
   bool row = in2->dtype == t &&
              ((t == REF_DTYPE_I32 && out->dtype == t) ||
               ((t == REF_DTYPE_FP16 || t == REF_DTYPE_BF16 || t == REF_DTYPE_FP32) &&
                float_out_ok(t, out->dtype)));
   if (!row)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s x %s -> %s", name,
                        ref_dtype_name(in1->dtype), ref_dtype_name(in2->dtype),
                        ref_dtype_name(out->dtype));
   if (nan_mode != TOSA_REF_NAN_PROPAGATE && nan_mode != TOSA_REF_NAN_IGNORE)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: nan_mode %d is not a nan_propagation_mode_t",
                        name, (int)nan_mode);
   int st = check_broadcast(name, in1, in2, out);
   if (st != TOSA_REF_OK)
      return st;
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < out->count; o++) {
      ref_tensor_index(out, o, index);
      int64_t o1 = broadcast_offset(out, in1, index), o2 = broadcast_offset(out, in2, index);
      if (ref_dtype_is_float(t)) {
         double a = ref_tensor_get_fp(in1, o1), b = ref_tensor_get_fp(in2, o2);
         ref_tensor_set_fp(out, o, is_max ? ref_fmax_nan(a, b, nan_mode)
                                          : ref_fmin_nan(a, b, nan_mode));
      } else {
         int64_t a = ref_tensor_get_int(in1, o1), b = ref_tensor_get_int(in2, o2);
         ref_tensor_set_int(out, o, is_max ? (a >= b ? a : b) : (a < b ? a : b));
      }
   }
   return TOSA_REF_OK;
}

int
tosa_ref_maximum(enum tosa_ref_nan_mode nan_mode, const struct ref_tensor *input1,
                 const struct ref_tensor *input2, struct ref_tensor *output)
{
   return min_max(true, nan_mode, input1, input2, output);
}

int
tosa_ref_minimum(enum tosa_ref_nan_mode nan_mode, const struct ref_tensor *input1,
                 const struct ref_tensor *input2, struct ref_tensor *output)
{
   return min_max(false, nan_mode, input1, input2, output);
}

/* The broadcast rule for the other binary operator files (ref_internal.h). */
int
ref_check_broadcast(const char *op, const struct ref_tensor *in1, const struct ref_tensor *in2,
                    const struct ref_tensor *out)
{
   return check_broadcast(op, in1, in2, out);
}

int64_t
ref_broadcast_offset(const struct ref_tensor *out, const struct ref_tensor *in,
                     const int64_t *index)
{
   return broadcast_offset(out, in, index);
}
