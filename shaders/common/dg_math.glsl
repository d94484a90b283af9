/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * fp32 elementary functions accurate enough for TOSA 1.0.1's precision
 * requirements on every Vulkan device: CEIL, FLOOR, EXP, LOG, SIN, COS,
 * RECIPROCAL, RSQRT, ERF, SIGMOID, TANH and POW (math.comp). fp16 and bf16
 * compute through these and round once on store.
 *
 * Why not the GLSL built-ins: Vulkan lets exp() err by 3 + 2|x| ULP, log() by
 * an absolute 2^-21 near 1, pow() inherit exp2(y * log2(x)), sin()/cos() by an
 * absolute 2^-11 (in [-pi, pi] only), inversesqrt() by 2 ULP, a division by
 * 2.5 ULP, and fma() may be a multiply then an add. Only these are exact or
 * correctly rounded everywhere, and only these carry the results here: fp32
 * add, sub and mul (marked `precise`, so that no compiler contracts or
 * reassociates them), integer and bit operations, floor/ceil/roundEven,
 * int <-> float conversions. Division and inversesqrt() only seed a Newton
 * step whose residual is computed exactly (Dekker's product, Veltkamp's split);
 * their own error does not reach the result.
 *
 * Algorithms (polynomial coefficients: Chebyshev fits of the stated function,
 * made with mpmath and rounded to fp32; each error figure below is the fit's
 * with the rounded coefficients):
 *  - CEIL, FLOOR: ceil()/floor() (exact) for 1 <= |x| < 2^23, the bits
 *    elsewhere.
 *  - EXP: k = round(x / ln 2), r = x - k ln2 in double-float (ln 2 split in a
 *    16-bit and a low part), exp(r) = 1 + r + r^2 P(r) (degree 6, 2^-28 of
 *    the term) kept as a double-float sum, then scaled by 2^k with one
 *    rounding (subnormal results included). ~0.5 ulp.
 *  - LOG: x = m 2^e with m in [sqrt(1/2), sqrt(2)) (subnormals normalised on
 *    the bits), f = m - 1 exactly, log(1 + f) = f - (f^2/2 - s (f^2/2 + R)),
 *    s = f / (2 + f), R = z Q(z), z = s^2 (Q degree 3), plus e ln 2 split.
 *  - SIN, COS: x = k pi/2 + r: Cody-Waite with pi/2 in three fp32 parts and
 *    exact products below |x| = 2^17, Payne-Hanek (a 96-bit window of 2/pi's
 *    bits times the 24-bit significand, in 32-bit integer products) above, so
 *    r is accurate over the whole fp32 range; sin r = r + r^3 S(r^2),
 *    cos r = 1 - r^2/2 + r^4 C(r^2) (degree 3 each).
 *  - RECIPROCAL: m in [1, 2): r0 = 1/m, one Newton step with the exact
 *    residual 1 - m r0, scaled by 2^-e with one rounding.
 *  - RSQRT: m in [1, 4) with an even exponent: r0 = inversesqrt(m), one Newton
 *    step with the residual 1 - m r0^2 from two exact products.
 *  - ERF: |x| < 2^-12: x + x (2/sqrt(pi) - 1) on x 2^24; |x| < 1:
 *    x + x P(x^2) (degree 7); 1 <= |x| < 4: 1 + P_i(|x| - c_i)
 *    on [1,2), [2,3), [3,4) (degrees 9, 8, 7; absolute error below 2^-28);
 *    |x| >= 4: +-1 (erfc(4) < 2^-25).
 *  - SIGMOID: 1 / (1 + e^-x) for x >= 0 and e^x / (1 + e^x) below, with e^x
 *    and the denominator as double-floats and the quotient corrected by its
 *    exact residual; e^x alone below -17.
 *  - TANH: |x| < 0.625: x + x^3 T(x^2) (degree 6); else 1 - 2 / (1 + e^2|x|);
 *    +-1 beyond 9.1.
 *  - POW: C99's pow (Annex F) for the special values, |x|^y = e^(y log|x|)
 *    with log|x| as a double-float (LOG's result and one Newton step on
 *    e^L = |x|) and y log|x| as a double-float product.
 *
 * Special values follow TOSA's floating-point behaviour tables, tested on the
 * bits (Vulkan need not keep NaNs through arithmetic): NaN in gives NaN out,
 * LOG of a negative number and RSQRT of one (not -0) give NaN, LOG(+-0) =
 * -inf, RSQRT(-0) = -inf, RECIPROCAL(+-0) = +-inf, and so on; a zero whose sign
 * the table fixes comes from x's bits, not from float constants a compiler
 * without signed-zero preservation may rewrite.
 *
 * Subnormals (TOSA lets a device flush them, inputs and results): where the
 * result depends on a subnormal input it is taken on the bits (CEIL, FLOOR,
 * LOG, RECIPROCAL, RSQRT, POW's x; SIN and TANH return a tiny x as it is), so
 * every device gives the unflushed result; elsewhere the arithmetic flushes it
 * or not, alike for a whole output (EXP, COS, SIGMOID give the same either
 * way, ERF and POW's y a result a flushed zero also explains). No intermediate
 * of a normal input is subnormal, except where the result itself is: a device
 * that flushes may return 0 for a subnormal result (EXP below -87.3,
 * RECIPROCAL above 2^126, SIGMOID below -87.3, POW), which TOSA's checks allow.
 *
 * POW outside TOSA's domain (its REQUIREs: x < 0, x == 0 with y <= 0, NaN or
 * infinite operands; the result is unpredictable) gives C99's pow: x < 0 with
 * an integer y gives +-|x|^y (the sign of x when y is odd), with another y
 * NaN; pow(+-0, y < 0) = +inf (+-inf for odd y), pow(x, +-0) = 1 even for a
 * NaN x, pow(1, y) = 1 even for a NaN y, pow(-1, +-inf) = 1, and the
 * infinities as C says. Never a fault.
 *
 * Largest errors measured, as a fraction of TOSA's bound (the ulp operators'
 * bound is N ulps) and in ulps of the type: fp32 with this file compiled as C
 * on every 13th bit pattern (330 million inputs per operator; POW 2^28 random
 * pairs over its domain; `test_dg_math --stride 13 --exact-seeds`), fp16 and
 * bf16 on every bit pattern (POW: every non-negative x with seven y); the
 * .optest files on lavapipe gave the same figures or smaller:
 *
 *   operator    fp32              fp16              bf16
 *   CEIL        0      0 ulp      0      0 ulp      0      0 ulp
 *   FLOOR       0      0          0      0          0      0
 *   EXP         0.167  0.75       0.499  0.50       0.493  0.50
 *   LOG         0.140  0.86       0.100  0.50       0.100  0.50
 *   SIN         0.0001 0.91       0.008  0.50       0.021  0.50
 *   COS         0.0001 0.92       0.008  0.50       0.021  0.50
 *   RECIPROCAL  0.750  0.75 (*)   0.500  0.50       0.498  0.50
 *   RSQRT       0.250  0.50       0.250  0.50       0.250  0.50
 *   ERF         0.251  1.25       0.100  0.50       0.100  0.50
 *   SIGMOID     0.250  1.00       0.250  0.50       0.247  0.50
 *   TANH        0.070  1.32       0.098  0.50       0.071  0.50
 *   POW         0.167  31 (**)    0.466  0.50       0.454  0.50
 *
 *   (*) subnormal results (1/x for |x| > 2^126): rounded twice.
 *   (**) at |y log x| near 100: the error grows with y log x, as TOSA's bound
 *   does; near 0.5 ulp for |y log x| < 1.
 * With the Newton seeds (division, inversesqrt) 3 ulps off either way, as a
 * device may compute them, no check fails and the figures keep their size
 * (unit.test_dg_math runs both).
 *
 * This file is written in the subset of GLSL that tests/unit/dg_math/
 * glsl_as_c.h also compiles as C (float literals with an f suffix, vec2/vec3
 * built and read by component, no out parameters, no overloading): the unit
 * test runs the same code on the CPU over the fp32 range.
 */
#ifndef DG_MATH_GLSL
#define DG_MATH_GLSL

/* ---- bits, scaling, exact products ------------------------------------------------------- */

#define DG_M_INF 0x7f800000u
#define DG_M_SIGN 0x80000000u
#define DG_M_ONE 0x3f800000u

float
dg_m_nan(void)
{
   return uintBitsToFloat(0x7fc00000u);
}

/* 2^n for -126 <= n <= 127. */
float
dg_m_pow2(int n)
{
   return uintBitsToFloat(uint(n + 127) << 23);
}

/* y 2^n with one rounding, for |y| in [2^-32, 2^32] and any n (clamped where the result is
 * 0 or inf anyway): a scale into the subnormal range goes through a normal value first. */
float
dg_m_ldexp(float y, int n)
{
   int n1 = n < -126 ? n + 64 : n > 127 ? n - 64 : n;
   n1 = clamp(n1, -126, 127);
   int n2 = clamp(n - n1, -64, 64);
   precise float r = y * dg_m_pow2(n1);
   if (n2 != 0) {
      precise float r2 = r * dg_m_pow2(n2);
      return r2;
   }
   return r;
}

/* |x| (bits a, finite, non-zero, maybe subnormal) = m 2^e: vec2(m in [1, 2), e). */
vec2
dg_m_frexp(uint a)
{
   int e = int(a >> 23);
   uint mant = a & 0x007fffffu;
   if (e == 0) {
      int msb = findMSB(mant); /* value = mant 2^-149 */
      mant = (mant << uint(23 - msb)) & 0x007fffffu;
      e = msb - 149;
   } else {
      e = e - 127;
   }
   return vec2(uintBitsToFloat(DG_M_ONE | mant), float(e));
}

/* Veltkamp's split: a = hi + lo, each with at most 12 significant bits (|a| < 2^115). */
vec2
dg_m_split(float a)
{
   precise float c = 4097.0f * a;
   precise float hi = c - (c - a);
   precise float lo = a - hi;
   return vec2(hi, lo);
}

/* Dekker's product: a b = p + e exactly (no overflow or underflow in the partial products). */
vec2
dg_m_two_prod(float a, float b)
{
   precise float p = a * b;
   vec2 as = dg_m_split(a);
   vec2 bs = dg_m_split(b);
   precise float e = ((as.x * bs.x - p) + as.x * bs.y + as.y * bs.x) + as.y * bs.y;
   return vec2(p, e);
}

/* Knuth's sum: a + b = s + e exactly. */
vec2
dg_m_two_sum(float a, float b)
{
   precise float s = a + b;
   precise float bb = s - a;
   precise float e = (a - (s - bb)) + (b - bb);
   return vec2(s, e);
}

/* Division and inversesqrt only seed Newton steps: whatever Vulkan's precision of them, the
 * results here do not change (the unit test perturbs them through these macros). */
#ifndef DG_M_RCP_SEED
#define DG_M_RCP_SEED(m) (1.0f / (m))
#define DG_M_RSQRT_SEED(m) inversesqrt(m)
#endif

float
dg_m_rcp_seed(float m)
{
   return DG_M_RCP_SEED(m);
}

float
dg_m_rsqrt_seed(float m)
{
   return DG_M_RSQRT_SEED(m);
}

/* 1/d to about 0.5 ulp for |d| in [2^-60, 2^60]: one Newton step with the exact residual. */
float
dg_m_recip(float d)
{
   float r0 = dg_m_rcp_seed(d);
   vec2 p = dg_m_two_prod(d, r0);
   precise float e = (1.0f - p.x) - p.y;
   precise float r = r0 + r0 * e;
   return r;
}

/* Horner schemes. */
float
dg_m_poly3(float t, float c0, float c1, float c2, float c3)
{
   precise float p = ((c3 * t + c2) * t + c1) * t + c0;
   return p;
}

float
dg_m_poly6(float t, float c0, float c1, float c2, float c3, float c4, float c5, float c6)
{
   precise float p = (((((c6 * t + c5) * t + c4) * t + c3) * t + c2) * t + c1) * t + c0;
   return p;
}

float
dg_m_poly7(float t, float c0, float c1, float c2, float c3, float c4, float c5, float c6,
           float c7)
{
   precise float p = ((((((c7 * t + c6) * t + c5) * t + c4) * t + c3) * t + c2) * t + c1) * t + c0;
   return p;
}

float
dg_m_poly8(float t, float c0, float c1, float c2, float c3, float c4, float c5, float c6,
           float c7, float c8)
{
   precise float p =
       (((((((c8 * t + c7) * t + c6) * t + c5) * t + c4) * t + c3) * t + c2) * t + c1) * t + c0;
   return p;
}

float
dg_m_poly9(float t, float c0, float c1, float c2, float c3, float c4, float c5, float c6,
           float c7, float c8, float c9)
{
   precise float p =
       ((((((((c9 * t + c8) * t + c7) * t + c6) * t + c5) * t + c4) * t + c3) * t + c2) * t + c1) *
           t +
       c0;
   return p;
}

#define DG_M_F(bits) uintBitsToFloat(bits)

/* ---- CEIL, FLOOR --------------------------------------------------------------------------- */

/* |x| >= 2^23 is an integer already (and inf, NaN are kept as they are); |x| < 1 is decided on
 * the bits, so that a device that flushes subnormals still rounds them as values (one rule for
 * every element, and the literal tests hold everywhere), with the zero's sign as the table says
 * (taken from x's bits: a compiler without signed-zero preservation rewrites a select of the
 * constants 0 and +-1 as arithmetic and loses it, as lavapipe does); the rest is exact in
 * ceil/floor. */
float
dg_math_ceil(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a >= 0x4b000000u || a == 0u)
      return x;
   if (a < DG_M_ONE)
      return uintBitsToFloat((b & DG_M_SIGN) | (b == a ? DG_M_ONE : 0u)); /* 1 or -0 */
   return ceil(x);
}

float
dg_math_floor(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a >= 0x4b000000u || a == 0u)
      return x;
   if (a < DG_M_ONE)
      return uintBitsToFloat((b & DG_M_SIGN) | (b == a ? 0u : DG_M_ONE)); /* +0 or -1 */
   return floor(x);
}

/* ---- EXP ------------------------------------------------------------------------------------ */

#define DG_M_LOG2E DG_M_F(0x3fb8aa3bu)  /* 1.44269502 */
#define DG_M_LN2_HI DG_M_F(0x3f317200u) /* 0.693145752: 16 significant bits */
#define DG_M_LN2_LO DG_M_F(0x35bfbe8eu) /* 1.42860677e-06: ln 2 - DG_M_LN2_HI */

/* k = round(th / ln 2), as a float; |th| <= 105. */
float
dg_m_exp_k(float th)
{
   precise float t = th * DG_M_LOG2E;
   return roundEven(t);
}

/* e^(th + tl) / 2^k as an unnormalised double-float (h in [0.7, 1.42], |l| < 0.1), relative
 * error about 2^-27, for the k of dg_m_exp_k(th) and |tl| <= 2^-20 |th| + 2^-30. */
vec2
dg_m_exp_reduced(float th, float tl, float k)
{
   precise float p = k * DG_M_LN2_HI; /* exact: |k| < 2^8 */
   vec2 r1 = dg_m_two_sum(th, -p);
   precise float rl = r1.y + (tl - k * DG_M_LN2_LO);
   vec2 r = dg_m_two_sum(r1.x, rl); /* r.x + r.y = th + tl - k ln 2, |r.x| <= 0.35 */
   precise float z = r.x * r.x;
   precise float c =
       z * dg_m_poly6(r.x, DG_M_F(0x3f000000u), DG_M_F(0x3e2aaaabu), DG_M_F(0x3d2aaaabu),
                      DG_M_F(0x3c088862u), DG_M_F(0x3ab60b42u), DG_M_F(0x3950abceu),
                      DG_M_F(0x37d08c04u)) +
       (r.y + r.y * r.x);
   vec2 h = dg_m_two_sum(1.0f, r.x);
   precise float l = h.y + c;
   return vec2(h.x, l);
}

/* e^(th + tl) rounded once (subnormal results too); th finite. */
float
dg_m_exp_dd(float th, float tl)
{
   if (th > 88.8f)
      return uintBitsToFloat(DG_M_INF);
   if (th < -104.0f)
      return 0.0f;
   float k = dg_m_exp_k(th);
   vec2 e = dg_m_exp_reduced(th, tl, k);
   precise float y = e.x + e.y;
   return dg_m_ldexp(y, int(k));
}

float
dg_math_exp(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (a == DG_M_INF)
      return b == DG_M_INF ? x : 0.0f;
   return dg_m_exp_dd(x, 0.0f);
}

/* ---- LOG ------------------------------------------------------------------------------------ */

/* log|x| for finite non-zero |x| (bits a, subnormals included), about 1 ulp. */
float
dg_m_log_abs(uint a)
{
   vec2 me = dg_m_frexp(a);
   float m = me.x;
   float e = me.y;
   if (m > DG_M_F(0x3fb504f3u)) { /* sqrt(2) */
      m = m * 0.5f;
      e = e + 1.0f;
   }
   precise float f = m - 1.0f; /* exact: m in [0.707, 1.415] */
   precise float den = 2.0f + f;
   precise float s = f * dg_m_recip(den);
   precise float z = s * s;
   precise float r = z * dg_m_poly3(z, DG_M_F(0x3f2aaaabu), DG_M_F(0x3eccccf6u),
                                    DG_M_F(0x3e922e04u), DG_M_F(0x3e6eedd5u));
   precise float hfsq = 0.5f * f * f;
   precise float l1p = f - (hfsq - s * (hfsq + r));
   precise float res = e * DG_M_LN2_HI + (e * DG_M_LN2_LO + l1p); /* e DG_M_LN2_HI exact */
   return res;
}

/* log|x| as a double-float (hi, lo), |hi + lo - log|x|| about 2^-28 min(1, |log x|): hi from
 * dg_m_log_abs(), lo = |x| e^-hi - 1 (one Newton step on e^L = |x|; e^-hi from
 * dg_m_exp_reduced(), the product taken on the significands, so nothing over- or underflows). */
vec2
dg_m_log_dd(uint a)
{
   float l = dg_m_log_abs(a);
   vec2 me = dg_m_frexp(a);
   float k = dg_m_exp_k(-l);
   vec2 e = dg_m_exp_reduced(-l, 0.0f, k);
   float sc = dg_m_pow2(int(me.y) + int(k)); /* 2^(e + k), e + k in -2 .. 1 */
   vec2 p = dg_m_two_prod(me.x, e.x);
   precise float d = ((p.x * sc - 1.0f) + p.y * sc) + me.x * e.y * sc;
   return vec2(l, d);
}

float
dg_math_log(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (a == 0u)
      return uintBitsToFloat(DG_M_SIGN | DG_M_INF); /* log(+-0) = -inf */
   if (b != a)
      return dg_m_nan(); /* x < 0 */
   if (a == DG_M_INF)
      return x;
   return dg_m_log_abs(a);
}

/* ---- SIN, COS -------------------------------------------------------------------------------- */

#define DG_M_2_PI DG_M_F(0x3f22f983u)   /* 2/pi */
#define DG_M_PIO2_1 DG_M_F(0x3fc90fdbu) /* pi/2 = PIO2_1 + PIO2_2 + PIO2_3 + 1e-23 */
#define DG_M_PIO2_2 DG_M_F(0xb33bbd2eu)
#define DG_M_PIO2_3 DG_M_F(0xa6f72cedu)

/* Word i of 32 zero bits followed by the binary digits of 2/pi. */
uint
dg_m_2_pi_word(int i)
{
   switch (i) {
   case 1:
      return 0xa2f9836eu;
   case 2:
      return 0x4e441529u;
   case 3:
      return 0xfc2757d1u;
   case 4:
      return 0xf534ddc0u;
   case 5:
      return 0xdb629599u;
   case 6:
      return 0x3c439041u;
   case 7:
      return 0xfe5163abu;
   default:
      return 0u;
   }
}

/* Bits n .. n + 31 of that string. */
uint
dg_m_2_pi_bits(int n)
{
   int w = n >> 5;
   uint sh = uint(n & 31);
   uint hi = dg_m_2_pi_word(w);
   if (sh == 0u)
      return hi;
   return (hi << sh) | (dg_m_2_pi_word(w + 1) >> (32u - sh));
}

/* Payne-Hanek for |x| >= 2^17 (bits a, finite): vec3(r, rr, q) with x = (q + 4j) pi/2 + r + rr. */
vec3
dg_m_reduce_large(uint a)
{
   uint mant = (a & 0x007fffffu) | 0x00800000u;
   int e2 = int(a >> 23) - 150; /* |x| = mant 2^e2, e2 >= -6 */
   /* Bits of 2/pi of weight 2^-i for i >= e2 - 1 matter (the others give multiples of 4):
    * a 96-bit window from there, whose lowest bit times mant has weight 2^-94. */
   int n = e2 - 1 + 31;
   uint w0 = dg_m_2_pi_bits(n);
   uint w1 = dg_m_2_pi_bits(n + 32);
   uint w2 = dg_m_2_pi_bits(n + 64);
   uint l0 = mant * w0; /* its high word only holds multiples of 4 */
   uint h1, l1, h2, l2;
   umulExtended(mant, w1, h1, l1);
   umulExtended(mant, w2, h2, l2);
   /* mant * W = p3:p2:p1:p0; the quadrant is bits 94..95, the fraction bits 0..93. */
   uint p0 = l2;
   uint p1 = l1 + h2;
   uint c1 = p1 < l1 ? 1u : 0u;
   uint p2 = l0 + h1;
   p2 = p2 + c1;
   uint q = (p2 >> 30) & 3u;
   uint f2 = p2 & 0x3fffffffu;
   uint f1 = p1;
   uint f0 = p0;
   float sign = 1.0f;
   if ((f2 & 0x20000000u) != 0u) {
      /* fraction >= 1/2: the next quadrant, fraction - 1 (negate the 94-bit value) */
      q = (q + 1u) & 3u;
      sign = -1.0f;
      f0 = ~f0 + 1u;
      f1 = ~f1 + (f0 == 0u ? 1u : 0u);
      f2 = (~f2 + ((f0 == 0u && f1 == 0u) ? 1u : 0u)) & 0x3fffffffu;
   }
   /* The fraction's 48 leading bits as hi + lo, times 2^-94 by exponent. */
   int lead; /* weight of the fraction's leading bit within the 94: bit index */
   if (f2 != 0u) {
      lead = 64 + findMSB(f2);
   } else if (f1 != 0u) {
      lead = 32 + findMSB(f1);
   } else {
      lead = findMSB(f0); /* never 0 for a float input: 2/pi's bits are not periodic */
   }
   /* bits lead .. lead - 47 of f2:f1:f0 */
   int s = lead - 47; /* shift right by s (may be negative) */
   uint t0 = f0;
   uint t1 = f1;
   uint t2 = f2;
   /* shift the 94-bit value right by s into a 48-bit integer hi24:lo24 */
   if (s >= 32) {
      t0 = t1;
      t1 = t2;
      t2 = 0u;
      s = s - 32;
   }
   if (s >= 32) {
      t0 = t1;
      t1 = 0u;
      s = s - 32;
   }
   uint v0;
   uint v1;
   if (s > 0) {
      v0 = (t0 >> uint(s)) | (t1 << uint(32 - s));
      v1 = (t1 >> uint(s)) | (t2 << uint(32 - s));
   } else if (s == 0) {
      v0 = t0;
      v1 = t1;
   } else {
      /* never for fp32 inputs (their fractions have fewer than 30 leading zeros) */
      if (s <= -32) {
         t1 = t0;
         t0 = 0u;
         s = s + 32;
      }
      v1 = s == 0 ? t1 : (t1 << uint(-s)) | (t0 >> uint(32 + s));
      v0 = s == 0 ? t0 : t0 << uint(-s);
   }
   /* v1:v0 holds 48 bits: hi24 = bits 24..47, lo24 = bits 0..23 */
   uint hi24 = (v1 << 8) | (v0 >> 24);
   uint lo24 = v0 & 0x00ffffffu;
   int scale = lead - 47 - 94; /* the 48-bit integer's unit */
   float fh = dg_m_ldexp(float(hi24), scale + 24);
   float fl = dg_m_ldexp(float(lo24), scale);
   /* r = (fh + fl) pi/2 */
   vec2 p = dg_m_two_prod(fh, DG_M_PIO2_1);
   precise float pl = p.y + (fh * DG_M_PIO2_2 + fl * DG_M_PIO2_1);
   vec2 r = dg_m_two_sum(p.x, pl);
   return vec3(sign * r.x, sign * r.y, float(q));
}

/* x finite: vec3(r, rr, q) with x = (q + 4j) pi/2 + r + rr, |r| <= pi/4 + tiny. */
vec3
dg_m_reduce_pio2(float x)
{
   uint a = floatBitsToUint(x) & ~DG_M_SIGN;
   if (a >= 0x48000000u) { /* 2^17 */
      vec3 v = dg_m_reduce_large(a);
      if (x < 0.0f)
         return vec3(-v.x, -v.y, float((4u - uint(v.z)) & 3u));
      return v;
   }
   precise float kx = x * DG_M_2_PI;
   float k = roundEven(kx);
   vec2 p1 = dg_m_two_prod(k, DG_M_PIO2_1);
   precise float t = x - p1.x; /* exact: Sterbenz, or k == 0 */
   vec2 p2 = dg_m_two_prod(k, DG_M_PIO2_2);
   vec2 s1 = dg_m_two_sum(t, -p1.y);
   vec2 s2 = dg_m_two_sum(s1.x, -p2.x);
   precise float lo = ((s1.y + s2.y) - p2.y) - k * DG_M_PIO2_3;
   vec2 r = dg_m_two_sum(s2.x, lo);
   return vec3(r.x, r.y, float(int(k) & 3));
}

/* sin(r + rr), cos(r + rr) for |r| <= pi/4 + tiny. */
float
dg_m_sin_kernel(float r, float rr)
{
   precise float z = r * r;
   precise float s = dg_m_poly3(z, DG_M_F(0xbe2aaaabu), DG_M_F(0x3c088887u), DG_M_F(0xb9500996u),
                                DG_M_F(0x3636cb4fu));
   precise float res = r + (r * z * s + rr);
   return res;
}

float
dg_m_cos_kernel(float r, float rr)
{
   precise float z = r * r;
   precise float c = dg_m_poly3(z, DG_M_F(0x3d2aaaabu), DG_M_F(0xbab60b60u), DG_M_F(0x37d00ab9u),
                                DG_M_F(0xb49284feu));
   precise float hz = 0.5f * z;
   precise float w = 1.0f - hz;
   precise float res = w + (((1.0f - w) - hz) + (z * z * c - r * rr));
   return res;
}

/* sin (cos_shift 0) or cos (cos_shift 1) of a finite x. */
float
dg_m_sincos(float x, uint cos_shift)
{
   vec3 v = dg_m_reduce_pio2(x);
   uint q = (uint(v.z) + cos_shift) & 3u;
   float res = (q & 1u) == 0u ? dg_m_sin_kernel(v.x, v.y) : dg_m_cos_kernel(v.x, v.y);
   return (q & 2u) == 0u ? res : -res;
}

float
dg_math_sin(float x)
{
   uint a = floatBitsToUint(x) & ~DG_M_SIGN;
   if (a >= DG_M_INF)
      return dg_m_nan();
   if (a < 0x39800000u)
      return x; /* |x| < 2^-12: sin x = x within x^3/6 < 2^-25 x; keeps -0 and subnormals */
   return dg_m_sincos(x, 0u);
}

float
dg_math_cos(float x)
{
   uint a = floatBitsToUint(x) & ~DG_M_SIGN;
   if (a >= DG_M_INF)
      return dg_m_nan();
   return dg_m_sincos(x, 1u);
}

/* ---- RECIPROCAL, RSQRT ------------------------------------------------------------------------ */

float
dg_math_reciprocal(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   uint s = b & DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (a == DG_M_INF)
      return uintBitsToFloat(s); /* +-0 */
   if (a == 0u)
      return uintBitsToFloat(s | DG_M_INF);
   vec2 me = dg_m_frexp(a);
   float r = dg_m_recip(me.x); /* (1/2, 1] */
   float y = dg_m_ldexp(r, -int(me.y));
   return uintBitsToFloat(floatBitsToUint(y) | s);
}

float
dg_math_rsqrt(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (a == 0u)
      return uintBitsToFloat((b & DG_M_SIGN) | DG_M_INF); /* RSQRT(+-0) = +-inf */
   if (b != a)
      return dg_m_nan(); /* x < 0 */
   if (a == DG_M_INF)
      return 0.0f;
   vec2 me = dg_m_frexp(a);
   float m = me.x;
   int e = int(me.y);
   if ((e & 1) != 0) {
      m = m * 2.0f;
      e = e - 1;
   }
   /* m in [1, 4): r = r0 + r0/2 (1 - m r0^2), the residual from exact products */
   float r0 = dg_m_rsqrt_seed(m);
   vec2 q = dg_m_two_prod(r0, r0);
   vec2 u = dg_m_two_prod(m, q.x);
   precise float d = ((1.0f - u.x) - u.y) - m * q.y;
   precise float r = r0 + (0.5f * r0) * d;
   return dg_m_ldexp(r, -(e / 2));
}

/* ---- ERF ---------------------------------------------------------------------------------------- */

float
dg_math_erf(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (a < 0x39800000u) {
      /* |x| < 2^-12: x + x (2/sqrt(pi) - 1), on x 2^24 so that no intermediate of a normal x is
       * subnormal (x p would be below 2^-123, flushed by some devices), then scaled back */
      precise float xs = x * 16777216.0f;
      precise float res = (xs + xs * DG_M_F(0x3e0375d4u)) * DG_M_F(0x33800000u); /* 2^-24 */
      return res;
   }
   if (a < DG_M_ONE) {
      precise float z = x * x;
      precise float p =
          dg_m_poly7(z, DG_M_F(0x3e0375d4u), DG_M_F(0xbec093a3u), DG_M_F(0x3de71784u),
                     DG_M_F(0xbcdc14e4u), DG_M_F(0x3bab1530u), DG_M_F(0xba5e67b3u),
                     DG_M_F(0x38ec43a8u), DG_M_F(0xb7222fa4u));
      precise float res = x + x * p;
      return res;
   }
   float ax = uintBitsToFloat(a);
   float m; /* erf(|x|) - 1 */
   if (a >= 0x40800000u) { /* 4 */
      m = 0.0f;
   } else if (a >= 0x40400000u) { /* [3, 4) */
      precise float t = ax - 3.5f;
      m = dg_m_poly7(t, DG_M_F(0xb5472ccau), DG_M_F(0x36b528a9u), DG_M_F(0xb79fb905u),
                     DG_M_F(0x3831a777u), DG_M_F(0xb8881218u), DG_M_F(0x38a9ac4du),
                     DG_M_F(0xb8c8967bu), DG_M_F(0x388a3e18u));
   } else if (a >= 0x40000000u) { /* [2, 3) */
      precise float t = ax - 2.5f;
      m = dg_m_poly8(t, DG_M_F(0xb9d55c2du), DG_M_F(0x3b0ec21du), DG_M_F(0xbbb27203u),
                     DG_M_F(0x3c08c73du), DG_M_F(0xbc0d42adu), DG_M_F(0x3bc94e8bu),
                     DG_M_F(0xbb37e619u), DG_M_F(0x39d34ae4u), DG_M_F(0x399e5b4du));
   } else { /* [1, 2) */
      precise float t = ax - 1.5f;
      m = dg_m_poly9(t, DG_M_F(0xbd0ad554u), DG_M_F(0x3df391b9u), DG_M_F(0xbe36ad4au),
                     DG_M_F(0x3e0e1508u), DG_M_F(0xbd36adefu), DG_M_F(0xbc739e33u),
                     DG_M_F(0x3c9e6169u), DG_M_F(0xbb9a52f0u), DG_M_F(0xbb1d6e08u),
                     DG_M_F(0x3acbde41u));
   }
   precise float res = 1.0f + m;
   return uintBitsToFloat(floatBitsToUint(res) | (b & DG_M_SIGN));
}

/* ---- SIGMOID, TANH -------------------------------------------------------------------------------- */

/* 1 + eh + el (eh in (0, 1]) as a normalised double-float: |lo| <= ulp(hi) / 2. */
vec2
dg_m_one_plus(float eh, float el)
{
   vec2 s = dg_m_two_sum(1.0f, eh);
   precise float t = s.y + el;
   return dg_m_two_sum(s.x, t);
}

float
dg_math_sigmoid(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (b == a) {
      /* x >= 0: 1 / (1 + e^-x); e^-x < 2^-28 beyond 20 */
      if (a > 0x41a00000u)
         return 1.0f;
      float k = dg_m_exp_k(-x);
      vec2 e = dg_m_exp_reduced(-x, 0.0f, k);
      int ik = int(k);
      /* exact scalings: k >= -29 */
      vec2 d = dg_m_one_plus(dg_m_ldexp(e.x, ik), dg_m_ldexp(e.y, ik));
      float r0 = dg_m_recip(d.x);
      vec2 p = dg_m_two_prod(d.x, r0);
      precise float res_e = ((1.0f - p.x) - p.y) - d.y * r0;
      precise float res = r0 + r0 * res_e;
      return res;
   }
   /* x < 0: e^x / (1 + e^x); beyond -17, e^x itself (e^x < 2^-24.5) */
   if (a > 0x41880000u)
      return dg_math_exp(x);
   float k = dg_m_exp_k(x);
   vec2 e = dg_m_exp_reduced(x, 0.0f, k);
   int ik = int(k);
   float eh = dg_m_ldexp(e.x, ik);
   float el = dg_m_ldexp(e.y, ik);
   vec2 d = dg_m_one_plus(eh, el);
   float r0 = dg_m_recip(d.x);
   precise float q0 = eh * r0;
   vec2 p = dg_m_two_prod(q0, d.x);
   precise float res_e = ((eh - p.x) - p.y) + el - q0 * d.y;
   precise float res = q0 + res_e * r0;
   return res;
}

float
dg_math_tanh(float x)
{
   uint b = floatBitsToUint(x);
   uint a = b & ~DG_M_SIGN;
   if (a > DG_M_INF)
      return x;
   if (a < 0x39800000u)
      return x; /* |x| < 2^-12: tanh x = x within x^3/3 < 2^-24 x; keeps -0 */
   if (a < 0x3f200000u) { /* 0.625 */
      precise float z = x * x;
      precise float t = dg_m_poly6(z, DG_M_F(0xbeaaaaabu), DG_M_F(0x3e088888u),
                                   DG_M_F(0xbd5d0d2cu), DG_M_F(0x3cb31383u), DG_M_F(0xbc1007ffu),
                                   DG_M_F(0x3b58ac24u), DG_M_F(0xba6200e2u));
      precise float res = x + x * z * t;
      return res;
   }
   float res = 1.0f;
   if (a < 0x4111999au) { /* 9.1 */
      precise float ax2 = 2.0f * uintBitsToFloat(a);
      precise float den = 1.0f + dg_m_exp_dd(ax2, 0.0f);
      precise float t = 1.0f - 2.0f * dg_m_recip(den);
      res = t;
   }
   return uintBitsToFloat(floatBitsToUint(res) | (b & DG_M_SIGN));
}

/* ---- POW ------------------------------------------------------------------------------------------ */

float
dg_math_pow(float x, float y)
{
   uint bx = floatBitsToUint(x);
   uint by = floatBitsToUint(y);
   uint ax = bx & ~DG_M_SIGN;
   uint ay = by & ~DG_M_SIGN;
   bool xneg = bx != ax;
   bool yneg = by != ay;
   if (ay == 0u || bx == DG_M_ONE)
      return 1.0f; /* pow(x, +-0) = 1 and pow(1, y) = 1, NaNs included */
   if (ax > DG_M_INF || ay > DG_M_INF)
      return dg_m_nan();
   if (ay == DG_M_INF) {
      if (ax == DG_M_ONE)
         return 1.0f; /* pow(-1, +-inf) */
      return (ax > DG_M_ONE) != yneg ? uintBitsToFloat(DG_M_INF) : 0.0f;
   }
   /* y finite, non-zero: integer? odd? (|y| >= 2^24 is an even integer) */
   bool yint = ay >= 0x4b800000u || floor(y) == y;
   bool yodd = ay < 0x4b800000u && yint && (int(y) & 1) != 0;
   uint sign = xneg && yodd ? DG_M_SIGN : 0u;
   if (ax == 0u || ax == DG_M_INF) {
      /* pow(+-0, y): y > 0 gives 0, y < 0 inf; pow(+-inf, y) the other way round */
      bool inf = (ax == 0u) == yneg;
      return uintBitsToFloat(sign | (inf ? DG_M_INF : 0u));
   }
   if (xneg && !yint)
      return dg_m_nan();
   float res;
   if (ax == DG_M_ONE) {
      res = 1.0f; /* (-1)^integer */
   } else {
      vec2 l = dg_m_log_dd(ax); /* |l.x| >= 2^-25 */
      precise float th = y * l.x;
      if (th > 89.0f || th < -105.0f) {
         res = th > 0.0f ? uintBitsToFloat(DG_M_INF) : 0.0f;
      } else {
         vec2 t = dg_m_two_prod(y, l.x); /* |y| < 2^32 here */
         precise float tl = t.y + y * l.y;
         res = dg_m_exp_dd(t.x, tl);
      }
   }
   return uintBitsToFloat(floatBitsToUint(res) | sign);
}

#endif /* DG_MATH_GLSL */
