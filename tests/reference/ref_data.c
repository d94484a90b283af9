/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Data-layout operators of the reference: RESHAPE and CONCAT (TOSA 1.0.1
 * chapters/data_layout.adoc, pseudocode/operators/{RESHAPE,CONCAT}.tosac). Elements move as bit
 * patterns, so every value (NaN payloads, -0, i48 upper bits) arrives unchanged: "Results must
 * be exact".
 */
#include "ref_internal.h"

/* The rows of RESHAPE and CONCAT: bool, i8, i16, i32, fp8e4m3, fp8e5m2, fp16, bf16, fp32. */
static bool
data_type_supported(enum ref_dtype t)
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

int
tosa_ref_reshape(const struct ref_tensor *input1, struct ref_tensor *output)
{
   if (!ref_tensor_valid(input1) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "RESHAPE: NULL or invalid tensor");
   if (!data_type_supported(input1->dtype) || output->dtype != input1->dtype)
      return ref_status(TOSA_REF_UNSUPPORTED, "RESHAPE: no type-support row for %s -> %s",
                        ref_dtype_name(input1->dtype), ref_dtype_name(output->dtype));
   if (input1->count != output->count)
      return ref_status(
          TOSA_REF_ERROR,
          "RESHAPE: ERROR_IF(tensor_size(shape1) != tensor_size(shape)): %lld vs %lld",
          (long long)input1->count, (long long)output->count);

   /* Output index -> flat offset -> input index -> the same flat offset: the copy is in order. */
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      int64_t offset = ref_tensor_offset(output, index);
      int64_t in_index[REF_MAX_RANK];
      ref_tensor_index(input1, offset, in_index);
      ref_tensor_set_bits(output, o,
                          ref_tensor_get_bits(input1, ref_tensor_offset(input1, in_index)));
   }
   return TOSA_REF_OK;
}

static int
check_concat(const struct tosa_ref_concat_args *args, const struct ref_tensor *const *inputs,
             uint32_t count, const struct ref_tensor *output)
{
   if (count == 0)
      return ref_status(TOSA_REF_ERROR, "CONCAT: ERROR_IF(input1 == [])");
   const struct ref_tensor *first = inputs[0];
   int32_t axis = args->axis;
   int32_t limit = first->rank > 1 ? (int32_t)first->rank : 1;
   if (axis < 0 || axis >= limit)
      return ref_status(TOSA_REF_ERROR,
                        "CONCAT: ERROR_IF(axis < 0 || axis >= max(1,rank(shapes1[0]))): axis %d, "
                        "rank %u",
                        axis, first->rank);
   /* The argument table gives input and output rank >= 1. */
   if (first->rank < 1 || output->rank != first->rank)
      return ref_status(TOSA_REF_ERROR, "CONCAT: rank %u inputs, rank %u output", first->rank,
                        output->rank);

   int64_t axis_sum = 0;
   for (uint32_t t = 0; t < count; t++) {
      if (inputs[t]->rank != first->rank)
         return ref_status(TOSA_REF_ERROR,
                           "CONCAT: ERROR_IF(rank(shapes1[%u]) != rank(shapes1[0])): %u vs %u", t,
                           inputs[t]->rank, first->rank);
      for (uint32_t i = 0; i < first->rank; i++) {
         if ((int32_t)i == axis) {
            axis_sum += inputs[t]->shape[i];
         } else if (inputs[t]->shape[i] != first->shape[i]) {
            return ref_status(TOSA_REF_ERROR,
                              "CONCAT: ERROR_IF(shapes1[%u][%u] != shapes1[0][%u]): %lld vs %lld",
                              t, i, i, (long long)inputs[t]->shape[i], (long long)first->shape[i]);
         }
      }
   }
   if (axis_sum != output->shape[axis])
      return ref_status(TOSA_REF_ERROR, "CONCAT: ERROR_IF(axis_sum != shape[axis]): %lld vs %lld",
                        (long long)axis_sum, (long long)output->shape[axis]);
   /* The output is [.., axis_sum, ..] with the other dimensions of the inputs. */
   for (uint32_t i = 0; i < first->rank; i++) {
      if ((int32_t)i != axis && output->shape[i] != first->shape[i])
         return ref_status(TOSA_REF_ERROR, "CONCAT: output dimension %u is %lld, inputs have %lld",
                           i, (long long)output->shape[i], (long long)first->shape[i]);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_concat(const struct tosa_ref_concat_args *args, const struct ref_tensor *const *inputs,
                uint32_t count, struct ref_tensor *output)
{
   if (!args || (count > 0 && !inputs) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "CONCAT: NULL or invalid argument");
   for (uint32_t t = 0; t < count; t++) {
      if (!ref_tensor_valid(inputs[t]))
         return ref_status(TOSA_REF_BAD_ARGUMENT, "CONCAT: input %u is NULL or invalid", t);
   }
   if (!data_type_supported(output->dtype))
      return ref_status(TOSA_REF_UNSUPPORTED, "CONCAT: no type-support row for %s",
                        ref_dtype_name(output->dtype));
   for (uint32_t t = 0; t < count; t++) {
      if (inputs[t]->dtype != output->dtype)
         return ref_status(TOSA_REF_UNSUPPORTED, "CONCAT: input %u is %s, output %s", t,
                           ref_dtype_name(inputs[t]->dtype), ref_dtype_name(output->dtype));
   }

   int st = check_concat(args, inputs, count, output);
   if (st != TOSA_REF_OK)
      return st;

   /* LEVEL_CHECK(tensor_list_shape(input1) <= MAX_TENSOR_LIST_SIZE) */
   uint32_t max_list =
       args->level_none ? REF_LEVEL_NONE_MAX_TENSOR_LIST_SIZE : REF_LEVEL_8K_MAX_TENSOR_LIST_SIZE;
   if (count > max_list)
      st = ref_status(TOSA_REF_UNPREDICTABLE,
                      "CONCAT: LEVEL_CHECK(%u inputs <= MAX_TENSOR_LIST_SIZE %u)", count, max_list);

   uint32_t axis = (uint32_t)args->axis;
   int64_t index1[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index1);
      int64_t index2[REF_MAX_RANK];
      for (uint32_t i = 0; i < output->rank; i++)
         index2[i] = index1[i];
      for (uint32_t t = 0; t < count; t++) {
         /* Continue along the axis from each tensor until the one holding the position. */
         if (index2[axis] >= 0 && index2[axis] < inputs[t]->shape[axis]) {
            int64_t src = ref_tensor_offset(inputs[t], index2);
            ref_tensor_set_bits(output, o, ref_tensor_get_bits(inputs[t], src));
         }
         index2[axis] -= inputs[t]->shape[axis];
      }
   }
   return st;
}
