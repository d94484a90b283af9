/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The tensor ABI (design.md §4): how a tensor view looks to a shader. Each
 * VK_DESCRIPTOR_TYPE_TENSOR_ARM descriptor is replaced by a read-only storage
 * buffer holding one record: the device address of the tensor's first
 * element, its rank, element size, dimensions and byte strides (outermost
 * first, as in VkTensorDescriptionARM). Records live in pooled device memory
 * owned by the tensor layer (tensor/tsr_view.c).
 *
 * This header is valid C and GLSL: the lowering (tensor/lower), graph kernels
 * (shaders/) and the host all use it, so they cannot disagree.
 *
 * Every size fits 32 bits: a tensor is at most maxTensorSize bytes, which the
 * layer derives from maxStorageBufferRange (a uint32_t).
 */
#ifndef VMEL_TENSOR_RECORD_H
#define VMEL_TENSOR_RECORD_H

#define VMEL_TENSOR_MAX_RANK 6
/* The tensor layer's VkPhysicalDeviceToolProperties::version on a physical device where it
 * emulates VK_ARM_tensors with these records (it lists no tool where VK_ARM_tensors is native
 * below it). The graph layer's kernels read tensors through these records, so it offers
 * VK_ARM_data_graph only over a tensor layer that reports this version (D25). Change it with
 * the record layout. */
#define VMEL_TENSOR_RECORD_TOOL_VERSION "1.0 (tensor records 1)"
/* sizeof(struct vmel_tensor_record): std430 and C agree (all 4-byte members). */
#define VMEL_TENSOR_RECORD_SIZE 64

#ifdef VULKAN /* GLSL */

struct vmel_tensor_record {
   uvec2 address;         /* device address of element (0, ..., 0): lo, hi */
   uint rank;             /* 1..VMEL_TENSOR_MAX_RANK */
   uint element_size;     /* bytes: 1, 2, 4 or 8 */
   uint dims[VMEL_TENSOR_MAX_RANK];    /* dims[0] outermost; unused entries are 1 */
   uint strides[VMEL_TENSOR_MAX_RANK]; /* bytes; unused entries are 0 */
};

#else /* C */

#include <stdint.h>

struct vmel_tensor_record {
   uint32_t address[2];
   uint32_t rank;
   uint32_t element_size;
   uint32_t dims[VMEL_TENSOR_MAX_RANK];
   uint32_t strides[VMEL_TENSOR_MAX_RANK];
};

_Static_assert(sizeof(struct vmel_tensor_record) == VMEL_TENSOR_RECORD_SIZE,
               "tensor record layout");

#endif

#endif /* VMEL_TENSOR_RECORD_H */
