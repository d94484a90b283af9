/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * GATHER and SCATTER of the reference (TOSA 1.0.1 "Scatter/Gather Operators",
 * pseudocode/operators/GATHER.tosac, SCATTER.tosac), written from the pseudocode: elements move
 * as bit patterns. Rows: i8, i16, i32, fp8e4m3, fp8e5m2, fp16, bf16, fp32 values, i32 indices.
 *
 * The pseudocode's REQUIREs are data-dependent; this reference gives the result the layer
 * documents (docs/decisions.md D36), so that tests with such indices compare:
 *   - GATHER, REQUIRE(0 <= k && k < K): an output row [n,w,:] whose index is out of range is
 *     zero bits;
 *   - SCATTER, REQUIRE(0 <= k && k < K): the write of that input row is skipped;
 *   - SCATTER, REQUIRE(output_modified[n,k,c] == false): the writes are done in increasing w
 *     (the pseudocode's for_each order), so the largest w naming a position wins.
 */
#include "ref_internal.h"

static bool
gather_type_supported(enum ref_dtype t)
{
   switch (t) {
   case REF_DTYPE_I8:
   case REF_DTYPE_I16:
   case REF_DTYPE_I32:
   case REF_DTYPE_FP8E4M3:
   case REF_DTYPE_FP8E5M2:
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP32:
      return true;
   default:
      return false;
   }
}

/* values/output ranks 3, indices rank 2 of i32, one in_out_t. */
static int
check_operands(const char *op, const struct ref_tensor *values, const struct ref_tensor *indices,
               const struct ref_tensor *other, const struct ref_tensor *output)
{
   if (!ref_tensor_valid(values) || !ref_tensor_valid(indices) || !ref_tensor_valid(other) ||
       !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", op);
   if (!gather_type_supported(values->dtype) || indices->dtype != REF_DTYPE_I32 ||
       other->dtype != values->dtype || output->dtype != values->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s, %s -> %s", op,
                        ref_dtype_name(values->dtype), ref_dtype_name(indices->dtype),
                        ref_dtype_name(output->dtype));
   if (values->rank != 3 || indices->rank != 2 || other->rank != 3 || output->rank != 3)
      return ref_status(TOSA_REF_ERROR, "%s: ranks %u, %u, %u, %u are not 3, 2, 3, 3", op,
                        values->rank, indices->rank, other->rank, output->rank);
   return TOSA_REF_OK;
}

int
tosa_ref_gather(const struct ref_tensor *values, const struct ref_tensor *indices,
                struct ref_tensor *output)
{
   int st = check_operands("GATHER", values, indices, output, output);
   if (st != TOSA_REF_OK)
      return st;
   int64_t N = values->shape[0], K = values->shape[1], C = values->shape[2];
   int64_t W = indices->shape[1];
   if (indices->shape[0] != N || output->shape[0] != N || output->shape[1] != W ||
       output->shape[2] != C)
      return ref_status(TOSA_REF_ERROR, "GATHER: values [N,K,C], indices [N,W] and output "
                                        "[N,W,C] disagree");
   for (int64_t n = 0; n < N; n++) {
      for (int64_t w = 0; w < W; w++) {
         int64_t k = ref_tensor_get_int(indices, n * W + w);
         for (int64_t c = 0; c < C; c++) {
            uint64_t bits = 0; /* REQUIRE(0 <= k && k < K) broken: zero bits */
            if (k >= 0 && k < K)
               bits = ref_tensor_get_bits(values, (n * K + k) * C + c);
            ref_tensor_set_bits(output, (n * W + w) * C + c, bits);
         }
      }
   }
   return TOSA_REF_OK;
}

int
tosa_ref_scatter(const struct ref_tensor *values_in, const struct ref_tensor *indices,
                 const struct ref_tensor *input, struct ref_tensor *values_out)
{
   int st = check_operands("SCATTER", values_in, indices, input, values_out);
   if (st != TOSA_REF_OK)
      return st;
   int64_t N = values_in->shape[0], K = values_in->shape[1], C = values_in->shape[2];
   int64_t W = indices->shape[1];
   if (indices->shape[0] != N || input->shape[0] != N || input->shape[1] != W ||
       input->shape[2] != C || values_out->shape[0] != N || values_out->shape[1] != K ||
       values_out->shape[2] != C)
      return ref_status(TOSA_REF_ERROR, "SCATTER: values_in [N,K,C], indices [N,W], input "
                                        "[N,W,C] and values_out [N,K,C] disagree");
   for (int64_t e = 0; e < values_in->count; e++)
      ref_tensor_set_bits(values_out, e, ref_tensor_get_bits(values_in, e));
   for (int64_t n = 0; n < N; n++) {
      for (int64_t w = 0; w < W; w++) {
         int64_t k = ref_tensor_get_int(indices, n * W + w);
         if (k < 0 || k >= K)
            continue; /* REQUIRE(0 <= k && k < K) broken: the write is skipped */
         /* A later w overwrites (REQUIRE(output_modified == false) broken: the last wins). */
         for (int64_t c = 0; c < C; c++)
            ref_tensor_set_bits(values_out, (n * K + k) * C + c,
                                ref_tensor_get_bits(input, (n * W + w) * C + c));
      }
   }
   return TOSA_REF_OK;
}
