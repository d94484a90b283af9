/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * FFT2D and RFFT2D of the reference (TOSA 1.0.1 chapters/tensor_ops.adoc,
 * pseudocode/operators/FFT2D.tosac, RFFT2D.tosac): the direct DFT the
 * pseudocode writes, in fp64 (TOSA_REF_DOT_RESULT), with the angle reduced as
 * it is ((iy * oy) mod H, (ix * ox) mod W); RFFT2D's imaginary sum skips the
 * terms whose sine is exactly zero (tosa_extra_multiplies false), so that the
 * four purely real bins are exactly 0. TOSA_REF_DOT_BOUND is output_bnd of
 * the precision requirements: each output a dot product of the interleaved
 * input (re, im) with the coefficients (cos, sin), every |input| replaced by
 * max(max |input|, normal_min) unless local_bound, every |coefficient| by
 * max(|c|, normal_min), all multiplies done.
 */
#include "ref_internal.h"

#include <math.h>

static const double ref_two_pi = 6.28318530717958647692528676655900577;

static bool
power_of_two(int64_t v)
{
   return v > 0 && (v & (v - 1)) == 0;
}

static int
check_fft(const char *op, const struct ref_tensor *in, const struct ref_tensor *out_re,
          const struct ref_tensor *out_im, int64_t out_w, bool level_none)
{
   if (in->rank != 3 || out_re->rank != 3 || out_im->rank != 3)
      return ref_status(TOSA_REF_ERROR, "%s: tensors must be rank 3", op);
   if (!power_of_two(in->shape[1]) || !power_of_two(in->shape[2]))
      return ref_status(TOSA_REF_ERROR,
                        "%s: ERROR_IF(!power_of_two(H) || !power_of_two(W)): %lld %lld", op,
                        (long long)in->shape[1], (long long)in->shape[2]);
   for (int i = 0; i < 3; i++) {
      int64_t want = i == 2 ? out_w : in->shape[i];
      if (out_re->shape[i] != want || out_im->shape[i] != want)
         return ref_status(TOSA_REF_ERROR, "%s: output dimension %d must be %lld", op, i,
                           (long long)want);
   }
   int64_t max_kernel = level_none ? REF_LEVEL_NONE_MAX_KERNEL : REF_LEVEL_8K_MAX_KERNEL;
   if (in->shape[1] > max_kernel || in->shape[2] > max_kernel)
      return ref_status(TOSA_REF_UNPREDICTABLE, "%s: LEVEL_CHECK(H, W <= %lld)", op,
                        (long long)max_kernel);
   return TOSA_REF_OK;
}

static bool
fft_types_ok(const struct ref_tensor *in, const struct ref_tensor *out_re,
             const struct ref_tensor *out_im, enum tosa_ref_dot_mode mode)
{
   enum ref_dtype o = out_re->dtype;
   if (in->dtype != REF_DTYPE_FP32 || out_im->dtype != o)
      return false;
   return mode == TOSA_REF_DOT_BOUND ? o == REF_DTYPE_FP64
                                     : o == REF_DTYPE_FP32 || o == REF_DTYPE_FP64;
}

static double
abs_max(const struct ref_tensor *a, const struct ref_tensor *b)
{
   double m = ref_dtype_normal_min(REF_DTYPE_FP32);
   const struct ref_tensor *t[2] = {a, b};
   for (int k = 0; k < 2; k++) {
      for (int64_t i = 0; t[k] && i < t[k]->count; i++) {
         double v = fabs(ref_tensor_get_fp(t[k], i));
         m = isnan(v) || v > m ? v : m;
      }
   }
   return m;
}

static double
bound_abs(double v)
{
   double nmin = ref_dtype_normal_min(REF_DTYPE_FP32);
   return fabs(v) > nmin ? fabs(v) : nmin;
}

/* The common DFT: im NULL for RFFT2D (a real input, the output width out_w). */
static int
dft(const char *op, const struct tosa_ref_fft2d_args *args, const struct ref_tensor *re,
    const struct ref_tensor *im, struct ref_tensor *out_re, struct ref_tensor *out_im,
    int64_t out_w)
{
   int st = check_fft(op, re, out_re, out_im, out_w, args->level_none);
   if (st < 0)
      return st;
   int64_t n_ = re->shape[0], h = re->shape[1], w = re->shape[2];
   bool bound = args->mode == TOSA_REF_DOT_BOUND;
   double gmax = bound && !args->local_bound ? abs_max(re, im) : 0.0;
   double sign = args->inverse ? -1.0 : 1.0;
   for (int64_t n = 0; n < n_; n++) {
      for (int64_t oy = 0; oy < h; oy++) {
         for (int64_t ox = 0; ox < out_w; ox++) {
            double sum_re = 0.0, sum_im = 0.0;
            for (int64_t iy = 0; iy < h; iy++) {
               for (int64_t ix = 0; ix < w; ix++) {
                  int64_t at = (n * h + iy) * w + ix;
                  double vr = ref_tensor_get_fp(re, at);
                  double vi = im ? ref_tensor_get_fp(im, at) : 0.0;
                  int64_t ay = (iy * oy) % h, ax = (ix * ox) % w;
                  double a = sign * ref_two_pi * ((double)ay / (double)h + (double)ax / (double)w);
                  double c = cos(a), s = sin(a);
                  if (bound) {
                     double xr = args->local_bound ? bound_abs(vr) : gmax;
                     double xi = args->local_bound ? bound_abs(vi) : gmax;
                     sum_re += xr * bound_abs(c) + (im ? xi * bound_abs(s) : 0.0);
                     sum_im += xr * bound_abs(s) + (im ? xi * bound_abs(c) : 0.0);
                     continue;
                  }
                  sum_re += vr * c + vi * s;
                  /* RFFT2D.tosac adds the sine term only where it is not exactly zero. */
                  if (im || (h > 1 && ay % (h / 2) > 0) || (w > 1 && ax % (w / 2) > 0))
                     sum_im += -vr * s + vi * c;
               }
            }
            int64_t o = (n * h + oy) * out_w + ox;
            ref_tensor_set_fp(out_re, o, sum_re);
            ref_tensor_set_fp(out_im, o, sum_im);
         }
      }
   }
   return st;
}

int
tosa_ref_fft2d(const struct tosa_ref_fft2d_args *args, const struct ref_tensor *input_real,
               const struct ref_tensor *input_imag, struct ref_tensor *output_real,
               struct ref_tensor *output_imag)
{
   if (!args || !ref_tensor_valid(input_real) || !ref_tensor_valid(input_imag) ||
       !ref_tensor_valid(output_real) || !ref_tensor_valid(output_imag))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "FFT2D: NULL or invalid argument");
   if (!fft_types_ok(input_real, output_real, output_imag, args->mode) ||
       input_imag->dtype != REF_DTYPE_FP32)
      return ref_status(TOSA_REF_UNSUPPORTED, "FFT2D: no type-support row (fp32 only)");
   if (input_imag->rank != 3 || input_real->rank != 3)
      return ref_status(TOSA_REF_ERROR, "FFT2D: inputs must be rank 3");
   for (int i = 0; i < 3; i++) {
      if (input_imag->shape[i] != input_real->shape[i])
         return ref_status(TOSA_REF_ERROR, "FFT2D: input_imag's shape differs from input_real's");
   }
   return dft("FFT2D", args, input_real, input_imag, output_real, output_imag,
              input_real->shape[2]);
}

int
tosa_ref_rfft2d(const struct tosa_ref_fft2d_args *args, const struct ref_tensor *input_real,
                struct ref_tensor *output_real, struct ref_tensor *output_imag)
{
   if (!args || !ref_tensor_valid(input_real) || !ref_tensor_valid(output_real) ||
       !ref_tensor_valid(output_imag))
      return ref_status(TOSA_REF_BAD_ARGUMENT, "RFFT2D: NULL or invalid argument");
   if (!fft_types_ok(input_real, output_real, output_imag, args->mode))
      return ref_status(TOSA_REF_UNSUPPORTED, "RFFT2D: no type-support row (fp32 only)");
   if (input_real->rank != 3)
      return ref_status(TOSA_REF_ERROR, "RFFT2D: input must be rank 3");
   struct tosa_ref_fft2d_args a = *args;
   a.inverse = false;
   return dft("RFFT2D", &a, input_real, NULL, output_real, output_imag,
              input_real->shape[2] / 2 + 1);
}
