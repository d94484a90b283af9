/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the MATMUL kernels against the reference: integer results bit for
 * bit, floats with TOSA 1.0.1's dot-product accuracy requirements.
 */
#include "harness.h"

/* ---- MATMUL --------------------------------------------------------------------------------- */

static void
matmul_case(const char *variant, enum ref_dtype in_t, enum ref_dtype out_t, int64_t n,
            int64_t h, int64_t c, int64_t w, int32_t a_zp, int32_t b_zp, uint32_t gap)
{
   char what[128];
   snprintf(what, sizeof(what), "%s %" PRId64 "x%" PRId64 "x%" PRId64 " x %" PRId64
            " zp %d %d", variant, n, h, c, w, a_zp, b_zp);
   struct ref_tensor *a = TENSOR(in_t, n, h, c);
   struct ref_tensor *b = TENSOR(in_t, n, c, w);
   struct ref_tensor *azp = scalar_int(in_t, a_zp);
   struct ref_tensor *bzp = scalar_int(in_t, b_zp);
   struct ref_tensor *out = TENSOR(out_t, n, h, w);
   bool is_float = ref_dtype_is_float(out_t);
   struct ref_tensor *ref = TENSOR(is_float ? REF_DTYPE_FP64 : out_t, n, h, w);
   struct ref_tensor *bnd = TENSOR(REF_DTYPE_FP64, n, h, w);
   fill_operand(a);
   fill_operand(b);
   struct tosa_ref_matmul_args ra = {.mode = TOSA_REF_DOT_RESULT};
   int st = tosa_ref_matmul(&ra, a, b, azp, bzp, ref);
   if (is_float && st == TOSA_REF_OK) {
      ra.mode = TOSA_REF_DOT_BOUND;
      st = tosa_ref_matmul(&ra, a, b, azp, bzp, bnd);
   }
   if (ref_ok(what, st)) {
      struct dg_attrs_matmul args = {.a_zp = a_zp, .b_zp = b_zp};
      struct ref_tensor *ts[3] = {a, b, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){gap, 0, gap}, 3, &args, sizeof(args), 0);
      if (is_float)
         check_dot(what, gpu, ref, bnd, out_t, c);
      else
         compare(what, TOSA_REF_OP_MATMUL, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {a, b, azp, bzp, out, ref, bnd};
   destroy_all(all, 7);
}

void
test_matmul(void)
{
   static const struct {
      const char *variant;
      enum ref_dtype in, out;
   } rows[] = {
      {"tosa_matmul_i8_i32", REF_DTYPE_I8, REF_DTYPE_I32},
      {"tosa_matmul_i16_i48", REF_DTYPE_I16, REF_DTYPE_I48},
      {"tosa_matmul_fp8e4m3_fp16", REF_DTYPE_FP8E4M3, REF_DTYPE_FP16},
      {"tosa_matmul_fp8e5m2_fp16", REF_DTYPE_FP8E5M2, REF_DTYPE_FP16},
      {"tosa_matmul_fp16", REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_matmul_fp16_fp32", REF_DTYPE_FP16, REF_DTYPE_FP32},
      {"tosa_matmul_bf16_fp32", REF_DTYPE_BF16, REF_DTYPE_FP32},
      {"tosa_matmul_fp32", REF_DTYPE_FP32, REF_DTYPE_FP32},
      {"tosa_matmul_fp8e4m3_fp16_fp16arith", REF_DTYPE_FP8E4M3, REF_DTYPE_FP16},
      {"tosa_matmul_fp8e5m2_fp16_fp16arith", REF_DTYPE_FP8E5M2, REF_DTYPE_FP16},
      {"tosa_matmul_fp16_fp16arith", REF_DTYPE_FP16, REF_DTYPE_FP16},
   };
   test_set_context("matmul");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      if (needs_fp16arith(rows[r].variant) && !have_fp16arith)
         continue;
      bool i8 = rows[r].in == REF_DTYPE_I8;
      matmul_case(rows[r].variant, rows[r].in, rows[r].out, 2, 3, 17, 5, i8 ? 7 : 0,
                  i8 ? -2 : 0, 1);
      matmul_case(rows[r].variant, rows[r].in, rows[r].out, 1, 9, 40, 7, i8 ? -128 : 0,
                  i8 ? 127 : 0, 0);
   }
   test_set_context(NULL);
}
