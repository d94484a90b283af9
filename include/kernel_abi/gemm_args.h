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
 * a BM x BK block of A (k-major) and a BK x BN block of B in shared memory as
 * vectors of 4 elements (4 rows of A, 4 columns of B; A's rows padded by
 * DG_GEMM_PAD4 vectors against bank conflicts), then each invocation adds the
 * products into its register block of DG_GEMM_TM x DG_GEMM_TN outputs: TM / 4
 * groups of 4 rows and TN / 4 groups of 4 columns. The work count of a
 * dispatch is tiles * DG_GEMM_LOCAL (one work item per invocation of a tile's
 * workgroup).
 *
 * Three tiles (D44): the TILED variants' 128 x 64 (K steps of 16, 8 x 4 outputs
 * per invocation: 3 vector loads from shared memory per 32 multiply-adds), for
 * outputs of up to 64 columns such as 64-channel convolutions; the TILED_WIDE
 * variants' 128 x 128 (K steps of 8, 8 x 8 per invocation: 4 loads per 64),
 * which a kernel selects with DG_GEMM_WIDE; the TILED_SMALL variants' 64 x 64 (K steps
 * of 16, 4 x 4 per invocation; DG_GEMM_SMALL), for GPUs where the larger tiles would leave
 * too few workgroups (graph/build/gemm_build.c).
 */
#ifndef VMEL_GEMM_ARGS_H
#define VMEL_GEMM_ARGS_H

#define DG_GEMM_LOCAL 256
#define DG_GEMM_PAD4 1

#define DG_GEMM_NARROW_BM 128
#define DG_GEMM_NARROW_BN 64
#define DG_GEMM_NARROW_BK 16
#define DG_GEMM_NARROW_TM 8
#define DG_GEMM_NARROW_TN 4

#define DG_GEMM_SMALL_BM 64
#define DG_GEMM_SMALL_BN 64
#define DG_GEMM_SMALL_BK 16
#define DG_GEMM_SMALL_TM 4
#define DG_GEMM_SMALL_TN 4

#define DG_GEMM_WIDE_BM 128
#define DG_GEMM_WIDE_BN 128
#define DG_GEMM_WIDE_BK 8
#define DG_GEMM_WIDE_TM 8
#define DG_GEMM_WIDE_TN 8

/* Shared memory of one workgroup at most (4-byte elements; fp16 variants use half). */
#define DG_GEMM_SHARED_BYTES(BM, BN, BK) (16 * (BK) * ((BM) / 4 + DG_GEMM_PAD4 + (BN) / 4))

#ifdef DG_GEMM_WIDE
#define DG_GEMM_BM DG_GEMM_WIDE_BM
#define DG_GEMM_BN DG_GEMM_WIDE_BN
#define DG_GEMM_BK DG_GEMM_WIDE_BK
#define DG_GEMM_TM DG_GEMM_WIDE_TM
#define DG_GEMM_TN DG_GEMM_WIDE_TN
#elif defined(DG_GEMM_SMALL)
#define DG_GEMM_BM DG_GEMM_SMALL_BM
#define DG_GEMM_BN DG_GEMM_SMALL_BN
#define DG_GEMM_BK DG_GEMM_SMALL_BK
#define DG_GEMM_TM DG_GEMM_SMALL_TM
#define DG_GEMM_TN DG_GEMM_SMALL_TN
#else
#define DG_GEMM_BM DG_GEMM_NARROW_BM
#define DG_GEMM_BN DG_GEMM_NARROW_BN
#define DG_GEMM_BK DG_GEMM_NARROW_BK
#define DG_GEMM_TM DG_GEMM_NARROW_TM
#define DG_GEMM_TN DG_GEMM_NARROW_TN
#endif

/* Split-K (D56): the bindings of gemm_reduce.comp, which adds the S parts of a SPLITK
 * variant's partial sums [S, <output dims>] and stores the output; graph/build/gemm_split.c
 * gives each part at least DG_SPLIT_MIN_STEPS K steps of its tile (DG_GEMM_SMALL_BK) unless
 * VMEL_GRAPH_SPLIT_K forces a count. */
#define DG_GEMM_REDUCE_PARTS 0
#define DG_GEMM_REDUCE_BIAS 1 /* CONV2D's bias; MATMUL binds the partial sums again, unread */
#define DG_GEMM_REDUCE_OUTPUT 2
#define DG_SPLIT_MIN_STEPS 4

/*
 * The cooperative-matrix kernels (shaders/common/dg_gemm_coop.glsl: matmul_coop.comp,
 * conv2d_coop.comp; D51, D58). A workgroup of DG_GEMM_LOCAL invocations, DG_COOP_SUBGROUPS
 * subgroups of DG_COOP_SUBGROUP_SIZE (the build takes them only on a device whose subgroup
 * size is that), computes a DG_COOP_BM x DG_COOP_BN output tile, walking K in steps of
 * DG_COOP_BK_BYTES of A's rows (32 fp16 or 64 i8 elements) staged in two shared buffers as
 * 16-byte vectors (A row-major BM x BK, B row-major BK x BN, each row padded by
 * DG_COOP_PAD_BYTES so that rows stay 16-byte aligned and spread over the banks). The
 * subgroups form a DG_COOP_WARPS_M x DG_COOP_WARPS_N grid; each owns a
 * (BM / WARPS_M) x (BN / WARPS_N) block of fragments of the device's M x N x K shape. The
 * accumulators leave through a per-subgroup scratch in A's buffers, one element per store of
 * the epilogue.
 */
#define DG_COOP_BM 128
#define DG_COOP_BN 128
#define DG_COOP_BK_BYTES 64
#define DG_COOP_SUBGROUP_SIZE 32
#define DG_COOP_SUBGROUPS (DG_GEMM_LOCAL / DG_COOP_SUBGROUP_SIZE)
#define DG_COOP_WARPS_M 2
#define DG_COOP_WARPS_N 4
#define DG_COOP_PAD_BYTES 16

/* Shared memory of one workgroup whose staged elements have ES bytes: two buffers each. */
#define DG_COOP_SHARED_BYTES(ES)                                                                   \
   (2 * DG_COOP_BM * (DG_COOP_BK_BYTES + DG_COOP_PAD_BYTES) +                                      \
    2 * (DG_COOP_BK_BYTES / (ES)) * (DG_COOP_BN * (ES) + DG_COOP_PAD_BYTES))

/* The integer-dot-product kernels (shaders/common/dg_gemm_dot.glsl; D51): 64 x 64 output tiles,
 * K in steps of 32 staged as words of 4 packed i8 values, a 4 x 4 block per invocation. */
#define DG_DOT_BM 64
#define DG_DOT_BN 64
#define DG_DOT_BK 32
#define DG_DOT_SHARED_BYTES (4 * (DG_DOT_BK / 4) * (DG_DOT_BM + DG_DOT_BN))

/*
 * The SUBGROUP convolution (shaders/graph/tosa/conv2d_subgroup.comp; D55), for devices whose
 * subgroups are DG_SG_LANES invocations with ballot operations (lavapipe's SIMD vector): no
 * shared memory; each lane computes DG_SG_TM rows (lane-strided) x DG_SG_TN columns, every
 * lane of a subgroup the same columns, the weights of a k loaded DG_SG_TN / DG_SG_LANES per lane
 * and broadcast. A workgroup of DG_SG_LOCAL invocations computes a DG_SG_BM x DG_SG_TN tile.
 * Measured on lavapipe (docs/performance.md): 8 rows per lane ran the ResNet layer several times
 * faster than 2 or 4 (the weights' loads and broadcasts are shared by more rows); 16-invocation
 * workgroups give a 56x56 layer 25 tiles, enough for a few threads.
 */
#define DG_SG_LANES 8
#define DG_SG_TM 8
#define DG_SG_TN 64
#define DG_SG_LOCAL 16
#define DG_SG_BM (DG_SG_LOCAL * DG_SG_TM)

#endif /* VMEL_GEMM_ARGS_H */
