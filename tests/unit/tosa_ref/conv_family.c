/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): DEPTHWISE_CONV2D, TRANSPOSE_CONV2D and
 * CONV3D (tensor_ops.adoc; ref_conv_family.c).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

static const enum tosa_ref_acc_type I32 = TOSA_REF_ACC_INT32;

void
test_depthwise_conv2d(void)
{
   struct tosa_ref_conv2d_args a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *o;

   /* M = 2, BC = 1, zero points 1 and 2. input [1,1,2,2]: x0 (1, 2), x1 (3, 4); weight
    * [1,2,2,2] [ky][kx][c][m] = 1..8. out[c*2+m] = sum_kx (in[kx][c] - 1) * (w[kx][c][m] - 2)
    * + 10: c0m0 0*-1 + 2*3 = 6; c0m1 0*0 + 2*4 = 8; c1m0 1*1 + 3*5 = 16; c1m1 1*2 + 3*6 = 20. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 4});
   expect_status(
       tosa_ref_depthwise_conv2d(
           &a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 2}, (int64_t[]){1, 2, 3, 4}),
           ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 2}, (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8}),
           ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){10}), t1(REF_DTYPE_I8, 1),
           t1(REF_DTYPE_I8, 2), o),
       TOSA_REF_OK, "depthwise M 2, BC 1, zero points");
   expect_ints(o, (int64_t[]){16, 18, 26, 30}, 4, "depthwise M 2, BC 1, zero points");

   /* Dilation 2 with pad 1 on a 3x3 input in[y][x] = 3y + x + 1, a 2x2 kernel of ones: OH =
    * (3 - 1 + 2 - 1 * 2) + 1 = 3. Taps y = oy - 1 + {0, 2}: oy 0 and 2 only y 1, oy 1 y 0 and
    * 2 (x likewise). Corners in[1][1] = 5; edges 4 + 6 = 10 or 2 + 8 = 10; centre 1+3+7+9 = 20. */
   a = conv_args(1, 1, 1, 1, 1, 1, 2, 2, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(
       tosa_ref_depthwise_conv2d(
           &a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1}, (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
           ti(REF_DTYPE_I8, 4, (int64_t[]){2, 2, 1, 1}, (int64_t[]){1, 1, 1, 1}),
           ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), t1(REF_DTYPE_I8, 0),
           t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "depthwise dilation with padding");
   expect_ints(o, (int64_t[]){5, 10, 5, 10, 20, 10, 5, 10, 5}, 9,
               "depthwise dilation with padding");

   /* Padding taps are 0, not 0 - input_zp: a 3x3 kernel of ones, pad 1, over one 5 with
    * input_zp 3: only the centre tap: 2. */
   a = conv_args(1, 1, 1, 1, 1, 1, 1, 1, I32);
   int64_t ones9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(
       tosa_ref_depthwise_conv2d(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){5}),
                                 ti(REF_DTYPE_I8, 4, (int64_t[]){3, 3, 1, 1}, ones9),
                                 ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}),
                                 t1(REF_DTYPE_I8, 3), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "depthwise padding taps");
   expect_ints(o, (int64_t[]){2}, 1, "depthwise padding taps");

   /* The i48 accumulator: 300 taps of -32768 * (127 - -128) = -8355840 sum to -2506752000,
    * below INT32_MIN (an i32 accumulator would wrap to 1788215296); bias -1. */
   int64_t in300[300], w300[300];
   for (int i = 0; i < 300; i++) {
      in300[i] = -32768;
      w300[i] = 127;
   }
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_INT48);
   o = tz(REF_DTYPE_I48, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(tosa_ref_depthwise_conv2d(&a,
                                           ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 300, 1}, in300),
                                           ti(REF_DTYPE_I8, 4, (int64_t[]){1, 300, 1, 1}, w300),
                                           ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){-1}),
                                           t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, -128), o),
                 TOSA_REF_OK, "depthwise i48 accumulator");
   expect_ints(o, (int64_t[]){-2506752001}, 1, "depthwise i48 accumulator");

   /* ERROR_IFs: BC neither C*M nor 1; OH not exact ((4 - 1 - 0) % 2 != 0); i16 input_zp. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   expect_status(tosa_ref_depthwise_conv2d(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 2}),
                                           tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 2}),
                                           tz(REF_DTYPE_I32, 1, (int64_t[]){2}),
                                           t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0),
                                           tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 4})),
                 TOSA_REF_ERROR, "depthwise BC 2 for C*M 4");
   a = conv_args(0, 0, 0, 0, 2, 1, 1, 1, I32);
   expect_status(tosa_ref_depthwise_conv2d(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 4, 1, 1}),
                                           tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}),
                                           tz(REF_DTYPE_I32, 1, (int64_t[]){1}),
                                           t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0),
                                           tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 1, 1})),
                 TOSA_REF_ERROR, "depthwise idiv_check");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_INT48);
   expect_status(tosa_ref_depthwise_conv2d(&a, tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 1}),
                                           tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}),
                                           tz(REF_DTYPE_I48, 1, (int64_t[]){1}),
                                           t1(REF_DTYPE_I16, 1), t1(REF_DTYPE_I8, 0),
                                           tz(REF_DTYPE_I48, 4, (int64_t[]){1, 1, 1, 1})),
                 TOSA_REF_ERROR, "depthwise i16 input_zp");
}

static struct tosa_ref_transpose_conv2d_args
tc_args(int32_t pt, int32_t pb, int32_t pl, int32_t pr, int32_t sy, int32_t sx,
        enum tosa_ref_acc_type acc)
{
   return (struct tosa_ref_transpose_conv2d_args){
       .out_pad = {pt, pb, pl, pr}, .stride = {sy, sx}, .acc_type = acc};
}

void
test_transpose_conv2d(void)
{
   const enum tosa_ref_acc_type F32 = TOSA_REF_ACC_FP32;
   struct tosa_ref_transpose_conv2d_args a;
   struct ref_tensor *o;

   /* Stride 2 with a 2x2 kernel: each input element paints its own 2x2 block, out[2iy + ky]
    * [2ix + kx] = in[iy][ix] * w[ky][kx]; with in 1..4 and w {1, 10, 100, 1000} the uncropped
    * 4x4 output is rows {1,10,2,20}, {100,1000,200,2000}, {3,30,4,40}, {300,3000,400,4000}.
    * Negative out_pad crops: top -1, bottom 0, left -1, right -1: OH = 1*2 - 1 + 0 + 2 = 3,
    * OW = 2 - 2 + 2 = 2, out[oy][ox] = full[oy + 1][ox + 1]. */
   a = tc_args(-1, 0, -1, -1, 2, 2, F32);
   o = tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 3, 2, 1});
   expect_status(tosa_ref_transpose_conv2d(
                     &a, tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){1, 2, 3, 4}),
                     tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){1, 10, 100, 1000}),
                     tf(REF_DTYPE_FP32, 1, (int64_t[]){1}, (double[]){0}), t1f(REF_DTYPE_FP32, 0),
                     t1f(REF_DTYPE_FP32, 0), o),
                 TOSA_REF_OK, "transpose negative out_pad");
   expect_fps(o, (double[]){1000, 200, 30, 4, 3000, 400}, 6, "transpose negative out_pad");

   /* Stride 1, overlapping taps, i8 with input_zp 1 and BC = 1: in {1, 2} - 1 = {0, 1}, w {1,
    * 10}, OW = 1 + 2 = 3: out0 = 0 * 1; out1 = 1 * 1 + 0 * 10; out2 = 1 * 10 (x = 2 is past
    * IW * stride); + 5: {5, 6, 15}. */
   a = tc_args(0, 0, 0, 0, 1, 1, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 3, 1});
   expect_status(tosa_ref_transpose_conv2d(
                     &a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 1}, (int64_t[]){1, 2}),
                     ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 1}, (int64_t[]){1, 10}),
                     ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){5}), t1(REF_DTYPE_I8, 1),
                     t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "transpose overlap, zero point, BC 1");
   expect_ints(o, (int64_t[]){5, 6, 15}, 3, "transpose overlap, zero point, BC 1");

   /* Stride 3 leaves outputs no tap reaches: in {7}, a 1x1 kernel {2}, out_pad bottom 2:
    * OH = 0 + 2 + 1 = 3: {14, bias, bias} with bias 1: {15, 1, 1}. */
   a = tc_args(0, 2, 0, 0, 3, 3, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 1, 1});
   expect_status(
       tosa_ref_transpose_conv2d(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){7}),
                                 ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){2}),
                                 ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){1}),
                                 t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "transpose untouched outputs");
   expect_ints(o, (int64_t[]){15, 1, 1}, 3, "transpose untouched outputs");

   /* ERROR_IF(out_pad_top <= -KH): -2 with KH 2 (OH would be 0 - 2 + 0 + 2 = 0). */
   a = tc_args(-2, 1, 0, 0, 1, 1, I32);
   expect_status(tosa_ref_transpose_conv2d(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}),
                                           tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 1, 1}),
                                           tz(REF_DTYPE_I32, 1, (int64_t[]){1}),
                                           t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0),
                                           tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1})),
                 TOSA_REF_ERROR, "transpose out_pad <= -KH");
   /* ERROR_IF(OH != (IH - 1) * stride_y + out_pad_top + out_pad_bottom + KH): 3, not 2 */
   a = tc_args(0, 0, 0, 0, 2, 1, I32);
   expect_status(tosa_ref_transpose_conv2d(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 1, 1}),
                                           tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}),
                                           tz(REF_DTYPE_I32, 1, (int64_t[]){1}),
                                           t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0),
                                           tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 1, 1})),
                 TOSA_REF_ERROR, "transpose output size");
}

void
test_conv3d(void)
{
   struct tosa_ref_conv3d_args a = {
       .pad = {1, 0, 0, 0, 0, 0}, .stride = {1, 1, 1}, .dilation = {1, 1, 1}, .acc_type = I32};
   struct ref_tensor *o;
   int64_t w[16];
   for (int i = 0; i < 16; i++)
      w[i] = i < 8 ? 1 : 2;

   /* input [1,2,2,2,1] = 1..8 (d, y, x), weights [2,2,2,2,1] of 1 (oc 0) and 2 (oc 1), pad_d0
    * 1: OD = (2 - 1 + 1 - 1) + 1 = 2. od 0 reads d = 0 only: 1+2+3+4 = 10; od 1 all: 36.
    * Bias {1, -1}: [od][oc] = {11, 19, 37, 71}. */
   o = tz(REF_DTYPE_I32, 5, (int64_t[]){1, 2, 1, 1, 2});
   expect_status(tosa_ref_conv3d(&a,
                                 ti(REF_DTYPE_I8, 5, (int64_t[]){1, 2, 2, 2, 1},
                                    (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8}),
                                 ti(REF_DTYPE_I8, 5, (int64_t[]){2, 2, 2, 2, 1}, w),
                                 ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){1, -1}),
                                 t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_OK, "conv3d depth padding");
   expect_ints(o, (int64_t[]){11, 19, 37, 71}, 4, "conv3d depth padding");

   /* Dilation in depth with zero points: input [1,3,1,1,1] {4, 9, 6} - 3, a [1,2,1,1,1] kernel
    * {1, 2} - (-1) = {2, 3}, dilation_d 2: OD = 3 - 1 - 2 + 1 = 1: 1 * 2 + 3 * 3 = 11. */
   a = (struct tosa_ref_conv3d_args){
       .pad = {0}, .stride = {1, 1, 1}, .dilation = {2, 1, 1}, .acc_type = I32};
   o = tz(REF_DTYPE_I32, 5, (int64_t[]){1, 1, 1, 1, 1});
   expect_status(
       tosa_ref_conv3d(&a, ti(REF_DTYPE_I8, 5, (int64_t[]){1, 3, 1, 1, 1}, (int64_t[]){4, 9, 6}),
                       ti(REF_DTYPE_I8, 5, (int64_t[]){1, 2, 1, 1, 1}, (int64_t[]){1, 2}),
                       ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), t1(REF_DTYPE_I8, 3),
                       t1(REF_DTYPE_I8, -1), o),
       TOSA_REF_OK, "conv3d dilation, zero points");
   expect_ints(o, (int64_t[]){11}, 1, "conv3d dilation, zero points");

   /* ERROR_IF(OD != idiv_check(ID - 1 + pads - (KD - 1) * dilation_d, stride_d) + 1): ID 4,
    * KD 1, stride_d 2: 3 % 2 != 0. */
   a = (struct tosa_ref_conv3d_args){
       .pad = {0}, .stride = {2, 1, 1}, .dilation = {1, 1, 1}, .acc_type = I32};
   expect_status(tosa_ref_conv3d(&a, tz(REF_DTYPE_I8, 5, (int64_t[]){1, 4, 1, 1, 1}),
                                 tz(REF_DTYPE_I8, 5, (int64_t[]){1, 1, 1, 1, 1}),
                                 tz(REF_DTYPE_I32, 1, (int64_t[]){1}), t1(REF_DTYPE_I8, 0),
                                 t1(REF_DTYPE_I8, 0),
                                 tz(REF_DTYPE_I32, 5, (int64_t[]){1, 2, 1, 1, 1})),
                 TOSA_REF_ERROR, "conv3d idiv_check");
}
