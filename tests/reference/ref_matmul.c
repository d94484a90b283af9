/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * MATMUL of the reference (TOSA 1.0.1 chapters/tensor_ops.adoc, pseudocode/operators/
 * MATMUL.tosac): batched A[N,H,C] x B[N,C,W] -> [N,H,W] accumulated in the output type (i32 for
 * i8, i48 for i16), zero points only for i8 (the corrected meaning of the v1.0.1 ERROR_IF, see
 * tosa_ref.h). Float rows are computed in fp64 in pseudocode order, or, in TOSA_REF_DOT_BOUND
 * mode, as tosa_reference_check_dotproduct's output_bnd with local_bound true (MATMUL has no
 * local_bound attribute).
 */
#include "ref_internal.h"

#include <math.h>

struct matmul_row {
   enum ref_dtype in, out;
};

static const struct matmul_row matmul_rows[] = {
    {REF_DTYPE_I8, REF_DTYPE_I32},       {REF_DTYPE_I16, REF_DTYPE_I48},
    {REF_DTYPE_FP8E4M3, REF_DTYPE_FP16}, {REF_DTYPE_FP8E5M2, REF_DTYPE_FP16},
    {REF_DTYPE_FP16, REF_DTYPE_FP16},    {REF_DTYPE_FP16, REF_DTYPE_FP32},
    {REF_DTYPE_BF16, REF_DTYPE_FP32},    {REF_DTYPE_FP32, REF_DTYPE_FP32},
};

static bool
matmul_row_exists(enum ref_dtype in, enum ref_dtype out)
{
   for (size_t i = 0; i < sizeof(matmul_rows) / sizeof(matmul_rows[0]); i++) {
      const struct matmul_row *r = &matmul_rows[i];
      if (r->in == in && (r->out == out || (ref_dtype_is_float(in) && out == REF_DTYPE_FP64)))
         return true;
   }
   return false;
}

static int
check_matmul(const struct ref_tensor *a, const struct ref_tensor *b, const struct ref_tensor *a_zp,
             const struct ref_tensor *b_zp, const struct ref_tensor *out)
{
   if (a->rank != 3 || b->rank != 3 || out->rank != 3)
      return ref_status(TOSA_REF_ERROR, "MATMUL: A, B and output must be rank 3");
   if (a_zp->rank != 1 || a_zp->shape[0] != 1 || b_zp->rank != 1 || b_zp->shape[0] != 1)
      return ref_status(TOSA_REF_ERROR, "MATMUL: zero points must have shape [1]");
   if (b->shape[0] != a->shape[0] || b->shape[1] != a->shape[2])
      return ref_status(TOSA_REF_ERROR, "MATMUL: B must be [N=%lld, C=%lld, W], is [%lld,%lld,..]",
                        (long long)a->shape[0], (long long)a->shape[2], (long long)b->shape[0],
                        (long long)b->shape[1]);
   if (out->shape[0] != a->shape[0] || out->shape[1] != a->shape[1] || out->shape[2] != b->shape[2])
      return ref_status(TOSA_REF_ERROR, "MATMUL: output must be [%lld,%lld,%lld]",
                        (long long)a->shape[0], (long long)a->shape[1], (long long)b->shape[2]);
   /* TOSA main: ERROR_IF(!is_same<A_t,i8_t>() && A_zp != 0), likewise B (erratum 1). */
   if (a->dtype != REF_DTYPE_I8 && ref_zp_nonzero(a_zp))
      return ref_status(TOSA_REF_ERROR, "MATMUL: ERROR_IF(!is_same<A_t,i8_t>() && A_zp != 0)");
   if (b->dtype != REF_DTYPE_I8 && ref_zp_nonzero(b_zp))
      return ref_status(TOSA_REF_ERROR, "MATMUL: ERROR_IF(!is_same<B_t,i8_t>() && B_zp != 0)");
   return TOSA_REF_OK;
}

static double
bound_abs(double v, double normal_min)
{
   if (isnan(v))
      return NAN;
   return fabs(v) > normal_min ? fabs(v) : normal_min;
}

int
tosa_ref_matmul(const struct tosa_ref_matmul_args *args, const struct ref_tensor *a,
                const struct ref_tensor *b, const struct ref_tensor *a_zp,
                const struct ref_tensor *b_zp, struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(a) || !ref_tensor_valid(b) || !ref_tensor_valid(a_zp) ||
       !ref_tensor_valid(b_zp) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "MATMUL: NULL or invalid argument");
   if (b->dtype != a->dtype || a_zp->dtype != a->dtype || b_zp->dtype != a->dtype ||
       !matmul_row_exists(a->dtype, output->dtype))
      return ref_status(TOSA_REF_UNSUPPORTED,
                        "MATMUL: no type-support row for A %s, B %s, zero points %s/%s, output %s",
                        ref_dtype_name(a->dtype), ref_dtype_name(b->dtype),
                        ref_dtype_name(a_zp->dtype), ref_dtype_name(b_zp->dtype),
                        ref_dtype_name(output->dtype));
   if (args->mode != TOSA_REF_DOT_RESULT &&
       (args->mode != TOSA_REF_DOT_BOUND || output->dtype != REF_DTYPE_FP64))
      return ref_status(TOSA_REF_BAD_ARGUMENT,
                        "MATMUL: TOSA_REF_DOT_BOUND needs a float row and an FP64 output");

   int st = check_matmul(a, b, a_zp, b_zp, output);
   if (st != TOSA_REF_OK)
      return st;

   int64_t n_ = a->shape[0], h_ = a->shape[1], c_ = a->shape[2], w_ = b->shape[2];
   bool is_float = ref_dtype_is_float(a->dtype);
   bool bound = args->mode == TOSA_REF_DOT_BOUND;
   double nmin = ref_dtype_normal_min(a->dtype);
   unsigned bits = a->dtype == REF_DTYPE_I16 ? 48 : 32;
   bool ok = true;

   for (int64_t n = 0; n < n_; n++) {
      for (int64_t h = 0; h < h_; h++) {
         for (int64_t w = 0; w < w_; w++) {
            int64_t out_at = (n * h_ + h) * w_ + w;
            if (is_float) {
               double azp = ref_tensor_get_fp(a_zp, 0), bzp = ref_tensor_get_fp(b_zp, 0);
               double acc = 0.0;
               for (int64_t c = 0; c < c_; c++) {
                  double value1 = ref_tensor_get_fp(a, (n * h_ + h) * c_ + c);
                  double value2 = ref_tensor_get_fp(b, (n * c_ + c) * w_ + w);
                  if (bound) {
                     value1 = bound_abs(value1, nmin);
                     value2 = bound_abs(value2, nmin);
                  } else {
                     value1 = value1 - azp;
                     value2 = value2 - bzp;
                  }
                  acc = acc + value1 * value2;
               }
               ref_tensor_set_fp(output, out_at, acc);
            } else {
               int64_t azp = ref_tensor_get_int(a_zp, 0), bzp = ref_tensor_get_int(b_zp, 0);
               int64_t acc = 0;
               for (int64_t c = 0; c < c_; c++) {
                  int64_t value1 = ref_tensor_get_int(a, (n * h_ + h) * c_ + c);
                  int64_t value2 = ref_tensor_get_int(b, (n * c_ + c) * w_ + w);
                  value1 = ref_sub_s(value1, azp, bits, &ok);
                  value2 = ref_sub_s(value2, bzp, bits, &ok);
                  int64_t product = ref_wrap_signed(value1 * value2, bits);
                  acc = ref_add_s(acc, product, bits, &ok);
               }
               ref_tensor_set_int(output, out_at, acc);
            }
         }
      }
   }
   if (!ok)
      return ref_status(TOSA_REF_UNPREDICTABLE,
                        "MATMUL: REQUIRE: the accumulator left the %s "
                        "range",
                        ref_dtype_name(output->dtype));
   return st;
}
