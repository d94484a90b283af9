/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * RESIZE of the reference (TOSA 1.0.1 chapters/image.adoc, pseudocode/operators/RESIZE.tosac):
 * NEAREST_NEIGHBOR and BILINEAR over an NHWC input, the sample position of output (oy, ox) being
 * y = oy * scale_y_d + offset_y in units of 1 / scale_y_n of an input row (likewise x), its
 * integer part idiv_floor(y, scale_y_n) and remainder ry; the two taps iy0 = max(iy, 0) and
 * iy1 = min(iy + 1, IH - 1) (clamped to the input). NEAREST takes iy1 where 2 * ry >= scale_y_n
 * (float: ry / scale_y_n >= 0.5): ties go up. BILINEAR weights the four taps by
 * (unit - d) and d, unit = scale_n for integers (the result scaled by scale_y_n * scale_x_n,
 * unnormalised) and 1.0 for floats (d = r / scale_n), in the pseudocode's order, computed here in
 * fp64 and rounded once to the output type.
 */
#include "ref_internal.h"

#include <math.h>

/* Level 8K's MAX_SCALE (and level none's): scale_n / scale_d after reducing the ratio. */
#define RESIZE_LEVEL_8K_MAX_SCALE 256
#define RESIZE_LEVEL_NONE_MAX_SCALE 2048

/* The type-support rows of TOSA.001000.1 (input, output), with the mode TOSA names each integer
 * row for: i8 -> i32 and i16 -> i48 are BILINEAR's ("signed 8, bilinear"), i8 -> i8 and i16 ->
 * i16 NEAREST's; a float row takes either mode (its output may be FP64). */
static bool
resize_row(enum tosa_ref_resize_mode mode, enum ref_dtype in, enum ref_dtype out)
{
   bool bilinear = mode == TOSA_REF_RESIZE_BILINEAR;
   switch (in) {
   case REF_DTYPE_I8:
      return out == (bilinear ? REF_DTYPE_I32 : REF_DTYPE_I8);
   case REF_DTYPE_I16:
      return out == (bilinear ? REF_DTYPE_I48 : REF_DTYPE_I16);
   case REF_DTYPE_FP16:
   case REF_DTYPE_BF16:
   case REF_DTYPE_FP32:
      return out == in || out == REF_DTYPE_FP64;
   default:
      return false;
   }
}

/* idiv_floor (generic_helpers.tosac), for a positive divisor. */
static int64_t
idiv_floor(int64_t a, int64_t b)
{
   int64_t q = a / b;
   if (q * b > a)
      q--;
   return q;
}

/* ERROR_IF(out != idiv_check(num, d) + 1). */
static int
check_out_size(const char *out_name, const char *formula, int64_t num, int64_t d, int64_t out)
{
   if (num % d != 0)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(%s != idiv_check(%s, scale_d) + 1): %lld %% %lld != 0",
                        out_name, formula, (long long)num, (long long)d);
   if (num / d + 1 != out)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(%s != idiv_check(%s, scale_d) + 1): %s is %lld, not %lld",
                        out_name, formula, out_name, (long long)out, (long long)(num / d + 1));
   return TOSA_REF_OK;
}

/* Every ERROR_IF of RESIZE.tosac, in its order. */
static int
check_resize(const struct tosa_ref_resize_args *a, const struct ref_tensor *in,
             const struct ref_tensor *out)
{
   if (in->rank != 4 || out->rank != 4)
      return ref_status(TOSA_REF_ERROR, "RESIZE: input and output must be rank 4 (%u, %u)",
                        in->rank, out->rank);
   if (a->scale_length != 4 || a->offset_length != 2 || a->border_length != 2)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: scale, offset and border must have 4, 2 and 2 entries (%u, %u, "
                        "%u)",
                        a->scale_length, a->offset_length, a->border_length);
   int64_t ih = in->shape[1], iw = in->shape[2], oh = out->shape[1], ow = out->shape[2];
   int64_t yn = a->scale[0], yd = a->scale[1], xn = a->scale[2], xd = a->scale[3];
   int64_t oy = a->offset[0], ox = a->offset[1], by = a->border[0], bx = a->border[1];
   if (out->shape[0] != in->shape[0] || out->shape[3] != in->shape[3])
      return ref_status(TOSA_REF_ERROR, "RESIZE: output N, C (%lld, %lld) must be (%lld, %lld)",
                        (long long)out->shape[0], (long long)out->shape[3], (long long)in->shape[0],
                        (long long)in->shape[3]);
   if (oh >= 16384 || ow >= 16384 || ih >= 16384 || iw >= 16384)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(max(OH, OW, IH, IW) >= 16384): %lld %lld %lld %lld",
                        (long long)oh, (long long)ow, (long long)ih, (long long)iw);
   if (yn <= 0 || yd <= 0 || xn <= 0 || xd <= 0)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(scale_y_n <= 0 || scale_y_d <= 0 || scale_x_n <= 0 || "
                        "scale_x_d <= 0): [%lld, %lld, %lld, %lld]",
                        (long long)yn, (long long)yd, (long long)xn, (long long)xd);
   if (yn > 2048 || xn > 2048)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(scale_y_n > (1 << 11) || scale_x_n > (1 << 11)): %lld "
                        "%lld",
                        (long long)yn, (long long)xn);
   if (yd >= 16 * yn || xd >= 16 * xn)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(scale_y_d >= 16 * scale_y_n || scale_x_d >= 16 * "
                        "scale_x_n)");
   if (oy < -yn || oy >= 16 * yn)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(offset_y < -scale_y_n || offset_y >= 16 * scale_y_n): "
                        "%lld",
                        (long long)oy);
   if (ox < -xn || ox >= 16 * xn)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(offset_x < -scale_x_n || offset_x >= 16 * scale_x_n): "
                        "%lld",
                        (long long)ox);
   if (by < -16 * yn || by >= yn)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(border_y < -16 * scale_y_n || border_y >= scale_y_n): "
                        "%lld",
                        (long long)by);
   if (bx < -16 * xn || bx >= xn)
      return ref_status(TOSA_REF_ERROR,
                        "RESIZE: ERROR_IF(border_x < -16 * scale_x_n || border_x >= scale_x_n): "
                        "%lld",
                        (long long)bx);
   int st = check_out_size("OH", "(IH - 1) * scale_y_n - offset_y + border_y",
                           (ih - 1) * yn - oy + by, yd, oh);
   if (st != TOSA_REF_OK)
      return st;
   return check_out_size("OW", "(IW - 1) * scale_x_n - offset_x + border_x",
                         (iw - 1) * xn - ox + bx, xd, ow);
}

/* The sample taps along one axis of output coordinate o. */
struct resize_axis {
   int64_t i0, i1; /* clamped taps */
   int64_t r;      /* the remainder, 0 .. scale_n - 1 */
};

static struct resize_axis
resize_axis(int64_t o, int64_t n, int64_t d, int64_t offset, int64_t size)
{
   int64_t pos = o * d + offset;
   int64_t i = idiv_floor(pos, n);
   struct resize_axis ax = {.r = pos - i * n};
   ax.i0 = i > 0 ? i : 0;
   ax.i1 = i + 1 < size - 1 ? i + 1 : size - 1;
   return ax;
}

int
tosa_ref_resize(const struct tosa_ref_resize_args *args, const struct ref_tensor *input,
                struct ref_tensor *output)
{
   if (!args || !ref_tensor_valid(input) || !ref_tensor_valid(output))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "RESIZE: NULL or invalid argument");
   if (args->mode != TOSA_REF_RESIZE_NEAREST && args->mode != TOSA_REF_RESIZE_BILINEAR)
      return ref_status(TOSA_REF_UNSUPPORTED, "RESIZE: mode %d is not valid", (int)args->mode);
   if (!resize_row(args->mode, input->dtype, output->dtype))
      return ref_status(TOSA_REF_UNSUPPORTED, "RESIZE: no type-support row for %s -> %s (%s)",
                        ref_dtype_name(input->dtype), ref_dtype_name(output->dtype),
                        args->mode == TOSA_REF_RESIZE_BILINEAR ? "BILINEAR" : "NEAREST");
   int st = check_resize(args, input, output);
   if (st != TOSA_REF_OK)
      return st;

   int64_t yn = args->scale[0], yd = args->scale[1], xn = args->scale[2], xd = args->scale[3];
   int64_t max_scale = args->level_none ? RESIZE_LEVEL_NONE_MAX_SCALE : RESIZE_LEVEL_8K_MAX_SCALE;
   if (yn > max_scale * yd || xn > max_scale * xd)
      st = ref_status(TOSA_REF_UNPREDICTABLE,
                      "RESIZE: LEVEL_CHECK(scale_n / scale_d <= MAX_SCALE %lld): y %lld/%lld, x "
                      "%lld/%lld",
                      (long long)max_scale, (long long)yn, (long long)yd, (long long)xn,
                      (long long)xd);

   bool is_float = ref_dtype_is_float(input->dtype);
   bool bilinear = args->mode == TOSA_REF_RESIZE_BILINEAR;
   int64_t n_ = input->shape[0], ih = input->shape[1], iw = input->shape[2], c_ = input->shape[3];
   int64_t oh = output->shape[1], ow = output->shape[2];
   for (int64_t n = 0; n < n_; n++) {
      for (int64_t oy = 0; oy < oh; oy++) {
         struct resize_axis y = resize_axis(oy, yn, yd, args->offset[0], ih);
         for (int64_t ox = 0; ox < ow; ox++) {
            struct resize_axis x = resize_axis(ox, xn, xd, args->offset[1], iw);
            int64_t row0 = (n * ih + y.i0) * iw, row1 = (n * ih + y.i1) * iw;
            int64_t out_at = ((n * oh + oy) * ow + ox) * c_;
            for (int64_t c = 0; c < c_; c++) {
               int64_t a00 = (row0 + x.i0) * c_ + c, a01 = (row0 + x.i1) * c_ + c;
               int64_t a10 = (row1 + x.i0) * c_ + c, a11 = (row1 + x.i1) * c_ + c;
               if (!bilinear) {
                  /* NEAREST: integer 2 * r >= scale_n, float r / scale_n >= 0.5 in fp64 (the
                   * compliance reference), which is the same test: below 0.5, r / scale_n is
                   * at least 1 / (2 scale_n) away from it. Ties (2 r == scale_n) go up. */
                  bool up_y = 2 * y.r >= yn, up_x = 2 * x.r >= xn;
                  int64_t at = up_y ? (up_x ? a11 : a10) : (up_x ? a01 : a00);
                  if (output->dtype == REF_DTYPE_FP64)
                     ref_tensor_set_fp(output, out_at + c, ref_tensor_get_fp(input, at));
                  else
                     ref_tensor_set_bits(output, out_at + c, ref_tensor_get_bits(input, at));
               } else if (is_float) {
                  double dy = (double)y.r / (double)yn, dx = (double)x.r / (double)xn;
                  double acc = ref_tensor_get_fp(input, a00) * (1.0 - dy) * (1.0 - dx);
                  acc += ref_tensor_get_fp(input, a01) * (1.0 - dy) * dx;
                  acc += ref_tensor_get_fp(input, a10) * dy * (1.0 - dx);
                  acc += ref_tensor_get_fp(input, a11) * dy * dx;
                  ref_tensor_set_fp(output, out_at + c, acc);
               } else {
                  /* unit = scale_n: |acc| <= 2^15 * 2^22, exact in int64 (and within i32 for
                   * an i8 input, within i48 for i16). */
                  int64_t acc = ref_tensor_get_int(input, a00) * (yn - y.r) * (xn - x.r);
                  acc += ref_tensor_get_int(input, a01) * (yn - y.r) * x.r;
                  acc += ref_tensor_get_int(input, a10) * y.r * (xn - x.r);
                  acc += ref_tensor_get_int(input, a11) * y.r * x.r;
                  ref_tensor_set_int(output, out_at + c, acc);
               }
            }
         }
      }
   }
   return st;
}

int
tosa_ref_resize_bound(const struct ref_tensor *input, struct ref_tensor *bound)
{
   if (!ref_tensor_valid(input) || !ref_tensor_valid(bound) || bound->dtype != REF_DTYPE_FP64 ||
       !ref_dtype_is_float(input->dtype) || input->dtype == REF_DTYPE_FP64)
      return ref_status(TOSA_REF_BAD_ARGUMENT, "RESIZE bound: a float input and an FP64 bound");
   /* max(abs(input)) over the whole input (NaN elements do not count: fmax skips them). */
   double max_abs = 0.0;
   for (int64_t i = 0; i < input->count; i++)
      max_abs = fmax(max_abs, fabs(ref_tensor_get_fp(input, i)));
   double ulp_bnd = tosa_ref_calc_abs_error_bound(input->dtype, max_abs, 20.0, 0.0, 1.0);
   double relative_bnd = max_abs * 0.006;
   double err_bnd = ulp_bnd > relative_bnd ? ulp_bnd : relative_bnd;
   for (int64_t i = 0; i < bound->count; i++)
      ref_tensor_set_fp(bound, i, err_bnd);
   return TOSA_REF_OK;
}
