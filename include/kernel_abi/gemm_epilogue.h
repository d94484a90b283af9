/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The epilogue of a fused stage (D52), shared by C and GLSL: a short list of elementwise
 * operators that a producer kernel (the tiled GEMM kernels' _EPI variants,
 * shaders/common/dg_gemm_epilogue.glsl) applies to each output element in registers before
 * storing it, in place of the stages and intermediates the graph had for them
 * (graph/build/dg_fuse.c decides the chain). Every step rounds to the storage type of the
 * intermediate it replaces, so the stored result is the unfused graph's.
 *
 * Specialization constants: VMEL_SC_EPI(0) is the op count (0: no epilogue); op j's words
 * are VMEL_SC_EPI(1 + DG_EPI_OP_WORDS * j + w), w = 0..3. Word 0 of an op is
 * DG_EPI_WORD0(op, result dtype, first extra tensor, flags); the others depend on the op:
 *   RESCALE  1: DG_EPI_RESCALE_* flags, 2: input_zp, 3: output_zp; tensors t (multiplier,
 *            i32 [NC]) and t + 1 (shift, i8 [NC]), as rescale.comp
 *   CLAMP    1: min_val, 2: max_val (int32 bits of an integer, fp32 bits of a float),
 *            3: nan_mode
 *   ADD, SUB, MUL  1: MUL's shift (i32); tensor t is the other operand, of the output's
 *            rank, each dimension the output's or 1 (broadcast); flag DG_EPI_SWAP: the other
 *            operand is input1 (SUB: other - value)
 *   SIGMOID, TANH, CAST: no words, no tensor.
 * Dtypes are dg_kernel.glsl's DG_DTYPE_* (enum dg_type's numbers).
 * Extra tensors: DG_EPI_TENSORS kernel tensors after the producer's output; those the ops do
 * not use are bound to another of the stage's tensors and never read.
 */
#ifndef VMEL_GEMM_EPILOGUE_H
#define VMEL_GEMM_EPILOGUE_H

#define DG_EPI_MAX_OPS 6
#define DG_EPI_OP_WORDS 4
#define DG_EPI_WORDS (1 + DG_EPI_MAX_OPS * DG_EPI_OP_WORDS)
#define DG_EPI_TENSORS 4

/* After the last shape constant of kernel tensor 7 (VMEL_SC_SHAPE(7, 15) = 191). */
#define VMEL_SC_EPI(i) (192 + (i))

#define DG_EPI_RESCALE 1
#define DG_EPI_CLAMP 2
#define DG_EPI_ADD 3
#define DG_EPI_SUB 4
#define DG_EPI_MUL 5
#define DG_EPI_SIGMOID 6
#define DG_EPI_TANH 7
#define DG_EPI_CAST 8

#define DG_EPI_SWAP 1u

#define DG_EPI_RESCALE_SCALE32 1u
#define DG_EPI_RESCALE_DOUBLE_ROUND 2u
#define DG_EPI_RESCALE_PER_CHANNEL 4u
#define DG_EPI_RESCALE_INPUT_UNSIGNED 8u
#define DG_EPI_RESCALE_OUTPUT_UNSIGNED 16u

#define DG_EPI_WORD0(op, dtype, tensor, flags)                                                     \
   ((op) | ((dtype) << 8) | ((tensor) << 16) | ((flags) << 24))
#define DG_EPI_OP_OF(w0) ((w0)&0xffu)
#define DG_EPI_DTYPE_OF(w0) (((w0) >> 8) & 0xffu)
#define DG_EPI_TENSOR_OF(w0) (((w0) >> 16) & 0xffu)
#define DG_EPI_FLAGS_OF(w0) ((w0) >> 24)

#endif /* VMEL_GEMM_EPILOGUE_H */
