/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The FFT kernels' interface (shaders/graph/tosa/fft2d.comp), shared by C and
 * GLSL; graph/build/fft_build.c fills it. Every dispatch is one pass over
 * "lines" of [N,H,W] fp32 tensors: along W (axis 0: line (n, h), element w)
 * or along H (axis 1: line (n, w), element h, for w below `columns`). A
 * complex value is a pair of tensors (real, imaginary); DG_FFT_REAL_IN reads
 * a real input only (RFFT2D's first pass).
 *
 * Tensors: DG_FFT_REAL_IN: in_re, out_re, out_im; otherwise in_re, in_im,
 * out_re, out_im.
 * DG_FFT_SHARED (one workgroup of DG_FFT_LOCAL invocations per line, at most
 * DG_FFT_SHARED_MAX points in shared memory: the whole radix-2 transform);
 * DG_FFT_PASS (one radix-2 Stockham stage, `stage`, with a work item per
 * butterfly: lines * length / 2 of them; out of place, so through scratch).
 */
#ifndef VMEL_FFT_ARGS_H
#define VMEL_FFT_ARGS_H

#include "kernel_abi/tosa_args.h"

#define DG_FFT_LOCAL 256
#define DG_FFT_SHARED_MAX 2048

#define DG_FFT_ARGS(A, S)                                                                          \
   A(S, 0, uint, axis, 0u)    /* 0: along W, 1: along H */                                         \
   A(S, 1, uint, inverse, 0u) /* 1: exp(+2 pi i ...) */                                            \
   A(S, 2, uint, stage, 0u)   /* DG_FFT_PASS: the stage, half-length 1 << stage */                 \
   A(S, 3, uint, columns, 1u) /* axis 1: columns transformed (W, or W / 2 + 1 for RFFT2D) */

#ifndef VULKAN
DG_DEFINE_ARGS(dg_fft_args, DG_FFT_ARGS);
#endif

#endif /* VMEL_FFT_ARGS_H */
