/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The ROW_BLOCK DEPTHWISE_CONV2D kernel's interface (depthwise_conv2d_rows.comp, D64), shared
 * by C and GLSL; graph/build/depthwise_build.c sizes its grid and checks its window with it.
 *
 * A work item computes DG_DW_TX consecutive output pixels of one row for 4 channels, reading
 * per kernel row a window of (DG_DW_TX - 1) * stride_x + (KW - 1) * dilation_x + 1 input
 * pixels held in registers, at most DG_DW_WMAX (3x3 stride 1: 10; stride 2: 17; 5x5 stride
 * 2: 19; 7x7 stride 1: 14).
 */
#ifndef VMEL_DEPTHWISE_ARGS_H
#define VMEL_DEPTHWISE_ARGS_H

#define DG_DW_TX 8
#define DG_DW_WMAX 20

#endif /* VMEL_DEPTHWISE_ARGS_H */
