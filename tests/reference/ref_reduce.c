/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Reductions of the reference: REDUCE_ALL, REDUCE_ANY, REDUCE_MAX, REDUCE_MIN, REDUCE_PRODUCT,
 * REDUCE_SUM (TOSA 1.0.1 chapters/reduction.adoc) and ARGMAX (tensor_ops.adoc), written from
 * pseudocode/operators/REDUCE_*.tosac and ARGMAX.tosac: for every position left and right of the
 * axis, the values along the axis are folded in index order, starting from the pseudocode's
 * initial value.
 *
 * Numerics and REQUIREs.
 *  - Float REDUCE_SUM and REDUCE_PRODUCT fold in fp64 (the "out_ref calculated using fp64_t
 *    arithmetic" of the precision requirements) and round once to the output type, or leave the
 *    value unrounded in an FP64 output. TOSA_REF_REDUCE_BOUND instead writes REDUCE_SUM's
 *    dot-product bound: the sum of |x| in fp64 (the input vector times a vector of ones).
 *  - i32 REDUCE_SUM: apply_add_s REQUIREs that every partial sum fits i32. Where one does not,
 *    TOSA_REF_UNPREDICTABLE, and the output holds the sum wrapped to 32 bits (two's complement),
 *    which is the deterministic result the kernel documents (shaders/graph/tosa/reduce.comp):
 *    a wrapped sum does not depend on the order of the additions.
 *  - REDUCE_MAX/MIN and ARGMAX compare values exactly (apply_max_s / apply_min_s); the result is
 *    an input value. ARGMAX keeps the first index of the maximum: with PROPAGATE, the first NaN
 *    if there is one; with IGNORE, the first maximum of the non-NaN values, 0 if all are NaN.
 *  - REDUCE_PRODUCT's bound (reduction.adoc): err_bnd = max(|out_ref|, normal_min) *
 *    ((1 + 2^-(normal_frac + 1))^n - 1) with n the axis length: tosa_ref_reduce_product_bound().
 */
#include "ref_internal.h"

#include <math.h>

static const char *
reduce_name(enum tosa_ref_op op)
{
   switch (op) {
   case TOSA_REF_OP_REDUCE_ALL:
      return "REDUCE_ALL";
   case TOSA_REF_OP_REDUCE_ANY:
      return "REDUCE_ANY";
   case TOSA_REF_OP_REDUCE_MAX:
      return "REDUCE_MAX";
   case TOSA_REF_OP_REDUCE_MIN:
      return "REDUCE_MIN";
   case TOSA_REF_OP_REDUCE_PRODUCT:
      return "REDUCE_PRODUCT";
   case TOSA_REF_OP_REDUCE_SUM:
      return "REDUCE_SUM";
   default:
      return NULL;
   }
}

/* The type-support rows of TOSA.001000.1 (in_out_t). */
static bool
reduce_row(enum tosa_ref_op op, enum ref_dtype t)
{
   bool fp = t == REF_DTYPE_FP16 || t == REF_DTYPE_BF16 || t == REF_DTYPE_FP32;
   switch (op) {
   case TOSA_REF_OP_REDUCE_ALL:
   case TOSA_REF_OP_REDUCE_ANY:
      return t == REF_DTYPE_BOOL;
   case TOSA_REF_OP_REDUCE_MAX:
   case TOSA_REF_OP_REDUCE_MIN:
      return fp || t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || t == REF_DTYPE_I32;
   case TOSA_REF_OP_REDUCE_PRODUCT:
      return fp;
   case TOSA_REF_OP_REDUCE_SUM:
      return fp || t == REF_DTYPE_I32;
   default:
      return false;
   }
}

/* outer = product of the dimensions before axis, inner = after it. */
static void
split(const struct ref_tensor *t, uint32_t axis, int64_t *outer, int64_t *inner)
{
   *outer = 1;
   *inner = 1;
   for (uint32_t d = 0; d < t->rank; d++) {
      if (d < axis)
         *outer *= t->shape[d];
      else if (d > axis)
         *inner *= t->shape[d];
   }
}

int
tosa_ref_reduce(enum tosa_ref_op op, const struct tosa_ref_reduce_args *args,
                const struct ref_tensor *input, struct ref_tensor *output)
{
   const char *name = reduce_name(op);
   if (!name || !args || !ref_tensor_valid(input) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "reduce: bad operator or NULL/invalid tensor");
   enum ref_dtype t = input->dtype;
   bool is_float = ref_dtype_is_float(t);
   bool fp64_out = output->dtype == REF_DTYPE_FP64 &&
                   (op == TOSA_REF_OP_REDUCE_SUM || op == TOSA_REF_OP_REDUCE_PRODUCT);
   if (!reduce_row(op, t) || (output->dtype != t && !(fp64_out && is_float)))
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s -> %s", name,
                        ref_dtype_name(t), ref_dtype_name(output->dtype));
   if (args->mode == TOSA_REF_REDUCE_BOUND && !(op == TOSA_REF_OP_REDUCE_SUM && fp64_out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: a bound only for float REDUCE_SUM into FP64",
                        name);
   if (args->axis < 0 || (uint32_t)args->axis >= input->rank)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(axis < 0 || axis >= rank(shape1)): %d, %u",
                        name, args->axis, input->rank);
   uint32_t axis = (uint32_t)args->axis;
   /* The output keeps the rank (the operand's type says so); then shape[axis] must be 1. */
   if (output->rank != input->rank)
      return ref_status(TOSA_REF_ERROR, "%s: output rank %u is not the input's %u", name,
                        output->rank, input->rank);
   if (output->shape[axis] != 1)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(shape[axis] != 1): %lld", name,
                        (long long)output->shape[axis]);
   for (uint32_t d = 0; d < input->rank; d++) {
      if (d != axis && output->shape[d] != input->shape[d])
         return ref_status(TOSA_REF_ERROR,
                           "%s: output dimension %u is %lld, the input's %lld (the output "
                           "shape is the input's with shape[axis] = 1)",
                           name, d, (long long)output->shape[d], (long long)input->shape[d]);
   }
   bool is_max = op == TOSA_REF_OP_REDUCE_MAX, is_min = op == TOSA_REF_OP_REDUCE_MIN;
   if ((is_max || is_min) && args->nan_mode != TOSA_REF_NAN_PROPAGATE &&
       args->nan_mode != TOSA_REF_NAN_IGNORE)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: nan_mode %d", name, (int)args->nan_mode);

   int64_t outer, inner, n = input->shape[axis];
   split(input, axis, &outer, &inner);
   unsigned bits = ref_dtype_int_bits(t);
   bool require_ok = true;
   for (int64_t l = 0; l < outer; l++) {
      for (int64_t r = 0; r < inner; r++) {
         int64_t out_at = l * inner + r;
         if (is_float) {
            double acc;
            if (op == TOSA_REF_OP_REDUCE_SUM)
               acc = 0.0;
            else if (op == TOSA_REF_OP_REDUCE_PRODUCT)
               acc = 1.0;
            else if (args->nan_mode == TOSA_REF_NAN_IGNORE)
               acc = NAN;
            else
               acc = is_max ? -INFINITY : INFINITY;
            for (int64_t i = 0; i < n; i++) {
               double v = ref_tensor_get_fp(input, (l * n + i) * inner + r);
               if (op == TOSA_REF_OP_REDUCE_SUM)
                  acc += args->mode == TOSA_REF_REDUCE_BOUND ? fabs(v) : v;
               else if (op == TOSA_REF_OP_REDUCE_PRODUCT)
                  acc *= v;
               else if (is_max)
                  acc = ref_fmax_nan(acc, v, args->nan_mode);
               else
                  acc = ref_fmin_nan(acc, v, args->nan_mode);
            }
            ref_tensor_set_fp(output, out_at, acc);
         } else {
            int64_t acc;
            if (op == TOSA_REF_OP_REDUCE_ALL)
               acc = 1;
            else if (op == TOSA_REF_OP_REDUCE_ANY || op == TOSA_REF_OP_REDUCE_SUM)
               acc = 0;
            else
               acc = is_max ? ref_int_min(bits) : ref_int_max(bits);
            for (int64_t i = 0; i < n; i++) {
               int64_t v = ref_tensor_get_int(input, (l * n + i) * inner + r);
               if (op == TOSA_REF_OP_REDUCE_ALL)
                  acc = acc && v;
               else if (op == TOSA_REF_OP_REDUCE_ANY)
                  acc = acc || v;
               else if (op == TOSA_REF_OP_REDUCE_SUM)
                  acc = ref_add_s(acc, v, bits, &require_ok);
               else if (is_max)
                  acc = v > acc ? v : acc;
               else
                  acc = v < acc ? v : acc;
            }
            ref_tensor_set_int(output, out_at, acc);
         }
      }
   }
   if (!require_ok)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "%s: REQUIRE: a partial sum leaves the i32 range (the output holds the "
                        "sum wrapped to 32 bits)",
                        name);
   return TOSA_REF_OK;
}

int
tosa_ref_reduce_product_bound(const struct ref_tensor *input, int32_t axis,
                              const struct ref_tensor *out_ref, struct ref_tensor *bound)
{
   if (!ref_tensor_valid(input) || !ref_tensor_valid(out_ref) || !ref_tensor_valid(bound) ||
       out_ref->dtype != REF_DTYPE_FP64 || bound->dtype != REF_DTYPE_FP64 ||
       !ref_same_shape(out_ref, bound) || axis < 0 || (uint32_t)axis >= input->rank ||
       !ref_dtype_is_float(input->dtype))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "REDUCE_PRODUCT bound: invalid argument");
   double n = (double)input->shape[axis];
   double step = ldexp(1.0, -ref_dtype_normal_frac(input->dtype) - 1);
   double growth = pow(1.0 + step, n) - 1.0;
   double normal_min = ref_dtype_normal_min(input->dtype);
   for (int64_t i = 0; i < out_ref->count; i++) {
      double r = fabs(ref_tensor_get_fp(out_ref, i));
      ref_tensor_set_fp(bound, i, (r > normal_min ? r : normal_min) * growth);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_argmax(const struct tosa_ref_argmax_args *args, const struct ref_tensor *input,
                struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "ARGMAX: NULL or invalid tensor");
   enum ref_dtype t = input->dtype;
   bool is_float = ref_dtype_is_float(t);
   bool row = t == REF_DTYPE_I8 || t == REF_DTYPE_I16 || (is_float && t != REF_DTYPE_FP64);
   if (!row || output->dtype != REF_DTYPE_I32)
      return ref_status(TOSA_REF_UNSUPPORTED, "ARGMAX: no type-support row for %s -> %s",
                        ref_dtype_name(t), ref_dtype_name(output->dtype));
   if (args->nan_mode != TOSA_REF_NAN_PROPAGATE && args->nan_mode != TOSA_REF_NAN_IGNORE)
      return ref_status(TOSA_REF_UNSUPPORTED, "ARGMAX: nan_mode %d", (int)args->nan_mode);
   if (args->axis < 0 || (uint32_t)args->axis >= input->rank)
      return ref_status(TOSA_REF_ERROR,
                        "ARGMAX: ERROR_IF(axis < 0 || axis >= rank(shape1)): %d, %u", args->axis,
                        input->rank);
   uint32_t axis = (uint32_t)args->axis;
   /* ERROR_IF(flatten(left_shape, right_shape) != shape). */
   bool shape_ok = output->rank + 1 == input->rank;
   for (uint32_t d = 0, o = 0; shape_ok && d < input->rank; d++) {
      if (d != axis)
         shape_ok = output->shape[o++] == input->shape[d];
   }
   if (!shape_ok)
      return ref_status(TOSA_REF_ERROR,
                        "ARGMAX: ERROR_IF(flatten(left_shape, right_shape) != shape): the output "
                        "is not the input's shape without dimension %u",
                        axis);
   int64_t outer, inner, n = input->shape[axis];
   split(input, axis, &outer, &inner);
   bool ignore = args->nan_mode == TOSA_REF_NAN_IGNORE;
   for (int64_t l = 0; l < outer; l++) {
      for (int64_t r = 0; r < inner; r++) {
         /* max_value starts at NaN (float, IGNORE) or minimum_s, which for floats is -inf (the
          * lowest value: any first value that equals it keeps index 0 either way). */
         double max_value =
             is_float ? (ignore ? NAN : -INFINITY) : (double)ref_int_min(ref_dtype_int_bits(t));
         int64_t max_index = 0;
         for (int64_t i = 0; i < n; i++) {
            int64_t at = (l * n + i) * inner + r;
            double value =
                is_float ? ref_tensor_get_fp(input, at) : (double)ref_tensor_get_int(input, at);
            double result = ref_fmax_nan(value, max_value, args->nan_mode);
            if (result != max_value && !(isnan(result) && isnan(max_value))) {
               max_value = result;
               max_index = i;
            }
         }
         ref_tensor_set_int(output, l * inner + r, max_index);
      }
   }
   return TOSA_REF_OK;
}
