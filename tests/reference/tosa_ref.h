/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The CPU reference implementation of the TOSA 1.0.1 operators of the first vertical slice
 * (ADD, SUB, MUL, CLAMP, RESHAPE, CONCAT, MAX_POOL2D, CONV2D, MATMUL, RESCALE), written from the
 * pseudocode of the TOSA specification v1.0.1 (pseudocode/operators/<OP>.tosac and
 * the helpers in pseudocode/library/), independent of the GPU kernels. The conformance runner and
 * vmel-run check the kernels against it; it is meant to be obviously right, not fast.
 *
 * What this header owns:
 *  - struct ref_tensor: element type, rank 0..6, shape, packed data (last dimension fastest,
 *    as TOSA's tensor_index_to_offset()), with accessors and fp16/bf16/fp8 <-> fp32 conversions;
 *  - one function per operator, taking the TOSA inputs in TOSA order (compile-time-constant
 *    inputs such as zero points, MUL shift and RESCALE multiplier/shift are tensors, as in TOSA),
 *    the attributes in an args struct, and an output tensor whose dtype and shape the caller
 *    sets (as a TOSA graph does); every ERROR_IF, REQUIRE, LEVEL_CHECK (level 8K) and
 *    type-support row of TOSA.001000.1 (spec-facts §3.3) is checked;
 *  - the precision each operator's GPU result must meet (TOSA 1.0.1 "Compliance" and the
 *    operators' "Precision Requirements"), as tosa_ref_tolerance(), with the check functions.
 *
 * Numerics.
 *  - Integer results are bit-exact with the pseudocode. i48 values live in int64_t.
 *  - Floating-point operators compute in fp64 in the order the pseudocode gives, which is the
 *    "reference_fp64" / "calculated using fp64_t arithmetic" value the compliance chapter checks
 *    against, and round once (to nearest, ties to even) to the output type. Where the row's
 *    output is floating point the caller may give an output of REF_DTYPE_FP64 instead, to get
 *    that unrounded value for the compliance checks. A rounded float result is *not* what an
 *    fp16 accumulator computes: compare floats with tosa_ref_tolerance(), never bit for bit
 *    (except where the tolerance says TOSA_REF_TOL_EXACT).
 *  - Subnormals are never flushed here; the checks allow an implementation to flush.
 *
 * Status. Every operator returns an enum tosa_ref_status value:
 *  - TOSA_REF_OK: the graph is valid and the output holds the result;
 *  - TOSA_REF_UNPREDICTABLE: a REQUIRE or LEVEL_CHECK failed; TOSA allows any result (or an
 *    error), so nothing may be checked. The output holds a defined but meaningless value
 *    (integer arithmetic wraps; where even that is undefined, e.g. a shift out of range, zero);
 *  - TOSA_REF_ERROR: an ERROR_IF holds: the graph is illegal and must be rejected. The reference
 *    stops at the first ERROR_IF, which TOSA 1.0.1 allows ("An acceptable implementation is to
 *    stop and report an error on the first ERROR_IF condition"); the output is untouched;
 *  - TOSA_REF_UNSUPPORTED: the type combination or an enumerated attribute value matches no row
 *    of the operator's type-support table: the graph is illegal too;
 *  - TOSA_REF_BAD_ARGUMENT, TOSA_REF_NO_MEMORY: misuse of this API, or allocation failure.
 * tosa_ref_last_message() says why the last call on this thread did not return TOSA_REF_OK.
 */
#ifndef TOSA_REF_H
#define TOSA_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Status
 */

enum tosa_ref_status {
   TOSA_REF_OK = 0,
   TOSA_REF_UNPREDICTABLE = 1,
   TOSA_REF_ERROR = -1,
   TOSA_REF_UNSUPPORTED = -2,
   TOSA_REF_BAD_ARGUMENT = -3,
   TOSA_REF_NO_MEMORY = -4,
};

/** "OK", "UNPREDICTABLE", "ERROR", ... */
const char *tosa_ref_status_name(int status);

/** Why the last call on this thread returned something other than TOSA_REF_OK ("" if none). */
const char *tosa_ref_last_message(void);

/* ---------------------------------------------------------------------------------------------
 * Element types and tensors
 */

/*
 * Storage per element (packed, native byte order):
 *   BOOL     uint8_t, 0 or 1 (any non-zero value reads as true)
 *   I8/I16/I32 int8_t/int16_t/int32_t: signless, read as signed unless an operator (RESCALE)
 *            says unsigned
 *   I48      int64_t holding the value sign-extended from bit 47 (reads ignore bits 48..63)
 *   FP16, BF16  uint16_t bit patterns (IEEE binary16; bits [31:16] of binary32)
 *   FP32     float (IEEE binary32)
 *   FP8E4M3, FP8E5M2  uint8_t bit patterns (OCP OFP8)
 *   FP64     double: reference-only, for unrounded fp64 results; in no TOSA type-support row
 */
enum ref_dtype {
   REF_DTYPE_BOOL,
   REF_DTYPE_I8,
   REF_DTYPE_I16,
   REF_DTYPE_I32,
   REF_DTYPE_I48,
   REF_DTYPE_FP16,
   REF_DTYPE_BF16,
   REF_DTYPE_FP32,
   REF_DTYPE_FP8E4M3,
   REF_DTYPE_FP8E5M2,
   REF_DTYPE_FP64,
   REF_DTYPE_COUNT
};

#define REF_MAX_RANK 6

struct ref_tensor {
   enum ref_dtype dtype;
   uint32_t rank;               /* 0..REF_MAX_RANK */
   int64_t shape[REF_MAX_RANK]; /* each >= 1; entries at and after rank are 1 */
   int64_t count;               /* number of elements: product of shape (1 for rank 0) */
   void *data;                  /* count * ref_dtype_size(dtype) bytes */
};

/** Bytes per element (1 for BOOL, 8 for I48). */
size_t ref_dtype_size(enum ref_dtype dtype);

/** "bool", "i8", "i16", "i32", "i48", "fp16", "bf16", "fp32", "fp8e4m3", "fp8e5m2", "fp64". */
const char *ref_dtype_name(enum ref_dtype dtype);

/** True for FP16, BF16, FP32, FP8E4M3, FP8E5M2 and FP64. */
bool ref_dtype_is_float(enum ref_dtype dtype);

/** Width in bits of an integer type (BOOL 1, I8 8, ..., I48 48); 0 for float types. */
unsigned ref_dtype_int_bits(enum ref_dtype dtype);

/**
 * A zero-filled tensor.
 * @param shape  rank entries, each >= 1 (TOSA: "The tensor shape in each dimension must be
 *               greater than or equal to 1"); may be NULL when rank is 0.
 * @return NULL on a bad argument or when out of memory.
 */
struct ref_tensor *ref_tensor_create(enum ref_dtype dtype, uint32_t rank, const int64_t *shape);

/**
 * Shorthand for ref_tensor_create() with the shape as arguments (rank of them). Each must be an
 * int64_t: write INT64_C(3) or (int64_t)n, since a plain int argument is read wrongly by va_arg.
 */
struct ref_tensor *ref_tensor_create_v(enum ref_dtype dtype, uint32_t rank, ...);

void ref_tensor_destroy(struct ref_tensor *t);

/** Linear offset of an index (tensor_index_to_offset); -1 if an entry is out of range. */
int64_t ref_tensor_offset(const struct ref_tensor *t, const int64_t *index);

/** The index of a linear offset (tensor_offset_to_index); index gets t->rank entries. */
void ref_tensor_index(const struct ref_tensor *t, int64_t offset, int64_t *index);

/** Integer value of element `offset` of a BOOL or integer tensor (sign-extended). */
int64_t ref_tensor_get_int(const struct ref_tensor *t, int64_t offset);

/** Stores the low ref_dtype_int_bits() bits of v (two's-complement wrap; BOOL stores v != 0). */
void ref_tensor_set_int(struct ref_tensor *t, int64_t offset, int64_t v);

/** Exact value of element `offset` of a float tensor. */
double ref_tensor_get_fp(const struct ref_tensor *t, int64_t offset);

/**
 * Stores v rounded to nearest, ties to even, into a float tensor. Out-of-range values become
 * infinity (FP16, BF16, FP32, FP8E5M2) or NaN (FP8E4M3): TOSA 1.0.1 CAST uses the OCP OFP8
 * non-saturating mode. NaN stays NaN.
 */
void ref_tensor_set_fp(struct ref_tensor *t, int64_t offset, double v);

/** Raw bit pattern of element `offset` (any type), zero-extended. */
uint64_t ref_tensor_get_bits(const struct ref_tensor *t, int64_t offset);

void ref_tensor_set_bits(struct ref_tensor *t, int64_t offset, uint64_t bits);

/** Fills from t->count values with ref_tensor_set_int(). */
void ref_tensor_fill_int(struct ref_tensor *t, const int64_t *values);

/** Fills from t->count values with ref_tensor_set_fp(). */
void ref_tensor_fill_fp(struct ref_tensor *t, const double *values);

/* ---------------------------------------------------------------------------------------------
 * Floating-point conversions: round to nearest, ties to even; subnormals kept; NaN in gives a
 * quiet NaN of the same sign out (FP8E4M3: S.1111.111; FP8E5M2: S.11111.10).
 */

float ref_fp16_to_fp32(uint16_t bits);

/** Overflow gives infinity (IEEE 754). */
uint16_t ref_fp32_to_fp16(float value);

float ref_bf16_to_fp32(uint16_t bits);

/** Overflow gives infinity; a NaN never turns into infinity. */
uint16_t ref_fp32_to_bf16(float value);

float ref_fp8e4m3_to_fp32(uint8_t bits);

/**
 * OCP OFP8 conversion to E4M3 (no infinities; max finite 448 = S.1111.110).
 * saturate == false (the mode TOSA 1.0.1 CAST requires): |rounded value| > 448 and +-inf give
 * NaN. saturate == true: they give +-448. NaN always gives NaN.
 */
uint8_t ref_fp32_to_fp8e4m3(float value, bool saturate);

float ref_fp8e5m2_to_fp32(uint8_t bits);

/**
 * OCP OFP8 conversion to E5M2 (max finite 57344 = S.11110.11).
 * saturate == false: overflow gives +-inf, +-inf stays. saturate == true: both give +-57344.
 */
uint8_t ref_fp32_to_fp8e5m2(float value, bool saturate);

/**
 * Encodes v (any double) in a float dtype other than FP64, with one rounding.
 * @param saturate  OCP OFP8 saturating mode; only meaningful for the fp8 types.
 */
uint32_t ref_fp_encode(enum ref_dtype dtype, double v, bool saturate);

/** Exact value of a bit pattern of a float dtype other than FP64. */
double ref_fp_decode(enum ref_dtype dtype, uint32_t bits);

/** normal_min<T>, normal_max<T>, normal_frac<T> of numeric_accuracy_helpers.tosac. */
double ref_dtype_normal_min(enum ref_dtype dtype);

/** Whether TOSA lets an implementation flush subnormals of dtype to zero: bf16, fp16 and fp32
 * (the fp8 types must keep theirs). */
bool ref_dtype_may_flush(enum ref_dtype dtype);

double ref_dtype_normal_max(enum ref_dtype dtype);

int ref_dtype_normal_frac(enum ref_dtype dtype);

/* ---------------------------------------------------------------------------------------------
 * Enumerated attribute values: the numbers TOSA.001000.1 uses (0 is valid for none of them).
 */

enum tosa_ref_nan_mode {
   TOSA_REF_NAN_PROPAGATE = 1,
   TOSA_REF_NAN_IGNORE = 2,
};

enum tosa_ref_acc_type {
   TOSA_REF_ACC_INT32 = 1,
   TOSA_REF_ACC_FP16 = 2,
   TOSA_REF_ACC_FP32 = 3,
   TOSA_REF_ACC_INT48 = 4,
};

enum tosa_ref_rounding {
   TOSA_REF_ROUND_SINGLE = 1,
   TOSA_REF_ROUND_INEXACT = 2,
   TOSA_REF_ROUND_DOUBLE = 3,
};

/* Levels: every args struct with a LEVEL_CHECK has `bool level_none`. false (the default) applies
 * level 8K, the level the graph layer advertises (MAX_KERNEL = MAX_STRIDE = 8192,
 * MAX_TENSOR_LIST_SIZE = 64); true applies level "none". A failed LEVEL_CHECK is a REQUIRE:
 * TOSA_REF_UNPREDICTABLE, with the output computed anyway. MAX_RANK (6 at 8K) is enforced by
 * struct ref_tensor; MAX_LOG2_SIZE is not checked. */

/* ---------------------------------------------------------------------------------------------
 * Elementwise binary operators (ref_elementwise.c). Broadcasting as TOSA 1.0.1
 * broadcast_shape(): equal ranks, a dimension of size 1 broadcasts, and the output shape must be
 * broadcast_shape(shape1, shape2) (ERROR_IF).
 *
 * Rows (input1, input2, output): ADD/SUB: i32 i32 i32, fp16, bf16, fp32 (same type throughout);
 * MUL: i8 i8 i32, i16 i16 i32, i32 i32 i32, fp16, bf16, fp32. A float row's output may be FP64.
 */

int tosa_ref_add(const struct ref_tensor *input1, const struct ref_tensor *input2,
                 struct ref_tensor *output);

int tosa_ref_sub(const struct ref_tensor *input1, const struct ref_tensor *input2,
                 struct ref_tensor *output);

/**
 * MUL. @param shift  i8 tensor of shape [1] (a compile-time constant in TOSA).
 * REQUIRE(0 <= shift <= 63) and REQUIRE(shift == 0 unless i32). i32 with shift > 0:
 * (int64 product + (1 << (shift - 1))) >> shift, which must fit i32 (REQUIRE); otherwise the low
 * 32 bits of the product (defined: no REQUIRE).
 */
int tosa_ref_mul(const struct ref_tensor *input1, const struct ref_tensor *input2,
                 const struct ref_tensor *shift, struct ref_tensor *output);

/**
 * MAXIMUM, MINIMUM (apply_max_s / apply_min_s with nan_mode, broadcast like ADD). Rows: i32,
 * fp16, bf16, fp32 (inputs and output one type; a float row's output may be FP64).
 * PROPAGATE: NaN if either is NaN; IGNORE: the operand that is not NaN (NaN if both are).
 */
int tosa_ref_maximum(enum tosa_ref_nan_mode nan_mode, const struct ref_tensor *input1,
                     const struct ref_tensor *input2, struct ref_tensor *output);

int tosa_ref_minimum(enum tosa_ref_nan_mode nan_mode, const struct ref_tensor *input1,
                     const struct ref_tensor *input2, struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * CLAMP (ref_elementwise.c). Rows: i8, i16, fp16, bf16, fp32 (input and output the same type).
 */

struct tosa_ref_clamp_args {
   /* min_val, max_val: scalars of the element type. Integer rows use the *_int fields (which
    * must lie in the type's range), float rows the *_fp fields (which must be representable in
    * the type); otherwise TOSA_REF_BAD_ARGUMENT, since SPIR-V cannot express such a constant. */
   int64_t min_int;
   int64_t max_int;
   double min_fp;
   double max_fp;
   enum tosa_ref_nan_mode nan_mode;
};

int tosa_ref_clamp(const struct tosa_ref_clamp_args *args, const struct ref_tensor *input,
                   struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * Data layout (ref_data.c). Rows: bool, i8, i16, i32, fp8e4m3, fp8e5m2, fp16, bf16, fp32.
 * Bit patterns are copied unchanged (NaN payloads included).
 */

/** RESHAPE: the output's shape is the `shape` operand; element counts must match (ERROR_IF). */
int tosa_ref_reshape(const struct ref_tensor *input1, struct ref_tensor *output);

struct tosa_ref_concat_args {
   int32_t axis;    /* signed: TOSA 1.0.1 has ERROR_IF(axis < 0 || ...) */
   bool level_none; /* see "Levels" */
};

/** CONCAT of `count` tensors (count == 0 is an ERROR_IF). */
int tosa_ref_concat(const struct tosa_ref_concat_args *args, const struct ref_tensor *const *inputs,
                    uint32_t count, struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * Data movement (ref_move.c): SLICE, REVERSE, TILE, PAD, TRANSPOSE. Rows: bool, i8, i16, i32,
 * fp8e4m3, fp8e5m2, fp16, bf16, fp32; input and output of one type and rank (1..6). Bit
 * patterns are copied unchanged. The list operands carry their length for the ERROR_IFs on it.
 */

struct tosa_ref_slice_args {
   int32_t start[REF_MAX_RANK];
   int32_t size[REF_MAX_RANK];
   uint32_t start_length, size_length;
};

int tosa_ref_slice(const struct tosa_ref_slice_args *args, const struct ref_tensor *input1,
                   struct ref_tensor *output);
int tosa_ref_reverse(int32_t axis, const struct ref_tensor *input1, struct ref_tensor *output);

struct tosa_ref_tile_args {
   int32_t multiples[REF_MAX_RANK];
   uint32_t length;
};

int tosa_ref_tile(const struct tosa_ref_tile_args *args, const struct ref_tensor *input1,
                  struct ref_tensor *output);

struct tosa_ref_pad_args {
   int32_t padding[2 * REF_MAX_RANK]; /* before0, after0, before1, after1, ... */
   uint32_t length;
   uint64_t pad_bits;        /* pad_const's bit pattern */
   enum ref_dtype pad_dtype; /* pad_const's type: the input's */
};

int tosa_ref_pad(const struct tosa_ref_pad_args *args, const struct ref_tensor *input1,
                 struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * GATHER and SCATTER (ref_gather.c). Rows: i8, i16, i32, fp8e4m3, fp8e5m2, fp16, bf16, fp32
 * values with i32 indices; bit patterns are copied unchanged. The data-dependent REQUIREs get
 * the layer's documented results (docs/decisions.md D36): GATHER of an index outside
 * [0, K) gives zero bits, SCATTER skips such a write, and of several writes to one position
 * SCATTER keeps the one of the largest w.
 */

/** GATHER: values [N,K,C], indices [N,W] -> output [N,W,C]. */
int tosa_ref_gather(const struct ref_tensor *values, const struct ref_tensor *indices,
                    struct ref_tensor *output);
/** SCATTER: values_in [N,K,C], indices [N,W], input [N,W,C] -> values_out [N,K,C]. */
int tosa_ref_scatter(const struct ref_tensor *values_in, const struct ref_tensor *indices,
                     const struct ref_tensor *input, struct ref_tensor *values_out);

struct tosa_ref_transpose_args {
   int32_t perms[REF_MAX_RANK];
   uint32_t length;
};

int tosa_ref_transpose(const struct tosa_ref_transpose_args *args, const struct ref_tensor *input1,
                       struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * MAX_POOL2D (ref_pool.c). input [N,IH,IW,C] -> output [N,OH,OW,C], same type.
 * Rows: i8, i16, fp8e4m3, fp8e5m2, fp16, bf16, fp32.
 */

struct tosa_ref_max_pool2d_args {
   int32_t kernel[2]; /* kernel_y, kernel_x */
   int32_t stride[2]; /* stride_y, stride_x */
   int32_t pad[4];    /* pad_top, pad_bottom, pad_left, pad_right */
   enum tosa_ref_nan_mode nan_mode;
   bool level_none;
};

int tosa_ref_max_pool2d(const struct tosa_ref_max_pool2d_args *args, const struct ref_tensor *input,
                        struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * Dot-product operators: CONV2D (ref_conv.c) and MATMUL (ref_matmul.c).
 */

/* What a floating-point dot-product operator writes (integer rows accept only RESULT). */
enum tosa_ref_dot_mode {
   /* The result: fp64 arithmetic in pseudocode order, rounded once to the output type (or
    * left unrounded in an FP64 output). Padding taps are skipped (tosa_extra_multiplies false). */
   TOSA_REF_DOT_RESULT = 0,
   /* output_bnd of tosa_reference_check_dotproduct(): the same operation in fp64 on
    * max(|x|, normal_min<in_t>) for input, weight and bias, where the input is first replaced
    * by its maximum over the whole tensor unless local_bound (MATMUL: local_bound is true), and
    * the multiplies in the padding are done (tosa_extra_multiplies true). Output FP64 only. */
   TOSA_REF_DOT_BOUND = 1,
};

/*
 * CONV2D rows (input, weight, bias, input_zp, weight_zp, output, acc_type):
 *   i8 i8 i32 i8 i8 i32 INT32;  i16 i8 i48 i16 i8 i48 INT48;
 *   fp8e4m3 fp8e4m3 fp16 fp8e4m3 fp8e4m3 fp16 FP16;  fp8e5m2 ... fp16 FP16;
 *   fp16 fp16 fp16 fp16 fp16 fp16 FP16;  the same with FP32;  bf16 ... bf16 FP32;  fp32 ... FP32.
 * input [N,IH,IW,IC], weight [OC,KH,KW,IC], bias [BC] (BC == OC or 1), zero points [1],
 * output [N,OH,OW,OC] with OH = (IH - 1 + pad_top + pad_bottom - (KH - 1) * dilation_y) /
 * stride_y + 1 where the division must be exact (ERROR_IF), likewise OW.
 * Zero points must be 0 except for i8 operands (ERROR_IF; so weight_zp may be non-zero for the
 * i16 x i8 row). Padding taps contribute 0: the zero point is not subtracted from them.
 */
struct tosa_ref_conv2d_args {
   int32_t pad[4];      /* pad_top, pad_bottom, pad_left, pad_right */
   int32_t stride[2];   /* stride_y, stride_x */
   int32_t dilation[2]; /* dilation_y, dilation_x */
   enum tosa_ref_acc_type acc_type;
   bool local_bound; /* only changes TOSA_REF_DOT_BOUND */
   enum tosa_ref_dot_mode mode;
   bool level_none;
};

int tosa_ref_conv2d(const struct tosa_ref_conv2d_args *args, const struct ref_tensor *input,
                    const struct ref_tensor *weight, const struct ref_tensor *bias,
                    const struct ref_tensor *input_zp, const struct ref_tensor *weight_zp,
                    struct ref_tensor *output);

/**
 * OH and OW that CONV2D requires, after its ERROR_IFs on pad, stride and dilation;
 * TOSA_REF_ERROR when one of those fails, the division is not exact, or OH or OW is < 1.
 */
int tosa_ref_conv2d_output_hw(const struct tosa_ref_conv2d_args *args, int64_t ih, int64_t iw,
                              int64_t kh, int64_t kw, int64_t *oh, int64_t *ow);

/*
 * CONV2D's family (ref_conv_family.c), with CONV2D's rows, zero-point rule, bias broadcast
 * (BC == 1) and TOSA_REF_DOT_* modes.
 * DEPTHWISE_CONV2D: input [N,IH,IW,C], weight [KH,KW,C,M], output [N,OH,OW,C*M] (channel
 * c * M + m), BC == C * M or 1; the attributes and the output size as CONV2D's; KS = KH * KW.
 */
int tosa_ref_depthwise_conv2d(const struct tosa_ref_conv2d_args *args,
                              const struct ref_tensor *input, const struct ref_tensor *weight,
                              const struct ref_tensor *bias, const struct ref_tensor *input_zp,
                              const struct ref_tensor *weight_zp, struct ref_tensor *output);

/*
 * TRANSPOSE_CONV2D: input [N,IH,IW,IC], weight [OC,KH,KW,IC], output [N,OH,OW,OC] with
 * OH = (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH (likewise OW); each out_pad
 * > -K (ERROR_IF), negative crops. Output (oy, ox) takes tap (ky, kx) from input
 * ((oy - out_pad_top - ky) / stride_y, ...) where that is in range and exact; KS = KH * KW * IC.
 */
struct tosa_ref_transpose_conv2d_args {
   int32_t out_pad[4]; /* out_pad_top, out_pad_bottom, out_pad_left, out_pad_right */
   int32_t stride[2];  /* stride_y, stride_x */
   enum tosa_ref_acc_type acc_type;
   bool local_bound;
   enum tosa_ref_dot_mode mode;
   bool level_none;
};

int tosa_ref_transpose_conv2d(const struct tosa_ref_transpose_conv2d_args *args,
                              const struct ref_tensor *input, const struct ref_tensor *weight,
                              const struct ref_tensor *bias, const struct ref_tensor *input_zp,
                              const struct ref_tensor *weight_zp, struct ref_tensor *output);

/*
 * CONV3D: input [N,ID,IH,IW,IC], weight [OC,KD,KH,KW,IC], output [N,OD,OH,OW,OC], each
 * output size as CONV2D's (idiv_check); KS = KD * KH * KW * IC.
 */
struct tosa_ref_conv3d_args {
   int32_t pad[6];      /* pad_d0, pad_d1, pad_top, pad_bottom, pad_left, pad_right */
   int32_t stride[3];   /* stride_d, stride_y, stride_x */
   int32_t dilation[3]; /* dilation_d, dilation_y, dilation_x */
   enum tosa_ref_acc_type acc_type;
   bool local_bound;
   enum tosa_ref_dot_mode mode;
   bool level_none;
};

int tosa_ref_conv3d(const struct tosa_ref_conv3d_args *args, const struct ref_tensor *input,
                    const struct ref_tensor *weight, const struct ref_tensor *bias,
                    const struct ref_tensor *input_zp, const struct ref_tensor *weight_zp,
                    struct ref_tensor *output);

/*
 * MATMUL rows (A, B, A_zp and B_zp, output); the accumulator is the output type:
 *   i8 -> i32; i16 -> i48; fp8e4m3 -> fp16; fp8e5m2 -> fp16; fp16 -> fp16; fp16 -> fp32;
 *   bf16 -> fp32; fp32 -> fp32.
 * A [N,H,C] x B [N,C,W] -> output [N,H,W]. Zero points must be 0 except for i8: this is the
 * meaning TOSA main gives the check; the v1.0.1 text `ERROR_IF(is_same<in_t,i8_t> && (A_zp != 0
 * || B_zp != 0))` inverts it (spec-facts §4.4 erratum 1).
 */
struct tosa_ref_matmul_args {
   enum tosa_ref_dot_mode mode;
};

int tosa_ref_matmul(const struct tosa_ref_matmul_args *args, const struct ref_tensor *a,
                    const struct ref_tensor *b, const struct ref_tensor *a_zp,
                    const struct ref_tensor *b_zp, struct ref_tensor *output);

/*
 * AVG_POOL2D (ref_pool.c). input [N,IH,IW,C], input_zp and output_zp [1] of the input type ->
 * output [N,OH,OW,C] of the input type (or FP64 for a float row: the unrounded result, or the
 * dot-product bound with mode TOSA_REF_DOT_BOUND). Rows (in_out_t, acc_type): i8 INT32,
 * i16 INT32, fp8e4m3 FP16, fp8e5m2 FP16, fp16 FP16, fp16 FP32, bf16 FP32, fp32 FP32.
 * Zero points must be 0 except for i8 (ERROR_IF). The window checks and output size are
 * MAX_POOL2D's. Integer sums wrap in int32 where TOSA's REQUIRE fails (more than 2^16 i16
 * taps), the scaled value keeps its low 32 bits: the layer's kernel does the same.
 */
struct tosa_ref_avg_pool2d_args {
   int32_t kernel[2]; /* kernel_y, kernel_x */
   int32_t stride[2]; /* stride_y, stride_x */
   int32_t pad[4];    /* pad_top, pad_bottom, pad_left, pad_right */
   enum tosa_ref_acc_type acc_type;
   enum tosa_ref_dot_mode mode;
   bool level_none;
};

int tosa_ref_avg_pool2d(const struct tosa_ref_avg_pool2d_args *args, const struct ref_tensor *input,
                        const struct ref_tensor *input_zp, const struct ref_tensor *output_zp,
                        struct ref_tensor *output);

/*
 * FFT2D and RFFT2D (ref_fft.c): fp32 only (EXT-FFT). FFT2D input_real, input_imag [N,H,W] ->
 * output_real, output_imag [N,H,W]; RFFT2D input_real [N,H,W] -> [N,H,W/2 + 1]. H and W must
 * be powers of two (ERROR_IF). Outputs FP32 (the result rounded once) or FP64 (the unrounded
 * result, or with TOSA_REF_DOT_BOUND the dot-product bound of the precision requirements: the
 * interleaved input (re, im) against the coefficients (cos, sin), each |input| the tensor's
 * maximum unless local_bound). inverse: exp(+2 pi i ...); RFFT2D ignores it.
 */
struct tosa_ref_fft2d_args {
   bool inverse;
   bool local_bound;
   enum tosa_ref_dot_mode mode;
   bool level_none;
};

int tosa_ref_fft2d(const struct tosa_ref_fft2d_args *args, const struct ref_tensor *input_real,
                   const struct ref_tensor *input_imag, struct ref_tensor *output_real,
                   struct ref_tensor *output_imag);

int tosa_ref_rfft2d(const struct tosa_ref_fft2d_args *args, const struct ref_tensor *input_real,
                    struct ref_tensor *output_real, struct ref_tensor *output_imag);

/* ---------------------------------------------------------------------------------------------
 * RESCALE (ref_rescale.c). Rows (input, output): every pair of i8, i16, i32 inputs with i8, i16,
 * i32 outputs, and i48 -> i8, i16, i32. input_zp has the input type, output_zp the output type,
 * both shape [1]. multiplier [NC]: i32 (with scale32 false, TOSA says i16 and TOSA.001000.1
 * says i32: both are accepted, an i32 value outside the i16 range is TOSA_REF_UNPREDICTABLE);
 * shift [NC] i8; NC = per_channel ? last dimension : 1.
 *
 * INEXACT_ROUND is computed as SINGLE_ROUND (the pseudocode only distinguishes DOUBLE_ROUND);
 * a GPU result for INEXACT_ROUND is checked with tosa_ref_rescale_inexact_range().
 *
 * Unsigned output: the pseudocode clips with apply_clip_u<i32_t>, which, read literally,
 * zero-extends a negative i32 result and so clips it to the maximum (255 / 65535). The
 * reference clips in signed arithmetic to [0, 255] / [0, 65535] instead (negative -> 0), the
 * evident intent and what the TOSA reference model does. Decision recorded in the report.
 */
struct tosa_ref_rescale_args {
   bool scale32;
   enum tosa_ref_rounding rounding_mode;
   bool per_channel;
   bool input_unsigned;
   bool output_unsigned;
};

int tosa_ref_rescale(const struct tosa_ref_rescale_args *args, const struct ref_tensor *input,
                     const struct ref_tensor *multiplier, const struct ref_tensor *shift,
                     const struct ref_tensor *input_zp, const struct ref_tensor *output_zp,
                     struct ref_tensor *output);

/**
 * apply_scale_32() of scale_helpers.tosac, bit-exact.
 * @param require_ok  if not NULL, set to false when a REQUIRE fails (multiplier < 0, shift
 *                    outside 2..62, value outside [-2^(shift-1), 2^(shift-1))); the result is
 *                    then computed anyway where it is defined and 0 where it is not.
 */
int32_t tosa_ref_apply_scale_32(int32_t value, int32_t multiplier, int32_t shift, bool double_round,
                                bool *require_ok);

/** apply_scale_16() of scale_helpers.tosac (value is an int48), bit-exact; as above. */
int32_t tosa_ref_apply_scale_16(int64_t value, int32_t multiplier, int32_t shift, bool *require_ok);

/* ---------------------------------------------------------------------------------------------
 * CAST (ref_cast.c). Rows (input, output), TOSA.001000.1's 46 (tosa.xml v1.0.1):
 *   bool -> i8, i16, i32; i8, i16, i32 -> bool and the other two integer types;
 *   i8, i16, i32 -> fp16, bf16, fp32; bf16 -> i8, i16, i32, fp8e4m3, fp8e5m2, fp32;
 *   fp8e4m3, fp8e5m2 -> fp16, bf16, fp32; fp16 -> i8, i16, i32, fp8e4m3, fp8e5m2, fp32;
 *   fp32 -> i8, i16, i32, fp8e4m3, fp8e5m2, bf16, fp16.
 * No bool <-> float, no cast to the same type, no fp8 <-> fp8 or fp8 <-> integer. A float
 * output may be FP64 (the exact value: the input's, or the integer), for the checks. The output
 * has the input's shape (ERROR otherwise).
 *  - to bool: in != 0; from bool: 1 or 0; integer to integer: sign-extended, or truncated
 *    (wraps) to a narrower type;
 *  - float to integer: round to nearest, ties to even, then clipped to the output's range
 *    (+-inf saturate). A NaN input: TOSA_REF_UNPREDICTABLE ("the result is unpredictable"),
 *    with 0 in that element, the value the graph layer's kernel gives (cast.comp);
 *  - integer to float and float to float: the exact value rounded once, to nearest with ties
 *    to even (ref_tensor_set_fp(): overflow to +-inf, for fp8e4m3 to NaN, the OCP
 *    non-saturating mode; subnormals kept; a NaN gives the type's quiet NaN with its sign).
 */
int tosa_ref_cast(const struct ref_tensor *input, struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * TABLE (ref_table.c). Rows (input1, table, output): i8, i8[256] -> i8; i16, i16[513] -> i32.
 * i8: table[in + 128]; i16: apply_lookup_s (index = (in + 32768) >> 7, fraction = in & 0x7f,
 * (table[index] << 7) + (table[index + 1] - table[index]) * fraction). The output has the
 * input's shape (ERROR otherwise).
 * The table is a compile-time constant in TOSA, so its REQUIREs are decided on the constant,
 * as a graph compiler does, and a failing one makes the graph invalid (TOSA_REF_ERROR, not
 * UNPREDICTABLE: the graph layer rejects it at pipeline creation): REQUIRE(length(table) ==
 * TABLE_SIZE), and for i16 apply_lookup_s's REQUIRE that every slope table[i + 1] - table[i]
 * (i = 0..511, each reachable by some input) fits i16.
 */
int tosa_ref_table(const struct ref_tensor *input1, const struct ref_tensor *table,
                   struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * Bitwise and logical operators, shifts, CLZ (ref_bitwise.c; ewise_binary.adoc,
 * ewise_unary.adoc). Binary ones broadcast like ADD. Rows, one type throughout:
 *   BITWISE_AND, BITWISE_OR, BITWISE_XOR, BITWISE_NOT, LOGICAL_LEFT_SHIFT, LOGICAL_RIGHT_SHIFT,
 *   ARITHMETIC_RIGHT_SHIFT: i8, i16, i32;  LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR, LOGICAL_NOT:
 *   bool;  CLZ: i32.
 * The shifts REQUIRE the amount (input2) in 0..W-1 for a W-bit type. Where it is not, the status
 * is TOSA_REF_UNPREDICTABLE and the output holds what the layer's kernels give (binary.comp):
 * every bit shifted out, the amount read as unsigned (a negative amount is out of range too):
 * LOGICAL_LEFT_SHIFT and LOGICAL_RIGHT_SHIFT give 0, ARITHMETIC_RIGHT_SHIFT the sign fill (-1
 * for a negative input1, else 0), or 0 with `round` (input1 / 2^amount rounded half up).
 */
int tosa_ref_bitwise_and(const struct ref_tensor *input1, const struct ref_tensor *input2,
                         struct ref_tensor *output);

int tosa_ref_bitwise_or(const struct ref_tensor *input1, const struct ref_tensor *input2,
                        struct ref_tensor *output);

int tosa_ref_bitwise_xor(const struct ref_tensor *input1, const struct ref_tensor *input2,
                         struct ref_tensor *output);

int tosa_ref_logical_and(const struct ref_tensor *input1, const struct ref_tensor *input2,
                         struct ref_tensor *output);

int tosa_ref_logical_or(const struct ref_tensor *input1, const struct ref_tensor *input2,
                        struct ref_tensor *output);

/** LOGICAL_XOR: value1 != value2. */
int tosa_ref_logical_xor(const struct ref_tensor *input1, const struct ref_tensor *input2,
                         struct ref_tensor *output);

/** value1 << value2, truncated to the type. */
int tosa_ref_logical_left_shift(const struct ref_tensor *input1, const struct ref_tensor *input2,
                                struct ref_tensor *output);

/** apply_logical_rshift: the W-bit value zero-extended, shifted, truncated. */
int tosa_ref_logical_right_shift(const struct ref_tensor *input1, const struct ref_tensor *input2,
                                 struct ref_tensor *output);

/** apply_arith_rshift; with `round` and value2 > 0, + bit value2 - 1 of value1 (half up). */
int tosa_ref_arithmetic_right_shift(bool round, const struct ref_tensor *input1,
                                    const struct ref_tensor *input2, struct ref_tensor *output);

int tosa_ref_bitwise_not(const struct ref_tensor *input1, struct ref_tensor *output);

int tosa_ref_logical_not(const struct ref_tensor *input1, struct ref_tensor *output);

/** count_leading_zeros of the i32 (32 for 0). */
int tosa_ref_clz(const struct ref_tensor *input1, struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * INTDIV, ABS, NEGATE (ref_arith.c; ewise_binary.adoc, ewise_unary.adoc). Rows: INTDIV i32;
 * ABS i32, fp16, bf16, fp32; NEGATE i8, i16, i32, fp16, bf16, fp32 (one type throughout,
 * NEGATE's zero points included). Where a REQUIRE fails on the data the status is
 * TOSA_REF_UNPREDICTABLE and the output holds what the layer's kernels give:
 *   INTDIV x / 0 = 0, INT32_MIN / -1 = INT32_MIN (wrapped; both as Arm SDIV);
 *   ABS(INT32_MIN) = INT32_MAX; NEGATE(INT32_MIN) = INT32_MAX (the exact value clipped to the
 *   type, as NEGATE.tosac clips i8 and i16).
 * Floats are exact: ABS gives |x| (-0 -> +0; the v1.0.1 text tests static_cast<int32_t>(value1)
 * < 0, which would leave -0.5 negative: the "Floating-point behavior" table and "results must
 * be exact" give |x|), NEGATE -x (+0 -> -0, the table's).
 */
/** INTDIV: apply_intdiv_s, truncating toward zero; broadcasts like ADD. */
int tosa_ref_intdiv(const struct ref_tensor *input1, const struct ref_tensor *input2,
                    struct ref_tensor *output);

int tosa_ref_abs(const struct ref_tensor *input1, struct ref_tensor *output);

/**
 * NEGATE: clip(-(input1 - input1_zp) + output_zp) in acc_t (i32 for the integer rows).
 * @param input1_zp, output_zp  tensors of shape [1] of the input's type (compile-time constants
 *                              in TOSA); ERROR_IF either is non-zero unless i8.
 */
int tosa_ref_negate(const struct ref_tensor *input1, const struct ref_tensor *input1_zp,
                    const struct ref_tensor *output_zp, struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * Comparisons and SELECT (ref_compare.c; comparison.adoc, ewise_ternary.adoc).
 * EQUAL, GREATER, GREATER_EQUAL rows (input1, input2 -> output): i32, fp16, bf16, fp32 -> bool,
 * broadcast like ADD; a NaN operand gives false, zeros of either sign are equal.
 * SELECT: input1 bool; input2, input3 and output one of bool, i8, i16, i32, fp16, bf16, fp32;
 * ERROR_IF(shape != broadcast_shape(broadcast_shape(shape1, shape2), shape3)). Bit patterns are
 * copied (a NaN keeps its payload).
 */
int tosa_ref_equal(const struct ref_tensor *input1, const struct ref_tensor *input2,
                   struct ref_tensor *output);

int tosa_ref_greater(const struct ref_tensor *input1, const struct ref_tensor *input2,
                     struct ref_tensor *output);

int tosa_ref_greater_equal(const struct ref_tensor *input1, const struct ref_tensor *input2,
                           struct ref_tensor *output);

int tosa_ref_select(const struct ref_tensor *input1, const struct ref_tensor *input2,
                    const struct ref_tensor *input3, struct ref_tensor *output);

/* ---------------------------------------------------------------------------------------------
 * Compliance: what a GPU result must meet (ref_compliance.c). Sources: TOSA 1.0.1
 * chapters/introduction.adoc "Compliance" and the "Precision Requirements" of each operator.
 *
 * Per operator and type (tosa_ref_tolerance() returns the row; "ulp" is
 * tosa_reference_ulp<out_t>(out_ref), out_ref the fp64 result of TOSA_REF_DOT_RESULT / an FP64
 * output of the reference):
 *
 *  ADD, SUB      i32                     EXACT        ewise_binary.adoc: "Integer results must be
 *                                                     exact"
 *  ADD, SUB, MUL fp16, bf16, fp32        ULP 0.5      ewise_binary.adoc: tosa_reference_check_fp
 *                                                     <in_t>(out_imp, out_ref, 0.5): within half
 *                                                     an ulp of the fp64 result (either neighbour
 *                                                     of an exact tie), NaN iff out_ref is NaN,
 *                                                     +-inf where out_ref + 0.5 ulp passes
 *                                                     normal_max, a subnormal result may be zero
 *  MUL           i8, i16, i32 -> i32     EXACT        ewise_binary.adoc
 *  MAXIMUM,      i32                     EXACT        ewise_binary.adoc
 *  MINIMUM       fp16, bf16, fp32        FP_EXACT     ewise_binary.adoc: apply_max_s/apply_min_s
 *                                                     select an operand: the exact value, NaN as
 *                                                     the NaN mode says, as CLAMP
 *  CLAMP         i8, i16                 EXACT        activation_funcs.adoc
 *  CLAMP         fp16, bf16, fp32        FP_EXACT     activation_funcs.adoc: the exact value, any
 *                                                     NaN for NaN, either sign of zero, a
 *                                                     subnormal result may be a zero
 *  MAX_POOL2D    i8, i16                 EXACT        tensor_ops.adoc
 *  MAX_POOL2D    fp8e4m3, fp8e5m2        FP_EXACT     tensor_ops.adoc (no subnormal flushing:
 *                                                     the fp8 formats must keep subnormals)
 *  MAX_POOL2D    fp16, bf16, fp32        FP_EXACT     tensor_ops.adoc, as CLAMP
 *  AVG_POOL2D    i8, i16                 EXACT        tensor_ops.adoc
 *  AVG_POOL2D    fp8 (acc FP16), fp16    DOT_PRODUCT  tensor_ops.adoc: a dot product with weights
 *                (acc FP16/FP32), bf16,               1/KS; as CONV2D with KS = kernel_y *
 *                fp32 (acc FP32)                      kernel_x, the bound from TOSA_REF_DOT_BOUND
 *                                                     (max |input| over the tensor)
 *  FFT2D, RFFT2D fp32                    DOT_PRODUCT  tensor_ops.adoc: each output a dot product
 *                                                     of the interleaved input (re, im) with
 *                                                     (cos, sin); KS = 2 H W (RFFT2D: H W),
 *                                                     acc_t = out_t = fp32, the bound from
 *                                                     TOSA_REF_DOT_BOUND (local_bound as given)
 *  RESHAPE,      bool, i8, i16, i32,     EXACT        data_layout.adoc: "Results must be exact";
 *  CONCAT        fp8e4m3, fp8e5m2, fp16,              bit patterns, NaN payloads included
 *                bf16, fp32
 *  CONV2D        i8 -> i32, i16 -> i48   EXACT        tensor_ops.adoc
 *  CONV2D        fp8e4m3/fp8e5m2 -> fp16 DOT_PRODUCT  introduction.adoc "Dot product accuracy
 *                (acc FP16), fp16 (acc                requirements": per element |out_imp -
 *                FP16 or FP32), bf16                  out_ref| <= ABS_BOUND * max(out_bnd *
 *                (acc FP32), fp32                     2^(-1-normal_frac<out_t>), normal_min
 *                                                     <out_t>), ABS_BOUND = 2 * ksb; over the
 *                                                     tensor sum(out_err^2) <= 4 * 0.4 * ksb * T;
 *                                                     ksb = ceil(KS / 2^((normal_frac<acc_t> -
 *                                                     normal_frac<out_t>) / 2)) + 1, KS = KH * KW
 *                                                     * IC; out_bnd from TOSA_REF_DOT_BOUND
 *                                                     (local_bound as the attribute says)
 *  DEPTHWISE_CONV2D, TRANSPOSE_CONV2D, CONV3D: as CONV2D, with KS = KH * KW (DEPTHWISE),
 *                KH * KW * IC (TRANSPOSE), KD * KH * KW * IC (CONV3D) (Appendix A)
 *  MATMUL        i8 -> i32, i16 -> i48   EXACT        tensor_ops.adoc
 *  MATMUL        fp8 -> fp16, fp16 ->    DOT_PRODUCT  as CONV2D with KS = C, acc_t = out_t and
 *                fp16/fp32, bf16 ->                   local_bound true
 *                fp32, fp32 -> fp32
 *  RESCALE       SINGLE_ROUND,           EXACT        type_conversion.adoc: "results must be
 *                DOUBLE_ROUND                         exact"
 *  RESCALE       INEXACT_ROUND           RESCALE_RANGE type_conversion.adoc: out_ref_min_int <=
 *                                                     out_imp <= out_ref_max_int
 *  CAST          bool, integer -> bool,  EXACT        type_conversion.adoc: "When casting between
 *                integer                              integer types, the results must be exact";
 *                                                     "Casting to boolean type: exact"
 *  CAST          integer -> fp16, bf16,  ULP 0.5      type_conversion.adoc: tosa_reference_check_fp
 *                fp32                                 <out_t>(out_imp, out_ref, 0.5): correctly
 *                                                     rounded (either neighbour of a tie)
 *  CAST_FROM_FP  float -> integer        EXACT        type_conversion.adoc: round to nearest, ties
 *                                                     to even, saturate; a NaN input is
 *                                                     unpredictable (the reference says so)
 *  CAST_FROM_FP  float -> float          CAST_FP      type_conversion.adoc: NaN for NaN; with
 *                                                     out_ref the input's value and ulp
 *                                                     tosa_reference_ulp<out_t>(out_ref):
 *                                                     |out_ref| - ulp <= |out_imp| <= |out_ref|
 *                                                     + 0.5 ulp, out_ref's sign (round to
 *                                                     nearest or toward zero); beyond the range
 *                                                     +-inf (fp8e4m3: NaN) where rounding to
 *                                                     nearest overflows; a zero of the right sign
 *                                                     below the smallest subnormal, and for
 *                                                     bf16/fp16/fp32 below normal_min;
 *                                                     tosa_ref_check_cast_fp()
 *  TABLE         i8 -> i8, i16 -> i32    EXACT        ewise_binary.adoc: "Results must be exact"
 *  BITWISE_AND/  i8, i16, i32, bool      EXACT        ewise_binary.adoc, ewise_unary.adoc: "Results
 *  OR/XOR/NOT,                                        must be exact"
 *  LOGICAL_AND/
 *  OR/XOR/NOT,
 *  shifts, CLZ,
 *  INTDIV
 *  EQUAL,        i32, fp16, bf16, fp32   EXACT        comparison.adoc: integer results exact, float
 *  GREATER,      -> bool                              inputs compared by value (NaN false, zero
 *  GREATER_EQUAL                                      sign ignored); TOSA also lets subnormal
 *                                                     inputs be flushed, which the layer's kernels
 *                                                     never do
 *  ABS, NEGATE   i8, i16, i32            EXACT        ewise_unary.adoc
 *  ABS, NEGATE   fp16, bf16, fp32        FP_EXACT     ewise_unary.adoc: "floating-point results
 *                                                     must be exact", NaN for NaN, subnormal
 *                                                     inputs may be flushed
 *  SELECT        bool, i8, i16, i32      EXACT        ewise_ternary.adoc
 *  SELECT        fp16, bf16, fp32        FP_EXACT     ewise_ternary.adoc: exact, any NaN for a
 *                                                     NaN, subnormal inputs may be flushed
 *  CEIL, FLOOR   fp16, bf16, fp32        ULP 0.5      ewise_unary.adoc (exact: integers)
 *  RECIPROCAL    fp16, bf16, fp32        ULP 1        ewise_unary.adoc
 *  RSQRT         fp16, bf16, fp32        ULP 2        ewise_unary.adoc
 *  ERF           fp16, bf16, fp32        ULP 5        activation_funcs.adoc
 *  EXP, LOG,     fp16, bf16, fp32        ABS_BOUND    err_bnd per element (tosa_ref_math_err_bound;
 *  SIN, COS,                                          A = calcAbsErrorBound<T>, b = 3 for fp32 and
 *  SIGMOID,                                           1 otherwise): EXP A(out, b + 2|x|, 0, 1);
 *  TANH, POW                                          LOG A(out, 5, 0.5, 1); SIN max(A(x, 2, 0, 2),
 *                                                     pi normal_min); COS A(1 + |x|, 1, 0, 2);
 *                                                     SIGMOID A(out, 2(1 + |x|), 0, 1); TANH
 *                                                     A(out, 4(b + 2|x|), 0.5, 1); POW out
 *                                                     expm1(m) + A(out, b + 2|y log x + m|, 0, 1),
 *                                                     m = A(y log x, 5.5, |0.55 y|, 1)
 *
 * How a kernel test checks a whole output: tosa_ref_check_tensor() for EXACT, FP_EXACT, ULP and
 * CAST_FP; tosa_ref_check_dot_product() for DOT_PRODUCT; tosa_ref_check_rescale_range() for
 * RESCALE_RANGE. The tolerance is checked against the reference's own output, never against a
 * value the kernel computed.
 */

enum tosa_ref_op {
   TOSA_REF_OP_ADD,
   TOSA_REF_OP_SUB,
   TOSA_REF_OP_MUL,
   TOSA_REF_OP_CLAMP,
   TOSA_REF_OP_RESHAPE,
   TOSA_REF_OP_CONCAT,
   TOSA_REF_OP_MAX_POOL2D,
   TOSA_REF_OP_CONV2D,
   TOSA_REF_OP_MATMUL,
   TOSA_REF_OP_RESCALE,
   TOSA_REF_OP_MAXIMUM,
   TOSA_REF_OP_MINIMUM,
   TOSA_REF_OP_CAST,         /* CAST from bool or an integer type */
   TOSA_REF_OP_CAST_FROM_FP, /* CAST from a floating-point type */
   TOSA_REF_OP_TABLE,
   TOSA_REF_OP_BITWISE_AND,
   TOSA_REF_OP_BITWISE_OR,
   TOSA_REF_OP_BITWISE_XOR,
   TOSA_REF_OP_LOGICAL_AND,
   TOSA_REF_OP_LOGICAL_OR,
   TOSA_REF_OP_LOGICAL_XOR,
   TOSA_REF_OP_LOGICAL_LEFT_SHIFT,
   TOSA_REF_OP_LOGICAL_RIGHT_SHIFT,
   TOSA_REF_OP_ARITHMETIC_RIGHT_SHIFT,
   TOSA_REF_OP_INTDIV,
   TOSA_REF_OP_EQUAL,
   TOSA_REF_OP_GREATER,
   TOSA_REF_OP_GREATER_EQUAL,
   TOSA_REF_OP_ABS,
   TOSA_REF_OP_NEGATE,
   TOSA_REF_OP_BITWISE_NOT,
   TOSA_REF_OP_LOGICAL_NOT,
   TOSA_REF_OP_CLZ,
   TOSA_REF_OP_SELECT,
   TOSA_REF_OP_CEIL,
   TOSA_REF_OP_FLOOR,
   TOSA_REF_OP_EXP,
   TOSA_REF_OP_LOG,
   TOSA_REF_OP_SIN,
   TOSA_REF_OP_COS,
   TOSA_REF_OP_RECIPROCAL,
   TOSA_REF_OP_RSQRT,
   TOSA_REF_OP_ERF,
   TOSA_REF_OP_SIGMOID,
   TOSA_REF_OP_TANH,
   TOSA_REF_OP_POW,
   TOSA_REF_OP_SLICE,
   TOSA_REF_OP_REVERSE,
   TOSA_REF_OP_TILE,
   TOSA_REF_OP_PAD,
   TOSA_REF_OP_TRANSPOSE,
   TOSA_REF_OP_RESIZE,
   TOSA_REF_OP_REDUCE_ALL,
   TOSA_REF_OP_REDUCE_ANY,
   TOSA_REF_OP_REDUCE_MAX,
   TOSA_REF_OP_REDUCE_MIN,
   TOSA_REF_OP_REDUCE_PRODUCT,
   TOSA_REF_OP_REDUCE_SUM,
   TOSA_REF_OP_ARGMAX,
   TOSA_REF_OP_GATHER,
   TOSA_REF_OP_SCATTER,
   TOSA_REF_OP_DEPTHWISE_CONV2D,
   TOSA_REF_OP_TRANSPOSE_CONV2D,
   TOSA_REF_OP_CONV3D,
   TOSA_REF_OP_AVG_POOL2D,
   TOSA_REF_OP_FFT2D,
   TOSA_REF_OP_RFFT2D,
   TOSA_REF_OP_COUNT
};

enum tosa_ref_tol_kind {
   /* Bit-exact. Integer results everywhere ("Integer results must be exact"), RESHAPE and
    * CONCAT for every type ("Results must be exact"), RESCALE SINGLE_ROUND/DOUBLE_ROUND. */
   TOSA_REF_TOL_EXACT,
   /* The exact value, with the freedoms CLAMP and MAX_POOL2D list for floats: a NaN result must
    * be a NaN (any), the sign of a zero result is free, and a subnormal fp16/bf16/fp32 result
    * may be a zero of either sign (subnormal inputs may be flushed). tosa_ref_check_fp_exact(). */
   TOSA_REF_TOL_FP_EXACT,
   /* tosa_reference_check_fp(out_imp, out_ref_fp64, ulp): ADD, SUB, MUL on floats (ulp 0.5,
    * i.e. correctly rounded; NaN in gives NaN; subnormals may be flushed). tosa_ref_check_fp(). */
   TOSA_REF_TOL_ULP,
   /* "Dot product accuracy requirements" over the whole output: CONV2D and MATMUL on floats.
    * tosa_ref_check_dot_product() with the TOSA_REF_DOT_RESULT (FP64) and TOSA_REF_DOT_BOUND
    * outputs of the reference. */
   TOSA_REF_TOL_DOT_PRODUCT,
   /* RESCALE INEXACT_ROUND: each result within tosa_ref_rescale_inexact_range(). */
   TOSA_REF_TOL_RESCALE_RANGE,
   /* CAST between floating-point types (type_conversion.adoc): tosa_ref_check_cast_fp() per
    * element against the exact input value (an FP64 reference). */
   TOSA_REF_TOL_CAST_FP,
   /* tosa_reference_check_fp_bnd(out_imp, out_ref_fp64, err_bnd) with a bound per element that
    * depends on the input and out_ref (calcAbsErrorBound): EXP, LOG, SIN, COS, SIGMOID, TANH,
    * POW. tosa_ref_math_bound() computes it; tosa_ref_check_tensor_bound() checks. */
   TOSA_REF_TOL_ABS_BOUND,
};

struct tosa_ref_tolerance {
   enum tosa_ref_tol_kind kind;
   double ulp;         /* TOSA_REF_TOL_ULP: num_ulp */
   const char *source; /* where TOSA 1.0.1 states it */
};

/**
 * The tolerance a GPU result of `op` with output type `out_type` must meet.
 * @param rounding  RESCALE's rounding_mode; ignored for other operators.
 */
struct tosa_ref_tolerance tosa_ref_tolerance(enum tosa_ref_op op, enum ref_dtype out_type,
                                             enum tosa_ref_rounding rounding);

/** tosa_reference_ulp<type>(ref_value): one ulp of `type` at ref_value (0 for 0, inf, NaN). */
double tosa_ref_ulp(enum ref_dtype type, double ref_value);

/** tosa_reference_check_fp_bnd<type>(): test_value is the implementation's value (exact). */
bool tosa_ref_check_fp_bnd(enum ref_dtype type, double test_value, double ref_value,
                           double err_bnd);

/** tosa_reference_check_fp<type>(test_value, ref_value, num_ulp). */
bool tosa_ref_check_fp(enum ref_dtype type, double test_value, double ref_value, double num_ulp);

/** TOSA_REF_TOL_FP_EXACT for one element. */
bool tosa_ref_check_fp_exact(enum ref_dtype type, double test_value, double ref_value);

/**
 * TOSA_REF_TOL_CAST_FP for one element: a CAST between float types (type_conversion.adoc).
 * ref_value is the input's exact value (out_ref, computed in fp64), type the output type.
 * NaN iff ref_value is NaN. Otherwise out_ref's sign, and with ulp = tosa_ref_ulp(type,
 * ref_value): |ref_value| - ulp <= |test_value| <= |ref_value| + 0.5 ulp (rounded to nearest or
 * toward zero), or the overflow result (+-inf; NaN for fp8e4m3) where rounding to nearest
 * overflows (|ref_value| >= normal_max + half an ulp of normal_max; +-inf in), or a zero when
 * |ref_value| is below normal_min for bf16, fp16, fp32 (subnormal results may be flushed).
 * Subnormal inputs flushed to zero are the caller's to allow (a reference with flushed inputs).
 */
bool tosa_ref_check_cast_fp(enum ref_dtype type, double test_value, double ref_value);

/* What the whole-tensor checks found. */
struct tosa_ref_check_report {
   bool pass;
   int64_t failures;      /* elements that failed */
   int64_t first_failure; /* offset of the first of them, or -1 */
};

/**
 * Checks every element of an implementation's output against the reference's for the
 * per-element tolerance kinds:
 *  - TOSA_REF_TOL_EXACT: ref has imp's dtype; integers compare by value (an I48 by its low 48
 *    bits), BOOL as true/false, floats bit for bit;
 *  - TOSA_REF_TOL_FP_EXACT: ref is imp's dtype or FP64; tosa_ref_check_fp_exact() in imp's type;
 *  - TOSA_REF_TOL_ULP: ref must be FP64, the unrounded fp64 result (a float row of ADD, SUB or
 *    MUL run with an FP64 output): out_ref of the compliance chapter; a rounded reference would
 *    reject the other neighbour of a tie. tosa_ref_check_fp() in imp's type with tol->ulp;
 *  - TOSA_REF_TOL_CAST_FP: ref must be FP64, the exact input of a CAST between float types;
 *    tosa_ref_check_cast_fp() in imp's type.
 * @param imp  the implementation's output (the row's output type), same shape as ref.
 * @return TOSA_REF_OK with the verdict in *report, or TOSA_REF_BAD_ARGUMENT (other kinds,
 *         mismatched shapes or types).
 */
int tosa_ref_check_tensor(const struct tosa_ref_tolerance *tol, const struct ref_tensor *imp,
                          const struct ref_tensor *ref, struct tosa_ref_check_report *report);

/**
 * TOSA_REF_TOL_ABS_BOUND over a whole output: tosa_ref_check_fp_bnd() of each element of imp
 * against ref (FP64, out_ref) with the bound in bnd (FP64, from tosa_ref_math_bound()).
 * @return TOSA_REF_OK with the verdict in *report, or TOSA_REF_BAD_ARGUMENT.
 */
int tosa_ref_check_tensor_bound(const struct ref_tensor *imp, const struct ref_tensor *ref,
                                const struct ref_tensor *bnd, struct tosa_ref_check_report *report);

struct tosa_ref_dot_check {
   enum ref_dtype out_type; /* out_t of the row */
   enum ref_dtype acc_type; /* acc_t of the row (MATMUL: the output type) */
   int64_t ks;              /* KS (Appendix A): CONV2D KH * KW * IC, MATMUL C */
   bool has_bias;           /* adds 1 to ksb; see tosa_ref_check_dot_product() */
   int test_set;            /* S of Appendix A (0..5), or -1: data not from a test set */
};

struct tosa_ref_dot_report {
   bool pass;
   int64_t first_failure; /* offset of the first element failing on its own, or -1 */
   int64_t ksb;
   double abs_bound;      /* ABS_BOUND = 2 * ksb */
   double variance_bound; /* VARIANCE_ERROR_BOUND * T = 4 * 0.4 * ksb * T */
   double max_abs_err;    /* largest |out_err| */
   double err_sum;
   double err_sumsq;
};

/**
 * tosa_reference_check_dotproduct() of TOSA 1.0.1.
 * ksb = ceil(KS / 2^((normal_frac<acc_t> - normal_frac<out_t>) / 2)) + (has_bias ? 1 : 0),
 * the exponent an integer division as the C++-like pseudocode reads; has_bias should be true for
 * CONV2D (bias_abs = max(|bias|, normal_min) > 0 always) and for MATMUL ("bias is taken to be
 * zero", whose bias_abs is normal_min > 0, read literally; the looser choice).
 * @param imp  the implementation's output (out_t), @param ref  TOSA_REF_DOT_RESULT in FP64,
 * @param bnd  TOSA_REF_DOT_BOUND in FP64; all the same shape.
 * @return TOSA_REF_OK (report->pass says the verdict) or TOSA_REF_BAD_ARGUMENT.
 */
int tosa_ref_check_dot_product(const struct tosa_ref_dot_check *check, const struct ref_tensor *imp,
                               const struct ref_tensor *ref, const struct ref_tensor *bnd,
                               struct tosa_ref_dot_report *report);

/**
 * RESCALE INEXACT_ROUND bounds (type_conversion.adoc): per element,
 * out_ref = (x - input_zp) * m * 2^-shift in fp64, err_bnd = 0.5 + (3 |out_ref| +
 * |out_ref + output_zp|) * 2^-24, lo = clip(ceil(out_ref - err_bnd + output_zp)),
 * hi = clip(floor(out_ref + err_bnd + output_zp)), clipped to the output range (unsigned when
 * output_unsigned). lo and hi are I32 tensors of the input's shape holding those values (as
 * numbers, not bit patterns), so an unsigned output compares zero-extended.
 * Same validation and status as tosa_ref_rescale().
 */
int tosa_ref_rescale_inexact_range(const struct tosa_ref_rescale_args *args,
                                   const struct ref_tensor *input,
                                   const struct ref_tensor *multiplier,
                                   const struct ref_tensor *shift,
                                   const struct ref_tensor *input_zp,
                                   const struct ref_tensor *output_zp, struct ref_tensor *lo,
                                   struct ref_tensor *hi);

/**
 * TOSA_REF_TOL_RESCALE_RANGE over a whole output: lo[i] <= imp[i] <= hi[i] with lo and hi from
 * tosa_ref_rescale_inexact_range(). imp is the RESCALE output (I8, I16 or I32) read as unsigned
 * (zero-extended) when output_unsigned, else sign-extended.
 * @return TOSA_REF_OK with the verdict in *report, or TOSA_REF_BAD_ARGUMENT.
 */
int tosa_ref_check_rescale_range(const struct ref_tensor *imp, bool output_unsigned,
                                 const struct ref_tensor *lo, const struct ref_tensor *hi,
                                 struct tosa_ref_check_report *report);

/* ---------------------------------------------------------------------------------------------
 * Floating-point math (ref_math.c): CEIL, FLOOR, EXP, LOG, SIN, COS, RECIPROCAL, RSQRT (TOSA
 * 1.0.1 ewise_unary.adoc), ERF, SIGMOID, TANH (activation_funcs.adoc), POW (ewise_binary.adoc,
 * broadcast like ADD). Rows: fp16, bf16, fp32, inputs and output one type; the output may be
 * FP64 for the unrounded out_ref (the C library's double functions).
 *
 * POW's REQUIREs are on the data (x >= 0, x > 0 || y > 0, neither NaN nor infinite): where one
 * fails, TOSA_REF_UNPREDICTABLE, and the output holds C99's pow(x, y) (x < 0 with an integer y
 * gives +-|x|^y, with another y NaN; pow(0, y < 0) = inf; pow(x, 0) = 1 ...), the result the
 * kernel documents (shaders/common/dg_math.glsl).
 */

int tosa_ref_ceil(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_floor(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_exp(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_log(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_sin(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_cos(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_reciprocal(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_rsqrt(const struct ref_tensor *input1, struct ref_tensor *output);
int tosa_ref_erf(const struct ref_tensor *input, struct ref_tensor *output);
int tosa_ref_sigmoid(const struct ref_tensor *input, struct ref_tensor *output);
int tosa_ref_tanh(const struct ref_tensor *input, struct ref_tensor *output);
int tosa_ref_pow(const struct ref_tensor *input1, const struct ref_tensor *input2,
                 struct ref_tensor *output);

/** out_ref of one element of a math operator (y: POW's exponent, else ignored). */
double tosa_ref_math_fp64(enum tosa_ref_op op, double x, double y);

/**
 * The error bound err_bnd one element of a math operator's result in `type` must meet,
 * tosa_reference_check_fp_bnd<type>(out_imp, out_ref, err_bnd): the operator's "Precision
 * Requirements" (see the compliance table; the ULP operators give ulp * N). calcAbsErrorBound's
 * exp2(-normal_frac / normal_divisor) is taken as the real power (2^-11.5 for fp32 with divisor
 * 2), the stricter reading. POW outside its REQUIREs, and POW's exact cases (x == 0, y == 0):
 * 0. NaN for an operator that is not a math operator.
 */
double tosa_ref_math_err_bound(enum tosa_ref_op op, enum ref_dtype type, double x, double y,
                               double out_ref);

/** calcAbsErrorBound<type>() of numeric_accuracy_helpers.tosac (exp2 of a real exponent). */
double tosa_ref_calc_abs_error_bound(enum ref_dtype type, double bound_magnitude,
                                     double bounds_value, double lower_bound,
                                     double normal_divisor);

/**
 * The bound tensor of TOSA_REF_TOL_ABS_BOUND: bound[i] = tosa_ref_math_err_bound() of output
 * element i, from the inputs (input2: POW's, broadcast; NULL for the unary operators) and
 * out_ref (FP64, the output's shape). bound: FP64, the output's shape.
 */
int tosa_ref_math_bound(enum tosa_ref_op op, const struct ref_tensor *input1,
                        const struct ref_tensor *input2, const struct ref_tensor *out_ref,
                        struct ref_tensor *bound);

/* ---------------------------------------------------------------------------------------------
 * RESIZE (ref_resize.c; TOSA 1.0.1 image.adoc, RESIZE.tosac). Input [N,IH,IW,C], output
 * [N,OH,OW,C]. Rows (input, output): i8 i32 (BILINEAR), i8 i8 (NEAREST), i16 i48 (BILINEAR),
 * i16 i16 (NEAREST), fp16, bf16, fp32 (either mode; the output may be FP64 for out_ref). TOSA
 * names each integer row for a mode ("signed 8, bilinear"): an integer row used with the other
 * mode is TOSA_REF_UNSUPPORTED, as a type combination no row has.
 *
 * Every ERROR_IF on scale, offset, border and the output size (OH = idiv_check((IH - 1) *
 * scale_y_n - offset_y + border_y, scale_y_d) + 1, likewise OW) is TOSA_REF_ERROR; the level
 * check scale_n / scale_d <= MAX_SCALE (256 at 8K) TOSA_REF_UNPREDICTABLE.
 *
 * Numerics: integer BILINEAR is exact and unnormalised (the four taps weighted by
 * (scale_n - r) and r per axis, so scaled by scale_y_n * scale_x_n), in i32 for i8 and i48 for
 * i16 (no overflow is possible within the ERROR_IFs). NEAREST copies the chosen element's bits
 * (ties, 2 r == scale_n, take the upper tap; the fp64 test r / scale_n >= 0.5 is the same).
 * Float BILINEAR is the pseudocode in fp64 (dy = ry / scale_y_n), rounded once. Where resize_t
 * is bf16 the pseudocode's static_cast<bf16_t>(ry) / static_cast<bf16_t>(scale_y_n) would round
 * ry and scale_n (> 256) to bf16; the compliance reference is the fp64 calculation, which is
 * what this computes.
 *
 * Precision (image.adoc "Precision Requirements"), TOSA_REF_TOL_ABS_BOUND for every float
 * result of either mode: err_bnd = max(calcAbsErrorBound<T>(max(abs(input)), 20, 0, 1),
 * max(abs(input)) * 0.006), one bound for the whole output (tosa_ref_resize_bound()); NaN
 * inputs are left out of the maximum (a NaN tap gives a NaN result, which the check wants as
 * any NaN); an infinite input makes the bound infinite.
 */

enum tosa_ref_resize_mode {
   TOSA_REF_RESIZE_NEAREST = 1,
   TOSA_REF_RESIZE_BILINEAR = 2,
};

struct tosa_ref_resize_args {
   enum tosa_ref_resize_mode mode;
   int32_t scale[4];  /* scale_y_n, scale_y_d, scale_x_n, scale_x_d */
   int32_t offset[2]; /* offset_y, offset_x */
   int32_t border[2]; /* border_y, border_x */
   uint32_t scale_length, offset_length, border_length; /* entries the operands have */
   bool level_none;                                     /* see "Levels" */
};

int tosa_ref_resize(const struct tosa_ref_resize_args *args, const struct ref_tensor *input,
                    struct ref_tensor *output);

/** The TOSA_REF_TOL_ABS_BOUND bound of a float RESIZE: bound (FP64, the output's shape) gets
 * err_bnd of the header above at every element, from the input. */
int tosa_ref_resize_bound(const struct ref_tensor *input, struct ref_tensor *bound);

/*
 * Reductions (ref_reduce.c): REDUCE_ALL, REDUCE_ANY (bool), REDUCE_MAX, REDUCE_MIN (i8, i16,
 * i32, fp16, bf16, fp32), REDUCE_PRODUCT (fp16, bf16, fp32), REDUCE_SUM (i32, fp16, bf16, fp32):
 * input and output one type, the output the input's shape with shape[axis] = 1 (ERROR_IF).
 * A float REDUCE_SUM/PRODUCT output may be FP64 (out_ref, unrounded). i32 REDUCE_SUM: a partial
 * sum outside i32 is a REQUIRE (TOSA_REF_UNPREDICTABLE); the output then holds the sum wrapped to
 * 32 bits, the result the kernel documents. ARGMAX (i8, i16, fp8e4m3, fp8e5m2, fp16, bf16, fp32
 * -> i32): the output is the input's shape without dimension axis; the first index of the
 * maximum (nan_mode as the pseudocode says).
 * Tolerances: REDUCE_SUM floats TOSA_REF_TOL_DOT_PRODUCT (KS = shape1[axis], acc_t fp16 for the
 * fp16 row, fp32 otherwise; the bound from TOSA_REF_REDUCE_BOUND); REDUCE_PRODUCT
 * TOSA_REF_TOL_ABS_BOUND with tosa_ref_reduce_product_bound(); REDUCE_MAX/MIN floats FP_EXACT;
 * the rest EXACT.
 */

enum tosa_ref_reduce_mode {
   TOSA_REF_REDUCE_RESULT = 0,
   /* REDUCE_SUM of floats into an FP64 output: the dot-product bound, sum of |x| in fp64. */
   TOSA_REF_REDUCE_BOUND = 1,
};

struct tosa_ref_reduce_args {
   int32_t axis;
   enum tosa_ref_nan_mode nan_mode; /* REDUCE_MAX / REDUCE_MIN only */
   enum tosa_ref_reduce_mode mode;
};

/** op: one of TOSA_REF_OP_REDUCE_*. */
int tosa_ref_reduce(enum tosa_ref_op op, const struct tosa_ref_reduce_args *args,
                    const struct ref_tensor *input, struct ref_tensor *output);

/**
 * REDUCE_PRODUCT's bound per element (reduction.adoc): max(|out_ref|, normal_min<in_out_t>) *
 * ((1 + 2^(-normal_frac<in_out_t> - 1))^n - 1), n = shape1[axis]. out_ref and bound: FP64, the
 * output's shape.
 */
int tosa_ref_reduce_product_bound(const struct ref_tensor *input, int32_t axis,
                                  const struct ref_tensor *out_ref, struct ref_tensor *bound);

struct tosa_ref_argmax_args {
   int32_t axis;
   enum tosa_ref_nan_mode nan_mode;
};

int tosa_ref_argmax(const struct tosa_ref_argmax_args *args, const struct ref_tensor *input,
                    struct ref_tensor *output);

#ifdef __cplusplus
}
#endif

#endif /* TOSA_REF_H */
