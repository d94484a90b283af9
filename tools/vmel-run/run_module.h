/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What vmel-run needs to know about a graph module before running it: the
 * chosen OpGraphEntryPointARM's inputs and outputs (descriptor set, binding,
 * element type, rank and shape when they are constants), the graph constants
 * the graph uses (OpGraphConstantARM id, type), and the element types vmel-run
 * can bind (dtype names, tensor formats and their .npy dtypes). Loading a
 * module from SPIR-V text or binary is here too. No Vulkan calls.
 */
#ifndef VMEL_RUN_MODULE_H
#define VMEL_RUN_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "npy.h"
#include "vulkan/vulkan_arm_ml.h"

#define RUN_MAX_RANK 6
#define RUN_MAX_TENSORS 32
#define RUN_MAX_CONSTANTS 64

/** The element types of tensors vmel-run binds; each has one tensor format. */
enum run_dtype {
   RUN_BOOL,
   RUN_I8,
   RUN_U8,
   RUN_I16,
   RUN_U16,
   RUN_I32,
   RUN_U32,
   RUN_I64, /* also i48 (TOSA's 48-bit accumulators live in 64 bits) */
   RUN_FP16,
   RUN_BF16,
   RUN_FP32,
   RUN_FP64,
   RUN_FP8E4M3,
   RUN_FP8E5M2,
   RUN_DTYPE_COUNT
};

/** "i8", "fp32", "bf16", ... */
const char *run_dtype_name(enum run_dtype dtype);

/** Parses a dtype name; fp16/fp32/fp64 may be written f16/f32/f64. */
bool run_dtype_from_name(const char *name, enum run_dtype *dtype);

VkFormat run_dtype_format(enum run_dtype dtype);

/** The .npy dtype of the data: bf16 is |u2 raw bits, fp8 |u1 raw bits. */
enum npy_dtype run_dtype_npy(enum run_dtype dtype);

/** A SPIR-V element type as the module declares it. */
struct run_elem {
   enum { RUN_ELEM_BOOL, RUN_ELEM_INT, RUN_ELEM_FLOAT } kind;
   uint32_t width;      /* bits */
   bool signed_int;     /* OpTypeInt signedness 1 */
   int32_t fp_encoding; /* OpTypeFloat FPEncoding operand, or -1 */
};

/** Whether data of `dtype` may be bound to a tensor of element type `elem`. */
bool run_elem_accepts(const struct run_elem *elem, enum run_dtype dtype);

/** The dtype used when the command line names none (i8, not u8, for an 8-bit int). */
bool run_elem_default(const struct run_elem *elem, enum run_dtype *dtype);

/** "i8", "fp32", "bf16", ... of a module element type (into buf). */
const char *run_elem_name(const struct run_elem *elem, char *buf, size_t len);

/** An interface tensor or graph constant of the module. */
struct run_tensor_decl {
   uint32_t set, binding; /* interface tensors */
   uint32_t constant_id;  /* graph constants (GraphConstantID) */
   uint32_t result_id;    /* the OpVariable or OpGraphConstantARM */
   char name[64];         /* OpName, or "" */
   struct run_elem elem;
   bool ranked; /* rank is a constant */
   bool shaped; /* shape is a constant too */
   uint32_t rank;
   int64_t dims[RUN_MAX_RANK];
};

struct run_module {
   char entry[128];     /* the chosen entry point's name */
   uint32_t entry_count; /* OpGraphEntryPointARM instructions in the module */
   uint32_t input_count, output_count, constant_count;
   struct run_tensor_decl inputs[RUN_MAX_TENSORS];
   struct run_tensor_decl outputs[RUN_MAX_TENSORS];
   struct run_tensor_decl constants[RUN_MAX_CONSTANTS];
};

/**
 * Reads a module's interface.
 * @param entry  the entry point's name, or NULL for the first one
 * @param err    receives why the module cannot be run by vmel-run
 */
bool run_module_read(const uint32_t *words, size_t count, const char *entry,
                     struct run_module *out, char *err, size_t err_len);

/**
 * Loads a module from a file: SPIR-V binary if it starts with the SPIR-V magic
 * number, a TOSA 1.0 flatbuffer converted by tools/vmel-tosa if it has the
 * "TOSA" file identifier, else SPIR-V text (the vmel-as syntax).
 * @param words  receives a malloc()ed array; free() it
 */
bool run_module_load(const char *path, uint32_t **words, size_t *count, char *err,
                     size_t err_len);

/** "[1, 16, 16, 8]" into buf. */
const char *run_shape_str(uint32_t rank, const int64_t *dims, char *buf, size_t len);

#endif /* VMEL_RUN_MODULE_H */
