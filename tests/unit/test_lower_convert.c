/*
 * Copyright © 2026 The vmel authors
 * SPDX-License-Identifier: MIT
 *
 * The bfloat16 and float8 conversions of the tensor lowering, run on the
 * device through the tensor layer (each lowering path: CTest registers the
 * test with VMEL_EXPERIMENTAL_TENSOR_LOWERING_MODE unset and 1) and compared
 * bit for bit with reference conversions written
 * independently here: float8 results are found by searching every finite
 * code for the nearest value (ties to the even code, and a virtual code one
 * step above the largest finite value to decide overflow), bfloat16 results
 * by comparing the two truncation neighbours. Rules (SPV_KHR_bfloat16,
 * SPV_EXT_float8, design.md §7): round to nearest even; bfloat16 from a
 * double goes through binary32; float8 overflow and infinities give NaN
 * (E4M3) or infinity (E5M2), or the largest finite value with
 * SaturatedToLargestFloat8NormalConversionEXT; NaN stays NaN.
 * Inputs: every float8 and bfloat16 code for decoding; for encoding, every
 * float8 value, the midpoints between neighbours and the floats next to them,
 * doubles a hair off those midpoints (where rounding twice would go wrong),
 * special values, integers, and pseudo-random bit patterns.
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lower_exec.h"
#include "test.h"

TEST_MAIN_STATE;

#define N 65536u

static const char shader[] =
    "OpCapability Shader\n"
    "OpCapability Float64\n"
    "OpCapability BFloat16TypeKHR\n"
    "OpCapability Float8EXT\n"
    "OpCapability TensorsARM\n"
    "OpExtension \"SPV_ARM_tensors\"\n"
    "OpExtension \"SPV_KHR_bfloat16\"\n"
    "OpExtension \"SPV_EXT_float8\"\n"
    "OpMemoryModel Logical GLSL450\n"
    "OpEntryPoint GLCompute %main \"main\" %gid %fin %bf %e4 %e4s %e5 %e5s %din %e4d %bfd %e4in "
    "%e4f %e5in %e5f %bfin %bff %iin %e4i %bfi %e5d\n"
    "OpExecutionMode %main LocalSize 64 1 1\n"
    "OpDecorate %gid BuiltIn GlobalInvocationId\n"
    "OpDecorate %fin DescriptorSet 0\n"
    "OpDecorate %fin Binding 0\n"
    "OpDecorate %bf DescriptorSet 0\n"
    "OpDecorate %bf Binding 1\n"
    "OpDecorate %e4 DescriptorSet 0\n"
    "OpDecorate %e4 Binding 2\n"
    "OpDecorate %e4s DescriptorSet 0\n"
    "OpDecorate %e4s Binding 3\n"
    "OpDecorate %e5 DescriptorSet 0\n"
    "OpDecorate %e5 Binding 4\n"
    "OpDecorate %e5s DescriptorSet 0\n"
    "OpDecorate %e5s Binding 5\n"
    "OpDecorate %din DescriptorSet 0\n"
    "OpDecorate %din Binding 6\n"
    "OpDecorate %e4d DescriptorSet 0\n"
    "OpDecorate %e4d Binding 7\n"
    "OpDecorate %bfd DescriptorSet 0\n"
    "OpDecorate %bfd Binding 8\n"
    "OpDecorate %e4in DescriptorSet 0\n"
    "OpDecorate %e4in Binding 9\n"
    "OpDecorate %e4f DescriptorSet 0\n"
    "OpDecorate %e4f Binding 10\n"
    "OpDecorate %e5in DescriptorSet 0\n"
    "OpDecorate %e5in Binding 11\n"
    "OpDecorate %e5f DescriptorSet 0\n"
    "OpDecorate %e5f Binding 12\n"
    "OpDecorate %bfin DescriptorSet 0\n"
    "OpDecorate %bfin Binding 13\n"
    "OpDecorate %bff DescriptorSet 0\n"
    "OpDecorate %bff Binding 14\n"
    "OpDecorate %iin DescriptorSet 0\n"
    "OpDecorate %iin Binding 15\n"
    "OpDecorate %e4i DescriptorSet 0\n"
    "OpDecorate %e4i Binding 16\n"
    "OpDecorate %bfi DescriptorSet 0\n"
    "OpDecorate %bfi Binding 17\n"
    "OpDecorate %e5d DescriptorSet 0\n"
    "OpDecorate %e5d Binding 18\n"
    "!0x00030047 %e4s_v 4216\n"
    "!0x00030047 %e5s_v 4216\n"
    "%void = OpTypeVoid\n"
    "%uint = OpTypeInt 32 0\n"
    "%int = OpTypeInt 32 1\n"
    "%float = OpTypeFloat 32\n"
    "%double = OpTypeFloat 64\n"
    "%bf16 = OpTypeFloat 16 BFloat16KHR\n"
    "%e4m3 = OpTypeFloat 8 Float8E4M3EXT\n"
    "%e5m2 = OpTypeFloat 8 Float8E5M2EXT\n"
    "%v3uint = OpTypeVector %uint 3\n"
    "%uint_1 = OpConstant %uint 1\n"
    "%coords = OpTypeArray %uint %uint_1\n"
    "%T_f32 = OpTypeTensorARM %float %uint_1\n"
    "%T_f64 = OpTypeTensorARM %double %uint_1\n"
    "%T_i32 = OpTypeTensorARM %int %uint_1\n"
    "%T_bf = OpTypeTensorARM %bf16 %uint_1\n"
    "%T_e4 = OpTypeTensorARM %e4m3 %uint_1\n"
    "%T_e5 = OpTypeTensorARM %e5m2 %uint_1\n"
    "%P_f32 = OpTypePointer UniformConstant %T_f32\n"
    "%P_f64 = OpTypePointer UniformConstant %T_f64\n"
    "%P_i32 = OpTypePointer UniformConstant %T_i32\n"
    "%P_bf = OpTypePointer UniformConstant %T_bf\n"
    "%P_e4 = OpTypePointer UniformConstant %T_e4\n"
    "%P_e5 = OpTypePointer UniformConstant %T_e5\n"
    "%ptr_in = OpTypePointer Input %v3uint\n"
    "%gid = OpVariable %ptr_in Input\n"
    /* Bindings, in this order: */
    "%fin = OpVariable %P_f32 UniformConstant\n" /* 0 */
    "%bf = OpVariable %P_bf UniformConstant\n"   /* 1 */
    "%e4 = OpVariable %P_e4 UniformConstant\n"   /* 2 */
    "%e4s = OpVariable %P_e4 UniformConstant\n"  /* 3 */
    "%e5 = OpVariable %P_e5 UniformConstant\n"   /* 4 */
    "%e5s = OpVariable %P_e5 UniformConstant\n"  /* 5 */
    "%din = OpVariable %P_f64 UniformConstant\n" /* 6 */
    "%e4d = OpVariable %P_e4 UniformConstant\n"  /* 7 */
    "%bfd = OpVariable %P_bf UniformConstant\n"  /* 8 */
    "%e4in = OpVariable %P_e4 UniformConstant\n" /* 9 */
    "%e4f = OpVariable %P_f32 UniformConstant\n" /* 10 */
    "%e5in = OpVariable %P_e5 UniformConstant\n" /* 11 */
    "%e5f = OpVariable %P_f32 UniformConstant\n" /* 12 */
    "%bfin = OpVariable %P_bf UniformConstant\n" /* 13 */
    "%bff = OpVariable %P_f32 UniformConstant\n" /* 14 */
    "%iin = OpVariable %P_i32 UniformConstant\n" /* 15 */
    "%e4i = OpVariable %P_e4 UniformConstant\n"  /* 16 */
    "%bfi = OpVariable %P_bf UniformConstant\n"  /* 17 */
    "%e5d = OpVariable %P_e5 UniformConstant\n"  /* 18 */
    "%fn = OpTypeFunction %void\n"
    "%main = OpFunction %void None %fn\n"
    "%entry = OpLabel\n"
    "%id = OpLoad %v3uint %gid\n"
    "%x = OpCompositeExtract %uint %id 0\n"
    "%c = OpCompositeConstruct %coords %x\n"
    "%t_fin = OpLoad %T_f32 %fin\n"
    "%t_bf = OpLoad %T_bf %bf\n"
    "%t_e4 = OpLoad %T_e4 %e4\n"
    "%t_e4s = OpLoad %T_e4 %e4s\n"
    "%t_e5 = OpLoad %T_e5 %e5\n"
    "%t_e5s = OpLoad %T_e5 %e5s\n"
    "%t_din = OpLoad %T_f64 %din\n"
    "%t_e4d = OpLoad %T_e4 %e4d\n"
    "%t_bfd = OpLoad %T_bf %bfd\n"
    "%t_e4in = OpLoad %T_e4 %e4in\n"
    "%t_e4f = OpLoad %T_f32 %e4f\n"
    "%t_e5in = OpLoad %T_e5 %e5in\n"
    "%t_e5f = OpLoad %T_f32 %e5f\n"
    "%t_bfin = OpLoad %T_bf %bfin\n"
    "%t_bff = OpLoad %T_f32 %bff\n"
    "%t_iin = OpLoad %T_i32 %iin\n"
    "%t_e4i = OpLoad %T_e4 %e4i\n"
    "%t_bfi = OpLoad %T_bf %bfi\n"
    "%t_e5d = OpLoad %T_e5 %e5d\n"
    "%f = OpTensorReadARM %float %t_fin %c\n"
    "%bf_v = OpFConvert %bf16 %f\n"
    "OpTensorWriteARM %t_bf %c %bf_v\n"
    "%e4_v = OpFConvert %e4m3 %f\n"
    "OpTensorWriteARM %t_e4 %c %e4_v\n"
    "%e4s_v = OpFConvert %e4m3 %f\n"
    "OpTensorWriteARM %t_e4s %c %e4s_v\n"
    "%e5_v = OpFConvert %e5m2 %f\n"
    "OpTensorWriteARM %t_e5 %c %e5_v\n"
    "%e5s_v = OpFConvert %e5m2 %f\n"
    "OpTensorWriteARM %t_e5s %c %e5s_v\n"
    "%d = OpTensorReadARM %double %t_din %c\n"
    "%e4d_v = OpFConvert %e4m3 %d\n"
    "OpTensorWriteARM %t_e4d %c %e4d_v\n"
    "%e5d_v = OpFConvert %e5m2 %d\n"
    "OpTensorWriteARM %t_e5d %c %e5d_v\n"
    "%bfd_v = OpFConvert %bf16 %d\n"
    "OpTensorWriteARM %t_bfd %c %bfd_v\n"
    "%q4 = OpTensorReadARM %e4m3 %t_e4in %c\n"
    "%q4f = OpFConvert %float %q4\n"
    "OpTensorWriteARM %t_e4f %c %q4f\n"
    "%q5 = OpTensorReadARM %e5m2 %t_e5in %c\n"
    "%q5f = OpFConvert %float %q5\n"
    "OpTensorWriteARM %t_e5f %c %q5f\n"
    "%qb = OpTensorReadARM %bf16 %t_bfin %c\n"
    "%qbf = OpFConvert %float %qb\n"
    "OpTensorWriteARM %t_bff %c %qbf\n"
    "%i = OpTensorReadARM %int %t_iin %c\n"
    "%e4i_v = OpConvertSToF %e4m3 %i\n"
    "OpTensorWriteARM %t_e4i %c %e4i_v\n"
    "%bfi_v = OpConvertSToF %bf16 %i\n"
    "OpTensorWriteARM %t_bfi %c %bfi_v\n"
    "OpReturn\n"
    "OpFunctionEnd\n";

enum {
   FIN,
   BF,
   E4,
   E4S,
   E5,
   E5S,
   DIN,
   E4D,
   BFD,
   E4IN,
   E4F,
   E5IN,
   E5F,
   BFIN,
   BFF,
   IIN,
   E4I,
   BFI,
   E5D,
   COUNT
};
static const uint32_t sizes[COUNT] = {4, 2, 1, 1, 1, 1, 8, 1, 2, 1, 4, 1, 4, 2, 4, 4, 1, 2, 1};

/* ---- references -------------------------------------------------------------- */

struct fp8 {
   unsigned mbits, bias, max_code;
};
static const struct fp8 E4M3 = {3, 7, 0x7e}, E5M2 = {2, 15, 0x7b};

/* Magnitude of a code (0..0x7f) as if the exponent were unbounded: no NaN/inf. */
static double
fp8_magnitude(const struct fp8 *f, unsigned code)
{
   unsigned e = code >> f->mbits, m = code & ((1u << f->mbits) - 1);
   if (e == 0)
      return ldexp((double)m, 1 - (int)f->bias - (int)f->mbits);
   return ldexp((double)((1u << f->mbits) | m), (int)e - (int)f->bias - (int)f->mbits);
}

static double
fp8_decode(const struct fp8 *f, uint8_t code)
{
   unsigned mag = code & 0x7f;
   double v;
   if (f == &E4M3 && mag == 0x7f)
      v = NAN;
   else if (f == &E5M2 && mag >= 0x7c)
      v = mag == 0x7c ? INFINITY : NAN;
   else
      v = fp8_magnitude(f, mag);
   return code & 0x80 ? -v : v;
}

/* Returns the float8 code of x; nan receives whether the result must be NaN. */
static uint8_t
fp8_encode(const struct fp8 *f, double x, bool saturate, bool *nan)
{
   *nan = isnan(x);
   if (*nan)
      return 0x7f;
   uint8_t sign = signbit(x) ? 0x80 : 0;
   double a = fabs(x);
   unsigned code = f->max_code + 1; /* virtual: the next value above the largest */
   if (!isinf(a)) {
      unsigned lo = 0;
      while (lo < f->max_code && fp8_magnitude(f, lo + 1) <= a)
         lo++;
      double vlo = fp8_magnitude(f, lo), vhi = fp8_magnitude(f, lo + 1);
      if (a - vlo < vhi - a || (a - vlo == vhi - a && !(lo & 1)))
         code = lo;
      else
         code = lo + 1;
   }
   if (code > f->max_code) {
      if (saturate)
         return sign | f->max_code;
      *nan = f == &E4M3;
      return sign | (f == &E4M3 ? 0x7f : 0x7c);
   }
   return sign | code;
}

static double
f32_bits_magnitude(uint32_t u) /* unbounded exponent: 0x7f800000 is 2^128 */
{
   uint32_t e = (u >> 23) & 0xff, m = u & 0x7fffff;
   if (e == 0)
      return ldexp((double)m, -149);
   return ldexp((double)(m | 0x800000u), (int)e - 150);
}

static uint16_t
bf16_encode(float f, bool *nan)
{
   *nan = isnan(f);
   uint32_t u;
   memcpy(&u, &f, 4);
   if (isinf(f))
      return (uint16_t)(u >> 16);
   uint32_t lo = u & 0xffff0000u, hi = lo + 0x10000u;
   double a = fabs((double)f), dlo = f32_bits_magnitude(lo & 0x7fffffff),
          dhi = f32_bits_magnitude(hi & 0x7fffffff);
   if (a - dlo < dhi - a || (a - dlo == dhi - a && !((lo >> 16) & 1)))
      return (uint16_t)(lo >> 16);
   return (uint16_t)(hi >> 16);
}

/* ---- inputs ---------------------------------------------------------------- */

static uint32_t rng = 12345;

static uint32_t
next_random(void)
{
   rng = rng * 1664525u + 1013904223u;
   return rng ^ (rng >> 13);
}

static void
fill_inputs(struct lx_tensor *t)
{
   float *fin = t[FIN].data.map;
   double *din = t[DIN].data.map;
   int32_t *iin = t[IIN].data.map;
   uint8_t *e4in = t[E4IN].data.map, *e5in = t[E5IN].data.map;
   uint16_t *bfin = t[BFIN].data.map;
   uint32_t n = 0;
   const struct fp8 *fmts[2] = {&E4M3, &E5M2};
   for (int k = 0; k < 2; k++) {
      for (unsigned code = 0; code <= fmts[k]->max_code + 1; code++) {
         double v = fp8_magnitude(fmts[k], code), w = fp8_magnitude(fmts[k], code + 1);
         double mid = (v + w) / 2;
         float fm = (float)mid;
         float list[5] = {(float)v, fm, nextafterf(fm, 0), nextafterf(fm, INFINITY), (float)-mid};
         for (int i = 0; i < 5; i++)
            fin[n + i] = list[i];
         double off = ldexp(mid, -40);
         double dlist[5] = {v, mid, mid + off, mid - off, -(mid + off)};
         for (int i = 0; i < 5; i++)
            din[n + i] = dlist[i];
         n += 5;
      }
   }
   const float specials[] = {0.0f,          -0.0f,         INFINITY, -INFINITY, NAN,    FLT_MAX,
                             -FLT_MAX,      FLT_MIN,       1e-40f,   -1e-40f,   1e-10f, 1e10f,
                             3.3961776e38f, 3.3961775e38f, 1.0f,     -1.0f,     0.1f,   65504.0f};
   for (size_t i = 0; i < sizeof(specials) / sizeof(specials[0]); i++) {
      fin[n] = specials[i];
      din[n++] = specials[i];
   }
   din[n++] = 1e300;
   din[n++] = -1e-300;
   din[n++] = (double)NAN;
   for (; n < N; n++) {
      uint32_t u = next_random();
      memcpy(&fin[n], &u, 4);
      if (n % 2)
         fin[n] = ldexp((float)(u % 4096) - 2048, (int)(u >> 20) % 32 - 24);
      din[n] = ldexp((double)(int32_t)next_random(), (int)(next_random() % 64) - 60);
   }
   for (uint32_t i = 0; i < N; i++) {
      iin[i] = i < 4096 ? (int32_t)i - 2048 : (int32_t)next_random() >> (i % 31);
      e4in[i] = (uint8_t)i;
      e5in[i] = (uint8_t)i;
      bfin[i] = (uint16_t)i;
   }
}

/* ---- checks ------------------------------------------------------------------ */

static unsigned
check_fp8(const struct lx_tensor *t, int out, const struct fp8 *f, bool saturate, bool from_f64)
{
   const uint8_t *got = t[out].data.map;
   unsigned bad = 0;
   for (uint32_t i = 0; i < N; i++) {
      double x = from_f64     ? ((const double *)t[DIN].data.map)[i]
                 : out == E4I ? (double)((const int32_t *)t[IIN].data.map)[i]
                              : (double)((const float *)t[FIN].data.map)[i];
      bool nan;
      uint8_t want = fp8_encode(f, x, saturate, &nan);
      bool ok_value = nan ? isnan(fp8_decode(f, got[i])) : got[i] == want;
      if (!ok_value && bad++ < 5)
         fprintf(stderr, "  binding %d element %u: %.17g -> 0x%02x, expected 0x%02x%s\n", out, i, x,
                 got[i], want, nan ? " (NaN)" : "");
   }
   return bad;
}

static unsigned
check_bf16(const struct lx_tensor *t, int out)
{
   const uint16_t *got = t[out].data.map;
   unsigned bad = 0;
   for (uint32_t i = 0; i < N; i++) {
      float f = out == BFD   ? (float)((const double *)t[DIN].data.map)[i]
                : out == BFI ? (float)((const int32_t *)t[IIN].data.map)[i]
                             : ((const float *)t[FIN].data.map)[i];
      bool nan;
      uint16_t want = bf16_encode(f, &nan);
      bool ok_value = nan ? ((got[i] & 0x7f80) == 0x7f80 && (got[i] & 0x7f)) : got[i] == want;
      if (!ok_value && bad++ < 5)
         fprintf(stderr, "  binding %d element %u: %.9g -> 0x%04x, expected 0x%04x\n", out, i,
                 (double)f, got[i], want);
   }
   return bad;
}

static unsigned
check_decode(const struct lx_tensor *t, int in, int out, const struct fp8 *f)
{
   const float *got = t[out].data.map;
   unsigned bad = 0;
   for (uint32_t i = 0; i < N; i++) {
      double want;
      if (f) {
         want = fp8_decode(f, ((const uint8_t *)t[in].data.map)[i]);
      } else {
         uint32_t u = (uint32_t)((const uint16_t *)t[in].data.map)[i] << 16;
         float w;
         memcpy(&w, &u, 4);
         want = w;
      }
      bool same = isnan(want) ? isnan(got[i])
                              : (double)got[i] == want && !signbit(got[i]) == !signbit(want);
      if (!same && bad++ < 5)
         fprintf(stderr, "  binding %d element %u: got %.9g, expected %.9g\n", out, i,
                 (double)got[i], want);
   }
   return bad;
}

int
main(void)
{
   struct lx x;
   if (!lx_init(&x)) {
      lx_finish(&x);
      return test_skip("no Vulkan device with buffer device addresses and small types");
   }
   printf("lowering: %s\n", lx_mode());
   struct lx_tensor t[COUNT];
   bool created = true;
   uint32_t dims[1] = {N};
   for (int i = 0; i < COUNT; i++)
      created = lx_tensor_create(&x, 1, dims, NULL, sizes[i], &t[i]) && created;
   size_t n = 0;
   uint32_t *spv = created ? lx_module("conversions", shader, &n) : NULL;
   if (ok(spv != NULL, "setup failed")) {
      fill_inputs(t);
      struct lx_binding b[COUNT];
      for (int i = 0; i < COUNT; i++)
         b[i] = (struct lx_binding){1, {&t[i].record}};
      struct lx_dispatch d = {spv, n, b, COUNT, {N / 64, 1, 1}, NULL};
      if (ok(lx_run(&x, &d), "dispatch failed")) {
         ok(check_bf16(t, BF) == 0, "float -> bfloat16");
         ok(check_fp8(t, E4, &E4M3, false, false) == 0, "float -> e4m3");
         ok(check_fp8(t, E4S, &E4M3, true, false) == 0, "float -> e4m3, saturating");
         ok(check_fp8(t, E5, &E5M2, false, false) == 0, "float -> e5m2");
         ok(check_fp8(t, E5S, &E5M2, true, false) == 0, "float -> e5m2, saturating");
         ok(check_fp8(t, E4D, &E4M3, false, true) == 0, "double -> e4m3");
         ok(check_fp8(t, E5D, &E5M2, false, true) == 0, "double -> e5m2");
         ok(check_bf16(t, BFD) == 0, "double -> bfloat16 (through float)");
         ok(check_decode(t, E4IN, E4F, &E4M3) == 0, "e4m3 -> float");
         ok(check_decode(t, E5IN, E5F, &E5M2) == 0, "e5m2 -> float");
         ok(check_decode(t, BFIN, BFF, NULL) == 0, "bfloat16 -> float");
         ok(check_fp8(t, E4I, &E4M3, false, false) == 0, "int -> e4m3");
         ok(check_bf16(t, BFI) == 0, "int -> bfloat16");
      }
   }
   free(spv);
   for (int i = 0; i < COUNT; i++)
      lx_tensor_destroy(&x, &t[i]);
   lx_finish(&x);
   return test_done();
}
