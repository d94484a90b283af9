/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Validation of the lookup and conversion operators: TABLE (TOSA 1.0.1 "Elementwise Binary
 * Operators", TABLE.tosac and apply_lookup_s of introduction.adoc). CAST needs none: its
 * rows and its output shape (the input's) are all in its declaration (tosa_ops.def), and
 * CAST.tosac has no ERROR_IF of its own.
 *
 * TABLE's table is a compile-time constant (TOSA.001000.1: a constant instruction); checked
 * here at creation, as the project does every REQUIRE on a constant:
 *  - REQUIRE(length(table) == TABLE_SIZE): 256 for i8, 513 for i16 (the type-support
 *    table's TABLE_SIZE column);
 *  - apply_lookup_s's REQUIRE(slope >= minimum<int16_t> && slope <= maximum<int16_t>) for
 *    every slope table[i + 1] - table[i], i = 0..511: every index is reachable (index =
 *    (in + 32768) >> 7 takes each of 0..511), so a table with one bad slope is rejected
 *    whatever the data.
 */
#include "dg_op.h"

#define DG_TABLE_SIZE_I8 256u
#define DG_TABLE_SIZE_I16 513u

VkResult
dg_op_table_validate(struct dg_op_ctx *c)
{
   struct dg_tensor_type ty;
   uint8_t data[DG_TABLE_SIZE_I16 * sizeof(int16_t)];
   char s[96];
   /* A tensor operand of the node (the kernel binds it), which must be a constant. */
   VkResult result = dg_op_const_type(c, DG_OPND_TABLE_table, "table", &ty);
   if (result != VK_SUCCESS)
      return result;
   uint32_t size = ty.type == DG_TYPE_I8 ? DG_TABLE_SIZE_I8 : DG_TABLE_SIZE_I16;
   if (ty.shape.rank != 1 || ty.shape.dim[0] != size)
      return dg_op_fail(c, DG_ERR_OP_SHAPE,
                        "REQUIRE(length(table) == TABLE_SIZE): table is %s %s; TABLE_SIZE is %u "
                        "for %s",
                        dg_type_name(ty.type), dg_shape_str(&ty.shape, s, sizeof(s)), size,
                        dg_type_name(ty.type));
   if (ty.type != DG_TYPE_I16)
      return VK_SUCCESS;
   if ((result = dg_op_const_data(c, DG_OPND_TABLE_table, &ty, data)) != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i + 1 < size; i++) {
      int64_t base = dg_elem_int(DG_TYPE_I16, data, i);
      int64_t next = dg_elem_int(DG_TYPE_I16, data, i + 1);
      int64_t slope = next - base;
      if (slope < INT16_MIN || slope > INT16_MAX)
         return dg_op_fail(c, DG_ERR_OP_REQUIRE,
                           "apply_lookup_s: REQUIRE(slope >= minimum<int16_t> && slope <= "
                           "maximum<int16_t>): table[%u] = %" PRId64 ", table[%u] = %" PRId64
                           ": slope %" PRId64,
                           i, base, i + 1, next, slope);
   }
   return VK_SUCCESS;
}
