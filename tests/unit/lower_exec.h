/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A small compute runner for executing tensor shaders on a Vulkan device
 * (lavapipe in CI) through the tensor layer, which lowers them in
 * vkCreateShaderModule on the path VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE
 * selects (unset or 0: the GLSL round trip, 1: the direct SPIR-V lowering;
 * CTest runs each test under both). Tensors are plain buffers with device
 * addresses, and each tensor binding is a storage buffer holding its struct
 * vmel_tensor_record, exactly as the layer binds them, so the data stays
 * under the test's control. Used by test_lower_exec.c and
 * test_lower_convert.c to check what the lowered code computes.
 */
#ifndef VMEL_LOWER_EXEC_H
#define VMEL_LOWER_EXEC_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "kernel_abi/tensor_record.h"
#include "vkutil.h"

struct lx {
   struct vku v;
   VkDevice device;
   VkQueue queue;
   uint32_t family;
   VkPhysicalDeviceMemoryProperties mem;
   VkCommandPool pool;
   bool non_uniform;   /* shaderStorageBufferArrayNonUniformIndexing */
   bool runtime_array; /* runtimeDescriptorArray */
};

/** A host-visible buffer with a device address, mapped. */
struct lx_buffer {
   VkBuffer buffer;
   VkDeviceMemory memory;
   void *map;
   VkDeviceSize size;
   VkDeviceAddress address;
};

/** A tensor: its data buffer (with guard bytes after the last element) and its record. */
struct lx_tensor {
   struct lx_buffer data;
   struct lx_buffer record;
   uint32_t rank, element_size;
   uint32_t dims[VMEL_TENSOR_MAX_RANK];
   uint32_t strides[VMEL_TENSOR_MAX_RANK];
   VkDeviceSize bytes; /* strides[0] * dims[0] */
};

#define LX_GUARD_BYTES 64u
#define LX_GUARD_BYTE 0xa5u

/** Creates the instance (the tensor layer, and validation below it when available) and a
 *  device with VK_ARM_tensors. */
bool lx_init(struct lx *x);
void lx_finish(struct lx *x);

bool lx_buffer_create(struct lx *x, VkDeviceSize size, struct lx_buffer *b);
void lx_buffer_destroy(struct lx *x, struct lx_buffer *b);

/**
 * Creates a tensor; strides NULL means packed. The data is filled with
 * LX_GUARD_BYTE everywhere (padding and guard included).
 */
bool lx_tensor_create(struct lx *x, uint32_t rank, const uint32_t *dims, const uint32_t *strides,
                      uint32_t element_size, struct lx_tensor *t);
void lx_tensor_destroy(struct lx *x, struct lx_tensor *t);
/** Address of the element at coordinates c (rank of them). */
void *lx_tensor_at(const struct lx_tensor *t, const uint32_t *c);
/** True when no guard byte after the tensor's last byte changed. */
bool lx_tensor_guard_intact(const struct lx_tensor *t);

/** One descriptor binding: `count` storage buffers (records or plain buffers). */
struct lx_binding {
   uint32_t count;
   const struct lx_buffer *buffers[8];
};

struct lx_dispatch {
   const uint32_t *spirv; /* the module (with tensors: the layer lowers it) */
   size_t spirv_count;
   const struct lx_binding *bindings; /* binding i of set 0 */
   uint32_t binding_count;
   uint32_t groups[3];
   const VkSpecializationInfo *specialization;
};

/** Builds the pipeline, dispatches, waits. */
bool lx_run(struct lx *x, const struct lx_dispatch *d);

/**
 * Assembles SPIR-V text (or reads tests/unit/lower/<name>.in.spvasm when text
 * is NULL) and returns the words (free()), for lx_run() to hand to the layer.
 */
uint32_t *lx_module(const char *name, const char *text, size_t *count);

/** The lowering path the layer takes here (for messages): "GLSL round trip" or "direct". */
const char *lx_mode(void);

#endif /* VMEL_LOWER_EXEC_H */
