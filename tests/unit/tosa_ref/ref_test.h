/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What the files of test_tosa_ref share: the helpers of main.c (tensors made with them are kept
 * and freed after each section; every expect_* is one check), the CONV2D and RESCALE argument
 * builders, and the section functions of the family files that main() runs, one per section, in
 * the order it runs them.
 */
#ifndef TOSA_REF_TEST_H
#define TOSA_REF_TEST_H

#include "test.h"
#include "tosa_ref.h"

#include <math.h>

#define COUNT(a) ((int64_t)(sizeof(a) / sizeof((a)[0])))

#define I32_MAX ((int64_t)INT32_MAX)
#define I32_MIN ((int64_t)INT32_MIN)

/* ---- helpers (main.c) ---------------------------------------------------------------------- */

/* Keeps t for freeing after the section; aborts when t is NULL or the list is full. */
struct ref_tensor *keep(struct ref_tensor *t);
/* A zero-filled tensor. */
struct ref_tensor *tz(enum ref_dtype dtype, uint32_t rank, const int64_t *shape);
/* An integer (or BOOL) tensor filled from v. */
struct ref_tensor *ti(enum ref_dtype dtype, uint32_t rank, const int64_t *shape,
                      const int64_t *v);
/* A float tensor filled from v (each value must be exact in dtype, or is rounded). */
struct ref_tensor *tf(enum ref_dtype dtype, uint32_t rank, const int64_t *shape, const double *v);
/* A tensor filled with raw bit patterns. */
struct ref_tensor *tbits(enum ref_dtype dtype, uint32_t rank, const int64_t *shape,
                         const uint64_t *bits);
/* Shape-[1] tensors: zero points, MUL shift. */
struct ref_tensor *t1(enum ref_dtype dtype, int64_t v);
struct ref_tensor *t1f(enum ref_dtype dtype, double v);

bool expect_status(int got, int want, const char *what);
/* One check: every element of t equals want[] as an integer. */
bool expect_ints(const struct ref_tensor *t, const int64_t *want, int64_t n, const char *what);
/* One check: every element of t has the bit pattern want[]. */
bool expect_bits(const struct ref_tensor *t, const uint64_t *want, int64_t n, const char *what);
/* Same value, a NaN for a NaN, and the same sign for a zero. */
bool same_fp(double got, double want);
/* One check: every element of a float tensor has exactly the value want[]. */
bool expect_fps(const struct ref_tensor *t, const double *want, int64_t n, const char *what);
float f32_of_bits(uint32_t bits);

/* ---- argument builders (conv.c, rescale.c, checks.c) ------------------------------------- */

static inline struct tosa_ref_conv2d_args
conv_args(int32_t pt, int32_t pb, int32_t pl, int32_t pr, int32_t sy, int32_t sx, int32_t dy,
          int32_t dx, enum tosa_ref_acc_type acc)
{
   return (struct tosa_ref_conv2d_args){
       .pad = {pt, pb, pl, pr}, .stride = {sy, sx}, .dilation = {dy, dx}, .acc_type = acc};
}

static inline struct tosa_ref_rescale_args
rs_args(bool scale32, enum tosa_ref_rounding rounding, bool per_channel, bool in_u, bool out_u)
{
   return (struct tosa_ref_rescale_args){.scale32 = scale32,
                                         .rounding_mode = rounding,
                                         .per_channel = per_channel,
                                         .input_unsigned = in_u,
                                         .output_unsigned = out_u};
}

/* ---- sections ------------------------------------------------------------------------------ */

/* types.c */
void test_tensors(void);
void test_conversions(void);
/* elementwise.c */
void test_add(void);
void test_sub(void);
void test_mul(void);
void test_clamp(void);
/* data.c */
void test_reshape(void);
void test_concat(void);
void test_slice(void);
void test_reverse(void);
void test_tile(void);
void test_pad(void);
void test_transpose(void);
void test_reduce(void);
void test_argmax(void);
void test_gather(void);
void test_scatter(void);
/* pool.c */
void test_max_pool2d(void);
/* resize.c */
void test_resize(void);
/* fft.c: AVG_POOL2D, FFT2D, RFFT2D */
void test_avg_pool2d(void);
void test_fft2d(void);
/* conv.c */
void test_conv2d_int(void);
void test_conv2d_float(void);
/* conv_family.c */
void test_depthwise_conv2d(void);
void test_transpose_conv2d(void);
void test_conv3d(void);
/* matmul.c */
void test_matmul(void);
/* rescale.c */
void test_apply_scale(void);
void test_rescale(void);
/* bitwise.c */
void test_bitwise_logical(void);
void test_shifts(void);
/* arith.c */
void test_intdiv(void);
void test_abs_negate(void);
/* compare.c */
void test_comparisons(void);
void test_select(void);
/* checks.c */
void test_tolerance_table(void);
void test_check_fp(void);
void test_check_tensor(void);
void test_check_dot_product(void);
void test_check_rescale_range(void);
/* convert.c */
void test_cast_int(void);
void test_cast_float_int(void);
void test_cast_float_float(void);
void test_table(void);
void test_check_cast_fp(void);

/* ---- math operators and their bounds (math.c) ------------------------------------------ */

void test_math(void);
void test_math_bounds(void);
void test_check_bound(void);

#endif
