/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Expands the operator declarations (tosa_ops.def) for one consumer. No
 * include guard: define the macros you need, include this file, and every
 * macro left undefined expands to nothing; all of them, and the tokens below,
 * are undefined again at the end. The macros (docs/adding-an-op.md):
 *
 *   DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD)
 *       An operator of instruction set SET (TOSA: TOSA.001000.1, number
 *       TOSA_<NAME> of spirv/spirv_arm_ml.h; ME: Arm.MotionEngine.100, number
 *       SPV_ARM_ME_<NAME>, kernels in shaders/graph/motion_engine/). SHAPE, its output-shape rule:
 *       BROADCAST (broadcast_shape of its two tensor inputs), SAME (the first
 *       tensor input's shape) or CUSTOM (graph/ops/ has dg_op_<name>_shape()
 *       computing it from the operands). The decoder checks that the rule gives
 *       the result type's shape, so a graph whose interface carries only ranks
 *       can have its shapes inferred by the same functions.
 *       VALIDATE: CUSTOM when graph/ops/ has dg_op_<name>_validate() for the
 *       ERROR_IFs a table cannot express, else NONE. BUILD: DEFAULT (one
 *       dispatch of the row's kernel over the output's elements, tensors in
 *       binding order, the attributes as specialization constants) or CUSTOM
 *       (graph/build/ has dg_op_<name>_build()).
 *   DG_OPERAND(NAME, KIND, name, FLAGS, ARG)
 *       The next operand, in TOSA.001000.1 order. KIND: TENSOR (a tensor
 *       input; ARG its rank, 0 any), TENSORS (all remaining operands are
 *       tensor inputs), U32, BOOL, NAN_MODE, ACC_TYPE, ROUNDING (constant
 *       scalars; the last three checked against their enumerations), ELEM (a
 *       constant scalar of the element type), LIST (a constant tensor<i32> of
 *       shape [ARG]), ZP (a constant tensor of shape [1]: zero points, MUL's
 *       shift), CONST (any other constant tensor; read by the validation
 *       function). FLAGS: COL (a column of the type-support rows: its element
 *       type, or DG_ROW_ACC(value) for ACC_TYPE), BIND (a CONST the kernel
 *       binds as a tensor, in operand order; TENSOR operands always are).
 *   DG_RESULT(NAME, RANK)
 *       The output's rank (without it, any rank).
 *   DG_RESULTS(NAME, COUNT)
 *       An operator with COUNT results (an OpTypeStruct of COUNT tensors, taken
 *       apart with OpCompositeExtract: FFT2D, RFFT2D); without it, one tensor.
 *       The row's output column, DG_RESULT and the shape rule describe result
 *       0; the validation function checks the others.
 *   DG_ATTR(NAME, TYPE, member, SOURCE, INDEX, DEFAULT)
 *       The next 32-bit word of the operator's attributes (struct
 *       dg_attrs_<name>, specialization constant VMEL_SC_ATTR(i) of its
 *       kernels): TYPE int or uint, filled from element INDEX of operand
 *       SOURCE (LIST: that element; ELEM: sign-extended integer or fp32 bits;
 *       ZP: the sign-extended value, 0 for floats; scalars: the value;
 *       CONST: 0, which the validation function replaces: a list whose
 *       length is the input's rank, SLICE's start, say).
 *       DEFAULT is the kernels' default value.
 *   DG_ROW(NAME, ANY, ALL, KERNEL, COLUMN...)
 *       A type-support row of TOSA.001000.1: enabled when a profile or
 *       extension of ANY is (ANY 0: always) and all of ALL are; the kernel
 *       variant KERNEL runs it; the column values (operands flagged COL in
 *       operand order, then the output).
 *   DG_KERNEL(KERNEL, TEMPLATE, FEATURES, "DEFINES")
 *       A kernel variant: shaders/graph/tosa/<TEMPLATE>.comp compiled with the
 *       defines (IN=t, W=t, OUT=t, ACC=t, DTYPE=t name DG_<ROLE>_DTYPE; others
 *       are passed as they are). FEATURES: 0, F16_ARITH (needs float16
 *       arithmetic), COOP_NV / COOP_KHR (needs VK_NV_cooperative_matrix /
 *       VK_KHR_cooperative_matrix; COOP_KHR kernels are written with the NV GLSL
 *       extension and rewritten to KHR at build time, D51), INT_DOT (needs
 *       shaderIntegerDotProduct; calls of dg_sdot4() become OpSDot at build time, D51),
 *       INTERNAL (stage building uses it directly).
 *   DG_FAST(KERNEL, FAST)
 *       FAST runs KERNEL's rows where the device has FAST's features.
 *   DG_VARIANT(KERNEL, KIND, VARIANT)
 *       VARIANT (an INTERNAL kernel) computes KERNEL's rows differently, a
 *       variant of kind KIND (TILED, TILED_WIDE: the tiled GEMM kernels, D44): the
 *       operator's build function decides where it applies (shapes, device
 *       limits) and VMEL_GRAPH_KERNELS=reference turns every variant off
 *       (dg_build_variant()). DG_FAST lines of VARIANT apply to it as to rows.
 *   DG_KERNEL_GRID(KERNEL, LOCAL_SIZE, GRID)
 *       KERNEL's workgroup size (default VMEL_GRAPH_LOCAL_SIZE, 64) and what
 *       one work item of its grid is: ELEMENTS (one output element, the
 *       default), ELEMENTS4, ELEMENTS8 or ELEMENTS16 (up to that many
 *       consecutive output elements: the elementwise driver, which the build
 *       gives DG_EW_ITEMS=n) or ROWS (one run of the output's last dimension).
 *   DG_TEMPLATE_GRID(TEMPLATE, LOCAL_SIZE, GRID)
 *       The same for every kernel of TEMPLATE without its own DG_KERNEL_GRID.
 */
#ifndef DG_OP
#define DG_OP(SET, NAME, name, SHAPE, VALIDATE, BUILD)
#endif
#ifndef DG_OPERAND
#define DG_OPERAND(NAME, KIND, name, FLAGS, ARG)
#endif
#ifndef DG_RESULT
#define DG_RESULT(NAME, RANK)
#endif
#ifndef DG_RESULTS
#define DG_RESULTS(NAME, COUNT)
#endif
#ifndef DG_ATTR
#define DG_ATTR(NAME, TYPE, member, SOURCE, INDEX, DEFAULT)
#endif
#ifndef DG_ROW
#define DG_ROW(NAME, ANY, ALL, KERNEL, ...)
#endif
#ifndef DG_KERNEL
#define DG_KERNEL(KERNEL, TEMPLATE, FEATURES, DEFINES)
#endif
#ifndef DG_FAST
#define DG_FAST(KERNEL, FAST)
#endif
#ifndef DG_VARIANT
#define DG_VARIANT(KERNEL, KIND, VARIANT)
#endif
#ifndef DG_KERNEL_GRID
#define DG_KERNEL_GRID(KERNEL, LOCAL_SIZE, GRID)
#endif
#ifndef DG_TEMPLATE_GRID
#define DG_TEMPLATE_GRID(TEMPLATE, LOCAL_SIZE, GRID)
#endif

/* Element types: the values of enum dg_type (dg_ir.h; checked in dg_op.c). */
#define BOOL 1
#define I8 2
#define I16 3
#define I32 4
#define I48 5
#define F16 6
#define BF16 7
#define F32 8
#define E4M3 9
#define E5M2 10
/* Accumulator column values: DG_ROW_ACC(enum tosa_acc_type). */
#define ACC_I32 0x81
#define ACC_F16 0x82
#define ACC_F32 0x83
#define ACC_I48 0x84
/* Profiles and extensions: enum dg_tosa_feature (dg_decode.h). */
#define P_INT (1u << 0)
#define P_FP (1u << 1)
#define X_INT16 (1u << 2)
#define X_BF16 (1u << 3)
#define X_E4M3 (1u << 4)
#define X_E5M2 (1u << 5)
#define X_FFT (1u << 6)
/* Operand flags. */
#define COL 1u
#define BIND 2u
/* Kernel features. */
#define F16_ARITH 1u
#define COOP_NV 2u
#define COOP_KHR 4u
#define INT_DOT 8u
#define INTERNAL 0x100u

/* The declarations (TOSA.001000.1, then Arm.MotionEngine.100); DG_OPS_DEF names another file
 * (the generator's tests). */
#ifdef DG_OPS_DEF
#include DG_OPS_DEF
#else
#include "tosa_ops.def"
#include "me_ops.def"
#endif

#undef DG_OP
#undef DG_OPERAND
#undef DG_RESULT
#undef DG_RESULTS
#undef DG_ATTR
#undef DG_ROW
#undef DG_KERNEL
#undef DG_FAST
#undef DG_VARIANT
#undef DG_KERNEL_GRID
#undef DG_TEMPLATE_GRID
#undef BOOL
#undef I8
#undef I16
#undef I32
#undef I48
#undef F16
#undef BF16
#undef F32
#undef E4M3
#undef E5M2
#undef ACC_I32
#undef ACC_F16
#undef ACC_F32
#undef ACC_I48
#undef P_INT
#undef P_FP
#undef X_INT16
#undef X_BF16
#undef X_E4M3
#undef X_E5M2
#undef X_FFT
#undef COL
#undef BIND
#undef F16_ARITH
#undef COOP_NV
#undef COOP_KHR
#undef INT_DOT
#undef INTERNAL
