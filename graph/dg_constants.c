/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Constant values of a graph module: scalar constants (OpConstant*, with
 * specialization applied from VkSpecializationInfo), and tensor constants
 * decoded to packed little-endian bytes: OpConstantComposite (a rank-1 tensor
 * of scalars, or of tensors of rank - 1 with the inner shape), OpConstantNull,
 * OpConstantCompositeReplicateEXT (a scalar splat or one repeated slice),
 * their Spec forms, and OpGraphConstantARM (through dg_interface.c). bf16 and
 * fp8 constants are bits like any other; converting them to double is here
 * too, for the attribute checks that compare values. Types are dg_types.c's.
 */
#include <math.h>

#include "dg_decode_private.h"

bool
dg_is_constant_opcode(uint32_t opcode)
{
   switch (opcode) {
   case DG_SPV_CONSTANT_TRUE:
   case DG_SPV_CONSTANT_FALSE:
   case DG_SPV_CONSTANT:
   case DG_SPV_CONSTANT_COMPOSITE:
   case DG_SPV_CONSTANT_NULL:
   case DG_SPV_SPEC_CONSTANT_TRUE:
   case DG_SPV_SPEC_CONSTANT_FALSE:
   case DG_SPV_SPEC_CONSTANT:
   case DG_SPV_SPEC_CONSTANT_COMPOSITE:
   case DG_SPV_SPEC_CONSTANT_OP:
   case SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_GRAPH_CONSTANT: /* a constant instruction since SPV_ARM_graph rev 2 */
      return true;
   default:
      return false;
   }
}

/* Applies VkSpecializationInfo to a scalar OpSpecConstant* with a SpecId. */
static VkResult
specialize(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id, struct dg_scalar *s)
{
   const VkSpecializationInfo *info = d->info->specialization;
   uint32_t spec_id;
   d->g->uses_specialization = true;
   if (!info || !dg_decoration(d, id, DG_SPV_DECORATION_SPEC_ID, &spec_id))
      return VK_SUCCESS;
   if (info->mapEntryCount && !info->pMapEntries)
      return dg_fail(d, user, DG_ERR_SPECIALIZATION, "pMapEntries is NULL");
   for (uint32_t i = 0; i < info->mapEntryCount; i++) {
      const VkSpecializationMapEntry *e = &info->pMapEntries[i];
      if (e->constantID != spec_id)
         continue;
      /* VkSpecializationMapEntry: "If the specialization constant is of type
       * boolean, size must be the byte size of VkBool32"; otherwise the byte
       * size of the type. */
      size_t want = s->opcode == DG_SPV_TYPE_BOOL ? sizeof(VkBool32) : s->width / 8;
      if (e->size != want)
         return dg_fail(d, user, DG_ERR_SPECIALIZATION,
                        "specialization constant %u (%%%u): size %zu, the type needs %zu", spec_id,
                        id, e->size, want);
      if (!info->pData || e->offset > info->dataSize || e->size > info->dataSize - e->offset)
         return dg_fail(d, user, DG_ERR_SPECIALIZATION,
                        "specialization constant %u: bytes %u..%zu are outside dataSize %zu",
                        spec_id, e->offset, e->offset + e->size, info->dataSize);
      uint64_t v = 0;
      memcpy(&v, (const uint8_t *)info->pData + e->offset, e->size);
      s->bits = s->opcode == DG_SPV_TYPE_BOOL ? (v != 0) : v;
      return VK_SUCCESS;
   }
   return VK_SUCCESS;
}

VkResult
dg_eval_scalar(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
               struct dg_scalar *s)
{
   const struct spirv_inst *def, *type_def;
   uint32_t type_id;
   VkResult result = dg_def(d, user, id, &def);
   if (result != VK_SUCCESS)
      return result;
   if (!dg_is_constant_opcode(def->opcode))
      return dg_fail(d, user, DG_ERR_CONSTANT, "%%%u (opcode %u) is not a constant instruction", id,
                     def->opcode);
   if ((result = dg_word(d, def, 1, &type_id)) != VK_SUCCESS ||
       (result = dg_def(d, def, type_id, &type_def)) != VK_SUCCESS)
      return result;
   if (type_def->opcode != DG_SPV_TYPE_BOOL && type_def->opcode != DG_SPV_TYPE_INT &&
       type_def->opcode != DG_SPV_TYPE_FLOAT)
      return dg_fail(d, user, DG_ERR_CONSTANT, "%%%u is not a scalar constant", id);
   if ((result = dg_scalar_type(d, user, type_id, s)) != VK_SUCCESS)
      return result;
   if (s->width == 0 || s->width > 64)
      return dg_fail(d, user, DG_ERR_CONSTANT, "constant %%%u has width %u", id, s->width);

   bool spec = false;
   switch (def->opcode) {
   case DG_SPV_SPEC_CONSTANT_TRUE:
      spec = true;
      /* fallthrough */
   case DG_SPV_CONSTANT_TRUE:
      s->bits = 1;
      break;
   case DG_SPV_SPEC_CONSTANT_FALSE:
      spec = true;
      /* fallthrough */
   case DG_SPV_CONSTANT_FALSE:
   case DG_SPV_CONSTANT_NULL:
      s->bits = 0;
      break;
   case DG_SPV_SPEC_CONSTANT:
      spec = true;
      /* fallthrough */
   case DG_SPV_CONSTANT: {
      uint32_t lo, hi = 0;
      if (s->opcode == DG_SPV_TYPE_BOOL)
         return dg_fail(d, user, DG_ERR_CONSTANT, "OpConstant %%%u of a boolean type", id);
      if ((result = dg_word(d, def, 3, &lo)) != VK_SUCCESS)
         return result;
      if (s->width > 32 && (result = dg_word(d, def, 4, &hi)) != VK_SUCCESS)
         return result;
      s->bits = (uint64_t)lo | (uint64_t)hi << 32;
      break;
   }
   case DG_SPV_SPEC_CONSTANT_OP:
      d->g->uses_specialization = true;
      if ((result = dg_eval_spec_op(d, user, id, def, s)) != VK_SUCCESS)
         return result;
      break;
   default:
      return dg_fail(d, user, DG_ERR_CONSTANT, "%%%u (opcode %u) is not a scalar constant", id,
                     def->opcode);
   }
   if (spec && (result = specialize(d, user, id, s)) != VK_SUCCESS)
      return result;
   if (s->width < 64)
      s->bits &= (1ull << s->width) - 1;
   return VK_SUCCESS;
}

VkResult
dg_eval_u32(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id, uint32_t *value)
{
   struct dg_scalar s;
   VkResult result = dg_eval_scalar(d, user, id, &s);
   if (result != VK_SUCCESS)
      return result;
   if (s.opcode != DG_SPV_TYPE_INT || s.bits > UINT32_MAX)
      return dg_fail(d, user, DG_ERR_CONSTANT, "%%%u is not a 32-bit unsigned integer constant",
                     id);
   *value = (uint32_t)s.bits;
   return VK_SUCCESS;
}

uint64_t
dg_elem_bits(enum dg_type type, const uint8_t *data, uint64_t index)
{
   uint32_t size = dg_type_size(type);
   uint64_t v = 0;
   for (uint32_t b = 0; b < size; b++)
      v |= (uint64_t)data[index * size + b] << (8 * b);
   return v;
}

int64_t
dg_elem_int(enum dg_type type, const uint8_t *data, uint64_t index)
{
   uint64_t v = dg_elem_bits(type, data, index);
   uint32_t bits = 8 * dg_type_size(type);
   if (type == DG_TYPE_BOOL || bits >= 64)
      return (int64_t)v;
   uint64_t sign = 1ull << (bits - 1);
   return (int64_t)((v ^ sign) - sign);
}

static void
store_elem(enum dg_type type, uint8_t *out, uint64_t index, uint64_t bits)
{
   uint32_t size = dg_type_size(type);
   for (uint32_t b = 0; b < size; b++)
      out[index * size + b] = (uint8_t)(bits >> (8 * b));
}

/* A binary floating-point format with 1 sign bit, ebits exponent bits and
 * mbits mantissa bits. ieee: the top exponent encodes infinities and NaNs;
 * otherwise (E4M3) only S.1111.111 is NaN and there is no infinity. */
static double
minifloat(uint64_t bits, int ebits, int mbits, bool ieee)
{
   uint64_t man = bits & ((1ull << mbits) - 1);
   uint64_t exp = (bits >> mbits) & ((1ull << ebits) - 1);
   bool negative = (bits >> (ebits + mbits)) & 1;
   int bias = (1 << (ebits - 1)) - 1;
   uint64_t top = (1ull << ebits) - 1;
   double v;
   if (ieee && exp == top)
      v = man ? NAN : INFINITY;
   else if (!ieee && exp == top && man == (1ull << mbits) - 1)
      v = NAN;
   else if (exp == 0)
      v = ldexp((double)man, 1 - bias - mbits);
   else
      v = ldexp((double)(man | (1ull << mbits)), (int)exp - bias - mbits);
   return negative ? -v : v;
}

double
dg_float_from_bits(enum dg_type type, uint64_t bits)
{
   switch (type) {
   case DG_TYPE_FP32: {
      uint32_t u = (uint32_t)bits;
      float f;
      memcpy(&f, &u, sizeof(f));
      return f;
   }
   case DG_TYPE_FP16:
      return minifloat(bits, 5, 10, true);
   case DG_TYPE_BF16:
      return minifloat(bits, 8, 7, true);
   case DG_TYPE_FP8E4M3:
      return minifloat(bits, 4, 3, false);
   case DG_TYPE_FP8E5M2:
      return minifloat(bits, 5, 2, true);
   default:
      return (double)(int64_t)bits;
   }
}

/* The constant's result type must be a tensor type equal to ty. */
static VkResult
check_result_type(struct dg_decoder *d, const struct spirv_inst *user, const struct spirv_inst *def,
                  uint32_t id, const struct dg_tensor_type *ty)
{
   uint32_t type_id;
   struct dg_tensor_type cty;
   VkResult result = dg_word(d, def, 1, &type_id);
   if (result != VK_SUCCESS)
      return result;
   if (!dg_is_tensor_type(d, type_id))
      return dg_fail(d, user, DG_ERR_CONSTANT, "constant %%%u is not of a tensor type", id);
   if ((result = dg_tensor_type(d, user, type_id, &cty)) != VK_SUCCESS)
      return result;
   if (!dg_tensor_type_equal(&cty, ty)) {
      char a[96], b[96];
      return dg_fail(d, user, DG_ERR_CONSTANT, "constant %%%u is a %s tensor %s, expected %s %s",
                     id, dg_type_name(cty.type), dg_shape_str(&cty.shape, a, sizeof(a)),
                     dg_type_name(ty->type), dg_shape_str(&ty->shape, b, sizeof(b)));
   }
   return VK_SUCCESS;
}

/* One constituent of a tensor composite at position `index` of out: a scalar
 * of the element type for rank 1, else a tensor of the inner shape. */
static VkResult
eval_constituent(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                 const struct dg_tensor_type *ty, uint8_t *out, uint64_t index)
{
   if (ty->shape.rank == 1) {
      struct dg_scalar s;
      VkResult result = dg_eval_scalar(d, user, id, &s);
      if (result != VK_SUCCESS)
         return result;
      if (dg_scalar_elem_type(&s) != ty->type)
         return dg_fail(d, user, DG_ERR_CONSTANT,
                        "constituent %%%u of a %s tensor constant is not a %s scalar", id,
                        dg_type_name(ty->type), dg_type_name(ty->type));
      store_elem(ty->type, out, index, s.bits);
      return VK_SUCCESS;
   }
   struct dg_tensor_type inner = *ty;
   inner.shape.rank--;
   memmove(inner.shape.dim, ty->shape.dim + 1, inner.shape.rank * sizeof(int64_t));
   uint64_t inner_bytes = dg_shape_elements(&inner.shape) * dg_type_size(ty->type);
   return dg_eval_tensor(d, user, id, &inner, out + index * inner_bytes);
}

static VkResult
eval_tensor_def(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                const struct spirv_inst *def, const struct dg_tensor_type *ty, uint8_t *out)
{
   uint64_t dim0 = (uint64_t)ty->shape.dim[0];
   uint64_t bytes = dg_shape_elements(&ty->shape) * dg_type_size(ty->type);
   VkResult result;
   switch (def->opcode) {
   case SPV_ARM_OP_GRAPH_CONSTANT: {
      const VkDataGraphPipelineConstantARM *constant;
      const VkTensorDescriptionARM *desc;
      struct dg_tensor_type shaped = *ty; /* shaped: check_result_type() */
      if ((result = check_result_type(d, user, def, id, ty)) != VK_SUCCESS ||
          (result = dg_match_graph_constant(d, def, &shaped, &constant, &desc)) != VK_SUCCESS)
         return result;
      dg_read_graph_constant(ty, desc, constant->pConstantData, out);
      return VK_SUCCESS;
   }
   case DG_SPV_CONSTANT_NULL:
      if ((result = check_result_type(d, user, def, id, ty)) != VK_SUCCESS)
         return result;
      memset(out, 0, bytes);
      return VK_SUCCESS;
   case DG_SPV_CONSTANT_COMPOSITE:
   case DG_SPV_SPEC_CONSTANT_COMPOSITE:
      if ((result = check_result_type(d, user, def, id, ty)) != VK_SUCCESS)
         return result;
      if (def->word_count - 3u != dim0)
         return dg_fail(d, user, DG_ERR_CONSTANT,
                        "tensor constant %%%u has %u constituents, its outermost dimension is "
                        "%" PRIu64,
                        id, def->word_count - 3u, dim0);
      for (uint32_t i = 0; i < dim0; i++) {
         uint32_t cid;
         if ((result = dg_word(d, def, 3 + i, &cid)) != VK_SUCCESS ||
             (result = eval_constituent(d, user, cid, ty, out, i)) != VK_SUCCESS)
            return result;
      }
      return VK_SUCCESS;
   case SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT:
   case SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT: {
      uint32_t cid, ctype;
      const struct spirv_inst *cdef;
      if ((result = check_result_type(d, user, def, id, ty)) != VK_SUCCESS ||
          (result = dg_word(d, def, 3, &cid)) != VK_SUCCESS ||
          (result = dg_def(d, user, cid, &cdef)) != VK_SUCCESS ||
          (result = dg_word(d, cdef, 1, &ctype)) != VK_SUCCESS)
         return result;
      if (def->word_count != 4)
         return dg_fail(d, user, DG_ERR_CONSTANT, "replicated constant %%%u has %u operands", id,
                        def->word_count - 3u);
      /* A scalar splats the whole tensor; otherwise the constituent is one
       * slice of the outermost dimension, repeated. */
      bool splat = !dg_is_tensor_type(d, ctype);
      uint64_t count = splat ? dg_shape_elements(&ty->shape) : dim0;
      if (splat) {
         struct dg_tensor_type one = *ty;
         one.shape.rank = 1;
         result = eval_constituent(d, user, cid, &one, out, 0);
      } else {
         result = eval_constituent(d, user, cid, ty, out, 0);
      }
      if (result != VK_SUCCESS)
         return result;
      uint64_t piece = bytes / count;
      for (uint64_t i = 1; i < count; i++)
         memcpy(out + i * piece, out, piece);
      return VK_SUCCESS;
   }
   case DG_SPV_SPEC_CONSTANT_OP:
      return dg_fail(d, user, DG_ERR_SPEC_CONSTANT_OP,
                     "OpSpecConstantOp %%%u makes a tensor: only scalar integer and boolean "
                     "operations are evaluated",
                     id);
   default:
      return dg_fail(d, user, DG_ERR_CONSTANT, "%%%u (opcode %u) is not a tensor constant", id,
                     def->opcode);
   }
}

VkResult
dg_eval_tensor(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
               const struct dg_tensor_type *ty, uint8_t *out)
{
   const struct spirv_inst *def;
   VkResult result = dg_def(d, user, id, &def);
   if (result != VK_SUCCESS)
      return result;
   /* Composites nest once per dimension; a deeper chain is a cycle. */
   if (d->depth > DG_MAX_RANK + 1)
      return dg_fail(d, user, DG_ERR_CONSTANT, "tensor constant %%%u is nested too deeply", id);
   d->depth++;
   result = eval_tensor_def(d, user, id, def, ty, out);
   d->depth--;
   return result;
}
