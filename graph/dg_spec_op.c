/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * OpSpecConstantOp on scalars: the integer and boolean operations the
 * Vulkan environment allows in specialization-constant expressions
 * (conversions, arithmetic, shifts, bitwise, logical, comparisons, Select),
 * evaluated at pipeline creation after specialization, so that a constant
 * operand computed from specialization constants (a RESHAPE dimension that
 * is batch * rows, a shift) is a constant like any other (D23). Integers
 * wrap at their width (two's complement); what SPIR-V leaves undefined
 * (division by zero, INT_MIN / -1, a shift by the width or more) is refused
 * with the values. Float operations and composite operations are refused.
 */
#include <inttypes.h>

#include "dg_decode_private.h"
#include "ops/dg_op.h"

enum {
   OP_UCONVERT = 113,
   OP_SCONVERT = 114,
   OP_SNEGATE = 126,
   OP_IADD = 128,
   OP_ISUB = 130,
   OP_IMUL = 132,
   OP_UDIV = 134,
   OP_SDIV = 135,
   OP_UMOD = 137,
   OP_SREM = 138,
   OP_SMOD = 139,
   OP_LOGICAL_EQUAL = 164,
   OP_LOGICAL_NOT_EQUAL = 165,
   OP_LOGICAL_OR = 166,
   OP_LOGICAL_AND = 167,
   OP_LOGICAL_NOT = 168,
   OP_SELECT = 169,
   OP_IEQUAL = 170,
   OP_INOT_EQUAL = 171,
   OP_UGREATER_THAN = 172,
   OP_SGREATER_THAN = 173,
   OP_UGREATER_THAN_EQUAL = 174,
   OP_SGREATER_THAN_EQUAL = 175,
   OP_ULESS_THAN = 176,
   OP_SLESS_THAN = 177,
   OP_ULESS_THAN_EQUAL = 178,
   OP_SLESS_THAN_EQUAL = 179,
   OP_SHIFT_RIGHT_LOGICAL = 194,
   OP_SHIFT_RIGHT_ARITHMETIC = 195,
   OP_SHIFT_LEFT_LOGICAL = 196,
   OP_BITWISE_OR = 197,
   OP_BITWISE_XOR = 198,
   OP_BITWISE_AND = 199,
   OP_NOT = 200,
};

/* Expressions nest this deep at most (a guard against cycles in malformed modules). */
#define SPEC_OP_MAX_DEPTH 32

static uint32_t
operand_count(uint32_t opcode)
{
   switch (opcode) {
   case OP_UCONVERT:
   case OP_SCONVERT:
   case OP_SNEGATE:
   case OP_NOT:
   case OP_LOGICAL_NOT:
      return 1;
   case OP_SELECT:
      return 3;
   default:
      return 2;
   }
}

static bool
is_comparison(uint32_t opcode)
{
   return (opcode >= OP_LOGICAL_EQUAL && opcode <= OP_LOGICAL_AND && opcode != OP_SELECT) ||
          (opcode >= OP_IEQUAL && opcode <= OP_SLESS_THAN_EQUAL);
}

static bool
is_logical(uint32_t opcode)
{
   return opcode >= OP_LOGICAL_EQUAL && opcode <= OP_LOGICAL_NOT;
}

/* Integer operations on a, b of width w (operand width; bits zero-extended). */
static VkResult
integer_op(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id, uint32_t opcode,
           uint64_t a, uint64_t b, uint32_t w, uint64_t *out)
{
   int64_t sa = dg_sign_extend(a, w), sb = dg_sign_extend(b, w);
   int64_t min = w >= 64 ? INT64_MIN : -(int64_t)(1ull << (w - 1));
   switch (opcode) {
   case OP_SNEGATE: *out = (uint64_t)0 - a; return VK_SUCCESS;
   case OP_NOT: *out = ~a; return VK_SUCCESS;
   case OP_IADD: *out = a + b; return VK_SUCCESS;
   case OP_ISUB: *out = a - b; return VK_SUCCESS;
   case OP_IMUL: *out = a * b; return VK_SUCCESS;
   case OP_BITWISE_OR: *out = a | b; return VK_SUCCESS;
   case OP_BITWISE_XOR: *out = a ^ b; return VK_SUCCESS;
   case OP_BITWISE_AND: *out = a & b; return VK_SUCCESS;
   case OP_IEQUAL: *out = a == b; return VK_SUCCESS;
   case OP_INOT_EQUAL: *out = a != b; return VK_SUCCESS;
   case OP_UGREATER_THAN: *out = a > b; return VK_SUCCESS;
   case OP_SGREATER_THAN: *out = sa > sb; return VK_SUCCESS;
   case OP_UGREATER_THAN_EQUAL: *out = a >= b; return VK_SUCCESS;
   case OP_SGREATER_THAN_EQUAL: *out = sa >= sb; return VK_SUCCESS;
   case OP_ULESS_THAN: *out = a < b; return VK_SUCCESS;
   case OP_SLESS_THAN: *out = sa < sb; return VK_SUCCESS;
   case OP_ULESS_THAN_EQUAL: *out = a <= b; return VK_SUCCESS;
   case OP_SLESS_THAN_EQUAL: *out = sa <= sb; return VK_SUCCESS;
   case OP_SHIFT_RIGHT_LOGICAL:
   case OP_SHIFT_RIGHT_ARITHMETIC:
   case OP_SHIFT_LEFT_LOGICAL:
      if (b >= w)
         return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                        "OpSpecConstantOp %%%u: shift by %" PRIu64 " of a %u-bit integer is "
                        "undefined",
                        id, b, w);
      *out = opcode == OP_SHIFT_LEFT_LOGICAL      ? a << b
             : opcode == OP_SHIFT_RIGHT_LOGICAL ? a >> b
                                                : (uint64_t)(sa >> b);
      return VK_SUCCESS;
   case OP_UDIV:
   case OP_UMOD:
   case OP_SDIV:
   case OP_SREM:
   case OP_SMOD:
      if (b == 0)
         return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                        "OpSpecConstantOp %%%u: division of %" PRId64 " by 0 is undefined", id, sa);
      if ((opcode == OP_SDIV || opcode == OP_SREM || opcode == OP_SMOD) && sa == min && sb == -1)
         return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                        "OpSpecConstantOp %%%u: %" PRId64 " / -1 overflows %u bits", id, sa, w);
      if (opcode == OP_UDIV)
         *out = a / b;
      else if (opcode == OP_UMOD)
         *out = a % b;
      else if (opcode == OP_SDIV)
         *out = (uint64_t)(sa / sb);
      else if (opcode == OP_SREM)
         *out = (uint64_t)(sa % sb); /* the sign of the dividend */
      else {
         int64_t r = sa % sb; /* SMod: the sign of the divisor */
         if (r != 0 && ((r < 0) != (sb < 0)))
            r += sb;
         *out = (uint64_t)r;
      }
      return VK_SUCCESS;
   default:
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u: opcode %u is not an integer or boolean operation "
                     "this layer evaluates",
                     id, opcode);
   }
}

VkResult
dg_eval_spec_op(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                const struct spirv_inst *def, struct dg_scalar *s)
{
   uint32_t opcode;
   VkResult result = dg_word(d, def, 3, &opcode);
   if (result != VK_SUCCESS)
      return result;
   uint32_t n = operand_count(opcode);
   if (def->word_count != 4 + n)
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u: opcode %u takes %u operands, not %u", id, opcode, n,
                     def->word_count - 4u);
   if (s->opcode == DG_SPV_TYPE_FLOAT)
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u: floating-point results are not evaluated", id);
   if (d->spec_op_depth >= SPEC_OP_MAX_DEPTH)
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u: expressions nest deeper than %u", id,
                     SPEC_OP_MAX_DEPTH);
   struct dg_scalar v[3];
   d->spec_op_depth++;
   for (uint32_t i = 0; i < n && result == VK_SUCCESS; i++) {
      uint32_t operand;
      if ((result = dg_word(d, def, 4 + i, &operand)) == VK_SUCCESS)
         result = dg_eval_scalar(d, user, operand, &v[i]);
   }
   d->spec_op_depth--;
   if (result != VK_SUCCESS)
      return result;
   for (uint32_t i = 0; i < n; i++) {
      if (v[i].opcode == DG_SPV_TYPE_FLOAT)
         return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                        "OpSpecConstantOp %%%u: operand %u is a float", id, i);
   }
   bool want_bool = is_comparison(opcode) || opcode == OP_LOGICAL_NOT;
   if (want_bool != (s->opcode == DG_SPV_TYPE_BOOL) && opcode != OP_SELECT)
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u: opcode %u and its result type disagree", id, opcode);

   if (opcode == OP_SELECT) {
      if (v[0].opcode != DG_SPV_TYPE_BOOL || v[1].opcode != s->opcode ||
          v[2].opcode != s->opcode || v[1].width != s->width || v[2].width != s->width)
         return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                        "OpSpecConstantOp %%%u: Select needs a boolean condition and two "
                        "objects of the result type",
                        id);
      s->bits = v[0].bits ? v[1].bits : v[2].bits;
      return VK_SUCCESS;
   }
   if (is_logical(opcode)) {
      for (uint32_t i = 0; i < n; i++) {
         if (v[i].opcode != DG_SPV_TYPE_BOOL)
            return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                           "OpSpecConstantOp %%%u: logical opcode %u needs boolean operands", id,
                           opcode);
      }
      bool a = v[0].bits != 0, b = n > 1 && v[1].bits != 0;
      s->bits = opcode == OP_LOGICAL_EQUAL       ? a == b
                : opcode == OP_LOGICAL_NOT_EQUAL ? a != b
                : opcode == OP_LOGICAL_OR        ? (a || b)
                : opcode == OP_LOGICAL_AND       ? (a && b)
                                                 : !a;
      return VK_SUCCESS;
   }
   for (uint32_t i = 0; i < n; i++) {
      if (v[i].opcode != DG_SPV_TYPE_INT)
         return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                        "OpSpecConstantOp %%%u: opcode %u needs integer operands", id, opcode);
   }
   if (opcode == OP_UCONVERT || opcode == OP_SCONVERT) {
      s->bits = opcode == OP_SCONVERT ? (uint64_t)dg_sign_extend(v[0].bits, v[0].width) : v[0].bits;
      return VK_SUCCESS; /* truncated to the result width by the caller */
   }
   /* Shifts may mix widths (Shift is any integer); everything else takes equal widths. */
   bool shift = opcode >= OP_SHIFT_RIGHT_LOGICAL && opcode <= OP_SHIFT_LEFT_LOGICAL;
   if (n == 2 && !shift && v[0].width != v[1].width)
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u: operands of %u and %u bits", id, v[0].width,
                     v[1].width);
   uint64_t b = n > 1 ? v[1].bits : 0;
   return integer_op(d, user, id, opcode, v[0].bits, b, v[0].width, &s->bits);
}
