/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph-decoder test harness: builds a whole graph module as SPIR-V text
 * from a compact case (input and output tensor types, module-level
 * declarations, the graph body), assembles it with the project's assembler,
 * derives the resource infos and graph constants from the types, runs
 * dg_graph_decode() with a counting allocator, and checks the expected code,
 * message fragment and word offset (the line marked ";@").
 *
 * Names the harness declares on demand when a case mentions them:
 *   %t_<type>_<d0>x<d1>...  tensor type, e.g. %t_f32_1x4, %t_i8_1x8x8x4
 *   %a<N>_t_...             array of N such tensors
 *   %p_t_... / %p_a<N>_t_...  UniformConstant pointer
 *   %<type>_<v>             scalar constant: %i32_3, %i8_m1 (-1), %f32_1p5 (1.5), %f32_m2
 * where <type> is bool i8 i16 i32 i48 f16 bf16 f32 e4m3 e5m2 (i32 is OpTypeInt 32 0
 * and i48 OpTypeInt 64 0, as TOSA.001000.1 maps them). Always declared: the
 * scalar types under those names, %true, %false, %tosa (TOSA.001000.1).
 * Inputs are %in0, %in1, ... (array inputs %in<i>_<e>), variables %vin<i> in set 0
 * and %vout<i> in set 1, the graph %graph, its type %gt.
 */
#ifndef DECODE_HARNESS_H
#define DECODE_HARNESS_H

#include "test.h"

#include "dg_decode.h"

#define H_MAX_RES 16
#define H_MAX_CONST 16

/** What a case does to the create info after building it. */
enum h_mutation {
   M_NONE,
   M_RES_DROP,     /* drop the resource info of input 0 */
   M_RES_DUP,      /* describe input 0 twice */
   M_RES_ELEMENT,  /* arrayElement 1 for input 0 */
   M_RES_DIMS,     /* input 0's pDimensions[0] + 1 */
   M_RES_FORMAT,   /* an incompatible format for input 0 */
   M_RES_USAGE,    /* no DATA_GRAPH usage for input 0 */
   M_RES_NO_DESC,  /* no VkTensorDescriptionARM for input 0 */
   M_GC_DROP,      /* drop graph constant 0 */
   M_GC_DUP,       /* two VkDataGraphPipelineConstantARM with the first id */
   M_GC_TILING,    /* OPTIMAL tiling for the first constant */
   M_GC_STRIDES,   /* bad strides for the first constant */
   M_GC_STRIDED,   /* valid padded strides for the first constant (data re-laid out) */
   M_GC_DIMS,      /* wrong pDimensions for the first constant */
   M_GC_NULL_DATA, /* pConstantData NULL for the first constant */
   M_ENTRY_NAME,   /* pName "nope" */
   M_SPEC_OFF,     /* dataGraphSpecializationConstants disabled */
   M_NO_GRAPH_CAP, /* no OpCapability GraphARM */
};

struct dcase {
   const char *name;
   const char *inputs;  /* graph input types, space-separated ("t_f32_1x4 a2_t_i8_4") */
   const char *outputs; /* graph output types */
   const char *decls;   /* module-level lines */
   const char *body;    /* graph body lines */
   const char *sets;    /* output lines; NULL: "OpGraphSetOutputARM %r %i32_0" */
   const char *header;  /* extra header lines (capabilities, imports) */
   const char *gtype;   /* replaces the generated "%gt = OpTypeGraphARM ..." line */
   const char *entry;   /* replaces the generated OpGraphEntryPointARM line */
   const char *graph;   /* replaces everything from OpGraphARM to OpGraphEndARM */
   const char *fill;    /* graph constant contents: "ID=VALUE ..." (default 0) */
   enum h_mutation mutate;
   uint32_t features; /* dg_decode_info::tosa_features (0: advertised) */
   const VkSpecializationInfo *spec;
   enum dg_error code;       /* DG_OK: decoding succeeds */
   const char *msg;          /* a fragment the message must contain */
   const char *caps;         /* replaces the capabilities other than GraphARM (NULL: all of them) */
   const char *extensions;   /* replaces the OpExtension lines (NULL: all of them) */
   const char *memory_model; /* replaces "OpMemoryModel Logical Vulkan\n" ("" drops it) */
};

/** A built case: the module and the create-info arrays pointing into it. */
struct built {
   uint32_t *words;
   size_t word_count;
   char *text;
   uint32_t marked_offset; /* word offset of the ";@" line, 0 if none */
   VkDataGraphPipelineResourceInfoARM res[H_MAX_RES];
   VkTensorDescriptionARM res_desc[H_MAX_RES];
   int64_t res_dims[H_MAX_RES][8];
   uint32_t res_count;
   VkDataGraphPipelineConstantARM consts[H_MAX_CONST];
   VkTensorDescriptionARM const_desc[H_MAX_CONST];
   int64_t const_dims[H_MAX_CONST][8];
   int64_t const_strides[H_MAX_CONST][8];
   void *const_data[H_MAX_CONST];
   uint32_t const_count;
   struct dg_decode_info info;
};

/** Builds and assembles a case; false (with a failed check) if that fails. */
bool h_build(const struct dcase *c, struct built *b);
void h_free(struct built *b);

/** Runs a case: decodes, checks the expectation and that nothing leaks. */
void h_run(const struct dcase *c);
void h_run_all(const struct dcase *cases, size_t count);

/**
 * Decodes a case expected to succeed and returns its graph (NULL after a
 * failed check); b stays alive for the graph's constant pointers. Free with
 * dg_graph_destroy() and h_free().
 */
struct dg_graph *h_decode(const struct dcase *c, struct built *b);

/** The counting allocator: live allocations, and an optional failure. */
struct h_counter {
   long live;
   long calls;
   long fail_at; /* fail the n-th allocation (1-based); 0 never */
};
void h_counting_alloc(struct h_counter *counter, VkAllocationCallbacks *alloc);

/** The invalid micro-graphs: module, types, sets and create info (cases_module.c). */
void test_decode_module_cases(void);
/** The invalid micro-graphs of each operator (cases_ops.c). */
void test_decode_op_cases(void);
/** Arm.MotionEngine.100: valid graphs and one invalid micro-graph per check (cases_me.c). */
void test_decode_me_cases(void);
/** Unshaped and unranked tensor types: shapes given and inferred (cases_unshaped.c). */
void test_decode_unshaped_cases(void);

/** Reads a text file (NULL on failure); free() it. */
char *h_read_file(const char *path, size_t *size);

#endif /* DECODE_HARNESS_H */
