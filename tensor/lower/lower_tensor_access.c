/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * OpTensorReadARM, OpTensorWriteARM and OpTensorQuerySizeARM become loads,
 * stores and record reads. Semantics (SPV_ARM_tensors rev 2, tensorops.adoc):
 *  - a read of an element out of bounds returns the OutOfBoundsValueARM
 *    operand, else the OpConstantNull value; nothing is loaded for it;
 *  - a write of an element out of bounds is dropped;
 *  - the array forms access consecutive elements along the innermost
 *    dimension, each element checked on its own;
 *  - bool elements are stored as one byte, 0 or 1 (VK_FORMAT_R8_BOOL_ARM);
 *  - NontemporalARM becomes the Nontemporal memory operand, and
 *    MakeElementAvailable/VisibleARM with NonPrivateElementARM become
 *    MakePointerAvailable/Visible with NonPrivatePointer (Vulkan memory model);
 *    PhysicalStorageBuffer accesses also carry Aligned (the element size).
 * Loads and stores sit in `if (in_bounds)` selections (lower_blocks.c); a
 * read's value comes out of an OpPhi with the out-of-bounds value.
 *
 * For the GLSL round trip (tsr_lower_options::for_glsl), a read with
 * MakeElementVisibleARM or a write with MakeElementAvailableARM goes through a
 * pointer to a Block { element } whose member is Coherent, and the element is
 * reached with an access chain: SPIRV-Cross ignores memory-access operands but
 * emits `coherent` for such a block, which glslang turns into device-scope
 * availability and visibility (at least what the operands asked for).
 */
#include "tsr_lower_private.h"

static uint32_t
storage_type(struct tsr_lower *l, const struct tsr_tensor_type *tt)
{
   return tt->kind == TSR_ELEM_BOOL ? spirv_get_type_int(&l->b, 8, false) : tt->elem_type;
}

/* Memory operands of the element load or store: mask, Aligned literal, scope ids. */
static uint32_t
memory_operands(struct tsr_lower *l, const struct tsr_access *a, bool write, uint32_t *ops)
{
   uint32_t mask = SpvMemoryAccessAlignedMask, n = 2;
   ops[1] = a->tt->elem_size;
   if (a->mask & SPV_ARM_TENSOR_OPERANDS_NONTEMPORAL)
      mask |= SpvMemoryAccessNontemporalMask;
   if (write && (a->mask & SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE)) {
      mask |= SpvMemoryAccessMakePointerAvailableMask;
      ops[n++] = a->scope_available;
   }
   if (!write && (a->mask & SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE)) {
      mask |= SpvMemoryAccessMakePointerVisibleMask;
      ops[n++] = a->scope_visible;
   }
   if ((a->mask & SPV_ARM_TENSOR_OPERANDS_NON_PRIVATE_ELEMENT) &&
       l->memory_model == SpvMemoryModelVulkan)
      mask |= SpvMemoryAccessNonPrivatePointerMask;
   ops[0] = mask;
   return n;
}

/* for_glsl: whether the element access must be coherent (see the file comment). */
static bool
needs_coherent(const struct tsr_lower *l, const struct tsr_access *a, bool write)
{
   uint32_t make = write ? SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE
                         : SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE;
   return l->opts->for_glsl && (a->mask & make);
}

/* for_glsl: the PhysicalStorageBuffer pointer to a Block { st } with a Coherent member. */
static uint32_t
coherent_pointer_type(struct tsr_lower *l, uint32_t st)
{
   struct spirv_builder *b = &l->b;
   for (uint32_t i = 0; i < l->coherent_count; i++)
      if (l->coherent[i].storage == st)
         return l->coherent[i].pointer;
   if (l->coherent_count == sizeof(l->coherent) / sizeof(l->coherent[0])) {
      tsr_lower_fail(l, VK_ERROR_FEATURE_NOT_PRESENT, 0, "too many coherent element types");
      return 0;
   }
   uint32_t offset = 0;
   uint32_t block = spirv_build_type_struct(b, &st, 1, &offset);
   spirv_build_decorate(b, block, SpvDecorationBlock, NULL, 0);
   spirv_build_member_decorate(b, block, 0, SpvDecorationCoherent, NULL, 0);
   uint32_t ptr = spirv_get_type_pointer(b, SpvStorageClassPhysicalStorageBuffer, block);
   l->coherent[l->coherent_count].storage = st;
   l->coherent[l->coherent_count++].pointer = ptr;
   return ptr;
}

/* The pointer to element k of an access, of type ptr_type (to storage type st). */
static uint32_t
element_pointer(struct tsr_lower *l, const struct tsr_access *a, const struct tsr_address *ad,
                uint32_t k, bool write, uint32_t st, uint32_t ptr_type)
{
   if (!needs_coherent(l, a, write))
      return tsr_lower_element_pointer(l, ad, k, ptr_type);
   uint32_t block_ptr = coherent_pointer_type(l, st);
   if (!block_ptr)
      return 0;
   uint32_t ptr = tsr_lower_element_pointer(l, ad, k, block_ptr);
   return tsr_op2(l, SpvOpAccessChain, ptr_type, ptr, spirv_get_const_u32(&l->b, 0));
}

static void
note_storage(struct tsr_lower *l, const struct tsr_tensor_type *tt)
{
   if (tt->elem_size == 1)
      l->needs_storage8 = true;
   else if (tt->elem_size == 2)
      l->needs_storage16 = true;
}

/* Condition for element k: all coordinates in bounds and k < dims[inner] - coords[inner]. */
static uint32_t
element_in_bounds(struct tsr_lower *l, const struct tsr_address *ad, uint32_t k)
{
   if (!k)
      return ad->in_bounds;
   uint32_t boolean = spirv_get_type_bool(&l->b);
   uint32_t room =
       tsr_op2(l, SpvOpULessThan, boolean, spirv_get_const_u32(&l->b, k), ad->inner_room);
   return tsr_op2(l, SpvOpLogicalAnd, boolean, ad->in_bounds, room);
}

static void
lower_read(struct tsr_lower *l, const struct tsr_access *a)
{
   struct spirv_builder *b = &l->b;
   const struct tsr_tensor_type *tt = a->tt;
   struct tsr_address ad;
   tsr_lower_address(l, a, &ad);
   uint32_t elem = tt->elem_type, st = storage_type(l, tt);
   uint32_t ptr_type = spirv_get_type_pointer(b, SpvStorageClassPhysicalStorageBuffer, st);
   uint32_t values[TSR_LOWER_MAX_ACCESS_ELEMENTS];
   note_storage(l, tt);

   for (uint32_t k = 0; k < a->count; k++) {
      uint32_t oob;
      if (!a->oob_value) {
         oob = spirv_get_const_null(b, elem);
      } else if (a->oob_is_array) {
         uint32_t ops[2] = {a->oob_value, k};
         oob = tsr_op(l, SpvOpCompositeExtract, elem, ops, 2);
      } else {
         oob = a->oob_value;
      }
      uint32_t cond = element_in_bounds(l, &ad, k);
      uint32_t pred, then;
      tsr_lower_blocks_begin_if(l, cond, &pred, &then);
      uint32_t mem[4];
      mem[0] = element_pointer(l, a, &ad, k, false, st, ptr_type);
      uint32_t n = memory_operands(l, a, false, mem + 1);
      uint32_t value = tsr_op(l, SpvOpLoad, st, mem, 1 + n);
      if (tt->kind == TSR_ELEM_BOOL)
         value = tsr_op2(l, SpvOpINotEqual, elem, value, spirv_get_const_uint(b, 8, 0));
      tsr_lower_blocks_end_if(l);
      uint32_t phi[4] = {value, then, oob, pred};
      values[k] = tsr_op_id(l, SpvOpPhi, elem, a->is_array ? 0 : a->result, phi, 4);
   }
   if (!a->is_array && a->result < l->bound)
      l->flags[a->result] |= TSR_ID_OWN_PHI;
   if (a->is_array)
      tsr_op_id(l, SpvOpCompositeConstruct, a->value_type, a->result, values, a->count);
}

static void
lower_write(struct tsr_lower *l, const struct tsr_access *a)
{
   struct spirv_builder *b = &l->b;
   const struct tsr_tensor_type *tt = a->tt;
   struct tsr_address ad;
   tsr_lower_address(l, a, &ad);
   uint32_t elem = tt->elem_type, st = storage_type(l, tt);
   uint32_t ptr_type = spirv_get_type_pointer(b, SpvStorageClassPhysicalStorageBuffer, st);
   note_storage(l, tt);

   for (uint32_t k = 0; k < a->count; k++) {
      uint32_t value = a->object;
      if (a->is_array) {
         uint32_t ops[2] = {a->object, k};
         value = tsr_op(l, SpvOpCompositeExtract, elem, ops, 2);
      }
      if (tt->kind == TSR_ELEM_BOOL)
         value = tsr_op3(l, SpvOpSelect, st, value, spirv_get_const_uint(b, 8, 1),
                         spirv_get_const_uint(b, 8, 0));
      uint32_t cond = element_in_bounds(l, &ad, k);
      uint32_t pred, then;
      tsr_lower_blocks_begin_if(l, cond, &pred, &then);
      uint32_t mem[5];
      mem[0] = element_pointer(l, a, &ad, k, true, st, ptr_type);
      mem[1] = value;
      uint32_t n = memory_operands(l, a, true, mem + 2);
      spirv_build_op(b, SPIRV_SECTION_FUNCTION, SpvOpStore, mem, 2 + n);
      tsr_lower_blocks_end_if(l);
   }
}

static void
lower_query(struct tsr_lower *l, const struct tsr_access *a)
{
   struct spirv_builder *b = &l->b;
   uint32_t size = tsr_lower_record_dim(l, a->tensor, a->dim, a->dim_id);
   const uint32_t *rt = tsr_lower_def_words(l, a->result_type);
   uint32_t width = rt[2];
   bool is_signed = rt[3] != 0;
   if (width == 32) {
      tsr_op_id(l, is_signed ? SpvOpBitcast : SpvOpCopyObject, a->result_type, a->result, &size, 1);
      return;
   }
   if (!is_signed) {
      tsr_op_id(l, SpvOpUConvert, a->result_type, a->result, &size, 1);
      return;
   }
   uint32_t u = tsr_op1(l, SpvOpUConvert, spirv_get_type_int(b, width, false), size);
   tsr_op_id(l, SpvOpBitcast, a->result_type, a->result, &u, 1);
}

static VkResult
rewrite(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   if (tsr_lower_blocks_instruction(l, w)) {
      *keep = false;
      return spirv_builder_result(b);
   }
   uint32_t op = w[0] & 0xffffu;
   if (op != SPV_ARM_OP_TENSOR_READ && op != SPV_ARM_OP_TENSOR_WRITE &&
       op != SPV_ARM_OP_TENSOR_QUERY_SIZE)
      return VK_SUCCESS;
   struct tsr_access a;
   if (!tsr_lower_decode_access(l, w, 0, &a))
      return l->result;
   if (op == SPV_ARM_OP_TENSOR_READ)
      lower_read(l, &a);
   else if (op == SPV_ARM_OP_TENSOR_WRITE)
      lower_write(l, &a);
   else
      lower_query(l, &a);
   *keep = false;
   return l->result != VK_SUCCESS ? l->result : spirv_builder_result(b);
}

bool
tsr_lower_tensor_access(struct tsr_lower *l)
{
   if (!l->tensor_count)
      return false;
   if (!tsr_lower_blocks_prepare(l))
      return false;
   VkResult result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_FUNCTION, rewrite, l);
   if (result != VK_SUCCESS)
      return tsr_lower_fail(l, result, 0, "tensor access: %s",
                            l->b.failure ? l->b.failure : "out of memory");
   return tsr_lower_blocks_fix_phis(l);
}
