/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Part of test_graph_kernels: the ADD, SUB, MUL and CLAMP kernels against the reference: integer
 * results bit for bit, ADD/SUB/MUL on floats within 0.5 ulp of the fp64 result, CLAMP on floats
 * exactly (NaN as the NaN mode says).
 */
#include "harness.h"

/* ---- ADD, SUB, MUL -------------------------------------------------------------------------- */

static uint32_t
fp32_bits(float f)
{
   uint32_t bits;
   memcpy(&bits, &f, 4);
   return bits;
}

static void
binary_case(const char *variant, int op, struct ref_tensor *a, struct ref_tensor *b,
            enum ref_dtype out_t, int32_t shift, const uint32_t *gaps)
{
   char what[96];
   snprintf(what, sizeof(what), "%s [%" PRId64 "...] x%u shift %d", variant, a->count, a->rank,
            shift);
   int64_t shape[REF_MAX_RANK];
   for (uint32_t d = 0; d < a->rank; d++)
      shape[d] = a->shape[d] > b->shape[d] ? a->shape[d] : b->shape[d];
   bool is_float = ref_dtype_is_float(out_t);
   struct ref_tensor *out = tensor(out_t, a->rank, shape);
   struct ref_tensor *ref = tensor(is_float ? REF_DTYPE_FP64 : out_t, a->rank, shape);
   struct ref_tensor *sh = scalar_int(REF_DTYPE_I8, shift);
   enum tosa_ref_op rop = op == DG_BINARY_ADD   ? TOSA_REF_OP_ADD
                          : op == DG_BINARY_SUB ? TOSA_REF_OP_SUB
                                                : TOSA_REF_OP_MUL;
   int st = rop == TOSA_REF_OP_ADD   ? tosa_ref_add(a, b, ref)
            : rop == TOSA_REF_OP_SUB ? tosa_ref_sub(a, b, ref)
                                     : tosa_ref_mul(a, b, sh, ref);
   if (ref_ok(what, st)) {
      struct dg_attrs_mul args = {.shift = shift};
      struct ref_tensor *ts[3] = {a, b, out};
      struct ref_tensor *gpu = run_kernel(variant, ts, gaps, 3, &args, sizeof(args), 0);
      compare(what, rop, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {out, ref, sh};
   destroy_all(all, 3);
}

static void
fill_binary_input(struct ref_tensor *t, int op, int32_t shift)
{
   switch (t->dtype) {
   case REF_DTYPE_I8:
      fill_int(t, -128, 127);
      break;
   case REF_DTYPE_I16:
      fill_int(t, -32768, 32767);
      break;
   case REF_DTYPE_I32:
      if (op != DG_BINARY_MUL)
         fill_int(t, -(1 << 30), 1 << 30); /* no overflow: that is a REQUIRE */
      else if (shift == 0)
         fill_int(t, INT32_MIN, INT32_MAX); /* the low 32 bits: defined for any value */
      else
         fill_int(t, -((int64_t)1 << (shift > 32 ? 30 : (31 + shift) / 2 - 1)),
                  (int64_t)1 << (shift > 32 ? 30 : (31 + shift) / 2 - 1));
      break;
   default:
      fill_fp(t, -4.0, 4.0);
      add_specials(t);
      break;
   }
}

void
test_binary(void)
{
   static const struct {
      const char *variant;
      int op;
      enum ref_dtype in, out;
   } rows[] = {
      {"tosa_add_i32", DG_BINARY_ADD, REF_DTYPE_I32, REF_DTYPE_I32},
      {"tosa_add_fp16", DG_BINARY_ADD, REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_add_bf16", DG_BINARY_ADD, REF_DTYPE_BF16, REF_DTYPE_BF16},
      {"tosa_add_fp32", DG_BINARY_ADD, REF_DTYPE_FP32, REF_DTYPE_FP32},
      {"tosa_sub_i32", DG_BINARY_SUB, REF_DTYPE_I32, REF_DTYPE_I32},
      {"tosa_sub_fp16", DG_BINARY_SUB, REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_sub_bf16", DG_BINARY_SUB, REF_DTYPE_BF16, REF_DTYPE_BF16},
      {"tosa_sub_fp32", DG_BINARY_SUB, REF_DTYPE_FP32, REF_DTYPE_FP32},
      {"tosa_mul_i8_i32", DG_BINARY_MUL, REF_DTYPE_I8, REF_DTYPE_I32},
      {"tosa_mul_i16_i32", DG_BINARY_MUL, REF_DTYPE_I16, REF_DTYPE_I32},
      {"tosa_mul_i32", DG_BINARY_MUL, REF_DTYPE_I32, REF_DTYPE_I32},
      {"tosa_mul_fp16", DG_BINARY_MUL, REF_DTYPE_FP16, REF_DTYPE_FP16},
      {"tosa_mul_bf16", DG_BINARY_MUL, REF_DTYPE_BF16, REF_DTYPE_BF16},
      {"tosa_mul_fp32", DG_BINARY_MUL, REF_DTYPE_FP32, REF_DTYPE_FP32},
   };
   /* Shape pairs: broadcasting either way, rank 1 against [1], rank 6. */
   static const struct {
      uint32_t rank;
      int64_t a[6], b[6];
      uint32_t gaps[3];
   } shapes[] = {
      {4, {2, 3, 4, 5}, {2, 1, 4, 1}, {1, 0, 2}},
      {4, {1, 3, 1, 5}, {2, 3, 4, 5}, {0, 1, 0}},
      {1, {37}, {1}, {0, 0, 1}},
      {6, {2, 1, 2, 3, 1, 2}, {1, 2, 2, 1, 3, 2}, {0, 0, 0}},
   };
   test_set_context("binary");
   for (unsigned r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
      for (unsigned s = 0; s < sizeof(shapes) / sizeof(shapes[0]); s++) {
         struct ref_tensor *a = tensor(rows[r].in, shapes[s].rank, shapes[s].a);
         struct ref_tensor *b = tensor(rows[r].in, shapes[s].rank, shapes[s].b);
         fill_binary_input(a, rows[r].op, 0);
         fill_binary_input(b, rows[r].op, 0);
         grid_x_max = s == 0 ? 1 : 65535; /* the first shape: one workgroup per grid row */
         binary_case(rows[r].variant, rows[r].op, a, b, rows[r].out, 0, shapes[s].gaps);
         ref_tensor_destroy(a);
         ref_tensor_destroy(b);
      }
   }
   grid_x_max = 65535;

   /* MUL i32 with a shift: (a * b + (1 << (shift - 1))) >> shift in int64. Ties (products
    * that are odd multiples of 1 << (shift - 1)) of both signs round up. */
   static const int32_t shifts[] = {1, 20, 31, 40, 63};
   for (unsigned s = 0; s < sizeof(shifts) / sizeof(shifts[0]); s++) {
      int32_t shift = shifts[s];
      struct ref_tensor *a = TENSOR(REF_DTYPE_I32, 3, 4, 5);
      struct ref_tensor *b = TENSOR(REF_DTYPE_I32, 3, 1, 5);
      fill_binary_input(a, DG_BINARY_MUL, shift);
      fill_binary_input(b, DG_BINARY_MUL, shift);
      if (shift <= 40) {
         /* a = +-2^(shift - 1 - e), b = odd * 2^e: a tie. */
         int32_t e = shift > 31 ? shift - 31 : 0;
         for (int64_t i = 0; i < a->count; i += 3)
            ref_tensor_set_int(a, i, (i & 1 ? -1 : 1) * ((int64_t)1 << (shift - 1 - e)));
         for (int64_t i = 0; i < b->count; i += 2)
            ref_tensor_set_int(b, i, (int64_t)(random_int(-7, 7) * 2 + 1) * ((int64_t)1 << e));
      }
      binary_case("tosa_mul_i32", DG_BINARY_MUL, a, b, REF_DTYPE_I32, shift,
                  (const uint32_t[]){0, 1, 0});
      ref_tensor_destroy(a);
      ref_tensor_destroy(b);
   }
   test_set_context(NULL);
}

/* ---- CLAMP ---------------------------------------------------------------------------------- */

static void
clamp_case(const char *variant, enum ref_dtype dtype, double min, double max, int nan_mode)
{
   char what[96];
   snprintf(what, sizeof(what), "%s [%g, %g] nan_mode %d", variant, min, max, nan_mode);
   struct ref_tensor *in = TENSOR(dtype, 3, 5, 7);
   struct ref_tensor *out = TENSOR(dtype, 3, 5, 7);
   struct ref_tensor *ref = TENSOR(dtype, 3, 5, 7);
   bool is_float = ref_dtype_is_float(dtype);
   struct tosa_ref_clamp_args ra = {.nan_mode = (enum tosa_ref_nan_mode)nan_mode};
   struct dg_attrs_clamp args = {.nan_mode = (uint32_t)nan_mode};
   if (is_float) {
      fill_fp(in, -3.0, 3.0);
      add_specials(in);
      ra.min_fp = min;
      ra.max_fp = max;
      args.min_val = fp32_bits((float)min);
      args.max_val = fp32_bits((float)max);
   } else {
      unsigned bits = ref_dtype_int_bits(dtype);
      fill_int(in, -((int64_t)1 << (bits - 1)), ((int64_t)1 << (bits - 1)) - 1);
      ra.min_int = (int64_t)min;
      ra.max_int = (int64_t)max;
      args.min_val = (uint32_t)(int32_t)min;
      args.max_val = (uint32_t)(int32_t)max;
   }
   if (ref_ok(what, tosa_ref_clamp(&ra, in, ref))) {
      struct ref_tensor *ts[2] = {in, out};
      struct ref_tensor *gpu =
         run_kernel(variant, ts, (const uint32_t[]){1, 2}, 2, &args, sizeof(args), 0);
      compare(what, TOSA_REF_OP_CLAMP, gpu, ref);
      ref_tensor_destroy(gpu);
   }
   struct ref_tensor *all[] = {in, out, ref};
   destroy_all(all, 3);
}

void
test_clamp(void)
{
   test_set_context("clamp");
   clamp_case("tosa_clamp_i8", REF_DTYPE_I8, -20, 90, DG_NAN_PROPAGATE);
   clamp_case("tosa_clamp_i8", REF_DTYPE_I8, -128, 127, DG_NAN_PROPAGATE);
   clamp_case("tosa_clamp_i8", REF_DTYPE_I8, 5, 5, DG_NAN_IGNORE);
   clamp_case("tosa_clamp_i16", REF_DTYPE_I16, -1000, 30000, DG_NAN_PROPAGATE);
   clamp_case("tosa_clamp_i16", REF_DTYPE_I16, -32768, 0, DG_NAN_IGNORE);
   static const struct {
      const char *variant;
      enum ref_dtype dtype;
   } floats[] = {
      {"tosa_clamp_fp16", REF_DTYPE_FP16},
      {"tosa_clamp_bf16", REF_DTYPE_BF16},
      {"tosa_clamp_fp32", REF_DTYPE_FP32},
   };
   for (unsigned i = 0; i < 3; i++) {
      clamp_case(floats[i].variant, floats[i].dtype, -1.5, 2.25, DG_NAN_PROPAGATE);
      clamp_case(floats[i].variant, floats[i].dtype, -1.5, 2.25, DG_NAN_IGNORE);
      clamp_case(floats[i].variant, floats[i].dtype, -INFINITY, 0.0, DG_NAN_IGNORE);
   }
   test_set_context(NULL);
}
