/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Address arithmetic on the tensor record for one access (SPV_ARM_tensors
 * rev 2, "OpTensorReadARM"/"OpTensorWriteARM"): the coordinates, read as
 * unsigned integers, are in bounds when each is below its dimension; the
 * element lies at address + Σ coord[i] * stride[i] (byte strides, outermost
 * first); element k of the array form lies k strides further along the
 * innermost dimension and is in bounds when coord[inner] + k < dims[inner].
 * Offsets fit 32 bits (the record's strides do, and tensors are at most
 * maxTensorSize bytes); the 64-bit address is formed with a carry and cast to
 * a PhysicalStorageBuffer pointer (a uvec2 from SPIR-V 1.5, a uint64 before).
 *
 * With a specialization-constant rank the number of coordinates is unknown
 * here, so the coordinate array goes through a Function variable and all
 * VMEL_TENSOR_MAX_RANK positions are read with clamped indices; unused ones
 * count as 0, which the record's unused entries (dimension 1, stride 0) make
 * harmless.
 */
#include "tsr_lower_private.h"

static uint32_t
u32_type(struct tsr_lower *l)
{
   return spirv_get_type_int(&l->b, 32, false);
}

static uint32_t
cu32(struct tsr_lower *l, uint32_t v)
{
   return spirv_get_const_u32(&l->b, v);
}

/* OpCompositeExtract %uint record member [index]. */
static uint32_t
record_word(struct tsr_lower *l, uint32_t record, uint32_t member, uint32_t index)
{
   uint32_t ops[3] = {record, member, index};
   return tsr_op(l, SpvOpCompositeExtract, u32_type(l), ops, 3);
}

/* Picks x[idx] for a run-time idx in 0..VMEL_TENSOR_MAX_RANK-1. */
static uint32_t
select_by_index(struct tsr_lower *l, uint32_t idx, const uint32_t *x)
{
   uint32_t boolean = spirv_get_type_bool(&l->b);
   uint32_t v = x[0];
   for (uint32_t i = 1; i < VMEL_TENSOR_MAX_RANK; i++) {
      uint32_t eq = tsr_op2(l, SpvOpIEqual, boolean, idx, cu32(l, i));
      v = tsr_op3(l, SpvOpSelect, u32_type(l), eq, x[i], v);
   }
   return v;
}

/* The raw coordinates (in the coordinates' own type) with a spec-constant rank. */
static void
gather_spec_coords(struct tsr_lower *l, const struct tsr_access *a, uint32_t *raw)
{
   struct spirv_builder *b = &l->b;
   uint32_t boolean = spirv_get_type_bool(b);
   uint32_t var = tsr_lower_blocks_add_variable(
       l, spirv_get_type_pointer(b, SpvStorageClassFunction, a->coord_type));
   uint32_t store[2] = {var, a->coords};
   spirv_build_op(b, SPIRV_SECTION_FUNCTION, SpvOpStore, store, 2);
   uint32_t ptr_elem = spirv_get_type_pointer(b, SpvStorageClassFunction, a->coord_elem);
   uint32_t last = tsr_op2(l, SpvOpISub, u32_type(l), a->coord_len_id, cu32(l, 1));
   uint32_t zero = spirv_get_const_null(b, a->coord_elem);
   for (uint32_t i = 0; i < VMEL_TENSOR_MAX_RANK; i++) {
      uint32_t fits = tsr_op2(l, SpvOpULessThan, boolean, cu32(l, i), a->coord_len_id);
      uint32_t idx = tsr_op3(l, SpvOpSelect, u32_type(l), fits, cu32(l, i), last);
      uint32_t ptr = tsr_op2(l, SpvOpAccessChain, ptr_elem, var, idx);
      uint32_t value = tsr_op1(l, SpvOpLoad, a->coord_elem, ptr);
      uint32_t active = tsr_op2(l, SpvOpULessThan, boolean, cu32(l, i), a->tt->rank_id);
      raw[i] = tsr_op3(l, SpvOpSelect, a->coord_elem, active, value, zero);
   }
}

void
tsr_lower_address(struct tsr_lower *l, const struct tsr_access *a, struct tsr_address *ad)
{
   struct spirv_builder *b = &l->b;
   const struct tsr_tensor_type *tt = a->tt;
   uint32_t u32 = u32_type(l), boolean = spirv_get_type_bool(b);
   uint32_t record = a->tensor;
   uint32_t n = tt->rank ? tt->rank : VMEL_TENSOR_MAX_RANK;
   uint32_t raw[VMEL_TENSOR_MAX_RANK], c[VMEL_TENSOR_MAX_RANK];
   uint32_t dims[VMEL_TENSOR_MAX_RANK], strides[VMEL_TENSOR_MAX_RANK];

   ad->base_lo = record_word(l, record, 0, 0);
   ad->base_hi = record_word(l, record, 0, 1);
   if (tt->rank) {
      for (uint32_t i = 0; i < n; i++) {
         uint32_t ops[2] = {a->coords, i};
         raw[i] = tsr_op(l, SpvOpCompositeExtract, a->coord_elem, ops, 2);
      }
   } else {
      gather_spec_coords(l, a, raw);
   }

   ad->in_bounds = 0;
   ad->offset = 0;
   for (uint32_t i = 0; i < n; i++) {
      dims[i] = record_word(l, record, 3, i);
      strides[i] = record_word(l, record, 4, i);
      uint32_t inb = 0;
      if (a->coord_width == 64) {
         uint32_t u64 = spirv_get_type_int(b, 64, false);
         inb = tsr_op2(l, SpvOpULessThan, boolean, raw[i], tsr_op1(l, SpvOpUConvert, u64, dims[i]));
      }
      c[i] = a->coord_width == 32 ? raw[i] : tsr_op1(l, SpvOpUConvert, u32, raw[i]);
      if (a->coord_width != 64)
         inb = tsr_op2(l, SpvOpULessThan, boolean, c[i], dims[i]);
      ad->in_bounds = i ? tsr_op2(l, SpvOpLogicalAnd, boolean, ad->in_bounds, inb) : inb;
      uint32_t term = tsr_op2(l, SpvOpIMul, u32, c[i], strides[i]);
      ad->offset = i ? tsr_op2(l, SpvOpIAdd, u32, ad->offset, term) : term;
   }

   ad->inner_room = 0;
   ad->inner_stride = 0;
   if (a->count > 1) {
      uint32_t inner_c, inner_dim;
      if (tt->rank) {
         inner_c = c[n - 1];
         inner_dim = dims[n - 1];
         ad->inner_stride = strides[n - 1];
      } else {
         uint32_t idx = tsr_op2(l, SpvOpISub, u32, tt->rank_id, cu32(l, 1));
         inner_c = select_by_index(l, idx, c);
         inner_dim = select_by_index(l, idx, dims);
         ad->inner_stride = select_by_index(l, idx, strides);
      }
      ad->inner_room = tsr_op2(l, SpvOpISub, u32, inner_dim, inner_c);
   }
}

uint32_t
tsr_lower_element_pointer(struct tsr_lower *l, const struct tsr_address *ad, uint32_t k,
                          uint32_t ptr_type)
{
   struct spirv_builder *b = &l->b;
   uint32_t u32 = u32_type(l);
   uint32_t offset = ad->offset;
   if (k)
      offset = tsr_op2(l, SpvOpIAdd, u32, offset,
                       tsr_op2(l, SpvOpIMul, u32, cu32(l, k), ad->inner_stride));
   if (!l->carry_struct) {
      uint32_t members[2] = {u32, u32};
      l->carry_struct = spirv_build_type_struct(b, members, 2, NULL);
   }
   uint32_t sum = tsr_op2(l, SpvOpIAddCarry, l->carry_struct, ad->base_lo, offset);
   uint32_t lo_ops[2] = {sum, 0}, carry_ops[2] = {sum, 1};
   uint32_t lo = tsr_op(l, SpvOpCompositeExtract, u32, lo_ops, 2);
   uint32_t carry = tsr_op(l, SpvOpCompositeExtract, u32, carry_ops, 2);
   uint32_t hi = tsr_op2(l, SpvOpIAdd, u32, ad->base_hi, carry);
   uint32_t v2 = tsr_op2(l, SpvOpCompositeConstruct, spirv_get_type_vector(b, u32, 2), lo, hi);
   if (l->b.version >= 0x00010500u)
      return tsr_op1(l, SpvOpBitcast, ptr_type, v2);
   uint32_t u64 = tsr_op1(l, SpvOpBitcast, spirv_get_type_int(b, 64, false), v2);
   return tsr_op1(l, SpvOpBitcast, ptr_type, u64);
}

uint32_t
tsr_lower_record_dim(struct tsr_lower *l, uint32_t record, uint32_t dim, uint32_t dim_id)
{
   if (dim != UINT32_MAX)
      return record_word(l, record, 3, dim);
   uint32_t dims[VMEL_TENSOR_MAX_RANK];
   for (uint32_t i = 0; i < VMEL_TENSOR_MAX_RANK; i++)
      dims[i] = record_word(l, record, 3, i);
   return select_by_index(l, dim_id, dims);
}
