/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Unit tests of the CPU TOSA reference (test_tosa_ref): RESIZE (image.adoc, RESIZE.tosac).
 *
 * Every expected value below was worked out by hand from the pseudocode; the comment next to a
 * case gives the working. None comes from running the code under test.
 */
#include "ref_test.h"

static struct tosa_ref_resize_args
rz_args(enum tosa_ref_resize_mode mode, int32_t yn, int32_t yd, int32_t xn, int32_t xd,
        int32_t off_y, int32_t off_x, int32_t bord_y, int32_t bord_x)
{
   return (struct tosa_ref_resize_args){.mode = mode,
                                        .scale = {yn, yd, xn, xd},
                                        .offset = {off_y, off_x},
                                        .border = {bord_y, bord_x},
                                        .scale_length = 4,
                                        .offset_length = 2,
                                        .border_length = 2};
}

/* One ERROR_IF: args over a 1x2x2x1 i8 input with a 1 x oh x ow x 1 output is rejected. */
static void
expect_error(const struct tosa_ref_resize_args *a, int64_t oh, int64_t ow, const char *what)
{
   struct ref_tensor *in = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 2, 3, 4});
   struct ref_tensor *o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, oh, ow, 1});
   expect_status(tosa_ref_resize(a, in, o), TOSA_REF_ERROR, what);
}

void
test_resize(void)
{
   const enum tosa_ref_resize_mode NN = TOSA_REF_RESIZE_NEAREST, BL = TOSA_REF_RESIZE_BILINEAR;
   struct tosa_ref_resize_args a;
   struct ref_tensor *o;
   struct ref_tensor *in22 = ti(REF_DTYPE_I8, 4, (int64_t[]){1, 2, 2, 1}, (int64_t[]){1, 2, 3, 4});

   /* [[1,2],[3,4]], scale 2/1 both axes, no offset or border: OH = (1 * 2 - 0 + 0) / 1 + 1 = 3.
    * oy 0: y 0, iy 0, ry 0 -> row 0; oy 1: y 1, iy 0, ry 1, 2 * 1 >= 2 (a tie: up) -> row 1;
    * oy 2: y 2, iy 1, ry 0 -> row 1. Columns alike. */
   a = rz_args(NN, 2, 1, 2, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(tosa_ref_resize(&a, in22, o), TOSA_REF_OK, "nearest x2");
   expect_ints(o, (int64_t[]){1, 2, 2, 3, 4, 4, 3, 4, 4}, 9, "nearest x2 (ties up)");

   /* BILINEAR i8 -> i32, the same geometry, unit 2: (0,0) = 1 * 2 * 2 = 4; (0,1): rx 1, taps
    * 0 and 1: 1 * 2 * 1 + 2 * 2 * 1 = 6; (0,2): ix 1, ix1 = min(2, 1) = 1: 2 * 4 = 8; (1,0):
    * 1 * 1 * 2 + 3 * 1 * 2 = 8; (1,1): 1 + 2 + 3 + 4 = 10; (1,2): 2 * 2 + 4 * 2 = 12; row 2
    * (iy0 = iy1 = 1): 3 * 4 = 12, 3 * 2 + 4 * 2 = 14, 4 * 4 = 16. Unnormalised: x (2 * 2). */
   a = rz_args(BL, 2, 1, 2, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(tosa_ref_resize(&a, in22, o), TOSA_REF_OK, "bilinear i8 x2");
   expect_ints(o, (int64_t[]){4, 6, 8, 8, 10, 12, 12, 14, 16}, 9, "bilinear i8 x2 unnormalised");

   /* The same in fp32: unit 1.0, the values above / 4. */
   a = rz_args(BL, 2, 1, 2, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_FP32, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(tosa_ref_resize(
                     &a, tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){1, 2, 3, 4}), o),
                 TOSA_REF_OK, "bilinear fp32 x2");
   expect_fps(o, (double[]){1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4}, 9, "bilinear fp32 x2");

   /* Negative offset, downscale x 2/4, border 1 over [10,20,30,40] (IH 1: OH = 0 / 1 + 1 = 1;
    * OW = ((4 - 1) * 2 + 1 + 1) / 4 + 1 = 3). x = 4 ox - 1: ox 0: x -1, ix = floor(-1 / 2) =
    * -1, rx 1 (a tie: up) -> ix1 = 0 -> 10; ox 1: x 3, ix 1, rx 1 -> 2 -> 30; ox 2: x 7, ix 3,
    * rx 1 -> ix1 = min(4, 3) = 3 -> 40. */
   struct ref_tensor *in4 =
       ti(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 4, 1}, (int64_t[]){10, 20, 30, 40});
   a = rz_args(NN, 1, 1, 2, 4, 0, -1, 0, 1);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 1, 3, 1});
   expect_status(tosa_ref_resize(&a, in4, o), TOSA_REF_OK, "nearest negative offset");
   expect_ints(o, (int64_t[]){10, 30, 40}, 3, "nearest negative offset, clamped");
   /* BILINEAR of it, unit_y 1 (ry 0, both rows 0), unit_x 2: ox 0: taps clamp to 0 and 0, rx 1:
    * 10 * 1 + 10 * 1 = 20; ox 1: taps 1, 2: 20 + 30 = 50; ox 2: taps 3, 3: 40 + 40 = 80. */
   a = rz_args(BL, 1, 1, 2, 4, 0, -1, 0, 1);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 1, 3, 1});
   expect_status(tosa_ref_resize(&a, in4, o), TOSA_REF_OK, "bilinear negative offset");
   expect_ints(o, (int64_t[]){20, 50, 80}, 3, "bilinear negative offset, clamped");

   /* Below a tie: scale_x 3/1 over [10,20] (OW = (1 * 3) / 1 + 1 = 4): x = ox; ox 1: rx 1,
    * 2 < 3 -> 10; ox 2: rx 2, 4 >= 3 -> 20; ox 3: ix 1 -> 20. */
   a = rz_args(NN, 1, 1, 3, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 4, 1});
   expect_status(
       tosa_ref_resize(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 1, 2, 1}, (int64_t[]){10, 20}), o),
       TOSA_REF_OK, "nearest i16 x3");
   expect_ints(o, (int64_t[]){10, 10, 20, 20}, 4, "nearest i16 x3");

   /* i16 -> i48 beyond i32: all -32768, scale 2048/8 (ratio 256, level 8K's MAX_SCALE): OH =
    * (1 * 2048) / 8 + 1 = 257; the weights of every output sum to 2048 * 2048 = 2^22, so each
    * is -2^15 * 2^22 = -2^37 = -137438953472. */
   int64_t m[4] = {-32768, -32768, -32768, -32768};
   a = rz_args(BL, 2048, 8, 2048, 8, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I48, 4, (int64_t[]){1, 257, 257, 1});
   expect_status(tosa_ref_resize(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 2, 2, 1}, m), o),
                 TOSA_REF_OK, "bilinear i16 -> i48");
   int64_t want48[3] = {-INT64_C(137438953472), -INT64_C(137438953472), -INT64_C(137438953472)};
   int64_t got48[3] = {ref_tensor_get_int(o, 0), ref_tensor_get_int(o, 128 * 257 + 77),
                       ref_tensor_get_int(o, o->count - 1)};
   struct ref_tensor *g48 = ti(REF_DTYPE_I48, 1, (int64_t[]){3}, got48);
   expect_ints(g48, want48, 3, "bilinear i16 -> i48: -2^37");
   /* A ratio above 256 is a level failure (UNPREDICTABLE), not an ERROR_IF: 2048/1, OH 2049. */
   a = rz_args(BL, 2048, 1, 1, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I48, 4, (int64_t[]){1, 2049, 2, 1});
   expect_status(tosa_ref_resize(&a, ti(REF_DTYPE_I16, 4, (int64_t[]){1, 2, 2, 1}, m), o),
                 TOSA_REF_UNPREDICTABLE, "MAX_SCALE level");

   /* A mode the integer row is not for, and a mode that is none. */
   a = rz_args(BL, 2, 1, 2, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(tosa_ref_resize(&a, in22, o), TOSA_REF_UNSUPPORTED, "bilinear i8 -> i8");
   a = rz_args(NN, 2, 1, 2, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I32, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(tosa_ref_resize(&a, in22, o), TOSA_REF_UNSUPPORTED, "nearest i8 -> i32");
   a = rz_args((enum tosa_ref_resize_mode)3, 2, 1, 2, 1, 0, 0, 0, 0);
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(tosa_ref_resize(&a, in22, o), TOSA_REF_UNSUPPORTED, "mode 3");

   /* Each ERROR_IF, on the 2x2 input (a valid geometry would be scale 2/1, OH = OW = 3). */
   a = rz_args(NN, 0, 1, 2, 1, 0, 0, 0, 0);
   expect_error(&a, 3, 3, "scale_y_n <= 0");
   a = rz_args(NN, 2, 1, 2, -1, 0, 0, 0, 0);
   expect_error(&a, 3, 3, "scale_x_d <= 0");
   a = rz_args(NN, 4096, 2048, 2, 1, 0, 0, 0, 0); /* OH = 4096 / 2048 + 1 = 3 */
   expect_error(&a, 3, 3, "scale_y_n > 2048");
   a = rz_args(NN, 1, 16, 2, 1, 0, 0, 0, 0); /* d = 16 n */
   expect_error(&a, 1, 3, "scale_y_d >= 16 scale_y_n");
   a = rz_args(NN, 2, 1, 2, 1, -3, 0, 0, 0);
   expect_error(&a, 6, 3, "offset_y < -scale_y_n");
   a = rz_args(NN, 2, 1, 2, 1, 0, 32, 0, 0);
   expect_error(&a, 3, 1, "offset_x >= 16 scale_x_n");
   a = rz_args(NN, 2, 1, 2, 1, 0, 0, 2, 0);
   expect_error(&a, 5, 3, "border_y >= scale_y_n");
   a = rz_args(NN, 2, 1, 2, 1, 0, 0, 0, -33);
   expect_error(&a, 3, 1, "border_x < -16 scale_x_n");
   a = rz_args(NN, 2, 2, 2, 1, 0, 0, 1, 0); /* (2 + 1) % 2 != 0 */
   expect_error(&a, 2, 3, "OH idiv_check");
   a = rz_args(NN, 2, 1, 2, 1, 0, 0, 0, 0);
   expect_error(&a, 3, 4, "OW != 3");
   o = tz(REF_DTYPE_I8, 4, (int64_t[]){1, 16384, 1, 1});
   a = rz_args(NN, 1, 1, 1, 1, 0, 0, 0, 0);
   expect_status(tosa_ref_resize(&a, tz(REF_DTYPE_I8, 4, (int64_t[]){1, 16384, 1, 1}), o),
                 TOSA_REF_ERROR, "IH >= 16384");

   /* The bound: fp16 with max |x| = 2: 20 * 2 * 2^-10 = 0.0390625 > 2 * 0.006; fp32: 20 * 2 *
    * 2^-23 < 0.012 = the relative bound. A NaN does not count. */
   struct ref_tensor *b = tz(REF_DTYPE_FP64, 4, (int64_t[]){1, 3, 3, 1});
   expect_status(
       tosa_ref_resize_bound(
           tf(REF_DTYPE_FP16, 4, (int64_t[]){1, 2, 2, 1}, (double[]){1, -2, NAN, 0.5}), b),
       TOSA_REF_OK, "bound fp16");
   expect_fps(b,
              (double[]){0.0390625, 0.0390625, 0.0390625, 0.0390625, 0.0390625, 0.0390625,
                         0.0390625, 0.0390625, 0.0390625},
              9, "bound fp16");
   expect_status(tosa_ref_resize_bound(
                     tf(REF_DTYPE_FP32, 4, (int64_t[]){1, 2, 2, 1}, (double[]){1, -2, 0, 0.5}), b),
                 TOSA_REF_OK, "bound fp32");
   expect_fps(b, (double[]){0.012, 0.012, 0.012, 0.012, 0.012, 0.012, 0.012, 0.012, 0.012}, 9,
              "bound fp32");
}
