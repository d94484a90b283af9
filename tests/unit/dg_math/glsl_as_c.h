/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * What shaders/common/dg_math.glsl needs to compile as C11: the GLSL types and built-ins it
 * uses, as C with the same fp32 semantics (correctly rounded float add, sub, mul; build with
 * -ffp-contract=off so that nothing becomes an fma, and FLT_EVAL_METHOD 0). `precise` is
 * empty: C does not reassociate. The constructors float(x), int(x), uint(x) and vec2(a, b) are
 * function-like macros, so that the same names still work as types where no '(' follows.
 *
 * The seeds of the Newton steps (dg_m_rcp_seed, dg_m_rsqrt_seed: a division and inversesqrt)
 * are what Vulkan lets a device compute with an error: dg_math_c_seed_bias moves them by that
 * many ulps, so that the tests show the results do not depend on them.
 */
#ifndef GLSL_AS_C_H
#define GLSL_AS_C_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

typedef unsigned int uint;
typedef struct {
   float x, y;
} vec2;
typedef struct {
   float x, y, z;
} vec3;

/* Set by the test: the seeds come out this many ulps off (0: as C computes them). */
static int dg_math_c_seed_bias;

static inline float
glsl_bits_to_float(uint b)
{
   float f;
   memcpy(&f, &b, sizeof(f));
   return f;
}

static inline uint
glsl_float_to_bits(float f)
{
   uint b;
   memcpy(&b, &f, sizeof(b));
   return b;
}

static inline int
glsl_find_msb(uint v)
{
   return v ? 31 - __builtin_clz(v) : -1;
}

static inline int
glsl_clamp_int(int v, int lo, int hi)
{
   return v < lo ? lo : v > hi ? hi : v;
}

/* A finite positive float moved by n ulps (stays positive and finite for these seeds). */
static inline float
glsl_seed(float v)
{
   return glsl_bits_to_float((uint)((int)glsl_float_to_bits(v) + dg_math_c_seed_bias));
}

#define precise
#define float(x) ((float)(x))
#define int(x) ((int)(x))
#define uint(x) ((uint)(x))
#define vec2(a, b) ((vec2){(a), (b)})
#define vec3(a, b, c) ((vec3){(a), (b), (c)})
#define floatBitsToUint(f) glsl_float_to_bits(f)
#define uintBitsToFloat(b) glsl_bits_to_float(b)
#define findMSB(v) glsl_find_msb(v)
#define clamp(v, lo, hi) glsl_clamp_int(v, lo, hi)
#define floor(x) floorf(x)
#define ceil(x) ceilf(x)
#define roundEven(x) rintf(x)
#define DG_M_RCP_SEED(m) glsl_seed(1.0f / (m))
#define DG_M_RSQRT_SEED(m) glsl_seed(1.0f / sqrtf(m))
#define umulExtended(a, b, hi, lo)                                                                 \
   do {                                                                                            \
      uint64_t p_ = (uint64_t)(a) * (uint64_t)(b);                                                 \
      (hi) = (uint)(p_ >> 32);                                                                     \
      (lo) = (uint)p_;                                                                             \
   } while (0)

#endif /* GLSL_AS_C_H */
