/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Operator tests as data (docs/optests.md): a .optest file holds one or more tests, each a
 * SPIR-V graph (TOSA.001000.1 instructions, with the declarations it uses written for it), its
 * inputs and graph constants (inline values or a seeded generator), optional application
 * strides, the expected result (the CPU reference's, literal values, or a rejected pipeline),
 * the tolerance and the features it needs.
 *
 * This header is the parsed form and the steps that need no Vulkan (optest_parse.c: the file;
 * optest_data.c: tensors from generators; optest_module.c: the module text), so that the
 * parser's unit test links no Vulkan. optest_run.c runs a test through the layers.
 */
#ifndef VMEL_OPTEST_H
#define VMEL_OPTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tosa_ref.h"

#define OPT_MAX_TENSORS 8 /* inputs, graph constants or outputs of one test */
#define OPT_MAX_REQUIRES 16
#define OPT_NAME_LEN 96

/* How a tensor's data is made. */
enum opt_gen {
   OPT_GEN_UNIFORM,  /* uniform in [lo, hi] (integers: every value; floats: real interval) */
   OPT_GEN_SPECIALS, /* uniform, then every special value at least once and about one element
                      * in eight a special: floats NaN, +-inf, +-0, +-max, +-min normal,
                      * subnormals; integers the ends of the type's range, 0, 1, -1 */
   OPT_GEN_BITS,     /* any bit pattern of the type (BOOL: 0 or 1) */
   OPT_GEN_ALLBITS,  /* element i holds bit pattern i (wrapping at the type's width): every
                      * pattern of an 8- or 16-bit type in order, for exhaustive tests */
   OPT_GEN_VALUES,   /* the values listed, last dimension fastest */
   OPT_GEN_SEQ,      /* start, start + step, ... */
};

/* A tensor declaration: `input N:`, `constant N:` or `output N:`. */
struct opt_tensor {
   bool present;
   unsigned line;
   enum ref_dtype dtype;
   bool is_unsigned; /* u8 / u16: I8 / I16 data read as unsigned (VK_FORMAT_R8_UINT ...) */
   uint32_t rank;
   int64_t shape[REF_MAX_RANK];
   int64_t count; /* elements */
   bool strided;
   int64_t strides[REF_MAX_RANK]; /* bytes, outermost first (VkTensorDescriptionARM) */
   enum opt_gen gen;
   bool has_range;
   double lo, hi;  /* UNIFORM, SPECIALS; SEQ: start (lo), step (hi) */
   uint64_t *bits; /* VALUES: count bit patterns of dtype */
   double *values; /* VALUES: the numbers as written (exact; NaN for NaN patterns) */
};

enum opt_expect {
   OPT_EXPECT_REFERENCE, /* the CPU reference's result within the tolerance */
   OPT_EXPECT_VALUES,    /* literal values per output */
   OPT_EXPECT_INVALID,   /* vkCreateDataGraphPipelinesARM must fail with VK_ERROR_UNKNOWN */
};

enum opt_tol {
   OPT_TOL_DEFAULT, /* what tosa_ref_tolerance() says for the output's operator and type */
   OPT_TOL_EXACT,
   OPT_TOL_FP_EXACT,
   OPT_TOL_ULP,
   OPT_TOL_DOT_PRODUCT,
   OPT_TOL_RESCALE_RANGE,
   OPT_TOL_ABS_BOUND, /* the reference's per-element bound (EXP, LOG, SIN, ... POW) */
};

struct opt_test {
   char name[OPT_NAME_LEN];
   unsigned line;      /* of its [test] header */
   char *text;         /* the [graph] or [module] lines (malloc()ed) */
   unsigned text_line; /* file line of the first of them */
   bool full_module;   /* [module]: the text is the whole module, written as is */
   struct opt_tensor inputs[OPT_MAX_TENSORS];
   struct opt_tensor constants[OPT_MAX_TENSORS];
   struct opt_tensor outputs[OPT_MAX_TENSORS];
   uint32_t input_count, constant_count, output_count;
   enum opt_expect expect;
   struct opt_tensor expected[OPT_MAX_TENSORS]; /* OPT_EXPECT_VALUES, by output */
   enum opt_tol tol;
   double ulp; /* OPT_TOL_ULP */
   uint64_t seed;
   char requires[OPT_MAX_REQUIRES][32];
   uint32_t require_count;
};

struct opt_file {
   char path[512];
   char *prelude; /* [prelude] lines, added to every later [graph] (malloc()ed), or NULL */
   unsigned prelude_line;
   struct opt_test *tests;
   size_t count;
};

/**
 * Parses a file's text.
 * @param path  for messages ("path:line: ...")
 * @param err   receives "path:line: message" on failure
 * @return true on success; on failure *file is empty (nothing to free)
 */
bool opt_parse(const char *path, const char *text, size_t len, struct opt_file *file, char *err,
               size_t err_len);

/** Reads and parses a file. */
bool opt_parse_file(const char *path, struct opt_file *file, char *err, size_t err_len);

void opt_file_finish(struct opt_file *file);

/** "i8", "u8", "fp16", ... for messages. */
const char *opt_dtype_name(enum ref_dtype dtype, bool is_unsigned);

/** Whether a `require:` name is one the runner knows: a TOSA profile or extension (PRO-*,
 *  EXT-*) or a Vulkan device feature of opt_device_features[]. */
bool opt_require_known(const char *name);

/* The Vulkan device features a test may require (VkPhysicalDevice{,Vulkan11,Vulkan12}Features
 * member names). */
extern const char *const opt_device_features[];
extern const unsigned opt_device_feature_count;

/* ---- data (optest_data.c) ------------------------------------------------------------------ */

/**
 * The tensor a declaration describes, its data made by its generator from the test's seed and
 * the declaration's slot (0..7 inputs, 8..15 constants), so a tensor's data does not change
 * when another is added. NULL when out of memory.
 */
struct ref_tensor *opt_make_tensor(const struct opt_tensor *decl, uint64_t seed, unsigned slot);

/* ---- module (optest_module.c) -------------------------------------------------------------- */

/**
 * The module text of a test: [module] as written; [graph] with the file's prelude, wrapped in
 * the declarations it uses (docs/optests.md "Names the runner declares").
 * @param line_map  receives, per line of the text (from 1), the file line it came from, or 0
 *                  for a generated line (malloc()ed; may be NULL)
 * @return the text (malloc()ed), NULL with err set on failure
 */
char *opt_module_text(const struct opt_file *file, const struct opt_test *test, unsigned **line_map,
                      size_t *line_count, char *err, size_t err_len);

#endif /* VMEL_OPTEST_H */
