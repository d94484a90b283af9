/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the lowering passes share: the lowering state (the input module's
 * reader, the output's builder, per-id facts found by the analysis), the
 * decoded form of a tensor instruction, emission helpers, and the pass list.
 *
 * Passes, run in this order by tsr_lower.c, each `bool tsr_lower_<what>(struct
 * tsr_lower *l)` returning whether it changed anything; a failure is recorded
 * in l->result with a message and stops the pipeline:
 *   lower_analyze.c          validate and collect (no output changes)
 *   lower_tensor_types.c     tensor types/variables -> record SSBOs, loads, parameters
 *   lower_tensor_access.c    reads, writes, size queries -> PhysicalStorageBuffer code
 *   lower_small_floats.c     bfloat16/float8 -> 16/8-bit integers and conversion code
 *   lower_capabilities.c     capabilities, extensions, addressing model, feature checks
 *   lower_glsl_compat.c      only with tsr_lower_options::for_glsl: what SPIRV-Cross needs
 * The analysis validates every tensor instruction against the input (with
 * word offsets for messages), so the rewriting passes only fail when out of
 * memory.
 */
#ifndef TSR_LOWER_PRIVATE_H
#define TSR_LOWER_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include <spirv/unified1/spirv.h>

#include "kernel_abi/tensor_record.h"
#include "spirv/spirv.h"
#include "spirv/spirv_arm_ml.h"
#include "spirv/spirv_builder.h"
#include "tsr_lower.h"

/** Largest array form of a read or write (maxTensorShaderAccessArrayLength). */
#define TSR_LOWER_MAX_ACCESS_ELEMENTS 16u
/** SaturatedToLargestFloat8NormalConversionEXT (SPV_EXT_float8). */
#define TSR_DECORATION_SATURATED_FLOAT8 4216u

/* Per-id facts (struct tsr_lower::flags). */
enum tsr_id_flag {
   TSR_ID_TENSOR_TYPE = 1u << 0,      /* OpTypeTensorARM */
   TSR_ID_TENSOR_PTR = 1u << 1,       /* OpTypePointer UniformConstant <tensor> */
   TSR_ID_TENSOR_ARRAY = 1u << 2,     /* OpType(Runtime)Array <tensor> */
   TSR_ID_TENSOR_ARRAY_PTR = 1u << 3, /* OpTypePointer UniformConstant <tensor array> */
   TSR_ID_TENSOR_VAR = 1u << 4,       /* OpVariable of one of the two pointer types */
   TSR_ID_TENSOR_PARAM = 1u << 5,     /* a pointer-to-tensor parameter (or a copy of one) */
   TSR_ID_NON_UNIFORM = 1u << 6,      /* decorated NonUniform */
   TSR_ID_SATURATE = 1u << 7,         /* decorated SaturatedToLargestFloat8NormalConversionEXT */
   TSR_ID_SMALL_FLOAT = 1u << 8,      /* OpTypeFloat with a bfloat16/float8 encoding */
   TSR_ID_CONVERTED = 1u << 9,        /* result of a conversion replaced by integer code */
   TSR_ID_OWN_PHI = 1u << 10,         /* an OpPhi made by the lowering with an input id */
   TSR_ID_SPEC_COORDS = 1u << 11,     /* OpTypeArray of coordinates with a spec-constant length */
};

/** How a tensor element is stored and what kind of value it is. */
enum tsr_elem_kind {
   TSR_ELEM_BOOL,  /* one byte, 0 or 1 */
   TSR_ELEM_INT,   /* OpTypeInt 8/16/32/64 */
   TSR_ELEM_FLOAT, /* OpTypeFloat 16/32/64 (IEEE) */
   TSR_ELEM_BF16,  /* OpTypeFloat 16 BFloat16KHR */
   TSR_ELEM_E4M3,  /* OpTypeFloat 8 Float8E4M3EXT */
   TSR_ELEM_E5M2,  /* OpTypeFloat 8 Float8E5M2EXT */
};

/** One OpTypeTensorARM of the input. */
struct tsr_tensor_type {
   uint32_t id;        /* redefined as the record struct by lower_tensor_types.c */
   uint32_t elem_type; /* element type id */
   enum tsr_elem_kind kind;
   uint32_t elem_size; /* bytes in memory */
   uint32_t rank;      /* 1..VMEL_TENSOR_MAX_RANK, or 0 when rank_id is a spec constant */
   uint32_t rank_id;
   /* Made by lower_tensor_types.c: */
   uint32_t block;      /* Block struct { record } */
   uint32_t ptr_record; /* StorageBuffer pointer to the record */
};

/** A decoded OpTensorReadARM / OpTensorWriteARM / OpTensorQuerySizeARM. */
struct tsr_access {
   uint32_t opcode;
   uint32_t result_type, result; /* read, query */
   uint32_t tensor;              /* the tensor value (a record after lowering) */
   const struct tsr_tensor_type *tt;
   uint32_t coords;       /* read, write: the coordinate array */
   uint32_t coord_type;   /* its OpTypeArray */
   uint32_t coord_elem;   /* its element type (OpTypeInt) */
   uint32_t coord_width;  /* bits of a coordinate */
   uint32_t coord_len_id; /* the array's length id */
   uint32_t object;       /* write */
   uint32_t value_type;   /* read: the result type, write: the object's type */
   uint32_t count;        /* elements accessed: 1 for a scalar, N for the array form */
   bool is_array;
   uint32_t mask;      /* TensorOperands */
   uint32_t oob_value; /* OutOfBoundsValueARM id, or 0 */
   bool oob_is_array;
   uint32_t scope_available, scope_visible;
   uint32_t dim;    /* query: constant dimension, or UINT32_MAX */
   uint32_t dim_id; /* query: the Dimension id */
};

/** The block being emitted by a function-section walker that splits blocks. */
struct tsr_block {
   uint32_t label;          /* the input block's label, 0 outside blocks */
   uint32_t cur_label;      /* the label of the part being emitted now */
   uint32_t loop_merge;     /* index in the reader of the block's OpLoopMerge, or UINT32_MAX */
   bool header_pending;     /* the loop header's OpLoopMerge still has to be emitted */
   uint32_t continue_label; /* new continue target of a split one-block loop, or 0 */
   uint32_t open_merge;     /* merge label of the open `if` */
};

struct tsr_lower {
   const struct tsr_lower_options *opts;
   const VkAllocationCallbacks *alloc;
   struct spirv_reader r;  /* the input */
   struct spirv_builder b; /* the output */
   uint32_t bound;         /* the input's id bound: ids below it are the input's */
   VkResult result;
   char *err;
   size_t err_len;

   uint16_t *flags;     /* uint16_t[bound]: enum tsr_id_flag */
   uint32_t *tensor_of; /* uint32_t[bound]: index in tensors of a tensor-related id */
   struct tsr_tensor_type *tensors;
   uint32_t tensor_count;

   uint32_t addressing_model, memory_model;
   bool arm_dynamic_indexing; /* StorageTensorArrayDynamicIndexingARM declared */
   bool arm_non_uniform;      /* StorageTensorArrayNonUniformIndexingARM declared */
   bool runtime_tensor_array; /* an OpTypeRuntimeArray of tensors exists */
   bool has_tensor_vars;
   bool has_small_floats;
   bool needs_storage8, needs_storage16;

   /* Access-pass state. */
   uint32_t *splits;     /* uint32_t[bound]: per label, guarded accesses in that block */
   uint32_t *loop_merge; /* uint32_t[bound]: per label, reader index of its OpLoopMerge */
   uint32_t *label_tail; /* uint32_t[bound]: per split label, the label of its last part */
   struct tsr_block blk;
   bool entry_block;      /* walking the function's first block before its first non-variable */
   size_t var_offset;     /* where Function variables go in the FUNCTION section */
   uint32_t carry_struct; /* struct { uint, uint } for OpIAddCarry */

   /* for_glsl: PhysicalStorageBuffer pointers to Coherent blocks { element }, per
    * storage type (lower_tensor_access.c). */
   struct {
      uint32_t storage, pointer;
   } coherent[16];
   uint32_t coherent_count;
};

/* ---- tsr_lower.c: diagnostics and input lookups ---------------------------- */

/** Records the first failure: "word <offset>: <message>". Returns false. */
bool tsr_lower_fail(struct tsr_lower *l, VkResult result, uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** The input instruction defining id, or NULL. */
const struct spirv_inst *tsr_lower_def(const struct tsr_lower *l, uint32_t id);
/** The words of the input instruction defining id, or NULL. */
const uint32_t *tsr_lower_def_words(const struct tsr_lower *l, uint32_t id);
/** The result type of the input instruction defining id, or 0. */
uint32_t tsr_lower_type_of(const struct tsr_lower *l, uint32_t id);
/** Whether id is an OpConstant of an integer type (value read as unsigned). */
bool tsr_lower_const_uint(const struct tsr_lower *l, uint32_t id, uint64_t *value);
/** The opcode of the input instruction defining id, or 0 (OpNop). */
uint32_t tsr_lower_def_opcode(const struct tsr_lower *l, uint32_t id);
/** For a type id: its element kind and size (scalar types only); false otherwise. */
bool tsr_lower_scalar_kind(const struct tsr_lower *l, uint32_t type, enum tsr_elem_kind *kind,
                           uint32_t *bits);
/** OpName of the opcode ("OpTensorReadARM"), for messages. */
const char *tsr_lower_op_name(uint32_t opcode);

static inline bool
tsr_lower_has(const struct tsr_lower *l, uint32_t id, uint16_t flag)
{
   return id < l->bound && (l->flags[id] & flag);
}

/* ---- lower_decode.c -------------------------------------------------------- */

/**
 * Decodes and checks a tensor instruction of the input.
 * @param offset word offset of inst in the input, for messages
 * @return false after recording a failure
 */
bool tsr_lower_decode_access(struct tsr_lower *l, const uint32_t *inst, uint32_t offset,
                             struct tsr_access *a);

/* ---- emission helpers (FUNCTION section) ----------------------------------- */

static inline uint32_t
tsr_op(struct tsr_lower *l, uint32_t opcode, uint32_t type, const uint32_t *ops, uint32_t n)
{
   return spirv_build_op_tr(&l->b, SPIRV_SECTION_FUNCTION, opcode, type, 0, ops, n);
}

static inline uint32_t
tsr_op_id(struct tsr_lower *l, uint32_t opcode, uint32_t type, uint32_t result, const uint32_t *ops,
          uint32_t n)
{
   return spirv_build_op_tr(&l->b, SPIRV_SECTION_FUNCTION, opcode, type, result, ops, n);
}

static inline uint32_t
tsr_op1(struct tsr_lower *l, uint32_t opcode, uint32_t type, uint32_t a)
{
   return tsr_op(l, opcode, type, &a, 1);
}

static inline uint32_t
tsr_op2(struct tsr_lower *l, uint32_t opcode, uint32_t type, uint32_t a, uint32_t c)
{
   uint32_t ops[2] = {a, c};
   return tsr_op(l, opcode, type, ops, 2);
}

static inline uint32_t
tsr_op3(struct tsr_lower *l, uint32_t opcode, uint32_t type, uint32_t a, uint32_t c, uint32_t d)
{
   uint32_t ops[3] = {a, c, d};
   return tsr_op(l, opcode, type, ops, 3);
}

/** OpExtInst GLSL.std.450 `inst` with operands. */
uint32_t tsr_glsl(struct tsr_lower *l, uint32_t inst, uint32_t type, const uint32_t *ops,
                  uint32_t n);

/* ---- lower_blocks.c: splitting blocks around guarded accesses ------------- */

/** Counts split points per block and finds loop headers (before the access walk). */
bool tsr_lower_blocks_prepare(struct tsr_lower *l);
/** Walker hooks: returns true when the instruction was consumed (dropped). */
bool tsr_lower_blocks_instruction(struct tsr_lower *l, const uint32_t *inst);
/** Starts `if (cond)`: emits the selection and the then-label. *pred receives the label
 *  of the part before it, *then_label the then-label. */
void tsr_lower_blocks_begin_if(struct tsr_lower *l, uint32_t cond, uint32_t *pred,
                               uint32_t *then_label);
/** Ends the `if`: emits the branch to the merge block and its label. */
void tsr_lower_blocks_end_if(struct tsr_lower *l);
/** Adds a Function-storage variable of pointer type ptr_type to the current function. */
uint32_t tsr_lower_blocks_add_variable(struct tsr_lower *l, uint32_t ptr_type);
/** Renames OpPhi parents that were split (after the access walk). */
bool tsr_lower_blocks_fix_phis(struct tsr_lower *l);

/* ---- lower_tensor_address.c ------------------------------------------------ */

/** The coordinates of an access, reduced to what the element loop needs. */
struct tsr_address {
   uint32_t in_bounds;    /* bool: every coordinate below its dimension */
   uint32_t offset;       /* uint: byte offset of the first element */
   uint32_t inner_room;   /* uint: dims[inner] - coords[inner] (array form only) */
   uint32_t inner_stride; /* uint: stride of the innermost dimension (array form only) */
   uint32_t base_lo, base_hi;
};

/** Emits the bounds check and offset of an access (before any split). */
void tsr_lower_address(struct tsr_lower *l, const struct tsr_access *a, struct tsr_address *ad);
/** Emits the PhysicalStorageBuffer pointer to element k, of type ptr_type. */
uint32_t tsr_lower_element_pointer(struct tsr_lower *l, const struct tsr_address *ad, uint32_t k,
                                   uint32_t ptr_type);
/** Emits dims[dim] of a record (dim a constant, or dim_id a run-time value). */
uint32_t tsr_lower_record_dim(struct tsr_lower *l, uint32_t record, uint32_t dim, uint32_t dim_id);

/* ---- lower_float_convert.c ------------------------------------------------- */

/** Emits the conversion `result = opcode result_type value` when bfloat16 or float8 is
 *  involved; the last instruction gets `result`. */
void tsr_lower_convert(struct tsr_lower *l, uint32_t opcode, uint32_t result_type, uint32_t result,
                       uint32_t value, bool saturate);

/* ---- the passes ------------------------------------------------------------ */

/** lower_structure.c: the function-body structure lower_blocks.c relies on. */
bool tsr_lower_structure(struct tsr_lower *l);
bool tsr_lower_analyze(struct tsr_lower *l);
bool tsr_lower_tensor_types(struct tsr_lower *l);
bool tsr_lower_tensor_access(struct tsr_lower *l);
bool tsr_lower_small_floats(struct tsr_lower *l);
bool tsr_lower_capabilities(struct tsr_lower *l);
bool tsr_lower_glsl_compat(struct tsr_lower *l);

#endif /* TSR_LOWER_PRIVATE_H */
