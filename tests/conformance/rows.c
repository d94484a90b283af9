/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The conformance runner's type rows against the operator declarations (graph/ops/
 * tosa_ops.def, read through the graph layer's own tables): every declared row of every
 * operator the runner generates cases for must have a VALID case, and every VALID case must
 * match a declared row. So a row added to a declaration without cases, or a case of a row the
 * layer does not declare, fails `vmel-conformance --check-rows` (CTest: unit.conformance_rows).
 */
#include <stdio.h>
#include <string.h>

#include "conformance.h"
#include "dg_op.h"

/* ref_dtype and dg_type list the element types in the same order. */
static uint8_t
dg_of(enum ref_dtype t)
{
   return (uint8_t)(t + 1);
}

static uint8_t
input_type(const struct gt_op *op, uint32_t i)
{
   const struct gt_input *in = &op->inputs[i];
   return dg_of(in->alias ? op->inputs[in->alias - 1].type.dtype : in->type.dtype);
}

/* The case's values of the declared columns (operands flagged COL in operand order, then
 * the output), or 0 columns for an operator it does not know. */
static uint32_t
case_columns(const struct gt_op *op, uint8_t *col)
{
   uint32_t n = 0;
   switch (op->op) {
   case TOSA_REF_OP_ADD:
   case TOSA_REF_OP_SUB:
   case TOSA_REF_OP_MUL:
      col[n++] = input_type(op, 0);
      col[n++] = input_type(op, 1);
      break;
   case TOSA_REF_OP_CLAMP:
      col[n++] = dg_of(op->attr.clamp.min_val.dtype);
      col[n++] = dg_of(op->attr.clamp.max_val.dtype);
      col[n++] = input_type(op, 0);
      break;
   case TOSA_REF_OP_RESHAPE:
   case TOSA_REF_OP_MAX_POOL2D:
      col[n++] = input_type(op, 0);
      break;
   case TOSA_REF_OP_CONCAT:
      break;
   case TOSA_REF_OP_CONV2D:
      col[n++] = DG_ROW_ACC(op->attr.conv2d.acc_type);
      col[n++] = input_type(op, 0);
      col[n++] = input_type(op, 1);
      col[n++] = input_type(op, 2);
      col[n++] = dg_of(op->attr.conv2d.input_zp.dtype);
      col[n++] = dg_of(op->attr.conv2d.weight_zp.dtype);
      break;
   case TOSA_REF_OP_MATMUL:
      col[n++] = input_type(op, 0);
      col[n++] = input_type(op, 1);
      col[n++] = dg_of(op->attr.matmul.a_zp.dtype);
      col[n++] = dg_of(op->attr.matmul.b_zp.dtype);
      break;
   case TOSA_REF_OP_RESCALE:
      col[n++] = input_type(op, 0);
      col[n++] = dg_of(op->attr.rescale.input_zp.dtype);
      col[n++] = dg_of(op->attr.rescale.output_zp.dtype);
      break;
   default:
      return 0;
   }
   col[n++] = dg_of(op->output.dtype);
   return n;
}

static const struct dg_op_info *
declared_op(enum tosa_ref_op op)
{
   const char *name = gt_op_name(op);
   for (uint32_t i = 0; name && i < DG_OP_COUNT; i++) {
      const struct dg_op_info *info = dg_op_get((enum dg_op)i);
      if (!strcmp(info->name, name))
         return info;
   }
   return NULL;
}

int
conf_check_rows(const struct conf_list *all)
{
   uint32_t rows = dg_op_row_count(), problems = 0, checked = 0;
   bool covered[512] = {0};
   if (rows > sizeof(covered) / sizeof(covered[0])) {
      fprintf(stderr, "vmel-conformance: %u declared rows, more than this check holds\n", rows);
      return 2;
   }
   bool op_has_cases[DG_OP_COUNT] = {0};
   for (size_t i = 0; i < all->count; i++) {
      const struct conf_case *c = &all->v[i];
      const struct dg_op_info *info = declared_op(c->op.op);
      if (!info) {
         printf("case %s: operator %s is not declared\n", c->name, gt_op_name(c->op.op));
         problems++;
         continue;
      }
      op_has_cases[info->op] = true;
      if (c->intent != CONF_VALID)
         continue;
      uint8_t col[DG_ROW_MAX_COLS];
      uint32_t n = case_columns(&c->op, col);
      if (n != info->col_count) {
         printf("case %s: %u column values, the declaration of %s has %u\n", c->name, n,
                info->name, info->col_count);
         problems++;
         continue;
      }
      bool found = false;
      for (uint32_t r = 0; r < info->row_count && !found; r++) {
         if (!memcmp(info->rows[r].col, col, n)) {
            covered[info->first_row + r] = true;
            found = true;
         }
      }
      if (!found) {
         printf("case %s: its types are in no declared row of %s\n", c->name, info->name);
         problems++;
      }
      checked++;
   }
   for (uint32_t o = 0; o < DG_OP_COUNT; o++) {
      const struct dg_op_info *info = dg_op_get((enum dg_op)o);
      if (!op_has_cases[o]) {
         printf("%s: no conformance cases (its tests are .optest data)\n", info->name);
         continue;
      }
      for (uint32_t r = 0; r < info->row_count; r++) {
         if (covered[info->first_row + r])
            continue;
         printf("%s: declared row %u has no valid case:", info->name, r);
         for (uint32_t k = 0; k < info->col_count; k++)
            printf(" %s=0x%x", info->col_names[k], info->rows[r].col[k]);
         printf("\n");
         problems++;
      }
   }
   printf("row check: %u valid cases against %u declared rows: %u problems\n", checked, rows,
          problems);
   return problems ? 1 : 0;
}
