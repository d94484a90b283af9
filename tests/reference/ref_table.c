/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TABLE of the reference (TOSA 1.0.1 chapters/ewise_binary.adoc, pseudocode/operators/
 * TABLE.tosac, apply_lookup_s of chapters/introduction.adoc), bit-exact. The table is a
 * compile-time constant (tosa.xml: ctc for PRO-INT), so its REQUIREs are decided on the whole
 * table before any element is read, and a failure is an invalid graph (TOSA_REF_ERROR, see
 * tosa_ref.h).
 */
#include "ref_internal.h"

/* apply_lookup_s: the 16.7 interpolation of a 513-entry table at value (clipped to i16). */
static int32_t
lookup_s(const struct ref_tensor *table, int64_t value)
{
   int64_t clipped = value < -32768 ? -32768 : value > 32767 ? 32767 : value;
   /* clipped + 32768 >= 0, and 32768 is a multiple of 128: its low 7 bits are those of the
    * two's complement value (value & 0x7f) */
   int64_t index = (clipped + 32768) >> 7;
   int64_t fraction = (clipped + 32768) & 0x7f;
   int64_t base = ref_tensor_get_int(table, index);
   int64_t next = ref_tensor_get_int(table, index + 1);
   int64_t slope = next - base;
   /* base * 2^7 fits 23 bits and slope * fraction 16 + 7 bits (slope checked): int32 math. */
   return (int32_t)(base * 128 + slope * fraction);
}

int
tosa_ref_table(const struct ref_tensor *input1, const struct ref_tensor *table,
               struct ref_tensor *output)
{
   if (!ref_tensor_valid(input1) || !ref_tensor_valid(table) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "TABLE: NULL or invalid tensor");
   bool i8 = input1->dtype == REF_DTYPE_I8 && table->dtype == REF_DTYPE_I8 &&
             output->dtype == REF_DTYPE_I8;
   bool i16 = input1->dtype == REF_DTYPE_I16 && table->dtype == REF_DTYPE_I16 &&
              output->dtype == REF_DTYPE_I32;
   if (!i8 && !i16)
      return ref_status(TOSA_REF_UNSUPPORTED, "TABLE: no type-support row for %s, table %s -> %s",
                        ref_dtype_name(input1->dtype), ref_dtype_name(table->dtype),
                        ref_dtype_name(output->dtype));
   int64_t table_size = i8 ? 256 : 513;
   char a[96], b[96];
   if (table->rank != 1 || table->count != table_size)
      return ref_status(TOSA_REF_ERROR,
                        "TABLE: REQUIRE(length(table) == TABLE_SIZE) on the constant table: %s "
                        "table of shape %s, TABLE_SIZE %lld",
                        ref_dtype_name(table->dtype), ref_shape_str(table, a, sizeof(a)),
                        (long long)table_size);
   if (!ref_same_shape(input1, output))
      return ref_status(TOSA_REF_ERROR, "TABLE: the output shape %s is not the input's %s",
                        ref_shape_str(output, a, sizeof(a)), ref_shape_str(input1, b, sizeof(b)));
   if (i16) {
      /* apply_lookup_s: REQUIRE(slope >= minimum<int16_t> && slope <= maximum<int16_t>), for
       * every index 0..511 that (value + 32768) >> 7 can give. */
      for (int64_t i = 0; i + 1 < table_size; i++) {
         int64_t slope = ref_tensor_get_int(table, i + 1) - ref_tensor_get_int(table, i);
         if (slope < INT16_MIN || slope > INT16_MAX)
            return ref_status(TOSA_REF_ERROR,
                              "TABLE: REQUIRE(slope fits int16_t) on the constant table: "
                              "table[%lld] - table[%lld] = %lld",
                              (long long)(i + 1), (long long)i, (long long)slope);
      }
   }
   for (int64_t i = 0; i < input1->count; i++) {
      int64_t value = ref_tensor_get_int(input1, i);
      if (i8)
         ref_tensor_set_int(output, i, ref_tensor_get_int(table, value + 128));
      else
         ref_tensor_set_int(output, i, lookup_s(table, value));
   }
   return TOSA_REF_OK;
}
