/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Tensor types and variables become the tensor ABI (kernel_abi/tensor_record.h).
 * Ids keep their numbers, so no use has to be found and renamed:
 *   %T  = OpTypeTensorARM ...             -> %T = OpTypeStruct (the 64-byte record)
 *   %P  = OpTypePointer UniformConstant %T -> %P = OpTypePointer StorageBuffer %Block
 *   %A  = OpType(Runtime)Array %T ...      -> %A = OpType(Runtime)Array %Block ...
 *   %PA = OpTypePointer UniformConstant %A -> %PA = OpTypePointer StorageBuffer %A
 *   %v  = OpVariable %P UniformConstant    -> %v = OpVariable %P StorageBuffer
 * where %Block is a new `Block struct { record (NonWritable) }`, one per tensor
 * type. A tensor *value* is then the record itself: OpLoad of a tensor becomes
 * an access chain to the record and a load of it, and everything that passes
 * tensor values around (OpFunctionCall, OpPhi, OpSelect, OpCopyObject) keeps
 * working unchanged. Pointer-to-tensor parameters become record-value
 * parameters (callers load the record), so no pointer crosses a call.
 * Access chains into tensor arrays keep their ids and now index the array of
 * blocks; their NonUniform decorations carry over to the new loads.
 * Decorations of tensor variables other than DescriptorSet and Binding
 * (NonWritable, NonReadable, Coherent, ...) describe the tensor's data, not
 * the record, and are dropped.
 */
#include "tsr_lower_private.h"

/* Offsets of the record's members (struct vmel_tensor_record). */
static const uint32_t record_offsets[5] = {0, 8, 12, 16, 16 + 4 * VMEL_TENSOR_MAX_RANK};

static void
build_blocks(struct tsr_lower *l)
{
   struct spirv_builder *b = &l->b;
   for (uint32_t i = 0; i < l->tensor_count; i++) {
      struct tsr_tensor_type *tt = &l->tensors[i];
      uint32_t zero = 0;
      tt->block = spirv_build_type_struct(b, &tt->id, 1, &zero);
      spirv_build_decorate(b, tt->block, SpvDecorationBlock, NULL, 0);
      spirv_build_member_decorate(b, tt->block, 0, SpvDecorationNonWritable, NULL, 0);
      tt->ptr_record = spirv_get_type_pointer(b, SpvStorageClassStorageBuffer, tt->id);
   }
}

static void
build_record(struct tsr_lower *l, uint32_t id)
{
   struct spirv_builder *b = &l->b;
   uint32_t u32 = spirv_get_type_int(b, 32, false);
   uint32_t v2 = spirv_get_type_vector(b, u32, 2);
   uint32_t arr =
       spirv_get_type_array(b, u32, spirv_get_const_u32(b, VMEL_TENSOR_MAX_RANK), sizeof(uint32_t));
   uint32_t members[5] = {v2, u32, u32, arr, arr};
   spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, SpvOpTypeStruct, 0, id, members, 5);
   for (uint32_t m = 0; m < 5; m++)
      spirv_build_member_decorate(b, id, m, SpvDecorationOffset, &record_offsets[m], 1);
}

static const struct tsr_tensor_type *
tensor_of(const struct tsr_lower *l, uint32_t id)
{
   return &l->tensors[l->tensor_of[id]];
}

static VkResult
rewrite_global(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   uint32_t ops[3];
   switch (op) {
   case SPV_ARM_OP_TYPE_TENSOR:
      build_record(l, w[1]);
      *keep = false;
      break;
   case SpvOpTypePointer:
      if (tsr_lower_has(l, w[1], TSR_ID_TENSOR_PTR | TSR_ID_TENSOR_ARRAY_PTR)) {
         ops[0] = SpvStorageClassStorageBuffer;
         ops[1] = tsr_lower_has(l, w[1], TSR_ID_TENSOR_PTR) ? tensor_of(l, w[1])->block : w[3];
         spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, op, 0, w[1], ops, 2);
         *keep = false;
      }
      break;
   case SpvOpTypeArray:
   case SpvOpTypeRuntimeArray:
      if (tsr_lower_has(l, w[1], TSR_ID_TENSOR_ARRAY)) {
         ops[0] = tensor_of(l, w[1])->block;
         ops[1] = op == SpvOpTypeArray ? w[3] : 0;
         spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, op, 0, w[1], ops, op == SpvOpTypeArray ? 2 : 1);
         *keep = false;
      }
      break;
   case SpvOpVariable:
      if (tsr_lower_has(l, w[2], TSR_ID_TENSOR_VAR)) {
         ops[0] = SpvStorageClassStorageBuffer;
         spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, op, w[1], w[2], ops, 1);
         *keep = false;
      }
      break;
   case SpvOpTypeFunction: {
      bool change = false;
      for (uint32_t i = 3; i < wc; i++)
         change |= tsr_lower_has(l, w[i], TSR_ID_TENSOR_PTR);
      if (!change)
         break;
      /* SPIR-V 2.17 limits a function to 255 parameters. */
      uint32_t params[256];
      uint32_t n = wc - 3;
      if (n > 255) {
         tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, 0,
                        "OpTypeFunction %%%u: more than 255 parameters", w[1]);
         return l->result;
      }
      for (uint32_t i = 0; i < n; i++) {
         uint32_t p = w[3 + i];
         params[i] = tsr_lower_has(l, p, TSR_ID_TENSOR_PTR) ? tensor_of(l, p)->id : p;
      }
      uint32_t head[1] = {w[2]};
      spirv_build_op_tr(b, SPIRV_SECTION_GLOBAL, op, 0, w[1], head, 1);
      /* The parameters follow the return type: patch the word count. */
      struct spirv_stream *s = &b->sections[SPIRV_SECTION_GLOBAL];
      size_t at = s->count - 3;
      spirv_builder_append(b, SPIRV_SECTION_GLOBAL, params, n);
      if (spirv_builder_result(b) == VK_SUCCESS)
         s->words[at] = (3 + n) << 16 | op;
      *keep = false;
      break;
   }
   default:
      break;
   }
   return VK_SUCCESS;
}

static VkResult
rewrite_annotation(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   if ((op == SpvOpDecorate || op == SpvOpDecorateId || op == SpvOpDecorateString) && wc >= 3 &&
       tsr_lower_has(l, w[1], TSR_ID_TENSOR_VAR | TSR_ID_TENSOR_TYPE) &&
       w[2] != SpvDecorationDescriptorSet && w[2] != SpvDecorationBinding)
      *keep = false;
   return VK_SUCCESS;
}

/* Emits the load of the record a tensor pointer points to. */
static uint32_t
load_record(struct tsr_lower *l, uint32_t ptr, uint32_t ptr_type, uint32_t result)
{
   const struct tsr_tensor_type *tt = tensor_of(l, ptr_type);
   if (tsr_lower_has(l, ptr, TSR_ID_TENSOR_PARAM))
      return tsr_op_id(l, SpvOpCopyObject, tt->id, result, &ptr, 1);
   uint32_t chain =
       tsr_op2(l, SpvOpAccessChain, tt->ptr_record, ptr, spirv_get_const_u32(&l->b, 0));
   uint32_t value = tsr_op_id(l, SpvOpLoad, tt->id, result, &chain, 1);
   /* Vulkan wants NonUniform on the pointer into the descriptor array and on what
    * is derived from it; the input may have put it on the tensor value only. */
   if (tsr_lower_has(l, ptr, TSR_ID_NON_UNIFORM) || tsr_lower_has(l, value, TSR_ID_NON_UNIFORM)) {
      if (!tsr_lower_has(l, ptr, TSR_ID_NON_UNIFORM) && ptr < l->bound) {
         spirv_build_decorate(&l->b, ptr, SpvDecorationNonUniform, NULL, 0);
         l->flags[ptr] |= TSR_ID_NON_UNIFORM;
      }
      spirv_build_decorate(&l->b, chain, SpvDecorationNonUniform, NULL, 0);
      if (!tsr_lower_has(l, value, TSR_ID_NON_UNIFORM))
         spirv_build_decorate(&l->b, value, SpvDecorationNonUniform, NULL, 0);
   }
   return value;
}

static VkResult
rewrite_function(struct spirv_builder *b, const uint32_t *w, void *data, bool *keep)
{
   struct tsr_lower *l = data;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   switch (op) {
   case SpvOpLoad: {
      uint32_t ptr_type = tsr_lower_type_of(l, w[3]);
      if (tsr_lower_has(l, ptr_type, TSR_ID_TENSOR_PTR)) {
         load_record(l, w[3], ptr_type, w[2]);
         *keep = false;
      }
      break;
   }
   case SpvOpFunctionParameter:
   case SpvOpCopyObject:
      if (tsr_lower_has(l, w[2], TSR_ID_TENSOR_PARAM)) {
         spirv_build_op_tr(b, SPIRV_SECTION_FUNCTION, op, tensor_of(l, w[1])->id, w[2], w + 3,
                           wc - 3);
         *keep = false;
      }
      break;
   case SpvOpFunctionCall: {
      bool change = false;
      for (uint32_t i = 4; i < wc; i++)
         change |= tsr_lower_has(l, tsr_lower_type_of(l, w[i]), TSR_ID_TENSOR_PTR);
      if (!change)
         break;
      uint32_t ops[256];
      uint32_t n = wc - 3;
      if (n > 256) {
         tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, 0,
                        "OpFunctionCall %%%u: more than 255 arguments", w[2]);
         return l->result;
      }
      ops[0] = w[3];
      for (uint32_t i = 1; i < n; i++) {
         uint32_t arg = w[3 + i], type = tsr_lower_type_of(l, arg);
         ops[i] = tsr_lower_has(l, type, TSR_ID_TENSOR_PTR) &&
                          !tsr_lower_has(l, arg, TSR_ID_TENSOR_PARAM)
                      ? load_record(l, arg, type, 0)
                      : arg;
      }
      tsr_op_id(l, op, w[1], w[2], ops, n);
      *keep = false;
      break;
   }
   default:
      break;
   }
   return VK_SUCCESS;
}

bool
tsr_lower_tensor_types(struct tsr_lower *l)
{
   if (!l->tensor_count)
      return false;
   build_blocks(l);
   VkResult result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_GLOBAL, rewrite_global, l);
   if (result == VK_SUCCESS)
      result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_ANNOTATION, rewrite_annotation, l);
   if (result == VK_SUCCESS)
      result = spirv_builder_rewrite(&l->b, SPIRV_SECTION_FUNCTION, rewrite_function, l);
   if (result != VK_SUCCESS)
      return tsr_lower_fail(l, result, 0, "tensor types: %s",
                            l->b.failure ? l->b.failure : "out of memory");
   return true;
}
