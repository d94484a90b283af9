/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Conversions between fp32 and the small floating-point storage types of the
 * graph kernels (design.md §5, §7), done on bit patterns in 32-bit integer
 * arithmetic so that every device rounds alike, whatever its conversion
 * instructions do with rounding modes and subnormals:
 *
 *   fp16     IEEE binary16: overflow gives infinity.
 *   bf16     bits [31:16] of binary32: overflow gives infinity.
 *   fp8e4m3  OCP OFP8 E4M3 (bias 7, no infinities, NaN S.1111.111, max 448).
 *   fp8e5m2  OCP OFP8 E5M2 (bias 15, IEEE-like, max 57344).
 *
 * fp32 -> small: round to nearest, ties to even; subnormal results kept; a NaN
 * stays a NaN (quiet, sign kept). For fp8, `saturate` selects the OCP
 * saturating mode (overflow and infinity give the largest finite value of the
 * same sign); the non-saturating mode (overflow gives infinity for E5M2 and NaN
 * for E4M3) is the one TOSA 1.0.1 CAST uses and the dg_store_fp8*() default.
 * small -> fp32 is exact (every value of these types is an fp32 normal or zero,
 * except bf16 subnormals, which are fp32 subnormals).
 *
 * Pure functions of uint and float: no extension needed.
 */
#ifndef DG_FLOAT_GLSL
#define DG_FLOAT_GLSL

/* ---- fp32 -> small ------------------------------------------------------------------------ */

/*
 * Rounds a finite, non-negative fp32 magnitude (its bits, sign cleared) to a
 * format with `mbits` stored mantissa bits and minimum normal exponent `emin`
 * (unbiased), to nearest with ties to even. Returns the format's magnitude
 * bits, (biased exponent << mbits) | mantissa with biased exponent
 * e - emin + 1; a result above the format's largest finite value is returned
 * as is (the caller decides overflow). fp32 subnormals give 0 (every format
 * here has emin >= -14).
 */
uint
dg_round_magnitude(uint a, uint mbits, int emin)
{
   if (a < 0x00800000u)
      return 0u;
   int e = int(a >> 23) - 127;
   uint m = (a & 0x007fffffu) | 0x00800000u; /* value = m * 2^(e - 23) */
   /* The result's unit is 2^(max(e, emin) - mbits): shift m right by s. */
   int s = max(e, emin) - int(mbits) - (e - 23);
   if (s >= 25)
      return 0u; /* below half the smallest subnormal (m < 2^24) */
   uint r = m >> uint(s);
   uint rest = m & ((1u << uint(s)) - 1u);
   uint half_unit = 1u << uint(s - 1);
   if (rest > half_unit || (rest == half_unit && (r & 1u) != 0u))
      r++;
   /* Normal: ((e - emin + 1) << mbits) + r - 2^mbits; subnormal (e < emin): r. A rounding
    * carry into the next binade lands on the right encoding in both cases. */
   return (uint(max(e - emin, 0)) << mbits) + r;
}

uint
dg_float_to_fp16(float v)
{
   uint f = floatBitsToUint(v);
   uint sign = (f >> 16) & 0x8000u;
   uint a = f & 0x7fffffffu;
   if (a > 0x7f800000u)
      return sign | 0x7e00u | ((a >> 13) & 0x03ffu); /* NaN: quiet, payload's top bits */
   if (a >= 0x47800000u)
      return sign | 0x7c00u; /* >= 65536 (and infinity) */
   uint h = dg_round_magnitude(a, 10u, -14);
   return sign | min(h, 0x7c00u);
}

uint
dg_float_to_bf16(float v)
{
   uint f = floatBitsToUint(v);
   if ((f & 0x7fffffffu) > 0x7f800000u)
      return (f >> 16) | 0x0040u; /* NaN: quiet; never turns into infinity */
   /* Round to nearest even on the dropped 16 bits; overflow carries into infinity. */
   return (f + 0x7fffu + ((f >> 16) & 1u)) >> 16;
}

uint
dg_float_to_fp8e4m3(float v, bool saturate)
{
   uint f = floatBitsToUint(v);
   uint sign = (f >> 24) & 0x80u;
   uint a = f & 0x7fffffffu;
   if (a > 0x7f800000u)
      return sign | 0x7fu;
   uint b = a == 0x7f800000u ? 0x100u : dg_round_magnitude(min(a, 0x47800000u), 3u, -6);
   if (b > 0x7eu)
      return sign | (saturate ? 0x7eu : 0x7fu);
   return sign | b;
}

uint
dg_float_to_fp8e5m2(float v, bool saturate)
{
   uint f = floatBitsToUint(v);
   uint sign = (f >> 24) & 0x80u;
   uint a = f & 0x7fffffffu;
   if (a > 0x7f800000u)
      return sign | 0x7eu;
   uint b = a == 0x7f800000u ? 0x100u : dg_round_magnitude(min(a, 0x47800000u), 2u, -14);
   if (b > 0x7bu)
      return sign | (saturate ? 0x7bu : 0x7cu);
   return sign | b;
}

/* ---- small -> fp32 ------------------------------------------------------------------------ */

/* A finite magnitude with biased exponent `e` and mantissa `m` of a format with `mbits`
 * mantissa bits and minimum normal exponent `emin`, exactly, with the sign bit `sign`
 * (0 or 0x80000000). */
float
dg_decode_finite(uint sign, uint e, uint m, uint mbits, int emin)
{
   if (e == 0u) { /* subnormal or zero: m * 2^(emin - mbits), exact (exp2() need not be) */
      float unit = uintBitsToFloat(uint(emin - int(mbits) + 127) << 23);
      return uintBitsToFloat(sign | floatBitsToUint(float(m) * unit));
   }
   uint exponent = uint(int(e) - 1 + emin + 127);
   return uintBitsToFloat(sign | (exponent << 23) | (m << (23u - mbits)));
}

float
dg_fp16_to_float(uint h)
{
   uint sign = (h & 0x8000u) << 16;
   uint e = (h >> 10) & 0x1fu;
   uint m = h & 0x03ffu;
   if (e == 0x1fu)
      return uintBitsToFloat(sign | 0x7f800000u | (m << 13)); /* infinity, NaN (payload kept) */
   return dg_decode_finite(sign, e, m, 10u, -14);
}

float
dg_bf16_to_float(uint b)
{
   return uintBitsToFloat((b & 0xffffu) << 16);
}

float
dg_fp8e4m3_to_float(uint b)
{
   uint sign = (b & 0x80u) << 24;
   if ((b & 0x7fu) == 0x7fu)
      return uintBitsToFloat(sign | 0x7fc00000u);
   return dg_decode_finite(sign, (b >> 3) & 0x0fu, b & 0x07u, 3u, -6);
}

float
dg_fp8e5m2_to_float(uint b)
{
   uint sign = (b & 0x80u) << 24;
   uint e = (b >> 2) & 0x1fu;
   uint m = b & 0x03u;
   if (e == 0x1fu)
      return uintBitsToFloat(sign | 0x7f800000u | (m << 21)); /* infinity, NaN */
   return dg_decode_finite(sign, e, m, 2u, -14);
}

#endif /* DG_FLOAT_GLSL */
