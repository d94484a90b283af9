/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Name tables of the extended instruction sets a graph module imports:
 * TOSA.001000.1 (names and OpExtInst word counts from the SPIRV-Registry
 * table, spec-facts §3.2), Arm.MotionEngine.100 and
 * NonSemantic.Graph.DebugInfo.1, and the mapping from OpExtInstImport names
 * to sets. Decoding the instructions is the graph layer's business.
 */
#include "spirv/spirv_arm_ml.h"

#include <stddef.h>
#include <string.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define VARIADIC UINT16_MAX

/* TOSA.001000.1: the exact OpExtInst word count of every instruction (5 header
 * words plus the operands). CONCAT is "7+Variable": axis and one or more inputs. */
#define TOSA(name, words) [TOSA_##name] = {#name, words, words}
static const struct spirv_ext_inst_desc tosa_insts[TOSA_INST_COUNT] = {
    TOSA(ARGMAX, 8),
    TOSA(AVG_POOL2D, 12),
    TOSA(CONV2D, 15),
    TOSA(CONV3D, 15),
    TOSA(DEPTHWISE_CONV2D, 15),
    TOSA(FFT2D, 9),
    TOSA(MATMUL, 9),
    TOSA(MAX_POOL2D, 10),
    TOSA(RFFT2D, 7),
    TOSA(TRANSPOSE_CONV2D, 14),
    TOSA(CLAMP, 9),
    TOSA(ERF, 6),
    TOSA(SIGMOID, 6),
    TOSA(TANH, 6),
    TOSA(ADD, 7),
    TOSA(ARITHMETIC_RIGHT_SHIFT, 8),
    TOSA(BITWISE_AND, 7),
    TOSA(BITWISE_OR, 7),
    TOSA(BITWISE_XOR, 7),
    TOSA(INTDIV, 7),
    TOSA(LOGICAL_AND, 7),
    TOSA(LOGICAL_LEFT_SHIFT, 7),
    TOSA(LOGICAL_RIGHT_SHIFT, 7),
    TOSA(LOGICAL_OR, 7),
    TOSA(LOGICAL_XOR, 7),
    TOSA(MAXIMUM, 8),
    TOSA(MINIMUM, 8),
    TOSA(MUL, 8),
    TOSA(POW, 7),
    TOSA(SUB, 7),
    TOSA(TABLE, 7),
    TOSA(ABS, 6),
    TOSA(BITWISE_NOT, 6),
    TOSA(CEIL, 6),
    TOSA(CLZ, 6),
    TOSA(COS, 6),
    TOSA(EXP, 6),
    TOSA(FLOOR, 6),
    TOSA(LOG, 6),
    TOSA(LOGICAL_NOT, 6),
    TOSA(NEGATE, 8),
    TOSA(RECIPROCAL, 6),
    TOSA(RSQRT, 6),
    TOSA(SIN, 6),
    TOSA(SELECT, 8),
    TOSA(EQUAL, 7),
    TOSA(GREATER, 7),
    TOSA(GREATER_EQUAL, 7),
    TOSA(REDUCE_ALL, 7),
    TOSA(REDUCE_ANY, 7),
    TOSA(REDUCE_MAX, 8),
    TOSA(REDUCE_MIN, 8),
    TOSA(REDUCE_PRODUCT, 7),
    TOSA(REDUCE_SUM, 7),
    [TOSA_CONCAT] = {"CONCAT", 7, VARIADIC},
    TOSA(PAD, 8),
    TOSA(RESHAPE, 7),
    TOSA(REVERSE, 7),
    TOSA(SLICE, 8),
    TOSA(TILE, 7),
    TOSA(TRANSPOSE, 7),
    TOSA(GATHER, 7),
    TOSA(SCATTER, 8),
    TOSA(RESIZE, 10),
    TOSA(CAST, 6),
    TOSA(RESCALE, 15),
};
#undef TOSA

/* Arm.MotionEngine.100 (extinst.arm.motion-engine.100.grammar.json). */
static const struct spirv_ext_inst_desc me_insts[SPV_ARM_ME_INST_COUNT] = {
    [SPV_ARM_ME_MIN_SAD] = {"MIN_SAD", 14, 14},
    [SPV_ARM_ME_MIN_SAD_COST] = {"MIN_SAD_COST", 14, 14},
    [SPV_ARM_ME_RAW_SAD] = {"RAW_SAD", 13, 13},
};

/* NonSemantic.Graph.DebugInfo.1 (extinst.nonsemantic.graph.debuginfo.grammar.json);
 * numbering starts at 1. */
static const struct spirv_ext_inst_desc debug_insts[] = {
    [SPV_GRAPH_DEBUG_GRAPH] = {"DebugGraph", 7, 7},
    [SPV_GRAPH_DEBUG_OPERATION] = {"DebugOperation", 7, VARIADIC},
    [SPV_GRAPH_DEBUG_TENSOR] = {"DebugTensor", 7, 8},
};

struct set_table {
   const struct spirv_ext_inst_desc *insts;
   uint32_t count;
};

static struct set_table
set_table(enum spirv_ext_inst_set set)
{
   switch (set) {
   case SPIRV_EXT_INST_SET_TOSA_001000_1:
      return (struct set_table){tosa_insts, ARRAY_SIZE(tosa_insts)};
   case SPIRV_EXT_INST_SET_MOTION_ENGINE_100:
      return (struct set_table){me_insts, ARRAY_SIZE(me_insts)};
   case SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1:
      return (struct set_table){debug_insts, ARRAY_SIZE(debug_insts)};
   default:
      return (struct set_table){NULL, 0};
   }
}

static bool
has_prefix(const char *s, const char *prefix)
{
   return strncmp(s, prefix, strlen(prefix)) == 0;
}

enum spirv_ext_inst_set
spirv_ext_inst_set_from_name(const char *name)
{
   if (!name)
      return SPIRV_EXT_INST_SET_UNKNOWN;
   if (strcmp(name, SPV_ARM_SET_TOSA_001000_1) == 0)
      return SPIRV_EXT_INST_SET_TOSA_001000_1;
   if (strcmp(name, SPV_ARM_SET_MOTION_ENGINE_100) == 0)
      return SPIRV_EXT_INST_SET_MOTION_ENGINE_100;
   if (strcmp(name, SPV_ARM_SET_GRAPH_DEBUG_INFO_1) == 0)
      return SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1;
   if (has_prefix(name, SPV_ARM_SET_NONSEMANTIC_PREFIX))
      return SPIRV_EXT_INST_SET_NONSEMANTIC_OTHER;
   if (has_prefix(name, SPV_ARM_SET_EXPERIMENTAL_ML_PREFIX))
      return SPIRV_EXT_INST_SET_EXPERIMENTAL_ML;
   return SPIRV_EXT_INST_SET_UNKNOWN;
}

const char *
spirv_ext_inst_set_name(enum spirv_ext_inst_set set)
{
   switch (set) {
   case SPIRV_EXT_INST_SET_TOSA_001000_1:
      return SPV_ARM_SET_TOSA_001000_1;
   case SPIRV_EXT_INST_SET_MOTION_ENGINE_100:
      return SPV_ARM_SET_MOTION_ENGINE_100;
   case SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1:
      return SPV_ARM_SET_GRAPH_DEBUG_INFO_1;
   default:
      return NULL;
   }
}

const struct spirv_ext_inst_desc *
spirv_ext_inst_desc(enum spirv_ext_inst_set set, uint32_t number)
{
   struct set_table t = set_table(set);
   if (number >= t.count || !t.insts[number].name)
      return NULL;
   return &t.insts[number];
}

bool
spirv_ext_inst_from_name(enum spirv_ext_inst_set set, const char *name, uint32_t *number)
{
   struct set_table t = set_table(set);
   if (!name)
      return false;
   for (uint32_t i = 0; i < t.count; i++) {
      if (t.insts[i].name && strcmp(t.insts[i].name, name) == 0) {
         *number = i;
         return true;
      }
   }
   return false;
}

const char *
spirv_tosa_inst_name(uint32_t inst)
{
   return inst < TOSA_INST_COUNT ? tosa_insts[inst].name : NULL;
}

uint32_t
spirv_tosa_inst_word_count(uint32_t inst)
{
   return inst < TOSA_INST_COUNT ? tosa_insts[inst].min_words : 0;
}

bool
spirv_tosa_inst_from_name(const char *name, uint32_t *inst)
{
   return spirv_ext_inst_from_name(SPIRV_EXT_INST_SET_TOSA_001000_1, name, inst);
}
