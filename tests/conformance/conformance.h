/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The conformance runner's cases (design.md §9, in the style of Vulkan CTS): what a case is,
 * how the operator families generate them (cases_*.c), how a case's data and reference result
 * are made (conf_prepare(), case_util.c), and what the runner needs to check a result (run.c).
 *
 * A case is one TOSA operator with fixed types, shapes and attributes (a struct gt_op that
 * graph_text.c writes as a module), a recipe for its input data, and what it means to pass:
 *  - intent VALID: the reference (tests/reference) must return TOSA_REF_OK; the layers must
 *    create the pipeline and produce the reference's result within tosa_ref_tolerance();
 *  - intent INVALID: an ERROR_IF holds or no type-support row matches, so the reference
 *    returns TOSA_REF_ERROR or TOSA_REF_UNSUPPORTED, and vkCreateDataGraphPipelinesARM must
 *    fail with VK_ERROR_UNKNOWN;
 *  - intent REQUIRE: a REQUIRE on a compile-time constant fails (TOSA_REF_UNPREDICTABLE):
 *    TOSA allows any result or an error, so the case passes if the pipeline is rejected with
 *    VK_ERROR_UNKNOWN or runs without a validation error.
 * Input data is generated when a case runs, from a generator seeded by the run's seed and the
 * case's name, so a case's data does not depend on which other cases run.
 */
#ifndef VMEL_CONFORMANCE_H
#define VMEL_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph_text.h"
#include "tosa_ref.h"

#define CONF_NAME_LEN 128
#define CONF_GROUP_LEN 48
#define CONF_MAX_CHANNELS 64 /* RESCALE per-channel multipliers and shifts */

/* VMEL_GRAPH_MAX_GROUPS of the second device that split cases run on: a stage of more than
 * 64 * 3 work items then needs a 2D grid of workgroups, and one of more than 64 * 9 cannot be
 * recorded at all, so split cases have between 193 and 576 work items per stage. */
#define CONF_SPLIT_MAX_GROUPS 3

enum conf_intent {
   CONF_VALID,
   CONF_INVALID,
   CONF_REQUIRE,
};

/* How a case's tensor inputs are filled. */
enum conf_fill {
   CONF_FILL_RANDOM,   /* integers uniform in the range; floats uniform in [-fp, fp] */
   CONF_FILL_SPECIALS, /* RANDOM, then about one element in six a special value: floats NaN,
                        * +-inf, +-0, +-max, subnormals, min normal; integers the range's ends,
                        * 0, 1, -1 */
   CONF_FILL_CROSS,    /* every element a special value, element k the (k mod count)-th: with
                        * shapes [S,1] and [1,S] a broadcasting operator meets every pair */
   CONF_FILL_BITS,     /* any bit pattern (NaN payloads, signalling NaNs); BOOL 0 or 1 */
};

/* The values one tensor input takes (zero: the element type's default). */
struct conf_range {
   int64_t lo, hi;   /* integers: [lo, hi] (both zero: the whole range of the type) */
   double fp;        /* floats: |x| <= fp (zero: 1.0) */
   bool is_unsigned; /* i8/i16 read as unsigned (RESCALE): the type's range is [0, 2^n) */
};

struct conf_case {
   char name[CONF_NAME_LEN];   /* "<op>.<row>.<what>": unique */
   char group[CONF_GROUP_LEN]; /* "<op>.<row>" or "<op>.invalid": what the subset covers */
   enum conf_intent intent;
   bool split;       /* runs on the device with VMEL_GRAPH_MAX_GROUPS=CONF_SPLIT_MAX_GROUPS */
   bool heavy;       /* millions of elements: selected last by --max-cases */
   bool in_unsigned; /* RESCALE input_unsigned: data and format of the input are unsigned */
   bool out_unsigned;
   struct gt_op op; /* RESCALE multiplier/shift bits are set by conf_prepare() from below */
   uint64_t multiplier[CONF_MAX_CHANNELS];
   uint64_t shift[CONF_MAX_CHANNELS];
   enum conf_fill fill;
   struct conf_range range[GT_MAX_INPUTS];
};

struct conf_list {
   struct conf_case *v;
   size_t count, cap;
   bool out_of_memory;
};

/**
 * Appends a case: zeroed, op->op set, intent VALID, group "<op>.<row>" (or "<op>.invalid" when
 * row is NULL), name "<op>.<row or invalid>.<what>". Returns a scratch case (never NULL) when out
 * of memory, and sets list->out_of_memory.
 */
struct conf_case *conf_add(struct conf_list *list, enum tosa_ref_op op, const char *row,
                           const char *what_fmt, ...) __attribute__((format(printf, 4, 5)));

/* A shape literal and its rank: conf_input(c, 0, dt, CONF_RANK(2, 3), CONF_SHAPE(2, 3), false). */
#define CONF_SHAPE(...) ((const int64_t[]){__VA_ARGS__})
#define CONF_RANK(...) ((uint32_t)(sizeof((const int64_t[]){__VA_ARGS__}) / sizeof(int64_t)))

/** A gt_type from a shape. */
struct gt_type conf_type(enum ref_dtype dtype, uint32_t rank, const int64_t *shape);

/** Sets tensor input `index` of the case (a graph input unless `constant`). */
void conf_input(struct conf_case *c, uint32_t index, enum ref_dtype dtype, uint32_t rank,
                const int64_t *shape, bool constant);

/** A scalar of dtype holding an integer value (wrapped to the width). */
struct gt_scalar conf_int(enum ref_dtype dtype, int64_t value);

/** A scalar of a float dtype holding v rounded to nearest even. */
struct gt_scalar conf_fp(enum ref_dtype dtype, double v);

/** Short name of a dtype for case names ("i8", "fp16", "fp8e4m3"). */
const char *conf_dtype_name(enum ref_dtype dtype);

/* The generators, one per operator family (cases_*.c); each appends every case it has. */
void conf_generate_elementwise(struct conf_list *list); /* ADD, SUB, MUL, CLAMP */
void conf_generate_data(struct conf_list *list);        /* RESHAPE, CONCAT */
void conf_generate_tensor(struct conf_list *list);      /* MAX_POOL2D, CONV2D, MATMUL */
void conf_generate_rescale(struct conf_list *list);     /* RESCALE */

/** Checks the cases' type rows against the operator declarations (rows.c): 0 when they agree. */
int conf_check_rows(const struct conf_list *all);

/* ---- deterministic pseudo-random numbers ------------------------------------------------ */

struct conf_rng {
   uint64_t state;
};

/** Seeds from the run's seed and the case name. */
void conf_rng_init(struct conf_rng *rng, uint64_t seed, const char *name);
uint64_t conf_rng_next(struct conf_rng *rng);
/** Uniform in [lo, hi]. */
int64_t conf_rng_int(struct conf_rng *rng, int64_t lo, int64_t hi);
/** Uniform in [lo, hi]. */
double conf_rng_double(struct conf_rng *rng, double lo, double hi);

/* ---- a case ready to run ---------------------------------------------------------------- */

struct conf_inst {
   struct gt_op op;                          /* the case's, with pointers set */
   struct ref_tensor *inputs[GT_MAX_INPUTS]; /* each tensor input's data */
   struct ref_tensor *output;                /* receives the layers' result (output dtype) */
   struct ref_tensor *ref;                   /* the reference result: output dtype, or FP64 for
                                              * TOSA_REF_TOL_ULP and TOSA_REF_TOL_DOT_PRODUCT */
   struct ref_tensor *ref_ftz;               /* TOSA_REF_TOL_ULP: the FP64 reference with
                                              * every subnormal input flushed to a zero of its
                                              * sign (TOSA lets an implementation flush them
                                              * all); NULL when no input holds a subnormal */
   struct ref_tensor *bnd;                   /* DOT_PRODUCT: the TOSA_REF_DOT_BOUND output */
   struct ref_tensor *lo, *hi;               /* RESCALE_RANGE: the allowed range */
   int status;                               /* the reference's status for the case */
   char message[256];                        /* tosa_ref_last_message() when not OK */
   struct tosa_ref_tolerance tol;
   struct tosa_ref_dot_check dot; /* DOT_PRODUCT */
};

/** The case's operator as graph_text.c takes it (RESCALE multiplier/shift pointing into c). */
void conf_case_op(const struct conf_case *c, struct gt_op *op);

/**
 * Makes a case's input data (from rng), runs the reference and fills inst.
 * @return false when out of memory (inst is then partly filled: conf_inst_finish() it)
 */
bool conf_prepare(const struct conf_case *c, struct conf_rng *rng, struct conf_inst *inst);

void conf_inst_finish(struct conf_inst *inst);

#endif /* VMEL_CONFORMANCE_H */
