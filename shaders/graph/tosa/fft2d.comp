/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 FFT2D and RFFT2D (§2.3 "Tensor Operators"; pseudocode/operators/
 * FFT2D.tosac, RFFT2D.tosac): one one-dimensional pass of the 2D transform
 * (kernel_abi/fft_args.h says which lines, tensors and arguments). The 2D
 * transform is a pass along W then one along H (graph/build/fft_build.c);
 * the forward transform multiplies by exp(-2 pi i k / L), the inverse by
 * exp(+2 pi i k / L), no normalisation.
 *
 *  - DG_FFT_SHARED: one workgroup per line: the line is loaded in bit-reversed
 *    order into shared memory, log2(L) radix-2 decimation-in-time stages run
 *    there with a barrier between them, and the result is stored in order.
 *  - DG_FFT_PASS: one radix-2 Stockham stage (out of place, natural order in
 *    and out after all stages): butterfly j of a line reads elements j and
 *    j + L/2, with k = j mod Ns (Ns = 1 << stage), multiplies the second by
 *    exp(-+2 pi i k / (2 Ns)) and writes (j / Ns) * 2 Ns + k and that + Ns.
 *
 * Twiddles are cos/sin of fp32 angles (k / m exact, one rounding of the
 * product with 2 pi); arithmetic is fp32. The error is O(log2(L) eps) relative
 * to the line's magnitude, inside TOSA's dot-product bound for FFT2D
 * (docs/decisions.md D38). Inf and NaN inputs propagate as IEEE
 * arithmetic does (a NaN anywhere in a line reaches every bin of it).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"
#include "kernel_abi/fft_args.h"

DG_DECLARE_ARGS(DG_FFT_ARGS)

#ifdef DG_FFT_REAL_IN
DG_TENSOR(0, in_re);
DG_TENSOR(1, out_re);
DG_TENSOR(2, out_im);
#else
DG_TENSOR(0, in_re);
DG_TENSOR(1, in_im);
DG_TENSOR(2, out_re);
DG_TENSOR(3, out_im);
#endif

const float DG_FFT_TWO_PI = 6.28318530717958647692;

/* The byte offset of element i of line `line` in a [N,H,W] tensor. */
uint
dg_fft_offset(vmel_tensor_record r, uint line, uint i, uint h_dim)
{
   if (axis == 0u)
      return dg_offset3(r, line / h_dim, line % h_dim, i);
   return dg_offset3(r, line / columns, i, line % columns);
}

vec2
dg_fft_load(vmel_tensor_record re, vmel_tensor_record im, uint line, uint i, uint h_dim)
{
   float x = dg_load_fp32(dg_address(re, dg_fft_offset(re, line, i, h_dim)));
#ifdef DG_FFT_REAL_IN
   return vec2(x, 0.0);
#else
   return vec2(x, dg_load_fp32(dg_address(im, dg_fft_offset(im, line, i, h_dim))));
#endif
}

void
dg_fft_store(vmel_tensor_record re, vmel_tensor_record im, uint line, uint i, uint h_dim, vec2 v)
{
   dg_store_fp32(dg_address(re, dg_fft_offset(re, line, i, h_dim)), v.x);
   dg_store_fp32(dg_address(im, dg_fft_offset(im, line, i, h_dim)), v.y);
}

/* v * exp(s 2 pi i k / m), s = -1 forward, +1 inverse. */
vec2
dg_fft_twiddle(vec2 v, uint k, uint m)
{
   float a = DG_FFT_TWO_PI * (float(k) / float(m));
   if (inverse == 0u)
      a = -a;
   float c = cos(a), s = sin(a);
   return vec2(v.x * c - v.y * s, v.x * s + v.y * c);
}

#ifdef DG_FFT_SHARED
shared vec2 dg_fft_line[DG_FFT_SHARED_MAX];
#endif

void
main()
{
   vmel_tensor_record ir = DG_RECORD(in_re);
#ifdef DG_FFT_REAL_IN
   vmel_tensor_record ii = ir;
#else
   vmel_tensor_record ii = DG_RECORD(in_im);
#endif
   vmel_tensor_record or_ = DG_RECORD(out_re);
   vmel_tensor_record oi = DG_RECORD(out_im);
   uint h_dim = ir.dims[1];
   uint len = axis == 0u ? ir.dims[2] : ir.dims[1];
#ifdef DG_FFT_SHARED
   /* One workgroup per line (the work count is lines * DG_FFT_LOCAL: no invocation returns
    * early, every one reaches the barriers). */
   uint line = vmel_work_index() / uint(DG_FFT_LOCAL);
   uint local = gl_LocalInvocationIndex;
   int bits = findMSB(len);
   for (uint i = local; i < len; i += uint(DG_FFT_LOCAL)) {
      uint r = bits == 0 ? 0u : bitfieldReverse(i) >> uint(32 - bits);
      dg_fft_line[r] = dg_fft_load(ir, ii, line, i, h_dim);
   }
   barrier();
   for (uint half_len = 1u; half_len < len; half_len *= 2u) {
      for (uint j = local; j < len / 2u; j += uint(DG_FFT_LOCAL)) {
         uint k = j % half_len;
         uint i0 = (j / half_len) * 2u * half_len + k;
         vec2 a = dg_fft_line[i0];
         vec2 b = dg_fft_twiddle(dg_fft_line[i0 + half_len], k, 2u * half_len);
         dg_fft_line[i0] = a + b;
         dg_fft_line[i0 + half_len] = a - b;
      }
      barrier();
   }
   for (uint i = local; i < len; i += uint(DG_FFT_LOCAL))
      dg_fft_store(or_, oi, line, i, h_dim, dg_fft_line[i]);
#else
   uint index = vmel_work_index();
   if (index >= vmel_work_count)
      return;
   uint half_len = len / 2u;
   uint line = index / half_len;
   uint j = index % half_len;
   uint ns = 1u << stage;
   uint k = j % ns;
   vec2 a = dg_fft_load(ir, ii, line, j, h_dim);
   vec2 b = dg_fft_twiddle(dg_fft_load(ir, ii, line, j + half_len, h_dim), k, 2u * ns);
   uint o = (j / ns) * 2u * ns + k;
   dg_fft_store(or_, oi, line, o, h_dim, a + b);
   dg_fft_store(or_, oi, line, o + ns, h_dim, a - b);
#endif
}
