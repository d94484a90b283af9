/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * SPIR-V numbers that Debian 12's SPIRV-Headers (1.6.1 / SDK 1.3.239) lack:
 * SPV_ARM_tensors and SPV_ARM_graph (opcodes, capabilities, TensorOperands),
 * the FPEncoding operand of OpTypeFloat with its SPV_KHR_bfloat16 and
 * SPV_EXT_float8 capabilities, SPV_EXT_replicated_composites (which Arm's
 * model converter emits for tensor constants), and the extended instruction
 * sets a graph module imports: TOSA.001000.1, Arm.MotionEngine.100 and
 * NonSemantic.Graph.DebugInfo.1, with the enumerated TOSA attribute values.
 * Values are those of upstream SPIRV-Headers (unified1) and the SPIRV-Registry.
 *
 * Naming. Every name here lives in a namespace of its own so that it can never
 * collide with a newer system spirv.h (which spells them SpvOpTypeTensorARM,
 * SpvCapabilityTensorsARM, ... as enumerators, so #ifndef cannot test them):
 *   SPV_ARM_<CATEGORY>_<NAME>  core-grammar numbers; the ARM suffix is dropped
 *                              (SpvOpTensorReadARM is SPV_ARM_OP_TENSOR_READ),
 *                              other vendor suffixes stay
 *                              (SpvCapabilityFloat8EXT is SPV_ARM_CAP_FLOAT8_EXT);
 *   TOSA_<INSTRUCTION>         TOSA.001000.1 instruction numbers;
 *   TOSA_<ATTRIBUTE>_<VALUE>   enumerated TOSA attribute values;
 *   SPV_ARM_ME_<INSTRUCTION>   Arm.MotionEngine.100;
 *   SPV_GRAPH_DEBUG_<NAME>     NonSemantic.Graph.DebugInfo.1.
 * The prefixes SPV_ARM_ and SPV_GRAPH_DEBUG_ are this header's, not Khronos';
 * so are spirv_ext_inst_*(), spirv_tosa_*() and SPIRV_EXT_INST_SET_*.
 *
 * The name tables (instruction names and OpExtInst word counts) are defined in
 * layers/spirv/spirv_ext_inst.c, part of the "lyr" library.
 */
#ifndef SPIRV_ARM_ML_H
#define SPIRV_ARM_ML_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- core grammar additions -------------------------------------------- */

/** Opcodes: SPV_ARM_tensors (4163..4166), SPV_ARM_graph (4181..4190),
 *  SPV_EXT_replicated_composites (4461..4463). */
enum spv_arm_op {
   SPV_ARM_OP_TYPE_TENSOR = 4163,       /* <Result> <ElementType> [<Rank>] [<Shape>] */
   SPV_ARM_OP_TENSOR_READ = 4164,       /* <RT> <Result> <Tensor> <Coords> [TensorOperands] */
   SPV_ARM_OP_TENSOR_WRITE = 4165,      /* <Tensor> <Coords> <Object> [TensorOperands] */
   SPV_ARM_OP_TENSOR_QUERY_SIZE = 4166, /* <RT> <Result> <Tensor> <Dimension> */
   SPV_ARM_OP_GRAPH_CONSTANT = 4181,    /* <RT> <Result> GraphConstantID */
   SPV_ARM_OP_GRAPH_ENTRY_POINT = 4182, /* <Graph> "Name" <Interface>* */
   SPV_ARM_OP_GRAPH = 4183,             /* <RT = OpTypeGraphARM> <Result> */
   SPV_ARM_OP_GRAPH_INPUT = 4184,       /* <RT> <Result> <InputIndex> [<ElementIndex>] */
   SPV_ARM_OP_GRAPH_SET_OUTPUT = 4185,  /* <Value> <OutputIndex> [<ElementIndex>] */
   SPV_ARM_OP_GRAPH_END = 4186,         /* no operands */
   SPV_ARM_OP_TYPE_GRAPH = 4190,        /* <Result> NumInputs <InOutType>* */
   SPV_ARM_OP_CONSTANT_COMPOSITE_REPLICATE_EXT = 4461,      /* <RT> <Result> <Value> */
   SPV_ARM_OP_SPEC_CONSTANT_COMPOSITE_REPLICATE_EXT = 4462, /* <RT> <Result> <Value> */
   SPV_ARM_OP_COMPOSITE_CONSTRUCT_REPLICATE_EXT = 4463,     /* <RT> <Result> <Value> */
};

/** Capabilities. */
enum spv_arm_capability {
   SPV_ARM_CAP_TENSORS = 4174,
   SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_DYNAMIC_INDEXING = 4175,
   SPV_ARM_CAP_STORAGE_TENSOR_ARRAY_NON_UNIFORM_INDEXING = 4176,
   SPV_ARM_CAP_GRAPH = 4191,
   SPV_ARM_CAP_FLOAT8_EXT = 4212,
   SPV_ARM_CAP_FLOAT8_COOPERATIVE_MATRIX_EXT = 4213,
   SPV_ARM_CAP_BFLOAT16_TYPE_KHR = 5116,
   SPV_ARM_CAP_BFLOAT16_DOT_PRODUCT_KHR = 5117,
   SPV_ARM_CAP_BFLOAT16_COOPERATIVE_MATRIX_KHR = 5118,
   SPV_ARM_CAP_REPLICATED_COMPOSITES_EXT = 6024,
};

/** TensorOperands (a bit enum). OutOfBoundsValueARM, MakeElementAvailableARM
 *  and MakeElementVisibleARM are each followed by one <id> operand, in the
 *  order of their bits. */
enum spv_arm_tensor_operands {
   SPV_ARM_TENSOR_OPERANDS_NONE = 0x0,
   SPV_ARM_TENSOR_OPERANDS_NONTEMPORAL = 0x1,
   SPV_ARM_TENSOR_OPERANDS_OUT_OF_BOUNDS_VALUE = 0x2,
   SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_AVAILABLE = 0x4,
   SPV_ARM_TENSOR_OPERANDS_MAKE_ELEMENT_VISIBLE = 0x8,
   SPV_ARM_TENSOR_OPERANDS_NON_PRIVATE_ELEMENT = 0x10,
};

/** FPEncoding: the optional third operand of OpTypeFloat. */
enum spv_arm_fp_encoding {
   SPV_ARM_FP_ENCODING_BFLOAT16_KHR = 0,       /* OpTypeFloat 16; capability BFloat16TypeKHR */
   SPV_ARM_FP_ENCODING_FLOAT8_E4M3_EXT = 4214, /* OpTypeFloat 8; capability Float8EXT */
   SPV_ARM_FP_ENCODING_FLOAT8_E5M2_EXT = 4215, /* OpTypeFloat 8; capability Float8EXT */
};

/** Extension strings of OpExtension. */
#define SPV_ARM_EXT_TENSORS "SPV_ARM_tensors"
#define SPV_ARM_EXT_GRAPH "SPV_ARM_graph"
#define SPV_ARM_EXT_BFLOAT16_KHR "SPV_KHR_bfloat16"
#define SPV_ARM_EXT_FLOAT8_EXT "SPV_EXT_float8"
#define SPV_ARM_EXT_REPLICATED_COMPOSITES_EXT "SPV_EXT_replicated_composites"

/* ---- extended instruction sets ------------------------------------------- */

/** Import strings of OpExtInstImport. */
#define SPV_ARM_SET_TOSA_001000_1 "TOSA.001000.1"
#define SPV_ARM_SET_MOTION_ENGINE_100 "Arm.MotionEngine.100"
#define SPV_ARM_SET_GRAPH_DEBUG_INFO_1 "NonSemantic.Graph.DebugInfo.1"
/** Prefix of the unratified Arm.ExperimentalMLOperations.<version> sets (reject). */
#define SPV_ARM_SET_EXPERIMENTAL_ML_PREFIX "Arm.ExperimentalMLOperations."
/** Every set whose name starts with this is non-semantic and may be ignored. */
#define SPV_ARM_SET_NONSEMANTIC_PREFIX "NonSemantic."

/** TOSA.001000.1 instruction-set revision (the last component of its name). */
#define TOSA_001000_1_REVISION 1

/** TOSA.001000.1 instructions, in tosa.xml operator order (spec-facts §3.2). */
enum tosa_inst {
   TOSA_ARGMAX = 0,
   TOSA_AVG_POOL2D = 1,
   TOSA_CONV2D = 2,
   TOSA_CONV3D = 3,
   TOSA_DEPTHWISE_CONV2D = 4,
   TOSA_FFT2D = 5,
   TOSA_MATMUL = 6,
   TOSA_MAX_POOL2D = 7,
   TOSA_RFFT2D = 8,
   TOSA_TRANSPOSE_CONV2D = 9,
   TOSA_CLAMP = 10,
   TOSA_ERF = 11,
   TOSA_SIGMOID = 12,
   TOSA_TANH = 13,
   TOSA_ADD = 14,
   TOSA_ARITHMETIC_RIGHT_SHIFT = 15,
   TOSA_BITWISE_AND = 16,
   TOSA_BITWISE_OR = 17,
   TOSA_BITWISE_XOR = 18,
   TOSA_INTDIV = 19,
   TOSA_LOGICAL_AND = 20,
   TOSA_LOGICAL_LEFT_SHIFT = 21,
   TOSA_LOGICAL_RIGHT_SHIFT = 22,
   TOSA_LOGICAL_OR = 23,
   TOSA_LOGICAL_XOR = 24,
   TOSA_MAXIMUM = 25,
   TOSA_MINIMUM = 26,
   TOSA_MUL = 27,
   TOSA_POW = 28,
   TOSA_SUB = 29,
   TOSA_TABLE = 30,
   TOSA_ABS = 31,
   TOSA_BITWISE_NOT = 32,
   TOSA_CEIL = 33,
   TOSA_CLZ = 34,
   TOSA_COS = 35,
   TOSA_EXP = 36,
   TOSA_FLOOR = 37,
   TOSA_LOG = 38,
   TOSA_LOGICAL_NOT = 39,
   TOSA_NEGATE = 40,
   TOSA_RECIPROCAL = 41,
   TOSA_RSQRT = 42,
   TOSA_SIN = 43,
   TOSA_SELECT = 44,
   TOSA_EQUAL = 45,
   TOSA_GREATER = 46,
   TOSA_GREATER_EQUAL = 47,
   TOSA_REDUCE_ALL = 48,
   TOSA_REDUCE_ANY = 49,
   TOSA_REDUCE_MAX = 50,
   TOSA_REDUCE_MIN = 51,
   TOSA_REDUCE_PRODUCT = 52,
   TOSA_REDUCE_SUM = 53,
   TOSA_CONCAT = 54,
   TOSA_PAD = 55,
   TOSA_RESHAPE = 56,
   TOSA_REVERSE = 57,
   TOSA_SLICE = 58,
   TOSA_TILE = 59,
   TOSA_TRANSPOSE = 60,
   TOSA_GATHER = 61,
   TOSA_SCATTER = 62,
   TOSA_RESIZE = 63,
   TOSA_CAST = 64,
   TOSA_RESCALE = 65,
};
#define TOSA_INST_COUNT 66

/* Enumerated TOSA attribute values, passed as OpTypeInt 32 0 constants. Zero
 * is not a valid value of any of them. */

/** resize_mode_t (RESIZE mode). */
enum tosa_resize_mode {
   TOSA_RESIZE_NEAREST_NEIGHBOR = 1,
   TOSA_RESIZE_BILINEAR = 2,
};

/** acc_type_t (AVG_POOL2D and the convolutions). */
enum tosa_acc_type {
   TOSA_ACC_TYPE_INT32 = 1,
   TOSA_ACC_TYPE_FP16 = 2,
   TOSA_ACC_TYPE_FP32 = 3,
   TOSA_ACC_TYPE_INT48 = 4,
};

/** nan_propagation_mode_t (ARGMAX, CLAMP, MAXIMUM, MINIMUM, MAX_POOL2D,
 *  REDUCE_MAX, REDUCE_MIN). */
enum tosa_nan_mode {
   TOSA_NAN_MODE_PROPAGATE = 1,
   TOSA_NAN_MODE_IGNORE = 2,
};

/** rounding_mode_t (RESCALE). */
enum tosa_rounding_mode {
   TOSA_ROUNDING_SINGLE_ROUND = 1,
   TOSA_ROUNDING_INEXACT_ROUND = 2, /* needs EXT-INEXACTROUND */
   TOSA_ROUNDING_DOUBLE_ROUND = 3,  /* needs EXT-DOUBLEROUND */
};

/** Arm.MotionEngine.100 (grammar version 100, revision 1). No public
 *  semantics exist beyond Arm's emulation layer. */
enum spv_arm_me_inst {
   SPV_ARM_ME_MIN_SAD = 0,      /* 9 operands: kernel_sizes ... search_pattern, input0, input1 */
   SPV_ARM_ME_MIN_SAD_COST = 1, /* same 9 operands; result is a struct of 2 tensors */
   SPV_ARM_ME_RAW_SAD = 2,      /* 8 operands: as MIN_SAD without search_pattern */
};
#define SPV_ARM_ME_INST_COUNT 3

/** NonSemantic.Graph.DebugInfo.1 (revision 1). */
enum spv_graph_debug_inst {
   SPV_GRAPH_DEBUG_GRAPH = 1,     /* <Graph> <Name> */
   SPV_GRAPH_DEBUG_OPERATION = 2, /* <DebugGraph> <Name> <Instructions>* */
   SPV_GRAPH_DEBUG_TENSOR = 3,    /* <Tensor> <Name> [<Index>] */
};

/** OpExtInst header words: opcode/word count, result type, result, set,
 *  instruction. The operands follow. */
#define SPV_ARM_EXT_INST_HEADER_WORDS 5

/** The extended instruction sets the layers know by name. */
enum spirv_ext_inst_set {
   SPIRV_EXT_INST_SET_UNKNOWN = 0,
   SPIRV_EXT_INST_SET_TOSA_001000_1,
   SPIRV_EXT_INST_SET_MOTION_ENGINE_100,
   SPIRV_EXT_INST_SET_GRAPH_DEBUG_INFO_1,
   SPIRV_EXT_INST_SET_NONSEMANTIC_OTHER, /* any other NonSemantic.* set: ignorable */
   SPIRV_EXT_INST_SET_EXPERIMENTAL_ML,   /* Arm.ExperimentalMLOperations.*: unratified */
};

/** One instruction of an extended instruction set. Word counts are those of
 *  the whole OpExtInst (SPV_ARM_EXT_INST_HEADER_WORDS plus the operands), as in
 *  the "Words" column of the TOSA.001000.1 table. */
struct spirv_ext_inst_desc {
   const char *name;
   uint16_t min_words;
   uint16_t max_words; /* UINT16_MAX when the last operand is variadic (CONCAT) */
};

/** The set an OpExtInstImport name denotes. */
enum spirv_ext_inst_set spirv_ext_inst_set_from_name(const char *name);

/** The import string of a known set, or NULL for UNKNOWN / *_OTHER / EXPERIMENTAL_ML. */
const char *spirv_ext_inst_set_name(enum spirv_ext_inst_set set);

/** The description of instruction `number` of `set`, or NULL if there is none. */
const struct spirv_ext_inst_desc *spirv_ext_inst_desc(enum spirv_ext_inst_set set, uint32_t number);

/**
 * Looks an instruction of `set` up by name (exact, case-sensitive).
 * @param set    a set with a table (TOSA, Motion Engine, Graph DebugInfo)
 * @param name   instruction name, e.g. "CONV2D"
 * @param number receives the instruction number on success
 * @return true if found
 */
bool spirv_ext_inst_from_name(enum spirv_ext_inst_set set, const char *name, uint32_t *number);

/** Name of TOSA.001000.1 instruction `inst` ("ARGMAX" ... "RESCALE"), or NULL. */
const char *spirv_tosa_inst_name(uint32_t inst);

/** Minimum OpExtInst word count of TOSA instruction `inst` (exact for all but
 *  CONCAT, which is variadic), or 0 for an unknown instruction. */
uint32_t spirv_tosa_inst_word_count(uint32_t inst);

/** TOSA instruction number for `name`; false if no instruction has that name. */
bool spirv_tosa_inst_from_name(const char *name, uint32_t *inst);

#ifdef __cplusplus
}
#endif

#endif /* SPIRV_ARM_ML_H */
