/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 CAST's conversions between integers and floats (cast.comp's header says how they
 * round), shared by cast.comp and the fused epilogues (dg_gemm_epilogue.glsl).
 * Include after dg_kernel.glsl.
 */
#ifndef DG_CAST_GLSL
#define DG_CAST_GLSL

/* Rounds the magnitude m * 2^-s (s >= 1) to an integer, to nearest with ties to even. */
uint
dg_cast_round_shift(uint m, uint s)
{
   uint r = m >> s;
   uint rest = m & ((1u << s) - 1u);
   uint half_unit = 1u << (s - 1u);
   if (rest > half_unit || (rest == half_unit && (r & 1u) != 0u))
      r++;
   return r;
}

/* round_to_nearest_int of an fp32 value (ties to even), clipped to [lo, hi]; NaN gives 0. */
int
dg_cast_float_to_int(float v, int lo, int hi)
{
   uint f = floatBitsToUint(v);
   uint a = f & 0x7fffffffu;
   bool negative = (f & 0x80000000u) != 0u;
   if (a > 0x7f800000u)
      return 0; /* NaN: unpredictable in TOSA; 0 here */
   int e = int(a >> 23) - 127;
   if (e >= 31)
      return negative ? lo : hi; /* |v| >= 2^31, infinity */
   if (e < -1)
      return 0; /* |v| < 0.5 (zeros and subnormals included) */
   uint m = (a & 0x007fffffu) | 0x00800000u; /* |v| = m * 2^(e - 23) */
   uint r = e >= 23 ? m << uint(e - 23) : dg_cast_round_shift(m, uint(23 - e));
   /* r < 2^31: e <= 30 */
   int value = negative ? -int(r) : int(r);
   return clamp(value, lo, hi);
}

/* An integer rounded once to `bits` significant bits (to nearest, ties to even), as a
 * float: exact, since the result has at most 24 significant bits (or is 2^31). */
float
dg_cast_int_to_float(int v, uint bits)
{
   uint u = v < 0 ? ~uint(v) + 1u : uint(v); /* |v|, 2^31 for INT_MIN */
   int s = findMSB(u) + 1 - int(bits);
   if (s > 0)
      u = dg_cast_round_shift(u, uint(s)) << uint(s); /* at most 2^31 */
   float f = float(u);
   return v < 0 ? -f : f;
}

#endif /* DG_CAST_GLSL */
