/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Internals shared by the decoder's files: the decoder state, diagnostics,
 * the value table, types and constants (dg_types.c, dg_constants.c), the
 * pipeline-side checks (dg_interface.c) and the IR growth helpers (dg_ir.c).
 * Operator decoders (ops/) reach these through ops/dg_op.h.
 */
#ifndef DG_DECODE_PRIVATE_H
#define DG_DECODE_PRIVATE_H

#include <inttypes.h>
#include <string.h>

#include "dg_decode.h"
#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"

/* Core opcodes and enumerants the decoder reads (SPIR-V 1.6 unified1). */
enum {
   DG_SPV_NOP = 0,
   DG_SPV_EXT_INST_IMPORT = 11,
   DG_SPV_EXT_INST = 12,
   DG_SPV_CAPABILITY = 17,
   DG_SPV_TYPE_BOOL = 20,
   DG_SPV_TYPE_INT = 21,
   DG_SPV_TYPE_FLOAT = 22,
   DG_SPV_TYPE_ARRAY = 28,
   DG_SPV_TYPE_RUNTIME_ARRAY = 29,
   DG_SPV_TYPE_STRUCT = 30,
   DG_SPV_TYPE_POINTER = 32,
   DG_SPV_CONSTANT_TRUE = 41,
   DG_SPV_CONSTANT_FALSE = 42,
   DG_SPV_CONSTANT = 43,
   DG_SPV_CONSTANT_COMPOSITE = 44,
   DG_SPV_CONSTANT_NULL = 46,
   DG_SPV_SPEC_CONSTANT_TRUE = 48,
   DG_SPV_SPEC_CONSTANT_FALSE = 49,
   DG_SPV_SPEC_CONSTANT = 50,
   DG_SPV_SPEC_CONSTANT_COMPOSITE = 51,
   DG_SPV_SPEC_CONSTANT_OP = 52,
   DG_SPV_VARIABLE = 59,
   DG_SPV_DECORATE = 71,
   DG_SPV_COMPOSITE_EXTRACT = 81,
   DG_SPV_DECORATION_SPEC_ID = 1,
   DG_SPV_DECORATION_BINDING = 33,
   DG_SPV_DECORATION_DESCRIPTOR_SET = 34,
   DG_SPV_STORAGE_UNIFORM_CONSTANT = 0,
};

/** values[id] when the id has no value in this graph (yet). */
#define DG_NO_VALUE UINT32_MAX
/** values[id] bit for a multi-result node: the low bits are the node index. */
#define DG_STRUCT_VALUE 0x80000000u

/** A scalar constant (or the type of one). */
struct dg_scalar {
   uint32_t opcode;     /* DG_SPV_TYPE_BOOL, DG_SPV_TYPE_INT or DG_SPV_TYPE_FLOAT */
   uint32_t width;      /* bits */
   uint32_t signedness; /* OpTypeInt */
   uint32_t encoding;   /* OpTypeFloat FPEncoding, or UINT32_MAX when absent */
   uint32_t type_id;
   uint64_t bits; /* the value, zero-extended from width */
};

/** One interface variable of the entry point (graph input or output). */
struct dg_interface_var {
   uint32_t var_id;
   uint32_t set, binding;
   bool is_array;
   uint32_t length;                    /* OpTypeArray length; 1 when not an array */
   struct dg_tensor_type ty;           /* the tensor (element) type */
   const VkTensorDescriptionARM *desc; /* from the matching resource info */
};

struct dg_decoration {
   uint32_t target, decoration, value;
};

struct dg_ext_set {
   uint32_t id;
   enum spirv_ext_inst_set set;
   const char *name;
};

struct dg_decoder {
   const struct dg_decode_info *info;
   const VkAllocationCallbacks *alloc;
   struct dg_diag *diag;
   struct spirv_reader r;
   struct dg_graph *g;
   uint32_t features; /* enum dg_tosa_feature */
   uint64_t max_constant_bytes;
   uint32_t *values; /* uint32_t[bound]: tensor index, DG_STRUCT_VALUE|node, DG_NO_VALUE */
   struct dg_decoration *decorations; /* DescriptorSet, Binding and SpecId only */
   uint32_t decoration_count;
   struct dg_ext_set *sets;
   uint32_t set_count;
   struct dg_interface_var *vars; /* inputs first, then outputs */
   uint32_t num_inputs, num_outputs;
   uint32_t graph_index; /* index in r.insts of the OpGraphARM */
   uint32_t depth;       /* recursion guard of constant evaluation */
   uint32_t inferred_shapes; /* node results whose unshaped types got an inferred shape */
   uint32_t spec_op_depth;   /* nesting of OpSpecConstantOp evaluation (dg_spec_op.c) */
};

/* ---- diagnostics (dg_decode.c) ---------------------------------------------------------- */

/**
 * Records a failure at `inst` (NULL: the module) and returns its VkResult.
 * The message is prefixed with the instruction ("TOSA CONV2D %12 at word 345: ").
 */
VkResult dg_fail(struct dg_decoder *d, const struct spirv_inst *inst, enum dg_error code,
                 const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/** Records an out-of-memory failure. */
VkResult dg_oom(struct dg_decoder *d);

/** Maps a reader failure (already in *sd) to a DG_ERR_SPIRV diagnostic. */
VkResult dg_fail_spirv(struct dg_decoder *d, VkResult result, const struct spirv_diag *sd);

/** Word `index` of inst, failing with DG_ERR_SPIRV when it is missing. */
VkResult dg_word(struct dg_decoder *d, const struct spirv_inst *inst, uint32_t index,
                 uint32_t *value);
/** The instruction defining the <id> in word `index` of inst. */
VkResult dg_word_def(struct dg_decoder *d, const struct spirv_inst *inst, uint32_t index,
                     const struct spirv_inst **def);
/** The instruction defining `id`, failing with DG_ERR_SPIRV when undefined. */
VkResult dg_def(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                const struct spirv_inst **def);
/** The decoration of `target`, or false when it has none. */
bool dg_decoration(const struct dg_decoder *d, uint32_t target, uint32_t decoration,
                   uint32_t *value);

/** Checks the module's structure before decoding: SPIR-V logical layout, capabilities of
 *  the types used, ids defined before use, the memory model, storage classes, type
 *  declarations, graph nesting (dg_structure.c). */
VkResult dg_check_structure(struct dg_decoder *d);

/** Decodes the graph body, from OpGraphARM to OpGraphEndARM (dg_body.c). */
VkResult dg_decode_body(struct dg_decoder *d);

/* ---- types (dg_types.c) ----------------------------------------------------------------- */

/** Decodes a scalar type (OpTypeBool, OpTypeInt, OpTypeFloat) into s (bits = 0). */
VkResult dg_scalar_type(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
                        struct dg_scalar *s);
/** The TOSA element type of a scalar type, DG_TYPE_INVALID when there is none. */
enum dg_type dg_scalar_elem_type(const struct dg_scalar *s);
/** Decodes a shaped OpTypeTensorARM, checking element type, rank, shape and level. */
VkResult dg_tensor_type(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
                        struct dg_tensor_type *ty);
/** Decodes any OpTypeTensorARM as declared: unranked (shape.rank 0) and unshaped (every
 *  dimension 0) too, for values whose shape comes from elsewhere (drop-in, D23: interface
 *  tensors from pResourceInfos, graph constants from pConstants, node results inferred). */
VkResult dg_tensor_type_decl(struct dg_decoder *d, const struct spirv_inst *user,
                             uint32_t type_id, struct dg_tensor_type *ty);
/** True when ty (shaped) has the declared type decl: element type equal, rank and each known
 *  dimension equal. */
bool dg_tensor_type_fits(const struct dg_tensor_type *decl, const struct dg_tensor_type *ty);
/** True if type_id is an OpTypeTensorARM (shaped or not). */
bool dg_is_tensor_type(struct dg_decoder *d, uint32_t type_id);
/** Decodes a graph interface type as declared (dg_tensor_type_decl()): a tensor or an
 *  OpTypeArray of tensors. */
VkResult dg_interface_type(struct dg_decoder *d, const struct spirv_inst *user, uint32_t type_id,
                           struct dg_tensor_type *ty, bool *is_array, uint32_t *length);
/** Checks the TOSA level-8K size limit on a tensor type. */
VkResult dg_check_tensor_size(struct dg_decoder *d, const struct spirv_inst *user,
                              const struct dg_tensor_type *ty);

/* ---- constants (dg_constants.c) --------------------------------------------------------- */

/** Evaluates a scalar OpSpecConstantOp (def) into s, whose type is already decoded
 *  (dg_spec_op.c). */
VkResult dg_eval_spec_op(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                         const struct spirv_inst *def, struct dg_scalar *s);
/** True for the opcodes of constant instructions (OpGraphConstantARM included). */
bool dg_is_constant_opcode(uint32_t opcode);
/** Evaluates a scalar constant (spec constants specialized). */
VkResult dg_eval_scalar(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                        struct dg_scalar *s);
/** Evaluates an unsigned integer scalar constant that must fit in 32 bits. */
VkResult dg_eval_u32(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                     uint32_t *value);
/**
 * Evaluates a constant of tensor type `ty` (OpConstantComposite, OpConstantNull,
 * the replicate forms, their Spec forms, OpGraphConstantARM) into packed
 * bytes: out holds dg_shape_elements() * dg_type_size() bytes.
 */
VkResult dg_eval_tensor(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                        const struct dg_tensor_type *ty, uint8_t *out);
/** Sign-extends the element at `index` of packed tensor data. */
int64_t dg_elem_int(enum dg_type type, const uint8_t *data, uint64_t index);
/** The element's bits, zero-extended. */
uint64_t dg_elem_bits(enum dg_type type, const uint8_t *data, uint64_t index);
/** Converts floating-point bits of a type to double (exact for these types). */
double dg_float_from_bits(enum dg_type type, uint64_t bits);

/* ---- pipeline-side checks (dg_interface.c) ---------------------------------------------- */

/** Finds the resource info of an interface variable and checks its description. */
VkResult dg_match_resource(struct dg_decoder *d, const struct spirv_inst *var_inst,
                           struct dg_interface_var *var);
/**
 * Finds the one VkDataGraphPipelineConstantARM for an OpGraphConstantARM of
 * type ty and checks its description against ty; an unshaped ty takes the
 * description's shape (with a warning).
 */
VkResult dg_match_graph_constant(struct dg_decoder *d, const struct spirv_inst *gc,
                                 struct dg_tensor_type *ty,
                                 const VkDataGraphPipelineConstantARM **constant,
                                 const VkTensorDescriptionARM **desc);
/** Reads graph constant data laid out by desc into packed bytes. */
void dg_read_graph_constant(const struct dg_tensor_type *ty, const VkTensorDescriptionARM *desc,
                            const void *data, uint8_t *out);
/** The VkTensorDescriptionARM in a pNext chain, or NULL. */
const VkTensorDescriptionARM *dg_find_description(const void *pnext);

/* ---- values and IR growth (dg_ir.c, dg_values.c) ----------------------------------------- */

/** Appends a tensor; *index receives its index. */
VkResult dg_add_tensor(struct dg_decoder *d, const struct dg_tensor *t, uint32_t *index);
/** Appends a zeroed node; *index receives its index. */
VkResult dg_add_node(struct dg_decoder *d, uint32_t *index);
/** Appends a tensor index to node_tensors. */
VkResult dg_add_node_tensor(struct dg_decoder *d, uint32_t tensor);
/** Allocates a blob owned by the graph (zeroed). */
VkResult dg_add_blob(struct dg_decoder *d, uint64_t size, void **blob);
VkResult dg_add_io(struct dg_decoder *d, bool output, const struct dg_graph_io *io);
/**
 * The tensor value of an id used as an operand of `user`: a graph input, a
 * node result, or a constant (made into a tensor on first use).
 */
VkResult dg_value_tensor(struct dg_decoder *d, const struct spirv_inst *user, uint32_t id,
                         uint32_t *tensor);

#endif /* DG_DECODE_PRIVATE_H */
