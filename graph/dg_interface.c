/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The pipeline side of a graph: matching each interface variable with its
 * VkDataGraphPipelineResourceInfoARM and each graph constant with its
 * VkDataGraphPipelineConstantARM, checking the chained VkTensorDescriptionARM
 * against the module's tensor type (VK_ARM_data_graph VUIDs 09779, 09850,
 * 09851, 09917, 09921, 09923), and reading graph constant data laid out by
 * its description. Failures here are the application's (VALIDATION_FAILED
 * codes). The module side of the interface is dg_decode.c's.
 */
#define LYR_LOG_THIS_DOMAIN LYR_LOG_GRAPH

#include <stdio.h>

#include "dg_decode_private.h"
#include "lyr_log.h"

const VkTensorDescriptionARM *
dg_find_description(const void *pnext)
{
   const VkBaseInStructure *s = pnext;
   /* A bounded walk: a looping chain must not hang pipeline creation. */
   for (uint32_t i = 0; s && i < 64; i++, s = s->pNext) {
      if (s->sType == VK_STRUCTURE_TYPE_TENSOR_DESCRIPTION_ARM)
         return (const VkTensorDescriptionARM *)s;
   }
   return NULL;
}

static VkResult
check_description(struct dg_decoder *d, const struct spirv_inst *inst, enum dg_error code,
                  const char *what, const VkTensorDescriptionARM *desc,
                  const struct dg_tensor_type *ty)
{
   char a[96], b[96];
   if (!desc)
      return dg_fail(d, inst, code, "%s has no VkTensorDescriptionARM in its pNext chain", what);
   if (desc->dimensionCount != ty->shape.rank || !desc->pDimensions)
      return dg_fail(d, inst, code, "%s: dimensionCount %u, the tensor type has rank %u", what,
                     desc->dimensionCount, ty->shape.rank);
   for (uint32_t i = 0; i < ty->shape.rank; i++) {
      if (desc->pDimensions[i] != ty->shape.dim[i]) {
         struct dg_shape got = {.rank = ty->shape.rank};
         memcpy(got.dim, desc->pDimensions, ty->shape.rank * sizeof(int64_t));
         return dg_fail(d, inst, code, "%s: pDimensions %s, the tensor type's shape is %s", what,
                        dg_shape_str(&got, a, sizeof(a)), dg_shape_str(&ty->shape, b, sizeof(b)));
      }
   }
   if (!dg_type_format_compatible(ty->type, ty->int_signed, desc->format))
      return dg_fail(d, inst, code, "%s: format %d is not compatible with element type %s%s", what,
                     (int)desc->format, dg_type_name(ty->type), ty->int_signed ? " (signed)" : "");
   if (!(desc->usage & VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM))
      return dg_fail(d, inst, code,
                     "%s: usage 0x%" PRIx64 " lacks VK_TENSOR_USAGE_DATA_GRAPH_BIT_ARM", what,
                     (uint64_t)desc->usage);
   return VK_SUCCESS;
}

/* Drop-in (D23): a tensor type declared without Shape (or Rank) takes them from the
 * description the application gives with it, as Arm's layer does. VUID-RuntimeSpirv-pNext-09919
 * (interface tensors) and 09920 (graph constants) ask for shaped types; the meaning is
 * unambiguous, so the rule broken is named in a warning. */
static VkResult
shape_from_description(struct dg_decoder *d, const struct spirv_inst *inst, enum dg_error code,
                       const char *what, const VkTensorDescriptionARM *desc,
                       struct dg_tensor_type *ty)
{
   if (dg_shape_known(&ty->shape))
      return VK_SUCCESS;
   char a[96], b[96];
   if (!desc)
      return dg_fail(d, inst, code,
                     "%s has no VkTensorDescriptionARM, and the module's tensor type is %s: "
                     "no shape to take",
                     what, dg_shape_str(&ty->shape, a, sizeof(a)));
   if (!desc->pDimensions || desc->dimensionCount == 0 || desc->dimensionCount > DG_MAX_RANK ||
       (ty->shape.rank && desc->dimensionCount != ty->shape.rank))
      return dg_fail(d, inst, code, "%s: dimensionCount %u, the tensor type is %s", what,
                     desc->dimensionCount, dg_shape_str(&ty->shape, a, sizeof(a)));
   struct dg_tensor_type shaped = *ty;
   shaped.shape.rank = desc->dimensionCount;
   for (uint32_t i = 0; i < desc->dimensionCount; i++) {
      if (desc->pDimensions[i] < 1)
         return dg_fail(d, inst, code, "%s: pDimensions[%u] is %" PRId64, what, i,
                        desc->pDimensions[i]);
      shaped.shape.dim[i] = desc->pDimensions[i];
   }
   VkResult result = dg_check_tensor_size(d, inst, &shaped);
   if (result != VK_SUCCESS)
      return result;
   lyr_logw("vkCreateDataGraphPipelinesARM: %s: the module's tensor type is %s %s; the shape "
            "%s is taken from the VkTensorDescriptionARM (%s)",
            what, dg_type_name(ty->type), dg_shape_str(&ty->shape, a, sizeof(a)),
            dg_shape_str(&shaped.shape, b, sizeof(b)),
            code == DG_ERR_RESOURCE_DESCRIPTION
               ? "VUID-RuntimeSpirv-pNext-09919 asks for shaped interface tensors"
               : "VUID-RuntimeSpirv-pNext-09920 asks for shaped graph constants");
   *ty = shaped;
   return VK_SUCCESS;
}

VkResult
dg_match_resource(struct dg_decoder *d, const struct spirv_inst *var_inst,
                  struct dg_interface_var *var)
{
   const struct dg_decode_info *info = d->info;
   const VkDataGraphPipelineResourceInfoARM *found = NULL;
   uint32_t count = info->resource_infos ? info->resource_info_count : 0;
   for (uint32_t i = 0; i < count; i++) {
      const VkDataGraphPipelineResourceInfoARM *ri = &info->resource_infos[i];
      if (ri->descriptorSet != var->set || ri->binding != var->binding)
         continue;
      if (ri->arrayElement != 0)
         return dg_fail(d, var_inst, DG_ERR_RESOURCE_ARRAY_ELEMENT,
                        "pResourceInfos[%u] (set %u, binding %u) has arrayElement %u; it must "
                        "be 0 (VUID-VkDataGraphPipelineResourceInfoARM-arrayElement-09779)",
                        i, ri->descriptorSet, ri->binding, ri->arrayElement);
      if (found)
         return dg_fail(d, var_inst, DG_ERR_RESOURCE_DUPLICATE,
                        "pResourceInfos[%u] and [%u] both describe set %u, binding %u "
                        "(VUID-VkDataGraphPipelineCreateInfoARM-layout-09923)",
                        (uint32_t)(found - info->resource_infos), i, var->set, var->binding);
      found = ri;
   }
   if (!found)
      return dg_fail(d, var_inst, DG_ERR_RESOURCE_MISSING,
                     "no VkDataGraphPipelineResourceInfoARM for set %u, binding %u "
                     "(VUID-VkDataGraphPipelineCreateInfoARM-layout-09923)",
                     var->set, var->binding);
   char what[96];
   snprintf(what, sizeof(what), "pResourceInfos[%u] (set %u, binding %u)",
            (uint32_t)(found - info->resource_infos), var->set, var->binding);
   var->desc = dg_find_description(found->pNext);
   VkResult result = shape_from_description(d, var_inst, DG_ERR_RESOURCE_DESCRIPTION, what,
                                            var->desc, &var->ty);
   if (result != VK_SUCCESS)
      return result;
   return check_description(d, var_inst, DG_ERR_RESOURCE_DESCRIPTION, what, var->desc, &var->ty);
}

/* Strides, when given, must describe a non-aliasing layout of whole elements
 * (VkTensorDescriptionARM VUIDs 09737, 09739). An innermost stride wider than the
 * element breaks 09736 but has one meaning, which the upload follows: accepted with a
 * warning, as the tensor layer does (D28). */
static VkResult
check_strides(struct dg_decoder *d, const struct spirv_inst *inst, const char *what,
              const VkTensorDescriptionARM *desc, const struct dg_tensor_type *ty)
{
   if (!desc->pStrides)
      return VK_SUCCESS;
   int64_t size = dg_type_size(ty->type);
   uint32_t rank = ty->shape.rank;
   for (uint32_t i = 0; i < rank; i++) {
      int64_t s = desc->pStrides[i];
      bool bad = s <= 0 || s % size != 0 ||
                 (i > 0 && desc->pStrides[i - 1] / desc->pDimensions[i] < s);
      if (bad)
         return dg_fail(d, inst, DG_ERR_CONSTANT_DESCRIPTION,
                        "%s: pStrides[%u] = %" PRId64 " is not a valid stride for %s elements",
                        what, i, s, dg_type_name(ty->type));
   }
   if (desc->pStrides[rank - 1] != size)
      lyr_logw("vkCreateDataGraphPipelinesARM: %s: the innermost stride %" PRId64
               " is not the element size %" PRId64
               " (VUID-VkTensorDescriptionARM-pStrides-09736); the data is read with it",
               what, desc->pStrides[rank - 1], size);
   return VK_SUCCESS;
}

VkResult
dg_match_graph_constant(struct dg_decoder *d, const struct spirv_inst *gc,
                        struct dg_tensor_type *ty,
                        const VkDataGraphPipelineConstantARM **constant,
                        const VkTensorDescriptionARM **desc)
{
   const struct dg_decode_info *info = d->info;
   uint32_t constant_id;
   VkResult result = dg_word(d, gc, 3, &constant_id);
   if (result != VK_SUCCESS)
      return result;
   const VkDataGraphPipelineConstantARM *found = NULL;
   uint32_t count = info->constants ? info->constant_count : 0;
   for (uint32_t i = 0; i < count; i++) {
      if (info->constants[i].id != constant_id)
         continue;
      if (found)
         return dg_fail(d, gc, DG_ERR_CONSTANT_DUPLICATE,
                        "pConstants[%u] and [%u] both have id %u (VUID-RuntimeSpirv-pNext-09921)",
                        (uint32_t)(found - info->constants), i, constant_id);
      found = &info->constants[i];
   }
   if (!found)
      return dg_fail(d, gc, DG_ERR_CONSTANT_MISSING,
                     "no VkDataGraphPipelineConstantARM has id %u (VUID-RuntimeSpirv-pNext-09921)",
                     constant_id);
   char what[64];
   snprintf(what, sizeof(what), "pConstants[%u] (id %u)", (uint32_t)(found - info->constants),
            constant_id);
   *constant = found;
   *desc = dg_find_description(found->pNext);
   if ((result = shape_from_description(d, gc, DG_ERR_CONSTANT_DESCRIPTION, what, *desc, ty)) !=
       VK_SUCCESS)
      return result;
   if ((result = check_description(d, gc, DG_ERR_CONSTANT_DESCRIPTION, what, *desc, ty)) !=
       VK_SUCCESS)
      return result;
   if ((*desc)->tiling != VK_TENSOR_TILING_LINEAR_ARM)
      return dg_fail(d, gc, DG_ERR_CONSTANT_DESCRIPTION,
                     "%s: tiling %d is not VK_TENSOR_TILING_LINEAR_ARM "
                     "(VUID-VkDataGraphPipelineConstantARM-pNext-09917)",
                     what, (int)(*desc)->tiling);
   if (!found->pConstantData)
      return dg_fail(d, gc, DG_ERR_CONSTANT_DESCRIPTION, "%s: pConstantData is NULL", what);
   return check_strides(d, gc, what, *desc, ty);
}

void
dg_read_graph_constant(const struct dg_tensor_type *ty, const VkTensorDescriptionARM *desc,
                       const void *data, uint8_t *out)
{
   uint32_t size = dg_type_size(ty->type);
   uint64_t count = dg_shape_elements(&ty->shape);
   const uint8_t *src = data;
   if (!desc->pStrides) {
      memcpy(out, src, count * size);
      return;
   }
   /* Walk the elements in packed order, keeping the strided offset. */
   uint64_t index[DG_MAX_RANK] = {0};
   uint32_t rank = ty->shape.rank;
   for (uint64_t e = 0; e < count; e++) {
      uint64_t offset = 0;
      for (uint32_t i = 0; i < rank; i++)
         offset += index[i] * (uint64_t)desc->pStrides[i];
      memcpy(out + e * size, src + offset, size);
      for (uint32_t i = rank; i-- > 0;) {
         if (++index[i] < (uint64_t)ty->shape.dim[i])
            break;
         index[i] = 0;
      }
   }
}
