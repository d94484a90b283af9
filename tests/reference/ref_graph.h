/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph-level reference: evaluates an assembled SPIR-V graph module (SPV_ARM_graph with
 * TOSA.001000.1 instructions) on the CPU by calling the tosa_ref_* operator functions in the
 * order the graph lists its OpExtInst instructions, from the graph inputs and graph constants
 * the caller gives as ref_tensors. It returns each graph output with what the compliance checks
 * of tosa_ref.h need: the unrounded FP64 result for float rows, the dot-product bound
 * (TOSA_REF_DOT_BOUND) for CONV2D and MATMUL on floats, the allowed range for RESCALE
 * INEXACT_ROUND, and the tolerance tosa_ref_tolerance() states for the operator that produced
 * the output.
 *
 * It reads the words itself (header, instruction stream, ids), independent of the graph
 * layer's decoder. What it understands: OpTypeBool/Int/Float (with the BFloat16KHR and Float8
 * encodings), OpTypeArray, OpTypeTensorARM (ranked and shaped), OpConstant, OpConstantTrue/
 * False, OpConstantNull, OpConstantComposite and OpConstantCompositeReplicateEXT (of arrays and
 * of tensors), OpGraphConstantARM, OpGraphEntryPointARM, OpGraphARM, OpGraphInputARM, OpExtInst
 * of TOSA.001000.1 (other instruction sets, e.g. NonSemantic.*, are ignored),
 * OpGraphSetOutputARM and OpGraphEndARM. Anything the evaluation needs and does not find is a
 * TOSA_REF_BAD_ARGUMENT with a message; an operator the reference does not implement is
 * TOSA_REF_UNSUPPORTED with the message "reference has no <OP>".
 *
 * Intermediate tensors hold the rounded result in their declared type (what the next operator
 * reads, as on a device); the FP64/bound/range companions are kept for the graph outputs only
 * and describe the last operator's step. A chain of float operators is therefore checked
 * against the reference's rounded intermediates: write chains whose intermediates are exact
 * (integers, or float operators with TOSA_REF_TOL_EXACT/FP_EXACT results) or accept that the
 * bound is the last operator's.
 */
#ifndef REF_GRAPH_H
#define REF_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tosa_ref.h"

#ifdef __cplusplus
extern "C" {
#endif

#define REF_GRAPH_MAX_OUTPUTS 8

/** A graph constant's data: OpGraphConstantARM with GraphConstantID `id`. */
struct ref_graph_constant {
   uint32_t id;
   const struct ref_tensor *tensor;
};

/** One graph output and what checking it needs. */
struct ref_graph_output {
   struct ref_tensor *value;      /* the result in the output's declared type */
   struct ref_tensor *fp64;       /* float rows of the producing operator: unrounded, or NULL */
   struct ref_tensor *bound;      /* TOSA_REF_TOL_DOT_PRODUCT: TOSA_REF_DOT_BOUND, or NULL */
   struct ref_tensor *lo, *hi;    /* TOSA_REF_TOL_RESCALE_RANGE: allowed range, or NULL */
   struct tosa_ref_tolerance tol; /* of the producing operator (EXACT for a graph input) */
   struct tosa_ref_dot_check dot; /* TOSA_REF_TOL_DOT_PRODUCT */
   bool out_unsigned;             /* RESCALE output_unsigned */
   const char *op_name;           /* "ADD", ... ("input"/"constant" when not computed) */
};

struct ref_graph_result {
   int status;        /* TOSA_REF_OK, or the first non-OK status of the evaluation */
   char message[320]; /* why, with the operator's position in the graph */
   uint32_t output_count;
   struct ref_graph_output outputs[REF_GRAPH_MAX_OUTPUTS]; /* by OutputIndex */
   uint32_t operator_count;                                /* TOSA instructions evaluated */
};

/**
 * Evaluates the graph of entry point `entry` (NULL: the module's first graph).
 * @param inputs     the graph inputs by InputIndex; each must have the declared type and shape
 * @param constants  data for the module's OpGraphConstantARM ids
 * @param res        filled; release with ref_graph_result_finish() whatever the status
 * @return res->status: TOSA_REF_OK; TOSA_REF_UNPREDICTABLE when some operator's REQUIRE
 *         failed (the outputs are computed anyway); TOSA_REF_ERROR or TOSA_REF_UNSUPPORTED
 *         for an illegal graph (res->message says which operator); TOSA_REF_BAD_ARGUMENT for a
 *         module the evaluator cannot read or inputs that do not fit; TOSA_REF_NO_MEMORY.
 */
int ref_graph_eval(const uint32_t *words, size_t word_count, const char *entry,
                   const struct ref_tensor *const *inputs, uint32_t input_count,
                   const struct ref_graph_constant *constants, uint32_t constant_count,
                   struct ref_graph_result *res);

void ref_graph_result_finish(struct ref_graph_result *res);

/** TOSA.001000.1's name of instruction `number` (0..65), NULL beyond. */
const char *ref_graph_tosa_name(uint32_t number);

#ifdef __cplusplus
}
#endif

#endif /* REF_GRAPH_H */
