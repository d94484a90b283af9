/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The push constants of the tensor copy kernel (shaders/tensor/copy.comp),
 * shared by the kernel and tensor/tsr_copy.c. Valid C and GLSL.
 *
 * The copy is an n-dimensional array of units (1, 2, 4, 8 or 16 bytes, one
 * variant each). Dimension rank - 1 is the innermost; its strides are the unit
 * size. Invocation i of a dispatch copies unit base + i (row-major over
 * extent[]) when i < count. Offsets are relative to src/dst, the addresses of
 * the region's first byte; every offset fits 32 bits because a tensor spans at
 * most maxTensorSize (≤ maxStorageBufferRange) bytes.
 */
#ifndef VMEL_TENSOR_COPY_H
#define VMEL_TENSOR_COPY_H

#define VMEL_COPY_MAX_DIMS 6
#define VMEL_COPY_LOCAL_SIZE 64

#ifdef VULKAN /* GLSL */

struct vmel_copy_args {
   uvec2 src;  /* device address of the region's first source byte: lo, hi */
   uvec2 dst;  /* device address of the region's first destination byte */
   uint rank;  /* dimensions used, 1..VMEL_COPY_MAX_DIMS */
   uint count; /* units this dispatch copies */
   uint base;  /* index of its first unit */
   uint unused;
   uint extent[VMEL_COPY_MAX_DIMS];     /* units per dimension; [rank - 1] innermost */
   uint src_stride[VMEL_COPY_MAX_DIMS]; /* bytes */
   uint dst_stride[VMEL_COPY_MAX_DIMS]; /* bytes */
};

#else /* C */

#include <stdint.h>

struct vmel_copy_args {
   uint32_t src[2];
   uint32_t dst[2];
   uint32_t rank;
   uint32_t count;
   uint32_t base;
   uint32_t unused;
   uint32_t extent[VMEL_COPY_MAX_DIMS];
   uint32_t src_stride[VMEL_COPY_MAX_DIMS];
   uint32_t dst_stride[VMEL_COPY_MAX_DIMS];
};

/* 128 bytes is the minimum maxPushConstantsSize (lavapipe's too). */
_Static_assert(sizeof(struct vmel_copy_args) <= 128, "push constant budget");

#endif

#endif /* VMEL_TENSOR_COPY_H */
