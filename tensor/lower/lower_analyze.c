/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The analysis pass: one walk over the input that records what the rewriting
 * passes need (tensor types, their pointers, arrays and variables,
 * pointer-to-tensor parameters, NonUniform and float8-saturation decorations,
 * bfloat16/float8 types) and rejects, with the word offset of the culprit,
 * everything they cannot handle: unranked tensors, ranks above
 * VMEL_TENSOR_MAX_RANK, tensors inside structs, tensor pointers used other
 * than by loads, access chains and calls, malformed tensor instructions
 * (lower_decode.c), graph modules, and tensors reachable from an entry point
 * that is not a compute, vertex or fragment shader (the stages the tensor
 * layer can advertise in shaderTensorSupportedStages, tsr_caps.c), or from a
 * vertex or fragment one when tsr_lower_options::features lacks
 * TSR_LOWER_FEATURE_VERTEX / TSR_LOWER_FEATURE_FRAGMENT.
 * It changes nothing in the output.
 */
#include "tsr_lower_private.h"

#include <string.h>

#include "lyr_alloc.h"

#define BAD VK_ERROR_INITIALIZATION_FAILED
#define UNSUPPORTED VK_ERROR_FEATURE_NOT_PRESENT

/* Per function id (struct analysis::fn). */
enum { FN_USES_TENSORS = 1, FN_VISITED = 2 };

struct analysis {
   struct tsr_lower *l;
   uint8_t *fn;     /* uint8_t[bound] */
   uint32_t *edges; /* caller, callee pairs */
   uint32_t edge_count, edge_capacity;
   uint32_t cur_fn;
   uint32_t offset; /* of the instruction being analysed */
};

static bool
add_tensor_type(struct analysis *an, const uint32_t *w)
{
   struct tsr_lower *l = an->l;
   uint32_t wc = w[0] >> 16, id = w[1];
   if (wc < 3)
      return tsr_lower_fail(l, BAD, an->offset, "OpTypeTensorARM %%%u has no ElementType", id);
   struct tsr_tensor_type tt = {.id = id, .elem_type = w[2]};
   uint32_t bits = 0;
   if (!tsr_lower_scalar_kind(l, w[2], &tt.kind, &bits))
      return tsr_lower_fail(l, BAD, an->offset,
                            "OpTypeTensorARM %%%u: ElementType %%%u is not a scalar boolean, "
                            "integer or floating-point type of a supported width",
                            id, w[2]);
   tt.elem_size = bits / 8;
   if (wc < 4)
      return tsr_lower_fail(l, BAD, an->offset,
                            "OpTypeTensorARM %%%u has no Rank: unranked tensors must not be used "
                            "in shaders",
                            id);
   tt.rank_id = w[3];
   uint64_t rank = 0;
   if (tsr_lower_const_uint(l, w[3], &rank)) {
      if (rank == 0)
         return tsr_lower_fail(l, BAD, an->offset, "OpTypeTensorARM %%%u: Rank is 0", id);
      if (rank > VMEL_TENSOR_MAX_RANK)
         return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                               "OpTypeTensorARM %%%u: Rank %llu exceeds maxTensorDimensionCount "
                               "(%u)",
                               id, (unsigned long long)rank, VMEL_TENSOR_MAX_RANK);
      tt.rank = (uint32_t)rank;
   } else {
      const uint32_t *d = tsr_lower_def_words(l, w[3]);
      const uint32_t *dt = d ? tsr_lower_def_words(l, d[1]) : NULL;
      if (!d || (d[0] & 0xffffu) != SpvOpSpecConstant || !dt || (dt[0] & 0xffffu) != SpvOpTypeInt ||
          dt[2] != 32)
         return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                               "OpTypeTensorARM %%%u: Rank %%%u is neither an integer constant "
                               "nor a 32-bit integer specialization constant",
                               id, w[3]);
   }
   if (l->tensor_count % 16 == 0) {
      struct tsr_tensor_type *t =
          lyr_realloc(l->alloc, l->tensors, sizeof(*t) * (l->tensor_count + 16), 8,
                      VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!t)
         return tsr_lower_fail(l, VK_ERROR_OUT_OF_HOST_MEMORY, an->offset, "out of memory");
      l->tensors = t;
   }
   l->tensors[l->tensor_count] = tt;
   l->tensor_of[id] = l->tensor_count++;
   l->flags[id] |= TSR_ID_TENSOR_TYPE;
   return true;
}

static bool
analyze_capability(struct analysis *an, uint32_t cap)
{
   struct tsr_lower *l = an->l;
   switch (cap) {
   case SPV_ARM_CAP_GRAPH:
      return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                            "OpCapability GraphARM: a data-graph module is not a shader");
   case SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING:
      l->arm_dynamic_indexing = true;
      return true;
   case SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING:
      l->arm_non_uniform = true;
      return true;
   case SPV_ARM_CAP_BFLOAT16_DOT_PRODUCT_KHR:
   case SPV_ARM_CAP_BFLOAT16_COOPERATIVE_MATRIX_KHR:
   case SPV_ARM_CAP_FLOAT8_COOPERATIVE_MATRIX_EXT:
      return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                            "OpCapability %u: bfloat16/float8 dot products and cooperative "
                            "matrices are not emulated",
                            cap);
   default:
      return true;
   }
}

static bool
analyze_type(struct analysis *an, const uint32_t *w)
{
   struct tsr_lower *l = an->l;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   const char *name = tsr_lower_op_name(op);
   switch (op) {
   case SpvOpTypeFloat: {
      enum tsr_elem_kind kind;
      uint32_t bits;
      if (wc < 4)
         return true;
      if (!tsr_lower_scalar_kind(l, w[1], &kind, &bits))
         return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                               "OpTypeFloat %%%u: width %u with FP encoding %u is not supported",
                               w[1], w[2], w[3]);
      l->flags[w[1]] |= TSR_ID_SMALL_FLOAT;
      l->has_small_floats = true;
      return true;
   }
   case SPV_ARM_OP_TYPE_TENSOR:
      return add_tensor_type(an, w);
   case SpvOpTypePointer:
      if (wc != 4)
         return true;
      if (tsr_lower_has(l, w[3], TSR_ID_TENSOR_TYPE | TSR_ID_TENSOR_ARRAY)) {
         if (w[2] != SpvStorageClassUniformConstant)
            return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                                  "OpTypePointer %%%u: tensors in storage class %u (only "
                                  "UniformConstant)",
                                  w[1], w[2]);
         bool array = tsr_lower_has(l, w[3], TSR_ID_TENSOR_ARRAY);
         l->flags[w[1]] |= array ? TSR_ID_TENSOR_ARRAY_PTR : TSR_ID_TENSOR_PTR;
         l->tensor_of[w[1]] = l->tensor_of[w[3]];
      }
      return true;
   case SpvOpTypeArray:
   case SpvOpTypeRuntimeArray:
      if (wc < 3)
         return true;
      if (tsr_lower_has(l, w[2], TSR_ID_TENSOR_ARRAY))
         return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                               "%s %%%u: arrays of arrays of tensors are not supported", name,
                               w[1]);
      if (tsr_lower_has(l, w[2], TSR_ID_TENSOR_TYPE)) {
         l->flags[w[1]] |= TSR_ID_TENSOR_ARRAY;
         l->tensor_of[w[1]] = l->tensor_of[w[2]];
         if (op == SpvOpTypeRuntimeArray)
            l->runtime_tensor_array = true;
      }
      return true;
   case SpvOpTypeStruct:
      for (uint32_t i = 2; i < wc; i++)
         if (tsr_lower_has(l, w[i], TSR_ID_TENSOR_TYPE | TSR_ID_TENSOR_ARRAY))
            return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                                  "OpTypeStruct %%%u: member %u is a tensor", w[1], i - 2);
      return true;
   case SpvOpTypeFunction:
      for (uint32_t i = 2; i < wc; i++)
         if (tsr_lower_has(l, w[i], TSR_ID_TENSOR_ARRAY_PTR | TSR_ID_TENSOR_ARRAY) ||
             (i == 2 && tsr_lower_has(l, w[i], TSR_ID_TENSOR_PTR)))
            return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                                  "OpTypeFunction %%%u: arrays of tensors (or pointers to "
                                  "tensors as return type) are not supported",
                                  w[1]);
      return true;
   default:
      return true;
   }
}

/* bfloat16/float8 scalar or vector type? */
static bool
is_small_float_value(const struct tsr_lower *l, uint32_t type)
{
   if (tsr_lower_has(l, type, TSR_ID_SMALL_FLOAT))
      return true;
   const uint32_t *t = tsr_lower_def_words(l, type);
   return t && (t[0] & 0xffffu) == SpvOpTypeVector && (t[0] >> 16) == 4 &&
          tsr_lower_has(l, t[2], TSR_ID_SMALL_FLOAT);
}

static bool
small_float_allowed(uint32_t op)
{
   switch (op) {
   case SpvOpUndef:
   case SpvOpConstant:
   case SpvOpConstantComposite:
   case SpvOpConstantNull:
   case SpvOpSpecConstant:
   case SpvOpSpecConstantComposite:
   case SpvOpLoad:
   case SpvOpCopyObject:
   case SpvOpCopyLogical:
   case SpvOpCompositeConstruct:
   case SpvOpCompositeExtract:
   case SpvOpCompositeInsert:
   case SpvOpVectorShuffle:
   case SpvOpVectorExtractDynamic:
   case SpvOpVectorInsertDynamic:
   case SpvOpSelect:
   case SpvOpPhi:
   case SpvOpFunctionCall:
   case SpvOpFunctionParameter:
   case SpvOpFConvert:
   case SpvOpConvertSToF:
   case SpvOpConvertUToF:
   case SpvOpBitcast:
   case SPV_ARM_OP_TENSOR_READ:
      return true;
   default:
      return false;
   }
}

static bool
add_edge(struct analysis *an, uint32_t callee)
{
   if (an->edge_count == an->edge_capacity) {
      uint32_t cap = an->edge_capacity ? an->edge_capacity * 2 : 64;
      uint32_t *e = lyr_realloc(an->l->alloc, an->edges, cap * 2 * sizeof(uint32_t), 8,
                                VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
      if (!e)
         return tsr_lower_fail(an->l, VK_ERROR_OUT_OF_HOST_MEMORY, an->offset, "out of memory");
      an->edges = e;
      an->edge_capacity = cap;
   }
   an->edges[an->edge_count * 2] = an->cur_fn;
   an->edges[an->edge_count * 2 + 1] = callee;
   an->edge_count++;
   return true;
}

static void
uses(struct analysis *an)
{
   if (an->cur_fn && an->cur_fn < an->l->bound)
      an->fn[an->cur_fn] |= FN_USES_TENSORS;
}

/* Instructions in function bodies (and OpVariable). */
static bool
analyze_code(struct analysis *an, const uint32_t *w)
{
   struct tsr_lower *l = an->l;
   uint32_t op = w[0] & 0xffffu, wc = w[0] >> 16;
   const char *name = tsr_lower_op_name(op);
   uint32_t type = 0;
   bool has_type, has_result;
   spirv_opcode_result_info(op, &has_type, &has_result);
   if (has_type)
      type = w[1];
   const uint16_t ptr_flags = TSR_ID_TENSOR_PTR | TSR_ID_TENSOR_ARRAY_PTR;

   switch (op) {
   case SpvOpVariable:
      if (!tsr_lower_has(l, type, ptr_flags))
         return true;
      if (wc != 4 || w[3] != SpvStorageClassUniformConstant)
         return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                               "OpVariable %%%u: tensor variables must be UniformConstant, "
                               "without initializer",
                               w[2]);
      l->flags[w[2]] |= TSR_ID_TENSOR_VAR;
      l->tensor_of[w[2]] = l->tensor_of[type];
      l->has_tensor_vars = true;
      return true;
   case SpvOpFunction:
      an->cur_fn = w[2];
      return true;
   case SpvOpFunctionEnd:
      an->cur_fn = 0;
      return true;
   case SpvOpFunctionParameter:
      if (tsr_lower_has(l, type, TSR_ID_TENSOR_PTR)) {
         l->flags[w[2]] |= TSR_ID_TENSOR_PARAM;
         uses(an);
      } else if (tsr_lower_has(l, type, TSR_ID_TENSOR_TYPE)) {
         uses(an);
      }
      return true;
   case SpvOpFunctionCall:
      return wc < 4 || add_edge(an, w[3]);
   case SpvOpLoad:
      if (tsr_lower_has(l, type, TSR_ID_TENSOR_TYPE))
         uses(an);
      return true;
   case SpvOpAccessChain:
   case SpvOpInBoundsAccessChain: {
      uint32_t base_type = wc > 3 ? tsr_lower_type_of(l, w[3]) : 0;
      bool from_array = tsr_lower_has(l, base_type, TSR_ID_TENSOR_ARRAY_PTR);
      if (tsr_lower_has(l, type, TSR_ID_TENSOR_PTR) && from_array && wc == 5) {
         uses(an);
         return true;
      }
      if (from_array || tsr_lower_has(l, base_type, TSR_ID_TENSOR_PTR) ||
          tsr_lower_has(l, type, ptr_flags))
         return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                               "%s %%%u: only one index into an array of tensors is supported",
                               name, w[2]);
      return true;
   }
   case SpvOpCopyObject:
      if (tsr_lower_has(l, type, TSR_ID_TENSOR_PTR)) {
         if (wc == 4 && tsr_lower_has(l, w[3], TSR_ID_TENSOR_PARAM))
            l->flags[w[2]] |= TSR_ID_TENSOR_PARAM;
         uses(an);
         return true;
      }
      break;
   case SPV_ARM_OP_TENSOR_READ:
   case SPV_ARM_OP_TENSOR_WRITE:
   case SPV_ARM_OP_TENSOR_QUERY_SIZE: {
      struct tsr_access a;
      uses(an);
      return tsr_lower_decode_access(l, w, an->offset, &a);
   }
   case SPV_ARM_OP_GRAPH_CONSTANT:
   case SPV_ARM_OP_GRAPH_ENTRY_POINT:
   case SPV_ARM_OP_GRAPH:
   case SPV_ARM_OP_GRAPH_INPUT:
   case SPV_ARM_OP_GRAPH_SET_OUTPUT:
   case SPV_ARM_OP_GRAPH_END:
   case SPV_ARM_OP_TYPE_GRAPH:
      return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                            "SPV_ARM_graph instruction (opcode %u) in a shader module", op);
   default:
      break;
   }
   if (has_type && tsr_lower_has(l, type, ptr_flags))
      return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                            "opcode %u producing a pointer to a tensor is not supported", op);
   if (has_type && tsr_lower_has(l, type, TSR_ID_TENSOR_TYPE))
      uses(an);
   if (has_type && l->has_small_floats && is_small_float_value(l, type) && !small_float_allowed(op))
      return tsr_lower_fail(l, UNSUPPORTED, an->offset,
                            "opcode %u on bfloat16/float8 values (only conversions, memory and "
                            "composite instructions are emulated)",
                            op);
   return true;
}

/* Whether tensors may be used by an entry point of this execution model: compute always,
 * vertex and fragment where the device offers them (docs/decisions.md D29). */
static bool
model_takes_tensors(const struct tsr_lower *l, uint32_t model)
{
   switch (model) {
   case SpvExecutionModelGLCompute:
      return true;
   case SpvExecutionModelVertex:
      return (l->opts->features & TSR_LOWER_FEATURE_VERTEX) != 0;
   case SpvExecutionModelFragment:
      return (l->opts->features & TSR_LOWER_FEATURE_FRAGMENT) != 0;
   default:
      return false;
   }
}

static const char *
stages_with_tensors(const struct tsr_lower *l)
{
   static const char *const names[4] = {
       "compute shaders",
       "compute and vertex shaders",
       "compute and fragment shaders",
       "compute, vertex and fragment shaders",
   };
   return names[((l->opts->features & TSR_LOWER_FEATURE_VERTEX) ? 1 : 0) |
                ((l->opts->features & TSR_LOWER_FEATURE_FRAGMENT) ? 2 : 0)];
}

/* Fails if an entry point of a model without tensors lists a tensor variable or calls into
 * tensor code. */
static bool
check_entry_point(struct analysis *an, const struct spirv_inst *inst)
{
   struct tsr_lower *l = an->l;
   const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
   const char *ep_name = "";
   uint32_t next = 3;
   struct spirv_diag diag;
   if (inst->word_count < 4 ||
       spirv_reader_string(&l->r, inst, 3, &ep_name, NULL, &next, &diag) != VK_SUCCESS)
      return tsr_lower_fail(l, BAD, inst->offset, "OpEntryPoint: malformed");
   if (model_takes_tensors(l, w[1]))
      return true;
   for (uint32_t i = next; i < inst->word_count; i++)
      if (tsr_lower_has(l, w[i], TSR_ID_TENSOR_VAR))
         return tsr_lower_fail(l, UNSUPPORTED, inst->offset,
                               "OpEntryPoint \"%s\" (execution model %u): tensors are only "
                               "supported in %s",
                               ep_name, w[1], stages_with_tensors(l));
   return true;
}

static bool
reaches_tensors(struct analysis *an, uint32_t root, uint8_t *uses_fn)
{
   uint32_t *stack = lyr_alloc(an->l->alloc, (size_t)(an->edge_count + 1) * sizeof(uint32_t), 8,
                               VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!stack)
      return tsr_lower_fail(an->l, VK_ERROR_OUT_OF_HOST_MEMORY, 0, "out of memory");
   bool found = false;
   uint32_t depth = 0;
   stack[depth++] = root;
   memset(an->fn, 0, an->l->bound);
   while (depth && !found) {
      uint32_t f = stack[--depth];
      if (f >= an->l->bound || an->fn[f])
         continue;
      an->fn[f] = FN_VISITED;
      found = uses_fn[f] != 0;
      for (uint32_t e = 0; e < an->edge_count && depth <= an->edge_count; e++)
         if (an->edges[2 * e] == f && an->edges[2 * e + 1] < an->l->bound &&
             !an->fn[an->edges[2 * e + 1]])
            stack[depth++] = an->edges[2 * e + 1];
   }
   lyr_free(an->l->alloc, stack);
   return found;
}

static bool
check_entry_points(struct analysis *an)
{
   struct tsr_lower *l = an->l;
   uint8_t *uses_fn = lyr_alloc(l->alloc, l->bound, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!uses_fn)
      return tsr_lower_fail(l, VK_ERROR_OUT_OF_HOST_MEMORY, 0, "out of memory");
   for (uint32_t i = 0; i < l->bound; i++)
      uses_fn[i] = an->fn[i] & FN_USES_TENSORS;
   bool ok = true;
   for (uint32_t i = 0; i < l->r.inst_count && ok; i++) {
      const struct spirv_inst *inst = &l->r.insts[i];
      if (inst->opcode != SpvOpEntryPoint)
         continue;
      ok = check_entry_point(an, inst);
      const uint32_t *w = spirv_reader_inst_words(&l->r, inst);
      if (ok && !model_takes_tensors(l, w[1]) && reaches_tensors(an, w[2], uses_fn)) {
         const char *ep_name = (const char *)(w + 3);
         ok = tsr_lower_fail(l, UNSUPPORTED, inst->offset,
                             "OpEntryPoint \"%s\" (execution model %u) uses tensors: tensors are "
                             "only supported in %s",
                             ep_name, w[1], stages_with_tensors(l));
      }
      ok = ok && l->result == VK_SUCCESS;
   }
   lyr_free(l->alloc, uses_fn);
   return ok;
}

static bool
analyze_inst(struct analysis *an, const struct spirv_inst *inst, const uint32_t *w)
{
   struct tsr_lower *l = an->l;
   uint32_t op = inst->opcode, wc = inst->word_count;
   switch (op) {
   case SpvOpCapability:
      return wc < 2 || analyze_capability(an, w[1]);
   case SpvOpMemoryModel:
      if (wc != 3)
         return tsr_lower_fail(l, BAD, inst->offset, "OpMemoryModel: word count %u", wc);
      l->addressing_model = w[1];
      l->memory_model = w[2];
      if (w[1] != SpvAddressingModelLogical && w[1] != SpvAddressingModelPhysicalStorageBuffer64)
         return tsr_lower_fail(l, UNSUPPORTED, inst->offset,
                               "OpMemoryModel: addressing model %u (only Logical and "
                               "PhysicalStorageBuffer64)",
                               w[1]);
      return true;
   case SpvOpDecorate:
      if (wc >= 3 && w[1] < l->bound && w[2] == SpvDecorationNonUniform)
         l->flags[w[1]] |= TSR_ID_NON_UNIFORM;
      if (wc >= 3 && w[1] < l->bound && w[2] == TSR_DECORATION_SATURATED_FLOAT8)
         l->flags[w[1]] |= TSR_ID_SATURATE;
      return true;
   case SpvOpSpecConstantOp:
      if (wc >= 2 && is_small_float_value(l, w[1]))
         return tsr_lower_fail(l, UNSUPPORTED, inst->offset,
                               "OpSpecConstantOp on bfloat16/float8 values is not supported");
      return true;
   default:
      break;
   }
   if (spirv_section_of_opcode(op) == SPIRV_SECTION_GLOBAL &&
       (op == SpvOpTypeFloat || op == SPV_ARM_OP_TYPE_TENSOR || op == SpvOpTypePointer ||
        op == SpvOpTypeArray || op == SpvOpTypeRuntimeArray || op == SpvOpTypeStruct ||
        op == SpvOpTypeFunction))
      return analyze_type(an, w);
   return analyze_code(an, w);
}

bool
tsr_lower_analyze(struct tsr_lower *l)
{
   struct analysis an = {.l = l};
   an.fn = lyr_zalloc(l->alloc, l->bound, 8, VK_SYSTEM_ALLOCATION_SCOPE_COMMAND);
   if (!an.fn)
      return tsr_lower_fail(l, VK_ERROR_OUT_OF_HOST_MEMORY, 0, "out of memory");

   bool ok = true;
   for (uint32_t i = 0; i < l->r.inst_count && ok; i++) {
      const struct spirv_inst *inst = &l->r.insts[i];
      an.offset = inst->offset;
      ok = analyze_inst(&an, inst, spirv_reader_inst_words(&l->r, inst));
   }
   if (ok)
      check_entry_points(&an);
   lyr_free(l->alloc, an.fn);
   lyr_free(l->alloc, an.edges);
   return false;
}
