/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The floating-point math operators of the reference: CEIL, FLOOR, EXP, LOG, SIN, COS,
 * RECIPROCAL, RSQRT (TOSA 1.0.1 chapters/ewise_unary.adoc), ERF, SIGMOID, TANH
 * (activation_funcs.adoc) and POW (ewise_binary.adoc, broadcast like ADD), and the error bound
 * each one's "Precision Requirements" state per element.
 *
 * out_ref is the fp64 result from the C library (ceil, floor, exp, log, sin, cos, erf, tanh,
 * pow in double, 1/x, 1/sqrt(x), 1/(1 + exp(-x))): far more accurate than any fp32 bound. The
 * output of the operator's type gets it rounded once; an FP64 output the value itself.
 *
 * POW's REQUIREs (x >= 0, x > 0 || y > 0, no NaN, finite) depend on the data: where one fails the
 * status is TOSA_REF_UNPREDICTABLE and the output holds C99's pow(x, y), the documented result of
 * the kernel (shaders/common/dg_math.glsl) too.
 */
#include "ref_internal.h"

#include <math.h>

static const char *
math_name(enum tosa_ref_op op)
{
   switch (op) {
   case TOSA_REF_OP_CEIL:
      return "CEIL";
   case TOSA_REF_OP_FLOOR:
      return "FLOOR";
   case TOSA_REF_OP_EXP:
      return "EXP";
   case TOSA_REF_OP_LOG:
      return "LOG";
   case TOSA_REF_OP_SIN:
      return "SIN";
   case TOSA_REF_OP_COS:
      return "COS";
   case TOSA_REF_OP_RECIPROCAL:
      return "RECIPROCAL";
   case TOSA_REF_OP_RSQRT:
      return "RSQRT";
   case TOSA_REF_OP_ERF:
      return "ERF";
   case TOSA_REF_OP_SIGMOID:
      return "SIGMOID";
   case TOSA_REF_OP_TANH:
      return "TANH";
   case TOSA_REF_OP_POW:
      return "POW";
   default:
      return NULL;
   }
}

double
tosa_ref_math_fp64(enum tosa_ref_op op, double x, double y)
{
   switch (op) {
   case TOSA_REF_OP_CEIL:
      return ceil(x);
   case TOSA_REF_OP_FLOOR:
      return floor(x);
   case TOSA_REF_OP_EXP:
      return exp(x);
   case TOSA_REF_OP_LOG:
      return log(x); /* log(-0) = -inf, log(x < 0) = NaN */
   case TOSA_REF_OP_SIN:
      return sin(x);
   case TOSA_REF_OP_COS:
      return cos(x);
   case TOSA_REF_OP_RECIPROCAL:
      return 1.0 / x;
   case TOSA_REF_OP_RSQRT:
      /* RSQRT.tosac: value1 < 0 gives NaN; 1/sqrt(-0) = -inf as the behaviour table says */
      return x < 0 ? NAN : 1.0 / sqrt(x);
   case TOSA_REF_OP_ERF:
      return erf(x);
   case TOSA_REF_OP_SIGMOID:
      return 1.0 / (1.0 + exp(-x));
   case TOSA_REF_OP_TANH:
      return tanh(x);
   case TOSA_REF_OP_POW:
      return pow(x, y);
   default:
      return NAN;
   }
}

/* exp2() of numeric_accuracy_helpers.tosac for the real exponents calcAbsErrorBound passes
 * (-normal_frac / normal_divisor is -11.5 for fp32 with divisor 2): 2^e, the stricter reading
 * of the pseudocode's int parameter. */
static double
calc_abs_error_bound(enum ref_dtype type, double bound_magnitude, double bounds_value,
                     double lower_bound, double normal_divisor)
{
   double error_bound = 0.0;
   /* "Avoid cases where we generate an error_bound of NaN by multiplying inf * 0" */
   if (isfinite(bounds_value) || fabs(bound_magnitude) != 0.0) {
      double value_bound = fmax(fabs(bound_magnitude), ref_dtype_normal_min(type));
      if (lower_bound > 0)
         value_bound = fmax(lower_bound / bounds_value, value_bound);
      error_bound = exp2(-ref_dtype_normal_frac(type) / normal_divisor) * value_bound;
      error_bound = error_bound * bounds_value;
   }
   return error_bound;
}

double
tosa_ref_calc_abs_error_bound(enum ref_dtype type, double bound_magnitude, double bounds_value,
                              double lower_bound, double normal_divisor)
{
   return calc_abs_error_bound(type, bound_magnitude, bounds_value, lower_bound, normal_divisor);
}

/* POW's REQUIREs, whose failure makes the result unpredictable. */
static bool
pow_defined(double x, double y)
{
   return !isnan(x) && !isnan(y) && isfinite(x) && isfinite(y) && x >= 0 && (x > 0 || y > 0);
}

double
tosa_ref_math_err_bound(enum tosa_ref_op op, enum ref_dtype type, double x, double y,
                        double out_ref)
{
   double err_base = type == REF_DTYPE_FP32 ? 3.0 : 1.0;
   switch (op) {
   case TOSA_REF_OP_CEIL:
   case TOSA_REF_OP_FLOOR:
   case TOSA_REF_OP_RECIPROCAL:
   case TOSA_REF_OP_RSQRT:
   case TOSA_REF_OP_ERF:
      return tosa_ref_ulp(type, out_ref) * tosa_ref_tolerance(op, type, TOSA_REF_ROUND_SINGLE).ulp;
   case TOSA_REF_OP_EXP:
      return calc_abs_error_bound(type, out_ref, err_base + 2 * fabs(x), 0, 1);
   case TOSA_REF_OP_LOG:
      return calc_abs_error_bound(type, out_ref, 5, 0.5, 1);
   case TOSA_REF_OP_SIN:
      return fmax(calc_abs_error_bound(type, x, 2, 0, 2),
                  3.14159265358979323846 * ref_dtype_normal_min(type));
   case TOSA_REF_OP_COS:
      return calc_abs_error_bound(type, 1 + fabs(x), 1, 0, 2);
   case TOSA_REF_OP_SIGMOID:
      return calc_abs_error_bound(type, out_ref, 2 * (1 + fabs(x)), 0, 1);
   case TOSA_REF_OP_TANH:
      return calc_abs_error_bound(type, out_ref, 4 * (err_base + 2 * fabs(x)), 0.5, 1);
   case TOSA_REF_OP_POW: {
      if (!pow_defined(x, y))
         return 0.0; /* unpredictable: only literal values test it */
      if (x == 0 || y == 0)
         return 0.0; /* "x == 0 and y > 0: 0", "x > 0 and y == 0: 1" */
      double t = y * log(x);
      double mul_err = calc_abs_error_bound(type, t, 5.5, fabs(0.55 * y), 1);
      double exp_err = calc_abs_error_bound(type, out_ref, err_base + 2 * fabs(t + mul_err), 0, 1);
      return out_ref * expm1(mul_err) + exp_err;
   }
   default:
      return NAN;
   }
}

static bool
math_row(enum ref_dtype in, enum ref_dtype out)
{
   return (in == REF_DTYPE_FP16 || in == REF_DTYPE_BF16 || in == REF_DTYPE_FP32) &&
          (out == in || out == REF_DTYPE_FP64);
}

static int
unary(enum tosa_ref_op op, const struct ref_tensor *in, struct ref_tensor *out)
{
   const char *name = math_name(op);
   if (!name || !ref_tensor_valid(in) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid argument",
                        name ? name : "math");
   if (!math_row(in->dtype, out->dtype))
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s -> %s", name,
                        ref_dtype_name(in->dtype), ref_dtype_name(out->dtype));
   if (!ref_same_shape(in, out))
      return ref_status(TOSA_REF_ERROR, "%s: the output shape must be the input shape", name);
   for (int64_t i = 0; i < in->count; i++)
      ref_tensor_set_fp(out, i, tosa_ref_math_fp64(op, ref_tensor_get_fp(in, i), 0));
   return TOSA_REF_OK;
}

int
tosa_ref_ceil(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_CEIL, input1, output);
}

int
tosa_ref_floor(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_FLOOR, input1, output);
}

int
tosa_ref_exp(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_EXP, input1, output);
}

int
tosa_ref_log(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_LOG, input1, output);
}

int
tosa_ref_sin(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_SIN, input1, output);
}

int
tosa_ref_cos(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_COS, input1, output);
}

int
tosa_ref_reciprocal(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_RECIPROCAL, input1, output);
}

int
tosa_ref_rsqrt(const struct ref_tensor *input1, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_RSQRT, input1, output);
}

int
tosa_ref_erf(const struct ref_tensor *input, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_ERF, input, output);
}

int
tosa_ref_sigmoid(const struct ref_tensor *input, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_SIGMOID, input, output);
}

int
tosa_ref_tanh(const struct ref_tensor *input, struct ref_tensor *output)
{
   return unary(TOSA_REF_OP_TANH, input, output);
}

static int
pow_check(const struct ref_tensor *in1, const struct ref_tensor *in2, const struct ref_tensor *out)
{
   if (!ref_tensor_valid(in1) || !ref_tensor_valid(in2) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "POW: NULL or invalid tensor");
   if (in2->dtype != in1->dtype || !math_row(in1->dtype, out->dtype))
      return ref_status(TOSA_REF_UNSUPPORTED, "POW: no type-support row for %s x %s -> %s",
                        ref_dtype_name(in1->dtype), ref_dtype_name(in2->dtype),
                        ref_dtype_name(out->dtype));
   return ref_check_broadcast("POW", in1, in2, out);
}

int
tosa_ref_pow(const struct ref_tensor *input1, const struct ref_tensor *input2,
             struct ref_tensor *output)
{
   int st = pow_check(input1, input2, output);
   if (st != TOSA_REF_OK)
      return st;
   int64_t index[REF_MAX_RANK], unpredictable_at = -1;
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      double x = ref_tensor_get_fp(input1, ref_broadcast_offset(output, input1, index));
      double y = ref_tensor_get_fp(input2, ref_broadcast_offset(output, input2, index));
      if (!pow_defined(x, y) && unpredictable_at < 0)
         unpredictable_at = o;
      ref_tensor_set_fp(output, o, pow(x, y));
   }
   if (unpredictable_at >= 0) {
      int64_t i = unpredictable_at;
      ref_tensor_index(output, i, index);
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "POW: REQUIRE(value1 >= 0 && (value1 > 0 || value2 > 0), both finite) "
                        "failed at output offset %lld (%g, %g)",
                        (long long)i,
                        ref_tensor_get_fp(input1, ref_broadcast_offset(output, input1, index)),
                        ref_tensor_get_fp(input2, ref_broadcast_offset(output, input2, index)));
   }
   return TOSA_REF_OK;
}

int
tosa_ref_math_bound(enum tosa_ref_op op, const struct ref_tensor *input1,
                    const struct ref_tensor *input2, const struct ref_tensor *out_ref,
                    struct ref_tensor *bound)
{
   const char *name = math_name(op);
   if (!name || !ref_tensor_valid(input1) || !ref_tensor_valid(out_ref) ||
       !ref_tensor_valid(bound) || out_ref->dtype != REF_DTYPE_FP64 ||
       bound->dtype != REF_DTYPE_FP64 || !ref_same_shape(out_ref, bound) ||
       (op == TOSA_REF_OP_POW) != (input2 != NULL))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "math bound: invalid argument");
   int st = op == TOSA_REF_OP_POW ? pow_check(input1, input2, out_ref)
                                  : unary(op, input1, bound); /* type and shape checks */
   if (st != TOSA_REF_OK)
      return st;
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < out_ref->count; o++) {
      double x, y = 0;
      if (input2) {
         ref_tensor_index(out_ref, o, index);
         x = ref_tensor_get_fp(input1, ref_broadcast_offset(out_ref, input1, index));
         y = ref_tensor_get_fp(input2, ref_broadcast_offset(out_ref, input2, index));
      } else {
         x = ref_tensor_get_fp(input1, o);
      }
      ref_tensor_set_fp(
          bound, o,
          tosa_ref_math_err_bound(op, input1->dtype, x, y, ref_tensor_get_fp(out_ref, o)));
   }
   return TOSA_REF_OK;
}
