/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The graph IR that decoding produces (dg_decode.c) and stage building
 * consumes: tensors with their element type, shape and origin (graph input,
 * graph constant, module constant, node output), TOSA nodes in module order
 * with decoded attributes, and the graph's inputs and outputs with their
 * descriptor set, binding and array element. Plain data: nothing here
 * refers to a Vulkan object. Every shape is static (TOSA levels, spec-facts
 * §4.2), so every size is known at pipeline creation.
 */
#ifndef DG_IR_H
#define DG_IR_H

#include <stdbool.h>
#include <stdint.h>
#include <vulkan/vulkan.h>

#include "dg_op_abi.h"
#include "vulkan/vulkan_arm_ml.h"

/* TOSA 1.0 level 8K, the level the layer advertises (dg_instance.c). */
#define DG_MAX_RANK 6
#define DG_MAX_KERNEL 8192
#define DG_MAX_STRIDE 8192
#define DG_MAX_TENSOR_LIST_SIZE 64
#define DG_MAX_LOG2_SIZE 31

/** Element types of TOSA.001000.1 tensors (spec-facts §3.1). */
enum dg_type {
   DG_TYPE_INVALID = 0,
   DG_TYPE_BOOL,    /* OpTypeBool */
   DG_TYPE_I8,      /* OpTypeInt 8 */
   DG_TYPE_I16,     /* OpTypeInt 16 */
   DG_TYPE_I32,     /* OpTypeInt 32 */
   DG_TYPE_I48,     /* OpTypeInt 64: TOSA's i48_t, held in 64 bits */
   DG_TYPE_FP16,    /* OpTypeFloat 16 */
   DG_TYPE_BF16,    /* OpTypeFloat 16 BFloat16KHR */
   DG_TYPE_FP32,    /* OpTypeFloat 32 */
   DG_TYPE_FP8E4M3, /* OpTypeFloat 8 Float8E4M3EXT */
   DG_TYPE_FP8E5M2, /* OpTypeFloat 8 Float8E5M2EXT */
   DG_TYPE_COUNT,
};

/** Bytes per element as stored (i48 takes 8, bool 1). 0 for DG_TYPE_INVALID. */
uint32_t dg_type_size(enum dg_type type);
/** TOSA spelling: "i8", "i48", "bf16", "fp8e4m3", ... */
const char *dg_type_name(enum dg_type type);
bool dg_type_is_float(enum dg_type type);
/** The one-component VkFormats a tensor of this type can be described with
 *  (spirvenv tensor-format table): signed_only for OpTypeInt with signedness 1. */
bool dg_type_format_compatible(enum dg_type type, bool signed_only, VkFormat format);

struct dg_shape {
   uint32_t rank; /* 1..DG_MAX_RANK: Vulkan tensors have no rank 0 */
   int64_t dim[DG_MAX_RANK];
};

/** A decoded shaped OpTypeTensorARM. */
struct dg_tensor_type {
   enum dg_type type;
   bool int_signed; /* OpTypeInt with signedness 1 (only R*_SINT formats match) */
   struct dg_shape shape;
};

uint64_t dg_shape_elements(const struct dg_shape *shape);
/** A rank and every dimension known (>= 1). Decoding leaves no tensor unknown. */
bool dg_shape_known(const struct dg_shape *shape);
bool dg_shape_equal(const struct dg_shape *a, const struct dg_shape *b);
/** Element type and shape equal (signedness is ignored: TOSA integers are signless). */
bool dg_tensor_type_equal(const struct dg_tensor_type *a, const struct dg_tensor_type *b);
/** Writes "[1,8,8,4]" into buf. */
const char *dg_shape_str(const struct dg_shape *shape, char *buf, size_t size);

enum dg_tensor_kind {
   DG_TENSOR_INPUT,          /* OpGraphInputARM: a bound tensor resource */
   DG_TENSOR_GRAPH_CONSTANT, /* OpGraphConstantARM: data from pConstants */
   DG_TENSOR_CONSTANT,       /* OpConstantComposite/Null/...Replicate: decoded to bytes */
   DG_TENSOR_NODE,           /* the result (or one result) of a node */
};

struct dg_tensor {
   enum dg_tensor_kind kind;
   struct dg_tensor_type ty;
   uint32_t id; /* SPIR-V result id of the value (an OpCompositeExtract's for extracted results) */
   union {
      struct {
         uint32_t input; /* index in dg_graph::inputs */
      } input;
      struct {
         uint32_t constant_id; /* GraphConstantID */
         /* The application's data and its layout. Valid only during
          * vkCreateDataGraphPipelinesARM: stage building copies it. */
         const void *data;
         const VkTensorDescriptionARM *desc;
      } graph_constant;
      struct {
         const uint8_t *data; /* packed, dg_type_size() bytes per element, little-endian */
         uint64_t size;       /* bytes */
      } constant;
      struct {
         uint32_t node;
         uint32_t result; /* which result of a multi-result node (OpCompositeExtract index) */
      } node;
   };
};

/* ---- node attributes, decoded from constant operands ---------------------------------- */

/** An operator's attributes: the 32-bit words of struct dg_attrs_<op>
 *  (dg_op_abi.h, generated from the declarations in graph/ops/tosa_ops.def),
 *  which its kernels also take as specialization constants. */
union dg_node_attrs {
   uint32_t word[DG_MAX_ATTR_WORDS];
   DG_NODE_ATTRS_MEMBERS
};

/** What no attribute word holds: RESCALE's per-channel scales. */
struct dg_node_scales {
   uint32_t channels;         /* NC: last dimension when per_channel, else 1 */
   const int32_t *multiplier; /* int32_t[channels] (i16 values when !scale32) */
   const int8_t *shift;       /* int8_t[channels], each in 2..62 */
};

/** One TOSA operator instance (one OpExtInst). Inputs are the tensor inputs in
 *  TOSA order (ADD: input1, input2; CONV2D: input, weight, bias; CONCAT: every
 *  listed tensor); compile-time-constant inputs (zero points, shifts,
 *  multipliers, shapes) are decoded into attrs instead. */
struct dg_node {
   uint32_t op;        /* enum dg_op (ops/dg_op.h) */
   uint32_t row;       /* the type-support row it matched (dg_op_row()) */
   uint32_t tosa_inst; /* enum tosa_inst */
   const char *name;   /* "CONV2D" */
   uint32_t result_id;
   uint32_t offset;                     /* word offset of the OpExtInst */
   uint32_t first_input, input_count;   /* in dg_graph::node_tensors */
   uint32_t first_output, output_count; /* in dg_graph::node_tensors */
   union dg_node_attrs attrs;
   struct dg_node_scales scales;
};

/** A graph input (OpGraphInputARM) or output (OpGraphSetOutputARM). */
struct dg_graph_io {
   uint32_t tensor;
   uint32_t index;   /* InputIndex / OutputIndex */
   uint32_t element; /* ElementIndex, 0 when absent; also the descriptor array element */
   bool has_element;
   uint32_t set, binding;              /* decorations of the interface variable */
   uint32_t offset;                    /* word offset of the instruction */
   const VkTensorDescriptionARM *desc; /* the application's; valid during creation only */
};

/** A decoded graph. Created by dg_graph_decode(), freed by dg_graph_destroy(). */
struct dg_graph {
   const VkAllocationCallbacks *alloc;
   uint32_t graph_id;         /* OpGraphARM result id */
   struct dg_tensor *tensors; /* struct dg_tensor[tensor_count] */
   uint32_t tensor_count, tensor_capacity;
   struct dg_node *nodes; /* struct dg_node[node_count], in module order */
   uint32_t node_count, node_capacity;
   uint32_t *node_tensors; /* tensor indices of node inputs and outputs */
   uint32_t node_tensor_count, node_tensor_capacity;
   struct dg_graph_io *inputs; /* in instruction order */
   uint32_t input_count, input_capacity;
   struct dg_graph_io *outputs; /* in instruction order */
   uint32_t output_count, output_capacity;
   void **blobs; /* decoded constant data, freed with the graph */
   uint32_t blob_count, blob_capacity;
   bool uses_specialization; /* some OpSpecConstant* took part */
};

static inline const struct dg_tensor *
dg_node_input(const struct dg_graph *g, const struct dg_node *n, uint32_t i)
{
   return &g->tensors[g->node_tensors[n->first_input + i]];
}

static inline const struct dg_tensor *
dg_node_output(const struct dg_graph *g, const struct dg_node *n, uint32_t i)
{
   return &g->tensors[g->node_tensors[n->first_output + i]];
}

#endif /* DG_IR_H */
