/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The single-operator graph module writer of the conformance runner: from one TOSA operator
 * (TOSA.001000.1), its tensor operands' element types and shapes, its attributes and its
 * compile-time-constant operands, it writes SPIR-V text that tools/asm (vmel-as) assembles:
 *
 *  - capabilities and extensions for the element types used, the TOSA import;
 *  - element types (TOSA.001000.1 type mapping: i48 is OpTypeInt 64 0, bf16 and fp8 are
 *    OpTypeFloat with an encoding), 32-bit integer constants for dimensions and scalar
 *    attributes, shapes as OpConstantComposite of OpTypeArray, OpTypeTensorARM types;
 *  - list attributes (kernel, stride, pad, dilation, RESHAPE shape), zero points, MUL shift and
 *    RESCALE multiplier/shift as OpConstantComposite tensor constants; CLAMP min_val/max_val as
 *    scalar constants of the element type;
 *  - each tensor operand either a graph input (OpGraphInputARM; interface variable at
 *    DescriptorSet 0, Binding i for the i-th graph input) or a graph constant
 *    (OpGraphConstantARM, GraphConstantID j for the j-th one), or an earlier operand again;
 *  - the output at DescriptorSet 0, Binding <number of graph inputs>; OpGraphEntryPointARM
 *    "main"; one OpExtInst; OpGraphSetOutputARM.
 *
 * Operand order is TOSA.001000.1's (spec-facts §3.2): attributes first, tensor inputs in TOSA
 * order, compile-time-constant inputs (zero points, shift, multiplier) in their input position.
 * The writer checks nothing TOSA checks: negative conformance cases are written with it, so any
 * type, shape or attribute value it can spell is written as given.
 */
#ifndef VMEL_GRAPH_TEXT_H
#define VMEL_GRAPH_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tosa_ref.h"

#define GT_MAX_RANK REF_MAX_RANK
#define GT_MAX_INPUTS 8 /* tensor operands of one operator (CONCAT: up to 8 inputs) */

/** An element type and a shape. */
struct gt_type {
   enum ref_dtype dtype; /* not REF_DTYPE_FP64 */
   uint32_t rank;        /* 1..GT_MAX_RANK */
   int64_t shape[GT_MAX_RANK];
};

/** Where a tensor operand comes from. */
enum gt_source {
   GT_GRAPH_INPUT,    /* OpGraphInputARM, bound at set 0 */
   GT_GRAPH_CONSTANT, /* OpGraphConstantARM; data given at pipeline creation */
};

struct gt_input {
   struct gt_type type;
   enum gt_source source;
   uint32_t alias; /* k > 0: this operand is the same value as input k - 1 (ADD(x, x)); its own
                    * type and source are then ignored */
};

/** A scalar of any element type, as its bit pattern (low bits; integers two's complement). */
struct gt_scalar {
   enum ref_dtype dtype;
   uint64_t bits;
};

/** A constant tensor operand (OpConstantComposite): rank 1, count elements. */
struct gt_const {
   enum ref_dtype dtype;
   uint32_t count;
   const uint64_t *bits; /* count bit patterns */
};

/** One TOSA operator, its operands and its result type. */
struct gt_op {
   enum tosa_ref_op op;
   struct gt_input inputs[GT_MAX_INPUTS]; /* tensor inputs in TOSA order */
   uint32_t input_count;                  /* CONCAT: the list length; others: fixed */
   struct gt_type output;
   union {
      struct {
         struct gt_scalar min_val, max_val;
         uint32_t nan_mode;
      } clamp;
      struct {
         struct gt_scalar shift; /* tensor<i8>[1] */
      } mul;
      struct {
         uint32_t axis;
      } concat;
      struct {
         int32_t shape[GT_MAX_RANK]; /* the `shape` operand, shape_count entries */
         uint32_t shape_count;
      } reshape;
      struct {
         int32_t kernel[2], stride[2], pad[4];
         uint32_t nan_mode;
      } max_pool2d;
      struct {
         int32_t pad[4], stride[2], dilation[2];
         uint32_t acc_type;
         bool local_bound;
         struct gt_scalar input_zp, weight_zp;
      } conv2d;
      struct {
         struct gt_scalar a_zp, b_zp;
      } matmul;
      struct {
         bool scale32;
         uint32_t rounding_mode;
         bool per_channel, input_unsigned, output_unsigned;
         struct gt_const multiplier, shift;
         struct gt_scalar input_zp, output_zp;
      } rescale;
   } attr;
};

/** TOSA.001000.1's instruction name of an operator ("MAX_POOL2D"), NULL if unknown. */
const char *gt_op_name(enum tosa_ref_op op);

/** Lower-case operator name for case names and --op ("max_pool2d"), NULL if unknown. */
const char *gt_op_short_name(enum tosa_ref_op op);

/**
 * Writes the module.
 * @param op    the operator description
 * @param text  receives the NUL-terminated text, allocated with malloc(); free() it
 * @param err   receives a message on failure; may be NULL
 * @return true on success; false for an operator, type or operand count the writer cannot
 *         spell (unknown enum values, rank out of 1..GT_MAX_RANK, too many inputs), or when out
 *         of memory
 */
bool gt_write(const struct gt_op *op, char **text, char *err, size_t err_len);

#endif /* VMEL_GRAPH_TEXT_H */
