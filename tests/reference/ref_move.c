/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-movement operators of the reference: SLICE, REVERSE, TILE, PAD and TRANSPOSE (TOSA 1.0.1
 * chapters/data_layout.adoc, pseudocode/operators/{SLICE,REVERSE,TILE,PAD,TRANSPOSE}.tosac),
 * written from the pseudocode: each output position is visited in row-major order and its
 * source position computed as the pseudocode says. Elements move as bit patterns, so every
 * value (NaN payloads, -0, bf16 and fp8 patterns) arrives unchanged: "Results must be exact".
 *
 * PAD.tosac tests `index[i] >= length(shape[i])` for the high side, which is never true as
 * written; the intent (and the shape ERROR_IF) is that index1[i] >= shape1[i] is padding too,
 * which is what this reference does.
 */
#include "ref_internal.h"

/* The nine rows every data-movement operator has: bool, i8, i16, i32, fp8e4m3, fp8e5m2, fp16,
 * bf16, fp32. */
static bool
move_type_supported(enum ref_dtype t)
{
   switch (t) {
   case REF_DTYPE_BOOL:
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

/* Tensors present, one supported element type for both, ranks 1..REF_MAX_RANK (the operands'
 * SPIR-V tensors have rank >= 1) and equal: ERROR_IF(rank(shape1) != rank(shape)). */
static int
check_move(const char *op, const struct ref_tensor *in, const struct ref_tensor *out)
{
   if (!ref_tensor_valid(in) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", op);
   if (!move_type_supported(in->dtype) || out->dtype != in->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s -> %s", op,
                        ref_dtype_name(in->dtype), ref_dtype_name(out->dtype));
   if (in->rank < 1 || in->rank != out->rank)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(rank(shape1) != rank(shape)): %u, %u", op,
                        in->rank, out->rank);
   return TOSA_REF_OK;
}

static int
check_length(const char *op, const char *name, uint32_t length, uint32_t rank)
{
   if (length != rank)
      return ref_status(TOSA_REF_ERROR, "%s: ERROR_IF(rank(shape1) != length(%s)): %u != %u", op,
                        name, rank, length);
   return TOSA_REF_OK;
}

static void
copy_element(struct ref_tensor *out, int64_t o, const struct ref_tensor *in, const int64_t *index)
{
   ref_tensor_set_bits(out, o, ref_tensor_get_bits(in, ref_tensor_offset(in, index)));
}

int
tosa_ref_slice(const struct tosa_ref_slice_args *args, const struct ref_tensor *input1,
               struct ref_tensor *output)
{
   int st = check_move("SLICE", input1, output);
   if (st != TOSA_REF_OK)
      return st;
   uint32_t rank = input1->rank;
   if ((st = check_length("SLICE", "start", args->start_length, rank)) != TOSA_REF_OK ||
       (st = check_length("SLICE", "size", args->size_length, rank)) != TOSA_REF_OK)
      return st;
   for (uint32_t i = 0; i < rank; i++) {
      if (args->start[i] < 0)
         return ref_status(TOSA_REF_ERROR, "SLICE: ERROR_IF(start[%u] < 0): %d", i, args->start[i]);
      if (args->size[i] <= 0)
         return ref_status(TOSA_REF_ERROR, "SLICE: ERROR_IF(size[%u] <= 0): %d", i, args->size[i]);
      if ((int64_t)args->start[i] + args->size[i] > input1->shape[i])
         return ref_status(TOSA_REF_ERROR, "SLICE: ERROR_IF(start[%u] + size[%u] > shape1[%u])", i,
                           i, i);
      if (output->shape[i] != args->size[i])
         return ref_status(TOSA_REF_ERROR, "SLICE: ERROR_IF(shape[%u] != size[%u])", i, i);
   }
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      for (uint32_t i = 0; i < rank; i++)
         index[i] += args->start[i];
      copy_element(output, o, input1, index);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_reverse(int32_t axis, const struct ref_tensor *input1, struct ref_tensor *output)
{
   int st = check_move("REVERSE", input1, output);
   if (st != TOSA_REF_OK)
      return st;
   if (axis < 0 || axis >= (int32_t)output->rank)
      return ref_status(TOSA_REF_ERROR, "REVERSE: ERROR_IF(axis < 0 || axis >= rank(shape)): %d",
                        axis);
   /* The input has the output's shape (the operator's argument table). */
   for (uint32_t i = 0; i < output->rank; i++) {
      if (input1->shape[i] != output->shape[i])
         return ref_status(TOSA_REF_ERROR, "REVERSE: input and output shapes differ");
   }
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      index[axis] = output->shape[axis] - 1 - index[axis];
      copy_element(output, o, input1, index);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_tile(const struct tosa_ref_tile_args *args, const struct ref_tensor *input1,
              struct ref_tensor *output)
{
   int st = check_move("TILE", input1, output);
   if (st != TOSA_REF_OK)
      return st;
   uint32_t rank = input1->rank;
   if ((st = check_length("TILE", "multiples", args->length, rank)) != TOSA_REF_OK)
      return st;
   for (uint32_t i = 0; i < rank; i++) {
      if (input1->shape[i] * args->multiples[i] != output->shape[i])
         return ref_status(TOSA_REF_ERROR,
                           "TILE: ERROR_IF(shape1[%u] * multiples[%u] != shape[%u]): %lld * %d "
                           "!= %lld",
                           i, i, i, (long long)input1->shape[i], args->multiples[i],
                           (long long)output->shape[i]);
   }
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      for (uint32_t i = 0; i < rank; i++)
         index[i] %= input1->shape[i];
      copy_element(output, o, input1, index);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_pad(const struct tosa_ref_pad_args *args, const struct ref_tensor *input1,
             struct ref_tensor *output)
{
   int st = check_move("PAD", input1, output);
   if (st != TOSA_REF_OK)
      return st;
   uint32_t rank = input1->rank;
   if (args->length != 2 * rank)
      return ref_status(TOSA_REF_ERROR, "PAD: padding has %u entries, not 2 * rank %u",
                        args->length, rank);
   if (args->pad_dtype != input1->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED, "PAD: pad_const is %s, the input %s",
                        ref_dtype_name(args->pad_dtype), ref_dtype_name(input1->dtype));
   for (uint32_t i = 0; i < rank; i++) {
      int32_t before = args->padding[2 * i], after = args->padding[2 * i + 1];
      if (before < 0 || after < 0)
         return ref_status(TOSA_REF_ERROR,
                           "PAD: ERROR_IF(padding[%u] < 0 || padding[%u] < 0): %d, %d", 2 * i,
                           2 * i + 1, before, after);
      if (output->shape[i] != before + input1->shape[i] + after)
         return ref_status(TOSA_REF_ERROR,
                           "PAD: ERROR_IF(shape[%u] != padding[%u] + shape1[%u] + padding[%u])", i,
                           2 * i, i, 2 * i + 1);
   }
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      bool is_pad = false;
      for (uint32_t i = 0; i < rank; i++) {
         index[i] -= args->padding[2 * i];
         if (index[i] < 0 || index[i] >= input1->shape[i])
            is_pad = true;
      }
      if (is_pad)
         ref_tensor_set_bits(output, o, args->pad_bits);
      else
         copy_element(output, o, input1, index);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_transpose(const struct tosa_ref_transpose_args *args, const struct ref_tensor *input1,
                   struct ref_tensor *output)
{
   int st = check_move("TRANSPOSE", input1, output);
   if (st != TOSA_REF_OK)
      return st;
   uint32_t rank = input1->rank;
   if (input1->count != output->count)
      return ref_status(TOSA_REF_ERROR,
                        "TRANSPOSE: ERROR_IF(tensor_size(shape1) != tensor_size(shape))");
   if ((st = check_length("TRANSPOSE", "perms", args->length, rank)) != TOSA_REF_OK)
      return st;
   bool used[REF_MAX_RANK] = {false};
   for (uint32_t i = 0; i < rank; i++) {
      int32_t p = args->perms[i];
      if (p >= (int32_t)rank || p < 0)
         return ref_status(TOSA_REF_ERROR, "TRANSPOSE: ERROR_IF(perms[%u] %d out of [0, %u))", i, p,
                           rank);
      if (used[p])
         return ref_status(TOSA_REF_ERROR, "TRANSPOSE: ERROR_IF(indexes_used[%d] == true)", p);
      used[p] = true;
   }
   for (uint32_t i = 0; i < rank; i++) {
      if (input1->shape[args->perms[i]] != output->shape[i])
         return ref_status(TOSA_REF_ERROR, "TRANSPOSE: ERROR_IF(shape1[perms[%u]] != shape[%u])", i,
                           i);
   }
   int64_t index[REF_MAX_RANK], in_index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      for (uint32_t i = 0; i < rank; i++)
         in_index[args->perms[i]] = index[i];
      copy_element(output, o, input1, in_index);
   }
   return TOSA_REF_OK;
}
