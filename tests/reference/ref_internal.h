/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Helpers shared by the reference operator files and nothing else: the status message, the
 * integer helpers of TOSA 1.0.1 pseudocode/library/arithmetic_helpers.tosac (the signless values
 * of i8..i48 held in int64_t), and small shape checks. Not installed, not for other targets.
 */
#ifndef REF_INTERNAL_H
#define REF_INTERNAL_H

#include "tosa_ref.h"

#include <stdarg.h>

#define REF_LEVEL_8K_MAX_KERNEL 8192
#define REF_LEVEL_8K_MAX_STRIDE 8192
#define REF_LEVEL_8K_MAX_TENSOR_LIST_SIZE 64
#define REF_LEVEL_NONE_MAX_KERNEL INT32_MAX
#define REF_LEVEL_NONE_MAX_STRIDE INT32_MAX
#define REF_LEVEL_NONE_MAX_TENSOR_LIST_SIZE 256

/** A CONV2D row of TOSA.001000.1 (spec-facts §3.3), the rows of DEPTHWISE_CONV2D,
 *  TRANSPOSE_CONV2D and CONV3D too; the zero points have the in and weight types. */
struct ref_conv_row {
   enum ref_dtype in, weight, bias, out;
   enum tosa_ref_acc_type acc;
};

/** The row the operand types name (out may be FP64 for a float row), or NULL. ref_conv.c. */
const struct ref_conv_row *ref_conv_find_row(const struct ref_tensor *in,
                                             const struct ref_tensor *w,
                                             const struct ref_tensor *b,
                                             const struct ref_tensor *izp,
                                             const struct ref_tensor *wzp,
                                             const struct ref_tensor *out,
                                             enum tosa_ref_acc_type acc);

/** Whether a [1] zero-point tensor is non-zero (a float NaN is). ref_conv.c. */
bool ref_zp_nonzero(const struct ref_tensor *zp);

/** Records the message for tosa_ref_last_message() and returns status. */
int ref_status(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/** The range of a signed integer type of `bits` bits (8, 16, 32, 48). */
int64_t ref_int_min(unsigned bits);

int64_t ref_int_max(unsigned bits);

/** v reduced to `bits` bits and sign-extended (static_cast to a narrower signed type). */
int64_t ref_wrap_signed(int64_t v, unsigned bits);

/** floor(v / 2^s) for 0 <= s <= 63: the arithmetic right shift of the pseudocode. */
int64_t ref_asr(int64_t v, unsigned s);

/**
 * apply_add_s / apply_sub_s for an integer type of `bits` bits: the exact sum of two in-range
 * values; *require_ok becomes false when it leaves the type's range (REQUIRE), and the result
 * then wraps.
 */
int64_t ref_add_s(int64_t a, int64_t b, unsigned bits, bool *require_ok);

int64_t ref_sub_s(int64_t a, int64_t b, unsigned bits, bool *require_ok);

/**
 * ERROR_IF(shape != broadcast_shape(shape1, shape2)) (broadcast_shape.tosac, with its own
 * ERROR_IFs) for a broadcasting binary operator `op`: TOSA_REF_OK or TOSA_REF_ERROR.
 */
int ref_check_broadcast(const char *op, const struct ref_tensor *in1, const struct ref_tensor *in2,
                        const struct ref_tensor *out);

/** apply_broadcast(): the offset in `in` of the element output index `index` reads. */
int64_t ref_broadcast_offset(const struct ref_tensor *out, const struct ref_tensor *in,
                             const int64_t *index);

/** Checks a tensor argument: non-NULL, with data, rank <= REF_MAX_RANK. */
bool ref_tensor_valid(const struct ref_tensor *t);

bool ref_same_shape(const struct ref_tensor *a, const struct ref_tensor *b);

/** Formats a shape as "[2,3]" into buf (at least 96 bytes). */
const char *ref_shape_str(const struct ref_tensor *t, char *buf, size_t size);

/** True if `v` is an exact value of float dtype `dtype`. */
bool ref_fp_representable(enum ref_dtype dtype, double v);

/** apply_max_s / apply_min_s of arithmetic_helpers.tosac for floating-point values. */
double ref_fmax_nan(double a, double b, enum tosa_ref_nan_mode mode);

double ref_fmin_nan(double a, double b, enum tosa_ref_nan_mode mode);

/** Zero-fills a tensor's data (the output of an UNPREDICTABLE computation left undefined). */
void ref_tensor_zero(struct ref_tensor *t);

#endif /* REF_INTERNAL_H */
