/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Types of a graph module: scalar types and their TOSA element types
 * (spec-facts §3.1 type mapping), shaped OpTypeTensorARM (Rank and Shape
 * evaluated as constants, specialization included), graph interface types
 * (a tensor or an OpTypeArray of tensors), and the TOSA level-8K limits on
 * rank and size. Constant values are dg_constants.c's business.
 */
#include "dg_decode_private.h"

VkResult
dg_scalar_type(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
               struct dg_scalar *s)
{
   const struct spirv_inst *def;
   VkResult result = dg_def(d, user, type_id, &def);
   if (result != VK_SUCCESS)
      return result;
   memset(s, 0, sizeof(*s));
   s->encoding = UINT32_MAX;
   s->type_id = type_id;
   s->opcode = def->opcode;
   switch (def->opcode) {
   case DG_SPV_TYPE_BOOL:
      s->width = 1;
      return VK_SUCCESS;
   case DG_SPV_TYPE_INT:
      if ((result = dg_word(d, def, 2, &s->width)) != VK_SUCCESS)
         return result;
      return dg_word(d, def, 3, &s->signedness);
   case DG_SPV_TYPE_FLOAT:
      if ((result = dg_word(d, def, 2, &s->width)) != VK_SUCCESS)
         return result;
      if (def->word_count > 3)
         return dg_word(d, def, 3, &s->encoding);
      return VK_SUCCESS;
   default:
      return dg_fail(d, user, DG_ERR_ELEMENT_TYPE, "%%%u (opcode %u) is not a scalar type", type_id,
                     def->opcode);
   }
}

enum dg_type
dg_scalar_elem_type(const struct dg_scalar *s)
{
   switch (s->opcode) {
   case DG_SPV_TYPE_BOOL:
      return DG_TYPE_BOOL;
   case DG_SPV_TYPE_INT:
      switch (s->width) {
      case 8:
         return DG_TYPE_I8;
      case 16:
         return DG_TYPE_I16;
      case 32:
         return DG_TYPE_I32;
      case 64:
         return DG_TYPE_I48; /* TOSA.001000.1: i48_t is OpTypeInt 64 0 */
      default:
         return DG_TYPE_INVALID;
      }
   case DG_SPV_TYPE_FLOAT:
      if (s->width == 16 && s->encoding == UINT32_MAX)
         return DG_TYPE_FP16;
      if (s->width == 16 && s->encoding == SPV_ARM_FP_ENCODING_BFLOAT16_KHR)
         return DG_TYPE_BF16;
      if (s->width == 32 && s->encoding == UINT32_MAX)
         return DG_TYPE_FP32;
      if (s->width == 8 && s->encoding == SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT)
         return DG_TYPE_FP8E4M3;
      if (s->width == 8 && s->encoding == SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT)
         return DG_TYPE_FP8E5M2;
      return DG_TYPE_INVALID;
   default:
      return DG_TYPE_INVALID;
   }
}

bool
dg_is_tensor_type(struct dg_decoder *d, uint32_t type_id)
{
   const struct spirv_inst *def = spirv_reader_def(&d->r, type_id);
   return def && def->opcode == SPV_ARM_OP_TYPE_TENSOR;
}

VkResult
dg_check_tensor_size(struct dg_decoder *d, const struct spirv_inst *user,
                     const struct dg_tensor_type *ty)
{
   /* TOSA 1.0 "Tensor size limit": elements times element bytes must be a
    * tensor_size_t, below 1 << MAX_LOG2_SIZE. */
   const uint64_t limit = (1ull << DG_MAX_LOG2_SIZE) - 1;
   uint64_t bytes = dg_type_size(ty->type);
   for (uint32_t i = 0; i < ty->shape.rank; i++) {
      if ((uint64_t)ty->shape.dim[i] > limit / bytes) {
         char s[96];
         return dg_fail(d, user, DG_ERR_LEVEL,
                        "tensor %s of %s is larger than 2^%u - 1 bytes (MAX_LOG2_SIZE, level 8K)",
                        dg_shape_str(&ty->shape, s, sizeof(s)), dg_type_name(ty->type),
                        DG_MAX_LOG2_SIZE);
      }
      bytes *= (uint64_t)ty->shape.dim[i];
   }
   return VK_SUCCESS;
}

/* Reads the Shape operand of a tensor type: a constant OpTypeArray of
 * integers whose length is the rank. */
static VkResult
shape_dims(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id, uint32_t shape_id,
           uint32_t rank, struct dg_shape *shape)
{
   const struct spirv_inst *def, *array_type;
   uint32_t array_type_id, length;
   VkResult result = dg_def(d, user, shape_id, &def);
   if (result != VK_SUCCESS)
      return result;
   uint32_t op = def->opcode;
   bool composite = op == DG_SPV_CONSTANT_COMPOSITE || op == DG_SPV_SPEC_CONSTANT_COMPOSITE;
   bool replicate = op == SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT ||
                    op == SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT;
   if (!composite && !replicate)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                     "Shape %%%u of tensor type %%%u is not a constant composite (opcode %u)",
                     shape_id, type_id, op);
   if ((result = dg_word(d, def, 1, &array_type_id)) != VK_SUCCESS ||
       (result = dg_def(d, def, array_type_id, &array_type)) != VK_SUCCESS)
      return result;
   if (array_type->opcode != DG_SPV_TYPE_ARRAY)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                     "Shape %%%u of tensor type %%%u is not an OpTypeArray", shape_id, type_id);
   uint32_t length_id;
   if ((result = dg_word(d, array_type, 3, &length_id)) != VK_SUCCESS ||
       (result = dg_eval_u32(d, user, length_id, &length)) != VK_SUCCESS)
      return result;
   if (length != rank)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                     "tensor type %%%u: Shape has %u elements, Rank is %u", type_id, length, rank);
   if (composite && def->word_count != 3 + rank)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                     "tensor type %%%u: Shape %%%u has %u constituents, its type has %u", type_id,
                     shape_id, def->word_count - 3u, rank);
   if (replicate && def->word_count != 4)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE, "Shape %%%u: a replicate has one operand",
                     shape_id);

   shape->rank = rank;
   for (uint32_t i = 0; i < rank; i++) {
      uint32_t dim_id;
      struct dg_scalar dim;
      if ((result = dg_word(d, def, 3 + (replicate ? 0 : i), &dim_id)) != VK_SUCCESS ||
          (result = dg_eval_scalar(d, user, dim_id, &dim)) != VK_SUCCESS)
         return result;
      if (dim.opcode != DG_SPV_TYPE_INT)
         return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                        "tensor type %%%u: dimension %u is not an integer", type_id, i);
      if (dim.bits == 0)
         return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                        "tensor type %%%u: dimension %u is 0 (TOSA and Vulkan need >= 1)", type_id,
                        i);
      if (dim.bits >= (1ull << DG_MAX_LOG2_SIZE))
         return dg_fail(d, user, DG_ERR_LEVEL,
                        "tensor type %%%u: dimension %u is %" PRIu64
                        ", beyond tensor_size_t (MAX_LOG2_SIZE %u, level 8K)",
                        type_id, i, dim.bits, DG_MAX_LOG2_SIZE);
      shape->dim[i] = (int64_t)dim.bits;
   }
   return VK_SUCCESS;
}

VkResult
dg_tensor_type_decl(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
                    struct dg_tensor_type *ty)
{
   const struct spirv_inst *def;
   VkResult result = dg_def(d, user, type_id, &def);
   if (result != VK_SUCCESS)
      return result;
   memset(ty, 0, sizeof(*ty));
   if (def->opcode != SPV_ARM_OP_TYPE_TENSOR)
      return dg_fail(d, user, DG_ERR_TYPE_NOT_TENSOR,
                     "type %%%u (opcode %u) is not an OpTypeTensorARM", type_id, def->opcode);
   uint32_t elem_id, rank_id, shape_id;
   struct dg_scalar elem, rank;
   if ((result = dg_word(d, def, 2, &elem_id)) != VK_SUCCESS ||
       (result = dg_scalar_type(d, user, elem_id, &elem)) != VK_SUCCESS)
      return result;
   ty->type = dg_scalar_elem_type(&elem);
   ty->int_signed = elem.opcode == DG_SPV_TYPE_INT && elem.signedness == 1;
   if (ty->type == DG_TYPE_INVALID)
      return dg_fail(d, user, DG_ERR_ELEMENT_TYPE,
                     "tensor type %%%u: element type %%%u (opcode %u, width %u) has no "
                     "TOSA.001000.1 mapping",
                     type_id, elem_id, elem.opcode, elem.width);

   if (def->word_count < 4)
      return VK_SUCCESS; /* unranked: rank 0, no dimensions */
   if ((result = dg_word(d, def, 3, &rank_id)) != VK_SUCCESS ||
       (result = dg_eval_scalar(d, user, rank_id, &rank)) != VK_SUCCESS)
      return result;
   if (rank.opcode != DG_SPV_TYPE_INT)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE, "tensor type %%%u: Rank is not an integer",
                     type_id);
   if (rank.bits == 0)
      return dg_fail(d, user, DG_ERR_TENSOR_SHAPE,
                     "tensor type %%%u: Rank 0 (a Vulkan tensor has at least one dimension)",
                     type_id);
   if (rank.bits > DG_MAX_RANK)
      return dg_fail(d, user, DG_ERR_LEVEL,
                     "tensor type %%%u: Rank %" PRIu64 " > MAX_RANK %u (level 8K)", type_id,
                     rank.bits, DG_MAX_RANK);
   if (def->word_count < 5) {
      ty->shape.rank = (uint32_t)rank.bits; /* unshaped: dimensions 0 (unknown) */
      return VK_SUCCESS;
   }
   if ((result = dg_word(d, def, 4, &shape_id)) != VK_SUCCESS ||
       (result = shape_dims(d, user, type_id, shape_id, (uint32_t)rank.bits, &ty->shape)) !=
          VK_SUCCESS)
      return result;
   return dg_check_tensor_size(d, user, ty);
}

VkResult
dg_tensor_type(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
               struct dg_tensor_type *ty)
{
   VkResult result = dg_tensor_type_decl(d, user, type_id, ty);
   if (result == VK_SUCCESS && !dg_shape_known(&ty->shape))
      return dg_fail(d, user, DG_ERR_TENSOR_NOT_SHAPED,
                     "tensor type %%%u is %s: a shape is needed here (a constant's type, or a "
                     "value whose shape nothing else gives)",
                     type_id, ty->shape.rank ? "unshaped" : "unranked");
   return result;
}

bool
dg_tensor_type_fits(const struct dg_tensor_type *decl, const struct dg_tensor_type *ty)
{
   if (decl->type != ty->type)
      return false;
   if (decl->shape.rank == 0)
      return true;
   if (decl->shape.rank != ty->shape.rank)
      return false;
   for (uint32_t i = 0; i < decl->shape.rank; i++) {
      if (decl->shape.dim[i] != 0 && decl->shape.dim[i] != ty->shape.dim[i])
         return false;
   }
   return true;
}

VkResult
dg_interface_type(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
                  struct dg_tensor_type *ty, bool *is_array, uint32_t *length)
{
   const struct spirv_inst *def;
   VkResult result = dg_def(d, user, type_id, &def);
   if (result != VK_SUCCESS)
      return result;
   *is_array = false;
   *length = 1;
   switch (def->opcode) {
   case SPV_ARM_OP_TYPE_TENSOR:
      return dg_tensor_type_decl(d, user, type_id, ty);
   case DG_SPV_TYPE_ARRAY: {
      uint32_t elem_id, length_id;
      if ((result = dg_word(d, def, 2, &elem_id)) != VK_SUCCESS ||
          (result = dg_word(d, def, 3, &length_id)) != VK_SUCCESS)
         return result;
      if (!dg_is_tensor_type(d, elem_id))
         return dg_fail(d, user, DG_ERR_GRAPH_TYPE,
                        "%%%u is an array of %%%u, not of OpTypeTensorARM: not a graph "
                        "interface type",
                        type_id, elem_id);
      if ((result = dg_eval_u32(d, user, length_id, length)) != VK_SUCCESS)
         return result;
      if (*length == 0)
         return dg_fail(d, user, DG_ERR_GRAPH_TYPE, "tensor array %%%u has length 0", type_id);
      *is_array = true;
      return dg_tensor_type_decl(d, user, elem_id, ty);
   }
   case DG_SPV_TYPE_RUNTIME_ARRAY:
      return dg_fail(d, user, DG_ERR_GRAPH_TYPE,
                     "%%%u: runtime arrays of tensors as graph inputs or outputs are not "
                     "supported",
                     type_id);
   default:
      return dg_fail(d, user, DG_ERR_GRAPH_TYPE,
                     "%%%u (opcode %u) is not a graph interface type (a tensor or an array of "
                     "tensors)",
                     type_id, def->opcode);
   }
}
