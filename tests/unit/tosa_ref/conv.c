/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): CONV2D (tensor_ops.adoc), its integer
 * rows and its float rows.
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

/* ---------------------------------------------------------------------------------------------
 * CONV2D (CONV2D.tosac): NHWC input, OHWI weight, bias [BC]
 */

/* The i8 row with zero points 0 unless given. */
static int
conv_i8(const struct tosa_ref_conv2d_args *a, const struct ref_tensor *in,
        const struct ref_tensor *w, const struct ref_tensor *b, int64_t izp, int64_t wzp,
        struct ref_tensor *out)
{
   return tosa_ref_conv2d(a, in, w, b, t1(REF_DTYPE_I8, izp), t1(REF_DTYPE_I8, wzp), out);
}

void
test_conv2d_int(void)
{
   const enum tosa_ref_acc_type I32 = TOSA_REF_ACC_INT32;
   struct tosa_ref_conv2d_args a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *o;

   /* 3x3 of 1..9, a 2x2 kernel of ones: window sums 1+2+4+5, 2+3+5+6, 4+5+7+8, 5+6+8+9. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(
       conv_i8(&a,
               ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1}, (int64_t[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
               ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 1, 1, 1}),
               ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
       TOSA_REF_OK, "i8 2x2");
   expect_ints(o, (int64_t[]){12, 16, 24, 28}, 4, "i8 2x2");

   /* Zero points: (x - 1) * (2 - -1) + 10 for x = 1..4: 10, 13, 16, 19. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 2, 3, 4}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){2}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){10}), 1, -1, o),
                 TOSA_REF_OK, "zero points");
   expect_ints(o, (int64_t[]){10, 13, 16, 19}, 4, "zero points");

   /* Padding with a zero point: a 3x3 kernel of ones, pad 1, over one input 5 with
    * input_zp 3: OH = (1 - 1 + 2 - 2) + 1 = 1; only the centre tap is inside: 5 - 3 = 2. Had
    * the padding been the zero point subtracted, 8 taps would add -3 each. */
   a = conv_args(1, 1, 1, 1, 1, 1, 1, 1, I32);
   int64_t ones9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){5}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1}, ones9),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 3, 0, o),
                 TOSA_REF_OK, "padding taps contribute 0");
   expect_ints(o, (int64_t[]){2}, 1, "padding taps contribute 0");

   /* Asymmetric padding: pad_left 2, kernel 1x3 (1, 10, 100) over (1, 2):
    * OW = (2 - 1 + 2 - 2) + 1 = 2; ox 0 reads x = -2, -1, 0 -> 1 * 100 = 100;
    * ox 1 reads x = -1, 0, 1 -> 1 * 10 + 2 * 100 = 210. */
   a = conv_args(0, 0, 2, 0, 1, 1, 1, 1, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 2, 1}, (int64_t[]){1, 2}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1}, (int64_t[]){1, 10, 100}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
                 TOSA_REF_OK, "left padding");
   expect_ints(o, (int64_t[]){100, 210}, 2, "left padding");

   /* Stride 2 and dilation 2 over in[y][x] = 5y + x (5x5), weight (1 2; 3 4):
    * OH = (5 - 1 - (2 - 1) * 2) / 2 + 1 = 2; out[oy][ox] = in[2oy][2ox] + 2 in[2oy][2ox+2]
    * + 3 in[2oy+2][2ox] + 4 in[2oy+2][2ox+2]:
    * (0,0): 0 + 4 + 30 + 48 = 82; (0,1): 2 + 8 + 36 + 56 = 102;
    * (1,0): 10 + 24 + 60 + 88 = 182; (1,1): 12 + 28 + 66 + 96 = 202. */
   int64_t v25[25];
   for (int64_t i = 0; i < 25; i++)
      v25[i] = i;
   a = conv_args(0, 0, 0, 0, 2, 2, 2, 2, I32);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 5, 5, 1}, v25),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 2, 3, 4}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
                 TOSA_REF_OK, "stride and dilation");
   expect_ints(o, (int64_t[]){82, 102, 182, 202}, 4, "stride and dilation");

   /* Two input and two output channels: oc0 = 3 * 1 + -4 * 2 = -5, oc1 = 3 * 5 + -4 * -6 = 39;
    * per-channel bias (100, -100) -> 95, -61; bias [1] = 7 broadcast -> 2, 46. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *in2 = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){3, -4});
   struct ref_tensor *w2 = ti(REF_DTYPE_I8, 4, (int64_t[]){2, 1, 1, 2}, (int64_t[]){1, 2, 5, -6});
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 2});
   expect_status(
       conv_i8(&a, in2, w2, ti(REF_DTYPE_I32, 1, (int64_t[]){2}, (int64_t[]){100, -100}), 0, 0, o),
       TOSA_REF_OK, "per-channel bias");
   expect_ints(o, (int64_t[]){95, -61}, 2, "per-channel bias");
   expect_status(
       conv_i8(&a, in2, w2, ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){7}), 0, 0, o),
       TOSA_REF_OK, "broadcast bias");
   expect_ints(o, (int64_t[]){2, 46}, 2, "broadcast bias");

   /* Batch of 2, 1x1 kernel -2: 5 -> -10, -7 -> 14. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){2, 1, 1, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){2, 1, 1, 1}, (int64_t[]){5, -7}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){-2}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){0}), 0, 0, o),
                 TOSA_REF_OK, "batch");
   expect_ints(o, (int64_t[]){-10, 14}, 2, "batch");

   /* apply_add_s<i32> on the bias: INT32_MAX + 1 * 1 leaves the range. */
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(conv_i8(&a, ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                         ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                         ti(REF_DTYPE_I32, 1, (int64_t[]){1}, (int64_t[]){I32_MAX}), 0, 0, o),
                 TOSA_REF_UNPREDICTABLE, "i32 bias overflow");

   /* i16 x i8 -> i48 (acc INT48): 32767 * 127 + -32768 * -128 = 4161409 + 4194304 = 8355713,
    * plus the i48 bias 2^40 = 1099519983489. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_INT48);
   struct ref_tensor *in16 =
       ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){32767, -32768});
   struct ref_tensor *w8 = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 2}, (int64_t[]){127, -128});
   o = tz(REF_DTYPE_I48, 4, (int64_t[]){1, 1, 1, 1});
   expect_status(
       tosa_ref_conv2d(&a, in16, w8,
                       ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){INT64_C(1) << 40}),
                       t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "i16 x i8");
   expect_ints(o, (int64_t[]){INT64_C(1099519983489)}, 1, "i16 x i8 with an i48 bias");
   /* weight_t is i8, so weight_zp may be non-zero in this row: 32767 * 126 + -32768 * -129 =
    * 4128642 + 4227072 = 8355714. */
   struct ref_tensor *b48 = ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){0});
   expect_status(tosa_ref_conv2d(&a, in16, w8, b48, t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 1), o),
                 TOSA_REF_OK, "i16 x i8, weight_zp 1");
   expect_ints(o, (int64_t[]){8355714}, 1, "i16 x i8, weight_zp 1");
   expect_status(tosa_ref_conv2d(&a, in16, w8, b48, t1(REF_DTYPE_I16, 1), t1(REF_DTYPE_I8, 0), o),
                 TOSA_REF_ERROR, "ERROR_IF(in_t i16 && input_zp != 0)");
   /* Past int32 in the accumulator: 600 taps of 32767 * 127 = 600 * 4161409 = 2496845400. */
   struct ref_tensor *in600 = tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 600});
   struct ref_tensor *w600 = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 600});
   for (int64_t i = 0; i < 600; i++) {
      ref_tensor_set_int(in600, i, 32767);
      ref_tensor_set_int(w600, i, 127);
   }
   expect_status(
       tosa_ref_conv2d(&a, in600, w600, b48, t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_OK, "i48 accumulator");
   expect_ints(o, (int64_t[]){INT64_C(2496845400)}, 1, "i48 accumulator beyond int32");
   /* apply_add_s<i48>: (2^47 - 1) + 1 * 1 leaves the range. */
   expect_status(
       tosa_ref_conv2d(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                       ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){1}),
                       ti(REF_DTYPE_I48, 1, (int64_t[]){1}, (int64_t[]){(INT64_C(1) << 47) - 1}),
                       t1(REF_DTYPE_I16, 0), t1(REF_DTYPE_I8, 0), o),
       TOSA_REF_UNPREDICTABLE, "i48 overflow");

   /* ERROR_IFs over a [1,4,4,1] input and a [1,2,2,1] kernel (OH = 3 with stride 1). */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   struct ref_tensor *in = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 4, 4, 1});
   struct ref_tensor *w = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1});
   struct ref_tensor *b = tz(REF_DTYPE_I32, 1, (int64_t[]){1});
   struct ref_tensor *o3 = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_OK, "valid baseline");
   a = conv_args(0, -1, 0, 0, 1, 1, 1, 1, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_ERROR, "ERROR_IF(pad_bottom < 0)");
   a = conv_args(0, 0, 0, 0, 0, 1, 1, 1, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_ERROR, "ERROR_IF(stride_y < 1)");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 0, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_ERROR, "ERROR_IF(dilation_x < 1)");
   /* (5 - 1 - 1) % 2 = 1: idiv_check fails. */
   a = conv_args(0, 0, 0, 0, 2, 2, 1, 1, I32);
   expect_status(conv_i8(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 5, 5, 1}), w, b, 0, 0,
                         tz(REF_DTYPE_I32, 4, (int64_t[]){1, 2, 2, 1})),
                 TOSA_REF_ERROR, "idiv_check((5 - 1 - 1), 2)");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   expect_status(conv_i8(&a, in, w, b, 0, 0, tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 4, 1})),
                 TOSA_REF_ERROR, "ERROR_IF(OW != 3)");
   expect_status(conv_i8(&a, in2, w2, tz(REF_DTYPE_I32, 1, (int64_t[]){3}), 0, 0,
                         tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 2})),
                 TOSA_REF_ERROR, "ERROR_IF(BC 3 != OC 2 && BC != 1)");
   expect_status(conv_i8(&a, in, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 2}), b, 0, 0, o3),
                 TOSA_REF_ERROR, "weight IC differs from input IC");
   expect_status(conv_i8(&a, tz(REF_DTYPE_I8, 3, (int64_t[]){4, 4, 1}), w, b, 0, 0, o3),
                 TOSA_REF_ERROR, "rank 3 input");

   /* Type-support rows and acc_type. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_INT48);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_UNSUPPORTED, "i8 with acc INT48");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, (enum tosa_ref_acc_type)0);
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_UNSUPPORTED, "acc_type 0");
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, I32);
   expect_status(tosa_ref_conv2d(&a, in, tz(REF_DTYPE_I16, 4, (int64_t[]){1, 2, 2, 1}), b,
                                 t1(REF_DTYPE_I8, 0), t1(REF_DTYPE_I16, 0), o3),
                 TOSA_REF_UNSUPPORTED, "i8 x i16 has no row");
   expect_status(conv_i8(&a, in, w, tz(REF_DTYPE_I48, 1, (int64_t[]){1}), 0, 0, o3),
                 TOSA_REF_UNSUPPORTED, "i8 row with an i48 bias");
   a.mode = TOSA_REF_DOT_BOUND;
   expect_status(conv_i8(&a, in, w, b, 0, 0, o3), TOSA_REF_BAD_ARGUMENT,
                 "the bound is for float rows");

   /* LEVEL_CHECK(dilation_y * KH <= MAX_KERNEL) and (stride <= MAX_STRIDE) at 8K: 8193 * 1 and
    * a stride of 8193 over a 1x1 input (OH = 0 / s + 1 = 1); the result is still 3 * 4. */
   struct ref_tensor *one = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){3});
   struct ref_tensor *four = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 1, 1}, (int64_t[]){4});
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 1, 1});
   a = conv_args(0, 0, 0, 0, 1, 1, 8193, 1, I32);
   expect_status(conv_i8(&a, one, four, b, 0, 0, o), TOSA_REF_UNPREDICTABLE, "dilation 8193");
   expect_ints(o, (int64_t[]){12}, 1, "dilation 8193 still computed");
   a.level_none = true;
   expect_status(conv_i8(&a, one, four, b, 0, 0, o), TOSA_REF_OK, "dilation 8193, level none");
   a = conv_args(0, 0, 0, 0, 1, 8193, 1, 1, I32);
   expect_status(conv_i8(&a, one, four, b, 0, 0, o), TOSA_REF_UNPREDICTABLE, "stride 8193");

   /* tosa_ref_conv2d_output_hw(): (7 - 1 + 1 + 0 - (3 - 1) * 2) / 3 + 1 = 2 and
    * (6 - 1 + 0 + 0 - 0) / 1 + 1 = 6. */
   int64_t oh = 0, ow = 0;
   a = conv_args(1, 0, 0, 0, 3, 1, 2, 1, I32);
   expect_status(tosa_ref_conv2d_output_hw(&a, 7, 6, 3, 1, &oh, &ow), TOSA_REF_OK, "output_hw");
   ok(oh == 2 && ow == 6, "output_hw: %lld x %lld, expected 2 x 6", (long long)oh, (long long)ow);
   a = conv_args(0, 0, 0, 0, 1, 1, 0, 1, I32);
   expect_status(tosa_ref_conv2d_output_hw(&a, 7, 6, 3, 1, &oh, &ow), TOSA_REF_ERROR,
                 "output_hw checks the dilation");
}

void
test_conv2d_float(void)
{
   struct tosa_ref_conv2d_args a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   struct ref_tensor *o;
   const int64_t s1111[] = {1, 1, 1, 1}, s1112[] = {1, 1, 1, 2}, s1[] = {1};

   /* fp32: window sums of 1..9 times 0.5, plus 0.25: 6.25, 8.25, 12.25, 14.25. */
   o = tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1});
   expect_status(
       tosa_ref_conv2d(
           &a,
           tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 3, 3, 1}, (double[]){1, 2, 3, 4, 5, 6, 7, 8, 9}),
           tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){0.5, 0.5, 0.5, 0.5}),
           t1f(REF_DTYPE_FP32, 0.25), t1f(REF_DTYPE_FP32, 0.0), t1f(REF_DTYPE_FP32, 0.0), o),
       TOSA_REF_OK, "fp32 conv");
   expect_fps(o, (double[]){6.25, 8.25, 12.25, 14.25}, 4, "fp32 conv");

   /* fp16 (acc FP16 and FP32 rows): 1 * 1 + 2^-11 * 1 = 1 + 2^-11, the fp16 tie: 0x3C00; the
    * FP64 output keeps 1 + 2^-11. */
   struct ref_tensor *hin = tf(REF_DTYPE_FP16, 4, s1112, (double[]){1.0, 0x1p-11});
   struct ref_tensor *hw = tf(REF_DTYPE_FP16, 4, s1112, (double[]){1.0, 1.0});
   for (int acc = TOSA_REF_ACC_FP16; acc <= TOSA_REF_ACC_FP32; acc++) {
      a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, (enum tosa_ref_acc_type)acc);
      o = tz(REF_DTYPE_FP16, 4, s1111);
      expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                    t1f(REF_DTYPE_FP16, 0.0), o),
                    TOSA_REF_OK, "fp16 conv");
      expect_bits(o, (uint64_t[]){0x3C00}, 1, "fp16 conv tie");
      o = tz(REF_DTYPE_FP64, 4, s1111);
      expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                    t1f(REF_DTYPE_FP16, 0.0), o),
                    TOSA_REF_OK, "fp16 conv, fp64 output");
      expect_fps(o, (double[]){1.0 + 0x1p-11}, 1, "fp16 conv, unrounded");
   }
   /* The fp16 row's zero points must be 0. */
   expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 1.0),
                                 t1f(REF_DTYPE_FP16, 0.0), tz(REF_DTYPE_FP16, 4, s1111)),
                 TOSA_REF_ERROR, "ERROR_IF(fp16 input_zp != 0)");
   expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                 t1f(REF_DTYPE_FP16, -2.0), tz(REF_DTYPE_FP16, 4, s1111)),
                 TOSA_REF_ERROR, "ERROR_IF(fp16 weight_zp != 0)");
   expect_status(tosa_ref_conv2d(&a, hin, hw, t1f(REF_DTYPE_FP16, 0.0), t1f(REF_DTYPE_FP16, 0.0),
                                 t1f(REF_DTYPE_FP16, 0.0), tz(REF_DTYPE_FP32, 4, s1111)),
                 TOSA_REF_UNSUPPORTED, "fp16 conv -> fp32 has no row");

   /* bf16 (acc FP32): 1 + 2^-8 + bias 2^-9 = 1 + 3 * 2^-9, rounded once: 0.75 ulp above 1.0,
    * so 1 + 2^-7 = 0x3F81 (rounding the dot product first would give the tie 1.0). */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   o = tz(REF_DTYPE_BF16, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_BF16, 4, s1112, (double[]){1.0, 0x1p-8}),
                                 tf(REF_DTYPE_BF16, 4, s1112, (double[]){1.0, 1.0}),
                                 t1f(REF_DTYPE_BF16, 0x1p-9), t1f(REF_DTYPE_BF16, 0.0),
                                 t1f(REF_DTYPE_BF16, 0.0), o),
                 TOSA_REF_OK, "bf16 conv");
   expect_bits(o, (uint64_t[]){0x3F81}, 1, "bf16 conv, one rounding");
   a.acc_type = TOSA_REF_ACC_FP16;
   expect_status(tosa_ref_conv2d(&a, tz(REF_DTYPE_BF16, 4, s1112), tz(REF_DTYPE_BF16, 4, s1112),
                                 tz(REF_DTYPE_BF16, 1, s1), tz(REF_DTYPE_BF16, 1, s1),
                                 tz(REF_DTYPE_BF16, 1, s1), o),
                 TOSA_REF_UNSUPPORTED, "bf16 with acc FP16 has no row");

   /* fp8e4m3 -> fp16 (acc FP16): 448 * 448 * 2 = 401408 > 65504: +inf; 0.5 * 0.25 + 1.0 =
    * 1.125 = 0x3C80. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP16);
   struct ref_tensor *ezp = t1f(REF_DTYPE_FP8E4M3, 0.0);
   o = tz(REF_DTYPE_FP16, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP8E4M3, 4, s1112, (double[]){448.0, 448.0}),
                                 tf(REF_DTYPE_FP8E4M3, 4, s1112, (double[]){448.0, 448.0}),
                                 t1f(REF_DTYPE_FP16, 0.0), ezp, ezp, o),
                 TOSA_REF_OK, "e4m3 conv overflow");
   expect_bits(o, (uint64_t[]){0x7C00}, 1, "e4m3 conv overflows fp16");
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP8E4M3, 4, s1111, (double[]){0.5}),
                                 tf(REF_DTYPE_FP8E4M3, 4, s1111, (double[]){0.25}),
                                 t1f(REF_DTYPE_FP16, 1.0), ezp, ezp, o),
                 TOSA_REF_OK, "e4m3 conv");
   expect_bits(o, (uint64_t[]){0x3C80}, 1, "e4m3 conv");
   /* fp8e5m2 -> fp16: 57344 * 2^-16 = 0.875, + 0.125 = 1.0 = 0x3C00. */
   struct ref_tensor *fzp = t1f(REF_DTYPE_FP8E5M2, 0.0);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP8E5M2, 4, s1111, (double[]){57344.0}),
                                 tf(REF_DTYPE_FP8E5M2, 4, s1111, (double[]){0x1p-16}),
                                 t1f(REF_DTYPE_FP16, 0.125), fzp, fzp, o),
                 TOSA_REF_OK, "e5m2 conv");
   expect_bits(o, (uint64_t[]){0x3C00}, 1, "e5m2 conv");
   a.acc_type = TOSA_REF_ACC_FP32;
   expect_status(tosa_ref_conv2d(&a, tz(REF_DTYPE_FP8E5M2, 4, s1111),
                                 tz(REF_DTYPE_FP8E5M2, 4, s1111), tz(REF_DTYPE_FP16, 1, s1), fzp,
                                 fzp, o),
                 TOSA_REF_UNSUPPORTED, "fp8 with acc FP32 has no row");

   /* fp32 NaN in gives NaN; padding taps are skipped: a 3x3 kernel of 2 with pad 1 over one
    * input 1 is 2. */
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   struct ref_tensor *fzero = t1f(REF_DTYPE_FP32, 0.0);
   o = tz(REF_DTYPE_FP32, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP32, 4, s1111, (double[]){NAN}),
                                 tf(REF_DTYPE_FP32, 4, s1111, (double[]){1.0}), fzero, fzero, fzero,
                                 o),
                 TOSA_REF_OK, "NaN input");
   expect_fps(o, (double[]){NAN}, 1, "NaN input");
   a = conv_args(1, 1, 1, 1, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   expect_status(tosa_ref_conv2d(&a, tf(REF_DTYPE_FP32, 4, s1111, (double[]){1.0}),
                                 tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 3, 3, 1},
                                    (double[]){2, 2, 2, 2, 2, 2, 2, 2, 2}),
                                 fzero, fzero, fzero, o),
                 TOSA_REF_OK, "fp32 padding");
   expect_fps(o, (double[]){2.0}, 1, "fp32 padding");

   /* TOSA_REF_DOT_BOUND (tosa_reference_check_dotproduct's output_bnd): input (1, -3) along x,
    * a 1x1 weight -2, bias 0. Result: -2, 6. Bound with local_bound false: every input is
    * replaced by max|x| = 3: 3 * 2 + max(0, 2^-126) = 6 + 2^-126, which is 6 in fp64; with
    * local_bound true: 1 * 2 = 2 and 6. */
   struct ref_tensor *bin = tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 2, 1}, (double[]){1.0, -3.0});
   struct ref_tensor *bw = tf(REF_DTYPE_FP32, 4, s1111, (double[]){-2.0});
   a = conv_args(0, 0, 0, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   o = tz(REF_DTYPE_FP64, 4, (int64_t[]){1, 1, 2, 1});
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero, o), TOSA_REF_OK, "result");
   expect_fps(o, (double[]){-2.0, 6.0}, 2, "result");
   a.mode = TOSA_REF_DOT_BOUND;
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero, o), TOSA_REF_OK, "bound");
   expect_fps(o, (double[]){6.0, 6.0}, 2, "bound, global input maximum");
   a.local_bound = true;
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero, o), TOSA_REF_OK, "bound");
   expect_fps(o, (double[]){2.0, 6.0}, 2, "bound, local_bound");
   expect_status(tosa_ref_conv2d(&a, bin, bw, fzero, fzero, fzero,
                                 tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 2, 1})),
                 TOSA_REF_BAD_ARGUMENT, "the bound needs an FP64 output");

   /* tosa_extra_multiplies: weight (NaN, 2) with pad_left 1 over one input 1. The result skips
    * the tap in the padding: 1 * 2 = 2. The bound does the multiply 0 * NaN: NaN. */
   struct ref_tensor *nw = tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 1, 2, 1}, (double[]){NAN, 2.0});
   struct ref_tensor *in1 = tf(REF_DTYPE_FP32, 4, s1111, (double[]){1.0});
   a = conv_args(0, 0, 1, 0, 1, 1, 1, 1, TOSA_REF_ACC_FP32);
   o = tz(REF_DTYPE_FP64, 4, s1111);
   expect_status(tosa_ref_conv2d(&a, in1, nw, fzero, fzero, fzero, o), TOSA_REF_OK,
                 "NaN weight in the padding");
   expect_fps(o, (double[]){2.0}, 1, "NaN weight in the padding: skipped");
   a.mode = TOSA_REF_DOT_BOUND;
   a.local_bound = true;
   expect_status(tosa_ref_conv2d(&a, in1, nw, fzero, fzero, fzero, o), TOSA_REF_OK,
                 "NaN weight in the padding, bound");
   expect_fps(o, (double[]){NAN}, 1, "NaN weight in the padding: the bound multiplies");
}
