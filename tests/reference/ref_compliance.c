/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What a GPU result must meet, per operator, and the checks that decide it: TOSA 1.0.1
 * chapters/introduction.adoc "Compliance" (floating-point precision, dot product accuracy
 * requirements), pseudocode/library/tosa_reference_check.tosac, tosa_reference_check_dotproduct
 * .tosac and numeric_accuracy_helpers.tosac, and each operator's "Precision Requirements"
 * (ewise_binary.adoc, activation_funcs.adoc, data_layout.adoc, tensor_ops.adoc,
 * type_conversion.adoc).
 */
#include "ref_internal.h"

#include <math.h>

struct tosa_ref_tolerance
tosa_ref_tolerance(enum tosa_ref_op op, enum ref_dtype out_type, enum tosa_ref_rounding rounding)
{
   struct tosa_ref_tolerance exact = {TOSA_REF_TOL_EXACT, 0.0,
                                      "introduction.adoc Integer Precision Requirements: exact"};
   bool is_float = ref_dtype_is_float(out_type);

   switch (op) {
   case TOSA_REF_OP_ADD:
   case TOSA_REF_OP_SUB:
   case TOSA_REF_OP_MUL:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_ULP, 0.5,
             "ewise_binary.adoc ADD/SUB/MUL: tosa_reference_check_fp<in_t>(out_imp, out_ref, 0.5)"};
      return exact;
   case TOSA_REF_OP_CLAMP:
   case TOSA_REF_OP_MAX_POOL2D:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_FP_EXACT, 0.0,
             "activation_funcs.adoc CLAMP / tensor_ops.adoc MAX_POOL2D: exact value; NaN as the "
             "NaN mode says; zero sign free; subnormal result may be zero"};
      return exact;
   case TOSA_REF_OP_MAXIMUM:
   case TOSA_REF_OP_MINIMUM:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_FP_EXACT, 0.0,
             "ewise_binary.adoc MAXIMUM/MINIMUM: apply_max_s/apply_min_s select an operand: "
             "exact value; NaN as the NaN mode says; zero sign free; subnormal may be zero"};
      return exact;
   case TOSA_REF_OP_RESHAPE:
   case TOSA_REF_OP_CONCAT:
   case TOSA_REF_OP_SLICE:
   case TOSA_REF_OP_REVERSE:
   case TOSA_REF_OP_TILE:
   case TOSA_REF_OP_PAD:
   case TOSA_REF_OP_TRANSPOSE:
   case TOSA_REF_OP_GATHER:
   case TOSA_REF_OP_SCATTER:
      return (struct tosa_ref_tolerance){TOSA_REF_TOL_EXACT, 0.0,
                                         "data_layout.adoc: Results must be exact"};
   case TOSA_REF_OP_CONV2D:
   case TOSA_REF_OP_MATMUL:
   case TOSA_REF_OP_DEPTHWISE_CONV2D:
   case TOSA_REF_OP_TRANSPOSE_CONV2D:
   case TOSA_REF_OP_CONV3D:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_DOT_PRODUCT, 0.0,
             "tensor_ops.adoc CONV2D/MATMUL: introduction.adoc Dot product accuracy requirements"};
      return exact;
   case TOSA_REF_OP_FFT2D:
   case TOSA_REF_OP_RFFT2D:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_DOT_PRODUCT, 0.0,
          "tensor_ops.adoc FFT2D/RFFT2D: tosa_reference_check_dotproduct of the interleaved "
          "input with the (cos, sin) coefficients"};
   case TOSA_REF_OP_AVG_POOL2D:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_DOT_PRODUCT, 0.0,
             "tensor_ops.adoc AVG_POOL2D: a dot product with weights 1/KS, introduction.adoc Dot "
             "product accuracy requirements"};
      return exact;
   case TOSA_REF_OP_RESCALE:
      if (rounding == TOSA_REF_ROUND_INEXACT)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_RESCALE_RANGE, 0.0,
             "type_conversion.adoc RESCALE: INEXACT_ROUND out_ref_min_int <= out_imp <= "
             "out_ref_max_int"};
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_EXACT, 0.0,
          "type_conversion.adoc RESCALE: SINGLE_ROUND or DOUBLE_ROUND results must be exact"};
   case TOSA_REF_OP_CAST:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_ULP, 0.5,
             "type_conversion.adoc CAST integer to float: tosa_reference_check_fp<out_t>(out_imp, "
             "out_ref, 0.5)"};
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_EXACT, 0.0,
          "type_conversion.adoc CAST: between integer types and to bool the results must be "
          "exact"};
   case TOSA_REF_OP_CAST_FROM_FP:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_CAST_FP, 0.0,
             "type_conversion.adoc CAST between floating-point types: NaN for NaN; |out_ref| - "
             "ulp <= |out_imp| <= |out_ref| + 0.5 ulp, out_ref's sign; overflow to infinity "
             "(fp8e4m3: NaN); subnormals may be flushed (not fp8)"};
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_EXACT, 0.0,
          "type_conversion.adoc CAST float to integer: round to nearest, ties to even, "
          "saturated (a NaN input is unpredictable)"};
   case TOSA_REF_OP_TABLE:
      return (struct tosa_ref_tolerance){TOSA_REF_TOL_EXACT, 0.0,
                                         "ewise_binary.adoc TABLE: Results must be exact"};
   case TOSA_REF_OP_BITWISE_AND:
   case TOSA_REF_OP_BITWISE_OR:
   case TOSA_REF_OP_BITWISE_XOR:
   case TOSA_REF_OP_BITWISE_NOT:
   case TOSA_REF_OP_LOGICAL_AND:
   case TOSA_REF_OP_LOGICAL_OR:
   case TOSA_REF_OP_LOGICAL_XOR:
   case TOSA_REF_OP_LOGICAL_NOT:
   case TOSA_REF_OP_LOGICAL_LEFT_SHIFT:
   case TOSA_REF_OP_LOGICAL_RIGHT_SHIFT:
   case TOSA_REF_OP_ARITHMETIC_RIGHT_SHIFT:
   case TOSA_REF_OP_INTDIV:
   case TOSA_REF_OP_CLZ:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_EXACT, 0.0, "ewise_binary.adoc / ewise_unary.adoc: Results must be exact"};
   case TOSA_REF_OP_EQUAL:
   case TOSA_REF_OP_GREATER:
   case TOSA_REF_OP_GREATER_EQUAL:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_EXACT, 0.0,
          "comparison.adoc: exact; NaN compares false, zero sign ignored (the layer never "
          "flushes subnormal inputs, which TOSA would allow)"};
   case TOSA_REF_OP_ABS:
   case TOSA_REF_OP_NEGATE:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_FP_EXACT, 0.0,
             "ewise_unary.adoc ABS/NEGATE: floating-point results must be exact; NaN for NaN; "
             "subnormal inputs may be flushed"};
      return exact;
   case TOSA_REF_OP_SELECT:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_FP_EXACT, 0.0,
             "ewise_ternary.adoc SELECT: floating-point results must be exact; any NaN for a "
             "NaN; subnormal inputs may be flushed"};
      return exact;
   case TOSA_REF_OP_CEIL:
   case TOSA_REF_OP_FLOOR:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_ULP, 0.5,
          "ewise_unary.adoc CEIL/FLOOR: tosa_reference_check_fp<in_t>(out_imp, out_ref, 0.5)"};
   case TOSA_REF_OP_RECIPROCAL:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_ULP, 1.0,
          "ewise_unary.adoc RECIPROCAL: tosa_reference_check_fp<in_t>(out_imp, out_ref, 1)"};
   case TOSA_REF_OP_RSQRT:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_ULP, 2.0,
          "ewise_unary.adoc RSQRT: tosa_reference_check_fp<in_t>(out_imp, out_ref, 2)"};
   case TOSA_REF_OP_ERF:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_ULP, 5.0,
          "activation_funcs.adoc ERF: tosa_reference_check_fp<in_t>(out_imp, out_ref, 5)"};
   case TOSA_REF_OP_EXP:
   case TOSA_REF_OP_LOG:
   case TOSA_REF_OP_SIN:
   case TOSA_REF_OP_COS:
   case TOSA_REF_OP_SIGMOID:
   case TOSA_REF_OP_TANH:
   case TOSA_REF_OP_POW:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_ABS_BOUND, 0.0,
          "ewise_unary.adoc EXP/LOG/SIN/COS, activation_funcs.adoc SIGMOID/TANH, "
          "ewise_binary.adoc POW: tosa_reference_check_fp_bnd<in_out_t>(out_imp, out_ref, "
          "err_bnd), err_bnd from calcAbsErrorBound per element"};
   case TOSA_REF_OP_RESIZE:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_ABS_BOUND, 0.0,
             "image.adoc RESIZE: tosa_reference_check_fp_bnd<out_t>(out_imp, out_ref, "
             "max(calcAbsErrorBound<in_out_t>(max(abs(input)), 20, 0, 1), max(abs(input)) * "
             "0.006))"};
      return exact;
   case TOSA_REF_OP_REDUCE_MAX:
   case TOSA_REF_OP_REDUCE_MIN:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_FP_EXACT, 0.0,
             "reduction.adoc REDUCE_MAX/MIN: exact; NaN as the NaN mode says; zero sign free; "
             "subnormal result may be zero"};
      return exact;
   case TOSA_REF_OP_REDUCE_SUM:
      if (is_float)
         return (struct tosa_ref_tolerance){
             TOSA_REF_TOL_DOT_PRODUCT, 0.0,
             "reduction.adoc REDUCE_SUM: a dot product of the input with ones, KS = shape1[axis]: "
             "introduction.adoc Dot product accuracy requirements"};
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_EXACT, 0.0,
          "reduction.adoc REDUCE_SUM: integer results must be exact (wrapped where a REQUIRE "
          "fails: the documented result)"};
   case TOSA_REF_OP_REDUCE_PRODUCT:
      return (struct tosa_ref_tolerance){
          TOSA_REF_TOL_ABS_BOUND, 0.0,
          "reduction.adoc REDUCE_PRODUCT: tosa_reference_check_fp_bnd(out_imp, out_ref, "
          "max(abs(out_ref), normal_min) * (pow(1 + pow(2, -normal_frac - 1), n) - 1))"};
   case TOSA_REF_OP_REDUCE_ALL:
   case TOSA_REF_OP_REDUCE_ANY:
   case TOSA_REF_OP_ARGMAX:
      return (struct tosa_ref_tolerance){TOSA_REF_TOL_EXACT, 0.0,
                                         "reduction.adoc / tensor_ops.adoc ARGMAX: exact"};
   default:
      return exact;
   }
}

double
tosa_ref_ulp(enum ref_dtype type, double ref_value)
{
   /* tosa_reference_ulp<in_t>: is_normal_fp64(ref) && abs(ref) != 0 */
   if (fpclassify(ref_value) != FP_NORMAL)
      return 0.0;
   int e;
   frexp(fabs(ref_value), &e);
   double ref_pow2 = ldexp(1.0, e - 1); /* exp2(ilog2(abs(ref_value))) */
   double nmin = ref_dtype_normal_min(type);
   if (ref_pow2 < nmin)
      ref_pow2 = nmin;
   return ref_pow2 * ldexp(1.0, -ref_dtype_normal_frac(type));
}

bool
tosa_ref_check_fp_bnd(enum ref_dtype type, double test_value, double ref_value, double err_bnd)
{
   if (isnan(ref_value))
      return isnan(test_value); /* the test value must also be any NaN */
   if (!isfinite(err_bnd))
      return true;
   if (err_bnd < 0.0)
      return false; /* REQUIRE(err_bnd >= 0.0) */
   if (ref_value < 0) {
      ref_value = -ref_value;
      test_value = -test_value;
   }
   double normal_max = ref_dtype_normal_max(type);
   double ref_max = ref_value + err_bnd;
   double ref_min = ref_value - err_bnd;
   if (ref_max > normal_max)
      ref_max = INFINITY;
   if (ref_min > normal_max)
      ref_min = INFINITY;
   if (ref_min < -normal_max)
      ref_min = -INFINITY;

   /* Subnormal values may be flushed to zero for the non-fp8 types. */
   if (ref_dtype_may_flush(type) && test_value == 0)
      return ref_min < ref_dtype_normal_min(type);
   if (type == REF_DTYPE_FP8E4M3 && isnan(test_value))
      return ref_max == INFINITY;
   return test_value >= ref_min && test_value <= ref_max;
}

bool
tosa_ref_check_fp(enum ref_dtype type, double test_value, double ref_value, double num_ulp)
{
   double err_bnd = tosa_ref_ulp(type, ref_value) * num_ulp;
   return tosa_ref_check_fp_bnd(type, test_value, ref_value, err_bnd);
}

bool
tosa_ref_check_fp_exact(enum ref_dtype type, double test_value, double ref_value)
{
   if (isnan(ref_value))
      return isnan(test_value);
   if (isnan(test_value))
      return false;
   if (test_value == ref_value)
      return true; /* -0 == +0: "either sign is permitted" */
   /* "If the result is a subnormal value ..., the result may be a zero of either sign." */
   return ref_dtype_may_flush(type) && test_value == 0 &&
          fabs(ref_value) < ref_dtype_normal_min(type);
}

bool
tosa_ref_check_cast_fp(enum ref_dtype type, double test_value, double ref_value)
{
   if (isnan(ref_value))
      return isnan(test_value);
   double a = fabs(ref_value);
   /* Where rounding to nearest overflows: past normal_max by half its ulp (a tie rounds up to
    * infinity from the odd largest mantissa of the IEEE-like types, down to 448 for fp8e4m3,
    * whose largest mantissa is even). */
   double normal_max = ref_dtype_normal_max(type);
   double threshold = normal_max + 0.5 * tosa_ref_ulp(type, normal_max);
   bool e4m3 = type == REF_DTYPE_FP8E4M3;
   bool overflows = e4m3 ? a > threshold : a >= threshold;
   if (isnan(test_value))
      return e4m3 && overflows; /* fp8e4m3 has no infinity: the OCP non-saturating result */
   if (signbit(test_value) != signbit(ref_value))
      return false; /* "x must have the correct sign" (zeros included) */
   double t = fabs(test_value);
   if (isinf(t))
      return !e4m3 && overflows;
   if (isinf(a))
      return false;
   /* bf16, fp16, fp32: a result below normal_min may be a zero of the right sign. */
   if (t == 0 && ref_dtype_may_flush(type) && a < ref_dtype_normal_min(type))
      return true;
   double ulp = tosa_ref_ulp(type, ref_value);
   return t >= a - ulp && t <= a + 0.5 * ulp;
}

int
tosa_ref_check_dot_product(const struct tosa_ref_dot_check *check, const struct ref_tensor *imp,
                           const struct ref_tensor *ref, const struct ref_tensor *bnd,
                           struct tosa_ref_dot_report *report)
{
   if (!check || !report || !ref_tensor_valid(imp) || !ref_tensor_valid(ref) ||
       !ref_tensor_valid(bnd) || !ref_dtype_is_float(imp->dtype) || ref->dtype != REF_DTYPE_FP64 ||
       bnd->dtype != REF_DTYPE_FP64 || !ref_same_shape(imp, ref) || !ref_same_shape(imp, bnd) ||
       !ref_dtype_is_float(check->out_type) || !ref_dtype_is_float(check->acc_type) ||
       check->ks < 1)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "dot product check: invalid argument");

   int out_frac = ref_dtype_normal_frac(check->out_type);
   int acc_frac = ref_dtype_normal_frac(check->acc_type);
   /* ksb = ceil(KS / pow(2, (normal_frac<acc_t> - normal_frac<out_t>) / 2)) + bias term; the
    * exponent is an int division in the C++-like pseudocode. */
   int half_diff = (acc_frac - out_frac) / 2;
   int64_t ksb =
       (int64_t)ceil((double)check->ks / ldexp(1.0, half_diff)) + (check->has_bias ? 1 : 0);
   double abs_bound = 2.0 * (double)ksb;            /* ABS_BOUND */
   double variance_bound = 4.0 * 0.4 * (double)ksb; /* VARIANCE_ERROR_BOUND */
   double t = (double)imp->count;

   *report = (struct tosa_ref_dot_report){
       .pass = true,
       .first_failure = -1,
       .ksb = ksb,
       .abs_bound = abs_bound,
       .variance_bound = variance_bound * t,
   };

   for (int64_t i = 0; i < imp->count; i++) {
      double out_bnd = ref_tensor_get_fp(bnd, i);
      double out_ref = ref_tensor_get_fp(ref, i);
      double out_imp = ref_tensor_get_fp(imp, i);
      double out_err = 0.0;
      bool fail = false;

      if (isnan(out_ref)) {
         /* NaN on non-padded data: the implementation must match. */
         fail = !isnan(out_imp);
      } else if (isnan(out_bnd)) {
         /* No further accuracy requirement for a NaN bound. */
      } else if (isinf(ref_fp_decode(
                     check->out_type,
                     ref_fp_encode(check->out_type,
                                   out_bnd * (1.0 + abs_bound * ldexp(1.0, -1 - out_frac)),
                                   false)))) {
         /* The dot product can overflow within the error bound: no accuracy limit. */
      } else if (out_bnd == 0.0) {
         /* All products are zero. */
         fail = out_ref != 0.0 || out_imp != 0.0;
      } else {
         double out_err_bnd = out_bnd * ldexp(1.0, -1 - out_frac);
         double nmin = ref_dtype_normal_min(check->out_type);
         if (out_err_bnd < nmin)
            out_err_bnd = nmin;
         out_err = (out_imp - out_ref) / out_err_bnd;
         /* The pseudocode's abs(out_err) > ABS_BOUND is false for a NaN out_err, which would
          * let a NaN result through: a NaN where the reference is a number fails here. */
         fail = isnan(out_err) || fabs(out_err) > abs_bound;
         if (isnan(out_err))
            out_err = 0.0;
      }
      if (fail) {
         report->pass = false;
         if (report->first_failure < 0)
            report->first_failure = i;
      }
      if (fabs(out_err) > report->max_abs_err)
         report->max_abs_err = fabs(out_err);
      report->err_sum += out_err;
      report->err_sumsq += out_err * out_err;
   }

   /* The bias (sum) check only for test sets 3..5; the variance check always. */
   if (check->test_set >= 3 && check->test_set <= 5 &&
       fabs(report->err_sum) > sqrt(10.0 * variance_bound * t))
      report->pass = false;
   if (report->err_sumsq > variance_bound * t)
      report->pass = false;
   return TOSA_REF_OK;
}

static void
report_element(struct tosa_ref_check_report *report, int64_t offset, bool pass)
{
   if (pass)
      return;
   report->pass = false;
   if (report->failures++ == 0)
      report->first_failure = offset;
}

/* TOSA_REF_TOL_EXACT for one element of two tensors of the same dtype. */
static bool
exact_element(const struct ref_tensor *imp, const struct ref_tensor *ref, int64_t offset)
{
   if (ref_dtype_is_float(imp->dtype))
      return ref_tensor_get_bits(imp, offset) == ref_tensor_get_bits(ref, offset);
   return ref_tensor_get_int(imp, offset) == ref_tensor_get_int(ref, offset);
}

int
tosa_ref_check_tensor(const struct tosa_ref_tolerance *tol, const struct ref_tensor *imp,
                      const struct ref_tensor *ref, struct tosa_ref_check_report *report)
{
   if (!tol || !report || !ref_tensor_valid(imp) || !ref_tensor_valid(ref) ||
       !ref_same_shape(imp, ref) || imp->dtype == REF_DTYPE_FP64)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "check: NULL, invalid or mismatched tensors");
   bool float_ref = ref->dtype == imp->dtype || ref->dtype == REF_DTYPE_FP64;
   switch (tol->kind) {
   case TOSA_REF_TOL_EXACT:
      if (ref->dtype != imp->dtype)
         return ref_status(TOSA_REF_BAD_ARGUMENT, "check: EXACT needs equal dtypes (%s, %s)",
                           ref_dtype_name(imp->dtype), ref_dtype_name(ref->dtype));
      break;
   case TOSA_REF_TOL_FP_EXACT:
      if (!ref_dtype_is_float(imp->dtype) || !float_ref)
         return ref_status(TOSA_REF_BAD_ARGUMENT, "check: FP_EXACT needs a float output and a "
                                                  "reference of its type or FP64");
      break;
   case TOSA_REF_TOL_ULP:
      if (!ref_dtype_is_float(imp->dtype) || ref->dtype != REF_DTYPE_FP64)
         return ref_status(TOSA_REF_BAD_ARGUMENT, "check: ULP needs a float output and the FP64 "
                                                  "reference");
      break;
   case TOSA_REF_TOL_CAST_FP:
      if (!ref_dtype_is_float(imp->dtype) || ref->dtype != REF_DTYPE_FP64)
         return ref_status(TOSA_REF_BAD_ARGUMENT, "check: CAST_FP needs a float output and the "
                                                  "FP64 reference");
      break;
   default:
      return ref_status(TOSA_REF_BAD_ARGUMENT,
                        "check: tolerance kind %d is not per element; use "
                        "tosa_ref_check_dot_product() or tosa_ref_check_rescale_range()",
                        (int)tol->kind);
   }

   *report = (struct tosa_ref_check_report){.pass = true, .first_failure = -1};
   for (int64_t i = 0; i < imp->count; i++) {
      bool pass;
      if (tol->kind == TOSA_REF_TOL_EXACT)
         pass = exact_element(imp, ref, i);
      else if (tol->kind == TOSA_REF_TOL_FP_EXACT)
         pass = tosa_ref_check_fp_exact(imp->dtype, ref_tensor_get_fp(imp, i),
                                        ref_tensor_get_fp(ref, i));
      else if (tol->kind == TOSA_REF_TOL_CAST_FP)
         pass = tosa_ref_check_cast_fp(imp->dtype, ref_tensor_get_fp(imp, i),
                                       ref_tensor_get_fp(ref, i));
      else
         pass = tosa_ref_check_fp(imp->dtype, ref_tensor_get_fp(imp, i), ref_tensor_get_fp(ref, i),
                                  tol->ulp);
      report_element(report, i, pass);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_check_tensor_bound(const struct ref_tensor *imp, const struct ref_tensor *ref,
                            const struct ref_tensor *bnd, struct tosa_ref_check_report *report)
{
   if (!report || !ref_tensor_valid(imp) || !ref_tensor_valid(ref) || !ref_tensor_valid(bnd) ||
       !ref_dtype_is_float(imp->dtype) || imp->dtype == REF_DTYPE_FP64 ||
       ref->dtype != REF_DTYPE_FP64 || bnd->dtype != REF_DTYPE_FP64 || !ref_same_shape(imp, ref) ||
       !ref_same_shape(imp, bnd))
      return ref_status(TOSA_REF_BAD_ARGUMENT,
                        "bound check: needs a float output, the FP64 reference and bound");
   *report = (struct tosa_ref_check_report){.pass = true, .first_failure = -1};
   for (int64_t i = 0; i < imp->count; i++)
      report_element(report, i,
                     tosa_ref_check_fp_bnd(imp->dtype, ref_tensor_get_fp(imp, i),
                                           ref_tensor_get_fp(ref, i), ref_tensor_get_fp(bnd, i)));
   return TOSA_REF_OK;
}

int
tosa_ref_check_rescale_range(const struct ref_tensor *imp, bool output_unsigned,
                             const struct ref_tensor *lo, const struct ref_tensor *hi,
                             struct tosa_ref_check_report *report)
{
   if (!report || !ref_tensor_valid(imp) || !ref_tensor_valid(lo) || !ref_tensor_valid(hi) ||
       (imp->dtype != REF_DTYPE_I8 && imp->dtype != REF_DTYPE_I16 && imp->dtype != REF_DTYPE_I32) ||
       lo->dtype != REF_DTYPE_I32 || hi->dtype != REF_DTYPE_I32 || !ref_same_shape(imp, lo) ||
       !ref_same_shape(imp, hi) || (output_unsigned && imp->dtype == REF_DTYPE_I32))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "rescale range check: invalid argument");

   unsigned bits = ref_dtype_int_bits(imp->dtype);
   *report = (struct tosa_ref_check_report){.pass = true, .first_failure = -1};
   for (int64_t i = 0; i < imp->count; i++) {
      int64_t v = ref_tensor_get_int(imp, i);
      if (output_unsigned)
         v = (int64_t)((uint64_t)v & (((uint64_t)1 << bits) - 1));
      report_element(report, i, v >= ref_tensor_get_int(lo, i) && v <= ref_tensor_get_int(hi, i));
   }
   return TOSA_REF_OK;
}
