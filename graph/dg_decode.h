/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Decoding and static validation of a SPIR-V graph module (SPV_ARM_graph with
 * TOSA.001000.1) into the graph IR of dg_ir.h, at pipeline creation and with
 * no Vulkan object: the module's words, the entry point name and the
 * pipeline's resource infos, graph constants and specialization constants
 * are all it needs (design.md §6). Everything unsupported or invalid fails
 * here, with a stable code and a message naming the instruction (result id
 * and word offset), the rule and the values (style §10.5).
 *
 * Results (docs/decisions.md D15): VK_ERROR_VALIDATION_FAILED when the create
 * info breaks a valid-usage rule of VK_ARM_data_graph (entry point name,
 * resource infos, graph constants, specialization data: DG_ERR_2300..2399);
 * VK_ERROR_OUT_OF_HOST_MEMORY; VK_ERROR_UNKNOWN for every problem in the
 * module itself, invalid or merely unsupported (malformed SPIR-V, SPV_ARM_graph
 * rules, TOSA ERROR_IF, REQUIRE on constants, level limits, type-support
 * rows, instruction sets and operators we do not implement): the Vulkan spec
 * has no dedicated "unsupported graph" code (spec-facts §1.9).
 */
#ifndef DG_DECODE_H
#define DG_DECODE_H

#include "dg_ir.h"

/** Diagnostic codes of the graph decoder: stable, range-partitioned (the
 *  SPIR-V reader owns 1000..1099). */
enum dg_error {
   DG_OK = 0,
   /* 2000..2099: module structure (SPV_ARM_graph). */
   DG_ERR_SPIRV = 2000,                 /* the reader rejected the module (message says why) */
   DG_ERR_NO_GRAPH_CAPABILITY = 2001,   /* no OpCapability GraphARM */
   DG_ERR_ENTRY_POINT_DUPLICATE = 2002, /* two OpGraphEntryPointARM with the name */
   DG_ERR_ENTRY_POINT_GRAPH = 2003,     /* the entry point's Graph is not an OpGraphARM */
   DG_ERR_GRAPH_TYPE = 2004,            /* OpTypeGraphARM malformed or not an interface type */
   DG_ERR_INTERFACE = 2005,             /* interface variables vs the graph type */
   DG_ERR_GRAPH_LAYOUT = 2006,          /* input/output placement, OpGraphEndARM, no output */
   DG_ERR_BODY_INSTRUCTION = 2007,      /* an instruction a graph may not contain */
   DG_ERR_INDEX_NOT_CONSTANT = 2008,    /* InputIndex/OutputIndex/ElementIndex not constant */
   DG_ERR_INDEX_RANGE = 2009,           /* index beyond the graph type or array */
   DG_ERR_INPUT_DUPLICATE = 2010,       /* (index, element) defined twice */
   DG_ERR_OUTPUT_DUPLICATE = 2011,      /* (index, element) set twice */
   DG_ERR_OUTPUT_MISSING = 2012,        /* an output (element) no instruction sets */
   DG_ERR_IO_TYPE = 2013,               /* input result type / output value type mismatch */
   DG_ERR_VALUE = 2014,                 /* an operand that is no tensor value of this graph */
   DG_ERR_COMPOSITE_EXTRACT = 2015,     /* OpCompositeExtract of something not multi-result */
   DG_ERR_GRAPH_CONSTANT_ID_DUPLICATE = 2016, /* GraphConstantID not unique in the module */
   DG_ERR_LAYOUT = 2017,            /* SPIR-V 2.4 logical layout: a section out of order */
   DG_ERR_CAPABILITY = 2018,        /* a type or instruction without its OpCapability */
   DG_ERR_FORWARD_REFERENCE = 2019, /* an <id> used before its definition or out of scope */
   DG_ERR_MEMORY_MODEL = 2020,      /* OpMemoryModel missing, repeated, unknown, not Vulkan's */
   DG_ERR_TYPE_DECL = 2021,         /* a malformed type: int width/signedness, array element */
   DG_ERR_STORAGE_CLASS = 2022,     /* unknown storage class, variable vs pointer type */
   /* 2100..2199: types and constants. */
   DG_ERR_TYPE_NOT_TENSOR = 2100,    /* an OpTypeTensorARM was required */
   DG_ERR_TENSOR_NOT_SHAPED = 2101,  /* unranked or unshaped tensor */
   DG_ERR_TENSOR_SHAPE = 2102,       /* rank 0, dimension 0, Shape not a constant array of Rank */
   DG_ERR_ELEMENT_TYPE = 2103,       /* element type TOSA.001000.1 has no mapping for */
   DG_ERR_CONSTANT = 2104,           /* not a constant instruction, or a malformed constant */
   DG_ERR_SPEC_CONSTANT_OP = 2105,   /* OpSpecConstantOp (not supported) */
   DG_ERR_LEVEL = 2106,              /* beyond a TOSA level-8K limit */
   DG_ERR_CONSTANT_TOO_LARGE = 2107, /* a module constant beyond max_constant_bytes */
   /* 2200..2299: extended instruction sets and operators. */
   DG_ERR_SET_UNKNOWN = 2200,       /* an instruction set we do not know */
   DG_ERR_SET_NOT_SUPPORTED = 2201, /* unused since Arm.MotionEngine.100 is implemented (D47) */
   DG_ERR_SET_EXPERIMENTAL = 2202,  /* Arm.ExperimentalMLOperations.* (unratified) */
   DG_ERR_INST_UNKNOWN = 2203,      /* an instruction number the set does not define */
   DG_ERR_OP_UNSUPPORTED = 2204,    /* a TOSA operator not implemented yet */
   /* 2300..2399: the create info (VK_ERROR_VALIDATION_FAILED). */
   DG_ERR_ENTRY_POINT_NOT_FOUND = 2300,  /* pName names no OpGraphEntryPointARM (09872) */
   DG_ERR_RESOURCE_MISSING = 2301,       /* no resource info for an interface variable (09923) */
   DG_ERR_RESOURCE_DUPLICATE = 2302,     /* more than one (09923) */
   DG_ERR_RESOURCE_ARRAY_ELEMENT = 2303, /* arrayElement != 0 (09779) */
   DG_ERR_RESOURCE_DESCRIPTION = 2304,   /* description missing or not matching (09923, 09851) */
   DG_ERR_CONSTANT_MISSING = 2305,       /* no VkDataGraphPipelineConstantARM for an id (09921) */
   DG_ERR_CONSTANT_DUPLICATE = 2306,     /* more than one (09921) */
   DG_ERR_CONSTANT_DESCRIPTION =
       2307,                     /* description missing or not matching (09921, 09917, 09850) */
   DG_ERR_SPECIALIZATION = 2308, /* specialization data or feature (09849) */
   /* 2400..2499: TOSA operator rules. */
   DG_ERR_OP_OPERAND_COUNT = 2400, /* OpExtInst word count of the instruction */
   DG_ERR_OP_OPERAND_TYPE = 2401,  /* operand or result of the wrong kind, type or rank */
   DG_ERR_OP_NOT_CONSTANT = 2402,  /* an attribute or compile-time-constant input is not constant */
   DG_ERR_OP_TYPE_SUPPORT = 2403,  /* type combination in no type-support row */
   DG_ERR_OP_EXTENSION = 2404,     /* the matching row needs a profile/extension not enabled */
   DG_ERR_OP_SHAPE = 2405,         /* ERROR_IF on shapes (broadcast, output size, dimensions) */
   DG_ERR_OP_ATTRIBUTE = 2406,     /* ERROR_IF on attribute values, invalid enumerants */
   DG_ERR_OP_ZERO_POINT = 2407,    /* ERROR_IF on zero points */
   DG_ERR_OP_REQUIRE = 2408,       /* REQUIRE on constant values (shift, multiplier) */
   DG_ERR_OUT_OF_MEMORY = 2999,
};

/** Where and why decoding failed. */
struct dg_diag {
   enum dg_error code;
   uint32_t offset;    /* word offset of the instruction at fault (0: the module) */
   uint32_t result_id; /* its result id, 0 if it has none */
   char message[512];  /* "TOSA CONV2D %12 at word 345: ERROR_IF(...): values" */
};

/** TOSA profiles and extensions (enables the type-support rows). */
enum dg_tosa_feature {
   DG_TOSA_PRO_INT = 1u << 0,
   DG_TOSA_PRO_FP = 1u << 1,
   DG_TOSA_EXT_INT16 = 1u << 2,
   DG_TOSA_EXT_BF16 = 1u << 3,
   DG_TOSA_EXT_FP8E4M3 = 1u << 4,
   DG_TOSA_EXT_FP8E5M2 = 1u << 5,
   DG_TOSA_EXT_FFT = 1u << 6,
   DG_TOSA_EXT_DOUBLEROUND = 1u << 7,
   DG_TOSA_EXT_INEXACTROUND = 1u << 8,
};
/** What the layer advertises (dg_instance.c): all of them. */
#define DG_TOSA_ADVERTISED                                                                         \
   (DG_TOSA_PRO_INT | DG_TOSA_PRO_FP | DG_TOSA_EXT_INT16 | DG_TOSA_EXT_BF16 |                      \
    DG_TOSA_EXT_FP8E4M3 | DG_TOSA_EXT_FP8E5M2 | DG_TOSA_EXT_FFT | DG_TOSA_EXT_DOUBLEROUND |        \
    DG_TOSA_EXT_INEXACTROUND)

/** What to decode. Pointers are the application's; they are read during the
 *  call, and the graph keeps the constant data and description pointers (see
 *  dg_tensor), so it is meant to be consumed during pipeline creation. */
struct dg_decode_info {
   const uint32_t *code;
   size_t code_words;
   const char *entry_point; /* VkDataGraphPipelineShaderModuleCreateInfoARM::pName */
   const VkDataGraphPipelineResourceInfoARM *resource_infos; /* each with a chained
                                                                VkTensorDescriptionARM */
   uint32_t resource_info_count;
   const VkDataGraphPipelineConstantARM *constants; /* each with a chained VkTensorDescriptionARM */
   uint32_t constant_count;
   const VkSpecializationInfo *specialization; /* may be NULL */
   bool specialization_enabled;                /* dataGraphSpecializationConstants */
   uint32_t tosa_features;      /* enum dg_tosa_feature bits; 0 means DG_TOSA_ADVERTISED */
   uint64_t max_constant_bytes; /* cap on one decoded module constant; 0 means 64 MiB */
};

/**
 * Decodes and validates the graph of `info->entry_point`.
 * @param alloc  allocator for the graph; NULL means lyr_default_alloc
 * @param graph  receives the graph on success, NULL on failure
 * @param diag   receives the first problem; may be NULL
 * @return VK_SUCCESS, VK_ERROR_VALIDATION_FAILED, VK_ERROR_UNKNOWN or
 *         VK_ERROR_OUT_OF_HOST_MEMORY (see the file comment)
 */
VkResult dg_graph_decode(const struct dg_decode_info *info, const VkAllocationCallbacks *alloc,
                         struct dg_graph **graph, struct dg_diag *diag);

/** Frees a graph from dg_graph_decode(); NULL is ignored. */
void dg_graph_destroy(struct dg_graph *graph);

/** The VkResult a code maps to. */
VkResult dg_error_result(enum dg_error code);

/** Stable name of a code ("DG_ERR_OP_SHAPE"), for logs and tests. */
const char *dg_error_name(enum dg_error code);

#endif /* DG_DECODE_H */
