/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The tiled GEMM kernels' interface (shaders/common/dg_gemm.glsl: the
 * TILED variants of MATMUL and CONV2D, matmul_tiled.comp and
 * conv2d_tiled.comp), shared by C and GLSL; graph/build/gemm_build.c sizes
 * their grids with it (D44).
 *
 * One workgroup of DG_GEMM_LOCAL invocations computes a DG_GEMM_BM x DG_GEMM_BN
 * tile of the output matrix, walking K in steps of DG_GEMM_BK: each step stages
 * a BM x BK block of A and a BK x BN block of B in shared memory (rows padded by
 * DG_GEMM_PAD elements against bank conflicts), then each invocation adds the
 * products into its register block of DG_GEMM_TM x DG_GEMM_TN outputs (rows
 * ty + i * BM / TM, columns tx + j * BN / TN). The work count of a dispatch is
 * tiles * DG_GEMM_LOCAL (one work item per invocation of a tile's workgroup).
 */
#ifndef VMEL_GEMM_ARGS_H
#define VMEL_GEMM_ARGS_H

#define DG_GEMM_LOCAL 256
#define DG_GEMM_BM 64
#define DG_GEMM_BN 64
#define DG_GEMM_BK 16
#define DG_GEMM_TM 4
#define DG_GEMM_TN 4
#define DG_GEMM_PAD 1

/* Shared memory of one workgroup at most (4-byte elements; fp16 variants use half). */
#define DG_GEMM_SHARED_BYTES                                                                       \
   (4 * (DG_GEMM_BK * (DG_GEMM_BM + DG_GEMM_PAD) + DG_GEMM_BK * (DG_GEMM_BN + DG_GEMM_PAD)))

#endif /* VMEL_GEMM_ARGS_H */
