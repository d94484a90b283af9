/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The ARM layer of the assembler's grammar and the lookups over it. The
 * generated core tables come from the system SPIRV-Headers, which on Debian 12
 * predate SPV_ARM_tensors, SPV_ARM_graph, SPV_KHR_bfloat16, SPV_EXT_float8 and
 * SPV_EXT_replicated_composites; this file adds their instructions, the
 * TensorOperands and FPEncoding operand kinds and the new capabilities, with
 * the numbers of spirv_arm_ml.h and the operand layouts of upstream
 * spirv.core.grammar.json.
 */
#include "spirv_grammar.h"

#include <stdbool.h>
#include <string.h>

#include "spirv/spirv_arm_ml.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct spirv_operand_desc op_type_float[] = {
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_LiteralInteger, SPIRV_Q_ONE},
    {SPIRV_KIND_ARM_FPEncoding, SPIRV_Q_OPT},
};
static const struct spirv_operand_desc op_type_tensor[] = {
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Element Type */
    {SPIRV_KIND_IdRef, SPIRV_Q_OPT}, /* Rank */
    {SPIRV_KIND_IdRef, SPIRV_Q_OPT}, /* Shape */
};
static const struct spirv_operand_desc op_tensor_read[] = {
    {SPIRV_KIND_IdResultType, SPIRV_Q_ONE},
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Tensor */
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Coordinates */
    {SPIRV_KIND_ARM_TensorOperands, SPIRV_Q_OPT},
};
static const struct spirv_operand_desc op_tensor_write[] = {
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Tensor */
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Coordinates */
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Object */
    {SPIRV_KIND_ARM_TensorOperands, SPIRV_Q_OPT},
};
static const struct spirv_operand_desc op_tensor_query_size[] = {
    {SPIRV_KIND_IdResultType, SPIRV_Q_ONE},
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Tensor */
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Dimension */
};
static const struct spirv_operand_desc op_graph_constant[] = {
    {SPIRV_KIND_IdResultType, SPIRV_Q_ONE},
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_LiteralInteger, SPIRV_Q_ONE}, /* GraphConstantID */
};
static const struct spirv_operand_desc op_graph_entry_point[] = {
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE},         /* Graph */
    {SPIRV_KIND_LiteralString, SPIRV_Q_ONE}, /* Name */
    {SPIRV_KIND_IdRef, SPIRV_Q_ANY},         /* Interface */
};
static const struct spirv_operand_desc op_result_type_and_id[] = {
    {SPIRV_KIND_IdResultType, SPIRV_Q_ONE},
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* the replicated Value, unused by OpGraphARM */
};
static const struct spirv_operand_desc op_graph_input[] = {
    {SPIRV_KIND_IdResultType, SPIRV_Q_ONE},
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* InputIndex */
    {SPIRV_KIND_IdRef, SPIRV_Q_ANY}, /* ElementIndex (upstream grammar: "*") */
};
static const struct spirv_operand_desc op_graph_set_output[] = {
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* Value */
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE}, /* OutputIndex */
    {SPIRV_KIND_IdRef, SPIRV_Q_ANY}, /* ElementIndex */
};
static const struct spirv_operand_desc op_type_graph[] = {
    {SPIRV_KIND_IdResult, SPIRV_Q_ONE},
    {SPIRV_KIND_LiteralInteger, SPIRV_Q_ONE}, /* NumInputs */
    {SPIRV_KIND_IdRef, SPIRV_Q_ANY},          /* InOutTypes */
};

#define INST(name, opcode, operands, count)                                                        \
   {                                                                                               \
      name, opcode, operands, count                                                                \
   }
static const struct spirv_inst_desc arm_insts[] = {
    INST("OpTypeFloat", 22, op_type_float, 3),
    INST("OpTypeTensorARM", SPV_ARM_OP_TYPE_TENSOR, op_type_tensor, 4),
    INST("OpTensorReadARM", SPV_ARM_OP_TENSOR_READ, op_tensor_read, 5),
    INST("OpTensorWriteARM", SPV_ARM_OP_TENSOR_WRITE, op_tensor_write, 4),
    INST("OpTensorQuerySizeARM", SPV_ARM_OP_TENSOR_QUERY_SIZE, op_tensor_query_size, 4),
    INST("OpGraphConstantARM", SPV_ARM_OP_GRAPH_CONSTANT, op_graph_constant, 3),
    INST("OpGraphEntryPointARM", SPV_ARM_OP_GRAPH_ENTRY_POINT, op_graph_entry_point, 3),
    INST("OpGraphARM", SPV_ARM_OP_GRAPH, op_result_type_and_id, 2),
    INST("OpGraphInputARM", SPV_ARM_OP_GRAPH_INPUT, op_graph_input, 4),
    INST("OpGraphSetOutputARM", SPV_ARM_OP_GRAPH_SET_OUTPUT, op_graph_set_output, 3),
    INST("OpGraphEndARM", SPV_ARM_OP_GRAPH_END, NULL, 0),
    INST("OpTypeGraphARM", SPV_ARM_OP_TYPE_GRAPH, op_type_graph, 3),
    INST("OpConstantCompositeReplicateEXT", SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT,
         op_result_type_and_id, 3),
    INST("OpSpecConstantCompositeReplicateEXT", SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT,
         op_result_type_and_id, 3),
    INST("OpCompositeConstructReplicateEXT", SPV_ARM_OP_COMPOSITE_CONSTRUCT_REPLICATE_EXT,
         op_result_type_and_id, 3),
};
#undef INST

static const struct spirv_operand_desc param_id[] = {
    {SPIRV_KIND_IdRef, SPIRV_Q_ONE},
};

static const struct spirv_enumerant_desc tensor_operands[] = {
    {"NoneARM", SPV_ARM_TENSOR_OPERANDS_NONE, NULL, 0},
    {"NontemporalARM", SPV_ARM_TENSOR_OPERANDS_NONTEMPORAL, NULL, 0},
    {"OutOfBoundsValueARM", SPV_ARM_TENSOR_OPERANDS_OUT_OF_BOUNDS_VALUE, param_id, 1},
    {"MakeElementAvailableARM", SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE, param_id, 1},
    {"MakeElementVisibleARM", SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE, param_id, 1},
    {"NonPrivateElementARM", SPV_ARM_TENSOR_OPERANDS_NON_PRIVATE_ELEMENT, NULL, 0},
};

static const struct spirv_enumerant_desc fp_encodings[] = {
    {"BFloat16KHR", SPV_ARM_FP_ENCODING_BFLOAT16_KHR, NULL, 0},
    {"Float8E4M3EXT", SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT, NULL, 0},
    {"Float8E5M2EXT", SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT, NULL, 0},
};

static const struct spirv_kind_desc arm_kinds[SPIRV_KIND_TOTAL - SPIRV_CORE_KIND_COUNT] = {
    [SPIRV_KIND_ARM_TensorOperands - SPIRV_CORE_KIND_COUNT] = {"TensorOperands",
                                                               SPIRV_CAT_BIT_ENUM,
                                                               tensor_operands,
                                                               ARRAY_SIZE(tensor_operands),
                                                               {0, 0}},
    [SPIRV_KIND_ARM_FPEncoding - SPIRV_CORE_KIND_COUNT] =
        {"FPEncoding", SPIRV_CAT_VALUE_ENUM, fp_encodings, ARRAY_SIZE(fp_encodings), {0, 0}},
};

/* Capabilities newer than the system grammar. */
static const struct spirv_enumerant_desc arm_capabilities[] = {
    {"TensorsARM", SPV_ARM_CAP_TENSORS, NULL, 0},
    {"StorageTensorArrayDynamicIndexingARM", SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING,
     NULL, 0},
    {"StorageTensorArrayNonUniformIndexingARM",
     SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING, NULL, 0},
    {"GraphARM", SPV_ARM_CAP_GRAPH, NULL, 0},
    {"Float8EXT", SPV_ARM_CAP_FLOAT8_EXT, NULL, 0},
    {"Float8CooperativeMatrixEXT", SPV_ARM_CAP_FLOAT8_COOPERATIVE_MATRIX_EXT, NULL, 0},
    {"BFloat16TypeKHR", SPV_ARM_CAP_BFLOAT16_TYPE_KHR, NULL, 0},
    {"BFloat16DotProductKHR", SPV_ARM_CAP_BFLOAT16_DOT_PRODUCT_KHR, NULL, 0},
    {"BFloat16CooperativeMatrixKHR", SPV_ARM_CAP_BFLOAT16_COOPERATIVE_MATRIX_KHR, NULL, 0},
    {"ReplicatedCompositesEXT", SPV_ARM_CAP_REPLICATED_COMPOSITES_EXT, NULL, 0},
};

static bool
name_eq(const char *a, const char *b, size_t len)
{
   return strncmp(a, b, len) == 0 && a[len] == '\0';
}

const struct spirv_inst_desc *
spirv_grammar_arm_insts(uint32_t *count)
{
   *count = ARRAY_SIZE(arm_insts);
   return arm_insts;
}

const struct spirv_inst_desc *
spirv_grammar_core_inst(uint32_t opcode)
{
   for (uint32_t i = 0; i < spirv_core_insts_count; i++) {
      if (spirv_core_insts[i].opcode == opcode)
         return &spirv_core_insts[i];
   }
   return NULL;
}

const struct spirv_inst_desc *
spirv_grammar_inst(uint32_t opcode)
{
   for (uint32_t i = 0; i < ARRAY_SIZE(arm_insts); i++) {
      if (arm_insts[i].opcode == opcode)
         return &arm_insts[i];
   }
   return spirv_grammar_core_inst(opcode);
}

const struct spirv_inst_desc *
spirv_grammar_inst_by_name(const char *name, size_t len)
{
   for (uint32_t i = 0; i < ARRAY_SIZE(arm_insts); i++) {
      if (name_eq(arm_insts[i].name, name, len))
         return &arm_insts[i];
   }
   for (uint32_t i = 0; i < spirv_core_insts_count; i++) {
      if (name_eq(spirv_core_insts[i].name, name, len))
         return &spirv_core_insts[i];
   }
   return NULL;
}

const struct spirv_kind_desc *
spirv_grammar_kind(uint32_t kind)
{
   if (kind < SPIRV_CORE_KIND_COUNT)
      return &spirv_core_kinds[kind];
   if (kind < SPIRV_KIND_TOTAL)
      return &arm_kinds[kind - SPIRV_CORE_KIND_COUNT];
   return NULL;
}

const struct spirv_enumerant_desc *
spirv_grammar_enum(uint32_t kind, uint32_t value)
{
   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);
   if (!k)
      return NULL;
   for (uint32_t i = 0; i < k->enumerant_count; i++) {
      if (k->enumerants[i].value == value)
         return &k->enumerants[i];
   }
   if (kind == SPIRV_KIND_Capability) {
      for (uint32_t i = 0; i < ARRAY_SIZE(arm_capabilities); i++) {
         if (arm_capabilities[i].value == value)
            return &arm_capabilities[i];
      }
   }
   return NULL;
}

const struct spirv_enumerant_desc *
spirv_grammar_enum_by_name(uint32_t kind, const char *name, size_t len)
{
   const struct spirv_kind_desc *k = spirv_grammar_kind(kind);
   if (!k)
      return NULL;
   for (uint32_t i = 0; i < k->enumerant_count; i++) {
      if (name_eq(k->enumerants[i].name, name, len))
         return &k->enumerants[i];
   }
   if (kind == SPIRV_KIND_Capability) {
      for (uint32_t i = 0; i < ARRAY_SIZE(arm_capabilities); i++) {
         if (name_eq(arm_capabilities[i].name, name, len))
            return &arm_capabilities[i];
      }
   }
   return NULL;
}

const struct spirv_inst_desc *
spirv_grammar_glsl_inst(uint32_t number)
{
   for (uint32_t i = 0; i < spirv_glsl_insts_count; i++) {
      if (spirv_glsl_insts[i].opcode == number)
         return &spirv_glsl_insts[i];
   }
   return NULL;
}

const struct spirv_inst_desc *
spirv_grammar_glsl_inst_by_name(const char *name, size_t len)
{
   for (uint32_t i = 0; i < spirv_glsl_insts_count; i++) {
      if (name_eq(spirv_glsl_insts[i].name, name, len))
         return &spirv_glsl_insts[i];
   }
   return NULL;
}
