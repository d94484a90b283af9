/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * TOSA 1.0.1 elementwise binary operators (§2.5 "Elementwise Binary Operators") and
 * comparisons (§2.8 "Comparison Operators"; pseudocode/operators/<OP>.tosac): ADD, SUB, MUL,
 * MAXIMUM, MINIMUM, BITWISE_AND, BITWISE_OR, BITWISE_XOR, LOGICAL_AND, LOGICAL_OR,
 * LOGICAL_XOR, LOGICAL_LEFT_SHIFT, LOGICAL_RIGHT_SHIFT, ARITHMETIC_RIGHT_SHIFT, INTDIV, EQUAL,
 * GREATER and GREATER_EQUAL, with TOSA broadcasting: equal ranks, a dimension of 1 in an input
 * repeats (apply_broadcast.tosac). MAXIMUM and MINIMUM select an operand
 * (apply_max_s/apply_min_s; floats with the NaN mode).
 *
 * Tensors (binding order): 0 input1, 1 input2, 2 output.
 * The walk over the output's elements is the elementwise driver's
 * (dg_elementwise.glsl; DG_TEMPLATE_GRID(binary, 64, ELEMENTS8)).
 * Attributes: shift (MUL, struct dg_attrs_mul); nan_mode (MAXIMUM, MINIMUM); rounding
 * (ARITHMETIC_RIGHT_SHIFT's `round`).
 * Variant defines: DG_BINARY_OP (DG_BINARY_ADD, ...), DG_IN_DTYPE (both inputs), DG_OUT_DTYPE.
 *
 * Integers: ADD/SUB i32 wrap on overflow (a TOSA REQUIRE: the result is then
 * unpredictable, and this one never faults). MUL i8 x i8 and i16 x i16 give the
 * exact product in i32; i32 x i32 with shift 0 gives the low 32 bits, with
 * shift > 0 (int64 product + (1 << (shift - 1))) >> shift, truncated to 32 bits.
 * Floats compute in fp32 and round once to the output type: for fp16 and bf16
 * that is the correctly rounded result (fp32 has at least 2p + 2 bits), which
 * meets the 0.5 ulp bound of TOSA 1.0.1 for these operators.
 *
 * Bitwise and logical operators and shifts are exact on the W-bit two's-complement values
 * (W = 8, 16, 32): loads sign-extend, stores keep the low W bits. Where a TOSA REQUIRE fails on
 * the data the result is unpredictable; these kernels give a documented one and never fault
 * (tests/reference/tosa_ref.h says the same, tests/optest/data pins it):
 *  - shift amount (input2) outside 0..W-1, negative amounts included (the amount is read as
 *    unsigned): every bit is shifted out. LOGICAL_LEFT_SHIFT and LOGICAL_RIGHT_SHIFT give 0;
 *    ARITHMETIC_RIGHT_SHIFT gives the sign fill (-1 for a negative input1, else 0) without
 *    `round`, and 0 with it (the exact quotient input1 / 2^amount, |q| <= 1/2, rounded half up);
 *  - INTDIV by 0 gives 0; INT32_MIN / -1 gives INT32_MIN (the quotient wrapped to 32 bits).
 *    Both as an Arm SDIV instruction does. Division truncates toward zero (apply_intdiv_s).
 * Comparisons: integers compare as signed values. Floats compare as their bit patterns, mapped
 * to a signed order (sign and magnitude): exact for every value, NaN (either operand) false,
 * -0 equal to +0, and independent of how the device treats subnormals (never flushed; TOSA
 * allows either).
 */
#version 460
#extension GL_GOOGLE_include_directive : require

#include "dg_kernel.glsl"

#ifndef DG_BINARY_OP
#define DG_BINARY_OP DG_BINARY_ADD
#endif
#ifndef DG_IN_DTYPE
#define DG_IN_DTYPE DG_DTYPE_FP32
#endif
#ifndef DG_OUT_DTYPE
#define DG_OUT_DTYPE DG_IN_DTYPE
#endif

/* The operator this variant computes (its variant define DG_BINARY_OP). */
#define DG_BINARY_ADD 1
#define DG_BINARY_SUB 2
#define DG_BINARY_MUL 3
#define DG_BINARY_MAXIMUM 4
#define DG_BINARY_MINIMUM 5
#define DG_BINARY_BITWISE_AND 6
#define DG_BINARY_BITWISE_OR 7
#define DG_BINARY_BITWISE_XOR 8
#define DG_BINARY_LOGICAL_AND 9
#define DG_BINARY_LOGICAL_OR 10
#define DG_BINARY_LOGICAL_XOR 11
#define DG_BINARY_LOGICAL_LEFT_SHIFT 12
#define DG_BINARY_LOGICAL_RIGHT_SHIFT 13
#define DG_BINARY_ARITHMETIC_RIGHT_SHIFT 14
#define DG_BINARY_INTDIV 15
#define DG_BINARY_EQUAL 16
#define DG_BINARY_GREATER 17
#define DG_BINARY_GREATER_EQUAL 18

#define DG_BINARY_IS_COMPARISON                                                                    \
   (DG_BINARY_OP == DG_BINARY_EQUAL || DG_BINARY_OP == DG_BINARY_GREATER ||                        \
    DG_BINARY_OP == DG_BINARY_GREATER_EQUAL)

#if DG_BINARY_OP == DG_BINARY_MAXIMUM
DG_DECLARE_ATTRS_MAXIMUM
#elif DG_BINARY_OP == DG_BINARY_MINIMUM
DG_DECLARE_ATTRS_MINIMUM
#elif DG_BINARY_OP == DG_BINARY_ARITHMETIC_RIGHT_SHIFT
DG_DECLARE_ATTRS_ARITHMETIC_RIGHT_SHIFT
#else
DG_DECLARE_ATTRS_MUL /* ADD and SUB leave shift at 0; the others have no attributes */
#endif

DG_TENSOR(DG_ADD_INPUT1, input1);
DG_TENSOR(DG_ADD_INPUT2, input2);
DG_TENSOR(DG_ADD_OUTPUT, output);

#define DG_EW_ARITY 2
/* Float comparisons load the bit patterns: the signed integer type of the same size. */
#if DG_BINARY_IS_COMPARISON && DG_IN_DTYPE == DG_DTYPE_FP32
#define DG_EW_IN1_DTYPE DG_DTYPE_I32
#elif DG_BINARY_IS_COMPARISON && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
#define DG_EW_IN1_DTYPE DG_DTYPE_I16
#else
#define DG_EW_IN1_DTYPE DG_IN_DTYPE
#endif
#define DG_EW_IN2_DTYPE DG_EW_IN1_DTYPE
#define DG_EW_OUT_DTYPE DG_OUT_DTYPE
#define in_t dg_atype(DG_EW_IN1_DTYPE)
#define out_t dg_atype(DG_OUT_DTYPE)

/* Bits of the integer types; the mask of their values as unsigned. */
#define DG_BINARY_WIDTH uint(8 * DG_DTYPE_SIZE(DG_IN_DTYPE))
#define DG_BINARY_MASK (DG_BINARY_WIDTH == 32u ? 0xffffffffu : (1u << DG_BINARY_WIDTH) - 1u)

#if DG_BINARY_IS_COMPARISON && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
/* The magnitude bits of an infinity: a larger magnitude is a NaN. */
#if DG_IN_DTYPE == DG_DTYPE_FP32
#define DG_BINARY_INF_BITS 0x7f800000
#elif DG_IN_DTYPE == DG_DTYPE_BF16
#define DG_BINARY_INF_BITS 0x7f80
#else
#define DG_BINARY_INF_BITS 0x7c00
#endif

bool
dg_binary_isnan(int bits)
{
   return (bits & int(DG_BINARY_MASK >> 1)) > DG_BINARY_INF_BITS;
}

/* A float's bit pattern as an integer in the order of the values: the magnitude, negated for
 * a negative sign (so -0 and +0 are both 0). Not for NaNs. */
int
dg_binary_order(int bits)
{
   int magnitude = bits & int(DG_BINARY_MASK >> 1);
   return (uint(bits) & (DG_BINARY_MASK ^ (DG_BINARY_MASK >> 1))) != 0u ? -magnitude : magnitude;
}
#endif

out_t
dg_ew_apply(in_t a, in_t b)
{
   /* precise: with shapes specialised, the compiler can see that ADD(x, x) and SUB(x, x) read
    * one element twice, and must not fold x - x to 0 (inf and NaN give NaN). */
#if DG_BINARY_OP == DG_BINARY_ADD
   precise out_t r = a + b;
   return r;
#elif DG_BINARY_OP == DG_BINARY_SUB
   precise out_t r = a - b;
   return r;
#elif DG_BINARY_OP == DG_BINARY_MUL && DG_IN_DTYPE == DG_DTYPE_I32
   if (shift > 0) {
      int64_t product = int64_t(a) * int64_t(b);
      int64_t round = int64_t(1) << (shift - 1);
      return int((product + round) >> shift);
   }
   return a * b; /* the low 32 bits */
#elif DG_BINARY_OP == DG_BINARY_MUL
   precise out_t r = out_t(a) * out_t(b);
   return r;
#elif DG_BINARY_OP == DG_BINARY_MAXIMUM && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return dg_max_nan(a, b, nan_mode);
#elif DG_BINARY_OP == DG_BINARY_MINIMUM && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   return dg_min_nan(a, b, nan_mode);
#elif DG_BINARY_OP == DG_BINARY_MAXIMUM
   return a >= b ? a : b; /* apply_max_s */
#elif DG_BINARY_OP == DG_BINARY_MINIMUM
   return a < b ? a : b; /* apply_min_s */
#elif DG_BINARY_OP == DG_BINARY_BITWISE_AND
   return a & b;
#elif DG_BINARY_OP == DG_BINARY_BITWISE_OR
   return a | b;
#elif DG_BINARY_OP == DG_BINARY_BITWISE_XOR
   return a ^ b;
#elif DG_BINARY_OP == DG_BINARY_LOGICAL_AND
   return a && b;
#elif DG_BINARY_OP == DG_BINARY_LOGICAL_OR
   return a || b;
#elif DG_BINARY_OP == DG_BINARY_LOGICAL_XOR
   return a != b;
#elif DG_BINARY_OP == DG_BINARY_LOGICAL_LEFT_SHIFT
   /* value1 << value2 in in_out_t: the store keeps the low W bits. */
   return uint(b) < DG_BINARY_WIDTH ? a << b : 0;
#elif DG_BINARY_OP == DG_BINARY_LOGICAL_RIGHT_SHIFT
   /* apply_logical_rshift: zero_extend<uint32_t>(value1) >> value2. */
   return uint(b) < DG_BINARY_WIDTH ? int((uint(a) & DG_BINARY_MASK) >> uint(b)) : 0;
#elif DG_BINARY_OP == DG_BINARY_ARITHMETIC_RIGHT_SHIFT
   if (uint(b) >= DG_BINARY_WIDTH)
      return rounding != 0u || a >= 0 ? 0 : -1;
   /* apply_arith_rshift on the sign-extended value; `round` adds bit value2 - 1 of value1
    * (never overflows: value1 >> value2 is at most half the type's maximum for value2 > 0). */
   int r = a >> b;
   if (rounding != 0u && b > 0)
      r += (a >> (b - 1)) & 1;
   return r;
#elif DG_BINARY_OP == DG_BINARY_INTDIV
   /* apply_intdiv_s: truncation toward zero, computed on the magnitudes (well defined for
    * every operand pair, unlike a signed division by 0 or of INT32_MIN by -1). */
   if (b == 0)
      return 0;
   uint q = (a < 0 ? 0u - uint(a) : uint(a)) / (b < 0 ? 0u - uint(b) : uint(b));
   return (a < 0) != (b < 0) ? -int(q) : int(q); /* INT32_MIN / -1: q = 2^31 wraps */
#elif DG_BINARY_IS_COMPARISON && DG_DTYPE_IS_FLOAT(DG_IN_DTYPE)
   if (dg_binary_isnan(a) || dg_binary_isnan(b))
      return false;
   int x = dg_binary_order(a), y = dg_binary_order(b);
#if DG_BINARY_OP == DG_BINARY_EQUAL
   return x == y;
#elif DG_BINARY_OP == DG_BINARY_GREATER
   return x > y;
#else
   return x >= y;
#endif
#elif DG_BINARY_OP == DG_BINARY_EQUAL
   return a == b;
#elif DG_BINARY_OP == DG_BINARY_GREATER
   return a > b;
#elif DG_BINARY_OP == DG_BINARY_GREATER_EQUAL
   return a >= b;
#else
#error "DG_BINARY_OP must be one of the DG_BINARY_* operators above"
#endif
}

#include "dg_elementwise.glsl"
