/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * Conversions to and from bfloat16 and float8 in integer code, for drivers
 * that know neither type. Values travel as 16-/8-bit unsigned integers with
 * the same bits; every conversion goes through binary32:
 *  - bfloat16 -> binary32 pads the significand with zeros (exact), and
 *    binary32 -> bfloat16 rounds to nearest even, NaNs staying (quiet) NaNs.
 *    SPV_KHR_bfloat16: "Conversions to or from floating-point values with the
 *    BFloat16KHR encoding first convert the source value to IEEE754 binary32",
 *    so a double or an integer is first converted to binary32 by the driver.
 *  - float8 (E4M3, E5M2 of the OCP "FP8 Formats for Deep Learning" paper) ->
 *    binary32 is exact; binary32 -> float8 rounds to nearest even, and
 *    SPV_EXT_float8 rev 1: "out-of-range values and infinity are converted to
 *    largest representable finite value with a matching sign if the conversion
 *    is decorated with SaturatedToLargestFloat8NormalConversionEXT, otherwise
 *    they are converted to NaN if the destination type uses the Float8E4M3EXT
 *    FP encoding or infinity with a matching sign if [...] Float8E5M2EXT".
 *    A double is first narrowed to binary32 with round-to-odd, which makes the
 *    second rounding exact; integers reach float8's range only below 2^24.
 * Scalars and vectors are handled alike: constants are splatted.
 */
#include "tsr_lower_private.h"

/* GLSL.std.450 instruction numbers. */
#define GLSL_ROUND_EVEN 2u
#define GLSL_FABS 4u
#define GLSL_UNPACK_DOUBLE_2X32 65u

struct conv {
   struct tsr_lower *l;
   uint32_t n; /* components; 1 for a scalar */
   uint32_t u32, f32, boolean;
};

struct fp8_format {
   uint32_t mbits, bias;
   uint32_t max_code; /* largest finite magnitude code */
   uint32_t nan_code, overflow_code;
};

static uint32_t
vec(struct conv *c, uint32_t scalar)
{
   return c->n == 1 ? scalar : spirv_get_type_vector(&c->l->b, scalar, c->n);
}

static uint32_t
splat(struct conv *c, uint32_t type, uint32_t scalar_const)
{
   if (c->n == 1)
      return scalar_const;
   uint32_t ids[4] = {scalar_const, scalar_const, scalar_const, scalar_const};
   return spirv_get_const_composite(&c->l->b, type, ids, c->n);
}

static uint32_t
k32(struct conv *c, uint32_t v)
{
   return splat(c, c->u32, spirv_get_const_u32(&c->l->b, v));
}

static uint32_t
kf32(struct conv *c, uint32_t bits)
{
   return splat(c, c->f32, spirv_get_const_f32_bits(&c->l->b, bits));
}

static uint32_t
op2(struct conv *c, uint32_t opcode, uint32_t type, uint32_t a, uint32_t b)
{
   return tsr_op2(c->l, opcode, type, a, b);
}

static uint32_t
sel(struct conv *c, uint32_t cond, uint32_t a, uint32_t b)
{
   return tsr_op3(c->l, SpvOpSelect, c->u32, cond, a, b);
}

static const struct fp8_format *
fp8_format(enum tsr_elem_kind kind, bool saturate)
{
   static const struct fp8_format e4m3 = {3, 7, 0x7e, 0x7f, 0x7f};
   static const struct fp8_format e4m3_sat = {3, 7, 0x7e, 0x7f, 0x7e};
   static const struct fp8_format e5m2 = {2, 15, 0x7b, 0x7e, 0x7c};
   static const struct fp8_format e5m2_sat = {2, 15, 0x7b, 0x7e, 0x7b};
   if (kind == TSR_ELEM_E4M3)
      return saturate ? &e4m3_sat : &e4m3;
   return saturate ? &e5m2_sat : &e5m2;
}

/* bfloat16/float8 bits (as the small type) -> binary32, exactly. */
static uint32_t
decode(struct conv *c, enum tsr_elem_kind kind, uint32_t value)
{
   struct tsr_lower *l = c->l;
   uint32_t x = tsr_op1(l, SpvOpUConvert, c->u32, value);
   if (kind == TSR_ELEM_BF16)
      return tsr_op1(l, SpvOpBitcast, c->f32, op2(c, SpvOpShiftLeftLogical, c->u32, x, k32(c, 16)));

   const struct fp8_format *f = fp8_format(kind, false);
   uint32_t sign = op2(c, SpvOpShiftLeftLogical, c->u32,
                       op2(c, SpvOpBitwiseAnd, c->u32, x, k32(c, 0x80)), k32(c, 24));
   uint32_t mag = op2(c, SpvOpBitwiseAnd, c->u32, x, k32(c, 0x7f));
   uint32_t e = op2(c, SpvOpShiftRightLogical, c->u32, mag, k32(c, f->mbits));
   uint32_t m = op2(c, SpvOpBitwiseAnd, c->u32, mag, k32(c, (1u << f->mbits) - 1));
   /* Normal: move exponent and mantissa into place and rebias. */
   uint32_t normal =
       op2(c, SpvOpIAdd, c->u32, op2(c, SpvOpShiftLeftLogical, c->u32, mag, k32(c, 23 - f->mbits)),
           k32(c, (127 - f->bias) << 23));
   /* Subnormal: m * 2^(1 - bias - mbits), exact in binary32. */
   uint32_t scale = (127 + 1 - f->bias - f->mbits) << 23;
   uint32_t subf =
       op2(c, SpvOpFMul, c->f32, tsr_op1(l, SpvOpConvertUToF, c->f32, m), kf32(c, scale));
   uint32_t sub = tsr_op1(l, SpvOpBitcast, c->u32, subf);
   uint32_t bits = sel(c, op2(c, SpvOpIEqual, c->boolean, e, k32(c, 0)), sub, normal);
   if (kind == TSR_ELEM_E4M3) {
      /* S.1111.111 is NaN; E4M3 has no infinities. */
      uint32_t nan = op2(c, SpvOpIEqual, c->boolean, mag, k32(c, 0x7f));
      bits = sel(c, nan, k32(c, 0x7fc00000), bits);
   } else {
      uint32_t special = op2(c, SpvOpIEqual, c->boolean, e, k32(c, 31));
      uint32_t inf = op2(c, SpvOpIEqual, c->boolean, m, k32(c, 0));
      bits = sel(c, special, sel(c, inf, k32(c, 0x7f800000), k32(c, 0x7fc00000)), bits);
   }
   return tsr_op1(l, SpvOpBitcast, c->f32, op2(c, SpvOpBitwiseOr, c->u32, bits, sign));
}

/* binary32 -> bfloat16 bits as uint (round to nearest even, NaN kept quiet). */
static uint32_t
encode_bf16(struct conv *c, uint32_t f)
{
   uint32_t u = tsr_op1(c->l, SpvOpBitcast, c->u32, f);
   uint32_t hi = op2(c, SpvOpShiftRightLogical, c->u32, u, k32(c, 16));
   uint32_t lsb = op2(c, SpvOpBitwiseAnd, c->u32, hi, k32(c, 1));
   uint32_t rounded = op2(c, SpvOpIAdd, c->u32, op2(c, SpvOpIAdd, c->u32, u, k32(c, 0x7fff)), lsb);
   uint32_t r = op2(c, SpvOpShiftRightLogical, c->u32, rounded, k32(c, 16));
   uint32_t a = op2(c, SpvOpBitwiseAnd, c->u32, u, k32(c, 0x7fffffff));
   uint32_t nan = op2(c, SpvOpUGreaterThan, c->boolean, a, k32(c, 0x7f800000));
   return sel(c, nan, op2(c, SpvOpBitwiseOr, c->u32, hi, k32(c, 0x40)), r);
}

/* binary32 -> float8 bits as uint (round to nearest even, then NaN/overflow rules). */
static uint32_t
encode_fp8(struct conv *c, enum tsr_elem_kind kind, uint32_t f, bool saturate)
{
   struct tsr_lower *l = c->l;
   const struct fp8_format *fmt = fp8_format(kind, saturate);
   uint32_t shift = 23 - fmt->mbits;
   uint32_t u = tsr_op1(l, SpvOpBitcast, c->u32, f);
   uint32_t sign = op2(c, SpvOpShiftRightLogical, c->u32,
                       op2(c, SpvOpBitwiseAnd, c->u32, u, k32(c, 0x80000000u)), k32(c, 24));
   uint32_t a = op2(c, SpvOpBitwiseAnd, c->u32, u, k32(c, 0x7fffffff));
   /* Normal results: round the binary32 bits at the float8 mantissa, then rebias. */
   uint32_t odd = op2(c, SpvOpBitwiseAnd, c->u32,
                      op2(c, SpvOpShiftRightLogical, c->u32, a, k32(c, shift)), k32(c, 1));
   uint32_t rounded = op2(c, SpvOpIAdd, c->u32,
                          op2(c, SpvOpIAdd, c->u32, a, k32(c, (1u << (shift - 1)) - 1)), odd);
   uint32_t normal =
       op2(c, SpvOpISub, c->u32, op2(c, SpvOpShiftRightLogical, c->u32, rounded, k32(c, shift)),
           k32(c, (127 - fmt->bias) << fmt->mbits));
   /* Subnormal results: |f| / 2^(1 - bias - mbits), rounded to an even integer; 1 << mbits
    * is the smallest normal, whose code it also is. */
   uint32_t scaled = op2(c, SpvOpFMul, c->f32, tsr_op1(l, SpvOpBitcast, c->f32, a),
                         kf32(c, (127 + fmt->bias - 1 + fmt->mbits) << 23));
   uint32_t even = tsr_glsl(l, GLSL_ROUND_EVEN, c->f32, &scaled, 1);
   uint32_t sub = tsr_op1(l, SpvOpConvertFToU, c->u32, even);
   uint32_t tiny = op2(c, SpvOpULessThan, c->boolean, a, k32(c, (127 - fmt->bias + 1) << 23));
   uint32_t mag = sel(c, tiny, sub, normal);
   uint32_t over = op2(c, SpvOpUGreaterThan, c->boolean, mag, k32(c, fmt->max_code));
   mag = sel(c, over, k32(c, fmt->overflow_code), mag);
   uint32_t nan = op2(c, SpvOpUGreaterThan, c->boolean, a, k32(c, 0x7f800000));
   mag = sel(c, nan, k32(c, fmt->nan_code), mag);
   return op2(c, SpvOpBitwiseOr, c->u32, mag, sign);
}

/* One binary64, as its bits hi:lo, to binary32 bits rounded to odd (truncate, then set the
 * lowest bit if anything was dropped), in integer arithmetic only: a driver may fold a
 * float round trip like double(float(d)) back to d (Mesa 25's lavapipe does, and glslang
 * carries no `precise` onto conversions), which would lose the sticky bit. Only the float8
 * conversions use it: a finite value beyond binary32's range becomes the largest finite
 * value (odd, so it still overflows every float8 format), and one below binary32's normal
 * range the smallest subnormal with its sign (or zero), far below every float8 half-ulp. */
static uint32_t
narrow_bits_to_odd(struct conv *s, uint32_t hi, uint32_t lo)
{
   uint32_t sign = op2(s, SpvOpBitwiseAnd, s->u32, hi, k32(s, 0x80000000u));
   uint32_t e = op2(s, SpvOpBitwiseAnd, s->u32,
                    op2(s, SpvOpShiftRightLogical, s->u32, hi, k32(s, 20)), k32(s, 0x7ff));
   uint32_t mhi = op2(s, SpvOpBitwiseAnd, s->u32, hi, k32(s, 0xfffff));
   uint32_t m23 =
       op2(s, SpvOpBitwiseOr, s->u32, op2(s, SpvOpShiftLeftLogical, s->u32, mhi, k32(s, 3)),
           op2(s, SpvOpShiftRightLogical, s->u32, lo, k32(s, 29)));
   uint32_t dropped = op2(s, SpvOpINotEqual, s->boolean,
                          op2(s, SpvOpBitwiseAnd, s->u32, lo, k32(s, 0x1fffffff)), k32(s, 0));
   uint32_t exp32 = op2(s, SpvOpShiftLeftLogical, s->u32,
                        op2(s, SpvOpISub, s->u32, e, k32(s, 1023 - 127)), k32(s, 23));
   uint32_t normal = op2(s, SpvOpBitwiseOr, s->u32, op2(s, SpvOpBitwiseOr, s->u32, exp32, m23),
                         sel(s, dropped, k32(s, 1), k32(s, 0)));
   uint32_t any =
       op2(s, SpvOpINotEqual, s->boolean, op2(s, SpvOpBitwiseOr, s->u32, mhi, lo), k32(s, 0));
   uint32_t special =
       sel(s, any, op2(s, SpvOpBitwiseOr, s->u32, m23, k32(s, 0x7fc00000u)), k32(s, 0x7f800000u));
   uint32_t nonzero =
       op2(s, SpvOpLogicalOr, s->boolean, op2(s, SpvOpINotEqual, s->boolean, e, k32(s, 0)), any);
   uint32_t tiny = sel(s, nonzero, k32(s, 1), k32(s, 0));
   uint32_t mag =
       sel(s, op2(s, SpvOpIEqual, s->boolean, e, k32(s, 0x7ff)), special,
           sel(s, op2(s, SpvOpUGreaterThan, s->boolean, e, k32(s, 1023 + 127)), k32(s, 0x7f7fffffu),
               sel(s, op2(s, SpvOpULessThan, s->boolean, e, k32(s, 1023 - 126)), tiny, normal)));
   return op2(s, SpvOpBitwiseOr, s->u32, mag, sign);
}

/* binary64 (scalar or vector) -> binary32 rounded to odd, component by component. */
static uint32_t
narrow_to_odd(struct conv *c, uint32_t d)
{
   struct tsr_lower *l = c->l;
   struct spirv_builder *b = &l->b;
   struct conv s = {.l = l, .n = 1};
   s.u32 = spirv_get_type_int(b, 32, false);
   s.f32 = spirv_get_type_float(b, 32);
   s.boolean = spirv_get_type_bool(b);
   uint32_t f64_1 = spirv_get_type_float(b, 64), u32x2 = spirv_get_type_vector(b, s.u32, 2);
   uint32_t bits[4];
   for (uint32_t i = 0; i < c->n; i++) {
      uint32_t comp = d;
      if (c->n > 1) {
         uint32_t ops[2] = {d, i};
         comp = tsr_op(l, SpvOpCompositeExtract, f64_1, ops, 2);
      }
      /* UnpackDouble2x32 (not OpBitcast, which the GLSL round trip's SPIRV-Cross does not
       * translate): component 0 holds the low-order bits. */
      uint32_t words = tsr_glsl(l, GLSL_UNPACK_DOUBLE_2X32, u32x2, &comp, 1);
      uint32_t lo_ops[2] = {words, 0}, hi_ops[2] = {words, 1};
      bits[i] = narrow_bits_to_odd(&s, tsr_op(l, SpvOpCompositeExtract, s.u32, hi_ops, 2),
                                   tsr_op(l, SpvOpCompositeExtract, s.u32, lo_ops, 2));
   }
   uint32_t all = c->n > 1 ? tsr_op(l, SpvOpCompositeConstruct, c->u32, bits, c->n) : bits[0];
   return tsr_op1(l, SpvOpBitcast, c->f32, all);
}

struct scalar_info {
   enum tsr_elem_kind kind;
   uint32_t bits;
   uint32_t n;
};

static bool
info_of(struct tsr_lower *l, uint32_t type, struct scalar_info *s)
{
   s->n = 1;
   const uint32_t *t = tsr_lower_def_words(l, type);
   if (t && (t[0] & 0xffffu) == SpvOpTypeVector && (t[0] >> 16) == 4) {
      s->n = t[3];
      type = t[2];
   }
   return s->n >= 1 && s->n <= 4 && tsr_lower_scalar_kind(l, type, &s->kind, &s->bits);
}

static bool
is_small(enum tsr_elem_kind kind)
{
   return kind == TSR_ELEM_BF16 || kind == TSR_ELEM_E4M3 || kind == TSR_ELEM_E5M2;
}

/* A non-small source value as binary32. */
static uint32_t
to_f32(struct conv *c, uint32_t opcode, const struct scalar_info *src, uint32_t value,
       enum tsr_elem_kind dst)
{
   if (src->kind == TSR_ELEM_INT)
      return tsr_op1(c->l, opcode, c->f32, value); /* OpConvertSToF / OpConvertUToF */
   if (src->bits == 32)
      return value;
   if (src->bits == 64 && dst != TSR_ELEM_BF16)
      return narrow_to_odd(c, value);
   return tsr_op1(c->l, SpvOpFConvert, c->f32, value);
}

void
tsr_lower_convert(struct tsr_lower *l, uint32_t opcode, uint32_t result_type, uint32_t result,
                  uint32_t value, bool saturate)
{
   struct spirv_builder *b = &l->b;
   struct scalar_info src, dst;
   if (!info_of(l, tsr_lower_type_of(l, value), &src) || !info_of(l, result_type, &dst)) {
      tsr_lower_fail(l, VK_ERROR_INITIALIZATION_FAILED, 0,
                     "conversion %%%u: operand or result is not a scalar or vector", result);
      return;
   }
   struct conv c = {.l = l, .n = dst.n};
   c.u32 = vec(&c, spirv_get_type_int(b, 32, false));
   c.f32 = vec(&c, spirv_get_type_float(b, 32));
   c.boolean = vec(&c, spirv_get_type_bool(b));

   uint32_t f;
   if (is_small(src.kind))
      f = decode(&c, src.kind, value);
   else
      f = to_f32(&c, opcode, &src, value, dst.kind);

   if (is_small(dst.kind)) {
      uint32_t bits =
          dst.kind == TSR_ELEM_BF16 ? encode_bf16(&c, f) : encode_fp8(&c, dst.kind, f, saturate);
      tsr_op_id(l, SpvOpUConvert, result_type, result, &bits, 1);
   } else if (dst.kind == TSR_ELEM_INT) {
      tsr_op_id(l, opcode, result_type, result, &f, 1); /* OpConvertFToS / OpConvertFToU */
   } else if (dst.bits == 32) {
      tsr_op_id(l, SpvOpCopyObject, result_type, result, &f, 1);
   } else {
      tsr_op_id(l, SpvOpFConvert, result_type, result, &f, 1);
   }
}
