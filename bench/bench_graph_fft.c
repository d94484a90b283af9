/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * bench_graph's FFT graphs (bench_graph.h; issue 12):
 *   fft2d_8x256x256    FFT2D fp32 [8, 256, 256] (a row and a column pass, lines in shared
 *                      memory);
 *   fft2d_1x1024x1024  FFT2D fp32 [1, 1024, 1024];
 *   fft2d_8x64x64      FFT2D fp32 [8, 64, 64], the size of
 *   dft_8x64x64        the direct DFT of the same [8, 64, 64] transform by the layer's own
 *                      MATMUL, real part: the interleaved input [1, 8, 2 H W] (re, im) times
 *                      the constant [1, 2 H W, H W] (cos, sin) rows of the DFT matrix (128 MiB,
 *                      maxTensorSize; the imaginary part would be as many MACs again),
 *                      O((H W)^2) per image. A naive variant kept for the benchmark only: twice
 *                      its time, scaled by (H W)^2 N, extrapolates the full direct DFT to the
 *                      large sizes (docs/decisions.md D38 gives the ratios).
 * The FFT graphs output the real part (the imaginary part is the node's other result, an
 * intermediate); it is checked against a CPU radix-2 FFT in fp64 with the dot-product
 * requirement (KS = 2 H W), the bound taken as max |input| * 2 H W, above TOSA's
 * max |input| * sum(|cos| + |sin|): a slightly looser check than the conformance one.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_graph.h"

#define SEED UINT64_C(0x62656e63682d6666) /* "bench-ff" */

static const double two_pi = 6.28318530717958647692528676655900577;

static void
fft_text_head(struct bench_text *t, int64_t n, int64_t h, int64_t w)
{
   bench_text_header(t, NULL, 3);
   bench_text_printf(t,
                     "%%uint = OpTypeInt 32 0\n"
                     "%%bool = OpTypeBool\n"
                     "%%false = OpConstantFalse %%bool\n"
                     "%%f32 = OpTypeFloat 32\n"
                     "%%u0 = OpConstant %%uint 0\n"
                     "%%u1 = OpConstant %%uint 1\n"
                     "%%u3 = OpConstant %%uint 3\n"
                     "%%n = OpConstant %%uint %" PRId64 "\n"
                     "%%h = OpConstant %%uint %" PRId64 "\n"
                     "%%w = OpConstant %%uint %" PRId64 "\n"
                     "%%dim3 = OpTypeArray %%uint %%u3\n"
                     "%%shape = OpConstantComposite %%dim3 %%n %%h %%w\n"
                     "%%t = OpTypeTensorARM %%f32 %%u3 %%shape\n"
                     "%%st = OpTypeStruct %%t %%t\n"
                     "%%ptr = OpTypePointer UniformConstant %%t\n"
                     "%%v0 = OpVariable %%ptr UniformConstant\n"
                     "%%v1 = OpVariable %%ptr UniformConstant\n"
                     "%%v2 = OpVariable %%ptr UniformConstant\n"
                     "%%graph_type = OpTypeGraphARM 2 %%t %%t %%t\n"
                     "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1 %%v2\n"
                     "%%graph = OpGraphARM %%graph_type\n"
                     "%%re = OpGraphInputARM %%t %%u0\n"
                     "%%im = OpGraphInputARM %%t %%u1\n"
                     "%%r = OpExtInst %%st %%tosa FFT2D %%false %%false %%re %%im\n"
                     "%%out = OpCompositeExtract %%t %%r 0\n"
                     "OpGraphSetOutputARM %%out %%u0\n"
                     "OpGraphEndARM\n",
                     n, h, w);
}

/* In-place radix-2 FFT of len complex values (re, im) at stride `step`, forward. */
static void
cpu_fft(double *re, double *im, int64_t len, int64_t step)
{
   for (int64_t i = 1, j = 0; i < len; i++) {
      int64_t bit = len >> 1;
      for (; j & bit; bit >>= 1)
         j ^= bit;
      j ^= bit;
      if (i < j) {
         double tr = re[i * step], ti = im[i * step];
         re[i * step] = re[j * step];
         im[i * step] = im[j * step];
         re[j * step] = tr;
         im[j * step] = ti;
      }
   }
   for (int64_t m = 2; m <= len; m *= 2) {
      for (int64_t k = 0; k < m / 2; k++) {
         double c = cos(-two_pi * (double)k / (double)m), s = sin(-two_pi * (double)k / (double)m);
         for (int64_t b = 0; b < len; b += m) {
            int64_t i0 = (b + k) * step, i1 = (b + k + m / 2) * step;
            double xr = re[i1] * c - im[i1] * s, xi = re[i1] * s + im[i1] * c;
            re[i1] = re[i0] - xr;
            im[i1] = im[i0] - xi;
            re[i0] += xr;
            im[i0] += xi;
         }
      }
   }
}

static void
fft_setup(struct bench_graph *g, int64_t n, int64_t h, int64_t w)
{
   const int64_t shape[3] = {n, h, w};
   fft_text_head(&g->text, n, h, w);
   g->input_count = 2;
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 3, shape);
   g->inputs[1] = bench_tensor_new(g, REF_DTYPE_FP32, 3, shape);
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 3, shape);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 3, shape);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 3, shape);
   g->check = BENCH_CHECK_DOT;
   g->dot = (struct tosa_ref_dot_check){.out_type = REF_DTYPE_FP32,
                                        .acc_type = REF_DTYPE_FP32,
                                        .ks = 2 * h * w,
                                        .has_bias = true,
                                        .test_set = -1};
   /* 5 N H W log2(H W) flops, the usual FFT count; reported as MACs / 2. */
   g->macs = 2.5 * (double)(n * h * w) * log2((double)(h * w));
   if (g->failed)
      return;
   uint64_t rng = SEED ^ (uint64_t)(n * h * w);
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   bench_fill_float(g->inputs[1], &rng, -1.0, 1.0);
   int64_t count = n * h * w;
   double *re = malloc((size_t)count * sizeof(double)),
          *im = malloc((size_t)count * sizeof(double));
   if (!re || !im) {
      free(re);
      free(im);
      bench_graph_fail(g, "out of memory");
      return;
   }
   for (int64_t i = 0; i < count; i++) {
      re[i] = ref_tensor_get_fp(g->inputs[0], i);
      im[i] = ref_tensor_get_fp(g->inputs[1], i);
   }
   for (int64_t b = 0; b < n; b++) {
      for (int64_t y = 0; y < h; y++)
         cpu_fft(re + (b * h + y) * w, im + (b * h + y) * w, w, 1);
      for (int64_t x = 0; x < w; x++)
         cpu_fft(re + b * h * w + x, im + b * h * w + x, h, w);
   }
   for (int64_t i = 0; i < count; i++) {
      ref_tensor_set_fp(g->want, i, re[i]);
      ref_tensor_set_fp(g->bound, i, 2.0 * (double)(h * w)); /* max |input| is at most 1 */
   }
   free(re);
   free(im);
}

void
bench_setup_fft2d_8x256x256(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "fft2d_8x256x256";
   g->what = "FFT2D fp32 [8, 256, 256] (real part out)";
   g->optional = true;
   fft_setup(g, 8, 256, 256);
}

void
bench_setup_fft2d_1x1024x1024(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "fft2d_1x1024x1024";
   g->what = "FFT2D fp32 [1, 1024, 1024] (real part out)";
   g->optional = true;
   fft_setup(g, 1, 1024, 1024);
}

void
bench_setup_fft2d_8x64x64(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   g->name = "fft2d_8x64x64";
   g->what = "FFT2D fp32 [8, 64, 64] (real part out)";
   g->optional = true;
   fft_setup(g, 8, 64, 64);
}

/* The real part of the direct DFT of [8, 64, 64] as one MATMUL: A [1, 8, 2 H W] (re, im
 * interleaved) times the constant B [1, 2 H W, H W], B[2j][q] = cos a, B[2j + 1][q] = sin a
 * with a = 2 pi (jy qy / H + jx qx / W) (FFT2D.tosac's forward sum_real). */
void
bench_setup_dft_8x64x64(struct bench_graph *g, const struct bench_params *p)
{
   (void)p;
   const int64_t n = 8, h = 64, w = 64, k = 2 * h * w, q_count = h * w;
   static const int64_t one[1] = {1};
   const int64_t a_shape[3] = {1, n, k}, b_shape[3] = {1, k, q_count}, o_shape[3] = {1, n, q_count};
   g->name = "dft_8x64x64";
   g->what = "direct DFT [8, 64, 64], real part, as MATMUL fp32 (the naive O((HW)^2) baseline)";
   g->optional = true;
   g->check = BENCH_CHECK_DOT;
   g->dot = (struct tosa_ref_dot_check){.out_type = REF_DTYPE_FP32,
                                        .acc_type = REF_DTYPE_FP32,
                                        .ks = k,
                                        .has_bias = true,
                                        .test_set = -1};
   g->macs = (double)n * (double)k * (double)q_count;
   bench_text_header(&g->text, NULL, 2);
   bench_text_printf(&g->text,
                     "%%uint = OpTypeInt 32 0\n"
                     "%%f32 = OpTypeFloat 32\n"
                     "%%u0 = OpConstant %%uint 0\n"
                     "%%u1 = OpConstant %%uint 1\n"
                     "%%u3 = OpConstant %%uint 3\n"
                     "%%n = OpConstant %%uint %" PRId64 "\n"
                     "%%k = OpConstant %%uint %" PRId64 "\n"
                     "%%q = OpConstant %%uint %" PRId64 "\n"
                     "%%dim1 = OpTypeArray %%uint %%u1\n"
                     "%%dim3 = OpTypeArray %%uint %%u3\n"
                     "%%shape_1 = OpConstantComposite %%dim1 %%u1\n"
                     "%%shape_a = OpConstantComposite %%dim3 %%u1 %%n %%k\n"
                     "%%shape_b = OpConstantComposite %%dim3 %%u1 %%k %%q\n"
                     "%%shape_o = OpConstantComposite %%dim3 %%u1 %%n %%q\n"
                     "%%t_a = OpTypeTensorARM %%f32 %%u3 %%shape_a\n"
                     "%%t_b = OpTypeTensorARM %%f32 %%u3 %%shape_b\n"
                     "%%t_o = OpTypeTensorARM %%f32 %%u3 %%shape_o\n"
                     "%%t_1 = OpTypeTensorARM %%f32 %%u1 %%shape_1\n"
                     "%%zero = OpConstantNull %%t_1\n"
                     "%%ptr = OpTypePointer UniformConstant %%t_a\n"
                     "%%ptr_o = OpTypePointer UniformConstant %%t_o\n"
                     "%%v0 = OpVariable %%ptr UniformConstant\n"
                     "%%v1 = OpVariable %%ptr_o UniformConstant\n"
                     "%%b = OpGraphConstantARM %%t_b 0\n"
                     "%%graph_type = OpTypeGraphARM 1 %%t_a %%t_o\n"
                     "OpGraphEntryPointARM %%graph \"main\" %%v0 %%v1\n"
                     "%%graph = OpGraphARM %%graph_type\n"
                     "%%a = OpGraphInputARM %%t_a %%u0\n"
                     "%%mm = OpExtInst %%t_o %%tosa MATMUL %%a %%b %%zero %%zero\n"
                     "OpGraphSetOutputARM %%mm %%u0\n"
                     "OpGraphEndARM\n",
                     n, k, q_count);
   struct ref_tensor *zero = bench_tensor_new(g, REF_DTYPE_FP32, 1, one);
   g->inputs[0] = bench_tensor_new(g, REF_DTYPE_FP32, 3, a_shape);
   g->input_count = 1;
   struct ref_tensor *b = bench_tensor_new(g, REF_DTYPE_FP32, 3, b_shape);
   g->output = bench_tensor_new(g, REF_DTYPE_FP32, 3, o_shape);
   g->want = bench_tensor_new(g, REF_DTYPE_FP64, 3, o_shape);
   g->bound = bench_tensor_new(g, REF_DTYPE_FP64, 3, o_shape);
   if (g->failed)
      return;
   uint64_t rng = SEED ^ 1;
   bench_fill_float(g->inputs[0], &rng, -1.0, 1.0);
   for (int64_t j = 0; j < h * w; j++) {
      for (int64_t q = 0; q < q_count; q++) {
         int64_t ay = ((j / w) * (q / w)) % h, ax = ((j % w) * (q % w)) % w;
         double a = two_pi * ((double)ay / (double)h + (double)ax / (double)w);
         ref_tensor_set_fp(b, (2 * j) * q_count + q, cos(a));
         ref_tensor_set_fp(b, (2 * j + 1) * q_count + q, sin(a));
      }
   }
   bench_constant(g, 0, b);
   struct tosa_ref_matmul_args result = {.mode = TOSA_REF_DOT_RESULT};
   struct tosa_ref_matmul_args bound = {.mode = TOSA_REF_DOT_BOUND};
   if (bench_ref_ok(g, tosa_ref_matmul(&result, g->inputs[0], b, zero, zero, g->want), "MATMUL"))
      bench_ref_ok(g, tosa_ref_matmul(&bound, g->inputs[0], b, zero, zero, g->bound),
                   "MATMUL bound");
}
