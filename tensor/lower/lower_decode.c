/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Decoding and checking of OpTensorReadARM, OpTensorWriteARM and
 * OpTensorQuerySizeARM against SPV_ARM_tensors rev 2 (operand layouts in
 * spec-facts §2.2): the tensor operand must be a ranked tensor value, the
 * coordinates an integer array of length Rank, the result or object the
 * element type or an array of it, and the TensorOperands only those the
 * instruction allows, each followed by its <id>. The analysis runs this on
 * every tensor instruction with the input's word offsets; the access pass
 * decodes again, knowing it will succeed.
 */
#include "tsr_lower_private.h"

#define BAD VK_ERROR_INITIALIZATION_FAILED
#define UNSUPPORTED VK_ERROR_FEATURE_NOT_PRESENT

static bool
decode_tensor(struct tsr_lower *l, const char *op, uint32_t id, uint32_t at, struct tsr_access *a)
{
   uint32_t type = tsr_lower_type_of(l, id);
   if (!type || !tsr_lower_has(l, type, TSR_ID_TENSOR_TYPE))
      return tsr_lower_fail(l, BAD, at, "%s: Tensor %%%u is not a value of OpTypeTensorARM", op,
                            id);
   a->tensor = id;
   a->tt = &l->tensors[l->tensor_of[type]];
   return true;
}

static bool
decode_coords(struct tsr_lower *l, const char *op, uint32_t id, uint32_t at, struct tsr_access *a)
{
   uint32_t type = tsr_lower_type_of(l, id);
   const uint32_t *t = tsr_lower_def_words(l, type);
   if (!t || (t[0] & 0xffffu) != SpvOpTypeArray || (t[0] >> 16) != 4)
      return tsr_lower_fail(l, BAD, at, "%s: Coordinates %%%u is not an array of integers", op, id);
   const uint32_t *e = tsr_lower_def_words(l, t[2]);
   if (!e || (e[0] & 0xffffu) != SpvOpTypeInt || (e[0] >> 16) != 4 ||
       (e[2] != 8 && e[2] != 16 && e[2] != 32 && e[2] != 64))
      return tsr_lower_fail(l, BAD, at, "%s: Coordinates %%%u is not an array of integers", op, id);
   a->coords = id;
   a->coord_type = type;
   a->coord_elem = t[2];
   a->coord_width = e[2];
   a->coord_len_id = t[3];

   uint64_t len = 0;
   bool len_const = tsr_lower_const_uint(l, t[3], &len);
   if (a->tt->rank) {
      if (!len_const || len != a->tt->rank)
         return tsr_lower_fail(l, BAD, at,
                               "%s: Coordinates %%%u has %s%llu elements, the tensor's rank is %u",
                               op, id, len_const ? "" : "a non-constant number of ",
                               (unsigned long long)len, a->tt->rank);
   } else {
      if (len_const && (len < 1 || len > VMEL_TENSOR_MAX_RANK))
         return tsr_lower_fail(l, BAD, at, "%s: Coordinates %%%u has %llu elements", op, id,
                               (unsigned long long)len);
      uint32_t lop = tsr_lower_def_opcode(l, t[3]);
      const uint32_t *lt = tsr_lower_def_words(l, tsr_lower_type_of(l, t[3]));
      if (!lt || (lt[0] & 0xffffu) != SpvOpTypeInt || lt[2] != 32)
         return tsr_lower_fail(l, UNSUPPORTED, at,
                               "%s: Coordinates %%%u: array length is not a 32-bit integer", op,
                               id);
      if (!len_const && lop != SpvOpSpecConstant)
         return tsr_lower_fail(l, UNSUPPORTED, at,
                               "%s: Coordinates %%%u: array length is neither a constant nor a "
                               "specialization constant",
                               op, id);
      if (!len_const && type < l->bound)
         l->flags[type] |= TSR_ID_SPEC_COORDS;
   }
   return true;
}

/* The result (read) or object (write) type: the element type or an array of it. */
static bool
decode_value_type(struct tsr_lower *l, const char *op, uint32_t type, uint32_t at,
                  struct tsr_access *a)
{
   a->value_type = type;
   a->count = 1;
   a->is_array = false;
   if (type == a->tt->elem_type)
      return true;
   const uint32_t *t = tsr_lower_def_words(l, type);
   if (t && (t[0] & 0xffffu) == SpvOpTypeArray && (t[0] >> 16) == 4 && t[2] == a->tt->elem_type) {
      uint64_t len = 0;
      if (!tsr_lower_const_uint(l, t[3], &len))
         return tsr_lower_fail(l, UNSUPPORTED, at,
                               "%s: array form with a length that is not a constant", op);
      if (len < 1 || len > TSR_LOWER_MAX_ACCESS_ELEMENTS)
         return tsr_lower_fail(l, UNSUPPORTED, at,
                               "%s: array form of %llu elements exceeds "
                               "maxTensorShaderAccessArrayLength (%u)",
                               op, (unsigned long long)len, TSR_LOWER_MAX_ACCESS_ELEMENTS);
      a->count = (uint32_t)len;
      a->is_array = true;
      return true;
   }
   return tsr_lower_fail(l, BAD, at,
                         "%s: type %%%u is neither the tensor's element type %%%u nor an array "
                         "of it",
                         op, type, a->tt->elem_type);
}

static bool
decode_operands(struct tsr_lower *l, const char *op, const uint32_t *inst, uint32_t first,
                uint32_t allowed, uint32_t at, struct tsr_access *a)
{
   uint32_t wc = inst[0] >> 16;
   if (wc <= first)
      return true;
   a->mask = inst[first];
   if (a->mask & ~allowed)
      return tsr_lower_fail(l, BAD, at + first, "%s: TensorOperands 0x%x not allowed here", op,
                            a->mask & ~allowed);
   uint32_t k = first + 1;
   static const uint32_t with_id[] = {
       SPV_ARM_TENSOR_OPERANDS_OUT_OF_BOUNDS_VALUE,
       SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE,
       SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE,
   };
   for (uint32_t i = 0; i < 3; i++) {
      if (!(a->mask & with_id[i]))
         continue;
      if (k >= wc)
         return tsr_lower_fail(l, BAD, at, "%s: TensorOperands 0x%x: operand <id> missing", op,
                               with_id[i]);
      uint32_t id = inst[k++];
      if (!tsr_lower_def(l, id))
         return tsr_lower_fail(l, BAD, at + k - 1, "%s: operand %%%u is not defined", op, id);
      if (i == 0)
         a->oob_value = id;
      else if (i == 1)
         a->scope_available = id;
      else
         a->scope_visible = id;
   }
   if (k != wc)
      return tsr_lower_fail(l, BAD, at, "%s: %u extra word(s) after the TensorOperands' operands",
                            op, wc - k);
   uint32_t make = SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE |
                   SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE;
   if ((a->mask & make) && !(a->mask & SPV_ARM_TENSOR_OPERANDS_NON_PRIVATE_ELEMENT))
      return tsr_lower_fail(l, BAD, at + first,
                            "%s: MakeElementAvailable/VisibleARM requires NonPrivateElementARM",
                            op);
   if ((a->mask & make) && l->memory_model != SpvMemoryModelVulkan)
      return tsr_lower_fail(l, BAD, at + first,
                            "%s: MakeElementAvailable/VisibleARM requires the Vulkan memory model",
                            op);
   if (a->oob_value) {
      uint32_t t = tsr_lower_type_of(l, a->oob_value);
      if (t == a->tt->elem_type)
         a->oob_is_array = false;
      else if (a->is_array && t == a->value_type)
         a->oob_is_array = true;
      else
         return tsr_lower_fail(l, BAD, at,
                               "%s: OutOfBoundsValueARM %%%u is not of the element type %%%u", op,
                               a->oob_value, a->tt->elem_type);
   }
   return true;
}

static bool
decode_query(struct tsr_lower *l, const uint32_t *inst, uint32_t at, struct tsr_access *a)
{
   const char *op = "OpTensorQuerySizeARM";
   if ((inst[0] >> 16) != 5)
      return tsr_lower_fail(l, BAD, at, "%s: word count %u is not 5", op, inst[0] >> 16);
   a->result_type = inst[1];
   a->result = inst[2];
   enum tsr_elem_kind kind;
   uint32_t bits;
   if (!tsr_lower_scalar_kind(l, a->result_type, &kind, &bits) || kind != TSR_ELEM_INT)
      return tsr_lower_fail(l, BAD, at, "%s: Result Type %%%u is not an integer scalar", op,
                            a->result_type);
   if (!decode_tensor(l, op, inst[3], at, a))
      return false;
   a->dim_id = inst[4];
   a->dim = UINT32_MAX;
   uint64_t dim = 0;
   if (tsr_lower_const_uint(l, inst[4], &dim)) {
      if (a->tt->rank ? dim >= a->tt->rank : dim >= VMEL_TENSOR_MAX_RANK)
         return tsr_lower_fail(l, BAD, at + 4, "%s: Dimension %llu is not below the rank %u", op,
                               (unsigned long long)dim,
                               a->tt->rank ? a->tt->rank : VMEL_TENSOR_MAX_RANK);
      a->dim = (uint32_t)dim;
      return true;
   }
   const uint32_t *d = tsr_lower_def_words(l, inst[4]);
   const uint32_t *dt = d ? tsr_lower_def_words(l, d[1]) : NULL;
   if (!d || (d[0] & 0xffffu) != SpvOpSpecConstant || !dt || (dt[0] & 0xffffu) != SpvOpTypeInt ||
       dt[2] != 32)
      return tsr_lower_fail(l, BAD, at + 4,
                            "%s: Dimension %%%u is not a 32-bit integer constant or "
                            "specialization constant",
                            op, inst[4]);
   return true;
}

bool
tsr_lower_decode_access(struct tsr_lower *l, const uint32_t *inst, uint32_t offset,
                        struct tsr_access *a)
{
   uint32_t opcode = inst[0] & 0xffffu, wc = inst[0] >> 16;
   *a = (struct tsr_access){.opcode = opcode, .dim = UINT32_MAX};
   const char *op = tsr_lower_op_name(opcode);
   switch (opcode) {
   case SPV_ARM_OP_TENSOR_READ:
      if (wc < 5)
         return tsr_lower_fail(l, BAD, offset, "%s: word count %u is below 5", op, wc);
      a->result_type = inst[1];
      a->result = inst[2];
      return decode_tensor(l, op, inst[3], offset, a) && decode_coords(l, op, inst[4], offset, a) &&
             decode_value_type(l, op, inst[1], offset, a) &&
             decode_operands(l, op, inst, 5,
                             SPV_ARM_TENSOR_OPERANDS_NONTEMPORAL |
                                 SPV_ARM_TENSOR_OPERANDS_OUT_OF_BOUNDS_VALUE |
                                 SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE |
                                 SPV_ARM_TENSOR_OPERANDS_NON_PRIVATE_ELEMENT,
                             offset, a);
   case SPV_ARM_OP_TENSOR_WRITE: {
      if (wc < 4)
         return tsr_lower_fail(l, BAD, offset, "%s: word count %u is below 4", op, wc);
      a->object = inst[3];
      uint32_t type = tsr_lower_type_of(l, inst[3]);
      if (!type)
         return tsr_lower_fail(l, BAD, offset + 3, "%s: Object %%%u has no type", op, inst[3]);
      return decode_tensor(l, op, inst[1], offset, a) && decode_coords(l, op, inst[2], offset, a) &&
             decode_value_type(l, op, type, offset, a) &&
             decode_operands(l, op, inst, 4,
                             SPV_ARM_TENSOR_OPERANDS_NONTEMPORAL |
                                 SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE |
                                 SPV_ARM_TENSOR_OPERANDS_NON_PRIVATE_ELEMENT,
                             offset, a);
   }
   case SPV_ARM_OP_TENSOR_QUERY_SIZE:
      return decode_query(l, inst, offset, a);
   default:
      return tsr_lower_fail(l, BAD, offset, "opcode %u is not a tensor access", opcode);
   }
}
