/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * A TOSA 1.0 flatbuffer (.tosa, schema tests/tosa/schema/tosa.fbs) read into plain arrays:
 * tosa_model_read() parses it with the bounded reader (tosa_fb.h) and validates it fully
 * (one region, one block, every name resolved, each tensor defined once, static ranked shapes,
 * constant data of the right size) before tosa_lower.c makes a SPIR-V graph of it. Strings and
 * constant data point into the caller's buffer, which must outlive the model.
 */
#ifndef VMEL_TOSA_MODEL_H
#define VMEL_TOSA_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tosa_fb.h"

#define TOSA_MAX_RANK 6
#define TOSA_MAX_TENSORS 65536u
#define TOSA_MAX_OPERATORS 65536u
#define TOSA_MAX_OP_OPERANDS 64u /* CONCAT's list: MAX_TENSOR_LIST_SIZE */
#define TOSA_MAX_NAME 1024u
#define TOSA_MAX_IO 32u /* block inputs / outputs (vmel-run binds at most 32 each) */

/* DType of the TOSA 1.0 schema. */
enum tosa_dtype {
   TOSA_DT_UNKNOWN = 0,
   TOSA_DT_BOOL,
   TOSA_DT_INT4,
   TOSA_DT_INT8,
   TOSA_DT_INT16,
   TOSA_DT_INT32,
   TOSA_DT_INT48,
   TOSA_DT_FP32,
   TOSA_DT_FP16,
   TOSA_DT_BF16,
   TOSA_DT_SHAPE,
   TOSA_DT_FP8E4M3,
   TOSA_DT_FP8E5M2,
   TOSA_DT_COUNT
};

/* Op of the TOSA 1.0 schema: 1..66 are TOSA.001000.1 instructions 0..65 in the same order. */
enum {
   TOSA_OP_ARGMAX = 1,
   TOSA_OP_FFT2D = 6,
   TOSA_OP_RFFT2D = 9,
   TOSA_OP_CONCAT = 55,
   TOSA_OP_RESCALE = 66,
   TOSA_OP_CONST = 67,
   TOSA_OP_IDENTITY = 68,
   TOSA_OP_CUSTOM = 69,
   TOSA_OP_COND_IF = 70,
   TOSA_OP_WHILE_LOOP = 71,
   TOSA_OP_VARIABLE = 72,
   TOSA_OP_VARIABLE_WRITE = 73,
   TOSA_OP_VARIABLE_READ = 74,
   TOSA_OP_CONST_SHAPE = 75,
   TOSA_OP_COUNT
};

struct tosa_tensor {
   const char *name;
   uint32_t name_len;
   enum tosa_dtype dtype;
   uint32_t rank;
   int64_t dims[TOSA_MAX_RANK];
   uint64_t elements;
   const uint8_t *data; /* constant data (CONST / CONST_SHAPE outputs), else NULL */
   uint32_t data_len;
   int32_t producer;    /* operator index, -1 for none */
   int32_t block_input; /* position in the block's inputs, -1 for none */
};

struct tosa_operator {
   uint32_t op;
   uint32_t attr_type;             /* union type (0: none) */
   struct tosa_fb_table attr;      /* valid when attr_type != 0 */
   bool has_attr;
   uint64_t offset;                /* of the operator's table, for messages */
   uint32_t input_count, output_count;
   uint32_t *inputs, *outputs;     /* tensor indices */
};

struct tosa_model {
   struct tosa_fb fb;
   int32_t version[3]; /* major, minor, patch */
   bool draft;
   uint32_t tensor_count, operator_count, input_count, output_count;
   struct tosa_tensor *tensors;
   struct tosa_operator *operators;
   uint32_t *inputs, *outputs; /* tensor indices, in declared order */
   uint32_t *operands;         /* storage of every operator's inputs and outputs */
};

/** "ADD", "CONST_SHAPE", ... or NULL for a value outside the schema's Op enum. */
const char *tosa_op_name(uint32_t op);

/** "INT8", "FP32", ... or NULL. */
const char *tosa_dtype_name(uint32_t dtype);

/** Bytes per element of constant data (INT48: 6, SHAPE: 8), 0 for INT4/UNKNOWN. */
uint32_t tosa_dtype_size(enum tosa_dtype dtype);

/**
 * Parses and validates a .tosa file. On failure `err` names the field or operator and why, and
 * the model is released.
 */
bool tosa_model_read(const void *data, size_t size, struct tosa_model *m, char *err,
                     size_t err_len);

void tosa_model_finish(struct tosa_model *m);

/** Whether `data` looks like a .tosa file (the FlatBuffers file identifier "TOSA"). */
bool tosa_is_flatbuffer(const void *data, size_t size);

#endif /* VMEL_TOSA_MODEL_H */
