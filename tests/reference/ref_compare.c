/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Comparisons and selection of the reference: EQUAL, GREATER, GREATER_EQUAL (TOSA 1.0.1
 * chapters/comparison.adoc, pseudocode/operators/{EQUAL,GREATER,GREATER_EQUAL}.tosac) and
 * SELECT (ewise_ternary.adoc, SELECT.tosac), with broadcasting as broadcast_shape.tosac and
 * apply_broadcast.tosac define it.
 */
#include "ref_internal.h"

#include <math.h>

enum cmp_op {
   CMP_EQUAL,
   CMP_GREATER,
   CMP_GREATER_EQUAL,
};

static int
compare(enum cmp_op op, const struct ref_tensor *in1, const struct ref_tensor *in2,
        struct ref_tensor *out)
{
   static const char *const names[] = {"EQUAL", "GREATER", "GREATER_EQUAL"};
   const char *name = names[op];
   if (!ref_tensor_valid(in1) || !ref_tensor_valid(in2) || !ref_tensor_valid(out))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "%s: NULL or invalid tensor", name);
   enum ref_dtype t = in1->dtype;
   bool row =
       t == REF_DTYPE_I32 || t == REF_DTYPE_FP16 || t == REF_DTYPE_BF16 || t == REF_DTYPE_FP32;
   if (!row || in2->dtype != t || out->dtype != REF_DTYPE_BOOL)
      return ref_status(TOSA_REF_UNSUPPORTED, "%s: no type-support row for %s x %s -> %s", name,
                        ref_dtype_name(t), ref_dtype_name(in2->dtype), ref_dtype_name(out->dtype));
   int st = ref_check_broadcast(name, in1, in2, out);
   if (st != TOSA_REF_OK)
      return st;

   bool is_float = ref_dtype_is_float(t);
   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < out->count; o++) {
      ref_tensor_index(out, o, index);
      int64_t o1 = ref_broadcast_offset(out, in1, index),
              o2 = ref_broadcast_offset(out, in2, index);
      /* Every i32 and every value of these float types is exact in a double; -0.0 == 0.0. */
      double a = is_float ? ref_tensor_get_fp(in1, o1) : (double)ref_tensor_get_int(in1, o1);
      double b = is_float ? ref_tensor_get_fp(in2, o2) : (double)ref_tensor_get_int(in2, o2);
      bool r = false; /* if (isNaN(value1) || isNaN(value2)) result = false */
      if (!isnan(a) && !isnan(b))
         r = op == CMP_EQUAL ? a == b : op == CMP_GREATER ? a > b : a >= b;
      ref_tensor_set_int(out, o, r);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_equal(const struct ref_tensor *input1, const struct ref_tensor *input2,
               struct ref_tensor *output)
{
   return compare(CMP_EQUAL, input1, input2, output);
}

int
tosa_ref_greater(const struct ref_tensor *input1, const struct ref_tensor *input2,
                 struct ref_tensor *output)
{
   return compare(CMP_GREATER, input1, input2, output);
}

int
tosa_ref_greater_equal(const struct ref_tensor *input1, const struct ref_tensor *input2,
                       struct ref_tensor *output)
{
   return compare(CMP_GREATER_EQUAL, input1, input2, output);
}

/* ---------------------------------------------------------------------------------------------
 * SELECT
 */

/* broadcast_shape(shape1, shape2) of broadcast_shape.tosac into rank/shape; its ERROR_IFs. */
static int
broadcast_shape(const char *what, uint32_t rank1, const int64_t *shape1, uint32_t rank2,
                const int64_t *shape2, int64_t *shape)
{
   if (rank1 != rank2)
      return ref_status(TOSA_REF_ERROR,
                        "SELECT: broadcast_shape(%s): ERROR_IF(rank(shape1) != "
                        "rank(shape2)): %u vs %u",
                        what, rank1, rank2);
   for (uint32_t i = 0; i < rank1; i++) {
      shape[i] = shape1[i];
      if (shape[i] == 1)
         shape[i] = shape2[i];
      else if (shape2[i] != 1 && shape2[i] != shape[i])
         return ref_status(TOSA_REF_ERROR,
                           "SELECT: broadcast_shape(%s): ERROR_IF(shape2[%u] != 1 && shape2[%u] "
                           "!= shape[%u]): %lld vs %lld",
                           what, i, i, i, (long long)shape2[i], (long long)shape[i]);
   }
   return TOSA_REF_OK;
}

int
tosa_ref_select(const struct ref_tensor *input1, const struct ref_tensor *input2,
                const struct ref_tensor *input3, struct ref_tensor *output)
{
   if (!ref_tensor_valid(input1) || !ref_tensor_valid(input2) || !ref_tensor_valid(input3) ||
       !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "SELECT: NULL or invalid tensor");
   enum ref_dtype t = input2->dtype;
   bool row = t == REF_DTYPE_BOOL || t == REF_DTYPE_I8 || t == REF_DTYPE_I16 ||
              t == REF_DTYPE_I32 || t == REF_DTYPE_FP16 || t == REF_DTYPE_BF16 ||
              t == REF_DTYPE_FP32;
   if (input1->dtype != REF_DTYPE_BOOL || !row || input3->dtype != t || output->dtype != t)
      return ref_status(TOSA_REF_UNSUPPORTED, "SELECT: no type-support row for %s ? %s : %s -> %s",
                        ref_dtype_name(input1->dtype), ref_dtype_name(t),
                        ref_dtype_name(input3->dtype), ref_dtype_name(output->dtype));

   /* ERROR_IF(shape != broadcast_shape(broadcast_shape(shape1, shape2), shape3)) */
   int64_t s12[REF_MAX_RANK], s123[REF_MAX_RANK];
   int st = broadcast_shape("shape1, shape2", input1->rank, input1->shape, input2->rank,
                            input2->shape, s12);
   if (st == TOSA_REF_OK)
      st = broadcast_shape("..., shape3", input1->rank, s12, input3->rank, input3->shape, s123);
   if (st != TOSA_REF_OK)
      return st;
   bool same = output->rank == input1->rank;
   for (uint32_t i = 0; same && i < output->rank; i++)
      same = output->shape[i] == s123[i];
   if (!same)
      return ref_status(TOSA_REF_ERROR, "SELECT: ERROR_IF(shape != broadcast_shape("
                                        "broadcast_shape(shape1, shape2), shape3))");

   int64_t index[REF_MAX_RANK];
   for (int64_t o = 0; o < output->count; o++) {
      ref_tensor_index(output, o, index);
      bool cond = ref_tensor_get_int(input1, ref_broadcast_offset(output, input1, index)) != 0;
      const struct ref_tensor *from = cond ? input2 : input3;
      uint64_t bits = ref_tensor_get_bits(from, ref_broadcast_offset(output, from, index));
      ref_tensor_set_bits(output, o, t == REF_DTYPE_BOOL ? bits != 0 : bits);
   }
   return TOSA_REF_OK;
}
